//! What the last read of each tracked file found: while a file's metadata (size, times, inode)
//! is the same, a run takes its hash, secret spans and skip reason from here instead of
//! reading, hashing and scanning it again (that is most of a one-file regeneration of a large
//! repository). Kept in memory and in SQLite (`file_reads`), so a new process (the daemon
//! after an idle exit, `nexus-lite index`) reads only the files that changed. Only files last
//! modified well before they were read are kept, so a write in the same clock tick as the read
//! is never missed (git's "racily clean" rule).

use nexus_secrets::spans::{SecretSpan, SpanKind};
use std::collections::{HashMap, HashSet};

#[derive(Clone)]
pub(super) struct Seen {
    pub(super) stamp: Stamp,
    pub(super) hash: Option<String>,
    pub(super) spans: Vec<SecretSpan>,
    pub(super) skipped: Option<String>,
}

#[derive(Clone, PartialEq, Eq)]
pub(super) struct Stamp {
    size: u64,
    mtime_ns: i128,
    ctime_ns: i128,
    ino: u64,
}

/// How much older than its read a file's last change must be for the read to be reused.
const RACY_NS: i128 = 2_000_000_000;

#[cfg(unix)]
pub(super) fn stamp_of(meta: &std::fs::Metadata) -> Option<Stamp> {
    use std::os::unix::fs::MetadataExt;
    Some(Stamp {
        size: meta.len(),
        mtime_ns: i128::from(meta.mtime()) * 1_000_000_000 + i128::from(meta.mtime_nsec()),
        ctime_ns: i128::from(meta.ctime()) * 1_000_000_000 + i128::from(meta.ctime_nsec()),
        ino: meta.ino(),
    })
}

#[cfg(not(unix))]
pub(super) fn stamp_of(_meta: &std::fs::Metadata) -> Option<Stamp> {
    None
}

pub(super) fn now_ns() -> i128 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_nanos() as i128)
        .unwrap_or(0)
}

impl Stamp {
    /// Whether a read at `read_at` (ns) may be reused while the metadata stays this.
    pub(super) fn settled_before(&self, read_at: i128) -> bool {
        self.mtime_ns + RACY_NS < read_at
    }
}

/// One read as stored (a `file_reads` row); `spans` is `start-end:kind` joined by `,`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FileRead {
    pub path: String,
    pub size: i64,
    pub mtime_ns: i64,
    pub ctime_ns: i64,
    pub ino: i64,
    pub hash: Option<String>,
    pub spans: String,
    pub skipped: Option<String>,
}

impl FileRead {
    fn of(path: &str, seen: &Seen) -> Option<FileRead> {
        let spans: Vec<String> = seen
            .spans
            .iter()
            .map(|s| format!("{}-{}:{}", s.start, s.end, s.kind.as_str()))
            .collect();
        Some(FileRead {
            path: path.to_string(),
            size: i64::try_from(seen.stamp.size).ok()?,
            mtime_ns: i64::try_from(seen.stamp.mtime_ns).ok()?,
            ctime_ns: i64::try_from(seen.stamp.ctime_ns).ok()?,
            ino: i64::try_from(seen.stamp.ino).ok()?,
            hash: seen.hash.clone(),
            spans: spans.join(","),
            skipped: seen.skipped.clone(),
        })
    }

    /// The read this row stores; `None` for a row this version cannot take (it is read again).
    fn seen(&self) -> Option<Seen> {
        let mut spans = Vec::new();
        for span in self.spans.split(',').filter(|s| !s.is_empty()) {
            let (lines, kind) = span.split_once(':')?;
            let (start, end) = lines.split_once('-')?;
            spans.push(SecretSpan {
                start: start.parse().ok()?,
                end: end.parse().ok()?,
                kind: SpanKind::parse(kind),
            });
        }
        Some(Seen {
            stamp: Stamp {
                size: u64::try_from(self.size).ok()?,
                mtime_ns: i128::from(self.mtime_ns),
                ctime_ns: i128::from(self.ctime_ns),
                ino: u64::try_from(self.ino).ok()?,
            },
            hash: self.hash.clone(),
            spans,
            skipped: self.skipped.clone(),
        })
    }
}

/// The reads of one repository's files, by path.
#[derive(Default)]
pub(super) struct Reads {
    seen: HashMap<String, Seen>,
    /// Paths remembered or forgotten since the database last took them.
    unstored: HashSet<String>,
    /// Whether the stored reads were taken in (once per process).
    loaded: bool,
}

impl Reads {
    /// The last read of `path`, if its metadata is still `stamp`.
    pub(super) fn get(&self, path: &str, stamp: &Stamp) -> Option<Seen> {
        self.seen.get(path).filter(|s| s.stamp == *stamp).cloned()
    }

    pub(super) fn remember(&mut self, path: &str, seen: Seen) {
        self.unstored.insert(path.to_string());
        self.seen.insert(path.to_string(), seen);
    }

    /// Forgets the reads of files no longer tracked.
    pub(super) fn retain(&mut self, tracked: &HashSet<String>) {
        let gone: Vec<String> = self
            .seen
            .keys()
            .filter(|p| !tracked.contains(*p))
            .cloned()
            .collect();
        for path in gone {
            self.seen.remove(&path);
            self.unstored.insert(path);
        }
    }

    pub(super) fn loaded(&self) -> bool {
        self.loaded
    }

    /// Takes in the stored reads (a read this process made already wins).
    pub(super) fn load(&mut self, rows: Vec<FileRead>) {
        self.loaded = true;
        for row in rows {
            if let Some(seen) = row.seen() {
                self.seen.entry(row.path).or_insert(seen);
            }
        }
    }

    /// What the database lacks: reads to write, and paths whose read to delete.
    pub(super) fn unstored(&self) -> (Vec<FileRead>, Vec<String>) {
        let mut write = Vec::new();
        let mut delete = Vec::new();
        for path in &self.unstored {
            match self.seen.get(path).and_then(|s| FileRead::of(path, s)) {
                Some(row) => write.push(row),
                None => delete.push(path.clone()),
            }
        }
        (write, delete)
    }

    /// Records that the database holds `paths` as they are now (after the COMMIT).
    pub(super) fn stored(&mut self, paths: &[String]) {
        for p in paths {
            self.unstored.remove(p);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_stored_read_comes_back_as_it_was() {
        let seen = Seen {
            stamp: Stamp {
                size: 42,
                mtime_ns: 1_700_000_000_123_456_789,
                ctime_ns: 1_700_000_001_000_000_000,
                ino: 77,
            },
            hash: Some("sha256:ab".into()),
            spans: vec![
                SecretSpan {
                    start: 3,
                    end: 9,
                    kind: SpanKind::PrivateKey,
                },
                SecretSpan {
                    start: 12,
                    end: 12,
                    kind: SpanKind::HighEntropy,
                },
            ],
            skipped: None,
        };
        let row = FileRead::of("a/b.py", &seen).unwrap();
        let back = row.seen().unwrap();
        assert!(back.stamp == seen.stamp);
        assert_eq!(back.hash, seen.hash);
        assert_eq!(back.spans, seen.spans);
        let mut reads = Reads::default();
        reads.load(vec![row.clone()]);
        assert!(reads.get("a/b.py", &seen.stamp).is_some());
        assert!(
            reads.unstored().0.is_empty(),
            "a loaded read is stored already"
        );
        reads.retain(&HashSet::new());
        assert_eq!(reads.unstored(), (vec![], vec!["a/b.py".to_string()]));
    }
}
