#!/usr/bin/env python3
"""Runs benches/mcp_overhead.rs RUNS times with two nexus-mcp builds in the same rounds,
swapping their slots every run, and prints per call row the median over the runs of
A − B: the paired per-call difference (ms, the bench's "median of paired differences") and the
difference in server CPU per call (µs).

usage: paired_runs.py BENCH_BIN A_BIN B_BIN RUNS
  NEXUS_LITE_BIN must be set (the backend both builds call); NEXUS_MCP_BENCH_CALLS defaults
  to 1000. Cold starts are skipped (NEXUS_MCP_BENCH_STARTS=0), so either build may take
  either slot.
"""
import os, re, statistics, subprocess, sys

bench, a, b, runs = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
BEFORE = "the build before: "
ROW = re.compile(r"^\| (.+?) \| (\d+) \|(.*)\|$")


def run(first, second):
    env = dict(os.environ, NEXUS_MCP_BENCH_BIN=first, NEXUS_MCP_BENCH_BEFORE_BIN=second,
               NEXUS_MCP_BENCH_STARTS="0")
    env.setdefault("NEXUS_MCP_BENCH_CALLS", "1000")
    out = subprocess.run([bench, "--bench"], env=env, capture_output=True, text=True, check=True)
    rows = {}
    for line in out.stdout.splitlines():
        m = ROW.match(line)
        if m:
            rows[m.group(1)] = [c.strip() for c in m.group(3).split("|")]
    return rows


def number(cell):
    return float(cell.split()[0])


diffs, cpu = {}, {}
for r in range(runs):
    a_first = r % 2 == 0
    rows = run(a, b) if a_first else run(b, a)
    sign = 1 if a_first else -1
    for name, cells in rows.items():
        if name.endswith(" − the build before"):
            # cells: median, p90, p99, median − direct, paired median, CPU
            diffs.setdefault(name[: -len(" − the build before")], []).append(sign * number(cells[4]))
        elif BEFORE in name:
            mine = name.replace(BEFORE, "")
            if mine in rows and rows[mine][5] != "—":
                delta = number(rows[mine][5]) - number(cells[5])
                cpu.setdefault(mine, []).append(sign * delta)
    print(f"run {r + 1}/{runs} done ({'A' if a_first else 'B'} first)", file=sys.stderr)

print(f"| row | A − B, paired per-call median (ms): median of {runs} runs (range) | server CPU per call, A − B (µs): median |")
print("|---|---:|---:|")
for name, d in diffs.items():
    c = cpu.get(name, [])
    print(f"| {name} | {statistics.median(d):+.4f} ({min(d):+.3f}..{max(d):+.3f}) | "
          f"{statistics.median(c):+.1f} |" if c else f"| {name} | {statistics.median(d):+.4f} | — |")
