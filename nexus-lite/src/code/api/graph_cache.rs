//! Ready graphs' nodes and dependency edges in memory, shared across requests: an impact query
//! walks only what it reaches instead of reading every node and edge of the graph (~150 ms per
//! call on a million-line graph). A ready graph never changes, so an entry is valid for as long
//! as it is kept; the least recently used one is dropped when a new graph is asked for.

use super::impact::{Adjacency, DynamicUses, NodeInfo, Nodes, load_edges, load_nodes, rank_nodes};
use crate::core::http::ApiError;
use rusqlite::Connection;
use std::sync::{Arc, Mutex};

/// How many graphs are kept: the latest of a repository and the one before it (what a compare
/// or a client still on the previous graph asks for).
const KEPT: usize = 2;

/// One graph as the impact traversal reads it.
pub(super) struct CachedGraph {
    pub(super) nodes: Nodes,
    /// Node ids in (path, id) and (qualified name, id) order, to find a query's targets.
    by_path: Vec<i64>,
    by_name: Vec<i64>,
    pub(super) adjacency: Adjacency,
    /// Parse errors and unresolved imports: they may hide dependents.
    pub(super) blockers: i64,
    pub(super) dynamic: DynamicUses,
}

#[derive(Default)]
pub struct GraphCache {
    /// Most recently used first.
    kept: Mutex<Vec<(i64, Arc<CachedGraph>)>>,
    /// Held while a graph is read, so concurrent first queries read it once.
    loading: Mutex<()>,
}

impl GraphCache {
    pub(super) fn get_or_load(
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
        kept.truncate(KEPT);
        Ok(graph)
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
    pub(super) fn starts(&self, path: Option<&str>, symbol: Option<&str>) -> Vec<i64> {
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
