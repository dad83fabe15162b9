//! The workspace configuration: the optional file `.nexus/docgraph.yaml` (under a top-level
//! `doc_graph:` key, or at the top level). Every key has a default, and the defaults fit a
//! Backlog.md `backlog/` folder, so most workspaces need no file at all.
//!
//! ```yaml
//! doc_graph:
//!   workspace_root: "."            # the indexed root, relative to the workspace directory
//!   include: [...]                 # globs of indexed files (relative to workspace_root)
//!   exclude: ["**/readme.md"]      # globs, matched case-insensitively; .gitignore is honoured
//!   gitignore: true                # honour .gitignore / .git/info/exclude
//!   lifecycle: {"backlog/completed/**": done, ...}   # derived state by path (first match)
//!   lifecycle_precedence: []       # e.g. [active, done]: breaks a duplicate-id tie (still reported)
//!   types: {"backlog/tasks/**": task, ...}           # node type by path when the file has none
//!   default_type: task             # type when neither the file nor `types` gives one
//!   type_key: type                 # frontmatter keys read for type, status and title
//!   status_key: status
//!   title_key: title
//!   done_statuses: [done, completed, closed, implemented, accepted]
//!   todo_statuses: [to do, todo, open, new, backlog, planned, ready, not started, implementable]  # ready only from these
//!   metadata:
//!     sources: [frontmatter]       # or [sidecar], or both
//!     sidecar: {file: null, body: README.md}   # e.g. {file: kep.yaml, body: README.md}
//!     prequote_keys: [assignee, reporter, due_date]  # unquoted `@handle` values quoted first
//!   id:
//!     keys: [id]                   # first key present wins
//!     fallback: [filename_id, file_stem]   # also: dir_name (sidecar dirs, README/index files)
//!     scope: global                # or per_directory
//!     normalize: {case_insensitive_prefix: true, strip_leading_zeros: true,
//!                 default_prefix: auto, prefix_aliases: {}}
//!   edges:                         # keys read from the metadata for each edge kind
//!     depends_on: {keys: [dependencies, depends_on, requires, blocked_by]}  # always cycles
//!     parent:     {keys: [parent_task_id, parent], cycles: false}  # true: parents count too
//!     related:    {keys: [references, documentation, related, see-also, relates_to]}
//!     supersedes: {keys: [replaces, supersedes], inverse_keys: [superseded-by, superseded_by]}
//!     milestone:  {keys: [milestone]}
//!   null_values: ["", "~", "null", "none", "n/a", "na", "-", "—", "tbd", "todo"]
//!   links: {markdown: true, wikilinks: true, url_rewrite: {},
//!           wikilink_resolve_by: [id, permalink, file_stem, aliases, title]}
//!   acceptance_criteria:
//!     markers: {begin: "<!-- AC:BEGIN -->", end: "<!-- AC:END -->"}
//!     headings: ["Acceptance Criteria"]
//!     include_subheadings: true
//!   limits: {max_file_bytes: 1048576, context_max_bytes: 65536, max_cycles: 100}
//! ```

use super::frontmatter::ParseError;
use super::read;
use serde::Deserialize;
use std::collections::BTreeMap;
use std::path::Path;

/// Where the configuration file lives, relative to the workspace directory.
pub const CONFIG_PATH: &str = ".nexus/docgraph.yaml";

#[derive(Debug, Clone, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct DocGraphConfig {
    pub workspace_root: String,
    pub include: Vec<String>,
    pub exclude: Vec<String>,
    pub gitignore: bool,
    /// Glob → lifecycle state, first match wins (kept in file order).
    pub lifecycle: serde_json::Map<String, serde_json::Value>,
    pub lifecycle_precedence: Vec<String>,
    /// Glob → node type, first match wins.
    pub types: serde_json::Map<String, serde_json::Value>,
    pub default_type: String,
    pub type_key: String,
    pub status_key: String,
    pub title_key: String,
    pub done_statuses: Vec<String>,
    /// Statuses of work not started: a task is ready only in one of them.
    pub todo_statuses: Vec<String>,
    pub metadata: MetadataConfig,
    pub id: IdConfig,
    pub edges: EdgesConfig,
    pub null_values: Vec<String>,
    pub links: LinksConfig,
    pub acceptance_criteria: CriteriaConfig,
    pub limits: Limits,
}

impl Default for DocGraphConfig {
    fn default() -> Self {
        let folders = |pairs: &[(&str, &str)]| {
            pairs
                .iter()
                .map(|(k, v)| (k.to_string(), serde_json::Value::String(v.to_string())))
                .collect()
        };
        DocGraphConfig {
            workspace_root: ".".into(),
            include: strings(&[
                "backlog/{tasks,completed,drafts,docs,decisions,milestones}/**/*.md",
                "backlog/archive/tasks/**/*.md",
            ]),
            exclude: strings(&["**/readme.md"]),
            gitignore: true,
            lifecycle: folders(&[
                ("backlog/completed/**", "done"),
                ("backlog/archive/**", "archived"),
                ("backlog/drafts/**", "draft"),
            ]),
            lifecycle_precedence: Vec::new(),
            types: folders(&[
                ("backlog/drafts/**", "draft"),
                ("backlog/docs/**", "doc"),
                ("backlog/decisions/**", "decision"),
                ("backlog/milestones/**", "milestone"),
            ]),
            default_type: "task".into(),
            type_key: "type".into(),
            status_key: "status".into(),
            title_key: "title".into(),
            done_statuses: strings(&["done", "completed", "closed", "implemented", "accepted"]),
            todo_statuses: strings(&[
                "to do",
                "todo",
                "open",
                "new",
                "backlog",
                "planned",
                "ready",
                "not started",
                "implementable",
            ]),
            metadata: MetadataConfig::default(),
            id: IdConfig::default(),
            edges: EdgesConfig::default(),
            null_values: strings(&[
                "", "~", "null", "none", "n/a", "na", "-", "—", "tbd", "todo",
            ]),
            links: LinksConfig::default(),
            acceptance_criteria: CriteriaConfig::default(),
            limits: Limits::default(),
        }
    }
}

fn strings(v: &[&str]) -> Vec<String> {
    v.iter().map(|s| s.to_string()).collect()
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Source {
    Frontmatter,
    Sidecar,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct MetadataConfig {
    pub sources: Vec<Source>,
    pub sidecar: SidecarConfig,
    pub prequote_keys: Vec<String>,
}

impl Default for MetadataConfig {
    fn default() -> Self {
        MetadataConfig {
            sources: vec![Source::Frontmatter],
            sidecar: SidecarConfig::default(),
            prequote_keys: strings(&["assignee", "reporter", "due_date"]),
        }
    }
}

#[derive(Debug, Clone, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct SidecarConfig {
    /// The metadata file name (`kep.yaml`); `None`: no sidecar layout.
    pub file: Option<String>,
    /// The body file beside it.
    pub body: String,
}

impl Default for SidecarConfig {
    fn default() -> Self {
        SidecarConfig {
            file: None,
            body: "README.md".into(),
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Fallback {
    FilenameId,
    FileStem,
    DirName,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Scope {
    Global,
    PerDirectory,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct IdConfig {
    pub keys: Vec<String>,
    pub fallback: Vec<Fallback>,
    pub scope: Scope,
    pub normalize: NormalizeConfig,
}

impl Default for IdConfig {
    fn default() -> Self {
        IdConfig {
            keys: strings(&["id"]),
            fallback: vec![Fallback::FilenameId, Fallback::FileStem],
            scope: Scope::Global,
            normalize: NormalizeConfig::default(),
        }
    }
}

#[derive(Debug, Clone, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct NormalizeConfig {
    pub case_insensitive_prefix: bool,
    pub strip_leading_zeros: bool,
    /// `auto`: `task_prefix` of `backlog/config.yml`, else `task`.
    pub default_prefix: String,
    /// Old prefix → new prefix (compared case-insensitively).
    pub prefix_aliases: BTreeMap<String, String>,
}

impl Default for NormalizeConfig {
    fn default() -> Self {
        NormalizeConfig {
            case_insensitive_prefix: true,
            strip_leading_zeros: true,
            default_prefix: "auto".into(),
            prefix_aliases: BTreeMap::new(),
        }
    }
}

#[derive(Debug, Clone, Default, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct EdgeSpec {
    pub keys: Vec<String>,
    /// Read for `parent` only: whether parent edges also count for cycles, critical paths
    /// and readiness. `depends_on` always counts; the other kinds never do.
    pub cycles: bool,
    /// Keys whose edges point the other way (`superseded-by`).
    pub inverse_keys: Vec<String>,
    /// Milestones: resolve by `id` and/or `title` (informational).
    pub resolve_by: Vec<String>,
}

fn edge(keys: &[&str], cycles: bool) -> EdgeSpec {
    EdgeSpec {
        keys: strings(keys),
        cycles,
        inverse_keys: Vec::new(),
        resolve_by: Vec::new(),
    }
}

#[derive(Debug, Clone, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct EdgesConfig {
    pub depends_on: EdgeSpec,
    pub parent: EdgeSpec,
    pub related: EdgeSpec,
    pub supersedes: EdgeSpec,
    pub milestone: EdgeSpec,
}

impl Default for EdgesConfig {
    fn default() -> Self {
        EdgesConfig {
            depends_on: edge(
                &["dependencies", "depends_on", "requires", "blocked_by"],
                true,
            ),
            parent: edge(&["parent_task_id", "parent"], false),
            related: edge(
                &[
                    "references",
                    "documentation",
                    "related",
                    "see-also",
                    "relates_to",
                ],
                false,
            ),
            supersedes: EdgeSpec {
                inverse_keys: strings(&["superseded-by", "superseded_by"]),
                ..edge(&["replaces", "supersedes"], false)
            },
            milestone: EdgeSpec {
                resolve_by: strings(&["id", "title"]),
                ..edge(&["milestone"], false)
            },
        }
    }
}

#[derive(Debug, Clone, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct LinksConfig {
    pub markdown: bool,
    pub wikilinks: bool,
    /// URL prefix → workspace path prefix (the repository's own `blob/<ref>/` URLs).
    pub url_rewrite: BTreeMap<String, String>,
    pub wikilink_resolve_by: Vec<String>,
}

impl Default for LinksConfig {
    fn default() -> Self {
        LinksConfig {
            markdown: true,
            wikilinks: true,
            url_rewrite: BTreeMap::new(),
            wikilink_resolve_by: strings(&["id", "permalink", "file_stem", "aliases", "title"]),
        }
    }
}

#[derive(Debug, Clone, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Markers {
    pub begin: String,
    pub end: String,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct CriteriaConfig {
    pub markers: Markers,
    pub headings: Vec<String>,
    pub include_subheadings: bool,
}

impl Default for Markers {
    fn default() -> Self {
        Markers {
            begin: "<!-- AC:BEGIN -->".into(),
            end: "<!-- AC:END -->".into(),
        }
    }
}

impl Default for CriteriaConfig {
    fn default() -> Self {
        CriteriaConfig {
            markers: Markers::default(),
            headings: strings(&["Acceptance Criteria"]),
            include_subheadings: true,
        }
    }
}

// In core: the server's configuration (`core::config::LiteConfig`) carries the operator's.
pub use crate::core::config::Limits;

/// The operator's maxima of the `limits` a workspace's `.nexus/docgraph.yaml` may set (flags
/// or environment of `nexus-lite serve` and `nexus-mcp serve`); a workspace can only lower them.
#[derive(Debug, Clone, clap::Args)]
pub struct OperatorLimits {
    /// Largest documentation file read, in bytes (a larger one is read from its first bytes only).
    #[arg(long = "docs-max-file-bytes", env = "NEXUS_DOCS_MAX_FILE_BYTES", default_value_t = 1_048_576, value_parser = clap::value_parser!(u64).range(1..))]
    pub max_file_bytes: u64,
    /// Most Markdown bytes one get_task_context answer carries.
    #[arg(
        long = "docs-context-max-bytes",
        env = "NEXUS_DOCS_CONTEXT_MAX_BYTES",
        default_value_t = 65_536
    )]
    pub context_max_bytes: usize,
    /// Most cycles the documentation audit lists.
    #[arg(
        long = "docs-max-cycles",
        env = "NEXUS_DOCS_MAX_CYCLES",
        default_value_t = 100
    )]
    pub max_cycles: usize,
}

impl From<OperatorLimits> for Limits {
    fn from(o: OperatorLimits) -> Limits {
        Limits {
            max_file_bytes: o.max_file_bytes,
            context_max_bytes: o.context_max_bytes,
            max_cycles: o.max_cycles,
        }
    }
}

/// A configuration as loaded: the values, where they came from, and a problem with the file
/// (then the defaults are used and the problem is reported with the parse errors).
#[derive(Debug, Clone)]
pub struct Loaded {
    pub config: DocGraphConfig,
    /// `Some(CONFIG_PATH)` when the file exists.
    pub file: Option<String>,
    pub error: Option<ParseError>,
    /// The default prefix after `auto` was resolved (upper case).
    pub default_prefix: String,
    /// Where it came from: `config` (`.nexus/docgraph.yaml`), `backlog/config.yml` or `default`.
    pub default_prefix_source: &'static str,
}

#[derive(Deserialize)]
struct Wrapped {
    doc_graph: DocGraphConfig,
}

/// Loads `<dir>/.nexus/docgraph.yaml` (defaults when absent), bounds its limits by the
/// operator's and resolves `default_prefix`. `dir` is the canonical workspace directory.
pub fn load(dir: &Path, operator: &Limits) -> Loaded {
    let problem = |message: String| {
        Some(ParseError {
            path: CONFIG_PATH.into(),
            line: None,
            column: None,
            message,
        })
    };
    let (mut config, file, error) = match read::read_capped(
        dir,
        CONFIG_PATH,
        operator.max_file_bytes,
    ) {
        Err(e) if e.is_not_found() => (DocGraphConfig::default(), None, None),
        Err(e) => (
            DocGraphConfig::default(),
            Some(CONFIG_PATH.to_string()),
            problem(format!(
                "the configuration file is not read: {e}; the defaults are used"
            )),
        ),
        Ok((_, Some(size))) => (
            DocGraphConfig::default(),
            Some(CONFIG_PATH.to_string()),
            problem(format!(
                "the configuration file is {size} bytes, over the operator's limit of {} bytes; the defaults are used",
                operator.max_file_bytes
            )),
        ),
        Ok((text, None)) => match parse(&text) {
            Ok(c) => (c, Some(CONFIG_PATH.to_string()), None),
            Err(mut e) => {
                e.path = CONFIG_PATH.into();
                e.message = format!(
                    "{}; the configuration file is ignored and the defaults are used until it is fixed",
                    e.message
                );
                (
                    DocGraphConfig::default(),
                    Some(CONFIG_PATH.to_string()),
                    Some(e),
                )
            }
        },
    };
    config.limits = config.limits.within(operator);
    let (default_prefix, default_prefix_source) = resolve_prefix(dir, &config);
    Loaded {
        config,
        file,
        error,
        default_prefix,
        default_prefix_source,
    }
}

/// Parses the text of a configuration file (with or without the `doc_graph:` wrapper). Paths
/// it names must stay inside the workspace: relative, without `..`.
pub fn parse(text: &str) -> Result<DocGraphConfig, ParseError> {
    let value = super::frontmatter::from_yaml(text)?;
    let value = if value.is_null() {
        serde_json::json!({})
    } else {
        value
    };
    let result = if value.get("doc_graph").is_some() {
        serde_json::from_value::<Wrapped>(value).map(|w| w.doc_graph)
    } else {
        serde_json::from_value::<DocGraphConfig>(value)
    };
    let invalid = |message: String| ParseError {
        path: String::new(),
        line: None,
        column: None,
        message,
    };
    let config = result.map_err(|e| invalid(format!("invalid configuration: {e}")))?;
    let inside = |key: &str, value: &str, dot: bool| {
        if dot && matches!(value.trim(), "" | "." | "./") {
            return Ok(());
        }
        read::components(value).map(|_| ()).map_err(|e| match e {
            read::ReadError::GitDir(_) => invalid(format!("`{key}: {value}`: {e}")),
            _ => invalid(format!(
                "`{key}: {value}` must be a relative path inside the workspace (no leading `/`, no `..`)"
            )),
        })
    };
    inside("workspace_root", &config.workspace_root, true)?;
    inside(
        "metadata.sidecar.body",
        &config.metadata.sidecar.body,
        false,
    )?;
    if let Some(f) = &config.metadata.sidecar.file {
        inside("metadata.sidecar.file", f, false)?;
    }
    Ok(config)
}

/// `rel` (relative to the indexed root) as a path relative to the workspace directory.
pub fn under_root(config: &DocGraphConfig, rel: &str) -> String {
    match config.workspace_root.trim_matches('/') {
        "" | "." => rel.to_string(),
        root => format!("{root}/{rel}"),
    }
}

fn resolve_prefix(dir: &Path, config: &DocGraphConfig) -> (String, &'static str) {
    let configured = config.id.normalize.default_prefix.trim();
    if !configured.is_empty() && !configured.eq_ignore_ascii_case("auto") {
        return (configured.to_ascii_uppercase(), "config");
    }
    let backlog = under_root(config, "backlog/config.yml");
    if let Ok((text, None)) = read::read_capped(dir, &backlog, config.limits.max_file_bytes)
        && let Ok(v) = super::frontmatter::from_yaml(&text)
        && let Some(p) = v.get("task_prefix").and_then(|p| p.as_str())
        && !p.trim().is_empty()
    {
        return (p.trim().to_ascii_uppercase(), "backlog/config.yml");
    }
    ("TASK".into(), "default")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_fit_backlog_md_and_a_file_overrides_only_what_it_names() {
        let d = DocGraphConfig::default();
        assert!(d.include[0].starts_with("backlog/"));
        assert!(d.edges.depends_on.cycles && !d.edges.related.cycles);
        let c = parse("doc_graph:\n  include: [\"docs/**/*.md\"]\n  id: {fallback: [file_stem]}\n")
            .unwrap();
        assert_eq!(c.include, vec!["docs/**/*.md"]);
        assert_eq!(c.id.fallback, vec![Fallback::FileStem]);
        assert_eq!(c.id.keys, vec!["id"], "unnamed keys keep their defaults");
        assert_eq!(c.limits.context_max_bytes, 65_536);
    }

    #[test]
    fn a_misspelt_key_is_refused_with_its_name() {
        let e = parse("doc_graph:\n  incldue: [x]\n").unwrap_err();
        assert!(e.message.contains("incldue"), "{}", e.message);
    }

    #[test]
    fn the_default_prefix_comes_from_backlog_config() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(dir.path().join("backlog")).unwrap();
        std::fs::write(
            dir.path().join("backlog/config.yml"),
            "task_prefix: \"bill\"\n",
        )
        .unwrap();
        let l = load(&dir.path().canonicalize().unwrap(), &Limits::default());
        assert_eq!(l.default_prefix, "BILL");
        assert_eq!(l.default_prefix_source, "backlog/config.yml");
        assert!(l.file.is_none() && l.error.is_none());
    }
}
