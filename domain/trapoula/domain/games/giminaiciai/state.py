"""Giminaičiai's state: frozen, tuples only (STYLE habit 1).  Built only by ``rules.evolve``.

Per-seat tuples are indexed by seat 0..n-1.  The stock is held top first, the discard pile bottom
first (its top is the last card).
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

from trapoula.domain.cards import Card
from trapoula.domain.game import MatchConfig
from trapoula.domain.games.frozen import Memo
from trapoula.domain.games.giminaiciai.events import HandEnded
from trapoula.domain.games.giminaiciai.options import GiminaiciaiOptions

__all__ = ["GiminaiciaiState", "Phase"]


class Phase(enum.Enum):
    """Where the match stands."""

    NEW = "new"
    """Configured; no hand dealt yet (a deal is due)."""
    PLAY = "play"
    """A hand is being played (R4)."""
    HAND_OVER = "hand_over"
    """A hand ended and the match goes on (a deal is due, R8.3, R9.2)."""
    MATCH_OVER = "match_over"
    """One player alone has the highest total, at least the target (R9.1)."""


@dataclass(frozen=True, slots=True)
class GiminaiciaiState(Memo):
    """The whole state of a Giminaičiai match, including the hand in progress.

    The seat to act's legal commands are kept in the :class:`~trapoula.domain.games.frozen.Memo`
    slot once worked out."""

    config: MatchConfig
    options: GiminaiciaiOptions
    n: int
    """Number of players, 2-6 (R2.3)."""
    first_dealer: int
    """The dealer of the first hand (R3.1)."""
    totals: tuple[int, ...]
    """Match totals before the hand in progress (R8.3); the initial totals at first (R10.2)."""
    phase: Phase = Phase.NEW
    match_started: bool = False
    hand_no: int = 0
    dealer: int = -1
    """Dealer of the current (or last) hand; -1 before the first."""
    seed: str | None = None
    """Secret seed of the hand in progress (None for an explicit deal)."""
    deck: tuple[Card, ...] = ()
    """Secret deck of the hand in progress, top first (R3.6)."""
    commitment: str = ""
    explicit_deal: bool = False
    hands: tuple[tuple[Card, ...], ...] = ()
    """Each seat's cards, in the order received."""
    stock: tuple[Card, ...] = ()
    """Top first.  While the deal is under way it still holds the undealt cards."""
    pile: tuple[Card, ...] = ()
    """The discard pile, bottom first (R3.4, R4.4)."""
    turn_overs: int = 0
    """Turn-overs of the discard pile (R4.6) since the last lay-down of the hand in progress, or since
    its deal; at 2 the hand ends when the next turn would start (R8.4, ``rules.STALL_TURN_OVERS``)."""
    pile_draws: int = 0
    """Draws in a row from the discard pile (R4.2) since the last draw from the stock, the last
    lay-down or the deal; at 3 x n the hand ends when the next turn would start (R8.4,
    ``rules.STALL_PILE_DRAWS_PER_PLAYER``)."""
    to_act: int | None = None
    drawn: bool = False
    """The seat to act has drawn this turn (R4.2, R4.3)."""
    taken: Card | None = None
    """The card taken from the discard pile this turn, which may not be discarded (R4.5)."""
    finished: tuple[int, ...] = ()
    """Seats that have laid down, in the order they finished (R5.5)."""
    laid: tuple[tuple[tuple[Card, ...], ...], ...] = ()
    """Each seat's laid groups, as listed (empty for an unfinished seat)."""
    hand_points: tuple[int, ...] = ()
    """Points scored in the hand in progress (R7)."""
    last: HandEnded | None = None
    """The last finished hand."""
    winner: int | None = None
    """The winner of the match (R9)."""
