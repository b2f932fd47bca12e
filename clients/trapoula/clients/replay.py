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
record: check it first with :mod:`trapoula.clients.audit`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from trapoula.clients.audit import parse_record
from trapoula.domain.audit import TABLE_EVENTS
from trapoula.domain.errors import InvalidInput
from trapoula.domain.events import Event, Viewer, from_payload, redact, to_payload
from trapoula.domain.game import GameSpec, MatchConfig, SeatInfo
from trapoula.domain.registry import find_game

__all__ = ["OMNISCIENT", "Replay", "Step"]

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


def _config(spec: GameSpec[Any, Any], lines: Sequence[Mapping[str, Any]]) -> MatchConfig:
    for line in lines:
        if line.get("name") == "MatchStarted":
            p = line["payload"]
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


class Replay:
    """A record folded into its sequence of states (positions ``0..length``).

    Args:
        lines: the record's parsed lines (header first), e.g. from
            :func:`trapoula.clients.audit.parse_record`.

    Raises:
        InvalidInput: no header, an unknown game, an unknown event or a payload that does not
            decode (``bad_record``).
    """

    def __init__(self, lines: Sequence[Mapping[str, Any]]) -> None:
        if not lines or lines[0].get("format") != "trapoula-record":
            raise InvalidInput("not a trapoula record: the first line is not its header", "bad_record")
        header = lines[0]
        self.table_id: str = str(header.get("table_id"))
        self.spec: GameSpec[Any, Any] = find_game(str(header.get("game")))
        body = lines[1:]
        self.config = _config(self.spec, body)
        self._steps: list[Step] = []
        state = self.spec.initial_state(self.config)
        self._states: list[Any] = [state]
        for line in body:
            name = str(line.get("name"))
            if name in TABLE_EVENTS:
                continue
            cls = self.spec.event_types.get(name)
            if cls is None:
                raise InvalidInput(f"record line seq {line.get('seq')}: unknown event {name!r}", "bad_record")
            event = from_payload(cls, line.get("payload") or {})
            state = self.spec.evolve(state, event)
            self._steps.append(Step(len(self._steps) + 1, int(line.get("seq") or 0), name, event))
            self._states.append(state)

    @classmethod
    def from_text(cls, text: str) -> Replay:
        """A replay of a record given as JSON Lines text."""
        return cls(parse_record(text))

    @classmethod
    def from_file(cls, path: str | Path) -> Replay:
        """A replay of the record file at ``path``.

        Raises:
            OSError: the file cannot be read.
        """
        return cls.from_text(Path(path).read_text(encoding="utf-8"))

    @property
    def length(self) -> int:
        """N: the number of game events (the last position)."""
        return len(self._steps)

    @property
    def seats(self) -> int:
        """The number of seats."""
        return len(self.config.seats)

    @property
    def names(self) -> tuple[str, ...]:
        """Display name per seat."""
        return tuple(s.name for s in self.config.seats)

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
        return self._steps[position - 1]

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
