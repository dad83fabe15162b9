//! Findings, audit risks and anomalies of a graph: filtered pages and single rows.

use super::*;

pub(super) const TOOLS: &[&str] = &["nexus_kg", "ruff", "bandit", "osv", "audit_ai", "sarif"];
pub(super) const SEVERITIES: &[&str] = &["critical", "high", "medium", "low", "info"];
pub(super) const KINDS: &[&str] = &[
    "parse_error",
    "unresolved_import",
    "import_cycle",
    "skipped_file",
    "dynamic_use",
];

pub(super) const FINDING_COLS: &str = "finding_id, source_tool, finding_type, rule_id, path, line, end_line, message, severity, confidence, dedupe_key, symbol, rank, rank_reason, category, cluster_key, cluster_size, false_positive_hint";

pub(super) fn finding_json(r: &rusqlite::Row<'_>, risk: bool) -> rusqlite::Result<Value> {
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
pub(super) fn filter_path(
    p: &P,
    wh: &mut Vec<String>,
    args: &mut Vec<Sql>,
) -> Result<(), ApiError> {
    if let Some(path) = p.path("path")? {
        wh.push("path=?".into());
        args.push(Sql::Text(path));
    }
    Ok(())
}

pub(super) fn finding_filters(
    p: &P,
    wh: &mut Vec<String>,
    args: &mut Vec<Sql>,
) -> Result<(), ApiError> {
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
pub(super) struct GraphList {
    pub(super) wh: Vec<String>,
    pub(super) args: Vec<Sql>,
    pub(super) limit: usize,
    pub(super) offset: usize,
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

pub(super) async fn findings_list(State(s): State<Arc<AppState>>, q: Q) -> ApiResult {
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

pub(super) fn parse_id(raw: &str, prefix: char, what: &str) -> Result<i64, ApiError> {
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
pub(super) struct ById {
    pub(super) prefix: char,
    /// The singular noun: the answer's key and the id column's stem (`finding` -> `finding_id`).
    pub(super) what: &'static str,
    pub(super) cols: &'static str,
    pub(super) table: &'static str,
}

pub(super) const FINDING_BY_ID: ById = ById {
    prefix: 'f',
    what: "finding",
    cols: FINDING_COLS,
    table: "findings",
};

pub(super) const ANOMALY_BY_ID: ById = ById {
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
        blocking(s, move |s| self.get(s, &*s.reader()?, &p, &id, map)).await
    }

    fn get(
        &self,
        s: &AppState,
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
        let (gpk, g) = require_graph(s, conn, p)?;
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

pub(super) async fn finding_get(
    State(s): State<Arc<AppState>>,
    Path(id): Path<String>,
    q: Q,
) -> ApiResult {
    FINDING_BY_ID
        .answer(s, id, q, |r| finding_json(r, true))
        .await
}

pub(super) async fn audit_risks(State(s): State<Arc<AppState>>, q: Q) -> ApiResult {
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

pub(super) fn anomaly_json(r: &rusqlite::Row<'_>) -> rusqlite::Result<Value> {
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

pub(super) const ANOMALY_COLS: &str = "anomaly_id, kind, path, line, message, severity, details";

pub(super) async fn anomalies_list(State(s): State<Arc<AppState>>, q: Q) -> ApiResult {
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

pub(super) async fn anomaly_get(
    State(s): State<Arc<AppState>>,
    Path(id): Path<String>,
    q: Q,
) -> ApiResult {
    ANOMALY_BY_ID.answer(s, id, q, anomaly_json).await
}
