#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
//! Regeneration proportional to the change (issue 30), on this repository's own sources: a
//! process that linked the previous commit links again only the files a change may reach,
//! and every graph it writes is, row for row, the graph a full run of a fresh process gives,
//! while each run prunes the graph before it.

mod common;

use common::*;
use nexus_lite::{AppState, LiteConfig, RepoSpec, RunOutcome};
use std::path::Path;

const REPO: &str = "acme/self";

fn spec(root: &Path) -> RepoSpec {
    RepoSpec {
        name: Some(REPO.into()),
        path: root.to_path_buf(),
    }
}

/// This repository's tracked files, copied into `dir` as one commit.
fn copy_of_this_repository(dir: &Path) {
    let here = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let listed = git(&here, &["ls-files", "-z"]);
    for rel in listed.split('\0').filter(|p| !p.is_empty()) {
        let from = here.join(rel);
        // Symlinks and submodules are not copied (the indexer does not follow them either).
        if !std::fs::symlink_metadata(&from).is_ok_and(|m| m.is_file()) {
            continue;
        }
        let to = dir.join(rel);
        std::fs::create_dir_all(to.parent().unwrap()).unwrap();
        std::fs::copy(&from, &to).unwrap();
    }
    // A caller that reaches a method through what another module's function returns.
    write(
        dir,
        "probe/a.py",
        "class A:\n    def ping(self):\n        return 1\n\n\nclass B:\n    def pong(self):\n        return 2\n\n\ndef make():\n    x = A()\n    return x\n",
    );
    write(
        dir,
        "probe/b.py",
        "from probe.a import make\n\n\ndef use():\n    return make().ping()\n",
    );
    // Two functions returning each other's call, typed from whichever is asked first.
    write(
        dir,
        "probe/c.py",
        "class C:\n    def go(self):\n        return 3\n\n\ndef a(x):\n    if x:\n        return b(x)\n    return C()\n\n\ndef b(x):\n    return a(x)\n\n\ndef first():\n    return a(1).go()\n",
    );
    write(
        dir,
        "probe/d.py",
        "from probe.c import b\n\n\ndef later():\n    return 0\n",
    );
    // A long chain of returns, typed in a full link from its middle first (probe/chain.py's
    // own call), then from its top by another file alone.
    let chain: String = (1..=7)
        .map(|i| format!("def f{i}():\n    return f{}()\n\n\n", i + 1))
        .collect();
    write(
        dir,
        "probe/chain.py",
        &format!(
            "class End:\n    def ping(self):\n        return 1\n\n\n{chain}def f8():\n    return End()\n\n\ndef middle():\n    return f7().ping()\n"
        ),
    );
    write(
        dir,
        "probe/z_chain.py",
        "from probe.chain import f5\n\n\ndef top():\n    return 0\n\n\ndef other():\n    return f5().ping()\n",
    );
    // A package binding a submodule's name to the function inside it (markdown-it-py's
    // `rules_core`): `from probe.pkg import rule` is the function, not the module.
    write(dir, "probe/pkg/__init__.py", "from .rule import rule\n");
    write(dir, "probe/pkg/rule.py", "def rule():\n    return 1\n");
    write(
        dir,
        "probe/e.py",
        "from probe.pkg import rule\n\n\ndef apply():\n    return rule()\n",
    );
    // A method reached through a base class: a full link (its files shared among threads)
    // and a one-file link (on one thread) must both know the bases.
    write(
        dir,
        "probe/inherit.py",
        "class Base:\n    def hello(self):\n        return 1\n\n\nclass Sub(Base):\n    pass\n",
    );
    write(
        dir,
        "probe/greet.py",
        "from probe.inherit import Sub\n\n\ndef first():\n    return Sub().hello()\n\n\ndef later():\n    return 0\n",
    );
    // An `__init__` parameter typed by what another file's construction passes.
    write(
        dir,
        "probe/ctor_auth.py",
        "class Left:\n    def ping(self):\n        return 1\n\n\nclass Right:\n    def ping(self):\n        return 2\n\n\nclass Handler:\n    def __init__(self, peer):\n        self.peer = peer\n\n    def abort(self):\n        return self.peer.ping()\n",
    );
    write(
        dir,
        "probe/ctor_make.py",
        "from probe import ctor_auth\nfrom probe.ctor_auth import Handler\n\n\ndef build():\n    return Handler(ctor_auth.Left())\n\n\ndef later():\n    return 0\n",
    );
    // A module-level alias of a method, called from another file.
    write(
        dir,
        "probe/alias.py",
        "from probe.ctor_auth import Left, Right\n\nshared_ping = Left.ping\n",
    );
    write(
        dir,
        "probe/alias_use.py",
        "from probe.alias import shared_ping\n\n\ndef use_ping(peer):\n    return shared_ping(peer)\n",
    );
    // An element of an annotated container, returned unannotated and called from another file.
    write(
        dir,
        "probe/elems.py",
        "from probe.ctor_auth import Left, Right\n\n\ndef first():\n    items: list[Left] = []\n    return items[0]\n",
    );
    write(
        dir,
        "probe/elems_use.py",
        "from probe.elems import first\n\n\ndef use_first():\n    return first().ping()\n",
    );
    // The same in TypeScript: an element of the container a method returns.
    write(
        dir,
        "probe/ts_elems.ts",
        "export class Left {\n  ping() { return 1; }\n}\n\nexport class Right {\n  ping() { return 2; }\n}\n\nexport class Shelf {\n  all(): Array<Left> { return []; }\n}\n",
    );
    write(
        dir,
        "probe/ts_elems_use.ts",
        "import { Shelf } from \"./ts_elems\";\n\nexport function useAll(s: Shelf) {\n  return s.all()[0].ping();\n}\n",
    );
    // A callback in an options object, typed by the member of the parameter's type, whose
    // parameter is a function type alias.
    write(
        dir,
        "probe/ts_opts.ts",
        "import { Left, Right } from \"./ts_elems\";\n\nexport type MakesLeft = () => Left;\nexport type MakesRight = () => Right;\n\nexport interface Opts {\n  use?: (make: MakesLeft) => void;\n}\n\nexport function configure(opts: Opts) {}\n",
    );
    write(
        dir,
        "probe/ts_opts_use.ts",
        "import { configure } from \"./ts_opts\";\n\nexport function setUp() {\n  configure({ use: (make) => make().ping() });\n}\n",
    );
    // A return annotation naming a type parameter: what it is constrained to.
    write(
        dir,
        "probe/ts_bound.ts",
        "import { Left, Right } from \"./ts_elems\";\n\nexport function pick<T extends Left>(): T {\n  return null as any;\n}\n",
    );
    write(
        dir,
        "probe/ts_bound_use.ts",
        "import { pick } from \"./ts_bound\";\n\nexport function usePick() {\n  return pick().ping();\n}\n",
    );
    // An object of a declared type: its callbacks take what the type's members say, here a
    // generic member's bound.
    write(
        dir,
        "probe/ts_member.ts",
        "import { Left, Right } from \"./ts_elems\";\n\nexport interface Hooks {\n  run: <T extends Left>(x: T) => void;\n}\n",
    );
    write(
        dir,
        "probe/ts_member_use.ts",
        "import { Hooks } from \"./ts_member\";\n\nexport const hooks: Hooks = { run: (x) => x.ping() };\n",
    );
    // A function declared by name, called on an untyped receiver elsewhere: no guess until
    // an object holds it.
    write(
        dir,
        "probe/ts_placed.ts",
        "export function tsPlacedProbe() {\n  return 1;\n}\n",
    );
    write(
        dir,
        "probe/ts_placed_use.ts",
        "export function usePlaced(h: any) {\n  return h.tsPlacedProbe();\n}\n",
    );
    // A class held by a class attribute and called through `self` in another file: an
    // instance, or its `__call__` once it has one. And a typed receiver's missing method: no
    // edge, unless its class answers any attribute (`__getattr__`); then a guess by name.
    write(
        dir,
        "probe/held.py",
        "class Task:\n    def run(self):\n        return 1\n\n\nclass Proxy:\n    def own(self):\n        return 2\n",
    );
    write(
        dir,
        "probe/held_use.py",
        "from probe.held import Proxy, Task\n\n\nclass Owner:\n    task_class = Task\n\n    def go(self):\n        return self.task_class()\n\n\ndef reach(p: Proxy):\n    return p.held_probe_far()\n\n\ndef held_probe_far():\n    return 3\n",
    );
    // A call on an untyped receiver, guessed to the one method of its name only when the
    // method's class has every member of the interfaces declaring that name.
    write(
        dir,
        "probe/ts_shape.ts",
        "export interface Shape {\n  shapeProbeParse(): number;\n  shapeProbeCheck(): number;\n}\n",
    );
    write(
        dir,
        "probe/ts_kind.ts",
        "export class Kind {\n  shapeProbeParse() { return 1; }\n}\n",
    );
    write(
        dir,
        "probe/ts_shape_use.ts",
        "export function useShape(x: any) {\n  return x.shapeProbeParse();\n}\n",
    );
    // A callback passed to a constructor, typed by the constructor's parameter once the
    // class has one.
    write(
        dir,
        "probe/ts_box.ts",
        "import { Left } from \"./ts_elems\";\n\nexport class Box {\n  hold() { return 0; }\n}\n",
    );
    write(
        dir,
        "probe/ts_box_use.ts",
        "import { Box } from \"./ts_box\";\n\nexport function useBox() {\n  return new Box((v) => v.ping());\n}\n",
    );
    // An attribute assigned from a local: another file reads the local's type through it.
    write(
        dir,
        "probe/attr.py",
        "class Foo:\n    def ping(self):\n        return 1\n\n\nclass Bar:\n    def ping(self):\n        return 2\n\n\nclass K:\n    def __init__(self):\n        y = Foo()\n        self.x = y\n",
    );
    write(
        dir,
        "probe/attr_use.py",
        "from probe.attr import K\n\n\ndef use_k():\n    return K().x.ping()\n\n\ndef use_w():\n    return K().w_probe.ping()\n",
    );
    // Indexing a value of an interface: what its index signature says, once it has one.
    write(
        dir,
        "probe/ts_index.ts",
        "import { Left } from \"./ts_elems\";\n\nexport interface Bag {\n  hold(): number;\n}\n",
    );
    write(
        dir,
        "probe/ts_index_use.ts",
        "import { Bag } from \"./ts_index\";\n\nexport function useBag(b: Bag) {\n  return b[\"k\"].ping();\n}\n",
    );
    // Methods a class gains that other files already call: directly, through what a function
    // returns, and as what a construction passes (in the class's own file and in another).
    write(
        dir,
        "probe/hold.py",
        "class Holder:\n    def __init__(self, peer):\n        self.peer = peer\n\n    def poke(self):\n        return self.peer.ping()\n",
    );
    write(
        dir,
        "probe/called.py",
        "from probe.ctor_auth import Left, Right\nfrom probe.hold import Holder\n\n\nclass Target:\n    def own(self):\n        return Holder(self.probe_own())\n",
    );
    write(
        dir,
        "probe/called_use.py",
        "from probe.called import Target\nfrom probe.hold import Holder\n\n\ndef use_called(t: Target):\n    return t.probe_called()\n\n\ndef relay(t: Target):\n    return t.probe_relay()\n\n\ndef hold(t: Target):\n    return Holder(t.probe_ctor())\n",
    );
    write(
        dir,
        "probe/called_far.py",
        "from probe.called_use import relay\n\n\ndef far(t):\n    return relay(t).ping()\n",
    );
    git(dir, &["init", "-q", "-b", "main"]);
    git(dir, &["add", "-A"]);
    git(dir, &["commit", "-q", "-m", "this repository"]);
}

/// Whether graph `graph_id` has a `calls` edge from the symbol `from` to the symbol `to`.
fn calls(data: &Path, graph_id: &str, from: &str, to: &str) -> bool {
    calls_with(data, graph_id, from, to, 0.0)
}

/// Whether graph `graph_id` has a `calls` edge from `from` to `to` of at least `confidence`.
fn calls_with(data: &Path, graph_id: &str, from: &str, to: &str, confidence: f64) -> bool {
    let conn = nexus_lite::core::db::open(data).unwrap();
    conn.query_row(
        "SELECT COUNT(*) FROM graphs g JOIN edges e ON e.gpk = g.gpk
           JOIN nodes s ON s.gpk = g.gpk AND s.id = e.src
           JOIN nodes d ON d.gpk = g.gpk AND d.id = e.dst
         WHERE g.graph_id=?1 AND e.kind='calls' AND s.qualified_name=?2 AND d.qualified_name=?3
           AND e.confidence >= ?4",
        rusqlite::params![graph_id, from, to, confidence],
        |r| r.get::<_, i64>(0),
    )
    .unwrap()
        > 0
}

/// Every row of graph `graph_id` but the graph's own, sorted: nodes, edges, imports and
/// anomalies as text.
fn rows(data: &Path, graph_id: &str) -> Vec<String> {
    let conn = nexus_lite::core::db::open(data).unwrap();
    let gpk: i64 = conn
        .query_row(
            "SELECT gpk FROM graphs WHERE graph_id=?1",
            [graph_id],
            |r| r.get(0),
        )
        .unwrap();
    let mut out = Vec::new();
    for (table, cols) in [
        (
            "nodes",
            "id, kind, name, qualified_name, path, line, end_line, language, detail",
        ),
        ("edges", "kind, src, dst, confidence, line"),
        ("imports", "path, module, resolved_path, external, line"),
        ("anomalies", "kind, path, line, message, severity, details"),
        ("files", "path, language, content_hash, size"),
    ] {
        let mut st = conn
            .prepare(&format!("SELECT {cols} FROM {table} WHERE gpk=?1"))
            .unwrap();
        let n = st.column_count();
        let mut got = st.query([gpk]).unwrap();
        while let Some(r) = got.next().unwrap() {
            let values: Vec<String> = (0..n)
                .map(|i| format!("{:?}", r.get::<_, rusqlite::types::Value>(i).unwrap()))
                .collect();
            out.push(format!("{table}: {}", values.join(" | ")));
        }
    }
    out.sort();
    out
}

fn stat(o: &RunOutcome, key: &str) -> u64 {
    o.stats[key]
        .as_u64()
        .unwrap_or_else(|| panic!("{key}: {}", o.stats))
}

/// Commits `change` in `repo`, runs the long-lived process and a fresh one on the commit,
/// and checks their graphs are the same; returns how many parts the long-lived one linked.
fn step(
    state: &AppState,
    repo: &Path,
    data: &Path,
    what: &str,
    change: impl FnOnce(&Path),
) -> (u64, String) {
    change(repo);
    git(repo, &["add", "-A"]);
    git(repo, &["commit", "-q", "-m", what]);
    let kept = state.index_now(state.repo(REPO).unwrap(), None).unwrap();
    let fresh_data = tempfile::tempdir().unwrap();
    let full = nexus_lite::index_once(
        fresh_data.path().to_path_buf(),
        spec(repo),
        nexus_lite::DEFAULT_KEEP_GRAPHS,
    )
    .unwrap();
    assert_eq!(
        stat(&full, "parts_linked"),
        stat(&full, "files_parsed") + stat(&full, "files_reused") + 1,
        "a fresh process links every file"
    );
    let (a, b) = (
        rows(data, &kept.graph_id),
        rows(fresh_data.path(), &full.graph_id),
    );
    if a != b {
        let only_a: Vec<_> = a.iter().filter(|r| !b.contains(r)).take(10).collect();
        let only_b: Vec<_> = b.iter().filter(|r| !a.contains(r)).take(10).collect();
        panic!("{what}: the graphs differ\nonly incremental: {only_a:#?}\nonly full: {only_b:#?}");
    }
    (stat(&kept, "parts_linked"), kept.graph_id)
}

fn append(repo: &Path, rel: &str, text: &str) {
    let path = repo.join(rel);
    let mut body = std::fs::read_to_string(&path).unwrap();
    body.push_str(text);
    std::fs::write(path, body).unwrap();
}

fn replace(repo: &Path, rel: &str, from: &str, to: &str) {
    let path = repo.join(rel);
    let body = std::fs::read_to_string(&path).unwrap();
    assert!(body.contains(from), "{rel} has no `{from}`");
    std::fs::write(path, body.replacen(from, to, 1)).unwrap();
}

#[test]
fn a_regeneration_links_what_the_change_reaches_and_gives_the_full_graph() {
    let repo = tempfile::tempdir().unwrap();
    let data = tempfile::tempdir().unwrap();
    copy_of_this_repository(repo.path());
    // The fewest graphs kept: every run prunes the one before the previous, so each step also
    // checks that what the process remembers of earlier runs never names a pruned part.
    let state = AppState::new(&LiteConfig {
        keep_graphs: nexus_lite::core::config::MIN_KEEP_GRAPHS,
        data_dir: data.path().to_path_buf(),
        repos: vec![spec(repo.path())],
        token: String::new(),
        index_on_first_use: false,
        workspaces: Vec::new(),
        docs_limits: Default::default(),
    })
    .unwrap();
    let first = state.index_now(state.repo(REPO).unwrap(), None).unwrap();
    let all = stat(&first, "parts_linked");
    assert!(all > 300, "{}", first.stats);
    let (use_fn, ping) = ("probe.b.use", "probe.a.A.ping");
    assert!(calls(data.path(), &first.graph_id, use_fn, ping));
    let (apply, rule) = ("probe.e.apply", "probe.pkg.rule.rule");
    // `exact`, not a guess by name: a guess stays once the import is the submodule.
    assert!(calls_with(data.path(), &first.graph_id, apply, rule, 0.9));
    let hello = "probe.inherit.Base.hello";
    // `inferred` through `Sub`'s base, not a guess by name.
    assert!(calls_with(
        data.path(),
        &first.graph_id,
        "probe.greet.first",
        hello,
        0.8
    ));

    // What a construction in another file passes.
    let (abort, left, right) = (
        "probe.ctor_auth.Handler.abort",
        "probe.ctor_auth.Left.ping",
        "probe.ctor_auth.Right.ping",
    );
    assert!(calls_with(data.path(), &first.graph_id, abort, left, 0.8));
    assert!(!calls(data.path(), &first.graph_id, abort, right));

    // A local the function does not return: its file alone.
    let (linked, _) = step(
        &state,
        repo.path(),
        data.path(),
        "an unreturned local",
        |r| {
            replace(
                r,
                "probe/a.py",
                "    x = A()\n",
                "    y = B()\n    x = A()\n",
            );
        },
    );
    assert_eq!(linked, 2);
    // The local it returns: another file's call resolved through it changes. A changed item
    // links the files writing its name (`make`), not every file.
    let (linked, graph) = step(&state, repo.path(), data.path(), "a returned local", |r| {
        replace(r, "probe/a.py", "    x = A()\n", "    x = B()\n");
    });
    assert!(linked < all, "{linked}");
    assert!(!calls(data.path(), &graph, use_fn, ping));

    // A new function nobody calls yet: its file alone (and the graph's own part).
    let (linked, _) = step(
        &state,
        repo.path(),
        data.path(),
        "a new Rust function",
        |r| {
            append(
                r,
                "nexus-lite/src/core/util.rs",
                "\npub fn incremental_probe(x: u32) -> u32 {\n    x + 1\n}\n",
            );
        },
    );
    assert_eq!(linked, 2);
    // An edited body in Python, calling into another module: still that file alone.
    let (linked, _) = step(
        &state,
        repo.path(),
        data.path(),
        "an edited Python body",
        |r| {
            replace(
                r,
                "nexus-lite/bench/mcp_stdio.py",
                "import ",
                "import os as _probe_os\nimport ",
            );
            append(
                r,
                "nexus-lite/bench/mcp_stdio.py",
                "\n\ndef incremental_probe_py():\n    return _probe_os.getcwd()\n",
            );
        },
    );
    assert_eq!(linked, 2);
    // A call to the new function from another file: the caller alone.
    let (linked, _) = step(&state, repo.path(), data.path(), "a new caller", |r| {
        append(
            r,
            "nexus-lite/src/core/scratch.rs",
            "\npub fn incremental_probe_caller() -> u32 {\n    crate::core::util::incremental_probe(1)\n}\n",
        );
    });
    assert_eq!(linked, 2);
    // A call typed through a return cycle that a full link met from its other end first:
    // the caller alone, and the same edge as the full link.
    let (linked, graph) = step(
        &state,
        repo.path(),
        data.path(),
        "a call through a cycle",
        |r| {
            replace(
                r,
                "probe/d.py",
                "    return 0\n",
                "    b(0).go()\n    return 0\n",
            );
        },
    );
    assert_eq!(linked, 2);
    assert!(calls(data.path(), &graph, "probe.d.later", "probe.c.C.go"));
    // A call at the top of a long chain of returns: its file alone, and the edge a full link
    // finds (where the chain's middle was typed first).
    let (linked, graph) = step(&state, repo.path(), data.path(), "a long chain", |r| {
        replace(
            r,
            "probe/z_chain.py",
            "    return 0\n",
            "    f5().ping()\n    return 0\n",
        );
    });
    assert_eq!(linked, 2);
    assert!(calls(
        data.path(),
        &graph,
        "probe.z_chain.top",
        "probe.chain.End.ping"
    ));
    // A call through a base class: its file alone, linked on one thread, and the graph of a
    // full link.
    let (linked, graph) = step(&state, repo.path(), data.path(), "a base class", |r| {
        replace(
            r,
            "probe/greet.py",
            "    return 0\n",
            "    Sub().hello()\n    return 0\n",
        );
    });
    assert_eq!(linked, 2);
    assert!(calls_with(
        data.path(),
        &graph,
        "probe.greet.later",
        hello,
        0.8
    ));
    // A construction passing another class, in a body: the class's file reads it, so every
    // file.
    let (linked, graph) = step(&state, repo.path(), data.path(), "a construction", |r| {
        replace(
            r,
            "probe/ctor_make.py",
            "    return 0\n",
            "    Handler(ctor_auth.Right())\n    return 0\n",
        );
    });
    assert_eq!(linked, all);
    assert!(calls_with(data.path(), &graph, abort, right, 0.8));
    // An alias another file calls through now names another method: that file too.
    let use_ping = "probe.alias_use.use_ping";
    assert!(calls_with(data.path(), &graph, use_ping, left, 0.8));
    let (linked, graph) = step(&state, repo.path(), data.path(), "an alias", |r| {
        replace(r, "probe/alias.py", "= Left.ping", "= Right.ping");
    });
    assert_eq!(linked, 3);
    assert!(calls_with(data.path(), &graph, use_ping, right, 0.8));
    assert!(!calls(data.path(), &graph, use_ping, left));
    // The element type of a container a function returns an element of: the files writing
    // the function's name.
    let use_first = "probe.elems_use.use_first";
    assert!(calls_with(data.path(), &graph, use_first, left, 0.8));
    let (linked, graph) = step(&state, repo.path(), data.path(), "an element type", |r| {
        replace(r, "probe/elems.py", "list[Left]", "list[Right]");
    });
    assert!(linked < all, "{linked}");
    assert!(calls_with(data.path(), &graph, use_first, right, 0.8));
    let (use_all, ts_left, ts_right) = (
        "probe/ts_elems_use.useAll",
        "probe/ts_elems.Left.ping",
        "probe/ts_elems.Right.ping",
    );
    assert!(calls_with(data.path(), &graph, use_all, ts_left, 0.8));
    let (linked, graph) = step(
        &state,
        repo.path(),
        data.path(),
        "a returned element",
        |r| {
            replace(r, "probe/ts_elems.ts", "Array<Left>", "Array<Right>");
        },
    );
    assert!(linked < all, "{linked}");
    assert!(calls_with(data.path(), &graph, use_all, ts_right, 0.8));
    let set_up = "probe/ts_opts_use.setUp";
    assert!(calls_with(data.path(), &graph, set_up, ts_left, 0.8));
    let (linked, graph) = step(
        &state,
        repo.path(),
        data.path(),
        "an options member's parameter type",
        |r| {
            replace(
                r,
                "probe/ts_opts.ts",
                "(make: MakesLeft)",
                "(make: MakesRight)",
            );
        },
    );
    assert_eq!(linked, all);
    assert!(calls_with(data.path(), &graph, set_up, ts_right, 0.8));
    // A type parameter's bound, which a return annotation names: the files writing the
    // function's name.
    let use_pick = "probe/ts_bound_use.usePick";
    assert!(calls_with(data.path(), &graph, use_pick, ts_left, 0.8));
    let (linked, graph) = step(
        &state,
        repo.path(),
        data.path(),
        "a type parameter's bound",
        |r| {
            replace(r, "probe/ts_bound.ts", "T extends Left", "T extends Right");
        },
    );
    assert!(linked < all, "{linked}");
    assert!(calls_with(data.path(), &graph, use_pick, ts_right, 0.8));
    // The bound of a member's own type parameter, which a typed object's callback reads.
    let hooks = "probe/ts_member_use";
    assert!(calls_with(data.path(), &graph, hooks, ts_left, 0.8));
    let (linked, graph) = step(
        &state,
        repo.path(),
        data.path(),
        "a member's type parameter bound",
        |r| {
            replace(r, "probe/ts_member.ts", "T extends Left", "T extends Right");
        },
    );
    assert_eq!(linked, all);
    assert!(calls_with(data.path(), &graph, hooks, ts_right, 0.8));
    // An object now holds a function an unchanged file calls on an untyped receiver: that
    // file's guess appears, so that file is linked too.
    let (placed, use_placed) = (
        "probe/ts_placed.tsPlacedProbe",
        "probe/ts_placed_use.usePlaced",
    );
    assert!(!calls(data.path(), &graph, use_placed, placed));
    let (linked, graph) = step(
        &state,
        repo.path(),
        data.path(),
        "a function put in an object",
        |r| {
            append(
                r,
                "probe/ts_placed.ts",
                "\nexport const holder = { tsPlacedProbe };\n",
            );
        },
    );
    assert_eq!(linked, 3);
    assert!(calls(data.path(), &graph, use_placed, placed));
    // The same body edited again without touching a construction: its file alone.
    let (linked, _) = step(
        &state,
        repo.path(),
        data.path(),
        "beside a construction",
        |r| {
            replace(r, "probe/ctor_make.py", "    return 0\n", "    return 1\n");
        },
    );
    assert_eq!(linked, 2);
    // Protocol methods the linker asks for by itself, which no other file writes: a class
    // gaining `__call__` or `__getattr__` changes calls in files that never name them.
    let (go, task, task_call) = (
        "probe.held_use.Owner.go",
        "probe.held.Task",
        "probe.held.Task.__call__",
    );
    assert!(calls(data.path(), &graph, go, task));
    let (linked, graph) = step(&state, repo.path(), data.path(), "a `__call__`", |r| {
        replace(
            r,
            "probe/held.py",
            "        return 1\n",
            "        return 1\n\n    def __call__(self):\n        return 4\n",
        );
    });
    assert_eq!(linked, all);
    assert!(calls(data.path(), &graph, go, task_call));
    let (reach, far) = ("probe.held_use.reach", "probe.held_use.held_probe_far");
    assert!(!calls(data.path(), &graph, reach, far));
    let (linked, graph) = step(&state, repo.path(), data.path(), "a `__getattr__`", |r| {
        replace(
            r,
            "probe/held.py",
            "        return 2\n",
            "        return 2\n\n    def __getattr__(self, name):\n        return None\n",
        );
    });
    assert_eq!(linked, all);
    assert!(calls(data.path(), &graph, reach, far));
    // A class gaining the member an interface also declares fits its shape: the guess
    // appears in a file that never names that member. The interface gaining another member
    // takes it away.
    let (use_shape, parse) = (
        "probe/ts_shape_use.useShape",
        "probe/ts_kind.Kind.shapeProbeParse",
    );
    assert!(!calls(data.path(), &graph, use_shape, parse));
    let (linked, graph) = step(&state, repo.path(), data.path(), "a class fits", |r| {
        replace(
            r,
            "probe/ts_kind.ts",
            "  shapeProbeParse() { return 1; }\n",
            "  shapeProbeParse() { return 1; }\n  shapeProbeCheck() { return 2; }\n",
        );
    });
    assert_eq!(linked, all);
    assert!(calls(data.path(), &graph, use_shape, parse));
    let (linked, graph) = step(&state, repo.path(), data.path(), "a shape grows", |r| {
        replace(
            r,
            "probe/ts_shape.ts",
            "  shapeProbeCheck(): number;\n",
            "  shapeProbeCheck(): number;\n  shapeProbeExtra(): number;\n",
        );
    });
    assert_eq!(linked, all);
    assert!(!calls(data.path(), &graph, use_shape, parse));
    // A class gaining a constructor types the callbacks its constructions pass.
    let use_box = "probe/ts_box_use.useBox";
    assert!(!calls(data.path(), &graph, use_box, ts_left));
    let (linked, graph) = step(&state, repo.path(), data.path(), "a constructor", |r| {
        replace(
            r,
            "probe/ts_box.ts",
            "  hold() {",
            "  constructor(make: (v: Left) => void) {}\n  hold() {",
        );
    });
    assert_eq!(linked, all);
    assert!(calls(data.path(), &graph, use_box, ts_left));
    // The local an attribute is assigned from now holds another class.
    let (use_k, foo, bar) = (
        "probe.attr_use.use_k",
        "probe.attr.Foo.ping",
        "probe.attr.Bar.ping",
    );
    assert!(calls(data.path(), &graph, use_k, foo));
    let (linked, graph) = step(
        &state,
        repo.path(),
        data.path(),
        "an attribute's local",
        |r| {
            replace(r, "probe/attr.py", "y = Foo()", "y = Bar()");
        },
    );
    assert!(linked < all, "{linked}");
    assert!(calls(data.path(), &graph, use_k, bar));
    // A new attribute no other file names: its file alone. One another file reads: that file
    // too.
    let (linked, _) = step(&state, repo.path(), data.path(), "a new attribute", |r| {
        append(
            r,
            "probe/attr.py",
            "        self.attr_probe_fresh = Bar()\n",
        );
    });
    assert_eq!(linked, 2);
    let use_w = "probe.attr_use.use_w";
    assert!(!calls(data.path(), &graph, use_w, bar));
    let (linked, graph) = step(
        &state,
        repo.path(),
        data.path(),
        "an attribute read elsewhere",
        |r| {
            append(r, "probe/attr.py", "        self.w_probe = Bar()\n");
        },
    );
    assert_eq!(linked, 3);
    assert!(calls(data.path(), &graph, use_w, bar));
    // An index signature: indexing writes no name, so every file.
    let use_bag = "probe/ts_index_use.useBag";
    assert!(!calls(data.path(), &graph, use_bag, ts_left));
    let (linked, graph) = step(
        &state,
        repo.path(),
        data.path(),
        "an index signature",
        |r| {
            replace(
                r,
                "probe/ts_index.ts",
                "  hold(): number;",
                "  [key: string]: Left;\n  hold(): number;",
            );
        },
    );
    assert_eq!(linked, all);
    assert!(calls(data.path(), &graph, use_bag, ts_left));
    // A method other files call: its file and theirs.
    let member = |name: &str, ret: &str| {
        let (name, ret) = (name.to_string(), ret.to_string());
        move |r: &Path| {
            replace(
                r,
                "probe/called.py",
                "class Target:\n",
                &format!("class Target:\n    def {name}(self):\n        return {ret}()\n\n"),
            )
        }
    };
    let (poke, held_left, held_right) = (
        "probe.hold.Holder.poke",
        "probe.ctor_auth.Left.ping",
        "probe.ctor_auth.Right.ping",
    );
    assert!(!calls(data.path(), &graph, poke, held_left));
    let (linked, graph) = step(
        &state,
        repo.path(),
        data.path(),
        "a method its own file constructs with",
        member("probe_own", "Left"),
    );
    assert_eq!(linked, all);
    assert!(calls_with(data.path(), &graph, poke, held_left, 0.8));
    let (linked, graph) = step(
        &state,
        repo.path(),
        data.path(),
        "a method another file constructs with",
        member("probe_ctor", "Right"),
    );
    assert_eq!(linked, all);
    assert!(calls_with(data.path(), &graph, poke, held_right, 0.8));
    // A method above an `__init__` whose parameters constructions type: its facts name that
    // `__init__`, which the new symbol does not rename.
    let (linked, _) = step(
        &state,
        repo.path(),
        data.path(),
        "a method above a typed `__init__`",
        |r| {
            replace(
                r,
                "probe/hold.py",
                "class Holder:\n",
                "class Holder:\n    def probe_early(self):\n        return None\n\n",
            )
        },
    );
    assert_eq!(linked, 2);
    let (linked, graph) = step(
        &state,
        repo.path(),
        data.path(),
        "a method another file calls",
        member("probe_called", "Left"),
    );
    assert_eq!(linked, 3);
    assert!(calls(
        data.path(),
        &graph,
        "probe.called_use.use_called",
        "probe.called.Target.probe_called"
    ));
    // Through what a function of that file returns: the files calling the function too.
    let far = "probe.called_far.far";
    assert!(!calls(data.path(), &graph, far, held_left));
    let (linked, graph) = step(
        &state,
        repo.path(),
        data.path(),
        "a method a returned call reaches",
        member("probe_relay", "Left"),
    );
    assert_eq!(linked, 4);
    assert!(calls_with(data.path(), &graph, far, held_left, 0.8));
    // A function renamed while another file still calls it by its old name: that file too.
    let (linked, _) = step(
        &state,
        repo.path(),
        data.path(),
        "a renamed function",
        |r| {
            replace(
                r,
                "nexus-lite/src/core/util.rs",
                "pub fn incremental_probe(",
                "pub fn incremental_probe_renamed(",
            );
        },
    );
    assert_eq!(linked, 3);
    // The package stops binding the name: `rule` in probe/e.py (unchanged) is the submodule
    // now, so every file is linked and its import resolved again.
    let (linked, graph) = step(&state, repo.path(), data.path(), "a package binding", |r| {
        replace(
            r,
            "probe/pkg/__init__.py",
            "from .rule import rule\n",
            "X = 1\n",
        );
    });
    assert_eq!(linked, all);
    assert!(!calls_with(data.path(), &graph, apply, rule, 0.9));
    // Rust: a receiver typed by a parameter, then by a struct's field, reaching a method of
    // an `impl` written in another file than its type.
    let (far, inner_go, other_go) = (
        "nexus-lite/src/code/store.probe_far",
        "nexus-lite/src/code/cache.ProbeInner.probe_go",
        "nexus-lite/src/code/retention.ProbeOther.probe_go",
    );
    let (_, graph) = step(&state, repo.path(), data.path(), "Rust types", |r| {
        append(
            r,
            "nexus-lite/src/code/retention.rs",
            "\npub struct ProbeHolder {\n    pub inner: ProbeInner,\n}\n\npub struct ProbeInner;\n\npub struct ProbeOther;\n\nimpl ProbeOther {\n    pub fn probe_go(&self) -> usize {\n        2\n    }\n}\n",
        );
        append(
            r,
            "nexus-lite/src/code/cache.rs",
            "\nuse crate::code::retention::ProbeInner;\n\nimpl ProbeInner {\n    pub fn probe_go(&self) -> usize {\n        1\n    }\n}\n",
        );
        append(
            r,
            "nexus-lite/src/code/store.rs",
            "\nuse crate::code::retention::{ProbeHolder, ProbeInner};\n\npub fn probe_far(h: &ProbeHolder) -> usize {\n    h.inner.probe_go()\n}\n",
        );
    });
    assert!(calls_with(data.path(), &graph, far, inner_go, 0.8));
    assert!(!calls(data.path(), &graph, far, other_go));
    // The field's type changes in its file alone: the caller in another file follows.
    let (_, graph) = step(
        &state,
        repo.path(),
        data.path(),
        "a Rust field's type",
        |r| {
            replace(
                r,
                "nexus-lite/src/code/retention.rs",
                "    pub inner: ProbeInner,\n",
                "    pub inner: ProbeOther,\n",
            );
        },
    );
    assert!(calls_with(data.path(), &graph, far, other_go, 0.8));
    assert!(!calls(data.path(), &graph, far, inner_go));
    // A method added to the impl apart, called through a parameter in a third file.
    let (_, graph) = step(
        &state,
        repo.path(),
        data.path(),
        "a Rust impl apart grows",
        |r| {
            replace(
                r,
                "nexus-lite/src/code/cache.rs",
                "impl ProbeInner {\n",
                "impl ProbeInner {\n    pub fn probe_more(&self) -> usize {\n        3\n    }\n\n",
            );
            append(
                r,
                "nexus-lite/src/code/retention.rs",
                "\npub fn probe_more_use(i: &ProbeInner) -> usize {\n    i.probe_more()\n}\n",
            );
        },
    );
    assert!(calls_with(
        data.path(),
        &graph,
        "nexus-lite/src/code/retention.probe_more_use",
        "nexus-lite/src/code/cache.ProbeInner.probe_more",
        0.8
    ));
    // Elements of a field's collection, in a `for` loop and in a closure inside a macro's
    // arguments; then the element type changes in the struct's file alone.
    let each = "nexus-lite/src/code/store.probe_each";
    let (_, graph) = step(&state, repo.path(), data.path(), "Rust elements", |r| {
        replace(
            r,
            "nexus-lite/src/code/retention.rs",
            "    pub inner: ProbeOther,\n",
            "    pub inner: ProbeOther,\n    pub all: Vec<ProbeInner>,\n",
        );
        append(
            r,
            "nexus-lite/src/code/store.rs",
            "\npub fn probe_each(h: &ProbeHolder) -> usize {\n    let mut n = 0;\n    for p in &h.all {\n        n += p.probe_go();\n    }\n    assert!(h.all.iter().all(|q| q.probe_go() > 0));\n    n\n}\n",
        );
    });
    assert!(calls_with(data.path(), &graph, each, inner_go, 0.8));
    assert!(!calls(data.path(), &graph, each, other_go));
    let (_, graph) = step(
        &state,
        repo.path(),
        data.path(),
        "a Rust element type",
        |r| {
            replace(
                r,
                "nexus-lite/src/code/retention.rs",
                "    pub all: Vec<ProbeInner>,\n",
                "    pub all: Vec<ProbeOther>,\n",
            );
        },
    );
    assert!(calls_with(data.path(), &graph, each, other_go, 0.8));
    assert!(!calls(data.path(), &graph, each, inner_go));
    // A call of a trait impl's method calls the trait's method too; then the impl's file alone
    // implements another trait with a method of that name: the caller follows.
    let (level_of, gauge, meter) = (
        "nexus-lite/src/code/store.probe_level_of",
        "nexus-lite/src/code/retention.ProbeGauge.probe_level",
        "nexus-lite/src/code/retention.ProbeMeter.probe_level",
    );
    let (_, graph) = step(&state, repo.path(), data.path(), "a Rust trait impl", |r| {
        append(
            r,
            "nexus-lite/src/code/retention.rs",
            "\npub trait ProbeGauge {\n    fn probe_level(&self) -> usize;\n}\n\npub trait ProbeMeter {\n    fn probe_level(&self) -> usize;\n}\n",
        );
        append(
            r,
            "nexus-lite/src/code/cache.rs",
            "\nuse crate::code::retention::{ProbeGauge, ProbeMeter};\n\nimpl ProbeGauge for ProbeInner {\n    fn probe_level(&self) -> usize {\n        4\n    }\n}\n",
        );
        append(
            r,
            "nexus-lite/src/code/store.rs",
            "\npub fn probe_level_of(i: &ProbeInner) -> usize {\n    i.probe_level()\n}\n",
        );
    });
    assert!(calls_with(data.path(), &graph, level_of, gauge, 0.8));
    assert!(!calls(data.path(), &graph, level_of, meter));
    let (_, graph) = step(
        &state,
        repo.path(),
        data.path(),
        "the Rust trait implemented",
        |r| {
            replace(
                r,
                "nexus-lite/src/code/cache.rs",
                "impl ProbeGauge for ProbeInner {\n",
                "impl ProbeMeter for ProbeInner {\n",
            );
        },
    );
    assert!(calls_with(data.path(), &graph, level_of, meter, 0.8));
    assert!(!calls(data.path(), &graph, level_of, gauge));
    // A new file: every file (module names may change).
    let (linked, _) = step(&state, repo.path(), data.path(), "a new file", |r| {
        std::fs::write(
            r.join("nexus-lite/src/core/probe_new.rs"),
            "pub fn fresh() {}\n",
        )
        .unwrap();
    });
    assert_eq!(linked, all + 1);
    let conn = nexus_lite::core::db::open(data.path()).unwrap();
    let count = |sql: &str| conn.query_row(sql, [], |r| r.get::<_, i64>(0)).unwrap();
    assert_eq!(count("SELECT COUNT(*) FROM graphs"), 2);
    assert_eq!(
        count("SELECT COUNT(*) FROM parts WHERE part NOT IN (SELECT part FROM graph_parts)"),
        0
    );
}
