#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
//! TypeScript barrels (`export … from`) and Rust `pub use` chains (issue 13): the impact of a
//! symbol lists the code using it through re-exports, resolved `exact` where the binding is.

mod common;

use common::*;
use std::collections::BTreeSet;
use std::net::SocketAddr;
use std::path::Path;

const REPO: &str = "acme/barrels";

fn barrels_repo(dir: &Path) {
    git(dir, &["init", "-q", "-b", "main"]);
    // TypeScript: a barrel re-exporting by name, with an alias, by star and as a namespace.
    write(
        dir,
        "web/a.ts",
        "export class Widget {}\nexport function widgetize(): number { return 1; }\nexport function gizmo(): number { return 2; }\n",
    );
    write(
        dir,
        "web/b.ts",
        "export class Gear {}\nexport function spin() {}\n",
    );
    write(dir, "web/c.ts", "export function deep() {}\n");
    write(dir, "web/mid.ts", "export * from './c';\n");
    write(
        dir,
        "web/index.ts",
        "export { Widget } from './a';\nexport { widgetize as wz } from './a';\nexport * from './b';\nexport * from './mid';\nexport * as parts from './a';\n",
    );
    write(
        dir,
        "web/use_named.ts",
        "import { Widget } from './index';\n\nexport function make() { return new Widget(); }\n\nexport class Fancy extends Widget {}\n",
    );
    write(
        dir,
        "web/use_dot.ts",
        "import { wz, Gear, spin, deep } from '.';\n\nexport function run() { wz(); spin(); deep(); return new Gear(); }\n",
    );
    write(
        dir,
        "web/use_ns.ts",
        "import { parts } from './index';\nimport * as all from './index';\n\nexport function g() { return parts.gizmo(); }\nexport function h() { return new all.Gear(); }\n",
    );
    // tsconfig path aliases (JSON with comments), through the barrel.
    write(
        dir,
        "web/tsconfig.json",
        "{\n  // aliases\n  \"compilerOptions\": {\n    \"baseUrl\": \".\",\n    \"paths\": { \"@/*\": [\"./*\"], \"~parts\": [\"./a.ts\"] },\n  },\n}\n",
    );
    write(
        dir,
        "web/sub/use_alias.ts",
        "import { Widget } from '@/index';\nimport { gizmo } from '~parts';\nimport { spin } from 'b';\n\nexport function viaAlias() { gizmo(); spin(); return new Widget(); }\n",
    );
    // Rust: `pub use` by name, with an alias, by glob and through a re-exporting mod.rs.
    write(
        dir,
        "k/src/lib.rs",
        "pub mod shapes;\npub mod prelude;\npub mod geo;\nmod user;\n\npub use self::shapes::Square;\npub use crate::shapes::Circle as Round;\n",
    );
    write(
        dir,
        "k/src/shapes.rs",
        "pub struct Square;\n\nimpl Square {\n    pub fn new() -> Self {\n        Square\n    }\n}\n\npub struct Circle;\n\nimpl Circle {\n    pub fn new() -> Self {\n        Circle\n    }\n}\n\npub fn area() -> u32 {\n    1\n}\n\npub trait Draw {\n    fn draw(&self);\n}\n",
    );
    write(
        dir,
        "k/src/prelude.rs",
        "pub use crate::shapes::*;\npub use imp::Hidden;\n\nmod imp {\n    pub struct Hidden;\n\n    impl Hidden {\n        pub fn make() -> Self {\n            Hidden\n        }\n    }\n}\n",
    );
    write(
        dir,
        "k/src/geo/mod.rs",
        "mod point;\n\npub use point::Point;\n",
    );
    write(
        dir,
        "k/src/geo/point.rs",
        "pub struct Point;\n\nimpl Point {\n    pub fn origin() -> Self {\n        Point\n    }\n}\n",
    );
    write(
        dir,
        "k/src/user.rs",
        "use crate::Square;\nuse crate::Round;\nuse crate::prelude::{area, Draw, Hidden};\nuse crate::geo::Point;\n\npub struct Local;\n\nimpl Draw for Local {\n    fn draw(&self) {}\n}\n\npub fn build() {\n    let _ = Square::new();\n}\n\npub fn roll() {\n    let _ = Round::new();\n}\n\npub fn measure() -> u32 {\n    area()\n}\n\npub fn here() {\n    let _ = Point::origin();\n}\n\npub fn seek() {\n    let _ = Hidden::make();\n}\n",
    );
    // Python: a star import of a module that star-imports another.
    write(dir, "py/pkg/__init__.py", "from .outer import *\n");
    write(dir, "py/pkg/outer.py", "from .inner import *\n");
    write(dir, "py/pkg/inner.py", "def nested():\n    return 1\n");
    write(
        dir,
        "py/app.py",
        "from pkg import nested\n\n\ndef go():\n    return nested()\n",
    );
    git(dir, &["add", "-A"]);
    git(dir, &["commit", "-q", "-m", "barrels"]);
}

/// (symbol, via, resolution) of the depth-1 dependents of `symbol`.
fn dependents(a: SocketAddr, symbol: &str) -> BTreeSet<(String, String, String)> {
    let r = get(
        a,
        &format!(
            "/api/v1/impact?repository={REPO}&symbol={}&depth=1",
            enc(symbol)
        ),
    );
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(r.body["resolved"], true, "{symbol}: {}", r.body);
    r.body["items"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| {
            (
                i["symbol"].as_str().unwrap_or("").to_string(),
                i["via"].as_str().unwrap_or("").to_string(),
                i["resolution"].as_str().unwrap_or("").to_string(),
            )
        })
        .collect()
}

/// Checks every expected (target, dependent, via, resolution) and reports all misses at once.
fn check(a: SocketAddr, expected: &[(&str, &str, &str, &str)]) {
    let mut misses = Vec::new();
    for (target, sym, via, res) in expected {
        let found = dependents(a, target);
        if !found.contains(&(sym.to_string(), via.to_string(), res.to_string())) {
            misses.push(format!("{target}: ({sym}, {via}, {res}) not in {found:?}"));
        }
    }
    assert!(misses.is_empty(), "{}", misses.join("\n"));
}

#[test]
fn typescript_names_re_exported_by_a_barrel_reach_their_definition() {
    let repo = tempfile::tempdir().unwrap();
    let data = tempfile::tempdir().unwrap();
    barrels_repo(repo.path());
    let srv = start_server(repo.path(), data.path(), Some(REPO), true);
    check(
        srv.addr,
        &[
            ("web/a.Widget", "web/use_named.make", "calls", "exact"),
            ("web/a.Widget", "web/use_named.Fancy", "inherits", "exact"),
            ("web/a.widgetize", "web/use_dot.run", "calls", "exact"),
            ("web/b.Gear", "web/use_dot.run", "calls", "exact"),
            ("web/b.Gear", "web/use_ns.h", "calls", "exact"),
            ("web/b.spin", "web/use_dot.run", "calls", "exact"),
            ("web/c.deep", "web/use_dot.run", "calls", "exact"),
            ("web/a.gizmo", "web/use_ns.g", "calls", "exact"),
            (
                "web/a.Widget",
                "web/sub/use_alias.viaAlias",
                "calls",
                "exact",
            ),
            (
                "web/a.gizmo",
                "web/sub/use_alias.viaAlias",
                "calls",
                "exact",
            ),
            ("web/b.spin", "web/sub/use_alias.viaAlias", "calls", "exact"),
        ],
    );
}

#[test]
fn python_star_imports_are_followed_through_star_imports() {
    let repo = tempfile::tempdir().unwrap();
    let data = tempfile::tempdir().unwrap();
    barrels_repo(repo.path());
    let srv = start_server(repo.path(), data.path(), Some(REPO), true);
    check(
        srv.addr,
        &[("py.pkg.inner.nested", "py.app.go", "calls", "exact")],
    );
}

#[test]
fn rust_names_re_exported_by_pub_use_reach_their_definition() {
    let repo = tempfile::tempdir().unwrap();
    let data = tempfile::tempdir().unwrap();
    barrels_repo(repo.path());
    let srv = start_server(repo.path(), data.path(), Some(REPO), true);
    check(
        srv.addr,
        &[
            (
                "k/src/shapes.Square.new",
                "k/src/user.build",
                "calls",
                "exact",
            ),
            (
                "k/src/shapes.Circle.new",
                "k/src/user.roll",
                "calls",
                "exact",
            ),
            ("k/src/shapes.area", "k/src/user.measure", "calls", "exact"),
            ("k/src/shapes.Draw", "k/src/user.Local", "inherits", "exact"),
            (
                "k/src/geo/point.Point.origin",
                "k/src/user.here",
                "calls",
                "exact",
            ),
            (
                "k/src/prelude.imp.Hidden.make",
                "k/src/user.seek",
                "calls",
                "exact",
            ),
        ],
    );
}
