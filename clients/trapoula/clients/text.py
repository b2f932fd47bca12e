"""Plain-text rendering for the terminal front ends: every game's own words, found by its key.

A game's commands, events and views read in the terminal as the game's text says
(``GameSpec.text``, :class:`~trapoula.domain.text.GameText`); this module finds that text and
adds what is the platform's own: the table's events (a table created, a seat taken, a newcomer
queued) are not worth a line.  Everything works on the JSON-ready views and payloads the server
streams, so the same code serves a local game, a remote one and a replay.  A game this client does
not know (a newer server's) reads plainly (:data:`~trapoula.domain.text.PLAIN_TEXT`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from trapoula.domain.audit import TABLE_EVENTS
from trapoula.domain.registry import GAMES
from trapoula.domain.text import PLAIN_TEXT, GameText

__all__ = ["describe_event", "game_text", "render_view"]


def game_text(game: Any) -> GameText:
    """The words of the game with key ``game`` (``GameSpec.text``); the plain words for a key this
    client does not know."""
    spec = GAMES.get(game) if isinstance(game, str) else None
    return spec.text if spec is not None else PLAIN_TEXT


def describe_event(
    game: Any,
    name: str,
    payload: Mapping[str, Any],
    names: Sequence[str | None],
    me: int | None = None,
    *,
    verbose: bool = False,
) -> str | None:
    """One line for an event of a match of ``game`` as a viewer (``me``: a seat, or None) saw it
    (``GameText.describe_event``); None for a table event but ``TimedOut`` (docs/clock.md C4: "ann
    ran out of time"), and for a game event not worth a line unless ``verbose``."""
    if name == "TimedOut":
        seat = payload.get("seat")
        who = "you" if seat == me and me is not None else _name(names, seat)
        return f"{who} ran out of time: the server moves ({payload.get('policy')})"
    if name in TABLE_EVENTS:
        return None
    return game_text(game).describe_event(name, payload, names, me, verbose=verbose)


def _name(names: Sequence[str | None], seat: Any) -> str:
    """The display name of ``seat`` among ``names`` (``seat N`` when it has none)."""
    if isinstance(seat, int) and 0 <= seat < len(names) and names[seat]:
        return str(names[seat])
    return f"seat {seat}"


def render_view(view: Mapping[str, Any]) -> str:
    """A few lines describing a view (a seat's, a spectator's, or a replay's omniscient one), in the
    words of the view's ``game`` (``GameText.render_view``)."""
    return game_text(view.get("game")).render_view(view)
