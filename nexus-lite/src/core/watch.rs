//! Change tracking for the index: on Linux an inotify watch on every directory the walk visited,
//! drained without blocking at each request, so a request where nothing changed costs one
//! `read` that returns `EAGAIN` instead of a `stat` per file.
//!
//! Why "the very next request sees the edit" holds with no flush and no sleep: the kernel queues
//! an inotify event inside the write, truncate, create, unlink or rename call itself (fsnotify
//! runs before the call returns), so an edit whose call returned before the client sent its
//! request is already in the queue when that request drains it. The watch of a directory is
//! added when the walk yields it, before its entries are read and stat'ed, so the walk misses
//! no change in between. What a path list cannot describe (queue overflow, a watched directory
//! removed, a directory created, moved or deleted) is reported as [`Changes::Rescan`]: the
//! caller walks again. Where inotify is missing (not Linux, no watches left) the caller walks on
//! every request, as before.

use std::collections::BTreeSet;

/// What changed since the last drain.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Changes {
    /// Paths relative to the watched root (files, or names in a watched directory).
    pub paths: BTreeSet<String>,
    /// The path list is incomplete: walk the whole tree again.
    pub rescan: bool,
}

#[cfg(target_os = "linux")]
mod imp {
    use super::Changes;
    use rustix::fd::OwnedFd;
    use rustix::fs::inotify::{self, CreateFlags, ReadFlags, WatchFlags};
    use rustix::io::Errno;
    use std::collections::{BTreeSet, HashMap};
    use std::mem::MaybeUninit;
    use std::path::Path;

    /// One inotify instance and its watched directories (relative to the root, `""` is the
    /// root itself).
    pub struct Watcher {
        fd: OwnedFd,
        by_wd: HashMap<i32, String>,
        by_dir: HashMap<String, i32>,
    }

    fn mask() -> WatchFlags {
        WatchFlags::MODIFY
            | WatchFlags::ATTRIB
            | WatchFlags::CREATE
            | WatchFlags::DELETE
            | WatchFlags::MOVED_FROM
            | WatchFlags::MOVED_TO
            | WatchFlags::DELETE_SELF
            | WatchFlags::MOVE_SELF
            | WatchFlags::ONLYDIR
            | WatchFlags::DONT_FOLLOW
            | WatchFlags::EXCL_UNLINK
    }

    impl Watcher {
        pub fn new() -> std::io::Result<Watcher> {
            let fd = inotify::init(CreateFlags::NONBLOCK | CreateFlags::CLOEXEC)?;
            Ok(Watcher {
                fd,
                by_wd: HashMap::new(),
                by_dir: HashMap::new(),
            })
        }

        /// Watches `abs` (the directory `rel` of the root); watching it again is a no-op.
        pub fn watch(&mut self, abs: &Path, rel: &str) -> std::io::Result<()> {
            if self.by_dir.contains_key(rel) {
                return Ok(());
            }
            let wd = inotify::add_watch(&self.fd, abs, mask())?;
            // Hard links or a rename can hand back a known descriptor: the newest path wins.
            if let Some(old) = self.by_wd.insert(wd, rel.to_string()) {
                self.by_dir.remove(&old);
            }
            self.by_dir.insert(rel.to_string(), wd);
            Ok(())
        }

        /// Stops watching every directory not in `keep` (gone, or now ignored).
        pub fn retain(&mut self, keep: &BTreeSet<String>) {
            let gone: Vec<(String, i32)> = self
                .by_dir
                .iter()
                .filter(|(d, _)| !keep.contains(*d))
                .map(|(d, wd)| (d.clone(), *wd))
                .collect();
            for (dir, wd) in gone {
                // Fails when the kernel already dropped it (directory removed): nothing to do.
                let _ = inotify::remove_watch(&self.fd, wd);
                self.by_dir.remove(&dir);
                self.by_wd.remove(&wd);
            }
        }

        /// Every queued event, without blocking.
        pub fn drain(&mut self) -> std::io::Result<Changes> {
            let mut out = Changes::default();
            let mut buf = [MaybeUninit::<u8>::uninit(); 8192];
            let mut reader = inotify::Reader::new(&self.fd, &mut buf);
            loop {
                let event = match reader.next() {
                    Ok(e) => e,
                    Err(Errno::AGAIN) => break,
                    Err(Errno::INTR) => continue,
                    Err(e) => return Err(e.into()),
                };
                let flags = event.events();
                if flags.contains(ReadFlags::QUEUE_OVERFLOW) {
                    out.rescan = true;
                    continue;
                }
                let Some(dir) = self.by_wd.get(&event.wd()) else {
                    continue;
                };
                if flags
                    .intersects(ReadFlags::IGNORED | ReadFlags::DELETE_SELF | ReadFlags::MOVE_SELF)
                {
                    out.rescan = true;
                    if flags.contains(ReadFlags::IGNORED) {
                        let dir = dir.clone();
                        self.by_dir.remove(&dir);
                        self.by_wd.remove(&event.wd());
                    }
                    continue;
                }
                let structural = ReadFlags::CREATE
                    | ReadFlags::DELETE
                    | ReadFlags::MOVED_FROM
                    | ReadFlags::MOVED_TO;
                if flags.contains(ReadFlags::ISDIR) && flags.intersects(structural) {
                    // A directory appeared or went: the set of watched directories changes.
                    out.rescan = true;
                    continue;
                }
                if flags.contains(ReadFlags::ISDIR) {
                    continue;
                }
                let Some(name) = event.file_name().and_then(|n| n.to_str().ok()) else {
                    // A name that is not UTF-8 is never indexed (the walk skips it too).
                    continue;
                };
                out.paths.insert(if dir.is_empty() {
                    name.to_string()
                } else {
                    format!("{dir}/{name}")
                });
            }
            Ok(out)
        }
    }
}

#[cfg(not(target_os = "linux"))]
mod imp {
    use super::Changes;
    use std::collections::BTreeSet;
    use std::path::Path;

    /// No watcher off Linux: the index walks on every request.
    pub struct Watcher;

    impl Watcher {
        pub fn new() -> std::io::Result<Watcher> {
            Err(std::io::Error::new(
                std::io::ErrorKind::Unsupported,
                "file watching is implemented with inotify (Linux only)",
            ))
        }
        pub fn watch(&mut self, _abs: &Path, _rel: &str) -> std::io::Result<()> {
            Ok(())
        }
        pub fn retain(&mut self, _keep: &BTreeSet<String>) {}
        pub fn drain(&mut self) -> std::io::Result<Changes> {
            Ok(Changes {
                rescan: true,
                ..Changes::default()
            })
        }
    }
}

pub use imp::Watcher;
