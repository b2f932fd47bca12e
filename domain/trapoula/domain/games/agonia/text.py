"""Agonia's words in the terminal (docs/rules/agonia.md sections 7-9; ``GameSpec.text``).

The shedding games' common words (:mod:`trapoula.domain.games.shedding.text`) plus Agonia's own:
the suit chosen on an ace up-card (R7.2), a missed announcement (R7.5) and the match's length
(R7.1).

>>> describe_command({"kind": "choose_suit", "seat": 1, "suit": "S"})
'choose ♠'
>>> describe_event("SuitChosen", {"seat": 1, "suit": "D"}, ["ann", "bob"], me=1)
'You choose ♦'
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from trapoula.domain.games.shedding import text as shedding
from trapoula.domain.words import cap, suit_symbol

__all__ = ["TEXT", "describe_command", "describe_event", "match_length", "render_view"]

render_view = shedding.render_view

_PENALTIES = {"draw_one": "one card to draw", "skip_turn": "the next turn lost"}
"""The penalty of a missed announcement (R7.5.2, option ``announce_penalty``) in words."""


def describe_command(command: Mapping[str, Any], pending_draw: int = 0) -> str:
    """A menu line for an Agonia command (section 8): ``choose ♥`` (R7.2), else as every shedding
    game's (:func:`trapoula.domain.games.shedding.text.describe_command`)."""
    if command.get("kind") == "choose_suit":
        return f"choose {suit_symbol(command.get('suit'))}"
    return shedding.describe_command(command, pending_draw)


def _menu_line(command: Mapping[str, Any], view: Mapping[str, Any]) -> str:
    """:func:`describe_command` in a view: a draw takes the view's ``pending_draw`` (R5.2)."""
    return describe_command(command, int(view.get("pending_draw") or 0))


def match_length(options: Mapping[str, Any]) -> str:
    """How long the match lasts (R7.1 ``target_points``: 0 is a single hand, R6.7), as the end of
    the ``MatchStarted`` line.

    >>> match_length({"target_points": 0}), match_length({"target_points": 50})
    (', a single hand', ', to 50 points')
    """
    if "target_points" not in options:
        return ""
    target = options["target_points"]
    return ", a single hand" if target == 0 else f", to {target} points"


def _own_event(name: str, p: Mapping[str, Any], who: str) -> str | None:
    """Agonia's own events (section 9) in words (:data:`~trapoula.domain.games.shedding.text.OwnEvent`)."""
    match name:
        case "SuitChosen":  # R7.2
            return f"{cap(who)} choose{'' if who == 'you' else 's'} {suit_symbol(p.get('suit'))}"
        case "AnnouncementMissed":  # R7.5.2
            penalty = _PENALTIES.get(str(p.get("penalty")), str(p.get("penalty")).replace("_", " "))
            left = p.get("cards_left")
            return f"{cap(who)} did not announce {left} card{'' if left == 1 else 's'} left: {penalty}"
    return None


describe_event = shedding.game_events(_own_event, match_length)
"""Agonia's events (section 9) as a viewer saw them: its own, then the shedding games' common ones."""


TEXT = shedding.game_text(describe_event, _menu_line)
"""Agonia's :class:`~trapoula.domain.text.GameText`."""
