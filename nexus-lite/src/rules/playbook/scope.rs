//! Where a rule applies: under its file's directory, narrowed by its globs (relative to that
//! directory; a glob without `/` matches at any depth, as in .gitignore and Cursor).

use globset::{GlobBuilder, GlobSet, GlobSetBuilder};

#[derive(Debug, Clone)]
pub struct Scope {
    pub dir: String,
    pub globs: Vec<String>,
    matcher: Option<GlobSet>,
    /// Globs that do not compile, with why (left out of matching).
    pub bad_globs: Vec<String>,
}

/// Whether a rule applies to a path.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Applies {
    Yes,
    /// A directory under the scope: the globs cannot be decided for it, so the rule is kept.
    Undecided,
    No(String),
}

/// The glob as matched: quotes and `./` gone, slash-less globs at any depth, a trailing `/`
/// meaning everything below.
fn normalise(glob: &str) -> String {
    let g = glob.trim().trim_matches(|c| c == '"' || c == '\'');
    let g = g.strip_prefix("./").unwrap_or(g);
    let g = g.strip_prefix('/').unwrap_or(g);
    let g = if let Some(dir) = g.strip_suffix('/') {
        format!("{dir}/**")
    } else {
        g.to_string()
    };
    if g.contains('/') || g.starts_with("**") {
        g
    } else {
        format!("**/{g}")
    }
}

impl Scope {
    pub fn new(dir: &str, globs: Vec<String>) -> Scope {
        let mut bad_globs = Vec::new();
        let mut builder = GlobSetBuilder::new();
        let mut any = false;
        for g in &globs {
            match GlobBuilder::new(&normalise(g))
                .literal_separator(true)
                .build()
            {
                Ok(glob) => {
                    builder.add(glob);
                    any = true;
                }
                Err(e) => bad_globs.push(format!("glob `{g}` is not valid ({e}); it is ignored")),
            }
        }
        let matcher = if any { builder.build().ok() } else { None };
        Scope {
            dir: dir.to_string(),
            globs,
            matcher,
            bad_globs,
        }
    }

    /// `path` relative to the scope directory, when it is under it.
    fn relative<'a>(&self, path: &'a str) -> Option<&'a str> {
        if self.dir.is_empty() {
            return Some(path);
        }
        if path == self.dir {
            return Some("");
        }
        path.strip_prefix(self.dir.as_str())?.strip_prefix('/')
    }

    /// Whether the rule applies to `path` (a file, or a directory when `is_dir`).
    pub fn applies(&self, path: &str, is_dir: bool) -> Applies {
        let path = path.trim_matches('/');
        let Some(rel) = self.relative(path) else {
            // A directory above the scope still contains it.
            if is_dir && (path.is_empty() || self.dir.starts_with(&format!("{path}/"))) {
                return Applies::Undecided;
            }
            return Applies::No(format!(
                "applies under `{}/`, which does not contain `{path}`",
                self.dir
            ));
        };
        let Some(matcher) = &self.matcher else {
            return Applies::Yes;
        };
        if is_dir {
            return Applies::Undecided;
        }
        if matcher.is_match(rel) {
            Applies::Yes
        } else {
            Applies::No(format!(
                "its globs ({}) do not match `{path}`",
                self.globs.join(", ")
            ))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn braces_slashless_globs_and_nested_scopes() {
        let ts = Scope::new("", vec!["**/*.{ts,tsx}".into()]);
        assert_eq!(ts.applies("web/app.tsx", false), Applies::Yes);
        assert!(matches!(ts.applies("app/run.py", false), Applies::No(_)));
        let py = Scope::new("", vec!["*.py".into()]);
        assert_eq!(py.applies("app/deep/run.py", false), Applies::Yes);
        let api = Scope::new("services/api", vec![]);
        assert_eq!(api.applies("services/api/h.py", false), Applies::Yes);
        assert!(matches!(
            api.applies("services/apix/h.py", false),
            Applies::No(_)
        ));
        assert_eq!(api.applies("services", true), Applies::Undecided);
        let anchored = Scope::new("", vec!["tests/**/*.py".into()]);
        assert_eq!(anchored.applies("tests/a/t.py", false), Applies::Yes);
        assert!(matches!(
            anchored.applies("app/tests/t.py", false),
            Applies::No(_)
        ));
    }

    #[test]
    fn a_bad_glob_is_reported_and_ignored() {
        let s = Scope::new("", vec!["a[".into(), "*.md".into()]);
        assert_eq!(s.bad_globs.len(), 1);
        assert_eq!(s.applies("x.md", false), Applies::Yes);
    }
}
