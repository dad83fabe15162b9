//! Request bodies are read whole, after authentication, within a time limit: a client that
//! starts a body and stalls holds its connection for `--body-timeout`, not forever.

use axum::Json;
use axum::body::{Body, Bytes};
use axum::extract::Request;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use serde_json::json;
use std::time::Duration;

/// The largest body accepted (rmcp's own limit for /mcp).
pub const MAX_BODY_BYTES: usize = 4 * 1024 * 1024;

/// The buffered body of a POST, for layers that look at the JSON-RPC method.
#[derive(Clone)]
pub struct Buffered(pub Bytes);

/// Reads a POST's body within `timeout` and gives the request back with it (kept as
/// [`Buffered`] too); any other request comes back as it was. `Err` is the refusal to send.
pub async fn buffer(timeout: Duration, request: Request) -> Result<Request, Response> {
    if request.method() != axum::http::Method::POST {
        return Ok(request);
    }
    let (mut parts, body) = request.into_parts();
    let read = tokio::time::timeout(timeout, axum::body::to_bytes(body, MAX_BODY_BYTES)).await;
    let bytes = match read {
        Ok(Ok(bytes)) => bytes,
        Ok(Err(_)) => {
            return Err((
                StatusCode::PAYLOAD_TOO_LARGE,
                Json(json!({"error": format!("the request body is over {MAX_BODY_BYTES} bytes or was cut off")})),
            )
                .into_response());
        }
        Err(_) => {
            return Err((
                StatusCode::REQUEST_TIMEOUT,
                [("connection", "close")],
                Json(json!({"error": format!("the request body did not arrive within {} s (--body-timeout)", timeout.as_secs_f64())})),
            )
                .into_response());
        }
    };
    parts.extensions.insert(Buffered(bytes.clone()));
    Ok(Request::from_parts(parts, Body::from(bytes)))
}
