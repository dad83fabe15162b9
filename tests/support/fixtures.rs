//! The fixture git repository every end-to-end test serves, and where the workspace is.
#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::Command;
use tempfile::TempDir;

/// The explicit repository name every test serves the fixture under.
pub const REPO_NAME: &str = "acme/shop";

/// The workspace root (where `.venv` and `.ci/cache` live).
pub fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

pub fn git(dir: &Path, args: &[&str]) -> String {
    let out = Command::new("git")
        .arg("-C")
        .arg(dir)
        .args([
            "-c",
            "user.name=t",
            "-c",
            "user.email=t@t",
            "-c",
            "commit.gpgsign=false",
        ])
        .args(args)
        .output()
        .expect("git is on PATH");
    assert!(
        out.status.success(),
        "git {args:?} failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).trim().to_owned()
}

fn write(dir: &Path, rel: &str, text: &str) {
    let p = dir.join(rel);
    std::fs::create_dir_all(p.parent().expect("a relative path has a parent")).expect("mkdir");
    std::fs::write(p, text).expect("write fixture file");
}

/// A committed git repository in a tempdir (deleted on drop).
pub struct Fixture {
    dir: TempDir,
    /// The repository's work tree.
    pub path: PathBuf,
    /// `git rev-parse HEAD` after the fixture commit.
    pub head: String,
}

impl Fixture {
    /// A committed git repository at `path` inside `dir` (a project's sdist, say), served as
    /// [`REPO_NAME`] like the fixture.
    pub fn from_repo(dir: TempDir, path: PathBuf) -> Fixture {
        let head = git(&path, &["rev-parse", "HEAD"]);
        Fixture { dir, path, head }
    }

    /// `acme/shop=PATH`, for `--repo`.
    pub fn repo_arg(&self) -> String {
        format!("{REPO_NAME}={}", self.path.display())
    }
}

/// A small Python project with known problems, committed on branch `main`:
/// - `shop/crypto.py`: `hashlib.sha1(...)` twice, lines 6 and 10 (bandit B324: one proof
///   without a line is ambiguous), and an unused `import os` (ruff F401)
/// - `shop/orders.py` imports its sibling `shop.crypto`; `shop/api.py` imports `shop.orders`
/// - `tests/test_orders.py`: a test module importing `shop.orders`
pub fn fixture_repo() -> Fixture {
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("shop");
    std::fs::create_dir_all(&path).expect("mkdir repo");
    git(&path, &["init", "-q", "-b", "main"]);
    write(&path, "shop/__init__.py", "");
    write(
        &path,
        "shop/crypto.py",
        "import hashlib\nimport os\n\n\ndef h(d):\n    return hashlib.sha1(d).hexdigest()\n\n\ndef legacy(d):\n    return hashlib.sha1(d).digest()\n",
    );
    write(
        &path,
        "shop/orders.py",
        "from shop.crypto import h\n\n\ndef order_id(payload):\n    return h(payload)[:12]\n\n\nclass Order:\n    def __init__(self, payload):\n        self.id = order_id(payload)\n",
    );
    write(
        &path,
        "shop/api.py",
        "from shop.orders import Order\n\n\ndef create(payload):\n    return Order(payload).id\n",
    );
    write(
        &path,
        "tests/test_orders.py",
        "from shop.orders import order_id\n\n\ndef test_order_id():\n    assert len(order_id(b\"x\")) == 12\n",
    );
    write(&path, "README.md", "# shop\n");
    git(&path, &["add", "-A"]);
    git(&path, &["commit", "-q", "-m", "initial"]);
    let head = git(&path, &["rev-parse", "HEAD"]);
    Fixture { dir, path, head }
}

/// An in-process nexus-lite serving `repo` as `name` from `data` over loopback HTTP (as a
/// remote Nexus is): the Nexus that the gate, the `rules` commands and a served surface share
/// in a test through NEXUS_API_URL.
pub struct Lite {
    pub url: String,
    pub token: String,
    pub running: nexus_lite::Running,
}

pub async fn embedded_nexus(name: &str, repo: &Path, data: &Path) -> Lite {
    let token = format!("lite-{}", uuid::Uuid::new_v4().simple());
    let config = nexus_lite::LiteConfig {
        keep_graphs: nexus_lite::DEFAULT_KEEP_GRAPHS,
        data_dir: data.to_path_buf(),
        repos: vec![nexus_lite::RepoSpec {
            name: Some(name.to_owned()),
            path: repo.to_path_buf(),
        }],
        token: token.clone(),
        index_on_first_use: true,
        workspaces: Vec::new(),
        docs_limits: Default::default(),
    };
    let running = nexus_lite::spawn(config, ([127, 0, 0, 1], 0).into())
        .await
        .expect("nexus-lite starts");
    Lite {
        url: running.url(),
        token,
        running,
    }
}

/// A Python file the gate passes, and the same with a shell (bandit B602 on line 5).
pub const SAFE: &str =
    "import subprocess\n\n\ndef run(cmd):\n    return subprocess.run([cmd], check=True)\n";
pub const SHELL: &str = "import subprocess\n\n\ndef run(cmd):\n    return subprocess.run(cmd, shell=True, check=True)\n";

/// Writes `body` at `rel` under `repo`, creating the directories.
pub fn put(repo: &Path, rel: &str, body: &str) {
    let path = repo.join(rel);
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, body).unwrap();
}
