//! bootstrap_playbook: candidate rules from the analyser configuration the repository has
//! (`[tool.ruff]` in pyproject.toml, ruff.toml, `.bandit`, `[tool.bandit]`, `.semgrep.yml`)
//! and from the finding codes the gate meets most often, queued as proposals (source
//! `bootstrap`), never written into the playbook. Configuration is read from the work tree's
//! root, regular files only (a symlink is not followed), at most 1 MiB each.

use crate::core::error::LiteError;
use crate::core::http::ApiError;
use crate::core::repos::ServedRepo;
use crate::core::util::now_epoch;
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

/// What a ruff table selects and ignores (globally and per file), for ranking and filtering
/// the gate's frequent findings.
#[derive(Debug, Default, Clone)]
pub struct RuffConfig {
    pub select: Vec<String>,
    pub ignore: Vec<String>,
    /// (glob, codes) of `per-file-ignores`.
    pub per_file: Vec<(String, Vec<String>)>,
}

impl RuffConfig {
    fn read(ruff: &toml::Value) -> RuffConfig {
        let lint = ruff.get("lint");
        let pick = |key: &str| {
            let mut v = str_list(lint.and_then(|l| l.get(key)));
            v.extend(str_list(ruff.get(key)));
            v
        };
        let mut select = pick("select");
        if select.is_empty() {
            select = RUFF_DEFAULT_SELECT.iter().map(|s| s.to_string()).collect();
        }
        select.extend(pick("extend-select"));
        let mut per_file = Vec::new();
        for key in ["per-file-ignores", "extend-per-file-ignores"] {
            for table in [lint.and_then(|l| l.get(key)), ruff.get(key)]
                .into_iter()
                .flatten()
            {
                if let Some(t) = table.as_table() {
                    per_file.extend(
                        t.iter()
                            .map(|(g, codes)| (g.clone(), str_list(Some(codes)))),
                    );
                }
            }
        }
        RuffConfig {
            select,
            ignore: pick("ignore"),
            per_file,
        }
    }

    fn merge(&mut self, other: RuffConfig) {
        self.select.extend(other.select);
        self.ignore.extend(other.ignore);
        self.per_file.extend(other.per_file);
    }

    pub fn selects(&self, code: &str) -> bool {
        self.select
            .iter()
            .any(|s| s == "ALL" || code.starts_with(s.as_str()))
    }

    /// Why the configuration keeps `code` out at every one of `paths`, if it does.
    pub fn ignores(&self, code: &str, paths: &[String]) -> Option<String> {
        if let Some(i) = self.ignore.iter().find(|i| code.starts_with(i.as_str())) {
            return Some(format!("the ruff configuration ignores `{i}`"));
        }
        let globs: Vec<(&String, globset::GlobMatcher)> = self
            .per_file
            .iter()
            .filter(|(_, codes)| codes.iter().any(|c| code.starts_with(c.as_str())))
            .filter_map(|(g, _)| {
                // Ruff matches a pattern without a slash against the file name too.
                let g2 = if g.contains('/') {
                    g.clone()
                } else {
                    format!("**/{g}")
                };
                Some((g, globset::Glob::new(&g2).ok()?.compile_matcher()))
            })
            .collect();
        let all = !paths.is_empty()
            && paths
                .iter()
                .all(|p| globs.iter().any(|(_, m)| m.is_match(p)));
        all.then(|| {
            format!(
                "the ruff configuration's per-file-ignores leave it out where it was found ({})",
                globs
                    .iter()
                    .map(|(g, _)| format!("`{g}`"))
                    .collect::<Vec<_>>()
                    .join(", ")
            )
        })
    }
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

/// The ruff code a finding id stands for: `ruff:S101` itself, bandit's `B101` as ruff's `S101`.
fn ruff_code_of(rule_id: &str) -> Option<String> {
    let (tool, code) = rule_id.split_once(':')?;
    match tool {
        "ruff" => Some(code.to_string()),
        "bandit" => code.strip_prefix('B').map(|n| format!("S{n}")),
        _ => None,
    }
}

/// pytest's `assert` (ruff's S101, bandit's B101) in test files is how tests are written.
fn test_asserts(rule_id: &str, paths: &[String]) -> bool {
    let is_test = |p: &String| {
        let name = p.rsplit('/').next().unwrap_or(p);
        p.starts_with("tests/")
            || p.contains("/tests/")
            || name.starts_with("test_")
            || name.ends_with("_test.py")
            || name == "conftest.py"
    };
    matches!(rule_id, "ruff:S101" | "bandit:B101") && !paths.is_empty() && paths.iter().all(is_test)
}

/// A frequent finding and the evidence that the team fixes it.
struct Frequent {
    rule_id: String,
    count: i64,
    runs: i64,
    title: Option<String>,
    error: bool,
    paths: Vec<String>,
    fixed: i64,
    selected: bool,
}

/// Candidates from the analyser findings in stored gate records of `repository` that no
/// current playbook rule (`covered`) nor earlier proposal (`proposed`) enforces and that the
/// repository's ruff configuration does not ignore where they were found; ranked by evidence
/// the team fixes them (fixed within a pull request, then selected by its ruff configuration),
/// then by frequency. What was left out is returned with why.
fn finding_candidates(
    conn: &Connection,
    repository: &str,
    covered: &dyn Fn(&str, &str) -> bool,
    ruff: &RuffConfig,
) -> Result<(Vec<NewProposal>, Vec<String>), LiteError> {
    let ctx = "counting the gate's most frequent findings";
    let mut st = conn
        .prepare(
            "SELECT v.rule_id, count(*), count(DISTINCT v.record), max(v.rule_title),
               max(v.severity = 'error'), group_concat(DISTINCT v.path)
             FROM gate_violations v JOIN gate_records g ON g.id = v.record
             WHERE g.repository = ?1 AND instr(v.rule_id, ':') > 0
             GROUP BY v.rule_id ORDER BY count(*) DESC, v.rule_id",
        )
        .map_err(LiteError::db(ctx))?;
    let fixed = crate::rules::stats::fixed_in_prs(conn, repository, None)?;
    let rows = st
        .query_map(params![repository], |r| {
            let rule_id: String = r.get(0)?;
            Ok(Frequent {
                count: r.get(1)?,
                runs: r.get(2)?,
                title: r.get(3)?,
                error: r.get(4)?,
                paths: r
                    .get::<_, Option<String>>(5)?
                    .map(|p| p.split(',').map(str::to_string).collect())
                    .unwrap_or_default(),
                fixed: 0,
                selected: false,
                rule_id,
            })
        })
        .map_err(LiteError::db(ctx))?
        .collect::<Result<Vec<_>, _>>()
        .map_err(LiteError::db(ctx))?;
    let mut kept = Vec::new();
    let mut left_out = Vec::new();
    for mut f in rows {
        let Some((tool, code)) = f.rule_id.split_once(':') else {
            continue;
        };
        if covered(tool, code) {
            continue;
        }
        let ruff_code = ruff_code_of(&f.rule_id);
        let ignored = ruff_code.as_deref().and_then(|c| ruff.ignores(c, &f.paths));
        let why = match ignored {
            Some(why) => Some(why),
            None if test_asserts(&f.rule_id, &f.paths) => Some(
                "only pytest `assert`s in test files, which is how tests are written".to_string(),
            ),
            None => None,
        };
        if let Some(why) = why {
            left_out.push(format!("{}: {why}", f.rule_id));
            continue;
        }
        f.fixed = fixed.get(&f.rule_id).copied().unwrap_or(0);
        f.selected = tool == "ruff" && ruff_code.as_deref().is_some_and(|c| ruff.selects(c));
        kept.push(f);
    }
    kept.sort_by(|a, b| {
        (b.fixed, b.selected, b.count)
            .cmp(&(a.fixed, a.selected, a.count))
            .then_with(|| a.rule_id.cmp(&b.rule_id))
    });
    let out = kept
        .into_iter()
        .take(TOP_FINDINGS)
        .map(|f| {
            let what = f.title.clone().unwrap_or_else(|| f.rule_id.clone());
            let mut evidence = Vec::new();
            if f.fixed > 0 {
                evidence.push(format!("fixed {} time(s) within a pull request", f.fixed));
            }
            if f.selected {
                evidence.push("selected by the repository's ruff configuration".to_string());
            }
            let evidence = if evidence.is_empty() {
                String::new()
            } else {
                format!(" The team fixes it: {}.", evidence.join("; "))
            };
            candidate(
                format!("{what} ({})", f.rule_id),
                format!(
                    "The gate found {} violation(s) of `{}` ({what}) in {} run(s) of this repository.{evidence} `get_rule {}` gives the analyser's text.",
                    f.count, f.rule_id, f.runs, f.rule_id
                ),
                if f.error { "error" } else { "warning" },
                vec![f.rule_id.clone()],
                &[],
            )
        })
        .collect();
    Ok((out, left_out))
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
    let mut ruff_config = RuffConfig::default();
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
                    ruff_config.merge(RuffConfig::read(ruff));
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
                Ok(t) => {
                    let t = toml::Value::Table(t);
                    ruff_config.merge(RuffConfig::read(&t));
                    add(file, Ok(ruff_candidates(&t, file)));
                }
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
    // A decided proposal covers its codes (`ruff:S*` rejected: no S101 alone; accepted: in
    // the playbook once committed). A queued one is found again by its dedupe key.
    let proposed = proposed_patterns(conn, repository)?;
    let covered = |tool: &str, code: &str| {
        pb.is_some_and(|p| p.rules().any(|r| r.enforces(tool, code)))
            || proposed
                .iter()
                .any(|e| playbook::enforced_by_matches(e, tool, code))
    };
    let (found, left_out) = finding_candidates(conn, repository, &covered, &ruff_config)?;
    if !found.is_empty() || !left_out.is_empty() {
        add("gate records", Ok(found));
        if let Some(s) = sources.last_mut().filter(|_| !left_out.is_empty()) {
            s.warning = Some(format!("not proposed: {}", left_out.join("; ")));
        }
    }
    Ok((all, sources))
}

/// The `enforcedBy` entries of `repository`'s accepted or rejected rule proposals.
fn proposed_patterns(conn: &Connection, repository: &str) -> Result<Vec<String>, LiteError> {
    let ctx = "reading earlier rule proposals";
    let mut st = conn
        .prepare(
            "SELECT fields FROM rule_proposals WHERE repository = ?1 AND kind = 'rule'
             AND status IN ('accepted', 'rejected')",
        )
        .map_err(LiteError::db(ctx))?;
    let rows = st
        .query_map(params![repository], |r| r.get::<_, String>(0))
        .map_err(LiteError::db(ctx))?
        .collect::<Result<Vec<_>, _>>()
        .map_err(LiteError::db(ctx))?;
    Ok(rows
        .iter()
        .filter_map(|f| serde_json::from_str::<Value>(f).ok())
        .flat_map(|v| {
            v["enforcedBy"]
                .as_array()
                .map(|a| {
                    a.iter()
                        .filter_map(|e| e.as_str().map(str::to_string))
                        .collect::<Vec<_>>()
                })
                .unwrap_or_default()
        })
        .collect())
}

/// POST /api/v1/rules/proposals/bootstrap.
pub fn answer(s: &RulesState, r: &ServedRepo) -> Result<Value, ApiError> {
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
