"""Common events of the shedding games (S12), plus ``TurnStarted`` and the seat changes.

Card fields carry card codes (``"7H"``).  Event classes live in this one stable module because
their import path and names are stored data.  ``PlayerJoined``, ``PlayerLeft`` and
``PlayerEliminated`` are emitted only by games whose rules let players join, leave or drop out
during a match (``mau_mau`` R6.6, R6.9, R6.10); per-seat lists of those games may hold ``None``
for a seat that takes no part in a hand (hand points) or whose player left (totals, R2.5).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from trapoula.domain import lifecycle as facts  # the event bases by module: engine.event_types lists the classes here
from trapoula.domain.cards import CardCode, SuitCode
from trapoula.domain.events import Event
from trapoula.domain.game import AuditRules
from trapoula.domain.lifecycle import HandReveal, MatchResult, Role, SeatJoined, SeatVacated
from trapoula.domain.lifecycle import MatchStarted as MatchStarted


@dataclass(frozen=True, slots=True)
class HandStarted(facts.StartsHand):
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
    deck: tuple[CardCode, ...]
    """Hidden: the whole deck order, top first."""
    reshuffles: tuple[tuple[CardCode, ...], ...]
    """Hidden: explicit reshuffle orders (S8.5); empty for a seeded deal."""


@dataclass(frozen=True, slots=True)
class CardsDealt(Event):
    """A seat's dealt hand (S5.2): the cards go to that seat only, the count is public."""

    private: ClassVar[frozenset[str]] = frozenset({"cards"})
    seat: int
    cards: tuple[CardCode, ...]
    """In canonical order (S2.3)."""
    count: int


@dataclass(frozen=True, slots=True)
class StarterTurned(Event):
    """The up-card is turned (S5.2), with what it does at once (agonia R3.4, R7.2)."""

    card: CardCode
    active_suit: SuitCode
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
    card: CardCode
    declared_suit: SuitCode | None
    active_suit: SuitCode
    announce: bool
    pending_draw: int
    """The pending draw after this play (S9.1)."""


@dataclass(frozen=True, slots=True)
class CardsDrawn(Event):
    """Cards go from the stock to a hand (S7.1): the cards to that seat only."""

    private: ClassVar[frozenset[str]] = frozenset({"cards"})
    seat: int
    cards: tuple[CardCode, ...]
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
    order: tuple[CardCode, ...]
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
class HandEnded(facts.ScoresHand):
    """The hand is over (S10.5): every hand revealed, points booked."""

    reason: str
    """``out`` or ``blocked`` (``mau_mau`` also ``abandoned``, R6.10.3)."""
    winner: int | None
    hands: tuple[tuple[CardCode, ...], ...]
    """Each seat's remaining cards, canonical order (a seat not in the hand: none)."""
    hand_points: tuple[int | None, ...]
    """Per seat; None for a seat that took no part in the hand (``mau_mau`` R2.5)."""
    totals: tuple[int | None, ...]
    """Per seat; None for a seat whose player left the match (``mau_mau`` R2.5, R6.10)."""


@dataclass(frozen=True, slots=True)
class SeedRevealed(Event):
    """The hand's seed and reshuffle orders are made public (S5.1, S12)."""

    seed: str | None
    """None for an explicit deal."""
    reshuffle_orders: tuple[tuple[CardCode, ...], ...]

    role: ClassVar[Role] = Role.HAND_REVEALED

    def lifecycle(self) -> HandReveal:
        """The hand's seed made public (S5.1)."""
        return HandReveal(self.seed)


@dataclass(frozen=True, slots=True)
class MatchEnded(Event):
    """The match is over (S12)."""

    winner: int | None
    totals: tuple[int | None, ...]
    """Per seat; None for a seat whose player left the match (``mau_mau`` R2.5)."""
    reason: str

    role: ClassVar[Role] = Role.MATCH_ENDED
    between_hands: ClassVar[bool] = True

    def lifecycle(self) -> MatchResult:
        """The match's result (S12): the totals and the winner, if any (the game's spec ranks the seats)."""
        return MatchResult(self.totals, () if self.winner is None else (self.winner,), ())


@dataclass(frozen=True, slots=True)
class PlayerJoined(Event):
    """A player takes a seat between hands and plays from the next hand (``mau_mau`` R6.9)."""

    seat: int
    """The lowest vacant seat number, else the next new one (R6.9.2)."""
    name: str
    computer: str | None
    """The computer player's skill (``easy``, ``medium``, ``hard``), None for a person (R7.2)."""
    total: int
    """His starting total: the lowest total among the seated players (R6.9.1)."""

    role: ClassVar[Role] = Role.SEAT_JOINED
    between_hands: ClassVar[bool] = True

    def lifecycle(self) -> SeatJoined:
        """The newcomer's seat (R6.9)."""
        return SeatJoined(self.seat, self.name, self.computer)


@dataclass(frozen=True, slots=True)
class PlayerLeft(Event):
    """A player leaves the match; his seat becomes vacant (``mau_mau`` R6.10).

    During a hand his cards go face down beneath the stock in ``order``, an order drawn from the
    hand's seed like a reshuffle and counted among the hand's reshuffles (S8.5, R6.10.2): hidden
    until ``SeedRevealed`` lists it with the reshuffle orders.
    """

    hidden: ClassVar[frozenset[str]] = frozenset({"order"})
    seat: int
    during_hand: bool
    """True when he left a hand in progress (R6.10.2), False between hands (R6.10.1)."""
    cards_to_stock: int
    """How many cards went beneath the stock (0 between hands)."""
    order: tuple[CardCode, ...]
    """Hidden: those cards, top first, as they went beneath the stock."""

    role: ClassVar[Role] = Role.SEAT_VACATED
    between_hands: ClassVar[bool] = True

    def lifecycle(self) -> SeatVacated:
        """The seat left vacant (R6.10)."""
        return SeatVacated(self.seat, "left")


@dataclass(frozen=True, slots=True)
class PlayerEliminated(Event):
    """A player's total reached the elimination limit; his seat becomes vacant (``mau_mau`` R6.6)."""

    seat: int
    total: int
    """His final total, kept in the standings."""

    role: ClassVar[Role] = Role.SEAT_VACATED
    between_hands: ClassVar[bool] = True

    def lifecycle(self) -> SeatVacated:
        """The seat left vacant by the elimination (R6.6)."""
        return SeatVacated(self.seat, "eliminated")


EVENT_RULES = {
    "HandStarted": "S5.2",
    "CardsDealt": "S5.2",
    "StarterTurned": "S5.2",
    "TurnStarted": "S3.7",
    "TurnSkipped": "S3.4",
    "DirectionReversed": "S3.5",
    "CardPlayed": "S6.4",
    "CardsDrawn": "S7.1",
    "StockReshuffled": "S8.5",
    "HandEnded": "S10.5",
    "SeedRevealed": "S5.1",
}
"""The rule a recorded common event breaks when it differs from the event the rules produce (the
audit's findings); the others cite S12."""

AUDIT_RULES = AuditRules(commands="S11", events="S12", seeded="S5.1", explicit="S5.3")
"""The shedding games' commands (S11), events (S12) and commitments (S5.1 seeded, S5.3 explicit)."""
