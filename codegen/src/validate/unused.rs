//! An input of a mapped tool that nothing sends (no path, query or body template, no pagination
//! cursor, no mutation rule) is silently ignored: the client believes it chose something it did
//! not. Custom tools read their input in Rust, so they are not checked.

use super::{Checker, path_params, template_variables};
use crate::include;
use crate::locate::Step;
use crate::model::{HandlerKind, Manifest, Tool};
use crate::schema;
use std::collections::BTreeSet;

pub(super) fn check(c: &mut Checker<'_>, manifest: &Manifest, failed: &BTreeSet<String>) {
    for (i, tool) in manifest.tools.iter().enumerate() {
        if tool.handler != HandlerKind::Mapped
            || tool.nexus.is_none()
            || failed.contains(&format!("tool `{}`", tool.name))
        {
            continue;
        }
        let used = used_inputs(tool);
        for (prop, _) in schema::properties(&tool.input) {
            if used.contains(prop) {
                continue;
            }
            let included = tool.includes.input.iter().any(|name| {
                manifest
                    .types
                    .get(name)
                    .is_some_and(|t| schema::properties(t).iter().any(|(p, _)| *p == prop))
            });
            let mut at = vec![Step::from("tools"), Step::from(i), Step::from("input")];
            if included {
                at.push(Step::from(include::KEY));
            } else {
                at.extend([Step::from("properties"), Step::from(prop)]);
            }
            c.report(
                &at,
                Some(format!("tool `{}`", tool.name)),
                format!(
                    "input `{prop}` is never used: no nexus path, query or body template, pagination cursor or mutation rule reads it, so a client's value would be ignored. Send it (e.g. `query: {{{prop}: \"{{{{ input.{prop} }}}}\"}}`) or remove the input."
                ),
            );
        }
    }
}

/// Input names a mapped tool's declaration reads (its mapping, its questions, its rules).
fn used_inputs(tool: &Tool) -> BTreeSet<String> {
    let mut used = BTreeSet::new();
    let mut templates: Vec<&str> = Vec::new();
    if let Some(nexus) = &tool.nexus {
        used.extend(path_params(&nexus.path));
        templates.extend(
            nexus
                .query
                .values()
                .chain(nexus.body.values())
                .map(String::as_str),
        );
    }
    // A question's text shows the input to the person or model asked.
    for ask in tool.ask.iter().flat_map(|round| round.values()) {
        templates.extend(ask.elicit.as_ref().map(|e| e.message.as_str()));
        templates.extend(ask.sample.as_ref().map(|s| s.prompt.as_str()));
    }
    for template in templates {
        for var in template_variables(template).unwrap_or_default() {
            if let Some(field) = var.strip_prefix("input.") {
                used.insert(field.split('.').next().unwrap_or(field).to_owned());
            }
        }
    }
    if let Some(p) = &tool.pagination {
        used.insert(p.cursor.clone());
    }
    if let Some(m) = &tool.mutation {
        used.extend(m.dry_run.as_ref().map(|d| d.param.clone()));
        used.extend(m.require_true.iter().cloned());
        used.extend(m.plan_param.clone());
    }
    used
}
