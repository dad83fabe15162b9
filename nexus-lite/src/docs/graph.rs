//! Queries over an index: cycles (Tarjan over the edge kinds that count for cycles), task
//! context (the upstream closure, nearest first, byte-capped and paged), the dependency graph
//! around a node, impact (downstream dependents and the longest critical paths) and the
//! traceability audit with its health score.

use super::doc::{Doc, Kind};
use super::index::Index;
use super::resolve::{Class, Link};
use crate::core::graph::{bounded_bfs, tarjan};
use crate::core::util::encode_cursor;
use serde_json::{Value, json};
use std::collections::{BTreeMap, HashMap, HashSet, VecDeque};
use std::sync::Arc;

/// The documented health formula (also returned in every audit).
pub const HEALTH_FORMULA: &str = "healthScore = round(100 - 40*linkRate - 25*cycleRate - 20*parseRate - 15*duplicateRate), clamped to 0..100, where linkRate = (broken + ambiguous references) / (resolved + broken + ambiguous references), cycleRate = documents in a dependency cycle or self-loop / documents, parseRate = documents whose metadata does not parse / documents, duplicateRate = documents sharing their id with another / documents (each rate is 0 when its denominator is 0). External links, paths outside the index and null placeholders do not lower the score.";

/// The edge kinds that count for cycles, critical paths and readiness: `depends_on` always,
/// `parent` when `edges.parent.cycles` is set; `related`, `supersedes` and `milestone` never.
pub fn cycle_kinds(idx: &Index) -> Vec<Kind> {
    let mut kinds = vec![Kind::DependsOn];
    if idx.config().edges.parent.cycles {
        kinds.push(Kind::Parent);
    }
    kinds
}

/// Successors of `n` along `kinds`, sorted by id key (determinism).
fn deps(idx: &Index, n: usize, kinds: &[Kind]) -> Vec<usize> {
    let mut v: Vec<usize> = idx.resolved.out[n]
        .iter()
        .map(|e| &idx.resolved.edges[*e])
        .filter(|e| kinds.contains(&e.kind))
        .map(|e| e.to)
        .collect();
    v.sort_by(|a, b| idx.docs[*a].key.cmp(&idx.docs[*b].key).then(a.cmp(b)));
    v.dedup();
    v
}

fn dependents(idx: &Index, n: usize, kinds: &[Kind]) -> Vec<usize> {
    let mut v: Vec<usize> = idx.resolved.inn[n]
        .iter()
        .map(|e| &idx.resolved.edges[*e])
        .filter(|e| kinds.contains(&e.kind))
        .map(|e| e.from)
        .collect();
    v.sort_by(|a, b| idx.docs[*a].key.cmp(&idx.docs[*b].key).then(a.cmp(b)));
    v.dedup();
    v
}

/// The cycles of the dependency graph.
pub struct Cycles {
    /// Components of 2+ documents, each with a readable path from its smallest id.
    pub components: Vec<(Vec<usize>, Vec<usize>)>,
    pub self_loops: Vec<usize>,
}

pub fn cycles(idx: &Index) -> Cycles {
    let mut order: Vec<usize> = (0..idx.docs.len()).collect();
    order.sort_by(|a, b| idx.docs[*a].key.cmp(&idx.docs[*b].key).then(a.cmp(b)));
    cycles_among(idx, &order)
}

/// The cycles among `nodes` (sorted by id key), along the edge kinds that count for cycles:
/// one entry per strongly connected component, whatever its rotations and overlapping cycles.
fn cycles_among(idx: &Index, order: &[usize]) -> Cycles {
    let kinds = cycle_kinds(idx);
    let sccs = tarjan(order, |n| deps(idx, *n, &kinds));
    let mut components = Vec::new();
    for mut comp in sccs.into_iter().filter(|c| c.len() > 1) {
        comp.sort_by(|a, b| idx.docs[*a].key.cmp(&idx.docs[*b].key));
        let path = cycle_path(idx, &comp, &kinds);
        components.push((comp, path));
    }
    components.sort_by(|a, b| idx.docs[a.0[0]].key.cmp(&idx.docs[b.0[0]].key));
    let self_loops = order
        .iter()
        .copied()
        .filter(|n| deps(idx, *n, &kinds).contains(n))
        .collect();
    Cycles {
        components,
        self_loops,
    }
}

/// Starts tried for a component's shortest cycle: a breadth-first search each, so a huge
/// component costs at most this many (its smallest ids first).
const SHORTEST_CYCLE_STARTS: usize = 64;

/// A shortest cycle of the component, as `[a, b, …, a]` from its first node: the shortest
/// through each of its first [`SHORTEST_CYCLE_STARTS`] ids (by id), the smallest id first on a tie.
fn cycle_path(idx: &Index, comp: &[usize], kinds: &[Kind]) -> Vec<usize> {
    let mut best: Option<Vec<usize>> = None;
    for &start in comp.iter().take(SHORTEST_CYCLE_STARTS) {
        let found = cycle_through(idx, comp, start, kinds);
        if best.as_ref().is_none_or(|b| found.len() < b.len()) {
            best = Some(found);
        }
        // Two documents depending on each other: no cycle of two or more is shorter.
        if best.as_ref().is_some_and(|b| b.len() <= 3) {
            break;
        }
    }
    best.unwrap_or_else(|| comp.to_vec())
}

/// The shortest cycle through `start` inside the component, as `[start, …, start]`.
fn cycle_through(idx: &Index, comp: &[usize], start: usize, kinds: &[Kind]) -> Vec<usize> {
    let inside: HashSet<usize> = comp.iter().copied().collect();
    let mut prev: HashMap<usize, usize> = HashMap::new();
    let mut queue = VecDeque::from([start]);
    while let Some(n) = queue.pop_front() {
        for m in deps(idx, n, kinds) {
            if !inside.contains(&m) {
                continue;
            }
            if m == start {
                // start -> … -> n, then back to start.
                let mut back = vec![n];
                let mut at = n;
                while at != start {
                    at = prev.get(&at).copied().unwrap_or(start);
                    back.push(at);
                }
                back.reverse();
                back.push(start);
                return back;
            }
            if let std::collections::hash_map::Entry::Vacant(e) = prev.entry(m) {
                e.insert(n);
                queue.push_back(m);
            }
        }
    }
    comp.to_vec()
}

/// A cycle entry: the component's ids and files, its size, and one shortest cycle path.
fn cycle_json(idx: &Index, comp: &[usize], path: &[usize]) -> Value {
    let docs = &idx.docs;
    let ids: Vec<String> = path.iter().map(|i| docs[*i].id.clone()).collect();
    json!({"ids": comp.iter().map(|i| docs[*i].id.clone()).collect::<Vec<_>>(),
           "path": ids.join(" -> "), "pathIds": ids, "size": comp.len(),
           "paths": comp.iter().map(|i| docs[*i].path.clone()).collect::<Vec<_>>()})
}

/// The cycles of `cyc` as answer fields, at most `max` components (`cycleEnumeration` says
/// when the cap cut some).
fn cycles_json(idx: &Index, cyc: &Cycles, max: usize) -> (Vec<Value>, Vec<Value>, &'static str) {
    let docs = &idx.docs;
    let items = cyc
        .components
        .iter()
        .take(max)
        .map(|(comp, path)| cycle_json(idx, comp, path))
        .collect();
    let self_loops = cyc
        .self_loops
        .iter()
        .map(|i| json!({"id": docs[*i].id, "path": format!("{0} -> {0}", docs[*i].id), "file": docs[*i].path}))
        .collect();
    let enumeration = if cyc.components.len() > max {
        "capped"
    } else {
        "complete"
    };
    (items, self_loops, enumeration)
}

/// A node's summary; `lifecycle` only when it is not the live set's (`active`), so a done,
/// archived or draft document is never mistaken for live work.
pub fn summary(idx: &Index, i: usize) -> Value {
    let d = &idx.docs[i];
    let mut v = json!({"id": d.id, "path": d.path, "type": d.doc_type, "status": d.status, "title": d.title});
    readiness_json(idx, i, &mut v);
    if let Some(l) = &d.lifecycle {
        v["lifecycle"] = json!(l);
    }
    v
}

/// The lifecycle states a caller filters on; `any` keeps every document.
pub const LIFECYCLES: [&str; 5] = ["active", "done", "archived", "draft", "any"];

/// Whether `d` is in one of `wanted` ([`LIFECYCLES`]; empty means the live set, `active`). A
/// document no `lifecycle:` glob matches (e.g. `backlog/tasks/`) is `active`.
pub fn in_lifecycle(d: &Doc, wanted: &[String]) -> bool {
    let state = d.lifecycle.as_deref().unwrap_or("active");
    if wanted.is_empty() {
        return state == "active";
    }
    wanted.iter().any(|w| w == "any" || w == state)
}

pub fn is_done(idx: &Index, d: &Doc) -> bool {
    d.lifecycle.as_deref() == Some("done")
        || d.status.as_deref().is_some_and(|s| {
            idx.config()
                .done_statuses
                .iter()
                .any(|x| x.eq_ignore_ascii_case(s))
        })
}

/// Whether a task can be started now, and why not or why unknown.
pub struct Readiness {
    /// `None`: unknown (a blocking dependency that does not resolve, or no status).
    pub ready: Option<bool>,
    pub reason: Option<String>,
}

/// The one definition of readiness (list_tasks' `ready` filter, every summary and node): a
/// to-do status (`todo_statuses`), not done, archived or a draft, and every blocking dependency
/// (the [`cycle_kinds`]: `depends_on`, `parent` when it counts) resolved to a done document.
/// Related and other links never block. A dependency that does not resolve (dangling,
/// ambiguous, outside the index) makes readiness unknown, never true, unless another one
/// already blocks.
pub fn readiness(idx: &Index, i: usize) -> Readiness {
    let d = &idx.docs[i];
    let no = |why: String| Readiness {
        ready: Some(false),
        reason: Some(why),
    };
    if is_done(idx, d) {
        return no("done".into());
    }
    if let Some(l @ ("archived" | "draft")) = d.lifecycle.as_deref() {
        return no(format!("{l}: not live work"));
    }
    let Some(status) = d.status.as_deref() else {
        return Readiness {
            ready: None,
            reason: Some("no status: readiness needs a to-do status".into()),
        };
    };
    let cfg = idx.config();
    if !cfg
        .todo_statuses
        .iter()
        .any(|t| t.eq_ignore_ascii_case(status))
    {
        return no(format!(
            "status `{status}` is not a to-do status ({})",
            cfg.todo_statuses.join(", ")
        ));
    }
    let kinds = cycle_kinds(idx);
    let blocking = idx
        .resolved
        .links
        .iter()
        .filter(|l| l.from == i && kinds.contains(&l.kind) && l.class != Class::Sentinel);
    let mut blocked: Vec<String> = Vec::new();
    let mut unknown: Vec<String> = Vec::new();
    for l in blocking {
        match l.to {
            Some(t) if l.class == Class::Resolved && t == i => {
                blocked.push(format!("{} (itself)", d.id))
            }
            Some(t) if l.class == Class::Resolved => {
                let dep = &idx.docs[t];
                if !is_done(idx, dep) {
                    blocked.push(format!(
                        "{} ({})",
                        dep.id,
                        dep.status.as_deref().unwrap_or("no status")
                    ));
                }
            }
            _ => unknown.push(l.raw(&idx.docs).target.to_string()),
        }
    }
    if !blocked.is_empty() {
        return no(format!("blocked by {}", blocked.join(", ")));
    }
    if !unknown.is_empty() {
        return Readiness {
            ready: None,
            reason: Some(format!(
                "unknown: dependency {} does not resolve to a document",
                unknown.join(", ")
            )),
        };
    }
    Readiness {
        ready: Some(true),
        reason: None,
    }
}

/// Where a document stands in the live work, for `order=work` (the `nodes` resource): started
/// work first (a live status neither to-do nor done), then ready tasks, then waiting ones
/// (blocked or unknown), then documents with no status, then done, archived and drafts.
pub fn work_rank(idx: &Index, i: usize) -> u8 {
    let d = &idx.docs[i];
    if is_done(idx, d) || matches!(d.lifecycle.as_deref(), Some("archived" | "draft")) {
        return 4;
    }
    let Some(status) = d.status.as_deref() else {
        return 3;
    };
    let to_do = idx
        .config()
        .todo_statuses
        .iter()
        .any(|t| t.eq_ignore_ascii_case(status));
    match (to_do, readiness(idx, i).ready) {
        (false, _) => 0,
        (true, Some(true)) => 1,
        (true, _) => 2,
    }
}

/// [`readiness`] as answer fields: `ready`, and `readyReason` when it is not true.
pub fn readiness_json(idx: &Index, i: usize, v: &mut Value) {
    let r = readiness(idx, i);
    v["ready"] = json!(r.ready);
    if let Some(why) = r.reason {
        v["readyReason"] = json!(why);
    }
}

fn link_json(idx: &Index, l: &Link) -> Value {
    let d = &idx.docs[l.from];
    let r = l.raw(&idx.docs);
    let mut v = json!({
        "from": d.id, "fromPath": d.path, "target": r.target, "kind": r.kind.as_str(),
        "key": r.key, "line": r.line, "form": if r.key.is_some() {"metadata"} else if r.wikilink {"wikilink"} else {"markdown"},
        "class": l.class,
    });
    if let Some(to) = l.to {
        v["to"] = json!(idx.docs[to].id);
        v["toPath"] = json!(idx.docs[to].path);
    }
    if !l.candidates.is_empty() {
        v["candidates"] = candidates(idx, &l.candidates);
    }
    if !l.suggestions.is_empty() {
        v["suggestions"] = json!(l.suggestions);
    }
    if let Some(a) = &l.alias {
        v["aliasApplied"] = alias_json(a);
    }
    v
}

pub fn alias_json(a: &super::ids::AliasApplied) -> Value {
    json!({"written": a.written, "resolvedTo": a.resolved, "fromPrefix": a.from_prefix, "toPrefix": a.to_prefix,
           "reason": if a.implied {"implied: backlog/config.yml sets task_prefix, so the historical task- prefix maps to it"} else {"declared in id.normalize.prefix_aliases"}})
}

pub fn candidates(idx: &Index, c: &[usize]) -> Value {
    Value::Array(
        c.iter()
            .map(|i| json!({"id": idx.docs[*i].id, "path": idx.docs[*i].path, "status": idx.docs[*i].status, "lifecycle": idx.docs[*i].lifecycle}))
            .collect(),
    )
}

/// The references along `kinds` that did not resolve (what the context is missing), of each
/// document marked in `wanted`, in one pass over the links.
fn unresolved(idx: &Index, wanted: &[bool], kinds: &[Kind]) -> HashMap<usize, Vec<Value>> {
    let mut out: HashMap<usize, Vec<Value>> = HashMap::new();
    for l in &idx.resolved.links {
        if wanted[l.from]
            && kinds.contains(&l.kind)
            && matches!(l.class, Class::Broken | Class::Ambiguous)
        {
            out.entry(l.from).or_default().push(link_json(idx, l));
        }
    }
    out
}

/// The characters of one get_task_context page as JSON (its nodes and what describes them),
/// so that with the MCP envelope the answer an agent reads stays within 8,000 characters.
pub const CONTEXT_PAGE_CHARS: usize = 7_000;

/// At most this many omitted ids are named (the count is always exact).
const OMITTED_IDS: usize = 10;

/// At most this many cycles are described in a context answer (`cyclesTotal` counts them all).
const CONTEXT_CYCLES: usize = 5;

/// get_task_context: the task then its upstream closure, nearest first, paged from `offset` of
/// that order. A page holds at most `page_chars` characters of JSON and `limits.context_max_bytes`
/// bytes of Markdown; nodes deeper than `max_depth` are counted in `omitted`, never shown.
pub fn context(
    idx: &Index,
    start: usize,
    max_depth: usize,
    offset: usize,
    page_chars: usize,
) -> Value {
    let kinds = cycle_kinds(idx);
    let markdown_budget = idx.config().limits.context_max_bytes;
    // The whole closure, so that what maxDepth leaves out is counted exactly; levels past
    // maxDepth + 1 are only counted, so they are not sorted.
    let mut seen = vec![false; idx.docs.len()];
    seen[start] = true;
    let mut order: Vec<(usize, usize)> = vec![(start, 0)];
    let mut level_start = 0;
    let mut depth = 0;
    while level_start < order.len() {
        let level_end = order.len();
        depth += 1;
        for k in level_start..level_end {
            let n = order[k].0;
            for e in &idx.resolved.out[n] {
                let e = &idx.resolved.edges[*e];
                if kinds.contains(&e.kind) && !seen[e.to] {
                    seen[e.to] = true;
                    order.push((e.to, depth));
                }
            }
        }
        if depth <= max_depth + 1 {
            order[level_end..].sort_by(|a, b| idx.docs[a.0].key.cmp(&idx.docs[b.0].key));
        }
        level_start = level_end;
    }
    let shown_max = order.partition_point(|(_, d)| *d <= max_depth);
    let (cycles, in_cycle) = closure_cycles(idx, &seen, &kinds);
    let offset = offset.min(shown_max);
    let answer = |nodes: Vec<Value>, next: usize, bytes: usize, links: Vec<Value>| {
        let later = shown_max - next;
        let deeper = order.len() - shown_max;
        let earlier = offset;
        let ids: Vec<&str> = order[next..]
            .iter()
            .take(OMITTED_IDS)
            .map(|(n, _)| idx.docs[*n].id.as_str())
            .collect();
        let mut why = Vec::new();
        if earlier > 0 {
            why.push(format!("{earlier} on earlier pages"));
        }
        if later > 0 {
            why.push(format!(
                "page size: {later} on later pages (pass nextCursor as `cursor`)"
            ));
        }
        if deeper > 0 {
            why.push(format!(
                "maxDepth {max_depth}: {deeper} deeper (raise maxDepth, at most 50)"
            ));
        }
        let reason = if why.is_empty() {
            "nothing omitted: this page shows the whole closure".to_owned()
        } else {
            why.join("; ")
        };
        let body_cut = nodes.iter().any(|n| n["markdownTruncated"] == true);
        json!({
            "taskId": idx.docs[start].id,
            "nodes": nodes,
            "truncated": earlier + later + deeper > 0 || body_cut,
            "depthLimited": deeper > 0,
            "maxDepth": max_depth,
            "maxBytes": markdown_budget,
            "bytes": bytes,
            "omitted": {"count": earlier + later + deeper, "onEarlierPages": earlier, "onLaterPages": later, "beyondMaxDepth": deeper, "ids": ids, "reason": reason},
            "nextCursor": if next < shown_max { json!(encode_cursor(next)) } else { Value::Null },
            "totalNodes": order.len(),
            "cycles": cycles.iter().take(CONTEXT_CYCLES).collect::<Vec<_>>(),
            "cyclesTotal": cycles.len(),
            "unresolvedDependencies": links,
        })
    };
    // What the page costs besides its nodes, with the longest omitted ids it could name.
    let overhead =
        nexus_mcp_runtime::trim::size(&answer(Vec::new(), offset, usize::MAX, Vec::new()))
            + 2 * OMITTED_IDS;
    let mut room = page_chars.saturating_sub(overhead);
    let mut missing = unresolved(idx, &seen, &kinds);
    let mut nodes = Vec::new();
    let mut links = Vec::new();
    let mut used = 0usize;
    let mut next = offset;
    for &(n, depth) in &order[offset..shown_max] {
        let d = &idx.docs[n];
        let md = idx.redacted_body(d);
        let unresolved = missing.remove(&n).unwrap_or_default();
        let mut node = json!({
            "id": d.id, "path": d.path, "depth": depth, "title": d.title, "status": d.status,
            "type": d.doc_type, "markdown": "", "markdownTruncated": false, "markdownBytes": md.len(),
        });
        if in_cycle.contains(&n) {
            node["inCycle"] = json!(true);
        }
        let fixed = nexus_mcp_runtime::trim::size(&node)
            + unresolved
                .iter()
                .map(|l| nexus_mcp_runtime::trim::size(l) + 1)
                .sum::<usize>()
            + 1;
        let fits = fixed + json_len(&md) <= room && used + md.len() <= markdown_budget;
        if !fits && !nodes.is_empty() {
            break;
        }
        let text = if fits {
            &md[..]
        } else {
            // A first node too large for a page alone: its Markdown is cut (get_node has it).
            let cut = json_prefix(&md, room.saturating_sub(fixed));
            &cut[..cut
                .len()
                .min(floor_boundary(&md, markdown_budget.saturating_sub(used)))]
        };
        node["markdownTruncated"] = json!(text.len() < md.len());
        node["markdown"] = json!(text);
        room = room.saturating_sub(fixed + json_len(text));
        used += text.len();
        links.extend(unresolved);
        nodes.push(node);
        next += 1;
    }
    answer(nodes, next, used, links)
}

/// The length of `s` as a JSON string's content. Public for the fuzz targets only.
#[doc(hidden)]
pub fn json_len(s: &str) -> usize {
    s.chars().map(json_char_len).sum()
}

fn json_char_len(c: char) -> usize {
    match c {
        '"' | '\\' | '\n' | '\r' | '\t' | '\u{8}' | '\u{c}' => 2,
        c if c < ' ' => 6,
        c => c.len_utf8(),
    }
}

/// The longest prefix of `s` whose JSON string content fits `chars`. Public for the fuzz
/// targets only.
#[doc(hidden)]
pub fn json_prefix(s: &str, chars: usize) -> &str {
    let mut total = 0;
    for (i, c) in s.char_indices() {
        total += json_char_len(c);
        if total > chars {
            return &s[..i];
        }
    }
    s
}

/// The largest char boundary of `s` at or below `at`.
fn floor_boundary(s: &str, at: usize) -> usize {
    let mut end = at.min(s.len());
    while end > 0 && !s.is_char_boundary(end) {
        end -= 1;
    }
    end
}

/// The dependency cycles through the closure (a closure holds every successor of its nodes,
/// so a cycle through one of them lies inside it), each in the audit's shape, and the set of
/// closure nodes in a cycle. The workspace's cycles are found once per change.
fn closure_cycles(idx: &Index, seen: &[bool], kinds: &[Kind]) -> (Vec<Value>, HashSet<usize>) {
    // Membership only, over dense positions: once per change, about a millisecond at 10,000
    // documents (the audit's `cycles` also finds every component's path, which only the
    // components through this closure need, below).
    let all = idx.cycle_members(|| {
        let cycle = cycle_kinds(idx);
        let adj: Vec<Vec<usize>> = idx
            .resolved
            .out
            .iter()
            .map(|out| {
                out.iter()
                    .map(|e| &idx.resolved.edges[*e])
                    .filter(|e| cycle.contains(&e.kind))
                    .map(|e| e.to)
                    .collect()
            })
            .collect();
        let key = |n: &usize| &idx.docs[*n].key;
        let mut comps: Vec<Vec<usize>> = crate::core::graph::tarjan_dense(&adj)
            .into_iter()
            .filter(|c| c.len() > 1 || adj[c[0]].contains(&c[0]))
            .map(|mut c| {
                c.sort_by(|a, b| key(a).cmp(key(b)).then(a.cmp(b)));
                c
            })
            .collect();
        comps.sort_by(|a, b| key(&a[0]).cmp(key(&b[0])));
        comps
    });
    let id = |n: &usize| idx.docs[*n].id.clone();
    let mut out = Vec::new();
    let mut members = HashSet::new();
    for comp in all.iter().filter(|c| seen[c[0]]) {
        let path = if comp.len() == 1 {
            vec![comp[0], comp[0]]
        } else {
            cycle_path(idx, comp, kinds)
        };
        // The audit's shape (validate_traceability's `cycles`).
        let path: Vec<String> = path.iter().map(id).collect();
        out.push(json!({
            "ids": comp.iter().map(id).collect::<Vec<_>>(),
            "path": path.join(" -> "),
            "pathIds": path,
        }));
        members.extend(comp.iter().copied());
    }
    (out, members)
}

/// The graph around `start`: nodes within `depth` hops along `kinds`, both directions.
pub fn dependency_graph(
    idx: &Index,
    start: usize,
    depth: usize,
    kinds: &[Kind],
    max_nodes: usize,
) -> Value {
    let mut seen: BTreeMap<usize, usize> = BTreeMap::from([(start, 0)]);
    let mut edges: Vec<Value> = Vec::new();
    let mut edge_seen: HashSet<usize> = HashSet::new();
    let mut truncated = false;
    for (forward, dir) in [(true, "depends_on"), (false, "depended_by")] {
        let mut frontier = vec![start];
        let mut dist: HashMap<usize, usize> = HashMap::from([(start, 0)]);
        for level in 1..=depth {
            let mut next = Vec::new();
            for &n in &frontier {
                let list = if forward {
                    &idx.resolved.out[n]
                } else {
                    &idx.resolved.inn[n]
                };
                for &ei in list {
                    let e = &idx.resolved.edges[ei];
                    if !kinds.contains(&e.kind) {
                        continue;
                    }
                    let m = if forward { e.to } else { e.from };
                    if !seen.contains_key(&m) && seen.len() >= max_nodes {
                        truncated = true;
                        continue;
                    }
                    if edge_seen.insert(ei) {
                        edges.push(json!({"from": idx.docs[e.from].id, "to": idx.docs[e.to].id, "kind": e.kind.as_str(), "direction": dir}));
                    }
                    seen.entry(m).or_insert(level);
                    if let std::collections::hash_map::Entry::Vacant(v) = dist.entry(m) {
                        v.insert(level);
                        next.push(m);
                    }
                }
            }
            frontier = next;
        }
        // Anything left to expand at the depth bound means the graph goes on.
        for &n in &frontier {
            let list = if forward {
                &idx.resolved.out[n]
            } else {
                &idx.resolved.inn[n]
            };
            if list
                .iter()
                .any(|ei| kinds.contains(&idx.resolved.edges[*ei].kind))
            {
                truncated = true;
            }
        }
    }
    let nodes: Vec<Value> = seen
        .iter()
        .map(|(n, d)| {
            let mut s = summary(idx, *n);
            s["depth"] = json!(d);
            s
        })
        .collect();
    // The cycles among the nodes shown: one shortest path per component, as in the audit.
    let mut order: Vec<usize> = seen.keys().copied().collect();
    order.sort_by(|a, b| idx.docs[*a].key.cmp(&idx.docs[*b].key).then(a.cmp(b)));
    let cyc = cycles_among(idx, &order);
    let (cycles, self_loops, enumeration) = cycles_json(idx, &cyc, idx.config().limits.max_cycles);
    json!({"nodeId": idx.docs[start].id, "depth": depth, "nodes": nodes, "edges": edges, "truncated": truncated,
           "cycles": cycles, "selfLoops": self_loops, "cycleCount": cyc.components.len(), "cycleEnumeration": enumeration})
}

/// analyze_impact: documents that depend on `start`, transitively, within `depth`, and the
/// longest dependency chains from it.
pub fn impact(idx: &Index, start: usize, depth: usize) -> Value {
    let kinds = cycle_kinds(idx);
    let reached = bounded_bfs(
        &[start],
        depth,
        |n| dependents(idx, *n, &kinds).into_iter().map(|m| (m, ())),
        |_| Vec::<usize>::new(),
    );
    let mut affected: Vec<(usize, usize)> = Vec::new();
    for (d, level) in reached.levels.iter().enumerate() {
        let mut l: Vec<usize> = level.iter().map(|(n, _)| *n).collect();
        l.sort_by(|a, b| idx.docs[*a].key.cmp(&idx.docs[*b].key));
        affected.extend(l.into_iter().map(|n| (n, d + 1)));
    }
    let inside: HashSet<usize> = affected.iter().map(|(n, _)| *n).chain([start]).collect();
    let paths = critical_paths(idx, start, &inside, &kinds, 10);
    let ambiguous: Vec<Value> = idx
        .resolved
        .links
        .iter()
        .filter(|l| {
            l.class == Class::Ambiguous && l.candidates.contains(&start) && kinds.contains(&l.kind)
        })
        .map(|l| link_json(idx, l))
        .collect();
    json!({
        "taskId": idx.docs[start].id,
        "affectedNodes": affected.iter().map(|(n, d)| {
            let doc = &idx.docs[*n];
            json!({"id": doc.id, "path": doc.path, "title": doc.title, "status": doc.status, "depth": d})
        }).collect::<Vec<_>>(),
        "criticalPaths": paths.iter().map(|p| p.iter().map(|n| idx.docs[*n].id.clone()).collect::<Vec<_>>()).collect::<Vec<_>>(),
        "criticalPathLength": paths.first().map_or(0, |p| p.len().saturating_sub(1)),
        "totalAffected": affected.len(),
        "truncated": reached.cut_off,
        "depth": depth,
        "ambiguousReferences": ambiguous,
    })
}

/// The longest chains start → … → a dependent with no further dependents (in `inside`),
/// at most `cap` of them. Edges back into the chain being walked are ignored (cycles).
fn critical_paths(
    idx: &Index,
    start: usize,
    inside: &HashSet<usize>,
    kinds: &[Kind],
    cap: usize,
) -> Vec<Vec<usize>> {
    // Longest remaining length from each node, computed iteratively (deep chains).
    let mut longest: HashMap<usize, usize> = HashMap::new();
    let mut on_path: HashSet<usize> = HashSet::new();
    let mut stack: Vec<(usize, usize)> = vec![(start, 0)];
    on_path.insert(start);
    let succ = |n: usize| -> Vec<usize> {
        dependents(idx, n, kinds)
            .into_iter()
            .filter(|m| inside.contains(m))
            .collect()
    };
    while let Some(&mut (n, ref mut pos)) = stack.last_mut() {
        let s = succ(n);
        if *pos < s.len() {
            let m = s[*pos];
            *pos += 1;
            if !longest.contains_key(&m) && !on_path.contains(&m) {
                on_path.insert(m);
                stack.push((m, 0));
            }
        } else {
            let best = s
                .iter()
                .filter(|m| !on_path.contains(m))
                .filter_map(|m| longest.get(m))
                .map(|l| l + 1)
                .max()
                .unwrap_or(0);
            longest.insert(n, best);
            on_path.remove(&n);
            stack.pop();
        }
    }
    let total = longest.get(&start).copied().unwrap_or(0);
    if total == 0 {
        return Vec::new();
    }
    let mut out = Vec::new();
    let mut work: Vec<Vec<usize>> = vec![vec![start]];
    while let Some(path) = work.pop() {
        if out.len() >= cap {
            break;
        }
        let Some(&last) = path.last() else { continue };
        let rem = longest.get(&last).copied().unwrap_or(0);
        if rem == 0 {
            out.push(path);
            continue;
        }
        let mut nexts: Vec<usize> = succ(last)
            .into_iter()
            .filter(|m| !path.contains(m) && longest.get(m).copied() == Some(rem - 1))
            .collect();
        nexts.reverse();
        for m in nexts {
            let mut p = path.clone();
            p.push(m);
            work.push(p);
        }
    }
    out
}

/// The traceability audit: its summary (health, counts) and every finding, by category in
/// [`super::audit::CATEGORIES`] order ([`super::audit::page`] filters and pages them).
pub fn audit(idx: &Index) -> (Value, Vec<(&'static str, Vec<Value>)>) {
    let cfg = idx.config();
    let docs = &idx.docs;
    let n = docs.len();
    let mut parse_errors: Vec<Value> = Vec::new();
    if let Some(e) = &idx.loaded.error {
        parse_errors.push(json!(e));
    }
    parse_errors.extend(idx.glob_problems().iter().map(|e| json!(e)));
    parse_errors.extend(idx.walk_errors.iter().map(|e| json!(e)));
    let docs_with_errors: Vec<&Arc<Doc>> =
        docs.iter().filter(|d| d.parse_error.is_some()).collect();
    parse_errors.extend(
        docs_with_errors
            .iter()
            .filter_map(|d| d.parse_error.as_ref())
            .map(|e| json!(e)),
    );
    let dup_docs: HashSet<usize> = idx
        .resolved
        .duplicates
        .iter()
        .flat_map(|(_, v)| v.iter().copied())
        .collect();
    let duplicates: Vec<Value> = idx
        .resolved
        .duplicates
        .iter()
        .map(|(_, v)| json!({"id": docs[v[0]].id, "paths": v.iter().map(|i| docs[*i].path.clone()).collect::<Vec<_>>(), "candidates": candidates(idx, v)}))
        .collect();
    let by_class = |c: Class| idx.resolved.links.iter().filter(move |l| l.class == c);
    let list = |c: Class| by_class(c).map(|l| link_json(idx, l)).collect::<Vec<_>>();
    let broken = list(Class::Broken);
    let ambiguous = list(Class::Ambiguous);
    let external = list(Class::External);
    let external_path = list(Class::ExternalPath);
    let sentinels = list(Class::Sentinel);
    let resolved_count = by_class(Class::Resolved).count();
    let dangling = |k: Kind| {
        by_class(Class::Broken)
            .filter(|l| l.kind == k)
            .map(|l| link_json(idx, l))
            .collect::<Vec<_>>()
    };
    let cyc = cycles(idx);
    let max_cycles = cfg.limits.max_cycles;
    let (cycle_items, self_loops, enumeration) = cycles_json(idx, &cyc, max_cycles);
    let in_cycles: HashSet<usize> = cyc
        .components
        .iter()
        .flat_map(|(c, _)| c.iter().copied())
        .chain(cyc.self_loops.iter().copied())
        .collect();
    let one_sided = one_sided_supersession(idx);
    let aliases: Vec<Value> = idx
        .resolved
        .links
        .iter()
        .filter(|l| l.alias.is_some())
        .map(|l| link_json(idx, l))
        .collect();
    let rate = |num: usize, den: usize| {
        if den == 0 {
            0.0
        } else {
            num as f64 / den as f64
        }
    };
    let internal = resolved_count + broken.len() + ambiguous.len();
    let link_rate = rate(broken.len() + ambiguous.len(), internal);
    let cycle_rate = rate(in_cycles.len(), n);
    let parse_rate = rate(docs_with_errors.len(), n);
    let dup_rate = rate(dup_docs.len(), n);
    let raw = 100.0 - 40.0 * link_rate - 25.0 * cycle_rate - 20.0 * parse_rate - 15.0 * dup_rate;
    let score = raw.round().clamp(0.0, 100.0) as i64;
    let comp = |w: f64, r: f64, num: usize, den: usize| json!({"weight": w, "rate": (r * 10000.0).round() / 10000.0, "penalty": (w * r * 100.0).round() / 100.0, "count": num, "of": den});
    let summary = json!({
        // No document is no evidence of health: the answer's warning says what was looked for.
        "healthScore": if n == 0 { Value::Null } else { json!(score) },
        "healthFormula": HEALTH_FORMULA,
        "healthComponents": {
            "links": comp(40.0, link_rate, broken.len() + ambiguous.len(), internal),
            "cycles": comp(25.0, cycle_rate, in_cycles.len(), n),
            "parseErrors": comp(20.0, parse_rate, docs_with_errors.len(), n),
            "duplicateIds": comp(15.0, dup_rate, dup_docs.len(), n),
        },
        "counts": {
            "documents": n,
            "references": idx.resolved.links.len(),
            "resolved": resolved_count,
            "parseErrors": parse_errors.len(),
            "duplicateIds": duplicates.len(),
            "brokenLinks": broken.len(),
            "ambiguousLinks": ambiguous.len(),
            "externalLinks": external.len(),
            "externalPaths": external_path.len(),
            "sentinels": sentinels.len(),
            "cycles": cyc.components.len(),
            "selfLoops": cyc.self_loops.len(),
            "danglingDependencies": dangling(Kind::DependsOn).len(),
            "danglingParents": dangling(Kind::Parent).len(),
            "oneSidedSupersession": one_sided.len(),
            "aliasesApplied": aliases.len(),
        },
        "componentCount": cyc.components.len(),
        "cycleEnumeration": enumeration,
        "maxCycles": max_cycles,
        "cycleKinds": cycle_kinds(idx).iter().map(|k| k.as_str()).collect::<Vec<_>>(),
    });
    let findings = vec![
        ("parseErrors", parse_errors),
        ("duplicateIds", duplicates),
        ("cycles", cycle_items),
        ("selfLoops", self_loops),
        ("brokenLinks", broken),
        ("danglingDependencies", dangling(Kind::DependsOn)),
        ("danglingParents", dangling(Kind::Parent)),
        ("ambiguousLinks", ambiguous),
        ("oneSidedSupersession", one_sided),
        ("aliasesApplied", aliases),
        ("externalPaths", external_path),
        ("externalLinks", external),
        ("sentinels", sentinels),
    ];
    (summary, findings)
}

/// `A replaces B` without `B superseded-by A`, or the other way round (only when inverse keys
/// are configured: otherwise one side is all a format can say).
fn one_sided_supersession(idx: &Index) -> Vec<Value> {
    if idx.config().edges.supersedes.inverse_keys.is_empty() {
        return Vec::new();
    }
    let mut forward: HashSet<(usize, usize)> = HashSet::new();
    let mut inverse: HashSet<(usize, usize)> = HashSet::new();
    for e in &idx.resolved.edges {
        if e.kind != Kind::Supersedes {
            continue;
        }
        if idx.resolved.links[e.link].inverse {
            inverse.insert((e.from, e.to));
        } else {
            forward.insert((e.from, e.to));
        }
    }
    let mut out: Vec<(usize, usize, &str)> = forward
        .difference(&inverse)
        .map(|p| (p.0, p.1, "declared by the newer document only"))
        .chain(
            inverse
                .difference(&forward)
                .map(|p| (p.0, p.1, "declared by the older document only")),
        )
        .collect();
    out.sort();
    out.into_iter()
        .map(|(a, b, side)| {
            json!({"newer": idx.docs[a].id, "older": idx.docs[b].id, "newerPath": idx.docs[a].path, "olderPath": idx.docs[b].path, "note": side})
        })
        .collect()
}
