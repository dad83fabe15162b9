//! The npm packages a work tree holds: a bare specifier naming the `name` of one of its
//! package.json files (a package's tests importing it by its own name, `zod/v4`; a workspace
//! package of a monorepo, `@scope/ui`) reaches the repository's files instead of an npm
//! package, through the package's `exports`, then `source`/`module`/`main`, then its folder.

use super::read_project_file;
use super::resolve::normalize_path;
use serde_json::Value;
use std::collections::BTreeMap;
use std::path::Path;

/// Output folders whose files the repository keeps as sources under `src/` (`./dist/x.js`
/// names `src/x.ts` when the build output is not tracked), and the module-format folders a
/// build may add under them (`./dist/cjs/x.js`).
const BUILD_DIRS: [&str; 5] = ["dist", "lib", "build", "out", "esm"];
const FORMAT_DIRS: [&str; 7] = ["cjs", "esm", "esm5", "es2015", "mjs", "umd", "types"];
/// Entry fields, most source-like first.
const ENTRY_FIELDS: [&str; 5] = ["source", "module", "main", "types", "typings"];

/// One package.json with a `name`.
#[derive(Debug, Hash)]
struct Package {
    /// Its folder, relative to the repository ("" at the root).
    dir: String,
    /// `exports` as (subpath pattern, targets in the order written), the exact subpaths and
    /// then the longest pattern prefix first; empty without `exports`.
    exports: Vec<(String, Vec<String>)>,
    /// The entry fields' targets ([`ENTRY_FIELDS`] order).
    entries: Vec<String>,
}

/// The named packages of a work tree.
#[derive(Debug, Default, Hash)]
pub(super) struct Packages {
    by_name: BTreeMap<String, Package>,
}

/// Every string of an `exports` target (a path, fallbacks, nested conditions), in order.
fn targets(v: &Value, out: &mut Vec<String>) {
    match v {
        Value::String(s) => out.push(s.clone()),
        Value::Array(a) => a.iter().for_each(|x| targets(x, out)),
        Value::Object(m) => m.values().for_each(|x| targets(x, out)),
        _ => {}
    }
}

fn exports_map(v: &Value) -> Vec<(String, Vec<String>)> {
    let subpaths = v
        .as_object()
        .is_some_and(|m| m.keys().any(|k| k.starts_with('.')));
    let mut out: Vec<(String, Vec<String>)> = match v.as_object() {
        Some(m) if subpaths => m
            .iter()
            .filter(|(k, _)| k.starts_with('.'))
            .map(|(k, t)| {
                let mut ts = Vec::new();
                targets(t, &mut ts);
                (k.clone(), ts)
            })
            .collect(),
        // A string, an array or conditions alone: the package's `.` entry.
        _ => {
            let mut ts = Vec::new();
            targets(v, &mut ts);
            vec![(".".to_string(), ts)]
        }
    };
    // Exact subpaths, then the pattern with the longest prefix (Node's order).
    let key = |p: &str| match p.find('*') {
        None => (0, usize::MAX - p.len()),
        Some(i) => (1, usize::MAX - i),
    };
    out.sort_by(|a, b| key(&a.0).cmp(&key(&b.0)).then(a.0.cmp(&b.0)));
    out
}

fn load(root: &Path, path: &str) -> Option<(String, Package)> {
    let v: Value = serde_json::from_str(&read_project_file(&root.join(path))?).ok()?;
    let name = v["name"].as_str()?.to_string();
    let dir = path
        .rsplit_once('/')
        .map_or(String::new(), |(d, _)| d.to_string());
    let exports = match &v["exports"] {
        Value::Null => Vec::new(),
        e => exports_map(e),
    };
    let entries = ENTRY_FIELDS
        .iter()
        .filter_map(|f| v[*f].as_str().map(str::to_string))
        .collect();
    Some((
        name,
        Package {
            dir,
            exports,
            entries,
        },
    ))
}

impl Packages {
    /// Reads the package.json files among `files` (none under `node_modules/`).
    pub(super) fn detect(root: &Path, files: &[String]) -> Packages {
        let mut by_name = BTreeMap::new();
        for f in files {
            let name = f.rsplit('/').next().unwrap_or(f);
            if name != "package.json" || f.split('/').any(|p| p == "node_modules") {
                continue;
            }
            // Two folders of one name (a fixture copy): the shallowest, then the first, wins.
            if let Some((name, pkg)) = load(root, f) {
                let depth =
                    |p: &Package| p.dir.matches('/').count() + usize::from(!p.dir.is_empty());
                match by_name.get(&name) {
                    Some(old) if depth(old) <= depth(&pkg) => {}
                    _ => {
                        by_name.insert(name, pkg);
                    }
                }
            }
        }
        Packages { by_name }
    }

    pub(super) fn is_empty(&self) -> bool {
        self.by_name.is_empty()
    }

    /// Repository paths a bare specifier may name when it names one of the packages, most
    /// likely first (each looked up with extensions and `index` like a relative import).
    pub(super) fn candidates(&self, spec: &str) -> Vec<String> {
        let Some((pkg, sub)) = self.by_name.iter().find_map(|(name, pkg)| {
            if spec == name {
                Some((pkg, ".".to_string()))
            } else {
                spec.strip_prefix(name.as_str())
                    .and_then(|r| r.strip_prefix('/'))
                    .map(|r| (pkg, format!("./{r}")))
            }
        }) else {
            return Vec::new();
        };
        let mut rel: Vec<String> = Vec::new();
        if pkg.exports.is_empty() {
            if sub == "." {
                rel.extend(pkg.entries.iter().cloned());
                rel.push("index".to_string());
            } else {
                rel.push(sub.clone());
            }
        } else if let Some((pattern, ts)) =
            pkg.exports.iter().find(|(p, _)| star_of(p, &sub).is_some())
        {
            let star = star_of(pattern, &sub).unwrap_or_default();
            rel.extend(ts.iter().map(|t| t.replacen('*', star, 1)));
        }
        // Declaration files last: the sources they describe are what calls reach.
        rel.sort_by_key(|t| is_declaration(t));
        let mut sources: Vec<String> = Vec::new();
        for t in &rel {
            let mut parts = t.trim_start_matches("./").splitn(2, '/');
            let (Some(first), Some(rest)) = (parts.next(), parts.next()) else {
                continue;
            };
            if !BUILD_DIRS.contains(&first) {
                continue;
            }
            sources.push(format!("src/{rest}"));
            if let Some((format, inner)) = rest.split_once('/')
                && FORMAT_DIRS.contains(&format)
            {
                sources.push(format!("src/{inner}"));
            }
        }
        rel.extend(sources);
        if pkg.exports.is_empty() && sub != "." {
            rel.push(format!("src/{}", sub.trim_start_matches("./")));
        }
        let mut out: Vec<String> = Vec::new();
        for t in rel {
            let joined = pkg.dir.split('/').chain(t.split('/')).collect::<Vec<_>>();
            if let Some(p) = normalize_path(&joined)
                && !out.contains(&p)
            {
                out.push(p);
            }
        }
        out
    }
}

/// What `*` of an `exports` pattern stands for in `sub` (`""` for an exact match).
fn star_of<'s>(pattern: &str, sub: &'s str) -> Option<&'s str> {
    match pattern.split_once('*') {
        Some((pre, post)) => sub
            .strip_prefix(pre)
            .and_then(|r| r.strip_suffix(post))
            .filter(|_| sub.len() >= pre.len() + post.len()),
        None => (pattern == sub).then_some(""),
    }
}

fn is_declaration(path: &str) -> bool {
    [".d.ts", ".d.mts", ".d.cts"]
        .iter()
        .any(|e| path.ends_with(e))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn packages(files: &[(&str, &str)]) -> Packages {
        super::super::detect_in(files, Packages::detect)
    }

    #[test]
    fn exports_conditions_patterns_and_build_folders() {
        let p = packages(&[
            (
                "package.json",
                r#"{"name": "zod", "exports": {
                    "./v3": {"@zod/source": "./src/v3/index.ts", "types": "./v3/index.d.cts", "import": "./v3/index.js"},
                    "./v4/locales/*": {"@zod/source": "./src/v4/locales/*", "import": "./v4/locales/*"},
                    ".": {"types": "./index.d.ts", "import": "./dist/index.js"}}}"#,
            ),
            (
                "packages/ui/package.json",
                r#"{"name": "@acme/ui", "main": "lib/index.js"}"#,
            ),
            (
                "rx/package.json",
                r#"{"name": "rx", "exports": {".": {"types": "./dist/types/index.d.ts", "node": "./dist/cjs/index.js"}}}"#,
            ),
            (
                "node_modules/left-pad/package.json",
                r#"{"name": "left-pad"}"#,
            ),
        ]);
        assert_eq!(
            p.candidates("zod/v3"),
            vec!["src/v3/index.ts", "v3/index.js", "v3/index.d.cts"]
        );
        assert_eq!(
            p.candidates("zod/v4/locales/en.js"),
            vec!["src/v4/locales/en.js", "v4/locales/en.js"]
        );
        assert_eq!(
            p.candidates("zod"),
            vec!["dist/index.js", "index.d.ts", "src/index.js"]
        );
        assert_eq!(
            p.candidates("rx"),
            vec![
                "rx/dist/cjs/index.js",
                "rx/dist/types/index.d.ts",
                "rx/src/cjs/index.js",
                "rx/src/index.js",
                "rx/src/types/index.d.ts",
                "rx/src/index.d.ts"
            ]
        );
        // Not exported: not reachable by that name.
        assert!(p.candidates("zod/v5").is_empty());
        assert_eq!(
            p.candidates("@acme/ui"),
            vec![
                "packages/ui/lib/index.js",
                "packages/ui/index",
                "packages/ui/src/index.js"
            ]
        );
        assert_eq!(
            p.candidates("@acme/ui/button"),
            vec!["packages/ui/button", "packages/ui/src/button"]
        );
        assert!(p.candidates("@acme/uix").is_empty());
        assert!(p.candidates("left-pad").is_empty());
        assert!(p.candidates("react").is_empty());
    }
}
