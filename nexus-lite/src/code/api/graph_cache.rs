//! Ready graphs' nodes and dependency edges in memory, shared across requests: an impact query
//! walks only what it reaches instead of reading every node and edge of the graph (~150 ms per
//! call on a million-line graph). A ready graph never changes, so an entry is valid for as long
//! as it is kept; the least recently used one is dropped when a new graph is asked for.

use super::impact::{Adjacency, NodeInfo, load_edges, load_nodes};
use crate::core::http::ApiError;
use rusqlite::Connection;
use std::collections::HashMap;
use std::sync::{Arc, Mutex};

/// How many graphs are kept: the latest of a repository and the one before it (what a compare
/// or a client still on the previous graph asks for).
const KEPT: usize = 2;

/// One graph as the impact traversal reads it.
pub(super) struct CachedGraph {
    pub(super) nodes: HashMap<i64, NodeInfo>,
    pub(super) adjacency: Adjacency,
    /// Parse errors and unresolved imports: they may hide dependents.
    pub(super) blockers: i64,
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
    let nodes = load_nodes(conn, gpk)?;
    let edges = load_edges(conn, gpk)?;
    let adjacency = Adjacency::new(&nodes, &edges);
    let blockers: i64 = conn.query_row(
        "SELECT COUNT(*) FROM anomalies WHERE gpk=?1 AND kind IN ('parse_error','unresolved_import')",
        [gpk],
        |r| r.get(0),
    )?;
    Ok(CachedGraph {
        nodes,
        adjacency,
        blockers,
    })
}
