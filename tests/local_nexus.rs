//! One local Nexus per data directory (issue 25), black box: the real `nexus-mcp` binary with
//! XDG_DATA_HOME set to a temporary directory (the default data directory, no `--data-dir`),
//! real git repositories, real ruff and bandit, the Python MCP SDK. Every server, `gate`,
//! `rules …` and `status` shares the one nexus-lite daemon of the data directory; a `kill -9`
//! of that daemon, mid-gate, mid-regeneration or idle, loses no acknowledged record and every
//! client carries on without user action; another user and another machine are refused.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod support;

use serde_json::{Value, json};
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};
use support::fixtures::{REPO_NAME, SAFE, SHELL, git, put};
use support::local::{
    CALL, DAEMON_JSON, LOCK, LOG, LocalHome, McpStdio, PySdk, RuffShim, SOCKET, START_LOCK, kill9,
    text, wait_exit,
};

const PYTHON_WHAT: &str = "Python with the `mcp` package (.venv/bin/python or $NEXUS_MCP_PYTHON)";

fn commit(repo: &Path, rel: &str, body: &str, message: &str) -> String {
    put(repo, rel, body);
    git(repo, &["add", "-A"]);
    git(repo, &["commit", "-q", "-m", message]);
    git(repo, &["rev-parse", "HEAD"])
}

/// Repository A: a playbook section and a Python file without a shell, on `main`.
fn shop(dir: &Path) -> PathBuf {
    let repo = dir.join("shop");
    std::fs::create_dir_all(&repo).unwrap();
    git(&repo, &["init", "-q", "-b", "main"]);
    put(
        &repo,
        "AGENTS.md",
        "# Shop guide\n\n## Testing\nRun pytest before committing.\n",
    );
    commit(&repo, "shop/app.py", SAFE, "base");
    repo.canonicalize().unwrap()
}

/// `acme/shop=PATH`, for `serve --repo`.
fn repo_arg(repo: &Path) -> String {
    format!("{REPO_NAME}={}", repo.display())
}

fn commit_all(repo: &Path, message: &str) {
    git(repo, &["add", "-A"]);
    git(repo, &["commit", "-q", "-m", message]);
}

/// Workspace B: the real Backlog.md folder of tests/corpora, unpacked and committed.
fn backlog(dir: &Path) -> PathBuf {
    support::corpora::corpus(dir, "ariadne-backlog")
        .canonicalize()
        .unwrap()
}

/// `nexus-mcp gate` on HEAD~1..HEAD of `repo` as PR `pr`, with `home`'s environment.
fn gate_command(home: &LocalHome, repo: &Path, pr: u32) -> Command {
    let mut cmd = home.nexus_mcp(&["gate", "--base", "HEAD~1", "--head", "HEAD", "--pr"]);
    cmd.arg(pr.to_string())
        .arg("--repo")
        .arg(repo)
        .args(["--repository", REPO_NAME]);
    cmd
}

fn gate(home: &LocalHome, repo: &Path, pr: u32) -> Output {
    support::run_bounded(
        &mut gate_command(home, repo, pr),
        CALL,
        &format!("nexus-mcp gate (PR {pr})"),
    )
}

/// `nexus-mcp rules ARGS --repo A --repository acme/shop`.
fn rules(home: &LocalHome, repo: &Path, args: &[&str]) -> Output {
    let mut cmd = home.nexus_mcp(&["rules"]);
    cmd.args(args)
        .arg("--repo")
        .arg(repo)
        .args(["--repository", REPO_NAME]);
    support::run_bounded(&mut cmd, CALL, &format!("nexus-mcp rules {args:?}"))
}

/// Polls `status --json` until `holds`; the status that held.
fn wait_status(home: &LocalHome, what: &str, holds: impl Fn(&Value) -> bool) -> Value {
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        let st = home.status();
        if holds(&st) {
            return st;
        }
        assert!(
            Instant::now() < deadline,
            "{what}: status --json never showed it within 60 s; last:\n{st:#}"
        );
        std::thread::sleep(Duration::from_millis(100));
    }
}

/// Pids of the status's clients.
fn client_pids(status: &Value) -> Vec<u64> {
    status["clients"]
        .as_array()
        .map(|cs| cs.iter().filter_map(|c| c["pid"].as_u64()).collect())
        .unwrap_or_default()
}

fn has_clients(status: &Value, pids: &[u32]) -> bool {
    let listed = client_pids(status);
    pids.iter().all(|p| listed.contains(&u64::from(*p)))
}

/// The graph_id of a kg_latest_graph answer.
fn graph_id(answer: &Value) -> String {
    answer["graph"]["graph_id"]
        .as_str()
        .unwrap_or_else(|| panic!("no graph in {answer:#}"))
        .to_owned()
}

fn latest_graph() -> Value {
    json!({"repository": REPO_NAME, "branch": "main"})
}

/// `nexus-mcp call kg_latest_graph` on `repo_arg` (`NAME=PATH`), as a one-off command.
fn call_latest_graph(home: &LocalHome, repo_arg: &str, what: &str) -> Output {
    home.run(
        &[
            "call",
            "kg_latest_graph",
            &latest_graph().to_string(),
            "--repo",
            repo_arg,
        ],
        what,
    )
}

/// Commits a change to `repo`, arms `shim` and submits a regeneration through `client`; returns
/// once the daemon's ruff is blocked in it, with the submit's call id.
fn submit_blocked_regeneration(client: &mut McpStdio, repo: &Path, shim: &RuffShim) -> u64 {
    commit(
        repo,
        "shop/crypto.py",
        "import hashlib\n\n\ndef h(d):\n    return hashlib.sha256(d).hexdigest()\n",
        "sha256",
    );
    shim.arm();
    let plan = client.ok("kg_regenerate_dry_run", latest_graph());
    let plan_id = plan["plan"]["plan_id"].as_str().unwrap().to_owned();
    let submit = client.send_call(
        "kg_regenerate_submit",
        json!({"plan_id": plan_id, "confirmed_by_sr": true}),
    );
    shim.wait_started();
    submit
}

/// The issue's first Done-when: four servers started at once on the default data directory
/// (code-kg on A, doc-kg on B, nexus-rules on A through the Python SDK, a second code-kg on A)
/// all answer; then, all of them still running, the gate blocks a change of A, the rules
/// server's get_gate_result returns that record, a proposal made through the rules server is
/// accepted with `rules review accept` (and enforced by the next gate), `rules stats` counts
/// both, and `status --json` lists the four servers, A and B.
#[test]
fn every_surface_and_command_share_one_local_nexus() {
    const TEST: &str = "every_surface_and_command_share_one_local_nexus";
    let Some(py) = support::require(support::python_with_mcp(), PYTHON_WHAT, TEST) else {
        return;
    };
    if !support::analysers_on_path() {
        return;
    }
    let home = LocalHome::new();
    let a = shop(&home.scratch());
    let b = backlog(&home.scratch());
    let a_arg = repo_arg(&a);
    let b_arg = format!("backlog={}", b.display());

    // All at once: nobody waits for anybody before starting.
    let mut code1 = McpStdio::spawn(home.nexus_mcp(&["serve", "--repo", &a_arg]), "code-kg on A");
    let mut docs = McpStdio::spawn(
        home.nexus_mcp(&["--surface", "nexus-doc-kg", "serve", "--workspace", &b_arg]),
        "doc-kg on B",
    );
    let mut agent = PySdk::spawn(
        &home,
        &py,
        &[
            "--surface",
            "nexus-rules",
            "serve",
            "--repo",
            &a_arg,
            "--scopes",
            "rules:read,rules:propose",
        ],
        "nexus-rules on A (Python SDK)",
    );
    let mut code2 = McpStdio::spawn(
        home.nexus_mcp(&["serve", "--repo", &a_arg]),
        "second code-kg on A",
    );
    code1.initialized();
    docs.initialized();
    code2.initialized();
    agent.ready();
    let c1 = code1.send_call("kg_latest_graph", latest_graph());
    let c2 = code2.send_call("kg_latest_graph", latest_graph());
    let d = docs.send_call("list_tasks", json!({}));
    agent.send_call("get_playbook", json!({}));
    let g1 = code1.answer(c1, CALL).expect("code-kg on A answers");
    let g2 = code2
        .answer(c2, CALL)
        .expect("the second code-kg on A answers");
    let tasks = docs.answer(d, CALL).expect("doc-kg on B answers");
    let book = agent.answer(CALL).expect("nexus-rules on A answers");
    assert_eq!(
        graph_id(&g1),
        graph_id(&g2),
        "two windows on A share one graph"
    );
    assert!(tasks["total"].as_u64().unwrap_or(0) > 0, "{tasks:#}");
    assert_eq!(book["repository"], REPO_NAME, "{book:#}");
    let graphs: i64 = nexus_lite::core::db::open(&home.data_dir())
        .unwrap()
        .query_row(
            "SELECT count(*) FROM graphs WHERE repository = ?1",
            [REPO_NAME],
            |r| r.get(0),
        )
        .unwrap();
    assert_eq!(graphs, 1, "two servers on A indexed it {graphs} times");
    // A one-off `call` joins too, and reads the same graph.
    let out = call_latest_graph(&home, &a_arg, "nexus-mcp call kg_latest_graph");
    assert!(out.status.success(), "{}", text(&out));
    let called: Value = serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("call printed no JSON ({e}): {}", text(&out)));
    assert_eq!(graph_id(&called), graph_id(&g1), "{called:#}");

    // The gate blocks a change while every server runs.
    let blocked_head = commit(&a, "shop/app.py", SHELL, "run through a shell");
    let out = gate(&home, &a, 7);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out));
    assert!(
        String::from_utf8_lossy(&out.stdout).contains("bandit:B602"),
        "{}",
        text(&out)
    );

    // The agent reads that verdict over the Python SDK.
    let record = agent.capability("get_gate_result", json!({"pr": 7}));
    assert_eq!(record["found"], true, "{record:#}");
    assert_eq!(record["blocking"], true, "{record:#}");
    assert_eq!(record["sha"], blocked_head.as_str(), "{record:#}");

    // A proposal made through the rules server, accepted by a person while it runs.
    let queued = agent.capability(
        "propose_rule",
        json!({"title": "No eval", "body": "Never pass request data to `eval`.",
               "severity": "error", "enforcedBy": ["bandit:B307"], "rationale": "seen twice"}),
    );
    let id = queued["proposal"]["proposalId"]
        .as_str()
        .unwrap_or_else(|| panic!("no proposalId in {queued:#}"))
        .to_owned();
    let out = rules(&home, &a, &["review", "accept", &id, "--by", "lead"]);
    let accepted = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(out.status.success(), "{}", text(&out));
    assert!(accepted.contains(&format!("{id} accepted")), "{accepted}");
    assert!(a.join(".nexus/rules/no-eval.md").is_file(), "{accepted}");

    // Committed, the accepted rule is enforced; the stats count it and the first block.
    commit_all(&a, "the accepted rule");
    commit(
        &a,
        "shop/calc.py",
        "def calc(expr):\n    return eval(expr)\n",
        "eval",
    );
    let out = gate(&home, &a, 8);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out));
    assert!(
        String::from_utf8_lossy(&out.stdout).contains("no-eval"),
        "{}",
        text(&out)
    );
    let out = rules(&home, &a, &["stats", "--json"]);
    assert!(out.status.success(), "{}", text(&out));
    let stats: Value = serde_json::from_slice(&out.stdout).unwrap();
    let broken = |rule: &str| {
        stats["rules"]
            .as_array()
            .and_then(|rs| rs.iter().find(|r| r["ruleId"] == rule))
            .and_then(|r| r["timesBroken"].as_i64())
            .unwrap_or(0)
    };
    assert!(broken("bandit:B602") >= 1, "{stats:#}");
    assert!(broken("no-eval") >= 1, "{stats:#}");
    let out = rules(&home, &a, &["stats"]);
    assert!(
        String::from_utf8_lossy(&out.stdout).contains("no-eval"),
        "{}",
        text(&out)
    );

    // status: the four servers, A and B.
    let ours = [code1.pid(), code2.pid(), docs.pid()];
    let st = wait_status(&home, "the four servers as clients", |st| {
        let serving: Vec<&Value> = st["clients"]
            .as_array()
            .map(|cs| cs.iter().filter(|c| c["kind"] == "serve").collect())
            .unwrap_or_default();
        serving.len() == 4 && has_clients(st, &ours)
    });
    let mut surfaces: Vec<&str> = st["clients"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|c| c["kind"] == "serve")
        .filter_map(|c| c["surface"].as_str())
        .collect();
    surfaces.sort_unstable();
    assert_eq!(
        surfaces,
        [
            "nexus-code-kg",
            "nexus-code-kg",
            "nexus-doc-kg",
            "nexus-rules"
        ],
        "{st:#}"
    );
    let listed = |key: &str, dir: &Path| {
        st[key]
            .as_array()
            .is_some_and(|xs| xs.iter().any(|x| x["root"] == dir.display().to_string()))
    };
    assert!(listed("repos", &a), "A is not listed: {st:#}");
    assert!(listed("workspaces", &b), "B is not listed: {st:#}");
    assert_eq!(
        st["data_dir"],
        home.data_dir().display().to_string(),
        "{st:#}"
    );

    // Everyone still answers.
    code1.ok("kg_latest_graph", latest_graph());
    code2.ok("kg_latest_graph", latest_graph());
    docs.ok("list_tasks", json!({}));
    agent.ok("get_playbook", json!({}));
}

/// `kill -9` of the daemon while a gate's analyser runs: the gate re-joins a new daemon and
/// stores its record (exit 1), the servers answer their next calls, the database is sound and
/// the record acknowledged before the kill is still there.
#[test]
fn kill_9_of_the_daemon_mid_gate_loses_no_acknowledged_record() {
    if !support::analysers_on_path() {
        return;
    }
    let home = LocalHome::new();
    let a = shop(&home.scratch());
    let a_arg = repo_arg(&a);
    let shim = RuffShim::new(&home.scratch(), true);

    // A record acknowledged before the kill.
    commit(&a, "shop/app.py", SHELL, "run through a shell");
    let out = gate(&home, &a, 1);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out));

    let mut code = McpStdio::spawn(home.nexus_mcp(&["serve", "--repo", &a_arg]), "code-kg on A");
    let mut rules_server = McpStdio::spawn(
        home.nexus_mcp(&["--surface", "nexus-rules", "serve", "--repo", &a_arg]),
        "nexus-rules on A",
    );
    code.initialized();
    rules_server.initialized();
    code.ok("kg_latest_graph", latest_graph());
    let first = rules_server.ok(
        "use_capability",
        json!({"capability": "get_gate_result", "arguments": {"pr": 1}}),
    );
    assert_eq!(first["found"], true, "{first:#}");
    let before = home
        .daemon_pid()
        .expect("a daemon serves the data directory");

    // The gate of PR 2, its ruff blocked; the daemon killed meanwhile.
    let head = commit(
        &a,
        "shop/tasks.py",
        "import subprocess\n\n\ndef job(cmd):\n    return subprocess.call(cmd, shell=True)\n",
        "another shell",
    );
    let mut cmd = gate_command(&home, &a, 2);
    cmd.env("PATH", shim.path())
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let mut gate2 = cmd.spawn().unwrap();
    shim.wait_started();
    kill9(before);
    shim.release();
    let status = wait_exit(&mut gate2, CALL, "the gate of PR 2");
    let out = gate2.wait_with_output().unwrap();
    let shown = format!(
        "{status:?}\n{}\n{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(status.code(), Some(1), "{shown}");
    assert!(shown.contains("stored"), "{shown}");

    // Every server answers its next call, from a new daemon.
    code.ok("kg_latest_graph", latest_graph());
    for (pr, sha) in [(1, None), (2, Some(head.as_str()))] {
        let r = rules_server.ok(
            "use_capability",
            json!({"capability": "get_gate_result", "arguments": {"pr": pr}}),
        );
        assert_eq!(r["found"], true, "PR {pr}: {r:#}");
        if let Some(sha) = sha {
            assert_eq!(r["sha"], sha, "{r:#}");
        }
    }
    let after = home.daemon_pid().expect("a new daemon");
    assert_ne!(after, before, "the killed daemon still serves?");
    assert_eq!(home.integrity_check(), "ok");
    let prs: Vec<i64> = {
        let conn = nexus_lite::core::db::open(&home.data_dir()).unwrap();
        let mut q = conn
            .prepare("SELECT pr FROM gate_records WHERE repository = ?1 ORDER BY pr")
            .unwrap();
        q.query_map([REPO_NAME], |r| r.get(0))
            .unwrap()
            .map(Result::unwrap)
            .collect()
    };
    assert_eq!(prs, [1, 2], "gate records after the kill");
}

/// `kill -9` of the daemon while it indexes a regeneration (its ruff blocked): the servers'
/// next calls answer from a new daemon, the interrupted regeneration reads as failed
/// ("interrupted"), never as running, a new regeneration succeeds and the database is sound.
#[test]
fn kill_9_of_the_daemon_mid_regeneration() {
    if !support::analysers_on_path() {
        return;
    }
    let scratch = tempfile::tempdir().unwrap();
    let shim = RuffShim::new(scratch.path(), false);
    // Every process gets the shim: whichever starts the daemon passes its PATH on.
    let home = LocalHome::with_path(shim.path());
    let fixture = support::fixture_repo();
    let a = fixture.path.canonicalize().unwrap();
    let a_arg = repo_arg(&a);
    let mut admin = McpStdio::spawn(
        home.nexus_mcp(&[
            "serve",
            "--repo",
            &a_arg,
            "--scopes",
            "kg:read,kg:local,kg:regenerate",
        ]),
        "code-kg on A (kg:regenerate)",
    );
    let mut reader = McpStdio::spawn(
        home.nexus_mcp(&["serve", "--repo", &a_arg]),
        "second code-kg on A",
    );
    admin.initialized();
    reader.initialized();
    let first = graph_id(&admin.ok("kg_latest_graph", latest_graph()));
    reader.ok("kg_latest_graph", latest_graph());

    let submit = submit_blocked_regeneration(&mut admin, &a, &shim);
    let before = home
        .daemon_pid()
        .expect("a daemon serves the data directory");
    kill9(before);
    shim.release();

    let interrupted = admin
        .answer(submit, CALL)
        .unwrap_or_else(|e| panic!("kg_regenerate_submit: {e}"));
    let shown = format!("{interrupted:?}");
    let regeneration = interrupted["regeneration"].clone();
    // The way on is to plan again, not to read a comparison that does not exist.
    assert!(
        interrupted["next_step"].as_str().is_some_and(
            |s| s.contains("kg_regenerate_dry_run") && !s.contains("comparison.findings")
        ),
        "{shown}"
    );
    assert_eq!(regeneration["status"], "failed", "{shown}");
    assert!(
        regeneration["error"]
            .as_str()
            .is_some_and(|e| e.starts_with("interrupted")),
        "{shown}"
    );
    let id = regeneration["regeneration_id"].as_str().unwrap().to_owned();

    // The other window answers from a new daemon; nothing reads as running.
    assert_eq!(
        graph_id(&reader.ok("kg_latest_graph", latest_graph())),
        first,
        "the previous graph is still served"
    );
    assert_ne!(home.daemon_pid(), Some(before));
    let conn = nexus_lite::core::db::open(&home.data_dir()).unwrap();
    let running: i64 = conn
        .query_row(
            "SELECT count(*) FROM regenerations WHERE status = 'running'",
            [],
            |r| r.get(0),
        )
        .unwrap();
    assert_eq!(running, 0, "a regeneration still reads as running");
    let stored: (String, String) = conn
        .query_row(
            "SELECT status, error FROM regenerations WHERE regeneration_id = ?1",
            [&id],
            |r| Ok((r.get(0)?, r.get(1)?)),
        )
        .unwrap();
    assert_eq!(stored.0, "failed", "{stored:?}");

    // A new regeneration succeeds.
    let plan = admin.ok("kg_regenerate_dry_run", latest_graph());
    let plan_id = plan["plan"]["plan_id"].as_str().unwrap().to_owned();
    let done = admin.ok(
        "kg_regenerate_submit",
        json!({"plan_id": plan_id, "confirmed_by_sr": true}),
    );
    assert_eq!(done["regeneration"]["status"], "ready", "{done:#}");
    assert_ne!(
        graph_id(&admin.ok("kg_latest_graph", latest_graph())),
        first
    );
    assert_eq!(home.integrity_check(), "ok");
}

fn mode(path: &Path) -> u32 {
    use std::os::unix::fs::PermissionsExt;
    std::fs::metadata(path)
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
        .permissions()
        .mode()
        & 0o7777
}

/// Our effective uid: the owner of a file we just created.
fn my_uid(dir: &Path) -> u32 {
    use std::os::unix::fs::MetadataExt;
    let probe = dir.join(".uid-probe");
    std::fs::write(&probe, "").unwrap();
    let uid = std::fs::metadata(&probe).unwrap().uid();
    std::fs::remove_file(probe).unwrap();
    uid
}

/// A small Markdown workspace, committed (cheap to serve: no analyser runs on it).
fn notes(dir: &Path) -> PathBuf {
    let ws = dir.join("notes");
    put(&ws, "guide.md", "# Guide\n\nSee [setup](setup.md).\n");
    put(&ws, "setup.md", "# Setup\n\nRun it.\n");
    git(&ws, &["init", "-q", "-b", "main"]);
    commit_all(&ws, "notes");
    ws.canonicalize().unwrap()
}

/// Another user: the data directory, the socket and daemon.json are the owner's only (0700 /
/// 0600); run as uid 65534 (when the test runs as root), `status` and `serve` are refused with
/// a message naming the owner.
#[test]
fn another_user_is_refused_and_the_files_are_private() {
    let home = LocalHome::new();
    let ws = notes(&home.scratch());
    let ws_arg = format!("notes={}", ws.display());
    let mut docs = McpStdio::spawn(
        home.nexus_mcp(&["--surface", "nexus-doc-kg", "serve", "--workspace", &ws_arg]),
        "doc-kg on a workspace",
    );
    docs.initialized();
    docs.ok("search_nodes", json!({"query": "setup"}));
    let data = home.data_dir();
    assert_eq!(mode(&data), 0o700, "{}", data.display());
    for file in [SOCKET, DAEMON_JSON, LOCK, START_LOCK, LOG] {
        assert_eq!(mode(&data.join(file)), 0o600, "{file}");
    }

    let me = my_uid(&home.scratch());
    if me != 0 {
        eprintln!(
            "SKIPPED the other-uid half: the test runs as uid {me}, not root, so it cannot run a command as uid 65534"
        );
        return;
    }
    use std::os::unix::fs::PermissionsExt;
    use std::os::unix::process::CommandExt;
    // Let uid 65534 reach the data directory's entry (not inside it): the refusal must come
    // from nexus-mcp's own check, not from a failed path lookup.
    std::fs::set_permissions(home.scratch(), std::fs::Permissions::from_mode(0o755)).unwrap();
    // The build's binary may sit where uid 65534 cannot reach it (a checkout under /root): a
    // copy in the scratch directory can be run.
    let program = home.scratch().join("nexus-mcp");
    std::fs::copy(support::bin(), &program).unwrap();
    std::fs::set_permissions(&program, std::fs::Permissions::from_mode(0o755)).unwrap();
    let mut status = home.command(&program);
    status.arg("status");
    status.uid(65534).gid(65534).current_dir("/");
    let out = support::run_bounded(&mut status, CALL, "nexus-mcp status as uid 65534");
    let shown = text(&out);
    assert!(!out.status.success(), "{shown}");
    assert!(
        shown.contains("belongs to uid 0") && shown.contains("65534"),
        "{shown}"
    );

    let mut serve = home.command(&program);
    serve.args(["--surface", "nexus-doc-kg", "serve", "--workspace", &ws_arg]);
    serve.uid(65534).gid(65534).current_dir("/");
    let mut other = McpStdio::spawn(serve, "doc-kg as uid 65534");
    // Refused at start or at its first call: either way never served, and told why.
    let refusal = match other.first_call("search_nodes", json!({"query": "setup"})) {
        Ok(answer) => panic!("uid 65534 was served by uid 0's nexus-lite: {answer:#}"),
        Err(e) => e,
    };
    assert!(refusal.contains("belongs to uid 0"), "{refusal}");
    // The owner is still served.
    docs.ok("search_nodes", json!({"query": "setup"}));
}

/// Another machine: a data directory whose daemon.json names another host while its lock is
/// held (here by the test) cannot be served from this one; `serve` says why and what to do.
#[test]
fn a_data_directory_served_from_another_machine_is_refused() {
    use std::os::unix::fs::PermissionsExt;
    let home = LocalHome::new();
    let a = shop(&home.scratch());
    let data = home.data_dir();
    std::fs::create_dir_all(&data).unwrap();
    std::fs::set_permissions(&data, std::fs::Permissions::from_mode(0o700)).unwrap();
    let host = "build-7.example.org";
    let lock = std::fs::File::create(data.join(LOCK)).unwrap();
    std::fs::write(data.join(LOCK), "4242\n").unwrap();
    lock.try_lock()
        .expect("the test holds the data directory's lock");
    let daemon = json!({"pid": 4242, "host": host, "uid": my_uid(&home.scratch()),
        "version": "0.1.0", "started_at": "2026-12-03T00:00:00Z",
        "socket": data.join(SOCKET), "token": "not-a-token"});
    std::fs::write(data.join(DAEMON_JSON), daemon.to_string()).unwrap();
    for f in [LOCK, DAEMON_JSON] {
        std::fs::set_permissions(data.join(f), std::fs::Permissions::from_mode(0o600)).unwrap();
    }

    let mut serve = McpStdio::spawn(
        home.nexus_mcp(&["serve", "--repo", &repo_arg(&a)]),
        "nexus-mcp serve on another machine's data directory",
    );
    // Refused at start or at its first call: either way never served, and told why.
    let refusal = match serve.first_call("kg_latest_graph", latest_graph()) {
        Ok(answer) => panic!("served from a directory another host holds: {answer:#}"),
        Err(e) => e,
    };
    assert!(
        refusal.contains(host) && refusal.contains("pid 4242"),
        "{refusal}"
    );
    assert!(
        refusal.contains("cannot be shared between machines"),
        "{refusal}"
    );
    assert!(refusal.contains("--data-dir"), "says what to do: {refusal}");
    drop(lock);
}

/// Recovery without user action: two idle stdio servers whose daemon is killed re-register
/// with a new daemon by themselves, and answer their next call.
#[test]
fn idle_servers_recover_from_kill_9_of_the_daemon_by_themselves() {
    let home = LocalHome::new();
    let st = home.status();
    assert_eq!(st["running"], false, "{st:#}");
    assert_eq!(
        st["data_dir"],
        home.data_dir().display().to_string(),
        "{st:#}"
    );
    let out = home.run(&["status"], "nexus-mcp status");
    let said = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success() && said.contains("no nexus-lite serves"),
        "{}",
        text(&out)
    );

    let fixture = support::fixture_repo();
    let a_arg = repo_arg(&fixture.path.canonicalize().unwrap());
    let ws = notes(&home.scratch());
    let mut code = McpStdio::spawn(home.nexus_mcp(&["serve", "--repo", &a_arg]), "code-kg");
    let mut docs = McpStdio::spawn(
        home.nexus_mcp(&[
            "--surface",
            "nexus-doc-kg",
            "serve",
            "--workspace",
            &format!("notes={}", ws.display()),
        ]),
        "doc-kg",
    );
    code.initialized();
    docs.initialized();
    code.ok("kg_latest_graph", latest_graph());
    docs.ok("search_nodes", json!({"query": "setup"}));
    let ours = [code.pid(), docs.pid()];
    let st = wait_status(&home, "both servers registered", |st| {
        has_clients(st, &ours)
    });
    let before = st["pid"].as_u64().expect("the daemon's pid in status");
    let out = home.run(&["status"], "nexus-mcp status");
    let said = String::from_utf8_lossy(&out.stdout);
    for shown in [
        format!("pid {before}"),
        home.data_dir().display().to_string(),
        ws.display().to_string(),
    ] {
        assert!(
            said.contains(&shown),
            "status does not show {shown}: {said}"
        );
    }

    kill9(before);
    let killed = Instant::now();
    let st = wait_status(
        &home,
        "both servers re-registered with a new daemon",
        |st| st["pid"].as_u64().is_some_and(|p| p != before) && has_clients(st, &ours),
    );
    let rejoined = killed.elapsed();
    code.ok("kg_latest_graph", latest_graph());
    docs.ok("search_nodes", json!({"query": "setup"}));
    let answered = killed.elapsed();
    eprintln!(
        "kill -9 → both re-registered with pid {}: {rejoined:?}; → both answered: {answered:?} (the issue asks for < 1 s)",
        st["pid"]
    );
    assert!(
        rejoined < Duration::from_secs(10),
        "re-registration took {rejoined:?}"
    );
    assert_eq!(home.integrity_check(), "ok");
}

/// Each client sees only what it registered: two code-kg servers on two repositories share the
/// daemon, and neither reads the other's graph; a third claiming the first one's name for
/// another checkout is refused, saying how to name it.
#[test]
fn each_client_sees_only_the_repositories_it_registered() {
    let home = LocalHome::new();
    let a = shop(&home.scratch());
    let tools_dir = home.scratch().join("tools");
    std::fs::create_dir_all(&tools_dir).unwrap();
    let c = shop(&tools_dir);
    let mut on_a = McpStdio::spawn(
        home.nexus_mcp(&["serve", "--repo", &repo_arg(&a)]),
        "code-kg on A",
    );
    let mut on_c = McpStdio::spawn(
        home.nexus_mcp(&["serve", "--repo", &format!("acme/tools={}", c.display())]),
        "code-kg on C",
    );
    on_a.initialized();
    on_c.initialized();
    on_a.ok("kg_latest_graph", latest_graph());
    on_c.ok(
        "kg_latest_graph",
        json!({"repository": "acme/tools", "branch": "main"}),
    );
    let theirs = on_a
        .call(
            "kg_latest_graph",
            json!({"repository": "acme/tools", "branch": "main"}),
        )
        .expect_err("A's server read C's graph");
    assert!(theirs.contains("acme/tools"), "{theirs}");
    let mine = on_c
        .call("kg_latest_graph", latest_graph())
        .expect_err("C's server read A's graph");
    assert!(mine.contains(REPO_NAME), "{mine}");
    let st = home.status();
    let names: Vec<&str> = st["repos"]
        .as_array()
        .map(|rs| rs.iter().filter_map(|r| r["name"].as_str()).collect())
        .unwrap_or_default();
    assert!(
        names.contains(&REPO_NAME) && names.contains(&"acme/tools"),
        "{st:#}"
    );

    // acme/shop is A; C under that name is refused, with the way out.
    let mut clash = McpStdio::spawn(
        home.nexus_mcp(&["serve", "--repo", &format!("{REPO_NAME}={}", c.display())]),
        "code-kg on C named acme/shop",
    );
    let refusal = match clash.first_call("kg_latest_graph", latest_graph()) {
        Ok(answer) => panic!("one name served from two checkouts: {answer:#}"),
        Err(e) => e,
    };
    assert!(
        refusal.contains(&format!(
            "repository name {REPO_NAME} is already served from {}",
            a.display()
        )),
        "{refusal}"
    );
    assert!(refusal.contains("--repo"), "says what to do: {refusal}");
    on_a.ok("kg_latest_graph", latest_graph());
}

/// The parent pid of `pid` (from /proc).
fn parent_of(pid: u64) -> Option<u64> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    stat.rsplit_once(')')?
        .1
        .split_whitespace()
        .nth(1)?
        .parse()
        .ok()
}

/// The window that started the daemon is killed (`kill -9`, an editor crashing) while another
/// window's regeneration runs in the daemon: the daemon, detached, keeps serving, the
/// regeneration finishes, and the dead window is no client any more.
#[test]
fn killing_the_window_that_started_the_daemon_interrupts_nobody() {
    if !support::analysers_on_path() {
        return;
    }
    let scratch = tempfile::tempdir().unwrap();
    let shim = RuffShim::new(scratch.path(), false);
    let home = LocalHome::with_path(shim.path());
    let fixture = support::fixture_repo();
    let a = fixture.path.canonicalize().unwrap();
    let a_arg = repo_arg(&a);
    let mut starter = McpStdio::spawn(home.nexus_mcp(&["serve", "--repo", &a_arg]), "window 1");
    starter.initialized();
    let first = graph_id(&starter.ok("kg_latest_graph", latest_graph()));
    let daemon = home
        .daemon_pid()
        .expect("a daemon serves the data directory");
    assert_eq!(
        parent_of(daemon),
        Some(u64::from(starter.pid())),
        "window 1 started the daemon"
    );
    let mut other = McpStdio::spawn(
        home.nexus_mcp(&[
            "serve",
            "--repo",
            &a_arg,
            "--scopes",
            "kg:read,kg:local,kg:regenerate",
        ]),
        "window 2 (kg:regenerate)",
    );
    other.initialized();
    let submit = submit_blocked_regeneration(&mut other, &a, &shim);
    let gone = u64::from(starter.pid());
    kill9(gone);
    shim.release();

    let done = other
        .answer(submit, CALL)
        .unwrap_or_else(|e| panic!("the regeneration failed when window 1 died: {e}"));
    assert_eq!(done["regeneration"]["status"], "ready", "{done:#}");
    assert_ne!(
        graph_id(&other.ok("kg_latest_graph", latest_graph())),
        first
    );
    assert_eq!(home.daemon_pid(), Some(daemon), "the daemon was restarted");
    wait_status(&home, "window 1 unregistered, window 2 still there", |st| {
        let pids = client_pids(st);
        !pids.contains(&gone) && pids.contains(&u64::from(other.pid()))
    });
}

/// The `.mcp.json` of the README's "Connecting agents", as written, on a real project (the
/// Backlog.md corpus, a git repository holding `backlog/`): `/path/to/nexus-mcp` is this
/// binary and `/path/to/repo` the project, nothing else changed. Each server is started by the
/// Python SDK the way an agent starts it, and answers from the project: the doc-kg workspace is
/// the folder that holds `backlog/`, so its live tasks list with no warning.
#[test]
fn the_readme_mcp_json_serves_a_real_project() {
    const TEST: &str = "the_readme_mcp_json_serves_a_real_project";
    let Some(py) = support::require(support::python_with_mcp(), PYTHON_WHAT, TEST) else {
        return;
    };
    let readme = std::fs::read_to_string(support::root().join("README.md")).unwrap();
    let section = readme
        .split_once("## Connecting agents")
        .expect("the README has a Connecting agents section")
        .1;
    let block = section
        .split_once("```json\n")
        .and_then(|(_, rest)| rest.split_once("```"))
        .expect("its first block is the .mcp.json")
        .0;
    let config: Value = serde_json::from_str(block).expect("the README's .mcp.json parses");
    let servers = config["mcpServers"].as_object().expect("mcpServers");
    assert_eq!(servers.len(), 3, "{config:#}");

    let home = LocalHome::new();
    let project = backlog(&home.scratch());
    let live = markdown_files(&project, "backlog/tasks");
    let mut agents: Vec<(String, PySdk)> = servers
        .iter()
        .map(|(name, server)| {
            assert_eq!(server["command"], "/path/to/nexus-mcp", "{name}");
            let args: Vec<String> = server["args"]
                .as_array()
                .expect("args")
                .iter()
                .map(|a| {
                    a.as_str()
                        .unwrap()
                        .replace("/path/to/repo", &project.display().to_string())
                })
                .collect();
            (name.clone(), PySdk::spawn(&home, &py, &args, name))
        })
        .collect();
    for (_, agent) in &mut agents {
        agent.ready();
    }
    let repo = format!("local/{}", project.file_name().unwrap().to_string_lossy());
    for (name, agent) in &mut agents {
        match name.as_str() {
            "nexus-doc-kg" => {
                let (mut listed, mut args) = (Vec::new(), json!({"limit": 200}));
                loop {
                    let page = agent.ok("list_tasks", args.clone());
                    assert!(page.get("warnings").is_none(), "{page}");
                    listed.extend(
                        page["items"]
                            .as_array()
                            .unwrap()
                            .iter()
                            .map(|i| i["path"].as_str().unwrap().to_owned()),
                    );
                    match page["nextCursor"].as_str() {
                        Some(next) => args["cursor"] = json!(next),
                        None => break,
                    }
                }
                let mut tasks: Vec<String> = listed
                    .iter()
                    .filter(|p| p.starts_with("backlog/tasks/"))
                    .cloned()
                    .collect();
                tasks.sort();
                let missing: Vec<&String> = live.iter().filter(|p| !tasks.contains(p)).collect();
                let extra: Vec<&String> = tasks.iter().filter(|p| !live.contains(p)).collect();
                assert!(
                    missing.is_empty() && extra.is_empty() && tasks.len() == live.len(),
                    "backlog/tasks listed once each: missing {missing:?}, extra {extra:?}"
                );
                assert!(
                    !listed.iter().any(|p| ["archive", "completed", "drafts"]
                        .iter()
                        .any(|d| p.starts_with(&format!("backlog/{d}/")))),
                    "{listed:?}"
                );
            }
            "nexus-rules" => {
                agent.ok("get_playbook", json!({}));
            }
            "nexus-code-kg" => {
                let graph = agent.ok("kg_latest_graph", json!({"repository": repo}));
                assert_eq!(graph["graph"]["repository"], repo.as_str(), "{graph}");
                assert_eq!(graph["freshness"]["verdict"], "fresh", "{graph}");
            }
            other => panic!("the README's .mcp.json names an unknown server {other}"),
        }
    }
    let status = home.status();
    assert_eq!(
        status["clients"].as_array().map(Vec::len),
        Some(3),
        "the three servers share one local Nexus: {status:#}"
    );
}

/// The Markdown files under `root/dir` but READMEs (an epic folder's README is not a task), as
/// sorted paths relative to `root`.
fn markdown_files(root: &Path, dir: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut todo = vec![root.join(dir)];
    while let Some(d) = todo.pop() {
        for e in std::fs::read_dir(&d).unwrap() {
            let path = e.unwrap().path();
            if path.is_dir() {
                todo.push(path);
            } else if path.extension().is_some_and(|x| x == "md")
                && !path
                    .file_name()
                    .is_some_and(|n| n.eq_ignore_ascii_case("README.md"))
            {
                out.push(path.strip_prefix(root).unwrap().display().to_string());
            }
        }
    }
    out.sort();
    out
}

/// Sets the release a running daemon declares in its daemon file (mode and everything else
/// kept): the daemon of another nexus-mcp release, as an upgrade leaves it behind.
fn declare_release(home: &LocalHome, version: &str) {
    let path = home.data_dir().join(DAEMON_JSON);
    let mut file: Value = serde_json::from_slice(&std::fs::read(&path).unwrap()).unwrap();
    file["version"] = json!(version);
    std::fs::write(&path, serde_json::to_vec(&file).unwrap()).unwrap();
}

/// An upgrade takes effect while agents stay connected: the first process of the new release
/// stops the daemon of an older one (SIGTERM) and starts its own; the server connected to the
/// old daemon joins the new one by itself and answers. A daemon of a newer release is joined as
/// it is, so two releases never take turns stopping each other.
#[test]
fn a_daemon_of_an_older_release_is_replaced_and_a_newer_one_joined() {
    let home = LocalHome::new();
    let a = shop(&home.scratch());
    let a_arg = repo_arg(&a);
    let mut agent = McpStdio::spawn(home.nexus_mcp(&["serve", "--repo", &a_arg]), "code-kg");
    agent.initialized();
    let graph = agent.ok("kg_latest_graph", latest_graph());
    let old = home
        .daemon_pid()
        .expect("a daemon serves the data directory");
    let ours = home.daemon().unwrap()["version"]
        .as_str()
        .unwrap()
        .to_owned();

    declare_release(&home, "0.0.1");
    let call = |what: &str| {
        let out = call_latest_graph(&home, &a_arg, what);
        assert!(out.status.success(), "{what}: {}", text(&out));
        out
    };
    let out = call("a call of the new release");
    assert!(
        !support::local::alive(old),
        "the older daemon {old} still runs"
    );
    let new = home.daemon_pid().expect("a daemon of this release serves");
    assert_ne!(new, old);
    assert_eq!(home.daemon().unwrap()["version"], ours.as_str());
    let called: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(
        graph_id(&called),
        graph_id(&graph),
        "the graph outlives the daemon"
    );
    let log = std::fs::read_to_string(home.data_dir().join(LOG)).unwrap();
    assert!(
        log.contains("SIGTERM"),
        "the older daemon says why it stopped: {log}"
    );
    // The agent connected to the older daemon carries on with the new one.
    agent.ok("kg_latest_graph", latest_graph());
    wait_status(&home, "the agent registered with the new daemon", |st| {
        st["pid"].as_u64() == Some(new) && has_clients(st, &[agent.pid()])
    });

    declare_release(&home, "999.0.0");
    call("a call of an older release than the daemon's");
    assert_eq!(
        home.daemon_pid(),
        Some(new),
        "a newer daemon is joined, not stopped"
    );
}
