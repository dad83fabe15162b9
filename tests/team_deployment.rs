//! A team deployment run here with real parts: HAProxy (Debian's package, unpacked by .ci/setup)
//! in front of two nexus-mcp replicas that share one nexus-lite serving the Nexus API over HTTP
//! and one request-state key. The load balancer's configuration is the one the README shows
//! (`deployment/haproxy.cfg`, with the ports filled in).
//!
//! - 2026-07-28 requests are stateless: round-robin, and an input-required answer sealed by one
//!   replica is accepted by the other.
//! - 2025 sessions stay on the replica that created them (HAProxy sticks on `Mcp-Session-Id`).
//! - One replica is killed: every later 2026 request still succeeds, and a 2025 session that
//!   lived on it gets 404, re-initializes and goes on.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod support;

use serde_json::{Value, json};
use std::process::{Command, Stdio};
use support::deploy::{self, Killed};
use support::{HttpServer, REPO_NAME};

const KEY: &str = "team-deployment-key";
const LITE_TOKEN: &str = "team-deployment-nexus-token";

/// The shared Nexus: nexus-lite serving the fixture over HTTP.
fn start_lite(fixture: &support::Fixture, data: &std::path::Path) -> (Killed, String) {
    let lite = support::bin().with_file_name("nexus-lite");
    let (child, addr) = deploy::nexus_lite(&lite, fixture, data, LITE_TOKEN);
    (child, format!("http://{addr}"))
}

/// One replica: `serve --transport http` against the shared Nexus, with the shared state key.
fn start_replica(nexus: &str, state_key: &std::path::Path) -> HttpServer {
    let port = support::free_port();
    let data = tempfile::tempdir().unwrap();
    let mut cmd = Command::new(support::bin());
    cmd.args(["--nexus-url", nexus, "serve", "--transport", "http"])
        .args(["--listen", &format!("127.0.0.1:{port}")])
        .arg("--state-key-file")
        .arg(state_key)
        .env("NEXUS_API_TOKEN", LITE_TOKEN)
        .env("NEXUS_MCP_API_KEY", KEY)
        .env("PATH", support::tool_path())
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped());
    HttpServer::launch(&mut cmd, port, Some(KEY.into()), data)
}

/// HAProxy in front of `replicas`, with deployment/haproxy.cfg: its frontend URL.
fn start_haproxy(replicas: &[&HttpServer], dir: &std::path::Path) -> Option<(Killed, String)> {
    let bin = support::require(
        deploy::haproxy_bin(),
        "HAProxy (Debian's package, unpacked by .ci/setup into .ci/cache/haproxy)",
        "team_deployment",
    )?;
    let front = support::free_port();
    let addrs: Vec<_> = replicas.iter().map(|r| r.addr).collect();
    let config = deploy::haproxy_config(front, &addrs);
    let child = deploy::haproxy(&bin, &config, dir, front);
    Some((child, format!("http://127.0.0.1:{front}/mcp")))
}

/// What one POST through the load balancer got: status, the replica that answered
/// (`x-served-by`), the session header and the JSON-RPC body.
struct Answer {
    status: u16,
    replica: String,
    session: Option<String>,
    body: Value,
}

async fn post(url: &str, session: Option<&str>, body: Value, stateless: bool) -> Answer {
    let method = body["method"].as_str().unwrap_or_default().to_owned();
    let mut request = reqwest::Client::new()
        .post(url)
        .header("x-mcp-api-key", KEY)
        .header("content-type", "application/json")
        .header("accept", "application/json, text/event-stream");
    if stateless {
        request = request
            .header("mcp-protocol-version", "2026-07-28")
            .header("mcp-method", &method);
        if let Some(name) = body["params"]["name"].as_str() {
            request = request.header("mcp-name", name);
        }
    } else if method != "initialize" {
        request = request.header("mcp-protocol-version", "2025-11-25");
    }
    if let Some(s) = session {
        request = request.header("mcp-session-id", s);
    }
    let response = request.body(body.to_string()).send().await.unwrap();
    let status = response.status().as_u16();
    let header = |name: &str| {
        response
            .headers()
            .get(name)
            .and_then(|v| v.to_str().ok())
            .map(str::to_owned)
    };
    let replica = header("x-served-by").unwrap_or_default();
    let session = header("mcp-session-id");
    let text = response.text().await.unwrap();
    // A session's answer may come as one SSE event.
    let json = text
        .lines()
        .find_map(|l| l.strip_prefix("data:"))
        .map(str::trim)
        .unwrap_or(&text);
    Answer {
        status,
        replica,
        session,
        body: serde_json::from_str(json).unwrap_or(Value::Null),
    }
}

fn stateless_call(name: &str, arguments: Value, extra: Value, capabilities: Value) -> Value {
    let mut params = json!({"name": name, "arguments": arguments, "_meta": {
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientCapabilities": capabilities,
    }});
    if let (Some(p), Some(e)) = (params.as_object_mut(), extra.as_object()) {
        p.extend(e.clone());
    }
    json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": params})
}

fn latest_graph() -> Value {
    stateless_call(
        "kg_latest_graph",
        json!({"repository": REPO_NAME, "branch": "main"}),
        json!({}),
        json!({}),
    )
}

/// A 2025 session through the load balancer: its id.
async fn open_session(url: &str) -> (String, String) {
    let init = post(
        url,
        None,
        json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
            "protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "team", "version": "0"}}}),
        false,
    )
    .await;
    assert_eq!(init.status, 200, "{}", init.body);
    let session = init.session.expect("a session id");
    let ack = post(
        url,
        Some(&session),
        json!({"jsonrpc": "2.0", "method": "notifications/initialized"}),
        false,
    )
    .await;
    assert!(ack.status < 300, "initialized: {}", ack.status);
    (session, init.replica)
}

async fn session_call(url: &str, session: &str, id: u64) -> Answer {
    post(
        url,
        Some(session),
        json!({"jsonrpc": "2.0", "id": id, "method": "tools/call", "params": {
            "name": "kg_latest_graph", "arguments": {"repository": REPO_NAME, "branch": "main"}}}),
        false,
    )
    .await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_replicas_behind_haproxy_serve_both_revisions_and_survive_losing_one() {
    let dir = tempfile::tempdir().unwrap();
    let fixture = support::fixture_repo();
    let (_lite, nexus) = start_lite(&fixture, &dir.path().join("lite"));
    let state_key = dir.path().join("state.key");
    std::fs::write(&state_key, "a shared request-state key, 32 bytes or more").unwrap();
    let a = start_replica(&nexus, &state_key);
    let b = start_replica(&nexus, &state_key);
    let Some((_haproxy, url)) = start_haproxy(&[&a, &b], dir.path()) else {
        return;
    };
    // HAProxy has marked both replicas up once two calls in a row reach both.
    let mut seen = std::collections::BTreeSet::new();
    for _ in 0..200 {
        let answer = post(&url, None, latest_graph(), true).await;
        if answer.status == 200 {
            seen.insert(answer.replica);
        }
        if seen.len() == 2 {
            break;
        }
    }
    assert_eq!(
        seen.len(),
        2,
        "both replicas serve through HAProxy: {seen:?}"
    );

    // 2026-07-28: stateless, spread over both replicas, every one answered.
    let mut served = std::collections::BTreeMap::<String, usize>::new();
    for _ in 0..20 {
        let answer = post(&url, None, latest_graph(), true).await;
        assert_eq!(answer.status, 200, "{}", answer.body);
        assert!(
            answer.body["result"]["structuredContent"]["graph"].is_object(),
            "{}",
            answer.body
        );
        *served.entry(answer.replica).or_default() += 1;
    }
    assert_eq!(served.len(), 2, "round robin over both: {served:?}");

    // An approval asked by one replica and answered through the other: one state key.
    let plan = post(
        &url,
        None,
        stateless_call(
            "kg_regenerate_dry_run",
            json!({"repository": REPO_NAME, "branch": "main"}),
            json!({}),
            json!({}),
        ),
        true,
    )
    .await;
    let plan_id = plan.body["result"]["structuredContent"]["plan"]["plan_id"]
        .as_str()
        .unwrap()
        .to_owned();
    let human = json!({"elicitation": {}});
    let asked = post(
        &url,
        None,
        stateless_call(
            "kg_regenerate_submit",
            json!({"plan_id": plan_id}),
            json!({}),
            human.clone(),
        ),
        true,
    )
    .await;
    assert_eq!(
        asked.body["result"]["resultType"], "input_required",
        "{}",
        asked.body
    );
    let state = asked.body["result"]["requestState"].clone();
    let answered = post(
        &url,
        None,
        stateless_call(
            "kg_regenerate_submit",
            json!({"plan_id": plan_id}),
            json!({"inputResponses": {"approval": {"action": "accept", "content": {"approve": true}}}, "requestState": state}),
            human,
        ),
        true,
    )
    .await;
    assert_ne!(
        asked.replica, answered.replica,
        "round robin sent the retry elsewhere"
    );
    assert_eq!(
        answered.body["result"]["structuredContent"]["regeneration"]["status"], "ready",
        "{}",
        answered.body
    );

    // 2025: a session stays on the replica that created it.
    let (session, home) = open_session(&url).await;
    for id in 1..=6 {
        let answer = session_call(&url, &session, id).await;
        assert_eq!(answer.status, 200, "{}", answer.body);
        assert_eq!(answer.replica, home, "the session stays on its replica");
    }

    // Lose the replica the session lives on.
    let (doomed, survivor) = if home == "a" { (a, b) } else { (b, a) };
    drop(doomed);
    let mut failed = 0;
    for _ in 0..20 {
        let answer = post(&url, None, latest_graph(), true).await;
        if answer.status != 200 || !answer.body["result"].is_object() {
            failed += 1;
        }
    }
    assert_eq!(failed, 0, "no 2026 request fails after a replica is lost");
    let lost = session_call(&url, &session, 7).await;
    assert_eq!(
        lost.status, 404,
        "a session on the lost replica is gone: {}",
        lost.body
    );
    let (again, now) = open_session(&url).await;
    assert_ne!(now, home);
    let answer = session_call(&url, &again, 8).await;
    assert_eq!(
        answer.status, 200,
        "the re-initialized session works: {}",
        answer.body
    );
    drop(survivor);
}
