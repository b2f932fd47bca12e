"""Romis su iškritimu's computer players: they decide from one seat's view only (DESIGN, Visibility).

A policy is a :data:`~trapoula.domain.game.BotPolicy`: ``(view, legal, rng) -> one of legal``.  It
reads the seat's view (``hand``, ``companions``, ``revealed``; games/romis/views.py) and the legal
payloads, never the state, so it cannot cheat.

* ``random`` (:func:`random_policy`): a command kind chosen uniformly among the kinds in ``legal``,
  then a payload of that kind uniformly, so the many reveals do not swamp the other kinds.
* ``heuristic`` (:func:`heuristic`): ``use_auxiliary`` and ``cannot`` are only ever legal alone
  (R6.1, R6.3), so the choice is among reveals.  It takes the reveal that keeps most cards for later
  (:func:`score_reveal`): first the most rounds its known cards still let it survive (:func:`survival`:
  the held cards reachable from the revealed ones, one related card after another, R4.6, R8.3, plus
  every group of related hand cards that can start a new combination, R8); then the most held cards
  reachable without a new combination (what the final lay-down takes if it wins, R10.2); then the most
  unseen cards related to its revealed and reachable cards (cards still to come that would fit, R4.3,
  R4.5, R6.1, R7.4); then the most companions (R8.2); ties are broken by ``rng``.

  Measured: the choice of reveal seldom changes a hand.  In rounds 3 and later the order of the
  reveals never changes what the known cards allow (the reachable cards and the groups stay the same),
  so only the pairs of rounds 1 and 2 and the card that starts a new combination matter.  Playing the
  same 1,500 deals twice, one seat heuristic and then random (the others random both times, each seat
  with its own random source), the seat's points differed in 13 two-player hands (9 in favour of the
  heuristic, +42 points; 4 of random, -16), in 2 three-player hands (both of random, -10) and in no
  four-player hand.
"""

from __future__ import annotations

import random
from collections.abc import Collection, Mapping, Sequence
from typing import Any

from trapoula.domain.cards import Card, deck_52, parse_cards
from trapoula.domain.game import BotPolicy
from trapoula.domain.games.romis.reveals import RELATED, reach, related_to_any

__all__ = ["bot_levels", "heuristic", "random_policy", "reach", "score_reveal", "survival"]

Cmd = Mapping[str, Any]
"""A command payload as ``legal`` lists it."""

_DECK = deck_52()


def random_policy(view: Mapping[str, Any], legal: Sequence[Cmd], rng: random.Random) -> Cmd:
    """The ``random`` level: a uniformly chosen kind, then a uniformly chosen payload of that kind."""
    kinds = sorted({str(c["kind"]) for c in legal})
    kind = rng.choice(kinds)
    return rng.choice([c for c in legal if c["kind"] == kind])


def survival(hand: Sequence[Card], companions: Sequence[Card], revealed: Sequence[Card]) -> int:
    """How many more rounds from round 3 on the known cards let the player reveal (R4.6, R8): the
    held cards reachable from ``revealed`` (:func:`reach`), plus every group of two or more related
    hand cards left, each of which can start a new combination and then be revealed card by card (R8.1,
    R8.2).  The order of the reveals does not change it."""
    reached = reach((*hand, *companions), revealed)
    rest = [c for c in hand if c not in reached]
    total = len(reached)
    placed: set[Card] = set()
    for card in rest:
        if card in placed:
            continue
        group = {card}
        todo = [card]
        while todo:
            here = todo.pop()
            for other in rest:
                if other not in group and other in RELATED[here]:
                    group.add(other)
                    todo.append(other)
        placed |= group
        if len(group) >= 2:
            total += len(group)
    return total


def score_reveal(
    hand: Sequence[Card],
    companions: Sequence[Card],
    revealed: Sequence[Card],
    seen: Collection[Card],
    cards: Sequence[Card],
    new_companions: Sequence[Card],
) -> tuple[int, int, int, int]:
    """The heuristic's score of revealing ``cards`` (with ``new_companions``): (:func:`survival`
    afterwards; held cards reachable afterwards without a new combination, what a final lay-down would
    take, R10.2; cards neither held nor ``seen`` related to the revealed and reachable ones; companions)."""
    after = (*revealed, *cards)
    left = [c for c in hand if c not in cards and c not in new_companions]
    kept = [*(c for c in companions if c not in cards), *new_companions]
    reachable = reach((*left, *kept), after)
    grown = {*after, *reachable}
    known = {*hand, *companions, *revealed, *seen}
    fitting = sum(1 for c in _DECK if c not in known and related_to_any(c, grown))
    return survival(left, kept, after), len(reachable), fitting, len(new_companions)


def heuristic(view: Mapping[str, Any], legal: Sequence[Cmd], rng: random.Random) -> Cmd:
    """The ``heuristic`` level (see the module docstring)."""
    reveals = [c for c in legal if c["kind"] == "reveal"]
    if not reveals:
        return legal[0]
    seat = view.get("seat")
    hand = parse_cards(view.get("hand") or ())
    companions = parse_cards(view.get("companions") or ())
    table = [parse_cards(r) for r in view.get("revealed") or ()]
    revealed = table[seat] if isinstance(seat, int) and 0 <= seat < len(table) else ()
    seen = {c for r in table for c in r}
    scored = [
        (
            score_reveal(
                hand, companions, revealed, seen, parse_cards(c["cards"]), parse_cards(c.get("companions") or ())
            ),
            i,
        )
        for i, c in enumerate(reveals)
    ]
    best = max(score for score, _ in scored)
    return reveals[rng.choice([i for score, i in scored if score == best])]


bot_levels: Mapping[str, BotPolicy] = {"random": random_policy, "heuristic": heuristic}
"""The levels Romis su iškritimu offers (DESIGN, Visibility): ``random`` and ``heuristic``."""
