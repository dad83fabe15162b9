//! The read-only web viewer: pages for people, from the same Nexus API the MCP surfaces use, on
//! a listener of its own. It is GET only, has its own access rule (loopback, or a viewer token
//! that is never an MCP key) and no route that runs a tool.
//!
//! What repositories and agents wrote is data: the templates escape it, Markdown is rendered
//! without its raw HTML, images or script links, secrets are redacted as in MCP answers, and the
//! Content-Security-Policy allows no script at all (the pages have none).

mod access;
mod code;
mod docs;
mod error;
mod graph;
mod markdown;
mod pages;
mod rules;

pub use access::{Access, TOKEN_PREFIX};

use axum::Router;
use axum::extract::{Request, State};
use axum::http::{HeaderValue, header};
use axum::middleware::{self, Next};
use axum::response::{IntoResponse, Redirect, Response};
use axum::routing::get;
use error::PageError;
use nexus_mcp_runtime::backend::{NexusClient, NexusRequest};
use serde_json::Value;
use std::net::SocketAddr;
use std::sync::Arc;

/// The Nexus API routes the viewer reads (what the local Nexus lets this process reach).
pub const ROUTES: &[(&str, &str)] = &[
    ("GET", "/api/v1/docs/workspaces"),
    ("GET", "/api/v1/docs/traceability"),
    ("GET", "/api/v1/docs/search"),
    ("GET", "/api/v1/docs/nodes/{id}"),
    ("GET", "/api/v1/docs/dependency-graph"),
    ("GET", "/api/v1/docs/acceptance-criteria"),
    ("GET", "/api/v1/repositories"),
    ("GET", "/api/v1/graphs/select"),
    ("GET", "/api/v1/summary"),
    ("GET", "/api/v1/impact"),
    ("GET", "/api/v1/file-context"),
    // The freshness verdict reads which files carry findings.
    ("GET", "/api/v1/findings"),
    ("GET", "/api/v1/rules/stats"),
    ("GET", "/api/v1/rules/skills"),
    ("GET", "/api/v1/rules/gate-runs"),
    ("GET", "/api/v1/rules/gate-results"),
    ("GET", "/api/v1/rules/proposals"),
];

/// The freshness block of a code graph (what MCP answers carry), when this process can judge
/// it against a local checkout; the binary provides it. `None`: the page says it is unknown.
pub trait FreshnessHook: Send + Sync {
    fn freshness<'a>(
        &'a self,
        graph: &'a Value,
    ) -> std::pin::Pin<Box<dyn std::future::Future<Output = Option<Value>> + Send + 'a>>;
}

/// What every page handler shares.
pub struct Viewer {
    nexus: NexusClient,
    access: Access,
    freshness: Option<Arc<dyn FreshnessHook>>,
}

impl Viewer {
    pub fn new(
        nexus: NexusClient,
        access: Access,
        freshness: Option<Arc<dyn FreshnessHook>>,
    ) -> Arc<Viewer> {
        Arc::new(Viewer {
            nexus,
            access,
            freshness,
        })
    }

    /// The served repositories as `template` lists them (the code and rules sections' index).
    async fn repositories(
        &self,
        template: &str,
    ) -> Result<axum::response::Html<String>, PageError> {
        let answer = self.read(NexusRequest::get("/api/v1/repositories")).await?;
        pages::page(
            template,
            minijinja::context! { repositories => pages::value(answer.get("items")) },
        )
    }

    /// One Nexus answer, its secrets redacted before any page sees it.
    async fn read(&self, request: NexusRequest) -> Result<Value, PageError> {
        let mut answer = self
            .nexus
            .send_detailed(&request, None)
            .await
            .map_err(PageError::from_backend)?;
        nexus_secrets::redact_value(&mut answer);
        Ok(answer)
    }
}

/// Every page, behind the access rule and the security headers.
pub fn router(viewer: Arc<Viewer>) -> Router {
    Router::new()
        .route("/", get(|| async { Redirect::to("/docs") }))
        .route("/assets/view.css", get(stylesheet))
        .route("/assets/favicon.svg", get(icon))
        .route("/favicon.ico", get(icon))
        .merge(docs::routes())
        .merge(code::routes())
        .merge(rules::routes())
        .route("/login", get(access::login))
        .fallback(|| async { PageError::NotFound("no such page".to_owned()) })
        .layer(middleware::from_fn_with_state(
            viewer.clone(),
            access::guard,
        ))
        .layer(middleware::from_fn(security_headers))
        .with_state(viewer)
}

/// Serves `router` on `listener` until the process ends.
pub async fn serve(listener: tokio::net::TcpListener, viewer: Arc<Viewer>) -> std::io::Result<()> {
    axum::serve(
        listener,
        router(viewer).into_make_service_with_connect_info::<SocketAddr>(),
    )
    .await
}

async fn stylesheet() -> Response {
    (
        [(header::CONTENT_TYPE, "text/css; charset=utf-8")],
        include_str!("assets/view.css"),
    )
        .into_response()
}

async fn icon() -> Response {
    (
        [(header::CONTENT_TYPE, "image/svg+xml")],
        include_str!("assets/favicon.svg"),
    )
        .into_response()
}

/// No script, no frame, no foreign resource, no referrer, nothing cached: whatever a page
/// shows, a browser runs nothing from it.
const CSP: &str = "default-src 'none'; style-src 'self'; img-src 'self'; form-action 'self'; \
                   frame-ancestors 'none'; base-uri 'none'";

async fn security_headers(request: Request, next: Next) -> Response {
    let mut response = next.run(request).await;
    let headers = response.headers_mut();
    for (name, value) in [
        (header::CONTENT_SECURITY_POLICY, CSP),
        (header::X_CONTENT_TYPE_OPTIONS, "nosniff"),
        (header::X_FRAME_OPTIONS, "DENY"),
        (header::REFERRER_POLICY, "no-referrer"),
        (header::CACHE_CONTROL, "no-store"),
    ] {
        headers.insert(name, HeaderValue::from_static(value));
    }
    response
}

type ViewerState = State<Arc<Viewer>>;
