//! prompts/list and prompts/get: the manifest's prompts, rendered with minijinja. A prompt with
//! `call:` runs that tool first through the same dispatch as tools/call (scopes, validation,
//! budget and redaction apply) and renders its result as `result`. A failed call fails the
//! prompt with the tool's message: a prompt rendered around a missing result would read as
//! if the data were there.

use super::content::render_block;
use super::{McpServer, from_json};
use crate::call::{self, CallError, ask};
use crate::error::{capped, echo};
use crate::spec::PromptSpec;
use rmcp::model::{
    ErrorData, GetPromptRequestParams, GetPromptResponse, GetPromptResult, ListPromptsResult,
    Prompt, PromptMessage,
};
use rmcp::service::{RequestContext, RoleServer};
use serde_json::{Map, Value, json};

impl McpServer {
    pub(super) fn prompts_list(&self) -> Result<ListPromptsResult, ErrorData> {
        // Items come from the registry's JSON; the list type from rmcp's constructor, which sets
        // the fields each protocol version needs (resultType for 2026-07-28).
        let prompts = self
            .app
            .surface
            .prompts
            .iter()
            .map(|p| {
                let args: Vec<Value> = p.arguments.iter().map(|a| json!({"name": a.name, "description": a.description, "required": a.required})).collect();
                from_json(json!({"name": p.name, "title": p.title, "description": p.description, "arguments": args}))
            })
            .collect::<Result<Vec<Prompt>, _>>()?;
        // The same prompts for every caller, fixed per build.
        Ok(ListPromptsResult::with_all_items(prompts)
            .with_ttl_ms(super::LIST_TTL_MS)
            .with_cache_scope(rmcp::model::CacheScope::Public))
    }

    pub(super) async fn prompts_get(
        &self,
        request: GetPromptRequestParams,
        ctx: RequestContext<RoleServer>,
    ) -> Result<GetPromptResponse, ErrorData> {
        let surface = self.app.surface;
        let prompt = surface
            .prompts
            .iter()
            .find(|p| p.name == request.name)
            .ok_or_else(|| {
                ErrorData::invalid_params(
                    format!(
                        "unknown prompt `{}`; call prompts/list",
                        echo(&request.name)
                    ),
                    None,
                )
            })?;
        let args = request.arguments.clone().unwrap_or_default();
        if let Some(missing) = prompt
            .arguments
            .iter()
            .find(|a| a.required && !args.contains_key(a.name))
        {
            return Err(ErrorData::invalid_params(
                format!(
                    "prompt `{}` needs argument `{}`: {}",
                    prompt.name, missing.name, missing.description
                ),
                None,
            ));
        }
        let args = Value::Object(args);
        let answers = if prompt.ask.is_empty() {
            Value::Null
        } else {
            let mut asked = self.tool_context(&ctx, None);
            asked.asking = Some(std::sync::Arc::new(super::tools::asking(
                &ctx,
                request.input_responses.clone(),
                request.request_state.clone(),
            )));
            match ask::gather_prompt(&asked, prompt, &args).await {
                Ok(answers) => answers,
                Err(CallError::InputRequired(result)) => {
                    return Ok(GetPromptResponse::InputRequired(*result));
                }
                Err(e) => return Err(super::tools::protocol_error(e, self.mode)),
            }
        };
        let result = match &prompt.call {
            Some(_) => Some(self.prompt_call(prompt, &args, &ctx).await?),
            None => None,
        };
        let server = json!({"name": surface.name, "title": surface.title, "version": surface.version, "instructions": surface.instructions, "result_budget": surface.result_budget});
        let vars = json!({"server": server, "args": args, "result": result, "answers": answers});
        let failed = |e: minijinja::Error| {
            ErrorData::internal_error(
                format!("prompt `{}` failed to render: {e}", prompt.name),
                None,
            )
        };
        let messages: Vec<Value> = if prompt.messages.is_empty() {
            let text = crate::templates::env()
                .render_str(
                    prompt.template,
                    minijinja::Value::from(minijinja::value::Serde(&vars)),
                )
                .map_err(failed)?;
            vec![json!({"role": "user", "content": {"type": "text", "text": text}})]
        } else {
            prompt
                .messages
                .iter()
                .map(|m| {
                    render_block(&m.content, &vars)
                        .map(|content| json!({"role": m.role.as_str(), "content": content}))
                })
                .collect::<Result<_, _>>()
                .map_err(failed)?
        };
        let messages = messages
            .into_iter()
            .map(from_json)
            .collect::<Result<Vec<PromptMessage>, _>>()?;
        Ok(GetPromptResult::new(messages)
            .with_description(prompt.description)
            .into())
    }

    /// Runs the prompt's tool with its rendered arguments; the trimmed result.
    async fn prompt_call(
        &self,
        prompt: &PromptSpec,
        args: &Value,
        ctx: &RequestContext<RoleServer>,
    ) -> Result<Value, ErrorData> {
        let Some(spec) = &prompt.call else {
            return Ok(Value::Null);
        };
        let context = json!({"args": args});
        let mut arguments = Map::new();
        for (name, template) in spec.arguments {
            let text = crate::templates::env()
                .render_str(template, minijinja::Value::from(minijinja::value::Serde(&context)))
                .map_err(|e| {
                    ErrorData::internal_error(
                        format!(
                            "prompt `{}`: argument `{name}` of its call to `{}` failed to render: {e}",
                            prompt.name, spec.tool
                        ),
                        None,
                    )
                })?;
            // An argument the prompt was not given renders empty: leave it out, so the tool's
            // own default applies.
            if !text.is_empty() {
                arguments.insert((*name).to_owned(), Value::String(text));
            }
        }
        let outcome = call::call(
            self.tool_context(ctx, None),
            spec.tool,
            Value::Object(arguments),
        )
        .await;
        outcome.map_err(|e| {
            // Arguments the tool refuses came from the prompt's arguments: the caller's to fix.
            if let CallError::Tool(invalid @ crate::error::ToolError::InvalidArguments { .. }) = &e {
                return ErrorData::invalid_params(
                    capped(&format!(
                        "prompt `{}` calls `{}` with its arguments, which the tool refuses: {invalid}",
                        prompt.name, spec.tool
                    ))
                    .into_owned(),
                    None,
                );
            }
            // So are the tool's other caller errors (an unknown id, a workspace to name).
            if let CallError::Tool(t) = &e
                && t.is_callers()
            {
                return ErrorData::invalid_params(
                    capped(&format!(
                        "prompt `{}` calls `{}` first, and the call failed: {}",
                        prompt.name,
                        spec.tool,
                        t.to_client_json(self.mode)
                    ))
                    .into_owned(),
                    None,
                );
            }
            let why = match &e {
                CallError::UnknownTool(_) => format!(
                    "this connection cannot call `{}` (scope or runtime mode)",
                    spec.tool
                ),
                CallError::Tool(t) => t.to_client_json(self.mode).to_string(),
                // A prompt's call has no client round trip of its own.
                other => other.to_string(),
            };
            ErrorData::internal_error(
                capped(&format!(
                    "prompt `{}` calls `{}` first, and the call failed: {why}",
                    prompt.name, spec.tool
                ))
                .into_owned(),
                None,
            )
        })
    }
}
