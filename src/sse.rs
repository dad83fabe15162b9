//! The legacy HTTP+SSE transport (GET /sse, POST /message?sessionId=) for older clients. rmcp
//! dropped it; any (Sink, Stream) pair is an rmcp transport, so this shim is just two channels.

use crate::app::App;
use crate::server::McpServer;
use crate::spec::Mode;
use axum::extract::{Query, State};
use axum::http::StatusCode;
use axum::response::sse::{Event, KeepAlive, Sse};
use axum::response::{IntoResponse, Response};
use axum::{Extension, Json};
use futures::channel::mpsc::{UnboundedSender, unbounded};
use futures::{Stream, StreamExt};
use rmcp::ServiceExt;
use rmcp::model::{ClientJsonRpcMessage, ServerJsonRpcMessage};
use serde::Deserialize;
use std::collections::{BTreeSet, HashMap};
use std::convert::Infallible;
use std::pin::Pin;
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll};

#[derive(Clone)]
pub struct SseState {
    app: Arc<App>,
    sessions: Arc<Mutex<HashMap<String, UnboundedSender<ClientJsonRpcMessage>>>>,
}

impl SseState {
    pub fn new(app: Arc<App>) -> Self {
        SseState {
            app,
            sessions: Arc::default(),
        }
    }
}

/// Removes the session when the client's event stream goes away.
struct Guarded<S> {
    inner: S,
    id: String,
    sessions: Arc<Mutex<HashMap<String, UnboundedSender<ClientJsonRpcMessage>>>>,
}

impl<S: Stream + Unpin> Stream for Guarded<S> {
    type Item = S::Item;
    fn poll_next(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<S::Item>> {
        Pin::new(&mut self.inner).poll_next(cx)
    }
}

impl<S> Drop for Guarded<S> {
    fn drop(&mut self) {
        if let Ok(mut sessions) = self.sessions.lock() {
            sessions.remove(&self.id);
        }
    }
}

/// GET /sse: opens a session; the first event tells the client where to POST.
pub async fn open(
    State(state): State<SseState>,
    Extension(scopes): Extension<crate::server::GrantedScopes>,
) -> Response {
    let id = uuid::Uuid::new_v4().simple().to_string();
    let (to_server, from_client) = unbounded::<ClientJsonRpcMessage>();
    let (to_client, from_server) = unbounded::<ServerJsonRpcMessage>();
    if let Ok(mut sessions) = state.sessions.lock() {
        sessions.insert(id.clone(), to_server);
    }
    let scopes: BTreeSet<String> = scopes.0.iter().cloned().collect();
    let server = McpServer::new(state.app.clone(), Mode::RemoteHttp, scopes);
    tokio::spawn(async move {
        match server.serve((to_client, from_client)).await {
            Ok(running) => {
                let _ = running.waiting().await;
            }
            Err(e) => tracing::warn!(error = %e, "legacy SSE session did not initialize"),
        }
    });
    let endpoint = futures::stream::once(futures::future::ready(Ok::<Event, Infallible>(
        Event::default()
            .event("endpoint")
            .data(format!("/message?sessionId={id}")),
    )));
    let messages = from_server.map(|msg| {
        let data = serde_json::to_string(&msg).unwrap_or_default();
        Ok::<Event, Infallible>(Event::default().event("message").data(data))
    });
    let stream = Guarded {
        inner: endpoint.chain(messages),
        id,
        sessions: state.sessions.clone(),
    };
    Sse::new(stream)
        .keep_alive(KeepAlive::default())
        .into_response()
}

#[derive(Deserialize)]
pub struct SessionQuery {
    #[serde(rename = "sessionId")]
    session_id: String,
}

/// POST /message?sessionId=: hands one JSON-RPC message to its session; the answer comes on the stream.
pub async fn post(
    State(state): State<SseState>,
    Query(q): Query<SessionQuery>,
    body: axum::body::Bytes,
) -> Response {
    let message: ClientJsonRpcMessage = match serde_json::from_slice(&body) {
        Ok(m) => m,
        Err(e) => {
            return (
                StatusCode::BAD_REQUEST,
                Json(serde_json::json!({"error": format!("not a JSON-RPC message: {e}")})),
            )
                .into_response();
        }
    };
    let sender = state
        .sessions
        .lock()
        .ok()
        .and_then(|s| s.get(&q.session_id).cloned());
    match sender {
        Some(tx) if tx.unbounded_send(message).is_ok() => StatusCode::ACCEPTED.into_response(),
        _ => (StatusCode::NOT_FOUND, Json(serde_json::json!({"error": "unknown or closed session; open a new one with GET /sse"}))).into_response(),
    }
}
