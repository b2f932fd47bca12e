"""Mau Mau's commands (docs/rules/mau_mau.md section 8): imperative, frozen.

Seat commands name their seat: ``play``, ``draw``, ``pass``, ``mau``, ``leave``.  Table commands
do not: ``join`` (built by :func:`parse_command` or :func:`join_command`) and ``next_hand`` (built
by ``rules.deal_command`` from a deal).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Annotated, Any, TypeAlias

from trapoula.domain.errors import InvalidInput
from trapoula.domain.events import Payload
from trapoula.domain.game import NextHand as NextHand
from trapoula.domain.game import SeatCommand
from trapoula.domain.games.mau_mau.options import Skill, parse_skill
from trapoula.domain.games.shedding.commands import Draw, Pass, Play, card_and_suit, kind_of, payload, seat_of
from trapoula.domain.wire import Wire

__all__ = [
    "SEAT_COMMANDS",
    "Command",
    "Draw",
    "Join",
    "Leave",
    "Mau",
    "NextHand",
    "Pass",
    "Play",
    "command_payload",
    "command_seat",
    "join_command",
    "parse_command",
]

SEAT_CHANGES = True
"""Players may join between hands and leave at any time (R6.9, R6.10; ``GameSpec.seat_changes``)."""

MAX_NAME = 64
"""The longest display name a ``join`` may carry (characters)."""


@dataclass(frozen=True, slots=True)
class Mau(SeatCommand, kind="mau"):
    """Call "Mau" before playing the next-to-last card (R5.6)."""


@dataclass(frozen=True, slots=True)
class Leave(SeatCommand, kind="leave"):
    """Leave the match, at any time (R6.10)."""


@dataclass(frozen=True, slots=True)
class Join:
    """Table command: a new player takes a seat between hands (R6.9); ``computer`` is the skill of
    a computer player, None for a person (R7.2)."""

    name: Annotated[str, Wire(minLength=1, maxLength=MAX_NAME, pattern=r"\S")]
    computer: Skill | None = None


Command: TypeAlias = Play | Draw | Pass | Mau | Leave | Join | NextHand
"""Every Mau Mau command."""

SEAT_COMMANDS = ("play", "draw", "pass", "mau", "leave")
"""The kinds a seat issues (``join`` and ``next_hand`` are the table's)."""

_FIELDS: dict[str, frozenset[str]] = {
    "play": frozenset({"kind", "seat", "card", "suit"}),
    "draw": frozenset({"kind", "seat"}),
    "pass": frozenset({"kind", "seat"}),
    "mau": frozenset({"kind", "seat"}),
    "leave": frozenset({"kind", "seat"}),
    "join": frozenset({"kind", "name", "computer"}),
}


def join_command(name: str, computer: str | None = None) -> Join:
    """The table's ``join`` command for a player called ``name``: a person, or a computer player of
    skill ``computer`` (R6.9, R7.2).

    Raises:
        InvalidInput: an empty or overlong name, or a name that is not text (``bad_name``); an
            unknown skill (``bad_skill``).
    """
    if not isinstance(name, str) or not name.strip() or len(name) > MAX_NAME:
        raise InvalidInput(
            f"join: name {str(name)[: MAX_NAME + 1]!r} must be text of 1 to {MAX_NAME} characters (R6.9)",
            reason="bad_name",
        )
    return Join(name, None if computer is None else parse_skill(computer, "join"))


def parse_command(raw: Mapping[str, Any]) -> Command:
    """Build a command from plain data: ``{"kind": "play", "seat": 1, "card": "JS", "suit": "H"}``,
    ``{"kind": "mau", "seat": 1}``, ``{"kind": "leave", "seat": 3}``, or the table's
    ``{"kind": "join", "name": "Eve", "computer": "hard"}`` (``computer`` null or absent for a person).

    ``next_hand`` is not built here: its deal comes from the table (see ``rules.deal_command``).

    Raises:
        InvalidInput: unknown kind, a bad card or suit code (``bad_card``, ``bad_suit``), a bad
            name or skill (``bad_name``, ``bad_skill``), a missing or extra field.
    """
    kind = kind_of("mau_mau", raw, _FIELDS)
    if kind == "join":
        return join_command(raw.get("name"), raw.get("computer"))  # type: ignore[arg-type]
    seat = seat_of(raw)
    if kind == "play":
        return Play(seat, *card_and_suit(raw))
    if kind == "draw":
        return Draw(seat)
    if kind == "pass":
        return Pass(seat)
    if kind == "mau":
        return Mau(seat)
    return Leave(seat)


def command_payload(command: Command) -> Payload:
    """The plain-data form of a command (a deal is not included: it is secret until the hand ends)."""
    match command:
        case Mau() | Leave():
            return command.payload()
        case Join(name, computer):
            return {"kind": "join", "name": name, "computer": computer}
        case _:
            return payload(command)


def command_seat(command: Command) -> int | None:
    """The seat a command acts for; None for the table's ``join`` and ``next_hand``."""
    return None if isinstance(command, Join | NextHand) else command.seat
