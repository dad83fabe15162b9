//! The daemon's HTTP routes: the public ones, the admin ones (register a client, status; bearer
//! = daemon.json's token) and every other path dispatched to the asking client's view (bearer =
//! its client token).

use super::files::DaemonFile;
use super::registry::{Client, Registry};
use crate::core::error::LiteError;
use crate::core::http::{ApiError, bearer, body, is_secret, unauthorized};
use crate::core::util::{now_epoch, rfc3339};
use crate::docs::config::Limits;
use crate::docs::{Workspace, WorkspaceSpec};
use crate::server::{Server, domains_of};
use crate::{RepoSpec, openapi_document};
use axum::body::{Body, Bytes};
use axum::extract::rejection::JsonRejection;
use axum::extract::{Request, State};
use axum::http::{HeaderMap, header};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use serde::Deserialize;
use serde_json::{Value, json};
use std::path::PathBuf;
use std::sync::Arc;
use std::time::{Duration, Instant};
use tower::ServiceExt;

/// How often the registration stream writes a keep-alive `\n` (a dead client fails the write).
const KEEP_ALIVE: Duration = Duration::from_millis(500);

/// What the routes share.
pub struct Daemon {
    pub server: Arc<Server>,
    pub registry: Arc<Registry>,
    pub file: DaemonFile,
    pub data_dir: PathBuf,
    pub started: Instant,
    pub idle_timeout: Duration,
}

/// Registration of a client (admin token).
pub const CLIENTS_PATH: &str = "/api/v1/local/clients";
/// The daemon's status (admin token).
pub const STATUS_PATH: &str = "/api/v1/local/status";

pub fn router(daemon: Arc<Daemon>) -> Router {
    let own = Router::new()
        .route(CLIENTS_PATH, post(register))
        .route(STATUS_PATH, get(status))
        .fallback(dispatch)
        .with_state(daemon);
    crate::core::http::public_router(openapi_document().to_string()).merge(own)
}

/// The 401 for a request without the admin token; `None` when it has it.
fn not_admin(d: &Daemon, headers: &HeaderMap) -> Option<Response> {
    if is_secret(bearer(headers), &d.file.token) {
        return None;
    }
    Some(unauthorized(format!(
        "missing or wrong admin token: send `Authorization: Bearer <token>` with the token of {}",
        d.data_dir.join(super::files::DAEMON_FILE).display()
    )))
}

/// The registration body; fields the contract does not name are ignored (a newer client).
#[derive(Deserialize)]
struct Registration {
    pid: u32,
    kind: String,
    #[serde(default)]
    surface: Option<String>,
    #[serde(default)]
    routes: Vec<(String, String)>,
    #[serde(default)]
    repos: Vec<Named>,
    #[serde(default)]
    workspaces: Vec<Named>,
}

#[derive(Deserialize)]
struct Named {
    #[serde(default)]
    name: Option<String>,
    path: PathBuf,
    /// Workspaces only: the client's operator limits (defaults when absent).
    #[serde(default)]
    limits: Option<Limits>,
}

const KINDS: [&str; 5] = ["serve", "gate", "rules", "call", "view"];

/// `POST /api/v1/local/clients`: registers a client and answers the registration stream.
async fn register(
    State(d): State<Arc<Daemon>>,
    headers: HeaderMap,
    b: Result<Json<Value>, JsonRejection>,
) -> Response {
    if let Some(r) = not_admin(&d, &headers) {
        return r;
    }
    match registered(d, b).await {
        Ok(r) => r,
        Err(e) => e.into_response(),
    }
}

async fn registered(
    d: Arc<Daemon>,
    b: Result<Json<Value>, JsonRejection>,
) -> Result<Response, ApiError> {
    let reg: Registration = serde_json::from_value(body(b)?).map_err(|e| {
        ApiError::bad(format!(
            "malformed client registration: {e}; send {{pid, kind, surface, routes, repos, workspaces}}"
        ))
    })?;
    if !KINDS.contains(&reg.kind.as_str()) {
        return Err(ApiError::bad(format!(
            "unknown client kind `{}`; expected one of {}",
            reg.kind,
            KINDS.join(", ")
        )));
    }
    let daemon = d.clone();
    let client = tokio::task::spawn_blocking(move || client_of(&daemon.server, reg))
        .await
        .map_err(|e| ApiError::from(LiteError::Task(e.to_string())))??;
    let entries = |v: &[(String, PathBuf)]| {
        v.iter()
            .map(|(n, r)| json!({"name": n, "root": r}))
            .collect::<Vec<_>>()
    };
    let first = json!({
        "client_id": client.client_id,
        "daemon": {"pid": d.file.pid, "started_at": d.file.started_at},
        "repos": entries(&client.repos),
        "workspaces": entries(&client.workspaces),
    });
    let (token, guard) = d.registry.add(client);
    let mut first = first;
    first["token"] = json!(token);
    let line = Bytes::from(format!("{first}\n"));
    // The guard lives in the stream's state: when hyper drops the body (the client closed the
    // response, or a keep-alive write failed), the client is unregistered.
    let stream = futures_util::stream::unfold((Some(line), guard), |(line, guard)| async move {
        let chunk = match line {
            Some(l) => l,
            None => {
                tokio::time::sleep(KEEP_ALIVE).await;
                Bytes::from_static(b"\n")
            }
        };
        Some((Ok::<_, std::convert::Infallible>(chunk), (None, guard)))
    });
    Ok((
        [(header::CONTENT_TYPE, "application/x-ndjson")],
        Body::from_stream(stream),
    )
        .into_response())
}

/// Resolves a registration's repositories and workspaces on the shared server and builds the
/// client's view.
fn client_of(server: &Server, reg: Registration) -> Result<Client, ApiError> {
    let repos = reg
        .repos
        .iter()
        .map(|r| {
            server.repo(&RepoSpec {
                name: r.name.clone(),
                path: r.path.clone(),
            })
        })
        .collect::<Result<Vec<_>, _>>()
        .map_err(refusal)?;
    let workspaces: Vec<Arc<Workspace>> = reg
        .workspaces
        .iter()
        .map(|w| {
            let spec = WorkspaceSpec {
                name: w.name.clone(),
                path: w.path.clone(),
            };
            server.workspace(&spec, &w.limits.clone().unwrap_or_default())
        })
        .collect::<Result<Vec<_>, _>>()
        .map_err(refusal)?;
    for (i, r) in repos.iter().enumerate() {
        if repos[..i].iter().any(|o| o.name == r.name) {
            return Err(refusal(LiteError::DuplicateRepo {
                name: r.name.clone(),
            }));
        }
    }
    let domains = domains_of(&reg.routes);
    let view = server
        .view(repos.clone(), workspaces.clone(), &domains)
        .map_err(refusal)?;
    Ok(Client {
        client_id: format!("c-{}", &uuid::Uuid::new_v4().simple().to_string()[..12]),
        kind: reg.kind,
        surface: reg.surface,
        pid: reg.pid,
        connected_at: rfc3339(now_epoch()),
        domains: domains.into_iter().collect(),
        repos: repos
            .iter()
            .map(|r| (r.name.clone(), r.root.clone()))
            .collect(),
        workspaces: workspaces
            .iter()
            .map(|w| (w.name.clone(), w.dir.clone()))
            .collect(),
        view,
    })
}

/// A registration the client can fix: 409 for a name taken by another root, 400 for a path
/// that is not a work tree or directory; the rest is the server's fault.
fn refusal(e: LiteError) -> ApiError {
    match e {
        LiteError::RepoNameTaken { .. } => {
            ApiError::conflict("repository_name_taken", e.to_string())
        }
        LiteError::BadRepo { .. }
        | LiteError::Git { .. }
        | LiteError::Config { .. }
        | LiteError::DuplicateRepo { .. } => ApiError::bad(e.to_string()),
        other => ApiError::from(other),
    }
}

/// `GET /api/v1/local/status`.
async fn status(State(d): State<Arc<Daemon>>, headers: HeaderMap) -> Response {
    if let Some(r) = not_admin(&d, &headers) {
        return r;
    }
    let (repos, workspaces, clients) = d.registry.status();
    Json(json!({
        "data_dir": d.data_dir,
        "pid": d.file.pid,
        "host": d.file.host,
        "uid": d.file.uid,
        "version": d.file.version,
        "started_at": d.file.started_at,
        "uptime_secs": d.started.elapsed().as_secs(),
        "idle_timeout_secs": d.idle_timeout.as_secs(),
        "socket": d.file.socket,
        "repos": repos,
        "workspaces": workspaces,
        "clients": clients,
    }))
    .into_response()
}

/// Every other path: the asking client's view.
async fn dispatch(State(d): State<Arc<Daemon>>, req: Request) -> Response {
    let Some(client) = bearer(req.headers()).and_then(|t| d.registry.by_token(t)) else {
        return unauthorized(
            "missing or unknown client token: register with POST /api/v1/local/clients and send `Authorization: Bearer <token>` while the registration stream is open",
        );
    };
    match client.view.clone().oneshot(req).await {
        Ok(r) => r,
        Err(never) => match never {},
    }
}
