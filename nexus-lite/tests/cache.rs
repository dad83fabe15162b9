#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
//! The parse and analyser caches live in SQLite: after a restart (a new process: here a new
//! `AppState` on the same data directory, which is all a process holds), a one-file change
//! re-parses and re-analyses that one file, the graph equals a from-scratch one, and the cache
//! holds only what the latest graph references.

mod common;

use common::*;
use nexus_lite::{AppState, LiteConfig, RepoSpec, RunOutcome};
use serde_json::Value;
use std::path::Path;

fn spec(repo: &Path) -> RepoSpec {
    RepoSpec {
        name: None,
        path: repo.to_path_buf(),
    }
}

/// Extra languages so cached parses of every language (and Rust `detail`) round-trip.
fn add_other_languages(repo: &Path) {
    write(
        repo,
        "engine/src/lib.rs",
        "mod shapes;\npub use shapes::Square;\n",
    );
    write(
        repo,
        "engine/src/shapes.rs",
        "pub trait Area { fn area(&self) -> f64; }\npub struct Square(pub f64);\nimpl Area for Square { fn area(&self) -> f64 { self.0 * self.0 } }\npub enum Kind { A, B }\n",
    );
    write(
        repo,
        "web/app.tsx",
        "import { helper } from './util';\nexport class App { render() { return helper(); } }\n",
    );
    write(repo, "web/util.ts", "export const helper = () => 1;\n");
    write(repo, "web/main.js", "const x = require('./util');\n");
    git(repo, &["add", "-A"]);
    git(repo, &["commit", "-qm", "other languages"]);
}

fn cache_sizes(data: &Path) -> (i64, i64) {
    let conn = nexus_lite::core::db::open(data).unwrap();
    nexus_lite::code::cache::sizes(&conn).unwrap()
}

fn stat(o: &RunOutcome, k: &str) -> u64 {
    o.stats[k]
        .as_u64()
        .unwrap_or_else(|| panic!("stat {k} in {}", o.stats))
}

fn finding_keys(data: &Path, graph_id: &str) -> Vec<(String, String)> {
    let conn = nexus_lite::core::db::open(data).unwrap();
    let mut st = conn
        .prepare(
            "SELECT f.dedupe_key, f.finding_type FROM findings f JOIN graphs g ON g.gpk=f.gpk
             WHERE g.graph_id=?1 ORDER BY 1, 2",
        )
        .unwrap();
    st.query_map([graph_id], |r| Ok((r.get(0)?, r.get(1)?)))
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap()
}

#[test]
fn a_restart_then_a_one_file_change_reparses_one_file() {
    let analysers = analysers_available();
    let repo_dir = tempfile::tempdir().unwrap();
    let data_dir = tempfile::tempdir().unwrap();
    let repo = repo_dir.path();
    let data = data_dir.path();
    fixture_repo(repo);
    add_other_languages(repo);
    // Old enough for their reads to be kept (and stored), as a real checkout's files are.
    age_files(repo);
    let sources = 7 + 5;
    let python = 7;
    let tracked = git(repo, &["ls-files"]).lines().count() as u64;

    // Process 1: full run.
    let full = nexus_lite::index_once(
        data.to_path_buf(),
        spec(repo),
        nexus_lite::DEFAULT_KEEP_GRAPHS,
    )
    .unwrap();
    assert_eq!(stat(&full, "files_parsed"), sources);
    assert_eq!(stat(&full, "files_reused"), 0);
    assert_eq!(stat(&full, "parses_stored"), sources);
    let (parses, results) = cache_sizes(data);
    assert_eq!(parses, sources as i64);
    if analysers {
        assert_eq!(results, 2 * python as i64, "ruff + bandit per Python file");
        let bandit = full.analysers.iter().find(|a| a.tool == "bandit").unwrap();
        assert_eq!(
            bandit.reason.as_deref(),
            Some("bandit could not scan 1 file(s) (app/broken.py): their findings are unknown")
        );
    }

    // Process 2 (a restart): the same tree is one file away.
    write(
        repo,
        "app/crypto.py",
        "import hashlib\nimport os\n\n\ndef digest(data):\n    return hashlib.md5(data).hexdigest()\n\n\nclass Hasher:\n    def run(self, data):\n        return digest(data)\n",
    );
    git(repo, &["commit", "-qam", "md5"]);
    {
        let state = AppState::new(&LiteConfig {
            keep_graphs: nexus_lite::DEFAULT_KEEP_GRAPHS,
            data_dir: data.to_path_buf(),
            repos: vec![spec(repo)],
            token: String::new(),
            index_on_first_use: false,
            workspaces: Vec::new(),
            docs_limits: Default::default(),
        })
        .unwrap();
        let plan = state.make_plan(&state.repos[0], None).unwrap();
        assert_eq!(
            plan.json["would_reindex"]["mode"], "incremental",
            "{}",
            plan.json
        );
        assert_eq!(plan.json["would_reindex"]["files"], 1, "{}", plan.json);
    }
    let inc = nexus_lite::index_once(
        data.to_path_buf(),
        spec(repo),
        nexus_lite::DEFAULT_KEEP_GRAPHS,
    )
    .unwrap();
    assert_eq!(stat(&inc, "files_parsed"), 1, "{}", inc.stats);
    // Every other file is taken from the reads process 1 stored: not read, hashed or scanned.
    assert_eq!(stat(&inc, "files_unread"), tracked - 1, "{}", inc.stats);
    assert_eq!(stat(&inc, "files_reused"), sources - 1);
    assert_eq!(stat(&inc, "files_reused_from_db"), sources - 1);
    assert_eq!(stat(&inc, "parses_stored"), 1);
    if analysers {
        assert_eq!(
            stat(&inc, "analyser_results_reused_from_db"),
            2 * (python - 1)
        );
        for a in inc
            .analysers
            .iter()
            .filter(|a| a.tool == "ruff" || a.tool == "bandit")
        {
            assert_eq!(a.status, "ok", "{a:?}");
            let reason = a.reason.as_deref().unwrap_or("");
            assert!(reason.contains("ran on 1 changed file(s)"), "{a:?}");
            // bandit cannot scan app/broken.py: still said when its results are reused.
            assert_eq!(
                reason.contains("could not scan 1 file(s) (app/broken.py)"),
                a.tool == "bandit",
                "{a:?}"
            );
            assert!(
                a.version.is_some(),
                "version remembered with the results: {a:?}"
            );
        }
    }
    // Bounded: the old parse of app/crypto.py (and its analyser results) are gone.
    let (parses, results) = cache_sizes(data);
    assert_eq!(parses, sources as i64);
    if analysers {
        assert_eq!(results, 2 * python as i64);
    }

    // The graph built from the stored caches equals a from-scratch one.
    let fresh_dir = tempfile::tempdir().unwrap();
    let fresh = nexus_lite::index_once(
        fresh_dir.path().to_path_buf(),
        spec(repo),
        nexus_lite::DEFAULT_KEEP_GRAPHS,
    )
    .unwrap();
    assert_eq!(stat(&fresh, "files_parsed"), sources);
    assert_eq!(inc.counts, fresh.counts);
    for k in ["nodes", "edges"] {
        assert_eq!(inc.stats[k], fresh.stats[k], "{k}");
    }
    let inc_findings = finding_keys(data, &inc.graph_id);
    assert_eq!(
        inc_findings,
        finding_keys(fresh_dir.path(), &fresh.graph_id)
    );
    if analysers {
        assert!(
            inc_findings
                .iter()
                .any(|(_, t)| t.starts_with("bandit_b324")),
            "{inc_findings:?}"
        );
        assert!(inc_findings.iter().any(|(_, t)| t == "ruff_f401"));
    }
    let details = |d: &Path, g: &str| -> Value {
        let conn = nexus_lite::core::db::open(d).unwrap();
        let v: String = conn
            .query_row(
                "SELECT json_group_array(n.qualified_name || ':' || COALESCE(n.detail, ''))
                 FROM (SELECT n.* FROM nodes n JOIN graphs g ON g.gpk=n.gpk WHERE g.graph_id=?1
                       ORDER BY n.qualified_name) n",
                [g],
                |r| r.get(0),
            )
            .unwrap();
        serde_json::from_str(&v).unwrap()
    };
    let d = details(data, &inc.graph_id);
    assert_eq!(d, details(fresh_dir.path(), &fresh.graph_id));
    assert!(
        d.to_string().contains("engine/src/shapes.Square:struct"),
        "{d}"
    );

    // A third process with nothing changed parses nothing.
    let same = nexus_lite::index_once(
        data.to_path_buf(),
        spec(repo),
        nexus_lite::DEFAULT_KEEP_GRAPHS,
    )
    .unwrap();
    assert_eq!(stat(&same, "files_parsed"), 0);
    assert_eq!(stat(&same, "parses_stored"), 0);
    // app/crypto.py was written just before process 2 read it: that read was not kept.
    assert_eq!(stat(&same, "files_unread"), tracked - 1, "{}", same.stats);

    // Reads stored, parses gone (another parser version would drop them the same way): the
    // unread files are read after all, and the graph is the same.
    nexus_lite::core::db::open(data)
        .unwrap()
        .execute("DELETE FROM parse_cache", [])
        .unwrap();
    let reparsed = nexus_lite::index_once(
        data.to_path_buf(),
        spec(repo),
        nexus_lite::DEFAULT_KEEP_GRAPHS,
    )
    .unwrap();
    assert_eq!(
        stat(&reparsed, "files_parsed"),
        sources,
        "{}",
        reparsed.stats
    );
    assert_eq!(reparsed.counts, fresh.counts);
    for k in ["nodes", "edges"] {
        assert_eq!(reparsed.stats[k], fresh.stats[k], "{k}");
    }
}
