//! The generated Backlog.md-style folder of the doc-kg benchmark (benches/doc_kg.rs), shared
//! with the tests that need the same 10,000-task folder: tasks in layers of 100, each
//! depending on 1-3 tasks of the 3 layers before, with realistic bodies; committed as a git
//! repository. Deterministic: every run writes the same folder.
#![allow(dead_code, clippy::unwrap_used, clippy::expect_used)]

use std::fmt::Write as _;
use std::path::Path;

/// A small deterministic generator (xorshift), so every run benches the same workspace.
pub struct Rng(pub u64);
impl Rng {
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    pub fn below(&mut self, n: usize) -> usize {
        usize::try_from(self.next() % n as u64).unwrap()
    }
}

const WORDS: &[&str] = &[
    "invoice",
    "ledger",
    "payment",
    "refund",
    "customer",
    "schema",
    "migration",
    "endpoint",
    "cursor",
    "export",
    "import",
    "audit",
    "report",
    "queue",
    "retry",
    "webhook",
    "token",
    "session",
    "cache",
    "index",
    "search",
    "render",
    "template",
    "email",
    "statement",
];

fn sentence(rng: &mut Rng, words: usize) -> String {
    let mut s = String::new();
    for i in 0..words {
        if i > 0 {
            s.push(' ');
        }
        s.push_str(WORDS[rng.below(WORDS.len())]);
    }
    s
}

/// Tasks in layers of 100: a task depends on 1-3 tasks of earlier layers, so chains are up to
/// `tasks / 100` deep and every task has upstream and downstream neighbours.
pub fn generate(root: &Path, tasks: usize) {
    let dir = root.join("backlog/tasks");
    std::fs::create_dir_all(&dir).unwrap();
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    for n in 1..=tasks {
        let layer = (n - 1) / 100;
        let mut deps = Vec::new();
        if layer > 0 {
            for _ in 0..1 + rng.below(3) {
                let back = 1 + rng.below(layer.min(3));
                let d = (layer - back) * 100 + 1 + rng.below(100);
                if !deps.contains(&d) {
                    deps.push(d);
                }
            }
        }
        let deps: Vec<String> = deps.iter().map(|d| format!("TASK-{d}")).collect();
        let title = sentence(&mut rng, 4);
        let mut body = format!(
            "---\nid: TASK-{n}\ntitle: {title}\nstatus: {}\nassignee: [\"@dev{}\"]\ncreated_date: '2025-05-{:02} 10:00'\nlabels: [billing]\ndependencies: [{}]\n---\n\n## Description\n\n",
            ["To Do", "In Progress", "Done"][rng.below(3)],
            rng.below(20),
            1 + rng.below(28),
            deps.join(", ")
        );
        for _ in 0..3 {
            let _ = writeln!(body, "{}.", sentence(&mut rng, 18));
        }
        body.push_str("\n## Acceptance Criteria\n<!-- AC:BEGIN -->\n");
        for i in 1..=3 {
            let mark = if rng.below(2) == 0 { ' ' } else { 'x' };
            let _ = writeln!(body, "- [{mark}] #{i} {}", sentence(&mut rng, 8));
        }
        body.push_str("<!-- AC:END -->\n");
        std::fs::write(
            dir.join(format!("task-{n} - {}.md", title.replace(' ', "-"))),
            body,
        )
        .unwrap();
    }
    super::corpora::commit_folder(root, "generated backlog");
}

/// Each task's `dependencies:` as its file says (read without the docs domain, so a test's
/// expectation is computed independently): `TASK-n` -> `[TASK-m, …]`.
pub fn dependencies(root: &Path) -> std::collections::HashMap<String, Vec<String>> {
    let mut out = std::collections::HashMap::new();
    for entry in std::fs::read_dir(root.join("backlog/tasks")).unwrap() {
        let text = std::fs::read_to_string(entry.unwrap().path()).unwrap();
        let field = |key: &str| {
            text.lines()
                .find_map(|l| l.strip_prefix(key))
                .unwrap()
                .trim()
                .to_owned()
        };
        let deps = field("dependencies:");
        let deps = deps.trim_start_matches('[').trim_end_matches(']');
        out.insert(
            field("id:"),
            deps.split(',')
                .map(str::trim)
                .filter(|d| !d.is_empty())
                .map(str::to_owned)
                .collect(),
        );
    }
    out
}

/// The upstream closure of `start` with each node's distance (breadth-first, `start` at 0).
pub fn closure(
    deps: &std::collections::HashMap<String, Vec<String>>,
    start: &str,
) -> std::collections::HashMap<String, usize> {
    let mut dist = std::collections::HashMap::from([(start.to_owned(), 0)]);
    let mut frontier = vec![start.to_owned()];
    let mut depth = 0;
    while !frontier.is_empty() {
        depth += 1;
        let mut next = Vec::new();
        for n in &frontier {
            for m in deps.get(n).into_iter().flatten() {
                if !dist.contains_key(m) {
                    dist.insert(m.clone(), depth);
                    next.push(m.clone());
                }
            }
        }
        frontier = next;
    }
    dist
}
