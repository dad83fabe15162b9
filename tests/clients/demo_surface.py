"""Drives the demo surface (tests/manifests/demo.yaml, served with `nexus-mcp --manifest`) with the
official Python MCP SDK over stdio or Streamable HTTP. Run by tests/demo_surface.rs; by hand:

    .venv/bin/python tests/clients/demo_surface.py stdio --binary target/debug/nexus-mcp \
        --manifest tests/manifests/demo.yaml --backend http://127.0.0.1:PORT
    .venv/bin/python tests/clients/demo_surface.py http --url http://127.0.0.1:PORT/mcp

Exits 0 when every expectation holds; otherwise prints `FAILED: ...` and exits 1.
"""

from __future__ import annotations

import argparse
import json
import os
import sys

from mcp import Client, MCPError, StdioServerParameters
from mcp.client.streamable_http import streamable_http_client
from mcp.shared._httpx_utils import create_mcp_http_client
from mcp.types import ResourceTemplateReference

from harness import Failed, expect, run, text_of





async def check(client: Client, local: bool) -> None:
    tools = {t.name for t in (await client.list_tools()).tools}
    # compare_note_with_local is a local_stdio tool; export_notes needs a scope never granted by default.
    expected = {"get_note", "list_notes", "use_capability", "list_capabilities"} | ({"compare_note_with_local"} if local else set())
    expect(
        tools == expected,
        f"tools/list shows {sorted(tools)}: the capability get_note_history must stay hidden",
    )

    # The mapped tool: the backend's answer has a `graph` key, and no surface hook adds freshness.
    result = await client.call_tool("get_note", {"noteId": "welcome"})
    expect(not result.is_error, f"get_note failed: {text_of(result)[:300]}")
    note = result.structured_content
    expect(note.get("title") == "Welcome" and "graph" in note, f"get_note answered {note}")
    expect("freshness" not in note, f"a surface without an envelope got a freshness block: {note}")
    print("  get_note: answered, a `graph` key and no freshness block")

    # A declared error code for the backend's 404.
    result = await client.call_tool("get_note", {"noteId": "missing"})
    error = json.loads(text_of(result))["error"]
    expect(result.is_error and error["code"] == "NOTE_NOT_FOUND", f"missing note: {error}")
    # Bad arguments are an isError result naming the field and the rule.
    result = await client.call_tool("get_note", {"noteId": "Not Valid!"})
    error = json.loads(text_of(result))["error"]
    expect(
        result.is_error and error["code"] == "invalid_arguments" and error.get("field") == "/noteId",
        f"bad noteId: {error}",
    )
    print("  get_note: 404 -> NOTE_NOT_FOUND, a bad id -> invalid_arguments at /noteId")

    # The resource template, read from the backend, and completion of its variable.
    templates = (await client.list_resource_templates()).resource_templates
    expect([t.uri_template for t in templates] == ["notes://note/{id}"], f"templates: {templates}")
    read = await client.read_resource("notes://note/roadmap")
    body = read.contents[0]
    expect(body.mime_type == "text/markdown" and "# Roadmap" in body.text, f"resource read: {read}")
    got = await client.complete(ResourceTemplateReference(type="ref/resource", uri="notes://note/{id}"), {"name": "id", "value": "ro"})
    expect(got.completion.values == ["roadmap"], f"completing id from 'ro' gave {got.completion.values}")
    print("  notes://note/roadmap: read from the backend as Markdown; id completes")

    # The prompt fetches the note through get_note before rendering.
    prompt = await client.get_prompt("summarise_note", {"noteId": "roadmap"})
    rendered = prompt.messages[0].content.text
    expect('"Roadmap"' in rendered and "Ship the engine" in rendered, f"prompt rendered: {rendered[:300]}")
    print("  summarise_note: rendered around get_note's answer")

    # The hidden capability, listed and called through the meta-tools with the same rules.
    listed = await client.call_tool("list_capabilities", {})
    names = [c["name"] for c in listed.structured_content["capabilities"]]
    expect(names == ["get_note_history"], f"list_capabilities: {listed.structured_content}")
    used = await client.call_tool("use_capability", {"capability": "get_note_history", "arguments": {"noteId": "roadmap"}})
    expect(not used.is_error, f"use_capability failed: {text_of(used)[:300]}")
    edits = used.structured_content["edits"]
    expect(len(edits) == 5, f"the capability's default limit 5 did not reach the backend: {edits}")
    bad = await client.call_tool("use_capability", {"capability": "get_note_history", "arguments": {"noteId": "roadmap", "limit": 500}})
    error = json.loads(text_of(bad))["error"]
    expect(bad.is_error and error.get("field") == "/arguments/limit", f"capability bad arguments: {error}")
    try:
        await client.call_tool("get_note_history", {"noteId": "roadmap"})
    except MCPError as e:
        expect(e.code == -32602, f"a hidden tool called by name: expected -32602, got {e.code}")
    else:
        raise Failed("a hidden tool was callable by name")
    print("  get_note_history: hidden, listed by list_capabilities, run by use_capability (defaults, validation)")


async def run_stdio(args: argparse.Namespace) -> None:
    env = {"PATH": os.environ.get("PATH", ""), "NEXUS_API_TOKEN": "demo-token"}
    params = StdioServerParameters(
        command=args.binary,
        args=["--manifest", args.manifest, "--nexus-url", args.backend, "serve"],
        env=env,
    )
    async with Client(params, read_timeout_seconds=60) as client:
        await check(client, local=True)


async def run_http(args: argparse.Namespace) -> None:
    async with create_mcp_http_client() as http:
        transport = streamable_http_client(args.url, http_client=http)
        async with Client(transport, read_timeout_seconds=60) as client:
            await check(client, local=False)


def main() -> int:
    p = argparse.ArgumentParser()
    sub = p.add_subparsers(dest="transport", required=True)
    s = sub.add_parser("stdio")
    s.add_argument("--binary", required=True)
    s.add_argument("--manifest", required=True)
    s.add_argument("--backend", required=True)
    h = sub.add_parser("http")
    h.add_argument("--url", required=True)
    args = p.parse_args()
    return run(args, {"stdio": run_stdio, "http": run_http}, "demo surface")


if __name__ == "__main__":
    sys.exit(main())
