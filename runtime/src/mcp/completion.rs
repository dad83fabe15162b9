//! completion/complete for prompt arguments and resource template variables, from the
//! manifest: a fixed list, or the strings a Nexus GET answers, for callers holding the
//! completion's scope. An argument with no declared source, or whose filled-in arguments Nexus
//! does not know, completes to nothing; nothing is guessed. The typed text is the source's
//! `input.<argument>`: a source that reads it matches and ranks itself (its order is kept, a
//! title word may complete to an id); other sources' values are filtered by prefix here.

use super::McpServer;
use crate::access;
use crate::app::ToolContext;
use crate::backend::mapping;
use crate::error::ToolError;
use crate::error::{capped, log_internal};
use crate::spec::Mode;
use crate::spec::{CompletionSpec, NexusSpec};
use rmcp::model::{CompleteRequestParams, CompleteResult, CompletionInfo, ErrorData, Reference};
use rmcp::service::{RequestContext, RoleServer};
use serde_json::{Map, Value};

/// The most values one answer carries (the MCP limit).
pub const MAX_VALUES: usize = 100;

/// Values for the typed prefix, at most [`MAX_VALUES`], and how many matched in all.
#[derive(Debug, PartialEq)]
pub struct Completions {
    pub values: Vec<String>,
    pub total: usize,
}

#[derive(Debug, thiserror::Error)]
pub enum CompletionError {
    #[error("unknown prompt `{0}`; call prompts/list")]
    UnknownPrompt(String),
    #[error("prompt `{prompt}` has no argument `{argument}`; its arguments are: {known}")]
    UnknownArgument {
        prompt: String,
        argument: String,
        known: String,
    },
    #[error("unknown resource template `{0}`; call resources/templates/list")]
    UnknownTemplate(String),
    #[error(
        "resource template `{template}` has no variable `{argument}`; its variables are: {known}"
    )]
    UnknownVariable {
        template: String,
        argument: String,
        known: String,
    },
    #[error("cannot read completion values from Nexus: {0}")]
    Nexus(#[from] ToolError),
}

/// Completes `argument` of `prompt` for the text typed so far, `typed`. `filled` holds the
/// prompt's other arguments the client already knows; the Nexus mapping reads them as `input`.
pub async fn complete(
    ctx: &ToolContext,
    prompt: &str,
    argument: &str,
    typed: &str,
    filled: Map<String, Value>,
) -> Result<Completions, CompletionError> {
    let surface = ctx.app.surface;
    let spec = surface
        .prompts
        .iter()
        .find(|p| p.name == prompt)
        .ok_or_else(|| CompletionError::UnknownPrompt(prompt.to_owned()))?;
    let arg = spec
        .arguments
        .iter()
        .find(|a| a.name == argument)
        .ok_or_else(|| CompletionError::UnknownArgument {
            prompt: prompt.to_owned(),
            argument: argument.to_owned(),
            known: spec
                .arguments
                .iter()
                .map(|a| a.name)
                .collect::<Vec<_>>()
                .join(", "),
        })?;
    let what = format!("completion of prompt `{prompt}`, argument `{argument}`");
    source_values(ctx, &what, arg.complete.as_ref(), argument, typed, filled).await
}

/// Completes variable `argument` of the resource template `uri_template`, like [`complete`].
/// A template the caller may not read (its scope) is unknown to it.
pub async fn complete_resource(
    ctx: &ToolContext,
    uri_template: &str,
    argument: &str,
    typed: &str,
    filled: Map<String, Value>,
) -> Result<Completions, CompletionError> {
    let surface = ctx.app.surface;
    let resource = surface
        .resources
        .iter()
        .filter(|r| r.is_template())
        .filter(|r| {
            r.scope
                .is_none_or(|s| access::scope_usable(surface, s, ctx.mode, &ctx.scopes))
        })
        .find(|r| r.uri == uri_template)
        .ok_or_else(|| CompletionError::UnknownTemplate(uri_template.to_owned()))?;
    let variables = crate::uri_template::variables(resource.uri).unwrap_or_default();
    if !variables.iter().any(|v| v == argument) {
        return Err(CompletionError::UnknownVariable {
            template: uri_template.to_owned(),
            argument: argument.to_owned(),
            known: variables.join(", "),
        });
    }
    let complete = resource
        .complete
        .iter()
        .find(|(name, _)| *name == argument)
        .map(|(_, c)| c);
    let what = format!("completion of resource template `{uri_template}`, variable `{argument}`");
    source_values(ctx, &what, complete, argument, typed, filled).await
}

/// The completions of `argument` for `typed`: in the source's order when the source reads the
/// typed text (it matched and ranked), else the source's values starting with it.
async fn source_values(
    ctx: &ToolContext,
    what: &str,
    complete: Option<&CompletionSpec>,
    argument: &str,
    typed: &str,
    mut filled: Map<String, Value>,
) -> Result<Completions, CompletionError> {
    filled
        .entry(argument.to_owned())
        .or_insert_with(|| Value::String(typed.to_owned()));
    let ranked =
        matches!(complete, Some(CompletionSpec::Nexus { nexus, .. }) if reads(nexus, argument));
    let values = candidates(ctx, what, complete, filled).await?;
    Ok(if ranked {
        matching(values, "")
    } else {
        matching(values, typed)
    })
}

/// Whether the mapping `nexus` reads `input.<name>` (the typed text of the argument completed).
fn reads(nexus: &NexusSpec, name: &str) -> bool {
    let templates = nexus
        .query
        .iter()
        .chain(nexus.body.iter())
        .map(|(_, t)| *t)
        .chain([nexus.path]);
    templates.into_iter().any(|t| {
        t.split("input.").skip(1).any(|rest| {
            rest.strip_prefix(name)
                .is_some_and(|after| !after.starts_with(|c: char| c.is_alphanumeric() || c == '_'))
        })
    })
}

/// Every value a completion source offers this caller.
async fn candidates(
    ctx: &ToolContext,
    what: &str,
    complete: Option<&CompletionSpec>,
    filled: Map<String, Value>,
) -> Result<Vec<String>, ToolError> {
    let surface = ctx.app.surface;
    Ok(match complete {
        None => Vec::new(),
        Some(CompletionSpec::Values(values)) => values.iter().map(|v| (*v).to_owned()).collect(),
        Some(CompletionSpec::Nexus { nexus, pick, scope })
            if access::scope_usable(surface, scope, ctx.mode, &ctx.scopes) =>
        {
            from_nexus(ctx, what, nexus, pick, filled).await?
        }
        // Values this caller could not read through any tool are not shown here either.
        Some(CompletionSpec::Nexus { .. }) => Vec::new(),
    })
}

/// The strings at `pick` in the answer to `nexus`, rendered from the filled-in arguments.
async fn from_nexus(
    ctx: &ToolContext,
    what: &str,
    nexus: &NexusSpec,
    pick: &str,
    filled: Map<String, Value>,
) -> Result<Vec<String>, ToolError> {
    let request = mapping::render(what, nexus, &Value::Object(filled))?;
    let answer = match ctx.nexus(&request).await {
        Ok(answer) => answer,
        // The arguments filled in so far name something Nexus does not know (a repository
        // still being typed): nothing completes.
        Err(ToolError::NotFound { .. }) => return Ok(Vec::new()),
        Err(e) => return Err(e),
    };
    let mut found = Vec::new();
    strings_at(&answer, &pick.split('.').collect::<Vec<_>>(), &mut found);
    Ok(found)
}

/// The strings at a dotted path; `*` takes every item of an array, and arrays met on the way
/// are walked through. Numbers and booleans count as their text.
fn strings_at(value: &Value, path: &[&str], out: &mut Vec<String>) {
    match (value, path.split_first()) {
        (Value::Array(items), Some((&"*", rest))) => {
            items.iter().for_each(|v| strings_at(v, rest, out));
        }
        (Value::Array(items), _) => items.iter().for_each(|v| strings_at(v, path, out)),
        (Value::Object(map), Some((key, rest))) => {
            if let Some(v) = map.get(*key) {
                strings_at(v, rest, out);
            }
        }
        (Value::String(s), None) => out.push(s.clone()),
        (Value::Number(n), None) => out.push(n.to_string()),
        (Value::Bool(b), None) => out.push(b.to_string()),
        _ => {}
    }
}

/// Candidates starting with `typed` (ignoring ASCII case), each once, in the source's order.
fn matching(candidates: Vec<String>, typed: &str) -> Completions {
    let mut seen = std::collections::HashSet::new();
    let all: Vec<String> = candidates
        .into_iter()
        .filter(|c| {
            c.get(..typed.len())
                .is_some_and(|head| head.eq_ignore_ascii_case(typed))
        })
        .filter(|c| seen.insert(c.clone()))
        .collect();
    let total = all.len();
    Completions {
        values: all.into_iter().take(MAX_VALUES).collect(),
        total,
    }
}

impl McpServer {
    pub(super) async fn completion_complete(
        &self,
        request: CompleteRequestParams,
        ctx: RequestContext<RoleServer>,
    ) -> Result<CompleteResult, ErrorData> {
        let filled: Map<String, Value> = request
            .context
            .and_then(|c| c.arguments)
            .unwrap_or_default()
            .into_iter()
            .map(|(k, v)| (k, Value::String(v)))
            .collect();
        let tool_ctx = self.tool_context(&ctx, None);
        let (argument, typed) = (&request.argument.name, &request.argument.value);
        let found = match &request.r#ref {
            Reference::Prompt(prompt) => {
                complete(&tool_ctx, &prompt.name, argument, typed, filled).await
            }
            Reference::Resource(template) => {
                complete_resource(&tool_ctx, &template.uri, argument, typed, filled).await
            }
            _ => {
                return Err(ErrorData::invalid_params(
                    "completion/complete completes `ref/prompt` and `ref/resource` references only",
                    None,
                ));
            }
        };
        let found = found
        .map_err(|e| match e {
            // The caller's to fix (e.g. a workspace to name among several): said as it is.
            CompletionError::Nexus(ref t) if t.is_callers() => ErrorData::invalid_params(
                capped(&format!(
                    "the completion source refuses the arguments filled in so far: {}",
                    t.to_client_json(self.mode)
                ))
                .into_owned(),
                None,
            ),
            CompletionError::Nexus(_) if self.mode == Mode::RemoteHttp => {
                ErrorData::internal_error(
                    format!(
                        "completion failed on the server; the operator finds the details in its log under reference {}",
                        log_internal(&e)
                    ),
                    None,
                )
            }
            CompletionError::Nexus(_) => {
                ErrorData::internal_error(capped(&e.to_string()).into_owned(), None)
            }
            _ => ErrorData::invalid_params(capped(&e.to_string()).into_owned(), None),
        })?;
        let total = u32::try_from(found.total).unwrap_or(u32::MAX);
        let has_more = found.total > found.values.len();
        let info = CompletionInfo::with_pagination(found.values, Some(total), has_more)
            .map_err(|e| ErrorData::internal_error(e, None))?;
        Ok(CompleteResult::new(info))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn strings_are_picked_through_arrays_and_wildcards() {
        let answer = json!({"items": [
            {"name": "acme/shop", "branches": ["main", "dev"]},
            {"name": "acme/api", "branches": ["main"]},
            {"other": 1},
        ]});
        let mut names = Vec::new();
        strings_at(&answer, &["items", "*", "name"], &mut names);
        assert_eq!(names, ["acme/shop", "acme/api"]);
        let mut branches = Vec::new();
        strings_at(&answer, &["items", "branches"], &mut branches);
        assert_eq!(branches, ["main", "dev", "main"]);
    }

    #[test]
    fn a_source_reading_the_typed_text_is_recognised_by_the_argument_name() {
        let spec = NexusSpec {
            method: crate::spec::HttpMethod::Get,
            path: "/api/v1/docs/tasks",
            query: &[
                ("match", "{{ input.taskId }}"),
                ("workspace", "{{ input.workspace }}"),
            ],
            body: &[],
        };
        assert!(reads(&spec, "taskId") && reads(&spec, "workspace"));
        assert!(!reads(&spec, "task") && !reads(&spec, "taskIdx") && !reads(&spec, "id"));
    }

    #[test]
    fn matching_filters_by_prefix_once_each_and_caps_at_the_mcp_limit() {
        let got = matching(
            vec![
                "acme/shop".into(),
                "Acme/API".into(),
                "beta/x".into(),
                "acme/shop".into(),
            ],
            "acme/",
        );
        assert_eq!(
            got,
            Completions {
                values: vec!["acme/shop".into(), "Acme/API".into()],
                total: 2
            }
        );
        let many: Vec<String> = (0..250).map(|i| format!("r{i}")).collect();
        let got = matching(many, "");
        assert_eq!((got.values.len(), got.total), (MAX_VALUES, 250));
        assert!(matching(vec!["é/x".into()], "e").values.is_empty());
    }
}
