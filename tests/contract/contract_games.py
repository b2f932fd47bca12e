"""The games the contract suite runs over and the server it runs them on: every game in the registry
(the built-in ones and every plug-in found through the ``trapoula.games`` entry points, Top Card among
them), each with options that make its match short, and the seats of a match."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from grpc_helpers import Stub

from trapoula.domain.game import GameSpec
from trapoula.domain.registry import GAMES
from trapoula.service.application import Tables

KEYS: tuple[str, ...] = tuple(sorted(GAMES))
"""Every registered game (the tests' conftest has plugged in ``tests/plugins`` before)."""

SHORT: dict[str, dict[str, Any]] = {
    "agonia": {"target_points": 1},
    "crazy_eights": {"scoring": "single"},
    "giminaiciai": {"target_score": 10},
    "mau_mau": {"elimination_limit": -1},
    "romis": {"target_score": 10},
    "top_card": {"target_points": 1},
    "vida": {"target_score": 100, "wins_needed": 1},
}
"""Options for a match of a hand or a few; a game not named here plays with its defaults."""


def short_options(key: str) -> dict[str, Any]:
    """:data:`SHORT` of ``key``, else ``{}``."""
    return dict(SHORT.get(key, {}))


def seats(spec: GameSpec[Any, Any]) -> int:
    """The seats of a contract match: three, or as many as the game needs or takes."""
    return min(spec.max_players, max(spec.min_players, 3))


@dataclass
class Served:
    """A running server: its ``Tables`` (to wait for the bots and read the store), its address and a stub."""

    tables: Tables
    address: str
    stub: Stub
