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
