"""Crazy Eights' state: frozen, tuples only (STYLE habit 1).  Built only by ``rules.evolve``.

The zones, turn order and hand bookkeeping are the shedding games' common state
(:class:`~trapoula.domain.games.shedding.state.ShedState`); this adds Crazy Eights' own fields.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from trapoula.domain.cards import Card
from trapoula.domain.games.crazy_eights.options import CrazyEightsOptions
from trapoula.domain.games.shedding.state import Phase, ShedState

__all__ = ["CrazyEightsState", "Phase"]


@dataclass(frozen=True, slots=True)
class CrazyEightsState(ShedState):
    """The whole state of a Crazy Eights match, including the hand in progress (2-7 players, R2.2).

    ``direction`` is the real direction of play (R5.5); ``drawn`` is set by a voluntary draw this
    turn (R4.3, R5.6).
    """

    options: CrazyEightsOptions = field(kw_only=True)
    buried: tuple[Card, ...] = ()
    """The eights buried in the stock at this hand's deal, in burying order (R3.3)."""
    last_hand_values: tuple[int, ...] = ()
    """Each seat's hand value at the end of the last hand (R6.2, section 9)."""
    tied: tuple[int, ...] = ()
    """The seats that tied for the lowest value when a single hand ends the match in a tie (R6.3)."""
