//! The shared local daemon (issue 25): one nexus-lite per data directory, reached over a Unix
//! socket in it, serving each registered client a view of its own repositories and workspaces.
//! Modules: [`files`] (the data directory's files, modes and owners), [`registry`] (clients and
//! their tokens), [`admin`] (the routes), [`listener`] (the peer-uid check), [`daemon`]
//! (start-up, serving, idle and removed-directory shutdown) and [`join`] (the client end: find or
//! start the daemon, register, re-join when it goes away).

pub mod admin;
pub mod daemon;
pub mod files;
pub mod join;
pub mod listener;
pub mod registry;

pub use daemon::{DaemonArgs, DaemonConfig, exit_code, main, run, serve};
