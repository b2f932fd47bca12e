"""The state of a table folded from its stored events (:mod:`trapoula.service.entries`).

:class:`TableState` is the immutable fold of a table's stored events; :func:`apply_entry` is the
one fold step, used both by the aggregate (:class:`~trapoula.service.recording.Table`) and to
rebuild past states for watchers (:func:`~trapoula.service.recording.state_at`); :func:`fold`
folds a state afresh from the first event.  A game event's fields are read from its decoded
(upcast) event, never from the stored payload (docs/events.md).

Snapshots hold this fold: a change to the fields of :class:`TableState` or :class:`SeatRecord` or
to what :func:`apply_entry` makes of an event bumps
:data:`trapoula.service.snapshots.TABLE_STATE_VERSION`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from trapoula.domain import tableevents
from trapoula.domain.clock import SeatClocks, TimeControl
from trapoula.domain.events import Payload, Viewer
from trapoula.domain.game import GameSpec, MatchConfig, SeatInfo, acting_seats
from trapoula.domain.games.frozen import replace_fields
from trapoula.domain.lifecycle import Role
from trapoula.domain.registry import find_game
from trapoula.domain.seeding import NO_SEEDS, SEED_EVENTS, SERVER_SEED_REVEALED, SeedBook
from trapoula.service.entries import JOIN_QUEUED, SEAT_TAKEN, TIMED_OUT, Entry


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
    player_id: str | None = None
    """The verified player's id (the identity token's ``sub``, docs/identity.md); None for a bot and
    for a person seated without an identity (an anonymous server)."""


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
    """``(version, seats that may receive it)`` of every withheld event (``Event.withheld``),
    in version order."""
    seeds: SeedBook = NO_SEEDS
    """The players' seeds (:mod:`trapoula.domain.seeding`): the committed hand, the seats' seeds."""
    private: bool = False
    """A private table (``TableCreated.private``): not listed, joined only with its invitation code."""
    clock: SeatClocks | None = None
    """The seats' turn clocks of a table with a time control (``TableCreated.clock``, docs/clock.md),
    else None."""

    def position(self, viewer: Viewer, version: int | None = None) -> int:
        """The position ``viewer`` sees for the table's ``version`` (default: the head): the number
        of events up to it that ``viewer`` may receive.  Every viewer receives every event of every
        game with withheld events, where another seat's withheld events are skipped, so that neither the
        stream nor a version number tells that they happened."""
        upto = self.version if version is None else version
        if not self.withheld:  # no withheld event: positions are versions
            return upto
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
    private: bool = False,
    clock: TimeControl | None = None,
) -> Payload:
    """The payload of ``TableCreated`` (:func:`trapoula.domain.tableevents.created_payload`), with
    the time control ``clock`` as its plain data."""
    return tableevents.created_payload(
        game,
        seats,
        options,
        first_dealer,
        initial_totals,
        manual_deal,
        private,
        None if clock is None else clock.payload(),
    )


def start_state(table_id: str, entry: Entry, owner_token_hash: str) -> TableState:
    """The state after ``TableCreated`` (``entry``, version 1)."""
    p = entry.payload
    totals = p.get("initial_totals")
    control = p.get("clock")
    clock = None
    if isinstance(control, dict):
        clock = SeatClocks.start(
            TimeControl(int(control["move_seconds"]), int(control["bank_seconds"]), str(control["policy"])),
            int(p["seats"]),
        )
    return TableState(
        table_id=table_id,
        game=p["game"],
        seats=(None,) * int(p["seats"]),
        options=dict(p.get("options") or {}),
        first_dealer=p.get("first_dealer"),
        initial_totals=tuple(totals) if totals is not None else None,
        manual_deal=bool(p.get("manual_deal")),
        owner_token_hash=owner_token_hash,
        private=p.get("private") is True,
        clock=clock,
        version=entry.seq,
        last_hash=entry.hash,
        record_cut=entry.seq,
    )


def _extends_record(state: TableState, entry: Entry) -> bool:
    """True when ``entry`` directly follows the record's end after a finished hand."""
    return state.record_cut == entry.seq - 1 and state.hands_finished > 0


def apply_entry(state: TableState, entry: Entry) -> TableState:
    """Fold one stored event (after ``TableCreated``) into the table's state (trusted, unchecked);
    at a table with a clock, the seats' clocks too (:func:`tick`)."""
    after = _apply(state, entry)
    return after if after.clock is None else tick(after, entry)


def tick(state: TableState, entry: Entry) -> TableState:
    """``state`` (folded up to ``entry``) with its seats' clocks moved on to ``entry``'s time: the
    persons the match now waits for are due, and the seat whose move ``entry`` is (its actor
    ``seat:N`` or ``clock:N``) has its time counted (docs/clock.md C2, C3), unless the event is
    withheld from the other seats (``Event.withheld``): a clock that moved would tell
    them it happened."""
    clock = state.clock
    assert clock is not None
    persons = [i for i, s in enumerate(state.seats) if s is not None and s.bot is None]
    if state.game_state is None or state.over:
        acting: tuple[int, ...] = ()
    else:
        acting = acting_seats(state.spec, state.game_state, persons)
    actor = entry.actor
    moved = None
    withheld = entry.event is not None and entry.event.withheld
    if actor.startswith(("seat:", "clock:")) and not withheld:  # a withheld move must not show
        tail = actor.split(":", 1)[1]
        moved = int(tail) if tail.isdigit() else None
    timed_out = entry.payload.get("seat") if entry.name == TIMED_OUT else None
    ticked = clock.after(
        acting,
        entry.at,
        moved,
        own=actor.startswith("seat:"),
        timed_out=timed_out if isinstance(timed_out, int) else None,
    )
    return state if ticked is clock else _rep(state, clock=ticked)


def _rep(state: TableState, **changes: Any) -> TableState:
    """``state`` with ``changes`` (``dataclasses.replace`` without ``__init__``: a table's state
    is copied at every event, :func:`~trapoula.domain.games.frozen.replace_fields`)."""
    return replace_fields(state, changes)


def _apply(state: TableState, entry: Entry) -> TableState:
    if entry.name == SEAT_TAKEN:
        p = entry.payload
        seat = int(p["seat"])
        seats = list(state.seats) + [None] * (seat + 1 - len(state.seats))
        since = entry.seq if state.game_state is not None else 0
        seats[seat] = SeatRecord(p["name"], p.get("bot"), p.get("token_hash"), since, p.get("player_id"))
        cut = entry.seq if state.game_state is None or _extends_record(state, entry) else state.record_cut
        waiting = tuple(w for w in state.waiting if w[0] != p.get("queued"))
        return _rep(state, seats=tuple(seats), version=entry.seq, last_hash=entry.hash, record_cut=cut, waiting=waiting)
    if entry.name == JOIN_QUEUED:
        p = entry.payload
        who = SeatRecord(p["name"], p.get("bot"), p.get("token_hash"), 0, p.get("player_id"))
        return _rep(state, version=entry.seq, last_hash=entry.hash, waiting=(*state.waiting, (entry.seq, who)))
    if entry.name in SEED_EVENTS:  # the server's seed of the hand just ended belongs to its record
        revealed = entry.name == SERVER_SEED_REVEALED and _extends_record(state, entry)
        cut = entry.seq if revealed else state.record_cut
        seeds = state.seeds.apply(entry.name, entry.payload)
        return _rep(state, version=entry.seq, last_hash=entry.hash, record_cut=cut, seeds=seeds)
    if entry.event is None:
        return _rep(state, version=entry.seq, last_hash=entry.hash)
    event = entry.event  # the game's fields are read from the event, upcast, not from the stored payload
    role = event.role
    if role is Role.SEAT_VACATED and state.spec.seat_changes:
        seat = int(getattr(event, "seat", -1))
        if 0 <= seat < len(state.seats) and state.seats[seat] is not None:
            gone = state.seats[seat]
            assert gone is not None
            seats = list(state.seats)
            seats[seat] = None
            former = state.former
            if gone.token_hash is not None:
                former = (*former, (gone.token_hash, seat, entry.seq, gone.since))
            state = _rep(state, seats=tuple(seats), former=former)
    spec = state.spec
    game_state = state.game_state if state.game_state is not None else spec.initial_state(state.config())
    game_state = spec.evolve(game_state, event)
    hands_started = state.hands_started + (role is Role.HAND_STARTED)
    hands_finished = state.hands_finished + (role is Role.HAND_REVEALED)
    withheld = state.withheld
    if event.withheld:
        named = [getattr(event, f, None) for f in event.private_to]
        receivers = frozenset(int(seat) for seat in named if isinstance(seat, int))
        withheld = (*withheld, (entry.seq, receivers))
    cut, record_hands = state.record_cut, state.record_hands
    if role is Role.HAND_REVEALED or (entry.event.between_hands and _extends_record(state, entry)):
        cut, record_hands = entry.seq, hands_finished
    return _rep(
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


def fold(entries: Sequence[Entry], table_id: str, owner_token_hash: str, upto: int) -> TableState:
    """The table's state at version ``upto`` (1 <= upto <= len(entries)), folded afresh."""
    state = start_state(table_id, entries[0], owner_token_hash)
    for entry in entries[1:upto]:
        state = apply_entry(state, entry)
    return state
