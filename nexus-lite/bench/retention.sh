#!/usr/bin/env bash
# Graph retention on the scale tree, side by side: two nexus-lite binaries serve the same tree
# from two data directories, and after each one-file commit both regenerate it (plan + submit,
# polled until ready), alternating which goes first. Reports per binary the regeneration's
# median / p99 / max (ms) and the database size (main file and WAL, MB) and graph count after
# the full index and every STEP regenerations.
#
#   OLD=path/to/nexus-lite NEW=path/to/nexus-lite nexus-lite/bench/retention.sh [REGENS]
#
# Environment: KEEP (NEW's --keep-graphs, default 3; OLD gets no flag, so a binary without
# retention works), REGENS (default 30), STEP (default 10), EDIT (what each commit does to
# QUERY_PATH's file: `function`, the default, appends a function; `attribute` adds an
# attribute holding a class to the end of the file's first class; `method` adds to that class
# a method named, in turn, by each of METHODS, names other files call), WORK, SDISTS and
# QUERY_PATH as in scale.sh (the tree is shared with it). Graph only: no ruff/bandit on PATH.
# Also lists how many parts each regeneration linked (the graph's own included). The two
# last graphs must be the same (graph_identity.py).
set -u
REGENS=${1:-${REGENS:-30}}
KEEP=${KEEP:-3}
STEP=${STEP:-10}
HERE=$(cd "$(dirname "$0")/../.." && pwd)
log() { echo "[retention] $*" >&2; }
: "${OLD:?OLD=an nexus-lite binary}" "${NEW:?NEW=an nexus-lite binary}"
# shellcheck source=nexus-lite/bench/scale-tree.sh
. "$HERE/nexus-lite/bench/scale-tree.sh"
git -C "$TREE" reset -q --hard "$(git -C "$TREE" rev-list --max-parents=0 HEAD)"

export NEXUS_API_TOKEN=retention-bench-token
PIDS=()
trap 'kill "${PIDS[@]}" 2>/dev/null' EXIT
serve() { # NAME BIN PORT ARGS...
  local name=$1 bin=$2 port=$3; shift 3
  rm -rf "$WORK/ret-$name"
  env PATH="$BASE_PATH" "$bin" index --repo "bench/scale=$TREE" --data-dir "$WORK/ret-$name" >/dev/null \
    || { log "$name: index failed"; exit 1; }
  env PATH="$BASE_PATH" "$bin" serve --listen "127.0.0.1:$port" --repo "bench/scale=$TREE" \
    --data-dir "$WORK/ret-$name" "$@" >"$WORK/ret-$name.out" 2>"$WORK/ret-$name.err" &
  PIDS+=($!)
}
log "full index and serve: old, new (--keep-graphs $KEEP)"
serve old "$OLD" 18801
serve new "$NEW" 18802 --keep-graphs "$KEEP"

PYTHONPATH="$HERE/nexus-lite/bench" python3 - "$TREE" "$QUERY_PATH" "$REGENS" "$STEP" "$WORK" "$KEEP" <<'EOF'
import os, re, sqlite3, statistics, subprocess, sys, time
from lite_api import Api, parts_linked
tree, path, regens, step, work, keep = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), sys.argv[5], int(sys.argv[6])
servers = {"old": 18801, "new": 18802}
apis = {name: Api(port, "retention-bench-token") for name, port in servers.items()}
def regenerate(name):
    t = time.perf_counter()
    apis[name].regenerate("bench/scale")
    return (time.perf_counter() - t) * 1000
def graphs(name):
    db = sqlite3.connect(f"file:{work}/ret-{name}/nexus-lite.sqlite3?mode=ro", uri=True)
    n = db.execute("SELECT COUNT(*) FROM graphs").fetchone()[0]
    db.close()
    return n
def size(name):
    d = f"{work}/ret-{name}"
    mb = lambda f: os.path.getsize(f"{d}/{f}") / 1e6 if os.path.exists(f"{d}/{f}") else 0.0
    return f"{mb('nexus-lite.sqlite3'):.1f} + {mb('nexus-lite.sqlite3-wal'):.1f} ({graphs(name)})"
ms = {n: [] for n in servers}
linked = {n: [] for n in servers}
sizes = [("after the full index", {n: size(n) for n in servers})]
def change(i):
    with open(f"{tree}/{path}") as f:
        text = f.read()
    edit = os.environ.get("EDIT", "function")
    # The first class whose header is one line, to the end of its indented body.
    m = re.search(r"^class (\w+)[^\n]*:\n(?:[ \t]+[^\n]*\n|\n)*", text, re.MULTILINE)
    if edit == "attribute":
        text = f"{text[:m.end()]}    retention_bench_{i} = {m.group(1)}\n{text[m.end():]}"
    elif edit == "method":
        names = os.environ.get("METHODS", "get_prefetch_querysets resolve_expression as_sql clone").split()
        method = f"    def {names[i % len(names)]}(self):\n        return None\n"
        text = f"{text[:m.end()]}{method}{text[m.end():]}"
    else:
        text += f"\n\ndef retention_bench_{i}(x):\n    return x * {i}\n"
    with open(f"{tree}/{path}", "w") as f:
        f.write(text)
for i in range(regens):
    change(i)
    subprocess.run(["git", "-C", tree, "-c", "user.email=bench@example.com", "-c", "user.name=bench",
                    "commit", "-qam", f"retention change {i}"], check=True)
    for name in (["old", "new"] if i % 2 == 0 else ["new", "old"]):
        ms[name].append(regenerate(name))
        linked[name].append(parts_linked(f"{work}/ret-{name}"))
    if (i + 1) % step == 0:
        # The last run's pruning happens after it is reported: wait until it has.
        deadline = time.time() + 60
        while graphs("new") > keep and time.time() < deadline:
            time.sleep(0.05)
        sizes.append((f"after {i + 1} regenerations", {n: size(n) for n in servers}))
def p99(v):
    v = sorted(v); return v[min(len(v) - 1, int(round(0.99 * (len(v) - 1))))]
print("| regeneration after a one-file commit (ms) | old | new |")
print("|---|---|---|")
for label, f in [("median", statistics.median), ("p99", p99), ("max", max)]:
    print(f"| {label} of {regens} | {f(ms['old']):.0f} | {f(ms['new']):.0f} |")
ratio = statistics.median([n / o for o, n in zip(ms["old"], ms["new"])])
print(f"| new / old, median of per-commit ratios | | {ratio:.2f} |")
print()
for name in servers:
    print(f"parts linked per commit, {name}: {' '.join(map(str, linked[name]))}")
print()
print("| database: main file + WAL, MB (graphs) | old | new |")
print("|---|---|---|")
for label, s in sizes:
    print(f"| {label} | {s['old']} | {s['new']} |")
EOF
python3 "$HERE/nexus-lite/bench/graph_identity.py" "$WORK/ret-old" latest "$WORK/ret-new" latest | tail -n 1
