//! Checks for capabilities (`listed: false` + the `capabilities:` meta-tools), per-tool error
//! codes (`errors:`) and `mutation.follow_up`'s `next_step`. Same rules as validate.rs: every
//! problem at file:line:column, naming what is wrong and the fix.

use crate::checker::{Checker, is_tool_name, template_variables};
use crate::locate::Step;
use crate::model::{ErrorKey, Manifest, Tool};
use crate::schema;
use serde_json::Value;
use std::collections::BTreeSet;

/// `capabilities.<key>`, or the block itself for `None`.
fn block(key: Option<&str>) -> Vec<Step> {
    let mut steps = vec![Step::from("capabilities")];
    steps.extend(key.map(Step::from));
    steps
}

fn tool_at(i: usize, tail: &[&str]) -> Vec<Step> {
    let mut steps = vec![Step::from("tools"), Step::from(i)];
    steps.extend(tail.iter().map(|k| Step::from(*k)));
    steps
}

fn subject(tool: &Tool) -> Option<String> {
    Some(format!("tool `{}`", tool.name))
}

pub(crate) fn check(c: &mut Checker<'_>, manifest: &Manifest) {
    check_capabilities(c, manifest);
    for (i, tool) in manifest.tools.iter().enumerate() {
        check_errors(c, i, tool);
        check_follow_up(c, i, tool);
    }
}

fn check_capabilities(c: &mut Checker<'_>, manifest: &Manifest) {
    let hidden: Vec<(usize, &Tool)> = manifest
        .tools
        .iter()
        .enumerate()
        .filter(|(_, t)| !t.listed)
        .collect();
    let Some(caps) = &manifest.capabilities else {
        for (i, tool) in hidden {
            c.report(
                &tool_at(i, &["listed"]),
                subject(tool),
                "a tool with `listed: false` is reachable only through the meta-tools, and this manifest declares none. Add `capabilities: {scope: <scope>}` at the top level (it generates use_capability and list_capabilities), or remove `listed: false`.".to_owned(),
            );
        }
        return;
    };
    if hidden.is_empty() {
        c.report(
            &block(None),
            None,
            "`capabilities:` declares meta-tools but no tool is `listed: false`, so they would front nothing. Mark the tools to hide with `listed: false`, or remove the block.".to_owned(),
        );
    }
    let scope = manifest.scopes.iter().find(|s| s.name == caps.scope);
    if scope.is_none() {
        let known: Vec<&str> = manifest.scopes.iter().map(|s| s.name.as_str()).collect();
        c.report(
            &block(Some("scope")),
            None,
            format!(
                "unknown scope `{}` for the meta-tools. Declare it under `scopes:` or use one of: {}.",
                caps.scope,
                known.join(", ")
            ),
        );
    }
    let mut names = BTreeSet::new();
    for (key, name) in [("use_tool", &caps.use_tool), ("list_tool", &caps.list_tool)] {
        if !is_tool_name(name) {
            c.report(
                &block(Some(key)),
                None,
                format!("meta-tool name `{name}` must match ^[a-z][a-z0-9_]{{0,63}}$, e.g. use_capability."),
            );
        } else if manifest.tools.iter().any(|t| &t.name == name) {
            c.report(
                &block(Some(key)),
                None,
                format!("meta-tool name `{name}` is already a tool of this manifest. The engine writes the meta-tools; pick another name here or rename the tool."),
            );
        } else if !names.insert(name.as_str()) {
            c.report(
                &block(Some(key)),
                None,
                "use_tool and list_tool must differ.".to_owned(),
            );
        }
    }
    let Some(scope) = scope else { return };
    for (i, tool) in hidden {
        let modes = tool.modes.clone().unwrap_or_else(|| {
            manifest
                .scopes
                .iter()
                .find(|s| s.name == tool.scope)
                .map(|s| s.modes.clone())
                .unwrap_or_default()
        });
        for mode in modes.iter().filter(|m| !scope.modes.contains(m)) {
            c.report(
                &tool_at(i, &["listed"]),
                subject(tool),
                format!(
                    "this capability runs in {} but the meta-tools' scope `{}` does not, so nothing could reach it there. Add {} to that scope's modes, or narrow the tool's `modes:`.",
                    mode.as_str(),
                    scope.name,
                    mode.as_str()
                ),
            );
        }
    }
}

fn is_upper_snake(code: &str) -> bool {
    code.starts_with(|ch: char| ch.is_ascii_uppercase())
        && code
            .chars()
            .all(|ch| ch.is_ascii_uppercase() || ch.is_ascii_digit() || ch == '_')
}

fn check_errors(c: &mut Checker<'_>, i: usize, tool: &Tool) {
    let inputs: BTreeSet<&str> = schema::properties(&tool.input)
        .into_iter()
        .map(|(name, _)| name)
        .collect();
    for (key, target) in &tool.errors {
        let text = key.text();
        let here = tool_at(i, &["errors", text.as_str()]);
        match key {
            ErrorKey::Status(401 | 403) => c.report(
                &here,
                subject(tool),
                format!("status {text} means Nexus refused this server's token: the operator must fix it, not the agent, and the engine always answers it as nexus_unauthorized. Remove this entry."),
            ),
            ErrorKey::Status(status) if !(400..=599).contains(status) => c.report(
                &here,
                subject(tool),
                format!("status {text} is not an error: map a 4xx or 5xx status (e.g. 404), or a backend error code."),
            ),
            ErrorKey::Code(code) if code.parse::<u16>().is_ok() => c.report(
                &here,
                subject(tool),
                format!("`\"{code}\"` is quoted, so it reads as a backend error code. Write HTTP statuses as bare numbers, e.g. `{code}: {}`.", target.code()),
            ),
            ErrorKey::Code(code)
                if code.is_empty() || code.chars().any(|ch| ch.is_whitespace()) =>
            {
                c.report(
                    &here,
                    subject(tool),
                    format!("`{code}` is not a backend error code: use the `error.code` string the backend answers, e.g. `ambiguous`."),
                );
            }
            _ => {}
        }
        if !is_upper_snake(target.code()) {
            c.report(
                &here,
                subject(tool),
                format!(
                    "domain code `{}` must be UPPER_SNAKE_CASE (what agents branch on), e.g. TASK_NOT_FOUND.",
                    target.code()
                ),
            );
        }
        if let Some(message) = target.message() {
            let here = tool_at(i, &["errors", text.as_str(), "message"]);
            match template_variables(message) {
                Err(e) => c.report(
                    &here,
                    subject(tool),
                    format!("message template does not parse: {e}."),
                ),
                Ok(vars) => {
                    for var in vars {
                        let known = match var.split_once('.') {
                            Some(("input", field)) => inputs.contains(field),
                            Some(("backend", field)) => {
                                matches!(field, "status" | "code" | "message")
                            }
                            _ => false,
                        };
                        if !known {
                            c.report(
                                &here,
                                subject(tool),
                                format!("message template uses `{var}`; it can read `input.<input field>` and `backend.status`, `backend.code`, `backend.message`."),
                            );
                        }
                    }
                }
            }
        }
    }
}

/// The engine writes the follow-up hint into `next_step`, so the output must declare it.
fn check_follow_up(c: &mut Checker<'_>, i: usize, tool: &Tool) {
    let Some(follow) = tool.mutation.as_ref().and_then(|m| m.follow_up.as_ref()) else {
        return;
    };
    let declared = schema::properties(&tool.output)
        .into_iter()
        .find(|(name, _)| *name == "next_step")
        .is_some_and(|(_, s)| s.get("type").and_then(Value::as_str) == Some("string"));
    if !declared {
        c.report(
            &tool_at(i, &["mutation", "follow_up"]),
            subject(tool),
            format!("follow-up `{follow}` is named in the answer's `next_step`, which the output does not declare. Add `next_step: {{type: string}}` to the output properties."),
        );
    }
}
