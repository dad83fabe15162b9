//! How the client of one call can be asked questions (see `call::ask`), and the key that
//! seals the state of a stateless exchange.

use rmcp::model::{InputResponses, RequestStateCodec};
use rmcp::service::{Peer, RoleServer};
use serde_json::Value;

/// How the client of one call is asked.
pub struct Asking {
    /// The capabilities the client declared (`elicitation`, `sampling`, `roots`, …) as JSON.
    pub capabilities: Value,
    pub channel: Channel,
}

pub enum Channel {
    /// A 2025 session: requests on the session, answered during the call.
    Session(Peer<RoleServer>),
    /// A stateless request: what the client sent back with its retry, if anything.
    Stateless {
        responses: Option<InputResponses>,
        state: Option<String>,
    },
}

/// The codec input-required states are sealed with: `key` (checked by [`check_key`]), else a
/// random key for this process (then a state only opens on the replica that sealed it).
pub fn codec(key: Option<&[u8]>) -> RequestStateCodec {
    let random = || {
        let bytes = [
            uuid::Uuid::new_v4().into_bytes(),
            uuid::Uuid::new_v4().into_bytes(),
        ]
        .concat();
        RequestStateCodec::new_unchecked(bytes)
    };
    match key.map(|k| RequestStateCodec::try_new(k.to_vec())) {
        Some(Ok(codec)) => codec,
        Some(Err(e)) => {
            tracing::error!(error = %e, "the request-state key is not usable; a random key is used");
            random()
        }
        None => random(),
    }
}

/// A configured request-state key: at least 32 bytes.
pub fn check_key(key: &[u8]) -> Result<(), String> {
    RequestStateCodec::try_new(key.to_vec())
        .map(|_| ())
        .map_err(|e| format!("the request-state key is not usable ({e}); put at least 32 random bytes in the file, e.g. `openssl rand -hex 32`"))
}
