"""Crazy Eights' commands (docs/rules/crazy_eights.md section 8): the shedding games' common ones (S11).

``play`` names the suit to follow with an 8 (R5.1.2); ``draw`` draws one card (R4.2, R5.6.1) or
takes the whole pending draw (R5.2.2, R5.3.2); ``pass`` ends the turn (R4.3, R4.4, R5.6.3); the
table's ``next_hand`` deals the next hand of a points game (R6.7).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeAlias

from trapoula.domain.events import Payload
from trapoula.domain.game import NextHand as NextHand
from trapoula.domain.game import command_seat as command_seat
from trapoula.domain.games.shedding.commands import Draw, Pass, Play, card_and_suit, kind_of, payload, seat_of

__all__ = [
    "SEAT_COMMANDS",
    "Command",
    "Draw",
    "NextHand",
    "Pass",
    "Play",
    "command_payload",
    "command_seat",
    "parse_command",
]

Command: TypeAlias = Play | Draw | Pass | NextHand
"""Every Crazy Eights command."""

SEAT_COMMANDS = ("play", "draw", "pass")
"""The kinds of the seat commands (section 8)."""

_FIELDS: dict[str, frozenset[str]] = {
    "play": frozenset({"kind", "seat", "card", "suit"}),
    "draw": frozenset({"kind", "seat"}),
    "pass": frozenset({"kind", "seat"}),
}


def parse_command(raw: Mapping[str, Any]) -> Command:
    """Build a seat command from plain data (section 8).

    Shapes: ``{"kind": "play", "seat": 1, "card": "8H", "suit": "S"}`` (``suit`` optional),
    ``{"kind": "draw", "seat": 1}``, ``{"kind": "pass", "seat": 1}``.  ``next_hand`` is not built
    here: its deal comes from the table (``rules.deal_command``).

    Raises:
        InvalidInput: an unknown kind or field (``bad_command``), a seat that is not an integer
            (``bad_seat``), a bad card code (``bad_card``, S2.1) or suit letter (``bad_suit``, S6.3).
    """
    kind = kind_of("crazy_eights", raw, _FIELDS)
    seat = seat_of(raw)
    if kind == "draw":
        return Draw(seat)
    if kind == "pass":
        return Pass(seat)
    return Play(seat, *card_and_suit(raw))


def command_payload(command: Command) -> Payload:
    """The plain-data form of a command (inverse of :func:`parse_command`); a ``next_hand`` gives
    ``{"kind": "next_hand", "explicit": bool}``: its deal stays secret until the hand ends."""
    return payload(command)
