//! The database every domain shares: one SQLite file per data directory (WAL, so reads go on
//! while a run writes), kept read connections, and the migration runner.
//!
//! Migrations: each domain brings its own list in its own version range (`Domain::versions`);
//! `schema_migrations(version, description, applied_at)` records what was applied, one row per
//! version. A version is applied when it is not recorded yet, when its domain is first served
//! (`Core::open_domain`: a server creates only its domains' tables), ascending within a domain. The code domain keeps versions 1-5 of the
//! single list used before domains existed, so those databases open as they are.

use crate::core::error::LiteError;
use rusqlite::{Connection, params};
use std::collections::HashSet;
use std::ops::Deref;
use std::path::{Path, PathBuf};
use std::sync::{Mutex, MutexGuard, TryLockError};

/// One schema change of a domain.
#[derive(Debug)]
pub struct Migration {
    /// Unique across domains: inside the domain's `versions` range.
    pub version: i64,
    pub description: &'static str,
    pub sql: &'static str,
}

/// Opens (creating if missing) the database in `data_dir`; [`migrate`] brings its schema up to date.
pub fn open(data_dir: &Path) -> Result<Connection, LiteError> {
    std::fs::create_dir_all(data_dir).map_err(|source| LiteError::DataDir {
        path: data_dir.to_path_buf(),
        source,
    })?;
    let path = db_path(data_dir);
    let conn = Connection::open(&path).map_err(|source| LiteError::OpenDb {
        path: path.clone(),
        source,
    })?;
    conn.busy_timeout(std::time::Duration::from_secs(30))
        .map_err(LiteError::db("setting the busy timeout"))?;
    conn.execute_batch(
        "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL; PRAGMA foreign_keys=ON;",
    )
    .map_err(LiteError::db("enabling WAL mode"))?;
    Ok(conn)
}

/// A read-only connection (`query_only`: a read path can never write).
fn open_reader(data_dir: &Path) -> Result<Connection, LiteError> {
    let conn = open(data_dir)?;
    conn.execute_batch("PRAGMA query_only=ON;")
        .map_err(LiteError::db("opening a read connection"))?;
    Ok(conn)
}

/// Read connections kept open for the server's lifetime. Opening one per request made SQLite
/// build and tear down its WAL index each time (the last connection to close checkpoints and
/// deletes the -wal and -shm files): about two thirds of a 0.55 ms graphs/select.
pub struct Readers {
    data_dir: PathBuf,
    kept: Vec<Mutex<Connection>>,
}

/// A read connection: one of the kept ones, or, when all are busy, one of its own. Its reads
/// are one snapshot (a deferred transaction, ended when it is dropped): a request reading a
/// graph in several queries never sees it half pruned or half written.
pub enum Reader<'a> {
    Kept(MutexGuard<'a, Connection>),
    Own(Connection),
}

impl Drop for Reader<'_> {
    fn drop(&mut self) {
        if !self.is_autocommit() {
            // A read-only transaction: nothing to keep. A failure leaves the connection in its
            // transaction, and the next `begin` says so.
            if let Err(e) = self.execute_batch("ROLLBACK") {
                tracing::warn!(error = %e, "ending a read snapshot");
            }
        }
    }
}

/// Ends `conn`'s read snapshot and begins another, to see what was committed since (after
/// waiting for a run another connection wrote). A connection in no transaction is left as is.
pub fn renew_snapshot(conn: &Connection) -> Result<(), LiteError> {
    if conn.is_autocommit() {
        return Ok(());
    }
    conn.execute_batch("ROLLBACK; BEGIN DEFERRED")
        .map_err(LiteError::db("renewing a read snapshot"))
}

/// `reader` with its snapshot begun (afresh when an earlier failure left it in one).
fn begin(reader: Reader<'_>) -> Result<Reader<'_>, LiteError> {
    if reader.is_autocommit() {
        reader
            .execute_batch("BEGIN DEFERRED")
            .map_err(LiteError::db("beginning a read snapshot"))?;
    } else {
        renew_snapshot(&reader)?;
    }
    Ok(reader)
}

impl Deref for Reader<'_> {
    type Target = Connection;

    fn deref(&self) -> &Connection {
        match self {
            Reader::Kept(conn) => conn,
            Reader::Own(conn) => conn,
        }
    }
}

impl Readers {
    /// Opens `count` read connections on the database in `data_dir`.
    pub fn open(data_dir: &Path, count: usize) -> Result<Readers, LiteError> {
        let kept = (0..count)
            .map(|_| open_reader(data_dir).map(Mutex::new))
            .collect::<Result<_, _>>()?;
        Ok(Readers {
            data_dir: data_dir.to_path_buf(),
            kept,
        })
    }

    /// A free kept connection, else a new one (a burst of parallel requests), its snapshot
    /// begun.
    pub fn get(&self) -> Result<Reader<'_>, LiteError> {
        for slot in &self.kept {
            match slot.try_lock() {
                Ok(conn) => return begin(Reader::Kept(conn)),
                // Only a panic poisons a slot; the connection itself is still sound.
                Err(TryLockError::Poisoned(poisoned)) => {
                    return begin(Reader::Kept(poisoned.into_inner()));
                }
                Err(TryLockError::WouldBlock) => {}
            }
        }
        begin(Reader::Own(open_reader(&self.data_dir)?))
    }
}

pub fn db_path(data_dir: &Path) -> PathBuf {
    data_dir.join("nexus-lite.sqlite3")
}

/// Applies the migrations of `sets` (one per domain, in domain order) that are not recorded
/// yet, each in its own transaction.
pub fn migrate(conn: &mut Connection, sets: &[&[Migration]]) -> Result<(), LiteError> {
    conn.execute_batch(
        "CREATE TABLE IF NOT EXISTS schema_migrations(version INTEGER PRIMARY KEY,
         description TEXT NOT NULL, applied_at TEXT NOT NULL)",
    )
    .map_err(LiteError::db("creating schema_migrations"))?;
    let applied = applied_versions(conn)?;
    for m in sets.iter().flat_map(|set| set.iter()) {
        if applied.contains(&m.version) {
            continue;
        }
        let version = m.version;
        let tx = conn
            .transaction()
            .map_err(LiteError::db("starting a migration"))?;
        tx.execute_batch(m.sql)
            .map_err(LiteError::db(format!("applying migration {version}")))?;
        tx.execute(
            "INSERT INTO schema_migrations(version, description, applied_at) VALUES (?1, ?2, ?3)",
            params![
                version,
                m.description,
                crate::core::util::rfc3339(crate::core::util::now_epoch())
            ],
        )
        .map_err(LiteError::db("recording a migration"))?;
        tx.commit()
            .map_err(LiteError::db(format!("committing migration {version}")))?;
    }
    Ok(())
}

/// The versions recorded in `schema_migrations`.
pub fn applied_versions(conn: &Connection) -> Result<HashSet<i64>, LiteError> {
    let mut st = conn
        .prepare("SELECT version FROM schema_migrations")
        .map_err(LiteError::db("reading the schema version"))?;
    let versions = st
        .query_map([], |r| r.get(0))
        .map_err(LiteError::db("reading the schema version"))?
        .collect::<Result<HashSet<i64>, _>>()
        .map_err(LiteError::db("reading the schema version"))?;
    Ok(versions)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn readers_are_kept_shared_and_never_block_or_write() {
        let dir = tempfile::tempdir().unwrap();
        let mut conn = open(dir.path()).unwrap();
        migrate(&mut conn, &[]).unwrap();
        let readers = Readers::open(dir.path(), 1).unwrap();
        let count = |r: &Connection| -> i64 {
            r.query_row("SELECT count(*) FROM schema_migrations", [], |row| {
                row.get(0)
            })
            .unwrap()
        };
        {
            let first = readers.get().unwrap();
            assert!(matches!(first, Reader::Kept(_)));
            // The only kept connection is busy: a second reader gets one of its own.
            let second = readers.get().unwrap();
            assert!(matches!(second, Reader::Own(_)));
            assert_eq!(count(&first), count(&second));
            assert!(
                second.execute("DELETE FROM schema_migrations", []).is_err(),
                "a read connection must refuse writes"
            );
        }
        // Released, the kept connection is handed out again and sees later writes.
        conn.execute(
            "INSERT INTO schema_migrations(version, description, applied_at) VALUES (9999, 't', 'now')",
            [],
        )
        .unwrap();
        let again = readers.get().unwrap();
        assert!(matches!(again, Reader::Kept(_)));
        let seen: i64 = again
            .query_row(
                "SELECT count(*) FROM schema_migrations WHERE version = 9999",
                [],
                |row| row.get(0),
            )
            .unwrap();
        assert_eq!(
            seen, 1,
            "a kept reader sees what was committed after it opened"
        );
        drop(again);
        // While held, a reader's reads are one snapshot: a request never sees a graph half
        // pruned (the pruning commits between two of its queries).
        let held = readers.get().unwrap();
        let before = count(&held);
        conn.execute(
            "INSERT INTO schema_migrations(version, description, applied_at) VALUES (9998, 't', 'now')",
            [],
        )
        .unwrap();
        assert_eq!(count(&held), before, "one snapshot while held");
        drop(held);
        assert_eq!(count(&readers.get().unwrap()), before + 1);
    }

    const FIRST: &[Migration] = &[
        Migration {
            version: 1,
            description: "one",
            sql: "CREATE TABLE one(x INTEGER);",
        },
        Migration {
            version: 2,
            description: "two",
            sql: "CREATE TABLE two(x INTEGER);",
        },
    ];
    const LATER: &[Migration] = &[Migration {
        version: 1000,
        description: "later domain",
        sql: "CREATE TABLE later(x INTEGER);",
    }];

    #[test]
    fn migrations_apply_once_each_and_a_lower_version_added_later_still_applies() {
        let dir = tempfile::tempdir().unwrap();
        let mut conn = open(dir.path()).unwrap();
        migrate(&mut conn, &[&FIRST[..1], LATER]).unwrap();
        assert_eq!(applied_versions(&conn).unwrap(), HashSet::from([1, 1000]));
        // Version 2 arrives after 1000 was applied: a max-version check would skip it.
        migrate(&mut conn, &[FIRST, LATER]).unwrap();
        assert_eq!(
            applied_versions(&conn).unwrap(),
            HashSet::from([1, 2, 1000])
        );
        conn.execute("INSERT INTO two VALUES (1)", []).unwrap();
        // Reapplying is a no-op (a second CREATE TABLE would fail).
        migrate(&mut conn, &[FIRST, LATER]).unwrap();
    }
}
