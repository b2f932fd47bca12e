"""Computer players that see only what a seat sees (DESIGN, Visibility).

A bot decides from one seat's view (``GameSpec.seat_view``): its own hand, the public piles and
counts, and ``view["legal"]``, the command payloads open to it.  It never sees the stock, another
hand or the seed, so a bot cannot cheat even when it runs inside the server.  Randomness is an
input (a :class:`random.Random`), never the domain's own (STYLE habit 3):

>>> import random
>>> view = {"game": "agonia", "legal": [{"kind": "draw", "seat": 0}], "hand": ["7H"]}
>>> choose("agonia", view, "heuristic", random.Random(1))
{'kind': 'draw', 'seat': 0}

Each game names its levels and their policies (``GameSpec.bot_levels``); every game offers at
least:

* ``random``: a uniformly random legal command (unless the game's rules oblige every computer
  player to something, e.g. the "Mau" call of ``mau_mau`` R7.2.2);
* ``heuristic``: the game's own sensible play (each game's ``bot`` module).
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from trapoula.domain.errors import InvalidInput

__all__ = ["LEVELS", "by_kind", "check_level", "choose", "hand_codes", "levels", "uniform"]

LEVELS: tuple[str, ...] = ("random", "heuristic")
"""The bot levels every game offers."""


def uniform(view: Mapping[str, Any], legal: Sequence[Mapping[str, Any]], rng: random.Random) -> Mapping[str, Any]:
    """The ``random`` level: a uniformly random legal command."""
    return rng.choice(legal)


def by_kind(legal: Sequence[Mapping[str, Any]]) -> dict[str, list[Mapping[str, Any]]]:
    """A seat's legal command payloads grouped by their ``kind``, each group in the order listed.

    >>> by_kind([{"kind": "play", "card": "7H"}, {"kind": "draw"}, {"kind": "play", "card": "8H"}])["play"]
    [{'kind': 'play', 'card': '7H'}, {'kind': 'play', 'card': '8H'}]
    """
    out: dict[str, list[Mapping[str, Any]]] = {}
    for cmd in legal:
        out.setdefault(str(cmd.get("kind")), []).append(cmd)
    return out


def hand_codes(view: Mapping[str, Any]) -> list[str]:
    """The card codes of the hand in a seat's view (``view["hand"]``; none for a spectator)."""
    return [str(c) for c in view.get("hand") or ()]


def levels(game: str) -> tuple[str, ...]:
    """Every bot level of ``game``: ``random`` and ``heuristic`` first, then the game's own.

    Raises:
        InvalidInput: unknown game (``unknown_game``).
    """
    from trapoula.domain.registry import find_game  # the registry imports every game, and games import this

    own = find_game(game).bot_levels
    return (*LEVELS, *(level for level in own if level not in LEVELS))


def check_level(level: str, game: str | None = None) -> str:
    """Return ``level`` if it is a bot level of ``game`` (of every game when ``game`` is None).

    Raises:
        InvalidInput: unknown level (``bad_bot_level``) or game (``unknown_game``).
    """
    known = LEVELS if game is None else levels(game)
    if level not in known:
        where = f" of {game}" if game is not None else ""
        raise InvalidInput(
            f"unknown bot level {level!r}{where}; expected one of {', '.join(known)}", reason="bad_bot_level"
        )
    return level


def choose(game: str, view: Mapping[str, Any], level: str, rng: random.Random) -> dict[str, Any]:
    """The command a bot of ``level`` issues from ``view`` (one seat's view of ``game``).

    Args:
        game: the game key (``"agonia"``).
        view: the seat's view as ``GameSpec.seat_view`` builds it; only ``legal`` is required
            (and whatever the game's heuristic reads: its hand, the hand sizes ...).
        level: one of :func:`levels` of the game.
        rng: the source of every random choice (ties, the random level).

    Returns:
        One of the payloads of ``view["legal"]`` (a copy).

    Raises:
        InvalidInput: unknown game or level (``bad_bot_level``), or no legal command in the view
            (``no_legal_command``: it is not this seat's turn).
    """
    from trapoula.domain.registry import find_game

    check_level(level, game)
    legal = [dict(c) for c in view.get("legal") or ()]
    if not legal:
        seat = view.get("seat")
        raise InvalidInput(f"bot for seat {seat!r} ({game}): no legal command in its view", reason="no_legal_command")
    policy = find_game(game).bot_levels.get(level, uniform)
    return dict(policy(view, legal, rng))
