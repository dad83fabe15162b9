//! The same engine behind the real HTTP router, in process: bad arguments are isError results
//! in a Streamable HTTP session and in a stateless 2026-07-28 request alike, and malformed
//! JSON-RPC gets HTTP 400 with the JSON-RPC error code, not rmcp's 415 or 404.

use crate::support::inproc::{StubBackend, app, serve_http};
use crate::{routes, surface};
use serde_json::{Value, json};

async fn server() -> (StubBackend, String, tokio::task::JoinHandle<()>) {
    let backend = StubBackend::start(routes()).await;
    let app = app(surface(), &backend.url, Default::default());
    let (url, task) = serve_http(app, &["notes:read"]).await;
    (backend, url, task)
}

/// One POST of `body` to /mcp as a 2026-07-28 client sends it (no session, SEP-2243 headers
/// naming `tool`): status and body.
async fn post(url: &str, tool: &str, body: &str) -> (u16, String) {
    post_method(url, "tools/call", Some(tool), body).await
}

/// [`post`] for any method (`mcp-name` only when given).
async fn post_method(url: &str, method: &str, name: Option<&str>, body: &str) -> (u16, String) {
    let mut request = reqwest::Client::new()
        .post(url)
        .header("content-type", "application/json")
        .header("accept", "application/json, text/event-stream")
        .header("mcp-protocol-version", "2026-07-28")
        .header("mcp-method", method);
    if let Some(name) = name {
        request = request.header("mcp-name", name);
    }
    let response = request.body(body.to_owned()).send().await.unwrap();
    let status = response.status().as_u16();
    (status, response.text().await.unwrap())
}

fn stateless_call(id: u64, tool: &str, arguments: Value) -> String {
    json!({"jsonrpc": "2.0", "id": id, "method": "tools/call", "params": {
        "name": tool,
        "arguments": arguments,
        "_meta": {
            "io.modelcontextprotocol/protocolVersion": "2026-07-28",
            "io.modelcontextprotocol/clientCapabilities": {},
        },
    }})
    .to_string()
}

fn error_of(result: &Value) -> Value {
    assert_eq!(result["isError"], true, "{result}");
    let text = result["content"][0]["text"].as_str().unwrap();
    serde_json::from_str::<Value>(text).unwrap()["error"].clone()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bad_arguments_are_is_error_in_a_session_and_stateless() {
    let (backend, url, _server) = server().await;

    let session = crate::support::http_client(url.clone(), "no-key-needed").await;
    let result = session
        .call_tool(crate::support::inproc::request(
            "list_notes",
            json!({"folder": "team", "kind": "memo"}),
        ))
        .await
        .expect("an isError result, not a JSON-RPC error");
    let error = error_of(&serde_json::to_value(&result).unwrap());
    assert_eq!(
        (&error["code"], &error["field"], &error["rule"]),
        (&json!("invalid_arguments"), &json!("/kind"), &json!("enum")),
        "{error}"
    );
    assert!(
        error["allowed"]
            .as_array()
            .unwrap()
            .contains(&json!("minutes"))
    );
    session.cancel().await.unwrap();

    let (status, body) = post(
        &url,
        "list_notes",
        &stateless_call(7, "list_notes", json!({"folder": 42, "nope": 1})),
    )
    .await;
    assert_eq!(status, 200, "{body}");
    let answer: Value = serde_json::from_str(&body).unwrap_or_else(|e| panic!("{e}: {body}"));
    assert_eq!(answer["id"], 7);
    let error = error_of(&answer["result"]);
    assert_eq!(error["field"], "/folder", "{error}");
    assert_eq!(error["rule"], "type", "{error}");
    assert_eq!(error["errors"].as_array().map(Vec::len), Some(2), "{error}");
    assert!(backend.seen().is_empty(), "{:?}", backend.seen());

    // An unknown tool stays a protocol error.
    let (_, body) = post(
        &url,
        "no_such_tool",
        &stateless_call(8, "no_such_tool", json!({})),
    )
    .await;
    let answer: Value = serde_json::from_str(&body).unwrap_or_else(|e| panic!("{e}: {body}"));
    assert_eq!(answer["error"]["code"], -32602, "{answer}");
}

#[tokio::test]
async fn malformed_json_rpc_gets_400_with_its_error_code() {
    let (_backend, url, _server) = server().await;
    let cases: Vec<(String, i64, Value)> = vec![
        ("garbage".into(), -32700, Value::Null),
        ("{".into(), -32700, Value::Null),
        ("".into(), -32700, Value::Null),
        ("[]".into(), -32600, Value::Null),
        ("42".into(), -32600, Value::Null),
        (r#"{"jsonrpc":"2.0","id":5}"#.into(), -32600, json!(5)),
        (
            stateless_call(6, "list_notes", json!([1])),
            -32602,
            json!(6),
        ),
        (
            stateless_call(9, "list_notes", json!("x")),
            -32602,
            json!(9),
        ),
    ];
    for (body, code, id) in cases {
        let (status, answer) = post(&url, "list_notes", &body).await;
        assert_eq!(status, 400, "{body}: {answer}");
        let answer: Value =
            serde_json::from_str(&answer).unwrap_or_else(|e| panic!("{body}: {e}: {answer}"));
        assert_eq!(answer["error"]["code"], code, "{body}: {answer}");
        assert_eq!(answer["id"], id, "{body}: {answer}");
        assert_eq!(answer["jsonrpc"], "2.0");
    }
}

/// SEP-2575: a stateless request for a method of the session era (initialize, ping,
/// logging/setLevel, resources/subscribe and unsubscribe) is answered 404 with -32601, whatever
/// its params (2025 sessions still use them: every session here opens with `initialize`).
#[tokio::test]
async fn methods_the_stateless_revision_removed_get_404_and_method_not_found() {
    let (_backend, url, _server) = server().await;
    let meta = json!({
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientCapabilities": {},
    });
    let cases = [
        ("initialize", json!({"_meta": meta})),
        ("ping", json!({"_meta": meta})),
        ("logging/setLevel", json!({"_meta": meta})),
        ("logging/setLevel", json!({"level": "debug", "_meta": meta})),
        ("resources/subscribe", json!({"_meta": meta})),
        (
            "resources/subscribe",
            json!({"uri": "notes://team/a", "_meta": meta}),
        ),
        (
            "resources/unsubscribe",
            json!({"uri": "notes://team/a", "_meta": meta}),
        ),
    ];
    for (i, (method, params)) in cases.into_iter().enumerate() {
        let body = json!({"jsonrpc": "2.0", "id": i, "method": method, "params": params});
        let name = params["uri"].as_str();
        let (status, answer) = post_method(&url, method, name, &body.to_string()).await;
        let answer: Value =
            serde_json::from_str(&answer).unwrap_or_else(|e| panic!("{e}: {answer}"));
        assert_eq!(
            (status, &answer["error"]["code"]),
            (404, &json!(-32601)),
            "{body}: {answer}"
        );
        assert_eq!(answer["id"], i, "{answer}");
    }
}

#[tokio::test]
async fn a_legacy_sse_post_that_is_not_json_rpc_gets_the_same_codes() {
    let (_backend, url, _server) = server().await;
    let base = url.trim_end_matches("/mcp").to_owned();
    let mut stream = reqwest::Client::new()
        .get(format!("{base}/sse"))
        .header("accept", "text/event-stream")
        .send()
        .await
        .unwrap();
    // The first event names the session's POST endpoint: /message?sessionId=…
    let mut seen = String::new();
    let endpoint = loop {
        let chunk = tokio::time::timeout(std::time::Duration::from_secs(10), stream.chunk())
            .await
            .expect("the endpoint event within 10 s")
            .unwrap()
            .expect("the stream stays open");
        seen.push_str(&String::from_utf8_lossy(&chunk));
        if let Some(line) = seen.lines().find(|l| l.starts_with("data: /message")) {
            break line.trim_start_matches("data: ").trim().to_owned();
        }
    };
    for (body, code) in [("garbage", -32700), ("[]", -32600), ("", -32700)] {
        let response = reqwest::Client::new()
            .post(format!("{base}{endpoint}"))
            .header("content-type", "application/json")
            .body(body)
            .send()
            .await
            .unwrap();
        assert_eq!(response.status().as_u16(), 400, "{body:?}");
        let answer: Value = response.json().await.unwrap();
        assert_eq!(answer["error"]["code"], code, "{body:?}: {answer}");
    }
}

/// 2026-07-28 (SEP-2575): a stateless request gets log messages only at the level its own
/// `_meta` names; without one, none.
#[tokio::test]
async fn a_stateless_request_is_logged_only_at_the_level_it_names() {
    let (_backend, url, _server) = server().await;
    let mut with_level: Value =
        serde_json::from_str(&stateless_call(20, "list_notes", json!({"folder": "team"}))).unwrap();
    with_level["params"]["_meta"]["io.modelcontextprotocol/logLevel"] = json!("debug");
    let (status, logged) = post(&url, "list_notes", &with_level.to_string()).await;
    assert_eq!(status, 200, "{logged}");
    assert!(logged.contains("notifications/message"), "{logged}");
    assert!(
        logged.contains("/notes"),
        "the backend request is logged: {logged}"
    );
    let (status, quiet) = post(
        &url,
        "list_notes",
        &stateless_call(21, "list_notes", json!({"folder": "team"})),
    )
    .await;
    assert_eq!(status, 200, "{quiet}");
    assert!(!quiet.contains("notifications/message"), "{quiet}");
    assert!(quiet.contains("\"result\""), "{quiet}");
}

/// 2026-07-28 (SEP-2549): lists say how long they stay fresh and for whom. They are fixed per
/// build; tools and resources depend on the caller's scopes (private), prompts do not (public).
#[tokio::test]
async fn stateless_lists_say_how_long_and_for_whom_they_may_be_cached() {
    let (_backend, url, _server) = server().await;
    let meta = json!({
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientCapabilities": {},
    });
    for (method, scope) in [
        ("tools/list", "private"),
        ("resources/list", "private"),
        ("resources/templates/list", "private"),
        ("prompts/list", "public"),
    ] {
        let body = json!({"jsonrpc": "2.0", "id": 1, "method": method, "params": {"_meta": meta}});
        let (status, answer) = post_method(&url, method, None, &body.to_string()).await;
        assert_eq!(status, 200, "{method}: {answer}");
        let answer: Value = serde_json::from_str(&answer).unwrap();
        assert_eq!(answer["result"]["ttlMs"], 3_600_000, "{method}: {answer}");
        assert_eq!(answer["result"]["cacheScope"], scope, "{method}: {answer}");
    }
}
