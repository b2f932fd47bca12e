"""The bare ``grpc.aio`` baselines: a unary call and server-stream messages with no work behind
them, served by ``python -m bench --bare-server`` (:func:`serve_bare`) in its own process, whose
CPU time is what they cost.

* :data:`UNARY_METHOD` (a generic unary handler on raw bytes, no protobuf): the request's first
  4 bytes (big-endian) say how long the reply is; the reply is that many bytes, made once per
  length.  So a call has the request and reply sizes of an ``Act`` (:func:`unary_run` pads the
  request to the ``ActRequest``'s size and sends an ``authorization`` header of the same length).
* :data:`WATCH_METHOD` (unary-stream): a stream in a group (the request's 4-byte message size,
  4-byte group and 4-byte messages per wake-up).  It waits to be woken, sends that many messages
  of that size, and waits again.
* :data:`DRIVE_METHOD` (unary): for the seconds it is asked (0: it answers how many streams
  wait), wakes every group whose streams all
  wait, from a thread that is not the event loop's (``loop.call_soon_threadsafe``), as the
  server's store threads wake its watchers after a save (``trapoula.service.fanout``).  A group
  is woken again once each of its streams has sent its messages and waits again: one event to
  the group's watchers, over and over.  It answers with the messages sent meanwhile (8 bytes).

:func:`stream_run` opens the streams, drives them and reads the server's CPU before and after:
the CPU per stream message.
"""

from __future__ import annotations

import asyncio
import queue
import signal
import struct
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import grpc

from trapoula.clients.load import CHANNEL_OPTIONS

from .figures import CpuPerCall, Window, cpu_over_window

SERVICE = "trapoula.bench.Bare"
UNARY_METHOD = f"/{SERVICE}/Unary"
"""Raw bytes in, as many raw bytes out as the request's first 4 bytes say."""
WATCH_METHOD = f"/{SERVICE}/Watch"
"""A stream of messages, each burst woken from another thread."""
DRIVE_METHOD = f"/{SERVICE}/Drive"
"""Wake the streams' groups for some seconds; answers how many messages were sent."""
READY = "bare serving on "
"""The line the bare server prints once serving, followed by ``host:port``."""
CHANNELS = 8
"""Connections shared by the callers and streams (fewer when there are fewer)."""
TIMEOUT = 60.0
"""Seconds a call may take."""


# --------------------------------------------------------------------------- the server


class _Hub:
    """Streams waiting by group; a group whose streams all wait is handed to the waking thread."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.waiting: dict[int, list[tuple[asyncio.AbstractEventLoop, asyncio.Future[None]]]] = {}
        self.size: dict[int, int] = {}
        """Streams per group while driven (a group is complete at this many)."""
        self.ready: queue.SimpleQueue[list[tuple[asyncio.AbstractEventLoop, asyncio.Future[None]]] | None] = (
            queue.SimpleQueue()
        )
        self.driving = False
        self.sent = 0

    def wait(self, group: int) -> asyncio.Future[None]:
        """A future set once this stream's group is woken (from the event loop's thread)."""
        loop = asyncio.get_running_loop()
        future: asyncio.Future[None] = loop.create_future()
        with self.lock:
            waiting = self.waiting.setdefault(group, [])
            waiting.append((loop, future))
            if self.driving and len(waiting) >= self.size.get(group, 0) > 0:
                self.ready.put(self.waiting.pop(group))
        return future

    def drive(self, groups: int, streams: int) -> None:
        """Start waking the groups ``0 .. groups-1`` of ``streams`` streams each."""
        with self.lock:
            self.size = dict.fromkeys(range(groups), streams)
            self.driving = True
            for group in range(groups):
                if len(self.waiting.get(group, [])) >= streams:
                    self.ready.put(self.waiting.pop(group))

    def halt(self) -> None:
        """Stop waking groups (the streams woken already send their messages)."""
        with self.lock:
            self.driving = False

    def waker(self) -> None:
        """The waking thread: wake each complete group, from outside the event loop."""
        while True:
            batch = self.ready.get()
            if batch is None:
                return
            for loop, future in batch:
                loop.call_soon_threadsafe(_wake, future)


def _wake(future: asyncio.Future[None]) -> None:
    if not future.done():
        future.set_result(None)


_replies: dict[int, bytes] = {}


async def _unary(request: bytes, context: grpc.aio.ServicerContext[bytes, bytes]) -> bytes:
    (length,) = struct.unpack_from(">I", request)
    reply = _replies.get(length)
    if reply is None:
        reply = _replies[length] = bytes(length)
    return reply


async def _serve_bare() -> None:
    hub = _Hub()
    waker = threading.Thread(target=hub.waker, name="bench-bare-waker", daemon=True)
    waker.start()

    async def watch(request: bytes, context: grpc.aio.ServicerContext[bytes, bytes]):  # type: ignore[no-untyped-def]
        size, group, burst = struct.unpack_from(">III", request)
        message = bytes(size)
        while True:
            await hub.wait(group)
            for _ in range(burst):
                yield message
            hub.sent += burst

    async def drive(request: bytes, context: grpc.aio.ServicerContext[bytes, bytes]) -> bytes:
        groups, streams, millis = struct.unpack_from(">III", request)
        if not millis:  # no driving: how many streams wait
            with hub.lock:
                return struct.pack(">Q", sum(len(w) for w in hub.waiting.values()))
        before = hub.sent
        hub.drive(groups, streams)
        await asyncio.sleep(millis / 1000.0)
        hub.halt()
        return struct.pack(">Q", hub.sent - before)

    server = grpc.aio.server()
    handlers = {  # no (de)serializers: raw bytes in and out
        "Unary": grpc.unary_unary_rpc_method_handler(_unary),
        "Watch": grpc.unary_stream_rpc_method_handler(watch),
        "Drive": grpc.unary_unary_rpc_method_handler(drive),
    }
    server.add_generic_rpc_handlers((grpc.method_handlers_generic_handler(SERVICE, handlers),))
    port = server.add_insecure_port("127.0.0.1:0")
    await server.start()
    print(f"{READY}127.0.0.1:{port}", flush=True)
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(sig, stop.set)
    await stop.wait()
    hub.ready.put(None)
    await server.stop(1.0)


def serve_bare() -> None:
    """Serve the bare methods on a free port of 127.0.0.1 until SIGTERM; print
    ``bare serving on HOST:PORT`` once serving."""
    asyncio.run(_serve_bare())


# --------------------------------------------------------------------------- the client


def _channels(address: str, count: int) -> list[grpc.aio.Channel]:
    return [grpc.aio.insecure_channel(address, options=CHANNEL_OPTIONS) for _ in range(max(1, min(CHANNELS, count)))]


DRAIN_SECONDS = 0.1
"""How long :func:`close_channels` keeps the loop running after the channels closed."""


async def close_channels(channels: Sequence[grpc.aio.Channel]) -> None:
    """Close ``channels`` (cancelling their calls), then keep the running loop going for
    :data:`DRAIN_SECONDS`, so that grpc hands it the completions of the calls just cancelled.

    Each step of the bench runs its own event loop (``asyncio.run``), and grpc's asyncio completion
    queue is one for the whole process: a completion that arrives after its loop has closed is
    delivered by the next step's loop, which logs it as ``RuntimeError: Event loop is closed``
    (hundreds of tracebacks after a run whose calls were refused and its tables abandoned).
    """
    await asyncio.gather(*(c.close(None) for c in channels), return_exceptions=True)
    await asyncio.sleep(DRAIN_SECONDS)


@dataclass(frozen=True, slots=True)
class Bare(CpuPerCall):
    """Bare calls or messages in a window, and the bare server's CPU in it."""

    window: Window
    """The calls (or messages) completed in the window, their latencies (none for messages)."""
    cpu_seconds: float | None
    """The bare server's CPU time in the window; None where it cannot be read."""


async def unary_run(
    address: str,
    callers: int,
    warmup: float,
    window: float,
    request_bytes: int,
    reply_bytes: int,
    token_chars: int,
    cpu: Callable[[], float | None],
) -> Bare:
    """``callers`` closed-loop callers of :data:`UNARY_METHOD` with requests of ``request_bytes``
    (at least 4), replies of ``reply_bytes`` and an ``authorization: Bearer <token_chars
    characters>`` header; the calls completed in ``window`` seconds after ``warmup``, and the
    server's CPU seconds in it (``cpu()``: its CPU time so far)."""
    request = struct.pack(">I", reply_bytes) + bytes(max(0, request_bytes - 4))
    metadata = (("authorization", "Bearer " + "t" * token_chars),) if token_chars else None
    channels = _channels(address, callers)
    latencies: list[float] = []
    errors: list[str] = []
    try:
        calls = [c.unary_unary(UNARY_METHOD, None, None) for c in channels]
        for call in calls:  # connect every channel before the clock starts
            await call(request, metadata=metadata, timeout=TIMEOUT)
        now = time.perf_counter()
        begin, end = now + warmup, now + warmup + window

        async def caller(i: int) -> None:
            call = calls[i % len(calls)]
            while True:
                sent = time.perf_counter()
                try:
                    await call(request, metadata=metadata, timeout=TIMEOUT)
                except grpc.aio.AioRpcError as exc:
                    errors.append(f"{exc.code().name}: {exc.details()}")
                    await asyncio.sleep(0.1)
                    continue
                done = time.perf_counter()
                if begin <= done <= end:
                    latencies.append((done - sent) * 1000.0)

        tasks = [asyncio.create_task(caller(i)) for i in range(callers)]
        used = await cpu_over_window(tasks, warmup, end, cpu)
        return Bare(Window.of(latencies, window, len(errors), errors[0] if errors else ""), used)
    finally:
        await close_channels(channels)


async def stream_run(
    address: str,
    groups: int,
    streams: int,
    message_bytes: int,
    burst: int,
    warmup: float,
    window: float,
    cpu: Callable[[], float | None],
) -> Bare:
    """``groups`` groups of ``streams`` streams of :data:`WATCH_METHOD`, each woken over and over
    from the server's waking thread and sending ``burst`` messages of ``message_bytes`` each
    time; driven ``warmup`` seconds unmeasured, then ``window`` seconds measured: the messages
    sent in the window (no latencies) and the server's CPU seconds in it.

    Raises:
        RuntimeError: a stream ended or failed.
    """
    total = groups * streams
    channels = _channels(address, total)
    failures: list[BaseException] = []

    async def follow(i: int) -> None:
        group = i // streams
        request = struct.pack(">III", message_bytes, group, burst)
        call = channels[i % len(channels)].unary_stream(WATCH_METHOD, None, None)(request, timeout=None)
        try:
            async for _ in call:
                pass
        except Exception as exc:
            failures.append(exc)
        finally:
            call.cancel()

    tasks = [asyncio.create_task(follow(i)) for i in range(total)]
    try:
        drive = channels[0].unary_unary(DRIVE_METHOD, None, None)

        async def driven(seconds: float) -> int:
            reply = await drive(struct.pack(">III", groups, streams, round(seconds * 1000)), timeout=TIMEOUT)
            (sent,) = struct.unpack(">Q", reply)
            return int(sent)

        deadline = time.monotonic() + TIMEOUT
        while await driven(0.0) < total:  # every stream reached the server and waits
            if failures or time.monotonic() > deadline:
                raise RuntimeError(f"the bare streams did not all open: {failures[0] if failures else 'timed out'}")
            await asyncio.sleep(0.05)
        await driven(warmup)
        before = cpu()
        began = time.perf_counter()
        sent = await driven(window)
        seconds = time.perf_counter() - began
        after = cpu()
        if failures:
            raise RuntimeError(f"a bare stream failed: {failures[0]}")
        used = after - before if before is not None and after is not None else None
        return Bare(Window(sent, seconds, 0.0, 0.0, 0.0), used)
    finally:
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        await close_channels(channels)
