"""Snapshots of tables: a cache that spares a cold load the replay of a long history (docs/storage.md).

A snapshot holds what :class:`~trapoula.service.recording.Table` folds from its log up to one
version: the :class:`~trapoula.service.tablestate.TableState` (with the game's own state), the
command index (``Table.commands``, ``Table.last_command``) and the aggregate's creation time.  It
does not hold the stored events themselves: a table restored from a snapshot reads the events
before it from the event store the first time someone needs them (a record, a watcher catching up
from an old position, the repeat of an old command), see
:class:`~trapoula.service.entries.EntryLog`.

Snapshots live in the eventsourcing library's snapshot store (the ``trapoula_snapshots`` table
beside ``trapoula_events``), one row per ``(table, version)``: :class:`TableSnapshot` is the
snapshot event, :class:`SnapshotRepository` the repository whose cold load uses it.  Their state
is JSON only, never pickle: :mod:`trapoula.service.snapshotcodec` writes it and, reading it back,
rebuilds only classes of ``trapoula.domain`` (plus ``TableState`` and ``SeatRecord``), without
calling any of their code, so whoever can write the database cannot make the server run code of
his choosing.

A snapshot is a cache, never the source of truth.  It carries its game and a fingerprint
(:func:`state_fingerprint`): the snapshot format, the platform's table-state version and the
game's state version, each a number bumped on purpose, never a digest of the source, so a deploy
that changes no folded state keeps every snapshot.  A snapshot whose fingerprint is not this
code's, that does not decode, or whose last event's hash is not the log's, is ignored (logged) and
the table is replayed from its log.  Which number to bump (docs/events.md):

* :data:`SNAPSHOT_FORMAT`: the layout of the snapshot row itself (the keys of its ``state`` and of
  its body);
* :data:`TABLE_STATE_VERSION`: the platform's fold, whatever the game: the fields of
  :class:`~trapoula.service.tablestate.TableState` or ``SeatRecord``, what
  :func:`~trapoula.service.tablestate.apply_entry` makes of an event, the command index, the value
  encoding of :mod:`~trapoula.service.snapshotcodec`;
* ``GameSpec.state_version`` of one game: that game's state classes, what its ``evolve`` makes of
  an event, or an upcaster that reads its old events differently (a module shared by several games,
  such as the shedding engine, bumps each of them).

The codec refuses a snapshot whose dataclasses have other fields than the code's, so a forgotten
bump after a change of shape costs one replay; a change of meaning without a bump (the same
fields, folded differently) would be served from the old snapshot: bump it.
"""

from __future__ import annotations

import json
import logging
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from eventsourcing.application import AggregateNotFoundError, Repository
from eventsourcing.domain import Snapshot
from eventsourcing.persistence import EventStore
from eventsourcing.utils import get_topic

from trapoula.domain.registry import GAMES, find_game
from trapoula.service.entries import Entry, entries_of
from trapoula.service.errors import CorruptLog
from trapoula.service.recording import Table
from trapoula.service.snapshotcodec import SnapshotUnusable, decode_value, encode_value
from trapoula.service.tablestate import TableState

log = logging.getLogger(__name__)

SNAPSHOT_EVERY = 512
"""A table's snapshot is taken when a save passes a multiple of this many versions (and after a cold
load that replayed at least this many events).  Measured on 12,000-event matches of a shedding game
(docs/storage.md, section 4): a cold load replays about 5,000 to 7,500 events a CPU second and a
snapshot takes a few milliseconds to encode and store, so 512 bounds the replay after the latest
snapshot to about 0.1 s for 0.01 to 0.04 ms of snapshot work per saved event.  A multiple of
``CHECKPOINT_EVERY``; ``Tables(snapshot_every=0)`` turns snapshots off."""
SNAPSHOT_FORMAT = "trapoula-snapshot/2"
"""The layout of a snapshot's row (``/2``: the ``state`` names its game); part of :func:`state_fingerprint`."""
TABLE_STATE_VERSION = 4
"""The version of the platform's table fold: ``TableState`` and ``SeatRecord``, ``apply_entry``, the
command index and the snapshot codec's encoding.  Bump it when any of them changes; part of
:func:`state_fingerprint`."""


# --------------------------------------------------------------------------- fingerprint


def state_fingerprint(game: str) -> str:
    """The fingerprint of the snapshots of ``game``'s tables that this code uses:
    ``"<SNAPSHOT_FORMAT> table/<TABLE_STATE_VERSION> <game>/<GameSpec.state_version>"``, for
    example ``"trapoula-snapshot/2 table/2 <game key>/1"``.  It changes only when one of the three is
    bumped, never with the source.

    Raises:
        InvalidInput: ``game`` is not a known game (``unknown_game``).
    """
    return f"{SNAPSHOT_FORMAT} table/{TABLE_STATE_VERSION} {game}/{find_game(game).state_version}"


# --------------------------------------------------------------------------- the snapshot event


@dataclass(frozen=True)
class TableSnapshot(Snapshot):
    """One table's snapshot as the eventsourcing snapshot store keeps it.

    ``state`` is ``{"format", "game", "fingerprint", "body"}`` (:func:`state_fingerprint` of the
    game); ``body`` is the JSON text of
    ``{"state", "commands", "last_command", "created_on"}`` (:func:`~trapoula.service.snapshotcodec.encode_value` of the
    ``TableState``; ``[[caller, command_id, first, last], ...]``; ``[caller, command_id]`` or
    None; ISO time).  ``topic`` is the aggregate's class (``Table``).
    """

    @classmethod
    def of(cls, table: Table) -> TableSnapshot:
        """A snapshot of ``table`` at its current version (``table.state.version``).

        Safe while another thread fast-forwards the table: the state is taken once (it is
        immutable), the command index is copied at once and cut at that version (a command's
        events are consecutive, so its span up to the version is its span clipped there).

        Raises:
            SnapshotUnusable: the state holds a value the codec cannot write.
            InvalidInput: the table's game is not a known game.
        """
        state = table.state
        version = state.version
        commands = table.commands.copy()  # one C-level copy: atomic with respect to other threads
        spans = sorted(((f, min(last, version), k) for k, (f, last) in commands.items() if f <= version))
        last_command = spans[-1][2] if spans else None
        body = {
            "state": encode_value(state),
            "commands": [[k[0], k[1], f, last] for f, last, k in spans],
            "last_command": list(last_command) if last_command is not None else None,
            "created_on": table.created_on.isoformat(),
        }
        text = json.dumps(body, ensure_ascii=False, separators=(",", ":"), allow_nan=False)
        return cls(
            originator_id=table.id,
            originator_version=version,
            timestamp=cls.create_timestamp(),
            topic=get_topic(Table),
            state={
                "format": SNAPSHOT_FORMAT,
                "game": state.game,
                "fingerprint": state_fingerprint(state.game),
                "body": text,
            },
        )

    def restore(self, load_prefix: Callable[[], list[Entry]]) -> Table:
        """The table this snapshot holds, its events before the snapshot left to ``load_prefix``.

        Raises:
            SnapshotUnusable: another format, an unknown game or another fingerprint (a state
                version was bumped since), another game, table or version than the snapshot's
                own, or data that does not decode.
        """
        meta = self.state
        if not isinstance(meta, dict) or meta.get("format") != SNAPSHOT_FORMAT:
            raise SnapshotUnusable("snapshot of another format")
        game = meta.get("game")
        if not isinstance(game, str) or game not in GAMES:
            raise SnapshotUnusable(f"snapshot of an unknown game {str(game)[:40]!r}")
        stored, expected = meta.get("fingerprint"), state_fingerprint(game)
        if stored != expected:
            raise SnapshotUnusable(
                f"snapshot of other state versions (its fingerprint {str(stored)[:80]!r}, this code's {expected!r})"
            )
        if self.topic != get_topic(Table):
            raise SnapshotUnusable(f"snapshot of {str(self.topic)[:80]!r}, not of a table")
        try:
            body = json.loads(meta["body"])
            state = decode_value(body["state"])
            commands: dict[tuple[str, str], tuple[int, int]] = {}
            for caller, command_id, first, last in body["commands"]:
                if not (isinstance(caller, str) and isinstance(command_id, str)):
                    raise SnapshotUnusable("snapshot: a command key is not text")
                commands[(caller, command_id)] = (int(first), int(last))
            last = body["last_command"]
            last_command = (str(last[0]), str(last[1])) if last is not None else None
            created_on = datetime.fromisoformat(body["created_on"])
        except SnapshotUnusable:
            raise
        except Exception as exc:
            raise SnapshotUnusable(f"snapshot does not decode: {type(exc).__name__}: {exc}") from exc
        if not isinstance(state, TableState):
            raise SnapshotUnusable("snapshot does not hold a table state")
        if state.game != game:
            raise SnapshotUnusable(f"snapshot holds a table of {state.game!r}, not of {game!r}")
        if state.table_id != str(self.originator_id) or state.version != self.originator_version:
            raise SnapshotUnusable("snapshot holds another table or version than its own")
        return Table.restore(self.originator_id, state, commands, last_command, created_on, load_prefix)


# --------------------------------------------------------------------------- loading


@dataclass(frozen=True, slots=True)
class ColdLoad:
    """What one cold load of a table (not served from the in-process cache) did."""

    table_id: str
    snapshot_version: int
    """The version of the snapshot the table was restored from; 0 when it was replayed from its
    first event."""
    events_read: int
    """Stored events read and applied after the snapshot (all of them without one)."""
    ignored: str | None
    """Why a stored snapshot was not used (logged too); None when none was found or it was used."""
    seconds: float
    """Wall time of the load."""


def snapshots_due(events: Iterable[Any], every: int) -> list[tuple[str, int]]:
    """The tables whose version passes a multiple of ``every`` among ``events`` (the events of one
    save, any tables), each with its newest version there: ``[(table id, version)]`` in order of
    first appearance.  ``every`` 0 (snapshots off): none.  Objects without an ``int``
    ``originator_version`` are ignored.

    >>> from types import SimpleNamespace as E
    >>> snapshots_due([E(originator_id="a", originator_version=v) for v in (511, 512, 513)], 512)
    [('a', 513)]
    >>> snapshots_due([E(originator_id="a", originator_version=513)], 512), snapshots_due([], 0)
    ([], [])
    """
    if not every:
        return []
    spans: dict[str, tuple[int, int]] = {}
    for event in events:
        version = getattr(event, "originator_version", None)
        if isinstance(version, int):
            key = str(getattr(event, "originator_id", ""))
            low, high = spans.get(key, (version, version))
            spans[key] = (min(low, version), max(high, version))
    return [(key, high) for key, (low, high) in spans.items() if high // every > (low - 1) // every]


def project(aggregate: Table | None, events: Iterable[Any]) -> Table | None:
    """Apply stored events to a table (None before its first event): the library's projector without
    its per-event protocol check, which cost about a tenth of a cold load."""
    for event in events:
        aggregate = event.mutate(aggregate)
    return aggregate


class _Counted:
    """An iterator that counts what it yields."""

    def __init__(self, items: Iterable[Any]) -> None:
        self.items: Iterator[Any] = iter(items)
        self.count = 0

    def __iter__(self) -> Iterator[Any]:
        for item in self.items:
            self.count += 1
            yield item


class SnapshotRepository(Repository):  # type: ignore[type-arg]
    """The library's repository with a table-aware cold load.

    A cold load reads the table's latest snapshot; when it is usable (:meth:`TableSnapshot.restore`)
    and the log's event at its version has the snapshot's hash, the table is restored from it and
    only the later events are applied; otherwise (logged) every event is replayed.  The events
    before a snapshot are read again only when needed (``EntryLog``).  ``on_cold_load`` hears of
    every cold load; ``on_long_replay(table, ignored)`` of every one that applied at least
    ``replay_limit`` events (to take a new snapshot; ``ignored`` is the version of the snapshot that
    was ignored, 0 if none).  Loads of a past version go to the library unchanged.
    """

    def __init__(
        self,
        *,
        on_cold_load: Callable[[ColdLoad], None],
        on_long_replay: Callable[[Table, int], None],
        replay_limit: int,
        **kwargs: Any,
    ) -> None:
        """``kwargs`` are the library's (``event_store``, ``snapshot_store``, cache settings)."""
        super().__init__(**kwargs)
        self._on_cold_load = on_cold_load
        self._on_long_replay = on_long_replay
        self._replay_limit = replay_limit

    def _reconstruct_aggregate(self, aggregate_id: Any, version: int | None, projector_func: Any) -> Any:
        snapshots = self.snapshot_store
        if version is not None:
            return super()._reconstruct_aggregate(aggregate_id, version, projector_func)
        began = time.perf_counter()
        table, ignored, stored_at = self._restore(snapshots, aggregate_id) if snapshots else (None, None, 0)
        events: Iterator[Any]
        if table is not None:
            events = iter(self.event_store.get(aggregate_id, gt=stored_at - 1))
            base = next(events, None)
            if (
                base is None
                or base.originator_version != stored_at
                or getattr(base, "hash", None) != (table.state.last_hash)
            ):
                ignored = f"the log's event {stored_at} does not match the snapshot's"
                log.warning("table %s: snapshot v%d ignored: %s", aggregate_id, stored_at, ignored)
                table = None
            else:
                table.set_modified_on(base.timestamp)
        if table is None:
            events = iter(self.event_store.get(aggregate_id))
        counted = _Counted(events)
        aggregate = projector_func(table, counted)
        if aggregate is None:
            raise AggregateNotFoundError(f"Aggregate {aggregate_id!r} not found.")
        restored_at = stored_at if table is not None else 0
        report = ColdLoad(str(aggregate_id), restored_at, counted.count, ignored, time.perf_counter() - began)
        log.debug("table %s: cold load %s", aggregate_id, report)
        self._on_cold_load(report)
        if counted.count >= self._replay_limit and isinstance(aggregate, Table):
            self._on_long_replay(aggregate, stored_at if ignored else 0)
        return aggregate

    def apply_saved(self, aggregate_id: Any, events: Sequence[Any]) -> Table | None:
        """Apply events this process has just saved to the table's cached copy, under the library's
        fast-forward lock, instead of reading them back from the store; returns the table, or None
        when it is not cached (the next load reads it).  Events the copy already has (a reader
        fast-forwarded it meanwhile) are skipped; a copy further behind is fast-forwarded from the
        store first, as a load would.

        Raises:
            Exception: what the store raises when the copy must be fast-forwarded and cannot be.
        """
        cache = self.cache
        if cache is None:
            return None
        try:
            table = cache.get(aggregate_id)
        except KeyError:
            return None
        if not isinstance(table, Table) or not events:
            return None
        lock = self._use_fastforward_lock(aggregate_id)
        try:
            with lock:
                first = events[0].originator_version
                if table.version < first - 1:
                    missing: Any
                    for missing in self.event_store.get(aggregate_id, gt=table.version, lte=first - 1):
                        missing.mutate(table)
                for event in events:
                    if event.originator_version == table.version + 1:
                        if isinstance(event, Table.Recorded):
                            table.apply_own(event)  # chained here: its hash is not computed again
                        else:
                            event.mutate(table)
        finally:
            self._disuse_fastforward_lock(aggregate_id)
        return table

    def _restore(self, snapshots: EventStore[Any], aggregate_id: Any) -> tuple[Table | None, str | None, int]:
        """``(table, None, version)`` restored from the latest snapshot; ``(None, why, version)`` when
        that snapshot is unusable; ``(None, None, 0)`` when there is none."""
        try:
            stored = snapshots.recorder.select_events(aggregate_id, desc=True, limit=1)
        except Exception as exc:  # the store's trouble is the log's too: the replay will say
            log.warning("table %s: snapshots unreadable (%s); replaying the log", aggregate_id, exc)
            return None, f"snapshots unreadable: {type(exc).__name__}", 0
        if not stored:
            return None, None, 0
        record = stored[0]
        version = record.originator_version
        try:
            if record.topic != get_topic(TableSnapshot):
                raise SnapshotUnusable(f"stored snapshot of topic {record.topic[:80]!r}")
            snapshot = snapshots.mapper.to_domain_event(record)
            assert isinstance(snapshot, TableSnapshot)
            return snapshot.restore(self._prefix_loader(aggregate_id, version)), None, version
        except Exception as exc:  # a cache: whatever is wrong with it, the log is replayed
            why = str(exc) if isinstance(exc, SnapshotUnusable) else f"{type(exc).__name__}: {exc}"
            log.warning("table %s: snapshot v%d ignored (%s); replaying the log", aggregate_id, version, why)
            return None, why, version

    def _prefix_loader(self, aggregate_id: Any, version: int) -> Callable[[], list[Entry]]:
        store = self.event_store

        def load() -> list[Entry]:
            entries = entries_of(store.get(aggregate_id, lte=version))
            if len(entries) != version:
                raise CorruptLog(f"table {aggregate_id}: {len(entries)} stored events before version {version}")
            return entries

        return load


def delete_snapshot(store: EventStore[Any], table_id: Any, version: int) -> None:
    """Delete one stored snapshot (an unusable one, so that a good one may take its version).

    Raises:
        RuntimeError: the store is not one of ``eventsourcing_sqlalchemy``'s (the only one used).
        Exception: whatever the store raises when it cannot write.
    """
    recorder: Any = store.recorder
    record_cls = getattr(recorder, "events_record_cls", None)
    transaction = getattr(recorder, "transaction", None)
    if record_cls is None or transaction is None:
        raise RuntimeError(f"cannot delete a snapshot from a {type(recorder).__name__}")
    with transaction(commit=True) as session:
        session.query(record_cls).filter(
            record_cls.originator_id == table_id, record_cls.originator_version == version
        ).delete()
