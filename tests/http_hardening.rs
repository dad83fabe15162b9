//! Attacks on the HTTP transport, performed against the real server binary: one key using or
//! ending another key's session, DNS rebinding and cross-origin posts, silent connections that
//! would exhaust the server, an SSE client that never reads, and keys that can never match.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod support;

use serde_json::{Value, json};
use std::io::{ErrorKind, Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};

const OPERATOR: &str = "operator-key";
const READER: &str = "reader-key";

fn hash(key: &str) -> String {
    nexus_mcp_runtime::transport::auth::sha256(key)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

struct Server {
    child: Child,
    addr: SocketAddr,
    log: Arc<Mutex<String>>,
    _data: tempfile::TempDir,
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Server {
    fn url(&self, path: &str) -> String {
        format!("http://{}{path}", self.addr)
    }

    fn rss_kib(&self) -> u64 {
        let status = std::fs::read_to_string(format!("/proc/{}/status", self.child.id())).unwrap();
        status
            .lines()
            .find_map(|l| l.strip_prefix("VmRSS:"))
            .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
            .unwrap()
    }
}

/// `serve --transport http` on 127.0.0.1:0 with the operator (every scope) and reader
/// (kg:read) keys, or with `--insecure-no-auth` when `keys` is false; `extra` flags appended.
fn start(fixture: &support::Fixture, keys: bool, extra: &[&str]) -> Server {
    let data = tempfile::tempdir().unwrap();
    let mut cmd = Command::new(support::bin());
    cmd.args(["serve", "--transport", "http", "--listen", "127.0.0.1:0"])
        .arg("--repo")
        .arg(fixture.repo_arg())
        .arg("--data-dir")
        .arg(data.path())
        .args(extra)
        .env("PATH", support::tool_path())
        .env_remove("NEXUS_API_URL")
        .env_remove("NEXUS_MCP_API_KEY")
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped());
    if keys {
        let tokens = data.path().join("tokens");
        std::fs::write(
            &tokens,
            format!(
                "sha256:{} kg:read,kg:local,kg:regenerate\nsha256:{} kg:read\n",
                hash(OPERATOR),
                hash(READER)
            ),
        )
        .unwrap();
        cmd.arg("--tokens").arg(tokens);
    } else {
        cmd.arg("--insecure-no-auth");
    }
    let mut child = cmd.spawn().unwrap();
    let log = Arc::new(Mutex::new(String::new()));
    let rx = support::tee_lines(child.stderr.take().unwrap(), log.clone());
    let line = support::wait_for_line(
        &rx,
        "nexus-mcp listening on http://",
        Duration::from_secs(60),
        &log,
        "http server",
    );
    let addr = line
        .split("http://")
        .nth(1)
        .and_then(|s| s.split_whitespace().next())
        .unwrap()
        .parse()
        .unwrap();
    Server {
        child,
        addr,
        log,
        _data: data,
    }
}

/// One raw HTTP/1.1 request with exactly these headers (Host included): (status, body).
fn raw(
    addr: SocketAddr,
    method: &str,
    path: &str,
    headers: &[(&str, &str)],
    body: &str,
) -> (u16, String) {
    try_raw(addr, method, path, headers, body)
        .unwrap_or_else(|| panic!("{method} {path}: the connection closed without an answer"))
}

/// `raw`, or None when the connection closed (or was reset) without an HTTP answer.
fn try_raw(
    addr: SocketAddr,
    method: &str,
    path: &str,
    headers: &[(&str, &str)],
    body: &str,
) -> Option<(u16, String)> {
    let mut s = TcpStream::connect(addr).unwrap();
    s.set_read_timeout(Some(Duration::from_secs(30))).unwrap();
    let mut req = format!(
        "{method} {path} HTTP/1.1\r\nConnection: close\r\nContent-Length: {}\r\n",
        body.len()
    );
    for (k, v) in headers {
        req.push_str(&format!("{k}: {v}\r\n"));
    }
    req.push_str("\r\n");
    req.push_str(body);
    s.write_all(req.as_bytes()).unwrap();
    let mut out = Vec::new();
    let _ = s.read_to_end(&mut out);
    let text = String::from_utf8_lossy(&out).into_owned();
    let status = text.split(' ').nth(1).and_then(|c| c.parse().ok())?;
    let body = text
        .split_once("\r\n\r\n")
        .map(|(_, b)| b.to_owned())
        .unwrap_or_default();
    Some((status, body))
}

fn rpc(id: u64, method: &str, params: Value) -> String {
    json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}).to_string()
}

fn initialize(id: u64) -> String {
    rpc(
        id,
        "initialize",
        json!({"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "probe", "version": "1"}}),
    )
}

const INITIALIZED: &str = r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#;

/// A Streamable HTTP request with `key` (and a session): (status, session header, body).
async fn mcp(
    http: &reqwest::Client,
    server: &Server,
    method: reqwest::Method,
    key: &str,
    session: Option<&str>,
    body: Option<String>,
) -> (u16, Option<String>, String) {
    let mut req = http
        .request(method, server.url("/mcp"))
        .bearer_auth(key)
        .header("accept", "application/json, text/event-stream")
        .header("mcp-protocol-version", "2025-06-18");
    if let Some(s) = session {
        req = req.header("mcp-session-id", s);
    }
    if let Some(b) = body {
        req = req.header("content-type", "application/json").body(b);
    }
    let resp = req.send().await.unwrap();
    let status = resp.status().as_u16();
    let id = resp
        .headers()
        .get("mcp-session-id")
        .map(|v| v.to_str().unwrap().to_owned());
    (status, id, resp.text().await.unwrap())
}

/// The operator's 2025 session, initialized.
async fn open_session(http: &reqwest::Client, server: &Server, key: &str) -> String {
    let (status, id, body) = mcp(
        http,
        server,
        reqwest::Method::POST,
        key,
        None,
        Some(initialize(1)),
    )
    .await;
    assert_eq!(status, 200, "{body}");
    let id = id.unwrap();
    let (status, _, body) = mcp(
        http,
        server,
        reqwest::Method::POST,
        key,
        Some(&id),
        Some(INITIALIZED.into()),
    )
    .await;
    assert_eq!(status, 202, "{body}");
    id
}

/// A legacy SSE stream: reads events line by line.
struct SseClient {
    lines: tokio::io::Lines<BufReader<tokio::net::TcpStream>>,
}

impl SseClient {
    /// GET /sse with `key` on a socket with a small receive buffer; returns the client and the
    /// /message path of its session.
    async fn open(addr: SocketAddr, key: Option<&str>) -> (SseClient, String) {
        let socket = tokio::net::TcpSocket::new_v4().unwrap();
        socket.set_recv_buffer_size(4096).unwrap();
        let mut tcp = socket.connect(addr).await.unwrap();
        let auth = key
            .map(|k| format!("Authorization: Bearer {k}\r\n"))
            .unwrap_or_default();
        tcp.write_all(
            format!("GET /sse HTTP/1.1\r\nHost: {addr}\r\nAccept: text/event-stream\r\n{auth}\r\n")
                .as_bytes(),
        )
        .await
        .unwrap();
        let mut client = SseClient {
            lines: BufReader::new(tcp).lines(),
        };
        let status = client.next_line().await;
        assert!(status.starts_with("HTTP/1.1 200"), "{status}");
        loop {
            let line = client.next_line().await;
            if let Some(path) = line.strip_prefix("data: ") {
                return (client, path.trim().to_owned());
            }
        }
    }

    async fn next_line(&mut self) -> String {
        tokio::time::timeout(Duration::from_secs(30), self.lines.next_line())
            .await
            .expect("no SSE line within 30 s")
            .unwrap()
            .expect("SSE stream closed")
    }

    /// The next `message` event's JSON whose id is `id`.
    async fn answer(&mut self, id: u64) -> Value {
        loop {
            let line = self.next_line().await;
            if let Some(data) = line.strip_prefix("data: ")
                && let Ok(v) = serde_json::from_str::<Value>(data)
                && v["id"] == id
            {
                return v;
            }
        }
    }
}

async fn post_message(
    http: &reqwest::Client,
    server: &Server,
    path: &str,
    key: Option<&str>,
    body: String,
) -> u16 {
    let mut req = http
        .post(server.url(path))
        .header("content-type", "application/json")
        .body(body);
    if let Some(k) = key {
        req = req.bearer_auth(k);
    }
    req.send().await.unwrap().status().as_u16()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_key_cannot_use_attach_to_or_end_another_keys_session() {
    let fixture = support::fixture_repo();
    let server = start(&fixture, true, &[]);
    let http = reqwest::Client::new();
    use reqwest::Method;

    // Streamable HTTP: the reader tries the operator's session.
    let session = open_session(&http, &server, OPERATOR).await;
    let dry_run = rpc(
        5,
        "tools/call",
        json!({"name": "kg_regenerate_dry_run", "arguments": {"repository": support::REPO_NAME, "branch": "main"}}),
    );
    let (status, _, body) = mcp(
        &http,
        &server,
        Method::POST,
        READER,
        Some(&session),
        Some(dry_run.clone()),
    )
    .await;
    assert_eq!(
        (status, body.as_str()),
        (404, "Not Found: Session not found"),
        "POST into another key's session"
    );
    let (status, _, _) = mcp(&http, &server, Method::GET, READER, Some(&session), None).await;
    assert_eq!(status, 404, "GET (attach to) another key's stream");
    let (status, _, _) = mcp(&http, &server, Method::DELETE, READER, Some(&session), None).await;
    assert_eq!(status, 404, "DELETE another key's session");
    // An unknown session answers the same.
    let (status, _, body) = mcp(
        &http,
        &server,
        Method::POST,
        READER,
        Some("no-such-session"),
        Some(dry_run.clone()),
    )
    .await;
    assert_eq!(
        (status, body.as_str()),
        (404, "Not Found: Session not found")
    );
    // The operator's session is intact and still has its scopes.
    let (status, _, body) = mcp(
        &http,
        &server,
        Method::POST,
        OPERATOR,
        Some(&session),
        Some(dry_run.clone()),
    )
    .await;
    assert_eq!(status, 200, "{body}");
    assert!(
        body.contains("plan_id"),
        "the operator's dry run ran: {body}"
    );
    let (status, _, _) = mcp(
        &http,
        &server,
        Method::DELETE,
        OPERATOR,
        Some(&session),
        None,
    )
    .await;
    assert!(
        (200..300).contains(&status),
        "the owner ends its session: {status}"
    );
    let (status, _, _) = mcp(
        &http,
        &server,
        Method::POST,
        OPERATOR,
        Some(&session),
        Some(dry_run.clone()),
    )
    .await;
    assert_eq!(status, 404, "a deleted session is gone");

    // Legacy SSE: the reader posts a dry run into the operator's /message.
    let (mut sse, path) = SseClient::open(server.addr, Some(OPERATOR)).await;
    assert_eq!(
        post_message(&http, &server, &path, Some(OPERATOR), initialize(1)).await,
        202
    );
    assert!(sse.answer(1).await["result"]["serverInfo"].is_object());
    assert_eq!(
        post_message(&http, &server, &path, Some(OPERATOR), INITIALIZED.into()).await,
        202
    );
    assert_eq!(
        post_message(&http, &server, &path, Some(READER), dry_run.clone()).await,
        404
    );
    assert_eq!(
        post_message(&http, &server, &path, Some(OPERATOR), dry_run).await,
        202
    );
    let answer = sse.answer(5).await;
    assert!(
        answer["result"]["structuredContent"]["plan"]["plan_id"].is_string(),
        "{answer}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn rebinding_and_cross_origin_requests_are_refused_before_anything_runs() {
    let fixture = support::fixture_repo();
    for keys in [false, true] {
        let server = start(&fixture, keys, &[]);
        let addr = server.addr;
        let own = addr.to_string();
        let own_origin = format!("http://{addr}");
        let key = format!("Bearer {OPERATOR}");
        let mut auth: Vec<(&str, &str)> = Vec::new();
        if keys {
            auth.push(("Authorization", key.as_str()));
        }
        let with = |extra: &[(&'static str, &'static str)]| {
            let mut h = auth.clone();
            h.extend_from_slice(extra);
            h
        };
        let init = initialize(1);
        let json_ct = ("Content-Type", "application/json");
        // A rebinding page: its own name now resolves to 127.0.0.1.
        let evil = [("Host", "evil.example"), ("Origin", "http://evil.example")];
        for (method, path, body) in [
            ("GET", "/sse", ""),
            ("POST", "/message?sessionId=x", init.as_str()),
            ("POST", "/mcp", init.as_str()),
        ] {
            let mut h = with(&evil);
            h.push(json_ct);
            let (status, body) = raw(addr, method, path, &h, body);
            assert_eq!(
                status, 403,
                "keys={keys} {method} {path} with a foreign Host: {body}"
            );
            // A cross-origin page on the right Host (e.g. after the rebinding, or a form post).
            let mut h = with(&[("Origin", "http://evil.example")]);
            h.push(("Host", own.as_str()));
            h.push(json_ct);
            let (status, body) = raw(addr, method, path, &h, &init);
            assert_eq!(
                status, 403,
                "keys={keys} {method} {path} from a foreign Origin: {body}"
            );
        }
        // text/plain is what a page can post cross-origin without a preflight.
        for path in ["/message?sessionId=x", "/mcp"] {
            let mut h = with(&[("Content-Type", "text/plain")]);
            h.push(("Host", own.as_str()));
            let (status, body) = raw(addr, "POST", path, &h, &init);
            assert_eq!(status, 415, "keys={keys} text/plain POST {path}: {body}");
        }
        // The server's own origin and clients sending no Origin are served.
        let mut h = with(&[json_ct, ("Accept", "application/json, text/event-stream")]);
        h.push(("Host", own.as_str()));
        h.push(("Origin", own_origin.as_str()));
        let (status, body) = raw(addr, "POST", "/mcp", &h, &init);
        assert_eq!(status, 200, "keys={keys} same-origin initialize: {body}");
        let (status, _) = raw(addr, "GET", "/healthz", &[("Host", "10.0.0.7:8765")], "");
        assert_eq!(
            status, 200,
            "health answers any Host (probes use the pod IP)"
        );
        let log = server.log.lock().unwrap().clone();
        assert!(
            !log.contains("did not initialize"),
            "no session was started by a refused request: {log}"
        );
    }
}

#[test]
fn silent_connections_cannot_lock_out_clients() {
    let fixture = support::fixture_repo();
    let server = start(
        &fixture,
        true,
        &["--max-connections", "20", "--header-timeout", "1"],
    );
    let opened = Instant::now();
    // 25 sockets that never send a full header: 20 fill the cap, 5 go over it.
    let mut silent: Vec<TcpStream> = (0..25)
        .map(|_| {
            let mut s = TcpStream::connect(server.addr).unwrap();
            s.write_all(b"GET /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\n")
                .unwrap();
            s
        })
        .collect();
    // A legitimate client is answered within a bounded wait: over the cap it gets a 503 at
    // once, and a slot frees when the header timeout closes the silent sockets.
    let deadline = Instant::now() + Duration::from_secs(15);
    let mut statuses = Vec::new();
    loop {
        // Over the cap: a 503 naming the setting (or, rarely, a reset that beat it).
        let answer = try_raw(server.addr, "GET", "/healthz", &[("Host", "127.0.0.1")], "");
        statuses.push(answer.as_ref().map(|a| a.0));
        if let Some((status, body)) = answer {
            if status == 200 {
                break;
            }
            assert_eq!(status, 503, "over the cap: {body}");
            assert!(body.contains("--max-connections"), "{body}");
        }
        assert!(Instant::now() < deadline, "never answered: {statuses:?}");
        std::thread::yield_now();
    }
    // Every silent socket is closed by the server: after the header timeout (in the cap) or
    // at once with a 503 (over it).
    let mut refused = 0;
    for s in &mut silent {
        s.set_read_timeout(Some(Duration::from_secs(10))).unwrap();
        let mut got = Vec::new();
        match s.read_to_end(&mut got) {
            Ok(_) => {}
            Err(e) if e.kind() == ErrorKind::ConnectionReset => {}
            Err(e) => panic!("a silent socket was not closed within 10 s: {e}"),
        }
        let text = String::from_utf8_lossy(&got);
        if text.starts_with("HTTP/1.1 503") {
            refused += 1;
        }
    }
    assert!(
        refused >= 5,
        "the 5 sockets over the cap got a 503: {refused}"
    );
    assert!(
        opened.elapsed() >= Duration::from_secs(1),
        "closed before the header timeout?"
    );
    // An idle kept-alive connection is closed too.
    let mut kept = TcpStream::connect(server.addr).unwrap();
    kept.write_all(b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        .unwrap();
    kept.set_read_timeout(Some(Duration::from_secs(10)))
        .unwrap();
    let mut got = Vec::new();
    let r = kept.read_to_end(&mut got);
    assert!(r.is_ok(), "idle kept-alive connection not closed: {r:?}");
    assert!(String::from_utf8_lossy(&got).starts_with("HTTP/1.1 200"));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_sse_client_that_never_reads_loses_its_session_not_the_server_memory() {
    let fixture = support::fixture_repo();
    let server = start(&fixture, true, &["--stall-timeout", "1"]);
    let http = reqwest::Client::new();
    let (_unread, path) = SseClient::open(server.addr, Some(OPERATOR)).await;
    assert_eq!(
        post_message(&http, &server, &path, Some(OPERATOR), initialize(1)).await,
        202
    );
    assert_eq!(
        post_message(&http, &server, &path, Some(OPERATOR), INITIALIZED.into()).await,
        202
    );
    let rss_before = server.rss_kib();
    // tools/list answers are ~100 KB: the stream fills the socket buffers, then the queue.
    let deadline = Instant::now() + Duration::from_secs(60);
    let mut posted = 0u64;
    let gone = loop {
        assert!(
            Instant::now() < deadline,
            "the session was never closed after {posted} posts"
        );
        posted += 1;
        match post_message(
            &http,
            &server,
            &path,
            Some(OPERATOR),
            rpc(posted + 1, "tools/list", json!({})),
        )
        .await
        {
            202 | 429 => {}
            404 => break posted,
            other => panic!("unexpected status {other}"),
        }
    };
    let rss_after = server.rss_kib();
    assert!(
        rss_after < rss_before + 64 * 1024,
        "RSS grew from {rss_before} to {rss_after} KiB over {gone} unread answers"
    );
    assert_eq!(
        post_message(
            &http,
            &server,
            &path,
            Some(OPERATOR),
            rpc(1, "ping", json!({}))
        )
        .await,
        404,
        "the slow consumer's session is closed"
    );
    // Logged (stderr is read by a thread of its own: poll it, bounded).
    let logged = Instant::now() + Duration::from_secs(10);
    while !server
        .log
        .lock()
        .unwrap()
        .contains("stopped reading its stream")
    {
        assert!(
            Instant::now() < logged,
            "the close was not logged: {}",
            server.log.lock().unwrap()
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    // Other clients are unaffected.
    let (mut other, other_path) = SseClient::open(server.addr, Some(READER)).await;
    assert_eq!(
        post_message(&http, &server, &other_path, Some(READER), initialize(1)).await,
        202
    );
    assert!(other.answer(1).await["result"].is_object());
    open_session(&http, &server, READER).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sessions_per_key_are_capped_with_a_clear_answer() {
    let fixture = support::fixture_repo();
    let server = start(&fixture, true, &["--max-sessions-per-key", "2"]);
    let http = reqwest::Client::new();
    let first = open_session(&http, &server, READER).await;
    let (_sse, _) = SseClient::open(server.addr, Some(READER)).await;
    let (status, _, body) = mcp(
        &http,
        &server,
        reqwest::Method::POST,
        READER,
        None,
        Some(initialize(1)),
    )
    .await;
    assert_eq!(status, 429, "{body}");
    let body: Value = serde_json::from_str(&body).unwrap();
    assert!(
        body["limit"]
            .as_str()
            .unwrap()
            .contains("--max-sessions-per-key"),
        "{body}"
    );
    assert_eq!(body["value"], 2);
    let (status, sse_body) = raw(
        server.addr,
        "GET",
        "/sse",
        &[
            ("Host", "127.0.0.1"),
            ("Authorization", "Bearer reader-key"),
        ],
        "",
    );
    assert_eq!(status, 429, "legacy sessions count too: {sse_body}");
    // Another key has its own cap; ending a session frees a slot.
    open_session(&http, &server, OPERATOR).await;
    let (status, _, _) = mcp(
        &http,
        &server,
        reqwest::Method::DELETE,
        READER,
        Some(&first),
        None,
    )
    .await;
    assert!((200..300).contains(&status));
    open_session(&http, &server, READER).await;
}

#[test]
fn a_key_with_surrounding_whitespace_refuses_to_start() {
    let fixture = support::fixture_repo();
    let data = tempfile::tempdir().unwrap();
    let out = support::run_bounded(
        Command::new(support::bin())
            .args(["serve", "--transport", "http", "--listen", "127.0.0.1:0"])
            .arg("--repo")
            .arg(fixture.repo_arg())
            .arg("--data-dir")
            .arg(data.path())
            .env("PATH", support::tool_path())
            .env_remove("NEXUS_API_URL")
            .env("NEXUS_MCP_API_KEY", "s3cret-key\n")
            .stdin(Stdio::null()),
        Duration::from_secs(60),
        "nexus-mcp serve with a whitespace key",
    );
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success(), "started anyway: {stderr}");
    assert!(
        stderr.contains("NEXUS_MCP_API_KEY holds an API key with leading or trailing whitespace (a trailing newline)"),
        "{stderr}"
    );
    assert!(
        !stderr.contains("s3cret-key"),
        "the key is not echoed: {stderr}"
    );
    assert!(!stderr.contains("listening"), "{stderr}");
}
