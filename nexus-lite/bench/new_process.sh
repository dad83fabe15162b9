#!/usr/bin/env bash
# A new process after a one-file commit, side by side: `nexus-lite index` of two binaries on the
# scale tree, each on a data directory of its own that already holds the previous commit's
# graph (what the local daemon starting again after its idle exit, or a CI `index`, faces).
# Each round commits one change, then runs both binaries in alternating order. Reports per
# binary the median and max wall time and the median of each phase the run reports; the full
# indexes that make the two data directories (FULL of each, alternating) are reported too.
#
#   OLD=path/to/nexus-lite NEW=path/to/nexus-lite nexus-lite/bench/new_process.sh [ROUNDS]
#
# Environment: ROUNDS (default 6), FULL (default 3), WORK, SDISTS and QUERY_PATH as in scale.sh (the tree is
# shared with it). Graph only: no ruff/bandit on PATH.
set -u
ROUNDS=${1:-${ROUNDS:-6}}
FULL=${FULL:-3}
HERE=$(cd "$(dirname "$0")/../.." && pwd)
log() { echo "[new-process] $*" >&2; }
: "${OLD:?OLD=an nexus-lite binary}" "${NEW:?NEW=an nexus-lite binary}"
# shellcheck source=nexus-lite/bench/scale-tree.sh
. "$HERE/nexus-lite/bench/scale-tree.sh"
git -C "$TREE" reset -q --hard "$(git -C "$TREE" rev-list --max-parents=0 HEAD)"
# Files as a checkout leaves them: old enough for a read to be kept (git's racy-clean rule).
git -C "$TREE" ls-files -z | (cd "$TREE" && xargs -0 touch -m -d '2020-01-01 00:00:00')

index() { # NAME BIN -> one JSON line: wall ms and the run's stats
  local name=$1 bin=$2 t0 t1
  t0=$(date +%s%N)
  env PATH="$BASE_PATH" "$bin" index --repo "bench/scale=$TREE" --data-dir "$WORK/np-$name" \
    >"$WORK/np-$name.json" 2>"$WORK/np-$name.err" || { log "$name failed: $(tail -n 3 "$WORK/np-$name.err")"; exit 1; }
  t1=$(date +%s%N)
  python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(json.dumps({"name": sys.argv[2], "wall_ms": int(sys.argv[3]) / 1e6, **d["timings"]}))' \
    "$WORK/np-$name.json" "$name" "$((t1 - t0))"
}
: >"$WORK/np-full.jsonl"
for i in $(seq 1 "$FULL"); do
  if [ $((i % 2)) = 1 ]; then order="old new"; else order="new old"; fi
  for name in $order; do
    if [ "$name" = old ]; then bin=$OLD; else bin=$NEW; fi
    rm -rf "$WORK/np-$name"
    index "$name" "$bin" >>"$WORK/np-full.jsonl"
  done
  log "full index $i/$FULL"
done
: >"$WORK/np-rounds.jsonl"
for i in $(seq 1 "$ROUNDS"); do
  printf '\n\ndef new_process_bench_%s(x):\n    return x + %s\n' "$i" "$i" >>"$TREE/$QUERY_PATH"
  git -C "$TREE" -c user.email=bench@example.com -c user.name=bench commit -qam "new process $i"
  if [ $((i % 2)) = 1 ]; then order="old new"; else order="new old"; fi
  for name in $order; do
    if [ "$name" = old ]; then bin=$OLD; else bin=$NEW; fi
    index "$name" "$bin" >>"$WORK/np-rounds.jsonl"
  done
  log "round $i/$ROUNDS"
done
python3 - "$WORK/np-full.jsonl" "$WORK/np-rounds.jsonl" <<'EOF'
import json, statistics, sys
keys = ["wall_ms", "read_ms", "load_ms", "parse_ms", "plan_ms", "link_ms", "write_ms", "caches_ms", "checkpoint_ms", "files_unread"]
for title, path in [("full index, fresh data directory", sys.argv[1]), ("`index` after a one-file commit, new process", sys.argv[2])]:
    rows = [json.loads(l) for l in open(path)]
    by = {n: [r for r in rows if r["name"] == n] for n in ("old", "new")}
    print(f"| {title}, {len(by['old'])} runs each (median) | old | new |")
    print("|---|---|---|")
    for k in keys:
        cell = lambda n: f"{statistics.median(r[k] for r in by[n] if k in r):.0f}" if any(k in r for r in by[n]) else "n/a"
        print(f"| {k} | {cell('old')} | {cell('new')} |")
    print(f"| wall_ms, max | {max(r['wall_ms'] for r in by['old']):.0f} | {max(r['wall_ms'] for r in by['new']):.0f} |")
    print()
EOF
