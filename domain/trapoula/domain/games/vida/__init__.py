"""Vida (Βίδα): docs/rules/vida.md -- a Belote-family partnership trick-taking game for four players.

Two teams (seats 0 and 2, seats 1 and 3) play with 32 cards, 8 each, dealt 3-2-3 (R3.3).  An
auction fixes the trump suit and the contract: points (a multiple of 10, at least 80) the bidding
team promises; the defenders may double ("vida"), the bidders redouble, up to a fourth vida
(x2, x4, x6, x8; R4.2-R4.8).  The teams' declarations (sequences, four-of-a-kinds) are compared
and only the best team scores them (R5.2-R5.8); king and queen of trumps announced when played
score 20 (belote, R5.9).  Eight tricks with strict duties: follow suit, else trump, always
over-trump (R4.9-R4.14).  152 card points plus 10 for the last trick; the bidders must reach their
bid and outscore the defenders, else the defenders book everything (R6.1-R6.7).  A team passing
3550 wins a game, two games win the match (R6.9, R6.10).  Options (section 7): open vida
(3-2-2 deal and a face-up widow the contract holder takes and gives away, R3.4, R5.1), the Cypriot
Pilotta declaration timing, the outscore rule, the all-pass dealer, who bids and leads first,
the target and the games needed, the first dealer, and the table's bid cap ``max_bid``.
"""

from __future__ import annotations

from trapoula.domain.game import GameSpec, decider, spec_fields
from trapoula.domain.games.vida import bot, commands, events, options, rules, text, views
from trapoula.domain.games.vida.commands import Command
from trapoula.domain.games.vida.options import VidaOptions
from trapoula.domain.games.vida.state import Phase, VidaState

SPEC: GameSpec[VidaState, Command] = GameSpec(
    key="vida",
    title="Vida",
    summary="Vida (Βίδα): Greek Belote for four in two teams; auction with vida doublings, declarations, belote.",
    **decider(rules, rules.PHASES, commands),
    **spec_fields(rules, views, options, bot, text, events),
)
"""Vida's game definition."""

__all__ = ["SPEC", "Command", "Phase", "VidaOptions", "VidaState"]
