//! 2026-07-28 `subscriptions/listen` on the conformance manifest's watched resource
//! (tests/manifests/conformance.yaml: `test://watched-resource`, read again every second).

use crate::support::inproc::{Engine, Options, StubBackend, app, serve_http};
use axum::extract::State;
use axum::routing::get;
use axum::{Json, Router};
use nexus_mcp_runtime::spec::SurfaceSpec;
use rmcp::RoleClient;
use rmcp::model::{ProtocolVersion, ServerNotification, SubscriptionFilter};
use rmcp::service::{ClientLifecycleMode, ClientServiceExt, Peer};
use rmcp::transport::StreamableHttpClientTransport;
use rmcp::transport::streamable_http_client::StreamableHttpClientTransportConfig;
use serde_json::{Value, json};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, OnceLock};
use std::time::Duration;

const URI: &str = "test://watched-resource";

fn conformance() -> &'static SurfaceSpec {
    static SURFACE: OnceLock<&'static SurfaceSpec> = OnceLock::new();
    SURFACE.get_or_init(|| {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/manifests/conformance.yaml");
        nexus_mcp::manifest_file::load(&path).expect("the conformance manifest loads")
    })
}

/// The watched text, and how many times the backend was asked for it.
#[derive(Clone, Default)]
struct Watched {
    text: Arc<Mutex<String>>,
    reads: Arc<AtomicUsize>,
}

async fn read(State(w): State<Watched>) -> Json<Value> {
    w.reads.fetch_add(1, Ordering::SeqCst);
    Json(json!({"text": *w.text.lock().unwrap()}))
}

/// The backend answering the conformance manifest's watched resource, starting at "before".
fn backend() -> (Watched, Router) {
    let watched = Watched::default();
    *watched.text.lock().unwrap() = "before".into();
    let routes = Router::new()
        .route("/watched-resource", get(read))
        .with_state(watched.clone());
    (watched, routes)
}

/// rmcp acknowledges a listen before it calls the server's `listen`. A watch that took its
/// first value only then would take a change the client makes as soon as it holds the
/// acknowledgment for that first value, and never tell the client of it (the flaky
/// `python_sdk_hears_a_subscribed_resource_change_in_both_revisions`). The resource is read
/// before the acknowledgment, and that change is heard.
async fn hears_a_change_made_on_acknowledgment(client: &Peer<RoleClient>, watched: &Watched) {
    let mut filter = SubscriptionFilter::default();
    filter.resource_subscriptions = Some(vec![URI.to_owned()]);
    let mut listening = client.listen(filter).await.unwrap();
    assert_eq!(
        listening.acknowledged().resource_subscriptions.as_deref(),
        Some(&[URI.to_owned()][..])
    );
    assert!(
        watched.reads.load(Ordering::SeqCst) >= 1,
        "the watched resource must be read before the listen is acknowledged"
    );
    *watched.text.lock().unwrap() = "after".into();

    let event = tokio::time::timeout(Duration::from_secs(10), listening.next())
        .await
        .expect("no event within 10 s of the change")
        .unwrap();
    let Some(ServerNotification::ResourceUpdatedNotification(updated)) = event else {
        panic!("not a resource update: {event:?}");
    };
    assert_eq!(updated.params.uri, URI);
}

/// Over a transport rmcp serves from a `Service` (stdio's path: `McpService`).
#[tokio::test]
async fn a_listener_hears_a_change_made_as_soon_as_it_is_acknowledged() {
    let (watched, routes) = backend();
    let options = Options {
        discover: true,
        scopes: Some(vec!["test:read"]),
        ..Options::default()
    };
    let e = Engine::start(conformance(), routes, options).await;
    hears_a_change_made_on_acknowledgment(&e.client, &watched).await;
}

/// Over Streamable HTTP (rmcp needs a `ServerHandler` there: the front layer reads first).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_http_listener_hears_a_change_made_as_soon_as_it_is_acknowledged() {
    let (watched, routes) = backend();
    let backend = StubBackend::start(routes).await;
    let app = app(conformance(), &backend.url, Default::default());
    let (url, _server) = serve_http(app, &["test:read"]).await;
    let transport = StreamableHttpClientTransport::with_client(
        reqwest::Client::new(),
        StreamableHttpClientTransportConfig::with_uri(url),
    );
    let discover = ClientLifecycleMode::Discover {
        preferred_versions: vec![ProtocolVersion::V_2026_07_28],
    };
    let client = ().serve_with_lifecycle(transport, discover).await.unwrap();
    hears_a_change_made_on_acknowledgment(&client, &watched).await;
}
