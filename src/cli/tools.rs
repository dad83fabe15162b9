//! `nexus-mcp tools`: the tools the manifest declares, as a table, JSON or their list cost.

use nexus_mcp_runtime::spec::SurfaceSpec;
use std::process::ExitCode;

#[derive(clap::Args)]
pub struct ToolsArgs {
    #[arg(long)]
    json: bool,
    /// Print what each default stdio tool costs in the tool list (bytes) against the budget.
    #[arg(long, conflicts_with = "json")]
    cost: bool,
}

pub fn run(args: &ToolsArgs, surface: &'static SurfaceSpec) -> Result<ExitCode, String> {
    if args.cost {
        print!("{}", nexus_mcp_runtime::tool_cost::report(surface));
    } else if args.json {
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
