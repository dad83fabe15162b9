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
            .map(Dependent::to_json)
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
pub(super) struct Dependent<'g> {
    depth: usize,
    rank: u32,
    path: Option<&'g str>,
    symbol: Option<&'g str>,
    /// Index into [`RELATIONS`] (which is in name order).
    via: u8,
    confidence: f64,
}

impl Dependent<'_> {
    fn to_json(&self) -> Value {
        json!({
            "depth": self.depth,
            "path": self.path,
            "symbol": self.symbol,
            "via": RELATIONS[usize::from(self.via)],
            "resolution": resolution_of(self.confidence),
            "confidence": self.confidence,
        })
    }
}

/// The dependents an impact query found.
pub(super) struct Dependents<'g> {
    /// Every dependent, ordered by (depth, path, symbol, via): the same graph and question
    /// give the same order, which is what makes the pages of a cursor line up.
    pub(super) items: Vec<Dependent<'g>>,
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

impl Dependents<'_> {
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
pub(super) fn dependents<'g>(
    graph: &'g CachedGraph,
    starts: &[u32],
    depth: usize,
) -> Dependents<'g> {
    let adjacency = &graph.adjacency;
    let count = graph.nodes.len();
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
    // A level's hits: (dependent, relation) -> best chain confidence, in arrays indexed by
    // `relation * count + node`, with the entries set listed in `touched` (and reset after
    // use). The order of a level's work does not change its outcome (each entry keeps a
    // maximum); the items are sorted at the end.
    let mut hit = vec![false; RELATIONS.len() * count];
    let mut best = vec![0.0f64; RELATIONS.len() * count];
    let mut touched: Vec<(u32, u8)> = Vec::new();
    // The next level's frontier, the same way.
    let mut reached = vec![false; count];
    let mut reach = vec![0.0f64; count];
    let mut next: Vec<u32> = Vec::new();
    for d in 1..=depth {
        for (n, chain) in &frontier {
            // A symbol carried along with its file is no dependent itself: its file-mates
            // calling it are not news (the file is listed already).
            let carried_from =
                Some(graph.node(*n).file).filter(|f| !listed[*n as usize] && *f != NO_FILE);
            for (src, rel, conf) in adjacency.dependents_of(*n) {
                if listed[*src as usize] || carried_from == Some(graph.node(*src).file) {
                    continue;
                }
                let c = conf.min(*chain);
                let at = usize::from(*rel) * count + *src as usize;
                if hit[at] {
                    best[at] = best[at].max(c);
                } else {
                    hit[at] = true;
                    best[at] = c;
                    touched.push((*src, *rel));
                }
            }
        }
        for (src, rel) in touched.drain(..) {
            let at = usize::from(rel) * count + src as usize;
            hit[at] = false;
            let c = best[at];
            let info = graph.node(src);
            listed[src as usize] = true;
            via_calls |= matches!(RELATIONS[usize::from(rel)], "calls" | "uses");
            items.push(Dependent {
                depth: d,
                rank: info.rank,
                path: info.path.as_deref(),
                symbol: info.symbol(),
                via: rel,
                confidence: c,
            });
            let carried = match info.kind.as_str() {
                "file" => adjacency.children_of(src),
                _ => &[],
            };
            for m in std::iter::once(&src).chain(carried) {
                let m = *m as usize;
                if searched[m] {
                    continue;
                }
                if reached[m] {
                    reach[m] = reach[m].max(c);
                } else {
                    reached[m] = true;
                    reach[m] = c;
                    next.push(m as u32);
                }
            }
        }
        frontier.clear();
        for m in next.drain(..) {
            let i = m as usize;
            reached[i] = false;
            searched[i] = true;
            frontier.push((m, reach[i]));
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
    // Highest confidence first among equals, so that `dedup_by` keeps it: two definitions of
    // one name in one file (`if ...: def f` / `else: def f`) are one item to a reader.
    // The rank stands for (path, symbol); relations are numbered in name order. Confidences
    // are positive, so their bits order as they do.
    items.sort_unstable_by_key(|d| {
        (
            (d.depth as u64) << 40 | u64::from(d.rank) << 8 | u64::from(d.via),
            u64::MAX - d.confidence.to_bits(),
        )
    });
    items.dedup_by(|later, kept| {
        (later.depth, later.rank, later.via) == (kept.depth, kept.rank, kept.via)
    });
    Dependents {
        items,
        via_calls,
        cut_off,
    }
}
