//! Which analyser rules a gate run checked, so that an agent's pass on an analyser id
//! (`ruff:T201`) is witnessed only where the analyser's silence means clean: ruff's enabled
//! rules as it resolves them for the changed files (`--show-settings`), and every bandit test
//! when the repository configures no bandit selection, and the rules of the repository's
//! semgrep configuration as semgrep names them. Patterns are `enforcedBy`-shaped
//! (`ruff:T201`, `bandit:*`, `semgrep:no-eval`).

use crate::core::analyser::run as run_with_timeout;
use crate::rules::gate::model::{ToolRun, ToolStatus};
use crate::rules::gate::snapshot::{self, Snapshot};
use crate::rules::gate::tools::{Options, bandit_configured, semgrep_config, tool};
use std::collections::{BTreeMap, BTreeSet};

/// More ruff configuration scopes than this and ruff's selection is not resolved (nothing is
/// claimed checked).
const MAX_RUFF_SCOPES: usize = 20;

/// The analyser rule patterns `tools` checked completely; `ruff_enabled` is
/// [`ruff_enabled`]'s answer for the same files (asked while the analysers ran).
pub fn checked_rules(
    snap: &Snapshot,
    tools: &[ToolRun],
    ruff_enabled: BTreeSet<String>,
) -> Vec<String> {
    let ok = |name: &str| {
        tools
            .iter()
            .any(|t| t.name == name && t.status == ToolStatus::Ok && t.files > 0)
    };
    let mut out = Vec::new();
    if ok("ruff") {
        out.extend(ruff_enabled.into_iter().map(|c| format!("ruff:{c}")));
    }
    if ok("bandit") && !bandit_configured(snap) {
        out.push("bandit:*".to_string());
    }
    if ok("semgrep") {
        out.extend(
            semgrep_rules(snap)
                .into_iter()
                .map(|id| format!("semgrep:{id}")),
        );
    }
    out
}

/// The rule ids of head's semgrep configuration as semgrep reports them (`check_id`): as
/// written in `.semgrep.yml`; prefixed with the file's folders, dotted and without their
/// leading dot, under `.semgrep/` (`.semgrep/sub/py.yml` → `semgrep.sub.<id>`). A file that
/// does not parse contributes nothing: its rules are then not claimed checked.
fn semgrep_rules(snap: &Snapshot) -> BTreeSet<String> {
    let Some(config) = semgrep_config(snap) else {
        return BTreeSet::new();
    };
    let mut out = BTreeSet::new();
    for path in snap
        .configs
        .iter()
        .filter(|c| c.as_str() == config || (config == ".semgrep" && c.starts_with(".semgrep/")))
    {
        let Ok(text) = std::fs::read_to_string(snap.root().join(path)) else {
            continue;
        };
        let prefix: Vec<&str> = path
            .rsplit_once('/')
            .map(|(dir, _)| dir.split('/').map(|d| d.trim_start_matches('.')).collect())
            .unwrap_or_default();
        for id in semgrep_ids(&text) {
            out.insert(
                prefix
                    .iter()
                    .copied()
                    .chain([id.as_str()])
                    .collect::<Vec<_>>()
                    .join("."),
            );
        }
    }
    out
}

/// `rules[].id` of a semgrep configuration file.
fn semgrep_ids(text: &str) -> Vec<String> {
    let Ok(v) = yaml_serde::from_str::<serde_json::Value>(text) else {
        return Vec::new();
    };
    v["rules"]
        .as_array()
        .map(|rules| {
            rules
                .iter()
                .filter_map(|r| r["id"].as_str().map(str::to_string))
                .collect()
        })
        .unwrap_or_default()
}

/// The rule codes ruff enables for every file of `files`; empty when they cannot be known, or
/// when per-file ignores make them differ by file. Settings come from the nearest ruff
/// configuration above a file, so one file per nearest configuration directory is asked.
pub fn ruff_enabled(snap: &Snapshot, files: &[String], opts: &Options) -> BTreeSet<String> {
    if files.is_empty() {
        return BTreeSet::new();
    }
    let config_dirs: Vec<&str> = snap
        .configs
        .iter()
        .filter(|c| snapshot::is_ruff_config(c))
        .map(|c| c.rsplit_once('/').map_or("", |(d, _)| d))
        .collect();
    let mut by_scope: BTreeMap<&str, &String> = BTreeMap::new();
    for f in files {
        let scope = config_dirs
            .iter()
            .filter(|d| d.is_empty() || f.starts_with(&format!("{d}/")))
            .max_by_key(|d| d.len())
            .copied()
            .unwrap_or("");
        by_scope.entry(scope).or_insert(f);
    }
    // A capped configuration list may miss the nearest configuration of some file.
    if by_scope.len() > MAX_RUFF_SCOPES || snap.configs.len() >= snapshot::MAX_CONFIG_FILES {
        return BTreeSet::new();
    }
    let mut common: Option<BTreeSet<String>> = None;
    for file in by_scope.values() {
        let mut cmd = tool("ruff", opts);
        cmd.current_dir(snap.root())
            .args(["check", "--show-settings", "--no-cache", "--"])
            .arg(file);
        let Ok(ran) = run_with_timeout(cmd, opts.timeout) else {
            return BTreeSet::new();
        };
        let text = String::from_utf8_lossy(&ran.stdout);
        let Some(codes) = (ran.code == Some(0))
            .then(|| parse_enabled(&text))
            .flatten()
        else {
            return BTreeSet::new();
        };
        common = Some(match common {
            None => codes,
            Some(c) => c.intersection(&codes).cloned().collect(),
        });
    }
    common.unwrap_or_default()
}

/// `linter.rules.enabled`'s codes from `ruff check --show-settings`; None when per-file
/// ignores are set or the list is not there.
fn parse_enabled(text: &str) -> Option<BTreeSet<String>> {
    if !text
        .lines()
        .any(|l| l.trim() == "linter.per_file_ignores = {}")
    {
        return None;
    }
    let mut lines = text
        .lines()
        .skip_while(|l| l.trim() != "linter.rules.enabled = [");
    lines.next()?;
    let mut codes = BTreeSet::new();
    for l in lines {
        if l.trim() == "]" {
            return Some(codes);
        }
        let (_, rest) = l.rsplit_once('(')?;
        codes.insert(rest.trim_end_matches(',').trim_end_matches(')').to_string());
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn enabled_codes_are_read_and_per_file_ignores_refuse_the_list() {
        let text = "x\nlinter.rules.enabled = [\n\tprint (T201),\n\tp-print (T203),\n]\nlinter.per_file_ignores = {}\n";
        let codes = parse_enabled(text).unwrap_or_default();
        assert_eq!(codes.into_iter().collect::<Vec<_>>(), ["T201", "T203"]);
        let ignores = text.replace(
            "linter.per_file_ignores = {}",
            "linter.per_file_ignores = {\n}",
        );
        assert_eq!(parse_enabled(&ignores), None);
        assert_eq!(parse_enabled("linter.per_file_ignores = {}\n"), None);
    }

    #[test]
    fn semgrep_rule_ids_are_read_from_the_configuration() {
        let text = "rules:\n  - id: no-eval\n    pattern: eval(...)\n  - id: no-exec\n";
        assert_eq!(semgrep_ids(text), ["no-eval", "no-exec"]);
        assert!(semgrep_ids("rules: [").is_empty());
    }
}
