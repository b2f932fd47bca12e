"""What the three shedding games' words share in the terminal (rules/shedding-common.md, S11-S13).

Commands (S11), events (S12) and views (S13) of ``agonia``, ``crazy_eights`` and ``mau_mau`` read
alike; each game's own ``text`` module adds its own commands and events and its match's length, and
builds its :class:`~trapoula.domain.text.GameText` with :func:`game_text`.

>>> describe_command({"kind": "play", "card": "AS", "suit": "H"})
'play A♠, declare ♥'
>>> describe_command({"kind": "draw"}, pending_draw=4)
'take the 4 cards'
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from trapoula.domain.text import (
    DescribeEvent,
    GameText,
    Names,
    dealt_line,
    hand_started_line,
    match_options,
    match_over_line,
    match_started_line,
    other_command,
    view_lines,
    view_names,
)
from trapoula.domain.words import cap, pretty, pretty_cards, seat_name, suit_symbol

__all__ = ["OwnEvent", "describe_command", "describe_event", "game_events", "game_text", "menu_line", "render_view"]


def describe_command(command: Mapping[str, Any], pending_draw: int = 0) -> str:
    """A menu line for a shedding command (S11): ``play 7♥`` (with the suit it declares and an
    announcement, S6), ``draw a card`` or ``take the N cards`` of a pending penalty (S7, S9),
    ``pass``, ``deal the next hand``; any other command as its plain data."""
    kind = command.get("kind")
    if kind == "play":
        text = f"play {pretty(command.get('card'))}"
        if command.get("suit"):
            text += f", declare {suit_symbol(command.get('suit'))}"
        if command.get("announce"):
            text += " (announce)"
        return text
    if kind == "draw":
        return f"take the {pending_draw} cards" if pending_draw > 0 else "draw a card"
    if kind == "pass":
        return "pass"
    return other_command(command)


def menu_line(command: Mapping[str, Any], view: Mapping[str, Any]) -> str:
    """:func:`describe_command` in a view: a draw takes the view's ``pending_draw`` (S9)."""
    return describe_command(command, int(view.get("pending_draw") or 0))


def describe_event(
    name: str, payload: Mapping[str, Any], names: Sequence[str | None], me: int | None = None, *, verbose: bool = False
) -> str | None:
    """The shedding games' common events (S12, and the seat changes of a game that has them) as
    ``me`` saw them (:class:`~trapoula.domain.text.DescribeEvent`); any other as its name and payload.
    """
    p = payload
    who = seat_name(names, p.get("seat"), me)
    verb_s = "" if who == "you" else "s"
    match name:
        case "HandStarted":
            return hand_started_line(p, names, me)
        case "CardsDealt":
            return dealt_line(p, names, me, verbose=verbose)
        case "StarterTurned":
            text = f"Up-card {pretty(p.get('card'))}"
            if p.get("pending_draw"):
                text += f": {p.get('pending_draw')} cards to take"
            if p.get("chooser") is not None:
                chooser = seat_name(names, p.get("chooser"), me)
                text += f"; {chooser} choose{'' if p.get('chooser') == me else 's'} the suit"
            return text
        case "TurnStarted":
            return f"{cap(who)} {'are' if who == 'you' else 'is'} to play" if verbose else None
        case "SeedRevealed":
            seed = p.get("seed")
            return f"Seed revealed: {seed if seed else 'none (explicit deal)'}" if verbose else None
        case "CardPlayed":
            text = f"{cap(who)} play{verb_s} {pretty(p.get('card'))}"
            if p.get("declared_suit"):
                text += f" and declare{verb_s} {suit_symbol(p.get('declared_suit'))}"
            if p.get("announce"):
                text += " (announced)"
            if p.get("pending_draw"):
                text += f" - {p.get('pending_draw')} to take"
            return text
        case "CardsDrawn":
            count = p.get("count")
            cards = p.get("cards")
            shown = f": {pretty_cards(cards)}" if cards else ""
            why = "" if p.get("reason") == "draw" else f" ({p.get('reason')})"
            return f"{cap(who)} draw{verb_s} {count} card{'' if count == 1 else 's'}{why}{shown}"
        case "StockReshuffled":
            return f"The discard pile ({p.get('count')} cards) is reshuffled under the stock"
        case "Passed":
            return f"{cap(who)} pass{'' if who == 'you' else 'es'}"
        case "TurnSkipped":
            return f"{cap(who)} {'are' if who == 'you' else 'is'} skipped ({p.get('reason')})"
        case "HandEnded":
            winner = p.get("winner")
            if winner is not None:
                head = f"{cap(seat_name(names, winner, me))} went out"
            else:
                head = "Hand abandoned" if p.get("reason") == "abandoned" else "Hand blocked"
            points = ", ".join(
                f"{seat_name(names, s)} {v}" for s, v in enumerate(p.get("hand_points") or []) if v is not None
            )
            totals = ", ".join(
                f"{seat_name(names, s)} {v}" for s, v in enumerate(p.get("totals") or []) if v is not None
            )
            return f"{head}. Points: {points}. Totals: {totals}"
        case "MatchEnded":
            return match_over_line(p, names, me)
        case "DirectionReversed":
            return f"Play now goes {'clockwise' if p.get('direction') == 1 else 'counter-clockwise'}"
        case "PlayerJoined":
            skill = f" (computer, {p.get('computer')})" if p.get("computer") else ""
            return f"{p.get('name')}{skill} joins at seat {p.get('seat')} with {p.get('total')} points"
        case "PlayerLeft":
            return f"{cap(who)} le{'ave' if who == 'you' else 'aves'} the match"
        case "PlayerEliminated":
            return f"{cap(who)} {'are' if who == 'you' else 'is'} eliminated with {p.get('total')} points"
    return f"{name} {dict(p)}"


OwnEvent = Callable[[str, Mapping[str, Any], str], str | None]
"""A shedding game's own events in words: ``(name, payload, who) -> line``, ``who`` the seat the
event names as the viewer calls it (``you``, a name); None for an event that is not the game's own."""


def game_events(own: OwnEvent, match_length: Callable[[Mapping[str, Any]], str]) -> DescribeEvent:
    """A shedding game's :class:`~trapoula.domain.text.DescribeEvent` (its section 9): ``MatchStarted``
    with the match's length in the game's words (``match_length`` of the match's options), then the
    game's ``own`` events, then the common ones (:func:`describe_event`)."""

    def describe(
        name: str, payload: Mapping[str, Any], names: Names, me: int | None = None, *, verbose: bool = False
    ) -> str | None:
        """The game's events (section 9) as ``me`` saw them (:class:`~trapoula.domain.text.DescribeEvent`)."""
        if name == "MatchStarted":
            return match_started_line(payload, match_length(match_options(payload)))
        line = own(name, payload, seat_name(names, payload.get("seat"), me))
        return line if line is not None else describe_event(name, payload, names, me, verbose=verbose)

    return describe


def render_view(view: Mapping[str, Any]) -> str:
    """A shedding game's view (S13): the up-card and the suit to follow with a pending penalty
    (S6, S9), then the lines every game shares (:func:`~trapoula.domain.text.view_lines`)."""
    names = view_names(view)
    head = []
    top = view.get("top_card")
    if top is not None:
        line = f"Up-card {pretty(top)}, suit {suit_symbol(view.get('active_suit'))}"
        if view.get("pending_draw"):
            line += f", {view.get('pending_draw')} cards to take"
        head.append(line)
    return "\n".join(view_lines(view, names, head=head))


def game_text(
    describe: DescribeEvent,
    command: Callable[[Mapping[str, Any], Mapping[str, Any]], str] = menu_line,
    demo_options: Mapping[str, Any] | None = None,
) -> GameText:
    """A shedding game's :class:`~trapoula.domain.text.GameText`: its events read by ``describe``, its
    commands by ``command`` (``(command, view) -> menu line``), its views by :func:`render_view`;
    the menu as listed, nothing typed but numbers."""
    return GameText(
        describe_command=command,
        describe_event=describe,
        render_view=render_view,
        demo_options=dict(demo_options or {}),
    )
