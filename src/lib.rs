//! nexus-mcp runtime.
