"""Agonia's commands (docs/rules/agonia.md section 8): imperative, frozen."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, TypeAlias

from trapoula.domain.cards import Card, Suit, parse_card
from trapoula.domain.errors import InvalidInput
from trapoula.domain.events import Payload
from trapoula.domain.game import NextHand as NextHand
from trapoula.domain.game import command_seat as command_seat
from trapoula.domain.games.shedding.commands import Draw, Pass, seat_of

__all__ = [
    "SEAT_COMMANDS",
    "ChooseSuit",
    "Command",
    "Draw",
    "NextHand",
    "Pass",
    "Play",
    "command_payload",
    "command_seat",
    "parse_command",
]


@dataclass(frozen=True, slots=True)
class Play:
    """Play ``card`` from the hand; ``suit`` declares a suit with an ace (R5.1.2); ``announce`` (R7.5)."""

    seat: int
    card: Card
    suit: Suit | None = None
    announce: bool = False


@dataclass(frozen=True, slots=True)
class ChooseSuit:
    """Choose the active suit when the up-card is an ace (R7.2)."""

    seat: int
    suit: Suit


Command: TypeAlias = Play | Draw | Pass | ChooseSuit | NextHand
"""Every Agonia command."""

SEAT_COMMANDS = ("play", "draw", "pass", "choose_suit")


def parse_command(raw: Mapping[str, Any]) -> Command:
    """Build a seat command from plain data: ``{"kind": "play", "seat": 1, "card": "AS", "suit": "H"}``.

    ``next_hand`` is not built here: its deal comes from the table (see ``rules.deal_command``).

    Raises:
        InvalidInput: unknown kind, a bad card or suit code, a missing or extra field.
    """
    kind = raw.get("kind")
    allowed = {
        "play": {"kind", "seat", "card", "suit", "announce"},
        "draw": {"kind", "seat"},
        "pass": {"kind", "seat"},
        "choose_suit": {"kind", "seat", "suit"},
    }
    if kind not in allowed:
        raise InvalidInput(
            f"unknown agonia command {kind!r}; expected one of {', '.join(SEAT_COMMANDS)} (section 8)",
            reason="bad_command",
        )
    extra = set(raw) - allowed[kind]
    if extra:
        raise InvalidInput(f"agonia command {kind!r} takes no field(s) {sorted(extra)}", reason="bad_command")
    seat = seat_of(raw)
    if kind == "play":
        card = raw.get("card")
        if not isinstance(card, str):
            raise InvalidInput(f"play: card {card!r} is not a card code (S2.1)", reason="bad_card")
        suit = raw.get("suit")
        announce = raw.get("announce", False)
        if not isinstance(announce, bool):
            raise InvalidInput(f"play: announce {announce!r} is not true/false (R7.5)", reason="bad_command")
        return Play(seat, parse_card(card), Suit.parse(suit) if suit else None, announce)
    if kind == "draw":
        return Draw(seat)
    if kind == "pass":
        return Pass(seat)
    suit = raw.get("suit")
    if not isinstance(suit, str):
        raise InvalidInput(f"choose_suit: suit {suit!r} is not C, D, H or S (R7.2)", reason="bad_suit")
    return ChooseSuit(seat, Suit.parse(suit))


def command_payload(command: Command) -> Payload:
    """The plain-data form of a command (a deal is not included: it is secret until the hand ends)."""
    match command:
        case Play(seat, card, suit, announce):
            out: Payload = {"kind": "play", "seat": seat, "card": card.code}
            if suit is not None:
                out["suit"] = suit.value
            if announce:
                out["announce"] = True
            return out
        case ChooseSuit(seat, suit):
            return {"kind": "choose_suit", "seat": seat, "suit": suit.value}
        case Draw() | Pass() | NextHand():
            return command.payload()
