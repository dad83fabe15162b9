//! SARIF 2.1.0 for code-scanning upload: one run per analyser (and one for the playbook), each
//! with its rules, its results on changed lines, and an invocation saying whether it ran; a
//! missing or crashed analyser is an unsuccessful invocation, not an empty clean run.
//! Levels are set on every result (§3.27.10: a reader that only looks at `result.level` must
//! not see a clean run) and as each rule's `defaultConfiguration.level`.

use crate::rules::gate::model::{GateRecord, ToolStatus, Violation, Waived};
use crate::rules::gate::rule_help::HelpBook;
use serde_json::{Value, json};
use std::collections::BTreeMap;

pub const SCHEMA: &str = "https://json.schemastore.org/sarif-2.1.0.json";

/// The run a violation belongs to: the analyser named by its rule id (`bandit:B602`), else
/// the playbook.
fn run_of(v: &Violation, tools: &[&str]) -> String {
    match v.rule_id.split_once(':') {
        Some((tool, _)) if v.source.is_none() && tools.contains(&tool) => tool.to_string(),
        _ => "playbook".to_string(),
    }
}

fn information_uri(tool: &str) -> Option<&'static str> {
    match tool {
        "ruff" => Some("https://docs.astral.sh/ruff/"),
        "bandit" => Some("https://bandit.readthedocs.io/"),
        "semgrep" => Some("https://semgrep.dev/"),
        _ => None,
    }
}

/// A repo-relative path as a relative URI reference (RFC 3986): unreserved characters and
/// `/` kept, everything else percent-encoded.
pub fn uri(path: &str) -> String {
    let mut out = String::new();
    for b in path.bytes() {
        if b.is_ascii_alphanumeric() || b"-._~/".contains(&b) {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

/// The SARIF log of `record`'s violations.
pub fn write(record: &GateRecord) -> Value {
    write_with_help(record, &HelpBook::new())
}

/// The SARIF log of `record`'s violations, each rule with its help from `help` when there.
pub fn write_with_help(record: &GateRecord, help: &HelpBook) -> Value {
    let names: Vec<&str> = record.tools.iter().map(|t| t.name.as_str()).collect();
    // Each violation with the baseline waiver that suppresses it, if any.
    let mut by_run: BTreeMap<String, Vec<(&Violation, Option<&Waived>)>> = BTreeMap::new();
    let all = (record.violations.iter().map(|v| (v, None)))
        .chain(record.waived.iter().map(|w| (&w.violation, Some(w))));
    for (v, w) in all {
        by_run.entry(run_of(v, &names)).or_default().push((v, w));
    }
    let mut runs = Vec::new();
    let mut run_names: Vec<String> = record.tools.iter().map(|t| t.name.clone()).collect();
    if !run_names.iter().any(|n| n == "playbook") && by_run.contains_key("playbook") {
        run_names.push("playbook".into());
    }
    for name in run_names {
        let tool = record.tools.iter().find(|t| t.name == name);
        let violations = by_run.remove(&name).unwrap_or_default();
        let mut rule_index: BTreeMap<&str, usize> = BTreeMap::new();
        let mut rules = Vec::new();
        for (v, _) in &violations {
            if !rule_index.contains_key(v.rule_id.as_str()) {
                rule_index.insert(&v.rule_id, rules.len());
                let mut rule = json!({
                    "id": v.rule_id,
                    "name": v.rule_title,
                    "shortDescription": {"text": if v.rule_title.is_empty() { &v.rule_id } else { &v.rule_title }},
                    "defaultConfiguration": {"level": v.severity.as_str()},
                });
                if let Some(h) = help.get(&v.rule_id) {
                    rule["shortDescription"] = json!({"text": h.short});
                    rule["fullDescription"] = json!({"text": h.full});
                    rule["help"] = json!({"text": h.full, "markdown": h.markdown});
                    if let Some(uri) = &h.uri {
                        rule["helpUri"] = json!(uri);
                    }
                }
                rules.push(rule);
            }
        }
        let results: Vec<Value> = violations
            .iter()
            .map(|(v, waived)| {
                let mut physical = json!({
                    "artifactLocation": {"uri": uri(&v.path), "uriBaseId": "%SRCROOT%"},
                });
                if let Some(line) = v.line.filter(|l| *l >= 1) {
                    physical["region"] = json!({"startLine": line});
                }
                let mut text = v.comment.clone();
                if let Some(s) = &v.suggestion {
                    text.push_str(&format!(" Suggestion: {s}"));
                }
                let mut result = json!({
                    "ruleId": v.rule_id,
                    "ruleIndex": rule_index.get(v.rule_id.as_str()).copied().unwrap_or(0),
                    "level": v.severity.as_str(),
                    "message": {"text": if text.is_empty() { v.rule_id.clone() } else { text }},
                    "locations": [{"physicalLocation": physical}],
                });
                if let Some(source) = &v.source {
                    result["properties"] = json!({"analyserFinding": source});
                }
                if let Some(w) = waived {
                    // Reviewed in the repository's baseline: code scanning shows it dismissed.
                    result["suppressions"] = json!([{
                        "kind": "external",
                        "justification": w.reason,
                        "location": {"physicalLocation": {"artifactLocation": {"uri": uri(crate::rules::gate::baseline::BASELINE_FILE)}}},
                    }]);
                    result["partialFingerprints"] = json!({"nexusBaseline/v1": w.fingerprint});
                }
                result
            })
            .collect();
        let mut driver = json!({
            "name": if name == "playbook" { "nexus-playbook" } else { name.as_str() },
            "rules": rules,
        });
        if let Some(version) = tool.and_then(|t| t.version.clone()) {
            driver["version"] = json!(version);
        }
        if let Some(info) = information_uri(&name) {
            driver["informationUri"] = json!(info);
        }
        let mut invocation = json!({
            "executionSuccessful": tool.is_none_or(|t| matches!(t.status, ToolStatus::Ok | ToolStatus::Skipped)),
        });
        if let Some(t) = tool {
            if let Some(code) = t.exit_code {
                invocation["exitCode"] = json!(code);
            }
            let mut notes: Vec<Value> = Vec::new();
            if let Some(reason) = &t.reason {
                let level = match t.status {
                    ToolStatus::Ok | ToolStatus::Skipped => "note",
                    ToolStatus::Partial => "warning",
                    ToolStatus::Failed | ToolStatus::Missing => "error",
                };
                notes.push(json!({"level": level, "message": {"text": reason}}));
            }
            for e in &t.errors {
                notes.push(json!({"level": "error", "message": {"text": e}}));
            }
            if !notes.is_empty() {
                invocation["toolExecutionNotifications"] = json!(notes);
            }
        }
        if name == "playbook" && !record.waiver_notes.is_empty() {
            let waivers = record
                .waiver_notes
                .iter()
                .map(|n| {
                    json!({
                        "level": "warning",
                        "descriptor": {"id": format!("baselineWaiver/{}", n.state)},
                        "message": {"text": n.message},
                        "locations": [{"physicalLocation": {"artifactLocation": {"uri": uri(crate::rules::gate::baseline::BASELINE_FILE)}}}],
                    })
                });
            let mut notes = invocation["toolExecutionNotifications"]
                .as_array()
                .cloned()
                .unwrap_or_default();
            notes.extend(waivers);
            invocation["toolExecutionNotifications"] = json!(notes);
        }
        if name == "playbook" && !record.unreviewed_rules.is_empty() {
            // What the change did to the rules and to the analysers' view (suppressions,
            // configuration): listed for the reviewer, not enforced.
            let notes: Vec<Value> = record
                .unreviewed_rules
                .iter()
                .map(|r| {
                    json!({
                        "level": "warning",
                        "descriptor": {"id": r.change},
                        "message": {"text": format!("{} ({}): {}", r.rule_id, r.change, r.title)},
                        "locations": [{"physicalLocation": {"artifactLocation": {"uri": uri(&r.path)}}}],
                    })
                })
                .collect();
            invocation["toolConfigurationNotifications"] = json!(notes);
        }
        runs.push(json!({
            "tool": {"driver": driver},
            // One category per analyser: code scanning keeps each tool's alerts apart.
            "automationDetails": {"id": format!("nexus-gate/{name}/")},
            "invocations": [invocation],
            "results": results,
            "properties": {
                "repository": record.repository,
                "headSha": record.head_sha,
                "baseSha": record.base_sha,
            },
        }));
    }
    json!({
        "$schema": SCHEMA,
        "version": "2.1.0",
        "runs": runs,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn uris_are_encoded_relative_references() {
        assert_eq!(uri("src/a b/é.py"), "src/a%20b/%C3%A9.py");
        assert_eq!(uri("pkg/mod_1.py"), "pkg/mod_1.py");
    }
}
