"""The table aggregate: a table's stored events (:mod:`trapoula.service.entries`) and the state
folded from them (:mod:`trapoula.service.tablestate`), as one eventsourcing aggregate.

One table is one eventsourcing aggregate (:class:`Table`): its ``TableCreated`` builds it; each
later fact is checked against the hash chain, kept in the table's log of entries and folded into
its :class:`~trapoula.service.tablestate.TableState`.  The aggregate keeps folded states every
:data:`CHECKPOINT_EVERY` versions and at its latest ones, from which :func:`state_at` rebuilds
past states for watchers, and the index of the client commands that caused its events
(:func:`caller`).  A table restored from a snapshot (:mod:`trapoula.service.snapshots`) starts at
the snapshot's version; its earlier events are read from the store when first needed
(:class:`~trapoula.service.entries.EntryLog`).

The aggregate's module and class name are part of the topic of every stored event
(``trapoula.service.recording:Table.Recorded``): :class:`Table` stays in this module.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable
from datetime import datetime
from typing import Any
from uuid import UUID

from eventsourcing.domain import Aggregate, OriginatorIDError, OriginatorVersionError

from trapoula.domain.chain import GENESIS
from trapoula.service.entries import Entry, EntryLog, check_link, decode
from trapoula.service.errors import CorruptLog
from trapoula.service.tablestate import TableState, apply_entry, start_state

CHECKPOINT_EVERY = 64
"""A table keeps its folded state every this many versions, to rebuild past views quickly."""
RECENT_STATES = 32
"""A table in memory keeps its folded states at this many latest versions (besides the checkpoints), so
a watcher woken by a save renders the new events without folding again (``--recent-states``)."""


class Table(Aggregate):
    """One table: an eventsourcing aggregate whose stored events are :class:`~trapoula.service.entries.Entry` facts.

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
        """Any later fact: ``SeatTaken`` or one domain event of the game.

        ``event_version`` is the schema version the payload was written with (the domain event
        class's ``Event.version``; 1 for the table's own events).  It came with the library's class
        version 2 of this event: a stored ``Recorded`` of class version 1 (written before) has
        none and is read as version 1 (:meth:`upcast_v1_v2`).
        """

        class_version = 2

        name: str
        payload: dict[str, Any]
        prev_hash: str
        hash: str
        command_id: str | None
        actor: str
        event_version: int

        @staticmethod
        def upcast_v1_v2(state: dict[str, Any]) -> None:
            """A fact stored before payloads carried their schema version is at version 1."""
            state["event_version"] = 1

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
                self.event_version,
                at=self.timestamp.timestamp(),
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
        check_link(1, name, payload, GENESIS, prev_hash, hash)
        at = self.created_on.timestamp()  # the library set it (``__base_init__``) before this runs
        entry = Entry(1, name, payload, prev_hash, hash, command_id, actor, None, 1, at)
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
        self.recent: OrderedDict[int, TableState] = OrderedDict({1: self.state})
        """Folded states at the latest :attr:`recent_states` versions (oldest first)."""
        self.renders: OrderedDict[int, dict[Any, Any]] = OrderedDict()
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
        its events up to that version are read by ``load_prefix`` when first needed
        (:class:`~trapoula.service.entries.EntryLog`); later events are applied as usual.  The
        modification time is that of the snapshot's last event (:meth:`set_modified_on`)."""
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
                "recent": OrderedDict({state.version: state}),
                "renders": OrderedDict(),
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
        version: int = 1,
        hashed_here: bool = False,
        at: float = 0.0,
    ) -> None:
        """Apply one stored event after the first (``version``: the schema version of its payload;
        ``at``: when it was stored, seconds since the epoch).
        ``hashed_here``: this process computed ``hash`` from this payload (a fact it saved itself,
        :meth:`apply_own`), so only its link to the table's last hash is checked.

        Raises:
            CorruptLog: the event breaks the hash chain or cannot be decoded.
        """
        state = self.state
        if hashed_here:
            if prev_hash != state.last_hash:
                raise CorruptLog(f"stored event {seq} ({name}) breaks the hash chain")
        else:
            check_link(seq, name, payload, state.last_hash, prev_hash, hash, version)
        event = decode(state.game, name, payload, version)
        entry = Entry(seq, name, payload, prev_hash, hash, command_id, actor, event, version, at)
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

    def apply_own(self, event: Table.Recorded) -> None:
        """Apply a fact this process chained and saved itself (``drafts.chain``: its hash computed
        here from its payload) as ``event.mutate(self)`` does, without computing that hash again.

        Raises:
            OriginatorIDError, OriginatorVersionError: the event is not this table's next one (the
                library's errors, as ``mutate`` raises them).
            CorruptLog: the event does not follow the table's last hash, or cannot be decoded.
        """
        if event.originator_id != self.id:
            raise OriginatorIDError(event.originator_id, self.id)
        if event.originator_version != self.version + 1:
            raise OriginatorVersionError(event.originator_version, self.version + 1)
        self.append_fact(
            event.originator_version,
            event.name,
            event.payload,
            event.prev_hash,
            event.hash,
            event.command_id,
            event.actor,
            event.event_version,
            hashed_here=True,
            at=event.timestamp.timestamp(),
        )
        self.version = event.originator_version
        self.modified_on = event.timestamp

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


def forget_oldest(memo: OrderedDict[Any, Any], keep: int) -> None:
    """Drop the oldest entries of ``memo`` until at most ``keep`` remain (each in constant time);
    safe while other threads read or add (a race only leaves one more)."""
    while len(memo) > keep:
        try:
            memo.popitem(last=False)
        except KeyError:  # emptied by another thread meanwhile
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
