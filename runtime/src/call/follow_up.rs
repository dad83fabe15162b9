//! `mutation.follow_up`: after a real (not dry) run of a mutation, the answer's `next_step`
//! names the tool to call next, when the tool did not write one itself and the caller can
//! reach that tool (directly, or as a capability through the use meta-tool).

use crate::access;
use crate::app::ToolContext;
use crate::spec::{MutationSpec, ToolSpec};
use serde_json::Value;

/// Whether these arguments run the mutation for real (the dry-run switch, or its default).
pub fn real_run(rules: &MutationSpec, arguments: &Value) -> bool {
    match rules.dry_run_param {
        Some(param) => !arguments
            .get(param)
            .and_then(Value::as_bool)
            .unwrap_or(rules.dry_run_default),
        None => true,
    }
}

/// Adds `next_step` to a successful answer of `tool` (before the budget is applied).
pub fn add(ctx: &ToolContext, tool: &ToolSpec, arguments: &Value, raw: &mut Value) {
    let Some(rules) = &tool.mutation else { return };
    let Some(follow) = rules.follow_up else {
        return;
    };
    if !real_run(rules, arguments) {
        return;
    }
    let Some(obj) = raw.as_object_mut() else {
        return;
    };
    if obj
        .get("next_step")
        .and_then(Value::as_str)
        .is_some_and(|s| !s.is_empty())
    {
        return;
    }
    let surface = ctx.app.surface;
    let Some(next) = surface
        .tool(follow)
        .filter(|t| access::visible(surface, t, ctx.mode, &ctx.scopes))
    else {
        return;
    };
    let how = match (&surface.capabilities, next.listed) {
        (Some(caps), false) => format!("call {} with capability \"{}\"", caps.use_tool, next.name),
        _ => format!("call {}", next.name),
    };
    obj.insert(
        "next_step".to_owned(),
        Value::String(format!(
            "{} ran. Next: {how} ({}) to check its effect.",
            tool.name, next.title
        )),
    );
}
