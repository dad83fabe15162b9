//! Python facts for receiver typing and value uses: what a name holds (`t = Transport()`,
//! `t: Transport`, `self.x = Cls()`), return annotations, which names are read as values,
//! dynamic constructs, and pytest `usefixtures` marks.

use ruff_python_ast::{self as ast, ArgOrKeyword, BoolOp, Expr, Operator};
use ruff_text_size::{Ranged, TextRange, TextSize};
use rustc_hash::FxHashMap;
use std::collections::HashSet;

use super::Src;
use crate::code::lang::{
    ARG_TYPE, ArgSlot, Call, Construction, Dynamic, FileParse, INDEXED, ITERATED, OpenBlocks,
    SymKind, TypeFact,
};

/// The longest key [`expr_key`] builds.
const MAX_KEY: usize = 200;

/// A name chain with call results marked `()`: `a.b`, `make().close`, `Cls().decode`,
/// `super().run`, `x[k]` as `x[]`; `None` for anything else (literals, operators).
pub(super) fn expr_key(e: &Expr, src: &Src<'_>) -> Option<String> {
    super::deep(|| key_of(e, src))
}

fn key_of(e: &Expr, src: &Src<'_>) -> Option<String> {
    let key = match e {
        Expr::Name(n) => src.of(n).to_string(),
        Expr::Attribute(a) => return attribute_key(a, src),
        Expr::Call(c) => {
            // `Ruler[T]()`: a generic class instantiated with its parameter.
            let f = match &*c.func {
                Expr::Subscript(s) if names_class(&s.value, src) => &*s.value,
                f => f,
            };
            format!("{}()", expr_key(f, src)?)
        }
        // `self.tags[key]`: an element of a container, typed by its annotation (see
        // [`container_elements`]).
        Expr::Subscript(s) => format!("{}{INDEXED}", expr_key(&s.value, src)?),
        _ => return None,
    };
    checked_key(key)
}

/// [`expr_key`] of `a.b`.
pub(super) fn attribute_key(a: &ast::ExprAttribute, src: &Src<'_>) -> Option<String> {
    checked_key(format!("{}.{}", expr_key(&a.value, src)?, src.of(&a.attr)))
}

fn checked_key(key: String) -> Option<String> {
    (key.len() < MAX_KEY && !key.contains(['\n', ' '])).then_some(key)
}

/// A string literal of one part (`"a"`, `b"a"`, `f"{a}"`; not `"a" "b"`).
pub(super) fn is_string(e: &Expr) -> bool {
    match e {
        Expr::StringLiteral(s) => !s.value.is_implicit_concatenated(),
        Expr::BytesLiteral(b) => !b.value.is_implicit_concatenated(),
        Expr::FString(f) => !f.value.is_implicit_concatenated(),
        Expr::TString(t) => !t.value.is_implicit_concatenated(),
        _ => false,
    }
}

/// Special forms whose first argument is the annotated type (`ClassVar[T]`, `Final[T]`,
/// `Annotated[T, ...]`), and `type[T]`: the class itself, which a fact names the same way
/// (`storage_class: type[MultiDict]`, then `self.storage_class()` makes one).
const WRAPPERS: &[&str] = &[
    "Annotated",
    "ClassVar",
    "Final",
    "NotRequired",
    "ReadOnly",
    "Required",
    "Type",
    "type",
];

/// The generic names of `typing` and `collections.abc` (and builtins' capitalised aliases):
/// a subscript of one is a container, a callable or a special form, never a class of the
/// repository. Containers' elements are [`container_elements`]'.
const STANDARD_GENERICS: &[&str] = &[
    "AbstractAsyncContextManager",
    "AbstractContextManager",
    "AbstractSet",
    "AsyncContextManager",
    "AsyncGenerator",
    "AsyncIterable",
    "AsyncIterator",
    "Awaitable",
    "Callable",
    "ChainMap",
    "Collection",
    "Concatenate",
    "Container",
    "ContextManager",
    "Coroutine",
    "Counter",
    "DefaultDict",
    "Deque",
    "Dict",
    "FrozenSet",
    "Generator",
    "Generic",
    "IO",
    "ItemsView",
    "Iterable",
    "Iterator",
    "KeysView",
    "List",
    "Literal",
    "Mapping",
    "MappingView",
    "Match",
    "MutableMapping",
    "MutableSequence",
    "MutableSet",
    "OrderedDict",
    "Pattern",
    "Protocol",
    "Reversible",
    "Sequence",
    "Set",
    "Tuple",
    "TypeGuard",
    "TypeIs",
    "Unpack",
    "ValuesView",
];

/// The class an annotation names: `Transport`, `mod.Transport`, `"Transport"`,
/// `Optional[T]`, `T | None`, `Union[T, None]`, a generic class of the repository
/// (`Convertor[Any]`), `ClassVar[T]`; the classes of a union (`A | B`, as `A|B`); `None` for
/// containers and anything else. `in_type`: `e` is an annotation or a type argument of a
/// generic named by a plain name (`Union[A, B]`), whose arguments are all read; of a subscript
/// of a dotted name in an expression (`typing.Union[A, B]`) only the first is.
pub(super) fn annotation(e: &Expr, src: &Src<'_>, in_type: bool) -> Option<String> {
    super::deep(|| class_annotated(e, src, in_type))
}

fn class_annotated(e: &Expr, src: &Src<'_>, in_type: bool) -> Option<String> {
    match e {
        Expr::Name(_) | Expr::Attribute(_) => {
            let k = expr_key(e, src)?;
            (!k.contains('(') && k != "None").then_some(k)
        }
        e if is_string(e) => {
            let t = src.of(e).trim_matches(['"', '\'']).trim();
            let t = t.strip_suffix(" | None").unwrap_or(t);
            plain_dotted(t).then(|| t.to_string())
        }
        // `T | None`, `A | B`.
        Expr::BinOp(b) if b.op == Operator::BitOr => union(&[&b.left, &b.right], src, false),
        Expr::Subscript(s) => {
            let last = src.of(&*s.value).rsplit('.').next().unwrap_or("");
            let wraps = matches!(last, "Optional" | "Union") || WRAPPERS.contains(&last);
            if !wraps {
                // A generic class of the repository (`Convertor[Any]`): an instance of it.
                // The standard library's generics are containers, callables or special
                // forms, no class here.
                return (class_like(last) && !STANDARD_GENERICS.contains(&last))
                    .then(|| expr_key(&s.value, src))
                    .flatten();
            }
            let (args, generic) = type_args(s, in_type);
            let named: Vec<&Expr> = if generic {
                args.into_iter().filter(|a| src.of(*a) != "None").collect()
            } else {
                args
            };
            match named.as_slice() {
                [only] => annotation(only, src, generic),
                // `Annotated[T, meta]`: what it annotates.
                [first, ..] if WRAPPERS.contains(&last) => annotation(first, src, generic),
                several => union(several, src, generic),
            }
        }
        _ => None,
    }
}

/// The type arguments of subscript `s`, and whether they are read as types: all of a generic
/// named by a plain name in a type (`Dict[K, V]`), else the first (`typing.Dict[K, V]`).
fn type_args(s: &ast::ExprSubscript, in_type: bool) -> (Vec<&Expr>, bool) {
    let generic = in_type && matches!(&*s.value, Expr::Name(_));
    let all: Vec<&Expr> = match &*s.slice {
        Expr::Tuple(t) if !t.parenthesized => t.elts.iter().collect(),
        one => vec![one],
    };
    if generic {
        (all, true)
    } else {
        (all.into_iter().take(1).collect(), false)
    }
}

/// The classes a union annotation names (`A | B | None`, `Union[A, B]`) as a union fact
/// (`A|B`): a value of it is one of them. A part naming no class (`None`, `list[int]`) is
/// left out, as the external ones are when the fact is read; none left, `None`.
fn union(parts: &[&Expr], src: &Src<'_>, in_type: bool) -> Option<String> {
    let mut names: Vec<String> = Vec::new();
    for part in parts {
        for name in annotation(part, src, in_type)
            .iter()
            .flat_map(|a| a.split('|'))
        {
            if !names.iter().any(|n| n == name) {
                names.push(name.to_string());
            }
        }
    }
    (!names.is_empty()).then(|| names.join("|"))
}

/// What indexing and iterating a container annotation give: `list[T]`, `Sequence[T]`,
/// `set[T]`, `tuple[T, ...]` (both `T`); `dict[K, V]`, `Mapping[K, V]` (indexing `V`,
/// iterating `K`). `None` for anything else.
pub(super) fn container_elements(
    e: &Expr,
    src: &Src<'_>,
    in_type: bool,
) -> Option<(Option<String>, Option<String>)> {
    let Expr::Subscript(s) = e else {
        return None;
    };
    let head = src.of(&*s.value);
    let head = head.rsplit('.').next().unwrap_or(head);
    let (args, generic) = type_args(s, in_type);
    let arg = |i: usize| args.get(i).and_then(|a| annotation(a, src, generic));
    match head {
        "list" | "List" | "Sequence" | "MutableSequence" | "Iterable" | "Iterator"
        | "Collection" | "set" | "Set" | "frozenset" | "FrozenSet" | "AbstractSet"
        | "MutableSet" | "deque" | "Deque" => Some((arg(0), arg(0))),
        "tuple" | "Tuple" if args.len() == 2 && src.of(args[1]) == "..." => Some((arg(0), arg(0))),
        "dict" | "Dict" | "Mapping" | "MutableMapping" | "OrderedDict" | "defaultdict"
        | "DefaultDict" => Some((arg(1), arg(0))),
        _ => None,
    }
}

/// A literal table of classes: `{"dsa": DSSKey, "rsa": RSAKey}` (indexing gives one of the
/// values), `[A, B]` / `(A, B)` (indexing and iterating give one of them); the classes as a
/// union fact (`DSSKey|RSAKey`).
fn class_table(e: &Expr, src: &Src<'_>) -> Option<(Option<String>, Option<String>)> {
    let items: Vec<&Expr> = match e {
        Expr::Dict(d) => d
            .items
            .iter()
            .map(|i| i.key.as_ref().map(|_| &i.value))
            .collect::<Option<_>>()?,
        Expr::List(l) => l.elts.iter().collect(),
        Expr::Tuple(t) if t.parenthesized => t.elts.iter().collect(),
        Expr::Set(s) => s.elts.iter().collect(),
        _ => return None,
    };
    let mut classes: Vec<String> = Vec::new();
    for item in items {
        let class = names_class(item, src)
            .then(|| expr_key(item, src))
            .flatten()?;
        if !classes.contains(&class) {
            classes.push(class);
        }
    }
    if classes.is_empty() {
        return None;
    }
    let union = classes.join("|");
    Some(if matches!(e, Expr::Dict(_)) {
        (Some(union), None)
    } else {
        (Some(union.clone()), Some(union))
    })
}

/// Facts for a name annotated `ann`: its class, or its elements' (`name[]`, `name[*]`).
fn annotated(out: &mut FileParse, scope: Option<usize>, name: &str, ann: &Expr, src: &Src<'_>) {
    if let Some(ty) = annotation(ann, src, true) {
        push_fact(out, scope, name.to_string(), ty);
    } else if let Some(elements) = container_elements(ann, src, true) {
        out.element_facts(scope, name, elements);
    }
}

fn plain_dotted(t: &str) -> bool {
    !t.is_empty()
        && t.len() < MAX_KEY
        && t.split('.').all(|p| {
            !p.is_empty()
                && p.chars().all(|c| c.is_alphanumeric() || c == '_')
                && !p.starts_with(|c: char| c.is_ascii_digit())
        })
}

/// The scope a fact about `self.x` belongs to: the class of the method `scope`.
fn class_of_method(out: &FileParse, scope: Option<usize>) -> Option<usize> {
    let m = &out.symbols[scope?];
    (m.kind == SymKind::Method).then_some(m.parent).flatten()
}

/// True when `e` names a class by convention: a name or attribute chain whose last part is
/// CamelCase (`Transport`, `mod.Packetizer`; not a constant such as `DEFAULT_PORT`).
fn names_class(e: &Expr, src: &Src<'_>) -> bool {
    match e {
        Expr::Name(n) => class_like(src.of(n)),
        Expr::Attribute(a) => class_like(src.of(&a.attr)),
        _ => false,
    }
}

/// CamelCase: how a class is named (`Transport`; not `DEFAULT_PORT`, not `make`).
fn class_like(name: &str) -> bool {
    name.starts_with(|c: char| c.is_ascii_uppercase())
        && name.chars().any(|c| c.is_ascii_lowercase())
}

/// What `name` holds in `scope` by the latest fact so far (the walk is in source order).
pub(super) fn latest_fact<'o>(
    out: &'o FileParse,
    scope: Option<usize>,
    name: &str,
) -> Option<&'o str> {
    out.types
        .iter()
        .rev()
        .find(|f| f.scope == scope && f.name == name)
        .map(|f| f.ty.as_str())
}

/// The class a callee holds when that is not its own name: a local or parameter set to a class
/// (`factory = Transport`, `sftp_si=SFTPServerInterface`), or the class after `or`
/// (`(packetizer_class or Packetizer)(sock)`). Only for what a call assigns (its fact is then
/// `inferred`): a key naming the class would read as certain. An annotated parameter's fact
/// is its class too (`t: Transport`), so calling an instance reads as constructing one: rare.
fn class_held(out: &FileParse, e: &Expr, src: &Src<'_>, scope: Option<usize>) -> Option<String> {
    match e {
        Expr::Name(n) => {
            let ty = latest_fact(out, scope, src.of(n))?;
            (!ty.contains('(')).then(|| ty.to_string())
        }
        Expr::BoolOp(b) if b.op == BoolOp::Or => {
            let right = b.values.last()?;
            names_class(right, src)
                .then(|| expr_key(right, src))
                .flatten()
        }
        _ => None,
    }
}

/// The first argument of a call, unless it is a keyword.
fn first_positional(c: &ast::ExprCall) -> Option<&Expr> {
    match c.arguments.iter_source_order().next()? {
        ArgOrKeyword::Arg(e) => Some(e),
        ArgOrKeyword::Keyword(_) => None,
    }
}

/// The type a right-hand side gives its target: a call's result (`Cls()`, `make()`, a class
/// the callee holds), what a local it copies holds (`self.t = t`), a class itself
/// (`factory = Transport`).
fn value_type(out: &FileParse, e: &Expr, src: &Src<'_>, scope: Option<usize>) -> Option<String> {
    super::deep(|| type_of_value(out, e, src, scope))
}

fn type_of_value(out: &FileParse, e: &Expr, src: &Src<'_>, scope: Option<usize>) -> Option<String> {
    match e {
        Expr::Call(c) => match src.of(&*c.func) {
            // `T = TypeVar("T")` names a type parameter, not a `TypeVar` value to type
            // receivers by.
            "TypeVar" | "typing.TypeVar" => None,
            // `weakref.proxy(t)` stands for `t`.
            "weakref.proxy" => value_type(out, first_positional(c)?, src, scope),
            _ => class_held(out, &c.func, src, scope)
                .map(|class| format!("{class}()"))
                .or_else(|| expr_key(e, src)),
        },
        Expr::Name(n) => {
            let name = src.of(n);
            latest_fact(out, scope, name)
                .map(str::to_string)
                .or_else(|| names_class(e, src).then(|| name.to_string()))
        }
        Expr::Attribute(_) => names_class(e, src).then(|| expr_key(e, src)).flatten(),
        Expr::Subscript(_) => expr_key(e, src),
        Expr::Await(a) => value_type(out, &a.value, src, scope),
        // `console or get_console()`, `a if c else b`: either side (a union fact).
        Expr::BoolOp(b) if b.op == BoolOp::Or => or_value(out, &b.values, src, scope),
        Expr::If(i) => either(
            value_type(out, &i.body, src, scope),
            value_type(out, &i.orelse, src, scope),
        ),
        _ => None,
    }
}

/// `a or b or c` as `(a or b) or c`: either side.
fn or_value(
    out: &FileParse,
    values: &[Expr],
    src: &Src<'_>,
    scope: Option<usize>,
) -> Option<String> {
    match values {
        [] => None,
        [one] => value_type(out, one, src, scope),
        [rest @ .., last] => either(
            or_value(out, rest, src, scope),
            value_type(out, last, src, scope),
        ),
    }
}

/// What either of two values gives: both types as a union fact (`A|b()`), or the one typed.
/// A fact with a prefix (`arg:...`) is read whole only at the start of the text, so it goes
/// last, and of two such facts the first is kept.
fn either(l: Option<String>, r: Option<String>) -> Option<String> {
    match (l, r) {
        (Some(l), Some(r)) if l == r || (l.contains(':') && r.contains(':')) => Some(l),
        (Some(l), Some(r)) if l.len() + r.len() < MAX_KEY => Some(if l.contains(':') {
            format!("{r}|{l}")
        } else {
            format!("{l}|{r}")
        }),
        (Some(one), _) | (None, Some(one)) => Some(one),
        (None, None) => None,
    }
}

fn push_fact(out: &mut FileParse, scope: Option<usize>, name: String, ty: String) {
    out.types.push(TypeFact { scope, name, ty });
}

/// The value an assignment gives one of its targets: the expression, or, for all targets of
/// `a = b = value` but the last, the same value through the next assignment.
#[derive(Clone, Copy)]
pub(super) enum Value<'a> {
    Expr(&'a Expr),
    Chained(&'a Expr),
}

/// One target of an assignment statement (`=`, `+=`, or annotated).
pub(super) struct Assigned<'a> {
    /// Where the assignment starts (for the `if` branches around it).
    pub at: TextSize,
    pub target: &'a Expr,
    pub annotation: Option<&'a Expr>,
    pub value: Option<Value<'a>>,
    /// `+=` and the like: extends `__all__` rather than setting it.
    pub augmented: bool,
}

/// `t = Transport(...)`, `t: Transport = ...`, `self.x = Cls()`, `self.x: Cls`, `self.x = t`
/// (an annotated parameter), and `x: Cls` in a class body.
pub(super) fn assignment(
    out: &mut FileParse,
    branches: &mut Branches,
    src: &Src<'_>,
    a: &Assigned<'_>,
    scope: Option<usize>,
) {
    // Who the fact is about: a local, or an attribute of the class (`self.x`, `x` in its body).
    let (fact_scope, name) = match a.target {
        Expr::Name(n) => {
            let name = src.of(n);
            if scope.is_some_and(|s| out.symbols[s].kind == SymKind::Class) {
                (scope, format!("self.{name}"))
            } else {
                (scope, name.to_string())
            }
        }
        Expr::Attribute(at) => match (src.of(&*at.value), class_of_method(out, scope)) {
            ("self", Some(class)) => (Some(class), format!("self.{}", src.of(&at.attr))),
            _ => return,
        },
        _ => return,
    };
    if let Some(t) = a.annotation {
        annotated(out, fact_scope, &name, t, src);
        return;
    }
    let Some(value) = a.value else {
        return;
    };
    // A module-level alias (`_af_new = Permutation._af_new`).
    if scope.is_none()
        && matches!(a.target, Expr::Name(_))
        && let Value::Expr(right @ (Expr::Name(_) | Expr::Attribute(_))) = value
        && let Some(held) = expr_key(right, src)
    {
        out.aliases.push((name.clone(), held));
    }
    let (Value::Expr(right) | Value::Chained(right)) = value;
    if let Some(ty) = value_type(out, right, src, scope) {
        branches.join(out, fact_scope, &name, &ty, a.at);
        push_fact(out, fact_scope, name, ty);
    } else if let Value::Expr(right) = value
        && let Some(elements) = class_table(right, src)
    {
        out.element_facts(fact_scope, &name, elements);
    }
}

/// The first assigned fact of each name and the `if` branches around it, so that a name
/// assigned in two branches of one `if` (`p = PosixPipe()` / `else: p = WindowsPipe()`)
/// holds either. The walk is in source order, so the branches open at a point are a stack.
#[derive(Default)]
pub(super) struct Branches {
    /// scope -> name -> (index of the fact in `FileParse::types`, its branch path).
    first: FxHashMap<Option<usize>, FxHashMap<String, (usize, BranchPath)>>,
    /// Branches entered or ahead, as (if, branch, start byte), by end byte.
    open: OpenBlocks<(TextSize, TextSize, TextSize)>,
}

/// The `if` statements around an assignment: (the `if`, the branch holding it), by start.
type BranchPath = Vec<(TextSize, TextSize)>;

impl Branches {
    /// An `if` statement starting at `at` is walked: its branches (then, each `elif`, `else`).
    /// The branches that ended before it go first, so none is left under the new ones.
    pub(super) fn if_statement(&mut self, at: TextSize, branches: &[TextRange]) {
        self.open.close_before(at.to_usize());
        for b in branches.iter().rev() {
            self.open
                .push(b.end().to_usize(), (at, b.start(), b.start()));
        }
    }

    /// The branches around byte `at` (those open and entered).
    fn path(&mut self, at: TextSize) -> BranchPath {
        self.open.close_before(at.to_usize());
        self.open
            .iter()
            .filter(|(_, _, start)| *start <= at)
            .map(|(i, b, _)| (*i, *b))
            .collect()
    }

    /// Before `name = ty` at `at` is pushed: the name's first fact becomes one of both when
    /// the two assignments sit in different branches of the same `if`.
    fn join(
        &mut self,
        out: &mut FileParse,
        scope: Option<usize>,
        name: &str,
        ty: &str,
        at: TextSize,
    ) {
        let now = self.path(at);
        let names = self.first.entry(scope).or_default();
        let Some((first, before)) = names.get(name) else {
            names.insert(name.to_string(), (out.types.len(), now));
            return;
        };
        let exclusive = before
            .iter()
            .any(|(i, b)| now.iter().any(|(j, c)| i == j && b != c));
        if let Some(f) = out.types.get_mut(*first)
            && exclusive
            && !f.ty.split('|').any(|t| t == ty)
            && f.ty.len() + ty.len() < MAX_KEY
        {
            f.ty = format!("{}|{ty}", f.ty);
        }
    }
}

/// `for tag in self.order:` (`tag` is what iterating `self.order` gives: see
/// [`container_elements`] and [`class_table`]).
pub(super) fn for_target(
    out: &mut FileParse,
    src: &Src<'_>,
    target: &Expr,
    iter: &Expr,
    scope: Option<usize>,
) {
    let Expr::Name(n) = target else {
        return;
    };
    // `for key_class in (RSAKey, ECDSAKey):` iterates a literal table of classes.
    let ty = match expr_key(iter, src) {
        Some(iterable) => format!("{iterable}{ITERATED}"),
        None => match class_table(iter, src) {
            Some((_, Some(classes))) => classes,
            _ => return,
        },
    };
    push_fact(out, scope, src.of(n).to_string(), ty);
}

/// `with Cls() as c:` (`c` is what `Cls().__enter__()` returns); `with closing(x) as c:` (`c`
/// is `x`).
pub(super) fn with_item(
    out: &mut FileParse,
    src: &Src<'_>,
    item: &ast::WithItem,
    asynchronous: bool,
    scope: Option<usize>,
) {
    let Some(alias) = &item.optional_vars else {
        return;
    };
    let Expr::Name(name) = alias.as_ref() else {
        return;
    };
    let expr = &item.context_expr;
    if let Some(closed) = closed(expr, src)
        && let Some(ty) = value_type(out, closed, src, scope)
    {
        push_fact(out, scope, src.of(name).to_string(), ty);
        return;
    }
    if let Some(ty) = value_type(out, expr, src, scope) {
        // What `__enter__` returns (`async with`: `__aenter__`), the value itself when the
        // class has none here.
        let enter = if asynchronous {
            "__aenter__"
        } else {
            "__enter__"
        };
        push_fact(
            out,
            scope,
            src.of(name).to_string(),
            format!("{ty}.{enter}()"),
        );
    }
}

/// The value `contextlib.closing(value)` enters as: its `__enter__` returns the value itself.
fn closed<'e>(expr: &'e Expr, src: &Src<'_>) -> Option<&'e Expr> {
    let Expr::Call(c) = expr else {
        return None;
    };
    matches!(src.of(&*c.func), "closing" | "contextlib.closing")
        .then(|| first_positional(c))
        .flatten()
}

/// `return Cls(...)`, `return cls(...)`, `return self`, `return self.x`, `return t`,
/// `return self.handlers[name]` in a function without a return annotation (a docstring's
/// `:rtype:` may name nothing found): kept (the first few, [`FileParse::keeps_returned`]) to be
/// typed in the function's scope when a receiver is its call (`t.open_sftp_client().listdir()`).
pub(super) fn return_value(out: &mut FileParse, src: &Src<'_>, value: &Expr, scope: Option<usize>) {
    let Some(f) = out.keeps_returned(scope) else {
        return;
    };
    let mut value = value;
    while let Expr::Await(a) = value {
        value = &a.value;
    }
    if !matches!(
        value,
        Expr::Name(_) | Expr::Attribute(_) | Expr::Call(_) | Expr::Subscript(_)
    ) {
        return;
    }
    if let Some(key) = expr_key(value, src) {
        out.keep_returned(f, key);
    }
}

/// The annotated parameters (`t: Transport`, `t: Optional[Transport] = None`) and the return
/// annotation of function `idx`.
pub(super) fn signature(
    out: &mut FileParse,
    src: &Src<'_>,
    idx: usize,
    params: &ast::Parameters,
    returns: Option<&Expr>,
) {
    if let Some(ret) = returns
        && let Some(ty) = annotation(ret, src, true)
    {
        out.returns.push((idx, ty));
    }
    for p in params.iter_source_order() {
        // `*args: T` is no name's type.
        let ast::AnyParameterRef::NonVariadic(p) = p else {
            continue;
        };
        let name = src.of(p.name());
        match (p.annotation(), p.default()) {
            (Some(ann), _) => annotated(out, Some(idx), name, ann, src),
            // `sftp_si=SFTPServerInterface`: the parameter holds that class unless a caller
            // says otherwise.
            (None, Some(value)) if names_class(value, src) => {
                if let Some(class) = expr_key(value, src) {
                    push_fact(out, Some(idx), name.to_string(), class);
                }
            }
            _ => {}
        }
    }
}

/// The unannotated parameters of `__init__` method `idx` that nothing typed (after `self`,
/// before `*args` or `*`) as [`ARG_TYPE`] facts: what the class's constructions pass.
pub(super) fn init_params(
    out: &mut FileParse,
    src: &Src<'_>,
    idx: usize,
    params: &ast::Parameters,
) {
    // Positional parameters so far, `self` included.
    let mut slots = 0_u32;
    for p in params.posonlyargs.iter().chain(&params.args) {
        slots += 1;
        let name = p.annotation().is_none().then(|| src.of(p.name()));
        let (Some(name), Some(position)) = (name, slots.checked_sub(2)) else {
            continue;
        };
        if latest_fact(out, Some(idx), name).is_none() {
            let ty = format!("{ARG_TYPE}{idx}:{position}:{name}");
            push_fact(out, Some(idx), name.to_string(), ty);
        }
    }
}

/// `Cls(a, key=b)`: a [`Construction`] with the arguments whose value can be typed. After
/// `*args` positions are unknown, so only keywords are kept.
pub(super) fn construction(
    out: &mut FileParse,
    src: &Src<'_>,
    c: &ast::ExprCall,
    callee: &str,
    scope: Option<usize>,
) {
    if !class_like(Construction::class_of(callee)) {
        return;
    }
    // `Cls(x for x in xs)`: one generator, no argument list.
    if let ([Expr::Generator(g)], []) = (&*c.arguments.args, &*c.arguments.keywords)
        && !g.parenthesized
    {
        return;
    }
    let mut args = Vec::new();
    let mut position = Some(0_u32);
    for a in c.arguments.iter_source_order() {
        let (slot, value) = match a {
            ArgOrKeyword::Keyword(k) => match &k.arg {
                Some(n) => (ArgSlot::Keyword(src.of(n).to_string()), &k.value),
                None => {
                    position = None;
                    continue;
                }
            },
            ArgOrKeyword::Arg(Expr::Starred(_)) => {
                position = None;
                continue;
            }
            ArgOrKeyword::Arg(e) => match position {
                Some(p) => {
                    position = Some(p + 1);
                    (ArgSlot::Position(p), e)
                }
                None => continue,
            },
        };
        if let Some(v) = value_type(out, value, src, scope).or_else(|| expr_key(value, src)) {
            args.push((slot, v));
        }
    }
    if !args.is_empty() {
        out.constructions.push(Construction {
            caller: scope,
            callee: callee.to_string(),
            args,
        });
    }
}

/// `@pytest.mark.usefixtures("a", "b")` on function or class `idx`.
pub(super) fn usefixtures(
    out: &mut FileParse,
    src: &Src<'_>,
    idx: usize,
    decorators: &[ast::Decorator],
) {
    for d in decorators {
        let Expr::Call(call) = &d.expression else {
            continue;
        };
        if !matches!(
            src.of(&*call.func),
            "pytest.mark.usefixtures" | "mark.usefixtures"
        ) {
            continue;
        }
        for a in call.arguments.args.iter().filter(|a| is_string(a)) {
            let name = src.of(a).trim_matches(['"', '\'']);
            if plain_dotted(name) {
                out.fixture_marks.push((idx, name.to_string()));
            }
        }
    }
}

/// `getattr`/`setattr` with a computed name, `importlib.import_module(...)`,
/// `__import__(...)`, `globals()`, `locals()`.
pub(super) fn dynamic_call(
    out: &mut FileParse,
    src: &Src<'_>,
    c: &ast::ExprCall,
    callee: &str,
    line: u32,
) {
    let kind = match callee {
        "getattr" | "setattr" => {
            let literal = c.arguments.iter_source_order().nth(1).is_some_and(|a| {
                matches!(a, ArgOrKeyword::Arg(e) if is_string(e) && !src.of(e).starts_with('f'))
            });
            if literal {
                return;
            }
            Dynamic::Getattr
        }
        "importlib.import_module" | "import_module" | "__import__" => Dynamic::Import,
        "globals" | "locals" => Dynamic::Globals,
        _ => return,
    };
    out.dynamic.push((line, kind));
}

/// A plain name read as a value: (scope, its bytes in the source, line).
pub(super) type NameRead = (Option<usize>, std::ops::Range<usize>, u32);

/// Keeps the value uses that may resolve to a symbol: those whose first name is defined or
/// imported at module level, `self`/`cls`, or a name with a known type; one per (scope, name).
/// `names` are the plain names read, not yet in `out.uses`.
///
/// A name bound locally in a function (`bound`) and without a known type is the local's, in
/// that function: neither a value use nor a call to resolve (`for unsafe in specs`,
/// `parse = parse_content_range; parse(...)`); `local.m()` stays a call.
pub(super) fn keep_useful_uses(
    out: &mut FileParse,
    names: &[NameRead],
    bound: &[NameRead],
    src: &[u8],
) {
    let text_of = |r: &std::ops::Range<usize>| std::str::from_utf8(&src[r.clone()]).unwrap_or("");
    // Every local of a function but one also defined there (`def style_func` beside
    // `style_func = ...`); a typed one's attributes are still read through it.
    let nested: HashSet<(Option<usize>, &str)> = out
        .symbols
        .iter()
        .filter(|s| s.parent.is_some())
        .map(|s| (s.parent, s.name.as_str()))
        .collect();
    let all_locals: HashSet<(Option<usize>, &str)> = bound
        .iter()
        .filter(|(scope, _, _)| scope.is_some_and(|i| out.symbols[i].kind != SymKind::Class))
        .map(|(scope, r, _)| (*scope, text_of(r)))
        .filter(|l| !matches!(l.1, "self" | "cls") && !nested.contains(l))
        .collect();
    let locals: HashSet<(Option<usize>, &str)> = all_locals
        .iter()
        .filter(|(scope, n)| !out.types.iter().any(|f| f.scope == *scope && f.name == *n))
        .copied()
        .collect();
    let local_head = |scope: Option<usize>, key: &str| {
        !locals.is_empty() && locals.contains(&(scope, key.split(['.', '(']).next().unwrap_or("")))
    };
    // A local called by name is no function of the repository; `local.m()` still is a
    // receiver call (typed, or matched by name).
    out.calls
        .retain(|c| c.callee.contains(['.', '(']) || !local_head(c.caller, &c.callee));
    // A returned local without a known type (a parameter, a loop variable) is no module name;
    // a fixture's parameter holds another fixture's value (`return app.test_client()`).
    let params = &out.params;
    out.returned.retain(|(f, key)| {
        let head = key.split(['.', '(']).next().unwrap_or("");
        !local_head(Some(*f), key) || params.iter().any(|(s, p)| s == f && p == head)
    });
    if out.uses.is_empty() && names.is_empty() {
        return;
    }
    let mut heads: HashSet<&str> = HashSet::new();
    heads.extend(["self", "cls", "super"]);
    // Top-level names, and methods named in their class's body (`__copy__ = copy`).
    heads.extend(
        out.symbols
            .iter()
            .filter(|s| {
                s.parent
                    .is_none_or(|p| out.symbols[p].kind == SymKind::Class)
            })
            .map(|s| s.name.as_str()),
    );
    heads.extend(
        out.imports
            .iter()
            .map(|i| i.alias.split('.').next().unwrap_or("")),
    );
    heads.extend(out.types.iter().map(|f| f.name.as_str()));
    let mut seen: HashSet<(Option<usize>, &str)> = HashSet::new();
    let mut kept = Vec::new();
    for (scope, bytes, line) in names {
        let name = text_of(bytes);
        // A local read by its bare name uses nothing of the module, typed or not.
        if heads.contains(name)
            && !matches!(name, "self" | "cls")
            && !all_locals.contains(&(*scope, name))
            && seen.insert((*scope, name))
        {
            kept.push(Call {
                caller: *scope,
                callee: name.to_string(),
                line: *line,
            });
        }
    }
    for u in &out.uses {
        let head = u.callee.split(['.', '(']).next().unwrap_or("");
        if heads.contains(head)
            && !local_head(u.caller, head)
            && seen.insert((u.caller, u.callee.as_str()))
        {
            kept.push(u.clone());
        }
    }
    kept.sort_by_key(|u| u.line);
    out.uses = kept;
}
