//! The only way nexus-mcp reaches knowledge: the Nexus HTTP API. The service token stays here;
//! it is never logged, never returned, and never part of an error message: whatever Nexus sends
//! back (results and error text alike) has the token's literal value and every secret-looking
//! value replaced before anyone sees it, and an answer is read up to a size cap, never whole.

use crate::error::{ToolError, echo};
use crate::log::{LogLevel, LogSink};
use crate::redact;
use reqwest::{Method, StatusCode};
use serde_json::Value;
use std::fmt;
use std::sync::{Arc, OnceLock};
use std::time::{Duration, Instant};

/// How many times a GET is tried in all; POSTs are never retried (they may not be idempotent).
const GET_ATTEMPTS: u32 = 3;

/// Default cap on one Nexus answer (NEXUS_MCP_MAX_NEXUS_ANSWER_BYTES).
pub const DEFAULT_MAX_ANSWER_BYTES: usize = 16 * 1024 * 1024;

/// Requests to Nexus in flight at once from this process; further ones wait their turn. A
/// thousand agents calling at once otherwise open a thousand connections to Nexus (and, with
/// the embedded nexus-lite, a thousand server tasks in this process) for no gain in speed.
const MAX_IN_FLIGHT: usize = 64;

/// How much of an error answer is read: enough for any error message, never a flood.
const MAX_ERROR_BODY_BYTES: usize = 64 * 1024;

/// A request rendered from a manifest mapping (or built by a custom handler).
#[derive(Debug, Clone, PartialEq)]
pub struct NexusRequest {
    pub method: Method,
    /// Already percent-encoded path, starting with `/`.
    pub path: String,
    pub query: Vec<(String, String)>,
    pub body: Option<Value>,
    /// Sending it twice does no harm (re-storing the same gate verdict): a POST so marked is sent
    /// again when its answer was lost with a local Nexus that died. GETs always are.
    pub replay_safe: bool,
}

impl NexusRequest {
    pub fn get(path: impl Into<String>) -> Self {
        NexusRequest {
            method: Method::GET,
            path: path.into(),
            query: Vec::new(),
            body: None,
            replay_safe: true,
        }
    }

    pub fn post(path: impl Into<String>, body: Value) -> Self {
        NexusRequest {
            method: Method::POST,
            path: path.into(),
            query: Vec::new(),
            body: Some(body),
            replay_safe: false,
        }
    }

    /// Marks a POST as harmless to send twice (see [`NexusRequest::replay_safe`]).
    pub fn replay_safe(mut self) -> Self {
        self.replay_safe = true;
        self
    }

    /// Adds a query parameter; `None` leaves it out.
    pub fn param(mut self, name: &str, value: Option<impl ToString>) -> Self {
        if let Some(v) = value {
            self.query.push((name.to_owned(), v.to_string()));
        }
        self
    }
}

/// The token, wrapped so that `{:?}` and `{}` never print it.
#[derive(Clone)]
pub struct Secret(String);

impl Secret {
    pub fn new(value: String) -> Self {
        Secret(value)
    }

    pub fn expose(&self) -> &str {
        &self.0
    }
}

impl fmt::Debug for Secret {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Secret([REDACTED])")
    }
}

/// The token a local Nexus gave this process, and which registration it belongs to.
#[derive(Debug, Clone)]
pub struct Credentials {
    pub token: Secret,
    /// Counts registrations: a failed request names the one it used, so that many failures
    /// of one dead registration cause one re-join, not one each.
    pub generation: u64,
}

/// A future a [`LocalNexus`] returns.
pub type LocalFuture<'a> =
    std::pin::Pin<Box<dyn std::future::Future<Output = Result<Credentials, String>> + Send + 'a>>;

/// A Nexus on this machine that this process registered with and can join again: the daemon
/// can die or be restarted under a connected client, which then re-registers without the user.
pub trait LocalNexus: Send + Sync + fmt::Debug {
    /// The current registration, waiting for one being made (the first request waits for the
    /// join started in the background at start-up).
    fn current(&self) -> LocalFuture<'_>;
    /// The registration `generation` no longer reaches Nexus (the connection was refused or its
    /// token was): registers again, starting a Nexus if none runs, and returns the new one.
    fn recover(&self, generation: u64) -> LocalFuture<'_>;
}

#[derive(Debug, Clone)]
pub struct NexusClient {
    /// Built on first use: loading the system's trust roots costs ~15 ms, which a server that
    /// is only asked for tools/list should not pay at start-up (see [`NexusClient::warm_up`]).
    http: Arc<OnceLock<Result<reqwest::Client, String>>>,
    timeout: Duration,
    /// NEXUS_API_URL, parsed once: each request sets its path and query on a copy.
    base_url: reqwest::Url,
    token: Secret,
    /// A local Nexus over its Unix socket: tokens come from there, not from `token`.
    local: Option<(std::path::PathBuf, Arc<dyn LocalNexus>)>,
    max_answer_bytes: usize,
    /// Permits for [`MAX_IN_FLIGHT`].
    in_flight: Arc<tokio::sync::Semaphore>,
}

/// The base URL of a local Nexus: the host is a placeholder, the Unix socket is the address.
pub const LOCAL_BASE_URL: &str = "http://nexus-lite.localhost";

/// An HTTP client builder for a local Nexus on the Unix socket `socket`: plain HTTP, so no
/// trust roots are loaded (~15 ms of a client's start-up) and no proxy applies.
pub fn local_http(socket: &std::path::Path) -> reqwest::ClientBuilder {
    reqwest::Client::builder()
        .unix_socket(socket)
        .tls_certs_only(Vec::new())
        .no_proxy()
}

/// How a failed attempt went: whether the request can have reached Nexus.
enum Failed {
    /// Not connected, or its token refused: nothing was done.
    Unreached(BackendFailure),
    /// Sent: Nexus may or may not have acted on it.
    Sent(BackendFailure),
}

impl Failed {
    fn into_failure(self) -> BackendFailure {
        match self {
            Failed::Unreached(f) | Failed::Sent(f) => f,
        }
    }
}

#[derive(Debug, thiserror::Error)]
pub enum NexusClientError {
    #[error(
        "NEXUS_API_URL `{0}` is not a usable Nexus API root: it must be an http(s) URL with a host and no query or fragment, e.g. https://nexus.example.com"
    )]
    BadUrl(String),
}

impl NexusClient {
    pub fn new(base_url: &str, token: Secret, timeout: Duration) -> Result<Self, NexusClientError> {
        let bad = || NexusClientError::BadUrl(base_url.to_owned());
        let parsed = reqwest::Url::parse(base_url).map_err(|_| bad())?;
        if !matches!(parsed.scheme(), "http" | "https")
            || parsed.cannot_be_a_base()
            || parsed.query().is_some()
            || parsed.fragment().is_some()
        {
            return Err(bad());
        }
        Ok(NexusClient {
            http: Arc::default(),
            timeout,
            base_url: parsed,
            token,
            local: None,
            max_answer_bytes: DEFAULT_MAX_ANSWER_BYTES,
            in_flight: Arc::new(tokio::sync::Semaphore::new(MAX_IN_FLIGHT)),
        })
    }

    /// A client of the local Nexus listening on `socket`, registered through `local`.
    pub fn local(
        socket: std::path::PathBuf,
        local: Arc<dyn LocalNexus>,
        timeout: Duration,
    ) -> Result<Self, NexusClientError> {
        let mut client = NexusClient::new(LOCAL_BASE_URL, Secret::new(String::new()), timeout)?;
        client.local = Some((socket, local));
        Ok(client)
    }

    /// Caps the size of one Nexus answer: a longer one is cut off and the call fails.
    pub fn with_max_answer_bytes(mut self, max: usize) -> Self {
        self.max_answer_bytes = max;
        self
    }

    /// Upstream text as it may be shown or logged: the token's literal value and every
    /// secret-looking value redacted.
    fn scrub_text(token: &str, text: &mut String) {
        redact::scrub::text(token, text);
        redact::redact_text(text);
    }

    fn http(&self) -> Result<&reqwest::Client, ToolError> {
        self.http
            .get_or_init(|| {
                let builder = match &self.local {
                    Some((socket, _)) => local_http(socket),
                    None => reqwest::Client::builder(),
                };
                builder
                    .timeout(self.timeout)
                    .connect_timeout(Duration::from_secs(5))
                    .pool_max_idle_per_host(MAX_IN_FLIGHT)
                    .user_agent(concat!("nexus-mcp/", env!("CARGO_PKG_VERSION")))
                    .build()
                    .map_err(|e| e.to_string())
            })
            .as_ref()
            .map_err(|e| {
                ToolError::Internal(format!("cannot build the HTTP client for Nexus: {e}"))
            })
    }

    /// Builds the HTTP client off the request path, so the first tool call does not pay for it.
    pub fn warm_up(&self) {
        let client = self.clone();
        std::thread::spawn(move || {
            let _ = client.http();
        });
    }

    /// Sends `request`, retrying GETs on transport errors and 5xx answers. `log` (the calling
    /// client's log, if any) hears about each request and each retry.
    pub async fn send(
        &self,
        request: &NexusRequest,
        log: Option<&dyn LogSink>,
    ) -> Result<Value, ToolError> {
        self.send_detailed(request, log).await.map_err(|f| f.error)
    }

    /// [`NexusClient::send`], keeping the HTTP status and the (scrubbed) error body of a
    /// failed answer, for the manifest's per-tool error codes.
    pub async fn send_detailed(
        &self,
        request: &NexusRequest,
        log: Option<&dyn LogSink>,
    ) -> Result<Value, BackendFailure> {
        let Some((_, local)) = &self.local else {
            return self
                .attempts(request, log, &self.token)
                .await
                .map_err(Failed::into_failure);
        };
        let credentials = local.current().await.map_err(local_unavailable)?;
        let failed = match self.attempts(request, log, &credentials.token).await {
            Ok(value) => return Ok(value),
            // Nexus answered (an error is an answer), or the request may have been acted on.
            Err(Failed::Sent(failure)) if failure.status.is_some() || !request.replay_safe => {
                return Err(failure);
            }
            Err(failed) => failed.into_failure(),
        };
        // The local Nexus went away (or forgot this process): join it again, once, and retry.
        tracing::warn!(path = %echo(&request.path), error = %failed.error, "re-joining the local Nexus");
        let credentials = local
            .recover(credentials.generation)
            .await
            .map_err(local_unavailable)?;
        self.attempts(request, log, &credentials.token)
            .await
            .map_err(Failed::into_failure)
    }

    /// Sends `request` with `token`, GETs up to [`GET_ATTEMPTS`] times.
    async fn attempts(
        &self,
        request: &NexusRequest,
        log: Option<&dyn LogSink>,
        token: &Secret,
    ) -> Result<Value, Failed> {
        let attempts = if request.method == Method::GET {
            GET_ATTEMPTS
        } else {
            1
        };
        let mut last = None;
        // Logged and quoted cut: an id of any length is part of the path.
        let path = echo(&request.path);
        for attempt in 1..=attempts {
            let started = Instant::now();
            let outcome = self.send_once(request, token).await;
            if let Some(log) = log.filter(|l| l.enabled(LogLevel::Debug)) {
                let took = started.elapsed().as_secs_f64() * 1e3;
                let what = match &outcome {
                    Ok(_) => "answered".to_owned(),
                    Err(Failed::Unreached(e) | Failed::Sent(e)) => format!("failed ({})", e.error),
                };
                log.log(
                    LogLevel::Debug,
                    format!("Nexus {} {} {what} in {took:.1} ms", request.method, path),
                )
                .await;
            }
            let failure = match outcome {
                // A local Nexus that cannot be reached, or dropped the connection, is joined
                // again at once (it may have restarted), not waited for.
                Err(Failed::Unreached(_)) if self.local.is_some() => return outcome,
                Err(Failed::Sent(ref f)) if self.local.is_some() && f.status.is_none() => {
                    return outcome;
                }
                Err(Failed::Unreached(f) | Failed::Sent(f)) if attempt < attempts => f,
                other => return other,
            };
            let e = match failure.error {
                e @ ToolError::Backend {
                    retryable: true, ..
                } => e,
                error => return Err(Failed::Sent(BackendFailure { error, ..failure })),
            };
            tracing::warn!(%path, attempt, error = %e, "retrying Nexus GET");
            if let Some(log) = log.filter(|l| l.enabled(LogLevel::Warning)) {
                log.log(
                    LogLevel::Warning,
                    format!(
                        "Nexus GET {} failed ({e}); retrying (attempt {} of {attempts})",
                        path,
                        attempt + 1
                    ),
                )
                .await;
            }
            // Short backoff between attempts; the total stays well under the call timeout.
            tokio::time::sleep(Duration::from_millis(100 * u64::from(attempt * attempt))).await;
            last = Some(e);
        }
        Err(Failed::Sent(
            last.unwrap_or_else(|| ToolError::Internal("no attempt was made".to_owned()))
                .into(),
        ))
    }

    /// The request's URL: the base URL's path prefix, the request's (already percent-encoded)
    /// path, its query pairs form-encoded.
    fn url(&self, request: &NexusRequest) -> reqwest::Url {
        let mut url = self.base_url.clone();
        url.set_path(&format!(
            "{}{}",
            self.base_url.path().trim_end_matches('/'),
            request.path
        ));
        if !request.query.is_empty() {
            url.query_pairs_mut().extend_pairs(&request.query);
        }
        url
    }

    async fn send_once(&self, request: &NexusRequest, token: &Secret) -> Result<Value, Failed> {
        let path = echo(&request.path);
        let token = token.expose();
        let _permit = tokio::time::timeout(self.timeout, self.in_flight.acquire())
            .await
            .ok()
            .and_then(Result::ok)
            .ok_or_else(|| ToolError::Backend {
                code: "nexus_busy".to_owned(),
                message: format!(
                    "{MAX_IN_FLIGHT} Nexus requests were already in flight for {} s; retry the call shortly",
                    self.timeout.as_secs()
                ),
                retryable: true,
            })
            .map_err(|e| Failed::Unreached(e.into()))?;
        let mut builder = self
            .http()
            .map_err(|e| Failed::Unreached(e.into()))?
            .request(request.method.clone(), self.url(request))
            .bearer_auth(token);
        if let Some(body) = &request.body {
            builder = builder.json(body);
        }
        let response = builder.send().await.map_err(|e| {
            let failure = transport_error(&path, &e).into();
            if e.is_connect() {
                Failed::Unreached(failure)
            } else {
                Failed::Sent(failure)
            }
        })?;
        let status = response.status();
        if !status.is_success() {
            // An error body cut at the cap no longer parses, and says `HTTP <status>`.
            let bytes = match read_capped(response, MAX_ERROR_BODY_BYTES, &path).await {
                Ok(Ok(bytes)) | Err(bytes) => bytes,
                Ok(Err(_)) => Vec::new(),
            };
            let mut error = status_error(status, &path, &bytes);
            match &mut error {
                ToolError::NotFound { message } => Self::scrub_text(token, message),
                ToolError::Backend { code, message, .. } => {
                    Self::scrub_text(token, code);
                    Self::scrub_text(token, message);
                }
                _ => {}
            }
            // The token goes while the body is parsed; one walk then redacts it.
            let mut body = redact::scrub::parse(&bytes, token).ok();
            if let Some(body) = &mut body {
                redact::redact_value(body);
            }
            let failure = BackendFailure {
                error,
                status: Some(status.as_u16()),
                body,
            };
            // A local Nexus that no longer knows this registration (restarted): nothing was done.
            return Err(
                if status == StatusCode::UNAUTHORIZED && self.local.is_some() {
                    Failed::Unreached(failure)
                } else {
                    Failed::Sent(failure)
                },
            );
        }
        let bytes = read_capped(response, self.max_answer_bytes, &path)
            .await
            .map_err(|_| ToolError::Backend {
                code: "nexus_answer_too_large".to_owned(),
                message: format!(
                    "Nexus answered more than {} bytes for {}, the cap on one answer; it was cut off unread. Ask for less (a smaller limit, a narrower filter or a page), or have the operator raise NEXUS_MCP_MAX_NEXUS_ANSWER_BYTES.",
                    self.max_answer_bytes, path
                ),
                retryable: false,
            })
            .map_err(|e| Failed::Sent(e.into()))?
            .map_err(|e| Failed::Sent(e.into()))?;
        // The token's value goes while the answer is parsed (no walk of its own); the rest of
        // redaction is the one walk of `trim::shape`.
        let value: Value = redact::scrub::parse(&bytes, token).map_err(|e| Failed::Sent(ToolError::Backend {
            code: "bad_response".to_owned(),
            message: format!("Nexus answered {} for {} with a body that is not JSON ({e}). Check that NEXUS_API_URL points at a Nexus API.", status.as_u16(), path),
            retryable: false,
        }.into()))?;
        Ok(value)
    }
}

/// A failed Nexus request: the error every caller gets, plus, when Nexus answered, its HTTP
/// status and its error body (token scrubbed, secrets redacted).
#[derive(Debug)]
pub struct BackendFailure {
    pub error: ToolError,
    pub status: Option<u16>,
    pub body: Option<Value>,
}

impl From<ToolError> for BackendFailure {
    fn from(error: ToolError) -> Self {
        BackendFailure {
            error,
            status: None,
            body: None,
        }
    }
}

/// Reads a body chunk by chunk, up to `max` bytes. `Err` holds the first `max` bytes when the
/// body is longer (the rest is never read); the inner result is the transport's.
async fn read_capped(
    mut response: reqwest::Response,
    max: usize,
    path: &str,
) -> Result<Result<Vec<u8>, ToolError>, Vec<u8>> {
    if response
        .content_length()
        .is_some_and(|n| n > u64::try_from(max).unwrap_or(u64::MAX))
    {
        return Err(Vec::new());
    }
    let mut body = Vec::new();
    loop {
        match response.chunk().await {
            Ok(Some(chunk)) => {
                if body.len() + chunk.len() > max {
                    let room = max - body.len();
                    body.extend_from_slice(&chunk[..room]);
                    return Err(body);
                }
                body.extend_from_slice(&chunk);
            }
            Ok(None) => return Ok(Ok(body)),
            Err(e) => return Ok(Err(transport_error(path, &e))),
        }
    }
}

/// The local Nexus could not be joined (again).
fn local_unavailable(reason: String) -> BackendFailure {
    ToolError::Backend {
        code: "nexus_unavailable".to_owned(),
        message: format!(
            "the local Nexus (nexus-lite) cannot be reached: {reason}. The call can be retried; `nexus-mcp status` shows the local Nexus, and its log is nexus-lite.log in the data directory."
        ),
        retryable: true,
    }
    .into()
}

fn transport_error(path: &str, e: &reqwest::Error) -> ToolError {
    let what = if e.is_timeout() {
        "timed out"
    } else if e.is_connect() {
        "could not connect"
    } else {
        "failed"
    };
    // reqwest's Display includes the URL but never headers, so the token cannot leak here.
    ToolError::Backend {
        code: "nexus_unavailable".to_owned(),
        message: format!(
            "the request to Nexus for {path} {what}. The call can be retried; if it keeps failing, the Nexus API is down or unreachable."
        ),
        retryable: true,
    }
}

fn status_error(status: StatusCode, path: &str, body: &[u8]) -> ToolError {
    let parsed: Option<Value> = serde_json::from_slice(body).ok();
    let field = |name: &str| {
        parsed
            .as_ref()
            .and_then(|v| v.pointer(&format!("/error/{name}")))
            .and_then(Value::as_str)
            .map(str::to_owned)
    };
    let code = field("code");
    let message = field("message").unwrap_or_else(|| format!("HTTP {}", status.as_u16()));
    match status {
        StatusCode::NOT_FOUND => ToolError::NotFound { message },
        StatusCode::UNAUTHORIZED | StatusCode::FORBIDDEN => ToolError::Backend {
            code: "nexus_unauthorized".to_owned(),
            message: "Nexus refused this server's service token. The operator must check NEXUS_API_TOKEN; the agent cannot fix this.".to_owned(),
            retryable: false,
        },
        s if s.is_server_error() => ToolError::Backend {
            code: "nexus_unavailable".to_owned(),
            message: format!("Nexus failed on {path} (HTTP {}): {message}. The call can be retried.", s.as_u16()),
            retryable: true,
        },
        s => ToolError::Backend {
            code: code.unwrap_or_else(|| format!("http_{}", s.as_u16())),
            message,
            retryable: false,
        },
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    fn client(base: &str) -> NexusClient {
        NexusClient::new(base, Secret::new("t".into()), Duration::from_secs(1)).unwrap()
    }

    #[test]
    fn urls_keep_the_base_prefix_the_encoded_path_and_a_form_encoded_query() {
        let request = NexusRequest::get("/api/v1/findings/a%2Fb%3Fc")
            .param("repository", Some("acme/shop"))
            .param("q", Some("a b&c=d"));
        assert_eq!(
            client("https://nexus.example.com/base/")
                .url(&request)
                .as_str(),
            "https://nexus.example.com/base/api/v1/findings/a%2Fb%3Fc?repository=acme%2Fshop&q=a+b%26c%3Dd"
        );
        assert_eq!(
            client("http://127.0.0.1:8080")
                .url(&NexusRequest::get("/api/v1/graphs"))
                .as_str(),
            "http://127.0.0.1:8080/api/v1/graphs"
        );
    }

    #[test]
    fn a_base_url_that_cannot_take_a_path_is_refused() {
        for bad in ["ftp://x", "http://", "https://h/?q=1", "nexus.example.com"] {
            let err = NexusClient::new(bad, Secret::new("t".into()), Duration::from_secs(1));
            assert!(err.is_err(), "{bad} was accepted");
        }
    }
}
