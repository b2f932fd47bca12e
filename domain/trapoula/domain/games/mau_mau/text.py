"""Mau Mau's words in the terminal (docs/rules/mau_mau.md sections 7-9; ``GameSpec.text``).

The shedding games' common words (:mod:`trapoula.domain.games.shedding.text`) plus Mau Mau's own:
the "Mau" call and its penalty (R5.6), leaving the match (R6.10) and the match's length (R7.1).

>>> describe_command({"kind": "mau", "seat": 0}), describe_command({"kind": "leave", "seat": 0})
('call "Mau"', 'leave the match')
>>> describe_event("MauCalled", {"seat": 1}, ["ann", "bob"], me=0)
'bob calls "Mau"'
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from trapoula.domain.games.shedding import text as shedding
from trapoula.domain.words import cap

__all__ = ["TEXT", "describe_command", "describe_event", "match_length", "render_view"]

render_view = shedding.render_view


def describe_command(command: Mapping[str, Any], pending_draw: int = 0) -> str:
    """A menu line for a Mau Mau command (section 8): ``call "Mau"`` (R5.6), ``leave the match``
    (R6.10), else as every shedding game's (:func:`trapoula.domain.games.shedding.text.describe_command`)."""
    kind = command.get("kind")
    if kind == "mau":
        return 'call "Mau"'
    if kind == "leave":
        return "leave the match"
    return shedding.describe_command(command, pending_draw)


def _menu_line(command: Mapping[str, Any], view: Mapping[str, Any]) -> str:
    """:func:`describe_command` in a view: a draw takes the view's ``pending_draw``."""
    return describe_command(command, int(view.get("pending_draw") or 0))


def match_length(options: Mapping[str, Any]) -> str:
    """How long the match lasts (R7.1 ``elimination_limit``), as the end of the ``MatchStarted`` line.

    >>> match_length({"elimination_limit": -100})
    ', out at -100 points'
    """
    if "elimination_limit" not in options:
        return ""
    return f", out at {options['elimination_limit']} points"


def _own_event(name: str, p: Mapping[str, Any], who: str) -> str | None:
    """Mau Mau's own events (section 9) in words (:data:`~trapoula.domain.games.shedding.text.OwnEvent`)."""
    match name:
        case "MauCalled":  # R5.6
            return f'{cap(who)} call{"" if who == "you" else "s"} "Mau"'
        case "MauMissed":  # R5.6
            return f'{cap(who)} did not call "Mau"'
    return None


describe_event = shedding.game_events(_own_event, match_length)
"""Mau Mau's events (section 9) as a viewer saw them: its own, then the shedding games' common ones."""


TEXT = shedding.game_text(describe_event, _menu_line)
"""Mau Mau's :class:`~trapoula.domain.text.GameText`."""
