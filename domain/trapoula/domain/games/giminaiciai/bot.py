"""Giminaičiai's computer players: they decide from one seat's view only (DESIGN, Visibility).

A policy is a :data:`~trapoula.domain.game.BotPolicy`: ``(view, legal, rng) -> one of legal``.  It
reads the seat's view (``hand``, ``discard_pile``, ``taken``; games/giminaiciai/views.py) and the legal
payloads, never the state, so it cannot cheat.

* ``random`` (:func:`random_policy`): a command kind chosen uniformly among the kinds in ``legal``,
  then a payload of that kind uniformly, so the many lay-downs do not swamp ``discard``.
* ``heuristic`` (:func:`heuristic`):

  - draw: from the discard pile when its top card makes a lay-down possible (R5) or forms a set or a
    sequence of three with two cards of the hand (R6.2); else from the stock (R4.2);
  - after the draw: lay down as soon as it can, choosing the lay-down with the most cards (the
    extra-card bonus, R7.2; extra cards from the pile count, R5.3), then one without a discard;
  - otherwise discard the card least related to the rest of the hand (R6.1): fewest related cards,
    a card in a set or sequence of three counting double; ties broken by ``rng``.  A player left
    alone (R4.1) sees the turned-over pile come back in the same order (R4.6), so a fixed choice can
    repeat for ever; alone, it discards a card chosen by ``rng`` one turn in :data:`ALONE_EXPLORE`.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Mapping, Sequence
from typing import Any

from trapoula.domain.cards import Card, parse_card, parse_cards
from trapoula.domain.game import BotPolicy
from trapoula.domain.games.giminaiciai.laying import can_lay_down
from trapoula.domain.games.relatives import RankOrder, is_sequence, is_set, related

__all__ = ["ALONE_EXPLORE", "bot_levels", "discard_choice", "heuristic", "in_meld", "random_policy", "wants_pile_card"]

Cmd = Mapping[str, Any]
"""A command payload as ``legal`` lists it."""

ORDER = RankOrder.CYCLE
"""The rank cycle (R2.5)."""
ALONE_EXPLORE = 4
"""A player left alone discards a random allowed card one turn in this many (see the module docstring)."""


def random_policy(view: Mapping[str, Any], legal: Sequence[Cmd], rng: random.Random) -> Cmd:
    """The ``random`` level: a uniformly chosen kind, then a uniformly chosen payload of that kind."""
    kinds = sorted({str(c["kind"]) for c in legal})
    kind = rng.choice(kinds)
    return rng.choice([c for c in legal if c["kind"] == kind])


def in_meld(card: Card, others: Sequence[Card]) -> bool:
    """Whether ``card`` forms a set or a sequence of three with two of ``others`` (R6.2)."""
    for a, b in itertools.combinations(others, 2):
        trio = (card, a, b)
        if is_set(trio) or is_sequence(trio, ORDER):
            return True
    return False


def wants_pile_card(hand: Sequence[Card], top: Card) -> bool:
    """Whether the heuristic takes ``top`` from the discard pile: it makes a lay-down of the hand
    possible (R5.1, R5.2; it could not then be the discard, R4.5), or it joins a meld (R6.2)."""
    return can_lay_down((*hand, top), top) or in_meld(top, hand)


def discard_choice(hand: Sequence[Card], allowed: Sequence[Card], rng: random.Random) -> Card:
    """The card of ``allowed`` least related to the rest of ``hand`` (R6.1): the fewest related cards,
    plus 2 when it is in a meld of three (R6.2); ties broken by ``rng`` over canonical order."""

    def score(card: Card) -> int:
        others = [c for c in hand if c != card]
        return sum(related(card, o, ORDER) for o in others) + (2 if in_meld(card, others) else 0)

    scores = {c: score(c) for c in allowed}
    low = min(scores.values())
    return rng.choice(sorted((c for c, s in scores.items() if s == low), key=lambda c: c.sort_key))


def _laid(cmd: Cmd) -> int:
    return sum(len(g) for g in cmd["groups"])


def heuristic(view: Mapping[str, Any], legal: Sequence[Cmd], rng: random.Random) -> Cmd:
    """The ``heuristic`` level (see the module docstring)."""
    hand = parse_cards(view.get("hand") or ())
    draws = [c for c in legal if c["kind"] == "draw"]
    if draws:
        pile = view.get("discard_pile") or []
        from_pile = next((c for c in draws if c["source"] == "discard"), None)
        if from_pile is not None and pile and wants_pile_card(hand, parse_card(pile[-1])):
            return from_pile
        return next((c for c in draws if c["source"] == "stock"), draws[0])
    downs = [c for c in legal if c["kind"] == "lay_down"]
    if downs:
        return max(downs, key=lambda c: (_laid(c), "discard" not in c))
    discards = [c for c in legal if c["kind"] == "discard"]
    if not discards:
        return legal[0]
    players = view.get("players")
    alone = isinstance(players, int) and len(view.get("finished") or ()) == players - 1
    if alone and rng.randrange(ALONE_EXPLORE) == 0:
        return rng.choice(discards)
    choice = discard_choice(hand, [parse_card(c["card"]) for c in discards], rng)
    return next(c for c in discards if c["card"] == choice.code)


bot_levels: Mapping[str, BotPolicy] = {"random": random_policy, "heuristic": heuristic}
"""The levels Giminaičiai offers (DESIGN, Visibility): ``random`` and ``heuristic``."""
