//! Python extraction with Ruff's parser: symbols, imports, calls and base classes.
//!
//! One walk over the syntax tree in source order, each statement of interest handled by its own
//! function below; `types` reads what names hold, `docstring` the types docstrings give.

use ruff_python_ast::{
    self as ast, ArgOrKeyword, Expr, InterpolatedStringElement, Mod, Pattern, Stmt,
};
use ruff_python_parser::{Mode, ParseOptions};
use ruff_text_size::{Ranged, TextRange, TextSize};

mod docstring;
mod types;

pub use crate::code::lang::{Base, Call, FileParse, Import, SymKind, Symbol};
use crate::code::lang::{in_function, new_symbol};

/// Parses one Python source file (bytes not UTF-8 are read as U+FFFD).
pub fn parse(src: &[u8]) -> FileParse {
    let text = String::from_utf8_lossy(src);
    let parsed = syntax(&text);
    let (out, depth) = walk(&text, &parsed);
    // Dropping the tree recurses as deep as it nests, on one stack.
    if depth > DEEP_TREE {
        stacker::grow(STACK_SEGMENT, || drop(parsed));
    }
    out
}

/// Ruff's syntax tree of a module, recovered past syntax errors (they are listed in it).
pub fn syntax(text: &str) -> ruff_python_parser::Parsed<Mod> {
    ruff_python_parser::parse_unchecked(text, ParseOptions::from(Mode::Module))
}

/// Nesting past which a tree is dropped on a stack segment of its own.
const DEEP_TREE: usize = 1_000;

/// Runs `f` with at least [`STACK_RED_ZONE`] of stack left, on a new segment if needed: the
/// syntax tree's walk, typing and drop recurse as deep as the file nests.
pub(super) fn deep<R>(f: impl FnOnce() -> R) -> R {
    stacker::maybe_grow(STACK_RED_ZONE, STACK_SEGMENT, f)
}

/// Stack a recursion step may use before [`deep`] moves to a new segment.
const STACK_RED_ZONE: usize = 128 * 1024;
/// A new segment's size (mapped, not touched, until used): enough for the drop of any tree a
/// file of the indexer's largest size holds, at a few hundred bytes a level.
const STACK_SEGMENT: usize = 256 * 1024 * 1024;

/// The file's parse, and how deep its tree nests.
fn walk(text: &str, parsed: &ruff_python_parser::Parsed<Mod>) -> (FileParse, usize) {
    let mut w = Walker {
        src: Src::new(text),
        out: FileParse::default(),
        names: Vec::new(),
        bound: Vec::new(),
        branches: types::Branches::default(),
        depth: 0,
        max_depth: 0,
    };
    if let Some(e) = parsed.errors().first() {
        let line = w.src.line(e.location.start());
        w.out.parse_error = Some((line, format!("syntax error: {}", e.error)));
    }
    w.out.error_nodes = u32::try_from(parsed.errors().len()).unwrap_or(u32::MAX);
    if let Mod::Module(module) = parsed.syntax() {
        w.stmts(&module.body, None, false);
    }
    let Walker {
        mut out,
        names,
        bound,
        max_depth,
        ..
    } = w;
    types::keep_useful_uses(&mut out, &names, &bound, text.as_bytes());
    out.constructions.sort_unstable();
    out.constructions.dedup();
    (out, max_depth)
}

/// The source text, and where its lines start (for 1-based line numbers).
pub(super) struct Src<'s> {
    pub text: &'s str,
    starts: Vec<TextSize>,
}

impl<'s> Src<'s> {
    fn new(text: &'s str) -> Self {
        let mut starts = vec![TextSize::new(0)];
        starts.extend(
            text.match_indices('\n')
                .filter_map(|(i, _)| u32::try_from(i + 1).ok().map(TextSize::new)),
        );
        Src { text, starts }
    }

    /// The text of `node`.
    pub fn of(&self, node: &impl Ranged) -> &'s str {
        self.text.get(node.range().to_std_range()).unwrap_or("")
    }

    /// The 1-based line of byte `at`.
    pub fn line(&self, at: TextSize) -> u32 {
        u32::try_from(self.starts.partition_point(|s| *s <= at)).unwrap_or(u32::MAX)
    }

    /// The line where `node` starts.
    pub fn line_of(&self, node: &impl Ranged) -> u32 {
        self.line(node.start())
    }
}

struct Walker<'s> {
    src: Src<'s>,
    out: FileParse,
    /// Plain names read as values; kept as uses if they may name a symbol (`keep_useful_uses`).
    names: Vec<types::NameRead>,
    /// Plain names bound (assigned, parameters, loop targets, `as x`).
    bound: Vec<types::NameRead>,
    branches: types::Branches,
    /// Statements and expressions open around the one walked, and the most so far.
    depth: usize,
    max_depth: usize,
}

impl Walker<'_> {
    fn stmts(&mut self, body: &[Stmt], scope: Option<usize>, deferred: bool) {
        for s in body {
            self.stmt(s, scope, deferred);
        }
    }

    fn stmt(&mut self, s: &Stmt, scope: Option<usize>, deferred: bool) {
        self.nested(|w| w.statement(s, scope, deferred));
    }

    /// Runs one step of the walk one level deeper (on a new stack segment when needed).
    fn nested(&mut self, f: impl FnOnce(&mut Self)) {
        self.depth += 1;
        self.max_depth = self.max_depth.max(self.depth);
        deep(|| f(self));
        self.depth -= 1;
    }

    fn statement(&mut self, s: &Stmt, scope: Option<usize>, deferred: bool) {
        match s {
            Stmt::FunctionDef(f) => self.function(f, scope, deferred),
            Stmt::ClassDef(c) => self.class(c, scope, deferred),
            Stmt::Import(i) => {
                let deferred = deferred || in_function(&self.out, scope);
                self.import(i, deferred);
            }
            Stmt::ImportFrom(i) => {
                let deferred = deferred || in_function(&self.out, scope);
                self.import_from(i, deferred);
            }
            Stmt::Assign(a) => self.assign(a, scope),
            Stmt::AugAssign(a) => {
                let assigned = types::Assigned {
                    at: a.start(),
                    target: &a.target,
                    annotation: None,
                    value: Some(types::Value::Expr(&a.value)),
                    augmented: true,
                };
                self.assignment(&assigned, scope);
                self.target(&a.target, scope);
                self.expr(&a.value, scope);
            }
            Stmt::AnnAssign(a) => {
                let assigned = types::Assigned {
                    at: a.start(),
                    target: &a.target,
                    annotation: Some(&a.annotation),
                    value: a.value.as_deref().map(types::Value::Expr),
                    augmented: false,
                };
                self.assignment(&assigned, scope);
                self.target(&a.target, scope);
                self.expr(&a.annotation, scope);
                self.opt(a.value.as_deref(), scope);
            }
            Stmt::For(f) => {
                types::for_target(&mut self.out, &self.src, &f.target, &f.iter, scope);
                self.target(&f.target, scope);
                self.expr(&f.iter, scope);
                self.stmts(&f.body, scope, deferred);
                self.stmts(&f.orelse, scope, deferred);
            }
            Stmt::While(w) => {
                self.expr(&w.test, scope);
                self.stmts(&w.body, scope, deferred);
                self.stmts(&w.orelse, scope, deferred);
            }
            Stmt::If(i) => self.if_statement(i, scope, deferred),
            Stmt::With(w) => {
                for item in &w.items {
                    types::with_item(&mut self.out, &self.src, item, w.is_async, scope);
                    self.expr(&item.context_expr, scope);
                    if let Some(alias) = &item.optional_vars {
                        match alias.as_ref() {
                            Expr::Name(n) => self.bind(n.range, scope),
                            e => self.named(e, scope),
                        }
                    }
                }
                self.stmts(&w.body, scope, deferred);
            }
            Stmt::Match(m) => {
                self.expr(&m.subject, scope);
                for case in &m.cases {
                    self.pattern(&case.pattern, scope);
                    self.opt(case.guard.as_deref(), scope);
                    self.stmts(&case.body, scope, deferred);
                }
            }
            Stmt::Raise(r) => {
                self.opt(r.exc.as_deref(), scope);
                self.opt(r.cause.as_deref(), scope);
            }
            Stmt::Try(t) => {
                self.stmts(&t.body, scope, deferred);
                for ast::ExceptHandler::ExceptHandler(h) in &t.handlers {
                    self.opt(h.type_.as_deref(), scope);
                    if let Some(name) = &h.name {
                        self.bind(name.range, scope);
                    }
                    self.stmts(&h.body, scope, deferred);
                }
                self.stmts(&t.orelse, scope, deferred);
                self.stmts(&t.finalbody, scope, deferred);
            }
            Stmt::Assert(a) => {
                self.expr(&a.test, scope);
                self.opt(a.msg.as_deref(), scope);
            }
            Stmt::Return(r) => {
                if let Some(v) = &r.value {
                    types::return_value(&mut self.out, &self.src, v, scope);
                    self.expr(v, scope);
                }
            }
            Stmt::Delete(d) => d.targets.iter().for_each(|t| self.expr(t, scope)),
            Stmt::TypeAlias(t) => {
                self.expr(&t.name, scope);
                if let Some(tp) = &t.type_params {
                    self.type_params(tp, scope);
                }
                self.expr(&t.value, scope);
            }
            Stmt::Expr(e) => self.expr(&e.value, scope),
            Stmt::Global(_)
            | Stmt::Nonlocal(_)
            | Stmt::Pass(_)
            | Stmt::Break(_)
            | Stmt::Continue(_)
            | Stmt::IpyEscapeCommand(_) => {}
        }
    }

    fn opt(&mut self, e: Option<&Expr>, scope: Option<usize>) {
        if let Some(e) = e {
            self.expr(e, scope);
        }
    }

    /// An expression read as a value.
    fn expr(&mut self, e: &Expr, scope: Option<usize>) {
        self.nested(|w| w.read(e, scope));
    }

    fn read(&mut self, e: &Expr, scope: Option<usize>) {
        match e {
            Expr::Name(n) => self.read_name(n.range, scope),
            Expr::Attribute(a) => self.attribute(a, scope, false),
            Expr::Call(c) => {
                self.call(c, scope);
                self.named(&c.func, scope);
                self.arguments(&c.arguments, scope);
            }
            // Nothing of interest inside string literals but f-string fields.
            Expr::StringLiteral(_)
            | Expr::BytesLiteral(_)
            | Expr::NumberLiteral(_)
            | Expr::BooleanLiteral(_)
            | Expr::NoneLiteral(_)
            | Expr::EllipsisLiteral(_)
            | Expr::IpyEscapeCommand(_) => {}
            Expr::FString(f) => {
                for part in f.value.iter() {
                    if let ast::FStringPart::FString(f) = part {
                        self.interpolated(&f.elements, scope);
                    }
                }
            }
            Expr::TString(t) => {
                for t in t.value.iter() {
                    self.interpolated(&t.elements, scope);
                }
            }
            Expr::Yield(y) => {
                // A fixture's value is what it yields (`yield app`), not a generator.
                if let Some(v) = &y.value {
                    if scope.is_some_and(|f| self.out.fixtures.contains(&f)) {
                        types::return_value(&mut self.out, &self.src, v, scope);
                    }
                    self.expr(v, scope);
                }
            }
            Expr::YieldFrom(y) => self.expr(&y.value, scope),
            Expr::Await(a) => self.expr(&a.value, scope),
            Expr::Subscript(s) => {
                self.expr(&s.value, scope);
                self.expr(&s.slice, scope);
            }
            Expr::Starred(s) => self.expr(&s.value, scope),
            Expr::BoolOp(b) => b.values.iter().for_each(|v| self.expr(v, scope)),
            Expr::Named(n) => {
                self.target(&n.target, scope);
                self.expr(&n.value, scope);
            }
            Expr::BinOp(b) => {
                self.expr(&b.left, scope);
                self.expr(&b.right, scope);
            }
            Expr::UnaryOp(u) => self.expr(&u.operand, scope),
            Expr::Lambda(l) => {
                if let Some(p) = &l.parameters {
                    self.parameters(p, scope);
                }
                self.expr(&l.body, scope);
            }
            Expr::If(i) => {
                self.expr(&i.body, scope);
                self.expr(&i.test, scope);
                self.expr(&i.orelse, scope);
            }
            Expr::Dict(d) => {
                for item in &d.items {
                    self.opt(item.key.as_ref(), scope);
                    self.expr(&item.value, scope);
                }
            }
            Expr::Set(s) => s.elts.iter().for_each(|e| self.expr(e, scope)),
            Expr::List(l) => l.elts.iter().for_each(|e| self.expr(e, scope)),
            Expr::Tuple(t) => t.elts.iter().for_each(|e| self.expr(e, scope)),
            Expr::ListComp(c) => {
                self.expr(&c.elt, scope);
                self.comprehensions(&c.generators, scope);
            }
            Expr::SetComp(c) => {
                self.expr(&c.elt, scope);
                self.comprehensions(&c.generators, scope);
            }
            Expr::Generator(g) => {
                self.expr(&g.elt, scope);
                self.comprehensions(&g.generators, scope);
            }
            Expr::DictComp(c) => {
                self.opt(c.key.as_deref(), scope);
                self.expr(&c.value, scope);
                self.comprehensions(&c.generators, scope);
            }
            Expr::Compare(c) => {
                self.expr(&c.left, scope);
                c.comparators.iter().for_each(|e| self.expr(e, scope));
            }
            Expr::Slice(s) => {
                self.opt(s.lower.as_deref(), scope);
                self.opt(s.upper.as_deref(), scope);
                self.opt(s.step.as_deref(), scope);
            }
        }
    }

    /// An expression naming what is called or bound rather than read: a plain name is no use.
    fn named(&mut self, e: &Expr, scope: Option<usize>) {
        match e {
            Expr::Name(_) => {}
            Expr::Attribute(a) => self.attribute(a, scope, true),
            e => self.expr(e, scope),
        }
    }

    /// An assignment, loop or comprehension target: the plain names in it are bound locally.
    fn target(&mut self, e: &Expr, scope: Option<usize>) {
        match e {
            Expr::Name(n) => self.bind(n.range, scope),
            Expr::Tuple(t) => t.elts.iter().for_each(|e| self.target(e, scope)),
            Expr::List(l) => l.elts.iter().for_each(|e| self.target(e, scope)),
            Expr::Starred(s) => self.target(&s.value, scope),
            e => self.named(e, scope),
        }
    }

    /// A plain name read as a value.
    fn read_name(&mut self, range: TextRange, scope: Option<usize>) {
        let line = self.src.line(range.start());
        self.names.push((scope, range.to_std_range(), line));
    }

    fn bind(&mut self, range: TextRange, scope: Option<usize>) {
        self.bound.push((scope, range.to_std_range(), 0));
    }

    fn interpolated(&mut self, elements: &ast::InterpolatedStringElements, scope: Option<usize>) {
        for el in elements {
            if let InterpolatedStringElement::Interpolation(i) = el {
                self.expr(&i.expression, scope);
                if let Some(spec) = &i.format_spec {
                    self.interpolated(&spec.elements, scope);
                }
            }
        }
    }

    fn comprehensions(&mut self, generators: &[ast::Comprehension], scope: Option<usize>) {
        for g in generators {
            types::for_target(&mut self.out, &self.src, &g.target, &g.iter, scope);
            self.target(&g.target, scope);
            self.expr(&g.iter, scope);
            g.ifs.iter().for_each(|e| self.expr(e, scope));
        }
    }

    fn arguments(&mut self, args: &ast::Arguments, scope: Option<usize>) {
        for a in args.iter_source_order() {
            self.expr(a.value(), scope);
        }
    }

    /// Parameters' names are bound; their annotations and defaults read.
    fn parameters(&mut self, params: &ast::Parameters, scope: Option<usize>) {
        for p in params.iter_source_order() {
            self.bind(p.name().range, scope);
            self.opt(p.annotation(), scope);
            if let ast::AnyParameterRef::NonVariadic(p) = p {
                self.opt(p.default(), scope);
            }
        }
    }

    /// `def f[T: Bound]`: the parameters' names and bounds are read.
    fn type_params(&mut self, params: &ast::TypeParams, scope: Option<usize>) {
        for p in &params.type_params {
            let (name, bound, default) = match p {
                ast::TypeParam::TypeVar(t) => (&t.name, t.bound.as_deref(), t.default.as_deref()),
                ast::TypeParam::ParamSpec(t) => (&t.name, None, t.default.as_deref()),
                ast::TypeParam::TypeVarTuple(t) => (&t.name, None, t.default.as_deref()),
            };
            self.read_name(name.range, scope);
            self.opt(bound, scope);
            self.opt(default, scope);
        }
    }

    /// A `match` pattern: what it names is compared or bound, never read as a value.
    fn pattern(&mut self, p: &Pattern, scope: Option<usize>) {
        match p {
            Pattern::MatchSequence(s) => s.patterns.iter().for_each(|p| self.pattern(p, scope)),
            Pattern::MatchMapping(m) => {
                m.patterns.iter().for_each(|p| self.pattern(p, scope));
                if let Some(rest) = &m.rest {
                    self.bind(rest.range, scope);
                }
            }
            Pattern::MatchClass(c) => {
                c.arguments
                    .patterns
                    .iter()
                    .for_each(|p| self.pattern(p, scope));
                // `Point(x=0)`: `x` is the class's attribute, no local.
                for k in &c.arguments.keywords {
                    self.pattern(&k.pattern, scope);
                }
            }
            Pattern::MatchStar(s) => {
                if let Some(name) = &s.name {
                    self.bind(name.range, scope);
                }
            }
            // `case x:` and `case Point() as p:` bind their name.
            Pattern::MatchAs(a) => {
                if let Some(inner) = &a.pattern {
                    self.pattern(inner, scope);
                }
                if let Some(name) = &a.name {
                    self.bind(name.range, scope);
                }
            }
            Pattern::MatchOr(o) => o.patterns.iter().for_each(|p| self.pattern(p, scope)),
            Pattern::MatchValue(_) | Pattern::MatchSingleton(_) => {}
        }
    }

    /// `a.b.c`: a value use of the whole chain (unless `named`); a chain holding calls or
    /// indexing (`make().x`) is walked for them.
    fn attribute(&mut self, a: &ast::ExprAttribute, scope: Option<usize>, named: bool) {
        let key = types::attribute_key(a, &self.src);
        if !named && let Some(k) = &key {
            let line = self.src.line_of(a);
            use_of(&mut self.out, scope, k, line);
        }
        if key.as_deref().is_some_and(|k| !k.contains(['(', '['])) {
            return; // a plain chain holds no calls
        }
        self.expr(&a.value, scope);
    }

    fn if_statement(&mut self, i: &ast::StmtIf, scope: Option<usize>, deferred: bool) {
        let mut branches = Vec::with_capacity(1 + i.elif_else_clauses.len());
        if let (Some(first), Some(last)) = (i.body.first(), i.body.last()) {
            branches.push(TextRange::new(first.start(), last.end()));
        }
        branches.extend(i.elif_else_clauses.iter().map(Ranged::range));
        self.branches.if_statement(i.start(), &branches);
        // The body of `if TYPE_CHECKING:`: its imports never run, so they are deferred.
        let type_checking = matches!(
            self.src.of(&*i.test),
            "TYPE_CHECKING" | "typing.TYPE_CHECKING"
        );
        self.expr(&i.test, scope);
        self.stmts(&i.body, scope, deferred || type_checking);
        for clause in &i.elif_else_clauses {
            self.opt(clause.test.as_ref(), scope);
            self.stmts(&clause.body, scope, deferred);
        }
    }

    /// `a = b = value`: each target in turn, then the value.
    fn assign(&mut self, a: &ast::StmtAssign, scope: Option<usize>) {
        let n = a.targets.len();
        for (i, target) in a.targets.iter().enumerate() {
            let value = if i + 1 == n {
                types::Value::Expr(&a.value)
            } else {
                types::Value::Chained(&a.value)
            };
            let assigned = types::Assigned {
                at: if i == 0 { a.start() } else { target.start() },
                target,
                annotation: None,
                value: Some(value),
                augmented: false,
            };
            self.assignment(&assigned, scope);
            self.target(target, scope);
        }
        self.expr(&a.value, scope);
    }

    fn assignment(&mut self, a: &types::Assigned<'_>, scope: Option<usize>) {
        if scope.is_none() {
            dunder_all(&mut self.out, &self.src, a);
        }
        types::assignment(&mut self.out, &mut self.branches, &self.src, a, scope);
    }

    /// A function or method: its decorators (read in the enclosing scope), its symbol and
    /// facts, then its parameters and body in its own scope.
    fn function(&mut self, f: &ast::StmtFunctionDef, scope: Option<usize>, deferred: bool) {
        for d in &f.decorator_list {
            self.expr(&d.expression, scope);
        }
        let parent_kind = scope.map(|i| self.out.symbols[i].kind);
        let kind = if parent_kind == Some(SymKind::Class) {
            SymKind::Method
        } else {
            SymKind::Function
        };
        let name = f.name.as_str();
        let def = Definition {
            decorators: &f.decorator_list,
            range: f.range,
            name: &f.name,
            body: &f.body,
        };
        let idx = self.symbol(&def, kind, scope);
        types::usefixtures(&mut self.out, &self.src, idx, &f.decorator_list);
        types::signature(
            &mut self.out,
            &self.src,
            idx,
            &f.parameters,
            f.returns.as_deref(),
        );
        docstring::facts(&mut self.out, &self.src, idx, &f.body);
        if kind == SymKind::Method && name == "__init__" {
            types::init_params(&mut self.out, &self.src, idx, &f.parameters);
        }
        let fixture = is_fixture(&self.src, &f.decorator_list);
        if fixture {
            self.out.fixtures.push(idx);
        }
        if fixture || name.starts_with("test") {
            for p in f.parameters.iter_source_order() {
                let n = p.name().as_str();
                if !p.is_variadic() && !matches!(n, "self" | "cls") {
                    self.out.params.push((idx, n.to_string()));
                }
            }
        }
        let inner = Some(idx);
        if let Some(tp) = &f.type_params {
            self.type_params(tp, inner);
        }
        self.parameters(&f.parameters, inner);
        self.opt(f.returns.as_deref(), inner);
        self.stmts(&f.body, inner, deferred);
    }

    /// A class: its decorators, its symbol and base classes, then its body in its own scope.
    fn class(&mut self, c: &ast::StmtClassDef, scope: Option<usize>, deferred: bool) {
        for d in &c.decorator_list {
            self.expr(&d.expression, scope);
        }
        let def = Definition {
            decorators: &c.decorator_list,
            range: c.range,
            name: &c.name,
            body: &c.body,
        };
        let idx = self.symbol(&def, SymKind::Class, scope);
        types::usefixtures(&mut self.out, &self.src, idx, &c.decorator_list);
        let inner = Some(idx);
        if let Some(tp) = &c.type_params {
            self.type_params(tp, inner);
        }
        if let Some(args) = &c.arguments {
            for a in args.iter_source_order() {
                match a {
                    // A base class (`class C(Base, mod.Mixin)`): an `inherits` edge, no use.
                    ArgOrKeyword::Arg(e @ (Expr::Name(_) | Expr::Attribute(_))) => {
                        self.out.bases.push(Base {
                            class: idx,
                            base: self.src.of(e).to_string(),
                            line: self.src.line_of(e),
                        });
                        self.named(e, inner);
                    }
                    a => self.expr(a.value(), inner),
                }
            }
        }
        self.stmts(&c.body, inner, deferred);
    }

    /// Pushes a class or function symbol: from its keyword (after any decorators) to the end of
    /// its body, with the comments indented inside it that follow the body.
    fn symbol(&mut self, def: &Definition<'_>, kind: SymKind, scope: Option<usize>) -> usize {
        let start = match def.decorators.last() {
            Some(d) => keyword_after(self.src.text, d.end(), def.name.start()),
            None => def.range.start(),
        };
        let end = block_end(self.src.text, def.range, def.body.first());
        let (line, end_line) = (self.src.line(start), self.src.line(end));
        let sym = new_symbol(&self.out, def.name.as_str(), kind, scope, line, end_line);
        self.out.symbols.push(sym);
        self.out.symbols.len() - 1
    }

    /// `import a.b`, `import a.b as c`: one import per name.
    fn import(&mut self, i: &ast::StmtImport, deferred: bool) {
        let line = self.src.line_of(i);
        for alias in &i.names {
            let module = alias.name.to_string();
            let local = match &alias.asname {
                Some(a) => a.to_string(),
                None => module.split('.').next().unwrap_or("").to_string(),
            };
            if !module.is_empty() {
                self.out.imports.push(Import {
                    module,
                    level: 0,
                    name: None,
                    alias: local,
                    line,
                    deferred,
                    mod_decl: false,
                });
            }
        }
    }

    /// `from .m import a, b as c, *`: one import per name (`__future__` imports none).
    fn import_from(&mut self, i: &ast::StmtImportFrom, deferred: bool) {
        let module = i
            .module
            .as_ref()
            .map_or_else(String::new, |m| m.to_string());
        if i.level == 0 && module == "__future__" {
            return;
        }
        let line = self.src.line_of(i);
        for alias in &i.names {
            let name = alias.name.to_string();
            let local = alias
                .asname
                .as_ref()
                .map_or_else(|| name.clone(), |a| a.to_string());
            self.out.imports.push(Import {
                module: module.clone(),
                level: i.level,
                name: Some(name),
                alias: local,
                line,
                deferred,
                mod_decl: false,
            });
        }
    }

    /// A call of a name or attribute chain (`f(...)`, `a.b.c(...)`, `Cls(x).decode()` as
    /// `Cls().decode`), the class or module its receiver names (a value use), and dynamic uses.
    fn call(&mut self, c: &ast::ExprCall, scope: Option<usize>) {
        let Some(callee) = types::expr_key(&c.func, &self.src) else {
            return;
        };
        let line = self.src.line_of(c);
        types::dynamic_call(&mut self.out, &self.src, c, &callee, line);
        // `mod.f()`: a module bound by `import mod` is no symbol; `mod.Cls.from_x()` uses `Cls`.
        if let Some((receiver, _)) = callee.rsplit_once('.')
            && !receiver.contains('(')
            && !self
                .out
                .imports
                .iter()
                .any(|i| i.name.is_none() && i.alias == receiver)
        {
            use_of(&mut self.out, scope, receiver, line);
        }
        types::construction(&mut self.out, &self.src, c, &callee, scope);
        self.out.calls.push(Call {
            caller: scope,
            callee,
            line,
        });
    }
}

/// What a class and a function definition share, for their symbol.
struct Definition<'a> {
    decorators: &'a [ast::Decorator],
    range: TextRange,
    name: &'a ast::Identifier,
    body: &'a [Stmt],
}

/// Records a value use of `name` (an [`types::expr_key`] or a prefix of one) from `scope`.
fn use_of(out: &mut FileParse, scope: Option<usize>, name: &str, line: u32) {
    // `@x.setter` is the property's own plumbing, not a use of it.
    let plumbing =
        name.ends_with(".setter") || name.ends_with(".getter") || name.ends_with(".deleter");
    if !matches!(name, "self" | "cls") && !plumbing {
        out.uses.push(Call {
            caller: scope,
            callee: name.to_string(),
            line,
        });
    }
}

/// Where the `def`, `async` or `class` keyword after a definition's decorators starts (skipping
/// blank space and comments between them).
fn keyword_after(text: &str, from: TextSize, name: TextSize) -> TextSize {
    let gap = text.get(from.to_usize()..name.to_usize()).unwrap_or("");
    let mut at = 0;
    let bytes = gap.as_bytes();
    while at < bytes.len() {
        match bytes[at] {
            b' ' | b'\t' | b'\n' | b'\r' | b'\\' | b'\x0c' => at += 1,
            b'#' => at = gap[at..].find('\n').map_or(bytes.len(), |n| at + n),
            _ => break,
        }
    }
    from + TextSize::new(u32::try_from(at).unwrap_or(0))
}

/// The end of a definition's body, with the comment lines after it indented at least as deep
/// as the body's first line (a comment there belongs to the body, as it does to tree-sitter's).
fn block_end(text: &str, range: TextRange, body: Option<&Stmt>) -> TextSize {
    let end = range.end().to_usize();
    let Some(first) = body.map(|s| s.start().to_usize()) else {
        return range.end();
    };
    let first_line = text[..first].rfind('\n').map_or(0, |i| i + 1);
    if !text[first_line..first].trim_start().is_empty() {
        return range.end(); // `def f(): pass`: a body on the definition's line
    }
    let body_indent = first - first_line;
    let mut last = end;
    let mut at = text[end..].find('\n').map_or(text.len(), |n| end + n + 1);
    while at < text.len() {
        let line_end = text[at..].find('\n').map_or(text.len(), |n| at + n);
        let line = &text[at..line_end];
        let trimmed = line.trim_start();
        if trimmed.is_empty() {
            // a blank line
        } else if trimmed.starts_with('#') && indent_of(line) >= body_indent {
            last = at + line.trim_end().len();
        } else {
            break;
        }
        at = line_end + 1;
    }
    TextSize::new(u32::try_from(last).unwrap_or(u32::MAX))
}

fn indent_of(line: &str) -> usize {
    line.len() - line.trim_start_matches([' ', '\t']).len()
}

/// `__all__ = ["a", "b"]` (list or tuple of string literals), or `__all__ += [...]`.
fn dunder_all(out: &mut FileParse, src: &Src<'_>, a: &types::Assigned<'_>) {
    let Some(types::Value::Expr(value)) = a.value else {
        return;
    };
    let items = match value {
        Expr::List(l) => &l.elts,
        Expr::Tuple(t) if t.parenthesized => &t.elts,
        _ => return,
    };
    if src.of(a.target) != "__all__" {
        return;
    }
    let names = items
        .iter()
        .filter(|e| types::is_string(e))
        .map(|e| src.of(e).trim_matches(['"', '\'']).to_string());
    let all = out.dunder_all.get_or_insert_with(Vec::new);
    if !a.augmented {
        all.clear();
    }
    all.extend(names);
}

/// Decorated `@pytest.fixture`, `@pytest.fixture(...)`, `@fixture` or `@fixture(...)`.
fn is_fixture(src: &Src<'_>, decorators: &[ast::Decorator]) -> bool {
    decorators.iter().any(|d| {
        let t = src.of(d).trim_start_matches('@').trim();
        let callee = t.split('(').next().unwrap_or(t).trim();
        matches!(callee, "pytest.fixture" | "fixture")
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each type fact as (scope's qualified name, name, type).
    fn type_facts(r: &FileParse) -> Vec<(&str, &str, &str)> {
        let name = |s: Option<usize>| s.map_or("", |i| r.symbols[i].local_qname.as_str());
        r.types
            .iter()
            .map(|f| (name(f.scope), f.name.as_str(), f.ty.as_str()))
            .collect()
    }
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
        let r = parse(src);
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
        let r = parse(src);
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
        let r = parse(src);
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
        let r = parse(
            b"__all__ = ['A', \"B\"]\n__all__ += ('C',)\n\ndef f():\n    __all__ = ['local']\n",
        );
        assert_eq!(r.dunder_all, Some(vec!["A".into(), "B".into(), "C".into()]));
        let none = parse(b"x = ['A']\n");
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
        let r = parse(src);
        let name = |s: Option<usize>| s.map_or("", |i| r.symbols[i].local_qname.as_str());
        let facts = type_facts(&r);
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
        let r = parse(src);
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
        let r = parse(src);
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
        let r = parse(src);
        let kinds: Vec<(u32, &str)> = r.dynamic.iter().map(|(l, k)| (*l, k.as_str())).collect();
        assert_eq!(kinds, vec![(5, "getattr"), (7, "import"), (8, "globals")]);
        let marks: Vec<&str> = r.fixture_marks.iter().map(|(_, n)| n.as_str()).collect();
        assert_eq!(marks, vec!["db", "user"]);
    }

    #[test]
    fn a_name_bound_in_a_function_is_the_locals_there() {
        let src = b"from .h import unsafe, parse\n\ndef f(specs):\n    for spec, unsafe in specs:\n        return unsafe\n\ndef g(other):\n    parse = other\n    return parse(1)\n\ndef h():\n    return unsafe, parse(2)\n";
        let r = parse(src);
        fn by(r: &FileParse, c: &Call) -> (String, String) {
            (r.symbols[c.caller.unwrap()].name.clone(), c.callee.clone())
        }
        let uses: Vec<(String, String)> = r.uses.iter().map(|c| by(&r, c)).collect();
        assert_eq!(uses, vec![("h".into(), "unsafe".into())]);
        let calls: Vec<(String, String)> = r.calls.iter().map(|c| by(&r, c)).collect();
        assert_eq!(calls, vec![("h".into(), "parse".into())]);
    }

    /// What tree-sitter's tree hid from the walker before Ruff's parser: parenthesized values,
    /// a generic on the left of `| None`, a comment inside a literal table or after a
    /// decorator, and a body's trailing comments (kept in its lines).
    #[test]
    fn reads_through_parentheses_unions_and_comments() {
        let src = br#"
import pytest

TABLE = {
    1: Point,  # a comment
    2: Line,
}

def make(permanent, cls: type[MultiDict] | None = None):
    redirect_class = (
        Permanent if permanent else Temporary
    )
    return redirect_class()
    # trailing, indented as the body

@pytest.fixture  # (scope='session')
def server():
    pass
"#;
        let r = parse(src);
        let name = |s: Option<usize>| s.map_or("", |i| r.symbols[i].local_qname.as_str());
        let facts = type_facts(&r);
        for want in [
            ("", "TABLE[]", "Point|Line"),
            ("make", "cls", "MultiDict"),
            ("make", "redirect_class", "Permanent|Temporary"),
        ] {
            assert!(facts.contains(&want), "{want:?} missing: {facts:?}");
        }
        assert!(
            r.calls
                .iter()
                .any(|c| name(c.caller) == "make" && c.callee == "redirect_class"),
            "a typed local's call is kept: {:?}",
            r.calls
        );
        let make = &r.symbols[0];
        assert_eq!((make.line, make.end_line), (9, 14));
        let fixtures: Vec<&str> = r.fixtures.iter().map(|i| name(Some(*i))).collect();
        assert_eq!(fixtures, vec!["server"]);
        assert_eq!(r.symbols[1].line, 17, "the `def` line, not the decorator's");
    }

    /// Ruff's parser, the walk and the drop recurse: a file nested past what CPython accepts,
    /// up to the indexer's largest file, must not overflow an indexing thread's stack.
    #[test]
    fn deep_nesting_does_not_overflow_a_thread_stack() {
        let mut src = String::from("x = ");
        src.push_str(&"(".repeat(5_000));
        src.push('1');
        src.push_str(&")".repeat(5_000));
        src.push_str("\ny = ");
        let terms = (crate::code::index::MAX_FILE_BYTES as usize - src.len()) / 2;
        src.push_str(&vec!["a"; terms].join("+"));
        src.push('\n');
        let parsed = std::thread::spawn(move || parse(src.as_bytes()))
            .join()
            .expect("the parse thread overflowed its stack");
        assert!(parsed.parse_error.is_none(), "{:?}", parsed.parse_error);
    }

    /// A pattern's capture is a local of the function; a class pattern's keyword is no name.
    #[test]
    fn match_captures_are_locals_and_keywords_are_not() {
        let src = b"from .h import x, y\n\ndef f(v):\n    match v:\n        case Point(x=0):\n            return x\n        case y:\n            return y\n";
        let r = parse(src);
        let uses: Vec<&str> = r.uses.iter().map(|u| u.callee.as_str()).collect();
        assert_eq!(uses, vec!["x"], "the module's `x`, not the captured `y`");
    }

    #[test]
    fn reports_syntax_errors_with_line() {
        let r = parse(b"def ok():\n    pass\n\ndef broken(:\n    pass\n");
        let (line, _) = r.parse_error.unwrap();
        assert_eq!(line, 4);
    }
}
