"""Step through a record move by move, folded locally with the domain (DESIGN, Layers).

Position 0 is the match before its first game event; position ``p`` (1..N) is the state after
the record's ``p``-th game event (table events such as ``SeatTaken`` are not positions).  At any
position you may ask for one seat's view, a spectator's view, or the omniscient view (every hand
shown), and for the event that led there as any viewer saw it:

>>> r = Replay.from_file("trapoula-t1.jsonl")             # doctest: +SKIP
>>> r.length, r.step(1).name
(812, 'MatchStarted')
>>> r.view(40, viewer=0)["hand"]                            # doctest: +SKIP

Replaying is a fold of ``evolve`` over the events; nothing else (DESIGN, Layers).  It trusts the
record: check it first with :mod:`trapoula.clients.audit`.  A tampered record may hold an event
that cannot be applied at all (a card played that is not in the seat's hand): the replay stops
there and says where and why, in the words of the audit (:class:`Stop`); with ``partial=True``
the positions before it can still be stepped through.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from trapoula.clients.audit import collector_paused, parse_record
from trapoula.domain.audit import TABLE_EVENTS, audit_record
from trapoula.domain.chain import RECORD_FORMAT
from trapoula.domain.errors import InvalidInput
from trapoula.domain.events import Event, Viewer, decoder, from_payload, redact, to_payload, visible
from trapoula.domain.game import GameSpec, MatchConfig, SeatInfo, acting_seats
from trapoula.domain.lifecycle import Role, SeatJoined
from trapoula.domain.registry import find_game

__all__ = ["OMNISCIENT", "Replay", "Step", "Stop"]

OMNISCIENT = "all"
"""The viewer that sees everything (every hand, every hidden field)."""


@dataclass(frozen=True, slots=True)
class Step:
    """The event that leads to a position."""

    position: int
    """1..N."""
    seq: int
    """The event's position in the table log."""
    name: str
    event: Event


@dataclass(frozen=True, slots=True)
class Stop:
    """Where a replay cannot go on: the event that cannot be applied, and why."""

    seq: int
    """The event's position in the table log."""
    name: str
    """The event name."""
    reason: str
    """Why, as the audit words it (the refused command and its rule, the differing field ...)."""
    position: int
    """The last position the replay reached (the state before the event)."""

    def __str__(self) -> str:
        return f"the record cannot be replayed past seq {self.seq} ({self.name}): {self.reason}"


def _seq(line: Mapping[str, Any]) -> int:
    seq = line.get("seq")
    return seq if isinstance(seq, int) and not isinstance(seq, bool) else 0


def _decode(spec: GameSpec[Any, Any], line: Mapping[str, Any]) -> Event:
    """The game event of a record line, read at the version the line gives (``v``, 1 when absent)
    and upcast to its class's current shape.

    Raises:
        InvalidInput: not an event of the game, or a payload that does not decode.
    """
    name = str(line.get("name"))
    cls = spec.event_types.get(name)
    if cls is None:
        raise InvalidInput(f"unknown event {name!r}", "bad_event")
    payload = line.get("payload")
    return from_payload(cls, payload if isinstance(payload, Mapping) else {}, line.get("v", 1))


def _match_config(spec: GameSpec[Any, Any], lines: Sequence[Mapping[str, Any]]) -> MatchConfig:
    for line in lines:
        if line.get("name") == "MatchStarted":
            try:
                p = to_payload(_decode(spec, line))
            except InvalidInput as exc:  # reported as a MatchStarted that lacks or garbles its fields
                raise ValueError(exc.message) from None
            names, bots = list(p["names"]), list(p["bots"])
            return MatchConfig(
                game=spec.key,
                seats=tuple(SeatInfo(i, str(names[i]), bots[i]) for i in range(len(names))),
                options=dict(p["options"]),
                first_dealer=p["first_dealer"],
                initial_totals=tuple(p["initial_totals"]),
            )
    created = next((line["payload"] for line in lines if line.get("name") == "TableCreated"), None)
    if created is None:
        raise InvalidInput("record has neither MatchStarted nor TableCreated: no match to replay", "bad_record")
    seats: dict[int, SeatInfo] = {}
    for line in lines:
        if line.get("name") == "SeatTaken":
            p = line["payload"]
            seats[int(p["seat"])] = SeatInfo(int(p["seat"]), str(p["name"]), p.get("bot"))
    n = int(created["seats"])
    totals = created.get("initial_totals") or None
    return MatchConfig(
        game=spec.key,
        seats=tuple(seats.get(i, SeatInfo(i, f"seat {i}")) for i in range(n)),
        options=dict(created.get("options") or {}),
        first_dealer=created.get("first_dealer"),
        initial_totals=tuple(totals) if totals else None,
    )


def _config(spec: GameSpec[Any, Any], lines: Sequence[Mapping[str, Any]]) -> tuple[MatchConfig, Any]:
    """The match configuration and the initial state.

    Raises:
        InvalidInput: ``MatchStarted`` (or the table events) do not describe a match (``bad_record``).
    """
    try:
        config = _match_config(spec, lines)
        return config, spec.initial_state(config)
    except InvalidInput as exc:
        if exc.reason == "bad_record":
            raise
        raise InvalidInput(f"the record does not describe a valid match: {exc.message}", "bad_record") from None
    except (KeyError, IndexError, TypeError, ValueError, AttributeError):
        raise InvalidInput(
            "the record does not describe a valid match: its MatchStarted (or TableCreated and SeatTaken) "
            "lacks or garbles names, bots, options, first_dealer or initial_totals",
            "bad_record",
        ) from None


def _why(lines: Sequence[Mapping[str, Any]], seq: int) -> str:
    """Why the event at ``seq`` cannot be applied, in the audit's words (rule numbers included)."""
    problems = [p for p in audit_record(lines).problems if p.kind != "chain" and p.seq <= seq]
    at = next((p for p in problems if p.seq == seq), None)
    if at is not None:
        return f"{at.message} (rule {at.rule})"
    if problems:
        last = problems[-1]
        return (
            f"it does not fit the match after the discrepancy at seq {last.seq} ({last.name}): "
            f"{last.message} (rule {last.rule})"
        )
    return "it does not fit the match as replayed so far; `trapoula verify` lists the record's discrepancies"


class Replay:
    """A record folded into its sequence of states (positions ``0..length``).

    Args:
        lines: the record's parsed lines (header first), e.g. from
            :func:`trapoula.clients.audit.parse_record`.
        partial: when an event cannot be applied (an unknown event, a payload that does not
            decode, an event that does not fit the state), stop there, keep the positions before
            it and say where and why in :attr:`stopped`, instead of raising.

    Raises:
        InvalidInput: no header, an unknown game, no valid match configuration; and, unless
            ``partial``, an event that cannot be applied (``bad_record``; the message names its
            seq, its name and why).
    """

    def __init__(self, lines: Sequence[Mapping[str, Any]], *, partial: bool = False) -> None:
        if not lines or lines[0].get("format") != RECORD_FORMAT:
            raise InvalidInput("not a trapoula record: the first line is not its header", "bad_record")
        header = lines[0]
        self.table_id: str = str(header.get("table_id"))
        self.spec: GameSpec[Any, Any] = find_game(str(header.get("game")))
        body = lines[1:]
        self.config, state = _config(self.spec, body)
        self._steps: list[tuple[int, str, Event]] = []
        """``(seq, name, event)`` of each position 1..N (a :class:`Step` is made when asked for)."""
        self._states: list[Any] = [state]
        self.stopped: Stop | None = None
        """Where the replay stopped before the record's end (``partial``), else None."""
        with collector_paused():
            self._fold(lines, body, state, partial)

    def _fold(
        self, lines: Sequence[Mapping[str, Any]], body: Sequence[Mapping[str, Any]], state: Any, partial: bool
    ) -> None:
        """Decode and apply every game event of ``body`` from ``state``, keeping each state."""
        spec, evolve = self.spec, self.spec.evolve
        steps, states = self._steps, self._states
        event_types, table_events = spec.event_types, TABLE_EVENTS
        decoders: dict[str, Callable[[Any, int | None], Event]] = {}
        """The decoder of each event name met so far (an unknown name has none: it stops the fold)."""
        for line in body:
            name = line.get("name")
            if type(name) is not str:
                name = str(name)
            if name in table_events:
                continue
            try:
                decode = decoders.get(name)
                if decode is None:
                    cls = event_types.get(name)
                    if cls is None:
                        raise InvalidInput(f"unknown event {name!r}", "bad_event")
                    decode = decoders[name] = decoder(cls)
                payload = line.get("payload")
                if type(payload) is not dict and not isinstance(payload, Mapping):
                    payload = {}
                event = decode(payload, line.get("v", 1))
                state = evolve(state, event)
            except Exception:  # a record that does not replay: say where and why, in rules terms
                stop = Stop(_seq(line), name, _why(lines, _seq(line)), len(steps))
                if not partial:
                    raise InvalidInput(str(stop), "bad_record") from None
                self.stopped = stop
                break
            seq = line.get("seq")
            steps.append((seq if type(seq) is int else _seq(line), name, event))
            states.append(state)

    @classmethod
    def from_text(cls, text: str, *, partial: bool = False) -> Replay:
        """A replay of a record given as JSON Lines text (``partial``: see the class).

        Raises:
            InvalidInput: see the class.
        """
        with collector_paused():
            return cls(parse_record(text), partial=partial)

    @classmethod
    def from_file(cls, path: str | Path, *, partial: bool = False) -> Replay:
        """A replay of the record file at ``path`` (UTF-8; ``partial``: see the class).

        Raises:
            OSError: the file cannot be read.  UnicodeDecodeError: it is not UTF-8 text.
            InvalidInput: see the class.
        """
        return cls.from_text(Path(path).read_text(encoding="utf-8"), partial=partial)

    @property
    def length(self) -> int:
        """N: the number of game events (the last position)."""
        return len(self._steps)

    def _joined(self) -> list[SeatJoined]:
        """The newcomers seated during the match, in order (the facts of the events of role
        ``seat_joined``, in a game whose players change, ``GameSpec.seat_changes``)."""
        facts = (self.spec.fact(event) for _, _, event in self._steps if event.role is Role.SEAT_JOINED)
        return [fact for fact in facts if isinstance(fact, SeatJoined)]

    @property
    def seats(self) -> int:
        """The number of seat numbers used (newcomers may add some: role ``seat_joined``)."""
        return max([len(self.config.seats), *(joined.seat + 1 for joined in self._joined())])

    @property
    def names(self) -> tuple[str, ...]:
        """Display name per seat (the last player seated there)."""
        names = [s.name for s in self.config.seats]
        for joined in self._joined():  # a newcomer takes a vacant or a new seat number
            names.extend([f"seat {i}" for i in range(len(names), joined.seat + 1)])
            names[joined.seat] = joined.name
        return tuple(names)

    def _check(self, position: int) -> int:
        if not 0 <= position <= self.length:
            raise InvalidInput(f"position {position!r} is not in 0..{self.length}", "bad_position")
        return position

    def state(self, position: int) -> Any:
        """The game state at ``position``.

        Raises:
            InvalidInput: ``position`` outside ``0..length``.
        """
        return self._states[self._check(position)]

    def step(self, position: int) -> Step:
        """The event that leads to ``position`` (1..length).

        Raises:
            InvalidInput: ``position`` outside ``1..length``.
        """
        if self._check(position) == 0:
            raise InvalidInput("position 0 is before the first event", "bad_position")
        seq, name, event = self._steps[position - 1]
        return Step(position, seq, name, event)

    def is_move(self, position: int) -> bool:
        """True when the event leading to ``position`` (1..length) is a seat's own move: it names a
        ``seat`` the match waited for just before it (``GameSpec.acting``) and is worth a line in the
        game's words (``GameText.describe_event``), not a consequence such as a turn passing on
        or a deal."""
        if not 1 <= position <= self.length:
            return False
        step = self.step(position)
        seat = getattr(step.event, "seat", None)
        if not isinstance(seat, int) or isinstance(seat, bool):
            return False
        if seat not in acting_seats(self.spec, self.state(position - 1), tuple(range(max(self.seats, seat + 1)))):
            return False
        return self.spec.text.describe_event(step.name, to_payload(step.event), self.names) is not None

    def last_move(self, position: int) -> int | None:
        """The position of the move that led to ``position``: the latest seat's move
        (:meth:`is_move`) at or before it, None before the first move."""
        for p in range(min(position, self.length), 0, -1):
            if self.is_move(p):
                return p
        return None

    def reaches(self, position: int, viewer: Viewer | str = OMNISCIENT) -> bool:
        """True when the event leading to ``position`` reached ``viewer`` when it happened: always, but
        for an event withheld from every other seat (``Event.withheld``), which only its own seat (and
        the omniscient view) receives."""
        if position == 0 or viewer == OMNISCIENT or isinstance(viewer, str):
            return True
        return visible(self.step(position).event, viewer)

    def event_payload(self, position: int, viewer: Viewer | str = OMNISCIENT) -> dict[str, Any]:
        """The payload of the event leading to ``position`` as ``viewer`` saw it when it happened
        (a seat, None for a spectator, or :data:`OMNISCIENT` for the full payload)."""
        event = self.step(position).event
        if viewer == OMNISCIENT or isinstance(viewer, str):
            return to_payload(event)
        return redact(event, viewer)

    def view(self, position: int, viewer: Viewer | str = OMNISCIENT) -> dict[str, Any]:
        """What ``viewer`` sees at ``position``: a seat's view, a spectator's (None), or the
        omniscient view (:data:`OMNISCIENT`): the spectator's view plus ``hands`` (every seat's
        hand) and ``legal_by_seat``.

        Raises:
            InvalidInput: ``position`` out of range, or a seat that is not at the table.
        """
        state = self.state(position)
        if viewer == OMNISCIENT or isinstance(viewer, str):
            out = dict(self.spec.seat_view(state, None))
            seat_views = [self.spec.seat_view(state, s) for s in range(self.seats)]
            out["hands"] = [v.get("hand", []) for v in seat_views]
            out["legal_by_seat"] = [v.get("legal", []) for v in seat_views]
            out["seat"] = OMNISCIENT
            return out
        if viewer is not None and not 0 <= viewer < self.seats:
            raise InvalidInput(f"seat {viewer!r} is not at this table (0..{self.seats - 1})", "bad_seat")
        return dict(self.spec.seat_view(state, viewer))
