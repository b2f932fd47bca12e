from trapoula.domain.game import GameSpec, decider, spec_fields
from trapoula.domain.games.crazy_eights import bot, commands, events, options, rules, text, views
from trapoula.domain.games.crazy_eights.commands import Command
from trapoula.domain.games.crazy_eights.options import CrazyEightsOptions
from trapoula.domain.games.crazy_eights.state import CrazyEightsState, Phase
from trapoula.domain.games.shedding import engine
from trapoula.domain.games.shedding import events as common_events

SPEC: GameSpec[CrazyEightsState, Command] = GameSpec(
    key="crazy_eights",
    title="Crazy Eights",
    summary="Crazy Eights: eights wild, one hand or a points game, optional action cards; 2-7 players.",
    **decider(rules, engine, commands),
    **spec_fields(rules, views, options, bot, text, events, common_events),
)
"""Crazy Eights' game definition."""

__all__ = ["SPEC", "Command", "CrazyEightsOptions", "CrazyEightsState", "Phase"]
