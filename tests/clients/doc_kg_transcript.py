"""Serves a documentation folder with nexus-doc-kg over stdio, makes a few real calls with the
Python MCP SDK and prints a short transcript (selected fields of each answer). The README's
doc-kg transcript was produced by:

    cp -r nexus-lite/tests/fixtures/docs/backlog /tmp/backlog && git -C /tmp/backlog init -q \
        && git -C /tmp/backlog add -A && git -C /tmp/backlog commit -qm fixture
    .venv/bin/python tests/clients/doc_kg_transcript.py --binary target/debug/nexus-mcp --workspace /tmp/backlog
"""

from __future__ import annotations

import argparse
import json
import tempfile

import anyio
from mcp import Client, StdioServerParameters


async def main() -> None:
    p = argparse.ArgumentParser()
    p.add_argument("--binary", required=True)
    p.add_argument("--workspace", required=True)
    a = p.parse_args()
    server = StdioServerParameters(
        command=a.binary,
        args=["--surface", "nexus-doc-kg", "serve", "--workspace", a.workspace, "--data-dir", tempfile.mkdtemp()],
    )
    async with Client(server) as c:

        async def call(tool: str, args: dict, keep) -> None:
            r = await c.call_tool(tool, args)
            print(f"→ {tool} {json.dumps(args)}")
            if r.is_error:
                text = " ".join(getattr(x, "text", "") for x in r.content)
                try:
                    e = json.loads(text)["error"]
                    text = json.dumps({"error": {"code": e["code"], "message": e["message"]}})
                except (ValueError, KeyError, TypeError):
                    pass
                print(f"← isError {text}\n")
                return
            print(f"← {json.dumps(keep(r.structured_content))}\n")

        await call("list_tasks", {"status": "To Do"},
                   lambda d: {"items": [f"{t['id']} {t['status']}" for t in d["items"]], "total": d.get("total")})
        await call("get_task_context", {"taskId": "BILL-4", "maxDepth": 2},
                   lambda d: {k: v for k, v in d.items() if k not in ("documents", "nodes", "workspace")}
                   | {"documents": [x.get("id") for x in d.get("documents", d.get("nodes", []))]})
        await call("get_acceptance_criteria", {"taskId": "bill-3"},
                   lambda d: {"criteria": [f"[{'x' if x['checked'] else ' '}] {x['text']}" for x in d["criteria"]]})
        await call("analyze_impact", {"taskId": "bill-2"},
                   lambda d: {k: d.get(k) for k in ("totalAffected", "truncated", "criticalPaths")})
        await call("validate_traceability", {},
                   lambda d: {"healthScore": d.get("healthScore"), "counts": {k: v for k, v in d.get("counts", {}).items() if v}})
        await call("get_node", {"nodeId": "task-4"}, lambda d: {"node": {k: d["node"].get(k) for k in ("id", "path", "status")}, "aliasApplied": d["aliasApplied"], "workspace": d["workspace"]})
        await call("get_node", {"nodeId": "bil-4"}, lambda d: d)


anyio.run(main)
