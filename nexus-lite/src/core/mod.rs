//! What every domain shares: the analyser runner ([`analyser`]), the database and its migration runner ([`db`]), HTTP helpers and
//! auth ([`http`]), graph algorithms ([`graph`]), the workspace ([`git`], the data-directory
//! [`lock`], private [`scratch`] directories, [`util`], inotify [`watch`]), the typed error ([`error`]) and the server state all domains read
//! through ([`state::Core`]).
//!
//! # How a domain plugs in
//!
//! A domain is a module `src/<name>/` (`code`, `docs`, `rules`) that
//! depends on `core` and on no other domain, and brings:
//! - a [`Domain`] value listed in `crate::DOMAINS`: its migrations (in a version range of its
//!   own), its OpenAPI fragment (`paths` and `components` merged into the served document by
//!   [`openapi::document`]) and its routes, as `(METHOD, OpenAPI path)`;
//! - a `router` over its own state (built on the shared [`state::Core`]), merged by
//!   `crate::server::Domains::router` under the bearer-token check;
//! - its store (tables of its own, created by [`state::Core::open_domain`] when the domain is
//!   first served, reached through [`state::Core::reader`] and [`db::open`]).
//!
//! Adding a domain is a new module, one line in `crate::DOMAINS` and one `merge` in
//! `crate::server::Domains::router`; no other domain changes.

pub mod analyser;
pub mod config;
pub mod db;
pub mod error;
pub mod git;
pub mod graph;
pub mod http;
pub mod lock;
pub mod openapi;
pub mod repos;
pub mod scratch;
pub mod state;
pub mod util;
pub mod watch;

use std::ops::RangeInclusive;

/// What a domain adds to the server (see the module comment).
#[derive(Debug)]
pub struct Domain {
    pub name: &'static str,
    /// The migration versions this domain may use; disjoint from every other domain's.
    pub versions: RangeInclusive<i64>,
    /// Applied in this order, each version once.
    pub migrations: &'static [db::Migration],
    /// OpenAPI 3.1 fragment: `{"paths": {...}, "components": {...}}` (the core's also carries
    /// the document's head: `openapi`, `info`, `servers`, `security`).
    pub openapi: &'static str,
    /// Every route served, as (METHOD, OpenAPI path); a test checks them against the document.
    pub routes: &'static [(&'static str, &'static str)],
}

/// The core's own part: liveness and the API document, both without auth. It has no tables
/// yet; its migrations will take versions 1000..=1999.
pub const DOMAIN: Domain = Domain {
    name: "core",
    versions: 1000..=1999,
    migrations: &[],
    openapi: include_str!("openapi.json"),
    routes: &[("GET", "/healthz"), ("GET", "/openapi.json")],
};
