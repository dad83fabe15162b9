//! `nexus-mcp gate`: what CI runs on a change. It analyses `base...head` locally (the library
//! in `nexus_lite::rules::gate`), stores the record through the Nexus API (`POST
//! /api/v1/rules/gate-results` on NEXUS_API_URL, or on the local nexus-lite of the same
//! data directory as `serve`), prints a short summary on stdout and exits 1 when blocking,
//! 2 when the verdict is unknown (the change or part of it could not be analysed, or the record
//! was not stored), 0 only for a complete clean run. Logs go to stderr.

use crate::cli::nexus::{Connection, Remote};
use crate::cli::terminal::{text, workflow_data, workflow_property};
use crate::local_nexus::Client;
use crate::runtime::backend::{NexusClient, NexusRequest};
use nexus_lite::rules::gate::model::{GateRecord, GateStatus, ToolStatus};
use nexus_lite::rules::gate::severity::Severity;
use nexus_lite::rules::gate::{self, tools};
use serde_json::Value;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Duration;

#[derive(clap::Args, Debug)]
pub struct GateArgs {
    /// The branch or commit the change merges into (its playbook rules are binding).
    #[arg(long)]
    pub base: String,
    /// The change's head commit (branch, tag or sha).
    #[arg(long)]
    pub head: String,
    /// Pull-request number, recorded with the result. Empty (`--pr ""`, what Actions writes for
    /// `github.event.pull_request.number` on a push) means no pull request: a whole-file run.
    #[arg(long, value_parser = parse_pr)]
    pub pr: Option<Pr>,
    /// Analyse every Python file of head and put every finding in the SARIF (what code
    /// scanning compares a pull request's alerts with, on a push to the default branch): the
    /// verdict gates nothing, so the record is not stored and the exit code is 0 unless an
    /// analyser is missing or failed (2).
    #[arg(long)]
    pub whole_files: bool,
    /// Also write the violations as SARIF 2.1.0 to this file (for code-scanning upload).
    #[arg(long)]
    pub sarif: Option<PathBuf>,
    /// The repository to analyse (any path inside its work tree).
    #[arg(long, default_value = ".")]
    pub repo: PathBuf,
    /// The repository's name in the Nexus API (default: owner/name of its origin remote, else
    /// local/<directory>).
    #[arg(long)]
    pub repository: Option<String>,
    /// Data directory of the local nexus-lite (the one `serve` uses, shared with the running servers), when NEXUS_API_URL is unset.
    #[arg(long)]
    pub data_dir: Option<PathBuf>,
    /// Print the stored record as JSON on stdout instead of the summary.
    #[arg(long)]
    pub json: bool,
    /// `github`: before the summary, one GitHub Actions workflow command per violation
    /// (`::error file=…,line=…::…`), which Actions shows on the pull request's lines without
    /// code scanning.
    #[arg(long, value_enum, default_value_t = Format::Text, conflicts_with = "json")]
    pub format: Format,
    /// Write the change's violations as waivers into the work tree's `.nexus/baseline.yaml`
    /// (kept entries stay; nothing is stored), for a person to give reasons, review and commit.
    #[arg(long, conflicts_with_all = ["json", "sarif", "pr"])]
    pub write_baseline: bool,
    /// Seconds each analyser may run before it is stopped (and reported failed).
    #[arg(long, default_value_t = 600)]
    pub analyser_timeout: u64,
}

/// `--pr`: a pull-request number, or none (an empty value).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Pr(pub Option<u64>);

fn parse_pr(value: &str) -> Result<Pr, String> {
    if value.trim().is_empty() {
        return Ok(Pr(None));
    }
    match value.trim().parse::<u64>() {
        Ok(n) if n >= 1 => Ok(Pr(Some(n))),
        _ => Err(format!(
            "`{value}` is not a pull-request number: pass the number (1 or more), or an empty value on a push (no pull request)"
        )),
    }
}

impl GateArgs {
    /// The pull request's number, if the run is one's.
    pub fn pr_number(&self) -> Option<u64> {
        self.pr.and_then(|p| p.0)
    }

    /// A whole-file run: asked for, or no pull request named where one could be (`--pr ""`).
    pub fn whole(&self) -> bool {
        self.whole_files || self.pr == Some(Pr(None))
    }
}

/// How the gate prints its result on stdout (besides `--json`).
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// The summary for a person.
    Text,
    /// Workflow-command annotations, then the summary.
    Github,
}

/// Runs the gate command against `nexus` (--nexus-url), or the local nexus-lite.
pub async fn run(args: &GateArgs, nexus: Option<Remote<'_>>) -> Result<ExitCode, String> {
    let root = nexus_lite::git::toplevel(&args.repo).map_err(|e| e.to_string())?;
    // The analysis and the connection (which may start the local nexus-lite) overlap; the
    // repository's name, which only the connection knows, is set on the record after.
    let analysis = tokio::task::spawn_blocking({
        let root = root.clone();
        let (base, head, pr) = (args.base.clone(), args.head.clone(), args.pr_number());
        let options = tools::Options {
            timeout: Duration::from_secs(args.analyser_timeout.max(1)),
            version_cache: Some(
                args.data_dir
                    .clone()
                    .unwrap_or_else(nexus_lite::default_data_dir)
                    .join("analyser-versions"),
            ),
            whole_files: args.whole(),
            ..tools::Options::default()
        };
        move || {
            let req = gate::GateRequest {
                repo_root: &root,
                repository: String::new(),
                base: &base,
                head: &head,
                pr,
                options,
            };
            gate::run(&req, &gate::default_playbook())
        }
    });
    if args.whole() {
        // Nothing is stored (the run gates nothing), so no Nexus is reached.
        let mut record = analysis
            .await
            .map_err(|e| format!("the gate's analysis task failed: {e}"))?
            .map_err(|e| format!("the gate could not analyse {}: {e}", root.display()))?;
        record.repository = nexus_lite::core::repos::repo_name(args.repository.as_deref(), &root);
        return store_and_report(args, &root, record, None).await;
    }
    let connected = Connection::for_work_tree(
        nexus,
        &root,
        args.repository.as_deref(),
        args.data_dir.clone(),
        Client {
            kind: "gate",
            surface: None,
            routes: vec![("POST", gate::api::PATH)],
        },
    )
    .await;
    let mut record = analysis
        .await
        .map_err(|e| format!("the gate's analysis task failed: {e}"))?
        .map_err(|e| format!("the gate could not analyse {}: {e}", root.display()))?;
    let (_, conn) = connected?;
    record.repository = conn.repository;
    store_and_report(args, &root, record, Some(&conn.client)).await
}

/// Writes the SARIF, stores the record through `client` (none on a whole-file run), prints
/// the result and says the exit code.
async fn store_and_report(
    args: &GateArgs,
    root: &Path,
    mut record: GateRecord,
    client: Option<&NexusClient>,
) -> Result<ExitCode, String> {
    redact(&mut record);
    if args.write_baseline {
        return write_baseline(root, &record);
    }
    if let Some(path) = &args.sarif {
        let timeout = Duration::from_secs(args.analyser_timeout.max(1));
        let help = rule_help(args, root, &record, timeout).await;
        let sarif = gate::sarif::write_with_help(&record, &help);
        let text = serde_json::to_string_pretty(&sarif).map_err(|e| e.to_string())?;
        std::fs::write(path, text)
            .map_err(|e| format!("cannot write the SARIF file {}: {e}", path.display()))?;
        tracing::info!(path = %path.display(), "SARIF written");
    }
    let body = serde_json::to_value(&record).map_err(|e| e.to_string())?;
    let stored = match client {
        // Storing one verdict twice is harmless: sent again if the local Nexus died meanwhile.
        Some(client) => Some(
            client
                .send(
                    &NexusRequest::post(gate::api::PATH, body).replay_safe(),
                    None,
                )
                .await,
        ),
        None => None,
    };
    let verdict = record.verdict();
    let whole = stored.is_none();
    let stored_value = stored.as_ref().and_then(|s| s.as_ref().ok());
    if args.json {
        let out = serde_json::json!({
            "record": record,
            "wholeFiles": whole,
            "stored": stored_value,
            "storeError": stored.as_ref().and_then(|s| s.as_ref().err()).map(ToString::to_string),
            "status": verdict.status.as_str(),
            "blocking": verdict.blocking,
            "blockingCount": verdict.blocking_count,
            "detailComplete": verdict.detail_complete,
        });
        println!(
            "{}",
            serde_json::to_string_pretty(&out).map_err(|e| e.to_string())?
        );
    } else {
        if args.format == Format::Github {
            print!("{}", annotations(&record));
        }
        print!(
            "{}",
            summary(&record, stored_value, args.sarif.as_deref(), whole)
        );
    }
    if whole {
        // The verdict gates nothing: only an analysis that is not complete says so (exit 2).
        return Ok(match verdict.status {
            GateStatus::Ok | GateStatus::Failed => ExitCode::SUCCESS,
            _ => ExitCode::from(2),
        });
    }
    let store_failed = match &stored {
        Some(Ok(_)) | None => false,
        Some(Err(e)) => {
            eprintln!(
                "nexus-mcp gate: the analysis ran but its record was not stored ({}); get_gate_result will not find it. Check NEXUS_API_URL / NEXUS_API_TOKEN (or --data-dir) and run the gate again",
                text(&e.to_string())
            );
            true
        }
    };
    // Only a complete clean run passes: an unknown verdict (an analyser missing or crashing)
    // must not read as a green check.
    Ok(match verdict.blocking {
        Some(true) => ExitCode::from(1),
        Some(false) if !store_failed => ExitCode::SUCCESS,
        _ => ExitCode::from(2),
    })
}

/// `--write-baseline`: the run's violations added to the work tree's baseline file.
fn write_baseline(root: &Path, record: &GateRecord) -> Result<ExitCode, String> {
    use gate::baseline::{self, BASELINE_FILE};
    let file = root.join(BASELINE_FILE);
    let existing = match std::fs::read_to_string(&file) {
        Ok(t) => baseline::parse(&t, "the work tree").map_err(|e| e.to_string())?,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => baseline::Baseline::default(),
        Err(e) => return Err(format!("cannot read {}: {e}", file.display())),
    };
    let before = existing.waivers.len();
    let prints = gate::head_fingerprints(root, &record.head_sha, &record.violations);
    let reason = format!(
        "existing finding at {}: give the reason it is accepted",
        gate::short(&record.head_sha)
    );
    let book = baseline::with_waivers(existing, &record.violations, &prints, &reason);
    let yaml = baseline::render(&book).map_err(|e| e.to_string())?;
    if let Some(dir) = file.parent() {
        std::fs::create_dir_all(dir)
            .map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    }
    std::fs::write(&file, yaml).map_err(|e| format!("cannot write {}: {e}", file.display()))?;
    println!(
        "wrote {} new waiver(s) ({} in all) to {}\n  next: write each waiver's reason, then commit {BASELINE_FILE}; the gate applies it once it is on the base branch",
        book.waivers.len() - before,
        book.waivers.len(),
        text(&file.display().to_string())
    );
    Ok(ExitCode::SUCCESS)
}

/// Help for the SARIF's rules, cached per analyser version in the data directory (the local
/// one even when the record goes to a remote Nexus), redacted as the record is.
async fn rule_help(
    args: &GateArgs,
    root: &Path,
    record: &GateRecord,
    timeout: Duration,
) -> gate::rule_help::HelpBook {
    let cache = args
        .data_dir
        .clone()
        .unwrap_or_else(nexus_lite::default_data_dir);
    let (root, record) = (root.to_path_buf(), record.clone());
    let options = tools::Options {
        timeout,
        ..tools::Options::default()
    };
    let mut help = tokio::task::spawn_blocking(move || {
        gate::rule_help::for_record(&record, &root, Some(&cache), &options)
    })
    .await
    .unwrap_or_default();
    for h in help.values_mut() {
        for t in [&mut h.short, &mut h.full, &mut h.markdown] {
            crate::runtime::redact::redact_text(t);
        }
    }
    help
}

/// Redacts the secrets analysers quote (bandit's B105–B107 print the hardcoded password) and
/// the added lines the record quotes, as MCP answers are, before the record is printed,
/// written as SARIF or stored.
fn redact(record: &mut GateRecord) {
    use crate::runtime::redact::redact_text;
    let waived = record.waived.iter_mut().map(|w| &mut w.violation);
    for v in record.violations.iter_mut().chain(waived) {
        redact_text(&mut v.comment);
        if let Some(s) = &mut v.suggestion {
            redact_text(s);
        }
    }
    for t in &mut record.tools {
        t.errors.iter_mut().for_each(|e| {
            redact_text(e);
        });
        if let Some(r) = &mut t.reason {
            redact_text(r);
        }
    }
    for s in &mut record.skipped_files {
        redact_text(&mut s.reason);
    }
    for r in &mut record.unreviewed_rules {
        redact_text(&mut r.title);
        if let Some(w) = &mut r.what {
            redact_text(w);
        }
    }
}

/// Violations printed in the summary at most (all of them are in the record and the SARIF).
const SUMMARY_VIOLATIONS: usize = 20;

/// The short human summary printed on stdout; `whole`: a whole-file run (nothing stored).
pub fn summary(
    record: &GateRecord,
    stored: Option<&Value>,
    sarif: Option<&Path>,
    whole: bool,
) -> String {
    let v = record.verdict();
    let mut out = String::new();
    let pr = record.pr.map(|p| format!(" pr {p}")).unwrap_or_default();
    let headline = match v.status {
        GateStatus::Ok | GateStatus::Failed if whole => {
            "WHOLE FILES (no pull request: the findings gate nothing)".to_string()
        }
        _ if whole => "WHOLE FILES, INCOMPLETE: not every finding is known".to_string(),
        GateStatus::Ok => "PASSED".to_string(),
        GateStatus::Failed => "FAILED".to_string(),
        GateStatus::Partial if v.blocking == Some(true) => "FAILED (partial analysis)".to_string(),
        GateStatus::Partial => "INCOMPLETE: not a clean result".to_string(),
        GateStatus::Unavailable => "UNAVAILABLE: the change was not analysed".to_string(),
    };
    let _ = writeln!(out, "gate {}{pr}: {headline}", text(&record.repository));
    if whole {
        let _ = writeln!(
            out,
            "  {} ({} Python file(s) of head analysed, every line)",
            ref_and_sha(record.head_ref.as_deref(), &record.head_sha),
            record.files_changed.unwrap_or(0)
        );
        let _ = writeln!(
            out,
            "  {} finding(s), {} of error severity",
            record.violations.len(),
            v.blocking_count
        );
    } else {
        let _ = writeln!(
            out,
            "  {} -> {} ({} file(s) changed)",
            ref_and_sha(record.base_ref.as_deref(), &record.base_sha),
            ref_and_sha(record.head_ref.as_deref(), &record.head_sha),
            record.files_changed.unwrap_or(0)
        );
        let _ = writeln!(out, "  {}", text(&v.note));
        let _ = writeln!(
            out,
            "  {} violation(s) on changed lines, {} blocking",
            record.violations.len(),
            v.blocking_count
        );
    }
    for viol in record.violations.iter().take(SUMMARY_VIOLATIONS) {
        let line = viol.line.map(|l| format!(":{l}")).unwrap_or_default();
        let _ = writeln!(
            out,
            "  {:<8} {}{line}  {}  {}",
            viol.severity.as_str(),
            text(&viol.path),
            text(&viol.rule_id),
            one_line(&viol.comment)
        );
    }
    if record.violations.len() > SUMMARY_VIOLATIONS {
        let _ = writeln!(
            out,
            "  ... and {} more (see the record or the SARIF file)",
            record.violations.len() - SUMMARY_VIOLATIONS
        );
    }
    if !record.waived.is_empty() {
        let _ = writeln!(
            out,
            "  {} finding(s) waived by the base's {} (suppressed, not counted)",
            record.waived.len(),
            gate::baseline::BASELINE_FILE
        );
    }
    for n in &record.waiver_notes {
        let _ = writeln!(
            out,
            "  waiver {} {}: {}",
            text(&n.state),
            text(&n.rule),
            one_line(&n.message)
        );
    }
    let tools: Vec<String> = record
        .tools
        .iter()
        .map(|t| {
            let status = match t.status {
                ToolStatus::Ok => "ok",
                ToolStatus::Partial => "PARTIAL",
                ToolStatus::Failed => "FAILED",
                ToolStatus::Missing => "MISSING",
                ToolStatus::Skipped => "skipped",
            };
            match &t.version {
                Some(ver) => format!("{} {} {status}", text(&t.name), text(ver)),
                None => format!("{} {status}", text(&t.name)),
            }
        })
        .collect();
    let _ = writeln!(out, "  tools: {}", tools.join(", "));
    for t in record.tools.iter().filter(|t| !t.status.complete()) {
        if let Some(reason) = &t.reason {
            let _ = writeln!(out, "    {}: {}", text(&t.name), one_line(reason));
        }
    }
    if !record.skipped_files.is_empty() {
        let _ = writeln!(
            out,
            "  {} file(s) not fully analysed:",
            record.skipped_files.len()
        );
        for s in record.skipped_files.iter().take(10) {
            // Never a file name first on a line: `::error …` there is a command to GitHub
            // Actions, which reads the gate's output.
            let _ = writeln!(out, "    - {} ({})", text(&s.path), one_line(&s.reason));
        }
    }
    if !record.unreviewed_rules.is_empty() {
        let _ = writeln!(
            out,
            "  unreviewed changes (listed, not enforced; with a suppression or analyser configuration among them, no agent's pass is witnessed):"
        );
        for r in &record.unreviewed_rules {
            let _ = writeln!(
                out,
                "    {} {} ({}): {}",
                text(&r.change),
                text(&r.rule_id),
                text(&r.path),
                one_line(&r.title)
            );
        }
    }
    match stored.and_then(|s| s["recordId"].as_str()) {
        _ if whole => {
            let _ = writeln!(
                out,
                "  record not stored: a whole-file run gates no pull request and witnesses no claim"
            );
        }
        Some(id) => {
            let _ = writeln!(
                out,
                "  record {} stored; agents read it with get_gate_result",
                text(id)
            );
        }
        None => {
            let _ = writeln!(out, "  record NOT stored (see stderr)");
        }
    }
    if let Some(p) = sarif {
        let _ = writeln!(out, "  SARIF written to {}", text(&p.display().to_string()));
    }
    out
}

/// One GitHub Actions workflow command per violation (`::error file=app.py,line=5,title=
/// bandit:B602::…`), as `ruff --output-format github` prints them; values escaped by
/// [`workflow_property`] and [`workflow_data`], so a file name or message is never a command.
pub fn annotations(record: &GateRecord) -> String {
    let mut out = String::new();
    for v in &record.violations {
        let level = match v.severity {
            Severity::Error => "error",
            Severity::Warning => "warning",
            Severity::Note => "notice",
        };
        let line = v.line.map(|l| format!(",line={l}")).unwrap_or_default();
        let message = match &v.suggestion {
            Some(fix) => format!("{} (fix: {fix})", v.comment),
            None => v.comment.clone(),
        };
        let _ = writeln!(
            out,
            "::{level} file={}{line},title={}::{}",
            workflow_property(&v.path),
            workflow_property(&v.rule_id),
            workflow_data(&message)
        );
    }
    out
}

fn ref_and_sha(r: Option<&str>, sha: &str) -> String {
    let short = text(gate::short(sha));
    match r {
        Some(r) if !sha.starts_with(r) => format!("{} ({short})", text(r)),
        _ => short.into_owned(),
    }
}

/// `s` escaped for the terminal (a newline shows as `\n`), cut at 160 characters.
fn one_line(s: &str) -> String {
    let flat = text(s);
    if flat.chars().count() > 160 {
        format!("{}…", flat.chars().take(160).collect::<String>())
    } else {
        flat.into_owned()
    }
}
