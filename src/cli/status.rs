//! `nexus-mcp status`: who serves the data directory, what is registered, which clients are
//! connected. It never starts the local nexus-lite.

use crate::cli::terminal;
use serde_json::{Value, json};
use std::fmt::Write as _;
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(clap::Args, Debug)]
pub struct StatusArgs {
    /// The data directory (default: the one `serve` uses).
    #[arg(long)]
    pub data_dir: Option<PathBuf>,
    /// Print the daemon's status as JSON.
    #[arg(long)]
    pub json: bool,
}

pub async fn run(args: &StatusArgs) -> Result<ExitCode, String> {
    let dir = args
        .data_dir
        .clone()
        .unwrap_or_else(nexus_lite::default_data_dir);
    let status = nexus_lite::local::join::status(&dir)
        .await
        .map_err(|e| e.to_string())?;
    let text = match (status, args.json) {
        (Some(status), true) => pretty(&status)?,
        (None, true) => pretty(&json!({"running": false, "data_dir": dir}))?,
        (Some(status), false) => table(&status),
        (None, false) => terminal::text(&format!(
            "no nexus-lite serves {} now; the first nexus-mcp command that needs it starts it\n",
            dir.display()
        ))
        .into_owned(),
    };
    print!("{text}");
    Ok(ExitCode::SUCCESS)
}

fn pretty(value: &Value) -> Result<String, String> {
    serde_json::to_string_pretty(value)
        .map(|t| t + "\n")
        .map_err(|e| e.to_string())
}

/// The status for a person: the daemon, then what each client registered.
fn table(s: &Value) -> String {
    // Names and paths come from the clients: escaped for the terminal.
    let str_of = |v: &Value| match v {
        Value::String(s) => terminal::text(s).into_owned(),
        other => terminal::text(&other.to_string()).into_owned(),
    };
    let names = |v: &Value| match v
        .as_array()
        .map(|a| a.iter().map(str_of).collect::<Vec<_>>())
    {
        Some(names) if !names.is_empty() => names.join(", "),
        _ => "none".to_owned(),
    };
    let mut out = String::new();
    let _ = writeln!(
        out,
        "{}: served by nexus-lite {} (pid {} on {}, up {} s, idle timeout {} s)",
        str_of(&s["data_dir"]),
        str_of(&s["version"]),
        str_of(&s["pid"]),
        str_of(&s["host"]),
        str_of(&s["uptime_secs"]),
        str_of(&s["idle_timeout_secs"]),
    );
    for (what, key) in [("repository", "repos"), ("workspace", "workspaces")] {
        for r in s[key].as_array().into_iter().flatten() {
            let _ = writeln!(
                out,
                "  {what} {} at {} (clients: {})",
                str_of(&r["name"]),
                str_of(&r["root"]),
                names(&r["clients"])
            );
        }
    }
    let clients = s["clients"].as_array().map(Vec::len).unwrap_or(0);
    let _ = writeln!(out, "  {clients} client(s):");
    for c in s["clients"].as_array().into_iter().flatten() {
        let surface = c["surface"]
            .as_str()
            .map(|s| format!(" {}", terminal::text(s)))
            .unwrap_or_default();
        let _ = writeln!(
            out,
            "    {} {}{surface} (pid {}, since {}): domains {}; repositories {}; workspaces {}",
            str_of(&c["client_id"]),
            str_of(&c["kind"]),
            str_of(&c["pid"]),
            str_of(&c["connected_at"]),
            names(&c["domains"]),
            names(&c["repos"]),
            names(&c["workspaces"]),
        );
    }
    out
}
