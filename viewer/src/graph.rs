//! A neighbourhood of the dependency graph drawn as SVG on the server, so the page needs no
//! script: the node in the middle, what it depends on in columns to its left (one per hop),
//! what depends on it to its right. Edges of a cycle and their nodes carry the `cycle` class.

use serde::Serialize;
use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet};

const BOX_W: i64 = 210;
const BOX_H: i64 = 46;
const COL_W: i64 = 270;
const ROW_H: i64 = 60;
const MARGIN: i64 = 12;
/// Characters of a title shown inside a box (the whole title is its tooltip).
const TITLE_CHARS: usize = 30;

#[derive(Serialize)]
pub struct Drawing {
    pub width: i64,
    pub height: i64,
    pub nodes: Vec<NodeBox>,
    pub edges: Vec<Edge>,
}

#[derive(Serialize)]
pub struct NodeBox {
    pub id: String,
    pub label: String,
    pub title: String,
    pub state: &'static str,
    pub center: bool,
    pub cycle: bool,
    pub x: i64,
    pub y: i64,
}

#[derive(Serialize)]
pub struct Edge {
    pub path: String,
    pub kind: String,
    pub cycle: bool,
}

/// What a node looks like: done, archived, draft, blocked or ready.
pub fn state(node: &Value) -> &'static str {
    let text = |k: &str| node.get(k).and_then(Value::as_str).unwrap_or_default();
    let lifecycle = text("lifecycle").to_ascii_lowercase();
    let status = text("status").to_ascii_lowercase();
    if lifecycle == "archived" {
        "archived"
    } else if lifecycle == "draft" || text("type") == "draft" {
        "draft"
    } else if matches!(status.as_str(), "done" | "completed" | "closed") {
        "done"
    } else if node.get("ready").and_then(Value::as_bool) == Some(true) {
        "ready"
    } else if node.get("ready").and_then(Value::as_bool) == Some(false) {
        "blocked"
    } else {
        "other"
    }
}

/// Lays out a `/api/v1/docs/dependency-graph` answer centred on its `nodeId`.
pub fn draw(graph: &Value) -> Drawing {
    let center = graph
        .get("nodeId")
        .and_then(Value::as_str)
        .unwrap_or_default()
        .to_owned();
    let empty = Vec::new();
    let list = |k: &str| graph.get(k).and_then(Value::as_array).unwrap_or(&empty);
    let id_of = |v: &Value, k: &str| v.get(k).and_then(Value::as_str).map(str::to_owned);

    // Side of each node: left when reached along depends_on, right along depended_by.
    let mut upstream = BTreeSet::new();
    for e in list("edges") {
        if e.get("direction").and_then(Value::as_str) != Some("depended_by")
            && let Some(to) = id_of(e, "to")
        {
            upstream.insert(to);
        }
    }
    let (cycle_nodes, cycle_edges) = cycles(graph);

    let mut columns: BTreeMap<i64, Vec<&Value>> = BTreeMap::new();
    for node in list("nodes") {
        let Some(id) = id_of(node, "id") else {
            continue;
        };
        let depth = node.get("depth").and_then(Value::as_i64).unwrap_or(0);
        let col = if id == center {
            0
        } else if upstream.contains(&id) {
            -depth.max(1)
        } else {
            depth.max(1)
        };
        columns.entry(col).or_default().push(node);
    }
    let min_col = columns.keys().next().copied().unwrap_or(0);
    let mut at: BTreeMap<String, (i64, i64)> = BTreeMap::new();
    let mut nodes = Vec::new();
    let mut rows = 0;
    for (col, members) in &mut columns {
        members.sort_by_key(|n| id_of(n, "id"));
        rows = rows.max(members.len());
        for (row, node) in members.iter().enumerate() {
            let id = id_of(node, "id").unwrap_or_default();
            let x = MARGIN + (col - min_col) * COL_W;
            let y = MARGIN + i64::try_from(row).unwrap_or(0) * ROW_H;
            at.insert(id.clone(), (x, y));
            let title = node
                .get("title")
                .and_then(Value::as_str)
                .unwrap_or_default()
                .to_owned();
            nodes.push(NodeBox {
                label: short(&title),
                title,
                state: state(node),
                center: id == center,
                cycle: cycle_nodes.contains(&id),
                x,
                y,
                id,
            });
        }
    }
    let edges = list("edges")
        .iter()
        .filter_map(|e| {
            let (from, to) = (id_of(e, "from")?, id_of(e, "to")?);
            let (a, b) = (*at.get(&from)?, *at.get(&to)?);
            Some(Edge {
                path: curve(a, b),
                kind: id_of(e, "kind").unwrap_or_default(),
                cycle: cycle_edges.contains(&(from, to)),
            })
        })
        .collect();
    let cols = columns.len().max(1);
    Drawing {
        width: 2 * MARGIN + i64::try_from(cols).unwrap_or(1) * COL_W - (COL_W - BOX_W),
        height: 2 * MARGIN + i64::try_from(rows.max(1)).unwrap_or(1) * ROW_H - (ROW_H - BOX_H),
        nodes,
        edges,
    }
}

/// The nodes and directed edges on the answer's cycles (each a shortest cycle path).
fn cycles(graph: &Value) -> (BTreeSet<String>, BTreeSet<(String, String)>) {
    let mut nodes = BTreeSet::new();
    let mut edges = BTreeSet::new();
    let cycles = graph.get("cycles").and_then(Value::as_array);
    for cycle in cycles.into_iter().flatten() {
        let ids: Vec<String> = cycle
            .get("pathIds")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .filter_map(|v| v.as_str().map(str::to_owned))
            .collect();
        for pair in ids.windows(2) {
            edges.insert((pair[0].clone(), pair[1].clone()));
        }
        if let (Some(first), Some(last)) = (ids.first(), ids.last())
            && first != last
        {
            edges.insert((last.clone(), first.clone()));
        }
        nodes.extend(ids);
    }
    for self_loop in graph
        .get("selfLoops")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
    {
        if let Some(id) = self_loop.get("id").and_then(Value::as_str) {
            nodes.insert(id.to_owned());
            edges.insert((id.to_owned(), id.to_owned()));
        }
    }
    (nodes, edges)
}

/// An edge from box `a` to box `b` (top-left corners): side to side, or around on the right
/// within a column.
fn curve((ax, ay): (i64, i64), (bx, by): (i64, i64)) -> String {
    let (amid, bmid) = (ay + BOX_H / 2, by + BOX_H / 2);
    if ax == bx {
        let x = ax + BOX_W;
        return format!(
            "M{x},{amid} C{},{amid} {},{bmid} {x},{bmid}",
            x + 40,
            x + 40
        );
    }
    let (sx, ex) = if ax > bx {
        (ax, bx + BOX_W)
    } else {
        (ax + BOX_W, bx)
    };
    let mid = (sx + ex) / 2;
    format!("M{sx},{amid} C{mid},{amid} {mid},{bmid} {ex},{bmid}")
}

fn short(title: &str) -> String {
    if title.chars().count() <= TITLE_CHARS {
        return title.to_owned();
    }
    let mut s: String = title.chars().take(TITLE_CHARS - 1).collect();
    s.push('…');
    s
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn dependencies_go_left_dependents_right_and_cycles_are_marked() {
        let graph = json!({
            "nodeId": "B",
            "nodes": [
                {"id": "A", "title": "a", "depth": 1, "ready": true},
                {"id": "B", "title": "b", "depth": 0},
                {"id": "C", "title": "c", "depth": 1, "status": "Done"},
            ],
            "edges": [
                {"from": "B", "to": "A", "kind": "depends_on", "direction": "depends_on"},
                {"from": "C", "to": "B", "kind": "depends_on", "direction": "depended_by"},
                {"from": "A", "to": "B", "kind": "depends_on", "direction": "depended_by"},
            ],
            "cycles": [{"pathIds": ["A", "B", "A"]}],
        });
        let d = draw(&graph);
        let x = |id: &str| d.nodes.iter().find(|n| n.id == id).unwrap().x;
        assert!(x("A") < x("B") && x("B") < x("C"));
        let cyc: Vec<bool> = d.edges.iter().map(|e| e.cycle).collect();
        assert_eq!(cyc, [true, false, true]);
        assert!(d.nodes.iter().find(|n| n.id == "A").unwrap().cycle);
        assert!(!d.nodes.iter().find(|n| n.id == "C").unwrap().cycle);
        assert_eq!(d.nodes.iter().find(|n| n.id == "C").unwrap().state, "done");
    }
}
