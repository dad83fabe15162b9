//! The two meta-tools in front of a surface's capabilities (tools declared `listed: false`):
//! `use_capability` runs one through the same dispatch as any tool call ([`super::run`]), so
//! its scope, validation, defaults, mutation rules, budget, envelope and redaction all apply;
//! `list_capabilities` names the ones this caller may use. A capability the caller's scopes or
//! mode do not allow is answered exactly like one that does not exist.

use super::{CallError, run};
use crate::access;
use crate::app::ToolContext;
use crate::error::{ToolError, echo};
use crate::spec::ToolSpec;
use serde_json::{Map, Value, json};
use std::future::Future;
use std::pin::Pin;

/// Longest one-line summary list_capabilities gives.
const SUMMARY_MAX: usize = 160;

/// The capabilities `ctx`'s caller may use, in manifest order.
fn usable(ctx: &ToolContext) -> impl Iterator<Item = &'static ToolSpec> + '_ {
    let surface = ctx.app.surface;
    surface
        .tools
        .iter()
        .filter(move |t| !t.listed && access::visible(surface, t, ctx.mode, &ctx.scopes))
}

fn find(ctx: &ToolContext, name: &str) -> Option<&'static ToolSpec> {
    usable(ctx).find(|t| t.name == name)
}

fn list_tool(ctx: &ToolContext) -> &'static str {
    ctx.app
        .surface
        .capabilities
        .as_ref()
        .map_or("list_capabilities", |c| c.list_tool)
}

/// Unknown, out of scope and wrong mode read the same: hidden means hidden.
fn unknown(ctx: &ToolContext, name: &str) -> ToolError {
    let list_tool = list_tool(ctx);
    let names: Vec<&str> = usable(ctx).map(|t| t.name).collect();
    ToolError::refused(
        "unknown_capability",
        format!(
            "unknown capability `{}`: it does not exist, or this connection lacks its scope or runtime mode. Capabilities you can use: {}. {list_tool} describes them.",
            echo(name),
            names.join(", ")
        ),
    )
}

/// `use_capability {capability, arguments}`: the capability's own answer, or its own error
/// (naming the capability, not the meta-tool).
pub(super) fn use_capability(
    ctx: ToolContext,
    arguments: Value,
) -> Pin<Box<dyn Future<Output = Result<Value, CallError>> + Send>> {
    Box::pin(async move {
        let name = arguments
            .get("capability")
            .and_then(Value::as_str)
            .unwrap_or_default()
            .to_owned();
        let Some(capability) = find(&ctx, &name) else {
            return Err(unknown(&ctx, &name).into());
        };
        let inner = arguments
            .get("arguments")
            .cloned()
            .unwrap_or_else(|| Value::Object(Map::new()));
        let list_tool = list_tool(&ctx);
        // The capability's own errors name it; a schema problem also says where its schema is.
        run(ctx, capability, inner).await.map_err(|e| match e {
            CallError::Tool(ToolError::InvalidArguments {
                tool,
                message,
                mut problems,
            }) => {
                // Fields point into this call's arguments, where the capability's sit under
                // `arguments`.
                for problem in &mut problems {
                    problem.field = format!("/arguments{}", problem.field);
                }
                CallError::Tool(ToolError::InvalidArguments {
                    message: format!(
                        "{message}. Its input schema: {list_tool} with capability=\"{tool}\"."
                    ),
                    tool,
                    problems,
                })
            }
            other => other,
        })
    })
}

/// `list_capabilities {capability?, include_schemas?}`.
pub(super) fn list(ctx: &ToolContext, arguments: &Value) -> Result<Value, ToolError> {
    let only = arguments.get("capability").and_then(Value::as_str);
    let schemas = only.is_some()
        || arguments
            .get("include_schemas")
            .and_then(Value::as_bool)
            .unwrap_or(false);
    let chosen: Vec<&'static ToolSpec> = match only {
        Some(name) => vec![find(ctx, name).ok_or_else(|| unknown(ctx, name))?],
        None => usable(ctx).collect(),
    };
    let capabilities: Vec<Value> = chosen
        .into_iter()
        .map(|t| {
            let mut entry = json!({
                "name": t.name,
                "title": t.title,
                "summary": summary(t.description),
                "access": t.access.as_str(),
            });
            if schemas {
                entry["inputSchema"] = ctx.app.input_schema(t).cloned().unwrap_or(Value::Null);
            }
            entry
        })
        .collect();
    Ok(json!({ "capabilities": capabilities }))
}

/// The first sentence of a description, on one line, within [`SUMMARY_MAX`] characters.
fn summary(description: &str) -> String {
    let flat = description.split_whitespace().collect::<Vec<_>>().join(" ");
    let first = match flat.find(". ") {
        Some(end) => &flat[..=end],
        None => flat.as_str(),
    };
    match first.char_indices().nth(SUMMARY_MAX) {
        None => first.to_owned(),
        Some((at, _)) => format!("{}…", &first[..at]),
    }
}

#[cfg(test)]
mod tests {
    use super::summary;

    #[test]
    fn summaries_are_the_first_sentence_on_one_line() {
        assert_eq!(
            summary("Read the CI gate verdict.\n  Violations with path and line. More."),
            "Read the CI gate verdict."
        );
        assert_eq!(summary("No full stop"), "No full stop");
        let long = "a".repeat(400);
        assert_eq!(summary(&long).chars().count(), SUMMARY_MAX_PLUS_ELLIPSIS);
    }

    const SUMMARY_MAX_PLUS_ELLIPSIS: usize = super::SUMMARY_MAX + 1;
}
