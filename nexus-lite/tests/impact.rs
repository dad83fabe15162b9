#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
//! Impact and file-context answers an agent can trust (issue 13): no dependent dropped,
//! every cut paged, the same answer every time, and every item saying how it was resolved.

mod common;

use common::*;
use serde_json::Value;
use std::collections::BTreeSet;
use std::net::SocketAddr;
use std::path::Path;

const REPO: &str = "acme/impact";
/// Files that import `pkg.core` and nothing else: more than one page of 50.
const IMPORTERS: usize = 60;

/// A package whose core module has many importers, a module-level caller whose function also
/// calls the target, a function defined twice under an `if`, a name-only caller and a
/// standard-library method call.
fn impact_repo(dir: &Path) {
    git(dir, &["init", "-q", "-b", "main"]);
    write(dir, "pkg/__init__.py", "");
    write(
        dir,
        "pkg/core.py",
        "class Conn:\n    def close(self):\n        return None\n\n\nclass Page:\n    def render_page(self):\n        return 1\n\n    def show(self):\n        return self.render_page()\n\n\ndef target():\n    return 1\n\n\ndef lonely():\n    return 2\n",
    );
    write(
        dir,
        "pkg/user_a.py",
        "from pkg.core import target\n\nVALUE = target()\n\n\ndef direct():\n    return target()\n",
    );
    write(
        dir,
        "pkg/twice.py",
        "import sys\n\nfrom pkg.core import target\n\nif sys.platform == \"win32\":\n\n    def run():\n        return target()\n\nelse:\n\n    def run():\n        return target()\n",
    );
    write(
        dir,
        "pkg/view.py",
        "def show(page):\n    return page.render_page()\n",
    );
    write(
        dir,
        "pkg/files.py",
        "import io\n\n\ndef read(path):\n    buf = io.BytesIO(b\"\")\n    buf.close()\n    return path\n",
    );
    for i in 0..IMPORTERS {
        write(
            dir,
            &format!("pkg/mod_{i:02}.py"),
            "from pkg import core\n\nNAME = core.__name__\n",
        );
    }
    git(dir, &["add", "-A"]);
    git(dir, &["commit", "-q", "-m", "impact fixture"]);
}

fn start(repo: &Path, data: &Path) -> Server {
    start_server(repo, data, Some(REPO), true)
}

fn impact(a: SocketAddr, query: &str) -> Value {
    let r = get(a, &format!("/api/v1/impact?repository={REPO}&{query}"));
    assert_eq!(r.status, 200, "{}", r.body);
    r.body
}

fn items(v: &Value) -> &Vec<Value> {
    v["items"]
        .as_array()
        .unwrap_or_else(|| panic!("no items array in {v}"))
}

/// Every item of every page of an impact query, following `next_cursor`.
fn all_pages(a: SocketAddr, query: &str) -> (Vec<Value>, Value) {
    let first = impact(a, query);
    let mut out = items(&first).clone();
    let mut next = first["next_cursor"].clone();
    for _ in 0..20 {
        let Some(c) = next.as_str() else { break };
        let page = impact(a, &format!("{query}&cursor={}", enc(c)));
        out.extend(items(&page).iter().cloned());
        next = page["next_cursor"].clone();
    }
    assert!(next.is_null(), "more than 20 pages");
    (out, first)
}

#[test]
fn every_file_that_imports_the_target_is_listed_and_counted() {
    let repo = tempfile::tempdir().unwrap();
    let data = tempfile::tempdir().unwrap();
    impact_repo(repo.path());
    let srv = start(repo.path(), data.path());
    let (all, first) = all_pages(srv.addr, "path=pkg/core.py&depth=1");
    let importers: BTreeSet<&str> = all
        .iter()
        .filter(|i| i["via"] == "imports")
        .map(|i| i["path"].as_str().unwrap())
        .collect();
    for i in 0..IMPORTERS {
        let p = format!("pkg/mod_{i:02}.py");
        assert!(importers.contains(p.as_str()), "{p} missing: {importers:?}");
    }
    assert!(importers.contains("pkg/user_a.py"), "{importers:?}");
    assert_eq!(
        first["total"].as_u64().unwrap() as usize,
        all.len(),
        "{first}"
    );
    let unique: BTreeSet<String> = all.iter().map(Value::to_string).collect();
    assert_eq!(unique.len(), all.len(), "an item came twice across pages");
}

#[test]
fn a_function_calling_the_target_is_listed_even_when_its_file_calls_it_too() {
    let repo = tempfile::tempdir().unwrap();
    let data = tempfile::tempdir().unwrap();
    impact_repo(repo.path());
    let srv = start(repo.path(), data.path());
    let body = impact(srv.addr, "symbol=pkg.core.target&depth=1");
    let symbols: Vec<&str> = items(&body)
        .iter()
        .filter_map(|i| i["symbol"].as_str())
        .collect();
    assert!(symbols.contains(&"pkg.user_a.direct"), "{body}");
    assert!(
        items(&body)
            .iter()
            .any(|i| i["path"] == "pkg/user_a.py" && i["symbol"].is_null()),
        "the module-level call is listed too: {body}"
    );
    let twice = symbols.iter().filter(|s| **s == "pkg.twice.run").count();
    assert_eq!(twice, 1, "one item for a name defined twice: {body}");
}

#[test]
fn a_cut_answer_carries_a_cursor_for_impact_and_for_importers() {
    let repo = tempfile::tempdir().unwrap();
    let data = tempfile::tempdir().unwrap();
    impact_repo(repo.path());
    let srv = start(repo.path(), data.path());
    let first = impact(srv.addr, "path=pkg/core.py&depth=1&limit=50");
    assert_eq!(items(&first).len(), 50, "{first}");
    let cursor = first["next_cursor"]
        .as_str()
        .expect("a cursor for the rest");
    let rest = impact(
        srv.addr,
        &format!("path=pkg/core.py&depth=1&limit=50&cursor={}", enc(cursor)),
    );
    assert_eq!(
        50 + items(&rest).len(),
        first["total"].as_u64().unwrap() as usize
    );
    assert!(rest["next_cursor"].is_null(), "{rest}");

    let ctx = |q: &str| {
        let r = get(
            srv.addr,
            &format!("/api/v1/file-context?repository={REPO}&path=pkg/core.py{q}"),
        );
        assert_eq!(r.status, 200, "{}", r.body);
        r.body
    };
    let page1 = ctx("&limit=50");
    let by1 = page1["imported_by"].as_array().unwrap();
    assert_eq!(by1.len(), 50, "{page1}");
    let c = page1["next_cursor"].as_str().expect("importers are paged");
    let page2 = ctx(&format!("&limit=50&cursor={}", enc(c)));
    let by2 = page2["imported_by"].as_array().unwrap();
    // The 60 modules, pkg/user_a.py and pkg/twice.py.
    assert_eq!(by1.len() + by2.len(), IMPORTERS + 2, "{page2}");
    assert_eq!(page2["imported_by_total"], IMPORTERS as u64 + 2);
    assert!(page2["next_cursor"].is_null());
}

#[test]
fn the_same_question_gets_the_same_bytes_on_the_same_and_on_a_rebuilt_graph() {
    let repo = tempfile::tempdir().unwrap();
    impact_repo(repo.path());
    let answers = |data: &Path| -> Vec<String> {
        let srv = start(repo.path(), data);
        let mut out = Vec::new();
        for q in [
            "path=pkg/core.py&depth=3",
            "symbol=pkg.core.target&depth=2",
            "path=pkg/core.py&depth=2&limit=7",
        ] {
            for _ in 0..4 {
                let mut body = impact(srv.addr, q);
                body.as_object_mut().unwrap().remove("graph");
                out.push(body.to_string());
            }
        }
        out
    };
    let data1 = tempfile::tempdir().unwrap();
    let first = answers(data1.path());
    for (i, a) in first.iter().enumerate() {
        assert_eq!(a, &first[i / 4 * 4], "run {i} differs from its first run");
    }
    let data2 = tempfile::tempdir().unwrap();
    assert_eq!(
        first,
        answers(data2.path()),
        "a rebuilt graph answers differently"
    );
}

#[test]
fn items_say_how_they_were_resolved_and_unknown_replaces_false_lows() {
    let repo = tempfile::tempdir().unwrap();
    let data = tempfile::tempdir().unwrap();
    impact_repo(repo.path());
    let srv = start(repo.path(), data.path());

    let item = |body: &Value, sym: &str| -> Value {
        items(body)
            .iter()
            .find(|i| i["symbol"] == sym)
            .cloned()
            .unwrap_or_else(|| panic!("no {sym} in {body}"))
    };
    let exact = impact(srv.addr, "symbol=pkg.core.target&depth=1");
    let direct = item(&exact, "pkg.user_a.direct");
    assert_eq!(direct["resolution"], "exact", "{direct}");
    assert!(direct["confidence"].as_f64().unwrap() >= 0.9, "{direct}");

    let guessed = impact(srv.addr, "symbol=pkg.core.Page.render_page&depth=1");
    let by_name = item(&guessed, "pkg.view.show");
    assert_eq!(by_name["resolution"], "name_match", "{by_name}");
    assert!(by_name["confidence"].as_f64().unwrap() < 0.5, "{by_name}");
    let via_self = item(&guessed, "pkg.core.Page.show");
    assert_eq!(via_self["resolution"], "inferred", "{via_self}");
    assert_eq!(guessed["completeness"], "lower_bound");
    let summary = guessed["summary"].as_str().unwrap();
    assert!(
        summary.contains("1 name_match") && summary.contains("1 inferred"),
        "{summary}"
    );

    // `buf.close()` is io.BytesIO's, not Conn.close: no name-only edge to a stdlib method.
    let close = impact(srv.addr, "symbol=pkg.core.Conn.close&depth=1");
    assert_eq!(close["total"], 0, "{close}");
    assert_eq!(close["risk"], "unknown", "zero found is not low: {close}");
    assert_eq!(close["completeness"], "lower_bound");
    assert!(
        close["causes"]
            .as_array()
            .unwrap()
            .iter()
            .any(|c| c.as_str().unwrap().contains("nothing found")),
        "{close}"
    );

    // A file nothing imports, in a graph without unresolved imports: exact and low.
    let leaf = impact(srv.addr, "path=pkg/view.py&depth=2");
    assert_eq!(leaf["total"], 0, "{leaf}");
    assert_eq!(leaf["completeness"], "exact", "{leaf}");
    assert_eq!(leaf["risk"], "low", "{leaf}");
}

/// A package re-exporting through `__init__.py` (with an alias), and pytest fixtures in a
/// conftest.py used by a test below it and by one outside its directory.
fn packages_repo(dir: &Path) {
    git(dir, &["init", "-q", "-b", "main"]);
    write(
        dir,
        "lib/__init__.py",
        "from .core import Engine\nfrom .util import helper as assist\n\n__all__ = [\"Engine\", \"assist\"]\n",
    );
    write(
        dir,
        "lib/core.py",
        "class Engine:\n    def start_engine(self):\n        return 1\n",
    );
    write(dir, "lib/util.py", "def helper():\n    return 2\n");
    write(dir, "lib/extra/__init__.py", "from .shapes import *\n");
    write(
        dir,
        "lib/extra/shapes.py",
        "__all__ = [\"Square\"]\n\n\nclass Square:\n    pass\n\n\nclass Circle:\n    pass\n",
    );
    write(
        dir,
        "app/draw.py",
        "from lib.extra import Circle, Square\n\n\ndef square():\n    return Square()\n\n\ndef circle():\n    return Circle()\n",
    );
    write(dir, "app/__init__.py", "");
    write(
        dir,
        "app/main.py",
        "import lib\nfrom lib import Engine, assist\n\n\ndef build():\n    return Engine()\n\n\ndef run():\n    return assist()\n\n\ndef attr():\n    return lib.Engine()\n\n\nclass Turbo(lib.Engine):\n    pass\n",
    );
    write(
        dir,
        "tests/conftest.py",
        "import pytest\n\n\n@pytest.fixture\ndef engine():\n    return 1\n\n\n@pytest.fixture\ndef unused_fixture():\n    return 2\n",
    );
    write(
        dir,
        "tests/unit/test_engine.py",
        "def test_runs(engine):\n    assert engine\n\n\ndef test_plain():\n    assert True\n",
    );
    write(
        dir,
        "other/test_elsewhere.py",
        "def test_other(engine):\n    assert engine\n",
    );
    git(dir, &["add", "-A"]);
    git(dir, &["commit", "-q", "-m", "packages fixture"]);
}

fn symbols_of(body: &Value) -> BTreeSet<(String, String)> {
    items(body)
        .iter()
        .filter_map(|i| {
            Some((
                i["symbol"].as_str()?.to_string(),
                i["via"].as_str()?.to_string(),
            ))
        })
        .collect()
}

#[test]
fn names_imported_through_a_package_init_reach_their_definition() {
    let repo = tempfile::tempdir().unwrap();
    let data = tempfile::tempdir().unwrap();
    packages_repo(repo.path());
    let srv = start(repo.path(), data.path());
    let engine = impact(srv.addr, "symbol=lib.core.Engine&depth=1");
    let found = symbols_of(&engine);
    for (sym, via) in [
        ("app.main.build", "calls"),
        ("app.main.attr", "calls"),
        ("app.main.Turbo", "inherits"),
    ] {
        assert!(
            found.contains(&(sym.to_string(), via.to_string())),
            "{sym} {via} missing: {engine}"
        );
    }
    let square = impact(srv.addr, "symbol=lib.extra.shapes.Square&depth=1");
    assert!(
        symbols_of(&square).contains(&("app.draw.square".to_string(), "calls".to_string())),
        "a star import re-exports what __all__ lists: {square}"
    );
    let circle = impact(srv.addr, "symbol=lib.extra.shapes.Circle&depth=1");
    assert_eq!(
        circle["total"], 0,
        "__all__ leaves Circle out of the star import: {circle}"
    );
    let helper = impact(srv.addr, "symbol=lib.util.helper&depth=1");
    assert!(
        symbols_of(&helper).contains(&("app.main.run".to_string(), "calls".to_string())),
        "the alias `assist` is lib.util.helper: {helper}"
    );
}

#[test]
fn a_conftest_fixture_is_used_by_the_tests_below_it_that_name_it() {
    let repo = tempfile::tempdir().unwrap();
    let data = tempfile::tempdir().unwrap();
    packages_repo(repo.path());
    let srv = start(repo.path(), data.path());
    let conftest = impact(srv.addr, "path=tests/conftest.py&depth=1");
    let found = symbols_of(&conftest);
    assert!(
        found
            .iter()
            .any(|(s, _)| s == "tests.unit.test_engine.test_runs"),
        "{conftest}"
    );
    assert!(
        !found.iter().any(|(s, _)| s.starts_with("other.")),
        "a test outside tests/ does not see tests/conftest.py: {conftest}"
    );
    assert!(
        !found.iter().any(|(s, _)| s.ends_with("test_plain")),
        "{conftest}"
    );
    assert_eq!(conftest["completeness"], "lower_bound", "{conftest}");
    let unused = impact(srv.addr, "symbol=tests.conftest.unused_fixture&depth=1");
    assert_eq!(unused["total"], 0, "{unused}");
    assert_eq!(unused["risk"], "unknown", "{unused}");
}
