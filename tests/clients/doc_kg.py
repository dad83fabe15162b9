"""Drives nexus-doc-kg (`nexus-mcp --surface nexus-doc-kg`) with the official Python MCP SDK over
stdio or Streamable HTTP, on copies of nexus-lite's three fixture folders
(nexus-lite/tests/fixtures/docs/{backlog,kep,plain}), each a git repository. Run by
tests/doc_kg.rs; by hand:

    .venv/bin/python tests/clients/doc_kg.py stdio --binary target/debug/nexus-mcp \
        --backlog /tmp/copy/backlog --data-dir /tmp/d
    NEXUS_MCP_TEST_KEY=k .venv/bin/python tests/clients/doc_kg.py http --url http://127.0.0.1:PORT/mcp \
        --backlog /tmp/copy/backlog

stdio serves the backlog folder alone (no `workspace` argument needed); HTTP serves the three
folders as workspaces `backlog`, `kep` and `plain`. Both runs edit the backlog copy to add a
dependency cycle and check that the next call reports it. Exits 0 when every expectation holds;
otherwise prints `FAILED: ...` and exits 1.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import sys

from mcp import Client, MCPError, StdioServerParameters
from mcp.client.streamable_http import streamable_http_client
from mcp.shared._httpx_utils import create_mcp_http_client
from mcp.types import PromptReference, ResourceTemplateReference

from harness import Failed, expect, run, text_of

TOOLS = {
    "get_task_context",
    "get_dependency_graph",
    "validate_traceability",
    "list_tasks",
    "get_acceptance_criteria",
    "analyze_impact",
    "get_node",
    "search_nodes",
}





def error_of(result) -> dict:
    expect(result.is_error, f"expected an isError result, got {text_of(result)[:400]}")
    return json.loads(text_of(result))["error"]


def ids(items) -> list[str]:
    return [i["id"] for i in items]


class Session:
    def __init__(self, client: Client, workspace: str | None):
        self.client = client
        self.workspace = workspace

    def args(self, args: dict, workspace: str | None = None) -> dict:
        ws = workspace or self.workspace
        return {**args, "workspace": ws} if ws else args

    async def ok(self, tool: str, args: dict, workspace: str | None = None) -> dict:
        result = await self.client.call_tool(tool, self.args(args, workspace))
        expect(not result.is_error, f"{tool} {args} failed: {text_of(result)[:600]}")
        return result.structured_content

    async def err(self, tool: str, args: dict, workspace: str | None = None) -> dict:
        result = await self.client.call_tool(tool, self.args(args, workspace))
        return error_of(result)


async def check_surface(client: Client) -> None:
    tools = (await client.list_tools()).tools
    names = {t.name for t in tools}
    expect(names == TOOLS, f"tools/list shows {sorted(names)}, expected the 8 doc-kg tools")
    for t in tools:
        expect(t.annotations and t.annotations.read_only_hint, f"{t.name} is not read-only")
        expect("workspace" in t.input_schema["properties"], f"{t.name} takes no `workspace`")
    ctx = next(t for t in tools if t.name == "get_task_context")
    expect(ctx.input_schema["properties"]["maxDepth"].get("default") == 5, "maxDepth default is not 5")
    print("  tools/list: the 8 doc-kg tools, read-only, camelCase inputs, no kg_* tool")


async def check_backlog(s: Session, backlog: str) -> None:
    # list_tasks: every task once, the gitignored scratch file never, pages joined.
    full = await s.ok("list_tasks", {"limit": 200})
    every = ids(full["items"])
    for want in ["BILL-2", "BILL-3", "BILL-3.1", "BILL-3.2", "BILL-4", "BILL-5", "BILL-8"]:
        expect(want in every, f"list_tasks misses {want}: {every}")
    expect("BILL-999" not in every, f"the .gitignored scratch note was indexed: {every}")
    ws = full.get("workspace") or {}
    expect(re.fullmatch(r"[0-9a-f]{40}", ws.get("commitSha") or ""), f"no commit in {ws}")
    expect(ws.get("dirty") is False, f"a clean copy is not reported clean: {ws}")
    paged, cursor, pages = [], None, 0
    while True:
        page = await s.ok("list_tasks", {"limit": 3, **({"cursor": cursor} if cursor else {})})
        paged += ids(page["items"])
        pages += 1
        cursor = page.get("nextCursor")
        expect(pages < 50, "list_tasks pages never end")
        if not cursor:
            break
    expect(paged == every and pages > 1, f"pages of 3 gave {paged} in {pages} pages, the full list {every}")
    todo = await s.ok("list_tasks", {"status": "To Do", "limit": 200})
    expect(todo["items"] and all(i["status"] == "To Do" for i in todo["items"]), f"status filter: {todo['items']}")
    expect("BILL-2" not in ids(todo["items"]), "BILL-2 is In Progress, not To Do")
    print(f"  list_tasks: {len(every)} nodes, {pages} pages of 3 join to the full list, status filter, commit {ws['commitSha'][:8]}")

    # get_task_context: the task first, then its upstream dependencies (task-1 and bill-01 are BILL-1).
    ctx = await s.ok("get_task_context", {"taskId": "bill-3"})
    got = ids(ctx["nodes"])
    expect(got[0] == "BILL-3" and "BILL-2" in got and "BILL-1" in got, f"context of BILL-3: {got}")
    depths = [n["depth"] for n in ctx["nodes"]]
    expect(depths == sorted(depths), f"context not nearest first: {depths}")
    expect("Idempotency-Key" in ctx["nodes"][0]["markdown"], "BILL-3's Markdown is missing")
    shallow = await s.ok("get_task_context", {"taskId": "BILL-3", "maxDepth": 1})
    expect("BILL-1" not in ids(shallow["nodes"]) or 1 in [n["depth"] for n in shallow["nodes"] if n["id"] == "BILL-1"],
           f"maxDepth 1 reached {ids(shallow['nodes'])}")
    print(f"  get_task_context BILL-3: {got} nearest first; maxDepth bounds it")

    # Unknown and ambiguous ids.
    e = await s.err("get_task_context", {"taskId": "BILL-33"})
    expect(e["code"] == "TASK_NOT_FOUND", f"unknown task: {e}")
    expect("BILL-3" in json.dumps(e), f"TASK_NOT_FOUND names no near match: {e}")
    e = await s.err("get_node", {"nodeId": "BILL-77"})
    expect(e["code"] == "NODE_NOT_FOUND", f"unknown node: {e}")
    e = await s.err("get_task_context", {"taskId": "BILL-7"})
    expect(e["code"] == "AMBIGUOUS", f"the archived duplicate BILL-7: {e}")
    blob = json.dumps(e)
    expect("archive" in blob and "tasks/bill-7" in blob, f"AMBIGUOUS lists no candidates with paths: {e}")
    e = await s.err("analyze_impact", {"taskId": "BILL-7"})
    expect(e["code"] == "AMBIGUOUS", f"analyze_impact on BILL-7: {e}")
    print("  BILL-33 -> TASK_NOT_FOUND naming BILL-3; BILL-77 -> NODE_NOT_FOUND; BILL-7 -> AMBIGUOUS with both paths")

    # Acceptance criteria: [x] true, [ ] false, [~] null with its mark; groups; outside checkboxes ignored.
    ac = await s.ok("get_acceptance_criteria", {"taskId": "BILL-2"})
    crit = ac["criteria"]
    expect([c["checked"] for c in crit] == [True, False, None], f"BILL-2 criteria: {crit}")
    expect(crit[2].get("mark") == "~", f"[~] mark lost: {crit[2]}")
    expect(all(c.get("sourcePath") and "bill-2" in c["sourcePath"] for c in crit), f"sourcePath: {crit}")
    ac5 = (await s.ok("get_acceptance_criteria", {"taskId": "BILL-5"}))["criteria"]
    texts = " | ".join(c["text"] for c in ac5)
    expect(len(ac5) == 4 and "outside the section" not in texts and "TODO" not in texts, f"BILL-5 criteria: {texts}")
    expect({c.get("mark") for c in ac5} >= {"-", "~"}, f"BILL-5 marks: {[c.get('mark') for c in ac5]}")
    ac7 = await s.err("get_acceptance_criteria", {"taskId": "BILL-7"})
    expect(ac7["code"] == "AMBIGUOUS", f"criteria of BILL-7: {ac7}")
    print("  get_acceptance_criteria: BILL-2 checked [true, false, null(~)]; BILL-5 4 items in groups, outside boxes ignored")

    # Impact and the dependency graph.
    imp = await s.ok("analyze_impact", {"taskId": "BILL-2"})
    affected = ids(imp["affectedNodes"])
    for want in ["BILL-3", "BILL-3.1", "BILL-4", "BILL-5"]:
        expect(want in affected, f"impact of BILL-2 misses {want}: {affected}")
    expect(imp["totalAffected"] >= len(affected) and imp["criticalPaths"], f"impact: {imp}")
    expect(imp["criticalPaths"][0][0] == "BILL-2", f"critical path does not start at BILL-2: {imp['criticalPaths']}")
    graph = await s.ok("get_dependency_graph", {"nodeId": "BILL-3", "depth": 1})
    edges = {(e["from"], e["to"], e["kind"]) for e in graph["edges"]}
    expect(any(e[0] == "BILL-3" and e[1] == "BILL-2" for e in edges), f"BILL-3 -> BILL-2 missing: {edges}")
    expect(any(e[1] == "BILL-3" for e in edges), f"no downstream edge into BILL-3: {edges}")
    print(f"  analyze_impact BILL-2: {imp['totalAffected']} affected, path {imp['criticalPaths'][0]}; graph of BILL-3: {len(edges)} edges")

    # get_node redacts the private key in BILL-4; search ranks it first.
    node = (await s.ok("get_node", {"nodeId": "BILL-4"}))["node"]
    expect("mail relay" in node["markdown"], "BILL-4's Markdown is missing")
    expect("MIIEvQIBADAN" not in node["markdown"], "the private key in BILL-4 was not redacted")
    found = await s.ok("search_nodes", {"query": "invoice emails"})
    expect(found["items"] and found["items"][0]["id"] == "BILL-4", f"search 'invoice emails': {ids(found['items'])}")
    print("  get_node BILL-4: Markdown with the private key redacted; search_nodes ranks BILL-4 first")

    # The audit: parse error, duplicate, dangling dependency; no cycle yet.
    audit = await s.ok("validate_traceability", {})
    blob = json.dumps(audit)
    expect(0 <= audit["healthScore"] <= 100 and audit["healthFormula"], f"health: {audit.get('healthScore')}")
    expect("bill-6" in json.dumps(audit.get("parseErrors")), f"bill-6's invalid YAML not reported: {audit.get('parseErrors')}")
    expect("BILL-7" in json.dumps(audit.get("duplicateIds")), f"duplicate BILL-7 not reported: {audit.get('duplicateIds')}")
    expect("BILL-42" in blob, "the dangling BILL-42 is not reported")
    expect(not audit.get("cycles"), f"cycles before any edit: {audit.get('cycles')}")
    before = audit["healthScore"]
    print(f"  validate_traceability: health {before}, bill-6 parse error, BILL-7 duplicate, BILL-42 dangling, no cycle")

    # Add a cycle by editing BILL-2 (BILL-3 depends on BILL-2): seen by the next call, no restart.
    path = os.path.join(backlog, "backlog", "tasks", "bill-2 - Define-invoice-schema.md")
    with open(path) as f:
        text = f.read()
    with open(path, "w") as f:
        f.write(text.replace("dependencies: [task-1]", "dependencies: [task-1, BILL-3]"))
    audit = await s.ok("validate_traceability", {})
    cycles = audit.get("cycles") or []
    expect(cycles, f"the cycle BILL-2 <-> BILL-3 is not reported: {audit}")
    path_text = json.dumps(cycles)
    expect("BILL-2" in path_text and "BILL-3" in path_text, f"cycle path: {cycles}")
    expect(audit["healthScore"] < before, f"health did not drop with a cycle: {before} -> {audit['healthScore']}")
    expect((audit.get("workspace") or {}).get("dirty") is True, f"the edit did not make the workspace dirty: {audit.get('workspace')}")
    with open(path, "w") as f:
        f.write(text)
    print(f"  edit BILL-2 to depend on BILL-3 -> cycle {cycles[0].get('path') if isinstance(cycles[0], dict) else cycles[0]}, health {audit['healthScore']}, dirty; edit undone")


async def check_resources_and_prompts(s: Session) -> None:
    c = s.client
    listed = sorted(r.uri.unicode_string() if hasattr(r.uri, "unicode_string") else str(r.uri) for r in (await c.list_resources()).resources)
    expect(listed == ["docugraph://workspace/audit-report", "docugraph://workspace/graph", "docugraph://workspace/nodes"], f"resources: {listed}")
    templates = [t.uri_template for t in (await c.list_resource_templates()).resource_templates]
    expect(templates == ["docugraph://workspace/nodes/page/{cursor}", "docugraph://workspace/node/{id}", "docugraph://{workspace}/nodes", "docugraph://{workspace}/nodes/page/{cursor}", "docugraph://{workspace}/graph", "docugraph://{workspace}/node/{id}", "docugraph://{workspace}/audit-report"], f"templates: {templates}")
    node = (await c.read_resource("docugraph://workspace/node/BILL-3")).contents[0]
    expect(node.mime_type == "text/markdown" and "Idempotency-Key" in node.text, f"node resource: {node}")
    nodes = json.loads((await c.read_resource("docugraph://workspace/nodes")).contents[0].text)
    expect("BILL-3" in ids(nodes["items"]), f"nodes resource: {str(nodes)[:300]}")
    graph = json.loads((await c.read_resource("docugraph://workspace/graph")).contents[0].text)
    expect(graph["nodes"] and graph["edges"], f"graph resource: {str(graph)[:300]}")
    report = json.loads((await c.read_resource("docugraph://workspace/audit-report")).contents[0].text)
    expect("healthScore" in report, f"audit-report resource: {str(report)[:300]}")
    try:
        await c.read_resource("docugraph://workspace/node/BILL-404")
    except MCPError as e:
        expect(e.code in (-32002, -32602) and "BILL-4" in str(e), f"unknown node resource: {e.code} {e}")
    else:
        raise Failed("reading an unknown node resource succeeded")
    got = await c.complete(ResourceTemplateReference(type="ref/resource", uri="docugraph://workspace/node/{id}"), {"name": "id", "value": "bill-3"})
    expect({"BILL-3", "BILL-3.1", "BILL-3.2"} <= set(got.completion.values), f"completing id from bill-3: {got.completion.values}")
    print(f"  resources: nodes, graph, audit-report (JSON), node/BILL-3 (Markdown); id completes to {got.completion.values}")

    prompt = await c.get_prompt("prompt_implement_task", {"taskId": "BILL-3"})
    text = prompt.messages[0].content.text
    expect("Implement task BILL-3" in text and "Idempotency-Key" in text and "BILL-2" in text, f"prompt_implement_task: {text[:500]}")
    got = await c.complete(PromptReference(type="ref/prompt", name="prompt_implement_task"), {"name": "taskId", "value": "BILL-3."})
    expect(set(got.completion.values) == {"BILL-3.1", "BILL-3.2"}, f"completing taskId: {got.completion.values}")
    audit = await c.get_prompt("prompt_audit_traceability", {})
    text = audit.messages[0].content.text
    expect("health score" in text and "BILL-42" in text, f"prompt_audit_traceability: {text[:500]}")
    try:
        await c.get_prompt("prompt_implement_task", {"taskId": "BILL-404"})
    except MCPError as e:
        expect("TASK_NOT_FOUND" in str(e), f"a prompt on an unknown task: {e}")
    else:
        raise Failed("prompt_implement_task on an unknown task rendered anyway")
    print("  prompts: implement_task renders BILL-3's context bundle; audit_traceability renders the audit; unknown task fails the prompt")


async def check_stdio_paths(s: Session, backlog: str) -> None:
    audit = await s.ok("validate_traceability", {"workspacePath": backlog})
    expect("healthScore" in audit, f"workspacePath over stdio: {audit}")
    inner = await s.ok("validate_traceability", {"workspacePath": os.path.join(backlog, "backlog", "tasks")})
    expect(inner["workspace"]["name"] == audit["workspace"]["name"], "a folder inside the workspace maps to it")
    e = await s.err("validate_traceability", {"workspacePath": "/"})
    expect(e["code"] == "workspace_path_refused", f"workspacePath / : {e}")
    e = await s.err("validate_traceability", {"workspacePath": "backlog"})
    expect(e["code"] == "workspace_path_refused" and "absolute" in e["message"], f"relative workspacePath: {e}")
    print("  workspacePath (stdio): the workspace or a folder inside it works; / and relative paths are refused")


async def check_http_workspaces(s: Session) -> None:
    result = await s.client.call_tool("list_tasks", {})
    expect(result.is_error, "with three workspaces, a call without `workspace` was answered")
    blob = text_of(result)
    expect("backlog" in blob and "kep" in blob and "plain" in blob, f"the error does not list the workspaces: {blob[:400]}")
    e = await s.err("list_tasks", {}, "nope")
    expect(e["code"] == "WORKSPACE_NOT_FOUND", f"unknown workspace: {e}")
    e = await s.err("validate_traceability", {"workspacePath": "/tmp"})
    expect(e["code"] == "workspace_path_refused" and "HTTP" in e["message"], f"workspacePath over HTTP: {e}")
    print("  HTTP: no workspace with three served -> error naming them; unknown -> WORKSPACE_NOT_FOUND; workspacePath refused")

    # Resources, prompts and completions take the workspace as the tools do (issue 26).
    c = s.client
    node = (await c.read_resource("docugraph://kep/node/KEP-1001")).contents[0]
    expect(node.mime_type == "text/markdown" and node.text.startswith("---\n") and "kep-number" in node.text, f"kep node resource: {node}")
    for name in ["nodes", "graph", "audit-report"]:
        got = json.loads((await c.read_resource(f"docugraph://backlog/{name}")).contents[0].text)
        expect(got["workspace"]["name"] == "backlog", f"docugraph://backlog/{name}: {str(got)[:300]}")
    try:
        await c.read_resource("docugraph://workspace/nodes")
    except MCPError as e:
        expect(e.code == -32602 and "WORKSPACE_REQUIRED" in str(e), f"the one-workspace form with three served: {e.code} {e}")
    else:
        raise Failed("docugraph://workspace/nodes was read with three workspaces served")
    prompt = await c.get_prompt("prompt_implement_task", {"taskId": "BILL-3", "workspace": "backlog"})
    expect("Implement task BILL-3" in prompt.messages[0].content.text, "prompt_implement_task in workspace backlog")
    audit = await c.get_prompt("prompt_audit_traceability", {"workspace": "kep"})
    expect("workspace kep" in audit.messages[0].content.text, "prompt_audit_traceability in workspace kep")
    got = await c.complete(ResourceTemplateReference(type="ref/resource", uri="docugraph://{workspace}/node/{id}"), {"name": "id", "value": "KEP-100"}, {"workspace": "kep"})
    expect("KEP-1001" in got.completion.values, f"completing a KEP id in workspace kep: {got.completion.values}")
    got = await c.complete(PromptReference(type="ref/prompt", name="prompt_implement_task"), {"name": "workspace", "value": "p"})
    expect(got.completion.values == ["plain"], f"completing a workspace name: {got.completion.values}")
    print("  HTTP: docugraph://{workspace}/… resources, both prompts and completions take the workspace")

    # kep.yaml sidecars: see-also loops and a depends_on that follows one are no cycle.
    kep = await s.ok("validate_traceability", {}, "kep")
    expect(not kep.get("cycles"), f"see-also loops reported as cycles: {kep.get('cycles')}")
    expect("0753" in json.dumps(kep.get("brokenLinks")) or "1099" in json.dumps(kep.get("brokenLinks")), f"dead links: {kep.get('brokenLinks')}")
    sentinels = kep.get("sentinels")
    expect(sentinels and (sentinels if isinstance(sentinels, int) else len(sentinels)) > 0, f"placeholders not counted: {sentinels}")
    graph = await s.ok("get_dependency_graph", {"nodeId": "KEP-2001"}, "kep")
    kinds = {e["kind"] for e in graph["edges"]}
    expect("depends_on" in kinds and "related" in kinds, f"KEP-2001 edge kinds: {kinds}")
    ac = await s.ok("get_acceptance_criteria", {"taskId": "KEP-1001"}, "kep")
    expect(len(ac["criteria"]) == 4 and [c["checked"] for c in ac["criteria"]] == [True, True, True, False], f"KEP-1001 graduation criteria: {ac['criteria']}")
    print(f"  kep: see-also loops are no cycle, dead links reported, KEP-2001 edges {sorted(kinds)}, KEP-1001 4 graduation criteria")

    plain = await s.ok("validate_traceability", {}, "plain")
    expect(plain.get("brokenLinks"), f"plain: no broken link reported: {plain}")
    listed = await s.ok("list_tasks", {"limit": 200}, "plain")
    expect(listed["items"], "plain: nothing listed")
    print(f"  plain: {len(listed['items'])} docs, {len(plain['brokenLinks'])} broken links reported")


async def run_stdio(args: argparse.Namespace) -> None:
    env = {"PATH": os.environ.get("PATH", ""), "HOME": os.environ.get("HOME", "/tmp")}
    params = StdioServerParameters(
        command=args.binary,
        args=["--surface", "nexus-doc-kg", "serve", "--workspace", args.backlog, "--data-dir", args.data_dir],
        env=env,
    )
    print("stdio:")
    async with Client(params, read_timeout_seconds=60) as client:
        await check_surface(client)
        s = Session(client, None)
        await check_backlog(s, args.backlog)
        await check_resources_and_prompts(s)
        await check_stdio_paths(s, args.backlog)


async def run_http(args: argparse.Namespace) -> None:
    key = os.environ.get("NEXUS_MCP_TEST_KEY", "")
    expect(bool(key), "NEXUS_MCP_TEST_KEY is not set")
    print("http:")
    async with create_mcp_http_client(headers={"Authorization": f"Bearer {key}"}) as http:
        transport = streamable_http_client(args.url, http_client=http)
        async with Client(transport, read_timeout_seconds=60) as client:
            await check_surface(client)
            await check_http_workspaces(Session(client, None))
            await check_backlog(Session(client, "backlog"), args.backlog)


# ---- issue 26: task context within 8,000 characters, exact `omitted`, cycle marker ----
CONTEXT_LIMIT = 8000


async def context_page(client: Client, args: dict) -> tuple[dict, int]:
    result = await client.call_tool("get_task_context", args)
    expect(not result.is_error, f"get_task_context {args} failed: {text_of(result)[:600]}")
    text = text_of(result)
    sc = result.structured_content
    expect(len(text) <= CONTEXT_LIMIT, f"get_task_context {args}: {len(text)} characters")
    expect("truncation" not in sc, f"get_task_context {args} was cut by the engine: {sc.get('truncation')}")
    return sc, len(text)


async def check_context_pages(client: Client, task: str, want: int | None, max_depth: int) -> int:
    """Follows the cursors of `task`'s context: every node within maxDepth exactly once, nearest
    first, each page's `omitted` exact. Returns the number of pages."""
    seen: list[str] = []
    depths: list[int] = []
    cursor, pages = None, 0
    if want is None:
        probe = await client.call_tool("get_task_context", {"taskId": task, "maxDepth": max_depth})
        if probe.is_error and error_of(probe)["code"] == "AMBIGUOUS":
            return 0  # a duplicated id of the real folder: AMBIGUOUS is the right answer
    while True:
        args = {"taskId": task, "maxDepth": max_depth, **({"cursor": cursor} if cursor else {})}
        page, _ = await context_page(client, args)
        pages += 1
        shown = ids(page["nodes"])
        seen += shown
        depths += [n["depth"] for n in page["nodes"]]
        o, total = page["omitted"], page["totalNodes"]
        within = total - o["beyondMaxDepth"]
        expect(o["count"] == total - len(shown), f"{task} page {pages}: omitted {o} with {len(shown)} of {total} shown")
        expect(o["onLaterPages"] == within - len(seen), f"{task} page {pages}: onLaterPages {o} after {len(seen)} of {within}")
        expect(o["count"] == 0 or o["reason"], f"{task}: omitted without a reason: {o}")
        cursor = page.get("nextCursor")
        expect(pages < 500, f"{task}: the pages never end")
        if not cursor:
            break
    expect(len(seen) == len(set(seen)), f"{task}: a node came twice: {seen}")
    expect(seen[0].upper() == task.upper() or depths[0] == 0, f"{task}: the task is not first: {seen[:3]}")
    expect(depths == sorted(depths), f"{task}: not nearest first: {depths}")
    expect(want is None or len(seen) == want, f"{task}: {len(seen)} nodes over {pages} pages, the closure within maxDepth {max_depth} has {want}")
    return pages


async def check_cycle_marker(client: Client) -> None:
    audit = (await client.call_tool("validate_traceability", {"kind": "cycles"})).structured_content
    cycles = audit.get("cycles") or []
    expect(cycles, f"the folder has no cycle: {audit.get('cycles')}")
    path = cycles[0]["pathIds"]
    members = set(cycles[0]["ids"])
    page, _ = await context_page(client, {"taskId": path[0]})
    marked = [c for c in page.get("cycles") or [] if members == set(c["ids"])]
    expect(marked, f"the context of {path[0]} does not mark its cycle {path}: {page.get('cycles')}")
    expect(marked[0]["pathIds"] == path and marked[0]["path"] == cycles[0]["path"],
           f"the context's cycle path {marked[0]} is not the audit's {cycles[0]}")
    expect(page["nodes"][0].get("inCycle") is True, f"{path[0]} is not marked inCycle: {page['nodes'][0]}")
    impact = (await client.call_tool("analyze_impact", {"taskId": path[0]})).structured_content
    outside = [n["id"] for n in impact.get("affectedNodes", []) if n["id"] not in members]
    expect(outside, f"nothing outside the cycle {path} depends on it: {impact}")
    if outside:
        dep, _ = await context_page(client, {"taskId": outside[0], "maxDepth": 50})
        expect(any(members == set(c["ids"]) for c in dep.get("cycles") or []),
               f"{outside[0]} depends on the cycle {path} but its context does not say so: {dep.get('cycles')}")
        expect(not dep["nodes"][0].get("inCycle"), f"{outside[0]} is marked inCycle")
    prompt = await client.get_prompt("prompt_implement_task", {"taskId": path[0]})
    text = " ".join(getattr(m.content, "text", "") for m in prompt.messages)
    expect(cycles[0]["path"] in text, f"prompt_implement_task {path[0]} does not name its cycle: {text[:600]}")
    print(f"  cycle {' -> '.join(path)} marked in the context of {path[0]}" + (f" and of its dependent {outside[0]}" if outside else ""))


async def check_prompt_cut(client: Client, task: str) -> None:
    page, _ = await context_page(client, {"taskId": task})
    count = page["omitted"]["count"]
    expect(count > 0 and page.get("nextCursor"), f"{task}: expected a cut first page, got omitted {page['omitted']}")
    prompt = await client.get_prompt("prompt_implement_task", {"taskId": task})
    text = " ".join(getattr(m.content, "text", "") for m in prompt.messages)
    expect(len(text) <= CONTEXT_LIMIT, f"prompt_implement_task {task}: {len(text)} characters")
    expect(f"Not shown: {count} more" in text, f"the prompt does not state the true cut {count}: {text[:700]}")
    expect("cut: 0" not in text, "the prompt says cut: 0")
    expect(page["nextCursor"] in text, "the prompt does not say how to reach the rest (the cursor)")
    print(f"  prompt_implement_task {task}: states {count} not shown and the next page's cursor, {len(text)} characters")


async def run_context(args: argparse.Namespace) -> None:
    env = {"PATH": os.environ.get("PATH", ""), "HOME": os.environ.get("HOME", "/tmp")}
    params = StdioServerParameters(
        command=args.binary,
        args=["--surface", "nexus-doc-kg", "serve", "--workspace", args.workspace, "--data-dir", args.data_dir],
        env=env,
    )
    print(f"context on {args.workspace}:")
    async with Client(params, read_timeout_seconds=300) as client:
        specs = list(filter(None, (args.pages or "").split(",")))
        checked = 0
        for spec in specs:
            task, _, want = spec.partition("=")
            pages = await check_context_pages(client, task, int(want) if want else None, args.max_depth)
            checked += pages > 0
            print(f"  {task}: {want or 'all'} nodes within maxDepth {args.max_depth}, each once, nearest first, over {pages} pages" if pages else f"  {task}: AMBIGUOUS (a duplicated id), skipped")
        expect(checked * 2 >= len(specs), f"only {checked} of {len(specs)} tasks had a context")
        if args.cycle:
            await check_cycle_marker(client)
        if args.prompt:
            await check_prompt_cut(client, args.prompt)


def main() -> int:
    p = argparse.ArgumentParser()
    sub = p.add_subparsers(dest="transport", required=True)
    s = sub.add_parser("stdio")
    s.add_argument("--binary", required=True)
    s.add_argument("--backlog", required=True)
    s.add_argument("--data-dir", required=True)
    h = sub.add_parser("http")
    h.add_argument("--url", required=True)
    h.add_argument("--backlog", required=True)
    c = sub.add_parser("context")
    c.add_argument("--binary", required=True)
    c.add_argument("--workspace", required=True)
    c.add_argument("--data-dir", required=True)
    c.add_argument("--pages", help="TASK=N,...: follow every cursor; N nodes within maxDepth expected")
    c.add_argument("--max-depth", type=int, default=5)
    c.add_argument("--cycle", action="store_true")
    c.add_argument("--prompt", help="a task whose first page is cut")
    args = p.parse_args()
    return run(args, {"stdio": run_stdio, "http": run_http, "context": run_context}, "nexus-doc-kg")


if __name__ == "__main__":
    sys.exit(main())
