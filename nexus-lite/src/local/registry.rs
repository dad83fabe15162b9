//! The registered clients, found by the SHA-256 of their token. A client lives as long as its
//! [`Registration`] guard, which the registration's response stream owns: the stream ends (the
//! client closed it or died), the guard drops, the token stops working.

use serde_json::{Value, json};
use sha2::{Digest, Sha256};
use std::collections::{BTreeMap, HashMap};
use std::path::PathBuf;
use std::sync::{Arc, Mutex};

type TokenHash = [u8; 32];

/// One registered client and its view.
pub struct Client {
    pub client_id: String,
    pub kind: String,
    pub surface: Option<String>,
    pub pid: u32,
    pub connected_at: String,
    pub domains: Vec<&'static str>,
    /// (name, root) of the repositories and workspaces it registered.
    pub repos: Vec<(String, PathBuf)>,
    pub workspaces: Vec<(String, PathBuf)>,
    /// Its domains' routers over only its repositories and workspaces.
    pub view: axum::Router,
}

impl Client {
    fn to_json(&self) -> Value {
        json!({
            "client_id": self.client_id,
            "kind": self.kind,
            "surface": self.surface,
            "pid": self.pid,
            "connected_at": self.connected_at,
            "domains": self.domains,
            "repos": self.repos.iter().map(|(n, _)| n).collect::<Vec<_>>(),
            "workspaces": self.workspaces.iter().map(|(n, _)| n).collect::<Vec<_>>(),
        })
    }
}

#[derive(Default)]
pub struct Registry {
    clients: Mutex<HashMap<TokenHash, Arc<Client>>>,
}

fn hash(token: &str) -> TokenHash {
    Sha256::digest(token.as_bytes()).into()
}

impl Registry {
    /// Registers `client` under a new random token; it stays registered until the returned
    /// guard drops.
    pub fn add(self: &Arc<Self>, client: Client) -> (String, Registration) {
        let token = uuid::Uuid::new_v4().simple().to_string();
        let key = hash(&token);
        let client_id = client.client_id.clone();
        self.lock().insert(key, Arc::new(client));
        tracing::info!(client_id, "client registered");
        let guard = Registration {
            registry: self.clone(),
            key,
            client_id,
        };
        (token, guard)
    }

    /// The client holding `token`, while it is registered.
    pub fn by_token(&self, token: &str) -> Option<Arc<Client>> {
        self.lock().get(&hash(token)).cloned()
    }

    pub fn is_empty(&self) -> bool {
        self.lock().is_empty()
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<TokenHash, Arc<Client>>> {
        self.clients.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// `repos`, `workspaces` (each with the clients that registered it) and `clients` of the
    /// status answer, sorted by name and id.
    pub fn status(&self) -> (Value, Value, Value) {
        let mut clients: Vec<Arc<Client>> = self.lock().values().cloned().collect();
        clients.sort_by(|a, b| a.client_id.cmp(&b.client_id));
        let group = |items: fn(&Client) -> &[(String, PathBuf)]| {
            let mut by: BTreeMap<(String, PathBuf), Vec<String>> = BTreeMap::new();
            for c in &clients {
                for (n, r) in items(c) {
                    by.entry((n.clone(), r.clone()))
                        .or_default()
                        .push(c.client_id.clone());
                }
            }
            Value::Array(
                by.into_iter()
                    .map(|((name, root), ids)| json!({"name": name, "root": root, "clients": ids}))
                    .collect(),
            )
        };
        let repos = group(|c| &c.repos);
        let workspaces = group(|c| &c.workspaces);
        let list = Value::Array(clients.iter().map(|c| c.to_json()).collect());
        (repos, workspaces, list)
    }
}

/// Unregisters its client when dropped.
pub struct Registration {
    registry: Arc<Registry>,
    key: TokenHash,
    client_id: String,
}

impl Drop for Registration {
    fn drop(&mut self) {
        self.registry.lock().remove(&self.key);
        tracing::info!(client_id = self.client_id, "client unregistered");
    }
}
