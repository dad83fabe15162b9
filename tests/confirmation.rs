//! The human in the loop, asked by the server itself when the client can ask its human
//! (2026-07-28: an input-required result the client retries; the 2025 path and the Python SDK
//! are in tests/clients.rs):
//! - A real regeneration needs the human's approval. The approval is sealed to the call's
//!   arguments and to this server: given for one plan it confirms no other, and a changed state
//!   is refused. A client that cannot ask its human falls back to the `confirmed_by_sr` flag.
//! - A proof matching several findings lets the human pick one (`choose:`), on the fixture and
//!   on a real project; without a human, or when they decline, the answer stays ambiguous.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod support;

use serde_json::{Value, json};
use support::{Fixture, HttpOptions, HttpServer, REPO_NAME};

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

fn key_server(fixture: &Fixture) -> HttpServer {
    HttpServer::start(
        fixture,
        HttpOptions {
            key: Some(KEY.into()),
            ..Default::default()
        },
    )
}

async fn ok(server: &HttpServer, capabilities: Value, name: &str, arguments: Value) -> Value {
    let answer = call(
        server,
        capabilities,
        json!({"name": name, "arguments": arguments}),
    )
    .await;
    answer["result"]["structuredContent"].clone()
}

async fn latest_graph_id(server: &HttpServer) -> String {
    let graph = ok(
        server,
        json!({}),
        "kg_latest_graph",
        json!({"repository": REPO_NAME, "branch": "main"}),
    )
    .await;
    graph["graph"]["graph_id"].as_str().unwrap().to_owned()
}

fn pick(choice: &str) -> Value {
    json!({"choice": {"action": "accept", "content": {"choice": choice}}})
}

/// The choice put to the human for `proof` (an input-required result), checked against the
/// ambiguous answer a client without a human gets: one option per candidate, in its order.
/// Returns the offered values and titles, and the sealed state.
async fn ask_choice(server: &HttpServer, proof: &Value) -> (Vec<String>, Vec<String>, String) {
    let ambiguous = ok(server, json!({}), "kg_get_audit_risk", proof.clone()).await;
    assert_eq!(ambiguous["status"], "ambiguous", "{ambiguous}");
    let asked = call(
        server,
        json!({"elicitation": {}}),
        json!({"name": "kg_get_audit_risk", "arguments": proof}),
    )
    .await;
    let result = &asked["result"];
    assert_eq!(result["resultType"], "input_required", "{asked}");
    let question = &result["inputRequests"]["choice"];
    assert_eq!(question["method"], "elicitation/create", "{asked}");
    let options = question["params"]["requestedSchema"]["properties"]["choice"]["oneOf"]
        .as_array()
        .unwrap();
    let offered: Vec<String> = options
        .iter()
        .map(|o| o["const"].as_str().unwrap().to_owned())
        .collect();
    let titles: Vec<String> = options
        .iter()
        .map(|o| o["title"].as_str().unwrap().to_owned())
        .collect();
    let candidates: Vec<String> = ambiguous["candidates"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["dedupe_key"].as_str().unwrap().to_owned())
        .collect();
    assert_eq!(offered, candidates, "{asked}");
    let state = result["requestState"].as_str().unwrap().to_owned();
    (offered, titles, state)
}

#[tokio::test]
async fn the_human_picks_one_of_several_findings_for_this_call_only() {
    let fixture = support::fixture_repo();
    let server = key_server(&fixture);
    let human = json!({"elicitation": {}});
    let graph_id = latest_graph_id(&server).await;
    // Two SHA1 uses in shop/crypto.py (lines 6 and 10) and a proof without a line.
    let proof = json!({"graph_id": graph_id, "source_tool": "bandit", "finding_type": "bandit_b324_hashlib", "path": "shop/crypto.py"});
    let (offered, titles, state) = ask_choice(&server, &proof).await;
    assert_eq!(offered.len(), 2);
    assert!(titles[0].starts_with("line 6 (high): "), "{titles:?}");
    assert!(titles[1].starts_with("line 10 (high): "), "{titles:?}");

    // The pick, with its state: the packet of that finding.
    let retry = |response: Value, state: Option<&str>| {
        let mut params =
            json!({"name": "kg_get_audit_risk", "arguments": proof, "inputResponses": response});
        if let Some(state) = state {
            params["requestState"] = json!(state);
        }
        call(&server, human.clone(), params)
    };
    let picked = retry(pick(&offered[1]), Some(&state)).await;
    let packet = &picked["result"]["structuredContent"];
    assert_eq!(packet["status"], "ready", "{picked}");
    assert_eq!(packet["finding"]["line"], 10, "{picked}");
    assert_eq!(packet["finding"]["dedupe_key"], offered[1].as_str());
    assert_eq!(
        packet["file_context"]["enclosing_symbol"]["qualified_name"], "shop.crypto.legacy",
        "{picked}"
    );

    // Declined, or a pick that was not offered: the ambiguous answer, nothing guessed.
    for response in [
        json!({"choice": {"action": "decline"}}),
        pick("not-a-candidate"),
    ] {
        let answer = retry(response.clone(), Some(&state)).await;
        assert_eq!(
            answer["result"]["structuredContent"]["status"], "ambiguous",
            "{response} gave {answer}"
        );
    }
    // A pick without the state that binds it is asked again; with a changed state, refused.
    let unbound = retry(pick(&offered[1]), None).await;
    assert_eq!(
        unbound["result"]["resultType"], "input_required",
        "{unbound}"
    );
    let mut tampered = state.clone().into_bytes();
    let last = tampered.len() - 2;
    tampered[last] = if tampered[last] == b'A' { b'B' } else { b'A' };
    let changed = retry(
        pick(&offered[1]),
        Some(&String::from_utf8(tampered).unwrap()),
    )
    .await;
    assert_eq!(changed["error"]["code"], -32602, "{changed}");
    // The state of this proof does not pick for another one.
    let mut other = proof.clone();
    other["path"] = json!("shop/orders.py");
    let moved = call(
        &server,
        human.clone(),
        json!({"name": "kg_get_audit_risk", "arguments": other, "inputResponses": pick(&offered[1]), "requestState": state}),
    )
    .await;
    assert_ne!(
        moved["result"]["structuredContent"]["status"], "ready",
        "{moved}"
    );
}

/// The requests 2.32.3 sdist: the first file with two findings of one type from one analyser;
/// the human picks the last candidate and gets its packet.
#[tokio::test]
async fn on_a_real_project_the_pick_resolves_the_finding_it_names() {
    const SDIST: &str = "requests==2.32.3";
    if !support::sdist::wanted(SDIST) || !support::analysers_on_path() {
        return;
    }
    let tmp = tempfile::tempdir().unwrap();
    let python = support::python_with_mcp().unwrap_or_else(|| "python3".into());
    let repo = support::sdist::fetch(&python, SDIST, tmp.path());
    support::corpora::commit_folder(&repo, "requests 2.32.3 as released");
    let fixture = Fixture::from_repo(tmp, repo);
    let server = key_server(&fixture);
    let graph_id = latest_graph_id(&server).await;
    let risks = ok(
        &server,
        json!({}),
        "kg_list_audit_risks",
        json!({"graph_id": graph_id, "include_low": true, "limit": 50}),
    )
    .await;
    let items = risks["items"].as_array().unwrap();
    let same = |a: &Value, b: &Value| {
        ["source_tool", "finding_type", "path"]
            .iter()
            .all(|k| a[*k] == b[*k])
    };
    let twice = items
        .iter()
        .find(|a| items.iter().filter(|b| same(a, b)).count() >= 2)
        .unwrap_or_else(|| panic!("no file with two findings of one type: {risks}"));
    let proof = json!({
        "graph_id": graph_id,
        "source_tool": twice["source_tool"],
        "finding_type": twice["finding_type"],
        "path": twice["path"],
    });
    let (offered, titles, state) = ask_choice(&server, &proof).await;
    assert!(offered.len() >= 2, "{offered:?}");
    assert!(titles.iter().all(|t| t.starts_with("line ")), "{titles:?}");
    eprintln!("{proof}: the human is offered {titles:#?}");
    let last = offered.last().unwrap();
    let picked = call(
        &server,
        json!({"elicitation": {}}),
        json!({"name": "kg_get_audit_risk", "arguments": proof, "inputResponses": pick(last), "requestState": state}),
    )
    .await;
    let packet = &picked["result"]["structuredContent"];
    assert_eq!(packet["status"], "ready", "{picked}");
    assert_eq!(packet["finding"]["dedupe_key"], last.as_str(), "{picked}");
    assert_eq!(packet["finding"]["path"], twice["path"], "{picked}");
}
