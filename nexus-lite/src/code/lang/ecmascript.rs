//! TypeScript (`.ts`, `.tsx`) and JavaScript (`.js`, `.jsx`, `.mjs`, `.cjs`) extraction with
//! tree-sitter. The TypeScript grammars extend the JavaScript one, so one walker serves both:
//! classes and interfaces, functions (declarations and `const f = () => ...`), methods,
//! `import`/`export ... from`/`require()`/`import()`, calls, `extends`, and the facts that type
//! receivers ([`types`]).

mod types;

use crate::code::lang::{
    Base, FUNCTION_TYPE, FileParse, INTERFACE, Import, SymKind, children_rev, field, in_function,
    kind, line_of, note_error, parse_tree, push_symbol, text,
};
use tree_sitter::{Node, Parser};

/// The text of a string literal without its quotes.
fn string_value(node: Node<'_>, src: &[u8]) -> Option<String> {
    if !matches!(kind(node), "string" | "template_string") {
        return None;
    }
    let t = text(node, src);
    let inner = t
        .trim_matches(|c| c == '"' || c == '\'' || c == '`')
        .to_string();
    (!inner.is_empty() && !inner.contains("${")).then_some(inner)
}

/// `const x = require('m')` / `const {a, b: c} = require('m')`, and the same of `await
/// import('m')` (`call`: the `require` or `import` call): (name, alias) bindings.
fn require_bindings(call: Node<'_>, src: &[u8]) -> Vec<(Option<String>, String)> {
    let value = match call.parent() {
        Some(p) if kind(p) == "await_expression" => p,
        _ => call,
    };
    let Some(decl) = value.parent().filter(|p| kind(*p) == "variable_declarator") else {
        return vec![(None, String::new())];
    };
    let Some(name) = field(decl, "name") else {
        return vec![(None, String::new())];
    };
    match kind(name) {
        "identifier" => vec![(None, text(name, src).to_string())],
        "object_pattern" => {
            let mut v = Vec::new();
            let mut c = name.walk();
            for p in name.named_children(&mut c) {
                match kind(p) {
                    "shorthand_property_identifier_pattern" => {
                        let n = text(p, src).to_string();
                        v.push((Some(n.clone()), n));
                    }
                    "pair_pattern" => {
                        if let (Some(k), Some(val)) = (field(p, "key"), field(p, "value")) {
                            v.push((Some(text(k, src).to_string()), text(val, src).to_string()));
                        }
                    }
                    _ => {}
                }
            }
            v
        }
        _ => vec![(None, String::new())],
    }
}

/// The whole-module binding `(None, alias)` of `* as alias` or `alias = require(...)`: the
/// node's first identifier child.
fn identifier_binding(node: Node<'_>, src: &[u8]) -> Option<(Option<String>, String)> {
    let mut c = node.walk();
    node.named_children(&mut c)
        .find(|n| kind(*n) == "identifier")
        .map(|id| (None, text(id, src).to_string()))
}

/// (name, alias) bindings of an `import_clause`.
fn clause_bindings(clause: Node<'_>, src: &[u8]) -> Vec<(Option<String>, String)> {
    let mut v = Vec::new();
    let mut c = clause.walk();
    for child in clause.named_children(&mut c) {
        match kind(child) {
            "identifier" => v.push((Some("default".to_string()), text(child, src).to_string())),
            "namespace_import" => v.extend(identifier_binding(child, src)),
            "named_imports" => v.extend(specifiers(child, "import_specifier", src)),
            _ => {}
        }
    }
    v
}

/// (name, alias) of each `wanted` specifier in `{ a, b as c }` (an import's, or an
/// `export { … } from 'm'` clause's); no alias binds the name itself.
fn specifiers(list: Node<'_>, wanted: &str, src: &[u8]) -> Vec<(Option<String>, String)> {
    let mut v = Vec::new();
    let mut c = list.walk();
    for spec in list.named_children(&mut c) {
        if kind(spec) != wanted {
            continue;
        }
        if let Some(n) = field(spec, "name") {
            let name = text(n, src).to_string();
            let alias = field(spec, "alias")
                .map(|a| text(a, src).to_string())
                .unwrap_or_else(|| name.clone());
            v.push((Some(name), alias));
        }
    }
    v
}

fn has_child_kind(node: Node<'_>, wanted: &str) -> bool {
    let mut c = node.walk();
    node.children(&mut c).any(|ch| kind(ch) == wanted)
}

/// Parses one TypeScript or JavaScript file (the parser decides which grammar): a walk over
/// the tree, each construct of interest handled by its own function below.
pub fn parse(parser: &mut Parser, src: &[u8]) -> Result<FileParse, String> {
    let tree = parse_tree(parser, src)?;
    let mut out = FileParse::default();
    let mut stack: Vec<(Node<'_>, Option<usize>)> = vec![(tree.root_node(), None)];
    let mut signatures = types::Signatures::default();
    let mut narrowing = types::Narrowing::default();
    let mut anonymous = types::Anonymous::default();
    while let Some((node, scope)) = stack.pop() {
        note_error(&mut out, node, src);
        // Template strings are walked: `${f(x)}` holds calls.
        if !node.has_error() && matches!(kind(node), "string" | "comment") {
            continue;
        }
        let mut child_scope = scope;
        let mut imported = false;
        match kind(node) {
            "class_declaration" | "abstract_class_declaration" | "class" => {
                if let Some(idx) = class(&mut out, node, src, scope) {
                    types::type_parameters(&mut out, node, src, idx);
                    child_scope = Some(idx);
                }
            }
            "interface_declaration" => {
                if let Some(idx) = interface(&mut out, node, src, scope) {
                    types::type_parameters(&mut out, node, src, idx);
                    child_scope = Some(idx);
                }
            }
            "type_alias_declaration" => {
                if let Some(idx) = type_alias(&mut out, node, src, scope) {
                    types::type_parameters(&mut out, node, src, idx);
                    child_scope = Some(idx);
                }
            }
            "method_signature" | "property_signature" if interface_member(&out, node, scope) => {
                if let Some(idx) = member_signature(&mut out, node, src, scope) {
                    child_scope = Some(idx);
                } else {
                    types::class_field(&mut out, node, src, scope);
                }
            }
            "index_signature" if interface_member(&out, node, scope) => {
                types::index_signature(&mut out, node, src, scope);
            }
            "method_definition" => {
                if let Some(idx) = method(&mut out, node, src, scope) {
                    if out.symbols[idx].kind == SymKind::Function {
                        out.members.push(idx);
                    }
                    types::declared_types(&mut out, node, src, idx, &signatures);
                    types::method_in_options(&mut out, node, src, idx);
                    types::type_parameters(&mut out, node, src, idx);
                    child_scope = Some(idx);
                }
            }
            "function_declaration" | "generator_function_declaration" => {
                if let Some(name) = field(node, "name") {
                    let idx =
                        push_symbol(&mut out, node, text(name, src), SymKind::Function, scope);
                    if in_namespace(node) {
                        out.members.push(idx);
                    }
                    types::declared_types(&mut out, node, src, idx, &signatures);
                    types::type_parameters(&mut out, node, src, idx);
                    child_scope = Some(idx);
                }
            }
            "variable_declarator" | "public_field_definition" | "field_definition" => {
                if let Some((value, idx)) = function_value(&mut out, node, src, scope) {
                    types::declared_types(&mut out, value, src, idx, &signatures);
                    types::type_parameters(&mut out, value, src, idx);
                    anonymous.symbol_value(value);
                    // The symbol spans the whole declaration; its body is the value.
                    stack.push((value, Some(idx)));
                    continue;
                }
                if kind(node) == "variable_declarator" {
                    types::declarator(&mut out, node, src, scope, &mut narrowing);
                } else {
                    types::class_field(&mut out, node, src, scope);
                }
            }
            "function_signature" | "method_signature" => {
                types::signature(&mut signatures, node, src, scope);
            }
            "required_parameter" | "optional_parameter" => {
                types::parameter(&mut out, node, src, scope, &mut narrowing);
            }
            "assignment_expression" => {
                types::assignment(&mut out, node, src, scope, &mut narrowing);
                if field(node, "left").is_some_and(|l| kind(l) == "member_expression") {
                    placed(&mut out, field(node, "right"), src);
                }
            }
            "shorthand_property_identifier" => placed(&mut out, Some(node), src),
            "pair" => placed(&mut out, field(node, "value"), src),
            "return_statement" => types::returned(&mut out, node, src, scope, &mut anonymous),
            "arrow_function" | "function_expression" | "function" | "generator_function" => {
                let callback = anonymous.function(node, scope);
                if callback {
                    narrowing.callback(node, src);
                }
            }
            // The module is an import's only child of interest; an export's declaration may
            // hold symbols.
            "import_statement" => imported = module_import(&mut out, node, src, scope),
            "export_statement" => {
                let from_module = module_import(&mut out, node, src, scope);
                if !from_module {
                    types::local_exports(&mut out, node, src);
                }
            }
            "if_statement" | "binary_expression" | "ternary_expression" => {
                narrowing.node(node, src);
            }
            "for_in_statement" => types::for_of(&mut out, node, src, scope, &mut narrowing),
            "call_expression" => call_expression(&mut out, node, src, scope, &mut narrowing),
            "new_expression" => {
                if let Some(callee) = field(node, "constructor")
                    .and_then(|f| types::expr_key(f, src))
                    .map(|k| narrowing.apply(node.start_byte(), k))
                {
                    types::callback_arguments(&mut out, node, &callee, src, scope);
                    out.push_call(scope, callee, node);
                }
            }
            _ => {}
        }
        if imported {
            continue;
        }
        for child in children_rev(node) {
            stack.push((child, child_scope));
        }
    }
    out.placed.sort_unstable();
    out.placed.dedup();
    Ok(out)
}

/// A name put where a call on a receiver reaches it (an object's property): see
/// [`FileParse::placed`].
fn placed(out: &mut FileParse, value: Option<Node<'_>>, src: &[u8]) {
    if let Some(v) =
        value.filter(|v| matches!(kind(*v), "identifier" | "shorthand_property_identifier"))
    {
        out.placed.push(text(v, src).to_string());
    }
}

/// Whether a declaration is inside a TypeScript namespace (`namespace N { export function f()
/// {} }`, called `N.f()`).
fn in_namespace(node: Node<'_>) -> bool {
    let mut at = node.parent();
    while let Some(p) = at {
        if matches!(kind(p), "internal_module" | "module") {
            return true;
        }
        at = p.parent();
    }
    false
}

/// A named class and the classes it extends; its symbol index.
fn class(out: &mut FileParse, node: Node<'_>, src: &[u8], scope: Option<usize>) -> Option<usize> {
    let name = field(node, "name")?;
    let idx = push_symbol(out, node, text(name, src), SymKind::Class, scope);
    let mut c = node.walk();
    for heritage in node.children(&mut c) {
        if kind(heritage) != "class_heritage" {
            continue;
        }
        // JS: `extends <expr>`; TS: extends_clause(value: expr) [implements_clause]. What a
        // class implements is a type it checks against, not where its members come from: no
        // base (`implements SomeClass` used as a mixin's shape would lend its methods).
        let mut c2 = heritage.walk();
        for part in heritage.named_children(&mut c2) {
            match kind(part) {
                "extends_clause" => {
                    if let Some(v) = field(part, "value")
                        .filter(|v| matches!(kind(*v), "identifier" | "member_expression"))
                    {
                        push_base(out, idx, v, src);
                    }
                }
                "identifier" | "member_expression" => push_base(out, idx, part, src),
                _ => {}
            }
        }
    }
    Some(idx)
}

/// A named interface and the types it extends; its symbol index.
fn interface(
    out: &mut FileParse,
    node: Node<'_>,
    src: &[u8],
    scope: Option<usize>,
) -> Option<usize> {
    let name = field(node, "name")?;
    let idx = push_symbol(out, node, text(name, src), SymKind::Class, scope);
    out.symbols[idx].detail = Some(INTERFACE);
    let mut c = node.walk();
    let Some(clause) = node
        .named_children(&mut c)
        .find(|n| kind(*n) == "extends_type_clause")
    else {
        return Some(idx);
    };
    // `A`, `ns.B`, `C<T>`.
    let mut c = clause.walk();
    for ty in clause.named_children(&mut c) {
        let named = match kind(ty) {
            "generic_type" => field(ty, "name"),
            _ => Some(ty),
        };
        if let Some(n) =
            named.filter(|n| matches!(kind(*n), "type_identifier" | "nested_type_identifier"))
        {
            push_base(out, idx, n, src);
        }
    }
    Some(idx)
}

/// `type F = (x: T) => R`: a function of that name, so that a value of type `F`, called,
/// returns what `R` is. `type P = { ... }`: an interface of that name, its members those of
/// the object type. Its symbol index; None for other aliases (`type Point = A | B` names
/// what its type names, a fact).
fn type_alias(
    out: &mut FileParse,
    node: Node<'_>,
    src: &[u8],
    scope: Option<usize>,
) -> Option<usize> {
    let name = field(node, "name")?;
    let value = field(node, "value")?;
    match kind(value) {
        "function_type" => {
            let idx = push_symbol(out, node, text(name, src), SymKind::Function, scope);
            out.symbols[idx].detail = Some(FUNCTION_TYPE);
            types::declared_types(out, value, src, idx, &types::Signatures::default());
            Some(idx)
        }
        "object_type" => {
            let idx = push_symbol(out, node, text(name, src), SymKind::Class, scope);
            out.symbols[idx].detail = Some(INTERFACE);
            Some(idx)
        }
        _ => {
            types::type_alias(out, text(name, src), value, src, scope);
            None
        }
    }
}

fn push_base(out: &mut FileParse, class: usize, base: Node<'_>, src: &[u8]) {
    out.bases.push(Base {
        class,
        base: text(base, src).to_string(),
        line: line_of(base),
    });
}

/// Whether `node` is a member of interface `scope`, or of the object type an alias `scope`
/// names (not of an object type inside one).
fn interface_member(out: &FileParse, node: Node<'_>, scope: Option<usize>) -> bool {
    scope.is_some_and(|s| out.symbols[s].detail == Some(INTERFACE))
        && node.parent().is_some_and(|p| {
            kind(p) == "interface_body"
                || (kind(p) == "object_type"
                    && p.parent()
                        .is_some_and(|a| kind(a) == "type_alias_declaration"))
        })
}

/// An interface's method signature (`get(): T`) or function-typed property (`onChange: (v:
/// T) => void`) as a method of it, once per name (an overload is the first one's member); its
/// symbol index. None for other properties.
fn member_signature(
    out: &mut FileParse,
    node: Node<'_>,
    src: &[u8],
    scope: Option<usize>,
) -> Option<usize> {
    let name = field(node, "name").filter(|n| kind(*n) == "property_identifier")?;
    let fun = if kind(node) == "method_signature" {
        node
    } else {
        field(node, "type")
            .and_then(|t| t.named_child(0))
            .filter(|t| kind(*t) == "function_type")?
    };
    let name = text(name, src);
    let after = scope.map_or(0, |s| s + 1);
    if let Some(i) = out.symbols[after..]
        .iter()
        .position(|s| s.parent == scope && s.name == name)
    {
        return Some(after + i);
    }
    let idx = push_symbol(out, node, name, SymKind::Method, scope);
    types::declared_types(out, fun, src, idx, &types::Signatures::default());
    // `$createDOM: <T extends LexicalNode>(node: T) => ...`: the function type's own.
    types::type_parameters(out, fun, src, idx);
    Some(idx)
}

/// A method (a function when not directly in a class); its symbol index.
fn method(out: &mut FileParse, node: Node<'_>, src: &[u8], scope: Option<usize>) -> Option<usize> {
    let name = field(node, "name")?;
    let parent_kind = scope.map(|i| out.symbols[i].kind);
    let sym = if parent_kind == Some(SymKind::Class) {
        SymKind::Method
    } else {
        SymKind::Function
    };
    Some(push_symbol(out, node, text(name, src), sym, scope))
}

/// `const f = () => ...` or a class field holding a function: the function's value node and
/// its symbol index.
fn function_value<'t>(
    out: &mut FileParse,
    node: Node<'t>,
    src: &[u8],
    scope: Option<usize>,
) -> Option<(Node<'t>, usize)> {
    let name = field(node, "name").or_else(|| field(node, "property"))?;
    let value = field(node, "value")?;
    if !matches!(
        kind(value),
        "arrow_function" | "function_expression" | "function"
    ) || !matches!(
        kind(name),
        "identifier" | "property_identifier" | "private_property_identifier"
    ) {
        return None;
    }
    let in_class = scope.map(|i| out.symbols[i].kind) == Some(SymKind::Class);
    let sym = if in_class && kind(node) != "variable_declarator" {
        SymKind::Method
    } else {
        SymKind::Function
    };
    Some((value, push_symbol(out, node, text(name, src), sym, scope)))
}

/// `import ... from 'm'`, `export ... from 'm'`, TS `import x = require('m')`: one import per
/// binding. False when the statement names no module.
fn module_import(out: &mut FileParse, node: Node<'_>, src: &[u8], scope: Option<usize>) -> bool {
    let source = field(node, "source").or_else(|| {
        // TS `import x = require('m')`.
        let mut c = node.walk();
        node.named_children(&mut c)
            .find(|n| kind(*n) == "import_require_clause")
            .and_then(|n| field(n, "source"))
    });
    let Some(spec) = source.and_then(|s| string_value(s, src)) else {
        return false;
    };
    let type_only = has_child_kind(node, "type");
    let deferred = type_only || in_function(out, scope);
    let mut binds = Vec::new();
    let mut c = node.walk();
    for child in node.named_children(&mut c) {
        match kind(child) {
            "import_clause" => binds.extend(clause_bindings(child, src)),
            "import_require_clause" => binds.extend(identifier_binding(child, src)),
            // Re-exports bind in this module what importers of it may name.
            "export_clause" => binds.extend(specifiers(child, "export_specifier", src)),
            "namespace_export" => binds.extend(identifier_binding(child, src)),
            _ => {}
        }
    }
    if kind(node) == "export_statement" && binds.is_empty() && has_child_kind(node, "*") {
        // `export * from 'm'`: a star re-export, followed like Python's star import.
        binds.push((Some("*".to_string()), "*".to_string()));
    }
    if binds.is_empty() {
        binds.push((None, String::new()));
    }
    for (name, alias) in binds {
        out.imports.push(Import {
            module: spec.clone(),
            level: 0,
            name,
            alias,
            line: line_of(node),
            deferred,
            mod_decl: false,
        });
    }
    true
}

/// `require('m')` and `import('m')` are imports (`import()` is always deferred); any other
/// call of a plain name is a call.
fn call_expression(
    out: &mut FileParse,
    node: Node<'_>,
    src: &[u8],
    scope: Option<usize>,
    narrowing: &mut types::Narrowing,
) {
    let Some(f) = field(node, "function") else {
        return;
    };
    let first_arg = field(node, "arguments").and_then(|a| {
        let mut c = a.walk();
        a.named_children(&mut c).next()
    });
    let spec = first_arg.and_then(|a| string_value(a, src));
    let is_require = kind(f) == "identifier" && text(f, src) == "require";
    if (is_require || kind(f) == "import")
        && let Some(spec) = spec
    {
        // `import('m')` unawaited is a promise, not the module.
        let awaited = node.parent().is_some_and(|p| kind(p) == "await_expression");
        let binds = if is_require || awaited {
            require_bindings(node, src)
        } else {
            vec![(None, String::new())]
        };
        for (name, alias) in binds {
            out.imports.push(Import {
                module: spec.clone(),
                level: 0,
                name,
                alias,
                line: line_of(node),
                deferred: !is_require || in_function(out, scope),
                mod_decl: false,
            });
        }
    } else if let Some(callee) = types::expr_key(f, src) {
        // A narrowed name called itself (`isFunction(t) && t()`) is still the function `t`;
        // a callback's parameter called is its own local.
        let callee = if callee.contains('.') {
            narrowing.apply(node.start_byte(), callee)
        } else {
            narrowing.apply_local(node.start_byte(), callee)
        };
        types::callback_arguments(out, node, &callee, src, scope);
        out.push_call(scope, callee, node);
    }
}

#[cfg(test)]
mod tests {
    use crate::code::lang::{Lang, Parsers};

    #[test]
    fn typescript_symbols_imports_calls_and_bases() {
        let src = br#"
import { helper as h, other } from './util';
import Default from "../lib";
import * as ns from './ns';
import type { T } from './types';
import React from 'react';
export { x } from './reexport';
const fs = require('fs');

export class Base {}
interface Shape { area(): number }
export class Child extends Base implements Shape {
  private n = 1;
  area(): number { return this.helper2() + h(); }
  helper2 = () => ns.f();
}
export function top(a: number): number {
  function inner() { return new Child(); }
  return inner();
}
const arrow = (x: number) => top(x);
"#;
        let r = Parsers::default().parse(Lang::TypeScript, src).unwrap();
        let names: Vec<(&str, &str)> = r
            .symbols
            .iter()
            .map(|s| (s.kind.as_str(), s.local_qname.as_str()))
            .collect();
        assert_eq!(
            names,
            vec![
                ("class", "Base"),
                ("class", "Shape"),
                ("method", "Shape.area"),
                ("class", "Child"),
                ("method", "Child.area"),
                ("method", "Child.helper2"),
                ("function", "top"),
                ("function", "top.inner"),
                ("function", "arrow"),
            ]
        );
        assert!(r.parse_error.is_none(), "{:?}", r.parse_error);
        let imports: Vec<(&str, Option<&str>, &str, bool)> = r
            .imports
            .iter()
            .map(|i| {
                (
                    i.module.as_str(),
                    i.name.as_deref(),
                    i.alias.as_str(),
                    i.deferred,
                )
            })
            .collect();
        assert!(imports.contains(&("./util", Some("helper"), "h", false)));
        assert!(imports.contains(&("../lib", Some("default"), "Default", false)));
        assert!(imports.contains(&("./ns", None, "ns", false)));
        assert!(imports.contains(&("./types", Some("T"), "T", true)));
        assert!(imports.contains(&("react", Some("default"), "React", false)));
        assert!(imports.contains(&("./reexport", Some("x"), "x", false)));
        assert!(imports.contains(&("fs", None, "fs", false)));
        let callees: Vec<&str> = r.calls.iter().map(|c| c.callee.as_str()).collect();
        for c in ["self.helper2", "h", "ns.f", "Child", "inner", "top"] {
            assert!(callees.contains(&c), "{c} missing from {callees:?}");
        }
        let bases: Vec<&str> = r.bases.iter().map(|b| b.base.as_str()).collect();
        assert_eq!(bases, vec!["Base"]);
        assert_eq!(r.symbols[1].detail, Some(crate::code::lang::INTERFACE));
    }

    #[test]
    fn an_interface_s_members_are_its_own_not_those_of_an_object_type_inside_it() {
        let src =
            b"interface A {\n  b: { inner(): void };\n  d(): void;\n  d(x: number): void;\n  \
                    e: (x: number) => Y;\n  [k: string]: X;\n}\n";
        let r = Parsers::default().parse(Lang::TypeScript, src).unwrap();
        let names: Vec<&str> = r.symbols.iter().map(|s| s.local_qname.as_str()).collect();
        assert_eq!(names, vec!["A", "A.d", "A.e"]);
        let facts: Vec<(&str, &str)> = r
            .types
            .iter()
            .map(|f| (f.name.as_str(), f.ty.as_str()))
            .collect();
        assert!(facts.contains(&("self.[]", "X")), "{facts:?}");
        assert!(!facts.iter().any(|f| f.0.contains("inner")), "{facts:?}");
    }

    /// Each import as (module, name, alias).
    fn binds(r: &crate::code::lang::FileParse) -> Vec<(&str, Option<&str>, &str)> {
        r.imports
            .iter()
            .map(|i| (i.module.as_str(), i.name.as_deref(), i.alias.as_str()))
            .collect()
    }

    #[test]
    fn re_exports_bind_their_names() {
        let src = b"export { A, b as c } from './a';\nexport * from './star';\nexport * as ns from './n';\nexport { local };\n";
        let r = Parsers::default().parse(Lang::TypeScript, src).unwrap();
        assert_eq!(
            binds(&r),
            vec![
                ("./a", Some("A"), "A"),
                ("./a", Some("b"), "c"),
                ("./star", Some("*"), "*"),
                ("./n", None, "ns"),
            ]
        );
    }

    #[test]
    fn javascript_and_tsx_parse() {
        let js = b"const { a, b: c } = require('./x');\nclass A extends B { m() { return a(); } }\nmodule.exports = { A };\n";
        let r = Parsers::default().parse(Lang::JavaScript, js).unwrap();
        assert!(r.parse_error.is_none());
        assert_eq!(r.symbols.len(), 2);
        assert_eq!(r.bases[0].base, "B");
        assert_eq!(
            binds(&r),
            vec![("./x", Some("a"), "a"), ("./x", Some("b"), "c")]
        );
        // `await import(...)` binds as `require` does; a promise of the module binds nothing.
        let dynamic = b"async function f() {\n  const { a } = await import('./x');\n  const m = await import('./y');\n  const p = import('./z');\n}\n";
        let r = Parsers::default().parse(Lang::JavaScript, dynamic).unwrap();
        assert_eq!(
            binds(&r),
            vec![
                ("./x", Some("a"), "a"),
                ("./y", None, "m"),
                ("./z", None, "")
            ]
        );
        let tpl = b"const s = `a ${util.join(x)} b`;\n";
        let r = Parsers::default().parse(Lang::JavaScript, tpl).unwrap();
        let callees: Vec<&str> = r.calls.iter().map(|c| c.callee.as_str()).collect();
        assert_eq!(
            callees,
            vec!["util.join"],
            "a call inside a template string"
        );
        let tsx = b"export function App() { return <div className=\"x\">{load()}</div>; }\n";
        let r = Parsers::default().parse(Lang::Tsx, tsx).unwrap();
        assert!(r.parse_error.is_none(), "{:?}", r.parse_error);
        assert_eq!(r.symbols[0].name, "App");
        let r = Parsers::default()
            .parse(Lang::JavaScript, b"function broken( {\n")
            .unwrap();
        assert_eq!(r.parse_error.map(|(l, _)| l), Some(1));
    }
}
