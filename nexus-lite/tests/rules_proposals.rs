#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
//! Proposals on a real git repository made from the rules fixture: propose_rule and
//! propose_skill (queued, AI-generated, deduplicated, never in the playbook until accepted and
//! committed), accept (writes the file, refuses to overwrite or to write through a symlink),
//! reject, and bootstrap_playbook from the fixture's analyser configuration and stored gate
//! findings.

mod common;
#[path = "fixtures/rules/materialize.rs"]
mod rules_fixture;

use common::{Resp, TOKEN, http, start_server};
use serde_json::{Value, json};
use std::net::SocketAddr;
use std::path::PathBuf;

fn post(addr: SocketAddr, path: &str, body: &Value) -> Resp {
    http(addr, "POST", path, Some(TOKEN), Some(&body.to_string()))
}

fn setup() -> (tempfile::TempDir, PathBuf, PathBuf) {
    let tmp = tempfile::tempdir().unwrap();
    let repo = tmp.path().join("shop");
    rules_fixture::materialize(&repo);
    let data = tmp.path().join("data");
    (tmp, repo, data)
}

fn rule_ids(addr: SocketAddr) -> Vec<String> {
    common::get(addr, "/api/v1/rules/playbook").body["rules"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["ruleId"].as_str().unwrap().to_string())
        .collect()
}

fn no_eval() -> Value {
    json!({
        "kind": "rule",
        "title": "No eval() on request data",
        "body": "Never pass request data to `eval`; parse it with `json.loads`.",
        "rationale": "Seen three times this week.",
        "severity": "error",
        "globs": ["app/**/*.py"],
        "forbid": "\\beval\\(",
        "agentName": "claude-code",
        "modelId": "m-1"
    })
}

#[test]
fn a_proposed_rule_is_queued_once_and_enters_the_playbook_only_when_accepted_and_committed() {
    let (_tmp, repo, data) = setup();
    let server = start_server(&repo, &data, None, false);
    let addr = server.addr;
    let r = post(addr, "/api/v1/rules/proposals", &no_eval());
    assert_eq!(r.status, 201, "{:#}", r.body);
    let p = &r.body["proposal"];
    assert_eq!(r.body["duplicate"], false);
    assert_eq!(p["status"], "queued");
    assert_eq!(p["aiGenerated"], true);
    assert_eq!(p["source"], "agent");
    assert_eq!(p["proposedBy"], "claude-code");
    assert_eq!(p["kind"], "rule");
    assert_eq!(p["fields"]["severity"], "error");
    assert_eq!(p["target"], ".nexus/rules/no-eval-on-request-data.md");
    let id = p["proposalId"].as_str().unwrap().to_string();

    // The same rule again (other wording, same pattern): the existing proposal.
    let mut again = no_eval();
    again["title"] = json!("Do not eval request data");
    let dup = post(addr, "/api/v1/rules/proposals", &again);
    assert_eq!(dup.status, 201, "{:#}", dup.body);
    assert_eq!(dup.body["duplicate"], true);
    assert_eq!(dup.body["proposal"]["proposalId"], id.as_str());

    let list = common::get(addr, "/api/v1/rules/proposals?status=queued");
    assert_eq!(list.body["total"], 1, "{:#}", list.body);
    assert_eq!(
        common::get(addr, "/api/v1/rules/proposals?status=accepted").body["total"],
        0
    );
    assert_eq!(
        common::get(addr, "/api/v1/rules/proposals?status=nope").status,
        400
    );
    assert!(!rule_ids(addr).contains(&"no-eval-on-request-data".to_string()));

    let acc = post(
        addr,
        &format!("/api/v1/rules/proposals/{id}/accept"),
        &json!({"decidedBy": "maria"}),
    );
    assert_eq!(acc.status, 200, "{:#}", acc.body);
    assert_eq!(acc.body["proposal"]["status"], "accepted");
    assert_eq!(acc.body["proposal"]["decidedBy"], "maria");
    assert_eq!(
        acc.body["writtenPath"],
        ".nexus/rules/no-eval-on-request-data.md"
    );
    assert!(
        acc.body["next"].as_str().unwrap().contains("commit"),
        "{:#}",
        acc.body
    );
    let text =
        std::fs::read_to_string(repo.join(".nexus/rules/no-eval-on-request-data.md")).unwrap();
    assert!(text.contains("aiGenerated: true"), "{text}");
    assert!(text.contains(&format!("proposalId: \"{id}\"")), "{text}");
    assert!(text.contains("severity: error"), "{text}");
    assert!(text.contains("Why: Seen three times this week."), "{text}");
    // Untracked: not in the playbook yet.
    assert!(!rule_ids(addr).contains(&"no-eval-on-request-data".to_string()));
    rules_fixture::git(&repo, &["add", "-A"]);
    rules_fixture::git(&repo, &["commit", "-qm", "accept no-eval"]);
    let pb = common::get(addr, "/api/v1/rules/playbook").body;
    let rule = pb["rules"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["ruleId"] == "no-eval-on-request-data")
        .unwrap_or_else(|| panic!("accepted rule missing: {:#}", pb["rules"]));
    assert_eq!(rule["severity"], "error");
    assert_eq!(rule["forbid"], "\\beval\\(");
    assert_eq!(rule["globs"], json!(["app/**/*.py"]));
    assert_eq!(rule["title"], "No eval() on request data");
    assert!(
        rule["warnings"].as_array().is_none_or(Vec::is_empty),
        "{rule:#}"
    );

    assert!(
        !pb["warnings"]
            .as_array()
            .unwrap()
            .iter()
            .any(|w| w["path"] == ".nexus/rules/no-eval-on-request-data.md"),
        "{:#}",
        pb["warnings"]
    );
    let twice = post(
        addr,
        &format!("/api/v1/rules/proposals/{id}/accept"),
        &json!({}),
    );
    assert_eq!(twice.status, 409, "{:#}", twice.body);
    assert_eq!(twice.body["error"]["code"], "PROPOSAL_NOT_QUEUED");
    let missing = post(addr, "/api/v1/rules/proposals/prop_nope/accept", &json!({}));
    assert_eq!(missing.status, 404);
    assert_eq!(missing.body["error"]["code"], "PROPOSAL_NOT_FOUND");
}

#[test]
fn a_skill_is_written_to_its_named_directory_and_a_human_proposal_is_not_ai_generated() {
    let (_tmp, repo, data) = setup();
    let server = start_server(&repo, &data, None, false);
    let addr = server.addr;
    let bad = post(
        addr,
        "/api/v1/rules/proposals",
        &json!({"kind": "skill", "title": "t", "body": "b", "name": "Bad_Name", "description": "d"}),
    );
    assert_eq!(bad.status, 400);
    assert!(
        bad.body["error"]["message"]
            .as_str()
            .unwrap()
            .contains("lowercase")
    );
    let no_desc = post(
        addr,
        "/api/v1/rules/proposals",
        &json!({"kind": "skill", "title": "t", "body": "b", "name": "db-migrations"}),
    );
    assert_eq!(no_desc.status, 400);
    let severity = post(
        addr,
        "/api/v1/rules/proposals",
        &json!({"kind": "skill", "title": "t", "body": "b", "name": "x", "description": "d", "severity": "error"}),
    );
    assert_eq!(severity.status, 400);

    let skill = json!({
        "kind": "skill",
        "title": "Database migrations",
        "name": "db-migrations",
        "description": "How to write and check an Alembic migration: naming, downgrade, data moves.",
        "body": "1. `alembic revision -m <what>`\n2. Write the downgrade.\n"
    });
    let r = post(addr, "/api/v1/rules/proposals", &skill);
    assert_eq!(r.status, 201, "{:#}", r.body);
    let id = r.body["proposal"]["proposalId"]
        .as_str()
        .unwrap()
        .to_string();
    assert_eq!(
        r.body["proposal"]["target"],
        ".agents/skills/db-migrations/SKILL.md"
    );
    let acc = post(
        addr,
        &format!("/api/v1/rules/proposals/{id}/accept"),
        &json!({}),
    );
    assert_eq!(acc.status, 200, "{:#}", acc.body);
    rules_fixture::git(&repo, &["add", "-A"]);
    rules_fixture::git(&repo, &["commit", "-qm", "skill"]);
    let skills = common::get(addr, "/api/v1/rules/skills").body;
    let s = skills["skills"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["name"] == "db-migrations")
        .unwrap_or_else(|| panic!("{skills:#}"));
    assert_eq!(s["path"], ".agents/skills/db-migrations/SKILL.md");
    assert_eq!(s["warnings"], json!([]), "{s:#}");

    let human = post(
        addr,
        "/api/v1/rules/proposals",
        &json!({"kind": "rule", "title": "Small pull requests", "body": "Under 400 lines.", "source": "human", "proposedBy": "maria"}),
    );
    assert_eq!(
        human.body["proposal"]["aiGenerated"], false,
        "{:#}",
        human.body
    );
    let hid = human.body["proposal"]["proposalId"]
        .as_str()
        .unwrap()
        .to_string();
    let rej = post(
        addr,
        &format!("/api/v1/rules/proposals/{hid}/reject"),
        &json!({"decidedBy": "lead", "decisionNote": "not enforceable"}),
    );
    assert_eq!(rej.status, 200, "{:#}", rej.body);
    assert_eq!(rej.body["proposal"]["status"], "rejected");
    assert_eq!(rej.body["proposal"]["decisionNote"], "not enforceable");
    assert_eq!(rej.body["proposal"]["decidedBy"], "lead");
    assert!(!repo.join(".nexus/rules/small-pull-requests.md").exists());
    let again = post(
        addr,
        &format!("/api/v1/rules/proposals/{hid}/reject"),
        &json!({}),
    );
    assert_eq!(again.status, 409);
    let list = common::get(addr, "/api/v1/rules/proposals").body;
    assert_eq!(list["total"], 2);
}

#[test]
fn accept_never_overwrites_nor_writes_through_a_symlink_out_of_the_repository() {
    let (tmp, repo, data) = setup();
    let server = start_server(&repo, &data, None, false);
    let addr = server.addr;
    let mut p = no_eval();
    p["name"] = json!("no-print");
    p["title"] = json!("No print");
    p["forbid"] = json!("\\bprint2\\(");
    let r = post(addr, "/api/v1/rules/proposals", &p);
    let id = r.body["proposal"]["proposalId"]
        .as_str()
        .unwrap()
        .to_string();
    // The fixture has .nexus/rules/no-print.md already.
    let before = std::fs::read_to_string(repo.join(".nexus/rules/no-print.md")).unwrap();
    let clash = post(
        addr,
        &format!("/api/v1/rules/proposals/{id}/accept"),
        &json!({}),
    );
    assert_eq!(clash.status, 409, "{:#}", clash.body);
    assert_eq!(clash.body["error"]["code"], "FILE_EXISTS");
    assert_eq!(
        std::fs::read_to_string(repo.join(".nexus/rules/no-print.md")).unwrap(),
        before
    );
    // Still queued: the refusal changed nothing.
    assert_eq!(
        common::get(addr, "/api/v1/rules/proposals?status=queued").body["total"],
        1
    );

    let outside = tmp.path().join("outside");
    std::fs::create_dir(&outside).unwrap();
    std::os::unix::fs::symlink(&outside, repo.join(".agents")).unwrap();
    let r = post(
        addr,
        "/api/v1/rules/proposals",
        &json!({"kind": "skill", "title": "x", "name": "escape", "description": "d", "body": "b"}),
    );
    let sid = r.body["proposal"]["proposalId"]
        .as_str()
        .unwrap()
        .to_string();
    let esc = post(
        addr,
        &format!("/api/v1/rules/proposals/{sid}/accept"),
        &json!({}),
    );
    assert_eq!(esc.status, 409, "{:#}", esc.body);
    assert_eq!(esc.body["error"]["code"], "UNSAFE_PATH");
    assert_eq!(std::fs::read_dir(&outside).unwrap().count(), 0);
}

#[test]
fn proposals_refuse_unusable_input() {
    let (_tmp, repo, data) = setup();
    let server = start_server(&repo, &data, None, false);
    for (body, expected) in [
        (json!({"title": "t", "body": "b"}), "`kind`"),
        (json!({"kind": "rule", "body": "b"}), "`title`"),
        (json!({"kind": "rule", "title": "t"}), "`body`"),
        (
            json!({"kind": "rule", "title": "t", "body": "b", "forbid": "(("}),
            "regular expression",
        ),
        (
            json!({"kind": "rule", "title": "t", "body": "b", "severity": "fatal"}),
            "severity",
        ),
        (
            json!({"kind": "rule", "title": "t", "body": "b", "enforcedBy": ["B602"]}),
            "<tool>:<code>",
        ),
        (
            json!({"kind": "rule", "title": "!!!", "body": "b"}),
            "letters or digits",
        ),
        (
            json!({"kind": "rule", "title": "t", "body": "b", "source": "bootstrap"}),
            "source",
        ),
    ] {
        let r = post(server.addr, "/api/v1/rules/proposals", &body);
        assert_eq!(r.status, 400, "{body}: {:#}", r.body);
        let msg = r.body["error"]["message"].as_str().unwrap();
        assert!(msg.contains(expected), "{body}: {msg}");
    }
}

fn gate_record_with(rule_id: &str, n: usize) -> Value {
    json!({
        "repository": "acme/shop",
        "pr": 3,
        "baseSha": "b".repeat(40),
        "headSha": "a".repeat(40),
        "tools": [{"name": "ruff", "version": "0.1", "exitCode": 1, "status": "ok", "files": 1, "findings": n}],
        "violations": (0..n).map(|i| json!({
            "path": "app/run.py", "line": i + 1, "severity": "warning", "ruleId": rule_id,
            "ruleTitle": "unused-import", "comment": "unused", "suggestion": null
        })).collect::<Vec<_>>(),
        "analyzedAt": "2026-12-01T10:00:00Z"
    })
}

#[test]
fn bootstrap_queues_candidates_from_analyser_config_and_frequent_findings_once() {
    let (_tmp, repo, data) = setup();
    let server = start_server(&repo, &data, None, false);
    let addr = server.addr;
    let g = post(
        addr,
        "/api/v1/rules/gate-results",
        &gate_record_with("ruff:F401", 2),
    );
    assert_eq!(g.status, 201, "{:#}", g.body);
    let r = post(addr, "/api/v1/rules/proposals/bootstrap", &json!({}));
    assert_eq!(r.status, 200, "{:#}", r.body);
    let queued = r.body["queued"].as_array().unwrap();
    let titles: Vec<&str> = queued
        .iter()
        .map(|p| p["title"].as_str().unwrap())
        .collect();
    // pyproject.toml selects E, F, S; .bandit; .semgrep.yml has no-eval; the gate saw F401.
    assert_eq!(queued.len(), 6, "{titles:#?}");
    assert!(
        queued
            .iter()
            .all(|p| p["source"] == "bootstrap" && p["aiGenerated"] == true)
    );
    assert!(queued.iter().all(|p| p["status"] == "queued"));
    let enforced: Vec<String> = queued
        .iter()
        .map(|p| p["fields"]["enforcedBy"].to_string())
        .collect();
    for e in [
        "ruff:E*",
        "ruff:F*",
        "ruff:S*",
        "bandit:*",
        "semgrep:no-eval",
        "ruff:F401",
    ] {
        assert!(
            enforced.iter().any(|x| x.contains(e)),
            "{e} in {enforced:?}"
        );
    }
    let ruff_e = queued
        .iter()
        .find(|p| p["fields"]["enforcedBy"] == json!(["ruff:E*"]))
        .unwrap();
    assert!(
        ruff_e["body"].as_str().unwrap().contains("`E501`"),
        "{ruff_e:#}"
    );
    let sources: Vec<(String, u64)> = r.body["sources"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| {
            (
                s["path"].as_str().unwrap().to_string(),
                s["candidates"].as_u64().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        sources,
        vec![
            ("pyproject.toml".to_string(), 3),
            (".bandit".to_string(), 1),
            (".semgrep.yml".to_string(), 1),
            ("gate records".to_string(), 1),
        ]
    );
    // Not in the playbook.
    let ids = rule_ids(addr);
    assert!(!ids.iter().any(|i| i.contains("ruff")), "{ids:?}");

    let again = post(addr, "/api/v1/rules/proposals/bootstrap", &json!({}));
    assert_eq!(again.body["queued"], json!([]), "{:#}", again.body);
    assert_eq!(again.body["alreadyQueued"].as_array().unwrap().len(), 6);

    // A broken config file is a warning, not a failure.
    common::write(&repo, "ruff.toml", "select = [\n");
    let broken = post(addr, "/api/v1/rules/proposals/bootstrap", &json!({}));
    assert_eq!(broken.status, 200);
    let w = broken.body["sources"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["path"] == "ruff.toml")
        .unwrap();
    assert!(w["warning"].as_str().unwrap().contains("TOML"), "{w:#}");
    common::write(&repo, "ruff.toml", "[lint]\nselect = [\"B\"]\n");
    let ruff_toml = post(addr, "/api/v1/rules/proposals/bootstrap", &json!({}));
    let queued = ruff_toml.body["queued"].as_array().unwrap();
    assert_eq!(queued.len(), 1, "{:#}", ruff_toml.body);
    assert_eq!(queued[0]["fields"]["enforcedBy"], json!(["ruff:B*"]));
}
