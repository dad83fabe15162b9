//! Shared helpers for the integration tests, by concern: the fixture git repository
//! ([`fixtures`]), the spawned binary over stdio or HTTP ([`spawn`]), the real clients and rmcp
//! client helpers ([`clients`]), the in-process engine harness ([`inproc`]) and the local
//! nexus-lite daemon's world ([`local`]). The first three
//! are re-exported here, so `support::X` keeps working.
#![allow(dead_code, unused_imports)]

pub mod clients;
#[path = "../../nexus-lite/tests/common/corpora.rs"]
pub mod corpora;
pub mod deploy;
pub mod fixtures;
/// The doc-kg benchmark's generated 10,000-task folder, shared with nexus-lite's tests.
#[path = "../../nexus-lite/tests/common/generated_backlog.rs"]
pub mod generated_backlog;
pub mod inproc;
pub mod lines;
pub mod local;
/// PyPI sdists of real projects, shared with nexus-lite's tests.
#[path = "../../nexus-lite/tests/common/sdist.rs"]
pub mod sdist;
pub mod spawn;

pub use clients::*;
pub use fixtures::*;
pub use spawn::*;
