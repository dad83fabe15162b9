//! `nexus-mcp contract`: checks or rewrites contract/<surface>/ from the manifest.

use nexus_mcp_runtime::contract;
use nexus_mcp_runtime::spec::SurfaceSpec;
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(clap::Args)]
pub struct ContractArgs {
    #[arg(long, conflicts_with = "write")]
    check: bool,
    #[arg(long)]
    write: bool,
    #[arg(long, default_value = "contract")]
    dir: PathBuf,
}

pub fn run(args: &ContractArgs, surface: &'static SurfaceSpec) -> Result<ExitCode, String> {
    let dir = &args.dir;
    if args.write {
        let n = contract::write(dir, surface).map_err(|e| e.to_string())?;
        eprintln!("wrote {n} files to {}", dir.join(surface.name).display());
        return Ok(ExitCode::SUCCESS);
    }
    if !args.check {
        return Err("say --check or --write".to_owned());
    }
    let problems = contract::check(dir, surface).map_err(|e| e.to_string())?;
    if problems.is_empty() {
        eprintln!(
            "{} is current ({} tools)",
            dir.join(surface.name).display(),
            surface.tools.len()
        );
        return Ok(ExitCode::SUCCESS);
    }
    for p in &problems {
        println!("{p}");
    }
    println!(
        "contract drift: {} problem(s). Run `nexus-mcp contract --write` and commit the result if the manifest change is intended.",
        problems.len()
    );
    Ok(ExitCode::FAILURE)
}
