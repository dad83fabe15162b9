//! The shapes of the registry. Values of these types are built from a manifest by codegen's
//! `surface` (baked into Rust at build time, or built at run time for `--manifest`); nothing
//! here is filled in by hand.

use serde_json::{Value, json};

/// Where the server runs; decides which tools exist at all.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Mode {
    LocalStdio,
    RemoteHttp,
}

impl Mode {
    pub fn as_str(self) -> &'static str {
        match self {
            Mode::LocalStdio => "local_stdio",
            Mode::RemoteHttp => "remote_http",
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Access {
    Read,
    /// Adds a record (a report, a queued proposal) and changes nothing else: no dry run.
    Append,
    Write,
    Destructive,
}

impl Access {
    pub fn as_str(self) -> &'static str {
        match self {
            Access::Read => "read",
            Access::Append => "append",
            Access::Write => "write",
            Access::Destructive => "destructive",
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Handler {
    Mapped,
    Custom,
    /// One of the surface's two meta-tools, written by the engine (see [`CapabilitiesSpec`]).
    Meta(MetaTool),
}

/// The engine's meta-tools in front of a surface's hidden tools (`listed: false`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MetaTool {
    /// `use_capability {capability, arguments}`: runs a hidden tool through the same dispatch.
    Use,
    /// `list_capabilities`: names the hidden tools the caller may use, schemas on request.
    List,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum HttpMethod {
    Get,
    Post,
}

#[derive(Debug, PartialEq, Eq)]
pub struct SurfaceSpec {
    pub name: &'static str,
    pub title: &'static str,
    pub version: &'static str,
    pub instructions: &'static str,
    pub result_budget: usize,
    /// The most bytes the default stdio tool list may cost (`server.tool_list_budget`).
    pub tool_list_budget: Option<usize>,
    /// The backend query parameter that carries a restricted caller's repositories
    /// (`server.repository_binding`); None: this surface cannot restrict keys by repository.
    pub repository_binding: Option<&'static str>,
    /// Names of the surface's envelope fields (manifest `envelope:`), in declaration order: the
    /// optional blocks the runtime may add to every result of this surface.
    pub envelope: &'static [&'static str],
    pub scopes: &'static [ScopeSpec],
    pub tools: &'static [ToolSpec],
    pub prompts: &'static [PromptSpec],
    pub resources: &'static [ResourceSpec],
    /// The meta-tools in front of the hidden tools, when the manifest declares `capabilities:`.
    pub capabilities: Option<CapabilitiesSpec>,
}

/// The manifest's `capabilities:` block: the names of the two meta-tools (their registry
/// entries are generated too, with [`Handler::Meta`]).
#[derive(Debug, PartialEq, Eq)]
pub struct CapabilitiesSpec {
    pub use_tool: &'static str,
    pub list_tool: &'static str,
}

impl ToolSpec {
    /// Whether a call may put a question to the client: its `ask:`, a mutation's `confirm:`,
    /// a `choose:` (or the meta-tool that runs a capability, which may be any of these).
    pub fn may_ask(&self) -> bool {
        !self.ask.is_empty()
            || self.mutation.as_ref().is_some_and(|m| m.confirm.is_some())
            || self.choose.is_some()
            || self.handler == Handler::Meta(MetaTool::Use)
    }

    /// The MCP tool definition (what tools/list lists and contract/ holds).
    pub fn to_mcp_json(&self) -> Value {
        let parse = |s: &str| serde_json::from_str::<Value>(s).unwrap_or(Value::Null);
        json!({
            "name": self.name,
            "title": self.title,
            "description": self.description,
            "inputSchema": parse(self.input_schema),
            "outputSchema": parse(self.output_schema),
            "annotations": self.annotations(),
        })
    }

    /// All four hints, always set, derived from the access level (never left to client defaults).
    pub fn annotations(&self) -> Value {
        json!({
            "title": self.title,
            "readOnlyHint": self.access == Access::Read,
            "destructiveHint": self.access == Access::Destructive,
            "idempotentHint": self.access == Access::Read,
            "openWorldHint": false,
        })
    }
}

impl SurfaceSpec {
    /// Every (METHOD, path template) the manifest maps: what a local Nexus lets this surface
    /// reach (by the domains those routes belong to).
    pub fn nexus_routes(&self) -> Vec<(&'static str, &'static str)> {
        let prompt_sources = self
            .prompts
            .iter()
            .flat_map(|p| p.arguments.iter().filter_map(|a| a.complete.as_ref()));
        let resource_sources = self
            .resources
            .iter()
            .flat_map(|r| r.complete.iter().map(|(_, c)| c));
        let mut routes: Vec<(&'static str, &'static str)> = self
            .tools
            .iter()
            .filter_map(|t| t.nexus.as_ref())
            .chain(self.resources.iter().filter_map(|r| r.nexus.as_ref()))
            .chain(
                prompt_sources
                    .chain(resource_sources)
                    .filter_map(|c| match c {
                        CompletionSpec::Nexus { nexus, .. } => Some(nexus),
                        CompletionSpec::Values(_) => None,
                    }),
            )
            .map(|n| {
                let method = match n.method {
                    HttpMethod::Get => "GET",
                    HttpMethod::Post => "POST",
                };
                (method, n.path)
            })
            .collect();
        routes.sort_unstable();
        routes.dedup();
        routes
    }

    pub fn tool(&self, name: &str) -> Option<&'static ToolSpec> {
        self.tools.iter().find(|t| t.name == name)
    }

    pub fn scope(&self, name: &str) -> Option<&'static ScopeSpec> {
        self.scopes.iter().find(|s| s.name == name)
    }
}

#[derive(Debug, PartialEq, Eq)]
pub struct ScopeSpec {
    pub name: &'static str,
    pub description: &'static str,
    pub modes: &'static [Mode],
    pub default_stdio: bool,
}

#[derive(Debug, PartialEq, Eq)]
pub struct ToolSpec {
    pub name: &'static str,
    pub title: &'static str,
    pub description: &'static str,
    pub scope: &'static str,
    pub access: Access,
    /// The tool's own modes, already narrowed from its scope's by codegen.
    pub modes: &'static [Mode],
    pub handler: Handler,
    /// Published JSON Schema (sorted keys), exactly what contract/ holds.
    pub input_schema: &'static str,
    pub output_schema: &'static str,
    pub nexus: Option<NexusSpec>,
    pub response: ResponseSpec,
    pub pagination: Option<PaginationSpec>,
    pub mutation: Option<MutationSpec>,
    /// The result's content blocks (`content:` in the manifest); empty: the answer as JSON text.
    pub content: &'static [ContentSpec],
    /// `false` for a capability: not in tools/list, reachable only through the meta-tools.
    pub listed: bool,
    /// Backend failures answered under a declared domain code (the manifest's `errors:`).
    pub errors: &'static [ErrorCodeSpec],
    /// What the tool asks the client before it runs (the manifest's `ask:`), round by round:
    /// every question of a round goes out at once, the next round after their answers.
    pub ask: &'static [&'static [AskSpec]],
    /// A result listing several matches lets the human pick one (the manifest's `choose:`).
    pub choose: Option<ChooseSpec>,
}

/// `choose:` on a read tool: when its answer lists two or more matches under `from` and the
/// client can ask its human (elicitation), the human picks one and the tool runs again with the
/// input `by` set to that match's `by`. Otherwise the answer goes back as it is.
#[derive(Debug, PartialEq, Eq)]
pub struct ChooseSpec {
    /// The top-level output array holding the matches.
    pub from: &'static str,
    /// The field that tells the matches apart, in an item and in the input alike.
    pub by: &'static str,
    /// The question, a minijinja template over `input` and `total` (the matches listed).
    pub message: &'static str,
    /// Each choice's title, a minijinja template over `item`.
    pub label: &'static str,
}

/// The key of the engine's question for a `choose:` (a manifest question may not use it on
/// such a tool).
pub const CHOICE_KEY: &str = "choice";

/// The key, on a page reached with a cursor of a tool that pages `also` lists, of how many items
/// of each list earlier pages showed (an empty list there was shown in full before).
pub const CONTINUED_KEY: &str = "continued_from";

/// The key of the engine's own question for a mutation's `confirm:` (a manifest question may
/// not use it on such a tool).
pub const CONFIRM_KEY: &str = "approval";

/// One question for the client, answered under `key` (in the templates: `answers.<key>`).
#[derive(Debug, PartialEq, Eq)]
pub struct AskSpec {
    pub key: &'static str,
    pub request: AskRequest,
    /// Left out when the client cannot answer it (lacks the capability): its answer is null.
    /// Otherwise such a client is refused (MCP -32021, MissingRequiredClientCapability).
    pub optional: bool,
}

/// The three requests MCP lets a server put to a client.
#[derive(Debug, PartialEq, Eq)]
pub enum AskRequest {
    /// `elicitation/create`: a form for the human. `message` is a minijinja template over
    /// `input`; `schema` the requested schema (JSON text).
    Elicit {
        message: &'static str,
        schema: &'static str,
    },
    /// `sampling/createMessage`: one user message (a template over `input`) to the client's model.
    Sample {
        prompt: &'static str,
        max_tokens: u32,
    },
    /// `roots/list`: the client's roots.
    Roots,
}

impl AskRequest {
    /// The client capability that answers this request.
    pub fn capability(&self) -> &'static str {
        match self {
            AskRequest::Elicit { .. } => "elicitation",
            AskRequest::Sample { .. } => "sampling",
            AskRequest::Roots => "roots",
        }
    }
}

/// One entry of a tool's `errors:` map.
#[derive(Debug, PartialEq, Eq)]
pub struct ErrorCodeSpec {
    pub when: BackendFailure,
    /// UPPER_SNAKE domain code an agent branches on, e.g. `TASK_NOT_FOUND`.
    pub code: &'static str,
    /// minijinja template over `input` and `backend` (status, code, message); `None` keeps the
    /// backend's own message.
    pub message: Option<&'static str>,
}

/// What a backend failure is recognised by.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BackendFailure {
    /// The HTTP status of the answer (400-599).
    Status(u16),
    /// The backend's own `error.code`, e.g. `ambiguous`.
    Code(&'static str),
}

#[derive(Debug, PartialEq, Eq)]
pub struct NexusSpec {
    pub method: HttpMethod,
    pub path: &'static str,
    pub query: &'static [(&'static str, &'static str)],
    pub body: &'static [(&'static str, &'static str)],
}

#[derive(Debug, PartialEq, Eq)]
pub struct ResponseSpec {
    pub pick: &'static [&'static str],
    pub exclude: &'static [&'static str],
    pub max_items: Option<usize>,
    pub max_string: Option<usize>,
    pub budget: usize,
}

#[derive(Debug, PartialEq, Eq)]
pub struct PaginationSpec {
    pub items: &'static str,
    pub cursor: &'static str,
    /// The answer's key of the next page's cursor (`next_cursor`, or `nextCursor`).
    pub next: &'static str,
    /// Lists the backend sends whole with every page; the engine's cursor continues them.
    pub also: &'static [&'static str],
}

#[derive(Debug, PartialEq, Eq)]
pub struct MutationSpec {
    pub dry_run_param: Option<&'static str>,
    pub dry_run_default: bool,
    pub paired_dry_run_tool: Option<&'static str>,
    pub require_true: &'static [&'static str],
    pub plan_param: Option<&'static str>,
    /// The tool a successful real run's answer names in `next_step` (when the answer has none).
    pub follow_up: Option<&'static str>,
    /// What a real run changes ("changes the graph"), for the refusal message.
    pub changes: &'static str,
    /// Who approves a real run ("a human or the SR method").
    pub approver: &'static str,
    /// The question a client that can ask its human (elicitation) puts to them before a real
    /// run, instead of trusting `require_true` flags set by the agent: a minijinja template
    /// over `input`. The answer is bound to the call's arguments (the plan).
    pub confirm: Option<&'static str>,
}

#[derive(Debug, PartialEq, Eq)]
pub struct PromptSpec {
    pub name: &'static str,
    pub title: Option<&'static str>,
    pub description: &'static str,
    pub arguments: &'static [PromptArgSpec],
    /// One user text message; empty when the prompt declares `messages`.
    pub template: &'static str,
    /// Messages with content types, rendered in order (instead of `template`).
    pub messages: &'static [PromptMessageSpec],
    /// A tool the prompt calls first; its result is `result` in the templates.
    pub call: Option<PromptCallSpec>,
    /// Questions for the client first (as a tool's `ask:`); `answers` in the templates.
    pub ask: &'static [&'static [AskSpec]],
}

/// A prompt's tool call: `arguments` are minijinja templates over the prompt's `args`.
#[derive(Debug, PartialEq, Eq)]
pub struct PromptCallSpec {
    pub tool: &'static str,
    pub arguments: &'static [(&'static str, &'static str)],
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Role {
    User,
    Assistant,
}

impl Role {
    pub fn as_str(self) -> &'static str {
        match self {
            Role::User => "user",
            Role::Assistant => "assistant",
        }
    }
}

#[derive(Debug, PartialEq, Eq)]
pub struct PromptMessageSpec {
    pub role: Role,
    pub content: ContentSpec,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ContentKind {
    Text,
    Image,
    Audio,
    Resource,
}

/// One MCP content block. Every string is a minijinja template (see manifest/README.md,
/// "Content types"): `text` for text blocks and text resources, `data` (base64) for images,
/// audio and binary resources, `mime_type`, and `uri` for embedded resources.
#[derive(Debug, PartialEq, Eq)]
pub struct ContentSpec {
    pub kind: ContentKind,
    pub text: Option<&'static str>,
    pub data: Option<&'static str>,
    pub mime_type: Option<&'static str>,
    pub uri: Option<&'static str>,
}

#[derive(Debug, PartialEq, Eq)]
pub struct PromptArgSpec {
    pub name: &'static str,
    pub description: &'static str,
    pub required: bool,
    pub complete: Option<CompletionSpec>,
}

/// Where completion/complete finds values for a prompt argument.
#[derive(Debug, PartialEq, Eq)]
pub enum CompletionSpec {
    /// A fixed list.
    Values(&'static [&'static str]),
    /// The strings at `pick` (dotted, `*` for every item) in a Nexus answer, for callers
    /// holding `scope`.
    Nexus {
        nexus: NexusSpec,
        pick: &'static str,
        scope: &'static str,
    },
}

#[derive(Debug, PartialEq, Eq)]
pub struct ResourceSpec {
    pub uri: &'static str,
    pub name: &'static str,
    pub title: Option<&'static str>,
    pub description: &'static str,
    pub mime_type: &'static str,
    /// Text of the resource (static, or rendered over `result` and `args`); empty when the
    /// content is taken from the backend answer.
    pub template: &'static str,
    /// The backend read behind the resource; its input is the URI template's variables.
    pub nexus: Option<NexusSpec>,
    /// Dotted path of the text in the answer.
    pub text: Option<&'static str>,
    /// Dotted path of base64 data in the answer.
    pub blob: Option<&'static str>,
    /// The scope a caller needs to list and read the resource (none: everyone).
    pub scope: Option<&'static str>,
    /// Trimming of the backend answer (redaction always applies).
    pub response: ResponseSpec,
    /// Completion sources of the URI template's variables.
    pub complete: &'static [(&'static str, CompletionSpec)],
    /// Subscribable (`subscribe:`): a subscribed session's copy is read again this often and a
    /// change notified (`notifications/resources/updated`).
    pub poll_seconds: Option<u32>,
}

impl ResourceSpec {
    /// An RFC 6570 template (`docugraph://workspace/node/{id}`) rather than one resource.
    pub fn is_template(&self) -> bool {
        self.uri.contains('{')
    }
}
