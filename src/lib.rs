//! nexus-mcp: MCP surfaces declared in manifest/*.yaml, served by the generic engine in
//! nexus-mcp-runtime through the Nexus HTTP API only (a remote Nexus or the local nexus-lite).
//! This crate holds what is not generic: the generated registry, each surface's own code, the
//! local backend and the command line.

pub mod cli;
pub mod generated;
pub mod local_nexus;
pub mod manifest_file;
pub mod surfaces;

pub use generated::SURFACES;
pub use nexus_mcp_runtime as runtime;

/// The surface called `name`.
pub fn surface(name: &str) -> Option<&'static nexus_mcp_runtime::spec::SurfaceSpec> {
    SURFACES.iter().copied().find(|s| s.name == name)
}
