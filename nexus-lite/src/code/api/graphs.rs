//! Repositories, graph selection and listing, and a graph's summary.

use super::*;

pub(super) async fn repositories(State(s): State<Arc<AppState>>) -> ApiResult {
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

pub(super) async fn graphs_select(State(s): State<Arc<AppState>>, q: Q) -> ApiResult {
    let p = P::new(q)?;
    blocking(s, move |s| {
        let conn = s.reader()?;
        let (_, g) = select(s, &conn, &p)?;
        Ok(json!({"graph": g}))
    })
    .await
}

pub(super) async fn graphs_list(State(s): State<Arc<AppState>>, q: Q) -> ApiResult {
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

pub(super) fn group(
    conn: &Connection,
    sql: &str,
    gpk: i64,
) -> Result<Map<String, Value>, ApiError> {
    let mut st = conn.prepare(sql)?;
    let mut out = Map::new();
    let rows = st.query_map([gpk], |r| Ok((r.get::<_, String>(0)?, r.get::<_, i64>(1)?)))?;
    for row in rows {
        let (k, n) = row?;
        out.insert(k, json!(n));
    }
    Ok(out)
}

pub(super) async fn summary(State(s): State<Arc<AppState>>, q: Q) -> ApiResult {
    let p = P::new(q)?;
    blocking(s, move |s| {
        let conn = s.reader()?;
        let (gpk, g) = select(s, &conn, &p)?;
        let (analysers, stats): (String, String) = conn.query_row(
            "SELECT analysers, stats FROM graphs WHERE gpk=?1",
            [gpk],
            |r| Ok((r.get(0)?, r.get(1)?)),
        )?;
        let counts = match serde_json::from_str::<Value>(&stats) {
            Ok(Value::Object(mut m)) => match m.remove(store::SUMMARY_KEY) {
                Some(Value::Object(c)) => c,
                _ => summary_counts(&conn, gpk)?,
            },
            _ => summary_counts(&conn, gpk)?,
        };
        let mut out = Map::new();
        out.insert("graph".into(), g);
        out.extend(counts);
        out.insert(
            "analysers".into(),
            serde_json::from_str::<Value>(&analysers).unwrap_or(json!([])),
        );
        Ok(Value::Object(out))
    })
    .await
}

/// The summary's counts of a graph written before they were stored with it.
fn summary_counts(conn: &Connection, gpk: i64) -> Result<Map<String, Value>, ApiError> {
    let mut by_tool: BTreeMap<String, Map<String, Value>> = BTreeMap::new();
    {
        let mut st = conn.prepare(
            "SELECT source_tool, severity, COUNT(*) FROM findings WHERE gpk=?1 GROUP BY 1, 2",
        )?;
        let rows = st.query_map([gpk], |r| {
            Ok((
                r.get::<_, String>(0)?,
                r.get::<_, String>(1)?,
                r.get::<_, i64>(2)?,
            ))
        })?;
        for row in rows {
            let (t, sev, n) = row?;
            by_tool.entry(t).or_default().insert(sev, json!(n));
        }
    }
    let count = |column: &str, table: &str| -> Result<Value, ApiError> {
        let sql =
            format!("SELECT {column}, COUNT(*) FROM {table} WHERE gpk=?1 GROUP BY 1 ORDER BY 1");
        Ok(Value::Object(group(conn, &sql, gpk)?))
    };
    // In the order answers have always listed them.
    let mut out = Map::new();
    out.insert("nodes_by_kind".into(), count("kind", "nodes")?);
    out.insert("edges_by_kind".into(), count("kind", "edges")?);
    out.insert("files_by_language".into(), count("language", "files")?);
    out.insert("findings_by_tool".into(), json!(by_tool));
    out.insert(
        "findings_by_severity".into(),
        count("severity", "findings")?,
    );
    out.insert("anomalies_by_kind".into(), count("kind", "anomalies")?);
    Ok(out)
}
