//! Gate records in SQLite: one per (repository, pr, head sha); a re-run replaces it. The
//! verdict columns are derived from the record when it is stored ([`GateRecord::verdict`]),
//! so a caller cannot store a "clean" verdict its evidence does not support.

use crate::core::db::Migration;
use crate::core::error::LiteError;
use crate::rules::gate::model::{
    GateRecord, SkippedFile, ToolRun, UnreviewedRule, Violation, WaiverNote,
};
use crate::rules::gate::severity::Severity;
use rusqlite::{Connection, OptionalExtension, params};

/// The gate's migrations (versions 2500..=2599 of the rules domain's range), listed in
/// `rules::migrations::MIGRATIONS`.
pub const MIGRATIONS: &[Migration] = &[MIGRATION_2500, MIGRATION_2520];

pub const MIGRATION_2500: Migration = Migration {
    version: 2500,
    description: "gate records and their violations",
    sql: "
CREATE TABLE gate_records(
  id INTEGER PRIMARY KEY,
  record_id TEXT NOT NULL UNIQUE,
  repository TEXT NOT NULL,
  pr INTEGER,
  -- pr, or -1 without one: UNIQUE treats NULLs as distinct.
  pr_key INTEGER NOT NULL,
  head_sha TEXT NOT NULL,
  base_sha TEXT NOT NULL,
  merge_base_sha TEXT,
  head_tree_sha TEXT,
  base_ref TEXT,
  head_ref TEXT,
  status TEXT NOT NULL,
  detail_complete INTEGER NOT NULL,
  blocking INTEGER,
  blocking_count INTEGER NOT NULL,
  violation_count INTEGER NOT NULL,
  truncated INTEGER,
  truncated_note TEXT,
  files_changed INTEGER,
  tools_json TEXT NOT NULL,
  skipped_json TEXT NOT NULL,
  unreviewed_json TEXT NOT NULL,
  enforced_json TEXT NOT NULL,
  verdict_note TEXT NOT NULL,
  analyzed_at TEXT NOT NULL,
  generator TEXT,
  stored_at INTEGER NOT NULL,
  UNIQUE(repository, pr_key, head_sha)
);
CREATE INDEX gate_records_newest ON gate_records(stored_at DESC, id DESC);
CREATE INDEX gate_records_tree ON gate_records(repository, head_tree_sha);
CREATE TABLE gate_violations(
  record INTEGER NOT NULL REFERENCES gate_records(id) ON DELETE CASCADE,
  seq INTEGER NOT NULL,
  path TEXT NOT NULL,
  line INTEGER,
  severity TEXT NOT NULL,
  rule_id TEXT NOT NULL,
  rule_title TEXT NOT NULL,
  comment TEXT NOT NULL,
  suggestion TEXT,
  source TEXT,
  PRIMARY KEY(record, seq)
);
CREATE INDEX gate_violations_rule ON gate_violations(rule_id);
",
};

/// The analyser rules a run checked completely (`checkedRules`), so get_gate_result can say
/// what a pass covers, and what the baseline waived. Older records read as empty.
pub const MIGRATION_2520: Migration = Migration {
    version: 2520,
    description: "gate records: the analyser rules each run checked, the baseline's waivers",
    sql: "ALTER TABLE gate_records ADD COLUMN checked_json TEXT NOT NULL DEFAULT '[]';
ALTER TABLE gate_records ADD COLUMN waived_count INTEGER NOT NULL DEFAULT 0;
ALTER TABLE gate_records ADD COLUMN waiver_notes_json TEXT NOT NULL DEFAULT '[]';",
};

/// What storing did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Stored {
    pub record_id: String,
    /// The record id this one replaced (same repository, pr and head sha), if any.
    pub replaced: Option<String>,
}

/// Why a record cannot be stored as given.
#[derive(Debug, thiserror::Error)]
pub enum InvalidRecord {
    #[error("`{field}` must be a full commit sha (40 or 64 hex characters), got `{value}`")]
    Sha { field: &'static str, value: String },
    #[error("`repository` must not be empty")]
    Repository,
    #[error("`pr` must be a positive pull-request number, got 0")]
    Pr,
}

/// A full sha, lowercased: 40 (SHA-1) or 64 (SHA-256) hex characters.
pub fn full_sha(field: &'static str, value: &str) -> Result<String, InvalidRecord> {
    let v = value.trim().to_ascii_lowercase();
    if (v.len() == 40 || v.len() == 64) && v.bytes().all(|b| b.is_ascii_hexdigit()) {
        Ok(v)
    } else {
        Err(InvalidRecord::Sha {
            field,
            value: value.chars().take(80).collect(),
        })
    }
}

/// Checks a record's identity fields (the rest is typed by serde).
pub fn validate(rec: &GateRecord) -> Result<(), InvalidRecord> {
    if rec.repository.trim().is_empty() {
        return Err(InvalidRecord::Repository);
    }
    if rec.pr == Some(0) {
        return Err(InvalidRecord::Pr);
    }
    full_sha("headSha", &rec.head_sha)?;
    full_sha("baseSha", &rec.base_sha)?;
    if let Some(s) = &rec.head_tree_sha {
        full_sha("headTreeSha", s)?;
    }
    if let Some(s) = &rec.merge_base_sha {
        full_sha("mergeBaseSha", s)?;
    }
    Ok(())
}

fn json<T: serde::Serialize>(v: &T) -> Result<String, LiteError> {
    serde_json::to_string(v)
        .map_err(|e| LiteError::Task(format!("cannot encode a gate record: {e}")))
}

/// Stores `rec`, replacing the record of the same (repository, pr, head sha).
pub fn store(conn: &mut Connection, rec: &GateRecord, now_epoch: i64) -> Result<Stored, LiteError> {
    let verdict = rec.verdict();
    let head = rec.head_sha.trim().to_ascii_lowercase();
    let pr_key = rec.pr.map_or(-1, |p| p as i64);
    let record_id = format!("gate_{}", uuid::Uuid::new_v4().simple());
    let tx = conn
        .transaction()
        .map_err(LiteError::db("starting to store a gate record"))?;
    let replaced: Option<String> = tx
        .query_row(
            "SELECT record_id FROM gate_records WHERE repository = ?1 AND pr_key = ?2 AND head_sha = ?3",
            params![rec.repository, pr_key, head],
            |r| r.get(0),
        )
        .optional()
        .map_err(LiteError::db("looking for the gate record to replace"))?;
    tx.execute(
        "DELETE FROM gate_records WHERE repository = ?1 AND pr_key = ?2 AND head_sha = ?3",
        params![rec.repository, pr_key, head],
    )
    .map_err(LiteError::db("replacing a gate record"))?;
    tx.execute(
        "INSERT INTO gate_records(record_id, repository, pr, pr_key, head_sha, base_sha,
           merge_base_sha, head_tree_sha, base_ref, head_ref, status, detail_complete, blocking,
           blocking_count, violation_count, truncated, truncated_note, files_changed, tools_json,
           skipped_json, unreviewed_json, enforced_json, verdict_note, analyzed_at, generator, stored_at,
           checked_json, waived_count, waiver_notes_json)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17, ?18,
           ?19, ?20, ?21, ?22, ?23, ?24, ?25, ?26, ?27, ?28, ?29)",
        params![
            record_id,
            rec.repository,
            rec.pr.map(|p| p as i64),
            pr_key,
            head,
            rec.base_sha.trim().to_ascii_lowercase(),
            rec.merge_base_sha.as_deref().map(str::to_ascii_lowercase),
            rec.head_tree_sha.as_deref().map(str::to_ascii_lowercase),
            rec.base_ref,
            rec.head_ref,
            verdict.status.as_str(),
            verdict.detail_complete,
            verdict.blocking,
            verdict.blocking_count as i64,
            rec.violations.len() as i64,
            rec.truncated,
            rec.truncated_note,
            rec.files_changed.map(|n| n as i64),
            json(&rec.tools)?,
            json(&rec.skipped_files)?,
            json(&rec.unreviewed_rules)?,
            json(&rec.enforced_rules)?,
            verdict.note,
            rec.analyzed_at,
            rec.generator,
            now_epoch,
            json(&rec.checked_rules)?,
            rec.waived.len() as i64,
            json(&rec.waiver_notes)?,
        ],
    )
    .map_err(LiteError::db("storing a gate record"))?;
    let id = tx.last_insert_rowid();
    {
        let mut st = tx
            .prepare(
                "INSERT INTO gate_violations(record, seq, path, line, severity, rule_id, rule_title,
                   comment, suggestion, source) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)",
            )
            .map_err(LiteError::db("storing gate violations"))?;
        for (seq, v) in rec.violations.iter().enumerate() {
            st.execute(params![
                id,
                seq as i64,
                v.path,
                v.line,
                v.severity.as_str(),
                v.rule_id,
                v.rule_title,
                v.comment,
                v.suggestion,
                v.source,
            ])
            .map_err(LiteError::db("storing gate violations"))?;
        }
    }
    tx.commit()
        .map_err(LiteError::db("committing a gate record"))?;
    Ok(Stored {
        record_id,
        replaced,
    })
}

/// A stored record's summary row (violations are read separately, capped).
#[derive(Debug, Clone)]
pub struct Row {
    pub id: i64,
    pub record_id: String,
    pub repository: String,
    pub pr: Option<u64>,
    pub head_sha: String,
    pub base_sha: String,
    pub merge_base_sha: Option<String>,
    pub head_tree_sha: Option<String>,
    pub base_ref: Option<String>,
    pub head_ref: Option<String>,
    pub status: String,
    pub detail_complete: bool,
    pub blocking: Option<bool>,
    pub blocking_count: i64,
    pub violation_count: i64,
    pub truncated: Option<bool>,
    pub truncated_note: Option<String>,
    pub files_changed: Option<i64>,
    pub tools: Vec<ToolRun>,
    pub skipped_files: Vec<SkippedFile>,
    pub unreviewed_rules: Vec<UnreviewedRule>,
    pub enforced_rules: Vec<String>,
    pub checked_rules: Vec<String>,
    /// Violations the base's baseline waived (not in `violation_count`).
    pub waived_count: i64,
    pub waiver_notes: Vec<WaiverNote>,
    pub verdict_note: String,
    pub analyzed_at: String,
    pub generator: Option<String>,
    /// Columns that did not decode (a newer or damaged record): the answer says so.
    pub unreadable_parts: Vec<&'static str>,
}

const ROW_COLUMNS: &str = "id, record_id, repository, pr, head_sha, base_sha, merge_base_sha,
  head_tree_sha, base_ref, head_ref, status, detail_complete, blocking, blocking_count,
  violation_count, truncated, truncated_note, files_changed, tools_json, skipped_json,
  unreviewed_json, enforced_json, verdict_note, analyzed_at, generator, checked_json,
  waived_count, waiver_notes_json";

fn row(r: &rusqlite::Row<'_>) -> rusqlite::Result<Row> {
    let mut unreadable = Vec::new();
    let mut decode = |name: &'static str, text: String| -> serde_json::Value {
        serde_json::from_str(&text).unwrap_or_else(|_| {
            unreadable.push(name);
            serde_json::Value::Array(Vec::new())
        })
    };
    let tools = decode("tools", r.get(18)?);
    let skipped = decode("skippedFiles", r.get(19)?);
    let unreviewed = decode("unreviewedRules", r.get(20)?);
    let enforced = decode("enforcedRules", r.get(21)?);
    let checked = decode("checkedRules", r.get(25)?);
    let notes = decode("waiverNotes", r.get(27)?);
    let mut typed = |name: &'static str, v: serde_json::Value| -> Option<serde_json::Value> {
        Some(v).filter(|v| v.is_array()).or_else(|| {
            unreadable.push(name);
            None
        })
    };
    let tools: Vec<ToolRun> = typed("tools", tools)
        .and_then(|v| serde_json::from_value(v).ok())
        .unwrap_or_default();
    let skipped_files = typed("skippedFiles", skipped)
        .and_then(|v| serde_json::from_value(v).ok())
        .unwrap_or_default();
    let unreviewed_rules = typed("unreviewedRules", unreviewed)
        .and_then(|v| serde_json::from_value(v).ok())
        .unwrap_or_default();
    let enforced_rules = typed("enforcedRules", enforced)
        .and_then(|v| serde_json::from_value(v).ok())
        .unwrap_or_default();
    let checked_rules = typed("checkedRules", checked)
        .and_then(|v| serde_json::from_value(v).ok())
        .unwrap_or_default();
    let waiver_notes = typed("waiverNotes", notes)
        .and_then(|v| serde_json::from_value(v).ok())
        .unwrap_or_default();
    unreadable.sort_unstable();
    unreadable.dedup();
    Ok(Row {
        id: r.get(0)?,
        record_id: r.get(1)?,
        repository: r.get(2)?,
        pr: r.get::<_, Option<i64>>(3)?.map(|p| p as u64),
        head_sha: r.get(4)?,
        base_sha: r.get(5)?,
        merge_base_sha: r.get(6)?,
        head_tree_sha: r.get(7)?,
        base_ref: r.get(8)?,
        head_ref: r.get(9)?,
        status: r.get(10)?,
        detail_complete: r.get(11)?,
        blocking: r.get(12)?,
        blocking_count: r.get(13)?,
        violation_count: r.get(14)?,
        truncated: r.get(15)?,
        truncated_note: r.get(16)?,
        files_changed: r.get(17)?,
        tools,
        skipped_files,
        unreviewed_rules,
        enforced_rules,
        checked_rules,
        waived_count: r.get(26)?,
        waiver_notes,
        verdict_note: r.get(22)?,
        analyzed_at: r.get(23)?,
        generator: r.get(24)?,
        unreadable_parts: unreadable,
    })
}

/// What a lookup filters on (all optional).
#[derive(Debug, Default, Clone)]
pub struct Filter<'a> {
    pub repository: Option<&'a str>,
    pub pr: Option<u64>,
    /// Lowercase hex, at least 7 characters (checked by the caller).
    pub sha_prefix: Option<&'a str>,
    /// Only these repositories (a key bound to them); None = every one.
    pub visible: Option<&'a [String]>,
}

/// Records matching `filter`, newest first, at most `limit`.
pub fn find(conn: &Connection, filter: &Filter<'_>, limit: usize) -> Result<Vec<Row>, LiteError> {
    let mut wh = vec!["1 = 1".to_string()];
    let mut args: Vec<rusqlite::types::Value> = Vec::new();
    if let Some(r) = filter.repository {
        args.push(r.to_string().into());
        wh.push(format!("repository = ?{}", args.len()));
    }
    if let Some(p) = filter.pr {
        args.push((p as i64).into());
        wh.push(format!("pr = ?{}", args.len()));
    }
    if let Some(s) = filter.sha_prefix {
        // Hex only (checked by the caller), so no LIKE wildcard can be in it.
        args.push(format!("{s}%").into());
        wh.push(format!("head_sha LIKE ?{}", args.len()));
    }
    if let Some(visible) = filter.visible {
        // Filtered here, not after: another repository's records must not crowd out the
        // caller's (nor be looked at at all).
        let mut slots = Vec::new();
        for name in visible {
            args.push(name.clone().into());
            slots.push(format!("?{}", args.len()));
        }
        wh.push(if slots.is_empty() {
            "0 = 1".to_string()
        } else {
            format!("repository IN ({})", slots.join(", "))
        });
    }
    let sql = format!(
        "SELECT {ROW_COLUMNS} FROM gate_records WHERE {} ORDER BY stored_at DESC, id DESC LIMIT {limit}",
        wh.join(" AND ")
    );
    let mut st = conn
        .prepare(&sql)
        .map_err(LiteError::db("reading gate records"))?;
    let rows = st
        .query_map(rusqlite::params_from_iter(args), row)
        .map_err(LiteError::db("reading gate records"))?
        .collect::<Result<Vec<_>, _>>()
        .map_err(LiteError::db("reading gate records"))?;
    Ok(rows)
}

/// How many records a repository has (any pr, any sha).
pub fn count_for(conn: &Connection, repository: &str) -> Result<i64, LiteError> {
    conn.query_row(
        "SELECT count(*) FROM gate_records WHERE repository = ?1",
        params![repository],
        |r| r.get(0),
    )
    .map_err(LiteError::db("counting gate records"))
}

/// A record's stored violations: the first `limit`, most severe first.
#[derive(Debug, Default)]
pub struct Violations {
    pub list: Vec<Violation>,
    /// Rows that decoded (returned or not).
    pub readable: usize,
    /// Rows that did not decode (an unknown severity, a wrong type).
    pub unreadable: usize,
}

/// A record's violations, most severe first, at most `limit`, with counts.
pub fn violations(conn: &Connection, record: i64, limit: usize) -> Result<Violations, LiteError> {
    let mut st = conn
        .prepare(
            "SELECT path, line, severity, rule_id, rule_title, comment, suggestion, source
             FROM gate_violations WHERE record = ?1
             ORDER BY CASE severity WHEN 'error' THEN 0 WHEN 'warning' THEN 1 ELSE 2 END, path, line, seq",
        )
        .map_err(LiteError::db("reading gate violations"))?;
    let mut rows = st
        .query(params![record])
        .map_err(LiteError::db("reading gate violations"))?;
    let mut out = Violations::default();
    while let Some(r) = rows
        .next()
        .map_err(LiteError::db("reading gate violations"))?
    {
        let decoded = (|| -> rusqlite::Result<Option<Violation>> {
            let severity: String = r.get(2)?;
            let Some(severity) = Severity::parse(&severity) else {
                return Ok(None);
            };
            Ok(Some(Violation {
                path: r.get(0)?,
                line: r.get(1)?,
                severity,
                rule_id: r.get(3)?,
                rule_title: r.get(4)?,
                comment: r.get(5)?,
                suggestion: r.get(6)?,
                source: r.get(7)?,
            }))
        })();
        match decoded {
            Ok(Some(v)) => {
                out.readable += 1;
                if out.list.len() < limit {
                    out.list.push(v);
                }
            }
            Ok(None) | Err(_) => out.unreadable += 1,
        }
    }
    Ok(out)
}

/// How often each rule was broken in stored gate runs (for the rules domain's stats).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RuleBreaks {
    pub rule_id: String,
    /// Violations over all stored records.
    pub violations: i64,
    /// Records (gate runs) with at least one.
    pub runs: i64,
}

pub fn rule_breaks(
    conn: &Connection,
    repository: Option<&str>,
) -> Result<Vec<RuleBreaks>, LiteError> {
    let mut st = conn
        .prepare(
            "SELECT v.rule_id, count(*), count(DISTINCT v.record) FROM gate_violations v
             JOIN gate_records g ON g.id = v.record
             WHERE ?1 IS NULL OR g.repository = ?1
             GROUP BY v.rule_id ORDER BY count(*) DESC, v.rule_id",
        )
        .map_err(LiteError::db("counting rule breaks"))?;
    let rows = st
        .query_map(params![repository], |r| {
            Ok(RuleBreaks {
                rule_id: r.get(0)?,
                violations: r.get(1)?,
                runs: r.get(2)?,
            })
        })
        .map_err(LiteError::db("counting rule breaks"))?
        .collect::<Result<Vec<_>, _>>()
        .map_err(LiteError::db("counting rule breaks"))?;
    Ok(rows)
}
