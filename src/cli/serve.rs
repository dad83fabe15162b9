//! nexus-mcp command line: serve (stdio or HTTP), tools, call, contract.

#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

use clap::{CommandFactory, FromArgMatches, Parser, Subcommand, ValueEnum};
use nexus_mcp::surfaces::{self, Environment};
use nexus_mcp::{local_nexus, runtime};
use rmcp::ServiceExt;
use runtime::access;
use runtime::app::{App, Settings, ToolContext};
use runtime::backend as nexus_client;
use runtime::mcp::McpServer;
use runtime::spec::{Mode, SurfaceSpec};
use runtime::transport::auth::KeyStore;
use runtime::transport::http::{self, Auth};
use runtime::{call, contract, local_paths};
use std::collections::BTreeSet;
use std::net::SocketAddr;
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;
use std::time::Duration;

#[derive(Parser)]
#[command(
    name = "nexus-mcp",
    version,
    about = "MCP server for the Nexus code knowledge graph, declared in manifest/*.yaml"
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
    #[command(subcommand)]
    command: Command,
}

#[derive(Clone, Copy, ValueEnum)]
enum Transport {
    Stdio,
    Http,
}

#[derive(clap::Args)]
struct Backend {
    /// Repositories this process registers with the local nexus-lite ([NAME=]PATH, repeatable; default: the current directory).
    #[arg(long = "repo")]
    repos: Vec<String>,
    /// Documentation workspaces this process registers with the local nexus-lite ([NAME=]PATH, repeatable; nexus-doc-kg).
    /// With workspaces and no --repo, no repository is registered.
    #[arg(long = "workspace", env = "DOCUGRAPH_WORKSPACE")]
    workspaces: Vec<String>,
    /// Data directory of the local nexus-lite (default: the user data directory, e.g. ~/.local/share/nexus-lite); every local server, gate and rules command on it shares one nexus-lite.
    #[arg(long)]
    data_dir: Option<PathBuf>,
    /// Scopes granted over stdio and to `call` (default: the manifest's default_stdio scopes).
    #[arg(long, env = "NEXUS_MCP_SCOPES")]
    scopes: Option<String>,
    #[command(flatten)]
    docs_limits: nexus_lite::docs::config::OperatorLimits,
}

/// Caps and timeouts of the HTTP transport (seconds may be fractional).
#[derive(clap::Args)]
struct HttpLimits {
    /// Open connections at most (lowered to fit the descriptor limit); over it, 503.
    #[arg(long, env = "NEXUS_MCP_MAX_CONNECTIONS", default_value_t = 4096, value_parser = clap::value_parser!(u32).range(1..))]
    max_connections: u32,
    /// Seconds a client has to send a request's headers; also how long an idle kept-alive connection stays open.
    #[arg(long, env = "NEXUS_MCP_HEADER_TIMEOUT", default_value = "10", value_parser = seconds)]
    header_timeout: Duration,
    /// Seconds a client has to send a request's body.
    #[arg(long, env = "NEXUS_MCP_BODY_TIMEOUT", default_value = "30", value_parser = seconds)]
    body_timeout: Duration,
    /// Seconds a response stream may stay blocked by a client that does not read it before it is closed.
    #[arg(long, env = "NEXUS_MCP_STALL_TIMEOUT", default_value = "30", value_parser = seconds)]
    stall_timeout: Duration,
    /// Open sessions (Streamable HTTP and legacy SSE) per API key.
    #[arg(long, env = "NEXUS_MCP_MAX_SESSIONS_PER_KEY", default_value_t = 2048, value_parser = clap::value_parser!(u32).range(1..))]
    max_sessions_per_key: u32,
    /// Requests in flight per API key.
    #[arg(long, env = "NEXUS_MCP_MAX_CALLS_PER_KEY", default_value_t = 1024, value_parser = clap::value_parser!(u32).range(1..))]
    max_calls_per_key: u32,
    /// Seconds without traffic after which a Streamable HTTP session is closed.
    #[arg(long, env = "NEXUS_MCP_SESSION_IDLE_TIMEOUT", default_value = "300", value_parser = seconds)]
    session_idle_timeout: Duration,
}

/// A positive number of seconds, fractions allowed.
fn seconds(value: &str) -> Result<Duration, String> {
    let secs: f64 = value
        .parse()
        .map_err(|_| format!("{value:?} is not a number of seconds"))?;
    if !(secs > 0.0 && secs <= 86_400.0 * 365.0) {
        return Err(format!(
            "{value} seconds: give a positive number of seconds"
        ));
    }
    Ok(Duration::from_secs_f64(secs))
}

#[derive(Subcommand)]
enum Command {
    /// Serve MCP over stdio (local_stdio) or HTTP (remote_http).
    Serve {
        #[arg(long, value_enum, default_value = "stdio")]
        transport: Transport,
        #[arg(long, default_value = "127.0.0.1:8765")]
        listen: SocketAddr,
        /// File of `sha256:<hex> scope,scope` lines granting scopes to API keys.
        #[arg(long)]
        tokens: Option<PathBuf>,
        /// Serve HTTP without keys (loopback addresses only).
        #[arg(long)]
        insecure_no_auth: bool,
        /// Extra Host header values accepted over HTTP (DNS-rebinding protection allows only loopback names otherwise).
        #[arg(long = "allowed-host")]
        allowed_hosts: Vec<String>,
        /// Browser origins (scheme://host[:port]) allowed over HTTP besides the server's own.
        #[arg(long = "allowed-origin")]
        allowed_origins: Vec<String>,
        #[command(flatten)]
        limits: HttpLimits,
        /// Runtime threads for the HTTP transport. 1 serves every connection on one thread, which
        /// is the fastest per call (no cross-thread wake-ups); raise it for many busy agents.
        #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u16).range(1..=256))]
        threads: u16,
        #[command(flatten)]
        backend: Backend,
    },
    /// List the tools the manifest declares, with scope, access and modes.
    Tools {
        #[arg(long)]
        json: bool,
        /// Print what each default stdio tool costs in the tool list (bytes) against the budget.
        #[arg(long, conflicts_with = "json")]
        cost: bool,
    },
    /// Run one tool call through the same dispatch as the servers and print the result.
    Call {
        tool: String,
        #[arg(default_value = "{}")]
        arguments: String,
        #[command(flatten)]
        backend: Backend,
    },
    /// Run the CI gate on base...head: analyse the changed lines, store the record, print a
    /// summary; exit 1 when blocking, 2 when the verdict is unknown (not analysed, partly or at all).
    Gate(nexus_mcp::cli::gate::GateArgs),
    /// The rules domain from a terminal: `stats` (which rules break and get fixed) and
    /// `review` (accept or reject queued rule and skill proposals).
    Rules(nexus_mcp::cli::rules::RulesArgs),
    /// Show the local nexus-lite of a data directory: who serves it, what is registered, and the
    /// connected clients (every local server, gate and rules command shares it).
    Status(nexus_mcp::cli::status::StatusArgs),
    /// Serve a data directory as the local nexus-lite daemon. Started by the first command that
    /// needs it; you do not run it yourself.
    #[command(hide = true)]
    Daemon(nexus_lite::local::DaemonArgs),
    /// Check or rewrite contract/<surface>/ from the manifest.
    Contract {
        #[arg(long, conflicts_with = "write")]
        check: bool,
        #[arg(long)]
        write: bool,
        #[arg(long, default_value = "contract")]
        dir: PathBuf,
    },
}

/// Connects to Nexus (remote, or the local nexus-lite, joined as a `kind` client) and builds
/// the shared state.
async fn build_app(
    cli: &Cli,
    surface: &'static SurfaceSpec,
    backend: &Backend,
    kind: &str,
) -> Result<Arc<App>, String> {
    let mut settings = Settings::default();
    let mut env = Environment::default();
    if let Ok(roots) = std::env::var("NEXUS_MCP_LOCAL_REPO_ROOTS") {
        settings.local_repo_roots = local_paths::parse_roots(&roots);
    }
    let timeout = Duration::from_secs(60);
    let max_answer = std::env::var("NEXUS_MCP_MAX_NEXUS_ANSWER_BYTES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(nexus_client::DEFAULT_MAX_ANSWER_BYTES);
    let client = match &cli.nexus_url {
        Some(url) => nexus_mcp::cli::nexus::remote(url, timeout)?.with_max_answer_bytes(max_answer),
        None => {
            let lite = local_nexus::start(
                backend.data_dir.clone(),
                &backend.repos,
                &backend.workspaces,
                backend.docs_limits.clone().into(),
                local_nexus::Client {
                    kind,
                    surface: Some(surface.name),
                    routes: surface.nexus_routes(),
                },
                timeout,
            )
            .await
            .map_err(|e| e.to_string())?;
            env.local_checkouts = lite.checkouts.clone();
            env.doc_workspaces = lite.workspaces.clone();
            if settings.local_repo_roots.is_empty() {
                // Embedded over local checkouts and workspaces: they are the natural allowlist.
                settings.local_repo_roots = lite
                    .checkouts
                    .values()
                    .chain(lite.workspaces.values())
                    .filter_map(|p| p.canonicalize().ok())
                    .collect();
            }
            lite.client.with_max_answer_bytes(max_answer)
        }
    };
    Ok(Arc::new(App::new(
        surface,
        client,
        settings,
        surfaces::parts(surface.name, &env),
    )))
}

fn stdio_scopes(surface: &SurfaceSpec, backend: &Backend) -> Result<BTreeSet<String>, String> {
    match &backend.scopes {
        Some(list) => access::parse_scopes(surface, list),
        None => Ok(access::default_stdio_scopes(surface)),
    }
}

async fn run(cli: Cli) -> Result<ExitCode, String> {
    let surface = match &cli.manifest {
        Some(path) => nexus_mcp::manifest_file::load(path).map_err(|e| e.to_string())?,
        None => nexus_mcp::surface(&cli.surface).ok_or_else(|| {
            let known: Vec<&str> = nexus_mcp::SURFACES.iter().map(|s| s.name).collect();
            format!(
                "unknown surface `{}`; this build has: {}",
                cli.surface,
                known.join(", ")
            )
        })?,
    };
    match &cli.command {
        // Their errors quote file names, git's stderr and the API's answers: escaped.
        Command::Gate(args) => nexus_mcp::cli::gate::run(args, cli.nexus_url.as_deref())
            .await
            .map_err(|m| nexus_mcp::cli::terminal::text(&m).into_owned()),
        Command::Rules(args) => nexus_mcp::cli::rules::run(args, cli.nexus_url.as_deref())
            .await
            .map_err(|m| nexus_mcp::cli::terminal::text(&m).into_owned()),
        Command::Status(args) => nexus_mcp::cli::status::run(args)
            .await
            .map_err(|m| nexus_mcp::cli::terminal::text(&m).into_owned()),
        Command::Daemon(_) => Err("internal: the daemon runs outside the async runtime".into()),
        Command::Tools { json, cost } => {
            if *cost {
                print!("{}", runtime::tool_cost::report(surface));
            } else if *json {
                let tools: Vec<serde_json::Value> = surface
                    .tools
                    .iter()
                    .map(|t| {
                        let mut v = t.to_mcp_json();
                        v["scope"] = t.scope.into();
                        v["access"] = t.access.as_str().into();
                        v["modes"] = t
                            .modes
                            .iter()
                            .map(|m| m.as_str())
                            .collect::<Vec<_>>()
                            .into();
                        v["listed"] = t.listed.into();
                        v
                    })
                    .collect();
                println!(
                    "{}",
                    serde_json::to_string_pretty(&tools).map_err(|e| e.to_string())?
                );
            } else {
                for t in surface.tools {
                    let modes: Vec<&str> = t.modes.iter().map(|m| m.as_str()).collect();
                    // A capability is reached through the meta-tools, never listed itself.
                    let hidden = if t.listed { "" } else { " (capability)" };
                    println!(
                        "{:<28} {:<14} {:<12} {:<26} {}{hidden}",
                        t.name,
                        t.scope,
                        t.access.as_str(),
                        modes.join(","),
                        t.title
                    );
                }
            }
            Ok(ExitCode::SUCCESS)
        }
        Command::Contract { check, write, dir } => {
            if *write {
                let n = contract::write(dir, surface).map_err(|e| e.to_string())?;
                eprintln!("wrote {n} files to {}", dir.join(surface.name).display());
                return Ok(ExitCode::SUCCESS);
            }
            if !*check {
                return Err("say --check or --write".to_owned());
            }
            let problems = contract::check(dir, surface).map_err(|e| e.to_string())?;
            if problems.is_empty() {
                eprintln!(
                    "{} is current ({} tools)",
                    dir.join(surface.name).display(),
                    surface.tools.len()
                );
                Ok(ExitCode::SUCCESS)
            } else {
                for p in &problems {
                    println!("{p}");
                }
                println!(
                    "contract drift: {} problem(s). Run `nexus-mcp contract --write` and commit the result if the manifest change is intended.",
                    problems.len()
                );
                Ok(ExitCode::FAILURE)
            }
        }
        Command::Call {
            tool,
            arguments,
            backend,
        } => {
            let args: serde_json::Value = serde_json::from_str(arguments)
                .map_err(|e| format!("arguments are not JSON: {e}"))?;
            let scopes = stdio_scopes(surface, backend)?;
            let app = build_app(&cli, surface, backend, "call").await?;
            let ctx = ToolContext {
                app,
                mode: Mode::LocalStdio,
                scopes: Arc::new(scopes),
                repositories: None,
                progress: None,
                log: None,
            };
            let outcome = call::call(ctx, tool, args).await;
            let code = match outcome {
                Ok(v) => {
                    println!(
                        "{}",
                        serde_json::to_string_pretty(&v).map_err(|e| e.to_string())?
                    );
                    ExitCode::SUCCESS
                }
                Err(e) => {
                    eprintln!("{tool} failed: {e}");
                    ExitCode::FAILURE
                }
            };
            Ok(code)
        }
        Command::Serve {
            transport,
            listen,
            tokens,
            insecure_no_auth,
            allowed_hosts,
            allowed_origins,
            limits,
            threads: _,
            backend,
        } => {
            // Keys are checked before anything starts: a bad key fails fast.
            let auth = match transport {
                Transport::Http => Some(http_auth(
                    surface,
                    tokens.as_deref(),
                    *insecure_no_auth,
                    *listen,
                )?),
                Transport::Stdio => None,
            };
            let app = build_app(&cli, surface, backend, "serve").await?;
            match transport {
                Transport::Stdio => {
                    let scopes = stdio_scopes(surface, backend)?;
                    let nexus = app.nexus.clone();
                    let service = McpServer::new(app, Mode::LocalStdio, scopes)
                        .serve(runtime::transport::stdio::transport())
                        .await
                        .map_err(|e| format!("stdio session failed to start: {e}"))?;
                    nexus.warm_up();
                    service
                        .waiting()
                        .await
                        .map_err(|e| format!("stdio session ended with an error: {e}"))?;
                    Ok(ExitCode::SUCCESS)
                }
                Transport::Http => {
                    let Some(auth) = auth else {
                        return Err("internal: HTTP without an authentication mode".into());
                    };
                    app.nexus.warm_up();
                    let settings = http::HttpSettings {
                        allowed_hosts: allowed_hosts.clone(),
                        allowed_origins: allowed_origins.clone(),
                        max_connections: limits.max_connections as usize,
                        header_timeout: limits.header_timeout,
                        body_timeout: limits.body_timeout,
                        stall_timeout: limits.stall_timeout,
                        max_sessions_per_key: limits.max_sessions_per_key as usize,
                        max_calls_per_key: limits.max_calls_per_key as usize,
                        session_idle_timeout: limits.session_idle_timeout,
                    };
                    http::serve(app, *listen, auth, &settings)
                        .await
                        .map_err(|e| e.to_string())?;
                    Ok(ExitCode::SUCCESS)
                }
            }
        }
    }
}

fn http_auth(
    surface: &SurfaceSpec,
    tokens: Option<&std::path::Path>,
    insecure: bool,
    listen: SocketAddr,
) -> Result<Auth, String> {
    let mut store = KeyStore::default();
    if let Ok(key) = std::env::var("NEXUS_MCP_API_KEY")
        && !key.is_empty()
    {
        store
            .add_key(
                "NEXUS_MCP_API_KEY",
                &key,
                surface.scopes.iter().map(|s| s.name.to_owned()).collect(),
            )
            .map_err(|e| e.to_string())?;
    }
    if let Some(path) = tokens {
        store
            .load_file(path, |s| surface.scope(s).is_some())
            .map_err(|e| e.to_string())?;
        if store.binds_repositories() && surface.repository_binding.is_none() {
            return Err(format!(
                "{}: a key is bound to repositories (`repos=`), but surface {} cannot restrict answers by repository (its manifest declares no server.repository_binding), so that key would see everything. Remove `repos=` from the file or serve a surface that supports it.",
                path.display(),
                surface.name
            ));
        }
    }
    if !store.is_empty() {
        return Ok(Auth::Keys(Arc::new(store)));
    }
    if !insecure {
        return Err(http::HttpError::NoKeys.to_string());
    }
    if !listen.ip().is_loopback() {
        return Err(http::HttpError::InsecureNotLoopback(listen).to_string());
    }
    tracing::warn!(
        "serving HTTP without authentication on a loopback address (--insecure-no-auth)"
    );
    Ok(Auth::Open(Arc::new(access::default_stdio_scopes(surface))))
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

fn main() -> ExitCode {
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
            tracing_subscriber::EnvFilter::try_from_env("NEXUS_MCP_LOG")
                .unwrap_or_else(|_| default_level.into()),
        )
        .init();
    if let Command::Daemon(args) = &cli.command {
        return nexus_lite::local::main(args);
    }
    // One thread unless asked otherwise: a call is a few hundred microseconds of CPU around a
    // Nexus request, and on the multi-threaded scheduler every message crossed threads (HTTP
    // calls took ~480 us of CPU there against ~320 us on one thread, see the README).
    let threads = match cli.command {
        Command::Serve {
            transport: Transport::Http,
            threads,
            ..
        } => usize::from(threads),
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
