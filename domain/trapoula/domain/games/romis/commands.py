"""Romis su iškritimu's commands (docs/rules/romis.md section 8) and their plain-data form.

Seat commands: ``reveal {cards, companions?}`` (R13.1), ``use_auxiliary {}`` (R13.2) and ``cannot {}``
(R13.3), each with its ``seat``; the table's ``next_hand`` deals the next hand (R13.4; its deal comes
from the table, :func:`deal_command`).

Parsing checks the shape only (:class:`~trapoula.domain.errors.InvalidInput`): an unknown kind, a
missing or extra field, a seat that is not an integer, card lists that are not lists of codes or
list more than 52 cards, a code that does not parse.  What the rules refuse -- a wrong count, a
card not held, a card listed twice, unrelated cards -- is left to ``decide`` (R13.1).

The cards of a reveal, and its companions, are unordered: :func:`canonical` writes a reveal in the
one form ``legal_commands`` lists (canonical card order, S2.3); ``decide`` accepts any order and seals
the canonical form (R5.6).  An empty ``companions`` list is the same as none.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, TypeAlias

from trapoula.domain.cards import Card, parse_card, sorted_cards
from trapoula.domain.errors import InvalidInput
from trapoula.domain.events import Payload
from trapoula.domain.game import CommandFields, SeatCommand, command_error, command_shape
from trapoula.domain.game import NextHand as NextHand
from trapoula.domain.game import command_seat as command_seat
from trapoula.domain.game import deal_command as deal_command

__all__ = [
    "SEAT_COMMANDS",
    "Cannot",
    "Command",
    "NextHand",
    "Reveal",
    "UseAuxiliary",
    "canonical",
    "command_payload",
    "command_seat",
    "deal_command",
    "parse_command",
]

MAX_LISTED = 52
"""More cards than the deck holds make a command malformed, not merely refused."""


@dataclass(frozen=True, slots=True)
class Reveal:
    """Sealed submission: reveal ``cards`` (2 in rounds 1-2, 1 later), with ``companions`` for a new
    combination (R4.2, R4.4, R4.6, R8.2, R13.1)."""

    seat: int
    cards: tuple[Card, ...]
    companions: tuple[Card, ...] = ()


@dataclass(frozen=True, slots=True)
class UseAuxiliary(SeatCommand, kind="use_auxiliary"):
    """Turn up the next auxiliary card into the hand, privately (R6.1, R6.2, R13.2)."""


@dataclass(frozen=True, slots=True)
class Cannot(SeatCommand, kind="cannot"):
    """Sealed submission that the seat cannot reveal (R6.3, R7.1, R13.3)."""


Command: TypeAlias = Reveal | UseAuxiliary | Cannot | NextHand
"""Every Romis su iškritimu command."""

SEAT_COMMANDS = ("reveal", "use_auxiliary", "cannot")
"""The kinds of the seat commands (section 8)."""

_FIELDS: CommandFields = {
    "reveal": (frozenset({"kind", "seat", "cards"}), frozenset({"companions"})),
    "use_auxiliary": (frozenset({"kind", "seat"}), frozenset()),
    "cannot": (frozenset({"kind", "seat"}), frozenset()),
}
"""kind -> (required fields, optional fields)."""


def _bad(message: str, reason: str = "bad_command") -> InvalidInput:
    return command_error("romis", message, reason)


def _cards(raw: Any, what: str) -> tuple[Card, ...]:
    if not isinstance(raw, list | tuple) or len(raw) > MAX_LISTED:
        raise _bad(f"reveal: {what} {str(raw)[:40]!r} is not a list of card codes")
    out: list[Card] = []
    for code in raw:
        if not isinstance(code, str):
            raise _bad(f"reveal: {what}: {str(code)[:32]!r} is not a card code", "bad_card")
        out.append(parse_card(code))
    return tuple(out)


def parse_command(raw: Mapping[str, Any]) -> Command:
    """Build a seat command from plain data (section 8).

    Shapes: ``{"kind": "reveal", "seat": 0, "cards": ["6H", "7H"]}``, ``{"kind": "reveal", "seat": 1,
    "cards": ["9S"], "companions": ["9D", "TS"]}``, ``{"kind": "use_auxiliary", "seat": 2}``,
    ``{"kind": "cannot", "seat": 0}``.

    >>> parse_command({"kind": "reveal", "seat": 1, "cards": ["9S"], "companions": ["TS"]})
    Reveal(seat=1, cards=(Card.parse('9S'),), companions=(Card.parse('TS'),))

    Raises:
        InvalidInput: not a mapping, an unknown kind, a missing or extra field (``bad_command``); a
            seat that is not an integer (``bad_seat``); ``cards`` or ``companions`` not a list of at
            most 52 codes (``bad_command``); a code that does not parse (``bad_card``).
    """
    kind, seat = command_shape("romis", raw, _FIELDS)
    if kind == "use_auxiliary":
        return UseAuxiliary(seat)
    if kind == "cannot":
        return Cannot(seat)
    cards = _cards(raw["cards"], "cards")
    companions_raw = raw.get("companions")
    companions = () if companions_raw is None else _cards(companions_raw, "companions")
    return Reveal(seat, cards, companions)


def command_payload(command: Command) -> Payload:
    """The plain-data form of a command (inverse of :func:`parse_command`).

    ``reveal`` carries ``companions`` only when there are some; ``next_hand`` gives ``{"kind":
    "next_hand", "explicit": bool}``: its deal stays secret until the hand ends.
    """
    match command:
        case Reveal(seat, cards, companions):
            out: Payload = {"kind": "reveal", "seat": seat, "cards": [c.code for c in cards]}
            if companions:
                out["companions"] = [c.code for c in companions]
            return out
        case SeatCommand() | NextHand():
            return command.payload()


def canonical(command: Reveal) -> Reveal:
    """The reveal in canonical form: its cards and its companions each in canonical card order (S2.3).

    >>> cmd = parse_command({"kind": "reveal", "seat": 0, "cards": ["7H", "6H"]})
    >>> command_payload(canonical(cmd))["cards"]
    ['6H', '7H']
    """
    return Reveal(command.seat, sorted_cards(command.cards), sorted_cards(command.companions))
