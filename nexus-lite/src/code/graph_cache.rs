//! Ready graphs' nodes and dependency edges in memory, shared across requests: an impact query
//! walks only what it reaches instead of reading every node and edge of the graph (~150 ms per
//! call on a million-line graph). A ready graph never changes, so an entry is valid for as long
//! as it is kept; the least recently used one is dropped when a new graph is asked for. The
//! graph model it holds (nodes, adjacency, dynamic uses) lives here too: the engine keeps the
//! cache without importing the HTTP handlers that read it (impact, compare).

use crate::core::http::ApiError;
use rusqlite::Connection;
use rustc_hash::FxHashMap;
use serde_json::Value;
use std::collections::BTreeMap;
use std::sync::{Arc, Mutex};

/// One graph as the impact traversal reads it.
pub(crate) struct CachedGraph {
    pub(crate) nodes: Nodes,
    /// Node ids in (path, id) and (qualified name, id) order, to find a query's targets.
    by_path: Vec<i64>,
    by_name: Vec<i64>,
    pub(crate) adjacency: Adjacency,
    /// Parse errors and unresolved imports: they may hide dependents.
    pub(crate) blockers: i64,
    pub(crate) dynamic: DynamicUses,
}

/// A graph's nodes by id. Fx hashing: the keys are our own row ids, and the impact traversal
/// looks up several per edge it walks (SipHash was most of its time on a 15k-item answer).
pub(crate) type Nodes = FxHashMap<i64, NodeInfo>;

pub(crate) struct NodeInfo {
    pub(crate) kind: String,
    pub(crate) qn: String,
    pub(crate) path: Option<String>,
    /// Place in the graph's (path, symbol) order, set by the graph cache: answers sort on it
    /// instead of comparing strings. Equal (path, symbol) pairs share a rank.
    pub(crate) rank: u32,
}

impl NodeInfo {
    /// The symbol an item names: none for a file itself.
    pub(crate) fn symbol(&self) -> Option<&str> {
        (self.kind != "file").then_some(self.qn.as_str())
    }
}

/// Gives every node its rank in (path, symbol) order.
pub(crate) fn rank_nodes(nodes: &mut Nodes) {
    let mut order: Vec<(Option<&str>, Option<&str>, i64)> = nodes
        .iter()
        .map(|(id, n)| (n.path.as_deref(), n.symbol(), *id))
        .collect();
    order.sort_unstable();
    let mut ranks = Vec::with_capacity(order.len());
    let (mut rank, mut prev) = (0u32, None);
    for (path, symbol, id) in order {
        if prev.is_some_and(|p| p != (path, symbol)) {
            rank += 1;
        }
        prev = Some((path, symbol));
        ranks.push((id, rank));
    }
    for (id, rank) in ranks {
        if let Some(n) = nodes.get_mut(&id) {
            n.rank = rank;
        }
    }
}

pub(crate) fn load_nodes(conn: &Connection, gpk: i64) -> Result<Nodes, ApiError> {
    let mut st = conn.prepare("SELECT id, kind, qualified_name, path FROM nodes WHERE gpk=?1")?;
    let rows = st.query_map([gpk], |r| {
        Ok((
            r.get::<_, i64>(0)?,
            NodeInfo {
                kind: r.get(1)?,
                qn: r.get(2)?,
                path: r.get(3)?,
                rank: 0,
            },
        ))
    })?;
    let mut out = Nodes::default();
    for row in rows {
        let (id, n) = row?;
        out.insert(id, n);
    }
    Ok(out)
}

pub(crate) fn load_edges(
    conn: &Connection,
    gpk: i64,
) -> Result<Vec<(String, i64, i64, f64)>, ApiError> {
    let mut st = conn.prepare(
        "SELECT kind, src, dst, confidence FROM edges WHERE gpk=?1 ORDER BY src, dst, kind",
    )?;
    let rows = st
        .query_map([gpk], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?)))?
        .collect::<Result<Vec<_>, _>>()?;
    Ok(rows)
}

/// The `dynamic_use` anomalies of a graph: per kind (`import`, `getattr`, `globals`), the
/// locations (path:line) in path and line order.
pub(crate) struct DynamicUses(pub(crate) BTreeMap<String, Vec<String>>);

impl DynamicUses {
    pub(crate) fn load(conn: &Connection, gpk: i64) -> Result<DynamicUses, ApiError> {
        let mut st = conn.prepare(
            "SELECT path, details FROM anomalies WHERE gpk=?1 AND kind='dynamic_use' ORDER BY path",
        )?;
        let rows = st
            .query_map([gpk], |r| {
                Ok((r.get::<_, String>(0)?, r.get::<_, String>(1)?))
            })?
            .collect::<Result<Vec<_>, _>>()?;
        let mut out: BTreeMap<String, Vec<String>> = BTreeMap::new();
        for (path, details) in rows {
            let Ok(Value::Object(kinds)) = serde_json::from_str::<Value>(&details) else {
                continue;
            };
            for (kind, lines) in kinds {
                let at = out.entry(kind).or_default();
                for l in lines.as_array().into_iter().flatten() {
                    at.push(format!("{path}:{l}"));
                }
            }
        }
        Ok(DynamicUses(out))
    }
}

const RELATIONS: [&str; 4] = ["calls", "imports", "inherits", "uses"];

/// A graph's edges as the impact traversal walks them, built once per graph (see
/// `graph_cache`).
pub(crate) struct Adjacency {
    /// dst -> [(src, relation, confidence)], in (src, dst, kind) order.
    pub(crate) rev: FxHashMap<i64, Vec<(i64, &'static str, f64)>>,
    /// `defines` / `contains`: a node's children.
    pub(crate) children: FxHashMap<i64, Vec<i64>>,
}

impl Adjacency {
    /// From `edges` in (src, dst, kind) order (as `load_edges` reads them).
    pub(crate) fn new(nodes: &Nodes, edges: &[(String, i64, i64, f64)]) -> Self {
        let mut rev: FxHashMap<i64, Vec<(i64, &'static str, f64)>> = FxHashMap::default();
        let mut children: FxHashMap<i64, Vec<i64>> = FxHashMap::default();
        for (kind, src, dst, conf) in edges {
            if let Some(rel) = RELATIONS.iter().find(|r| **r == kind.as_str()) {
                if nodes.contains_key(src) {
                    rev.entry(*dst).or_default().push((*src, rel, *conf));
                }
            } else if matches!(kind.as_str(), "defines" | "contains") {
                children.entry(*src).or_default().push(*dst);
            }
        }
        Adjacency { rev, children }
    }
}

#[derive(Default)]
pub struct GraphCache {
    /// Most recently used first.
    kept: Mutex<Vec<(i64, Arc<CachedGraph>)>>,
    /// Held while a graph is read, so concurrent first queries read it once.
    loading: Mutex<()>,
}

impl GraphCache {
    /// How many graphs are kept: the latest of a repository and the one before it (what a
    /// compare or a client still on the previous graph asks for).
    pub(crate) const KEPT: usize = 2;

    pub(crate) fn get_or_load(
        &self,
        conn: &Connection,
        gpk: i64,
    ) -> Result<Arc<CachedGraph>, ApiError> {
        if let Some(g) = self.lookup(gpk) {
            return Ok(g);
        }
        let _loading = self.loading.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(g) = self.lookup(gpk) {
            return Ok(g);
        }
        let graph = Arc::new(load(conn, gpk)?);
        let mut kept = self.kept.lock().unwrap_or_else(|e| e.into_inner());
        kept.insert(0, (gpk, graph.clone()));
        kept.truncate(Self::KEPT);
        Ok(graph)
    }

    pub(crate) fn holds(&self, gpk: i64) -> bool {
        let kept = self.kept.lock().unwrap_or_else(|e| e.into_inner());
        kept.iter().any(|(k, _)| *k == gpk)
    }

    fn lookup(&self, gpk: i64) -> Option<Arc<CachedGraph>> {
        let mut kept = self.kept.lock().unwrap_or_else(|e| e.into_inner());
        let i = kept.iter().position(|(k, _)| *k == gpk)?;
        let entry = kept.remove(i);
        let graph = entry.1.clone();
        kept.insert(0, entry);
        Some(graph)
    }
}

fn load(conn: &Connection, gpk: i64) -> Result<CachedGraph, ApiError> {
    let mut nodes = load_nodes(conn, gpk)?;
    rank_nodes(&mut nodes);
    let mut by_path: Vec<i64> = nodes.keys().copied().collect();
    by_path.sort_unstable_by_key(|id| (nodes.get(id).and_then(|n| n.path.as_deref()), *id));
    let mut by_name = by_path.clone();
    by_name.sort_unstable_by_key(|id| (nodes.get(id).map(|n| n.qn.as_str()), *id));
    let edges = load_edges(conn, gpk)?;
    let adjacency = Adjacency::new(&nodes, &edges);
    let blockers: i64 = conn.query_row(
        "SELECT COUNT(*) FROM anomalies WHERE gpk=?1 AND kind IN ('parse_error','unresolved_import')",
        [gpk],
        |r| r.get(0),
    )?;
    Ok(CachedGraph {
        nodes,
        by_path,
        by_name,
        adjacency,
        blockers,
        dynamic: DynamicUses::load(conn, gpk)?,
    })
}

impl CachedGraph {
    /// The nodes an impact query starts from: those of `path` (files and symbols), or those
    /// named `symbol` (optionally in `path`), in id order.
    pub(crate) fn starts(&self, path: Option<&str>, symbol: Option<&str>) -> Vec<i64> {
        let candidates = match (symbol, path) {
            (Some(sym), _) => self.equal_range(&self.by_name, |n| Some(n.qn.as_str()), sym),
            (None, Some(p)) => self.equal_range(&self.by_path, |n| n.path.as_deref(), p),
            (None, None) => &[],
        };
        let mut starts: Vec<i64> = candidates
            .iter()
            .copied()
            .filter(|id| {
                let Some(n) = self.nodes.get(id) else {
                    return false;
                };
                let path_ok = path.is_none_or(|pp| n.path.as_deref() == Some(pp));
                let kind_ok = match symbol {
                    Some(_) => n.kind != "package" && n.kind != "repository",
                    None => matches!(n.kind.as_str(), "file" | "class" | "function" | "method"),
                };
                path_ok && kind_ok && n.path.is_some()
            })
            .collect();
        starts.sort_unstable();
        starts
    }

    /// The ids of `sorted` (ordered by `key`) whose key is `value`.
    fn equal_range<'a>(
        &self,
        sorted: &'a [i64],
        key: impl Fn(&NodeInfo) -> Option<&str>,
        value: &str,
    ) -> &'a [i64] {
        let key_of = |id: &i64| self.nodes.get(id).and_then(&key);
        let lo = sorted.partition_point(|id| key_of(id) < Some(value));
        let len = sorted.get(lo..).map_or(0, |rest| {
            rest.partition_point(|id| key_of(id) == Some(value))
        });
        sorted.get(lo..lo + len).unwrap_or(&[])
    }
}
