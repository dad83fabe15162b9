//! `nexus-mcp rules` as a person runs it in a terminal, against a real git repository served by
//! an in-process nexus-lite (reached through NEXUS_API_URL, as a remote Nexus would be): what
//! agents wrote (proposal titles and rationales, report_check rule ids) is printed escaped,
//! and an accept killed between writing its file and recording the decision is finished by
//! the next `rules review accept`.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod support;

use serde_json::{Value, json};
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use support::spawn::bin;

const REPO: &str = "acme/shop";

/// Terminal control sequences an agent can put in any text it sends: a screen clear, an OSC
/// window title, concealed text, a right-to-left override and a forged `PASSED` line.
const HOSTILE: &str = "fix\u{1b}[2J\u{1b}]0;owned\u{7}\u{1b}[8m\u{202e}\r\ngate acme/shop: PASSED";

fn shop(dir: &Path) -> PathBuf {
    let repo = dir.join("shop");
    std::fs::create_dir_all(&repo).unwrap();
    std::fs::write(repo.join("app.py"), "X = 1\n").unwrap();
    support::git(&repo, &["init", "-q", "-b", "main"]);
    support::git(&repo, &["add", "-A"]);
    support::git(&repo, &["commit", "-q", "-m", "base"]);
    repo
}

async fn nexus(repo: &Path, data: &Path) -> support::Lite {
    support::embedded_nexus(REPO, repo, data).await
}

async fn post(lite: &support::Lite, path: &str, body: Value) -> Value {
    let resp = reqwest::Client::new()
        .post(format!("{}{path}?repository={REPO}", lite.url))
        .bearer_auth(&lite.token)
        .json(&body)
        .send()
        .await
        .unwrap();
    let status = resp.status();
    let body: Value = resp.json().await.unwrap();
    assert!(status.is_success(), "{path}: {status} {body:#}");
    body
}

fn rules(lite: &support::Lite, repo: &Path, args: &[&str]) -> Output {
    Command::new(bin())
        .arg("rules")
        .args(args)
        .arg("--repo")
        .arg(repo)
        .args(["--repository", REPO])
        .env("NEXUS_API_URL", &lite.url)
        .env("NEXUS_API_TOKEN", &lite.token)
        .output()
        .unwrap()
}

fn proposal(title: &str, rationale: &str, forbid: &str) -> Value {
    json!({
        "kind": "rule",
        "title": title,
        "body": "Never pass request data to `eval`.",
        "rationale": rationale,
        "severity": "error",
        "forbid": forbid,
        "agentName": "claude-code",
        "modelId": "m-1"
    })
}

/// Nothing an agent wrote reaches the terminal raw, in `rules review` nor in `rules stats`.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn review_and_stats_print_what_agents_wrote_escaped() {
    let tmp = tempfile::tempdir().unwrap();
    let repo = shop(tmp.path());
    let data = tmp.path().join("data");
    let lite = nexus(&repo, &data).await;
    // Proposals refuse controls now; one queued before that (or edited in the store) still
    // prints escaped.
    let queued = post(
        &lite,
        "/api/v1/rules/proposals",
        proposal("No eval", "seen twice", "\\beval\\("),
    )
    .await;
    let id = queued["proposal"]["proposalId"].as_str().unwrap();
    nexus_lite::core::db::open(&data)
        .unwrap()
        .execute(
            "UPDATE rule_proposals SET title = ?1, rationale = ?2 WHERE proposal_id = ?3",
            [
                format!("No eval {HOSTILE}"),
                format!("seen twice {HOSTILE}"),
                id.to_string(),
            ],
        )
        .unwrap();
    post(
        &lite,
        "/api/v1/rules/checks",
        json!({"sessionId": "s1", "results": [{"ruleId": format!("no-eval{HOSTILE}"), "pass": false}],
               "agentName": "claude-code", "modelId": "m-1"}),
    )
    .await;
    for args in [&["review"][..], &["stats"][..]] {
        let out = rules(&lite, &repo, args);
        let stdout = String::from_utf8_lossy(&out.stdout);
        assert!(out.status.success(), "{args:?}: {out:?}");
        for c in ['\u{1b}', '\u{7}', '\r', '\u{202e}'] {
            assert!(
                !stdout.contains(c),
                "{args:?}: {c:?} printed raw: {stdout:?}"
            );
        }
        assert!(
            !stdout.lines().any(|l| l.starts_with("gate ")),
            "{args:?}: a forged line: {stdout}"
        );
        assert!(stdout.contains("\\u{1b}[2J"), "{args:?}: {stdout}");
    }
    lite.running.shutdown().await;
}

/// `kill -9` after accept wrote the rule file and before it recorded the decision left the
/// proposal queued and the file there: every retry answered FILE_EXISTS. The crash state is
/// made by accepting, then putting the proposal back in the queue as the lost commit would
/// have left it; `rules review accept` then finishes the job.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn accept_after_a_crash_between_file_and_decision_finishes_the_job() {
    let tmp = tempfile::tempdir().unwrap();
    let repo = shop(tmp.path());
    let data = tmp.path().join("data");
    let lite = nexus(&repo, &data).await;
    let p = post(
        &lite,
        "/api/v1/rules/proposals",
        proposal("No eval on request data", "seen twice", "\\beval\\("),
    )
    .await;
    let id = p["proposal"]["proposalId"].as_str().unwrap().to_string();
    let accepted = post(
        &lite,
        &format!("/api/v1/rules/proposals/{id}/accept"),
        json!({"decidedBy": "maria"}),
    )
    .await;
    let rel = accepted["writtenPath"].as_str().unwrap().to_string();
    let written = std::fs::read_to_string(repo.join(&rel)).unwrap();
    let conn = nexus_lite::core::db::open(&data).unwrap();
    let requeued = conn
        .execute(
            "UPDATE rule_proposals SET status = 'queued', decided_at = NULL, decided_by = NULL, written_path = NULL WHERE proposal_id = ?1",
            [&id],
        )
        .unwrap();
    assert_eq!(requeued, 1);

    let out = rules(&lite, &repo, &["review", "accept", &id, "--by", "maria"]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{out:?}");
    assert!(stdout.contains(&format!("{id} accepted")), "{stdout}");
    assert!(stdout.contains(&format!("wrote {rel}")), "{stdout}");
    assert_eq!(std::fs::read_to_string(repo.join(&rel)).unwrap(), written);

    // A file with other content is still never overwritten.
    let other = post(
        &lite,
        "/api/v1/rules/proposals",
        proposal("No exec on request data", "seen once", "\\bexec\\("),
    )
    .await;
    let other_id = other["proposal"]["proposalId"]
        .as_str()
        .unwrap()
        .to_string();
    let target = other["proposal"]["target"].as_str().unwrap().to_string();
    std::fs::create_dir_all(repo.join(&target).parent().unwrap()).unwrap();
    std::fs::write(repo.join(&target), "mine\n").unwrap();
    let out = rules(&lite, &repo, &["review", "accept", &other_id]);
    assert!(!out.status.success(), "{out:?}");
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("already exists"),
        "{out:?}"
    );
    assert_eq!(
        std::fs::read_to_string(repo.join(&target)).unwrap(),
        "mine\n"
    );
    lite.running.shutdown().await;
}

/// Red team (issue 24, round 2): `rules review accept` wrote a proposal's title and body into
/// the rule file raw: ESC sequences (`\e[8m` conceals text under `less -R`, git's pager), OSC,
/// CR and bidi controls landed in a file the reviewer then reads with `git diff` or `cat`.
/// Proposing such text is refused, naming the field and the character's position; a proposal
/// that holds it anyway (queued before, or edited in the store) is refused at accept, and no
/// file is written.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_accepted_proposal_writes_no_terminal_controls() {
    let tmp = tempfile::tempdir().unwrap();
    let repo = shop(tmp.path());
    let data = tmp.path().join("data");
    let lite = nexus(&repo, &data).await;
    let mut p = proposal("No eval", "seen twice", "\\beval\\(");
    p["body"] = json!(format!("Never pass request data to `eval`.{HOSTILE}"));
    let resp = reqwest::Client::new()
        .post(format!(
            "{}/api/v1/rules/proposals?repository={REPO}",
            lite.url
        ))
        .bearer_auth(&lite.token)
        .json(&p)
        .send()
        .await
        .unwrap();
    assert_eq!(resp.status().as_u16(), 400);
    let refusal = resp.text().await.unwrap();
    assert!(
        refusal.contains("`body`") && refusal.contains("U+001B at character 38"),
        "{refusal}"
    );

    let queued = post(
        &lite,
        "/api/v1/rules/proposals",
        proposal("No eval", "seen twice", "\\beval\\("),
    )
    .await;
    let id = queued["proposal"]["proposalId"]
        .as_str()
        .unwrap()
        .to_string();
    let target = queued["proposal"]["target"].as_str().unwrap().to_string();
    nexus_lite::core::db::open(&data)
        .unwrap()
        .execute(
            "UPDATE rule_proposals SET title = ?1, body = ?2 WHERE proposal_id = ?3",
            [
                format!("No eval {HOSTILE}"),
                format!("Never pass request data to `eval`.{HOSTILE}"),
                id.clone(),
            ],
        )
        .unwrap();
    let out = rules(&lite, &repo, &["review", "accept", &id, "--by", "lead"]);
    lite.running.shutdown().await;
    assert!(!out.status.success(), "{out:?}");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("control character U+001B"), "{stderr}");
    assert!(!stderr.contains('\u{1b}'), "{stderr:?}");
    assert!(!repo.join(&target).exists(), "{target} was written");
}
