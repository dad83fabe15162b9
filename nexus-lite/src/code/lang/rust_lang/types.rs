//! What Rust names hold, as the type facts the linker types receivers with (the Python and
//! TypeScript walkers write the same): a parameter's and a `let`'s declared type, what a `let`
//! is bound to (a construction, a call's result), a struct's fields (`self.field`), and what a
//! function returns. Smart pointers and `Option`/`Result` are read through (`Arc<Map>` holds a
//! `Map`, `-> Result<Self, Error>` returns the type): a method called on the wrapper itself is
//! the standard library's, never the crate's.

use super::{Ctx, constructed, owned, type_path, value_text};
use crate::code::lang::{FileParse, ITERATED, TypeFact, field, kind, text};
use std::rc::Rc;
use tree_sitter::Node;

/// Wrappers whose first type argument is what a method call reaches.
const SEE_THROUGH: [&str; 7] = ["Box", "Arc", "Rc", "Option", "Result", "Cow", "Pin"];

/// The type a method call on a value of declared type `node` reaches, dotted (`a.Map`), `Self`
/// as `owner`; `None` for primitives, tuples, slices and functions.
pub(super) fn declared(node: Node<'_>, src: &[u8], owner: Option<&str>) -> Option<String> {
    match kind(node) {
        "reference_type" | "pointer_type" => declared(field(node, "type")?, src, owner),
        "abstract_type" | "dynamic_type" => declared(field(node, "trait")?, src, owner),
        "generic_type" => {
            let base = field(node, "type")?;
            let name = text(base, src).rsplit("::").next().unwrap_or("");
            if SEE_THROUGH.contains(&name) {
                let args = field(node, "type_arguments")?;
                let mut c = args.walk();
                let first = args.named_children(&mut c).next()?;
                declared(first, src, owner)
            } else {
                type_path(base, src, owner)
            }
        }
        "type_identifier" | "scoped_type_identifier" => type_path(node, src, owner),
        _ => None,
    }
}

/// Collections whose elements are their first type argument, and maps whose values (what
/// `map[&k]` and `map.values()` give) are their second.
const SEQUENCES: [&str; 10] = [
    "Vec",
    "VecDeque",
    "HashSet",
    "BTreeSet",
    "IndexSet",
    "BinaryHeap",
    "LinkedList",
    "SmallVec",
    "ArrayVec",
    "Slab",
];
const MAPS: [&str; 3] = ["HashMap", "BTreeMap", "IndexMap"];

/// What indexing and iterating a value of declared type `node` give (`Vec<Point>`: a
/// `Point`; `&[Point]`, `[Point; 4]` alike; `HashMap<K, Point>`: indexing a `Point`, iterating
/// a pair), read through references and smart pointers.
fn elements(
    node: Node<'_>,
    src: &[u8],
    owner: Option<&str>,
) -> Option<(Option<String>, Option<String>)> {
    match kind(node) {
        "reference_type" | "pointer_type" => elements(field(node, "type")?, src, owner),
        "array_type" => {
            let element = declared(field(node, "element")?, src, owner);
            Some((element.clone(), element))
        }
        "generic_type" => {
            let base = text(field(node, "type")?, src);
            let name = base.rsplit("::").next().unwrap_or(base);
            let args = field(node, "type_arguments")?;
            let mut c = args.walk();
            let mut args = args
                .named_children(&mut c)
                .filter(|a| kind(*a) != "lifetime");
            if SEE_THROUGH.contains(&name) {
                elements(args.next()?, src, owner)
            } else if SEQUENCES.contains(&name) {
                let element = declared(args.next()?, src, owner);
                Some((element.clone(), element))
            } else if MAPS.contains(&name) {
                Some((declared(args.nth(1)?, src, owner), None))
            } else {
                None
            }
        }
        _ => None,
    }
}

/// Traits of the standard library (and serde's) a bound names besides the one of ours that
/// types the parameter's methods.
const LIBRARY_TRAITS: [&str; 40] = [
    "Any",
    "AsMut",
    "AsRef",
    "Borrow",
    "BorrowMut",
    "BuildHasher",
    "Clone",
    "Copy",
    "Debug",
    "Default",
    "Deref",
    "DerefMut",
    "Deserialize",
    "Display",
    "DoubleEndedIterator",
    "Eq",
    "Error",
    "ExactSizeIterator",
    "Extend",
    "Fn",
    "FnMut",
    "FnOnce",
    "From",
    "FromIterator",
    "FromStr",
    "Future",
    "Hash",
    "Hasher",
    "Into",
    "IntoIterator",
    "Iterator",
    "Ord",
    "PartialEq",
    "PartialOrd",
    "Send",
    "Serialize",
    "Sized",
    "Sync",
    "ToString",
    "Unpin",
];

/// `inherited` and the type parameters of item `node` (`<T: Buf>`, `where T: Buf`) bounded
/// by exactly one trait that is not the standard library's, with that trait (dotted);
/// `inherited` itself when the item bounds none.
pub(super) fn bounds(
    node: Node<'_>,
    src: &[u8],
    inherited: &Rc<[(String, String)]>,
) -> Rc<[(String, String)]> {
    let mut out = Vec::new();
    let mut add = |param: Node<'_>, traits: Option<Node<'_>>| {
        let Some(traits) = traits else { return };
        let mut c = traits.walk();
        let ours: Vec<String> = traits
            .named_children(&mut c)
            .filter_map(|t| match kind(t) {
                "generic_type" => type_path(field(t, "type")?, src, None),
                _ => type_path(t, src, None),
            })
            .filter(|t| !LIBRARY_TRAITS.contains(&t.rsplit('.').next().unwrap_or(t)))
            .collect();
        if let [one] = ours.as_slice()
            && kind(param) == "type_identifier"
        {
            out.push((text(param, src).to_string(), one.clone()));
        }
    };
    if let Some(params) = field(node, "type_parameters") {
        let mut c = params.walk();
        for p in params.named_children(&mut c) {
            if kind(p) == "type_parameter"
                && let Some(name) = field(p, "name")
            {
                add(name, field(p, "bounds"));
            }
        }
    }
    let mut c = node.walk();
    for clause in node
        .named_children(&mut c)
        .filter(|n| kind(*n) == "where_clause")
    {
        let mut w = clause.walk();
        for p in clause.named_children(&mut w) {
            if let Some(left) = field(p, "left") {
                add(left, field(p, "bounds"));
            }
        }
    }
    if out.is_empty() {
        return Rc::clone(inherited);
    }
    inherited.iter().cloned().chain(out).collect()
}

/// The trait bounding type parameter `ty` in scope, the innermost item's first.
fn bound_of<'b>(ty: &str, bounds: &'b [(String, String)]) -> Option<&'b String> {
    bounds
        .iter()
        .rev()
        .find(|(param, _)| param == ty)
        .map(|(_, bound)| bound)
}

/// `ty`, or the trait bounding it when it is a type parameter in scope.
fn bounded(ty: String, bounds: &[(String, String)]) -> String {
    bound_of(&ty, bounds).cloned().unwrap_or(ty)
}

/// Facts for `name` declared of type `node` in `scope`: what it is, and what its elements are.
fn typed(
    out: &mut FileParse,
    scope: usize,
    name: String,
    node: Node<'_>,
    src: &[u8],
    owner: Option<&str>,
    bounds: &[(String, String)],
) {
    if let Some((indexed, iterated)) = elements(node, src, owner) {
        let found = (
            indexed.map(|t| bounded(t, bounds)),
            iterated.map(|t| bounded(t, bounds)),
        );
        out.element_facts(Some(scope), &name, found);
    }
    if let Some(ty) = declared(node, src, owner) {
        push(out, scope, name, bounded(ty, bounds));
    }
}

/// The key of a value the facts can name: `items`, `self`, `self.items`, `a.b.c`.
fn expr_key(node: Node<'_>, src: &[u8]) -> Option<String> {
    match kind(node) {
        "identifier" | "self" => Some(text(node, src).to_string()),
        "field_expression" => {
            let name = field(node, "field").filter(|f| kind(*f) == "field_identifier")?;
            Some(format!(
                "{}.{}",
                expr_key(field(node, "value")?, src)?,
                text(name, src)
            ))
        }
        _ => None,
    }
}

/// Iterator methods that give the elements they are given.
const SAME_ELEMENTS: [&str; 14] = [
    "iter",
    "iter_mut",
    "into_iter",
    "drain",
    "rev",
    "skip",
    "take",
    "copied",
    "cloned",
    "filter",
    "skip_while",
    "take_while",
    "peekable",
    "chain",
];

/// What an iteration over `node` gives one of, as a fact key (`self.items[*]`; `m.values()[*]`
/// for a map's values), and whether it is numbered by `.enumerate()` (a `(i, x)` pair).
fn iterated(node: Node<'_>, src: &[u8]) -> Option<(String, bool)> {
    match kind(node) {
        "reference_expression" => iterated(field(node, "value")?, src),
        "call_expression" => {
            let function = field(node, "function").filter(|f| kind(*f) == "field_expression")?;
            let value = field(function, "value")?;
            match text(field(function, "field")?, src) {
                "enumerate" => match iterated(value, src)? {
                    (key, false) => Some((key, true)),
                    (_, true) => None,
                },
                "values" | "values_mut" | "into_values" => Some((
                    format!("{}.values(){ITERATED}", expr_key(value, src)?),
                    false,
                )),
                method if SAME_ELEMENTS.contains(&method) => iterated(value, src),
                _ => None,
            }
        }
        _ => Some((format!("{}{ITERATED}", expr_key(node, src)?), false)),
    }
}

/// The one name a pattern binds to an iterated element: `x`, `mut x`, `&x`, and `(_, x)` of
/// an enumeration.
fn element_binding<'s>(pattern: Node<'_>, src: &'s [u8], numbered: bool) -> Option<&'s str> {
    match kind(pattern) {
        "reference_pattern" if !numbered => element_binding(pattern.named_child(0)?, src, false),
        "tuple_pattern" if numbered && pattern.named_child_count() == 2 => {
            element_binding(pattern.named_child(1)?, src, false)
        }
        _ if numbered => None,
        _ => bound_name(pattern, src),
    }
}

/// `for x in &self.items`, `for (i, x) in items.iter().enumerate()`: `x` is an element.
pub(super) fn for_binding(
    out: &mut FileParse,
    node: Node<'_>,
    src: &[u8],
    scope: usize,
    ctx: &Ctx,
) {
    let (Some(pattern), Some(value)) = (field(node, "pattern"), field(node, "value")) else {
        return;
    };
    if let Some((key, numbered)) = iterated(value, src)
        && let Some(name) = element_binding(pattern, src, numbered)
    {
        push(
            out,
            scope,
            name.to_string(),
            owned(key, ctx.owner.as_deref()),
        );
    }
}

/// Iterator methods whose closure's first parameter is an element (`find`'s and `filter`'s a
/// reference to one, read the same).
const ELEMENT_CLOSURES: [&str; 16] = [
    "map",
    "for_each",
    "filter",
    "filter_map",
    "flat_map",
    "find",
    "find_map",
    "any",
    "all",
    "position",
    "inspect",
    "take_while",
    "skip_while",
    "max_by_key",
    "min_by_key",
    "partition",
];

/// `items.iter().map(|x| x.area())`: the closure's parameter `x` is an element of `items`,
/// a fact of the enclosing function unless it names one already (a closure's parameter is no
/// scope of its own here).
pub(super) fn closure_binding(
    out: &mut FileParse,
    node: Node<'_>,
    src: &[u8],
    scope: usize,
    ctx: &Ctx,
) {
    let Some(call) = node.parent().and_then(|args| args.parent()) else {
        return;
    };
    let Some(function) = field(call, "function").filter(|f| kind(*f) == "field_expression") else {
        return;
    };
    let (Some(method), Some(receiver)) = (field(function, "field"), field(function, "value"))
    else {
        return;
    };
    if !ELEMENT_CLOSURES.contains(&text(method, src)) || kind(receiver) != "call_expression" {
        return;
    }
    let Some(param) = field(node, "parameters").and_then(|p| p.named_child(0)) else {
        return;
    };
    let param = match kind(param) {
        "parameter" => match field(param, "pattern") {
            Some(p) => p,
            None => return,
        },
        _ => param,
    };
    if let Some((key, numbered)) = iterated(receiver, src)
        && let Some(name) = element_binding(param, src, numbered)
        && !out
            .types
            .iter()
            .any(|f| f.scope == Some(scope) && f.name == name)
    {
        push(
            out,
            scope,
            name.to_string(),
            owned(key, ctx.owner.as_deref()),
        );
    }
}

/// What a `let` value holds: a construction's type, a call's result (`Map.new()`), read
/// through `?`, `.unwrap()`, `.expect(…)`, `&` and parentheses (see [`value_text`]).
fn held(node: Node<'_>, src: &[u8], owner: Option<&str>) -> Option<String> {
    match kind(node) {
        "struct_expression" => constructed(node, src, owner),
        "try_expression" | "parenthesized_expression" => held(node.named_child(0)?, src, owner),
        "reference_expression" => held(field(node, "value")?, src, owner),
        "call_expression" => value_text(node, src, owner),
        _ => None,
    }
}

/// The binding a pattern makes when it is one name (`x`, `mut x`).
fn bound_name<'s>(pattern: Node<'_>, src: &'s [u8]) -> Option<&'s str> {
    match kind(pattern) {
        "identifier" => Some(text(pattern, src)),
        "mut_pattern" => bound_name(pattern.named_child(0)?, src),
        _ => None,
    }
}

fn push(out: &mut FileParse, scope: usize, name: String, ty: String) {
    out.types.push(TypeFact {
        scope: Some(scope),
        name,
        ty,
    });
}

/// The fields of `class` (declared earlier in this file) typed by a type parameter that the
/// `impl` around method `scope` bounds (`a: T` of `struct Chain<T, U>` in `impl<T: Buf, U>
/// … for Chain<T, U>`), as facts of the method: `Chain.a` is a `Buf` there. The struct and
/// the impl are matched by the parameter's name, as they are nearly always written.
pub(super) fn bound_fields(out: &mut FileParse, class: usize, scope: usize, ctx: &Ctx) {
    let Some(owner) = ctx.owner.as_deref() else {
        return;
    };
    let facts: Vec<TypeFact> = out
        .types
        .iter()
        .filter(|f| f.scope == Some(class))
        .filter_map(|f| {
            let field = f.name.strip_prefix("self.").filter(|n| !n.contains('['))?;
            Some(TypeFact {
                scope: Some(scope),
                name: format!("{owner}.{field}"),
                ty: bound_of(&f.ty, &ctx.bounds)?.clone(),
            })
        })
        .collect();
    out.types.extend(facts);
}

/// `let x: T = …` or `let x = T::new(…)` in function `scope`.
pub(super) fn let_binding(
    out: &mut FileParse,
    node: Node<'_>,
    src: &[u8],
    scope: usize,
    ctx: &Ctx,
) {
    let owner = ctx.owner.as_deref();
    let Some(name) = field(node, "pattern").and_then(|p| bound_name(p, src)) else {
        return;
    };
    if let Some(t) = field(node, "type") {
        typed(out, scope, name.to_string(), t, src, owner, &ctx.bounds);
    } else if let Some(ty) = field(node, "value").and_then(|v| held(v, src, owner)) {
        push(out, scope, name.to_string(), ty);
    }
}

/// Function `idx`'s parameters (`x: &T`) and return type.
pub(super) fn signature(out: &mut FileParse, idx: usize, node: Node<'_>, src: &[u8], ctx: &Ctx) {
    let owner = ctx.owner.as_deref();
    if let Some(ty) = field(node, "return_type").and_then(|t| declared(t, src, owner)) {
        out.returns.push((idx, bounded(ty, &ctx.bounds)));
    }
    let Some(params) = field(node, "parameters") else {
        return;
    };
    let mut c = params.walk();
    for p in params.named_children(&mut c) {
        if kind(p) != "parameter" {
            continue;
        }
        let name = field(p, "pattern").and_then(|n| bound_name(n, src));
        if let (Some(name), Some(t)) = (name, field(p, "type")) {
            typed(out, idx, name.to_string(), t, src, owner, &ctx.bounds);
        }
    }
}

/// The named fields of struct `idx` (`self.name` in its class's scope, as Python's attributes).
pub(super) fn fields(
    out: &mut FileParse,
    idx: usize,
    node: Node<'_>,
    src: &[u8],
    owner: &str,
    bounds: &[(String, String)],
) {
    let Some(body) = field(node, "body").filter(|b| kind(*b) == "field_declaration_list") else {
        return;
    };
    let mut c = body.walk();
    for f in body.named_children(&mut c) {
        if kind(f) != "field_declaration" {
            continue;
        }
        let name = field(f, "name").map(|n| text(n, src));
        if let (Some(name), Some(t)) = (name, field(f, "type")) {
            typed(
                out,
                idx,
                format!("self.{name}"),
                t,
                src,
                Some(owner),
                bounds,
            );
        }
    }
}
