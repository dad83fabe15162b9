//! What the MCP layer costs on top of the Nexus API it maps.
//!
//! A standalone nexus-lite serves an indexed fixture repository; nexus-mcp talks to it through
//! NEXUS_API_URL, so nexus-lite's own work is the same on every path and the difference is
//! nexus-mcp (JSON-RPC, dispatch, mapping, trimming, redaction, one more loopback hop).
//!
//!   cargo build --release -p nexus-lite
//!   cargo bench --bench mcp_overhead            # N=200 calls per row
//!   NEXUS_MCP_BENCH_CALLS=1000 NEXUS_MCP_BENCH_STARTS=30 cargo bench --bench mcp_overhead
//!   NEXUS_MCP_BENCH_BIN=/other/build/nexus-mcp cargo bench --bench mcp_overhead   # another build
//!   NEXUS_MCP_BENCH_BEFORE_BIN=/old/nexus-mcp cargo bench --bench mcp_overhead    # another build in the same run
//!
//! Rows: (a) cold start, spawn → first tools/list answer over stdio, with a remote backend and
//! with the embedded nexus-lite over an already-indexed data dir, then (issue 25) spawn → first
//! tools/call for a client that starts the local nexus-lite daemon and for one that joins a
//! running one, and a connected client's next answer after `kill -9` of the daemon; (b) `ping`
//! over stdio and over Streamable HTTP: what one JSON-RPC round trip costs with no tool and no
//! backend; (c) one mapped tools/call over stdio and over Streamable HTTP (a 2025-11-25
//! session, and a stateless 2026-07-28 request), next to a direct HTTP GET of the same nexus-lite endpoint (keep-alive),
//! the same GET through reqwest, and a floor: a process with no MCP at all that forwards the GET
//! (axum + reqwest). The routes of (c) run in rounds twice over: interleaved, one call each, so
//! every server is cache-cold at its call as between an agent's calls; then back to back, a few
//! calls each, so every server is warm as in a criterion loop. Medians; overhead = the median of
//! the per-sample differences route − direct (paired within a round, which cancels drift), next
//! to median(route) − median(direct). With $NEXUS_MCP_BENCH_BEFORE_BIN, that build's cold starts
//! alternate with this one's and its three MCP routes join every round of (c), so each call of
//! this build is paired with one of the build before in the same round, and the difference
//! between the builds is measured call by call rather than between runs, where whichever ran
//! second looked slower.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

#[path = "common/stats.rs"]
mod stats;
#[path = "../tests/support/mod.rs"]
mod support;

use support::deploy::Killed;

use serde_json::{Value, json};
use stats::{Row, compared, ms, row, timed};
use std::io::{BufRead, BufReader, Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use support::local::{daemon_pid, stop_daemon};

const LITE_TOKEN: &str = "bench-lite-token";
const MCP_KEY: &str = "bench-mcp-key";
const STATELESS_VERSION: &str = "2026-07-28";

fn env_usize(name: &str, default: usize) -> usize {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

/// The nexus-mcp under test: this build's, or $NEXUS_MCP_BENCH_BIN (another build of nexus-mcp,
/// to compare two builds against the same nexus-lite in alternating runs).
fn mcp_bin() -> PathBuf {
    std::env::var_os("NEXUS_MCP_BENCH_BIN")
        .map(PathBuf::from)
        .unwrap_or_else(support::bin)
}

/// target/<profile>/nexus-lite next to this bench's target dir, or $NEXUS_LITE_BIN.
fn nexus_lite_bin() -> PathBuf {
    if let Some(p) = std::env::var_os("NEXUS_LITE_BIN") {
        return PathBuf::from(p);
    }
    let mcp = support::bin();
    let p = mcp.with_file_name("nexus-lite");
    assert!(
        p.exists(),
        "{} does not exist: run `cargo build --release -p nexus-lite` first (same CARGO_TARGET_DIR), or set NEXUS_LITE_BIN",
        p.display()
    );
    p
}

/// support::tool_path() runs `node -p …` to find Node 22 (~60 ms): look it up once, outside
/// every timed region.
fn tool_path() -> &'static std::ffi::OsString {
    static PATH: std::sync::OnceLock<std::ffi::OsString> = std::sync::OnceLock::new();
    PATH.get_or_init(support::tool_path)
}

fn start_lite(fixture: &support::Fixture, data: &std::path::Path) -> (Killed, SocketAddr) {
    support::deploy::nexus_lite(&nexus_lite_bin(), fixture, data, LITE_TOKEN)
}

/// Set in the environment of the bench's own executable to make it the floor proxy instead.
const FLOOR_ENV: &str = "MCP_OVERHEAD_FLOOR_PROXY";

/// The floor any HTTP front costs on this machine, with no MCP at all: a process (this bench's
/// own executable, re-run with FLOOR_ENV=<nexus-lite URL>) serving axum on one current-thread
/// runtime, as `serve --transport http` does, whose only route forwards the GET to nexus-lite
/// through reqwest, parses the JSON and answers it. Prints its address on stdout.
fn run_floor_proxy(lite_url: String) {
    use axum::extract::{Request, State};
    use axum::serve::ListenerExt;
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    rt.block_on(async move {
        let bearer = format!("Bearer {LITE_TOKEN}");
        let forward = |State((client, base, bearer)): State<(reqwest::Client, String, String)>,
                       request: Request| async move {
            let target = request.uri().path_and_query().map_or("/", |p| p.as_str());
            let r = client
                .get(format!("{base}{target}"))
                .header("Authorization", bearer)
                .send()
                .await
                .expect("floor proxy GET");
            let v: Value = r.json().await.expect("floor proxy GET answered JSON");
            axum::Json(v)
        };
        let app = axum::Router::new().fallback(forward).with_state((
            reqwest::Client::new(),
            lite_url,
            bearer,
        ));
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        println!("{}", listener.local_addr().unwrap());
        let listener = listener.tap_io(|tcp| tcp.set_nodelay(true).unwrap());
        axum::serve(listener, app).await.unwrap();
    });
}

fn start_floor_proxy(lite_url: &str) -> (Killed, SocketAddr) {
    let mut child = Command::new(std::env::current_exe().unwrap())
        .env(FLOOR_ENV, lite_url)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .spawn()
        .expect("spawn the floor proxy");
    let mut line = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut line)
        .expect("the floor proxy prints its address");
    let addr = line.trim().parse().expect("the floor proxy's address");
    (Killed(child), addr)
}

// ---- a minimal keep-alive HTTP/1.1 client (Content-Length or chunked bodies) ------------------

struct Http {
    addr: SocketAddr,
    reader: BufReader<TcpStream>,
    writer: TcpStream,
}

struct Response {
    status: u16,
    headers: Vec<(String, String)>,
    body: String,
}

impl Response {
    fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(k, _)| k.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }
}

impl Http {
    fn connect(addr: SocketAddr) -> Http {
        let s = TcpStream::connect(addr).expect("connect");
        s.set_nodelay(true).unwrap();
        Http {
            addr,
            reader: BufReader::new(s.try_clone().unwrap()),
            writer: s,
        }
    }

    fn request(
        &mut self,
        method: &str,
        path: &str,
        headers: &[(&str, &str)],
        body: &str,
    ) -> Response {
        let mut req = format!(
            "{method} {path} HTTP/1.1\r\nHost: {}\r\nContent-Length: {}\r\n",
            self.addr,
            body.len()
        );
        for (k, v) in headers {
            req.push_str(&format!("{k}: {v}\r\n"));
        }
        req.push_str("\r\n");
        req.push_str(body);
        self.writer.write_all(req.as_bytes()).expect("send");
        let mut line = String::new();
        self.reader.read_line(&mut line).expect("status line");
        let status: u16 = line
            .split(' ')
            .nth(1)
            .and_then(|s| s.parse().ok())
            .unwrap_or_else(|| panic!("bad status line {line:?}"));
        let mut headers = Vec::new();
        loop {
            line.clear();
            self.reader.read_line(&mut line).expect("header");
            let l = line.trim_end();
            if l.is_empty() {
                break;
            }
            if let Some((k, v)) = l.split_once(':') {
                headers.push((k.trim().to_owned(), v.trim().to_owned()));
            }
        }
        let find = |n: &str| {
            headers
                .iter()
                .find(|(k, _)| k.eq_ignore_ascii_case(n))
                .map(|(_, v)| v.clone())
        };
        let mut body = Vec::new();
        if find("transfer-encoding").is_some_and(|v| v.eq_ignore_ascii_case("chunked")) {
            loop {
                line.clear();
                self.reader.read_line(&mut line).expect("chunk size");
                let size = usize::from_str_radix(line.trim().split(';').next().unwrap_or("0"), 16)
                    .expect("chunk size hex");
                if size == 0 {
                    line.clear();
                    self.reader.read_line(&mut line).expect("trailer end");
                    break;
                }
                let mut chunk = vec![0; size + 2];
                self.reader.read_exact(&mut chunk).expect("chunk");
                body.extend_from_slice(&chunk[..size]);
            }
        } else if let Some(n) = find("content-length").and_then(|v| v.parse::<usize>().ok()) {
            body.resize(n, 0);
            self.reader.read_exact(&mut body).expect("body");
        }
        Response {
            status,
            headers,
            body: String::from_utf8_lossy(&body).into_owned(),
        }
    }
}

/// The JSON-RPC message with `id` in a JSON or SSE response body.
fn rpc_answer(resp: &Response, id: u64) -> Value {
    let candidates: Vec<Value> = if resp
        .header("content-type")
        .is_some_and(|c| c.starts_with("text/event-stream"))
    {
        resp.body
            .lines()
            .filter_map(|l| l.strip_prefix("data:"))
            .filter_map(|d| serde_json::from_str(d.trim()).ok())
            .collect()
    } else {
        serde_json::from_str(&resp.body).into_iter().collect()
    };
    candidates
        .into_iter()
        .find(|v| v["id"].as_u64() == Some(id))
        .unwrap_or_else(|| {
            panic!(
                "no JSON-RPC answer with id {id} in HTTP {}: {}",
                resp.status, resp.body
            )
        })
}

// ---- stdio ------------------------------------------------------------------------------------

struct StdioSession {
    child: Killed,
    stdin: std::process::ChildStdin,
    stdout: BufReader<std::process::ChildStdout>,
}

impl StdioSession {
    fn spawn(envs: &[(&str, &str)], args: &[String]) -> StdioSession {
        StdioSession::spawn_bin(&mcp_bin(), envs, args)
    }

    fn spawn_bin(bin: &std::path::Path, envs: &[(&str, &str)], args: &[String]) -> StdioSession {
        let mut cmd = Command::new(bin);
        cmd.arg("serve")
            .args(args)
            .env("PATH", tool_path())
            .env_remove("NEXUS_API_URL")
            .env_remove("NEXUS_API_TOKEN");
        for (k, v) in envs {
            cmd.env(k, v);
        }
        let mut child = cmd
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("spawn nexus-mcp serve");
        let stdin = child.stdin.take().unwrap();
        let stdout = BufReader::new(child.stdout.take().unwrap());
        StdioSession {
            child: Killed(child),
            stdin,
            stdout,
        }
    }

    fn send(&mut self, v: &Value) {
        // One write per message, as real clients do: `writeln!` on the unbuffered pipe would
        // issue a write per JSON token and measure the server's wake-ups instead of its work.
        self.stdin.write_all(format!("{v}\n").as_bytes()).unwrap();
        self.stdin.flush().unwrap();
    }

    fn answer(&mut self, id: u64) -> Value {
        let mut line = String::new();
        loop {
            line.clear();
            assert!(
                self.stdout.read_line(&mut line).unwrap() > 0,
                "nexus-mcp closed stdout before answering {id}"
            );
            let v: Value =
                serde_json::from_str(&line).unwrap_or_else(|e| panic!("not JSON ({e}): {line}"));
            if v["id"].as_u64() == Some(id) {
                return v;
            }
        }
    }
}

fn initialize() -> Value {
    json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "mcp_overhead", "version": "0"}}})
}
fn initialized() -> Value {
    json!({"jsonrpc": "2.0", "method": "notifications/initialized"})
}
fn call(id: u64, tool: &str) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "method": "tools/call", "params": {"name": tool, "arguments": {"repository": support::REPO_NAME}}})
}

/// The same call as a 2026-07-28 client sends it: no session, the protocol version and client
/// capabilities in the request's own `_meta`.
fn stateless_call(id: u64, tool: &str) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "method": "tools/call", "params": {
        "name": tool,
        "arguments": {"repository": support::REPO_NAME},
        "_meta": {
            "io.modelcontextprotocol/protocolVersion": STATELESS_VERSION,
            "io.modelcontextprotocol/clientCapabilities": {},
        },
    }})
}

/// One tools/call POSTed to /mcp (`message` is built and sent inside the timed region, as on
/// stdio): its answer checked; its time and the server's CPU.
fn post_call(
    conn: &mut Http,
    pid: u32,
    headers: &[(&str, &str)],
    id: u64,
    tool: &str,
    message: impl FnOnce() -> Value,
) -> (Duration, Option<Duration>) {
    let ((r, answer), took, cpu) = timed(pid, || {
        let r = conn.request("POST", "/mcp", headers, &message().to_string());
        let answer = rpc_answer(&r, id);
        (r, answer)
    });
    assert_eq!(r.status, 200, "{tool} over HTTP: {}", r.body);
    check_call(&answer, tool);
    (took, Some(cpu))
}

fn check_call(answer: &Value, tool: &str) {
    let r = &answer["result"];
    assert!(
        answer.get("error").is_none() && r["isError"] != json!(true),
        "{tool} failed: {answer}"
    );
    assert!(
        r["structuredContent"]["graph"]["commit_sha"].is_string(),
        "{tool} returned no graph: {answer}"
    );
}

/// Spawn → initialize → initialized → tools/list answered.
fn cold_start(envs: &[(&str, &str)], args: &[String]) -> Duration {
    let t = Instant::now();
    let mut s = StdioSession::spawn(envs, args);
    s.send(&initialize());
    s.send(&initialized());
    s.send(&json!({"jsonrpc": "2.0", "id": 2, "method": "tools/list"}));
    s.answer(1);
    let tools = s.answer(2);
    let d = t.elapsed();
    assert!(
        tools["result"]["tools"]
            .as_array()
            .is_some_and(|t| !t.is_empty()),
        "tools/list answered no tools: {tools}"
    );
    drop(s.child);
    d
}

// ---- one nexus-mcp build serving the calls -------------------------------------------------------

#[derive(Clone, Copy)]
enum Way {
    Stdio,
    Session,
    Stateless,
}

/// One build of nexus-mcp against the standalone nexus-lite: a stdio session, and an HTTP
/// server with a 2025-11-25 session and a 2026-07-28 stateless connection.
struct Mcp {
    stdio: StdioSession,
    http_pid: u32,
    _http_server: Killed,
    session: Http,
    session_headers: Vec<(&'static str, String)>,
    stateless: Http,
}

const ACCEPT: (&str, &str) = ("Accept", "application/json, text/event-stream");
const CTYPE: (&str, &str) = ("Content-Type", "application/json");
const KEY: (&str, &str) = ("X-MCP-API-KEY", MCP_KEY);

impl Mcp {
    fn start(bin: &std::path::Path, remote_env: &[(&str, &str)]) -> Mcp {
        let port = support::free_port();
        let mut server = Command::new(bin);
        server
            .args([
                "serve",
                "--transport",
                "http",
                "--listen",
                &format!("127.0.0.1:{port}"),
            ])
            .envs(remote_env.iter().copied())
            .env("NEXUS_MCP_API_KEY", MCP_KEY)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped());
        let mut child = server.spawn().expect("spawn nexus-mcp http");
        let log = Arc::new(Mutex::new(String::new()));
        let rx = support::tee_lines(child.stderr.take().unwrap(), log.clone());
        let http_pid = child.id();
        let http_server = Killed(child);
        support::wait_for_line(
            &rx,
            "nexus-mcp listening on",
            Duration::from_secs(60),
            &log,
            "nexus-mcp serve --transport http",
        );
        let addr = SocketAddr::from(([127, 0, 0, 1], port));

        let mut stdio = StdioSession::spawn_bin(bin, remote_env, &[]);
        stdio.send(&initialize());
        stdio.send(&initialized());
        stdio.answer(1);

        let mut session = Http::connect(addr);
        let init = session.request(
            "POST",
            "/mcp",
            &[ACCEPT, CTYPE, KEY],
            &initialize().to_string(),
        );
        assert_eq!(init.status, 200, "initialize over HTTP: {}", init.body);
        let version = rpc_answer(&init, 1)["result"]["protocolVersion"]
            .as_str()
            .unwrap_or("2025-11-25")
            .to_owned();
        let mut session_headers: Vec<(&str, String)> = [ACCEPT, CTYPE, KEY]
            .into_iter()
            .map(|(k, v)| (k, v.to_owned()))
            .collect();
        session_headers.push(("MCP-Protocol-Version", version));
        if let Some(s) = init.header("mcp-session-id") {
            session_headers.push(("Mcp-Session-Id", s.to_owned()));
        }
        let mut mcp = Mcp {
            stdio,
            http_pid,
            _http_server: http_server,
            session,
            session_headers,
            stateless: Http::connect(addr),
        };
        let headers = mcp.headers(Way::Session, "");
        let ack = mcp.session.request(
            "POST",
            "/mcp",
            &borrowed(&headers),
            &initialized().to_string(),
        );
        assert!(
            ack.status < 300,
            "notifications/initialized over HTTP: {} {}",
            ack.status,
            ack.body
        );
        mcp
    }

    /// The headers of one request over `way`; a 2026-07-28 client sends no session and the
    /// SEP-2243 headers on every request.
    fn headers(&self, way: Way, tool: &'static str) -> Vec<(&'static str, String)> {
        match way {
            Way::Stdio => Vec::new(),
            Way::Session => self.session_headers.clone(),
            Way::Stateless => [ACCEPT, CTYPE, KEY]
                .into_iter()
                .chain([
                    ("MCP-Protocol-Version", STATELESS_VERSION),
                    ("Mcp-Method", "tools/call"),
                    ("Mcp-Name", tool),
                ])
                .map(|(k, v)| (k, v.to_owned()))
                .collect(),
        }
    }

    /// One `ping` over stdio or the session: its time and the serving process's CPU.
    fn ping(&mut self, way: Way, id: u64) -> (Duration, Duration) {
        let ping = json!({"jsonrpc": "2.0", "id": id, "method": "ping"});
        let headers = self.headers(way, "");
        let headers = borrowed(&headers);
        let (answer, took, cpu) = match way {
            Way::Stdio => timed(self.stdio.child.0.id(), || {
                self.stdio.send(&ping);
                self.stdio.answer(id)
            }),
            Way::Session | Way::Stateless => timed(self.http_pid, || {
                let r = self
                    .session
                    .request("POST", "/mcp", &headers, &ping.to_string());
                rpc_answer(&r, id)
            }),
        };
        assert!(answer["result"].is_object(), "ping: {answer}");
        (took, cpu)
    }

    /// One tools/call of `tool` over `way`, checked: its time and the serving process's CPU.
    fn call(&mut self, way: Way, id: u64, tool: &'static str) -> (Duration, Option<Duration>) {
        let headers = self.headers(way, tool);
        let headers = borrowed(&headers);
        match way {
            Way::Stdio => {
                let (answer, took, cpu) = timed(self.stdio.child.0.id(), || {
                    self.stdio.send(&call(id, tool));
                    self.stdio.answer(id)
                });
                check_call(&answer, tool);
                (took, Some(cpu))
            }
            Way::Session => post_call(&mut self.session, self.http_pid, &headers, id, tool, || {
                call(id, tool)
            }),
            Way::Stateless => post_call(
                &mut self.stateless,
                self.http_pid,
                &headers,
                id,
                tool,
                || stateless_call(id, tool),
            ),
        }
    }
}

fn borrowed<'a>(headers: &'a [(&'static str, String)]) -> Vec<(&'a str, &'a str)> {
    headers.iter().map(|(k, v)| (*k, v.as_str())).collect()
}

// ---- routes and their order ----------------------------------------------------------------------

/// The ways one tool's data can reach the caller, timed side by side.
#[derive(Clone, Copy, PartialEq)]
enum Route {
    Direct,
    Reqwest,
    Floor,
    Stdio,
    Http,
    HttpStateless,
    StdioBefore,
    HttpBefore,
    HttpStatelessBefore,
}

const ROUTES: [Route; 6] = [
    Route::Direct,
    Route::Reqwest,
    Route::Floor,
    Route::Stdio,
    Route::Http,
    Route::HttpStateless,
];

/// The MCP routes again, served by $NEXUS_MCP_BENCH_BEFORE_BIN.
const BEFORE_ROUTES: [Route; 3] = [
    Route::StdioBefore,
    Route::HttpBefore,
    Route::HttpStatelessBefore,
];

impl Route {
    fn describe(self) -> &'static str {
        match self {
            Route::Direct => "direct GET",
            Route::Reqwest => "the same GET through reqwest",
            Route::Floor => "floor, no MCP: an axum process forwarding the GET through reqwest",
            Route::Stdio => "MCP tools/call over stdio",
            Route::Http => "MCP tools/call over Streamable HTTP (2025-11-25 session)",
            Route::HttpStateless => "MCP tools/call over Streamable HTTP (2026-07-28, stateless)",
            Route::StdioBefore => "the build before: MCP tools/call over stdio",
            Route::HttpBefore => {
                "the build before: MCP tools/call over Streamable HTTP (2025-11-25 session)"
            }
            Route::HttpStatelessBefore => {
                "the build before: MCP tools/call over Streamable HTTP (2026-07-28, stateless)"
            }
        }
    }

    /// How an MCP route reaches its server, and whether that is the build before.
    fn mcp(self) -> Option<(Way, bool)> {
        match self {
            Route::Direct | Route::Reqwest | Route::Floor => None,
            Route::Stdio => Some((Way::Stdio, false)),
            Route::Http => Some((Way::Session, false)),
            Route::HttpStateless => Some((Way::Stateless, false)),
            Route::StdioBefore => Some((Way::Stdio, true)),
            Route::HttpBefore => Some((Way::Session, true)),
            Route::HttpStatelessBefore => Some((Way::Stateless, true)),
        }
    }

    /// The same way on the build before.
    fn before(self) -> Option<Route> {
        match self {
            Route::Stdio => Some(Route::StdioBefore),
            Route::Http => Some(Route::HttpBefore),
            Route::HttpStateless => Some(Route::HttpStatelessBefore),
            _ => None,
        }
    }
}

/// How the routes take turns within one round. Either way every route runs in every round, so
/// drift on this shared machine hits every row alike and the paired differences cancel it.
#[derive(Clone, Copy)]
enum Order {
    /// One call per route per round: each server process is cache-cold at its call, as it is
    /// between an agent's calls.
    Interleaved,
    /// BLOCK calls in a row per route per round, the first of which is dropped: each server
    /// is warm, as in a criterion-style loop.
    BackToBack,
}

const BLOCK: usize = 8;

/// One route's kept samples.
#[derive(Default)]
struct Samples {
    times: Vec<Duration>,
    cpu: Option<Duration>,
}

impl Samples {
    fn cpu_per_call(&self) -> Option<Duration> {
        Some(self.cpu? / u32::try_from(self.times.len()).unwrap())
    }
}

impl Order {
    fn label(self) -> &'static str {
        match self {
            Order::Interleaved => "interleaved (cold)",
            Order::BackToBack => "back to back (warm)",
        }
    }

    /// `calls` kept samples per route, after `warmup` rounds; sample i of every route comes
    /// from the same round and block position, so the paired differences line up. The order is
    /// the same in every round: reversing it every other round made the last route follow
    /// itself, warm, at each turn, which measured as 0.2 ms faster.
    fn run(
        self,
        routes: &[Route],
        calls: usize,
        warmup: usize,
        call: &mut impl FnMut(Route) -> (Duration, Option<Duration>),
    ) -> Vec<Samples> {
        let (block, dropped) = match self {
            Order::Interleaved => (1, 0),
            Order::BackToBack => (BLOCK, 1),
        };
        let rounds = warmup + calls.div_ceil(block - dropped);
        let mut samples: Vec<Samples> = (0..=Route::HttpStatelessBefore as usize)
            .map(|_| Samples::default())
            .collect();
        for round in 0..rounds {
            for &route in routes {
                for k in 0..block {
                    let (took, cpu) = call(route);
                    let s = &mut samples[route as usize];
                    if round >= warmup && k >= dropped && s.times.len() < calls {
                        s.times.push(took);
                        if let Some(cpu) = cpu {
                            s.cpu = Some(s.cpu.unwrap_or_default() + cpu);
                        }
                    }
                }
            }
        }
        samples
    }
}

// ---- the local nexus-lite daemon (issue 25) ------------------------------------------------------

/// Spawn → initialize → first tools/call answered over stdio, on the local nexus-lite of
/// `args`' data directory; the session stays open for the caller.
fn cold_call(args: &[String]) -> (Duration, StdioSession) {
    cold_call_with(&mcp_bin(), args)
}

fn cold_call_with(bin: &std::path::Path, args: &[String]) -> (Duration, StdioSession) {
    let t = Instant::now();
    let mut s = StdioSession::spawn_bin(bin, &[], args);
    s.send(&initialize());
    s.send(&initialized());
    s.send(&call(2, "kg_latest_graph"));
    s.answer(1);
    let answer = s.answer(2);
    let took = t.elapsed();
    check_call(&answer, "kg_latest_graph (local nexus-lite)");
    (took, s)
}

/// Side by side with the cold starts above, on the same indexed data directory: a client that
/// starts the daemon, one that joins a running one, and a connected client's next answer after
/// `kill -9` of the daemon (it re-joins a daemon it or its peer respawns, then retries).
fn local_daemon_rows(args: &[String], data: &std::path::Path, starts: usize, rows: &mut Vec<Row>) {
    // $NEXUS_MCP_BENCH_BEFORE_BIN: a build from before the local daemon, whose process hosts
    // nexus-lite itself; its cold starts alternate with this build's on a copy of the data.
    let before = std::env::var_os("NEXUS_MCP_BENCH_BEFORE_BIN").map(std::path::PathBuf::from);
    let before_data = tempfile::tempdir().unwrap();
    let before_args: Vec<String> = args
        .iter()
        .map(|a| {
            if a == &data.display().to_string() {
                before_data.path().display().to_string()
            } else {
                a.clone()
            }
        })
        .collect();
    if let Some(bin) = &before {
        cold_call_with(bin, &before_args); // indexes its copy
    }
    let mut before_samples = Vec::new();
    let samples: Vec<Duration> = (0..starts)
        .map(|_| {
            stop_daemon(data);
            let took = cold_call(args).0;
            if let Some(bin) = &before {
                before_samples.push(cold_call_with(bin, &before_args).0);
            }
            took
        })
        .collect();
    rows.push(row(
        "cold start → first tools/call, starting the local nexus-lite (stdio, indexed)",
        samples,
        None,
    ));
    if before.is_some() {
        rows.push(row(
            "cold start → first tools/call, the build before: nexus-lite in-process (stdio, indexed), alternating with the row above",
            before_samples,
            None,
        ));
    }

    let (_, mut holder) = cold_call(args);
    let samples: Vec<Duration> = (0..starts).map(|_| cold_call(args).0).collect();
    rows.push(row(
        "cold start → first tools/call, joining a running local nexus-lite (stdio, indexed)",
        samples,
        None,
    ));

    let samples: Vec<Duration> = (0..starts)
        .map(|i| {
            let pid = daemon_pid(data).expect("a daemon serves the data directory");
            let id = 100 + i as u64;
            support::local::kill9(pid);
            let t = Instant::now();
            holder.send(&call(id, "kg_latest_graph"));
            let answer = holder.answer(id);
            let took = t.elapsed();
            check_call(&answer, "kg_latest_graph after kill -9 of the daemon");
            support::local::wait_for(Duration::from_secs(60), "a new daemon", || {
                daemon_pid(data).filter(|p| *p != pid)
            });
            took
        })
        .collect();
    rows.push(row(
        "kill -9 of the daemon → next answer of a connected client (stdio)",
        samples,
        None,
    ));
    drop(holder);
    stop_daemon(data);
}

fn main() {
    if let Ok(lite_url) = std::env::var(FLOOR_ENV) {
        return run_floor_proxy(lite_url);
    }
    // `cargo bench` passes `--bench`; `cargo test --benches` passes nothing useful: run either way.
    let calls = env_usize("NEXUS_MCP_BENCH_CALLS", 200);
    let starts = env_usize("NEXUS_MCP_BENCH_STARTS", 20);
    let warmup = 20;

    let fixture = support::fixture_repo();
    let lite_data = tempfile::tempdir().unwrap();
    let (_lite, lite_addr) = start_lite(&fixture, lite_data.path());
    let lite_url = format!("http://{lite_addr}");
    let remote_env = [
        ("NEXUS_API_URL", lite_url.as_str()),
        ("NEXUS_API_TOKEN", LITE_TOKEN),
    ];
    let bearer = format!("Bearer {LITE_TOKEN}");
    let mut rows = Vec::new();

    // (a) cold start (NEXUS_MCP_BENCH_STARTS=0 skips it)
    if starts > 0 {
        let samples: Vec<Duration> = (0..starts).map(|_| cold_start(&remote_env, &[])).collect();
        rows.push(row(
            "cold start → tools/list (stdio, NEXUS_API_URL → nexus-lite)",
            samples,
            None,
        ));

        let embedded_data = tempfile::tempdir().unwrap();
        let embedded_args = vec![
            "--repo".to_owned(),
            fixture.repo_arg(),
            "--data-dir".to_owned(),
            embedded_data.path().display().to_string(),
        ];
        {
            // Index once so that the embedded runs below start over an indexed data dir.
            let mut s = StdioSession::spawn(&[], &embedded_args);
            s.send(&initialize());
            s.send(&initialized());
            s.answer(1);
            s.send(&call(2, "kg_latest_graph"));
            check_call(&s.answer(2), "kg_latest_graph (embedded, indexing)");
        }
        let samples: Vec<Duration> = (0..starts)
            .map(|_| cold_start(&[], &embedded_args))
            .collect();
        rows.push(row(
            "cold start → tools/list (stdio, embedded nexus-lite, indexed)",
            samples,
            None,
        ));
        local_daemon_rows(&embedded_args, embedded_data.path(), starts, &mut rows);
    }

    // (b) one mapped call, three ways, per tool; with $NEXUS_MCP_BENCH_BEFORE_BIN, the same three
    // ways on the build before too, in the same rounds.
    let mut mcp = Mcp::start(&mcp_bin(), &remote_env);
    let mut before_mcp = std::env::var_os("NEXUS_MCP_BENCH_BEFORE_BIN")
        .map(|bin| Mcp::start(std::path::Path::new(&bin), &remote_env));
    let routes: Vec<Route> = ROUTES
        .into_iter()
        .chain(
            before_mcp
                .is_some()
                .then_some(BEFORE_ROUTES)
                .into_iter()
                .flatten(),
        )
        .collect();

    let mut direct = Http::connect(lite_addr);
    let (floor_proxy, floor_addr) = start_floor_proxy(&lite_url);
    let floor_pid = floor_proxy.0.id();
    let mut floor = Http::connect(floor_addr);
    // What one JSON-RPC round trip costs with no tool and no backend: `ping`, interleaved.
    {
        let (mut s, mut h) = (Vec::new(), Vec::new());
        let (mut stdio_cpu, mut http_cpu) = (Duration::ZERO, Duration::ZERO);
        for i in 0..warmup + calls {
            let id = 1_000_000 + 2 * i as u64;
            let (stdio_time, stdio_cpu_call) = mcp.ping(Way::Stdio, id);
            let (http_time, http_cpu_call) = mcp.ping(Way::Session, id + 1);
            if i >= warmup {
                s.push(stdio_time);
                h.push(http_time);
                stdio_cpu += stdio_cpu_call;
                http_cpu += http_cpu_call;
            }
        }
        let per_call = |total: Duration| Some(total / u32::try_from(calls).unwrap());
        rows.push(Row {
            cpu_per_call: per_call(stdio_cpu),
            ..row("ping (no tool, no backend) over stdio", s, None)
        });
        rows.push(Row {
            cpu_per_call: per_call(http_cpu),
            ..row("ping (no tool, no backend) over Streamable HTTP", h, None)
        });
    }

    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    let reqwest_client = reqwest::Client::new();
    let mut id = 10;
    for order in [Order::Interleaved, Order::BackToBack] {
        for (tool, path) in [
            ("kg_latest_graph", "/api/v1/graphs/select"),
            ("kg_graph_summary", "/api/v1/summary"),
        ] {
            let target = format!(
                "{path}?repository={}",
                support::REPO_NAME.replace('/', "%2F")
            );
            // One call over one route: its time, and the serving process's CPU where that
            // process is ours (nexus-lite's own work is the same on every route). Every route
            // hands its caller parsed JSON.
            let mut call_route = |route: Route| -> (Duration, Option<Duration>) {
                match route {
                    Route::Direct => {
                        let t = Instant::now();
                        let r = direct.request("GET", &target, &[("Authorization", &bearer)], "");
                        let v: Value =
                            serde_json::from_str(&r.body).expect("direct GET answered JSON");
                        let took = t.elapsed();
                        assert_eq!(r.status, 200, "direct GET {target}: {}", r.body);
                        assert!(
                            v["graph"]["commit_sha"].is_string(),
                            "direct GET {target}: {v}"
                        );
                        (took, None)
                    }
                    Route::Reqwest => {
                        let t = Instant::now();
                        let v: Value = rt.block_on(async {
                            let r = reqwest_client
                                .get(format!("{lite_url}{target}"))
                                .header("Authorization", &bearer)
                                .send()
                                .await
                                .expect("reqwest GET");
                            r.json().await.expect("reqwest GET answered JSON")
                        });
                        let took = t.elapsed();
                        assert!(
                            v["graph"]["commit_sha"].is_string(),
                            "reqwest GET {target}: {v}"
                        );
                        (took, None)
                    }
                    Route::Floor => {
                        let ((r, v), took, cpu) = timed(floor_pid, || {
                            let r = floor.request("GET", &target, &[], "");
                            let v: Value =
                                serde_json::from_str(&r.body).expect("floor proxy answered JSON");
                            (r, v)
                        });
                        assert!(
                            v["graph"]["commit_sha"].is_string(),
                            "floor proxy {target}: {} {}",
                            r.status,
                            r.body
                        );
                        (took, Some(cpu))
                    }
                    mcp_route => {
                        let (way, before) = mcp_route.mcp().expect("an MCP route");
                        let server = if before {
                            before_mcp.as_mut().expect("a build before")
                        } else {
                            &mut mcp
                        };
                        id += 1;
                        server.call(way, id, tool)
                    }
                }
            };
            let samples = order.run(&routes, calls, warmup, &mut call_route);
            let label = |what: &str| format!("{tool}, {}: {what}", order.label());
            let d = &samples[Route::Direct as usize].times;
            let direct_row = row(
                label(&format!("direct GET {path} (nexus-lite)")),
                d.clone(),
                None,
            );
            let base = direct_row.median;
            rows.push(direct_row);
            for &route in &routes[1..] {
                let s = &samples[route as usize];
                rows.push(Row {
                    cpu_per_call: s.cpu_per_call(),
                    ..compared(label(route.describe()), s.times.clone(), d, base)
                });
            }
            // This build against the build before, call by call: the "direct" columns of
            // these rows are the build before's.
            for route in [Route::Stdio, Route::Http, Route::HttpStateless] {
                let Some(before) = route.before().filter(|b| routes.contains(b)) else {
                    continue;
                };
                let (now, then) = (&samples[route as usize], &samples[before as usize]);
                let then_median = row("", then.times.clone(), None).median;
                rows.push(compared(
                    label(&format!("{} − the build before", route.describe())),
                    now.times.clone(),
                    &then.times,
                    then_median,
                ));
            }
        }
    }

    println!();
    println!(
        "nexus-mcp overhead ({calls} calls per call row after {warmup} warm-up, {starts} cold starts; release build, loopback)"
    );
    println!();
    println!(
        "| measurement | n | median | p90 | p99 | median − direct median | overhead: median of paired differences | server CPU per call |"
    );
    println!("|---|---:|---:|---:|---:|---:|---:|---:|");
    let signed = |v: f64| format!("{v:.3} ms");
    for r in &rows {
        let over = r
            .baseline
            .map(|b| signed((r.median.as_secs_f64() - b.as_secs_f64()) * 1e3))
            .unwrap_or_else(|| "—".into());
        let paired = r.paired.map(signed).unwrap_or_else(|| "—".into());
        let cpu = r
            .cpu_per_call
            .map(|c| format!("{:.0} µs", c.as_secs_f64() * 1e6))
            .unwrap_or_else(|| "—".into());
        println!(
            "| {} | {} | {} | {} | {} | {} | {} | {} |",
            r.name,
            r.n,
            ms(r.median),
            ms(r.p90),
            ms(r.p99),
            over,
            paired,
            cpu
        );
    }
}
