"""Agonia's heuristic computer player (docs/rules/agonia.md): see :mod:`trapoula.domain.bots`.

Play rather than draw; on a pending draw play a 7 when it holds one (R5.2.2), else take the
cards; shed high-point cards first (R2.4); keep aces (wild, R5.1) for when nothing else plays and
then declare the suit it holds most of; play an 8 (R5.3) first when another card can follow it,
last otherwise; pass only when it must (R4.4); announce when the rules ask (R7.5: the legal
payloads carry it).
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from trapoula.domain.bots import by_kind, hand_codes, uniform
from trapoula.domain.game import BotPolicy
from trapoula.domain.games.shedding.botkit import best_suit, take_or_pass, wild_play
from trapoula.domain.games.shedding.botkit import rank as _rank
from trapoula.domain.games.shedding.botkit import suit as _suit
from trapoula.domain.games.shedding.botkit import without as _without

_POINTS = {"2": 2, "3": 3, "4": 4, "5": 5, "6": 6, "7": 7, "8": 8, "9": 9, "T": 10, "J": 10, "Q": 10, "K": 10, "A": 11}
"""Agonia card points (R2.4), by rank letter."""


def _best_suit(cards: Sequence[str], rng: random.Random) -> str:
    """The suit to declare with a wild card (``botkit.best_suit``, wild rank ``A``)."""
    return best_suit(cards, "A", _POINTS, rng)


def _suit_counts(cards: Sequence[str]) -> Counter[str]:
    """How many non-ace cards of each suit (aces are wild: they follow any suit)."""
    return Counter(_suit(c) for c in cards if _rank(c) != "A")


def heuristic(view: Mapping[str, Any], legal: Sequence[Mapping[str, Any]], rng: random.Random) -> Mapping[str, Any]:
    """Agonia's ``heuristic`` level (see the module docstring); returns one of ``legal``."""
    hand = hand_codes(view)
    kinds = by_kind(legal)
    if "choose_suit" in kinds:  # R7.2.2
        suit = _best_suit(hand, rng)
        return next((c for c in kinds["choose_suit"] if c.get("suit") == suit), kinds["choose_suit"][0])
    plays = kinds.get("play", [])
    plain = [c for c in plays if _rank(str(c["card"])) != "A"]
    if plain:
        return _best_plain(view, hand, plain, rng)
    aces = [c for c in plays if _rank(str(c["card"])) == "A"]
    if aces:  # R5.1: only when nothing else plays
        card = max({str(c["card"]) for c in aces}, key=lambda a: (_suit_counts(_without(hand, a))[_suit(a)], a))
        suit = _best_suit(_without(hand, card), rng)
        return wild_play(aces, card, suit)
    return take_or_pass(kinds, legal, rng)  # R5.2.2 take the penalty, R4.2 draw; R4.4 pass only after


def _best_plain(
    view: Mapping[str, Any], hand: list[str], plays: Sequence[Mapping[str, Any]], rng: random.Random
) -> Mapping[str, Any]:
    """Score each non-ace play; the best wins (ties at random)."""
    sizes = [int(s) for s in view.get("hand_sizes") or ()]
    seat = view.get("seat")
    n = len(sizes) or 2
    nxt = (seat + 1) % n if isinstance(seat, int) else None
    next_size = sizes[nxt] if nxt is not None and nxt < len(sizes) else 7

    def score(cmd: Mapping[str, Any]) -> float:
        card = str(cmd["card"])
        rank, suit = _rank(card), _suit(card)
        rest = _without(hand, card)
        value = float(_POINTS[rank])  # R2.4: shed high points first
        value += 0.6 * _suit_counts(rest)[suit]  # keep a suit it can follow
        again = rank == "8" or (rank == "9" and n == 2)  # R5.3.1, R5.4.2: plays again
        if again:
            follows = [c for c in rest if _suit(c) == suit or _rank(c) == rank or _rank(c) == "A"]
            value += 30.0 if follows else -30.0
        elif rank == "7":  # R5.2.1: the next player owes two
            value += 4.0 + (12.0 if next_size <= 2 else 0.0)
        elif rank == "9":  # R5.4.1: the next player loses his turn
            value += 3.0 + (8.0 if next_size <= 2 else 0.0)
        if len(rest) == 1 and _rank(rest[0]) in "A89":  # R4.6: do not keep a card that cannot go out
            value -= 5.0
        return value

    best = max(score(c) for c in plays)
    return rng.choice([c for c in plays if score(c) == best])


bot_levels: Mapping[str, BotPolicy] = {"random": uniform, "heuristic": heuristic}
"""The computer-player levels (DESIGN, Visibility): ``random`` (the platform's uniform choice) and ``heuristic``."""
