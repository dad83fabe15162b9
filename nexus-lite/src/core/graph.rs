//! Graph algorithms over any node ids: strongly connected components (cycles) and a
//! depth-bounded breadth-first search (dependents for impact). The code graph uses them over
//! files and symbols; a documentation graph can use them over its dependency edges.

use std::collections::{HashMap, HashSet};
use std::hash::Hash;

/// Strongly connected components (Tarjan, iterative) of the graph over `nodes` with
/// `successors(n)`. Nodes are visited in the order given and successors in the order yielded;
/// successors that are not in `nodes` are ignored. A component lists its nodes in the order
/// they left the stack; a component comes before every component that reaches it.
pub fn tarjan<N, I>(nodes: &[N], mut successors: impl FnMut(&N) -> I) -> Vec<Vec<N>>
where
    N: Clone + Eq + Hash,
    I: IntoIterator<Item = N>,
{
    let position: HashMap<&N, usize> = nodes.iter().enumerate().map(|(i, n)| (n, i)).collect();
    let adj: Vec<Vec<usize>> = nodes
        .iter()
        .map(|n| {
            successors(n)
                .into_iter()
                .filter_map(|s| position.get(&s).copied())
                .collect()
        })
        .collect();
    tarjan_dense(&adj)
        .into_iter()
        .map(|comp| comp.into_iter().map(|i| nodes[i].clone()).collect())
        .collect()
}

/// [`tarjan`] over dense indices `0..adj.len()` (successors outside the range are not allowed).
pub fn tarjan_dense(adj: &[Vec<usize>]) -> Vec<Vec<usize>> {
    let n = adj.len();
    let mut index = vec![usize::MAX; n];
    let mut low = vec![0usize; n];
    let mut on_stack = vec![false; n];
    let mut stack = Vec::new();
    let mut out = Vec::new();
    let mut counter = 0;
    for start in 0..n {
        if index[start] != usize::MAX {
            continue;
        }
        let mut call: Vec<(usize, usize)> = vec![(start, 0)];
        index[start] = counter;
        low[start] = counter;
        counter += 1;
        stack.push(start);
        on_stack[start] = true;
        while let Some(&mut (v, ref mut pos)) = call.last_mut() {
            if *pos < adj[v].len() {
                let w = adj[v][*pos];
                *pos += 1;
                if index[w] == usize::MAX {
                    index[w] = counter;
                    low[w] = counter;
                    counter += 1;
                    stack.push(w);
                    on_stack[w] = true;
                    call.push((w, 0));
                } else if on_stack[w] {
                    low[v] = low[v].min(index[w]);
                }
            } else {
                call.pop();
                if let Some(&(parent, _)) = call.last() {
                    low[parent] = low[parent].min(low[v]);
                }
                if low[v] == index[v] {
                    let mut comp = Vec::new();
                    while let Some(w) = stack.pop() {
                        on_stack[w] = false;
                        comp.push(w);
                        if w == v {
                            break;
                        }
                    }
                    out.push(comp);
                }
            }
        }
    }
    out
}

/// What [`bounded_bfs`] reached.
#[derive(Debug, PartialEq)]
pub struct Reached<N, E> {
    /// `levels[d - 1]`: the nodes first reached at depth `d`, with the edge that reached them,
    /// in discovery order (nodes carried along by [`bounded_bfs`]'s `carried` are not listed).
    pub levels: Vec<Vec<(N, E)>>,
    /// The search stopped at the depth bound with nodes still to expand.
    pub cut_off: bool,
}

/// Breadth-first search from `starts` along `neighbours(n)` (neighbour, edge), at most
/// `max_depth` levels deep. Every node is reached once, at its smallest depth; starts count as
/// reached. When a node is reached, the nodes `carried(node)` (its members, say the symbols of
/// a file) join the same level's frontier unlisted, unless already reached.
pub fn bounded_bfs<N, E, I, C>(
    starts: &[N],
    max_depth: usize,
    mut neighbours: impl FnMut(&N) -> I,
    mut carried: impl FnMut(&N) -> C,
) -> Reached<N, E>
where
    N: Clone + Eq + Hash,
    I: IntoIterator<Item = (N, E)>,
    C: IntoIterator<Item = N>,
{
    let mut seen: HashSet<N> = starts.iter().cloned().collect();
    let mut frontier: Vec<N> = starts.to_vec();
    let mut levels = Vec::new();
    for _ in 0..max_depth {
        let mut level = Vec::new();
        let mut next = Vec::new();
        for n in &frontier {
            for (m, edge) in neighbours(n) {
                if !seen.insert(m.clone()) {
                    continue;
                }
                next.push(m.clone());
                for c in carried(&m) {
                    if seen.insert(c.clone()) {
                        next.push(c);
                    }
                }
                level.push((m, edge));
            }
        }
        // Only the last level can be empty (nothing listed means nothing queued).
        if !level.is_empty() {
            levels.push(level);
        }
        frontier = next;
        if frontier.is_empty() {
            break;
        }
    }
    Reached {
        levels,
        cut_off: !frontier.is_empty() && max_depth > 0,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sorted(mut sccs: Vec<Vec<&'static str>>) -> Vec<Vec<&'static str>> {
        for c in &mut sccs {
            c.sort();
        }
        sccs.sort();
        sccs
    }

    #[test]
    fn tarjan_finds_cycles_over_any_ids_and_ignores_edges_leaving_the_set() {
        let edges: HashMap<&str, Vec<&str>> = HashMap::from([
            ("a", vec!["b"]),
            ("b", vec!["a", "c", "outside"]),
            ("c", vec!["c"]),
            ("d", vec![]),
        ]);
        let nodes = ["a", "b", "c", "d"];
        let sccs = tarjan(&nodes, |n| edges[n].clone());
        assert_eq!(sorted(sccs), vec![vec!["a", "b"], vec!["c"], vec!["d"]]);
    }

    #[test]
    fn tarjan_lists_a_component_before_the_components_that_reach_it() {
        // a -> b -> c -> b: {b, c} is reached from a, so it comes first.
        let nodes = [0usize, 1, 2];
        let succ = [vec![1], vec![2], vec![1]];
        let sccs = tarjan(&nodes, |n| succ[*n].clone());
        assert_eq!(sccs.len(), 2);
        assert_eq!(sccs[1], vec![0]);
    }

    #[test]
    fn bounded_bfs_reports_levels_once_each_and_says_when_it_was_cut_off() {
        // Dependents: 1 <- 2 <- 3 <- 4, and 1 <- 3 (so 3 is at depth 1, not 2).
        let rev: HashMap<u32, Vec<(u32, &str)>> = HashMap::from([
            (1, vec![(2, "imports"), (3, "calls")]),
            (2, vec![(3, "imports")]),
            (3, vec![(4, "imports")]),
        ]);
        let none = |_: &u32| Vec::<u32>::new();
        let step = |n: &u32| rev.get(n).cloned().unwrap_or_default();
        let all = bounded_bfs(&[1], 6, step, none);
        assert_eq!(
            all.levels,
            vec![vec![(2, "imports"), (3, "calls")], vec![(4, "imports")]]
        );
        assert!(!all.cut_off);
        let one = bounded_bfs(&[1], 1, step, none);
        assert_eq!(one.levels, vec![vec![(2, "imports"), (3, "calls")]]);
        assert!(one.cut_off, "depth 1 left 2 and 3 unexpanded");
    }

    #[test]
    fn bounded_bfs_carries_members_along_unlisted_and_expands_them_next() {
        // File 10 holds symbol 11; 11 is called by 20. Reaching 10 from 1 carries 11 along.
        let rev: HashMap<u32, Vec<(u32, &str)>> =
            HashMap::from([(1, vec![(10, "imports")]), (11, vec![(20, "calls")])]);
        let members = |n: &u32| if *n == 10 { vec![11] } else { vec![] };
        let r = bounded_bfs(
            &[1],
            3,
            |n| rev.get(n).cloned().unwrap_or_default(),
            members,
        );
        assert_eq!(r.levels, vec![vec![(10, "imports")], vec![(20, "calls")]]);
        assert!(!r.cut_off);
    }
}
