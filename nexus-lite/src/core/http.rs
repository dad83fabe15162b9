//! HTTP helpers every domain uses: JSON errors, typed query parameters, cursor pages,
//! blocking work under a permit, the bearer-token check, and the unauthenticated routes
//! (liveness and the API document).

use crate::core::error::LiteError;
use crate::core::state::Core;
use crate::core::util::{decode_cursor, encode_cursor};
use axum::extract::rejection::{JsonRejection, QueryRejection};
use axum::extract::{Query, Request, State};
use axum::http::{HeaderMap, StatusCode, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::{Json, Router};
use rusqlite::Connection;
use rusqlite::types::Value as Sql;
use serde_json::{Map, Value, json};
use std::collections::HashMap;
use std::sync::Arc;

/// The JSON error answer of every domain: `{"error": {"code", "message", ...extra}}`. Generic
/// codes are snake_case (`bad_request`, `not_found`, `internal`); a domain's own codes (what an
/// agent branches on, e.g. `TASK_NOT_FOUND`) are its choice.
#[derive(Debug)]
pub struct ApiError {
    pub status: StatusCode,
    pub code: &'static str,
    pub message: String,
    /// More fields of the error object (e.g. `nearMatches`); boxed so a `Result` stays small.
    pub extra: Option<Box<Map<String, Value>>>,
}

impl ApiError {
    pub fn new(status: StatusCode, code: &'static str, msg: impl Into<String>) -> Self {
        ApiError {
            status,
            code,
            message: msg.into(),
            extra: None,
        }
    }
    pub fn bad(msg: impl Into<String>) -> Self {
        Self::new(StatusCode::BAD_REQUEST, "bad_request", msg)
    }
    pub fn not_found(msg: impl Into<String>) -> Self {
        Self::new(StatusCode::NOT_FOUND, "not_found", msg)
    }
    /// A 404 under a domain's own code (e.g. `SKILL_NOT_FOUND`).
    pub fn not_found_as(code: &'static str, msg: impl Into<String>) -> Self {
        Self::new(StatusCode::NOT_FOUND, code, msg)
    }
    pub fn conflict(code: &'static str, msg: impl Into<String>) -> Self {
        Self::new(StatusCode::CONFLICT, code, msg)
    }
    /// Adds the field `key` to the error object.
    pub fn with(mut self, key: &str, value: Value) -> Self {
        self.extra
            .get_or_insert_default()
            .insert(key.to_string(), value);
        self
    }
}

impl From<LiteError> for ApiError {
    fn from(e: LiteError) -> Self {
        tracing::error!(error = %e, "request failed");
        ApiError::new(StatusCode::INTERNAL_SERVER_ERROR, "internal", e.to_string())
    }
}

impl From<rusqlite::Error> for ApiError {
    fn from(e: rusqlite::Error) -> Self {
        ApiError::from(LiteError::Db {
            context: "answering a request".into(),
            source: e,
        })
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let mut error = Map::new();
        error.insert("code".into(), json!(self.code));
        error.insert("message".into(), json!(self.message));
        if let Some(extra) = self.extra {
            error.extend(*extra);
        }
        (self.status, Json(json!({ "error": error }))).into_response()
    }
}

pub type ApiResult = Result<Response, ApiError>;

/// The raw query string of a request, parsed by [`Params::new`].
pub type Q = Result<Query<Vec<(String, String)>>, QueryRejection>;

/// Parsed query parameters with typed accessors that produce clear 400s.
pub struct Params(HashMap<String, String>);

impl Params {
    pub fn new(q: Q) -> Result<Params, ApiError> {
        let Query(pairs) = q.map_err(|e| ApiError::bad(format!("malformed query string: {e}")))?;
        let mut map = HashMap::new();
        for (k, v) in pairs {
            if map.insert(k.clone(), v).is_some() {
                return Err(ApiError::bad(format!(
                    "query parameter `{k}` is given twice; give it once (use a comma list for several values)"
                )));
            }
        }
        Ok(Params(map))
    }
    pub fn str(&self, k: &str) -> Option<&str> {
        self.0.get(k).map(String::as_str).filter(|s| !s.is_empty())
    }
    pub fn int(&self, k: &str, default: i64, min: i64, max: i64) -> Result<i64, ApiError> {
        match self.str(k) {
            None => Ok(default),
            Some(s) => match s.parse::<i64>() {
                Ok(n) if (min..=max).contains(&n) => Ok(n),
                _ => Err(ApiError::bad(format!(
                    "`{k}` must be an integer between {min} and {max}, got `{s}`"
                ))),
            },
        }
    }
    pub fn opt_int(&self, k: &str, min: i64, max: i64) -> Result<Option<i64>, ApiError> {
        match self.str(k) {
            None => Ok(None),
            Some(_) => self.int(k, 0, min, max).map(Some),
        }
    }
    pub fn bool(&self, k: &str) -> Result<bool, ApiError> {
        match self.str(k) {
            None | Some("false") | Some("0") => Ok(false),
            Some("true") | Some("1") => Ok(true),
            Some(s) => Err(ApiError::bad(format!(
                "`{k}` must be true or false, got `{s}`"
            ))),
        }
    }
    pub fn list(&self, k: &str, allowed: &[&str]) -> Result<Vec<String>, ApiError> {
        let Some(s) = self.str(k) else {
            return Ok(Vec::new());
        };
        let mut out = Vec::new();
        for v in s.split(',').map(str::trim).filter(|v| !v.is_empty()) {
            if !allowed.is_empty() && !allowed.contains(&v) {
                return Err(ApiError::bad(format!(
                    "unknown {k} `{v}`; expected one of {}",
                    allowed.join(", ")
                )));
            }
            out.push(v.to_string());
        }
        Ok(out)
    }
    pub fn page(&self) -> Result<(usize, usize), ApiError> {
        let limit = self.int("limit", 50, 1, 500)? as usize;
        let offset = match self.str("cursor") {
            None => 0,
            Some(c) => decode_cursor(c).ok_or_else(|| {
                ApiError::bad(
                    "invalid cursor: pass back exactly the `next_cursor` of a previous answer, or omit it to start over",
                )
            })?,
        };
        Ok((limit, offset))
    }
    pub fn path(&self, k: &str) -> Result<Option<String>, ApiError> {
        match self.str(k) {
            None => Ok(None),
            Some(p) => clean_path(p).map(Some),
        }
    }
}

pub fn clean_path(p: &str) -> Result<String, ApiError> {
    let p = p.trim().trim_start_matches("./");
    if p.starts_with('/') || p.contains('\\') || p.split('/').any(|s| s == "..") || p.contains('\0')
    {
        return Err(ApiError::bad(format!(
            "`{p}` is not a repo-relative path; use `/` separators relative to the repository root, without `..`"
        )));
    }
    Ok(p.to_string())
}

pub fn next_cursor(offset: usize, limit: usize, total: usize) -> Value {
    if offset + limit < total {
        json!(encode_cursor(offset + limit))
    } else {
        Value::Null
    }
}

/// A page of a graph's rows: `{graph, items, total, next_cursor}`.
pub fn page_json(
    graph: Value,
    items: Vec<Value>,
    total: i64,
    offset: usize,
    limit: usize,
) -> Value {
    json!({"graph": graph, "items": items, "total": total, "next_cursor": next_cursor(offset, limit, total as usize)})
}

/// A domain's state, as the HTTP helpers see it.
pub trait Shared: Send + Sync + 'static {
    fn core(&self) -> &Core;
}

impl Shared for Core {
    fn core(&self) -> &Core {
        self
    }
}

/// Runs `f` on a blocking thread once one of the [`Core::blocking_permits`] is free: the one
/// place request work leaves the async threads.
pub async fn on_blocking<S, T, F>(state: Arc<S>, f: F) -> Result<T, ApiError>
where
    S: Shared,
    T: Send + 'static,
    F: FnOnce(&S) -> Result<T, ApiError> + Send + 'static,
{
    let permit = state
        .core()
        .blocking_permits
        .clone()
        .acquire_owned()
        .await
        .map_err(|e| {
            ApiError::from(LiteError::Task(format!("the request queue is closed: {e}")))
        })?;
    tokio::task::spawn_blocking(move || {
        let _permit = permit;
        f(&state)
    })
    .await
    .map_err(|e| ApiError::from(LiteError::Task(e.to_string())))?
}

/// [`on_blocking`], answering the value as JSON with status 200.
pub async fn blocking<S, F>(state: Arc<S>, f: F) -> ApiResult
where
    S: Shared,
    F: FnOnce(&S) -> Result<Value, ApiError> + Send + 'static,
{
    blocking_with(state, StatusCode::OK, f).await
}

/// [`on_blocking`], answering the value as JSON with `status`.
pub async fn blocking_with<S, F>(state: Arc<S>, status: StatusCode, f: F) -> ApiResult
where
    S: Shared,
    F: FnOnce(&S) -> Result<Value, ApiError> + Send + 'static,
{
    let v = on_blocking(state, f).await?;
    Ok((status, Json(v)).into_response())
}

/// The answer to a path no domain serves (behind the token check: it says nothing to a
/// caller without the token).
pub async fn not_found_route(req: Request) -> ApiError {
    ApiError::not_found(format!(
        "no endpoint {} {}; see GET /openapi.json for the API",
        req.method(),
        req.uri().path()
    ))
}

/// The bearer token of a request (`Authorization: Bearer <token>`), if any.
pub fn bearer(headers: &HeaderMap) -> Option<&str> {
    headers
        .get(header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.strip_prefix("Bearer "))
        .map(str::trim)
}

/// Whether `given` is the non-empty `secret`; the comparison takes the same time wherever the
/// first difference is.
pub fn is_secret(given: Option<&str>, secret: &str) -> bool {
    match given {
        Some(t) if !secret.is_empty() => {
            let (a, b) = (t.as_bytes(), secret.as_bytes());
            a.len() == b.len() && a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
        }
        _ => false,
    }
}

/// The 401 answer, saying which token is expected.
pub fn unauthorized(message: impl Into<String>) -> Response {
    ApiError::new(StatusCode::UNAUTHORIZED, "unauthorized", message).into_response()
}

/// The bearer-token check in front of every domain's routes.
pub async fn auth(
    State(core): State<Arc<Core>>,
    headers: HeaderMap,
    req: Request,
    next: Next,
) -> Response {
    if !is_secret(bearer(&headers), &core.token) {
        return unauthorized(
            "missing or wrong bearer token: send `Authorization: Bearer <NEXUS_API_TOKEN>`",
        );
    }
    next.run(req).await
}

async fn healthz() -> Json<Value> {
    Json(json!({"status": "ok", "version": env!("CARGO_PKG_VERSION")}))
}

/// The routes without auth: `GET /healthz` and `GET /openapi.json` (serving `document`).
pub fn public_router(document: String) -> Router {
    let document = axum::body::Bytes::from(document);
    Router::new().route("/healthz", get(healthz)).route(
        "/openapi.json",
        get(move || {
            let document = document.clone();
            async move { ([(header::CONTENT_TYPE, "application/json")], document).into_response() }
        }),
    )
}

/// Adds `col IN (?, ...)` for the values given, if any.
pub fn filter_in(col: &str, vals: Vec<String>, wh: &mut Vec<String>, args: &mut Vec<Sql>) {
    if !vals.is_empty() {
        wh.push(format!("{col} IN ({})", vec!["?"; vals.len()].join(",")));
        args.extend(vals.into_iter().map(Sql::Text));
    }
}

#[allow(clippy::too_many_arguments)]
pub fn count_and_page(
    conn: &Connection,
    table_cols: &str,
    table: &str,
    wh: &[String],
    args: &[Sql],
    order: &str,
    limit: usize,
    offset: usize,
    map: impl Fn(&rusqlite::Row<'_>) -> rusqlite::Result<Value>,
) -> Result<(i64, Vec<Value>), ApiError> {
    let w = wh.join(" AND ");
    let total: i64 = conn.query_row(
        &format!("SELECT COUNT(*) FROM {table} WHERE {w}"),
        rusqlite::params_from_iter(args.iter()),
        |r| r.get(0),
    )?;
    let mut st = conn.prepare(&format!(
        "SELECT {table_cols} FROM {table} WHERE {w} ORDER BY {order} LIMIT {limit} OFFSET {offset}"
    ))?;
    let items = st
        .query_map(rusqlite::params_from_iter(args.iter()), map)?
        .collect::<Result<Vec<_>, _>>()?;
    Ok((total, items))
}

pub fn body(b: Result<Json<Value>, JsonRejection>) -> Result<Value, ApiError> {
    let Json(v) = b.map_err(|e| ApiError::bad(format!("malformed JSON body: {e}")))?;
    if !v.is_object() {
        return Err(ApiError::bad("the JSON body must be an object"));
    }
    Ok(v)
}
