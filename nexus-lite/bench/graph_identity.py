"""Are two code graphs the same graph? Reads each from a nexus-lite data directory (any
schema version: `nodes`, `edges`, `imports`, `anomalies` and `files` by graph) and compares
them row for row, with node ids replaced by what the node is (kind, qualified name, path,
language, line), so graphs of indexers that number nodes differently compare too.

    python3 graph_identity.py DATA_A GRAPH_A DATA_B GRAPH_B

GRAPH is a graph id, or `latest` (the newest ready graph). Prints the row counts and the
first differences; exits 1 when the graphs differ.
"""
import sqlite3
import sys
from collections import Counter


def graph_rows(data, graph):
    db = sqlite3.connect(f"file:{data}/nexus-lite.sqlite3?mode=ro", uri=True)
    if graph == "latest":
        gpk, gid = db.execute(
            "SELECT gpk, graph_id FROM graphs WHERE status='ready' ORDER BY gpk DESC LIMIT 1"
        ).fetchone()
    else:
        gpk, gid = db.execute("SELECT gpk, graph_id FROM graphs WHERE graph_id=?", (graph,)).fetchone()
    key = {}
    rows = Counter()
    for nid, kind, name, qn, path, line, end, lang, detail in db.execute(
        "SELECT id, kind, name, qualified_name, path, line, end_line, language, detail FROM nodes WHERE gpk=?",
        (gpk,),
    ):
        key[nid] = (kind, qn, path, lang, line)
        rows[("node", kind, name, qn, path, line, end, lang, detail)] += 1
    for kind, src, dst, conf, line in db.execute(
        "SELECT kind, src, dst, confidence, line FROM edges WHERE gpk=?", (gpk,)
    ):
        rows[("edge", kind, key.get(src, ("missing", src)), key.get(dst, ("missing", dst)), conf, line)] += 1
    for r in db.execute("SELECT path, module, resolved_path, external, line FROM imports WHERE gpk=?", (gpk,)):
        rows[("import",) + tuple(r)] += 1
    for r in db.execute("SELECT kind, path, line, message, severity, details FROM anomalies WHERE gpk=?", (gpk,)):
        rows[("anomaly",) + tuple(r)] += 1
    for r in db.execute("SELECT path, language, content_hash, size FROM files WHERE gpk=?", (gpk,)):
        rows[("file",) + tuple(r)] += 1
    return gid, rows


def main():
    if len(sys.argv) != 5:
        sys.exit(__doc__)
    gid_a, a = graph_rows(sys.argv[1], sys.argv[2])
    gid_b, b = graph_rows(sys.argv[3], sys.argv[4])
    kinds = lambda c: dict(Counter(k[0] for k in c.elements()))
    print(f"A {gid_a}: {kinds(a)}")
    print(f"B {gid_b}: {kinds(b)}")
    only_a, only_b = a - b, b - a
    if not only_a and not only_b:
        print("identical")
        return
    print(f"differ: {sum(only_a.values())} rows only in A, {sum(only_b.values())} only in B")
    for name, only in (("A", only_a), ("B", only_b)):
        for row in list(only.elements())[:8]:
            print(f"  only {name}: {row}")
    sys.exit(1)


if __name__ == "__main__":
    main()
