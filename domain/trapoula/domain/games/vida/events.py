"""Vida's events (docs/rules/vida.md section 9).  Their module path and class names are stored data.

Card fields carry card codes (``"TS"``); suits their letters (``"H"``); pairs are ``(team 0, team 1)``.
``MatchStarted`` is the platform's (:class:`trapoula.domain.games.shedding.events.MatchStarted`,
re-exported here): ``initial_totals`` holds the two team totals of the game in progress.

Visibility (section 9): ``HandStarted.seed`` and ``HandStarted.deck`` are hidden until the hand ends
(``ShuffleRevealed`` publishes them); ``CardsDealt.cards`` go to the dealt seat only;
``CardGiven.card`` to the giver and the receiver only (R5.1, D30).  Every other field is public.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass
from typing import Any, ClassVar

from trapoula.domain.cards import CardCode, SuitCode
from trapoula.domain.events import Event, listed_events
from trapoula.domain.game import AuditRules
from trapoula.domain.lifecycle import (
    HandScore,
    MatchResult,
    MatchStarted,
    RevealsSalt,
    Role,
    StartsHand,
)

TEAMS = ((0, 2), (1, 3))
"""The partnerships (R2.3): team 0 is seats 0 and 2, team 1 seats 1 and 3."""

__all__ = [
    "AuctionClosed",
    "BeloteAnnounced",
    "BidMade",
    "CardGiven",
    "CardPlayed",
    "CardsDealt",
    "DeclarationAnnounced",
    "DeclarationsResolved",
    "GameWon",
    "HandAnnulled",
    "HandScored",
    "HandStarted",
    "MatchEnded",
    "MatchStarted",
    "Passed",
    "ShuffleRevealed",
    "TrickTaken",
    "VidaCalled",
    "WidowExposed",
    "WidowTaken",
]

EVENT_RULES = {
    "MatchStarted": "R3.1",
    "HandStarted": "R3.2",
    "CardsDealt": "R3.3",
    "WidowExposed": "R3.4",
    "BidMade": "R4.3",
    "Passed": "R4.4",
    "VidaCalled": "R4.5",
    "AuctionClosed": "R4.7",
    "HandAnnulled": "R4.8",
    "WidowTaken": "R5.1",
    "CardGiven": "R5.1",
    "DeclarationAnnounced": "R5.8",
    "DeclarationsResolved": "R5.5",
    "CardPlayed": "R4.10",
    "BeloteAnnounced": "R5.9",
    "TrickTaken": "R4.14",
    "HandScored": "R6.3",
    "ShuffleRevealed": "R3.2",
    "GameWon": "R6.9",
    "MatchEnded": "R6.10",
}
"""The rule a recorded event breaks when it is not what the rules produce (the audit's findings)."""


@dataclass(frozen=True, slots=True)
class HandStarted(StartsHand):
    """A hand begins (R3.2, R4.1): its commitment is public before any card is dealt.

    ``commitment`` is the lowercase hex SHA-256 of ``salt + ":" + ",".join(deck)`` (R3.2), where the
    salt is the hand's seed (64 hex digits) for a seeded deal and ``""`` for an explicit one.
    """

    hidden: ClassVar[frozenset[str]] = frozenset({"seed", "deck"})
    hand_no: int
    """1, 2, ... over the whole match (annulled hands count)."""
    game_no: int
    """The game the hand belongs to: 1, 2, ... (R6.9, R6.10)."""
    dealer: int
    explicit_deal: bool
    """True for a deal given explicitly (R3.2, for tests and audits)."""
    commitment: str
    seed: str | None
    """Hidden: the seed (None for an explicit deal); ``ShuffleRevealed.salt`` reveals it."""
    deck: tuple[CardCode, ...]
    """Hidden: the 32 codes, top first (R3.2)."""


@dataclass(frozen=True, slots=True)
class CardsDealt(Event):
    """One seat's dealt cards (R3.3, R3.4), in the order of their deck positions; one event per seat,
    seats dealer+1, dealer+2, dealer+3, dealer."""

    private: ClassVar[frozenset[str]] = frozenset({"cards"})
    seat: int
    cards: tuple[CardCode, ...]
    """8 cards, or 7 with ``open_vida``; seen by ``seat`` only."""
    count: int


@dataclass(frozen=True, slots=True)
class WidowExposed(Event):
    """Open vida: deck[28..31] laid face up, in that order (R3.4, D29)."""

    cards: tuple[CardCode, ...]


@dataclass(frozen=True, slots=True)
class BidMade(Event):
    """A bid of ``points`` with ``suit`` as trumps (R4.3)."""

    seat: int
    points: int
    suit: SuitCode


@dataclass(frozen=True, slots=True)
class Passed(Event):
    """A pass in the auction (R4.4)."""

    seat: int


@dataclass(frozen=True, slots=True)
class VidaCalled(Event):
    """A vida call raising the level of the current bid (R4.5): level 1-4, multiplier 2/4/6/8."""

    seat: int
    level: int
    multiplier: int


@dataclass(frozen=True, slots=True)
class AuctionClosed(Event):
    """The auction ended with a contract (R4.7)."""

    holder: int
    """The seat that made the highest bid."""
    team: int
    """The bidding team, ``holder % 2`` (R2.3)."""
    points: int
    suit: SuitCode
    level: int
    multiplier: int


@dataclass(frozen=True, slots=True)
class HandAnnulled(Event):
    """All four passed (R4.8, D5): nobody scores; ``next_dealer`` deals next (R3.5)."""

    reason: str
    """``all_passed``."""
    next_dealer: int

    role: ClassVar[Role] = Role.HAND_SCORED

    def lifecycle(self) -> HandScore:
        """The annulled hand (R4.8): nobody wins it, nothing is scored."""
        return HandScore(self.reason, None, None, None)


@dataclass(frozen=True, slots=True)
class WidowTaken(Event):
    """Open vida: the contract holder takes the four face-up cards (R5.1)."""

    seat: int
    cards: tuple[CardCode, ...]


@dataclass(frozen=True, slots=True)
class CardGiven(Event):
    """Open vida: one of the three cards the holder gives away face down (R5.1, D30).

    ``card`` is seen by the giver and the receiver only; the others see the two seats.
    """

    private: ClassVar[frozenset[str]] = frozenset({"card"})
    private_to: ClassVar[tuple[str, ...]] = ("from_seat", "to_seat")
    from_seat: int
    to_seat: int
    card: CardCode


@dataclass(frozen=True, slots=True)
class DeclarationAnnounced(Event):
    """Pilotta timing: a seat declares all its combinations; their kinds are public (R5.8)."""

    seat: int
    kinds: tuple[str, ...]
    """Codes of R5.2, strongest first."""


@dataclass(frozen=True, slots=True)
class DeclarationsResolved(Event):
    """The declaration comparison (R5.4-R5.8): the winning team's combinations are shown (D15).

    ``shown`` holds ``{seat, kind, cards, points}`` per combination of the winning team (cards high
    to low, R2.8); ``tied`` is ``{kind, top}`` in a stand-off (R5.6), else None.
    """

    winner_team: int | None
    standoff: bool
    shown: tuple[dict[str, Any], ...]
    tied: dict[str, Any] | None
    declaration_points: tuple[int, int]


@dataclass(frozen=True, slots=True)
class CardPlayed(Event):
    """A card played to trick ``trick_no`` (1-8) (R4.9-R4.13)."""

    seat: int
    card: CardCode
    trick_no: int


@dataclass(frozen=True, slots=True)
class BeloteAnnounced(Event):
    """Belote announced with the first of the king and queen of trumps (R5.9, D18)."""

    seat: int
    card: CardCode


@dataclass(frozen=True, slots=True)
class TrickTaken(Event):
    """A trick won (R4.14): ``points`` are its card points, plus 10 on trick 8 (R2.7)."""

    trick_no: int
    winner: int
    cards: tuple[CardCode, ...]
    """In play order."""
    points: int


@dataclass(frozen=True, slots=True)
class HandScored(Event):
    """The hand's score (R6.1-R6.7) and the new totals of the game (R6.9).

    ``contract`` is ``{holder, team, points, suit, level, multiplier}`` as in ``AuctionClosed``.
    """

    contract: dict[str, Any]
    tricks_won: tuple[int, int]
    trick_points_raw: tuple[int, int]
    capot_team: int | None
    trick_points: tuple[int, int]
    declaration_points: tuple[int, int]
    belote_points: tuple[int, int]
    contract_points: tuple[int, int]
    contract_made: bool
    hand_points: tuple[int, int]
    totals: tuple[int, int]

    role: ClassVar[Role] = Role.HAND_SCORED

    def lifecycle(self) -> HandScore:
        """The hand's score (R6.1-R6.9): ``made`` or ``failed``, the team that won the contract test
        (the holder's team when made, the other when failed, R6.3), the teams' totals."""
        team = int(self.contract["team"])
        return HandScore(
            "made" if self.contract_made else "failed",
            team if self.contract_made else 1 - team,
            self.hand_points,
            self.totals,
        )


@dataclass(frozen=True, slots=True)
class ShuffleRevealed(RevealsSalt):
    """The hand is over (scored or annulled): its deck and salt are published (R3.2)."""

    hand_no: int
    deck: tuple[CardCode, ...]
    """The 32 codes, top first."""
    salt: str
    """The hand's seed; ``""`` for an explicit deal."""


REVEAL_SEED_FIELD = "salt"
"""The field of ``ShuffleRevealed`` that reveals the hand's secret (R3.2)."""

AUDIT_RULES = AuditRules(seeded="R3.2", explicit="R3.2")
"""The rules the audit cites for a hand's commitment: the salt and deck order of ``R3.2``."""


@dataclass(frozen=True, slots=True)
class GameWon(Event):
    """A team's total exceeded the target and was the higher one (R6.9, D34)."""

    game_no: int
    team: int
    totals: tuple[int, int]
    """The finished game's final totals."""
    games_won: tuple[int, int]

    between_hands: ClassVar[bool] = True


@dataclass(frozen=True, slots=True)
class MatchEnded(Event):
    """A team won ``wins_needed`` games (R6.10): no further command is accepted."""

    winner_team: int
    games_won: tuple[int, int]

    role: ClassVar[Role] = Role.MATCH_ENDED
    between_hands: ClassVar[bool] = True

    def lifecycle(self) -> MatchResult:
        """The match's result (R6.10): the winning team's seats, then the other's; games won per team."""
        winners, losers = TEAMS[self.winner_team], TEAMS[1 - self.winner_team]
        return MatchResult((), winners, (*winners, *losers), self.winner_team, self.games_won)


EVENT_TYPES = listed_events(sys.modules[__name__])
"""Event name -> class of the events listed in ``__all__`` (section 9), for ``GameSpec.event_types``."""
