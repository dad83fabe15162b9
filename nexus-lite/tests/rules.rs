#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
//! The rules domain over HTTP, on a real git repository made from the rules fixture
//! (`fixtures/rules/`): playbook discovery in every format, versions, get_rule, skills,
//! report_check with witnessing, proposals and stats.

mod common;
#[path = "fixtures/rules/materialize.rs"]
mod rules_fixture;

use common::{Resp, Server, TOKEN, http, start_server};
use serde_json::{Value, json};
use std::path::Path;

fn get(addr: std::net::SocketAddr, path: &str) -> Resp {
    http(addr, "GET", path, Some(TOKEN), None)
}

fn rule<'a>(pb: &'a Value, id: &str) -> &'a Value {
    pb["rules"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["ruleId"] == id)
        .unwrap_or_else(|| panic!("no rule {id} in {:#}", pb["rules"]))
}

fn ids(pb: &Value) -> Vec<String> {
    pb["rules"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["ruleId"].as_str().unwrap().to_string())
        .collect()
}

fn setup() -> (tempfile::TempDir, std::path::PathBuf, std::path::PathBuf) {
    let tmp = tempfile::tempdir().unwrap();
    let repo = tmp.path().join("shop");
    rules_fixture::materialize(&repo);
    let data = tmp.path().join("data");
    (tmp, repo, data)
}

#[test]
fn the_playbook_reads_every_format_once_with_scopes_and_a_stable_version() {
    let (_tmp, repo, data) = setup();
    let server = start_server(&repo, &data, None, false);
    let r = get(server.addr, "/api/v1/rules/playbook");
    assert_eq!(r.status, 200, "{:#}", r.body);
    let pb = r.body;
    assert_eq!(pb["repository"], "acme/shop");
    assert_eq!(pb["unchanged"], false);
    assert_eq!(pb["dirty"], false);
    let all = ids(&pb);
    // AGENTS.md: preamble + three H2 sections, loaded once although CLAUDE.md links to it.
    for id in [
        "AGENTS.md",
        "AGENTS.md#testing",
        "AGENTS.md#security",
        "AGENTS.md#style",
        "services/api/AGENTS.md#api-errors",
        "services/api/AGENTS.md#testing",
        ".cursor/rules/typescript.mdc",
        ".cursor/rules/web/css.mdc",
        ".cursor/rules/always.mdc",
        ".github/copilot-instructions.md#dependencies",
        ".github/instructions/tests.instructions.md",
        ".windsurf/rules/naming.md",
        "docs-style",
        ".claude/rules/api.md",
        ".clinerules",
        "no-shell-true",
        ".nexus/rules/no-print.md",
    ] {
        assert!(all.contains(&id.to_string()), "missing {id} in {all:?}");
    }
    assert!(!all.iter().any(|i| i.starts_with("CLAUDE.md")), "{all:?}");
    let claude = pb["skipped"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["path"] == "CLAUDE.md")
        .expect("CLAUDE.md listed as skipped");
    assert_eq!(claude["kind"], "duplicate");
    assert!(claude["reason"].as_str().unwrap().contains("AGENTS.md"));

    // The .mdc whose unquoted globs are not YAML still has its globs and activation.
    let ts = rule(&pb, ".cursor/rules/typescript.mdc");
    assert_eq!(ts["globs"], json!(["**/*.{ts,tsx}"]));
    assert_eq!(ts["activation"], "auto");
    assert_eq!(
        ts["title"],
        "TypeScript components use function components and named exports"
    );
    assert_eq!(
        rule(&pb, ".cursor/rules/web/css.mdc")["globs"],
        json!(["web/**/*.css", "web/**/*.scss"])
    );
    assert_eq!(
        rule(&pb, ".cursor/rules/always.mdc")["activation"],
        "always"
    );
    assert_eq!(
        rule(&pb, ".cursor/rules/always.mdc")["title"],
        "Commit messages"
    );
    assert_eq!(
        rule(&pb, ".claude/rules/api.md")["globs"],
        json!(["services/api/**"])
    );
    assert_eq!(rule(&pb, ".windsurf/rules/naming.md")["activation"], "auto");

    // The machine-checked rule.
    let shell = rule(&pb, "no-shell-true");
    assert_eq!(shell["severity"], "error");
    assert_eq!(shell["enforcedBy"], json!(["bandit:B602", "bandit:B605"]));
    assert_eq!(shell["machineChecked"], true);
    assert_eq!(shell["title"], "No shell=True in subprocess calls");
    let print = rule(&pb, ".nexus/rules/no-print.md");
    assert_eq!(print["forbid"], "\\bprint\\(");
    assert_eq!(print["forbidPaths"], json!(["app/**/*.py"]));
    assert_eq!(rule(&pb, "AGENTS.md#security")["machineChecked"], false);

    // Nearer files come later.
    let root_testing = rule(&pb, "AGENTS.md#testing")["precedence"]
        .as_u64()
        .unwrap();
    let api_testing = rule(&pb, "services/api/AGENTS.md#testing")["precedence"]
        .as_u64()
        .unwrap();
    assert!(api_testing > root_testing);
    assert_eq!(
        rule(&pb, "services/api/AGENTS.md#testing")["scopeDir"],
        "services/api"
    );

    // The same version answers unchanged without rules.
    let version = pb["version"].as_str().unwrap().to_string();
    let again = get(
        server.addr,
        &format!("/api/v1/rules/playbook?since_version={version}"),
    );
    assert_eq!(again.body, json!({"unchanged": true, "version": version}));
}

#[test]
fn a_path_selects_the_rules_in_scope_and_lists_the_others_as_skipped() {
    let (_tmp, repo, data) = setup();
    let server = start_server(&repo, &data, None, false);
    let pb = get(server.addr, "/api/v1/rules/playbook?path=web/app.tsx").body;
    let all = ids(&pb);
    assert!(all.contains(&".cursor/rules/typescript.mdc".to_string()));
    assert!(all.contains(&"AGENTS.md#security".to_string()));
    assert!(
        !all.contains(&"services/api/AGENTS.md#api-errors".to_string()),
        "{all:?}"
    );
    assert!(!all.contains(&".windsurf/rules/naming.md".to_string()));
    let skipped: Vec<&str> = pb["skipped"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|s| s["kind"] == "scope")
        .map(|s| s["path"].as_str().unwrap())
        .collect();
    assert!(skipped.contains(&"services/api/AGENTS.md"), "{skipped:?}");
    let whole = get(server.addr, "/api/v1/rules/playbook").body;
    assert_ne!(pb["version"], whole["version"]);

    let api = get(
        server.addr,
        "/api/v1/rules/playbook?path=services/api/handlers.py",
    )
    .body;
    let all = ids(&api);
    assert!(all.contains(&"services/api/AGENTS.md#api-errors".to_string()));
    assert!(all.contains(&".claude/rules/api.md".to_string()));
    assert!(all.contains(&".windsurf/rules/naming.md".to_string()));

    let bad = get(server.addr, "/api/v1/rules/playbook?path=../etc");
    assert_eq!(bad.status, 400);
}

#[test]
fn an_edit_changes_the_version_and_big_or_broken_files_are_skipped_not_fatal() {
    let (_tmp, repo, data) = setup();
    let server = start_server(&repo, &data, None, false);
    let before = get(server.addr, "/api/v1/rules/playbook").body;
    std::fs::write(
        repo.join("AGENTS.md"),
        "# Rules\n\n## Testing\n\nAlways test.\n",
    )
    .unwrap();
    let after = get(
        server.addr,
        &format!(
            "/api/v1/rules/playbook?since_version={}",
            before["version"].as_str().unwrap()
        ),
    )
    .body;
    assert_eq!(after["unchanged"], false);
    assert_eq!(after["dirty"], true);
    assert!(!ids(&after).contains(&"AGENTS.md#security".to_string()));

    common::write(&repo, "GEMINI.md", &"x".repeat(70 * 1024));
    common::write(
        &repo,
        ".cursor/rules/broken.mdc",
        "---\ndescription: [unclosed\nglobs: {{{\n  : :\n---\nStill a rule.\n",
    );
    rules_fixture::git(&repo, &["add", "-A"]);
    rules_fixture::git(&repo, &["commit", "-qm", "more rules"]);
    let pb = get(server.addr, "/api/v1/rules/playbook").body;
    let gemini = pb["skipped"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["path"] == "GEMINI.md")
        .expect("the big file is listed");
    assert_eq!(gemini["kind"], "size");
    let broken = rule(&pb, ".cursor/rules/broken.mdc");
    assert!(broken["body"].as_str().unwrap().contains("Still a rule."));
    assert!(
        pb["warnings"]
            .as_array()
            .unwrap()
            .iter()
            .any(|w| w["path"] == ".cursor/rules/broken.mdc"),
        "{:#}",
        pb["warnings"]
    );
}

#[test]
fn the_playbook_at_a_commit_and_the_diff_of_two_commits() {
    let (_tmp, repo, _data) = setup();
    let base = rules_fixture::git(&repo, &["rev-parse", "HEAD"]);
    common::write(
        &repo,
        ".nexus/rules/no-shell.md",
        "---\nname: no-shell-true\nseverity: warning\nenforcedBy: [bandit:B602]\n---\nNo shell.\n",
    );
    common::write(
        &repo,
        ".nexus/rules/new.md",
        "---\nseverity: error\nforbid: 'eval\\('\n---\nNo eval.\n",
    );
    rules_fixture::git(&repo, &["add", "-A"]);
    rules_fixture::git(&repo, &["commit", "-qm", "weaken"]);
    let at_base = nexus_lite::rules::playbook::load_at_commit(&repo, &base).unwrap();
    let at_head = nexus_lite::rules::playbook::load_at_commit(&repo, "HEAD").unwrap();
    assert_eq!(at_base.commit_sha.as_deref(), Some(base.as_str()));
    assert_eq!(
        at_base.rule("no-shell-true").unwrap().severity,
        nexus_lite::rules::playbook::Severity::Error
    );
    // The base's playbook read from git equals the work tree's at that commit.
    let worktree_head = nexus_lite::rules::playbook::load_worktree(&repo).unwrap();
    assert_eq!(worktree_head.version(), at_head.version());
    let diff = nexus_lite::rules::playbook::diff_playbooks(&at_base, &at_head);
    assert_eq!(
        diff.unreviewed(),
        vec![".nexus/rules/new.md", "no-shell-true"]
    );
    assert_eq!(diff.weakened.len(), 1, "{diff:#?}");
    assert!(diff.weakened[0].what.contains("severity error → warning"));
    assert!(diff.weakened[0].what.contains("bandit:B605"));
    let rule = at_base
        .rule_for_finding("bandit", "B602", "app/run.py")
        .unwrap();
    assert_eq!(rule.rule_id, "no-shell-true");
    assert!(
        at_base
            .rule_for_finding("bandit", "B101", "app/run.py")
            .is_none()
    );
    assert_eq!(at_base.forbid_rules_for("app/run.py").len(), 1);
    assert!(at_base.forbid_rules_for("web/app.tsx").is_empty());
    let _ = Path::new(".");
}

#[test]
fn skills_are_listed_with_their_warnings_and_each_fetch_is_counted() {
    let (_tmp, repo, data) = setup();
    let server = start_server(&repo, &data, None, false);
    let r = get(server.addr, "/api/v1/rules/skills");
    assert_eq!(r.status, 200, "{:#}", r.body);
    let skills = r.body["skills"].as_array().unwrap();
    let names: Vec<&str> = skills.iter().map(|s| s["name"].as_str().unwrap()).collect();
    assert_eq!(names, ["bad-skill-name", "release-notes"], "{:#}", r.body);
    let good = &skills[1];
    assert_eq!(good["path"], ".claude/skills/release-notes/SKILL.md");
    assert_eq!(good["warnings"], json!([]));
    assert!(good["digest"].as_str().unwrap().starts_with("sha256:"));
    assert_eq!(good["fetchCount"], 0);
    // Broken limits are warnings; the skill is still listed.
    let bad: Vec<&str> = skills[0]["warnings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|w| w.as_str().unwrap())
        .collect();
    assert!(
        bad.iter().any(|w| w.contains("directory `Bad_Skill`")),
        "{bad:?}"
    );
    assert!(bad.iter().any(|w| w.contains("`argument-hint`")), "{bad:?}");

    let one = get(server.addr, "/api/v1/rules/skills/release-notes");
    assert_eq!(one.status, 200, "{:#}", one.body);
    assert!(
        one.body["markdown"]
            .as_str()
            .unwrap()
            .contains("# Release notes")
    );
    assert_eq!(one.body["frontmatter"]["license"], "Apache-2.0");
    assert_eq!(one.body["fetchCount"], 1);
    let again = get(server.addr, "/api/v1/rules/skills/release-notes");
    assert_eq!(again.body["fetchCount"], 2);
    let listed = get(server.addr, "/api/v1/rules/skills");
    assert_eq!(listed.body["skills"][1]["fetchCount"], 2);

    let missing = get(server.addr, "/api/v1/rules/skills/release-note");
    assert_eq!(missing.status, 404, "{:#}", missing.body);
    assert_eq!(missing.body["error"]["code"], "SKILL_NOT_FOUND");
    assert!(
        missing.body["error"]["message"]
            .as_str()
            .unwrap()
            .contains("did you mean release-notes"),
        "{:#}",
        missing.body
    );
}

#[test]
fn get_rule_answers_a_playbook_rule_or_the_analysers_own_text() {
    let (_tmp, repo, data) = setup();
    let server = start_server(&repo, &data, None, false);
    let r = get(server.addr, "/api/v1/rules/rules/no-shell-true");
    assert_eq!(r.status, 200, "{:#}", r.body);
    assert_eq!(r.body["kind"], "playbook");
    assert_eq!(r.body["rule"]["severity"], "error");
    assert_eq!(r.body["rule"]["source"], ".nexus/rules/no-shell.md");
    let section = get(server.addr, "/api/v1/rules/rules/AGENTS.md%23testing");
    assert_eq!(section.status, 200, "{:#}", section.body);
    assert_eq!(section.body["rule"]["ruleId"], "AGENTS.md#testing");

    let missing = get(server.addr, "/api/v1/rules/rules/no-shell-tru");
    assert_eq!(missing.status, 404, "{:#}", missing.body);
    assert_eq!(missing.body["error"]["code"], "RULE_NOT_FOUND");
    assert!(
        missing.body["error"]["message"]
            .as_str()
            .unwrap()
            .contains("did you mean no-shell-true"),
        "{:#}",
        missing.body
    );

    if !common::analysers_available() {
        return;
    }
    let ruff = get(server.addr, "/api/v1/rules/rules/ruff:E501");
    assert_eq!(ruff.status, 200, "{:#}", ruff.body);
    assert_eq!(ruff.body["kind"], "analyser");
    assert_eq!(ruff.body["known"], true);
    assert!(
        ruff.body["rule"]["title"]
            .as_str()
            .unwrap()
            .starts_with("line-too-long")
    );
    let bandit = get(server.addr, "/api/v1/rules/rules/bandit:B602");
    assert_eq!(bandit.body["known"], true, "{:#}", bandit.body);
    assert_eq!(
        bandit.body["rule"]["title"],
        "subprocess_popen_with_shell_equals_true"
    );
    assert_eq!(bandit.body["rule"]["severity"], "error");
    let unknown = get(server.addr, "/api/v1/rules/rules/ruff:ZZ999");
    assert_eq!(unknown.body["known"], false, "{:#}", unknown.body);
}

/// The attack: `get_rule ruff:--all` handed `--all` to `ruff rule`, which listed every rule and
/// exited 0, so an option was answered as a known rule. Codes are checked against each
/// analyser's form and passed after `--`.
#[test]
fn get_rule_never_passes_an_option_to_an_analyser() {
    if !common::analysers_available() {
        return;
    }
    let (_tmp, repo, data) = setup();
    let server = start_server(&repo, &data, None, false);
    for id in [
        "ruff:--all",
        "ruff:--help",
        "ruff:-h",
        "ruff:e501",
        "bandit:--version",
        "bandit:B60",
        "bandit:B6022",
    ] {
        let r = get(
            server.addr,
            &format!("/api/v1/rules/rules/{}", common::enc(id)),
        );
        assert_eq!(r.status, 200, "{id}: {:#}", r.body);
        assert_eq!(r.body["known"], false, "{id}: {:#}", r.body);
        assert!(r.body["rule"].is_null(), "{id}: {:#}", r.body);
        assert!(
            r.body["reason"].as_str().unwrap().contains("is not a"),
            "{id}: {:#}",
            r.body
        );
    }
    let plr = get(server.addr, "/api/v1/rules/rules/ruff:PLR0913");
    assert_eq!(plr.body["known"], true, "{:#}", plr.body);
}

/// The attack: a key bound to `acme/other` named repositories until one was "not visible"
/// rather than "not found", and read the list of served repositories in the not-found answer.
/// Now a name outside the key's repositories answers the same whether it is served or not,
/// and no answer lists repositories the key may not see.
#[test]
fn a_restricted_key_learns_no_served_repository_it_may_not_see() {
    let (_tmp, repo, data) = setup();
    let server = start_server(&repo, &data, Some("acme/shop"), false);
    let ask = |repository: &str| {
        let r = get(
            server.addr,
            &format!(
                "/api/v1/rules/playbook?repository={}&visible=acme%2Fother",
                common::enc(repository)
            ),
        );
        assert_eq!(r.status, 404, "{repository}: {:#}", r.body);
        r.body["error"].to_string().replace(repository, "<named>")
    };
    // Served but not visible, and not served at all: the same answer.
    let served = ask("acme/shop");
    assert!(served.contains("REPOSITORY_NOT_VISIBLE"), "{served}");
    assert_eq!(ask("acme/nothing"), served);
    // Not named: no list of the others either.
    let r = get(server.addr, "/api/v1/rules/playbook?visible=acme%2Fother");
    assert_eq!(r.status, 404, "{:#}", r.body);
    assert!(!r.body.to_string().contains("acme/shop"), "{:#}", r.body);
}

// ---- issue 26: the playbook on a real project's rules (tests/corpora/fastmcp-rules) ----

fn fastmcp() -> (tempfile::TempDir, std::path::PathBuf, Server) {
    let tmp = tempfile::tempdir().unwrap();
    let repo = common::corpora::corpus(tmp.path(), "fastmcp-rules");
    let server = start_server(&repo, &tmp.path().join("data"), Some("acme/fastmcp"), false);
    (tmp, repo, server)
}

fn skipped_entry<'a>(pb: &'a Value, path: &str) -> &'a Value {
    pb["skipped"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["path"] == path)
        .unwrap_or_else(|| panic!("{path} is not listed as skipped: {:#}", pb["skipped"]))
}

#[test]
fn the_rule_written_for_a_path_comes_first_on_a_real_project() {
    let (_tmp, _repo, server) = fastmcp();
    let r = get(
        server.addr,
        "/api/v1/rules/playbook?path=docs/servers/providers/proxy.mdx",
    );
    assert_eq!(r.status, 200, "{:#}", r.body);
    let all = ids(&r.body);
    // The nested `docs/.cursor/rules/` rule applies under docs/ and is ranked first.
    assert_eq!(all[0], "docs/.cursor/rules/mintlify.mdc", "{all:?}");
    let mintlify = rule(&r.body, "docs/.cursor/rules/mintlify.mdc");
    assert_eq!(mintlify["scopeDir"], "docs");
    assert_eq!(mintlify["activation"], "auto");
    // The root rules follow, in playbook order (root first, nearer later).
    let whole = ids(&get(server.addr, "/api/v1/rules/playbook").body);
    assert_eq!(
        whole.last().map(String::as_str),
        Some("docs/.cursor/rules/mintlify.mdc")
    );
    assert_eq!(all[1..], whole[..whole.len() - 1], "{all:?}");
    assert!(
        all.contains(&"CLAUDE.md#development-rules".to_string()),
        "{all:?}"
    );
    assert_eq!(r.body["nextCursor"], Value::Null);
    // The docs/ folder is the nested rule's too, although its globs speak of files.
    let r = get(server.addr, "/api/v1/rules/playbook?path=docs");
    assert_eq!(ids(&r.body)[0], "docs/.cursor/rules/mintlify.mdc");
    // Outside docs/ it does not apply, and says why.
    let r = get(
        server.addr,
        "/api/v1/rules/playbook?path=src/fastmcp/server.py",
    );
    assert!(!ids(&r.body).iter().any(|i| i.contains("mintlify")));
    let why = skipped_entry(&r.body, "docs/.cursor/rules/mintlify.mdc");
    assert_eq!(why["kind"], "scope");
    assert!(why["reason"].as_str().unwrap().contains("docs/"), "{why:#}");
}

#[test]
fn symlinked_rule_files_are_read_once_and_the_skipped_ones_say_where_they_lead() {
    let (_tmp, repo, server) = fastmcp();
    let pb = get(server.addr, "/api/v1/rules/playbook").body;
    let all = ids(&pb);
    // CLAUDE.md is read, under its own path, once.
    assert!(
        all.contains(&"CLAUDE.md#development-rules".to_string()),
        "{all:?}"
    );
    assert!(!all.iter().any(|i| i.starts_with("AGENTS.md")), "{all:?}");
    assert!(
        !all.iter()
            .any(|i| i.starts_with(".github/copilot-instructions")),
        "{all:?}"
    );
    assert_eq!(
        all.iter()
            .filter(|i| *i == "CLAUDE.md#development-rules")
            .count(),
        1
    );
    let agents = skipped_entry(&pb, "AGENTS.md");
    assert_eq!(agents["kind"], "duplicate", "{agents:#}");
    assert_eq!(
        agents["reason"],
        "a symlink to `CLAUDE.md`, which is loaded once under its own path"
    );
    // A link to a link (`.github/copilot-instructions.md` → `../AGENTS.md` → `CLAUDE.md`) is
    // the same file again, not an unreadable one.
    let copilot = skipped_entry(&pb, ".github/copilot-instructions.md");
    assert_eq!(copilot["kind"], "duplicate", "{copilot:#}");
    assert_eq!(
        copilot["reason"],
        "a symlink to `AGENTS.md` → `CLAUDE.md`, which is loaded once under its own path"
    );
    // The same at a commit (what the gate binds), where links are read from git's objects.
    let at_head = nexus_lite::rules::playbook::load_at_commit(&repo, "HEAD").unwrap();
    let reasons: Vec<(&str, &str, &str)> = at_head
        .skipped
        .iter()
        .map(|s| (s.path.as_str(), s.kind, s.reason.as_str()))
        .collect();
    assert_eq!(
        reasons,
        [
            (
                ".github/copilot-instructions.md",
                "duplicate",
                "a symlink to `AGENTS.md` → `CLAUDE.md`, which is loaded once under its own path"
            ),
            (
                "AGENTS.md",
                "duplicate",
                "a symlink to `CLAUDE.md`, which is loaded once under its own path"
            ),
        ]
    );
    assert_eq!(
        at_head
            .rules()
            .map(|r| r.rule_id.clone())
            .collect::<Vec<_>>(),
        all
    );
}

#[test]
fn sample_skills_are_not_the_teams_unless_the_team_includes_them() {
    let tmp = tempfile::tempdir().unwrap();
    let repo = common::corpora::corpus(tmp.path(), "fastmcp-rules");
    let server = start_server(&repo, &tmp.path().join("data"), Some("acme/fastmcp"), false);
    let names = |body: &Value| -> Vec<String> {
        let mut paths: Vec<String> = body["skills"]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| s["path"].as_str().unwrap().to_string())
            .collect();
        paths.sort();
        paths
    };
    let listed = get(server.addr, "/api/v1/rules/skills").body;
    assert_eq!(
        names(&listed),
        [
            ".claude/skills/code-review/SKILL.md",
            ".claude/skills/python-tests/SKILL.md",
            ".claude/skills/review-issue/SKILL.md",
            ".claude/skills/review-pr/SKILL.md",
            ".claude/skills/review-security-report/SKILL.md",
            "skills/fastmcp-client-cli/SKILL.md",
        ],
        "{listed:#}"
    );
    for sample in [
        "examples/skills/sample_skills/code-review/SKILL.md",
        "examples/skills/sample_skills/pdf-processing/SKILL.md",
    ] {
        let s = listed["skipped"]
            .as_array()
            .unwrap()
            .iter()
            .find(|s| s["path"] == sample)
            .unwrap_or_else(|| panic!("{sample} not skipped: {listed:#}"));
        assert_eq!(s["kind"], "not-configured");
        assert!(
            s["reason"].as_str().unwrap().contains(".nexus/skills.yaml"),
            "{s:#}"
        );
    }
    // The team's code review is `reviewing-code`; the sample without a name (so called
    // `code-review`, its folder) is no skill of the team's.
    let r = get(server.addr, "/api/v1/rules/skills/reviewing-code");
    assert_eq!(r.status, 200, "{:#}", r.body);
    assert_eq!(r.body["path"], ".claude/skills/code-review/SKILL.md");
    for sample in ["code-review", "pdf-processing"] {
        let r = get(server.addr, &format!("/api/v1/rules/skills/{sample}"));
        assert_eq!(r.status, 404, "{:#}", r.body);
    }

    // Configured: the samples' folder is served too, and the two code-reviews need a path.
    std::fs::create_dir_all(repo.join(".nexus")).unwrap();
    std::fs::write(
        repo.join(".nexus/skills.yaml"),
        "include: [examples/skills/sample_skills/, example/skills]\n",
    )
    .unwrap();
    let git = |args: &[&str]| {
        let ok = std::process::Command::new("git")
            .arg("-C")
            .arg(&repo)
            .args(["-c", "user.name=t", "-c", "user.email=t@t"])
            .args(args)
            .status()
            .unwrap();
        assert!(ok.success(), "git {args:?}");
    };
    git(&["add", ".nexus/skills.yaml"]);
    git(&["commit", "-qm", "serve the sample skills"]);
    let listed = get(server.addr, "/api/v1/rules/skills").body;
    assert!(
        names(&listed).contains(&"examples/skills/sample_skills/pdf-processing/SKILL.md".into()),
        "{listed:#}"
    );
    assert_eq!(listed["skipped"].as_array().unwrap().len(), 0, "{listed:#}");
    // A folder that holds no skill is a mistake the team hears about.
    assert_eq!(
        listed["warnings"],
        json!([
            "`include: example/skills` in .nexus/skills.yaml holds no tracked SKILL.md; check the folder's path (relative to the repository root)"
        ])
    );
    let r = get(server.addr, "/api/v1/rules/skills/code-review");
    assert_eq!(r.status, 200, "{:#}", r.body);
    assert_eq!(
        r.body["path"],
        "examples/skills/sample_skills/code-review/SKILL.md"
    );
}
