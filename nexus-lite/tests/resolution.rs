#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
//! Python resolution an agent can trust (issue 13, part 2): receivers typed from constructors,
//! annotations, `self.x` and return types; names read as values (`uses`); dynamic constructs
//! keeping answers a lower bound; pytest `usefixtures` marks and nested conftest overrides.

mod common;

use common::*;
use serde_json::Value;
use std::net::SocketAddr;
use std::path::Path;

const REPO: &str = "acme/resolution";

fn commit(dir: &Path, files: &[(&str, &str)]) {
    git(dir, &["init", "-q", "-b", "main"]);
    for (path, text) in files {
        write(dir, path, text);
    }
    git(dir, &["add", "-A"]);
    git(dir, &["commit", "-q", "-m", "fixture"]);
}

fn impact(a: SocketAddr, query: &str) -> Value {
    let r = get(a, &format!("/api/v1/impact?repository={REPO}&{query}"));
    assert_eq!(r.status, 200, "{}", r.body);
    r.body
}

fn has(body: &Value, who: &str, via: &str, resolution: &str) -> bool {
    found(body).contains(&(who.into(), via.into(), resolution.into()))
}

const TRANSPORT: &str = "class Base:\n    def ping(self):\n        return 0\n\n\nclass Transport(Base):\n    def close(self):\n        return 1\n\n    def decode(self):\n        return 2\n\n    def getbuffer(self):\n        return 3\n\n\nclass Page:\n    def render(self):\n        return 4\n\n\ndef make() -> \"Transport\":\n    return Transport()\n";

fn receivers_repo(dir: &Path) {
    commit(
        dir,
        &[
            ("net/__init__.py", ""),
            ("net/transport.py", TRANSPORT),
            ("app/__init__.py", ""),
            (
                "app/local.py",
                "from net.transport import Transport\n\n\ndef run():\n    t = Transport()\n    t.close()\n    t.render()\n",
            ),
            (
                "app/param.py",
                "from typing import Optional\n\nfrom net.transport import Transport\n\n\ndef run(t: Optional[Transport] = None):\n    t.close()\n",
            ),
            (
                "app/ret.py",
                "from net.transport import make\n\n\ndef run():\n    x = make()\n    x.close()\n",
            ),
            (
                "app/attr.py",
                "from net.transport import Transport\n\n\nclass Client:\n    def __init__(self, t: Transport):\n        self.t = t\n\n    def stop(self):\n        self.t.close()\n",
            ),
            (
                "app/holder.py",
                "from dataclasses import dataclass\n\nfrom net.transport import Transport\n\n\n@dataclass\nclass Holder:\n    conn: Transport\n\n    def stop(self):\n        self.conn.close()\n",
            ),
            (
                "app/chain.py",
                "from net import transport\n\n\ndef run(data):\n    return transport.Transport(data).decode()\n",
            ),
            (
                "app/sub.py",
                "from net.transport import Transport\n\n\nclass Sub(Transport):\n    def close(self):\n        super().close()\n        return self.ping()\n",
            ),
            (
                "app/inherited.py",
                "from net.transport import Transport\n\n\ndef run():\n    return Transport().ping()\n",
            ),
            (
                "app/prop.py",
                "from net.transport import Transport\n\n\nclass Pool:\n    @property\n    def conn(self) -> Transport:\n        return Transport()\n\n    def stop(self):\n        self.conn.close()\n",
            ),
            (
                "app/ext.py",
                "import io\n\n\ndef run():\n    b = io.BytesIO()\n    return b.getbuffer()\n",
            ),
        ],
    );
}

#[test]
fn receivers_typed_by_constructors_annotations_attributes_and_returns_reach_the_method() {
    let repo = tempfile::tempdir().unwrap();
    let data = tempfile::tempdir().unwrap();
    receivers_repo(repo.path());
    let srv = start_server(repo.path(), data.path(), Some(REPO), true);
    let close = impact(srv.addr, "symbol=net.transport.Transport.close&depth=1");
    for who in [
        "app.local.run",
        "app.param.run",
        "app.ret.run",
        "app.attr.Client.stop",
        "app.holder.Holder.stop",
        "app.sub.Sub.close",
        "app.prop.Pool.stop",
    ] {
        assert!(has(&close, who, "calls", "inferred"), "{who}: {close}");
    }
    let decode = impact(srv.addr, "symbol=net.transport.Transport.decode&depth=1");
    assert!(
        has(&decode, "app.chain.run", "calls", "exact"),
        "Cls(data).decode(): {decode}"
    );
    let ping = impact(srv.addr, "symbol=net.transport.Base.ping&depth=1");
    assert!(has(&ping, "app.inherited.run", "calls", "exact"), "{ping}");
    assert!(
        has(&ping, "app.sub.Sub.close", "calls", "inferred"),
        "{ping}"
    );
}

#[test]
fn a_receiver_of_known_type_gets_no_name_only_guess() {
    let repo = tempfile::tempdir().unwrap();
    let data = tempfile::tempdir().unwrap();
    receivers_repo(repo.path());
    let srv = start_server(repo.path(), data.path(), Some(REPO), true);
    // `b = io.BytesIO(); b.getbuffer()` is the standard library's.
    let getbuffer = impact(srv.addr, "symbol=net.transport.Transport.getbuffer&depth=1");
    assert_eq!(getbuffer["total"], 0, "{getbuffer}");
    // `t = Transport(); t.render()`: Transport has no render, so it is not Page.render.
    let render = impact(srv.addr, "symbol=net.transport.Page.render&depth=1");
    assert_eq!(render["total"], 0, "{render}");
}

/// A class answering any attribute (`__getattr__`, Django's `ConnectionProxy`) says nothing
/// about a method it lacks: `connection.cursor()` keeps its guess by name.
#[test]
fn a_receiver_answering_any_attribute_keeps_the_name_only_guess() {
    let repo = tempfile::tempdir().unwrap();
    let data = tempfile::tempdir().unwrap();
    commit(
        repo.path(),
        &[
            (
                "db/__init__.py",
                "from db.proxy import Proxy\n\nconnection = Proxy()\n",
            ),
            (
                "db/proxy.py",
                "class Proxy:\n    def close(self):\n        return 0\n\n    def __getattr__(self, name):\n        return name\n\n\nclass Plain:\n    pass\n",
            ),
            (
                "db/wrapper.py",
                "class Wrapper:\n    def cursor(self):\n        return 1\n",
            ),
            (
                "app.py",
                "from db import connection\nfrom db.proxy import Plain\n\n\ndef run():\n    return connection.cursor()\n\n\ndef plain():\n    return Plain().cursor()\n",
            ),
        ],
    );
    let srv = start_server(repo.path(), data.path(), Some(REPO), true);
    let cursor = impact(srv.addr, "symbol=db.wrapper.Wrapper.cursor&depth=1");
    assert!(has(&cursor, "app.run", "calls", "name_match"), "{cursor}");
    // A class without `__getattr__` lacking the method: no guess.
    assert!(
        !found(&cursor).iter().any(|(w, _, _)| w == "app.plain"),
        "{cursor}"
    );
}

fn uses_repo(dir: &Path) {
    commit(
        dir,
        &[
            ("lib/__init__.py", ""),
            (
                "lib/handlers.py",
                "def on_msg(event):\n    return event\n\n\nclass Error(Exception):\n    pass\n\n\nclass Kind:\n    A = 1\n\n    def make(self):\n        return 1\n\n    build = make\n",
            ),
            ("app/__init__.py", ""),
            (
                "app/table.py",
                "from lib.handlers import on_msg\n\nTABLE = {1: on_msg}\n",
            ),
            (
                "app/callback.py",
                "from lib import handlers\n\n\ndef setup(register):\n    register(handlers.on_msg)\n",
            ),
            (
                "app/errors.py",
                "from lib.handlers import Error\n\n\ndef run():\n    try:\n        return 1\n    except Error:\n        return 2\n",
            ),
            (
                "app/check.py",
                "from lib.handlers import Error, Kind\n\n\ndef run(x):\n    return isinstance(x, (Error, ValueError)) or x == Kind.A\n",
            ),
            (
                "app/annotated.py",
                "from lib.handlers import Kind\n\n\ndef run(k: Kind) -> None:\n    return None\n",
            ),
            (
                "app/default.py",
                "from lib.handlers import Kind\n\n\ndef build(factory=Kind):\n    return factory\n",
            ),
            (
                "app/reexport.py",
                "from lib.handlers import Kind  # noqa: F401\n",
            ),
            (
                "app/shadow.py",
                "def run(on_msg, Kind):\n    return on_msg, Kind\n",
            ),
            (
                "app/lazy.py",
                "def run():\n    from lib.handlers import on_msg\n\n    return 1\n",
            ),
        ],
    );
}

#[test]
fn functions_and_classes_read_as_values_are_uses() {
    let repo = tempfile::tempdir().unwrap();
    let data = tempfile::tempdir().unwrap();
    uses_repo(repo.path());
    let srv = start_server(repo.path(), data.path(), Some(REPO), true);
    let on_msg = impact(srv.addr, "symbol=lib.handlers.on_msg&depth=1");
    assert!(has(&on_msg, "app/table.py", "uses", "exact"), "{on_msg}");
    assert!(
        has(&on_msg, "app.callback.setup", "uses", "exact"),
        "{on_msg}"
    );
    // An import inside a function is the function's dependency, not its module's.
    assert!(has(&on_msg, "app.lazy.run", "uses", "exact"), "{on_msg}");
    assert!(
        !found(&on_msg).iter().any(|(w, _, _)| w == "app/lazy.py"),
        "{on_msg}"
    );
    let error = impact(srv.addr, "symbol=lib.handlers.Error&depth=1");
    assert!(has(&error, "app.errors.run", "uses", "exact"), "{error}");
    assert!(has(&error, "app.check.run", "uses", "exact"), "{error}");
    let kind = impact(srv.addr, "symbol=lib.handlers.Kind&depth=1");
    for who in [
        "app.check.run",
        "app.annotated.run",
        "app.default.build",
        "app/reexport.py",
    ] {
        assert!(has(&kind, who, "uses", "exact"), "{who}: {kind}");
    }
    let make = impact(srv.addr, "symbol=lib.handlers.Kind.make&depth=1");
    assert!(
        has(&make, "lib.handlers.Kind", "uses", "exact"),
        "`build = make` in the class body: {make}"
    );
    // A parameter of the same name is no use, and value uses are never guessed by name.
    for body in [&on_msg, &kind] {
        assert!(
            !found(body)
                .iter()
                .any(|(w, _, _)| w.starts_with("app.shadow")),
            "{body}"
        );
    }
}

#[test]
fn dynamic_imports_and_computed_getattr_keep_answers_a_lower_bound_and_say_where() {
    let repo = tempfile::tempdir().unwrap();
    let data = tempfile::tempdir().unwrap();
    commit(
        repo.path(),
        &[
            (
                "plugins.py",
                "import importlib\n\n\ndef load(name):\n    return importlib.import_module(name)\n",
            ),
            (
                "dispatch.py",
                "def handle(obj, name):\n    return getattr(obj, \"on_\" + name)()\n",
            ),
            ("leaf.py", "def on_start():\n    return 1\n"),
        ],
    );
    let srv = start_server(repo.path(), data.path(), Some(REPO), true);
    let leaf = impact(srv.addr, "path=leaf.py&depth=1");
    assert_eq!(leaf["total"], 0, "{leaf}");
    assert_eq!(leaf["completeness"], "lower_bound", "{leaf}");
    assert_eq!(leaf["risk"], "unknown", "{leaf}");
    let causes = leaf["causes"].to_string();
    assert!(
        causes.contains("1 dynamic imports (plugins.py:5)"),
        "{causes}"
    );
    let f = impact(srv.addr, "symbol=leaf.on_start&depth=1");
    let causes = f["causes"].to_string();
    assert!(causes.contains("dispatch.py:2"), "{causes}");
    assert_eq!(f["completeness"], "lower_bound");
}

#[test]
fn usefixtures_marks_and_nested_conftest_overrides_reach_the_right_fixture() {
    let repo = tempfile::tempdir().unwrap();
    let data = tempfile::tempdir().unwrap();
    commit(
        repo.path(),
        &[
            (
                "tests/conftest.py",
                "import pytest\n\n\n@pytest.fixture\ndef engine():\n    return 1\n\n\n@pytest.fixture\ndef db():\n    return 2\n",
            ),
            (
                "tests/unit/conftest.py",
                "import pytest\n\n\n@pytest.fixture\ndef engine(engine):\n    return engine + 1\n",
            ),
            (
                "tests/unit/test_unit.py",
                "def test_unit(engine):\n    assert engine\n",
            ),
            (
                "tests/test_top.py",
                "import pytest\n\n\ndef test_top(engine):\n    assert engine\n\n\n@pytest.mark.usefixtures(\"db\")\ndef test_marked():\n    assert True\n",
            ),
        ],
    );
    let srv = start_server(repo.path(), data.path(), Some(REPO), true);
    let top = impact(srv.addr, "symbol=tests.conftest.engine&depth=1");
    assert!(
        has(&top, "tests.unit.conftest.engine", "calls", "inferred"),
        "{top}"
    );
    assert!(
        has(&top, "tests.test_top.test_top", "calls", "inferred"),
        "{top}"
    );
    assert!(
        !found(&top)
            .iter()
            .any(|(w, _, _)| w == "tests.unit.test_unit.test_unit"),
        "the nearer conftest overrides it: {top}"
    );
    let inner = impact(srv.addr, "symbol=tests.unit.conftest.engine&depth=1");
    assert!(
        has(
            &inner,
            "tests.unit.test_unit.test_unit",
            "calls",
            "inferred"
        ),
        "{inner}"
    );
    let db = impact(srv.addr, "symbol=tests.conftest.db&depth=1");
    assert!(
        has(&db, "tests.test_top.test_marked", "uses", "inferred"),
        "{db}"
    );
}

#[test]
fn names_are_followed_through_a_chain_of_star_imports() {
    let repo = tempfile::tempdir().unwrap();
    let data = tempfile::tempdir().unwrap();
    commit(
        repo.path(),
        &[
            ("web/__init__.py", "from ._transports import *\n"),
            ("web/_transports/__init__.py", "from .asgi import *\n"),
            (
                "web/_transports/asgi.py",
                "__all__ = [\"ASGITransport\"]\n\n\nclass ASGITransport:\n    pass\n",
            ),
            (
                "tests/test_asgi.py",
                "import web\n\n\ndef test_it():\n    return web.ASGITransport()\n\n\ndef test_sub():\n    class T(web.ASGITransport):\n        pass\n\n    return T\n",
            ),
        ],
    );
    let srv = start_server(repo.path(), data.path(), Some(REPO), true);
    let t = impact(
        srv.addr,
        "symbol=web._transports.asgi.ASGITransport&depth=1",
    );
    assert!(has(&t, "tests.test_asgi.test_it", "calls", "exact"), "{t}");
    assert!(
        has(&t, "tests.test_asgi.test_sub.T", "inherits", "exact"),
        "{t}"
    );
}

const SFTP: &str = r#"class SFTPClient:
    @classmethod
    def from_transport(cls, t):
        return cls(t)

    def listdir(self):
        return []


class LocalDir:
    def listdir(self):
        return []


class Transport:
    def open_sftp_client(self):
        return SFTPClient.from_transport(self)

    def open_raw(self, name):
        return name


class Conn:
    def __enter__(self):
        return self

    def send(self):
        return 1


class Pool:
    def __enter__(self) -> Conn:
        return Conn()

    def send(self):
        return 2

    @property
    def fingerprint(self):
        return 3

    def describe(self):
        return f"Pool({self.fingerprint})"


class Ruler:
    def enable(self):
        return 4


class Other:
    def enable(self):
        return 5
"#;

/// Issue 30's recall patterns: a method reached through an unannotated return (`cls(...)` in
/// a classmethod, `return Cls.factory(self)`), a `with` target typed by `__enter__`, a
/// generic class instantiated as `Ruler[T]()` and held in `self.x`, a property read in an
/// f-string. Each edge is `inferred`, and the same-named methods of other classes get none.
#[test]
fn returns_with_targets_generics_and_fstrings_type_receivers() {
    let repo = tempfile::tempdir().unwrap();
    let data = tempfile::tempdir().unwrap();
    commit(
        repo.path(),
        &[
            ("net/__init__.py", ""),
            ("net/sftp.py", SFTP),
            ("app/__init__.py", ""),
            (
                "app/use.py",
                "from net.sftp import Pool, Ruler, Transport\n\n\ndef listing(t: Transport):\n    return t.open_sftp_client().listdir()\n\n\ndef stored():\n    sftp = Transport().open_sftp_client()\n    return sftp.listdir()\n\n\ndef untyped(name):\n    x = Transport().open_raw(name)\n    return x.listdir()\n\n\ndef pooled():\n    with Pool() as c:\n        return c.send()\n\n\nclass Holder:\n    def __init__(self):\n        self.rules = Ruler[int]()\n\n    def on(self):\n        return self.rules.enable()\n",
            ),
        ],
    );
    let srv = start_server(repo.path(), data.path(), Some(REPO), true);
    let listdir = impact(srv.addr, "symbol=net.sftp.SFTPClient.listdir&depth=1");
    for who in ["app.use.listing", "app.use.stored"] {
        assert!(has(&listdir, who, "calls", "inferred"), "{who}: {listdir}");
    }
    // `open_raw` returns its parameter: nothing is known of `x`, and `listdir` has two
    // definitions, so no guess.
    let who: Vec<String> = found(&listdir).into_iter().map(|(w, _, _)| w).collect();
    assert!(!who.contains(&"app.use.untyped".to_string()), "{listdir}");
    let local = impact(srv.addr, "symbol=net.sftp.LocalDir.listdir&depth=1");
    assert_eq!(local["total"], 0, "{local}");

    let conn = impact(srv.addr, "symbol=net.sftp.Conn.send&depth=1");
    assert!(has(&conn, "app.use.pooled", "calls", "inferred"), "{conn}");
    let pool = impact(srv.addr, "symbol=net.sftp.Pool.send&depth=1");
    assert_eq!(pool["total"], 0, "with Pool() as c: c is a Conn: {pool}");

    let enable = impact(srv.addr, "symbol=net.sftp.Ruler.enable&depth=1");
    assert!(
        has(&enable, "app.use.Holder.on", "calls", "inferred"),
        "{enable}"
    );
    let other = impact(srv.addr, "symbol=net.sftp.Other.enable&depth=1");
    assert_eq!(other["total"], 0, "{other}");

    let fp = impact(srv.addr, "symbol=net.sftp.Pool.fingerprint&depth=1");
    assert!(
        found(&fp)
            .iter()
            .any(|(w, _, _)| w == "net.sftp.Pool.describe"),
        "f-string field: {fp}"
    );
}

/// Issue 30's second round: the element type of an annotated container (`for r in
/// self.rulers`, `self.by_name[name]`, a `list[Ruler]` parameter), a local or parameter
/// holding a class (`factory = Transport`, `pool_class=Pool`, `c = (cls or Conn)()`), a chained
/// assignment, a module-level variable imported (directly or through a package), a class
/// defined inside the function using it, and a `with` target whose `__enter__` returns a
/// `TypeVar` (`self: T -> T`), and one of several classes (a function returning either, a
/// table of classes, a loop over classes, an imported list of classes, a name assigned in
/// two branches of an `if`). Each reaches its method `inferred`, and the
/// same-named methods of other classes get nothing.
#[test]
fn containers_classes_held_imported_variables_and_local_classes_type_receivers() {
    let repo = tempfile::tempdir().unwrap();
    let data = tempfile::tempdir().unwrap();
    commit(
        repo.path(),
        &[
            (
                "net/__init__.py",
                "from .globals import current\nfrom .sftp import Conn, Pool\n\nSENDERS = [Pool, Conn]\n",
            ),
            ("net/sftp.py", SFTP),
            (
                "net/globals.py",
                "from net.sftp import Ruler\n\ncurrent: Ruler = None\n",
            ),
            ("app/__init__.py", ""),
            (
                "app/more.py",
                r#"from typing import TypeVar

from net import current
from net.sftp import Conn, Pool, Ruler, Transport


class Registry:
    def __init__(self):
        self.rulers: list[Ruler] = []
        self.by_name: dict[str, Ruler] = {}

    def all_on(self):
        for r in self.rulers:
            r.enable()

    def one_on(self, name):
        return self.by_name[name].enable()

    def got_on(self, name):
        return self.by_name.get(name).enable()

    def values_on(self):
        for r in self.by_name.values():
            r.enable()

    def last_on(self):
        return self.rulers.pop().enable()


def each(items: list[Ruler]):
    for it in items:
        it.enable()


def connect(factory=None):
    if factory is None:
        factory = Transport
    t = conn = factory()
    return t.open_sftp_client().listdir()


def with_default(pool_class=Pool):
    with pool_class() as c:
        return c.send()


def either(cls=None):
    c = (cls or Conn)()
    return c.send()


def via_global():
    return current.enable()


def local_class():
    class Mine(Ruler):
        pass

    m = Mine()
    return m.enable()


T = TypeVar("T")


class Session:
    def __enter__(self: T) -> T:
        return self

    def send(self):
        return 6


def session_send():
    with Session() as s:
        return s.send()


def pick(raw):
    if raw:
        return Pool()
    return Conn()


def either_of_two(raw):
    return pick(raw).send()


SENDERS = {"pool": Pool, "conn": Conn}


def by_table(kind):
    return SENDERS[kind]().send()


def each_class():
    for cls in (Pool, Conn):
        cls().send()


def each_imported():
    from net import SENDERS

    for cls in SENDERS:
        cls().send()


def in_branches(raw):
    if raw:
        c = Pool()
    else:
        c = Conn()
    return c.send()


def in_elif(kind):
    if kind == 1:
        c = Pool()
    elif kind == 2:
        c = Conn()
    return c.send()
"#,
            ),
        ],
    );
    let srv = start_server(repo.path(), data.path(), Some(REPO), true);
    let enable = impact(srv.addr, "symbol=net.sftp.Ruler.enable&depth=1");
    // `get()`, `pop()` and `values()` of an annotated container give its elements.
    for who in [
        "app.more.Registry.all_on",
        "app.more.Registry.one_on",
        "app.more.Registry.got_on",
        "app.more.Registry.values_on",
        "app.more.Registry.last_on",
        "app.more.each",
        "app.more.via_global",
        "app.more.local_class",
    ] {
        assert!(has(&enable, who, "calls", "inferred"), "{who}: {enable}");
    }
    let other = impact(srv.addr, "symbol=net.sftp.Other.enable&depth=1");
    assert_eq!(other["total"], 0, "{other}");

    let listdir = impact(srv.addr, "symbol=net.sftp.SFTPClient.listdir&depth=1");
    assert!(
        has(&listdir, "app.more.connect", "calls", "inferred"),
        "{listdir}"
    );
    let local = impact(srv.addr, "symbol=net.sftp.LocalDir.listdir&depth=1");
    assert_eq!(local["total"], 0, "{local}");

    let conn = impact(srv.addr, "symbol=net.sftp.Conn.send&depth=1");
    for who in ["app.more.with_default", "app.more.either"] {
        assert!(has(&conn, who, "calls", "inferred"), "{who}: {conn}");
    }
    assert!(
        !found(&conn)
            .iter()
            .any(|(w, _, _)| w == "app.more.session_send"),
        "{conn}"
    );
    // One of several classes (a function returning either, a table of classes, a loop over
    // classes, here or in an imported list): each class's method.
    let pool = impact(srv.addr, "symbol=net.sftp.Pool.send&depth=1");
    for who in [
        "either_of_two",
        "by_table",
        "each_class",
        "each_imported",
        "in_branches",
        "in_elif",
    ] {
        let who = format!("app.more.{who}");
        assert!(has(&pool, &who, "calls", "inferred"), "{who}: {pool}");
        assert!(has(&conn, &who, "calls", "inferred"), "{who}: {conn}");
    }
    assert_eq!(pool["total"], 6, "{pool}");
    // `__enter__(self: T) -> T` returns what it is called on.
    let session = impact(srv.addr, "symbol=app.more.Session.send&depth=1");
    assert!(
        has(&session, "app.more.session_send", "calls", "inferred"),
        "{session}"
    );
}

/// Types given in docstrings' Sphinx fields (requests, paramiko): `:rtype:` with an absolute
/// path the module does not import (`net.sftp.Conn` inside `net`), `:rtype:` through the
/// package's re-export, `:type name:`, `:param .Class name:`, a role (`:class:`), and an
/// annotation winning over its docstring, and a docstring type naming no class giving way to
/// the returned value. Each reaches its method `inferred`; prose, builtins and several
/// classes type nothing.
#[test]
fn docstring_types_type_receivers() {
    let repo = tempfile::tempdir().unwrap();
    let data = tempfile::tempdir().unwrap();
    commit(
        repo.path(),
        &[
            ("net/__init__.py", "from .sftp import Conn, Pool\n"),
            ("net/sftp.py", SFTP),
            (
                "net/session.py",
                r#"from . import sftp


class Session:
    def get_conn(self, url):
        """Returns the connection for url.

        :rtype: net.sftp.Conn
        """
        return self.table[url]

    def get_pool(self):
        """:rtype: net.Pool"""
        return self.pools[0]

    def either(self):
        """:rtype: net.sftp.Conn or net.sftp.Pool"""
        return self.pools[0]

    def annotated(self) -> sftp.Pool:
        """:rtype: net.sftp.Conn"""
        return self.pools[0]

    def misdocumented(self):
        """:rtype: ConnectionThatMoved"""
        return sftp.Conn()

    def send(self, url):
        return self.get_conn(url).send()

    def pooled(self):
        p = self.get_pool()
        return p.send()

    def several(self):
        return self.either().send()

    def wins(self):
        return self.annotated().send()

    def moved(self):
        return self.misdocumented().send()


def typed(conn, pool, other):
    """Sends on both.

    :param conn: the connection
    :type conn: :class:`Conn <net.sftp.Conn>`
    :param .Pool pool: a pool
    :param other: anything
    :type other: dict or None
    """
    conn.send()
    pool.fingerprint()
    other.send()
"#,
            ),
        ],
    );
    let srv = start_server(repo.path(), data.path(), Some(REPO), true);
    let conn = impact(srv.addr, "symbol=net.sftp.Conn.send&depth=1");
    // `moved`: a docstring type naming no class gives way to what the function returns.
    for who in [
        "net.session.Session.send",
        "net.session.typed",
        "net.session.Session.moved",
    ] {
        assert!(has(&conn, who, "calls", "inferred"), "{who}: {conn}");
    }
    let pool = impact(srv.addr, "symbol=net.sftp.Pool.send&depth=1");
    for who in ["net.session.Session.pooled", "net.session.Session.wins"] {
        assert!(has(&pool, who, "calls", "inferred"), "{who}: {pool}");
    }
    let fingerprint = impact(srv.addr, "symbol=net.sftp.Pool.fingerprint&depth=1");
    assert!(
        has(&fingerprint, "net.session.typed", "calls", "inferred"),
        "{fingerprint}"
    );
    // Several classes in a docstring, or a builtin, type nothing; the annotation wins.
    for body in [&conn, &pool] {
        let who: Vec<String> = found(body).into_iter().map(|(w, _, _)| w).collect();
        assert!(
            !who.contains(&"net.session.Session.several".to_string()),
            "{body}"
        );
    }
    assert!(
        !found(&conn)
            .iter()
            .any(|(w, _, _)| w == "net.session.Session.wins"),
        "{conn}"
    );
    assert_eq!(
        found(&conn)
            .iter()
            .filter(|(w, _, _)| w == "net.session.typed")
            .count(),
        1,
        "{conn}"
    );
}

/// A pytest fixture parameter holds what its fixture returns or yields (flask's `app`
/// fixture): a test's `app.route()` reaches `App.route` `inferred` although another class has
/// a `route` too, through the nearest conftest's fixture, a module's own fixture overriding
/// it, and a fixture using another. A local assignment of the same name wins.
#[test]
fn fixture_parameters_hold_what_their_fixtures_return_or_yield() {
    let repo = tempfile::tempdir().unwrap();
    let data = tempfile::tempdir().unwrap();
    commit(
        repo.path(),
        &[
            ("web/__init__.py", ""),
            (
                "web/app.py",
                "class App:\n    def route(self, path):\n        return path\n\n    def test_client(self) -> 'Client':\n        return Client()\n\n\nclass Client:\n    def get(self, path):\n        return path\n\n\nclass Router:\n    def route(self, path):\n        return path\n\n\nclass Other:\n    def route(self, path):\n        return path\n",
            ),
            (
                "tests/conftest.py",
                "import pytest\nfrom web.app import App\n\n\n@pytest.fixture\ndef app():\n    app = App()\n    return app\n\n\n@pytest.fixture\ndef client(app):\n    return app.test_client()\n\n\n@pytest.fixture\ndef router():\n    from web.app import Router\n    r = Router()\n    yield r\n",
            ),
            (
                "tests/test_views.py",
                "def test_route(app):\n    app.route('/')\n\n\ndef test_nested(app):\n    def inner():\n        return app.route('/x')\n    inner()\n\n\ndef test_client_get(client):\n    client.get('/')\n\n\ndef test_router(router):\n    router.route('/')\n\n\ndef test_local(app):\n    from web.app import Other\n    app = Other()\n    app.route('/')\n",
            ),
            (
                "tests/sub/test_own.py",
                "import pytest\nfrom web.app import Router\n\n\n@pytest.fixture\ndef app():\n    return Router()\n\n\ndef test_own(app):\n    app.route('/')\n",
            ),
        ],
    );
    let srv = start_server(repo.path(), data.path(), Some(REPO), true);
    let route = impact(srv.addr, "symbol=web.app.App.route&depth=1");
    for who in [
        "tests.test_views.test_route",
        "tests.test_views.test_nested.inner",
    ] {
        assert!(has(&route, who, "calls", "inferred"), "{who}: {route}");
    }
    let get = impact(srv.addr, "symbol=web.app.Client.get&depth=1");
    assert!(
        has(
            &get,
            "tests.test_views.test_client_get",
            "calls",
            "inferred"
        ),
        "{get}"
    );
    let router = impact(srv.addr, "symbol=web.app.Router.route&depth=1");
    for who in [
        "tests.test_views.test_router",
        "tests.sub.test_own.test_own",
    ] {
        assert!(has(&router, who, "calls", "inferred"), "{who}: {router}");
    }
    let other = impact(srv.addr, "symbol=web.app.Other.route&depth=1");
    assert!(
        has(&other, "tests.test_views.test_local", "calls", "inferred"),
        "{other}"
    );
    // Each call reaches its own class's method only.
    let users: Vec<String> = found(&route).into_iter().map(|(w, _, _)| w).collect();
    for who in ["tests.test_views.test_local", "tests.sub.test_own.test_own"] {
        assert!(!users.contains(&who.to_string()), "{who}: {route}");
    }
}

/// `with X() as x` where `__enter__` is a base class's `return self` (paramiko's
/// `ClosingContextManager`): `x` is an `X`, so its own and inherited methods are reached.
#[test]
fn a_with_target_entered_through_a_base_class_is_the_subclass() {
    let repo = tempfile::tempdir().unwrap();
    let data = tempfile::tempdir().unwrap();
    commit(
        repo.path(),
        &[
            (
                "io/util.py",
                "class Closing:\n    def __enter__(self):\n        return self\n\n    def __exit__(self, *a):\n        self.close()\n",
            ),
            (
                "io/files.py",
                "from io.util import Closing\n\n\nclass Buffered(Closing):\n    def readline(self):\n        return ''\n\n\nclass Remote(Buffered):\n    def stat(self):\n        return 0\n\n\ndef use():\n    with Remote() as f:\n        f.stat()\n        f.readline()\n",
            ),
        ],
    );
    let srv = start_server(repo.path(), data.path(), Some(REPO), true);
    for symbol in ["io.files.Remote.stat", "io.files.Buffered.readline"] {
        let body = impact(srv.addr, &format!("symbol={symbol}&depth=1"));
        assert!(
            has(&body, "io.files.use", "calls", "inferred"),
            "{symbol}: {body}"
        );
    }
}

/// An `__init__` parameter nothing annotates holds what the class's constructions pass
/// (paramiko's `AuthHandler(self)` keeping `self.transport`): by position, by keyword, through
/// `weakref.proxy`, from several callers (both classes), and a body's assignment winning.
/// A property of the same name stays what the attribute reads, a parameter shadowing a module
/// function is no use of it, and a class nobody constructs with arguments types nothing.
#[test]
fn init_parameters_hold_what_constructions_pass() {
    let repo = tempfile::tempdir().unwrap();
    let data = tempfile::tempdir().unwrap();
    commit(
        repo.path(),
        &[
            ("net/__init__.py", ""),
            (
                "net/auth.py",
                r#"import weakref


def log(message):
    return message


class Logger:
    def write(self, msg):
        return msg


class Default:
    def check(self):
        return 0


class Handler:
    def __init__(self, transport, log=None, server=None):
        self.transport = weakref.proxy(transport)
        self.log = log
        if server is None:
            server = Default()
        self.server = server

    def abort(self):
        self.transport.close()

    def report(self):
        self.log.write("x")
        self.server.check()


class Unbuilt:
    def __init__(self, sock):
        self.sock = sock

    def stop(self):
        self.sock.shutdown()


class Path:
    def length(self):
        return 1


class Spring:
    def __init__(self, pathway):
        self.pathway = pathway

    @property
    def pathway(self):
        return self._pathway

    @pathway.setter
    def pathway(self, value):
        self._pathway = value

    def force(self):
        return self.pathway.length


def spring():
    return Spring(Path())


def shadowing():
    log = Logger()
    return log.level


def styles(palette):
    if palette:
        style = Logger()
    else:
        def style(x):
            return x
    return [style]
"#,
            ),
            (
                "net/transport.py",
                r#"from net.auth import Handler, Logger


class Transport:
    def close(self):
        return 1

    def shutdown(self):
        return 2

    def start(self):
        self.auth = Handler(self, log=Logger())


class Socket:
    def close(self):
        return 3


def over_socket():
    s = Socket()
    return Handler(s)
"#,
            ),
        ],
    );
    let srv = start_server(repo.path(), data.path(), Some(REPO), true);
    for (symbol, who) in [
        ("net.transport.Transport.close", "net.auth.Handler.abort"),
        ("net.transport.Socket.close", "net.auth.Handler.abort"),
        ("net.auth.Logger.write", "net.auth.Handler.report"),
        ("net.auth.Default.check", "net.auth.Handler.report"),
    ] {
        let body = impact(srv.addr, &format!("symbol={symbol}&depth=1"));
        assert!(has(&body, who, "calls", "inferred"), "{symbol}: {body}");
    }
    // The parameter `log` read by its bare name, or a local `log`'s attribute, is no use of
    // the module's `log`; a function defined beside a local of its name is used.
    let log = impact(srv.addr, "symbol=net.auth.log&depth=1");
    assert_eq!(log["total"], 0, "{log}");
    let style = impact(srv.addr, "symbol=net.auth.styles.style&depth=1");
    assert!(has(&style, "net.auth.styles", "uses", "exact"), "{style}");
    // A property of the parameter's name is what `self.pathway` reads, through its setter.
    let pathway = impact(srv.addr, "symbol=net.auth.Spring.pathway&depth=1");
    assert!(
        has(&pathway, "net.auth.Spring.force", "uses", "inferred"),
        "{pathway}"
    );
    let shutdown = impact(srv.addr, "symbol=net.transport.Transport.shutdown&depth=1");
    assert!(
        !found(&shutdown)
            .iter()
            .any(|(w, _, r)| w == "net.auth.Unbuilt.stop" && r == "inferred"),
        "{shutdown}"
    );
}

/// A module-level alias (`_af_new = Permutation._af_new`, `Matrix = MutableDenseMatrix`
/// imported from the module defining it) is called as what it names; a bare call is never a
/// method's guess.
#[test]
fn a_module_level_alias_is_called_as_what_it_names() {
    let repo = tempfile::tempdir().unwrap();
    let data = tempfile::tempdir().unwrap();
    commit(
        repo.path(),
        &[
            ("pkg/__init__.py", ""),
            (
                "pkg/perm.py",
                "class Permutation:\n    @classmethod\n    def _af_new(cls, perm):\n        return cls()\n\n    def cardinality(self):\n        return 0\n",
            ),
            (
                "pkg/groups.py",
                "from pkg.perm import Permutation\n\n_af_new = Permutation._af_new\n\n\nclass Group:\n    def make(self, args):\n        return _af_new(list(args))\n",
            ),
            (
                "pkg/matrices.py",
                "class MutableDenseMatrix:\n    def det(self):\n        return 1\n\n\nMatrix = MutableDenseMatrix\n",
            ),
            (
                "pkg/use.py",
                "from pkg.matrices import Matrix\n\n\ndef run():\n    m = Matrix()\n    return m.det()\n\n\ndef bare():\n    return cardinality()\n",
            ),
        ],
    );
    let srv = start_server(repo.path(), data.path(), Some(REPO), true);
    let af_new = impact(srv.addr, "symbol=pkg.perm.Permutation._af_new&depth=1");
    assert!(
        has(&af_new, "pkg.groups.Group.make", "calls", "inferred"),
        "{af_new}"
    );
    let det = impact(
        srv.addr,
        "symbol=pkg.matrices.MutableDenseMatrix.det&depth=1",
    );
    assert!(has(&det, "pkg.use.run", "calls", "inferred"), "{det}");
    let cardinality = impact(srv.addr, "symbol=pkg.perm.Permutation.cardinality&depth=1");
    assert_eq!(cardinality["total"], 0, "{cardinality}");
}

/// A caller calling one method twice, first on an untyped receiver (a guess by name), then on
/// a typed one: its one edge says what the stronger evidence says.
#[test]
fn the_strongest_call_of_a_pair_decides_its_edge() {
    let repo = tempfile::tempdir().unwrap();
    let data = tempfile::tempdir().unwrap();
    commit(
        repo.path(),
        &[
            ("pkg/__init__.py", ""),
            (
                "pkg/engine.py",
                "class Engine:\n    def ignite(self):\n        return 1\n",
            ),
            (
                "pkg/run.py",
                "from pkg.engine import Engine\n\n\ndef run(engine_like):\n    engine_like.ignite()\n    e = Engine()\n    return e.ignite()\n",
            ),
        ],
    );
    let srv = start_server(repo.path(), data.path(), Some(REPO), true);
    let ignite = impact(srv.addr, "symbol=pkg.engine.Engine.ignite&depth=1");
    assert!(has(&ignite, "pkg.run.run", "calls", "inferred"), "{ignite}");
    assert!(
        !has(&ignite, "pkg.run.run", "calls", "name_match"),
        "{ignite}"
    );
}

/// A property read on the way along a chain whose end resolves too (`p.exp.is_integer`) is a
/// use of it as well as of the end.
#[test]
fn a_property_read_inside_a_chain_is_a_use() {
    let repo = tempfile::tempdir().unwrap();
    let data = tempfile::tempdir().unwrap();
    commit(
        repo.path(),
        &[
            ("pkg/__init__.py", ""),
            (
                "pkg/m.py",
                "class Expr:\n    @property\n    def is_integer(self):\n        return True\n\n\nclass Pow:\n    @property\n    def exp(self) -> Expr:\n        return Expr()\n",
            ),
            (
                "pkg/use.py",
                "from pkg.m import Pow\n\n\ndef run(p: Pow):\n    return p.exp.is_integer\n",
            ),
        ],
    );
    let srv = start_server(repo.path(), data.path(), Some(REPO), true);
    let exp = impact(srv.addr, "symbol=pkg.m.Pow.exp&depth=1");
    assert!(has(&exp, "pkg.use.run", "uses", "inferred"), "{exp}");
    let end = impact(srv.addr, "symbol=pkg.m.Expr.is_integer&depth=1");
    assert!(has(&end, "pkg.use.run", "uses", "inferred"), "{end}");
}

/// Shapes found on held-out projects (werkzeug, urllib3, starlette), each typing a receiver:
/// `__enter__(self) -> Self` on a base class gives the subclass (urllib3's `with
/// proxy_from_url(...) as http`); a generic class of the repository annotated with arguments
/// (`dict[str, Convertor[Any]]`); a class attribute holding a class, called through `self`
/// (werkzeug's `storage_class = ds.Headers`, or annotated `type[ds.MultiDict]`); `te.Self |
/// None` on a classmethod; a callback protocol's instance called gives what
/// its `__call__` returns, even beside a runtime stub of its name (starlette's
/// `test_client_factory: TestClientFactory`). A plain class annotated and called still makes
/// one of it; a held class with a `__call__` is an instance called (starlette's
/// `self.background()`). A union annotation (`SSLTransport | socket.socket`) is each of its
/// classes, `with contextlib.closing(x) as y` makes `y` the `x` (urllib3's tests), and `a or b`
/// and `a if c else b` are either side.
#[test]
fn self_returns_generics_unions_held_classes_and_callback_protocols_type_receivers() {
    let repo = tempfile::tempdir().unwrap();
    let data = tempfile::tempdir().unwrap();
    commit(
        repo.path(),
        &[
            ("pkg/__init__.py", ""),
            (
                "pkg/pool.py",
                "import typing\n\nimport typing_extensions as te\n\nif typing.TYPE_CHECKING:\n    from typing_extensions import Self\n\n\nclass Pool:\n    def __enter__(self) -> Self:\n        return self\n\n    def __exit__(self, *a):\n        pass\n\n    def connection_from_host(self, host):\n        return 1\n\n    def copy(self) -> Self:\n        return self\n\n\nclass ProxyPool(Pool):\n    def connection_from_host(self, host):\n        return 2\n\n\ndef proxy_from_url(url) -> ProxyPool:\n    return ProxyPool()\n\n\nclass Auth:\n    @classmethod\n    def from_header(cls, value) -> te.Self | None:\n        return cls()\n\n    def token(self):\n        return 1\n\n\ndef use_auth():\n    return Auth.from_header('x').token()\n\n\ndef use():\n    with proxy_from_url('u') as http:\n        http.connection_from_host('h')\n    ProxyPool().copy().connection_from_host('h')\n",
            ),
            (
                "pkg/conv.py",
                "import typing\n\nT = typing.TypeVar('T')\n\n\nclass Convertor(typing.Generic[T]):\n    def to_string(self, value: T) -> str:\n        return ''\n\n\ndef replace(convertors: dict[str, Convertor[typing.Any]], one: Convertor[int]):\n    convertors['k'].to_string(1)\n    one.to_string(2)\n",
            ),
            (
                "pkg/ds.py",
                "class Headers:\n    def getlist(self, key):\n        return []\n\n\nclass Accept:\n    def best_match(self, offers):\n        return None\n\n\nclass Task:\n    def __call__(self):\n        return 1\n\n\nclass Response:\n    def __init__(self, background: Task):\n        self.background = background\n\n    def send(self):\n        self.background()\n",
            ),
            (
                "pkg/test_ds.py",
                "from pkg import ds\n\n\nclass TestHeaders:\n    storage_class = ds.Headers\n\n    def test_getlist(self):\n        headers = self.storage_class()\n        headers.getlist('x')\n\n\nclass _Base:\n    storage_class: type[ds.Headers]\n\n    def test_base(self):\n        self.storage_class().getlist('y')\n",
            ),
            (
                "pkg/client.py",
                "class TestClient:\n    def options(self, url):\n        return 1\n",
            ),
            (
                "pkg/sock.py",
                "import contextlib\nimport socket\nfrom typing import Union\n\n\nclass SSLTransport:\n    def settimeout(self, t):\n        pass\n\n    def makefile(self):\n        return None\n\n\ndef wrap(raw) -> SSLTransport | socket.socket:\n    return SSLTransport()\n\n\ndef closing_use(raw):\n    with contextlib.closing(wrap(raw)) as ssl_sock, ssl_sock.makefile() as f:\n        pass\n\n\nclass Plain:\n    def settimeout(self, t):\n        pass\n\n\ndef consume(sock: SSLTransport | socket.socket | None):\n    sock.settimeout(1)\n\n\ndef either(sock: Union[SSLTransport, Plain]):\n    sock.settimeout(2)\n\n\ndef get_transport() -> SSLTransport:\n    return SSLTransport()\n\n\nclass Holder:\n    def __init__(self, sock=None, plain=None):\n        self.sock = sock or get_transport()\n        self.other = plain if plain is not None else Plain()\n\n    def run(self):\n        self.sock.makefile()\n        self.other.settimeout(3)\n",
            ),
            (
                "pkg/types.py",
                "from typing import TYPE_CHECKING, Protocol\n\nfrom pkg.client import TestClient\n\nif TYPE_CHECKING:\n\n    class ClientFactory(Protocol):\n        def __call__(self, app) -> TestClient: ...\n\nelse:\n\n    class ClientFactory:\n        __test__ = False\n",
            ),
            (
                "pkg/test_cors.py",
                "from pkg.ds import Accept\nfrom pkg.types import ClientFactory\n\n\ndef test_preflight(test_client_factory: ClientFactory):\n    client = test_client_factory(None)\n    client.options('/')\n\n\ndef test_plain(accept: Accept):\n    made = accept()\n    made.best_match([])\n",
            ),
        ],
    );
    let srv = start_server(repo.path(), data.path(), Some(REPO), true);
    let cases = [
        // The receiver's own override, and a method returning `Self` on an unknown receiver.
        ("pkg.pool.ProxyPool.connection_from_host", "pkg.pool.use"),
        ("pkg.conv.Convertor.to_string", "pkg.conv.replace"),
        (
            "pkg.ds.Headers.getlist",
            "pkg.test_ds.TestHeaders.test_getlist",
        ),
        (
            "pkg.client.TestClient.options",
            "pkg.test_cors.test_preflight",
        ),
        ("pkg.ds.Accept.best_match", "pkg.test_cors.test_plain"),
        ("pkg.ds.Headers.getlist", "pkg.test_ds._Base.test_base"),
        ("pkg.pool.Auth.token", "pkg.pool.use_auth"),
        // A union: each of its classes of the repository.
        ("pkg.sock.SSLTransport.settimeout", "pkg.sock.consume"),
        ("pkg.sock.SSLTransport.settimeout", "pkg.sock.either"),
        ("pkg.sock.Plain.settimeout", "pkg.sock.either"),
        // `contextlib.closing(x)` enters as `x`.
        ("pkg.sock.SSLTransport.makefile", "pkg.sock.closing_use"),
        // Either side of `or` and of a conditional expression (rich's `console or
        // get_console()`).
        ("pkg.sock.SSLTransport.makefile", "pkg.sock.Holder.run"),
        ("pkg.sock.Plain.settimeout", "pkg.sock.Holder.run"),
    ];
    let calls = |body: &Value, caller: &str| {
        ["exact", "inferred"]
            .iter()
            .any(|r| has(body, caller, "calls", r))
    };
    for (symbol, caller) in cases {
        let body = impact(srv.addr, &format!("symbol={symbol}&depth=1"));
        assert!(calls(&body, caller), "{symbol}: {body}");
    }
    // `http` is a `ProxyPool`: the base's method it overrides is not what runs.
    let base = impact(
        srv.addr,
        "symbol=pkg.pool.Pool.connection_from_host&depth=1",
    );
    assert!(!calls(&base, "pkg.pool.use"), "{base}");
    // The held class is constructed: a call of it.
    let held = impact(srv.addr, "symbol=pkg.ds.Headers&depth=1");
    assert!(
        has(
            &held,
            "pkg.test_ds.TestHeaders.test_getlist",
            "calls",
            "inferred"
        ),
        "{held}"
    );
    // A held class with a `__call__` is held as an instance: its `__call__` runs.
    let call = impact(srv.addr, "symbol=pkg.ds.Task.__call__&depth=1");
    assert!(calls(&call, "pkg.ds.Response.send"), "{call}");
    let task = impact(srv.addr, "symbol=pkg.ds.Task&depth=1");
    assert!(!calls(&task, "pkg.ds.Response.send"), "{task}");
}
