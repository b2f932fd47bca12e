"""Common events of the shedding games (S12), plus ``TurnStarted``.

Card fields carry card codes (``"7H"``).  Event classes live in this one stable module because
their import path and names are stored data.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from trapoula.domain.events import Event


@dataclass(frozen=True, slots=True)
class MatchStarted(Event):
    """The match begins (S12): the game, the seats, the options and where it starts from."""

    game: str
    names: tuple[str, ...]
    """Display name per seat."""
    bots: tuple[str | None, ...]
    """Bot level per seat, None for a person."""
    options: dict[str, Any]
    """Every option with its value (defaults filled in)."""
    first_dealer: int
    initial_totals: tuple[int, ...]
    """Each seat's score before the first hand (all 0 for a fresh match)."""


@dataclass(frozen=True, slots=True)
class HandStarted(Event):
    """A hand begins (S12, S5): the commitment is public, the deck order is hidden until it ends."""

    hidden: ClassVar[frozenset[str]] = frozenset({"seed", "deck", "reshuffles"})
    hand_no: int
    dealer: int
    first_player: int
    seats_in_hand: tuple[int, ...]
    explicit_deal: bool
    """True when the hand was dealt from an explicit deal (S5.3), not a seed."""
    commitment: str
    """H(seed), or the hash of the explicit deck order (S5.1, S5.3)."""
    seed: str | None
    """Hidden: the seed (None for an explicit deal); revealed by ``SeedRevealed``."""
    deck: tuple[str, ...]
    """Hidden: the whole deck order, top first."""
    reshuffles: tuple[tuple[str, ...], ...]
    """Hidden: explicit reshuffle orders (S8.5); empty for a seeded deal."""


@dataclass(frozen=True, slots=True)
class CardsDealt(Event):
    """A seat's dealt hand (S5.2): the cards go to that seat only, the count is public."""

    private: ClassVar[frozenset[str]] = frozenset({"cards"})
    seat: int
    cards: tuple[str, ...]
    """In canonical order (S2.3)."""
    count: int


@dataclass(frozen=True, slots=True)
class StarterTurned(Event):
    """The up-card is turned (S5.2), with what it does at once (agonia R3.4, R7.2)."""

    card: str
    active_suit: str
    pending_draw: int
    """The draw owed by the first player (2 for a 7 up-card, R3.4.1)."""
    chooser: int | None
    """The seat that must choose the suit first (agonia R7.2), else None."""


@dataclass(frozen=True, slots=True)
class TurnStarted(Event):
    """A seat's turn begins (S3.6, S3.7): per-turn limits start afresh."""

    seat: int


@dataclass(frozen=True, slots=True)
class CardPlayed(Event):
    """A card goes from a hand onto the discard pile (S6.4)."""

    seat: int
    card: str
    declared_suit: str | None
    active_suit: str
    announce: bool
    pending_draw: int
    """The pending draw after this play (S9.1)."""


@dataclass(frozen=True, slots=True)
class CardsDrawn(Event):
    """Cards go from the stock to a hand (S7.1): the cards to that seat only."""

    private: ClassVar[frozenset[str]] = frozenset({"cards"})
    seat: int
    cards: tuple[str, ...]
    """In the order drawn."""
    count: int
    reason: str
    """``draw``, ``penalty``, ``last_seven``, ``announce_penalty``."""


@dataclass(frozen=True, slots=True)
class StockReshuffled(Event):
    """The discard pile but its top card goes, shuffled, beneath the stock (S8.1)."""

    hidden: ClassVar[frozenset[str]] = frozenset({"order"})
    k: int
    count: int
    order: tuple[str, ...]
    """Hidden: the reshuffled cards, top first (S8.5)."""


@dataclass(frozen=True, slots=True)
class Passed(Event):
    """A seat ends its turn without playing (S11)."""

    seat: int


@dataclass(frozen=True, slots=True)
class TurnSkipped(Event):
    """A seat loses its turn (S3.4): ``nine``, ``starter_nine``, ``announce_penalty``."""

    seat: int
    reason: str


@dataclass(frozen=True, slots=True)
class DirectionReversed(Event):
    """The direction of play changes (S3.5)."""

    direction: int


@dataclass(frozen=True, slots=True)
class HandEnded(Event):
    """The hand is over (S10.5): every hand revealed, points booked."""

    reason: str
    """``out`` or ``blocked``."""
    winner: int | None
    hands: tuple[tuple[str, ...], ...]
    """Each seat's remaining cards, canonical order."""
    hand_points: tuple[int, ...]
    totals: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class SeedRevealed(Event):
    """The hand's seed and reshuffle orders are made public (S5.1, S12)."""

    seed: str | None
    """None for an explicit deal."""
    reshuffle_orders: tuple[tuple[str, ...], ...]


@dataclass(frozen=True, slots=True)
class MatchEnded(Event):
    """The match is over (S12)."""

    winner: int | None
    totals: tuple[int, ...]
    reason: str
