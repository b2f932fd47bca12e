"""Laying down (docs/rules/giminaiciai.md R5, R6, R7.2): checking a lay-down and listing the legal ones.

Pure functions on cards; the decider (``rules``) adds the turn and the seat.  Groups are judged by the
shared :mod:`trapoula.domain.games.relatives` (R6.6 with the rank cycle of R2.5).

Listing (``legal_commands``): :func:`lay_downs` gives every legal lay-down of a hand of 8 cards: each
way to split the cards, or the cards but one discard (R5.2), into one or two legal groups (R5.1), and
for each such split every way to add the extra cards from the top of the discard pile one by one, each
to a group it fits at that moment (R5.3), for every number of extra cards 0, 1, ... as far as they
fit.  Each lay-down is listed once, in canonical form (:func:`~trapoula.domain.games.giminaiciai.commands.canonical`
order: cards of a group in canonical order, groups by their lowest card); ``decide`` accepts any
ordering of the same groups.  Measured on random deals and in play (the package docstring gives the
sizes), the listing stays small: most hands admit no lay-down at all, and a hand that does rarely
admits more than a few dozen; only a long pile of cards that each fit either group multiplies it.
"""

from __future__ import annotations

import functools
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from trapoula.domain.cards import Card
from trapoula.domain.errors import Refusal as Refusal  # why a lay-down is refused (R5.6, reason codes of R11.3)
from trapoula.domain.games.relatives import RankOrder, explain_group, legal_group, related

__all__ = [
    "FIRST_FINISH_BONUS",
    "HAND_SIZE",
    "LayDownOption",
    "Refusal",
    "can_lay_down",
    "check_lay_down",
    "extra_card_bonus",
    "lay_downs",
]

ORDER = RankOrder.CYCLE
"""Giminaičiai's rank cycle (R2.5)."""
HAND_SIZE = 7
"""Cards held between turns (R1, R3.3, R4.4)."""
FIRST_FINISH_BONUS = 10
"""R7.1."""
MAX_GROUPS = 2
"""One or two groups (R5.1)."""

Group = tuple[Card, ...]


def extra_card_bonus(cards_laid: int) -> int:
    """The extra-card bonus for laying ``cards_laid`` cards (R7.2): 2^(N-7) - 1, 0 up to 7 cards.

    >>> [extra_card_bonus(n) for n in (7, 8, 9, 10, 11, 13)]
    [0, 1, 3, 7, 15, 63]
    """
    return 2 ** (cards_laid - HAND_SIZE) - 1 if cards_laid > HAND_SIZE else 0


@dataclass(frozen=True, slots=True)
class LayDownOption:
    """One legal lay-down in canonical form (see the module docstring)."""

    groups: tuple[Group, ...]
    discard: Card | None
    extra: int


def _codes(cards: Sequence[Card]) -> str:
    return " ".join(c.code for c in cards)


def check_lay_down(
    hand: Sequence[Card],
    taken: Card | None,
    pile: Sequence[Card],
    groups: Sequence[Sequence[Card]],
    discard: Card | None,
    extra: int,
) -> Refusal | None:
    """Check a lay-down's cards and groups (R5.1-R5.3, R5.6, R6); None when it is legal.

    ``hand``: the 8 cards held after the draw; ``taken``: the card taken from the discard pile this
    turn (R4.5) or None; ``pile``: the discard pile, bottom first; ``groups``, ``discard``, ``extra``:
    the command (R11.3).  The turn itself (who acts, the draw) is the caller's.

    The refusals, in the order of R11.3: ``card_not_in_hand`` (the discard is not a hand card, or a
    listed card is neither a hand card nor one of the top ``extra`` pile cards, R5.6),
    ``cannot_discard_taken_card`` (R4.5), ``not_enough_discards`` (``extra`` exceeds the pile, R5.3),
    ``bad_group_count`` (0 or more than 2 groups, R5.1), ``cards_mismatch`` (a card listed twice, a
    hand card neither laid nor discarded, an extra card not laid; R5.1, R5.3, R5.6), ``illegal_group``
    (a group is illegal on its hand cards; the rule and the card are :func:`explain_group`'s, R6),
    ``extra_card_does_not_fit`` (an extra card makes its group illegal when taken, or starts a group
    of its own, R5.3).
    """
    held = set(hand)
    tops = tuple(reversed(pile))[:extra]
    available = set(tops)
    listed = [c for g in groups for c in g]
    if discard is not None and discard not in held:
        return Refusal("card_not_in_hand", "R5.2", f"the discard {discard.code!r} is not in his hand")
    for card in listed:
        if card not in held and card not in available:
            return Refusal(
                "card_not_in_hand",
                "R5.6",
                f"{card.code!r} is neither in his hand nor among the top {extra} card(s) of the discard pile",
            )
    if discard is not None and discard == taken:
        return Refusal(
            "cannot_discard_taken_card", "R4.5", f"{discard.code!r} was taken from the discard pile this turn"
        )
    if extra > len(pile):
        return Refusal("not_enough_discards", "R5.3", f"extra {extra} exceeds the discard pile of {len(pile)} card(s)")
    if not 1 <= len(groups) <= MAX_GROUPS:
        return Refusal("bad_group_count", "R5.1", f"{len(groups)} groups listed; a lay-down has one or two")
    seen: set[Card] = set()
    for card in [*listed, *([discard] if discard is not None else [])]:
        if card in seen:
            return Refusal("cards_mismatch", "R5.6", f"{card.code!r} is listed twice")
        seen.add(card)
    for card in hand:
        if card not in seen:
            return Refusal(
                "cards_mismatch", "R5.1", f"{card.code!r} of his hand is neither laid nor named as the discard"
            )
    for card in tops:
        if card not in seen:
            return Refusal(
                "cards_mismatch", "R5.3", f"the extra card {card.code!r} taken from the discard pile is not laid"
            )
    parts: list[list[Card]] = []
    for i, group in enumerate(groups, start=1):
        own = [c for c in group if c in held]
        parts.append(own)
        if own or not group:
            problem = explain_group(own, ORDER)
            if problem is not None:
                return Refusal(
                    "illegal_group", problem.rule, f"group {i} ({_codes(own) or 'empty'}) is illegal: {problem.message}"
                )
    home = {card: i for i, group in enumerate(groups) for card in group}
    for j, card in enumerate(tops, start=1):
        part = parts[home[card]]
        part.append(card)
        if not legal_group(part, ORDER):
            if any(c in held for c in part):
                why = f"does not fit group {home[card] + 1} ({_codes(part[:-1])})"
            else:
                why = "would start a group of its own"
            return Refusal("extra_card_does_not_fit", "R5.3", f"extra card {j}, {card.code!r}, {why} when taken")
    return None


@functools.lru_cache(maxsize=1 << 17)
def _legal_set(cards: frozenset[Card]) -> bool:
    """Whether a set of cards is a legal group (R6.3-R6.6): it depends on the cards alone, so the
    answers are kept across listings, hands and matches (small groups recur all the time)."""
    return legal_group(cards, ORDER)


class _Legal:
    """``legal_group`` with a memo for one listing (the same subsets recur across discards), backed by
    the answers kept across listings (:func:`_legal_set`)."""

    __slots__ = ("memo",)

    def __init__(self) -> None:
        self.memo: dict[frozenset[Card], bool] = {}

    def __call__(self, cards: Group) -> bool:
        key = frozenset(cards)
        known = self.memo.get(key)
        if known is None:
            known = self.memo[key] = _legal_set(key)
        return known


class _Subsets:
    """Legality of the subsets of one listing's cards, named by bit masks (bit ``i``: ``cards[i]``),
    remembered for the listing (the same subsets recur across discards) and backed by the answers kept
    across listings (:func:`_legal_set`)."""

    __slots__ = ("cards", "links", "memo")

    def __init__(self, cards: Group) -> None:
        self.cards = cards
        self.links = tuple(
            sum(1 << j for j, other in enumerate(cards) if related(card, other, ORDER)) for card in cards
        )
        """For each card, the mask of the cards related to it (R6.1)."""
        self.memo: dict[int, bool] = {}

    def group(self, mask: int) -> Group:
        """The cards of ``mask``, in the order of ``cards``."""
        return tuple(card for i, card in enumerate(self.cards) if mask >> i & 1)

    def legal(self, mask: int) -> bool:
        """Whether the cards of ``mask`` form a legal group (R6.3-R6.6)."""
        known = self.memo.get(mask)
        if known is None:
            # every card of a legal group is related to another of its cards (a main card to its
            # neighbour in the set or the run, a relative to the card it hangs on or to the run it
            # shares with one, R6.4): a subset with a card related to none is refused at once
            links, rest = self.links, mask
            while rest:
                low = rest & -rest
                if not links[low.bit_length() - 1] & mask:
                    known = self.memo[mask] = False
                    return known
                rest ^= low
            known = self.memo[mask] = _legal_set(frozenset(self.group(mask)))
        return known


def _splits(rest: int, subsets: _Subsets) -> Iterator[tuple[Group, ...]]:
    """Every split of the cards of mask ``rest`` into one or two legal groups, each split once (R5.1).

    Order: the whole as one group, then the pairs (the group of the first card, the others) by the
    mask of the first group's other cards, increasing."""
    if rest.bit_count() < 3:  # no group of fewer than 3 cards is legal (R6.3): an emptied hand lays nothing
        return
    if subsets.legal(rest):
        yield (subsets.group(rest),)
    first = rest & -rest
    others = rest ^ first
    sub = 0
    while sub != others:  # the group of the first card never takes every card
        a = first | sub
        b = others ^ sub
        if a.bit_count() >= 3 and b.bit_count() >= 3 and subsets.legal(a) and subsets.legal(b):
            yield (subsets.group(a), subsets.group(b))
        sub = (sub - others) & others  # the next submask of ``others``, in increasing order


def _with_extras(
    groups: tuple[Group, ...], tops: Group, j: int, legal: _Legal
) -> Iterator[tuple[tuple[Group, ...], int]]:
    """``groups`` with extra cards ``tops[:j]`` placed, then every way to place the next ones (R5.3)."""
    yield groups, j
    if j < len(tops):
        card = tops[j]
        for i, group in enumerate(groups):
            grown = (*group, card)
            if legal(grown):
                yield from _with_extras((*groups[:i], grown, *groups[i + 1 :]), tops, j + 1, legal)


def _canonical(groups: tuple[Group, ...]) -> tuple[Group, ...]:
    ordered = (tuple(sorted(g, key=lambda c: c.sort_key)) for g in groups)
    return tuple(sorted(ordered, key=lambda g: tuple(c.sort_key for c in g)))


def _holds_meld(cards: Sequence[Card]) -> bool:
    """Whether some three of ``cards`` form a set or a sequence on the rank cycle (R6.2, R2.5): a
    group without one is never legal (R6.3), so a hand without one has no lay-down at all."""
    ranks: dict[object, int] = {}
    for c in cards:
        ranks[c.rank] = ranks.get(c.rank, 0) + 1
    if any(count >= 3 for count in ranks.values()):
        return True
    present = {(c.suit, c.rank.order) for c in cards}
    return any((s, (r + 1) % 13) in present and (s, (r + 2) % 13) in present for s, r in present)


def _iter_lay_downs(hand: Sequence[Card], taken: Card | None, pile: Sequence[Card]) -> Iterator[LayDownOption]:
    cards = tuple(sorted(hand, key=lambda c: c.sort_key))
    if not _holds_meld(cards):
        return
    subsets = _Subsets(cards)
    loners = [c for c, links in zip(cards, subsets.links, strict=True) if not links]
    if len(loners) > 1:  # a card related to no other hand card can only be discarded (R5.3, decision 7)
        return
    discards: list[Card | None] = [None, *cards] if not loners else list(loners)
    tops = tuple(reversed(pile))
    legal = _Legal()
    everything = (1 << len(cards)) - 1
    for discard in discards:
        if discard is not None and discard == taken:  # R4.5
            continue
        rest = everything
        if discard is not None:
            rest &= ~sum(1 << i for i, card in enumerate(cards) if card == discard)
            if not _holds_meld(subsets.group(rest)):
                continue
        for split in _splits(rest, subsets):
            for groups, extra in _with_extras(split, tops, 0, legal):
                yield LayDownOption(_canonical(groups), discard, extra)


def lay_downs(hand: Sequence[Card], taken: Card | None, pile: Sequence[Card] = ()) -> tuple[LayDownOption, ...]:
    """Every legal lay-down of ``hand`` (the cards held after the draw), in canonical form, each once.

    ``taken`` is the card taken from the discard pile this turn (never the discard, R4.5); ``pile`` the
    discard pile, bottom first, for the extra cards (R5.3).  Order: no discard first, then each
    discard in canonical card order; within a discard, the splits into groups, each followed by its
    extra-card continuations in increasing ``extra``.  See the module docstring.
    """
    return _lay_downs(tuple(hand), taken, tuple(pile))


@functools.lru_cache(maxsize=256)
def _lay_downs(hand: tuple[Card, ...], taken: Card | None, pile: tuple[Card, ...]) -> tuple[LayDownOption, ...]:
    """:func:`lay_downs`, remembered: every view and legality check of a turn asks it again."""
    seen: set[tuple[tuple[Group, ...], Card | None, int]] = set()
    out: list[LayDownOption] = []
    for option in _iter_lay_downs(hand, taken, pile):
        key = (option.groups, option.discard, option.extra)
        if key not in seen:
            seen.add(key)
            out.append(option)
    return tuple(out)


def can_lay_down(hand: Sequence[Card], taken: Card | None) -> bool:
    """Whether ``hand`` (the cards held after the draw) can be laid down at all (R5.1, R5.2, R4.5)."""
    return next(_iter_lay_downs(hand, taken, ()), None) is not None
