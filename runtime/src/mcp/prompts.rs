//! prompts/list and prompts/get: the manifest's prompts, rendered with minijinja.

use super::{McpServer, from_json};
use crate::error::echo;
use rmcp::model::{
    ErrorData, GetPromptRequestParams, GetPromptResponse, GetPromptResult, ListPromptsResult,
    Prompt, PromptMessage,
};
use serde_json::{Value, json};

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
        Ok(ListPromptsResult::with_all_items(prompts))
    }

    pub(super) fn prompts_get(
        &self,
        request: GetPromptRequestParams,
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
        let text = crate::templates::render(prompt.template, surface, &Value::Object(args))
            .map_err(|e| {
                ErrorData::internal_error(
                    format!("prompt `{}` failed to render: {e}", prompt.name),
                    None,
                )
            })?;
        let message: PromptMessage =
            from_json(json!({"role": "user", "content": {"type": "text", "text": text}}))?;
        Ok(GetPromptResult::new(vec![message])
            .with_description(prompt.description)
            .into())
    }
}
