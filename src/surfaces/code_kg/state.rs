//! nexus-code-kg's own state: what the handlers (mod.rs) and the freshness verdict share.

use super::checkout_watch;
use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::path::PathBuf;
use std::sync::{Arc, Mutex};

/// nexus-code-kg's own state, and (in mod.rs) its implementation of the generated
/// `CustomHandlers` trait.
#[derive(Default)]
pub struct CodeKg {
    /// Local checkouts known for repositories (embedded nexus-lite, local stdio only), used for
    /// the freshness verdict on every answer.
    pub(super) local_checkouts: BTreeMap<String, PathBuf>,
    /// How many commits behind still counts as usable (NEXUS_MCP_MAX_COMMITS_BEHIND, default 20).
    pub(super) max_commits_behind: u32,
    /// Paths with findings, per graph: a ready graph never changes.
    pub(super) finding_paths: Mutex<HashMap<String, Arc<BTreeSet<String>>>>,
    /// The last verdict per checkout, kept while nothing in it changes.
    pub(super) checkout_watches: checkout_watch::CheckoutWatches,
}

impl CodeKg {
    pub(super) fn cached_finding_paths(&self, graph_id: &str) -> Option<Arc<BTreeSet<String>>> {
        self.finding_paths.lock().ok()?.get(graph_id).cloned()
    }

    pub(super) fn cache_finding_paths(&self, graph_id: &str, paths: Arc<BTreeSet<String>>) {
        if let Ok(mut cache) = self.finding_paths.lock() {
            cache.insert(graph_id.to_owned(), paths);
        }
    }
}
