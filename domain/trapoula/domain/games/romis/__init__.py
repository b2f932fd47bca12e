"""Romis su iškritimu ("Rummy with elimination"): docs/rules/romis.md -- an elimination game for 2 to 4 players.

One 52-card deck; each player gets 5 cards and 2 face-down auxiliary cards (R3).  In sealed rounds
every live player reveals at the same moment (R5): 2 related cards, then after 3 more cards 2 more,
then after 1 more card 1 card per round, each related to his own revealed cards (R4; relatedness with
the ace high only, R2.5, judged by the shared :mod:`trapoula.domain.games.relatives`).  A player with
no legal reveal turns up his auxiliary cards (R6) and, if still stuck, drops out scoring his revealed
cards (R7); if nobody can reveal, everybody gets an extra card (R7.4); a stuck player with two related
cards may start a new combination from round 3 (R8); empty stocks are refilled from the eliminated
pile, or by one redeal of the hands (R9).  The last player left lays down what fits and scores 1, 2
or 4 per revealed card plus the bonus (R10); the match is played to ``target_score`` (100), ties
playing on (R11).

Submissions are sealed with hash commitments and opened together when the round resolves
(:mod:`~trapoula.domain.games.romis.sealing`); until then the others see only that a seat has
submitted -- not even that it turned up an auxiliary card (``AuxiliaryUsed`` is withheld, R5.4); the
audit checks every opening against its seal (:mod:`~trapoula.domain.games.romis.record`).
Options (section 7): ``target_score``, ``carried_bonus_factor`` and trapoula's ``resubmit``
(R12.4, formerly decision T1); the initial totals of R12.2 are the match's
``initial_totals``.
"""

from __future__ import annotations

from trapoula.domain.game import GameSpec, decider, spec_fields
from trapoula.domain.games.romis import bot, commands, events, options, rules, text, views
from trapoula.domain.games.romis.commands import Command
from trapoula.domain.games.romis.options import RomisOptions
from trapoula.domain.games.romis.record import check_record
from trapoula.domain.games.romis.state import Phase, RomisState

SPEC: GameSpec[RomisState, Command] = GameSpec(
    key="romis",
    title="Romis su iškritimu",
    summary="Romis su iškritimu (Rummy with elimination): Lithuanian, 2-4; reveal related cards in sealed rounds.",
    **decider(rules, rules.PHASES, commands),
    **spec_fields(rules, views, options, bot, text, events),
    record_checks=check_record,
)
"""Romis su iškritimu's game definition."""

__all__ = ["SPEC", "Command", "Phase", "RomisOptions", "RomisState"]
