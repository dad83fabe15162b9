//! nexus-mcp-runtime: the generic MCP engine behind every nexus-mcp surface. It is driven by the
//! registry nexus-mcp-codegen generates from a manifest, reaches knowledge only through the
//! Nexus HTTP API, and names no surface: a surface's own code binds in through [`app::SurfaceParts`].

pub mod access;
pub mod app;
pub mod arguments;
pub mod backend;
pub mod call;
pub mod caller;
pub mod contract;
pub mod contract_extra;
pub mod error;
pub mod local_paths;
pub mod log;
pub mod mcp;
pub mod quote;
pub mod redact;
pub mod spec;
pub mod templates;
pub mod tool_cost;
pub mod transport;
pub mod trim;
pub mod uri_template;
