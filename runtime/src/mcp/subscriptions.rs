//! Resource subscriptions: resources/subscribe in a 2025 session, subscriptions/listen in
//! 2026-07-28. A resource the manifest declares subscribable (`subscribe: {poll_seconds}`) is read
//! again, as its subscriber would read it, every `poll_seconds` while someone listens, and a
//! change is sent as `notifications/resources/updated`. A read that fails is no change.
//!
//! rmcp acknowledges a `subscriptions/listen` before it calls `listen`, so a watch whose first
//! value were read there would take a change the client makes as soon as it holds the
//! acknowledgment for its first value, and never report it. The listened resources are read
//! before rmcp sees the request instead ([`FirstReads`]): by [`McpService`] for the transports
//! rmcp serves from a `Service` (stdio, legacy SSE, in-process), and by the Streamable HTTP
//! front layer, which needs a `ServerHandler`. `resources/subscribe` reads before it answers.

use super::McpServer;
use crate::app::{App, ToolContext};
use crate::caller::Caller;
use crate::error::echo;
use crate::spec::Mode;
use rmcp::model::{
    ClientNotification, ClientRequest, ErrorData, ProtocolVersion, ReadResourceResponse,
    ResourceUpdatedNotification, ResourceUpdatedNotificationParam, ServerConfig,
    ServerNotification, ServerResult, SubscribeRequestParams, SubscriptionFilter,
    UnsubscribeRequestParams,
};
use rmcp::service::{
    NotificationContext, RequestContext, RoleServer, Service, SubscriptionContext,
};
use std::borrow::Cow;
use std::collections::{BTreeSet, HashMap};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

/// One session's watches, by URI.
#[derive(Clone, Default)]
pub struct Subscriptions(Arc<Mutex<HashMap<String, Watch>>>);

/// What a `subscriptions/listen`'s resources read before rmcp saw the request, by URI: each
/// watch's first value. Carried in the request's extensions.
#[derive(Clone, Default)]
pub struct FirstReads(Arc<HashMap<String, String>>);

impl FirstReads {
    /// The Streamable HTTP front layer's reads: a `subscriptions/listen` from `caller`, read
    /// as the server `app` serves it would read it for that caller.
    pub async fn for_http(app: Arc<App>, caller: &Caller, requested: &SubscriptionFilter) -> Self {
        let reader = ToolContext {
            app: app.clone(),
            mode: Mode::RemoteHttp,
            scopes: caller.scopes.clone(),
            repositories: caller.repositories.clone(),
            progress: None,
            log: None,
            asking: None,
        };
        McpServer::new(app, Mode::RemoteHttp, BTreeSet::new())
            .first_reads(requested, &reader)
            .await
    }

    /// The reads carried by `ctx`'s request, put there by [`McpService`] or, over Streamable
    /// HTTP, in the HTTP request's extensions.
    fn of(ctx: &RequestContext<RoleServer>) -> Self {
        ctx.extensions
            .get::<FirstReads>()
            .or_else(|| {
                ctx.extensions
                    .get::<axum::http::request::Parts>()
                    .and_then(|p| p.extensions.get::<FirstReads>())
            })
            .cloned()
            .unwrap_or_default()
    }
}

/// [`McpServer`] as rmcp's `Service`, for the transports rmcp serves from one (stdio, legacy
/// SSE, in-process): a `subscriptions/listen`'s resources are read before rmcp acknowledges it.
#[derive(Clone)]
pub struct McpService(McpServer);

impl McpServer {
    pub fn into_service(self) -> McpService {
        McpService(self)
    }
}

impl Service<RoleServer> for McpService {
    async fn handle_request(
        &self,
        request: ClientRequest,
        mut context: RequestContext<RoleServer>,
    ) -> Result<ServerResult, ErrorData> {
        if let ClientRequest::SubscriptionsListenRequest(listen) = &request {
            let reader = self.0.tool_context(&context, None);
            let first = self
                .0
                .first_reads(&listen.params.notifications, &reader)
                .await;
            context.extensions.insert(first);
        }
        Service::handle_request(&self.0, request, context).await
    }

    async fn handle_notification(
        &self,
        notification: ClientNotification,
        context: NotificationContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        Service::handle_notification(&self.0, notification, context).await
    }

    fn get_info(&self) -> ServerConfig {
        Service::get_info(&self.0)
    }

    fn supported_protocol_versions(&self) -> Cow<'static, [ProtocolVersion]> {
        Service::supported_protocol_versions(&self.0)
    }
}

/// A watch ends when it is replaced, unsubscribed or its session's transport closes.
struct Watch(tokio::task::JoinHandle<()>);

impl Drop for Watch {
    fn drop(&mut self) {
        self.0.abort();
    }
}

impl McpServer {
    pub(super) async fn resources_subscribe(
        &self,
        request: SubscribeRequestParams,
        ctx: RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        let uri = request.uri;
        let scopes = self.scopes_for(&ctx);
        let Some((resource, _)) = self.find_resource(&scopes, &uri) else {
            return Err(super::resources::not_found(&uri));
        };
        let Some(every) = resource.poll_seconds else {
            return Err(ErrorData::invalid_params(
                format!(
                    "resource `{}` cannot be subscribed: nothing tells this server when it changes. Read it again when you need it.",
                    echo(&uri)
                ),
                None,
            ));
        };
        // Unreadable now (the backend refuses it): the same error a read gives.
        let first = self.read_text(&uri, &self.tool_context(&ctx, None)).await?;
        let server = self.clone();
        let watched = uri.clone();
        let task = tokio::spawn(async move {
            let peer = ctx.peer.clone();
            server
                .watch(&watched, &ctx, every, Some(first), |uri| {
                    let peer = peer.clone();
                    async move {
                        peer.notify_resource_updated(ResourceUpdatedNotificationParam::new(uri))
                            .await
                            .is_ok()
                    }
                })
                .await;
        });
        self.subscriptions
            .0
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .insert(uri, Watch(task));
        Ok(())
    }

    pub(super) fn resources_unsubscribe(&self, request: UnsubscribeRequestParams) {
        self.subscriptions
            .0
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .remove(&request.uri);
    }

    /// Reads `uri` every `every` seconds as `ctx`'s caller would, and calls `notify` with it
    /// when the answer changed, until `notify` says the client is gone or the transport closes.
    async fn watch<F, Fut>(
        &self,
        uri: &str,
        ctx: &RequestContext<RoleServer>,
        every: u32,
        first: Option<String>,
        notify: F,
    ) where
        F: Fn(String) -> Fut,
        Fut: std::future::Future<Output = bool>,
    {
        let reader = self.tool_context(ctx, None);
        let mut last = first;
        let mut tick = tokio::time::interval(Duration::from_secs(u64::from(every)));
        if last.is_some() {
            tick.tick().await;
        }
        loop {
            tick.tick().await;
            if ctx.peer.is_transport_closed() {
                return;
            }
            let Ok(now) = self.read_text(uri, &reader).await else {
                continue;
            };
            let changed = last.as_ref().is_some_and(|l| *l != now);
            last = Some(now);
            if changed && !notify(uri.to_owned()).await {
                return;
            }
        }
    }

    /// 2026-07-28 `subscriptions/listen`: the requested resources this manifest can watch
    /// (the engine's tool, prompt and resource lists are fixed per build: never list changes).
    pub(super) fn subscription_filter(&self, requested: &SubscriptionFilter) -> SubscriptionFilter {
        let watchable: Vec<String> = requested
            .resource_subscriptions
            .iter()
            .flatten()
            .filter(|uri| self.poll_seconds(uri).is_some())
            .cloned()
            .collect();
        let mut accepted = SubscriptionFilter::default();
        accepted.resource_subscriptions = Some(watchable);
        accepted
    }

    /// Reads the resources `requested` names that this manifest can watch, as `reader` would.
    /// A read that fails is left out: that watch starts from its own first read.
    async fn first_reads(
        &self,
        requested: &SubscriptionFilter,
        reader: &ToolContext,
    ) -> FirstReads {
        // Each resource once, however often the request names it.
        let watched: BTreeSet<String> = self
            .subscription_filter(requested)
            .resource_subscriptions
            .into_iter()
            .flatten()
            .collect();
        let reads = watched.into_iter().map(|uri| async move {
            let text = self.read_text(&uri, reader).await.ok()?;
            Some((uri, text))
        });
        let read = futures::future::join_all(reads).await;
        FirstReads(Arc::new(read.into_iter().flatten().collect()))
    }

    /// One `subscriptions/listen` stream: every accepted resource watched until the client
    /// cancels the request (rmcp acknowledges it and tags each notification), each from its
    /// [`FirstReads`] value.
    pub(super) async fn listen(&self, context: SubscriptionContext) {
        let ctx = context.request_context().clone();
        let first = FirstReads::of(&ctx);
        let uris = context
            .accepted()
            .resource_subscriptions
            .clone()
            .unwrap_or_default();
        let sink = context.sink().clone();
        let watches = uris.into_iter().filter_map(|uri| {
            let every = self.poll_seconds(&uri)?;
            let (ctx, sink) = (ctx.clone(), sink.clone());
            let first = first.0.get(&uri).cloned();
            Some(async move {
                self.watch(&uri, &ctx, every, first, |uri| {
                    let sink = sink.clone();
                    async move {
                        let updated = ServerNotification::ResourceUpdatedNotification(
                            ResourceUpdatedNotification::new(
                                ResourceUpdatedNotificationParam::new(uri),
                            ),
                        );
                        sink.send(updated).await.is_ok()
                    }
                })
                .await;
            })
        });
        tokio::select! {
            _ = futures::future::join_all(watches) => {}
            () = context.cancelled() => {}
        }
    }

    /// How often a resource is read again while watched (the resource a read of `uri` would
    /// find); None: it cannot be subscribed. Scopes apply when it is read.
    fn poll_seconds(&self, uri: &str) -> Option<u32> {
        super::resources::resolve(self.app.surface.resources.iter(), uri)
            .and_then(|(r, _)| r.poll_seconds)
    }

    /// What a read of `uri` by `reader` answers, as text to compare.
    async fn read_text(&self, uri: &str, reader: &ToolContext) -> Result<String, ErrorData> {
        let read = self.read_as(uri, reader).await?;
        let read = match read {
            ReadResourceResponse::Complete(result) => serde_json::to_value(result),
            ReadResourceResponse::InputRequired(asked) => serde_json::to_value(asked),
            // A shape rmcp adds later: compared by its debug text.
            other => Ok(serde_json::Value::String(format!("{other:?}"))),
        };
        read.map(|v| v.to_string())
            .map_err(|e| ErrorData::internal_error(e.to_string(), None))
    }
}
