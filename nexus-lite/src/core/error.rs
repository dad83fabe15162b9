//! Typed errors of the crate.

use std::path::PathBuf;

/// Everything that can go wrong in nexus-lite outside of request validation.
#[derive(Debug, thiserror::Error)]
pub enum LiteError {
    #[error(
        "cannot open the nexus-lite database at {path}: {source}; check that the data directory is writable"
    )]
    OpenDb {
        path: PathBuf,
        #[source]
        source: rusqlite::Error,
    },
    #[error("database error while {context}: {source}")]
    Db {
        context: String,
        #[source]
        source: rusqlite::Error,
    },
    #[error("cannot create the data directory {path}: {source}")]
    DataDir {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    #[error(
        "the data directory {} is in use by another nexus-lite or nexus-mcp process{}; stop that process, or give this one another data directory (--data-dir)",
        path.display(),
        holder.map(|pid| format!(" (pid {pid})")).unwrap_or_default()
    )]
    DataDirInUse { path: PathBuf, holder: Option<u32> },
    #[error(
        "repository path {path} is not usable: {reason}; pass the root of a git work tree with --repo"
    )]
    BadRepo { path: PathBuf, reason: String },
    #[error("git {args} failed in {path}: {message}")]
    Git {
        path: PathBuf,
        args: String,
        message: String,
    },
    #[error("cannot listen on {addr}: {source}; pick another --listen address or free the port")]
    Bind {
        addr: std::net::SocketAddr,
        #[source]
        source: std::io::Error,
    },
    #[error(
        "two repositories are registered under the name {name}; give one of them an explicit NAME= in --repo"
    )]
    DuplicateRepo { name: String },
    #[error(
        "repository name {name} is already served from {} by another client; name this one with --repo OTHER={}",
        root.display(),
        path.display()
    )]
    RepoNameTaken {
        name: String,
        root: PathBuf,
        path: PathBuf,
    },
    #[error(
        "{}belongs to uid {owner}, not to you (uid {uid}): nexus-lite serves each user from their own data directory; pass --data-dir with a directory of yours",
        if path == data_dir { format!("the data directory {} ", data_dir.display()) } else { format!("{} in the data directory {} ", path.display(), data_dir.display()) }
    )]
    NotYours {
        data_dir: PathBuf,
        path: PathBuf,
        owner: u32,
        uid: u32,
    },
    #[error(
        "{} is served by nexus-lite pid {pid} on host {host}: a data directory cannot be shared between machines (it holds a SQLite database and a Unix socket); give this machine its own --data-dir",
        path.display()
    )]
    OtherHost {
        path: PathBuf,
        pid: u32,
        host: String,
    },
    #[error("cannot {what} {}: {source}; check the data directory's permissions and free space", path.display())]
    Local {
        what: String,
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    #[error("cannot read config file {path}: {reason}")]
    Config { path: PathBuf, reason: String },
    #[error("indexing {repository} failed: {reason}")]
    Index { repository: String, reason: String },
    #[error("internal task failure: {0}")]
    Task(String),
}

impl LiteError {
    pub fn db(context: impl Into<String>) -> impl FnOnce(rusqlite::Error) -> LiteError {
        let context = context.into();
        move |source| LiteError::Db { context, source }
    }
}
