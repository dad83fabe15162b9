//! `nexus-mcp --manifest FILE`: serves a manifest that is not compiled in, for spec authors
//! trying one out and for the conformance test. The file is checked by the same code as the
//! build (errors at file:line:column) and its registry is the value the build would bake
//! (`nexus_mcp_codegen::surface`). Custom tools need compiled code, so a manifest declaring any
//! is refused, naming them.

use nexus_mcp_codegen::model::HandlerKind;
use nexus_mcp_runtime::spec::SurfaceSpec;
use std::path::{Path, PathBuf};

#[derive(Debug, thiserror::Error)]
pub enum ManifestFileError {
    #[error("cannot read the manifest {path}: {source}")]
    Read {
        path: PathBuf,
        source: std::io::Error,
    },
    /// Every problem, one `FILE:LINE:COL: ...` line each.
    #[error("{0}")]
    Invalid(String),
    #[error(
        "{path} declares custom tools ({names}): custom tools need compiled code. Put the manifest under manifest/ and bind its handlers in src/surfaces/mod.rs, or make them `handler: mapped`."
    )]
    CustomTools { path: PathBuf, names: String },
}

/// Reads, checks and registers the manifest at `path`.
pub fn load(path: &Path) -> Result<&'static SurfaceSpec, ManifestFileError> {
    let source = std::fs::read_to_string(path).map_err(|source| ManifestFileError::Read {
        path: path.to_owned(),
        source,
    })?;
    let manifest = nexus_mcp_codegen::parse(path, &source).map_err(|errors| {
        let lines: Vec<String> = errors.iter().map(ToString::to_string).collect();
        ManifestFileError::Invalid(lines.join("\n"))
    })?;
    let custom: Vec<&str> = manifest
        .tools
        .iter()
        .filter(|t| t.handler == HandlerKind::Custom)
        .map(|t| t.name.as_str())
        .collect();
    if !custom.is_empty() {
        return Err(ManifestFileError::CustomTools {
            path: path.to_owned(),
            names: custom.join(", "),
        });
    }
    Ok(nexus_mcp_codegen::surface(&manifest))
}
