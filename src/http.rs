//! The HTTP server: Streamable HTTP at /mcp, legacy SSE at /sse + /message, /healthz. Every MCP
//! route needs a key; a bad or missing key gets 401 before any MCP processing.

use crate::app::App;
use crate::auth::{KeyStore, presented_key};
use crate::server::{GrantedScopes, McpServer};
use crate::spec::Mode;
use crate::sse::{self, SseState};
use axum::extract::{Request, State};
use axum::http::StatusCode;
use axum::middleware::{self, Next};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::serve::ListenerExt;
use axum::{Json, Router};
use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
use rmcp::transport::{StreamableHttpServerConfig, StreamableHttpService};
use serde_json::json;
use std::collections::BTreeSet;
use std::net::SocketAddr;
use std::sync::Arc;

/// How requests are authenticated.
#[derive(Clone)]
pub enum Auth {
    Keys(Arc<KeyStore>),
    /// --insecure-no-auth on a loopback address: every request gets these scopes.
    Open(Arc<BTreeSet<String>>),
}

#[derive(Debug, thiserror::Error)]
pub enum HttpError {
    #[error(
        "no API key is configured, so the HTTP server refuses to start. Set NEXUS_MCP_API_KEY or pass --tokens FILE (or, on a loopback address only, --insecure-no-auth)."
    )]
    NoKeys,
    #[error("--insecure-no-auth is only allowed on a loopback address, not {0}")]
    InsecureNotLoopback(SocketAddr),
    #[error("cannot listen on {addr}: {source}")]
    Bind {
        addr: SocketAddr,
        source: std::io::Error,
    },
    #[error("the HTTP server failed: {0}")]
    Serve(std::io::Error),
}

async fn require_key(State(auth): State<Auth>, mut request: Request, next: Next) -> Response {
    let scopes = match &auth {
        Auth::Open(scopes) => Some(scopes.clone()),
        Auth::Keys(store) => presented_key(request.headers()).and_then(|k| store.authenticate(k)),
    };
    match scopes {
        Some(scopes) => {
            request.extensions_mut().insert(GrantedScopes(scopes));
            next.run(request).await
        }
        None => (
            StatusCode::UNAUTHORIZED,
            [("www-authenticate", "Bearer")],
            Json(json!({"error": "missing or invalid API key: send X-MCP-API-KEY or Authorization: Bearer"})),
        )
            .into_response(),
    }
}

/// The full router; `allowed_hosts` extends the DNS-rebinding allowlist beyond loopback names.
pub fn router(app: Arc<App>, auth: Auth, allowed_hosts: &[String]) -> Router {
    let factory_app = app.clone();
    // 2026-07-28 requests are stateless: a plain JSON answer when the call sends nothing before
    // its result (rmcp falls back to SSE when a tool reports progress first). 2025 sessions
    // keep their SSE streams.
    let mut config = StreamableHttpServerConfig::default().with_json_response(true);
    if !allowed_hosts.is_empty() {
        let mut hosts: Vec<String> = ["localhost", "127.0.0.1", "::1"]
            .iter()
            .map(|h| (*h).to_owned())
            .collect();
        hosts.extend(allowed_hosts.iter().cloned());
        config = config.with_allowed_hosts(hosts);
    }
    let mcp = StreamableHttpService::new(
        // Scopes come per request from the auth layer; the server's own set stays empty (fail closed).
        move || {
            Ok(McpServer::new(
                factory_app.clone(),
                Mode::RemoteHttp,
                BTreeSet::new(),
            ))
        },
        Arc::new(LocalSessionManager::default()),
        config,
    );
    let legacy = Router::new()
        .route("/sse", get(sse::open))
        .route("/message", post(sse::post))
        .with_state(SseState::new(app.clone()));
    Router::new()
        .nest_service("/mcp", mcp)
        .merge(legacy)
        .layer(middleware::from_fn_with_state(auth, require_key))
        .route("/healthz", get(move || async move { Json(json!({"status": "ok", "surface": app.surface.name, "version": env!("CARGO_PKG_VERSION")})) }))
}

/// Binds and serves until ctrl-c.
pub async fn serve(
    app: Arc<App>,
    listen: SocketAddr,
    auth: Auth,
    allowed_hosts: &[String],
) -> Result<(), HttpError> {
    let listener = tokio::net::TcpListener::bind(listen)
        .await
        .map_err(|source| HttpError::Bind {
            addr: listen,
            source,
        })?;
    let local = listener.local_addr().map_err(HttpError::Serve)?;
    tracing::info!(%local, "nexus-mcp listening: Streamable HTTP at /mcp, legacy SSE at /sse");
    eprintln!("nexus-mcp listening on http://{local} (/mcp, /sse, /healthz)");
    // Small SSE frames must not wait for Nagle + delayed ACK (~40 ms a call on a reused connection).
    let listener = listener.tap_io(|tcp| {
        if let Err(e) = tcp.set_nodelay(true) {
            tracing::debug!(error = %e, "cannot set TCP_NODELAY");
        }
    });
    axum::serve(listener, router(app, auth, allowed_hosts))
        .with_graceful_shutdown(async {
            let _ = tokio::signal::ctrl_c().await;
        })
        .await
        .map_err(HttpError::Serve)
}
