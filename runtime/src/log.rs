//! Where a call reports to its client while it runs: progress and log messages (MCP
//! `notifications/progress` and `notifications/message`).

use std::future::Future;
use std::pin::Pin;

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
