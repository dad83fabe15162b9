//! Runs the installed analysers (ruff, bandit, and semgrep when the repository configures it)
//! on the changed files as committed at head, with JSON output, and says for each how the run
//! went: version, exit code, its error list, the files it skipped. An analyser that is missing
//! or crashes is reported so, never as clean (rules-gate.md §5, exit codes).

use crate::core::error::LiteError;
use crate::rules::gate::diff::Diff;
use crate::rules::gate::model::{SkippedFile, ToolRun, ToolStatus};
use crate::rules::gate::severity::{self, Severity};
use crate::rules::gate::snapshot::{self, Snapshot, Wanted};
use serde_json::Value;
use std::io::Read;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// One analyser finding, anywhere in a changed file (the caller keeps those on changed lines).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Finding {
    pub tool: &'static str,
    /// The analyser's own code (`B602`, `F821`, a semgrep check id).
    pub code: String,
    /// The rule's name (`subprocess_popen_with_shell_equals_true`).
    pub title: String,
    pub path: String,
    pub line: Option<u32>,
    pub message: String,
    pub severity: Severity,
    pub suggestion: Option<String>,
}

impl Finding {
    /// `<tool>:<code>`, the id playbook rules name in `enforcedBy`.
    pub fn rule_id(&self) -> String {
        format!("{}:{}", self.tool, self.code)
    }
}

/// Limits of one gate run.
#[derive(Debug, Clone)]
pub struct Options {
    /// Larger files are skipped (and the run says so).
    pub max_file_bytes: u64,
    /// Files analysed at most; the rest are skipped (and the run says so).
    pub max_files: usize,
    /// Per analyser run; a run over it is killed and reported failed.
    pub timeout: Duration,
    /// The PATH analysers are looked up in (and run with); `None` = this process's PATH.
    pub search_path: Option<std::ffi::OsString>,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            max_file_bytes: 2 * 1024 * 1024,
            max_files: 5_000,
            timeout: Duration::from_secs(600),
            search_path: None,
        }
    }
}

/// Everything the analysers said about a diff.
#[derive(Debug, Default)]
pub struct Analysis {
    pub findings: Vec<Finding>,
    pub tools: Vec<ToolRun>,
    pub skipped: Vec<SkippedFile>,
    /// Configuration files at head the analysers read (repo-relative).
    pub configs: Vec<String>,
}

const PYTHON: &[&str] = &[".py", ".pyi"];

/// At most this many error lines are kept per tool.
const MAX_ERRORS: usize = 20;

/// Runs every analyser on `diff`'s files at head.
pub fn run(repo: &Path, diff: &Diff, opts: &Options) -> Result<Analysis, LiteError> {
    let mut analysis = Analysis::default();
    let sizes = snapshot::blob_sizes(repo, diff.files.iter().map(|f| f.blob.as_str()))?;
    let mut wanted = Vec::new();
    for f in &diff.files {
        if !f.is_regular() {
            // A symlink's or submodule's content is not code of this change; a changed
            // target file is in the diff on its own.
            continue;
        }
        let size = sizes.get(&f.blob).copied();
        let reason = match size {
            None => Some("its content at head could not be read from git".to_string()),
            Some(n) if n > opts.max_file_bytes => Some(format!(
                "{n} bytes, over the gate's {} byte limit per file",
                opts.max_file_bytes
            )),
            _ if wanted.len() >= opts.max_files => Some(format!(
                "the diff has more than {} files; the gate analyses the first {} in path order",
                opts.max_files, opts.max_files
            )),
            _ => None,
        };
        match reason {
            Some(reason) => analysis.skipped.push(SkippedFile {
                path: f.path.clone(),
                tool: None,
                reason,
            }),
            None => wanted.push(Wanted {
                path: &f.path,
                blob: &f.blob,
            }),
        }
    }
    let snap = snapshot::write(repo, &diff.revisions.head_sha, &wanted)?;
    let files: Vec<String> = wanted.iter().map(|w| w.path.to_string()).collect();
    let python: Vec<String> = files
        .iter()
        .filter(|p| PYTHON.iter().any(|ext| p.ends_with(ext)))
        .cloned()
        .collect();
    let bandit_files: Vec<String> = python
        .iter()
        .filter(|p| p.ends_with(".py"))
        .cloned()
        .collect();
    analysis.tools.push(ruff(
        &snap,
        &python,
        opts,
        &mut analysis.findings,
        &mut analysis.skipped,
    ));
    analysis.tools.push(bandit(
        &snap,
        &bandit_files,
        opts,
        &mut analysis.findings,
        &mut analysis.skipped,
    ));
    analysis.tools.push(semgrep(
        &snap,
        &files,
        opts,
        &mut analysis.findings,
        &mut analysis.skipped,
    ));
    analysis.configs = snap.configs.clone();
    Ok(analysis)
}

/// A command for analyser `program`, looked up in `opts.search_path` when set.
fn tool(program: &str, opts: &Options) -> Command {
    let mut cmd = Command::new(program);
    if let Some(path) = &opts.search_path {
        cmd.env("PATH", path);
    }
    cmd
}

/// What a finished (or killed) process left.
struct Ran {
    code: Option<i32>,
    stdout: Vec<u8>,
    stderr: Vec<u8>,
    timed_out: bool,
}

/// Runs `cmd` with piped output, killing it after `timeout`.
fn run_with_timeout(mut cmd: Command, timeout: Duration) -> std::io::Result<Ran> {
    let mut child = cmd
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()?;
    let read = |pipe: Option<Box<dyn Read + Send>>| {
        std::thread::spawn(move || {
            let mut buf = Vec::new();
            if let Some(mut p) = pipe {
                let _ = p.read_to_end(&mut buf);
            }
            buf
        })
    };
    let out = read(
        child
            .stdout
            .take()
            .map(|p| Box::new(p) as Box<dyn Read + Send>),
    );
    let err = read(
        child
            .stderr
            .take()
            .map(|p| Box::new(p) as Box<dyn Read + Send>),
    );
    let started = Instant::now();
    let mut timed_out = false;
    let status = loop {
        if let Some(status) = child.try_wait()? {
            break status;
        }
        if started.elapsed() > timeout {
            timed_out = true;
            let _ = child.kill();
            break child.wait()?;
        }
        // Polling a child process: analysers run for seconds, a 20 ms tick costs nothing.
        std::thread::sleep(Duration::from_millis(20));
    };
    Ok(Ran {
        code: status.code(),
        stdout: out.join().unwrap_or_default(),
        stderr: err.join().unwrap_or_default(),
        timed_out,
    })
}

fn version(program: &str, opts: &Options) -> Option<String> {
    let mut cmd = tool(program, opts);
    cmd.arg("--version");
    let ran = run_with_timeout(cmd, Duration::from_secs(30)).ok()?;
    if ran.code != Some(0) {
        return None;
    }
    let text = String::from_utf8_lossy(&ran.stdout);
    let first = text.lines().next()?.trim();
    // "ruff 0.17.5", "bandit 1.9.4", "1.97.0" (semgrep).
    Some(first.rsplit(' ').next().unwrap_or(first).to_string()).filter(|v| !v.is_empty())
}

fn tool_run(name: &str, status: ToolStatus, files: usize, reason: impl Into<String>) -> ToolRun {
    ToolRun {
        name: name.into(),
        version: None,
        exit_code: None,
        status,
        files,
        findings: 0,
        findings_on_unchanged_lines: 0,
        errors: Vec::new(),
        reason: Some(reason.into()),
    }
}

/// The tool could not be started: missing when not found, else failed.
fn not_started(name: &str, files: usize, e: &std::io::Error, install: &str) -> ToolRun {
    if e.kind() == std::io::ErrorKind::NotFound {
        tool_run(
            name,
            ToolStatus::Missing,
            files,
            format!(
                "{name} is not installed or not on PATH, so {files} changed file(s) were not checked by it; install it ({install}) where the gate runs"
            ),
        )
    } else {
        tool_run(
            name,
            ToolStatus::Failed,
            files,
            format!("cannot run {name}: {e}"),
        )
    }
}

fn stderr_lines(stderr: &[u8]) -> Vec<String> {
    String::from_utf8_lossy(stderr)
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .take(MAX_ERRORS)
        .map(|l| l.chars().take(500).collect())
        .collect()
}

/// The record of a tool that ran (its outcome is filled in by the caller).
fn started(name: &str, files: usize, ran: &Ran, opts: &Options) -> ToolRun {
    ToolRun {
        name: name.into(),
        version: version(name, opts),
        exit_code: ran.code,
        status: ToolStatus::Ok,
        files,
        findings: 0,
        findings_on_unchanged_lines: 0,
        errors: Vec::new(),
        reason: None,
    }
}

fn exit_code_text(ran: &Ran) -> String {
    ran.code.map_or("none".to_string(), |c| c.to_string())
}

/// Why a run of `name` (exit 0: no finding, 1: findings) ended abnormally, if it did; `rerun`
/// is the command a human runs to see why.
fn abnormal_end(ran: &Ran, name: &str, rerun: &str) -> Option<String> {
    (!matches!(ran.code, Some(0) | Some(1)) || ran.timed_out).then(|| {
        format!(
            "{name} ended abnormally (exit code {}); its findings are unknown. Run `{rerun}` on the changed files to see why",
            exit_code_text(ran)
        )
    })
}

/// A crash, timeout or unreadable answer.
fn failed(mut run: ToolRun, ran: &Ran, what: String) -> ToolRun {
    run.status = ToolStatus::Failed;
    run.errors = stderr_lines(&ran.stderr);
    run.reason = Some(if ran.timed_out {
        format!(
            "{} was stopped after running longer than the gate's limit; its findings are unknown",
            run.name
        )
    } else {
        what
    });
    run
}

/// A path an analyser printed, repo-relative.
fn relative(root: &Path, printed: &str) -> String {
    let p = Path::new(printed);
    let rel = p
        .strip_prefix(root)
        .unwrap_or(p)
        .to_string_lossy()
        .replace('\\', "/");
    rel.strip_prefix("./").unwrap_or(&rel).to_string()
}

fn ruff(
    snap: &Snapshot,
    files: &[String],
    opts: &Options,
    findings: &mut Vec<Finding>,
    skipped: &mut Vec<SkippedFile>,
) -> ToolRun {
    const NAME: &str = "ruff";
    if files.is_empty() {
        return tool_run(NAME, ToolStatus::Skipped, 0, "no Python file changed");
    }
    let mut cmd = tool(NAME, opts);
    cmd.current_dir(snap.root()).args([
        "check",
        "--output-format",
        "json",
        "--no-cache",
        "--no-fix",
        // The repository's exclusions apply to files named on the command line too.
        "--force-exclude",
        // File names are never options.
        "--",
    ]);
    cmd.args(files);
    let ran = match run_with_timeout(cmd, opts.timeout) {
        Ok(r) => r,
        Err(e) => return not_started(NAME, files.len(), &e, "pip install ruff"),
    };
    let mut run = started(NAME, files.len(), &ran, opts);
    // 0: no finding, 1: findings; 2 and anything else: abnormal end.
    if let Some(what) = abnormal_end(&ran, NAME, "ruff check") {
        return failed(run, &ran, what);
    }
    let parsed: Vec<Value> = match serde_json::from_slice(&ran.stdout) {
        Ok(v) => v,
        Err(e) => {
            let what = format!(
                "ruff's output is not the JSON list it should be ({e}); its findings are unknown"
            );
            return failed(run, &ran, what);
        }
    };
    for item in &parsed {
        let s = |k: &str| item.get(k).and_then(Value::as_str).unwrap_or("");
        let code = item
            .get("code")
            .and_then(Value::as_str)
            .unwrap_or("invalid-syntax");
        let path = relative(snap.root(), s("filename"));
        if code == "E902" {
            // An I/O error: ruff could not read the file.
            skipped.push(SkippedFile {
                path,
                tool: Some(NAME.into()),
                reason: format!("ruff could not read it: {}", s("message")),
            });
            run.status = ToolStatus::Partial;
            continue;
        }
        let line = item
            .pointer("/location/row")
            .and_then(Value::as_u64)
            .and_then(|n| u32::try_from(n).ok());
        findings.push(Finding {
            tool: NAME,
            code: code.to_string(),
            title: item
                .get("name")
                .and_then(Value::as_str)
                .unwrap_or(code)
                .to_string(),
            path,
            line,
            message: s("message").to_string(),
            severity: severity::ruff(code),
            suggestion: ruff_fix(item.get("fix")),
        });
        run.findings += 1;
    }
    if run.status == ToolStatus::Partial {
        run.reason = Some("ruff could not read some files; see skippedFiles".into());
    }
    run.errors = stderr_lines(&ran.stderr)
        .into_iter()
        .filter(|l| l.starts_with("error"))
        .collect();
    if !run.errors.is_empty() && run.status == ToolStatus::Ok {
        run.status = ToolStatus::Partial;
        run.reason = Some("ruff reported errors on stderr; its findings may be incomplete".into());
    }
    run
}

/// Ruff's fix as a short text: its message, else its edit.
fn ruff_fix(fix: Option<&Value>) -> Option<String> {
    let fix = fix.filter(|f| !f.is_null())?;
    if let Some(m) = fix
        .get("message")
        .and_then(Value::as_str)
        .filter(|m| !m.is_empty())
    {
        return Some(m.to_string());
    }
    let edits = fix.get("edits").and_then(Value::as_array)?;
    let [edit] = &edits[..] else {
        return Some(format!(
            "ruff can fix this automatically ({} edits): `ruff check --fix`",
            edits.len()
        ));
    };
    let row = edit.pointer("/location/row").and_then(Value::as_u64)?;
    let content = edit.get("content").and_then(Value::as_str).unwrap_or("");
    Some(if content.is_empty() {
        format!("delete from line {row}")
    } else {
        format!(
            "replace at line {row} with `{}`",
            content.chars().take(200).collect::<String>()
        )
    })
}

fn bandit(
    snap: &Snapshot,
    files: &[String],
    opts: &Options,
    findings: &mut Vec<Finding>,
    skipped: &mut Vec<SkippedFile>,
) -> ToolRun {
    const NAME: &str = "bandit";
    if files.is_empty() {
        return tool_run(NAME, ToolStatus::Skipped, 0, "no Python file changed");
    }
    let mut cmd = tool(NAME, opts);
    cmd.current_dir(snap.root()).args(["-f", "json", "-q"]);
    if snap.has(".bandit") {
        cmd.args(["--ini", ".bandit"]);
    } else if std::fs::read_to_string(snap.root().join("pyproject.toml"))
        .is_ok_and(|t| t.contains("[tool.bandit"))
    {
        cmd.args(["-c", "pyproject.toml"]);
    }
    // File names are never options.
    cmd.arg("--").args(files);
    let ran = match run_with_timeout(cmd, opts.timeout) {
        Ok(r) => r,
        Err(e) => return not_started(NAME, files.len(), &e, "pip install bandit"),
    };
    let mut run = started(NAME, files.len(), &ran, opts);
    // 0: no finding, 1: findings; 2: usage error; anything else: abnormal end.
    if let Some(what) = abnormal_end(&ran, NAME, "bandit") {
        return failed(run, &ran, what);
    }
    let parsed: Value = match serde_json::from_slice::<Value>(&ran.stdout) {
        Ok(v) if v.is_object() => v,
        Ok(_) => {
            return failed(
                run,
                &ran,
                "bandit's output is not a JSON report; its findings are unknown".into(),
            );
        }
        Err(e) => {
            let what = format!("bandit's output is not JSON ({e}); its findings are unknown");
            return failed(run, &ran, what);
        }
    };
    for item in parsed["results"]
        .as_array()
        .map(Vec::as_slice)
        .unwrap_or(&[])
    {
        let s = |k: &str| item.get(k).and_then(Value::as_str).unwrap_or("");
        findings.push(Finding {
            tool: NAME,
            code: s("test_id").to_string(),
            title: s("test_name").to_string(),
            path: relative(snap.root(), s("filename")),
            line: item
                .get("line_number")
                .and_then(Value::as_u64)
                .and_then(|n| u32::try_from(n).ok()),
            message: s("issue_text").to_string(),
            severity: severity::bandit(s("issue_severity"), s("issue_confidence")),
            suggestion: None,
        });
        run.findings += 1;
    }
    let errors = parsed["errors"]
        .as_array()
        .map(Vec::as_slice)
        .unwrap_or(&[]);
    for e in errors {
        let path = relative(snap.root(), e["filename"].as_str().unwrap_or(""));
        let reason = e["reason"]
            .as_str()
            .unwrap_or("no reason given")
            .to_string();
        run.errors.push(format!("{path}: {reason}"));
        skipped.push(SkippedFile {
            path,
            tool: Some(NAME.into()),
            reason: format!("bandit could not scan it: {reason}"),
        });
    }
    run.errors.truncate(MAX_ERRORS);
    if !errors.is_empty() {
        run.status = ToolStatus::Partial;
        run.reason = Some(format!(
            "bandit could not scan {} file(s); see skippedFiles",
            errors.len()
        ));
    }
    run
}

/// The semgrep configuration at head: `.semgrep.yml`, `.semgrep.yaml` or `.semgrep/`.
fn semgrep_config(snap: &Snapshot) -> Option<&'static str> {
    [".semgrep.yml", ".semgrep.yaml"]
        .into_iter()
        .find(|c| snap.has(c))
        .or_else(|| snap.root().join(".semgrep").is_dir().then_some(".semgrep"))
}

fn semgrep(
    snap: &Snapshot,
    files: &[String],
    opts: &Options,
    findings: &mut Vec<Finding>,
    skipped: &mut Vec<SkippedFile>,
) -> ToolRun {
    const NAME: &str = "semgrep";
    let Some(config) = semgrep_config(snap) else {
        return tool_run(
            NAME,
            ToolStatus::Skipped,
            0,
            "the repository has no semgrep configuration at head (.semgrep.yml or .semgrep/), and `--config auto` needs the network, so semgrep is not run",
        );
    };
    if files.is_empty() {
        return tool_run(NAME, ToolStatus::Skipped, 0, "no file to scan");
    }
    let mut cmd = tool(NAME, opts);
    cmd.current_dir(snap.root())
        .args([
            "scan",
            "--json",
            "--metrics=off",
            "--disable-version-check",
            "--no-git-ignore",
            "--config",
            config,
            "--",
        ])
        .args(files);
    let ran = match run_with_timeout(cmd, opts.timeout) {
        Ok(r) => r,
        // semgrep runs when installed: its absence is said, not counted as a failed analysis.
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            return tool_run(
                NAME,
                ToolStatus::Skipped,
                files.len(),
                format!(
                    "semgrep is not installed, so the repository's semgrep rules ({config}) were not checked; install semgrep where the gate runs to check them"
                ),
            );
        }
        Err(e) => return not_started(NAME, files.len(), &e, "pip install semgrep"),
    };
    let mut run = started(NAME, files.len(), &ran, opts);
    let parsed: Value = match serde_json::from_slice::<Value>(&ran.stdout) {
        Ok(v) if v.is_object() && !ran.timed_out => v,
        _ => {
            let what = format!(
                "semgrep ended with exit code {} without a readable JSON report; its findings are unknown",
                exit_code_text(&ran)
            );
            return failed(run, &ran, what);
        }
    };
    for item in parsed["results"]
        .as_array()
        .map(Vec::as_slice)
        .unwrap_or(&[])
    {
        let code = item["check_id"].as_str().unwrap_or("unknown").to_string();
        findings.push(Finding {
            tool: NAME,
            title: code.rsplit('.').next().unwrap_or(&code).to_string(),
            code,
            path: relative(snap.root(), item["path"].as_str().unwrap_or("")),
            line: item
                .pointer("/start/line")
                .and_then(Value::as_u64)
                .and_then(|n| u32::try_from(n).ok()),
            message: item
                .pointer("/extra/message")
                .and_then(Value::as_str)
                .unwrap_or("")
                .to_string(),
            severity: severity::semgrep(
                item.pointer("/extra/severity")
                    .and_then(Value::as_str)
                    .unwrap_or(""),
            ),
            suggestion: item
                .pointer("/extra/fix")
                .and_then(Value::as_str)
                .map(|f| format!("replace with `{}`", f.chars().take(200).collect::<String>())),
        });
        run.findings += 1;
    }
    for e in parsed["errors"]
        .as_array()
        .map(Vec::as_slice)
        .unwrap_or(&[])
    {
        let message = e["message"]
            .as_str()
            .or(e["type"].as_str())
            .unwrap_or("error")
            .to_string();
        if let Some(path) = e["path"].as_str() {
            skipped.push(SkippedFile {
                path: relative(snap.root(), path),
                tool: Some(NAME.into()),
                reason: format!("semgrep could not fully scan it: {message}"),
            });
        }
        run.errors.push(message.chars().take(500).collect());
    }
    run.errors.truncate(MAX_ERRORS);
    // 0 or 1 (findings): normal; 2 fatal or timeouts, 3 parse errors: partial at best.
    if !run.errors.is_empty() || !matches!(ran.code, Some(0) | Some(1)) {
        run.status = ToolStatus::Partial;
        run.reason = Some(format!(
            "semgrep reported {} error(s) (exit code {}); its findings may be incomplete",
            run.errors.len(),
            ran.code.map_or("none".to_string(), |c| c.to_string())
        ));
    }
    run
}
