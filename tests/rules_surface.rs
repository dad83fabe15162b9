//! nexus-rules end to end: the agent's loop of seed 003 on a real git repository whose rule files
//! come in several formats (AGENTS.md sections, a Cursor rule with unquoted globs strict YAML
//! rejects, a `.nexus/rules` rule with a forbidden pattern) and a skill. One nexus-lite serves the
//! Nexus API in-process, as a remote Nexus would: `nexus-mcp --surface nexus-rules serve` (driven
//! by the Python MCP SDK, tests/clients/rules_loop.py), `nexus-mcp gate` (real ruff and bandit)
//! and `nexus-mcp rules` all reach it through NEXUS_API_URL.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod support;

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Duration;
use support::spawn::{HttpServer, bin, free_port, tool_path};

const PYTHON_WHAT: &str = "Python with the `mcp` package (.venv/bin/python or $NEXUS_MCP_PYTHON)";
const REPO: &str = "acme/shop";

fn write(root: &Path, rel: &str, text: &str) {
    let path = root.join(rel);
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, text).unwrap();
}

/// The shop repository at its base commit on `main`.
fn shop(dir: &Path) -> PathBuf {
    let repo = dir.join("shop");
    write(
        &repo,
        "AGENTS.md",
        "# Shop guide\n\n## Testing\nRun pytest before committing.\n\n## Style\nType hints on public functions.\n",
    );
    // Unquoted globs: strict YAML rejects `**/*.py, …` (an alias), real Cursor rules have them.
    write(
        &repo,
        ".cursor/rules/python.mdc",
        "---\ndescription: Python conventions\nglobs: **/*.py, src/**/*.{py,pyi}\nalwaysApply: false\n---\nPrefer pathlib over os.path.\n",
    );
    write(
        &repo,
        ".nexus/rules/no-print.md",
        "---\nname: no-print\nseverity: error\nforbid: 'print\\('\n---\n# No print\nUse logging, never print() in library code.\n",
    );
    write(
        &repo,
        ".agents/skills/release/SKILL.md",
        "---\nname: release\ndescription: Cut a release of the shop package.\n---\n# Release\n1. Bump the version.\n2. Tag and publish.\n",
    );
    write(
        &repo,
        "shop/app.py",
        "import subprocess\n\n\ndef run(cmd):\n    return subprocess.run([cmd], check=True)\n",
    );
    support::git(&repo, &["init", "-q", "-b", "main"]);
    support::git(&repo, &["add", "-A"]);
    support::git(&repo, &["commit", "-q", "-m", "base"]);
    repo
}

async fn nexus(repo: &Path, data: &Path) -> support::Lite {
    support::embedded_nexus(REPO, repo, data).await
}

fn script() -> PathBuf {
    support::root().join("tests/clients/rules_loop.py")
}

/// Runs `cmd` to its end on a blocking thread (the in-process Nexus keeps serving meanwhile).
async fn run_script(mut cmd: Command, what: &'static str) {
    tokio::task::spawn_blocking(move || {
        support::run_client_script(&mut cmd, Duration::from_secs(420), what)
    })
    .await
    .unwrap();
}

/// What both client tests need: the Python SDK, the analysers, the shop and its Nexus.
struct World {
    py: PathBuf,
    tmp: tempfile::TempDir,
    repo: PathBuf,
    lite: support::Lite,
}

/// The world of `test`, or None (skipped) where the clients or analysers are not installed.
async fn world(test: &str) -> Option<World> {
    let py = support::require(support::python_with_mcp(), PYTHON_WHAT, test)?;
    if !support::analysers_on_path() {
        return None;
    }
    let tmp = tempfile::tempdir().unwrap();
    let repo = shop(tmp.path());
    let lite = nexus(&repo, &tmp.path().join("data")).await;
    Some(World {
        py,
        tmp,
        repo,
        lite,
    })
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_agent_loop_from_playbook_to_a_passing_gate_over_stdio() {
    let Some(World {
        py,
        tmp: _tmp,
        repo,
        lite,
    }) = world("the_agent_loop_from_playbook_to_a_passing_gate_over_stdio").await
    else {
        return;
    };
    let mut cmd = Command::new(py);
    cmd.arg(script())
        .args(["stdio", "--binary"])
        .arg(bin())
        .arg("--repo")
        .arg(&repo)
        .env("PATH", tool_path())
        .env("NEXUS_API_URL", &lite.url)
        .env("NEXUS_API_TOKEN", &lite.token);
    run_script(
        cmd,
        "the nexus-rules loop over stdio (tests/clients/rules_loop.py)",
    )
    .await;
    lite.running.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn keys_bound_to_repositories_see_only_their_records_over_http() {
    let Some(World {
        py,
        tmp,
        repo,
        lite,
    }) = world("keys_bound_to_repositories_see_only_their_records_over_http").await
    else {
        return;
    };
    // A blocking change, gated: the record a shop key sees and another repository's key does not.
    write(
        &repo,
        "shop/app.py",
        "import subprocess\n\n\ndef run(cmd):\n    return subprocess.run(cmd, shell=True)\n",
    );
    support::git(&repo, &["commit", "-q", "-am", "shell"]);
    let out = Command::new(bin())
        .args(["gate", "--base", "HEAD~1", "--head", "HEAD", "--pr", "3"])
        .arg("--repo")
        .arg(&repo)
        .args(["--repository", REPO])
        .env("PATH", tool_path())
        .env("NEXUS_API_URL", &lite.url)
        .env("NEXUS_API_TOKEN", &lite.token)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1), "{out:?}");

    let hash = |key: &str| -> String {
        use sha2::Digest;
        sha2::Sha256::digest(key.as_bytes())
            .iter()
            .map(|b| format!("{b:02x}"))
            .collect()
    };
    let tokens = tmp.path().join("tokens");
    std::fs::write(
        &tokens,
        format!(
            "sha256:{} rules:read repos={REPO}\nsha256:{} rules:read repos=acme/other\n",
            hash("shop-key"),
            hash("other-key")
        ),
    )
    .unwrap();
    let port = free_port();
    let data = tempfile::tempdir().unwrap();
    let mut serve = Command::new(bin());
    serve
        .args(["--surface", "nexus-rules", "serve", "--transport", "http"])
        .arg("--listen")
        .arg(format!("127.0.0.1:{port}"))
        .arg("--tokens")
        .arg(&tokens)
        .env("NEXUS_API_URL", &lite.url)
        .env("NEXUS_API_TOKEN", &lite.token)
        .env_remove("NEXUS_MCP_API_KEY")
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped());
    let server = HttpServer::launch(&mut serve, port, None, data);

    let mut cmd = Command::new(py);
    cmd.arg(script())
        .args(["http", "--url"])
        .arg(server.url("/mcp"))
        .env("NEXUS_MCP_TEST_KEYS", "shop-key,other-key");
    run_script(
        cmd,
        "nexus-rules keys bound to repositories (rules_loop.py http)",
    )
    .await;
    drop(server);
    lite.running.shutdown().await;
}

#[test]
fn a_key_bound_to_repositories_is_refused_where_the_surface_cannot_restrict() {
    let tmp = tempfile::tempdir().unwrap();
    let tokens = tmp.path().join("tokens");
    std::fs::write(
        &tokens,
        format!("sha256:{} kg:read repos={REPO}\n", "0".repeat(64)),
    )
    .unwrap();
    let out = Command::new(bin())
        .args(["--surface", "nexus-code-kg", "serve", "--transport", "http"])
        .args(["--listen", "127.0.0.1:0", "--tokens"])
        .arg(&tokens)
        .env("NEXUS_API_URL", "http://127.0.0.1:9")
        .env("NEXUS_API_TOKEN", "unused-token")
        .env_remove("NEXUS_MCP_API_KEY")
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success(), "{stderr}");
    assert!(
        stderr.contains("cannot restrict answers by repository")
            && stderr.contains("would see everything"),
        "{stderr}"
    );
}

/// Red team (issue 24, round 2): the hardened `get_rule` answers an option-shaped or malformed
/// analyser code (`ruff:--all`, `bandit:-r`, `bandit:B602;id`) with `"rule": null`, which its
/// published output schema does not allow (`rule` is a `Rule` object): the Python MCP SDK raises
/// "Invalid structured content returned by tool get_rule: None is not of type 'object'", so an
/// SDK agent never sees the reason.
#[test]
fn get_rule_refusals_match_the_published_output_schema() {
    let tmp = tempfile::tempdir().unwrap();
    let repo = shop(tmp.path());
    let spec = nexus_mcp::surface("nexus-rules")
        .unwrap()
        .tool("get_rule")
        .unwrap();
    let schema: serde_json::Value = serde_json::from_str(spec.output_schema).unwrap();
    let validator = jsonschema::draft202012::new(&schema).unwrap();
    for rule in ["ruff:--all", "bandit:-r", "bandit:B602;id"] {
        let out = Command::new(bin())
            .current_dir(&repo)
            .args(["--surface", "nexus-rules", "call", "get_rule"])
            .arg(serde_json::json!({ "ruleId": rule }).to_string())
            .arg("--data-dir")
            .arg(tmp.path().join("data"))
            .env("PATH", tool_path())
            .env_remove("NEXUS_API_URL")
            .output()
            .unwrap();
        let answer: serde_json::Value = serde_json::from_slice(&out.stdout)
            .unwrap_or_else(|e| panic!("{rule}: {e}: {}", String::from_utf8_lossy(&out.stdout)));
        let problems: Vec<String> = validator
            .iter_errors(&answer)
            .map(|e| format!("{e} at {}", e.instance_path()))
            .collect();
        assert!(problems.is_empty(), "{rule}: {problems:?}\n{answer}");
    }
}

/// Issue 26 on a real project's rules (tests/corpora/fastmcp-rules): the playbook of a docs page
/// starts with the nested Cursor rule written for docs/, and what the budget cuts is reached
/// with nextCursor, through the real binary and the Python SDK.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_playbook_of_a_docs_page_keeps_its_rule_and_pages_the_rest() {
    let test = "the_playbook_of_a_docs_page_keeps_its_rule_and_pages_the_rest";
    let Some(py) = support::require(support::python_with_mcp(), PYTHON_WHAT, test) else {
        return;
    };
    let tmp = tempfile::tempdir().unwrap();
    let repo = support::corpora::corpus(tmp.path(), "fastmcp-rules");
    let lite = support::embedded_nexus("acme/fastmcp", &repo, &tmp.path().join("data")).await;
    let mut cmd = Command::new(py);
    cmd.arg(script())
        .args(["playbook", "--binary"])
        .arg(bin())
        .args(["--path", "docs/servers/providers/proxy.mdx"])
        .args(["--first", "docs/.cursor/rules/mintlify.mdc"])
        .env("PATH", tool_path())
        .env("NEXUS_API_URL", &lite.url)
        .env("NEXUS_API_TOKEN", &lite.token);
    run_script(
        cmd,
        "get_playbook paged (tests/clients/rules_loop.py playbook)",
    )
    .await;
    lite.running.shutdown().await;
}
