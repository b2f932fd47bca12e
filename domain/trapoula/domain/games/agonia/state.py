"""Agonia's state: frozen, tuples only (STYLE habit 1).  Built only by ``rules.evolve``."""

from __future__ import annotations

import enum
from dataclasses import dataclass

from trapoula.domain.cards import Card, Suit
from trapoula.domain.game import MatchConfig
from trapoula.domain.games.agonia.options import AgoniaOptions


class Phase(enum.Enum):
    """Where the match stands."""

    NEW = "new"
    """Configured; no hand dealt yet (a deal is due)."""
    PLAYING = "playing"
    """A hand is in progress."""
    HAND_OVER = "hand_over"
    """A hand ended and the match did not (a deal is due, R6.10)."""
    MATCH_OVER = "match_over"
    """The match is decided (R6.8)."""


@dataclass(frozen=True, slots=True)
class AgoniaState:
    """The whole state of an Agonia match, including the hand in progress."""

    config: MatchConfig
    options: AgoniaOptions
    n: int
    """Number of players (2-4, R2.2)."""
    phase: Phase = Phase.NEW
    hand_no: int = 0
    dealer: int = -1
    """Dealer of the current (or last) hand; -1 before the first."""
    first_player: int = 0
    totals: tuple[int, ...] = ()
    last_winner: int | None = None
    """Who went out in the previous hand (R7.2.3), None after a blocked hand."""
    match_winner: int | None = None
    hands: tuple[tuple[Card, ...], ...] = ()
    stock: tuple[Card, ...] = ()
    """Top first."""
    discard: tuple[Card, ...] = ()
    """Bottom first: the last card is the top card."""
    active_suit: Suit | None = None
    pending_draw: int = 0
    to_act: int | None = None
    drawn: bool = False
    """A voluntary card was drawn this turn (R4.3)."""
    turn_active: bool = False
    """A card was played or drawn this turn (for the blocked-hand count, S10.4)."""
    idle_turns: int = 0
    """Turns in a row ended without playing or drawing a card (S10.4)."""
    chooser: int | None = None
    """Seat that must choose the suit on an ace up-card (R7.2.2)."""
    skip_owed: frozenset[int] = frozenset()
    """Seats that lose their next turn for a missed announcement (R7.5.2 ``skip_turn``)."""
    extra_points: tuple[int, ...] = ()
    """Ten-point announcement penalties this hand (R7.5.2 ``ten_points``)."""
    seed: str | None = None
    """Secret seed of the hand in progress (None for an explicit deal)."""
    reshuffle_seed: str = ""
    """What reshuffle orders derive from: the seed, or the explicit deck's hash (S8.5)."""
    explicit_reshuffles: tuple[tuple[Card, ...], ...] = ()
    reshuffle_orders: tuple[tuple[Card, ...], ...] = ()
    """Orders of the reshuffles done in this hand, for ``SeedRevealed``."""
    commitment: str = ""
    explicit_deal: bool = False
    last_hand_points: tuple[int, ...] = ()
    last_hands: tuple[tuple[Card, ...], ...] = ()
    last_reason: str = ""

    @property
    def top_card(self) -> Card | None:
        """The top card of the discard pile."""
        return self.discard[-1] if self.discard else None

    def next_seat(self, seat: int) -> int:
        """The seat to the left (S3.2; Agonia never reverses, R2.3)."""
        return (seat + 1) % self.n

    def can_draw(self) -> bool:
        """True unless the stock is empty and the discard pile holds only its top card (R4.7, S7.3)."""
        return bool(self.stock) or len(self.discard) > 1
