"""Top Card's events (section 9 of the game's rules, in the package docstring).

Card fields carry card codes (``"7H"``).  The events that play a platform role carry its lifecycle
fact (:mod:`trapoula.domain.lifecycle`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from trapoula.domain.events import Event
from trapoula.domain.lifecycle import HandReveal, HandScore, MatchResult, MatchStarted, Role, StartsHand

__all__ = [
    "EVENT_TYPES",
    "CardPlayed",
    "CardsDealt",
    "HandEnded",
    "HandStarted",
    "MatchEnded",
    "SeedRevealed",
    "TrickWon",
]


@dataclass(frozen=True, slots=True)
class HandStarted(StartsHand):
    """A hand begins (T3): its dealer and the commitment to its deal; seed and deck hidden."""

    hidden: ClassVar[frozenset[str]] = frozenset({"seed", "deck"})
    hand_no: int
    dealer: int
    explicit_deal: bool
    commitment: str
    seed: str | None
    deck: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class CardsDealt(Event):
    """A seat's three cards (T3), seen by that seat only."""

    private: ClassVar[frozenset[str]] = frozenset({"cards"})
    seat: int
    cards: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class CardPlayed(Event):
    """A seat plays a card to the trick (T4)."""

    seat: int
    card: str


@dataclass(frozen=True, slots=True)
class TrickWon(Event):
    """The highest card takes the trick and a point (T5)."""

    seat: int
    trick_no: int


@dataclass(frozen=True, slots=True)
class HandEnded(Event):
    """The hand's three tricks are played (T6): each seat's points in it and the totals."""

    role: ClassVar[Role] = Role.HAND_SCORED
    winner: int | None
    hand_points: tuple[int, ...]
    totals: tuple[int, ...]

    def lifecycle(self) -> HandScore:
        """The hand's score (T6)."""
        return HandScore("tricks", self.winner, self.hand_points, self.totals)


@dataclass(frozen=True, slots=True)
class SeedRevealed(Event):
    """The hand's seed is made public (T3); None for an explicit deal."""

    role: ClassVar[Role] = Role.HAND_REVEALED
    seed: str | None

    def lifecycle(self) -> HandReveal:
        """The revealed seed."""
        return HandReveal(self.seed)


@dataclass(frozen=True, slots=True)
class MatchEnded(Event):
    """A total reached the target (T7): the highest total wins, nobody on a tie."""

    role: ClassVar[Role] = Role.MATCH_ENDED
    between_hands: ClassVar[bool] = True
    winner: int | None
    totals: tuple[int, ...]

    def lifecycle(self) -> MatchResult:
        """The match's result (T7); the spec ranks the seats by total."""
        return MatchResult(self.totals, () if self.winner is None else (self.winner,), ())


EVENT_TYPES: dict[str, type[Event]] = {
    cls.event_name(): cls
    for cls in (MatchStarted, HandStarted, CardsDealt, CardPlayed, TrickWon, HandEnded, SeedRevealed, MatchEnded)
}
"""Event name -> class."""
