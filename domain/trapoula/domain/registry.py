"""The games trapoula serves: game key -> :class:`~trapoula.domain.game.GameSpec` (DESIGN, Games).

Games are plug-ins: each is found through the Python entry point group ``trapoula.games``, whose
entries name a ``GameSpec`` (``agonia = "trapoula.domain.games.agonia:SPEC"``).  The six built-in
games register the same way in trapoula's own package metadata; a game from another distribution
registers in its own (docs/adding-a-game.md).  The registry reads the group once, on first use;
:func:`reload` reads it again (for a game whose distribution was put on ``sys.path`` later).

>>> "agonia" in GAMES and GAMES["agonia"].key
'agonia'
"""

from __future__ import annotations

import logging
from collections.abc import Iterator, MutableMapping
from importlib.metadata import entry_points
from typing import Any

from trapoula.domain.errors import InvalidInput
from trapoula.domain.game import GameSpec

ENTRY_POINT_GROUP = "trapoula.games"
"""The entry point group that names every game: ``key = "module:attribute"`` of a ``GameSpec``."""

log = logging.getLogger(__name__)


def discover() -> dict[str, GameSpec[Any, Any]]:
    """Every game named in the entry point group :data:`ENTRY_POINT_GROUP`, by key, in key order.

    An entry that does not load, that is not a ``GameSpec`` or whose name is not its spec's key is
    skipped with an error in the log (one broken plug-in never hides the others); when two entries
    claim one key the first found is kept.
    """
    found: dict[str, GameSpec[Any, Any]] = {}
    for entry in entry_points(group=ENTRY_POINT_GROUP):
        try:
            spec = entry.load()
        except Exception:
            log.exception("game plug-in %s = %s does not load; skipped", entry.name, entry.value)
            continue
        if not isinstance(spec, GameSpec) or spec.key != entry.name:
            log.error(
                "game plug-in %s = %s is not the GameSpec of game %r; skipped", entry.name, entry.value, entry.name
            )
            continue
        found.setdefault(spec.key, spec)
    return dict(sorted(found.items()))


class Registry(MutableMapping[str, GameSpec[Any, Any]]):
    """A mapping of game key -> ``GameSpec``, filled from the entry points on first use.

    Setting or deleting a key changes this process's registry only, until :meth:`reload` (tests put
    a changed game in its place so).
    """

    def __init__(self) -> None:
        self._games: dict[str, GameSpec[Any, Any]] | None = None

    def _loaded(self) -> dict[str, GameSpec[Any, Any]]:
        games = self._games
        if games is None:
            games = self._games = discover()
        return games

    def reload(self) -> None:
        """Read the entry point group again on next use."""
        self._games = None

    def __getitem__(self, key: str) -> GameSpec[Any, Any]:
        return self._loaded()[key]

    def __setitem__(self, key: str, spec: GameSpec[Any, Any]) -> None:
        self._loaded()[key] = spec

    def __delitem__(self, key: str) -> None:
        del self._loaded()[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self._loaded())

    def __len__(self) -> int:
        return len(self._loaded())

    def __repr__(self) -> str:
        return f"Registry({sorted(self._loaded())})"


GAMES = Registry()
"""Every game by key (see the module docstring)."""


def reload() -> None:
    """Read the entry point group ``trapoula.games`` again (a plug-in put on ``sys.path`` after start)."""
    GAMES.reload()


DEFAULT_GAME = "agonia"
"""The game a tool plays when it is not told which (``trapoula play``, ``demo``, ``load``): the first
game of the seed documents."""


def find_game(key: str) -> GameSpec[Any, Any]:
    """The game with key ``key``.

    Raises:
        InvalidInput: no such game (``unknown_game``); the message lists the known keys.
    """
    try:
        return GAMES[key]
    except (KeyError, TypeError):
        raise InvalidInput(f"unknown game {key!r}; known: {', '.join(sorted(GAMES))}", reason="unknown_game") from None
