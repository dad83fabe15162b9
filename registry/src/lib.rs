//! nexus-mcp-registry: the value a manifest compiles to. codegen builds it (`surface`) and bakes
//! it into Rust; the runtime is driven by it; `--manifest` builds it at run time with the same
//! function. A leaf crate, so both sides share one definition, one canonical JSON and one
//! tool-list cost.

pub mod access;
pub mod json;
pub mod spec;
pub mod tool_cost;
