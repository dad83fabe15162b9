//! Runs the installed analysers (ruff, bandit, and semgrep when the repository configures it)
//! on the changed files as committed at head, with JSON output, and says for each how the run
//! went: version, exit code, its error list, the files it skipped. An analyser that is missing
//! or crashes is reported so, never as clean (rules-gate.md §5, exit codes).

use crate::core::analyser::severity as level;
use crate::core::analyser::{self, Ran, run as run_with_timeout, version};
use crate::core::error::LiteError;
use crate::rules::gate::checked;
use crate::rules::gate::diff::Diff;
use crate::rules::gate::model::{SkippedFile, ToolRun, ToolStatus};
use crate::rules::gate::severity::{self, Severity};
use crate::rules::gate::snapshot::{self, Snapshot, Wanted};
use crate::rules::gate::tools::{Options, pyproject_configures_bandit, semgrep_config, tool};
use serde_json::Value;
use std::path::Path;
use std::process::Command;

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
    /// The last line of the statement or expression it is about (bandit's `line_range`,
    /// ruff's `end_location`): the finding is the change's if any line in between is.
    pub end_line: Option<u32>,
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

/// Everything the analysers said about a diff.
#[derive(Debug, Default)]
pub struct Analysis {
    pub findings: Vec<Finding>,
    pub tools: Vec<ToolRun>,
    pub skipped: Vec<SkippedFile>,
    /// Configuration files at head the analysers read (repo-relative).
    pub configs: Vec<String>,
    /// Bandit findings a `# nosec` silences (bandit run with `--ignore-nosec`, minus what it
    /// reports without): listed when they touch the change, whoever wrote the `# nosec`.
    pub suppressed: Vec<Finding>,
    /// Files that end a line with a lone CR: Python counts those lines, git does not, so
    /// analyser line numbers do not match the diff's and every line is the change's.
    pub lone_cr: Vec<String>,
    /// Analyser rule patterns checked completely ([`checked`]).
    pub checked: Vec<String>,
}

const PYTHON: &[&str] = &[".py", ".pyi", ".pyw"];

/// Whether the file `rel` (repo-relative), whose content starts with `head`, is Python: by its
/// name, or by a `#!` line naming python (an executable script without a suffix).
fn is_python(rel: &str, head: &[u8]) -> bool {
    PYTHON.iter().any(|ext| rel.ends_with(ext))
        || head.strip_prefix(b"#!").is_some_and(|rest| {
            let first = rest.split(|b| *b == b'\n').next().unwrap_or(rest);
            String::from_utf8_lossy(first).contains("python")
        })
}

/// A `\r` not followed by `\n`: a line end to Python, not to git.
fn has_lone_cr(bytes: &[u8]) -> bool {
    bytes
        .iter()
        .enumerate()
        .any(|(i, b)| *b == b'\r' && bytes.get(i + 1) != Some(&b'\n'))
}

/// At most this many error lines are kept per tool.
const MAX_ERRORS: usize = 20;

/// Runs every analyser on `diff`'s files at head.
pub fn run(repo: &Path, diff: &Diff, opts: &Options) -> Result<Analysis, LiteError> {
    let mut analysis = Analysis::default();
    let tree = snapshot::regular_files(repo, &diff.revisions.head_sha)?;
    let mut wanted = Vec::new();
    for f in &diff.files {
        if f.mode == "160000" {
            // A submodule bump brings in code the gate does not check out: say so.
            analysis.skipped.push(SkippedFile {
                path: f.path.clone(),
                tool: None,
                reason: format!(
                    "a submodule moved to commit {}; the submodule's code is not analysed by this gate: run the gate in the submodule's repository",
                    crate::rules::gate::short(&f.blob)
                ),
            });
            continue;
        }
        if !f.is_regular() {
            // A symlink's content is not code of this change; a changed target file is in
            // the diff on its own.
            continue;
        }
        let size = tree
            .get(&f.path)
            .filter(|(blob, _)| *blob == f.blob)
            .map(|(_, size)| *size);
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
    let snap = snapshot::write(repo, &tree, &wanted)?;
    let files: Vec<String> = wanted.iter().map(|w| w.path.to_string()).collect();
    let mut python = Vec::new();
    for path in &files {
        let bytes = std::fs::read(snap.root().join(path)).unwrap_or_default();
        if has_lone_cr(&bytes) {
            analysis.lone_cr.push(path.clone());
        }
        if is_python(path, &bytes) {
            python.push(path.clone());
        }
    }
    // Independent processes, run side by side: the analysers' versions (from the cache, or
    // probed), each analyser, bandit's `--ignore-nosec` run, and ruff's resolved settings.
    let snap = &snap;
    let (ruff_out, bandit_out, silenced, semgrep_out, ruff_enabled, known) =
        std::thread::scope(|s| {
            let py = &python;
            let mut asked = Vec::new();
            if !python.is_empty() {
                asked.extend(["ruff", "bandit"]);
            }
            if semgrep_config(snap).is_some() {
                asked.push("semgrep");
            }
            let known: Vec<_> = asked
                .into_iter()
                .map(|name| (name, s.spawn(move || version::version(name, opts.lookup()))))
                .collect();
            let ruff = s.spawn(move || collected(|f, sk| ruff(snap, py, opts, f, sk)));
            let bandit = s.spawn(move || collected(|f, sk| bandit(snap, py, opts, f, sk)));
            let silenced = s.spawn(move || bandit_ignoring_nosec(snap, py, opts));
            let files = &files;
            let semgrep = s.spawn(move || collected(|f, sk| semgrep(snap, files, opts, f, sk)));
            let enabled = s.spawn(move || checked::ruff_enabled(snap, py, opts));
            (
                joined(ruff.join(), "ruff"),
                joined(bandit.join(), "bandit"),
                silenced.join().unwrap_or_default(),
                joined(semgrep.join(), "semgrep"),
                enabled.join().unwrap_or_default(),
                known
                    .into_iter()
                    .map(|(name, v)| (name, v.join().ok().flatten()))
                    .collect::<Vec<_>>(),
            )
        });
    for (mut run, found, skipped) in [ruff_out, bandit_out, semgrep_out] {
        if !matches!(run.status, ToolStatus::Missing | ToolStatus::Skipped) {
            run.version = known
                .iter()
                .find(|(name, _)| *name == run.name)
                .and_then(|(_, v)| v.clone());
        }
        analysis.tools.push(run);
        analysis.findings.extend(found);
        analysis.skipped.extend(skipped);
    }
    analysis.suppressed = nosec_silenced(silenced, &analysis.findings);
    analysis.checked = checked::checked_rules(snap, &analysis.tools, ruff_enabled);
    analysis.configs = snap.configs.clone();
    Ok(analysis)
}

/// What one analyser said: its run, its findings, the files it skipped.
type Collected = (ToolRun, Vec<Finding>, Vec<SkippedFile>);

fn collected(f: impl FnOnce(&mut Vec<Finding>, &mut Vec<SkippedFile>) -> ToolRun) -> Collected {
    let (mut findings, mut skipped) = (Vec::new(), Vec::new());
    let run = f(&mut findings, &mut skipped);
    (run, findings, skipped)
}

/// An analyser's thread that panicked left its findings unknown: a failed run, never a clean one.
fn joined(result: std::thread::Result<Collected>, name: &str) -> Collected {
    result.unwrap_or_else(|_| {
        (
            tool_run(
                name,
                ToolStatus::Failed,
                0,
                format!("the gate's thread running {name} failed; its findings are unknown"),
            ),
            Vec::new(),
            Vec::new(),
        )
    })
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

/// The record of a tool that ran (its outcome is filled in by the caller, its version by
/// [`run`]).
fn started(name: &str, files: usize, ran: &Ran) -> ToolRun {
    ToolRun {
        name: name.into(),
        version: None,
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

/// A path an analyser printed, repo-relative (as printed when outside the snapshot: only an
/// absolute path can be, so there is no `./` to strip).
fn relative(root: &Path, printed: &str) -> String {
    analyser::relative(root, printed).unwrap_or_else(|| {
        if cfg!(windows) {
            printed.replace('\\', "/")
        } else {
            printed.to_string()
        }
    })
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
    // What ruff checks of the files, asked beside the check itself.
    let (ran, shown) = std::thread::scope(|s| {
        let shown = s.spawn(|| ruff_checked_files(snap, files, opts));
        (
            run_with_timeout(cmd, opts.timeout),
            shown.join().ok().flatten(),
        )
    });
    let ran = match ran {
        Ok(r) => r,
        Err(e) => return not_started(NAME, files.len(), &e, "pip install ruff"),
    };
    let mut run = started(NAME, files.len(), &ran);
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
        let row = |p: &str| {
            item.pointer(p)
                .and_then(Value::as_u64)
                .and_then(|n| u32::try_from(n).ok())
        };
        let line = row("/location/row");
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
            end_line: row("/end_location/row"),
            message: s("message").to_string(),
            severity: severity::ruff(code, s("message")),
            suggestion: ruff_fix(item.get("fix")),
        });
        run.findings += 1;
    }
    if run.status == ToolStatus::Partial {
        run.reason = Some("ruff could not read some files; see skippedFiles".into());
    }
    if let Some(checked) = shown.filter(|_| !opts.whole_files) {
        ruff_unchecked(files, &checked, &mut run, skipped);
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

/// The files ruff checks among `files` (`--show-files`); `None` when that is unknown.
fn ruff_checked_files(
    snap: &Snapshot,
    files: &[String],
    opts: &Options,
) -> Option<std::collections::BTreeSet<String>> {
    let mut cmd = tool("ruff", opts);
    cmd.current_dir(snap.root()).args([
        "check",
        "--show-files",
        "--no-cache",
        "--force-exclude",
        "--",
    ]);
    cmd.args(files);
    match run_with_timeout(cmd, opts.timeout) {
        Ok(ran) if ran.code == Some(0) && !ran.timed_out => Some(
            String::from_utf8_lossy(&ran.stdout)
                .lines()
                .map(|l| relative(snap.root(), l.trim_end()))
                .collect(),
        ),
        _ => None,
    }
}

/// Ruff drops, without a word, a named file its excludes cover (`--force-exclude`: the
/// repository's, and its defaults `dist`, `venv`, `node_modules`, `.tox`, ...): `--show-files`
/// says what it checks (`checked`), and the rest is listed as skipped.
fn ruff_unchecked(
    files: &[String],
    checked: &std::collections::BTreeSet<String>,
    run: &mut ToolRun,
    skipped: &mut Vec<SkippedFile>,
) {
    let unchecked: Vec<&String> = files.iter().filter(|f| !checked.contains(*f)).collect();
    for path in &unchecked {
        skipped.push(SkippedFile {
            path: (*path).clone(),
            tool: Some("ruff".into()),
            reason: "ruff did not check it: a directory on its path is excluded by ruff's defaults (dist, venv, node_modules, .tox, ...) or the repository's ruff configuration; its ruff findings are unknown".into(),
        });
    }
    if !unchecked.is_empty() {
        run.status = ToolStatus::Partial;
        run.reason = Some(format!(
            "ruff did not check {} changed file(s); see skippedFiles",
            unchecked.len()
        ));
    }
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
    let cmd = bandit_command(snap, files, opts, false);
    let ran = match run_with_timeout(cmd, opts.timeout) {
        Ok(r) => r,
        Err(e) => return not_started(NAME, files.len(), &e, "pip install bandit"),
    };
    let mut run = started(NAME, files.len(), &ran);
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
    for f in bandit_findings(snap, &parsed) {
        findings.push(f);
        run.findings += 1;
    }
    // Bandit drops, without a word, a named file under one of its excluded directories
    // (`CVS`, `.tox`, `.eggs`, ... or the repository's own): what it scanned is in `metrics`.
    let scanned: std::collections::BTreeSet<String> = parsed["metrics"]
        .as_object()
        .map(|m| m.keys().map(|k| relative(snap.root(), k)).collect())
        .unwrap_or_default();
    let errored: Vec<String> = parsed["errors"]
        .as_array()
        .map(Vec::as_slice)
        .unwrap_or(&[])
        .iter()
        .map(|e| relative(snap.root(), e["filename"].as_str().unwrap_or("")))
        .collect();
    let unscanned: Vec<&String> = files
        .iter()
        .filter(|f| !opts.whole_files && !scanned.contains(*f) && !errored.contains(f))
        .collect();
    for path in &unscanned {
        skipped.push(SkippedFile {
            path: (*path).clone(),
            tool: Some(NAME.into()),
            reason: "bandit did not scan it: a directory on its path is excluded by bandit's defaults (CVS, .tox, .eggs, __pycache__, ...) or the repository's bandit configuration; its bandit findings are unknown".into(),
        });
    }
    if !unscanned.is_empty() {
        run.status = ToolStatus::Partial;
        run.reason = Some(format!(
            "bandit did not scan {} changed file(s); see skippedFiles",
            unscanned.len()
        ));
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

/// A bandit command on `files`, with the repository's configuration at head.
fn bandit_command(
    snap: &Snapshot,
    files: &[String],
    opts: &Options,
    ignore_nosec: bool,
) -> Command {
    let mut cmd = tool("bandit", opts);
    cmd.current_dir(snap.root()).args(["-f", "json", "-q"]);
    if ignore_nosec {
        cmd.arg("--ignore-nosec");
    }
    if snap.has(".bandit") {
        cmd.args(["--ini", ".bandit"]);
    } else if pyproject_configures_bandit(snap) {
        cmd.args(["-c", "pyproject.toml"]);
    }
    // File names are never options.
    cmd.arg("--").args(files);
    cmd
}

/// The findings of a bandit JSON report.
fn bandit_findings(snap: &Snapshot, report: &Value) -> Vec<Finding> {
    let line = |v: Option<&Value>| {
        v.and_then(Value::as_u64)
            .and_then(|n| u32::try_from(n).ok())
    };
    report["results"]
        .as_array()
        .map(Vec::as_slice)
        .unwrap_or(&[])
        .iter()
        .map(|item| {
            let s = |k: &str| item.get(k).and_then(Value::as_str).unwrap_or("");
            Finding {
                tool: "bandit",
                code: s("test_id").to_string(),
                title: s("test_name").to_string(),
                path: relative(snap.root(), s("filename")),
                line: line(item.get("line_number")),
                end_line: line(item.get("line_range").and_then(|r| r.as_array()?.last())),
                message: s("issue_text").to_string(),
                severity: level::bandit(s("issue_severity"), s("issue_confidence")).into(),
                suggestion: None,
            }
        })
        .collect()
}

/// What a `# nosec` silences: bandit run again with `--ignore-nosec`, minus what `reported`
/// (the normal run) has. Bandit decides what is a nosec and what it covers (a whole
/// multi-line statement, any `#\s*nosec...` spelling), so the gate never guesses. A second
/// run that fails adds nothing: its silence is never read as "nothing suppressed" because
/// the normal run's record stands and the suppressions added on changed lines are listed
/// from the diff anyway.
fn nosec_silenced(all: Vec<Finding>, reported: &[Finding]) -> Vec<Finding> {
    let key = |f: &Finding| (f.path.clone(), f.line, f.code.clone());
    let seen: std::collections::BTreeSet<_> = reported
        .iter()
        .filter(|f| f.tool == "bandit")
        .map(key)
        .collect();
    all.into_iter()
        .filter(|f| !seen.contains(&key(f)))
        .collect()
}

/// Bandit's findings with `--ignore-nosec` (run beside the normal run; [`nosec_silenced`]).
fn bandit_ignoring_nosec(snap: &Snapshot, files: &[String], opts: &Options) -> Vec<Finding> {
    if files.is_empty() {
        return Vec::new();
    }
    let cmd = bandit_command(snap, files, opts, true);
    let Ok(ran) = run_with_timeout(cmd, opts.timeout) else {
        return Vec::new();
    };
    let Ok(report) = serde_json::from_slice::<Value>(&ran.stdout) else {
        return Vec::new();
    };
    bandit_findings(snap, &report)
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
        // The repository asks for semgrep: without it its rules went unchecked, so the verdict
        // is unknown, never a pass.
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            return tool_run(
                NAME,
                ToolStatus::Missing,
                files.len(),
                format!(
                    "configured ({config}) but not on PATH: install it where the gate runs (pip install semgrep); its rules were not checked on {} changed file(s)",
                    files.len()
                ),
            );
        }
        Err(e) => return not_started(NAME, files.len(), &e, "pip install semgrep"),
    };
    let mut run = started(NAME, files.len(), &ran);
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
            end_line: item
                .pointer("/end/line")
                .and_then(Value::as_u64)
                .and_then(|n| u32::try_from(n).ok()),
            message: item
                .pointer("/extra/message")
                .and_then(Value::as_str)
                .unwrap_or("")
                .to_string(),
            severity: level::semgrep(
                item.pointer("/extra/severity")
                    .and_then(Value::as_str)
                    .unwrap_or(""),
            )
            .into(),
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
