"""Drives nexus-mcp with the official Python MCP SDK (`mcp` from PyPI) over stdio and Streamable HTTP.

Run by tests/clients.rs; by hand:

    .venv/bin/python tests/clients/python_client.py stdio --binary target/debug/nexus-mcp \
        --repo acme/shop=/path/to/repo --data-dir /tmp/d --head <sha>
    NEXUS_MCP_TEST_KEY=k .venv/bin/python tests/clients/python_client.py http \
        --url http://127.0.0.1:PORT/mcp --repository acme/shop --head <sha>

Exits 0 when every expectation holds; otherwise prints `FAILED: ...` and exits 1.
"""

from __future__ import annotations

import argparse
import json
import os
import sys

import anyio
from mcp import Client, MCPError, StdioServerParameters
from mcp.client.streamable_http import streamable_http_client
from mcp.shared._httpx_utils import create_mcp_http_client
from mcp import types
from mcp.types import PromptReference

READ_TOOLS = {
    "kg_latest_graph",
    "kg_graph_summary",
    "kg_list_audit_risks",
    "kg_list_anomalies",
    "kg_get_audit_risk",
    "kg_get_anomaly",
    "kg_file_context",
    "kg_impact",
    "kg_compare_runs",
}
LOCAL_TOOLS = {"kg_compare_with_local_git"}
REGENERATE_TOOLS = {"kg_regenerate", "kg_regenerate_dry_run", "kg_regenerate_submit"}
DEFAULT_STDIO_TOOLS = READ_TOOLS | LOCAL_TOOLS  # the 10 tools of kg:read + kg:local


class Failed(Exception):
    pass


def expect(cond: bool, message: str) -> None:
    if not cond:
        raise Failed(message)


async def tool_names(client: Client) -> set[str]:
    names: set[str] = set()
    cursor = None
    while True:
        page = await client.list_tools(cursor=cursor)
        names.update(t.name for t in page.tools)
        cursor = page.next_cursor
        if not cursor:
            return names


async def check_latest_graph(client: Client, repository: str, head: str) -> None:
    result = await client.call_tool("kg_latest_graph", {"repository": repository, "branch": "main"})
    text = " ".join(getattr(c, "text", "") for c in result.content)
    expect(not result.is_error, f"kg_latest_graph returned isError: {text[:500]}")
    sc = result.structured_content
    expect(isinstance(sc, dict), f"kg_latest_graph has no structuredContent (content: {text[:300]})")
    graph = sc.get("graph")
    expect(isinstance(graph, dict), f"structuredContent.graph missing: {json.dumps(sc)[:300]}")
    expect(
        graph.get("commit_sha") == head,
        f"graph.commit_sha is {graph.get('commit_sha')!r}, the fixture's HEAD is {head!r}",
    )
    print(f"  kg_latest_graph: graph {graph.get('graph_id', graph.get('id'))} at {head[:12]}")


async def check_bad_arguments(client: Client) -> None:
    # `repository` must be a string "owner/name"; an unknown property is refused too.
    bad = {"repository": 42, "no_such_argument": True}
    # MCP 2025-11-25 (SEP-1303): a tool result with isError the model can read, not a JSON-RPC error.
    try:
        result = await client.call_tool("kg_latest_graph", bad)
    except MCPError as e:
        raise Failed(f"bad arguments: expected an isError result, got JSON-RPC {e.code}: {e}")
    text = " ".join(getattr(c, "text", "") for c in result.content)
    expect(result.is_error, f"bad arguments {bad} were accepted: {text[:300]}")
    try:
        error = json.loads(text)["error"]
    except (ValueError, KeyError) as e:
        raise Failed(f"the isError text is not a JSON error body ({e}): {text[:300]}")
    expect(error.get("code") == "invalid_arguments", f"code: {error}")
    fields = {p.get("field") for p in error.get("errors", [error])}
    expect(
        "/repository" in fields and "/no_such_argument" in fields,
        f"the error does not point at both offending arguments: {error}",
    )
    print(f"  bad arguments -> isError {error['code']} at {sorted(fields)}: {error['message'][:120]}")
    try:
        await client.call_tool("kg_no_such_tool", {})
    except MCPError as e:
        expect(e.code == -32602, f"unknown tool: expected -32602, got {e.code}: {e}")
        print(f"  unknown tool -> JSON-RPC {e.code}")
    else:
        raise Failed("calling an unknown tool did not fail")


class Human:
    """The person behind the client: answers the server's questions (elicitation) as told: the
    confirmation of a plan, or which of several matches the agent means (`pick`: an index)."""

    def __init__(self) -> None:
        self.answer = "decline"
        self.pick = 0
        self.asked: list[str] = []
        self.choices: list[dict] = []

    async def __call__(self, context, params: types.ElicitRequestParams) -> types.ElicitResult:
        self.asked.append(params.message)
        if self.answer != "accept":
            return types.ElicitResult(action=self.answer)
        choice = params.requested_schema.get("properties", {}).get("choice")
        if choice is not None:
            self.choices = choice["oneOf"]
            return types.ElicitResult(action="accept", content={"choice": self.choices[self.pick]["const"]})
        return types.ElicitResult(action="accept", content={"approve": True})


async def check_confirmation(client: Client, human: Human, repository: str) -> None:
    # The server asks the human itself (elicitation in a 2025 session, an input-required result
    # the SDK answers with the same callback in 2026-07-28): the agent's flag alone runs nothing.
    plan = await client.call_tool("kg_regenerate_dry_run", {"repository": repository, "branch": "main"})
    expect(not plan.is_error, f"dry run failed: {plan.content}")
    plan_id = plan.structured_content["plan"]["plan_id"]
    human.answer = "decline"
    refused = await client.call_tool("kg_regenerate_submit", {"plan_id": plan_id, "confirmed_by_sr": True})
    text = " ".join(getattr(c, "text", "") for c in refused.content)
    expect(refused.is_error and '"declined"' in text, f"a declined confirmation ran anyway: {text[:300]}")
    expect(human.asked and plan_id in human.asked[-1], f"the question does not name the plan: {human.asked}")
    print(f"  kg_regenerate_submit, human declines -> refused; asked: {human.asked[-1][:90]!r}")
    human.answer = "accept"
    done = await client.call_tool("kg_regenerate_submit", {"plan_id": plan_id})
    text = " ".join(getattr(c, "text", "") for c in done.content)
    expect(not done.is_error, f"an approved regeneration failed: {text[:300]}")
    regeneration = done.structured_content["regeneration"]
    print(f"  kg_regenerate_submit, human approves (no confirmed_by_sr) -> {regeneration.get('status')}")


async def check_choice(client: Client, human: Human, repository: str) -> None:
    # Two SHA1 uses in shop/crypto.py and a proof without a line: the human picks one, and the
    # agent gets that finding's packet; a human who declines leaves the answer ambiguous.
    graph = await client.call_tool("kg_latest_graph", {"repository": repository, "branch": "main"})
    proof = {
        "graph_id": graph.structured_content["graph"]["graph_id"],
        "source_tool": "bandit",
        "finding_type": "bandit_b324_hashlib",
        "path": "shop/crypto.py",
    }
    human.answer, human.asked = "decline", []
    declined = await client.call_tool("kg_get_audit_risk", proof)
    expect(declined.structured_content.get("status") == "ambiguous", f"declined: {declined.structured_content}")
    expect(len(human.asked) == 1, f"the human was not asked: {human.asked}")
    candidates = declined.structured_content["candidates"]
    human.answer, human.pick = "accept", 1
    picked = await client.call_tool("kg_get_audit_risk", proof)
    packet = picked.structured_content
    offered = [c["const"] for c in human.choices]
    expect(offered == [c["dedupe_key"] for c in candidates], f"offered {offered}, candidates {candidates}")
    expect(packet.get("status") == "ready", f"after the pick: {packet}")
    expect(packet["finding"]["dedupe_key"] == offered[1], f"picked {offered[1]}, got {packet['finding']}")
    print(
        f"  kg_get_audit_risk without a line: human declines -> ambiguous; picks "
        f"{human.choices[1]['title']!r} -> ready, line {packet['finding']['line']}"
    )


async def check_completion(client: Client, repository: str) -> None:
    # Prompt arguments complete from the manifest: repositories from Nexus, analysers from a list.
    ref = PromptReference(type="ref/prompt", name="triage_graph")
    got = await client.complete(ref, {"name": "repository", "value": repository[:2]})
    expect(
        got.completion.values == [repository],
        f"completing repository from {repository[:2]!r} gave {got.completion.values}, expected [{repository!r}]",
    )
    ref = PromptReference(type="ref/prompt", name="fix_audit_risk")
    got = await client.complete(ref, {"name": "source_tool", "value": "r"})
    expect(got.completion.values == ["ruff"], f"completing source_tool from 'r' gave {got.completion.values}")
    print(f"  completion/complete: repository -> {repository}, source_tool r -> ruff")


async def run_stdio(args: argparse.Namespace) -> None:
    env = {"PATH": os.environ.get("PATH", ""), "NEXUS_MCP_LOG": os.environ.get("NEXUS_MCP_LOG", "warn")}
    base = ["serve", "--repo", args.repo, "--data-dir", args.data_dir]
    repository = args.repo.split("=", 1)[0]

    mode = args.mode
    print(f"stdio ({mode}), default scopes:")
    params = StdioServerParameters(command=args.binary, args=base, env=env)
    async with Client(params, mode=mode, read_timeout_seconds=120) as client:
        expect(client.server_info is not None, "no serverInfo in the initialize answer")
        print(
            f"  connected: {client.server_info.name} {client.server_info.version}, protocol {client.protocol_version}"
        )
        names = await tool_names(client)
        missing = DEFAULT_STDIO_TOOLS - names
        expect(not missing, f"tools/list over stdio lacks {sorted(missing)}; got {sorted(names)}")
        leaked = REGENERATE_TOOLS & names
        expect(not leaked, f"{sorted(leaked)} listed without the kg:regenerate scope")
        expect(len(DEFAULT_STDIO_TOOLS) == 10, "test bug: the default set should have 10 tools")
        print(f"  tools/list: {len(names)} tools, no kg_regenerate*")
        await check_latest_graph(client, repository, args.head)
        await check_bad_arguments(client)
        await check_completion(client, repository)

    print(f"stdio ({mode}), --scopes kg:read,kg:local,kg:regenerate:")
    params = StdioServerParameters(
        command=args.binary, args=[*base, "--scopes", "kg:read,kg:local,kg:regenerate"], env=env
    )
    human = Human()
    async with Client(params, mode=mode, read_timeout_seconds=120, elicitation_callback=human) as client:
        names = await tool_names(client)
        missing = REGENERATE_TOOLS - names
        expect(not missing, f"with kg:regenerate granted, tools/list lacks {sorted(missing)}")
        print(f"  tools/list: {len(names)} tools including {sorted(REGENERATE_TOOLS)}")
        await check_confirmation(client, human, repository)
        await check_choice(client, human, repository)


async def run_http(args: argparse.Namespace) -> None:
    key = os.environ.get("NEXUS_MCP_TEST_KEY", "")
    expect(bool(key), "NEXUS_MCP_TEST_KEY is not set")
    print(f"http ({args.mode}):")
    async with create_mcp_http_client(headers={"X-MCP-API-KEY": key}) as http:
        transport = streamable_http_client(args.url, http_client=http)
        human = Human()
        async with Client(
            transport, mode=args.mode, read_timeout_seconds=120, elicitation_callback=human
        ) as client:
            print(f"  connected: protocol {client.protocol_version}")
            names = await tool_names(client)
            missing = (READ_TOOLS | REGENERATE_TOOLS) - names
            expect(not missing, f"tools/list over HTTP with an all-scopes key lacks {sorted(missing)}")
            expect(
                not (LOCAL_TOOLS & names),
                f"local_stdio-only tools {sorted(LOCAL_TOOLS & names)} are listed over HTTP",
            )
            print(f"  tools/list: {len(names)} tools")
            await check_latest_graph(client, args.repository, args.head)
            await check_bad_arguments(client)
            await check_completion(client, args.repository)
            await check_confirmation(client, human, args.repository)
            await check_choice(client, human, args.repository)


def main() -> int:
    p = argparse.ArgumentParser()
    sub = p.add_subparsers(dest="transport", required=True)
    s = sub.add_parser("stdio")
    s.add_argument("--binary", required=True)
    s.add_argument("--repo", required=True, help="NAME=PATH")
    s.add_argument("--data-dir", required=True)
    s.add_argument("--head", required=True)
    h = sub.add_parser("http")
    h.add_argument("--url", required=True)
    h.add_argument("--repository", required=True)
    h.add_argument("--head", required=True)
    for sp in (s, h):
        sp.add_argument(
            "--mode",
            choices=["legacy", "auto"],
            default="legacy",
            help="legacy: initialize handshake, 2025-11-25; auto (the SDK's default): 2026-07-28 when offered",
        )
    args = p.parse_args()
    try:
        anyio.run(run_stdio if args.transport == "stdio" else run_http, args)
    except Failed as e:
        print(f"FAILED: {e}", file=sys.stderr)
        return 1
    except BaseException as e:  # noqa: BLE001 - report any client-side crash clearly
        if isinstance(e, BaseExceptionGroup):
            flat = list(e.exceptions)
            failed = [x for x in flat if isinstance(x, Failed)]
            if failed:
                print(f"FAILED: {failed[0]}", file=sys.stderr)
                return 1
        print(f"FAILED: {type(e).__name__}: {e}", file=sys.stderr)
        import traceback

        traceback.print_exc()
        return 1
    print("python client: all expectations held")
    return 0


if __name__ == "__main__":
    sys.exit(main())
