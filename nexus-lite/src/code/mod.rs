//! The code graph: indexes git work trees with tree-sitter into nodes, edges and imports,
//! attaches analyser findings, and serves them (graphs, findings, impact, compare,
//! regenerations). See `crate::core` for how a domain plugs in.

pub mod api;
pub mod cache;
pub mod engine;
pub mod findings;
pub mod graph_cache;
pub mod index;
pub mod lang;
pub mod migrations;
pub mod retention;
pub mod store;

use crate::core::Domain;

pub use api::router;

pub const DOMAIN: Domain = Domain {
    name: "code",
    // Versions 1-5 predate domains (one list for everything); the range keeps them.
    versions: 1..=999,
    migrations: migrations::MIGRATIONS,
    openapi: include_str!("openapi.json"),
    routes: &[
        ("GET", "/api/v1/repositories"),
        ("GET", "/api/v1/graphs/select"),
        ("GET", "/api/v1/graphs"),
        ("GET", "/api/v1/summary"),
        ("GET", "/api/v1/findings"),
        ("GET", "/api/v1/findings/{finding_id}"),
        ("GET", "/api/v1/audit-risks"),
        ("GET", "/api/v1/anomalies"),
        ("GET", "/api/v1/anomalies/{anomaly_id}"),
        ("GET", "/api/v1/file-context"),
        ("GET", "/api/v1/impact"),
        ("GET", "/api/v1/compare"),
        ("POST", "/api/v1/regenerations/plan"),
        ("POST", "/api/v1/regenerations"),
        ("GET", "/api/v1/regenerations/{regeneration_id}"),
    ],
};
