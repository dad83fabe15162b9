//! Python facts for receiver typing and value uses: what a name holds (`t = Transport()`,
//! `t: Transport`, `self.x = Cls()`), return annotations, which names are read as values,
//! dynamic constructs, and pytest `usefixtures` marks.

use rustc_hash::FxHashMap;
use std::collections::HashSet;
use tree_sitter::Node;

use crate::code::lang::{
    ARG_TYPE, ArgSlot, Call, Construction, Dynamic, FileParse, INDEXED, ITERATED, OpenBlocks,
    SymKind, TypeFact, field, kind, line_of, text,
};

/// The longest key [`expr_key`] builds.
const MAX_KEY: usize = 200;

/// A name chain with call results marked `()`: `a.b`, `make().close`, `Cls().decode`,
/// `super().run`, `x[k]` as `x[]`; `None` for anything else (literals, operators).
pub(super) fn expr_key(node: Node<'_>, src: &[u8]) -> Option<String> {
    let key = match kind(node) {
        "identifier" => text(node, src).to_string(),
        "attribute" => {
            let object = expr_key(field(node, "object")?, src)?;
            let attr = text(field(node, "attribute")?, src);
            format!("{object}.{attr}")
        }
        "call" => {
            let f = field(node, "function")?;
            // `Ruler[T]()`: a generic class instantiated with its parameter.
            let f = match field(f, "value") {
                Some(generic) if kind(f) == "subscript" && names_class(generic, src) => generic,
                _ => f,
            };
            format!("{}()", expr_key(f, src)?)
        }
        "parenthesized_expression" => expr_key(node.named_child(0)?, src)?,
        // `self.tags[key]`: an element of a container, typed by its annotation (see
        // [`container_elements`]).
        "subscript" => format!("{}{INDEXED}", expr_key(field(node, "value")?, src)?),
        _ => return None,
    };
    (key.len() < MAX_KEY && !key.contains(['\n', ' '])).then_some(key)
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
/// containers and anything else.
pub(super) fn annotation(node: Node<'_>, src: &[u8]) -> Option<String> {
    let node = if kind(node) == "type" {
        node.named_child(0)?
    } else {
        node
    };
    match kind(node) {
        "identifier" | "attribute" => {
            let k = expr_key(node, src)?;
            (!k.contains('(') && k != "None").then_some(k)
        }
        "string" => {
            let t = text(node, src)
                .trim_matches(|c| c == '"' || c == '\'')
                .trim();
            let t = t.strip_suffix(" | None").unwrap_or(t);
            plain_dotted(t).then(|| t.to_string())
        }
        // `T | None`, `A | B`.
        "binary_operator" if field(node, "operator").is_some_and(|o| text(o, src) == "|") => {
            union(&[field(node, "left")?, field(node, "right")?], src)
        }
        "generic_type" | "subscript" => {
            let head = node.named_child(0)?;
            let last = text(head, src).rsplit('.').next().unwrap_or("");
            let wraps = matches!(last, "Optional" | "Union") || WRAPPERS.contains(&last);
            if !wraps {
                // A generic class of the repository (`Convertor[Any]`): an instance of it.
                // The standard library's generics are containers, callables or special
                // forms, no class here.
                return (class_like(last) && !STANDARD_GENERICS.contains(&last))
                    .then(|| expr_key(head, src))
                    .flatten();
            }
            let args = node.named_child(1)?;
            let mut c = args.walk();
            let mut named: Vec<Node<'_>> = args
                .named_children(&mut c)
                .filter(|a| text(*a, src) != "None")
                .collect();
            if kind(args) != "type_parameter" && kind(args) != "expression_list" {
                named = vec![args];
            }
            match named.as_slice() {
                [only] => annotation(*only, src),
                // `Annotated[T, meta]`: what it annotates.
                [first, ..] if WRAPPERS.contains(&last) => annotation(*first, src),
                several => union(several, src),
            }
        }
        _ => None,
    }
}

/// The classes a union annotation names (`A | B | None`, `Union[A, B]`) as a union fact
/// (`A|B`): a value of it is one of them. A part naming no class (`None`, `list[int]`) is
/// left out, as the external ones are when the fact is read; none left, `None`.
fn union(parts: &[Node<'_>], src: &[u8]) -> Option<String> {
    let mut names: Vec<String> = Vec::new();
    for part in parts {
        for name in annotation(*part, src).iter().flat_map(|a| a.split('|')) {
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
    node: Node<'_>,
    src: &[u8],
) -> Option<(Option<String>, Option<String>)> {
    let node = if kind(node) == "type" {
        node.named_child(0)?
    } else {
        node
    };
    if !matches!(kind(node), "generic_type" | "subscript") {
        return None;
    }
    let head = text(node.named_child(0)?, src);
    let head = head.rsplit('.').next().unwrap_or(head);
    let args = node.named_child(1)?;
    let mut c = args.walk();
    let args: Vec<Node<'_>> = if matches!(kind(args), "type_parameter" | "expression_list") {
        args.named_children(&mut c).collect()
    } else {
        vec![args]
    };
    let arg = |i: usize| args.get(i).and_then(|a| annotation(*a, src));
    match head {
        "list" | "List" | "Sequence" | "MutableSequence" | "Iterable" | "Iterator"
        | "Collection" | "set" | "Set" | "frozenset" | "FrozenSet" | "AbstractSet"
        | "MutableSet" | "deque" | "Deque" => Some((arg(0), arg(0))),
        "tuple" | "Tuple" if args.len() == 2 && text(args[1], src) == "..." => {
            Some((arg(0), arg(0)))
        }
        "dict" | "Dict" | "Mapping" | "MutableMapping" | "OrderedDict" | "defaultdict"
        | "DefaultDict" => Some((arg(1), arg(0))),
        _ => None,
    }
}

/// A literal table of classes: `{"dsa": DSSKey, "rsa": RSAKey}` (indexing gives one of the
/// values), `[A, B]` / `(A, B)` (indexing and iterating give one of them); the classes as a
/// union fact (`DSSKey|RSAKey`).
fn class_table(node: Node<'_>, src: &[u8]) -> Option<(Option<String>, Option<String>)> {
    let mut c = node.walk();
    let items: Vec<Node<'_>> = match kind(node) {
        "dictionary" => node
            .named_children(&mut c)
            .map(|pair| field(pair, "value"))
            .collect::<Option<_>>()?,
        "list" | "tuple" | "set" => node.named_children(&mut c).collect(),
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
    Some(if kind(node) == "dictionary" {
        (Some(union), None)
    } else {
        (Some(union.clone()), Some(union))
    })
}

/// Facts for a name annotated `ann`: its class, or its elements' (`name[]`, `name[*]`).
fn annotated(out: &mut FileParse, scope: Option<usize>, name: &str, ann: Node<'_>, src: &[u8]) {
    if let Some(ty) = annotation(ann, src) {
        push_fact(out, scope, name.to_string(), ty);
    } else if let Some(elements) = container_elements(ann, src) {
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

/// True when `child` (under a node of kind `parent`, in field `field`) names what is bound,
/// defined or called rather than reading a value: assignment targets, parameters, definitions'
/// names, keyword argument names, a call's function, a class's bases (those are `inherits`
/// edges).
/// `parent_named`: `parent` itself is in such a position (a class's `superclasses` list).
pub(super) fn names_not_reads(
    parent: &str,
    parent_named: bool,
    field: Option<&str>,
    child: Node<'_>,
) -> bool {
    match parent {
        "assignment" | "augmented_assignment" | "for_statement" | "for_in_clause" => {
            field == Some("left")
        }
        "function_definition" => field == Some("name"),
        "class_definition" => matches!(field, Some("name" | "superclasses")),
        "call" => field == Some("function"),
        "attribute" => field == Some("attribute"),
        "keyword_argument"
        | "named_expression"
        | "default_parameter"
        | "typed_default_parameter" => field == Some("name"),
        "typed_parameter" => field != Some("type"),
        "parameters" | "lambda_parameters" | "global_statement" | "nonlocal_statement"
        | "as_pattern_target" | "dotted_name" | "aliased_import" | "pattern_list" => true,
        "as_pattern" => field == Some("alias"),
        // A class's bases: `class C(Base, mod.Mixin)` (not `metaclass=M`).
        "argument_list" => parent_named && matches!(kind(child), "identifier" | "attribute"),
        k => k.ends_with("pattern"),
    }
}

/// True when an identifier in field `field` of a node of kind `parent` binds a local name (an
/// assignment or loop target, a parameter, `as x`, `x :=`): inside a function, reads of it are
/// the local's.
pub(super) fn binds_local(parent: &str, field: Option<&str>) -> bool {
    match parent {
        "assignment" | "augmented_assignment" | "for_statement" | "for_in_clause" => {
            field == Some("left")
        }
        "named_expression" | "default_parameter" | "typed_default_parameter" => {
            field == Some("name")
        }
        "typed_parameter" => field != Some("type"),
        "parameters" | "lambda_parameters" | "as_pattern_target" | "pattern_list" => true,
        k => k.ends_with("pattern") && k != "class_pattern",
    }
}

/// The scope a fact about `self.x` belongs to: the class of the method `scope`.
fn class_of_method(out: &FileParse, scope: Option<usize>) -> Option<usize> {
    let m = &out.symbols[scope?];
    (m.kind == SymKind::Method).then_some(m.parent).flatten()
}

/// True when `node` names a class by convention: a name or attribute chain whose last part is
/// CamelCase (`Transport`, `mod.Packetizer`; not a constant such as `DEFAULT_PORT`).
fn names_class(node: Node<'_>, src: &[u8]) -> bool {
    let last = match kind(node) {
        "identifier" => Some(node),
        "attribute" => field(node, "attribute"),
        _ => None,
    };
    last.is_some_and(|n| class_like(text(n, src)))
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
fn class_held(out: &FileParse, node: Node<'_>, src: &[u8], scope: Option<usize>) -> Option<String> {
    match kind(node) {
        "identifier" => {
            let ty = latest_fact(out, scope, text(node, src))?;
            (!ty.contains('(')).then(|| ty.to_string())
        }
        "parenthesized_expression" => class_held(out, node.named_child(0)?, src, scope),
        "boolean_operator" => {
            let right = field(node, "right")?;
            (text(field(node, "operator")?, src) == "or" && names_class(right, src))
                .then(|| expr_key(right, src))
                .flatten()
        }
        _ => None,
    }
}

/// The type a right-hand side gives its target: a call's result (`Cls()`, `make()`, a class
/// the callee holds), what a local it copies holds (`self.t = t`), a class itself
/// (`factory = Transport`), or the value of a chained assignment (`t = self.t = Cls()`).
fn value_type(out: &FileParse, node: Node<'_>, src: &[u8], scope: Option<usize>) -> Option<String> {
    match kind(node) {
        // `T = TypeVar("T")` names a type parameter, not a `TypeVar` value to type receivers by.
        "call"
            if field(node, "function")
                .is_some_and(|f| matches!(text(f, src), "TypeVar" | "typing.TypeVar")) =>
        {
            None
        }
        // `weakref.proxy(t)` stands for `t`.
        "call" if field(node, "function").is_some_and(|f| text(f, src) == "weakref.proxy") => {
            let arg = field(node, "arguments")?.named_child(0)?;
            value_type(out, arg, src, scope)
        }
        "call" => field(node, "function")
            .and_then(|f| class_held(out, f, src, scope))
            .map(|class| format!("{class}()"))
            .or_else(|| expr_key(node, src)),
        "identifier" => {
            let name = text(node, src);
            latest_fact(out, scope, name)
                .map(str::to_string)
                .or_else(|| names_class(node, src).then(|| name.to_string()))
        }
        "attribute" => names_class(node, src)
            .then(|| expr_key(node, src))
            .flatten(),
        "assignment" => value_type(out, field(node, "right")?, src, scope),
        "subscript" => expr_key(node, src),
        "await" => value_type(out, node.named_child(0)?, src, scope),
        // `console or get_console()`, `a if c else b`: either side (a union fact).
        "boolean_operator" if field(node, "operator").is_some_and(|o| text(o, src) == "or") => {
            either(out, [field(node, "left"), field(node, "right")], src, scope)
        }
        "conditional_expression" => {
            either(out, [node.named_child(0), node.named_child(2)], src, scope)
        }
        _ => None,
    }
}

/// What either of two values gives: both types as a union fact (`A|b()`), or the one typed.
/// A fact with a prefix (`arg:...`) is read whole only at the start of the text, so it goes
/// last, and of two such facts the first is kept.
fn either(
    out: &FileParse,
    sides: [Option<Node<'_>>; 2],
    src: &[u8],
    scope: Option<usize>,
) -> Option<String> {
    let [l, r] = sides.map(|side| side.and_then(|n| value_type(out, n, src, scope)));
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

/// `t = Transport(...)`, `t: Transport = ...`, `self.x = Cls()`, `self.x: Cls`, `self.x = t`
/// (an annotated parameter), and `x: Cls` in a class body.
pub(super) fn assignment(
    out: &mut FileParse,
    branches: &mut Branches,
    node: Node<'_>,
    src: &[u8],
    scope: Option<usize>,
) {
    let Some(left) = field(node, "left") else {
        return;
    };
    // Who the fact is about: a local, or an attribute of the class (`self.x`, `x` in its body).
    let (fact_scope, name) = match kind(left) {
        "identifier" => {
            let name = text(left, src);
            if scope.is_some_and(|s| out.symbols[s].kind == SymKind::Class) {
                (scope, format!("self.{name}"))
            } else {
                (scope, name.to_string())
            }
        }
        "attribute" => {
            let obj = field(left, "object").map(|o| text(o, src));
            let attr = field(left, "attribute").map(|a| text(a, src));
            match (obj, attr, class_of_method(out, scope)) {
                (Some("self"), Some(attr), Some(class)) => (Some(class), format!("self.{attr}")),
                _ => return,
            }
        }
        _ => return,
    };
    match field(node, "type") {
        Some(t) => annotated(out, fact_scope, &name, t, src),
        None => {
            let Some(right) = field(node, "right") else {
                return;
            };
            // A module-level alias (`_af_new = Permutation._af_new`).
            if scope.is_none()
                && kind(left) == "identifier"
                && matches!(kind(right), "identifier" | "attribute")
                && let Some(held) = expr_key(right, src)
            {
                out.aliases.push((name.clone(), held));
            }
            if let Some(ty) = value_type(out, right, src, scope) {
                branches.join(out, fact_scope, &name, &ty, node);
                push_fact(out, fact_scope, name, ty);
            } else if let Some(elements) = class_table(right, src) {
                out.element_facts(fact_scope, &name, elements);
            }
        }
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
    open: OpenBlocks<(usize, usize, usize)>,
}

/// The `if` statements around an assignment: (the `if`, the branch holding it), by node id.
type BranchPath = Vec<(usize, usize)>;

impl Branches {
    /// An `if` statement is walked: its branches (then, each `elif`, `else`). The branches that
    /// ended before it go first, so none is left under the new ones.
    pub(super) fn if_statement(&mut self, node: Node<'_>) {
        self.open.close_before(node.start_byte());
        let mut c = node.walk();
        let branches: Vec<Node<'_>> = node
            .named_children(&mut c)
            .filter(|b| matches!(kind(*b), "block" | "elif_clause" | "else_clause"))
            .collect();
        for b in branches.iter().rev() {
            self.open
                .push(b.end_byte(), (node.id(), b.id(), b.start_byte()));
        }
    }

    /// The branches around byte `at` (those open and entered).
    fn path(&mut self, at: usize) -> BranchPath {
        self.open.close_before(at);
        self.open
            .iter()
            .filter(|(_, _, start)| *start <= at)
            .map(|(i, b, _)| (*i, *b))
            .collect()
    }

    /// Before `name = ty` in `node` is pushed: the name's first fact becomes one of both when
    /// the two assignments sit in different branches of the same `if`.
    fn join(
        &mut self,
        out: &mut FileParse,
        scope: Option<usize>,
        name: &str,
        ty: &str,
        node: Node<'_>,
    ) {
        let now = self.path(node.start_byte());
        let names = self.first.entry(scope).or_default();
        let Some((at, before)) = names.get(name) else {
            names.insert(name.to_string(), (out.types.len(), now));
            return;
        };
        let exclusive = before
            .iter()
            .any(|(i, b)| now.iter().any(|(j, c)| i == j && b != c));
        if let Some(f) = out.types.get_mut(*at)
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
pub(super) fn for_target(out: &mut FileParse, node: Node<'_>, src: &[u8], scope: Option<usize>) {
    let (Some(left), Some(right)) = (field(node, "left"), field(node, "right")) else {
        return;
    };
    if kind(left) != "identifier" {
        return;
    }
    // `for key_class in (RSAKey, ECDSAKey):` iterates a literal table of classes.
    let ty = match expr_key(right, src) {
        Some(iterable) => format!("{iterable}{ITERATED}"),
        None => match class_table(right, src) {
            Some((_, Some(classes))) => classes,
            _ => return,
        },
    };
    push_fact(out, scope, text(left, src).to_string(), ty);
}

/// `with Cls() as c:` (`c` is what `Cls().__enter__()` returns); `with closing(x) as c:` (`c`
/// is `x`).
pub(super) fn with_item(out: &mut FileParse, node: Node<'_>, src: &[u8], scope: Option<usize>) {
    let Some(value) = field(node, "value") else {
        return;
    };
    if kind(value) != "as_pattern" {
        return;
    }
    let (Some(expr), Some(alias)) = (value.named_child(0), field(value, "alias")) else {
        return;
    };
    let name = alias.named_child(0).filter(|n| kind(*n) == "identifier");
    if let (Some(closed), Some(name)) = (closed(expr, src), name)
        && let Some(ty) = value_type(out, closed, src, scope)
    {
        push_fact(out, scope, text(name, src).to_string(), ty);
        return;
    }
    if let (Some(ty), Some(name)) = (value_type(out, expr, src, scope), name) {
        // What `__enter__` returns (`async with`: `__aenter__`), the value itself when the
        // class has none here.
        let asynchronous = node
            .parent()
            .and_then(|clause| clause.parent())
            .is_some_and(|w| w.child(0).is_some_and(|k| kind(k) == "async"));
        let enter = if asynchronous {
            "__aenter__"
        } else {
            "__enter__"
        };
        push_fact(
            out,
            scope,
            text(name, src).to_string(),
            format!("{ty}.{enter}()"),
        );
    }
}

/// The value `contextlib.closing(value)` enters as: its `__enter__` returns the value itself.
fn closed<'t>(expr: Node<'t>, src: &[u8]) -> Option<Node<'t>> {
    let callee = field(expr, "function").filter(|_| kind(expr) == "call")?;
    matches!(text(callee, src), "closing" | "contextlib.closing")
        .then(|| field(expr, "arguments")?.named_child(0))
        .flatten()
}

/// `return Cls(...)`, `return cls(...)`, `return self`, `return self.x`, `return t`,
/// `return self.handlers[name]` in a function without a return annotation (a docstring's
/// `:rtype:` may name nothing found): kept (the first few, [`FileParse::keeps_returned`]) to be
/// typed in the function's scope when a receiver is its call (`t.open_sftp_client().listdir()`).
pub(super) fn return_value(out: &mut FileParse, node: Node<'_>, src: &[u8], scope: Option<usize>) {
    let Some(f) = out.keeps_returned(scope) else {
        return;
    };
    let Some(mut value) = node.named_child(0) else {
        return;
    };
    while matches!(kind(value), "await" | "parenthesized_expression") {
        let Some(inner) = value.named_child(0) else {
            return;
        };
        value = inner;
    }
    if !matches!(
        kind(value),
        "identifier" | "attribute" | "call" | "subscript"
    ) {
        return;
    }
    if let Some(key) = expr_key(value, src) {
        out.keep_returned(f, key);
    }
}

/// The annotated parameters (`t: Transport`, `t: Optional[Transport] = None`) and the return
/// annotation of function `idx`.
pub(super) fn signature(out: &mut FileParse, idx: usize, def: Node<'_>, src: &[u8]) {
    if let Some(ret) = field(def, "return_type")
        && let Some(ty) = annotation(ret, src)
    {
        out.returns.push((idx, ty));
    }
    let Some(params) = field(def, "parameters") else {
        return;
    };
    let mut c = params.walk();
    for p in params.named_children(&mut c) {
        // `sftp_si=SFTPServerInterface`: the parameter holds that class unless a caller says
        // otherwise.
        if kind(p) == "default_parameter"
            && let (Some(name), Some(value)) = (field(p, "name"), field(p, "value"))
            && names_class(value, src)
            && let Some(class) = expr_key(value, src)
        {
            push_fact(out, Some(idx), text(name, src).to_string(), class);
            continue;
        }
        let name = match kind(p) {
            "typed_parameter" => p.named_child(0).filter(|n| kind(*n) == "identifier"),
            "typed_default_parameter" => field(p, "name"),
            _ => None,
        };
        if let (Some(name), Some(ty)) = (name, field(p, "type")) {
            annotated(out, Some(idx), text(name, src), ty, src);
        }
    }
}

/// The unannotated parameters of `__init__` method `idx` that nothing typed (after `self`,
/// before `*args` or `*`) as [`ARG_TYPE`] facts: what the class's constructions pass.
pub(super) fn init_params(out: &mut FileParse, idx: usize, def: Node<'_>, src: &[u8]) {
    let Some(params) = field(def, "parameters") else {
        return;
    };
    let mut c = params.walk();
    let mut slots = 0_u32; // positional parameters so far, `self` included
    for p in params.named_children(&mut c) {
        let name = match kind(p) {
            "identifier" => Some(p),
            "default_parameter" => field(p, "name"),
            // `*args: T` is typed too, and ends the positions.
            "typed_parameter" if p.named_child(0).is_some_and(|n| kind(n) != "identifier") => {
                return;
            }
            "typed_parameter" | "typed_default_parameter" => None,
            "positional_separator" | "comment" => continue,
            _ => return,
        };
        slots += 1;
        let (Some(name), Some(position)) = (name, slots.checked_sub(2)) else {
            continue;
        };
        let name = text(name, src);
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
    node: Node<'_>,
    callee: &str,
    src: &[u8],
    scope: Option<usize>,
) {
    if !class_like(Construction::class_of(callee)) {
        return;
    }
    let Some(list) = field(node, "arguments").filter(|a| kind(*a) == "argument_list") else {
        return;
    };
    let mut args = Vec::new();
    let mut position = Some(0_u32);
    let mut c = list.walk();
    for a in list.named_children(&mut c) {
        let (slot, value) = match kind(a) {
            "keyword_argument" => match (field(a, "name"), field(a, "value")) {
                (Some(n), Some(v)) => (ArgSlot::Keyword(text(n, src).to_string()), v),
                _ => continue,
            },
            "list_splat" | "dictionary_splat" => {
                position = None;
                continue;
            }
            "comment" => continue,
            _ => match position {
                Some(p) => {
                    position = Some(p + 1);
                    (ArgSlot::Position(p), a)
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
pub(super) fn usefixtures(out: &mut FileParse, idx: usize, def: Node<'_>, src: &[u8]) {
    let Some(decorated) = def.parent().filter(|p| kind(*p) == "decorated_definition") else {
        return;
    };
    let mut c = decorated.walk();
    for d in decorated.named_children(&mut c) {
        let Some(call) = d.named_child(0).filter(|n| kind(*n) == "call") else {
            continue;
        };
        let callee = field(call, "function").map(|f| text(f, src)).unwrap_or("");
        if !matches!(callee, "pytest.mark.usefixtures" | "mark.usefixtures") {
            continue;
        }
        let Some(args) = field(call, "arguments") else {
            continue;
        };
        let mut ac = args.walk();
        for a in args
            .named_children(&mut ac)
            .filter(|a| kind(*a) == "string")
        {
            let name = text(a, src).trim_matches(|c| c == '"' || c == '\'');
            if plain_dotted(name) {
                out.fixture_marks.push((idx, name.to_string()));
            }
        }
    }
}

/// `getattr`/`setattr` with a computed name, `importlib.import_module(...)`,
/// `__import__(...)`, `globals()`, `locals()`.
pub(super) fn dynamic_call(out: &mut FileParse, node: Node<'_>, callee: &str, src: &[u8]) {
    let kind = match callee {
        "getattr" | "setattr" => {
            let literal = field(node, "arguments")
                .and_then(|a| a.named_child(1))
                .is_some_and(|n| kind(n) == "string" && !text(n, src).starts_with('f'));
            if literal {
                return;
            }
            Dynamic::Getattr
        }
        "importlib.import_module" | "import_module" | "__import__" => Dynamic::Import,
        "globals" | "locals" => Dynamic::Globals,
        _ => return,
    };
    out.dynamic.push((line_of(node), kind));
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
