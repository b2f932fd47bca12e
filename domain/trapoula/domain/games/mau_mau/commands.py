"""Mau Mau's commands (rules/mau_mau.md section 8): imperative, frozen.

Seat commands name their seat: ``play``, ``draw``, ``pass``, ``mau``, ``leave``.  Table commands
do not: ``join`` (built by :func:`parse_command` or :func:`join_command`) and ``next_hand`` (built
by ``rules.deal_command`` from a deal).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, TypeAlias

from trapoula.domain.cards import Card, Suit, parse_card
from trapoula.domain.deal import Deal
from trapoula.domain.errors import InvalidInput
from trapoula.domain.events import Payload
from trapoula.domain.games.mau_mau.options import Skill, parse_skill

MAX_NAME = 64
"""The longest display name a ``join`` may carry (characters)."""


@dataclass(frozen=True, slots=True)
class Play:
    """Play ``card`` from the hand; ``suit`` chooses the suit with a jack (R4.1, R5.4.2)."""

    seat: int
    card: Card
    suit: Suit | None = None


@dataclass(frozen=True, slots=True)
class Draw:
    """Draw one card, which ends the turn (R4.2, R4.3), or take the whole pending draw (R5.1.2)."""

    seat: int


@dataclass(frozen=True, slots=True)
class Pass:
    """End the turn without playing, only when no card can be drawn (R4.4)."""

    seat: int


@dataclass(frozen=True, slots=True)
class Mau:
    """Call "Mau" before playing the next-to-last card (R5.6)."""

    seat: int


@dataclass(frozen=True, slots=True)
class Leave:
    """Leave the match, at any time (R6.10)."""

    seat: int


@dataclass(frozen=True, slots=True)
class Join:
    """Table command: a new player takes a seat between hands (R6.9); ``computer`` is the skill of
    a computer player, None for a person (R7.2)."""

    name: str
    computer: Skill | None = None


@dataclass(frozen=True, slots=True)
class NextHand:
    """Table command: deal the next hand (R6.11, S11) from ``deal``."""

    deal: Deal


Command: TypeAlias = Play | Draw | Pass | Mau | Leave | Join | NextHand
"""Every Mau Mau command."""

SEAT_COMMANDS = ("play", "draw", "pass", "mau", "leave")
"""The kinds a seat issues (``join`` and ``next_hand`` are the table's)."""

_FIELDS: dict[str, set[str]] = {
    "play": {"kind", "seat", "card", "suit"},
    "draw": {"kind", "seat"},
    "pass": {"kind", "seat"},
    "mau": {"kind", "seat"},
    "leave": {"kind", "seat"},
    "join": {"kind", "name", "computer"},
}


def _seat(raw: Mapping[str, Any]) -> int:
    seat = raw.get("seat")
    if isinstance(seat, bool) or not isinstance(seat, int):
        raise InvalidInput(f"command {raw.get('kind')!r}: seat {seat!r} is not an integer", reason="bad_seat")
    return seat


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
    kind = raw.get("kind")
    if kind not in _FIELDS:
        raise InvalidInput(
            f"unknown mau_mau command {kind!r}; expected one of {', '.join((*SEAT_COMMANDS, 'join'))} (section 8)",
            reason="bad_command",
        )
    extra = set(raw) - _FIELDS[kind]
    if extra:
        raise InvalidInput(f"mau_mau command {kind!r} takes no field(s) {sorted(extra)}", reason="bad_command")
    if kind == "join":
        return join_command(raw.get("name"), raw.get("computer"))  # type: ignore[arg-type]
    seat = _seat(raw)
    if kind == "play":
        card = raw.get("card")
        if not isinstance(card, str):
            raise InvalidInput(f"play: card {card!r} is not a card code (S2.1)", reason="bad_card")
        suit = raw.get("suit")
        if suit is not None and not isinstance(suit, str):
            raise InvalidInput(f"play: suit {suit!r} is not C, D, H or S (S6.3)", reason="bad_suit")
        return Play(seat, parse_card(card), Suit.parse(suit) if suit is not None else None)
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
        case Play(seat, card, suit):
            out: Payload = {"kind": "play", "seat": seat, "card": card.code}
            if suit is not None:
                out["suit"] = suit.value
            return out
        case Draw(seat):
            return {"kind": "draw", "seat": seat}
        case Pass(seat):
            return {"kind": "pass", "seat": seat}
        case Mau(seat):
            return {"kind": "mau", "seat": seat}
        case Leave(seat):
            return {"kind": "leave", "seat": seat}
        case Join(name, computer):
            return {"kind": "join", "name": name, "computer": computer}
        case NextHand(deal):
            return {"kind": "next_hand", "explicit": deal.explicit}


def command_seat(command: Command) -> int | None:
    """The seat a command acts for; None for the table's ``join`` and ``next_hand``."""
    return None if isinstance(command, Join | NextHand) else command.seat
