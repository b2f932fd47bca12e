"""The games trapoula serves: game key -> :class:`~trapoula.domain.game.GameSpec` (DESIGN, Games)."""

from __future__ import annotations

from typing import Any

from trapoula.domain.errors import InvalidInput
from trapoula.domain.game import GameSpec
from trapoula.domain.games.agonia import SPEC as AGONIA

GAMES: dict[str, GameSpec[Any, Any]] = {AGONIA.key: AGONIA}
"""Every game by key."""


def find_game(key: str) -> GameSpec[Any, Any]:
    """The game with key ``key``.

    Raises:
        InvalidInput: no such game (``unknown_game``); the message lists the known keys.
    """
    try:
        return GAMES[key]
    except (KeyError, TypeError):
        raise InvalidInput(f"unknown game {key!r}; known: {', '.join(sorted(GAMES))}", reason="unknown_game") from None
