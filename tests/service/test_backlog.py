"""Calls that arrive while the server's event loop is busy wait for it; none is dropped.

grpc.aio takes the calls that reached the process one at a time, one per turn of its event loop;
the others wait in gRPC's core.  With gRPC's defaults the core drops new calls at random once
more than 1,000 wait, and every one beyond 3,000, answering them ``CANCELLED`` without running
them (the paced load met this when 400 tables opened their streams at once).  The server raises
those limits (``trapoula.service.server.MAX_PENDING_CALLS``).

The test holds the server's loop still (a callback waiting on an event: no clock), sends more
calls than gRPC's default hard limit, waits until the core has received every one (gRPC's
channelz count of the calls started), then lets the loop go: each call is answered.
"""

from __future__ import annotations

import asyncio
import json
import threading
from collections import Counter
from collections.abc import Callable
from typing import Any

import grpc
from grpc._cython import cygrpc  # channelz, as the grpcio-channelz package reads it

from trapoula.api.v1 import table_pb2 as pb
from trapoula.api.v1 import table_pb2_grpc
from trapoula.service.application import Tables
from trapoula.service.server import MAX_PENDING_CALLS

CALLS = 3_100
"""More calls than gRPC's default hard limit of waiting calls (3,000)."""


def _calls_started() -> int:
    """Calls every gRPC server of this process has received (channelz)."""
    servers = json.loads(cygrpc.channelz_get_servers(0)).get("server", [])
    return sum(int(s.get("data", {}).get("callsStarted", 0)) for s in servers)


async def _send_while_held(
    port: int, hold: Callable[[], None], held: threading.Event, release: threading.Event
) -> Counter[str]:
    """Connect, ``hold()`` the server's loop, send :data:`CALLS` ``ListGames`` once it is held and
    release it once the core has every call; the outcome of each call, by status code name."""
    outcomes: Counter[str] = Counter()
    async with grpc.aio.insecure_channel(f"127.0.0.1:{port}") as channel:
        stub = table_pb2_grpc.TableServiceStub(channel)
        await stub.ListGames(pb.ListGamesRequest(), timeout=30)  # connected
        hold()
        assert await asyncio.to_thread(held.wait, 30)
        before = _calls_started()

        async def one() -> None:
            try:
                await stub.ListGames(pb.ListGamesRequest(), timeout=120)
                outcomes["OK"] += 1
            except grpc.aio.AioRpcError as exc:
                outcomes[exc.code().name] += 1

        calls = [asyncio.create_task(one()) for _ in range(CALLS)]
        while _calls_started() < before + CALLS and not all(c.done() for c in calls):
            await asyncio.sleep(0.05)
        waiting = _calls_started() - before
        release.set()
        await asyncio.gather(*calls)
    assert waiting == CALLS, f"the core received {waiting} of {CALLS} calls while the loop was held"
    return outcomes


def test_calls_waiting_for_a_busy_event_loop_are_all_answered(
    sqlite_tables: Tables, serve_tables: Callable[[Tables], Any]
) -> None:
    assert MAX_PENDING_CALLS > CALLS
    server = serve_tables(sqlite_tables)
    held, release = threading.Event(), threading.Event()

    def hold() -> None:  # the server's loop does nothing else until released
        held.set()
        release.wait(60)

    try:
        outcomes = asyncio.run(
            _send_while_held(server.port, lambda: server.loop.call_soon_threadsafe(hold), held, release)
        )
    finally:
        release.set()
    assert outcomes == Counter({"OK": CALLS})
