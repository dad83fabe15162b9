//! What changed between two graphs: nodes, edges and findings.

use super::findings::{FINDING_COLS, finding_json};
use super::*;
use crate::code::graph_cache::{load_edges, load_nodes};

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
            let id = p
                .str(k)
                .ok_or_else(|| ApiError::bad(format!("`{k}` is required")))?;
            named_graph(s, &conn, k, id)
        };
        let (bpk, base) = get("base_graph_id")?;
        let (hpk, head) = get("head_graph_id")?;
        let (b, h) = (Shape::load(&conn, bpk)?, Shape::load(&conn, hpk)?);
        let mut cap = Cap {
            limit,
            truncated: false,
        };
        let nodes = diff(&b.nodes, &h.nodes, |s| json!(s), &mut cap);
        let edges = diff(
            &b.edges,
            &h.edges,
            |e| json!({"kind": e.0, "from": e.1, "to": e.2}),
            &mut cap,
        );
        let (counts, items) = findings_diff(&conn, bpk, hpk)?;
        let items = cap.apply(items);
        Ok(json!({
            "base": base,
            "head": head,
            "nodes": nodes,
            "edges": edges,
            "findings": {"counts": counts, "items": items},
            "truncated": cap.truncated,
        }))
    })
    .await
}

/// A graph's nodes (qualified names, the repository node left out) and edges (kind, from,
/// to, by qualified name): what is compared, ids being per graph.
struct Shape {
    nodes: HashSet<String>,
    edges: HashSet<(String, String, String)>,
}

impl Shape {
    fn load(conn: &Connection, gpk: i64) -> Result<Shape, ApiError> {
        let nodes = load_nodes(conn, gpk)?;
        let names: HashMap<i64, &String> = nodes.iter().map(|(id, n)| (*id, &n.qn)).collect();
        let edges = load_edges(conn, gpk)?
            .into_iter()
            .filter_map(|(k, a, b, _)| {
                Some((k, (*names.get(&a)?).clone(), (*names.get(&b)?).clone()))
            })
            .collect();
        let nodes = nodes
            .iter()
            .map(|(_, n)| n)
            .filter(|n| n.kind != "repository")
            .map(|n| n.qn.clone())
            .collect();
        Ok(Shape { nodes, edges })
    }
}

/// At most `limit` items per list; `truncated` says some list was cut.
struct Cap {
    limit: usize,
    truncated: bool,
}

impl Cap {
    fn apply(&mut self, mut v: Vec<Value>) -> Vec<Value> {
        if v.len() > self.limit {
            v.truncate(self.limit);
            self.truncated = true;
        }
        v
    }
}

/// `{added_count, removed_count, added, removed}` from `base` to `head`, sorted.
fn diff<T: Ord + std::hash::Hash>(
    base: &HashSet<T>,
    head: &HashSet<T>,
    show: impl Fn(&T) -> Value,
    cap: &mut Cap,
) -> Value {
    let mut added: Vec<&T> = head.difference(base).collect();
    let mut removed: Vec<&T> = base.difference(head).collect();
    added.sort();
    removed.sort();
    json!({
        "added_count": added.len(),
        "removed_count": removed.len(),
        "added": cap.apply(added.into_iter().map(&show).collect()),
        "removed": cap.apply(removed.into_iter().map(&show).collect()),
    })
}

/// Findings matched by dedupe key: counts per baseline state, and the head's findings (new,
/// updated, then the base's absent ones, then unchanged) each with its `baseline_state`.
fn findings_diff(conn: &Connection, bpk: i64, hpk: i64) -> Result<(Value, Vec<Value>), ApiError> {
    let bf = findings_by_key(conn, bpk)?;
    let hf = findings_by_key(conn, hpk)?;
    let (mut new, mut updated, mut absent, mut unchanged) =
        (Vec::new(), Vec::new(), Vec::new(), Vec::new());
    for (k, f) in &hf {
        let mut f = f.clone();
        match bf.get(k) {
            None => {
                f["baseline_state"] = json!("new");
                new.push(f);
            }
            Some(b) => {
                let same = b["line"] == f["line"]
                    && b["message"] == f["message"]
                    && b["severity"] == f["severity"];
                f["baseline_state"] = json!(if same { "unchanged" } else { "updated" });
                if same {
                    unchanged.push(f)
                } else {
                    updated.push(f)
                }
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
    Ok((counts, items))
}
