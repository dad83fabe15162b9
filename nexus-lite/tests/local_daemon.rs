#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
//! The shared local daemon through the real `nexus-lite daemon` binary and a real HTTP client
//! over its Unix socket: start-up files and modes, the second daemon's refusal, clients' views,
//! shared indexing, the registration stream's lifetime, kill -9 recovery, idle and
//! removed-directory exits, another user's data directory.

mod common;

use common::fixture_repo;
use reqwest::StatusCode;
use serde_json::{Value, json};
use std::io::{BufRead, BufReader};
use std::os::unix::fs::{MetadataExt, PermissionsExt};
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, ExitStatus, Stdio};
use std::time::{Duration, Instant};

const BIN: &str = env!("CARGO_BIN_EXE_nexus-lite");
const PAUSE_ENV: &str = "NEXUS_LITE_TEST_PAUSE_BEFORE_COMMIT";
const WAIT: Duration = Duration::from_secs(30);

/// Starts `nexus-lite daemon` on `dir` the way a client does (own process group, stdout piped
/// for the ready line, stderr appended to the log) and returns it with its ready line.
fn spawn(dir: &Path, idle_secs: u64, pause: Option<&Path>) -> (Child, Value) {
    std::fs::create_dir_all(dir).unwrap();
    let log = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(dir.join("nexus-lite.log"))
        .unwrap();
    let mut cmd = Command::new(BIN);
    cmd.args(["daemon", "--data-dir"])
        .arg(dir)
        .args(["--idle-timeout", &idle_secs.to_string()])
        .process_group(0)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(log)
        .env_remove(PAUSE_ENV);
    if let Some(p) = pause {
        cmd.env(PAUSE_ENV, p);
    }
    let mut child = cmd.spawn().expect("start nexus-lite daemon");
    let stdout = child.stdout.take().unwrap();
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let mut line = String::new();
        let _ = BufReader::new(stdout).read_line(&mut line);
        let _ = tx.send(line);
    });
    let line = rx.recv_timeout(WAIT).expect("the daemon printed a line");
    let ready: Value = serde_json::from_str(&line)
        .unwrap_or_else(|e| panic!("ready line `{line}` is not JSON: {e}"));
    (child, ready)
}

/// A running daemon, killed when dropped.
struct Daemon {
    child: Child,
    dir: PathBuf,
    http: reqwest::Client,
}

impl Daemon {
    fn start(dir: &Path, idle_secs: u64, pause: Option<&Path>) -> Daemon {
        let (child, ready) = spawn(dir, idle_secs, pause);
        assert_eq!(ready, json!({"ready": true, "pid": child.id()}));
        let http = reqwest::Client::builder()
            .unix_socket(dir.join("nexus-lite.sock"))
            .build()
            .unwrap();
        Daemon {
            child,
            dir: dir.to_path_buf(),
            http,
        }
    }

    fn file(&self) -> Value {
        serde_json::from_slice(&std::fs::read(self.dir.join("nexus-lite.daemon.json")).unwrap())
            .unwrap()
    }

    fn admin(&self) -> String {
        self.file()["token"].as_str().unwrap().to_string()
    }

    async fn get(&self, token: &str, path: &str) -> (StatusCode, Value) {
        let r = self
            .http
            .get(format!("http://localhost{path}"))
            .bearer_auth(token)
            .send()
            .await
            .unwrap();
        let status = r.status();
        (status, r.json().await.unwrap_or(Value::Null))
    }

    async fn post(&self, token: &str, path: &str, body: Value) -> (StatusCode, Value) {
        let r = self
            .http
            .post(format!("http://localhost{path}"))
            .bearer_auth(token)
            .json(&body)
            .send()
            .await
            .unwrap();
        let status = r.status();
        (status, r.json().await.unwrap_or(Value::Null))
    }

    async fn status(&self) -> Value {
        let (s, v) = self.get(&self.admin(), "/api/v1/local/status").await;
        assert_eq!(s, StatusCode::OK, "{v}");
        v
    }

    /// Registers a client: its first line, and the open stream that keeps it registered.
    async fn register(
        &self,
        body: Value,
    ) -> Result<(Value, reqwest::Response), (StatusCode, Value)> {
        let mut resp = self
            .http
            .post("http://localhost/api/v1/local/clients")
            .bearer_auth(self.admin())
            .json(&body)
            .send()
            .await
            .unwrap();
        let status = resp.status();
        if status != StatusCode::OK {
            return Err((status, resp.json().await.unwrap_or(Value::Null)));
        }
        assert_eq!(
            resp.headers()["content-type"],
            "application/x-ndjson",
            "the registration is a stream"
        );
        let mut buf = Vec::new();
        while !buf.contains(&b'\n') {
            let chunk = tokio::time::timeout(WAIT, resp.chunk())
                .await
                .expect("the registration line came")
                .unwrap()
                .expect("the stream stayed open");
            buf.extend_from_slice(&chunk);
        }
        let end = buf.iter().position(|b| *b == b'\n').unwrap();
        Ok((serde_json::from_slice(&buf[..end]).unwrap(), resp))
    }
}

impl Drop for Daemon {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn wait_exit(child: &mut Child, within: Duration) -> ExitStatus {
    let deadline = Instant::now() + within;
    loop {
        if let Some(status) = child.try_wait().unwrap() {
            return status;
        }
        assert!(Instant::now() < deadline, "the daemon did not exit in time");
        std::thread::sleep(Duration::from_millis(20));
    }
}

fn mode(p: &Path) -> u32 {
    std::fs::symlink_metadata(p).unwrap().permissions().mode() & 0o777
}

fn code_client(repo: &Path, name: Option<&str>) -> Value {
    json!({
        "pid": std::process::id(), "kind": "serve", "surface": "nexus-code-kg",
        "routes": [["GET", "/api/v1/repositories"], ["GET", "/api/v1/summary"],
                   ["POST", "/api/v1/regenerations/plan"], ["POST", "/api/v1/regenerations"],
                   ["GET", "/api/v1/regenerations/{regeneration_id}"], ["GET", "/api/v1/unknown"]],
        "repos": [{"name": name, "path": repo}], "workspaces": [],
    })
}

/// A few real Backlog.md tasks (from the ariadne corpus) in `dir`.
fn backlog_workspace(dir: &Path) -> PathBuf {
    let tar = common::corpora::tarball("ariadne-backlog");
    let status = Command::new("tar")
        .arg("xzf")
        .arg(&tar)
        .arg("-C")
        .arg(dir)
        .args(["--wildcards", "ariadne/backlog/tasks/task-10*"])
        .status()
        .unwrap();
    assert!(status.success(), "unpacking {}", tar.display());
    dir.join("ariadne")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn start_up_writes_owner_only_files_and_a_second_daemon_exits_3() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("data");
    std::fs::create_dir(&dir).unwrap();
    std::fs::set_permissions(&dir, std::fs::Permissions::from_mode(0o755)).unwrap();
    let d = Daemon::start(&dir, 300, None);
    let dir = dir.canonicalize().unwrap();
    assert_eq!(mode(&dir), 0o700, "the data directory is tightened to 0700");
    for f in [
        "nexus-lite.sock",
        "nexus-lite.daemon.json",
        "nexus-lite.log",
        "nexus-lite.lock",
    ] {
        assert_eq!(mode(&dir.join(f)), 0o600, "{f}");
    }
    use std::os::unix::fs::FileTypeExt;
    let sock = dir.join("nexus-lite.sock");
    assert!(
        std::fs::symlink_metadata(&sock)
            .unwrap()
            .file_type()
            .is_socket()
    );
    let file = d.file();
    assert_eq!(file["pid"], d.child.id());
    assert_eq!(file["uid"], std::fs::metadata(&dir).unwrap().uid());
    assert_eq!(file["socket"], sock.display().to_string());
    assert_eq!(file["version"], env!("CARGO_PKG_VERSION"));
    assert!(!file["host"].as_str().unwrap().is_empty());
    assert!(file["token"].as_str().unwrap().len() >= 32);
    assert!(file["started_at"].as_str().unwrap().ends_with('Z'));

    let (s, health) = d.get("", "/healthz").await;
    assert_eq!((s, &health["status"]), (StatusCode::OK, &json!("ok")));
    let (s, _) = d.get("wrong", "/api/v1/local/status").await;
    assert_eq!(s, StatusCode::UNAUTHORIZED);
    let status = d.status().await;
    assert_eq!(status["pid"], d.child.id());
    assert_eq!(status["idle_timeout_secs"], 300);
    assert_eq!(status["clients"], json!([]));

    let (mut second, line) = spawn(&dir, 300, None);
    assert_eq!(line["ready"], false, "{line}");
    assert_eq!(line["in_use_by"]["pid"], d.child.id(), "{line}");
    assert_eq!(line["in_use_by"]["host"], file["host"], "{line}");
    assert!(line["error"].as_str().unwrap().contains("in use"), "{line}");
    assert_eq!(wait_exit(&mut second, WAIT).code(), Some(3));
    assert_eq!(d.file(), file, "the first daemon's file is untouched");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn each_client_reaches_only_its_domains_and_what_it_registered_until_its_stream_closes() {
    let tmp = tempfile::tempdir().unwrap();
    let repo = tmp.path().join("repo");
    std::fs::create_dir(&repo).unwrap();
    fixture_repo(&repo);
    let docs = backlog_workspace(tmp.path());
    let d = Daemon::start(&tmp.path().join("data"), 300, None);

    let (a, a_stream) = d.register(code_client(&repo, None)).await.unwrap();
    let (b, b_stream) = d
        .register(json!({
            "pid": 4242, "kind": "serve", "surface": "nexus-doc-kg",
            "routes": [["GET", "/api/v1/docs/tasks"], ["GET", "/api/v1/docs/workspaces"]],
            "repos": [], "workspaces": [{"name": "backlog", "path": docs}],
        }))
        .await
        .unwrap();
    assert_eq!(
        a["repos"],
        json!([{"name": "acme/fixture", "root": repo.canonicalize().unwrap()}])
    );
    assert_eq!(b["workspaces"][0]["name"], "backlog");
    assert_eq!(a["daemon"]["pid"], d.child.id());
    let (ta, tb) = (a["token"].as_str().unwrap(), b["token"].as_str().unwrap());

    let (s, repos) = d.get(ta, "/api/v1/repositories").await;
    assert_eq!(s, StatusCode::OK, "{repos}");
    assert_eq!(repos["items"][0]["name"], "acme/fixture");
    assert_eq!(repos["items"].as_array().unwrap().len(), 1);
    let (s, e) = d.get(ta, "/api/v1/docs/workspaces").await;
    assert_eq!(
        s,
        StatusCode::NOT_FOUND,
        "a code client has no docs route: {e}"
    );
    assert!(
        e["error"]["message"]
            .as_str()
            .unwrap()
            .contains("no endpoint"),
        "{e}"
    );
    let (s, _) = d.get(ta, "/api/v1/rules/playbook").await;
    assert_eq!(s, StatusCode::NOT_FOUND, "nor rules routes");

    let (s, e) = d.get(tb, "/api/v1/repositories").await;
    assert_eq!(
        s,
        StatusCode::NOT_FOUND,
        "a doc client has no code route: {e}"
    );
    let (s, ws) = d.get(tb, "/api/v1/docs/workspaces").await;
    assert_eq!(s, StatusCode::OK, "{ws}");
    assert_eq!(ws.to_string().matches("\"backlog\"").count(), 1, "{ws}");
    let (s, tasks) = d.get(tb, "/api/v1/docs/tasks?workspace=backlog").await;
    assert_eq!(s, StatusCode::OK, "{tasks}");
    assert!(!tasks["items"].as_array().unwrap().is_empty(), "{tasks}");
    let (s, _) = d.get(&d.admin(), "/api/v1/repositories").await;
    assert_eq!(
        s,
        StatusCode::UNAUTHORIZED,
        "the admin token is no client token"
    );

    let status = d.status().await;
    let clients = status["clients"].as_array().unwrap();
    assert_eq!(clients.len(), 2, "{status}");
    let by_id = |id: &Value| {
        clients
            .iter()
            .find(|c| &c["client_id"] == id)
            .unwrap()
            .clone()
    };
    let (ca, cb) = (by_id(&a["client_id"]), by_id(&b["client_id"]));
    assert_eq!(ca["domains"], json!(["code"]));
    assert_eq!(ca["repos"], json!(["acme/fixture"]));
    assert_eq!(ca["surface"], "nexus-code-kg");
    assert_eq!(cb["domains"], json!(["docs"]));
    assert_eq!(cb["workspaces"], json!(["backlog"]));
    assert_eq!(cb["pid"], 4242);
    assert_eq!(status["repos"][0]["clients"], json!([a["client_id"]]));
    assert_eq!(status["workspaces"][0]["clients"], json!([b["client_id"]]));

    // Closing A's registration stream unregisters A (bounded wait), B stays.
    drop(a_stream);
    let deadline = Instant::now() + WAIT;
    loop {
        let (s, _) = d.get(ta, "/api/v1/repositories").await;
        if s == StatusCode::UNAUTHORIZED {
            break;
        }
        assert!(
            Instant::now() < deadline,
            "A's token still works after its stream closed"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let status = d.status().await;
    assert_eq!(status["clients"].as_array().unwrap().len(), 1, "{status}");
    assert_eq!(status["clients"][0]["client_id"], b["client_id"]);
    assert_eq!(status["repos"], json!([]));
    let (s, _) = d.get(tb, "/api/v1/docs/workspaces").await;
    assert_eq!(s, StatusCode::OK);
    drop(b_stream);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_clients_on_one_repository_share_one_index_run_and_a_name_from_another_root_is_409() {
    let tmp = tempfile::tempdir().unwrap();
    let repo = tmp.path().join("repo");
    let other = tmp.path().join("other");
    for r in [&repo, &other] {
        std::fs::create_dir(r).unwrap();
        fixture_repo(r);
    }
    let d = Daemon::start(&tmp.path().join("data"), 300, None);
    let (a, _a_stream) = d.register(code_client(&repo, None)).await.unwrap();
    let (b, _b_stream) = d
        .register(code_client(&repo, Some("acme/fixture")))
        .await
        .unwrap();
    let (ta, tb) = (a["token"].as_str().unwrap(), b["token"].as_str().unwrap());
    let path = "/api/v1/summary?repository=acme/fixture";
    let ((sa, ga), (sb, gb)) = tokio::join!(d.get(ta, path), d.get(tb, path));
    assert_eq!((sa, sb), (StatusCode::OK, StatusCode::OK), "{ga} {gb}");
    assert_eq!(ga["graph"]["graph_id"], gb["graph"]["graph_id"]);
    let db = rusqlite::Connection::open(d.dir.join("nexus-lite.sqlite3")).unwrap();
    let graphs: i64 = db
        .query_row("SELECT COUNT(*) FROM graphs", [], |r| r.get(0))
        .unwrap();
    assert_eq!(graphs, 1, "one indexing run for two clients");
    let status = d.status().await;
    assert_eq!(status["repos"].as_array().unwrap().len(), 1, "{status}");
    assert_eq!(status["repos"][0]["clients"].as_array().unwrap().len(), 2);

    // A client on another repository sees neither that graph nor that repository.
    let (c, _c_stream) = d
        .register(code_client(&other, Some("acme/other")))
        .await
        .unwrap();
    let tc = c["token"].as_str().unwrap();
    let graph = ga["graph"]["graph_id"].as_str().unwrap();
    let (s, e) = d
        .get(tc, &format!("/api/v1/summary?graph_id={graph}"))
        .await;
    assert_eq!(s, StatusCode::NOT_FOUND, "another view's graph: {e}");
    let (s, e) = d
        .get(ta, &format!("/api/v1/summary?graph_id={graph}"))
        .await;
    assert_eq!(s, StatusCode::OK, "{e}");
    let (_, repos) = d.get(tc, "/api/v1/repositories").await;
    assert_eq!(repos["items"].as_array().unwrap().len(), 1, "{repos}");
    assert_eq!(repos["items"][0]["name"], "acme/other");

    let (s, e) = d.register(code_client(&other, None)).await.unwrap_err();
    assert_eq!(s, StatusCode::CONFLICT, "{e}");
    let msg = e["error"]["message"].as_str().unwrap();
    let root = repo.canonicalize().unwrap();
    assert!(
        msg.contains(&format!(
            "repository name acme/fixture is already served from {} by another client",
            root.display()
        )) && msg.contains("--repo OTHER="),
        "{msg}"
    );
    let (s, e) = d
        .register(code_client(&tmp.path().join("data"), None))
        .await
        .unwrap_err();
    assert_eq!(s, StatusCode::BAD_REQUEST, "not a git work tree: {e}");
    let (s, e) = d
        .register(json!({"pid": 1, "kind": "serve", "routes": [], "repos": [],
            "workspaces": [{"name": "w", "path": tmp.path().join("missing")}]}))
        .await
        .unwrap_err();
    assert_eq!(
        s,
        StatusCode::BAD_REQUEST,
        "a missing workspace directory: {e}"
    );
    assert!(
        e["error"]["message"].as_str().unwrap().contains("missing"),
        "{e}"
    );
    let (s, e) = d
        .register(json!({"pid": 1, "kind": "editor", "repos": []}))
        .await
        .unwrap_err();
    assert_eq!(s, StatusCode::BAD_REQUEST, "an unknown kind: {e}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn kill_9_mid_regeneration_a_new_daemon_starts_the_database_is_intact_and_the_run_reads_interrupted()
 {
    let tmp = tempfile::tempdir().unwrap();
    let repo = tmp.path().join("repo");
    std::fs::create_dir(&repo).unwrap();
    fixture_repo(&repo);
    let dir = tmp.path().join("data");
    let pause = tmp.path().join("paused-before-commit");
    let mut d = Daemon::start(&dir, 300, Some(&pause));
    let (a, _stream) = d.register(code_client(&repo, None)).await.unwrap();
    let t = a["token"].as_str().unwrap().to_string();
    let (s, plan) = d
        .post(
            &t,
            "/api/v1/regenerations/plan",
            json!({"repository": "acme/fixture"}),
        )
        .await;
    assert_eq!(s, StatusCode::OK, "{plan}");
    let (s, run) = d
        .post(
            &t,
            "/api/v1/regenerations",
            json!({"plan_id": plan["plan_id"]}),
        )
        .await;
    assert_eq!(s, StatusCode::ACCEPTED, "{run}");
    let id = run["regeneration_id"].as_str().unwrap().to_string();
    let deadline = Instant::now() + WAIT;
    while !pause.exists() {
        assert!(Instant::now() < deadline, "the writer never reached COMMIT");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    d.child.kill().unwrap(); // SIGKILL
    d.child.wait().unwrap();
    assert!(
        dir.join("nexus-lite.sock").exists(),
        "kill -9 leaves the socket"
    );
    assert!(dir.join("nexus-lite.daemon.json").exists());
    let old_pid = d.child.id();
    drop(d);

    let d = Daemon::start(&dir, 300, None);
    assert_ne!(d.file()["pid"], old_pid);
    let db = rusqlite::Connection::open(dir.join("nexus-lite.sqlite3")).unwrap();
    let check: String = db
        .query_row("PRAGMA integrity_check", [], |r| r.get(0))
        .unwrap();
    assert_eq!(check, "ok");
    let (a, _stream) = d.register(code_client(&repo, None)).await.unwrap();
    let (s, regen) = d
        .get(
            a["token"].as_str().unwrap(),
            &format!("/api/v1/regenerations/{id}"),
        )
        .await;
    assert_eq!(s, StatusCode::OK, "{regen}");
    assert_eq!(regen["status"], "failed", "{regen}");
    assert!(
        regen["error"]
            .as_str()
            .unwrap()
            .starts_with("interrupted: "),
        "{regen}"
    );
}

#[test]
fn idle_sigterm_and_a_removed_data_directory_each_stop_the_daemon_cleanly() {
    let tmp = tempfile::tempdir().unwrap();
    let idle = tmp.path().join("idle");
    let mut d = Daemon::start(&idle, 1, None);
    let status = wait_exit(&mut d.child, WAIT);
    assert!(status.success(), "{status:?}");
    assert!(!idle.join("nexus-lite.sock").exists());
    assert!(!idle.join("nexus-lite.daemon.json").exists());

    let term = tmp.path().join("term");
    let mut d = Daemon::start(&term, 300, None);
    let killed = Command::new("kill")
        .args(["-TERM", &d.child.id().to_string()])
        .status()
        .unwrap();
    assert!(killed.success());
    let status = wait_exit(&mut d.child, WAIT);
    assert!(status.success(), "SIGTERM is a clean exit: {status:?}");
    assert!(!term.join("nexus-lite.sock").exists());
    assert!(!term.join("nexus-lite.daemon.json").exists());

    let gone = tmp.path().join("gone");
    let mut d = Daemon::start(&gone, 300, None);
    std::fs::remove_dir_all(&gone).unwrap();
    let status = wait_exit(&mut d.child, Duration::from_secs(10));
    assert!(status.success(), "{status:?}");
}

#[test]
fn a_data_directory_of_another_uid_is_refused() {
    if nexus_lite::local::files::my_uid() != 0 {
        eprintln!("skipped: chown to another uid needs root");
        return;
    }
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("theirs");
    std::fs::create_dir(&dir).unwrap();
    std::os::unix::fs::chown(&dir, Some(65534), Some(65534)).unwrap();
    let (mut child, line) = spawn(&dir, 300, None);
    assert_eq!(line["ready"], false, "{line}");
    assert_eq!(line["in_use_by"], Value::Null);
    let msg = line["error"].as_str().unwrap();
    assert!(
        msg.contains(&format!(
            "the data directory {} belongs to uid 65534, not to you (uid 0)",
            dir.display()
        )) && msg.contains("pass --data-dir with a directory of yours"),
        "{msg}"
    );
    assert_eq!(wait_exit(&mut child, WAIT).code(), Some(1));
    assert!(!dir.join("nexus-lite.sock").exists());
}

#[test]
fn a_data_directory_served_from_another_host_is_refused_with_exit_3() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("shared");
    std::fs::create_dir(&dir).unwrap();
    // Another machine's daemon: it holds the lock (here, this test) and daemon.json names its host.
    let lock = std::fs::OpenOptions::new()
        .read(true)
        .write(true)
        .create(true)
        .truncate(true)
        .open(dir.join("nexus-lite.lock"))
        .unwrap();
    lock.lock().unwrap();
    std::fs::write(dir.join("nexus-lite.lock"), "777\n").unwrap();
    let file = json!({"pid": 777, "host": "elsewhere.example", "uid": nexus_lite::local::files::my_uid(),
        "version": "0.1.0", "started_at": "2026-01-01T00:00:00Z",
        "socket": dir.join("nexus-lite.sock"), "token": "t"});
    std::fs::write(dir.join("nexus-lite.daemon.json"), file.to_string()).unwrap();
    let (mut child, line) = spawn(&dir, 300, None);
    assert_eq!(line["ready"], false, "{line}");
    assert_eq!(
        line["in_use_by"],
        json!({"pid": 777, "host": "elsewhere.example"})
    );
    let msg = line["error"].as_str().unwrap();
    assert!(
        msg.contains("is served by nexus-lite pid 777 on host elsewhere.example")
            && msg.contains("give this machine its own --data-dir"),
        "{msg}"
    );
    assert_eq!(wait_exit(&mut child, WAIT).code(), Some(3));
    drop(lock);
}

#[test]
fn a_daemon_starting_while_the_previous_one_stops_waits_for_its_lock() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("handover");
    std::fs::create_dir(&dir).unwrap();
    // The stopping daemon: it still holds the lock, its socket is already gone.
    let lock = std::fs::OpenOptions::new()
        .read(true)
        .write(true)
        .create(true)
        .truncate(false)
        .open(dir.join("nexus-lite.lock"))
        .unwrap();
    lock.lock().unwrap();
    let log = dir.join("nexus-lite.log");
    let starting = {
        let dir = dir.clone();
        std::thread::spawn(move || spawn(&dir, 300, None))
    };
    let deadline = Instant::now() + WAIT;
    while !std::fs::read_to_string(&log)
        .unwrap_or_default()
        .contains("waiting for the stopping daemon")
    {
        assert!(Instant::now() < deadline, "the new daemon never waited");
        std::thread::sleep(Duration::from_millis(20));
    }
    drop(lock);
    let (mut child, line) = starting.join().unwrap();
    assert_eq!(line, json!({"ready": true, "pid": child.id()}));
    assert!(dir.join("nexus-lite.sock").exists());
    let _ = child.kill();
    let _ = child.wait();
}
