"""What a player may reveal (docs/rules/romis.md R2.5, R4, R8) and the winner's final lay-down (R10.2).

Relatedness is the shared :func:`trapoula.domain.games.relatives.related` with the ace high only
(:attr:`~trapoula.domain.games.relatives.RankOrder.ACE_HIGH`, R2.5), always judged against the
player's own revealed cards (R4.1).  A *reveal* is a pair ``(cards, companions)`` of tuples in
canonical card order; ``companions`` is empty except for a new combination (R8.2).

>>> from trapoula.domain.cards import parse_cards
>>> choices = legal_reveals(2, parse_cards("5H 7D KC KS 2C"), (), parse_cards("6H 7H"))  # R4.4's example
>>> [" ".join(c.code for c in cards) for cards, _ in choices]
['KC KS', '7D 5H']
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Sequence

from trapoula.domain.cards import Card, deck_52, sorted_cards
from trapoula.domain.errors import Refusal as Refusal  # why a reveal is refused (R13.1)
from trapoula.domain.games.relatives import RankOrder, related

__all__ = [
    "ORDER",
    "RELATED",
    "Refusal",
    "check_reveal",
    "final_lay_down",
    "has_legal_reveal",
    "is_related",
    "legal_reveals",
    "new_combination_possible",
    "normal_reveal_possible",
    "reach",
    "related_to_any",
    "required_count",
    "round_rule",
]

ORDER = RankOrder.ACE_HIGH
"""R2.5: 2 < 3 < ... < K < A; the ace is next to the king only."""

RevealChoice = tuple[tuple[Card, ...], tuple[Card, ...]]
"""A reveal: ``(cards, companions)``, each in canonical card order."""

RELATED: dict[Card, frozenset[Card]] = {a: frozenset(b for b in deck_52() if related(a, b, ORDER)) for a in deck_52()}
"""Each card's related cards (R2.5), computed once from :func:`~trapoula.domain.games.relatives.related`."""


def is_related(a: Card, b: Card) -> bool:
    """Whether two cards are related (R2.5): same rank, or same suit and adjacent ranks, ace high only.

    >>> from trapoula.domain.cards import parse_card as c
    >>> is_related(c("AH"), c("KH")), is_related(c("AH"), c("2H")), is_related(c("4H"), c("5D"))
    (True, False, False)
    """
    return b in RELATED[a]


def related_to_any(card: Card, cards: Iterable[Card]) -> bool:
    """Whether ``card`` is related to at least one of ``cards`` (R2.5)."""
    return not RELATED[card].isdisjoint(cards)


def required_count(round_no: int) -> int:
    """The number of cards to reveal in a round: 2 in rounds 1 and 2, 1 later (R4.2, R4.4, R4.6)."""
    return 2 if round_no <= 2 else 1


def round_rule(round_no: int) -> str:
    """The rule that says what round ``round_no`` asks for: R4.2, R4.4 or R4.6."""
    return "R4.2" if round_no == 1 else "R4.4" if round_no == 2 else "R4.6"


def _pair_ok(round_no: int, a: Card, b: Card, revealed: Sequence[Card]) -> bool:
    """R4.2 (related to each other) or R4.4 (each related to the other or to a revealed card)."""
    if b in RELATED[a]:
        return True
    return round_no >= 2 and related_to_any(a, revealed) and related_to_any(b, revealed)


def _normal(
    round_no: int, hand: Sequence[Card], companions: Sequence[Card], revealed: Sequence[Card]
) -> Iterable[Card | tuple[Card, Card]]:
    if round_no <= 2:
        for a, b in itertools.combinations(sorted_cards(hand), 2):
            if _pair_ok(round_no, a, b, revealed):
                yield (a, b)
        return
    for card in sorted_cards((*hand, *companions)):
        if related_to_any(card, revealed):
            yield card


def normal_reveal_possible(
    round_no: int, hand: Sequence[Card], companions: Sequence[Card], revealed: Sequence[Card]
) -> bool:
    """Whether a reveal allowed by R4.2, R4.4 or R4.6 exists with these cards (companions count from
    round 3, R8.3)."""
    return next(iter(_normal(round_no, hand, companions, revealed)), None) is not None


def new_combination_possible(
    round_no: int, hand: Sequence[Card], companions: Sequence[Card], revealed: Sequence[Card]
) -> bool:
    """R8.1: from round 3, with no normal reveal (R8.4), the hand holds two cards related to each other."""
    if round_no < 3 or normal_reveal_possible(round_no, hand, companions, revealed):
        return False
    return any(b in RELATED[a] for a, b in itertools.combinations(hand, 2))


def has_legal_reveal(round_no: int, hand: Sequence[Card], companions: Sequence[Card], revealed: Sequence[Card]) -> bool:
    """R4.7: a normal reveal, or a new combination where R8.1 allows one."""
    return normal_reveal_possible(round_no, hand, companions, revealed) or new_combination_possible(
        round_no, hand, companions, revealed
    )


def legal_reveals(
    round_no: int, hand: Sequence[Card], companions: Sequence[Card], revealed: Sequence[Card]
) -> tuple[RevealChoice, ...]:
    """Every legal reveal (R4.7), canonical: the normal ones (pairs in rounds 1-2, R4.2, R4.4; single
    hand cards or companions related to a revealed card from round 3, R4.6), in canonical card order;
    when there is none, from round 3, every new combination (R8.1, R8.2): each hand card with every
    non-empty set of the other hand cards related to it (by card, then by size, then lexically)."""
    normal: list[RevealChoice] = []
    for item in _normal(round_no, hand, companions, revealed):
        normal.append((item, ()) if isinstance(item, tuple) else ((item,), ()))
    if normal or round_no < 3:
        return tuple(normal)
    out: list[RevealChoice] = []
    ordered = sorted_cards(hand)
    for card in ordered:
        kin = [c for c in ordered if c != card and c in RELATED[card]]
        for size in range(1, len(kin) + 1):
            for group in itertools.combinations(kin, size):
                out.append(((card,), tuple(group)))
    return tuple(out)


def _codes(cards: Iterable[Card]) -> str:
    return " ".join(c.code for c in cards)


def check_reveal(
    round_no: int,
    hand: Sequence[Card],
    companions: Sequence[Card],
    revealed: Sequence[Card],
    cards: Sequence[Card],
    new_companions: Sequence[Card],
) -> Refusal | None:
    """None when revealing ``cards`` (with ``new_companions`` for a new combination) is legal now;
    else the first refusal of R13.1 in its order: ``wrong_count`` (R4.2/R4.4/R4.6),
    ``card_not_available`` (a card neither in the hand nor a companion, a new companion not in the
    hand; R4.1, R8.2), ``duplicate_cards`` (R13.1), ``new_combination_not_allowed`` (before round 3,
    R8.1; while a normal reveal is possible, R8.4; a card that is not a hand card, R8.2),
    ``not_related`` (R4.2, R4.4, R4.6; a companion not related to the new card, R8.2)."""
    rule = round_rule(round_no)
    need = required_count(round_no)
    if len(cards) != need:
        return Refusal("wrong_count", rule, f"round {round_no} asks for {need} card(s), not {len(cards)}")
    held = set(hand) | (set(companions) if round_no >= 3 else set())
    for card in cards:
        if card not in held:
            return Refusal("card_not_available", "R4.1", f"{card} is neither in the hand nor a companion")
    in_hand = set(hand)
    for card in new_companions:
        if card not in in_hand:
            return Refusal("card_not_available", "R8.2", f"the companion {card} is not in the hand")
    listed = [*cards, *new_companions]
    if len(set(listed)) != len(listed):
        return Refusal("duplicate_cards", "R13.1", f"a card is listed twice in {_codes(listed)}")
    if new_companions:
        if round_no < 3:
            return Refusal("new_combination_not_allowed", "R8.1", f"no new combination in round {round_no}")
        if normal_reveal_possible(round_no, hand, companions, revealed):
            return Refusal(
                "new_combination_not_allowed", "R8.4", "a card related to the revealed cards can be revealed"
            )
        card = cards[0]
        if card not in in_hand:
            return Refusal("new_combination_not_allowed", "R8.2", f"{card} is a companion, not a hand card")
        for other in new_companions:
            if other not in RELATED[card]:
                return Refusal("not_related", "R8.2", f"the companion {other} is not related to {card}")
        return None
    if round_no <= 2:
        a, b = cards
        if not _pair_ok(round_no, a, b, revealed):
            if round_no == 1:
                return Refusal("not_related", rule, f"{a} and {b} are not related")
            return Refusal("not_related", rule, f"{a} and {b}: each must be related to the other or to a revealed card")
        return None
    card = cards[0]
    if not related_to_any(card, revealed):
        return Refusal("not_related", rule, f"{card} is related to none of the revealed cards {_codes(revealed)}")
    return None


def reach(held: Sequence[Card], revealed: Sequence[Card]) -> tuple[Card, ...]:
    """The held cards that can be revealed one after another from ``revealed`` (R4.6): the closure of
    relatedness (R2.5), in the order found."""
    face_up = set(revealed)
    left = list(held)
    out: list[Card] = []
    grown = True
    while grown:
        grown = False
        for card in list(left):
            if related_to_any(card, face_up):
                face_up.add(card)
                out.append(card)
                left.remove(card)
                grown = True
    return tuple(out)


def final_lay_down(hand: Sequence[Card], companions: Sequence[Card], revealed: Sequence[Card]) -> tuple[Card, ...]:
    """The winner's automatic final lay-down (R10.2): every hand card or companion related to a
    revealed card, repeatedly, laid cards counting as revealed (chains).  Scanned in canonical card
    order, pass after pass, a card laid as soon as it is found related; returns the cards in the order
    laid (R10.10).

    >>> from trapoula.domain.cards import parse_cards
    >>> [c.code for c in final_lay_down(parse_cards("5H 7D 2C"), (), parse_cards("6H 7H"))]
    ['7D', '5H']
    """
    return reach(sorted_cards((*hand, *companions)), revealed)
