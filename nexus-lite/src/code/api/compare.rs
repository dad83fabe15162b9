//! What changed between two graphs: nodes, edges and findings.

use super::findings::{FINDING_COLS, finding_json};
use super::impact::{load_edges, load_nodes};
use super::*;

pub(super) fn findings_by_key(
    conn: &Connection,
    gpk: i64,
) -> Result<BTreeMap<String, Value>, ApiError> {
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

pub(super) async fn compare(State(s): State<Arc<AppState>>, q: Q) -> ApiResult {
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
