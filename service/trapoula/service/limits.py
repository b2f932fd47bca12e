"""Limits per client: how fast a client may call ``CreateTable``, ``JoinTable`` and ``Act``, how
many open tables it may own and how many ``WatchTable`` streams it may hold (docs/operations.md,
Limits).

A **client** is :func:`client_key` of a call: the verified player identity the call carries, when
it carries one, else the caller's peer host (the IP address of ``context.peer()``, without the
port; a Connect call's client address likewise), so every connection from one address shares one
allowance.  :func:`caller` makes the key of a call: once calls carry a verified identity, it
passes that identity to :func:`client_key`.

* **Rates** (``--limit-create-per-second`` / ``--limit-create-burst`` and the same for ``join`` and
  ``act``): a token bucket per client and method.  A bucket holds up to ``burst`` tokens, refills
  at ``per_second`` tokens a second, and each call takes one; a call finding less than one token
  is refused with the time until one is there, ``(1 - tokens) / per_second``.  So a client may
  make ``burst`` calls at once, then ``per_second`` a second.
* **Open tables** (``--max-open-tables``): the tables created by a client whose match has not
  ended, counted by each replica in its own memory (a client spreading its calls over replicas
  may own as many on each).  A table stops counting when its match ends, when it has left this
  process's table cache (it is then no longer known to be open here, and checking it would cost
  a store read), or when it has not changed for :data:`IDLE_SECONDS` (abandoned: a load test's
  tables when the run stops, a flood's tables never played); all three are checked, without any
  store read, when the client reaches its limit and every :data:`SWEEP_SECONDS`.  A table being
  created counts from the call's start.  ``CreateTable`` checks the rate first: a call refused
  for too many tables has spent a token too.
* **Watch streams** (``--max-watches``): the ``WatchTable`` streams a client holds open on this
  replica; a stream stops counting when it ends, however it ends.

A refused call is :class:`~trapoula.service.errors.Limited`: ``RESOURCE_EXHAUSTED``, reason
``rate_limited``, ``too_many_tables`` or ``too_many_watches``, with a ``google.rpc.RetryInfo``;
it is refused before any command runs, so it stores nothing and may be sent again as it is.  A
limit of 0 is off.  The defaults (:mod:`trapoula.service.settingvalues`) let ``trapoula load``
(400 tables set up at once by one client), the demo and the tests through; ``make bench``, whose
closed loops make more than 1,000 ``Act`` calls a second on a fast machine, raises the ``Act`` rate
of its servers.

The checks run on the event loop only (the servicer calls them before handing any work to a
thread), so they take no lock: a dict lookup and some arithmetic.  Memory stays bounded: a
client's bucket is forgotten once it has refilled (a full bucket is what a new client gets), at
most every :data:`SWEEP_SECONDS` and whenever more than :data:`MAX_CLIENTS` clients are known (the
oldest then go first, even if not full: the limit is then lenient, never wrong the other way);
a watch count goes when its last stream ends, an owner's tables as they stop counting.
"""

from __future__ import annotations

import functools
import time
import urllib.parse
from collections.abc import Callable
from dataclasses import dataclass, field
from types import TracebackType
from typing import Any, Protocol

from trapoula.service.errors import Limited
from trapoula.service.settingvalues import (
    DEFAULT_LIMIT_ACT_BURST,
    DEFAULT_LIMIT_ACT_PER_SECOND,
    DEFAULT_LIMIT_CREATE_BURST,
    DEFAULT_LIMIT_CREATE_PER_SECOND,
    DEFAULT_LIMIT_JOIN_BURST,
    DEFAULT_LIMIT_JOIN_PER_SECOND,
    DEFAULT_MAX_OPEN_TABLES,
    DEFAULT_MAX_WATCHES,
)

__all__ = [
    "ACT",
    "CREATE",
    "IDLE_SECONDS",
    "JOIN",
    "LIMIT_REASONS",
    "MAX_CLIENTS",
    "SLOT_RETRY_SECONDS",
    "SWEEP_SECONDS",
    "Buckets",
    "LimitSettings",
    "Limits",
    "Rate",
    "TableSlot",
    "client_key",
    "peer_host",
]

CREATE, JOIN, ACT = "CreateTable", "JoinTable", "Act"
"""The rate-limited RPCs."""
LIMIT_REASONS = ("rate_limited", "too_many_tables", "too_many_watches")
"""The ``ErrorInfo.reason`` of a refusal by a limit."""
MAX_CLIENTS = 50_000
"""Most clients a bucket remembers at once (the oldest are forgotten beyond: see the module docstring)."""
SWEEP_SECONDS = 60.0
"""How often the buckets forget the clients whose allowance has refilled, and the owners' tables
are checked for ended matches (at most: only when a new client or a new table comes)."""
IDLE_SECONDS = 600.0
"""A table that has not changed for this long stops counting among its owner's open tables (so a
flood of tables left unplayed is held to ``--max-open-tables`` every ten minutes)."""
SLOT_RETRY_SECONDS = 10.0
"""The retry delay of ``too_many_tables`` and ``too_many_watches``: a hint only, since a slot frees
when one of the client's matches ends or one of its streams closes, which the server cannot foresee."""


class _Context(Protocol):
    def peer(self) -> str: ...


def peer_host(peer: str) -> str:
    """The host of a gRPC peer string (``ipv4:10.0.0.7:51234``, ``ipv6:[::1]:51234``, URL-encoded or
    not), without the port; another form (``unix:/run/trapoula.sock``) is kept whole.

    >>> peer_host("ipv4:10.0.0.7:51234")
    '10.0.0.7'
    >>> peer_host("ipv6:%5B::1%5D:51234")
    '::1'
    >>> peer_host("unix:/run/t.sock")
    'unix:/run/t.sock'
    """
    scheme, sep, rest = peer.partition(":")
    if not sep or scheme not in ("ipv4", "ipv6"):
        return peer
    host = urllib.parse.unquote(rest).rpartition(":")[0] if "%" in rest else rest.rpartition(":")[0]
    return host.strip("[]") or rest


def client_key(peer: str, verified_id: str | None = None) -> str:
    """The client a call counts against: ``id:<verified_id>`` when the call carries a verified
    player identity, else ``ip:<host>`` of its peer (:func:`peer_host`).

    >>> client_key("ipv4:10.0.0.7:51234")
    'ip:10.0.0.7'
    >>> client_key("ipv4:10.0.0.7:51234", "ann")
    'id:ann'
    """
    return f"id:{verified_id}" if verified_id else f"ip:{peer_host(peer)}"


def caller(context: _Context, verified_id: str | None = None) -> str:
    """:func:`client_key` of a call (gRPC's context, or the Connect one, which has ``peer`` too):
    its verified player (``verified_id``, from an identity token, docs/identity.md), else its peer."""
    if verified_id:
        return client_key("", verified_id)
    try:
        peer = context.peer()
    except Exception:  # a context without a peer: all such calls share one allowance
        peer = ""
    return client_key(peer or "unknown", None)


@dataclass(frozen=True, slots=True)
class Rate:
    """A token bucket's settings: ``burst`` calls at once, ``per_second`` after; 0 in either: off."""

    per_second: float
    burst: int

    @property
    def on(self) -> bool:
        """True unless either is 0."""
        return self.per_second > 0 and self.burst > 0


@dataclass(frozen=True, slots=True)
class LimitSettings:
    """Every limit (the ``--limit-*`` and ``--max-*`` settings); :meth:`of` reads them from the
    server's :class:`~trapoula.service.settings.Settings`."""

    create: Rate = field(default_factory=lambda: Rate(DEFAULT_LIMIT_CREATE_PER_SECOND, DEFAULT_LIMIT_CREATE_BURST))
    join: Rate = field(default_factory=lambda: Rate(DEFAULT_LIMIT_JOIN_PER_SECOND, DEFAULT_LIMIT_JOIN_BURST))
    act: Rate = field(default_factory=lambda: Rate(DEFAULT_LIMIT_ACT_PER_SECOND, DEFAULT_LIMIT_ACT_BURST))
    max_open_tables: int = DEFAULT_MAX_OPEN_TABLES
    """Open tables a client may own on this replica (0: no limit)."""
    max_watches: int = DEFAULT_MAX_WATCHES
    """``WatchTable`` streams a client may hold open on this replica (0: no limit)."""

    @staticmethod
    def of(settings: Any) -> LimitSettings:
        """The limits of the server's settings (fields ``limit_create_per_second`` ... ``max_watches``)."""
        return LimitSettings(
            Rate(settings.limit_create_per_second, settings.limit_create_burst),
            Rate(settings.limit_join_per_second, settings.limit_join_burst),
            Rate(settings.limit_act_per_second, settings.limit_act_burst),
            settings.max_open_tables,
            settings.max_watches,
        )

    @staticmethod
    def off() -> LimitSettings:
        """No limit at all."""
        return LimitSettings(Rate(0, 0), Rate(0, 0), Rate(0, 0), 0, 0)


class Buckets:
    """One token bucket per client for one RPC (see the module docstring); event loop only."""

    def __init__(self, rate: Rate, clock: Callable[[], float] = time.monotonic) -> None:
        self.per_second = float(rate.per_second)
        self.burst = float(rate.burst)
        self.clock = clock
        self.entries: dict[str, list[float]] = {}
        """client -> ``[tokens, when]``: the tokens left at ``when`` (the clock's time)."""
        self._sweep_at = clock() + SWEEP_SECONDS

    def take(self, key: str) -> float:
        """Take a token of ``key``'s bucket: 0.0 when there was one, else the seconds until there
        is one (nothing taken)."""
        now = self.clock()
        entry = self.entries.get(key)
        if entry is None:
            self.entries[key] = [self.burst - 1.0, now]
            if now >= self._sweep_at or len(self.entries) > MAX_CLIENTS:
                self.sweep(now)
            return 0.0
        tokens = entry[0] + (now - entry[1]) * self.per_second
        if tokens > self.burst:
            tokens = self.burst
        entry[1] = now
        if tokens >= 1.0:
            entry[0] = tokens - 1.0
            return 0.0
        entry[0] = tokens
        return (1.0 - tokens) / self.per_second

    def sweep(self, now: float) -> None:
        """Forget the clients whose bucket has refilled; then, beyond :data:`MAX_CLIENTS`, the oldest."""
        self._sweep_at = now + SWEEP_SECONDS
        rate, burst = self.per_second, self.burst
        for key in [k for k, (tokens, when) in self.entries.items() if tokens + (now - when) * rate >= burst]:
            del self.entries[key]
        excess = len(self.entries) - MAX_CLIENTS
        if excess > 0:
            for key in list(self.entries)[:excess]:
                del self.entries[key]


class TableSlot:
    """A table being created by a client (:meth:`Limits.new_table`): counted from the start;
    :meth:`created` names it, and leaving the ``with`` without a table frees the slot."""

    def __init__(self, limits: Limits | None, key: str) -> None:
        self._limits = limits
        self._key = key

    def created(self, table_id: str) -> None:
        """The table is created: it counts until its match ends (or it leaves the cache)."""
        limits, self._limits = self._limits, None
        if limits is not None:
            limits.table_created(self._key, table_id)

    def __enter__(self) -> TableSlot:
        return self

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        limits, self._limits = self._limits, None
        if limits is not None:
            limits.table_not_created(self._key)


class Limits:
    """The limits of one server (see the module docstring); its methods run on the event loop.

    Args:
        settings: the limits (the defaults when None).
        open_here: ``open_here(table_id)`` is True while the table counts among its owner's open
            tables: in this process's memory, its match not over, changed within
            :data:`IDLE_SECONDS` (:meth:`attach` sets it from the tables; None: a created table
            counts until the server stops).
        clock: seconds, monotonic (tests pass their own).
    """

    def __init__(
        self,
        settings: LimitSettings | None = None,
        open_here: Callable[[str], bool] | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.settings = settings = settings or LimitSettings()
        self.open_here = open_here
        self.clock = clock
        self.rates: dict[str, Buckets | None] = {
            method: Buckets(rate, clock) if rate.on else None
            for method, rate in ((CREATE, settings.create), (JOIN, settings.join), (ACT, settings.act))
        }
        self.owned: dict[str, dict[str, None]] = {}
        """client -> its tables counted as open (insertion-ordered)."""
        self.creating: dict[str, int] = {}
        """client -> tables it is creating now."""
        self.watches: dict[str, int] = {}
        """client -> its ``WatchTable`` streams open now."""
        self._sweep_at = clock() + SWEEP_SECONDS

    def attach(self, tables: Any) -> None:
        """Count open tables with ``tables.open_here`` (:meth:`~trapoula.service.reads.TableReads.open_here`,
        idle after :data:`IDLE_SECONDS`), unless :attr:`open_here` is set already."""
        if self.open_here is None:
            self.open_here = functools.partial(tables.open_here, idle_seconds=IDLE_SECONDS)

    # ------------------------------------------------------------------ rates

    def check(self, method: str, context: _Context, verified_id: str | None = None) -> None:
        """Count a call of ``method`` (``CreateTable``, ``JoinTable``, ``Act``) against its caller's rate
        (the verified player ``verified_id`` when the call names one, else its peer).

        Raises:
            Limited: over the rate (``rate_limited``), with the seconds until a call is allowed.
        """
        buckets = self.rates.get(method)
        if buckets is not None:
            self._take(buckets, method, caller(context, verified_id))

    def _take(self, buckets: Buckets, method: str, key: str) -> None:
        wait = buckets.take(key)
        if wait > 0.0:
            raise Limited(
                f"{method}: more than {buckets.burst:g} calls at once or {buckets.per_second:g} a second from "
                f"this client; retry in {wait:.3f} s",
                "rate_limited",
                wait,
                method,
            )

    # ------------------------------------------------------------------ open tables

    def new_table(self, context: _Context, verified_id: str | None = None, retry_of: str | None = None) -> TableSlot:
        """A ``CreateTable`` call: count it against the caller's rate, then hold a slot among its
        open tables (use the slot as a context manager and name the table: :class:`TableSlot`).
        The caller is the verified player ``verified_id`` when the call names one, else its peer.
        A retried creation of a table the caller already owns here (``retry_of``: the table its
        request id names) takes no other slot, so the owner always gets its token back.

        Raises:
            Limited: over the rate (``rate_limited``), or as many open tables as allowed
                (``too_many_tables``).
        """
        key = caller(context, verified_id)
        buckets = self.rates[CREATE]
        if buckets is not None:
            self._take(buckets, CREATE, key)
        most = self.settings.max_open_tables
        if most <= 0 or (retry_of is not None and retry_of in self.owned.get(key, {})):
            return TableSlot(None, key)
        now = self.clock()
        if now >= self._sweep_at:
            self.sweep_tables(now)
        if self.open_tables(key) >= most:
            owned = self.owned.get(key)
            if owned:
                self._prune(key, owned)
            if self.open_tables(key) >= most:
                raise Limited(
                    f"CreateTable: this client has {most} open tables on this server (not over, changed in the "
                    f"last {IDLE_SECONDS / 60:g} minutes); create another when one of them has ended",
                    "too_many_tables",
                    SLOT_RETRY_SECONDS,
                    "open_tables",
                )
        self.creating[key] = self.creating.get(key, 0) + 1
        return TableSlot(self, key)

    def open_tables(self, key: str) -> int:
        """The tables counted as open for client ``key``: its tables not known to have ended, and
        those it is creating."""
        owned = self.owned.get(key)
        return (len(owned) if owned else 0) + self.creating.get(key, 0)

    def table_created(self, key: str, table_id: str) -> None:
        """Client ``key``'s slot became table ``table_id`` (again for a retried request id: one count)."""
        self._release_creating(key)
        self.owned.setdefault(key, {})[table_id] = None

    def table_not_created(self, key: str) -> None:
        """Client ``key``'s slot made no table (the call failed)."""
        self._release_creating(key)

    def _release_creating(self, key: str) -> None:
        left = self.creating.get(key, 0) - 1
        if left > 0:
            self.creating[key] = left
        else:
            self.creating.pop(key, None)

    def _prune(self, key: str, owned: dict[str, None]) -> None:
        """Stop counting the tables of ``key`` that ended or left the cache (no store read)."""
        check = self.open_here
        if check is None:
            return
        for table_id in [t for t in owned if not check(t)]:
            del owned[table_id]
        if not owned:
            self.owned.pop(key, None)

    def sweep_tables(self, now: float | None = None) -> None:
        """Check every owner's tables (:meth:`_prune`): ended matches and tables gone from the cache
        stop counting, and owners left with none are forgotten."""
        self._sweep_at = (self.clock() if now is None else now) + SWEEP_SECONDS
        for key, owned in list(self.owned.items()):
            self._prune(key, owned)

    # ------------------------------------------------------------------ watch streams

    def open_watch(self, context: _Context) -> str | None:
        """A ``WatchTable`` stream opens: count it for its caller; returns the key to pass to
        :meth:`close_watch` when it ends (None: not counted, no limit).

        Raises:
            Limited: the caller holds as many streams as allowed (``too_many_watches``).
        """
        most = self.settings.max_watches
        if most <= 0:
            return None
        key = caller(context)
        count = self.watches.get(key, 0)
        if count >= most:
            raise Limited(
                f"WatchTable: this client has {most} streams open on this server; close one first",
                "too_many_watches",
                SLOT_RETRY_SECONDS,
                "watches",
            )
        self.watches[key] = count + 1
        return key

    def close_watch(self, key: str | None) -> None:
        """The stream counted under ``key`` ended (None: it was not counted)."""
        if key is None:
            return
        left = self.watches.get(key, 0) - 1
        if left > 0:
            self.watches[key] = left
        else:
            self.watches.pop(key, None)
