#!/usr/bin/env bash
# Rust references (rust-analyzer) vs nexus-lite's calls/inherits edges, on the sources a crate
# publishes on crates.io (its package made a git repository).
#   bench/rust-refs/run.sh CRATE@VERSION LABEL=NEXUS_LITE_BINARY ...
# e.g. run.sh semver@1.0.28 new=target/release/nexus-lite
# RUST_ANALYZER: the rust-analyzer binary (default: on PATH). rustup's component needs
# static.rust-lang.org; crates.io has it as a package:
#   cargo +nightly install ra_ap_rust-analyzer --version 0.0.349 --locked --root DIR
# Only crates.io is used (the crate and its dependencies). WORK: scratch dir.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
crate=${1%@*}; version=${1#*@}; shift
work=${WORK:-/tmp/nexus-rust-refs}
rm -rf "$work/fetch" "$work/repo" && mkdir -p "$work/fetch/src"
printf '[package]\nname = "fetch"\nversion = "0.0.0"\nedition = "2021"\n[dependencies]\n%s = "=%s"\n' \
  "$crate" "$version" > "$work/fetch/Cargo.toml"
touch "$work/fetch/src/lib.rs"
src=$(cd "$work/fetch" && cargo metadata --format-version 1 | python3 -c '
import json, os, sys
m = json.load(sys.stdin)
print(next(os.path.dirname(p["manifest_path"]) for p in m["packages"] if p["name"] == sys.argv[1]))' "$crate")
cp -a "$src" "$work/repo"
git -C "$work/repo" init -q -b main && git -C "$work/repo" add -A
git -C "$work/repo" -c user.name=bench -c user.email=bench@localhost commit -qm "$crate $version"
echo /target >> "$work/repo/.git/info/exclude"
python3 "$here/refs.py" "${RUST_ANALYZER:-rust-analyzer}" "$work/repo" > "$work/refs.jsonl"
mapfile -t graphs < <("$here/../index_graphs.sh" "$work" "$work/repo" "$@")
python3 "$here/../ts-refs/compare.py" "$work/refs.jsonl" "${graphs[@]}"
