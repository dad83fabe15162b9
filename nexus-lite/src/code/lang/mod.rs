//! Language-independent parse results and the per-language dispatch.
//!
//! Every language module (`python`, `ecmascript`, `rust_lang`) turns one source file into a
//! [`FileParse`]; `index` links them into one graph with the same node and edge kinds.

pub mod ecmascript;
pub mod python;
pub mod rust_lang;

use serde::{Deserialize, Deserializer, Serialize};
use std::sync::LazyLock;
use tree_sitter::{Node, Parser, Tree};

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum SymKind {
    Class,
    Function,
    Method,
}

impl SymKind {
    pub fn as_str(self) -> &'static str {
        match self {
            SymKind::Class => "class",
            SymKind::Function => "function",
            SymKind::Method => "method",
        }
    }
}

#[derive(Debug, Clone, Serialize)]
pub struct Symbol {
    pub kind: SymKind,
    pub name: String,
    /// Dotted path inside the module, e.g. `Class.method`.
    pub local_qname: String,
    pub line: u32,
    pub end_line: u32,
    pub parent: Option<usize>,
    /// What the language calls it when that differs from `kind` (`struct`, `enum`, `trait`,
    /// `union` for Rust classes, `interface` for TypeScript's); `None` for Python/JS classes,
    /// functions and methods.
    pub detail: Option<&'static str>,
}

/// One binding created by an import statement.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Import {
    /// Python: module text without the leading dots (may be empty for `from . import x`).
    /// JS/TS: the specifier (`./x`, `react`). Rust: the `::` path (`crate::a::B`).
    pub module: String,
    /// Python: number of leading dots (0 = absolute). Always 0 for other languages.
    pub level: u32,
    /// The imported name (`*` for wildcard; JS `default` for a default import).
    pub name: Option<String>,
    /// Local name bound by the statement.
    pub alias: String,
    pub line: u32,
    /// Not executed at module load time (inside a function, `if TYPE_CHECKING:`, `import type`,
    /// dynamic `import()`, every Rust `use`): an `imports` edge that never makes a cycle.
    pub deferred: bool,
    /// Rust `mod x;`: the module file must exist.
    pub mod_decl: bool,
}

/// Stored as `[caller, callee, line]`: parse-cache rows hold many of them.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(
    from = "(Option<usize>, String, u32)",
    into = "(Option<usize>, String, u32)"
)]
pub struct Call {
    pub caller: Option<usize>,
    /// Dotted callee (`helper`, `self.run`, `mod.f`); Rust `::` paths are written with dots.
    pub callee: String,
    pub line: u32,
}

impl From<(Option<usize>, String, u32)> for Call {
    fn from((caller, callee, line): (Option<usize>, String, u32)) -> Call {
        Call {
            caller,
            callee,
            line,
        }
    }
}

impl From<Call> for (Option<usize>, String, u32) {
    fn from(c: Call) -> Self {
        (c.caller, c.callee, c.line)
    }
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Base {
    pub class: usize,
    pub base: String,
    pub line: u32,
}

/// Every `Symbol::detail` a language module produces (parse-cache rows are read back into
/// these static strings).
pub const SYMBOL_DETAILS: [&str; 6] =
    ["struct", "enum", "union", "trait", INTERFACE, FUNCTION_TYPE];

/// The [`Symbol::detail`] of a TypeScript interface: a class node whose members are
/// signatures, a shape other classes implement. An object type alias (`type P = { ... }`) is
/// one too.
pub const INTERFACE: &str = "interface";

/// The [`Symbol::detail`] of a TypeScript function type alias (`type F = (x: T) => R`): a
/// function node, so a value of that type, called, returns what the alias says.
pub const FUNCTION_TYPE: &str = "function type";

/// `Symbol` as stored, with `detail` as owned text.
#[derive(Deserialize)]
struct SymbolRepr {
    kind: SymKind,
    name: String,
    local_qname: String,
    line: u32,
    end_line: u32,
    parent: Option<usize>,
    detail: Option<String>,
}

impl<'de> Deserialize<'de> for Symbol {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let r = SymbolRepr::deserialize(d)?;
        let detail = match r.detail {
            None => None,
            Some(v) => Some(
                SYMBOL_DETAILS
                    .iter()
                    .find(|k| **k == v)
                    .copied()
                    .ok_or_else(|| {
                        serde::de::Error::custom(format!("unknown symbol detail `{v}`"))
                    })?,
            ),
        };
        Ok(Symbol {
            kind: r.kind,
            name: r.name,
            local_qname: r.local_qname,
            line: r.line,
            end_line: r.end_line,
            parent: r.parent,
            detail,
        })
    }
}

/// One file's parse result; serializable for the persistent parse cache (`cache.rs`).
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub struct FileParse {
    pub symbols: Vec<Symbol>,
    pub imports: Vec<Import>,
    pub calls: Vec<Call>,
    pub bases: Vec<Base>,
    /// First syntax error (line, message) when the tree has ERROR or MISSING nodes.
    pub parse_error: Option<(u32, String)>,
    pub error_nodes: u32,
    /// Python: the parameter names of test functions and fixtures (symbol index, name): pytest
    /// passes a fixture to every one of them that names it.
    #[serde(default)]
    pub params: Vec<(usize, String)>,
    /// Python: the functions decorated `@pytest.fixture` / `@fixture` (symbol indexes).
    #[serde(default)]
    pub fixtures: Vec<usize>,
    /// Python: the names a module-level `__all__ = [...]` (or `+= [...]`) lists, which is what
    /// a star import of the module binds; `None` without `__all__`.
    #[serde(default)]
    pub dunder_all: Option<Vec<String>>,
    /// Python: names read as values, not called (`{MSG: self.on_msg}`, `register(handler)`,
    /// `except Error`, annotations, `Cls.attr`), one per (enclosing symbol, name).
    #[serde(default)]
    pub uses: Vec<Call>,
    /// Python: what a local name or attribute holds, for typing receivers.
    #[serde(default)]
    pub types: Vec<TypeFact>,
    /// Python: the return annotation of a function (symbol index, type text).
    #[serde(default)]
    pub returns: Vec<(usize, String)>,
    /// Python: what a function without a return annotation returns (symbol index, an
    /// expression key read in the function's scope: `Cls()`, `cls()`, `self`, `self.x`, a
    /// typed local); the first few `return` statements.
    #[serde(default)]
    pub returned: Vec<(usize, String)>,
    /// Python: constructs that reach code without naming it (line, kind).
    #[serde(default)]
    pub dynamic: Vec<(u32, Dynamic)>,
    /// Python: fixtures named by `@pytest.mark.usefixtures("name")` (symbol index, name).
    #[serde(default)]
    pub fixture_marks: Vec<(usize, String)>,
    /// Python: classes constructed with arguments whose values can be typed, sorted, once
    /// each: what callers pass types an `__init__`'s parameters ([`ARG_TYPE`]).
    #[serde(default)]
    pub constructions: Vec<Construction>,
    /// Module-level names bound to another name (name, the name or attribute chain it holds):
    /// `_af_new = Permutation._af_new`, TS `const stringType = ZodString.create` and
    /// `export { stringType as string }`. A call of the name calls what it holds.
    #[serde(default)]
    pub aliases: Vec<(String, String)>,
    /// TypeScript/JavaScript: the functions a call on a receiver may reach by name (symbol
    /// indexes, ascending): an object literal's methods (`{ load() {} }`) and a namespace's
    /// functions. A function declared by name elsewhere is reached so only once put in an
    /// object ([`Self::placed`]).
    #[serde(default)]
    pub members: Vec<usize>,
    /// TypeScript/JavaScript: names put in an object literal (`{ isString }`, `{ k: isString
    /// }`) or assigned to a property (`exports.f = f`).
    #[serde(default)]
    pub placed: Vec<String>,
    /// Rust: the methods of `impl Trait for Type` blocks (symbol index, the trait as written,
    /// `.`-joined): a call of one is a use of the trait's method too.
    #[serde(default)]
    pub implemented: Vec<(usize, String)>,
}

/// `AuthHandler(self)`: a call of a class-like name (CamelCase) with the arguments whose value
/// can be typed, each as an expression key or fact text read in the caller's scope.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub struct Construction {
    pub caller: Option<usize>,
    /// The callee as written (`AuthHandler`, `auth_handler.AuthHandler`).
    pub callee: String,
    pub args: Vec<(ArgSlot, String)>,
}

impl Construction {
    /// The class named, as its definition names it (`AuthHandler` of `auth.AuthHandler`).
    pub fn class_name(&self) -> &str {
        Construction::class_of(&self.callee)
    }

    /// The class a callee as written names (see [`Construction::class_name`]).
    pub fn class_of(callee: &str) -> &str {
        callee.rsplit('.').next().unwrap_or(callee)
    }
}

/// Where an argument goes: the n-th positional argument, or a keyword.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub enum ArgSlot {
    Position(u32),
    Keyword(String),
}

/// Prefix of the fact of an unannotated `__init__` parameter (Python): `arg:INIT:N:NAME` is
/// what callers pass as positional argument `N` or keyword `NAME` to the class whose
/// `__init__` is symbol `INIT` of the same file, read from every [`Construction`] of it.
pub const ARG_TYPE: &str = "arg:";

/// What a name holds: `name` is a local (`t`) in `scope`, or an attribute (`self.x`) of the
/// class `scope`; `ty` is a type (`pkg.Transport`) or a call's result (`make()`). Stored as
/// `[scope, name, ty]`.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(
    from = "(Option<usize>, String, String)",
    into = "(Option<usize>, String, String)"
)]
pub struct TypeFact {
    pub scope: Option<usize>,
    pub name: String,
    pub ty: String,
}

/// Name of the fact typing a callback's parameter (TypeScript): `cb:P:Q` in the scope of a
/// function is the type of parameter `Q` of the function its parameter `P` takes
/// (`operate(init: (source: Observable<T>, subscriber: Subscriber<R>) => ...)`).
pub const CALLBACK_PARAM: &str = "cb:";

/// Prefix of the fact of an unannotated parameter of a function passed as an argument
/// (TypeScript): `cbarg:CALLEE:A:Q` is parameter `Q` of argument `A` of a call of `CALLEE`,
/// typed by the [`CALLBACK_PARAM`] fact of what `CALLEE` resolves to (a class: its
/// constructor). `cbarg:CALLEE:A.K:Q`: parameter `Q` of the function at property `K` of an
/// object literal passed as argument `A` (`configureStore({ middleware: (gDM) => ... })`),
/// typed by member `K` of the type of `CALLEE`'s parameter `A` ([`PARAM_TYPE`]).
pub const CALLBACK_ARG: &str = "cbarg:";

/// Prefix of the fact of an unannotated parameter of a function at a property of an object
/// literal of a declared type (TypeScript): `cbmember:T:K:Q` is parameter `Q` of the function
/// at property `K` (`const config: T = { K: (q) => ... }`), typed by member `K` of `T`
/// ([`PARAM_TYPE`]).
pub const CALLBACK_MEMBER: &str = "cbmember:";

/// Name of the fact of a parameter's declared type by position (TypeScript): `param:P` in the
/// scope of a function or an interface's member is the type of its parameter `P`. (A colon:
/// no local's name.)
pub const PARAM_TYPE: &str = "param:";

/// Name of the fact of a type guard (TypeScript): `is:P` in the scope of a function whose
/// return annotation is `x is T` (`x` its parameter `P`) is `T`. A variable holding a guard
/// (`var isMap = make() as (x: any) => x is ObservableMap`) holds `is:P:T`.
pub const GUARD_PARAM: &str = "is:";

/// Name of the fact of what an element of the container a function returns is (TypeScript):
/// `ret:[]` in the scope of `getAll(): Array<Query>` is `Query`, so `this.getAll()[0]` and
/// `this.getAll().forEach((q) => ...)` are typed. (A colon: no local's name.)
pub const RETURN_ELEMENT: &str = "ret:[]";

/// Suffix of the fact naming what indexing a container gives (`self.tags[key]`, a
/// `Map`'s `get(key)`).
pub const INDEXED: &str = "[]";
/// Suffix of the fact naming what iterating a container gives (`for tag in self.order`).
pub const ITERATED: &str = "[*]";

/// Prefix of a receiver narrowed by a type guard (TypeScript): inside `if (isMap(obj)) {...}`,
/// `obj.has(k)` is recorded as `guard:isMap:0:obj.has` (the guard's name, the argument's
/// position, the name narrowed), typed by the guard's [`GUARD_PARAM`] fact, else as the name.
pub const GUARDED: &str = "guard:";

/// Prefix of a type read from a docstring (`doc:requests.Response`, Python): resolved as a name
/// in the file, else as an absolute module path, else as the one class of that name, and never
/// as more than `inferred`.
pub const DOC_TYPE: &str = "doc:";

impl From<(Option<usize>, String, String)> for TypeFact {
    fn from((scope, name, ty): (Option<usize>, String, String)) -> TypeFact {
        TypeFact { scope, name, ty }
    }
}

impl From<TypeFact> for (Option<usize>, String, String) {
    fn from(f: TypeFact) -> Self {
        (f.scope, f.name, f.ty)
    }
}

/// A construct that can reach code without a visible edge.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Dynamic {
    /// `getattr`/`setattr` with a computed name.
    Getattr,
    /// `importlib.import_module(...)`, `__import__(...)`.
    Import,
    /// `globals()`, `locals()`.
    Globals,
}

impl Dynamic {
    pub fn as_str(self) -> &'static str {
        match self {
            Dynamic::Getattr => "getattr",
            Dynamic::Import => "import",
            Dynamic::Globals => "globals",
        }
    }
}

/// A parsed language, chosen by file extension.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Lang {
    Python,
    TypeScript,
    Tsx,
    JavaScript,
    Rust,
}

impl Lang {
    pub const ALL: [Lang; 5] = [
        Lang::Python,
        Lang::TypeScript,
        Lang::Tsx,
        Lang::JavaScript,
        Lang::Rust,
    ];

    pub fn from_path(path: &str) -> Option<Lang> {
        let name = path.rsplit('/').next().unwrap_or(path);
        let ext = name.rsplit_once('.').map(|(_, e)| e)?;
        Some(match ext {
            "py" => Lang::Python,
            "ts" | "mts" | "cts" => Lang::TypeScript,
            "tsx" => Lang::Tsx,
            "js" | "jsx" | "mjs" | "cjs" => Lang::JavaScript,
            "rs" => Lang::Rust,
            _ => return None,
        })
    }

    /// The `language` reported for files and nodes (`.tsx` files are `typescript`).
    pub fn name(self) -> &'static str {
        match self {
            Lang::Python => "python",
            Lang::TypeScript | Lang::Tsx => "typescript",
            Lang::JavaScript => "javascript",
            Lang::Rust => "rust",
        }
    }

    /// The grammar a file is parsed with (parse-cache key: `.ts` and `.tsx` differ).
    pub fn grammar_name(self) -> &'static str {
        match self {
            Lang::Python => "python",
            Lang::TypeScript => "typescript",
            Lang::Tsx => "tsx",
            Lang::JavaScript => "javascript",
            Lang::Rust => "rust",
        }
    }

    /// The tree-sitter grammar a file is parsed with; `None` for Python, which Ruff's parser
    /// reads.
    fn grammar(self) -> Option<tree_sitter::Language> {
        Some(match self {
            Lang::Python => return None,
            Lang::TypeScript => tree_sitter_typescript::LANGUAGE_TYPESCRIPT.into(),
            Lang::Tsx => tree_sitter_typescript::LANGUAGE_TSX.into(),
            Lang::JavaScript => tree_sitter_javascript::LANGUAGE.into(),
            Lang::Rust => tree_sitter_rust::LANGUAGE.into(),
        })
    }

    fn index(self) -> usize {
        match self {
            Lang::Python => 0,
            Lang::TypeScript => 1,
            Lang::Tsx => 2,
            Lang::JavaScript => 3,
            Lang::Rust => 4,
        }
    }
}

/// Creates a tree-sitter parser for one language (none for Python: see [`Lang::grammar`]).
pub fn parser(lang: Lang) -> Result<Parser, String> {
    let grammar = lang
        .grammar()
        .ok_or_else(|| format!("{lang:?} is not parsed with tree-sitter"))?;
    let mut parser = Parser::new();
    parser.set_language(&grammar).map_err(|e| {
        format!("the tree-sitter grammar for {lang:?} is incompatible with tree-sitter: {e}")
    })?;
    Ok(parser)
}

/// Parses `src` as `lang` and drops the tree: the parser's own cost, without any walk.
pub fn parse_only(lang: Lang, src: &[u8]) -> Result<(), String> {
    if lang == Lang::Python {
        drop(python::syntax(&String::from_utf8_lossy(src)));
        return Ok(());
    }
    drop(parse_tree(&mut parser(lang)?, src)?);
    Ok(())
}

/// A grammar's node kind and field names by id, read once. tree-sitter's `Node::kind`
/// measures and UTF-8-checks a C string on every call, and `child_by_field_name` compares the
/// name with each field's by `strncmp`: together about a quarter of a walker's time on a
/// million lines. The walkers ask through [`kind`] and [`field`].
struct Names {
    grammar: tree_sitter::Language,
    kinds: Vec<String>,
    /// Field name -> id (a walker asks [`field`] for several fields of most nodes).
    field_ids: rustc_hash::FxHashMap<String, u16>,
}

impl Names {
    fn new(grammar: tree_sitter::Language) -> Self {
        let name = |n: Option<&str>| n.unwrap_or_default().to_string();
        let ids = |n: usize| (0..=n).map_while(|id| u16::try_from(id).ok());
        let field_ids = ids(grammar.field_count())
            .skip(1)
            .map(|id| (name(grammar.field_name_for_id(id)), id))
            .collect();
        Names {
            kinds: ids(grammar.node_kind_count())
                .map(|id| name(grammar.node_kind_for_id(id)))
                .collect(),
            field_ids,
            grammar,
        }
    }

    /// The names of `node`'s grammar (one of [`Lang::ALL`]'s).
    fn of(node: Node<'_>) -> Option<&'static Names> {
        static ALL: LazyLock<Vec<Names>> = LazyLock::new(|| {
            Lang::ALL
                .iter()
                .filter_map(|l| l.grammar())
                .map(Names::new)
                .collect()
        });
        let grammar = node.language();
        ALL.iter().find(|n| n.grammar == *grammar)
    }
}

/// `node.kind()` (empty for a node of a grammar not in [`Lang::ALL`], which none is).
pub(crate) fn kind(node: Node<'_>) -> &'static str {
    Names::of(node)
        .and_then(|n| n.kinds.get(usize::from(node.kind_id())))
        .map_or("", String::as_str)
}

/// `node.child_by_field_name(name)`.
pub(crate) fn field<'t>(node: Node<'t>, name: &str) -> Option<Node<'t>> {
    let id = *Names::of(node)?.field_ids.get(name)?;
    node.child_by_field_id(id)
}

/// Blocks of a file walked in source order (`if` branches, callbacks, narrowed blocks), each
/// held until the walk passes its end byte: blocks nest, so they are a stack.
pub(crate) struct OpenBlocks<T> {
    open: Vec<(usize, T)>,
}

impl<T> Default for OpenBlocks<T> {
    fn default() -> Self {
        OpenBlocks { open: Vec::new() }
    }
}

impl<T> OpenBlocks<T> {
    /// Drops the blocks that end at or before byte `at` (nothing before it is walked again).
    pub(crate) fn close_before(&mut self, at: usize) {
        while self.open.last().is_some_and(|(end, _)| *end <= at) {
            self.open.pop();
        }
    }

    /// A block ending at byte `end`, inside those open.
    pub(crate) fn push(&mut self, end: usize, block: T) {
        self.open.push((end, block));
    }

    /// The blocks open, outermost first.
    pub(crate) fn iter(&self) -> impl DoubleEndedIterator<Item = &T> {
        self.open.iter().map(|(_, b)| b)
    }
}

/// One lazily created tree-sitter parser per language (a parser is not shareable between
/// threads).
#[derive(Default)]
pub struct Parsers {
    slots: [Option<Parser>; 5],
}

impl Parsers {
    /// Parses `src` as `lang`.
    pub fn parse(&mut self, lang: Lang, src: &[u8]) -> Result<FileParse, String> {
        let walk = match lang {
            Lang::Python => return Ok(crate::code::lang::python::parse(src)),
            Lang::TypeScript | Lang::Tsx | Lang::JavaScript => crate::code::lang::ecmascript::parse,
            Lang::Rust => crate::code::lang::rust_lang::parse,
        };
        let slot = &mut self.slots[lang.index()];
        let parser = match slot {
            Some(p) => p,
            None => slot.insert(parser(lang)?),
        };
        walk(parser, src)
    }
}

/// How many `return` values of one function are kept (the link types them in its scope).
const MAX_RETURNED: usize = 4;

impl FileParse {
    /// The interface ([`INTERFACE`]) `sym` is a member of, by index.
    pub(crate) fn interface_of(&self, sym: &Symbol) -> Option<usize> {
        sym.parent.filter(|q| {
            self.symbols
                .get(*q)
                .is_some_and(|q| q.detail == Some(INTERFACE))
        })
    }

    /// The function a `return` in `scope` gives one more kept value to: a function (not a class
    /// body) without a return annotation (a docstring's may name nothing found) and with fewer
    /// than [`MAX_RETURNED`] values kept.
    pub(crate) fn keeps_returned(&self, scope: Option<usize>) -> Option<usize> {
        let f = scope.filter(|s| self.symbols[*s].kind != SymKind::Class)?;
        let annotated = self
            .returns
            .iter()
            .any(|(i, t)| *i == f && !t.starts_with(DOC_TYPE));
        let kept = self.returned.iter().filter(|(i, _)| *i == f).count();
        (!annotated && kept < MAX_RETURNED).then_some(f)
    }

    /// Keeps `key` as a value function `f` returns (`f` from [`Self::keeps_returned`]): an
    /// element of a container (`items[]`) only where this file says what the container holds,
    /// so that an element of unknown type does not take the place of a value that types `f`.
    pub(crate) fn keep_returned(&mut self, f: usize, key: String) {
        if !key.ends_with(INDEXED) || self.types.iter().any(|t| t.name == key) {
            self.returned.push((f, key));
        }
    }

    /// The facts of what indexing (`name[]`) and iterating (`name[*]`) container `name` of
    /// `scope` give, where known.
    pub(crate) fn element_facts(
        &mut self,
        scope: Option<usize>,
        name: &str,
        (indexed, iterated): (Option<String>, Option<String>),
    ) {
        for (suffix, ty) in [(INDEXED, indexed), (ITERATED, iterated)] {
            if let Some(ty) = ty {
                self.types.push(TypeFact {
                    scope,
                    name: format!("{name}{suffix}"),
                    ty,
                });
            }
        }
    }

    /// Records a call from `caller` (a symbol index, None at module level) made at `node`.
    pub(crate) fn push_call(&mut self, caller: Option<usize>, callee: String, node: Node<'_>) {
        self.calls.push(Call {
            caller,
            callee,
            line: line_of(node),
        });
    }
}

/// Runs `parser` over `src`; every language walker starts here.
pub(crate) fn parse_tree(parser: &mut Parser, src: &[u8]) -> Result<Tree, String> {
    parser
        .parse(src, None)
        .ok_or_else(|| "tree-sitter returned no tree (parse cancelled)".to_string())
}

/// The children of `node`, last first: pushed on a walker's stack they come off in source order.
pub(crate) fn children_rev<'t>(node: Node<'t>) -> impl Iterator<Item = Node<'t>> {
    let mut c = node.walk();
    let children: Vec<Node<'t>> = node.children(&mut c).collect();
    children.into_iter().rev()
}

/// True when `scope` is inside a function or method (any enclosing symbol is not a class).
pub(crate) fn in_function(out: &FileParse, scope: Option<usize>) -> bool {
    let mut cur = scope;
    while let Some(i) = cur {
        if out.symbols[i].kind != SymKind::Class {
            return true;
        }
        cur = out.symbols[i].parent;
    }
    false
}

/// Pushes a symbol named `name` under `scope` (qualified `outer.name`) and returns its index.
pub(crate) fn push_symbol(
    out: &mut FileParse,
    node: Node<'_>,
    name: &str,
    kind: SymKind,
    scope: Option<usize>,
) -> usize {
    let sym = new_symbol(out, name, kind, scope, line_of(node), end_line_of(node));
    out.symbols.push(sym);
    out.symbols.len() - 1
}

/// A symbol named `name` under `scope` (qualified `outer.name`), spanning lines `line` to
/// `end_line`.
pub(crate) fn new_symbol(
    out: &FileParse,
    name: &str,
    kind: SymKind,
    scope: Option<usize>,
    line: u32,
    end_line: u32,
) -> Symbol {
    let local_qname = match scope {
        Some(i) => format!("{}.{}", out.symbols[i].local_qname, name),
        None => name.to_string(),
    };
    Symbol {
        kind,
        name: name.to_string(),
        local_qname,
        line,
        end_line,
        parent: scope,
        detail: None,
    }
}

pub(crate) fn text<'a>(node: Node<'_>, src: &'a [u8]) -> &'a str {
    node.utf8_text(src).unwrap_or("")
}

pub(crate) fn line_of(node: Node<'_>) -> u32 {
    node.start_position().row as u32 + 1
}

pub(crate) fn end_line_of(node: Node<'_>) -> u32 {
    node.end_position().row as u32 + 1
}

/// Records the first ERROR/MISSING node of a tree in `out`.
pub(crate) fn note_error(out: &mut FileParse, node: Node<'_>, src: &[u8]) {
    if !(node.is_error() || node.is_missing()) {
        return;
    }
    out.error_nodes += 1;
    if out.parse_error.is_none() {
        let msg = if node.is_missing() {
            format!("syntax error: missing `{}`", node.kind())
        } else {
            let snippet: String = text(node, src).chars().take(40).collect();
            format!("syntax error near `{}`", snippet.trim())
        };
        out.parse_error = Some((line_of(node), msg));
    }
}

/// A callee text worth resolving: short, one line, no calls or indexing inside.
pub(crate) fn plain_callee(callee: &str) -> bool {
    !callee.is_empty() && callee.len() < 200 && !callee.contains(['(', '[', '\n', ' ', '<'])
}

/// Routes tree-sitter's C allocations to mimalloc, the binaries' global allocator.
///
/// # Safety
/// Call it first in `main`, before any parser or tree exists: a block allocated by one
/// allocator must not be freed by the other.
pub unsafe fn parsers_use_mimalloc() {
    use libmimalloc_sys::{mi_calloc, mi_free, mi_malloc, mi_realloc};
    let alloc = tree_sitter::Allocator {
        malloc: mi_malloc,
        calloc: mi_calloc,
        realloc: mi_realloc,
        free: mi_free,
    };
    // SAFETY: one allocator family, null only when out of memory (as libc's), called before
    // any tree-sitter object exists (the caller's contract).
    unsafe { tree_sitter::set_allocator(Some(alloc)) };
}
