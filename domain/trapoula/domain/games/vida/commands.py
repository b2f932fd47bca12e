"""Vida's commands (docs/rules/vida.md section 8) and their plain-data form.

Seat commands: ``bid``, ``pass``, ``vida``, ``give``, ``declare``, ``play``; the table's
``next_hand`` deals the next hand (its deal comes from the table, ``rules.deal_command``).

Parsing checks the shape only (:class:`~trapoula.domain.errors.InvalidInput` for an unknown kind,
a missing or extra field, a wrong type, a card code that does not parse).  What the rules refuse
is left to ``decide``: a suit that is no suit (``invalid_suit``), points off the grid
(``invalid_points``), a rank 2-6 (``invalid_card``, R2.2), a give of the wrong size (``invalid_give``).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Annotated, Any, TypeAlias

from trapoula.domain.cards import Card, SuitCode
from trapoula.domain.errors import InvalidInput
from trapoula.domain.events import Payload
from trapoula.domain.game import CommandFields, SeatCommand, card_field, command_error, command_shape
from trapoula.domain.game import NextHand as NextHand
from trapoula.domain.game import command_seat as command_seat
from trapoula.domain.game import deal_command as deal_command
from trapoula.domain.games.vida.options import BID_STEP, MIN_BID
from trapoula.domain.wire import Wire

__all__ = [
    "SEAT_COMMANDS",
    "Bid",
    "Command",
    "Declare",
    "Give",
    "NextHand",
    "Pass",
    "Play",
    "Vida",
    "command_payload",
    "command_seat",
    "deal_command",
    "parse_command",
]

MAX_GIVE_CARDS = 32
"""A ``give`` listing more cards than the deck holds is malformed, not merely refused."""


@dataclass(frozen=True, slots=True)
class Bid:
    """Bid ``points`` with ``suit`` as trumps (R4.3).  ``suit`` is the text sent; ``decide`` refuses
    anything but ``C D H S`` (``invalid_suit``), and points off the grid (``invalid_points``): the
    game's JSON Schema says both (:mod:`trapoula.domain.schema`)."""

    seat: int
    points: Annotated[int, Wire(minimum=MIN_BID, multipleOf=BID_STEP)]
    suit: SuitCode


@dataclass(frozen=True, slots=True)
class Pass(SeatCommand, kind="pass"):
    """Pass in the auction (R4.4)."""


@dataclass(frozen=True, slots=True)
class Vida(SeatCommand, kind="vida"):
    """Call the next vida level on the current bid (R4.5)."""


@dataclass(frozen=True, slots=True)
class Give:
    """Open vida: the contract holder gives ``cards[i]`` to seat holder+1+i (R5.1, D30)."""

    seat: int
    cards: tuple[Card, ...]


@dataclass(frozen=True, slots=True)
class Declare(SeatCommand, kind="declare"):
    """Pilotta timing: announce all of one's combinations before one's first card (R5.8)."""


@dataclass(frozen=True, slots=True)
class Play:
    """Play ``card``; ``belote`` announces belote with the first of the king and queen of trumps (R5.9)."""

    seat: int
    card: Card
    belote: bool = False


Command: TypeAlias = Bid | Pass | Vida | Give | Declare | Play | NextHand
"""Every Vida command."""

SEAT_COMMANDS = ("bid", "pass", "vida", "give", "declare", "play")
"""The kinds of the seat commands (section 8)."""

_FIELDS: CommandFields = {
    "bid": (frozenset({"kind", "seat", "points", "suit"}), frozenset()),
    "pass": (frozenset({"kind", "seat"}), frozenset()),
    "vida": (frozenset({"kind", "seat"}), frozenset()),
    "give": (frozenset({"kind", "seat", "cards"}), frozenset()),
    "declare": (frozenset({"kind", "seat"}), frozenset()),
    "play": (frozenset({"kind", "seat", "card"}), frozenset({"belote"})),
}
"""kind -> (required fields, optional fields)."""


def _bad(message: str, reason: str = "bad_command") -> InvalidInput:
    return command_error("vida", message, reason)


def _card(value: Any, what: str) -> Card:
    return card_field("vida", value, what)


def parse_command(raw: Mapping[str, Any]) -> Command:
    """Build a seat command from plain data (section 8).

    Shapes: ``{"kind": "bid", "seat": 0, "points": 90, "suit": "H"}``, ``{"kind": "pass", "seat": 1}``,
    ``{"kind": "vida", "seat": 1}``, ``{"kind": "give", "seat": 0, "cards": ["7C", "8D", "9S"]}``,
    ``{"kind": "declare", "seat": 2}``, ``{"kind": "play", "seat": 3, "card": "KH", "belote": true}``
    (``belote`` optional, default false).

    >>> parse_command({"kind": "play", "seat": 3, "card": "KH", "belote": True})
    Play(seat=3, card=Card.parse('KH'), belote=True)

    Raises:
        InvalidInput: not a mapping, an unknown kind, a missing or extra field (``bad_command``), a
            seat or points that are not integers, a suit or belote of the wrong type
            (``bad_command``, ``bad_seat``), a card code that does not parse (``bad_card``).
    """
    kind, seat = command_shape("vida", raw, _FIELDS)
    if kind == "bid":
        points, suit = raw["points"], raw["suit"]
        if isinstance(points, bool) or not isinstance(points, int):
            raise _bad(f"bid: points {str(points)[:32]!r} is not an integer")
        if not isinstance(suit, str):
            raise _bad(f"bid: suit {str(suit)[:32]!r} is not a suit letter")
        return Bid(seat, points, suit)
    if kind == "pass":
        return Pass(seat)
    if kind == "vida":
        return Vida(seat)
    if kind == "declare":
        return Declare(seat)
    if kind == "give":
        cards = raw["cards"]
        if not isinstance(cards, list | tuple) or len(cards) > MAX_GIVE_CARDS:
            raise _bad(f"give: cards {str(cards)[:40]!r} is not a list of card codes")
        return Give(seat, tuple(_card(c, "give: card") for c in cards))
    belote = raw.get("belote", False)
    if not isinstance(belote, bool):
        raise _bad(f"play: belote {str(belote)[:32]!r} is not true or false")
    return Play(seat, _card(raw["card"], "play: card"), belote)


def command_payload(command: Command) -> Payload:
    """The plain-data form of a command (inverse of :func:`parse_command`).

    ``play`` carries ``belote`` only when true; ``next_hand`` gives ``{"kind": "next_hand",
    "explicit": bool}``: its deal stays secret until the hand ends.
    """
    match command:  # the kinds listed by the hundred first: bids, gives, plays
        case Bid(seat, points, suit):
            return {"kind": "bid", "seat": seat, "points": points, "suit": suit}
        case Give(seat, cards):
            return {"kind": "give", "seat": seat, "cards": [c.code for c in cards]}
        case Play(seat, card, belote):
            out: Payload = {"kind": "play", "seat": seat, "card": card.code}
            if belote:
                out["belote"] = True
            return out
        case SeatCommand() | NextHand():
            return command.payload()
