"""``trapoula load``: many bot tables played at once against one server, with figures as it goes.

The load generator keeps :attr:`LoadPlan.tables` tables playing for :attr:`LoadPlan.duration`
seconds (or until :attr:`LoadPlan.matches` matches have ended).  Each table is created, its seats
are taken by client-side bots (one seat token each) and the owner starts the match; each bot
follows its seat's ``WatchTable`` stream and, when its view offers it a move
(:func:`~trapoula.clients.table.my_move`), issues the command that
:func:`trapoula.domain.bots.choose` picks with ``Act``: real commands over gRPC, the load a table
of people would put on the server.  :attr:`LoadPlan.watchers` spectator streams per table follow
it too.  When a match ends, a new table takes its place.

Two ways to play:

* **closed loop** (the default): a bot sends its command as soon as its view offers it a move, so
  each table has one command in flight all the time and the server's speed sets the rate: the
  most a server takes, when there are enough tables to keep it busy.
* **paced** (open loop, :attr:`LoadPlan.rate` > 0): the moves come at a set rate in all, as people
  play.  Each table's moves are due at the times of a Poisson process of ``rate / tables`` a
  second (gaps drawn from the exponential distribution, each table its own draws), so that the
  tables together make ``rate`` moves a second on average.  A bot whose move is due sends it on
  time whether or not other tables' calls have returned; a move cannot go before the table's
  previous one was answered (the next view depends on it), so a table the server keeps waiting
  falls behind its schedule and makes its moves late.  The latency of ``Act`` is measured from
  the time the move was due, not from the time it was sent, so that a slow server shows as the
  waits its players would have seen (no coordinated omission).  The lines then show the rate
  achieved beside the target, and the summary how many moves were due and how many still
  behind schedule at the end, and the send lag: of the moves a bot was ready to make before
  they were due, how late the load generator sent them (its own event loop's lag; where it is
  large, the generator was short of CPU and its ``Act`` figures hold its lag beside the server's).

With :attr:`LoadPlan.set_up_first` (always when paced) every table is set up (created, seated,
its streams opened, its match started, and the start's events received on every one of its
streams) before the clock starts: the run's duration, its rates and latencies are then the play
alone, not the server still sending the starts of hundreds of tables; a line says how long the
set-up took.

Everything runs in one process on one asyncio loop (``grpc.aio``), over
:attr:`LoadPlan.channels` connections shared round robin by the tables, so hundreds of tables
and their players fit.  Every :attr:`LoadPlan.every` seconds one line is printed (see
:func:`interval_line`): elapsed time, commands (successful ``Act`` calls) and commands a second,
the latency of ``Act`` in milliseconds (p50, p90, p99 and max, of the interval and of the whole
run so far), messages streamed a second, matches finished and errors by status code; the last,
shorter interval gets its line too (paced, the target rate beside the achieved one).  A summary
block (:func:`summary_block`) ends the run.

An error never stops the run: it is counted (by gRPC status code, ``STALLED`` for a table where
nothing happened for :attr:`LoadPlan.timeout` seconds, ``STREAM_ENDED`` for a stream that ended
before the match did, ``client:<type>`` for a fault of the client), its table is abandoned and a
new one takes its place after a pause of :data:`ERROR_PAUSE` seconds.  A command the rules refuse
(``FAILED_PRECONDITION``) means a bot acted on a wrong view, and counts as an error; so does
``ABORTED`` (a conflict), which one player per seat should never meet.  Calls cut short when the
run ends are not errors.
"""

from __future__ import annotations

import argparse
import asyncio
import bisect
import contextlib
import gc
import json
import math
import random
import signal
import time
import uuid
from collections import Counter
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, TextIO

import grpc
from google.protobuf import struct_pb2

from trapoula.api.v1 import table_pb2, table_pb2_grpc
from trapoula.clients.errors import Unavailable
from trapoula.clients.table import MAX_MESSAGE_BYTES, command_message, my_move
from trapoula.domain.bots import choose
from trapoula.domain.lifecycle import Role
from trapoula.domain.registry import DEFAULT_GAME, GAMES

__all__ = [
    "ERROR_PAUSE",
    "Latencies",
    "LoadPlan",
    "LoadResult",
    "Snapshot",
    "Spread",
    "interval_line",
    "non_negative_arg",
    "percentile",
    "rate_arg",
    "run_load",
    "seconds_arg",
    "summary_block",
    "whole_number_arg",
]

ERROR_PAUSE = 1.0
"""Seconds a table slot waits after an error before it creates a new table (so that a server
that refuses everything is not hammered in a tight loop)."""
PROBE_TIMEOUT = 10.0
"""Seconds the first call (``ListGames``, to check the server is there) may take."""
CHANNEL_OPTIONS: tuple[tuple[str, int], ...] = (
    ("grpc.max_receive_message_length", MAX_MESSAGE_BYTES),
    ("grpc.max_send_message_length", MAX_MESSAGE_BYTES),
    ("grpc.use_local_subchannel_pool", 1),  # each channel its own connection
)
"""The options of each channel the load generator opens."""
BOT_NAMES = ("Anna", "Babis", "Chrysa", "Dimos", "Eleni", "Fotis", "Gogo")
"""The bots' display names, by seat."""
GC_THRESHOLDS = (2_000, 1, 5_000)
"""``gc.set_threshold`` during a run, as the server's (``trapoula.service.collector``, which the
client does not import): the run's thousands of open calls and its tables' views live seconds,
and with Python's defaults (700, 10, 10) they pushed the collector into a full walk of the heap
every few seconds; a middle collection at every other young one keeps each pause short (every
move the run times waits behind one)."""


def _json_loads() -> Callable[[str], Any]:
    """The fastest JSON parser at hand: ``orjson.loads`` where the server's extras are installed
    (a few times faster on a view), else ``json.loads``."""
    try:
        import orjson
    except ImportError:  # the thin client
        return json.loads
    return orjson.loads


_loads = _json_loads()
"""Parses the views the bots receive (every seat's view of every event: the load generator's
largest work after gRPC's own)."""


@contextlib.contextmanager
def _run_collector() -> Iterator[None]:
    """Within the block: the objects that exist on entry frozen (``gc.freeze``, without a full
    collection first: in a process that has run a while one could take a second before the run
    starts) and the collector's thresholds :data:`GC_THRESHOLDS`; on exit, both as they were."""
    before = gc.get_threshold()
    gc.freeze()
    gc.set_threshold(*GC_THRESHOLDS)
    try:
        yield
    finally:
        gc.set_threshold(*before)
        gc.unfreeze()


# --------------------------------------------------------------------------- arguments


def _positive(text: str, unit: str) -> float:
    """``text`` as a positive, finite number of ``unit`` (for argparse).

    Raises:
        argparse.ArgumentTypeError: not a number, not finite, or not above 0.
    """
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of {unit}") from None
    if not math.isfinite(value) or value <= 0:
        raise argparse.ArgumentTypeError(f"{text!r} is not a positive number of {unit}")
    return value


def seconds_arg(text: str) -> float:
    """A positive number of seconds (``--duration``, ``--every``, ``--timeout``).

    Raises:
        argparse.ArgumentTypeError: not a number, not finite, or not above 0.
    """
    return _positive(text, "seconds")


def rate_arg(text: str) -> float:
    """A positive, finite number of moves per second (``--rate``).

    Raises:
        argparse.ArgumentTypeError: not a number, not finite, or not above 0.
    """
    return _positive(text, "moves per second")


def whole_number_arg(text: str, minimum: int = 0) -> int:
    """A whole number >= ``minimum``, for argparse.

    Raises:
        argparse.ArgumentTypeError: not a whole number, or below ``minimum``.
    """
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if value < minimum:
        raise argparse.ArgumentTypeError(
            f"{text!r} is below {minimum}" if minimum <= 0 else f"{text!r} is not at least {minimum}"
        )
    return value


def non_negative_arg(text: str) -> int:
    """A whole number >= 0 (``--watchers``).

    Raises:
        argparse.ArgumentTypeError: not a whole number, or below 0.
    """
    return whole_number_arg(text, 0)


# --------------------------------------------------------------------------- figures


def percentile(ordered: Sequence[float], p: float) -> float:
    """The ``p``-th percentile (0 < p <= 100) of ``ordered`` (sorted ascending), nearest rank: the
    smallest value with at least ``p`` % of the values at or below it.

    >>> percentile([1.0, 2.0, 3.0, 4.0], 50)
    2.0

    Raises:
        ValueError: ``ordered`` is empty or ``p`` is outside (0, 100].
    """
    if not ordered:
        raise ValueError("no values")
    if not 0 < p <= 100:
        raise ValueError(f"percentile {p} is outside (0, 100]")
    rank = max(1, math.ceil(p / 100 * len(ordered)))
    return ordered[rank - 1]


@dataclass(frozen=True, slots=True)
class Spread:
    """Latencies of a set of calls, in milliseconds: count, p50, p90, p99 and max (nearest rank)."""

    count: int
    p50: float
    p90: float
    p99: float
    max: float

    @classmethod
    def of(cls, ordered: Sequence[float]) -> Spread | None:
        """The spread of ``ordered`` (sorted ascending, ms); None when it is empty."""
        if not ordered:
            return None
        return cls(len(ordered), percentile(ordered, 50), percentile(ordered, 90), percentile(ordered, 99), ordered[-1])

    def text(self) -> str:
        """``p50/p90/p99/max`` in ms, one decimal: ``12.3/30.1/80.2/120.0``."""
        return f"{self.p50:.1f}/{self.p90:.1f}/{self.p99:.1f}/{self.max:.1f}"


class Latencies:
    """``Act`` latencies in ms: those of the current interval, and every one so far.

    Percentiles are exact (every value is kept; the run's values stay sorted, each interval's
    are merged in when the interval ends, in time linear in their number).
    """

    def __init__(self) -> None:
        self._interval: list[float] = []
        self._all: list[float] = []

    def add(self, ms: float) -> None:
        """Record one call's latency (ms)."""
        self._interval.append(ms)

    def roll(self) -> tuple[Spread | None, Spread | None]:
        """End the interval: ``(the interval's spread, the run's spread)``, None where empty."""
        interval = sorted(self._interval)
        self._interval = []
        if interval:
            self._all = sorted(self._all + interval)  # two sorted runs: timsort merges them in linear time
        return Spread.of(interval), Spread.of(self._all)


@dataclass(frozen=True, slots=True)
class Snapshot:
    """The figures at one moment of a run (totals since its start)."""

    elapsed: float
    """Seconds since the tables were first set going."""
    commands: int
    """Successful ``Act`` calls."""
    events: int
    """Messages received on every stream (bots' and spectators')."""
    matches: int
    """Matches played to their end."""
    tables: int
    """Tables created."""
    errors: Mapping[str, int]
    """Errors by kind: a gRPC status code name, ``STALLED``, ``STREAM_ENDED`` or ``client:<type>``."""

    @property
    def error_count(self) -> int:
        """Every error of the run so far."""
        return sum(self.errors.values())


def _errors_text(errors: Mapping[str, int]) -> str:
    """``0``, or ``3 (UNAVAILABLE 2, FAILED_PRECONDITION 1)``: most frequent first."""
    total = sum(errors.values())
    if not total:
        return "0"
    parts = ", ".join(f"{kind} {n}" for kind, n in sorted(errors.items(), key=lambda kv: (-kv[1], kv[0])))
    return f"{total} ({parts})"


def interval_line(
    previous: Snapshot, now: Snapshot, interval: Spread | None, overall: Spread | None, rate: float = 0.0
) -> str:
    """The line printed at the end of an interval (from ``previous`` to ``now``).

    ``t 10.0s | commands 2468 +1234 246.8/s | act ms p50/p90/p99/max 12.3/30.1/80.2/120.0 (run
    11.9/29.0/85.1/130.2) | streamed 3000.0/s | matches 7 +3 | errors 0`` (one line): rates are
    per second over the interval; ``-`` where the interval had no ``Act``.  A paced run (``rate``
    > 0) gives its target beside the achieved rate: ``246.8/s (target 400.0/s)``.
    """
    seconds = max(now.elapsed - previous.elapsed, 1e-9)
    commands = now.commands - previous.commands
    act = interval.text() if interval is not None else "-"
    run = overall.text() if overall is not None else "-"
    target = f" (target {rate:.1f}/s)" if rate > 0 else ""
    return (
        f"t {now.elapsed:5.1f}s | commands {now.commands} +{commands} {commands / seconds:.1f}/s{target}"
        f" | act ms p50/p90/p99/max {act} (run {run})"
        f" | streamed {(now.events - previous.events) / seconds:.1f}/s"
        f" | matches {now.matches} +{now.matches - previous.matches}"
        f" | errors {_errors_text(now.errors)}"
    )


@dataclass(frozen=True, slots=True)
class LoadPlan:
    """What to play: where, how many tables at once, for how long, and how to report.

    Attributes:
        address: ``host:port`` of the server, or of several replicas separated by commas (the
            tables are spread over them in turn; a table plays all its calls through one).
        tables: tables kept playing at once (>= 1).
        duration: seconds the tables are kept playing (> 0).
        game: the game key.
        seats: seats per table, each a client-side bot (the game's player range).
        level: the bots' level (:func:`trapoula.domain.bots.levels`).
        options: the tables' options (each game's rules, section 7).
        every: seconds between two printed lines (> 0).
        watchers: spectator streams per table (>= 0).
        channels: connections to the server, shared by the tables round robin (>= 1).
        timeout: seconds a call may take, and a table may go without any event, before it counts
            as an error (``DEADLINE_EXCEEDED``, ``STALLED``).
        seed: makes the bots' choices reproducible (the deals stay the server's); None: random.
        matches: end the run as soon as this many matches were played to their end (0: play for
            the whole duration).
        rate: moves a second in all, paced (open loop, see the module docstring); 0: closed loop.
        set_up_first: set every table up before the clock starts (always so when paced).
        batch: the streams are batched watches (``WatchTableRequest.batch``: the events of a save
            in one message, with the view after the last), as a client acting on the current view
            watches; False: one event a message, each with its view.
    """

    address: str
    tables: int = 200
    duration: float = 60.0
    game: str = DEFAULT_GAME
    seats: int = 4
    level: str = "heuristic"
    options: Mapping[str, Any] = field(default_factory=dict)
    every: float = 5.0
    watchers: int = 1
    channels: int = 8
    timeout: float = 30.0
    seed: int | None = None
    matches: int = 0
    rate: float = 0.0
    set_up_first: bool = False
    batch: bool = True

    @property
    def paced(self) -> bool:
        """True for an open-loop run at :attr:`rate` moves a second."""
        return self.rate > 0

    @property
    def setup_before_clock(self) -> bool:
        """True when every table is set up before the clock starts (:attr:`set_up_first`, or paced)."""
        return self.set_up_first or self.paced


@dataclass(frozen=True, slots=True)
class LoadResult:
    """How a run went: its last figures, the run's ``Act`` latencies, one message per error kind,
    the ids of the tables whose match was played to its end, and whether it was interrupted."""

    final: Snapshot
    latency: Spread | None
    examples: Mapping[str, str]
    """Error kind -> the first message of that kind."""
    finished: tuple[str, ...]
    interrupted: bool
    stale: int = 0
    """Act calls refused because the bot's view was behind the table; each went on from a fresh
    view (not counted as errors nor in the Act figures)."""
    setup_seconds: float | None = None
    """Seconds the tables took to be set up before the clock started; None when they were not
    set up first (:attr:`LoadPlan.setup_before_clock`)."""
    scheduled: int = 0
    """Paced: the moves due by the end of the run (made or not); 0 for a closed loop."""
    send_lag: Spread | None = None
    """Paced: of the moves a bot was ready to make before they were due (it waited for the due
    time), how late after the due time the call went out, in ms: the load generator's own lag
    (its event loop busy), counted in the ``Act`` latency too.  None for a closed loop, or when
    no bot was ever ready early."""

    @property
    def achieved_rate(self) -> float:
        """Successful ``Act`` calls a second over the run (after the set-up, when set up first)."""
        return self.final.commands / self.final.elapsed if self.final.elapsed > 0 else 0.0

    @property
    def behind(self) -> int:
        """Paced: moves due by the end that were not made (late, or in flight); 0 for a closed loop."""
        return max(0, self.scheduled - self.final.commands)

    @property
    def ok(self) -> bool:
        """True when the run met no error."""
        return self.final.error_count == 0


def summary_block(plan: LoadPlan, result: LoadResult) -> str:
    """The block printed when the run ends (lines without a trailing newline)."""
    final = result.final
    seconds = max(final.elapsed, 1e-9)
    how = "interrupted after" if result.interrupted else "ran"
    mode = f"paced at {plan.rate:g} moves/s" if plan.paced else "closed loop"
    lines = [
        f"summary: {plan.game}, {plan.seats} seats, {plan.level} bots, {plan.tables} tables at once, "
        f"{plan.watchers} spectator stream(s) per table, {min(plan.channels, plan.tables)} connection(s) to "
        f"{plan.address}, {mode}; "
        f"{how} {final.elapsed:.1f} s",
    ]
    if result.setup_seconds is not None:
        lines.append(f"  set up    {plan.tables} tables in {result.setup_seconds:.1f} s, before the clock started")
    lines.append(
        f"  commands  {final.commands} Act calls, {final.commands / seconds:.1f}/s"
        + (f" (target {plan.rate:.1f}/s)" if plan.paced else "")
        + (f" ({result.stale} more refused on a stale view, then made from a fresh one)" if result.stale else "")
    )
    if plan.paced:
        lines.append(
            f"  schedule  {result.scheduled} moves due by the end, {result.behind} of them not made"
            " (behind schedule, or in flight)"
        )
    since = " from each move's due time" if plan.paced else ""
    if result.latency is not None:
        s = result.latency
        lines.append(f"  Act ms    p50 {s.p50:.1f}  p90 {s.p90:.1f}  p99 {s.p99:.1f}  max {s.max:.1f}{since}")
    else:
        lines.append("  Act ms    - (no Act call completed)")
    if result.send_lag is not None:
        s = result.send_lag
        lines.append(
            f"  send lag  p50 {s.p50:.1f}  p90 {s.p90:.1f}  p99 {s.p99:.1f}  max {s.max:.1f} ms after the due time, "
            f"of the {s.count} moves ready before it (this generator's own lag)"
        )
    lines.append(f"  streamed  {final.events} messages, {final.events / seconds:.1f}/s")
    lines.append(f"  tables    {final.tables} created, {final.matches} matches played to the end")
    lines.append(f"  errors    {_errors_text(final.errors) if final.error_count else 'none'}")
    for kind, message in sorted(result.examples.items()):
        lines.append(f"    {kind}: {message}")
    return "\n".join(lines)


# --------------------------------------------------------------------------- the run


class _Stalled(Exception):
    """No event at a table for the plan's timeout."""


class _StreamEnded(Exception):
    """A seat's stream ended before the match did."""


def _kind(exc: BaseException) -> str:
    """The kind an error is counted under (see the module docstring)."""
    if isinstance(exc, grpc.aio.AioRpcError):
        return str(exc.code().name)
    if isinstance(exc, _Stalled):
        return "STALLED"
    if isinstance(exc, _StreamEnded):
        return "STREAM_ENDED"
    return f"client:{type(exc).__name__}"


def _message(exc: BaseException) -> str:
    """One line saying what went wrong."""
    text = exc.details() if isinstance(exc, grpc.aio.AioRpcError) else str(exc)
    return " ".join((text or type(exc).__name__).split())


def _bearer(token: str) -> tuple[tuple[str, str], ...]:
    return (("authorization", f"Bearer {token}"),)


class _Pace:
    """One table's schedule of moves in a paced run: a Poisson process of ``per_second`` moves a
    second, its times on the ``time.perf_counter`` clock."""

    def __init__(self, per_second: float, rng: random.Random) -> None:
        self.per_second = per_second
        self.rng = rng
        self.next = math.inf
        """When the next move not yet taken is due."""
        self.taken: list[float] = []
        """The due times of the moves taken by a bot so far (each for one move: made, in flight,
        or waited for), in order."""
        self.closed = math.inf
        """When the table stopped playing (its match ended, or it failed); inf while it plays."""

    def start(self, now: float) -> None:
        """The schedule begins at ``now``, unless it has begun: the first move is due after one drawn gap."""
        if self.next == math.inf:
            self.next = now + self.rng.expovariate(self.per_second)

    def take(self) -> float:
        """The time the next move is due (it is the caller's to make); the schedule begins now
        if it has not yet."""
        self.start(time.perf_counter())
        due = self.next
        self.next += self.rng.expovariate(self.per_second)
        self.taken.append(due)
        return due

    def due_by(self, end: float) -> int:
        """The moves due by ``end`` (or by the time the table stopped, if earlier), taken or not."""
        end = min(end, self.closed)
        count = bisect.bisect_right(self.taken, end)
        if self.next <= end:
            rng = random.Random()
            rng.setstate(self.rng.getstate())  # count the moves still to take without drawing them
            due = self.next
            while due <= end:
                count += 1
                due += rng.expovariate(self.per_second)
        return count


class _Table:
    """One table's progress clock (for the stall check), its schedule when paced, and how far each
    of its ``streams`` (the bots' and the spectators') has read (for the end of its set-up)."""

    def __init__(self, table_id: str, pace: _Pace | None = None, streams: int = 1) -> None:
        self.table_id = table_id
        self.last = time.monotonic()
        self.pace = pace
        self.heads = [0] * streams
        """The newest version each stream has received."""
        self.target: int | None = None
        """The version of the last event of the match's start, once answered."""
        self.started = asyncio.Event()
        """Set once :attr:`target` is known."""
        self.caught_up = asyncio.Event()
        """Set once every stream has received :attr:`target` (see :meth:`expect`)."""

    def touch(self) -> None:
        """Note that the table moved just now (for ``STALLED``)."""
        self.last = time.monotonic()

    def saw(self, stream: int, version: int) -> None:
        """Stream ``stream`` received the event at ``version``."""
        if version > self.heads[stream]:
            self.heads[stream] = version
            if self.target is not None and not self.caught_up.is_set() and min(self.heads) >= self.target:
                self.caught_up.set()

    def expect(self, version: int) -> None:
        """:attr:`caught_up` is to be set once every stream has received ``version``."""
        self.target = version
        self.started.set()
        if min(self.heads) >= version:
            self.caught_up.set()


class _Run:
    """One run of the load generator (one asyncio loop)."""

    def __init__(self, plan: LoadPlan, out: TextIO, stop: asyncio.Event) -> None:
        self.plan = plan
        self.out = out
        self.stop = stop
        spec = GAMES.get(plan.game)
        events = spec.event_types if spec is not None else {}
        self.match_ended = frozenset(name for name, cls in events.items() if cls.role is Role.MATCH_ENDED)
        """The name of the game's event that ends the match (role ``match_ended``, ``GameSpec.role_of``)."""
        self.options = struct_pb2.Struct()
        self.options.update(dict(plan.options))
        self.latencies = Latencies()
        self.send_lags: list[float] = []
        """Paced: ms from the due time to the call, of each move a bot was ready for before it was due."""
        self.commands = 0
        self.stale = 0
        self.events = 0
        self.matches = 0
        self.tables = 0
        self.errors: Counter[str] = Counter()
        self.examples: dict[str, str] = {}
        self.finished: list[str] = []
        self.enough = asyncio.Event()
        self.started = 0.0
        self.previous = Snapshot(0.0, 0, 0, 0, 0, {})
        self.running = True
        self.rng = random.Random(plan.seed)
        self.go = asyncio.Event()
        """Set when the clock starts: bots make no move before."""
        self.unready = plan.tables
        """Slots whose first table is neither set up nor failed yet (set-up first)."""
        self.set_up = asyncio.Event()
        """Set when every slot's first table was set up, or failed."""
        self.paces: list[_Pace] = []

    def say(self, line: str) -> None:
        """Print one line of the report."""
        print(line, file=self.out, flush=True)

    def snapshot(self) -> Snapshot:
        """The run's counters now (commands, streamed messages, matches, errors, seconds elapsed)."""
        return Snapshot(
            time.monotonic() - self.started,
            self.commands,
            self.events,
            self.matches,
            self.tables,
            dict(self.errors),
        )

    def slot_ready(self) -> None:
        """One slot's first table is set up (or failed): the clock starts when all are."""
        self.unready -= 1
        if self.unready <= 0:
            self.set_up.set()

    def heard(self, table: _Table) -> bool:
        """Count an event a stream of ``table`` received (the table is touched: it is not stalled);
        False, counting nothing, once the run has ended (the stream is to be left)."""
        if not self.running:
            return False
        self.events += 1
        table.touch()
        return True

    def count_error(self, exc: BaseException, table_id: str | None) -> None:
        """Count one error under its kind (a status code, ``STALLED``, ...), keeping its first message."""
        kind = _kind(exc)
        self.errors[kind] += 1
        if kind not in self.examples:
            where = f"table {table_id}: " if table_id else ""
            self.examples[kind] = f"{where}{_message(exc)}"

    # ------------------------------------------------------------------ players

    async def bot(
        self, stub: table_pb2_grpc.TableServiceAsyncStub, table: _Table, seat: int, token: str, rng: random.Random
    ) -> None:
        """Follow the seat's stream (the table's stream ``seat``) and act whenever its view offers a
        move, until the match ends; no move before the clock starts (the match's start is read first).

        Raises:
            grpc.aio.AioRpcError: a call failed.  _StreamEnded: the stream ended before the match.
        """
        plan, metadata = self.plan, _bearer(token)
        last = 0
        due: float | None = None  # paced: the due time of the move this bot is making (kept across a retry)
        watch = table_pb2.WatchTableRequest(table_id=table.table_id, batch=plan.batch)
        call = stub.WatchTable(watch, metadata=metadata)
        try:
            async for message in call:
                if not self.heard(table):
                    return
                events = message.events or (message.event,)  # a batched watch's run, or one event
                if any(e.name in self.match_ended for e in events):
                    return
                version = int(events[-1].version)
                table.saw(seat, version)
                if version <= last or not message.HasField("view"):
                    continue  # an event this bot's own command caused, already answered
                last = version
                view = _loads(message.view.view_json)
                if not self.go.is_set():  # set-up first: no move before the clock starts
                    await table.started.wait()  # the match's start answered (its last version known)
                    if table.heads[seat] < (table.target or 0):
                        continue  # more of the start to read first
                    await self.go.wait()
                while my_move(view) and self.running:  # no new command once the run has ended
                    command = command_message(choose(plan.game, view, plan.level, rng))
                    request = table_pb2.ActRequest(
                        table_id=table.table_id, command_id=uuid.uuid4().hex, command=command
                    )
                    if table.pace is not None:  # paced: the move goes when due, its latency counts from then
                        if due is None:
                            due = table.pace.take()
                        wait = due - time.perf_counter()
                        if wait > 0:
                            await asyncio.sleep(wait)
                        if not self.running:
                            return
                        if wait > 0:  # ready before it was due: how late this process sends it
                            self.send_lags.append((time.perf_counter() - due) * 1000.0)
                        began = due
                    else:
                        began = time.perf_counter()
                    try:
                        response = await stub.Act(request, metadata=metadata, timeout=plan.timeout)
                    except grpc.aio.AioRpcError as exc:
                        if exc.code() != grpc.StatusCode.FAILED_PRECONDITION or not self.running:
                            raise
                        # refused on a stale view (the stream was behind the table, e.g. at an
                        # event in the middle of another seat's command): go on from a fresh
                        # view; a refusal on the current view is a real error
                        fresh = await stub.GetView(
                            table_pb2.GetViewRequest(table_id=table.table_id), metadata=metadata, timeout=plan.timeout
                        )
                        if int(fresh.view.version) <= version:
                            raise
                        self.stale += 1
                        version = last = max(last, int(fresh.view.version))
                        view = _loads(fresh.view.view_json)
                        continue
                    if not self.running:
                        return  # a reply after the end: not counted (the run's figures are final)
                    self.latencies.add((time.perf_counter() - began) * 1000.0)
                    self.commands += 1
                    due = None
                    table.touch()
                    version = last = max(last, int(response.version))
                    if any(e.name in self.match_ended for e in response.events):
                        return
                    view = _loads(response.view.view_json)
        finally:
            call.cancel()
        raise _StreamEnded(f"seat {seat}'s stream ended before the match did (at version {last})")

    async def spectator(self, stub: table_pb2_grpc.TableServiceAsyncStub, table: _Table, stream: int) -> None:
        """Follow the table as a spectator (no token; the table's stream ``stream``) until the server
        ends the stream.

        Raises:
            grpc.aio.AioRpcError: the stream failed.
        """
        call = stub.WatchTable(table_pb2.WatchTableRequest(table_id=table.table_id, batch=self.plan.batch))
        try:
            async for message in call:
                if not self.heard(table):
                    return
                events = message.events or (message.event,)  # a batched watch's run, or one event
                table.saw(stream, int(events[-1].version))
        finally:
            call.cancel()

    # ------------------------------------------------------------------ tables

    async def table(
        self, stub: table_pb2_grpc.TableServiceAsyncStub, where: list[str], first: list[bool] | None = None
    ) -> None:
        """Create a table, seat the bots, start the match and play it to its end; the table's id
        is appended to ``where`` as soon as it exists (to name it in an error's message).

        ``first``: ``[True]`` for a slot's first table in a run that sets its tables up first; it
        is set to False, and :meth:`slot_ready` called, once the table is set up, and the table
        then waits for the clock to start.

        Raises:
            grpc.aio.AioRpcError, _Stalled, _StreamEnded, or any fault of a bot.
        """
        plan = self.plan
        created = await stub.CreateTable(
            table_pb2.CreateTableRequest(game=plan.game, seats=plan.seats, options=self.options), timeout=plan.timeout
        )
        self.tables += 1
        where.append(created.table_id)
        pace = None
        if plan.paced:
            pace = _Pace(plan.rate / plan.tables, random.Random(self.rng.getrandbits(64)))
            self.paces.append(pace)
        table = _Table(created.table_id, pace, plan.seats + plan.watchers)
        tasks: list[asyncio.Task[None]] = []
        try:
            for seat in range(plan.seats):
                joined = await stub.JoinTable(
                    table_pb2.JoinTableRequest(
                        table_id=table.table_id, name=BOT_NAMES[seat % len(BOT_NAMES)], seat=seat
                    ),
                    timeout=plan.timeout,
                )
                rng = random.Random(self.rng.getrandbits(64))
                tasks.append(asyncio.create_task(self.bot(stub, table, seat, joined.seat_token, rng)))
            tasks.extend(asyncio.create_task(self.spectator(stub, table, plan.seats + i)) for i in range(plan.watchers))
            started = await stub.StartMatch(
                table_pb2.StartMatchRequest(table_id=table.table_id, command_id=uuid.uuid4().hex),
                metadata=_bearer(created.owner_token),
                timeout=plan.timeout,
            )
            await self.settle(table, int(started.version), tasks)
            if first is not None and first[0]:
                first[0] = False
                self.slot_ready()
            await self.go.wait()
            if pace is not None:
                pace.start(time.perf_counter())
            table.touch()
            pending: set[asyncio.Task[None]] = set(tasks)
            while pending:
                wait = max(0.0, table.last + plan.timeout - time.monotonic())
                done, pending = await asyncio.wait(pending, timeout=wait, return_when=asyncio.FIRST_EXCEPTION)
                for task in done:
                    failure = task.exception()
                    if failure is not None:
                        raise failure
                if pending and time.monotonic() - table.last >= plan.timeout:
                    raise _Stalled(f"no event for {plan.timeout:g} s")
        finally:
            if pace is not None:
                pace.closed = min(pace.closed, time.perf_counter())
            for task in tasks:
                task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)
        if self.running:
            self.matches += 1
            self.finished.append(table.table_id)
            if self.plan.matches and self.matches >= self.plan.matches:
                self.enough.set()

    async def settle(self, table: _Table, version: int, tasks: Sequence[asyncio.Task[None]]) -> None:
        """Wait until every stream of ``table`` has received the event at ``version`` (the last of
        the match's start): a table set up is one whose start the server has delivered, so that a
        run whose tables are set up first measures its play alone, not the start's delivery.

        Raises:
            grpc.aio.AioRpcError, _StreamEnded, or any fault of a bot: a stream failed first.
            _Stalled: not within the plan's timeout.
        """
        table.expect(version)
        if table.caught_up.is_set():
            return
        waiter = asyncio.create_task(table.caught_up.wait())
        pending: set[asyncio.Task[Any]] = {waiter, *tasks}
        deadline = time.monotonic() + self.plan.timeout
        try:
            while not table.caught_up.is_set():
                left = deadline - time.monotonic()
                if left <= 0:
                    raise _Stalled(f"the streams did not all receive the match's start within {self.plan.timeout:g} s")
                done, pending = await asyncio.wait(pending, timeout=left, return_when=asyncio.FIRST_COMPLETED)
                for task in done:
                    failure = task.exception() if task is not waiter else None
                    if failure is not None:
                        raise failure
        finally:
            waiter.cancel()

    async def slot(self, stubs: Sequence[table_pb2_grpc.TableServiceAsyncStub], slot: int) -> None:
        """Keep one table playing: a new one each time a match ends or a table fails."""
        stub = stubs[slot % len(stubs)]
        first = [True] if self.plan.setup_before_clock else None
        while self.running:
            where: list[str] = []
            try:
                await self.table(stub, where, first)
            except Exception as exc:
                if not self.running:
                    return  # cut short by the end of the run
                self.count_error(exc, where[0] if where else None)
                if first is not None and first[0]:  # the clock need not wait for this slot
                    first[0] = False
                    self.slot_ready()
                await asyncio.sleep(ERROR_PAUSE)

    # ------------------------------------------------------------------ the whole run

    async def probe(self, stub: table_pb2_grpc.TableServiceAsyncStub) -> None:
        """Check that the server answers and plays the game.

        Raises:
            Unavailable: it does not answer, or does not play the game.
        """
        plan = self.plan
        try:
            games = await stub.ListGames(table_pb2.ListGamesRequest(), timeout=min(PROBE_TIMEOUT, plan.timeout))
        except grpc.aio.AioRpcError as exc:
            raise Unavailable(
                f"no answer from the trapoula server at {plan.address}: {exc.code().name}: {_message(exc)}",
                code=exc.code(),
            ) from None
        if plan.game not in {g.key for g in games.games}:
            raise Unavailable(f"the server at {plan.address} does not play {plan.game}")

    async def report(self) -> None:
        """Print one line every ``every`` seconds (until cancelled)."""
        tick = 1
        while True:
            await asyncio.sleep(max(0.0, self.started + tick * self.plan.every - time.monotonic()))
            tick += 1
            now = self.snapshot()
            self.say(interval_line(self.previous, now, *self.latencies.roll(), rate=self.plan.rate))
            self.previous = now

    async def main(self) -> LoadResult:
        """Probe every address, keep the tables playing for the run, print the lines; the result.

        Raises:
            Unavailable: an address does not answer, or its server does not play the game.
        """
        plan = self.plan
        addresses = [a.strip() for a in plan.address.split(",") if a.strip()] or [plan.address]
        channels = [  # replicas in turn: table i plays through channel i % len(channels)
            grpc.aio.insecure_channel(addresses[i % len(addresses)], options=CHANNEL_OPTIONS)
            for i in range(max(len(addresses), min(plan.channels, plan.tables)))
        ]
        stubs = [table_pb2_grpc.TableServiceStub(c) for c in channels]
        try:
            for stub in stubs[: len(addresses)]:
                await self.probe(stub)
            until = f" or {plan.matches} matches" if plan.matches else ""
            self.say(
                f"load: {plan.tables} {plan.game} tables of {plan.seats} {plan.level} bots at {plan.address} for "
                f"{plan.duration:g} s{until}, {plan.watchers} spectator stream(s) per table, options "
                f"{dict(plan.options) or 'default'}; a line every {plan.every:g} s"
            )
            if plan.paced:
                self.say(
                    f"paced: {plan.rate:g} moves/s in all, each table {plan.rate / plan.tables:.3g}/s on average "
                    "(Poisson); Act latency counted from each move's due time"
                )
            slots = [asyncio.create_task(self.slot(stubs, i)) for i in range(plan.tables)]
            setup_seconds = None
            if plan.setup_before_clock:
                began = time.monotonic()
                waits = [asyncio.create_task(self.set_up.wait()), asyncio.create_task(self.stop.wait())]
                await asyncio.wait(waits, return_when=asyncio.FIRST_COMPLETED)
                for waiting in waits:
                    waiting.cancel()
                setup_seconds = time.monotonic() - began
                self.say(
                    f"set up {self.tables} table(s) in {setup_seconds:.1f} s "
                    f"(errors {_errors_text(self.errors)}); the clock starts"
                )
                self.events = 0  # the figures are the play's alone
            self.started = time.monotonic()
            self.previous = self.snapshot()
            now = time.perf_counter()
            for pace in self.paces:  # the tables set up so far: their schedules begin together
                pace.start(now)
            self.go.set()
            reporter = asyncio.create_task(self.report())
            ends = [asyncio.create_task(self.stop.wait()), asyncio.create_task(self.enough.wait())]
            await asyncio.wait(ends, timeout=plan.duration, return_when=asyncio.FIRST_COMPLETED)
            self.running = False
            final = self.snapshot()
            end = time.perf_counter()
            for task in [reporter, *ends, *slots]:
                task.cancel()
            await asyncio.gather(reporter, *ends, *slots, return_exceptions=True)
            interval, overall = self.latencies.roll()
            if final.elapsed - self.previous.elapsed >= 0.05:  # the last, shorter interval
                self.say(interval_line(self.previous, final, interval, overall, rate=plan.rate))
            return LoadResult(
                final,
                overall,
                dict(self.examples),
                tuple(self.finished),
                interrupted=self.stop.is_set(),
                stale=self.stale,
                setup_seconds=setup_seconds,
                scheduled=sum(p.due_by(end) for p in self.paces),
                send_lag=Spread.of(sorted(self.send_lags)),
            )
        finally:
            self.running = False
            await asyncio.gather(*(c.close(None) for c in channels), return_exceptions=True)


def run_load(plan: LoadPlan, out: TextIO) -> LoadResult:
    """Play the plan's tables against its server for its duration; print the lines and the summary.
    The garbage collector runs with :data:`GC_THRESHOLDS` meanwhile (the process's objects of
    before the run frozen), as they were afterwards.

    Ctrl-C (SIGINT, when called from the main thread) ends the run early, cleanly: the summary is
    printed and :attr:`LoadResult.interrupted` is true; a second Ctrl-C raises
    :class:`KeyboardInterrupt` at once.

    Raises:
        Unavailable: the server does not answer, or does not play the game (nothing is played).
    """

    async def main() -> LoadResult:
        stop = asyncio.Event()
        loop = asyncio.get_running_loop()
        handled = False

        def interrupted() -> None:
            stop.set()
            loop.remove_signal_handler(signal.SIGINT)  # a second Ctrl-C interrupts at once

        with contextlib.suppress(NotImplementedError, RuntimeError, ValueError):  # not the main thread ...
            loop.add_signal_handler(signal.SIGINT, interrupted)
            handled = True
        try:
            result = await _Run(plan, out, stop).main()
        finally:
            if handled:
                loop.remove_signal_handler(signal.SIGINT)
        print(summary_block(plan, result), file=out, flush=True)
        return result

    with _run_collector():
        return asyncio.run(main())
