//! The one severity scale of nexus-lite's findings. Every analyser's native levels map here
//! once; the code graph stores the level and the gate projects it onto SARIF's three
//! (`rules::gate::severity`), so one ruff or bandit finding is ranked the same way by every
//! surface. The native mappings are the reference's (rules-gate.md §5): `critical` and `high`
//! are what blocks a merge, `medium` and `low` are warnings, `info` is shown but never counted.

use serde::{Deserialize, Serialize};

/// Most severe first; the derived order sorts that way.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Level {
    Critical,
    High,
    Medium,
    Low,
    Info,
}

impl Level {
    pub const ALL: [Level; 5] = [
        Level::Critical,
        Level::High,
        Level::Medium,
        Level::Low,
        Level::Info,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            Level::Critical => "critical",
            Level::High => "high",
            Level::Medium => "medium",
            Level::Low => "low",
            Level::Info => "info",
        }
    }

    /// One of the five words, exactly as [`Level::as_str`] writes them.
    pub fn parse(s: &str) -> Option<Level> {
        Level::ALL.into_iter().find(|l| l.as_str() == s)
    }

    /// 0 (critical) to 4 (info): the stored sort key.
    pub fn order(self) -> i64 {
        self as i64
    }
}

/// Ruff codes whose findings are syntax errors or names that cannot resolve: the code does
/// not run (the set GitHub's starter Python workflow fails on).
const RUFF_CANNOT_RUN: [&str; 4] = ["E9", "F63", "F7", "F82"];

/// A ruff finding saying the code does not run: a syntax error or [`RUFF_CANNOT_RUN`]. Not
/// a [`ruff_newer_syntax`] one.
pub fn ruff_cannot_run(code: &str, message: &str) -> bool {
    (matches!(code, "invalid-syntax" | "syntax-error") && !ruff_newer_syntax(message))
        || RUFF_CANNOT_RUN.iter().any(|p| code.starts_with(p))
}

/// Ruff's message for syntax newer than the project's oldest Python ("Cannot use `match`
/// statement on Python 3.7 (syntax was added in Python 3.10)"). The file runs on the newer
/// Pythons (flake8's E999, the starter workflow's check, passes there), and a project often
/// runs such a file only on them, so it is a compatibility warning, not code that cannot run.
/// Syntax *removed* by the oldest Python fails on every Python the project supports: still a
/// syntax error.
pub fn ruff_newer_syntax(message: &str) -> bool {
    message.contains(" (syntax was added in Python ")
}

/// Ruff (`None` is a syntax error; `message` tells [`ruff_newer_syntax`] apart): code that
/// cannot run → high; `S*` (flake8-bandit) as bandit usually rates the same check
/// ([`ruff_security`]); likely bugs (`B0*`, `PLE*`, redefinitions, bare except) and syntax
/// newer than the project's oldest Python → medium; everything else → low.
pub fn ruff(code: Option<&str>, message: &str) -> Level {
    let code = code.filter(|c| !c.is_empty()).unwrap_or("syntax-error");
    if ruff_cannot_run(code, message) {
        return Level::High;
    }
    if ruff_newer_syntax(message) {
        return Level::Medium;
    }
    if let Some(number) = ruff_security_number(code) {
        return ruff_security(number);
    }
    if ruff_likely_bug(code) {
        Level::Medium
    } else {
        Level::Low
    }
}

/// A ruff code for a likely bug: flake8-bugbear (`B0*`), pylint errors (`PLE*`), a
/// redefinition (`F811`), a repeated dict key (`F601`), a bare except (`E722`).
pub fn ruff_likely_bug(code: &str) -> bool {
    code.starts_with("B0") || code.starts_with("PLE") || matches!(code, "F811" | "F601" | "E722")
}

/// `nnn` of a ruff `S<nnn>` (flake8-bandit) code; `SIM108` and other `S…` linters are not.
pub fn ruff_security_number(code: &str) -> Option<&str> {
    code.strip_prefix('S')
        .filter(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
}

/// Ruff's `S<nnn>` rules are bandit's `B<nnn>` checks; bandit rates each finding, ruff does
/// not rate at all. The checks bandit reports HIGH map to high, its LOW ones to info, the
/// rest (MEDIUM) to medium.
fn ruff_security(number: &str) -> Level {
    match number {
        // HIGH in bandit: flask debug (B201), insecure hash (B324), telnetlib/ftplib/pycrypto
        // imports (B401, B402, B413), no cert validation (B501), bad SSL versions (B502),
        // shell injection (B602, B605), wildcard injection (B609), Jinja autoescape off (B701).
        "201" | "324" | "401" | "402" | "413" | "501" | "502" | "602" | "605" | "609" | "701" => {
            Level::High
        }
        // LOW in bandit: assert (B101), hard-coded passwords (B105-B107), try/except/pass and
        // continue (B110, B112), pseudo-random (B311), the other import checks (B4xx),
        // subprocess without shell (B603), partial executable path (B607).
        "101" | "105" | "106" | "107" | "110" | "112" | "311" | "603" | "607" => Level::Info,
        n if n.starts_with('4') => Level::Info,
        _ => Level::Medium,
    }
}

/// The level bandit usually gives check `B<nnn>` (the table ruff's S-rules use), for a rule's
/// description; each finding carries its own rating.
pub fn bandit_usual(code: &str) -> Level {
    code.strip_prefix('B')
        .filter(|n| !n.is_empty() && n.chars().all(|c| c.is_ascii_digit()))
        .map_or(Level::Medium, ruff_security)
}

/// Bandit: HIGH with confidence at least MEDIUM → high; HIGH with LOW confidence, and MEDIUM →
/// medium; LOW → info. An unknown level is medium (never silently info).
pub fn bandit(severity: &str, confidence: &str) -> Level {
    let confident = matches!(confidence.to_ascii_uppercase().as_str(), "MEDIUM" | "HIGH");
    match severity.to_ascii_uppercase().as_str() {
        "HIGH" if confident => Level::High,
        "LOW" => Level::Info,
        _ => Level::Medium,
    }
}

/// Semgrep: CRITICAL → critical; ERROR, HIGH → high; WARNING, MEDIUM → medium; INFO, LOW →
/// info. Unknown → medium.
pub fn semgrep(native: &str) -> Level {
    match native.to_ascii_uppercase().as_str() {
        "CRITICAL" => Level::Critical,
        "ERROR" | "HIGH" => Level::High,
        "INFO" | "LOW" => Level::Info,
        _ => Level::Medium,
    }
}

/// A SARIF result: the rule's `security-severity` score when it has one (GitHub's bands:
/// ≥ 9 critical, ≥ 7 high, ≥ 4 medium, > 0 low, else info), else the result's `level` (its
/// rule's `defaultConfiguration.level` when absent, which the caller passes): error → high,
/// note or none → info, warning or nothing → medium (SARIF 2.1.0 §3.27.10).
pub fn sarif(level: Option<&str>, security_severity: Option<f64>) -> Level {
    if let Some(score) = security_severity {
        return match score {
            s if s >= 9.0 => Level::Critical,
            s if s >= 7.0 => Level::High,
            s if s >= 4.0 => Level::Medium,
            s if s > 0.0 => Level::Low,
            _ => Level::Info,
        };
    }
    match level {
        Some("error") => Level::High,
        Some("note") | Some("none") => Level::Info,
        _ => Level::Medium,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ruff_is_high_only_for_code_that_cannot_run() {
        for code in ["E999", "F821", "F632", "F701", "invalid-syntax"] {
            assert_eq!(ruff(Some(code), ""), Level::High, "{code}");
        }
        assert_eq!(ruff(None, ""), Level::High);
        let newer = "Cannot use `match` statement on Python 3.7 (syntax was added in Python 3.10)";
        assert_eq!(ruff(Some("invalid-syntax"), newer), Level::Medium);
        let removed = "Cannot use parenthesized keyword argument name on Python 3.8 (syntax was \
                       removed in Python 3.8)";
        assert_eq!(ruff(Some("invalid-syntax"), removed), Level::High);
        assert_eq!(ruff(Some("B006"), ""), Level::Medium);
        assert_eq!(ruff(Some("E722"), ""), Level::Medium);
        assert_eq!(ruff(Some("F401"), ""), Level::Low);
        assert_eq!(ruff(Some("E501"), ""), Level::Low);
        assert_eq!(ruff(Some("SIM108"), ""), Level::Low);
    }

    #[test]
    fn ruff_security_rules_are_rated_as_bandit_rates_the_same_check() {
        assert_eq!(ruff(Some("S602"), ""), Level::High);
        assert_eq!(ruff(Some("S608"), ""), Level::Medium);
        assert_eq!(ruff(Some("S101"), ""), Level::Info);
        assert_eq!(ruff(Some("S403"), ""), Level::Info);
        assert_eq!(bandit_usual("B602"), Level::High);
        assert_eq!(bandit_usual("B101"), Level::Info);
        assert_eq!(bandit_usual("B"), Level::Medium);
    }

    #[test]
    fn bandit_needs_high_severity_and_some_confidence_for_high() {
        assert_eq!(bandit("HIGH", "HIGH"), Level::High);
        assert_eq!(bandit("high", "medium"), Level::High);
        assert_eq!(bandit("HIGH", "LOW"), Level::Medium);
        assert_eq!(bandit("MEDIUM", "HIGH"), Level::Medium);
        assert_eq!(bandit("LOW", "HIGH"), Level::Info);
        assert_eq!(bandit("UNDEFINED", "HIGH"), Level::Medium);
    }

    #[test]
    fn semgrep_and_sarif_levels() {
        assert_eq!(semgrep("CRITICAL"), Level::Critical);
        assert_eq!(semgrep("ERROR"), Level::High);
        assert_eq!(semgrep("WARNING"), Level::Medium);
        assert_eq!(semgrep("INFO"), Level::Info);
        assert_eq!(sarif(Some("error"), None), Level::High);
        assert_eq!(sarif(None, None), Level::Medium);
        assert_eq!(sarif(Some("none"), None), Level::Info);
        assert_eq!(sarif(Some("note"), None), Level::Info);
        assert_eq!(sarif(Some("error"), Some(9.8)), Level::Critical);
        assert_eq!(sarif(Some("error"), Some(5.0)), Level::Medium);
        assert_eq!(sarif(None, Some(2.0)), Level::Low);
        assert_eq!(sarif(None, Some(0.0)), Level::Info);
    }

    #[test]
    fn the_stored_words_and_order_round_trip() {
        for (i, l) in Level::ALL.into_iter().enumerate() {
            assert_eq!(Level::parse(l.as_str()), Some(l));
            assert_eq!(l.order(), i as i64);
        }
        assert_eq!(Level::parse("High"), None);
    }
}
