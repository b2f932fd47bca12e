"""The figures measured on a ``Tables`` in this process: replay of a stored record, memory per open
table, and the bare store append that the gRPC rows are compared with.

* Replay: four server-side bots play a match of :data:`RECORD_GAME` to its end; its record
  (``Tables.record``, what ``GetRecord`` sends) is then folded through the domain by the
  client's :class:`~trapoula.clients.replay.Replay` (JSON parsing included), audited by
  :func:`~trapoula.clients.audit.audit_text` (hash chain, commitments, every command re-decided),
  and its stored events cold-loaded by a new ``Tables`` on the same store with snapshots off
  (every event read and applied).
* Memory: tables of :data:`MEMORY_GAME` (4 seats joined, match started, first hand dealt) held
  in ``Tables``' cache of a fresh process; the growth of the Python heap (``tracemalloc``) and of
  the process's resident memory, each divided by the tables added.
* Store append: the recorder ``Tables`` saves through (eventsourcing-sqlalchemy, the same store
  and settings) appends the very events ``Act`` commands stored (read back from the store: each
  command's events, their topics and bytes as stored), one command's events per call, each
  caller to its own stream, in a process of its own (``python -m bench --append-probe``, whose
  CPU time is what the appends cost); the calls run from an asyncio loop on a pool of as many
  threads as the server's store pool, as the server runs its store calls.
"""

from __future__ import annotations

import asyncio
import gc
import json
import os
import subprocess
import sys
import time
import tracemalloc
import uuid
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any

from eventsourcing.persistence import StoredEvent

from trapoula.clients.audit import audit_text
from trapoula.clients.replay import Replay
from trapoula.service.application import OWNER, Tables

from .figures import Window
from .servers import bench_env

RECORD_GAME = "agonia"
"""The game of the replayed record."""
MEMORY_GAME = "agonia"
"""The game of the tables held open."""
STORE_WORKERS = 16
"""Threads running the store appends: ``create_server``'s default store pool."""
SECRET = bytes.fromhex("b3" * 32)
"""The bench's server secret (in-process ``Tables``)."""


@dataclass(frozen=True, slots=True)
class ReplayFigures:
    """Events per second of one record, three ways."""

    events: int
    """Events in the record."""
    fold_per_s: float
    """Parsed and folded by ``Replay.from_text``."""
    audit_per_s: float
    """Audited by ``audit_text``."""
    cold_load_per_s: float
    """Read from the store and applied by a new ``Tables`` (snapshots off)."""


def _repeat(seconds: float, work: Callable[[], object], least: int = 1) -> tuple[int, float]:
    """Run ``work`` until ``seconds`` of this process's CPU time have passed (at least ``least``
    times): ``(runs, CPU seconds)``."""
    runs = 0
    began = time.process_time()
    while runs < least or time.process_time() - began < seconds:
        work()
        runs += 1
    return runs, time.process_time() - began


def replay_figures(database_url: str, target_points: int, seconds: float) -> ReplayFigures:
    """Play a bots' match of :data:`RECORD_GAME` to ``target_points`` on ``database_url`` and
    measure its record (each measure repeated for about ``seconds``).

    Raises:
        RuntimeError: the match did not end within a minute, or its record does not audit clean.
    """
    tables = Tables(database_url, SECRET)
    try:
        table_id, _ = tables.create_table(RECORD_GAME, 4, {"target_points": target_points})
        for seat in range(4):
            tables.add_bot(table_id, "heuristic", seat)
        tables.start_match(table_id, OWNER, uuid.uuid4().hex)
        if not tables.settle(60.0):
            raise RuntimeError("the bots' match did not end within 60 s")
        text, _hands = tables.record(table_id)
    finally:
        tables.close()
    report = audit_text(text)
    if not report.ok:
        raise RuntimeError(f"the record does not audit clean: {report.first}")
    length = Replay.from_text(text).length
    runs, took = _repeat(seconds, lambda: Replay.from_text(text))
    fold = runs * length / took
    runs, took = _repeat(seconds, lambda: audit_text(text))
    audited = runs * report.events / took
    loaded = 0
    took = 0.0
    began = time.process_time()
    while loaded == 0 or time.process_time() - began < seconds:
        fresh = Tables(database_url, SECRET, snapshot_every=0)
        try:
            start = time.process_time()
            loaded += len(fresh.stored_events(table_id))
            took += time.process_time() - start
        finally:
            fresh.close()
    return ReplayFigures(report.events, fold, audited, loaded / took)


@dataclass(frozen=True, slots=True)
class MemoryFigures:
    """Memory per table held open."""

    tables: int
    """Tables added in each pass."""
    traced_bytes: float
    """Python heap growth per table (``tracemalloc``)."""
    rss_bytes: float
    """Resident memory growth per table."""


def _rss() -> int:
    """The process's resident memory (bytes); from ``/proc`` (Linux), else the peak from ``getrusage``."""
    try:
        with open("/proc/self/statm", encoding="ascii") as statm:
            return int(statm.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
    except OSError:
        import resource

        return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024


def _probe(what: str, args: Sequence[str], stdin: str | None = None) -> Any:
    """``python -m bench --<what>-probe <args>`` in a child process, ``stdin`` on its input: the last
    line of its output, read as JSON.

    Raises:
        RuntimeError: the child failed; the message holds the end of its error output.
    """
    done = subprocess.run(
        [sys.executable, "-m", "bench", f"--{what}-probe", *args],
        input=stdin,
        capture_output=True,
        text=True,
        env=bench_env(),
        timeout=600,
        check=False,
    )
    if done.returncode != 0:
        raise RuntimeError(f"the {what} probe failed ({done.returncode}): {done.stderr.strip()[-500:]}")
    return json.loads(done.stdout.strip().splitlines()[-1])


def memory_in_child(database_url: str, count: int) -> MemoryFigures:
    """:func:`memory_figures` in a new interpreter (``python -m bench --memory-probe``), so that
    memory this process freed earlier, and would reuse, does not hide the growth.

    Raises:
        RuntimeError: the child failed; the message holds the end of its error output.
    """
    figures = _probe("memory", [str(count), database_url])
    return MemoryFigures(int(figures["tables"]), float(figures["traced_bytes"]), float(figures["rss_bytes"]))


def memory_figures(database_url: str, count: int) -> MemoryFigures:
    """Open ``count`` started tables on ``database_url`` twice over (resident memory, then the
    traced heap, which slows the work); the growth of each, per table (best in a fresh process:
    :func:`memory_in_child`)."""
    tables = Tables(database_url, SECRET, cache_size=3 * count + 10)

    def open_tables(n: int) -> None:
        for _ in range(n):
            table_id, _ = tables.create_table(MEMORY_GAME, 4)
            for seat in range(4):
                tables.join(table_id, f"player {seat}", seat)
            tables.start_match(table_id, OWNER, uuid.uuid4().hex)

    try:
        open_tables(5)  # the code paths, caches and pools warmed up
        gc.collect()
        before = _rss()
        open_tables(count)
        gc.collect()
        rss = (_rss() - before) / count
        tracemalloc.start()
        try:
            gc.collect()
            traced = tracemalloc.get_traced_memory()[0]
            open_tables(count)
            gc.collect()
            traced = tracemalloc.get_traced_memory()[0] - traced
        finally:
            tracemalloc.stop()
        return MemoryFigures(count, traced / count, rss)
    finally:
        tables.close()


Batch = list[tuple[str, bytes]]
"""One command's stored events: ``(topic, state)`` each, in order."""


def act_batches(tables: Tables, table_ids: Iterable[str]) -> list[Batch]:
    """The events each seat's command (``Act``) stored at the tables ``table_ids``, one batch per
    command, as the store holds them (a command's events carry its id; those of a seat's command
    start with the seat's own)."""
    batches: list[Batch] = []
    for table_id in table_ids:
        current: Batch = []
        command: Any = None
        for stored in tables.recorder.select_events(uuid.UUID(table_id)):
            event = tables.mapper.to_domain_event(stored)
            command_id = getattr(event, "command_id", None)
            if command_id is None or command_id != command:
                if current:
                    batches.append(current)
                current, command = [], None
                if command_id is not None and str(getattr(event, "actor", "")).startswith("seat:"):
                    command = command_id
            if command is not None:
                current.append((stored.topic, bytes(stored.state)))
        if current:
            batches.append(current)
    return batches


@dataclass(frozen=True, slots=True)
class AppendFigures:
    """Bare appends of ``Act``'s events in a window, and the appending process's CPU in it."""

    window: Window
    cpu_seconds: float
    """The appending process's CPU time in the window (all its threads)."""
    events: float
    """Events per append (the mean over the commands replayed)."""
    event_bytes: float
    """Bytes of events per append (their stored state, summed; the mean over the commands)."""

    @property
    def cpu_ms(self) -> float | None:
        """CPU milliseconds per append completed in the window."""
        return self.cpu_seconds * 1000.0 / self.window.calls if self.window.calls else None


def append_in_child(
    database_url: str, schema: str | None, table_ids: Sequence[str], callers: int, warmup: float, window: float
) -> AppendFigures:
    """:func:`append_figures` in a process of its own (``python -m bench --append-probe``), so that
    its CPU time is the appends' alone.

    Raises:
        RuntimeError: the child failed; the message holds the end of its error output.
    """
    spec = {
        "url": database_url,
        "schema": schema,
        "tables": list(table_ids),
        "callers": callers,
        "warmup": warmup,
        "window": window,
    }
    figures = _probe("append", [], json.dumps(spec))
    return AppendFigures(Window(**figures["window"]), figures["cpu_seconds"], figures["events"], figures["event_bytes"])


def append_figures(spec: dict[str, Any]) -> dict[str, Any]:
    """The append probe (run by :func:`append_in_child` from the JSON ``spec``): read the events of
    the ``Act`` commands of ``spec["tables"]``, then ``spec["callers"]`` closed-loop callers each
    append one command's events per call (:data:`STORE_WORKERS` threads), each to its own new
    stream, cycling through the commands; measure ``spec["window"]`` seconds after
    ``spec["warmup"]``.  The figures, ready for JSON.

    Raises:
        RuntimeError: no command's events were found.
    """
    tables = Tables(spec["url"], SECRET, schema=spec["schema"])
    executor = ThreadPoolExecutor(max_workers=STORE_WORKERS, thread_name_prefix="bench-store")
    try:
        batches = act_batches(tables, spec["tables"])
        if not batches:
            raise RuntimeError("the tables hold no seat's command")
        callers, warmup, window = int(spec["callers"]), float(spec["warmup"]), float(spec["window"])
        result = _append_run(tables, executor, batches, callers, warmup, window)
    finally:
        executor.shutdown(wait=True)
        tables.close()
    measured, cpu = result
    return {
        "window": {f: getattr(measured, f) for f in Window.__dataclass_fields__},
        "cpu_seconds": cpu,
        "events": sum(len(b) for b in batches) / len(batches),
        "event_bytes": sum(len(state) for b in batches for _, state in b) / len(batches),
    }


def _append_run(
    tables: Tables, executor: ThreadPoolExecutor, batches: list[Batch], callers: int, warmup: float, window: float
) -> tuple[Window, float]:
    recorder = tables.recorder
    latencies: list[float] = []
    errors: list[str] = []
    cpu = [0.0, 0.0]

    def append(stream: uuid.UUID, version: int, batch: Batch) -> None:
        recorder.insert_events(
            [StoredEvent(stream, version + i, topic, state) for i, (topic, state) in enumerate(batch, start=1)]
        )

    async def main() -> None:
        loop = asyncio.get_running_loop()
        now = time.perf_counter()
        begin, end = now + warmup, now + warmup + window

        async def caller(index: int) -> None:
            stream = uuid.uuid4()
            version = 0
            turn = index * 7919  # callers start at different commands
            while time.perf_counter() < end:
                batch = batches[turn % len(batches)]
                turn += 1
                sent = time.perf_counter()
                try:
                    await loop.run_in_executor(executor, append, stream, version, batch)
                except Exception as exc:
                    errors.append(f"{type(exc).__name__}: {str(exc).splitlines()[0] if str(exc) else ''}")
                    stream, version = uuid.uuid4(), 0
                    continue
                version += len(batch)
                done = time.perf_counter()
                if begin <= done <= end:
                    latencies.append((done - sent) * 1000.0)

        async def clock() -> None:
            await asyncio.sleep(warmup)
            cpu[0] = time.process_time()
            await asyncio.sleep(max(0.0, end - time.perf_counter()))
            cpu[1] = time.process_time()

        await asyncio.gather(clock(), *(caller(i) for i in range(callers)))

    asyncio.run(main())
    return Window.of(latencies, window, len(errors), errors[0] if errors else ""), cpu[1] - cpu[0]
