"""The games trapoula serves: game key -> :class:`~trapoula.domain.game.GameSpec` (DESIGN, Games)."""

from __future__ import annotations

from typing import Any

from trapoula.domain.errors import InvalidInput
from trapoula.domain.game import GameSpec
from trapoula.domain.games.agonia import SPEC as AGONIA
from trapoula.domain.games.crazy_eights import SPEC as CRAZY_EIGHTS
from trapoula.domain.games.giminaiciai import SPEC as GIMINAICIAI
from trapoula.domain.games.mau_mau import SPEC as MAU_MAU
from trapoula.domain.games.romis import SPEC as ROMIS
from trapoula.domain.games.vida import SPEC as VIDA

GAMES: dict[str, GameSpec[Any, Any]] = {
    AGONIA.key: AGONIA,
    CRAZY_EIGHTS.key: CRAZY_EIGHTS,
    GIMINAICIAI.key: GIMINAICIAI,
    MAU_MAU.key: MAU_MAU,
    ROMIS.key: ROMIS,
    VIDA.key: VIDA,
}
"""Every game by key."""

DEFAULT_GAME = AGONIA.key
"""The game a tool plays when it is not told which (``trapoula play``, ``demo``, ``load``)."""


def find_game(key: str) -> GameSpec[Any, Any]:
    """The game with key ``key``.

    Raises:
        InvalidInput: no such game (``unknown_game``); the message lists the known keys.
    """
    try:
        return GAMES[key]
    except (KeyError, TypeError):
        raise InvalidInput(f"unknown game {key!r}; known: {', '.join(sorted(GAMES))}", reason="unknown_game") from None
