"""Declarations ("αέρας"): a hand's combinations and the comparison between the teams (R5.2-R5.6, D9-D16).

>>> from trapoula.domain.cards import Suit, parse_cards
>>> [(c.kind, c.points) for c in combinations(parse_cards("KC KD KH KS QH JH 7S 8S"))]
[('carre_K', 100), ('seq3', 20)]
>>> r = resolve({0: combinations(parse_cards("AH KH QH")), 1: combinations(parse_cards("9S 8S 7S"))}, Suit.CLUBS)
>>> r.winner_team, r.points
(0, (20, 0))
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from trapoula.domain.cards import Card, Rank, Suit
from trapoula.domain.games.vida.cards import SEQUENCE_ORDER

CARRE_KINDS: Mapping[Rank, str] = {
    Rank.JACK: "carre_J",
    Rank.NINE: "carre_9",
    Rank.ACE: "carre_A",
    Rank.TEN: "carre_T",
    Rank.KING: "carre_K",
    Rank.QUEEN: "carre_Q",
}
"""The ranks that give a four-of-a-kind and its code, strongest first (R5.2, R5.4, D13); none for 8 or 7."""

CARRE_POINTS: Mapping[Rank, int] = {
    Rank.JACK: 200,
    Rank.NINE: 150,
    Rank.ACE: 100,
    Rank.TEN: 100,
    Rank.KING: 100,
    Rank.QUEEN: 100,
}
"""Points of each four-of-a-kind (R5.2)."""

KIND_ORDER: tuple[str, ...] = (
    "carre_J",
    "carre_9",
    "carre_A",
    "carre_T",
    "carre_K",
    "carre_Q",
    "seq8",
    "seq7",
    "seq6",
    "seq5",
    "seq4",
    "seq3",
)
"""Every combination code, strongest kind first (R5.4, D13)."""

_KIND_RANK: Mapping[str, int] = {kind: len(KIND_ORDER) - i for i, kind in enumerate(KIND_ORDER)}
_SEQ_POSITION: Mapping[Rank, int] = {rank: i for i, rank in enumerate(SEQUENCE_ORDER)}
_SUIT_ORDER: tuple[Suit, ...] = (Suit.CLUBS, Suit.DIAMONDS, Suit.HEARTS, Suit.SPADES)
_CARD: Mapping[tuple[Rank, Suit], Card] = {(r, s): Card(r, s) for r in SEQUENCE_ORDER for s in _SUIT_ORDER}
"""The 32 cards of the deck by (rank, suit), built once."""


def sequence_points(length: int) -> int:
    """Points of a sequence of ``length`` cards (R5.2, D11): 3 -> 20, 4 -> 50, 5 to 8 -> 100.

    Raises:
        ValueError: ``length`` is not 3-8.
    """
    if not 3 <= length <= 8:
        raise ValueError(f"a sequence has 3 to 8 cards, not {length!r} (R5.2)")
    return 20 if length == 3 else 50 if length == 4 else 100


@dataclass(frozen=True, slots=True)
class Combination:
    """One declaration of a player: a four-of-a-kind or a maximal sequence (R5.2, R5.3)."""

    kind: str
    """Code of R5.2: ``carre_J`` ``carre_9`` ``carre_A`` ``carre_T`` ``carre_K`` ``carre_Q`` or ``seq3`` .. ``seq8``."""
    cards: tuple[Card, ...]
    """The cards: a sequence high to low in the R2.8 order; a four-of-a-kind in C D H S order."""
    points: int
    """Value (R5.2): 200, 150, 100, 50 or 20."""
    suit: Suit | None
    """The sequence's suit; None for a four-of-a-kind."""
    top: Rank
    """The highest card of a sequence (R2.8 order); the rank of a four-of-a-kind."""

    def strength(self, trump: Suit) -> tuple[int, ...]:
        """Comparable strength with ``trump`` as trumps; larger is stronger (R5.4, D13).

        A triple ``(kind, top, in_trumps)``: the kind by R5.4 (four jacks 12 .. tierce 1), then for
        sequences the top card in the R2.8 order (ace 8 .. nine 3; 0 for a four-of-a-kind), then 1
        for a sequence in the trump suit.  Two sequences of equal length and top, neither in trumps,
        have equal strength (R5.6).
        """
        if self.suit is None:
            return (_KIND_RANK[self.kind], 0, 0)
        top = len(SEQUENCE_ORDER) - _SEQ_POSITION[self.top]
        return (_KIND_RANK[self.kind], top, 1 if self.suit is trump else 0)


def _sort_key(combination: Combination) -> tuple[int, int, int]:
    """Strongest first without a trump suit; equal sequences in C D H S order (deterministic)."""
    kind, top, _ = combination.strength(Suit.CLUBS)
    suit = -1 if combination.suit is None else _SUIT_ORDER.index(combination.suit)
    return (-kind, -top, suit)


def combinations(hand: Iterable[Card]) -> tuple[Combination, ...]:
    """Every combination of a hand, strongest first (R5.3, D9-D12).

    * each rank J 9 A T K Q held in all four suits gives one four-of-a-kind (no carre of 8s or 7s);
    * each maximal run of three or more consecutive cards of one suit (R2.8 order, no wrapping)
      gives one sequence of the run's length: a run of 5-8 is a single combination of 100, never
      split (D11); runs separated by a gap are separate sequences (D12);
    * a card may belong to a four-of-a-kind and to a sequence at once (D10).

    The order is that of R5.4 without trumps (kind, then the top card); equal sequences in
    suit order C D H S.  Belote is not a combination (D16).

    Raises:
        ValueError: a card is outside the 32-card deck (a rank 2-6, R2.1).
    """
    return _combinations(frozenset(hand))


@functools.lru_cache(maxsize=4096)
def _combinations(held: frozenset[Card]) -> tuple[Combination, ...]:
    """:func:`combinations` of the cards ``held``, remembered: the views, the legal commands and the
    decider of a turn ask for the same hands again and again (the result depends on the set alone)."""
    for card in held:
        if card.rank not in _SEQ_POSITION:
            raise ValueError(f"card {card.code!r} is not in the 32-card Vida deck (R2.1)")
    found: list[Combination] = []
    for rank, kind in CARRE_KINDS.items():
        cards = tuple(_CARD[(rank, suit)] for suit in _SUIT_ORDER)
        if all(c in held for c in cards):
            found.append(Combination(kind, cards, CARRE_POINTS[rank], None, rank))
    for suit in _SUIT_ORDER:
        runs: list[list[Card]] = [[]]
        for rank in SEQUENCE_ORDER:
            card = _CARD[(rank, suit)]
            if card in held:
                runs[-1].append(card)
            elif runs[-1]:
                runs.append([])
        for run in runs:
            if len(run) >= 3:
                found.append(Combination(f"seq{len(run)}", tuple(run), sequence_points(len(run)), suit, run[0].rank))
    return tuple(sorted(found, key=_sort_key))


@dataclass(frozen=True, slots=True)
class Resolution:
    """Outcome of the declaration comparison of one hand (R5.5, R5.6, D14, D15)."""

    winner_team: int | None
    """The team (0 or 1) that scores declarations; None when neither has any or in a stand-off."""
    standoff: bool
    """True when the two teams' best combinations are equal (R5.6): nobody scores (D14)."""
    tied: tuple[str, Rank] | None
    """``(kind, top)`` of the equal best combinations in a stand-off; else None (R5.7)."""
    points: tuple[int, int]
    """Declaration points of team 0 and team 1; at most one is non-zero (R5.5)."""
    shown: tuple[tuple[int, Combination], ...]
    """``(seat, combination)`` for every combination of the winning team, by seat then as given (D15)."""


def resolve(by_seat: Mapping[int, Sequence[Combination]], trump: Suit) -> Resolution:
    """Compare the teams' combinations and book the declaration points (R5.5, R5.6, D14).

    ``by_seat`` maps a seat (0-3) to its combinations; a seat that is missing or maps to an empty
    sequence has none (in the Pilotta timing, a seat that did not declare, R5.8).  Seat ``s`` is in
    team ``s % 2`` (R2.3).  Each team's best combination is the strongest of either partner
    (:meth:`Combination.strength` with ``trump``).  If only one team has any, it wins; otherwise the
    stronger best wins; equal bests are a stand-off in which neither team scores (R5.6, D14).  The
    winning team scores the points of all the combinations of both its players (R5.5).

    Raises:
        ValueError: a seat outside 0-3.
    """
    teams: tuple[list[tuple[int, Combination]], list[tuple[int, Combination]]] = ([], [])
    for seat in sorted(by_seat):
        if seat not in range(4):
            raise ValueError(f"seat {seat!r} is not a seat 0-3 (R2.3)")
        teams[seat % 2].extend((seat, c) for c in by_seat[seat])
    if not teams[0] and not teams[1]:
        return Resolution(None, False, None, (0, 0), ())
    if teams[0] and teams[1]:
        best = [max(teams[t], key=lambda sc: sc[1].strength(trump))[1] for t in (0, 1)]
        s0, s1 = best[0].strength(trump), best[1].strength(trump)
        if s0 == s1:
            return Resolution(None, True, (best[0].kind, best[0].top), (0, 0), ())
        winner = 0 if s0 > s1 else 1
    else:
        winner = 0 if teams[0] else 1
    total = sum(c.points for _, c in teams[winner])
    points = (total, 0) if winner == 0 else (0, total)
    return Resolution(winner, False, None, points, tuple(teams[winner]))
