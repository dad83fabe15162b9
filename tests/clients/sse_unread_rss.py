"""RSS of `nexus-mcp serve --transport http` under N legacy SSE sessions that never read.

Each session initializes, then gets POSTS tools/list requests posted (each answer is ~100 KB);
its event stream is never read. Prints the server's RSS before, at the end of the posting, and
after the clients have gone.

    python tests/clients/sse_unread_rss.py BIN REPO_DIR [--sessions 100] [--posts 50] [-- extra flags]
"""
import argparse
import http.client
import json
import os
import socket
import subprocess
import sys
import tempfile
import time

KEY = "rss-probe-key"


def rss_kib(pid):
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return -1


def post(port, path, body):
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    conn.request("POST", path, body=json.dumps(body),
                 headers={"Content-Type": "application/json", "Authorization": f"Bearer {KEY}"})
    status = conn.getresponse().status
    conn.close()
    return status


def open_unread(port):
    s = socket.socket()
    s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    s.connect(("127.0.0.1", port))
    s.sendall(f"GET /sse HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nAuthorization: Bearer {KEY}\r\n\r\n".encode())
    buf = b""
    while b"sessionId=" not in buf or not buf.split(b"sessionId=", 1)[1].count(b"\n"):
        buf += s.recv(1024)
    path = "/message?sessionId=" + buf.split(b"sessionId=", 1)[1].split(b"\n", 1)[0].decode().strip()
    return s, path


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("bin")
    ap.add_argument("repo")
    ap.add_argument("--sessions", type=int, default=100)
    ap.add_argument("--posts", type=int, default=50)
    ap.add_argument("extra", nargs="*")
    a = ap.parse_args()
    data = tempfile.mkdtemp()
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    env = dict(os.environ, NEXUS_MCP_API_KEY=KEY)
    env.pop("NEXUS_API_URL", None)
    server = subprocess.Popen(
        [a.bin, "serve", "--transport", "http", "--listen", f"127.0.0.1:{port}",
         "--repo", a.repo, "--data-dir", data, *a.extra],
        env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    try:
        for line in server.stderr:
            if "listening on" in line:
                break
        time.sleep(0.5)
        before = rss_kib(server.pid)
        clients, statuses = [], {}
        for _ in range(a.sessions):
            s, path = open_unread(port)
            clients.append(s)
            post(port, path, {"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
                "protocolVersion": "2024-11-05", "capabilities": {},
                "clientInfo": {"name": "rss", "version": "1"}}})
            post(port, path, {"jsonrpc": "2.0", "method": "notifications/initialized"})
            for i in range(a.posts):
                st = post(port, path, {"jsonrpc": "2.0", "id": i + 1, "method": "tools/list"})
                statuses[st] = statuses.get(st, 0) + 1
        time.sleep(3)
        loaded = rss_kib(server.pid)
        for s in clients:
            s.close()
        time.sleep(3)
        after = rss_kib(server.pid)
        print(json.dumps({"sessions": a.sessions, "posts_each": a.posts, "post_statuses": statuses,
                          "rss_kib": {"before": before, "loaded": loaded, "after_clients_left": after}}))
    finally:
        server.kill()
        server.wait()


if __name__ == "__main__":
    sys.exit(main())
