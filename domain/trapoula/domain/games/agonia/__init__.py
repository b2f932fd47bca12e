from trapoula.domain.game import GameSpec, decider, spec_fields
from trapoula.domain.games.agonia import bot, commands, events, options, rules, text, views
from trapoula.domain.games.agonia.commands import Command
from trapoula.domain.games.agonia.options import AgoniaOptions
from trapoula.domain.games.agonia.state import AgoniaState, Phase
from trapoula.domain.games.shedding import engine
from trapoula.domain.games.shedding import events as common_events

SPEC: GameSpec[AgoniaState, Command] = GameSpec(
    key="agonia",
    title="Agonia",
    summary="Greek Crazy Eights: aces wild, 7 draw-two stacking, 8 again, 9 skip; 2-4 players, match to a limit.",
    **decider(rules, engine, commands),
    **spec_fields(rules, views, options, bot, text, events, common_events),
)
"""Agonia's game definition."""

__all__ = ["SPEC", "AgoniaOptions", "AgoniaState", "Command", "Phase"]
