//! JSON-RPC framing of POST /mcp, answered by us rather than rmcp: a body that is not JSON gets
//! -32700, one that is not a JSON-RPC message MCP defines (a batch, no method, a bad id) -32600,
//! and a known method whose params have the wrong shape (`arguments` not an object) -32602, each
//! with HTTP 400 and the request's id when it can be read. rmcp would answer the first two with a
//! plain-text 415 and the last with 404 and -32601 "method not found". The rules are the stdio
//! transport's, so both transports answer a bad message alike.

use super::body::Buffered;
use crate::transport::stdio::framing::{self, Frame};
use axum::Json;
use axum::extract::Request;
use axum::http::{Method, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use serde_json::json;

/// Runs after `body::buffer`, before the session binding and rmcp.
pub async fn check(request: Request, next: Next) -> Response {
    if request.method() != Method::POST {
        return next.run(request).await;
    }
    let Some(Buffered(body)) = request.extensions().get::<Buffered>() else {
        return next.run(request).await;
    };
    if body.iter().all(u8::is_ascii_whitespace) {
        return reject(
            json!({"jsonrpc": "2.0", "id": null, "error": {"code": framing::PARSE_ERROR, "message": "Parse error: the body is empty; POST one JSON-RPC message"}}),
        );
    }
    match framing::frame(body) {
        Frame::Reply(reply) => reject(reply),
        Frame::Message(_) | Frame::Skip => next.run(request).await,
    }
}

fn reject(reply: serde_json::Value) -> Response {
    (StatusCode::BAD_REQUEST, Json(reply)).into_response()
}
