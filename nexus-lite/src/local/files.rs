//! The daemon's files in the data directory: ownership and modes, `nexus-lite.daemon.json`
//! (written atomically, removed only while it is still ours), the user and the host.

use crate::core::error::LiteError;
use serde::{Deserialize, Serialize};
use std::fs::{OpenOptions, Permissions};
use std::io::Write;
use std::os::unix::fs::{MetadataExt, OpenOptionsExt, PermissionsExt};
use std::path::{Path, PathBuf};

pub const SOCKET_FILE: &str = "nexus-lite.sock";
pub const DAEMON_FILE: &str = "nexus-lite.daemon.json";
pub const START_LOCK_FILE: &str = "nexus-lite.start.lock";
pub const LOG_FILE: &str = "nexus-lite.log";

/// What `nexus-lite.daemon.json` holds (see the design: clients read it to connect).
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Eq)]
pub struct DaemonFile {
    pub pid: u32,
    pub host: String,
    pub uid: u32,
    pub version: String,
    pub started_at: String,
    pub socket: PathBuf,
    pub token: String,
}

/// This process's effective uid.
pub fn my_uid() -> u32 {
    rustix::process::geteuid().as_raw()
}

/// This machine's host name.
pub fn hostname() -> String {
    rustix::system::uname()
        .nodename()
        .to_string_lossy()
        .into_owned()
}

fn io(what: &str, path: &Path) -> impl FnOnce(std::io::Error) -> LiteError {
    let (what, path) = (what.to_string(), path.to_path_buf());
    move |source| LiteError::Local { what, path, source }
}

/// Creates `dir` (0700) or checks it is ours, tightening it to 0700 if looser; the daemon's
/// files already there must be ours too.
pub fn prepare_data_dir(dir: &Path) -> Result<(), LiteError> {
    if !dir.exists() {
        std::fs::create_dir_all(dir).map_err(|source| LiteError::DataDir {
            path: dir.to_path_buf(),
            source,
        })?;
    }
    let me = my_uid();
    let meta = std::fs::metadata(dir).map_err(io("read the metadata of", dir))?;
    check_owner(dir, dir, meta.uid(), me)?;
    if meta.mode() & 0o077 != 0 {
        std::fs::set_permissions(dir, Permissions::from_mode(0o700))
            .map_err(io("restrict to its owner (0700)", dir))?;
    }
    for name in [
        crate::core::lock::LOCK_FILE,
        SOCKET_FILE,
        DAEMON_FILE,
        START_LOCK_FILE,
        LOG_FILE,
    ] {
        let path = dir.join(name);
        if let Ok(m) = std::fs::symlink_metadata(&path) {
            check_owner(dir, &path, m.uid(), me)?;
        }
    }
    Ok(())
}

fn check_owner(dir: &Path, path: &Path, owner: u32, me: u32) -> Result<(), LiteError> {
    if owner == me {
        return Ok(());
    }
    Err(LiteError::NotYours {
        data_dir: dir.to_path_buf(),
        path: path.to_path_buf(),
        owner,
        uid: me,
    })
}

/// Sets `path` to 0600 (creating it empty when missing, e.g. the log when stderr goes
/// elsewhere).
pub fn owner_only(path: &Path) -> Result<(), LiteError> {
    OpenOptions::new()
        .append(true)
        .create(true)
        .mode(0o600)
        .open(path)
        .map_err(io("create", path))?;
    std::fs::set_permissions(path, Permissions::from_mode(0o600))
        .map_err(io("restrict to its owner (0600)", path))
}

/// Writes `daemon.json` atomically: a 0600 temporary file renamed over it.
pub fn write_daemon_file(dir: &Path, file: &DaemonFile) -> Result<(), LiteError> {
    let path = dir.join(DAEMON_FILE);
    let tmp = dir.join(format!("{DAEMON_FILE}.{}.tmp", std::process::id()));
    let _ = std::fs::remove_file(&tmp);
    let text = serde_json::to_vec(file).map_err(|e| LiteError::Task(e.to_string()))?;
    let mut f = OpenOptions::new()
        .write(true)
        .create_new(true)
        .mode(0o600)
        .open(&tmp)
        .map_err(io("create", &tmp))?;
    f.write_all(&text).map_err(io("write", &tmp))?;
    // No fsync: the file matters only while its daemon lives (after a crash of the machine the
    // next daemon writes it anew), and on a busy disk the fsync cost a starting client ~19 ms.
    std::fs::rename(&tmp, &path).map_err(io("rename into place", &path))
}

/// The daemon file of `dir`, if there is a readable one.
pub fn read_daemon_file(dir: &Path) -> Option<DaemonFile> {
    let text = std::fs::read(dir.join(DAEMON_FILE)).ok()?;
    serde_json::from_slice(&text).ok()
}

/// The (device, inode) of `path`: tells whether a file or directory is still the one we made.
pub fn identity(path: &Path) -> Option<(u64, u64)> {
    std::fs::symlink_metadata(path)
        .ok()
        .map(|m| (m.dev(), m.ino()))
}

/// Removes the socket and daemon file when they are still this daemon's (a newer daemon may
/// have replaced them after we lost the data directory).
pub fn remove_own(dir: &Path, socket: Option<(u64, u64)>, token: &str) {
    let sock = dir.join(SOCKET_FILE);
    if socket.is_some() && identity(&sock) == socket {
        let _ = std::fs::remove_file(&sock);
    }
    if read_daemon_file(dir).is_some_and(|f| f.pid == std::process::id() && f.token == token) {
        let _ = std::fs::remove_file(dir.join(DAEMON_FILE));
    }
}
