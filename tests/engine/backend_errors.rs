//! Backend failures are isError results with a code an agent can branch on; over HTTP a server
//! failure shows a reference, never the backend's internals.

use crate::engine;
use crate::support::inproc::{Options, error_body};
use nexus_mcp_runtime::spec::Mode;
use serde_json::json;

#[tokio::test]
async fn a_404_is_not_found_and_a_500_is_retryable_and_generic_over_http() {
    let e = engine(Options::default()).await;
    let missing = e
        .call("list_notes", json!({"folder": "missing"}))
        .await
        .unwrap();
    let error = &error_body(&missing)["error"];
    assert_eq!(error["code"], "not_found", "{error}");
    assert_eq!(error["retryable"], false);
    assert!(
        error["message"]
            .as_str()
            .unwrap()
            .contains("no folder missing"),
        "{error}"
    );

    let broken = e
        .call("list_notes", json!({"folder": "broken"}))
        .await
        .unwrap();
    let error = &error_body(&broken)["error"];
    assert_eq!(error["code"], "nexus_unavailable", "{error}");
    assert_eq!(error["retryable"], true);
    // A local stdio user owns the machine and gets the details.
    assert!(
        error["message"].as_str().unwrap().contains("/srv/notes"),
        "{error}"
    );
    let attempts = e
        .backend
        .seen()
        .iter()
        .filter(|s| s.param("folder").as_deref() == Some("broken"))
        .count();
    assert_eq!(attempts, 3, "a failing GET is tried three times");

    let remote = engine(Options {
        mode: Mode::RemoteHttp,
        scopes: Some(vec!["notes:read"]),
        ..Options::default()
    })
    .await;
    let broken = remote
        .call("list_notes", json!({"folder": "broken"}))
        .await
        .unwrap();
    let error = &error_body(&broken)["error"];
    let message = error["message"].as_str().unwrap();
    assert!(
        !message.contains("/srv/notes") && !message.contains("sqlite"),
        "{message}"
    );
    assert!(message.contains("reference"), "{message}");
    assert_eq!(error["code"], "nexus_unavailable");
}
