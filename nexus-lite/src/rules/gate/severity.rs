//! The severity mapping of the reference (rules-gate.md §5): every analyser's native levels
//! mapped onto ours. Only `error` blocks a merge; `note` is never counted as blocking.

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

/// Ruff codes whose findings are syntax errors or names that cannot resolve: the code does
/// not run (the set GitHub's starter Python workflow fails on).
const RUFF_BLOCKING_PREFIXES: [&str; 4] = ["E9", "F63", "F7", "F82"];

/// Ruff: `E9*`, `F63*`, `F7*`, `F82*` and syntax errors → error; `S*` (flake8-bandit) as
/// bandit rates the same check (see [`ruff_security`]); everything else → warning.
pub fn ruff(code: &str) -> Severity {
    if code == "invalid-syntax" || code.is_empty() {
        return Severity::Error;
    }
    if RUFF_BLOCKING_PREFIXES.iter().any(|p| code.starts_with(p)) {
        return Severity::Error;
    }
    if let Some(rest) = code.strip_prefix('S')
        && rest.chars().all(|c| c.is_ascii_digit())
    {
        return ruff_security(rest);
    }
    Severity::Warning
}

/// Ruff's `S<nnn>` rules are bandit's `B<nnn>` checks; bandit rates each finding, ruff does
/// not rate at all. The checks bandit reports HIGH (with HIGH confidence) map to error, its
/// LOW ones to note, the rest (MEDIUM) to warning.
fn ruff_security(number: &str) -> Severity {
    match number {
        // HIGH in bandit: flask debug (B201), insecure hash (B324), telnetlib/ftplib/pycrypto
        // imports (B401, B402, B413), no cert validation (B501), bad SSL versions (B502),
        // shell injection (B602, B605), wildcard injection (B609), Jinja autoescape off (B701).
        "201" | "324" | "401" | "402" | "413" | "501" | "502" | "602" | "605" | "609" | "701" => {
            Severity::Error
        }
        // LOW in bandit: assert (B101), hard-coded passwords (B105-B107), try/except/pass and
        // continue (B110, B112), pseudo-random (B311), the other import checks (B4xx),
        // subprocess without shell (B603), partial executable path (B607).
        "101" | "105" | "106" | "107" | "110" | "112" | "311" | "603" | "607" => Severity::Note,
        n if n.starts_with('4') => Severity::Note,
        _ => Severity::Warning,
    }
}

/// Bandit: HIGH with confidence ≥ MEDIUM → error; HIGH with LOW confidence and MEDIUM →
/// warning; LOW → note. An unknown level is a warning (never silently a note).
pub fn bandit(severity: &str, confidence: &str) -> Severity {
    let confident = matches!(confidence.to_ascii_uppercase().as_str(), "MEDIUM" | "HIGH");
    match severity.to_ascii_uppercase().as_str() {
        "HIGH" if confident => Severity::Error,
        "HIGH" | "MEDIUM" => Severity::Warning,
        "LOW" => Severity::Note,
        _ => Severity::Warning,
    }
}

/// Semgrep: ERROR, CRITICAL, HIGH → error; WARNING, MEDIUM → warning; INFO, LOW → note.
/// Unknown → warning.
pub fn semgrep(native: &str) -> Severity {
    match native.to_ascii_uppercase().as_str() {
        "ERROR" | "CRITICAL" | "HIGH" => Severity::Error,
        "INFO" | "LOW" => Severity::Note,
        _ => Severity::Warning,
    }
}

/// A SARIF result: its `level`, else its rule's `defaultConfiguration.level`, else warning
/// (SARIF 2.1.0 §3.27.10). `none` is a note: shown, never blocking.
pub fn sarif(result_level: Option<&str>, rule_default: Option<&str>) -> Severity {
    match result_level.or(rule_default) {
        Some("error") => Severity::Error,
        Some("note") | Some("none") => Severity::Note,
        _ => Severity::Warning,
    }
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
        assert_eq!(ruff("E999"), Severity::Error);
        assert_eq!(ruff("F821"), Severity::Error);
        assert_eq!(ruff("F632"), Severity::Error);
        assert_eq!(ruff("F701"), Severity::Error);
        assert_eq!(ruff("invalid-syntax"), Severity::Error);
        assert_eq!(ruff("F401"), Severity::Warning);
        assert_eq!(ruff("E501"), Severity::Warning);
        assert_eq!(ruff("S602"), Severity::Error);
        assert_eq!(ruff("S608"), Severity::Warning);
        assert_eq!(ruff("S101"), Severity::Note);
        assert_eq!(ruff("SIM108"), Severity::Warning);
    }

    #[test]
    fn bandit_needs_high_severity_and_some_confidence_to_block() {
        assert_eq!(bandit("HIGH", "HIGH"), Severity::Error);
        assert_eq!(bandit("HIGH", "MEDIUM"), Severity::Error);
        assert_eq!(bandit("HIGH", "LOW"), Severity::Warning);
        assert_eq!(bandit("MEDIUM", "HIGH"), Severity::Warning);
        assert_eq!(bandit("LOW", "HIGH"), Severity::Note);
        assert_eq!(bandit("UNDEFINED", "HIGH"), Severity::Warning);
    }

    #[test]
    fn semgrep_sarif_and_playbook_levels() {
        assert_eq!(semgrep("CRITICAL"), Severity::Error);
        assert_eq!(semgrep("MEDIUM"), Severity::Warning);
        assert_eq!(semgrep("INFO"), Severity::Note);
        assert_eq!(sarif(None, Some("error")), Severity::Error);
        assert_eq!(sarif(None, None), Severity::Warning);
        assert_eq!(sarif(Some("none"), Some("error")), Severity::Note);
        assert_eq!(playbook(None), Severity::Warning);
        assert_eq!(playbook(Some("error")), Severity::Error);
        assert_eq!(playbook(Some("bogus")), Severity::Warning);
    }
}
