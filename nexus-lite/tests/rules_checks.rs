#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
//! report_check on real git repositories: the tree it records (as `git add -A` would commit
//! it, without touching the user's index or object store), its validation, and how gate runs
//! of the real gate (real ruff and bandit) on the same tree witness or dispute each claim;
//! per-rule stats over those runs and reports.

mod common;
#[path = "common/hostile.rs"]
mod hostile;

use common::{Resp, TOKEN, analysers_available, git, http, start_server, write};
use nexus_lite::rules::gate::{self, GateRequest, tools};
use serde_json::{Value, json};
use std::ffi::OsString;
use std::net::SocketAddr;
use std::path::{Path, PathBuf};

const REPO: &str = "acme/demo";

/// `main`: two machine-checked rules (no-shell-true via bandit B602, no-print via a forbid
/// pattern) and a prose rule; branch `feature` adds app/run.py with a shell=True call.
fn demo_repo(dir: &Path) {
    git(dir, &["init", "-q", "-b", "main"]);
    write(
        dir,
        ".nexus/rules/no-shell.md",
        "---\nname: no-shell-true\ndescription: No shell=True in subprocess calls\nseverity: error\nenforcedBy: [bandit:B602]\npaths: [\"**/*.py\"]\n---\nNo shell.\n",
    );
    write(
        dir,
        ".nexus/rules/no-print.md",
        "---\nname: no-print\ndescription: No print() in app code\nseverity: warning\nforbid: '\\bprint\\('\npaths: [\"app/**/*.py\"]\n---\nLog instead.\n",
    );
    write(
        dir,
        "AGENTS.md",
        "# Rules\n\n## Testing\n\nEvery change has a test.\n",
    );
    write(dir, ".gitignore", "*.log\n");
    write(dir, "app/__init__.py", "");
    write(dir, "app/util.py", "def add(a, b):\n    return a + b\n");
    git(dir, &["add", "-A"]);
    git(dir, &["commit", "-q", "-m", "base"]);
    git(dir, &["checkout", "-q", "-b", "feature"]);
    write(
        dir,
        "app/run.py",
        "import subprocess\n\n\ndef run(cmd):\n    return subprocess.call(cmd, shell=True)\n",
    );
    git(dir, &["add", "-A"]);
    git(dir, &["commit", "-q", "-m", "feature"]);
}

fn post(addr: SocketAddr, path: &str, body: &Value) -> Resp {
    http(addr, "POST", path, Some(TOKEN), Some(&body.to_string()))
}

fn report(addr: SocketAddr, session: &str, results: Value) -> Resp {
    post(
        addr,
        "/api/v1/rules/checks",
        &json!({"sessionId": session, "results": results, "agentName": "claude-code", "modelId": "m-1"}),
    )
}

fn run_gate(root: &Path, pr: u64, search_path: Option<OsString>) -> Value {
    let rec = gate::run(
        &GateRequest {
            repo_root: root,
            repository: REPO.into(),
            base: "main",
            head: "HEAD",
            pr: Some(pr),
            options: tools::Options {
                search_path,
                ..tools::Options::default()
            },
        },
        &gate::default_playbook(),
    )
    .unwrap();
    serde_json::to_value(rec).unwrap()
}

fn store_gate(addr: SocketAddr, rec: &Value) -> Resp {
    let r = post(addr, "/api/v1/rules/gate-results", rec);
    assert_eq!(r.status, 201, "{:#}", r.body);
    r
}

fn check_status(data: &Path, check_id: &str) -> (String, Vec<(String, String)>) {
    let conn = nexus_lite::core::db::open(data).unwrap();
    let status: String = conn
        .query_row(
            "SELECT status FROM rule_checks WHERE check_id = ?1",
            [check_id],
            |r| r.get(0),
        )
        .unwrap();
    let mut st = conn
        .prepare("SELECT rule_id, witness FROM rule_check_results WHERE check_id = ?1 ORDER BY idx")
        .unwrap();
    let results = st
        .query_map([check_id], |r| {
            Ok((r.get::<_, String>(0)?, r.get::<_, Option<String>>(1)?))
        })
        .unwrap()
        .map(|r| {
            let (id, w) = r.unwrap();
            let s = w
                .and_then(|w| serde_json::from_str::<Value>(&w).ok())
                .and_then(|v| v["status"].as_str().map(str::to_string))
                .unwrap_or_else(|| "claimed".into());
            (id, s)
        })
        .collect();
    (status, results)
}

fn stats_of<'a>(stats: &'a Value, rule: &str) -> &'a Value {
    stats["rules"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["ruleId"] == rule)
        .unwrap_or_else(|| panic!("no stats for {rule}: {:#}", stats["rules"]))
}

fn setup() -> (tempfile::TempDir, PathBuf, PathBuf) {
    let tmp = tempfile::tempdir().unwrap();
    let repo = tmp.path().join("demo");
    std::fs::create_dir(&repo).unwrap();
    demo_repo(&repo);
    let data = tmp.path().join("data");
    (tmp, repo, data)
}

/// A directory holding only the named programs (links to the real ones), as a PATH.
fn path_with(dir: &Path, programs: &[&str]) -> OsString {
    std::fs::create_dir_all(dir).unwrap();
    for p in programs {
        let real = std::env::split_paths(&std::env::var_os("PATH").unwrap())
            .map(|d| d.join(p))
            .find(|p| p.is_file())
            .unwrap_or_else(|| panic!("{p} is not on PATH"));
        std::os::unix::fs::symlink(real, dir.join(p)).unwrap();
    }
    dir.as_os_str().to_owned()
}

#[test]
fn report_check_refuses_unusable_input_with_what_to_do() {
    let (_tmp, repo, data) = setup();
    let server = start_server(&repo, &data, Some(REPO), false);
    let cases = [
        (
            json!({"sessionId": "", "results": [{"ruleId": "no-print", "pass": true}]}),
            "sessionId",
        ),
        (
            json!({"results": [{"ruleId": "no-print", "pass": true}]}),
            "sessionId",
        ),
        (
            json!({"sessionId": "s", "results": []}),
            "at least one rule",
        ),
        (json!({"sessionId": "s"}), "`results` is required"),
        (
            json!({"sessionId": "s", "results": [{"ruleId": "no-print", "pass": "yes"}]}),
            "true or false",
        ),
        (
            json!({"sessionId": "s", "results": [{"pass": true}]}),
            "ruleId",
        ),
        (
            json!({"sessionId": "s", "results": [
                {"ruleId": "no-print", "pass": true}, {"ruleId": "no-print", "pass": false}]}),
            "more than once: no-print",
        ),
        (
            json!({"sessionId": "s", "results": [{"ruleId": "no-print", "pass": true}], "agentName": 3}),
            "agentName",
        ),
    ];
    for (body, expected) in cases {
        let r = post(server.addr, "/api/v1/rules/checks", &body);
        assert_eq!(r.status, 400, "{body}: {:#}", r.body);
        assert_eq!(r.body["error"]["code"], "bad_request");
        let msg = r.body["error"]["message"].as_str().unwrap();
        assert!(msg.contains(expected), "{body}: {msg}");
    }
    let r = http(
        server.addr,
        "POST",
        "/api/v1/rules/checks",
        Some(TOKEN),
        Some("[1]"),
    );
    assert_eq!(r.status, 400, "{:#}", r.body);
}

#[test]
fn report_check_records_the_tree_git_would_commit_without_touching_index_or_objects() {
    let (_tmp, repo, data) = setup();
    git(&repo, &["checkout", "-q", "main"]);
    let server = start_server(&repo, &data, Some(REPO), false);
    let r = report(
        server.addr,
        "main",
        json!([
            {"ruleId": "no-shell-true", "pass": true},
            {"ruleId": "no-print", "pass": false, "note": "one print left"},
            {"ruleId": "made-up-rule", "pass": true}
        ]),
    );
    assert_eq!(r.status, 201, "{:#}", r.body);
    let c = &r.body;
    assert_eq!(c["status"], "claimed");
    assert!(c["checkId"].as_str().unwrap().starts_with("chk_"));
    assert_eq!(c["repository"], REPO);
    assert_eq!(c["sessionId"], "main");
    assert_eq!(c["treeSha"], git(&repo, &["rev-parse", "HEAD^{tree}"]));
    assert_eq!(c["headSha"], git(&repo, &["rev-parse", "HEAD"]));
    assert_eq!(c["dirty"], false);
    assert_eq!(c["unknownRuleIds"], json!(["made-up-rule"]));
    assert_eq!(c["failed"], json!(["no-print"]));
    assert_eq!(c["results"][1]["note"], "one print left");
    assert_eq!(c["results"][2]["known"], false);
    let note = c["note"].as_str().unwrap();
    assert!(note.starts_with("claimed:"), "{note}");
    assert!(note.contains("witnessed when a gate run"), "{note}");

    // Uncommitted work: a modified file, an untracked one, an ignored one, a staged one.
    write(&repo, "app/util.py", "def add(a, b):\n    return b + a\n");
    write(&repo, "app/new.py", "X = 1\n");
    write(&repo, "debug.log", "noise\n");
    write(&repo, "app/staged.py", "Y = 2\n");
    git(&repo, &["add", "app/staged.py"]);
    let status_before = git(&repo, &["status", "--porcelain"]);
    let index_before = std::fs::read(repo.join(".git/index")).unwrap();
    let objects_before = git(&repo, &["count-objects", "-v"]);
    let r = report(
        server.addr,
        "main",
        json!([{"ruleId": "no-print", "pass": true}]),
    );
    assert_eq!(r.status, 201, "{:#}", r.body);
    assert_eq!(r.body["dirty"], true);
    assert!(
        r.body["note"]
            .as_str()
            .unwrap()
            .contains("commit exactly this content"),
        "{:#}",
        r.body
    );
    assert_eq!(git(&repo, &["status", "--porcelain"]), status_before);
    assert_eq!(
        std::fs::read(repo.join(".git/index")).unwrap(),
        index_before
    );
    assert_eq!(git(&repo, &["count-objects", "-v"]), objects_before);
    // Committing everything gives exactly the recorded tree.
    git(&repo, &["add", "-A"]);
    git(&repo, &["commit", "-q", "-m", "wip"]);
    assert_eq!(r.body["treeSha"], git(&repo, &["rev-parse", "HEAD^{tree}"]));
}

#[test]
fn gate_runs_on_the_same_tree_witness_or_dispute_each_claim_and_stats_count_breaks_and_fixes() {
    if !analysers_available() {
        return;
    }
    let (_tmp, repo, data) = setup();
    let server = start_server(&repo, &data, Some(REPO), false);
    let addr = server.addr;

    // The agent's session: fails the rule, then (wrongly) claims it passes.
    let first = report(
        addr,
        "feature",
        json!([{"ruleId": "no-shell-true", "pass": false}]),
    );
    assert_eq!(first.status, 201, "{:#}", first.body);
    let lie = report(
        addr,
        "feature",
        json!([
            {"ruleId": "no-shell-true", "pass": true},
            {"ruleId": "no-print", "pass": true},
            {"ruleId": "AGENTS.md#testing", "pass": true}
        ]),
    );
    let lie_id = lie.body["checkId"].as_str().unwrap().to_string();
    // Another tree: the gate cannot say anything about it.
    write(&repo, "app/extra.py", "Z = 3\n");
    let elsewhere = report(addr, "other", json!([{"ruleId": "no-print", "pass": true}]));
    let elsewhere_id = elsewhere.body["checkId"].as_str().unwrap().to_string();
    assert_ne!(elsewhere.body["treeSha"], lie.body["treeSha"]);
    std::fs::remove_file(repo.join("app/extra.py")).unwrap();

    let rec = run_gate(&repo, 1, None);
    assert_eq!(rec["headTreeSha"], lie.body["treeSha"]);
    let stored = store_gate(addr, &rec);
    assert_eq!(stored.body["detailComplete"], true, "{:#}", stored.body);
    assert_eq!(
        stored.body["selfChecks"],
        json!({"onTree": 2, "witnessed": 1, "disputed": 1}),
        "the first and the lying check are on the gate's tree"
    );

    let (status, results) = check_status(&data, &lie_id);
    assert_eq!(status, "disputed");
    assert_eq!(
        results,
        vec![
            ("no-shell-true".to_string(), "disputed".to_string()),
            ("no-print".to_string(), "witnessed".to_string()),
            ("AGENTS.md#testing".to_string(), "claimed".to_string()),
        ]
    );
    assert_eq!(check_status(&data, &elsewhere_id).0, "claimed");
    let (first_status, _) = check_status(&data, first.body["checkId"].as_str().unwrap());
    assert_eq!(first_status, "witnessed", "an honest fail the gate saw");

    // Reported after the gate ran on this tree: judged at once.
    let honest = report(
        addr,
        "feature",
        json!([{"ruleId": "no-shell-true", "pass": false}, {"ruleId": "no-print", "pass": true}]),
    );
    assert_eq!(honest.body["status"], "witnessed", "{:#}", honest.body);
    assert_eq!(honest.body["results"][0]["gate"]["gateViolations"], 1);
    assert!(
        honest.body["note"]
            .as_str()
            .unwrap()
            .starts_with("witnessed")
    );

    // The fix, reported and then run through the gate again on the same pull request.
    write(
        &repo,
        "app/run.py",
        "import subprocess\n\n\ndef run(cmd):\n    return subprocess.call(cmd)\n",
    );
    git(&repo, &["commit", "-q", "-am", "fix"]);
    let fixed = report(
        addr,
        "feature",
        json!([{"ruleId": "no-shell-true", "pass": true}]),
    );
    let rec2 = run_gate(&repo, 1, None);
    store_gate(addr, &rec2);
    assert_eq!(
        check_status(&data, fixed.body["checkId"].as_str().unwrap()).0,
        "witnessed"
    );

    // The session's checks, newest first, with their status now.
    let listed = common::get(addr, "/api/v1/rules/checks?session_id=feature");
    assert_eq!(listed.status, 200, "{:#}", listed.body);
    assert_eq!(listed.body["total"], 4);
    let statuses: Vec<&str> = listed.body["checks"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["status"].as_str().unwrap())
        .collect();
    assert_eq!(
        statuses,
        ["witnessed", "witnessed", "disputed", "witnessed"]
    );
    assert_eq!(listed.body["checks"][2]["checkId"], lie_id.as_str());
    assert_eq!(
        common::get(addr, "/api/v1/rules/checks?limit=1").body["checks"]
            .as_array()
            .unwrap()
            .len(),
        1
    );
    let s = common::get(addr, "/api/v1/rules/stats");
    assert_eq!(s.status, 200, "{:#}", s.body);
    let shell = stats_of(&s.body, "no-shell-true");
    assert_eq!(
        s.body["rules"][0]["ruleId"], "no-shell-true",
        "sorted by timesBroken"
    );
    assert_eq!(shell["inPlaybook"], true);
    assert_eq!(shell["title"], "No shell=True in subprocess calls");
    assert_eq!(shell["gateRunsBroken"], 1);
    assert_eq!(shell["gateViolations"], 1);
    assert_eq!(shell["selfCheckFailures"], 2);
    assert_eq!(shell["timesBroken"], 3);
    // fail → pass in session "feature" twice (first → lie, honest → fixed), and the PR's
    // second run no longer breaks it.
    assert_eq!(shell["fixedBeforeCommit"], 2);
    assert_eq!(shell["fixedInPr"], 1);
    assert_eq!(shell["timesFixed"], 3);
    assert_eq!(shell["disputed"], 1);
    assert_eq!(shell["witnessed"], 3);
    assert_eq!(shell["claimed"], 0);
    let print = stats_of(&s.body, "no-print");
    assert_eq!(
        (print["witnessed"].as_i64(), print["claimed"].as_i64()),
        (Some(2), Some(1))
    );
    assert_eq!(stats_of(&s.body, "AGENTS.md#testing")["claimed"], 1);
    assert_eq!(s.body["totals"]["gateRuns"], 2);
    assert_eq!(s.body["totals"]["sessions"], 2);
    assert!(s.body["definitions"]["fixedInPr"].is_string());
    assert!(s.body["note"].as_str().unwrap().contains("timesBroken:"));
    // Deterministic.
    assert_eq!(common::get(addr, "/api/v1/rules/stats").body, s.body);
    assert!(
        s.body["window"].is_null(),
        "all time: {:#}",
        s.body["window"]
    );

    // Over time: everything happened now, so the last 30 days count it all.
    let month = common::get(addr, "/api/v1/rules/stats?days=30");
    assert_eq!(month.body["window"]["days"], 30);
    assert_eq!(month.body["rules"], s.body["rules"]);
    // Forty days ago: the first gate run of the PR and session "feature"'s reports. The last
    // 30 days keep the second run and the other session only; all time is unchanged.
    let conn = nexus_lite::core::db::open(&data).unwrap();
    let old = 40 * 86_400;
    conn.execute(
        "UPDATE rule_gate_runs SET analyzed_at = analyzed_at - ?1 WHERE seq = (SELECT min(seq) FROM rule_gate_runs)",
        [old],
    )
    .unwrap();
    conn.execute(
        "UPDATE rule_checks SET created_at = created_at - ?1 WHERE session_id = 'feature'",
        [old],
    )
    .unwrap();
    drop(conn);
    let month = common::get(addr, "/api/v1/rules/stats?days=30");
    let recent = stats_of(&month.body, "no-shell-true");
    assert_eq!(
        month.body["totals"]["gateRuns"], 1,
        "{:#}",
        month.body["totals"]
    );
    assert_eq!(
        month.body["totals"]["sessions"], 1,
        "{:#}",
        month.body["totals"]
    );
    assert_eq!(recent["selfCheckFailures"], 0, "{recent:#}");
    assert_eq!(recent["gateRunsBroken"], 0, "{recent:#}");
    // A fix counts when both its sides are in the window.
    assert_eq!(recent["fixedInPr"], 0, "{recent:#}");
    assert_eq!(recent["fixedBeforeCommit"], 0, "{recent:#}");
    let all = common::get(addr, "/api/v1/rules/stats");
    assert_eq!(all.body["rules"], s.body["rules"], "all time is unchanged");
}

#[test]
fn a_partial_gate_run_disputes_a_pass_it_saw_broken_but_never_witnesses_a_pass() {
    if !analysers_available() {
        return;
    }
    let (tmp, repo, data) = setup();
    let server = start_server(&repo, &data, Some(REPO), false);
    let c = report(
        server.addr,
        "feature",
        json!([{"ruleId": "no-shell-true", "pass": true}, {"ruleId": "no-print", "pass": true}]),
    );
    let only_bandit = path_with(&tmp.path().join("bin-bandit"), &["bandit"]);
    let rec = run_gate(&repo, 2, Some(only_bandit));
    let stored = store_gate(server.addr, &rec);
    assert_eq!(stored.body["detailComplete"], false, "{:#}", stored.body);
    let (status, results) = check_status(&data, c.body["checkId"].as_str().unwrap());
    assert_eq!(status, "disputed");
    assert_eq!(
        results,
        vec![
            ("no-shell-true".to_string(), "disputed".to_string()),
            ("no-print".to_string(), "claimed".to_string()),
        ]
    );
    let only_print = report(
        server.addr,
        "feature",
        json!([{"ruleId": "no-print", "pass": true}]),
    );
    assert_eq!(
        only_print.body["status"], "claimed",
        "{:#}",
        only_print.body
    );
}

/// report_check hashes the work tree (`git add -A` on a scratch index): a repository that
/// configures git to run its programs (filters, fsmonitor, hooks, pager…) gets none run.
#[test]
fn report_check_on_a_hostile_repository_runs_none_of_its_programs() {
    let tmp = tempfile::tempdir().unwrap();
    let mut fired = Vec::new();
    for vector in hostile::VECTORS {
        let h = hostile::plant(tmp.path(), vector);
        let data = tmp.path().join(format!("data-{vector}"));
        let srv = start_server(&h.repo, &data, Some("acme/hostile"), false);
        let r = report(srv.addr, "s", json!([{"ruleId": "r", "pass": true}]));
        assert_eq!(r.status, 201, "{vector}: {:#}", r.body);
        assert_eq!(r.body["dirty"], true, "{vector}: {:#}", r.body);
        assert!(r.body["treeSha"].is_string(), "{vector}: {:#}", r.body);
        srv.stop();
        if h.fired() {
            fired.push(h.vector);
        }
    }
    assert!(fired.is_empty(), "planted programs ran for: {fired:?}");
}

/// The attack: the change silences the analyser itself (a `# nosec` on the changed line, or
/// an edit to a ruff configuration file that `ruff.toml` extends under a name of its own), the
/// gate finds nothing, and the agent's pass used to be recorded as witnessed. Now the run
/// lists what it could not check independently, and the pass stays claimed.
#[test]
fn a_pass_the_change_silenced_itself_is_listed_and_stays_claimed() {
    if !analysers_available() {
        return;
    }
    let (_tmp, repo, data) = setup();
    let server = start_server(&repo, &data, Some(REPO), false);
    let unreviewed = |rec: &Value| -> Vec<(String, String)> {
        rec["unreviewedRules"]
            .as_array()
            .unwrap()
            .iter()
            .map(|r| {
                (
                    r["change"].as_str().unwrap().to_string(),
                    r["ruleId"].as_str().unwrap().to_string(),
                )
            })
            .collect()
    };

    // 1. `# nosec` on the very line that adds shell=True: bandit says nothing.
    write(
        &repo,
        "app/run.py",
        "import subprocess\n\n\ndef run(cmd):\n    return subprocess.call(cmd, shell=True)  # nosec\n",
    );
    git(&repo, &["commit", "-q", "-am", "silence bandit"]);
    let check = report(
        server.addr,
        "nosec",
        json!([{"ruleId": "no-shell-true", "pass": true}]),
    );
    let rec = run_gate(&repo, 3, None);
    assert!(
        !rec["violations"]
            .as_array()
            .unwrap()
            .iter()
            .any(|v| v["line"] == 5),
        "bandit honours nosec: {rec:#}"
    );
    assert!(
        unreviewed(&rec).contains(&("suppression".into(), "suppression:app/run.py:5".into())),
        "{:#}",
        rec["unreviewedRules"]
    );
    store_gate(server.addr, &rec);
    let (status, results) = check_status(&data, check.body["checkId"].as_str().unwrap());
    assert_eq!(
        (status.as_str(), results[0].1.as_str()),
        ("claimed", "claimed"),
        "a pass the change suppressed itself is not witnessed"
    );

    // 2. No suppression, but ruff.toml extends lint/house-rules.toml, which the change edits.
    write(
        &repo,
        "app/run.py",
        "import subprocess\n\n\ndef run(cmd):\n    return subprocess.call([cmd])\n",
    );
    write(&repo, "ruff.toml", "extend = \"lint/house-rules.toml\"\n");
    write(
        &repo,
        "lint/house-rules.toml",
        "line-length = 100\n[lint]\nignore = [\"E501\"]\n",
    );
    git(&repo, &["add", "-A"]);
    git(&repo, &["commit", "-q", "-m", "house rules"]);
    let check = report(
        server.addr,
        "config",
        json!([{"ruleId": "no-shell-true", "pass": true}]),
    );
    let rec = run_gate(&repo, 4, None);
    let ruff = rec["tools"]
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["name"] == "ruff")
        .unwrap();
    assert_eq!(
        ruff["status"], "ok",
        "the extended file is in the gate's copy of head: {ruff:#}"
    );
    assert!(
        unreviewed(&rec).contains(&(
            "analyserConfig".into(),
            "config:lint/house-rules.toml".into()
        )),
        "{:#}",
        rec["unreviewedRules"]
    );
    let stored = store_gate(server.addr, &rec);
    assert_eq!(stored.body["detailComplete"], true, "{:#}", stored.body);
    let (status, _) = check_status(&data, check.body["checkId"].as_str().unwrap());
    assert_eq!(
        status, "claimed",
        "a pass under the change's own analyser settings"
    );
}
