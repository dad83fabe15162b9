#!/usr/bin/env bash
# TypeScript references (TypeScript's language service) vs nexus-lite's calls/inherits edges,
# alone and settled by go-to-definition where they disagree,
# on the TS sources an npm package ships (its package.json and src/ made a git repository).
#   bench/ts-refs/run.sh PACKAGE@VERSION LABEL=NEXUS_LITE_BINARY ...
# e.g. run.sh zod@3.25.76 main=/work/main/target/release/nexus-lite new=target/release/nexus-lite
# Only the npm registry is used (typescript and the package). WORK: scratch dir.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
pkg=$1; shift
work=${WORK:-/tmp/nexus-ts-refs}
mkdir -p "$work/npm" && cd "$work/npm"
[ -f package.json ] || npm init -y >/dev/null
npm install --no-audit --no-fund "typescript@${TS_VERSION:-5.9.3}" "$pkg" >/dev/null
name=${pkg%@*}
rm -rf "$work/repo" && mkdir -p "$work/repo" && cp -a "node_modules/$name/src" "$work/repo/src"
cp "node_modules/$name/package.json" "$work/repo/"
git -C "$work/repo" init -q -b main && git -C "$work/repo" add -A
git -C "$work/repo" -c user.name=bench -c user.email=bench@localhost commit -qm "$pkg"
# The package's dependencies, where TypeScript looks for them (untracked: not indexed).
ln -s ../npm/node_modules "$work/repo/node_modules"
echo /node_modules >> "$work/repo/.git/info/exclude"
node "$here/refs.js" "$work/npm/node_modules/typescript" "$work/repo" > "$work/refs.jsonl"
mapfile -t graphs < <("$here/../index_graphs.sh" "$work" "$work/repo" "$@")
# Where a graph and the references disagree, go-to-definition settles it (goto.js).
python3 "$here/compare.py" --disputes "$work/disputes.jsonl" "$work/refs.jsonl" "${graphs[@]}"
node "$here/goto.js" "$work/npm/node_modules/typescript" "$work/repo" "$work/disputes.jsonl" > "$work/goto.jsonl"
python3 "$here/compare.py" --goto "$work/goto.jsonl" "$work/refs.jsonl" "${graphs[@]}"
