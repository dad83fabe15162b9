//! The HTTP server: Streamable HTTP at /mcp, legacy SSE at /sse + /message, /healthz.
//!
//! In front of every MCP route, one layer ([`front`]) runs in order: `guard` (Host, Origin,
//! Content-Type; before anything else), the key check (401), `body` (read within a time limit,
//! after auth); then for /mcp `sessions::bind`: first `framing` (malformed JSON-RPC: 400 with
//! -32700/-32600/-32602), then the binding (sessions belong to their key; per-key caps). Each
//! `from_fn` layer clones and drops the service stack under it per request, so the checks share
//! one. `conn` accepts connections under a global cap with header and stall timeouts.

pub mod body;
pub mod conn;
pub mod framing;
pub mod guard;
pub mod sessions;

use crate::app::App;
use crate::mcp::{GrantedScopes, McpServer};
use crate::spec::Mode;
use crate::transport::auth::{Caller, KeyId, KeyStore, presented_key};
use crate::transport::sse::{self, SseState};
use axum::extract::{Request, State};
use axum::http::StatusCode;
use axum::middleware::{self, Next};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use rmcp::transport::streamable_http_server::session::local::{LocalSessionManager, SessionConfig};
use rmcp::transport::{StreamableHttpServerConfig, StreamableHttpService};
use serde_json::json;
use std::collections::BTreeSet;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

/// How requests are authenticated.
#[derive(Clone)]
pub enum Auth {
    Keys(Arc<KeyStore>),
    /// --insecure-no-auth on a loopback address: every request gets these scopes.
    Open(Arc<BTreeSet<String>>),
}

/// Every HTTP cap and timeout (flags and NEXUS_MCP_* settings; see the README).
#[derive(Debug, Clone)]
pub struct HttpSettings {
    /// `--allowed-host`: extra Host values besides the loopback names.
    pub allowed_hosts: Vec<String>,
    /// `--allowed-origin`: browser origins allowed besides the server's own.
    pub allowed_origins: Vec<String>,
    pub max_connections: usize,
    pub header_timeout: Duration,
    pub body_timeout: Duration,
    /// A response stream blocked this long (client not reading) is closed.
    pub stall_timeout: Duration,
    pub max_sessions_per_key: usize,
    pub max_calls_per_key: usize,
    /// A Streamable HTTP session with no traffic for this long is closed.
    pub session_idle_timeout: Duration,
}

impl Default for HttpSettings {
    fn default() -> Self {
        HttpSettings {
            allowed_hosts: Vec::new(),
            allowed_origins: Vec::new(),
            max_connections: 4096,
            header_timeout: Duration::from_secs(10),
            body_timeout: Duration::from_secs(30),
            stall_timeout: Duration::from_secs(30),
            max_sessions_per_key: 2048,
            max_calls_per_key: 1024,
            session_idle_timeout: Duration::from_secs(300),
        }
    }
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
    #[error(transparent)]
    Origin(#[from] guard::BadOrigin),
}

/// What [`front`] checks, in its order.
#[derive(Clone)]
struct Front {
    allow: Arc<guard::Allowlist>,
    auth: Auth,
    body_timeout: Duration,
    binding: sessions::Binding,
}

/// The guard, then the key, then the body, then for /mcp the framing and the session binding:
/// the first refusal answers.
async fn front(State(front): State<Front>, mut request: Request, next: Next) -> Response {
    if let Err(refused) = front.allow.check(request.method(), request.headers()) {
        return refused.into_response();
    }
    let Some(caller) = caller(&front.auth, request.headers()) else {
        return (
            StatusCode::UNAUTHORIZED,
            [("www-authenticate", "Bearer")],
            Json(json!({"error": "missing or invalid API key: send X-MCP-API-KEY or Authorization: Bearer"})),
        )
            .into_response();
    };
    request
        .extensions_mut()
        .insert(GrantedScopes(caller.scopes.clone()));
    request.extensions_mut().insert(caller);
    let request = match body::buffer(front.body_timeout, request).await {
        Ok(request) => request,
        Err(refused) => return refused,
    };
    if sessions::is_streamable(request.uri().path()) {
        sessions::bind(&front.binding, request, next).await
    } else {
        next.run(request).await
    }
}

/// Who presents these headers: the key's holder, or anyone under `--insecure-no-auth`.
fn caller(auth: &Auth, headers: &axum::http::HeaderMap) -> Option<Caller> {
    match auth {
        Auth::Open(scopes) => Some(Caller {
            id: KeyId::OPEN,
            scopes: scopes.clone(),
            repositories: None,
        }),
        Auth::Keys(store) => presented_key(headers).and_then(|k| store.identify(k)),
    }
}

/// The full router.
pub fn router(app: Arc<App>, auth: Auth, settings: &HttpSettings) -> Result<Router, HttpError> {
    let allow = Arc::new(guard::Allowlist::new(
        &settings.allowed_hosts,
        &settings.allowed_origins,
    )?);
    let factory_app = app.clone();
    // 2026-07-28 requests are stateless: a plain JSON answer when the call sends nothing before
    // its result (rmcp falls back to SSE when a tool reports progress first). 2025 sessions
    // keep their SSE streams. rmcp checks Host again (same list) as a second line.
    let mut config = StreamableHttpServerConfig::default().with_json_response(true);
    if !settings.allowed_hosts.is_empty() {
        let mut hosts: Vec<String> = ["localhost", "127.0.0.1", "::1"]
            .iter()
            .map(|h| (*h).to_owned())
            .collect();
        hosts.extend(settings.allowed_hosts.iter().cloned());
        config = config.with_allowed_hosts(hosts);
    }
    let mut session_config = SessionConfig::default();
    session_config.keep_alive = Some(settings.session_idle_timeout);
    let mut manager = LocalSessionManager::default();
    manager.session_config = session_config;
    let manager = Arc::new(manager);
    let registry = sessions::Registry::new(sessions::KeyCaps {
        sessions: settings.max_sessions_per_key,
        calls: settings.max_calls_per_key,
    });
    let mcp = StreamableHttpService::new(
        // Scopes come per request from the auth layer; the server's own set stays empty (fail closed).
        move || {
            Ok(McpServer::new(
                factory_app.clone(),
                Mode::RemoteHttp,
                BTreeSet::new(),
            ))
        },
        manager.clone(),
        config,
    );
    let binding = sessions::Binding {
        registry: registry.clone(),
        manager,
        app: app.clone(),
    };
    let streamable = Router::new().nest_service(sessions::STREAMABLE, mcp);
    let legacy = Router::new()
        .route("/sse", get(sse::open))
        .route("/message", post(sse::post))
        .with_state(SseState::new(app.clone(), registry, settings.stall_timeout));
    Ok(streamable
        .merge(legacy)
        .layer(middleware::from_fn_with_state(
            Front {
                allow,
                auth,
                body_timeout: settings.body_timeout,
                binding,
            },
            front,
        ))
        // Health has no data and no effect: no key, and any Host (load balancers probe by IP).
        .route("/healthz", get(move || async move { Json(json!({"status": "ok", "surface": app.surface.name, "version": env!("CARGO_PKG_VERSION")})) })))
}

/// Binds and serves until ctrl-c.
pub async fn serve(
    app: Arc<App>,
    listen: SocketAddr,
    auth: Auth,
    settings: &HttpSettings,
) -> Result<(), HttpError> {
    let router = router(app, auth, settings)?;
    let listener = tokio::net::TcpListener::bind(listen)
        .await
        .map_err(|source| HttpError::Bind {
            addr: listen,
            source,
        })?;
    let local = listener.local_addr().map_err(HttpError::Serve)?;
    tracing::info!(%local, "nexus-mcp listening: Streamable HTTP at /mcp, legacy SSE at /sse");
    eprintln!("nexus-mcp listening on http://{local} (/mcp, /sse, /healthz)");
    let limits = conn::ConnLimits {
        max_connections: conn::fit_connections(settings.max_connections),
        header_timeout: settings.header_timeout,
        stall_timeout: settings.stall_timeout,
        shutdown_grace: Duration::from_secs(5),
    };
    conn::serve(listener, router, limits, async {
        let _ = tokio::signal::ctrl_c().await;
    })
    .await;
    Ok(())
}
