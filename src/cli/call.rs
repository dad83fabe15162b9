//! `nexus-mcp call`: one tool call through the same dispatch as the servers.

use super::backend::Backend;
use super::nexus::Remote;
use nexus_mcp_runtime::app::ToolContext;
use nexus_mcp_runtime::call;
use nexus_mcp_runtime::spec::{Mode, SurfaceSpec};
use std::process::ExitCode;
use std::sync::Arc;

#[derive(clap::Args)]
pub struct CallArgs {
    tool: String,
    #[arg(default_value = "{}")]
    arguments: String,
    #[command(flatten)]
    backend: Backend,
}

pub async fn run(
    args: &CallArgs,
    surface: &'static SurfaceSpec,
    remote: Option<Remote<'_>>,
) -> Result<ExitCode, String> {
    let arguments: serde_json::Value = serde_json::from_str(&args.arguments)
        .map_err(|e| format!("arguments are not JSON: {e}"))?;
    let scopes = args.backend.stdio_scopes(surface)?;
    let app = args.backend.app(remote, surface, "call").await?;
    let ctx = ToolContext {
        app,
        mode: Mode::LocalStdio,
        scopes: Arc::new(scopes),
        repositories: None,
        progress: None,
        log: None,
        asking: None,
    };
    let tool = &args.tool;
    match call::call(ctx, tool, arguments).await {
        Ok(v) => {
            println!(
                "{}",
                serde_json::to_string_pretty(&v).map_err(|e| e.to_string())?
            );
            Ok(ExitCode::SUCCESS)
        }
        Err(e) => {
            eprintln!("{tool} failed: {e}");
            Ok(ExitCode::FAILURE)
        }
    }
}
