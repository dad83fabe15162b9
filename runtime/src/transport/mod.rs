//! How MCP reaches the server: stdio for a local agent, HTTP (Streamable HTTP and legacy SSE)
//! for remote agents with API keys.

pub mod auth;
pub mod http;
pub mod sse;
pub mod stdio;
