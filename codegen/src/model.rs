//! The manifest as spec authors write it. Every struct denies unknown keys so that a typo fails
//! the build instead of being silently ignored.

use serde::Deserialize;
use serde_json::Value;
use std::collections::BTreeMap;

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Manifest {
    pub surface: String,
    pub server: Server,
    pub scopes: Vec<Scope>,
    #[serde(default)]
    pub types: BTreeMap<String, Value>,
    pub tools: Vec<Tool>,
    #[serde(default)]
    pub prompts: Vec<Prompt>,
    #[serde(default)]
    pub resources: Vec<Resource>,
    /// Optional fields the runtime may add to every result of this surface, in declaration
    /// order: `name: {description, schema}` (see validate/envelope.rs).
    #[serde(default)]
    pub envelope: serde_json::Map<String, Value>,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Server {
    pub name: String,
    pub title: String,
    pub version: String,
    pub instructions: String,
    pub result_budget: usize,
    /// The most bytes the tool list may cost a model (see budget.rs).
    #[serde(default)]
    pub tool_list_budget: Option<usize>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Deserialize)]
#[serde(rename_all = "snake_case")]
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

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Scope {
    pub name: String,
    pub description: String,
    pub modes: Vec<Mode>,
    #[serde(default)]
    pub default_stdio: bool,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Access {
    Read,
    Write,
    Destructive,
}

impl Access {
    pub fn as_str(self) -> &'static str {
        match self {
            Access::Read => "read",
            Access::Write => "write",
            Access::Destructive => "destructive",
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum HandlerKind {
    Mapped,
    Custom,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Tool {
    pub name: String,
    pub title: String,
    pub description: String,
    pub scope: String,
    pub access: Access,
    #[serde(default)]
    pub modes: Option<Vec<Mode>>,
    pub handler: HandlerKind,
    pub input: Value,
    pub output: Value,
    #[serde(default)]
    pub nexus: Option<NexusMapping>,
    #[serde(default)]
    pub response: Response,
    #[serde(default)]
    pub pagination: Option<Pagination>,
    #[serde(default)]
    pub mutation: Option<Mutation>,
    /// Content blocks of the result, rendered from the answer (see [`Content`]); none: the
    /// answer as JSON text.
    #[serde(default)]
    pub content: Vec<Content>,
    /// Shared types spliced into `input` / `output` with `include:` (filled by include.rs).
    #[serde(skip)]
    pub includes: Includes,
}

/// The shared types a tool's schemas include, by schema.
#[derive(Debug, Clone, Default)]
pub struct Includes {
    pub input: Vec<String>,
    pub output: Vec<String>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
pub enum Method {
    #[serde(rename = "GET")]
    Get,
    #[serde(rename = "POST")]
    Post,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NexusMapping {
    pub method: Method,
    pub path: String,
    #[serde(default)]
    pub query: BTreeMap<String, String>,
    #[serde(default)]
    pub body: BTreeMap<String, String>,
}

#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Response {
    #[serde(default)]
    pub pick: Vec<String>,
    #[serde(default)]
    pub exclude: Vec<String>,
    #[serde(default)]
    pub max_items: Option<usize>,
    #[serde(default)]
    pub max_string: Option<usize>,
    #[serde(default)]
    pub budget: Option<usize>,
    #[serde(default)]
    pub redact: Vec<String>,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Pagination {
    pub items: String,
    pub cursor: String,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Mutation {
    #[serde(default)]
    pub dry_run: Option<DryRun>,
    #[serde(default)]
    pub paired_dry_run_tool: Option<String>,
    #[serde(default)]
    pub require_true: Vec<String>,
    #[serde(default)]
    pub plan_param: Option<String>,
    #[serde(default)]
    pub dirty_worktree_param: Option<String>,
    #[serde(default)]
    pub follow_up: Option<String>,
    /// What a real run changes, for the refusal message ("changes the graph").
    #[serde(default)]
    pub changes: Option<String>,
    /// Who approves a real run ("a human or the SR method").
    #[serde(default)]
    pub approver: Option<String>,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DryRun {
    pub param: String,
    pub default: bool,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Prompt {
    pub name: String,
    #[serde(default)]
    pub title: Option<String>,
    pub description: String,
    #[serde(default)]
    pub arguments: Vec<PromptArgument>,
    /// One user text message. Either this or `messages`.
    #[serde(default)]
    pub template: String,
    /// Messages with content types, in order. Either this or `template`.
    #[serde(default)]
    pub messages: Vec<PromptMessage>,
    /// A tool called before rendering; its result is `result` in the templates.
    #[serde(default)]
    pub call: Option<PromptCall>,
}

/// `call: {tool, arguments}`: the tool runs through the same dispatch as tools/call.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PromptCall {
    pub tool: String,
    /// Tool argument name → minijinja template over the prompt's `args`.
    #[serde(default)]
    pub arguments: BTreeMap<String, String>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Role {
    User,
    Assistant,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PromptMessage {
    pub role: Role,
    pub content: Content,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ContentKind {
    Text,
    Image,
    Audio,
    Resource,
}

impl ContentKind {
    pub fn as_str(self) -> &'static str {
        match self {
            ContentKind::Text => "text",
            ContentKind::Image => "image",
            ContentKind::Audio => "audio",
            ContentKind::Resource => "resource",
        }
    }
}

/// One MCP content block; every string is a minijinja template.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Content {
    #[serde(rename = "type")]
    pub kind: ContentKind,
    #[serde(default)]
    pub text: Option<String>,
    /// Base64 (image, audio, binary embedded resource).
    #[serde(default)]
    pub data: Option<String>,
    #[serde(default)]
    pub mime_type: Option<String>,
    /// The embedded resource's URI.
    #[serde(default)]
    pub uri: Option<String>,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PromptArgument {
    pub name: String,
    pub description: String,
    #[serde(default)]
    pub required: bool,
    /// Where completion/complete finds values for this argument.
    #[serde(default)]
    pub complete: Option<Completion>,
}

/// Completion values for a prompt argument: a fixed list, or strings picked from a Nexus answer.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Completion {
    #[serde(default)]
    pub values: Vec<String>,
    #[serde(default)]
    pub nexus: Option<NexusMapping>,
    /// Dotted path with `*` into the Nexus answer, e.g. `items.*.name`.
    #[serde(default)]
    pub pick: Option<String>,
    /// The scope a caller needs for values read from Nexus.
    #[serde(default)]
    pub scope: Option<String>,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Resource {
    pub uri: String,
    pub name: String,
    #[serde(default)]
    pub title: Option<String>,
    pub description: String,
    pub mime_type: String,
    /// Static text, or text rendered over `result` (the backend answer) and `args` (the URI
    /// template's variables).
    #[serde(default)]
    pub template: String,
    /// The backend read behind the resource; its `input` is the URI template's variables.
    #[serde(default)]
    pub nexus: Option<NexusMapping>,
    /// Dotted path of the text in the answer.
    #[serde(default)]
    pub text: Option<String>,
    /// Dotted path of base64 data in the answer.
    #[serde(default)]
    pub blob: Option<String>,
    /// The scope a caller needs to list and read the resource.
    #[serde(default)]
    pub scope: Option<String>,
    #[serde(default)]
    pub response: Response,
    /// URI template variable → where completion/complete finds its values.
    #[serde(default)]
    pub complete: BTreeMap<String, Completion>,
}
