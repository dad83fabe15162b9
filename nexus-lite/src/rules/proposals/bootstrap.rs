//! bootstrap_playbook: candidate rules from the analyser configuration the repository has
//! (`[tool.ruff]` in pyproject.toml, ruff.toml, `.bandit`, `[tool.bandit]`, `.semgrep.yml`)
//! and from the finding codes the gate meets most often, queued as proposals (source
//! `bootstrap`), never written into the playbook. Configuration is read from the work tree's
//! root, regular files only (a symlink is not followed), at most 1 MiB each.

use crate::core::error::LiteError;
use crate::core::repos::ServedRepo;
use crate::core::util::now_epoch;
use crate::rules::api::RulesError;
use crate::rules::playbook;
use crate::rules::proposals::{NewProposal, queue};
use crate::rules::state::RulesState;
use rusqlite::{Connection, params};
use serde_json::{Map, Value, json};
use std::path::Path;

/// Most frequent gate finding codes turned into candidates.
const TOP_FINDINGS: usize = 10;
const MAX_CONFIG: u64 = 1024 * 1024;
/// What ruff checks when the configuration has no `select` (ruff's documented default).
const RUFF_DEFAULT_SELECT: &[&str] = &["E4", "E7", "E9", "F"];

/// Where candidates came from (the answer's `sources[]`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Source {
    pub path: String,
    pub candidates: usize,
    pub warning: Option<String>,
}

fn candidate(
    title: String,
    body: String,
    severity: &str,
    enforced_by: Vec<String>,
    globs: &[&str],
) -> NewProposal {
    let mut fields = Map::new();
    fields.insert("description".into(), json!(title.clone()));
    fields.insert("severity".into(), json!(severity));
    if !globs.is_empty() {
        fields.insert("globs".into(), json!(globs));
    }
    fields.insert("enforcedBy".into(), json!(enforced_by));
    NewProposal {
        kind: "rule",
        title,
        name: None,
        body,
        rationale: None,
        fields,
        source: "bootstrap",
        proposed_by: Some("bootstrap_playbook".into()),
    }
}

/// A root config file's text: `Ok(None)` when absent, `Err` with why it was not read.
fn read_config(root: &Path, rel: &str) -> Result<Option<String>, String> {
    let p = root.join(rel);
    let m = match std::fs::symlink_metadata(&p) {
        Ok(m) => m,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(format!("cannot read it: {e}")),
    };
    if !m.is_file() {
        return Err("not a regular file (a symlink is not followed); not read".into());
    }
    if m.len() > MAX_CONFIG {
        return Err(format!("larger than {MAX_CONFIG} bytes; not read"));
    }
    std::fs::read_to_string(&p)
        .map(Some)
        .map_err(|e| format!("cannot read it: {e}"))
}

fn ruff_family(prefix: &str) -> &'static str {
    match prefix {
        "E" => "pycodestyle errors",
        "W" => "pycodestyle warnings",
        "F" => "Pyflakes: unused imports, undefined names",
        "S" => "flake8-bandit: security",
        "B" => "flake8-bugbear: likely bugs",
        "I" => "isort: import order",
        "UP" => "pyupgrade",
        "N" => "pep8-naming",
        "C90" => "mccabe complexity",
        "D" => "pydocstyle",
        "SIM" => "flake8-simplify",
        "PL" => "Pylint",
        "RUF" => "Ruff-specific rules",
        "ALL" => "every ruff rule",
        _ => "ruff rules",
    }
}

fn str_list(v: Option<&toml::Value>) -> Vec<String> {
    v.and_then(toml::Value::as_array)
        .map(|a| {
            a.iter()
                .filter_map(|x| x.as_str().map(str::to_string))
                .collect()
        })
        .unwrap_or_default()
}

/// Candidates from a ruff table (`[tool.ruff]` or ruff.toml's top level).
fn ruff_candidates(ruff: &toml::Value, file: &str) -> Vec<NewProposal> {
    let lint = ruff.get("lint");
    let pick = |key: &str| {
        let mut v = str_list(lint.and_then(|l| l.get(key)));
        v.extend(str_list(ruff.get(key)));
        v
    };
    let explicit = pick("select");
    // Without `select`, ruff checks its default families (extend-select adds to them).
    let defaulted = explicit.is_empty();
    let mut select = if defaulted {
        RUFF_DEFAULT_SELECT.iter().map(|s| s.to_string()).collect()
    } else {
        explicit
    };
    select.extend(pick("extend-select"));
    let ignore = pick("ignore");
    let mut seen = Vec::new();
    let mut out = Vec::new();
    for code in select {
        let code = code.trim().to_ascii_uppercase();
        if code.is_empty() || seen.contains(&code) {
            continue;
        }
        seen.push(code.clone());
        let letters: String = code
            .chars()
            .take_while(|c| c.is_ascii_alphabetic())
            .collect();
        let family = ruff_family(if code == "C90" { "C90" } else { &letters });
        let entry = if code == "ALL" {
            "ruff:*".to_string()
        } else {
            format!("ruff:{code}*")
        };
        let ignored: Vec<&String> = ignore
            .iter()
            .filter(|i| code == "ALL" || i.to_ascii_uppercase().starts_with(&code))
            .collect();
        let how = if defaulted && RUFF_DEFAULT_SELECT.contains(&code.as_str()) {
            "checks (ruff's default selection: it sets no `select`)"
        } else {
            "selects"
        };
        let mut body = format!(
            "{file} {how} ruff's `{code}` rules ({family}). Changed lines keep them clean: fix what ruff reports there rather than silencing it."
        );
        if !ignored.is_empty() {
            body.push_str(&format!(
                " The configuration ignores {}; those stay out.",
                ignored
                    .iter()
                    .map(|s| format!("`{s}`"))
                    .collect::<Vec<_>>()
                    .join(", ")
            ));
        }
        out.push(candidate(
            format!("Ruff {code} rules ({family}) stay clean on changed lines"),
            body,
            "warning",
            vec![entry],
            &["**/*.py"],
        ));
    }
    out
}

/// Candidates from bandit settings (`tests`: the checks run; `skips`: the checks left out).
fn bandit_candidates(tests: Vec<String>, skips: Vec<String>, file: &str) -> Vec<NewProposal> {
    let enforced: Vec<String> = if tests.is_empty() {
        vec!["bandit:*".into()]
    } else {
        tests.iter().map(|t| format!("bandit:{t}")).collect()
    };
    let mut body = format!(
        "{file} configures bandit. Changed Python code has no bandit security finding: use safe APIs (no shell=True, no weak hashes for security, no eval of input) rather than `# nosec`."
    );
    if !skips.is_empty() {
        body.push_str(&format!(
            " Skipped by the configuration: {}.",
            skips.join(", ")
        ));
    }
    vec![candidate(
        "No bandit security findings in changed Python code".into(),
        body,
        "error",
        enforced,
        &["**/*.py"],
    )]
}

fn comma_list(s: &str) -> Vec<String> {
    s.split(',')
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .map(str::to_string)
        .collect()
}

/// `.bandit`: INI (`[bandit]` with `tests =` / `skips =`).
fn bandit_ini(text: &str) -> (Vec<String>, Vec<String>) {
    let (mut tests, mut skips) = (Vec::new(), Vec::new());
    for line in text.lines() {
        if let Some((k, v)) = line.split_once(['=', ':']) {
            match k.trim() {
                "tests" => tests = comma_list(v),
                "skips" => skips = comma_list(v),
                _ => {}
            }
        }
    }
    (tests, skips)
}

fn semgrep_candidates(text: &str, file: &str) -> Result<Vec<NewProposal>, String> {
    let doc: yaml_serde::Value =
        yaml_serde::from_str(text).map_err(|e| format!("not YAML ({e}); no rule read"))?;
    let Some(rules) = doc.get("rules").and_then(|r| r.as_sequence()) else {
        return Err("no `rules:` list; no rule read".into());
    };
    let mut out = Vec::new();
    for r in rules {
        let Some(id) = r.get("id").and_then(|v| v.as_str()) else {
            continue;
        };
        let message = r
            .get("message")
            .and_then(|v| v.as_str())
            .map(|m| m.split_whitespace().collect::<Vec<_>>().join(" "))
            .unwrap_or_else(|| id.to_string());
        let severity = match r.get("severity").and_then(|v| v.as_str()).unwrap_or("") {
            "ERROR" | "CRITICAL" | "HIGH" => "error",
            "INFO" | "LOW" => "note",
            _ => "warning",
        };
        let title: String = message.chars().take(120).collect();
        out.push(candidate(
            title,
            format!("{file} defines the semgrep rule `{id}`: {message}"),
            severity,
            vec![format!("semgrep:{id}")],
            &[],
        ));
    }
    Ok(out)
}

/// Candidates from the most frequent analyser findings in stored gate records of
/// `repository` that no current playbook rule enforces.
fn finding_candidates(
    conn: &Connection,
    repository: &str,
    covered: &dyn Fn(&str, &str) -> bool,
) -> Result<Vec<NewProposal>, LiteError> {
    let ctx = "counting the gate's most frequent findings";
    let mut st = conn
        .prepare(
            "SELECT v.rule_id, count(*), count(DISTINCT v.record), max(v.rule_title),
               max(v.severity = 'error')
             FROM gate_violations v JOIN gate_records g ON g.id = v.record
             WHERE g.repository = ?1 AND instr(v.rule_id, ':') > 0
             GROUP BY v.rule_id ORDER BY count(*) DESC, v.rule_id",
        )
        .map_err(LiteError::db(ctx))?;
    let rows = st
        .query_map(params![repository], |r| {
            Ok((
                r.get::<_, String>(0)?,
                r.get::<_, i64>(1)?,
                r.get::<_, i64>(2)?,
                r.get::<_, Option<String>>(3)?,
                r.get::<_, bool>(4)?,
            ))
        })
        .map_err(LiteError::db(ctx))?
        .collect::<Result<Vec<_>, _>>()
        .map_err(LiteError::db(ctx))?;
    let mut out = Vec::new();
    for (rule_id, n, runs, title, error) in rows {
        let Some((tool, code)) = rule_id.split_once(':') else {
            continue;
        };
        if covered(tool, code) {
            continue;
        }
        let what = title.unwrap_or_else(|| rule_id.clone());
        out.push(candidate(
            format!("{what} ({rule_id})"),
            format!(
                "The gate found {n} violation(s) of `{rule_id}` ({what}) in {runs} run(s) of this repository: a frequent finding worth a rule of its own. `get_rule {rule_id}` gives the analyser's text."
            ),
            if error { "error" } else { "warning" },
            vec![rule_id.clone()],
            &[],
        ));
        if out.len() == TOP_FINDINGS {
            break;
        }
    }
    Ok(out)
}

/// Every candidate and the sources they came from.
pub fn candidates(
    root: &Path,
    conn: &Connection,
    repository: &str,
    pb: Option<&playbook::Playbook>,
) -> Result<(Vec<NewProposal>, Vec<Source>), LiteError> {
    let mut all = Vec::new();
    let mut sources = Vec::new();
    let mut add = |path: &str, found: Result<Vec<NewProposal>, String>| match found {
        Ok(list) => {
            sources.push(Source {
                path: path.into(),
                candidates: list.len(),
                warning: None,
            });
            all.extend(list);
        }
        Err(w) => sources.push(Source {
            path: path.into(),
            candidates: 0,
            warning: Some(w),
        }),
    };
    match read_config(root, "pyproject.toml") {
        Ok(None) => {}
        Err(w) => add("pyproject.toml", Err(w)),
        Ok(Some(text)) => match text.parse::<toml::Table>() {
            Err(e) => add(
                "pyproject.toml",
                Err(format!("not valid TOML ({}); nothing read", e.message())),
            ),
            Ok(t) => {
                let tool = t.get("tool");
                let mut found = Vec::new();
                if let Some(ruff) = tool.and_then(|t| t.get("ruff")) {
                    found.extend(ruff_candidates(ruff, "pyproject.toml [tool.ruff]"));
                }
                if let Some(b) = tool.and_then(|t| t.get("bandit")) {
                    found.extend(bandit_candidates(
                        str_list(b.get("tests")),
                        str_list(b.get("skips")),
                        "pyproject.toml [tool.bandit]",
                    ));
                }
                if tool.and_then(|t| t.get("ruff")).is_some()
                    || tool.and_then(|t| t.get("bandit")).is_some()
                {
                    add("pyproject.toml", Ok(found));
                }
            }
        },
    }
    for file in ["ruff.toml", ".ruff.toml"] {
        match read_config(root, file) {
            Ok(None) => {}
            Err(w) => add(file, Err(w)),
            Ok(Some(text)) => match text.parse::<toml::Table>() {
                Ok(t) => add(file, Ok(ruff_candidates(&toml::Value::Table(t), file))),
                Err(e) => add(
                    file,
                    Err(format!("not valid TOML ({}); nothing read", e.message())),
                ),
            },
        }
    }
    match read_config(root, ".bandit") {
        Ok(None) => {}
        Err(w) => add(".bandit", Err(w)),
        Ok(Some(text)) => {
            let (tests, skips) = bandit_ini(&text);
            add(".bandit", Ok(bandit_candidates(tests, skips, ".bandit")));
        }
    }
    for file in [".semgrep.yml", ".semgrep.yaml"] {
        match read_config(root, file) {
            Ok(None) => {}
            Err(w) => add(file, Err(w)),
            Ok(Some(text)) => add(file, semgrep_candidates(&text, file)),
        }
    }
    let covered =
        |tool: &str, code: &str| pb.is_some_and(|p| p.rules().any(|r| r.enforces(tool, code)));
    let found = finding_candidates(conn, repository, &covered)?;
    if !found.is_empty() {
        add("gate records", Ok(found));
    }
    Ok((all, sources))
}

/// POST /api/v1/rules/proposals/bootstrap.
pub fn answer(s: &RulesState, r: &ServedRepo) -> Result<Value, RulesError> {
    let pb = playbook::load_worktree(&r.root).ok();
    let mut conn = s.core.writer()?;
    let (cands, sources) = candidates(&r.root, &conn, &r.name, pb.as_ref())?;
    let now = now_epoch();
    let mut queued = Vec::new();
    let mut already = Vec::new();
    for c in &cands {
        let (p, duplicate) = queue(&mut conn, &r.name, c, now)?;
        let id = p["proposalId"].as_str().unwrap_or_default().to_string();
        if duplicate {
            if !already.contains(&id) {
                already.push(id);
            }
        } else {
            queued.push(p);
        }
    }
    let note = if cands.is_empty() {
        "no candidate: the repository has no analyser configuration at its root (pyproject.toml [tool.ruff] or [tool.bandit], ruff.toml, .bandit, .semgrep.yml) and the gate has no stored findings yet".to_string()
    } else {
        format!(
            "{} candidate(s): {} queued for review, {} already proposed (alreadyQueued). Nothing is in the playbook until a human accepts a proposal and commits its file",
            cands.len(),
            queued.len(),
            already.len()
        )
    };
    Ok(json!({
        "repository": r.name,
        "queued": queued,
        "alreadyQueued": already,
        "sources": sources.iter().map(|s| json!({
            "path": s.path,
            "candidates": s.candidates,
            "warning": s.warning,
        })).collect::<Vec<_>>(),
        "note": note,
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entries(list: &[NewProposal]) -> Vec<String> {
        list.iter()
            .map(|p| {
                p.fields["enforcedBy"][0]
                    .as_str()
                    .unwrap_or_default()
                    .to_string()
            })
            .collect()
    }

    fn table(text: &str) -> toml::Value {
        toml::Value::Table(text.parse::<toml::Table>().unwrap_or_default())
    }

    #[test]
    fn ruff_families_from_select_or_ruff_defaults() {
        let t = table("[lint]\nselect = [\"E\", \"S\", \"E\"]\nignore = [\"E501\"]\n");
        let found = ruff_candidates(&t, "ruff.toml");
        assert_eq!(entries(&found), ["ruff:E*", "ruff:S*"]);
        assert!(found[0].body.contains("`E501`"));
        let t = table("line-length = 100\nextend-select = [\"B\"]\n");
        let found = ruff_candidates(&t, "ruff.toml");
        assert_eq!(
            entries(&found),
            ["ruff:E4*", "ruff:E7*", "ruff:E9*", "ruff:F*", "ruff:B*"]
        );
        assert!(found[0].body.contains("default selection"));
        assert!(!found[4].body.contains("default selection"));
    }

    #[test]
    fn bandit_ini_and_semgrep_rules() {
        assert_eq!(
            bandit_ini("[bandit]\ntests = B602, B605\nskips = B101\n"),
            (
                vec!["B602".to_string(), "B605".to_string()],
                vec!["B101".to_string()]
            )
        );
        let found = semgrep_candidates(
            "rules:\n  - id: no-eval\n    message: Do not eval\n    severity: ERROR\n",
            ".semgrep.yml",
        )
        .unwrap_or_default();
        assert_eq!(entries(&found), ["semgrep:no-eval"]);
        assert_eq!(found[0].fields["severity"], "error");
        assert!(semgrep_candidates("rules: [", ".semgrep.yml").is_err());
    }
}
