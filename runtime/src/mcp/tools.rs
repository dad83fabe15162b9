//! tools/list and tools/call: the MCP tool definitions of the registry and one call's result.

use super::McpServer;
use crate::access;
use crate::call::{self, CallError};
use crate::error::{ToolError, capped, echo};
use crate::log::ProgressSink;
use crate::spec::{Access, Mode, ToolSpec};
use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, ContentBlock, ErrorData,
    ListToolsResult, ProgressNotificationParam, ProgressToken, Tool,
};
use rmcp::service::{Peer, RequestContext, RoleServer};
use serde_json::{Map, Value, json};
use std::collections::BTreeSet;
use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;

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

/// Failures of a call become isError results an agent can act on, bad arguments included (MCP
/// 2025-11-25, SEP-1303: the model sees the field and the rule and corrects itself). Only an
/// unknown tool is a protocol error (-32602). Over HTTP, internal failures answer a generic
/// message with a reference (see [`ToolError::to_client_json`]); every quoted input is capped.
/// The body is JSON text content only: a `structuredContent` would have to match the tool's
/// output schema, which the TypeScript SDK checks even on errors.
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
        Err(CallError::Tool(e)) => {
            let body = e.to_client_json(mode);
            Ok(CallToolResult::error(vec![ContentBlock::text(
                body.to_string(),
            )]))
        }
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
            .filter(move |t| access::visible(surface, t, mode, &scopes))
    }

    pub(super) fn tool(&self, name: &str) -> Option<Tool> {
        // Used by the HTTP layer for stateless calls; scopes are checked again at call time.
        let tool = self
            .app
            .surface
            .tool(name)
            .filter(|t| t.modes.contains(&self.mode))?;
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
        Ok(ListToolsResult::with_all_items(tools))
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
        let tool_ctx = self.tool_context(&ctx, progress);
        let arguments = request
            .arguments
            .map(Value::Object)
            .unwrap_or_else(|| Value::Object(Map::new()));
        let name = request.name.to_string();
        let outcome = tokio::select! {
            outcome = call::call(tool_ctx, &name, arguments) => outcome,
            () = ctx.ct.cancelled() => Err(CallError::Tool(ToolError::refused("cancelled", "the client cancelled the call"))),
        };
        if let Err(CallError::Tool(e)) = &outcome {
            tracing::info!(tool = %echo(&name), error = %capped(&e.to_string()), "tool call failed");
        }
        call_result(outcome, self.mode).map(Into::into)
    }
}
