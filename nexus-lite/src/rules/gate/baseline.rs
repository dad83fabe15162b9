//! Baselines: existing findings the team waived, in a committed `.nexus/baseline.yaml`, reviewed
//! like rules. The gate reads the base commit's file (a pull request cannot waive its own
//! findings: a change to the file is listed as unreviewed), so a waived finding is shown as
//! suppressed, not counted. A waiver matches by a fingerprint of rule, path and the line's text
//! with its whitespace normalised, so it survives the line moving. An expired waiver waives
//! nothing, and one whose file changed without its finding is reported as stale.

use crate::core::util::sha256_hex;
use crate::rules::gate::model::{Violation, Waived, WaiverNote};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::path::Path;

pub const BASELINE_FILE: &str = ".nexus/baseline.yaml";

/// The file as written (and read).
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub struct Baseline {
    #[serde(default)]
    pub waivers: Vec<Waiver>,
}

/// One waived finding.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Waiver {
    /// The violation's rule id (`ruff:S602`, `bandit:B602`, a playbook rule id).
    pub rule: String,
    pub path: String,
    /// [`fingerprint`] of the finding's line.
    pub fingerprint: String,
    /// Why it is waived, for the reviewer (shown as the SARIF suppression's justification).
    pub reason: String,
    /// `YYYY-MM-DD`: from that day on the waiver waives nothing.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub expires: Option<String>,
}

/// Why the baseline could not be used.
#[derive(Debug, thiserror::Error)]
pub enum BaselineError {
    #[error(
        "{BASELINE_FILE} at {commit} is not a baseline ({detail}); fix it (each waiver needs rule, path, fingerprint and reason; `nexus-mcp gate --write-baseline` writes one)"
    )]
    Parse { commit: String, detail: String },
}

/// A finding's fingerprint: rule, path and the line's text with runs of whitespace made one
/// space, hashed (16 hex characters). Moving the line, or re-indenting it, keeps it.
pub fn fingerprint(rule: &str, path: &str, line_text: &str) -> String {
    let text = line_text.split_whitespace().collect::<Vec<_>>().join(" ");
    sha256_hex(format!("{rule}\n{path}\n{text}").as_bytes())
        .chars()
        .take(16)
        .collect()
}

/// The baseline at `commit`; an absent file is an empty baseline.
pub fn at_commit(repo: &Path, commit: &str) -> Result<Baseline, BaselineError> {
    match crate::core::git::show(repo, commit, BASELINE_FILE) {
        Ok(bytes) => parse(&String::from_utf8_lossy(&bytes), commit),
        Err(_) => Ok(Baseline::default()),
    }
}

pub fn parse(text: &str, commit: &str) -> Result<Baseline, BaselineError> {
    yaml_serde::from_str::<Option<Baseline>>(text)
        .map(Option::unwrap_or_default)
        .map_err(|e| BaselineError::Parse {
            commit: commit.chars().take(12).collect(),
            detail: e.to_string(),
        })
}

/// The fingerprint of each (rule, path, line), reading the lines from `line_of(path, line)`.
pub fn fingerprints<'a>(
    items: impl IntoIterator<Item = (&'a str, &'a str, Option<u32>)>,
    mut line_of: impl FnMut(&str, u32) -> Option<String>,
) -> Vec<String> {
    items
        .into_iter()
        .map(|(rule, path, line)| {
            let text = line.and_then(|l| line_of(path, l)).unwrap_or_default();
            fingerprint(rule, path, &text)
        })
        .collect()
}

/// What applying a baseline did.
#[derive(Debug, Default)]
pub struct Applied {
    pub kept: Vec<Violation>,
    pub waived: Vec<Waived>,
    pub notes: Vec<WaiverNote>,
}

/// Splits `violations` (with their `prints`) into kept and waived by `baseline`'s live waivers
/// (`today`: `YYYY-MM-DD`); notes expired waivers, and unmatched ones: on a `changed` file,
/// naming no finding `present` at head (rule, path, fingerprint; on any line of the file, not
/// only the changed ones).
pub fn apply(
    baseline: &Baseline,
    violations: Vec<Violation>,
    prints: &[String],
    changed: &[&str],
    present: &[(String, String, String)],
    today: &str,
) -> Applied {
    let mut out = Applied::default();
    let mut used = vec![false; baseline.waivers.len()];
    let live = |w: &Waiver| w.expires.as_deref().is_none_or(|e| e > today);
    for (v, print) in violations.into_iter().zip(prints) {
        let names = |w: &Waiver| w.rule == v.rule_id && w.path == v.path && &w.fingerprint == print;
        // A live waiver wins over an expired twin listed before it.
        let hit = (baseline.waivers.iter())
            .position(|w| names(w) && live(w))
            .or_else(|| baseline.waivers.iter().position(names));
        match hit {
            Some(i) if live(&baseline.waivers[i]) => {
                used[i] = true;
                out.waived.push(Waived {
                    violation: v,
                    fingerprint: print.clone(),
                    reason: baseline.waivers[i].reason.clone(),
                });
            }
            Some(i) => {
                used[i] = true;
                let w = &baseline.waivers[i];
                out.notes.push(note(w, "expired", format!(
                    "the waiver of {} in {} expired on {}: the finding counts again; fix it, or renew the waiver in {BASELINE_FILE} (reviewed like a rule)",
                    w.rule, w.path, w.expires.as_deref().unwrap_or("?")
                )));
                out.kept.push(v);
            }
            None => out.kept.push(v),
        }
    }
    for (w, used) in baseline.waivers.iter().zip(used) {
        let there = || {
            present
                .iter()
                .any(|(r, p, f)| *r == w.rule && *p == w.path && *f == w.fingerprint)
        };
        if !used && changed.contains(&w.path.as_str()) && !there() {
            out.notes.push(note(w, "unmatched", format!(
                "{} changed and the waived {} finding is no longer there: remove the waiver from {BASELINE_FILE}",
                w.path, w.rule
            )));
        }
    }
    out
}

fn note(w: &Waiver, state: &str, message: String) -> WaiverNote {
    WaiverNote {
        rule: w.rule.clone(),
        path: w.path.clone(),
        fingerprint: w.fingerprint.clone(),
        state: state.into(),
        message,
    }
}

/// The file's text: a header saying what it is, then the waivers.
pub fn render(book: &Baseline) -> Result<String, yaml_serde::Error> {
    const HEADER: &str = "# Findings the gate does not count (nexus-mcp gate --write-baseline). Reviewed like\n# rules: the gate applies the base branch's copy. Give each waiver a reason; `expires:\n# YYYY-MM-DD` ends it.\n";
    Ok(format!("{HEADER}{}", yaml_serde::to_string(book)?))
}

/// `existing` with a waiver added for each of `violations` not waived yet (same rule, path
/// and fingerprint), as YAML.
pub fn with_waivers(
    mut existing: Baseline,
    violations: &[Violation],
    prints: &[String],
    reason: &str,
) -> Baseline {
    let mut seen: BTreeMap<(String, String, String), ()> = existing
        .waivers
        .iter()
        .map(|w| ((w.rule.clone(), w.path.clone(), w.fingerprint.clone()), ()))
        .collect();
    for (v, print) in violations.iter().zip(prints) {
        let key = (v.rule_id.clone(), v.path.clone(), print.clone());
        if seen.insert(key, ()).is_none() {
            existing.waivers.push(Waiver {
                rule: v.rule_id.clone(),
                path: v.path.clone(),
                fingerprint: print.clone(),
                reason: reason.to_string(),
                expires: None,
            });
        }
    }
    existing
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_fingerprint_ignores_indentation_and_moves_but_not_the_text() {
        let a = fingerprint("ruff:S602", "app.py", "    run(cmd,  shell=True)");
        assert_eq!(
            a,
            fingerprint("ruff:S602", "app.py", "run(cmd, shell=True)\t")
        );
        assert_ne!(
            a,
            fingerprint("ruff:S602", "app.py", "run(cmd, shell=False)")
        );
        assert_ne!(
            a,
            fingerprint("ruff:S603", "app.py", "run(cmd, shell=True)")
        );
        assert_eq!(a.len(), 16);
    }

    #[test]
    fn expired_waivers_waive_nothing_and_stale_ones_on_changed_files_are_noted() {
        let v = Violation {
            path: "app.py".into(),
            line: Some(3),
            severity: crate::rules::gate::severity::Severity::Error,
            rule_id: "bandit:B602".into(),
            rule_title: "t".into(),
            comment: "c".into(),
            suggestion: None,
            source: None,
        };
        let waiver = |path: &str, print: &str, expires: Option<&str>| Waiver {
            rule: "bandit:B602".into(),
            path: path.into(),
            fingerprint: print.into(),
            reason: "r".into(),
            expires: expires.map(str::to_string),
        };
        let book = Baseline {
            waivers: vec![
                waiver("app.py", "f1", Some("2026-01-01")),
                waiver("lib.py", "f2", None),
                waiver("other.py", "f3", None),
            ],
        };
        let present = [(v.rule_id.clone(), v.path.clone(), "f1".to_string())];
        let out = apply(
            &book,
            vec![v.clone()],
            &["f1".into()],
            &["app.py", "lib.py"],
            &present,
            "2026-06-01",
        );
        assert_eq!(out.kept, vec![v.clone()]);
        assert!(out.waived.is_empty());
        let states: Vec<(&str, &str)> = out
            .notes
            .iter()
            .map(|n| (n.state.as_str(), n.path.as_str()))
            .collect();
        assert_eq!(states, [("expired", "app.py"), ("unmatched", "lib.py")]);
        let live = apply(&book, vec![v], &["f1".into()], &[], &present, "2025-12-31");
        assert_eq!((live.kept.len(), live.waived.len()), (0, 1));
    }
}
