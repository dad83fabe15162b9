//! Spawning the nexus-mcp binary as an HTTP server, and reading
//! its output lines with bounded waits.
#![allow(dead_code)]

use super::clients::node22_bin_dir;
use super::fixtures::{Fixture, root};
use std::ffi::OsString;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::path::PathBuf;
use std::process::{Child, Command, Output, Stdio};
use std::sync::mpsc;
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tempfile::TempDir;

/// Path of the binary under test.
pub fn bin() -> PathBuf {
    PathBuf::from(env!("CARGO_BIN_EXE_nexus-mcp"))
}

/// PATH with the repository's `.venv/bin` (ruff, bandit) and Node 22 first, so that the
/// embedded nexus-lite finds its analysers and npm tools find the right node.
pub fn tool_path() -> OsString {
    let mut dirs = vec![root().join(".venv/bin")];
    if let Some(node) = node22_bin_dir() {
        dirs.push(node);
    }
    if let Some(p) = std::env::var_os("PATH") {
        dirs.extend(std::env::split_paths(&p));
    }
    std::env::join_paths(dirs).expect("PATH entries contain no separator")
}

/// A loopback port that was free a moment ago (bind :0, read, drop).
pub fn free_port() -> u16 {
    let l = TcpListener::bind("127.0.0.1:0").expect("bind 127.0.0.1:0");
    l.local_addr().expect("local addr").port()
}

/// Reads `reader` line by line on a thread: every line goes to `log` and to the returned channel.
pub fn tee_lines(
    reader: impl Read + Send + 'static,
    log: Arc<Mutex<String>>,
) -> mpsc::Receiver<String> {
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        for line in BufReader::new(reader).lines() {
            let Ok(line) = line else { break };
            if let Ok(mut l) = log.lock() {
                l.push_str(&line);
                l.push('\n');
            }
            let _ = tx.send(line);
        }
    });
    rx
}

/// Spawns `cmd` (its stderr piped) and waits (bounded) for the stderr line containing `ready`:
/// the child, that line, and its whole stderr so far, which keeps being collected (the pipe never
/// fills).
pub fn spawn_ready(cmd: &mut Command, ready: &str) -> (Child, String, Arc<Mutex<String>>) {
    let mut child = cmd.spawn().expect("spawn nexus-mcp");
    let stderr = Arc::new(Mutex::new(String::new()));
    let rx = tee_lines(child.stderr.take().expect("piped stderr"), stderr.clone());
    let line = wait_for_line(&rx, ready, Duration::from_secs(60), &stderr, ready);
    (child, line, stderr)
}

/// Waits (bounded) for a line containing `needle`; panics with everything read so far otherwise.
pub fn wait_for_line(
    rx: &mpsc::Receiver<String>,
    needle: &str,
    within: Duration,
    log: &Mutex<String>,
    what: &str,
) -> String {
    let deadline = std::time::Instant::now() + within;
    loop {
        let left = deadline.saturating_duration_since(std::time::Instant::now());
        match rx.recv_timeout(left) {
            Ok(line) if line.contains(needle) => return line,
            Ok(_) => {}
            Err(mpsc::RecvTimeoutError::Timeout) => {
                panic!(
                    "{what}: no line containing {needle:?} within {within:?}; output so far:\n{}",
                    log.lock().map(|l| l.clone()).unwrap_or_default()
                )
            }
            Err(mpsc::RecvTimeoutError::Disconnected) => {
                panic!(
                    "{what} exited before printing {needle:?}; output:\n{}",
                    log.lock().map(|l| l.clone()).unwrap_or_default()
                )
            }
        }
    }
}

/// How to start `nexus-mcp serve --transport http`.
#[derive(Clone, Debug, Default)]
pub struct HttpOptions {
    /// Exported as NEXUS_MCP_API_KEY (all scopes).
    pub key: Option<String>,
    /// Pass `--insecure-no-auth`.
    pub insecure_no_auth: bool,
    /// Pass `--threads N` (the server's default is one thread).
    pub threads: Option<u16>,
    /// Serve this surface (`--surface`; default nexus-code-kg).
    pub surface: Option<&'static str>,
}

/// A running `nexus-mcp serve --transport http` over the fixture; killed on drop.
pub struct HttpServer {
    child: Child,
    pub addr: SocketAddr,
    pub key: Option<String>,
    pub stderr: Arc<Mutex<String>>,
    _data: TempDir,
}

impl HttpServer {
    pub fn start(fixture: &Fixture, opts: HttpOptions) -> HttpServer {
        let data = tempfile::tempdir().expect("data tempdir");
        let port = free_port();
        let mut cmd = Command::new(bin());
        if let Some(surface) = opts.surface {
            cmd.args(["--surface", surface]);
        }
        cmd.args([
            "serve",
            "--transport",
            "http",
            "--listen",
            &format!("127.0.0.1:{port}"),
        ])
        .arg("--repo")
        .arg(fixture.repo_arg())
        .arg("--data-dir")
        .arg(data.path())
        .env("PATH", tool_path())
        .env_remove("NEXUS_API_URL")
        .env_remove("NEXUS_MCP_API_KEY")
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped());
        if let Some(k) = &opts.key {
            cmd.env("NEXUS_MCP_API_KEY", k);
        }
        if opts.insecure_no_auth {
            cmd.arg("--insecure-no-auth");
        }
        if let Some(n) = opts.threads {
            cmd.arg("--threads").arg(n.to_string());
        }
        HttpServer::launch(&mut cmd, port, opts.key, data)
    }

    /// Spawns `cmd` (a `serve --transport http` listening on 127.0.0.1:`port`, its stderr
    /// piped) and waits until it listens; `data` is its data directory, removed on drop.
    pub fn launch(cmd: &mut Command, port: u16, key: Option<String>, data: TempDir) -> HttpServer {
        HttpServer::launch_until(cmd, port, key, data, "nexus-mcp listening on")
    }

    /// [`HttpServer::launch`] for any listener of the binary (`view` says `nexus-mcp viewer
    /// on`): waits for the line starting with `ready`.
    pub fn launch_until(
        cmd: &mut Command,
        port: u16,
        key: Option<String>,
        data: TempDir,
        ready: &str,
    ) -> HttpServer {
        let (child, line, stderr) = spawn_ready(cmd, ready);
        assert!(
            line.contains(&format!("127.0.0.1:{port}")),
            "server bound elsewhere than asked: {line}"
        );
        HttpServer {
            child,
            addr: SocketAddr::from(([127, 0, 0, 1], port)),
            key,
            stderr,
            _data: data,
        }
    }

    pub fn url(&self, path: &str) -> String {
        format!("http://{}{path}", self.addr)
    }

    pub fn stderr(&self) -> String {
        self.stderr.lock().map(|s| s.clone()).unwrap_or_default()
    }

    /// The server's data directory (its local Nexus's).
    pub fn data_dir(&self) -> &std::path::Path {
        self._data.path()
    }
}

impl Drop for HttpServer {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A plain HTTP/1.1 request over a std TCP stream (Connection: close): (status, body).
pub fn http_request(
    addr: SocketAddr,
    method: &str,
    path: &str,
    headers: &[(&str, &str)],
    body: &str,
) -> (u16, String) {
    let mut s = TcpStream::connect(addr).expect("connect");
    s.set_read_timeout(Some(Duration::from_secs(30)))
        .expect("timeout");
    let mut req = format!(
        "{method} {path} HTTP/1.1\r\nConnection: close\r\nContent-Length: {}\r\n",
        body.len()
    );
    // The address unless the test names its own Host.
    if !headers.iter().any(|(k, _)| k.eq_ignore_ascii_case("host")) {
        req.push_str(&format!("Host: {addr}\r\n"));
    }
    for (k, v) in headers {
        req.push_str(&format!("{k}: {v}\r\n"));
    }
    req.push_str("\r\n");
    req.push_str(body);
    s.write_all(req.as_bytes()).expect("send request");
    let mut raw = Vec::new();
    s.read_to_end(&mut raw).expect("read response");
    let text = String::from_utf8_lossy(&raw).into_owned();
    let status = text
        .split(' ')
        .nth(1)
        .and_then(|c| c.parse().ok())
        .unwrap_or_else(|| panic!("not an HTTP response: {text}"));
    let body = text
        .split_once("\r\n\r\n")
        .map(|(_, b)| b.to_owned())
        .unwrap_or_default();
    (status, body)
}

/// Runs a client script with a bounded wait and fails the test, with its output, unless it
/// exits 0; its stdout (what it checked) goes to the test log.
pub fn run_client_script(cmd: &mut Command, within: Duration, what: &str) {
    let out = run_bounded(cmd, within, what);
    assert!(
        out.status.success(),
        "{what} found a problem:\n{}\n{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    eprintln!("{}", String::from_utf8_lossy(&out.stdout));
}

/// Runs a client command with a bounded wait; kills it (by pid) when it overruns.
pub fn run_bounded(cmd: &mut Command, within: Duration, what: &str) -> Output {
    let child = cmd
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("cannot start {what}: {e}"));
    let pid = child.id();
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        let _ = tx.send(child.wait_with_output());
    });
    match rx.recv_timeout(within) {
        Ok(out) => out.unwrap_or_else(|e| panic!("{what}: {e}")),
        Err(_) => {
            let _ = Command::new("kill").arg("-9").arg(pid.to_string()).status();
            panic!("{what} did not finish within {within:?}");
        }
    }
}
