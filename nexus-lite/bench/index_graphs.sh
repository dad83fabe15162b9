#!/usr/bin/env bash
# Indexes REPO once per LABEL=NEXUS_LITE_BINARY into WORK/data-LABEL and prints LABEL=DATABASE,
# one line each (what ts-refs/compare.py takes).
#   index_graphs.sh WORK REPO LABEL=NEXUS_LITE_BINARY ...
set -euo pipefail
work=$1; repo=$2; shift 2
for spec in "$@"; do
  label=${spec%%=*}; bin=${spec#*=}
  rm -rf "$work/data-$label"
  "$bin" index --repo "$repo" --data-dir "$work/data-$label" >/dev/null 2>&1
  echo "$label=$work/data-$label/nexus-lite.sqlite3"
done
