"""Mau Mau's computer players (docs/rules/mau_mau.md R7.2): see :mod:`trapoula.domain.bots`.

Every level sees only its seat's view and obeys R7.2.1-R7.2.3: it calls "Mau" once before a play
that will leave it one card (R7.2.2: with two cards in hand and a card to play, if it has not
called this turn), never leaves the table, and issues the only command it has when it has one.

* ``easy`` (also ``random``): a uniformly random legal command, ``leave`` and ``mau`` apart.
* ``medium`` (also ``heuristic``): never draws when it can play; answers a pending 7 with a 7;
  keeps jacks for when nothing else plays and then names the suit it holds most of; plays an ace
  or, with two players, an 8 first when a card can follow it; keeps the suit it holds most of.
* ``hard``: as ``medium``, and sheds its most costly cards first (aces, court cards, a second
  jack) and uses 8s, 9s and 7s against the next player when he is about to go out (R7.2.4).
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from trapoula.domain.bots import by_kind, hand_codes
from trapoula.domain.game import BotPolicy
from trapoula.domain.games.shedding.botkit import best_suit
from trapoula.domain.games.shedding.botkit import rank as _rank
from trapoula.domain.games.shedding.botkit import suit as _suit
from trapoula.domain.games.shedding.botkit import without as _without

_POINTS = {"2": 2, "3": 3, "4": 4, "5": 5, "6": 6, "7": 7, "8": 8, "9": 9, "T": 10, "J": 20, "Q": 10, "K": 10, "A": 11}
"""Mau Mau card points (R2.4), by rank letter."""


def _best_suit(cards: Sequence[str], rng: random.Random) -> str:
    """The suit to declare with a wild card (``botkit.best_suit``, wild rank ``J``)."""
    return best_suit(cards, "J", _POINTS, rng)


_NEVER = ("leave", "mau")
"""Kinds no level chooses freely: it never leaves (R7.2.1) and calls only when due (R7.2.2)."""

Cmd = Mapping[str, Any]


def _mau_due(view: Mapping[str, Any], kinds: Mapping[str, list[Cmd]]) -> Cmd | None:
    """R7.2.2: the call, when a play would leave one card and none was made this turn."""
    if "mau" in kinds and "play" in kinds and len(hand_codes(view)) == 2 and not view.get("mau_called"):
        return kinds["mau"][0]
    return None


def _fallback(legal: Sequence[Cmd]) -> Cmd:
    """Any command but ``leave`` (a level never leaves), else the first."""
    return next((c for c in legal if c.get("kind") != "leave"), legal[0])


def easy(view: Mapping[str, Any], legal: Sequence[Cmd], rng: random.Random) -> Cmd:
    """The ``easy`` and ``random`` levels (R7.2.4): a uniformly random legal command, never
    ``leave``, and "Mau" exactly when R7.2.2 asks for it."""
    kinds = by_kind(legal)
    call = _mau_due(view, kinds)
    if call is not None:
        return call
    free = [c for c in legal if c.get("kind") not in _NEVER]
    return rng.choice(free) if free else _fallback(legal)


def _follows(rest: Sequence[str], card: str) -> bool:
    """True if a card of ``rest`` can be played on ``card`` (same rank, same suit, or a jack)."""
    return any(_rank(c) == _rank(card) or _suit(c) == _suit(card) or _rank(c) == "J" for c in rest)


def _next_sizes(view: Mapping[str, Any]) -> tuple[int, int, int]:
    """(players in the hand, cards of the next player, cards of the player after the other way)."""
    seat = view.get("seat")
    seats = [int(s) for s in view.get("seats_in_hand") or ()]
    sizes = [int(s) for s in view.get("hand_sizes") or ()]
    if not isinstance(seat, int) or seat not in seats or not sizes:
        return len(seats), 7, 7
    d = -1 if view.get("direction") == -1 else 1
    i = seats.index(seat)
    nxt, prev = seats[(i + d) % len(seats)], seats[(i - d) % len(seats)]
    return len(seats), sizes[nxt], sizes[prev]


def _choose(view: Mapping[str, Any], legal: Sequence[Cmd], rng: random.Random, hard: bool) -> Cmd:
    kinds = by_kind(legal)
    call = _mau_due(view, kinds)
    if call is not None:
        return call
    hand = hand_codes(view)
    plays = kinds.get("play", [])
    plain = [c for c in plays if _rank(str(c["card"])) != "J"]
    jacks = [c for c in plays if _rank(str(c["card"])) == "J"]
    jack_count = sum(1 for c in hand if _rank(c) == "J")
    if plain and not (hard and jacks and jack_count >= 2 and len(hand) > 2):
        return _best_plain(view, hand, plain, rng, hard)
    if jacks:  # R5.4: only when nothing else plays (hard: also a second jack, it is worth 20)
        card = str(jacks[0]["card"])
        suit = _best_suit(_without(hand, card), rng)
        return next((c for c in jacks if c.get("suit") == suit), jacks[0])
    for kind in ("draw", "pass"):  # R5.1.2 take the penalty, R4.2 draw; R4.4 pass only when it must
        if kind in kinds:
            return kinds[kind][0]
    return _fallback(legal)


def _best_plain(view: Mapping[str, Any], hand: list[str], plays: Sequence[Cmd], rng: random.Random, hard: bool) -> Cmd:
    """Score each play that is not a jack; the best wins (ties at random)."""
    players, next_size, other_size = _next_sizes(view)
    danger = next_size <= 2

    def score(cmd: Cmd) -> float:
        card = str(cmd["card"])
        rank, suit = _rank(card), _suit(card)
        rest = _without(hand, card)
        value = sum(1.0 for c in rest if _suit(c) == suit and _rank(c) != "J")  # keep a suit it can follow
        again = rank == "A" or (rank == "8" and players == 2)  # R5.5.1, R5.2.2: it plays on
        if again:
            value += 6.0 if _follows(rest, card) else -4.0
        if hard:
            value += _POINTS[rank] / 2.0  # shed costly cards first (R7.2.4)
            if danger:  # R7.2.4: against a player about to go out
                if rank == "8" and players > 2:
                    value += 20.0
                elif rank == "9" and players > 2 and other_size > 2:
                    value += 15.0
                elif rank == "7":
                    value += 12.0
        return value

    best = max(score(c) for c in plays)
    return rng.choice([c for c in plays if score(c) == best])


def medium(view: Mapping[str, Any], legal: Sequence[Cmd], rng: random.Random) -> Cmd:
    """The ``medium`` and ``heuristic`` levels (R7.2.4; see the module docstring)."""
    return _choose(view, legal, rng, hard=False)


def hard(view: Mapping[str, Any], legal: Sequence[Cmd], rng: random.Random) -> Cmd:
    """The ``hard`` level (R7.2.4; see the module docstring)."""
    return _choose(view, legal, rng, hard=True)


bot_levels: Mapping[str, BotPolicy] = {
    "random": easy,
    "heuristic": medium,
    "easy": easy,
    "medium": medium,
    "hard": hard,
}
"""The computer-player levels (DESIGN, Visibility; R7.2): ``easy`` (also ``random``), ``medium`` (also
``heuristic``) and ``hard``."""
