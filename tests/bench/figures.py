"""The figures of a benchmark run: what each one is called, how calls measured in a time window
become a rate and latency percentiles, and the flat list of keys a complete run fills in.

Every figure has a key (``grpc.sqlite.10.act.p99_ms``); :class:`Results` maps keys to numbers, or
to a text ``skipped: <reason>`` where a part could not run (no PostgreSQL, no open_spiel).
:func:`expected_keys` lists the keys of a complete run, for the report and the quick test.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

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


def domain_keys(games: Sequence[str]) -> list[str]:
    """Hands and commands per second of random bots in the pure domain, per game; open_spiel's
    crazy_eights reference and the ratios."""
    keys = [f"domain.{g}.{what}" for g in games for what in ("hands_per_s", "commands_per_s")]
    return keys + OPENSPIEL_KEYS


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
    "append.per_s",
    "append.p50_ms",
    "append.p99_ms",
)
"""Per store and table count: ``Act`` over gRPC (with the server process's CPU in the window: cores
busy on average, CPU ms per command) and the bare store append."""
SERVER_CPU_FIELDS = ("act.server_cores", "act.server_cpu_ms")
"""The server's CPU figures, read from ``/proc`` (skipped where there is none)."""
RATIO_FIELDS = (
    "ratio.p50_vs_echo",
    "ratio.p99_vs_echo",
    "ratio.p50_vs_append",
    "ratio.p99_vs_append",
    "ratio.echo_rate_vs_act",
    "ratio.append_rate_vs_act",
)
"""Per store and table count: ``Act`` latency over the baselines' latency, the baselines' rate over
``Act``'s (how many times the bare call's cost a command costs)."""
ECHO_FIELDS = ("per_s", "p50_ms", "p99_ms")
"""Per table count: the bare gRPC echo."""


def grpc_keys(levels: Sequence[int]) -> list[str]:
    """The keys of the gRPC rows for the concurrency ``levels`` (tables at once)."""
    keys = [f"grpc.echo.{n}.{f}" for n in levels for f in ECHO_FIELDS]
    for store in STORES:
        keys += [f"grpc.{store}.{n}.{f}" for n in levels for f in (*ACT_FIELDS, *RATIO_FIELDS)]
    return keys


FANOUT_KEYS = ["fanout.watchers", "fanout.p50_ms", "fanout.p99_ms", "fanout.max_ms", "fanout.act_ms"]
"""One event to many spectator streams: how many, delivery percentiles and the slowest, the ``Act``."""

MEMORY_KEYS = ["memory.tables", "memory.traced_bytes_per_table", "memory.rss_bytes_per_table"]
"""Tables held open, Python heap growth per table (tracemalloc) and the process's RSS growth per table."""


def expected_keys(games: Sequence[str], levels: Sequence[int]) -> list[str]:
    """Every key a complete run fills in (a number, or a skip reason where allowed)."""
    return [*domain_keys(games), *REPLAY_KEYS, *grpc_keys(levels), *FANOUT_KEYS, *MEMORY_KEYS]


def may_skip(key: str) -> bool:
    """True for the figures that may be skipped on a machine without PostgreSQL, open_spiel or ``/proc``."""
    return key.startswith(("openspiel.", "grpc.postgresql.")) or key.endswith(SERVER_CPU_FIELDS)
