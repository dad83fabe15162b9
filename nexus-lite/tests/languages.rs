#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
//! TypeScript, JavaScript and Rust indexing against a real git repository, read back through
//! the HTTP API the way a user would.

mod common;

use common::*;
use serde_json::{Value, json};
use std::net::SocketAddr;
use std::path::Path;

fn start(repo: &Path, data: &Path) -> Server {
    start_server(repo, data, Some("acme/poly"), true)
}

fn poly_repo(dir: &Path) {
    git(dir, &["init", "-q", "-b", "main"]);
    write(
        dir,
        "app.py",
        "import os\n\n\ndef cwd():\n    return os.getcwd()\n",
    );
    write(dir, "web/package.json", "{\"name\": \"web\"}\n");
    write(dir, "web/src/data.json", "{}\n");
    write(
        dir,
        "web/src/index.ts",
        "import { Greeter } from './greeter';\nimport { format } from './util';\nimport React from 'react';\nimport data from './data.json';\n\nexport function main(): string {\n  const g = new Greeter('x');\n  return g.greet() + format(1);\n}\n",
    );
    write(
        dir,
        "web/src/greeter.ts",
        "export class Base {\n  hello(): string { return 'hi'; }\n}\n\nexport class Greeter extends Base {\n  constructor(private name: string) { super(); }\n  greet(): string { return this.hello() + this.name; }\n}\n",
    );
    write(
        dir,
        "web/src/util/index.ts",
        "export function format(n: number): string {\n  return String(n);\n}\n",
    );
    write(
        dir,
        "web/src/missing.ts",
        "import { x } from './nope';\nexport const y = x;\n",
    );
    write(
        dir,
        "web/src/broken.ts",
        "export function ok() {}\nexport function broken( {\n",
    );
    write(
        dir,
        "web/src/App.tsx",
        "import { main } from './index';\n\nexport function App() {\n  return <div className=\"app\">{main()}</div>;\n}\n",
    );
    write(
        dir,
        "web/lib/legacy.js",
        "const path = require('path');\nconst helper = require('./helper');\n\nfunction run() {\n  return helper.go(path.sep);\n}\n\nmodule.exports = { run };\n",
    );
    write(
        dir,
        "web/lib/helper.js",
        "function go(sep) {\n  return sep;\n}\n\nmodule.exports = { go };\n",
    );
    write(dir, "engine/Cargo.toml", "[package]\nname = \"engine\"\n");
    write(
        dir,
        "engine/src/lib.rs",
        "pub mod shapes;\nmod missing_mod;\n\nuse crate::shapes::{Area, Square};\nuse serde::Serialize;\n\npub fn total(s: &Square) -> f64 {\n    s.area() + Square::new(1.0).side\n}\n",
    );
    write(
        dir,
        "engine/src/shapes.rs",
        "pub trait Area {\n    fn area(&self) -> f64;\n}\n\npub struct Square {\n    pub side: f64,\n}\n\npub enum Kind {\n    A,\n}\n\nimpl Area for Square {\n    fn area(&self) -> f64 {\n        self.side * self.side\n    }\n}\n\nimpl Square {\n    pub fn new(side: f64) -> Self {\n        Square { side }\n    }\n}\n",
    );
    write(dir, "engine/src/broken.rs", "fn ok() {}\n\nfn broken( {\n");
    git(dir, &["add", "-A"]);
    git(dir, &["commit", "-q", "-m", "polyglot"]);
}

fn imports_of(a: SocketAddr, path: &str) -> Vec<Value> {
    let r = get(
        a,
        &format!(
            "/api/v1/file-context?repository=acme/poly&path={}",
            enc(path)
        ),
    );
    assert_eq!(r.status, 200, "{}", r.body);
    r.body["imports"].as_array().unwrap().clone()
}

fn import<'a>(imports: &'a [Value], module: &str) -> &'a Value {
    imports
        .iter()
        .find(|i| i["module"] == module)
        .unwrap_or_else(|| panic!("no import {module} in {imports:?}"))
}

fn impact_symbols(a: SocketAddr, symbol: &str) -> Vec<(String, String)> {
    let r = get(
        a,
        &format!("/api/v1/impact?repository=acme/poly&symbol={}", enc(symbol)),
    );
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(r.body["resolved"], true, "{symbol}: {}", r.body);
    r.body["items"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|i| i["depth"] == 1)
        .map(|i| {
            (
                i["symbol"].as_str().unwrap_or("").to_string(),
                i["via"].as_str().unwrap_or("").to_string(),
            )
        })
        .collect()
}

#[test]
fn typescript_javascript_and_rust_are_indexed() {
    let repo = tempfile::tempdir().unwrap();
    let data = tempfile::tempdir().unwrap();
    poly_repo(repo.path());
    let server = start(repo.path(), data.path());
    let a = server.addr;

    // Counts per language and per node kind.
    let summary = get(a, "/api/v1/summary?repository=acme/poly");
    assert_eq!(summary.status, 200, "{}", summary.body);
    assert_eq!(
        summary.body["files_by_language"],
        json!({"javascript": 2, "python": 1, "rust": 3, "typescript": 6})
    );
    // Classes: Base, Greeter (TS); Area, Square, Kind (Rust). react, path, serde, os.
    assert_eq!(summary.body["nodes_by_kind"]["class"], 5);
    assert_eq!(summary.body["nodes_by_kind"]["package"], 4);
    assert_eq!(summary.body["graph"]["counts"]["files"], 12);

    // TS imports: relative, directory index, tracked non-source file, npm package.
    let idx = imports_of(a, "web/src/index.ts");
    assert_eq!(
        import(&idx, "./greeter")["resolved_path"],
        "web/src/greeter.ts"
    );
    assert_eq!(
        import(&idx, "./util")["resolved_path"],
        "web/src/util/index.ts"
    );
    assert_eq!(
        import(&idx, "./data.json")["resolved_path"],
        "web/src/data.json"
    );
    let react = import(&idx, "react");
    assert_eq!(react["external"], true);
    assert_eq!(react["resolved_path"], Value::Null);
    // TSX importing `./index` finds index.ts; require() in JS.
    let app = imports_of(a, "web/src/App.tsx");
    assert_eq!(import(&app, "./index")["resolved_path"], "web/src/index.ts");
    let legacy = imports_of(a, "web/lib/legacy.js");
    assert_eq!(
        import(&legacy, "./helper")["resolved_path"],
        "web/lib/helper.js"
    );
    assert_eq!(import(&legacy, "path")["external"], true);

    // Rust: `use crate::...` resolves to the module file, other crates are external.
    let lib = imports_of(a, "engine/src/lib.rs");
    assert_eq!(
        import(&lib, "crate::shapes::Square")["resolved_path"],
        "engine/src/shapes.rs"
    );
    assert_eq!(
        import(&lib, "shapes")["resolved_path"],
        "engine/src/shapes.rs"
    );
    assert_eq!(import(&lib, "serde::Serialize")["external"], true);

    // Rust item kinds are noted on class symbols; methods are qualified by their type.
    let fc = get(
        a,
        "/api/v1/file-context?repository=acme/poly&path=engine/src/shapes.rs&line=14",
    );
    assert_eq!(fc.body["language"], "rust");
    assert_eq!(fc.body["in_graph"], true);
    let syms: Vec<(String, String, Value)> = fc.body["symbols"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| {
            (
                s["kind"].as_str().unwrap().to_string(),
                s["qualified_name"].as_str().unwrap().to_string(),
                s["detail"].clone(),
            )
        })
        .collect();
    for expected in [
        ("class", "engine/src/shapes.Area", json!("trait")),
        ("method", "engine/src/shapes.Area.area", Value::Null),
        ("class", "engine/src/shapes.Square", json!("struct")),
        ("class", "engine/src/shapes.Kind", json!("enum")),
        ("method", "engine/src/shapes.Square.area", Value::Null),
        ("method", "engine/src/shapes.Square.new", Value::Null),
    ] {
        let e = (expected.0.to_string(), expected.1.to_string(), expected.2);
        assert!(syms.contains(&e), "{e:?} not in {syms:?}");
    }
    assert_eq!(
        fc.body["enclosing_symbol"]["qualified_name"],
        "engine/src/shapes.Square.area"
    );

    // Inherits (`extends`, `impl Trait for`) and calls, seen through impact.
    let base = impact_symbols(a, "web/src/greeter.Base");
    assert!(
        base.contains(&("web/src/greeter.Greeter".into(), "inherits".into())),
        "{base:?}"
    );
    let area = impact_symbols(a, "engine/src/shapes.Area");
    assert!(
        area.contains(&("engine/src/shapes.Square".into(), "inherits".into())),
        "{area:?}"
    );
    let greet = impact_symbols(a, "web/src/greeter.Greeter.greet");
    assert!(
        greet.contains(&("web/src/index.main".into(), "calls".into())),
        "{greet:?}"
    );
    let go = impact_symbols(a, "web/lib/helper.go");
    assert!(
        go.contains(&("web/lib/legacy.run".into(), "calls".into())),
        "{go:?}"
    );
    let new = impact_symbols(a, "engine/src/shapes.Square.new");
    assert!(
        new.contains(&("engine/src/lib.total".into(), "calls".into())),
        "{new:?}"
    );

    // Anomalies: parse errors and unresolved imports in both languages.
    let an = get(a, "/api/v1/anomalies?repository=acme/poly&limit=100");
    assert_eq!(an.status, 200);
    let found: Vec<(String, String, Value)> = an.body["items"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| {
            (
                i["kind"].as_str().unwrap().to_string(),
                i["path"].as_str().unwrap().to_string(),
                i["line"].clone(),
            )
        })
        .collect();
    for expected in [
        ("parse_error", "web/src/broken.ts", json!(2)),
        ("parse_error", "engine/src/broken.rs", json!(3)),
        ("unresolved_import", "web/src/missing.ts", json!(1)),
        ("unresolved_import", "engine/src/lib.rs", json!(2)),
    ] {
        let e = (expected.0.to_string(), expected.1.to_string(), expected.2);
        assert!(found.contains(&e), "{e:?} not in {found:?}");
    }
    // Only the four problems above: no cycles or parse errors invented elsewhere.
    assert_eq!(found.len(), 4, "{found:?}");
}

/// A Cargo workspace: its crates reached by name (`geo_core::...` from the crate's own tests
/// and from another member), an `impl` written in another file than its type, constructions
/// (`Point { x }`, `Kind::Tuple(1)`), a variant in a pattern, and typed receivers.
#[test]
fn a_rust_workspace_links_crates_by_name_impls_apart_and_constructions() {
    let repo = tempfile::tempdir().unwrap();
    let data = tempfile::tempdir().unwrap();
    let dir = repo.path();
    git(dir, &["init", "-q", "-b", "main"]);
    write(
        dir,
        "Cargo.toml",
        "[workspace]\nmembers = [\"core\", \"app\"]\n",
    );
    write(dir, "core/Cargo.toml", "[package]\nname = \"geo-core\"\n");
    write(
        dir,
        "core/src/lib.rs",
        "pub mod buf;\npub mod shapes;\nmod parse;\n\npub use shapes::{Kind, Point};\n",
    );
    write(
        dir,
        "core/src/buf.rs",
        "pub trait Buf {\n    fn remaining(&self) -> usize;\n}\n\npub struct Chain<T, U> {\n    a: T,\n    b: U,\n}\n\nimpl<T, U> Buf for Chain<T, U>\nwhere\n    T: Buf,\n    U: Buf,\n{\n    fn remaining(&self) -> usize {\n        self.a.remaining() + self.b.remaining()\n    }\n}\n\npub fn drain<B: crate::buf::Buf>(b: &B) -> usize {\n    b.remaining()\n}\n",
    );
    write(
        dir,
        "core/src/shapes.rs",
        "pub struct Point {\n    pub x: usize,\n}\n\npub enum Kind {\n    Empty,\n    Tuple(usize),\n}\n\nimpl Point {\n    pub fn origin() -> Point {\n        Point { x: 0 }\n    }\n\n    pub fn norm(&self) -> usize {\n        self.x\n    }\n\n    pub fn as_bytes(&self) -> &[u8] {\n        &[]\n    }\n}\n\nimpl Kind {\n    pub fn norm(&self) -> usize {\n        0\n    }\n}\n\npub struct Line {\n    pub start: Point,\n}\n\nimpl Line {\n    pub fn length(&self) -> usize {\n        self.start.norm()\n    }\n}\n\npub struct Polyline {\n    pub points: Vec<Point>,\n}\n\nimpl Polyline {\n    pub fn total(&self) -> usize {\n        let mut n = 0;\n        for p in &self.points {\n            n += p.norm();\n        }\n        n\n    }\n}\n",
    );
    write(
        dir,
        "core/src/parse.rs",
        "use crate::buf::Buf;\nuse crate::shapes::{Point, Polyline};\n\nimpl Buf for Point {\n    fn remaining(&self) -> usize {\n        self.x\n    }\n}\n\nimpl std::str::FromStr for Point {\n    type Err = ();\n    fn from_str(s: &str) -> Result<Self, ()> {\n        Ok(Point { x: s.len() })\n    }\n}\n\nimpl Polyline {\n    pub fn longest(&self) -> usize {\n        self.points.iter().map(|p| p.norm()).max().unwrap_or(0)\n    }\n}\n",
    );
    write(
        dir,
        "core/tests/it.rs",
        "use geo_core::{Kind, Point};\n\n#[test]\nfn builds() {\n    let _p = Point::origin();\n    let k = Kind::Tuple(1);\n    match k {\n        Kind::Empty => {}\n        _ => {}\n    }\n}\n\nfn is_empty(k: &Kind) -> bool {\n    matches!(k, Kind::Empty) || if let Kind::Empty = k { true } else { false }\n}\n",
    );
    write(dir, "app/Cargo.toml", "[package]\nname = \"app\"\n");
    write(
        dir,
        "app/src/main.rs",
        "use std::str::FromStr;\nuse geo_core::shapes::Point;\n\nfn main() {\n    let _p = Point::from_str(\"12\");\n    let q = Point::origin();\n    q.norm();\n    assert_eq!(measure(&q), 0, \"{}\", 1);\n}\n\nfn measure(p: &Point) -> usize {\n    p.norm()\n}\n\nfn total(points: &[Point]) -> usize {\n    let mut n = 0;\n    for p in points {\n        n += p.norm();\n    }\n    n\n}\n\nfn chained(points: Vec<Point>) -> usize {\n    points.iter().map(|q| q.norm()).sum()\n}\n\nfn untyped_chain(cfg: &Config) -> usize {\n    cfg.current().length()\n}\n\nfn on_a_value(cfg: &Config) -> usize {\n    cfg.measure()\n}\n\nfn raw(names: &[String]) -> usize {\n    names.iter().map(|s| s.as_bytes().len()).sum()\n}\n\nfn left(p: &Point) -> usize {\n    p.remaining()\n}\n",
    );
    // Enough files for the link to resolve calls on two threads, each with its own tables.
    for i in 0..70 {
        write(dir, &format!("app/src/more/m{i}.rs"), "pub fn more() {}\n");
    }
    git(dir, &["add", "-A"]);
    git(dir, &["commit", "-q", "-m", "workspace"]);
    let server = start(dir, data.path());
    let a = server.addr;

    let main = imports_of(a, "app/src/main.rs");
    assert_eq!(
        import(&main, "geo_core::shapes::Point")["resolved_path"],
        "core/src/shapes.rs"
    );
    assert_eq!(import(&main, "std::str::FromStr")["external"], true);
    // The crate's own tests name it: a call through its re-export.
    let origin = impact_symbols(a, "core/src/shapes.Point.origin");
    assert!(
        origin.contains(&("core/tests/it.builds".into(), "calls".into())),
        "{origin:?}"
    );
    // A method of an impl in parse.rs is a member of the type of shapes.rs.
    let from_str = impact_symbols(a, "core/src/parse.Point.from_str");
    assert!(
        from_str.contains(&("app/src/main.main".into(), "calls".into())),
        "{from_str:?}"
    );
    // Struct literals construct the type, in its file and in another.
    let point = impact_symbols(a, "core/src/shapes.Point");
    for caller in [
        "core/src/parse.Point.from_str",
        "core/src/shapes.Point.origin",
    ] {
        assert!(
            point.contains(&(caller.into(), "calls".into())),
            "{caller}: {point:?}"
        );
    }
    // Receivers typed by a `let` bound to a call, a parameter, a struct's field, and an
    // element of a slice in a `for` loop and in an iterator's closure (`Kind` has a `norm`
    // too: no name guess).
    let norm = impact_symbols(a, "core/src/shapes.Point.norm");
    for caller in [
        "app/src/main.main",
        "app/src/main.measure",
        "core/src/shapes.Line.length",
        "app/src/main.total",
        "app/src/main.chained",
        "core/src/shapes.Polyline.total",
        "core/src/parse.Polyline.longest",
    ] {
        assert!(
            norm.contains(&(caller.into(), "calls".into())),
            "{caller}: {norm:?}"
        );
    }
    // A method of an untyped call's result is not guessed by its name (`Line::length` is the
    // one `length` of the workspace).
    let length = impact_symbols(a, "core/src/shapes.Line.length");
    assert!(
        !length
            .iter()
            .any(|(s, _)| s == "app/src/main.untyped_chain"),
        "{length:?}"
    );
    // A call inside a macro's arguments; a method call on a parameter is never guessed to
    // the free function of its name.
    let measure = impact_symbols(a, "app/src/main.measure");
    assert!(
        measure.contains(&("app/src/main.main".into(), "calls".into())),
        "{measure:?}"
    );
    assert!(
        !measure.iter().any(|(s, _)| s == "app/src/main.on_a_value"),
        "{measure:?}"
    );
    // A standard library method name on an untyped receiver (a closure's `s: &String`) is
    // not guessed to the one crate method of that name.
    let as_bytes = impact_symbols(a, "core/src/shapes.Point.as_bytes");
    assert!(
        !as_bytes.iter().any(|(s, _)| s == "app/src/main.raw"),
        "{as_bytes:?}"
    );
    // A variant as a value constructs its enum; in a pattern it is read.
    let kind = impact_symbols(a, "core/src/shapes.Kind");
    assert!(
        kind.contains(&("core/tests/it.builds".into(), "calls".into())),
        "{kind:?}"
    );
    assert!(
        kind.contains(&("core/tests/it.is_empty".into(), "uses".into())),
        "{kind:?}"
    );
    // A call of a trait impl's method (`impl Buf for Point`, in another file than both) is a
    // use of the trait's method too, as rust-analyzer counts it; so is a call on a field typed
    // by a parameter the impl bounds (`a: T`, `T: Buf`).
    let impl_remaining = impact_symbols(a, "core/src/parse.Point.remaining");
    assert!(
        impl_remaining.contains(&("app/src/main.left".into(), "calls".into())),
        "{impl_remaining:?}"
    );
    let remaining = impact_symbols(a, "core/src/buf.Buf.remaining");
    // A bound by a `crate::` path (`B: crate::buf::Buf`) names the trait as a `use` would.
    for caller in [
        "app/src/main.left",
        "core/src/buf.Chain.remaining",
        "core/src/buf.drain",
    ] {
        assert!(
            remaining.contains(&(caller.into(), "calls".into())),
            "{caller}: {remaining:?}"
        );
    }
}
