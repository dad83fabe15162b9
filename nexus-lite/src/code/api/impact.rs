//! What depends on a file or symbol, up to a depth.

use super::*;
use crate::code::graph_cache::{CachedGraph, DynamicUses, NO_FILE, RELATIONS};

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
        let (limit, offset) = p.page()?;
        let conn = s.reader()?;
        let (gpk, g) = select(s, &conn, &p)?;
        let graph = s.graph_cache.get_or_load(&conn, gpk)?;
        let starts = graph.starts(path.as_deref(), symbol.as_deref());
        let resolved = !starts.is_empty();
        let found = dependents(&graph, &starts, depth);
        let blockers = graph.blockers;
        let counts = found.counts();
        let mut causes = Vec::new();
        if !resolved {
            causes.push(format!(
                "the target was not found in graph {}: check the path and the qualified name (module.Class.method)",
                g["graph_id"].as_str().unwrap_or("")
            ));
        }
        let by_symbol = found.via_calls || symbol.is_some();
        if by_symbol {
            causes.push("calls and value uses are resolved through names, imports and inferred receiver types; a call on a receiver whose type is not inferred is not seen".to_string());
        }
        let dynamic = &graph.dynamic;
        let file_start = starts.iter().any(|i| graph.node(*i).kind == "file");
        if file_start && let Some(c) = dynamic.cause("import", "dynamic imports", "can load any module without an import edge") {
            causes.push(c);
        }
        if by_symbol {
            for (kind, what) in [("getattr", "getattr/setattr calls with a computed name"), ("globals", "globals()/locals() lookups")] {
                if let Some(c) = dynamic.cause(kind, what, "can reach functions, classes and methods without an edge") {
                    causes.push(c);
                }
            }
        }
        if counts.inferred > 0 {
            causes.push(format!(
                "{} dependents were reached through an inferred receiver type (self.m, a constructor, an annotation, a return type): an override in a subclass is not seen",
                counts.inferred
            ));
        }
        if counts.name_match > 0 {
            causes.push(format!(
                "{} dependents were matched by name only (confidence 0.3): read them before relying on them",
                counts.name_match
            ));
        }
        let conftest = starts.iter().any(|i| {
            graph
                .node(*i)
                .path
                .as_deref()
                .is_some_and(|p| p == "conftest.py" || p.ends_with("/conftest.py"))
        });
        if conftest {
            causes.push("pytest also uses conftest.py without naming it (hooks, autouse fixtures, usefixtures marks): those uses are not edges".to_string());
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
        let total = found.items.len();
        if resolved && total == 0 && !exact {
            causes.push(
                "nothing found, but the search is incomplete (above): unknown, not low; search the name in the code before relying on it"
                    .to_string(),
            );
        }
        let risk = if !resolved || (total == 0 && !exact) {
            "unknown"
        } else if total == 0 {
            "low"
        } else if total <= 10 {
            "medium"
        } else {
            "high"
        };
        let page: Vec<Value> = found
            .items
            .iter()
            .skip(offset)
            .take(limit)
            .map(|d| d.to_json(&graph))
            .collect();
        Ok(json!({
            "graph": g,
            "resolved": resolved,
            "depth": depth,
            "items": page,
            "total": total,
            "next_cursor": next_cursor(offset, limit, total),
            "summary": counts.summary(total),
            "completeness": if exact { "exact" } else { "lower_bound" },
            "causes": causes,
            "risk": risk,
        }))
    })
    .await
}

impl DynamicUses {
    /// "3 dynamic imports (a.py:4, b.py:9, ...) can load any module ...", for `kind` if seen.
    fn cause(&self, kind: &str, what: &str, effect: &str) -> Option<String> {
        let at = self.0.get(kind).filter(|v| !v.is_empty())?;
        let shown: Vec<&str> = at.iter().take(2).map(String::as_str).collect();
        let more = if at.len() > 2 { ", ..." } else { "" };
        Some(format!(
            "{} {what} ({}{more}) {effect}: a lower bound",
            at.len(),
            shown.join(", ")
        ))
    }
}

/// How an edge, or the weakest edge of a chain of them, was resolved, from its confidence:
/// the indexer gives 1.0 and 0.9 to names bound by definitions and imports, 0.8 to receivers
/// whose type it inferred (`self.m`, `t.m` after `t = Cls()`, annotations, return types) and
/// to pytest fixture uses, 0.3 to name-only matches.
pub(super) fn resolution_of(confidence: f64) -> &'static str {
    if confidence >= 0.9 {
        "exact"
    } else if confidence >= 0.5 {
        "inferred"
    } else {
        "name_match"
    }
}

/// One dependent: a file or symbol, the relation that reached it and the confidence of the
/// weakest edge on the way from the target.
pub(super) struct Dependent {
    node: u32,
    depth: u8,
    /// Index into [`RELATIONS`] (which is in name order).
    via: u8,
    confidence: f64,
}

impl Dependent {
    fn to_json(&self, graph: &CachedGraph) -> Value {
        let info = graph.node(self.node);
        json!({
            "depth": self.depth,
            "path": info.path,
            "symbol": info.symbol(),
            "via": RELATIONS[usize::from(self.via)],
            "resolution": resolution_of(self.confidence),
            "confidence": self.confidence,
        })
    }
}

/// The dependents an impact query found.
pub(super) struct Dependents {
    /// Every dependent, ordered by (depth, path, symbol, via): the same graph and question
    /// give the same order, which is what makes the pages of a cursor line up.
    pub(super) items: Vec<Dependent>,
    pub(super) via_calls: bool,
    /// Something depends on the last level listed: a deeper query would find more.
    pub(super) cut_off: bool,
}

/// How many dependents of each resolution an answer holds.
pub(super) struct ResolutionCounts {
    pub(super) exact: usize,
    pub(super) inferred: usize,
    pub(super) name_match: usize,
}

impl ResolutionCounts {
    fn summary(&self, total: usize) -> String {
        format!(
            "{total} dependents: {} exact, {} inferred, {} name_match",
            self.exact, self.inferred, self.name_match
        )
    }
}

impl Dependents {
    pub(super) fn counts(&self) -> ResolutionCounts {
        let mut c = ResolutionCounts {
            exact: 0,
            inferred: 0,
            name_match: 0,
        };
        for d in &self.items {
            match resolution_of(d.confidence) {
                "exact" => c.exact += 1,
                "inferred" => c.inferred += 1,
                _ => c.name_match += 1,
            }
        }
        c
    }
}

/// What depends on `starts`, up to `depth` steps back along `imports`, `calls`, `uses` and `inherits`
/// edges. A file reached brings its symbols along: what depends on them depends on it, so they
/// are searched from the next level on; they are listed only on their own merit (an edge of
/// their own to something already reached), at the depth of that edge.
pub(super) fn dependents(graph: &CachedGraph, starts: &[u32], depth: usize) -> Dependents {
    let adjacency = &graph.adjacency;
    let count = graph.nodes.len();
    let rels = RELATIONS.len();
    let mut listed = vec![false; count];
    let mut searched = vec![false; count];
    for s in starts {
        listed[*s as usize] = true;
        searched[*s as usize] = true;
    }
    // (node, confidence of the weakest edge from the target).
    let mut frontier: Vec<(u32, f64)> = starts.iter().map(|s| (*s, 1.0)).collect();
    let mut items = Vec::new();
    let mut via_calls = false;
    // A level's items, one per (rank, relation) with the best chain confidence: two nodes of
    // one rank (`if ...: def f` / `else: def f` in one file) are one item to a reader. An
    // item's key is `rank * rels + relation`, the order answers list a level in; `slot[key]`
    // is its place in `level` plus one while the level is gathered (0: not hit yet). The
    // order of a level's work does not change its outcome (each entry keeps a maximum).
    let mut slot = vec![0u32; rels * count];
    let mut level: Vec<(usize, u32, f64)> = Vec::new();
    // A level's new dependents, each node once with its best chain confidence, the same way.
    let mut node_slot = vec![0u32; count];
    let mut hits: Vec<(usize, (), f64)> = Vec::new();
    // The next level's frontier, the same way.
    let mut next_slot = vec![0u32; count];
    let mut next: Vec<(usize, (), f64)> = Vec::new();
    // `depth` is at most 6 (the API's bound).
    for d in 1..=depth as u8 {
        for (n, chain) in &frontier {
            // A symbol carried along with its file is no dependent itself: its file-mates
            // calling it are not news (the file is listed already).
            let carried_from =
                Some(graph.place(*n).file).filter(|f| !listed[*n as usize] && *f != NO_FILE);
            for (src, rel, conf) in adjacency.dependents_of(*n) {
                let place = graph.place(*src);
                if listed[*src as usize] || carried_from == Some(place.file) {
                    continue;
                }
                let c = conf.min(*chain);
                keep_best(
                    &mut slot,
                    &mut level,
                    place.rank as usize * rels + usize::from(*rel),
                    *src,
                    c,
                );
                keep_best(&mut node_slot, &mut hits, *src as usize, (), c);
            }
        }
        // Keys in the high half, places in the low: integers sort faster than tuples.
        let mut order: Vec<u64> = (level.iter().enumerate())
            .map(|(i, (key, _, _))| (*key as u64) << 32 | i as u64)
            .collect();
        order.sort_unstable();
        for o in order {
            let (key, node, c) = level[(o & u64::from(u32::MAX)) as usize];
            slot[key] = 0;
            let via = key % rels;
            via_calls |= matches!(RELATIONS[via], "calls" | "uses");
            items.push(Dependent {
                node,
                depth: d,
                via: via as u8,
                confidence: c,
            });
        }
        level.clear();
        for (src, (), c) in hits.drain(..) {
            node_slot[src] = 0;
            listed[src] = true;
            let carried = if graph.place(src as u32).is_file {
                adjacency.children_of(src as u32)
            } else {
                &[]
            };
            for m in std::iter::once(&(src as u32)).chain(carried) {
                if !searched[*m as usize] {
                    keep_best(&mut next_slot, &mut next, *m as usize, (), c);
                }
            }
        }
        frontier.clear();
        for (m, (), c) in next.drain(..) {
            next_slot[m] = 0;
            searched[m] = true;
            frontier.push((m as u32, c));
        }
        if frontier.is_empty() {
            break;
        }
    }
    let cut_off = frontier.iter().any(|(n, _)| {
        adjacency
            .dependents_of(*n)
            .iter()
            .any(|(src, _, _)| !listed[*src as usize])
    });
    Dependents {
        items,
        via_calls,
        cut_off,
    }
}

/// Keeps the best confidence of `key` in `entries` (`slot[key]` is its place plus one).
fn keep_best<T>(slot: &mut [u32], entries: &mut Vec<(usize, T, f64)>, key: usize, what: T, c: f64) {
    match slot[key] {
        0 => {
            entries.push((key, what, c));
            slot[key] = entries.len() as u32;
        }
        at => {
            let kept = &mut entries[at as usize - 1].2;
            *kept = kept.max(c);
        }
    }
}
