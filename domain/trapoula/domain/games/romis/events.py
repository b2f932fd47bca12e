"""Romis su iškritimu's events (docs/rules/romis.md section 9).  Their module path and class names are stored data.

Card fields carry card codes (``"QS"``); per-seat tuples are indexed by seat 0..n-1.  ``MatchStarted``
is the platform's (:class:`trapoula.domain.games.shedding.events.MatchStarted`, re-exported here).
The hashes (commitments, salts, nonces) are defined in :mod:`~trapoula.domain.games.romis.sealing`.

Visibility (section 9), with the platform's means (:mod:`trapoula.domain.events`):

* **seat** fields are ``private`` to the event's ``seat``: ``CardsDealt.cards``,
  ``SubmissionSealed.payload`` and ``.nonce``, ``AuxiliaryUsed.slot`` and ``.card``.
* **end** fields are ``hidden``: ``HandStarted.seed`` and ``.deck``, ``AuxiliaryDealt.cards``,
  ``PlayerEliminated.hand``, ``EliminatedPileRestocked.order``, ``HandCardsRedealt.order``.
  ``HandEnded`` publishes every hidden card of the hand, ``ShuffleRevealed`` every shuffle (one
  event for all the shuffles of the hand, see the class).
* **round** fields: ``AuxiliaryUsed`` is ``withheld`` -- no other viewer receives it at all, not
  even redacted (R5.4); ``RoundResolved.auxiliary_slots`` makes the slots used public when the
  round resolves, ``SubmissionSealed``'s payload and nonce become public through ``RoundResolved``.

Departures from the table of section 9, of form only:

* ``HandStarted`` also carries ``explicit_deal``, the deal's ``commitment`` (the same as the
  following ``ShuffleCommitted`` of purpose ``deal``), and, hidden until the hand ends, the ``seed``
  (None for an explicit deal) and the ``deck`` order: the platform's audit reads the deal and its
  commitment there (``GameSpec.commitment``, ``reveal_seed_field`` = ``salt``).
* ``RoundResolved`` lists its per-seat fields as tuples indexed by seat (None, ``()``, False, 0 for
  a seat not live).  ``companions`` is the number of companions laid in this round.  The cards of
  the companions are not repeated in it: their owner has them in his own ``SubmissionSealed.payload``;
  ``HandEnded.companions`` makes them public.
* ``EliminatedPileRestocked`` and ``HandCardsRedealt`` carry the shuffled ``order`` (hidden), from
  which a replay rebuilds the stock.  The cards
  of a restock go under what is left of the stock (it is empty when they are needed, R9.1), and the
  restock precedes the ``CardsDealt`` events of the deal it serves.
* ``HandEnded`` also names the ``hand_no`` and the ``winner`` (None unless R10.1), and publishes the
  hidden cards: ``hands`` (each live seat's hand at the end; ``()`` for an eliminated seat),
  ``eliminated_hands`` (each eliminated seat's hand when he dropped out, ``PlayerEliminated.hand``),
  ``auxiliary`` (each seat's two auxiliary cards, slot 1 first; used ones included) and
  ``companions`` (each live seat's companions at the end).  ``bonus_factor`` is the next hand's.
* ``AuxiliaryUsed.slot`` is private as well as withheld (section 9: visibility **round**; the
  public learns it from ``RoundResolved``).
"""

from __future__ import annotations

import sys
from dataclasses import dataclass
from typing import Any, ClassVar

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
    "AuxiliaryDealt",
    "AuxiliaryUsed",
    "CardsDealt",
    "EliminatedPileRestocked",
    "HandCardsRedealt",
    "HandEnded",
    "HandStarted",
    "HandWon",
    "MatchEnded",
    "MatchStarted",
    "NobodyCouldReveal",
    "PlayerEliminated",
    "RoundOpened",
    "RoundResolved",
    "ShuffleCommitted",
    "ShuffleRevealed",
    "SubmissionSealed",
]

EVENT_RULES = {
    "MatchStarted": "R3.1",
    "ShuffleCommitted": "R3.2",
    "HandStarted": "R3.1",
    "CardsDealt": "R3.6",
    "AuxiliaryDealt": "R3.4",
    "RoundOpened": "R4.1",
    "AuxiliaryUsed": "R6.1",
    "SubmissionSealed": "R5.2",
    "RoundResolved": "R5.3",
    "PlayerEliminated": "R7.1",
    "NobodyCouldReveal": "R7.4",
    "EliminatedPileRestocked": "R9.1",
    "HandCardsRedealt": "R9.3",
    "HandWon": "R10.1",
    "HandEnded": "R10.9",
    "ShuffleRevealed": "R3.2",
    "MatchEnded": "R11.1",
}
"""The rule a recorded event breaks when it is not what the rules produce (the audit's findings)."""


@dataclass(frozen=True, slots=True)
class HandStarted(StartsHand):
    """A hand begins (R3.1, R3.2, R10.6): its dealer and bonus factor; the deal's commitment is public
    before any card is dealt."""

    hidden: ClassVar[frozenset[str]] = frozenset({"seed", "deck", "secret"})
    hand_no: int
    """1, 2, ... over the match."""
    dealer: int
    bonus_factor: int
    """R10.6: the factor of this hand's winner bonus (1, or more after hands ending by R10.5)."""
    explicit_deal: bool
    """True for a deal given explicitly (R3.7)."""
    commitment: str
    """The deal's commitment (R3.2), as in the ``ShuffleCommitted`` of purpose ``deal``."""
    seed: str | None
    """Hidden: the seed (None for an explicit deal); the deal's ``ShuffleRevealed.salt`` reveals it."""
    deck: tuple[CardCode, ...]
    """Hidden: the 52 codes in the order of R3.6, top first."""
    secret: str | None
    """Hidden: for an explicit deal entered at a server, the secret the server adds to it (``Deal.secret``:
    the hand's secret, sealing); None otherwise.  ``ShuffleRevealed.secret`` reveals it."""


@dataclass(frozen=True, slots=True)
class ShuffleCommitted(Event):
    """A shuffle's public commitment (R3.2, R9.1, R9.3): ``purpose`` is ``deal``, ``eliminated_pile``
    or ``redeal``; ``commitment`` = SHA-256 hex of the order's codes joined by ``,``, ``:``, the salt."""

    hand_no: int
    purpose: str
    commitment: str


@dataclass(frozen=True, slots=True)
class CardsDealt(Event):
    """``seat`` receives ``count`` cards (R3.3, R4.3, R4.5, R7.4, R9.3), in the order received.

    ``stage``: ``hand`` (the 5 cards of R3.3), ``first_deal`` (3, R4.3), ``second_deal`` (1, R4.5),
    ``extra`` (1, R7.4) or ``redeal`` (R9.3).  One event per seat served, in the seat order after
    the dealer.
    """

    private: ClassVar[frozenset[str]] = frozenset({"cards"})
    seat: int
    count: int
    stage: str
    cards: tuple[CardCode, ...]
    """Seen by ``seat`` only."""


@dataclass(frozen=True, slots=True)
class AuxiliaryDealt(Event):
    """``seat``'s two face-down auxiliary cards (R3.4), slot 1 first; nobody sees them (hidden)."""

    hidden: ClassVar[frozenset[str]] = frozenset({"cards"})
    seat: int
    count: int
    cards: tuple[CardCode, ...]


@dataclass(frozen=True, slots=True)
class RoundOpened(Event):
    """A round (or a replay of it, ``attempt`` 2, 3, ..., R7.4, R9.3) opens for the ``live`` seats
    (ascending), each to reveal ``required`` cards: 2 in rounds 1-2, 1 later (R4.2, R4.4, R4.6)."""

    round: int
    attempt: int
    required: int
    live: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class AuxiliaryUsed(Event):
    """``seat`` turns up its auxiliary card of ``slot`` (1 or 2) into its hand (R6.1, R6.2).

    Withheld: only ``seat`` receives it (R5.4, R6.4); the others learn the slot from ``RoundResolved``
    and the card from ``HandEnded`` (or when it is revealed).
    """

    private: ClassVar[frozenset[str]] = frozenset({"slot", "card"})
    withheld: ClassVar[bool] = True
    seat: int
    slot: int
    card: CardCode


@dataclass(frozen=True, slots=True)
class SubmissionSealed(Event):
    """``seat``'s sealed submission for ``round`` and ``attempt`` (R5.1, R5.2).

    ``commitment`` is public; ``payload`` (``{"kind": "reveal", "cards": [...], "companions": [...]}``
    or ``{"kind": "cannot"}``), ``nonce`` and ``companions_salt`` (None for ``cannot``) go to ``seat``
    only: ``RoundResolved`` opens the kind, the cards, the nonce and the companions digest, the
    companions themselves stay hidden until the hand ends (:mod:`~trapoula.domain.games.romis.sealing`).
    """

    private: ClassVar[frozenset[str]] = frozenset({"payload", "nonce", "companions_salt"})
    seat: int
    round: int
    attempt: int
    commitment: str
    payload: dict[str, Any]
    nonce: str
    companions_salt: str | None


@dataclass(frozen=True, slots=True)
class RoundResolved(Event):
    """Every live seat has submitted: the submissions are opened (R5.3).  Per seat (None/()/False/0
    for a seat not live): ``kinds`` ``reveal`` or ``cannot``; ``cards`` revealed (canonical order);
    ``new_combination`` (R8); ``companions`` laid now (count, R8.3); ``auxiliary_slots`` turned up in
    this attempt (R6.4); ``nonces`` and ``companion_digests`` of the opened submissions: with them
    anyone can now check the commitments, while the companions stay hidden (R8.3, sealing)."""

    round: int
    attempt: int
    kinds: tuple[str | None, ...]
    cards: tuple[tuple[CardCode, ...], ...]
    new_combination: tuple[bool, ...]
    companions: tuple[int, ...]
    auxiliary_slots: tuple[tuple[int, ...], ...]
    nonces: tuple[str | None, ...]
    companion_digests: tuple[str | None, ...]


@dataclass(frozen=True, slots=True)
class PlayerEliminated(Event):
    """``seat`` drops out of the hand (R7.1) and scores ``points``, his revealed cards (R7.2); his
    cards go to the eliminated pile (R7.3): his revealed cards, then ``hand`` (hidden until the hand
    ends) -- he has no companion and no auxiliary card left (R6.3, R8.3)."""

    hidden: ClassVar[frozenset[str]] = frozenset({"hand"})
    seat: int
    round: int
    points: int
    hand: tuple[CardCode, ...]


@dataclass(frozen=True, slots=True)
class NobodyCouldReveal(Event):
    """Every live seat submitted ``cannot``: nobody is eliminated, extra cards follow (R7.4)."""

    round: int
    attempt: int


@dataclass(frozen=True, slots=True)
class EliminatedPileRestocked(Event):
    """The stock ran out: the eliminated pile, ``count`` cards, was shuffled and becomes the stock (R9.1).
    ``order`` (hidden, top first) is the shuffled pile; the ``ShuffleCommitted`` before it commits to it."""

    hidden: ClassVar[frozenset[str]] = frozenset({"order"})
    count: int
    order: tuple[CardCode, ...]


@dataclass(frozen=True, slots=True)
class HandCardsRedealt(Event):
    """All 52 cards in use: the live seats' hand cards are gathered, shuffled and dealt again (R9.3).
    ``counts`` per seat (0 for a seat not live); ``order`` (hidden, top first) is the shuffled cards."""

    hidden: ClassVar[frozenset[str]] = frozenset({"order"})
    counts: tuple[int, ...]
    order: tuple[CardCode, ...]


@dataclass(frozen=True, slots=True)
class HandWon(Event):
    """``seat`` alone is left (R10.1): he lays down ``laid_down`` (R10.2, in the order laid) and scores
    ``points`` = ``multiplier`` x ``revealed_count`` + ``bonus`` (R10.3, R10.4, R10.6)."""

    seat: int
    laid_down: tuple[CardCode, ...]
    revealed_count: int
    multiplier: int
    bonus: int
    points: int


@dataclass(frozen=True, slots=True)
class HandEnded(ScoresHand):
    """The hand is over (R10.1, R10.5, R9.4) and its points are added to the totals (R10.9).

    ``reason``: ``winner``, ``all_revealed`` or ``stalemate``; ``bonus_factor`` is the next hand's
    (R10.6).  The other card fields publish the hand's hidden cards (see the module docstring).
    """

    hand_no: int
    reason: str
    winner: int | None
    hand_points: tuple[int, ...]
    totals: tuple[int, ...]
    bonus_factor: int
    hands: tuple[tuple[CardCode, ...], ...]
    eliminated_hands: tuple[tuple[CardCode, ...], ...]
    auxiliary: tuple[tuple[CardCode, ...], ...]
    companions: tuple[tuple[CardCode, ...], ...]


@dataclass(frozen=True, slots=True)
class ShuffleRevealed(RevealsSalt):
    """After ``HandEnded``: the deal's ``order`` (top first) and ``salt`` (R3.2: the seed, ``""`` for
    an explicit deal), and in ``later`` each shuffle made inside the hand (R9.1, R9.3) as
    ``(purpose, order, salt)``, in the order they were made.  ``purpose`` is always ``deal``.

    One event reveals every shuffle of the hand, where section 9 has one per shuffle: the platform
    ends each hand with exactly one seed-revealing event (the record's hand count and the audit's
    hand boundaries read it)."""

    hand_no: int
    purpose: str
    order: tuple[CardCode, ...]
    salt: str
    later: tuple[tuple[str, tuple[CardCode, ...], str], ...]
    secret: str | None
    """For an explicit deal, the hand's secret (the server's, ``HandStarted.secret``, or without one the
    deck's hash), with which anyone can now recompute the hand's nonces, companion salts and later
    shuffles (sealing); None for a seeded deal, whose ``salt`` is its secret."""


REVEAL_SEED_FIELD = "salt"
"""The field of ``ShuffleRevealed`` that reveals the hand's secret (R3.2)."""

AUDIT_RULES = AuditRules(seeded="R3.2", explicit="R3.2")
"""The rules the audit cites for a hand's commitment: the salt and deck order of ``R3.2``."""


@dataclass(frozen=True, slots=True)
class MatchEnded(EndsMatch):
    """One player alone has the highest total, at least ``target_score`` (R11.1, R11.2)."""

    winner: int
    totals: tuple[int, ...]


EVENT_TYPES = listed_events(sys.modules[__name__])
"""Event name -> class of the events listed in ``__all__`` (section 9), for ``GameSpec.event_types``."""
