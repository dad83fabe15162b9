//! Receiver typing for calls and value uses: what a name holds (`t = Transport()`, `t:
//! Transport`, `self.x = Cls()`, `make() -> Transport`), followed through resolved base
//! classes, so that `t.close()` reaches `Transport.close` (or a base class's `close`).

use super::{Resolver, Symbols, builtins};
use crate::code::index::Source;
use crate::code::index::resolve::Bind;
use crate::code::lang::{
    ARG_TYPE, ArgSlot, CALLBACK_ARG, CALLBACK_MEMBER, CALLBACK_PARAM, DOC_TYPE, GUARD_PARAM,
    GUARDED, INDEXED, ITERATED, PARAM_TYPE, RETURN_ELEMENT, SymKind, TypeFact,
};
use rustc_hash::{FxHashMap, FxHashSet};
use std::borrow::Cow;
use std::cell::{Cell, RefCell};
use std::collections::hash_map::Entry;
use std::sync::{Arc, OnceLock};

/// The confidence of an edge reached through an inferred type (impact calls it `inferred`).
pub(super) const INFERRED: f64 = 0.8;

/// How deep a type is followed (`a().b.c().d` and facts naming facts) before giving up.
const MAX_DEPTH: usize = 8;

/// How many functions' returns are typed inside one another (`a()` returning `b()` returning
/// ...) before giving up: each gets a fresh [`MAX_DEPTH`], and this bounds the stack.
const MAX_RETURN_NESTING: usize = 24;

/// What a receiver is known to be.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) enum Ty {
    /// An instance of (or the class itself) the class node, with the confidence of the way.
    Class(i64, f64),
    /// One of several classes (`Types::lists`): a function returning either, a table of
    /// classes (`{"dsa": DSSKey, "rsa": RSAKey}[k]`).
    Union(u32, f64),
    /// Something outside the repository (a builtin, an external package's object).
    External,
    Unknown,
}

/// What a call or a value use resolved to.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) enum Target {
    Found(i64, f64),
    /// A member of each class a receiver may be (`Types::lists`).
    Many(u32, f64),
    /// The receiver's type is known (in the repository or outside it) and has no such
    /// member here: no name-only guess.
    Known,
    Unknown,
}

/// Per run: classes, their resolved bases, what names hold and what functions return.
#[derive(Default)]
pub(super) struct Types<'a> {
    /// Class node -> (file, symbol index).
    class_at: FxHashMap<i64, (usize, usize)>,
    /// Class node -> its resolved base classes, in source order.
    pub(super) bases: FxHashMap<i64, Vec<i64>>,
    /// Per file, made when the file's locals are first read: (scope, name) -> type text of a
    /// local. A one-file run reads few files' locals. Shared by the threads of a link.
    pub(super) facts: Arc<[OnceLock<Facts<'a>>]>,
    /// (class node, attribute) -> (file, type text), from `self.x = ...` and `x: T` in the body.
    attrs: FxHashMap<(i64, &'a str), Attr<'a>>,
    /// Every attribute's name in `attrs`: a call by another name holds nothing to look up.
    attr_names: FxHashSet<&'a str>,
    /// Whether some class says what indexing it gives (an `[]` attribute): else `x[k]` of an
    /// instance is not asked, which spares Python its subscripts.
    indexable: bool,
    /// Whether some local names a member of another (`record.window`, from a TypeScript object
    /// type): else a dotted name is not looked up among the locals, which spares Python.
    member_locals: bool,
    /// (class node, name) -> the method or nested class of that name.
    members: FxHashMap<(i64, &'a str), i64>,
    /// Python protocol classes (a base named `Protocol`) by (file, local qualified name): a
    /// class of that name in that file is one in the type checker's view, even beside a
    /// runtime stub of the same name (`if TYPE_CHECKING: class F(Protocol) ... else: class
    /// F: ...`).
    protocols: FxHashMap<(usize, &'a str), i64>,
    /// Function node -> (file, its symbol index, return annotation), read in the function's
    /// scope (a TypeScript type parameter names its constraint there).
    returns: FxHashMap<i64, (usize, usize, &'a str)>,
    /// Function node without a return annotation -> (file, its symbol index, the values it
    /// returns), typed in its own scope.
    returned: FxHashMap<i64, (usize, usize, Vec<&'a str>)>,
    /// Function node -> what [`Resolver::return_type`] found, or `None` while it is being
    /// computed (the cycle guard).
    returned_memo: RefCell<FxHashMap<i64, Option<Ty>>>,
    /// A constructed name's last part (`AuthHandler`) -> (file, construction index).
    constructed: FxHashMap<&'a str, Vec<(usize, usize)>>,
    /// (function node, fact name) -> (file, the function's symbol index, type text): what a
    /// function says of its parameters and of the container it returns ([`CALLBACK_PARAM`],
    /// [`GUARD_PARAM`], [`PARAM_TYPE`] and [`RETURN_ELEMENT`] facts).
    param_facts: FxHashMap<(i64, &'a str), (usize, usize, &'a str)>,
    /// Whether some function has a [`RETURN_ELEMENT`] fact (TypeScript). Else neither `f()[]`
    /// nor an element of what a local holds is asked: Python's typing stays as measured
    /// against jedi, and pays nothing.
    return_elements: bool,
    /// Every module-level alias's name and fact's name: a name in neither is not looked for
    /// through re-exports (a barrel's star re-exports make that walk long).
    alias_names: FxHashSet<&'a str>,
    module_fact_names: FxHashSet<&'a str>,
    /// (`__init__` node, position) -> what [`Resolver::arg_type`] found, `None` while it is
    /// being computed.
    arg_memo: RefCell<FxHashMap<(i64, u32), Option<Ty>>>,
    /// The nodes of each [`Ty::Union`] and [`Target::Many`], by index.
    lists: RefCell<Vec<Box<[i64]>>>,
    /// How many [`Resolver::return_type`] calls are in progress (see [`MAX_RETURN_NESTING`]).
    nesting: Cell<usize>,
    /// Set when an evaluation was cut by [`MAX_DEPTH`] or [`MAX_RETURN_NESTING`] or read a
    /// return still being computed: its result depends on where it started, so it is not
    /// memoized. A memo then holds only results every order of questions agrees on, and a
    /// link of one file types exactly as a link of them all.
    partial: Cell<bool>,
}

/// What a class's attribute holds: the type text, written in class `class` of `file`.
#[derive(Clone, Copy)]
struct Attr<'a> {
    file: usize,
    class: usize,
    ty: &'a str,
}

impl Attr<'_> {
    /// The attribute's type on an instance of class `receiver`, read in its class's scope in
    /// TypeScript (a class's type parameter names its bound there), in its module's in Python
    /// (as measured against jedi). A type parameter the receiver's class declares again
    /// (`class ChildCaret<T extends ElementNode> extends Caret<T>` reading Caret's `origin: T`)
    /// is the receiver's: its bound is the narrower one.
    fn type_of(&self, r: &Resolver<'_>, receiver: i64, depth: usize) -> Ty {
        if !builtins::is_ecmascript(r.sources[self.file].lang) {
            return r.type_of(self.file, self.ty, None, depth);
        }
        if let Some(&(rf, rs)) = r.types.class_at.get(&receiver)
            && (rf, rs) != (self.file, self.class)
            && let Some((Some(scope), bound)) = r.scoped_fact(rf, Some(rs), self.ty)
            && scope == rs
        {
            return r.type_of(rf, bound, Some(rs), depth);
        }
        r.type_of(self.file, self.ty, Some(self.class), depth)
    }
}

/// One file's locals: (scope, name) -> type text.
type Facts<'a> = FxHashMap<(Option<usize>, &'a str), &'a str>;

/// `self.x` in a class's body or methods: an attribute of the class, not a local.
fn attribute(f: &TypeFact) -> Option<(usize, &str)> {
    Some((f.scope?, f.name.strip_prefix("self.")?))
}

/// File `s`'s locals, the first fact of each name kept (a parameter's callers give way to
/// what the body assigns: `if server is None: server = ServerInterface()`).
fn facts_of(s: &Source) -> Facts<'_> {
    let mut facts = Facts::default();
    for f in s.parse.types.iter().filter(|f| attribute(f).is_none()) {
        keep_first(
            facts.entry((f.scope, f.name.as_str())),
            f.ty.as_str(),
            |t| t,
        );
    }
    facts
}

/// Keeps the first fact of a name, unless that is an [`ARG_TYPE`] fact and `value` is not.
fn keep_first<K, V>(entry: Entry<'_, K, V>, value: V, text: impl Fn(&V) -> &str) {
    match entry {
        Entry::Vacant(v) => {
            v.insert(value);
        }
        Entry::Occupied(mut o) => {
            if text(o.get()).starts_with(ARG_TYPE) && !text(&value).starts_with(ARG_TYPE) {
                o.insert(value);
            }
        }
    }
}

impl<'a> Types<'a> {
    /// Members declared apart from their class (a type's own members win).
    pub(super) fn add_members(&mut self, extra: &[((i64, &'a str), i64)]) {
        for (key, id) in extra {
            self.members.entry(*key).or_insert(*id);
        }
    }

    pub(super) fn new(sources: &'a [Source], symbols: &Symbols<'a>) -> Types<'a> {
        let sum = |n: fn(&Source) -> usize| sources.iter().map(n).sum::<usize>();
        let mut t = Types {
            facts: sources.iter().map(|_| OnceLock::new()).collect(),
            members: FxHashMap::with_capacity_and_hasher(
                sum(|s| s.parse.symbols.len()),
                Default::default(),
            ),
            returned: FxHashMap::with_capacity_and_hasher(
                sum(|s| s.parse.returned.len()),
                Default::default(),
            ),
            ..Types::default()
        };
        for (fi, s) in sources.iter().enumerate() {
            let node_of = &symbols.sym_node_of[fi];
            for (si, sym) in s.parse.symbols.iter().enumerate() {
                if sym.kind == SymKind::Class {
                    t.class_at.insert(node_of[si], (fi, si));
                }
                if let Some(p) = sym.parent
                    && s.parse.symbols[p].kind == SymKind::Class
                {
                    t.members
                        .entry((node_of[p], sym.name.as_str()))
                        .or_insert(node_of[si]);
                }
            }
            if !builtins::is_ecmascript(s.lang) {
                for b in &s.parse.bases {
                    if b.base.rsplit('.').next() == Some("Protocol") {
                        let q = s.parse.symbols[b.class].local_qname.as_str();
                        t.protocols.insert((fi, q), node_of[b.class]);
                    }
                }
            }
            t.alias_names
                .extend(s.parse.aliases.iter().map(|(n, _)| n.as_str()));
            for f in &s.parse.types {
                if f.scope.is_none() {
                    t.module_fact_names.insert(f.name.as_str());
                }
                t.member_locals |= attribute(f).is_none() && f.name.contains('.');
                if let Some((class, attr)) = attribute(f) {
                    t.indexable |= attr == INDEXED;
                    t.attr_names.insert(attr);
                    let entry = t.attrs.entry((node_of[class], attr));
                    let at = Attr {
                        file: fi,
                        class,
                        ty: f.ty.as_str(),
                    };
                    keep_first(entry, at, |a| a.ty);
                } else if let Some(scope) = f.scope
                    && (f.name.starts_with(CALLBACK_PARAM)
                        || f.name.starts_with(PARAM_TYPE)
                        || f.name.starts_with(GUARD_PARAM)
                        || f.name == RETURN_ELEMENT)
                {
                    t.return_elements |= f.name == RETURN_ELEMENT;
                    t.param_facts
                        .entry((node_of[scope], f.name.as_str()))
                        .or_insert((fi, scope, f.ty.as_str()));
                }
            }
            for (k, c) in s.parse.constructions.iter().enumerate() {
                t.constructed
                    .entry(c.class_name())
                    .or_default()
                    .push((fi, k));
            }
            for (si, ty) in &s.parse.returns {
                t.returns
                    .insert(symbols.sym_node_of[fi][*si], (fi, *si, ty.as_str()));
            }
            for (si, value) in &s.parse.returned {
                t.returned
                    .entry(symbols.sym_node_of[fi][*si])
                    .or_insert_with(|| (fi, *si, Vec::new()))
                    .2
                    .push(value.as_str());
            }
        }
        t
    }

    pub(super) fn is_class(&self, id: i64) -> bool {
        self.class_at.contains_key(&id)
    }

    /// The nodes of union or target list `u`.
    pub(super) fn list(&self, u: u32) -> Box<[i64]> {
        self.lists
            .borrow()
            .get(u as usize)
            .cloned()
            .unwrap_or_default()
    }

    /// `ids` (distinct, in order) as one node, several, or none.
    fn gather(&self, ids: Vec<i64>, conf: f64) -> Option<Result<(i64, f64), (u32, f64)>> {
        match ids.as_slice() {
            [] => None,
            [one] => Some(Ok((*one, conf))),
            _ => {
                let mut lists = self.lists.borrow_mut();
                lists.push(ids.into_boxed_slice());
                Some(Err(((lists.len() - 1) as u32, conf)))
            }
        }
    }

    /// One type for several: the classes among them (distinct, in order; the lowest
    /// confidence), else external when every one is, else unknown.
    fn union(&self, tys: impl IntoIterator<Item = Ty>) -> Ty {
        let (mut ids, mut conf, mut external, mut any) = (Vec::new(), 1.0_f64, true, false);
        for ty in tys {
            any = true;
            match ty {
                Ty::Class(c, k) => {
                    external = false;
                    conf = conf.min(k);
                    if !ids.contains(&c) {
                        ids.push(c);
                    }
                }
                Ty::Union(u, k) => {
                    external = false;
                    conf = conf.min(k);
                    for c in self.list(u) {
                        if !ids.contains(&c) {
                            ids.push(c);
                        }
                    }
                }
                Ty::External => {}
                Ty::Unknown => external = false,
            }
        }
        match self.gather(ids, conf) {
            Some(Ok((c, k))) => Ty::Class(c, k),
            Some(Err((u, k))) => Ty::Union(u, k),
            None if any && external => Ty::External,
            None => Ty::Unknown,
        }
    }
}

impl Resolver<'_> {
    /// The class enclosing symbol `caller` of file `fi` (for `self`, `cls`, `super()`).
    fn enclosing_class(&self, fi: usize, caller: Option<usize>) -> Option<i64> {
        let syms = &self.sources[fi].parse.symbols;
        let mut cur = caller;
        while let Some(c) = cur {
            if syms[c].kind == SymKind::Class {
                return Some(self.symbols.sym_node_of[fi][c]);
            }
            cur = syms[c].parent;
        }
        None
    }

    /// Member `name` of class `class` or, first found, of its bases (depth first).
    pub(super) fn member(&self, class: i64, name: &str, depth: usize) -> Option<i64> {
        self.in_bases(class, depth, &|c| {
            self.types.members.get(&(c, name)).copied()
        })
    }

    /// The type text of attribute `name` of class `class` or of a base.
    fn attr_fact(&self, class: i64, name: &str, depth: usize) -> Option<Attr<'_>> {
        self.in_bases(class, depth, &|c| self.types.attrs.get(&(c, name)).copied())
    }

    /// `get` of class `class` or, first found, of its bases (depth first).
    fn in_bases<T>(&self, class: i64, depth: usize, get: &impl Fn(i64) -> Option<T>) -> Option<T> {
        if depth > MAX_DEPTH {
            return None;
        }
        get(class).or_else(|| {
            self.types
                .bases
                .get(&class)?
                .iter()
                .find_map(|b| self.in_bases(*b, depth + 1, get))
        })
    }

    /// Whether class `class` has `base` among its bases, at any depth.
    fn inherits(&self, class: i64, base: i64) -> bool {
        self.in_bases(class, 0, &|c| (c == base).then_some(()))
            .is_some()
    }

    /// What local `name` holds as seen from `caller` (its scope, then the enclosing ones).
    pub(super) fn local_fact(&self, fi: usize, caller: Option<usize>, name: &str) -> Option<&str> {
        self.scoped_fact(fi, caller, name).map(|(_, ty)| ty)
    }

    /// [`Self::local_fact`] with the scope holding it (`None`: the module).
    fn scoped_fact(
        &self,
        fi: usize,
        caller: Option<usize>,
        name: &str,
    ) -> Option<(Option<usize>, &str)> {
        let source = &self.sources[fi];
        let facts = self.types.facts[fi].get_or_init(|| facts_of(source));
        let syms = &source.parse.symbols;
        let mut cur = caller;
        loop {
            if let Some(ty) = facts.get(&(cur, name)) {
                return Some((cur, ty));
            }
            cur = syms[cur?].parent;
        }
    }

    /// What a module-level name `key` of file `fi` is an alias of, resolved: `_af_new =
    /// Perm._af_new`, `Matrix = MutableDenseMatrix`, TS `const stringType = ZodString.create`
    /// exported as `string` and called as `z.string()` (see `FileParse::aliases`). A local of
    /// a function shadows the module's name.
    fn aliased(&self, fi: usize, key: &str, caller: Option<usize>, depth: usize) -> Option<Target> {
        let alias_in = |f: usize, q: &str| {
            let aliases = &self.sources[f].parse.aliases;
            aliases
                .iter()
                .rev()
                .find(|(n, _)| n == q)
                .map(|(_, held)| (f, held.as_str()))
        };
        let head = key.split('.').next().unwrap_or(key);
        let held = if self.imports[fi].binds.contains_key(head) {
            let (g, q) = self.through_import(fi, key)?;
            if !self.types.alias_names.contains(last_part(&q)) {
                return None;
            }
            self.reexported(g, &q, super::MAX_REEXPORT_HOPS, &alias_in)
        } else if head == key && !matches!(self.scoped_fact(fi, caller, key), Some((Some(_), _))) {
            alias_in(fi, key)
        } else {
            None
        };
        let (g, held) = held.filter(|(g, held)| *held != key || *g != fi)?;
        match self.resolve_ref(g, held, None, depth + 1) {
            Target::Found(id, c) => Some(Target::Found(id, c.min(INFERRED))),
            _ => None,
        }
    }

    /// The file and name that `name` (`x`, `ns.x`) of file `fi` reaches through its import
    /// of the first part.
    fn through_import<'s>(&'s self, fi: usize, name: &'s str) -> Option<(usize, Cow<'s, str>)> {
        let (head, rest) = match name.split_once('.') {
            Some((h, r)) => (h, Some(r)),
            None => (name, None),
        };
        match (self.imports[fi].binds.get(head)?, rest) {
            (Bind::Symbol(g, n), None) => Some((*g, Cow::Borrowed(n.as_str()))),
            (Bind::Symbol(g, n), Some(r)) => Some((*g, Cow::Owned(format!("{n}.{r}")))),
            (Bind::File(g), Some(r)) => Some((*g, Cow::Borrowed(r))),
            _ => None,
        }
    }

    /// Whether `name` is a typed local of `caller` or of a function enclosing it (and no
    /// function or class of that name is defined there).
    fn typed_local(&self, fi: usize, caller: Option<usize>, name: &str) -> bool {
        let source = &self.sources[fi];
        let facts = self.types.facts[fi].get_or_init(|| facts_of(source));
        let syms = &source.parse.symbols;
        let mut cur = caller;
        while let Some(c) = cur {
            if facts.contains_key(&(Some(c), name)) {
                return !syms.iter().any(|s| s.parent == Some(c) && s.name == name);
            }
            cur = syms[c].parent;
        }
        false
    }

    /// What a module-level variable imported as `name` holds, in the file defining it:
    /// `current_app: Flask = LocalProxy(...)` in `globals.py`, imported from there or through
    /// a package re-exporting it; also its elements (`key_classes[*]`, a list of classes).
    fn imported_fact(&self, fi: usize, name: &str) -> Option<(usize, &str)> {
        let (head, elements) = name.split_at(name.find('[').unwrap_or(name.len()));
        let (mut file, mut name) = (fi, head);
        for _ in 0..MAX_DEPTH {
            let Some(Bind::Symbol(g, symbol)) = self.imports[file].binds.get(name) else {
                return None;
            };
            if symbol.contains('.') {
                return None;
            }
            let source = &self.sources[*g];
            let facts = self.types.facts[*g].get_or_init(|| facts_of(source));
            let key = match elements {
                "" => Cow::Borrowed(symbol.as_str()),
                _ => Cow::Owned(format!("{symbol}{elements}")),
            };
            if let Some(ty) = facts.get(&(None, &*key)) {
                return Some((*g, ty));
            }
            (file, name) = (*g, symbol.as_str());
        }
        None
    }

    /// What a module-level variable that `name` reaches from file `fi` holds, in the file
    /// defining it: an imported name, or a member of an imported file (TS `z.string` after
    /// `import * as z`), followed through re-exports (`export *`, `export { a as string }`).
    fn module_value(&self, fi: usize, name: &str) -> Option<(usize, &str)> {
        let (g, q) = self.through_import(fi, name)?;
        if !self.types.module_fact_names.contains(last_part(&q)) {
            return None;
        }
        self.reexported(g, &q, super::MAX_REEXPORT_HOPS, &|f, q| {
            let source = &self.sources[f];
            let facts = self.types.facts[f].get_or_init(|| facts_of(source));
            facts.get(&(None, q)).map(|ty| (f, *ty))
        })
    }

    /// True when the first name of `dotted` is bound to something outside the repository: an
    /// import of a library, or a global (a builtin, a DOM type) the file does not rebind.
    fn external_head(&self, fi: usize, dotted: &str) -> bool {
        let head = dotted.split(['.', '(', '[']).next().unwrap_or("");
        matches!(self.imports[fi].binds.get(head), Some(Bind::External(_)))
            || (builtins::global(self.sources[fi].lang, head)
                && self.lookup_in(fi, head).is_none()
                && !self.imports[fi].binds.contains_key(head)
                && self.scoped_fact(fi, None, head).is_none()
                && !self.sources[fi]
                    .parse
                    .aliases
                    .iter()
                    .any(|(n, _)| n == head))
    }

    /// The type of expression key `expr` (`t`, `self.x`, `make()`, `mod.Cls`) in file `fi`.
    pub(super) fn type_of(&self, fi: usize, expr: &str, caller: Option<usize>, depth: usize) -> Ty {
        if depth > MAX_DEPTH {
            self.types.partial.set(true);
            return Ty::Unknown;
        }
        if let Some(named) = expr.strip_prefix(DOC_TYPE) {
            return lower(self.doc_type(fi, named, caller, depth + 1), INFERRED);
        }
        if let Some(arg) = expr.strip_prefix(ARG_TYPE) {
            return self.arg_type(fi, arg);
        }
        if let Some(member) = expr.strip_prefix(CALLBACK_MEMBER) {
            return self.member_param(fi, member, caller, depth);
        }
        if let Some(arg) = expr.strip_prefix(CALLBACK_ARG) {
            return match self.param_fact(fi, arg, CALLBACK_PARAM, caller, depth) {
                Ty::Unknown => self.element_callback(fi, arg, caller, depth),
                ty => ty,
            };
        }
        if let Some(guard) = expr.strip_prefix(GUARDED)
            && !guard.contains('.')
            && let Some((guarded, name)) = nth_colon_from_end(guard, 1)
        {
            // What the guards say (`isMap,isSet:0`: one of theirs), else what the name held
            // before them.
            let Some((guards, at)) = guarded.rsplit_once(':') else {
                return Ty::Unknown;
            };
            let says: Vec<Ty> = guards
                .split(',')
                .map(|guard| {
                    let one = format!("{guard}:{at}");
                    match self.param_fact(fi, &one, GUARD_PARAM, caller, depth) {
                        Ty::Unknown => self.held_guard(fi, &one, caller, depth),
                        ty => ty,
                    }
                })
                .collect();
            return match says.as_slice() {
                [Ty::Unknown] => self.type_of(fi, name, caller, depth + 1),
                [one] => *one,
                // Several: each must name classes, or the value may be none of them.
                _ if says
                    .iter()
                    .all(|t| matches!(t, Ty::Class(..) | Ty::Union(..))) =>
                {
                    self.types.union(says)
                }
                _ => self.type_of(fi, name, caller, depth + 1),
            };
        }
        if expr.starts_with(GUARD_PARAM) {
            // A guard held in a variable is a function, no instance.
            return Ty::Unknown;
        }
        if let Some(values) = expr
            .strip_suffix(ITERATED)
            .and_then(|e| e.strip_suffix(".values()"))
        {
            // `for v in d.values()`, `for (const v of m.values())`.
            return self
                .element_of(fi, values, caller, depth)
                .unwrap_or(Ty::Unknown);
        }
        if expr.contains('|') {
            // A fact naming several classes (`DSSKey|RSAKey`, see the Python facts).
            return self.types.union(
                expr.split('|')
                    .map(|one| self.type_of(fi, one, caller, depth + 1))
                    .collect::<Vec<_>>(),
            );
        }
        if let Some(value) = expr
            .strip_suffix(".__enter__()")
            .or_else(|| expr.strip_suffix(".__aenter__()"))
        {
            // `with X() as x`: what X's `__enter__` returns, else the value itself: when X
            // has no `__enter__` here (a library base class), or when what it returns is not
            // known (`def __enter__(self: T) -> T`, httpx's `Client`: by convention `self`).
            let enter = &expr[value.len() + 1..expr.len() - 2];
            return match self.type_of(fi, value, caller, depth + 1) {
                Ty::Class(c, conf) => match self.member(c, enter, 0) {
                    Some(id) => match self.return_type(id) {
                        Ty::Unknown => Ty::Class(c, conf.min(INFERRED)),
                        // `return self` in a base class (paramiko's `ClosingContextManager`):
                        // the instance, of its own class.
                        Ty::Class(base, _) if base != c && self.inherits(c, base) => {
                            Ty::Class(c, conf.min(INFERRED))
                        }
                        known => lower(known, conf),
                    },
                    None => Ty::Class(c, conf),
                },
                other => other,
            };
        }
        if self.types.return_elements
            && let Some(call) = expr
                .strip_suffix(INDEXED)
                .and_then(|e| e.strip_suffix("()"))
            && let Target::Found(id, conf) = self.resolve_ref(fi, call, caller, depth + 1)
            && let Some((g, _, ty)) = self.types.param_facts.get(&(id, RETURN_ELEMENT))
        {
            // An element of what `getAll(): Array<Query>` returns.
            return lower(self.type_of(*g, ty, None, depth + 1), conf.min(INFERRED));
        }
        if let Some(inner) = expr.strip_suffix("()") {
            if inner == "super" {
                return Ty::Unknown;
            }
            if let Some((recv, method)) = inner.rsplit_once('.')
                && builtins::ELEMENT_METHODS.contains(&method)
                && let Some(ty) = self.element_of(fi, recv, caller, depth)
            {
                return ty;
            }
            if !inner.contains('.')
                && let Some(held) = self.local_fact(fi, caller, inner)
            {
                // A callback's parameter whose declared type is a function type alias
                // (`gDM: GetDefaultMiddleware`): calling it gives what the alias returns.
                if let Some(arg) = held.strip_prefix(CALLBACK_ARG)
                    && let Some((g, ty, conf)) =
                        self.param_fact_key(fi, arg, CALLBACK_PARAM, caller, depth)
                    && let Target::Found(id, c) = self.resolve_ref(g, &ty, None, depth + 1)
                    && !self.types.is_class(id)
                {
                    return lower(self.return_type(id), conf.min(c).min(INFERRED));
                }
                // A name holding a class (`factory = Transport`, `for cls in (A, B)`,
                // `TABLE[kind]`): calling it makes one. A name holding an instance (`Cls()`)
                // is left to the call's resolution.
                if !held.contains('(') {
                    return match self.type_of(fi, inner, caller, depth + 1) {
                        Ty::Class(c, conf) => self.made_by_calling(c, conf.min(INFERRED)),
                        ty => lower(ty, INFERRED),
                    };
                }
            }
            if inner == "cls" {
                // `cls(...)` in a classmethod: an instance of the enclosing class.
                return match self.enclosing_class(fi, caller) {
                    Some(c) => Ty::Class(c, INFERRED),
                    None => Ty::Unknown,
                };
            }
            let called = |id: i64, c: f64| {
                if self.types.is_class(id) {
                    self.made_by_calling(id, c)
                } else if let Some((recv, _)) = inner.rsplit_once('.')
                    && self.returns_this(id)
                    && let found @ (Ty::Class(..) | Ty::Union(..)) =
                        self.type_of(fi, recv, caller, depth + 1)
                {
                    // `getLatest(): this`: the receiver, of its own class (a subclass's
                    // instance stays one).
                    lower(found, c)
                } else {
                    lower(self.return_type(id), c)
                }
            };
            return match self.resolve_call(fi, inner, caller, depth + 1) {
                Target::Found(id, c) => called(id, c),
                Target::Many(u, c) => self.types.union(
                    self.types
                        .list(u)
                        .iter()
                        .map(|id| called(*id, c))
                        .collect::<Vec<_>>(),
                ),
                Target::Known if self.external_head(fi, inner) => Ty::External,
                // TypeScript: a method of a value typed outside the repository's classes (an
                // interface, a library's type) returns what its declaration says, which is
                // no class of ours either.
                Target::Known if builtins::is_ecmascript(self.sources[fi].lang) => Ty::External,
                Target::Known | Target::Unknown => Ty::Unknown,
            };
        }
        match expr.rsplit_once('.') {
            None => {
                // `self` / `cls` in a class are its instance and itself (whatever `self: T`
                // annotates); outside one, a local of that name (`for cls in (A, B)`).
                if matches!(expr, "self" | "cls")
                    && let Some(c) = self.enclosing_class(fi, caller)
                {
                    return Ty::Class(c, INFERRED);
                }
                if let Some(ty) = self.local_fact(fi, caller, expr) {
                    return lower(self.type_of(fi, ty, caller, depth + 1), INFERRED);
                }
                // `const marks = node.marks; marks[i]`: an element of what the local holds.
                if self.types.return_elements
                    && let Some(local) = expr.strip_suffix(INDEXED)
                    && let Some(held) = self.local_fact(fi, caller, local)
                    && let found @ (Ty::Class(..) | Ty::Union(..)) =
                        self.type_of(fi, &format!("{held}{INDEXED}"), caller, depth + 1)
                {
                    return lower(found, INFERRED);
                }
                if matches!(expr, "self" | "cls") {
                    return Ty::Unknown;
                }
                // `(obj as T)[k]`, `this[$mobx]`: what indexing an instance of ours gives.
                if self.types.indexable
                    && let Some(recv) = expr.strip_suffix(INDEXED)
                    && let found @ (Ty::Class(..) | Ty::Union(..)) =
                        self.indexed(self.type_of(fi, recv, caller, depth + 1), depth)
                {
                    return found;
                }
                if let Some(fixture) = self.fixture_param(fi, caller, expr) {
                    return lower(self.return_type(fixture), INFERRED);
                }
                match self.resolve_dotted(fi, expr, caller) {
                    Some((id, c)) if self.types.is_class(id) => Ty::Class(id, c),
                    Some(_) => Ty::Unknown,
                    None => match self.imported_fact(fi, expr) {
                        Some((g, ty)) => lower(self.type_of(g, ty, None, depth + 1), INFERRED),
                        None if self.external_head(fi, expr) => Ty::External,
                        None => Ty::Unknown,
                    },
                }
            }
            Some(_)
                if self.types.member_locals
                    && let Some(ty) = self.local_fact(fi, caller, expr) =>
            {
                // `record.window` where `record: { window: Subject<T> }`.
                lower(self.type_of(fi, ty, caller, depth + 1), INFERRED)
            }
            Some((recv, attr)) => match self.type_of(fi, recv, caller, depth + 1) {
                Ty::Class(c, conf) => self.attr_type(c, conf, attr, depth),
                Ty::Union(u, conf) => self.types.union(
                    self.types
                        .list(u)
                        .iter()
                        .map(|c| self.attr_type(*c, conf, attr, depth))
                        .collect::<Vec<_>>(),
                ),
                Ty::External => Ty::External,
                Ty::Unknown if !recv.contains('(') => match self.resolve_dotted(fi, expr, caller) {
                    Some((id, c)) if self.types.is_class(id) => Ty::Class(id, c),
                    Some(_) => Ty::Unknown,
                    // A module-level variable of an imported file (`z.registry`).
                    None => match self.module_value(fi, expr) {
                        Some((g, held)) => lower(self.type_of(g, held, None, depth + 1), INFERRED),
                        None => Ty::Unknown,
                    },
                },
                Ty::Unknown => Ty::Unknown,
            },
        }
    }

    /// What calling class `c` (or a value typed by it) gives: an instance, but a Python
    /// protocol is never instantiated (PEP 544), so the value called is an instance of it
    /// (`factory: ClientFactory`), and gives what the protocol's `__call__` returns.
    fn made_by_calling(&self, c: i64, conf: f64) -> Ty {
        let protocol = self.types.class_at.get(&c).and_then(|&(fi, si)| {
            let q = self.sources[fi].parse.symbols[si].local_qname.as_str();
            self.types.protocols.get(&(fi, q))
        });
        match protocol.and_then(|p| self.member(*p, super::CALL, 0)) {
            Some(call) => lower(self.return_type(call), conf.min(INFERRED)),
            None => Ty::Class(c, conf),
        }
    }

    /// The fixture that `name`, a parameter of the test or fixture `caller` is in (or of a
    /// function enclosing it), names: its value is what the fixture returns or yields.
    fn fixture_param(&self, fi: usize, caller: Option<usize>, name: &str) -> Option<i64> {
        let syms = &self.sources[fi].parse.symbols;
        let mut cur = caller;
        while let Some(c) = cur.filter(|c| syms[*c].kind != SymKind::Class) {
            if let Some(id) = self.fixtures.of(fi, c, name) {
                return Some(id);
            }
            cur = syms[c].parent;
        }
        None
    }

    /// The class a docstring names: as a name in file `fi` (`Response`, `models.Response`),
    /// else as an absolute module path (`requests.adapters.BaseAdapter` in requests' own
    /// modules, which do not import `requests`), else, for a bare name (Sphinx's `.Message`),
    /// the one class of that name in the repository.
    fn doc_type(&self, fi: usize, named: &str, caller: Option<usize>, depth: usize) -> Ty {
        let ty = self.type_of(fi, named, caller, depth);
        if ty != Ty::Unknown {
            return ty;
        }
        let parts: Vec<&str> = named.split('.').collect();
        let in_module = (1..parts.len()).rev().find_map(|k| {
            let f = self.idx.module(fi, &parts[..k].join("."))?;
            let (id, _) = self.exported(f, &parts[k..].join("."))?;
            self.types.is_class(id).then_some(id)
        });
        let lang = self.sources[fi].lang;
        let only = || match self.symbols.classes_by_name.get(&(lang, named)) {
            Some(ids) if parts.len() == 1 && ids.len() == 1 => Some(ids[0]),
            _ => None,
        };
        match in_module.or_else(only) {
            Some(id) => Ty::Class(id, INFERRED),
            None => Ty::Unknown,
        }
    }

    /// The type of attribute `attr` of an instance of class `c`.
    fn attr_type(&self, c: i64, conf: f64, attr: &str, depth: usize) -> Ty {
        // What a constructor's caller passes does not hide a property of that name
        // (`self.pathway = pathway` through its setter): reading it is the property's use.
        if let Some(a) = self.attr_fact(c, attr, 0)
            && !(a.ty.starts_with(ARG_TYPE) && self.member(c, attr, 0).is_some())
        {
            return lower(a.type_of(self, c, depth + 1), conf.min(INFERRED));
        }
        // A nested class, or a property read for its annotated return type.
        match self.member(c, attr, 0) {
            Some(id) if self.types.is_class(id) => Ty::Class(id, conf),
            Some(id) => lower(self.return_type(id), conf.min(INFERRED)),
            None => match attr.strip_suffix(INDEXED) {
                // `self.adm[k]`: what indexing the attribute's class gives.
                Some(held) if self.types.indexable && !held.is_empty() && depth < MAX_DEPTH => {
                    self.indexed(self.attr_type(c, conf, held, depth + 1), depth)
                }
                _ => Ty::Unknown,
            },
        }
    }

    /// What indexing a value of type `ty` gives: its class's own `[]` fact (a TypeScript index
    /// signature, or a computed member `[$mobx]: Administration`).
    fn indexed(&self, ty: Ty, depth: usize) -> Ty {
        match ty {
            Ty::Class(c, conf) if depth < MAX_DEPTH => match self.attr_fact(c, INDEXED, 0) {
                Some(a) => lower(a.type_of(self, c, depth + 1), conf.min(INFERRED)),
                None => Ty::Unknown,
            },
            _ => Ty::Unknown,
        }
    }

    /// What function `id` returns: its annotation, else the classes its `return` values are
    /// (one of several classes: a union; all of them external: external). A docstring's
    /// `:rtype:` naming nothing found gives way to the values.
    ///
    /// A function's own values are typed with a fresh [`MAX_DEPTH`], whatever the depth of the
    /// question that asked: a memoized return type is then the same whoever computed it first,
    /// and a question reaching a memoized function gets what it would compute. (Sharing the
    /// depth made a full link, which typed a chain's middle first, find what a one-file link
    /// could not.) Returns nested deeper than [`MAX_RETURN_NESTING`] give up, partially.
    fn return_type(&self, id: i64) -> Ty {
        self.nested(|| self.return_type_within(id))
    }

    /// `compute()`, unless [`MAX_RETURN_NESTING`] types are already being computed inside one
    /// another (then unknown, partially).
    fn nested(&self, compute: impl FnOnce() -> Ty) -> Ty {
        let nesting = self.types.nesting.get();
        if nesting >= MAX_RETURN_NESTING {
            self.types.partial.set(true);
            return Ty::Unknown;
        }
        self.types.nesting.set(nesting + 1);
        let ty = compute();
        self.types.nesting.set(nesting);
        ty
    }

    /// `compute()` for `key`, memoized in `memo` unless partial. A question reaching a key still
    /// being computed (a function returning its own call, directly or not) gets unknown,
    /// partially.
    fn memoized<K: std::hash::Hash + Eq + Copy>(
        &self,
        memo: &RefCell<FxHashMap<K, Option<Ty>>>,
        key: K,
        compute: impl FnOnce() -> Ty,
    ) -> Ty {
        match memo.borrow().get(&key) {
            Some(Some(ty)) => return *ty,
            Some(None) => {
                self.types.partial.set(true);
                return Ty::Unknown;
            }
            None => {}
        }
        memo.borrow_mut().insert(key, None);
        let outer = self.types.partial.replace(false);
        let found = compute();
        let partial = self.types.partial.get();
        let mut memo = memo.borrow_mut();
        if partial {
            memo.remove(&key);
        } else {
            memo.insert(key, Some(found));
        }
        self.types.partial.set(outer || partial);
        found
    }

    /// Whether function `id` returns its receiver: TypeScript's `this` (its annotation, or
    /// every `return`), Python's `-> Self`. Python's `return self` keeps the enclosing class,
    /// as measured against jedi.
    fn returns_this(&self, id: i64) -> bool {
        if self.returns_self(id).is_some() {
            return true;
        }
        self.types.returned.get(&id).is_some_and(|(g, _, values)| {
            builtins::is_ecmascript(self.sources[*g].lang) && values.iter().all(|v| *v == "self")
        })
    }

    /// The class of Python method `id` annotated `-> Self` (PEP 673): an instance of the
    /// receiver's class, which is this one or a subclass.
    fn returns_self(&self, id: i64) -> Option<i64> {
        let (g, f, ty) = self.types.returns.get(&id)?;
        let (s, si) = (&self.sources[*g], *f);
        // `Self`, `typing.Self`, `te.Self` (`import typing_extensions as te`), `Self | None`.
        let named = ty.split('|').any(|t| t.rsplit('.').next() == Some("Self"));
        let class = s.parse.symbols[si].parent?;
        (named && !builtins::is_ecmascript(s.lang) && s.parse.symbols[class].kind == SymKind::Class)
            .then(|| self.symbols.sym_node_of[*g][class])
    }

    fn return_type_within(&self, id: i64) -> Ty {
        if let Some(class) = self.returns_self(id) {
            // Called on an unknown receiver, or through `__enter__` (which takes the
            // receiver's own class when this is one of its bases).
            return Ty::Class(class, INFERRED);
        }
        if let Some((g, f, ty)) = self.types.returns.get(&id) {
            let outer = self.types.partial.replace(false);
            // TypeScript reads it in the function's scope (a type parameter names its bound
            // there); Python in its module's, as measured against jedi.
            let scope = Some(*f).filter(|_| builtins::is_ecmascript(self.sources[*g].lang));
            let found = self.type_of(*g, ty, scope, 0);
            // Whether this annotation's own typing was cut (not a question around it).
            let cut = self.types.partial.get();
            self.types.partial.set(outer || cut);
            if found == Ty::Unknown && !cut && builtins::is_ecmascript(self.sources[*g].lang) {
                // A TypeScript annotation naming no class of the repository names an
                // interface, a type alias or a library's type: a method called on the value
                // is none of the repository's methods of that name.
                return Ty::External;
            }
            if found != Ty::Unknown || !ty.starts_with(DOC_TYPE) {
                return found;
            }
        }
        let Some((g, f, values)) = self.types.returned.get(&id) else {
            return Ty::Unknown;
        };
        self.memoized(&self.types.returned_memo, id, || {
            // A value of unknown type does not hide the classes the others are.
            let tys: Vec<Ty> = values
                .iter()
                .map(|value| self.type_of(*g, value, Some(*f), 0))
                .collect();
            lower(self.types.union(tys), INFERRED)
        })
    }

    /// What a function says of one of its parameters, asked from a call of it: `arg` is
    /// `CALLEE:AT` (a [`CALLBACK_ARG`] fact without its prefix, `AT` = `A:Q`: parameter `Q` of
    /// the function passed as argument `A`; a [`GUARDED`] receiver, `AT` = `P`: argument `P`
    /// of a type guard), read from the callee's `prefix` + `AT` fact. A class callee: its
    /// constructor's.
    fn param_fact(
        &self,
        fi: usize,
        arg: &str,
        prefix: &str,
        caller: Option<usize>,
        depth: usize,
    ) -> Ty {
        match self.param_fact_key(fi, arg, prefix, caller, depth) {
            Some((g, ty, conf)) => lower(self.type_of(g, &ty, None, depth + 1), conf.min(INFERRED)),
            None => Ty::Unknown,
        }
    }

    /// What [`Self::param_fact`] reads, before it is typed: the declared type, the file it is
    /// written in, and the confidence of the callee's resolution. A function at property `K`
    /// of an object literal (`AT` = `A.K:Q`) is typed by member `K` of the type of the
    /// callee's parameter `A` ([`PARAM_TYPE`]).
    fn param_fact_key(
        &self,
        fi: usize,
        arg: &str,
        prefix: &str,
        caller: Option<usize>,
        depth: usize,
    ) -> Option<(usize, String, f64)> {
        let colons_in_at = if prefix == CALLBACK_PARAM { 2 } else { 1 };
        let (callee, at) = nth_colon_from_end(arg, colons_in_at)?;
        let Target::Found(mut id, conf) = self.resolve_ref(fi, callee, caller, depth + 1) else {
            return None;
        };
        if self.types.is_class(id) {
            id = self.member(id, super::CONSTRUCTOR, 0)?;
        }
        if prefix == CALLBACK_PARAM
            && let Some((a, member_at)) = at.split_once('.')
        {
            let (k, q) = member_at.split_once(':')?;
            let param = format!("{PARAM_TYPE}{a}");
            let (g, _, ty) = self.types.param_facts.get(&(id, param.as_str()))?;
            let Ty::Class(t, c) = self.type_of(*g, ty, None, depth + 1) else {
                return None;
            };
            let (g, _, ty) = self.member_param_fact(t, k, q)?;
            return Some((g, ty.to_owned(), conf.min(c)));
        }
        let name = format!("{prefix}{at}");
        let (g, _, ty) = self.types.param_facts.get(&(id, name.as_str()))?;
        Some((*g, (*ty).to_owned(), conf))
    }

    /// What member `K` of type `T` says its parameter `Q` is (`member` = `T:K:Q`, a
    /// [`CALLBACK_MEMBER`] fact without its prefix).
    fn member_param(&self, fi: usize, member: &str, caller: Option<usize>, depth: usize) -> Ty {
        let Some((ty, k, q)) = nth_colon_from_end(member, 1)
            .and_then(|(tk, q)| tk.rsplit_once(':').map(|(t, k)| (t, k, q)))
        else {
            return Ty::Unknown;
        };
        let Ty::Class(t, conf) = self.type_of(fi, ty, caller, depth + 1) else {
            return Ty::Unknown;
        };
        match self.member_param_fact(t, k, q) {
            // Read in the member's scope: `<T extends LexicalNode>(node: T) => ...`.
            Some((g, f, declared)) => lower(
                self.type_of(g, declared, Some(f), depth + 1),
                conf.min(INFERRED),
            ),
            None => Ty::Unknown,
        }
    }

    /// The declared type of parameter `q` of member `k` of class `t` ([`PARAM_TYPE`]): (file,
    /// the member's symbol index, type text).
    fn member_param_fact(&self, t: i64, k: &str, q: &str) -> Option<(usize, usize, &str)> {
        let m = self.member(t, k, 0)?;
        let param = format!("{PARAM_TYPE}{q}");
        self.types.param_facts.get(&(m, param.as_str())).copied()
    }

    /// A guard held in a variable (`var isMap = make() as (x: any) => x is ObservableMap`,
    /// here or imported): what it says of its argument; `guarded` is `NAME:P`.
    fn held_guard(&self, fi: usize, guarded: &str, caller: Option<usize>, depth: usize) -> Ty {
        let Some((name, at)) = guarded.rsplit_once(':') else {
            return Ty::Unknown;
        };
        let held = match self.local_fact(fi, caller, name) {
            Some(held) => Some((fi, held)),
            None => self.module_value(fi, name),
        };
        let says = held.and_then(|(g, held)| {
            let ty = held.strip_prefix(GUARD_PARAM)?.strip_prefix(at)?;
            Some((g, ty.strip_prefix(':')?))
        });
        match says {
            Some((g, ty)) => lower(self.type_of(g, ty, None, depth + 1), INFERRED),
            None => Ty::Unknown,
        }
    }

    /// What an element of container `recv` is (its `recv[]` fact), when `recv` is no class of
    /// ours: `m.get(k)` of a `Map<K, V>`, `a.pop()`, `d.get(k)` of a `dict[str, T]`.
    fn element_of(&self, fi: usize, recv: &str, caller: Option<usize>, depth: usize) -> Option<Ty> {
        let ty = self.type_of(fi, &format!("{recv}{INDEXED}"), caller, depth + 1);
        if !matches!(ty, Ty::Class(..) | Ty::Union(..)) {
            return None;
        }
        match self.type_of(fi, recv, caller, depth + 1) {
            Ty::Class(..) | Ty::Union(..) => None,
            _ => Some(lower(ty, INFERRED)),
        }
    }

    /// `items.forEach((item) => ...)`: the first parameter of the function a container's
    /// iteration method takes first is an element; `arg` is a [`CALLBACK_ARG`] fact without
    /// its prefix.
    fn element_callback(&self, fi: usize, arg: &str, caller: Option<usize>, depth: usize) -> Ty {
        let Some((callee, "0:0")) = nth_colon_from_end(arg, 2) else {
            return Ty::Unknown;
        };
        match callee.rsplit_once('.') {
            Some((recv, method)) if builtins::ELEMENT_CALLBACKS.contains(&method) => self
                .element_of(fi, recv, caller, depth)
                .unwrap_or(Ty::Unknown),
            _ => Ty::Unknown,
        }
    }

    /// What the constructions of a class pass as one parameter of its `__init__`: `arg` is an
    /// [`ARG_TYPE`] fact of file `fi` without its prefix (`INIT:N:NAME`). The classes the
    /// argument is at every `Cls(...)` that resolves to the class, each typed in its caller's
    /// scope. Subclasses' constructions are not read.
    fn arg_type(&self, fi: usize, arg: &str) -> Ty {
        let mut parts = arg.splitn(3, ':');
        let (Some(Ok(init)), Some(Ok(position)), Some(name)) = (
            parts.next().map(str::parse::<usize>),
            parts.next().map(str::parse::<u32>),
            parts.next(),
        ) else {
            return Ty::Unknown;
        };
        let syms = &self.sources[fi].parse.symbols;
        let Some(class) = syms
            .get(init)
            .and_then(|s| s.parent)
            .filter(|c| syms[*c].kind == SymKind::Class)
        else {
            return Ty::Unknown;
        };
        let Some(sites) = self.types.constructed.get(syms[class].name.as_str()) else {
            return Ty::Unknown;
        };
        let node_of = &self.symbols.sym_node_of[fi];
        let (class, init) = (node_of[class], node_of[init]);
        let passed = |slot: &ArgSlot| match slot {
            ArgSlot::Position(p) => *p == position,
            ArgSlot::Keyword(k) => k == name,
        };
        self.nested(|| {
            self.memoized(&self.types.arg_memo, (init, position), || {
                let mut tys = Vec::new();
                for &(cf, k) in sites {
                    let c = &self.sources[cf].parse.constructions[k];
                    let Some((_, value)) = c.args.iter().find(|(slot, _)| passed(slot)) else {
                        continue;
                    };
                    match self.resolve_ref(cf, &c.callee, c.caller, 0) {
                        Target::Found(id, _) if id == class => {}
                        _ => continue,
                    }
                    tys.push(self.type_of(cf, value, c.caller, 0));
                }
                lower(self.types.union(tys), INFERRED)
            })
        })
    }

    /// What a call's callee or a used name (`f`, `t.close`, `self.x.m`, `super().m`,
    /// `mod.Cls.from_x`, `Cls().decode`) is, in file `fi` inside `caller`.
    pub(super) fn resolve_ref(
        &self,
        fi: usize,
        key: &str,
        caller: Option<usize>,
        depth: usize,
    ) -> Target {
        if depth > MAX_DEPTH {
            self.types.partial.set(true);
            return Target::Unknown;
        }
        if let Some(name) = key.strip_prefix("super().")
            && !name.contains('.')
        {
            let Some(c) = self.enclosing_class(fi, caller) else {
                return Target::Unknown;
            };
            let found = self
                .types
                .bases
                .get(&c)
                .and_then(|bases| bases.iter().find_map(|b| self.member(*b, name, 1)));
            return match found {
                Some(id) => Target::Found(id, INFERRED),
                None => Target::Unknown,
            };
        }
        let Some((recv, name)) = key.rsplit_once('.') else {
            // In a class body, a name is first the class's own (`visit_If = visit_Name`).
            let syms = &self.sources[fi].parse.symbols;
            if let Some(c) = caller.filter(|c| syms[*c].kind == SymKind::Class)
                && let Some((id, _)) = self.lookup_in(fi, &format!("{}.{key}", syms[c].local_qname))
            {
                return Target::Found(id, 1.0);
            }
            return self.or_aliased(self.named(fi, key, caller), fi, key, caller, depth);
        };
        match self.type_of(fi, recv, caller, depth + 1) {
            Ty::Class(c, conf) => match self.member(c, name, 0) {
                Some(id) => Target::Found(id, conf),
                // A class answering any attribute (`__getattr__`, Django's `ConnectionProxy`)
                // says nothing about this one.
                None if self.answers_any(c) => self.untyped_ref(fi, key, caller),
                None if builtins::is_ecmascript(self.sources[fi].lang) => {
                    match self.held_callable(c, name, depth) {
                        Some((id, held)) => Target::Found(id, conf.min(held)),
                        None => Target::Known,
                    }
                }
                None => Target::Known,
            },
            Ty::Union(u, conf) => {
                let mut ids = Vec::new();
                for c in self.types.list(u) {
                    if let Some(id) = self.member(c, name, 0)
                        && !ids.contains(&id)
                    {
                        ids.push(id);
                    }
                }
                let dynamic = || self.types.list(u).iter().any(|c| self.answers_any(*c));
                match self.types.gather(ids, conf) {
                    Some(Ok((id, c))) => Target::Found(id, c),
                    Some(Err((u, c))) => Target::Many(u, c),
                    None if dynamic() => self.untyped_ref(fi, key, caller),
                    None => Target::Known,
                }
            }
            Ty::External => Target::Known,
            Ty::Unknown => {
                let found = self.untyped_ref(fi, key, caller);
                self.or_aliased(found, fi, key, caller, depth)
            }
        }
    }

    /// A call of `key`: what [`Self::resolve_ref`] finds, or in Python what an attribute of a
    /// typed receiver holds by name ([`Self::held_callable`]). Only for a call: read as a value,
    /// an attribute annotated with a class (`self.md = md`, `md: MarkdownIt`) holds an
    /// instance, not the class.
    pub(super) fn resolve_call(
        &self,
        fi: usize,
        key: &str,
        caller: Option<usize>,
        depth: usize,
    ) -> Target {
        let found = self.resolve_ref(fi, key, caller, depth);
        if found != Target::Known || builtins::is_ecmascript(self.sources[fi].lang) {
            return found;
        }
        let Some((recv, name)) = key
            .rsplit_once('.')
            .filter(|(_, name)| self.types.attr_names.contains(name))
        else {
            return found;
        };
        match self.type_of(fi, recv, caller, depth + 1) {
            Ty::Class(c, conf) => match self.held_callable(c, name, depth) {
                Some((id, held)) => Target::Found(id, conf.min(held)),
                None => found,
            },
            _ => found,
        }
    }

    /// What a field of class `c` holds by name, which a call of the field calls: a function
    /// (`static create = createZodEnum`), or in Python a class too (`storage_class =
    /// ds.Headers`, so `self.storage_class()` makes a `Headers`; TypeScript makes an instance
    /// with `new`). A class with a `__call__` is more often held as an instance
    /// (`self.background = background`, `background: BackgroundTask`): its `__call__` then.
    fn held_callable(&self, c: i64, field: &str, depth: usize) -> Option<(i64, f64)> {
        let Attr { file, ty: held, .. } = self.attr_fact(c, field, 0)?;
        if held.contains(['(', '[', ':', '|']) {
            return None;
        }
        let python = !builtins::is_ecmascript(self.sources[file].lang);
        match self.resolve_ref(file, held, None, depth + 1) {
            Target::Found(id, conf) if !self.types.is_class(id) => Some((id, conf.min(INFERRED))),
            Target::Found(id, conf) if python => {
                let call = self.member(id, super::CALL, 0);
                Some((call.unwrap_or(id), conf.min(INFERRED)))
            }
            _ => None,
        }
    }

    /// `found`, unless it says nothing (or only that `key` is a namespace's variable) and
    /// `key` is an alias ([`Self::aliased`]).
    fn or_aliased(
        &self,
        found: Target,
        fi: usize,
        key: &str,
        caller: Option<usize>,
        depth: usize,
    ) -> Target {
        match found {
            Target::Unknown => self.aliased(fi, key, caller, depth).unwrap_or(found),
            Target::Known if self.namespace_value(fi, key) => {
                self.aliased(fi, key, caller, depth).unwrap_or(found)
            }
            found => found,
        }
    }

    /// Whether class `c` (or a base) answers any attribute: `__getattr__`.
    fn answers_any(&self, c: i64) -> bool {
        self.member(c, super::GETATTR, 0).is_some()
    }

    /// `key` whose receiver's type says nothing: a name, unless a call's result is in it.
    fn untyped_ref(&self, fi: usize, key: &str, caller: Option<usize>) -> Target {
        if key.contains('(') {
            Target::Unknown
        } else {
            self.named(fi, key, caller)
        }
    }

    /// `key` resolved as a name (bound, imported, module attribute), else known to be
    /// external, else unknown.
    fn named(&self, fi: usize, key: &str, caller: Option<usize>) -> Target {
        match self.resolve_dotted(fi, key, caller) {
            Some((id, c)) => Target::Found(id, c),
            None if self.external_head(fi, key) || self.namespace_value(fi, key) => Target::Known,
            None => Target::Unknown,
        }
    }

    /// TypeScript/JavaScript: whether `key` is a member of a namespace import of the
    /// repository (`import * as parse from './parse'`), which holds exactly what its module
    /// exports: a member that is no function or class found there is a variable's value.
    fn namespace_value(&self, fi: usize, key: &str) -> bool {
        let head = key.split('.').next().unwrap_or(key);
        builtins::is_ecmascript(self.sources[fi].lang)
            && key.len() > head.len()
            && matches!(self.imports[fi].binds.get(head), Some(Bind::File(_)))
    }

    /// The methods a chain reads as attributes on its way, each with the confidence of its
    /// receiver's type: `self.expr` of `self.expr.doit()` and of `self.expr.free_symbols` (a
    /// property, read; the chain's own end is the call's or the use's).
    pub(super) fn chain_reads(
        &self,
        fi: usize,
        key: &str,
        caller: Option<usize>,
        mut read: impl FnMut(i64, f64),
    ) {
        let mut dots = key.match_indices('.').map(|(i, _)| i);
        let Some(mut at) = dots.next() else {
            return;
        };
        for next in dots {
            let (recv, attr) = (&key[..at], &key[at + 1..next]);
            at = next;
            if attr.contains(['(', '[']) {
                continue;
            }
            if let Ty::Class(c, conf) = self.type_of(fi, recv, caller, 0)
                && let Some(id) = self.member(c, attr, 0)
                && !self.types.is_class(id)
            {
                read(id, conf.min(INFERRED));
            }
        }
    }

    /// What a value use names: the name itself, else the class or function its longest
    /// resolvable prefix names (`Cls.CONSTANT` uses `Cls`).
    pub(super) fn resolve_use(
        &self,
        fi: usize,
        key: &str,
        caller: Option<usize>,
    ) -> Option<(i64, f64)> {
        let mut k = key;
        loop {
            // `poly.as_expr` on a local `poly` uses nothing named `poly`.
            if !k.contains('.') && self.typed_local(fi, caller, k) {
                return None;
            }
            match self.resolve_ref(fi, k, caller, 0) {
                Target::Found(id, c) => return Some((id, c)),
                // A use of one of several: the first (a use edge says "depends on", and a
                // call's edges are where every one matters).
                Target::Many(u, c) => return self.types.list(u).first().map(|id| (*id, c)),
                _ => {}
            }
            let (prefix, _) = k.rsplit_once('.')?;
            if prefix.ends_with(')') || matches!(prefix, "self" | "cls") {
                return None;
            }
            k = prefix;
        }
    }
}

/// The last name of a dotted one (`c` of `a.b.c`).
fn last_part(dotted: &str) -> &str {
    dotted.rsplit('.').next().unwrap_or(dotted)
}

/// `text` split at its `n`-th `:` from the end: `("f", "0:1")` of `f:0:1` with `n` = 2.
fn nth_colon_from_end(text: &str, n: usize) -> Option<(&str, &str)> {
    let mut at = text.len();
    for _ in 0..n {
        at = text[..at].rfind(':')?;
    }
    Some((&text[..at], &text[at + 1..]))
}

/// `ty` with its confidence lowered to at most `conf`.
fn lower(ty: Ty, conf: f64) -> Ty {
    match ty {
        Ty::Class(id, c) => Ty::Class(id, c.min(conf)),
        Ty::Union(u, c) => Ty::Union(u, c.min(conf)),
        other => other,
    }
}
