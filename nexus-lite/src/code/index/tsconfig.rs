//! TypeScript/JavaScript path aliases: `compilerOptions.paths` and `baseUrl` of the nearest
//! `tsconfig.json` / `jsconfig.json` above a file (following relative `extends`), so
//! `import { X } from '@/lib/x'` reaches `src/lib/x.ts` instead of an npm package `@/lib`.

use super::read_project_file;
use super::resolve::{normalize_path, parent_dir};
use serde_json::Value;
use std::collections::HashMap;
use std::path::Path;
use std::sync::Arc;

const CONFIG_FILES: [&str; 2] = ["tsconfig.json", "jsconfig.json"];
/// How many `extends` are followed (a cycle ends here too).
const MAX_EXTENDS: usize = 4;

/// The aliases one config file gives its files (directories relative to the repository).
#[derive(Debug, Default, Hash)]
pub(super) struct TsPaths {
    /// `baseUrl`, resolved: bare specifiers are also looked up under it.
    base_url: Option<String>,
    /// The folder `paths` targets are relative to (`baseUrl`, else the config's folder).
    paths_dir: String,
    /// (pattern, targets), longest pattern prefix first.
    paths: Vec<(String, Vec<String>)>,
}

/// The config files of a work tree by folder.
#[derive(Debug, Default)]
pub(super) struct TsConfigs {
    by_dir: HashMap<String, Arc<TsPaths>>,
}

/// `dir` joined with a relative path, `..` and `.` folded; `None` above the repository root.
fn join_norm(dir: &str, rel: &str) -> Option<String> {
    normalize_path(&dir.split('/').chain(rel.split('/')).collect::<Vec<_>>())
}

/// tsconfig files are JSON with comments and trailing commas: both are dropped (outside
/// strings) before parsing.
fn parse_jsonc(text: &str) -> Option<Value> {
    let b = text.as_bytes();
    let mut out = String::with_capacity(text.len());
    let (mut i, mut in_str) = (0, false);
    while i < b.len() {
        let c = b[i];
        if in_str {
            if c == b'\\' && i + 1 < b.len() {
                out.push_str(&text[i..i + 2]);
                i += 2;
                continue;
            }
            in_str = c != b'"';
        } else if c == b'"' {
            in_str = true;
        } else if c == b'/' && b.get(i + 1) == Some(&b'/') {
            while i < b.len() && b[i] != b'\n' {
                i += 1;
            }
            continue;
        } else if c == b'/' && b.get(i + 1) == Some(&b'*') {
            i += 2;
            while i + 1 < b.len() && !(b[i] == b'*' && b[i + 1] == b'/') {
                i += 1;
            }
            i += 2;
            continue;
        } else if c == b',' {
            let next = b[i + 1..].iter().find(|x| !x.is_ascii_whitespace());
            if matches!(next, Some(b'}') | Some(b']')) {
                i += 1;
                continue;
            }
        }
        // Whole UTF-8 sequences: `i` only stops on ASCII bytes above.
        let len = text[i..].chars().next().map_or(1, char::len_utf8);
        out.push_str(&text[i..i + len]);
        i += len;
    }
    serde_json::from_str(&out).ok()
}

fn read_config(root: &Path, path: &str) -> Option<Value> {
    let v = parse_jsonc(&read_project_file(&root.join(path))?);
    if v.is_none() {
        tracing::debug!(path, "tsconfig not parsed; its path aliases are not read");
    }
    v
}

/// The aliases of the config at `path`, its relative `extends` chain read first.
fn load(root: &Path, path: &str) -> TsPaths {
    let mut chain = Vec::new();
    let mut cur = Some(path.to_string());
    while let Some(p) = cur.take() {
        if chain.len() > MAX_EXTENDS {
            break;
        }
        let Some(v) = read_config(root, &p) else {
            break;
        };
        cur = v["extends"]
            .as_str()
            .filter(|e| e.starts_with('.'))
            .and_then(|e| {
                let e = if e.ends_with(".json") {
                    e.to_string()
                } else {
                    format!("{e}.json")
                };
                join_norm(parent_dir(&p), &e)
            });
        chain.push((p, v));
    }
    let mut out = TsPaths::default();
    let mut paths_from: Option<String> = None;
    for (p, v) in chain.iter().rev() {
        let opts = &v["compilerOptions"];
        let dir = parent_dir(p);
        if let Some(b) = opts["baseUrl"].as_str() {
            out.base_url = join_norm(dir, b);
        }
        if let Some(map) = opts["paths"].as_object() {
            out.paths = map
                .iter()
                .map(|(k, t)| {
                    let targets = t
                        .as_array()
                        .map(|a| {
                            a.iter()
                                .filter_map(|x| x.as_str().map(str::to_string))
                                .collect()
                        })
                        .unwrap_or_default();
                    (k.clone(), targets)
                })
                .collect();
            paths_from = Some(dir.to_string());
        }
    }
    out.paths_dir = out
        .base_url
        .clone()
        .or(paths_from)
        .unwrap_or_else(|| parent_dir(path).to_string());
    let prefix_len = |p: &str| p.find('*').unwrap_or(p.len());
    out.paths
        .sort_by(|a, b| prefix_len(&b.0).cmp(&prefix_len(&a.0)).then(a.0.cmp(&b.0)));
    out
}

impl TsConfigs {
    /// Reads the tsconfig.json / jsconfig.json files among `files` under `root`.
    pub(super) fn detect(root: &Path, files: &[String]) -> TsConfigs {
        let mut by_dir = HashMap::new();
        for f in files {
            let (dir, name) = f.rsplit_once('/').unwrap_or(("", f.as_str()));
            // tsconfig.json wins over jsconfig.json in one folder.
            if CONFIG_FILES.contains(&name)
                && (name == "tsconfig.json" || !by_dir.contains_key(dir))
            {
                let paths = load(root, f);
                if paths.base_url.is_some() || !paths.paths.is_empty() {
                    by_dir.insert(dir.to_string(), Arc::new(paths));
                } else {
                    by_dir.remove(dir);
                }
            }
        }
        TsConfigs { by_dir }
    }

    /// The aliases of the nearest config above `path`, if it has any.
    pub(super) fn for_file(&self, path: &str) -> Option<Arc<TsPaths>> {
        if self.by_dir.is_empty() {
            return None;
        }
        let mut dir = path;
        loop {
            dir = parent_dir(dir);
            if let Some(p) = self.by_dir.get(dir) {
                return Some(p.clone());
            }
            if dir.is_empty() {
                return None;
            }
        }
    }
}

impl TsPaths {
    /// Repository paths (without extension) a bare specifier may name, in TypeScript's order:
    /// the matching `paths` pattern with the longest prefix, then `baseUrl`.
    pub(super) fn candidates(&self, spec: &str) -> Vec<String> {
        let mut out = Vec::new();
        for (pattern, targets) in &self.paths {
            let star = match pattern.split_once('*') {
                Some((pre, post)) => spec
                    .strip_prefix(pre)
                    .and_then(|r| r.strip_suffix(post))
                    .filter(|_| spec.len() >= pre.len() + post.len()),
                None => (pattern == spec).then_some(""),
            };
            let Some(star) = star else {
                continue;
            };
            out.extend(
                targets
                    .iter()
                    .filter_map(|t| join_norm(&self.paths_dir, &t.replacen('*', star, 1))),
            );
            break;
        }
        if let Some(base) = &self.base_url {
            out.extend(join_norm(base, spec));
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn jsonc_comments_and_trailing_commas_are_dropped() {
        let v = parse_jsonc(
            "{\n  // line\n  \"a\": \"x//y\", /* block */ \"b\": [1, 2,],\n  \"c\": \"é\\\"\",\n}\n",
        )
        .unwrap();
        assert_eq!(v["a"], "x//y");
        assert_eq!(v["b"][1], 2);
        assert_eq!(v["c"], "é\"");
    }

    #[test]
    fn paths_and_base_url_through_extends() {
        let dir = tempfile::tempdir().unwrap();
        let write = |p: &str, t: &str| {
            let full = dir.path().join(p);
            std::fs::create_dir_all(full.parent().unwrap()).unwrap();
            std::fs::write(full, t).unwrap();
        };
        write(
            "tsconfig.base.json",
            "{ \"compilerOptions\": { \"baseUrl\": \"./app\", \"paths\": { \"@/*\": [\"src/*\"], \"@/lib/*\": [\"lib/*\", \"src/lib/*\"] } } }",
        );
        write("app/tsconfig.json", "{ \"extends\": \"../tsconfig.base\" }");
        let files = vec![
            "tsconfig.base.json".to_string(),
            "app/tsconfig.json".to_string(),
        ];
        let cfg = TsConfigs::detect(dir.path(), &files);
        let p = cfg.for_file("app/src/x.ts").unwrap();
        assert_eq!(
            p.candidates("@/lib/y"),
            vec!["app/lib/y", "app/src/lib/y", "app/@/lib/y"]
        );
        assert_eq!(p.candidates("@/ui/b"), vec!["app/src/ui/b", "app/@/ui/b"]);
        assert_eq!(p.candidates("react"), vec!["app/react"]);
        assert!(cfg.for_file("other.ts").is_none());
    }
}
