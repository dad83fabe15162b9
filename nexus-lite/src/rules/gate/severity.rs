//! The gate's severities: SARIF's three levels, projected from the one scale every analyser
//! finding is rated on (`core::analyser::severity`, the reference's mapping, rules-gate.md §5),
//! and a playbook rule's declared level. Only `error` blocks a merge; `note` is never counted.

use crate::core::analyser::severity::{self as level, Level};
use serde::{Deserialize, Serialize};

/// Our three levels, in SARIF's words (§3.27.10), most severe first.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    Error,
    Warning,
    Note,
}

impl Severity {
    pub fn as_str(self) -> &'static str {
        match self {
            Severity::Error => "error",
            Severity::Warning => "warning",
            Severity::Note => "note",
        }
    }

    /// `error`, `warning` or `note` (any case); anything else is not ours.
    pub fn parse(s: &str) -> Option<Severity> {
        match s.trim().to_ascii_lowercase().as_str() {
            "error" => Some(Severity::Error),
            "warning" => Some(Severity::Warning),
            "note" => Some(Severity::Note),
            _ => None,
        }
    }
}

impl From<Level> for Severity {
    /// critical and high block (error), medium and low are warnings, info is a note.
    fn from(level: Level) -> Severity {
        match level {
            Level::Critical | Level::High => Severity::Error,
            Level::Medium | Level::Low => Severity::Warning,
            Level::Info => Severity::Note,
        }
    }
}

/// A ruff finding's level, as every surface ranks it (`core::analyser::severity::ruff`; its
/// message tells syntax newer than the project's oldest Python from a syntax error).
pub fn ruff(code: &str, message: &str) -> Severity {
    level::ruff(Some(code), message).into()
}

/// A playbook rule: its declared `severity:`, default warning (blocking only when declared
/// `error`).
pub fn playbook(declared: Option<&str>) -> Severity {
    declared
        .and_then(Severity::parse)
        .unwrap_or(Severity::Warning)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ruff_blocks_only_on_code_that_cannot_run() {
        assert_eq!(ruff("E999", ""), Severity::Error);
        assert_eq!(ruff("F821", ""), Severity::Error);
        assert_eq!(ruff("F632", ""), Severity::Error);
        assert_eq!(ruff("F701", ""), Severity::Error);
        assert_eq!(ruff("invalid-syntax", ""), Severity::Error);
        assert_eq!(ruff("F401", ""), Severity::Warning);
        assert_eq!(ruff("E501", ""), Severity::Warning);
        assert_eq!(ruff("S602", ""), Severity::Error);
        assert_eq!(ruff("S608", ""), Severity::Warning);
        assert_eq!(ruff("S101", ""), Severity::Note);
        assert_eq!(ruff("SIM108", ""), Severity::Warning);
    }

    #[test]
    fn bandit_needs_high_severity_and_some_confidence_to_block() {
        let gate = |s, c| Severity::from(level::bandit(s, c));
        assert_eq!(gate("HIGH", "HIGH"), Severity::Error);
        assert_eq!(gate("HIGH", "MEDIUM"), Severity::Error);
        assert_eq!(gate("HIGH", "LOW"), Severity::Warning);
        assert_eq!(gate("MEDIUM", "HIGH"), Severity::Warning);
        assert_eq!(gate("LOW", "HIGH"), Severity::Note);
        assert_eq!(gate("UNDEFINED", "HIGH"), Severity::Warning);
    }

    #[test]
    fn semgrep_sarif_and_playbook_levels() {
        let semgrep = |n| Severity::from(level::semgrep(n));
        let sarif = |l| Severity::from(level::sarif(l, None));
        assert_eq!(semgrep("CRITICAL"), Severity::Error);
        assert_eq!(semgrep("MEDIUM"), Severity::Warning);
        assert_eq!(semgrep("INFO"), Severity::Note);
        assert_eq!(sarif(Some("error")), Severity::Error);
        assert_eq!(sarif(None), Severity::Warning);
        assert_eq!(sarif(Some("none")), Severity::Note);
        assert_eq!(playbook(None), Severity::Warning);
        assert_eq!(playbook(Some("error")), Severity::Error);
        assert_eq!(playbook(Some("bogus")), Severity::Warning);
    }
}
