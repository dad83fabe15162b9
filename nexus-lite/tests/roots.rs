#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
//! Python source roots (issue 13): modules are named from the roots a project declares, so
//! `from pkg.core import Base` in a project kept in a sub-folder reaches `Base`, and two
//! projects of one repository each resolve their own `core`.

mod common;

use common::*;
use serde_json::Value;
use std::collections::BTreeSet;
use std::net::SocketAddr;
use std::path::Path;

const REPO: &str = "acme/mono";

/// Three projects in sub-folders: `one` declares `lib/` in pyproject.toml, `two` declares
/// `source/` in setup.cfg (both have a `core` package), `three` is a `src/` layout with tests
/// beside it; `four` declares `code/` in setup.py.
fn mono_repo(dir: &Path) {
    git(dir, &["init", "-q", "-b", "main"]);
    write(
        dir,
        "one/pyproject.toml",
        "[project]\nname = \"one\"\n\n[tool.setuptools]\npackage-dir = {\"\" = \"lib\"}\n",
    );
    write(dir, "one/lib/core/__init__.py", "");
    write(dir, "one/lib/core/base.py", "class Base:\n    pass\n");
    write(
        dir,
        "one/lib/one_app/use.py",
        "from core.base import Base\n\n\nclass Mine(Base):\n    pass\n\n\ndef make():\n    return Base()\n",
    );
    write(
        dir,
        "two/setup.cfg",
        "[metadata]\nname = two\n\n[options]\npackage_dir =\n    =source\n",
    );
    write(dir, "two/source/core/__init__.py", "");
    write(dir, "two/source/core/base.py", "class Base:\n    pass\n");
    write(
        dir,
        "two/source/two_app/use.py",
        "import core.base\n\n\ndef make():\n    return core.base.Base()\n",
    );
    write(dir, "three/pyproject.toml", "[project]\nname = \"three\"\n");
    write(dir, "three/src/pkg/__init__.py", "");
    write(dir, "three/src/pkg/core.py", "class Base:\n    pass\n");
    write(
        dir,
        "three/tests/test_core.py",
        "from pkg.core import Base\n\n\ndef test_base():\n    assert Base()\n",
    );
    write(
        dir,
        "four/setup.py",
        "from setuptools import setup\n\nsetup(name=\"four\", package_dir={\"\": \"code\"})\n",
    );
    write(dir, "four/code/fourpkg/__init__.py", "");
    write(
        dir,
        "four/code/fourpkg/run.py",
        "from pkg.core import Base\n\n\ndef go():\n    return Base()\n",
    );
    git(dir, &["add", "-A"]);
    git(dir, &["commit", "-q", "-m", "mono"]);
}

fn impact(a: SocketAddr, query: &str) -> Value {
    let r = get(a, &format!("/api/v1/impact?repository={REPO}&{query}"));
    assert_eq!(r.status, 200, "{}", r.body);
    r.body
}

fn dependents(v: &Value) -> BTreeSet<(String, String, String)> {
    v["items"]
        .as_array()
        .unwrap_or_else(|| panic!("no items in {v}"))
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

fn has(found: &BTreeSet<(String, String, String)>, sym: &str, via: &str) -> bool {
    found.iter().any(|(s, v, _)| s == sym && v == via)
}

#[test]
fn a_class_of_a_sub_folder_project_has_the_dependents_that_import_it_by_package() {
    let repo = tempfile::tempdir().unwrap();
    let data = tempfile::tempdir().unwrap();
    mono_repo(repo.path());
    let srv = start_server(repo.path(), data.path(), Some(REPO), true);
    let base = impact(
        srv.addr,
        "symbol=pkg.core.Base&path=three/src/pkg/core.py&depth=1",
    );
    assert_eq!(base["resolved"], true, "{base}");
    let found = dependents(&base);
    assert!(
        found.contains(&(
            "three.tests.test_core.test_base".into(),
            "calls".into(),
            "exact".into()
        )),
        "the tests beside the src/ layout use Base: {base}"
    );
    assert!(
        has(&found, "fourpkg.run.go", "calls"),
        "another project without a `pkg` of its own finds three's: {base}"
    );
    assert_ne!(base["risk"], "low", "{base}");
}

#[test]
fn two_projects_each_resolve_their_own_core_package() {
    let repo = tempfile::tempdir().unwrap();
    let data = tempfile::tempdir().unwrap();
    mono_repo(repo.path());
    let srv = start_server(repo.path(), data.path(), Some(REPO), true);
    let one = dependents(&impact(
        srv.addr,
        "symbol=core.base.Base&path=one/lib/core/base.py&depth=1",
    ));
    assert!(has(&one, "one_app.use.Mine", "inherits"), "{one:?}");
    assert!(has(&one, "one_app.use.make", "calls"), "{one:?}");
    assert!(
        !one.iter().any(|(s, _, _)| s.starts_with("two_app")),
        "two's code uses its own core: {one:?}"
    );
    let two = dependents(&impact(
        srv.addr,
        "symbol=core.base.Base&path=two/source/core/base.py&depth=1",
    ));
    assert!(has(&two, "two_app.use.make", "calls"), "{two:?}");
    assert!(
        !two.iter().any(|(s, _, _)| s.starts_with("one_app")),
        "{two:?}"
    );
    let r = get(
        srv.addr,
        &format!(
            "/api/v1/file-context?repository={REPO}&path={}",
            enc("two/source/two_app/use.py")
        ),
    );
    assert_eq!(r.status, 200, "{}", r.body);
    let imports = r.body["imports"].as_array().unwrap();
    let core = imports
        .iter()
        .find(|i| i["module"] == "core.base")
        .unwrap_or_else(|| panic!("no core.base import: {imports:?}"));
    assert_eq!(
        core["resolved_path"], "two/source/core/base.py",
        "{imports:?}"
    );
    let anomalies = get(
        srv.addr,
        &format!("/api/v1/anomalies?repository={REPO}&kind=unresolved_import"),
    );
    assert_eq!(anomalies.status, 200, "{}", anomalies.body);
    assert!(
        !anomalies.body.to_string().contains("core.base"),
        "{}",
        anomalies.body
    );
}
