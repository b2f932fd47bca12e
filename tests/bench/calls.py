"""Calls over gRPC, measured from the client: ``Act`` at N tables at once, and the fan-out of one
event to many watchers (the bare baselines beside them are in :mod:`bench.bare`).

Every run is closed-loop: N callers, each sending its next call as soon as it has the reply to
the last.  A run sets up first, then lets the calls go for ``warmup`` seconds unmeasured, then
counts for ``window`` seconds the calls that complete inside the window and their latencies,
from sending the request to having the reply (:class:`~bench.figures.Window`).

``Act``: each table is a match of :data:`GAME` with :data:`SEATS` seats, each seat a client-side
bot (:func:`trapoula.domain.bots.choose`, level :data:`LEVEL`) that follows its seat's
``WatchTable`` stream (batched: a save's events in one message, with the view after the last) and
sends ``Act`` when its view offers it a move, as a person's client does (``trapoula load``'s
players).  A table thus has at most one command in flight: N tables is
a concurrency of N.  When a match ends its slot sets up a new table (those calls are not counted).

Beside the latencies, an ``Act`` run notes the sizes its baselines copy: the mean ``ActRequest``
and ``ActResponse`` (bytes), the ``authorization`` token's length, and the stream messages the
seats' streams received in the window (how many per ``Act``, their mean size).
"""

from __future__ import annotations

import asyncio
import json
import random
import time
import uuid
from collections import Counter
from collections.abc import Callable, Coroutine
from dataclasses import dataclass, field
from typing import Any

import grpc

from trapoula.api.v1 import table_pb2, table_pb2_grpc
from trapoula.clients.load import CHANNEL_OPTIONS
from trapoula.clients.table import command_message, my_move
from trapoula.domain.bots import choose

from .bare import close_channels
from .figures import CpuPerCall, Window, cpu_over_window

GAME = "agonia"
"""The game of the ``Act`` tables."""
SEATS = 2
"""Seats per table, each a client-side bot following its stream."""
LEVEL = "heuristic"
"""The bots' level."""
CHANNELS = 8
"""Connections shared round robin by the callers (fewer when there are fewer callers)."""
TIMEOUT = 30.0
"""Seconds a call may take."""
SETUP_SECONDS = 120.0
"""Seconds the tables may take to be set up before a run gives up waiting for them."""


def _bearer(token: str) -> tuple[tuple[str, str], ...]:
    return (("authorization", f"Bearer {token}"),)


def _describe(exc: BaseException) -> str:
    if isinstance(exc, grpc.aio.AioRpcError):
        return f"{exc.code().name}: {exc.details()}"
    return f"{type(exc).__name__}: {exc}"


@dataclass
class _Meter:
    """The latencies of the calls that complete inside ``[begin, end]`` (``perf_counter`` times)."""

    begin: float = float("inf")
    end: float = float("inf")
    latencies: list[float] = field(default_factory=list)
    errors: Counter[str] = field(default_factory=Counter)
    first_error: str = ""
    request_bytes: int = 0
    """The requests' sizes, summed over the calls in the window (those given to :meth:`done`)."""
    reply_bytes: int = 0
    messages: list[tuple[str, int, int]] = field(default_factory=list)
    """The stream messages received in the window: ``(table id, event version, bytes)``."""
    starts: dict[str, int] = field(default_factory=dict)
    """Each table's version once its match started: the messages after it are its commands'."""

    def done(self, sent: float, now: float, request: Any = None, reply: Any = None) -> None:
        """One call sent at ``sent`` answered at ``now`` (its request and reply messages, to size them)."""
        if self.begin <= now <= self.end:
            self.latencies.append((now - sent) * 1000.0)
            if request is not None and reply is not None:
                self.request_bytes += request.ByteSize()
                self.reply_bytes += reply.ByteSize()

    def message(self, now: float, table_id: str, message: Any) -> None:
        """One stream message of a table received at ``now``."""
        if self.begin <= now <= self.end:
            last = message.events[-1] if message.events else message.event  # a batched watch's run, or one event
            self.messages.append((table_id, int(last.version), message.ByteSize()))

    def caused(self) -> tuple[int, int]:
        """The messages received in the window that the tables' commands caused (those after
        each match's start: not the events of setting the table up and starting its match, which
        a stream opened late may still be catching up on), and their bytes."""
        count = size = 0
        for table_id, version, nbytes in self.messages:
            if version > self.starts.get(table_id, 1 << 62):
                count += 1
                size += nbytes
        return count, size

    def failed(self, exc: BaseException) -> None:
        """One call failed (counted whenever it happens)."""
        kind = exc.code().name if isinstance(exc, grpc.aio.AioRpcError) else type(exc).__name__
        self.errors[kind] += 1
        if not self.first_error:
            self.first_error = _describe(exc)

    def window(self) -> Window:
        """The figures of the window."""
        return Window.of(self.latencies, self.end - self.begin, sum(self.errors.values()), self.first_error)


def _channels(address: str, callers: int) -> list[grpc.aio.Channel]:
    return [grpc.aio.insecure_channel(address, options=CHANNEL_OPTIONS) for _ in range(max(1, min(CHANNELS, callers)))]


async def _timed(
    meter: _Meter,
    callers: int,
    warmup: float,
    window: float,
    work: Callable[[int], Coroutine[Any, Any, None]],
    cpu: Callable[[], float | None] = lambda: None,
) -> tuple[Window, float | None]:
    """Start ``callers`` tasks ``work(i)``, measure ``window`` seconds after ``warmup``, cancel them;
    the window, and the CPU seconds ``cpu()`` (a process's CPU time so far) grew by in it."""
    now = time.perf_counter()
    meter.begin, meter.end = now + warmup, now + warmup + window
    tasks = [asyncio.create_task(work(i)) for i in range(callers)]
    used = await cpu_over_window(tasks, warmup, meter.end, cpu)
    return meter.window(), used


# --------------------------------------------------------------------------- Act


class _MatchOver(Exception):
    """The table's match ended: the slot sets up a new table."""


async def _seat_bot(
    stub: table_pb2_grpc.TableServiceAsyncStub, table_id: str, token: str, rng: random.Random, meter: _Meter
) -> None:
    """Follow one seat's stream; act whenever its view offers it a move; return at ``MatchEnded``.

    Raises:
        grpc.aio.AioRpcError: a call failed.
        RuntimeError: the stream ended before the match did.
    """
    metadata = _bearer(token)
    last = 0
    call = stub.WatchTable(table_pb2.WatchTableRequest(table_id=table_id, batch=True), metadata=metadata)
    try:
        async for message in call:
            meter.message(time.perf_counter(), table_id, message)
            events = message.events or (message.event,)
            if any(e.name == "MatchEnded" for e in events):
                return
            version = int(events[-1].version)
            if version <= last or not message.HasField("view"):
                continue  # an event this seat's own command caused, already answered
            last = version
            view = json.loads(message.view.view_json)
            while my_move(view):
                command = command_message(choose(GAME, view, LEVEL, rng))
                request = table_pb2.ActRequest(table_id=table_id, command_id=uuid.uuid4().hex, command=command)
                sent = time.perf_counter()
                response = await stub.Act(request, metadata=metadata, timeout=TIMEOUT)
                meter.done(sent, time.perf_counter(), request, response)
                last = max(last, int(response.version))
                if any(e.name == "MatchEnded" for e in response.events):
                    return
                view = json.loads(response.view.view_json)
    finally:
        call.cancel()
    raise RuntimeError(f"the stream of table {table_id} ended before its match did (at version {last})")


async def _set_up(stub: table_pb2_grpc.TableServiceAsyncStub) -> tuple[str, str, list[str]]:
    """Create a table and seat the players: ``(table id, owner token, seat tokens)``."""
    created = await stub.CreateTable(table_pb2.CreateTableRequest(game=GAME, seats=SEATS), timeout=TIMEOUT)
    tokens = []
    for seat in range(SEATS):
        joined = await stub.JoinTable(
            table_pb2.JoinTableRequest(table_id=created.table_id, name=f"bot {seat}", seat=seat), timeout=TIMEOUT
        )
        tokens.append(joined.seat_token)
    return created.table_id, created.owner_token, tokens


async def _play(
    stub: table_pb2_grpc.TableServiceAsyncStub,
    table: tuple[str, str, list[str]],
    rng: random.Random,
    meter: _Meter,
) -> None:
    """Start the match of a set-up table and play it to its end."""
    table_id, owner, tokens = table
    bots = [asyncio.create_task(_seat_bot(stub, table_id, t, random.Random(rng.random()), meter)) for t in tokens]
    try:
        started = await stub.StartMatch(
            table_pb2.StartMatchRequest(table_id=table_id, command_id=uuid.uuid4().hex),
            metadata=_bearer(owner),
            timeout=TIMEOUT,
        )
        meter.starts[table_id] = int(started.version)
        await asyncio.gather(*bots)
    finally:
        for bot in bots:
            bot.cancel()
        await asyncio.gather(*bots, return_exceptions=True)


@dataclass(frozen=True, slots=True)
class ActRun(CpuPerCall):
    """One ``Act`` run: the calls of its window, the server's CPU in it, and the sizes to copy."""

    window: Window
    cpu_seconds: float | None
    """The server process's CPU time in the window; None where it cannot be read."""
    table_ids: tuple[str, ...]
    """Every table the run played (to read the events its commands stored)."""
    request_bytes: float
    """Mean ``ActRequest`` size (serialized)."""
    reply_bytes: float
    """Mean ``ActResponse`` size."""
    token_chars: int
    """Length of the seat token sent as ``authorization: Bearer <token>``."""
    stream_messages: float
    """Stream messages the seats' streams received in the window that commands caused (not the
    set-up's, nor the match start's), per ``Act`` completed in the window."""
    stream_message_bytes: float
    """Their mean size."""


async def act_run(
    address: str,
    tables: int,
    warmup: float,
    window: float,
    cpu: Callable[[], float | None] = lambda: None,
    seed: int = 1,
) -> ActRun:
    """``tables`` tables playing at once against the trapoula server at ``address``; the ``Act``
    calls completed in the window, and the CPU seconds the server used in it (``cpu()``: the
    server process's CPU time so far; None where it cannot be read).

    Every table is set up (created, seats joined) before the clock starts; then all matches start.
    A failed call is counted, its table abandoned and replaced after a pause.
    """
    channels = _channels(address, tables)
    stubs = [table_pb2_grpc.TableServiceStub(c) for c in channels]
    meter = _Meter()
    rng = random.Random(seed)
    played: list[str] = []
    tokens: list[str] = []
    try:
        first: list[tuple[str, str, list[str]] | None] = [None] * tables

        async def set_up(stub: table_pb2_grpc.TableServiceAsyncStub) -> tuple[str, str, list[str]]:
            table = await _set_up(stub)
            played.append(table[0])
            tokens.extend(table[2])
            return table

        async def prepare(i: int) -> None:
            try:
                first[i] = await set_up(stubs[i % len(stubs)])
            except Exception as exc:
                meter.failed(exc)

        await asyncio.wait_for(asyncio.gather(*(prepare(i) for i in range(tables))), SETUP_SECONDS)
        seeds = [rng.random() for _ in range(tables)]

        async def slot(i: int) -> None:
            stub, own = stubs[i % len(stubs)], random.Random(seeds[i])
            table = first[i]
            while True:
                try:
                    if table is None:
                        table = await set_up(stub)
                    await _play(stub, table, own, meter)
                except Exception as exc:  # counted; the slot goes on with a new table
                    meter.failed(exc)
                    await asyncio.sleep(0.5)
                table = None

        measured, used = await _timed(meter, tables, warmup, window, slot, cpu)
        calls = max(1, measured.calls)
        streamed, streamed_bytes = meter.caused()
        return ActRun(
            measured,
            used,
            tuple(played),
            meter.request_bytes / calls,
            meter.reply_bytes / calls,
            max((len(t) for t in tokens), default=0),
            streamed / calls,
            streamed_bytes / max(1, streamed),
        )
    finally:
        await close_channels(channels)


# --------------------------------------------------------------------------- fan-out


@dataclass(frozen=True, slots=True)
class Fanout:
    """One event's delivery to every watcher, over ``rounds`` events: the delays (ms) from sending
    the ``Act`` to each watcher having the event, pooled over the rounds."""

    watchers: int
    rounds: int
    delays: Window
    """Delivery delays; ``max_ms`` is the longest wait of a round for its last watcher."""
    act_ms: float
    """The median latency of the rounds' ``Act`` calls."""
    cpu_seconds: float | None
    """The server's CPU time over the rounds, each from sending its ``Act`` until every stream
    had every event it caused; None where it cannot be read."""
    messages: int
    """Messages the streams received in the rounds."""
    message_bytes: float
    """Their mean size."""

    @property
    def cpu_ms_per_watcher(self) -> float | None:
        """The server's CPU milliseconds per watcher and round (one ``Act``'s events to one stream)."""
        if self.cpu_seconds is None:
            return None
        return self.cpu_seconds * 1000.0 / (self.rounds * self.watchers)

    @property
    def messages_per_watcher(self) -> float:
        """Messages each stream received per round."""
        return self.messages / (self.rounds * self.watchers)


async def fanout_run(
    address: str, watchers: int, rounds: int, seed: int = 1, cpu: Callable[[], float | None] = lambda: None
) -> Fanout:
    """``watchers`` spectator streams on one table of the server at ``address``; ``rounds`` times,
    one seat's ``Act`` and the time until every stream has the first event it caused, and the
    server's CPU time (``cpu()``: its CPU time so far) from the ``Act`` until every stream has
    every event it caused.

    The streams are spread over :data:`CHANNELS` connections.  Each round starts once every
    stream has every event so far, so a delay is that of the round's event alone.

    Raises:
        grpc.aio.AioRpcError: a call failed, or a stream did.
        RuntimeError: a stream ended before the rounds did.
        TimeoutError: the streams did not all open, or an event did not reach them all, within
            :data:`SETUP_SECONDS`.
    """
    channels = _channels(address, watchers)
    stubs = [table_pb2_grpc.TableServiceStub(c) for c in channels]
    rng = random.Random(seed)
    stub = stubs[0]
    try:
        table_id, owner, tokens = await _set_up(stub)
        await stub.StartMatch(
            table_pb2.StartMatchRequest(table_id=table_id, command_id=uuid.uuid4().hex),
            metadata=_bearer(owner),
            timeout=TIMEOUT,
        )
        head = int((await stub.GetView(table_pb2.GetViewRequest(table_id=table_id), timeout=TIMEOUT)).view.version)
        seen = [0] * watchers
        arrived = [0.0] * watchers
        baseline = head
        counting = False
        messages = 0
        sizes = 0
        failures: list[BaseException] = []
        progress = asyncio.Condition()

        async def watch(i: int) -> None:
            nonlocal messages, sizes
            call = stubs[i % len(stubs)].WatchTable(table_pb2.WatchTableRequest(table_id=table_id))
            try:
                async for message in call:
                    now = time.perf_counter()
                    version = int(message.event.version)
                    if counting:
                        messages += 1
                        sizes += message.ByteSize()
                    if version > seen[i]:
                        seen[i] = version
                        if version > baseline and not arrived[i]:
                            arrived[i] = now
                        async with progress:
                            progress.notify_all()
                raise RuntimeError(f"watcher {i}'s stream ended at version {seen[i]}")
            except Exception as exc:
                failures.append(exc)
                async with progress:
                    progress.notify_all()
            finally:
                call.cancel()

        async def everyone_at(version: int) -> None:
            async with progress:
                await progress.wait_for(lambda: bool(failures) or min(seen) >= version)
            if failures:
                raise failures[0]

        tasks = [asyncio.create_task(watch(i)) for i in range(watchers)]
        try:
            await asyncio.wait_for(everyone_at(head), SETUP_SECONDS)
            delays: list[float] = []
            acts: list[float] = []
            used: float | None = 0.0
            for _ in range(rounds):
                views = []
                for token in tokens:
                    reply = await stub.GetView(
                        table_pb2.GetViewRequest(table_id=table_id), metadata=_bearer(token), timeout=TIMEOUT
                    )
                    views.append(json.loads(reply.view.view_json))
                mover = next(i for i, v in enumerate(views) if my_move(v))
                command = command_message(choose(GAME, views[mover], LEVEL, rng))
                request = table_pb2.ActRequest(table_id=table_id, command_id=uuid.uuid4().hex, command=command)
                counting = True
                before = cpu()
                sent = time.perf_counter()
                response = await stub.Act(request, metadata=_bearer(tokens[mover]), timeout=TIMEOUT)
                acts.append((time.perf_counter() - sent) * 1000.0)
                await asyncio.wait_for(everyone_at(int(response.version)), SETUP_SECONDS)
                after = cpu()
                counting = False
                used = used + after - before if used is not None and before is not None and after is not None else None
                delays += [(t - sent) * 1000.0 for t in arrived]
                baseline = int(response.version)
                arrived = [0.0] * watchers
        finally:
            for task in tasks:
                task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)
        acts.sort()
        return Fanout(
            watchers, rounds, Window.of(delays, 0.0), acts[len(acts) // 2], used, messages, sizes / max(1, messages)
        )
    finally:
        await close_channels(channels)
