//! Subcommands of the nexus-mcp command line that are not MCP serving (one module each).

pub mod gate;
pub mod nexus;
pub mod rules;
pub mod status;
pub mod terminal;
