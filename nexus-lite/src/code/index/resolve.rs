//! Import resolution: which file, symbol, module or package an import statement binds, per
//! language.

use super::Source;
use crate::code::lang::{Import, Lang};
use rustc_hash::{FxHashMap, FxHashSet};
use std::collections::HashSet;

/// What an imported name is bound to.
pub(super) enum Bind {
    /// A Python module name.
    Module(String),
    /// A symbol (local qualified name) of a file.
    Symbol(usize, String),
    /// A whole file (JS namespace import, `require`, Rust module).
    File(usize),
    /// An external package (npm package, crate, Python top-level module).
    External(String),
    /// Resolved to nothing we index, and not worth an anomaly (a Rust `use Enum::*`, a tracked
    /// non-source file such as `./data.json`).
    Nothing(Option<String>),
}

/// File extensions tried for an extension-less JS/TS import, in order.
const JS_EXTS: [&str; 10] = [
    "ts", "tsx", "d.ts", "js", "jsx", "mjs", "cjs", "mts", "cts", "json",
];

/// The lookup tables of one run's sources: by module name and by path.
pub(super) struct Indexed<'a> {
    files: &'a [Source],
    /// Python module name -> the files of that name (several projects of one repository may
    /// each have a `core`), in listing order.
    modules: FxHashMap<String, Vec<usize>>,
    /// Other names of Python files (path names, names inside their project, names without a
    /// `src.`/`lib.`/`python.` folder), looked up when no module has the name.
    aliases: FxHashMap<String, Vec<usize>>,
    pub(super) path_map: FxHashMap<&'a str, usize>,
    internal_tops: FxHashSet<String>,
    /// Every tracked path, parsed or not (JS imports of `./data.json` are internal).
    tracked: &'a HashSet<String>,
}

/// `a/b/../c/./d` -> `a/c/d`; `None` when it climbs above the root.
pub(super) fn normalize_path(parts: &[&str]) -> Option<String> {
    let mut out: Vec<&str> = Vec::new();
    for p in parts {
        match *p {
            "" | "." => {}
            ".." => {
                out.pop()?;
            }
            p => out.push(p),
        }
    }
    Some(out.join("/"))
}

pub(super) fn parent_dir(path: &str) -> &str {
    path.rsplit_once('/').map(|(d, _)| d).unwrap_or("")
}

fn join_dir(dir: &str, name: &str) -> String {
    if dir.is_empty() {
        name.to_string()
    } else {
        format!("{dir}/{name}")
    }
}

/// The npm package of a bare specifier: `@scope/pkg/sub` -> `@scope/pkg`, `lodash/fp` -> `lodash`,
/// `node:fs` -> `fs`.
fn npm_package(spec: &str) -> String {
    let spec = spec.strip_prefix("node:").unwrap_or(spec);
    let mut parts = spec.split('/');
    let first = parts.next().unwrap_or(spec);
    match (first.starts_with('@'), parts.next()) {
        (true, Some(second)) => format!("{first}/{second}"),
        _ => first.to_string(),
    }
}

/// The names a package's `__init__.py` binds itself: its top-level definitions, and another
/// object it imports under a name (`from .block import block` in `rules_core/__init__.py`).
/// `from pkg import name` gets that object, not the submodule `pkg/name.py`: Python reads the
/// package's attribute, which the `from` import rebinds after loading the submodule. Empty for
/// a file that is not a package.
pub(super) fn package_bindings(source: &Source) -> impl Iterator<Item = &str> {
    let parse = source
        .path
        .ends_with("__init__.py")
        .then_some(&*source.parse);
    let defined = parse
        .into_iter()
        .flat_map(|p| &p.symbols)
        .filter(|s| s.parent.is_none())
        .map(|s| s.name.as_str());
    let imported = parse
        .into_iter()
        .flat_map(|p| &p.imports)
        .filter(|i| {
            // `from . import name` and `from pkg import name` bind the submodule itself.
            let submodule = (i.level == 1 && i.module.is_empty())
                || (i.level == 0 && i.module == source.module);
            let named = i.name.as_deref().is_some_and(|n| n != "*");
            named && !i.deferred && !submodule
        })
        .map(|i| i.alias.as_str());
    defined.chain(imported)
}

impl<'a> Indexed<'a> {
    /// Python modules are also found by their aliases and without a `src.`, `lib.` or
    /// `python.` folder.
    pub(super) fn new(sources: &'a [Source], tracked: &'a HashSet<String>) -> Indexed<'a> {
        let mut modules: FxHashMap<String, Vec<usize>> = FxHashMap::default();
        let mut aliases: FxHashMap<String, Vec<usize>> = FxHashMap::default();
        let mut path_map = FxHashMap::default();
        for (i, s) in sources.iter().enumerate() {
            path_map.insert(s.path.as_str(), i);
            if s.lang != Lang::Python {
                continue;
            }
            modules.entry(s.module.clone()).or_default().push(i);
            for a in &s.aliases {
                aliases.entry(a.clone()).or_default().push(i);
            }
            for root in ["src.", "lib.", "python."] {
                if let Some(rest) = s.module.strip_prefix(root) {
                    aliases.entry(rest.to_string()).or_default().push(i);
                }
            }
        }
        let internal_tops: FxHashSet<String> = modules
            .keys()
            .filter_map(|m| m.split('.').next())
            .filter(|t| !matches!(*t, "src" | "lib" | "python"))
            .map(str::to_string)
            .collect();
        Indexed {
            files: sources,
            modules,
            aliases,
            path_map,
            internal_tops,
            tracked,
        }
    }

    /// The Python module `name` as file `from` imports it: a module of `from`'s own project
    /// first, then of the other projects, then a file of that alias (same order).
    pub(super) fn module(&self, from: usize, name: &str) -> Option<usize> {
        let project = self.files.get(from).map(|s| s.project);
        let pick = |found: &Vec<usize>| {
            found
                .iter()
                .find(|f| Some(self.files[**f].project) == project)
                .or_else(|| found.first())
                .copied()
        };
        self.modules
            .get(name)
            .and_then(pick)
            .or_else(|| self.aliases.get(name).and_then(pick))
    }

    fn by_path(&self, p: &str) -> Option<usize> {
        self.path_map
            .get(format!("{p}.py").as_str())
            .or_else(|| self.path_map.get(format!("{p}/__init__.py").as_str()))
            .copied()
    }

    fn dir_parts(&self, file: usize) -> Vec<&str> {
        let mut parts: Vec<&str> = self.files[file].path.split('/').collect();
        parts.pop();
        parts
    }

    pub(super) fn resolve(&self, file: usize, imp: &Import) -> Result<Bind, String> {
        match self.files[file].lang {
            Lang::Python => self.resolve_python(file, imp),
            Lang::TypeScript | Lang::Tsx | Lang::JavaScript => self.resolve_js(file, imp),
            Lang::Rust => self.resolve_rust(file, imp),
        }
    }

    /// JS/TS: relative specifiers are files of the repository (extension and `index` lookup,
    /// `./x.js` also finds `x.ts`); bare ones are tsconfig aliases, packages of the work tree,
    /// else npm packages.
    fn resolve_js(&self, file: usize, imp: &Import) -> Result<Bind, String> {
        let spec = imp.module.as_str();
        if !(spec.starts_with('.') || spec.starts_with('/')) {
            // A tsconfig path alias (`@/lib/x`) or a module under `baseUrl`, else npm.
            let src = &self.files[file];
            let aliased = src.ts_paths.iter().flat_map(|ts| ts.candidates(spec));
            let packaged = src.packages.iter().flat_map(|p| p.candidates(spec));
            for base in aliased.chain(packaged) {
                if let Some(bind) = self.js_lookup(&base, imp) {
                    return Ok(bind);
                }
            }
            return Ok(Bind::External(npm_package(spec)));
        }
        let dir = if spec.starts_with('/') {
            ""
        } else {
            parent_dir(&self.files[file].path)
        };
        let mut parts: Vec<&str> = dir.split('/').collect();
        parts.extend(spec.split('/'));
        let Some(base) = normalize_path(&parts) else {
            return Err("the path goes above the repository root".to_string());
        };
        self.js_lookup(&base, imp).ok_or_else(|| {
            format!("no file {base}, {base}.ts/.tsx/.js/... or {base}/index.* in the repository")
        })
    }

    /// The file `base` names (extension and `index` lookup, `./x.js` also finds `x.ts`), bound
    /// as `imp` asks.
    fn js_lookup(&self, base: &str, imp: &Import) -> Option<Bind> {
        let base = base.to_string();
        let mut candidates = vec![base.clone()];
        for js in [".js", ".jsx", ".mjs", ".cjs"] {
            if let Some(stem) = base.strip_suffix(js) {
                candidates.extend(["ts", "tsx", "mts", "cts"].map(|e| format!("{stem}.{e}")));
            }
        }
        candidates.extend(JS_EXTS.iter().map(|e| format!("{base}.{e}")));
        candidates.extend(
            JS_EXTS
                .iter()
                .map(|e| join_dir(&base, &format!("index.{e}"))),
        );
        for c in &candidates {
            if let Some(f) = self.path_map.get(c.as_str()) {
                return Some(match imp.name.as_deref() {
                    None | Some("*") => Bind::File(*f),
                    Some("default") => Bind::Symbol(*f, imp.alias.clone()),
                    Some(n) => Bind::Symbol(*f, n.to_string()),
                });
            }
            if self.tracked.contains(c) {
                return Some(Bind::Nothing(Some(c.clone())));
            }
        }
        None
    }

    /// The directory holding the child modules of a Rust file (`src/a.rs` -> `src/a`,
    /// `src/a/mod.rs` and `src/lib.rs` -> their directory).
    fn rust_mod_dir(path: &str) -> String {
        let dir = parent_dir(path);
        let name = path.rsplit('/').next().unwrap_or(path);
        match name {
            "mod.rs" | "lib.rs" | "main.rs" => dir.to_string(),
            _ => join_dir(dir, name.strip_suffix(".rs").unwrap_or(name)),
        }
    }

    fn rust_module_file(&self, dir: &str, name: &str) -> Option<usize> {
        self.path_map
            .get(join_dir(dir, &format!("{name}.rs")).as_str())
            .or_else(|| {
                self.path_map
                    .get(join_dir(dir, &format!("{name}/mod.rs")).as_str())
            })
            .copied()
    }

    /// Walks `segs` down the module files from (`file`, `dir`): the deepest module file and
    /// the rest of the path inside it.
    fn rust_walk(&self, file: Option<usize>, dir: String, segs: &[&str]) -> Option<Bind> {
        let (mut cur, mut cur_dir) = (file, dir);
        let mut rest = segs;
        while let Some((first, tail)) = rest.split_first() {
            match self.rust_module_file(&cur_dir, first) {
                Some(f) => {
                    cur = Some(f);
                    cur_dir = join_dir(&cur_dir, first);
                    rest = tail;
                }
                None => break,
            }
        }
        let f = cur?;
        Some(if rest.is_empty() {
            Bind::File(f)
        } else {
            Bind::Symbol(f, rest.join("."))
        })
    }

    /// True when `file` declares items in an inline `mod name { ... }` (their local qualified
    /// names start with `name.`).
    fn has_inline_mod(&self, file: usize, name: &str) -> bool {
        self.files[file].parse.symbols.iter().any(|s| {
            s.local_qname
                .strip_prefix(name)
                .is_some_and(|r| r.starts_with('.'))
        })
    }

    /// Rust: `mod x;` must have its file; `crate::`/`self::`/`super::` paths and those naming
    /// a library crate of the work tree resolve to the deepest existing module file; other
    /// paths are external crates.
    fn resolve_rust(&self, file: usize, imp: &Import) -> Result<Bind, String> {
        let path = self.files[file].path.as_str();
        let mod_dir = Self::rust_mod_dir(path);
        if imp.mod_decl {
            return self
                .rust_module_file(&mod_dir, &imp.module)
                .map(Bind::File)
                .ok_or_else(|| {
                    format!(
                        "neither {} nor {} exists",
                        join_dir(&mod_dir, &format!("{}.rs", imp.module)),
                        join_dir(&mod_dir, &format!("{}/mod.rs", imp.module))
                    )
                });
        }
        let segs: Vec<&str> = imp.module.split("::").filter(|s| !s.is_empty()).collect();
        let Some((first, rest)) = segs.split_first() else {
            return Ok(Bind::Nothing(None));
        };
        let bind = match *first {
            "crate" => {
                // The crate root: the nearest lib.rs or main.rs above the file.
                let mut dir = parent_dir(path).to_string();
                let root = loop {
                    let hit = ["lib.rs", "main.rs"]
                        .iter()
                        .find_map(|n| self.path_map.get(join_dir(&dir, n).as_str()).copied());
                    if let Some(f) = hit {
                        break Some((f, dir));
                    }
                    if dir.is_empty() {
                        break None;
                    }
                    dir = parent_dir(&dir).to_string();
                };
                match root {
                    Some((f, dir)) => self.rust_walk(Some(f), dir, rest),
                    None => None,
                }
            }
            "self" => self.rust_walk(Some(file), mod_dir, rest),
            "super" => {
                let mut dir = mod_dir;
                let mut rest = segs.as_slice();
                while rest.first() == Some(&"super") {
                    dir = parent_dir(&dir).to_string();
                    rest = &rest[1..];
                }
                let owner = ["mod.rs", "lib.rs", "main.rs"]
                    .iter()
                    .find_map(|n| self.path_map.get(join_dir(&dir, n).as_str()).copied())
                    .or_else(|| self.path_map.get(format!("{dir}.rs").as_str()).copied());
                self.rust_walk(owner, dir, rest)
            }
            "std" | "core" | "alloc" => return Ok(Bind::External((*first).to_string())),
            name => {
                if let Some(f) = self.rust_module_file(&mod_dir, name) {
                    // 2018 paths: a child module of the current one.
                    self.rust_walk(Some(f), join_dir(&mod_dir, name), rest)
                } else if name.starts_with(|c: char| c.is_ascii_lowercase())
                    && self.has_inline_mod(file, name)
                {
                    // `mod imp { pub struct A; } pub use imp::A;` (or `imp::*`).
                    Some(if rest.is_empty() {
                        Bind::File(file)
                    } else {
                        Bind::Symbol(file, format!("{name}.{}", rest.join(".")))
                    })
                } else if name.starts_with(|c: char| c.is_ascii_uppercase()) {
                    // `use Kind::*` of a local enum, `use Self::...`.
                    return Ok(Bind::Nothing(None));
                } else if let Some(lib) = self.files[file]
                    .crates
                    .as_ref()
                    .and_then(|c| c.root_of(name))
                    .and_then(|root| self.path_map.get(root))
                {
                    // A library crate of the work tree, by its name.
                    let dir = parent_dir(&self.files[*lib].path).to_string();
                    self.rust_walk(Some(*lib), dir, rest)
                } else {
                    return Ok(Bind::External(name.to_string()));
                }
            }
        };
        Ok(bind.unwrap_or(Bind::Nothing(None)))
    }

    /// Whether package file `pkg` binds `name` itself (see [`package_bindings`]).
    fn package_binds(&self, pkg: usize, name: &str) -> bool {
        package_bindings(&self.files[pkg]).any(|n| n == name)
    }

    /// Resolves `from <level dots><module> import <name>` or `import <module>`.
    fn resolve_python(&self, file: usize, imp: &Import) -> Result<Bind, String> {
        if imp.level > 0 {
            let mut dir = self.dir_parts(file);
            for _ in 1..imp.level {
                if dir.pop().is_none() {
                    return Err(format!(
                        "relative import goes above the repository root ({} dots)",
                        imp.level
                    ));
                }
            }
            let mut base: Vec<&str> = dir.clone();
            base.extend(imp.module.split('.').filter(|s| !s.is_empty()));
            let base_path = base.join("/");
            let target = if base_path.is_empty() {
                self.path_map.get("__init__.py").copied()
            } else {
                self.by_path(&base_path)
            };
            if let Some(name) = imp.name.as_deref().filter(|n| *n != "*") {
                let sub = if base_path.is_empty() {
                    name.to_string()
                } else {
                    format!("{base_path}/{name}")
                };
                if let Some(f) = self.by_path(&sub)
                    && !target.is_some_and(|pkg| self.package_binds(pkg, name))
                {
                    return Ok(Bind::Module(self.files[f].module.clone()));
                }
            }
            return match target {
                Some(f) => Ok(match imp.name.as_deref() {
                    Some(n) if n != "*" => Bind::Symbol(f, n.to_string()),
                    _ => Bind::Module(self.files[f].module.clone()),
                }),
                None => Err(format!(
                    "no module {base_path}.py or {base_path}/__init__.py in the repository"
                )),
            };
        }
        let module = imp.module.as_str();
        if let Some(name) = imp.name.as_deref() {
            if name != "*"
                && let Some(f) = self.module(file, &format!("{module}.{name}"))
                && !self
                    .module(file, module)
                    .is_some_and(|pkg| self.package_binds(pkg, name))
            {
                return Ok(Bind::Module(self.files[f].module.clone()));
            }
            if let Some(f) = self.module(file, module) {
                return Ok(if name == "*" {
                    Bind::Module(self.files[f].module.clone())
                } else {
                    Bind::Symbol(f, name.to_string())
                });
            }
        } else if self.module(file, module).is_some() {
            return Ok(Bind::Module(
                if imp.alias.contains('.') || imp.alias == module {
                    module.to_string()
                } else if imp.alias == module.split('.').next().unwrap_or(module) {
                    imp.alias.clone()
                } else {
                    module.to_string()
                },
            ));
        }
        // Script-style sibling import (`import helpers` next to helpers.py).
        let mut sib = self.dir_parts(file);
        sib.extend(module.split('.'));
        if let Some(f) = self.by_path(&sib.join("/")) {
            return Ok(match imp.name.as_deref() {
                Some(n) if n != "*" => Bind::Symbol(f, n.to_string()),
                _ => Bind::Module(self.files[f].module.clone()),
            });
        }
        let top = module.split('.').next().unwrap_or(module);
        if self.internal_tops.contains(top) {
            Err(format!(
                "`{top}` is a package of this repository but it has no module `{module}`"
            ))
        } else {
            Ok(Bind::External(top.to_string()))
        }
    }
}
