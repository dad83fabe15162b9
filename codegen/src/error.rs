//! Manifest errors, always pointing at a file, line and column, so a spec author can jump there.

use std::fmt;
use std::path::PathBuf;

/// One problem found in a manifest.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub struct ManifestError {
    pub file: PathBuf,
    pub line: usize,
    pub column: usize,
    /// The tool (or prompt, resource, type) the problem belongs to, when there is one.
    pub subject: Option<String>,
    pub message: String,
}

impl fmt::Display for ManifestError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}:{}: ", self.file.display(), self.line, self.column)?;
        if let Some(subject) = &self.subject {
            write!(f, "{subject}: ")?;
        }
        f.write_str(&self.message)
    }
}

/// Everything wrong with a set of manifests; generation stops only after collecting all of it.
#[derive(Debug, thiserror::Error)]
pub enum CodegenError {
    #[error("{}", render_all(.0))]
    Manifest(Vec<ManifestError>),
    #[error("cannot read {path}: {source}. Check that the file exists and is readable.")]
    Read {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("cannot write {path}: {source}")]
    Write {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("generated code for {surface} does not parse as Rust (a generator bug): {message}")]
    Emit { surface: String, message: String },
}

fn render_all(errors: &[ManifestError]) -> String {
    let lines: Vec<String> = errors.iter().map(ToString::to_string).collect();
    lines.join("\n")
}
