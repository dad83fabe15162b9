"""A minimal MCP client over stdio for the benches: start a server, call tools, time them.

Used by scale.sh for nexus-mcp and for GitNexus alike, so both are timed the same way.
"""
import json
import statistics
import subprocess
import time


class Server:
    def __init__(self, cmd, protocol, cwd=None, env=None):
        self.p = subprocess.Popen(cmd, cwd=cwd, env=env, stdin=subprocess.PIPE,
                                  stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                                  text=True, bufsize=1)
        self.n = 0
        self.rpc("initialize", {"protocolVersion": protocol, "capabilities": {},
                                "clientInfo": {"name": "scale", "version": "0"}})
        self.send({"jsonrpc": "2.0", "method": "notifications/initialized"})

    def send(self, msg):
        self.p.stdin.write(json.dumps(msg) + "\n")
        self.p.stdin.flush()

    def rpc(self, method, params):
        self.n += 1
        self.send({"jsonrpc": "2.0", "id": self.n, "method": method, "params": params})
        while True:
            v = json.loads(self.p.stdout.readline())
            if v.get("id") == self.n:
                return v

    def call(self, tool, args):
        """The tool's result; a JSON-RPC error or an isError result ends the bench."""
        v = self.rpc("tools/call", {"name": tool, "arguments": args})
        if "error" in v or v["result"].get("isError"):
            raise SystemExit(f"{tool}: {json.dumps(v)[:300]}")
        return v["result"]

    def time_rows(self, rows, calls, suffix):
        """One markdown row per (label, tool, args): first call, then p50 / p99 of `calls`."""
        for label, tool, args in rows:
            def one():
                t = time.perf_counter()
                result = self.call(tool, args)
                return (time.perf_counter() - t) * 1000, result
            first, result = one()
            ts = sorted(one()[0] for _ in range(calls))
            p99 = ts[min(len(ts) - 1, int(round(0.99 * len(ts))) - 1)]
            size = len(json.dumps(result))
            print(f"| {label} ({suffix}) | {first:.1f} | {statistics.median(ts):.2f} | {p99:.2f} | {size} bytes |")

    def close(self):
        self.p.stdin.close()
        self.p.wait(timeout=30)
