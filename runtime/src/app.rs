//! The call environment: the long-lived state of one server (which surface it serves, how it
//! reaches the backend, the operator's settings, what the surface binds to the engine) and what
//! every tool call gets. Built once at start-up; every session and call shares it.

use crate::backend::{NexusClient, NexusRequest};
use crate::error::ToolError;
use crate::log::{LogSink, ProgressSink};
use crate::spec::{Mode, SurfaceSpec, ToolSpec};
use rmcp::model::{RequestStateCodec, Tool};
use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::{Map, Value};
use std::borrow::Cow;
use std::collections::BTreeSet;
use std::future::Future;
use std::path::PathBuf;
use std::pin::Pin;
use std::sync::{Arc, OnceLock};

/// Runs a surface's custom tools (generated `dispatch_custom` bound to an implementation).
pub type CustomDispatch = Arc<dyn Fn(ToolContext, &str, Value) -> Option<ToolFuture> + Send + Sync>;

/// Fields a surface adds to every answer of its tools (the manifest's `envelope`), computed from
/// the raw answer before it is trimmed. Only the names the manifest declares are kept.
pub trait EnvelopeHook: Send + Sync {
    fn fields<'a>(
        &'a self,
        ctx: &'a ToolContext,
        tool: &'static ToolSpec,
        raw: &'a Value,
    ) -> Pin<Box<dyn Future<Output = Map<String, Value>> + Send + 'a>>;
}

/// A probe's answer: the fraction done (0 to 1) and a message, or `None`.
pub type ProbeFuture<'a> = Pin<Box<dyn Future<Output = Option<(f64, String)>> + Send + 'a>>;

/// What a call waiting on the backend is doing there (a workspace being indexed, say),
/// asked every [`crate::call::PROBE_EVERY`] while a caller that sent a progressToken waits:
/// the fraction done (0 to 1) and a message, or `None` when there is nothing to say.
pub trait ProgressProbe: Send + Sync {
    fn probe<'a>(
        &'a self,
        ctx: &'a ToolContext,
        tool: &'static ToolSpec,
        arguments: &'a Value,
    ) -> ProbeFuture<'a>;
}

/// What a surface binds to the engine beyond its manifest: its custom handlers (holding the
/// surface's own state), its envelope hook and its progress probe. A surface with none uses
/// the default.
#[derive(Clone)]
pub struct SurfaceParts {
    pub custom: CustomDispatch,
    pub envelope: Option<Arc<dyn EnvelopeHook>>,
    pub progress: Option<Arc<dyn ProgressProbe>>,
}

impl Default for SurfaceParts {
    fn default() -> Self {
        SurfaceParts {
            custom: Arc::new(|_, _, _| None),
            envelope: None,
            progress: None,
        }
    }
}

/// Operator settings that tools read.
#[derive(Debug, Clone, Default)]
pub struct Settings {
    /// NEXUS_MCP_LOCAL_REPO_ROOTS, canonicalized: the only places local paths may point into.
    pub local_repo_roots: Vec<PathBuf>,
    /// The key input-required states are sealed with (`--state-key-file`, at least 32 bytes,
    /// the same on every replica behind one load balancer); None: a random key per process.
    pub request_state_key: Option<Vec<u8>>,
}

pub struct App {
    pub surface: &'static SurfaceSpec,
    pub nexus: NexusClient,
    pub settings: Settings,
    pub parts: SurfaceParts,
    /// What each tool's calls read of its schemas, in registry order, computed on first use so
    /// start-up stays fast.
    schemas: Vec<ToolSchemas>,
    /// rmcp's form of each tool, in registry order: parsed from the registry's JSON once, not
    /// on every tools/list or stateless call.
    mcp_tools: OnceLock<Vec<Option<Tool>>>,
    /// Seals and opens the `requestState` of input-required results.
    pub request_state: RequestStateCodec,
}

impl App {
    pub fn new(
        surface: &'static SurfaceSpec,
        nexus: NexusClient,
        settings: Settings,
        parts: SurfaceParts,
    ) -> Self {
        let schemas = surface
            .tools
            .iter()
            .map(|_| ToolSchemas::default())
            .collect();
        let request_state = crate::asking::codec(settings.request_state_key.as_deref());
        App {
            surface,
            nexus,
            settings,
            parts,
            schemas,
            mcp_tools: OnceLock::new(),
            request_state,
        }
    }

    fn index_of(&self, tool: &ToolSpec) -> Option<usize> {
        self.surface.tools.iter().position(|t| t.name == tool.name)
    }

    fn schemas(&self, tool: &ToolSpec) -> Option<&ToolSchemas> {
        self.schemas.get(self.index_of(tool)?)
    }

    /// The compiled input validator of `tool`.
    pub fn validator(&self, tool: &ToolSpec) -> Option<&jsonschema::Validator> {
        self.schemas(tool)?
            .validator
            .get_or_init(|| {
                jsonschema::draft202012::new(self.input_schema(tool)?)
                    .inspect_err(|e| tracing::error!(tool = tool.name, error = %e, "input schema does not compile"))
                    .ok()
            })
            .as_ref()
    }

    /// The published input schema of `tool`: its validator, defaults, argument problems and
    /// list_capabilities read it.
    pub fn input_schema(&self, tool: &ToolSpec) -> Option<&Value> {
        self.schemas(tool)?
            .input
            .get_or_init(|| serde_json::from_str(tool.input_schema).ok())
            .as_ref()
    }

    /// The top-level output properties of `tool` declared `contentEncoding: base64`: binary
    /// fields its content blocks carry as sent (never redacted or cut).
    pub fn binary_fields(&self, tool: &ToolSpec) -> &[String] {
        let Some(schemas) = self.schemas(tool) else {
            return &[];
        };
        schemas.binary.get_or_init(|| {
            let schema: Value = serde_json::from_str(tool.output_schema).unwrap_or(Value::Null);
            schema
                .get("properties")
                .and_then(Value::as_object)
                .into_iter()
                .flatten()
                .filter(|(_, p)| p.get("contentEncoding").and_then(Value::as_str) == Some("base64"))
                .map(|(name, _)| name.clone())
                .collect()
        })
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
                        serde_json::from_value(t.to_mcp_json())
                            .inspect_err(|e| tracing::error!(tool = t.name, error = %e, "tool definition is not an MCP Tool"))
                            .ok()
                    })
                    .collect()
            })
            .get(index)?
            .as_ref()
    }
}

/// One tool's parsed schemas and what is derived from them.
#[derive(Default)]
struct ToolSchemas {
    input: OnceLock<Option<Value>>,
    validator: OnceLock<Option<jsonschema::Validator>>,
    binary: OnceLock<Vec<String>>,
}

/// The repositories a caller's key is bound to (never empty); a key without a binding sees all.
pub type Repositories = Arc<[String]>;

/// A custom tool's call, boxed so the generated dispatcher can return any of them.
pub type ToolFuture = Pin<Box<dyn Future<Output = Result<Value, ToolError>> + Send>>;

/// Everything a tool call may use. Cheap to clone.
#[derive(Clone)]
pub struct ToolContext {
    pub app: Arc<App>,
    pub mode: Mode,
    pub scopes: Arc<BTreeSet<String>>,
    /// The caller's repository binding (HTTP keys from a tokens file with `repos=`).
    pub repositories: Option<Repositories>,
    pub progress: Option<Arc<dyn ProgressSink>>,
    pub log: Option<Arc<dyn LogSink>>,
    /// How this call's client can be asked questions (none: the `call` command).
    pub asking: Option<Arc<crate::asking::Asking>>,
}

impl ToolContext {
    pub async fn progress(&self, done: f64, total: Option<f64>, message: impl Into<String>) {
        if let Some(sink) = &self.progress {
            sink.report(done, total, message.into()).await;
        }
    }

    /// A Nexus API request on behalf of this call: retries and timings reach the client's log.
    pub async fn nexus(&self, request: &NexusRequest) -> Result<Value, ToolError> {
        self.app
            .nexus
            .send(&self.bound(request), self.log.as_deref())
            .await
    }

    /// `request` as this caller may send it: a caller bound to repositories carries them in the
    /// surface's `repository_binding` parameter, replacing any value already there. (A surface
    /// without that parameter never gets such a caller: start-up refuses the keys.)
    pub fn bound<'a>(&self, request: &'a NexusRequest) -> Cow<'a, NexusRequest> {
        match (&self.repositories, self.app.surface.repository_binding) {
            (Some(repos), Some(param)) => {
                let mut scoped = request.clone();
                scoped.query.retain(|(name, _)| name != param);
                scoped.query.push((param.to_owned(), repos.join(",")));
                Cow::Owned(scoped)
            }
            _ => Cow::Borrowed(request),
        }
    }

    pub fn has_scope(&self, scope: &str) -> bool {
        self.scopes.contains(scope)
    }
}

/// Arguments → a generated input struct. Schema validation already ran, so a failure here means
/// the schema and the struct disagree, which is reported as bad arguments naming the tool.
pub fn decode_input<T: DeserializeOwned>(tool: &str, arguments: Value) -> Result<T, ToolError> {
    serde_json::from_value(arguments).map_err(|e| {
        // serde names the field only in its message (`unknown field `x``); the pointer stays
        // the arguments as a whole.
        ToolError::invalid_field(tool, "", "type", crate::error::capped(&e.to_string()))
    })
}

/// A generated output struct → JSON for trimming.
pub fn encode_output<T: Serialize>(output: T) -> Result<Value, ToolError> {
    serde_json::to_value(output)
        .map_err(|e| ToolError::Internal(format!("cannot encode a tool result: {e}")))
}
