//! Faults a real Nexus cannot be made to show on demand (500s, hangs, malformed bodies), from a
//! tiny in-test HTTP server: what the agent is told, what is retried, and that the service token
//! never appears in any of it.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod support;

use nexus_mcp_runtime::backend::{NexusClient, NexusRequest, Secret};
use nexus_mcp_runtime::error::ToolError;
use serde_json::{Value, json};
use std::io::{BufRead, BufReader, Write};
use std::net::TcpListener;
use std::sync::mpsc;
use std::time::Duration;

const TOKEN: &str = "nexus-service-token-4f1c";

/// What one connection gets back; `None` holds the connection open without answering.
type Reply = Option<(u16, &'static str)>;

/// Serves `replies` in order, one per connection; reports each request line and its
/// Authorization header.
fn backend(replies: Vec<Reply>) -> (String, mpsc::Receiver<(String, String)>) {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let url = format!("http://{}", listener.local_addr().unwrap());
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        for reply in replies {
            let Ok((stream, _)) = listener.accept() else {
                return;
            };
            let mut reader = BufReader::new(stream.try_clone().unwrap());
            let mut request_line = String::new();
            reader.read_line(&mut request_line).unwrap();
            let mut auth = String::new();
            let mut length = 0usize;
            loop {
                let mut header = String::new();
                reader.read_line(&mut header).unwrap();
                let lower = header.to_ascii_lowercase();
                if let Some(v) = lower.strip_prefix("authorization:") {
                    auth = header[header.len() - v.len()..].trim().to_owned();
                }
                if let Some(v) = lower.strip_prefix("content-length:") {
                    length = v.trim().parse().unwrap();
                }
                if header == "\r\n" || header.is_empty() {
                    break;
                }
            }
            let mut body = vec![0; length];
            std::io::Read::read_exact(&mut reader, &mut body).unwrap();
            tx.send((request_line.trim().to_owned(), auth)).unwrap();
            let mut stream = stream;
            match reply {
                Some((status, body)) => {
                    let response = format!(
                        "HTTP/1.1 {status} X\r\ncontent-type: application/json\r\ncontent-length: {}\r\nconnection: close\r\n\r\n{body}",
                        body.len()
                    );
                    stream.write_all(response.as_bytes()).unwrap();
                }
                // Hold the connection until the client gives up (its timeout), then move on.
                None => {
                    let _ = std::io::Read::read(&mut reader, &mut [0u8; 1]);
                }
            }
        }
    });
    (url, rx)
}

fn client(url: &str) -> NexusClient {
    NexusClient::new(
        url,
        Secret::new(TOKEN.to_owned()),
        Duration::from_millis(300),
    )
    .unwrap()
}

fn no_token(e: &ToolError) {
    let shown = format!("{e} {e:?} {}", e.to_json());
    assert!(!shown.contains(TOKEN), "the service token leaked: {shown}");
}

#[tokio::test]
async fn server_errors_are_retried_for_gets_and_reported_as_retryable() {
    let err = r#"{"error":{"code":"internal","message":"database is locked"}}"#;
    let (url, seen) = backend(vec![Some((500, err)), Some((503, err)), Some((500, err))]);
    let e = client(&url)
        .send(
            &NexusRequest::get("/api/v1/summary").param("graph_id", Some("g1")),
            None,
        )
        .await
        .unwrap_err();
    assert!(
        matches!(&e, ToolError::Backend { retryable: true, code, .. } if code == "nexus_unavailable"),
        "{e:?}"
    );
    assert!(
        e.to_string().contains("database is locked") && e.to_string().contains("can be retried"),
        "{e}"
    );
    let requests: Vec<(String, String)> = seen.try_iter().collect();
    assert_eq!(requests.len(), 3, "a GET is tried three times");
    assert!(requests.iter().all(
        |(line, auth)| line == "GET /api/v1/summary?graph_id=g1 HTTP/1.1"
            && auth == &format!("Bearer {TOKEN}")
    ));
    no_token(&e);
}

#[tokio::test]
async fn a_post_is_never_retried() {
    let (url, seen) = backend(vec![Some((500, "{}")), Some((200, "{}"))]);
    let e = client(&url)
        .send(
            &NexusRequest::post("/api/v1/regenerations", json!({"plan_id": "p"})),
            None,
        )
        .await
        .unwrap_err();
    assert!(matches!(
        e,
        ToolError::Backend {
            retryable: true,
            ..
        }
    ));
    assert_eq!(
        seen.try_iter().count(),
        1,
        "a regeneration must not be started twice"
    );
}

#[tokio::test]
async fn a_hanging_backend_times_out_then_recovers() {
    let (url, seen) = backend(vec![None, Some((200, r#"{"graph":{"graph_id":"g1"}}"#))]);
    let v = client(&url)
        .send(&NexusRequest::get("/api/v1/graphs/select"), None)
        .await
        .unwrap();
    assert_eq!(v["graph"]["graph_id"], "g1", "the second attempt answers");
    assert_eq!(seen.try_iter().count(), 2);
}

#[tokio::test]
async fn malformed_bodies_and_client_errors_say_what_went_wrong() {
    let (url, _seen) = backend(vec![Some((200, "<html>proxy login</html>"))]);
    let e = client(&url)
        .send(&NexusRequest::get("/api/v1/summary"), None)
        .await
        .unwrap_err();
    assert!(
        matches!(&e, ToolError::Backend { retryable: false, code, .. } if code == "bad_response"),
        "{e:?}"
    );
    assert!(e.to_string().contains("NEXUS_API_URL"), "{e}");

    let (url, _seen) = backend(vec![Some((
        404,
        r#"{"error":{"code":"not_found","message":"no graph `g9`"}}"#,
    ))]);
    let e = client(&url)
        .send(&NexusRequest::get("/api/v1/graphs/select"), None)
        .await
        .unwrap_err();
    assert!(
        matches!(&e, ToolError::NotFound { message } if message == "no graph `g9`"),
        "{e:?}"
    );

    let (url, _seen) = backend(vec![Some((
        409,
        r#"{"error":{"code":"plan_stale","message":"HEAD moved"}}"#,
    ))]);
    let e = client(&url)
        .send(
            &NexusRequest::post("/api/v1/regenerations", json!({})),
            None,
        )
        .await
        .unwrap_err();
    assert!(
        matches!(&e, ToolError::Backend { code, .. } if code == "plan_stale"),
        "{e:?}"
    );

    let (url, _seen) = backend(vec![Some((
        401,
        r#"{"error":{"code":"unauthorized","message":"bad token"}}"#,
    ))]);
    let e = client(&url)
        .send(&NexusRequest::get("/api/v1/summary"), None)
        .await
        .unwrap_err();
    assert!(
        e.to_string().contains("NEXUS_API_TOKEN") && e.to_string().contains("operator"),
        "{e}"
    );
    no_token(&e);
}

/// The retry above, seen by an MCP client over stdio: after `logging/setLevel` it receives the
/// retry as a `warning` message (and, at `debug`, each Nexus request); a session that never set
/// a level receives no log messages at all.
#[test]
fn the_client_log_reports_retries_at_the_level_it_asked_for() {
    let graph = r#"{"graph":{"graph_id":"g1","commit_sha":"abc"}}"#;
    let (url, _seen) = backend(vec![
        Some((503, r#"{"error":{"code":"busy","message":"reindexing"}}"#)),
        Some((200, graph)),
        Some((200, graph)),
        Some((503, "{}")),
        Some((200, graph)),
    ]);
    let mut child = std::process::Command::new(support::bin())
        .arg("serve")
        .env("NEXUS_API_URL", &url)
        .env("NEXUS_API_TOKEN", TOKEN)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let mut stdout = BufReader::new(child.stdout.take().unwrap());
    let mut send = |v: Value| writeln!(stdin, "{v}").unwrap();
    // Every line up to the answer to `id`: the notifications sent while it ran, then the answer.
    let mut until = |id: u64| -> (Vec<Value>, Value) {
        let mut notes = Vec::new();
        loop {
            let mut line = String::new();
            assert!(stdout.read_line(&mut line).unwrap() > 0, "stdout closed");
            let v: Value = serde_json::from_str(&line).unwrap();
            if v["id"].as_u64() == Some(id) {
                return (notes, v);
            }
            notes.push(v);
        }
    };
    let call = |id: u64| json!({"jsonrpc": "2.0", "id": id, "method": "tools/call", "params": {"name": "kg_latest_graph", "arguments": {"repository": "acme/shop"}}});
    let messages = |notes: &[Value], level: &str| -> Vec<String> {
        notes
            .iter()
            .filter(|n| n["method"] == "notifications/message" && n["params"]["level"] == level)
            .map(|n| n["params"]["data"].as_str().unwrap().to_owned())
            .collect()
    };

    send(
        json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "t", "version": "0"}}}),
    );
    let (_, init) = until(1);
    assert!(
        init["result"]["capabilities"]["logging"].is_object(),
        "logging capability not declared: {init}"
    );
    send(json!({"jsonrpc": "2.0", "method": "notifications/initialized"}));

    // No level set: the retry happens, silently.
    send(call(2));
    let (notes, answer) = until(2);
    assert!(answer["result"]["isError"] != json!(true), "{answer}");
    assert!(
        notes.iter().all(|n| n["method"] != "notifications/message"),
        "log messages before any logging/setLevel: {notes:?}"
    );

    send(
        json!({"jsonrpc": "2.0", "id": 3, "method": "logging/setLevel", "params": {"level": "debug"}}),
    );
    assert_eq!(until(3).1["result"], json!({}));
    send(call(4));
    let (notes, _) = until(4);
    let debug = messages(&notes, "debug");
    assert!(
        debug.len() == 1 && debug[0].starts_with("Nexus GET /api/v1/graphs/select answered in"),
        "one debug message per Nexus request: {notes:?}"
    );

    send(
        json!({"jsonrpc": "2.0", "id": 5, "method": "logging/setLevel", "params": {"level": "warning"}}),
    );
    until(5);
    send(call(6));
    let (notes, answer) = until(6);
    assert!(answer["result"]["isError"] != json!(true), "{answer}");
    assert!(
        messages(&notes, "debug").is_empty(),
        "debug below warning: {notes:?}"
    );
    let warnings = messages(&notes, "warning");
    assert!(
        warnings.len() == 1
            && warnings[0].contains("/api/v1/graphs/select")
            && warnings[0].contains("retrying (attempt 2 of 3)"),
        "the retry as a warning: {notes:?}"
    );
    assert!(
        !warnings[0].contains(TOKEN),
        "the service token leaked: {warnings:?}"
    );
    assert!(
        notes
            .iter()
            .all(|n| n["params"]["logger"] == "nexus-code-kg")
    );
    let _ = child.kill();
    let _ = child.wait();
}

/// What a stub Nexus answers, given the request's Authorization header.
type Answer = fn(&str) -> axum::response::Response;

/// A stub Nexus (axum on 127.0.0.1:0, on a runtime of its own) answering every request with
/// `answer`.
fn axum_backend(answer: Answer) -> String {
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap();
        runtime.block_on(async move {
            let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
            tx.send(listener.local_addr().unwrap()).unwrap();
            let app =
                axum::Router::new().fallback(move |headers: axum::http::HeaderMap| async move {
                    let auth = headers
                        .get("authorization")
                        .and_then(|v| v.to_str().ok())
                        .unwrap_or_default()
                        .to_owned();
                    answer(&auth)
                });
            axum::serve(listener, app).await.unwrap();
        });
    });
    format!("http://{}", rx.recv().unwrap())
}

/// A JSON answer with `status` whose error message quotes the Authorization header and the
/// bare token, as a careless Nexus (or a proxy in front of it) might.
fn echo(status: u16, auth: &str) -> axum::response::Response {
    let token = auth.trim_start_matches("Bearer ");
    let body = json!({"error": {"code": "bad_request", "message": format!("rejected `Authorization: {auth}`: token {token} is not valid here")}});
    axum::response::Response::builder()
        .status(status)
        .header("content-type", "application/json")
        .body(axum::body::Body::from(body.to_string()))
        .unwrap()
}

/// One `kg_latest_graph` call over stdio through the real binary against `url`: the answer, the
/// server's whole stderr (default log level) and its peak resident memory in KiB.
fn latest_graph_through_the_binary(url: &str, env: &[(&str, &str)]) -> (Value, String, u64) {
    let log = tempfile::NamedTempFile::new().unwrap();
    let mut child = std::process::Command::new(support::bin())
        .arg("serve")
        .env("NEXUS_API_URL", url)
        .env("NEXUS_API_TOKEN", TOKEN)
        .env_remove("NEXUS_MCP_LOG")
        .envs(env.iter().copied())
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(log.reopen().unwrap())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let mut stdout = BufReader::new(child.stdout.take().unwrap());
    for message in [
        json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "t", "version": "0"}}}),
        json!({"jsonrpc": "2.0", "method": "notifications/initialized"}),
        json!({"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {"name": "kg_latest_graph", "arguments": {"repository": "acme/shop"}}}),
    ] {
        writeln!(stdin, "{message}").unwrap();
    }
    let answer = loop {
        let mut line = String::new();
        assert!(stdout.read_line(&mut line).unwrap() > 0, "stdout closed");
        let v: Value = serde_json::from_str(&line).unwrap();
        if v["id"] == 2 {
            break v;
        }
    };
    let status = std::fs::read_to_string(format!("/proc/{}/status", child.id())).unwrap();
    let peak_kib = status
        .lines()
        .find_map(|l| l.strip_prefix("VmHWM:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        .unwrap();
    let _ = child.kill();
    let _ = child.wait();
    (
        answer,
        std::fs::read_to_string(log.path()).unwrap(),
        peak_kib,
    )
}

/// Defect 9: a Nexus that echoes the Authorization header in its error bodies. Neither the
/// agent (4xx and 5xx error results) nor the operator's log (the 5xx retry warnings, at the
/// default level) ever sees the service token.
#[test]
fn a_nexus_echoing_the_authorization_header_never_leaks_the_token() {
    for (what, answer) in [
        ("4xx", (|auth| echo(400, auth)) as Answer),
        ("5xx", |auth| echo(500, auth)),
    ] {
        let url = axum_backend(answer);
        let (answer, stderr, _) = latest_graph_through_the_binary(&url, &[]);
        let shown = answer.to_string();
        assert_eq!(answer["result"]["isError"], true, "{what}: {shown}");
        assert!(
            shown.contains("rejected") && shown.contains(redact_marker()),
            "{what}: the error still says what Nexus answered: {shown}"
        );
        assert!(
            !shown.contains(TOKEN),
            "{what}: token in the result: {shown}"
        );
        assert!(!stderr.contains(TOKEN), "{what}: token on stderr: {stderr}");
        if what == "5xx" {
            assert!(
                stderr.contains("retrying Nexus GET"),
                "the retries are logged: {stderr}"
            );
        }
    }
}

fn redact_marker() -> &'static str {
    nexus_mcp_runtime::redact::REDACTED
}

/// The token's literal value is also replaced in successful answers, whatever field carries it.
#[tokio::test]
async fn the_token_is_scrubbed_from_results_too() {
    let url = axum_backend(|auth| {
        let body = json!({"graph": {"graph_id": "g1", "note": format!("served for {auth}"), "raw": auth.trim_start_matches("Bearer ")}});
        axum::response::Response::builder()
            .header("content-type", "application/json")
            .body(axum::body::Body::from(body.to_string()))
            .unwrap()
    });
    let v = client(&url)
        .send(&NexusRequest::get("/api/v1/graphs/select"), None)
        .await
        .unwrap();
    assert_eq!(v["graph"]["graph_id"], "g1");
    assert!(!v.to_string().contains(TOKEN), "{v}");
    assert_eq!(v["graph"]["raw"], redact_marker());
}

static PAD: [u8; 64 * 1024] = [b'a'; 64 * 1024];

/// An endless answer: `{"graph":{"pad":"aaaa…` forever.
fn endless(_auth: &str) -> axum::response::Response {
    let head = futures::stream::once(async {
        Ok::<_, std::io::Error>(axum::body::Bytes::from_static(b"{\"graph\":{\"pad\":\""))
    });
    let pad = futures::stream::repeat_with(|| Ok(axum::body::Bytes::from_static(&PAD)));
    axum::response::Response::builder()
        .header("content-type", "application/json")
        .body(axum::body::Body::from_stream(futures::StreamExt::chain(
            head, pad,
        )))
        .unwrap()
}

/// Defect 9: an answer over the cap (here an endless one) is cut off while it streams in, with
/// an error that says so, instead of being buffered until memory or the timeout runs out.
#[test]
fn an_oversized_answer_is_cut_off_with_a_clear_error_and_bounded_memory() {
    let url = axum_backend(endless);
    let started = std::time::Instant::now();
    let (answer, _, peak_kib) =
        latest_graph_through_the_binary(&url, &[("NEXUS_MCP_MAX_NEXUS_ANSWER_BYTES", "1048576")]);
    let result = &answer["result"];
    assert_eq!(result["isError"], true, "{answer}");
    let error = &result["structuredContent"]["error"];
    let shown = result.to_string();
    assert!(
        shown.contains("nexus_answer_too_large")
            && shown.contains("more than 1048576 bytes")
            && shown.contains("/api/v1/graphs/select"),
        "{error} {shown}"
    );
    // Well before the 60 s request timeout: the answer was cut, not read to the end.
    assert!(started.elapsed() < Duration::from_secs(30));
    assert!(peak_kib < 256 * 1024, "peak RSS {peak_kib} KiB");

    // The in-process client says the same with its default cap of 16 MiB.
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    let e = runtime
        .block_on(
            NexusClient::new(&url, Secret::new(TOKEN.to_owned()), Duration::from_secs(30))
                .unwrap()
                .send(&NexusRequest::get("/api/v1/graphs/select"), None),
        )
        .unwrap_err();
    assert!(
        matches!(&e, ToolError::Backend { code, retryable: false, .. } if code == "nexus_answer_too_large"),
        "{e:?}"
    );
    assert!(e.to_string().contains("more than 16777216 bytes"), "{e}");
}
