#!/usr/bin/env python3
"""Writes the order in which the release build links nexus-mcp's functions (build.rs passes it
to rust-lld as --symbol-ordering-file): the functions of BINARY that callgrind counted, most
instructions first, summed over the given runs (start-up's too: the first at the top are
rustls reading the system's root certificates once). Placed together, the code a tool call runs
shares pages and cache lines; side by side this cut 6–22 µs of server CPU per call (README,
"Issue 27: code layout").

usage: hot_symbols.py BINARY CALLGRIND_OUT... > benches/hot-symbols.txt
  Each CALLGRIND_OUT from benches/callgrind_calls.py run with VALGRIND_OPTS=--demangle=no on
  BINARY, a release build (fat LTO: symbol names carry the release profile's crate hashes).
"""
import collections, re, subprocess, sys

binary, outs = sys.argv[1], sys.argv[2:]
LINE = re.compile(r"^\s*([\d,]+)\s+\([^)]*\)\s+\S*?:(\S+)\s+\[(.+)\]\s*$")
total = collections.Counter()
for out in outs:
    annotated = subprocess.run(["callgrind_annotate", "--inclusive=no", "--threshold=100", out],
                               capture_output=True, text=True, check=True).stdout
    for line in annotated.splitlines():
        m = LINE.match(line)
        # `f'2` is callgrind's name for a recursive call of f; `0x…`, code without a symbol.
        name = re.sub(r"'\d+$", "", m.group(2)) if m else ""
        if m and m.group(3) == binary and not name.startswith("0x"):
            total[name] += int(m.group(1).replace(",", ""))
for name, _ in total.most_common():
    print(name)
