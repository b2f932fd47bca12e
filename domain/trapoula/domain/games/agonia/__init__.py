"""Agonia (Αγωνία), the Greek Crazy Eights: rules/agonia.md, common mechanics rules/shedding-common.md.

2-4 players, one 52-card deck, seven cards each.  Match the top card by rank or suit, or draw.
Aces are wild (never on an ace, never last), sevens make the next player draw two (stackable),
eights give another turn, nines skip the next player.  The first out scores 0, the others the
points in their hands; a match goes until a total exceeds the target and the lowest total wins.
"""

from __future__ import annotations

from trapoula.domain.bots import uniform
from trapoula.domain.game import GameSpec, decider
from trapoula.domain.games.agonia import commands, rules
from trapoula.domain.games.agonia import events as _agonia_events
from trapoula.domain.games.agonia.bot import heuristic
from trapoula.domain.games.agonia.commands import Command
from trapoula.domain.games.agonia.options import AgoniaOptions, parse_options
from trapoula.domain.games.agonia.state import AgoniaState, Phase
from trapoula.domain.games.agonia.text import TEXT
from trapoula.domain.games.agonia.views import seat_view
from trapoula.domain.games.shedding import engine
from trapoula.domain.games.shedding import events as _shedding_events

SPEC: GameSpec[AgoniaState, Command] = GameSpec(
    key="agonia",
    title="Agonia",
    summary="Greek Crazy Eights: aces wild, 7 draw-two stacking, 8 again, 9 skip; 2-4 players, match to a limit.",
    min_players=2,
    max_players=4,
    **decider(rules, engine, commands),
    seat_view=seat_view,
    parse_options=parse_options,
    bot_levels={"random": uniform, "heuristic": heuristic},
    text=TEXT,
    event_types=engine.event_types(_shedding_events, _agonia_events),
    event_rules=_shedding_events.EVENT_RULES,
    audit_rules=_shedding_events.AUDIT_RULES,
    target_option="target_points",
)
"""Agonia's game definition."""

__all__ = ["SPEC", "AgoniaOptions", "AgoniaState", "Command", "Phase"]
