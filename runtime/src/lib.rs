//! nexus-mcp-runtime: the generic MCP engine behind every nexus-mcp surface. It is driven by the
//! registry nexus-mcp-codegen generates from a manifest, reaches knowledge only through the
//! Nexus HTTP API, and names no surface: a surface's own code binds in through [`app::SurfaceParts`].

pub mod app;
pub mod arguments;
pub mod asking;
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
/// The one secret filter (its own crate, shared with nexus-lite), under its old path.
pub use nexus_secrets as redact;
pub mod templates;
pub mod transport;
pub mod trim;
pub mod uri_template;

// The registry types live in their own leaf crate (codegen builds the same values); the
// re-exports keep `runtime::spec` and friends where every user and the generated code look.
pub use nexus_mcp_registry::{access, json, spec, tool_cost};
