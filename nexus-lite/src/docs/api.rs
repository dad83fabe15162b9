//! The docs domain's HTTP routes (`/api/v1/docs/...`, all GET). Every answer carries
//! `workspace: {name, commitSha, dirty, indexedAt, documents}`, and every request first
//! re-reads what changed in the workspace.

use super::doc::{Doc, Kind};
use super::graph;
use super::ids::IdRules;
use super::index::Index;
use super::resolve::Found;
use super::workspace::{View, Workspace};
use super::{DocsState, criteria};
use crate::core::error::LiteError;
use crate::core::http::{ApiError, Params, Q, next_cursor, on_blocking};
use crate::core::util::decode_cursor;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::{Json, Router};
use nexus_mcp_runtime::error::echo;
use nexus_secrets::markdown as redact;
use serde_json::{Value, json};
use std::sync::Arc;

/// A failed answer: the error, and for an unknown id what its near matches are looked for in
/// once the index lock is released (see [`answer`]). Not an HTTP type: it ends as an [`ApiError`].
struct Failure {
    error: ApiError,
    /// Boxed, as the error's extra fields: a `Result` carrying it stays small.
    near: Option<Box<Near>>,
}

/// What "did you mean" needs, taken from the index (its documents are shared, not copied).
struct Near {
    raw: String,
    docs: Vec<Arc<Doc>>,
    rules: IdRules,
}

/// Ids longer than this get no near matches: no id is (the tools cap them at 200 characters),
/// and comparing a huge one with every document costs seconds.
const MAX_NEAR_ID_CHARS: usize = 200;

impl Failure {
    fn new(status: StatusCode, code: &'static str, message: impl Into<String>) -> Failure {
        Failure::from(ApiError::new(status, code, message))
    }

    /// The error answered, with its near matches (found outside the index lock).
    fn finish(self) -> ApiError {
        let Some(near) = self.near else {
            return self.error;
        };
        let mut error = self.error;
        let found = near_matches(&near.docs, &near.rules, &near.raw);
        let hint = if found.is_empty() {
            String::from("list the ids with list_tasks or search_nodes")
        } else {
            format!(
                "did you mean {}?",
                found
                    .iter()
                    .filter_map(|n| n["id"].as_str())
                    .collect::<Vec<_>>()
                    .join(", ")
            )
        };
        error.message = format!("{}; {hint}", error.message);
        error.with("nearMatches", Value::Array(found))
    }
    fn with(mut self, k: &str, v: Value) -> Failure {
        self.error = self.error.with(k, v);
        self
    }
}

impl From<ApiError> for Failure {
    fn from(error: ApiError) -> Self {
        Failure { error, near: None }
    }
}

type Answer = Result<Value, Failure>;

/// Runs `f` on a blocking thread under one of the core's permits (core's `on_blocking`).
async fn run<F>(s: Arc<DocsState>, f: F) -> Response
where
    F: FnOnce(&DocsState) -> Result<Value, ApiError> + Send + 'static,
{
    match on_blocking(s, f).await {
        Ok(v) => Json(v).into_response(),
        Err(e) => e.into_response(),
    }
}

/// The workspace a request names (`workspace=NAME`; optional when one is served).
fn workspace<'a>(s: &'a DocsState, p: &Params) -> Result<&'a Arc<Workspace>, ApiError> {
    let names = || {
        s.workspaces
            .iter()
            .map(|w| w.name.clone())
            .collect::<Vec<_>>()
    };
    match p.str("workspace") {
        Some(name) => s.workspaces.iter().find(|w| w.name == name).ok_or_else(|| {
            ApiError::new(
                StatusCode::NOT_FOUND,
                "WORKSPACE_NOT_FOUND",
                format!(
                    "no workspace named `{}` is served; served: {}",
                    echo(name),
                    if s.workspaces.is_empty() { "none".to_string() } else { names().join(", ") }
                ),
            )
            .with("workspaces", json!(names()))
        }),
        None => match s.workspaces.as_slice() {
            [one] => Ok(one),
            [] => Err(ApiError::new(
                StatusCode::NOT_FOUND,
                "WORKSPACE_NOT_FOUND",
                "no documentation workspace is served; start the server with --workspace [NAME=]PATH",
            )
            .with("workspaces", json!([]))),
            _ => Err(ApiError::new(
                StatusCode::BAD_REQUEST,
                "WORKSPACE_REQUIRED",
                format!("several workspaces are served; name one with `workspace` (in a resource URI: docugraph://NAME/…): {}", names().join(", ")),
            )
            .with("workspaces", json!(names()))),
        },
    }
}

/// Refreshes the named workspace and answers `f(index)` with `workspace` added.
fn answer(
    s: &DocsState,
    q: Q,
    f: impl FnOnce(&Index, &Params) -> Answer,
) -> Result<Value, ApiError> {
    let p = Params::new(q)?;
    let ws = workspace(s, &p)?;
    let View { index, info, .. } = ws.view();
    let out = f(&index, &p);
    let empty = index.emptiness(&ws.name);
    // Other requests of the workspace wait on this lock: near matches are looked for after.
    drop(index);
    let mut v = match (out, &empty) {
        (Ok(v), _) => v,
        (Err(e), Some(why)) => {
            let mut e = e.error;
            e.message = format!("{}; {why}", e.message);
            return Err(e);
        }
        (Err(e), None) => return Err(e.finish()),
    };
    if let Some(o) = v.as_object_mut() {
        o.insert("workspace".into(), info);
        if let Some(why) = empty {
            match o.get_mut("warnings").and_then(Value::as_array_mut) {
                Some(list) => list.push(json!(why)),
                None => {
                    o.insert("warnings".into(), json!([why]));
                }
            }
        }
    }
    Ok(v)
}

fn param<'a>(p: &'a Params, snake: &str, camel: &str) -> Option<&'a str> {
    p.str(snake).or_else(|| p.str(camel))
}

fn required<'a>(p: &'a Params, snake: &str, camel: &str) -> Result<&'a str, Failure> {
    param(p, snake, camel).ok_or_else(|| {
        Failure::from(ApiError::bad(format!(
            "`{snake}` is required (the id of a document)"
        )))
    })
}

fn int(p: &Params, snake: &str, camel: &str, default: i64, max: i64) -> Result<usize, Failure> {
    let key = if p.str(snake).is_some() { snake } else { camel };
    Ok(p.int(key, default, 0, max)? as usize)
}

/// Finds a document or answers 404 (`not_found_code`, near matches added by
/// [`Failure::finish`]) / 409 AMBIGUOUS. `.` and `..` are refused: as a path segment they
/// would name another route.
fn lookup(
    idx: &Index,
    raw: &str,
    not_found_code: &'static str,
) -> Result<(usize, Option<Value>), Failure> {
    if matches!(raw.trim(), "." | "..") {
        return Err(Failure::from(ApiError::bad(format!(
            "`{}` is not a document id: `.` and `..` name no document; list the ids with list_tasks or search_nodes",
            raw.trim()
        ))));
    }
    match idx.resolved.find(&idx.docs, &idx.rules, raw, None) {
        Found::One(i, alias) => Ok((i, alias.as_ref().map(graph::alias_json))),
        Found::Many(c) => Err(Failure::new(
            StatusCode::CONFLICT,
            "AMBIGUOUS",
            format!(
                "`{}` is the id of {} documents ({}); no one of them is picked: fix the duplicate id, or set lifecycle_precedence in .nexus/docgraph.yaml",
                echo(raw),
                c.len(),
                c.iter().map(|i| idx.docs[*i].path.as_str()).collect::<Vec<_>>().join(", ")
            ),
        )
        .with("candidates", graph::candidates(idx, &c))),
        Found::None => {
            let mut e = Failure::new(
                StatusCode::NOT_FOUND,
                not_found_code,
                format!("no document has the id `{}`", echo(raw)),
            );
            e.near = Some(Box::new(Near {
                raw: raw.to_string(),
                docs: idx.docs.clone(),
                rules: idx.rules.clone(),
            }));
            Err(e)
        }
    }
}

/// Up to five ids close to `raw` (edit distance on the comparison key, same number under
/// another prefix, or the words of a title); none for an id longer than any id can be.
fn near_matches(docs: &[Arc<Doc>], rules: &IdRules, raw: &str) -> Vec<Value> {
    if raw.chars().count() > MAX_NEAR_ID_CHARS {
        return Vec::new();
    }
    let key = rules.key(raw);
    let lower = raw.trim().to_lowercase();
    let number = super::ids::trailing_number(raw).map(str::to_string);
    let mut scored: Vec<(f64, usize)> = docs
        .iter()
        .enumerate()
        .filter_map(|(i, d)| {
            let mut s = strsim::jaro_winkler(&key, &d.key);
            if number.is_some() && super::ids::trailing_number(&d.key) == number.as_deref() {
                s = s.max(0.85);
            }
            if lower.len() >= 3 && d.title.to_lowercase().contains(&lower) {
                s = s.max(0.8);
            }
            (s >= 0.75).then_some((s, i))
        })
        .collect();
    scored.sort_by(|a, b| b.0.total_cmp(&a.0).then(docs[a.1].key.cmp(&docs[b.1].key)));
    scored
        .into_iter()
        .take(5)
        .map(|(_, i)| json!({"id": docs[i].id, "path": docs[i].path, "title": docs[i].title}))
        .collect()
}

async fn workspaces(State(s): State<Arc<DocsState>>) -> Response {
    run(s, |s| {
        let list: Vec<Value> = s
            .workspaces
            .iter()
            .map(|w| {
                // A workspace being indexed says how far it got instead of waiting.
                if let Some(busy) = w.busy() {
                    return busy;
                }
                let v = w.view();
                let mut info = v.info;
                let idx = &v.index;
                info["configFile"] = json!(idx.loaded.file);
                info["configError"] = json!(idx.loaded.error);
                info["defaultPrefix"] = json!(idx.loaded.default_prefix);
                info["defaultPrefixSource"] = json!(idx.loaded.default_prefix_source);
                info["prefixAliases"] = json!(
                    idx.rules
                        .aliases
                        .iter()
                        .map(|(k, (v, implied))| json!({"from": k, "to": v, "implied": implied}))
                        .collect::<Vec<_>>()
                );
                info
            })
            .collect();
        Ok(json!({"workspaces": list}))
    })
    .await
}

/// The `lifecycle` filter: empty (the default) is the live set.
fn lifecycles(p: &Params) -> Result<Vec<String>, Failure> {
    Ok(p.list("lifecycle", &graph::LIFECYCLES)?)
}

fn list(idx: &Index, p: &Params, filtered: bool) -> Answer {
    let (limit, offset) = p.page()?;
    let lifecycles = lifecycles(p)?;
    let types = p.list("type", &[])?;
    let statuses = p.list("status", &[])?;
    let ready = match p.str("ready") {
        None => None,
        Some(_) => Some(p.bool("ready")?),
    };
    let matches = |v: &Option<String>, want: &[String]| {
        want.is_empty()
            || v.as_deref()
                .is_some_and(|x| want.iter().any(|w| w.eq_ignore_ascii_case(x)))
    };
    let work_order = match p.str("order") {
        None | Some("id") => false,
        Some("work") => true,
        Some(other) => {
            return Err(Failure::from(ApiError::bad(format!(
                "unknown order `{other}`; expected `id` (the default) or `work` (started, ready, waiting, no status, then done)"
            ))));
        }
    };
    // `match`: the documents matching the typed text, best first (completions).
    let matcher = p.str("match").map(|t| super::search::Matcher::new(idx, t));
    let mut rows: Vec<usize> = (0..idx.docs.len())
        .filter(|i| matcher.as_ref().is_none_or(|m| m.rank(idx, *i).is_some()))
        .filter(|i| {
            let d = &idx.docs[*i];
            graph::in_lifecycle(d, &lifecycles)
                && (!filtered
                    || matches(&Some(d.doc_type.clone()), &types)
                        && matches(&d.status, &statuses)
                        && ready.is_none_or(|r| graph::readiness(idx, *i).ready == Some(r)))
        })
        .collect();
    if let Some(m) = &matcher {
        rows.sort_by_cached_key(|i| (m.rank(idx, *i), idx.docs[*i].key.clone()));
    } else if work_order {
        // Stable: within a rank, documents keep the index's order (by path).
        rows.sort_by_cached_key(|i| graph::work_rank(idx, *i));
    }
    let total = rows.len();
    let items: Vec<Value> = rows
        .into_iter()
        .skip(offset)
        .take(limit)
        .map(|i| graph::summary(idx, i))
        .collect();
    Ok(json!({"items": items, "total": total, "nextCursor": next_cursor(offset, limit, total)}))
}

async fn nodes(State(s): State<Arc<DocsState>>, q: Q) -> Response {
    run(s, move |s| answer(s, q, |idx, p| list(idx, p, false))).await
}

async fn tasks(State(s): State<Arc<DocsState>>, q: Q) -> Response {
    run(s, move |s| answer(s, q, |idx, p| list(idx, p, true))).await
}

async fn node(State(s): State<Arc<DocsState>>, Path(id): Path<String>, q: Q) -> Response {
    run(s, move |s| {
        answer(s, q, |idx, p| {
            let raw = p.str("raw").is_some() && p.bool("raw")?;
            let (i, alias) = lookup(idx, &id, "NODE_NOT_FOUND")?;
            let d = &idx.docs[i];
            let edges = |list: &[usize], out: bool| -> Vec<Value> {
                list.iter()
                    .map(|e| &idx.resolved.edges[*e])
                    .map(|e| {
                        let other = if out { e.to } else { e.from };
                        json!({"id": idx.docs[other].id, "kind": e.kind.as_str()})
                    })
                    .collect()
            };
            let mut v = json!({
                "node": {
                    "id": d.id, "path": d.path, "type": d.doc_type, "status": d.status,
                    "title": d.title, "lifecycle": d.lifecycle, "idSource": d.id_source,
                    "metadataFile": d.meta_file, "bodyFile": d.body_file,
                    "frontmatter": idx.metadata(d), "markdown": idx.redacted_body(d),
                    "parseError": d.parse_error,
                    "dependsOn": edges(&idx.resolved.out[i], true),
                    "dependedBy": edges(&idx.resolved.inn[i], false),
                },
                "aliasApplied": alias,
            });
            graph::readiness_json(idx, i, &mut v["node"]);
            if raw {
                v["node"]["raw"] = json!(redact::markdown(&idx.raw(d)));
            }
            Ok(v)
        })
    })
    .await
}

async fn search(State(s): State<Arc<DocsState>>, q: Q) -> Response {
    run(s, move |s| {
        answer(s, q, |idx, p| {
            let query = p
                .str("query")
                .or_else(|| p.str("q"))
                .ok_or_else(|| Failure::from(ApiError::bad("`query` is required: words to look for in ids, titles and bodies")))?;
            let limit = p.int("limit", 20, 1, 200)? as usize;
            let types = p.list("type", &[])?;
            let statuses = p.list("status", &[])?;
            let lifecycles = lifecycles(p)?;
            let (items, total) = super::search::search(idx, query, &types, &statuses, &lifecycles, limit);
            Ok(json!({"query": query, "items": items, "total": total, "truncated": total > items.len()}))
        })
    })
    .await
}

async fn context(State(s): State<Arc<DocsState>>, q: Q) -> Response {
    run(s, move |s| {
        answer(s, q, |idx, p| {
            let id = required(p, "task_id", "taskId")?;
            let depth = int(p, "max_depth", "maxDepth", 5, 50)?;
            let offset = match p.str("cursor") {
                None => 0,
                Some(c) => decode_cursor(c).ok_or_else(|| {
                    Failure::from(ApiError::bad("invalid cursor: pass back exactly the `nextCursor` of the previous answer, or omit it to start over"))
                })?,
            };
            let (i, alias) = lookup(idx, id, "TASK_NOT_FOUND")?;
            let alias = json!(alias);
            let page = graph::CONTEXT_PAGE_CHARS.saturating_sub(nexus_mcp_runtime::trim::size(&alias));
            let mut v = graph::context(idx, i, depth, offset, page);
            v["aliasApplied"] = alias;
            Ok(v)
        })
    })
    .await
}

async fn dependency_graph(State(s): State<Arc<DocsState>>, q: Q) -> Response {
    run(s, move |s| {
        answer(s, q, |idx, p| {
            let id = required(p, "node_id", "nodeId")?;
            let depth = int(p, "depth", "depth", 3, 20)?;
            let names: Vec<&str> = Kind::ALL.iter().map(|k| k.as_str()).collect();
            let kinds: Vec<Kind> = match p.list("kinds", &names)? {
                k if k.is_empty() => Kind::ALL.to_vec(),
                k => Kind::ALL
                    .into_iter()
                    .filter(|x| k.iter().any(|n| n == x.as_str()))
                    .collect(),
            };
            let mermaid = match p.list("format", &["json", "mermaid"])?.as_slice() {
                [] => false,
                [one] => one == "mermaid",
                _ => return Err(ApiError::bad("`format` is one of json, mermaid").into()),
            };
            let (i, alias) = lookup(idx, id, "NODE_NOT_FOUND")?;
            let mut v = graph::dependency_graph(idx, i, depth, &kinds, 500);
            if mermaid {
                let chart = super::mermaid::flowchart(&v);
                let o = v.as_object_mut().ok_or_else(|| {
                    ApiError::from(LiteError::Task(
                        "the dependency graph is not an object".into(),
                    ))
                })?;
                o.remove("nodes");
                o.remove("edges");
                o.insert("mermaid".into(), json!(chart));
            }
            v["aliasApplied"] = json!(alias);
            Ok(v)
        })
    })
    .await
}

async fn impact(State(s): State<Arc<DocsState>>, q: Q) -> Response {
    run(s, move |s| {
        answer(s, q, |idx, p| {
            let id = required(p, "task_id", "taskId")?;
            let depth = int(p, "depth", "depth", 5, 50)?;
            let (i, alias) = lookup(idx, id, "TASK_NOT_FOUND")?;
            let mut v = graph::impact(idx, i, depth);
            v["aliasApplied"] = json!(alias);
            Ok(v)
        })
    })
    .await
}

async fn acceptance_criteria(State(s): State<Arc<DocsState>>, q: Q) -> Response {
    run(s, move |s| {
        answer(s, q, |idx, p| {
            let id = required(p, "task_id", "taskId")?;
            let (i, alias) = lookup(idx, id, "TASK_NOT_FOUND")?;
            let d = &idx.docs[i];
            let c = criteria::extract(&idx.body(d), d.body_line, &idx.config().acceptance_criteria);
            let source = d.body_file.clone().unwrap_or_else(|| d.meta_file.clone());
            let items: Vec<Value> = c
                .items
                .iter()
                .map(|it| {
                    json!({
                        "id": format!("AC-{}", it.index), "index": it.index,
                        "text": redact::markdown(&it.text), "checked": it.checked, "mark": it.mark,
                        "group": it.group, "line": it.line, "sourcePath": source, "section": c.section,
                    })
                })
                .collect();
            Ok(json!({"taskId": d.id, "criteria": items, "section": c.section, "warnings": c.warnings, "aliasApplied": alias}))
        })
    })
    .await
}

async fn traceability(State(s): State<Arc<DocsState>>, q: Q) -> Response {
    run(s, move |s| {
        answer(s, q, |idx, p| {
            let query = super::audit::Query::from_params(p)?;
            Ok(super::audit::page(idx, &query))
        })
    })
    .await
}

async fn full_graph(State(s): State<Arc<DocsState>>, q: Q) -> Response {
    run(s, move |s| {
        answer(s, q, |idx, _| {
            let nodes: Vec<Value> = (0..idx.docs.len()).map(|i| graph::summary(idx, i)).collect();
            let edges: Vec<Value> = idx
                .resolved
                .edges
                .iter()
                .map(|e| json!({"from": idx.docs[e.from].id, "to": idx.docs[e.to].id, "kind": e.kind.as_str()}))
                .collect();
            Ok(json!({"nodes": nodes, "edges": edges}))
        })
    })
    .await
}

/// The docs domain's routes (under the bearer-token check `crate::router` adds).
pub fn router(state: Arc<DocsState>) -> Router {
    Router::new()
        .route("/api/v1/docs/workspaces", get(workspaces))
        .route("/api/v1/docs/nodes", get(nodes))
        .route("/api/v1/docs/nodes/{id}", get(node))
        .route("/api/v1/docs/tasks", get(tasks))
        .route("/api/v1/docs/search", get(search))
        .route("/api/v1/docs/context", get(context))
        .route("/api/v1/docs/dependency-graph", get(dependency_graph))
        .route("/api/v1/docs/impact", get(impact))
        .route("/api/v1/docs/acceptance-criteria", get(acceptance_criteria))
        .route("/api/v1/docs/traceability", get(traceability))
        .route("/api/v1/docs/graph", get(full_graph))
        .with_state(state)
}

pub const ROUTES: &[(&str, &str)] = &[
    ("GET", "/api/v1/docs/workspaces"),
    ("GET", "/api/v1/docs/nodes"),
    ("GET", "/api/v1/docs/nodes/{id}"),
    ("GET", "/api/v1/docs/tasks"),
    ("GET", "/api/v1/docs/search"),
    ("GET", "/api/v1/docs/context"),
    ("GET", "/api/v1/docs/dependency-graph"),
    ("GET", "/api/v1/docs/impact"),
    ("GET", "/api/v1/docs/acceptance-criteria"),
    ("GET", "/api/v1/docs/traceability"),
    ("GET", "/api/v1/docs/graph"),
];
