//! Sessions belong to the key that opened them, and each key has caps on its sessions and on
//! its calls in flight. A request naming another key's session gets exactly the 404 of an
//! unknown session, so a key cannot even learn that the session exists.

use super::framing::Peeked;
use crate::app::App;
use crate::mcp::FirstReads;
use crate::transport::auth::{Caller, KeyId};
use axum::Json;
use axum::body::Body;
use axum::extract::Request;
use axum::http::{HeaderMap, Method, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use rmcp::transport::streamable_http_server::SessionManager;
use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
use serde_json::json;
use std::collections::{HashMap, HashSet};
use std::sync::{Arc, Mutex, MutexGuard};
use tokio::sync::{OwnedSemaphorePermit, Semaphore};

const SESSION_HEADER: &str = "mcp-session-id";

/// Where rmcp's Streamable HTTP service is nested.
pub const STREAMABLE: &str = "/mcp";

/// `path` reaches the service nested at [`STREAMABLE`] (which takes it and everything under it).
pub fn is_streamable(path: &str) -> bool {
    path.strip_prefix(STREAMABLE)
        .is_some_and(|rest| rest.is_empty() || rest.starts_with('/'))
}

/// Per-key caps (`--max-sessions-per-key`, `--max-calls-per-key`).
#[derive(Debug, Clone, Copy)]
pub struct KeyCaps {
    pub sessions: usize,
    pub calls: usize,
}

/// Which Streamable HTTP session belongs to whom, and what each key holds.
pub struct Registry {
    caps: KeyCaps,
    inner: Mutex<Inner>,
}

#[derive(Default)]
struct Inner {
    owners: HashMap<String, KeyId>,
    keys: HashMap<KeyId, PerKey>,
}

struct PerKey {
    /// Live Streamable HTTP sessions (may include ones rmcp expired since; pruned at the cap).
    sessions: HashSet<String>,
    /// Slots held by legacy SSE sessions and by initializes in progress.
    held: usize,
    calls: Arc<Semaphore>,
}

/// A cap was hit: 429 with what and how to raise it.
#[derive(Debug)]
pub struct CapHit {
    what: &'static str,
    setting: &'static str,
    limit: usize,
}

impl IntoResponse for CapHit {
    fn into_response(self) -> Response {
        let message = format!(
            "this API key already has {} {} (the limit); close some or wait, or raise {}",
            self.limit, self.what, self.setting
        );
        (
            StatusCode::TOO_MANY_REQUESTS,
            [("retry-after", "1")],
            Json(json!({"error": message, "limit": self.setting, "value": self.limit})),
        )
            .into_response()
    }
}

/// A session slot held for a key: an initialize in progress, or a legacy SSE session's life.
pub struct Slot {
    registry: Arc<Registry>,
    key: KeyId,
}

impl Drop for Slot {
    fn drop(&mut self) {
        if let Some(k) = self.registry.lock().keys.get_mut(&self.key) {
            k.held = k.held.saturating_sub(1);
        }
    }
}

impl Registry {
    pub fn new(caps: KeyCaps) -> Arc<Self> {
        Arc::new(Registry {
            caps,
            inner: Mutex::default(),
        })
    }

    fn lock(&self) -> MutexGuard<'_, Inner> {
        self.inner.lock().unwrap_or_else(|p| p.into_inner())
    }

    fn per_key<'a>(&self, inner: &'a mut Inner, key: KeyId) -> &'a mut PerKey {
        inner.keys.entry(key).or_insert_with(|| PerKey {
            sessions: HashSet::new(),
            held: 0,
            calls: Arc::new(Semaphore::new(self.caps.calls)),
        })
    }

    /// Holds one session slot for `key`, or says the cap is hit.
    pub fn reserve(self: &Arc<Self>, key: KeyId) -> Result<Slot, CapHit> {
        let mut inner = self.lock();
        let k = self.per_key(&mut inner, key);
        if k.sessions.len() + k.held >= self.caps.sessions {
            return Err(CapHit {
                what: "open sessions",
                setting: "--max-sessions-per-key (NEXUS_MCP_MAX_SESSIONS_PER_KEY)",
                limit: self.caps.sessions,
            });
        }
        k.held += 1;
        Ok(Slot {
            registry: self.clone(),
            key,
        })
    }

    /// One call in flight for `key`; released when the permit drops.
    pub fn call(&self, key: KeyId) -> Result<OwnedSemaphorePermit, CapHit> {
        let calls = self.per_key(&mut self.lock(), key).calls.clone();
        calls.try_acquire_owned().map_err(|_| CapHit {
            what: "calls in flight",
            setting: "--max-calls-per-key (NEXUS_MCP_MAX_CALLS_PER_KEY)",
            limit: self.caps.calls,
        })
    }

    fn owner(&self, session: &str) -> Option<KeyId> {
        self.lock().owners.get(session).copied()
    }

    /// The initialize that held `slot` opened `session`.
    fn record(&self, slot: Slot, session: String) {
        let mut inner = self.lock();
        inner.owners.insert(session.clone(), slot.key);
        self.per_key(&mut inner, slot.key).sessions.insert(session);
        drop(inner);
        drop(slot);
    }

    fn forget(&self, session: &str) {
        let mut inner = self.lock();
        if let Some(key) = inner.owners.remove(session)
            && let Some(k) = inner.keys.get_mut(&key)
        {
            k.sessions.remove(session);
        }
    }

    /// Drops `key`'s sessions that rmcp has closed (idle expiry, worker exit).
    async fn prune(&self, key: KeyId, manager: &LocalSessionManager) {
        let ids: Vec<String> = self
            .lock()
            .keys
            .get(&key)
            .map(|k| k.sessions.iter().cloned().collect())
            .unwrap_or_default();
        for id in ids {
            if !manager
                .has_session(&id.as_str().into())
                .await
                .unwrap_or(false)
            {
                self.forget(&id);
            }
        }
    }
}

/// State of the /mcp binding layer.
#[derive(Clone)]
pub struct Binding {
    pub registry: Arc<Registry>,
    pub manager: Arc<LocalSessionManager>,
    /// What the MCP service serves: a `subscriptions/listen`'s first reads are made here.
    pub app: Arc<App>,
}

fn session_id(headers: &HeaderMap) -> Option<String> {
    headers
        .get(SESSION_HEADER)
        .and_then(|v| v.to_str().ok())
        .map(str::to_owned)
}

/// rmcp's own answer for an unknown session, byte for byte.
fn no_such_session() -> Response {
    (StatusCode::NOT_FOUND, "Not Found: Session not found").into_response()
}

/// In front of rmcp's /mcp service: answers malformed JSON-RPC ([`super::framing::check`],
/// first), then binds sessions to keys and applies the per-key caps. Runs after
/// authentication and the body buffer, in the same layer.
pub async fn bind(b: &Binding, mut request: Request, next: Next) -> Response {
    let peeked = match super::framing::check(&request) {
        Ok(peeked) => peeked,
        Err(reply) => return super::framing::reject(reply),
    };
    let Some(caller) = request.extensions().get::<Caller>().cloned() else {
        return (StatusCode::INTERNAL_SERVER_ERROR, "no caller").into_response();
    };
    let session = session_id(request.headers());
    if let Some(id) = &session
        && b.registry.owner(id) != Some(caller.id)
    {
        // Another key's session, or none we opened: both look like an unknown session.
        return no_such_session();
    }
    let method = request.method().clone();
    let Peeked {
        request: is_request,
        initialize,
        listen,
    } = peeked.unwrap_or_default();
    let initialize = session.is_none() && initialize;
    let slot = if initialize {
        match b.registry.reserve(caller.id) {
            Ok(slot) => Some(slot),
            Err(_) => {
                b.registry.prune(caller.id, &b.manager).await;
                match b.registry.reserve(caller.id) {
                    Ok(slot) => Some(slot),
                    Err(hit) => return hit.into_response(),
                }
            }
        }
    } else {
        None
    };
    // initialize is bounded by the session cap instead.
    let permit = if is_request && !initialize {
        match b.registry.call(caller.id) {
            Ok(p) => Some(p),
            Err(hit) => return hit.into_response(),
        }
    } else {
        None
    };
    if let Some(listen) = listen {
        let first = FirstReads::for_http(b.app.clone(), &caller, &listen).await;
        request.extensions_mut().insert(first);
    }
    let response = next.run(request).await;
    if let Some(slot) = slot
        && let Some(id) = session_id(response.headers())
    {
        b.registry.record(slot, id);
    }
    if method == Method::DELETE
        && response.status().is_success()
        && let Some(id) = &session
    {
        b.registry.forget(id);
    }
    match permit {
        // The call is in flight until its answer (often an SSE stream) has been sent.
        Some(permit) => response.map(|body| {
            Body::new(Holding {
                body,
                _permit: permit,
            })
        }),
        None => response,
    }
}

/// A response body that holds the call's permit until it ends or is dropped, and keeps the
/// body's length (a stream wrapper would send a plain JSON answer chunked).
struct Holding {
    body: Body,
    _permit: OwnedSemaphorePermit,
}

impl hyper::body::Body for Holding {
    type Data = axum::body::Bytes;
    type Error = axum::Error;

    fn poll_frame(
        mut self: std::pin::Pin<&mut Self>,
        cx: &mut std::task::Context<'_>,
    ) -> std::task::Poll<Option<Result<hyper::body::Frame<Self::Data>, Self::Error>>> {
        std::pin::Pin::new(&mut self.body).poll_frame(cx)
    }

    fn is_end_stream(&self) -> bool {
        self.body.is_end_stream()
    }

    fn size_hint(&self) -> hyper::body::SizeHint {
        self.body.size_hint()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_binding_covers_what_the_nested_service_takes() {
        for path in ["/mcp", "/mcp/", "/mcp/x"] {
            assert!(is_streamable(path), "{path}");
        }
        for path in ["/mcpx", "/", "/sse", "/message", "/healthz"] {
            assert!(!is_streamable(path), "{path}");
        }
    }

    #[test]
    fn caps_count_per_key_and_free_on_drop() {
        let registry = Registry::new(KeyCaps {
            sessions: 2,
            calls: 1,
        });
        let a = crate::transport::auth::KeyId::OPEN;
        let mut store = crate::transport::auth::KeyStore::default();
        store.add_key("test", "b", Default::default()).unwrap();
        let b = store.identify("b").unwrap().id;
        let first = registry.reserve(a).unwrap();
        registry.record(first, "s1".into());
        let held = registry.reserve(a).unwrap();
        let hit = registry.reserve(a).err().unwrap();
        assert_eq!(hit.limit, 2);
        assert!(registry.reserve(b).is_ok(), "another key has its own cap");
        drop(held);
        assert!(registry.reserve(a).is_ok());
        registry.forget("s1");
        assert_eq!(registry.owner("s1"), None);
        let call = registry.call(a).unwrap();
        assert!(registry.call(a).is_err());
        drop(call);
        assert!(registry.call(a).is_ok());
    }
}
