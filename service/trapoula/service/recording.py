"""The stored events of a table and the state folded from them.

One table is one eventsourcing aggregate (:class:`Table`).  Every fact is one stored event: the
table-level ``TableCreated`` and ``SeatTaken``, and each domain event of the game.  A stored
event carries

* ``originator_version``: the table's version, the record's ``seq`` (1, 2, ...);
* ``name`` and ``payload``: the fact, full and unredacted (``events.to_payload``);
* ``prev_hash`` and ``hash``: the hash chain (:func:`trapoula.domain.chain.event_hash`);
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
(``GameSpec.seat_changes``), a newcomer's ``SeatTaken`` follows the game's ``PlayerJoined``;
one who asks during a hand first gets ``JoinQueued`` ``{name, bot, token_hash}``; the game's
``PlayerLeft`` and ``PlayerEliminated`` free their seat (its token then only replays the
seat's earlier commands).  Domain event classes are never stored by import path: the payload is
plain data and the game's ``event_types`` decode it, so moving a domain module breaks no log.

:class:`TableState` is the immutable fold of a table's stored events; :func:`apply_entry` is
the one fold step, used both by the aggregate and to rebuild past states for watchers.  A table
restored from a snapshot (:mod:`trapoula.service.snapshots`) starts at the snapshot's version; its
earlier events are read from the store when first needed (:class:`EntryLog`).
"""

from __future__ import annotations

import dataclasses
import threading
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any, overload
from uuid import UUID

from eventsourcing.domain import Aggregate

from trapoula.domain.chain import GENESIS, HAND_REVEALED, event_hash
from trapoula.domain.errors import InvalidInput
from trapoula.domain.events import Event, Payload, Viewer, from_payload
from trapoula.domain.game import GameSpec, MatchConfig, SeatInfo
from trapoula.domain.registry import find_game
from trapoula.service.errors import CorruptLog

TABLE_CREATED = "TableCreated"
"""Name of the first stored event of every table."""
SEAT_TAKEN = "SeatTaken"
"""Name of the stored event of a person or a bot taking a seat."""
JOIN_QUEUED = "JoinQueued"
"""Name of the stored event of a newcomer waiting for the hand in progress to end (``mau_mau`` R6.9)."""
TABLE_EVENTS = frozenset({TABLE_CREATED, SEAT_TAKEN, JOIN_QUEUED})
"""Stored events that are not the game's (the audit skips them in its rules replay)."""
HAND_STARTED = "HandStarted"
SEED_REVEALED = HAND_REVEALED
"""The events that end a hand (``SeedRevealed``; ``vida``'s ``ShuffleRevealed``)."""
MATCH_ENDED = "MatchEnded"
SEAT_FREEING = frozenset({"PlayerLeft", "PlayerEliminated"})
"""Game events after which their ``seat`` is vacant, its token no longer acting, in a game whose
players join and leave during the match (``GameSpec.seat_changes``, ``mau_mau`` R6.6, R6.10);
``romis``'s ``PlayerEliminated`` (R7.1) only takes a player out of one hand."""
BETWEEN_HANDS = frozenset({"PlayerEliminated", "PlayerJoined", "PlayerLeft", "GameWon", "MatchEnded"})
"""Game events that follow a finished hand (or each other) outside any hand: the record takes them
as they come, so it never ends in the middle of a command (``mau_mau`` R6.6-R6.10; ``vida``'s
``GameWon``, R6.9)."""
CHECKPOINT_EVERY = 64
"""A table keeps its folded state every this many versions, to rebuild past views quickly."""
RECENT_STATES = 64
"""A table in memory keeps its folded states at this many latest versions (besides the checkpoints), so
a watcher woken by a save renders the new events without folding again (``--recent-states``)."""


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
    """The decoded domain event; None for a table event."""

    def record_line(self) -> dict[str, Any]:
        """The record's line for this event (brief: the record format)."""
        return {
            "seq": self.seq,
            "name": self.name,
            "payload": self.payload,
            "prev_hash": self.prev_hash,
            "hash": self.hash,
        }


class EntryLog(Sequence[Entry]):
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

    @overload
    def __getitem__(self, index: int) -> Entry: ...

    @overload
    def __getitem__(self, index: slice) -> Sequence[Entry]: ...

    def __getitem__(self, index: int | slice) -> Entry | Sequence[Entry]:
        if isinstance(index, slice):
            start, stop, step = index.indices(len(self))
            if step != 1:
                return list(self)[index]
            stop = max(start, stop)
            if start >= self._base:
                return self._tail[start - self._base : stop - self._base]
            if self._prefix is not None:
                return self._prefix[start : min(stop, self._base)] + self._tail[: max(0, stop - self._base)]
            return _LogView(self, start, stop)
        if index < 0:
            index += len(self)
        if index >= self._base:
            return self._tail[index - self._base]
        if index < 0:
            raise IndexError("EntryLog index out of range")
        return self.prefix()[index]

    def __iter__(self) -> Iterator[Entry]:
        if self._base:
            yield from self.prefix()
        yield from self._tail[:]


class _LogView(Sequence[Entry]):
    """``log[start:stop]`` of an :class:`EntryLog` whose prefix is not loaded yet (read lazily)."""

    def __init__(self, log: EntryLog, start: int, stop: int) -> None:
        self._log, self._start, self._stop = log, start, stop

    def __len__(self) -> int:
        return self._stop - self._start

    @overload
    def __getitem__(self, index: int) -> Entry: ...

    @overload
    def __getitem__(self, index: slice) -> Sequence[Entry]: ...

    def __getitem__(self, index: int | slice) -> Entry | Sequence[Entry]:
        if isinstance(index, slice):
            start, stop, step = index.indices(len(self))
            if step != 1:
                return list(self)[index]
            return self._log[self._start + start : self._start + max(start, stop)]
        if index < 0:
            index += len(self)
        if not 0 <= index < len(self):
            raise IndexError("EntryLog index out of range")
        return self._log[self._start + index]

    def __iter__(self) -> Iterator[Entry]:
        self._log.prefix()
        return iter(self._log[self._start : self._stop])


@dataclass(frozen=True, slots=True)
class SeatRecord:
    """Who sits in a seat."""

    name: str
    bot: str | None
    """Bot level, None for a person."""
    token_hash: str | None
    """SHA-256 (hex) of the seat token; None for a bot."""
    since: int = 0
    """The version of the ``SeatTaken`` of a player seated after the match started, else 0: the
    occupancy that command ids belong to, so a newcomer's ids never repeat a former occupant's."""


@dataclass(frozen=True, slots=True)
class TableState:
    """A table folded from its stored events up to ``version`` (immutable)."""

    table_id: str
    game: str
    seats: tuple[SeatRecord | None, ...]
    """One entry per seat; None while free."""
    options: Mapping[str, Any]
    """The options as given at creation (the game fills in defaults)."""
    first_dealer: int | None
    initial_totals: tuple[int, ...] | None
    manual_deal: bool
    owner_token_hash: str
    version: int
    last_hash: str
    """Hash of the event at ``version``."""
    game_state: Any = None
    """The game's state once the match has started (its first game event), else None."""
    hands_started: int = 0
    hands_finished: int = 0
    record_cut: int = 0
    """Version of the last event a record may hold: the end of the last finished hand."""
    record_hands: int = 0
    """Finished hands up to ``record_cut``."""
    waiting: tuple[tuple[int, SeatRecord], ...] = ()
    """Newcomers queued until the hand in progress ends: ``(version of JoinQueued, who)``."""
    former: tuple[tuple[str, int, int, int], ...] = ()
    """``(token hash, seat, version it was freed at, SeatRecord.since)`` of the seats people left or lost."""
    withheld: tuple[tuple[int, frozenset[int]], ...] = ()
    """``(version, seats that may receive it)`` of every withheld event (``Event.withheld``: ``romis``'s
    ``AuxiliaryUsed``, R5.4), in version order."""

    def position(self, viewer: Viewer, version: int | None = None) -> int:
        """The position ``viewer`` sees for the table's ``version`` (default: the head): the number
        of events up to it that ``viewer`` may receive.  Every viewer receives every event of every
        game but ``romis``, where another seat's withheld events are skipped, so that neither the
        stream nor a version number tells that they happened (rules/romis.md R5.4, section 9)."""
        upto = self.version if version is None else version
        return upto - sum(1 for seq, seats in self.withheld if seq <= upto and viewer not in seats)

    def version_at(self, viewer: Viewer, position: int) -> int:
        """The last version whose :meth:`position` for ``viewer`` is ``position`` (0 <= position <=
        ``position(viewer)``): a watch from ``position`` resumes after it."""
        version = position
        for seq, seats in self.withheld:
            if viewer in seats:
                continue
            if seq > version + 1:
                break
            version += 1
        return version

    @property
    def spec(self) -> GameSpec[Any, Any]:
        """The table's game."""
        return find_game(self.game)

    @property
    def started(self) -> bool:
        """True once the match has started."""
        return self.game_state is not None

    @property
    def free_seats(self) -> tuple[int, ...]:
        """The seats nobody has taken."""
        return tuple(i for i, s in enumerate(self.seats) if s is None)

    @property
    def over(self) -> bool:
        """True when the match is over."""
        return self.game_state is not None and bool(self.spec.is_terminal(self.game_state))

    @property
    def status(self) -> str:
        """``open`` (seats free), ``ready``, ``playing`` or ``over``."""
        if self.game_state is None:
            return "open" if self.free_seats else "ready"
        return "over" if self.over else "playing"

    def config(self) -> MatchConfig:
        """The match configuration (free seats get an empty name)."""
        return MatchConfig(
            game=self.game,
            seats=tuple(SeatInfo(i, s.name if s else "", s.bot if s else None) for i, s in enumerate(self.seats)),
            options=dict(self.options),
            first_dealer=self.first_dealer,
            initial_totals=self.initial_totals,
        )

    def bot_seats(self) -> tuple[tuple[int, str], ...]:
        """``(seat, level)`` of every bot."""
        return tuple((i, s.bot) for i, s in enumerate(self.seats) if s is not None and s.bot is not None)


def created_payload(
    game: str,
    seats: int,
    options: Mapping[str, Any],
    first_dealer: int | None,
    initial_totals: tuple[int, ...] | None,
    manual_deal: bool,
) -> Payload:
    """The payload of ``TableCreated``."""
    return {
        "game": game,
        "seats": seats,
        "options": dict(options),
        "first_dealer": first_dealer,
        "initial_totals": list(initial_totals) if initial_totals is not None else None,
        "manual_deal": manual_deal,
    }


def start_state(table_id: str, entry: Entry, owner_token_hash: str) -> TableState:
    """The state after ``TableCreated`` (``entry``, version 1)."""
    p = entry.payload
    totals = p.get("initial_totals")
    return TableState(
        table_id=table_id,
        game=p["game"],
        seats=(None,) * int(p["seats"]),
        options=dict(p.get("options") or {}),
        first_dealer=p.get("first_dealer"),
        initial_totals=tuple(totals) if totals is not None else None,
        manual_deal=bool(p.get("manual_deal")),
        owner_token_hash=owner_token_hash,
        version=entry.seq,
        last_hash=entry.hash,
        record_cut=entry.seq,
    )


def decode(game: str, name: str, payload: Mapping[str, Any]) -> Event | None:
    """The domain event of a stored event (None for a table event).

    Raises:
        CorruptLog: the name is not one of the game's events, or the payload does not fit it.
    """
    if name in TABLE_EVENTS:
        return None
    spec = find_game(game)
    cls = spec.event_types.get(name)
    if cls is None:
        raise CorruptLog(f"stored event {name!r} is not an event of game {game!r}")
    try:
        return from_payload(cls, payload)
    except (InvalidInput, TypeError) as exc:
        raise CorruptLog(f"stored event {name!r} does not decode: {exc}") from exc


def _extends_record(state: TableState, entry: Entry) -> bool:
    """True when ``entry`` directly follows the record's end after a finished hand."""
    return state.record_cut == entry.seq - 1 and state.hands_finished > 0


def apply_entry(state: TableState, entry: Entry) -> TableState:
    """Fold one stored event (after ``TableCreated``) into the table's state (trusted, unchecked)."""
    rep = dataclasses.replace
    if entry.name == SEAT_TAKEN:
        p = entry.payload
        seat = int(p["seat"])
        seats = list(state.seats) + [None] * (seat + 1 - len(state.seats))
        since = entry.seq if state.game_state is not None else 0
        seats[seat] = SeatRecord(name=p["name"], bot=p.get("bot"), token_hash=p.get("token_hash"), since=since)
        cut = entry.seq if state.game_state is None or _extends_record(state, entry) else state.record_cut
        waiting = tuple(w for w in state.waiting if w[0] != p.get("queued"))
        return rep(state, seats=tuple(seats), version=entry.seq, last_hash=entry.hash, record_cut=cut, waiting=waiting)
    if entry.name == JOIN_QUEUED:
        p = entry.payload
        who = SeatRecord(name=p["name"], bot=p.get("bot"), token_hash=p.get("token_hash"))
        return rep(state, version=entry.seq, last_hash=entry.hash, waiting=(*state.waiting, (entry.seq, who)))
    if entry.event is None:
        return rep(state, version=entry.seq, last_hash=entry.hash)
    if entry.name in SEAT_FREEING and state.spec.seat_changes:
        seat = int(entry.payload["seat"])
        if 0 <= seat < len(state.seats) and state.seats[seat] is not None:
            gone = state.seats[seat]
            assert gone is not None
            seats = list(state.seats)
            seats[seat] = None
            former = state.former
            if gone.token_hash is not None:
                former = (*former, (gone.token_hash, seat, entry.seq, gone.since))
            state = rep(state, seats=tuple(seats), former=former)
    spec = state.spec
    game_state = state.game_state if state.game_state is not None else spec.initial_state(state.config())
    game_state = spec.evolve(game_state, entry.event)
    hands_started = state.hands_started + (entry.name == HAND_STARTED)
    hands_finished = state.hands_finished + (entry.name in SEED_REVEALED)
    withheld = state.withheld
    if entry.event.withheld:
        named = entry.event.private_to
        receivers = frozenset(int(entry.payload[f]) for f in named if isinstance(entry.payload.get(f), int))
        withheld = (*withheld, (entry.seq, receivers))
    cut, record_hands = state.record_cut, state.record_hands
    if entry.name in SEED_REVEALED or (entry.name in BETWEEN_HANDS and _extends_record(state, entry)):
        cut, record_hands = entry.seq, hands_finished
    return rep(
        state,
        version=entry.seq,
        last_hash=entry.hash,
        game_state=game_state,
        hands_started=hands_started,
        hands_finished=hands_finished,
        record_cut=cut,
        record_hands=record_hands,
        withheld=withheld,
    )


class Table(Aggregate):
    """One table: an eventsourcing aggregate whose stored events are :class:`Entry` facts.

    ``state`` is replaced (never mutated) as events are applied and ``entries`` only grows, so a
    reader that takes ``state`` once may read ``entries[: state.version]`` while the aggregate is
    being fast-forwarded by another thread.
    """

    class Created(Aggregate.Created):
        """``TableCreated``: the first stored event of a table."""

        name: str
        payload: dict[str, Any]
        prev_hash: str
        hash: str
        command_id: str | None
        actor: str
        owner_token_hash: str

    class Recorded(Aggregate.Event):
        """Any later fact: ``SeatTaken`` or one domain event of the game."""

        name: str
        payload: dict[str, Any]
        prev_hash: str
        hash: str
        command_id: str | None
        actor: str

        def apply(self, aggregate: Any) -> None:
            """Append the fact to the table (checks the hash chain)."""
            assert isinstance(aggregate, Table)
            aggregate.append_fact(
                self.originator_version,
                self.name,
                self.payload,
                self.prev_hash,
                self.hash,
                self.command_id,
                self.actor,
            )

    def __init__(
        self,
        name: str,
        payload: dict[str, Any],
        prev_hash: str,
        hash: str,
        command_id: str | None,
        actor: str,
        owner_token_hash: str,
    ) -> None:
        """Build the table from its ``TableCreated`` event (called by the library)."""
        _check_link(1, name, payload, GENESIS, prev_hash, hash)
        entry = Entry(1, name, payload, prev_hash, hash, command_id, actor, None)
        self.entries: EntryLog = EntryLog([entry])
        """Every stored event, in order (append-only)."""
        self.commands: dict[tuple[str, str], tuple[int, int]] = {}
        """``(caller, command_id)`` -> (first version, last version) of the events it caused
        (:func:`caller`)."""
        self.last_command: tuple[str, str] | None = None
        """The key of the last command applied (its automatic events follow it)."""
        if command_id:
            self.commands[(actor, command_id)] = (1, 1)
            self.last_command = (actor, command_id)
        self.state: TableState = start_state(str(self.id), entry, owner_token_hash)
        """The folded state at the table's current version."""
        self.checkpoints: dict[int, TableState] = {1: self.state}
        """Folded states at versions 1 and every multiple of :data:`CHECKPOINT_EVERY`."""
        self.recent: dict[int, TableState] = {1: self.state}
        """Folded states at the latest :attr:`recent_states` versions (oldest first)."""
        self.renders: dict[int, dict[Any, Any]] = {}
        """Renderings of recent events shared by the watchers that see them alike, by version
        (:mod:`trapoula.service.views`); bounded like :attr:`recent`."""

    recent_states = RECENT_STATES
    """How many latest folded states a table keeps (:data:`RECENT_STATES`; the server's
    ``--recent-states`` sets it for the process)."""

    @classmethod
    def restore(
        cls,
        table_id: UUID,
        state: TableState,
        commands: dict[tuple[str, str], tuple[int, int]],
        last_command: tuple[str, str] | None,
        created_on: datetime,
        load_prefix: Callable[[], list[Entry]],
    ) -> Table:
        """The table at ``state.version`` as a snapshot holds it (:mod:`trapoula.service.snapshots`):
        its events up to that version are read by ``load_prefix`` when first needed (:class:`EntryLog`);
        later events are applied as usual.  The modification time is that of the snapshot's last
        event (:meth:`set_modified_on`)."""
        table = object.__new__(cls)
        vars(table).update(
            {
                "_id": table_id,
                "_version": state.version,
                "_created_on": created_on,
                "_modified_on": created_on,
                "_pending_events": [],
                "entries": EntryLog((), state.version, load_prefix),
                "commands": commands,
                "last_command": last_command,
                "state": state,
                "checkpoints": {state.version: state},
                "recent": {state.version: state},
                "renders": {},
            }
        )
        return table

    def set_modified_on(self, when: datetime) -> None:
        """Set the time of the last event applied (for a table restored from a snapshot)."""
        self._modified_on = when

    def append_fact(
        self,
        seq: int,
        name: str,
        payload: dict[str, Any],
        prev_hash: str,
        hash: str,
        command_id: str | None,
        actor: str,
    ) -> None:
        """Apply one stored event after the first.

        Raises:
            CorruptLog: the event breaks the hash chain or cannot be decoded.
        """
        state = self.state
        _check_link(seq, name, payload, state.last_hash, prev_hash, hash)
        entry = Entry(seq, name, payload, prev_hash, hash, command_id, actor, decode(state.game, name, payload))
        new_state = apply_entry(state, entry)
        self.entries.append(entry)
        if seq % CHECKPOINT_EVERY == 0:
            self.checkpoints[seq] = new_state
        recent = self.recent
        recent[seq] = new_state
        if len(recent) > self.recent_states:
            forget_oldest(recent, self.recent_states)
        if command_id:
            self._note_command(seq, command_id, caller(actor, state))
        self.state = new_state

    def _note_command(self, seq: int, command_id: str, actor: str) -> None:
        if actor == "owner" or actor.startswith("seat:"):
            key = (actor, command_id)
        elif self.last_command is not None and self.last_command[1] == command_id:
            key = self.last_command  # a bot move or deal saved with the command that set it off
        else:
            return
        first = self.commands.get(key, (seq, seq))[0]
        self.commands[key] = (first, seq)
        self.last_command = key


def forget_oldest(memo: dict[int, Any], keep: int) -> None:
    """Drop the oldest keys of ``memo`` (a dict filled in increasing key order) until at most
    ``keep`` remain; safe while other threads read or add (a race only leaves one more)."""
    while len(memo) > keep:
        try:
            del memo[next(iter(memo))]
        except (KeyError, RuntimeError, StopIteration):  # another thread changed it meanwhile
            return


def caller(actor: str, state: TableState) -> str:
    """Who a command id belongs to: the actor, and for a seat taken after the start its occupancy
    (``seat:1#57``), so that two players who sat in one seat never share command ids."""
    if actor.startswith("seat:"):
        seat = int(actor[5:])
        record = state.seats[seat] if 0 <= seat < len(state.seats) else None
        if record is not None and record.since:
            return f"{actor}#{record.since}"
    return actor


def _check_link(seq: int, name: str, payload: Mapping[str, Any], expected_prev: str, prev: str, h: str) -> None:
    if prev != expected_prev or h != event_hash(prev, seq, name, payload):
        raise CorruptLog(f"stored event {seq} ({name}) breaks the hash chain")


def fold(entries: Sequence[Entry], table_id: str, owner_token_hash: str, upto: int) -> TableState:
    """The table's state at version ``upto`` (1 <= upto <= len(entries)), folded afresh."""
    state = start_state(table_id, entries[0], owner_token_hash)
    for entry in entries[1:upto]:
        state = apply_entry(state, entry)
    return state


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
        _check_link(seq, event.name, event.payload, prev, event.prev_hash, event.hash)
        if seq == 1:
            game = event.payload["game"]
        decoded = None if seq == 1 else decode(game, event.name, event.payload)
        entries.append(
            Entry(seq, event.name, event.payload, event.prev_hash, event.hash, event.command_id, event.actor, decoded)
        )
        prev = event.hash
    return entries


def state_at(table: Table, version: int) -> TableState:
    """The table's state at ``version`` (1 <= version), folded from the nearest earlier checkpoint
    (kept: the versions every :data:`CHECKPOINT_EVERY` it passes are recorded for later calls).

    Raises:
        CorruptLog: the table was restored from a snapshot and its earlier stored events are broken.
    """
    current = table.state
    if version >= current.version:
        return current
    kept = table.recent.get(version)
    if kept is not None:
        return kept
    checkpoints = table.checkpoints
    base = version - version % CHECKPOINT_EVERY
    while base > 1 and base not in checkpoints:  # a table restored from a snapshot lacks the early ones
        base -= CHECKPOINT_EVERY
    restored = table.entries.base  # the snapshot's version, a checkpoint of its own
    base = restored if base < restored <= version else max(base, 1)
    state = checkpoints.get(base)
    if state is None:
        state = start_state(current.table_id, table.entries[0], current.owner_token_hash)
        checkpoints[1] = state
    for entry in table.entries[base:version]:
        state = apply_entry(state, entry)
        if entry.seq % CHECKPOINT_EVERY == 0:
            checkpoints.setdefault(entry.seq, state)
    return state
