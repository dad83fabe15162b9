#!/usr/bin/env bash
# Side-by-side indexing wall time: nexus-lite vs GitNexus (npm `gitnexus`) vs CodeGraphContext
# (pip `codegraphcontext`) on the same synthetic ~100k-line Python tree as nexus-lite-bench.
#
#   nexus-lite/bench/compare.sh [RUNS]          (default 3 runs per tool, medians reported)
#
# Environment: WORK (scratch dir, default /tmp/nexus-lite-compare), LINES (default 100000),
# ANALYSERS_PATH (dir holding ruff and bandit, default .venv/bin of the workspace),
# CARGO_TARGET_DIR (default: cargo's own). The other tools are installed under $WORK
# (npm prefix and a venv); nothing of theirs is committed. Every run indexes from scratch
# (fresh data dir / fresh HOME). A tool that cannot index is reported with the reason, never
# with a number. GitNexus is installed with --omit=optional: its optional onnxruntime-node
# (embeddings) downloads from api.nuget.org in postinstall, which is unreachable here.
set -u
RUNS=${1:-3}
WORK=${WORK:-/tmp/nexus-lite-compare}
LINES=${LINES:-100000}
ANALYSERS_PATH=${ANALYSERS_PATH:-$(cd "$(dirname "$0")/../.." && pwd)/.venv/bin}

HERE=$(cd "$(dirname "$0")/../.." && pwd)
export CARGO_TARGET_DIR=${CARGO_TARGET_DIR:-$HERE/target}
mkdir -p "$WORK"
BASE_PATH=/usr/local/bin:/usr/bin:/bin   # no ruff/bandit: graph build only

log() { echo "[compare] $*" >&2; }
now() { date +%s.%N; }
median() { python3 -c 'import sys,statistics; v=[float(x) for x in sys.argv[1:]]; print(f"{statistics.median(v):.2f}" if v else "n/a")' "$@"; }

(cd "$HERE" && cargo build --release -q -p nexus-lite --bins) || { log "cargo build failed"; exit 1; }
LITE=$CARGO_TARGET_DIR/release/nexus-lite
TREE=$WORK/tree
if [ ! -d "$TREE/.git" ]; then
  rm -rf "$TREE"
  "$CARGO_TARGET_DIR/release/nexus-lite-bench" --generate-only "$TREE" --lines "$LINES" >&2 || exit 1
fi
log "tree: $TREE ($(git -C "$TREE" ls-files '*.py' | wc -l) .py files, $(git -C "$TREE" ls-files -z '*.py' | (cd "$TREE" && xargs -0 cat) | wc -l) lines)"

# --- installs (npm registry and PyPI only) ---------------------------------------------------
if [ ! -x "$WORK/npm/node_modules/.bin/gitnexus" ]; then
  mkdir -p "$WORK/npm"
  (cd "$WORK/npm" && timeout 900 npm install --omit=optional --no-audit --no-fund gitnexus >"$WORK/gitnexus-install.log" 2>&1) \
    || log "gitnexus install failed, see $WORK/gitnexus-install.log"
fi
if [ ! -x "$WORK/cgc-venv/bin/cgc" ]; then
  python3 -m venv "$WORK/cgc-venv" && "$WORK/cgc-venv/bin/pip" install -q codegraphcontext \
    >"$WORK/cgc-install.log" 2>&1 || log "codegraphcontext install failed, see $WORK/cgc-install.log"
fi

declare -A TIMES NOTES
run_timed() { # name, command...
  local name=$1; shift
  local t0 t1; t0=$(now)
  if "$@" >"$WORK/$name.out" 2>&1; then
    t1=$(now); TIMES[$name]+="$(python3 -c "print(f'{$t1-$t0:.2f}')") "
    return 0
  fi
  NOTES[$name]="exit $? — $(tail -n 3 "$WORK/$name.out" | tr '\n' ' ' | cut -c1-300)"
  return 1
}

for i in $(seq 1 "$RUNS"); do
  log "run $i/$RUNS"
  rm -rf "$WORK/lite-data"
  run_timed lite_graph env PATH="$BASE_PATH" "$LITE" index --repo "bench/tree=$TREE" --data-dir "$WORK/lite-data"
  rm -rf "$WORK/lite-data"
  run_timed lite_full env PATH="$ANALYSERS_PATH:$BASE_PATH" "$LITE" index --repo "bench/tree=$TREE" --data-dir "$WORK/lite-data"
  if [ -x "$WORK/npm/node_modules/.bin/gitnexus" ]; then
    rm -rf "$TREE/.gitnexus" "$WORK/gn-home"; mkdir -p "$WORK/gn-home"
    (cd "$TREE" && run_timed gitnexus env HOME="$WORK/gn-home" "$WORK/npm/node_modules/.bin/gitnexus" analyze "$TREE")
  else
    NOTES[gitnexus]="not installed: $(grep -m1 -E 'ERR!|ENOTFOUND|error' "$WORK/gitnexus-install.log" 2>/dev/null | cut -c1-300)"
  fi
  if [ -x "$WORK/cgc-venv/bin/cgc" ]; then
    rm -rf "$WORK/cgc-home"; mkdir -p "$WORK/cgc-home"
    if (cd "$TREE" && run_timed cgc env HOME="$WORK/cgc-home" "$WORK/cgc-venv/bin/cgc" index "$TREE"); then
      files=$(cd "$TREE" && HOME="$WORK/cgc-home" "$WORK/cgc-venv/bin/cgc" stats 2>&1 | grep -E '│ Files' | grep -oE '[0-9]+' | head -1)
      if [ "${files:-0}" = "0" ]; then
        TIMES[cgc]=""
        NOTES[cgc]="exited 0 but indexed 0 files: $("$WORK/cgc-venv/bin/python" -c 'import tree_sitter_language_pack as p; p.get_parser("python")' 2>&1 | tail -n 1 | cut -c1-300)"
      fi
    fi
  fi
done

echo "| tool | command | median wall s | runs (s) |"
echo "|---|---|---|---|"
row() { # name, label, command text
  local t=${TIMES[$1]:-}
  if [ -n "$t" ]; then
    # shellcheck disable=SC2086
    echo "| $2 | \`$3\` | $(median $t) | $t|"
  else
    echo "| $2 | \`$3\` | — | could not run: ${NOTES[$1]:-no result} |"
  fi
}
row lite_graph "nexus-lite (graph only, no ruff/bandit on PATH)" "nexus-lite index --repo bench/tree=TREE --data-dir FRESH"
row lite_full "nexus-lite (graph + ruff + bandit)" "nexus-lite index --repo bench/tree=TREE --data-dir FRESH"
row gitnexus "GitNexus $(cd "$WORK/npm" 2>/dev/null && npm ls gitnexus 2>/dev/null | grep -oE 'gitnexus@[0-9.]+' | head -1)" "gitnexus analyze TREE"
row cgc "CodeGraphContext $("$WORK/cgc-venv/bin/pip" show codegraphcontext 2>/dev/null | awk '/^Version/{print $2}')" "cgc index TREE"
