//! The engine in process: a surface's `App` against an axum stub backend on 127.0.0.1:0, its
//! rmcp server over `tokio::io::duplex`, and an rmcp client on the other end (as rmcp's own tests
//! do). No spawned process, no nexus-lite, no ruff or bandit: a test starts in milliseconds.
// MCP logging is deprecated for 2026-07-28 (SEP-2577) but still what 2025 clients use.
#![allow(
    dead_code,
    deprecated,
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic
)]

use axum::Router;
use axum::extract::{Request, State};
use axum::middleware::{self, Next};
use axum::response::Response;
use nexus_mcp_runtime::app::{App, Settings, SurfaceParts};
use nexus_mcp_runtime::backend::{NexusClient, Secret};
use nexus_mcp_runtime::mcp::McpServer;
use nexus_mcp_runtime::spec::{Mode, SurfaceSpec};
use rmcp::model::{
    CallToolRequestParams, CallToolResult, LoggingMessageNotificationParam,
    ProgressNotificationParam, ProtocolVersion,
};
use rmcp::service::{ClientLifecycleMode, ClientServiceExt, NotificationContext, RunningService};
use rmcp::{ClientHandler, RoleClient, ServiceExt};
use serde_json::Value;
use std::collections::BTreeSet;
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::sync::watch;
use tokio::task::JoinHandle;

/// One request the stub backend received.
#[derive(Debug, Clone)]
pub struct Seen {
    pub method: String,
    pub path: String,
    /// The raw query string ("" when none).
    pub query: String,
}

impl Seen {
    /// The decoded value of query parameter `name`.
    pub fn param(&self, name: &str) -> Option<String> {
        url_pairs(&self.query)
            .find(|(k, _)| k == name)
            .map(|(_, v)| v)
    }
}

fn url_pairs(query: &str) -> impl Iterator<Item = (String, String)> + '_ {
    query.split('&').filter(|p| !p.is_empty()).map(|pair| {
        let (k, v) = pair.split_once('=').unwrap_or((pair, ""));
        let decode = |s: &str| {
            percent_encoding::percent_decode_str(&s.replace('+', " "))
                .decode_utf8_lossy()
                .into_owned()
        };
        (decode(k), decode(v))
    })
}

/// The stub backend: `routes` served on a loopback port of this process, recording requests.
pub struct StubBackend {
    pub url: String,
    seen: Arc<Mutex<Vec<Seen>>>,
    task: JoinHandle<()>,
}

impl StubBackend {
    pub async fn start(routes: Router) -> StubBackend {
        let seen = Arc::new(Mutex::new(Vec::new()));
        let app = routes.layer(middleware::from_fn_with_state(seen.clone(), record));
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let url = format!("http://{}", listener.local_addr().unwrap());
        let task = tokio::spawn(async move {
            let _ = axum::serve(listener, app).await;
        });
        StubBackend { url, seen, task }
    }

    /// The requests received so far, oldest first.
    pub fn seen(&self) -> Vec<Seen> {
        self.seen.lock().unwrap().clone()
    }
}

impl Drop for StubBackend {
    fn drop(&mut self) {
        self.task.abort();
    }
}

async fn record(
    State(seen): State<Arc<Mutex<Vec<Seen>>>>,
    request: Request,
    next: Next,
) -> Response {
    seen.lock().unwrap().push(Seen {
        method: request.method().to_string(),
        path: request.uri().path().to_owned(),
        query: request.uri().query().unwrap_or_default().to_owned(),
    });
    next.run(request).await
}

/// Records the notifications a client receives. rmcp handles each notification in a task of its
/// own, so one can arrive after the result it belongs to: tests wait on these, never sleep.
#[derive(Clone)]
pub struct Notes {
    progress: Arc<watch::Sender<Vec<ProgressNotificationParam>>>,
    logs: Arc<watch::Sender<Vec<LoggingMessageNotificationParam>>>,
}

impl Default for Notes {
    fn default() -> Self {
        Notes {
            progress: Arc::new(watch::channel(Vec::new()).0),
            logs: Arc::new(watch::channel(Vec::new()).0),
        }
    }
}

impl Notes {
    /// Waits (up to 10 s) until `enough` holds for the progress notifications seen so far.
    pub async fn progress_until(
        &self,
        enough: impl FnMut(&Vec<ProgressNotificationParam>) -> bool,
    ) -> Vec<ProgressNotificationParam> {
        wait(&self.progress, enough).await
    }

    /// Waits (up to 10 s) until `enough` holds for the log messages seen so far.
    pub async fn logs_until(
        &self,
        enough: impl FnMut(&Vec<LoggingMessageNotificationParam>) -> bool,
    ) -> Vec<LoggingMessageNotificationParam> {
        wait(&self.logs, enough).await
    }
}

async fn wait<T: Clone + std::fmt::Debug>(
    channel: &watch::Sender<Vec<T>>,
    enough: impl FnMut(&Vec<T>) -> bool,
) -> Vec<T> {
    let mut rx = channel.subscribe();
    match tokio::time::timeout(Duration::from_secs(10), rx.wait_for(enough)).await {
        Ok(Ok(seen)) => seen.clone(),
        _ => panic!(
            "notifications never got there; seen: {:?}",
            channel.borrow()
        ),
    }
}

impl ClientHandler for Notes {
    async fn on_progress(
        &self,
        params: ProgressNotificationParam,
        _ctx: NotificationContext<RoleClient>,
    ) {
        self.progress.send_modify(|seen| seen.push(params));
    }

    async fn on_logging_message(
        &self,
        params: LoggingMessageNotificationParam,
        _ctx: NotificationContext<RoleClient>,
    ) {
        self.logs.send_modify(|seen| seen.push(params));
    }
}

/// A client session on an in-process engine.
pub type Client = RunningService<RoleClient, Notes>;

/// How to start the engine.
pub struct Options {
    pub mode: Mode,
    /// Granted scopes; `None` means the surface's default stdio scopes.
    pub scopes: Option<Vec<&'static str>>,
    pub parts: SurfaceParts,
    /// The client opens a 2026-07-28 session with `server/discover` instead of `initialize`.
    pub discover: bool,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            mode: Mode::LocalStdio,
            scopes: None,
            parts: SurfaceParts::default(),
            discover: false,
        }
    }
}

/// A running in-process engine: the client, what it was notified of, and the stub backend.
pub struct Engine {
    pub client: Client,
    pub notes: Notes,
    pub backend: StubBackend,
    pub app: Arc<App>,
    server: JoinHandle<()>,
}

impl Drop for Engine {
    fn drop(&mut self) {
        self.server.abort();
    }
}

impl Engine {
    /// Serves `surface` with `options` against a stub backend answering `routes`.
    pub async fn start(surface: &'static SurfaceSpec, routes: Router, options: Options) -> Engine {
        let backend = StubBackend::start(routes).await;
        // A short timeout: a stub answers at once, a hung one fails the test quickly.
        let nexus = NexusClient::new(
            &backend.url,
            Secret::new("stub-token".into()),
            Duration::from_secs(5),
        )
        .unwrap();
        let app = Arc::new(App::new(surface, nexus, Settings::default(), options.parts));
        let scopes: BTreeSet<String> = match options.scopes {
            Some(list) => list.into_iter().map(str::to_owned).collect(),
            None => nexus_mcp_runtime::access::default_stdio_scopes(surface),
        };
        let (server_side, client_side) = tokio::io::duplex(1 << 20);
        let server = McpServer::new(app.clone(), options.mode, scopes).into_service();
        let server = tokio::spawn(async move {
            if let Ok(running) = server.serve(server_side).await {
                let _ = running.waiting().await;
            }
        });
        let notes = Notes::default();
        let client = if options.discover {
            let discover = ClientLifecycleMode::Discover {
                preferred_versions: vec![ProtocolVersion::V_2026_07_28],
            };
            notes
                .clone()
                .serve_with_lifecycle(client_side, discover)
                .await
        } else {
            notes.clone().serve(client_side).await
        }
        .unwrap();
        Engine {
            client,
            notes,
            backend,
            app,
            server,
        }
    }

    /// Names of the tools listed to this client.
    pub async fn tool_names(&self) -> Vec<String> {
        self.client
            .list_all_tools()
            .await
            .unwrap()
            .into_iter()
            .map(|t| t.name.to_string())
            .collect()
    }

    /// tools/call of `tool` with `arguments` (a JSON object); the protocol error as a string.
    pub async fn call(&self, tool: &str, arguments: Value) -> Result<CallToolResult, String> {
        self.client
            .call_tool(request(tool, arguments))
            .await
            .map_err(|e| e.to_string())
    }
}

/// The `App` of `surface` with its backend at `nexus_url`.
pub fn app(surface: &'static SurfaceSpec, nexus_url: &str, parts: SurfaceParts) -> Arc<App> {
    // A short timeout: a stub answers at once, a hung one fails the test quickly.
    let nexus = NexusClient::new(
        nexus_url,
        Secret::new("stub-token".into()),
        Duration::from_secs(5),
    )
    .unwrap();
    Arc::new(App::new(surface, nexus, Settings::default(), parts))
}

/// The real HTTP router (Streamable HTTP with sessions, stateless 2026-07-28 requests, legacy
/// SSE) for `app`, served on a loopback port of this process with no key (`scopes` for all).
/// Returns the /mcp URL; the server stops when the task is aborted or the runtime ends.
pub async fn serve_http(app: Arc<App>, scopes: &[&str]) -> (String, JoinHandle<()>) {
    use nexus_mcp_runtime::transport::http::{Auth, HttpSettings, router};
    let scopes: BTreeSet<String> = scopes.iter().map(|s| (*s).to_owned()).collect();
    let router = router(app, Auth::Open(Arc::new(scopes)), &HttpSettings::default()).unwrap();
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}/mcp", listener.local_addr().unwrap());
    let task = tokio::spawn(async move {
        let _ = axum::serve(listener, router).await;
    });
    (url, task)
}

/// A tools/call request of `tool` with `arguments` (a JSON object).
pub fn request(tool: &str, arguments: Value) -> CallToolRequestParams {
    let Value::Object(arguments) = arguments else {
        panic!("arguments must be a JSON object: {arguments}");
    };
    CallToolRequestParams::new(tool.to_owned()).with_arguments(arguments)
}

/// The JSON body of an isError result (its text content); panics when the call succeeded.
pub fn error_body(result: &CallToolResult) -> Value {
    assert_eq!(result.is_error, Some(true), "expected isError: {result:?}");
    let text = result
        .content
        .first()
        .and_then(|c| c.as_text())
        .map(|t| t.text.clone())
        .unwrap_or_default();
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("isError text is not JSON ({e}): {text}"))
}
