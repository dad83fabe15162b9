"""Compares nexus-lite graphs with TypeScript language-service references (refs.js output).

Usage: compare.py REFS.jsonl LABEL=GRAPH.sqlite3 ...
For each exported function/class and each method of a top-level class: the files with a
`calls`/`inherits` edge into its node (depth 1, its own file left out) against the files referring
to it (`code` and `all`, see refs.js); all symbols, then each kind.
"""
import json, sqlite3, sys

rows = {}
for line in open(sys.argv[1]):
    r = json.loads(line)
    rows[(r["file"], r["name"])] = r  # overloads: one per name

for arg in sys.argv[2:]:
    label, db = arg.split("=", 1)
    c = sqlite3.connect(db)
    gpk = c.execute("select max(gpk) from nodes").fetchone()[0]
    nodes = dict(c.execute("select qualified_name, id from nodes where gpk=? and kind in ('class','function','method')", (gpk,)))
    path = dict(c.execute("select id, path from nodes where gpk=?", (gpk,)))
    into = {}
    for src, dst, conf in c.execute("select src, dst, confidence from edges where gpk=? and kind in ('calls','inherits')", (gpk,)):
        into.setdefault(dst, []).append((path[src], conf))
    for key in ("code", "all"):
        for only in (None, "function", "class", "method"):
            tp = fp = fn = exact = false_exact = zero = n = 0
            for (f, name), r in rows.items():
                if only and r["kind"] != only:
                    continue
                n += 1
                got = {}
                for p, conf in into.get(nodes.get(f.rsplit(".", 1)[0] + "." + name), []):
                    if p != f:
                        got[p] = max(got.get(p, 0), conf)
                ref = set(r[key])
                for p, conf in got.items():
                    if p in ref:
                        tp += 1
                        exact += conf >= 0.9
                    else:
                        fp += 1
                        false_exact += conf >= 0.9
                fn += len(ref - set(got))
                zero += bool(ref) and not got
            print(f"{label:8} vs {key:4} {only or 'all':8}: {n} symbols, files tp {tp} fp {fp} fn {fn}, "
                  f"precision {tp / max(tp + fp, 1):.3f} recall {tp / max(tp + fn, 1):.3f}, "
                  f"exact {exact} of tp, false exact {false_exact}, none found where references exist {zero}")
