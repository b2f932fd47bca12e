"""Giminaičiai ("Relatives"): docs/rules/giminaiciai.md -- a rummy-family going-out game for 2 to 6 players.

One 52-card deck, 7 cards each, one starter on the discard pile (R3).  On his turn a player draws
from the stock or the discard pile and discards, or lays down his whole hand in one or two groups
of related cards (R4, R5): a group is a main set or sequence with relatives hung directly on its
main cards, never on a relative (R6, with the rank cycle 2..A..2 of R2.5; the groups are judged by
the shared :mod:`trapoula.domain.games.relatives`).  He may keep or discard an 8th card and take
further fitting cards from the top of the pile (R5.2, R5.3).  The first to lay down scores 10,
every finisher 2^(N-7) - 1 for N cards laid, and each finished player 1 for every card the others
take (R7).  The hand ends when everybody has laid down or both piles are empty (R8), or when it
stalls (R8.4, formerly the product's decision T1): the discard pile turned over twice, or taken from
3 x n times in a row, with no lay-down in between (``stalled``, see
:mod:`~trapoula.domain.games.giminaiciai.rules`);
the match is played to ``target_score`` (200), ties playing on (R9).  Options (section 7): ``target_score``; the
initial totals of R10.2 are the match's ``initial_totals``.

Legal lay-downs (``legal_commands``): every legal lay-down is listed, in canonical form
(:func:`~trapoula.domain.games.giminaiciai.commands.canonical`): each split of the hand, or of the
hand but one discard, into one or two legal groups, with 0, 1, ... extra cards from the pile placed
in every way they fit (:mod:`~trapoula.domain.games.giminaiciai.laying`).  ``decide`` accepts the
same lay-down with its groups, or the cards of a group, in any order.  Measured sizes: in 30 matches
of heuristic bots (2-6 players, 334 hands, 18,724 turns after the draw) 1,128 turns offered a
lay-down, 3.8 on average, 21 at the 99th percentile, 88 at most; 20,000 random 8-card hands with a
random 10-card pile: 75 offered one, 18 at most.  Constructed extremes: KC KD KH KS QC QD QH QS gives
62; 5C 5D 5H 5S 6C 6D 6H 6S with a pile of the four 4s and four 7s, every card fitting, 1,066 (about
70 ms); with 16 such pile cards 7,417 (about 0.6 s) -- a pile no game is likely to build.
"""

from __future__ import annotations

from trapoula.domain.game import GameSpec, decider, spec_fields
from trapoula.domain.games.giminaiciai import bot, commands, events, options, rules, text, views
from trapoula.domain.games.giminaiciai.commands import Command
from trapoula.domain.games.giminaiciai.options import GiminaiciaiOptions
from trapoula.domain.games.giminaiciai.state import GiminaiciaiState, Phase

SPEC: GameSpec[GiminaiciaiState, Command] = GameSpec(
    key="giminaiciai",
    title="Giminaičiai",
    summary="Giminaičiai (Relatives): Lithuanian rummy for 2-6; lay down the whole hand in groups of related cards.",
    **decider(rules, rules.PHASES, commands),
    **spec_fields(rules, views, options, bot, text, events),
)
"""Giminaičiai's game definition."""

__all__ = ["SPEC", "Command", "GiminaiciaiOptions", "GiminaiciaiState", "Phase"]
