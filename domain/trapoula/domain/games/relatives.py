"""Related cards and legal groups, shared by Giminaičiai and Romis su iškritimu.

Two cards are *related* (giminingos) when they have the same rank, or the same suit and adjacent
ranks (giminaiciai R6.1, romis R2.5).  The two games differ only in the order of the ranks
(:class:`RankOrder`): Giminaičiai closes the ranks into a cycle, so the ace sits between the king and
the two (giminaiciai R2.5); Romis keeps the ace high only (romis R2.5).

A *group* (giminaiciai R6.3, R6.4) is a main combination -- a set or a sequence of 3 or more of its
cards -- with every other card attached directly to a main card: a set relative (same rank) or a
sequence relative (same suit, in one run through the main card).  A card whose only link to the main
combination passes through a relative is refused (R6.5).  :func:`read_group` finds a reading by the
algorithm of R6.6, :func:`legal_group` says whether one exists and :func:`explain_group` says why not.

>>> from trapoula.domain.cards import parse_cards
>>> legal_group(parse_cards("KH KC KD AD 2D 3D"))
True
>>> legal_group(parse_cards("KH KC KD AD 2D 3D"), RankOrder.ACE_HIGH)
False
>>> problem = explain_group(parse_cards("4H 5H 6H 7H 5D 7S 7D 8D"))
>>> str(problem.card), problem.rule, problem.reason
('8D', 'R6.5', 'branch_from_relative')
"""

from __future__ import annotations

import enum
from collections.abc import Iterable
from dataclasses import dataclass

from trapoula.domain.cards import Card, Rank, Suit, parse_card
from trapoula.domain.errors import InvalidInput

__all__ = [
    "BRANCH_FROM_RELATIVE",
    "NOT_IN_RUN",
    "NO_MAIN_CARD",
    "NO_MAIN_COMBINATION",
    "TOO_FEW_CARDS",
    "UNRELATED_CARD",
    "GroupProblem",
    "RankOrder",
    "Reading",
    "adjacent",
    "explain_group",
    "is_sequence",
    "is_set",
    "legal_group",
    "read_group",
    "related",
]

TOO_FEW_CARDS = "too_few_cards"
"""Reason code: the group has fewer than 3 cards (giminaiciai R6.3)."""
NO_MAIN_COMBINATION = "no_main_combination"
"""Reason code: no 3 cards of the group form a set or a sequence (giminaiciai R6.2, R6.3)."""
UNRELATED_CARD = "unrelated_card"
"""Reason code: the card is related to no other card of the group (giminaiciai R6.5)."""
BRANCH_FROM_RELATIVE = "branch_from_relative"
"""Reason code: the card is related only to a relative, not to a main card (giminaiciai R6.5)."""
NOT_IN_RUN = "not_in_run"
"""Reason code: the card has the suit of a main card but is not in one run with it (giminaiciai R6.4.2)."""
NO_MAIN_CARD = "no_main_card"
"""Reason code: the card has neither the rank nor the suit of a main card (giminaiciai R6.4.1)."""

_RANKS: tuple[Rank, ...] = tuple(Rank)
_SUITS: tuple[Suit, ...] = tuple(Suit)
_N_RANKS = len(_RANKS)
_CARD: dict[tuple[Rank, Suit], Card] = {(r, s): parse_card(r.value + s.value) for r in _RANKS for s in _SUITS}


class RankOrder(enum.Enum):
    """How the ranks follow one another, for relatedness and sequences."""

    CYCLE = "cycle"
    """Giminaičiai R2.5: the closed cycle 2-3-...-K-A-2; the ace is next to the king and to the two."""
    ACE_HIGH = "ace_high"
    """Romis R2.5: 2 < 3 < ... < K < A; the ace is next to the king only, never to the two."""


def _step(index: int, delta: int, order: RankOrder) -> int | None:
    """The rank index one step up (``delta`` 1) or down (-1) from ``index``, or None off the end."""
    nxt = index + delta
    if order is RankOrder.CYCLE:
        return nxt % _N_RANKS
    return nxt if 0 <= nxt < _N_RANKS else None


def adjacent(a: Rank, b: Rank, order: RankOrder) -> bool:
    """Whether two ranks are next to each other in ``order`` (giminaiciai R2.5, romis R2.5).

    >>> adjacent(Rank.ACE, Rank.TWO, RankOrder.CYCLE), adjacent(Rank.ACE, Rank.TWO, RankOrder.ACE_HIGH)
    (True, False)
    """
    return _step(a.order, 1, order) == b.order or _step(a.order, -1, order) == b.order


def related(a: Card, b: Card, order: RankOrder) -> bool:
    """Whether two cards are related: same rank, or same suit and adjacent ranks.

    Implements giminaiciai R6.1 (``order`` CYCLE) and romis R2.5 (``order`` ACE_HIGH).  A card is
    not related to itself (two equal cards have the same rank but are one card).

    >>> from trapoula.domain.cards import parse_card
    >>> related(parse_card("KS"), parse_card("AS"), RankOrder.CYCLE)
    True
    """
    if a == b:
        return False
    return a.rank is b.rank or (a.suit is b.suit and adjacent(a.rank, b.rank, order))


def _distinct(cards: Iterable[Card]) -> tuple[Card, ...]:
    """The cards as a tuple, refusing non-cards and repeated cards.

    Raises:
        InvalidInput: an item is not a :class:`Card` (``bad_card``) or a card is listed twice
            (``duplicate_card``).
    """
    result = tuple(cards)
    seen: set[Card] = set()
    for card in result:
        if not isinstance(card, Card):
            raise InvalidInput(f"not a card: {card!r}", reason="bad_card")
        if card in seen:
            raise InvalidInput(f"card {card} is listed twice in the group", reason="duplicate_card")
        seen.add(card)
    return result


def _chains(indices: Iterable[int], order: RankOrder) -> tuple[tuple[int, ...], ...]:
    """The maximal chains of consecutive rank indices, each listed upwards from its lowest end.

    With CYCLE and all 13 ranks present the whole cycle is one chain, listed from the two.
    """
    present = frozenset(indices)
    if order is RankOrder.CYCLE and len(present) == _N_RANKS:
        return (tuple(range(_N_RANKS)),)
    chains: list[tuple[int, ...]] = []
    for start in sorted(present):
        below = _step(start, -1, order)
        if below is not None and below in present:
            continue
        chain = [start]
        nxt = _step(start, 1, order)
        while nxt is not None and nxt in present:
            chain.append(nxt)
            nxt = _step(nxt, 1, order)
        chains.append(tuple(chain))
    return tuple(chains)


def is_set(cards: Iterable[Card]) -> bool:
    """Whether the cards are a set: 3 or more cards of one rank (giminaiciai R6.2).

    Raises:
        InvalidInput: a card is listed twice.
    """
    group = _distinct(cards)
    return len(group) >= 3 and len({c.rank for c in group}) == 1


def is_sequence(cards: Iterable[Card], order: RankOrder) -> bool:
    """Whether the cards are a sequence: 3+ cards of one suit with consecutive ranks (giminaiciai R6.2).

    The cards may be given in any order.  With CYCLE a sequence may turn the corner (``Q K A 2 3``)
    and all 13 cards of a suit are one sequence (giminaiciai R2.5); with ACE_HIGH the ace only
    follows the king (romis R2.5).

    Raises:
        InvalidInput: a card is listed twice.
    """
    group = _distinct(cards)
    if len(group) < 3 or len({c.suit for c in group}) != 1:
        return False
    return len(_chains((c.rank.order for c in group), order)) == 1


@dataclass(frozen=True, slots=True)
class Reading:
    """One legal reading of a group (giminaiciai R6.3, R6.4)."""

    main: tuple[Card, ...]
    """The main combination: a set (in the order the group lists it) or a sequence (upwards along the run)."""
    attached: tuple[tuple[Card, Card], ...]
    """Every other card of the group as ``(relative, main card it hangs on)``, in the order the group lists them."""


@dataclass(frozen=True, slots=True)
class GroupProblem:
    """Why a group is not legal (giminaiciai R6.2-R6.5)."""

    card: Card | None
    """The card that cannot be placed, or None when the group fails as a whole (too few cards, no meld)."""
    rule: str
    """The rule broken: ``R6.3`` (too few cards, no main combination), ``R6.4.1``, ``R6.4.2`` or ``R6.5``."""
    reason: str
    """Stable code: one of the module's reason constants, e.g. ``branch_from_relative``."""
    message: str
    """A sentence naming the card and the rule."""


@dataclass(frozen=True, slots=True)
class _Attempt:
    """One candidate main combination of R6.6 and what it places."""

    main: tuple[Card, ...]
    main_rank: Rank | None
    """The rank of a main set, None for a main sequence."""
    main_suit: Suit | None
    """The suit of a main sequence, None for a main set."""
    attached: tuple[tuple[Card, Card], ...]
    unplaced: tuple[Card, ...]
    """The cards that hang on no main card, in the order the group lists them."""


def _attempts(group: tuple[Card, ...], order: RankOrder) -> tuple[_Attempt, ...]:
    """Every candidate reading of R6.6, sets first (by rank), then sequences (by suit and start)."""
    ranks_by_suit: dict[Suit, set[int]] = {s: set() for s in _SUITS}
    for card in group:
        ranks_by_suit[card.suit].add(card.rank.order)
    chain_of: dict[tuple[Suit, int], tuple[int, ...]] = {}
    chains_by_suit: dict[Suit, tuple[tuple[int, ...], ...]] = {}
    for suit in _SUITS:
        chains_by_suit[suit] = _chains(ranks_by_suit[suit], order)
        for chain in chains_by_suit[suit]:
            for index in chain:
                chain_of[(suit, index)] = chain

    attempts: list[_Attempt] = []
    # (a) main set: all the cards of a rank occurring at least 3 times.
    for rank in _RANKS:
        main = tuple(c for c in group if c.rank is rank)
        if len(main) < 3:
            continue
        suits = {c.suit for c in main}
        attached: list[tuple[Card, Card]] = []
        unplaced: list[Card] = []
        for card in group:
            if card.rank is rank:
                continue
            run = chain_of.get((card.suit, rank.order), ())
            if card.suit in suits and card.rank.order in run:
                attached.append((card, _CARD[(rank, card.suit)]))
            else:
                unplaced.append(card)
        attempts.append(_Attempt(main, rank, None, tuple(attached), tuple(unplaced)))
    # (b) main sequence: a whole maximal chain of one suit, 3 cards or more.
    for suit in _SUITS:
        for chain in chains_by_suit[suit]:
            if len(chain) < 3:
                continue
            main = tuple(_CARD[(_RANKS[i], suit)] for i in chain)
            chain_ranks = frozenset(chain)
            attached = []
            unplaced = []
            for card in group:
                if card.suit is suit and card.rank.order in chain_ranks:
                    continue
                if card.rank.order in chain_ranks:
                    attached.append((card, _CARD[(card.rank, suit)]))
                else:
                    unplaced.append(card)
            attempts.append(_Attempt(main, None, suit, tuple(attached), tuple(unplaced)))
    return tuple(attempts)


def read_group(cards: Iterable[Card], order: RankOrder = RankOrder.CYCLE) -> Reading | None:
    """A legal reading of the group, or None when it has none (giminaiciai R6.3-R6.6).

    Follows the algorithm of R6.6: the candidate main combinations are all the cards of a rank that
    occurs 3+ times, then each whole maximal chain of 3+ cards of one suit (runs follow ``order``).
    The first candidate that places every card is returned: sets before sequences, sets by rank
    (2 .. A), sequences by suit (C D H S) and then by the lowest rank of the chain.  The card order
    of the group does not change the result's content, only the order of ``main`` (for a set) and
    ``attached``.

    Raises:
        InvalidInput: a card is listed twice.
    """
    group = _distinct(cards)
    if len(group) < 3:
        return None
    for attempt in _attempts(group, order):
        if not attempt.unplaced:
            return Reading(attempt.main, attempt.attached)
    return None


def legal_group(cards: Iterable[Card], order: RankOrder = RankOrder.CYCLE) -> bool:
    """Whether the cards form a legal group (giminaiciai R6.3, formal definition R6.4, algorithm R6.6).

    Raises:
        InvalidInput: a card is listed twice.
    """
    return read_group(cards, order) is not None


def _codes(cards: Iterable[Card]) -> str:
    return " ".join(c.code for c in cards)


def _diagnose(card: Card, attempt: _Attempt, group: tuple[Card, ...], order: RankOrder) -> GroupProblem:
    """Why ``card`` cannot be placed in the reading ``attempt`` of ``group``."""
    main_codes = _codes(attempt.main)
    relatives = [rel for rel, _ in attempt.attached]
    if attempt.main_rank is not None:
        main_card = _CARD[(attempt.main_rank, card.suit)]
        if main_card in attempt.main:
            return GroupProblem(
                card,
                "R6.4.2",
                NOT_IN_RUN,
                f"{card} is not in one run of {card.suit.name.lower()} with the main card {main_card} "
                f"(main set {main_codes}) (R6.4.2)",
            )
    elif card.suit is attempt.main_suit:
        return GroupProblem(
            card,
            "R6.4.2",
            NOT_IN_RUN,
            f"{card} is not in one run with the main sequence {main_codes} (R6.4.2)",
        )
    hubs = [rel for rel in relatives if related(card, rel, order)]
    if hubs:
        return GroupProblem(
            card,
            "R6.5",
            BRANCH_FROM_RELATIVE,
            f"{card} is related only to the relative {hubs[0]}, not to a main card of {main_codes}; "
            "a relative may not carry relatives of its own (R6.5)",
        )
    if not any(related(card, other, order) for other in group):
        message = f"{card} is related to no other card of the group (R6.5)"
        if attempt.main_rank is not None and adjacent(card.rank, attempt.main_rank, order):
            missing = _CARD[(attempt.main_rank, card.suit)]
            message = (
                f"{card} could join the main set {main_codes} only through {missing}, "
                f"which is not a main card; it is related to no card of the group (R6.5)"
            )
        return GroupProblem(card, "R6.5", UNRELATED_CARD, message)
    return GroupProblem(
        card,
        "R6.4.1",
        NO_MAIN_CARD,
        f"{card} has neither the rank nor the suit of a main card of {main_codes} (R6.4.1)",
    )


def explain_group(cards: Iterable[Card], order: RankOrder = RankOrder.CYCLE) -> GroupProblem | None:
    """Why the group is not legal, or None exactly when :func:`legal_group` is True (giminaiciai R6).

    The problem found, in this order:

    1. fewer than 3 cards: ``too_few_cards``, R6.3, no card named;
    2. no candidate main combination (no 3 cards of a rank, no 3-card run of a suit): the first card,
       in the group's order, related to no other card of the group (``unrelated_card``, R6.5), or
       else ``no_main_combination``, R6.3, no card named;
    3. otherwise every candidate reading of R6.6 leaves cards unplaced.  The explanation follows the
       reading that places the most cards; among equals, the one whose first unplaced card comes
       latest in the group's order; then the R6.6 order (sets by rank, then sequences).  The card
       named is the first card of the group related to no other card of the group, if there is
       one, else the first card (in the group's order) that reading cannot place.  The reason is,
       for that reading: ``not_in_run`` (R6.4.2) when the card has the suit of a main card but is
       not in one run with it; else ``branch_from_relative`` (R6.5) when it is related to a
       relative of the reading; else ``unrelated_card`` (R6.5) when it is related to no card of the
       group; else ``no_main_card`` (R6.4.1).

    Raises:
        InvalidInput: a card is listed twice.
    """
    group = _distinct(cards)
    if len(group) < 3:
        return GroupProblem(
            None,
            "R6.3",
            TOO_FEW_CARDS,
            f"a group needs at least 3 cards; {len(group)} given ({_codes(group) or 'none'}) (R6.3)",
        )
    attempts = _attempts(group, order)
    if any(not a.unplaced for a in attempts):
        return None
    loners = [c for c in group if not any(related(c, other, order) for other in group)]
    if not attempts:
        if loners:
            return GroupProblem(
                loners[0], "R6.5", UNRELATED_CARD, f"{loners[0]} is related to no other card of the group (R6.5)"
            )
        return GroupProblem(
            None,
            "R6.3",
            NO_MAIN_COMBINATION,
            f"no 3 cards of the group {_codes(group)} form a set or a sequence to serve as main combination "
            "(R6.2, R6.3)",
        )
    position = {card: i for i, card in enumerate(group)}
    best = max(
        enumerate(attempts),
        key=lambda item: (len(group) - len(item[1].unplaced), position[item[1].unplaced[0]], -item[0]),
    )[1]
    card = loners[0] if loners else best.unplaced[0]
    return _diagnose(card, best, group, order)
