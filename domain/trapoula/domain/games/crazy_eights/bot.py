"""Crazy Eights' heuristic computer player (docs/rules/crazy_eights.md): see :mod:`trapoula.domain.bots`.

It decides from one seat's view only.  Play rather than draw (R4.2); go out when it can (R6.1);
on a pending draw play a 2 when it holds one (R5.2.2), else take the cards; shed the cards worth
most first (R2.4: they count in blocked hands and in the points game) from the suit it holds most
of; keep eights (wild, R5.1) for when nothing else plays, then name the suit it holds most of;
use the action cards (R5.2-R5.5) against a next player close to going out, and a jack with two
players when another card can follow it (R5.4.2); pass only when it must (R4.3, R4.4).
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from trapoula.domain.bots import by_kind, hand_codes, uniform
from trapoula.domain.game import BotPolicy
from trapoula.domain.games.shedding.botkit import best_suit, take_or_pass, wild_play
from trapoula.domain.games.shedding.botkit import rank as _rank
from trapoula.domain.games.shedding.botkit import suit as _suit
from trapoula.domain.games.shedding.botkit import without as _without

_VALUES = {"2": 2, "3": 3, "4": 4, "5": 5, "6": 6, "7": 7, "8": 50, "9": 9, "T": 10, "J": 10, "Q": 10, "K": 10, "A": 1}
"""Crazy Eights card values (R2.4), by rank letter."""


def _best_suit(cards: Sequence[str], rng: random.Random) -> str:
    """The suit to declare with a wild card (``botkit.best_suit``, wild rank ``8``)."""
    return best_suit(cards, "8", _VALUES, rng)


def heuristic(view: Mapping[str, Any], legal: Sequence[Mapping[str, Any]], rng: random.Random) -> Mapping[str, Any]:
    """Crazy Eights' ``heuristic`` level (see the module docstring); returns one of ``legal``.

    ``view`` is the seat's view (``hand``, ``hand_sizes``, ``seat``, ``direction``, ``options``);
    ``legal`` its command payloads.
    """
    hand = hand_codes(view)
    kinds = by_kind(legal)
    plays = kinds.get("play", [])
    if plays:
        if len(hand) == 1:  # R6.1: go out (R5.7: whatever the card)
            return plays[0]
        plain = [c for c in plays if _rank(str(c["card"])) != "8"]
        if plain:
            return _best_plain(view, hand, plain, rng)
        card = min(str(c["card"]) for c in plays)  # only eights play: any will do
        suit = _best_suit(_without(hand, card), rng)
        return wild_play(plays, card, suit)  # R5.1.2
    return take_or_pass(kinds, legal, rng)  # R5.2.2 take the penalty, R4.2 draw; R4.3-R4.4 pass when it must


def _best_plain(
    view: Mapping[str, Any], hand: list[str], plays: Sequence[Mapping[str, Any]], rng: random.Random
) -> Mapping[str, Any]:
    """Score each play that is not an 8; the best wins (ties at random)."""
    options: Mapping[str, Any] = view.get("options") or {}
    sizes = [int(s) for s in view.get("hand_sizes") or ()]
    n = len(sizes) or 2
    seat = view.get("seat")
    direction = -1 if view.get("direction") == -1 else 1  # R5.5
    nxt = (seat + direction) % n if isinstance(seat, int) else None
    next_size = sizes[nxt] if nxt is not None and nxt < len(sizes) else 5
    danger = next_size <= 2

    def score(cmd: Mapping[str, Any]) -> float:
        card = str(cmd["card"])
        rank, suit = _rank(card), _suit(card)
        rest = _without(hand, card)
        value = 0.5 * _VALUES[rank]  # R2.4: shed what is worth most
        value += 2.0 * sum(1 for c in rest if _suit(c) == suit and _rank(c) != "8")  # R4.1: follow it next turn
        if rank == "2" and options.get("twos_draw_two"):  # R5.2
            value += 4.0 + (10.0 if danger else 0.0)
        elif card == "QS" and options.get("queen_spades_draw_five"):  # R5.3
            value += 6.0 + (12.0 if danger else 0.0)
        elif rank == "J" and options.get("jacks_skip"):  # R5.4
            if n == 2:  # R5.4.2: a new turn; worth it only if a card can follow
                follows = any(_suit(c) == suit or _rank(c) in ("J", "8") for c in rest)
                value += 20.0 if follows else -3.0
            else:
                value += 2.0 + (8.0 if danger else 0.0)
        elif rank == "A" and options.get("aces_reverse") and n > 2:  # R5.5: away from a player about to go out
            value += 6.0 if danger else 0.0
        return value

    best = max(score(c) for c in plays)
    return rng.choice([c for c in plays if score(c) == best])


bot_levels: Mapping[str, BotPolicy] = {"random": uniform, "heuristic": heuristic}
"""The computer-player levels (DESIGN, Visibility): ``random`` (the platform's uniform choice) and ``heuristic``."""
