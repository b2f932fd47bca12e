"""Mau Mau (the online Αγωνία): docs/rules/mau_mau.md, common mechanics docs/rules/shedding-common.md.

2-5 players, two 52-card decks (104 cards), seven cards each.  Match the top card by rank or
suit, or draw one card, which ends the turn.  Jacks are wild and choose the suit, sevens make the
next player draw two (stackable), eights skip the next player, nines reverse the direction, aces
let their player play another card.  "Mau" must be called before the next-to-last card, else two
penalty cards.  The first out ends the hand; the others score minus the points left in their
hands; a player whose total reaches the elimination limit is out, and the last player left wins.
Players may join between hands and leave at any time (``GameSpec.seat_changes``); computer
players of skill ``easy``, ``medium`` or ``hard`` may fill seats (R7.2).

Commands (plain data, ``parse_command``): seat commands ``play {card, suit?}``, ``draw``,
``pass``, ``mau``, ``leave``; the table's ``join {name, computer}`` and ``next_hand``
(``deal_command``).  ``legal_commands`` lists ``leave`` for every seated player at every moment;
``acting`` names the seat the match waits for.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from trapoula.domain.game import GameSpec, decider, spec_fields
from trapoula.domain.games.mau_mau import bot, commands, events, options, rules, text, views
from trapoula.domain.games.mau_mau.commands import Command, join_command
from trapoula.domain.games.mau_mau.options import MauMauOptions, parse_options
from trapoula.domain.games.mau_mau.state import MauMauState, Phase
from trapoula.domain.games.shedding import engine
from trapoula.domain.games.shedding import events as common_events


def _preset_bots(options: Any) -> dict[int, str]:
    """Seat -> skill of the ``computer_seats`` option (R7.2), from parsed or plain options.

    Raises:
        InvalidInput: plain options that are not valid (``bad_option``).
    """
    if isinstance(options, Mapping):
        options = parse_options(options)
    return dict(rules.preset_bots(options)) if isinstance(options, MauMauOptions) else {}


SPEC: GameSpec[MauMauState, Command] = GameSpec(
    key="mau_mau",
    title="Mau Mau",
    summary="Online Agonia / Mau Mau: 104 cards, J wild, 7 draw-two, 8 skip, 9 reverse, A again, 'Mau' call, "
    "elimination; 2-5 players who may join and leave.",
    **decider(rules, engine, commands),
    **spec_fields(views, options, bot, text, commands, events, common_events),
    min_players=rules.MIN_PLAYERS,
    max_players=rules.MAX_PLAYERS,
    acting=rules.acting,
    preset_bots=_preset_bots,
)
"""Mau Mau's game definition."""

__all__ = ["SPEC", "Command", "MauMauOptions", "MauMauState", "Phase", "join_command"]
