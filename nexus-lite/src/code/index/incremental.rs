//! Which files a run links again. A file whose content changed is linked again; every other
//! file keeps its part of the previous run (its nodes, calls and uses), provided nothing it
//! could have resolved through changed. Other files resolve names into a file through its
//! *interface* (symbols, imports, `__all__`, what names hold and functions return, base
//! classes), never through its bodies' calls and uses, and only by a name some file writes.
//! So the changed files are linked with the files writing the name of an interface item they
//! added, changed or removed, closed over the interface items whose meaning depends on it (a
//! function returning `x.save()` once `save` is new: the files calling that function too).
//! An edited body touches no item and links its file alone. Every file is linked when a
//! touched item is read without its name being written: a member the linker asks a class
//! for by itself (`__call__`, `__getattr__`, a TypeScript `constructor`), an interface's
//! member, an index signature, a star import or `__all__`, or a protocol name (`__enter__`)
//! some file writes; when a relinked file passes a reached name to a constructor whose
//! parameters its constructions type, or a construction changed; when the closure passes
//! [`MAX_REACHED`] names; and when a file is added, removed or renamed, or a source root or
//! tsconfig changed.

use super::link::{FileImports, IMPLICIT_MEMBERS};
use super::resolve::package_bindings;
use super::{Part, Source};
use crate::code::lang::{
    ARG_TYPE, ArgSlot, CALLBACK_PARAM, FileParse, GUARD_PARAM, PARAM_TYPE, RETURN_ELEMENT, SymKind,
    TypeFact,
};
use rustc_hash::{FxHashMap, FxHashSet, FxHasher};
use std::borrow::Cow;
use std::collections::{BTreeMap, HashMap};
use std::hash::{Hash, Hasher};
use std::sync::Arc;

/// What the previous run of this process linked, by path.
pub(super) struct Previous {
    /// The tracked files and every source's module naming, hashed (see [`layout`]).
    layout: u64,
    files: HashMap<String, Linked>,
    /// What each file writes, computed by the first run that needs it, then kept up to date.
    mentions: Option<HashMap<String, Mentions>>,
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

/// What one file writes of the others' names (hashed, each list sorted).
struct Mentions {
    /// Every name it writes where another file's name may be looked up ([`written_names`]).
    writes: Vec<u64>,
    /// The names of the members of its interfaces: a class gaining one may come to fit the
    /// shape that untyped calls of the interface's other names are guessed by
    /// (`link::fits_every_shape`).
    shapes: Vec<u64>,
}

impl Mentions {
    fn of(p: &FileParse) -> Mentions {
        let mut shapes: Vec<u64> = p
            .symbols
            .iter()
            .filter(|sym| p.interface_of(sym).is_some())
            .map(|sym| name_hash(&sym.name))
            .collect();
        shapes.sort_unstable();
        shapes.dedup();
        Mentions {
            writes: written_names(p),
            shapes,
        }
    }

    fn writes_any(&self, names: &FxHashSet<u64>) -> bool {
        self.writes.iter().any(|n| names.contains(n))
    }

    fn writes_one_of(&self, names: &[u64]) -> bool {
        names.iter().any(|n| self.writes.binary_search(n).is_ok())
    }
}

/// (word, name), sorted by word: an interface item of `p` that other files reach by `name`
/// and whose meaning depends on what `word` resolves to (a function returning `x.save()` is
/// (`save`, its own name)). Every word an item reads is one its file writes.
fn item_reads(p: &FileParse) -> Vec<(u64, u64)> {
    let mut reads = Vec::new();
    for item in interface(p).into_values() {
        for name in &item.names {
            let n = name_hash(name);
            reads.extend(item.reads.iter().map(|w| (*w, n)));
        }
    }
    reads.sort_unstable();
    reads.dedup();
    reads
}

/// What every file writes, by path: computed once into `mentions` (by
/// [`prepare`], or the first plan that needs it), then kept up to date by [`remember`].
fn mentions<'m>(
    mentions: &'m mut Option<HashMap<String, Mentions>>,
    files: &HashMap<String, Linked>,
) -> &'m HashMap<String, Mentions> {
    mentions.get_or_insert_with(|| {
        files
            .iter()
            .map(|(path, l)| (path.clone(), Mentions::of(&l.parse)))
            .collect()
    })
}

/// Computes what the next plan needs and this run did not: what every file writes (~0.12 s
/// at 4.4k files). A server calls it once a run is reported, so the second regeneration
/// after a start does not pay it.
pub(super) fn prepare(prev: &mut Previous) {
    mentions(&mut prev.mentions, &prev.files);
}

/// A fingerprint of what decides every file's module name and import resolution besides the
/// sources' contents: the tracked paths, each source's language, module, project, aliases
/// and tsconfig paths, and the work tree's named packages and library crates.
pub(super) fn layout(tracked: &[String], sources: &[Source]) -> u64 {
    let mut h = FxHasher::default();
    tracked.hash(&mut h);
    for s in sources {
        (&s.path, s.lang.name(), &s.module, s.project, &s.aliases).hash(&mut h);
        (&s.ts_paths, s.packages.is_some(), s.crates.is_some()).hash(&mut h);
    }
    // One value shared by every source that has it: hashed once.
    sources
        .iter()
        .find_map(|s| s.packages.as_ref())
        .hash(&mut h);
    sources.iter().find_map(|s| s.crates.as_ref()).hash(&mut h);
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
    let all = |why: &str| {
        tracing::debug!(why, "every file is linked");
        vec![None; sources.len()]
    };
    if prev.layout != layout || prev.files.len() != sources.len() {
        return all("the files or their layout changed");
    }
    let mut changed = Vec::new();
    for (fi, s) in sources.iter().enumerate() {
        match prev.files.get(&s.path) {
            Some(old) if old.key == keys[fi] => {}
            Some(_) => changed.push(fi),
            None => return all("a file is new"),
        }
    }
    if changed.is_empty() {
        return sources
            .iter()
            .map(|s| prev.files.get(&s.path).map(|l| l.part.clone()))
            .collect();
    }
    if constructions_changed(prev, sources, &changed) {
        return all("a construction changed");
    }
    // The names of the interface items added, changed or removed.
    let mut touched = FxHashSet::default();
    // The linker may look a protocol name (`__enter__`, `__init__`) up where no file writes
    // it, so one some file writes links every file rather than its writers.
    let mut dunders = Vec::new();
    for fi in &changed {
        let s = &sources[*fi];
        let Some(old) = prev.files.get(&s.path) else {
            return all("a file is new");
        };
        let Some(names) = touched_names(&old.parse, &s.parse) else {
            return all("an interface item is read without its name");
        };
        for name in names {
            let hash = name_hash(&name);
            if name.starts_with("__") && name.ends_with("__") {
                dunders.push(hash);
            }
            touched.insert(hash);
        }
    }
    let now: FxHashMap<usize, Mentions> = changed
        .iter()
        .map(|fi| (*fi, Mentions::of(&sources[*fi].parse)))
        .collect();
    let before = mentions(&mut prev.mentions, &prev.files);
    let of = |fi: usize| now.get(&fi).or_else(|| before.get(&sources[fi].path));
    let files = || (0..sources.len()).filter_map(|fi| Some((fi, of(fi)?)));
    // A name an interface declares: a class gaining or losing it may come to fit, or stop
    // fitting, the shape that untyped calls of the interface's other names are guessed by.
    if files().any(|(_, m)| m.shapes.iter().any(|n| touched.contains(n))) {
        return all("an interface declares a touched member's name");
    }
    if files().any(|(_, m)| m.writes_one_of(&dunders)) {
        return all("a touched protocol member's name is written");
    }
    // The names whose meaning the change may alter, closed over the interface items that
    // depend on them; every file writing one is linked again.
    let Some(reached) = reach(touched, sources, of) else {
        return all("the change reaches too many items");
    };
    let relink: Vec<usize> = (0..sources.len())
        .filter(|fi| now.contains_key(fi) || of(*fi).is_none_or(|m| m.writes_any(&reached)))
        .collect();
    tracing::debug!(
        files = relink.len(),
        names = reached.len(),
        "the files writing a touched name are linked again"
    );
    if passes_to_constructor(sources, &relink, &reached) {
        return all("a constructor's parameter may change type");
    }
    sources
        .iter()
        .enumerate()
        .map(|(fi, s)| {
            if relink.binary_search(&fi).is_ok() {
                None
            } else {
                prev.files.get(&s.path).map(|l| l.part.clone())
            }
        })
        .collect()
}

/// How many names a change may reach before every file is linked instead: each round of
/// [`reach`] looks its new names up in every file, and a change reaching that many names
/// (`resolve_expression` in Django) reaches most files anyway.
const MAX_REACHED: usize = 256;

/// `names` and, in turn, the names of the interface items whose meaning depends on one of
/// them; `None` beyond [`MAX_REACHED`] names. An item's reads are only looked at in files
/// writing one of the names (`of`, none: every file).
fn reach<'m>(
    names: FxHashSet<u64>,
    sources: &[Source],
    of: impl Fn(usize) -> Option<&'m Mentions>,
) -> Option<FxHashSet<u64>> {
    let mut frontier: Vec<u64> = names.iter().copied().collect();
    let mut reached = names;
    let mut reads: FxHashMap<usize, Vec<(u64, u64)>> = FxHashMap::default();
    while !frontier.is_empty() {
        if reached.len() > MAX_REACHED {
            return None;
        }
        let mut next = Vec::new();
        for (fi, s) in sources.iter().enumerate() {
            if of(fi).is_some_and(|m| !m.writes_one_of(&frontier)) {
                continue;
            }
            let reads = reads.entry(fi).or_insert_with(|| item_reads(&s.parse));
            for word in &frontier {
                let from = reads.partition_point(|(w, _)| w < word);
                let items = reads[from..].iter().take_while(|(w, _)| w == word);
                next.extend(items.map(|(_, n)| *n).filter(|n| reached.insert(*n)));
            }
        }
        frontier = next;
    }
    Some(reached)
}

/// Whether a file in `relink` constructs a class whose `__init__` parameters its
/// constructions type ([`ARG_TYPE`]) with an argument that may depend on `reached`: the
/// argument's type then reaches the class's file through the caller's body, not through an
/// interface, so every file is linked.
fn passes_to_constructor(sources: &[Source], relink: &[usize], reached: &FxHashSet<u64>) -> bool {
    let depends = |p: &FileParse, of: Option<&FxHashSet<&str>>| {
        let keys = symbol_keys(p);
        let (calls, facts) = constructions(p, &keys, of);
        let args = calls.iter().flat_map(|(_, _, args)| args.iter());
        args.map(|(_, a)| a)
            .chain(facts.iter().map(|(_, _, ty)| ty))
            .flat_map(|text| words(text))
            .any(|w| reached.contains(&name_hash(w)))
    };
    let suspects: Vec<&FileParse> = relink
        .iter()
        .map(|fi| &*sources[*fi].parse)
        .filter(|p| depends(p, None))
        .collect();
    if suspects.is_empty() {
        return false;
    }
    let typed = typed_classes(sources);
    suspects.iter().any(|p| depends(p, Some(&typed)))
}

/// Whether a changed file changed a construction that types an `__init__` parameter (see
/// [`ARG_TYPE`]). What a construction passes reaches the class's file through the caller's
/// body, not through an interface, so such a change links every file. Constructions are
/// compared with their caller's name and the facts of the caller's scopes, which an argument
/// may name; the classes with such parameters are only looked for when one differs.
fn constructions_changed(prev: &Previous, sources: &[Source], changed: &[usize]) -> bool {
    let differ = |old: &FileParse, new: &FileParse, of: Option<&FxHashSet<&str>>| {
        let (old_keys, new_keys) = (symbol_keys(old), symbol_keys(new));
        constructions(old, &old_keys, of) != constructions(new, &new_keys, of)
    };
    let pairs: Vec<(&FileParse, &FileParse)> = changed
        .iter()
        .filter_map(|fi| {
            let new = &*sources[*fi].parse;
            let old = &*prev.files.get(&sources[*fi].path)?.parse;
            differ(old, new, None).then_some((old, new))
        })
        .collect();
    if pairs.is_empty() {
        return false;
    }
    let typed = typed_classes(sources);
    pairs
        .iter()
        .any(|(old, new)| differ(old, new, Some(&typed)))
}

/// A file's constructions as another file reads them: (caller, callee, arguments) each, and the
/// facts of the callers' scopes, (scope, name, type), which an argument may name.
type Read<'p> = (
    Vec<(Option<&'p str>, &'p str, Vec<(&'p ArgSlot, Cow<'p, str>)>)>,
    Vec<(Option<&'p str>, &'p str, Cow<'p, str>)>,
);

/// `p`'s constructions of the classes named in `of` (all, without `of`).
fn constructions<'p>(
    p: &'p FileParse,
    keys: &'p [String],
    of: Option<&FxHashSet<&str>>,
) -> Read<'p> {
    let qname = |s: Option<usize>| s.and_then(|s| keys.get(s)).map(String::as_str);
    let mut scopes: FxHashSet<Option<usize>> = FxHashSet::default();
    let mut calls = Vec::new();
    for c in &p.constructions {
        if of.is_some_and(|of| !of.contains(c.class_name())) {
            continue;
        }
        let args = c.args.iter().map(|(slot, a)| (slot, stable(a, keys)));
        calls.push((qname(c.caller), c.callee.as_str(), args.collect()));
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
        .map(|f| (qname(f.scope), f.name.as_str(), stable(&f.ty, keys)))
        .collect();
    (calls, facts)
}

/// Each symbol's key in the interface: `s:QNAME#N`, its qualified name and which definition of
/// that name it is, so that adding a symbol does not rename the others.
fn symbol_keys(p: &FileParse) -> Vec<String> {
    let mut seen: HashMap<&str, u32> = HashMap::new();
    p.symbols
        .iter()
        .map(|sym| {
            let nth = seen.entry(sym.local_qname.as_str()).or_default();
            *nth += 1;
            format!("s:{}#{}", sym.local_qname, *nth - 1)
        })
        .collect()
}

/// `text` as another run compares it: an [`ARG_TYPE`] fact names its `__init__` by symbol
/// index (`arg:INIT:N:NAME`, alone or among alternatives: `sql.Query()|arg:26:1:query`), which a
/// symbol added before it shifts, so each such index is replaced by that symbol's key.
fn stable<'t>(text: &'t str, keys: &[String]) -> Cow<'t, str> {
    if !text.contains(ARG_TYPE) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 16);
    let mut rest = text;
    while let Some(at) = rest.find(ARG_TYPE) {
        let (before, after) = rest.split_at(at + ARG_TYPE.len());
        out.push_str(before);
        rest = after;
        // `cbarg:` is another prefix.
        if before[..at].ends_with(|c: char| c.is_alphanumeric() || c == '_') {
            continue;
        }
        let digits = after
            .find(|c: char| !c.is_ascii_digit())
            .unwrap_or(after.len());
        let key = after[..digits]
            .parse::<usize>()
            .ok()
            .and_then(|i| keys.get(i));
        if let Some(key) = key.filter(|_| after[digits..].starts_with(':')) {
            out.push_str(key);
            rest = &after[digits..];
        }
    }
    out.push_str(rest);
    Cow::Owned(out)
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
            m.insert(s.path.clone(), Mentions::of(&s.parse));
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

/// The names of the interface items `new` adds to `old`, changes or removes from it; `None`
/// when such an item is read without its name being written (see [`Item::unwritten`]), or
/// is an import binding everything (`*`) or `__all__`: those reach names no item names.
fn touched_names(old: &FileParse, new: &FileParse) -> Option<Vec<String>> {
    let (before, after) = (interface(old), interface(new));
    let differs = |key: &String, item: &Item, other: &BTreeMap<String, Item>| {
        other.get(key).map(|i| i.hash) != Some(item.hash)
    };
    let touched = before
        .iter()
        .filter(|(key, item)| differs(key, item, &after))
        .chain(
            after
                .iter()
                .filter(|(key, item)| differs(key, item, &before)),
        );
    let mut names = Vec::new();
    for (key, item) in touched {
        if key == "i:*" || key == "a" || item.unwritten {
            return None;
        }
        names.extend(item.names.iter().cloned());
    }
    Some(names)
}

/// One interface item: a hash of what other files may read of it, and the names they read
/// it by.
struct Item {
    hash: u64,
    names: Vec<String>,
    /// Other files may resolve differently once it is added, changed or removed, without
    /// writing its names: a member the linker asks a class for by itself
    /// ([`IMPLICIT_MEMBERS`]), an interface's member (which decides whether a class fits the
    /// shape its other members' names are guessed by), or an index signature (read by
    /// indexing).
    unwritten: bool,
    /// The words (hashed) whose resolution its meaning depends on: of its bases, return
    /// annotation, returned values and the facts hashed into it.
    reads: Vec<u64>,
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
    let keys = symbol_keys(p);
    // Each symbol's bases, return annotations, returned values and facts, in file order.
    let n = p.symbols.len();
    // A Rust method's trait (`impl Trait for Type`) is read as a base is.
    let implemented = p.implemented.iter().map(|(m, t)| (*m, t.as_str()));
    let bases = by_symbol(
        n,
        p.bases
            .iter()
            .map(|b| (b.class, b.base.as_str()))
            .chain(implemented),
    );
    let returns = by_symbol(n, p.returns.iter().map(|(s, t)| (*s, t.as_str())));
    let returned = by_symbol(n, p.returned.iter().map(|(s, v)| (*s, v.as_str())));
    let mut facts_of = by_symbol(n, p.types.iter().filter_map(|f| Some((f.scope?, f))));
    for (si, sym) in p.symbols.iter().enumerate() {
        let key = keys[si].clone();
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
        let mut reads = Vec::new();
        for base in &bases[si] {
            base.hash(&mut h);
            reads.extend(hashed_words(base));
        }
        for ty in &returns[si] {
            ("returns", ty).hash(&mut h);
            reads.extend(hashed_words(ty));
        }
        for v in &returned[si] {
            ("returned", v).hash(&mut h);
            reads.extend(hashed_words(v));
        }
        let names = vec![sym.name.clone()];
        let facts = std::mem::take(&mut facts_of[si]);
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
        let mut attrs: BTreeMap<&str, Entry> = BTreeMap::new();
        for f in facts {
            if f.name.starts_with("self.") || f.name.starts_with("cls.") {
                attrs.entry(f.name.as_str()).or_default().add(&f.ty, &keys);
                continue;
            }
            if read.as_ref().is_some_and(|r| !r.contains(head(&f.name)))
                && !read_by_callers(&f.name)
            {
                // A local no other file reads.
                continue;
            }
            ("fact", &f.name, stable(&f.ty, &keys)).hash(&mut h);
            reads.extend(hashed_words(&f.name).chain(hashed_words(&f.ty)));
        }
        for (name, entry) in attrs {
            let attr = head(name.split_once('.').map_or(name, |(_, a)| a));
            // `self.[]` (an index signature) is read by indexing, which writes no name.
            let unwritten = !attr.starts_with(|c: char| c.is_alphabetic() || c == '_' || c == '$');
            let item = Item {
                hash: entry.hash.finish(),
                names: vec![attr.to_string()],
                unwritten,
                reads: entry.reads,
            };
            items.insert(format!("{key}:{name}"), item);
        }
        let item = Item {
            hash: h.finish(),
            names,
            unwritten: p.interface_of(sym).is_some()
                || IMPLICIT_MEMBERS.contains(&sym.name.as_str()),
            reads,
        };
        items.insert(key, item);
    }
    let mut module_facts: BTreeMap<&str, Entry> = BTreeMap::new();
    for f in p.types.iter().filter(|f| f.scope.is_none()) {
        module_facts
            .entry(f.name.as_str())
            .or_default()
            .add(&f.ty, &keys);
    }
    let mut imports: BTreeMap<&str, Entry> = BTreeMap::new();
    for i in &p.imports {
        let e = imports.entry(i.alias.as_str()).or_default();
        (&i.module, i.level, &i.name, i.deferred, i.mod_decl).hash(&mut e.hash);
        e.reads.extend(hashed_words(&i.module));
        e.reads.extend(i.name.iter().flat_map(|n| hashed_words(n)));
    }
    let mut aliases: BTreeMap<&str, Entry> = BTreeMap::new();
    for (name, held) in &p.aliases {
        aliases.entry(name.as_str()).or_default().add(held, &keys);
    }
    for (prefix, by_name) in [("f", module_facts), ("i", imports), ("l", aliases)] {
        for (name, entry) in by_name {
            let item = Item {
                hash: entry.hash.finish(),
                names: vec![head(name).to_string()],
                unwritten: false,
                reads: entry.reads,
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
            reads: Vec::new(),
        };
        items.insert(format!("p:{name}"), item);
    }
    if let Some(all) = &p.dunder_all {
        let mut h = FxHasher::default();
        all.hash(&mut h);
        let item = Item {
            hash: h.finish(),
            names: all.clone(),
            unwritten: false,
            reads: all.iter().map(|n| name_hash(n)).collect(),
        };
        items.insert("a".into(), item);
    }
    items
}

/// One item being hashed from several entries (an attribute assigned twice, an import bound
/// twice), and the words they read.
#[derive(Default)]
struct Entry {
    hash: FxHasher,
    reads: Vec<u64>,
}

impl Entry {
    /// Hashes `text` as another run compares it ([`stable`]); reads its words as written.
    fn add(&mut self, text: &str, keys: &[String]) {
        stable(text, keys).hash(&mut self.hash);
        self.reads.extend(hashed_words(text));
    }
}

/// The values of `pairs` grouped by symbol (of `n`), in their order.
fn by_symbol<T>(n: usize, pairs: impl Iterator<Item = (usize, T)>) -> Vec<Vec<T>> {
    let mut out: Vec<Vec<T>> = std::iter::repeat_with(Vec::new).take(n).collect();
    for (si, value) in pairs {
        if let Some(v) = out.get_mut(si) {
            v.push(value);
        }
    }
    out
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
/// `__all__`, aliases, calls, uses and fixture parameters.
fn written_names(p: &FileParse) -> Vec<u64> {
    let mut out: FxHashSet<u64> = FxHashSet::default();
    let mut add = |text: &str| {
        out.extend(hashed_words(text));
    };
    for i in &p.imports {
        add(&i.module);
        add(i.name.as_deref().unwrap_or(""));
        add(&i.alias);
    }
    p.bases.iter().for_each(|b| add(&b.base));
    p.implemented.iter().for_each(|(_, t)| add(t));
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
    p.calls.iter().chain(&p.uses).for_each(|c| add(&c.callee));
    p.params.iter().for_each(|(_, n)| add(n));
    p.fixture_marks.iter().for_each(|(_, n)| add(n));
    let mut v: Vec<u64> = out.into_iter().collect();
    v.sort_unstable();
    v
}

fn hashed_words(text: &str) -> impl Iterator<Item = u64> + '_ {
    words(text).map(name_hash)
}

fn name_hash(name: &str) -> u64 {
    let mut h = FxHasher::default();
    name.hash(&mut h);
    h.finish()
}

#[cfg(test)]
mod tests {
    use super::stable;

    #[test]
    fn a_constructor_parameter_is_named_by_its_init_not_its_index() {
        let keys = ["s:A#0".to_string(), "s:A.__init__#0".to_string()];
        assert_eq!(stable("arg:1:0:q", &keys), "arg:s:A.__init__#0:0:q");
        assert_eq!(
            stable("Query()|arg:1:2:query", &keys),
            "Query()|arg:s:A.__init__#0:2:query"
        );
        // Another prefix, an index out of range, and no index: unchanged.
        assert_eq!(stable("cbarg:1:x", &keys), "cbarg:1:x");
        assert_eq!(stable("arg:7:0:q", &keys), "arg:7:0:q");
        assert_eq!(stable("arg:x", &keys), "arg:x");
    }
}
