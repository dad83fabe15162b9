//! report_check: an agent's self-check of its work against the playbook, stored `claimed`
//! with the tree it describes ([`tree`]), and what the gate witnessed of it ([`witness`]).

pub mod tree;
pub mod witness;

pub use witness::{Standing, Witnessing, record_gate_run};

use crate::core::error::LiteError;
use crate::core::http::ApiError;
use crate::core::repos::ServedRepo;
use crate::rules::playbook;
use crate::rules::state::RulesState;
use rusqlite::{Connection, OptionalExtension, params};
use serde_json::{Value, json};
use std::collections::HashSet;

const MAX_RESULTS: usize = 1000;
const MAX_ID: usize = 512;
const MAX_NOTE: usize = 4000;

/// One rule's self-check.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ClaimedResult {
    pub rule_id: String,
    pub pass: bool,
    pub note: Option<String>,
}

/// A validated report_check request.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CheckRequest {
    pub session_id: String,
    pub agent_name: Option<String>,
    pub model_id: Option<String>,
    pub results: Vec<ClaimedResult>,
}

fn opt_str(body: &Value, key: &str, max: usize) -> Result<Option<String>, ApiError> {
    match &body[key] {
        Value::Null => Ok(None),
        Value::String(s) if s.trim().is_empty() => Ok(None),
        Value::String(s) if s.chars().count() > max => Err(ApiError::bad(format!(
            "`{key}` is longer than {max} characters; shorten it"
        ))),
        Value::String(s) => Ok(Some(s.trim().to_string())),
        other => Err(ApiError::bad(format!(
            "`{key}` must be a string or null, got {}",
            kind(other)
        ))),
    }
}

fn kind(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

/// Checks a report_check body (RulesCheckRequest).
pub fn parse_request(body: &Value) -> Result<CheckRequest, ApiError> {
    let session_id = opt_str(body, "sessionId", 256)?.ok_or_else(|| {
        ApiError::bad(
            "`sessionId` is required and must not be empty: use a stable id for the piece of work (the branch name, for example), the same on every report",
        )
    })?;
    let Some(list) = body["results"].as_array() else {
        return Err(ApiError::bad(
            "`results` is required: an array of {ruleId, pass, note?}, one per playbook rule you checked",
        ));
    };
    if list.is_empty() {
        return Err(ApiError::bad(
            "`results` is empty: report at least one rule you checked ({ruleId, pass}); get_playbook lists the rule ids",
        ));
    }
    if list.len() > MAX_RESULTS {
        return Err(ApiError::bad(format!(
            "`results` has {} entries; at most {MAX_RESULTS} are taken in one report",
            list.len()
        )));
    }
    let mut results = Vec::with_capacity(list.len());
    let mut seen = HashSet::new();
    let mut duplicates = Vec::new();
    for (i, r) in list.iter().enumerate() {
        if !r.is_object() {
            return Err(ApiError::bad(format!(
                "`results[{i}]` must be an object {{ruleId, pass, note?}}, got {}",
                kind(r)
            )));
        }
        let rule_id = opt_str(r, "ruleId", MAX_ID)
            .map_err(|e| ApiError::bad(format!("`results[{i}]`: {}", e.message)))?
            .ok_or_else(|| {
                ApiError::bad(format!(
                    "`results[{i}].ruleId` is required and must not be empty; get_playbook lists the rule ids"
                ))
            })?;
        let Some(pass) = r["pass"].as_bool() else {
            return Err(ApiError::bad(format!(
                "`results[{i}].pass` ({rule_id}) must be true or false, got {}",
                kind(&r["pass"])
            )));
        };
        let note = opt_str(r, "note", MAX_NOTE)
            .map_err(|e| ApiError::bad(format!("`results[{i}]` ({rule_id}): {}", e.message)))?;
        if !seen.insert(rule_id.clone()) {
            duplicates.push(rule_id.clone());
        }
        results.push(ClaimedResult {
            rule_id,
            pass,
            note,
        });
    }
    if !duplicates.is_empty() {
        return Err(ApiError::bad(format!(
            "`results` names these rules more than once: {}; report each rule once",
            duplicates.join(", ")
        )));
    }
    Ok(CheckRequest {
        session_id,
        agent_name: opt_str(body, "agentName", 200)?,
        model_id: opt_str(body, "modelId", 200)?,
        results,
    })
}

/// The tree a check describes, or why it could not be computed.
pub type TreeOrWhy = Result<tree::WorkTree, String>;

/// Stores a check (`known`: the playbook's rule ids) and judges it against the gate runs
/// already stored on its tree. Returns its id.
pub fn store(
    conn: &mut Connection,
    repository: &str,
    req: &CheckRequest,
    known: &HashSet<String>,
    tree: Option<&tree::WorkTree>,
    now_epoch: i64,
) -> Result<String, LiteError> {
    let check_id = format!("chk_{}", uuid::Uuid::new_v4().simple());
    let tx = conn
        .transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)
        .map_err(LiteError::db("starting to store a self-check"))?;
    let seq: i64 = tx
        .query_row(
            "SELECT coalesce(max(seq), 0) + 1 FROM rule_checks",
            [],
            |r| r.get(0),
        )
        .map_err(LiteError::db("numbering a self-check"))?;
    tx.execute(
        "INSERT INTO rule_checks(check_id, repository, session_id, agent_name, model_id, tree_sha,
           head_sha, head_tree_sha, dirty, status, witnessed_by, created_at, seq, updated_at)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, 'claimed', NULL, ?10, ?11, ?10)",
        params![
            check_id,
            repository,
            req.session_id,
            req.agent_name,
            req.model_id,
            tree.map(|t| t.tree_sha.clone()),
            tree.and_then(|t| t.head_sha.clone()),
            tree.and_then(|t| t.head_tree_sha.clone()),
            tree.map(|t| t.dirty),
            now_epoch,
            seq,
        ],
    )
    .map_err(LiteError::db("storing a self-check"))?;
    {
        let mut st = tx
            .prepare(
                "INSERT INTO rule_check_results(check_id, idx, rule_id, pass, note, known, witness)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, NULL)",
            )
            .map_err(LiteError::db("storing a self-check's results"))?;
        for (i, r) in req.results.iter().enumerate() {
            st.execute(params![
                check_id,
                i as i64,
                r.rule_id,
                r.pass,
                r.note,
                known.contains(&r.rule_id)
            ])
            .map_err(LiteError::db("storing a self-check's results"))?;
        }
    }
    if let Some(t) = tree {
        for run in witness::runs_on_tree(&tx, repository, &t.tree_sha)? {
            witness::apply(&tx, &run, &check_id, now_epoch)?;
        }
    }
    tx.commit()
        .map_err(LiteError::db("committing a self-check"))?;
    Ok(check_id)
}

/// A stored check as answered (RulesCheck), `None` when there is no such check.
pub fn check_json(conn: &Connection, check_id: &str) -> Result<Option<Value>, LiteError> {
    let ctx = "reading a self-check";
    let head = conn
        .query_row(
            "SELECT repository, session_id, agent_name, model_id, tree_sha, head_sha, dirty, status,
               witnessed_by, created_at FROM rule_checks WHERE check_id = ?1",
            params![check_id],
            |r| {
                Ok(json!({
                    "checkId": check_id,
                    "repository": r.get::<_, String>(0)?,
                    "sessionId": r.get::<_, String>(1)?,
                    "agentName": r.get::<_, Option<String>>(2)?,
                    "modelId": r.get::<_, Option<String>>(3)?,
                    "treeSha": r.get::<_, Option<String>>(4)?,
                    "headSha": r.get::<_, Option<String>>(5)?,
                    "dirty": r.get::<_, Option<bool>>(6)?,
                    "status": r.get::<_, String>(7)?,
                    "witnessedBy": r.get::<_, Option<String>>(8)?,
                    "createdAt": crate::core::util::rfc3339(r.get(9)?),
                }))
            },
        )
        .optional()
        .map_err(LiteError::db(ctx))?;
    let Some(mut v) = head else {
        return Ok(None);
    };
    let mut st = conn
        .prepare(
            "SELECT rule_id, pass, note, known, witness FROM rule_check_results WHERE check_id = ?1 ORDER BY idx",
        )
        .map_err(LiteError::db(ctx))?;
    let rows = st
        .query_map(params![check_id], |r| {
            Ok((
                r.get::<_, String>(0)?,
                r.get::<_, bool>(1)?,
                r.get::<_, Option<String>>(2)?,
                r.get::<_, bool>(3)?,
                r.get::<_, Option<String>>(4)?,
            ))
        })
        .map_err(LiteError::db(ctx))?
        .collect::<Result<Vec<_>, _>>()
        .map_err(LiteError::db(ctx))?;
    let mut unknown = Vec::new();
    let mut failed = Vec::new();
    let mut results = Vec::new();
    for (rule_id, pass, note, known, witness) in rows {
        if !known {
            unknown.push(rule_id.clone());
        }
        if !pass {
            failed.push(rule_id.clone());
        }
        let gate = witness
            .as_deref()
            .and_then(|w| serde_json::from_str::<Value>(w).ok());
        results.push(json!({
            "ruleId": rule_id,
            "pass": pass,
            "note": note,
            "known": known,
            "status": witness::witness_standing(witness.as_deref()).as_str(),
            "gate": gate,
        }));
    }
    v["unknownRuleIds"] = json!(unknown);
    v["failed"] = json!(failed);
    v["results"] = json!(results);
    Ok(Some(v))
}

/// The ids of `repository`'s checks (of `session`, when given), newest first, at most
/// `limit`, and how many there are.
pub fn list_ids(
    conn: &Connection,
    repository: &str,
    session: Option<&str>,
    limit: usize,
) -> Result<(Vec<String>, i64), LiteError> {
    let ctx = "listing self-checks";
    let total: i64 = conn
        .query_row(
            "SELECT count(*) FROM rule_checks WHERE repository = ?1 AND (?2 IS NULL OR session_id = ?2)",
            params![repository, session],
            |r| r.get(0),
        )
        .map_err(LiteError::db(ctx))?;
    let mut st = conn
        .prepare(
            "SELECT check_id FROM rule_checks WHERE repository = ?1 AND (?2 IS NULL OR session_id = ?2)
             ORDER BY seq DESC LIMIT ?3",
        )
        .map_err(LiteError::db(ctx))?;
    let ids = st
        .query_map(params![repository, session, limit as i64], |r| r.get(0))
        .map_err(LiteError::db(ctx))?
        .collect::<Result<Vec<String>, _>>()
        .map_err(LiteError::db(ctx))?;
    Ok((ids, total))
}

/// GET /api/v1/rules/checks: a repository's (or a session's) latest checks and their status.
pub fn list_answer(
    s: &RulesState,
    repo: &ServedRepo,
    session: Option<&str>,
    limit: usize,
) -> Result<Value, ApiError> {
    let conn = s.core.reader()?;
    let (ids, total) = list_ids(&conn, &repo.name, session, limit)?;
    let mut checks = Vec::with_capacity(ids.len());
    for id in ids {
        if let Some(mut v) = check_json(&conn, &id)? {
            v["note"] = json!(note(&v, None));
            checks.push(v);
        }
    }
    Ok(json!({
        "repository": repo.name,
        "sessionId": session,
        "total": total,
        "checks": checks,
    }))
}

/// What `status` means for this check, and how it can change.
fn note(v: &Value, tree_error: Option<&str>) -> String {
    let mut parts = Vec::new();
    match v["status"].as_str() {
        Some("witnessed") => parts.push(
            "witnessed: a gate run on this same tree agrees with every known result".to_string(),
        ),
        Some("disputed") => parts.push(
            "disputed: a gate run on this same tree disagrees with at least one result (see results[].gate); both sides are kept".to_string(),
        ),
        _ => parts.push(
            "claimed: this is your own word. It becomes witnessed when a gate run (`nexus-mcp gate`) on this same tree agrees with every known result, and disputed if it disagrees with any; rules the gate does not enforce stay claimed".to_string(),
        ),
    }
    if let Some(e) = tree_error {
        parts.push(format!(
            "the tree could not be recorded ({e}), so no gate run can witness this check"
        ));
    } else if v["dirty"] == json!(true) {
        parts.push(
            "the work tree differs from HEAD: the gate reads commits, so commit exactly this content (untracked files included) for a gate run to see this tree".to_string(),
        );
    }
    if let Some(n) = v["unknownRuleIds"]
        .as_array()
        .map(Vec::len)
        .filter(|n| *n > 0)
    {
        parts.push(format!(
            "{n} rule id(s) are neither in the current playbook nor analyser rules (ruff:<CODE>, bandit:<ID>, semgrep:<rule id>) (unknownRuleIds): stored, but they count for nothing in the check's status; get_playbook lists the ids"
        ));
    }
    let failed = v["failed"].as_array().map_or(0, Vec::len);
    if failed > 0 {
        parts.push(format!(
            "{failed} rule(s) failed: fix them and report again with the same sessionId"
        ));
    }
    let mut s = parts.join(". ");
    s.push('.');
    s
}

/// POST /api/v1/rules/checks.
pub fn report(s: &RulesState, repo: &ServedRepo, body: &Value) -> Result<Value, ApiError> {
    let req = parse_request(body)?;
    let pb = playbook::load_worktree(&repo.root)?;
    // Analyser ids count: the gate witnesses them from its own analysis.
    let known: HashSet<String> = pb
        .rules()
        .map(|r| r.rule_id.clone())
        .chain(
            req.results
                .iter()
                .filter(|r| crate::rules::analyser_rules::analyser_id(&r.rule_id).is_some())
                .map(|r| r.rule_id.clone()),
        )
        .collect();
    let tree: TreeOrWhy = tree::work_tree(&repo.root).map_err(|e| e.to_string());
    if let Err(e) = &tree {
        tracing::warn!(error = %e, repository = %repo.name, "report_check: the work tree's tree id could not be computed");
    }
    let mut conn = s.core.writer()?;
    let id = store(
        &mut conn,
        &repo.name,
        &req,
        &known,
        tree.as_ref().ok(),
        crate::core::util::now_epoch(),
    )?;
    let mut v = check_json(&conn, &id)?.ok_or_else(|| {
        ApiError::from(LiteError::Task(format!(
            "the self-check {id} was stored but cannot be read back"
        )))
    })?;
    v["note"] = json!(note(&v, tree.as_ref().err().map(String::as_str)));
    Ok(v)
}
