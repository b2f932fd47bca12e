"""Giminaičiai's events (docs/rules/giminaiciai.md section 9).  Their module path and class names are stored data.

Card fields carry card codes (``"QS"``); per-seat lists are indexed by seat.  ``MatchStarted`` is the
platform's (:class:`trapoula.domain.games.shedding.events.MatchStarted`, re-exported here).

Departures from the table of section 9, all of form, none of substance:

* ``ShuffleCommitted`` is folded into ``HandStarted``: its ``commitment`` field is the commitment of
  R3.2 and section 9, published before any card is dealt, as every game of the platform does (the
  audit reads it there).  ``HandStarted`` also carries the hand's seed and deck order, hidden until
  the hand ends, when ``ShuffleRevealed`` publishes them (``deck`` is section 9's ``deck_order``).
* ``CardDrawn`` splits the drawn card into two fields with fixed visibility: ``card`` (public) holds
  a card taken from the discard pile, ``stock_card`` (seen by the drawing seat only) a card drawn
  from the stock; the other one is None.
* ``DiscardPileTurnedOver`` also names the seat whose draw turned the pile over (R4.6).
* ``HandEnded`` also names the hand's ``winner``, the first player to lay down (R7.1), None when
  nobody did; ``remaining`` holds the cards still held by unfinished players (public from then on).

The stalled hand (R8.4, the product's decision T1 of docs/decisions/giminaiciai.md, confirmed by the
rules owners): ``HandEnded`` has a third ``reason``, ``stalled``, for a hand that
ends because the discard pile was turned over twice (R4.6) with no lay-down in between; it is scored
as R8.2; the same reason ends a hand after 3 x n draws in a row from the discard pile.  Both are read
from the events alone: count the ``DiscardPileTurnedOver`` events since the last ``HandLaidDown`` (or
``HandStarted``), and the ``CardDrawn`` events of source ``discard`` since the last of source
``stock``, the last ``HandLaidDown`` or ``HandStarted``.

Visibility: ``HandStarted.seed`` and ``HandStarted.deck`` are hidden until the hand ends;
``CardsDealt.cards`` and ``CardDrawn.stock_card`` go to their seat only.  Every other field is public.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass
from typing import ClassVar

from trapoula.domain.cards import CardCode
from trapoula.domain.events import Event, listed_events
from trapoula.domain.game import AuditRules
from trapoula.domain.lifecycle import (
    EndsMatch,
    MatchStarted,
    RevealsSalt,
    ScoresHand,
    StartsHand,
)

__all__ = [
    "CardDiscarded",
    "CardDrawn",
    "CardsDealt",
    "DiscardPileTurnedOver",
    "HandEnded",
    "HandLaidDown",
    "HandStarted",
    "MatchEnded",
    "MatchStarted",
    "PlayerFinished",
    "PointsScored",
    "ShuffleRevealed",
    "StarterTurned",
]

EVENT_RULES = {
    "MatchStarted": "R3.1",
    "HandStarted": "R3.2",
    "CardsDealt": "R3.6",
    "StarterTurned": "R3.4",
    "DiscardPileTurnedOver": "R4.6",
    "CardDrawn": "R4.2",
    "CardDiscarded": "R4.4",
    "HandLaidDown": "R5.1",
    "PointsScored": "R7",
    "PlayerFinished": "R5.5",
    "HandEnded": "R8.1",
    "ShuffleRevealed": "R3.2",
    "MatchEnded": "R9.1",
}
"""The rule a recorded event breaks when it is not what the rules produce (the audit's findings)."""


@dataclass(frozen=True, slots=True)
class HandStarted(StartsHand):
    """A hand begins (R3.1-R3.3, R4.1); its commitment is public before any card is dealt (R3.2).

    ``commitment`` is the lowercase hex SHA-256 of ``",".join(deck) + ":" + salt`` (section 9), where
    the salt is the hand's seed (64 hex digits) for a seeded deal and ``""`` for an explicit one.
    """

    hidden: ClassVar[frozenset[str]] = frozenset({"seed", "deck"})
    hand_no: int
    """1, 2, ... over the match."""
    dealer: int
    first_to_act: int
    """The player after the dealer (R4.1)."""
    explicit_deal: bool
    """True for a deal given explicitly (R3.8)."""
    commitment: str
    seed: str | None
    """Hidden: the seed (None for an explicit deal); ``ShuffleRevealed.salt`` reveals it."""
    deck: tuple[CardCode, ...]
    """Hidden: the 52 codes in the order of R3.6, top first."""


@dataclass(frozen=True, slots=True)
class CardsDealt(Event):
    """One seat's 7 dealt cards in the order dealt (R3.3, R3.6); one event per seat, from the player
    after the dealer round to the dealer."""

    private: ClassVar[frozenset[str]] = frozenset({"cards"})
    seat: int
    cards: tuple[CardCode, ...]
    """Seen by ``seat`` only."""
    count: int


@dataclass(frozen=True, slots=True)
class StarterTurned(Event):
    """The card after the deal starts the discard pile face up (R3.4)."""

    card: CardCode


@dataclass(frozen=True, slots=True)
class DiscardPileTurnedOver(Event):
    """The stock was empty when ``seat`` chose to draw from it: the whole discard pile, ``count``
    cards, is turned over without shuffling and becomes the stock, its oldest card on top (R4.6).

    The second one with no ``HandLaidDown`` since the deal or the last ``HandLaidDown`` stalls the
    hand: unless ``seat`` lays down in this turn, ``HandEnded`` (``stalled``) follows his discard
    (R8.4)."""

    seat: int
    count: int
    stock_size: int
    """The size of the new stock before the draw (= ``count``)."""


@dataclass(frozen=True, slots=True)
class CardDrawn(Event):
    """``seat`` draws one card (R4.2): ``source`` is ``stock`` or ``discard``.

    ``card`` is the card taken from the discard pile (public; None for the stock); ``stock_card`` the
    card drawn from the stock (seen by ``seat`` only; None for the discard pile).
    """

    private: ClassVar[frozenset[str]] = frozenset({"stock_card"})
    seat: int
    source: str
    card: CardCode | None
    stock_card: CardCode | None


@dataclass(frozen=True, slots=True)
class CardDiscarded(Event):
    """``seat`` puts ``card`` face up on the discard pile and ends his turn (R4.4)."""

    seat: int
    card: CardCode


@dataclass(frozen=True, slots=True)
class HandLaidDown(Event):
    """``seat`` lays down his whole hand (R5.1-R5.4) and has finished (R5.5).

    ``groups`` as the command listed them (hand cards and extra cards, R11.3); ``extra_cards`` the
    cards taken from the discard pile, in the order taken (top first, R5.3); ``discard`` the card put
    on the pile afterwards (R5.2, R5.4), or None; ``cards_laid`` every card laid (R7.2).
    """

    seat: int
    groups: tuple[tuple[CardCode, ...], ...]
    extra_cards: tuple[CardCode, ...]
    discard: CardCode | None
    cards_laid: int


@dataclass(frozen=True, slots=True)
class PointsScored(Event):
    """``seat`` scores ``points`` in this hand (R7.1-R7.3).

    ``reason``: ``finishing_bonus`` (10, R7.1), ``extra_card_bonus`` (2^(N-7) - 1 for N cards laid,
    R7.2) or ``card_taken`` (R7.3: one point per card another player took in a turn that began after
    ``seat`` finished; one event per finished seat and draw, or per lay-down for its extra cards).
    """

    seat: int
    points: int
    reason: str


@dataclass(frozen=True, slots=True)
class PlayerFinished(Event):
    """``seat`` has laid down; ``place`` 1 is the first to finish (R5.5, R7.1)."""

    seat: int
    place: int


@dataclass(frozen=True, slots=True)
class HandEnded(ScoresHand):
    """The hand is over (R8.1, R8.2, R8.4) and its points are added to the totals (R8.3).

    ``reason``: ``all_finished`` (R8.1), ``piles_exhausted`` (R4.7, R8.2) or ``stalled`` (R8.4: a
    turn would start after two turn-overs of the discard pile, R4.6, or after 3 x n draws in a row
    from it, with no lay-down in between; it follows that turn's ``CardDiscarded``; unfinished players score nothing
    more, as R8.2).  ``remaining`` holds each seat's cards still in hand (empty for finished players),
    public from now on.
    """

    hand_no: int
    reason: str
    winner: int | None
    """The first player to lay down (R7.1), None when nobody did."""
    hand_points: tuple[int, ...]
    totals: tuple[int, ...]
    remaining: tuple[tuple[CardCode, ...], ...]


@dataclass(frozen=True, slots=True)
class ShuffleRevealed(RevealsSalt):
    """The hand is over: its deck order and salt are published (R3.2, R8.3)."""

    hand_no: int
    deck: tuple[CardCode, ...]
    """The 52 codes, top first (section 9 ``deck_order``)."""
    salt: str
    """The hand's seed; ``""`` for an explicit deal."""


REVEAL_SEED_FIELD = "salt"
"""The field of ``ShuffleRevealed`` that reveals the hand's secret (R3.2)."""

AUDIT_RULES = AuditRules(seeded="R3.2", explicit="R3.2")
"""The rules the audit cites for a hand's commitment: the salt and deck order of ``R3.2``."""


@dataclass(frozen=True, slots=True)
class MatchEnded(EndsMatch):
    """One player alone has the highest total, at least ``target_score`` (R9.1, R9.2)."""

    winner: int
    totals: tuple[int, ...]


EVENT_TYPES = listed_events(sys.modules[__name__])
"""Event name -> class of the events listed in ``__all__`` (section 9), for ``GameSpec.event_types``."""
