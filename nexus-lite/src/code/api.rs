//! The code graph's HTTP handlers (see API.md): graphs, findings, anomalies, file context,
//! impact, compare and regenerations.

use crate::code::engine::{AppState, Repo, Submitted};
use crate::code::index;
use crate::code::secret_spans::{self, SecretSpan};
use crate::code::store::{self, GRAPH_COLS};
use crate::core::error::LiteError;
use crate::core::git;
use crate::core::graph::bounded_bfs;
use crate::core::http::{
    ApiError, ApiResult, Params as P, Q, blocking, body, count_and_page, filter_in, next_cursor,
    page_json,
};
use axum::Json;
use axum::Router;
use axum::extract::rejection::JsonRejection;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::response::IntoResponse;
use axum::routing::{get, post};
use rusqlite::Connection;
use rusqlite::types::Value as Sql;
use serde_json::{Map, Value, json};
use std::borrow::Cow;
use std::collections::{BTreeMap, HashMap, HashSet};
use std::sync::Arc;

const TOOLS: &[&str] = &["nexus_kg", "ruff", "bandit", "osv", "audit_ai", "sarif"];
const SEVERITIES: &[&str] = &["critical", "high", "medium", "low", "info"];
const KINDS: &[&str] = &[
    "parse_error",
    "unresolved_import",
    "import_cycle",
    "skipped_file",
];

fn known_repo<'a>(state: &'a AppState, name: &str) -> Result<&'a Repo, ApiError> {
    state.repo(name).ok_or_else(|| {
        let known: Vec<&str> = state.repos.iter().map(|r| r.name.as_str()).collect();
        ApiError::not_found(format!(
            "unknown repository `{name}`; registered repositories: {}",
            if known.is_empty() {
                "none".to_string()
            } else {
                known.join(", ")
            }
        ))
    })
}

/// Resolves the graph selector (graph_id, else repository + branch).
fn select(state: &AppState, conn: &Connection, p: &P) -> Result<(i64, Value), ApiError> {
    if let Some(id) = p.str("graph_id") {
        let found = store::graph_by_id(conn, id)?.ok_or_else(|| {
            ApiError::not_found(format!(
                "unknown graph_id `{id}`; list graphs with GET /api/v1/graphs?repository=owner/name"
            ))
        })?;
        if let Some(repo) = p.str("repository")
            && found.1["repository"] != repo
        {
            return Err(ApiError::bad(format!(
                "graph {id} belongs to {}, not {repo}; drop `repository` or pick a graph of {repo}",
                found.1["repository"].as_str().unwrap_or("")
            )));
        }
        return Ok(found);
    }
    let name = p.str("repository").ok_or_else(|| {
        ApiError::bad("give `graph_id`, or `repository` (owner/name) with an optional `branch`")
    })?;
    let repo = known_repo(state, name)?;
    let branch = p
        .str("branch")
        .map(str::to_string)
        .unwrap_or_else(|| git::default_branch(&repo.root));
    if let Some(g) = store::latest_ready(conn, name, &branch)? {
        return Ok(g);
    }
    if state.index_on_first_use
        && state.ensure_indexed(repo, &branch)?
        && let Some(g) = store::latest_ready(conn, name, &branch)?
    {
        return Ok(g);
    }
    Err(ApiError::not_found(format!(
        "no ready graph for {name} on branch {branch} yet; run a regeneration first \
         (POST /api/v1/regenerations/plan, then POST /api/v1/regenerations)"
    )))
}

fn require_graph(conn: &Connection, p: &P) -> Result<(i64, Value), ApiError> {
    let id = p
        .str("graph_id")
        .ok_or_else(|| ApiError::bad("`graph_id` is required for this endpoint"))?;
    store::graph_by_id(conn, id)?.ok_or_else(|| {
        ApiError::not_found(format!(
            "unknown graph_id `{id}`; list graphs with GET /api/v1/graphs?repository=owner/name"
        ))
    })
}

/// The code domain's routes (under the bearer-token check `crate::router` adds).
pub fn router(state: Arc<AppState>) -> Router {
    Router::new()
        .route("/api/v1/repositories", get(repositories))
        .route("/api/v1/graphs/select", get(graphs_select))
        .route("/api/v1/graphs", get(graphs_list))
        .route("/api/v1/summary", get(summary))
        .route("/api/v1/findings", get(findings_list))
        .route("/api/v1/findings/{finding_id}", get(finding_get))
        .route("/api/v1/audit-risks", get(audit_risks))
        .route("/api/v1/anomalies", get(anomalies_list))
        .route("/api/v1/anomalies/{anomaly_id}", get(anomaly_get))
        .route("/api/v1/file-context", get(file_context))
        .route("/api/v1/impact", get(impact))
        .route("/api/v1/compare", get(compare))
        .route("/api/v1/regenerations/plan", post(regen_plan))
        .route("/api/v1/regenerations", post(regen_start))
        .route("/api/v1/regenerations/{regeneration_id}", get(regen_get))
        .with_state(state)
}

async fn repositories(State(s): State<Arc<AppState>>) -> ApiResult {
    blocking(s, |s| {
        let conn = s.reader()?;
        let mut items = Vec::new();
        for r in &s.repos {
            let default_branch = git::default_branch(&r.root);
            let mut branches = git::branches(&r.root).unwrap_or_default();
            if branches.is_empty() {
                branches.push(default_branch.clone());
            }
            let latest = match store::latest_ready(&conn, &r.name, &default_branch)? {
                Some(g) => Some(g),
                None => conn
                    .query_row(
                        &format!("SELECT {GRAPH_COLS} FROM graphs WHERE repository=?1 AND status='ready' ORDER BY gpk DESC LIMIT 1"),
                        [&r.name],
                        |row| Ok((0i64, store::graph_json(row)?)),
                    )
                    .ok(),
            };
            items.push(json!({
                "name": r.name,
                "default_branch": default_branch,
                "branches": branches,
                "latest_graph_id": latest.map(|(_, g)| g["graph_id"].clone()),
            }));
        }
        Ok(json!({"items": items}))
    })
    .await
}

async fn graphs_select(State(s): State<Arc<AppState>>, q: Q) -> ApiResult {
    let p = P::new(q)?;
    blocking(s, move |s| {
        let conn = s.reader()?;
        let (_, g) = select(s, &conn, &p)?;
        Ok(json!({"graph": g}))
    })
    .await
}

async fn graphs_list(State(s): State<Arc<AppState>>, q: Q) -> ApiResult {
    let p = P::new(q)?;
    blocking(s, move |s| {
        let (limit, offset) = p.page()?;
        let conn = s.reader()?;
        let mut wh = vec!["1=1".to_string()];
        let mut args: Vec<Sql> = Vec::new();
        if let Some(r) = p.str("repository") {
            known_repo(s, r)?;
            wh.push("repository=?".into());
            args.push(Sql::Text(r.into()));
        }
        if let Some(b) = p.str("branch") {
            wh.push("branch=?".into());
            args.push(Sql::Text(b.into()));
        }
        let (total, items) = count_and_page(
            &conn,
            GRAPH_COLS,
            "graphs",
            &wh,
            &args,
            "gpk DESC",
            limit,
            offset,
            store::graph_json,
        )?;
        Ok(json!({"items": items, "total": total, "next_cursor": next_cursor(offset, limit, total as usize)}))
    })
    .await
}

fn group(conn: &Connection, sql: &str, gpk: i64) -> Result<Map<String, Value>, ApiError> {
    let mut st = conn.prepare(sql)?;
    let mut out = Map::new();
    let rows = st.query_map([gpk], |r| Ok((r.get::<_, String>(0)?, r.get::<_, i64>(1)?)))?;
    for row in rows {
        let (k, n) = row?;
        out.insert(k, json!(n));
    }
    Ok(out)
}

async fn summary(State(s): State<Arc<AppState>>, q: Q) -> ApiResult {
    let p = P::new(q)?;
    blocking(s, move |s| {
        let conn = s.reader()?;
        let (gpk, g) = select(s, &conn, &p)?;
        let mut by_tool: BTreeMap<String, Map<String, Value>> = BTreeMap::new();
        {
            let mut st = conn.prepare(
                "SELECT source_tool, severity, COUNT(*) FROM findings WHERE gpk=?1 GROUP BY 1, 2",
            )?;
            let rows = st.query_map([gpk], |r| {
                Ok((r.get::<_, String>(0)?, r.get::<_, String>(1)?, r.get::<_, i64>(2)?))
            })?;
            for row in rows {
                let (t, sev, n) = row?;
                by_tool.entry(t).or_default().insert(sev, json!(n));
            }
        }
        let analysers: String =
            conn.query_row("SELECT analysers FROM graphs WHERE gpk=?1", [gpk], |r| r.get(0))?;
        Ok(json!({
            "graph": g,
            "nodes_by_kind": group(&conn, "SELECT kind, COUNT(*) FROM nodes WHERE gpk=?1 GROUP BY 1 ORDER BY 1", gpk)?,
            "edges_by_kind": group(&conn, "SELECT kind, COUNT(*) FROM edges WHERE gpk=?1 GROUP BY 1 ORDER BY 1", gpk)?,
            "files_by_language": group(&conn, "SELECT language, COUNT(*) FROM files WHERE gpk=?1 GROUP BY 1 ORDER BY 1", gpk)?,
            "findings_by_tool": by_tool,
            "findings_by_severity": group(&conn, "SELECT severity, COUNT(*) FROM findings WHERE gpk=?1 GROUP BY 1 ORDER BY 1", gpk)?,
            "anomalies_by_kind": group(&conn, "SELECT kind, COUNT(*) FROM anomalies WHERE gpk=?1 GROUP BY 1 ORDER BY 1", gpk)?,
            "analysers": serde_json::from_str::<Value>(&analysers).unwrap_or(json!([])),
        }))
    })
    .await
}

const FINDING_COLS: &str = "finding_id, source_tool, finding_type, rule_id, path, line, end_line, message, severity, confidence, dedupe_key, symbol, rank, rank_reason, category, cluster_key, cluster_size, false_positive_hint";

fn finding_json(r: &rusqlite::Row<'_>, risk: bool) -> rusqlite::Result<Value> {
    let mut v = json!({
        "finding_id": format!("f{}", r.get::<_, i64>(0)?),
        "source_tool": r.get::<_, String>(1)?,
        "finding_type": r.get::<_, String>(2)?,
        "rule_id": r.get::<_, String>(3)?,
        "path": r.get::<_, String>(4)?,
        "line": r.get::<_, Option<i64>>(5)?,
        "end_line": r.get::<_, Option<i64>>(6)?,
        "message": r.get::<_, String>(7)?,
        "severity": r.get::<_, String>(8)?,
        "confidence": r.get::<_, Option<String>>(9)?,
        "dedupe_key": r.get::<_, String>(10)?,
        "symbol": r.get::<_, Option<String>>(11)?,
    });
    if risk {
        let cluster = match (
            r.get::<_, Option<String>>(15)?,
            r.get::<_, Option<i64>>(16)?,
        ) {
            (Some(k), Some(n)) => json!({"key": k, "size": n}),
            _ => Value::Null,
        };
        v["rank"] = json!(r.get::<_, i64>(12)?);
        v["rank_reason"] = json!(r.get::<_, String>(13)?);
        v["category"] = json!(r.get::<_, String>(14)?);
        v["cluster"] = cluster;
        v["false_positive_hint"] = json!(r.get::<_, Option<String>>(17)?);
    }
    Ok(v)
}

/// Adds `path=?` when the `path` parameter is given.
fn filter_path(p: &P, wh: &mut Vec<String>, args: &mut Vec<Sql>) -> Result<(), ApiError> {
    if let Some(path) = p.path("path")? {
        wh.push("path=?".into());
        args.push(Sql::Text(path));
    }
    Ok(())
}

fn finding_filters(p: &P, wh: &mut Vec<String>, args: &mut Vec<Sql>) -> Result<(), ApiError> {
    filter_in("source_tool", p.list("source_tool", TOOLS)?, wh, args);
    filter_in("severity", p.list("severity", SEVERITIES)?, wh, args);
    filter_in("finding_type", p.list("finding_type", &[])?, wh, args);
    filter_in("dedupe_key", p.list("dedupe_key", &[])?, wh, args);
    filter_path(p, wh, args)?;
    if let Some(line) = p.opt_int("line", 1, i64::from(u32::MAX))? {
        wh.push("line=?".into());
        args.push(Sql::Integer(line));
    }
    Ok(())
}

/// A filtered page of one graph's rows (findings, anomalies): `wh` starts with `gpk=?`, which
/// [`GraphList::answer`] binds once the graph is known; `args` bind the filters after it.
struct GraphList {
    wh: Vec<String>,
    args: Vec<Sql>,
    limit: usize,
    offset: usize,
}

impl GraphList {
    fn new(p: &P) -> Result<Self, ApiError> {
        let (limit, offset) = p.page()?;
        Ok(GraphList {
            wh: vec!["gpk=?".to_string()],
            args: Vec::new(),
            limit,
            offset,
        })
    }

    /// Counts and pages the graph's matching rows: `{graph, items, total, next_cursor}`.
    fn answer(
        &self,
        conn: &Connection,
        (gpk, g): (i64, Value),
        cols: &str,
        table: &str,
        order: &str,
        map: impl Fn(&rusqlite::Row<'_>) -> rusqlite::Result<Value>,
    ) -> Result<Value, ApiError> {
        let mut args = self.args.clone();
        args.insert(0, Sql::Integer(gpk));
        let (total, items) = count_and_page(
            conn,
            cols,
            table,
            &self.wh,
            &args,
            order,
            self.limit,
            self.offset,
            map,
        )?;
        Ok(page_json(g, items, total, self.offset, self.limit))
    }
}

async fn findings_list(State(s): State<Arc<AppState>>, q: Q) -> ApiResult {
    let p = P::new(q)?;
    blocking(s, move |s| {
        let mut list = GraphList::new(&p)?;
        finding_filters(&p, &mut list.wh, &mut list.args)?;
        let conn = s.reader()?;
        let graph = select(s, &conn, &p)?;
        list.answer(
            &conn,
            graph,
            FINDING_COLS,
            "findings",
            "sev_order, path, line, finding_id",
            |r| finding_json(r, false),
        )
    })
    .await
}

fn parse_id(raw: &str, prefix: char, what: &str) -> Result<i64, ApiError> {
    raw.strip_prefix(prefix)
        .unwrap_or(raw)
        .parse::<i64>()
        .map_err(|_| {
            ApiError::not_found(format!(
                "unknown {what} id `{raw}`; ids look like `{prefix}12`"
            ))
        })
}

/// One row of a graph's findings or anomalies by its id (`f12`, `a3`), for the `GET .../{id}` endpoints.
struct ById {
    prefix: char,
    /// The singular noun: the answer's key and the id column's stem (`finding` -> `finding_id`).
    what: &'static str,
    cols: &'static str,
    table: &'static str,
}

const FINDING_BY_ID: ById = ById {
    prefix: 'f',
    what: "finding",
    cols: FINDING_COLS,
    table: "findings",
};

const ANOMALY_BY_ID: ById = ById {
    prefix: 'a',
    what: "anomaly",
    cols: ANOMALY_COLS,
    table: "anomalies",
};

impl ById {
    /// `GET /api/v1/<table>/{id}`: `{graph, <what>}`, or 404 naming the id and the graph.
    async fn answer(
        self,
        s: Arc<AppState>,
        id: String,
        q: Q,
        map: fn(&rusqlite::Row<'_>) -> rusqlite::Result<Value>,
    ) -> ApiResult {
        let p = P::new(q)?;
        blocking(s, move |s| self.get(&*s.reader()?, &p, &id, map)).await
    }

    fn get(
        &self,
        conn: &Connection,
        p: &P,
        id: &str,
        map: fn(&rusqlite::Row<'_>) -> rusqlite::Result<Value>,
    ) -> Result<Value, ApiError> {
        use rusqlite::OptionalExtension;
        let ById {
            prefix,
            what,
            cols,
            table,
        } = *self;
        let (gpk, g) = require_graph(conn, p)?;
        let n = parse_id(id, prefix, what)?;
        let item = conn
            .query_row(
                &format!("SELECT {cols} FROM {table} WHERE gpk=?1 AND {what}_id=?2"),
                [gpk, n],
                map,
            )
            .optional()?
            .ok_or_else(|| {
                ApiError::not_found(format!(
                    "no {what} `{id}` in graph {}",
                    g["graph_id"].as_str().unwrap_or("")
                ))
            })?;
        Ok(json!({"graph": g, what: item}))
    }
}

async fn finding_get(State(s): State<Arc<AppState>>, Path(id): Path<String>, q: Q) -> ApiResult {
    FINDING_BY_ID
        .answer(s, id, q, |r| finding_json(r, true))
        .await
}

async fn audit_risks(State(s): State<Arc<AppState>>, q: Q) -> ApiResult {
    let p = P::new(q)?;
    blocking(s, move |s| {
        let mut list = GraphList::new(&p)?;
        finding_filters(&p, &mut list.wh, &mut list.args)?;
        let base_wh = list.wh.clone();
        let base_args = list.args.clone();
        let ranks = p.list("rank", &["1", "2", "3", "4", "5", "6"])?;
        let include_low = p.bool("include_low")?;
        if !ranks.is_empty() {
            list.wh.push(format!("rank IN ({})", ranks.join(",")));
        } else if !include_low {
            list.wh.push("rank <= 4".into());
        }
        let conn = s.reader()?;
        let (gpk, g) = select(s, &conn, &p)?;
        let mut answer = list.answer(
            &conn,
            (gpk, g),
            FINDING_COLS,
            "findings",
            "rank, sev_order, path, line, finding_id",
            |r| finding_json(r, true),
        )?;
        let mut rank_counts = Map::new();
        let mut bargs = base_args;
        bargs.insert(0, Sql::Integer(gpk));
        let mut st = conn.prepare(&format!(
            "SELECT rank, COUNT(*) FROM findings WHERE {} GROUP BY rank ORDER BY rank",
            base_wh.join(" AND ")
        ))?;
        for row in st.query_map(rusqlite::params_from_iter(bargs.iter()), |r| {
            Ok((r.get::<_, i64>(0)?, r.get::<_, i64>(1)?))
        })? {
            let (k, n) = row?;
            rank_counts.insert(k.to_string(), json!(n));
        }
        answer["ranks"] = Value::Object(rank_counts);
        Ok(answer)
    })
    .await
}

fn anomaly_json(r: &rusqlite::Row<'_>) -> rusqlite::Result<Value> {
    let details: String = r.get(6)?;
    Ok(json!({
        "anomaly_id": format!("a{}", r.get::<_, i64>(0)?),
        "kind": r.get::<_, String>(1)?,
        "path": r.get::<_, String>(2)?,
        "line": r.get::<_, Option<i64>>(3)?,
        "message": r.get::<_, String>(4)?,
        "severity": r.get::<_, String>(5)?,
        "details": serde_json::from_str::<Value>(&details).unwrap_or(json!({})),
    }))
}

const ANOMALY_COLS: &str = "anomaly_id, kind, path, line, message, severity, details";

async fn anomalies_list(State(s): State<Arc<AppState>>, q: Q) -> ApiResult {
    let p = P::new(q)?;
    blocking(s, move |s| {
        let mut list = GraphList::new(&p)?;
        filter_in("kind", p.list("kind", KINDS)?, &mut list.wh, &mut list.args);
        filter_path(&p, &mut list.wh, &mut list.args)?;
        let conn = s.reader()?;
        let graph = select(s, &conn, &p)?;
        list.answer(
            &conn,
            graph,
            ANOMALY_COLS,
            "anomalies",
            "anomaly_id",
            anomaly_json,
        )
    })
    .await
}

async fn anomaly_get(State(s): State<Arc<AppState>>, Path(id): Path<String>, q: Q) -> ApiResult {
    ANOMALY_BY_ID.answer(s, id, q, anomaly_json).await
}

async fn file_context(State(s): State<Arc<AppState>>, q: Q) -> ApiResult {
    let p = P::new(q)?;
    blocking(s, move |s| {
        let path = p.path("path")?.ok_or_else(|| ApiError::bad("`path` (repo-relative) is required"))?;
        let line = p.opt_int("line", 1, i64::from(u32::MAX))?;
        let radius = p.int("radius", 8, 0, 40)?;
        let conn = s.reader()?;
        let (gpk, g) = select(s, &conn, &p)?;
        let in_graph: bool = conn.query_row(
            "SELECT COUNT(*) FROM files WHERE gpk=?1 AND path=?2",
            rusqlite::params![gpk, path],
            |r| r.get::<_, i64>(0),
        )? > 0;
        let mut st = conn.prepare(
            "SELECT kind, name, qualified_name, line, end_line, detail FROM nodes WHERE gpk=?1 AND path=?2
             AND kind IN ('class','function','method') ORDER BY line, id",
        )?;
        let symbols: Vec<Value> = st
            .query_map(rusqlite::params![gpk, path], |r| {
                Ok(json!({
                    "kind": r.get::<_, String>(0)?,
                    "name": r.get::<_, String>(1)?,
                    "qualified_name": r.get::<_, String>(2)?,
                    "line": r.get::<_, Option<i64>>(3)?,
                    "end_line": r.get::<_, Option<i64>>(4)?,
                    "detail": r.get::<_, Option<String>>(5)?,
                }))
            })?
            .collect::<Result<_, _>>()?;
        let enclosing = line.and_then(|l| {
            symbols
                .iter()
                .filter(|s| s["line"].as_i64().unwrap_or(i64::MAX) <= l && l <= s["end_line"].as_i64().unwrap_or(0))
                .max_by_key(|s| s["line"].as_i64().unwrap_or(0))
                .cloned()
        });
        let mut st = conn.prepare(
            "SELECT module, resolved_path, external, line FROM imports WHERE gpk=?1 AND path=?2 ORDER BY line",
        )?;
        let imports: Vec<Value> = st
            .query_map(rusqlite::params![gpk, path], |r| {
                Ok(json!({
                    "module": r.get::<_, String>(0)?,
                    "resolved_path": r.get::<_, Option<String>>(1)?,
                    "external": r.get::<_, bool>(2)?,
                    "line": r.get::<_, i64>(3)?,
                }))
            })?
            .collect::<Result<_, _>>()?;
        let mut st = conn.prepare(
            "SELECT DISTINCT path, line FROM imports WHERE gpk=?1 AND resolved_path=?2 AND path<>?2 ORDER BY path, line",
        )?;
        let imported_by: Vec<Value> = st
            .query_map(rusqlite::params![gpk, path], |r| {
                Ok(json!({"path": r.get::<_, String>(0)?, "line": r.get::<_, i64>(1)?}))
            })?
            .collect::<Result<_, _>>()?;
        let mut st = conn.prepare(&format!(
            "SELECT {FINDING_COLS} FROM findings WHERE gpk=?1 AND path=?2 ORDER BY line, sev_order, finding_id"
        ))?;
        let findings: Vec<Value> = st
            .query_map(rusqlite::params![gpk, path], |r| finding_json(r, false))?
            .collect::<Result<_, _>>()?;
        let stored_spans = store::secret_spans(&conn, gpk, &path)?;
        let snippet = g["repository"]
            .as_str()
            .and_then(|r| s.repo(r))
            .zip(g["commit_sha"].as_str())
            .and_then(|(repo, sha)| git::show(&repo.root, sha, &path).ok())
            .and_then(|bytes| {
                let text = String::from_utf8(bytes).ok()?;
                snippet(&text, line, radius, stored_spans)
            });
        Ok(json!({
            "graph": g,
            "path": path,
            "language": index::language_of(&path),
            "in_graph": in_graph,
            "symbols": symbols,
            "enclosing_symbol": enclosing,
            "imports": imports,
            "imported_by": imported_by,
            "findings": findings,
            "snippet": snippet,
        }))
    })
    .await
}

/// The window of `radius` lines around `line` of `text`, every line of a secret span replaced by
/// its marker. The spans are those recorded at index time plus those found in `text` now: the
/// text is read from git at request time and a window that starts inside a key block never
/// shows the block's BEGIN line, so the whole file is what decides.
fn snippet(text: &str, line: Option<i64>, radius: i64, stored: Vec<SecretSpan>) -> Option<Value> {
    let lines: Vec<&str> = text.lines().collect();
    if lines.is_empty() {
        return None;
    }
    let center = line.unwrap_or(1 + radius).max(1) as usize;
    let start = center.saturating_sub(radius as usize).max(1);
    let end = (center + radius as usize).min(lines.len());
    if start > end {
        return None;
    }
    let mut spans = stored;
    spans.extend(secret_spans::detect(text));
    let spans = secret_spans::merge(spans);
    let shown: Vec<Cow<'_, str>> = (start..=end)
        .map(|n| {
            let no = u32::try_from(n).unwrap_or(u32::MAX);
            secret_spans::mask_line(&spans, no, lines[n - 1])
        })
        .collect();
    Some(json!({"start_line": start, "end_line": end, "text": shown.join("\n")}))
}

struct NodeInfo {
    kind: String,
    qn: String,
    path: Option<String>,
}

fn load_nodes(conn: &Connection, gpk: i64) -> Result<HashMap<i64, NodeInfo>, ApiError> {
    let mut st = conn.prepare("SELECT id, kind, qualified_name, path FROM nodes WHERE gpk=?1")?;
    let rows = st.query_map([gpk], |r| {
        Ok((
            r.get::<_, i64>(0)?,
            NodeInfo {
                kind: r.get(1)?,
                qn: r.get(2)?,
                path: r.get(3)?,
            },
        ))
    })?;
    let mut out = HashMap::new();
    for row in rows {
        let (id, n) = row?;
        out.insert(id, n);
    }
    Ok(out)
}

fn load_edges(conn: &Connection, gpk: i64) -> Result<Vec<(String, i64, i64, f64)>, ApiError> {
    let mut st = conn.prepare("SELECT kind, src, dst, confidence FROM edges WHERE gpk=?1")?;
    let rows = st
        .query_map([gpk], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?)))?
        .collect::<Result<Vec<_>, _>>()?;
    Ok(rows)
}

async fn impact(State(s): State<Arc<AppState>>, q: Q) -> ApiResult {
    let p = P::new(q)?;
    blocking(s, move |s| {
        let path = p.path("path")?;
        let symbol = p.str("symbol").map(str::to_string);
        if path.is_none() && symbol.is_none() {
            return Err(ApiError::bad(
                "give `path` and/or `symbol` (qualified name)",
            ));
        }
        let depth = p.int("depth", 3, 1, 6)? as usize;
        let conn = s.reader()?;
        let (gpk, g) = select(s, &conn, &p)?;
        let nodes = load_nodes(&conn, gpk)?;
        let edges = load_edges(&conn, gpk)?;
        let starts = impact_starts(&nodes, path.as_deref(), symbol.as_deref());
        let resolved = !starts.is_empty();
        let found = dependents(&nodes, &edges, &starts, depth);
        let blockers: i64 = conn.query_row(
            "SELECT COUNT(*) FROM anomalies WHERE gpk=?1 AND kind IN ('parse_error','unresolved_import')",
            [gpk],
            |r| r.get(0),
        )?;
        let mut causes = Vec::new();
        if !resolved {
            causes.push(format!(
                "the target was not found in graph {}: check the path and the qualified name (module.Class.method)",
                g["graph_id"].as_str().unwrap_or("")
            ));
        }
        if found.via_calls || symbol.is_some() {
            causes.push("calls are resolved best effort through names and imports; dynamic dispatch, getattr and reflection are not seen".to_string());
        }
        if found.low_confidence {
            causes.push("some call edges were matched by name only (confidence 0.3)".to_string());
        }
        if blockers > 0 {
            causes.push(format!(
                "{blockers} parse errors or unresolved imports in this graph may hide dependents"
            ));
        }
        if found.cut_off {
            causes.push(format!(
                "stopped at depth {depth}; raise `depth` (max 6) to see further"
            ));
        }
        let exact = resolved && causes.is_empty();
        let total = found.total;
        let risk = if !resolved {
            "unknown"
        } else if total == 0 {
            "low"
        } else if total <= 10 {
            "medium"
        } else {
            "high"
        };
        Ok(json!({
            "graph": g,
            "target": {"path": path, "symbol": symbol},
            "resolved": resolved,
            "depth": depth,
            "levels": found.levels,
            "total": total,
            "completeness": if exact { "exact" } else { "lower_bound" },
            "causes": causes,
            "risk": risk,
        }))
    })
    .await
}

/// The nodes an impact query starts from: those of `path` (files and symbols), or those
/// named `symbol` (optionally in `path`).
fn impact_starts(
    nodes: &HashMap<i64, NodeInfo>,
    path: Option<&str>,
    symbol: Option<&str>,
) -> Vec<i64> {
    let mut starts = Vec::new();
    for (id, n) in nodes {
        let path_ok = path.is_none_or(|pp| n.path.as_deref() == Some(pp));
        let sym_ok = match symbol {
            Some(sym) => n.qn == sym && n.kind != "package" && n.kind != "repository",
            None => n.kind == "file" || matches!(n.kind.as_str(), "class" | "function" | "method"),
        };
        if path_ok && sym_ok && n.path.is_some() {
            starts.push(*id);
        }
    }
    starts
}

/// The dependents an impact query found.
struct Dependents {
    /// `[{depth, items: [{path, symbol, via}]}]`, empty levels left out.
    levels: Vec<Value>,
    total: usize,
    via_calls: bool,
    low_confidence: bool,
    cut_off: bool,
}

/// What depends on `starts`, up to `depth` steps back along `imports`, `calls` and `inherits`
/// edges. A file reached brings its symbols along (what depends on them depends on it).
fn dependents(
    nodes: &HashMap<i64, NodeInfo>,
    edges: &[(String, i64, i64, f64)],
    starts: &[i64],
    depth: usize,
) -> Dependents {
    // dependents: dst -> [(src, kind, confidence)]
    let mut rev: HashMap<i64, Vec<(i64, &str, f64)>> = HashMap::new();
    let mut children: HashMap<i64, Vec<i64>> = HashMap::new();
    for (kind, src, dst, conf) in edges {
        match kind.as_str() {
            "imports" | "calls" | "inherits" => {
                rev.entry(*dst)
                    .or_default()
                    .push((*src, kind.as_str(), *conf))
            }
            "defines" | "contains" => children.entry(*src).or_default().push(*dst),
            _ => {}
        }
    }
    let reached = bounded_bfs(
        starts,
        depth,
        |n| {
            rev.get(n)
                .map(Vec::as_slice)
                .unwrap_or(&[])
                .iter()
                .filter(|(src, _, _)| nodes.contains_key(src))
                .map(|(src, kind, conf)| (*src, (*kind, *conf)))
                .collect::<Vec<_>>()
        },
        |m| match nodes.get(m) {
            Some(info) if info.kind == "file" => children.get(m).cloned().unwrap_or_default(),
            _ => Vec::new(),
        },
    );
    let mut out = Dependents {
        levels: Vec::new(),
        total: 0,
        via_calls: false,
        low_confidence: false,
        cut_off: reached.cut_off,
    };
    for (d, level) in reached.levels.iter().enumerate() {
        let mut items = Vec::new();
        let mut reported: HashSet<(Option<String>, &str)> = HashSet::new();
        for (src, (kind, conf)) in level {
            let Some(info) = nodes.get(src) else { continue };
            out.via_calls |= *kind == "calls";
            out.low_confidence |= *conf < 0.5;
            let sym = (info.kind != "file").then(|| info.qn.clone());
            if reported.insert((sym.clone(), kind)) {
                items.push(json!({"path": info.path, "symbol": sym, "via": kind}));
            }
        }
        out.total += items.len();
        if !items.is_empty() {
            out.levels.push(json!({"depth": d + 1, "items": items}));
        }
    }
    out
}

fn findings_by_key(conn: &Connection, gpk: i64) -> Result<BTreeMap<String, Value>, ApiError> {
    let mut st = conn.prepare(&format!("SELECT {FINDING_COLS} FROM findings WHERE gpk=?1"))?;
    let rows = st.query_map([gpk], |r| finding_json(r, false))?;
    let mut out = BTreeMap::new();
    for row in rows {
        let f = row?;
        if let Some(k) = f["dedupe_key"].as_str() {
            out.insert(k.to_string(), f);
        }
    }
    Ok(out)
}

async fn compare(State(s): State<Arc<AppState>>, q: Q) -> ApiResult {
    let p = P::new(q)?;
    blocking(s, move |s| {
        let limit = p.int("limit", 50, 1, 500)? as usize;
        let conn = s.reader()?;
        let get = |k: &str| -> Result<(i64, Value), ApiError> {
            let id = p.str(k).ok_or_else(|| ApiError::bad(format!("`{k}` is required")))?;
            store::graph_by_id(&conn, id)?
                .ok_or_else(|| ApiError::not_found(format!("unknown {k} `{id}`; list graphs with GET /api/v1/graphs")))
        };
        let (bpk, base) = get("base_graph_id")?;
        let (hpk, head) = get("head_graph_id")?;
        let node_set = |gpk: i64| -> Result<(HashMap<i64, String>, HashSet<String>), ApiError> {
            let nodes = load_nodes(&conn, gpk)?;
            let names: HashMap<i64, String> = nodes.iter().map(|(id, n)| (*id, n.qn.clone())).collect();
            let set = nodes
                .values()
                .filter(|n| n.kind != "repository")
                .map(|n| n.qn.clone())
                .collect();
            Ok((names, set))
        };
        let (bnames, bset) = node_set(bpk)?;
        let (hnames, hset) = node_set(hpk)?;
        let edge_set = |gpk: i64, names: &HashMap<i64, String>| -> Result<HashSet<(String, String, String)>, ApiError> {
            Ok(load_edges(&conn, gpk)?
                .into_iter()
                .filter_map(|(k, a, b, _)| Some((k, names.get(&a)?.clone(), names.get(&b)?.clone())))
                .collect())
        };
        let bedges = edge_set(bpk, &bnames)?;
        let hedges = edge_set(hpk, &hnames)?;
        let mut truncated = false;
        let mut cap = |mut v: Vec<Value>| {
            if v.len() > limit {
                v.truncate(limit);
                truncated = true;
            }
            v
        };
        let mut added: Vec<&String> = hset.difference(&bset).collect();
        let mut removed: Vec<&String> = bset.difference(&hset).collect();
        added.sort();
        removed.sort();
        let mut eadded: Vec<&(String, String, String)> = hedges.difference(&bedges).collect();
        let mut eremoved: Vec<&(String, String, String)> = bedges.difference(&hedges).collect();
        eadded.sort();
        eremoved.sort();
        let ej = |e: &&(String, String, String)| json!({"kind": e.0, "from": e.1, "to": e.2});
        let nodes = json!({
            "added_count": added.len(),
            "removed_count": removed.len(),
            "added": cap(added.iter().map(|s| json!(s)).collect()),
            "removed": cap(removed.iter().map(|s| json!(s)).collect()),
        });
        let edges = json!({
            "added_count": eadded.len(),
            "removed_count": eremoved.len(),
            "added": cap(eadded.iter().map(ej).collect()),
            "removed": cap(eremoved.iter().map(ej).collect()),
        });
        let bf = findings_by_key(&conn, bpk)?;
        let hf = findings_by_key(&conn, hpk)?;
        let (mut new, mut updated, mut absent, mut unchanged) = (Vec::new(), Vec::new(), Vec::new(), Vec::new());
        for (k, f) in &hf {
            let mut f = f.clone();
            match bf.get(k) {
                None => {
                    f["baseline_state"] = json!("new");
                    new.push(f);
                }
                Some(b) => {
                    let same = b["line"] == f["line"] && b["message"] == f["message"] && b["severity"] == f["severity"];
                    f["baseline_state"] = json!(if same { "unchanged" } else { "updated" });
                    if same { unchanged.push(f) } else { updated.push(f) }
                }
            }
        }
        for (k, f) in &bf {
            if !hf.contains_key(k) {
                let mut f = f.clone();
                f["baseline_state"] = json!("absent");
                absent.push(f);
            }
        }
        let counts = json!({"new": new.len(), "unchanged": unchanged.len(), "updated": updated.len(), "absent": absent.len()});
        let mut items: Vec<Value> = Vec::new();
        items.extend(new);
        items.extend(updated);
        items.extend(absent);
        items.extend(unchanged);
        let items = cap(items);
        Ok(json!({
            "base": base,
            "head": head,
            "nodes": nodes,
            "edges": edges,
            "findings": {"counts": counts, "items": items},
            "truncated": truncated,
        }))
    })
    .await
}

async fn regen_plan(
    State(s): State<Arc<AppState>>,
    b: Result<Json<Value>, JsonRejection>,
) -> ApiResult {
    let v = body(b)?;
    blocking(s, move |s| {
        let name = v["repository"]
            .as_str()
            .ok_or_else(|| ApiError::bad("`repository` (owner/name) is required in the body"))?;
        let branch = match &v["branch"] {
            Value::Null => None,
            Value::String(b) if !b.is_empty() => Some(b.clone()),
            _ => {
                return Err(ApiError::bad(
                    "`branch` must be a non-empty string when given",
                ));
            }
        };
        let repo = known_repo(s, name)?;
        let plan = s.make_plan(repo, branch.as_deref())?;
        Ok(plan.json)
    })
    .await
}

async fn regen_start(
    State(s): State<Arc<AppState>>,
    b: Result<Json<Value>, JsonRejection>,
) -> ApiResult {
    let v = body(b)?;
    let state = s.clone();
    let regen = tokio::task::spawn_blocking(move || -> Result<crate::code::engine::Regen, ApiError> {
        let plan_id = v["plan_id"]
            .as_str()
            .ok_or_else(|| ApiError::bad("`plan_id` is required in the body (from POST /api/v1/regenerations/plan)"))?;
        let allow_dirty = match &v["allow_dirty"] {
            Value::Null => false,
            Value::Bool(b) => *b,
            _ => return Err(ApiError::bad("`allow_dirty` must be a boolean")),
        };
        let unknown = || {
            ApiError::not_found(format!(
                "unknown plan_id `{plan_id}`; create a plan with POST /api/v1/regenerations/plan"
            ))
        };
        let used = || {
            ApiError::not_found(format!(
                "plan_id `{plan_id}` was already used (plans are single use); create a new plan with POST /api/v1/regenerations/plan"
            ))
        };
        let expired = || {
            ApiError::conflict(
                "plan_expired",
                "the plan expired (plans live 15 minutes); create a new plan",
            )
        };
        let plan = s.load_plan(plan_id)?.ok_or_else(unknown)?;
        if plan.used {
            return Err(used());
        }
        if plan.expires_at <= s.clock.now() {
            return Err(expired());
        }
        if plan.ambiguous {
            return Err(ApiError::conflict(
                "ambiguous_target",
                format!("the plan is ambiguous: {}", plan.ambiguity_reason.clone().unwrap_or_default()),
            ));
        }
        let repo = known_repo(&s, &plan.repository)?;
        let head = git::head_sha(&repo.root)?;
        let branch = git::current_branch(&repo.root)?;
        let dirty = git::dirty_files(&repo.root)?;
        if head != plan.head_sha
            || branch != plan.current_branch
            || crate::code::engine::dirty_fingerprint(&dirty) != plan.dirty_fingerprint
        {
            return Err(ApiError::conflict(
                "plan_stale",
                "HEAD, the branch or the set of dirty files changed since the plan; create a new plan",
            ));
        }
        if !dirty.is_empty() && !allow_dirty {
            return Err(ApiError::conflict(
                "dirty_not_allowed",
                format!(
                    "the work tree has {} uncommitted file(s) ({}); commit or stash them, or pass allow_dirty: true",
                    dirty.len(),
                    dirty.iter().take(5).cloned().collect::<Vec<_>>().join(", ")
                ),
            ));
        }
        {
            let mut running = s.running.lock().map_err(|_| LiteError::Task("lock poisoned".into()))?;
            if !running.insert(plan.repository.clone()) {
                return Err(ApiError::conflict(
                    "regeneration_running",
                    format!("a regeneration of {} is already running; wait for it (GET /api/v1/regenerations/{{id}})", plan.repository),
                ));
            }
        }
        let started = s.start_regen(&plan);
        if !matches!(started, Ok(Submitted::Started(_)))
            && let Ok(mut running) = s.running.lock()
        {
            running.remove(&plan.repository);
        }
        match started? {
            Submitted::Started(r) => Ok(r),
            Submitted::AlreadyUsed => Err(used()),
            Submitted::Expired => Err(expired()),
            Submitted::Unknown => Err(unknown()),
        }
    })
    .await
    .map_err(|e| ApiError::from(LiteError::Task(e.to_string())))??;
    let id = regen.regeneration_id.clone();
    let st = state.clone();
    let plan_repo = plan_repo_of(&state, &id);
    tokio::task::spawn_blocking(move || {
        let result = match plan_repo.as_deref().and_then(|n| st.repo(n)) {
            Some(repo) => st.index_now(repo, Some(&id)),
            None => Err(LiteError::Task(
                "the plan's repository is no longer registered".into(),
            )),
        };
        st.finish_regen(&id, &result);
        if let (Some(n), Ok(mut running)) = (plan_repo, st.running.lock()) {
            running.remove(&n);
        }
    });
    Ok((StatusCode::ACCEPTED, Json(regen.to_json())).into_response())
}

fn plan_repo_of(state: &AppState, regen_id: &str) -> Option<String> {
    let conn = state.reader().ok()?;
    conn.query_row(
        "SELECT repository FROM regenerations WHERE regeneration_id=?1",
        [regen_id],
        |r| r.get(0),
    )
    .ok()
}

async fn regen_get(State(s): State<Arc<AppState>>, Path(id): Path<String>) -> ApiResult {
    blocking(s, move |s| {
        s.regen_json(&id)?.ok_or_else(|| {
            ApiError::not_found(format!(
                "unknown regeneration `{id}`; start one with POST /api/v1/regenerations"
            ))
        })
    })
    .await
}
