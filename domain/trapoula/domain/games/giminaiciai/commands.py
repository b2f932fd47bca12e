"""Giminaičiai's commands (docs/rules/giminaiciai.md section 8) and their plain-data form.

Seat commands: ``draw {source}``, ``discard {card}``, ``lay_down {groups, discard?, extra?}``; the
table's ``next_hand`` deals the next hand (its deal comes from the table, :func:`deal_command`).

Parsing checks the shape only (:class:`~trapoula.domain.errors.InvalidInput`): an unknown kind, a
missing or extra field, a wrong type, a source other than ``stock``/``discard``, a card code that does
not parse, a negative ``extra``, more than 52 groups or cards.  What the rules refuse is left to
``decide`` (section 8): a card not held, a card listed twice, 0 or 3+ groups, an illegal group ...

A lay-down's groups are unordered, and so are the cards of a group (R6.3: the reading is not
declared).  :func:`canonical` writes a lay-down in the one form ``legal_commands`` lists; ``decide``
accepts every ordering of it and records the groups in the order sent (decision 13).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Annotated, Any, TypeAlias

from trapoula.domain.cards import Card
from trapoula.domain.errors import InvalidInput
from trapoula.domain.events import Payload
from trapoula.domain.game import CommandFields, card_field, command_error, command_shape
from trapoula.domain.game import NextHand as NextHand
from trapoula.domain.game import command_seat as command_seat
from trapoula.domain.game import deal_command as deal_command
from trapoula.domain.wire import Wire

__all__ = [
    "SEAT_COMMANDS",
    "SOURCES",
    "Command",
    "Discard",
    "Draw",
    "LayDown",
    "NextHand",
    "canonical",
    "command_payload",
    "command_seat",
    "deal_command",
    "parse_command",
]

SOURCES = ("stock", "discard")
"""Where a draw takes its card from (R4.2)."""
MAX_LISTED = 52
"""More groups, or more cards in all, than the deck holds make a command malformed, not merely refused."""


@dataclass(frozen=True, slots=True)
class Draw:
    """Draw the top card of the stock or of the discard pile (R4.2, R4.6)."""

    seat: int
    source: Annotated[str, Wire(enum=["stock", "discard"])]
    """``stock`` or ``discard`` (:data:`SOURCES`)."""


@dataclass(frozen=True, slots=True)
class Discard:
    """Put ``card`` on the discard pile and end the turn (R4.4)."""

    seat: int
    card: Card


@dataclass(frozen=True, slots=True)
class LayDown:
    """Lay down the whole hand in one or two groups (R5.1-R5.4, R11.3).

    ``groups`` lists every card laid: hand cards and the ``extra`` cards taken from the top of the
    discard pile (R5.3); ``discard`` is the optional card put on the pile (R5.2).
    """

    seat: int
    groups: tuple[tuple[Card, ...], ...]
    discard: Card | None = None
    extra: Annotated[int, Wire(minimum=0)] = 0


Command: TypeAlias = Draw | Discard | LayDown | NextHand
"""Every Giminaičiai command."""

SEAT_COMMANDS = ("draw", "discard", "lay_down")
"""The kinds of the seat commands (section 8)."""

_FIELDS: CommandFields = {
    "draw": (frozenset({"kind", "seat", "source"}), frozenset()),
    "discard": (frozenset({"kind", "seat", "card"}), frozenset()),
    "lay_down": (frozenset({"kind", "seat", "groups"}), frozenset({"discard", "extra"})),
}
"""kind -> (required fields, optional fields)."""


def _bad(message: str, reason: str = "bad_command") -> InvalidInput:
    return command_error("giminaiciai", message, reason)


def _card(value: Any, what: str) -> Card:
    return card_field("giminaiciai", value, what)


def _groups(raw: Any) -> tuple[tuple[Card, ...], ...]:
    if not isinstance(raw, list | tuple) or len(raw) > MAX_LISTED:
        raise _bad(f"lay_down: groups {str(raw)[:40]!r} is not a list of groups")
    out: list[tuple[Card, ...]] = []
    total = 0
    for group in raw:
        if not isinstance(group, list | tuple):
            raise _bad(f"lay_down: group {str(group)[:40]!r} is not a list of card codes")
        total += len(group)
        if total > MAX_LISTED:
            raise _bad("lay_down: more cards listed than the deck holds")
        out.append(tuple(_card(c, "lay_down: card") for c in group))
    return tuple(out)


def parse_command(raw: Mapping[str, Any]) -> Command:
    """Build a seat command from plain data (section 8).

    Shapes: ``{"kind": "draw", "seat": 0, "source": "stock"}``, ``{"kind": "discard", "seat": 1,
    "card": "7H"}``, ``{"kind": "lay_down", "seat": 2, "groups": [["4H", "5H", "6H"], ["KC", "KD",
    "KS", "QS"]], "discard": "2C", "extra": 0}`` (``discard`` optional, null or absent for none;
    ``extra`` optional, default 0).

    >>> parse_command({"kind": "lay_down", "seat": 0, "groups": [["4H", "5H", "6H"]], "discard": "2C"})
    LayDown(seat=0, groups=((Card.parse('4H'), Card.parse('5H'), Card.parse('6H')),), discard=Card.parse('2C'), extra=0)

    Raises:
        InvalidInput: not a mapping, an unknown kind, a missing or extra field (``bad_command``); a seat
            that is not an integer (``bad_seat``); a source other than ``stock`` or ``discard``, groups
            that are not lists of codes or list more than 52 groups or cards, an ``extra`` that is not
            an integer from 0 (``bad_command``); a card code that does not parse (``bad_card``).
    """
    kind, seat = command_shape("giminaiciai", raw, _FIELDS)
    if kind == "draw":
        source = raw["source"]
        if not isinstance(source, str) or source not in SOURCES:
            raise _bad(f"draw: source {str(source)[:32]!r} is not 'stock' or 'discard' (R4.2)")
        return Draw(seat, source)
    if kind == "discard":
        return Discard(seat, _card(raw["card"], "discard: card"))
    groups = _groups(raw["groups"])
    discard_raw = raw.get("discard")
    discard = None if discard_raw is None else _card(discard_raw, "lay_down: discard")
    extra = raw.get("extra", 0)
    if isinstance(extra, bool) or not isinstance(extra, int) or extra < 0:
        raise _bad(f"lay_down: extra {str(extra)[:32]!r} is not an integer from 0 (R5.3)")
    return LayDown(seat, groups, discard, extra)


def command_payload(command: Command) -> Payload:
    """The plain-data form of a command (inverse of :func:`parse_command`).

    ``lay_down`` always carries ``extra`` and carries ``discard`` only when there is one;
    ``next_hand`` gives ``{"kind": "next_hand", "explicit": bool}``: its deal stays secret until
    the hand ends.
    """
    match command:
        case Draw(seat, source):
            return {"kind": "draw", "seat": seat, "source": source}
        case Discard(seat, card):
            return {"kind": "discard", "seat": seat, "card": card.code}
        case LayDown(seat, groups, discard, extra):
            out: Payload = {"kind": "lay_down", "seat": seat, "groups": [[c.code for c in g] for g in groups]}
            if discard is not None:
                out["discard"] = discard.code
            out["extra"] = extra
            return out
        case NextHand():
            return command.payload()


def canonical(command: LayDown) -> LayDown:
    """The lay-down in canonical form: each group's cards in canonical card order (S2.3), the groups
    ordered by their lowest card.  ``decide`` treats every ordering alike (R6.3, decision 13);
    ``legal_commands`` lists the canonical forms.

    >>> cmd = parse_command({"kind": "lay_down", "seat": 0, "groups": [["KS", "KC", "KD"], ["6H", "4H", "5H"]]})
    >>> command_payload(canonical(cmd))["groups"]
    [['KC', 'KD', 'KS'], ['4H', '5H', '6H']]
    """
    groups = tuple(sorted((tuple(sorted(g, key=lambda c: c.sort_key)) for g in command.groups), key=_group_key))
    return LayDown(command.seat, groups, command.discard, command.extra)


def _group_key(group: tuple[Card, ...]) -> tuple[tuple[int, int], ...]:
    return tuple(c.sort_key for c in group)
