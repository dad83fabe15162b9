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
    /// The meta-tools in front of the tools declared `listed: false`.
    #[serde(default)]
    pub capabilities: Option<Capabilities>,
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
    /// The backend query parameter that carries a restricted caller's repositories (a key bound
    /// to repositories in the tokens file). Without it, such keys are refused at start-up.
    #[serde(default)]
    pub repository_binding: Option<String>,
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

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum HandlerKind {
    Mapped,
    Custom,
    /// A meta-tool the engine writes from `capabilities:`; never written in a manifest.
    #[serde(skip)]
    Meta(MetaKind),
}

/// Which of the two meta-tools.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MetaKind {
    Use,
    List,
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
    /// `false`: a capability, not in tools/list, reached through the `capabilities:` meta-tools.
    #[serde(default = "listed_default")]
    pub listed: bool,
    /// Backend failures answered under a domain code: `404: TASK_NOT_FOUND`,
    /// `ambiguous: {code: AMBIGUOUS, message: "..."}`.
    #[serde(default)]
    pub errors: BTreeMap<ErrorKey, ErrorTarget>,
    /// Questions for the client before the tool runs, round by round: each round maps a key to
    /// one request (see [`Ask`]).
    #[serde(default)]
    pub ask: Vec<BTreeMap<String, Ask>>,
    /// On a read tool: a result listing several matches lets the human pick one (see [`Choose`]).
    #[serde(default)]
    pub choose: Option<Choose>,
}

/// `choose: {from, by, message, label}`: when the answer lists two or more items under `from`
/// and the client can ask its human, the human picks one and the tool runs again with input
/// `by` set to the picked item's `by`.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Choose {
    /// A top-level output property: an array of objects.
    pub from: String,
    /// A field of those objects and an input property of the same name.
    pub by: String,
    /// minijinja over `input` and `total`.
    pub message: String,
    /// minijinja over `item`.
    pub label: String,
}

/// One question: exactly one of `elicit`, `sample`, `roots`.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Ask {
    #[serde(default)]
    pub elicit: Option<Elicit>,
    #[serde(default)]
    pub sample: Option<Sample>,
    #[serde(default)]
    pub roots: Option<Roots>,
    /// Skipped (answer null) for a client that cannot answer, instead of refusing the call.
    #[serde(default)]
    pub optional: bool,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Elicit {
    /// minijinja over `input`.
    pub message: String,
    /// The requested schema: an object of primitive properties (MCP's elicitation forms).
    pub schema: Value,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Sample {
    /// The user message to the client's model, minijinja over `input`.
    pub prompt: String,
    pub max_tokens: u32,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Roots {}

/// The shared types a tool's schemas include, by schema.
#[derive(Debug, Clone, Default)]
pub struct Includes {
    pub input: Vec<String>,
    pub output: Vec<String>,
}

fn listed_default() -> bool {
    true
}

/// The key of an `errors:` entry: an HTTP status (unquoted number) or a backend error code.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Deserialize)]
#[serde(untagged)]
pub enum ErrorKey {
    Status(u16),
    Code(String),
}

impl ErrorKey {
    /// The key as written in the manifest.
    pub fn text(&self) -> String {
        match self {
            ErrorKey::Status(s) => s.to_string(),
            ErrorKey::Code(c) => c.clone(),
        }
    }
}

/// The value of an `errors:` entry: the domain code, optionally with a message template.
#[derive(Debug, Clone, Deserialize)]
#[serde(untagged)]
pub enum ErrorTarget {
    Code(String),
    Full {
        code: String,
        #[serde(default)]
        message: Option<String>,
    },
}

impl ErrorTarget {
    pub fn code(&self) -> &str {
        match self {
            ErrorTarget::Code(c) | ErrorTarget::Full { code: c, .. } => c,
        }
    }

    pub fn message(&self) -> Option<&str> {
        match self {
            ErrorTarget::Code(_) => None,
            ErrorTarget::Full { message, .. } => message.as_deref(),
        }
    }
}

/// The `capabilities:` block: who sees the two meta-tools and what they are called.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Capabilities {
    /// The scope a caller needs for the meta-tools (each capability still needs its own).
    pub scope: String,
    #[serde(default = "use_tool_default")]
    pub use_tool: String,
    #[serde(default = "list_tool_default")]
    pub list_tool: String,
}

fn use_tool_default() -> String {
    "use_capability".to_owned()
}

fn list_tool_default() -> String {
    "list_capabilities".to_owned()
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
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Pagination {
    pub items: String,
    pub cursor: String,
    /// The answer's key of the next page's cursor (the backend's, replaced by the engine's);
    /// `nextCursor` for a camelCase API.
    #[serde(default = "default_next_cursor")]
    pub next: String,
    /// Other lists of the answer that the backend sends whole with every page (a file's
    /// symbols beside its paged importers): a cut one continues on the next page too, so every
    /// cut is reachable through the one cursor.
    #[serde(default)]
    pub also: Vec<String>,
}

fn default_next_cursor() -> String {
    "next_cursor".to_owned()
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
    pub follow_up: Option<String>,
    /// What a real run changes, for the refusal message ("changes the graph").
    #[serde(default)]
    pub changes: Option<String>,
    /// Who approves a real run ("a human or the SR method").
    #[serde(default)]
    pub approver: Option<String>,
    /// The question put to the human by a client that can ask one (elicitation) before a
    /// real run; minijinja over `input`.
    #[serde(default)]
    pub confirm: Option<String>,
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
    /// Questions for the client before the prompt renders (as a tool's `ask:`).
    #[serde(default)]
    pub ask: Vec<BTreeMap<String, Ask>>,
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
    /// Subscribable: while a session is subscribed, the resource is read again every
    /// `poll_seconds` and a change is notified.
    #[serde(default)]
    pub subscribe: Option<Subscribe>,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Subscribe {
    pub poll_seconds: u32,
}
