"""What the shedding games' computer players share: reading card codes from a view and choosing a
suit to declare with a wild card (S6.2).  Each game's ``bot`` module keeps its own judgement.

>>> import random
>>> best_suit(["7H", "9H", "KS", "AC"], "A", {"7": 7, "9": 9, "K": 10, "A": 11}, random.Random(0))
'H'
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

SUITS = "CDHS"
"""The suit letters in canonical order (S2.3)."""


def rank(code: str) -> str:
    """The rank letter of a card code (``"TS"`` -> ``"T"``, S2.1)."""
    return code[0]


def suit(code: str) -> str:
    """The suit letter of a card code (``"TS"`` -> ``"S"``, S2.1)."""
    return code[1]


def without(hand: Sequence[str], card: str) -> list[str]:
    """``hand`` less one copy of ``card`` (unchanged if it holds none)."""
    out = list(hand)
    if card in out:
        out.remove(card)
    return out


def best_suit(cards: Sequence[str], wild: str, points: Mapping[str, int], rng: random.Random) -> str:
    """The suit to declare with a wild card: the one held most of, wild cards apart (they follow
    any suit); ties go to the suit worth most ``points`` (rank letter -> points), then at random."""
    plain = [c for c in cards if rank(c) != wild]
    counts = Counter(suit(c) for c in plain)
    worth = Counter({s: sum(points[rank(c)] for c in plain if suit(c) == s) for s in SUITS})
    best = max((counts[s], worth[s]) for s in SUITS)
    return rng.choice([s for s in SUITS if (counts[s], worth[s]) == best])


def wild_play(plays: Sequence[Mapping[str, Any]], card: str, declared: str) -> Mapping[str, Any]:
    """The listed play of the wild ``card`` that declares the suit ``declared``, or the first play of
    that card when none does (S6.2); ``plays`` holds at least one play of ``card``."""
    same = [c for c in plays if c["card"] == card]
    return next((c for c in same if c.get("suit") == declared), same[0])


def take_or_pass(
    kinds: Mapping[str, Sequence[Mapping[str, Any]]], legal: Sequence[Mapping[str, Any]], rng: random.Random
) -> Mapping[str, Any]:
    """With no card to play: draw (or take the pending draw, S7, S9.2) when listed, else pass when
    listed (S11), else any legal command at random; ``kinds`` is ``legal`` grouped by kind."""
    for kind in ("draw", "pass"):
        if kind in kinds:
            return kinds[kind][0]
    return rng.choice(legal)
