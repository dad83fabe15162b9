//! Hostile git repositories: each one plants one way for a repository to make git run a
//! program of its choosing, a script that creates a marker file outside the repository.
//! Shared by the tests of nexus-lite (indexing) and nexus-mcp (freshness), through `#[path]`.
#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::Command;

/// Every planted vector.
pub const VECTORS: &[&str] = &[
    "fsmonitor",
    "include_path_fsmonitor",
    "hooks_path",
    "diff_external",
    "textconv",
    "clean_filter",
    "clean_filter_in_info_attributes",
    "ssh_command",
    "pager",
];

/// The tracked file the tests modify (same size, so `git status` must hash it, through any
/// clean filter) and that bandit flags (B324, line 5).
pub const DIRTY_FILE: &str = "app/digest.py";

/// A commit no repository here contains: a partial clone fetches it lazily (over ssh).
pub const MISSING_COMMIT: &str = "0123456789abcdef0123456789abcdef01234567";

pub struct Hostile {
    pub vector: &'static str,
    pub repo: PathBuf,
    pub marker: PathBuf,
}

impl Hostile {
    /// Whether the planted program ran.
    pub fn fired(&self) -> bool {
        self.marker.exists()
    }
}

/// Plain git for building the fixture (never the code under test).
pub fn git(dir: &Path, args: &[&str]) -> String {
    let out = Command::new("git")
        .arg("-C")
        .arg(dir)
        .args([
            "-c",
            "user.name=Nexus Test",
            "-c",
            "user.email=t@example.com",
        ])
        .args(args)
        .output()
        .expect("git runs");
    assert!(
        out.status.success(),
        "git {args:?} failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).trim().to_string()
}

fn write(path: &Path, text: &str) {
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, text).unwrap();
}

/// A committed repository under `base` with `vector` planted (configured after the commit, so
/// building it runs nothing) and [`DIRTY_FILE`] modified in the work tree.
pub fn plant(base: &Path, vector: &'static str) -> Hostile {
    let repo = base.join(format!("repo-{vector}"));
    let marker = base.join(format!("marker-{vector}"));
    std::fs::create_dir_all(&repo).unwrap();
    git(&repo, &["init", "-q", "-b", "main"]);
    write(&repo.join("app/__init__.py"), "");
    let digest = "# v1\nimport hashlib\n\ndef digest(b):\n    return hashlib.sha1(b).hexdigest()\n";
    write(&repo.join(DIRTY_FILE), digest);
    write(&repo.join(".gitattributes"), "*.py filter=evil diff=evil\n");
    git(&repo, &["add", "-A"]);
    git(&repo, &["commit", "-qm", "initial"]);

    let script = base.join(format!("evil-{vector}.sh"));
    write(
        &script,
        &format!("#!/bin/sh\ntouch '{}'\nexec cat \"$@\"\n", marker.display()),
    );
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).unwrap();
    }
    let script = script.to_str().unwrap();
    let config = |key: &str, value: &str| {
        git(&repo, &["config", key, value]);
    };
    match vector {
        "fsmonitor" => config("core.fsmonitor", script),
        "include_path_fsmonitor" => {
            let included = base.join(format!("evil-{vector}.config"));
            write(&included, &format!("[core]\n\tfsmonitor = {script}\n"));
            config("include.path", included.to_str().unwrap());
        }
        "hooks_path" => {
            let hooks = base.join(format!("hooks-{vector}"));
            for hook in [
                "post-index-change",
                "reference-transaction",
                "post-checkout",
            ] {
                let path = hooks.join(hook);
                write(&path, &std::fs::read_to_string(script).unwrap());
                #[cfg(unix)]
                {
                    use std::os::unix::fs::PermissionsExt;
                    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755))
                        .unwrap();
                }
            }
            config("core.hooksPath", hooks.to_str().unwrap());
        }
        "diff_external" => config("diff.external", script),
        "textconv" => config("diff.evil.textconv", script),
        "clean_filter" => {
            config("filter.evil.clean", script);
            config("filter.evil.required", "true");
        }
        "clean_filter_in_info_attributes" => {
            // Not in the work tree: attributes of the git dir apply whatever the attribute source.
            write(&repo.join(".git/info/attributes"), "*.py filter=Evil.Two\n");
            config("filter.Evil.Two.process", script);
            config("filter.Evil.Two.clean", script);
        }
        "ssh_command" => {
            // A partial clone: a missing object is fetched from origin, over ssh.
            config("core.repositoryformatversion", "1");
            config("extensions.partialClone", "origin");
            config("remote.origin.url", "ssh://example.invalid/repo.git");
            config("remote.origin.promisor", "true");
            config("core.sshCommand", script);
        }
        "pager" => config("core.pager", script),
        other => panic!("unknown vector {other}"),
    }
    // Same size, new content: only hashing the file shows it changed.
    write(&repo.join(DIRTY_FILE), &digest.replace("# v1", "# v2"));
    assert!(
        !marker.exists(),
        "building the fixture ran the planted program"
    );
    Hostile {
        vector,
        repo,
        marker,
    }
}
