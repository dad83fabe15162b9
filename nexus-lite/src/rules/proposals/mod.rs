//! Proposals (propose_rule, propose_skill, bootstrap_playbook): agents suggest, humans decide.
//! A proposal is stored `queued`, flagged AI-generated unless a human sent it, and never
//! enters the playbook until accepted; accepting writes its file into the repository
//! ([`write`]), which takes effect once committed. The same dedupe key is queued once.

pub mod bootstrap;
pub mod request;
pub mod write;

use request::text;
pub use request::{NewProposal, parse_request, skill_name_problem, slug, target_path};

use crate::core::error::LiteError;
use crate::core::http::ApiError;
use crate::core::repos::ServedRepo;
use crate::core::util::{now_epoch, rfc3339};
use crate::rules::state::RulesState;
use axum::http::StatusCode;
use rusqlite::{Connection, OptionalExtension, params};
use serde_json::{Value, json};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Decision {
    Accept,
    Reject,
}

const COLUMNS: &str = "proposal_id, repository, kind, title, name, body, rationale, fields, source,
  proposed_by, ai_generated, status, dedupe_key, created_at, decided_at, decided_by, decision_note,
  written_path";

fn row_json(r: &rusqlite::Row<'_>) -> rusqlite::Result<Value> {
    let kind: String = r.get(2)?;
    let title: String = r.get(3)?;
    let name: Option<String> = r.get(4)?;
    let fields: String = r.get(7)?;
    let slug_now = name.clone().unwrap_or_else(|| slug(&title));
    Ok(json!({
        "proposalId": r.get::<_, String>(0)?,
        "repository": r.get::<_, String>(1)?,
        "kind": kind,
        "title": title,
        "name": name,
        "body": r.get::<_, String>(5)?,
        "rationale": r.get::<_, Option<String>>(6)?,
        "fields": serde_json::from_str::<Value>(&fields).unwrap_or_else(|_| json!({})),
        "source": r.get::<_, String>(8)?,
        "proposedBy": r.get::<_, Option<String>>(9)?,
        "aiGenerated": r.get::<_, bool>(10)?,
        "status": r.get::<_, String>(11)?,
        "dedupeKey": r.get::<_, String>(12)?,
        "createdAt": rfc3339(r.get(13)?),
        "decidedAt": r.get::<_, Option<i64>>(14)?.map(rfc3339),
        "decidedBy": r.get::<_, Option<String>>(15)?,
        "decisionNote": r.get::<_, Option<String>>(16)?,
        "writtenPath": r.get::<_, Option<String>>(17)?,
        "target": target_path(&kind, &slug_now),
    }))
}

/// A proposal of `repository` by id.
pub fn get(conn: &Connection, repository: &str, id: &str) -> Result<Option<Value>, LiteError> {
    conn.query_row(
        &format!("SELECT {COLUMNS} FROM rule_proposals WHERE repository = ?1 AND proposal_id = ?2"),
        params![repository, id],
        row_json,
    )
    .optional()
    .map_err(LiteError::db("reading a proposal"))
}

/// The proposal with `key` in `repository`, whatever its status.
pub fn by_dedupe_key(
    conn: &Connection,
    repository: &str,
    key: &str,
) -> Result<Option<Value>, LiteError> {
    conn.query_row(
        &format!(
            "SELECT {COLUMNS} FROM rule_proposals WHERE repository = ?1 AND dedupe_key = ?2
             ORDER BY created_at, rowid LIMIT 1"
        ),
        params![repository, key],
        row_json,
    )
    .optional()
    .map_err(LiteError::db("looking for a duplicate proposal"))
}

/// Queues `p` unless a proposal with its dedupe key exists (then returns that one and true).
pub fn queue(
    conn: &mut Connection,
    repository: &str,
    p: &NewProposal,
    now: i64,
) -> Result<(Value, bool), LiteError> {
    let key = p.dedupe_key();
    let tx = conn
        .transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)
        .map_err(LiteError::db("starting to queue a proposal"))?;
    if let Some(existing) = by_dedupe_key(&tx, repository, &key)? {
        return Ok((existing, true));
    }
    let id = format!("prop_{}", uuid::Uuid::new_v4().simple());
    tx.execute(
        "INSERT INTO rule_proposals(proposal_id, repository, kind, title, name, body, rationale,
           fields, source, proposed_by, ai_generated, status, dedupe_key, created_at)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, 'queued', ?12, ?13)",
        params![
            id,
            repository,
            p.kind,
            p.title,
            p.name,
            p.body,
            p.rationale,
            Value::Object(p.fields.clone()).to_string(),
            p.source,
            p.proposed_by,
            p.ai_generated(),
            key,
            now
        ],
    )
    .map_err(LiteError::db("queueing a proposal"))?;
    let v = get(&tx, repository, &id)?
        .ok_or_else(|| LiteError::Task(format!("proposal {id} vanished while queueing")))?;
    tx.commit()
        .map_err(LiteError::db("committing a proposal"))?;
    Ok((v, false))
}

/// Proposals of `repository` with one of `status` (all when empty), oldest first.
pub fn list(
    conn: &Connection,
    repository: &str,
    status: &[String],
) -> Result<Vec<Value>, LiteError> {
    let ctx = "listing proposals";
    let mut st = conn
        .prepare(&format!(
            "SELECT {COLUMNS} FROM rule_proposals WHERE repository = ?1 ORDER BY created_at, rowid"
        ))
        .map_err(LiteError::db(ctx))?;
    let all = st
        .query_map(params![repository], row_json)
        .map_err(LiteError::db(ctx))?
        .collect::<Result<Vec<_>, _>>()
        .map_err(LiteError::db(ctx))?;
    Ok(all
        .into_iter()
        .filter(|p| status.is_empty() || status.iter().any(|s| p["status"] == s.as_str()))
        .collect())
}

pub fn list_answer(s: &RulesState, r: &ServedRepo, status: &[String]) -> Result<Value, ApiError> {
    let conn = s.core.reader()?;
    let proposals = list(&conn, &r.name, status)?;
    Ok(json!({
        "repository": r.name,
        "total": proposals.len(),
        "proposals": proposals,
    }))
}

pub fn propose_answer(s: &RulesState, r: &ServedRepo, b: &Value) -> Result<Value, ApiError> {
    let p = parse_request(b)?;
    let mut conn = s.core.writer()?;
    let (proposal, duplicate) = queue(&mut conn, &r.name, &p, now_epoch())?;
    let note = if duplicate {
        format!(
            "a proposal with the same dedupe key ({}) exists already, status {}: nothing new was queued",
            proposal["dedupeKey"].as_str().unwrap_or_default(),
            proposal["status"].as_str().unwrap_or_default()
        )
    } else {
        format!(
            "queued for a human to review; it is not in the playbook. Accepting it writes {}, which takes effect once committed",
            proposal["target"].as_str().unwrap_or_default()
        )
    };
    Ok(json!({ "proposal": proposal, "duplicate": duplicate, "note": note }))
}

pub fn bootstrap_answer(s: &RulesState, r: &ServedRepo) -> Result<Value, ApiError> {
    bootstrap::answer(s, r)
}

/// The file an accepted proposal becomes.
pub fn file_text(p: &Value) -> String {
    let q = |v: &Value| serde_json::to_string(v).unwrap_or_else(|_| "\"\"".into());
    let f = &p["fields"];
    let id = p["proposalId"].as_str().unwrap_or_default();
    let mut out = String::from("---\n");
    if p["kind"] == "skill" {
        out.push_str(&format!(
            "name: {}\n",
            p["name"].as_str().unwrap_or_default()
        ));
        out.push_str(&format!("description: {}\n", q(&f["description"])));
        out.push_str("metadata:\n");
        out.push_str(&format!(
            "  aiGenerated: \"{}\"\n  proposalId: {}\n",
            p["aiGenerated"].as_bool().unwrap_or(true),
            q(&json!(id))
        ));
    } else {
        let slug = p["name"]
            .as_str()
            .map(str::to_string)
            .unwrap_or_else(|| slug(p["title"].as_str().unwrap_or_default()));
        out.push_str(&format!("name: {slug}\n"));
        out.push_str(&format!("description: {}\n", q(&f["description"])));
        out.push_str(&format!(
            "severity: {}\n",
            f["severity"].as_str().unwrap_or("warning")
        ));
        for key in ["globs", "enforcedBy"] {
            if let Some(items) = f[key].as_array() {
                out.push_str(&format!("{key}:\n"));
                for i in items {
                    out.push_str(&format!("  - {}\n", q(i)));
                }
            }
        }
        if let Some(forbid) = f["forbid"].as_str() {
            // Single quotes keep a regex's backslashes as they are.
            out.push_str(&format!("forbid: '{}'\n", forbid.replace('\'', "''")));
        }
        out.push_str(&format!(
            "aiGenerated: {}\n",
            p["aiGenerated"].as_bool().unwrap_or(true)
        ));
        out.push_str(&format!("proposalId: {}\n", q(&json!(id))));
    }
    out.push_str("---\n\n");
    out.push_str(&format!(
        "# {}\n\n",
        p["title"].as_str().unwrap_or_default()
    ));
    out.push_str(p["body"].as_str().unwrap_or_default().trim_end());
    out.push('\n');
    if let Some(r) = p["rationale"].as_str() {
        out.push_str(&format!("\nWhy: {}\n", r.trim()));
    }
    out
}

fn decided_by(b: &Value) -> Result<(Option<String>, Option<String>), ApiError> {
    Ok((
        text(b, "decidedBy", 200, false)?,
        text(b, "decisionNote", 4000, false)?,
    ))
}

pub fn decide_answer(
    s: &RulesState,
    r: &ServedRepo,
    id: &str,
    d: Decision,
    b: &Value,
) -> Result<Value, ApiError> {
    let (by, note) = if b.is_object() {
        decided_by(b)?
    } else {
        (None, None)
    };
    let mut conn = s.core.writer()?;
    let tx = conn.transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)?;
    let Some(p) = get(&tx, &r.name, id)? else {
        let ids: Vec<String> = list(&tx, &r.name, &[])?
            .iter()
            .filter_map(|p| p["proposalId"].as_str().map(str::to_string))
            .collect();
        let near = crate::core::util::near_names(id, ids.iter().map(String::as_str), 0.85);
        return Err(ApiError::not_found_as(
            "PROPOSAL_NOT_FOUND",
            format!(
                "no proposal `{id}` in {}{}; GET /api/v1/rules/proposals lists them",
                r.name,
                near.first()
                    .map(|n| format!(" (did you mean {n}?)"))
                    .unwrap_or_default()
            ),
        ));
    };
    if p["status"] != "queued" {
        return Err(ApiError::conflict(
            "PROPOSAL_NOT_QUEUED",
            format!(
                "proposal {id} is already {} ({}); only queued proposals can be accepted or rejected",
                p["status"].as_str().unwrap_or_default(),
                p["decidedAt"].as_str().unwrap_or("at an unknown time")
            ),
        )
        .with("proposal", p));
    }
    let now = now_epoch();
    let (status, written) = match d {
        Decision::Reject => ("rejected", None),
        Decision::Accept => {
            let rel = p["target"].as_str().unwrap_or_default().to_string();
            let content = file_text(&p);
            // Queued before proposals were checked, or edited in the store: checked again.
            if let Some((at, c)) = crate::core::util::first_terminal_control(&content) {
                return Err(request::control_refused(
                    &format!("the file for {id}"),
                    at,
                    c,
                ));
            }
            write::write_new(&r.root, &rel, &content).map_err(|e| match e {
                write::WriteError::Exists { .. } => {
                    ApiError::conflict("FILE_EXISTS", e.to_string())
                }
                write::WriteError::Symlink { .. }
                | write::WriteError::NotADirectory { .. }
                | write::WriteError::BadPath { .. } => {
                    ApiError::conflict("UNSAFE_PATH", e.to_string())
                }
                write::WriteError::Io { .. } => ApiError::new(
                    StatusCode::INTERNAL_SERVER_ERROR,
                    "WRITE_FAILED",
                    e.to_string(),
                ),
            })?;
            ("accepted", Some(rel))
        }
    };
    let done = tx
        .execute(
            "UPDATE rule_proposals SET status = ?1, decided_at = ?2, decided_by = ?3,
               decision_note = ?4, written_path = ?5
             WHERE repository = ?6 AND proposal_id = ?7 AND status = 'queued'",
            params![status, now, by, note, written, r.name, id],
        )
        .and_then(|_| tx.commit());
    if let Err(e) = done {
        if let Some(rel) = &written {
            // The decision was not recorded: do not leave its file behind.
            let _ = std::fs::remove_file(r.root.join(rel));
        }
        return Err(e.into());
    }
    let conn = s.core.reader()?;
    let proposal = get(&conn, &r.name, id)?.unwrap_or(Value::Null);
    let mut out = json!({ "proposal": proposal });
    if let Some(rel) = written {
        let what = if p["kind"] == "skill" {
            "list_skills shows it"
        } else {
            "get_playbook lists it and the gate enforces it on changes based on that commit"
        };
        out["writtenPath"] = json!(rel);
        out["next"] = json!(format!(
            "commit {rel} (git add {rel} && git commit) for it to take effect: the playbook and skills are read from tracked files only; once committed, {what}"
        ));
    }
    Ok(out)
}
