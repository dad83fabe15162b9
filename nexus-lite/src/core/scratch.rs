//! Scratch directories for copies of a repository's content (the gate's copy of head, a
//! self-check's scratch index and objects): private to the user (0700), named with a
//! recognisable prefix in the temporary directory, and locked while in use, so a run that was
//! killed leaves nothing readable by others for long: the next run removes every unlocked
//! leftover of its prefix.

use crate::core::error::LiteError;
use std::fs::{File, OpenOptions};
use std::os::unix::fs::{MetadataExt, PermissionsExt};
use std::path::Path;
use std::time::{Duration, SystemTime};

/// The lock file inside each scratch directory, held for the directory's lifetime.
const LOCK: &str = ".nexus-scratch.lock";

/// A leftover younger than this is kept: its creator may not have taken its lock yet.
const GRACE: Duration = Duration::from_secs(60);

/// A scratch directory, removed when dropped (or by the next run, if this process dies).
#[derive(Debug)]
pub struct ScratchDir {
    // Dropped after the directory is removed: the lock outlives the files.
    dir: tempfile::TempDir,
    _lock: File,
}

impl ScratchDir {
    pub fn path(&self) -> &Path {
        self.dir.path()
    }
}

/// Creates a 0700 directory `<prefix>XXXX` in the temporary directory, after removing the
/// unlocked leftovers of `prefix` there. `what` says what it is for, in errors.
pub fn create(prefix: &str, what: &str) -> Result<ScratchDir, LiteError> {
    let parent = std::env::temp_dir();
    let dir = tempfile::Builder::new()
        .prefix(prefix)
        .permissions(std::fs::Permissions::from_mode(0o700))
        .tempdir_in(&parent)
        .map_err(|e| {
            LiteError::Task(format!(
                "cannot create a private temporary directory in {} for {what} ({e}); set TMPDIR to a writable directory",
                parent.display()
            ))
        })?;
    let lock = OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(dir.path().join(LOCK))
        .and_then(|f| f.try_lock().map(|()| f).map_err(std::io::Error::from))
        .map_err(|e| {
            LiteError::Task(format!(
                "cannot lock the temporary directory {} for {what}: {e}",
                dir.path().display()
            ))
        })?;
    sweep(&parent, prefix, dir.path());
    Ok(ScratchDir { dir, _lock: lock })
}

/// Removes the directories `<prefix>*` in `parent` that belong to this user, are not locked
/// by a live run and are older than [`GRACE`]; `mine` tells the user (and is kept).
fn sweep(parent: &Path, prefix: &str, mine: &Path) {
    let Ok(uid) = std::fs::metadata(mine).map(|m| m.uid()) else {
        return;
    };
    let Ok(entries) = std::fs::read_dir(parent) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        let ours = entry.file_name().to_string_lossy().starts_with(prefix)
            && path != mine
            // Never follows a symlink: only a real directory of this user.
            && std::fs::symlink_metadata(&path)
                .is_ok_and(|m| m.is_dir() && m.uid() == uid && old(&m));
        if ours && !locked(&path) {
            match std::fs::remove_dir_all(&path) {
                Ok(()) => {
                    tracing::info!(dir = %path.display(), "removed a leftover scratch directory of a killed run")
                }
                Err(e) => {
                    tracing::warn!(dir = %path.display(), error = %e, "cannot remove a leftover scratch directory")
                }
            }
        }
    }
}

fn old(meta: &std::fs::Metadata) -> bool {
    meta.modified()
        .ok()
        .and_then(|t| SystemTime::now().duration_since(t).ok())
        .is_some_and(|age| age > GRACE)
}

/// Whether a live run holds the directory's lock (a missing lock file is not a lock).
fn locked(dir: &Path) -> bool {
    match File::open(dir.join(LOCK)) {
        Ok(f) => f.try_lock_shared().is_err(),
        Err(_) => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A leftover is removed unless its lock is held; a young one is kept.
    #[test]
    fn unlocked_old_leftovers_go_and_locked_or_young_ones_stay() {
        let tmp = tempfile::tempdir().unwrap();
        let mk = |name: &str, age: u64| {
            let d = tmp.path().join(name);
            std::fs::create_dir(&d).unwrap();
            std::fs::write(d.join("app.py"), "x = 1\n").unwrap();
            let lock = File::create(d.join(LOCK)).unwrap();
            let t = SystemTime::now() - Duration::from_secs(age);
            File::open(&d).unwrap().set_modified(t).unwrap();
            (d, lock)
        };
        let (dead, _) = mk("nexus-x-dead", 3600);
        let (live, held) = mk("nexus-x-live", 3600);
        held.try_lock().unwrap();
        let (young, _) = mk("nexus-x-young", 0);
        let (other, _) = mk("other-dead", 3600);
        let mine = tmp.path().join("nexus-x-mine");
        std::fs::create_dir(&mine).unwrap();
        sweep(tmp.path(), "nexus-x-", &mine);
        assert!(!dead.exists());
        assert!(live.exists() && young.exists() && other.exists() && mine.exists());
    }
}
