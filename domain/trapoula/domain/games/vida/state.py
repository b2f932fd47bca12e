"""Vida's state: frozen, tuples only (STYLE habit 1).  Built only by ``rules.evolve``.

Pairs are ``(team 0, team 1)``; team of seat s is ``s % 2`` (R2.3).
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

from trapoula.domain.cards import Card, Suit
from trapoula.domain.game import MatchConfig
from trapoula.domain.games.vida.events import DeclarationsResolved, HandScored
from trapoula.domain.games.vida.options import VidaOptions
from trapoula.domain.games.vida.scoring import Contract

__all__ = ["Call", "Phase", "Trick", "VidaState"]


class Phase(enum.Enum):
    """Where the match stands (R4.1)."""

    NEW = "new"
    """Configured; no hand dealt yet (a deal is due)."""
    AUCTION = "auction"
    """R4.2-R4.8."""
    EXCHANGE = "exchange"
    """Open vida: the contract holder must give three cards (R5.1)."""
    PLAY = "play"
    """The eight tricks (R4.9-R4.14)."""
    HAND_OVER = "hand_over"
    """A hand was scored or annulled and the match goes on (a deal is due)."""
    MATCH_OVER = "match_over"
    """A team won ``wins_needed`` games (R6.10)."""


@dataclass(frozen=True, slots=True)
class Call:
    """One call of the auction (R4.2): ``bid`` (points, suit), ``pass`` or ``vida`` (level)."""

    seat: int
    call: str
    points: int | None = None
    suit: Suit | None = None
    level: int | None = None


@dataclass(frozen=True, slots=True)
class Trick:
    """A finished trick (R4.14): ``cards`` in play order from ``leader``."""

    trick_no: int
    leader: int
    winner: int
    cards: tuple[Card, ...]
    points: int
    """Card points, plus 10 on trick 8 (R2.7)."""


@dataclass(frozen=True, slots=True)
class VidaState:
    """The whole state of a Vida match, including the hand in progress (four seats, R2.3)."""

    config: MatchConfig
    options: VidaOptions
    phase: Phase = Phase.NEW
    match_started: bool = False
    first_dealer: int | None = None
    """The first hand's dealer once fixed (``MatchStarted``); None while it is still to be drawn."""
    hand_no: int = 0
    game_no: int = 1
    """The game in progress (or just won, until the next hand starts)."""
    game_won: bool = False
    """The last hand won a game: the next hand starts game ``game_no + 1`` at 0-0 (R6.9)."""
    dealer: int = -1
    """Dealer of the current (or last) hand; -1 before the first."""
    next_dealer: int | None = None
    """Who deals next, once the hand is over (R3.5)."""
    seed: str | None = None
    """Secret seed of the hand in progress (None for an explicit deal)."""
    deck: tuple[Card, ...] = ()
    """Secret deck of the hand in progress, top first (R3.2)."""
    commitment: str = ""
    explicit_deal: bool = False
    hands: tuple[tuple[Card, ...], ...] = ((), (), (), ())
    widow: tuple[Card, ...] = ()
    """Open vida: the four face-up cards until the holder takes them (R3.4)."""
    widow_taken: tuple[Card, ...] = ()
    """Open vida: the widow as the holder took it (R5.1; public)."""
    gifts: tuple[tuple[int, int, Card], ...] = ()
    """Open vida: (from_seat, to_seat, card) of each card given (R5.1; private to the two seats)."""
    to_act: int | None = None
    auction: tuple[Call, ...] = ()
    bid: Call | None = None
    """The current highest bid (R4.3)."""
    level: int = 0
    """Vida level of the current bid, 0-4 (R4.5)."""
    passes: int = 0
    """Consecutive passes since the last bid or vida call, or since the start (R4.7, R4.8)."""
    contract: Contract | None = None
    play_hands: tuple[tuple[Card, ...], ...] = ()
    """Each seat's 8 cards when play begins (after any exchange): declarations and belote (R5.3, D31)."""
    declared: tuple[tuple[int, tuple[str, ...]], ...] = ()
    """Pilotta timing: (seat, kinds) of each ``declare`` (R5.8)."""
    resolution: DeclarationsResolved | None = None
    """The declaration comparison as published (R5.7, R5.8)."""
    belote: tuple[int, Card] | None = None
    """(seat, card) of the belote announcement (R5.9)."""
    trick_no: int = 0
    """The trick in progress, 1-8 (0 before play)."""
    leader: int | None = None
    """Who led (or leads) the trick in progress."""
    trick: tuple[tuple[int, Card], ...] = ()
    """(seat, card) of the cards played to the trick in progress, in play order."""
    tricks: tuple[Trick, ...] = ()
    tricks_won: tuple[int, int] = (0, 0)
    totals: tuple[int, int] = (0, 0)
    """Running totals of the current game (R6.9)."""
    games_won: tuple[int, int] = (0, 0)
    last_score: HandScored | None = None
    """The score of the last finished hand (R6.1-R6.7), None before any or after an annulled one."""
    last_annulled: bool = False
    """The last finished hand was annulled (R4.8)."""
    winner: int | None = None
    """The team that won the match (R6.10)."""

    @property
    def trump(self) -> Suit | None:
        """The trump suit of the contract, None before it is made."""
        return self.contract.suit if self.contract is not None else None
