"""Crazy Eights (Τρελά Οχτάρια): rules/crazy_eights.md, common mechanics rules/shedding-common.md.

2-7 players, one 52-card deck, seven cards each with two players and five with more (R3.2); an
8 turned up at the deal is buried in the middle of the stock (R3.3).  Match the top card by rank
or suit, or play an 8 (wild) and name the suit to follow; or draw one card, then play or pass.
The stock is never reshuffled: when it is empty a player who cannot play passes, and a full round
of such turns blocks the hand (R6.2).  The standard game is one hand: the first out wins, a
blocked hand goes to the lowest hand value (R6.3).  The points game plays hand after hand; the
player out scores the values left in the other hands (8 = 50, court cards and tens 10, aces 1)
until someone reaches 50 points a player (R6.4-R6.7).  Options (section 7): twos draw two, the
queen of spades draws five, jacks skip, aces reverse, draw until you can play.
"""

from __future__ import annotations

from trapoula.domain.bots import uniform
from trapoula.domain.events import Event
from trapoula.domain.game import GameSpec, decider
from trapoula.domain.games.crazy_eights import commands, rules
from trapoula.domain.games.crazy_eights import events as _crazy
from trapoula.domain.games.crazy_eights.bot import heuristic
from trapoula.domain.games.crazy_eights.commands import Command
from trapoula.domain.games.crazy_eights.options import CrazyEightsOptions, parse_options
from trapoula.domain.games.crazy_eights.state import CrazyEightsState, Phase
from trapoula.domain.games.crazy_eights.text import TEXT
from trapoula.domain.games.crazy_eights.views import seat_view
from trapoula.domain.games.shedding import engine
from trapoula.domain.games.shedding import events as _common


def _event_types() -> dict[str, type[Event]]:
    """Event name -> class: the common events Crazy Eights emits (S12, section 9: never a reshuffle,
    R4.5, nor a seat change), then its own; its ``HandEnded`` and ``MatchEnded`` replace the common
    classes of the same names."""
    common: tuple[type[Event], ...] = (
        _common.MatchStarted,
        _common.HandStarted,
        _common.CardsDealt,
        _common.StarterTurned,
        _common.TurnStarted,
        _common.CardPlayed,
        _common.CardsDrawn,
        _common.Passed,
        _common.TurnSkipped,
        _common.DirectionReversed,
        _common.SeedRevealed,
    )
    own: tuple[type[Event], ...] = (_crazy.StarterBuried, _crazy.HandEnded, _crazy.MatchEnded)
    return {cls.event_name(): cls for cls in (*common, *own)}


SPEC: GameSpec[CrazyEightsState, Command] = GameSpec(
    key="crazy_eights",
    title="Crazy Eights",
    summary="Crazy Eights: eights wild, one hand or a points game, optional action cards; 2-7 players.",
    min_players=2,
    max_players=7,
    **decider(rules, engine, commands),
    seat_view=seat_view,
    parse_options=parse_options,
    bot_levels={"random": uniform, "heuristic": heuristic},
    text=TEXT,
    event_types=_event_types(),
    event_rules=_common.EVENT_RULES,
    audit_rules=_common.AUDIT_RULES,
    acting=rules.acting,
    higher_totals_win=True,
    target_option="target_per_player",
)
"""Crazy Eights' game definition."""

__all__ = ["SPEC", "Command", "CrazyEightsOptions", "CrazyEightsState", "Phase"]
