//! One process per data directory: an advisory lock held as long as the server's [`crate::core::state::Core`].
//!
//! Two processes on one directory broke each other: the second marked the first's live
//! regeneration `failed` at start-up (it looked interrupted) and both wrote graphs of the same
//! runs. The lock file records the holder's PID for the error message of the next one.

use crate::core::error::LiteError;
use std::fs::{File, OpenOptions, TryLockError};
use std::io::{Read, Seek, Write};
use std::path::{Path, PathBuf};

/// Name of the lock file inside the data directory.
pub const LOCK_FILE: &str = "nexus-lite.lock";

/// The held lock; released when dropped (or when the process ends, however it ends).
#[derive(Debug)]
pub struct DataDirLock {
    _file: File,
}

/// Takes the lock of `data_dir` (created if missing), or says who holds it.
pub fn lock_data_dir(data_dir: &Path) -> Result<DataDirLock, LiteError> {
    std::fs::create_dir_all(data_dir).map_err(|source| LiteError::DataDir {
        path: data_dir.to_path_buf(),
        source,
    })?;
    let path = data_dir.join(LOCK_FILE);
    let io_err = |source: std::io::Error| LiteError::DataDir {
        path: path.clone(),
        source,
    };
    let mut file = OpenOptions::new()
        .read(true)
        .write(true)
        .create(true)
        .truncate(false)
        .open(&path)
        .map_err(io_err)?;
    match file.try_lock() {
        Ok(()) => {}
        Err(TryLockError::WouldBlock) => {
            let mut text = String::new();
            let _ = file.read_to_string(&mut text);
            return Err(LiteError::DataDirInUse {
                path: canonical(data_dir),
                holder: text.trim().parse().ok(),
            });
        }
        Err(TryLockError::Error(source)) => return Err(io_err(source)),
    }
    file.set_len(0).map_err(io_err)?;
    file.rewind().map_err(io_err)?;
    writeln!(file, "{}", std::process::id()).map_err(io_err)?;
    Ok(DataDirLock { _file: file })
}

fn canonical(dir: &Path) -> PathBuf {
    dir.canonicalize().unwrap_or_else(|_| dir.to_path_buf())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_second_lock_is_refused_with_the_holder_and_taken_after_release() {
        let dir = tempfile::tempdir().unwrap();
        let held = lock_data_dir(dir.path()).unwrap();
        let err = lock_data_dir(dir.path()).unwrap_err();
        let text = err.to_string();
        assert!(
            text.contains(&dir.path().canonicalize().unwrap().display().to_string()),
            "{text}"
        );
        assert!(
            text.contains(&format!("pid {}", std::process::id())),
            "{text}"
        );
        assert!(text.contains("--data-dir"), "{text}");
        drop(held);
        // A blocking lock on a fresh descriptor: a process another test forks at this moment
        // holds a copy of the dropped descriptor until it execs, and a try-lock could lose that
        // race. Once that copy is gone the lock is free; were it never released, this would hang.
        let again = OpenOptions::new()
            .read(true)
            .write(true)
            .open(dir.path().join(LOCK_FILE))
            .unwrap();
        again.lock().unwrap();
    }
}
