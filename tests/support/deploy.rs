//! The parts of a deployment that tests and benches start: nexus-lite serving the Nexus API over
//! HTTP, and HAProxy (Debian's package, unpacked by .ci/setup) in front of replicas, configured
//! by deployment/haproxy.cfg.

use super::{Fixture, free_port, root, tee_lines, tool_path, wait_for_line};
use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// A child process killed (and reaped) on drop.
pub struct Killed(pub Child);

impl Drop for Killed {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// `lite` (a nexus-lite binary) indexing the fixture into `data`, then serving it over HTTP with
/// `token`: the process and its address.
pub fn nexus_lite(
    lite: &Path,
    fixture: &Fixture,
    data: &Path,
    token: &str,
) -> (Killed, SocketAddr) {
    assert!(
        lite.exists(),
        "{} is missing: build it (`cargo build -p nexus-lite`, or --release for a bench)",
        lite.display()
    );
    let indexed = Command::new(lite)
        .args(["index", "--repo", &fixture.repo_arg(), "--data-dir"])
        .arg(data)
        .env("PATH", tool_path())
        .output()
        .expect("run nexus-lite index");
    assert!(
        indexed.status.success(),
        "nexus-lite index failed: {}",
        String::from_utf8_lossy(&indexed.stderr)
    );
    let port = free_port();
    let mut child = Command::new(lite)
        .args(["serve", "--listen", &format!("127.0.0.1:{port}"), "--repo"])
        .arg(fixture.repo_arg())
        .arg("--data-dir")
        .arg(data)
        .env("NEXUS_API_TOKEN", token)
        .env("PATH", tool_path())
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn nexus-lite serve");
    let log = Arc::new(Mutex::new(String::new()));
    let rx = tee_lines(child.stderr.take().expect("piped stderr"), log.clone());
    wait_for_line(
        &rx,
        "nexus-lite listening on",
        Duration::from_secs(60),
        &log,
        "nexus-lite serve",
    );
    // Keep draining stderr so a chatty server never blocks on a full pipe.
    std::thread::spawn(move || while rx.recv().is_ok() {});
    (Killed(child), SocketAddr::from(([127, 0, 0, 1], port)))
}

/// HAProxy unpacked by .ci/setup: (binary, its library directory).
pub fn haproxy_bin() -> Option<(PathBuf, PathBuf)> {
    let dir = root().join(".ci/cache/haproxy/root");
    let bin = dir.join("usr/sbin/haproxy");
    bin.exists()
        .then(|| (bin, dir.join("usr/lib/x86_64-linux-gnu")))
}

/// deployment/haproxy.cfg listening on `front`, its server lines replaced by `replicas`.
pub fn haproxy_config(front: u16, replicas: &[SocketAddr]) -> String {
    let template = std::fs::read_to_string(root().join("deployment/haproxy.cfg"))
        .expect("deployment/haproxy.cfg");
    let mut config: String = template
        .lines()
        .filter(|l| !l.trim_start().starts_with("server "))
        .map(|l| format!("{l}\n"))
        .collect::<String>()
        .replace("127.0.0.1:8080", &format!("127.0.0.1:{front}"));
    for (i, addr) in replicas.iter().enumerate() {
        let name = char::from(b'a' + u8::try_from(i % 26).unwrap_or(0));
        config.push_str(&format!(
            "    server {name} {addr} check inter 500ms fall 1 rise 1\n"
        ));
    }
    config
}

/// HAProxy (`bin` from [`haproxy_bin`]) running `config` (written into `dir`), once its
/// frontend on `front` accepts connections.
pub fn haproxy(bin: &(PathBuf, PathBuf), config: &str, dir: &Path, front: u16) -> Killed {
    let path = dir.join("haproxy.cfg");
    std::fs::write(&path, config).expect("write haproxy.cfg");
    let mut child = Command::new(&bin.0)
        .arg("-f")
        .arg(&path)
        .arg("-db")
        .env("LD_LIBRARY_PATH", &bin.1)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::inherit())
        .spawn()
        .expect("spawn haproxy");
    // HAProxy says nothing when it listens (its start-up lines go to a buffered stdout): the
    // frontend is ready when it accepts a connection.
    let deadline = Instant::now() + Duration::from_secs(30);
    while std::net::TcpStream::connect(("127.0.0.1", front)).is_err() {
        if let Ok(Some(status)) = child.try_wait() {
            panic!("HAProxy exited ({status}) before listening; its alerts are above");
        }
        assert!(
            Instant::now() < deadline,
            "HAProxy did not listen within 30 s"
        );
        std::thread::yield_now();
    }
    Killed(child)
}
