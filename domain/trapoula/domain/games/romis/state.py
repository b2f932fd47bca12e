"""Romis su iškritimu's state: frozen, tuples only (STYLE habit 1).  Built only by ``rules.evolve``.

Per-seat tuples are indexed by seat 0..n-1.  The stock is held top first; hands, revealed cards and
companions in the order received, revealed or laid.  Besides the cards, the state remembers what the
views may show to whom: the auxiliary slots turned up in the current attempt (``aux_pending``) are
known to their owner only until the round resolves (R5.4, R6.4).
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

from trapoula.domain.cards import Card
from trapoula.domain.game import MatchConfig
from trapoula.domain.games.frozen import construct_quickly
from trapoula.domain.games.romis.events import HandEnded, RoundResolved
from trapoula.domain.games.romis.options import RomisOptions

__all__ = ["Phase", "RomisState", "Shuffle", "Submission"]


class Phase(enum.Enum):
    """Where the match stands."""

    NEW = "new"
    """Configured; no hand dealt yet (a deal is due)."""
    PLAY = "play"
    """A hand is being played (R4)."""
    HAND_OVER = "hand_over"
    """A hand ended and the match goes on (a deal is due, R10.9, R11.2)."""
    MATCH_OVER = "match_over"
    """One player alone has the highest total, at least the target (R11.1)."""


@dataclass(frozen=True, slots=True)
class Submission:
    """A seat's sealed submission in the current attempt (R5.1, R5.2): the last one with ``resubmit``."""

    kind: str
    """``reveal`` or ``cannot``."""
    cards: tuple[Card, ...]
    """The cards to reveal, canonical order (empty for ``cannot``)."""
    companions: tuple[Card, ...]
    """The companions of a new combination (R8.2), canonical order; empty otherwise."""
    nonce: str
    commitment: str
    companions_digest: str | None = None
    """The digest of the companions a reveal commits to (sealing), None for ``cannot``."""


construct_quickly(Submission)  # made at every sealed submission


@dataclass(frozen=True, slots=True)
class Shuffle:
    """One shuffle of the hand, to be revealed when it ends (R3.2): the deal, a restock, the redeal."""

    purpose: str
    """``deal``, ``eliminated_pile`` or ``redeal``."""
    label: str
    """``deal``, ``eliminated_pile/<k>`` or ``redeal`` (sealing)."""
    order: tuple[Card, ...]
    """The shuffled cards, top first."""


@dataclass(frozen=True, slots=True)
class RomisState:
    """The whole state of a Romis su iškritimu match, including the hand in progress."""

    config: MatchConfig
    options: RomisOptions
    n: int
    """Number of players, 2-4 (R2.3)."""
    first_dealer: int
    """The dealer of the first hand (R3.1)."""
    totals: tuple[int, ...]
    """Match totals before the hand in progress (R10.9); the initial totals at first (R12.2)."""
    next_bonus_factor: int
    """The bonus factor of the next hand to be dealt (R10.6, R12.3)."""
    phase: Phase = Phase.NEW
    match_started: bool = False
    hand_no: int = 0
    dealer: int = -1
    """Dealer of the current (or last) hand; -1 before the first."""
    bonus_factor: int = 1
    """The bonus factor of the hand in progress (R10.6)."""
    seed: str | None = None
    """Secret seed of the hand in progress (None for an explicit deal)."""
    secret: str = ""
    """The hand's secret: the seed, or the explicit deck's hash (sealing)."""
    deck: tuple[Card, ...] = ()
    """Secret deck of the hand in progress, top first (R3.6)."""
    commitment: str = ""
    """The deal's commitment (R3.2)."""
    explicit_deal: bool = False
    hands: tuple[tuple[Card, ...], ...] = ()
    """Each seat's hand: dealt cards and auxiliary cards turned up (R6.1)."""
    aux: tuple[tuple[Card, ...], ...] = ()
    """Each seat's two auxiliary cards, slot 1 first, used or not (R3.4)."""
    aux_used: tuple[int, ...] = ()
    """How many auxiliary cards each seat has turned up (slots 1..aux_used, R6.2)."""
    aux_pending: tuple[tuple[int, ...], ...] = ()
    """The slots each seat turned up in the current attempt: not public before the round resolves (R6.4)."""
    revealed: tuple[tuple[Card, ...], ...] = ()
    """Each seat's face-up cards, in the order revealed (R4.1)."""
    companions: tuple[tuple[Card, ...], ...] = ()
    """Each seat's face-down companions (R8.2, R8.3)."""
    live: tuple[bool, ...] = ()
    """False for a seat eliminated from the hand in progress (R7.1)."""
    round: int = 0
    attempt: int = 0
    required: int = 0
    submissions: tuple[Submission | None, ...] = ()
    """Each seat's sealed submission in the current attempt, None before it submits."""
    serials: tuple[int, ...] = ()
    """Each seat's submissions so far in the current attempt (the nonce's serial, sealing)."""
    stock: tuple[Card, ...] = ()
    """Top first.  While the deal is under way it still holds the undealt cards."""
    pile: tuple[Card, ...] = ()
    """The eliminated pile, in the order set aside (R7.3)."""
    shuffles: tuple[Shuffle, ...] = ()
    """Every shuffle of the hand in progress, the deal first (R3.2, R9.1, R9.3)."""
    restocks: int = 0
    """Shuffles of the eliminated pile so far in this hand (R9.1)."""
    redealt: bool = False
    """The hand's one redeal has happened (R9.3)."""
    hand_points: tuple[int, ...] = ()
    """Points scored in the hand in progress (R7.2, R10)."""
    eliminated_hands: tuple[tuple[Card, ...], ...] = ()
    """Each eliminated seat's hand when it dropped out (R7.3)."""
    last_round: RoundResolved | None = None
    """The last resolved round of the hand in progress (or of the last hand)."""
    last: HandEnded | None = None
    """The last finished hand."""
    winner: int | None = None
    """The winner of the match (R11)."""
