//! TypeScript/JavaScript facts for receiver typing, in the shape the Python facts have, so the
//! link types both one way: what a name or `this.x` holds (`const t = new T()`, `t: T`,
//! `private t: T`, `constructor(private t: T)`, `this.t = make()`), return annotations, and
//! the values an unannotated function returns.

use tree_sitter::Node;

use crate::code::lang::{
    CALLBACK_ARG, CALLBACK_MEMBER, CALLBACK_PARAM, FileParse, GUARD_PARAM, GUARDED, INDEXED,
    ITERATED, OpenBlocks, PARAM_TYPE, RETURN_ELEMENT, SymKind, TypeFact, field, kind, text,
};

/// The longest key [`expr_key`] builds.
const MAX_KEY: usize = 200;
/// Generic types that stand for what they wrap where a receiver is typed (`await`ed).
const WRAPPERS: [&str; 2] = ["Promise", "PromiseLike"];
/// Containers whose second type argument is what indexing and `get(key)` give.
const MAPS: [&str; 4] = ["Map", "ReadonlyMap", "WeakMap", "Record"];
/// Containers whose one type argument is what indexing and iterating give.
const LISTS: [&str; 6] = [
    "Array",
    "ReadonlyArray",
    "Set",
    "ReadonlySet",
    "Iterable",
    "IterableIterator",
];

/// A name chain with call results marked `()`, as the Python facts write it: `a.b`,
/// `make().close`, `new Cls()` as `Cls()`, `this.x` as `self.x`, `super.m` as `super().m`;
/// `x!`, `await x`, `(x)` as `x`, `x as T` as `T`. `None` for anything else.
pub(super) fn expr_key(node: Node<'_>, src: &[u8]) -> Option<String> {
    let key = match kind(node) {
        "identifier" => text(node, src).to_string(),
        "this" => "self".to_string(),
        "super" => "super()".to_string(),
        "member_expression" => {
            let object = expr_key(field(node, "object")?, src)?;
            let property = field(node, "property")?;
            // `#x` stays `#x`: another member than `x`.
            if !matches!(
                kind(property),
                "property_identifier" | "private_property_identifier"
            ) {
                return None;
            }
            format!("{object}.{}", text(property, src))
        }
        "call_expression" => format!("{}()", expr_key(field(node, "function")?, src)?),
        "new_expression" => format!("{}()", expr_key(field(node, "constructor")?, src)?),
        "parenthesized_expression" | "non_null_expression" | "await_expression" => {
            expr_key(node.named_child(0)?, src)?
        }
        "as_expression" | "satisfies_expression" => type_key(node.named_child(1)?, src)?,
        // `this.handlers[name]`: an element of a container, typed by its declaration.
        "subscript_expression" => format!("{}{INDEXED}", expr_key(field(node, "object")?, src)?),
        _ => return None,
    };
    (key.len() < MAX_KEY && !key.contains(['\n', ' ', '\t', '\r'])).then_some(key)
}

/// The class a type names: `T`, `ns.T`, `T<U>`, `T | undefined`, `Promise<T>` as `T`, `this`
/// as `self`; several classes as `A|B`. `None` for primitives, literals, object, function and
/// array types.
pub(super) fn type_key(node: Node<'_>, src: &[u8]) -> Option<String> {
    match kind(node) {
        "type_annotation" | "parenthesized_type" => type_key(node.named_child(0)?, src),
        "type_identifier" => Some(text(node, src).to_string()),
        "nested_type_identifier" => {
            let t = text(node, src);
            (!t.contains(char::is_whitespace)).then(|| t.to_string())
        }
        "this_type" => Some("self".to_string()),
        "generic_type" => {
            let name = field(node, "name")?;
            if WRAPPERS.contains(&text(name, src)) {
                let args = field(node, "type_arguments")?;
                return type_key(args.named_child(0)?, src);
            }
            type_key(name, src)
        }
        "union_type" => {
            let mut keys: Vec<String> = Vec::new();
            for m in typed_members(node) {
                let k = type_key(m, src)?;
                if !keys.contains(&k) {
                    keys.push(k);
                }
            }
            (!keys.is_empty()).then(|| keys.join("|"))
        }
        _ => None,
    }
}

/// What indexing and iterating a container type give: `T[]`, `Array<T>`, `Set<T>` (both
/// `T`); `Map<K, V>`, `Record<K, V>` (indexing and `get(key)`: `V`; iterating gives entries,
/// no class). `None` for anything else.
fn container_elements(node: Node<'_>, src: &[u8]) -> Option<(Option<String>, Option<String>)> {
    match kind(node) {
        "type_annotation" | "parenthesized_type" | "readonly_type" => {
            container_elements(node.named_child(0)?, src)
        }
        "array_type" => {
            let t = type_key(node.named_child(0)?, src);
            Some((t.clone(), t))
        }
        "generic_type" => {
            generic_elements(field(node, "name")?, field(node, "type_arguments")?, src)
        }
        // `T[] | undefined`
        "union_type" => {
            let mut typed = typed_members(node).into_iter();
            match (typed.next(), typed.next()) {
                (Some(one), None) => container_elements(one, src),
                _ => None,
            }
        }
        _ => None,
    }
}

/// `new Map<K, V>()`, `new Set<T>()`: the container's elements.
fn constructed_elements(value: Node<'_>, src: &[u8]) -> Option<(Option<String>, Option<String>)> {
    if kind(value) != "new_expression" {
        return None;
    }
    let constructor = field(value, "constructor").filter(|c| kind(*c) == "identifier")?;
    generic_elements(constructor, field(value, "type_arguments")?, src)
}

/// The elements of container `name` with type arguments `args` (see [`MAPS`], [`LISTS`]).
fn generic_elements(
    name: Node<'_>,
    args: Node<'_>,
    src: &[u8],
) -> Option<(Option<String>, Option<String>)> {
    let arg = |i: u32| args.named_child(i).and_then(|a| type_key(a, src));
    let name = text(name, src);
    if MAPS.contains(&name) {
        Some((arg(1), None))
    } else if LISTS.contains(&name) {
        let t = arg(0);
        Some((t.clone(), t))
    } else {
        None
    }
}

/// Facts for `name` of `scope` declared of type `t`: its class, its elements' (`name[]`,
/// `name[*]`).
fn typed(out: &mut FileParse, scope: Option<usize>, name: &str, t: Node<'_>, src: &[u8]) {
    if let Some(ty) = type_key(t, src) {
        push(out, scope, name.to_string(), ty);
    }
    if let Some(elements) = container_elements(t, src) {
        out.element_facts(scope, name, elements);
    }
}

/// `(x: any) => x is T` (a type annotation or an `as` type): the guard a variable holds,
/// `is:P:T` ([`GUARD_PARAM`]).
fn guard_type(node: Node<'_>, src: &[u8]) -> Option<String> {
    let f = match kind(node) {
        "type_annotation" | "parenthesized_type" => return guard_type(node.named_child(0)?, src),
        "function_type" => node,
        _ => return None,
    };
    let predicate = field(f, "return_type").filter(|r| kind(*r) == "type_predicate")?;
    let name = field(predicate, "name").filter(|n| kind(*n) == "identifier")?;
    let ty = type_key(field(predicate, "type")?, src)?;
    let named =
        |p: &Node<'_>| field(*p, "pattern").is_some_and(|n| text(n, src) == text(name, src));
    let p = positional(field(f, "parameters")?).iter().position(named)?;
    Some(format!("{GUARD_PARAM}{p}:{ty}"))
}

/// A union's members but its literal and predefined ones (`null`, `undefined`, `void`,
/// `'a'`): what a value of the union is called on.
fn typed_members(node: Node<'_>) -> Vec<Node<'_>> {
    let mut members = Vec::new();
    union_members(node, &mut members);
    members.retain(|m| !matches!(kind(*m), "literal_type" | "predefined_type"));
    members
}

fn union_members<'t>(node: Node<'t>, out: &mut Vec<Node<'t>>) {
    let mut c = node.walk();
    for m in node.named_children(&mut c) {
        if kind(m) == "union_type" {
            union_members(m, out);
        } else {
            out.push(m);
        }
    }
}

fn push(out: &mut FileParse, scope: Option<usize>, name: String, ty: String) {
    out.types.push(TypeFact { scope, name, ty });
}

/// The class whose body or method `scope` is (`this.x` is an attribute of it).
fn class_of(out: &FileParse, scope: Option<usize>) -> Option<usize> {
    let s = scope?;
    match out.symbols[s].kind {
        SymKind::Class => Some(s),
        SymKind::Method => out.symbols[s].parent,
        SymKind::Function => None,
    }
}

/// `const t: T = ...` / `const t = new T()`: what local `t` of `scope` holds.
pub(super) fn declarator(
    out: &mut FileParse,
    node: Node<'_>,
    src: &[u8],
    scope: Option<usize>,
    narrowing: &mut Narrowing,
) {
    // `const m = require('m')`: an import, bound as one.
    let value = field(node, "value").filter(|v| !is_import_call(*v, src));
    let Some(name) = field(node, "name") else {
        return;
    };
    if kind(name) == "object_pattern" {
        let held = match field(node, "type") {
            Some(t) => type_key(t, src),
            None => value
                .and_then(|v| expr_key(v, src))
                .map(|k| narrowing.apply(node.start_byte(), k)),
        };
        if let Some(held) = held {
            destructured(out, name, &held, src, scope);
        }
        return;
    }
    if kind(name) != "identifier" {
        return;
    }
    if let (Some(t), Some(object)) = (field(node, "type"), value.filter(|v| kind(*v) == "object"))
        && let Some(ty) = type_key(t, src)
    {
        object_callbacks(out, object, &format!("{CALLBACK_MEMBER}{ty}:"), src, scope);
    }
    let name = text(name, src).to_string();
    // `var isMap = make() as (x: any) => x is ObservableMap`: a guard held in a variable.
    let declared = field(node, "type").or_else(|| {
        value
            .filter(|v| kind(*v) == "as_expression")
            .and_then(|v| v.named_child(1))
    });
    if let Some(guard) = declared.and_then(|t| guard_type(t, src)) {
        push(out, scope, name.clone(), guard);
    }
    let ty = match field(node, "type") {
        Some(t) => {
            typed(out, scope, &name, t, src);
            None
        }
        None => {
            if let Some(elements) = value.and_then(|v| constructed_elements(v, src)) {
                out.element_facts(scope, &name, elements);
            }
            value
                .and_then(|v| expr_key(v, src))
                .map(|k| narrowing.apply(node.start_byte(), k))
        }
    };
    // A module-level alias (`const stringType = ZodString.create`).
    if scope.is_none()
        && let Some(v) = value.filter(|v| matches!(kind(*v), "identifier" | "member_expression"))
        && let Some(held) = expr_key(v, src)
    {
        out.aliases.push((name.clone(), held));
    }
    if let Some(ty) = ty {
        push(out, scope, name, ty);
    }
}

/// `const { a, b: c } = held` and `({ a }: T)`: each name an object pattern binds holds that
/// property of what it destructures (`held.a`, `T.a`), typed as the property is.
fn destructured(
    out: &mut FileParse,
    pattern: Node<'_>,
    held: &str,
    src: &[u8],
    scope: Option<usize>,
) {
    // `A|B`: no one class's property.
    if held.contains('|') {
        return;
    }
    let mut c = pattern.walk();
    for p in pattern.named_children(&mut c) {
        let (key, bound) = match kind(p) {
            "shorthand_property_identifier_pattern" => (p, p),
            // `{ a = 1 }`
            "object_assignment_pattern" => match field(p, "left") {
                Some(l) if kind(l) == "shorthand_property_identifier_pattern" => (l, l),
                _ => continue,
            },
            // `{ a: b }`
            "pair_pattern" => match (field(p, "key"), field(p, "value")) {
                (Some(k), Some(v))
                    if kind(k) == "property_identifier" && kind(v) == "identifier" =>
                {
                    (k, v)
                }
                _ => continue,
            },
            _ => continue,
        };
        let ty = format!("{held}.{}", text(key, src));
        if ty.len() < MAX_KEY {
            push(out, scope, text(bound, src).to_string(), ty);
        }
    }
}

/// The parameters of a parameter list that take arguments (`this: T` takes none), in order.
fn positional<'t>(params: Node<'t>) -> Vec<Node<'t>> {
    let mut c = params.walk();
    params
        .named_children(&mut c)
        .filter(|p| {
            matches!(kind(*p), "required_parameter" | "optional_parameter")
                && field(*p, "pattern").is_none_or(|n| kind(n) != "this")
        })
        .collect()
}

/// The parameters of function `fun` that take arguments, in order: `x => ...`'s one, or those
/// of its list.
fn parameters_of(fun: Node<'_>) -> Vec<Node<'_>> {
    match (field(fun, "parameter"), field(fun, "parameters")) {
        (Some(single), _) => vec![single],
        (None, Some(list)) => positional(list),
        _ => Vec::new(),
    }
}

/// `require('m')`, `import('m')`, `await import('m')`.
fn is_import_call(value: Node<'_>, src: &[u8]) -> bool {
    let call = match kind(value) {
        "await_expression" => value.named_child(0),
        _ => Some(value),
    };
    call.filter(|c| kind(*c) == "call_expression")
        .and_then(|c| field(c, "function"))
        .is_some_and(|f| {
            kind(f) == "import" || (kind(f) == "identifier" && text(f, src) == "require")
        })
}

/// A typed parameter of function `scope`; a constructor's parameter property
/// (`constructor(private t: T)`) is also an attribute of its class; a parameter taking a
/// function types that function's parameters ([`CALLBACK_PARAM`]).
pub(super) fn parameter(
    out: &mut FileParse,
    node: Node<'_>,
    src: &[u8],
    scope: Option<usize>,
    narrowing: &mut Narrowing,
) {
    let annotation = field(node, "type").and_then(|t| t.named_child(0));
    if let Some(f) = annotation.filter(|t| kind(*t) == "function_type") {
        callback_parameters(out, node, f, src, scope);
        return;
    }
    let (Some(pattern), Some(t)) = (field(node, "pattern"), field(node, "type")) else {
        return;
    };
    if kind(pattern) == "object_pattern" {
        if let Some(held) = type_key(t, src) {
            destructured(out, pattern, &held, src, scope);
        }
        return;
    }
    if kind(pattern) != "identifier" {
        return;
    }
    let name = text(pattern, src).to_string();
    let local = narrowing.apply_local(node.start_byte(), name.clone());
    let mut c = node.walk();
    let property = node
        .children(&mut c)
        .any(|ch| matches!(kind(ch), "accessibility_modifier" | "readonly"));
    let in_constructor = scope.is_some_and(|s| {
        out.symbols[s].kind == SymKind::Method && out.symbols[s].name == "constructor"
    });
    if property && in_constructor {
        let class = class_of(out, scope);
        typed(out, class, &format!("self.{name}"), t, src);
    }
    typed(out, scope, &local, t, src);
    if let Some(members) = annotation.filter(|a| kind(*a) == "object_type") {
        members_of(out, scope, &local, members, src);
    }
}

/// The functions at the properties of object literal `object`: their unannotated parameters
/// typed `STEM` + the property (`cbarg:configureStore:0.middleware`, an options object passed
/// to a call; `cbmember:Config:create`, `const config: Config = { create: (node) => ... }`).
fn object_callbacks(
    out: &mut FileParse,
    object: Node<'_>,
    stem: &str,
    src: &[u8],
    scope: Option<usize>,
) {
    let mut c = object.walk();
    for pair in object.named_children(&mut c).filter(|p| kind(*p) == "pair") {
        if let (Some(key), Some(value)) = (field(pair, "key"), field(pair, "value"))
            && kind(key) == "property_identifier"
        {
            let of = format!("{stem}{}", text(key, src));
            callback_parameters_untyped(out, value, &of, src, scope);
        }
    }
}

/// `record: { window: Subject<T>; subs: Subscription }`: what each member of local `name` of
/// `scope` is (`record.window`), as the object type says.
fn members_of(out: &mut FileParse, scope: Option<usize>, name: &str, object: Node<'_>, src: &[u8]) {
    let mut c = object.walk();
    for m in object.named_children(&mut c) {
        if kind(m) != "property_signature" {
            continue;
        }
        let (Some(key), Some(t)) = (field(m, "name"), field(m, "type")) else {
            continue;
        };
        if kind(key) == "property_identifier"
            && let Some(ty) = type_key(t, src)
        {
            push(out, scope, format!("{name}.{}", text(key, src)), ty);
        }
    }
}

/// `type Point = TextPoint | ElementPoint` in `scope`: a value of type `Point` is one of the
/// classes or interfaces the alias names.
pub(super) fn type_alias(
    out: &mut FileParse,
    name: &str,
    value: Node<'_>,
    src: &[u8],
    scope: Option<usize>,
) {
    if let Some(ty) = type_key(value, src).filter(|t| t != name) {
        push(out, scope, name.to_string(), ty);
    }
}

/// `<N extends LexicalNode>` on the function, method, class or interface `owner` of symbol
/// `sym`: in its scope, the type `N` names what it is constrained to, so `node: N` is typed,
/// and so is a return annotation `N` (read in the function's scope). An overload signature's
/// or a callback's are not a symbol's, and are left out.
pub(super) fn type_parameters(out: &mut FileParse, owner: Node<'_>, src: &[u8], sym: usize) {
    let Some(list) = field(owner, "type_parameters") else {
        return;
    };
    let mut c = list.walk();
    for p in list.named_children(&mut c) {
        let (Some(name), Some(constraint)) = (field(p, "name"), field(p, "constraint")) else {
            continue;
        };
        if let Some(ty) = constraint.named_child(0).and_then(|t| type_key(t, src)) {
            push(out, Some(sym), text(name, src).to_string(), ty);
        }
    }
}

/// Parameter `param` of function `scope` takes a function of type `f`: each typed parameter of
/// `f` as a [`CALLBACK_PARAM`] fact of `scope`.
fn callback_parameters(
    out: &mut FileParse,
    param: Node<'_>,
    f: Node<'_>,
    src: &[u8],
    scope: Option<usize>,
) {
    let (Some(list), Some(inner)) = (param.parent(), field(f, "parameters")) else {
        return;
    };
    let Some(p) = positional(list).iter().position(|n| *n == param) else {
        return;
    };
    for (q, cb) in positional(inner).into_iter().enumerate() {
        if let Some(ty) = field(cb, "type").and_then(|t| type_key(t, src)) {
            push(out, scope, format!("{CALLBACK_PARAM}{p}:{q}"), ty);
        }
    }
}

/// The unannotated parameters of functions passed to a call of `callee` (`operate((source,
/// subscriber) => ...)`, `new Observable((subscriber) => ...)`): what the callee's parameter
/// type says they are ([`CALLBACK_ARG`]), as locals of `scope`.
///
/// A function at a property of an object literal passed as an argument (`configureStore({
/// middleware: (gDM) => ... })`) is typed the same way, by that member of the parameter's
/// type (`cbarg:CALLEE:A.K:Q`).
pub(super) fn callback_arguments(
    out: &mut FileParse,
    call: Node<'_>,
    callee: &str,
    src: &[u8],
    scope: Option<usize>,
) {
    let Some(args) = field(call, "arguments").filter(|a| kind(*a) == "arguments") else {
        return;
    };
    let mut c = args.walk();
    for (a, arg) in args.named_children(&mut c).enumerate() {
        if kind(arg) == "object" {
            object_callbacks(
                out,
                arg,
                &format!("{CALLBACK_ARG}{callee}:{a}."),
                src,
                scope,
            );
        } else {
            let of = format!("{CALLBACK_ARG}{callee}:{a}");
            callback_parameters_untyped(out, arg, &of, src, scope);
        }
    }
}

/// A method written in an object literal passed as an argument (`configureStore({
/// middleware(gDM) { ... } })`): its unannotated parameters, as locals of its own symbol
/// `sym`, typed as a function at that property would be.
pub(super) fn method_in_options(out: &mut FileParse, method: Node<'_>, src: &[u8], sym: usize) {
    let Some(object) = method.parent().filter(|o| kind(*o) == "object") else {
        return;
    };
    let (Some(args), Some(name)) = (object.parent(), field(method, "name")) else {
        return;
    };
    let Some(call) = args.parent().filter(|_| kind(args) == "arguments") else {
        return;
    };
    let function = match kind(call) {
        "call_expression" => field(call, "function"),
        "new_expression" => field(call, "constructor"),
        _ => None,
    };
    let (Some(callee), true) = (
        function.and_then(|f| expr_key(f, src)),
        kind(name) == "property_identifier",
    ) else {
        return;
    };
    let mut c = args.walk();
    let Some(a) = args.named_children(&mut c).position(|n| n == object) else {
        return;
    };
    let at = format!("{a}.{}", text(name, src));
    let of = format!("{CALLBACK_ARG}{callee}:{at}");
    callback_parameters_untyped(out, method, &of, src, Some(sym));
}

/// The unannotated parameters of `fun`, when it is a function, as locals of `scope`: parameter
/// `Q` typed `OF:Q` (what a call says of the function it is passed, [`CALLBACK_ARG`], or the
/// member of a declared type it is, [`CALLBACK_MEMBER`]), and the names a parameter's object
/// pattern binds as its properties.
fn callback_parameters_untyped(
    out: &mut FileParse,
    fun: Node<'_>,
    of: &str,
    src: &[u8],
    scope: Option<usize>,
) {
    if !matches!(
        kind(fun),
        "arrow_function" | "function_expression" | "function" | "method_definition"
    ) {
        return;
    }
    // A typed parameter stays its `required_parameter` node: no fact here.
    let params = parameters_of(fun).into_iter().map(|p| {
        field(p, "pattern")
            .filter(|_| field(p, "type").is_none())
            .unwrap_or(p)
    });
    // A callback's parameters are its own locals; a method's (`{ middleware(gDM) {} }`) are
    // its symbol's.
    let own = kind(fun) != "method_definition";
    for (q, p) in params.enumerate() {
        let ty = format!("{of}:{q}");
        match kind(p) {
            "identifier" if own => push(out, scope, callback_local(text(p, src), fun), ty),
            "identifier" => push(out, scope, text(p, src).to_string(), ty),
            // `({ editor }) => ...`: the names bound are properties of the parameter, held by
            // a local no source can name.
            "object_pattern" => {
                let held = format!("cb#{}", p.start_byte());
                push(out, scope, held.clone(), ty);
                destructured(out, p, &held, src, scope);
            }
            _ => {}
        }
    }
}

/// `private t: T` / `t = new T()` in a class body (`scope`): an attribute of the class.
pub(super) fn class_field(out: &mut FileParse, node: Node<'_>, src: &[u8], scope: Option<usize>) {
    let Some(name) = field(node, "name") else {
        return;
    };
    let name = match kind(name) {
        "property_identifier" | "private_property_identifier" => {
            format!("self.{}", text(name, src))
        }
        // `[$mobx]: Administration`, a member named by a constant: what indexing an
        // instance gives.
        "computed_property_name" => format!("self.{INDEXED}"),
        _ => return,
    };
    let Some(class) = class_of(out, scope) else {
        return;
    };
    match (field(node, "type"), field(node, "value")) {
        (Some(t), _) => typed(out, Some(class), &name, t, src),
        (None, Some(v)) => {
            if let Some(elements) = constructed_elements(v, src) {
                out.element_facts(Some(class), &name, elements);
            }
            if let Some(ty) = expr_key(v, src) {
                push(out, Some(class), name, ty);
            }
        }
        (None, None) => {}
    }
}

/// An interface's index signature (`[key: string]: Node`): what indexing an instance gives.
pub(super) fn index_signature(
    out: &mut FileParse,
    node: Node<'_>,
    src: &[u8],
    scope: Option<usize>,
) {
    if let (Some(class), Some(t)) = (class_of(out, scope), field(node, "type")) {
        typed(out, Some(class), &format!("self.{INDEXED}"), t, src);
    }
}

/// `for (const x of xs)`: local `x` of `scope` is what iterating `xs` gives (`xs[*]`).
pub(super) fn for_of(
    out: &mut FileParse,
    node: Node<'_>,
    src: &[u8],
    scope: Option<usize>,
    narrowing: &mut Narrowing,
) {
    let mut c = node.walk();
    if !node.children(&mut c).any(|ch| kind(ch) == "of") {
        return;
    }
    let (Some(left), Some(right)) = (
        field(node, "left").filter(|l| kind(*l) == "identifier"),
        field(node, "right")
            .and_then(|r| expr_key(r, src))
            .map(|r| narrowing.apply(node.start_byte(), r)),
    ) else {
        return;
    };
    push(
        out,
        scope,
        text(left, src).to_string(),
        format!("{right}{ITERATED}"),
    );
}

/// `this.t = value` in a method: an attribute of its class; `t = value`: a local.
pub(super) fn assignment(
    out: &mut FileParse,
    node: Node<'_>,
    src: &[u8],
    scope: Option<usize>,
    narrowing: &mut Narrowing,
) {
    let (Some(left), Some(value)) = (field(node, "left"), field(node, "right")) else {
        return;
    };
    let (Some(target), Some(ty)) = (expr_key(left, src), expr_key(value, src)) else {
        return;
    };
    let ty = narrowing.apply(node.start_byte(), ty);
    if let Some(attr) = target.strip_prefix("self.") {
        if !attr.contains('.')
            && let Some(class) = class_of(out, scope)
        {
            push(out, Some(class), target, ty);
        }
    } else if kind(left) == "identifier" {
        push(out, scope, target, ty);
    }
}

/// `export { local as name }` (no `from`): the module's `name` is an alias of `local`.
pub(super) fn local_exports(out: &mut FileParse, node: Node<'_>, src: &[u8]) {
    if field(node, "source").is_some() {
        return;
    }
    let mut c = node.walk();
    let Some(clause) = node
        .named_children(&mut c)
        .find(|n| kind(*n) == "export_clause")
    else {
        return;
    };
    let mut c = clause.walk();
    for spec in clause.named_children(&mut c) {
        let (Some(local), Some(alias)) = (
            field(spec, "name").filter(|n| kind(*n) == "identifier"),
            field(spec, "alias").filter(|n| kind(*n) == "identifier"),
        ) else {
            continue;
        };
        let (local, alias) = (text(local, src), text(alias, src));
        if local != alias {
            out.aliases.push((alias.to_string(), local.to_string()));
        }
    }
}

/// The types function `sym` declares (`fun` is its function node): its parameters' by
/// position ([`PARAM_TYPE`]), and its return annotation: `: this` is the instance it is called
/// on. An implementation without one has its overloads' (`signatures`: the first return
/// annotation of each (scope, name) written as a signature).
pub(super) fn declared_types(
    out: &mut FileParse,
    fun: Node<'_>,
    src: &[u8],
    sym: usize,
    signatures: &Signatures,
) {
    parameter_types(out, fun, src, sym);
    let annotation = field(fun, "return_type");
    if let Some(predicate) = annotation
        .filter(|a| kind(*a) == "type_predicate_annotation")
        .and_then(|a| a.named_child(0))
    {
        guard(out, fun, predicate, src, sym);
        return;
    }
    if let Some(element) = annotation
        .and_then(|t| container_elements(t, src))
        .and_then(|(indexed, _)| indexed)
    {
        push(out, Some(sym), RETURN_ELEMENT.to_string(), element);
    }
    let own = annotation.and_then(|t| type_key(t, src));
    let symbol = &out.symbols[sym];
    let ty = own.or_else(|| {
        signatures
            .get(&(symbol.parent, symbol.name.clone()))
            .cloned()
    });
    match ty {
        Some(ty) if ty == "self" => out.returned.push((sym, ty)),
        Some(ty) => out.returns.push((sym, ty)),
        None => {}
    }
}

/// The declared type of each parameter of function `fun` that names one, by position: the
/// [`PARAM_TYPE`] facts of `sym` (a call passing an object literal reads them).
fn parameter_types(out: &mut FileParse, fun: Node<'_>, src: &[u8], sym: usize) {
    let Some(list) = field(fun, "parameters") else {
        return;
    };
    for (p, param) in positional(list).into_iter().enumerate() {
        if field(param, "pattern").is_some_and(|n| kind(n) == "identifier")
            && let Some(ty) = field(param, "type").and_then(|t| type_key(t, src))
        {
            push(out, Some(sym), format!("{PARAM_TYPE}{p}"), ty);
        }
    }
}

/// `function isMap(x: unknown): x is ObservableMap`: the [`GUARD_PARAM`] fact of `sym`.
fn guard(out: &mut FileParse, fun: Node<'_>, predicate: Node<'_>, src: &[u8], sym: usize) {
    let (Some(name), Some(ty), Some(params)) = (
        field(predicate, "name").filter(|n| kind(*n) == "identifier"),
        field(predicate, "type").and_then(|t| type_key(t, src)),
        field(fun, "parameters"),
    ) else {
        return;
    };
    let named =
        |p: &Node<'_>| field(*p, "pattern").is_some_and(|n| text(n, src) == text(name, src));
    if let Some(p) = positional(params).iter().position(named) {
        push(out, Some(sym), format!("{GUARD_PARAM}{p}"), ty);
    }
}

/// The receivers narrowed where the walk is: inside `if (x instanceof Cls) {...}`, `x` is a
/// `Cls()`; inside `if (isMap(x)) {...}`, `x` is what the guard says ([`GUARDED`]). The same
/// holds right of `isMap(x) &&`, right of `!isMap(x) ||`, in the branches of `isMap(x) ? a : b`,
/// in an `else`, and after `if (!isMap(x)) return;` to the end of its block. And inside a
/// callback, its parameters are its own locals ([`callback_local`]): two callbacks of one
/// function binding `x` do not share one type. The walk is in source order, so the blocks
/// open at a point are a stack; a block is made when the walk meets it (a condition, a
/// callback) and opens when the walk reaches its start.
#[derive(Default)]
pub(super) struct Narrowing {
    open: OpenBlocks<Block>,
    /// Blocks not reached yet, by start, last first.
    pending: Vec<Block>,
}

/// A name standing for something else from byte `start` to `end`.
struct Block {
    start: usize,
    end: usize,
    name: String,
    stands: String,
    /// A callback's parameter, renamed to its own local: applies to the name called too.
    local: bool,
}

/// The local that parameter `name` of callback `fun` is in the enclosing symbol's scope.
fn callback_local(name: &str, fun: Node<'_>) -> String {
    format!("{name}#{}", fun.start_byte())
}

impl Narrowing {
    /// A node that may narrow a name in a part of it is walked: an `if` statement, `a && b`,
    /// `a || b` or `c ? a : b`.
    pub(super) fn node(&mut self, node: Node<'_>, src: &[u8]) {
        match kind(node) {
            "if_statement" => {
                let Some(cond) = field(node, "condition").and_then(|c| c.named_child(0)) else {
                    return;
                };
                if let Some(block) = field(node, "consequence") {
                    self.narrow(block, narrowed(cond, src, true));
                }
                let otherwise = narrowed(cond, src, false);
                if let Some(other) = field(node, "alternative") {
                    self.narrow(other, otherwise);
                } else if !otherwise.is_empty()
                    && field(node, "consequence").is_some_and(exits)
                    // Asked last: `parent()` searches down from the root.
                    && let Some(block) = node.parent().filter(|b| kind(*b) == "statement_block")
                {
                    // `if (!isMap(x)) return;`: `x` is a map in the rest of the block.
                    self.later(node.end_byte(), block.end_byte(), otherwise);
                }
            }
            "binary_expression" => {
                let (Some(left), Some(right)) = (field(node, "left"), field(node, "right")) else {
                    return;
                };
                match field(node, "operator").map(|o| text(o, src)) {
                    Some("&&") => self.narrow(right, narrowed(left, src, true)),
                    Some("||") => self.narrow(right, narrowed(left, src, false)),
                    _ => {}
                }
            }
            "ternary_expression" => {
                let Some(cond) = field(node, "condition") else {
                    return;
                };
                if let Some(yes) = field(node, "consequence") {
                    self.narrow(yes, narrowed(cond, src, true));
                }
                if let Some(no) = field(node, "alternative") {
                    self.narrow(no, narrowed(cond, src, false));
                }
            }
            _ => {}
        }
    }

    /// An anonymous function (a callback) is walked: its named parameters are its own.
    pub(super) fn callback(&mut self, fun: Node<'_>, src: &[u8]) {
        let params = parameters_of(fun)
            .into_iter()
            .map(|p| field(p, "pattern").unwrap_or(p));
        for p in params.filter(|p| kind(*p) == "identifier") {
            let name = text(p, src).to_string();
            let stands = callback_local(&name, fun);
            self.pend(Block {
                start: fun.start_byte(),
                end: fun.end_byte(),
                name,
                stands,
                local: true,
            });
        }
    }

    fn narrow(&mut self, part: Node<'_>, names: Vec<(String, String)>) {
        self.later(part.start_byte(), part.end_byte(), names);
    }

    /// Names narrowed from byte `start` to `end`; a callback's parameter is narrowed as its
    /// local (`guard:isMap:0:x#120`).
    fn later(&mut self, start: usize, end: usize, names: Vec<(String, String)>) {
        for (name, stands) in names {
            let (name, stands) = match self.local_of(start, &name) {
                Some(local) => {
                    let stands = match stands.strip_suffix(name.as_str()) {
                        Some(head) if stands.starts_with(GUARDED) => format!("{head}{local}"),
                        _ => stands,
                    };
                    (local, stands)
                }
                None => (name, stands),
            };
            self.pend(Block {
                start,
                end,
                name,
                stands,
                local: false,
            });
        }
    }

    fn pend(&mut self, block: Block) {
        let at = self.pending.partition_point(|b| b.start > block.start);
        self.pending.insert(at, block);
    }

    /// The local a callback's parameter `name` is at byte `at`, the innermost callback's.
    fn local_of(&self, at: usize, name: &str) -> Option<String> {
        self.pending
            .iter()
            .chain(self.open.iter())
            .filter(|b| b.local && b.name == name && b.start <= at && at < b.end)
            .max_by_key(|b| b.start)
            .map(|b| b.stands.clone())
    }

    /// `key` (an expression key at byte `at`) with a narrowed name it starts with replaced.
    pub(super) fn apply(&mut self, at: usize, key: String) -> String {
        self.rewrite(at, key, true)
    }

    /// `key` with only a callback's parameter replaced, by its local: a name called itself
    /// (`isFunction(t) && t()` is still the function `t`), a parameter's own name.
    pub(super) fn apply_local(&mut self, at: usize, key: String) -> String {
        self.rewrite(at, key, false)
    }

    fn rewrite(&mut self, at: usize, key: String, narrowed: bool) -> String {
        self.open.close_before(at);
        // Blocks the walk has reached open now (in order), unless already passed.
        while self.pending.last().is_some_and(|b| b.start <= at) {
            if let Some(block) = self.pending.pop()
                && block.end > at
            {
                self.open.push(block.end, block);
            }
        }
        // A callback's parameter is its local first (the innermost callback's), then what a
        // narrowing says of that local or name.
        let key = self.replace(key, |b, rest| {
            b.local && (rest.is_empty() || rest.starts_with(['.', '(', '[']))
        });
        if !narrowed {
            return key;
        }
        self.replace(key, |b, rest| {
            !b.local && (rest.is_empty() || rest.starts_with('.'))
        })
    }

    /// `key` with its head replaced by the innermost open block `fits` (given the rest).
    fn replace(&self, key: String, fits: impl Fn(&Block, &str) -> bool) -> String {
        let found = self.open.iter().rev().find(|b| {
            key.strip_prefix(b.name.as_str())
                .is_some_and(|rest| fits(b, rest))
        });
        match found {
            Some(b) => format!("{}{}", b.stands, &key[b.name.len()..]),
            None => key,
        }
    }
}

/// Whether statement `s` always leaves its block: `return`, `throw`, `continue`, `break`, or a
/// block ending with one.
fn exits(s: Node<'_>) -> bool {
    match kind(s) {
        "return_statement" | "throw_statement" | "continue_statement" | "break_statement" => true,
        "statement_block" => {
            let mut c = s.walk();
            let last = s
                .named_children(&mut c)
                .filter(|n| kind(*n) != "comment")
                .last();
            last.is_some_and(exits)
        }
        _ => false,
    }
}

/// What condition `cond` says of names when it is `holds` (true, or false): (name, what it
/// stands for). `x instanceof Cls` makes `x` a `Cls()`; a guard call (`isMap(x)`) what the guard
/// says; `isMap(x) || isSet(x)` one of the guards' types; `a && b`, when true, both; `a || b`,
/// when false, both; `!a` the opposite.
fn narrowed(cond: Node<'_>, src: &[u8], holds: bool) -> Vec<(String, String)> {
    let mut out = Vec::new();
    narrowed_into(cond, src, holds, &mut out);
    out
}

fn narrowed_into(cond: Node<'_>, src: &[u8], holds: bool, out: &mut Vec<(String, String)>) {
    let operator = || field(cond, "operator").map(|o| text(o, src));
    match kind(cond) {
        "parenthesized_expression" => {
            if let Some(inner) = cond.named_child(0) {
                narrowed_into(inner, src, holds, out);
            }
        }
        "unary_expression" if operator() == Some("!") => {
            if let Some(inner) = field(cond, "argument") {
                narrowed_into(inner, src, !holds, out);
            }
        }
        "binary_expression" if operator() == Some(if holds { "&&" } else { "||" }) => {
            for side in [field(cond, "left"), field(cond, "right")]
                .into_iter()
                .flatten()
            {
                narrowed_into(side, src, holds, out);
            }
        }
        _ if holds => out.extend(narrowed_when_true(cond, src)),
        _ => {}
    }
}

/// What `x instanceof Cls`, `isMap(x)` or `isMap(x) || isSet(x)` says of `x` when true.
fn narrowed_when_true(cond: Node<'_>, src: &[u8]) -> Option<(String, String)> {
    let (name, key) = match kind(cond) {
        "binary_expression"
            if field(cond, "operator").is_some_and(|o| text(o, src) == "instanceof") =>
        {
            let (name, class) = (field(cond, "left")?, field(cond, "right")?);
            let class = expr_key(class, src).filter(|c| !c.contains('('))?;
            (kind(name) == "identifier").then_some((name, format!("{class}()")))?
        }
        "call_expression" => {
            let (guard, p, name) = guard_call(cond, src)?;
            (name, format!("{GUARDED}{guard}:{p}:{}", text(name, src)))
        }
        // `isMap(x) || isSet(x)`: one of the guards' types (`guard:isMap,isSet:0:x`).
        "binary_expression" if is_or(cond, src) => {
            let mut calls = Vec::new();
            either(cond, src, &mut calls);
            let calls: Option<Vec<_>> = calls.into_iter().map(|c| guard_call(c, src)).collect();
            match calls.as_deref() {
                Some([(first, p, name), rest @ ..])
                    if !rest.is_empty()
                        && rest
                            .iter()
                            .all(|(_, q, n)| q == p && text(*n, src) == text(*name, src)) =>
                {
                    let guards: Vec<&str> = std::iter::once(*first)
                        .chain(rest.iter().map(|(g, _, _)| *g))
                        .collect();
                    (
                        *name,
                        format!("{GUARDED}{}:{p}:{}", guards.join(","), text(*name, src)),
                    )
                }
                _ => return None,
            }
        }
        _ => return None,
    };
    Some((text(name, src).to_string(), key))
}

/// `isMap(x)`: the guard's name, the position of the first identifier argument and that
/// argument.
fn guard_call<'t>(call: Node<'t>, src: &'t [u8]) -> Option<(&'t str, usize, Node<'t>)> {
    if kind(call) != "call_expression" {
        return None;
    }
    let f = field(call, "function").filter(|f| kind(*f) == "identifier")?;
    let args = field(call, "arguments")?;
    let mut c = args.walk();
    let (p, name) = args
        .named_children(&mut c)
        .enumerate()
        .find(|(_, a)| kind(*a) == "identifier")?;
    Some((text(f, src), p, name))
}

/// `a || b`.
fn is_or(node: Node<'_>, src: &[u8]) -> bool {
    kind(node) == "binary_expression"
        && field(node, "operator").is_some_and(|o| text(o, src) == "||")
}

/// The operands of a chain of `||` (`a || b || c`), in order.
fn either<'t>(node: Node<'t>, src: &[u8], out: &mut Vec<Node<'t>>) {
    match (is_or(node, src), field(node, "left"), field(node, "right")) {
        (true, Some(left), Some(right)) => {
            either(left, src, out);
            either(right, src, out);
        }
        _ => out.push(node),
    }
}

/// Overload signatures' return annotations by (enclosing symbol, name).
pub(super) type Signatures = rustc_hash::FxHashMap<(Option<usize>, String), String>;

/// `function f(x: A): T;` / a method's overload: its return annotation, the first of a name.
pub(super) fn signature(
    signatures: &mut Signatures,
    node: Node<'_>,
    src: &[u8],
    scope: Option<usize>,
) {
    let (Some(name), Some(ty)) = (
        field(node, "name"),
        field(node, "return_type").and_then(|t| type_key(t, src)),
    ) else {
        return;
    };
    signatures
        .entry((scope, text(name, src).to_string()))
        .or_insert(ty);
}

/// `return value` directly in function `scope` (not in a callback inside it) without a return
/// annotation: the first few ([`FileParse::keeps_returned`]).
pub(super) fn returned(
    out: &mut FileParse,
    node: Node<'_>,
    src: &[u8],
    scope: Option<usize>,
    anonymous: &mut Anonymous,
) {
    let Some(f) = out.keeps_returned(scope) else {
        return;
    };
    if anonymous.around(node.start_byte(), scope) {
        return;
    }
    if let Some(key) = node.named_child(0).and_then(|v| expr_key(v, src)) {
        out.keep_returned(f, key);
    }
}

/// The anonymous functions (callbacks) open where the walk is, each with the scope it is in:
/// a `return` inside one is not its enclosing symbol's. The walk is in source order, so they
/// are a stack (tree-sitter's `parent()` searches down from the root, too slow per `return`).
#[derive(Default)]
pub(super) struct Anonymous {
    /// By function: the scope it is in.
    open: OpenBlocks<Option<usize>>,
    /// The function nodes that are a symbol's value (`const f = () => ...`), by node id.
    values: rustc_hash::FxHashSet<usize>,
}

impl Anonymous {
    /// `value` is the function of a symbol, not an anonymous one.
    pub(super) fn symbol_value(&mut self, value: Node<'_>) {
        self.values.insert(value.id());
    }

    /// A function node is walked in `scope`: whether it is anonymous (a callback).
    pub(super) fn function(&mut self, node: Node<'_>, scope: Option<usize>) -> bool {
        if self.values.remove(&node.id()) {
            return false;
        }
        self.open.close_before(node.start_byte());
        self.open.push(node.end_byte(), scope);
        true
    }

    /// Whether an anonymous function opened in `scope` holds byte `at`.
    fn around(&mut self, at: usize, scope: Option<usize>) -> bool {
        self.open.close_before(at);
        self.open.iter().any(|s| *s == scope)
    }
}
