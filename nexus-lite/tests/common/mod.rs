//! Shared helpers for the integration tests: a real git fixture repository, a tiny blocking
//! HTTP client and analyser detection.
#![allow(dead_code)]

pub mod corpora;
pub mod generated_backlog;
pub mod sdist;

use nexus_lite::{AppState, LiteConfig, RepoSpec};
use serde_json::Value;
use std::collections::BTreeSet;
use std::io::{Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::path::Path;
use std::process::Command;
use std::sync::Arc;

pub const TOKEN: &str = "test-token-0123456789";

/// A real nexus-lite server on 127.0.0.1 (its own thread and runtime); stops when dropped.
pub struct Server {
    pub addr: SocketAddr,
    pub state: Arc<AppState>,
    stop: Option<std::sync::mpsc::Sender<()>>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl Server {
    pub fn stop(mut self) {
        self.shutdown();
    }
    fn shutdown(&mut self) {
        if let Some(s) = self.stop.take() {
            let _ = s.send(());
        }
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        self.shutdown();
    }
}

/// Serves one repository (`name`: None takes it from the origin remote) from `data`.
pub fn start_server(
    repo: &Path,
    data: &Path,
    name: Option<&str>,
    index_on_first_use: bool,
) -> Server {
    start_server_keeping(
        repo,
        data,
        name,
        index_on_first_use,
        nexus_lite::DEFAULT_KEEP_GRAPHS,
    )
}

/// [`start_server`], keeping `keep_graphs` ready graphs per branch.
pub fn start_server_keeping(
    repo: &Path,
    data: &Path,
    name: Option<&str>,
    index_on_first_use: bool,
    keep_graphs: usize,
) -> Server {
    let config = LiteConfig {
        keep_graphs,
        data_dir: data.to_path_buf(),
        repos: vec![RepoSpec {
            name: name.map(str::to_string),
            path: repo.to_path_buf(),
        }],
        token: TOKEN.into(),
        index_on_first_use,
        workspaces: Vec::new(),
        docs_limits: Default::default(),
    };
    let (tx, rx) = std::sync::mpsc::channel();
    let (stop_tx, stop_rx) = std::sync::mpsc::channel::<()>();
    let thread = std::thread::spawn(move || {
        let rt = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .enable_all()
            .build()
            .unwrap();
        rt.block_on(async move {
            let running = nexus_lite::spawn(config, "127.0.0.1:0".parse().unwrap())
                .await
                .unwrap();
            tx.send((running.addr, running.state.clone())).unwrap();
            let _ = tokio::task::spawn_blocking(move || stop_rx.recv()).await;
            running.shutdown().await;
        });
    });
    let (addr, state) = rx.recv().unwrap();
    Server {
        addr,
        state,
        stop: Some(stop_tx),
        thread: Some(thread),
    }
}

/// (symbol or path, via, resolution) of every item of an impact answer.
pub fn found(body: &Value) -> BTreeSet<(String, String, String)> {
    body["items"]
        .as_array()
        .unwrap_or_else(|| panic!("no items in {body}"))
        .iter()
        .map(|i| {
            let who = i["symbol"].as_str().or(i["path"].as_str()).unwrap();
            (
                who.to_string(),
                i["via"].as_str().unwrap().to_string(),
                i["resolution"].as_str().unwrap().to_string(),
            )
        })
        .collect()
}

pub fn git(dir: &Path, args: &[&str]) -> String {
    let out = Command::new("git")
        .arg("-C")
        .arg(dir)
        .args([
            "-c",
            "user.name=Nexus Test",
            "-c",
            "user.email=test@example.com",
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

pub fn write(dir: &Path, rel: &str, text: &str) {
    let p = dir.join(rel);
    std::fs::create_dir_all(p.parent().unwrap()).unwrap();
    std::fs::write(p, text).unwrap();
}

/// A small Python project with known issues:
/// - app/crypto.py: `hashlib.sha1` (bandit B324, high) and an unused `import os` (ruff F401)
/// - app/b.py: `from .missing import nothing` (unresolved_import) and a cycle with app/a.py
/// - app/broken.py: a syntax error (parse_error)
/// - tests/test_app.py: `assert` in test code (bandit B101, documented false positive)
pub fn fixture_repo(dir: &Path) {
    git(dir, &["init", "-q", "-b", "main"]);
    write(dir, "app/__init__.py", "");
    write(
        dir,
        "app/crypto.py",
        "import hashlib\nimport os\n\n\ndef digest(data):\n    return hashlib.sha1(data).hexdigest()\n\n\nclass Hasher:\n    def run(self, data):\n        return digest(data)\n",
    );
    write(
        dir,
        "app/a.py",
        "from . import b\n\n\ndef fa():\n    return b.fb()\n",
    );
    write(
        dir,
        "app/b.py",
        "from . import a\nfrom .missing import nothing\n\n\ndef fb():\n    return a, nothing\n",
    );
    write(dir, "app/broken.py", "def broken(:\n    pass\n");
    write(
        dir,
        "app/service.py",
        "from app.crypto import Hasher, digest\n\n\nclass FastHasher(Hasher):\n    def run(self, data):\n        return digest(data) + b\"x\"\n\n\ndef main():\n    return FastHasher().run(b\"x\")\n",
    );
    write(
        dir,
        "tests/test_app.py",
        "from app.service import main\n\n\ndef test_main():\n    assert main()\n",
    );
    write(dir, "README.md", "# fixture\n");
    git(dir, &["add", "-A"]);
    git(dir, &["commit", "-q", "-m", "initial"]);
    git(
        dir,
        &[
            "remote",
            "add",
            "origin",
            "https://github.com/acme/fixture.git",
        ],
    );
}

/// Sets every tracked file's modification time to 2020 (files just written are always read
/// again: see the racy-clean rule in `code::index::reads`).
pub fn age_files(repo: &Path) {
    let files = git(repo, &["ls-files"]);
    for f in files.lines() {
        let st = std::process::Command::new("touch")
            .args(["-m", "-d", "2020-01-01 00:00:00"])
            .arg(repo.join(f))
            .status()
            .unwrap();
        assert!(st.success());
    }
}

pub fn on_path(program: &str) -> bool {
    Command::new(program)
        .arg("--version")
        .output()
        .map(|o| o.status.success())
        .unwrap_or(false)
}

/// True when ruff and bandit are available; fails when CI requires them.
pub fn analysers_available() -> bool {
    let ok = on_path("ruff") && on_path("bandit");
    if !ok {
        if std::env::var("NEXUS_LITE_REQUIRE_ANALYSERS").as_deref() == Ok("1") {
            panic!(
                "ruff and bandit must be on PATH (NEXUS_LITE_REQUIRE_ANALYSERS=1): \
                 bash .ci/setup (it creates .venv with ruff and bandit) and put .venv/bin on PATH"
            );
        }
        eprintln!("skipping analyser assertions: ruff or bandit is not on PATH");
    }
    ok
}

pub struct Resp {
    pub status: u16,
    pub body: Value,
}

/// Minimal HTTP/1.1 client (Connection: close).
pub fn http(
    addr: SocketAddr,
    method: &str,
    path: &str,
    token: Option<&str>,
    body: Option<&str>,
) -> Resp {
    let mut s = TcpStream::connect(addr).expect("connect");
    let mut req = format!("{method} {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n");
    if let Some(t) = token {
        req.push_str(&format!("Authorization: Bearer {t}\r\n"));
    }
    let body = body.unwrap_or("");
    if method == "POST" {
        req.push_str("Content-Type: application/json\r\n");
    }
    req.push_str(&format!("Content-Length: {}\r\n\r\n{body}", body.len()));
    s.write_all(req.as_bytes()).unwrap();
    let mut raw = Vec::new();
    s.read_to_end(&mut raw).unwrap();
    let text = String::from_utf8_lossy(&raw).into_owned();
    let (head, payload) = text.split_once("\r\n\r\n").expect("http response");
    assert!(
        !head
            .to_ascii_lowercase()
            .contains("transfer-encoding: chunked"),
        "unexpected chunked answer"
    );
    let status: u16 = head.split(' ').nth(1).unwrap().parse().unwrap();
    let body = serde_json::from_str(payload).unwrap_or(Value::String(payload.to_string()));
    Resp { status, body }
}

pub fn get(addr: SocketAddr, path: &str) -> Resp {
    http(addr, "GET", path, Some(TOKEN), None)
}

pub fn post(addr: SocketAddr, path: &str, body: &str) -> Resp {
    http(addr, "POST", path, Some(TOKEN), Some(body))
}

/// Percent-encodes a query value.
pub fn enc(s: &str) -> String {
    let mut out = String::new();
    for b in s.bytes() {
        if b.is_ascii_alphanumeric() || b"-_.~".contains(&b) {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}
