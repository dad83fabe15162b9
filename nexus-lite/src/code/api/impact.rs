//! What depends on a file or symbol, up to a depth.

use super::*;

pub(super) struct NodeInfo {
    pub(super) kind: String,
    pub(super) qn: String,
    pub(super) path: Option<String>,
}

pub(super) fn load_nodes(conn: &Connection, gpk: i64) -> Result<HashMap<i64, NodeInfo>, ApiError> {
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

pub(super) fn load_edges(
    conn: &Connection,
    gpk: i64,
) -> Result<Vec<(String, i64, i64, f64)>, ApiError> {
    let mut st = conn.prepare("SELECT kind, src, dst, confidence FROM edges WHERE gpk=?1")?;
    let rows = st
        .query_map([gpk], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?)))?
        .collect::<Result<Vec<_>, _>>()?;
    Ok(rows)
}

pub(super) async fn impact(State(s): State<Arc<AppState>>, q: Q) -> ApiResult {
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
pub(super) fn impact_starts(
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
pub(super) struct Dependents {
    /// `[{depth, items: [{path, symbol, via}]}]`, empty levels left out.
    pub(super) levels: Vec<Value>,
    pub(super) total: usize,
    pub(super) via_calls: bool,
    pub(super) low_confidence: bool,
    pub(super) cut_off: bool,
}

/// What depends on `starts`, up to `depth` steps back along `imports`, `calls` and `inherits`
/// edges. A file reached brings its symbols along (what depends on them depends on it).
pub(super) fn dependents(
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
