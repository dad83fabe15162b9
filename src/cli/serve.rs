//! `nexus-mcp serve`: MCP over stdio, or over HTTP with API keys, caps and timeouts.

use super::backend::Backend;
use super::nexus::Remote;
use clap::ValueEnum;
use nexus_mcp_runtime::access;
use nexus_mcp_runtime::mcp::McpServer;
use nexus_mcp_runtime::spec::{Mode, SurfaceSpec};
use nexus_mcp_runtime::transport::auth::KeyStore;
use nexus_mcp_runtime::transport::http::{self, Auth};
use rmcp::ServiceExt;
use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Arc;
use std::time::Duration;

#[derive(Clone, Copy, ValueEnum)]
pub enum Transport {
    Stdio,
    Http,
}

#[derive(clap::Args)]
pub struct ServeArgs {
    #[arg(long, value_enum, default_value = "stdio")]
    transport: Transport,
    #[arg(long, default_value = "127.0.0.1:8765")]
    listen: SocketAddr,
    /// File of `sha256:<hex> scope,scope` lines granting scopes to API keys.
    #[arg(long)]
    tokens: Option<PathBuf>,
    /// An API key granted every scope over HTTP, besides the keys of --tokens (prefer the
    /// variable: a flag shows in `ps`).
    #[arg(long, env = "NEXUS_MCP_API_KEY", hide_env_values = true)]
    api_key: Option<String>,
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
}

impl ServeArgs {
    /// Threads of the async runtime. One unless asked otherwise: a call is a few hundred
    /// microseconds of CPU around a Nexus request, and on the multi-threaded scheduler every
    /// message crossed threads (HTTP calls took ~480 us of CPU there against ~320 us on one
    /// thread, see the README).
    pub fn threads(&self) -> usize {
        match self.transport {
            Transport::Http => usize::from(self.threads),
            Transport::Stdio => 1,
        }
    }
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

pub async fn run(
    args: &ServeArgs,
    surface: &'static SurfaceSpec,
    remote: Option<Remote<'_>>,
) -> Result<ExitCode, String> {
    let backend = &args.backend;
    match args.transport {
        Transport::Stdio => {
            let app = backend.app(remote, surface, "serve").await?;
            let scopes = backend.stdio_scopes(surface)?;
            let nexus = app.nexus.clone();
            let service = McpServer::new(app, Mode::LocalStdio, scopes)
                .into_service()
                .serve(nexus_mcp_runtime::transport::stdio::transport())
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
            // Keys are checked before anything starts: a bad key fails fast.
            let auth = http_auth(args, surface)?;
            let app = backend.app(remote, surface, "serve").await?;
            app.nexus.warm_up();
            let limits = &args.limits;
            let settings = http::HttpSettings {
                allowed_hosts: args.allowed_hosts.clone(),
                allowed_origins: args.allowed_origins.clone(),
                max_connections: limits.max_connections as usize,
                header_timeout: limits.header_timeout,
                body_timeout: limits.body_timeout,
                stall_timeout: limits.stall_timeout,
                max_sessions_per_key: limits.max_sessions_per_key as usize,
                max_calls_per_key: limits.max_calls_per_key as usize,
                session_idle_timeout: limits.session_idle_timeout,
            };
            http::serve(app, args.listen, auth, &settings)
                .await
                .map_err(|e| e.to_string())?;
            Ok(ExitCode::SUCCESS)
        }
    }
}

fn http_auth(args: &ServeArgs, surface: &SurfaceSpec) -> Result<Auth, String> {
    let mut store = KeyStore::default();
    // The source is named by its variable: that is where operators set it.
    if let Some(key) = args.api_key.as_deref().filter(|k| !k.is_empty()) {
        store
            .add_key(
                "NEXUS_MCP_API_KEY",
                key,
                surface.scopes.iter().map(|s| s.name.to_owned()).collect(),
            )
            .map_err(|e| e.to_string())?;
    }
    if let Some(path) = args.tokens.as_deref() {
        load_tokens(&mut store, path, surface)?;
    }
    if !store.is_empty() {
        return Ok(Auth::Keys(Arc::new(store)));
    }
    if !args.insecure_no_auth {
        return Err(http::HttpError::NoKeys.to_string());
    }
    if !args.listen.ip().is_loopback() {
        return Err(http::HttpError::InsecureNotLoopback(args.listen).to_string());
    }
    tracing::warn!(
        "serving HTTP without authentication on a loopback address (--insecure-no-auth)"
    );
    Ok(Auth::Open(Arc::new(access::default_stdio_scopes(surface))))
}

fn load_tokens(store: &mut KeyStore, path: &Path, surface: &SurfaceSpec) -> Result<(), String> {
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
    Ok(())
}
