#!/usr/bin/env python3
"""Counts the instructions nexus-mcp spends per tool call: `nexus-mcp serve` under valgrind
callgrind, against a Nexus given by NEXUS_API_URL / NEXUS_API_TOKEN (a standalone
`nexus-lite serve` over an indexed repository). Callgrind counts repeat to within 0.2% on a busy
machine, where wall-clock rows do not (README, "Issue 27: the per-call gap").

usage: callgrind_calls.py OUT_FILE MCP_BIN TOOL N [GRAPH_ID]
  TOOL: latest (kg_latest_graph) | summary (kg_graph_summary) | none (N is then 0)
  CG_TRANSPORT: stdio (the default) | http-session | http-stateless
    http-session: `serve --transport http`, one 2025-11-25 session (initialize, then every
      request with its Mcp-Session-Id) on one keep-alive connection;
    http-stateless: the same server, no initialize: every call a 2026-07-28 request (the
      protocol version and client capabilities in its `_meta`, the SEP-2243 headers), as
      benches/mcp_overhead.rs sends them, on one keep-alive connection.
    The HTTP server gets NEXUS_MCP_API_KEY=cg-mcp-key and listens on 127.0.0.1:$CG_PORT
    (default 18765); it is stopped with SIGINT, so callgrind writes its counts at exit.
  steady Ir per call = (Ir(TOOL, N=200) - Ir(TOOL, N=1)) / 199, each from `grep ^summary: OUT_FILE`
  GLIBC_TUNABLES=glibc.cpu.x86_rep_movsb_threshold=0x1000000 keeps glibc's memcpy off
  `rep movsb`, which valgrind counts at about one instruction per byte.
  CG_SIM=1 adds callgrind's cache and branch simulation (`--cache-sim=yes --branch-sim=yes`):
  simulated cache misses (D1mr, DLmr, ...) and mispredicted branches (Bcm, Bim) beside Ir, for
  a machine without hardware counters.
"""
import atexit, http.client, json, os, signal, subprocess, sys, threading, time

out, binary, tool, n = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
graph_id = sys.argv[5] if len(sys.argv) > 5 else None
REPO = os.environ.get("CG_REPO", "psf/requests")
TRANSPORT = os.environ.get("CG_TRANSPORT", "stdio")
PORT = int(os.environ.get("CG_PORT", "18765"))
MCP_KEY = "cg-mcp-key"
STATELESS = "2026-07-28"

serve = ["serve"]
if TRANSPORT != "stdio":
    serve = ["serve", "--transport", "http", "--listen", f"127.0.0.1:{PORT}"]
sim = ["--cache-sim=yes", "--branch-sim=yes"] if os.environ.get("CG_SIM") else []
cmd = ["valgrind", "--tool=callgrind", "--trace-children=no", *sim,
       f"--callgrind-out-file={out}", binary, *serve]
if os.environ.get("CG_NO_VALGRIND"):
    cmd = [binary, *serve]


class Stdio:
    def __init__(self):
        self.p = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                  stderr=open(out + ".stderr", "w"), bufsize=0)

    def send(self, v):
        self.p.stdin.write((json.dumps(v) + "\n").encode())
        self.p.stdin.flush()

    def answer(self, i):
        while True:
            line = self.p.stdout.readline()
            if not line:
                sys.exit(f"nexus-mcp closed stdout before answering {i}")
            v = json.loads(line)
            if v.get("id") == i:
                return v

    def request(self, v):
        self.send(v)
        return self.answer(v["id"])

    def notify(self, v):
        self.send(v)

    def close(self):
        self.p.stdin.close()
        return self.p.wait()


class Http:
    """One keep-alive connection to `serve --transport http`."""

    def __init__(self, stateless):
        self.stateless = stateless
        env = dict(os.environ, NEXUS_MCP_API_KEY=MCP_KEY)
        self.p = subprocess.Popen(cmd, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                  stderr=subprocess.PIPE, env=env)
        # A failed run must not leave the server holding the port.
        atexit.register(lambda: self.p.poll() is None and self.p.kill())
        listening = threading.Event()
        log = open(out + ".stderr", "w")

        def tee():
            for raw in self.p.stderr:
                line = raw.decode(errors="replace")
                log.write(line)
                log.flush()
                if "nexus-mcp listening on" in line:
                    listening.set()

        threading.Thread(target=tee, daemon=True).start()
        if not listening.wait(120):
            sys.exit(f"nexus-mcp did not listen within 120 s; see {out}.stderr")
        self.conn = http.client.HTTPConnection("127.0.0.1", PORT, timeout=120)
        self.headers = {"Accept": "application/json, text/event-stream",
                        "Content-Type": "application/json", "X-MCP-API-KEY": MCP_KEY}

    def post(self, v, headers):
        self.conn.request("POST", "/mcp", body=json.dumps(v), headers=headers)
        r = self.conn.getresponse()
        body = r.read().decode()
        return r, body

    def request(self, v):
        headers = dict(self.headers)
        if self.stateless:
            headers["MCP-Protocol-Version"] = STATELESS
            headers["Mcp-Method"] = v["method"]
            if v["method"] == "tools/call":
                headers["Mcp-Name"] = v["params"]["name"]
            params = dict(v.get("params") or {})
            params["_meta"] = {"io.modelcontextprotocol/protocolVersion": STATELESS,
                               "io.modelcontextprotocol/clientCapabilities": {}}
            v = dict(v, params=params)
        r, body = self.post(v, headers)
        if r.status != 200:
            sys.exit(f"HTTP {r.status} for {v['method']}: {body[:2000]}")
        if v["method"] == "initialize":
            session = r.getheader("mcp-session-id")
            self.headers["Mcp-Session-Id"] = session
        if (r.getheader("content-type") or "").startswith("text/event-stream"):
            candidates = [json.loads(l[5:].strip()) for l in body.splitlines()
                          if l.startswith("data:") and l[5:].strip()]
        else:
            candidates = [json.loads(body)]
        for c in candidates:
            if isinstance(c, dict) and c.get("id") == v["id"]:
                if v["method"] == "initialize":
                    self.headers["MCP-Protocol-Version"] = c["result"]["protocolVersion"]
                return c
        sys.exit(f"no answer with id {v['id']} in: {body[:2000]}")

    def notify(self, v):
        if self.stateless:
            return
        r, body = self.post(v, self.headers)
        if r.status >= 300:
            sys.exit(f"HTTP {r.status} for {v['method']}: {body[:2000]}")

    def close(self):
        self.conn.close()
        self.p.send_signal(signal.SIGINT)
        return self.p.wait()


if TRANSPORT == "stdio":
    s = Stdio()
elif TRANSPORT in ("http-session", "http-stateless"):
    s = Http(TRANSPORT == "http-stateless")
else:
    sys.exit(f"CG_TRANSPORT must be stdio, http-session or http-stateless, not {TRANSPORT}")

if TRANSPORT != "http-stateless":
    s.request({"jsonrpc": "2.0", "id": 1, "method": "initialize",
               "params": {"protocolVersion": "2025-11-25", "capabilities": {},
                          "clientInfo": {"name": "cg", "version": "0"}}})
    s.notify({"jsonrpc": "2.0", "method": "notifications/initialized"})
tl = s.request({"jsonrpc": "2.0", "id": 2, "method": "tools/list"})
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
    a = s.request({"jsonrpc": "2.0", "id": i, "method": "tools/call",
                   "params": {"name": name, "arguments": args}})
    r = a.get("result") or {}
    if "error" in a or r.get("isError"):
        sys.exit(f"call {i} failed: {json.dumps(a)[:2000]}")
    if first is None:
        first = a
    last = a

rc = s.close()
if first is not None:
    with open(out + ".first.json", "w") as f:
        json.dump(first, f, indent=1)
    sc = first["result"].get("structuredContent", {})
    print("graph_id:", (sc.get("graph") or {}).get("graph_id"),
          "bytes/answer:", len(json.dumps(last)))
print("exit:", rc)
