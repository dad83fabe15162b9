#!/usr/bin/env python3
"""Counts the instructions nexus-mcp spends per tool call: `nexus-mcp serve` (stdio) under
valgrind callgrind, against a Nexus given by NEXUS_API_URL / NEXUS_API_TOKEN (a standalone
`nexus-lite serve` over an indexed repository). Callgrind counts repeat to within 0.2% on a busy
machine, where wall-clock rows do not (README, "Issue 27: the per-call gap").

usage: callgrind_calls.py OUT_FILE MCP_BIN TOOL N [GRAPH_ID]
  TOOL: latest (kg_latest_graph) | summary (kg_graph_summary) | none (N is then 0)
  steady Ir per call = (Ir(TOOL, N=200) - Ir(TOOL, N=1)) / 199, each from `grep ^summary: OUT_FILE`
  GLIBC_TUNABLES=glibc.cpu.x86_rep_movsb_threshold=0x1000000 keeps glibc's memcpy off
  `rep movsb`, which valgrind counts at about one instruction per byte.
"""
import json, os, subprocess, sys, time

out, binary, tool, n = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
graph_id = sys.argv[5] if len(sys.argv) > 5 else None
REPO = os.environ.get("CG_REPO", "psf/requests")

cmd = ["valgrind", "--tool=callgrind", "--trace-children=no",
       f"--callgrind-out-file={out}", binary, "serve"]
if os.environ.get("CG_NO_VALGRIND"):
    cmd = [binary, "serve"]
p = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                     stderr=open(out + ".stderr", "w"), bufsize=0)


def send(v):
    p.stdin.write((json.dumps(v) + "\n").encode())
    p.stdin.flush()


def answer(i):
    while True:
        line = p.stdout.readline()
        if not line:
            sys.exit(f"nexus-mcp closed stdout before answering {i}")
        v = json.loads(line)
        if v.get("id") == i:
            return v


send({"jsonrpc": "2.0", "id": 1, "method": "initialize",
      "params": {"protocolVersion": "2025-11-25", "capabilities": {},
                 "clientInfo": {"name": "cg", "version": "0"}}})
answer(1)
send({"jsonrpc": "2.0", "method": "notifications/initialized"})
send({"jsonrpc": "2.0", "id": 2, "method": "tools/list"})
tl = answer(2)
names = [t["name"] for t in tl["result"]["tools"]]
assert "kg_latest_graph" in names and "kg_graph_summary" in names, names
# Let start-up work that runs in the background (the reqwest client with the native certs is
# built on a thread of its own at start) finish, so every run, N=0 included, contains it.
time.sleep(float(os.environ.get("CG_SETTLE", "5")))

if tool == "latest":
    name, args = "kg_latest_graph", {"repository": REPO, "branch": "main"}
elif tool == "summary":
    name, args = "kg_graph_summary", {"graph_id": graph_id}
else:
    name, args = None, None

first = last = None
for k in range(n):
    i = 10 + k
    send({"jsonrpc": "2.0", "id": i, "method": "tools/call",
          "params": {"name": name, "arguments": args}})
    a = answer(i)
    r = a.get("result") or {}
    if "error" in a or r.get("isError"):
        sys.exit(f"call {i} failed: {json.dumps(a)[:2000]}")
    if first is None:
        first = a
    last = a

p.stdin.close()
rc = p.wait()
if first is not None:
    with open(out + ".first.json", "w") as f:
        json.dump(first, f, indent=1)
    sc = first["result"].get("structuredContent", {})
    print("graph_id:", (sc.get("graph") or {}).get("graph_id"),
          "bytes/answer:", len(json.dumps(last)))
print("exit:", rc)
