//! The MCP face: rmcp's `ServerHandler`, written by hand and driven by the generated registry,
//! one module per MCP area. MCP model values are built from the registry's JSON and parsed into
//! rmcp's types, so what clients see is exactly what contract/ publishes.

pub mod client_log;
pub mod completion;
pub mod content;
mod prompts;
mod resources;
mod subscriptions;
pub mod tools;

use crate::app::{App, Repositories, ToolContext};
use crate::log::ProgressSink;
use crate::spec::Mode;
use client_log::SessionLogLevel;
use rmcp::ServerHandler;
#[allow(deprecated)]
use rmcp::model::SetLevelRequestParams;
use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CompleteRequestParams, CompleteResult, CustomRequest,
    CustomResult, ErrorCode, ErrorData, GetPromptRequestParams, GetPromptResponse, Implementation,
    ListPromptsResult, ListResourceTemplatesResult, ListResourcesResult, ListToolsResult,
    PaginatedRequestParams, ReadResourceRequestParams, ReadResourceResponse, ServerCapabilities,
    ServerConfig, Tool,
};
use rmcp::service::{RequestContext, RoleServer};
use serde::de::DeserializeOwned;
use serde_json::Value;
use std::collections::BTreeSet;
use std::sync::Arc;

pub use subscriptions::{FirstReads, McpService};
pub use tools::call_result;

/// Scopes granted to one HTTP request by the key that authenticated it (set by the auth layer).
#[derive(Debug, Clone)]
pub struct GrantedScopes(pub Arc<BTreeSet<String>>);

#[derive(Clone)]
pub struct McpServer {
    app: Arc<App>,
    mode: Mode,
    /// Scopes for stdio; over HTTP each request carries its own.
    scopes: Arc<BTreeSet<String>>,
    /// The repositories of the key that opened a legacy SSE session; over Streamable HTTP each
    /// request carries its own caller.
    repositories: Option<Repositories>,
    /// This session's `logging/setLevel` choice.
    log_level: SessionLogLevel,
    /// The resources this session subscribed to.
    subscriptions: subscriptions::Subscriptions,
}

impl McpServer {
    /// One per session (stdio, each Streamable HTTP or SSE session), so the log level chosen by
    /// one client never applies to another.
    pub fn new(app: Arc<App>, mode: Mode, scopes: BTreeSet<String>) -> Self {
        McpServer {
            app,
            mode,
            scopes: Arc::new(scopes),
            repositories: None,
            log_level: SessionLogLevel::default(),
            subscriptions: Default::default(),
        }
    }

    /// Binds this session to the repositories of the key that opened it (legacy SSE).
    pub fn with_repositories(mut self, repositories: Option<Repositories>) -> Self {
        self.repositories = repositories;
        self
    }

    fn repositories_for(&self, ctx: &RequestContext<RoleServer>) -> Option<Repositories> {
        if self.mode == Mode::RemoteHttp
            && let Some(caller) = ctx
                .extensions
                .get::<axum::http::request::Parts>()
                .and_then(|p| p.extensions.get::<crate::caller::Caller>())
        {
            return caller.repositories.clone();
        }
        self.repositories.clone()
    }

    pub(crate) fn scopes_for(&self, ctx: &RequestContext<RoleServer>) -> Arc<BTreeSet<String>> {
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

    pub(crate) fn tool_context(
        &self,
        ctx: &RequestContext<RoleServer>,
        progress: Option<Arc<dyn ProgressSink>>,
    ) -> ToolContext {
        ToolContext {
            app: self.app.clone(),
            mode: self.mode,
            scopes: self.scopes_for(ctx),
            repositories: self.repositories_for(ctx),
            progress,
            log: Some(self.log_sink(ctx)),
            asking: None,
        }
    }
}

impl McpServer {
    /// Where a call's log messages go: at the level its request names in `_meta` (2026-07-28,
    /// SEP-2575: no level, no messages), else at the session's `logging/setLevel` level.
    fn log_sink(&self, ctx: &RequestContext<RoleServer>) -> Arc<dyn crate::log::LogSink> {
        let surface = self.app.surface.name;
        match ctx.meta.log_level() {
            Some(level) => {
                let per_request = SessionLogLevel::default();
                per_request.set(level);
                per_request.sink(ctx.peer.clone(), surface)
            }
            None => self.log_level.sink(ctx.peer.clone(), surface),
        }
    }
}

/// How long a 2026-07-28 client may keep a tools, prompts or resources list (SEP-2549): the
/// lists are fixed per build (a resource's content changes, the list of resources does not).
/// Tools and resources depend on the caller's scopes, so only that caller may keep them
/// (`private`); prompts are the same for everyone (`public`).
pub(crate) const LIST_TTL_MS: u64 = 60 * 60 * 1000;

pub(crate) fn from_json<T: DeserializeOwned>(value: Value) -> Result<T, ErrorData> {
    serde_json::from_value(value)
        .map_err(|e| ErrorData::internal_error(format!("cannot build an MCP value: {e}"), None))
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
        // Offered when the manifest declares a subscribable resource.
        if surface.resources.iter().any(|r| r.poll_seconds.is_some())
            && let Some(resources) = capabilities.resources.as_mut()
        {
            resources.subscribe = Some(true);
        }
        // Offered when the manifest declares a completion source for some prompt argument.
        if surface
            .prompts
            .iter()
            .flat_map(|p| p.arguments)
            .any(|a| a.complete.is_some())
            || surface.resources.iter().any(|r| !r.complete.is_empty())
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
        self.tool(name)
    }

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        ctx: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        self.tools_list(&ctx)
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        ctx: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        // The call's state (arguments, questions, the backend request, the envelope) lives in
        // one allocation of its own: rmcp moves each request's future several times when it
        // spawns it, and a pointer is cheaper to move than kilobytes.
        Box::pin(self.tools_call(request, ctx)).await
    }

    #[allow(deprecated)] // logging/setLevel: deprecated for 2026-07-28 (SEP-2577), used by 2025 clients
    async fn set_level(
        &self,
        request: SetLevelRequestParams,
        ctx: RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        // A stateless request has no session to set a level on: it names one in its `_meta`.
        if ctx.meta.protocol_version().is_some() {
            return Err(ErrorData::method_not_found::<
                rmcp::model::SetLevelRequestMethod,
            >());
        }
        self.log_level.set(request.level);
        Ok(())
    }

    async fn list_prompts(
        &self,
        _request: Option<PaginatedRequestParams>,
        _ctx: RequestContext<RoleServer>,
    ) -> Result<ListPromptsResult, ErrorData> {
        self.prompts_list()
    }

    async fn get_prompt(
        &self,
        request: GetPromptRequestParams,
        ctx: RequestContext<RoleServer>,
    ) -> Result<GetPromptResponse, ErrorData> {
        // Boxed: a prompt may ask questions and run a tool, and every request's future (one
        // type for all methods, moved whole when rmcp spawns it) would otherwise be that large.
        Box::pin(self.prompts_get(request, ctx)).await
    }

    async fn complete(
        &self,
        request: CompleteRequestParams,
        ctx: RequestContext<RoleServer>,
    ) -> Result<CompleteResult, ErrorData> {
        // Boxed for the reason get_prompt is.
        Box::pin(self.completion_complete(request, ctx)).await
    }

    async fn list_resources(
        &self,
        _request: Option<PaginatedRequestParams>,
        ctx: RequestContext<RoleServer>,
    ) -> Result<ListResourcesResult, ErrorData> {
        self.resources_list(&ctx)
    }

    async fn list_resource_templates(
        &self,
        _request: Option<PaginatedRequestParams>,
        ctx: RequestContext<RoleServer>,
    ) -> Result<ListResourceTemplatesResult, ErrorData> {
        self.resource_templates_list(&ctx)
    }

    async fn subscribe(
        &self,
        request: rmcp::model::SubscribeRequestParams,
        ctx: RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        // The stateless revision has no session to keep a subscription in (SEP-2575).
        if ctx.meta.protocol_version().is_some() {
            return Err(ErrorData::method_not_found::<
                rmcp::model::SubscribeRequestMethod,
            >());
        }
        // Boxed for the reason get_prompt is.
        Box::pin(self.resources_subscribe(request, ctx)).await
    }

    fn accepted_subscription_filter(
        &self,
        requested: &rmcp::model::SubscriptionFilter,
    ) -> Option<rmcp::model::SubscriptionFilter> {
        Some(self.subscription_filter(requested))
    }

    async fn listen(&self, context: rmcp::service::SubscriptionContext) -> Result<(), ErrorData> {
        McpServer::listen(self, context).await;
        Ok(())
    }

    async fn unsubscribe(
        &self,
        request: rmcp::model::UnsubscribeRequestParams,
        ctx: RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        if ctx.meta.protocol_version().is_some() {
            return Err(ErrorData::method_not_found::<
                rmcp::model::UnsubscribeRequestMethod,
            >());
        }
        self.resources_unsubscribe(request);
        Ok(())
    }

    async fn read_resource(
        &self,
        request: ReadResourceRequestParams,
        ctx: RequestContext<RoleServer>,
    ) -> Result<ReadResourceResponse, ErrorData> {
        self.resources_read(request, ctx).await
    }

    /// rmcp's default answers an unknown method with the whole name as the message, so a
    /// 100 KB name came back whole; it is quoted cut, as every other echo is.
    async fn on_custom_request(
        &self,
        request: CustomRequest,
        _ctx: RequestContext<RoleServer>,
    ) -> Result<CustomResult, ErrorData> {
        Err(ErrorData::new(
            ErrorCode::METHOD_NOT_FOUND,
            format!(
                "method not found: `{}`",
                crate::error::echo(&request.method)
            ),
            None,
        ))
    }
}
