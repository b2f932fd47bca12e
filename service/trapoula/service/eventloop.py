"""The event loop a server runs on: uvloop where it is installed, else asyncio's own.

Everything the server does on its loop (gRPC's completions, the streams' wake-ups, the loop's
saves and the store's notifications) goes through the loop's scheduling: ``call_soon``, futures,
tasks, ``epoll``.  asyncio's own loop does that in Python; uvloop (libuv, in Cython) does it in C,
and grpc.aio supports it.  Counted in instructions (``valgrind --tool=callgrind``, one table of
two seats on PostgreSQL, docs/benchmarks.md), an ``Act`` costs the server about a seventh less on
uvloop, and a bare grpc.aio unary call about two fifths less.

uvloop comes with the server's extra on Linux and macOS (it has no Windows build); where it is
missing the server runs on asyncio's loop, with the same behaviour.  ``trapoula serve``, the
tests' servers in threads and the bench's bare server make their loops here, so they run on the
same kind; ``trapoula demo`` and ``trapoula play`` run their server on their own client's loop.
The serving line names the loop that runs (:func:`loop_name`).
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Coroutine
from typing import Any, TypeVar

T = TypeVar("T")


def loop_factory() -> Callable[[], asyncio.AbstractEventLoop]:
    """The function making a new event loop: ``uvloop.new_event_loop`` where uvloop imports, else
    ``asyncio.new_event_loop``."""
    try:
        import uvloop
    except ImportError:
        return asyncio.new_event_loop
    return uvloop.new_event_loop


def loop_name(loop: asyncio.AbstractEventLoop | None = None) -> str:
    """The kind of ``loop`` (default: of the loops :func:`loop_factory` makes), for the log:
    ``uvloop 0.23.0`` or ``asyncio``."""
    if loop is None:
        loop = new_event_loop()
        loop.close()
    if not type(loop).__module__.startswith("uvloop"):
        return "asyncio"
    import uvloop

    return f"uvloop {getattr(uvloop, '__version__', '?')}"


def new_event_loop() -> asyncio.AbstractEventLoop:
    """A new event loop of the kind :func:`loop_factory` makes (not set as the thread's current)."""
    return loop_factory()()


def run(main: Coroutine[Any, Any, T]) -> T:
    """Run ``main`` to its end in a new event loop of that kind, as ``asyncio.run`` does (the loop
    closed afterwards, its async generators and default executor shut down); returns its result.

    Raises:
        BaseException: what ``main`` raises (``KeyboardInterrupt`` included).
    """
    with asyncio.Runner(loop_factory=loop_factory()) as runner:
        return runner.run(main)
