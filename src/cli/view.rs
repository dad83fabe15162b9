//! `nexus-mcp view`: the read-only web viewer on its own address, reading the same Nexus API as
//! the MCP surfaces (remote, or the local nexus-lite with the repositories and workspaces given
//! here). It never accepts an MCP key and runs no tool.

use super::backend::Registration;
use super::nexus::{self, Remote};
use crate::local_nexus;
use crate::surfaces::{self, Environment};
use nexus_mcp_runtime::app::{App, Settings, ToolContext};
use nexus_mcp_runtime::spec::Mode;
use nexus_mcp_viewer::{Access, FreshnessHook, ROUTES, TOKEN_PREFIX, Viewer};
use serde_json::{Value, json};
use std::future::Future;
use std::net::SocketAddr;
use std::path::PathBuf;
use std::pin::Pin;
use std::process::ExitCode;
use std::sync::Arc;
use std::time::Duration;

/// The code graph's freshness, exactly as nexus-code-kg's answers carry it over local stdio:
/// its envelope, for the checkouts this process registered.
struct CodeFreshness {
    app: Arc<App>,
}

impl FreshnessHook for CodeFreshness {
    fn freshness<'a>(
        &'a self,
        graph: &'a Value,
    ) -> Pin<Box<dyn Future<Output = Option<Value>> + Send + 'a>> {
        Box::pin(async move {
            let hook = self.app.parts.envelope.as_ref()?;
            let tool = self.app.surface.tool("kg_latest_graph")?;
            let ctx = ToolContext {
                app: self.app.clone(),
                mode: Mode::LocalStdio,
                scopes: Arc::new(std::iter::once("kg:read".to_owned()).collect()),
                repositories: None,
                progress: None,
                log: None,
                asking: None,
            };
            let mut fields = hook.fields(&ctx, tool, &json!({"graph": graph})).await;
            fields.remove("freshness")
        })
    }
}

#[derive(clap::Args)]
pub struct ViewArgs {
    /// Address the viewer listens on. Without --token-file it must be a loopback address: only
    /// this machine may read the pages.
    #[arg(long, env = "NEXUS_MCP_VIEW_LISTEN", default_value = "127.0.0.1:7878")]
    listen: SocketAddr,
    /// File holding the viewer token (`nxv_` and at least 16 more characters; never an MCP key).
    /// With it, anyone holding the token may read, from any address.
    #[arg(long, env = "NEXUS_MCP_VIEW_TOKEN_FILE")]
    token_file: Option<PathBuf>,
    #[command(flatten)]
    registration: Registration,
}

pub async fn run(args: &ViewArgs, remote: Option<Remote<'_>>) -> Result<ExitCode, String> {
    let access = match &args.token_file {
        Some(file) => {
            let token = std::fs::read_to_string(file).map_err(|e| {
                format!("cannot read the viewer token file {}: {e}", file.display())
            })?;
            Access::token(&token).map_err(|e| format!("{}: {e}", file.display()))?
        }
        None if !args.listen.ip().is_loopback() => {
            return Err(format!(
                "--listen {} is not a loopback address: give the viewer a token (--token-file, a file holding `{TOKEN_PREFIX}` and 16 or more random characters), or listen on 127.0.0.1",
                args.listen
            ));
        }
        None => Access::Loopback,
    };
    let timeout = Duration::from_secs(60);
    let (nexus, checkouts) = match remote {
        Some(remote) => (nexus::remote(remote, timeout)?, Default::default()),
        None => {
            let registration = &args.registration;
            let lite = local_nexus::start(
                registration.data_dir.clone(),
                &registration.repos,
                &registration.workspaces,
                Default::default(),
                local_nexus::Client {
                    kind: "view",
                    surface: None,
                    routes: ROUTES.to_vec(),
                },
                timeout,
            )
            .await
            .map_err(|e| e.to_string())?;
            (lite.client, lite.checkouts)
        }
    };
    // A verdict needs a local checkout; without one the page says the freshness is unknown.
    let freshness = match (checkouts.is_empty(), crate::surface("nexus-code-kg")) {
        (false, Some(surface)) => {
            let env = Environment {
                local_checkouts: checkouts,
                ..Environment::default()
            };
            let app = App::new(
                surface,
                nexus.clone(),
                Settings::default(),
                surfaces::parts(surface.name, &env),
            );
            Some(Arc::new(CodeFreshness { app: Arc::new(app) }) as Arc<dyn FreshnessHook>)
        }
        _ => None,
    };
    let listener = tokio::net::TcpListener::bind(args.listen)
        .await
        .map_err(|e| format!("cannot listen on {}: {e}", args.listen))?;
    let addr = listener
        .local_addr()
        .map_err(|e| format!("cannot read the listening address: {e}"))?;
    match args.token_file {
        Some(_) => eprintln!(
            "nexus-mcp viewer on http://{addr}/ (open http://{addr}/login?token=<the token in the file> once)"
        ),
        None => eprintln!("nexus-mcp viewer on http://{addr}/ (this machine only)"),
    }
    nexus_mcp_viewer::serve(listener, Viewer::new(nexus, access, freshness))
        .await
        .map_err(|e| format!("the viewer stopped: {e}"))?;
    Ok(ExitCode::SUCCESS)
}
