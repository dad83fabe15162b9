//! Which files a run links again. A file whose content changed is linked again; every other
//! file keeps its part of the previous run (its nodes, calls and uses), provided nothing it
//! could have resolved through changed. Other files resolve names into a file through its
//! *interface* (symbols, imports, `__all__`, what names hold and functions return, base
//! classes), never through its bodies' calls and uses, and only by a name some file writes.
//! So a change is linked alone when every changed interface item is new and its name is
//! written nowhere else (a function added to a module), or when the interface is unchanged
//! (an edited body). A new item the linker reads without any file writing its name links
//! every file: a member it asks a class for by itself (`__call__`, `__getattr__`, a
//! TypeScript `constructor`), an interface's member, or an index signature. Anything else (an
//! item changed or removed, a new name used elsewhere, a file added, removed or renamed, a
//! changed source root or tsconfig) links every file.

use super::link::{FileImports, IMPLICIT_MEMBERS};
use super::resolve::package_bindings;
use super::{Part, Source};
use crate::code::lang::{
    ARG_TYPE, ArgSlot, CALLBACK_PARAM, FileParse, GUARD_PARAM, INTERFACE, PARAM_TYPE,
    RETURN_ELEMENT, SymKind, TypeFact,
};
use rustc_hash::{FxHashMap, FxHashSet, FxHasher};
use std::collections::{BTreeMap, HashMap};
use std::hash::{Hash, Hasher};
use std::sync::Arc;

/// What the previous run of this process linked, by path.
pub(super) struct Previous {
    /// The tracked files and every source's module naming, hashed (see [`layout`]).
    layout: u64,
    files: HashMap<String, Linked>,
    /// Who writes which name, computed by the first run that needs it, then kept up to date.
    mentions: Option<Mentions>,
}

struct Linked {
    /// The parse-cache key of the content linked (`grammar:hash`).
    key: String,
    parse: Arc<FileParse>,
    part: Arc<Part>,
    imports: Arc<FileImports>,
}

/// What a run takes from the previous one, per source: its part (`None`: link the file), and
/// its resolved imports (`None`: resolve them), which only need the file and the layout to
/// be the same.
pub(super) struct Plan {
    pub(super) parts: Vec<Option<Arc<Part>>>,
    pub(super) imports: Vec<Option<Arc<FileImports>>>,
}

/// Per file, the names it writes (hashed, sorted); and per name, how many files write it.
#[derive(Default)]
struct Mentions {
    by_file: HashMap<String, Vec<u64>>,
    files_writing: FxHashMap<u64, u32>,
}

impl Mentions {
    fn add(&mut self, path: &str, names: Vec<u64>) {
        for n in &names {
            *self.files_writing.entry(*n).or_default() += 1;
        }
        self.by_file.insert(path.to_string(), names);
    }

    fn remove(&mut self, path: &str) {
        for n in self.by_file.remove(path).unwrap_or_default() {
            if let Some(c) = self.files_writing.get_mut(&n) {
                *c = c.saturating_sub(1);
            }
        }
    }
}

/// Who writes which name in `files`: computed once into `mentions` (by [`prepare`], or the
/// first plan that needs it), then kept up to date by [`remember`].
fn mentions<'m>(
    mentions: &'m mut Option<Mentions>,
    files: &HashMap<String, Linked>,
) -> &'m mut Mentions {
    mentions.get_or_insert_with(|| {
        let mut m = Mentions::default();
        for (path, l) in files {
            m.add(path, written_names(&l.parse, false));
        }
        m
    })
}

/// Computes what the next plan needs and this run did not: who writes which name (~70 ms at
/// 4.4k files). A server calls it once a run is reported, so the second regeneration after a
/// start does not pay it.
pub(super) fn prepare(prev: &mut Previous) {
    mentions(&mut prev.mentions, &prev.files);
}

/// A fingerprint of what decides every file's module name and import resolution besides the
/// sources' contents: the tracked paths, each source's language, module, project, aliases
/// and tsconfig paths, and the work tree's named packages.
pub(super) fn layout(tracked: &[String], sources: &[Source]) -> u64 {
    let mut h = FxHasher::default();
    tracked.hash(&mut h);
    for s in sources {
        (&s.path, s.lang.name(), &s.module, s.project, &s.aliases).hash(&mut h);
        (&s.ts_paths, s.packages.is_some()).hash(&mut h);
    }
    // One value shared by every source that has it: hashed once.
    sources
        .iter()
        .find_map(|s| s.packages.as_ref())
        .hash(&mut h);
    // A package binding a submodule's name decides what `from pkg import name` resolves to in
    // files that did not change, whose resolved imports are kept while the layout is the same.
    let paths: FxHashSet<&str> = sources.iter().map(|s| s.path.as_str()).collect();
    for s in sources {
        let dir = super::resolve::parent_dir(&s.path);
        let mut shadowing: Vec<&str> = package_bindings(s)
            .filter(|name| {
                let sub = if dir.is_empty() {
                    (*name).to_string()
                } else {
                    format!("{dir}/{name}")
                };
                paths.contains(format!("{sub}.py").as_str())
                    || paths.contains(format!("{sub}/__init__.py").as_str())
            })
            .collect();
        if !shadowing.is_empty() {
            shadowing.sort_unstable();
            shadowing.dedup();
            (&s.path, shadowing).hash(&mut h);
        }
    }
    h.finish()
}

/// What to take from the previous run, given the sources' parse-cache keys. Every file is
/// linked when there is no previous run, when the layout changed, or when a change may reach
/// beyond its file; unchanged files keep their imports whenever the layout is the same.
pub(super) fn plan(
    previous: Option<&mut Previous>,
    layout: u64,
    sources: &[Source],
    keys: &[&str],
) -> Plan {
    let n = sources.len();
    let Some(prev) = previous else {
        return Plan {
            parts: vec![None; n],
            imports: vec![None; n],
        };
    };
    let imports = if prev.layout == layout {
        sources
            .iter()
            .zip(keys)
            .map(|(s, key)| {
                let l = prev.files.get(&s.path)?;
                (l.key == *key).then(|| l.imports.clone())
            })
            .collect()
    } else {
        vec![None; n]
    };
    Plan {
        parts: parts_to_keep(prev, layout, sources, keys),
        imports,
    }
}

/// The part of each source to keep (`None`: link the file again).
fn parts_to_keep(
    prev: &mut Previous,
    layout: u64,
    sources: &[Source],
    keys: &[&str],
) -> Vec<Option<Arc<Part>>> {
    let all = || vec![None; sources.len()];
    if prev.layout != layout || prev.files.len() != sources.len() {
        return all();
    }
    let mut changed = Vec::new();
    for (fi, s) in sources.iter().enumerate() {
        match prev.files.get(&s.path) {
            Some(old) if old.key == keys[fi] => {}
            Some(_) => changed.push(fi),
            None => return all(),
        }
    }
    if changed.is_empty() {
        return sources
            .iter()
            .map(|s| prev.files.get(&s.path).map(|l| l.part.clone()))
            .collect();
    }
    if constructions_changed(prev, sources, &changed) {
        return all();
    }
    let mentions = mentions(&mut prev.mentions, &prev.files);
    let news: Vec<Vec<u64>> = changed
        .iter()
        .map(|fi| written_names(&sources[*fi].parse, false))
        .collect();
    for (k, fi) in changed.iter().enumerate() {
        let s = &sources[*fi];
        let Some(old) = prev.files.get(&s.path) else {
            return all();
        };
        let Some(added) = added_names(&old.parse, &s.parse) else {
            return all();
        };
        let own_interface = written_names(&old.parse, true);
        for name in added {
            // Written by a file other than the changed ones, or by another changed file now.
            let mut writers = mentions.files_writing.get(&name).copied().unwrap_or(0);
            for (j, other) in changed.iter().enumerate() {
                let path = &sources[*other].path;
                let wrote = mentions
                    .by_file
                    .get(path)
                    .is_some_and(|v| v.binary_search(&name).is_ok());
                writers = writers.saturating_sub(u32::from(wrote));
                if j != k && news[j].binary_search(&name).is_ok() {
                    writers += 1;
                }
            }
            if writers > 0 || own_interface.binary_search(&name).is_ok() {
                return all();
            }
        }
    }
    sources
        .iter()
        .enumerate()
        .map(|(fi, s)| {
            if changed.binary_search(&fi).is_ok() {
                None
            } else {
                prev.files.get(&s.path).map(|l| l.part.clone())
            }
        })
        .collect()
}

/// Whether a changed file changed a construction that types an `__init__` parameter (see
/// [`ARG_TYPE`]). What a construction passes reaches the class's file through the caller's
/// body, not through an interface, so such a change links every file. Constructions are
/// compared with their caller's name and the facts of the caller's scopes, which an argument
/// may name; the classes with such parameters are only looked for when one differs.
fn constructions_changed(prev: &Previous, sources: &[Source], changed: &[usize]) -> bool {
    let pairs: Vec<(&FileParse, &FileParse)> = changed
        .iter()
        .filter_map(|fi| {
            let new = &*sources[*fi].parse;
            let old = &*prev.files.get(&sources[*fi].path)?.parse;
            (constructions(old, None) != constructions(new, None)).then_some((old, new))
        })
        .collect();
    if pairs.is_empty() {
        return false;
    }
    let typed = typed_classes(sources);
    pairs
        .iter()
        .any(|(old, new)| constructions(old, Some(&typed)) != constructions(new, Some(&typed)))
}

/// A file's constructions as another file reads them: (caller, callee, arguments) each, and the
/// facts of the callers' scopes, (scope, name, type), which an argument may name.
type Read<'p> = (
    Vec<(Option<&'p str>, &'p str, &'p [(ArgSlot, String)])>,
    Vec<(Option<&'p str>, &'p str, &'p str)>,
);

/// `p`'s constructions of the classes named in `of` (all, without `of`).
fn constructions<'p>(p: &'p FileParse, of: Option<&FxHashSet<&str>>) -> Read<'p> {
    let qname = |s: Option<usize>| {
        s.and_then(|s| p.symbols.get(s))
            .map(|s| s.local_qname.as_str())
    };
    let mut scopes: FxHashSet<Option<usize>> = FxHashSet::default();
    let mut calls = Vec::new();
    for c in &p.constructions {
        if of.is_some_and(|of| !of.contains(c.class_name())) {
            continue;
        }
        calls.push((qname(c.caller), c.callee.as_str(), c.args.as_slice()));
        let mut scope = c.caller;
        while scopes.insert(scope) {
            let Some(s) = scope else { break };
            scope = p.symbols.get(s).and_then(|s| s.parent);
        }
    }
    let facts = p
        .types
        .iter()
        .filter(|f| scopes.contains(&f.scope))
        .map(|f| (qname(f.scope), f.name.as_str(), f.ty.as_str()))
        .collect();
    (calls, facts)
}

/// The classes whose `__init__` has a parameter typed by its constructions, by name.
fn typed_classes(sources: &[Source]) -> FxHashSet<&str> {
    let mut out = FxHashSet::default();
    for s in sources {
        let syms = &s.parse.symbols;
        for f in s.parse.types.iter().filter(|f| f.ty.starts_with(ARG_TYPE)) {
            if let Some(class) = f.scope.and_then(|m| syms.get(m)?.parent) {
                out.insert(syms[class].name.as_str());
            }
        }
    }
    out
}

/// What this run linked, to plan the next one. Name mentions already computed are kept up
/// to date for the files whose content changed.
pub(super) fn remember(
    previous: Option<Previous>,
    layout: u64,
    sources: &[Source],
    keys: &[&str],
    parts: &[Arc<Part>],
    imports: &[Arc<FileImports>],
) -> Previous {
    let (mut mentions, mut old_files) = match previous {
        Some(p) => (p.mentions, p.files),
        None => (None, HashMap::new()),
    };
    let mut files = HashMap::with_capacity(sources.len());
    for (fi, s) in sources.iter().enumerate() {
        let (Some(part), Some(imports)) = (parts.get(fi), imports.get(fi)) else {
            break;
        };
        let old = old_files.remove(&s.path);
        if let Some(m) = &mut mentions
            && old.as_ref().is_none_or(|o| o.key != keys[fi])
        {
            m.remove(&s.path);
            m.add(&s.path, written_names(&s.parse, false));
        }
        files.insert(
            s.path.clone(),
            Linked {
                key: keys[fi].to_string(),
                parse: s.parse.clone(),
                part: part.clone(),
                imports: imports.clone(),
            },
        );
    }
    if let Some(m) = &mut mentions {
        for path in old_files.keys() {
            m.remove(path);
        }
    }
    Previous {
        layout,
        files,
        mentions,
    }
}

/// The names of the interface items `new` adds to `old`, hashed; `None` when an item of
/// `old` changed or is gone, or when an import binds everything (`*`) or `__all__` is new:
/// those reach names no item names.
fn added_names(old: &FileParse, new: &FileParse) -> Option<Vec<u64>> {
    let before = interface(old);
    let after = interface(new);
    for (key, item) in &before {
        if after.get(key).map(|i| i.hash) != Some(item.hash) {
            return None;
        }
    }
    let mut names = Vec::new();
    for (key, item) in &after {
        if before.contains_key(key) {
            continue;
        }
        if key == "i:*" || key == "a" || item.unwritten {
            return None;
        }
        names.extend(item.names.iter().map(|n| name_hash(n)));
    }
    Some(names)
}

/// One interface item: a hash of what other files may read of it, and the names they read
/// it by.
struct Item {
    hash: u64,
    names: Vec<String>,
    /// Other files may resolve differently once it exists without writing its names: a
    /// member the linker asks a class for by itself ([`IMPLICIT_MEMBERS`]), an interface's
    /// member (which decides whether a class fits the shape its other members' names are
    /// guessed by), or an index signature (read by indexing).
    unwritten: bool,
}

/// The interface of a file by item key: `s:` a symbol (its kind, parent, detail, whether it
/// is a fixture, its bases, its return annotation and returned values, the facts of its
/// scope that other files may read), `s:…:self.x` an attribute of a class, `f:` a
/// module-level fact, `i:` an import's bound name, `l:` a module-level alias, `a` its
/// `__all__`, `p:` a name put in an object. Lines are left out: moving code does not change
/// the interface.
fn interface(p: &FileParse) -> BTreeMap<String, Item> {
    let mut items: BTreeMap<String, Item> = BTreeMap::new();
    // A function's local facts matter elsewhere only through what it (or a function nested
    // in it) returns: the words of its unannotated values and of its return annotation (a
    // TypeScript type parameter is a fact of its scope), then of the facts they name.
    let mut returned_words: Vec<FxHashSet<&str>> = vec![FxHashSet::default(); p.symbols.len()];
    for (si, value) in p.returned.iter().chain(&p.returns) {
        let mut cur = Some(*si);
        while let Some(c) = cur {
            if let Some(set) = returned_words.get_mut(c) {
                set.extend(words(value));
            }
            cur = p.symbols.get(c).and_then(|s| s.parent);
        }
    }
    let mut seen: HashMap<&str, u32> = HashMap::new();
    for (si, sym) in p.symbols.iter().enumerate() {
        let nth = seen.entry(sym.local_qname.as_str()).or_default();
        let key = format!("s:{}#{nth}", sym.local_qname);
        *nth += 1;
        let mut h = FxHasher::default();
        let parent = sym.parent.and_then(|q| p.symbols.get(q));
        (
            sym.kind.as_str(),
            &sym.name,
            parent.map(|q| &q.local_qname),
            sym.detail,
        )
            .hash(&mut h);
        p.fixtures.contains(&si).hash(&mut h);
        p.members.binary_search(&si).is_ok().hash(&mut h);
        for b in p.bases.iter().filter(|b| b.class == si) {
            b.base.hash(&mut h);
        }
        for (_, ty) in p.returns.iter().filter(|(s, _)| *s == si) {
            ("returns", ty).hash(&mut h);
        }
        for (_, v) in p.returned.iter().filter(|(s, _)| *s == si) {
            ("returned", v).hash(&mut h);
        }
        let names = vec![sym.name.clone()];
        let facts: Vec<&TypeFact> = p.types.iter().filter(|f| f.scope == Some(si)).collect();
        // What callers read of it (its parameters' declared types, its guards, its returned
        // container) names its facts too (a type parameter's bound: `(node: T) => ...`).
        let read = (sym.kind != SymKind::Class).then(|| {
            let mut seeds = returned_words[si].clone();
            for f in facts.iter().filter(|f| read_by_callers(&f.name)) {
                seeds.extend(words(&f.ty));
            }
            read_facts(&facts, &seeds)
        });
        // Each attribute is an item of its own: a new one is an added item, which other files
        // reach only by its name (`attr_fact`), like a new method.
        let mut attrs: BTreeMap<&str, FxHasher> = BTreeMap::new();
        for f in facts {
            if f.name.starts_with("self.") || f.name.starts_with("cls.") {
                f.ty.hash(attrs.entry(f.name.as_str()).or_default());
                continue;
            }
            if read.as_ref().is_some_and(|r| !r.contains(head(&f.name)))
                && !read_by_callers(&f.name)
            {
                // A local no other file reads.
                continue;
            }
            ("fact", &f.name, &f.ty).hash(&mut h);
        }
        for (name, ah) in attrs {
            let attr = head(name.split_once('.').map_or(name, |(_, a)| a));
            // `self.[]` (an index signature) is read by indexing, which writes no name.
            let unwritten = !attr.starts_with(|c: char| c.is_alphabetic() || c == '_' || c == '$');
            let item = Item {
                hash: ah.finish(),
                names: vec![attr.to_string()],
                unwritten,
            };
            items.insert(format!("{key}:{name}"), item);
        }
        let unwritten = IMPLICIT_MEMBERS.contains(&sym.name.as_str())
            || parent.is_some_and(|q| q.detail == Some(INTERFACE));
        items.insert(
            key,
            Item {
                hash: h.finish(),
                names,
                unwritten,
            },
        );
    }
    let mut module_facts: BTreeMap<&str, FxHasher> = BTreeMap::new();
    for f in p.types.iter().filter(|f| f.scope.is_none()) {
        f.ty.hash(module_facts.entry(f.name.as_str()).or_default());
    }
    let mut imports: BTreeMap<&str, FxHasher> = BTreeMap::new();
    for i in &p.imports {
        let h = imports.entry(i.alias.as_str()).or_default();
        (&i.module, i.level, &i.name, i.deferred, i.mod_decl).hash(h);
    }
    let mut aliases: BTreeMap<&str, FxHasher> = BTreeMap::new();
    for (name, held) in &p.aliases {
        held.hash(aliases.entry(name.as_str()).or_default());
    }
    for (prefix, by_name) in [("f", module_facts), ("i", imports), ("l", aliases)] {
        for (name, h) in by_name {
            let item = Item {
                hash: h.finish(),
                names: vec![head(name).to_string()],
                unwritten: false,
            };
            items.insert(format!("{prefix}:{name}"), item);
        }
    }
    // A name put in an object lets calls on receivers elsewhere be guessed to a function of
    // that name (see `link::name_match`).
    for name in &p.placed {
        let item = Item {
            hash: 0,
            names: vec![name.clone()],
            unwritten: false,
        };
        items.insert(format!("p:{name}"), item);
    }
    if let Some(all) = &p.dunder_all {
        let mut h = FxHasher::default();
        all.hash(&mut h);
        items.insert(
            "a".into(),
            Item {
                hash: h.finish(),
                names: all.clone(),
                unwritten: false,
            },
        );
    }
    items
}

/// Whether a function's fact named `name` is read by its callers in other files: what its
/// parameters' functions take, its parameters' declared types, what it guards and what its
/// returned container holds.
fn read_by_callers(name: &str) -> bool {
    name.starts_with(CALLBACK_PARAM)
        || name.starts_with(PARAM_TYPE)
        || name.starts_with(GUARD_PARAM)
        || name == RETURN_ELEMENT
}

/// The words `seeds` name and, in turn, the words of the facts (of one scope) they name.
fn read_facts<'a>(facts: &[&'a TypeFact], seeds: &FxHashSet<&'a str>) -> FxHashSet<&'a str> {
    let mut read = seeds.clone();
    loop {
        let before = read.len();
        for f in facts {
            if read.contains(head(&f.name)) {
                read.extend(words(&f.ty));
            }
        }
        if read.len() == before {
            return read;
        }
    }
}

/// The first name of a fact's name: `x` of `x.y`, `x[]` and `x[*]`.
fn head(name: &str) -> &str {
    name.split(['.', '[']).next().unwrap_or(name)
}

/// The identifiers of a name, type or expression text.
fn words(text: &str) -> impl Iterator<Item = &str> {
    text.split(|c: char| !(c.is_alphanumeric() || c == '_' || c == '$'))
        .filter(|w| !w.is_empty())
}

/// Every identifier a file writes where another file's name may be looked up (hashed,
/// sorted, once each): its imports, bases, facts, return annotations and returned values,
/// `__all__`, aliases, interfaces' members and, unless `interface_only`, its calls, uses and
/// fixture parameters.
fn written_names(p: &FileParse, interface_only: bool) -> Vec<u64> {
    let mut out: FxHashSet<u64> = FxHashSet::default();
    let mut add = |text: &str| {
        out.extend(words(text).map(name_hash));
    };
    for i in &p.imports {
        add(&i.module);
        add(i.name.as_deref().unwrap_or(""));
        add(&i.alias);
    }
    p.bases.iter().for_each(|b| add(&b.base));
    for f in &p.types {
        add(&f.name);
        add(&f.ty);
    }
    p.returns.iter().for_each(|(_, t)| add(t));
    p.returned.iter().for_each(|(_, v)| add(v));
    p.dunder_all.iter().flatten().for_each(|n| add(n));
    for (name, held) in &p.aliases {
        add(name);
        add(held);
    }
    // An interface's members: a class gaining one may come to fit the shape that calls of
    // its other members' names are guessed by (`link::fits_every_shape`).
    for sym in &p.symbols {
        let parent = sym.parent.and_then(|q| p.symbols.get(q));
        if parent.is_some_and(|q| q.detail == Some(INTERFACE)) {
            add(&sym.name);
        }
    }
    if !interface_only {
        p.calls.iter().chain(&p.uses).for_each(|c| add(&c.callee));
        p.params.iter().for_each(|(_, n)| add(n));
        p.fixture_marks.iter().for_each(|(_, n)| add(n));
    }
    let mut v: Vec<u64> = out.into_iter().collect();
    v.sort_unstable();
    v
}

fn name_hash(name: &str) -> u64 {
    let mut h = FxHasher::default();
    name.hash(&mut h);
    h.finish()
}
