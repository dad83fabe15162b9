//! HTTP API keys: NEXUS_MCP_API_KEY (all scopes) or a tokens file of sha256 hashes with their
//! scopes. Keys are compared as hashes, in constant time, against every entry.

use sha2::{Digest, Sha256};
use std::collections::BTreeSet;
use std::path::Path;
use std::sync::Arc;
use subtle::ConstantTimeEq;

#[derive(Debug, thiserror::Error)]
pub enum AuthError {
    #[error("cannot read the tokens file {path}: {source}")]
    Read {
        path: String,
        source: std::io::Error,
    },
    #[error(
        "{path}:{line}: {message}. Each line is `sha256:<64 hex chars> scope[,scope...]`; `#` starts a comment."
    )]
    Syntax {
        path: String,
        line: usize,
        message: String,
    },
}

#[derive(Debug, Clone, Default)]
pub struct KeyStore {
    entries: Vec<([u8; 32], Arc<BTreeSet<String>>)>,
}

pub fn sha256(key: &str) -> [u8; 32] {
    Sha256::digest(key.as_bytes()).into()
}

impl KeyStore {
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    pub fn add_key(&mut self, key: &str, scopes: BTreeSet<String>) {
        self.entries.push((sha256(key), Arc::new(scopes)));
    }

    /// Loads a tokens file; `known` checks each scope name.
    pub fn load_file(
        &mut self,
        path: &Path,
        known: impl Fn(&str) -> bool,
    ) -> Result<(), AuthError> {
        let shown = path.display().to_string();
        let text = std::fs::read_to_string(path).map_err(|source| AuthError::Read {
            path: shown.clone(),
            source,
        })?;
        for (i, raw) in text.lines().enumerate() {
            let line = raw.split('#').next().unwrap_or("").trim();
            if line.is_empty() {
                continue;
            }
            let err = |message: String| AuthError::Syntax {
                path: shown.clone(),
                line: i + 1,
                message,
            };
            let (hash, scopes) = line
                .split_once(char::is_whitespace)
                .ok_or_else(|| err("missing scopes".into()))?;
            let hex = hash
                .strip_prefix("sha256:")
                .ok_or_else(|| err("the hash must start with `sha256:`".into()))?;
            let bytes =
                decode_hex(hex).ok_or_else(|| err("the hash is not 64 hex characters".into()))?;
            let mut set = BTreeSet::new();
            for scope in scopes.split(',').map(str::trim).filter(|s| !s.is_empty()) {
                if !known(scope) {
                    return Err(err(format!("unknown scope `{scope}`")));
                }
                set.insert(scope.to_owned());
            }
            self.entries.push((bytes, Arc::new(set)));
        }
        Ok(())
    }

    /// The scopes of `presented`, or None. Every entry is compared, so timing does not say which.
    pub fn authenticate(&self, presented: &str) -> Option<Arc<BTreeSet<String>>> {
        let digest = sha256(presented);
        let mut found = None;
        for (hash, scopes) in &self.entries {
            if bool::from(hash.ct_eq(&digest)) && found.is_none() {
                found = Some(scopes.clone());
            }
        }
        found
    }
}

fn decode_hex(hex: &str) -> Option<[u8; 32]> {
    if hex.len() != 64 {
        return None;
    }
    let mut out = [0u8; 32];
    for (i, byte) in out.iter_mut().enumerate() {
        *byte = u8::from_str_radix(hex.get(2 * i..2 * i + 2)?, 16).ok()?;
    }
    Some(out)
}

/// The key a request presents: `X-MCP-API-KEY`, or `Authorization: Bearer`.
pub fn presented_key(headers: &axum::http::HeaderMap) -> Option<&str> {
    if let Some(v) = headers.get("x-mcp-api-key").and_then(|v| v.to_str().ok()) {
        return Some(v.trim());
    }
    let auth = headers
        .get(axum::http::header::AUTHORIZATION)?
        .to_str()
        .ok()?;
    let (scheme, token) = auth.split_once(' ')?;
    scheme
        .eq_ignore_ascii_case("bearer")
        .then_some(token.trim())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_file_keys_grant_their_scopes_only() {
        let dir = tempfile::tempdir().unwrap();
        let hash: String = sha256("k1").iter().map(|b| format!("{b:02x}")).collect();
        let path = dir.path().join("tokens");
        std::fs::write(&path, format!("# ops\nsha256:{hash} kg:read\n")).unwrap();
        let mut store = KeyStore::default();
        store.load_file(&path, |s| s.starts_with("kg:")).unwrap();
        assert_eq!(
            store.authenticate("k1").unwrap().iter().collect::<Vec<_>>(),
            vec!["kg:read"]
        );
        assert!(store.authenticate("k2").is_none());
    }

    #[test]
    fn a_bad_tokens_line_names_file_and_line() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("tokens");
        std::fs::write(&path, "\nsha256:abc kg:read\n").unwrap();
        let err = KeyStore::default()
            .load_file(&path, |_| true)
            .unwrap_err()
            .to_string();
        assert!(
            err.contains("tokens:2: the hash is not 64 hex characters"),
            "{err}"
        );
    }
}
