"""Mau Mau's state: frozen, tuples only (STYLE habit 1).  Built only by ``rules.evolve``.

The zones, turn order, seat changes and hand bookkeeping are the shedding games' common state
(:class:`~trapoula.domain.games.shedding.state.ShedState`); this adds Mau Mau's own fields.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from trapoula.domain.games.mau_mau.options import MauMauOptions
from trapoula.domain.games.shedding.state import Phase, ShedState

__all__ = ["MauMauState", "Phase"]


@dataclass(frozen=True, slots=True)
class MauMauState(ShedState):
    """The whole state of a Mau Mau match, including the hand in progress (2-5 players, R2.2).

    ``n`` is the number of seat numbers in use (at most 5, R2.5); ``seated`` the seats with a
    player; ``vacant`` the seats taking no part in the hand (S3.2).
    """

    options: MauMauOptions = field(kw_only=True)
    mau_called: bool = False
    """The seat to act called "Mau" this turn (R5.6.1, R5.6.4)."""
    ace_pending: bool = False
    """The seat to act played an ace this turn and must now play or draw (R5.5.1)."""
