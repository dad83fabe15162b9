//! `nexus-mcp --manifest FILE` over stdio against the stub backend of
//! tests/support/conformance_backend.rs: resources read from the backend, resource templates and
//! their completion, scope-gated resources, prompts that call a tool, content blocks, and the
//! errors a bad manifest file gives.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

#[path = "support/conformance_backend.rs"]
mod conformance_backend;
mod support;

use serde_json::{Value, json};
use std::path::PathBuf;
use std::process::Command;

fn manifest() -> PathBuf {
    support::root().join("tests/manifests/conformance.yaml")
}

/// `nexus-mcp --manifest conformance.yaml serve` over stdio, initialized.
struct Session {
    lines: support::lines::Lines,
    /// The answer to `initialize`.
    initialized: Value,
}

impl Session {
    fn start(backend: &str, scopes: Option<&str>) -> Session {
        let mut cmd = Command::new(support::bin());
        cmd.arg("--manifest")
            .arg(manifest())
            .args(["--nexus-url", backend, "serve"])
            .env("NEXUS_API_TOKEN", "manifest-file-test")
            .env_remove("NEXUS_MCP_SCOPES");
        if let Some(s) = scopes {
            cmd.args(["--scopes", s]);
        }
        let mut lines = support::lines::Lines::spawn(&mut cmd);
        let initialized = lines.initialize();
        Session { lines, initialized }
    }

    fn request(&mut self, method: &str, params: Value) -> Value {
        self.lines.request(method, params)
    }

    fn next_where(&mut self, matches: impl Fn(&Value) -> bool) -> Value {
        self.lines.next_where(matches)
    }
}

fn uris(list: &Value, key: &str, field: &str) -> Vec<String> {
    list["result"][key]
        .as_array()
        .unwrap_or_else(|| panic!("no {key}: {list}"))
        .iter()
        .map(|r| r[field].as_str().unwrap().to_owned())
        .collect()
}

#[test]
fn resources_templates_and_fetching_prompts_are_served_from_a_manifest_file() {
    let backend = conformance_backend::start_backend();
    let mut s = Session::start(&backend, None);

    let listed = s.request("resources/list", json!({}));
    assert_eq!(
        uris(&listed, "resources", "uri"),
        [
            "test://static-text",
            "test://watched-resource",
            "test://static-binary"
        ],
        "templates and resources out of scope are not listed: {listed}"
    );
    let templates = s.request("resources/templates/list", json!({}));
    assert_eq!(
        uris(&templates, "resourceTemplates", "uriTemplate"),
        ["test://template/{id}/data"]
    );

    // A template read: the variable goes to the backend path, the answer is the content.
    let read = s.request("resources/read", json!({"uri": "test://template/42/data"}));
    let content = &read["result"]["contents"][0];
    assert_eq!(content["uri"], "test://template/42/data", "{read}");
    assert_eq!(content["mimeType"], "application/json");
    let text: Value = serde_json::from_str(content["text"].as_str().unwrap()).unwrap();
    assert_eq!(
        text,
        json!({"id": "42", "templateTest": true, "data": "Data for ID: 42"})
    );
    let binary = s.request("resources/read", json!({"uri": "test://static-binary"}));
    assert_eq!(
        binary["result"]["contents"][0]["blob"],
        conformance_backend::PNG
    );

    // Out of scope: not readable either, and said the same way as an unknown URI.
    let hidden = s.request("resources/read", json!({"uri": "test://admin-notes"}));
    assert_eq!(hidden["error"]["code"], -32002, "{hidden}");
    let unknown = s.request("resources/read", json!({"uri": "test://template/a/b/data"}));
    assert_eq!(unknown["error"]["code"], -32002, "{unknown}");

    let completed = s.request(
        "completion/complete",
        json!({"ref": {"type": "ref/resource", "uri": "test://template/{id}/data"}, "argument": {"name": "id", "value": "4"}}),
    );
    assert_eq!(
        completed["result"]["completion"]["values"],
        json!(["456"]),
        "{completed}"
    );
    let wrong = s.request(
        "completion/complete",
        json!({"ref": {"type": "ref/resource", "uri": "test://template/{id}/data"}, "argument": {"name": "key", "value": ""}}),
    );
    assert!(
        wrong["error"]["message"]
            .as_str()
            .unwrap()
            .contains("has no variable `key`; its variables are: id"),
        "{wrong}"
    );

    // The prompt calls get_resource_text first and embeds its result.
    let prompt = s.request(
        "prompts/get",
        json!({"name": "test_prompt_with_embedded_resource", "arguments": {"resourceUri": "test://x"}}),
    );
    let messages = &prompt["result"]["messages"];
    assert_eq!(
        messages[0]["content"],
        json!({"type": "resource", "resource": {"uri": "test://x", "mimeType": "text/plain", "text": "Embedded resource content for testing."}}),
        "{prompt}"
    );
    assert_eq!(
        messages[1]["content"]["text"],
        "Please process the embedded resource above."
    );
    let failed = s.request("prompts/get", json!({"name": "prompt_with_a_failing_call"}));
    let message = failed["error"]["message"].as_str().unwrap_or_default();
    assert!(
        message.contains("prompt `prompt_with_a_failing_call` calls `test_error_handling` first, and the call failed")
            && message.contains("This tool intentionally returns an error for testing"),
        "{failed}"
    );

    // Content blocks; the base64 image is neither redacted nor cut.
    let call = s.request(
        "tools/call",
        json!({"name": "test_multiple_content_types", "arguments": {}}),
    );
    let blocks = &call["result"]["content"];
    assert_eq!(
        blocks[0],
        json!({"type": "text", "text": "Multiple content types test:"}),
        "{call}"
    );
    assert_eq!(
        blocks[1],
        json!({"type": "image", "data": conformance_backend::PNG, "mimeType": "image/png"})
    );
    let embedded: Value =
        serde_json::from_str(blocks[2]["resource"]["text"].as_str().unwrap()).unwrap();
    assert_eq!(embedded, json!({"test": "data", "value": 123}));
    assert_eq!(call["result"]["structuredContent"]["data"]["value"], 123);
}

/// A subscribable resource (`subscribe:`): its subscriber hears of a change the backend makes,
/// without asking; a resource nothing watches cannot be subscribed.
#[test]
fn a_subscriber_is_told_when_a_resource_changes() {
    let backend = conformance_backend::start_backend();
    let mut s = Session::start(&backend, None);
    let initialized = &s.initialized;
    assert_eq!(
        initialized["result"]["capabilities"]["resources"]["subscribe"], true,
        "{initialized}"
    );
    let uri = "test://watched-resource";
    let subscribed = s.request("resources/subscribe", json!({"uri": uri}));
    assert_eq!(subscribed["result"], json!({}), "{subscribed}");

    let changed = tokio::runtime::Runtime::new().unwrap().block_on(
        reqwest::Client::new()
            .post(format!("{backend}/watched-resource"))
            .json(&json!({"text": "the second version"}))
            .send(),
    );
    assert!(
        changed.unwrap().status().is_success(),
        "the backend took the change"
    );
    let updated = s.next_where(|v| v["method"] == "notifications/resources/updated");
    assert_eq!(updated["params"]["uri"], uri, "{updated}");
    let read = s.request("resources/read", json!({"uri": uri}));
    assert_eq!(
        read["result"]["contents"][0]["text"], "the second version",
        "{read}"
    );

    let unsubscribed = s.request("resources/unsubscribe", json!({"uri": uri}));
    assert_eq!(unsubscribed["result"], json!({}), "{unsubscribed}");
    let fixed = s.request("resources/subscribe", json!({"uri": "test://static-text"}));
    assert_eq!(fixed["error"]["code"], -32602, "{fixed}");
    assert!(
        fixed["error"]["message"]
            .as_str()
            .unwrap()
            .contains("cannot be subscribed"),
        "{fixed}"
    );
}

#[test]
fn a_resource_is_listed_and_read_with_its_scope() {
    let backend = conformance_backend::start_backend();
    let mut s = Session::start(&backend, Some("test:read,test:admin"));
    let listed = s.request("resources/list", json!({}));
    assert!(uris(&listed, "resources", "uri").contains(&"test://admin-notes".to_owned()));
    let read = s.request("resources/read", json!({"uri": "test://admin-notes"}));
    assert_eq!(
        read["result"]["contents"][0]["text"], "Notes for administrators.",
        "{read}"
    );
}

fn run_with(manifest: &str) -> (Option<i32>, String) {
    let dir = tempfile::tempdir().unwrap();
    // The file stem must be the surface name, as under manifest/.
    let path = dir.path().join("conformance.yaml");
    std::fs::write(&path, manifest).unwrap();
    let out = Command::new(support::bin())
        .arg("--manifest")
        .arg(&path)
        .arg("tools")
        .output()
        .unwrap();
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn a_bad_manifest_file_is_refused_at_file_line_column() {
    let source = std::fs::read_to_string(manifest()).unwrap();
    let broken = source.replacen(
        "    nexus: {method: GET, path: /simple-text}",
        "    nexus: {method: GET, path: simple-text}",
        1,
    );
    let (code, stderr) = run_with(&broken);
    assert_eq!(code, Some(2), "{stderr}");
    let line = broken
        .lines()
        .position(|l| l.contains("path: simple-text"))
        .unwrap()
        + 1;
    assert!(
        stderr.contains(&format!("conformance.yaml:{line}:"))
            && stderr
                .contains("tool `test_simple_text`: nexus path `simple-text` must start with `/`"),
        "{stderr}"
    );

    let custom = source.replacen("    handler: mapped\n    input: {type: object, properties: {}, additionalProperties: false}\n    output: {type: object, properties: {text", "    handler: custom\n    input: {type: object, properties: {}, additionalProperties: false}\n    output: {type: object, properties: {text", 1);
    let (code, stderr) = run_with(&custom);
    assert_eq!(code, Some(2), "{stderr}");
    assert!(
        stderr
            .contains("declares custom tools (test_simple_text): custom tools need compiled code"),
        "{stderr}"
    );
}
