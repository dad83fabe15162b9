#!/usr/bin/env python3
"""References of a crate's top-level Rust items, from rust-analyzer (LSP over stdio), one JSON
line per symbol, in the format ts-refs/compare.py reads:

    {file, name, kind, all: [files], code: [files]}

The symbols: the top-level functions, structs, enums, unions and traits of the files under
src/ (kind `function`, `class`), and the methods of their `impl` and trait blocks (`method`,
named `Type.method` as nexus-lite names them). `all`: the files referring to the symbol outside
`use` declarations and outside its own file; `code`: those where a reference is called or
constructed (`f(`, `x.m(`, `T::f(`, `S {`, `S(`) or implemented (`impl Trait for`), what
nexus-lite links as calls and inherits. A method counts the references rust-analyzer binds to
that very declaration (the receiver's static type, as jedi's goto for Python).

Usage: refs.py RUST_ANALYZER REPO > refs.jsonl
"""

import json
import os
import re
import subprocess
import sys
import threading
from urllib.parse import quote, unquote

FUNCTION, METHOD, CLASS_KINDS = 12, 6, {10, 11, 23}  # LSP SymbolKind: Enum, Interface, Struct
OBJECT = 19  # rust-analyzer's kind for an `impl` block


class Lsp:
    def __init__(self, argv, root):
        self.p = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, cwd=root)
        self.next_id = 0
        self.replies = {}
        self.quiescent = threading.Event()
        self.cond = threading.Condition()
        threading.Thread(target=self.read, daemon=True).start()

    def send(self, msg):
        body = json.dumps(msg).encode()
        self.p.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        self.p.stdin.flush()

    def read(self):
        while True:
            length = None
            while True:
                line = self.p.stdout.readline()
                if not line:
                    with self.cond:
                        self.replies[None] = "rust-analyzer exited"
                        self.cond.notify_all()
                    return
                if line in (b"\r\n", b"\n"):
                    break
                if line.lower().startswith(b"content-length:"):
                    length = int(line.split(b":")[1])
            msg = json.loads(self.p.stdout.read(length))
            if "id" in msg and "method" in msg:  # a request of the server: accept it
                self.send({"jsonrpc": "2.0", "id": msg["id"], "result": None})
            elif "id" in msg:
                with self.cond:
                    self.replies[msg["id"]] = msg
                    self.cond.notify_all()
            elif msg.get("method") == "experimental/serverStatus" and msg["params"].get(
                "quiescent"
            ):
                self.quiescent.set()

    def request(self, method, params):
        while True:
            self.next_id += 1
            rid = self.next_id
            self.send({"jsonrpc": "2.0", "id": rid, "method": method, "params": params})
            with self.cond:
                self.cond.wait_for(lambda rid=rid: rid in self.replies or None in self.replies)
                if None in self.replies:
                    sys.exit(self.replies[None])
                reply = self.replies.pop(rid)
            if reply.get("error", {}).get("code") == -32801:  # content modified: ask again
                continue
            if "error" in reply:
                sys.exit(f"{method}: {reply['error']}")
            return reply["result"]

    def notify(self, method, params):
        self.send({"jsonrpc": "2.0", "method": method, "params": params})


def uri(root, path):
    return "file://" + quote(os.path.join(root, path))


def offset(text_lines, pos):
    """Character offset in the file of an LSP position (UTF-16 columns, ASCII assumed)."""
    return sum(len(line) for line in text_lines[: pos["line"]]) + pos["character"]


USE = re.compile(r"(?:^|[;{}\n])\s*(?:pub(?:\([^)]*\))?\s+)?use\s[^;]*;", re.DOTALL)


def use_spans(text):
    return [(m.start(), m.end()) for m in USE.finditer(text)]


def impl_type(name):
    """`impl<T> Display for Foo<T>` -> `Foo`; `impl Foo` -> `Foo` (rust-analyzer's names)."""
    rest = name[4:].strip() if name.startswith("impl") else name
    if rest.startswith("<"):
        depth = 0
        for i, c in enumerate(rest):
            depth += {"<": 1, ">": -1}.get(c, 0)
            if depth == 0:
                rest = rest[i + 1 :].strip()
                break
    if " for " in rest:
        rest = rest.split(" for ", 1)[1]
    rest = rest.split("<", 1)[0].split(" where", 1)[0].strip().lstrip("&")
    return rest.rsplit("::", 1)[-1] or None


def before_path(text, start):
    """The text before a reference and the path that qualifies it (`crate::a::`, `Self::`)."""
    i = start
    while m := re.search(r"\w+\s*::\s*$", text[:i]):
        i = m.start()
    return text[:i].rstrip()


def skip_group(text, i):
    """The index after the balanced `(...)` or `{...}` at text[i:] (after spaces), else i."""
    j = len(text) - len(text[i:].lstrip())
    if j >= len(text) or text[j] not in "({":
        return i
    close = {"(": ")", "{": "}"}[text[j]]
    depth = 0
    for k in range(j, min(len(text), j + 20000)):
        depth += (text[k] == text[j]) - (text[k] == close)
        if depth == 0:
            return k + 1
    return i


# Where an expression starts: a struct literal or a variant here is a construction, not a type
# in a signature (`-> Version {`, `impl Display for Version {`) or a pattern (`let E::V(x) =`).
EXPRESSION_BEFORE = re.compile(
    r"(=>|==|!=|&&|\|\||[^=!<>]=|[(\[{,;]|\breturn|\bbreak|\belse|\|\s*\w*\s*\|)$"
)


def is_code(kind, text, start, end):
    """A reference at text[start:end] that is called (`f(`, `x.m(`, `T::f(`), constructed
    (`S { .. }`, `S(..)` or a variant `E::V` as a value) or implemented (`impl Trait for`),
    read from the text around it. `T::f(` is a reference to `f`, not to `T` (as `T.f()` is in
    TypeScript), and a variant in a pattern (`E::V =>`, `let E::V(x) =`) is no construction."""
    after = text[end:]
    turbofish = re.match(r"\s*::\s*<", after)
    if turbofish:  # skip `::<...>`
        depth, i = 0, turbofish.end() - 1
        while i < len(after):
            depth += {"<": 1, ">": -1}.get(after[i], 0)
            i += 1
            if depth == 0:
                break
        after = after[i:]
    nxt = after.lstrip()
    before = text[max(0, start - 300) : start]
    if kind != "class":
        # A trait method's references list its impls' definitions: `fn name(` is no call.
        return nxt[:1] == "(" and not re.search(r"\bfn\s+$", before)
    if re.search(r"\bimpl\b[^{;]*$", before) and re.match(r"\s+for\b", after):
        return True
    context = before_path(text, start)
    variant = re.match(r"\s*::\s*([A-Z]\w*[a-z]\w*)", after)  # camel case: not a constant
    # `field: E::V` in a struct literal: a type is never a variant's path.
    if not (EXPRESSION_BEFORE.search(context) or (variant and re.search(r"[^:]:$", context))):
        return False
    if variant:
        rest = after[skip_group(after, variant.end()) :].lstrip()
        return not re.match(r"(=>|\|(?!\|)|if\b|=(?!=))", rest)
    return nxt[:1] in "({" and nxt != ""


def symbols(lsp, root, path):
    """(name, kind, selection start) of the symbols measured in `path`."""
    out = []
    doc = lsp.request("textDocument/documentSymbol", {"textDocument": {"uri": uri(root, path)}})
    for s in doc or []:
        if s["kind"] == FUNCTION:
            out.append((s["name"], "function", s["selectionRange"]["start"]))
        elif s["kind"] in CLASS_KINDS:
            out.append((s["name"], "class", s["selectionRange"]["start"]))
            if s["kind"] == 11:  # a trait's methods
                for c in s.get("children") or []:
                    if c["kind"] in (FUNCTION, METHOD):
                        out.append(
                            (f"{s['name']}.{c['name']}", "method", c["selectionRange"]["start"])
                        )
        elif s["kind"] == OBJECT and s["name"].startswith("impl"):
            owner = impl_type(s["name"])
            for c in s.get("children") or []:
                if owner and c["kind"] in (FUNCTION, METHOD):
                    out.append((f"{owner}.{c['name']}", "method", c["selectionRange"]["start"]))
    return out


def main():
    ra, root = sys.argv[1], os.path.abspath(sys.argv[2])
    files = subprocess.run(
        ["git", "-C", root, "ls-files", "*.rs"], capture_output=True, text=True, check=True
    ).stdout.split()
    texts = {}

    def text_of(path):
        if path not in texts:
            with open(os.path.join(root, path), encoding="utf-8", errors="replace") as f:
                t = f.read()
            texts[path] = (t, t.splitlines(keepends=True), use_spans(t))
        return texts[path]

    lsp = Lsp([ra], root)
    lsp.request(
        "initialize",
        {
            "processId": os.getpid(),
            "rootUri": "file://" + quote(root),
            "capabilities": {
                "experimental": {"serverStatusNotification": True},
                "textDocument": {"documentSymbol": {"hierarchicalDocumentSymbolSupport": True}},
            },
            # Every feature: code behind `#[cfg(feature = ...)]` is the crate's too, and indexed.
            "initializationOptions": {
                "checkOnSave": False,
                "cargo": {"buildScripts": {"enable": False}, "features": "all"},
                "procMacro": {"enable": False},
                "cachePriming": {"enable": False},
            },
        },
    )
    lsp.notify("initialized", {})
    if not lsp.quiescent.wait(1800):
        sys.exit("rust-analyzer did not finish loading the workspace in 30 minutes")
    # One row per name, as the graph has one node: the references of every declaration of it
    # (a type's several `impl From<X>` each declare `from`).
    rows = {}
    for path in files:
        if not path.startswith("src/"):
            continue
        for name, kind, at in symbols(lsp, root, path):
            every, code = rows.setdefault((path, name), (kind, set(), set()))[1:]
            refs = lsp.request(
                "textDocument/references",
                {
                    "textDocument": {"uri": uri(root, path)},
                    "position": at,
                    "context": {"includeDeclaration": False},
                },
            )
            for r in refs or []:
                rf = os.path.relpath(unquote(r["uri"][len("file://") :]), root)
                if rf.startswith("..") or rf == path:
                    continue
                text, lines, uses = text_of(rf)
                start, end = offset(lines, r["range"]["start"]), offset(lines, r["range"]["end"])
                if any(a <= start < b for a, b in uses):
                    continue
                every.add(rf)
                if is_code(kind, text, start, end):
                    code.add(rf)
    for (path, name), (kind, every, code) in rows.items():
        print(
            json.dumps(
                {
                    "file": path,
                    "name": name,
                    "kind": kind,
                    "all": sorted(every),
                    "code": sorted(code),
                }
            )
        )
    lsp.request("shutdown", None)
    lsp.notify("exit", None)


if __name__ == "__main__":
    main()
