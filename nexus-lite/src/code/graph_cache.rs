//! Ready graphs' nodes and dependency edges in memory, shared across requests: an impact query
//! walks only what it reaches instead of reading every node and edge of the graph (~150 ms per
//! call on a million-line graph). A ready graph never changes, so an entry is valid for as long
//! as it is kept; the least recently used one is dropped when a new graph is asked for. A graph
//! a query is about to ask for (a regeneration's, a first use's) is built from the run's rows
//! instead of read back from SQLite ([`Building`]). The graph model it holds (nodes, adjacency, dynamic uses) lives here too: the engine keeps the
//! cache without importing the HTTP handlers that read it (impact, compare).

use crate::code::index::{GraphData, NodeRow, Part};
use crate::core::http::ApiError;
use rusqlite::Connection;
use rustc_hash::FxHashMap;
use serde_json::Value;
use std::collections::BTreeMap;
use std::sync::{Arc, Condvar, Mutex};

/// One graph as the impact traversal reads it. Nodes are numbered densely in graph order
/// (see [`load_nodes`]; `u32` indices into [`CachedGraph::nodes`]), so the traversal marks
/// and compares plain integers in arrays instead of hashing row ids and comparing path
/// strings (a depth-3 impact on a base class reaches ~29k dependents over ~317k edges).
pub(crate) struct CachedGraph {
    pub(crate) nodes: Vec<NodeInfo>,
    /// Each node's [`Place`], apart from [`NodeInfo`]: the traversal reads one per edge it
    /// walks, and 12 bytes a node stay in cache where the whole node does not.
    places: Vec<Place>,
    /// Node indices in (path, id) and (qualified name, id) order, to find a query's targets.
    by_path: Vec<u32>,
    by_name: Vec<u32>,
    pub(crate) adjacency: Adjacency,
    /// Parse errors and unresolved imports: they may hide dependents.
    pub(crate) blockers: i64,
    pub(crate) dynamic: DynamicUses,
}

pub(crate) struct NodeInfo {
    pub(crate) kind: String,
    pub(crate) qn: String,
    pub(crate) path: Option<String>,
}

/// Where a node sorts, as numbers.
#[derive(Clone, Copy)]
pub(crate) struct Place {
    /// Place in the graph's (path, symbol) order: answers sort on it instead of comparing
    /// strings. Equal (path, symbol) pairs share a rank.
    pub(crate) rank: u32,
    /// The node's path as a number (equal paths, equal numbers; [`NO_FILE`] without a path).
    pub(crate) file: u32,
    /// The node is a file's own.
    pub(crate) is_file: bool,
}

/// [`Place::file`] of a node without a path.
pub(crate) const NO_FILE: u32 = u32::MAX;

impl NodeInfo {
    /// The symbol an item names: none for a file itself.
    pub(crate) fn symbol(&self) -> Option<&str> {
        (self.kind != "file").then_some(self.qn.as_str())
    }
}

/// Every node's rank in (path, symbol) order and its path's number.
fn places(nodes: &[NodeInfo]) -> Vec<Place> {
    let mut order: Vec<(Option<&str>, Option<&str>, usize)> = nodes
        .iter()
        .enumerate()
        .map(|(i, n)| (n.path.as_deref(), n.symbol(), i))
        .collect();
    order.sort_unstable();
    let mut ranks = Vec::with_capacity(order.len());
    let (mut rank, mut file, mut prev) = (0u32, 0u32, None);
    for (path, symbol, i) in order {
        if let Some((prev_path, prev_symbol)) = prev {
            if (prev_path, prev_symbol) != (path, symbol) {
                rank += 1;
            }
            if prev_path != path {
                file += 1;
            }
        }
        prev = Some((path, symbol));
        ranks.push((i, rank, if path.is_some() { file } else { NO_FILE }));
    }
    let mut places = vec![
        Place {
            rank: 0,
            file: NO_FILE,
            is_file: false,
        };
        nodes.len()
    ];
    for (i, rank, file) in ranks {
        let is_file = nodes[i].kind == "file";
        places[i] = Place {
            rank,
            file,
            is_file,
        };
    }
    places
}

/// A graph's nodes with their row ids, in graph order: the repository, then file by file (in
/// path order) the file and its symbols by line, then the packages. Ids are hashes, so this
/// order (the order nodes were made in) keeps a file's nodes together and gives ties an
/// order a reader can follow.
pub(crate) fn load_nodes(conn: &Connection, gpk: i64) -> Result<Vec<(i64, NodeInfo)>, ApiError> {
    let mut st = conn.prepare(
        "SELECT id, kind, qualified_name, path FROM nodes WHERE gpk=?1
         ORDER BY kind = 'package', path, kind <> 'file', line, id",
    )?;
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
    Ok(rows.collect::<Result<_, _>>()?)
}

pub(crate) fn load_edges(
    conn: &Connection,
    gpk: i64,
) -> Result<Vec<(String, i64, i64, f64)>, ApiError> {
    let mut st = conn.prepare("SELECT kind, src, dst, confidence FROM edges WHERE gpk=?1")?;
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
        Ok(Self::from_rows(rows.into_iter().filter_map(
            |(path, details)| Some((path, serde_json::from_str(&details).ok()?)),
        )))
    }

    /// From `dynamic_use` anomalies as (path, details) in path order.
    fn from_rows(rows: impl Iterator<Item = (String, Value)>) -> DynamicUses {
        let mut out: BTreeMap<String, Vec<String>> = BTreeMap::new();
        for (path, details) in rows {
            let Value::Object(kinds) = details else {
                continue;
            };
            for (kind, lines) in kinds {
                let at = out.entry(kind).or_default();
                for l in lines.as_array().into_iter().flatten() {
                    at.push(format!("{path}:{l}"));
                }
            }
        }
        DynamicUses(out)
    }
}

/// The relations an impact query follows back, in the order answers sort them (by name).
pub(crate) const RELATIONS: [&str; 4] = ["calls", "imports", "inherits", "uses"];

/// A graph's edges as the impact traversal walks them, built once per graph: for each node,
/// its dependents and its children, each a slice of one array (compressed rows).
pub(crate) struct Adjacency {
    /// (src, relation index into [`RELATIONS`], confidence) by dst, in storage order (a
    /// traversal keeps maxima, so the order changes no answer).
    rev: Rows<(u32, u8, f64)>,
    /// `defines` / `contains`: a node's children.
    children: Rows<u32>,
}

/// Per-node lists in one allocation: node `n`'s are `items[starts[n]..starts[n + 1]]`.
struct Rows<T> {
    starts: Vec<u32>,
    items: Vec<T>,
}

impl<T: Copy + Default> Rows<T> {
    /// From (node, item) pairs, each node's items kept in the order given.
    fn new(nodes: usize, pairs: &[(u32, T)]) -> Rows<T> {
        let mut starts = vec![0u32; nodes + 1];
        for (n, _) in pairs {
            starts[*n as usize + 1] += 1;
        }
        for i in 0..nodes {
            starts[i + 1] += starts[i];
        }
        let mut next = starts.clone();
        let mut items = vec![T::default(); pairs.len()];
        for (n, item) in pairs {
            let at = &mut next[*n as usize];
            items[*at as usize] = *item;
            *at += 1;
        }
        Rows { starts, items }
    }

    fn of(&self, node: u32) -> &[T] {
        let n = node as usize;
        match (self.starts.get(n), self.starts.get(n + 1)) {
            (Some(a), Some(b)) => self.items.get(*a as usize..*b as usize).unwrap_or(&[]),
            _ => &[],
        }
    }
}

/// [`Adjacency`] being filled edge by edge, in storage order.
#[derive(Default)]
struct AdjacencyBuilder {
    rev: Vec<(u32, (u32, u8, f64))>,
    children: Vec<(u32, u32)>,
}

impl AdjacencyBuilder {
    /// An edge between node indices: kinds compared in place, no string kept per edge
    /// (317k edges at a million lines).
    fn add(&mut self, kind: &str, src: u32, dst: u32, confidence: f64) {
        if let Some(rel) = RELATIONS.iter().position(|k| *k == kind) {
            self.rev.push((dst, (src, rel as u8, confidence)));
        } else if matches!(kind, "defines" | "contains") {
            self.children.push((src, dst));
        }
    }

    fn finish(self, nodes: usize) -> Adjacency {
        Adjacency {
            rev: Rows::new(nodes, &self.rev),
            children: Rows::new(nodes, &self.children),
        }
    }
}

impl Adjacency {
    /// Graph `gpk`'s edges, row ids mapped to node indices by `index`; edges with an end
    /// outside the graph's nodes are left out. Read in storage order: no sort.
    fn load(
        conn: &Connection,
        gpk: i64,
        nodes: usize,
        index: &FxHashMap<i64, u32>,
    ) -> Result<Self, ApiError> {
        let mut built = AdjacencyBuilder::default();
        let mut st = conn.prepare("SELECT kind, src, dst, confidence FROM edges WHERE gpk=?1")?;
        let mut rows = st.query([gpk])?;
        while let Some(r) = rows.next()? {
            let (Some(src), Some(dst)) = (index.get(&r.get(1)?), index.get(&r.get(2)?)) else {
                continue;
            };
            let kind = r.get_ref(0)?.as_str().map_err(rusqlite::Error::from)?;
            built.add(kind, *src, *dst, r.get(3)?);
        }
        Ok(built.finish(nodes))
    }

    /// What depends on `node` directly: (src, relation index, confidence).
    pub(crate) fn dependents_of(&self, node: u32) -> &[(u32, u8, f64)] {
        self.rev.of(node)
    }

    pub(crate) fn children_of(&self, node: u32) -> &[u32] {
        self.children.of(node)
    }
}

#[derive(Default)]
pub struct GraphCache {
    /// Most recently used first.
    kept: Mutex<Vec<(i64, Arc<CachedGraph>)>>,
    /// Held while a graph is read, so concurrent first queries read it once.
    loading: Mutex<()>,
    /// Graphs being built from a run's rows (see [`Building`]): a query for one waits for it
    /// instead of reading it from SQLite.
    building: Mutex<Vec<i64>>,
    built: Condvar,
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
        self.wait_built(gpk);
        if let Some(g) = self.lookup(gpk) {
            return Ok(g);
        }
        let _loading = self.loading.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(g) = self.lookup(gpk) {
            return Ok(g);
        }
        let started = std::time::Instant::now();
        let graph = Arc::new(load(conn, gpk)?);
        tracing::info!(
            gpk,
            nodes = graph.nodes.len(),
            ms = started.elapsed().as_secs_f64() * 1000.0,
            "graph read into memory"
        );
        self.keep(gpk, graph.clone());
        Ok(graph)
    }

    /// Announces graph `gpk`, about to be committed: until the [`Building`] is finished (or
    /// dropped), a query for it waits.
    pub(crate) fn expect(self: &Arc<Self>, gpk: i64) -> Building {
        self.building
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .push(gpk);
        Building {
            cache: self.clone(),
            gpk,
        }
    }

    fn wait_built(&self, gpk: i64) {
        let mut building = self.building.lock().unwrap_or_else(|e| e.into_inner());
        while building.contains(&gpk) {
            building = self.built.wait(building).unwrap_or_else(|e| e.into_inner());
        }
    }

    /// Keeps `graph` as graph `gpk`, most recently used.
    fn keep(&self, gpk: i64, graph: Arc<CachedGraph>) {
        let mut kept = self.kept.lock().unwrap_or_else(|e| e.into_inner());
        kept.retain(|(k, _)| *k != gpk);
        kept.insert(0, (gpk, graph));
        kept.truncate(Self::KEPT);
    }

    /// Drops graph `gpk` (pruned from the database) if it is kept.
    pub(crate) fn forget(&self, gpk: i64) {
        let mut kept = self.kept.lock().unwrap_or_else(|e| e.into_inner());
        kept.retain(|(k, _)| *k != gpk);
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

/// A graph announced by [`GraphCache::expect`]. Dropped (the commit failed, the build
/// panicked), queries for it stop waiting and read it from SQLite.
pub(crate) struct Building {
    cache: Arc<GraphCache>,
    gpk: i64,
}

impl Building {
    /// The graph to build once the run that wrote `rows` has reported.
    pub(crate) fn with_rows(self, rows: GraphRows) -> PendingGraph {
        PendingGraph {
            building: self,
            rows,
        }
    }
}

/// A committed graph to build in memory: [`PendingGraph::build`] runs on the thread that
/// wrote it, after its run is reported ready (the run's memory is reused, and the
/// regeneration's status does not wait for it).
pub(crate) struct PendingGraph {
    building: Building,
    rows: GraphRows,
}

impl PendingGraph {
    pub(crate) fn build(self) {
        let started = std::time::Instant::now();
        let graph = Arc::new(self.rows.graph());
        tracing::info!(
            gpk = self.building.gpk,
            nodes = graph.nodes.len(),
            ms = started.elapsed().as_secs_f64() * 1000.0,
            "graph built in memory from the run's rows"
        );
        self.building.cache.keep(self.building.gpk, graph);
    }
}

impl Drop for Building {
    fn drop(&mut self) {
        let mut building = self
            .cache
            .building
            .lock()
            .unwrap_or_else(|e| e.into_inner());
        building.retain(|g| *g != self.gpk);
        self.cache.built.notify_all();
    }
}

/// Anomaly kinds that may hide dependents: an impact answer counts them as blockers.
const BLOCKERS: [&str; 2] = ["parse_error", "unresolved_import"];

fn load(conn: &Connection, gpk: i64) -> Result<CachedGraph, ApiError> {
    let (nodes, index) = numbered(load_nodes(conn, gpk)?);
    let adjacency = Adjacency::load(conn, gpk, nodes.len(), &index)?;
    let [a, b] = BLOCKERS;
    let blockers: i64 = conn.query_row(
        "SELECT COUNT(*) FROM anomalies WHERE gpk=?1 AND kind IN (?2, ?3)",
        rusqlite::params![gpk, a, b],
        |r| r.get(0),
    )?;
    Ok(assemble(
        nodes,
        adjacency,
        blockers,
        DynamicUses::load(conn, gpk)?,
    ))
}

/// What a run has just written that its graph in memory is made of (shared with the run).
pub(crate) struct GraphRows {
    parts: Vec<Arc<Part>>,
    blockers: i64,
    /// `dynamic_use` anomalies as (path, details), in path order.
    dynamic: Vec<(String, Value)>,
}

impl GraphRows {
    pub(crate) fn of(data: &GraphData) -> GraphRows {
        let blockers = data
            .anomalies
            .iter()
            .filter(|a| BLOCKERS.contains(&a.kind))
            .count();
        let mut dynamic: Vec<(String, Value)> = data
            .anomalies
            .iter()
            .filter(|a| a.kind == "dynamic_use")
            .map(|a| (a.path.clone(), a.details.clone()))
            .collect();
        dynamic.sort_by(|a, b| a.0.cmp(&b.0));
        GraphRows {
            parts: data.parts.clone(),
            blockers: blockers as i64,
            dynamic,
        }
    }

    /// The graph these rows make: what [`load`] reads back from SQLite, without SQLite's sort
    /// of every node and decoding of every edge (~300 ms at a million lines).
    fn graph(self) -> CachedGraph {
        // load_nodes's order: SQLite compares text bytewise and puts NULL first, as
        // `Option<&str>` and `Option<u32>` do. Parts come in path order and a part's nodes
        // nearly in line order: a stable sort merges those runs.
        let mut rows: Vec<&NodeRow> = self.parts.iter().flat_map(|p| &p.nodes).collect();
        rows.sort_by_key(|n| {
            (
                n.kind == "package",
                n.path.as_deref(),
                n.kind != "file",
                n.line,
                n.id,
            )
        });
        let (nodes, index) = numbered(
            rows.into_iter()
                .map(|n| {
                    (
                        n.id,
                        NodeInfo {
                            kind: n.kind.to_string(),
                            qn: n.qualified_name.clone(),
                            path: n.path.clone(),
                        },
                    )
                })
                .collect(),
        );
        let mut built = AdjacencyBuilder::default();
        for e in self.parts.iter().flat_map(|p| &p.edges) {
            if let (Some(src), Some(dst)) = (index.get(&e.src), index.get(&e.dst)) {
                built.add(e.kind, *src, *dst, e.confidence);
            }
        }
        let adjacency = built.finish(nodes.len());
        let dynamic = DynamicUses::from_rows(self.dynamic.into_iter());
        assemble(nodes, adjacency, self.blockers, dynamic)
    }
}

/// Nodes in graph order, numbered densely, and the map from row id to number.
fn numbered(by_id: Vec<(i64, NodeInfo)>) -> (Vec<NodeInfo>, FxHashMap<i64, u32>) {
    let index = by_id
        .iter()
        .enumerate()
        .map(|(i, (id, _))| (*id, i as u32))
        .collect();
    (by_id.into_iter().map(|(_, n)| n).collect(), index)
}

fn assemble(
    nodes: Vec<NodeInfo>,
    adjacency: Adjacency,
    blockers: i64,
    dynamic: DynamicUses,
) -> CachedGraph {
    let places = places(&nodes);
    // Indices follow graph order, so (key, index) orders are (key, graph order) orders.
    let mut by_path: Vec<u32> = (0..nodes.len() as u32).collect();
    // Nearly sorted already (graph order is path order but for the packages).
    by_path.sort_by_key(|i| (nodes[*i as usize].path.as_deref(), *i));
    let mut by_name = by_path.clone();
    by_name.sort_unstable_by_key(|i| (nodes[*i as usize].qn.as_str(), *i));
    CachedGraph {
        nodes,
        places,
        by_path,
        by_name,
        adjacency,
        blockers,
        dynamic,
    }
}

impl CachedGraph {
    /// The node indices an impact query starts from: those of `path` (files and symbols), or
    /// those named `symbol` (optionally in `path`), in graph order.
    pub(crate) fn starts(&self, path: Option<&str>, symbol: Option<&str>) -> Vec<u32> {
        let candidates = match (symbol, path) {
            (Some(sym), _) => self.equal_range(&self.by_name, |n| Some(n.qn.as_str()), sym),
            (None, Some(p)) => self.equal_range(&self.by_path, |n| n.path.as_deref(), p),
            (None, None) => &[],
        };
        let mut starts: Vec<u32> = candidates
            .iter()
            .copied()
            .filter(|i| {
                let n = &self.nodes[*i as usize];
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

    /// The indices of `sorted` (ordered by `key`) whose key is `value`.
    fn equal_range<'a>(
        &self,
        sorted: &'a [u32],
        key: impl Fn(&NodeInfo) -> Option<&str>,
        value: &str,
    ) -> &'a [u32] {
        let key_of = |i: &u32| key(&self.nodes[*i as usize]);
        let lo = sorted.partition_point(|i| key_of(i) < Some(value));
        let len = sorted
            .get(lo..)
            .map_or(0, |rest| rest.partition_point(|i| key_of(i) == Some(value)));
        sorted.get(lo..lo + len).unwrap_or(&[])
    }

    pub(crate) fn node(&self, i: u32) -> &NodeInfo {
        &self.nodes[i as usize]
    }

    pub(crate) fn place(&self, i: u32) -> Place {
        self.places[i as usize]
    }
}
