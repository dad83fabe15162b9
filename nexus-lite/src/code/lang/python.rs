//! Python extraction with tree-sitter: symbols, imports, calls and base classes.

use tree_sitter::{Node, Parser};

mod docstring;
mod types;

pub use crate::code::lang::{Base, Call, FileParse, Import, SymKind, Symbol};
use crate::code::lang::{
    field, field_name, in_function, kind, line_of, note_error, parse_tree, push_symbol, text,
};

/// Creates a parser for Python.
pub fn parser() -> Result<Parser, String> {
    crate::code::lang::parser(crate::code::lang::Lang::Python)
}

/// Parses one Python source file: a walk over the tree, each statement of interest handled
/// by its own function below.
pub fn parse(parser: &mut Parser, src: &[u8]) -> Result<FileParse, String> {
    let tree = parse_tree(parser, src)?;
    let root = tree.root_node();
    let mut out = FileParse::default();
    // Explicit stack: (node, enclosing symbol index, deferred-import context, name position:
    // the node names what is bound or called, so it is no value use).
    let mut stack: Vec<(Node<'_>, Option<usize>, bool, bool)> = vec![(root, None, false, false)];
    let mut names: Vec<types::NameRead> = Vec::new();
    let mut bound: Vec<types::NameRead> = Vec::new();
    let mut branches = types::Branches::default();
    // One cursor for the whole walk: `reset` keeps its allocation, `walk()` makes one per node.
    let mut c = root.walk();
    while let Some((node, scope, deferred, named)) = stack.pop() {
        note_error(&mut out, node, src);
        let node_kind = kind(node);
        if !node.has_error() && !node.is_missing() && node_kind == "string" && !fstring(node) {
            continue; // nothing of interest inside string literals but f-string fields
        }
        let mut child_scope = scope;
        match node_kind {
            "class_definition" | "function_definition" => {
                if let Some(idx) = definition(&mut out, node, src, scope) {
                    child_scope = Some(idx);
                }
            }
            "import_statement" => {
                let deferred = deferred || in_function(&out, scope);
                import_statement(&mut out, node, src, deferred);
                continue;
            }
            "import_from_statement" => {
                let deferred = deferred || in_function(&out, scope);
                import_from_statement(&mut out, node, src, deferred);
                continue;
            }
            "call" => call(&mut out, node, src, scope),
            "assignment" | "augmented_assignment" => {
                if scope.is_none() {
                    dunder_all(&mut out, node, src);
                }
                types::assignment(&mut out, &mut branches, node, src, scope);
            }
            "with_item" => types::with_item(&mut out, node, src, scope),
            "for_statement" | "for_in_clause" => types::for_target(&mut out, node, src, scope),
            "return_statement" => types::return_value(&mut out, node, src, scope),
            // A fixture's value is what it yields (`yield app`), not a generator.
            "yield"
                if scope.is_some_and(|f| out.fixtures.contains(&f))
                    && node.child(1).is_none_or(|c| kind(c) != "from") =>
            {
                types::return_value(&mut out, node, src, scope)
            }
            // Most names read are locals: their text is copied only if kept (below).
            "identifier" if !named => names.push((scope, node.byte_range(), line_of(node))),
            "attribute" => {
                let key = types::expr_key(node, src);
                if !named && let Some(k) = &key {
                    use_of(&mut out, scope, k, node);
                }
                if key.as_deref().is_some_and(|k| !k.contains(['(', '['])) {
                    continue; // a plain chain holds no calls
                }
            }
            _ => {}
        }
        let type_checking = if node_kind == "if_statement" {
            branches.if_statement(node);
            type_checking_body(node, src)
        } else {
            None
        };
        c.reset(node);
        let first = stack.len();
        if c.goto_first_child() {
            loop {
                let child = c.node();
                // Punctuation and keywords hold nothing to extract (half the nodes of a file);
                // a MISSING one is still visited, in order, for its parse error.
                if !child.is_named() && child.child_count() == 0 && !child.is_missing() {
                    if !c.goto_next_sibling() {
                        break;
                    }
                    continue;
                }
                let field = field_name(&c);
                let named = types::names_not_reads(node_kind, named, field, child);
                if named && kind(child) == "identifier" && types::binds_local(node_kind, field) {
                    bound.push((child_scope, child.byte_range(), 0));
                }
                let d = deferred || type_checking.is_some_and(|b| b.id() == child.id());
                stack.push((child, child_scope, d, named));
                if !c.goto_next_sibling() {
                    break;
                }
            }
        }
        stack[first..].reverse(); // popped in source order
    }
    types::keep_useful_uses(&mut out, &names, &bound, src);
    out.constructions.sort_unstable();
    out.constructions.dedup();
    Ok(out)
}

/// True when string `node` has `{...}` fields (an f-string): names read there are uses.
fn fstring(node: Node<'_>) -> bool {
    let mut c = node.walk();
    node.named_children(&mut c)
        .any(|n| kind(n) == "interpolation")
}

/// Records a value use of `name` (an [`types::expr_key`] or a prefix of one) from `scope`.
fn use_of(out: &mut FileParse, scope: Option<usize>, name: &str, node: Node<'_>) {
    // `@x.setter` is the property's own plumbing, not a use of it.
    let plumbing =
        name.ends_with(".setter") || name.ends_with(".getter") || name.ends_with(".deleter");
    if !matches!(name, "self" | "cls") && !plumbing {
        out.uses.push(Call {
            caller: scope,
            callee: name.to_string(),
            line: line_of(node),
        });
    }
}

/// A class, method or function, with the base classes of a class; its symbol index.
fn definition(
    out: &mut FileParse,
    node: Node<'_>,
    src: &[u8],
    scope: Option<usize>,
) -> Option<usize> {
    let name_node = field(node, "name")?;
    let name = text(name_node, src).to_string();
    let parent_kind = scope.map(|i| out.symbols[i].kind);
    let sym = if kind(node) == "class_definition" {
        SymKind::Class
    } else if parent_kind == Some(SymKind::Class) {
        SymKind::Method
    } else {
        SymKind::Function
    };
    let idx = push_symbol(out, node, &name, sym, scope);
    types::usefixtures(out, idx, node, src);
    if sym != SymKind::Class {
        types::signature(out, idx, node, src);
        docstring::facts(out, idx, node, src);
        if sym == SymKind::Method && name == "__init__" {
            types::init_params(out, idx, node, src);
        }
        let fixture = is_fixture(node, src);
        if fixture {
            out.fixtures.push(idx);
        }
        if fixture || name.starts_with("test") {
            parameters(out, idx, node, src);
        }
    }
    if sym == SymKind::Class
        && let Some(supers) = field(node, "superclasses")
    {
        let mut c = supers.walk();
        for arg in supers.named_children(&mut c) {
            if matches!(kind(arg), "identifier" | "attribute") {
                out.bases.push(Base {
                    class: idx,
                    base: text(arg, src).to_string(),
                    line: line_of(arg),
                });
            }
        }
    }
    Some(idx)
}

/// `__all__ = ["a", "b"]` (list or tuple of string literals), or `__all__ += [...]`.
fn dunder_all(out: &mut FileParse, node: Node<'_>, src: &[u8]) {
    let (Some(left), Some(right)) = (field(node, "left"), field(node, "right")) else {
        return;
    };
    if text(left, src) != "__all__" || !matches!(kind(right), "list" | "tuple") {
        return;
    }
    let mut c = right.walk();
    let names = right
        .named_children(&mut c)
        .filter(|n| kind(*n) == "string")
        .map(|n| {
            text(n, src)
                .trim_matches(|ch| ch == '"' || ch == '\'')
                .to_string()
        });
    let all = out.dunder_all.get_or_insert_with(Vec::new);
    if kind(node) == "assignment" {
        all.clear();
    }
    all.extend(names);
}

/// Decorated `@pytest.fixture`, `@pytest.fixture(...)`, `@fixture` or `@fixture(...)`.
fn is_fixture(def: Node<'_>, src: &[u8]) -> bool {
    let Some(decorated) = def.parent().filter(|p| kind(*p) == "decorated_definition") else {
        return false;
    };
    let mut c = decorated.walk();
    decorated
        .named_children(&mut c)
        .filter(|d| kind(*d) == "decorator")
        .any(|d| {
            let t = text(d, src).trim_start_matches('@').trim();
            let callee = t.split('(').next().unwrap_or(t).trim();
            matches!(callee, "pytest.fixture" | "fixture")
        })
}

/// The parameter names of function `idx` (not `self`/`cls`, not `*args`/`**kwargs`).
fn parameters(out: &mut FileParse, idx: usize, def: Node<'_>, src: &[u8]) {
    let Some(params) = field(def, "parameters") else {
        return;
    };
    let mut c = params.walk();
    for p in params.named_children(&mut c) {
        let name = match kind(p) {
            "identifier" => Some(p),
            "typed_parameter" => p.named_child(0).filter(|n| kind(*n) == "identifier"),
            "default_parameter" | "typed_default_parameter" => field(p, "name"),
            _ => None,
        };
        if let Some(n) = name.map(|n| text(n, src))
            && !matches!(n, "self" | "cls")
        {
            out.params.push((idx, n.to_string()));
        }
    }
}

/// `import a.b`, `import a.b as c`: one import per name.
fn import_statement(out: &mut FileParse, node: Node<'_>, src: &[u8], deferred: bool) {
    let mut c = node.walk();
    for child in node.children_by_field_name("name", &mut c) {
        let (module, alias) = match kind(child) {
            "aliased_import" => aliased(child, src),
            _ => {
                let m = text(child, src).to_string();
                let a = m.split('.').next().unwrap_or("").to_string();
                (m, a)
            }
        };
        if !module.is_empty() {
            out.imports.push(Import {
                module,
                level: 0,
                name: None,
                alias,
                line: line_of(node),
                deferred,
                mod_decl: false,
            });
        }
    }
}

/// `from .m import a, b as c, *`: one import per name.
fn import_from_statement(out: &mut FileParse, node: Node<'_>, src: &[u8], deferred: bool) {
    let (module, level) = match field(node, "module_name") {
        Some(m) if kind(m) == "relative_import" => relative_module(m, src),
        Some(m) => (text(m, src).to_string(), 0),
        None => (String::new(), 0),
    };
    let mut names = Vec::new();
    let mut c = node.walk();
    for child in node.children_by_field_name("name", &mut c) {
        match kind(child) {
            "aliased_import" => names.push(aliased(child, src)),
            _ => {
                let n = text(child, src).to_string();
                names.push((n.clone(), n));
            }
        }
    }
    let mut c = node.walk();
    if node
        .children(&mut c)
        .any(|ch| kind(ch) == "wildcard_import")
    {
        names.push(("*".to_string(), "*".to_string()));
    }
    for (name, alias) in names {
        out.imports.push(Import {
            module: module.clone(),
            level,
            name: Some(name),
            alias,
            line: line_of(node),
            deferred,
            mod_decl: false,
        });
    }
}

/// `name as alias` (the alias defaults to the name).
fn aliased(node: Node<'_>, src: &[u8]) -> (String, String) {
    let name = field(node, "name")
        .map(|n| text(n, src).to_string())
        .unwrap_or_default();
    let alias = field(node, "alias")
        .map(|n| text(n, src).to_string())
        .unwrap_or_else(|| name.clone());
    (name, alias)
}

/// `..pkg.mod` -> (`pkg.mod`, 2).
fn relative_module(node: Node<'_>, src: &[u8]) -> (String, u32) {
    let mut level = 0;
    let mut module = String::new();
    let mut c = node.walk();
    for part in node.children(&mut c) {
        match kind(part) {
            "import_prefix" => level = text(part, src).chars().filter(|c| *c == '.').count() as u32,
            "dotted_name" => module = text(part, src).to_string(),
            _ => {}
        }
    }
    (module, level)
}

/// A call of a name or attribute chain (`f(...)`, `a.b.c(...)`, `Cls(x).decode()` as
/// `Cls().decode`), the class or module its receiver names (a value use), and dynamic uses.
fn call(out: &mut FileParse, node: Node<'_>, src: &[u8], scope: Option<usize>) {
    let Some(f) = field(node, "function") else {
        return;
    };
    let Some(callee) = types::expr_key(f, src) else {
        return;
    };
    types::dynamic_call(out, node, &callee, src);
    // `mod.f()`: a module bound by `import mod` is no symbol; `mod.Cls.from_x()` uses `Cls`.
    if let Some((receiver, _)) = callee.rsplit_once('.')
        && !receiver.contains('(')
        && !out
            .imports
            .iter()
            .any(|i| i.name.is_none() && i.alias == receiver)
    {
        use_of(out, scope, receiver, node);
    }
    types::construction(out, node, &callee, src, scope);
    out.push_call(scope, callee, node);
}

/// The body of `if TYPE_CHECKING:` (`node` is an `if_statement`): its imports never run, so
/// they are deferred.
fn type_checking_body<'t>(node: Node<'t>, src: &[u8]) -> Option<Node<'t>> {
    field(node, "condition")
        .is_some_and(|c| matches!(text(c, src), "TYPE_CHECKING" | "typing.TYPE_CHECKING"))
        .then(|| field(node, "consequence"))
        .flatten()
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeSet;

    #[test]
    fn extracts_symbols_imports_calls_and_bases() {
        let src = br#"
import os.path
import numpy as np
from . import sibling
from ..pkg.mod import thing as other, more
from x import *

class Base:
    pass

class Child(Base, mod.Mixin):
    def method(self):
        def inner():
            return helper()
        return self.other()

    async def amethod(self):
        await os.path.join("a", "b")

def helper():
    s = "def not_a_function(): pass"
    return np.zeros(3)
"#;
        let mut p = parser().unwrap();
        let r = parse(&mut p, src).unwrap();
        let names: Vec<(&str, &str)> = r
            .symbols
            .iter()
            .map(|s| (s.kind.as_str(), s.local_qname.as_str()))
            .collect();
        assert_eq!(
            names,
            vec![
                ("class", "Base"),
                ("class", "Child"),
                ("method", "Child.method"),
                ("function", "Child.method.inner"),
                ("method", "Child.amethod"),
                ("function", "helper"),
            ]
        );
        assert!(r.parse_error.is_none());
        let imports: Vec<(String, u32, Option<String>, String)> = r
            .imports
            .iter()
            .map(|i| (i.module.clone(), i.level, i.name.clone(), i.alias.clone()))
            .collect();
        assert!(imports.contains(&("os.path".into(), 0, None, "os".into())));
        assert!(imports.contains(&("numpy".into(), 0, None, "np".into())));
        assert!(imports.contains(&("".into(), 1, Some("sibling".into()), "sibling".into())));
        assert!(imports.contains(&("pkg.mod".into(), 2, Some("thing".into()), "other".into())));
        assert!(imports.contains(&("x".into(), 0, Some("*".into()), "*".into())));
        let callees: Vec<&str> = r.calls.iter().map(|c| c.callee.as_str()).collect();
        assert!(callees.contains(&"helper"));
        assert!(callees.contains(&"self.other"));
        assert!(callees.contains(&"np.zeros"));
        let bases: Vec<&str> = r.bases.iter().map(|b| b.base.as_str()).collect();
        assert_eq!(bases, vec!["Base", "mod.Mixin"]);
    }

    #[test]
    fn marks_function_level_and_type_checking_imports_deferred() {
        let src = b"from typing import TYPE_CHECKING\nimport a\nif TYPE_CHECKING:\n    import b\nelse:\n    import c\n\ndef f():\n    import d\n";
        let mut p = parser().unwrap();
        let r = parse(&mut p, src).unwrap();
        let deferred: Vec<(&str, bool)> = r
            .imports
            .iter()
            .map(|i| (i.module.as_str(), i.deferred))
            .collect();
        assert_eq!(
            deferred,
            vec![
                ("typing", false),
                ("a", false),
                ("b", true),
                ("c", false),
                ("d", true)
            ]
        );
    }

    #[test]
    fn records_fixtures_and_the_parameters_of_tests_and_fixtures() {
        let src = b"import pytest\n\n@pytest.fixture(scope=\"module\")\ndef db(tmp_path):\n    return tmp_path\n\n@fixture\ndef user(db, name: str = \"x\"):\n    return db\n\ndef helper(a):\n    return a\n\nclass TestX:\n    def test_one(self, db, *args, **kwargs):\n        assert db\n";
        let mut p = parser().unwrap();
        let r = parse(&mut p, src).unwrap();
        let name = |i: usize| r.symbols[i].local_qname.as_str();
        let fixtures: Vec<&str> = r.fixtures.iter().map(|i| name(*i)).collect();
        assert_eq!(fixtures, vec!["db", "user"]);
        let params: Vec<(&str, &str)> = r
            .params
            .iter()
            .map(|(i, n)| (name(*i), n.as_str()))
            .collect();
        assert_eq!(
            params,
            vec![
                ("db", "tmp_path"),
                ("user", "db"),
                ("user", "name"),
                ("TestX.test_one", "db"),
            ]
        );
    }

    #[test]
    fn reads_a_module_level_dunder_all() {
        let mut p = parser().unwrap();
        let r = parse(
            &mut p,
            b"__all__ = ['A', \"B\"]\n__all__ += ('C',)\n\ndef f():\n    __all__ = ['local']\n",
        )
        .unwrap();
        assert_eq!(r.dunder_all, Some(vec!["A".into(), "B".into(), "C".into()]));
        let none = parse(&mut p, b"x = ['A']\n").unwrap();
        assert_eq!(none.dunder_all, None);
    }

    #[test]
    fn records_what_names_hold_for_typing_receivers() {
        let src = br#"
from typing import Optional
from .net import Transport

class Client:
    conn: Transport

    def __init__(self, t: Transport, backup: Optional["Transport"] = None, other: Transport | None = None):
        self.t = t
        self.spare = Transport()

    def run(self) -> Transport:
        local = make()
        with open_it() as f:
            pass
        return Transport(1).decode()
"#;
        let mut p = parser().unwrap();
        let r = parse(&mut p, src).unwrap();
        let name = |s: Option<usize>| s.map_or("", |i| r.symbols[i].local_qname.as_str());
        let facts: Vec<(&str, &str, &str)> = r
            .types
            .iter()
            .map(|f| (name(f.scope), f.name.as_str(), f.ty.as_str()))
            .collect();
        for want in [
            ("Client", "self.conn", "Transport"),
            ("Client.__init__", "t", "Transport"),
            ("Client.__init__", "backup", "Transport"),
            ("Client.__init__", "other", "Transport"),
            ("Client", "self.t", "Transport"),
            ("Client", "self.spare", "Transport()"),
            ("Client.run", "local", "make()"),
            ("Client.run", "f", "open_it().__enter__()"),
        ] {
            assert!(facts.contains(&want), "{want:?} missing: {facts:?}");
        }
        let returns: Vec<(&str, &str)> = r
            .returns
            .iter()
            .map(|(i, t)| (name(Some(*i)), t.as_str()))
            .collect();
        assert_eq!(returns, vec![("Client.run", "Transport")]);
        let callees: Vec<&str> = r.calls.iter().map(|c| c.callee.as_str()).collect();
        assert!(callees.contains(&"Transport().decode"), "{callees:?}");
    }

    #[test]
    fn records_unannotated_return_values_in_their_scope() {
        let src = br#"
class Pool:
    @classmethod
    def make(cls, n):
        if n:
            return cls(n)
        return None

    def me(self):
        return self

    def conn(self):
        c = Conn()
        return c

    def echo(self, x):
        return x

    def typed(self) -> Conn:
        return make()

    async def fetch(self):
        async with Session() as s:
            return await s.get()

    def label(self):
        return f"{self.me().name}"
"#;
        let mut p = parser().unwrap();
        let r = parse(&mut p, src).unwrap();
        let name = |i: usize| r.symbols[i].local_qname.as_str();
        let returned: Vec<(&str, &str)> = r
            .returned
            .iter()
            .map(|(i, v)| (name(*i), v.as_str()))
            .collect();
        assert_eq!(
            returned,
            vec![
                ("Pool.make", "cls()"),
                ("Pool.me", "self"),
                ("Pool.conn", "c"),
                ("Pool.fetch", "s.get()"),
            ],
            "a parameter (`x`) is no module name; an annotated function keeps its annotation"
        );
        assert!(
            r.types
                .iter()
                .any(|f| f.name == "s" && f.ty == "Session().__aenter__()"),
            "{:?}",
            r.types
        );
        assert!(
            r.calls
                .iter()
                .any(|c| name(c.caller.unwrap()) == "Pool.label" && c.callee == "self.me"),
            "f-string fields are read: {:?}",
            r.calls
                .iter()
                .map(|c| (c.caller.map(name), c.callee.as_str()))
                .collect::<Vec<_>>()
        );
    }

    #[test]
    fn records_value_uses_but_not_bindings_calls_or_bases() {
        let src = br#"
import mod
from .h import handler, Error, Base

TABLE = {1: handler, 2: mod.other}

class Thing(Base):
    kind = mod.Kind.A

    def on(self, x=handler):
        register(handler, key=Error)
        cb = self.on
        try:
            pass
        except (Error, mod.Other):
            raise Error
        if isinstance(x, Thing):
            return Thing.make(x)
        local = 1
        return local

@handler
def decorated(a: "Thing") -> Error:
    for handler in []:
        pass
"#;
        let mut p = parser().unwrap();
        let r = parse(&mut p, src).unwrap();
        let uses: BTreeSet<(&str, &str)> = r
            .uses
            .iter()
            .map(|u| {
                (
                    u.caller.map_or("", |i| r.symbols[i].local_qname.as_str()),
                    u.callee.as_str(),
                )
            })
            .collect();
        for want in [
            ("", "handler"),
            ("", "mod.other"),
            ("Thing", "mod.Kind.A"),
            ("Thing.on", "handler"),
            ("Thing.on", "Error"),
            ("Thing.on", "self.on"),
            ("Thing.on", "mod.Other"),
            ("Thing.on", "Thing"),
            ("decorated", "Error"),
        ] {
            assert!(uses.contains(&want), "{want:?} missing: {uses:?}");
        }
        for not in [
            ("Thing.on", "local"),
            ("", "Base"),
            ("Thing.on", "register"),
        ] {
            assert!(!uses.contains(&not), "{not:?} is no value use: {uses:?}");
        }
        assert!(
            uses.contains(&("Thing.on", "Thing")),
            "the receiver of Thing.make"
        );
    }

    #[test]
    fn records_dynamic_uses_and_usefixtures_marks() {
        let src = br#"
import importlib, pytest

def dispatch(self, name):
    getattr(self, "on_" + name)()
    getattr(self, "fixed")
    mod = importlib.import_module(name)
    return globals()[name]

@pytest.mark.usefixtures("db", "user")
def test_it():
    pass
"#;
        let mut p = parser().unwrap();
        let r = parse(&mut p, src).unwrap();
        let kinds: Vec<(u32, &str)> = r.dynamic.iter().map(|(l, k)| (*l, k.as_str())).collect();
        assert_eq!(kinds, vec![(5, "getattr"), (7, "import"), (8, "globals")]);
        let marks: Vec<&str> = r.fixture_marks.iter().map(|(_, n)| n.as_str()).collect();
        assert_eq!(marks, vec!["db", "user"]);
    }

    #[test]
    fn a_name_bound_in_a_function_is_the_locals_there() {
        let src = b"from .h import unsafe, parse\n\ndef f(specs):\n    for spec, unsafe in specs:\n        return unsafe\n\ndef g(other):\n    parse = other\n    return parse(1)\n\ndef h():\n    return unsafe, parse(2)\n";
        let mut p = parser().unwrap();
        let r = parse(&mut p, src).unwrap();
        fn by(r: &FileParse, c: &Call) -> (String, String) {
            (r.symbols[c.caller.unwrap()].name.clone(), c.callee.clone())
        }
        let uses: Vec<(String, String)> = r.uses.iter().map(|c| by(&r, c)).collect();
        assert_eq!(uses, vec![("h".into(), "unsafe".into())]);
        let calls: Vec<(String, String)> = r.calls.iter().map(|c| by(&r, c)).collect();
        assert_eq!(calls, vec![("h".into(), "parse".into())]);
    }

    #[test]
    fn reports_syntax_errors_with_line() {
        let mut p = parser().unwrap();
        let r = parse(&mut p, b"def ok():\n    pass\n\ndef broken(:\n    pass\n").unwrap();
        let (line, _) = r.parse_error.unwrap();
        assert_eq!(line, 4);
    }
}
