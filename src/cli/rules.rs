//! `nexus-mcp rules`: what a human does with the rules domain from a terminal, through the
//! Nexus API (remote, or the local nexus-lite of `serve`'s data directory):
//! - `stats`: which rules break most and how often agents fix them (a table, or `--json`);
//! - `review`: the proposal queue (agents' and bootstrap's), and accepting or rejecting one.

use crate::cli::nexus::{Connection, Remote};
use crate::cli::terminal;
use crate::local_nexus::Client;
use crate::runtime::backend::NexusRequest;
use serde_json::{Value, json};
use std::fmt::Write as _;
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(clap::Args, Debug)]
pub struct RulesArgs {
    #[command(subcommand)]
    pub command: RulesCommand,
    /// The repository (any path inside its work tree).
    #[arg(long, default_value = ".", global = true)]
    pub repo: PathBuf,
    /// The repository's name in the Nexus API (default: owner/name of its origin remote, else
    /// local/<directory>).
    #[arg(long, global = true)]
    pub repository: Option<String>,
    /// Data directory of the local nexus-lite (the one `serve` and `gate` use), when
    /// NEXUS_API_URL is unset.
    #[arg(long, global = true)]
    pub data_dir: Option<PathBuf>,
    /// Print the API's JSON answer instead of a table.
    #[arg(long, global = true)]
    pub json: bool,
}

#[derive(clap::Subcommand, Debug)]
pub enum RulesCommand {
    /// Per rule: times broken (gate runs, self-checks), times fixed (before commit, in the PR),
    /// and agents' claims against what the gate witnessed.
    Stats {
        /// Count only the last N days (gate runs analysed and self-checks reported since then).
        #[arg(long)]
        days: Option<u32>,
    },
    /// The proposal queue: list it, or accept / reject one proposal.
    Review {
        #[command(subcommand)]
        action: Option<ReviewAction>,
        /// List every proposal, decided ones too (default: the queued ones).
        #[arg(long)]
        all: bool,
    },
}

#[derive(clap::Subcommand, Debug)]
pub enum ReviewAction {
    /// Accept a proposal: writes its rule or skill file into the work tree (commit it to take effect).
    Accept(Decision),
    /// Reject a proposal (kept in the queue's history).
    Reject(Decision),
}

#[derive(clap::Args, Debug)]
pub struct Decision {
    /// The proposal's id (from `nexus-mcp rules review`).
    pub proposal_id: String,
    /// Who decides (default: $USER).
    #[arg(long)]
    pub by: Option<String>,
    /// Why, kept with the decision.
    #[arg(long)]
    pub note: Option<String>,
}

pub async fn run(args: &RulesArgs, nexus: Option<Remote<'_>>) -> Result<ExitCode, String> {
    let (_, conn) = Connection::for_work_tree(
        nexus,
        &args.repo,
        args.repository.as_deref(),
        args.data_dir.clone(),
        Client {
            kind: "rules",
            surface: None,
            routes: vec![("GET", "/api/v1/rules/stats")],
        },
    )
    .await?;
    let text = execute(args, &conn).await?;
    print!("{text}");
    Ok(ExitCode::SUCCESS)
}

async fn execute(args: &RulesArgs, conn: &Connection) -> Result<String, String> {
    let repo = Some(conn.repository.as_str());
    let (request, render): (NexusRequest, fn(&Value) -> String) = match &args.command {
        RulesCommand::Stats { days } => (
            NexusRequest::get("/api/v1/rules/stats")
                .param("repository", repo)
                .param("days", *days),
            stats_table,
        ),
        RulesCommand::Review { action: None, all } => (
            NexusRequest::get("/api/v1/rules/proposals")
                .param("repository", repo)
                .param("status", (!all).then_some("queued")),
            proposals_table,
        ),
        RulesCommand::Review {
            action: Some(action),
            ..
        } => {
            let (verb, d) = match action {
                ReviewAction::Accept(d) => ("accept", d),
                ReviewAction::Reject(d) => ("reject", d),
            };
            let by =
                d.by.clone()
                    .or_else(|| std::env::var("USER").ok())
                    .unwrap_or_else(|| "unknown".into());
            let path = format!(
                "/api/v1/rules/proposals/{}/{verb}",
                percent_encoding::utf8_percent_encode(
                    &d.proposal_id,
                    percent_encoding::NON_ALPHANUMERIC
                )
            );
            let body = json!({"decidedBy": by, "decisionNote": d.note});
            (
                NexusRequest::post(path, body).param("repository", repo),
                decision_text,
            )
        }
    };
    let answer = conn
        .client
        .send(&request, None)
        .await
        .map_err(|e| e.to_string())?;
    if args.json {
        let text = serde_json::to_string_pretty(&answer).map_err(|e| e.to_string())?;
        return Ok(format!("{text}\n"));
    }
    Ok(render(&answer))
}

fn int(v: &Value, key: &str) -> i64 {
    v[key].as_i64().unwrap_or(0)
}

/// A cell at most `width` characters wide (escaped for the terminal), cut with an ellipsis.
fn cell(text: &str, width: usize) -> String {
    let text = terminal::text(text);
    if text.chars().count() <= width {
        text.into_owned()
    } else {
        let kept: String = text.chars().take(width.saturating_sub(1)).collect();
        format!("{kept}…")
    }
}

/// A string field of an answer, escaped for the terminal (`?` when absent).
fn field(v: &Value, key: &str) -> String {
    terminal::text(v[key].as_str().unwrap_or("?")).into_owned()
}

/// The stats answer as a terminal table, most broken first (the API's order).
pub fn stats_table(answer: &Value) -> String {
    let rules = answer["rules"].as_array().cloned().unwrap_or_default();
    let mut out = String::new();
    let window = match answer["window"]["days"].as_i64() {
        Some(days) => format!(", the last {days} days"),
        None => String::new(),
    };
    let _ = writeln!(
        out,
        "rules stats for {}{window}",
        field(answer, "repository")
    );
    if rules.is_empty() {
        let _ = writeln!(
            out,
            "  no rule was broken, fixed or self-checked yet: run `nexus-mcp gate` in CI and have agents call report_check"
        );
        return out;
    }
    let _ = writeln!(
        out,
        "{:<36} {:>6} {:>6} {:>8} {:>6} {:>8} {:>9} {:>8}",
        "rule", "broken", "fixed", "pre-cmt", "in-PR", "claimed", "witnessed", "disputed"
    );
    for r in &rules {
        let _ = writeln!(
            out,
            "{:<36} {:>6} {:>6} {:>8} {:>6} {:>8} {:>9} {:>8}",
            cell(r["ruleId"].as_str().unwrap_or("?"), 36),
            int(r, "timesBroken"),
            int(r, "timesFixed"),
            int(r, "fixedBeforeCommit"),
            int(r, "fixedInPr"),
            int(r, "claimed"),
            int(r, "witnessed"),
            int(r, "disputed"),
        );
    }
    let _ = writeln!(
        out,
        "broken: gate runs with a violation + failed self-checks; fixed: pre-cmt (a session reported it failing, then passing) + in-PR (a later gate run of the PR no longer broke it)"
    );
    out
}

/// The proposal queue as a terminal table.
pub fn proposals_table(answer: &Value) -> String {
    let list = answer["proposals"].as_array().cloned().unwrap_or_default();
    let mut out = String::new();
    if list.is_empty() {
        let _ = writeln!(out, "no proposal to review");
        return out;
    }
    for p in &list {
        let ai = if p["aiGenerated"].as_bool() == Some(true) {
            " AI-generated"
        } else {
            ""
        };
        let _ = writeln!(
            out,
            "{}  {} {} ({}{ai}, from {})",
            field(p, "proposalId"),
            field(p, "status"),
            field(p, "kind"),
            cell(p["title"].as_str().unwrap_or(""), 70),
            field(p, "source"),
        );
        if let Some(r) = p["rationale"].as_str().filter(|r| !r.is_empty()) {
            let _ = writeln!(out, "    why: {}", cell(r, 110));
        }
    }
    let _ = writeln!(
        out,
        "accept with `nexus-mcp rules review accept <id>`, reject with `nexus-mcp rules review reject <id> --note \"why\"`"
    );
    out
}

/// What an accept or reject did.
pub fn decision_text(answer: &Value) -> String {
    let p = &answer["proposal"];
    let mut out = format!(
        "{} {}: {}\n",
        field(p, "proposalId"),
        field(p, "status"),
        terminal::text(p["title"].as_str().unwrap_or(""))
    );
    if let Some(path) = answer["writtenPath"].as_str() {
        let _ = writeln!(out, "  wrote {}", terminal::text(path));
    }
    if let Some(next) = answer["next"].as_str() {
        let _ = writeln!(out, "  next: {}", terminal::text(next));
    }
    out
}
