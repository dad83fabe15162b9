"""The official Python MCP SDK as a client a Rust test drives one request at a time: over stdio
it starts the server command given after `--` (with this process's whole environment, so
XDG_DATA_HOME reaches it); over Streamable HTTP it connects to `--url` with the bearer key of
$NEXUS_MCP_TEST_KEY. It prints `{"ready": true}` once the session is initialized, then for each
request line on stdin prints one answer line, in order. Ends at EOF.

    {"tool": NAME, "arguments": {...}}       -> {"isError": bool, "body": structuredContent or text,
                                                 "text": the text content, as a model reads it,
                                                 "progress": [{"progress", "total", "message"}]}
    {"read": URI}                            -> {"contents": [{"uri", "mimeType", "text"}]}
    {"templates": true}                      -> {"templates": [uriTemplate, ...]}
    {"prompt": NAME, "arguments": {...}}     -> {"messages": [text, ...]}
    {"complete": {"prompt": NAME} | {"template": URI}, "argument": [NAME, VALUE],
     "context": {...}}                       -> {"values": [...]}
    any of them, on an MCP error             -> {"mcpError": {"code": int, "message": str}}
    any of them, when the SDK raised else    -> {"exception": "..."}

    .venv/bin/python tests/clients/line_client.py -- target/debug/nexus-mcp --surface nexus-rules serve
    NEXUS_MCP_TEST_KEY=k .venv/bin/python tests/clients/line_client.py --url http://127.0.0.1:PORT/mcp
"""

from __future__ import annotations

import json
import os
import sys
from typing import Any

import anyio
from mcp import Client, MCPError, StdioServerParameters
from mcp.client.streamable_http import streamable_http_client
from mcp.shared._httpx_utils import create_mcp_http_client
from mcp.types import PromptReference, ResourceTemplateReference

from harness import text_of


def emit(value: dict) -> None:
    print(json.dumps(value), flush=True)


async def tool(client: Client, request: dict) -> dict:
    progress: list[dict] = []

    async def on_progress(done: float, total: float | None, message: str | None) -> None:
        progress.append({"progress": done, "total": total, "message": message})

    result = await client.call_tool(
        request["tool"], request.get("arguments") or {}, progress_callback=on_progress
    )
    text = text_of(result)
    body = result.structured_content
    if body is None:
        try:
            body = json.loads(text)
        except ValueError:
            body = text
    return {"isError": bool(result.is_error), "body": body, "text": text, "progress": progress}


async def read(client: Client, request: dict) -> dict:
    result = await client.read_resource(request["read"])
    return {
        "contents": [
            {"uri": str(c.uri), "mimeType": c.mime_type, "text": getattr(c, "text", None)}
            for c in result.contents
        ]
    }


async def templates(client: Client, _request: dict) -> dict:
    result = await client.list_resource_templates()
    return {"templates": [t.uri_template for t in result.resource_templates]}


async def prompt(client: Client, request: dict) -> dict:
    result = await client.get_prompt(request["prompt"], request.get("arguments") or {})
    return {"messages": [getattr(m.content, "text", "") for m in result.messages]}


async def complete(client: Client, request: dict) -> dict:
    target = request["complete"]
    ref: Any = (
        PromptReference(type="ref/prompt", name=target["prompt"])
        if "prompt" in target
        else ResourceTemplateReference(type="ref/resource", uri=target["template"])
    )
    name, value = request["argument"]
    result = await client.complete(ref, {"name": name, "value": value}, request.get("context"))
    return {"values": result.completion.values}


HANDLERS = {"tool": tool, "read": read, "templates": templates, "prompt": prompt, "complete": complete}


async def serve_lines(client: Client) -> None:
    emit({"ready": True})
    while True:
        line = await anyio.to_thread.run_sync(sys.stdin.readline)
        if not line:
            return
        request = json.loads(line)
        handler = next(h for key, h in HANDLERS.items() if key in request)
        try:
            emit(await handler(client, request))
        except MCPError as e:
            emit({"mcpError": {"code": e.error.code, "message": e.error.message}})
        except Exception as e:  # noqa: BLE001 - the test decides what an exception means
            emit({"exception": f"{type(e).__name__}: {e}"})


async def drive_stdio(command: list[str]) -> None:
    params = StdioServerParameters(command=command[0], args=command[1:], env=dict(os.environ))
    async with Client(params, read_timeout_seconds=300) as client:
        await serve_lines(client)


async def drive_http(url: str) -> None:
    headers = {"Authorization": f"Bearer {os.environ['NEXUS_MCP_TEST_KEY']}"}
    async with create_mcp_http_client(headers=headers) as http:
        async with Client(streamable_http_client(url, http_client=http), read_timeout_seconds=300) as client:
            await serve_lines(client)


def main() -> int:
    if "--" in sys.argv:
        anyio.run(drive_stdio, sys.argv[sys.argv.index("--") + 1 :])
    elif len(sys.argv) == 3 and sys.argv[1] == "--url":
        anyio.run(drive_http, sys.argv[2])
    else:
        print("usage: line_client.py -- SERVER [ARGS…] | --url URL", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
