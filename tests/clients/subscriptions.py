"""A resource subscription with the official Python MCP SDK, against `nexus-mcp --manifest
tests/manifests/conformance.yaml` over Streamable HTTP: in 2026-07-28 (`Client.listen`, a
subscriptions/listen stream) and in a 2025-11-25 session (`resources/subscribe`, then a
`notifications/resources/updated` message). The backend's text is changed with a POST to
`<backend>/watched-resource`; the client must hear of it without asking.

Run by tests/manifest_file.rs:

    .venv/bin/python tests/clients/subscriptions.py --url http://127.0.0.1:PORT/mcp --backend http://127.0.0.1:PORT2

Exits 0 when every expectation holds; otherwise prints `FAILED: ...` and exits 1.
"""

from __future__ import annotations

import argparse
import sys

import json
import urllib.request

import anyio
from mcp import Client, types
from mcp.client.streamable_http import streamable_http_client

URI = "test://watched-resource"


class Failed(Exception):
    pass


def expect(cond: bool, message: str) -> None:
    if not cond:
        raise Failed(message)


async def change(backend: str, text: str) -> None:
    def post() -> int:
        request = urllib.request.Request(
            f"{backend}/watched-resource",
            data=json.dumps({"text": text}).encode(),
            headers={"content-type": "application/json"},
            method="POST",
        )
        with urllib.request.urlopen(request, timeout=10) as r:
            return r.status

    status = await anyio.to_thread.run_sync(post)
    expect(status < 300, f"the backend refused the change: {status}")


async def text_of(client: Client) -> str:
    read = await client.read_resource(URI)
    return read.contents[0].text


async def modern(url: str, backend: str) -> None:
    async with Client(streamable_http_client(url), read_timeout_seconds=60) as client:
        expect(client.protocol_version == "2026-07-28", f"negotiated {client.protocol_version}")
        async with client.listen(resource_subscriptions=[URI]) as sub:
            await change(backend, "changed under a 2026-07-28 listener")
            with anyio.fail_after(30):
                event = await sub.__anext__()
            expect(getattr(event, "uri", None) == URI, f"the event is not about {URI}: {event!r}")
        got = await text_of(client)
        expect(got == "changed under a 2026-07-28 listener", f"read after the event: {got!r}")
        print(f"2026-07-28: subscriptions/listen -> resource updated {URI}; read: {got!r}")


async def legacy(url: str, backend: str) -> None:
    updated = anyio.Event()

    async def on_message(message) -> None:
        root = getattr(message, "root", message)
        if isinstance(root, types.ResourceUpdatedNotification) and root.params.uri == URI:
            updated.set()

    async with Client(
        streamable_http_client(url), mode="legacy", read_timeout_seconds=60, message_handler=on_message
    ) as client:
        await client.session.subscribe_resource(URI)
        await change(backend, "changed under a 2025-11-25 subscriber")
        with anyio.fail_after(30):
            await updated.wait()
        got = await text_of(client)
        expect(got == "changed under a 2025-11-25 subscriber", f"read after the notification: {got!r}")
        await client.session.unsubscribe_resource(URI)
        print(f"2025-11-25: resources/subscribe -> notifications/resources/updated {URI}; read: {got!r}")


async def main_async(args: argparse.Namespace) -> None:
    await modern(args.url, args.backend)
    await legacy(args.url, args.backend)


def main() -> int:
    p = argparse.ArgumentParser()
    p.add_argument("--url", required=True)
    p.add_argument("--backend", required=True)
    args = p.parse_args()
    try:
        anyio.run(main_async, args)
    except Failed as e:
        print(f"FAILED: {e}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
