//! nexus-mcp: an MCP server, declared in manifest/*.yaml, that gives coding agents a read-mostly
//! view of a Nexus code knowledge graph through the Nexus HTTP API only.

pub mod access;
pub mod app;
pub mod auth;
pub mod client_log;
pub mod code_kg;
pub mod completion;
pub mod contract;
pub mod contract_extra;
pub mod dispatch;
pub mod embedded;
pub mod freshness;
pub mod generated;
pub mod handler;
pub mod http;
pub mod local_paths;
pub mod mapping;
pub mod nexus_client;
pub mod redact;
pub mod server;
pub mod spec;
pub mod sse;
pub mod stdio;
pub mod templates;
pub mod tool_cost;
pub mod trim;

pub use generated::SURFACES;

/// The surface called `name`.
pub fn surface(name: &str) -> Option<&'static spec::SurfaceSpec> {
    SURFACES.iter().copied().find(|s| s.name == name)
}
