//! Tool calls' log messages to the client (MCP logging: `logging/setLevel` and
//! `notifications/message`), per session. The 2026-07-28 protocol deprecates logging (SEP-2577)
//! but the 2025 revisions that today's agents speak still define it, hence the `deprecated`
//! allowance for rmcp's types in this module only.
#![allow(deprecated)]

use crate::log::{LogLevel, LogSink};
use rmcp::model::{LoggingLevel, LoggingMessageNotificationParam};
use rmcp::service::{Peer, RoleServer};
use serde_json::json;
use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::sync::atomic::{AtomicU8, Ordering};

/// No messages until the client asks with `logging/setLevel`: most agents never do, and should
/// not pay for messages nobody reads.
const OFF: u8 = 0;

/// The minimum severity one session asked for (`OFF` until it asks).
#[derive(Clone, Default)]
pub struct SessionLogLevel(Arc<AtomicU8>);

impl SessionLogLevel {
    pub fn set(&self, level: LoggingLevel) {
        self.0.store(severity(level), Ordering::Relaxed);
    }

    /// The sink a tool call of this session logs to.
    pub fn sink(&self, peer: Peer<RoleServer>, logger: &'static str) -> Arc<dyn LogSink> {
        Arc::new(ClientLog {
            peer,
            min: self.0.clone(),
            logger,
        })
    }
}

/// MCP severities in order, 1 (debug) to 8 (emergency).
fn severity(level: LoggingLevel) -> u8 {
    match level {
        LoggingLevel::Debug => 1,
        LoggingLevel::Info => 2,
        LoggingLevel::Notice => 3,
        LoggingLevel::Warning => 4,
        LoggingLevel::Error => 5,
        LoggingLevel::Critical => 6,
        LoggingLevel::Alert => 7,
        LoggingLevel::Emergency => 8,
    }
}

fn mcp_level(level: LogLevel) -> LoggingLevel {
    match level {
        LogLevel::Debug => LoggingLevel::Debug,
        LogLevel::Info => LoggingLevel::Info,
        LogLevel::Notice => LoggingLevel::Notice,
        LogLevel::Warning => LoggingLevel::Warning,
        LogLevel::Error => LoggingLevel::Error,
    }
}

struct ClientLog {
    peer: Peer<RoleServer>,
    min: Arc<AtomicU8>,
    logger: &'static str,
}

impl LogSink for ClientLog {
    fn enabled(&self, level: LogLevel) -> bool {
        let min = self.min.load(Ordering::Relaxed);
        min != OFF && severity(mcp_level(level)) >= min
    }

    fn log(
        &self,
        level: LogLevel,
        message: String,
    ) -> Pin<Box<dyn Future<Output = ()> + Send + '_>> {
        Box::pin(async move {
            if !self.enabled(level) {
                return;
            }
            let param = LoggingMessageNotificationParam::new(mcp_level(level), json!(message))
                .with_logger(self.logger);
            if let Err(e) = self.peer.notify_logging_message(param).await {
                tracing::debug!(error = %e, "log notification not delivered");
            }
        })
    }
}
