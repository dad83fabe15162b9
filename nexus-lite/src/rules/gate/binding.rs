//! Playbook binding: the machine-checkable rules of the BASE commit decide (rules-gate.md §4,
//! after Aegis `rules_base`): a change cannot weaken the rules it is judged by. Rules the
//! diff adds, edits or deletes are listed as unreviewed, never enforced.
//!
//! - `enforcedBy: [bandit:B602, ruff:S608]`: those analyser findings are violations OF the
//!   rule (its ruleId, title and severity);
//! - `forbid: <regex>` with `paths: [globs]`: the regex is forbidden on added lines of
//!   matching files.

use crate::rules::gate::analysers::Finding;
use crate::rules::gate::diff::Diff;
use crate::rules::gate::model::{
    ANALYSER_CONFIG, GIT_ATTRIBUTES, SUPPRESSION, UnreviewedRule, Violation,
};
use crate::rules::gate::severity;
use globset::{Glob, GlobSet, GlobSetBuilder};
use regex::Regex;
use std::collections::BTreeMap;

/// A playbook rule as the gate reads it (from the playbook loader, at one commit).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RuleSpec {
    pub rule_id: String,
    pub title: String,
    /// The declared `severity:` (error, warning, note), if any.
    pub severity: Option<String>,
    /// Analyser codes, `<tool>:<code>`.
    pub enforced_by: Vec<String>,
    pub forbid: Option<String>,
    /// Globs (repo-relative) limiting `forbid`; empty = every file.
    pub paths: Vec<String>,
    /// The directory the rule governs (its file's subtree), repo-relative; empty = everything.
    pub scope_dir: String,
    /// The rule file, repo-relative.
    pub source: String,
    /// Anything that changes when the rule's meaning may change (its file blob, or its text).
    pub fingerprint: String,
}

impl RuleSpec {
    fn machine_checkable(&self) -> bool {
        !self.enforced_by.is_empty() || self.forbid.is_some()
    }

    /// Whether `path` is in the rule's directory subtree.
    fn governs(&self, path: &str) -> bool {
        let dir = self.scope_dir.trim_matches('/');
        dir.is_empty()
            || path
                .strip_prefix(dir)
                .is_some_and(|rest| rest.starts_with('/'))
    }

    /// Whether an `enforcedBy` entry (`tool:CODE`, or `tool:PREFIX*`) covers finding `id`;
    /// `bandit:B602` also covers ruff's twin `ruff:S602`.
    fn enforces(&self, id: &str) -> bool {
        let id = id.to_ascii_lowercase();
        let twin = id.strip_prefix("ruff:s").map(|n| format!("bandit:b{n}"));
        self.enforced_by.iter().any(|e| {
            let e = e.trim().to_ascii_lowercase();
            let covers = |id: &str| match e.strip_suffix('*') {
                Some(prefix) => id.starts_with(prefix),
                None => e == id,
            };
            covers(&id) || twin.as_deref().is_some_and(covers)
        })
    }
}

/// A `forbid` rule, compiled.
struct Forbid<'a> {
    rule: &'a RuleSpec,
    regex: Regex,
    paths: Option<GlobSet>,
}

/// What binding the base's rules to the diff gave.
#[derive(Debug, Default)]
pub struct Bound {
    pub violations: Vec<Violation>,
    /// Ids of the base's machine-checkable rules that were applied.
    pub enforced: Vec<String>,
    /// Rules that could not be applied (a bad regex or glob), with why.
    pub warnings: Vec<String>,
    /// Findings on unchanged lines, per tool (not violations).
    pub unchanged_line_findings: BTreeMap<String, usize>,
}

/// The bandit check a ruff `S<nnn>` rule ports (`S602` → `B602`).
pub fn bandit_twin(ruff_code: &str) -> Option<String> {
    ruff_code.strip_prefix('S').map(|n| format!("B{n}"))
}

/// Turns the findings on changed lines into violations (through `enforcedBy` rules where one
/// names them) and checks `forbid` rules on added lines.
pub fn bind(diff: &Diff, findings: &[Finding], base_rules: &[RuleSpec]) -> Bound {
    let mut bound = Bound::default();
    let mut enforcing: Vec<&RuleSpec> = Vec::new();
    let mut forbids = Vec::new();
    for rule in base_rules.iter().filter(|r| r.machine_checkable()) {
        bound.enforced.push(rule.rule_id.clone());
        if !rule.enforced_by.is_empty() {
            enforcing.push(rule);
        }
        if let Some(pattern) = &rule.forbid {
            match compile(rule, pattern) {
                Ok(f) => forbids.push(f),
                Err(w) => bound.warnings.push(w),
            }
        }
    }
    // When ruff and bandit both report the same check on a line, bandit's stays.
    let bandit_hits: std::collections::BTreeSet<(&str, Option<u32>, &str)> = findings
        .iter()
        .filter(|f| f.tool == "bandit")
        .map(|f| (f.path.as_str(), f.line, f.code.as_str()))
        .collect();
    for f in findings {
        if f.tool == "ruff"
            && let Some(twin) = bandit_twin(&f.code)
            && bandit_hits.contains(&(f.path.as_str(), f.line, twin.as_str()))
        {
            continue;
        }
        let on_changed_line = match (diff.file(&f.path), f.line) {
            (Some(file), Some(line)) => file.touches_range(line, f.end_line.unwrap_or(line)),
            // A finding without a line (a file-level error) in a changed file is the change's.
            (Some(file), None) => !file.added.is_empty() || file.lines_unknown,
            (None, _) => false,
        };
        if !on_changed_line {
            *bound
                .unchanged_line_findings
                .entry(f.tool.to_string())
                .or_default() += 1;
            continue;
        }
        let id = f.rule_id();
        // Nearer rules come later in the playbook and win.
        let rule = enforcing
            .iter()
            .rev()
            .find(|r| r.governs(&f.path) && r.enforces(&id));
        let violation = match rule {
            Some(rule) => Violation {
                path: f.path.clone(),
                line: f.line,
                severity: severity::playbook(rule.severity.as_deref()),
                rule_id: rule.rule_id.clone(),
                rule_title: rule.title.clone(),
                comment: format!("{} ({id})", f.message),
                suggestion: f.suggestion.clone(),
                source: Some(id),
            },
            None => Violation {
                path: f.path.clone(),
                line: f.line,
                severity: f.severity,
                rule_id: id,
                rule_title: f.title.clone(),
                comment: f.message.clone(),
                suggestion: f.suggestion.clone(),
                source: None,
            },
        };
        bound.violations.push(violation);
    }
    for forbid in &forbids {
        for file in &diff.files {
            if forbid
                .paths
                .as_ref()
                .is_some_and(|g| !g.is_match(&file.path))
            {
                continue;
            }
            for (line, text) in &file.added {
                if let Some(m) = forbid.regex.find(text) {
                    bound.violations.push(Violation {
                        path: file.path.clone(),
                        line: Some(*line),
                        severity: severity::playbook(forbid.rule.severity.as_deref()),
                        rule_id: forbid.rule.rule_id.clone(),
                        rule_title: forbid.rule.title.clone(),
                        comment: format!(
                            "added line contains `{}`, which rule {} forbids (pattern `{}`)",
                            m.as_str().chars().take(120).collect::<String>(),
                            forbid.rule.rule_id,
                            forbid.regex.as_str()
                        ),
                        suggestion: None,
                        source: None,
                    });
                }
            }
        }
    }
    bound.violations.sort_by(|a, b| {
        (a.severity, &a.path, a.line, &a.rule_id).cmp(&(b.severity, &b.path, b.line, &b.rule_id))
    });
    bound.violations.dedup();
    bound
}

fn compile<'a>(rule: &'a RuleSpec, pattern: &str) -> Result<Forbid<'a>, String> {
    let regex = regex::RegexBuilder::new(pattern)
        .size_limit(1 << 20)
        .build()
        .map_err(|e| {
            format!(
                "{} ({}): its forbid pattern is not a valid regular expression, so it is not enforced: {e}",
                rule.rule_id, rule.source
            )
        })?;
    let paths = if rule.paths.is_empty() {
        None
    } else {
        let mut builder = GlobSetBuilder::new();
        for p in &rule.paths {
            let glob = Glob::new(p.trim_start_matches("./")).map_err(|e| {
                format!(
                    "{} ({}): its paths glob `{p}` is not valid, so the rule is not enforced: {e}",
                    rule.rule_id, rule.source
                )
            })?;
            builder.add(glob);
        }
        Some(builder.build().map_err(|e| {
            format!(
                "{} ({}): its paths globs do not build: {e}",
                rule.rule_id, rule.source
            )
        })?)
    };
    Ok(Forbid { rule, regex, paths })
}

/// Rules the diff adds, changes or deletes (head's playbook against base's): listed for
/// review, not enforced.
pub fn unreviewed(base: &[RuleSpec], head: &[RuleSpec]) -> Vec<UnreviewedRule> {
    let base_by_id: BTreeMap<&str, &RuleSpec> =
        base.iter().map(|r| (r.rule_id.as_str(), r)).collect();
    let head_by_id: BTreeMap<&str, &RuleSpec> =
        head.iter().map(|r| (r.rule_id.as_str(), r)).collect();
    let mut out = Vec::new();
    for (id, rule) in &head_by_id {
        let change = match base_by_id.get(id) {
            None => "added",
            Some(old) if old.fingerprint != rule.fingerprint || old != rule => "changed",
            Some(_) => continue,
        };
        out.push(UnreviewedRule {
            rule_id: (*id).to_string(),
            title: rule.title.clone(),
            change: change.into(),
            path: rule.source.clone(),
            what: None,
        });
    }
    for (id, rule) in &base_by_id {
        if !head_by_id.contains_key(id) {
            out.push(UnreviewedRule {
                rule_id: (*id).to_string(),
                title: rule.title.clone(),
                change: "deleted".into(),
                path: rule.source.clone(),
                what: None,
            });
        }
    }
    out
}

/// What the diff changes in how the analysers and git see the code, listed for review: the
/// analyser configuration files it edits (by name, or `configs`: those head's configurations
/// `extend`), whose head settings were used, and the `.gitattributes` files it edits (the gate
/// ignores them, but they change how git shows and merges files).
pub fn changed_analyser_configs(diff: &Diff, configs: &[String]) -> Vec<UnreviewedRule> {
    diff.files
        .iter()
        .filter_map(|f| {
            let name = f.path.rsplit('/').next().unwrap_or(&f.path);
            let (change, title) = if name == ".gitattributes" {
                (
                    GIT_ATTRIBUTES,
                    format!(
                        "git attributes {} changed; the gate diffed without them, review what they do to diffs and merges",
                        f.path
                    ),
                )
            } else if crate::rules::gate::snapshot::CONFIG_NAMES.contains(&name)
                || f.path.starts_with(".semgrep/")
                || configs.contains(&f.path)
            {
                (
                    ANALYSER_CONFIG,
                    format!(
                        "analyser configuration {} changed; head's settings were applied",
                        f.path
                    ),
                )
            } else {
                return None;
            };
            Some(UnreviewedRule {
                rule_id: format!("config:{}", f.path),
                title,
                change: change.into(),
                path: f.path.clone(),
                what: None,
            })
        })
        .collect()
}

/// Inline suppressions on added lines: bandit's `# nosec`, ruff's and flake8's `# noqa`
/// (`# ruff: noqa` for a whole file), semgrep's `nosemgrep`.
pub fn added_suppressions(diff: &Diff) -> Vec<UnreviewedRule> {
    let Some(marker) = suppression_marker() else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for file in &diff.files {
        for (line, text) in &file.added {
            if let Some(m) = marker.find(text) {
                out.push(UnreviewedRule {
                    rule_id: format!("suppression:{}:{line}", file.path),
                    title: format!(
                        "`{}` added on {}:{line}: the analysers' silence there is the change's own word",
                        m.as_str().chars().take(80).collect::<String>(),
                        file.path
                    ),
                    change: SUPPRESSION.into(),
                    path: file.path.clone(),
                    what: Some(text.trim().chars().take(200).collect()),
                });
            }
        }
    }
    out
}

/// An inline suppression marker, as the analysers read them.
fn suppression_marker() -> Option<&'static Regex> {
    static MARKER: std::sync::LazyLock<Option<Regex>> = std::sync::LazyLock::new(|| {
        // Bandit reads `#\s*nosec` followed by anything (`# nosecB602`, `#nosec1`): no `\b`.
        Regex::new(r"(?i)(#|//|/\*)\s*(nosec|(noqa|(ruff|flake8)\s*:\s*noqa|nosemgrep)\b)").ok()
    });
    MARKER.as_ref()
}

/// Bandit findings a `# nosec` the change did not write silences on a statement the change
/// edits (a base `# nosec` on a multi-line call's first line covers a changed line below it):
/// reviewers accepted that `# nosec` for the statement as it was, not as changed, so these are
/// findings again. A `# nosec` on an added line in the statement is the change's own word,
/// listed by [`added_suppressions`], and stands.
pub fn stale_suppressions(diff: &Diff, silenced: &[Finding]) -> Vec<Finding> {
    let Some(marker) = suppression_marker() else {
        return Vec::new();
    };
    silenced
        .iter()
        .filter_map(|f| {
            let file = diff.file(&f.path)?;
            let line = f.line?;
            let end = f.end_line.unwrap_or(line).max(line);
            let own = file
                .added
                .iter()
                .any(|(n, text)| (line..=end).contains(n) && marker.is_match(text));
            (file.touches_range(line, end) && !own).then(|| Finding {
                message: format!(
                    "{} (a `# nosec` the change did not add silences this, but the change edits the statement)",
                    f.message
                ),
                ..f.clone()
            })
        })
        .collect()
}
