//! The legacy HTTP+SSE transport (GET /sse, POST /message?sessionId=) for older clients. rmcp
//! dropped it; this shim is an rmcp `Transport` over two bounded queues.
//!
//! A session belongs to the key that opened it: any other key posting to it gets the 404 of an
//! unknown session. Both queues are bounded. While the stream's queue is full, new requests get
//! 429; an answer that waits `send_timeout` for room closes the session (logged). An unread
//! stream thus costs at most one queue of messages plus the key's calls in flight.

use crate::app::App;
use crate::mcp::McpServer;
use crate::spec::Mode;
use crate::transport::auth::{Caller, KeyId};
use crate::transport::http::sessions::{Registry, Slot};
use crate::transport::stdio::framing::{self, Frame};
use axum::Json;
use axum::extract::{Query, State};
use axum::http::StatusCode;
use axum::response::sse::{Event, KeepAlive, Sse};
use axum::response::{IntoResponse, Response};
use futures::StreamExt;
use rmcp::RoleServer;
use rmcp::ServiceExt;
use rmcp::model::{
    ClientJsonRpcMessage, ClientRequest, JsonRpcMessage, RequestId, ServerJsonRpcMessage,
};
use rmcp::transport::Transport;
use serde::Deserialize;
use std::collections::{BTreeSet, HashMap};
use std::convert::Infallible;
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;
use tokio::sync::mpsc::error::TrySendError;
use tokio::sync::{OwnedSemaphorePermit, mpsc, watch};
use tokio_stream::wrappers::ReceiverStream;

/// Messages a session queues in each direction.
pub const QUEUE: usize = 64;

type Sessions = Arc<Mutex<HashMap<String, Arc<Session>>>>;

#[derive(Clone)]
pub struct SseState {
    app: Arc<App>,
    sessions: Sessions,
    registry: Arc<Registry>,
    send_timeout: Duration,
}

impl SseState {
    pub fn new(app: Arc<App>, registry: Arc<Registry>, send_timeout: Duration) -> Self {
        SseState {
            app,
            sessions: Arc::default(),
            registry,
            send_timeout,
        }
    }

    /// Open legacy sessions (for tests and logs).
    pub fn open_sessions(&self) -> usize {
        lock(&self.sessions).len()
    }
}

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|p| p.into_inner())
}

struct Session {
    id: String,
    owner: KeyId,
    to_server: mpsc::Sender<ClientJsonRpcMessage>,
    /// The stream's queue, to refuse new requests while it is full.
    to_client: mpsc::Sender<ServerJsonRpcMessage>,
    /// The per-key call permits of requests not answered yet.
    calls: Mutex<HashMap<RequestId, OwnedSemaphorePermit>>,
    closed: watch::Sender<bool>,
    sessions: Sessions,
}

impl Session {
    /// Ends the session: /message answers 404, the server loop and the stream stop.
    fn close(&self) {
        lock(&self.sessions).remove(&self.id);
        self.closed.send_replace(true);
        lock(&self.calls).clear();
    }
}

#[derive(Debug, thiserror::Error)]
pub enum SseSendError {
    #[error("the client's event stream is gone")]
    Gone,
    #[error("the client left its event stream unread for {0:?}; session closed")]
    SlowConsumer(Duration),
}

/// The server side of one legacy session, as an rmcp transport.
struct LegacyTransport {
    session: Arc<Session>,
    to_client: mpsc::Sender<ServerJsonRpcMessage>,
    from_client: mpsc::Receiver<ClientJsonRpcMessage>,
    closed: watch::Receiver<bool>,
    send_timeout: Duration,
}

impl Transport<RoleServer> for LegacyTransport {
    type Error = SseSendError;

    fn send(
        &mut self,
        item: ServerJsonRpcMessage,
    ) -> impl Future<Output = Result<(), SseSendError>> + Send + 'static {
        let tx = self.to_client.clone();
        let session = self.session.clone();
        let timeout = self.send_timeout;
        async move {
            let answered = match &item {
                JsonRpcMessage::Response(r) => Some(r.id.clone()),
                JsonRpcMessage::Error(e) => e.id.clone(),
                _ => None,
            };
            let sent = tokio::time::timeout(timeout, tx.send(item)).await;
            // The call stays in flight (holding its per-key permit) until its answer is
            // queued, so blocked answers are bounded by --max-calls-per-key.
            if let Some(id) = answered {
                lock(&session.calls).remove(&id);
            }
            match sent {
                Ok(Ok(())) => Ok(()),
                Ok(Err(_)) => {
                    session.close();
                    Err(SseSendError::Gone)
                }
                Err(_) => {
                    tracing::warn!(
                        session = %session.id,
                        queued = QUEUE,
                        "closing a legacy SSE session whose client stopped reading its stream"
                    );
                    session.close();
                    Err(SseSendError::SlowConsumer(timeout))
                }
            }
        }
    }

    async fn receive(&mut self) -> Option<ClientJsonRpcMessage> {
        tokio::select! {
            m = self.from_client.recv() => m,
            _ = self.closed.wait_for(|c| *c) => None,
        }
    }

    async fn close(&mut self) -> Result<(), SseSendError> {
        self.session.close();
        Ok(())
    }
}

/// Closes the session when the client's event stream goes away.
struct CloseOnDrop(Arc<Session>);

impl Drop for CloseOnDrop {
    fn drop(&mut self) {
        self.0.close();
    }
}

/// GET /sse: opens a session; the first event tells the client where to POST.
pub async fn open(
    State(state): State<SseState>,
    axum::Extension(caller): axum::Extension<Caller>,
) -> Response {
    let slot: Slot = match state.registry.reserve(caller.id) {
        Ok(slot) => slot,
        Err(hit) => return hit.into_response(),
    };
    let id = uuid::Uuid::new_v4().simple().to_string();
    let (to_server, from_client) = mpsc::channel(QUEUE);
    let (to_client, from_server) = mpsc::channel(QUEUE);
    let (closed, closed_rx) = watch::channel(false);
    let session = Arc::new(Session {
        id: id.clone(),
        owner: caller.id,
        to_server,
        to_client: to_client.clone(),
        calls: Mutex::default(),
        closed,
        sessions: state.sessions.clone(),
    });
    lock(&state.sessions).insert(id.clone(), session.clone());
    let transport = LegacyTransport {
        session: session.clone(),
        to_client,
        from_client,
        closed: closed_rx.clone(),
        send_timeout: state.send_timeout,
    };
    let scopes: BTreeSet<String> = caller.scopes.iter().cloned().collect();
    let server = McpServer::new(state.app.clone(), Mode::RemoteHttp, scopes)
        .with_repositories(caller.repositories.clone())
        .into_service();
    tokio::spawn(async move {
        let _slot = slot;
        match server.serve(transport).await {
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
    let guard = CloseOnDrop(session);
    let mut closed = closed_rx;
    let messages = ReceiverStream::new(from_server)
        .map(move |msg| {
            let _alive = &guard;
            let data = serde_json::to_string(&msg).unwrap_or_default();
            Ok::<Event, Infallible>(Event::default().event("message").data(data))
        })
        .take_until(async move {
            let _ = closed.wait_for(|c| *c).await;
        });
    Sse::new(endpoint.chain(messages))
        .keep_alive(KeepAlive::default())
        .into_response()
}

#[derive(Deserialize)]
pub struct SessionQuery {
    #[serde(rename = "sessionId")]
    session_id: String,
}

fn unknown_session() -> Response {
    (
        StatusCode::NOT_FOUND,
        Json(
            serde_json::json!({"error": "unknown or closed session; open a new one with GET /sse"}),
        ),
    )
        .into_response()
}

/// POST /message?sessionId=: hands one JSON-RPC message to its session; the answer comes on the stream.
pub async fn post(
    State(state): State<SseState>,
    axum::Extension(caller): axum::Extension<Caller>,
    Query(q): Query<SessionQuery>,
    body: axum::body::Bytes,
) -> Response {
    let session = lock(&state.sessions).get(&q.session_id).cloned();
    // Another key's session looks exactly like one that does not exist.
    let Some(session) = session.filter(|s| s.owner == caller.id) else {
        return unknown_session();
    };
    // The stdio transport's framing rules: 400 with the JSON-RPC error (-32700/-32600/-32602)
    // and the readable id, as on /mcp.
    let message: ClientJsonRpcMessage = match framing::frame(&body) {
        Frame::Message(m) => *m,
        Frame::Skip if !body.iter().all(u8::is_ascii_whitespace) => {
            return StatusCode::ACCEPTED.into_response();
        }
        Frame::Skip => {
            return (
                StatusCode::BAD_REQUEST,
                Json(serde_json::json!({"jsonrpc": "2.0", "id": null, "error": {"code": framing::PARSE_ERROR, "message": "Parse error: the body is empty; POST one JSON-RPC message"}})),
            )
                .into_response();
        }
        Frame::Reply(reply) => return (StatusCode::BAD_REQUEST, Json(reply)).into_response(),
    };
    let request_id = match &message {
        JsonRpcMessage::Request(r) => Some(r.id.clone()),
        _ => None,
    };
    if request_id.is_some() && session.to_client.capacity() == 0 {
        return (
            StatusCode::TOO_MANY_REQUESTS,
            [("retry-after", "1")],
            Json(serde_json::json!({"error": format!("this session's event stream has {QUEUE} unread messages; read them before posting more requests")})),
        )
            .into_response();
    }
    let is_initialize = matches!(&message, JsonRpcMessage::Request(r) if matches!(r.request, ClientRequest::InitializeRequest(_)));
    if let Some(id) = request_id.as_ref().filter(|_| !is_initialize) {
        match state.registry.call(caller.id) {
            Ok(permit) => {
                lock(&session.calls).insert(id.clone(), permit);
            }
            Err(hit) => return hit.into_response(),
        }
    }
    match session.to_server.try_send(message) {
        Ok(()) => StatusCode::ACCEPTED.into_response(),
        Err(TrySendError::Full(_)) => {
            if let Some(id) = &request_id {
                lock(&session.calls).remove(id);
            }
            (
                StatusCode::TOO_MANY_REQUESTS,
                [("retry-after", "1")],
                Json(serde_json::json!({"error": format!("this session already has {QUEUE} messages waiting; wait for answers before posting more")})),
            )
                .into_response()
        }
        Err(TrySendError::Closed(_)) => unknown_session(),
    }
}
