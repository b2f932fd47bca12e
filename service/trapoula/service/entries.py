"""The stored events of a table, as the service reads them (:class:`Entry`, :class:`EntryLog`).

One table is one eventsourcing aggregate (:class:`~trapoula.service.recording.Table`).  Every fact
is one stored event: the table-level ``TableCreated`` and ``SeatTaken``, and each domain event of
the game.  A stored event carries

* ``originator_version``: the table's version, the record's ``seq`` (1, 2, ...);
* ``name`` and ``payload``: the fact, full and unredacted (``events.to_payload``), as it was
  written: an event of an older schema version is upcast when it is decoded, never rewritten;
* ``event_version``: the schema version of the payload (``Event.version`` of the domain event's
  class when it was written; 1 for table events and for every event stored before versions were
  kept, docs/events.md);
* ``prev_hash`` and ``hash``: the hash chain (:func:`trapoula.domain.chain.event_hash`, which
  covers the version when it is not 1);
* ``command_id`` and ``actor``: the client command that caused it and who acted (``seat:2``,
  ``bot:1``, ``owner``, ``table``).  Bot moves and automatic deals saved with a command (the
  first chunk of automatic play) carry that command's id; those saved later by the background
  automatic play carry none.

A command is known by its caller and its id: ``(actor, command_id)`` of its first event (the
caller is ``seat:N`` or ``owner``); the bot moves and deals saved right after it with the same id
belong to it.  So two callers may use the same id for two independent commands.

``TableCreated`` holds ``{game, seats, options, first_dealer, initial_totals, manual_deal}``;
the owner's token hash travels beside the payload, not in it.  ``SeatTaken`` holds ``{seat,
name, bot, token_hash}`` (and ``queued``, the version of the ``JoinQueued`` it fulfils, for a
newcomer who waited).  In a game whose players may join and leave during the match
(``GameSpec.seat_changes``), a newcomer's ``SeatTaken`` follows the game's ``seat_joined`` event;
one who asks during a hand first gets ``JoinQueued`` ``{name, bot, token_hash}``; the game's
events of role ``seat_vacated`` free their seat (its token then only replays the
seat's earlier commands).  Domain event classes are never stored by import path: the payload is
plain data and the game's ``event_types`` decode it, so moving a domain module breaks no log.

:func:`decode` turns a stored event into its domain event, :func:`check_link` checks its place in
the hash chain and :func:`entries_of` reads a table's stored events into entries, checked, without
folding them (the fold is :mod:`trapoula.service.tablestate`).  A table restored from a snapshot
(:mod:`trapoula.service.snapshots`) holds only the events after it; the earlier ones are read from
the store when first needed (:class:`EntryLog`).
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, overload

from trapoula.domain.chain import GENESIS, event_hash, record_line
from trapoula.domain.errors import InvalidInput
from trapoula.domain.events import Event, Payload, from_payload
from trapoula.domain.registry import find_game
from trapoula.domain.seeding import SEED_EVENTS
from trapoula.service.errors import CorruptLog

TABLE_CREATED = "TableCreated"
"""Name of the first stored event of every table."""
SEAT_TAKEN = "SeatTaken"
"""Name of the stored event of a person or a bot taking a seat."""
JOIN_QUEUED = "JoinQueued"
"""Name of the stored event of a newcomer waiting for the hand in progress to end (a game with
``GameSpec.seat_changes``)."""
TIMED_OUT = "TimedOut"
"""Name of the stored event of a seat whose time ran out (docs/clock.md C4)."""
TABLE_EVENTS = frozenset({TABLE_CREATED, SEAT_TAKEN, JOIN_QUEUED, TIMED_OUT, *SEED_EVENTS})
"""Stored events that are not the game's (the audit skips them in its rules replay): the table's,
and the players' seeds' (:mod:`trapoula.domain.seeding`)."""


@dataclass(frozen=True, slots=True)
class Entry:
    """One stored event of a table, as the service reads it."""

    seq: int
    """The table version of this event (1-based)."""
    name: str
    payload: Payload
    """Full, unredacted."""
    prev_hash: str
    hash: str
    command_id: str | None
    """The client command that caused it; None for table events without one (joins) and for
    automatic play saved in the background."""
    actor: str
    """``seat:N``, ``bot:N``, ``owner``, or ``table``."""
    event: Event | None
    """The decoded domain event, upcast to its class's current version; None for a table event."""
    version: int = 1
    """The schema version the payload was stored with (``Event.version`` when it was written)."""
    at: float = 0.0
    """When it was stored: seconds since the epoch (the stored event's timestamp; the turn clocks
    count from it, docs/clock.md C2)."""

    def record_line(self) -> dict[str, Any]:
        """The record's line for this event (docs/record.md, 2.2): the stored payload, with ``v``
        when the version is not 1."""
        return record_line(self.seq, self.name, self.payload, self.prev_hash, self.hash, self.version)


class _Entries(Sequence[Entry]):
    """A sequence of entries whose indexing is worked out once: a slice with a step is read as a
    list, a negative index counts from the end; :meth:`_span` gives a plain slice, :meth:`_at` one
    entry."""

    @overload
    def __getitem__(self, index: int) -> Entry: ...

    @overload
    def __getitem__(self, index: slice) -> Sequence[Entry]: ...

    def __getitem__(self, index: int | slice) -> Entry | Sequence[Entry]:
        if isinstance(index, slice):
            start, stop, step = index.indices(len(self))
            if step != 1:
                return list(self)[index]
            return self._span(start, max(start, stop))
        if index < 0:
            index += len(self)
        return self._at(index)

    def _span(self, start: int, stop: int) -> Sequence[Entry]:
        """Entries ``start`` to ``stop`` (0 <= start <= stop <= len)."""
        raise NotImplementedError

    def _at(self, index: int) -> Entry:
        """Entry ``index`` (made non-negative when it was counted from the end).

        Raises:
            IndexError: out of range.
        """
        raise NotImplementedError


class EntryLog(_Entries):
    """A table's stored events in version order (``log[i]`` is version ``i + 1``): append-only.

    A table restored from a snapshot at version ``base`` holds only the events after it; the first
    access to an earlier one calls ``load_prefix`` (which returns versions 1..``base``, checked)
    once, under a lock, and keeps its result.  A slice that reaches into an unloaded prefix is a
    lazy view, so ``log[:head]`` costs nothing until an early event is read.

    Raises (on access to the prefix):
        CorruptLog: ``load_prefix`` found the stored events broken.
    """

    def __init__(
        self, entries: Iterable[Entry] = (), base: int = 0, load_prefix: Callable[[], list[Entry]] | None = None
    ) -> None:
        """``entries``: versions ``base + 1`` on; ``load_prefix``: versions 1..``base`` (needed when
        ``base`` > 0)."""
        self._tail: list[Entry] = list(entries)
        self._base = base
        self._prefix: list[Entry] | None = [] if base == 0 else None
        self._load_prefix = load_prefix
        self._lock = threading.Lock()

    @property
    def base(self) -> int:
        """The version the log was restored at (0: it holds every event from the first)."""
        return self._base

    @property
    def prefix_loaded(self) -> bool:
        """True when the events up to :attr:`base` are in memory."""
        return self._prefix is not None

    def prefix(self) -> list[Entry]:
        """Versions 1..:attr:`base`, loaded on first use.

        Raises:
            CorruptLog: the stored events are broken (the error of ``load_prefix``).
        """
        prefix = self._prefix
        if prefix is None:
            with self._lock:
                prefix = self._prefix
                if prefix is None:
                    assert self._load_prefix is not None
                    prefix = self._load_prefix()
                    if len(prefix) != self._base:
                        raise CorruptLog(f"{len(prefix)} stored events before version {self._base}, not {self._base}")
                    self._prefix = prefix
                    self._load_prefix = None
        return prefix

    def append(self, entry: Entry) -> None:
        """Add the next event."""
        self._tail.append(entry)

    def __len__(self) -> int:
        return self._base + len(self._tail)

    def _span(self, start: int, stop: int) -> Sequence[Entry]:
        if start >= self._base:
            return self._tail[start - self._base : stop - self._base]
        if self._prefix is not None:
            return self._prefix[start : min(stop, self._base)] + self._tail[: max(0, stop - self._base)]
        return _LogView(self, start, stop)

    def _at(self, index: int) -> Entry:
        if index >= self._base:
            return self._tail[index - self._base]
        if index < 0:
            raise IndexError("EntryLog index out of range")
        return self.prefix()[index]

    def __iter__(self) -> Iterator[Entry]:
        if self._base:
            yield from self.prefix()
        yield from self._tail[:]


class _LogView(_Entries):
    """``log[start:stop]`` of an :class:`EntryLog` whose prefix is not loaded yet (read lazily)."""

    def __init__(self, log: EntryLog, start: int, stop: int) -> None:
        self._log, self._start, self._stop = log, start, stop

    def __len__(self) -> int:
        return self._stop - self._start

    def _span(self, start: int, stop: int) -> Sequence[Entry]:
        return self._log[self._start + start : self._start + stop]

    def _at(self, index: int) -> Entry:
        if not 0 <= index < len(self):
            raise IndexError("EntryLog index out of range")
        return self._log[self._start + index]

    def __iter__(self) -> Iterator[Entry]:
        self._log.prefix()
        return iter(self._log[self._start : self._stop])


def decode(game: str, name: str, payload: Mapping[str, Any], version: int = 1) -> Event | None:
    """The domain event of a stored event written at schema ``version`` (None for a table event),
    upcast to its class's current version (:func:`trapoula.domain.events.from_payload`).

    Raises:
        CorruptLog: the name is not one of the game's events, or the payload does not fit it (a
            version this code does not read, a failing upcaster, a missing field without default,
            an unknown field).
    """
    if name in TABLE_EVENTS:
        return None
    spec = find_game(game)
    cls = spec.event_types.get(name)
    if cls is None:
        raise CorruptLog(f"stored event {name!r} is not an event of game {game!r}")
    try:
        return from_payload(cls, payload, version)
    except (InvalidInput, TypeError) as exc:
        raise CorruptLog(f"stored event {name!r} does not decode: {exc}") from exc


def check_link(
    seq: int, name: str, payload: Mapping[str, Any], expected_prev: str, prev: str, h: str, version: int = 1
) -> None:
    """Check that stored event ``seq`` follows the event whose hash is ``expected_prev`` and that
    ``h`` is its hash (:func:`trapoula.domain.chain.event_hash`, over the stored payload and version).

    Raises:
        CorruptLog: the event breaks the hash chain.
    """
    if prev != expected_prev or h != event_hash(prev, seq, name, payload, version):
        raise CorruptLog(f"stored event {seq} ({name}) breaks the hash chain")


def entries_of(events: Iterable[Any]) -> list[Entry]:
    """The entries of a table's stored events from its first (``Table.Created``, ``Table.Recorded``
    as the event store returns them), decoded and checked as the aggregate does, without folding.

    Raises:
        CorruptLog: the events do not start at version 1, break the hash chain or do not decode.
    """
    entries: list[Entry] = []
    game = ""
    prev = GENESIS
    for event in events:
        seq = event.originator_version
        if seq != len(entries) + 1:
            raise CorruptLog(f"stored event {seq} follows version {len(entries)}")
        version = getattr(event, "event_version", 1)  # TableCreated has none: version 1
        check_link(seq, event.name, event.payload, prev, event.prev_hash, event.hash, version)
        if seq == 1:
            game = event.payload["game"]
        decoded = None if seq == 1 else decode(game, event.name, event.payload, version)
        entries.append(
            Entry(
                seq,
                event.name,
                event.payload,
                event.prev_hash,
                event.hash,
                event.command_id,
                event.actor,
                decoded,
                version,
                event.timestamp.timestamp(),
            )
        )
        prev = event.hash
    return entries
