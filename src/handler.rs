//! What every tool call gets (context) and can return (typed errors). Shared by the generated
//! custom-handler dispatchers and the generic mapped-tool runtime.

use crate::app::App;
use crate::nexus_client::NexusRequest;
use crate::spec::Mode;
use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::{Value, json};
use std::collections::BTreeSet;
use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;

/// A custom tool's call, boxed so the generated dispatcher can return any of them.
pub type ToolFuture = Pin<Box<dyn Future<Output = Result<Value, ToolError>> + Send>>;

/// Reports progress of a long call to the client, when it asked for progress.
pub trait ProgressSink: Send + Sync {
    fn report(
        &self,
        done: f64,
        total: Option<f64>,
        message: String,
    ) -> Pin<Box<dyn Future<Output = ()> + Send + '_>>;
}

/// Severity of a message for the client's log (MCP `notifications/message`), least first.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum LogLevel {
    Debug,
    Info,
    Notice,
    Warning,
    Error,
}

/// Sends log messages to the client, at or above the level the client chose.
pub trait LogSink: Send + Sync {
    /// Whether a message at `level` would be sent (lets callers skip formatting it).
    fn enabled(&self, level: LogLevel) -> bool;
    fn log(
        &self,
        level: LogLevel,
        message: String,
    ) -> Pin<Box<dyn Future<Output = ()> + Send + '_>>;
}

/// Everything a tool call may use. Cheap to clone.
#[derive(Clone)]
pub struct ToolContext {
    pub app: Arc<App>,
    pub mode: Mode,
    pub scopes: Arc<BTreeSet<String>>,
    pub progress: Option<Arc<dyn ProgressSink>>,
    pub log: Option<Arc<dyn LogSink>>,
}

impl ToolContext {
    pub async fn progress(&self, done: f64, total: Option<f64>, message: impl Into<String>) {
        if let Some(sink) = &self.progress {
            sink.report(done, total, message.into()).await;
        }
    }

    /// A Nexus API request on behalf of this call: retries and timings reach the client's log.
    pub async fn nexus(&self, request: &NexusRequest) -> Result<Value, ToolError> {
        self.app.nexus.send(request, self.log.as_deref()).await
    }

    pub fn has_scope(&self, scope: &str) -> bool {
        self.scopes.contains(scope)
    }
}

/// A tool call that could not produce its result.
#[derive(Debug, thiserror::Error)]
pub enum ToolError {
    /// The arguments break the input schema or a rule of the tool: JSON-RPC -32602.
    #[error("invalid arguments for `{tool}`: {message}")]
    InvalidArguments { tool: String, message: String },
    /// The call was understood and deliberately refused (safety rule, mode, scope, stale plan).
    #[error("{message}")]
    Refused { code: &'static str, message: String },
    /// What was looked up does not exist.
    #[error("not found: {message}")]
    NotFound { message: String },
    /// The Nexus API failed; `retryable` says whether the same call may succeed later.
    #[error("Nexus API error ({code}): {message}")]
    Backend {
        code: String,
        message: String,
        retryable: bool,
    },
    /// A bug or an unexpected state on our side.
    #[error("internal error: {0}")]
    Internal(String),
}

impl ToolError {
    pub fn refused(code: &'static str, message: impl Into<String>) -> Self {
        ToolError::Refused {
            code,
            message: message.into(),
        }
    }

    /// The structured body of an isError result: an agent can branch on `code`.
    pub fn to_json(&self) -> Value {
        let (code, retryable) = match self {
            ToolError::InvalidArguments { .. } => ("invalid_arguments".to_owned(), false),
            ToolError::Refused { code, .. } => ((*code).to_owned(), false),
            ToolError::NotFound { .. } => ("not_found".to_owned(), false),
            ToolError::Backend {
                code, retryable, ..
            } => (code.clone(), *retryable),
            ToolError::Internal(_) => ("internal".to_owned(), false),
        };
        json!({"error": {"code": code, "message": self.to_string(), "retryable": retryable}})
    }
}

/// Arguments → a generated input struct. Schema validation already ran, so a failure here means
/// the schema and the struct disagree, which is reported as bad arguments naming the tool.
pub fn decode_input<T: DeserializeOwned>(tool: &str, arguments: Value) -> Result<T, ToolError> {
    serde_json::from_value(arguments).map_err(|e| ToolError::InvalidArguments {
        tool: tool.to_owned(),
        message: e.to_string(),
    })
}

/// A generated output struct → JSON for trimming.
pub fn encode_output<T: Serialize>(output: T) -> Result<Value, ToolError> {
    serde_json::to_value(output)
        .map_err(|e| ToolError::Internal(format!("cannot encode a tool result: {e}")))
}
