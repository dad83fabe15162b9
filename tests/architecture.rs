//! The architecture, checked: the module import graph of codegen, runtime, the root crate and
//! nexus-lite has no circles, and no nexus-lite domain (code, docs, rules) imports another, nor
//! `core` a domain.
//!
//! A file imports another when it names something the other defines: through a private `use`,
//! or a `crate::`/`self::`/`super::` path (also inside macro calls). `pub use` re-exports are
//! followed to the defining file rather than counted, so a facade `mod.rs` does not make every
//! child a circle. A submodule naming its own ancestors is not an import either: it is part of
//! them (the crate root's items excepted for nexus-lite's domains, which must not reach up).
//! `#[cfg(test)]` items are left out: tests may reach anywhere.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use syn::visit::Visit;

/// (crate, source directory, root file) of every crate checked.
const CRATES: &[(&str, &str, &str)] = &[
    ("codegen", "codegen/src", "lib.rs"),
    ("registry", "registry/src", "lib.rs"),
    ("secrets", "secrets/src", "lib.rs"),
    ("runtime", "runtime/src", "lib.rs"),
    ("nexus-mcp", "src", "lib.rs"),
    ("nexus-mcp (bin)", "src", "main.rs"),
    ("nexus-lite", "nexus-lite/src", "lib.rs"),
    ("nexus-lite (bin)", "nexus-lite/src", "main.rs"),
];

/// nexus-lite's domains: none may import another.
const DOMAINS: &[&str] = &["code", "docs", "rules"];

/// nexus-lite's modules above the domains (they compose them): no domain or core imports them.
const ROOT: &[&str] = &["server", "local"];

type ModPath = Vec<String>;

struct ModuleFile {
    file: PathBuf,
    ast: syn::File,
}

/// One crate's modules, keyed by module path.
struct CrateModules {
    name: String,
    modules: BTreeMap<ModPath, ModuleFile>,
}

fn is_test_only(attrs: &[syn::Attribute]) -> bool {
    attrs.iter().any(|a| {
        a.path().is_ident("cfg")
            && matches!(&a.meta, syn::Meta::List(l) if {
                let t = l.tokens.to_string();
                t.contains("test") && !t.contains("not")
            })
    })
}

fn path_attr(attrs: &[syn::Attribute]) -> Option<String> {
    attrs.iter().find_map(|a| match &a.meta {
        syn::Meta::NameValue(nv) if nv.path.is_ident("path") => match &nv.value {
            syn::Expr::Lit(syn::ExprLit {
                lit: syn::Lit::Str(s),
                ..
            }) => Some(s.value()),
            _ => None,
        },
        _ => None,
    })
}

#[allow(clippy::panic)] // a test helper: a source file it cannot read fails the test
fn unreadable<T>(file: &Path, e: &dyn std::fmt::Display) -> T {
    panic!("cannot read {}: {e}", file.display())
}

fn load_crate(name: &str, dir: &Path, root: &str) -> CrateModules {
    let mut modules = BTreeMap::new();
    let mut queue = vec![(Vec::<String>::new(), dir.join(root), dir.to_path_buf())];
    while let Some((path, file, child_dir)) = queue.pop() {
        let text = std::fs::read_to_string(&file).unwrap_or_else(|e| unreadable(&file, &e));
        let ast = syn::parse_file(&text).unwrap_or_else(|e| unreadable(&file, &e));
        for item in &ast.items {
            let syn::Item::Mod(m) = item else { continue };
            if m.content.is_some() || is_test_only(&m.attrs) {
                continue;
            }
            let ident = m.ident.to_string();
            let child = match path_attr(&m.attrs) {
                Some(p) => file.parent().map(|d| d.join(p)).unwrap_or_default(),
                None => {
                    let flat = child_dir.join(format!("{ident}.rs"));
                    if flat.exists() {
                        flat
                    } else {
                        child_dir.join(&ident).join("mod.rs")
                    }
                }
            };
            let mut sub = path.clone();
            sub.push(ident.clone());
            let sub_dir = child_dir.join(&ident);
            queue.push((sub, child, sub_dir));
        }
        modules.insert(path, ModuleFile { file, ast });
    }
    CrateModules {
        name: name.to_string(),
        modules,
    }
}

/// What one file says about names: its re-exports (name -> absolute path), globs, own items,
/// and the absolute paths it uses.
#[derive(Default)]
struct FileFacts {
    reexports: BTreeMap<String, ModPath>,
    globs: Vec<ModPath>,
    defines: BTreeSet<String>,
    uses: Vec<ModPath>,
}

fn use_tree_paths(tree: &syn::UseTree, prefix: &mut Vec<String>, out: &mut Vec<(ModPath, String)>) {
    match tree {
        syn::UseTree::Path(p) => {
            prefix.push(p.ident.to_string());
            use_tree_paths(&p.tree, prefix, out);
            prefix.pop();
        }
        syn::UseTree::Name(n) => {
            let mut full = prefix.clone();
            let name = n.ident.to_string();
            if name != "self" {
                full.push(name.clone());
            }
            let alias = if name == "self" {
                prefix.last().cloned().unwrap_or_default()
            } else {
                name
            };
            out.push((full, alias));
        }
        syn::UseTree::Rename(r) => {
            let mut full = prefix.clone();
            full.push(r.ident.to_string());
            out.push((full, r.rename.to_string()));
        }
        syn::UseTree::Glob(_) => out.push((prefix.clone(), "*".to_string())),
        syn::UseTree::Group(g) => {
            for t in &g.items {
                use_tree_paths(t, prefix, out);
            }
        }
    }
}

/// Resolves a path written in module `here` to an absolute module path, or None when it
/// names something outside the crate.
fn absolute(here: &ModPath, children: &BTreeSet<String>, segs: &[String]) -> Option<ModPath> {
    let first = segs.first()?;
    match first.as_str() {
        "crate" => Some(segs[1..].to_vec()),
        "self" => Some(here.iter().chain(&segs[1..]).cloned().collect()),
        "super" => {
            let mut base = here.clone();
            let mut rest = segs;
            while rest.first().is_some_and(|s| s == "super") {
                base.pop();
                rest = &rest[1..];
            }
            Some(base.into_iter().chain(rest.iter().cloned()).collect())
        }
        name if children.contains(name) => Some(here.iter().chain(segs).cloned().collect()),
        _ => None,
    }
}

struct PathCollector<'a> {
    here: &'a ModPath,
    children: &'a BTreeSet<String>,
    out: &'a mut Vec<ModPath>,
}

impl PathCollector<'_> {
    fn push(&mut self, segs: Vec<String>) {
        if let Some(abs) = absolute(self.here, self.children, &segs) {
            self.out.push(abs);
        }
    }
}

impl<'ast> Visit<'ast> for PathCollector<'_> {
    fn visit_item(&mut self, item: &'ast syn::Item) {
        let attrs: &[syn::Attribute] = match item {
            syn::Item::Fn(i) => &i.attrs,
            syn::Item::Impl(i) => &i.attrs,
            syn::Item::Mod(i) => &i.attrs,
            syn::Item::Use(_) => return,
            syn::Item::Struct(i) => &i.attrs,
            syn::Item::Enum(i) => &i.attrs,
            syn::Item::Const(i) => &i.attrs,
            syn::Item::Static(i) => &i.attrs,
            _ => &[],
        };
        if !is_test_only(attrs) {
            syn::visit::visit_item(self, item);
        }
    }

    fn visit_path(&mut self, path: &'ast syn::Path) {
        let segs: Vec<String> = path.segments.iter().map(|s| s.ident.to_string()).collect();
        self.push(segs);
        syn::visit::visit_path(self, path);
    }

    // `pub(super)` and `pub(in crate::x)` restrict who sees an item; they import nothing.
    fn visit_visibility(&mut self, _: &'ast syn::Visibility) {}

    fn visit_macro(&mut self, mac: &'ast syn::Macro) {
        // `crate :: a :: b` sequences inside the macro's tokens.
        let text = mac.tokens.to_string();
        let words: Vec<&str> = text.split_whitespace().collect();
        for (i, w) in words.iter().enumerate() {
            if *w != "crate" && *w != "super" && *w != "self" {
                continue;
            }
            if i > 0 && words[i - 1] == "::" {
                continue;
            }
            let mut segs = vec![w.to_string()];
            let mut j = i + 1;
            while j + 1 < words.len() && words[j] == "::" {
                let next = words[j + 1];
                if !next.chars().all(|c| c.is_alphanumeric() || c == '_') {
                    break;
                }
                segs.push(next.to_string());
                j += 2;
            }
            if segs.len() > 1 {
                self.push(segs);
            }
        }
        syn::visit::visit_macro(self, mac);
    }
}

fn item_ident(item: &syn::Item) -> Option<String> {
    Some(match item {
        syn::Item::Fn(i) => i.sig.ident.to_string(),
        syn::Item::Struct(i) => i.ident.to_string(),
        syn::Item::Enum(i) => i.ident.to_string(),
        syn::Item::Const(i) => i.ident.to_string(),
        syn::Item::Static(i) => i.ident.to_string(),
        syn::Item::Type(i) => i.ident.to_string(),
        syn::Item::Trait(i) => i.ident.to_string(),
        syn::Item::Union(i) => i.ident.to_string(),
        syn::Item::Macro(i) => i.ident.as_ref()?.to_string(),
        _ => return None,
    })
}

fn facts_of(here: &ModPath, ast: &syn::File) -> FileFacts {
    let mut facts = FileFacts::default();
    let children: BTreeSet<String> = ast
        .items
        .iter()
        .filter_map(|i| match i {
            syn::Item::Mod(m) => Some(m.ident.to_string()),
            _ => None,
        })
        .collect();
    for item in &ast.items {
        if let Some(id) = item_ident(item) {
            facts.defines.insert(id);
        }
        let syn::Item::Use(u) = item else { continue };
        if is_test_only(&u.attrs) {
            continue;
        }
        let mut found = Vec::new();
        let mut prefix = Vec::new();
        if u.leading_colon.is_none() {
            use_tree_paths(&u.tree, &mut prefix, &mut found);
        }
        let public = !matches!(u.vis, syn::Visibility::Inherited);
        for (segs, alias) in found {
            let Some(abs) = absolute(here, &children, &segs) else {
                continue;
            };
            if !public {
                facts.uses.push(abs);
            } else if alias == "*" {
                facts.globs.push(abs);
            } else {
                facts.reexports.insert(alias, abs);
            }
        }
    }
    let mut collector = PathCollector {
        here,
        children: &children,
        out: &mut facts.uses,
    };
    for item in &ast.items {
        collector.visit_item(item);
    }
    facts
}

/// The import graph of one crate: file -> files it imports.
fn import_graph(krate: &CrateModules, keep_root: bool) -> BTreeMap<ModPath, BTreeSet<ModPath>> {
    let facts: BTreeMap<&ModPath, FileFacts> = krate
        .modules
        .iter()
        .map(|(p, m)| (p, facts_of(p, &m.ast)))
        .collect();
    // The file that defines what `abs` names, following re-exports.
    let resolve = |abs: &ModPath| -> Option<ModPath> {
        let mut abs = abs.clone();
        for _ in 0..16 {
            let split = (0..=abs.len())
                .rev()
                .find(|n| krate.modules.contains_key(&abs[..*n]))?;
            let (module, rest) = (abs[..split].to_vec(), &abs[split..]);
            let Some(name) = rest.first() else {
                return Some(module);
            };
            let f = &facts[&module];
            if let Some(target) = f.reexports.get(name) {
                abs = target.iter().chain(&rest[1..]).cloned().collect();
                continue;
            }
            if f.defines.contains(name) {
                return Some(module);
            }
            let glob = f.globs.iter().find(|g| {
                facts
                    .get(g)
                    .is_some_and(|gf| gf.defines.contains(name) || gf.reexports.contains_key(name))
            });
            match glob {
                Some(g) => abs = g.iter().chain(rest).cloned().collect(),
                None => return Some(module),
            }
        }
        None
    };
    let mut graph = BTreeMap::new();
    for (path, f) in &facts {
        // A submodule is part of its parent: naming an ancestor's own items is not an import
        // (the crate root's own items are, for nexus-lite's domains, which must not reach up).
        let targets: BTreeSet<ModPath> = f
            .uses
            .iter()
            .filter_map(&resolve)
            .filter(|t| !path.starts_with(t) || (t.is_empty() && keep_root))
            .collect();
        graph.insert((*path).clone(), targets);
    }
    graph
}

/// Import circles: strongly connected components of more than one file (nexus-lite's Tarjan,
/// the one the code and documentation graphs use), each sorted.
fn circles(graph: &BTreeMap<ModPath, BTreeSet<ModPath>>) -> Vec<Vec<ModPath>> {
    let files: Vec<ModPath> = graph.keys().cloned().collect();
    nexus_lite::core::graph::tarjan(&files, |f| graph.get(f).cloned().unwrap_or_default())
        .into_iter()
        .filter(|c| c.len() > 1)
        .map(|mut c| {
            c.sort();
            c
        })
        .collect()
}

fn show(krate: &CrateModules, path: &ModPath) -> String {
    let file = &krate.modules[path].file;
    file.strip_prefix(workspace())
        .unwrap_or(file)
        .display()
        .to_string()
}

/// The shortest circle through a component's first file, to say where to cut.
fn shortest_circle(
    graph: &BTreeMap<ModPath, BTreeSet<ModPath>>,
    component: &[ModPath],
) -> Vec<ModPath> {
    let members: BTreeSet<&ModPath> = component.iter().collect();
    let start = &component[0];
    let mut parent: BTreeMap<&ModPath, &ModPath> = BTreeMap::new();
    let mut queue = std::collections::VecDeque::from([start]);
    while let Some(v) = queue.pop_front() {
        for w in graph.get(v).into_iter().flatten() {
            if w == start {
                let mut path = vec![v.clone()];
                let mut at = v;
                while let Some(p) = parent.get(at) {
                    path.push((*p).clone());
                    at = p;
                }
                path.reverse();
                path.push(start.clone());
                return path;
            }
            if members.contains(w) && !parent.contains_key(w) && w != start {
                parent.insert(w, v);
                queue.push_back(w);
            }
        }
    }
    component.to_vec()
}

fn circle_report(root: &Path, crates: &[(&str, &str, &str)]) -> Vec<String> {
    let mut report = Vec::new();
    for (name, dir, file) in crates {
        let krate = load_crate(name, &root.join(dir), file);
        let graph = import_graph(&krate, false);
        for component in circles(&graph) {
            let files: Vec<String> = shortest_circle(&graph, &component)
                .iter()
                .map(|p| show(&krate, p))
                .collect();
            report.push(format!(
                "{}: {} files in one circle, e.g. {}",
                krate.name,
                component.len(),
                files.join(" -> ")
            ));
        }
    }
    report
}

fn domain_report(root: &Path, dir: &str) -> Vec<String> {
    let krate = load_crate("nexus-lite", &root.join(dir), "lib.rs");
    let layer = |p: &ModPath| p.first().cloned().unwrap_or_default();
    let mut report = Vec::new();
    for (from, targets) in import_graph(&krate, true) {
        let from_layer = layer(&from);
        let from_domain = DOMAINS.contains(&from_layer.as_str());
        if !from_domain && from_layer != "core" {
            continue;
        }
        for to in targets {
            let to_layer = layer(&to);
            let other_domain = DOMAINS.contains(&to_layer.as_str()) && to_layer != from_layer;
            // The crate root and the server compose the domains: nothing below reaches up.
            let root = to.is_empty() || ROOT.contains(&to_layer.as_str());
            if other_domain || root {
                report.push(format!(
                    "{} imports {}",
                    show(&krate, &from),
                    show(&krate, &to)
                ));
            }
        }
    }
    report
}

fn workspace() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

#[test]
fn the_workspace_has_no_import_circles() {
    let report = circle_report(&workspace(), CRATES);
    assert!(
        report.is_empty(),
        "{} import circle(s); move what both sides need into a module both import:\n{}",
        report.len(),
        report.join("\n")
    );
}

#[test]
fn no_nexus_lite_domain_imports_another() {
    let report = domain_report(&workspace(), "nexus-lite/src");
    assert!(
        report.is_empty(),
        "{} import(s) across nexus-lite domains; shared machinery belongs in core:\n{}",
        report.len(),
        report.join("\n")
    );
}

#[test]
fn the_check_sees_a_circle_and_a_cross_domain_import_but_not_a_facade() {
    let dir = tempfile::tempdir().unwrap();
    let src = dir.path().join("src");
    let write = |rel: &str, text: &str| {
        let p = src.join(rel);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, text).unwrap();
    };
    write(
        "lib.rs",
        "pub mod a;\npub mod b;\npub mod core;\npub mod code;\npub mod docs;\n",
    );
    write("a.rs", "use crate::b::Thing;\npub fn f(_: Thing) {}\n");
    write("b.rs", "pub struct Thing;\nfn g() { crate::a::f(Thing) }\n");
    write(
        "core/mod.rs",
        "pub(crate) mod x;\npub(in crate::core) fn y() {}\n",
    );
    write(
        "core/x.rs",
        "pub(super) fn z() {}\n#[cfg(test)]\nmod tests { use crate::code; use super::super::y; }\n",
    );
    // A facade re-exports its children, and a child names a sibling through it: no circle.
    write(
        "docs/mod.rs",
        "pub mod index;\npub mod tree;\npub use index::Index;\n",
    );
    write(
        "docs/index.rs",
        "pub struct Index;\nfn i() { super::helper() }\n",
    );
    write(
        "docs/tree.rs",
        "use crate::docs::Index;\nfn t(_: Index) {}\n",
    );
    // A domain reaching into another, inside a macro call.
    write(
        "code/mod.rs",
        "fn c() { println!(\"{:?}\", crate::docs::index::Index); }\n",
    );
    write(
        "core/mod.rs",
        "#[cfg(test)]\nmod tests { use crate::code; }\n",
    );

    let circles = circle_report(dir.path(), &[("demo", "src", "lib.rs")]);
    assert_eq!(circles.len(), 1, "{circles:?}");
    assert!(
        circles[0].contains("a.rs") && circles[0].contains("b.rs"),
        "{circles:?}"
    );

    let domains = domain_report(dir.path(), "src");
    assert_eq!(domains.len(), 1, "{domains:?}");
    assert!(domains[0].contains("code/mod.rs imports") && domains[0].contains("docs/index.rs"));
    assert!(
        circles[0].contains("a.rs -> ") && circles[0].contains("b.rs"),
        "{circles:?}"
    );
}
