//! The state every domain shares: the data directory (locked for this process), the bearer
//! token, the kept read connections and the permits of blocking request work.

use crate::core::Domain;
use crate::core::db::{self, Reader, Readers};
use crate::core::error::LiteError;
use crate::core::lock::{DataDirLock, lock_data_dir};
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

/// Read connections kept open: an agent's calls come one or two at a time.
const READERS: usize = 2;

/// Requests running on blocking threads at once; the others wait as futures. A burst of a
/// thousand concurrent calls otherwise grows tokio's blocking pool to hundreds of threads, each
/// with its own SQLite connection and page cache, and that memory is slow to come back.
const BLOCKING_REQUESTS: usize = 8;

pub struct Core {
    pub data_dir: PathBuf,
    pub token: String,
    readers: Readers,
    /// Permits for [`BLOCKING_REQUESTS`], each held until its blocking work ends.
    pub blocking_permits: Arc<tokio::sync::Semaphore>,
    /// The domains whose migrations ran in this process ([`Core::open_domain`]).
    opened: Mutex<BTreeSet<&'static str>>,
    /// Held for the state's life (the process's, in both binaries): one process per data dir.
    _data_dir_lock: DataDirLock,
}

impl Core {
    /// Locks `data_dir`, opens its database and applies the core's own pending migrations; each
    /// domain brings its tables with [`Core::open_domain`] when it is first served.
    pub fn open(data_dir: &Path, token: &str) -> Result<Arc<Core>, LiteError> {
        // Before anything touches the database: a domain's start-up recovery would mark
        // another process's live runs failed.
        let data_dir_lock = lock_data_dir(data_dir)?;
        let mut conn = db::open(data_dir)?;
        db::migrate(&mut conn, &[crate::core::DOMAIN.migrations])?;
        let readers = Readers::open(data_dir, READERS)?;
        Ok(Arc::new(Core {
            data_dir: data_dir.to_path_buf(),
            token: token.to_string(),
            readers,
            blocking_permits: Arc::new(tokio::sync::Semaphore::new(BLOCKING_REQUESTS)),
            opened: Mutex::new(BTreeSet::new()),
            _data_dir_lock: data_dir_lock,
        }))
    }

    /// Applies `domain`'s pending migrations, once per process: a server creates the tables of
    /// the domains it serves and no others. True the first time (the domain's start-up work,
    /// such as recovering interrupted runs, goes with it).
    pub fn open_domain(&self, domain: &Domain) -> Result<bool, LiteError> {
        let mut opened = self.opened.lock().unwrap_or_else(|p| p.into_inner());
        if opened.contains(domain.name) {
            return Ok(false);
        }
        db::migrate(&mut self.writer()?, &[domain.migrations])?;
        opened.insert(domain.name);
        Ok(true)
    }

    /// A read connection (WAL lets it read while a run writes).
    pub fn reader(&self) -> Result<Reader<'_>, LiteError> {
        self.readers.get()
    }

    /// A new read-write connection (writers are short-lived: one per run or request).
    pub fn writer(&self) -> Result<rusqlite::Connection, LiteError> {
        db::open(&self.data_dir)
    }
}
