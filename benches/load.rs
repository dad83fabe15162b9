//! Load on `nexus-mcp serve --transport http` with its embedded nexus-lite over an indexed
//! fixture repository. Loopback only; every load is bounded in count and time.
//!
//!   cargo bench --bench load
//!   NEXUS_MCP_LOAD_SESSIONS=1000 NEXUS_MCP_LOAD_RATE=500 NEXUS_MCP_LOAD_SECONDS=20 \
//!     NEXUS_MCP_LOAD_SSE=200 cargo bench --bench load
//!
//! Each load runs against a fresh server process (over the same indexed data dir), so its peak
//! RSS is its own:
//! 1. `sessions`: N 2025-11-25 sessions opened at once (initialize, notifications/initialized,
//!    tools/list) and all held open; then every session calls kg_latest_graph and
//!    kg_graph_summary at once; then each session is closed with DELETE.
//! 2. `stateless`: 2026-07-28 tools/calls (no session, `_meta` per request, Mcp-Method and
//!    Mcp-Name headers) at a fixed offered rate, open loop: call k is due at start + k/rate and
//!    its latency counts from that due time, so falling behind shows as latency instead of as a
//!    lower send rate (no coordinated omission).
//! 3. `sse`: M legacy SSE sessions (GET /sse, POST /message?sessionId=) opened at once and
//!    held, then each calls both tools, reading the answers from its own stream.
//! 4. `python` (only when NEXUS_MCP_LOAD_PYTHON=N is set): N sessions of the Python MCP SDK
//!    (benches/load_python.py), with the Python process's CPU next to the server's.
//!
//! Settings: NEXUS_MCP_LOAD_SESSIONS (1000), NEXUS_MCP_LOAD_RATE (500 calls/s),
//! NEXUS_MCP_LOAD_SECONDS (20), NEXUS_MCP_LOAD_SSE (200), NEXUS_MCP_LOAD_PYTHON (off; 200 is
//! the probe's load), the defaults under `cargo bench` (otherwise a smoke run: 20, 50, 2, 10),
//! NEXUS_MCP_LOAD_KEYS (API keys the clients are spread over, round robin; 8),
//! NEXUS_MCP_LOAD_ONLY (comma-separated loads), NEXUS_MCP_LOAD_TIMEOUT (seconds per request,
//! 30), NEXUS_MCP_LOAD_SERVER_ARGS (extra `serve` flags, space-separated, e.g. `--threads 2`),
//! NEXUS_MCP_LOAD_REPLICAS (0: one server with its embedded nexus-lite; N: N replicas behind
//! HAProxy from .ci/setup, configured by deployment/haproxy.cfg, sharing one `nexus-lite serve`;
//! the server columns then sum the replicas, and nexus-lite and HAProxy count as "others").
//!
//! The client is tokio (multi-thread) + reqwest with request bodies serialised up front; its own
//! CPU is reported next to the server's so a saturated client cannot pass for a slow server.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

#[path = "../tests/support/mod.rs"]
mod support;

use reqwest::header::{HeaderMap, HeaderName, HeaderValue};
use serde_json::{Value, json};
use std::collections::BTreeMap;
use std::net::SocketAddr;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// An API key; every load spreads its clients over several (NEXUS_MCP_LOAD_KEYS), as many
/// agents would, so that per-key caps on sessions and calls apply as they do in use.
type Key = &'static str;
const SESSION_VERSION: &str = "2025-11-25";
const STATELESS_VERSION: &str = "2026-07-28";
const TOOLS: [&str; 2] = ["kg_latest_graph", "kg_graph_summary"];
/// A request body, serialised once for the whole run.
type Body = &'static str;

/// Time for the server to hand back what closed sessions held before RSS is read again.
const SETTLE: Duration = Duration::from_secs(2);

// ---- settings -----------------------------------------------------------------------------

struct Config {
    sessions: usize,
    rate: u32,
    seconds: u64,
    sse: usize,
    python: usize,
    only: Option<Vec<String>>,
    timeout: Duration,
    server_args: Vec<String>,
    keys: Vec<Key>,
    /// 0: one server with its embedded nexus-lite. N: N replicas behind HAProxy
    /// (deployment/haproxy.cfg), sharing one nexus-lite serving the Nexus API over HTTP.
    replicas: usize,
}

fn env_num<T: std::str::FromStr>(name: &str, default: T) -> T {
    match std::env::var(name) {
        Ok(v) => v
            .trim()
            .parse()
            .unwrap_or_else(|_| panic!("{name}={v:?} is not a number")),
        Err(_) => default,
    }
}

impl Config {
    /// `cargo bench` passes `--bench`; run any other way (`cargo test --benches`, the binary on
    /// its own) the defaults are a smoke run that only shows the bench still works.
    fn from_env() -> Config {
        let full = std::env::args().any(|a| a == "--bench");
        Config {
            sessions: env_num("NEXUS_MCP_LOAD_SESSIONS", if full { 1000 } else { 20 }),
            rate: env_num("NEXUS_MCP_LOAD_RATE", if full { 500 } else { 50 }),
            seconds: env_num("NEXUS_MCP_LOAD_SECONDS", if full { 20 } else { 2 }),
            sse: env_num("NEXUS_MCP_LOAD_SSE", if full { 200 } else { 10 }),
            python: env_num("NEXUS_MCP_LOAD_PYTHON", 0),
            only: std::env::var("NEXUS_MCP_LOAD_ONLY")
                .ok()
                .map(|v| v.split(',').map(|s| s.trim().to_owned()).collect()),
            timeout: Duration::from_secs(env_num("NEXUS_MCP_LOAD_TIMEOUT", 30)),
            server_args: std::env::var("NEXUS_MCP_LOAD_SERVER_ARGS")
                .map(|v| v.split_whitespace().map(str::to_owned).collect())
                .unwrap_or_default(),
            replicas: env_num("NEXUS_MCP_LOAD_REPLICAS", 0),
            keys: (0..env_num::<usize>("NEXUS_MCP_LOAD_KEYS", 8).max(1))
                .map(|i| -> Key { Box::leak(format!("load-bench-key-{i}").into_boxed_str()) })
                .collect(),
        }
    }

    /// The key of client `i`.
    fn key(&self, i: usize) -> Key {
        self.keys[i % self.keys.len()]
    }

    fn runs(&self, load: &str) -> bool {
        let wanted = self
            .only
            .as_ref()
            .is_none_or(|o| o.iter().any(|l| l == load));
        wanted && (load != "python" || self.python > 0)
    }

    /// The command that reproduces this run.
    fn command(&self) -> String {
        let mut env = format!(
            "NEXUS_MCP_LOAD_SESSIONS={} NEXUS_MCP_LOAD_RATE={} NEXUS_MCP_LOAD_SECONDS={} NEXUS_MCP_LOAD_SSE={}",
            self.sessions, self.rate, self.seconds, self.sse
        );
        if self.python > 0 {
            env.push_str(&format!(" NEXUS_MCP_LOAD_PYTHON={}", self.python));
        }
        if self.keys.len() != 8 {
            env.push_str(&format!(" NEXUS_MCP_LOAD_KEYS={}", self.keys.len()));
        }
        if self.replicas > 0 {
            env.push_str(&format!(" NEXUS_MCP_LOAD_REPLICAS={}", self.replicas));
        }
        if let Some(only) = &self.only {
            env.push_str(&format!(" NEXUS_MCP_LOAD_ONLY={}", only.join(",")));
        }
        if !self.server_args.is_empty() {
            env.push_str(&format!(
                " NEXUS_MCP_LOAD_SERVER_ARGS='{}'",
                self.server_args.join(" ")
            ));
        }
        format!("{env} cargo bench --bench load")
    }
}

/// Every session holds a socket on each side: fail early, with the fix, rather than report
/// EMFILE as the server's fault.
fn check_fd_limit(needed: usize) {
    let limits = std::fs::read_to_string("/proc/self/limits").unwrap_or_default();
    let soft = limits
        .lines()
        .find(|l| l.starts_with("Max open files"))
        .and_then(|l| l.split_whitespace().nth(3))
        .and_then(|v| v.parse::<usize>().ok());
    if let Some(soft) = soft {
        assert!(
            soft >= needed,
            "the open-file limit is {soft}, this load needs about {needed} descriptors (the server inherits the limit): raise it with `ulimit -n {needed}` (up to `ulimit -Hn`) or lower NEXUS_MCP_LOAD_SESSIONS / NEXUS_MCP_LOAD_SSE"
        );
    }
}

// ---- the server and what /proc says about a process ------------------------------------------

struct Server {
    /// The MCP servers: one, or the replicas behind the load balancer.
    children: Vec<Child>,
    /// Where clients connect: the server, or the load balancer.
    addr: SocketAddr,
    /// The shared nexus-lite and HAProxy of a replicated run, stopped with the server (their CPU
    /// counts as "others").
    _helpers: Vec<support::deploy::Killed>,
    _tokens: tempfile::TempDir,
}

impl Server {
    fn start(fixture: &support::Fixture, data: &Path, cfg: &Config) -> Server {
        use sha2::Digest;
        let tokens = tempfile::tempdir().unwrap();
        let tokens_file = tokens.path().join("tokens");
        let lines: String = cfg
            .keys
            .iter()
            .map(|k| format!("sha256:{:x} kg:read\n", sha2::Sha256::digest(k.as_bytes())))
            .collect();
        std::fs::write(&tokens_file, lines).unwrap();
        if cfg.replicas > 0 {
            return Server::replicated(fixture, data, cfg, tokens, &tokens_file);
        }
        let port = support::free_port();
        let mut cmd = Command::new(support::bin());
        cmd.args(["serve", "--transport", "http", "--listen"])
            .arg(format!("127.0.0.1:{port}"))
            .arg("--repo")
            .arg(fixture.repo_arg())
            .arg("--data-dir")
            .arg(data)
            .arg("--tokens")
            .arg(&tokens_file)
            .args(&cfg.server_args)
            .env_remove("NEXUS_API_URL")
            .env_remove("NEXUS_API_TOKEN");
        Server {
            children: vec![spawn_server(&mut cmd)],
            addr: SocketAddr::from(([127, 0, 0, 1], port)),
            _helpers: Vec::new(),
            _tokens: tokens,
        }
    }

    /// `cfg.replicas` servers against one nexus-lite over HTTP, behind HAProxy.
    fn replicated(
        fixture: &support::Fixture,
        data: &Path,
        cfg: &Config,
        tokens: tempfile::TempDir,
        tokens_file: &Path,
    ) -> Server {
        const LITE_TOKEN: &str = "load-bench-nexus-token";
        let lite_bin = support::bin().with_file_name("nexus-lite");
        let (lite, lite_addr) = support::deploy::nexus_lite(&lite_bin, fixture, data, LITE_TOKEN);
        let key_file = tokens.path().join("state.key");
        std::fs::write(&key_file, "the load bench's shared request-state key").unwrap();
        let nexus = format!("http://{lite_addr}");
        let mut children = Vec::new();
        let mut addrs = Vec::new();
        for _ in 0..cfg.replicas {
            let port = support::free_port();
            let mut cmd = Command::new(support::bin());
            cmd.args([
                "--nexus-url",
                &nexus,
                "serve",
                "--transport",
                "http",
                "--listen",
            ])
            .arg(format!("127.0.0.1:{port}"))
            .arg("--tokens")
            .arg(tokens_file)
            .arg("--state-key-file")
            .arg(&key_file)
            .args(&cfg.server_args)
            .env("NEXUS_API_TOKEN", LITE_TOKEN);
            children.push(spawn_server(&mut cmd));
            addrs.push(SocketAddr::from(([127, 0, 0, 1], port)));
        }
        let front = support::free_port();
        let haproxy =
            support::deploy::haproxy_bin().expect("HAProxy from .ci/setup (.ci/cache/haproxy)");
        let config =
            support::deploy::haproxy_config(front, &addrs).replace("maxconn 4096", "maxconn 9000");
        let haproxy = support::deploy::haproxy(&haproxy, &config, tokens.path(), front);
        Server {
            children,
            addr: SocketAddr::from(([127, 0, 0, 1], front)),
            _helpers: vec![lite, haproxy],
            _tokens: tokens,
        }
    }

    /// The MCP server processes, whose CPU and memory the report shows.
    fn pids(&self) -> Vec<u32> {
        self.children.iter().map(Child::id).collect()
    }

    fn url(&self, path: &str) -> String {
        format!("http://{}{path}", self.addr)
    }

    fn memory(&self) -> Memory {
        Memory::of_all(&self.pids())
    }
}

/// A `serve --transport http` started by `cmd`, once it listens.
fn spawn_server(cmd: &mut Command) -> Child {
    cmd.env("PATH", support::tool_path())
        .env_remove("NEXUS_MCP_API_KEY")
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped());
    support::spawn_ready(cmd, "nexus-mcp listening on").0
}

impl Drop for Server {
    fn drop(&mut self) {
        for child in &mut self.children {
            let _ = child.kill();
            let _ = child.wait();
        }
    }
}

/// utime + stime of a whole process (all threads, exited ones included) from /proc/<pid>/stat;
/// `who` is a pid or "self". Counted in ticks of 10 ms (USER_HZ is 100 on Linux).
fn cpu_time(who: &str) -> Duration {
    let stat = std::fs::read_to_string(format!("/proc/{who}/stat"))
        .unwrap_or_else(|e| panic!("cannot read /proc/{who}/stat: {e}"));
    // Fields after the command name, which may itself hold spaces: state is field 3, so utime
    // (field 14) and stime (field 15) are at 11 and 12.
    let rest = &stat[stat.rfind(')').expect("a comm field") + 2..];
    let fields: Vec<&str> = rest.split_whitespace().collect();
    let ticks: u64 = fields[11].parse::<u64>().unwrap() + fields[12].parse::<u64>().unwrap();
    Duration::from_millis(ticks * 10)
}

/// The CPU of the server processes, summed.
fn cpu_of(pids: &[u32]) -> Duration {
    pids.iter().map(|p| cpu_time(&p.to_string())).sum()
}

/// The server's memory (from /proc/<pid>/status, in KiB) and descriptors.
#[derive(Clone, Copy, Default)]
struct Memory {
    /// VmHWM: the peak resident set since the process started.
    peak: u64,
    /// VmRSS: resident now.
    now: u64,
    /// Open file descriptors (sockets, mostly): whether closed connections were let go.
    fds: usize,
}

impl Memory {
    /// Several processes' memory, summed (the replicas of a replicated run).
    fn of_all(pids: &[u32]) -> Memory {
        pids.iter()
            .map(|p| Memory::of(*p))
            .fold(Memory::default(), |a, m| Memory {
                peak: a.peak + m.peak,
                now: a.now + m.now,
                fds: a.fds + m.fds,
            })
    }

    fn of(pid: u32) -> Memory {
        let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap_or_default();
        let field = |name: &str| {
            status
                .lines()
                .find_map(|l| l.strip_prefix(name))
                .and_then(|v| v.split_whitespace().next())
                .and_then(|v| v.parse().ok())
                .unwrap_or(0)
        };
        Memory {
            peak: field("VmHWM:"),
            now: field("VmRSS:"),
            fds: std::fs::read_dir(format!("/proc/{pid}/fd")).map_or(0, Iterator::count),
        }
    }
}

fn mib(kib: u64) -> String {
    format!("{:.0} MiB", kib as f64 / 1024.0)
}

/// CPU time all cores have spent busy (not idle, not waiting on I/O), from /proc/stat.
fn machine_busy() -> Duration {
    let stat = std::fs::read_to_string("/proc/stat").expect("read /proc/stat");
    let ticks: Vec<u64> = stat
        .lines()
        .next()
        .and_then(|l| l.strip_prefix("cpu "))
        .expect("the cpu line of /proc/stat")
        .split_whitespace()
        .map(|v| v.parse().unwrap())
        .collect();
    // user nice system idle iowait irq softirq steal (guest time is already in user).
    let busy: u64 = ticks.iter().take(8).sum::<u64>() - ticks[3] - ticks[4];
    Duration::from_millis(busy * 10)
}

/// Wall time and CPU over one phase: of the server, of this (client) process, of the machine.
struct Window {
    started: Instant,
    server: Duration,
    client: Duration,
    machine: Duration,
}

#[derive(Clone, Copy)]
struct Usage {
    wall: Duration,
    server_cpu: Duration,
    client_cpu: Duration,
    /// Every other process on the machine (other builds share these two cores).
    others_cpu: Duration,
}

impl Window {
    fn open(server_pids: &[u32]) -> Window {
        Window {
            started: Instant::now(),
            server: cpu_of(server_pids),
            client: cpu_time("self"),
            machine: machine_busy(),
        }
    }

    fn close(self, server_pids: &[u32]) -> Usage {
        let server_cpu = cpu_of(server_pids).saturating_sub(self.server);
        let client_cpu = cpu_time("self").saturating_sub(self.client);
        let machine = machine_busy().saturating_sub(self.machine);
        Usage {
            wall: self.started.elapsed(),
            server_cpu,
            client_cpu,
            others_cpu: machine.saturating_sub(server_cpu + client_cpu),
        }
    }
}

// ---- outcomes and their summary --------------------------------------------------------------

/// Why one request failed: `kind` groups failures in the report, `detail` is the first example.
struct Failure {
    kind: String,
    detail: String,
}

impl Failure {
    fn new(kind: impl Into<String>, detail: impl Into<String>) -> Failure {
        let mut detail: String = detail.into();
        detail.truncate(300);
        Failure {
            kind: kind.into(),
            detail,
        }
    }

    fn from_reqwest(e: &reqwest::Error) -> Failure {
        let kind = if e.is_timeout() {
            "timeout"
        } else if e.is_connect() {
            "connect"
        } else if e.is_body() || e.is_decode() {
            "reading the body"
        } else {
            "request"
        };
        // The source chain says what the socket saw (reset, EMFILE…).
        let mut detail = e.to_string();
        let mut source = std::error::Error::source(e);
        while let Some(s) = source {
            detail.push_str(&format!(": {s}"));
            source = s.source();
        }
        Failure::new(kind, detail)
    }
}

type Outcome = Result<Duration, Failure>;

/// Latencies of the requests that succeeded and the failures by kind.
#[derive(Default)]
struct Tally {
    latencies: Vec<Duration>,
    errors: BTreeMap<String, (usize, String)>,
}

impl Tally {
    fn record(&mut self, outcome: Outcome) {
        match outcome {
            Ok(took) => self.latencies.push(took),
            Err(f) => self.errors.entry(f.kind).or_insert((0, f.detail)).0 += 1,
        }
    }

    fn merge(&mut self, other: Tally) {
        self.latencies.extend(other.latencies);
        for (kind, (n, detail)) in other.errors {
            self.errors.entry(kind).or_insert((0, detail)).0 += n;
        }
    }

    fn error_count(&self) -> usize {
        self.errors.values().map(|(n, _)| n).sum()
    }
}

/// Nearest-rank percentiles of a set of latencies.
struct Summary {
    p50: Duration,
    p99: Duration,
    max: Duration,
}

impl Summary {
    fn of(latencies: &[Duration]) -> Option<Summary> {
        let mut sorted = latencies.to_vec();
        sorted.sort_unstable();
        let at = |q: f64| {
            let rank = (q * sorted.len() as f64).ceil() as usize;
            sorted[rank.clamp(1, sorted.len()) - 1]
        };
        (!sorted.is_empty()).then(|| Summary {
            p50: at(0.50),
            p99: at(0.99),
            max: at(1.0),
        })
    }
}

/// One line of the report: a phase of a load.
struct Row {
    load: String,
    clients: usize,
    tally: Tally,
    /// None for a phase with no requests.
    usage: Option<Usage>,
    /// The server's memory at the end of the phase.
    memory: Memory,
}

// ---- JSON-RPC over HTTP --------------------------------------------------------------------

/// The bodies every client sends, serialised once.
struct Bodies {
    initialize: Body,
    initialized: Body,
    tools_list: Body,
    /// One tools/call per tool, ids 10, 11, …
    calls: Vec<Body>,
    /// The same calls as 2026-07-28 requests: `_meta` instead of a session.
    stateless: Vec<Body>,
}

fn call_id(i: usize) -> u64 {
    10 + i as u64
}

impl Bodies {
    fn new() -> Bodies {
        let bytes = |v: Value| -> Body { Box::leak(v.to_string().into_boxed_str()) };
        let arguments = json!({"repository": support::REPO_NAME});
        Bodies {
            initialize: bytes(
                json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
                "protocolVersion": SESSION_VERSION, "capabilities": {},
                "clientInfo": {"name": "nexus-mcp-load", "version": "0"}}}),
            ),
            initialized: bytes(json!({"jsonrpc": "2.0", "method": "notifications/initialized"})),
            tools_list: bytes(json!({"jsonrpc": "2.0", "id": 2, "method": "tools/list"})),
            calls: TOOLS
                .iter()
                .enumerate()
                .map(|(i, tool)| {
                    bytes(
                        json!({"jsonrpc": "2.0", "id": call_id(i), "method": "tools/call",
                    "params": {"name": tool, "arguments": arguments}}),
                    )
                })
                .collect(),
            stateless: TOOLS
                .iter()
                .enumerate()
                .map(|(i, tool)| {
                    bytes(
                        json!({"jsonrpc": "2.0", "id": call_id(i), "method": "tools/call",
                    "params": {"name": tool, "arguments": arguments, "_meta": {
                        "io.modelcontextprotocol/protocolVersion": STATELESS_VERSION,
                        "io.modelcontextprotocol/clientCapabilities": {}}}}),
                    )
                })
                .collect(),
        }
    }
}

fn headers(key: Key, pairs: &[(&str, &str)]) -> HeaderMap {
    let mut map = HeaderMap::new();
    map.insert(
        "accept",
        HeaderValue::from_static("application/json, text/event-stream"),
    );
    map.insert("content-type", HeaderValue::from_static("application/json"));
    map.insert("x-mcp-api-key", HeaderValue::from_static(key));
    for (k, v) in pairs {
        map.insert(
            HeaderName::from_bytes(k.as_bytes()).unwrap(),
            HeaderValue::from_str(v).unwrap(),
        );
    }
    map
}

/// The client every load uses: one connection pool, as many connections as requests in flight.
fn http_client() -> reqwest::Client {
    reqwest::Client::builder()
        .tcp_nodelay(true)
        .connect_timeout(Duration::from_secs(10))
        .pool_idle_timeout(None)
        .build()
        .unwrap()
}

struct Answer {
    status: reqwest::StatusCode,
    headers: HeaderMap,
    body: String,
}

async fn post(
    client: &reqwest::Client,
    url: &str,
    headers: HeaderMap,
    body: Body,
    timeout: Duration,
) -> Result<Answer, Failure> {
    let response = client
        .post(url)
        .headers(headers)
        .body(body)
        .timeout(timeout)
        .send()
        .await
        .map_err(|e| Failure::from_reqwest(&e))?;
    let status = response.status();
    let headers = response.headers().clone();
    let body = response
        .text()
        .await
        .map_err(|e| Failure::from_reqwest(&e))?;
    if !status.is_success() {
        return Err(Failure::new(format!("HTTP {}", status.as_u16()), body));
    }
    Ok(Answer {
        status,
        headers,
        body,
    })
}

/// The JSON-RPC message with `id` in a JSON or SSE body.
fn rpc_message(answer: &Answer, id: u64) -> Result<Value, Failure> {
    let text = &answer.body;
    let sse = answer
        .headers
        .get("content-type")
        .and_then(|c| c.to_str().ok())
        .is_some_and(|c| c.starts_with("text/event-stream"));
    let mut candidates: Vec<Value> = if sse {
        text.lines()
            .filter_map(|l| l.strip_prefix("data:"))
            .filter_map(|d| serde_json::from_str(d.trim()).ok())
            .collect()
    } else {
        serde_json::from_str(text).into_iter().collect()
    };
    let found = candidates
        .iter()
        .position(|v| v["id"].as_u64() == Some(id))
        .ok_or_else(|| {
            Failure::new(
                "no answer in the body",
                format!("HTTP {}: {text}", answer.status),
            )
        })?;
    Ok(candidates.swap_remove(found))
}

/// A tools/call answer that carries a graph, or the failure it reports.
fn check_tool_answer(message: &Value) -> Result<(), Failure> {
    if let Some(e) = message.get("error") {
        return Err(Failure::new(
            format!("JSON-RPC error {}", e["code"]),
            e.to_string(),
        ));
    }
    let result = &message["result"];
    if result["isError"] == json!(true) {
        let code = result["structuredContent"]["error"]["code"]
            .as_str()
            .unwrap_or("?");
        return Err(Failure::new(
            format!("tool error {code}"),
            result.to_string(),
        ));
    }
    if !result["structuredContent"]["graph"]["commit_sha"].is_string() {
        return Err(Failure::new("answer without a graph", result.to_string()));
    }
    Ok(())
}

fn check_tools_list(message: &Value) -> Result<(), Failure> {
    let listed = message["result"]["tools"].as_array().map_or(0, Vec::len);
    if listed == 0 {
        return Err(Failure::new("empty tools/list", message.to_string()));
    }
    Ok(())
}

// ---- load 1: 2025-11-25 sessions ----------------------------------------------------------

struct Session {
    headers: HeaderMap,
}

/// initialize → notifications/initialized → tools/list, each request recorded in `tally`.
async fn open_session(
    client: &reqwest::Client,
    url: &str,
    key: Key,
    bodies: &Bodies,
    timeout: Duration,
    tally: &mut Tally,
) -> Option<Session> {
    let started = Instant::now();
    let init = post(client, url, headers(key, &[]), bodies.initialize, timeout)
        .await
        .and_then(|a| {
            let id = a
                .headers
                .get("mcp-session-id")
                .and_then(|v| v.to_str().ok())
                .map(str::to_owned)
                .ok_or_else(|| Failure::new("no Mcp-Session-Id", format!("HTTP {}", a.status)))?;
            rpc_message(&a, 1)?;
            Ok(id)
        });
    let id = match init {
        Ok(id) => {
            tally.record(Ok(started.elapsed()));
            id
        }
        Err(f) => {
            tally.record(Err(f));
            return None;
        }
    };
    let session = Session {
        headers: headers(
            key,
            &[
                ("mcp-session-id", &id),
                ("mcp-protocol-version", SESSION_VERSION),
            ],
        ),
    };
    let started = Instant::now();
    let ack = post(
        client,
        url,
        session.headers.clone(),
        bodies.initialized,
        timeout,
    )
    .await;
    let acked = ack.is_ok();
    tally.record(ack.map(|_| started.elapsed()));
    if !acked {
        return None;
    }
    let started = Instant::now();
    let listed = post(
        client,
        url,
        session.headers.clone(),
        bodies.tools_list,
        timeout,
    )
    .await
    .and_then(|a| check_tools_list(&rpc_message(&a, 2)?))
    .map(|()| started.elapsed());
    let ok = listed.is_ok();
    tally.record(listed);
    ok.then_some(session)
}

/// Every tool once over `session`.
async fn session_calls(
    client: &reqwest::Client,
    url: &str,
    session: &Session,
    bodies: &Bodies,
    timeout: Duration,
) -> Tally {
    let mut tally = Tally::default();
    for (i, body) in bodies.calls.iter().enumerate() {
        let started = Instant::now();
        let outcome = post(client, url, session.headers.clone(), body, timeout)
            .await
            .and_then(|a| check_tool_answer(&rpc_message(&a, call_id(i))?))
            .map(|()| started.elapsed());
        tally.record(outcome);
    }
    tally
}

async fn close_session(
    client: &reqwest::Client,
    url: &str,
    session: &Session,
    timeout: Duration,
) -> Outcome {
    let started = Instant::now();
    let response = client
        .delete(url)
        .headers(session.headers.clone())
        .timeout(timeout)
        .send()
        .await
        .map_err(|e| Failure::from_reqwest(&e))?;
    let status = response.status();
    if !status.is_success() {
        let body = response.text().await.unwrap_or_default();
        return Err(Failure::new(format!("HTTP {}", status.as_u16()), body));
    }
    Ok(started.elapsed())
}

/// Runs one future per item at once and merges what they return.
async fn all_at_once<T, F>(items: Vec<T>, f: impl Fn(T) -> F) -> Vec<F::Output>
where
    F: std::future::Future + Send + 'static,
    F::Output: Send + 'static,
{
    let tasks: Vec<_> = items
        .into_iter()
        .map(|item| tokio::spawn(f(item)))
        .collect();
    let mut out = Vec::with_capacity(tasks.len());
    for t in tasks {
        out.push(t.await.expect("a load task panicked"));
    }
    out
}

async fn sessions_load(server: &Server, cfg: &Config, bodies: Arc<Bodies>) -> Vec<Row> {
    let n = cfg.sessions;
    let client = http_client();
    let url: Arc<str> = server.url("/mcp").into();
    let timeout = cfg.timeout;
    let pid = server.pids();
    let mut rows = Vec::new();
    let row = |load: &str, clients: usize, tally: Tally, usage: Option<Usage>| Row {
        load: format!("{n} sessions (2025-11-25): {load}"),
        clients,
        tally,
        usage,
        memory: server.memory(),
    };

    let window = Window::open(&pid);
    let opened = all_at_once((0..n).collect(), |i| {
        let (client, url, bodies) = (client.clone(), url.clone(), bodies.clone());
        let key = cfg.key(i);
        async move {
            let mut tally = Tally::default();
            let session = open_session(&client, &url, key, &bodies, timeout, &mut tally).await;
            (session, tally)
        }
    })
    .await;
    let usage = window.close(&pid);
    let mut tally = Tally::default();
    let mut sessions = Vec::new();
    for (session, t) in opened {
        tally.merge(t);
        sessions.extend(session.map(Arc::new));
    }
    let held = sessions.len();
    rows.push(row(
        &format!("open (initialize, initialized, tools/list); {held} held"),
        n,
        tally,
        Some(usage),
    ));

    let window = Window::open(&pid);
    let called = all_at_once(sessions.clone(), |session| {
        let (client, url, bodies) = (client.clone(), url.clone(), bodies.clone());
        async move { session_calls(&client, &url, &session, &bodies, timeout).await }
    })
    .await;
    let usage = window.close(&pid);
    let mut tally = Tally::default();
    called.into_iter().for_each(|t| tally.merge(t));
    rows.push(row(
        &format!("{} tools/call per held session, all at once", TOOLS.len()),
        held,
        tally,
        Some(usage),
    ));

    let window = Window::open(&pid);
    let closed = all_at_once(sessions, |session| {
        let (client, url) = (client.clone(), url.clone());
        async move { close_session(&client, &url, &session, timeout).await }
    })
    .await;
    let usage = window.close(&pid);
    drop(client);
    tokio::time::sleep(SETTLE).await;
    let mut tally = Tally::default();
    closed.into_iter().for_each(|o| tally.record(o));
    rows.push(row("close (DELETE)", held, tally, Some(usage)));
    rows
}

// ---- load 2: stateless 2026-07-28 calls at a fixed rate -----------------------------------

fn stateless_headers(key: Key, tool: &str) -> HeaderMap {
    headers(
        key,
        &[
            ("mcp-protocol-version", STATELESS_VERSION),
            ("mcp-method", "tools/call"),
            ("mcp-name", tool),
        ],
    )
}

async fn stateless_call(
    client: reqwest::Client,
    url: Arc<str>,
    headers: HeaderMap,
    body: Body,
    id: u64,
    due: tokio::time::Instant,
    timeout: Duration,
) -> Outcome {
    post(&client, &url, headers, body, timeout)
        .await
        .and_then(|a| check_tool_answer(&rpc_message(&a, id)?))
        .map(|()| due.elapsed())
}

async fn stateless_load(server: &Server, cfg: &Config, bodies: Arc<Bodies>) -> Vec<Row> {
    let total = u64::from(cfg.rate) * cfg.seconds;
    let period = Duration::from_secs_f64(1.0 / f64::from(cfg.rate));
    let client = http_client();
    let url: Arc<str> = server.url("/mcp").into();
    // Headers for call k: tool k % tools, key k / tools % keys.
    let per_call: Vec<HeaderMap> = (0..TOOLS.len() * cfg.keys.len())
        .map(|k| stateless_headers(cfg.key(k / TOOLS.len()), TOOLS[k % TOOLS.len()]))
        .collect();
    let pid = server.pids();
    let window = Window::open(&pid);
    let start = tokio::time::Instant::now();
    let mut tasks = Vec::with_capacity(usize::try_from(total).unwrap());
    let mut worst_lag = Duration::ZERO;
    for k in 0..total {
        let due = start + period.mul_f64(k as f64);
        tokio::time::sleep_until(due).await;
        worst_lag = worst_lag.max(due.elapsed());
        let k = usize::try_from(k).unwrap();
        let i = k % TOOLS.len();
        tasks.push(tokio::spawn(stateless_call(
            client.clone(),
            url.clone(),
            per_call[k % per_call.len()].clone(),
            bodies.stateless[i],
            call_id(i),
            due,
            cfg.timeout,
        )));
    }
    let mut tally = Tally::default();
    for t in tasks {
        tally.record(t.await.expect("a stateless call panicked"));
    }
    let usage = window.close(&pid);
    vec![Row {
        load: format!(
            "stateless (2026-07-28) at {}/s offered for {} s; sender at most {:.1} ms late",
            cfg.rate,
            cfg.seconds,
            worst_lag.as_secs_f64() * 1e3
        ),
        clients: 1,
        tally,
        usage: Some(usage),
        memory: server.memory(),
    }]
}

// ---- load 3: legacy SSE sessions ----------------------------------------------------------

/// A legacy SSE session: the open event stream and where to POST.
struct SseSession {
    key: Key,
    post_url: String,
    stream: reqwest::Response,
    buffer: String,
}

impl SseSession {
    /// GET /sse, up to its `endpoint` event.
    async fn open(
        client: &reqwest::Client,
        base: &str,
        key: Key,
        timeout: Duration,
    ) -> Result<Self, Failure> {
        let stream = client
            .get(format!("{base}/sse"))
            .header("accept", "text/event-stream")
            .header("x-mcp-api-key", key)
            .send()
            .await
            .map_err(|e| Failure::from_reqwest(&e))?;
        if !stream.status().is_success() {
            return Err(Failure::new(
                format!("HTTP {}", stream.status().as_u16()),
                "GET /sse",
            ));
        }
        let mut session = SseSession {
            key,
            post_url: String::new(),
            stream,
            buffer: String::new(),
        };
        let (event, data) = session.next_event(timeout).await?;
        if event != "endpoint" {
            return Err(Failure::new(
                "no endpoint event",
                format!("{event}: {data}"),
            ));
        }
        session.post_url = format!("{base}{data}");
        Ok(session)
    }

    /// The next event with data (keep-alive comments skipped): (event name, data).
    async fn next_event(&mut self, timeout: Duration) -> Result<(String, String), Failure> {
        let deadline = tokio::time::Instant::now() + timeout;
        loop {
            if let Some(end) = self.buffer.find("\n\n") {
                let block: String = self.buffer.drain(..end + 2).collect();
                let (mut event, mut data) = (String::from("message"), Vec::new());
                for line in block.lines() {
                    if let Some(v) = line.strip_prefix("event:") {
                        event = v.trim().to_owned();
                    } else if let Some(v) = line.strip_prefix("data:") {
                        data.push(v.strip_prefix(' ').unwrap_or(v));
                    }
                }
                if !data.is_empty() {
                    return Ok((event, data.join("\n")));
                }
                continue;
            }
            let chunk = tokio::time::timeout_at(deadline, self.stream.chunk())
                .await
                .map_err(|_| Failure::new("timeout", "waiting on the SSE stream"))?
                .map_err(|e| Failure::from_reqwest(&e))?
                .ok_or_else(|| Failure::new("SSE stream closed", "before the answer"))?;
            self.buffer.push_str(&String::from_utf8_lossy(&chunk));
        }
    }

    /// POSTs one message; the server accepts it with 202 and answers on the stream.
    async fn send(
        &self,
        client: &reqwest::Client,
        body: Body,
        timeout: Duration,
    ) -> Result<(), Failure> {
        post(
            client,
            &self.post_url,
            headers(self.key, &[]),
            body,
            timeout,
        )
        .await
        .map(drop)
    }

    /// POSTs a request and reads the stream up to its answer.
    async fn request(
        &mut self,
        client: &reqwest::Client,
        body: Body,
        id: u64,
        timeout: Duration,
    ) -> Result<Value, Failure> {
        self.send(client, body, timeout).await?;
        loop {
            let (_, data) = self.next_event(timeout).await?;
            let message: Value = serde_json::from_str(&data)
                .map_err(|e| Failure::new("non-JSON SSE message", format!("{e}: {data}")))?;
            if message["id"].as_u64() == Some(id) {
                return Ok(message);
            }
        }
    }
}

async fn open_sse_session(
    client: &reqwest::Client,
    base: &str,
    key: Key,
    bodies: &Bodies,
    timeout: Duration,
    tally: &mut Tally,
) -> Option<SseSession> {
    let started = Instant::now();
    let mut session = match SseSession::open(client, base, key, timeout).await {
        Ok(s) => s,
        Err(f) => {
            tally.record(Err(f));
            return None;
        }
    };
    tally.record(Ok(started.elapsed()));
    let started = Instant::now();
    let init = session.request(client, bodies.initialize, 1, timeout).await;
    let ok = init.is_ok();
    tally.record(init.map(|_| started.elapsed()));
    if !ok {
        return None;
    }
    let started = Instant::now();
    let ack = session.send(client, bodies.initialized, timeout).await;
    let ok = ack.is_ok();
    tally.record(ack.map(|()| started.elapsed()));
    if !ok {
        return None;
    }
    let started = Instant::now();
    let listed = session
        .request(client, bodies.tools_list, 2, timeout)
        .await
        .and_then(|m| check_tools_list(&m))
        .map(|()| started.elapsed());
    let ok = listed.is_ok();
    tally.record(listed);
    ok.then_some(session)
}

async fn sse_calls(
    client: &reqwest::Client,
    session: &mut SseSession,
    bodies: &Bodies,
    timeout: Duration,
) -> Tally {
    let mut tally = Tally::default();
    for (i, body) in bodies.calls.iter().enumerate() {
        let started = Instant::now();
        let outcome = session
            .request(client, body, call_id(i), timeout)
            .await
            .and_then(|m| check_tool_answer(&m))
            .map(|()| started.elapsed());
        tally.record(outcome);
    }
    tally
}

async fn sse_load(server: &Server, cfg: &Config, bodies: Arc<Bodies>) -> Vec<Row> {
    let n = cfg.sse;
    let client = http_client();
    let base: Arc<str> = server.url("").into();
    let timeout = cfg.timeout;
    let pid = server.pids();
    let mut rows = Vec::new();
    let row = |load: &str, clients: usize, tally: Tally, usage: Option<Usage>| Row {
        load: format!("{n} legacy SSE sessions: {load}"),
        clients,
        tally,
        usage,
        memory: server.memory(),
    };

    let window = Window::open(&pid);
    let opened = all_at_once((0..n).collect(), |i| {
        let (client, base, bodies) = (client.clone(), base.clone(), bodies.clone());
        let key = cfg.key(i);
        async move {
            let mut tally = Tally::default();
            let session = open_sse_session(&client, &base, key, &bodies, timeout, &mut tally).await;
            (session, tally)
        }
    })
    .await;
    let usage = window.close(&pid);
    let mut tally = Tally::default();
    let mut sessions = Vec::new();
    for (session, t) in opened {
        tally.merge(t);
        sessions.extend(session);
    }
    let held = sessions.len();
    rows.push(row(
        &format!("open (GET /sse, initialize, initialized, tools/list); {held} held"),
        n,
        tally,
        Some(usage),
    ));

    let window = Window::open(&pid);
    let called = all_at_once(sessions, |mut session| {
        let (client, bodies) = (client.clone(), bodies.clone());
        async move {
            let tally = sse_calls(&client, &mut session, &bodies, timeout).await;
            (session, tally)
        }
    })
    .await;
    let usage = window.close(&pid);
    let mut tally = Tally::default();
    let mut sessions = Vec::new();
    for (session, t) in called {
        tally.merge(t);
        sessions.push(session);
    }
    rows.push(row(
        &format!(
            "{} tools/call per held session, all at once, answers read from each stream",
            TOOLS.len()
        ),
        held,
        tally,
        Some(usage),
    ));

    // Closing the streams is the client's whole goodbye on this transport.
    drop(sessions);
    drop(client);
    tokio::time::sleep(SETTLE).await;
    rows.push(row("streams closed", held, Tally::default(), None));
    rows
}

// ---- load 4: the Python SDK ---------------------------------------------------------------

/// What benches/load_python.py prints: one line when every session is open, one at the end.
#[derive(serde::Deserialize)]
struct PythonPhase {
    latencies: Vec<f64>,
    errors: BTreeMap<String, usize>,
    first_error: Option<String>,
    /// The Python process's own CPU for this phase.
    cpu_seconds: f64,
}

impl PythonPhase {
    fn tally(&self) -> Tally {
        let mut tally = Tally {
            latencies: self
                .latencies
                .iter()
                .map(|s| Duration::from_secs_f64(*s))
                .collect(),
            ..Tally::default()
        };
        let detail = self.first_error.clone().unwrap_or_default();
        for (kind, n) in &self.errors {
            tally.errors.insert(kind.clone(), (*n, detail.clone()));
        }
        tally
    }
}

fn python_load(server: &Server, cfg: &Config) -> Vec<Row> {
    let python = support::python_with_mcp().expect(
        "NEXUS_MCP_LOAD_PYTHON needs Python with the mcp SDK (run `bash .ci/setup` or set NEXUS_MCP_PYTHON)",
    );
    let mut child = Command::new(python)
        .arg(support::root().join("benches/load_python.py"))
        .args(["--url", &server.url("/mcp")])
        .args(["--repository", support::REPO_NAME])
        .args(["--sessions", &cfg.python.to_string()])
        .env("NEXUS_MCP_LOAD_KEY", cfg.key(0))
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .expect("spawn benches/load_python.py");
    let log = Arc::new(Mutex::new(String::new()));
    let lines = support::tee_lines(child.stdout.take().unwrap(), log.clone());
    let mut next_phase = |what: &str| -> PythonPhase {
        let line = lines
            .recv_timeout(Duration::from_secs(600))
            .unwrap_or_else(|e| {
                let _ = child.kill();
                panic!(
                    "load_python.py printed no {what} report ({e}); output: {}",
                    log.lock().map(|l| l.clone()).unwrap_or_default()
                )
            });
        serde_json::from_str(&line).unwrap_or_else(|e| panic!("load_python.py: {e}: {line}"))
    };
    // Measure from the end of the script's imports.
    let ready = lines.recv_timeout(Duration::from_secs(120));
    assert!(
        ready.as_deref().is_ok_and(|l| l.contains("ready")),
        "load_python.py did not start: {ready:?}"
    );
    let pid = server.pids();
    let window = Window::open(&pid);
    let open = next_phase("open");
    let open_usage = window.close(&pid);
    let window = Window::open(&pid);
    let calls = next_phase("calls");
    let calls_usage = window.close(&pid);
    let _ = child.wait();
    let n = cfg.python;
    let python = |phase: &PythonPhase, usage: Usage| Usage {
        client_cpu: Duration::from_secs_f64(phase.cpu_seconds),
        // This process only waited; the others are everything but server and Python.
        others_cpu: (usage.others_cpu + usage.client_cpu)
            .saturating_sub(Duration::from_secs_f64(phase.cpu_seconds)),
        ..usage
    };
    vec![
        Row {
            load: format!(
                "{n} sessions, Python SDK (one asyncio process): open (initialize, tools/list)"
            ),
            clients: n,
            tally: open.tally(),
            usage: Some(python(&open, open_usage)),
            memory: server.memory(),
        },
        Row {
            load: format!(
                "{n} sessions, Python SDK: {} tools/call per held session, all at once",
                TOOLS.len()
            ),
            clients: n,
            tally: calls.tally(),
            usage: Some(python(&calls, calls_usage)),
            memory: server.memory(),
        },
    ]
}

// ---- the run ------------------------------------------------------------------------------

/// One stateless kg_latest_graph; the first one on a fresh data dir indexes the fixture.
fn first_call(server: &Server, key: Key, bodies: &Bodies, rt: &tokio::runtime::Runtime) {
    let client = http_client();
    let url = server.url("/mcp");
    let answer = rt.block_on(stateless_call(
        client,
        url.into(),
        stateless_headers(key, TOOLS[0]),
        bodies.stateless[0],
        call_id(0),
        tokio::time::Instant::now(),
        Duration::from_secs(120),
    ));
    if let Err(f) = answer {
        panic!("the first call failed ({}): {}", f.kind, f.detail);
    }
}

fn cpu_cell(cpu: Duration, wall: Duration) -> String {
    format!(
        "{:.1} s ({:.0} %)",
        cpu.as_secs_f64(),
        100.0 * cpu.as_secs_f64() / wall.as_secs_f64().max(1e-9)
    )
}

fn ms(d: Duration) -> String {
    format!("{:.1} ms", d.as_secs_f64() * 1e3)
}

fn print_report(cfg: &Config, rows: &[Row], baselines: &[(String, Memory)]) {
    let profile = if cfg!(debug_assertions) {
        "debug build (numbers are not representative)"
    } else {
        "optimised build (bench profile)"
    };
    println!();
    let setup = match cfg.replicas {
        0 => "embedded nexus-lite".to_owned(),
        n => format!(
            "{n} replica(s) behind HAProxy (deployment/haproxy.cfg) sharing one nexus-lite over HTTP; server columns sum the replicas"
        ),
    };
    println!(
        "nexus-mcp under load: {profile}; loopback, {setup}, server {}",
        support::bin().display()
    );
    let loadavg = std::fs::read_to_string("/proc/loadavg").unwrap_or_default();
    println!(
        "{} API keys, clients spread over them round robin; {} cores; load average at the end: {}",
        cfg.keys.len(),
        std::thread::available_parallelism().map_or(0, usize::from),
        loadavg
            .split_whitespace()
            .take(3)
            .collect::<Vec<_>>()
            .join(" ")
    );
    println!();
    println!("```sh\n{}\n```", cfg.command());
    println!();
    println!(
        "| load | clients | requests ok | errors | throughput | p50 | p99 | max | server RSS peak / at end | server fds at end | CPU (% of one core): server | client | other processes |"
    );
    println!("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
    for r in rows {
        let ok = r.tally.latencies.len();
        let summary = Summary::of(&r.tally.latencies);
        let cell =
            |f: fn(&Summary) -> Duration| summary.as_ref().map_or("—".into(), |s| ms(f(s)));
        let throughput = match &r.usage {
            Some(u) if ok > 0 => format!("{:.0}/s", ok as f64 / u.wall.as_secs_f64().max(1e-9)),
            _ => "—".into(),
        };
        let cpu = |f: fn(&Usage) -> Duration| {
            r.usage
                .as_ref()
                .map_or("—".into(), |u| cpu_cell(f(u), u.wall))
        };
        println!(
            "| {} | {} | {} | {} | {} | {} | {} | {} | {} / {} | {} | {} | {} | {} |",
            r.load,
            r.clients,
            ok,
            r.tally.error_count(),
            throughput,
            cell(|s| s.p50),
            cell(|s| s.p99),
            cell(|s| s.max),
            mib(r.memory.peak),
            mib(r.memory.now),
            r.memory.fds,
            cpu(|u| u.server_cpu),
            cpu(|u| u.client_cpu),
            cpu(|u| u.others_cpu),
        );
    }
    println!();
    for (load, m) in baselines {
        println!(
            "- {load}: the server started at {} RSS and {} fds (after one call).",
            mib(m.now),
            m.fds
        );
    }
    for r in rows {
        for (kind, (n, detail)) in &r.tally.errors {
            println!("- error in \"{}\": {n} × {kind}; first: {detail}", r.load);
        }
    }
}

fn main() {
    let cfg = Config::from_env();
    check_fd_limit(cfg.sessions.max(cfg.sse).max(cfg.python) * 2 + 256);
    let rt = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .unwrap();
    let fixture = support::fixture_repo();
    let data = tempfile::tempdir().unwrap();
    let bodies = Arc::new(Bodies::new());
    // Index once; every load's server then starts over the indexed data dir.
    first_call(
        &Server::start(&fixture, data.path(), &cfg),
        cfg.key(0),
        &bodies,
        &rt,
    );

    let mut rows = Vec::new();
    let mut baselines = Vec::new();
    for load in ["sessions", "stateless", "sse", "python"] {
        if !cfg.runs(load) {
            continue;
        }
        let server = Server::start(&fixture, data.path(), &cfg);
        // One call first, so the baseline includes what any first call loads.
        first_call(&server, cfg.key(0), &bodies, &rt);
        baselines.push((load.to_owned(), server.memory()));
        eprintln!("load: {load}…");
        rows.extend(match load {
            "sessions" => rt.block_on(sessions_load(&server, &cfg, bodies.clone())),
            "stateless" => rt.block_on(stateless_load(&server, &cfg, bodies.clone())),
            "sse" => rt.block_on(sse_load(&server, &cfg, bodies.clone())),
            _ => python_load(&server, &cfg),
        });
    }
    print_report(&cfg, &rows, &baselines);
}
