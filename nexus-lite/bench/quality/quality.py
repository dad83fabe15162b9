#!/usr/bin/env python3
"""Quality benchmark (issue 13): nexus-lite `impact` at depth 1 vs jedi's references (and GitNexus).

Usage (from the workspace root; Python 3.11, stdlib + jedi 0.20.1 and pytest 9.2.0, which it installs in its own
venv under the cache dir and re-executes itself in):
  python3 nexus-lite/bench/quality/quality.py [--nexus-bin target/release/nexus-lite] \
      [--only nexus|all] [--projects httpx,httpie,jinja2] [--cache /tmp/nexus-quality-cache] \
      [--seed 13] [--sample 150] [--pyright all|unknown|none] [--json OUT.json] \
      [--details OUT.json]
  --only nexus: measure a new nexus-lite build against the cached jedi references (about 10 s
  for the three projects once the cache is filled); GitNexus numbers are then read from the
  cache when present, never recomputed.

Per project: pip downloads the pinned sdist, unpacks it into <cache>/trees and commits it as a
git repository; draws the sample with Python's ast (so it does not depend on our build); asks
jedi for each symbol's references (cached); indexes the tree with `nexus-lite index`, serves
it on a free loopback port with a random token and asks `impact` at depth 1 (all pages); runs
GitNexus's `impact` CLI (cached). Where nexus-lite and jedi disagree on a file, jedi's goto and
pyright's go-to-definition (npm, cached) settle it. It prints one JSON report and a markdown table
per project.
How it counts, and the baseline: nexus-lite/README.md, "Quality benchmark".
"""

from __future__ import annotations

import argparse
import ast
import json
import os
import random
import re
import secrets
import shutil
import socket
import subprocess
import sys
import tarfile
import tempfile
import time
import urllib.error
import urllib.parse
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path

HERE = Path(__file__).resolve().parent
WORKSPACE = HERE.parents[2]
JEDI_VERSION = "0.20.1"
# jedi's pytest plugin types a test's fixture parameter (`def test_x(app)` -> what the `app`
# fixture returns) only when pytest is importable where jedi runs: `@pytest.fixture` must
# resolve. Without it every call on a fixture parameter was invisible to the reference.
PYTEST_VERSION = "9.2.0"
JUDGE = f"jedi{JEDI_VERSION}-pytest{PYTEST_VERSION}"


@dataclass(frozen=True)
class Project:
    name: str  # short name, also the repository name bench/<name>
    pin: str  # pip requirement
    shape: str
    package_dirs: tuple[str, ...]  # the package's own modules (sample source)
    extra_sys_path: tuple[str, ...] = ()  # for jedi (src layouts)
    fixture_files: tuple[str, ...] = ()  # conftest.py files whose fixtures join the sample


PROJECTS = {
    "httpx": Project(
        "httpx", "httpx==0.27.2", "library, re-exporting package __init__", ("httpx",)
    ),
    "httpie": Project("httpie", "httpie==3.2.4", "application (CLI, internal layers)", ("httpie",)),
    "jinja2": Project(
        "jinja2",
        "jinja2==3.1.4",
        "test-heavy (tests/ with conftest.py fixtures, src layout)",
        ("src/jinja2",),
        ("src",),
        ("tests/conftest.py",),
    ),
    # issue 30's held-out projects (not used while the resolution was built)
    "paramiko": Project(
        "paramiko", "paramiko==3.5.0", "protocol library (SSH, tests/)", ("paramiko",)
    ),
    "rich": Project("rich", "rich==13.9.4", "library (terminal rendering, no tests)", ("rich",)),
    "markdown-it-py": Project(
        "markdown-it-py", "markdown-it-py==3.0.0", "parser library (rule chains)", ("markdown_it",)
    ),
    # issue 30's second held-out set: measured once the goto check and this round's resolution
    # were written, never read while writing them
    "requests": Project(
        "requests",
        "requests==2.32.3",
        "HTTP library (src layout, tests/)",
        ("src/requests",),
        ("src",),
        ("tests/conftest.py",),
    ),
    "flask": Project(
        "flask",
        "flask==3.1.0",
        "web framework (src layout, tests/ with fixtures)",
        ("src/flask",),
        ("src",),
        ("tests/conftest.py",),
    ),
    "marshmallow": Project(
        "marshmallow",
        "marshmallow==3.23.1",
        "serialization library (src layout, tests/)",
        ("src/marshmallow",),
        ("src",),
        ("tests/conftest.py",),
    ),
    # issue 30's third held-out set (2026-12-07): measured before any change made for them
    "werkzeug": Project(
        "werkzeug",
        "werkzeug==3.1.3",
        "WSGI toolkit (src layout, tests/ with fixtures)",
        ("src/werkzeug",),
        ("src",),
        ("tests/conftest.py",),
    ),
    "urllib3": Project(
        "urllib3",
        "urllib3==2.2.3",
        "HTTP client (src layout, test/ with fixtures)",
        ("src/urllib3",),
        ("src",),
        ("test/conftest.py",),
    ),
    "starlette": Project(
        "starlette",
        "starlette==0.41.3",
        "ASGI framework (async, tests/ with fixtures)",
        ("starlette",),
        (),
        ("tests/conftest.py",),
    ),
}

KINDS = ("function", "method", "class")
MISS_CATEGORIES = (
    "call (name or module attribute)",
    "self/cls call",
    "receiver call (variable/param/attribute)",
    "self.x.m()",
    "attribute read (obj.prop)",
    "attribute of it (X.y)",
    "value use (dict/list/arg/default/assignment)",
    "isinstance/except/raise",
    "annotation",
    "decorator",
    "class attribute",
    "import only",
    "pytest fixture",
    "inheritance",
    "other",
)


def log(msg: str) -> None:
    print(f"[quality] {msg}", file=sys.stderr, flush=True)


# --- environment ------------------------------------------------------------------------------


def ensure_jedi(cache: Path) -> None:
    """Re-executes this script in <cache>/venv-JUDGE (pinned jedi and pytest, nothing else: the
    reference must not depend on what the machine's Python happens to have installed)."""
    venv = cache / f"venv-{JUDGE}"
    py = venv / "bin" / "python"
    if Path(sys.prefix).resolve() == venv.resolve():
        return
    if not py.exists():
        log(f"creating {venv} with jedi=={JEDI_VERSION} and pytest=={PYTEST_VERSION}")
        subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
        pins = [f"jedi=={JEDI_VERSION}", f"pytest=={PYTEST_VERSION}"]
        subprocess.run([str(py), "-m", "pip", "install", "-q", *pins], check=True)
    os.execv(str(py), [str(py), str(Path(__file__).resolve()), *sys.argv[1:]])


def sh(args: list[str], cwd: Path | None = None, env: dict | None = None) -> str:
    out = subprocess.run(args, cwd=cwd, env=env, check=True, capture_output=True, text=True)
    return out.stdout


def fetch_tree(p: Project, cache: Path) -> Path:
    """The unpacked sdist as a git repository with one commit (cached)."""
    trees = cache / "trees"
    root = trees / p.pin.replace("==", "-")
    if (root / ".git").is_dir():
        return root
    sdists = cache / "sdists"
    sdists.mkdir(parents=True, exist_ok=True)
    stem = p.pin.split("==")[0].lower().replace("-", "_")
    ver = p.pin.split("==")[1]
    found = [
        f
        for f in sdists.iterdir()
        if f.name.lower().replace("-", "_").startswith(f"{stem}_{ver}")
        and f.name.endswith(".tar.gz")
    ]
    if not found:
        log(f"pip download {p.pin}")
        sh(
            [
                sys.executable,
                "-m",
                "pip",
                "download",
                "-q",
                "--no-deps",
                "--no-binary",
                ":all:",
                p.pin,
                "-d",
                str(sdists),
            ]
        )
        found = [
            f
            for f in sdists.iterdir()
            if f.name.lower().replace("-", "_").startswith(f"{stem}_{ver}")
        ]
    archive = found[0]
    scratch = trees / (root.name + ".unpack")
    shutil.rmtree(scratch, ignore_errors=True)
    scratch.mkdir(parents=True)
    with tarfile.open(archive) as t:
        t.extractall(scratch, filter="data")
    top = next(d for d in scratch.iterdir() if d.is_dir())
    shutil.rmtree(root, ignore_errors=True)
    top.rename(root)
    shutil.rmtree(scratch)
    env = {
        **os.environ,
        "GIT_AUTHOR_NAME": "bench",
        "GIT_AUTHOR_EMAIL": "bench@localhost",
        "GIT_COMMITTER_NAME": "bench",
        "GIT_COMMITTER_EMAIL": "bench@localhost",
    }
    sh(["git", "init", "-q", "-b", "main"], root, env)
    sh(["git", "add", "-A"], root, env)
    sh(["git", "commit", "-q", "-m", "sdist"], root, env)
    return root


# --- the Python side, from ast ----------------------------------------------------------------


@dataclass
class Def:
    path: str
    local: str  # dotted name inside its module: f, C, C.m, f.inner
    kind: str  # function | method | class
    line: int
    end_line: int
    col: int  # the name's column (0-based), for jedi
    fixture: bool = False
    in_function: bool = False
    deco_line: int = 0  # first decorator's line (the def's line when undecorated)

    @property
    def key(self) -> str:
        return f"{self.path}::{self.local}"


@dataclass
class FileInfo:
    path: str
    tree: ast.Module
    defs: list[Def]
    by_local: dict[str, Def]
    nodes_at: dict[tuple[int, int], tuple[ast.AST, list[ast.AST]]]
    imported_names: set[str]


def is_fixture(fn: ast.AST) -> bool:
    for d in getattr(fn, "decorator_list", []):
        target = d.func if isinstance(d, ast.Call) else d
        name = target.attr if isinstance(target, ast.Attribute) else getattr(target, "id", "")
        if name == "fixture":
            return True
    return False


def name_col(lines: list[str], node: ast.AST) -> int:
    text = lines[node.lineno - 1]
    kw = "class" if isinstance(node, ast.ClassDef) else "def"
    m = re.search(rf"\b{kw}\s+({re.escape(node.name)})\b", text)
    return m.start(1) if m else node.col_offset


def parse_file(root: Path, path: str) -> FileInfo | None:
    try:
        src = (root / path).read_text(encoding="utf-8")
        tree = ast.parse(src)
    except (SyntaxError, UnicodeDecodeError, ValueError):
        return None
    lines = src.splitlines()
    defs: list[Def] = []
    nodes_at: dict[tuple[int, int], tuple[ast.AST, list[ast.AST]]] = {}
    imported: set[str] = set()

    def visit(node: ast.AST, parents: list[ast.AST], prefix: str, scope: str) -> None:
        for child in ast.iter_child_nodes(node):
            chain = parents + [node]
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                local = f"{prefix}{child.name}"
                kind = (
                    "class"
                    if isinstance(child, ast.ClassDef)
                    else "method"
                    if scope == "class"
                    else "function"
                )
                defs.append(
                    Def(
                        path,
                        local,
                        kind,
                        child.lineno,
                        child.end_lineno or child.lineno,
                        name_col(lines, child),
                        is_fixture(child),
                        scope == "function",
                        min([x.lineno for x in child.decorator_list] + [child.lineno]),
                    )
                )
                nodes_at.setdefault((child.lineno, name_col(lines, child)), (child, chain))
                visit(
                    child,
                    chain,
                    local + ".",
                    "class" if isinstance(child, ast.ClassDef) else "function",
                )
                continue
            if isinstance(child, ast.Name):
                nodes_at.setdefault((child.lineno, child.col_offset), (child, chain))
            elif isinstance(child, ast.Attribute) and child.end_col_offset is not None:
                col = child.end_col_offset - len(child.attr)
                nodes_at.setdefault((child.end_lineno, col), (child, chain))
            elif isinstance(child, ast.arg):
                nodes_at.setdefault((child.lineno, child.col_offset), (child, chain))
            elif isinstance(child, ast.alias):
                # jedi points at the bound name: `as` alias or the last dotted part
                text = lines[child.lineno - 1]
                for part in {child.name.split(".")[-1], child.asname or ""} - {""}:
                    for m in re.finditer(rf"\b{re.escape(part)}\b", text):
                        nodes_at.setdefault((child.lineno, m.start()), (child, chain))
                imported.add((child.asname or child.name).split(".")[0])
            visit(child, parents + [node], prefix, scope)

    visit(tree, [], "", "module")
    return FileInfo(path, tree, defs, {d.local: d for d in defs}, nodes_at, imported)


def enclosing(info: FileInfo, line: int) -> str | None:
    """Innermost def/class whose lines hold `line` (None: the module)."""
    best: Def | None = None
    for d in info.defs:
        if d.line <= line <= d.end_line and (best is None or d.line >= best.line):
            best = d
    return best.local if best else None


def classify(info: FileInfo | None, line: int, col: int, target: Def) -> str:
    if info is None or (line, col) not in info.nodes_at:
        return "pytest fixture" if target.fixture else "other"
    node, parents = info.nodes_at[(line, col)]
    if isinstance(node, ast.alias):
        return "import only"
    if isinstance(node, ast.arg):
        return "pytest fixture" if target.fixture else "other"
    chain = parents[::-1]
    first = chain[0] if chain else None
    if isinstance(first, ast.Call) and first.func is node:
        if isinstance(node, ast.Name):
            return "call (name or module attribute)"
        recv = node.value
        if isinstance(recv, ast.Name) and recv.id in ("self", "cls"):
            return "self/cls call"
        if (
            isinstance(recv, ast.Attribute)
            and isinstance(recv.value, ast.Name)
            and recv.value.id in ("self", "cls")
        ):
            return "self.x.m()"
        if isinstance(recv, ast.Name) and recv.id in info.imported_names:
            return "call (name or module attribute)"
        return "receiver call (variable/param/attribute)"
    if isinstance(first, ast.Attribute) and first.value is node:
        return "attribute of it (X.y)"
    value_use = (
        "attribute read (obj.prop)"
        if isinstance(node, ast.Attribute)
        else "value use (dict/list/arg/default/assignment)"
    )
    child: ast.AST = node
    for p in chain:
        if isinstance(p, (ast.Import, ast.ImportFrom)):
            return "import only"
        if (
            isinstance(p, ast.Call)
            and isinstance(p.func, ast.Name)
            and p.func.id in ("isinstance", "issubclass")
            and child in p.args
        ):
            return "isinstance/except/raise"
        if isinstance(p, ast.ExceptHandler) and child is p.type:
            return "isinstance/except/raise"
        if isinstance(p, ast.Raise):
            return "isinstance/except/raise"
        if isinstance(p, (ast.FunctionDef, ast.AsyncFunctionDef)):
            if child in p.decorator_list:
                return "decorator"
            if child is p.returns:
                return "annotation"
            return value_use
        if isinstance(p, ast.arg) and child is p.annotation:
            return "annotation"
        if isinstance(p, ast.AnnAssign) and child is p.annotation:
            return "annotation"
        if isinstance(p, ast.ClassDef):
            if child in p.bases or any(child is k for k in p.keywords):
                return "inheritance"
            if child in p.decorator_list:
                return "decorator"
            return "class attribute"
        if isinstance(p, ast.stmt):
            parent_idx = chain.index(p) + 1
            if parent_idx < len(chain) and isinstance(chain[parent_idx], ast.ClassDef):
                return "class attribute"
            return value_use
        child = p
    return "other"


def python_files(root: Path) -> list[str]:
    out = sh(["git", "ls-files", "*.py"], root)
    return sorted(p for p in out.splitlines() if p)


def draw_sample(p: Project, files: dict[str, FileInfo], n: int, seed: int) -> list[Def]:
    """Stratified by kind: n/3 functions, methods and classes (short kinds are topped up from
    the others; conftest fixtures count as functions and are all in), drawn with `seed`. Dunder methods (implicit protocol calls) and symbols nested
    in functions are left out."""
    pool: dict[str, list[Def]] = {k: [] for k in KINDS}
    for path, info in sorted(files.items()):
        own = any(path.startswith(d.rstrip("/") + "/") for d in p.package_dirs)
        if not own:
            continue
        for d in info.defs:
            if d.in_function or (
                d.local.split(".")[-1].startswith("__") and d.local.split(".")[-1].endswith("__")
            ):
                continue
            pool[d.kind].append(d)
    rng = random.Random(seed)
    for k in KINDS:
        pool[k].sort(key=lambda d: d.key)
        rng.shuffle(pool[k])
    fixtures = [
        d
        for path in p.fixture_files
        if path in files
        for d in files[path].defs
        if d.fixture and not d.in_function
    ]
    want = {k: n // len(KINDS) for k in KINDS}
    want["function"] += n - sum(want.values()) - len(fixtures)
    short = sum(max(0, want[k] - len(pool[k])) for k in KINDS)
    for k in KINDS:  # top up from the larger pools
        spare = len(pool[k]) - want[k]
        if short and spare > 0:
            take = min(short, spare)
            want[k] += take
            short -= take
    # the test-heavy project's conftest fixtures are always in (they are few): functions
    sample = fixtures + [d for k in KINDS for d in pool[k][: want[k]] if not d.fixture]
    return sorted(sample, key=lambda d: d.key)


# --- jedi (the reference) ---------------------------------------------------------------------


def parso_retried(call):
    """jedi's answer, asked again once after a KeyError with parso's in-memory cache cleared.
    Once it holds 600 files, parso drops those unused for 10 minutes, and a long run's jedi
    then fails with KeyError on a dropped path (flask and marshmallow after seven projects
    had 192 symbols answered with an error, read as no references)."""
    import parso.cache

    try:
        return call()
    except KeyError:
        parso.cache.parser_cache.clear()
        return call()


def jedi_refs(p: Project, root: Path, sample: list[Def], cache: Path) -> dict[str, list]:
    """symbol key -> [[path, line, col], ...] references other than the definition (cached)."""
    import jedi
    import jedi.inference.recursion as jedi_recursion
    import jedi.inference.references as jedi_refs_mod

    # jedi's editor latency guards cut references silently, so they are lifted here:
    # - a project-wide search stops after parsing 30 files that contain the name
    #   (_PARSED_FILE_LIMIT): jinja2's `Environment` lost most of its test files;
    # - one Script may execute 200 functions in all and each function 6 times
    #   (total_/per_function_execution_limit): checking every `x.json()` in the project runs
    #   out of it, and httpx's `Response.json` got 13 references in 5 files instead of 75 in 11.
    # The recursion limits (recursion_limit, per_function_recursion_limit) stay.
    assert jedi.__version__ == JEDI_VERSION, jedi.__version__
    for mod, names in (
        (jedi_refs_mod, ("_PARSED_FILE_LIMIT", "_OPENED_FILE_LIMIT")),
        (jedi_recursion, ("total_function_execution_limit", "per_function_execution_limit")),
    ):
        for name in names:
            assert hasattr(mod, name), f"jedi changed: check {mod.__name__}.{name}"
            setattr(mod, name, 10**9)
    cfile = cache / "jedi" / f"{p.pin}-{JUDGE}-unlimited.json"
    cfile.parent.mkdir(parents=True, exist_ok=True)
    done: dict[str, list] = json.loads(cfile.read_text()) if cfile.exists() else {}
    todo = [d for d in sample if d.key not in done]
    if todo:
        project = jedi.Project(root, added_sys_path=[str(root / s) for s in p.extra_sys_path])
        t0 = time.monotonic()
        for i, d in enumerate(todo):
            refs = []
            try:
                names = parso_retried(
                    lambda d=d: jedi.Script(
                        path=str(root / d.path), project=project
                    ).get_references(d.line, d.col, include_builtins=False)
                )
            except Exception as e:  # noqa: BLE001 - jedi bugs on odd code: log, do not stop
                log(f"jedi failed on {d.key}: {e!r}")
                names = []
            for nm in names:
                rel = in_tree(nm.module_path, root)
                if rel is None:
                    continue  # outside the tree (stubs, stdlib)
                if rel == d.path and nm.line == d.line and nm.column == d.col:
                    continue  # the definition itself
                refs.append([rel, nm.line, nm.column])
            done[d.key] = sorted(refs)
            if (i + 1) % 25 == 0:
                log(f"jedi {p.name}: {i + 1}/{len(todo)} ({time.monotonic() - t0:.0f} s)")
                cfile.write_text(json.dumps(done, sort_keys=True))
        cfile.write_text(json.dumps(done, sort_keys=True))
        log(f"jedi {p.name}: {len(todo)} symbols in {time.monotonic() - t0:.0f} s")
    return done


def fixture_refs(d: Def, files: dict[str, FileInfo]) -> list[list]:
    """jedi's get_references (0.19.2 to 0.20.1) does not return a pytest fixture's uses (goto on a test's
    parameter stays on the parameter), so for a fixture the reference is pytest's own rule: a
    parameter of that name of a `test*` function or of a fixture, in the fixture's module or
    (for conftest.py) below its directory, unless a nearer fixture of that name shadows it;
    plus `usefixtures("name")` strings."""
    name = d.local.split(".")[-1]
    base = str(Path(d.path).parent)
    base = "" if base == "." else base + "/"
    conftest = Path(d.path).name == "conftest.py"
    refs = []
    for path, info in files.items():
        if path != d.path and not (conftest and path.startswith(base)):
            continue
        # nearer definitions of the same fixture name shadow this one
        shadowed = path != d.path and any(
            o.fixture and o.local.split(".")[-1] == name for o in info.defs
        )
        if not shadowed:
            for cpath, cinfo in files.items():
                cdir = str(Path(cpath).parent) + "/"
                if (
                    cpath != d.path
                    and Path(cpath).name == "conftest.py"
                    and cdir.startswith(base)
                    and path.startswith(cdir)
                    and any(o.fixture and o.local.split(".")[-1] == name for o in cinfo.defs)
                ):
                    shadowed = True
        if shadowed:
            continue
        for node in ast.walk(info.tree):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and (
                node.name.startswith("test") or is_fixture(node)
            ):
                for a in node.args.posonlyargs + node.args.args + node.args.kwonlyargs:
                    if a.arg == name:
                        refs.append([path, a.lineno, a.col_offset])
            elif (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Attribute)
                and node.func.attr == "usefixtures"
            ):
                for a in node.args:
                    if isinstance(a, ast.Constant) and a.value == name:
                        refs.append([path, a.lineno, a.col_offset])
    return refs


@dataclass
class Truth:
    files: set[str] = field(default_factory=set)
    symbols: set[tuple[str, str | None]] = field(default_factory=set)
    # dependent (path, local|None) -> [(line, col, category)]
    sites: dict[tuple[str, str | None], list[tuple[int, int, str]]] = field(default_factory=dict)
    sibling_definitions: int = 0  # jedi references that were another definition's name


def truth_for(d: Def, refs: list, files: dict[str, FileInfo]) -> Truth:
    t = Truth()
    for path, line, col in sorted({(r[0], r[1], r[2]) for r in refs}):
        if not path.endswith(".py"):
            continue
        info = files.get(path)
        if (
            path == d.path
            and info
            and any(o.local == d.local and o.deco_line <= line <= o.end_line for o in info.defs)
        ):
            # inside the definition itself (recursion, its decorators) or inside the same name
            # defined again (if/else, try/except, a property's setter): dropped for both tools
            continue
        if info and any(o.line == line and o.col == col for o in info.defs):
            # another definition's own name: jedi lists a same-named method of an unrelated
            # class when one call site may reach both (`field.get_length()` on
            # `DataField | FileField`); a definition is not a use
            t.sibling_definitions += 1
            continue
        dep = (path, enclosing(info, line) if info else None)
        t.files.add(path)
        t.symbols.add(dep)
        t.sites.setdefault(dep, []).append((line, col, classify(info, line, col, d)))
    return t


def jedi_goto(p: Project, root: Path, sites: set[tuple[str, int, int]], cache: Path) -> dict:
    """(path, line, col) -> the definitions jedi's goto (imports followed) reaches from there,
    as [[path, line, col], ...] inside the tree (cached beside the references)."""
    import jedi

    cfile = cache / "jedi" / f"{p.pin}-{JUDGE}-goto.json"
    done: dict[str, list] = json.loads(cfile.read_text()) if cfile.exists() else {}
    todo = sorted(s for s in sites if site_key(*s) not in done)
    if todo:
        project = jedi.Project(root, added_sys_path=[str(root / s) for s in p.extra_sys_path])
        t0 = time.monotonic()
        scripts: dict[str, jedi.Script] = {}
        for path, line, col in todo:
            script = scripts.setdefault(path, jedi.Script(path=str(root / path), project=project))
            try:
                names = parso_retried(
                    lambda s=script, line=line, col=col: s.goto(line, col, follow_imports=True)
                )
            except Exception as e:  # noqa: BLE001 - as in jedi_refs
                log(f"jedi goto failed at {path}:{line}:{col}: {e!r}")
                names = []
            defs = []
            for nm in names:
                rel = in_tree(nm.module_path, root)
                if rel is not None and nm.line is not None:
                    defs.append([rel, nm.line, nm.column])
            done[site_key(path, line, col)] = sorted(defs)
        cfile.write_text(json.dumps(done, sort_keys=True))
        log(f"jedi goto {p.name}: {len(todo)} sites in {time.monotonic() - t0:.0f} s")
    return done


PYRIGHT_VERSION = "1.1.414"


def pyright_goto(p: Project, root: Path, sites: set[tuple[str, int, int]], cache: Path) -> dict:
    """(path, line, col) -> where pyright's go-to-definition lands from there, as jedi_goto
    gives it (cached), at the sites `--pyright` names. jedi 0.20.1 reads `-> Self` (PEP 673)
    as the declaring class, so `with HTTPConnectionPool(...) as pool: pool.is_same_host()`
    reaches nothing (`ConnectionPool` has no such method); pyright binds `Self` to the
    receiver."""
    cfile = cache / "jedi" / f"{p.pin}-pyright{PYRIGHT_VERSION}-goto.json"
    done: dict[str, list] = json.loads(cfile.read_text()) if cfile.exists() else {}
    todo = sorted(s for s in sites if site_key(*s) not in done)
    if not todo:
        return done
    prefix = cache / f"pyright-{PYRIGHT_VERSION}"
    server = prefix / "node_modules" / "pyright" / "langserver.index.js"
    if not server.exists():
        log(f"npm install pyright@{PYRIGHT_VERSION}")
        sh(
            [
                "npm",
                "install",
                "--no-audit",
                "--no-fund",
                "--prefix",
                str(prefix),
                f"pyright@{PYRIGHT_VERSION}",
            ]
        )
    t0 = time.monotonic()
    lsp = Lsp(["node", str(server), "--stdio"], root, [str(root / x) for x in p.extra_sys_path])
    try:
        opened = set()
        for path, line, col in todo:
            uri = (root / path).resolve().as_uri()
            if path not in opened:
                opened.add(path)
                text = (root / path).read_text(encoding="utf-8", errors="replace")
                lsp.notify(
                    "textDocument/didOpen",
                    {
                        "textDocument": {
                            "uri": uri,
                            "languageId": "python",
                            "version": 1,
                            "text": text,
                        }
                    },
                )
            found = lsp.request(
                "textDocument/definition",
                {"textDocument": {"uri": uri}, "position": {"line": line - 1, "character": col}},
            )
            defs = []
            for loc in found if isinstance(found, list) else [found] if found else []:
                target = loc.get("targetUri") or loc.get("uri")
                start = (loc.get("targetSelectionRange") or loc.get("range"))["start"]
                rel = in_tree(urllib.parse.unquote(urllib.parse.urlparse(target).path), root)
                if rel is not None:
                    defs.append([rel, start["line"] + 1, start["character"]])
            done[site_key(path, line, col)] = sorted(defs)
    finally:
        lsp.close()
    cfile.write_text(json.dumps(done, sort_keys=True))
    log(f"pyright goto {p.name}: {len(todo)} sites in {time.monotonic() - t0:.0f} s")
    return done


def site_key(path: str, line: int, col: int) -> str:
    """A site's goto cache key (`path:line:col`)."""
    return f"{path}:{line}:{col}"


def tuple_key(key: str) -> tuple[str, int, int]:
    """A goto cache key as a site (the inverse of `site_key`)."""
    path, line, col = key.rsplit(":", 2)
    return path, int(line), int(col)


def in_tree(path: str | Path | None, root: Path) -> str | None:
    """`path` relative to the tree, `None` outside it (stubs, the standard library)."""
    if path is None:
        return None
    try:
        return Path(path).resolve().relative_to(root.resolve()).as_posix()
    except ValueError:
        return None


class Lsp:
    """A language server over stdio, enough for go-to-definition: requests in order, the
    server's own requests answered (settings: the tree's extra import roots)."""

    def __init__(self, cmd: list[str], root: Path, extra_paths: list[str]):
        self.proc = subprocess.Popen(
            cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL
        )
        self.next_id = 0
        self.settings = {"python": {"analysis": {"extraPaths": extra_paths}}}
        uri = root.resolve().as_uri()
        self.request(
            "initialize",
            {
                "processId": os.getpid(),
                "rootUri": uri,
                "workspaceFolders": [{"uri": uri, "name": root.name}],
                "capabilities": {"workspace": {"configuration": True}},
            },
        )
        self.notify("initialized", {})

    def send(self, msg: dict) -> None:
        body = json.dumps({"jsonrpc": "2.0", **msg}).encode()
        assert self.proc.stdin is not None
        self.proc.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        self.proc.stdin.flush()

    def read(self) -> dict:
        assert self.proc.stdout is not None
        length = 0
        while line := self.proc.stdout.readline().strip():
            if line.lower().startswith(b"content-length:"):
                length = int(line.split(b":")[1])
        if not length:
            raise RuntimeError("the language server closed its output")
        return json.loads(self.proc.stdout.read(length))

    def notify(self, method: str, params: dict) -> None:
        self.send({"method": method, "params": params})

    def request(self, method: str, params: dict):
        self.next_id += 1
        self.send({"id": self.next_id, "method": method, "params": params})
        while True:
            msg = self.read()
            if "method" in msg and "id" in msg:  # the server asks
                items = msg.get("params", {}).get("items", [])
                result = (
                    [self.section(i.get("section")) for i in items]
                    if msg["method"] == "workspace/configuration"
                    else None
                )
                self.send({"id": msg["id"], "result": result})
            elif msg.get("id") == self.next_id:
                if "error" in msg:
                    raise RuntimeError(f"{method}: {msg['error']}")
                return msg.get("result")

    def section(self, name: str | None):
        value = self.settings
        for part in (name or "").split("."):
            if part:
                value = value.get(part, {}) if isinstance(value, dict) else {}
        return value

    def close(self) -> None:
        try:
            self.request("shutdown", None)
            self.notify("exit", None)
        except (OSError, RuntimeError):
            pass
        self.proc.wait(timeout=30)


def name_sites(info: FileInfo, name: str) -> list[tuple[int, int]]:
    """Where `name` is used in a file: a Name of it, or an attribute `.name` (jedi's columns)."""
    out = []
    for (line, col), (node, _) in info.nodes_at.items():
        if (isinstance(node, ast.Name) and node.id == name) or (
            isinstance(node, ast.Attribute) and node.attr == name
        ):
            out.append((line, col))
    return sorted(out)


def disputed_files(
    sample: list[Def], truths: dict[str, Truth], found: dict[str, "Found"], files: dict
) -> dict[str, dict[str, list[tuple[int, int]]]]:
    """symbol key -> {file the two answers disagree on: the sites to ask jedi's goto about}.
    A file only jedi lists: its reference sites. A file only the tool lists: every use of the
    target's name in it (the tool's edges carry no column)."""
    out: dict[str, dict[str, list[tuple[int, int]]]] = {}
    for d in sample:
        t, f = truths[d.key], found[d.key]
        sites: dict[str, list[tuple[int, int]]] = {}
        for dep, at in t.sites.items():
            if dep[0] not in f.files:
                sites.setdefault(dep[0], []).extend((line, col) for line, col, _ in at)
        for path in f.files.keys() - t.files:
            if path in files:
                sites[path] = name_sites(files[path], d.local.split(".")[-1])
        out[d.key] = sites
    return out


def class_bases(files: dict[str, FileInfo]) -> dict[str, set[str]]:
    """class simple name -> the simple names of its bases (every class of that name)."""
    out: dict[str, set[str]] = {}
    for info in files.values():
        for node in ast.walk(info.tree):
            if isinstance(node, ast.ClassDef):
                out.setdefault(node.name, set()).update(
                    b.attr if isinstance(b, ast.Attribute) else getattr(b, "id", "")
                    for b in node.bases
                )
    return out


def derives(cls: str, base: str, bases: dict[str, set[str]]) -> bool:
    seen, todo = set(), [cls]
    while todo:
        c = todo.pop()
        if c == base:
            return True
        if c not in seen:
            seen.add(c)
            todo.extend(bases.get(c, ()))
    return False


def setter_writes(d: Def, files: dict[str, FileInfo], bases: dict[str, set[str]]) -> set:
    """For a property with a setter (a data descriptor), the `self.<name> = ...` targets in
    its class and subclasses, as (path, line, col): jedi's goto at a read of the property
    lands on such an assignment (it treats the attribute as an instance variable), though
    Python runs the property's getter for the read and its setter for the write. Empty for
    any other target."""
    if d.kind != "method" or "." not in d.local:
        return set()
    cls, name = d.local.rsplit(".", 1)
    info = files[d.path]
    owner = info.by_local.get(cls)
    klass = next(
        (
            n
            for n in ast.walk(info.tree)
            if isinstance(n, ast.ClassDef) and owner and n.lineno == owner.line
        ),
        None,
    )
    has_setter = klass is not None and any(
        isinstance(f, (ast.FunctionDef, ast.AsyncFunctionDef))
        and f.name == name
        and any(
            isinstance(x, ast.Attribute)
            and x.attr == "setter"
            and isinstance(x.value, ast.Name)
            and x.value.id == name
            for x in f.decorator_list
        )
        for f in klass.body
    )
    if not has_setter:
        return set()
    base = cls.rsplit(".", 1)[-1]
    out = set()
    for path, finfo in files.items():
        for node in ast.walk(finfo.tree):
            if not isinstance(node, ast.ClassDef) or not derives(node.name, base, bases):
                continue
            for sub in ast.walk(node):
                targets = (
                    sub.targets
                    if isinstance(sub, ast.Assign)
                    else [sub.target]
                    if isinstance(sub, (ast.AnnAssign, ast.AugAssign))
                    else []
                )
                for t in targets:
                    if (
                        isinstance(t, ast.Attribute)
                        and t.attr == name
                        and isinstance(t.value, ast.Name)
                        and t.value.id == "self"
                        and t.end_col_offset is not None
                    ):
                        out.add((path, t.end_lineno, t.end_col_offset - len(name)))
    return out


def goto_checked(
    d: Def,
    t: Truth,
    sites: dict[str, list[tuple[int, int]]],
    goto: dict,
    files: dict[str, FileInfo],
    bases: dict[str, set[str]],
) -> tuple[Truth, list[str], list[str]]:
    """jedi's references, corrected where the tool disagrees by jedi's own goto at each site:
    a file only get_references lists stays if goto reaches the target from one of its sites
    (get_references lists same-named methods of unrelated classes, `RSAKey.generate(2048)` for
    `DSSKey.generate`); a file only the tool lists joins if goto reaches the target from a use
    of its name there (get_references skips other modules for 1-2 character names, paramiko's
    `b()`); for a property with a setter, landing on a `self.<name> = ...` of its class or a
    subclass counts as reaching it (see [`setter_writes`]). Returns the checked truth and the
    files removed and added."""
    targets = {(d.path, d.line, d.col)} | setter_writes(d, files, bases)
    reaches = {
        path: [
            (line, col)
            for line, col in at
            if any(tuple(g) in targets for g in goto.get(site_key(path, line, col), []))
        ]
        for path, at in sites.items()
    }
    c = Truth(set(t.files), set(t.symbols), dict(t.sites), t.sibling_definitions)
    removed: list[str] = []
    added: list[str] = []
    for path, hits in sorted(reaches.items()):
        if path in t.files and not hits:
            removed.append(path)
            c.files.discard(path)
            for dep in [dep for dep in c.sites if dep[0] == path]:
                c.symbols.discard(dep)
                del c.sites[dep]
        elif path not in t.files and hits:
            added.append(path)
            c.files.add(path)
            info = files[path]
            for line, col in hits:
                dep = (path, enclosing(info, line))
                c.symbols.add(dep)
                c.sites.setdefault(dep, []).append((line, col, classify(info, line, col, d)))
    return c, removed, added


# --- nexus-lite -------------------------------------------------------------------------------


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Nexus:
    def __init__(self, bin_path: Path, root: Path, repo: str, data: Path):
        self.repo = repo
        self.token = secrets.token_urlsafe(24)
        t0 = time.monotonic()
        out = subprocess.run(
            [str(bin_path), "index", "--repo", f"{repo}={root}", "--data-dir", str(data)],
            check=True,
            capture_output=True,
            text=True,
        )
        self.index_s = time.monotonic() - t0
        self.index = json.loads(out.stdout)
        port = free_port()
        self.url = f"http://127.0.0.1:{port}"
        self.log = open(data / "serve.log", "w")  # noqa: SIM115 - the server's lifetime
        self.proc = subprocess.Popen(
            [
                str(bin_path),
                "serve",
                "--listen",
                f"127.0.0.1:{port}",
                "--data-dir",
                str(data),
                "--repo",
                f"{repo}={root}",
            ],
            env={**os.environ, "NEXUS_API_TOKEN": self.token},
            stdout=self.log,
            stderr=self.log,
        )
        deadline = time.monotonic() + 30
        while True:  # wait for the listener (poll /healthz)
            try:
                urllib.request.urlopen(self.url + "/healthz", timeout=2).read()
                break
            except OSError:
                if self.proc.poll() is not None or time.monotonic() > deadline:
                    raise RuntimeError(f"nexus-lite serve did not start, see {data}/serve.log")
                time.sleep(0.1)

    def get(self, endpoint: str, **params) -> dict:
        q = urllib.parse.urlencode({"repository": self.repo, **params})
        req = urllib.request.Request(
            f"{self.url}/api/v1/{endpoint}?{q}",
            headers={"Authorization": f"Bearer {self.token}"},
        )
        try:
            with urllib.request.urlopen(req, timeout=60) as r:
                return json.loads(r.read())
        except urllib.error.HTTPError as e:
            return {"error": json.loads(e.read() or b"{}"), "status": e.code}

    def symbols(self, path: str) -> list[dict]:
        return self.get("file-context", path=path, radius=0).get("symbols", [])

    def impact(self, path: str, symbol: str) -> dict:
        first = self.get("impact", path=path, symbol=symbol, depth=1, limit=500)
        items = list(first.get("items", []))
        cur = first.get("next_cursor")
        while cur:
            page = self.get("impact", path=path, symbol=symbol, depth=1, limit=500, cursor=cur)
            items += page.get("items", [])
            cur = page.get("next_cursor")
        first["items"] = items
        return first

    def close(self) -> None:
        self.proc.terminate()
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
        self.log.close()


def local_of(qn: str | None, info: FileInfo | None) -> str | None:
    """A graph qualified name -> the ast dotted name in its file (longest matching suffix)."""
    if qn is None or info is None:
        return qn
    best = None
    for local in info.by_local:
        if (qn == local or qn.endswith("." + local)) and (best is None or len(local) > len(best)):
            best = local
    return best if best is not None else qn


def nexus_answers(nx: Nexus, sample: list[Def], files: dict[str, FileInfo]) -> dict[str, dict]:
    qn_cache: dict[str, list[dict]] = {}
    out: dict[str, dict] = {}
    for d in sample:
        syms = qn_cache.setdefault(d.path, nx.symbols(d.path))
        cands = [s for s in syms if local_of(s["qualified_name"], files[d.path]) == d.local]
        cands.sort(key=lambda s: abs(s.get("line", 0) - d.line))
        if not cands:
            out[d.key] = {
                "resolved": False,
                "qualified_name": None,
                "items": [],
                "total": 0,
                "risk": None,
                "completeness": None,
            }
            continue
        qn = cands[0]["qualified_name"]
        a = nx.impact(d.path, qn)
        out[d.key] = {
            "qualified_name": qn,
            "resolved": a.get("resolved", False),
            "items": [
                {k: it.get(k) for k in ("path", "symbol", "via", "resolution", "confidence")}
                for it in a.get("items", [])
                if it.get("depth", 1) == 1
            ],
            "total": a.get("total"),
            "risk": a.get("risk"),
            "completeness": a.get("completeness"),
            "error": a.get("error"),
        }
    return out


# --- GitNexus ---------------------------------------------------------------------------------


def gitnexus_env(cache: Path) -> tuple[dict, Path]:
    out = sh(["bash", str(HERE.parent / "gitnexus_install.sh"), str(cache / "gitnexus")])
    node_dir, gnbin = out.strip().splitlines()[-2:]
    home = cache / "gitnexus" / "home"
    home.mkdir(parents=True, exist_ok=True)
    env = {**os.environ, "PATH": f"{node_dir}:{os.environ['PATH']}", "HOME": str(home)}
    return env, Path(gnbin)


def gitnexus_json(gnbin: Path, env: dict, cwd: Path, args: list[str]) -> dict:
    out = subprocess.run(
        [str(gnbin), "impact", *args, "--depth", "1", "--include-tests", "-l", "1000"],
        env=env,
        cwd=cwd,
        capture_output=True,
        text=True,
        check=False,
    )
    text = out.stdout
    start = text.find("\n{")
    try:
        return json.loads(text[start + 1 :] if start >= 0 else text)
    except json.JSONDecodeError:
        return {"error": (text + out.stderr)[-500:]}


def gitnexus_answers(p: Project, root: Path, sample: list[Def], cache: Path) -> dict[str, dict]:
    """GitNexus's `impact` (CLI, upstream, depth 1, --include-tests) per symbol (cached). The
    target is named by name + file + kind; when that is ambiguous (same-named methods in one
    file) the candidate on the definition's line is asked again by its uid."""
    cfile = cache / "gitnexus-answers" / f"{p.pin}.json"
    cfile.parent.mkdir(parents=True, exist_ok=True)
    done: dict[str, dict] = json.loads(cfile.read_text()) if cfile.exists() else {}
    todo = [d for d in sample if d.key not in done]
    if not todo:
        return done
    env, gnbin = gitnexus_env(cache)
    tree = cache / "gitnexus-trees" / root.name  # a copy: analyze writes .gitnexus/ into it
    if not (tree / ".gitnexus" / "meta.json").exists():
        shutil.rmtree(tree, ignore_errors=True)
        shutil.copytree(root, tree, symlinks=True)
        t0 = time.monotonic()
        subprocess.run(
            [str(gnbin), "analyze", "--index-only", "--skip-fts", str(tree)],
            env=env,
            cwd=tree,
            check=True,
            capture_output=True,
        )
        log(f"gitnexus analyze {p.name}: {time.monotonic() - t0:.1f} s")
    t0 = time.monotonic()
    try:
        for i, d in enumerate(todo):
            kind = {"class": "Class", "method": "Method", "function": "Function"}[d.kind]
            ans = gitnexus_json(
                gnbin, env, tree, [d.local.split(".")[-1], "--file", d.path, "--kind", kind]
            )
            if ans.get("status") == "ambiguous":
                cands = sorted(
                    ans.get("candidates", []), key=lambda c: abs((c.get("line") or 0) - d.line)
                )
                if cands:
                    ans = gitnexus_json(gnbin, env, tree, ["--uid", cands[0]["uid"]])
            done[d.key] = ans
            if (i + 1) % 25 == 0:
                log(f"gitnexus {p.name}: {i + 1}/{len(todo)} ({time.monotonic() - t0:.0f} s)")
    finally:
        cfile.write_text(json.dumps(done, sort_keys=True))
    return done


# --- metrics ----------------------------------------------------------------------------------


def prf(tp: int, fp: int, fn: int) -> dict:
    return {
        "tp": tp,
        "fp": fp,
        "fn": fn,
        "precision": round(tp / (tp + fp), 3) if tp + fp else None,
        "recall": round(tp / (tp + fn), 3) if tp + fn else None,
    }


def mean(v: list[float]) -> float | None:
    return round(sum(v) / len(v), 3) if v else None


@dataclass
class Found:
    """One tool's depth-1 answer for one symbol, as sets (after the own-body drop)."""

    files: dict[str, str]  # path -> best resolution
    symbols: dict[tuple[str, str | None], str]
    total: int | None
    risk: str | None
    resolved: bool
    completeness: str | None = None  # the answer's own claim: exact | lower_bound


RES_ORDER = {"exact": 0, "inferred": 1, "name_match": 2}


def better(a: str | None, b: str) -> str:
    return b if a is None or RES_ORDER.get(b, 9) < RES_ORDER.get(a, 9) else a


def nexus_found(d: Def, ans: dict, files: dict[str, FileInfo]) -> Found:
    fs: dict[str, str] = {}
    ss: dict[tuple[str, str | None], str] = {}
    for it in ans["items"]:
        path = it["path"]
        local = local_of(it["symbol"], files.get(path))
        if (
            path == d.path
            and local is not None
            and (local == d.local or local.startswith(d.local + "."))
        ):
            continue  # the definition's own body
        res = it.get("resolution") or "exact"
        fs[path] = better(fs.get(path), res)
        ss[(path, local)] = better(ss.get((path, local)), res)
    return Found(
        fs,
        ss,
        ans.get("total"),
        ans.get("risk"),
        bool(ans.get("resolved")),
        ans.get("completeness"),
    )


def star_importers(files: dict[str, FileInfo]) -> dict[str, set[str]]:
    """module file -> files doing `from <it> import *` (jedi lists none of them as references:
    a re-export by star import and `__all__` strings is invisible to it)."""

    def module_files(mod: str) -> list[str]:
        stem = mod.replace(".", "/")
        return [
            f
            for f in files
            if f in (stem + ".py", stem + "/__init__.py")
            or f.endswith(("/" + stem + ".py", "/" + stem + "/__init__.py"))
        ]

    out: dict[str, set[str]] = {}
    for path, info in files.items():
        pkg = Path(path).parent.as_posix()
        for node in ast.walk(info.tree):
            if not (isinstance(node, ast.ImportFrom) and any(a.name == "*" for a in node.names)):
                continue
            if node.level:
                base = Path(pkg)
                for _ in range(node.level - 1):
                    base = base.parent
                stem = (base / (node.module or "").replace(".", "/")).as_posix().lstrip("./")
                targets = [f for f in (stem + ".py", stem + "/__init__.py") if f in files]
            else:
                targets = module_files(node.module or "")
            for t in targets:
                out.setdefault(t, set()).add(path)
    return out


def score(
    tool: str,
    sample: list[Def],
    truths: dict[str, Truth],
    found: dict[str, Found],
    stars: dict[str, set[str]],
) -> dict:
    levels = {}
    for level in ("files", "symbols"):
        tp = fp = fn = 0
        per_kind = {k: [0, 0, 0] for k in KINDS}
        macro_p: list[float] = []
        macro_r: list[float] = []
        miss_cat = {c: 0 for c in MISS_CATEGORIES}
        fp_res: dict[str, int] = {}
        false_exact: list[dict] = []
        fp_examples: list[dict] = []
        fp_star = 0
        for d in sample:
            t, f = truths[d.key], found[d.key]
            want = t.files if level == "files" else t.symbols
            got = f.files if level == "files" else f.symbols
            a, b, c = len(want & got.keys()), len(got.keys() - want), len(want - got.keys())
            tp, fp, fn = tp + a, fp + b, fn + c
            pk = per_kind[d.kind]
            pk[0], pk[1], pk[2] = pk[0] + a, pk[1] + b, pk[2] + c
            if got:
                macro_p.append(a / len(got))
            if want:
                macro_r.append(a / len(want))
            for dep, sites in t.sites.items():
                missed = (dep[0] not in got) if level == "files" else (dep not in got)
                if missed:
                    for _, _, cat in sites:
                        miss_cat[cat] += 1
            for dep in sorted(got.keys() - want, key=str):
                res = got[dep]
                dep_path = dep if level == "files" else dep[0]
                if dep_path in stars.get(d.path, set()) and (level == "files" or dep[1] is None):
                    fp_star += 1
                fp_res[res] = fp_res.get(res, 0) + 1
                fp_examples.append({"target": d.key, "dependent": dep, "resolution": res})
                if res == "exact":
                    false_exact.append({"target": d.key, "dependent": dep})
        levels[level] = {
            "micro": prf(tp, fp, fn),
            "macro": {
                "precision": mean(macro_p),
                "recall": mean(macro_r),
                "symbols_with_answers": len(macro_p),
                "symbols_with_references": len(macro_r),
            },
            "per_kind": {k: prf(*v) for k, v in per_kind.items()},
            "missed_references_by_category": {k: v for k, v in miss_cat.items() if v},
            "false_positives_by_resolution": fp_res,
            "false_exact": len(false_exact),
            "false_positives_that_are_star_reexports": fp_star,
            "false_exact_examples": false_exact[:15],
            "false_positive_examples": fp_examples[:15],
        }
    zero_low = [
        d.key
        for d in sample
        if found[d.key].total == 0 and found[d.key].risk == "low" and truths[d.key].files
    ]
    # answers claiming to be complete while jedi lists a dependent file they lack
    false_complete = [
        d.key
        for d in sample
        if found[d.key].completeness == "exact" and truths[d.key].files - found[d.key].files.keys()
    ]
    zero_any = [d.key for d in sample if not found[d.key].files and truths[d.key].files]
    return {
        "tool": tool,
        **levels,
        "total0_risk_low_with_references": len(zero_low),
        "total0_risk_low_examples": zero_low[:10],
        "nothing_found_with_references": len(zero_any),
        "answers_claiming_exact": sum(1 for d in sample if found[d.key].completeness == "exact"),
        "false_complete_answers": len(false_complete),
        "false_complete_examples": false_complete[:10],
        "unresolved_targets": sum(1 for d in sample if not found[d.key].resolved),
    }


# --- GitNexus answers -> sets -----------------------------------------------------------------


def gitnexus_local(uid: str, info: FileInfo | None) -> str | None:
    """`Method:path:Class.m#2` / `Function:path:f` -> the ast dotted name (None: a file)."""
    kind, _, rest = uid.partition(":")
    if kind in ("File", "Folder", "Module", "Package") or info is None:
        return None
    name = rest.rsplit(":", 1)[-1].split("#")[0]
    return local_of(name, info)


def gitnexus_found(d: Def, ans: dict, files: dict[str, FileInfo]) -> Found:
    """Items are labelled by the answer's own claim: `exact` when it says `epistemic: exact`."""
    fs: dict[str, str] = {}
    ss: dict[tuple[str, str | None], str] = {}
    claim = "exact" if ans.get("epistemic") == "exact" else "lower_bound"
    for it in (ans.get("byDepth") or {}).get("1", []):
        path = it.get("filePath") or ""
        if not path:
            continue
        local = gitnexus_local(it.get("id", ""), files.get(path))
        if (
            path == d.path
            and local is not None
            and (local == d.local or local.startswith(d.local + "."))
        ):
            continue
        fs[path] = better(fs.get(path), claim)
        ss[(path, local)] = better(ss.get((path, local)), claim)
    resolved = "target" in ans and "error" not in ans and ans.get("status") != "ambiguous"
    risk = ans.get("risk")
    return Found(
        fs,
        ss,
        ans.get("impactedCount"),
        risk.lower() if isinstance(risk, str) else None,
        resolved,
        "exact" if ans.get("epistemic") == "exact" else "lower_bound",
    )


# --- report -----------------------------------------------------------------------------------


def fmt(x) -> str:
    return "–" if x is None else f"{x:.3f}" if isinstance(x, float) else str(x)


def markdown(project: Project, reports: list[dict], n: int, with_refs: int) -> str:
    out = [
        f"### {project.pin}: {project.shape} ({n} symbols, {with_refs} with jedi references)",
        "",
        (
            "| tool | level | P micro | R micro | P macro | R macro | P / R function "
            "| P / R method | P / R class | false exact | FP star re-export "
            "| exact answers (incomplete) | total 0 + risk low w/ refs |"
        ),
        "|---|---|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for r in reports:
        for level in ("files", "symbols"):
            lv = r[level]
            pk = lv["per_kind"]
            answers = (
                f"{r['answers_claiming_exact']} ({r['false_complete_answers']})"
                if level == "files"
                else ""
            )
            low = r["total0_risk_low_with_references"] if level == "files" else ""
            out.append(
                f"| {r['tool']} | {level} | {fmt(lv['micro']['precision'])} "
                f"| {fmt(lv['micro']['recall'])} | {fmt(lv['macro']['precision'])} "
                f"| {fmt(lv['macro']['recall'])} "
                + "".join(f"| {fmt(pk[k]['precision'])} / {fmt(pk[k]['recall'])} " for k in KINDS)
                + f"| {lv['false_exact']} | {lv['false_positives_that_are_star_reexports']} "
                f"| {answers} | {low} |"
            )
    return "\n".join(out)


def main() -> int:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument(
        "--nexus-bin",
        default=os.environ.get("CARGO_TARGET_DIR", str(WORKSPACE / "target"))
        + "/release/nexus-lite",
    )
    ap.add_argument("--cache", default="/tmp/nexus-quality-cache")
    ap.add_argument("--seed", type=int, default=13)
    ap.add_argument("--sample", type=int, default=150)
    ap.add_argument("--projects", default=",".join(PROJECTS))
    ap.add_argument("--only", choices=("nexus", "all"), default="all")
    ap.add_argument(
        "--pyright",
        choices=("all", "unknown", "none"),
        default="all",
        help="where pyright's go-to-definition is asked beside jedi's goto: every disputed"
        " site, only where jedi's finds nothing, or nowhere",
    )
    ap.add_argument("--json", help="also write the JSON report here")
    ap.add_argument(
        "--details", help="write per-symbol sets (both tools, jedi) here, for reading by hand"
    )
    args = ap.parse_args()
    cache = Path(args.cache)
    cache.mkdir(parents=True, exist_ok=True)
    ensure_jedi(cache)
    nexus_bin = Path(args.nexus_bin).resolve()
    if not nexus_bin.is_file():
        log(f"no nexus-lite binary at {nexus_bin} (cargo build --release -p nexus-lite)")
        return 2
    report = {
        "nexus_bin": str(nexus_bin),
        "seed": args.seed,
        "sample": args.sample,
        "jedi": JEDI_VERSION,
        "pytest": PYTEST_VERSION,
        "projects": {},
    }
    details: dict = {}
    tables = []
    for name in args.projects.split(","):
        p = PROJECTS[name]
        root = fetch_tree(p, cache)
        files = {f: i for f in python_files(root) if (i := parse_file(root, f))}
        sample = draw_sample(p, files, args.sample, args.seed)
        stars = star_importers(files)
        log(f"{p.pin}: {len(files)} Python files, sample {len(sample)}")
        refs = jedi_refs(p, root, sample, cache)
        truths = {
            d.key: truth_for(d, refs[d.key] + (fixture_refs(d, files) if d.fixture else []), files)
            for d in sample
        }
        # a fresh data dir per run: several builds may be measured at once from one cache
        (cache / "nexus-data").mkdir(exist_ok=True)
        data = Path(tempfile.mkdtemp(prefix=f"{p.name}-", dir=cache / "nexus-data"))
        nx = Nexus(nexus_bin, root, f"bench/{p.name}", data)
        try:
            t0 = time.monotonic()
            nans = nexus_answers(nx, sample, files)
            q_s = time.monotonic() - t0
        finally:
            nx.close()
            shutil.rmtree(data, ignore_errors=True)
        nfound = {d.key: nexus_found(d, nans[d.key], files) for d in sample}
        reports = [score("nexus-lite", sample, truths, nfound, stars)]
        reports[0]["index_s"] = round(nx.index_s, 2)
        reports[0]["queries_s"] = round(q_s, 2)
        disputed = disputed_files(sample, truths, nfound, files)
        goto = jedi_goto(
            p,
            root,
            {
                (path, line, col)
                for s in disputed.values()
                for path, at in s.items()
                for line, col in at
            },
            cache,
        )
        # pyright's go-to-definition too (see pyright_goto): a site reaches what either lands on.
        asked = {
            (path, line, col)
            for s in disputed.values()
            for path, at in s.items()
            for line, col in at
            if args.pyright == "all" or not goto.get(site_key(path, line, col))
        }
        second = pyright_goto(p, root, asked, cache) if args.pyright != "none" and asked else {}
        answered = {k: v for k, v in second.items() if tuple_key(k) in asked}
        differ = sum(1 for k, v in answered.items() if sorted(v) != sorted(goto.get(k, [])))
        goto = {k: sorted({tuple(x) for x in v + answered.get(k, [])}) for k, v in goto.items()}
        bases = class_bases(files)
        checked = {
            d.key: goto_checked(d, truths[d.key], disputed[d.key], goto, files, bases)
            for d in sample
        }
        report_checked = score(
            "nexus-lite, goto-checked", sample, {k: v[0] for k, v in checked.items()}, nfound, stars
        )
        report_checked["files_removed_from_jedi"] = sum(len(v[1]) for v in checked.values())
        report_checked["files_added_to_jedi"] = sum(len(v[2]) for v in checked.values())
        report_checked["sites_asked_pyright"] = len(answered)
        report_checked["sites_pyright_differs"] = differ
        reports.append(report_checked)
        gfound = None
        gcache = cache / "gitnexus-answers" / f"{p.pin}.json"
        if args.only == "all" or gcache.exists():
            try:
                gans = (
                    gitnexus_answers(p, root, sample, cache)
                    if args.only == "all"
                    else json.loads(gcache.read_text())
                )
                if all(d.key in gans for d in sample):
                    gfound = {d.key: gitnexus_found(d, gans[d.key], files) for d in sample}
                    reports.append(score("GitNexus", sample, truths, gfound, stars))
            except (subprocess.CalledProcessError, RuntimeError, OSError) as e:
                log(f"GitNexus on {p.name} failed: {e}")
                reports.append({"tool": "GitNexus", "error": str(e)})
        kinds = {k: sum(1 for d in sample if d.kind == k) for k in KINDS}
        report["projects"][p.name] = {
            "pin": p.pin,
            "shape": p.shape,
            "python_files": len(files),
            "sample_kinds": kinds,
            "fixtures_in_sample": sum(1 for d in sample if d.fixture),
            "symbols_with_jedi_references": sum(1 for d in sample if truths[d.key].files),
            "jedi_references_dropped_as_other_definitions": sum(
                truths[d.key].sibling_definitions for d in sample
            ),
            "reports": reports,
        }
        tables.append(
            markdown(
                p,
                [r for r in reports if "error" not in r],
                len(sample),
                sum(1 for d in sample if truths[d.key].files),
            )
        )
        details[p.name] = {
            d.key: {
                "kind": d.kind,
                "line": d.line,
                "fixture": d.fixture,
                "jedi": sorted([list(k) + [v] for k, v in truths[d.key].sites.items()], key=str),
                "goto_checked": {"removed": checked[d.key][1], "added": checked[d.key][2]},
                "nexus": {
                    "qualified_name": nans[d.key].get("qualified_name"),
                    "total": nans[d.key].get("total"),
                    "risk": nans[d.key].get("risk"),
                    "symbols": sorted(
                        [list(k) + [v] for k, v in nfound[d.key].symbols.items()], key=str
                    ),
                },
                **(
                    {
                        "gitnexus": sorted(
                            [list(k) + [v] for k, v in gfound[d.key].symbols.items()], key=str
                        )
                    }
                    if gfound
                    else {}
                ),
            }
            for d in sample
        }
    text = json.dumps(report, indent=1, sort_keys=True)
    print(text)
    print()
    print("\n\n".join(tables))
    if args.json:
        Path(args.json).write_text(text)
    if args.details:
        Path(args.details).write_text(json.dumps(details, indent=1, sort_keys=True))
    return 0


if __name__ == "__main__":
    sys.exit(main())
