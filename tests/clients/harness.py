"""What every client script of tests/clients shares: the failure type, `expect`, the text of a
tool result, and a `main` that runs one transport's coroutine and turns the outcome into the
exit code and the `FAILED: ...` line the Rust tests show."""

from __future__ import annotations

import argparse
import sys
import traceback
from collections.abc import Awaitable, Callable

import anyio


class Failed(Exception):
    pass


def expect(cond: object, message: str) -> None:
    if not cond:
        raise Failed(message)


def text_of(result) -> str:
    return " ".join(getattr(c, "text", "") for c in result.content)


def first_failed(e: BaseException) -> Failed | None:
    """The first `Failed` in `e` or in the exception groups it nests (anyio task groups)."""
    if isinstance(e, Failed):
        return e
    for inner in getattr(e, "exceptions", []):
        found = first_failed(inner)
        if found is not None:
            return found
    return None


def run(
    args: argparse.Namespace,
    runners: dict[str, Callable[[argparse.Namespace], Awaitable[None]]],
    name: str,
) -> int:
    """Runs `runners[args.transport](args)`; 0 when every expectation held, else 1."""
    try:
        anyio.run(runners[args.transport], args)
    except BaseException as e:  # noqa: BLE001 - report any client-side crash clearly
        failed = first_failed(e)
        if failed is not None:
            print(f"FAILED: {failed}", file=sys.stderr)
        else:
            print(f"FAILED: {type(e).__name__}: {e}", file=sys.stderr)
            traceback.print_exc()
        return 1
    print(f"{name}: all expectations held")
    return 0
