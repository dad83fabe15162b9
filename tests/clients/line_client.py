"""The official Python MCP SDK as a client a Rust test drives one call at a time: it starts the
server command given after `--` over stdio (with this process's whole environment, so
XDG_DATA_HOME reaches it), prints `{"ready": true}` once the session is initialized, then for
each line `{"tool": NAME, "arguments": {...}}` on stdin prints one line: `{"isError": bool,
"body": structuredContent or text, "progress": [...]}` (the progress notifications the call got,
each `{"progress", "total", "message"}`), or `{"exception": "..."}` when the SDK raised. Ends
at EOF.

    .venv/bin/python tests/clients/line_client.py -- target/debug/nexus-mcp --surface nexus-rules serve
"""

from __future__ import annotations

import json
import os
import sys

import anyio
from mcp import Client, StdioServerParameters

from harness import text_of


def emit(value: dict) -> None:
    print(json.dumps(value), flush=True)


async def drive(command: list[str]) -> None:
    params = StdioServerParameters(command=command[0], args=command[1:], env=dict(os.environ))
    async with Client(params, read_timeout_seconds=300) as client:
        emit({"ready": True})
        while True:
            line = await anyio.to_thread.run_sync(sys.stdin.readline)
            if not line:
                return
            request = json.loads(line)
            progress: list[dict] = []

            async def on_progress(done: float, total: float | None, message: str | None) -> None:
                progress.append({"progress": done, "total": total, "message": message})

            try:
                result = await client.call_tool(
                    request["tool"], request.get("arguments") or {}, progress_callback=on_progress
                )
            except Exception as e:  # noqa: BLE001 - the test decides what an exception means
                emit({"exception": f"{type(e).__name__}: {e}"})
                continue
            body = result.structured_content
            if body is None:
                text = text_of(result)
                try:
                    body = json.loads(text)
                except ValueError:
                    body = text
            emit({"isError": bool(result.is_error), "body": body, "progress": progress})


def main() -> int:
    if "--" not in sys.argv:
        print("usage: line_client.py -- SERVER [ARGS…]", file=sys.stderr)
        return 2
    anyio.run(drive, sys.argv[sys.argv.index("--") + 1 :])
    return 0


if __name__ == "__main__":
    sys.exit(main())
