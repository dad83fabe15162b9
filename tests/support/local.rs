//! The one local nexus-lite of a data directory (issue 25) as the tests meet it: a default data
//! directory under a temporary XDG_DATA_HOME, the daemon's files, `nexus-mcp status --json`,
//! MCP clients whose every wait is bounded (nexus-mcp over raw stdio, and the Python SDK driven
//! line by line through tests/clients/line_client.py), and a `ruff` shim that blocks once.
#![allow(dead_code)]

use super::fixtures::root;
use super::spawn::{bin, run_bounded, tee_lines, tool_path};
use serde_json::{Value, json};
use std::ffi::OsString;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, Output, Stdio};
use std::sync::{Arc, Mutex, mpsc};
use std::time::{Duration, Instant};
use tempfile::TempDir;

/// The daemon's files in its data directory (the design's table).
pub const DAEMON_JSON: &str = "nexus-lite.daemon.json";
pub const SOCKET: &str = "nexus-lite.sock";
pub const LOCK: &str = "nexus-lite.lock";
pub const START_LOCK: &str = "nexus-lite.start.lock";
pub const LOG: &str = "nexus-lite.log";

/// Bounds generous enough for two busy cores, real analysers and a daemon being (re)spawned.
pub const START: Duration = Duration::from_secs(120);
pub const CALL: Duration = Duration::from_secs(300);

/// Polls `probe` until it gives a value; panics with `what` after `within`. For events with no
/// pipe to wait on (a file appearing, a status changing); never a fixed sleep.
pub fn wait_for<T>(within: Duration, what: &str, mut probe: impl FnMut() -> Option<T>) -> T {
    let deadline = Instant::now() + within;
    loop {
        if let Some(v) = probe() {
            return v;
        }
        assert!(Instant::now() < deadline, "{what}: not within {within:?}");
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// `kill -9 PID` (the daemon is no child of the test: std's Child cannot reach it).
pub fn kill9(pid: u64) {
    let ok = Command::new("kill")
        .args(["-9", &pid.to_string()])
        .status()
        .is_ok_and(|s| s.success());
    assert!(ok, "kill -9 {pid} failed");
}

/// Whether `pid` is alive (a zombie, killed but not yet reaped by its parent, is not).
pub fn alive(pid: u64) -> bool {
    std::fs::read_to_string(format!("/proc/{pid}/stat"))
        .ok()
        .and_then(|s| {
            s.rsplit_once(')')
                .map(|(_, rest)| !rest.trim_start().starts_with('Z'))
        })
        .unwrap_or(false)
}

/// A temporary home whose XDG_DATA_HOME holds the default data directory; every command made
/// here runs without NEXUS_API_URL, so it joins (or starts) the local nexus-lite.
pub struct LocalHome {
    dir: TempDir,
    pub xdg: PathBuf,
    path: OsString,
}

impl LocalHome {
    pub fn new() -> LocalHome {
        LocalHome::with_path(tool_path())
    }

    /// With PATH = `path` for every command (the daemon inherits its starter's environment).
    pub fn with_path(path: OsString) -> LocalHome {
        let dir = tempfile::tempdir().expect("tempdir");
        let xdg = dir
            .path()
            .canonicalize()
            .expect("canonical tempdir")
            .join("xdg");
        std::fs::create_dir_all(&xdg).expect("mkdir xdg");
        LocalHome { dir, xdg, path }
    }

    /// A scratch directory next to the data (repositories, shims).
    pub fn scratch(&self) -> PathBuf {
        self.xdg.parent().expect("xdg has a parent").to_path_buf()
    }

    /// `$XDG_DATA_HOME/nexus-lite`, the default data directory.
    pub fn data_dir(&self) -> PathBuf {
        self.xdg.join("nexus-lite")
    }

    /// `program` with this home's environment.
    pub fn command(&self, program: impl AsRef<std::ffi::OsStr>) -> Command {
        let mut cmd = Command::new(program);
        cmd.env("XDG_DATA_HOME", &self.xdg)
            .env("PATH", &self.path)
            // A daemon a failed test leaves behind goes away on its own.
            .env("NEXUS_LITE_IDLE_TIMEOUT", "120")
            .env_remove("NEXUS_API_URL")
            .env_remove("NEXUS_API_TOKEN")
            .env_remove("DOCUGRAPH_WORKSPACE");
        cmd
    }

    /// `nexus-mcp ARGS` with this home's environment.
    pub fn nexus_mcp<S: AsRef<std::ffi::OsStr>>(&self, args: &[S]) -> Command {
        let mut cmd = self.command(bin());
        cmd.args(args);
        cmd
    }

    /// Runs `nexus-mcp ARGS` to its end (bounded).
    pub fn run<S: AsRef<std::ffi::OsStr>>(&self, args: &[S], what: &str) -> Output {
        run_bounded(&mut self.nexus_mcp(args), CALL, what)
    }

    /// `nexus-mcp status --json`, parsed.
    pub fn status(&self) -> Value {
        let out = self.run(&["status", "--json"], "nexus-mcp status --json");
        assert!(out.status.success(), "status --json: {}", text(&out));
        serde_json::from_slice(&out.stdout)
            .unwrap_or_else(|e| panic!("status --json is not JSON ({e}): {}", text(&out)))
    }

    /// The daemon's `nexus-lite.daemon.json`, when there is one.
    pub fn daemon(&self) -> Option<Value> {
        let raw = std::fs::read(self.data_dir().join(DAEMON_JSON)).ok()?;
        serde_json::from_slice(&raw).ok()
    }

    /// The pid of the daemon serving the data directory now (its daemon.json, and alive).
    pub fn daemon_pid(&self) -> Option<u64> {
        self.daemon()
            .and_then(|d| d["pid"].as_u64())
            .filter(|p| alive(*p))
    }

    /// `PRAGMA integrity_check` of the data directory's database, through nexus-lite's opener.
    pub fn integrity_check(&self) -> String {
        integrity_check(&self.data_dir())
    }
}

impl Drop for LocalHome {
    fn drop(&mut self) {
        // The daemon also leaves when its directory disappears; this makes it immediate.
        if let Some(pid) = self.daemon_pid() {
            let ours = std::fs::read(format!("/proc/{pid}/cmdline"))
                .is_ok_and(|c| c.windows(6).any(|w| w == b"daemon"));
            if ours {
                let _ = Command::new("kill").arg(pid.to_string()).status();
            }
        }
    }
}

/// `PRAGMA integrity_check` of the database in `data_dir` ("ok" when sound).
pub fn integrity_check(data_dir: &Path) -> String {
    let conn = nexus_lite::core::db::open(data_dir).expect("open the data directory's database");
    conn.query_row("PRAGMA integrity_check", [], |r| r.get::<_, String>(0))
        .expect("PRAGMA integrity_check")
}

/// stdout and stderr of a finished command, for assertion messages.
pub fn text(out: &Output) -> String {
    format!(
        "exit {:?}\n--- stdout:\n{}\n--- stderr:\n{}",
        out.status.code(),
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    )
}

/// A child speaking one JSON document per line on stdin/stdout, stderr kept for messages;
/// killed on drop.
struct LineChild {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: mpsc::Receiver<String>,
    stdout: Arc<Mutex<String>>,
    stderr: Arc<Mutex<String>>,
    /// Disconnects when stderr reaches its end.
    stderr_done: mpsc::Receiver<String>,
    what: String,
}

impl LineChild {
    fn spawn(mut cmd: Command, what: &str) -> LineChild {
        let mut child = cmd
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap_or_else(|e| panic!("cannot start {what}: {e}"));
        let stdout = Arc::new(Mutex::new(String::new()));
        let stderr = Arc::new(Mutex::new(String::new()));
        let lines = tee_lines(child.stdout.take().expect("piped stdout"), stdout.clone());
        let stderr_done = tee_lines(child.stderr.take().expect("piped stderr"), stderr.clone());
        LineChild {
            stdin: child.stdin.take(),
            child,
            lines,
            stdout,
            stderr,
            stderr_done,
            what: what.to_owned(),
        }
    }

    fn send(&mut self, msg: &Value) {
        if let Err(e) = self.try_send(msg) {
            panic!("{}: cannot write to it: {e}\n{}", self.what, self.log());
        }
    }

    /// One write per message, as real clients do; Err when the child has gone.
    fn try_send(&mut self, msg: &Value) -> std::io::Result<()> {
        let stdin = self.stdin.as_mut().expect("stdin still open");
        stdin.write_all(format!("{msg}\n").as_bytes())?;
        stdin.flush()
    }

    /// The next JSON line for which `pick` gives a value, within `within`.
    fn until<T>(&mut self, within: Duration, pick: impl FnMut(&Value) -> Option<T>) -> T {
        self.try_until(within, pick)
            .unwrap_or_else(|log| panic!("{log}"))
    }

    /// Like [`LineChild::until`], but Err(what it printed) when it exits first.
    fn try_until<T>(
        &mut self,
        within: Duration,
        mut pick: impl FnMut(&Value) -> Option<T>,
    ) -> Result<T, String> {
        let deadline = Instant::now() + within;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left) {
                Ok(line) => {
                    if let Some(found) = serde_json::from_str(&line).ok().and_then(|v| pick(&v)) {
                        return Ok(found);
                    }
                }
                Err(mpsc::RecvTimeoutError::Timeout) => {
                    panic!("{}: no answer within {within:?}\n{}", self.what, self.log())
                }
                Err(mpsc::RecvTimeoutError::Disconnected) => {
                    let status = wait_exit(&mut self.child, START, &self.what);
                    // stderr is read on its own thread: let it reach the end too.
                    while let Ok(_line) = self.stderr_done.recv_timeout(START) {}
                    return Err(format!(
                        "{} closed its stdout ({status}) before answering\n{}",
                        self.what,
                        self.log()
                    ));
                }
            }
        }
    }

    fn log(&self) -> String {
        let get = |m: &Mutex<String>| m.lock().map(|s| s.clone()).unwrap_or_default();
        format!(
            "--- stdout:\n{}--- stderr:\n{}",
            get(&self.stdout),
            get(&self.stderr)
        )
    }
}

impl Drop for LineChild {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// What a tool call gave: Ok(structuredContent, else the parsed text) or Err(the error text).
fn tool_result(answer: &Value) -> Result<Value, String> {
    if let Some(e) = answer.get("error") {
        return Err(e.to_string());
    }
    let r = &answer["result"];
    let text = r["content"][0]["text"].as_str().unwrap_or_default();
    if r["isError"] == json!(true) {
        return Err(text.to_owned());
    }
    Ok(match r.get("structuredContent") {
        Some(v) if !v.is_null() => v.clone(),
        _ => serde_json::from_str(text).unwrap_or_else(|_| json!(text)),
    })
}

/// `nexus-mcp … serve` over stdio, driven with raw JSON-RPC lines; every wait bounded.
pub struct McpStdio {
    io: LineChild,
    next_id: u64,
}

impl McpStdio {
    /// Starts the server and sends `initialize` at once (answered by [`McpStdio::initialized`]),
    /// so that several servers started in a row come up at the same time.
    pub fn spawn(cmd: Command, what: &str) -> McpStdio {
        let mut io = LineChild::spawn(cmd, what);
        // A server refusing to start may be gone already: its exit is reported by the wait.
        let _ = io.try_send(
            &json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
            "protocolVersion": "2025-11-25", "capabilities": {},
            "clientInfo": {"name": "local_nexus", "version": "0"}}}),
        );
        McpStdio { io, next_id: 2 }
    }

    /// Waits for the answer to `initialize`, then sends `notifications/initialized`.
    pub fn initialized(&mut self) {
        let answer = self.io.until(START, |v| (v["id"] == 1).then(|| v.clone()));
        assert!(
            answer["result"]["serverInfo"].is_object(),
            "{}: initialize failed: {answer}\n{}",
            self.io.what,
            self.io.log()
        );
        self.io
            .send(&json!({"jsonrpc": "2.0", "method": "notifications/initialized"}));
    }

    /// For a server that may refuse to start: initialized, then one call; Err(what it printed)
    /// when it exits first, or the call's error.
    pub fn first_call(&mut self, tool: &str, args: Value) -> Result<Value, String> {
        let init = self
            .io
            .try_until(START, |v| (v["id"] == 1).then(|| v.clone()))?;
        if init.get("error").is_some() {
            return Err(init.to_string());
        }
        let id = self.next_id;
        self.next_id += 1;
        for msg in [
            json!({"jsonrpc": "2.0", "method": "notifications/initialized"}),
            json!({"jsonrpc": "2.0", "id": id, "method": "tools/call",
                   "params": {"name": tool, "arguments": args}}),
        ] {
            let _ = self.io.try_send(&msg);
        }
        let answer = self
            .io
            .try_until(CALL, |v| (v["id"] == id).then(|| v.clone()))?;
        tool_result(&answer)
    }

    /// Sends a tools/call; its answer comes from [`McpStdio::answer`].
    pub fn send_call(&mut self, tool: &str, args: Value) -> u64 {
        let id = self.next_id;
        self.next_id += 1;
        self.io
            .send(&json!({"jsonrpc": "2.0", "id": id, "method": "tools/call",
            "params": {"name": tool, "arguments": args}}));
        id
    }

    pub fn answer(&mut self, id: u64, within: Duration) -> Result<Value, String> {
        let answer = self
            .io
            .until(within, |v| (v["id"] == id).then(|| v.clone()));
        tool_result(&answer)
    }

    /// One tool call, answered within [`CALL`].
    pub fn call(&mut self, tool: &str, args: Value) -> Result<Value, String> {
        let id = self.send_call(tool, args);
        self.answer(id, CALL)
    }

    /// One tool call that must succeed.
    pub fn ok(&mut self, tool: &str, args: Value) -> Value {
        let shown = args.to_string();
        self.call(tool, args).unwrap_or_else(|e| {
            panic!(
                "{}: {tool} {shown} failed: {e}\n{}",
                self.io.what,
                self.io.log()
            )
        })
    }

    pub fn pid(&self) -> u32 {
        self.io.child.id()
    }

    pub fn log(&self) -> String {
        self.io.log()
    }

    /// Closes stdin (the client goes away) and waits for the server to exit.
    pub fn close(mut self) -> std::process::ExitStatus {
        drop(self.io.stdin.take());
        let what = format!("{} (pid {})", self.io.what, self.pid());
        wait_exit(&mut self.io.child, START, &what)
    }
}

/// Waits (bounded) for `child` to exit.
pub fn wait_exit(child: &mut Child, within: Duration, what: &str) -> std::process::ExitStatus {
    wait_for(within, &format!("{what} to exit"), || {
        child.try_wait().expect("try_wait")
    })
}

/// The Python MCP SDK as a client of a nexus-mcp server over stdio or Streamable HTTP, driven
/// one request per line (tests/clients/line_client.py): what a real agent's SDK sees.
pub struct PySdk {
    io: LineChild,
}

/// An MCP error answer (JSON-RPC code and message) as the SDK raised it.
pub type McpError = (i64, String);

impl PySdk {
    /// `python line_client.py -- BINARY ARGS…`, with `home`'s environment; waits until the SDK
    /// has initialized its session.
    pub fn spawn<S: AsRef<std::ffi::OsStr>>(
        home: &LocalHome,
        python: &Path,
        server_args: &[S],
        what: &str,
    ) -> PySdk {
        let mut cmd = home.command(python);
        cmd.arg(root().join("tests/clients/line_client.py"))
            .arg("--")
            .arg(bin())
            .args(server_args);
        PySdk {
            io: LineChild::spawn(cmd, what),
        }
    }

    /// The SDK over stdio on `server` (the nexus-mcp command a test built, its environment
    /// included), initialized.
    pub fn stdio(python: &Path, server: &Command, what: &str) -> PySdk {
        let mut cmd = Command::new(python);
        cmd.arg(root().join("tests/clients/line_client.py"))
            .arg("--")
            .arg(server.get_program())
            .args(server.get_args());
        // The SDK starts the server in its own working directory.
        if let Some(dir) = server.get_current_dir() {
            cmd.current_dir(dir);
        }
        for (k, v) in server.get_envs() {
            match v {
                Some(v) => cmd.env(k, v),
                None => cmd.env_remove(k),
            };
        }
        let mut sdk = PySdk {
            io: LineChild::spawn(cmd, what),
        };
        sdk.ready();
        sdk
    }

    /// The SDK over Streamable HTTP at `url` with the bearer `key`, initialized.
    pub fn http(python: &Path, url: &str, key: &str, what: &str) -> PySdk {
        let mut cmd = Command::new(python);
        cmd.arg(root().join("tests/clients/line_client.py"))
            .args(["--url", url])
            .env("NEXUS_MCP_TEST_KEY", key);
        let mut sdk = PySdk {
            io: LineChild::spawn(cmd, what),
        };
        sdk.ready();
        sdk
    }

    pub fn ready(&mut self) {
        self.io.until(START, |v| (v["ready"] == true).then_some(()));
    }

    pub fn send_call(&mut self, tool: &str, args: Value) {
        self.io.send(&json!({"tool": tool, "arguments": args}));
    }

    /// The answer line to the oldest request not yet answered (the client answers in order).
    fn next_answer(&mut self, within: Duration) -> Value {
        self.io
            .until(within, |v| (v.get("ready").is_none()).then(|| v.clone()))
    }

    /// The answer to the oldest call not yet answered.
    pub fn answer(&mut self, within: Duration) -> Result<Value, String> {
        let a = self.next_answer(within);
        match (&a["exception"], &a["isError"]) {
            (Value::String(e), _) => Err(e.clone()),
            (_, Value::Bool(true)) => Err(a["body"].to_string()),
            _ if a.get("body").is_some() => Ok(a["body"].clone()),
            _ => Err(a.to_string()),
        }
    }

    /// A tool call: the structured answer, or Err(the isError body or what the SDK raised).
    pub fn call(&mut self, tool: &str, args: Value) -> Result<Value, String> {
        self.send_call(tool, args);
        self.answer(CALL)
    }

    /// A successful call's structured answer and its text content (what a model reads).
    pub fn ok_with_text(&mut self, tool: &str, args: Value) -> (Value, String) {
        self.send_call(tool, args);
        let a = self.next_answer(CALL);
        assert!(a["isError"] == false, "{}: {tool}: {a}", self.io.what);
        (
            a["body"].clone(),
            a["text"].as_str().unwrap_or_default().to_owned(),
        )
    }

    /// Every page of a list tool's answer (`items`, followed by `nextCursor`), joined.
    pub fn all_items(&mut self, tool: &str, args: Value) -> Vec<Value> {
        let (mut items, mut args) = (Vec::new(), args);
        loop {
            let page = self.ok(tool, args.clone());
            items.extend(page["items"].as_array().expect("items").iter().cloned());
            match page["nextCursor"].as_str() {
                Some(next) => args["cursor"] = json!(next),
                None => return items,
            }
        }
    }

    /// A successful call's answer with the progress notifications it got (`{progress, total,
    /// message}` each).
    pub fn ok_with_progress(&mut self, tool: &str, args: Value) -> (Value, Vec<Value>) {
        self.send_call(tool, args);
        let a = self.next_answer(CALL);
        assert!(a["isError"] == false, "{}: {tool}: {a}", self.io.what);
        let progress = a["progress"].as_array().cloned().unwrap_or_default();
        (a["body"].clone(), progress)
    }

    pub fn ok(&mut self, tool: &str, args: Value) -> Value {
        let shown = args.to_string();
        self.send_call(tool, args);
        self.answer(CALL).unwrap_or_else(|e| {
            panic!(
                "{}: {tool} {shown} failed: {e}\n{}",
                self.io.what,
                self.io.log()
            )
        })
    }

    /// One non-tool request; `key` is the answer's field on success.
    fn request(&mut self, request: Value, key: &str) -> Result<Value, McpError> {
        let shown = request.to_string();
        self.io.send(&request);
        let a = self.next_answer(CALL);
        if let Some(e) = a.get("mcpError") {
            return Err((
                e["code"].as_i64().unwrap_or_default(),
                e["message"].as_str().unwrap_or_default().to_owned(),
            ));
        }
        match a.get(key) {
            Some(v) => Ok(v.clone()),
            None => panic!("{}: {shown} answered {a}\n{}", self.io.what, self.io.log()),
        }
    }

    /// resources/read: the text of its one content, with its MIME type.
    pub fn read(&mut self, uri: &str) -> Result<(String, Option<String>), McpError> {
        let contents = self.request(json!({"read": uri}), "contents")?;
        match contents.as_array().map(Vec::as_slice) {
            Some([one]) => Ok((
                one["text"].as_str().expect("a text resource").to_owned(),
                one["mimeType"].as_str().map(str::to_owned),
            )),
            _ => panic!("{uri}: one content expected: {contents}"),
        }
    }

    /// resources/templates/list.
    pub fn templates(&mut self) -> Vec<String> {
        let got = self.request(json!({"templates": true}), "templates");
        serde_json::from_value(got.expect("resources/templates/list")).expect("templates")
    }

    /// prompts/get: the text of each message.
    pub fn prompt(&mut self, name: &str, args: Value) -> Result<Vec<String>, McpError> {
        let got = self.request(json!({"prompt": name, "arguments": args}), "messages")?;
        Ok(serde_json::from_value(got).expect("message texts"))
    }

    /// completion/complete of `argument` typed as `value`, for `target`
    /// (`{"prompt": NAME}` or `{"template": URI}`), with the arguments filled in so far.
    pub fn complete(
        &mut self,
        target: Value,
        argument: &str,
        value: &str,
        context: Option<Value>,
    ) -> Result<Vec<String>, McpError> {
        let got = self.request(
            json!({"complete": target, "argument": [argument, value], "context": context}),
            "values",
        )?;
        Ok(serde_json::from_value(got).expect("completion values"))
    }

    /// A nexus-rules capability through `use_capability`.
    pub fn capability(&mut self, name: &str, arguments: Value) -> Value {
        self.ok(
            "use_capability",
            json!({"capability": name, "arguments": arguments}),
        )
    }
}

/// A `ruff` first on PATH that, armed, blocks its first run on a FIFO until released, after
/// creating `started` (holding its pid); every other run is the real ruff. It stands for an
/// analyser still running when the daemon is killed.
pub struct RuffShim {
    pub dir: PathBuf,
    pub started: PathBuf,
    armed: PathBuf,
    go: PathBuf,
}

impl RuffShim {
    /// A shim in `dir/shim-bin`; `armed` says whether its first run blocks.
    pub fn new(dir: &Path, armed: bool) -> RuffShim {
        let real = std::env::split_paths(&tool_path())
            .map(|d| d.join("ruff"))
            .find(|p| p.is_file())
            .expect("a real ruff on the tests' PATH");
        let bin = dir.join("shim-bin");
        std::fs::create_dir_all(&bin).expect("mkdir shim-bin");
        let shim = RuffShim {
            started: dir.join("ruff-started"),
            armed: dir.join("ruff-armed"),
            go: dir.join("ruff-go"),
            dir: bin,
        };
        let made = Command::new("mkfifo")
            .arg(&shim.go)
            .status()
            .expect("mkfifo");
        assert!(made.success(), "mkfifo {}", shim.go.display());
        let q = |p: &Path| format!("'{}'", p.display());
        let script = format!(
            "#!/bin/sh\nif [ -e {armed} ] && mkdir {mark} 2>/dev/null; then\n  echo $$ > {started}.tmp && mv {started}.tmp {started}\n  cat {go} > /dev/null\nfi\nexec {real} \"$@\"\n",
            armed = q(&shim.armed),
            mark = q(&dir.join("ruff-once")),
            started = q(&shim.started),
            go = q(&shim.go),
            real = q(&real),
        );
        let path = shim.dir.join("ruff");
        std::fs::write(&path, script).expect("write the ruff shim");
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).expect("chmod");
        if armed {
            shim.arm();
        }
        shim
    }

    /// From now on the next run blocks (once).
    pub fn arm(&self) {
        std::fs::write(&self.armed, "").expect("arm the shim");
    }

    /// PATH with the shim first.
    pub fn path(&self) -> OsString {
        let mut dirs = vec![self.dir.clone()];
        dirs.extend(std::env::split_paths(&tool_path()));
        std::env::join_paths(dirs).expect("PATH")
    }

    /// Waits until the blocked run has started; its pid.
    pub fn wait_started(&self) -> u64 {
        wait_for(START, "the ruff shim's blocked run", || {
            std::fs::read_to_string(&self.started)
                .ok()
                .and_then(|s| s.trim().parse().ok())
        })
    }

    /// Lets the blocked run go on to the real ruff: opening the FIFO for writing succeeds once
    /// its reader is there (polled: non-blocking, so a reader that died cannot hang the test),
    /// and closing it ends the reader's `cat`.
    pub fn release(&self) {
        use std::os::unix::fs::OpenOptionsExt;
        const O_NONBLOCK: i32 = 0o4000; // Linux
        wait_for(START, "the ruff shim reading its FIFO", || {
            std::fs::OpenOptions::new()
                .write(true)
                .custom_flags(O_NONBLOCK)
                .open(&self.go)
                .ok()
        });
    }
}

/// The pid of the live local daemon serving `data`, if any.
pub fn daemon_pid(data: &Path) -> Option<u64> {
    let raw = std::fs::read(data.join(DAEMON_JSON)).ok()?;
    serde_json::from_slice::<Value>(&raw).ok()?["pid"]
        .as_u64()
        .filter(|p| alive(*p))
}

/// Stops the daemon serving `data` (SIGTERM) and waits until it is gone: outside every timed
/// region, so that the next client has to start one.
pub fn stop_daemon(data: &Path) {
    if let Some(pid) = daemon_pid(data) {
        let _ = Command::new("kill").arg(pid.to_string()).status();
        wait_for(Duration::from_secs(60), "the daemon to exit", || {
            (!alive(pid)).then_some(())
        });
    }
}
