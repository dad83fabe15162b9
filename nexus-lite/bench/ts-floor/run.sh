#!/usr/bin/env bash
# tree-sitter's Python parse alone, in C, built by other compilers and flags: the part of a full
# index no change of ours can make cheaper. Parses every .py file of a git repository (read into
# memory first) with each build, ROUNDS times, alternating; prints ms per round.
#   nexus-lite/bench/ts-floor/run.sh REPO [ROUNDS]
# Builds (the tree-sitter and tree-sitter-python sources of Cargo.lock, from cargo's registry):
#   cc     gcc -O3 with the flags the cc crate passes in the release profile (frame pointers);
#   nofp   the same without frame pointers;   clang  clang -O3, when installed;
#   pgo    gcc -O3 -fprofile-use, trained by one parse of REPO itself (an upper bound).
set -euo pipefail
repo=$1; rounds=${2:-3}
here=$(cd "$(dirname "$0")" && pwd)
work=${WORK:-/tmp/nexus-ts-floor}; mkdir -p "$work"; cd "$work"
reg=$(ls -d ~/.cargo/registry/src/*/ | head -1)
ver() { grep -A1 "^name = \"$1\"$" "$here/../../../Cargo.lock" | sed -n 's/version = "\(.*\)"/\1/p'; }
ts=$reg/tree-sitter-$(ver tree-sitter); py=$reg/tree-sitter-python-$(ver tree-sitter-python)
git -C "$repo" ls-files -z '*.py' | xargs -0 -I{} echo "$repo/{}" > files.txt
build() { # NAME CC FLAGS...
  local name=$1 cc=$2; shift 2
  $cc "$@" -std=c11 -w -I"$ts/include" -I"$ts/src" -D_POSIX_C_SOURCE=200112L -D_DEFAULT_SOURCE -c "$ts/src/lib.c" -o "$name-lib.o"
  $cc "$@" -std=c11 -w -I"$py/src" -c "$py/src/parser.c" -o "$name-parser.o"
  $cc "$@" -std=c11 -w -I"$py/src" -c "$py/src/scanner.c" -o "$name-scanner.o"
  $cc "$@" -I"$ts/include" "$here/parse.c" "$name-lib.o" "$name-parser.o" "$name-scanner.o" -o "$name"
}
common=(-O3 -fPIC -fvisibility=hidden -ffunction-sections -fdata-sections)
build cc gcc "${common[@]}" -g -fno-omit-frame-pointer -mno-omit-leaf-frame-pointer
build nofp gcc "${common[@]}"
builds=(cc nofp)
if command -v clang >/dev/null; then build clang clang "${common[@]}" -fno-omit-frame-pointer; builds+=(clang); fi
rm -f pgo-*.gcda
build pgo gcc "${common[@]}" -fprofile-generate -fprofile-update=single && ./pgo files.txt 1 >/dev/null
build pgo gcc "${common[@]}" -fprofile-use -Wno-missing-profile; builds+=(pgo)
for r in $(seq 1 "$rounds"); do
  for b in "${builds[@]}"; do echo "$b $(./"$b" files.txt 1)"; done
done
