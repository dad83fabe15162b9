//! The nexus-mcp command line: one module per subcommand, the Nexus connection they share, and
//! the entry point the binary calls. Every setting read from the environment is also a flag.

mod backend;
mod call;
mod contract;
pub mod gate;
pub mod nexus;
pub mod rules;
mod serve;
pub mod status;
pub mod terminal;
mod tools;
mod view;

use clap::{CommandFactory, FromArgMatches, Parser, Subcommand};
use nexus_mcp_runtime::spec::SurfaceSpec;
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(Parser)]
#[command(
    name = "nexus-mcp",
    version,
    about = "MCP server for the surfaces declared in manifest/*.yaml, answered through the Nexus HTTP API"
)]
struct Cli {
    /// Which manifest surface to serve.
    #[arg(long, global = true, default_value = "nexus-code-kg")]
    surface: String,
    /// Serve this manifest file instead of a compiled-in surface (mapped tools only; checked
    /// like the build checks manifest/*.yaml).
    #[arg(long, global = true, env = "NEXUS_MCP_MANIFEST")]
    manifest: Option<PathBuf>,
    /// Nexus API root. Without it, the local nexus-lite (one per data directory, shared by every local nexus-mcp process) serves the local repositories.
    #[arg(long, global = true, env = "NEXUS_API_URL")]
    nexus_url: Option<String>,
    /// Service token of the Nexus at --nexus-url (required with it; prefer the variable, a flag
    /// shows in `ps`).
    #[arg(long, global = true, env = "NEXUS_API_TOKEN", hide_env_values = true)]
    nexus_token: Option<String>,
    /// Log filter on stderr (tracing's env-filter syntax, e.g. `debug` or `nexus_mcp=debug`; default: warn, the daemon info).
    #[arg(long, global = true, env = "NEXUS_MCP_LOG")]
    log: Option<String>,
    #[command(subcommand)]
    command: Command,
}

impl Cli {
    /// The remote Nexus given by --nexus-url and --nexus-token, if any.
    fn remote(&self) -> Option<nexus::Remote<'_>> {
        self.nexus_url.as_deref().map(|url| nexus::Remote {
            url,
            token: self.nexus_token.as_deref(),
        })
    }
}

#[derive(Subcommand)]
enum Command {
    /// Serve MCP over stdio (local_stdio) or HTTP (remote_http).
    Serve(serve::ServeArgs),
    /// List the tools the manifest declares, with scope, access and modes.
    Tools(tools::ToolsArgs),
    /// Run one tool call through the same dispatch as the servers and print the result.
    Call(call::CallArgs),
    /// Run the CI gate on base...head: analyse the changed lines, store the record, print a
    /// summary; exit 1 when blocking, 2 when the verdict is unknown (not analysed, partly or at all).
    Gate(gate::GateArgs),
    /// The rules domain from a terminal: `stats` (which rules break and get fixed) and
    /// `review` (accept or reject queued rule and skill proposals).
    Rules(rules::RulesArgs),
    /// Show the local nexus-lite of a data directory: who serves it, what is registered, and the
    /// connected clients (every local server, gate and rules command shares it).
    Status(status::StatusArgs),
    /// Serve a data directory as the local nexus-lite daemon. Started by the first command that
    /// needs it; you do not run it yourself.
    #[command(hide = true)]
    Daemon(nexus_lite::local::DaemonArgs),
    /// Check or rewrite contract/<surface>/ from the manifest.
    Contract(contract::ContractArgs),
    /// Serve the read-only web viewer (documentation graph, audit, search) on its own address:
    /// GET only, loopback or a viewer token, never an MCP key, no tool.
    View(view::ViewArgs),
}

/// The surface named by --manifest or --surface.
fn surface(cli: &Cli) -> Result<&'static SurfaceSpec, String> {
    match &cli.manifest {
        Some(path) => crate::manifest_file::load(path).map_err(|e| e.to_string()),
        None => crate::surface(&cli.surface).ok_or_else(|| {
            let known: Vec<&str> = crate::SURFACES.iter().map(|s| s.name).collect();
            format!(
                "unknown surface `{}`; this build has: {}",
                cli.surface,
                known.join(", ")
            )
        }),
    }
}

async fn run(cli: Cli) -> Result<ExitCode, String> {
    let surface = surface(&cli)?;
    match &cli.command {
        // Their errors quote file names, git's stderr and the API's answers: escaped.
        Command::Gate(args) => gate::run(args, cli.remote())
            .await
            .map_err(|m| terminal::text(&m).into_owned()),
        Command::Rules(args) => rules::run(args, cli.remote())
            .await
            .map_err(|m| terminal::text(&m).into_owned()),
        Command::Status(args) => status::run(args)
            .await
            .map_err(|m| terminal::text(&m).into_owned()),
        Command::Daemon(_) => Err("internal: the daemon runs outside the async runtime".into()),
        Command::Tools(args) => tools::run(args, surface),
        Command::Contract(args) => contract::run(args, surface),
        Command::Call(args) => call::run(args, surface, cli.remote()).await,
        Command::Serve(args) => serve::run(args, surface, cli.remote()).await,
        Command::View(args) => view::run(args, cli.remote())
            .await
            .map_err(|m| terminal::text(&m).into_owned()),
    }
}

/// `cmd` with every option whose environment variable is set to "" reading it as unset, in
/// every subcommand: CI writes an undefined variable as "" (GitHub Actions'
/// `${{ vars.NEXUS_API_URL }}`), and no option of ours means anything by an empty value.
fn empty_env_is_unset(cmd: clap::Command) -> clap::Command {
    let subcommands: Vec<String> = cmd
        .get_subcommands()
        .map(|s| s.get_name().to_owned())
        .collect();
    let cmd = cmd.mut_args(|arg| {
        let empty = arg
            .get_env()
            .and_then(std::env::var_os)
            .is_some_and(|v| v.is_empty());
        if empty {
            arg.env(None::<&'static str>)
        } else {
            arg
        }
    });
    subcommands.into_iter().fold(cmd, |cmd, name| {
        cmd.mut_subcommand(name, empty_env_is_unset)
    })
}

/// The binary's entry point: parses the command line, starts logging and the async runtime.
pub fn main() -> ExitCode {
    let matches = empty_env_is_unset(Cli::command()).get_matches();
    let cli = Cli::from_arg_matches(&matches).unwrap_or_else(|e| e.exit());
    // The daemon's stderr is its log file: it says when it started and stopped, and why.
    let default_level = match cli.command {
        Command::Daemon(_) => "info",
        _ => "warn",
    };
    tracing_subscriber::fmt()
        .with_writer(std::io::stderr)
        // Colour codes only for a person's terminal: a log file or a client's pipe gets text.
        .with_ansi(std::io::IsTerminal::is_terminal(&std::io::stderr()))
        .with_env_filter(
            cli.log
                .as_deref()
                .and_then(|filter| tracing_subscriber::EnvFilter::try_new(filter).ok())
                .unwrap_or_else(|| default_level.into()),
        )
        .init();
    if let Command::Daemon(args) = &cli.command {
        return nexus_lite::local::main(args);
    }
    let threads = match &cli.command {
        Command::Serve(args) => args.threads(),
        _ => 1,
    };
    let mut builder = if threads > 1 {
        let mut b = tokio::runtime::Builder::new_multi_thread();
        b.worker_threads(threads);
        b
    } else {
        tokio::runtime::Builder::new_current_thread()
    };
    let runtime = match builder.enable_all().build() {
        Ok(r) => r,
        Err(e) => {
            eprintln!("nexus-mcp: cannot start the async runtime: {e}");
            return ExitCode::FAILURE;
        }
    };
    match runtime.block_on(run(cli)) {
        Ok(code) => code,
        Err(message) => {
            eprintln!("nexus-mcp: {message}");
            ExitCode::from(2)
        }
    }
}
