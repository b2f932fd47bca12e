"""Crazy Eights' own events and fields (docs/rules/crazy_eights.md section 9).

The common events are in :mod:`trapoula.domain.games.shedding.events`.  Two of them carry more
here, as section 9 lists: ``HandEnded`` adds ``hand_values`` and ``MatchEnded`` adds ``tied``.
They are subclasses with the same event names, so the common mechanics (``evolve_common``) apply
to them unchanged and stored events decode by name (``SPEC.event_types``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from trapoula.domain.cards import CardCode
from trapoula.domain.events import Event
from trapoula.domain.games.shedding import events as common


@dataclass(frozen=True, slots=True)
class StarterBuried(Event):
    """An 8 turned up at the deal goes into the stock with ``position`` cards above it (R3.3).

    Applied between the two ``StarterTurned`` events: the 8 leaves the discard pile and goes
    ``position`` cards below the card about to be turned in its place.  ``card`` is public (it was
    seen face up); ``position`` is hidden until the hand ends.
    """

    hidden: ClassVar[frozenset[str]] = frozenset({"position"})
    card: CardCode
    """The buried 8 (public)."""
    position: int
    """Hidden: the cards above it once its replacement is turned, floor(k / 2) (R3.3)."""


@dataclass(frozen=True, slots=True)
class HandEnded(common.HandEnded):
    """The hand is over (S10.5, R6.1-R6.5): every hand revealed, its value, the points booked.

    ``reason`` is ``out`` or ``blocked``; ``winner`` is None for a blocked hand with a tie for the
    lowest value, and for every blocked hand of the points game (section 9).
    """

    hand_values: tuple[int, ...]
    """Each seat's hand value (R2.4, R6.2): 8 = 50, K Q J T = 10, A = 1, others face value."""


@dataclass(frozen=True, slots=True)
class MatchEnded(common.MatchEnded):
    """The match is over (R6.3, R6.6): ``reason`` ``single_hand`` or ``target``."""

    tied: tuple[int, ...]
    """The seats sharing the lowest hand value of a blocked single hand (R6.3), else empty."""


EVENT_TYPES: dict[str, type[Event]] = {
    cls.event_name(): cls
    for cls in (
        common.MatchStarted,
        common.HandStarted,
        common.CardsDealt,
        common.StarterTurned,
        common.TurnStarted,
        common.CardPlayed,
        common.CardsDrawn,
        common.Passed,
        common.TurnSkipped,
        common.DirectionReversed,
        common.SeedRevealed,
        StarterBuried,
        HandEnded,
        MatchEnded,
    )
}
"""Event name -> class, for ``GameSpec.event_types``: the common events Crazy Eights emits (S12,
section 9: never a reshuffle, R4.5, nor a seat change), then its own; its ``HandEnded`` and
``MatchEnded`` replace the common classes of the same names."""
