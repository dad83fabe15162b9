"""Compares nexus-lite graphs with TypeScript language-service references (refs.js output).

Usage: compare.py [--disputes OUT | --goto GOTO.jsonl] REFS.jsonl LABEL=GRAPH.sqlite3 ...
For each exported function/class and each method of a top-level class: the files with a
`calls`/`inherits` edge into its node (depth 1, its own file left out) against the files referring
to it (`code` and `all`, see refs.js); all symbols, then each kind.
--disputes OUT writes the files where some graph and the references disagree, one JSON line each
  ({file, name, kind, site}), for goto.js.
--goto GOTO.jsonl (goto.js's answers) adds the goto-checked rows (`code+goto`, `all+goto`): a
  file only the graph lists counts as referring when go-to-definition from a use there (a call,
  for `code`) lands on the symbol; a file only the references list stays when go-to-definition
  from some use there does. Files both list, or neither, are not checked.
"""
import json, sqlite3, sys

args = sys.argv[1:]
disputes_out = goto = None
if args[0] == "--disputes":
    disputes_out, args = args[1], args[2:]
elif args[0] == "--goto":
    goto = {}
    for line in open(args[1]):
        g = json.loads(line)
        goto[(g["file"], g["name"], g["site"])] = g
    args = args[2:]

rows = {}
for line in open(args[0]):
    r = json.loads(line)
    rows[(r["file"], r["name"])] = r  # overloads: one per name


def edges_into(db):
    """Per symbol of `rows`, the files (not its own) with an edge into it: {path: confidence}."""
    c = sqlite3.connect(db)
    gpk = c.execute("select max(gpk) from nodes").fetchone()[0]
    # An interface merged into the class of its name (declaration merging) is a second node of
    # that name: as an impact query does, both are the symbol.
    nodes = {}
    for q, i in c.execute("select qualified_name, id from nodes where gpk=? and kind in ('class','function','method')", (gpk,)):
        nodes.setdefault(q, []).append(i)
    path = dict(c.execute("select id, path from nodes where gpk=?", (gpk,)))
    into = {}
    for src, dst, conf in c.execute("select src, dst, confidence from edges where gpk=? and kind in ('calls','inherits')", (gpk,)):
        into.setdefault(dst, []).append((path[src], conf))
    out = {}
    for (f, name) in rows:
        got = {}
        ids = nodes.get(f.rsplit(".", 1)[0] + "." + name, [])
        for p, conf in (e for i in ids for e in into.get(i, [])):
            if p != f:
                got[p] = max(got.get(p, 0), conf)
        out[(f, name)] = got
    return out


def reference(f, name, key, got, checked):
    """The files taken as referring: the references, settled by goto where `checked`."""
    ref = set(rows[(f, name)][key])
    if not checked:
        return ref
    kept = {p for p in ref if p in got or goto.get((f, name, p), {"all": True})["all"]}
    return kept | {p for p in got if p not in ref and goto.get((f, name, p), {}).get(key)}


graphs = [(a.split("=", 1)[0], edges_into(a.split("=", 1)[1])) for a in args[1:]]
if disputes_out:
    seen = set()
    for _, into in graphs:
        for (f, name), got in into.items():
            r = rows[(f, name)]
            for site in set(got) ^ set(r["all"]) | set(got) ^ set(r["code"]):
                seen.add((f, name, r["kind"], site))
    with open(disputes_out, "w") as out:
        for f, name, kind, site in sorted(seen):
            out.write(json.dumps({"file": f, "name": name, "kind": kind, "site": site}) + "\n")
    sys.exit(0)

for label, into in graphs:
    for key, checked in [("code", False), ("all", False)] + ([("code", True), ("all", True)] if goto is not None else []):
        for only in (None, "function", "class", "method"):
            tp = fp = fn = exact = false_exact = zero = n = 0
            for (f, name), r in rows.items():
                if only and r["kind"] != only:
                    continue
                n += 1
                got = into[(f, name)]
                ref = reference(f, name, key, got, checked)
                for p, conf in got.items():
                    if p in ref:
                        tp += 1
                        exact += conf >= 0.9
                    else:
                        fp += 1
                        false_exact += conf >= 0.9
                fn += len(ref - set(got))
                zero += bool(ref) and not got
            vs = key + ("+goto" if checked else "")
            print(f"{label:8} vs {vs:9} {only or 'all':8}: {n} symbols, files tp {tp} fp {fp} fn {fn}, "
                  f"precision {tp / max(tp + fp, 1):.3f} recall {tp / max(tp + fn, 1):.3f}, "
                  f"exact {exact} of tp, false exact {false_exact}, none found where references exist {zero}")
