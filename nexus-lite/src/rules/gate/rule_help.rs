//! Rule help for SARIF (`tool.driver.rules[]`): what a rule means and where to read more, so
//! code scanning shows it beside each alert. Ruff's text comes from `ruff rule --all
//! --output-format json` (one call for every rule), bandit's names from `bandit -h`; both are
//! cached per analyser version under the data directory. Playbook rules carry their own text.

use crate::core::analyser::run as run_with_timeout;
use crate::rules::analyser_rules::bandit_checks;
use crate::rules::gate::model::GateRecord;
use crate::rules::gate::tools::{Options, tool};
use crate::rules::playbook;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::path::Path;

/// Longest rule text carried (a playbook section can be long; code scanning shows the start).
const MAX_HELP_CHARS: usize = 8_000;

/// One rule's help, as SARIF's reportingDescriptor wants it.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct RuleHelp {
    /// One line (`shortDescription`).
    pub short: String,
    /// The whole explanation, plain text (`fullDescription`, `help.text`).
    pub full: String,
    /// The same as Markdown (`help.markdown`).
    pub markdown: String,
    /// An absolute URL with the rule's documentation (`helpUri`).
    pub uri: Option<String>,
}

/// Help by SARIF rule id (`ruff:S602`, `bandit:B602`, a playbook rule id).
pub type HelpBook = BTreeMap<String, RuleHelp>;

/// A ruff rule as `ruff rule --output-format json` describes it (the fields used here).
#[derive(Debug, Clone, Serialize, Deserialize)]
struct RuffRule {
    /// Null for a few removed rules.
    #[serde(default)]
    code: Option<String>,
    name: String,
    #[serde(default)]
    linter: Option<String>,
    #[serde(default)]
    explanation: String,
}

/// Help for every rule `record`'s violations name: analysers' from their catalogues (cached in
/// `cache_dir` per version), playbook rules' from the playbook at the record's base commit. A
/// catalogue that cannot be read leaves its rules without help (the SARIF stays valid).
pub fn for_record(
    record: &GateRecord,
    repo_root: &Path,
    cache_dir: Option<&Path>,
    opts: &Options,
) -> HelpBook {
    let ids: Vec<&str> = record
        .violations
        .iter()
        .map(|v| v.rule_id.as_str())
        .collect();
    let wants = |tool: &str| ids.iter().any(|id| id.starts_with(&format!("{tool}:")));
    let version = |tool: &str| {
        record
            .tools
            .iter()
            .find(|t| t.name == tool)
            .and_then(|t| t.version.clone())
    };
    let mut book = HelpBook::new();
    if wants("ruff") {
        let rules: Vec<RuffRule> =
            catalogue(cache_dir, "ruff", version("ruff"), || ruff_rules(opts)).unwrap_or_default();
        let by_code: BTreeMap<&str, &RuffRule> = rules
            .iter()
            .filter_map(|r| Some((r.code.as_deref()?, r)))
            .collect();
        for id in &ids {
            if let Some(r) = id.strip_prefix("ruff:").and_then(|c| by_code.get(c)) {
                book.insert(id.to_string(), ruff_help(r));
            }
        }
    }
    if wants("bandit") {
        let checks: BTreeMap<String, String> =
            catalogue(cache_dir, "bandit", version("bandit"), || {
                bandit_names(opts)
            })
            .unwrap_or_default();
        for id in &ids {
            if let Some((code, name)) = id
                .strip_prefix("bandit:")
                .and_then(|c| checks.get_key_value(c))
            {
                book.insert(id.to_string(), bandit_help(code, name));
            }
        }
    }
    let others: Vec<&str> = ids.iter().copied().filter(|id| !id.contains(':')).collect();
    if !others.is_empty()
        && let Ok(pb) = playbook::load_at_commit(repo_root, &record.base_sha)
    {
        for rule in pb.rules().filter(|r| others.contains(&r.rule_id.as_str())) {
            book.insert(rule.rule_id.clone(), playbook_help(rule));
        }
    }
    book
}

/// A catalogue read from `cache_dir/rule-help/<tool>-<version>.json`, else made by `make` and
/// written there. Without a version (unknown), nothing is cached.
fn catalogue<T: Serialize + for<'de> Deserialize<'de>>(
    cache_dir: Option<&Path>,
    tool: &str,
    version: Option<String>,
    make: impl FnOnce() -> Option<T>,
) -> Option<T> {
    let file = cache_dir.zip(version).map(|(dir, v)| {
        let v: String = v
            .chars()
            .map(|c| {
                if c.is_ascii_alphanumeric() || c == '.' {
                    c
                } else {
                    '_'
                }
            })
            .collect();
        dir.join("rule-help").join(format!("{tool}-{v}.json"))
    });
    if let Some(f) = &file
        && let Some(cached) = std::fs::read(f)
            .ok()
            .and_then(|b| serde_json::from_slice(&b).ok())
    {
        return Some(cached);
    }
    let made = make()?;
    if let Some(f) = &file {
        // Best effort: a cache that cannot be written costs one more analyser call next time.
        let write = || -> std::io::Result<()> {
            let dir = f.parent().unwrap_or(Path::new("."));
            std::fs::create_dir_all(dir)?;
            let tmp = tempfile::NamedTempFile::new_in(dir)?;
            serde_json::to_writer(&tmp, &made)?;
            tmp.persist(f).map_err(|e| e.error)?;
            Ok(())
        };
        if let Err(e) = write() {
            tracing::warn!(error = %e, path = %f.display(), "rule help not cached");
        }
    }
    Some(made)
}

/// Every ruff rule, in one call.
fn ruff_rules(opts: &Options) -> Option<Vec<RuffRule>> {
    let mut cmd = tool("ruff", opts);
    cmd.args(["rule", "--all", "--output-format", "json"]);
    let ran = run_with_timeout(cmd, opts.timeout).ok()?;
    (ran.code == Some(0))
        .then(|| serde_json::from_slice(&ran.stdout).ok())
        .flatten()
}

fn bandit_names(opts: &Options) -> Option<BTreeMap<String, String>> {
    let mut cmd = tool("bandit", opts);
    cmd.arg("-h");
    let ran = run_with_timeout(cmd, opts.timeout).ok()?;
    let names = bandit_checks(&String::from_utf8_lossy(&ran.stdout));
    (!names.is_empty()).then_some(names)
}

fn cut(text: &str) -> String {
    if text.chars().count() <= MAX_HELP_CHARS {
        return text.to_string();
    }
    let head: String = text.chars().take(MAX_HELP_CHARS).collect();
    format!("{head}… (cut at {MAX_HELP_CHARS} characters)")
}

fn ruff_help(r: &RuffRule) -> RuleHelp {
    let short = format!("{} ({})", r.name, r.linter.as_deref().unwrap_or("ruff"));
    let full = if r.explanation.is_empty() {
        short.clone()
    } else {
        cut(&r.explanation)
    };
    RuleHelp {
        short,
        markdown: full.clone(),
        full,
        uri: Some(format!("https://docs.astral.sh/ruff/rules/{}/", r.name)),
    }
}

/// Bandit documents plugins one page each, and its blacklists (B3xx calls, B4xx imports) on
/// one page per kind.
fn bandit_help(code: &str, name: &str) -> RuleHelp {
    let page = match code.get(..2) {
        Some("B3") => "blacklists/blacklist_calls.html".to_string(),
        Some("B4") => "blacklists/blacklist_imports.html".to_string(),
        _ => format!("plugins/{}_{name}.html", code.to_ascii_lowercase()),
    };
    let uri = format!("https://bandit.readthedocs.io/en/latest/{page}");
    let words = name.replace('_', " ");
    let full = format!(
        "bandit check {code} ({name}): {words}. Bandit rates each finding's severity and confidence itself; the gate maps HIGH (confidence at least MEDIUM) to error, MEDIUM to warning and LOW to note."
    );
    RuleHelp {
        short: words,
        markdown: format!("{full}\n\n[bandit's documentation of {code}]({uri})"),
        full,
        uri: Some(uri),
    }
}

fn playbook_help(rule: &playbook::Rule) -> RuleHelp {
    let body = cut(rule.body.trim());
    let from = format!("From {} (the repository's playbook).", rule.source);
    RuleHelp {
        short: if rule.title.is_empty() {
            rule.rule_id.clone()
        } else {
            rule.title.clone()
        },
        full: if body.is_empty() {
            from.clone()
        } else {
            format!("{body}\n\n{from}")
        },
        markdown: if body.is_empty() {
            from
        } else {
            format!("{body}\n\n*{from}*")
        },
        uri: None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bandit_pages_follow_its_documentation_layout() {
        assert_eq!(
            bandit_help("B602", "subprocess_popen_with_shell_equals_true")
                .uri
                .as_deref(),
            Some(
                "https://bandit.readthedocs.io/en/latest/plugins/b602_subprocess_popen_with_shell_equals_true.html"
            )
        );
        assert!(
            bandit_help("B301", "pickle")
                .uri
                .is_some_and(|u| u.ends_with("blacklists/blacklist_calls.html"))
        );
    }
}
