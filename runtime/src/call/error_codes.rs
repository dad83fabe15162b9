//! The manifest's per-tool `errors:`: a backend failure (its HTTP status or its own
//! `error.code`) answered as an isError result under a declared domain code, keeping the
//! backend's message and details (e.g. the candidates of an ambiguous id), redacted and capped.

use crate::backend::BackendFailure;
use crate::error::{ENGINE_CODES, ToolError, capped};
use crate::redact;
use crate::spec::{BackendFailure as When, ErrorCodeSpec, ToolSpec};
use crate::trim;
use serde_json::{Map, Value, json};

/// Most characters of `details` an error carries; beyond that, arrays are cut as in results.
const DETAILS_BUDGET: usize = 2000;

/// The error `tool` answers for `failure`: its declared domain code when an entry matches,
/// else the failure's own error.
pub fn apply(tool: &ToolSpec, arguments: &Value, failure: BackendFailure) -> ToolError {
    if tool.errors.is_empty() {
        return failure.error;
    }
    let status = failure.status.or_else(|| status_of(&failure.error));
    // The service token's failures are the operator's; no manifest renames them.
    if matches!(status, Some(401 | 403)) {
        return failure.error;
    }
    let backend_code = failure
        .body
        .as_ref()
        .and_then(|b| b.pointer("/error/code"))
        .and_then(Value::as_str)
        .map(str::to_owned)
        .or_else(|| match &failure.error {
            ToolError::Backend { code, .. }
                if !ENGINE_CODES.contains(&code.as_str()) && !code.starts_with("http_") =>
            {
                Some(code.clone())
            }
            _ => None,
        });
    let Some(entry) = find(tool.errors, status, backend_code.as_deref()) else {
        return failure.error;
    };
    let backend_message = match &failure.error {
        ToolError::NotFound { message } | ToolError::Backend { message, .. } => message.clone(),
        other => other.to_string(),
    };
    let mut details = details(failure.body.as_ref());
    let message = match entry.message {
        None => backend_message,
        Some(template) => {
            let backend =
                json!({"status": status, "code": backend_code, "message": backend_message});
            let rendered = crate::templates::env().render_str(
                template,
                minijinja::context! {
                    input => minijinja::Value::from(minijinja::value::Serde(arguments)),
                    backend => minijinja::Value::from(minijinja::value::Serde(&backend)),
                },
            );
            match rendered {
                Ok(text) => {
                    details.insert(
                        "backend_message".to_owned(),
                        Value::String(capped(&backend_message).into_owned()),
                    );
                    text
                }
                Err(e) => {
                    tracing::error!(tool = tool.name, code = entry.code, error = %e, "error message template failed; the backend's message is used");
                    backend_message
                }
            }
        }
    };
    let mut message = message;
    redact::redact_text(&mut message);
    ToolError::Domain {
        code: entry.code,
        message: capped(&message).into_owned(),
        retryable: status.is_some_and(|s| s == 429 || s >= 500),
        details: (!details.is_empty()).then_some(Value::Object(details)),
    }
}

/// A backend code entry wins over a status entry: it is the more specific.
fn find(
    errors: &'static [ErrorCodeSpec],
    status: Option<u16>,
    code: Option<&str>,
) -> Option<&'static ErrorCodeSpec> {
    errors
        .iter()
        .find(|e| matches!(e.when, When::Code(c) if Some(c) == code))
        .or_else(|| {
            errors
                .iter()
                .find(|e| matches!(e.when, When::Status(s) if Some(s) == status))
        })
}

/// The HTTP status behind an error that no longer carries it (a custom handler's).
fn status_of(error: &ToolError) -> Option<u16> {
    match error {
        ToolError::NotFound { .. } => Some(404),
        ToolError::Backend { code, .. } => code.strip_prefix("http_")?.parse().ok(),
        _ => None,
    }
}

/// What the backend sent besides its code and message: the other fields of its `error`
/// object and of the body, redacted and cut to [`DETAILS_BUDGET`].
fn details(body: Option<&Value>) -> Map<String, Value> {
    let Some(Value::Object(body)) = body else {
        return Map::new();
    };
    let mut out: Map<String, Value> = body
        .iter()
        .filter(|(k, _)| k.as_str() != "error")
        .map(|(k, v)| (k.clone(), v.clone()))
        .collect();
    if let Some(Value::Object(error)) = body.get("error") {
        out.extend(
            error
                .iter()
                .filter(|(k, _)| !matches!(k.as_str(), "code" | "message"))
                .map(|(k, v)| (k.clone(), v.clone())),
        );
    }
    let mut value = Value::Object(out);
    redact::redact_value(&mut value);
    let mut report = trim::Report::default();
    trim::fit_budget(&mut value, DETAILS_BUDGET, &mut report);
    if report.truncated() {
        value["truncated"] = Value::Bool(true);
    }
    match value {
        Value::Object(map) => map,
        _ => Map::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::spec::{Access, Handler, ResponseSpec};

    const ERRORS: &[ErrorCodeSpec] = &[
        ErrorCodeSpec {
            when: When::Status(404),
            code: "TASK_NOT_FOUND",
            message: None,
        },
        ErrorCodeSpec {
            when: When::Status(409),
            code: "CONFLICT",
            message: None,
        },
        ErrorCodeSpec {
            when: When::Code("plan_stale"),
            code: "PLAN_STALE",
            message: Some("Plan {{ input.plan_id }} is stale: {{ backend.message }}"),
        },
    ];

    static TOOL: ToolSpec = ToolSpec {
        name: "t",
        title: "T",
        description: "",
        scope: "s",
        access: Access::Read,
        modes: &[],
        handler: Handler::Custom,
        input_schema: "{}",
        output_schema: "{}",
        nexus: None,
        response: ResponseSpec {
            pick: &[],
            exclude: &[],
            max_items: None,
            max_string: None,
            budget: 8000,
        },
        pagination: None,
        mutation: None,
        content: &[],
        listed: true,
        errors: ERRORS,
        ask: &[],
        choose: None,
    };

    fn code(error: ToolError) -> String {
        let arguments = json!({"plan_id": "p1"});
        apply(&TOOL, &arguments, error.into()).to_json()["error"]["code"]
            .as_str()
            .unwrap_or_default()
            .to_owned()
    }

    #[test]
    fn a_custom_tool_s_errors_keep_their_status_and_backend_code() {
        assert_eq!(
            code(ToolError::NotFound {
                message: "gone".into()
            }),
            "TASK_NOT_FOUND"
        );
        let backend = |code: &str| ToolError::Backend {
            code: code.to_owned(),
            message: "HEAD moved".to_owned(),
            retryable: false,
        };
        assert_eq!(code(backend("http_409")), "CONFLICT");
        let stale = apply(
            &TOOL,
            &json!({"plan_id": "p1"}),
            backend("plan_stale").into(),
        );
        assert_eq!(
            stale.to_json()["error"],
            json!({"code": "PLAN_STALE", "message": "Plan p1 is stale: HEAD moved", "retryable": false, "details": {"backend_message": "HEAD moved"}})
        );
        // The engine's own codes and unmapped failures pass through unchanged.
        assert_eq!(code(backend("nexus_unavailable")), "nexus_unavailable");
        assert_eq!(code(backend("http_422")), "http_422");
        assert_eq!(code(ToolError::Internal("bug".into())), "internal");
    }

    #[test]
    fn the_token_s_failures_are_never_renamed() {
        let failure = BackendFailure {
            error: ToolError::Backend {
                code: "nexus_unauthorized".to_owned(),
                message: "token refused".to_owned(),
                retryable: false,
            },
            status: Some(401),
            body: Some(json!({"error": {"code": "plan_stale"}})),
        };
        let e = apply(&TOOL, &json!({}), failure);
        assert_eq!(e.to_json()["error"]["code"], "nexus_unauthorized");
    }
}
