//! What Rust names hold, as the type facts the linker types receivers with (the Python and
//! TypeScript walkers write the same): a parameter's and a `let`'s declared type, what a `let`
//! is bound to (a construction, a call's result), a struct's fields (`self.field`), and what a
//! function returns. Smart pointers and `Option`/`Result` are read through (`Arc<Map>` holds a
//! `Map`, `-> Result<Self, Error>` returns the type): a method called on the wrapper itself is
//! the standard library's, never the crate's.

use super::{callee_text, constructed, type_path, variant_enum};
use crate::code::lang::{FileParse, TypeFact, field, kind, text};
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

/// What a `let` value holds: a construction's type, a call's result (`Map.new()`), read
/// through `?`, `.unwrap()`, `.expect(…)`, `&` and parentheses.
fn held(node: Node<'_>, src: &[u8], owner: Option<&str>) -> Option<String> {
    match kind(node) {
        "struct_expression" => constructed(node, src, owner),
        "try_expression" | "parenthesized_expression" => held(node.named_child(0)?, src, owner),
        "reference_expression" => held(field(node, "value")?, src, owner),
        "call_expression" => {
            let function = field(node, "function")?;
            if kind(function) == "field_expression"
                && let Some(method) = field(function, "field")
                && matches!(text(method, src), "unwrap" | "expect")
            {
                return held(field(function, "value")?, src, owner);
            }
            let callee = callee_text(function, src, owner)?;
            Some(match variant_enum(&callee) {
                Some(enum_path) => enum_path,
                None => format!("{callee}()"),
            })
        }
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

/// `let x: T = …` or `let x = T::new(…)` in function `scope`.
pub(super) fn let_binding(
    out: &mut FileParse,
    node: Node<'_>,
    src: &[u8],
    scope: usize,
    owner: Option<&str>,
) {
    let Some(name) = field(node, "pattern").and_then(|p| bound_name(p, src)) else {
        return;
    };
    let ty = match field(node, "type") {
        Some(t) => declared(t, src, owner),
        None => field(node, "value").and_then(|v| held(v, src, owner)),
    };
    if let Some(ty) = ty {
        push(out, scope, name.to_string(), ty);
    }
}

/// Function `idx`'s parameters (`x: &T`) and return type.
pub(super) fn signature(
    out: &mut FileParse,
    idx: usize,
    node: Node<'_>,
    src: &[u8],
    owner: Option<&str>,
) {
    if let Some(ty) = field(node, "return_type").and_then(|t| declared(t, src, owner)) {
        out.returns.push((idx, ty));
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
        let ty = field(p, "type").and_then(|t| declared(t, src, owner));
        if let (Some(name), Some(ty)) = (name, ty) {
            push(out, idx, name.to_string(), ty);
        }
    }
}

/// The named fields of struct `idx` (`self.name` in its class's scope, as Python's attributes).
pub(super) fn fields(out: &mut FileParse, idx: usize, node: Node<'_>, src: &[u8], owner: &str) {
    let Some(body) = field(node, "body").filter(|b| kind(*b) == "field_declaration_list") else {
        return;
    };
    let mut c = body.walk();
    for f in body.named_children(&mut c) {
        if kind(f) != "field_declaration" {
            continue;
        }
        let name = field(f, "name").map(|n| text(n, src));
        let ty = field(f, "type").and_then(|t| declared(t, src, Some(owner)));
        if let (Some(name), Some(ty)) = (name, ty) {
            push(out, idx, format!("self.{name}"), ty);
        }
    }
}
