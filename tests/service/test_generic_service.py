"""The service knows no game: outside a game's own package no code names a game or one of its
events (the platform reads games through ``GameSpec`` and the lifecycle roles)."""

from __future__ import annotations

import re
from pathlib import Path

from trapoula.domain.lifecycle import MATCH_STARTED
from trapoula.domain.registry import GAMES

SERVICE = Path(__file__).resolve().parents[2] / "service" / "trapoula" / "service"


def test_no_service_module_names_a_game_or_a_games_event() -> None:
    """Every registered game's key and event names (but the platform's own ``MatchStarted``), as
    whole words, in no service module, code or docstring."""
    words = set(GAMES) | {name for spec in GAMES.values() for name in spec.event_types} - {MATCH_STARTED}
    pattern = re.compile(r"\b(" + "|".join(sorted(map(re.escape, words))) + r")\b")
    found = [
        f"{path.relative_to(SERVICE.parents[2])}:{number}: {line.strip()}"
        for path in sorted(SERVICE.rglob("*.py"))
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1)
        if pattern.search(line)
    ]
    assert len(words) > 40  # the six games' keys and events at least
    assert found == []
