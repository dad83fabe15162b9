//! What one line of stdio input becomes: a message for the session, nothing, or an error answer
//! the transport writes itself (JSON-RPC 2.0 §5.1 codes, `"id": null` when no id can be read).
//!
//! A well-formed line is parsed exactly once, into rmcp's message type; the line is only looked
//! at again as a plain JSON value when that parse fails.

use rmcp::model::{
    CallToolRequestMethod, CancelTaskMethod, ClientJsonRpcMessage, ClientRequest,
    CompleteRequestMethod, ConstString, DiscoverRequestMethod, GetPromptRequestMethod,
    GetSkillRequestMethod, GetTaskMethod, InitializeResultMethod, JsonRpcMessage,
    ListPromptsRequestMethod, ListResourceTemplatesRequestMethod, ListResourcesRequestMethod,
    ListSkillsRequestMethod, ListToolsRequestMethod, PingRequestMethod,
    ReadResourceDirectoryRequestMethod, ReadResourceRequestMethod, SetLevelRequestMethod,
    SubscribeRequestMethod, SubscriptionsListenRequestMethod, UnsubscribeRequestMethod,
    UpdateTaskMethod,
};
use serde_json::{Map, Value, json};

pub const PARSE_ERROR: i64 = -32700;
pub const INVALID_REQUEST: i64 = -32600;
pub const INVALID_PARAMS: i64 = -32602;

/// What the transport does with one line.
#[derive(Debug)]
pub enum Frame {
    /// A message for the session.
    Message(Box<ClientJsonRpcMessage>),
    /// Nothing: a blank line, or a notification that is not MCP (rmcp ignores those too).
    Skip,
    /// An error response to write back, one JSON object.
    Reply(Value),
}

/// Classifies one line (without its `\n`).
pub fn frame(line: &[u8]) -> Frame {
    let line = line.strip_suffix(b"\r").unwrap_or(line);
    let line = line.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(line);
    if line.iter().all(u8::is_ascii_whitespace) {
        return Frame::Skip;
    }
    match serde_json::from_slice::<ClientJsonRpcMessage>(line) {
        Ok(JsonRpcMessage::Request(request)) => match &request.request {
            // rmcp falls back to a custom request when a method it knows has params of the
            // wrong shape; the handler would then answer "method not found".
            ClientRequest::CustomRequest(custom) if is_client_request_method(&custom.method) => {
                let message = params_problem(&custom.method, custom.params.as_ref());
                Frame::Reply(error(
                    serde_json::to_value(&request.id).unwrap_or(Value::Null),
                    INVALID_PARAMS,
                    message,
                ))
            }
            _ => Frame::Message(Box::new(JsonRpcMessage::Request(request))),
        },
        Ok(message) => Frame::Message(Box::new(message)),
        Err(_) => rejected(line),
    }
}

/// The answer to a line that is not a message rmcp understands.
fn rejected(line: &[u8]) -> Frame {
    let value = match serde_json::from_slice::<Value>(line) {
        Ok(value) => value,
        Err(e) => {
            return Frame::Reply(error(
                Value::Null,
                PARSE_ERROR,
                format!(
                    "Parse error: the line is not JSON ({}, column {}); send one JSON-RPC message per line",
                    unparsable(&e),
                    e.column()
                ),
            ));
        }
    };
    let object = match value {
        Value::Object(object) => object,
        Value::Array(_) => {
            return Frame::Reply(error(
                Value::Null,
                INVALID_REQUEST,
                "Invalid Request: JSON-RPC batches are not supported (MCP 2025-11-25 removed them); send one message per line".into(),
            ));
        }
        _ => {
            return Frame::Reply(error(
                Value::Null,
                INVALID_REQUEST,
                "Invalid Request: a JSON-RPC message is a JSON object".into(),
            ));
        }
    };
    if let Some(Value::String(method)) = object.get("method")
        && !object.contains_key("id")
        && !is_standard_notification(method)
        && !is_client_request_method(method)
    {
        return Frame::Skip;
    }
    let id = readable_id(&object);
    // A well-formed request to a known method that rmcp could not parse: its params are wrong.
    if let Some(Value::String(method)) = object.get("method")
        && is_client_request_method(method)
        && !id.is_null()
        && object.get("jsonrpc") == Some(&Value::from("2.0"))
        && object.contains_key("params")
        && !object.contains_key("result")
        && !object.contains_key("error")
    {
        let message = params_problem(method, object.get("params"));
        return Frame::Reply(error(id, INVALID_PARAMS, message));
    }
    Frame::Reply(error(id, INVALID_REQUEST, invalid_request_problem(&object)))
}

/// The request id, when it has a type JSON-RPC and MCP allow (string or integer).
fn readable_id(object: &Map<String, Value>) -> Value {
    match object.get("id") {
        Some(Value::String(s)) => Value::String(s.clone()),
        Some(Value::Number(n)) if n.is_i64() => Value::Number(n.clone()),
        _ => Value::Null,
    }
}

fn invalid_request_problem(object: &Map<String, Value>) -> String {
    let problem = if object.get("jsonrpc") != Some(&Value::from("2.0")) {
        "\"jsonrpc\" must be \"2.0\""
    } else if object
        .get("id")
        .is_some_and(|id| readable_id(object).is_null() && !id.is_null())
    {
        "\"id\" must be a string or an integer"
    } else if !object.contains_key("method")
        && !object.contains_key("result")
        && !object.contains_key("error")
    {
        "a request needs a \"method\" (a response a \"result\" or an \"error\")"
    } else if object.get("method").is_some_and(|m| !m.is_string()) {
        "\"method\" must be a string"
    } else {
        "not a JSON-RPC 2.0 request, notification or response MCP defines"
    };
    format!("Invalid Request: {problem}")
}

fn params_problem(method: &str, params: Option<&Value>) -> String {
    let problem = match params {
        Some(p) if !p.is_object() => "params must be an object".to_owned(),
        Some(p) if method == CallToolRequestMethod::VALUE => {
            if !p.get("name").is_some_and(Value::is_string) {
                "\"name\" must be the tool's name, a string".to_owned()
            } else if p.get("arguments").is_some_and(|a| !a.is_object()) {
                "\"arguments\" must be an object".to_owned()
            } else {
                "params do not match the method's schema".to_owned()
            }
        }
        _ => "params do not match the method's schema".to_owned(),
    };
    format!("Invalid params for {method}: {problem}")
}

fn error(id: Value, code: i64, message: String) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "error": {"code": code, "message": message}})
}

/// Methods a client may call on a server, as rmcp parses them.
fn is_client_request_method(method: &str) -> bool {
    [
        PingRequestMethod::VALUE,
        InitializeResultMethod::VALUE,
        DiscoverRequestMethod::VALUE,
        CompleteRequestMethod::VALUE,
        SetLevelRequestMethod::VALUE,
        GetPromptRequestMethod::VALUE,
        ListPromptsRequestMethod::VALUE,
        ListResourcesRequestMethod::VALUE,
        ListResourceTemplatesRequestMethod::VALUE,
        ReadResourceRequestMethod::VALUE,
        SubscriptionsListenRequestMethod::VALUE,
        SubscribeRequestMethod::VALUE,
        UnsubscribeRequestMethod::VALUE,
        CallToolRequestMethod::VALUE,
        ListToolsRequestMethod::VALUE,
        GetTaskMethod::VALUE,
        UpdateTaskMethod::VALUE,
        CancelTaskMethod::VALUE,
        ListSkillsRequestMethod::VALUE,
        GetSkillRequestMethod::VALUE,
        ReadResourceDirectoryRequestMethod::VALUE,
    ]
    .contains(&method)
}

fn is_standard_notification(method: &str) -> bool {
    [
        "notifications/cancelled",
        "notifications/initialized",
        "notifications/progress",
        "notifications/roots/list_changed",
    ]
    .contains(&method)
}

fn unparsable(e: &serde_json::Error) -> &'static str {
    match e.classify() {
        serde_json::error::Category::Eof => "it ends early",
        _ => "syntax error",
    }
}

/// The answer to a line longer than `max` bytes, which was dropped unread.
pub fn too_long(max: usize) -> Value {
    error(
        Value::Null,
        INVALID_REQUEST,
        format!("Invalid Request: the line is longer than {max} bytes and was dropped"),
    )
}
