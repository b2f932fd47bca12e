"""Prometheus metrics of one server, served over HTTP on their own address (docs/operations.md).

Each :class:`Metrics` has its own ``CollectorRegistry`` (not prometheus_client's global one), so
several servers can run in one process, each with its own endpoint::

    metrics = Metrics()
    server, port = create_server("127.0.0.1:0", tables, metrics=metrics)   # attaches it
    address = metrics.serve_http("127.0.0.1:0")                             # "127.0.0.1:PORT"
    ...
    metrics.close_http()

| metric | type | labels | what |
|---|---|---|---|
| ``trapoula_commands_total`` | counter | ``game, command, result, reason`` | commands answered |
| ``trapoula_command_seconds`` | histogram | ``game, command`` | time to answer a command |
| ``trapoula_rpcs_total`` | counter | ``method, result`` | every call answered, by RPC |
| ``trapoula_rpc_seconds`` | histogram | ``method`` | time to answer a unary call |
| ``trapoula_open_tables`` | gauge | | tables not over, of those this server saw change |
| ``trapoula_watchers`` | gauge | | ``WatchTable`` streams open now |
| ``trapoula_store_errors_total`` | counter | ``kind`` | store errors met (:data:`STORE_ERROR_KINDS`) |
| ``trapoula_limited_total`` | counter | ``method, reason`` | calls refused by a limit per client |

The commands are :data:`COMMANDS`, the RPCs that change tables.  ``result`` is ``ok`` or the gRPC
status code's name (``FAILED_PRECONDITION``); ``reason`` the ``ErrorInfo.reason`` (empty when
``ok``).  ``game`` is a game key, or ``unknown`` when the table's game could not be known (no such
table, a malformed request, an unreachable store).  Every label takes a bounded set of values:
never a table id or anything else a caller chose.  Plus prometheus_client's ``process_*`` and
``python_*`` metrics.  The precise definitions are in docs/operations.md.
"""

from __future__ import annotations

import asyncio
import logging
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Iterable
from concurrent.futures import Executor
from typing import Any
from wsgiref.simple_server import WSGIServer

from prometheus_client import (
    CollectorRegistry,
    Counter,
    Gauge,
    Histogram,
    generate_latest,
    start_http_server,
)
from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily, Metric
from prometheus_client.gc_collector import GCCollector
from prometheus_client.platform_collector import PlatformCollector
from prometheus_client.process_collector import ProcessCollector

from trapoula.domain.errors import InvalidInput
from trapoula.domain.registry import GAMES
from trapoula.service.application import SPECTATOR, Tables
from trapoula.service.errors import TableNotFound
from trapoula.service.limits import LIMIT_REASONS
from trapoula.service.logs import CallInfo, enter_call, leave_call
from trapoula.service.status import store_down

__all__ = ["COMMANDS", "STORE_ERROR_KINDS", "UNKNOWN_GAME", "Metrics"]

COMMANDS = frozenset({"CreateTable", "JoinTable", "AddBot", "StartMatch", "Act"})
"""The RPCs that change tables: counted in ``trapoula_commands_total`` and timed in
``trapoula_command_seconds`` (every RPC is in ``trapoula_rpcs_total``)."""
UNKNOWN_GAME = "unknown"
"""The ``game`` label when the table's game is not known."""
STORE_ERROR_KINDS = ("unreachable", "corrupt_log", "conflict")
"""The ``kind`` label of ``trapoula_store_errors_total`` (docs/operations.md)."""
LATENCY_BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0)
"""Upper bounds (seconds) of the latency histograms' buckets."""
GAMES_REMEMBERED = 10_000
"""Most table -> game pairs kept to label commands (the least recently used are forgotten, then
read again from the store when needed)."""
TABLE_EXISTS = frozenset(
    {"ok", "FAILED_PRECONDITION", "ALREADY_EXISTS", "PERMISSION_DENIED", "ABORTED", "OUT_OF_RANGE"}
)
"""Results after which the call's table surely exists, so its game may be read from the store."""

log = logging.getLogger(__name__)
calls_log = logging.getLogger("trapoula.service.calls")
"""The logger of the one line per call (``debug``; ``info`` for a table created)."""


class _OpenTables:
    """The ``trapoula_open_tables`` gauge, worked out at each scrape (:meth:`Metrics.open_tables`)."""

    name = "trapoula_open_tables"
    documentation = (
        "Tables whose match is not over, among those this server saw change since it started "
        "(read at scrape time; docs/operations.md)"
    )

    def __init__(self, metrics: Metrics) -> None:
        self._metrics = metrics

    def describe(self) -> Iterable[Metric]:
        """The metric, without reading anything."""
        yield GaugeMetricFamily(self.name, self.documentation)

    def collect(self) -> Iterable[Metric]:
        """The metric with its value now."""
        yield GaugeMetricFamily(self.name, self.documentation, value=self._metrics.open_tables())


class _ProjectionGauges:
    """``trapoula_projection_position``, ``trapoula_projection_lag`` and
    ``trapoula_projection_failures_total`` of the read models' projection, from what its
    background thread last saw (no I/O at scrape time; docs/operations.md)."""

    def __init__(self, projection: Any) -> None:
        self._projection = projection

    def describe(self) -> Iterable[Metric]:
        """The metrics, without reading anything."""
        return self.collect()

    def collect(self) -> Iterable[Metric]:
        """The metrics with their values now."""
        position, head = self._projection.observed
        yield GaugeMetricFamily(
            "trapoula_projection_position",
            "Notification id of the last stored event folded into the read models (as last checked)",
            value=position,
        )
        yield GaugeMetricFamily(
            "trapoula_projection_lag",
            "Stored events not yet folded into the read models when last checked (0: up to date)",
            value=max(0, head - position),
        )
        yield CounterMetricFamily(
            "trapoula_projection_failures",
            "Catch-ups of the projection that failed (each logged as a warning)",
            value=self._projection.failures,
        )


class Metrics:
    """The metrics of one server, its registry, and its HTTP endpoint (see the module docstring)."""

    def __init__(self) -> None:
        self.registry = CollectorRegistry(auto_describe=True)
        """This server's registry (never prometheus_client's global one)."""
        self.commands = Counter(
            "trapoula_commands",
            "Commands (RPCs that change tables) answered, by game, RPC, result (ok or the gRPC code) and reason",
            ["game", "command", "result", "reason"],
            registry=self.registry,
        )
        self.command_seconds = Histogram(
            "trapoula_command_seconds",
            "Seconds from a command's arrival to its answer, by game and RPC",
            ["game", "command"],
            buckets=LATENCY_BUCKETS,
            registry=self.registry,
        )
        self.rpcs = Counter(
            "trapoula_rpcs",
            "Calls answered (streams: ended), by RPC and result (ok or the gRPC code)",
            ["method", "result"],
            registry=self.registry,
        )
        self.rpc_seconds = Histogram(
            "trapoula_rpc_seconds",
            "Seconds from a unary call's arrival to its answer, by RPC",
            ["method"],
            buckets=LATENCY_BUCKETS,
            registry=self.registry,
        )
        self.watchers = Gauge("trapoula_watchers", "WatchTable streams open now", registry=self.registry)
        self.store_errors = Counter(
            "trapoula_store_errors",
            "Store errors met: unreachable (calls and scrapes), corrupt_log, conflict (saves kept colliding)",
            ["kind"],
            registry=self.registry,
        )
        for kind in STORE_ERROR_KINDS:
            self.store_errors.labels(kind)
        self.limited = Counter(
            "trapoula_limited",
            "Calls refused by a limit per client (RESOURCE_EXHAUSTED), by RPC and reason "
            "(rate_limited, too_many_tables, too_many_watches)",
            ["method", "reason"],
            registry=self.registry,
        )
        self.registry.register(_OpenTables(self))
        ProcessCollector(registry=self.registry)
        PlatformCollector(registry=self.registry)
        GCCollector(registry=self.registry)
        self._tables: Tables | None = None
        self._executor: Executor | None = None
        self._children: dict[tuple[int, tuple[str, ...]], Any] = {}
        """Labelled children of the call metrics, by metric and label values (:meth:`_child`)."""
        self._lock = threading.Lock()
        self._scrape_lock = threading.Lock()
        self._changed: dict[str, int] = {}
        self._open: set[str] = set()
        self._games: OrderedDict[str, str] = OrderedDict()
        self._unreachable: list[Callable[[], None]] = []
        self._http: WSGIServer | None = None
        self._http_thread: threading.Thread | None = None
        self.http_address: str | None = None
        """``host:port`` the HTTP endpoint listens on (the bound port), or None when not serving."""

    # ----------------------------------------------------------------------- tables

    def attach(self, tables: Tables, executor: Executor) -> None:
        """Follow ``tables``: every save it announces marks the table changed (for
        ``trapoula_open_tables``); store reads for labels run on ``executor``."""
        self._tables = tables
        self._executor = executor
        tables.add_listener(self.table_changed)

    def follow_projection(self, projection: Any) -> None:
        """Export the progress of ``projection`` (a :class:`~trapoula.service.projection.Projection`
        with ``observed`` and ``failures``) as the ``trapoula_projection_*`` metrics."""
        self.registry.register(_ProjectionGauges(projection))

    def detach(self) -> None:
        """Stop following the tables (a stopping server); the metrics keep their last values."""
        tables, self._tables = self._tables, None
        if tables is not None:
            tables.remove_listener(self.table_changed)

    def add_unreachable_listener(self, listener: Callable[[], None]) -> None:
        """Call ``listener()`` (in the event loop; it must not block) after each call that failed
        because the store could not be reached (one more ``trapoula_store_errors_total{kind="unreachable"}``)."""
        self._unreachable.append(listener)

    def remove_unreachable_listener(self, listener: Callable[[], None]) -> None:
        """Stop calling ``listener`` (no-op when it is not listening)."""
        if listener in self._unreachable:
            self._unreachable.remove(listener)

    def table_changed(self, table_id: str, version: int) -> None:
        """``Tables`` listener: ``table_id`` reached ``version`` (any thread; no I/O)."""
        with self._lock:
            self._changed[table_id] = version

    def _read(self, table_id: str) -> tuple[str, str]:
        """``(game, status)`` of a table now, from the store (blocking).

        Raises:
            TableNotFound, InvalidInput: no such table; whatever the store raises.
        """
        tables = self._tables
        if tables is None:
            raise TableNotFound(f"no table {table_id} (the server is stopping)")
        _version, view = tables.view(table_id, SPECTATOR)
        table = view.get("table")
        status = table.get("status") if isinstance(table, dict) else None
        game = self._game_key(view.get("game"))
        self._remember(table_id, game)
        return game, str(status)

    def open_tables(self) -> int:
        """``trapoula_open_tables`` now: reads the tables changed since the last scrape (one store
        read each); a table whose match is over leaves the count.  A read the store fails is tried
        again at the next scrape (and counted in ``trapoula_store_errors_total{kind="unreachable"}``
        when the store is unreachable; the other changed tables then wait for the next scrape too)."""
        with self._scrape_lock:
            with self._lock:
                changed, self._changed = self._changed, {}
            pending = list(changed.items())
            while pending:
                table_id, version = pending.pop()
                try:
                    _game, status = self._read(table_id)
                except (TableNotFound, InvalidInput):
                    self._open.discard(table_id)
                    continue
                except Exception as exc:
                    pending.append((table_id, version))
                    with self._lock:
                        for tid, v in pending:
                            self._changed[tid] = max(v, self._changed.get(tid, 0))
                    if store_down(exc):
                        self.store_errors.labels("unreachable").inc()
                    log.debug("open tables: cannot read table %s (%s)", table_id, type(exc).__name__)
                    break
                if status == "over":
                    self._open.discard(table_id)
                else:
                    self._open.add(table_id)
            return len(self._open)

    @staticmethod
    def _game_key(game: Any) -> str:
        return game if isinstance(game, str) and game in GAMES else UNKNOWN_GAME

    def _remember(self, table_id: str, game: str) -> None:
        if game == UNKNOWN_GAME:
            return
        with self._lock:
            self._games[table_id] = game
            self._games.move_to_end(table_id)
            while len(self._games) > GAMES_REMEMBERED:
                self._games.popitem(last=False)

    async def _game_of(self, info: CallInfo) -> str:
        """The game of the call's table: remembered, else read from the store (only when the call's
        result says the table exists; ``unknown`` when it cannot be read)."""
        table_id = info.table_id
        if table_id is None:
            return UNKNOWN_GAME
        with self._lock:
            game = self._games.get(table_id)
        if game is not None:
            return game
        executor = self._executor
        if info.result not in TABLE_EXISTS or executor is None or self._tables is None:
            return UNKNOWN_GAME
        try:
            read, _status = await asyncio.get_running_loop().run_in_executor(executor, self._read, table_id)
        except Exception:
            return UNKNOWN_GAME
        return read

    # ----------------------------------------------------------------------- calls

    def track(self, method: str, request: Any, *, stream: bool = False) -> Tracked:
        """Count, time and log one call of ``method`` (``stream``: a server-streaming RPC, counted in
        ``trapoula_watchers`` while open and not timed): an async context manager.

        It yields the call's :class:`~trapoula.service.logs.CallInfo`, the context of its log
        records; the handler passes the reply to :meth:`~trapoula.service.logs.CallInfo.answered`
        and a failure is noted by :func:`~trapoula.service.logs.note_failure` where it becomes a
        status.  A call ending otherwise is counted ``CANCELLED`` (the caller went away) or
        ``UNKNOWN`` (an exception gRPC answers itself).  Counting never fails the call.
        """
        return Tracked(self, method, request, stream)

    def _child(self, metric: Any, labels: tuple[str, ...]) -> Any:
        """``metric.labels(*labels)``, kept: a labelled child is looked up once per label values
        (every label takes a bounded set of values, see the module docstring)."""
        key = (id(metric), labels)
        child = self._children.get(key)
        if child is None:
            child = self._children[key] = metric.labels(*labels)
        return child

    def _record(self, info: CallInfo, seconds: float, stream: bool) -> None:
        try:
            method, result = info.method, info.result
            child = self._child
            child(self.rpcs, (method, result)).inc()
            if not stream:
                child(self.rpc_seconds, (method,)).observe(seconds)
            if method in COMMANDS:
                game = info.game or UNKNOWN_GAME
                info.game = game
                child(self.commands, (game, method, result, info.reason)).inc()
                child(self.command_seconds, (game, method)).observe(seconds)
                if method == "CreateTable" and result == "ok" and info.table_id is not None:
                    self._remember(info.table_id, game)
            if info.store_error is not None:
                self.store_errors.labels(info.store_error).inc()
            if result == "RESOURCE_EXHAUSTED" and info.reason in LIMIT_REASONS:
                self.limited.labels(method, info.reason).inc()
            created = method == "CreateTable" and result == "ok"
            level = logging.INFO if created else logging.DEBUG
            if calls_log.isEnabledFor(level):
                outcome = "ok" if result == "ok" else f"{result} {info.reason}".strip()
                extra: dict[str, Any] = {"result": result, "ms": round(seconds * 1000, 3)}
                if info.reason:
                    extra["reason"] = info.reason
                if info.game is not None:
                    extra["game"] = info.game
                what = "ok: table created" if created else outcome
                calls_log.log(level, "%s %s (%.1f ms)", method, what, seconds * 1000, extra=extra)
            if info.store_error == "unreachable":
                for listener in list(self._unreachable):
                    listener()
        except Exception:  # pragma: no cover - counting must never fail a call
            log.exception("cannot count a call of %s", info.method)

    # ----------------------------------------------------------------------- exposition

    def scrape(self) -> bytes:
        """The metrics in Prometheus' text format, as the endpoint serves them."""
        return generate_latest(self.registry)

    def serve_http(self, address: str) -> str:
        """Serve the metrics over HTTP on ``address`` (``host:port``; port 0 picks a free port) in a
        daemon thread; returns ``host:port`` with the bound port (also :attr:`http_address`).
        Any path answers (``/metrics`` by convention).

        Raises:
            OSError: the address cannot be bound (in use, not this host's, unresolvable).
            RuntimeError: already serving.
        """
        if self._http is not None:
            raise RuntimeError(f"the metrics are already served on {self.http_address}")
        host, _, port = address.rpartition(":")
        httpd, thread = start_http_server(int(port), addr=host.strip("[]"), registry=self.registry)
        self._http, self._http_thread = httpd, thread
        bound = f"{host}:{httpd.server_port}"
        self.http_address = bound
        return bound

    def close_http(self) -> None:
        """Stop serving the metrics over HTTP (no-op when not serving)."""
        httpd, self._http = self._http, None
        if httpd is not None:
            httpd.shutdown()
            httpd.server_close()
        if self._http_thread is not None:
            self._http_thread.join(timeout=5)
            self._http_thread = None
        self.http_address = None


class Tracked:
    """One call counted, timed and logged by :meth:`Metrics.track` (an async context manager whose
    value is the call's :class:`~trapoula.service.logs.CallInfo`): a plain class, not a generator,
    as it wraps every call."""

    __slots__ = ("info", "metrics", "start", "stream", "token")

    def __init__(self, metrics: Metrics, method: str, request: Any, stream: bool) -> None:
        self.metrics = metrics
        self.stream = stream
        info = self.info = CallInfo.of(method, request)
        if method == "CreateTable":
            info.game = metrics._game_key(getattr(request, "game", None))
        self.token: Any = None
        self.start = 0.0

    async def __aenter__(self) -> CallInfo:
        self.token = enter_call(self.info)
        self.start = time.perf_counter()
        if self.stream:
            self.metrics.watchers.inc()
        return self.info

    async def __aexit__(self, kind: type[BaseException] | None, exc: BaseException | None, tb: Any) -> None:
        elapsed = time.perf_counter() - self.start
        info, metrics, stream = self.info, self.metrics, self.stream
        cancelled = False
        if exc is not None:
            cancelled = isinstance(exc, asyncio.CancelledError | GeneratorExit)
            if info.result == "ok":
                info.result, info.reason = ("CANCELLED", "cancelled") if cancelled else ("UNKNOWN", "unexpected")
        try:
            if info.method in COMMANDS and info.game is None and not cancelled:
                info.game = await metrics._game_of(info)
        finally:
            metrics._record(info, elapsed, stream)
            if stream:  # after its count: a scrape that sees the stream gone sees it counted
                metrics.watchers.dec()
            leave_call(self.token)
