//! The long-lived state of one server: which surface it serves, how it reaches Nexus, and the
//! operator's settings. Built once at start-up; every session and call shares it.

use crate::handler::{ToolContext, ToolFuture};
use crate::nexus_client::NexusClient;
use crate::server::tool_json;
use crate::spec::{SurfaceSpec, ToolSpec};
use rmcp::model::Tool;
use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::path::PathBuf;
use std::sync::{Arc, Mutex, OnceLock};

/// Runs a surface's custom tools (generated `dispatch_custom` bound to an implementation).
pub type CustomDispatch = Arc<dyn Fn(ToolContext, &str, Value) -> Option<ToolFuture> + Send + Sync>;

/// Operator settings that tools read.
#[derive(Debug, Clone, Default)]
pub struct Settings {
    /// NEXUS_MCP_LOCAL_REPO_ROOTS, canonicalized: the only places local paths may point into.
    pub local_repo_roots: Vec<PathBuf>,
    /// Local checkouts known for repositories (embedded nexus-lite, local stdio only), used for
    /// the freshness verdict on every answer.
    pub local_checkouts: BTreeMap<String, PathBuf>,
    /// kg_compare_with_local_git: how many commits behind still counts as usable.
    pub max_commits_behind: u32,
}

pub struct App {
    pub surface: &'static SurfaceSpec,
    pub nexus: NexusClient,
    pub settings: Settings,
    pub custom: CustomDispatch,
    validators: Vec<OnceLock<Option<jsonschema::Validator>>>,
    /// rmcp's form of each tool, in registry order: parsed from the registry's JSON once, not
    /// on every tools/list or stateless call.
    mcp_tools: OnceLock<Vec<Option<Tool>>>,
    finding_paths: Mutex<HashMap<String, Arc<BTreeSet<String>>>>,
}

impl App {
    pub fn new(
        surface: &'static SurfaceSpec,
        nexus: NexusClient,
        settings: Settings,
        custom: CustomDispatch,
    ) -> Self {
        let validators = surface.tools.iter().map(|_| OnceLock::new()).collect();
        App {
            surface,
            nexus,
            settings,
            custom,
            validators,
            mcp_tools: OnceLock::new(),
            finding_paths: Mutex::default(),
        }
    }

    fn index_of(&self, tool: &ToolSpec) -> Option<usize> {
        self.surface.tools.iter().position(|t| t.name == tool.name)
    }

    /// The compiled input validator of `tool`, built on first use so start-up stays fast.
    pub fn validator(&self, tool: &ToolSpec) -> Option<&jsonschema::Validator> {
        self.validators[self.index_of(tool)?]
            .get_or_init(|| {
                let schema: Value = serde_json::from_str(tool.input_schema).ok()?;
                jsonschema::draft202012::new(&schema)
                    .inspect_err(|e| tracing::error!(tool = tool.name, error = %e, "input schema does not compile"))
                    .ok()
            })
            .as_ref()
    }

    /// The MCP definition of `tool` as rmcp types (what tools/list lists).
    pub fn mcp_tool(&self, tool: &ToolSpec) -> Option<&Tool> {
        let index = self.index_of(tool)?;
        self.mcp_tools
            .get_or_init(|| {
                self.surface
                    .tools
                    .iter()
                    .map(|t| {
                        serde_json::from_value(tool_json(t))
                            .inspect_err(|e| tracing::error!(tool = t.name, error = %e, "tool definition is not an MCP Tool"))
                            .ok()
                    })
                    .collect()
            })
            .get(index)?
            .as_ref()
    }

    pub fn cached_finding_paths(&self, graph_id: &str) -> Option<Arc<BTreeSet<String>>> {
        self.finding_paths.lock().ok()?.get(graph_id).cloned()
    }

    pub fn cache_finding_paths(&self, graph_id: &str, paths: Arc<BTreeSet<String>>) {
        if let Ok(mut cache) = self.finding_paths.lock() {
            cache.insert(graph_id.to_owned(), paths);
        }
    }
}
