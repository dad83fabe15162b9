//! Rust extraction with tree-sitter: structs, enums, unions and traits (classes, with the Rust
//! item kind in `detail`), functions, methods of `impl` and `trait` blocks, `use` trees and
//! `mod x;` declarations, calls and constructions (`Point { x }`, `Kind::Empty`, calls of the
//! type), a variant in a pattern (a use of its enum) and `impl Trait for Type` (inherits);
//! what names hold is [`types`]'s.

use crate::code::lang::{
    Base, Call, FileParse, Import, SymKind, Symbol, children_rev, end_line_of, field, kind,
    line_of, note_error, parse_tree, plain_callee, text,
};
use std::rc::Rc;
use tree_sitter::{Node, Parser};

mod types;

/// Where a node sits: the symbol that contains it and the qualified-name prefix.
#[derive(Debug, Clone)]
struct Ctx {
    parent: Option<usize>,
    /// Qualified-name prefix for items declared here (`""` at the top, `tests` in `mod tests`,
    /// `Type` in `impl Type`, `f` inside `fn f`).
    qbase: String,
    /// `impl`/`trait` block: the type (or trait) whose methods are declared here.
    owner: Option<String>,
    /// The type parameters in scope bounded by one trait of ours (`T` of `impl<T: Buf>`).
    bounds: Rc<[(String, String)]>,
    /// `impl Trait for Type` block: the trait (`.`-joined) its methods implement.
    implements: Option<Rc<str>>,
    in_fn: bool,
}

fn join(base: &str, name: &str) -> String {
    if base.is_empty() {
        name.to_string()
    } else {
        format!("{base}.{name}")
    }
}

/// The bare name of a type: `Foo<T>` -> `Foo`, `a::Foo` -> `Foo`, `&Foo` -> `Foo`.
fn type_name(node: Node<'_>, src: &[u8]) -> Option<String> {
    match kind(node) {
        "type_identifier" | "identifier" => Some(text(node, src).to_string()),
        "generic_type" => field(node, "type").and_then(|t| type_name(t, src)),
        "scoped_type_identifier" => field(node, "name").and_then(|t| type_name(t, src)),
        "reference_type" => field(node, "type").and_then(|t| type_name(t, src)),
        _ => None,
    }
}

/// The type an `impl` block's methods belong to: its bare name, else (a slice, an array, a
/// tuple) its text without references, as rust-analyzer names it (`[u8]` of `impl Buf for
/// &[u8]`). Without it the block's methods were read as the module's free functions.
fn impl_owner(node: Node<'_>, src: &[u8]) -> String {
    if let Some(name) = type_name(node, src) {
        return name;
    }
    match field(node, "type").filter(|_| kind(node) == "reference_type") {
        Some(inner) => impl_owner(inner, src),
        None => squash(text(node, src)),
    }
}

fn squash(s: &str) -> String {
    s.chars().filter(|c| !c.is_whitespace()).collect()
}

fn prefixed(prefix: &str, rest: &str) -> String {
    if prefix.is_empty() {
        rest.to_string()
    } else {
        format!("{prefix}::{rest}")
    }
}

/// Flattens a `use` tree into (full path, local alias) pairs.
fn flatten_use(node: Node<'_>, prefix: &str, src: &[u8], out: &mut Vec<(String, String)>) {
    match kind(node) {
        "scoped_identifier" | "identifier" | "crate" | "self" | "super" | "metavariable" => {
            let mut full = prefixed(prefix, &squash(text(node, src)));
            if let Some(stripped) = full.strip_suffix("::self") {
                full = stripped.to_string();
            }
            let alias = full.rsplit("::").next().unwrap_or(&full).to_string();
            out.push((full, alias));
        }
        "use_as_clause" => {
            if let (Some(p), Some(a)) = (field(node, "path"), field(node, "alias")) {
                let full = prefixed(prefix, &squash(text(p, src)));
                out.push((full, text(a, src).to_string()));
            }
        }
        "use_wildcard" => {
            out.push((prefixed(prefix, &squash(text(node, src))), "*".to_string()));
        }
        "use_list" => {
            let mut c = node.walk();
            for child in node.named_children(&mut c) {
                flatten_use(child, prefix, src, out);
            }
        }
        "scoped_use_list" => {
            let p = field(node, "path")
                .map(|p| prefixed(prefix, &squash(text(p, src))))
                .unwrap_or_else(|| prefix.to_string());
            if let Some(list) = field(node, "list") {
                flatten_use(list, &p, src, out);
            }
        }
        _ => {}
    }
}

/// Methods that give the value they are called on, or what it wraps (`Option<T>`'s `T`):
/// read through in a receiver, as the type facts read through `Option` and `Result`.
const SAME_VALUE: [&str; 9] = [
    "unwrap",
    "expect",
    "clone",
    "as_ref",
    "as_mut",
    "borrow",
    "borrow_mut",
    "unwrap_or_default",
    "as_deref",
];

/// The key the linker types a called expression by, dotted: `helper`, `store.open`,
/// `Self::with` as `Owner.with`, `self.inner.len` as `Owner.inner.len`, and through calls'
/// results (`Url::parse(s)?.origin` as `Url.parse().origin`, `Kind::V(x).f` as `Kind().f`,
/// `Point { .. }.norm` as `Point().norm`).
fn callee_text(node: Node<'_>, src: &[u8], owner: Option<&str>) -> Option<String> {
    let node = if kind(node) == "generic_function" {
        field(node, "function")?
    } else {
        node
    };
    if !matches!(
        kind(node),
        "identifier" | "scoped_identifier" | "field_expression"
    ) {
        return None;
    }
    value_text(node, src, owner)
}

/// [`value_key`] with `self` and `Self` as the owner's, `None` when too long to be worth it.
fn value_text(node: Node<'_>, src: &[u8], owner: Option<&str>) -> Option<String> {
    let key = value_key(node, src, owner).filter(|k| k.len() < 200)?;
    Some(owned(key, owner))
}

/// `key` with a leading `self` or `Self` as `owner` (`self.items` as `Map.items`): the linker
/// reads it so in any file, wherever the type is declared.
fn owned(key: String, owner: Option<&str>) -> String {
    match owner.and_then(|o| {
        key.strip_prefix("self.")
            .or_else(|| key.strip_prefix("Self."))
            .map(|rest| format!("{o}.{rest}"))
    }) {
        Some(mine) => mine,
        None => key,
    }
}

/// A path without its type arguments: `ArrayVec::<u32, 3>::new` as `ArrayVec::new`.
fn without_turbofish(path: &str) -> std::borrow::Cow<'_, str> {
    if !path.contains("::<") {
        return path.into();
    }
    let mut out = String::with_capacity(path.len());
    let mut depth = 0usize;
    let mut rest = path;
    while let Some(c) = rest.chars().next() {
        if depth == 0 && rest.starts_with("::<") {
            depth = 1;
            rest = &rest[3..];
            continue;
        }
        match c {
            '<' if depth > 0 => depth += 1,
            '>' if depth > 0 => depth -= 1,
            _ if depth == 0 => out.push(c),
            _ => {}
        }
        rest = &rest[c.len_utf8()..];
    }
    out.into()
}

/// [`callee_text`]'s key of any expression it can name, before `self` is the owner's.
fn value_key(node: Node<'_>, src: &[u8], owner: Option<&str>) -> Option<String> {
    match kind(node) {
        "identifier" | "self" | "scoped_identifier" => {
            let t = without_turbofish(text(node, src));
            plain_callee(&t).then(|| t.replace("::", "."))
        }
        "generic_function" => value_key(field(node, "function")?, src, owner),
        "field_expression" => {
            let name = field(node, "field").filter(|f| kind(*f) == "field_identifier")?;
            let value = value_key(field(node, "value")?, src, owner)?;
            Some(format!("{value}.{}", text(name, src)))
        }
        "call_expression" => {
            let function = field(node, "function")?;
            if kind(function) == "field_expression"
                && field(function, "field").is_some_and(|m| SAME_VALUE.contains(&text(m, src)))
            {
                return value_key(field(function, "value")?, src, owner);
            }
            let called = value_key(function, src, owner)?;
            Some(format!("{}()", variant_enum(&called).unwrap_or(called)))
        }
        "try_expression" | "parenthesized_expression" => {
            value_key(node.named_child(0)?, src, owner)
        }
        "reference_expression" => value_key(field(node, "value")?, src, owner),
        "struct_expression" => Some(format!("{}()", constructed(node, src, owner)?)),
        _ => None,
    }
}

/// A type named in an expression (`Point`, `shapes::Point`, `Self`), dotted, `Self` as the
/// type whose `impl` holds it.
fn type_path(node: Node<'_>, src: &[u8], owner: Option<&str>) -> Option<String> {
    let node = match kind(node) {
        "generic_type" | "generic_type_with_turbofish" => field(node, "type")?,
        _ => node,
    };
    if !matches!(
        kind(node),
        "type_identifier" | "scoped_type_identifier" | "identifier" | "scoped_identifier"
    ) {
        return None;
    }
    let t = text(node, src);
    if !plain_callee(t) {
        return None;
    }
    let dotted = t.replace("::", ".");
    Some(match (owner, dotted.strip_prefix("Self")) {
        (Some(o), Some(rest)) if rest.is_empty() || rest.starts_with('.') => format!("{o}{rest}"),
        _ => dotted,
    })
}

/// The type a struct expression constructs: `Point { x }`, `shapes::Point { x }`, and the
/// enum of `Kind::Named { x }`.
fn constructed(node: Node<'_>, src: &[u8], owner: Option<&str>) -> Option<String> {
    let ty = type_path(field(node, "name")?, src, owner)?;
    Some(variant_enum(&ty).unwrap_or(ty))
}

/// The enum of a variant path (`Kind` of `Kind.Named`, `ast.Kind` of `ast.Kind.Named`): its
/// last two names are capitalised, the last in camel case (`u32.MAX` and `Self.LIMIT` are
/// constants, `Point.new` a function).
fn variant_enum(dotted: &str) -> Option<String> {
    let (enum_path, variant) = dotted.rsplit_once('.')?;
    let enum_name = enum_path.rsplit('.').next().unwrap_or(enum_path);
    let capitalised = |s: &str| s.starts_with(|c: char| c.is_ascii_uppercase());
    (capitalised(enum_name)
        && capitalised(variant)
        && variant.contains(|c: char| c.is_ascii_lowercase()))
    .then(|| enum_path.to_string())
}

/// A variant named as a value (`Kind::Empty`) constructs its enum, a call of it; in a pattern
/// (`Kind::Empty =>`, `if let Kind::Empty = k`) it reads it, a use. Only the outermost path of
/// an expression or pattern: a call's callee, a struct's name and a longer path are their
/// own node's.
fn variant_path(out: &mut FileParse, node: Node<'_>, src: &[u8], ctx: &Ctx) {
    let Some(parent) = node.parent() else {
        return;
    };
    let pattern = match kind(parent) {
        "scoped_identifier"
        | "scoped_type_identifier"
        | "struct_expression"
        | "use_declaration"
        | "use_list"
        | "scoped_use_list"
        | "use_as_clause"
        | "macro_invocation" => return,
        "call_expression" if field(parent, "function") == Some(node) => return,
        "match_pattern"
        | "or_pattern"
        | "tuple_struct_pattern"
        | "struct_pattern"
        | "tuple_pattern"
        | "slice_pattern"
        | "ref_pattern"
        | "captured_pattern"
        | "reference_pattern" => true,
        "let_declaration" | "let_condition" => field(parent, "pattern") == Some(node),
        _ => false,
    };
    let Some(path) = type_path(node, src, ctx.owner.as_deref()) else {
        return;
    };
    let Some(enum_path) = variant_enum(&path) else {
        return;
    };
    if pattern {
        out.uses.push(Call {
            caller: ctx.parent,
            callee: enum_path,
            line: line_of(node),
        });
    } else {
        out.push_call(ctx.parent, enum_path, node);
    }
}

fn has_path_attribute(node: Node<'_>, src: &[u8]) -> bool {
    let mut prev = node.prev_sibling();
    while let Some(p) = prev {
        if kind(p) != "attribute_item" {
            break;
        }
        if text(p, src).contains("path") {
            return true;
        }
        prev = p.prev_sibling();
    }
    false
}

fn push_symbol(
    out: &mut FileParse,
    node: Node<'_>,
    name: &str,
    kind: SymKind,
    ctx: &Ctx,
    detail: Option<&'static str>,
) -> usize {
    out.symbols.push(Symbol {
        kind,
        name: name.to_string(),
        local_qname: join(&ctx.qbase, name),
        line: line_of(node),
        end_line: end_line_of(node),
        parent: ctx.parent,
        detail,
    });
    out.symbols.len() - 1
}

/// Parses one Rust source file: a walk over the tree, each item of interest handled by its
/// own function below, which may open a new naming context for the item's children.
pub fn parse(parser: &mut Parser, src: &[u8]) -> Result<FileParse, String> {
    let tree = parse_tree(parser, src)?;
    let mut out = FileParse::default();
    let mut ctxs = vec![Ctx {
        parent: None,
        qbase: String::new(),
        owner: None,
        in_fn: false,
        bounds: Rc::new([]),
        implements: None,
    }];
    walk(&mut out, parser, tree.root_node(), src, &mut ctxs, 0, 0);
    Ok(out)
}

/// How deep macros inside macros' arguments are parsed: each level parses its text again, so
/// a file of deeply nested macros costs at most this many parses of itself.
const MAX_MACRO_DEPTH: u8 = 8;

/// Walks `root` in context `ci`, inside `depth` macros' arguments. There only expressions
/// count: items, imports and syntax errors are the macro's business.
fn walk(
    out: &mut FileParse,
    parser: &mut Parser,
    root: Node<'_>,
    src: &[u8],
    ctxs: &mut Vec<Ctx>,
    ci: usize,
    depth: u8,
) {
    let in_macro = depth > 0;
    let mut stack: Vec<(Node<'_>, usize)> = vec![(root, ci)];
    while let Some((node, ci)) = stack.pop() {
        if !in_macro {
            note_error(out, node, src);
        }
        if !node.has_error()
            && matches!(
                kind(node),
                "string_literal" | "raw_string_literal" | "line_comment" | "block_comment"
            )
        {
            continue;
        }
        let ctx = ctxs[ci].clone();
        let opened = match kind(node) {
            "struct_item"
            | "enum_item"
            | "union_item"
            | "trait_item"
            | "impl_item"
            | "function_item"
            | "function_signature_item"
            | "mod_item"
            | "use_declaration"
                if in_macro =>
            {
                continue;
            }
            "struct_item" | "enum_item" | "union_item" | "trait_item" => {
                type_item(out, node, src, &ctx)
            }
            "impl_item" => impl_item(out, node, src, &ctx),
            "function_item" | "function_signature_item" => function(out, node, src, &ctx),
            "mod_item" => mod_item(out, node, src, &ctx),
            "use_declaration" => {
                use_declaration(out, node, src);
                continue;
            }
            "macro_invocation" => {
                if depth < MAX_MACRO_DEPTH {
                    macro_arguments(out, parser, node, src, ctxs, ci, depth + 1);
                }
                continue;
            }
            "let_declaration" => {
                if let Some(scope) = ctx.parent.filter(|_| ctx.in_fn) {
                    types::let_binding(out, node, src, scope, &ctx);
                }
                None
            }
            "for_expression" => {
                if let Some(scope) = ctx.parent.filter(|_| ctx.in_fn) {
                    types::for_binding(out, node, src, scope, &ctx);
                }
                None
            }
            "closure_expression" => {
                if let Some(scope) = ctx.parent.filter(|_| ctx.in_fn) {
                    types::closure_binding(out, node, src, scope, &ctx);
                }
                None
            }
            "call_expression" => {
                if let Some(callee) =
                    field(node, "function").and_then(|f| callee_text(f, src, ctx.owner.as_deref()))
                {
                    // `Kind::Tuple(x)` constructs a `Kind`, as `Point(x)` constructs a `Point`.
                    let callee = variant_enum(&callee).unwrap_or(callee);
                    out.push_call(ctx.parent, callee, node);
                }
                None
            }
            "struct_expression" => {
                if let Some(ty) = constructed(node, src, ctx.owner.as_deref()) {
                    out.push_call(ctx.parent, ty, node);
                }
                None
            }
            "scoped_identifier" => {
                variant_path(out, node, src, &ctx);
                None
            }
            // `Kind::Named { x } =>`: the one place a variant is a type's path.
            "scoped_type_identifier"
                if node.parent().is_some_and(|p| kind(p) == "struct_pattern") =>
            {
                variant_path(out, node, src, &ctx);
                None
            }
            _ => None,
        };
        let child_ci = match opened {
            Some(inner) => {
                ctxs.push(inner);
                ctxs.len() - 1
            }
            None => ci,
        };
        for child in children_rev(node) {
            stack.push((child, child_ci));
        }
    }
}

/// `matches!(value, pattern)` (and `assert_matches!`) as its value and its pattern, with a
/// guard if any: the pattern is no expression, so it is parsed as a `match` arm.
fn pattern_split<'s>(node: Node<'_>, args: Node<'_>, src: &'s [u8]) -> Option<(&'s str, &'s str)> {
    let name = text(field(node, "macro")?, src);
    let name = name.rsplit("::").next().unwrap_or(name);
    if !matches!(name, "matches" | "assert_matches" | "debug_assert_matches") {
        return None;
    }
    let mut c = args.walk();
    let comma = args.children(&mut c).find(|t| kind(*t) == ",")?;
    let tokens = src.get(args.start_byte() + 1..args.end_byte().checked_sub(1)?)?;
    let split = comma.start_byte().checked_sub(args.start_byte() + 1)?;
    let value = std::str::from_utf8(tokens.get(..split)?).ok()?;
    let pattern = std::str::from_utf8(tokens.get(split + 1..)?).ok()?;
    Some((value, pattern))
}

/// The arguments of `assert_eq!(a.len(), n)`, `vec![Point::new()]`, `write!(f, "{}", x.y())`:
/// tree-sitter leaves a macro's tokens unparsed, so a `(…)` or `[…]` argument list is parsed
/// again as one expression and walked in the macro's context, its lines moved back to the
/// file's. One that is no expression (`matches!(x, Some(_) if y)`, `info!(target: "t", …)`,
/// a list of items) gives nothing, as `{…}` bodies do.
fn macro_arguments(
    out: &mut FileParse,
    parser: &mut Parser,
    node: Node<'_>,
    src: &[u8],
    ctxs: &mut Vec<Ctx>,
    ci: usize,
    depth: u8,
) {
    let mut c = node.walk();
    let Some(args) = node
        .named_children(&mut c)
        .find(|n| kind(*n) == "token_tree")
    else {
        return;
    };
    let tokens = text(args, src);
    // serde_json's `json!` holds JSON, no Rust expression: parsing it as one only recovers
    // from errors, the slowest parse there is.
    let name = field(node, "macro").map_or("", |m| text(m, src));
    if !(tokens.starts_with('(') || tokens.starts_with('['))
        || name.rsplit("::").next() == Some("json")
    {
        return;
    }
    // Most arguments are names and literals (`format!("{}", x)`): no call, construction or
    // path to find, so no parse (a `(` or `{` in a string costs one for nothing).
    let inner = tokens.get(1..).unwrap_or("");
    if !inner.contains(['(', '{']) && !inner.contains("::") {
        return;
    }
    // The prefix stays on the arguments' first line, so rows differ by that line's row only.
    let snippet = match pattern_split(node, args, src) {
        Some((value, pattern)) => format!("fn m(){{match {value} {{{pattern} => {{}}}}}}"),
        None => format!("fn m(){{{tokens};}}"),
    };
    let Ok(tree) = parse_tree(parser, snippet.as_bytes()) else {
        return;
    };
    let root = tree.root_node();
    let Some(body) = root.named_child(0).and_then(|f| field(f, "body")) else {
        return;
    };
    if root.has_error() {
        return;
    }
    let (calls, uses) = (out.calls.len(), out.uses.len());
    walk(out, parser, body, snippet.as_bytes(), ctxs, ci, depth);
    let rows = args.start_position().row as u32;
    for call in out.calls[calls..].iter_mut().chain(&mut out.uses[uses..]) {
        call.line += rows;
    }
}

/// A struct, enum, union or trait (a class with its Rust kind as detail); a trait opens the
/// context of its methods.
fn type_item(out: &mut FileParse, node: Node<'_>, src: &[u8], ctx: &Ctx) -> Option<Ctx> {
    let name = text(field(node, "name")?, src).to_string();
    let detail = match kind(node) {
        "struct_item" => "struct",
        "enum_item" => "enum",
        "union_item" => "union",
        _ => "trait",
    };
    let idx = push_symbol(out, node, &name, SymKind::Class, ctx, Some(detail));
    if detail == "struct" {
        let bounds = types::bounds(node, src, &ctx.bounds);
        types::fields(out, idx, node, src, &name, &bounds);
    }
    (detail == "trait").then(|| Ctx {
        parent: Some(idx),
        qbase: join(&ctx.qbase, &name),
        owner: Some(name),
        in_fn: false,
        bounds: ctx.bounds.clone(),
        implements: None,
    })
}

/// `impl [Trait for] Type`: the trait becomes a base of the type (when the type is declared
/// earlier in this file), and the block opens the context of the type's methods.
fn impl_item(out: &mut FileParse, node: Node<'_>, src: &[u8], ctx: &Ctx) -> Option<Ctx> {
    let ty = impl_owner(field(node, "type")?, src);
    let qname = join(&ctx.qbase, &ty);
    // The type's own symbol when it is declared earlier in this file.
    let class = out
        .symbols
        .iter()
        .rposition(|s| s.kind == SymKind::Class && s.local_qname == qname);
    let implements = field(node, "trait").map(|tr| {
        let base = match kind(tr) {
            "generic_type" => field(tr, "type").unwrap_or(tr),
            _ => tr,
        };
        let base = squash(text(base, src)).replace("::", ".");
        if let Some(class) = class {
            out.bases.push(Base {
                class,
                base: base.clone(),
                line: line_of(tr),
            });
        }
        Rc::from(base)
    });
    Some(Ctx {
        parent: class,
        qbase: qname,
        owner: Some(ty),
        in_fn: false,
        bounds: types::bounds(node, src, &ctx.bounds),
        implements,
    })
}

/// A function or method (a method when directly in an `impl` or trait); it opens the
/// context of its nested items.
fn function(out: &mut FileParse, node: Node<'_>, src: &[u8], ctx: &Ctx) -> Option<Ctx> {
    let name = text(field(node, "name")?, src).to_string();
    let kind = if ctx.owner.is_some() && !ctx.in_fn {
        SymKind::Method
    } else {
        SymKind::Function
    };
    let idx = push_symbol(out, node, &name, kind, ctx, None);
    if kind == SymKind::Method {
        if let Some(tr) = &ctx.implements {
            out.implemented.push((idx, tr.to_string()));
        }
        if let Some(class) = ctx.parent.filter(|_| !ctx.bounds.is_empty()) {
            types::bound_fields(out, class, idx, ctx);
        }
    }
    let bounds = types::bounds(node, src, &ctx.bounds);
    let inner = Ctx {
        parent: Some(idx),
        qbase: join(&ctx.qbase, &name),
        owner: ctx.owner.clone(),
        in_fn: true,
        bounds,
        implements: None,
    };
    types::signature(out, idx, node, src, &inner);
    Some(inner)
}

/// `mod x { ... }` opens a naming context; a top-level `mod x;` (without `#[path]`) is an
/// import of its file.
fn mod_item(out: &mut FileParse, node: Node<'_>, src: &[u8], ctx: &Ctx) -> Option<Ctx> {
    let name = text(field(node, "name")?, src).to_string();
    if field(node, "body").is_some() {
        return Some(Ctx {
            parent: ctx.parent,
            qbase: join(&ctx.qbase, &name),
            owner: None,
            in_fn: ctx.in_fn,
            bounds: ctx.bounds.clone(),
            implements: None,
        });
    }
    if ctx.qbase.is_empty() && !has_path_attribute(node, src) {
        out.imports.push(Import {
            module: name.clone(),
            level: 0,
            name: None,
            alias: name,
            line: line_of(node),
            deferred: true,
            mod_decl: true,
        });
    }
    None
}

/// `use a::{b, c as d, e::*}`: one import per path.
fn use_declaration(out: &mut FileParse, node: Node<'_>, src: &[u8]) {
    let Some(arg) = field(node, "argument") else {
        return;
    };
    let mut paths = Vec::new();
    flatten_use(arg, "", src, &mut paths);
    for (path, alias) in paths {
        out.imports.push(Import {
            name: (alias == "*").then(|| "*".to_string()),
            module: path.strip_suffix("::*").unwrap_or(&path).to_string(),
            level: 0,
            alias,
            line: line_of(node),
            // Rust modules may use each other freely: never an import cycle.
            deferred: true,
            mod_decl: false,
        });
    }
}

#[cfg(test)]
mod tests {
    use crate::code::lang::{FileParse, Lang, Parsers, SymKind};

    fn parsed(src: &[u8]) -> FileParse {
        let r = Parsers::default().parse(Lang::Rust, src).unwrap();
        assert!(r.parse_error.is_none(), "{:?}", r.parse_error);
        r
    }

    /// (scope, name, type) of each type fact.
    fn scoped_facts(r: &FileParse) -> Vec<(usize, &str, &str)> {
        r.types
            .iter()
            .map(|f| (f.scope.unwrap(), f.name.as_str(), f.ty.as_str()))
            .collect()
    }

    #[test]
    fn rust_items_uses_calls_and_impls() {
        let src = br#"
use crate::store::{self, Db as Database, inner::Thing};
use serde::Deserialize;
use std::collections::*;
mod engine;
#[path = "x.rs"]
mod renamed;

pub trait Shape { fn area(&self) -> f64; }
pub struct Square { side: f64 }
pub enum Kind { A, B }
impl Shape for Square {
    fn area(&self) -> f64 { self.side * helper(self.side) }
}
impl Square {
    pub fn new() -> Self { Self::with(1.0) }
    fn with(side: f64) -> Self { store::open(); Square { side } }
}
fn helper(x: f64) -> f64 {
    fn nested() {}
    nested();
    x
}
#[cfg(test)]
mod tests { fn t() { super::helper(1.0); } }
"#;
        let r = Parsers::default().parse(Lang::Rust, src).unwrap();
        assert!(r.parse_error.is_none(), "{:?}", r.parse_error);
        let names: Vec<(&str, &str, Option<&str>)> = r
            .symbols
            .iter()
            .map(|s| (s.kind.as_str(), s.local_qname.as_str(), s.detail))
            .collect();
        assert_eq!(
            names,
            vec![
                ("class", "Shape", Some("trait")),
                ("method", "Shape.area", None),
                ("class", "Square", Some("struct")),
                ("class", "Kind", Some("enum")),
                ("method", "Square.area", None),
                ("method", "Square.new", None),
                ("method", "Square.with", None),
                ("function", "helper", None),
                ("function", "helper.nested", None),
                ("function", "tests.t", None),
            ]
        );
        let imports: Vec<(&str, &str, bool)> = r
            .imports
            .iter()
            .map(|i| (i.module.as_str(), i.alias.as_str(), i.mod_decl))
            .collect();
        assert_eq!(
            imports,
            vec![
                ("crate::store", "store", false),
                ("crate::store::Db", "Database", false),
                ("crate::store::inner::Thing", "Thing", false),
                ("serde::Deserialize", "Deserialize", false),
                ("std::collections", "*", false),
                ("engine", "engine", true),
            ]
        );
        let callees: Vec<&str> = r.calls.iter().map(|c| c.callee.as_str()).collect();
        for c in [
            "helper",
            "Square.with",
            "store.open",
            "nested",
            "super.helper",
        ] {
            assert!(callees.contains(&c), "{c} missing from {callees:?}");
        }
        let bases: Vec<(usize, &str)> =
            r.bases.iter().map(|b| (b.class, b.base.as_str())).collect();
        assert_eq!(bases, vec![(2, "Shape")]);
        let r = Parsers::default()
            .parse(Lang::Rust, b"fn ok() {}\nfn broken( {\n")
            .unwrap();
        assert_eq!(r.parse_error.map(|(l, _)| l), Some(2));
    }

    #[test]
    fn constructions_are_calls_of_their_type_and_variants_in_patterns_are_uses() {
        let src = br#"
pub struct Point { x: i32 }
pub struct Pair(i32, i32);
pub enum Kind { Empty, Tuple(i32), Named { x: i32 }, LIMIT }
impl Point {
    fn origin() -> Point { Self { x: 0 } }
    fn kind(&self) -> Kind {
        let p = Pair(1, 2);
        let q = shapes::Circle { r: 1 };
        match self.x {
            0 => Kind::Empty,
            1 => Kind::Tuple(1),
            _ => ast::Kind::Named { x: 2 },
        }
    }
}
fn describe(k: &Kind) -> u32 {
    let max = u32::MAX;
    let v = Point::origin();
    match k {
        Kind::Empty | Kind::LIMIT => 0,
        Kind::Tuple(n) => 1,
        Kind::Named { x } if *x > 0 => 2,
        _ => 3,
    }
}
fn unpack(k: Kind) { if let Kind::Empty = k {} let Kind::Tuple(n) = k else { return }; }
"#;
        let r = Parsers::default().parse(Lang::Rust, src).unwrap();
        assert!(r.parse_error.is_none(), "{:?}", r.parse_error);
        let mut calls: Vec<&str> = r.calls.iter().map(|c| c.callee.as_str()).collect();
        calls.sort_unstable();
        assert_eq!(
            calls,
            vec![
                "Kind",
                "Kind",
                "Pair",
                "Point",
                "Point.origin",
                "ast.Kind",
                "shapes.Circle"
            ]
        );
        let mut uses: Vec<(&str, u32)> =
            r.uses.iter().map(|u| (u.callee.as_str(), u.line)).collect();
        uses.sort_unstable();
        assert_eq!(
            uses,
            vec![
                ("Kind", 21),
                ("Kind", 22),
                ("Kind", 23),
                ("Kind", 27),
                ("Kind", 27)
            ]
        );
    }

    #[test]
    fn calls_in_macro_arguments_are_calls_on_their_own_lines() {
        let src = br#"
struct Point { x: i32 }
impl Point {
    fn show(&self, f: &mut Formatter) {
        write!(f, "{}", self.norm())?;
        assert_eq!(
            helper(self.x),
            Point { x: 1 }.norm()
        );
        let v = vec![Point::new(), Kind::Empty];
        assert!(matches!(self.kind(), Kind::Named { .. }));
        info!(target: "t", "{}", skipped());
        thread_local! { static S: u32 = braced(); }
        println!("{}", format!("{}", nested()));
    }
}
"#;
        let r = Parsers::default().parse(Lang::Rust, src).unwrap();
        assert!(r.parse_error.is_none(), "{:?}", r.parse_error);
        let calls: Vec<(&str, u32)> = r
            .calls
            .iter()
            .map(|c| (c.callee.as_str(), c.line))
            .collect();
        assert_eq!(
            calls,
            vec![
                ("Point.norm", 5),
                ("helper", 7),
                ("Point().norm", 8),
                ("Point", 8),
                ("Point.new", 10),
                ("Kind", 10),
                ("Point.kind", 11),
                ("nested", 14),
            ]
        );
        let uses: Vec<(&str, u32)> = r.uses.iter().map(|c| (c.callee.as_str(), c.line)).collect();
        assert_eq!(uses, vec![("Kind", 11)]);
        assert!(r.symbols.iter().all(|s| s.name != "m"));
    }

    #[test]
    fn macros_nested_in_arguments_are_parsed_to_a_bounded_depth() {
        let depth = 40;
        let src = format!(
            "fn f() {{ {}g(){} }}\n",
            "a!(h(), ".repeat(depth),
            ")".repeat(depth)
        );
        let r = parsed(src.as_bytes());
        let calls: Vec<&str> = r.calls.iter().map(|c| c.callee.as_str()).collect();
        assert_eq!(calls, vec!["h"; super::MAX_MACRO_DEPTH as usize]);
    }

    #[test]
    fn turbofish_type_arguments_are_left_out_of_a_path() {
        let src = b"fn f() { let v = ArrayVec::<u32, 3>::new(); Vec::<Map<u8, u8>>::with_capacity(1); parse::<u8>(); }\n";
        let r = Parsers::default().parse(Lang::Rust, src).unwrap();
        let calls: Vec<&str> = r.calls.iter().map(|c| c.callee.as_str()).collect();
        assert_eq!(calls, vec!["ArrayVec.new", "Vec.with_capacity", "parse"]);
        let facts: Vec<(&str, &str)> = r
            .types
            .iter()
            .map(|f| (f.name.as_str(), f.ty.as_str()))
            .collect();
        assert_eq!(facts, vec![("v", "ArrayVec.new()")]);
    }

    #[test]
    fn elements_of_collections_in_loops_and_closures() {
        let src = br#"
pub struct Scene { shapes: Vec<Shape>, by_name: HashMap<String, Arc<Shape>>, grid: [Cell; 4] }
impl Scene {
    fn draw(&self, extra: &[Shape], x: Cell) {
        for s in &self.shapes {}
        for (i, e) in extra.iter().enumerate() {}
        for v in self.by_name.values() {}
        for &c in self.grid.iter().rev() {}
        for (k, v2) in &self.by_name {}
        let areas: Vec<f64> = self.shapes.iter().filter(|t| t.big()).map(|u| u.area()).collect();
        self.grid.iter().for_each(|x| x.paint());
    }
}
"#;
        let r = parsed(src);
        let facts = scoped_facts(&r);
        // Symbols: Scene 0, Scene.draw 1. `x` is the parameter's, not the closure's.
        assert_eq!(
            facts,
            vec![
                (0, "self.shapes[]", "Shape"),
                (0, "self.shapes[*]", "Shape"),
                (0, "self.shapes", "Vec"),
                (0, "self.by_name[]", "Shape"),
                (0, "self.by_name", "HashMap"),
                (0, "self.grid[]", "Cell"),
                (0, "self.grid[*]", "Cell"),
                (1, "extra[]", "Shape"),
                (1, "extra[*]", "Shape"),
                (1, "x", "Cell"),
                (1, "s", "Scene.shapes[*]"),
                (1, "e", "extra[*]"),
                (1, "v", "Scene.by_name.values()[*]"),
                (1, "c", "Scene.grid[*]"),
                (1, "areas", "Vec"),
                (1, "t", "Scene.shapes[*]"),
                (1, "u", "Scene.shapes[*]"),
            ]
        );
    }

    #[test]
    fn type_parameters_are_the_one_trait_of_ours_bounding_them() {
        let src = br#"
pub struct Reader<R: io::Buf + Send> { inner: R }
impl<B: Buf> Wrap<B> {
    fn one<T: Clone + Buf, U>(&self, t: &mut T, u: U, b: Vec<B>) -> T where U: Sink + Debug {
        let v: B = todo!();
    }
    fn two<T: Buf + Sink>(t: T) {}
}
"#;
        let r = parsed(src);
        let facts = scoped_facts(&r);
        // Symbols: Reader 0, Wrap.one 1, Wrap.two 2; `T: Buf + Sink` is ambiguous.
        assert_eq!(
            facts,
            vec![
                (0, "self.inner", "io.Buf"),
                (1, "t", "Buf"),
                (1, "u", "Sink"),
                (1, "b[]", "Buf"),
                (1, "b[*]", "Buf"),
                (1, "b", "Vec"),
                (1, "v", "Buf"),
                (2, "t", "T"),
            ]
        );
        assert_eq!(r.returns, vec![(1, "Buf".to_string())]);
    }

    #[test]
    fn trait_impls_name_their_trait_and_bound_fields_type_their_methods() {
        let src = br#"
pub struct Chain<T, U> { a: T, b: U, n: usize }
impl<T, U> Buf for Chain<T, U> where T: Buf, U: Debug {
    fn remaining(&self) -> usize { self.a.remaining() }
}
impl<T, U> Chain<T, U> {
    fn first(&self) -> &T { &self.a }
}
impl bytes::BufMut for Other {
    fn put(&mut self) {}
}
impl Buf for &[u8] {
    fn chunk(&self) -> &[u8] { self }
}
"#;
        let r = parsed(src);
        // Symbols: Chain 0, Chain.remaining 1, Chain.first 2, Other.put 3, [u8].chunk 4 (a
        // method of the slice, as rust-analyzer names it, not a free function).
        assert_eq!(
            r.implemented,
            vec![
                (1, "Buf".to_string()),
                (3, "bytes.BufMut".to_string()),
                (4, "Buf".to_string())
            ]
        );
        assert_eq!(r.symbols[4].local_qname, "[u8].chunk");
        assert_eq!(r.symbols[4].kind, SymKind::Method);
        // `U: Debug` is a library trait's bound, and the inherent impl bounds nothing.
        let facts = scoped_facts(&r);
        assert_eq!(
            facts,
            vec![
                (0, "self.a", "T"),
                (0, "self.b", "U"),
                (1, "Chain.a", "Buf"),
            ]
        );
    }

    #[test]
    fn type_facts_of_parameters_lets_fields_and_returns() {
        let src = br#"
pub struct Map { inner: Arc<Core>, list: Vec<u8>, name: &'static str }
impl Map {
    pub fn new() -> Self { Map { inner: Arc::new(Core::default()), list: vec![], name: "" } }
    pub fn parse(s: &str) -> Result<Map, Error> { todo!() }
    fn run(&self, other: &mut Map, dynamic: &dyn Visit, n: usize) {
        let a = Map::new();
        let b: Option<Core> = None;
        let c = Map::parse("x")?;
        let d = Map::parse("x").unwrap();
        let mut e = Core { n };
        let f = Kind::Tuple(1);
        let (g, h) = (1, 2);
    }
}
"#;
        let r = parsed(src);
        let facts = scoped_facts(&r);
        // Symbols: Map 0, Map.new 1, Map.parse 2, Map.run 3.
        assert_eq!(
            facts,
            vec![
                (0, "self.inner", "Core"),
                (0, "self.list", "Vec"),
                (3, "other", "Map"),
                (3, "dynamic", "Visit"),
                (3, "a", "Map.new()"),
                (3, "b", "Core"),
                (3, "c", "Map.parse()"),
                (3, "d", "Map.parse()"),
                (3, "e", "Core"),
                (3, "f", "Kind()"),
            ]
        );
        assert_eq!(
            r.returns,
            vec![(1, "Map".to_string()), (2, "Map".to_string())]
        );
    }
}
