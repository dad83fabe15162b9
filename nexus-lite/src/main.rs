//! `nexus-lite` command line: `serve` and one-shot `index`.

use clap::{Parser, Subcommand};
use nexus_lite::{LiteConfig, RepoSpec, WorkspaceSpec};
use std::io::Write;
use std::net::SocketAddr;
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(Parser)]
#[command(
    name = "nexus-lite",
    version,
    about = "A local Nexus Code KG API server"
)]
struct Cli {
    #[command(subcommand)]
    cmd: Cmd,
}

#[derive(Subcommand)]
enum Cmd {
    /// Serve the Nexus Code KG API (token from NEXUS_API_TOKEN).
    Serve {
        #[arg(long, default_value = "127.0.0.1:8787")]
        listen: SocketAddr,
        /// Where the SQLite database lives (default: the user data directory).
        #[arg(long)]
        data_dir: Option<PathBuf>,
        /// A repository to serve, `PATH` or `NAME=PATH` (repeatable).
        #[arg(long = "repo")]
        repos: Vec<String>,
        /// A documentation workspace to serve under /api/v1/docs, `PATH` or `NAME=PATH`
        /// (repeatable; the name defaults to the directory name).
        #[arg(long = "workspace")]
        workspaces: Vec<String>,
        /// JSON config file: {"data_dir": "...", "repos": [{"name": "o/n", "path": "..."}], "workspaces": [{"name": "docs", "path": "..."}], "index_on_first_use": false}
        #[arg(long)]
        config: Option<PathBuf>,
        /// Index a repository on the first request that needs its graph.
        #[arg(long)]
        index_on_first_use: bool,
        #[command(flatten)]
        docs_limits: nexus_lite::docs::config::OperatorLimits,
        #[command(flatten)]
        retention: nexus_lite::core::config::Retention,
        /// A domain to serve (repeatable; default: all). A domain not served is never opened:
        /// no tables, no state, and its routes answer 404 saying so.
        #[arg(long = "domain", value_parser = ["code", "docs", "rules"])]
        domains: Vec<String>,
    },
    /// Serve DATA_DIR to every local client over a Unix socket in it (started by the clients on
    /// first use; prints one ready line, then logs to stderr; exits 3 when DATA_DIR is served).
    #[cfg(target_os = "linux")]
    Daemon(nexus_lite::local::DaemonArgs),
    /// Index one repository now and print a JSON summary.
    Index {
        #[arg(long)]
        repo: String,
        #[arg(long)]
        data_dir: Option<PathBuf>,
        #[command(flatten)]
        retention: nexus_lite::core::config::Retention,
    },
}

/// `PATH` or `NAME=PATH` for a documentation workspace.
fn parse_workspace(s: &str) -> WorkspaceSpec {
    let r = parse_repo(s);
    WorkspaceSpec {
        name: r.name,
        path: r.path,
    }
}

/// `PATH` or `NAME=PATH` (the name is everything before the first `=`).
fn parse_repo(s: &str) -> RepoSpec {
    match s.split_once('=') {
        Some((name, path)) if !name.is_empty() && !path.is_empty() => RepoSpec {
            name: Some(name.to_string()),
            path: PathBuf::from(path),
        },
        _ => RepoSpec {
            name: None,
            path: PathBuf::from(s),
        },
    }
}

fn load_config(path: &PathBuf) -> Result<serde_json::Value, String> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| format!("cannot read config file {}: {e}", path.display()))?;
    serde_json::from_str(&text)
        .map_err(|e| format!("config file {} is not valid JSON: {e}", path.display()))
}

#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> ExitCode {
    // SAFETY: first thing in main, before any tree-sitter object exists.
    unsafe { nexus_lite::code::lang::parsers_use_mimalloc() };
    tracing_subscriber::fmt()
        .with_writer(std::io::stderr)
        // Colour codes only for a person's terminal: a log file or a client's pipe gets text.
        .with_ansi(std::io::IsTerminal::is_terminal(&std::io::stderr()))
        .with_env_filter(
            tracing_subscriber::EnvFilter::try_from_default_env()
                .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("info")),
        )
        .init();
    let cli = Cli::parse();
    #[cfg(target_os = "linux")]
    if let Cmd::Daemon(args) = &cli.cmd {
        return nexus_lite::local::main(args);
    }
    match run(cli) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("nexus-lite: {e}");
            ExitCode::FAILURE
        }
    }
}

fn run(cli: Cli) -> Result<(), String> {
    match cli.cmd {
        #[cfg(target_os = "linux")]
        Cmd::Daemon(_) => Err("the daemon runs from main".into()),
        Cmd::Index {
            repo,
            data_dir,
            retention,
        } => {
            let spec = parse_repo(&repo);
            let data_dir = data_dir.unwrap_or_else(nexus_lite::default_data_dir);
            let outcome = nexus_lite::index_once(data_dir, spec, retention.keep_graphs())
                .map_err(|e| e.to_string())?;
            let mut out = std::io::stdout().lock();
            let text =
                serde_json::to_string_pretty(&outcome.to_json()).map_err(|e| e.to_string())?;
            writeln!(out, "{text}").map_err(|e| e.to_string())?;
            Ok(())
        }
        Cmd::Serve {
            listen,
            data_dir,
            repos,
            workspaces,
            config,
            index_on_first_use,
            docs_limits,
            retention,
            domains,
        } => {
            let token = std::env::var("NEXUS_API_TOKEN").unwrap_or_default();
            if token.trim().is_empty() {
                return Err("NEXUS_API_TOKEN is not set; refusing to serve without a bearer token (export NEXUS_API_TOKEN=<a long random string>)".into());
            }
            let mut specs: Vec<RepoSpec> = repos.iter().map(|r| parse_repo(r)).collect();
            let mut docs: Vec<WorkspaceSpec> =
                workspaces.iter().map(|w| parse_workspace(w)).collect();
            let mut data_dir = data_dir;
            let mut first_use = index_on_first_use;
            if let Some(path) = &config {
                let cfg = load_config(path)?;
                if data_dir.is_none() {
                    data_dir = cfg["data_dir"].as_str().map(PathBuf::from);
                }
                first_use |= cfg["index_on_first_use"].as_bool().unwrap_or(false);
                for r in cfg["repos"].as_array().map(Vec::as_slice).unwrap_or(&[]) {
                    let Some(p) = r["path"].as_str() else {
                        return Err(format!(
                            "config file {}: every repos[] entry needs a `path`",
                            path.display()
                        ));
                    };
                    specs.push(RepoSpec {
                        name: r["name"].as_str().map(str::to_string),
                        path: PathBuf::from(p),
                    });
                }
                for w in cfg["workspaces"]
                    .as_array()
                    .map(Vec::as_slice)
                    .unwrap_or(&[])
                {
                    let Some(p) = w["path"].as_str() else {
                        return Err(format!(
                            "config file {}: every workspaces[] entry needs a `path`",
                            path.display()
                        ));
                    };
                    docs.push(WorkspaceSpec {
                        name: w["name"].as_str().map(str::to_string),
                        path: PathBuf::from(p),
                    });
                }
            }
            if specs.is_empty() && docs.is_empty() {
                return Err(
                    "nothing to serve; pass --repo PATH and/or --workspace [NAME=]PATH (both repeatable), or --config FILE".into(),
                );
            }
            let config = LiteConfig {
                data_dir: data_dir.unwrap_or_else(nexus_lite::default_data_dir),
                repos: specs,
                token,
                index_on_first_use: first_use,
                workspaces: docs,
                docs_limits: docs_limits.into(),
                keep_graphs: retention.keep_graphs(),
            };
            let rt = tokio::runtime::Runtime::new()
                .map_err(|e| format!("cannot start the async runtime: {e}"))?;
            rt.block_on(async move {
                let domains: std::collections::BTreeSet<&str> = if domains.is_empty() {
                    nexus_lite::SERVED_DOMAINS.into_iter().collect()
                } else {
                    domains.iter().map(String::as_str).collect()
                };
                let running = nexus_lite::spawn_domains(config, listen, &domains)
                    .await
                    .map_err(|e| e.to_string())?;
                eprintln!("nexus-lite listening on {}", running.url());
                let _ = tokio::signal::ctrl_c().await;
                running.shutdown().await;
                Ok(())
            })
        }
    }
}
