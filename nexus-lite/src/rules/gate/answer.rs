//! The `get_gate_result` answer (seed 003): written for an agent, with every honesty field of
//! rules-gate.md §2. `found:false` always comes with a reason; `blocking` is null, never
//! false, when unknown; a capped list says so (`violationCount` vs `violationsReturned`).

use crate::core::error::LiteError;
use crate::rules::gate::record::{self, Filter, Row};
use crate::rules::gate::short;
use rusqlite::Connection;
use serde_json::{Value, json};
use std::collections::BTreeSet;

/// Shortest sha prefix accepted (seed 003: at least 7 characters).
pub const MIN_PREFIX: usize = 7;

/// Violations returned when the caller does not say.
pub const DEFAULT_LIMIT: usize = 50;
pub const MAX_LIMIT: usize = 500;

/// A comment longer than this is cut (and marked).
const MAX_COMMENT_CHARS: usize = 2_000;

/// Checked analyser rules listed without `checkedPrefix`; past it, a count per group instead.
pub const CHECKED_LISTED: usize = 60;
/// Checked rules listed for one `checkedPrefix` (a whole ruff linter fits).
pub const CHECKED_MAX: usize = 250;

/// Records looked at for one question (ambiguity and scope checks).
const LOOKUP_ROWS: usize = 500;

/// What the caller asked.
#[derive(Debug, Default, Clone)]
pub struct Question<'a> {
    pub repository: Option<&'a str>,
    pub sha: Option<&'a str>,
    pub pr: Option<u64>,
    /// The caller's repositories when its key is restricted; None = unrestricted.
    pub visible: Option<&'a [String]>,
    pub limit: usize,
    /// Only the checked rules starting with this (`ruff:S`), listed in full.
    pub checked_prefix: Option<&'a str>,
}

/// A question that cannot be asked.
#[derive(Debug, thiserror::Error)]
pub enum BadQuestion {
    #[error(
        "`sha` must be a commit sha or a prefix of at least {MIN_PREFIX} hex characters, got `{0}`; branch names filter nothing (the gate records the repository, the pr number and the head sha): pass the head commit's sha, or `pr`"
    )]
    Sha(String),
}

/// Lowercase hex prefix of at least [`MIN_PREFIX`] characters.
pub fn sha_prefix(s: &str) -> Result<String, BadQuestion> {
    let v = s.trim().to_ascii_lowercase();
    if v.len() >= MIN_PREFIX && v.len() <= 64 && v.bytes().all(|b| b.is_ascii_hexdigit()) {
        Ok(v)
    } else {
        Err(BadQuestion::Sha(s.chars().take(80).collect()))
    }
}

/// The command that would produce a record, for reasons that say "run the gate".
fn gate_command(sha: Option<&str>, pr: Option<u64>) -> String {
    format!(
        "nexus-mcp gate --base <target branch> --head {}{}",
        sha.unwrap_or("<head sha>"),
        pr.map(|p| format!(" --pr {p}")).unwrap_or_default()
    )
}

/// Answers `q` from the records in `conn`.
pub fn answer(conn: &Connection, q: &Question<'_>) -> Result<Value, LiteError> {
    let prefix = q.sha.map(str::to_ascii_lowercase);
    if let Some(repo) = q.repository
        && q.visible.is_some_and(|v| !v.iter().any(|n| n == repo))
    {
        // Said without looking: whether `repo` has records is not this key's to learn.
        return Ok(not_found(
            q,
            format!(
                "repository `{repo}` is outside the repositories this key may see ({}); a key bound to `{repo}`, or an unrestricted key, would see its gate analyses",
                visible_list(q.visible)
            ),
        ));
    }
    // Only the caller's repositories are looked at: an answer never depends on another
    // tenant's records (which prs or shas they have, or that they exist).
    let filter = Filter {
        repository: q.repository,
        pr: q.pr,
        sha_prefix: prefix.as_deref(),
        visible: q.visible,
    };
    let rows = record::find(conn, &filter, LOOKUP_ROWS)?;
    let visible: Vec<&Row> = rows.iter().collect();
    if visible.is_empty() {
        let mut a = not_found(q, no_record_reason(conn, q)?);
        a["nextStep"] = json!(format!(
            "run `{}` in CI (or locally) to analyse the change",
            gate_command(q.sha, q.pr)
        ));
        return Ok(a);
    }
    if q.sha.is_some() {
        let shas: BTreeSet<&str> = visible.iter().map(|r| r.head_sha.as_str()).collect();
        if shas.len() > 1 {
            let mut a = not_found(
                q,
                format!(
                    "the sha prefix `{}` matches {} analysed commits; pass more characters of the sha (or `repository` / `pr`) to pick one",
                    q.sha.unwrap_or_default(),
                    shas.len()
                ),
            );
            let candidates: Vec<Value> = visible
                .iter()
                .take(20)
                .map(|r| json!({"sha": r.head_sha, "repo": r.repository, "pr": r.pr, "status": r.status, "analyzedAt": r.analyzed_at}))
                .collect();
            a["candidates"] = json!(candidates);
            return Ok(a);
        }
    }
    let chosen = visible[0];
    let others: Vec<Value> = visible[1..]
        .iter()
        .filter(|r| r.head_sha == chosen.head_sha && r.repository == chosen.repository)
        .map(|r| json!({"pr": r.pr, "status": r.status, "analyzedAt": r.analyzed_at}))
        .collect();
    found(conn, chosen, q, others)
}

fn visible_list(v: Option<&[String]>) -> String {
    match v {
        None => "every repository".into(),
        Some([]) => "no repository".into(),
        Some(list) => list
            .iter()
            .map(|n| format!("`{n}`"))
            .collect::<Vec<_>>()
            .join(", "),
    }
}

/// Why nothing matched, with what exists instead.
fn no_record_reason(conn: &Connection, q: &Question<'_>) -> Result<String, LiteError> {
    let what = describe(q);
    let Some(repo) = q.repository else {
        let any = record::find(
            conn,
            &Filter {
                visible: q.visible,
                ..Filter::default()
            },
            1,
        )?;
        let place = match q.visible {
            None => "on this server".to_string(),
            Some(_) => format!(
                "for the repositories this key may see ({})",
                visible_list(q.visible)
            ),
        };
        return Ok(match any.first() {
            None => format!(
                "no gate analysis has been recorded {place} yet{what}; run `{}` in CI (or locally) first",
                gate_command(q.sha, q.pr)
            ),
            Some(_) => format!(
                "no gate analysis matches{what}; was the gate run on this commit? Run `{}`",
                gate_command(q.sha, q.pr)
            ),
        });
    };
    if record::count_for(conn, repo)? == 0 {
        return Ok(format!(
            "no gate analysis has been recorded for `{repo}` yet{what}; run `{}` in CI (or locally) first",
            gate_command(q.sha, q.pr)
        ));
    }
    let newest = record::find(
        conn,
        &Filter {
            repository: Some(repo),
            ..Filter::default()
        },
        1,
    )?;
    let newest = newest
        .first()
        .map(|r| {
            format!(
                " (the newest analysis of `{repo}` is for sha {}{})",
                short(&r.head_sha),
                r.pr.map(|p| format!(", pr {p}")).unwrap_or_default()
            )
        })
        .unwrap_or_default();
    Ok(format!(
        "no gate analysis matches{what}{newest}; was the gate run on this commit? Run `{}`",
        gate_command(q.sha, q.pr)
    ))
}

/// " for sha `x` and pr 3 in `repo`", from what was asked.
fn describe(q: &Question<'_>) -> String {
    let mut parts = Vec::new();
    if let Some(s) = q.sha {
        parts.push(format!("sha `{s}`"));
    }
    if let Some(p) = q.pr {
        parts.push(format!("pr {p}"));
    }
    let mut out = String::new();
    if !parts.is_empty() {
        out = format!(" for {}", parts.join(" and "));
    }
    if let Some(r) = q.repository {
        out.push_str(&format!(" in `{r}`"));
    }
    out
}

/// The answer shape with nothing found: the seed's fields present, unknown ones null.
fn not_found(q: &Question<'_>, reason: String) -> Value {
    json!({
        "found": false,
        "repo": q.repository,
        "pr": q.pr,
        "sha": q.sha,
        "reason": reason,
        "baseSha": null,
        "status": null,
        "blocking": null,
        "blockingCount": null,
        "violationCount": null,
        "violationsReturned": 0,
        "violationsUnreadable": null,
        "detailComplete": null,
        "truncated": null,
        "truncatedNote": null,
        "violations": null,
        "unreviewedRules": null,
        "checkedRules": null,
        "checkedRulesCount": null,
        "waivedCount": null,
        "waiverNotes": null,
        "tools": null,
        "skippedFiles": null,
        "analyzedAt": null,
    })
}

fn found(
    conn: &Connection,
    r: &Row,
    q: &Question<'_>,
    others: Vec<Value>,
) -> Result<Value, LiteError> {
    let stored = record::violations(conn, r.id, q.limit)?;
    // Rows missing altogether (the record counted more than are stored) are unreadable too.
    let missing = usize::try_from(r.violation_count)
        .unwrap_or(0)
        .saturating_sub(stored.readable + stored.unreadable);
    let unreadable = stored.unreadable + missing;
    let mut violations = stored.list;
    for v in &mut violations {
        if v.comment.chars().count() > MAX_COMMENT_CHARS {
            v.comment = format!(
                "{}… (cut at {MAX_COMMENT_CHARS} characters)",
                v.comment
                    .chars()
                    .take(MAX_COMMENT_CHARS)
                    .collect::<String>()
            );
        }
    }
    let returned = violations.len();
    let detail_complete = r.detail_complete && unreadable == 0 && r.unreadable_parts.is_empty();
    let mut notes = vec![r.verdict_note.clone()];
    if (returned as i64) < r.violation_count {
        notes.push(format!(
            "{returned} of {} violations returned (most severe first){}",
            r.violation_count,
            if unreadable > 0 {
                format!("; {unreadable} stored violation(s) could not be read")
            } else {
                format!("; ask with a higher `limit` (up to {MAX_LIMIT}) for more")
            }
        ));
    }
    if !r.unreadable_parts.is_empty() {
        notes.push(format!(
            "parts of the stored record could not be read ({}); do not read the commit as clean, the CI log is the reference",
            r.unreadable_parts.join(", ")
        ));
    }
    let tools: Vec<Value> = r
        .tools
        .iter()
        .map(|t| {
            json!({
                "name": t.name,
                "version": t.version,
                "exitCode": t.exit_code,
                "status": t.status,
                "files": t.files,
                "findings": t.findings,
                "findingsOnUnchangedLines": t.findings_on_unchanged_lines,
                "errors": t.errors,
                "reason": t.reason,
            })
        })
        .collect();
    let mut a = json!({
        "found": true,
        "repo": r.repository,
        "pr": r.pr,
        "sha": r.head_sha,
        "reason": null,
        "baseSha": r.base_sha,
        "status": r.status,
        "statusNote": notes.join(". "),
        "blocking": r.blocking,
        "blockingCount": r.blocking_count,
        "violationCount": r.violation_count,
        "violationsReturned": returned,
        "violationsUnreadable": unreadable,
        "detailComplete": detail_complete,
        "truncated": r.truncated,
        "truncatedNote": r.truncated_note.clone().or_else(|| match r.truncated {
            None => Some("unknown: this record does not say whether the whole diff was analysed; the CI log is the reference".to_string()),
            Some(_) => None,
        }),
        "violations": violations,
        "unreviewedRules": r.unreviewed_rules,
        "waivedCount": r.waived_count,
        "waiverNotes": r.waiver_notes,
        "tools": tools,
        "skippedFiles": r.skipped_files,
        "analyzedAt": r.analyzed_at,
        "recordId": r.record_id,
        "headTreeSha": r.head_tree_sha,
        "mergeBaseSha": r.merge_base_sha,
        "baseRef": r.base_ref,
        "headRef": r.head_ref,
        "filesChanged": r.files_changed,
        "enforcedRules": r.enforced_rules,
        "generator": r.generator,
    });
    if !others.is_empty() {
        a["sameShaOtherRecords"] = json!(others);
    }
    checked(&mut a, &r.checked_rules, q.checked_prefix);
    Ok(a)
}

/// `checkedRules`: the analyser rules whose silence means clean on this run. Long lists are
/// summarised per group (`ruff:PLR`), each group reachable in full with `checkedPrefix`.
fn checked(a: &mut Value, all: &[String], prefix: Option<&str>) {
    let covers = |c: &String| match prefix {
        None => true,
        // `bandit:*` covers every bandit id a prefix can name.
        Some(p) => c.starts_with(p) || c.strip_suffix('*').is_some_and(|tool| p.starts_with(tool)),
    };
    let matching: Vec<&String> = all.iter().filter(|c| covers(c)).collect();
    let cap = if prefix.is_some() {
        CHECKED_MAX
    } else {
        CHECKED_LISTED
    };
    a["checkedRules"] = json!(matching.iter().take(cap).collect::<Vec<_>>());
    a["checkedRulesCount"] = json!(matching.len());
    if matching.len() <= cap {
        return;
    }
    let mut groups: std::collections::BTreeMap<String, usize> = Default::default();
    for c in &matching {
        *groups.entry(checked_group(c)).or_default() += 1;
    }
    a["checkedRulesByGroup"] = json!(groups);
    a["checkedRulesNote"] = json!(format!(
        "{cap} of {} checked analyser rules listed; ask again with `checkedPrefix` set to a group of checkedRulesByGroup (e.g. `{}`) for that group in full",
        matching.len(),
        groups.keys().next().map_or("ruff:S", String::as_str)
    ));
}

/// `ruff:PLR0913` -> `ruff:PLR`: the tool and the code's letters.
fn checked_group(rule: &str) -> String {
    let (tool, code) = rule.split_once(':').unwrap_or(("", rule));
    let letters: String = code.chars().take_while(|c| !c.is_ascii_digit()).collect();
    format!("{tool}:{letters}")
}
