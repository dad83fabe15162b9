//! The typed error of a tool call, and the caps on what an error may quote back.

use crate::arguments::ArgumentProblem;
use crate::spec::Mode;
// Kept here too: quoting was error.rs's before it moved (surfaces and nexus-lite import it from here).
pub use crate::quote::{ECHO_MAX, MESSAGE_MAX, capped, echo};
use serde_json::{Value, json};

/// A tool call that could not produce its result.
#[derive(Debug, thiserror::Error)]
pub enum ToolError {
    /// The arguments break the input schema or a rule of the tool: an isError result with
    /// code `invalid_arguments` and the field, rule and allowed values of each problem.
    #[error("invalid arguments for `{tool}`: {message}")]
    InvalidArguments {
        tool: String,
        message: String,
        problems: Vec<ArgumentProblem>,
    },
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
    /// A backend failure the tool's manifest answers under a domain code (`errors:`), with
    /// what the backend sent besides its message (e.g. candidates), redacted and capped.
    #[error("{message}")]
    Domain {
        code: &'static str,
        message: String,
        retryable: bool,
        details: Option<Value>,
    },
}

impl ToolError {
    pub fn refused(code: &'static str, message: impl Into<String>) -> Self {
        ToolError::Refused {
            code,
            message: message.into(),
        }
    }

    /// Bad arguments with one problem at `field` (a JSON pointer) breaking `rule`.
    pub fn invalid_field(
        tool: &str,
        field: impl Into<String>,
        rule: &str,
        message: impl Into<String>,
    ) -> Self {
        let message = message.into();
        ToolError::InvalidArguments {
            tool: tool.to_owned(),
            problems: vec![ArgumentProblem::new(field, rule, message.clone())],
            message,
        }
    }

    /// The structured body of an isError result: an agent can branch on `code`.
    pub fn to_json(&self) -> Value {
        self.body(capped(&self.to_string()).into_owned())
    }

    fn body(&self, message: String) -> Value {
        let (code, retryable) = match self {
            ToolError::InvalidArguments { .. } => ("invalid_arguments".to_owned(), false),
            ToolError::Refused { code, .. } => ((*code).to_owned(), false),
            ToolError::NotFound { .. } => ("not_found".to_owned(), false),
            ToolError::Backend {
                code, retryable, ..
            } => (code.clone(), *retryable),
            ToolError::Internal(_) => ("internal".to_owned(), false),
            ToolError::Domain {
                code, retryable, ..
            } => ((*code).to_owned(), *retryable),
        };
        let mut body = json!({"error": {"code": code, "message": message, "retryable": retryable}});
        if let ToolError::Domain {
            details: Some(details),
            ..
        } = self
        {
            body["error"]["details"] = details.clone();
        }
        if let (ToolError::InvalidArguments { problems, .. }, Some(error)) =
            (self, body["error"].as_object_mut())
        {
            // The first problem's field, rule and allowed values at the top, for agents that
            // read one; all of them under `errors` when there are several.
            if let Some(Value::Object(first)) = problems.first().map(ArgumentProblem::to_json) {
                for key in ["field", "rule", "allowed"] {
                    if let Some(v) = first.get(key) {
                        error.insert(key.to_owned(), v.clone());
                    }
                }
            }
            if problems.len() > 1 {
                let all = problems
                    .iter()
                    .take(crate::arguments::MAX_PROBLEMS)
                    .map(ArgumentProblem::to_json)
                    .collect();
                error.insert("errors".to_owned(), Value::Array(all));
            }
        }
        body
    }

    /// Whether the message describes the server rather than the call: a backend failure or a
    /// bug, whose text carries absolute paths, git's stderr or backend internals. Argument
    /// problems, refusals and not-found answers are about the call and stay specific.
    pub fn is_internal(&self) -> bool {
        match self {
            ToolError::InvalidArguments { .. }
            | ToolError::Refused { .. }
            | ToolError::NotFound { .. }
            | ToolError::Domain { .. } => false,
            // Nexus' own 4xx codes (plan_stale, dirty_not_allowed…) answer the call; a 5xx,
            // a transport failure or an unreadable answer is the server's business.
            ToolError::Backend { code, .. } => {
                matches!(code.as_str(), "nexus_unavailable" | "bad_response")
            }
            ToolError::Internal(_) => true,
        }
    }

    /// Whether the caller can fix the call: its arguments, a refusal, something not found, or
    /// the backend's own 4xx answer about the request (not a failure of Nexus, its token or
    /// this server). Resources and prompts answer these as invalid params, never as -32603.
    pub fn is_callers(&self) -> bool {
        match self {
            ToolError::Backend { code, .. } => !ENGINE_CODES.contains(&code.as_str()),
            ToolError::Internal(_) => false,
            _ => true,
        }
    }

    /// The isError body for a client in `mode`. Over HTTP, an internal error becomes a generic
    /// message with a reference; the details are logged on stderr under the same reference.
    /// A local stdio user owns the machine and gets the details.
    pub fn to_client_json(&self, mode: Mode) -> Value {
        if mode == Mode::LocalStdio || !self.is_internal() {
            return self.to_json();
        }
        let reference = log_internal(self);
        let retry = match self {
            ToolError::Backend {
                retryable: true, ..
            } => " The call can be retried.",
            _ => "",
        };
        self.body(format!(
            "internal error on the server; the operator finds the details in its log under reference {reference}.{retry}"
        ))
    }
}

/// Codes the engine gives failures itself; they are not the backend's words. (Here, not in
/// call::error_codes, so that error imports nothing that imports it.)
pub(crate) const ENGINE_CODES: [&str; 5] = [
    "nexus_unavailable",
    "nexus_unauthorized",
    "nexus_busy",
    "nexus_answer_too_large",
    "bad_response",
];

/// Logs an internal error's details with a new reference, returned for the client's message.
pub fn log_internal(error: &dyn std::fmt::Display) -> String {
    let reference = uuid::Uuid::new_v4().simple().to_string();
    tracing::error!(%reference, error = %error, "internal error; the HTTP client got only the reference");
    reference
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn echoes_are_cut_with_their_length() {
        assert_eq!(echo("short"), "short");
        let long = "é".repeat(100_000);
        let shown = echo(&long);
        assert!(shown.starts_with(&"é".repeat(ECHO_MAX)));
        assert!(shown.ends_with("… (100000 characters)"), "{shown}");
        assert!(shown.chars().count() < ECHO_MAX + 30);
        let body = ToolError::NotFound { message: long }.to_json();
        let message = body["error"]["message"].as_str().unwrap_or_default();
        assert!(message.chars().count() < MESSAGE_MAX + 30, "{message}");
    }

    #[test]
    fn internal_errors_are_generic_over_http_only() {
        let e = ToolError::Backend {
            code: "nexus_unavailable".to_owned(),
            message: "git rev-parse failed in /srv/repos/shop: fatal: bad object".to_owned(),
            retryable: true,
        };
        let http = e.to_client_json(Mode::RemoteHttp).to_string();
        assert!(
            !http.contains("/srv/repos") && !http.contains("fatal"),
            "{http}"
        );
        assert!(
            http.contains("reference") && http.contains("nexus_unavailable"),
            "{http}"
        );
        let stdio = e.to_client_json(Mode::LocalStdio).to_string();
        assert!(
            stdio.contains("/srv/repos/shop: fatal: bad object"),
            "{stdio}"
        );
        let refused = ToolError::refused("plan_stale", "HEAD moved; plan again");
        assert_eq!(refused.to_client_json(Mode::RemoteHttp), refused.to_json());
    }
}
