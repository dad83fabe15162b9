//! Who calls over HTTP, as the transport's auth layer found it and the MCP handler reads it (its
//! own module so that `mcp` does not import `transport`).

use std::collections::BTreeSet;
use std::sync::Arc;

pub use crate::app::Repositories;

/// Who is calling: the sha256 of the key presented (never the key itself), or one shared
/// identity under `--insecure-no-auth`. Sessions belong to the identity that opened them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct KeyId([u8; 32]);

impl KeyId {
    /// The single identity of every caller under `--insecure-no-auth`.
    pub const OPEN: KeyId = KeyId([0; 32]);

    /// The identity of the key whose sha256 is `digest`.
    pub(crate) fn from_digest(digest: [u8; 32]) -> KeyId {
        KeyId(digest)
    }
}

/// The authenticated caller of one HTTP request (a request extension set by the auth layer).
#[derive(Debug, Clone)]
pub struct Caller {
    pub id: KeyId,
    pub scopes: Arc<BTreeSet<String>>,
    /// The repositories this key may see; None: every repository.
    pub repositories: Option<Repositories>,
}
