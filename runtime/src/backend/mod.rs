//! The backend every surface reads through: the Nexus HTTP API (a remote Nexus or the embedded
//! nexus-lite), and how a manifest mapping turns tool arguments into a request.

mod client;
pub mod mapping;

pub use client::*;
