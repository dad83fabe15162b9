//! HTTP API keys: NEXUS_MCP_API_KEY (all scopes) or a tokens file of sha256 hashes with their
//! scopes and, optionally, the repositories they are bound to. Keys are compared as hashes, in
//! constant time, against every entry.

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
        "{source_name} holds an API key with leading or trailing whitespace ({what}). Clients cannot send that whitespace (HTTP trims header values), so the key could never match. Remove the whitespace where {source_name} is set, e.g. write the key with `printf %s` rather than `echo`."
    )]
    KeyWhitespace {
        source_name: &'static str,
        what: &'static str,
    },
    #[error("{source_name} is set but holds only whitespace; set it to the API key or unset it.")]
    KeyBlank { source_name: &'static str },
    #[error(
        "{source_name} holds a key starting with `{VIEWER_TOKEN_PREFIX}`, which marks a viewer token: the MCP endpoints never accept one. Use a different key for MCP."
    )]
    ViewerToken { source_name: &'static str },
    #[error(
        "{path}:{line}: {message}. Each line is `sha256:<64 hex chars> scope[,scope...] [repos=owner/name[,owner/name...]]`; `#` starts a comment."
    )]
    Syntax {
        path: String,
        line: usize,
        message: String,
    },
}

#[derive(Debug, Clone, Default)]
pub struct KeyStore {
    entries: Vec<Entry>,
}

#[derive(Debug, Clone)]
struct Entry {
    hash: [u8; 32],
    scopes: Arc<BTreeSet<String>>,
    repositories: Option<Repositories>,
}

pub use crate::caller::{Caller, KeyId, Repositories};

/// Refuses a key that can never match: HTTP trims header values, so a key with surrounding
/// whitespace would be stored as it is and never presented that way.
pub fn check_key(source_name: &'static str, key: &str) -> Result<(), AuthError> {
    if key.trim().is_empty() {
        return Err(AuthError::KeyBlank { source_name });
    }
    if key.trim_start().starts_with(VIEWER_TOKEN_PREFIX) {
        return Err(AuthError::ViewerToken { source_name });
    }
    let what = match (
        key.starts_with(char::is_whitespace),
        key.ends_with(char::is_whitespace),
    ) {
        (false, false) => return Ok(()),
        (true, true) => "at both ends",
        (true, false) => "at its start",
        (false, true) if key.ends_with('\n') || key.ends_with('\r') => "a trailing newline",
        (false, true) => "at its end",
    };
    Err(AuthError::KeyWhitespace { source_name, what })
}

/// Every token of the web viewer (`nexus-mcp view`) starts with this, and no MCP key may: a
/// viewer token is refused here and an MCP key by the viewer, whatever the stores hold.
pub const VIEWER_TOKEN_PREFIX: &str = "nxv_";

pub fn sha256(key: &str) -> [u8; 32] {
    Sha256::digest(key.as_bytes()).into()
}

impl KeyStore {
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// Adds a key given in clear (NEXUS_MCP_API_KEY); `source_name` names it in errors.
    pub fn add_key(
        &mut self,
        source_name: &'static str,
        key: &str,
        scopes: BTreeSet<String>,
    ) -> Result<(), AuthError> {
        check_key(source_name, key)?;
        self.entries.push(Entry {
            hash: sha256(key),
            scopes: Arc::new(scopes),
            repositories: None,
        });
        Ok(())
    }

    /// Whether any key is bound to repositories (the surface must then be able to restrict).
    pub fn binds_repositories(&self) -> bool {
        self.entries.iter().any(|e| e.repositories.is_some())
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
            let (hash, rest) = line
                .split_once(char::is_whitespace)
                .ok_or_else(|| err("missing scopes".into()))?;
            // Scopes may be spread over several words (`kg:read, kg:local`); the one word
            // `repos=…` is the binding.
            let mut scopes = Vec::new();
            let mut repositories = None;
            for word in rest.split_whitespace() {
                if word.starts_with("repos=") {
                    if repositories.is_some() {
                        return Err(err(
                            "`repos=` is given twice; list every repository in one `repos=a/b,c/d`"
                                .into(),
                        ));
                    }
                    repositories = Some(parse_repositories(word).map_err(&err)?);
                } else if word.contains('=') {
                    return Err(err(format!(
                        "unexpected `{word}`: after the scopes, only `repos=owner/name[,...]` may follow"
                    )));
                } else {
                    scopes.extend(word.split(','));
                }
            }
            let hex = hash
                .strip_prefix("sha256:")
                .ok_or_else(|| err("the hash must start with `sha256:`".into()))?;
            let bytes =
                decode_hex(hex).ok_or_else(|| err("the hash is not 64 hex characters".into()))?;
            let mut set = BTreeSet::new();
            for scope in scopes.into_iter().map(str::trim).filter(|s| !s.is_empty()) {
                if !known(scope) {
                    return Err(err(format!("unknown scope `{scope}`")));
                }
                set.insert(scope.to_owned());
            }
            self.entries.push(Entry {
                hash: bytes,
                scopes: Arc::new(set),
                repositories,
            });
        }
        Ok(())
    }

    /// The scopes of `presented`, or None. Every entry is compared, so timing does not say which.
    pub fn authenticate(&self, presented: &str) -> Option<Arc<BTreeSet<String>>> {
        self.identify(presented).map(|caller| caller.scopes)
    }

    /// The caller presenting `presented`, or None; same constant-time comparison.
    pub fn identify(&self, presented: &str) -> Option<Caller> {
        if presented.starts_with(VIEWER_TOKEN_PREFIX) {
            return None;
        }
        let digest = sha256(presented);
        let mut found = None;
        for entry in &self.entries {
            if bool::from(entry.hash.ct_eq(&digest)) && found.is_none() {
                found = Some(Caller {
                    id: KeyId::from_digest(digest),
                    scopes: entry.scopes.clone(),
                    repositories: entry.repositories.clone(),
                });
            }
        }
        found
    }
}

/// `repos=owner/name[,owner/name...]`: a non-empty list (an empty binding would read as "all").
fn parse_repositories(field: &str) -> Result<Repositories, String> {
    let list = field.strip_prefix("repos=").ok_or_else(|| {
        format!("unexpected `{field}`: the third field, when present, is `repos=owner/name[,...]`")
    })?;
    let repos: Vec<String> = list
        .split(',')
        .map(str::trim)
        .filter(|r| !r.is_empty())
        .map(str::to_owned)
        .collect();
    if repos.is_empty() {
        return Err("`repos=` lists no repository; list at least one, or drop the field for a key that sees every repository".into());
    }
    if let Some(bad) = repos.iter().find(|r| {
        r.split_once('/')
            .is_none_or(|(o, n)| o.is_empty() || n.is_empty() || n.contains('/'))
            || !r
                .chars()
                .all(|ch| ch.is_ascii_alphanumeric() || "/._-".contains(ch))
    }) {
        return Err(format!("`{bad}` is not an owner/name repository"));
    }
    Ok(repos.into())
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
    fn a_key_with_surrounding_whitespace_is_refused_with_its_source() {
        let scopes = BTreeSet::new;
        let mut store = KeyStore::default();
        for (key, what) in [
            ("k1\n", "a trailing newline"),
            (" k1", "at its start"),
            ("\tk1 ", "at both ends"),
            ("k1 ", "at its end"),
        ] {
            let err = store
                .add_key("NEXUS_MCP_API_KEY", key, scopes())
                .unwrap_err()
                .to_string();
            assert!(
                err.starts_with("NEXUS_MCP_API_KEY holds an API key"),
                "{err}"
            );
            assert!(err.contains(what), "{key:?}: {err}");
            assert!(
                !err.contains("k1"),
                "the message must not echo the key: {err}"
            );
        }
        let err = store
            .add_key("NEXUS_MCP_API_KEY", "  ", scopes())
            .unwrap_err()
            .to_string();
        assert!(err.contains("holds only whitespace"), "{err}");
        assert!(store.is_empty());
        store.add_key("NEXUS_MCP_API_KEY", "k 1", scopes()).unwrap();
        assert!(
            store.authenticate("k 1").is_some(),
            "inner spaces are part of the key"
        );
    }

    #[test]
    fn callers_are_told_apart_by_key() {
        let mut store = KeyStore::default();
        store.add_key("test", "a", BTreeSet::new()).unwrap();
        store.add_key("test", "b", BTreeSet::new()).unwrap();
        let a = store.identify("a").unwrap().id;
        assert_eq!(a, store.identify("a").unwrap().id);
        assert_ne!(a, store.identify("b").unwrap().id);
        assert_ne!(a, KeyId::OPEN);
    }

    #[test]
    fn tokens_file_keys_may_be_bound_to_repositories() {
        let dir = tempfile::tempdir().unwrap();
        let hex = |k: &str| -> String { sha256(k).iter().map(|b| format!("{b:02x}")).collect() };
        let path = dir.path().join("tokens");
        std::fs::write(
            &path,
            format!(
                "sha256:{} rules:read, rules:report repos=acme/api,acme/web\nsha256:{} rules:read\n",
                hex("bound"),
                hex("org")
            ),
        )
        .unwrap();
        let mut store = KeyStore::default();
        store.load_file(&path, |_| true).unwrap();
        assert!(store.binds_repositories());
        let bound = store.identify("bound").unwrap();
        assert_eq!(
            bound.scopes.iter().collect::<Vec<_>>(),
            vec!["rules:read", "rules:report"],
            "scopes spread over words are one list"
        );
        assert_eq!(
            bound.repositories.as_deref().unwrap(),
            ["acme/api".to_owned(), "acme/web".to_owned()]
        );
        assert!(store.identify("org").unwrap().repositories.is_none());
    }

    #[test]
    fn an_empty_or_malformed_repository_binding_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        let hash: String = sha256("k").iter().map(|b| format!("{b:02x}")).collect();
        for (field, expected) in [
            ("repos=", "lists no repository"),
            ("repos=acme", "`acme` is not an owner/name repository"),
            (
                "repo=acme/api",
                "unexpected `repo=acme/api`: after the scopes, only `repos=",
            ),
            ("repos=a/b repos=c/d", "`repos=` is given twice"),
        ] {
            let path = dir.path().join("tokens");
            std::fs::write(&path, format!("sha256:{hash} rules:read {field}\n")).unwrap();
            let err = KeyStore::default()
                .load_file(&path, |_| true)
                .unwrap_err()
                .to_string();
            assert!(err.contains("tokens:1: "), "{err}");
            assert!(err.contains(expected), "{field}: {err}");
        }
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
