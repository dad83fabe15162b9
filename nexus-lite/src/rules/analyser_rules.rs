//! get_rule: one playbook rule in full, or the text of an analyser rule (`ruff:E501`,
//! `bandit:B602`) as the installed analyser describes it. An analyser that is not installed
//! answers `known: null` with the reason, never "no such rule".

use crate::core::analyser;
use crate::core::http::ApiError;
use crate::core::repos::ServedRepo;
use crate::core::util::near_names;
use crate::rules::gate::severity;
use crate::rules::playbook::{self, Rule};
use serde_json::{Value, json};

pub fn get_rule(repo: &ServedRepo, rule_id: &str) -> Result<Value, ApiError> {
    let pb = playbook::load_worktree(&repo.root)?;
    let rules: Vec<&Rule> = pb.files.iter().flat_map(|f| f.rules.iter()).collect();
    if let Some(rule) = rules.iter().find(|r| r.rule_id == rule_id) {
        return Ok(json!({
            "kind": "playbook",
            "rule": playbook::rule_json(rule),
            "known": true,
            "reason": null,
        }));
    }
    if let Some((tool, code)) = rule_id.split_once(':') {
        let answer = match tool {
            "ruff" => Some(if ruff_code(code) {
                ruff(rule_id, code)
            } else {
                not_a_code(code, "ruff", "E501 or S602: capital letters, then digits")
            }),
            "bandit" => Some(if bandit_code(code) {
                bandit(rule_id, code)
            } else {
                not_a_code(code, "bandit", "B602: B and three digits")
            }),
            _ => None,
        };
        if let Some(answer) = answer {
            return Ok(answer);
        }
    }
    let names = near_names(rule_id, rules.iter().map(|r| r.rule_id.as_str()), 0.75);
    Err(ApiError::not_found_as(
        "RULE_NOT_FOUND",
        format!(
            "no playbook rule `{rule_id}` in {}{}; analyser rules are named ruff:<CODE>, bandit:<ID> or semgrep:<rule id>",
            repo.name,
            if names.is_empty() {
                String::new()
            } else {
                format!(" (did you mean {}?)", names.join(", "))
            }
        ),
    )
    .with("nearMatches", json!(names)))
}

/// `(tool, code)` when `rule_id` names an analyser rule the gate runs (`ruff:T201`,
/// `bandit:B602`).
pub fn analyser_id(rule_id: &str) -> Option<(&str, &str)> {
    let (tool, code) = rule_id.split_once(':')?;
    match tool {
        "ruff" if ruff_code(code) => Some((tool, code)),
        "bandit" if bandit_code(code) => Some((tool, code)),
        "semgrep" if semgrep_id(code) => Some((tool, code)),
        _ => None,
    }
}

/// A semgrep rule id as semgrep reports it (`no-eval`, `semgrep.python.no-eval`).
fn semgrep_id(id: &str) -> bool {
    !id.is_empty()
        && id.len() <= 200
        && id
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'.' | b'-' | b'_'))
}

/// A ruff rule code: capital letters, then digits (`E501`, `S602`, `PLR0913`).
fn ruff_code(code: &str) -> bool {
    let digits = code.trim_start_matches(|c: char| c.is_ascii_uppercase());
    digits.len() < code.len() && !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit())
}

/// A bandit check id: `B` and three digits.
fn bandit_code(code: &str) -> bool {
    code.len() == 4 && code.starts_with('B') && code[1..].bytes().all(|b| b.is_ascii_digit())
}

/// The answer for a code that is not of the analyser's form (never passed to it: `--all` is an
/// option, not a rule).
fn not_a_code(code: &str, tool: &str, form: &str) -> Value {
    analyser(
        Some(false),
        Some(format!(
            "`{}` is not a {tool} rule code (like {form}); name the rule as {tool}:<CODE>",
            code.chars().take(80).collect::<String>()
        )),
        Value::Null,
    )
}

/// An analyser rule's answer: `rule` when the analyser knows it, else `known` false or null.
fn analyser(known: Option<bool>, reason: Option<String>, rule: Value) -> Value {
    json!({"kind": "analyser", "known": known, "reason": reason, "rule": rule})
}

fn analyser_rule(rule_id: &str, title: &str, severity: &str, source: &str, body: &str) -> Value {
    json!({
        "ruleId": rule_id,
        "title": title,
        "severity": severity,
        "activation": "always",
        "scopeDir": "",
        "globs": [],
        "source": source,
        "section": null,
        "description": null,
        "body": body,
        "enforcedBy": [rule_id],
        "forbid": null,
        "forbidPaths": [],
        "machineChecked": true,
        "precedence": 0,
        "warnings": [],
    })
}

/// `program args` through the one analyser runner (its timeout included).
fn output(program: &str, args: &[&str]) -> std::io::Result<analyser::Ran> {
    let mut cmd = analyser::command(program, None);
    cmd.args(args);
    analyser::run(cmd, analyser::timeout_from_env())
}

/// `ruff rule CODE --output-format json`.
fn ruff(rule_id: &str, code: &str) -> Value {
    // `--`: the code is an operand even if it looked like an option.
    let out = match output("ruff", &["rule", "--output-format", "json", "--", code]) {
        Ok(o) => o,
        Err(e) => {
            return analyser(
                None,
                Some(format!(
                    "ruff could not be run ({e}); install ruff to read its rules"
                )),
                Value::Null,
            );
        }
    };
    if !out.status.success() {
        return analyser(
            Some(false),
            Some(format!("ruff does not know the rule `{code}`")),
            Value::Null,
        );
    }
    let v: Value = serde_json::from_slice(&out.stdout).unwrap_or(Value::Null);
    let code = v["code"].as_str().unwrap_or(code);
    let title = format!(
        "{} ({})",
        v["name"].as_str().unwrap_or(code),
        v["linter"].as_str().unwrap_or("ruff")
    );
    let mut body = v["explanation"].as_str().unwrap_or("").to_string();
    if let Some(fix) = v["fix"].as_str() {
        body.push_str(&format!("\n\nFix: {fix}"));
    }
    let rule = analyser_rule(
        rule_id,
        &title,
        severity::ruff(code, "").as_str(),
        &format!("ruff rule {code}"),
        &body,
    );
    analyser(Some(true), None, rule)
}

/// Bandit's checks by id (`B602` → `subprocess_popen_with_shell_equals_true`), as `bandit -h`
/// lists them.
pub fn bandit_checks(help: &str) -> std::collections::BTreeMap<String, String> {
    help.lines()
        .filter_map(|l| {
            let mut parts = l.split_whitespace();
            let code = parts.next().filter(|c| bandit_code(c))?;
            Some((code.to_string(), parts.next()?.to_string()))
        })
        .collect()
}

/// Bandit has no rule text command: `bandit -h` lists its checks by id and name.
fn bandit(rule_id: &str, code: &str) -> Value {
    let out = match output("bandit", &["-h"]) {
        Ok(o) if o.status.success() => o,
        Ok(o) => {
            return analyser(
                None,
                Some(format!(
                    "bandit -h exited with {}; its checks could not be listed",
                    o.status
                )),
                Value::Null,
            );
        }
        Err(e) => {
            return analyser(
                None,
                Some(format!(
                    "bandit could not be run ({e}); install bandit to read its checks"
                )),
                Value::Null,
            );
        }
    };
    let help = String::from_utf8_lossy(&out.stdout);
    let Some(name) = bandit_checks(&help).remove(code) else {
        return analyser(
            Some(false),
            Some(format!("bandit lists no check `{code}` (bandit -h)")),
            Value::Null,
        );
    };
    // Bandit rates each finding itself; the gate maps a finding by its own rating. The rule's
    // level here is the one bandit usually gives this check (the table ruff's S-rules use).
    let usual = severity::Severity::from(analyser::severity::bandit_usual(code));
    let mut rule = analyser_rule(
        rule_id,
        &name,
        usual.as_str(),
        "bandit -h",
        &format!(
            "bandit check {code} `{name}`. Bandit rates each finding's severity and confidence itself; the gate maps HIGH (confidence at least MEDIUM) to error, MEDIUM to warning and LOW to note."
        ),
    );
    rule["warnings"] = json!([format!(
        "severity {} is the level bandit usually gives {code}; each finding carries its own",
        usual.as_str()
    )]);
    analyser(Some(true), None, rule)
}
