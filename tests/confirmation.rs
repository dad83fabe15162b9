//! A real regeneration needs the human's approval, asked by the server itself when the client
//! can ask its human (2026-07-28: an input-required result the client retries; the 2025 path and
//! the Python SDK are in tests/clients.rs). The approval is sealed to the call's arguments and to
//! this server: given for one plan it confirms no other, and a changed state is refused. A client
//! that cannot ask its human falls back to the `confirmed_by_sr` flag.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod support;

use serde_json::{Value, json};
use support::{HttpOptions, HttpServer, REPO_NAME};

const KEY: &str = "confirmation-test-key";

/// One stateless 2026-07-28 `tools/call`, from a client declaring `capabilities`: the JSON-RPC
/// answer.
async fn call(server: &HttpServer, capabilities: Value, params: Value) -> Value {
    let mut params = params;
    params["_meta"] = json!({
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientCapabilities": capabilities,
    });
    let name = params["name"].as_str().unwrap().to_owned();
    let body = json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": params});
    let response = reqwest::Client::new()
        .post(server.url("/mcp"))
        .header("x-mcp-api-key", KEY)
        .header("content-type", "application/json")
        .header("accept", "application/json, text/event-stream")
        .header("mcp-protocol-version", "2026-07-28")
        .header("mcp-method", "tools/call")
        .header("mcp-name", name)
        .body(body.to_string())
        .send()
        .await
        .unwrap();
    serde_json::from_str(&response.text().await.unwrap()).unwrap()
}

async fn plan(server: &HttpServer) -> String {
    let answer = call(
        server,
        json!({}),
        json!({"name": "kg_regenerate_dry_run", "arguments": {"repository": REPO_NAME, "branch": "main"}}),
    )
    .await;
    answer["result"]["structuredContent"]["plan"]["plan_id"]
        .as_str()
        .unwrap_or_else(|| panic!("no plan_id: {answer}"))
        .to_owned()
}

fn approval() -> Value {
    json!({"approval": {"action": "accept", "content": {"approve": true}}})
}

#[tokio::test]
async fn an_approval_confirms_only_the_plan_it_was_asked_for() {
    let fixture = support::fixture_repo();
    let server = HttpServer::start(
        &fixture,
        HttpOptions {
            key: Some(KEY.into()),
            ..Default::default()
        },
    );
    let human = json!({"elicitation": {}});
    let (a, b) = (plan(&server).await, plan(&server).await);
    assert_ne!(a, b);

    // The agent's flag is not enough: the server asks the human, naming the plan.
    let asked = call(
        &server,
        human.clone(),
        json!({"name": "kg_regenerate_submit", "arguments": {"plan_id": a, "confirmed_by_sr": true}}),
    )
    .await;
    let result = &asked["result"];
    assert_eq!(result["resultType"], "input_required", "{asked}");
    let question = &result["inputRequests"]["approval"];
    assert_eq!(question["method"], "elicitation/create", "{asked}");
    assert!(
        question["params"]["message"].as_str().unwrap().contains(&a),
        "{question}"
    );
    let state = result["requestState"].as_str().unwrap().to_owned();

    // The approval given for plan A, presented with plan B: refused, and B does not run.
    let other = call(
        &server,
        human.clone(),
        json!({"name": "kg_regenerate_submit", "arguments": {"plan_id": b}, "inputResponses": approval(), "requestState": state}),
    )
    .await;
    assert_eq!(other["error"]["code"], -32602, "{other}");
    assert!(
        other["error"]["message"]
            .as_str()
            .unwrap()
            .contains("other arguments"),
        "{other}"
    );

    // A changed state is refused.
    let mut tampered = state.clone().into_bytes();
    let last = tampered.len() - 2;
    tampered[last] = if tampered[last] == b'A' { b'B' } else { b'A' };
    let tampered = String::from_utf8(tampered).unwrap();
    let changed = call(
        &server,
        human.clone(),
        json!({"name": "kg_regenerate_submit", "arguments": {"plan_id": a}, "inputResponses": approval(), "requestState": tampered}),
    )
    .await;
    assert_eq!(changed["error"]["code"], -32602, "{changed}");

    // An approval without the state that binds it asks again rather than running.
    let unbound = call(
        &server,
        human.clone(),
        json!({"name": "kg_regenerate_submit", "arguments": {"plan_id": a}, "inputResponses": approval()}),
    )
    .await;
    assert_eq!(
        unbound["result"]["resultType"], "input_required",
        "{unbound}"
    );

    // A refusal runs nothing.
    let declined = call(
        &server,
        human.clone(),
        json!({"name": "kg_regenerate_submit", "arguments": {"plan_id": a}, "inputResponses": {"approval": {"action": "decline"}}, "requestState": state}),
    )
    .await;
    assert_eq!(declined["result"]["isError"], true, "{declined}");
    assert!(declined.to_string().contains("declined"), "{declined}");

    // The approval for plan A, with its state: plan A runs.
    let done = call(
        &server,
        human,
        json!({"name": "kg_regenerate_submit", "arguments": {"plan_id": a}, "inputResponses": approval(), "requestState": state}),
    )
    .await;
    let regeneration = &done["result"]["structuredContent"]["regeneration"];
    assert_eq!(regeneration["status"], "ready", "{done}");

    // A client that cannot ask its human: the flag decides, as before.
    let c = plan(&server).await;
    let no_flag = call(
        &server,
        json!({}),
        json!({"name": "kg_regenerate_submit", "arguments": {"plan_id": c}}),
    )
    .await;
    assert!(
        no_flag.to_string().contains("confirmation_required"),
        "{no_flag}"
    );
    let flagged = call(
        &server,
        json!({}),
        json!({"name": "kg_regenerate_submit", "arguments": {"plan_id": c, "confirmed_by_sr": true}}),
    )
    .await;
    assert_eq!(
        flagged["result"]["structuredContent"]["regeneration"]["status"], "ready",
        "{flagged}"
    );
}
