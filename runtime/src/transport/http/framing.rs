//! JSON-RPC framing of POST /mcp, answered by us rather than rmcp: a body that is not JSON gets
//! -32700, one that is not a JSON-RPC message MCP defines (a batch, no method, a bad id) -32600,
//! and a known method whose params have the wrong shape (`arguments` not an object) -32602, each
//! with HTTP 400 and the request's id when it can be read. rmcp would answer the first two with a
//! plain-text 415 and the last with 404 and -32601 "method not found". The rules are the stdio
//! transport's, so both transports answer a bad message alike.
//! What the session binding needs from the message is kept as [`Peeked`], so the body is parsed
//! here and by rmcp only (rmcp's service takes bytes; that second parse is the floor). A
//! tools/call in its plainest form is only checked, not built (`is_plain_tool_call`); any other
//! tools/call is parsed as rmcp's one `CallToolRequest` type, not its whole union (see
//! `stdio::framing::frame`).

use super::body::Buffered;
use crate::transport::stdio::framing::{self, Frame};
use axum::Json;
use axum::extract::Request;
use axum::http::{Method, StatusCode};
use axum::response::{IntoResponse, Response};
use rmcp::model::{ClientRequest, JsonRpcMessage, SubscriptionFilter};
use serde_json::json;

/// What `sessions::bind` needs from a POSTed message.
#[derive(Debug, Clone, Default)]
pub struct Peeked {
    /// A request (it has an id and gets an answer), not a notification or a response.
    pub request: bool,
    /// An initialize request.
    pub initialize: bool,
    /// What a `subscriptions/listen` asks for: its resources are read before rmcp sees it.
    pub listen: Option<SubscriptionFilter>,
}

/// The framing check, run first by `sessions::bind` (in the same layer: a layer of its own
/// would clone and drop the service stack under it once more per request). `Err` is the
/// JSON-RPC error answering a malformed message (sent by [`reject`]); `Ok(None)` a request
/// that is not a buffered POST, or a message rmcp ignores.
pub fn check(request: &Request) -> Result<Option<Peeked>, serde_json::Value> {
    if request.method() != Method::POST {
        return Ok(None);
    }
    let Some(Buffered(body)) = request.extensions().get::<Buffered>() else {
        return Ok(None);
    };
    if body.iter().all(u8::is_ascii_whitespace) {
        return Err(
            json!({"jsonrpc": "2.0", "id": null, "error": {"code": framing::PARSE_ERROR, "message": "Parse error: the body is empty; POST one JSON-RPC message"}}),
        );
    }
    if framing::is_plain_tool_call(body) {
        return Ok(Some(Peeked {
            request: true,
            ..Peeked::default()
        }));
    }
    match framing::frame(body) {
        Frame::Reply(reply) => Err(reply),
        Frame::Message(message) => Ok(Some(match *message {
            JsonRpcMessage::Request(r) => Peeked {
                request: true,
                initialize: matches!(r.request, ClientRequest::InitializeRequest(_)),
                listen: match r.request {
                    ClientRequest::SubscriptionsListenRequest(l) => Some(l.params.notifications),
                    _ => None,
                },
            },
            _ => Peeked::default(),
        })),
        Frame::Skip => Ok(None),
    }
}

/// 400, except "method not found", which the stateless revision answers with 404 (SEP-2575;
/// rmcp maps its own -32601 answers the same way).
pub fn reject(reply: serde_json::Value) -> Response {
    let status = if reply.pointer("/error/code") == Some(&json!(framing::METHOD_NOT_FOUND)) {
        StatusCode::NOT_FOUND
    } else {
        StatusCode::BAD_REQUEST
    };
    (status, Json(reply)).into_response()
}
