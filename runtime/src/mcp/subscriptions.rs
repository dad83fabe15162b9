//! Resource subscriptions: resources/subscribe in a 2025 session, subscriptions/listen in
//! 2026-07-28. A resource the manifest declares subscribable (`subscribe: {poll_seconds}`) is read
//! again, as its subscriber would read it, every `poll_seconds` while someone listens, and a
//! change is sent as `notifications/resources/updated`. A read that fails is no change.

use super::McpServer;
use crate::error::echo;
use rmcp::model::{
    ErrorData, ReadResourceRequestParams, ReadResourceResponse, ResourceUpdatedNotification,
    ResourceUpdatedNotificationParam, ServerNotification, SubscribeRequestParams,
    SubscriptionFilter, UnsubscribeRequestParams,
};
use rmcp::service::{RequestContext, RoleServer, SubscriptionContext};
use std::collections::HashMap;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

/// One session's watches, by URI.
#[derive(Clone, Default)]
pub struct Subscriptions(Arc<Mutex<HashMap<String, Watch>>>);

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
        let first = self.read_text(&uri, &ctx).await?;
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
            let Ok(now) = self.read_text(uri, ctx).await else {
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

    /// One `subscriptions/listen` stream: every accepted resource watched until the client
    /// cancels the request (rmcp acknowledges it and tags each notification).
    pub(super) async fn listen(&self, context: SubscriptionContext) {
        let ctx = context.request_context().clone();
        let uris = context
            .accepted()
            .resource_subscriptions
            .clone()
            .unwrap_or_default();
        let sink = context.sink().clone();
        let watches = uris.into_iter().filter_map(|uri| {
            let every = self.poll_seconds(&uri)?;
            let (ctx, sink) = (ctx.clone(), sink.clone());
            Some(async move {
                self.watch(&uri, &ctx, every, None, |uri| {
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

    /// What a read of `uri` answers this session, as text to compare.
    async fn read_text(
        &self,
        uri: &str,
        ctx: &RequestContext<RoleServer>,
    ) -> Result<String, ErrorData> {
        let read = self
            .resources_read(ReadResourceRequestParams::new(uri.to_owned()), ctx.clone())
            .await?;
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
