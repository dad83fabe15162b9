//! Which graphs a data directory keeps (`--keep-graphs`, see `crate::core::config::Retention`).
//! A graph shares its unchanged files' parts with its parent, but its file list, findings,
//! anomalies and secret spans are its own (about 2 MB per regeneration of a 1.2M-line tree), so
//! keeping every graph grows the database without bound.
//!
//! The rule, per (repository, branch): the newest `keep` ready graphs stay, at least two (the
//! newest is what a query without `graph_id` reads; the one before it is what a regeneration's
//! answer compares the new graph with; older ones are what a client still holding their id
//! asks for). An older ready graph goes, and so does a failed run older than the oldest kept
//! one, and every part no remaining graph holds. A removed graph leaves a tombstone: asking for
//! it answers that it was pruned and which graph is its branch's newest, not "unknown".
//!
//! Tombstones and finished regenerations are forgotten after [`FORGET_AFTER_SECS`] (a pruned
//! graph's id then answers as unknown), so no table grows with every regeneration for ever.
//!
//! Parts a serving process remembers (`Part::stored_as`) are always parts of the newest graph
//! of some branch: the last run's, which the rule keeps.

use crate::core::config::MIN_KEEP_GRAPHS;
use crate::core::error::LiteError;
use crate::core::util::rfc3339;
use rusqlite::{Connection, OptionalExtension, TransactionBehavior, params};
use serde_json::{Value, json};
use std::collections::HashSet;

/// How long a tombstone and a finished regeneration's row are kept: 30 days.
pub const FORGET_AFTER_SECS: i64 = 30 * 24 * 3600;

/// What one [`prune`] removed.
#[derive(Debug, Default)]
pub struct Pruned {
    /// Row keys of the removed graphs.
    pub graphs: Vec<i64>,
    /// Parts no remaining graph held.
    pub parts: usize,
    /// Tombstones and regeneration rows older than [`FORGET_AFTER_SECS`].
    pub forgotten: usize,
}

/// Whether `repository` has tombstones or finished regenerations older than `?2`.
const STALE: &str = "SELECT EXISTS(SELECT 1 FROM pruned_graphs WHERE repository=?1 AND pruned_at<?2)
   OR EXISTS(SELECT 1 FROM regenerations WHERE repository=?1 AND status<>'running' AND created_at<?2)";

/// The graphs of `repository` the rule removes with `keep` kept per branch.
const DOOMED: &str =
    "SELECT gpk FROM graphs g WHERE repository=?1 AND status IN ('ready', 'failed')
   AND (SELECT COUNT(*) FROM graphs h WHERE h.repository=g.repository AND h.branch=g.branch
        AND h.status='ready' AND h.gpk>g.gpk) >= ?2
   ORDER BY gpk";

/// Applies the rule to `repository`'s graphs in one transaction, keeping `keep` (at least
/// [`MIN_KEEP_GRAPHS`]) per branch; `now` (epoch seconds) dates the tombstones and the cutoff.
pub fn prune(
    conn: &mut Connection,
    repository: &str,
    keep: usize,
    now: i64,
) -> Result<Pruned, LiteError> {
    let keep = keep.max(MIN_KEEP_GRAPHS) as i64;
    let doomed = |conn: &Connection| -> Result<Vec<i64>, LiteError> {
        let mut st = conn
            .prepare_cached(DOOMED)
            .map_err(LiteError::db("preparing the retention query"))?;
        st.query_map(params![repository, keep], |r| r.get(0))
            .and_then(Iterator::collect)
            .map_err(LiteError::db("selecting the graphs to prune"))
    };
    let cutoff = rfc3339(now - FORGET_AFTER_SECS);
    let stale = |conn: &Connection| -> Result<bool, LiteError> {
        conn.query_row(STALE, params![repository, cutoff], |r| r.get(0))
            .map_err(LiteError::db("looking for rows to forget"))
    };
    // Most runs remove nothing: find that out without taking the write lock.
    if doomed(conn)?.is_empty() && !stale(conn)? {
        return Ok(Pruned::default());
    }
    let tx = conn
        .transaction_with_behavior(TransactionBehavior::Immediate)
        .map_err(LiteError::db("starting the retention transaction"))?;
    let graphs = doomed(&tx)?;
    let mut candidates: HashSet<i64> = HashSet::new();
    let pruned_at = rfc3339(now);
    let run = |sql: &str, gpk: i64| -> Result<(), LiteError> {
        tx.prepare_cached(sql)
            .and_then(|mut st| st.execute([gpk]))
            .map(|_| ())
            .map_err(LiteError::db("removing a pruned graph"))
    };
    for &gpk in &graphs {
        let mut st = tx
            .prepare_cached("SELECT part FROM graph_parts WHERE gpk=?1")
            .map_err(LiteError::db("reading a pruned graph's parts"))?;
        let parts: Vec<i64> = st
            .query_map([gpk], |r| r.get(0))
            .and_then(Iterator::collect)
            .map_err(LiteError::db("reading a pruned graph's parts"))?;
        candidates.extend(parts);
        tx.prepare_cached(
            "INSERT OR REPLACE INTO pruned_graphs
               SELECT graph_id, repository, branch, commit_sha, generated_at, ?2, ?3
               FROM graphs WHERE gpk=?1",
        )
        .and_then(|mut st| st.execute(params![gpk, pruned_at, keep]))
        .map_err(LiteError::db("recording a pruned graph"))?;
        for table in [
            "files",
            "graph_parts",
            "findings",
            "anomalies",
            "secret_spans",
            "graphs",
        ] {
            run(&format!("DELETE FROM {table} WHERE gpk=?1"), gpk)?;
        }
    }
    // graph_parts has no index by part (it would cost every write): one scan finds the
    // parts the remaining graphs hold.
    let held: HashSet<i64> = tx
        .prepare("SELECT part FROM graph_parts")
        .and_then(|mut st| st.query_map([], |r| r.get(0))?.collect())
        .map_err(LiteError::db("reading the parts still held"))?;
    let orphans: Vec<i64> = candidates.difference(&held).copied().collect();
    for &part in &orphans {
        for table in ["part_nodes", "part_edges", "part_imports", "parts"] {
            run(&format!("DELETE FROM {table} WHERE part=?1"), part)?;
        }
    }
    let mut forgotten = 0;
    for sql in [
        "DELETE FROM pruned_graphs WHERE repository=?1 AND pruned_at<?2",
        "DELETE FROM regenerations WHERE repository=?1 AND status<>'running' AND created_at<?2",
    ] {
        forgotten += tx
            .execute(sql, params![repository, cutoff])
            .map_err(LiteError::db("forgetting old tombstones and regenerations"))?;
    }
    tx.commit()
        .map_err(LiteError::db("committing the retention transaction"))?;
    Ok(Pruned {
        graphs,
        parts: orphans.len(),
        forgotten,
    })
}

/// The tombstone of a pruned graph: `graph_id`, `repository`, `branch`, `commit_sha`,
/// `generated_at`, `pruned_at`, `kept` (null before migration 9).
pub fn tombstone(conn: &Connection, graph_id: &str) -> Result<Option<Value>, LiteError> {
    conn.query_row(
        "SELECT graph_id, repository, branch, commit_sha, generated_at, pruned_at, kept
         FROM pruned_graphs WHERE graph_id=?1",
        [graph_id],
        |r| {
            Ok(json!({
                "graph_id": r.get::<_, String>(0)?,
                "repository": r.get::<_, String>(1)?,
                "branch": r.get::<_, String>(2)?,
                "commit_sha": r.get::<_, String>(3)?,
                "generated_at": r.get::<_, String>(4)?,
                "pruned_at": r.get::<_, String>(5)?,
                "kept": r.get::<_, Option<i64>>(6)?,
            }))
        },
    )
    .optional()
    .map_err(LiteError::db("reading a pruned graph's tombstone"))
}
