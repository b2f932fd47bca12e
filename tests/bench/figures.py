"""The figures of a benchmark run: what each one is called, how calls measured in a time window
become a rate and latency percentiles, the flat list of keys a complete run fills in, and the
bounds some of them must meet (:func:`bounds`).

Every figure has a key (``grpc.sqlite.10.act.p99_ms``); :class:`Results` maps keys to numbers, or
to a text ``skipped: <reason>`` where a part could not run (no PostgreSQL, no open_spiel).
:func:`expected_keys` lists the keys of a complete run, for the report and the quick test.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from trapoula.clients.load import percentile

Value = float | int | str
"""A figure: a number, or ``skipped: <reason>``."""

STORES = ("sqlite", "postgresql")
"""The stores the gRPC rows are measured on."""
SKIPPED = "skipped: "
"""The prefix of a figure that could not be measured."""


@dataclass(frozen=True, slots=True)
class Window:
    """Calls completed in one measuring window: their number, the window's length and the
    latencies (ms) of those calls, nearest-rank percentiles (as ``trapoula load``)."""

    calls: int
    """Calls completed inside the window."""
    seconds: float
    """The window's length (s)."""
    p50_ms: float
    """Median latency (ms); 0.0 when no call completed."""
    p99_ms: float
    """99th percentile latency (ms); 0.0 when no call completed."""
    max_ms: float
    """Slowest call (ms); 0.0 when no call completed."""
    errors: int = 0
    """Calls that failed (a gRPC status, a client fault)."""
    first_error: str = ""
    """The first failure's message, '' when none."""

    @property
    def per_s(self) -> float:
        """Calls completed per second of the window."""
        return self.calls / self.seconds if self.seconds > 0 else 0.0

    @classmethod
    def of(cls, latencies_ms: Iterable[float], seconds: float, errors: int = 0, first_error: str = "") -> Window:
        """The window of the calls whose latencies (ms, any order) are given."""
        ordered = sorted(latencies_ms)
        if not ordered:
            return cls(0, seconds, 0.0, 0.0, 0.0, errors, first_error)
        return cls(
            len(ordered),
            seconds,
            percentile(ordered, 50),
            percentile(ordered, 99),
            ordered[-1],
            errors,
            first_error,
        )


class CpuPerCall:
    """For a run's figures with its ``window`` and the server's ``cpu_seconds`` in it: the server's
    CPU milliseconds per call (or message, or ``Act``) completed in the window."""

    __slots__ = ()
    window: Window
    cpu_seconds: float | None

    @property
    def cpu_ms(self) -> float | None:
        """The server's CPU milliseconds per call completed in the window; None without a CPU reading
        or a call."""
        if self.cpu_seconds is None or not self.window.calls:
            return None
        return self.cpu_seconds * 1000.0 / self.window.calls


@dataclass
class Results:
    """Every figure of a run by key, with the facts of the machine it ran on."""

    values: dict[str, Value] = field(default_factory=dict)
    """Figure key -> number or ``skipped: <reason>``."""
    machine: dict[str, str] = field(default_factory=dict)
    """CPU count, Python and library versions, the PostgreSQL server's version."""
    notes: list[str] = field(default_factory=list)
    """Lines printed under the report: what was skipped and why, errors met."""

    def put(self, key: str, value: Value) -> None:
        """Set one figure."""
        self.values[key] = value

    def skip(self, keys: Iterable[str], reason: str) -> None:
        """Mark ``keys`` as not measured, for ``reason`` (one line)."""
        for key in keys:
            self.values[key] = SKIPPED + reason

    def number(self, key: str) -> float | None:
        """The figure ``key`` as a number; None when it is missing or skipped."""
        value = self.values.get(key)
        return float(value) if isinstance(value, int | float) else None


def ratio(numerator: float | None, denominator: float | None) -> float | None:
    """``numerator / denominator``; None when either is missing or the denominator is 0."""
    if numerator is None or denominator is None or denominator == 0:
        return None
    return numerator / denominator


def histogram_quantile(buckets: Sequence[tuple[float, float]], q: float) -> float | None:
    """The upper bound of the bucket the ``q``-quantile (0 < q <= 1) falls in, of a Prometheus
    histogram given as its cumulative ``(le, count)`` buckets (``le`` ascending, the last
    ``inf``): the quantile is at most that; None when the histogram counted nothing.

    >>> histogram_quantile([(0.01, 90.0), (0.05, 99.0), (0.1, 100.0), (float("inf"), 100.0)], 0.99)
    0.05
    >>> histogram_quantile([(0.01, 0.0), (float("inf"), 0.0)], 0.5) is None
    True
    """
    total = buckets[-1][1] if buckets else 0.0
    if total <= 0:
        return None
    for le, count in buckets:
        if count >= q * total:
            return le
    return buckets[-1][0]


def domain_keys(games: Sequence[str]) -> list[str]:
    """Hands and commands per CPU second of random play in the pure domain, per game; the bare
    program's, open_spiel's crazy_eights reference and the ratios."""
    keys = [f"domain.{g}.{what}" for g in games for what in ("hands_per_s", "commands_per_s")]
    return keys + BARE_KEYS + OPENSPIEL_KEYS


BARE_KEYS = [
    "bare.crazy_eights.hands_per_s",
    "bare.crazy_eights.moves_per_s",
    "domain.ratio.crazy_eights_vs_bare",
]
"""The bare Crazy Eights program (:mod:`bench.bare_crazy_eights`): its hands and moves per CPU
second, and trapoula's crazy_eights microseconds per command over its microseconds per move."""

FOLD_BEFORE = 29_634
"""Replay fold events per CPU second at commit 534447a, before the work on the domain's speed
(docs/benchmarks.md)."""
AUDIT_BEFORE = 8_438
"""Replay audit events per CPU second at commit 534447a (docs/benchmarks.md)."""


OPENSPIEL_KEYS = [
    "openspiel.crazy_eights.playouts_per_s",
    "openspiel.crazy_eights.actions_per_s",
    "openspiel.ratio.hands_vs_playouts",
    "openspiel.ratio.commands_vs_actions",
]
"""open_spiel's figures: skipped with the reason when it is not installed."""

REPLAY_KEYS = [
    "replay.events",
    "replay.fold_events_per_s",
    "replay.audit_events_per_s",
    "replay.cold_load_events_per_s",
]
"""Replay of a stored record: its size, then events per second folded, audited, cold-loaded."""

ACT_FIELDS = (
    "act.per_s",
    "act.p50_ms",
    "act.p99_ms",
    "act.errors",
    "act.server_cores",
    "act.server_cpu_ms",
    "act.request_bytes",
    "act.reply_bytes",
    "act.stream_messages",
    "act.stream_message_bytes",
    "act.events",
    "act.event_bytes",
)
"""Per store and table count: ``Act`` over gRPC, with the server process's CPU in the window
(cores busy on average, CPU ms per command) and the sizes the baselines copy: the request and
the reply (bytes), the stream messages one command causes to its table's watchers (how many, and
their mean size), the events one command stores (how many, and their bytes in all)."""
BASELINE_FIELDS = (
    "echo.per_s",
    "echo.p50_ms",
    "echo.p99_ms",
    "echo.server_cpu_ms",
    "stream.per_s",
    "stream.server_cpu_ms",
    "append.per_s",
    "append.p50_ms",
    "append.p99_ms",
    "append.cpu_ms",
)
"""Per store and table count, the bare baselines at the same concurrency and sizes: a unary call
(rate, latency, the bare server's CPU ms per call), a stream message woken from another thread
(messages a second, CPU ms per message) and a recorder append of the same events (rate,
latency, the appending process's CPU ms per append)."""
RATIO_FIELDS = (
    "baseline.cpu_ms",
    "ratio.cpu_vs_bare",
    "ratio.p50_vs_echo",
    "ratio.p50_vs_append",
)
"""Per store and table count: the bare CPU of one command (a unary call, its stream messages, an
append of its events), ``Act``'s server CPU over it, and ``Act``'s median latency over the bare
call's and the bare append's."""
CPU_FIELDS = (
    "act.server_cores",
    "act.server_cpu_ms",
    "echo.server_cpu_ms",
    "stream.server_cpu_ms",
    "baseline.cpu_ms",
    "ratio.cpu_vs_bare",
)
"""The figures read from ``/proc`` (skipped where there is none)."""


def grpc_keys(levels: Sequence[int]) -> list[str]:
    """The keys of the gRPC rows for the concurrency ``levels`` (tables at once)."""
    fields = (*ACT_FIELDS, *BASELINE_FIELDS, *RATIO_FIELDS)
    return [f"grpc.{store}.{n}.{f}" for store in STORES for n in levels for f in fields]


FANOUT_KEYS = [
    "fanout.watchers",
    "fanout.p50_ms",
    "fanout.p99_ms",
    "fanout.max_ms",
    "fanout.act_ms",
    "fanout.messages_per_watcher",
    "fanout.message_bytes",
    "fanout.server_cpu_ms_per_watcher",
    "fanout.bare.per_s",
    "fanout.bare.server_cpu_ms",
    "fanout.ratio.cpu_vs_bare",
]
"""One event to many spectator streams: how many, delivery percentiles and the slowest, the
``Act``, the messages each watcher had per round and their mean size; the server's CPU per watcher
and round, a bare stream message's (woken from another thread), their ratio."""

PACED_KEYS = [
    "paced.tables",
    "paced.rate",
    "paced.seconds",
    "paced.setup_s",
    "paced.per_s",
    "paced.p50_ms",
    "paced.p90_ms",
    "paced.p99_ms",
    "paced.max_ms",
    "paced.errors",
    "paced.behind",
    "paced.send_lag_p99_ms",
    "paced.server_p99_ms",
]
"""``trapoula load --rate``: tables, target rate, seconds played, set-up time, the rate achieved,
``Act`` latency from each move's due time, errors, moves due but not made at the end."""

SATURATION_KEYS = [
    "saturation.tables",
    "saturation.one.per_s",
    "saturation.one.errors",
    "saturation.one.replicas_cpu_ms",
    "saturation.one.load_cpu_ms",
    "saturation.one.postgres_cpu_ms",
    "saturation.two.per_s",
    "saturation.two.errors",
    "saturation.two.replicas_cpu_ms",
    "saturation.two.load_cpu_ms",
    "saturation.two.postgres_cpu_ms",
    "saturation.ratio.two_vs_one",
    "saturation.ratio.ceiling",
    "saturation.ratio.ceiling_free_load",
]
"""Closed-loop ``trapoula load`` against one replica, then two on the same database: moves a
second, errors, and the CPU per move (ms, over the play, its set-up left out) of the
replicas, of the load generator (the bench's own process) and of PostgreSQL (its processes on
this machine); the ratio two / one, and the most it can be on this machine: its cores'
CPU time over the two-replica run's CPU per move (replicas + load generator + PostgreSQL), as
moves a second, over the one-replica run's moves a second; and the same with a load generator that
cost nothing (replicas + PostgreSQL alone): the most any load generator on this machine could show."""

MEMORY_KEYS = ["memory.tables", "memory.traced_bytes_per_table", "memory.rss_bytes_per_table"]
"""Tables held open, Python heap growth per table (tracemalloc) and the process's RSS growth per table."""


@dataclass(frozen=True, slots=True)
class Bound:
    """A bound a figure must meet (issue 15): at most, or at least, ``limit``."""

    key: str
    limit: float
    at_most: bool
    what: str
    """What the figure is, for the report."""
    unit: str = "x"
    """How the figure and the limit are printed: ``x`` a ratio, ``ms``, ``KiB`` (bytes shown in
    KiB), ``count``, ``/s`` a rate."""

    def met(self, value: float) -> bool:
        """True when ``value`` meets the bound."""
        return value <= self.limit if self.at_most else value >= self.limit


def bounds(levels: Sequence[int]) -> list[Bound]:
    """Every bound, in the report's order (the gRPC ones at each of ``levels``)."""
    out = [
        Bound(
            f"grpc.{store}.{n}.ratio.cpu_vs_bare", 2.0, True, f"Act server CPU / bare baseline, {store}, {n} table(s)"
        )
        for store in STORES
        for n in levels
    ]
    return [
        Bound(
            "domain.ratio.crazy_eights_vs_bare",
            10.0,
            True,
            "pure domain: crazy_eights µs per random command / the bare program's µs per move",
        ),
        Bound(
            "openspiel.ratio.hands_vs_playouts",
            2.0,
            False,
            "pure domain: crazy_eights hands per CPU second / open_spiel's playouts per CPU second",
        ),
        Bound("replay.fold_events_per_s", 3 * FOLD_BEFORE, False, "replay: fold events/s (3x 534447a's)", "/s"),
        Bound("replay.audit_events_per_s", 3 * AUDIT_BEFORE, False, "replay: audit events/s (3x 534447a's)", "/s"),
        *out,
        Bound("fanout.ratio.cpu_vs_bare", 3.0, True, "fan-out: server CPU per watcher / bare stream message"),
        Bound("fanout.p99_ms", 100.0, True, "fan-out: delivery p99 to every watcher", "ms"),
        Bound("paced.p99_ms", 100.0, True, "paced load: Act p99 (from the due time)", "ms"),
        Bound("paced.errors", 0, True, "paced load: errors", "count"),
        Bound("saturation.ratio.two_vs_one", 1.6, False, "saturation: two replicas' moves/s / one's"),
        Bound("memory.rss_bytes_per_table", 64 * 1024, True, "memory per open table (resident)", "KiB"),
    ]


def expected_keys(games: Sequence[str], levels: Sequence[int]) -> list[str]:
    """Every key a complete run fills in (a number, or a skip reason where allowed)."""
    return [
        *domain_keys(games),
        *REPLAY_KEYS,
        *grpc_keys(levels),
        *FANOUT_KEYS,
        *PACED_KEYS,
        *SATURATION_KEYS,
        *MEMORY_KEYS,
    ]


def may_skip(key: str) -> bool:
    """True for the figures that may be skipped on a machine without PostgreSQL, open_spiel or ``/proc``."""
    if key.startswith(("openspiel.", "grpc.postgresql.", "paced.", "saturation.")):
        return True
    return key.endswith(CPU_FIELDS) or key in (
        "fanout.server_cpu_ms_per_watcher",
        "fanout.bare.server_cpu_ms",
        "fanout.ratio.cpu_vs_bare",
    )


async def cpu_over_window(
    tasks: Sequence[asyncio.Task[Any]], warmup: float, end: float, cpu: Callable[[], float | None]
) -> float | None:
    """Let ``tasks`` run ``warmup`` seconds, then until ``end`` (``time.perf_counter``), then cancel
    them: the CPU seconds ``cpu()`` counted between the two moments (None where it cannot be read)."""
    try:
        await asyncio.sleep(warmup)
        before = cpu()
        await asyncio.sleep(max(0.0, end - time.perf_counter()))
        after = cpu()
    finally:
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
    return after - before if before is not None and after is not None else None
