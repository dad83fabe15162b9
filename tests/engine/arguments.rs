//! Bad arguments come back as isError results (MCP 2025-11-25, SEP-1303) naming the field as a
//! JSON pointer, the rule and the allowed values, so that a model can correct its call. Nothing
//! reaches the backend.

use crate::engine;
use crate::support::inproc::{Options, error_body};
use nexus_mcp_runtime::spec::Mode;
use serde_json::json;

#[tokio::test]
async fn an_enum_value_names_its_field_rule_and_allowed_values() {
    let e = engine(Options::default()).await;
    let result = e
        .call("list_notes", json!({"folder": "team", "kind": "memo"}))
        .await
        .expect("bad arguments are a tool result, not a JSON-RPC error");
    let error = &error_body(&result)["error"];
    assert_eq!(error["code"], "invalid_arguments", "{error}");
    assert_eq!(error["retryable"], false);
    assert_eq!(error["field"], "/kind", "{error}");
    assert_eq!(error["rule"], "enum", "{error}");
    assert_eq!(
        error["allowed"],
        json!(["idea", "plan", "minutes", "decision"])
    );
    let message = error["message"].as_str().unwrap();
    assert!(
        message.contains("list_notes") && message.contains("kind") && message.contains("memo"),
        "the message keeps tool, field and value: {message}"
    );
    assert!(
        error.get("errors").is_none(),
        "one problem, no list: {error}"
    );
    assert!(e.backend.seen().is_empty());
}

#[tokio::test]
async fn several_problems_are_listed_and_unknown_properties_get_the_known_names() {
    let e = engine(Options::default()).await;
    let result = e
        .call(
            "list_notes",
            json!({"folder": 42, "no_such_argument": true}),
        )
        .await
        .unwrap();
    let error = &error_body(&result)["error"];
    let problems = error["errors"].as_array().expect("a list of problems");
    let found: Vec<(String, String)> = problems
        .iter()
        .map(|p| {
            (
                p["field"].as_str().unwrap().to_owned(),
                p["rule"].as_str().unwrap().to_owned(),
            )
        })
        .collect();
    assert!(
        found.contains(&("/folder".into(), "type".into())),
        "{found:?}"
    );
    assert!(
        found.contains(&("/no_such_argument".into(), "additionalProperties".into())),
        "{found:?}"
    );
    let unknown = problems
        .iter()
        .find(|p| p["rule"] == "additionalProperties")
        .unwrap();
    let known = unknown["allowed"].as_array().unwrap();
    for name in ["folder", "kind", "limit"] {
        assert!(
            known.contains(&json!(name)),
            "{name} missing from {known:?}"
        );
    }
    assert!(problems.iter().all(|p| p["code"] == "invalid_arguments"));
    assert_eq!(error["field"], problems[0]["field"], "the first one on top");
    assert!(e.backend.seen().is_empty());
}

#[tokio::test]
async fn patterns_bounds_and_cursors_are_argument_errors_too() {
    let e = engine(Options::default()).await;
    for (arguments, field, rule) in [
        (json!({"folder": "Not A Folder"}), "/folder", "pattern"),
        (json!({"folder": "team", "limit": 500}), "/limit", "maximum"),
        (
            json!({"folder": "team", "tags": "Urgent!"}),
            "/tags",
            "pattern",
        ),
        (
            json!({"folder": "team", "cursor": "not-ours"}),
            "/cursor",
            "cursor",
        ),
    ] {
        let result = e.call("list_notes", arguments.clone()).await.unwrap();
        let error = &error_body(&result)["error"];
        assert_eq!(
            (error["field"].as_str(), error["rule"].as_str()),
            (Some(field), Some(rule)),
            "{arguments}: {error}"
        );
    }
    assert!(e.backend.seen().is_empty(), "{:?}", e.backend.seen());
}

#[tokio::test]
async fn huge_values_come_back_capped_over_http() {
    let e = engine(Options {
        mode: Mode::RemoteHttp,
        scopes: Some(vec!["notes:read"]),
        ..Options::default()
    })
    .await;
    let huge = "x".repeat(1_000_000);
    let result = e
        .call("list_notes", json!({"folder": huge.clone(), huge: 1}))
        .await
        .unwrap();
    let body = error_body(&result);
    let text = body.to_string();
    assert!(text.len() < 6_000, "{} bytes", text.len());
    assert_eq!(body["error"]["code"], "invalid_arguments");
}
