//! tools/list and tools/call: the MCP tool definitions of the registry and one call's result.

use super::McpServer;
use crate::access;
use crate::asking::{Asking, Channel};
use crate::call::{self, CallError};
use crate::error::{ToolError, capped, echo};
use crate::log::ProgressSink;
use crate::spec::{Mode, ToolSpec};
use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, ContentBlock, ErrorCode, ErrorData,
    ListToolsResult, ProgressNotificationParam, ProgressToken, Tool,
};
use rmcp::service::{Peer, RequestContext, RoleServer};
use serde_json::{Map, Value, json};
use std::collections::BTreeSet;
use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;

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

/// Failures of a call become isError results an agent can act on, bad arguments included (MCP
/// 2025-11-25, SEP-1303: the model sees the field and the rule and corrects itself). Only an
/// unknown tool is a protocol error (-32602). Over HTTP, internal failures answer a generic
/// message with a reference (see [`ToolError::to_client_json`]); every quoted input is capped.
/// The body is JSON text content only: a `structuredContent` would have to match the tool's
/// output schema, which the TypeScript SDK checks even on errors.
pub fn call_result(
    outcome: Result<Value, CallError>,
    mode: Mode,
) -> Result<CallToolResponse, ErrorData> {
    match outcome {
        Ok(value) => Ok(CallToolResult::structured(value).into()),
        Err(CallError::InputRequired(result)) => Ok(CallToolResponse::InputRequired(*result)),
        Err(CallError::Tool(e)) => {
            let body = e.to_client_json(mode);
            Ok(CallToolResult::error(vec![ContentBlock::text(body.to_string())]).into())
        }
        Err(e) => Err(protocol_error(e, mode)),
    }
}

/// The JSON-RPC error of a call that failed at the protocol level: an unknown tool, a client
/// capability it needs (-32021), an input-required exchange gone wrong (-32602).
pub(super) fn protocol_error(e: CallError, mode: Mode) -> ErrorData {
    match e {
        CallError::UnknownTool(name) => ErrorData::invalid_params(
            format!(
                "unknown tool `{}`: it does not exist, or this connection lacks its scope or runtime mode. Call tools/list.",
                echo(&name)
            ),
            None,
        ),
        CallError::MissingCapability { tool, capabilities } => {
            let required: Map<String, Value> = capabilities
                .iter()
                .map(|c| ((*c).to_owned(), json!({})))
                .collect();
            ErrorData::new(
                ErrorCode::MISSING_REQUIRED_CLIENT_CAPABILITY,
                format!(
                    "`{tool}` needs a client that supports {}: declare it in the client's capabilities, or use another client",
                    capabilities.join(" and ")
                ),
                Some(json!({"requiredCapabilities": required})),
            )
        }
        CallError::Tool(t) => ErrorData::invalid_params(t.to_client_json(mode).to_string(), None),
        e @ (CallError::InputRequired(_)
        | CallError::BadRequestState
        | CallError::BadInputResponse(_)) => ErrorData::invalid_params(e.to_string(), None),
    }
}

impl McpServer {
    pub(super) fn visible_tools(
        &self,
        scopes: &BTreeSet<String>,
    ) -> impl Iterator<Item = &'static ToolSpec> + '_ {
        let surface = self.app.surface;
        let scopes = scopes.clone();
        let mode = self.mode;
        surface
            .tools
            .iter()
            .filter(move |t| access::listed(surface, t, mode, &scopes))
    }

    pub(super) fn tool(&self, name: &str) -> Option<Tool> {
        // Used by the HTTP layer for stateless calls; scopes are checked again at call time.
        let tool = self
            .app
            .surface
            .tool(name)
            .filter(|t| t.listed && t.modes.contains(&self.mode))?;
        self.app.mcp_tool(tool).cloned()
    }

    pub(super) fn tools_list(
        &self,
        ctx: &RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        let scopes = self.scopes_for(ctx);
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
        Ok(ListToolsResult::with_all_items(tools)
            .with_ttl_ms(super::LIST_TTL_MS)
            .with_cache_scope(rmcp::model::CacheScope::Private))
    }

    pub(super) async fn tools_call(
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
        let mut tool_ctx = self.tool_context(&ctx, progress);
        // Only a tool that may ask (or the meta-tool that runs one) pays for reading the
        // client's capabilities.
        let may_ask = self
            .app
            .surface
            .tool(&request.name)
            .is_some_and(|t| t.may_ask());
        if may_ask {
            tool_ctx.asking = Some(Arc::new(asking(
                &ctx,
                request.input_responses.clone(),
                request.request_state.clone(),
            )));
        }
        let arguments = request
            .arguments
            .map(Value::Object)
            .unwrap_or_else(|| Value::Object(Map::new()));
        let name = request.name.to_string();
        // A tool declaring `content:` renders its blocks from the result and its input.
        let content_tool = self
            .app
            .surface
            .tool(&name)
            .filter(|t| !t.content.is_empty());
        let input = content_tool.map(|_| arguments.clone());
        let outcome = tokio::select! {
            outcome = call::call(tool_ctx, &name, arguments) => outcome,
            () = ctx.ct.cancelled() => Err(CallError::Tool(ToolError::refused("cancelled", "the client cancelled the call"))),
        };
        if let Err(CallError::Tool(e)) = &outcome {
            tracing::info!(tool = %echo(&name), error = %capped(&e.to_string()), "tool call failed");
        }
        if let (Some(tool), Ok(value)) = (content_tool, &outcome) {
            return Ok(with_content(tool, value.clone(), input.unwrap_or_default()).into());
        }
        call_result(outcome, self.mode)
    }
}

/// How the client of this request is asked: on its 2025 session, or (a request carrying its
/// protocol version in `_meta`, 2026-07-28) by an input-required result it retries with
/// `responses` and `state`.
pub(super) fn asking(
    ctx: &RequestContext<RoleServer>,
    responses: Option<rmcp::model::InputResponses>,
    state: Option<String>,
) -> Asking {
    let capabilities = ctx
        .client_capabilities()
        .and_then(|c| serde_json::to_value(c).ok())
        .unwrap_or(Value::Null);
    let channel = if ctx.meta.protocol_version().is_some() {
        Channel::Stateless { responses, state }
    } else {
        Channel::Session(ctx.peer.clone())
    };
    Asking {
        capabilities,
        channel,
    }
}
/// A result whose content blocks come from the manifest's `content:`; the answer stays the
/// structured content (every tool has an output schema).
fn with_content(tool: &ToolSpec, value: Value, input: Value) -> CallToolResult {
    let vars = json!({"result": value, "input": input});
    let blocks = super::content::render_blocks(tool.content, &vars)
        .map_err(|e| e.to_string())
        .and_then(|b| {
            serde_json::from_value::<Vec<ContentBlock>>(Value::Array(b)).map_err(|e| e.to_string())
        });
    match blocks {
        Ok(blocks) => {
            let mut result = CallToolResult::structured(value);
            result.content = blocks;
            result
        }
        Err(e) => {
            tracing::error!(tool = tool.name, error = %e, "tool content does not render");
            CallToolResult::error(vec![ContentBlock::text(format!(
                "the result of `{}` could not be turned into its declared content ({e}); this is a manifest problem, tell the operator",
                tool.name
            ))])
        }
    }
}
