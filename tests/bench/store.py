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
  and settings) appends one small event per call, each caller to its own stream; the calls run
  on a pool of as many threads as the server's store pool, as the server runs its store calls.
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
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass

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
    """Run ``work`` until ``seconds`` have passed (at least ``least`` times): ``(runs, seconds)``."""
    runs = 0
    began = time.perf_counter()
    while runs < least or time.perf_counter() - began < seconds:
        work()
        runs += 1
    return runs, time.perf_counter() - began


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
    began = time.perf_counter()
    while loaded == 0 or time.perf_counter() - began < seconds:
        fresh = Tables(database_url, SECRET, snapshot_every=0)
        try:
            start = time.perf_counter()
            loaded += len(fresh.stored_events(table_id))
            took += time.perf_counter() - start
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


def memory_in_child(database_url: str, count: int) -> MemoryFigures:
    """:func:`memory_figures` in a new interpreter (``python -m bench --memory-probe``), so that
    memory this process freed earlier, and would reuse, does not hide the growth.

    Raises:
        RuntimeError: the child failed; the message holds the end of its error output.
    """
    done = subprocess.run(
        [sys.executable, "-m", "bench", "--memory-probe", str(count), database_url],
        capture_output=True,
        text=True,
        env=bench_env(),
        timeout=600,
        check=False,
    )
    if done.returncode != 0:
        raise RuntimeError(f"the memory probe failed ({done.returncode}): {done.stderr.strip()[-500:]}")
    figures = json.loads(done.stdout.strip().splitlines()[-1])
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


def append_run(database_url: str, schema: str | None, callers: int, warmup: float, window: float) -> Window:
    """``callers`` closed-loop callers appending one small event each per call through the store's
    recorder (:data:`STORE_WORKERS` threads); the appends completed in the window."""
    tables = Tables(database_url, SECRET, schema=schema)
    executor = ThreadPoolExecutor(max_workers=STORE_WORKERS, thread_name_prefix="bench-store")
    recorder = tables.recorder
    latencies: list[float] = []
    errors: list[str] = []

    def append(stream: uuid.UUID, version: int) -> None:
        recorder.insert_events([StoredEvent(stream, version, "bench:Appended", b'{"n":%d}' % version)])

    async def main() -> None:
        loop = asyncio.get_running_loop()
        now = time.perf_counter()
        begin, end = now + warmup, now + warmup + window

        async def caller() -> None:
            stream = uuid.uuid4()
            version = 0
            while time.perf_counter() < end:
                version += 1
                sent = time.perf_counter()
                try:
                    await loop.run_in_executor(executor, append, stream, version)
                except Exception as exc:
                    errors.append(f"{type(exc).__name__}: {str(exc).splitlines()[0] if str(exc) else ''}")
                    stream, version = uuid.uuid4(), 0
                    continue
                done = time.perf_counter()
                if begin <= done <= end:
                    latencies.append((done - sent) * 1000.0)

        await asyncio.gather(*(caller() for _ in range(callers)))

    try:
        asyncio.run(main())
    finally:
        executor.shutdown(wait=True)
        tables.close()
    return Window.of(latencies, window, len(errors), errors[0] if errors else "")
