//! The code graph's storage: one-transaction graph writes, graph reads, regeneration plans.

use crate::code::findings::{AnalyserStatus, Finding};
use crate::code::index::{GraphData, Part};
use crate::core::error::LiteError;
use nexus_secrets::spans::{self as secret_spans, SecretSpan, SpanKind};
use rusqlite::{Connection, OptionalExtension, params};
use serde_json::{Value, json};
use std::borrow::Cow;
use std::collections::{BTreeMap, HashMap};

/// Marks runs left `running` by a previous process as failed.
pub fn recover_interrupted(conn: &Connection) -> Result<usize, LiteError> {
    let msg = "interrupted: nexus-lite stopped before this run was committed; the previous graph is still served, start a new regeneration";
    let n = conn
        .execute(
            "UPDATE graphs SET status='failed', error=?1 WHERE status='running'",
            [msg],
        )
        .map_err(LiteError::db("marking interrupted graphs failed"))?;
    conn.execute(
        "UPDATE regenerations SET status='failed', phase='done', error=?1 WHERE status='running'",
        [msg],
    )
    .map_err(LiteError::db("marking interrupted regenerations failed"))?;
    Ok(n)
}

pub struct NewGraph<'a> {
    pub graph_id: &'a str,
    pub repository: &'a str,
    pub branch: &'a str,
    pub commit_sha: &'a str,
    pub dirty_files: &'a [String],
    pub generated_at: &'a str,
}

/// Inserts the `running` row of a new graph (committed on its own, so a crash shows it failed).
pub fn insert_running(conn: &Connection, g: &NewGraph<'_>) -> Result<(), LiteError> {
    conn.execute(
        "INSERT INTO graphs(graph_id, repository, branch, commit_sha, worktree_dirty, dirty_files,
           generated_at, generator, status, error, counts, analysers, stats)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, 'running', NULL, ?9, '[]', '{}')",
        params![
            g.graph_id,
            g.repository,
            g.branch,
            g.commit_sha,
            !g.dirty_files.is_empty(),
            serde_json::to_string(g.dirty_files).unwrap_or_else(|_| "[]".into()),
            g.generated_at,
            crate::core::config::GENERATOR,
            json!({"files": 0, "classes": 0, "functions": 0, "findings": 0, "anomalies": 0})
                .to_string(),
        ],
    )
    .map_err(LiteError::db("inserting the running graph"))?;
    Ok(())
}

pub fn mark_failed(conn: &Connection, graph_id: &str, error: &str) -> Result<(), LiteError> {
    conn.execute(
        "UPDATE graphs SET status='failed', error=?2 WHERE graph_id=?1",
        params![graph_id, error],
    )
    .map_err(LiteError::db("marking a graph failed"))?;
    Ok(())
}

/// Prepares `sql` once and runs `insert` for each row; errors say "preparing {what}" / "writing {what}".
pub(crate) fn insert_each<T>(
    tx: &rusqlite::Transaction<'_>,
    what: &str,
    sql: &str,
    rows: impl IntoIterator<Item = T>,
    mut insert: impl FnMut(&mut rusqlite::Statement<'_>, T) -> rusqlite::Result<usize>,
) -> Result<(), LiteError> {
    let mut st = tx
        .prepare(sql)
        .map_err(LiteError::db(format!("preparing {what}")))?;
    for row in rows {
        insert(&mut st, row).map_err(LiteError::db(format!("writing {what}")))?;
    }
    Ok(())
}

/// Writes the whole graph and flips it to `ready` in one transaction. `extra` adds to the
/// same transaction and is given the graph's row key; `before_commit` runs inside the
/// transaction just before COMMIT (test hook).
#[allow(clippy::too_many_arguments)]
pub fn write_graph(
    conn: &mut Connection,
    graph_id: &str,
    data: &GraphData,
    findings: &[Finding],
    analysers: &[AnalyserStatus],
    stats: &Value,
    extra: impl FnOnce(&rusqlite::Transaction<'_>, i64) -> Result<(), LiteError>,
    before_commit: impl FnOnce(),
) -> Result<Value, LiteError> {
    let tx = conn
        .transaction()
        .map_err(LiteError::db("starting the graph transaction"))?;
    let gpk: i64 = tx
        .query_row(
            "SELECT gpk FROM graphs WHERE graph_id=?1",
            [graph_id],
            |r| r.get(0),
        )
        .map_err(LiteError::db("finding the running graph"))?;
    let t = std::time::Instant::now();
    let Structure { written, stored } = insert_structure(&tx, gpk, data)?;
    let structure_ms = t.elapsed().as_secs_f64() * 1000.0;
    insert_results(&tx, gpk, data, findings)?;
    let mut stats = stats.clone();
    stats["parts_written"] = json!(written);
    stats["parts_ms"] = json!(structure_ms);
    stats["results_ms"] = json!(t.elapsed().as_secs_f64() * 1000.0 - structure_ms);
    let counts = mark_ready(&tx, graph_id, data, findings, analysers, &stats)?;
    extra(&tx, gpk)?;
    before_commit();
    tx.commit().map_err(LiteError::db("committing the graph"))?;
    for (part, id) in stored {
        part.set_stored_as(id);
    }
    Ok(counts)
}

/// The parts of graph `gpk` and its file rows. A part already stored (the same rows, by
/// digest: an unchanged file of an earlier graph) is shared, not written again.
fn insert_structure<'d>(
    tx: &rusqlite::Transaction<'_>,
    gpk: i64,
    data: &'d GraphData,
) -> Result<Structure<'d>, LiteError> {
    let prepare = |what: &str, sql: &str| {
        tx.prepare(sql)
            .map_err(LiteError::db(format!("preparing {what}")))
    };
    let mut find = prepare("the part lookup", "SELECT part FROM parts WHERE digest=?1")?;
    let mut add_part = prepare("parts", "INSERT INTO parts(path, digest) VALUES (?1, ?2)")?;
    let mut add_to_graph = prepare("graph parts", "INSERT INTO graph_parts VALUES (?1, ?2)")?;
    let mut node = prepare(
        "nodes",
        "INSERT INTO part_nodes(part, id, kind, name, qualified_name, path, line, end_line, language, detail)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)",
    )?;
    let mut edge = prepare(
        "edges",
        "INSERT INTO part_edges VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
    )?;
    let mut import = prepare(
        "imports",
        "INSERT INTO part_imports VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
    )?;
    let mut part_of: HashMap<&str, i64> = HashMap::new();
    let mut written = 0;
    let mut stored = Vec::new();
    for part in &data.parts {
        // A part kept from a committed graph knows its row; any other is looked up by digest.
        let known = part.stored_as();
        let found: Option<i64> = match known {
            Some(id) => Some(id),
            None => find
                .query_row([part.digest()], |r| r.get(0))
                .optional()
                .map_err(LiteError::db("looking up a stored part"))?,
        };
        let id = match found {
            Some(id) => id,
            None => {
                written += 1;
                let mut write = || -> rusqlite::Result<i64> {
                    add_part.execute(params![part.path, part.digest()])?;
                    let id = tx.last_insert_rowid();
                    for n in &part.nodes {
                        node.execute(params![
                            id,
                            n.id,
                            n.kind,
                            n.name,
                            n.qualified_name,
                            n.path,
                            n.line,
                            n.end_line,
                            n.language,
                            n.detail
                        ])?;
                    }
                    for (seq, e) in part.edges.iter().enumerate() {
                        edge.execute(params![
                            id,
                            seq as i64,
                            e.kind,
                            e.src,
                            e.dst,
                            e.confidence,
                            e.line
                        ])?;
                    }
                    for (seq, i) in part.imports.iter().enumerate() {
                        import.execute(params![
                            id,
                            seq as i64,
                            i.path,
                            i.module,
                            i.resolved_path,
                            i.external,
                            i.line
                        ])?;
                    }
                    Ok(id)
                };
                write().map_err(LiteError::db("writing a part of the graph"))?
            }
        };
        if known.is_none() {
            stored.push((&**part, id));
        }
        add_to_graph
            .execute(params![gpk, id])
            .map_err(LiteError::db("adding a part to the graph"))?;
        if let Some(path) = &part.path {
            part_of.insert(path, id);
        }
    }
    insert_each(
        tx,
        "files",
        "INSERT INTO files(gpk, path, language, content_hash, size, part) VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
        &data.files,
        |st, f| {
            st.execute(params![
                gpk,
                f.path,
                f.language,
                f.content_hash,
                f.size as i64,
                part_of.get(f.path.as_str())
            ])
        },
    )?;
    Ok(Structure { written, stored })
}

/// What [`insert_structure`] did: how many parts it wrote, and the parts whose row ids were not
/// known before (recorded in them once the transaction commits).
struct Structure<'d> {
    written: usize,
    stored: Vec<(&'d Part, i64)>,
}

/// Anomalies, findings (messages on secret lines withheld) and secret spans of graph `gpk`.
fn insert_results(
    tx: &rusqlite::Transaction<'_>,
    gpk: i64,
    data: &GraphData,
    findings: &[Finding],
) -> Result<(), LiteError> {
    insert_each(
        tx,
        "anomalies",
        "INSERT INTO anomalies VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)",
        data.anomalies.iter().enumerate(),
        |st, (i, a)| {
            st.execute(params![
                gpk,
                i as i64 + 1,
                a.kind,
                a.path,
                a.line,
                a.message,
                a.severity.as_str(),
                a.details.to_string()
            ])
        },
    )?;
    insert_each(
        tx,
        "findings",
        "INSERT INTO findings VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13,
                 ?14, ?15, ?16, ?17, ?18, ?19, ?20)",
        findings,
        |st, f| {
            let r = &f.raw;
            let message = finding_message(data, r);
            st.execute(params![
                gpk,
                f.finding_id,
                r.source_tool,
                r.finding_type,
                r.rule_id,
                r.path,
                r.line,
                r.end_line,
                message,
                r.severity.as_str(),
                r.severity.order(),
                r.confidence,
                f.dedupe_key,
                f.symbol,
                f.rank,
                f.rank_reason,
                r.category,
                f.cluster.as_ref().map(|c| c.0.clone()),
                f.cluster.as_ref().map(|c| c.1 as i64),
                f.false_positive_hint
            ])
        },
    )?;
    insert_each(
        tx,
        "secret spans",
        "INSERT INTO secret_spans VALUES (?1, ?2, ?3, ?4, ?5)",
        data.secret_spans
            .iter()
            .flat_map(|(path, spans)| spans.iter().map(move |s| (path, s))),
        |st, (path, s)| st.execute(params![gpk, path, s.start, s.end, s.kind.as_str()]),
    )?;
    Ok(())
}

/// Flips the graph to `ready` with its counts, analysers and stats; returns the counts.
fn mark_ready(
    tx: &rusqlite::Transaction<'_>,
    graph_id: &str,
    data: &GraphData,
    findings: &[Finding],
    analysers: &[AnalyserStatus],
    stats: &Value,
) -> Result<Value, LiteError> {
    let (nodes_by_kind, edges_by_kind) = data.kinds();
    let count = |k: &str| nodes_by_kind.get(k).copied().unwrap_or(0);
    let counts = json!({
        "files": count("file"),
        "classes": count("class"),
        "functions": count("function") + count("method"),
        "findings": findings.len(),
        "anomalies": data.anomalies.len(),
    });
    let mut stored_stats = stats.clone();
    stored_stats[SUMMARY_KEY] = summary_counts(data, findings, nodes_by_kind, edges_by_kind);
    tx.execute(
        "UPDATE graphs SET status='ready', error=NULL, counts=?2, analysers=?3, stats=?4 WHERE graph_id=?1",
        params![
            graph_id,
            counts.to_string(),
            serde_json::to_string(analysers).unwrap_or_else(|_| "[]".into()),
            stored_stats.to_string()
        ],
    )
    .map_err(LiteError::db("marking the graph ready"))?;
    Ok(counts)
}

/// Where the summary's counts are kept in a graph's `stats` column.
pub const SUMMARY_KEY: &str = "summary_counts";

/// The counts GET /summary answers, computed once when the graph is written (a GROUP BY over a
/// million-line graph's nodes and edges costs tens of milliseconds per call). Keys in byte
/// order, as the SQL `ORDER BY` they replace.
fn summary_counts(
    data: &GraphData,
    findings: &[Finding],
    nodes_by_kind: BTreeMap<&str, usize>,
    edges_by_kind: BTreeMap<&str, usize>,
) -> Value {
    // Hashed while counting (hundreds of thousands of edges), ordered once at the end.
    fn tally<'a>(keys: impl Iterator<Item = &'a str>) -> BTreeMap<&'a str, i64> {
        let mut m: rustc_hash::FxHashMap<&str, i64> = Default::default();
        for k in keys {
            *m.entry(k).or_insert(0) += 1;
        }
        m.into_iter().collect()
    }
    let mut by_tool: BTreeMap<&str, BTreeMap<&str, i64>> = BTreeMap::new();
    for f in findings {
        *by_tool
            .entry(f.raw.source_tool)
            .or_default()
            .entry(f.raw.severity.as_str())
            .or_insert(0) += 1;
    }
    json!({
        "nodes_by_kind": nodes_by_kind,
        "edges_by_kind": edges_by_kind,
        "files_by_language": tally(data.files.iter().map(|f| f.language)),
        "findings_by_tool": by_tool,
        "findings_by_severity": tally(findings.iter().map(|f| f.raw.severity.as_str())),
        "anomalies_by_kind": tally(data.anomalies.iter().map(|a| a.kind)),
    })
}

/// A finding's message as stored: withheld when the finding is on a line of a secret span
/// (an analyser's message may quote the line).
fn finding_message<'a>(data: &GraphData, r: &'a crate::code::findings::RawFinding) -> Cow<'a, str> {
    let spans = data.secret_spans.get(&r.path);
    match (spans, r.line) {
        (Some(spans), Some(line)) => {
            match secret_spans::mask_message(spans, line, r.end_line.unwrap_or(line).max(line)) {
                Some(masked) => Cow::Owned(masked),
                None => Cow::Borrowed(&r.message),
            }
        }
        _ => Cow::Borrowed(&r.message),
    }
}

/// The secret spans recorded for `path` in graph `gpk`.
pub fn secret_spans(conn: &Connection, gpk: i64, path: &str) -> Result<Vec<SecretSpan>, LiteError> {
    let mut st = conn
        .prepare_cached(
            "SELECT start_line, end_line, kind FROM secret_spans WHERE gpk=?1 AND path=?2 ORDER BY start_line",
        )
        .map_err(LiteError::db("reading secret spans"))?;
    let rows = st
        .query_map(params![gpk, path], |r| {
            Ok(SecretSpan {
                start: r.get(0)?,
                end: r.get(1)?,
                kind: SpanKind::parse(&r.get::<_, String>(2)?),
            })
        })
        .map_err(LiteError::db("reading secret spans"))?
        .collect::<Result<Vec<_>, _>>()
        .map_err(LiteError::db("reading secret spans"))?;
    Ok(rows)
}

/// The public Graph object.
pub fn graph_json(row: &rusqlite::Row<'_>) -> rusqlite::Result<Value> {
    let dirty: String = row.get("dirty_files")?;
    let counts: String = row.get("counts")?;
    Ok(json!({
        "graph_id": row.get::<_, String>("graph_id")?,
        "repository": row.get::<_, String>("repository")?,
        "branch": row.get::<_, String>("branch")?,
        "commit_sha": row.get::<_, String>("commit_sha")?,
        "worktree_dirty": row.get::<_, bool>("worktree_dirty")?,
        "dirty_files": serde_json::from_str::<Value>(&dirty).unwrap_or(json!([])),
        "generated_at": row.get::<_, String>("generated_at")?,
        "generator": row.get::<_, String>("generator")?,
        "status": row.get::<_, String>("status")?,
        "error": row.get::<_, Option<String>>("error")?,
        "counts": serde_json::from_str::<Value>(&counts).unwrap_or(json!({})),
    }))
}

pub const GRAPH_COLS: &str = "gpk, graph_id, repository, branch, commit_sha, worktree_dirty, dirty_files, generated_at, generator, status, error, counts";

/// A graph row: internal key + public object.
pub fn graph_by_id(conn: &Connection, graph_id: &str) -> Result<Option<(i64, Value)>, LiteError> {
    conn.query_row(
        &format!("SELECT {GRAPH_COLS} FROM graphs WHERE graph_id=?1"),
        [graph_id],
        |r| Ok((r.get::<_, i64>("gpk")?, graph_json(r)?)),
    )
    .optional()
    .map_err(LiteError::db("reading a graph"))
}

pub fn latest_ready(
    conn: &Connection,
    repository: &str,
    branch: &str,
) -> Result<Option<(i64, Value)>, LiteError> {
    conn.query_row(
        &format!(
            "SELECT {GRAPH_COLS} FROM graphs WHERE repository=?1 AND branch=?2 AND status='ready'
             ORDER BY gpk DESC LIMIT 1"
        ),
        [repository, branch],
        |r| Ok((r.get::<_, i64>("gpk")?, graph_json(r)?)),
    )
    .optional()
    .map_err(LiteError::db("selecting the latest graph"))
}

/// Parse-cache keys of a graph's files (path -> content hash).
pub fn file_hashes(conn: &Connection, gpk: i64) -> Result<Vec<(String, String)>, LiteError> {
    let mut st = conn
        .prepare("SELECT path, content_hash FROM files WHERE gpk=?1")
        .map_err(LiteError::db("reading files"))?;
    let rows = st
        .query_map([gpk], |r| Ok((r.get(0)?, r.get(1)?)))
        .map_err(LiteError::db("reading files"))?
        .collect::<Result<Vec<_>, _>>()
        .map_err(LiteError::db("reading files"))?;
    Ok(rows)
}

/// A regeneration plan as stored (what a submit is checked against).
#[derive(Debug, Clone)]
pub struct PlanRow {
    pub plan_id: String,
    pub repository: String,
    pub branch: String,
    pub current_branch: Option<String>,
    pub head_sha: Option<String>,
    /// sha256 of the sorted dirty paths (see `engine::dirty_fingerprint`).
    pub dirty_fingerprint: String,
    pub dirty_files: Vec<String>,
    pub ambiguous: bool,
    pub ambiguity_reason: Option<String>,
    pub previous_graph_id: Option<String>,
    pub expires_at: i64,
    pub created_at: i64,
    pub used: bool,
    pub json: Value,
}

/// Expired plans are kept this long after expiry so a late submit still gets `plan_expired`
/// (not `not_found`); then they are deleted.
pub const PLAN_KEEP_AFTER_EXPIRY_SECS: i64 = 24 * 3600;

/// Records a new plan and deletes plans expired for more than a day.
pub fn insert_plan(conn: &Connection, p: &PlanRow, now: i64) -> Result<(), LiteError> {
    conn.execute(
        "DELETE FROM plans WHERE expires_at < ?1",
        [now - PLAN_KEEP_AFTER_EXPIRY_SECS],
    )
    .map_err(LiteError::db("deleting old plans"))?;
    conn.execute(
        "INSERT INTO plans(plan_id, repository, branch, current_branch, head_sha, dirty_fingerprint,
           dirty_files, ambiguous, ambiguity_reason, previous_graph_id, expires_at, created_at,
           used, used_at, regeneration_id, plan_json)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, 0, NULL, NULL, ?13)",
        params![
            p.plan_id,
            p.repository,
            p.branch,
            p.current_branch,
            p.head_sha,
            p.dirty_fingerprint,
            serde_json::to_string(&p.dirty_files).unwrap_or_else(|_| "[]".into()),
            p.ambiguous,
            p.ambiguity_reason,
            p.previous_graph_id,
            p.expires_at,
            p.created_at,
            p.json.to_string(),
        ],
    )
    .map_err(LiteError::db("recording the plan"))?;
    Ok(())
}

pub fn load_plan(conn: &Connection, plan_id: &str) -> Result<Option<PlanRow>, LiteError> {
    conn.query_row(
        "SELECT plan_id, repository, branch, current_branch, head_sha, dirty_fingerprint,
           dirty_files, ambiguous, ambiguity_reason, previous_graph_id, expires_at, created_at,
           used, plan_json
         FROM plans WHERE plan_id=?1",
        [plan_id],
        |r| {
            let dirty: String = r.get(6)?;
            let json: String = r.get(13)?;
            Ok(PlanRow {
                plan_id: r.get(0)?,
                repository: r.get(1)?,
                branch: r.get(2)?,
                current_branch: r.get(3)?,
                head_sha: r.get(4)?,
                dirty_fingerprint: r.get(5)?,
                dirty_files: serde_json::from_str(&dirty).unwrap_or_default(),
                ambiguous: r.get(7)?,
                ambiguity_reason: r.get(8)?,
                previous_graph_id: r.get(9)?,
                expires_at: r.get(10)?,
                created_at: r.get(11)?,
                used: r.get(12)?,
                json: serde_json::from_str(&json).unwrap_or(Value::Null),
            })
        },
    )
    .optional()
    .map_err(LiteError::db("reading a plan"))
}

/// Result of trying to consume a plan.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Claim {
    /// The plan was unused and unexpired: it is now used and the regeneration row exists.
    Claimed,
    /// Another submit (this or another process) used it first.
    AlreadyUsed,
    Expired,
    Unknown,
}

/// The regeneration row written together with the plan claim.
pub struct NewRegen<'a> {
    pub regeneration_id: &'a str,
    pub plan_id: &'a str,
    pub repository: &'a str,
    pub branch: &'a str,
    pub previous_graph_id: Option<&'a str>,
    pub created_at: &'a str,
}

/// Consumes the plan and records the regeneration in one IMMEDIATE transaction: of two
/// concurrent submits of one plan (threads or processes), exactly one gets `Claimed`.
pub fn claim_plan(
    conn: &mut Connection,
    regen: &NewRegen<'_>,
    now: i64,
) -> Result<Claim, LiteError> {
    let tx = conn
        .transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)
        .map_err(LiteError::db("starting the plan claim"))?;
    let n = tx
        .execute(
            "UPDATE plans SET used=1, used_at=?2, regeneration_id=?3
             WHERE plan_id=?1 AND used=0 AND expires_at > ?2",
            params![regen.plan_id, now, regen.regeneration_id],
        )
        .map_err(LiteError::db("claiming the plan"))?;
    if n == 0 {
        let state: Option<(bool, i64)> = tx
            .query_row(
                "SELECT used, expires_at FROM plans WHERE plan_id=?1",
                [regen.plan_id],
                |r| Ok((r.get(0)?, r.get(1)?)),
            )
            .optional()
            .map_err(LiteError::db("reading the plan"))?;
        return Ok(match state {
            None => Claim::Unknown,
            Some((true, _)) => Claim::AlreadyUsed,
            Some((false, _)) => Claim::Expired,
        });
    }
    tx.execute(
        "INSERT INTO regenerations VALUES (?1, ?2, ?3, ?4, 'running', 'queued', 0, 0, NULL, ?5, NULL, '[]', ?6)",
        params![
            regen.regeneration_id,
            regen.plan_id,
            regen.repository,
            regen.branch,
            regen.previous_graph_id,
            regen.created_at
        ],
    )
    .map_err(LiteError::db("recording the regeneration"))?;
    tx.commit()
        .map_err(LiteError::db("committing the plan claim"))?;
    Ok(Claim::Claimed)
}
