"""Crazy Eights' commands (rules/crazy_eights.md section 8): imperative, frozen."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, TypeAlias

from trapoula.domain.cards import Card, Suit, parse_card
from trapoula.domain.deal import Deal
from trapoula.domain.errors import InvalidInput
from trapoula.domain.events import Payload


@dataclass(frozen=True, slots=True)
class Play:
    """Play ``card`` from the hand (R4.1); ``suit`` names the suit to follow after an 8 (R5.1.2)."""

    seat: int
    card: Card
    suit: Suit | None = None


@dataclass(frozen=True, slots=True)
class Draw:
    """Draw one card (R4.2, R5.6.1), or take the whole pending draw (R5.2.2, R5.3.2)."""

    seat: int


@dataclass(frozen=True, slots=True)
class Pass:
    """End the turn without playing (R4.3, R4.4, R5.6.3)."""

    seat: int


@dataclass(frozen=True, slots=True)
class NextHand:
    """Table command: deal the next hand of a points game (R6.7, S11) from ``deal``."""

    deal: Deal


Command: TypeAlias = Play | Draw | Pass | NextHand
"""Every Crazy Eights command."""

SEAT_COMMANDS = ("play", "draw", "pass")
"""The kinds of the seat commands (section 8)."""

_FIELDS: dict[str, frozenset[str]] = {
    "play": frozenset({"kind", "seat", "card", "suit"}),
    "draw": frozenset({"kind", "seat"}),
    "pass": frozenset({"kind", "seat"}),
}


def _seat(raw: Mapping[str, Any]) -> int:
    seat = raw.get("seat")
    if isinstance(seat, bool) or not isinstance(seat, int):
        raise InvalidInput(f"command {raw.get('kind')!r}: seat {seat!r} is not an integer", reason="bad_seat")
    return seat


def parse_command(raw: Mapping[str, Any]) -> Command:
    """Build a seat command from plain data (section 8).

    Shapes: ``{"kind": "play", "seat": 1, "card": "8H", "suit": "S"}`` (``suit`` optional),
    ``{"kind": "draw", "seat": 1}``, ``{"kind": "pass", "seat": 1}``.  ``next_hand`` is not built
    here: its deal comes from the table (``rules.deal_command``).

    Raises:
        InvalidInput: an unknown kind or field (``bad_command``), a seat that is not an integer
            (``bad_seat``), a bad card code (``bad_card``, S2.1) or suit letter (``bad_suit``, S6.3).
    """
    kind = raw.get("kind")
    if not isinstance(kind, str) or kind not in _FIELDS:
        raise InvalidInput(
            f"unknown crazy_eights command {kind!r}; expected one of {', '.join(SEAT_COMMANDS)} (section 8)",
            reason="bad_command",
        )
    extra = set(raw) - _FIELDS[kind]
    if extra:
        raise InvalidInput(f"crazy_eights command {kind!r} takes no field(s) {sorted(extra)}", reason="bad_command")
    seat = _seat(raw)
    if kind == "draw":
        return Draw(seat)
    if kind == "pass":
        return Pass(seat)
    card = raw.get("card")
    if not isinstance(card, str):
        raise InvalidInput(f"play: card {card!r} is not a card code (S2.1)", reason="bad_card")
    suit = raw.get("suit")
    if suit is not None and not isinstance(suit, str):
        raise InvalidInput(f"play: suit {suit!r} is not C, D, H or S (S6.3)", reason="bad_suit")
    return Play(seat, parse_card(card), Suit.parse(suit) if suit is not None else None)


def command_payload(command: Command) -> Payload:
    """The plain-data form of a command (inverse of :func:`parse_command`).

    A ``next_hand`` gives ``{"kind": "next_hand", "explicit": bool}``: its deal stays secret until
    the hand ends.
    """
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
        case NextHand(deal):
            return {"kind": "next_hand", "explicit": deal.explicit}


def command_seat(command: Command) -> int | None:
    """The seat a command acts for; None for the table's ``next_hand``."""
    return None if isinstance(command, NextHand) else command.seat
