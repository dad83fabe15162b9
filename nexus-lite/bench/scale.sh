#!/usr/bin/env bash
# Scale benchmark: nexus-lite on >= 1M lines of real Python (pinned PyPI sdists, each in its own
# folder of one git repository), release build, graph only (no ruff/bandit on PATH).
#
#   nexus-lite/bench/scale.sh [RUNS]        (default 3 runs per row, medians reported)
#
# Rows: full index from a fresh data dir (wall, peak RSS from /usr/bin/time -v); incremental
# index after a one-file commit (a function appended to QUERY_PATH's file, committed, `index`
# again); query latency through the HTTP API of `nexus-lite serve` (keep-alive, CALLS calls per
# query after one warm-up call, p50/p99; the first call after start is shown on its own) for the
# summary, file context and impact (by path, and by a class of that file).
#
# Environment: WORK (scratch dir, default /tmp/nexus-lite-scale), SDISTS (pip specs, default
# "django==5.1.4 sympy==1.13.3": 1.22M lines of .py), CALLS (default 300), QUERY_PATH (default
# Django-5.1.4/django/db/models/query.py), QUERY_SYMBOL (a qualified name: one more impact row at
# depth 3, e.g. sympy.core.basic.Basic), SKIP_BUILD=1 to use the binary already in
# CARGO_TARGET_DIR/release, MCP=1 to also time the kg tools through `nexus-mcp serve` over stdio
# (embedded nexus-lite on the same data dir; MCP_BIN, default CARGO_TARGET_DIR/release/nexus-mcp), GITNEXUS=1 to also time `gitnexus analyze` once on the same tree,
# again after a one-file commit, and its `impact`/`context` tools over `gitnexus mcp` (stdio)
# (installed as compare.sh does, under WORK_COMPARE, default /tmp/nexus-lite-compare),
# OLD_LITE=an older nexus-lite binary to compare its full graph with this build's. The last
# in-server regeneration's graph is always checked against a full index of the same commit.
# Only PyPI (pip download --no-binary :all: --no-deps) and, with GITNEXUS=1, the npm registry
# are used.
set -u
RUNS=${1:-3}
CALLS=${CALLS:-300}
HERE=$(cd "$(dirname "$0")/../.." && pwd)
export CARGO_TARGET_DIR=${CARGO_TARGET_DIR:-$HERE/target}
log() { echo "[scale] $*" >&2; }
median() { python3 -c 'import sys,statistics; v=[float(x) for x in sys.argv[1:]]; print(f"{statistics.median(v):.2f}" if v else "n/a")' "$@"; }

if [ "${SKIP_BUILD:-0}" != 1 ]; then
  (cd "$HERE" && cargo build --release -q -p nexus-lite --bin nexus-lite) || { log "cargo build failed"; exit 1; }
fi
LITE=$CARGO_TARGET_DIR/release/nexus-lite

# --- the tree: sdists unpacked side by side, one commit ---------------------------------------
# shellcheck source=nexus-lite/bench/scale-tree.sh
. "$HERE/nexus-lite/bench/scale-tree.sh"
LINES=$(git -C "$TREE" ls-files -z '*.py' | (cd "$TREE" && xargs -0 cat) | wc -l)
NFILES=$(git -C "$TREE" ls-files '*.py' | wc -l)
log "tree: $TREE ($NFILES .py files, $LINES lines; $SDISTS)"

# --- full and incremental index --------------------------------------------------------------
# timed NAME CMD...: wall seconds and peak RSS (MB) appended to TIMES[NAME] / RSS[NAME].
declare -A TIMES RSS CPU
timed() {
  local name=$1; shift
  /usr/bin/time -v -o "$WORK/$name.time" "$@" >"$WORK/$name.out" 2>"$WORK/$name.err" \
    || { log "$name failed: $(tail -n 3 "$WORK/$name.err")"; return 1; }
  TIMES[$name]+="$(python3 - "$WORK/$name.time" <<'EOF'
import sys,re
t=open(sys.argv[1]).read()
m=re.search(r"Elapsed \(wall clock\) time.*: (?:(\d+):)?(\d+):([\d.]+)",t)
h,mi,s=m.groups(); print(f"{int(h or 0)*3600+int(mi)*60+float(s):.2f}")
EOF
) "
  RSS[$name]+="$(awk '/Maximum resident set size/{printf "%d", $NF/1024}' "$WORK/$name.time") "
  CPU[$name]+="$(awk '/User time|System time/{s+=$NF} END{printf "%.2f", s}' "$WORK/$name.time") "
}
INDEX=(env PATH="$BASE_PATH" "$LITE" index --repo "bench/scale=$TREE" --data-dir "$WORK/data")
# Resets the tree to its first commit so every run measures the same sources.
BASE_SHA=$(git -C "$TREE" rev-list --max-parents=0 HEAD)
for i in $(seq 1 "$RUNS"); do
  log "full run $i/$RUNS"
  git -C "$TREE" reset -q --hard "$BASE_SHA"
  rm -rf "$WORK/data"
  timed full "${INDEX[@]}"
  cp "$WORK/full.out" "$WORK/full-$i.json"
done
for i in $(seq 1 "$RUNS"); do
  log "incremental run $i/$RUNS"
  printf '\n\ndef scale_bench_added_%s(x):\n    return x + %s\n' "$i" "$i" >>"$TREE/$QUERY_PATH"
  git -C "$TREE" -c user.email=bench@example.com -c user.name=bench commit -qam "one-file change $i"
  timed incremental "${INDEX[@]}"
  cp "$WORK/incremental.out" "$WORK/incremental-$i.json"
done

# --- query latency over HTTP -----------------------------------------------------------------
PORT=${PORT:-18797}
export NEXUS_API_TOKEN=scale-bench-token
env PATH="$BASE_PATH" "$LITE" serve --listen "127.0.0.1:$PORT" --repo "bench/scale=$TREE" \
  --data-dir "$WORK/data" >"$WORK/serve.out" 2>"$WORK/serve.err" &
SERVE=$!
trap 'kill $SERVE 2>/dev/null' EXIT
QUERIES=$(PYTHONPATH="$HERE/nexus-lite/bench" python3 - "$PORT" "$CALLS" "$QUERY_PATH" "$TREE" "$RUNS" <<'EOF'
import json, statistics, subprocess, sys, time, urllib.parse
from lite_api import Api
port, calls, path, tree, runs = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3], sys.argv[4], int(sys.argv[5])
api = Api(port, "scale-bench-token", timeout=10)
def get(url):
    t = time.perf_counter(); body = api.request("GET", url)
    return (time.perf_counter() - t) * 1000, json.loads(body)
# In-server regeneration after a one-file commit (dry run + submit, polled until ready). The
# first one after the start reads the stored parses (a restart); the next ones are warm.
regen, runs_only = [], []
for i in range(runs + 1):
    with open(f"{tree}/{path}", "a") as f:
        f.write(f"\n\ndef scale_bench_served_{i}(x):\n    return x - {i}\n")
    subprocess.run(["git", "-C", tree, "-c", "user.email=bench@example.com", "-c", "user.name=bench",
                    "commit", "-qam", f"served change {i}"], check=True)
    t = time.perf_counter()
    submitted = api.regenerate("bench/scale")
    regen.append((time.perf_counter() - t) * 1000)
    runs_only.append((time.perf_counter() - submitted) * 1000)
print(f"| in-server regeneration after a one-file commit (plan + submit + poll; after a restart / then warm, ms) | {regen[0]:.0f} | {statistics.median(regen[1:]):.0f} | {max(regen[1:]):.0f} (max of {runs}) | |")
print(f"| of which the run (submitted to ready, ms) | {runs_only[0]:.0f} | {statistics.median(runs_only[1:]):.0f} | {max(runs_only[1:]):.0f} (max of {runs}) | |")
_, sel = get("/api/v1/graphs/select?repository=bench/scale")
gid = sel["graph"]["graph_id"]
q = urllib.parse.quote
_, ctx = get(f"/api/v1/file-context?graph_id={gid}&path={q(path)}")
cls = next((s["qualified_name"] for s in ctx["symbols"] if s["kind"] == "class"), None)
rows = [("summary", f"/api/v1/summary?graph_id={gid}"),
        ("file context", f"/api/v1/file-context?graph_id={gid}&path={q(path)}&line=40"),
        ("impact (path, depth 3)", f"/api/v1/impact?graph_id={gid}&path={q(path)}&depth=3"),
        ("impact (class, depth 1)", f"/api/v1/impact?graph_id={gid}&symbol={q(cls or '')}&depth=1"),
        ("impact (class, depth 3)", f"/api/v1/impact?graph_id={gid}&symbol={q(cls or '')}&depth=3"),
        ("summary by repository (git lookup of the branch)", "/api/v1/summary?repository=bench/scale")]
import os
sym = os.environ.get("QUERY_SYMBOL")
if sym:
    rows.append((f"impact ({sym}, depth 3)", f"/api/v1/impact?graph_id={gid}&symbol={q(sym)}&depth=3"))
print(f"graph {gid}; class {cls}", file=sys.stderr)
for name, url in rows:
    first, ans = get(url)
    ts = sorted(get(url)[0] for _ in range(calls))
    p99 = ts[min(len(ts) - 1, int(round(0.99 * len(ts))) - 1)]
    extra = f"total {ans.get('total')}" if "total" in ans else ""
    print(f"| {name} | {first:.1f} | {statistics.median(ts):.2f} | {p99:.2f} | {extra} |")
EOF
)
kill $SERVE 2>/dev/null; wait $SERVE 2>/dev/null; trap - EXIT

# --- the regenerated graph is the full graph ---------------------------------------------------
# The last in-server regeneration linked only the changed file; a fresh process indexes the
# same commit from scratch, and the two graphs must be the same row for row (graph_identity.py).
rm -rf "$WORK/data-full"
env PATH="$BASE_PATH" "$LITE" index --repo "bench/scale=$TREE" --data-dir "$WORK/data-full" >/dev/null 2>"$WORK/identity.err" \
  || log "full index for the identity check failed: $(tail -n 3 "$WORK/identity.err")"
IDENTITY=$(python3 "$HERE/nexus-lite/bench/graph_identity.py" "$WORK/data" latest "$WORK/data-full" latest 2>&1)
echo "$IDENTITY" | grep -q '^identical$' || { log "the regenerated graph differs from a full index:"; echo "$IDENTITY" >&2; }

# --- query latency over MCP stdio (nexus-mcp with the embedded nexus-lite) -------------------
MCP_ROWS=""
MCP_BIN=${MCP_BIN:-$CARGO_TARGET_DIR/release/nexus-mcp}
if [ "${MCP:-0}" = 1 ] && [ -x "$MCP_BIN" ]; then
  MCP_ROWS=$(PYTHONPATH="$HERE/nexus-lite/bench" python3 - "$MCP_BIN" "$TREE" "$WORK/data" "$CALLS" "$QUERY_PATH" <<'EOF2'
import sys
from mcp_stdio import Server
mcp, tree, data, calls, path = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4]), sys.argv[5]
s = Server([mcp, "serve", "--repo", f"bench/scale={tree}", "--data-dir", data], "2025-11-25",
           env={"PATH": "/usr/local/bin:/usr/bin:/bin"})
gid = s.call("kg_latest_graph", {"repository": "bench/scale"})["structuredContent"]["graph"]["graph_id"]
# The file's first class, paging its symbols (a long file's do not fit one answer).
args, cls = {"graph_id": gid, "path": path}, None
while cls is None:
    sc = s.call("kg_file_context", args).get("structuredContent", {})
    cls = next((x["qualified_name"] for x in sc.get("symbols", []) if x["kind"] == "class"), None)
    if not sc.get("next_cursor"):
        break
    args = {**args, "cursor": sc["next_cursor"]}
import os
sym = os.environ.get("QUERY_SYMBOL")
s.time_rows([("kg_graph_summary", "kg_graph_summary", {"graph_id": gid}),
             ("kg_file_context", "kg_file_context", {"graph_id": gid, "path": path, "line": 40}),
             ("kg_impact (path, depth 3)", "kg_impact", {"graph_id": gid, "path": path, "depth": 3}),
             ("kg_impact (class, depth 1)", "kg_impact", {"graph_id": gid, "symbol": cls, "depth": 1}),
             ("kg_graph_summary by repository", "kg_graph_summary", {"repository": "bench/scale"})]
            + ([(f"kg_impact ({sym}, depth 3)", "kg_impact", {"graph_id": gid, "symbol": sym, "depth": 3})] if sym else []),
            calls, "MCP stdio")
s.close()
EOF2
)
fi

# --- GitNexus, once ---------------------------------------------------------------------------
GN_ROW=""
if [ "${GITNEXUS:-0}" = 1 ]; then
  CW=${WORK_COMPARE:-/tmp/nexus-lite-compare}
  GNV=${GITNEXUS_VERSION:-1.6.12}
  GN_OUT=$(GITNEXUS_VERSION=$GNV bash "$HERE/nexus-lite/bench/gitnexus_install.sh" "$CW") || log "gitnexus install failed, see $CW/gitnexus-install.log"
  PATH=$(sed -n 1p <<<"$GN_OUT"):$PATH; GNBIN=$(sed -n 2p <<<"$GN_OUT")
  git -C "$TREE" reset -q --hard "$BASE_SHA"
  rm -rf "$TREE/.gitnexus" "$WORK/gn-home"; mkdir -p "$WORK/gn-home"
  if timed gitnexus env HOME="$WORK/gn-home" "$GNBIN" analyze --index-only --skip-fts "$TREE"; then
    GN_ROW="| GitNexus $GNV full (\`gitnexus analyze --index-only --skip-fts\`) | ${TIMES[gitnexus]}| ${CPU[gitnexus]}| ${RSS[gitnexus]}($(python3 -c 'import json,sys; s=json.load(open(sys.argv[1]))["stats"]; print(s["files"], "files,", s["nodes"], "nodes,", s["edges"], "edges")' "$TREE/.gitnexus/meta.json" 2>/dev/null)) |"
    # The same one-file commit as nexus-lite's incremental row, then `analyze` again.
    printf '\n\ndef scale_bench_added_gn(x):\n    return x\n' >>"$TREE/$QUERY_PATH"
    git -C "$TREE" -c user.email=bench@example.com -c user.name=bench commit -qam "one-file change gn"
    timed gitnexus_incremental env HOME="$WORK/gn-home" "$GNBIN" analyze --index-only --skip-fts "$TREE" \
      && GN_ROW+=$'\n'"| GitNexus $GNV after a one-file commit (\`analyze\` again) | ${TIMES[gitnexus_incremental]}| ${CPU[gitnexus_incremental]}| ${RSS[gitnexus_incremental]}|"
    # Its MCP server over stdio, the same questions as the kg tools above (impact upstream).
    GN_MCP_ROWS=$(HOME="$WORK/gn-home" PYTHONPATH="$HERE/nexus-lite/bench" python3 - "$GNBIN" "$TREE" "$CALLS" "$QUERY_PATH" <<'EOF3'
import sys
from mcp_stdio import Server
gn, tree, calls, path = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
s = Server([gn, "mcp"], "2025-06-18", cwd=tree)
up = {"direction": "upstream"}
cls = {"target": "BaseIterable", "file_path": path, "kind": "Class", **up}
s.time_rows([("GitNexus impact (file, depth 3)", "impact", {"target": path, "maxDepth": 3, **up}),
             ("GitNexus impact (class, depth 1)", "impact", {**cls, "maxDepth": 1}),
             ("GitNexus impact (class, depth 3)", "impact", {**cls, "maxDepth": 3}),
             ("GitNexus context (class)", "context", {"name": "BaseIterable", "file_path": path})],
            calls, "MCP stdio")
s.close()
EOF3
) || log "gitnexus mcp timing failed"
  else
    GN_ROW="| GitNexus $GNV | failed: $(tail -n 2 "$WORK/gitnexus.err" | tr '\n' ' ' | cut -c1-200) | | |"
  fi
  rm -rf "$TREE/.gitnexus"
fi

stat_of() { python3 -c 'import json,sys; t=json.load(open(sys.argv[1]))["timings"]; print(", ".join(f"{k} {round(v) if isinstance(v, float) else v}" for k, v in t.items() if k.endswith("_ms") or k.startswith("files_") or k in ("nodes", "edges")))' "$1" 2>/dev/null; }
echo "tree: $NFILES .py files, $LINES lines ($SDISTS); $(nproc) cores; $(date -u +%FT%TZ)"
echo
echo "| index | wall s, median (runs) | CPU s (user+sys), median (runs) | peak RSS MB, median (runs) |"
echo "|---|---|---|---|"
# shellcheck disable=SC2086
echo "| full (\`nexus-lite index\`, fresh data dir) | $(median ${TIMES[full]:-}) (${TIMES[full]:-}) | $(median ${CPU[full]:-}) (${CPU[full]:-}) | $(median ${RSS[full]:-}) (${RSS[full]:-}) |"
# shellcheck disable=SC2086
echo "| incremental after a one-file commit (a new process) | $(median ${TIMES[incremental]:-}) (${TIMES[incremental]:-}) | $(median ${CPU[incremental]:-}) (${CPU[incremental]:-}) | $(median ${RSS[incremental]:-}) (${RSS[incremental]:-}) |"
[ -n "$GN_ROW" ] && echo "$GN_ROW"
echo
echo "full stats: $(stat_of "$WORK/full-1.json")"
echo "incremental stats: $(stat_of "$WORK/incremental-$RUNS.json")"
echo
echo "| query (HTTP, keep-alive, $CALLS calls) | first call ms | p50 ms | p99 ms | |"
echo "|---|---|---|---|---|"
echo "$QUERIES"
[ -n "$MCP_ROWS" ] && echo "$MCP_ROWS"
[ -n "${GN_MCP_ROWS:-}" ] && echo "$GN_MCP_ROWS"
echo
echo "last in-server regeneration against a full index of the same commit: $(echo "$IDENTITY" | tail -n 1)"

# --- the previous indexer's graph --------------------------------------------------------------
# OLD_LITE=path/to/an/older/nexus-lite: its full graph of the first commit against this build's
# (node ids may be numbered differently; graph_identity.py compares what the nodes are).
if [ -n "${OLD_LITE:-}" ]; then
  git -C "$TREE" reset -q --hard "$BASE_SHA"
  rm -rf "$WORK/data-old"
  env PATH="$BASE_PATH" "$OLD_LITE" index --repo "bench/scale=$TREE" --data-dir "$WORK/data-old" >"$WORK/old.out" 2>"$WORK/old.err"
  NEW_GID=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["graph_id"])' "$WORK/full-$RUNS.json")
  OLD_GID=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["graph_id"])' "$WORK/old.out")
  echo "$OLD_LITE against this build, full graphs of the first commit: $(python3 "$HERE/nexus-lite/bench/graph_identity.py" "$WORK/data-old" "$OLD_GID" "$WORK/data" "$NEW_GID" | tail -n 1)"
fi
