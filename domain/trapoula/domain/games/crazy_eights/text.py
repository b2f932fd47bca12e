"""Crazy Eights' words in the terminal (docs/rules/crazy_eights.md sections 7-9; ``GameSpec.text``).

The shedding games' common words (:mod:`trapoula.domain.games.shedding.text`) plus Crazy Eights'
own: an eight turned up as the starter and buried in the stock (R3.4) and the match's length (R6.3,
R6.6, R7.1, R7.2).  A demonstration plays the points game (R6.4), so that it has standings to print.

>>> describe_event("StarterBuried", {"card": "8C", "position": 20}, [])
'The up-card 8♣ is buried in the stock'
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from trapoula.domain.games.shedding import text as shedding
from trapoula.domain.words import pretty

__all__ = ["TEXT", "describe_command", "describe_event", "match_length", "render_view"]

describe_command = shedding.describe_command
render_view = shedding.render_view


def match_length(options: Mapping[str, Any]) -> str:
    """How long the match lasts, as the end of the ``MatchStarted`` line: a single hand in the
    standard game (R6.3, ``scoring`` ``single``), else ``target_per_player`` (R6.6, R7.2).

    >>> match_length({"scoring": "single", "target_per_player": 50}), match_length({"scoring": "points",
    ...                                                                              "target_per_player": 50})
    (', a single hand', ', to 50 points per player')
    """
    if options.get("scoring") == "single":
        return ", a single hand"
    if "target_per_player" in options:
        return f", to {options['target_per_player']} points per player"
    return ""


def _own_event(name: str, p: Mapping[str, Any], who: str) -> str | None:
    """Crazy Eights' own event (section 9) in words (:data:`~trapoula.domain.games.shedding.text.OwnEvent`)."""
    if name == "StarterBuried":  # R3.4
        return f"The up-card {pretty(p.get('card'))} is buried in the stock"
    return None


describe_event = shedding.game_events(_own_event, match_length)
"""Crazy Eights' events (section 9) as a viewer saw them: its own, then the shedding games' common ones."""


TEXT = shedding.game_text(describe_event, demo_options={"scoring": "points"})
"""Crazy Eights' :class:`~trapoula.domain.text.GameText`; a demonstration plays the points game (R6.4)."""
