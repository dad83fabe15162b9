//! A gate record as stored and exchanged (`POST /gate-results` takes it as produced by
//! `nexus-mcp gate`), and the verdict derived from it. The verdict is always recomputed from
//! the tools and violations, never taken from a caller: `status`, `blocking` and
//! `detailComplete` cannot disagree with the evidence.

use crate::rules::gate::severity::Severity;
use serde::{Deserialize, Serialize};

/// One violation: a finding on a line the change added or changed, or a playbook rule broken
/// there.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Violation {
    /// Repo-relative, `/`-separated.
    pub path: String,
    pub line: Option<u32>,
    pub severity: Severity,
    /// `<tool>:<code>` (`bandit:B602`) or a playbook rule's id.
    pub rule_id: String,
    pub rule_title: String,
    /// What is wrong, in the reviewer's words.
    pub comment: String,
    /// A short fix written from the diff alone (ruff's or semgrep's fix), or null.
    pub suggestion: Option<String>,
    /// The analyser finding behind a playbook violation (`enforcedBy`), e.g. `bandit:B602`.
    #[serde(default)]
    pub source: Option<String>,
}

/// How one analyser's run went.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ToolStatus {
    /// Ran over every file given to it, without errors.
    Ok,
    /// Ran, but reported errors or files it could not read: its silence proves nothing for those.
    Partial,
    /// Crashed, ended abnormally, timed out or printed no readable answer.
    Failed,
    /// Needed but not installed (not on PATH).
    Missing,
    /// Had nothing to do (no file of its languages changed, or an optional tool not configured).
    Skipped,
}

impl ToolStatus {
    /// Whether this run leaves no doubt about its files.
    pub fn complete(self) -> bool {
        matches!(self, ToolStatus::Ok | ToolStatus::Skipped)
    }

    /// Whether the tool read at least some of its files.
    pub fn ran(self) -> bool {
        matches!(self, ToolStatus::Ok | ToolStatus::Partial)
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ToolRun {
    pub name: String,
    pub version: Option<String>,
    /// Null when the tool did not start or was killed (timeout, signal).
    pub exit_code: Option<i32>,
    pub status: ToolStatus,
    /// Files given to it.
    #[serde(default)]
    pub files: usize,
    /// Findings it reported, on any line.
    #[serde(default)]
    pub findings: usize,
    /// Of those, findings on lines the change did not touch (not reported as violations).
    #[serde(default)]
    pub findings_on_unchanged_lines: usize,
    /// Its own error list (first entries), or the crash's stderr.
    #[serde(default)]
    pub errors: Vec<String>,
    /// Why the status is what it is, in one sentence with what to do.
    #[serde(default)]
    pub reason: Option<String>,
}

/// A changed file that was not (fully) analysed.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SkippedFile {
    pub path: String,
    /// The analyser that skipped it; null when the gate itself did (size, count caps).
    pub tool: Option<String>,
    pub reason: String,
}

/// `change` of an unreviewed entry: an analyser configuration the diff edits.
pub const ANALYSER_CONFIG: &str = "analyserConfig";
/// `change` of an unreviewed entry: a `.gitattributes` the diff edits.
pub const GIT_ATTRIBUTES: &str = "gitAttributes";
/// `change` of an unreviewed entry: an inline suppression the diff adds.
pub const SUPPRESSION: &str = "suppression";

/// The unreviewed entries that make the analysers' silence the change's own word rather than
/// the gate's: a changed analyser configuration, an added inline suppression. A run that lists
/// one witnesses no pass.
pub const ANALYSER_BLIND_SPOTS: [&str; 2] = [ANALYSER_CONFIG, SUPPRESSION];
/// A playbook rule the diff adds, edits or deletes: the binding playbook is the base's, so
/// such a rule is listed for review and not enforced.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct UnreviewedRule {
    pub rule_id: String,
    pub title: String,
    /// `added`, `changed`, `deleted`, `weakened` (still there, enforced less),
    /// `analyserConfig` (an analyser configuration file the diff edits, or one a configuration
    /// extends: head's settings were used, review them), `gitAttributes` (a `.gitattributes`
    /// the diff edits) or `suppression` (a `# nosec`, `# noqa` or `nosemgrep` it adds).
    pub change: String,
    /// The file it comes from.
    pub path: String,
    /// What changed, in words, when known.
    #[serde(default)]
    pub what: Option<String>,
}

/// A violation a reviewed baseline waiver matched.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Waived {
    pub violation: Violation,
    pub fingerprint: String,
    /// The waiver's reason (the SARIF suppression's justification).
    pub reason: String,
}

/// A waiver that needs a person: `expired`, `unmatched` (its file changed and the finding is
/// gone) or `unreadable` (the baseline file does not parse: nothing was waived).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct WaiverNote {
    pub rule: String,
    pub path: String,
    pub fingerprint: String,
    pub state: String,
    pub message: String,
}

/// What `nexus-mcp gate` records for one (repository, pr, head sha).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct GateRecord {
    pub repository: String,
    #[serde(default)]
    pub pr: Option<u64>,
    #[serde(default)]
    pub base_ref: Option<String>,
    #[serde(default)]
    pub head_ref: Option<String>,
    pub base_sha: String,
    #[serde(default)]
    pub merge_base_sha: Option<String>,
    pub head_sha: String,
    #[serde(default)]
    pub head_tree_sha: Option<String>,
    /// Files in the diff (added, copied, modified, renamed).
    #[serde(default)]
    pub files_changed: Option<usize>,
    pub tools: Vec<ToolRun>,
    #[serde(default)]
    pub skipped_files: Vec<SkippedFile>,
    pub violations: Vec<Violation>,
    #[serde(default)]
    pub unreviewed_rules: Vec<UnreviewedRule>,
    /// Ids of the base's machine-checkable playbook rules that were enforced.
    #[serde(default)]
    pub enforced_rules: Vec<String>,
    /// Analyser rules whose silence on the change means clean (`ruff:T201`, `bandit:*`):
    /// the analyser ran completely and the rule was selected. Witnesses agents' passes on them.
    #[serde(default)]
    pub checked_rules: Vec<String>,
    /// Violations a waiver of the base's `.nexus/baseline.yaml` matched: shown as suppressed,
    /// not counted.
    #[serde(default)]
    pub waived: Vec<Waived>,
    /// Waivers that expired, no longer match in a changed file, or could not be read.
    #[serde(default)]
    pub waiver_notes: Vec<WaiverNote>,
    /// Whether only part of the diff was analysed; null when the producer did not say.
    #[serde(default)]
    pub truncated: Option<bool>,
    #[serde(default)]
    pub truncated_note: Option<String>,
    /// RFC 3339.
    pub analyzed_at: String,
    /// What produced it (`nexus-lite 0.1.0`).
    #[serde(default)]
    pub generator: Option<String>,
}

/// The overall outcome of a gate run.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum GateStatus {
    /// Complete analysis, no error-severity violation: the gate passes.
    Ok,
    /// Complete analysis with error-severity violations: the gate fails the build.
    Failed,
    /// Some analysis is missing (a tool missing, crashed, or skipping files): not clean.
    Partial,
    /// Nothing could be analysed: no verdict, nothing to fix, the change went unchecked.
    Unavailable,
}

impl GateStatus {
    pub fn as_str(self) -> &'static str {
        match self {
            GateStatus::Ok => "ok",
            GateStatus::Failed => "failed",
            GateStatus::Partial => "partial",
            GateStatus::Unavailable => "unavailable",
        }
    }
}

/// Derived from a record's tools, skipped files and violations.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Verdict {
    pub status: GateStatus,
    /// Every analyser that had work ran completely and no file was skipped.
    pub detail_complete: bool,
    /// true: an error-severity violation is in the diff (even on a partial run); false: a
    /// complete clean run; null: cannot say.
    pub blocking: Option<bool>,
    pub blocking_count: usize,
    /// One sentence on why, for people and agents.
    pub note: String,
}

impl GateRecord {
    /// The entries that leave the analysers' silence unchecked by the gate (see
    /// [`ANALYSER_BLIND_SPOTS`]).
    pub fn blind_spots(&self) -> impl Iterator<Item = &UnreviewedRule> {
        self.unreviewed_rules
            .iter()
            .filter(|r| ANALYSER_BLIND_SPOTS.contains(&r.change.as_str()))
    }

    pub fn verdict(&self) -> Verdict {
        let blocking_count = self
            .violations
            .iter()
            .filter(|v| v.severity == Severity::Error)
            .count();
        let incomplete: Vec<String> = self
            .tools
            .iter()
            .filter(|t| !t.status.complete())
            .map(|t| {
                let status = match t.status {
                    ToolStatus::Missing => "is not installed",
                    ToolStatus::Failed => "failed",
                    _ => "ran partially",
                };
                format!("{} {status}", t.name)
            })
            .collect();
        let skipped = self.skipped_files.len();
        let detail_complete = incomplete.is_empty() && skipped == 0 && self.truncated != Some(true);
        let anything_ran = self.tools.iter().any(|t| t.status.ran())
            || self.tools.iter().all(|t| t.status == ToolStatus::Skipped);
        let mut why = incomplete;
        if skipped > 0 {
            why.push(format!("{skipped} changed file(s) were not fully analysed"));
        }
        let (status, blocking, note) = if detail_complete {
            if blocking_count > 0 {
                (
                    GateStatus::Failed,
                    Some(true),
                    format!(
                        "{blocking_count} error-severity violation(s) on changed lines block the merge"
                    ),
                )
            } else {
                (
                    GateStatus::Ok,
                    Some(false),
                    "every analyser ran on every changed file: no error-severity violation on changed lines".to_string(),
                )
            }
        } else if blocking_count > 0 {
            (
                GateStatus::Partial,
                Some(true),
                format!(
                    "{blocking_count} error-severity violation(s) block the merge, and the analysis is incomplete ({}): there may be more",
                    why.join("; ")
                ),
            )
        } else if anything_ran {
            (
                GateStatus::Partial,
                None,
                format!(
                    "the analysis is incomplete ({}): no blocking violation was found in what ran, which does not make the change clean",
                    why.join("; ")
                ),
            )
        } else {
            (
                GateStatus::Unavailable,
                None,
                format!(
                    "the gate could not analyse the change ({}): nothing to fix, but the change went unchecked",
                    why.join("; ")
                ),
            )
        };
        Verdict {
            status,
            detail_complete,
            blocking,
            blocking_count,
            note,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tool(name: &str, status: ToolStatus) -> ToolRun {
        ToolRun {
            name: name.into(),
            version: None,
            exit_code: None,
            status,
            files: 1,
            findings: 0,
            findings_on_unchanged_lines: 0,
            errors: Vec::new(),
            reason: None,
        }
    }

    fn record(tools: Vec<ToolRun>, severities: &[Severity]) -> GateRecord {
        GateRecord {
            repository: "acme/api".into(),
            pr: None,
            base_ref: None,
            head_ref: None,
            base_sha: "b".repeat(40),
            merge_base_sha: None,
            head_sha: "a".repeat(40),
            head_tree_sha: None,
            files_changed: Some(1),
            tools,
            skipped_files: Vec::new(),
            violations: severities
                .iter()
                .map(|s| Violation {
                    path: "a.py".into(),
                    line: Some(1),
                    severity: *s,
                    rule_id: "bandit:B602".into(),
                    rule_title: "t".into(),
                    comment: "c".into(),
                    suggestion: None,
                    source: None,
                })
                .collect(),
            unreviewed_rules: Vec::new(),
            enforced_rules: Vec::new(),
            checked_rules: Vec::new(),
            waived: Vec::new(),
            waiver_notes: Vec::new(),
            truncated: Some(false),
            truncated_note: None,
            analyzed_at: "2026-01-01T00:00:00Z".into(),
            generator: None,
        }
    }

    #[test]
    fn blocking_is_false_only_for_a_complete_clean_run() {
        let ok = vec![tool("ruff", ToolStatus::Ok), tool("bandit", ToolStatus::Ok)];
        let v = record(ok.clone(), &[Severity::Warning, Severity::Note]).verdict();
        assert_eq!(
            (v.status, v.blocking, v.detail_complete),
            (GateStatus::Ok, Some(false), true)
        );
        let v = record(ok, &[Severity::Error]).verdict();
        assert_eq!(
            (v.status, v.blocking, v.blocking_count),
            (GateStatus::Failed, Some(true), 1)
        );

        let missing = vec![
            tool("ruff", ToolStatus::Ok),
            tool("bandit", ToolStatus::Missing),
        ];
        let v = record(missing.clone(), &[]).verdict();
        assert_eq!(
            (v.status, v.blocking, v.detail_complete),
            (GateStatus::Partial, None, false)
        );
        assert!(v.note.contains("bandit is not installed"), "{}", v.note);
        let v = record(missing, &[Severity::Error]).verdict();
        assert_eq!((v.status, v.blocking), (GateStatus::Partial, Some(true)));

        let none = vec![
            tool("ruff", ToolStatus::Failed),
            tool("bandit", ToolStatus::Missing),
        ];
        let v = record(none, &[]).verdict();
        assert_eq!((v.status, v.blocking), (GateStatus::Unavailable, None));

        let nothing_to_do = vec![
            tool("ruff", ToolStatus::Skipped),
            tool("bandit", ToolStatus::Skipped),
        ];
        let v = record(nothing_to_do, &[]).verdict();
        assert_eq!((v.status, v.blocking), (GateStatus::Ok, Some(false)));
    }
}
