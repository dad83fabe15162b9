//! A document of a workspace and its references, as the index holds them and every other
//! docs module reads them (the index owns the documents, not their types).

use super::config::{self, DocGraphConfig};
use super::frontmatter::ParseError;
use super::links;
use serde::Serialize;

/// An edge kind (see the configuration's `edges`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Kind {
    DependsOn,
    Parent,
    Related,
    Supersedes,
    Milestone,
}

impl Kind {
    pub const ALL: [Kind; 5] = [
        Kind::DependsOn,
        Kind::Parent,
        Kind::Related,
        Kind::Supersedes,
        Kind::Milestone,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            Kind::DependsOn => "depends_on",
            Kind::Parent => "parent",
            Kind::Related => "related",
            Kind::Supersedes => "supersedes",
            Kind::Milestone => "milestone",
        }
    }

    pub fn spec(self, cfg: &DocGraphConfig) -> &config::EdgeSpec {
        match self {
            Kind::DependsOn => &cfg.edges.depends_on,
            Kind::Parent => &cfg.edges.parent,
            Kind::Related => &cfg.edges.related,
            Kind::Supersedes => &cfg.edges.supersedes,
            Kind::Milestone => &cfg.edges.milestone,
        }
    }
}

/// A reference as written in a document, before resolution.
#[derive(Debug, Clone, PartialEq)]
pub struct RawRef {
    pub kind: Kind,
    pub target: String,
    /// The metadata key it came from; `None` for a body link.
    pub key: Option<String>,
    /// 1-based line in the file holding it (the key's line for metadata).
    pub line: Option<usize>,
    pub wikilink: bool,
    /// From an inverse key (`superseded-by`): the edge points from the target to this document.
    pub inverse: bool,
}

/// One document (node).
#[derive(Debug, Clone)]
pub struct Doc {
    /// Workspace-relative path of the node: the file, or the directory of a sidecar node.
    pub path: String,
    /// The file the metadata was read from.
    pub meta_file: String,
    /// The file the Markdown body was read from, if any.
    pub body_file: Option<String>,
    /// The id as displayed.
    pub id: String,
    /// The comparison key of the id.
    pub key: String,
    /// `metadata`, `filename_id`, `file_stem`, `dir_name` or `path`.
    pub id_source: &'static str,
    pub title: String,
    pub doc_type: String,
    pub status: Option<String>,
    /// Derived from the path (`done`, `archived`, `draft`), never from the metadata.
    pub lifecycle: Option<String>,
    /// 1-based file line of the body's first line (the body itself is read from the file when
    /// an answer shows it: [`Index::body`]).
    pub body_line: usize,
    pub refs: Vec<RawRef>,
    pub permalink: Option<String>,
    pub aliases: Vec<String>,
    pub file_stem: String,
    pub parse_error: Option<Box<ParseError>>,
}

impl Doc {
    /// The directory links in the body are relative to.
    pub fn body_dir(&self) -> &str {
        links::parent(self.body_file.as_deref().unwrap_or(&self.meta_file))
    }
}

/// The last segment of a workspace-relative path.
pub fn file_name(path: &str) -> &str {
    path.rsplit_once('/').map_or(path, |(_, f)| f)
}
