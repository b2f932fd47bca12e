"""Agonia's state: frozen, tuples only (STYLE habit 1).  Built only by ``rules.evolve``.

The zones, turn order and hand bookkeeping are the shedding games' common state
(:class:`~trapoula.domain.games.shedding.state.ShedState`); this adds Agonia's own fields.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from trapoula.domain.games.agonia.options import AgoniaOptions
from trapoula.domain.games.shedding.state import Phase, ShedState

__all__ = ["AgoniaState", "Phase"]


@dataclass(frozen=True, slots=True)
class AgoniaState(ShedState):
    """The whole state of an Agonia match, including the hand in progress (2-4 players, R2.2).

    Agonia never reverses (R2.3) and has no vacant seats, so ``direction`` stays +1.
    """

    options: AgoniaOptions = field(kw_only=True)
    chooser: int | None = None
    """Seat that must choose the suit on an ace up-card (R7.2.2)."""
    skip_owed: frozenset[int] = frozenset()
    """Seats that lose their next turn for a missed announcement (R7.5.2 ``skip_turn``)."""
    extra_points: tuple[int, ...] = ()
    """Ten-point announcement penalties this hand (R7.5.2 ``ten_points``)."""
