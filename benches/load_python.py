"""The Python MCP SDK as a load client: N Streamable HTTP sessions (2025-11-25, one asyncio
process), all opened at once and held, then every session calls each tool at once.

Run by `NEXUS_MCP_LOAD_PYTHON=200 cargo bench --bench load`, which measures the server's CPU
meanwhile; this script reports its own CPU, so the two can be compared side by side. Prints a JSON
line once its imports are done, then one per phase (when every session is open, then when every call is answered): latencies in
seconds (open = initialize + tools/list of one session), errors by kind, and this process's CPU
and wall time over the phase.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import time

import anyio
from mcp import Client
from mcp.client.streamable_http import streamable_http_client
from mcp.shared._httpx_utils import create_mcp_http_client

TOOLS = ("kg_latest_graph", "kg_graph_summary")


def cpu_seconds() -> float:
    r = resource.getrusage(resource.RUSAGE_SELF)
    return r.ru_utime + r.ru_stime


class Phase:
    """Latencies and failures of one phase, and this process's CPU and wall time over it."""

    def __init__(self) -> None:
        self.latencies: list[float] = []
        self.errors: dict[str, int] = {}
        self.first_error: str | None = None
        self.cpu = cpu_seconds()
        self.wall = time.perf_counter()

    def failed(self, e: BaseException) -> None:
        kind = type(e).__name__
        self.errors[kind] = self.errors.get(kind, 0) + 1
        self.first_error = self.first_error or f"{kind}: {e}"[:300]

    def report(self) -> None:
        report = {
            "latencies": self.latencies,
            "errors": self.errors,
            "first_error": self.first_error,
            "cpu_seconds": cpu_seconds() - self.cpu,
            "wall_seconds": time.perf_counter() - self.wall,
        }
        print(json.dumps(report), flush=True)


async def main(a: argparse.Namespace) -> None:
    key = os.environ["NEXUS_MCP_LOAD_KEY"]
    print(
        json.dumps({"ready": True}), flush=True
    )  # imports done: the measured run starts
    opening, calling = Phase(), None
    settled = 0
    all_open = anyio.Event()

    def one_settled() -> None:
        nonlocal settled, calling
        settled += 1
        if settled == a.sessions:
            opening.report()
            calling = Phase()
            all_open.set()

    async def session() -> None:
        # One task per session: anyio scopes must be left by the task that entered them.
        t = time.perf_counter()
        is_open = False
        try:
            async with create_mcp_http_client(headers={"X-MCP-API-KEY": key}) as http:
                transport = streamable_http_client(a.url, http_client=http)
                async with Client(
                    transport, mode="legacy", read_timeout_seconds=120
                ) as client:
                    await client.list_tools()
                    opening.latencies.append(time.perf_counter() - t)
                    is_open = True
                    one_settled()
                    await all_open.wait()
                    for tool in TOOLS:
                        t = time.perf_counter()
                        r = await client.call_tool(tool, {"repository": a.repository})
                        if r.is_error:
                            raise RuntimeError(f"{tool} answered isError")
                        calling.latencies.append(time.perf_counter() - t)
        except Exception as e:  # noqa: BLE001 - every failure is counted by kind
            (calling if is_open else opening).failed(e)
            if not is_open:
                one_settled()

    async with anyio.create_task_group() as tg:
        for _ in range(a.sessions):
            tg.start_soon(session)
    calling.report()


if __name__ == "__main__":
    p = argparse.ArgumentParser()
    p.add_argument("--url", required=True)
    p.add_argument("--repository", required=True)
    p.add_argument("--sessions", type=int, default=200)
    anyio.run(main, p.parse_args())
