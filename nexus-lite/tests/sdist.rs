#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
//! Independent check on a real public Python project nobody here wrote (the click 8.1.7
//! sdist from PyPI): file/class/function counts equal a Python `ast` walk, and bandit findings
//! equal bandit's own `-f json -r` output by (test id, path, line).
//! attrs 24.2.0 checks how syntax newer than a project's oldest Python is rated.
//! Runs only with NEXUS_LITE_SDIST_TEST=1 (CI sets it): it needs network access to PyPI
//! ([`sdist`]).

mod common;

use common::*;
use std::collections::BTreeMap;
use std::path::Path;
use std::process::Command;

const SDIST: &str = "click==8.1.7";

/// One index run of the sdist at `root` into `data`: its outcome and the database.
fn index(root: &Path, data: &Path) -> (nexus_lite::RunOutcome, rusqlite::Connection) {
    let outcome = nexus_lite::index_once(
        data.to_path_buf(),
        nexus_lite::RepoSpec {
            name: Some("pallets/click".into()),
            path: root.to_path_buf(),
        },
        nexus_lite::DEFAULT_KEEP_GRAPHS,
    )
    .unwrap();
    let conn = rusqlite::Connection::open(data.join("nexus-lite.sqlite3")).unwrap();
    (outcome, conn)
}

#[test]
fn counts_and_bandit_findings_match_independent_tools_on_a_pypi_sdist() {
    if !sdist::wanted(SDIST) {
        return;
    }
    assert!(
        analysers_available(),
        "the sdist test needs bandit and ruff on PATH"
    );
    let work = tempfile::tempdir().unwrap();
    let root = sdist::fetch(Path::new("python3"), SDIST, work.path());
    git(&root, &["init", "-q", "-b", "main"]);
    git(&root, &["add", "-A"]);
    git(&root, &["commit", "-q", "-m", "sdist"]);

    // Independent counts with Python's ast module.
    let listing = work.path().join("files.txt");
    std::fs::write(&listing, git(&root, &["ls-files"])).unwrap();
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/count_ast.py");
    let out = Command::new("python3")
        .arg(script)
        .arg(&root)
        .arg(&listing)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let expected: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();

    let data = tempfile::tempdir().unwrap();
    let (outcome, conn) = index(&root, data.path());
    let parse_errors: i64 = conn
        .query_row(
            "SELECT COUNT(*) FROM anomalies WHERE kind='parse_error'",
            [],
            |r| r.get(0),
        )
        .unwrap();
    assert_eq!(parse_errors, 0, "the parser must parse what ast parses");
    assert_eq!(outcome.counts["files"], expected["files"], "files");
    assert_eq!(outcome.counts["classes"], expected["classes"], "classes");
    assert_eq!(
        outcome.counts["functions"], expected["functions"],
        "functions"
    );

    // bandit's own output for the tree vs the stored findings.
    let b = Command::new("bandit")
        .args(["-f", "json", "-q", "-r", "."])
        .current_dir(&root)
        .output()
        .unwrap();
    let own: serde_json::Value = serde_json::from_slice(&b.stdout).expect("bandit JSON");
    let mut want: BTreeMap<(String, String, i64), usize> = BTreeMap::new();
    for r in own["results"].as_array().unwrap() {
        let path = r["filename"]
            .as_str()
            .unwrap()
            .trim_start_matches("./")
            .to_string();
        *want
            .entry((
                r["test_id"].as_str().unwrap().into(),
                path,
                r["line_number"].as_i64().unwrap(),
            ))
            .or_default() += 1;
    }
    let mut got: BTreeMap<(String, String, i64), usize> = BTreeMap::new();
    let mut st = conn
        .prepare("SELECT rule_id, path, line FROM findings WHERE source_tool='bandit'")
        .unwrap();
    for row in st
        .query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))
        .unwrap()
    {
        *got.entry(row.unwrap()).or_default() += 1;
    }
    assert!(
        !want.is_empty(),
        "bandit found nothing: the comparison would be vacuous"
    );
    assert_eq!(got, want, "bandit findings differ from bandit's own output");
}

/// One severity scale: on a real project, every finding the code graph and the gate both
/// report (same analyser, rule, file and line) is rated the same, the gate's level being the
/// projection of the graph's (critical/high → error, medium/low → warning, info → note).
/// ruff's flake8-bandit rules are switched on by the project's own ruff.toml, so ruff S-rules,
/// bandit and ruff's default rules are all compared.
#[test]
fn the_code_graph_and_the_gate_rate_a_real_projects_findings_on_one_scale() {
    use nexus_lite::core::analyser::severity::Level;
    use nexus_lite::rules::gate::{self, FixedPlaybook, GateRequest, severity::Severity, tools};
    if !sdist::wanted(SDIST) {
        return;
    }
    assert!(analysers_available(), "needs bandit and ruff on PATH");
    let work = tempfile::tempdir().unwrap();
    let root = sdist::fetch(Path::new("python3"), SDIST, work.path());
    git(&root, &["init", "-q", "-b", "main"]);
    git(&root, &["commit", "-q", "--allow-empty", "-m", "base"]);
    std::fs::write(root.join("ruff.toml"), "[lint]\nextend-select = [\"S\"]\n").unwrap();
    git(&root, &["add", "-A"]);
    git(&root, &["commit", "-q", "-m", "the sdist"]);

    let data = tempfile::tempdir().unwrap();
    let (_, conn) = index(&root, data.path());
    let mut graph: BTreeMap<(String, String, i64), Level> = BTreeMap::new();
    let mut st = conn
        .prepare(
            "SELECT source_tool || ':' || rule_id, path, line, severity FROM findings
             WHERE source_tool IN ('ruff', 'bandit') AND line IS NOT NULL",
        )
        .unwrap();
    for row in st
        .query_map([], |r| {
            Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get::<_, String>(3)?))
        })
        .unwrap()
    {
        let (rule, path, line, level) = row.unwrap();
        graph.insert((rule, path, line), Level::parse(&level).unwrap());
    }

    let request = GateRequest {
        repo_root: &root,
        repository: "pallets/click".into(),
        base: "main~1",
        head: "main",
        pr: None,
        options: tools::Options::default(),
    };
    let rec = gate::run(&request, &FixedPlaybook(Vec::new())).unwrap();
    let mut compared: BTreeMap<&str, usize> = BTreeMap::new();
    for v in &rec.violations {
        let Some(line) = v.line else { continue };
        let Some(level) = graph.get(&(v.rule_id.clone(), v.path.clone(), i64::from(line))) else {
            continue;
        };
        assert_eq!(
            v.severity,
            Severity::from(*level),
            "{} at {}:{line}: the graph says {level:?}",
            v.rule_id,
            v.path
        );
        *compared.entry(v.severity.as_str()).or_default() += 1;
    }
    let tools: std::collections::BTreeSet<&str> = rec
        .violations
        .iter()
        .filter_map(|v| v.rule_id.split_once(':').map(|(t, _)| t))
        .collect();
    assert!(
        tools.contains("ruff") && tools.contains("bandit"),
        "both analysers must be compared: {tools:?}"
    );
    assert!(
        compared.len() >= 2 && compared.values().sum::<usize>() >= 20,
        "too few findings in common for the comparison to mean anything: {compared:?}"
    );
}

/// attrs 24.2.0 declares `requires-python >=3.7`, and its tests/test_pattern_matching.py uses
/// `match` (its conftest collects that file only on 3.10 and later). Ruff reports each
/// `match` as `invalid-syntax` ("… (syntax was added in Python 3.10)"). That file runs on the
/// Pythons that have the syntax, so neither surface may call it code that cannot run: the code
/// graph rates every one medium and does not rank it blocking, and a pull request adding the
/// file is not blocked by it.
#[test]
fn syntax_newer_than_a_projects_oldest_python_is_a_warning_not_a_blocking_syntax_error() {
    use nexus_lite::rules::gate::{self, FixedPlaybook, GateRequest, severity::Severity, tools};
    const ATTRS: &str = "attrs==24.2.0";
    const FILE: &str = "tests/test_pattern_matching.py";
    if !sdist::wanted(ATTRS) {
        return;
    }
    assert!(analysers_available(), "needs bandit and ruff on PATH");
    let work = tempfile::tempdir().unwrap();
    let root = sdist::fetch(Path::new("python3"), ATTRS, work.path());
    let text = std::fs::read_to_string(root.join(FILE)).unwrap();
    std::fs::remove_file(root.join(FILE)).unwrap();
    git(&root, &["init", "-q", "-b", "main"]);
    git(&root, &["add", "-A"]);
    git(
        &root,
        &["commit", "-q", "-m", "attrs without its match tests"],
    );
    std::fs::write(root.join(FILE), text).unwrap();
    git(&root, &["add", "-A"]);
    git(&root, &["commit", "-q", "-m", "the match tests"]);

    // What ruff itself says of the file, under the project's own configuration.
    let out = Command::new("ruff")
        .args([
            "check",
            "--output-format",
            "json",
            "--no-cache",
            "--exit-zero",
            FILE,
        ])
        .current_dir(&root)
        .output()
        .unwrap();
    let own: Vec<serde_json::Value> = serde_json::from_slice(&out.stdout).unwrap();
    let newer = own
        .iter()
        .filter(|f| f["code"] == "invalid-syntax")
        .inspect(|f| {
            let m = f["message"].as_str().unwrap();
            assert!(m.contains("(syntax was added in Python 3.10)"), "{m}");
        })
        .count();
    assert!(
        newer > 0,
        "ruff no longer reports the match statements: {own:?}"
    );

    let data = tempfile::tempdir().unwrap();
    let (_, conn) = index(&root, data.path());
    let mut st = conn
        .prepare(
            "SELECT severity, rank_reason FROM findings
             WHERE source_tool = 'ruff' AND rule_id = 'invalid-syntax' AND path = ?1",
        )
        .unwrap();
    let rated: Vec<(String, String)> = st
        .query_map([FILE], |r| Ok((r.get(0)?, r.get(1)?)))
        .unwrap()
        .map(Result::unwrap)
        .collect();
    assert_eq!(rated.len(), newer, "{rated:?}");
    for (severity, reason) in &rated {
        assert_eq!(severity, "medium", "{reason}");
        assert!(!reason.starts_with("blocking"), "{reason}");
    }

    let request = GateRequest {
        repo_root: &root,
        repository: "python-attrs/attrs".into(),
        base: "main~1",
        head: "main",
        pr: None,
        options: tools::Options::default(),
    };
    let rec = gate::run(&request, &FixedPlaybook(Vec::new())).unwrap();
    let syntax: Vec<_> = rec
        .violations
        .iter()
        .filter(|v| v.rule_id == "ruff:invalid-syntax")
        .collect();
    assert_eq!(syntax.len(), newer, "{:?}", rec.violations);
    assert!(syntax.iter().all(|v| v.severity == Severity::Warning));
    assert!(
        !rec.violations.iter().any(|v| v.severity == Severity::Error),
        "nothing else in the file blocks either: {:?}",
        rec.violations
    );
    assert_eq!(rec.verdict().blocking, Some(false));
}
