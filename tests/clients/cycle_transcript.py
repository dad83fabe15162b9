"""Walks the spec's cycle over stdio with the Python MCP SDK and prints a short transcript of the
real calls (selected fields of each answer). The README's transcript was produced by:

    .venv/bin/python tests/clients/cycle_transcript.py --binary target/debug/nexus-mcp --repo /tmp/demo/shop

on a repository whose shop/hashing.py uses hashlib.sha1 at line 5. It edits that file (sha1 ->
sha256) and commits, as the agent would after reading the code.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import tempfile

import anyio
from mcp import Client, StdioServerParameters


def show(tool: str, args: dict, answer: dict, keep) -> None:
    print(f"→ {tool} {json.dumps(args)}")
    print(f"← {json.dumps(keep(answer))}\n")


async def main() -> None:
    p = argparse.ArgumentParser()
    p.add_argument("--binary", required=True)
    p.add_argument("--repo", required=True)
    a = p.parse_args()
    data = tempfile.mkdtemp()
    server = StdioServerParameters(
        command=a.binary,
        args=["serve", "--repo", f"acme/shop={a.repo}", "--data-dir", data, "--scopes", "kg:read,kg:local,kg:regenerate"],
    )
    async with Client(server) as c:

        async def call(tool: str, args: dict, keep) -> dict:
            r = await c.call_tool(tool, args)
            if r.is_error:
                text = " ".join(getattr(x, "text", "") for x in r.content)
                print(f"→ {tool} {json.dumps(args)}\n← isError {text}\n")
                return {}
            show(tool, args, r.structured_content, keep)
            return r.structured_content

        g = await call("kg_latest_graph", {"repository": "acme/shop", "branch": "main"},
                       lambda d: {"graph": {k: d["graph"][k] for k in ("graph_id", "commit_sha")}, "freshness": {"verdict": d["freshness"]["verdict"]}})
        gid = g["graph"]["graph_id"]
        await call("kg_graph_summary", {"graph_id": gid},
                   lambda d: {"findings_by_severity": d["findings_by_severity"], "analysers": [f"{x['tool']}:{x['status']}" for x in d["analysers"]]})
        await call("kg_list_audit_risks", {"graph_id": gid},
                   lambda d: {"items": [{k: i.get(k) for k in ("source_tool", "finding_type", "path", "line", "rank", "rank_reason")} for i in d["items"]], "total": d["total"]})
        proof = {"graph_id": gid, "source_tool": "bandit", "finding_type": "bandit_b324_hashlib", "path": "shop/hashing.py", "line": 5}
        await call("kg_get_audit_risk", proof,
                   lambda d: {"status": d["status"], "recommended_reads": [r["path"] for r in d["recommended_reads"]], "recommended_commands": d["recommended_commands"], "impact": {k: d["impact"][k] for k in ("total", "completeness", "risk")}})
        local = {"graph_id": gid, "local_path": a.repo}
        await call("kg_compare_with_local_git", local, lambda d: {"verdict": d["verdict"], "commits_between": d["commits_between"]})
        path = f"{a.repo}/shop/hashing.py"
        with open(path) as f:
            code = f.read()
        with open(path, "w") as f:
            f.write(code.replace("hashlib.sha1(", "hashlib.sha256("))
        subprocess.run(["git", "-C", a.repo, "-c", "user.name=agent", "-c", "user.email=a@a", "commit", "-qam", "Use SHA-256 for digests"], check=True)
        print("   (agent reads shop/hashing.py, replaces sha1 with sha256, runs the tests, commits)\n")
        await call("kg_compare_with_local_git", local, lambda d: {"verdict": d["verdict"], "files_with_findings_touched": d["files_with_findings_touched"]})
        plan = await call("kg_regenerate_dry_run", {"repository": "acme/shop", "branch": "main"},
                          lambda d: {"plan": {k: d["plan"][k] for k in ("plan_id", "changed_files", "worktree_dirty")}})
        pid = plan["plan"]["plan_id"]
        await call("kg_regenerate_submit", {"plan_id": pid}, lambda d: d)
        await call("kg_regenerate_submit", {"plan_id": pid, "confirmed_by_sr": True},
                   lambda d: {"regeneration": {"status": d["regeneration"]["status"]}, "comparison": {"findings": {"counts": d["comparison"]["findings"]["counts"], "items": [{k: i.get(k) for k in ("finding_type", "path", "line", "baseline_state")} for i in d["comparison"]["findings"]["items"]]}}})


anyio.run(main)
