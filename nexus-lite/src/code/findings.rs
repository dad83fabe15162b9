//! Findings: what ruff and bandit say about an index run (run by `core::analyser`, the one
//! runner, under its timeout), SARIF and audit_ai imports, normalization, stable dedupe keys
//! and the audit-risk ranking of the spec's "Priorisation".

use crate::code::index::{AnomalyRow, GraphData};
use crate::core::analyser::severity::{self as level, Level};
use crate::core::analyser::{self, Ran, version};
use crate::core::util::sha256_hex;
use serde::Serialize;
use serde_json::Value;
use std::collections::HashMap;
use std::path::Path;
use std::sync::Arc;
use std::time::{Duration, Instant};

#[derive(Debug, Clone)]
pub struct RawFinding {
    pub source_tool: &'static str,
    pub finding_type: String,
    pub rule_id: String,
    pub path: String,
    pub line: Option<u32>,
    pub end_line: Option<u32>,
    pub message: String,
    pub severity: Level,
    pub confidence: Option<&'static str>,
    pub category: &'static str,
    pub false_positive: Option<String>,
}

/// One analyser's results for one file: its findings, or why it could not scan the file (its
/// findings are then unknown, not none).
#[derive(Debug, Clone, Default)]
pub struct FileResults {
    pub findings: Vec<RawFinding>,
    pub unscanned: Option<String>,
}

/// What one analyser run over some files gave: its findings, its status, and the files it
/// could not scan (path, why).
pub struct AnalyserRun {
    pub findings: Vec<RawFinding>,
    pub status: AnalyserStatus,
    pub unscanned: Vec<(String, String)>,
}

impl AnalyserRun {
    /// A run that gave nothing but its status (failed, missing, nothing to scan).
    pub fn only(status: AnalyserStatus) -> AnalyserRun {
        AnalyserRun {
            findings: Vec::new(),
            status,
            unscanned: Vec::new(),
        }
    }
}

/// The `skipped_file` anomaly of a file `tool` could not scan: its findings by that tool are
/// unknown, not none (also when the result is reused by content hash).
pub fn unscanned_anomaly(tool: &str, path: &str, reason: &str) -> AnomalyRow {
    AnomalyRow {
        kind: "skipped_file",
        path: path.to_string(),
        line: None,
        message: format!(
            "{path} was not scanned by {tool} ({reason}): its {tool} findings are unknown"
        ),
        severity: Level::Info,
        details: serde_json::json!({"tool": tool, "reason": reason}),
    }
}

/// What an analyser's status says beyond "ok": the files it could not scan (this run's and
/// those whose results were reused), and how much of the run reused stored results.
pub fn status_reason(
    tool: &str,
    unscanned: &[&str],
    ran_on: usize,
    reused: usize,
) -> Option<String> {
    let mut parts = Vec::new();
    if !unscanned.is_empty() {
        let shown: Vec<&str> = unscanned.iter().take(3).copied().collect();
        let more = match unscanned.len() - shown.len() {
            0 => String::new(),
            n => format!(" and {n} more"),
        };
        parts.push(format!(
            "{tool} could not scan {} file(s) ({}{more}): their findings are unknown",
            unscanned.len(),
            shown.join(", ")
        ));
    }
    if reused > 0 {
        parts.push(format!(
            "ran on {ran_on} changed file(s); results for {reused} unchanged file(s) reused by content hash"
        ));
    }
    (!parts.is_empty()).then(|| parts.join("; "))
}

#[derive(Debug, Clone, Serialize)]
pub struct AnalyserStatus {
    pub tool: String,
    pub status: &'static str,
    pub version: Option<String>,
    pub reason: Option<String>,
    pub findings: usize,
    #[serde(skip)]
    pub seconds: f64,
}

#[derive(Debug, Clone)]
pub struct Finding {
    pub raw: RawFinding,
    pub finding_id: i64,
    pub dedupe_key: String,
    pub symbol: Option<String>,
    pub rank: u8,
    pub rank_reason: String,
    pub cluster: Option<(String, usize)>,
    pub false_positive_hint: Option<String>,
}

/// Lowercases and replaces every non-alphanumeric run with `_`.
pub fn normalize(s: &str) -> String {
    let mut out = String::new();
    for c in s.chars() {
        if c.is_ascii_alphanumeric() {
            out.push(c.to_ascii_lowercase());
        } else if !out.ends_with('_') {
            out.push('_');
        }
    }
    out.trim_matches('_').to_string()
}

/// A printed path, repo-relative; a file outside the repository keeps only its name.
fn rel_path(root: &Path, p: &str) -> String {
    analyser::relative(root, p).unwrap_or_else(|| {
        let p = p.strip_prefix("file://").unwrap_or(p);
        Path::new(p)
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default()
    })
}

fn tool_version(program: &str, timeout: Duration) -> Option<String> {
    version::first_line(program, None, timeout)
}

/// Runs analyser `program` with `args` in `root` under the index's timeout: what it left, or
/// the status to report when it could not start or was killed.
fn spawn(
    program: &'static str,
    root: &Path,
    args: &[&str],
    files: &[String],
    timeout: Duration,
    started: Instant,
) -> Result<Ran, AnalyserStatus> {
    let mut cmd = analyser::command(program, None);
    cmd.current_dir(root).args(args).args(files);
    let ran = analyser::run(cmd, timeout).map_err(|e| not_found(program, &e))?;
    if ran.timed_out {
        return Err(AnalyserStatus {
            tool: program.into(),
            status: "unavailable",
            version: None,
            reason: Some(format!(
                "{program} was stopped after running longer than {} s ({}); its findings are unknown",
                timeout.as_secs(),
                analyser::TIMEOUT_ENV
            )),
            findings: 0,
            seconds: started.elapsed().as_secs_f64(),
        });
    }
    Ok(ran)
}

/// Why an analyser's output could not be read.
fn not_json(program: &str, ran: &Ran, e: &serde_json::Error) -> String {
    format!(
        "{program} exited with {} and its output is not JSON ({e}): {}",
        ran.status,
        ran.stderr_head(400)
    )
}

fn not_found(tool: &str, err: &std::io::Error) -> AnalyserStatus {
    let reason = if err.kind() == std::io::ErrorKind::NotFound {
        format!(
            "{tool} is not installed or not on PATH; install it (pip install {tool}) to get its findings"
        )
    } else {
        format!("cannot run {tool}: {err}")
    };
    AnalyserStatus {
        tool: tool.into(),
        status: "unavailable",
        version: None,
        reason: Some(reason),
        findings: 0,
        seconds: 0.0,
    }
}

fn failed(tool: &str, version: Option<String>, reason: String, started: Instant) -> AnalyserStatus {
    AnalyserStatus {
        tool: tool.into(),
        status: "failed",
        version,
        reason: Some(reason),
        findings: 0,
        seconds: started.elapsed().as_secs_f64(),
    }
}

/// Ruff rule code -> category (its severity is `core::analyser::severity::ruff`). Documented
/// in README.md.
pub fn ruff_category(code: Option<&str>, message: &str) -> &'static str {
    let Some(code) = code else {
        return "runtime"; // syntax error
    };
    // Syntax newer than the oldest Python fails on that Python: a runtime matter too.
    if level::ruff_cannot_run(code, message)
        || level::ruff_newer_syntax(message)
        || level::ruff_likely_bug(code)
    {
        "runtime"
    } else if level::ruff_security_number(code).is_some() {
        "security"
    } else if code.starts_with('F') {
        "maintainability"
    } else {
        "style"
    }
}

/// Runs `ruff check --output-format json` on the given files.
pub fn run_ruff(root: &Path, files: &[String]) -> AnalyserRun {
    let started = Instant::now();
    let timeout = analyser::timeout_from_env();
    let args = [
        "check",
        "--output-format",
        "json",
        "--no-cache",
        "--exit-zero",
        "--no-fix",
        // File names are never options (a tracked `--output-file=app.py` would overwrite app.py).
        "--",
    ];
    let out = match spawn("ruff", root, &args, files, timeout, started) {
        Ok(o) => o,
        Err(status) => return AnalyserRun::only(status),
    };
    let version = tool_version("ruff", timeout);
    let parsed: Value = match out.json() {
        Ok(v) => v,
        Err(e) => {
            let reason = not_json("ruff", &out, &e);
            return AnalyserRun::only(failed("ruff", version, reason, started));
        }
    };
    let mut found = Vec::new();
    for item in parsed.as_array().map(Vec::as_slice).unwrap_or(&[]) {
        let code = item.get("code").and_then(Value::as_str);
        let message = item.get("message").and_then(Value::as_str).unwrap_or("");
        let (severity, category) = (level::ruff(code, message), ruff_category(code, message));
        let line = item
            .pointer("/location/row")
            .and_then(Value::as_u64)
            .map(|n| n as u32);
        let end_line = item
            .pointer("/end_location/row")
            .and_then(Value::as_u64)
            .map(|n| n as u32);
        let path = rel_path(
            root,
            item.get("filename").and_then(Value::as_str).unwrap_or(""),
        );
        found.push(RawFinding {
            source_tool: "ruff",
            finding_type: match code {
                Some(c) => format!("ruff_{}", normalize(c)),
                None => "ruff_syntax_error".into(),
            },
            rule_id: code.unwrap_or("syntax-error").to_string(),
            path,
            line,
            end_line,
            message: message.to_string(),
            severity,
            confidence: None,
            category,
            false_positive: None,
        });
    }
    let status = AnalyserStatus {
        tool: "ruff".into(),
        status: "ok",
        version,
        reason: None,
        findings: found.len(),
        seconds: started.elapsed().as_secs_f64(),
    };
    AnalyserRun {
        findings: found,
        status,
        unscanned: Vec::new(),
    }
}

fn is_test_path(path: &str) -> bool {
    let name = path.rsplit('/').next().unwrap_or(path);
    path.split('/')
        .any(|seg| seg == "tests" || seg == "test" || seg == "testing")
        || name.starts_with("test_")
        || name.ends_with("_test.py")
        || name == "conftest.py"
}

fn level3(s: &str) -> Option<&'static str> {
    match s.to_ascii_lowercase().as_str() {
        "high" => Some("high"),
        "medium" => Some("medium"),
        "low" => Some("low"),
        _ => None,
    }
}

/// Runs `bandit -f json` on the given files.
pub fn run_bandit(root: &Path, files: &[String]) -> AnalyserRun {
    let started = Instant::now();
    let timeout = analyser::timeout_from_env();
    if files.is_empty() {
        return AnalyserRun::only(AnalyserStatus {
            tool: "bandit".into(),
            status: "ok",
            version: tool_version("bandit", timeout),
            reason: Some("no Python files to scan".into()),
            findings: 0,
            seconds: 0.0,
        });
    }
    // `--`: file names are never options (a tracked `--output=app.py` would overwrite app.py).
    let out = match spawn(
        "bandit",
        root,
        &["-f", "json", "-q", "--"],
        files,
        timeout,
        started,
    ) {
        Ok(o) => o,
        Err(status) => return AnalyserRun::only(status),
    };
    let version = tool_version("bandit", timeout);
    let parsed: Value = match out.json() {
        Ok(v) => v,
        Err(e) => {
            let reason = not_json("bandit", &out, &e);
            return AnalyserRun::only(failed("bandit", version, reason, started));
        }
    };
    let mut found = Vec::new();
    for item in parsed
        .get("results")
        .and_then(Value::as_array)
        .map(Vec::as_slice)
        .unwrap_or(&[])
    {
        let s = |k: &str| item.get(k).and_then(Value::as_str).unwrap_or("");
        let test_id = s("test_id");
        let path = rel_path(root, s("filename"));
        let line = item
            .get("line_number")
            .and_then(Value::as_u64)
            .map(|n| n as u32);
        let end_line = item
            .get("line_range")
            .and_then(Value::as_array)
            .and_then(|r| r.last())
            .and_then(Value::as_u64)
            .map(|n| n as u32);
        let fp = (test_id == "B101" && is_test_path(&path)).then(|| {
            "assert in test code is how pytest checks results; bandit B101 only matters in \
             production code that may run with -O"
                .to_string()
        });
        found.push(RawFinding {
            source_tool: "bandit",
            finding_type: format!(
                "bandit_{}_{}",
                normalize(test_id),
                normalize(s("test_name"))
            ),
            rule_id: test_id.to_string(),
            path,
            line,
            end_line,
            message: s("issue_text").to_string(),
            severity: level::bandit(s("issue_severity"), s("issue_confidence")),
            confidence: level3(s("issue_confidence")),
            category: "security",
            false_positive: fp,
        });
    }
    // Files bandit could not scan (a syntax error, an encoding): their findings are unknown.
    let unscanned: Vec<(String, String)> = parsed
        .get("errors")
        .and_then(Value::as_array)
        .map(Vec::as_slice)
        .unwrap_or(&[])
        .iter()
        .map(|e| {
            let s = |k: &str| e.get(k).and_then(Value::as_str).unwrap_or("");
            (rel_path(root, s("filename")), s("reason").to_string())
        })
        .collect();
    let status = AnalyserStatus {
        tool: "bandit".into(),
        status: "ok",
        version,
        reason: None,
        findings: found.len(),
        seconds: started.elapsed().as_secs_f64(),
    };
    AnalyserRun {
        findings: found,
        status,
        unscanned,
    }
}

/// Parses one SARIF 2.1.0 document.
pub fn parse_sarif(root: &Path, doc: &Value) -> Result<Vec<RawFinding>, String> {
    let runs = doc
        .get("runs")
        .and_then(Value::as_array)
        .ok_or("not a SARIF document: no `runs` array")?;
    let mut found = Vec::new();
    for run in runs {
        let tool = run
            .pointer("/tool/driver/name")
            .and_then(Value::as_str)
            .unwrap_or("sarif");
        let is_osv = tool.to_ascii_lowercase().contains("osv");
        let mut rules: HashMap<&str, &Value> = HashMap::new();
        for rule in run
            .pointer("/tool/driver/rules")
            .and_then(Value::as_array)
            .map(Vec::as_slice)
            .unwrap_or(&[])
        {
            if let Some(id) = rule.get("id").and_then(Value::as_str) {
                rules.insert(id, rule);
            }
        }
        for result in run
            .get("results")
            .and_then(Value::as_array)
            .map(Vec::as_slice)
            .unwrap_or(&[])
        {
            let rule_id = result
                .get("ruleId")
                .and_then(Value::as_str)
                .unwrap_or("unknown");
            let rule = rules.get(rule_id);
            let sec = rule
                .and_then(|r| r.pointer("/properties/security-severity"))
                .and_then(|v| {
                    v.as_f64()
                        .or_else(|| v.as_str().and_then(|s| s.parse().ok()))
                });
            let level = result.get("level").and_then(Value::as_str).or_else(|| {
                rule.and_then(|r| r.pointer("/defaultConfiguration/level"))
                    .and_then(Value::as_str)
            });
            let loc = result.pointer("/locations/0/physicalLocation");
            let uri = loc
                .and_then(|l| l.pointer("/artifactLocation/uri"))
                .and_then(Value::as_str)
                .unwrap_or("");
            let line = loc
                .and_then(|l| l.pointer("/region/startLine"))
                .and_then(Value::as_u64)
                .map(|n| n as u32);
            let end_line = loc
                .and_then(|l| l.pointer("/region/endLine"))
                .and_then(Value::as_u64)
                .map(|n| n as u32);
            let message = result
                .pointer("/message/text")
                .and_then(Value::as_str)
                .unwrap_or(rule_id)
                .to_string();
            found.push(RawFinding {
                source_tool: if is_osv { "osv" } else { "sarif" },
                finding_type: if is_osv {
                    format!("osv_{}", normalize(rule_id))
                } else {
                    format!("sarif_{}_{}", normalize(tool), normalize(rule_id))
                },
                rule_id: rule_id.to_string(),
                path: rel_path(root, uri),
                line: if is_osv { None } else { line },
                end_line: if is_osv { None } else { end_line },
                message,
                severity: level::sarif(level, sec),
                confidence: None,
                category: "security",
                false_positive: None,
            });
        }
    }
    Ok(found)
}

/// Parses an audit_ai JSON document (format in README.md).
pub fn parse_audit_ai(doc: &Value) -> Result<Vec<RawFinding>, String> {
    let items = doc
        .get("findings")
        .and_then(Value::as_array)
        .ok_or("not an audit_ai document: no `findings` array")?;
    let mut found = Vec::new();
    for (i, item) in items.iter().enumerate() {
        let s = |k: &str| item.get(k).and_then(Value::as_str);
        let rule_id = s("rule_id").ok_or(format!("findings[{i}] has no rule_id"))?;
        let path = s("path").ok_or(format!("findings[{i}] has no path"))?;
        let message = s("message").ok_or(format!("findings[{i}] has no message"))?;
        let severity = s("severity").unwrap_or("medium");
        let severity = Level::parse(severity).ok_or_else(|| {
            format!(
                "findings[{i}].severity `{severity}` is not one of critical|high|medium|low|info"
            )
        })?;
        let category = match s("category").unwrap_or("security") {
            "security" => "security",
            "runtime" => "runtime",
            "architecture" => "architecture",
            "maintainability" => "maintainability",
            "style" => "style",
            other => {
                return Err(format!(
                    "findings[{i}].category `{other}` is not one of security|runtime|architecture|maintainability|style"
                ));
            }
        };
        let fp = item
            .get("false_positive")
            .and_then(Value::as_bool)
            .unwrap_or(false);
        found.push(RawFinding {
            source_tool: "audit_ai",
            finding_type: format!("audit_ai_{}", normalize(rule_id)),
            rule_id: rule_id.to_string(),
            path: path.trim_start_matches("./").to_string(),
            line: item.get("line").and_then(Value::as_u64).map(|n| n as u32),
            end_line: item
                .get("end_line")
                .and_then(Value::as_u64)
                .map(|n| n as u32),
            message: message.to_string(),
            severity,
            confidence: s("confidence").and_then(level3),
            category,
            false_positive: fp.then(|| {
                s("false_positive_reason")
                    .unwrap_or("marked as a false positive by the audit")
                    .to_string()
            }),
        });
    }
    Ok(found)
}

/// Reads `*.sarif`, `*.sarif.json` and `*.audit_ai.json` from an imports directory.
pub fn import_dir(root: &Path, dir: &Path) -> (Vec<RawFinding>, Vec<AnalyserStatus>) {
    let mut found = Vec::new();
    let mut osv = AnalyserStatus {
        tool: "osv".into(),
        status: "unavailable",
        version: None,
        reason: Some(
            "no osv-scanner SARIF imported; put `osv-scanner --format sarif` output in the data \
             directory under imports/<owner>/<name>/"
                .into(),
        ),
        findings: 0,
        seconds: 0.0,
    };
    let mut audit = AnalyserStatus {
        tool: "audit_ai".into(),
        status: "unavailable",
        version: None,
        reason: Some(
            "no audit_ai file imported; put <anything>.audit_ai.json in the data directory under \
             imports/<owner>/<name>/"
                .into(),
        ),
        findings: 0,
        seconds: 0.0,
    };
    let mut others: Vec<AnalyserStatus> = Vec::new();
    let mut entries: Vec<_> = std::fs::read_dir(dir)
        .map(|rd| rd.filter_map(Result::ok).map(|e| e.path()).collect())
        .unwrap_or_default();
    entries.sort();
    for path in entries {
        let name = path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        let is_sarif = name.ends_with(".sarif") || name.ends_with(".sarif.json");
        let is_audit = name.ends_with(".audit_ai.json");
        if !is_sarif && !is_audit {
            continue;
        }
        let parsed = std::fs::read(&path)
            .map_err(|e| format!("cannot read {name}: {e}"))
            .and_then(|b| {
                serde_json::from_slice::<Value>(&b).map_err(|e| format!("{name} is not JSON: {e}"))
            })
            .and_then(|doc| {
                if is_audit {
                    parse_audit_ai(&doc)
                } else {
                    parse_sarif(root, &doc)
                }
                .map_err(|e| format!("{name}: {e}"))
            });
        match parsed {
            Ok(items) => {
                let n_osv = items.iter().filter(|f| f.source_tool == "osv").count();
                let n_audit = items.iter().filter(|f| f.source_tool == "audit_ai").count();
                let n_sarif = items.iter().filter(|f| f.source_tool == "sarif").count();
                if is_audit {
                    audit.status = "ok";
                    audit.reason = None;
                    audit.findings += n_audit;
                } else if n_osv > 0 || name.contains("osv") {
                    osv.status = "ok";
                    osv.reason = None;
                    osv.findings += n_osv;
                }
                if n_sarif > 0 {
                    others.push(AnalyserStatus {
                        tool: "sarif".into(),
                        status: "ok",
                        version: None,
                        reason: Some(format!("imported from {name}")),
                        findings: n_sarif,
                        seconds: 0.0,
                    });
                }
                found.extend(items);
            }
            Err(reason) => {
                let st = if is_audit { &mut audit } else { &mut osv };
                st.status = "failed";
                st.reason = Some(reason);
            }
        }
    }
    let mut statuses = vec![osv, audit];
    statuses.extend(others);
    (found, statuses)
}

/// nexus_kg findings: one per anomaly, except `dynamic_use` (a fact impact answers rely on,
/// not a defect to fix).
pub fn from_anomalies(anomalies: &[AnomalyRow]) -> Vec<RawFinding> {
    anomalies
        .iter()
        .filter(|a| a.kind != "dynamic_use")
        .map(|a| RawFinding {
            source_tool: "nexus_kg",
            finding_type: format!("nexus_kg_{}", a.kind),
            rule_id: a.kind.to_string(),
            path: a.path.clone(),
            line: a.line,
            end_line: a.line,
            message: a.message.clone(),
            severity: a.severity,
            confidence: Some("high"),
            category: match a.kind {
                "parse_error" | "unresolved_import" => "runtime",
                "import_cycle" => "architecture",
                _ => "maintainability",
            },
            false_positive: None,
        })
        .collect()
}

fn is_blocking(f: &RawFinding) -> Option<&'static str> {
    match (f.source_tool, f.rule_id.as_str()) {
        ("nexus_kg", "parse_error") => Some("blocking: the file does not parse"),
        ("nexus_kg", "unresolved_import") => Some("blocking: an internal import does not resolve"),
        ("ruff", "syntax-error" | "invalid-syntax")
            if level::ruff_cannot_run(&f.rule_id, &f.message) =>
        {
            Some("blocking: syntax error reported by ruff")
        }
        ("ruff", code) if level::ruff_cannot_run(code, &f.message) => {
            Some("blocking: probable runtime error")
        }
        _ => None,
    }
}

/// Ranks one finding (1..=6) with the reason, following the spec's Priorisation.
pub fn rank(f: &RawFinding, cluster: Option<&(String, usize)>) -> (u8, String) {
    if let Some(fp) = &f.false_positive {
        return (
            6,
            format!("documented false positive, do not fix blindly: {fp}"),
        );
    }
    if let Some(why) = is_blocking(f) {
        return (2, why.to_string());
    }
    let high = f.severity <= Level::High;
    if high && f.line.is_some() && !f.path.is_empty() {
        return (
            1,
            format!(
                "{} severity, actionable at {}:{}",
                f.severity.as_str(),
                f.path,
                f.line.unwrap_or(0)
            ),
        );
    }
    if high {
        return (
            3,
            format!(
                "{} severity {} finding without a line (fix at the dependency or file level)",
                f.severity.as_str(),
                f.category
            ),
        );
    }
    if f.severity == Level::Medium && matches!(f.category, "security" | "runtime" | "architecture")
    {
        return (3, format!("medium severity with {} impact", f.category));
    }
    if f.severity == Level::Medium {
        return match cluster {
            Some((key, size)) => (
                4,
                format!(
                    "part of a homogeneous cluster of {size} {key} findings: fix them as one batch"
                ),
            ),
            None => (4, format!("medium severity {} finding", f.category)),
        };
    }
    (
        5,
        format!(
            "{} severity: review only on request or in a dedicated batch",
            f.severity.as_str()
        ),
    )
}

/// A file's bytes and where its lines start, read once for all the findings in it.
struct Text {
    bytes: Arc<Vec<u8>>,
    starts: Vec<usize>,
}

impl Text {
    /// The indexed content of `path`, else the file of the work tree if it is a regular file
    /// inside it (no `..`, no symlink out, not over the indexer's size limit).
    fn of(data: &GraphData, root: &Path, path: &str) -> Option<Text> {
        let bytes = match data.contents.get(path) {
            Some(b) => b.clone(),
            None => {
                let full = root.join(path);
                let regular = std::fs::symlink_metadata(&full)
                    .map(|m| m.is_file() && m.len() <= crate::code::index::MAX_FILE_BYTES)
                    .unwrap_or(false);
                if path.contains("..") || Path::new(path).is_absolute() || !regular {
                    return None;
                }
                Arc::new(std::fs::read(full).ok()?)
            }
        };
        let starts = std::iter::once(0)
            .chain(
                bytes
                    .iter()
                    .enumerate()
                    .filter(|(_, c)| **c == b'\n')
                    .map(|(i, _)| i + 1),
            )
            .collect();
        Some(Text { bytes, starts })
    }

    /// Line `line` (from 1), trimmed.
    fn line(&self, line: u32) -> Option<String> {
        let i = line.saturating_sub(1) as usize;
        let start = *self.starts.get(i)?;
        let end = self.starts.get(i + 1).map_or(self.bytes.len(), |s| s - 1);
        let text = self.bytes.get(start..end.max(start))?;
        Some(String::from_utf8_lossy(text).trim().to_string())
    }
}

/// Turns raw findings into stored findings: anchors, dedupe keys, symbols, ranks.
pub fn finalize(mut raw: Vec<RawFinding>, data: &GraphData, root: &Path) -> Vec<Finding> {
    raw.sort_by(|a, b| {
        (a.source_tool, &a.finding_type, &a.path, a.line, &a.message).cmp(&(
            b.source_tool,
            &b.finding_type,
            &b.path,
            b.line,
            &b.message,
        ))
    });
    let mut clusters: HashMap<(String, String), usize> = HashMap::new();
    for f in &raw {
        if matches!(f.source_tool, "ruff" | "bandit") {
            *clusters
                .entry((f.source_tool.to_string(), f.finding_type.clone()))
                .or_default() += 1;
        }
    }
    let mut texts: HashMap<String, Option<Text>> = HashMap::new();
    let mut occurrences: HashMap<String, usize> = HashMap::new();
    let mut out = Vec::with_capacity(raw.len());
    for (i, f) in raw.into_iter().enumerate() {
        let text_line = f.line.and_then(|line| {
            texts
                .entry(f.path.clone())
                .or_insert_with(|| Text::of(data, root, &f.path))
                .as_ref()?
                .line(line)
        });
        let anchor = sha256_hex(text_line.unwrap_or_default().as_bytes());
        let occ_key = format!(
            "{}\0{}\0{}\0{}",
            f.source_tool, f.finding_type, f.path, anchor
        );
        let occ = occurrences.entry(occ_key.clone()).or_default();
        let dedupe_key = sha256_hex(format!("{occ_key}\0{occ}").as_bytes());
        *occ += 1;
        let symbol = f.line.and_then(|line| {
            let (module, parse) = data.parses.get(&f.path)?;
            parse
                .symbols
                .iter()
                .filter(|s| s.line <= line && line <= s.end_line)
                .max_by_key(|s| s.line)
                .map(|s| format!("{module}.{}", s.local_qname))
        });
        let cluster = clusters
            .get(&(f.source_tool.to_string(), f.finding_type.clone()))
            .filter(|n| **n >= 2)
            .map(|n| (format!("{}:{}", f.source_tool, f.finding_type), *n));
        let (rank, rank_reason) = rank(&f, cluster.as_ref());
        out.push(Finding {
            false_positive_hint: f.false_positive.clone(),
            raw: f,
            finding_id: i as i64 + 1,
            dedupe_key,
            symbol,
            rank,
            rank_reason,
            cluster,
        });
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn normalization_rules() {
        assert_eq!(normalize("B324"), "b324");
        assert_eq!(normalize("GHSA-abcd-1234"), "ghsa_abcd_1234");
        assert_eq!(ruff_category(Some("F821"), ""), "runtime");
        assert_eq!(ruff_category(Some("F401"), ""), "maintainability");
        assert_eq!(ruff_category(Some("S602"), ""), "security");
        assert_eq!(ruff_category(Some("SIM108"), ""), "style");
        assert_eq!(ruff_category(None, ""), "runtime");
    }

    #[test]
    fn ranking_follows_priorisation() {
        let base = RawFinding {
            source_tool: "bandit",
            finding_type: "bandit_b324_hashlib".into(),
            rule_id: "B324".into(),
            path: "a.py".into(),
            line: Some(3),
            end_line: Some(3),
            message: "weak hash".into(),
            severity: Level::High,
            confidence: Some("high"),
            category: "security",
            false_positive: None,
        };
        assert_eq!(rank(&base, None).0, 1);
        let mut m = base.clone();
        m.severity = Level::Medium;
        assert_eq!(rank(&m, None).0, 3);
        let mut l = base.clone();
        l.severity = Level::Low;
        assert_eq!(rank(&l, None).0, 5);
        let mut fp = base.clone();
        fp.false_positive = Some("test code".into());
        assert_eq!(rank(&fp, None).0, 6);
        let mut pe = base.clone();
        pe.source_tool = "nexus_kg";
        pe.rule_id = "parse_error".into();
        assert_eq!(rank(&pe, None).0, 2);
        // ruff: a syntax error blocks; syntax newer than the oldest Python is a warning.
        let mut syntax = base.clone();
        syntax.source_tool = "ruff";
        syntax.rule_id = "invalid-syntax".into();
        syntax.message = "Expected an expression".into();
        assert_eq!(rank(&syntax, None).0, 2);
        let mut newer = syntax.clone();
        newer.message =
            "Cannot use `match` statement on Python 3.7 (syntax was added in Python 3.10)".into();
        newer.severity = level::ruff(Some("invalid-syntax"), &newer.message);
        assert_eq!(rank(&newer, None).0, 3);
    }
}
