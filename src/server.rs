//! The MCP face: rmcp's `ServerHandler`, written by hand and driven by the generated registry.
//! MCP model values are built from the registry's JSON and parsed into rmcp's types, so what
//! clients see is exactly what contract/ publishes.

use crate::access;
use crate::app::App;
use crate::client_log::SessionLogLevel;
use crate::completion::{self, CompletionError};
use crate::dispatch::{self, CallError};
use crate::handler::{ProgressSink, ToolContext, ToolError, capped, echo, log_internal};
use crate::spec::{Access, Mode, ToolSpec};
use rmcp::ServerHandler;
#[allow(deprecated)]
use rmcp::model::SetLevelRequestParams;
use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, CompleteRequestParams, CompleteResult,
    CompletionInfo, ContentBlock, ErrorData, GetPromptRequestParams, GetPromptResponse,
    GetPromptResult, Implementation, ListPromptsResult, ListResourcesResult, ListToolsResult,
    PaginatedRequestParams, ProgressNotificationParam, ProgressToken, Prompt, PromptMessage,
    ReadResourceRequestParams, ReadResourceResponse, ReadResourceResult, Reference, Resource,
    ResourceContents, ServerCapabilities, ServerConfig, Tool,
};
use rmcp::service::{Peer, RequestContext, RoleServer};
use serde::de::DeserializeOwned;
use serde_json::{Map, Value, json};
use std::collections::BTreeSet;
use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;

/// Scopes granted to one HTTP request by the key that authenticated it (set by the auth layer).
#[derive(Debug, Clone)]
pub struct GrantedScopes(pub Arc<BTreeSet<String>>);

#[derive(Clone)]
pub struct McpServer {
    app: Arc<App>,
    mode: Mode,
    /// Scopes for stdio; over HTTP each request carries its own.
    scopes: Arc<BTreeSet<String>>,
    /// This session's `logging/setLevel` choice.
    log_level: SessionLogLevel,
}

impl McpServer {
    /// One per session (stdio, each Streamable HTTP or SSE session), so the log level chosen by
    /// one client never applies to another.
    pub fn new(app: Arc<App>, mode: Mode, scopes: BTreeSet<String>) -> Self {
        McpServer {
            app,
            mode,
            scopes: Arc::new(scopes),
            log_level: SessionLogLevel::default(),
        }
    }

    fn scopes_for(&self, ctx: &RequestContext<RoleServer>) -> Arc<BTreeSet<String>> {
        if self.mode == Mode::RemoteHttp {
            // Fail closed: a Streamable HTTP server is built with no scopes of its own.
            // (Legacy SSE sessions carry the scopes of the key that opened them in `self.scopes`.)
            return ctx
                .extensions
                .get::<axum::http::request::Parts>()
                .and_then(|p| p.extensions.get::<GrantedScopes>())
                .map(|g| g.0.clone())
                .unwrap_or_else(|| self.scopes.clone());
        }
        self.scopes.clone()
    }

    fn tool_context(
        &self,
        ctx: &RequestContext<RoleServer>,
        progress: Option<Arc<dyn ProgressSink>>,
    ) -> ToolContext {
        ToolContext {
            app: self.app.clone(),
            mode: self.mode,
            scopes: self.scopes_for(ctx),
            progress,
            log: Some(self.log_level.sink(ctx.peer.clone(), self.app.surface.name)),
        }
    }

    fn visible_tools(
        &self,
        scopes: &BTreeSet<String>,
    ) -> impl Iterator<Item = &'static ToolSpec> + '_ {
        let surface = self.app.surface;
        let scopes = scopes.clone();
        let mode = self.mode;
        surface
            .tools
            .iter()
            .filter(move |t| access::visible(surface, t, mode, &scopes))
    }
}

fn from_json<T: DeserializeOwned>(value: Value) -> Result<T, ErrorData> {
    serde_json::from_value(value)
        .map_err(|e| ErrorData::internal_error(format!("cannot build an MCP value: {e}"), None))
}

/// The MCP tool definition of a registry entry (also what contract/ holds, plus annotations).
pub fn tool_json(tool: &ToolSpec) -> Value {
    let parse = |s: &str| serde_json::from_str::<Value>(s).unwrap_or(Value::Null);
    json!({
        "name": tool.name,
        "title": tool.title,
        "description": tool.description,
        "inputSchema": parse(tool.input_schema),
        "outputSchema": parse(tool.output_schema),
        "annotations": annotations(tool),
    })
}

/// All four hints, always set, derived from the access level (never left to client defaults).
pub fn annotations(tool: &ToolSpec) -> Value {
    json!({
        "title": tool.title,
        "readOnlyHint": tool.access == Access::Read,
        "destructiveHint": tool.access == Access::Destructive,
        "idempotentHint": tool.access == Access::Read,
        "openWorldHint": false,
    })
}

struct PeerProgress {
    peer: Peer<RoleServer>,
    token: ProgressToken,
}

impl ProgressSink for PeerProgress {
    fn report(
        &self,
        done: f64,
        total: Option<f64>,
        message: String,
    ) -> Pin<Box<dyn Future<Output = ()> + Send + '_>> {
        Box::pin(async move {
            let mut param =
                ProgressNotificationParam::new(self.token.clone(), done).with_message(message);
            if let Some(total) = total {
                param = param.with_total(total);
            }
            if let Err(e) = self.peer.notify_progress(param).await {
                tracing::debug!(error = %e, "progress notification not delivered");
            }
        })
    }
}

/// Domain failures become isError results an agent can act on; bad arguments and unknown
/// tools are protocol errors (-32602).
/// Over HTTP, internal failures answer a generic message with a reference (see
/// [`ToolError::to_client_json`]); every quoted input is capped.
pub fn call_result(
    outcome: Result<Value, CallError>,
    mode: Mode,
) -> Result<CallToolResult, ErrorData> {
    match outcome {
        Ok(value) => Ok(CallToolResult::structured(value)),
        Err(CallError::UnknownTool(name)) => Err(ErrorData::invalid_params(
            format!(
                "unknown tool `{}`: it does not exist, or this connection lacks its scope or runtime mode. Call tools/list.",
                echo(&name)
            ),
            None,
        )),
        Err(CallError::Tool(e @ ToolError::InvalidArguments { .. })) => Err(
            ErrorData::invalid_params(capped(&e.to_string()).into_owned(), None),
        ),
        Err(CallError::Tool(e)) => {
            let body = e.to_client_json(mode);
            Ok(CallToolResult::error(vec![ContentBlock::text(
                body.to_string(),
            )]))
        }
    }
}

impl ServerHandler for McpServer {
    #[allow(deprecated)] // the logging capability, see `set_level`
    fn get_info(&self) -> ServerConfig {
        let surface = self.app.surface;
        let mut capabilities = ServerCapabilities::builder()
            .enable_tools()
            .enable_prompts()
            .enable_resources()
            .enable_logging()
            .build();
        // Offered when the manifest declares a completion source for some prompt argument.
        if surface
            .prompts
            .iter()
            .flat_map(|p| p.arguments)
            .any(|a| a.complete.is_some())
        {
            capabilities.completions = Some(Default::default());
        }
        ServerConfig::new(capabilities)
            .with_server_info(
                Implementation::new(surface.name, surface.version).with_title(surface.title),
            )
            .with_instructions(surface.instructions)
    }

    fn get_tool(&self, name: &str) -> Option<Tool> {
        // Used by the HTTP layer for stateless calls; scopes are checked again at call time.
        let tool = self
            .app
            .surface
            .tool(name)
            .filter(|t| t.modes.contains(&self.mode))?;
        self.app.mcp_tool(tool).cloned()
    }

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        ctx: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        let scopes = self.scopes_for(&ctx);
        let tools = self
            .visible_tools(&scopes)
            .map(|t| {
                self.app.mcp_tool(t).cloned().ok_or_else(|| {
                    ErrorData::internal_error(
                        format!("the definition of tool {} is not a valid MCP Tool", t.name),
                        None,
                    )
                })
            })
            .collect::<Result<Vec<Tool>, _>>()?;
        Ok(ListToolsResult::with_all_items(tools))
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        ctx: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        let progress = ctx.meta.get_progress_token().map(|token| {
            Arc::new(PeerProgress {
                peer: ctx.peer.clone(),
                token,
            }) as Arc<dyn ProgressSink>
        });
        let tool_ctx = self.tool_context(&ctx, progress);
        let arguments = request
            .arguments
            .map(Value::Object)
            .unwrap_or_else(|| Value::Object(Map::new()));
        let name = request.name.to_string();
        let outcome = tokio::select! {
            outcome = dispatch::call(tool_ctx, &name, arguments) => outcome,
            () = ctx.ct.cancelled() => Err(CallError::Tool(ToolError::refused("cancelled", "the client cancelled the call"))),
        };
        if let Err(CallError::Tool(e)) = &outcome {
            tracing::info!(tool = %echo(&name), error = %capped(&e.to_string()), "tool call failed");
        }
        call_result(outcome, self.mode).map(Into::into)
    }

    #[allow(deprecated)] // logging/setLevel: deprecated for 2026-07-28 (SEP-2577), used by 2025 clients
    async fn set_level(
        &self,
        request: SetLevelRequestParams,
        _ctx: RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        self.log_level.set(request.level);
        Ok(())
    }

    async fn list_prompts(
        &self,
        _request: Option<PaginatedRequestParams>,
        _ctx: RequestContext<RoleServer>,
    ) -> Result<ListPromptsResult, ErrorData> {
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

    async fn complete(
        &self,
        request: CompleteRequestParams,
        ctx: RequestContext<RoleServer>,
    ) -> Result<CompleteResult, ErrorData> {
        let Reference::Prompt(prompt) = &request.r#ref else {
            return Err(ErrorData::invalid_params(
                format!(
                    "{} has no resource templates to complete; only prompt arguments complete (see prompts/list)",
                    self.app.surface.name
                ),
                None,
            ));
        };
        let filled: Map<String, Value> = request
            .context
            .and_then(|c| c.arguments)
            .unwrap_or_default()
            .into_iter()
            .map(|(k, v)| (k, Value::String(v)))
            .collect();
        let found = completion::complete(
            &self.tool_context(&ctx, None),
            &prompt.name,
            &request.argument.name,
            &request.argument.value,
            filled,
        )
        .await
        .map_err(|e| match e {
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

    async fn get_prompt(
        &self,
        request: GetPromptRequestParams,
        _ctx: RequestContext<RoleServer>,
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

    async fn list_resources(
        &self,
        _request: Option<PaginatedRequestParams>,
        _ctx: RequestContext<RoleServer>,
    ) -> Result<ListResourcesResult, ErrorData> {
        let resources = self
            .app
            .surface
            .resources
            .iter()
            .map(|r| from_json(json!({"uri": r.uri, "name": r.name, "title": r.title, "description": r.description, "mimeType": r.mime_type})))
            .collect::<Result<Vec<Resource>, _>>()?;
        Ok(ListResourcesResult::with_all_items(resources))
    }

    async fn read_resource(
        &self,
        request: ReadResourceRequestParams,
        _ctx: RequestContext<RoleServer>,
    ) -> Result<ReadResourceResponse, ErrorData> {
        let surface = self.app.surface;
        let resource = surface
            .resources
            .iter()
            .find(|r| r.uri == request.uri)
            .ok_or_else(|| {
                ErrorData::resource_not_found(
                    format!(
                        "unknown resource `{}`; call resources/list",
                        echo(&request.uri)
                    ),
                    None,
                )
            })?;
        let text =
            crate::templates::render(resource.template, surface, &Value::Null).map_err(|e| {
                ErrorData::internal_error(
                    format!("resource `{}` failed to render: {e}", resource.uri),
                    None,
                )
            })?;
        let contents: ResourceContents =
            from_json(json!({"uri": resource.uri, "mimeType": resource.mime_type, "text": text}))?;
        Ok(ReadResourceResult::new(vec![contents]).into())
    }
}
