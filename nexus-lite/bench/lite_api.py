"""nexus-lite's HTTP API as the benches drive it: one keep-alive connection with the bearer
token, JSON in and out, and a regeneration (dry-run plan, submit, poll until it is over); and
what a run reports in its data directory. Used by scale.sh, retention.sh and edit_fuzz.py."""

import http.client
import json
import sqlite3
import time


class Api:
    def __init__(self, port, token, timeout=20.0):
        """Connects to 127.0.0.1:`port`, retrying for `timeout` seconds while the server starts."""
        self.headers = {"Authorization": f"Bearer {token}"}
        deadline = time.monotonic() + timeout
        while True:
            try:
                self.conn = http.client.HTTPConnection("127.0.0.1", port)
                self.conn.connect()
                return
            except OSError:
                if time.monotonic() > deadline:
                    raise SystemExit(f"nothing answers on 127.0.0.1:{port}") from None
                time.sleep(0.05)

    def request(self, method, path, body=None):
        """The answer's bytes, unparsed (a timed call times the exchange alone); exits on an
        error status."""
        headers = dict(self.headers)
        if body is not None:
            headers["Content-Type"] = "application/json"
            body = json.dumps(body)
        self.conn.request(method, path, body=body, headers=headers)
        r = self.conn.getresponse()
        raw = r.read()
        if r.status >= 300:
            raise SystemExit(f"{method} {path}: {r.status} {raw[:300]!r}")
        return raw

    def call(self, method, path, body=None):
        return json.loads(self.request(method, path, body))

    def regenerate(self, repository):
        """Plans and submits a regeneration of `repository`'s checkout, then waits until it is
        ready. Returns when it was submitted (`time.perf_counter()`), so a caller can time the
        run apart from the plan."""
        plan = self.call("POST", "/api/v1/regenerations/plan", {"repository": repository})
        submit = {"plan_id": plan["plan_id"], "allow_dirty": False}
        run = self.call("POST", "/api/v1/regenerations", submit)
        submitted = time.perf_counter()
        while True:
            st = self.call("GET", f"/api/v1/regenerations/{run['regeneration_id']}")
            if st["status"] != "running":
                break
            time.sleep(0.005)
        if st["status"] != "ready":
            raise SystemExit(f"regeneration of {repository}: {st}")
        return submitted


def parts_linked(data):
    """How many parts the newest graph's run linked (its files plus the graph's own)."""
    db = sqlite3.connect(f"file:{data}/nexus-lite.sqlite3?mode=ro", uri=True)
    (stats,) = db.execute(
        "SELECT stats FROM graphs WHERE status='ready' ORDER BY gpk DESC LIMIT 1"
    ).fetchone()
    db.close()
    return json.loads(stats).get("parts_linked")
