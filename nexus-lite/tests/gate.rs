#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
//! The CI gate on real git repositories with the real ruff and bandit: what is reported (only
//! findings on changed lines, with path, line, severity and ruleId), when it blocks, and how a
//! missing or crashing analyser shows (never as clean); records and the get_gate_result answer
//! on a real SQLite database; the SARIF 2.1.0 log.

mod common;

use common::{analysers_available, git, write};
use nexus_lite::rules::gate::answer::{self, Question};
use nexus_lite::rules::gate::binding::RuleSpec;
use nexus_lite::rules::gate::model::{GateRecord, GateStatus, ToolStatus};
use nexus_lite::rules::gate::severity::Severity;
use nexus_lite::rules::gate::{self, FixedPlaybook, GateRequest, record, sarif, tools};
use serde_json::Value;
use std::ffi::OsString;
use std::path::{Path, PathBuf};

/// A repository whose `main` already has a shell=True call (app/legacy.py line 5), and a
/// branch `feature` that touches app/legacy.py elsewhere and adds app/run.py with a new one.
fn repo_with_feature(dir: &Path) {
    git(dir, &["init", "-q", "-b", "main"]);
    write(dir, "app/__init__.py", "");
    write(
        dir,
        "app/legacy.py",
        "import subprocess\n\n\ndef legacy(cmd):\n    return subprocess.call(cmd, shell=True)\n\n\nVERSION = 1\n",
    );
    write(dir, "README.md", "# demo\n");
    git(dir, &["add", "-A"]);
    git(dir, &["commit", "-q", "-m", "base"]);
    git(dir, &["checkout", "-q", "-b", "feature"]);
    write(
        dir,
        "app/legacy.py",
        "import subprocess\n\n\ndef legacy(cmd):\n    return subprocess.call(cmd, shell=True)\n\n\nVERSION = 2\n",
    );
    write(
        dir,
        "app/run.py",
        "import subprocess\n\n\ndef run(cmd):\n    # runs what the user typed\n    return subprocess.call(cmd, shell=True)\n",
    );
    write(dir, "docs/notes.md", "notes\n");
    git(dir, &["add", "-A"]);
    git(dir, &["commit", "-q", "-m", "feature"]);
}

fn request<'a>(
    root: &'a Path,
    base: &'a str,
    head: &'a str,
    path: Option<OsString>,
) -> GateRequest<'a> {
    GateRequest {
        repo_root: root,
        repository: "acme/demo".into(),
        base,
        head,
        pr: Some(7),
        options: tools::Options {
            search_path: path,
            ..tools::Options::default()
        },
    }
}

fn none() -> FixedPlaybook {
    FixedPlaybook(Vec::new())
}

/// A directory holding only the named programs (links to the real ones), as a PATH.
fn path_with(dir: &Path, programs: &[&str]) -> OsString {
    std::fs::create_dir_all(dir).unwrap();
    for p in programs {
        let real = which(p).unwrap_or_else(|| panic!("{p} is not on PATH"));
        std::os::unix::fs::symlink(real, dir.join(p)).unwrap();
    }
    dir.as_os_str().to_owned()
}

fn which(program: &str) -> Option<PathBuf> {
    std::env::split_paths(&std::env::var_os("PATH")?)
        .map(|d| d.join(program))
        .find(|p| p.is_file())
}

fn tool<'a>(rec: &'a GateRecord, name: &str) -> &'a gate::model::ToolRun {
    rec.tools.iter().find(|t| t.name == name).unwrap()
}

#[test]
fn a_new_high_severity_bandit_finding_blocks_and_an_old_one_on_an_unchanged_line_is_not_reported() {
    if !analysers_available() {
        return;
    }
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path();
    repo_with_feature(root);
    let rec = gate::run(&request(root, "main", "feature", None), &none()).unwrap();
    let v = rec.verdict();
    assert_eq!(v.status, GateStatus::Failed, "{rec:#?}");
    assert_eq!(v.blocking, Some(true));
    assert!(v.detail_complete);
    let b602: Vec<_> = rec
        .violations
        .iter()
        .filter(|v| v.rule_id == "bandit:B602")
        .collect();
    assert_eq!(
        b602.len(),
        1,
        "only the new call is the change's: {:#?}",
        rec.violations
    );
    assert_eq!(b602[0].path, "app/run.py");
    assert_eq!(b602[0].line, Some(6));
    assert_eq!(b602[0].severity, Severity::Error);
    assert!(b602[0].rule_title.contains("shell"), "{:?}", b602[0]);
    assert!(
        !rec.violations
            .iter()
            .any(|v| v.path == "app/legacy.py" && v.line == Some(5))
    );
    let bandit = tool(&rec, "bandit");
    assert_eq!(bandit.status, ToolStatus::Ok);
    assert_eq!(bandit.exit_code, Some(1));
    assert!(
        bandit
            .version
            .as_deref()
            .is_some_and(|v| v.chars().next().unwrap().is_ascii_digit())
    );
    assert!(bandit.findings_on_unchanged_lines >= 1, "{bandit:?}");
    let ruff = tool(&rec, "ruff");
    assert_eq!(ruff.status, ToolStatus::Ok);
    assert!(ruff.version.is_some());
    assert_eq!(rec.files_changed, Some(3));
    assert_eq!(rec.truncated, Some(false));
    assert_eq!(rec.head_sha, git(root, &["rev-parse", "feature"]));
    assert_eq!(rec.base_sha, git(root, &["rev-parse", "main"]));
    assert_eq!(
        rec.head_tree_sha.as_deref(),
        Some(git(root, &["rev-parse", "feature^{tree}"]).as_str())
    );
}

#[test]
fn the_gate_reads_head_as_committed_not_the_dirty_work_tree() {
    if !analysers_available() {
        return;
    }
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path();
    repo_with_feature(root);
    // Uncommitted: the finding is gone from the work tree, and a new file is untracked.
    write(root, "app/run.py", "def run(cmd):\n    return cmd\n");
    write(
        root,
        "app/extra.py",
        "import subprocess\nsubprocess.call(input(), shell=True)\n",
    );
    let rec = gate::run(&request(root, "main", "HEAD", None), &none()).unwrap();
    assert!(
        rec.violations
            .iter()
            .any(|v| v.path == "app/run.py" && v.rule_id == "bandit:B602")
    );
    assert!(!rec.violations.iter().any(|v| v.path == "app/extra.py"));
    assert_eq!(
        std::fs::read_to_string(root.join("app/run.py")).unwrap(),
        "def run(cmd):\n    return cmd\n"
    );
}

#[test]
fn a_clean_change_passes_with_blocking_false() {
    if !analysers_available() {
        return;
    }
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path();
    repo_with_feature(root);
    git(root, &["checkout", "-q", "-b", "clean", "main"]);
    write(root, "app/math.py", "def add(a, b):\n    return a + b\n");
    git(root, &["add", "-A"]);
    git(root, &["commit", "-q", "-m", "clean"]);
    let rec = gate::run(&request(root, "main", "clean", None), &none()).unwrap();
    let v = rec.verdict();
    assert_eq!(
        (v.status, v.blocking, v.blocking_count),
        (GateStatus::Ok, Some(false), 0),
        "{rec:#?}"
    );
    assert!(v.detail_complete);
    assert_eq!(tool(&rec, "bandit").exit_code, Some(0));
    assert_eq!(tool(&rec, "semgrep").status, ToolStatus::Skipped);
}

#[test]
fn a_missing_analyser_makes_the_verdict_unknown_not_clean() {
    if !analysers_available() {
        return;
    }
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path().join("r");
    std::fs::create_dir(&root).unwrap();
    repo_with_feature(&root);
    git(&root, &["checkout", "-q", "-b", "clean", "main"]);
    write(&root, "app/math.py", "def add(a, b):\n    return a + b\n");
    git(&root, &["add", "-A"]);
    git(&root, &["commit", "-q", "-m", "clean"]);
    let only_ruff = path_with(&tmp.path().join("bin-ruff"), &["ruff"]);
    let rec = gate::run(&request(&root, "main", "clean", Some(only_ruff)), &none()).unwrap();
    let v = rec.verdict();
    assert_eq!(tool(&rec, "bandit").status, ToolStatus::Missing);
    assert!(
        tool(&rec, "bandit")
            .reason
            .as_deref()
            .unwrap()
            .contains("not installed")
    );
    assert_eq!(v.blocking, None, "{v:?}");
    assert_eq!(v.status, GateStatus::Partial);
    assert!(!v.detail_complete);
    assert!(v.note.contains("bandit is not installed"), "{}", v.note);

    // Nothing installed at all: the gate could not analyse.
    let empty = path_with(&tmp.path().join("bin-none"), &[]);
    let rec = gate::run(&request(&root, "main", "clean", Some(empty)), &none()).unwrap();
    let v = rec.verdict();
    assert_eq!(
        (v.status, v.blocking),
        (GateStatus::Unavailable, None),
        "{rec:#?}"
    );

    // A missing analyser does not hide what another one found: still blocking.
    let only_bandit = path_with(&tmp.path().join("bin-bandit"), &["bandit"]);
    let rec = gate::run(
        &request(&root, "main", "feature", Some(only_bandit)),
        &none(),
    )
    .unwrap();
    let v = rec.verdict();
    assert_eq!((v.status, v.blocking), (GateStatus::Partial, Some(true)));
}

#[test]
fn a_crashing_analyser_is_failed_and_the_run_is_not_clean() {
    if !analysers_available() {
        return;
    }
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path().join("r");
    std::fs::create_dir(&root).unwrap();
    repo_with_feature(&root);
    git(&root, &["checkout", "-q", "-b", "clean", "main"]);
    write(&root, "app/math.py", "def add(a, b):\n    return a + b\n");
    git(&root, &["add", "-A"]);
    git(&root, &["commit", "-q", "-m", "clean"]);
    let bin = tmp.path().join("bin");
    let path = path_with(&bin, &["bandit"]);
    let fake = bin.join("ruff");
    std::fs::write(
        &fake,
        "#!/bin/sh\necho 'ruff: internal error: boom' >&2\nexit 2\n",
    )
    .unwrap();
    let mut perms = std::fs::metadata(&fake).unwrap().permissions();
    std::os::unix::fs::PermissionsExt::set_mode(&mut perms, 0o755);
    std::fs::set_permissions(&fake, perms).unwrap();
    let rec = gate::run(&request(&root, "main", "clean", Some(path)), &none()).unwrap();
    let ruff = tool(&rec, "ruff");
    assert_eq!(ruff.status, ToolStatus::Failed, "{ruff:?}");
    assert_eq!(ruff.exit_code, Some(2));
    assert!(ruff.errors.iter().any(|e| e.contains("boom")), "{ruff:?}");
    let v = rec.verdict();
    assert_eq!(
        (v.status, v.blocking, v.detail_complete),
        (GateStatus::Partial, None, false)
    );
}

#[test]
fn bandit_errors_make_the_run_partial_with_the_file_listed() {
    if !analysers_available() {
        return;
    }
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path();
    repo_with_feature(root);
    git(root, &["checkout", "-q", "-b", "broken", "main"]);
    write(root, "app/broken.py", "def broken(:\n    pass\n");
    git(root, &["add", "-A"]);
    git(root, &["commit", "-q", "-m", "broken"]);
    let rec = gate::run(&request(root, "main", "broken", None), &none()).unwrap();
    // ruff reports the syntax error (an error: the code cannot run); bandit cannot parse it.
    assert!(rec.violations.iter().any(|v| v.path == "app/broken.py"
        && v.severity == Severity::Error
        && v.rule_id.starts_with("ruff:")));
    assert_eq!(tool(&rec, "bandit").status, ToolStatus::Partial);
    assert!(
        rec.skipped_files
            .iter()
            .any(|s| s.path == "app/broken.py" && s.tool.as_deref() == Some("bandit"))
    );
    let v = rec.verdict();
    assert_eq!(
        (v.status, v.blocking, v.detail_complete),
        (GateStatus::Partial, Some(true), false)
    );
    assert_eq!(rec.truncated, Some(true));
    assert!(rec.truncated_note.is_some());
}

#[test]
fn playbook_rules_of_the_base_turn_findings_into_their_violations_and_forbid_added_lines() {
    if !analysers_available() {
        return;
    }
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path();
    repo_with_feature(root);
    let rules = vec![
        RuleSpec {
            rule_id: "no-shell".into(),
            title: "Never run commands through a shell".into(),
            severity: Some("error".into()),
            enforced_by: vec!["bandit:B602".into()],
            forbid: None,
            paths: Vec::new(),
            scope_dir: String::new(),
            source: ".nexus/rules/no-shell.md".into(),
            fingerprint: "1".into(),
        },
        RuleSpec {
            rule_id: "no-user-input-comments".into(),
            title: "Say what code does, not who typed it".into(),
            severity: Some("warning".into()),
            enforced_by: Vec::new(),
            forbid: Some("user typed".into()),
            paths: vec!["app/**/*.py".into()],
            scope_dir: String::new(),
            source: ".nexus/rules/comments.md".into(),
            fingerprint: "1".into(),
        },
    ];
    let rec = gate::run(
        &request(root, "main", "feature", None),
        &FixedPlaybook(rules),
    )
    .unwrap();
    let shell = rec
        .violations
        .iter()
        .find(|v| v.rule_id == "no-shell")
        .expect("B602 reported as the rule");
    assert_eq!(
        (shell.path.as_str(), shell.line, shell.severity),
        ("app/run.py", Some(6), Severity::Error)
    );
    assert_eq!(shell.source.as_deref(), Some("bandit:B602"));
    assert_eq!(shell.rule_title, "Never run commands through a shell");
    let comment = rec
        .violations
        .iter()
        .find(|v| v.rule_id == "no-user-input-comments")
        .expect("forbid");
    assert_eq!(
        (comment.path.as_str(), comment.line, comment.severity),
        ("app/run.py", Some(5), Severity::Warning)
    );
    assert_eq!(
        rec.enforced_rules,
        vec!["no-shell".to_string(), "no-user-input-comments".to_string()]
    );
}

fn open_db(dir: &Path) -> rusqlite::Connection {
    let mut conn = nexus_lite::core::db::open(dir).unwrap();
    nexus_lite::core::db::migrate(&mut conn, &[record::MIGRATIONS]).unwrap();
    conn
}

fn synthetic(repo: &str, head: &str, pr: Option<u64>, violations: usize) -> GateRecord {
    let v = gate::model::Violation {
        path: "app/run.py".into(),
        line: Some(6),
        severity: Severity::Error,
        rule_id: "bandit:B602".into(),
        rule_title: "subprocess_popen_with_shell_equals_true".into(),
        comment: "subprocess call with shell=True identified, security issue.".into(),
        suggestion: None,
        source: None,
    };
    GateRecord {
        repository: repo.into(),
        pr,
        base_ref: Some("main".into()),
        head_ref: None,
        base_sha: "b".repeat(40),
        merge_base_sha: None,
        head_sha: head.into(),
        head_tree_sha: None,
        files_changed: Some(1),
        tools: vec![gate::model::ToolRun {
            name: "bandit".into(),
            version: Some("1.9.4".into()),
            exit_code: Some(1),
            status: ToolStatus::Ok,
            files: 1,
            findings: violations,
            findings_on_unchanged_lines: 0,
            errors: Vec::new(),
            reason: None,
        }],
        skipped_files: Vec::new(),
        violations: (0..violations)
            .map(|i| gate::model::Violation {
                line: Some(i as u32 + 1),
                severity: if i == 0 {
                    Severity::Warning
                } else {
                    Severity::Error
                },
                ..v.clone()
            })
            .collect(),
        unreviewed_rules: Vec::new(),
        enforced_rules: Vec::new(),
        checked_rules: Vec::new(),
        waived: Vec::new(),
        waiver_notes: Vec::new(),
        truncated: Some(false),
        truncated_note: None,
        analyzed_at: "2026-12-01T10:00:00Z".into(),
        generator: None,
    }
}

fn ask(conn: &rusqlite::Connection, q: Question<'_>) -> Value {
    answer::answer(
        conn,
        &Question {
            limit: if q.limit == 0 { 50 } else { q.limit },
            ..q
        },
    )
    .unwrap()
}

#[test]
fn records_answer_by_sha_prefix_pr_and_scope_with_every_honesty_field() {
    let tmp = tempfile::tempdir().unwrap();
    let mut conn = open_db(tmp.path());
    let a = format!("abcdef1{}", "0".repeat(33));
    let b = format!("abcdef1{}", "1".repeat(33));
    let c = format!("1234567{}", "2".repeat(33));
    // Nothing yet: found:false, with the command to run.
    let none = ask(
        &conn,
        Question {
            repository: Some("acme/api"),
            ..Question::default()
        },
    );
    assert_eq!(none["found"], false);
    assert!(
        none["reason"]
            .as_str()
            .unwrap()
            .contains("nexus-mcp gate --base"),
        "{none}"
    );
    assert!(none["blocking"].is_null() && none["violations"].is_null());

    record::store(&mut conn, &synthetic("acme/api", &a, Some(1), 3), 100).unwrap();
    record::store(&mut conn, &synthetic("acme/api", &b, Some(2), 0), 101).unwrap();
    let hidden = record::store(&mut conn, &synthetic("acme/secret", &c, None, 1), 102).unwrap();

    // Full answer, echoing repo, pr and sha first; the prefix is case-insensitive.
    let full = ask(
        &conn,
        Question {
            sha: Some(&a[..10].to_uppercase().to_ascii_lowercase()),
            ..Question::default()
        },
    );
    let keys: Vec<&String> = full.as_object().unwrap().keys().take(4).collect();
    assert_eq!(keys, ["found", "repo", "pr", "sha"]);
    assert_eq!(
        (
            full["found"].clone(),
            full["repo"].clone(),
            full["pr"].clone()
        ),
        (Value::Bool(true), "acme/api".into(), 1.into())
    );
    assert_eq!(full["sha"], a.as_str());
    assert_eq!(full["blocking"], true);
    assert_eq!(full["blockingCount"], 2);
    assert_eq!(full["status"], "failed");
    assert_eq!(full["violationCount"], 3);
    assert_eq!(full["violationsReturned"], 3);
    assert_eq!(full["violationsUnreadable"], 0);
    assert_eq!(full["detailComplete"], true);
    assert_eq!(full["truncated"], false);
    assert_eq!(
        full["violations"][0]["severity"], "error",
        "most severe first"
    );
    for k in [
        "path",
        "line",
        "severity",
        "ruleId",
        "ruleTitle",
        "comment",
        "suggestion",
    ] {
        assert!(
            full["violations"][0].get(k).is_some(),
            "violation field {k}"
        );
    }
    for k in [
        "baseSha",
        "truncatedNote",
        "unreviewedRules",
        "tools",
        "skippedFiles",
        "analyzedAt",
    ] {
        assert!(full.get(k).is_some(), "answer field {k}");
    }
    assert_eq!(full["tools"][0]["exitCode"], 1);

    // Upper-case prefix of 7.
    let upper = ask(
        &conn,
        Question {
            sha: Some(&c[..7].to_uppercase()),
            visible: None,
            ..Question::default()
        },
    );
    assert_eq!(upper["found"], true);

    // Ambiguous prefix: candidates.
    let amb = ask(
        &conn,
        Question {
            sha: Some("abcdef1"),
            ..Question::default()
        },
    );
    assert_eq!(amb["found"], false);
    assert!(
        amb["reason"].as_str().unwrap().contains("matches 2"),
        "{amb}"
    );
    let shas: Vec<&str> = amb["candidates"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["sha"].as_str().unwrap())
        .collect();
    assert!(shas.contains(&a.as_str()) && shas.contains(&b.as_str()));
    // ...which pr narrows down.
    let by_pr = ask(
        &conn,
        Question {
            sha: Some("abcdef1"),
            pr: Some(2),
            ..Question::default()
        },
    );
    assert_eq!(
        (by_pr["found"].clone(), by_pr["sha"].clone()),
        (Value::Bool(true), Value::from(b.as_str()))
    );
    assert_eq!(by_pr["blocking"], false);

    // Unknown sha, and one too short or not hex (a branch name filters nothing).
    let unknown = ask(
        &conn,
        Question {
            repository: Some("acme/api"),
            sha: Some("fffffff"),
            ..Question::default()
        },
    );
    assert_eq!(unknown["found"], false);
    assert!(
        unknown["reason"]
            .as_str()
            .unwrap()
            .contains("was the gate run on this commit"),
        "{unknown}"
    );
    assert!(answer::sha_prefix("abcdef").is_err());
    assert!(
        answer::sha_prefix("main")
            .unwrap_err()
            .to_string()
            .contains("branch names filter nothing")
    );

    // Out of scope: a key bound to acme/api learns nothing of acme/secret's records, not
    // even that they exist: a sha only acme/secret has answers as a sha nobody has, and asking
    // for acme/secret answers as asking for a repository with no record at all.
    let visible = vec!["acme/api".to_string()];
    let scoped = |sha: Option<&str>, repository: Option<&str>| {
        let a = ask(
            &conn,
            Question {
                sha,
                repository,
                visible: Some(&visible),
                ..Question::default()
            },
        );
        assert_eq!(a["found"], false, "{a:#}");
        assert!(a["candidates"].is_null(), "{a:#}");
        a["reason"].as_str().unwrap().to_string()
    };
    let theirs = scoped(Some(&c[..8]), None);
    assert!(!theirs.contains("acme/secret"), "{theirs}");
    assert_eq!(
        theirs.replace(&c[..8], "<sha>"),
        scoped(Some("9999999f"), None).replace("9999999f", "<sha>")
    );
    let named = scoped(None, Some("acme/secret"));
    assert!(
        named.contains("outside the repositories this key may see"),
        "{named}"
    );
    assert_eq!(
        named.replace("acme/secret", "<repo>"),
        scoped(None, Some("acme/nothing")).replace("acme/nothing", "<repo>")
    );

    // No argument: the newest record the caller may see.
    let newest = ask(&conn, Question::default());
    assert_eq!(newest["repo"], "acme/secret");
    let newest_visible = ask(
        &conn,
        Question {
            visible: Some(&visible),
            ..Question::default()
        },
    );
    assert_eq!(
        (
            newest_visible["repo"].clone(),
            newest_visible["sha"].clone()
        ),
        ("acme/api".into(), Value::from(b.as_str()))
    );

    // A capped answer says so.
    let capped = ask(
        &conn,
        Question {
            sha: Some(&a),
            limit: 1,
            ..Question::default()
        },
    );
    assert_eq!(capped["violationCount"], 3);
    assert_eq!(capped["violationsReturned"], 1);
    assert!(
        capped["statusNote"]
            .as_str()
            .unwrap()
            .contains("1 of 3 violations returned"),
        "{capped}"
    );

    // A re-run replaces the record of the same (repository, pr, head sha).
    let again = record::store(&mut conn, &synthetic("acme/secret", &c, None, 0), 103).unwrap();
    assert_eq!(again.replaced.as_deref(), Some(hidden.record_id.as_str()));
    let n: i64 = conn
        .query_row(
            "SELECT count(*) FROM gate_records WHERE repository = 'acme/secret'",
            [],
            |r| r.get(0),
        )
        .unwrap();
    assert_eq!(n, 1);
    let rerun = ask(
        &conn,
        Question {
            sha: Some(&c),
            ..Question::default()
        },
    );
    assert_eq!(
        (rerun["blocking"].clone(), rerun["violationCount"].clone()),
        (Value::Bool(false), 0.into())
    );

    // A stored violation that cannot be read is counted, and the detail is not complete.
    conn.execute(
        "UPDATE gate_violations SET severity = 'catastrophic' WHERE seq = 2",
        [],
    )
    .unwrap();
    let unreadable = ask(
        &conn,
        Question {
            sha: Some(&a),
            ..Question::default()
        },
    );
    assert_eq!(unreadable["violationsUnreadable"], 1);
    assert_eq!(unreadable["violationsReturned"], 2);
    assert_eq!(unreadable["detailComplete"], false);
}

#[test]
fn the_sarif_log_has_the_required_structure_and_levels() {
    if !analysers_available() {
        return;
    }
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path().join("r");
    std::fs::create_dir(&root).unwrap();
    repo_with_feature(&root);
    let only_bandit = path_with(&tmp.path().join("bin"), &["bandit"]);
    let rec = gate::run(
        &request(&root, "main", "feature", Some(only_bandit)),
        &none(),
    )
    .unwrap();
    let log = sarif::write(&rec);
    assert_eq!(log["version"], "2.1.0");
    assert!(log["$schema"].as_str().unwrap().contains("sarif-2.1.0"));
    let runs = log["runs"].as_array().unwrap();
    assert!(!runs.is_empty());
    let mut results = 0;
    for run in runs {
        let driver = &run["tool"]["driver"];
        assert!(
            driver["name"].as_str().is_some_and(|n| !n.is_empty()),
            "{run}"
        );
        let rules = driver["rules"].as_array().unwrap();
        for r in run["results"].as_array().unwrap() {
            results += 1;
            assert!(["error", "warning", "note", "none"].contains(&r["level"].as_str().unwrap()));
            assert!(r["message"]["text"].as_str().is_some_and(|t| !t.is_empty()));
            let loc = &r["locations"][0]["physicalLocation"];
            assert!(
                loc["artifactLocation"]["uri"]
                    .as_str()
                    .is_some_and(|u| !u.starts_with('/'))
            );
            assert!(loc["region"]["startLine"].as_u64().unwrap() >= 1);
            let idx = r["ruleIndex"].as_u64().unwrap() as usize;
            assert_eq!(rules[idx]["id"], r["ruleId"]);
        }
        assert!(run["invocations"][0]["executionSuccessful"].is_boolean());
    }
    assert_eq!(results, rec.violations.len());
    let bandit = runs
        .iter()
        .find(|r| r["tool"]["driver"]["name"] == "bandit")
        .unwrap();
    let r = &bandit["results"][0];
    assert_eq!(
        (r["ruleId"].as_str(), r["level"].as_str()),
        (Some("bandit:B602"), Some("error"))
    );
    assert_eq!(
        r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"],
        "app/run.py"
    );
    // ruff was missing: its run says the execution did not succeed, it is not an empty clean run.
    let ruff = runs
        .iter()
        .find(|r| r["tool"]["driver"]["name"] == "ruff")
        .unwrap();
    assert_eq!(ruff["invocations"][0]["executionSuccessful"], false);
    assert_eq!(
        ruff["invocations"][0]["toolExecutionNotifications"][0]["level"],
        "error"
    );
}

/// The gate's copy of head (files an attacker may want, from a private repository) is
/// readable by its user only, whatever the umask, and gone when the run ends.
#[test]
fn the_copy_of_head_is_private_to_the_user() {
    use std::os::unix::fs::PermissionsExt;
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path();
    repo_with_feature(root);
    let head = git(root, &["rev-parse", "feature"]);
    let blob = git(root, &["rev-parse", "feature:app/run.py"]);
    let tree = gate::snapshot::regular_files(root, &head).unwrap();
    let snap = gate::snapshot::write(
        root,
        &tree,
        &[gate::snapshot::Wanted {
            path: "app/run.py",
            blob: &blob,
        }],
    )
    .unwrap();
    let dir = snap.path().to_path_buf();
    let mode = std::fs::metadata(&dir).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode, 0o700, "{}: {mode:o}", dir.display());
    assert!(
        dir.file_name()
            .unwrap()
            .to_string_lossy()
            .starts_with("nexus-gate-")
    );
    assert!(snap.has("app/run.py"));
    drop(snap);
    assert!(!dir.exists());
}
