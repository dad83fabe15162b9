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
        .call("kg_latest_graph", json!({"repository": "acme/missing"}))
        .await
        .unwrap();
    let error = &error_body(&missing)["error"];
    assert_eq!(error["code"], "not_found", "{error}");
    assert_eq!(error["retryable"], false);
    assert!(
        error["message"]
            .as_str()
            .unwrap()
            .contains("no ready graph for acme/missing"),
        "{error}"
    );

    let broken = e
        .call("kg_latest_graph", json!({"repository": "acme/broken"}))
        .await
        .unwrap();
    let error = &error_body(&broken)["error"];
    assert_eq!(error["code"], "nexus_unavailable", "{error}");
    assert_eq!(error["retryable"], true);
    // A local stdio user owns the machine and gets the details.
    assert!(
        error["message"].as_str().unwrap().contains("/srv/nexus"),
        "{error}"
    );
    let attempts = e
        .backend
        .seen()
        .iter()
        .filter(|s| s.param("repository").as_deref() == Some("acme/broken"))
        .count();
    assert_eq!(attempts, 3, "a failing GET is tried three times");

    let remote = engine(Options {
        mode: Mode::RemoteHttp,
        scopes: Some(vec!["kg:read"]),
        ..Options::default()
    })
    .await;
    let broken = remote
        .call("kg_latest_graph", json!({"repository": "acme/broken"}))
        .await
        .unwrap();
    let error = &error_body(&broken)["error"];
    let message = error["message"].as_str().unwrap();
    assert!(
        !message.contains("/srv/nexus") && !message.contains("sqlite"),
        "{message}"
    );
    assert!(message.contains("reference"), "{message}");
    assert_eq!(error["code"], "nexus_unavailable");
}
