"""What the three shedding games' words share in the terminal (docs/rules/shedding-common.md, S11-S13).

Commands (S11), events (S12) and views (S13) of ``agonia``, ``crazy_eights`` and ``mau_mau`` read
alike; each game's own ``text`` module adds its own commands and events and its match's length, and
builds its :class:`~trapoula.domain.text.GameText` with :func:`game_text`.  A move may be typed
(``QC``, ``AS H``, ``draw``, ``pass``: :data:`parse_move`) or chosen from a menu that lists each
distinct move once (:func:`distinct_moves`); reason codes read as words (:data:`DRAW_REASONS`,
:data:`SKIP_REASONS`).

>>> describe_command({"kind": "play", "card": "AS", "suit": "H"})
'play A♠, declare ♥'
>>> describe_command({"kind": "draw"}, pending_draw=4)
'take the 4 cards'
>>> describe_event("CardsDrawn", {"seat": 1, "count": 2, "reason": "last_seven"}, ["ann", "bob"], me=0)
'bob draws 2 cards (the penalty of a 7 played as a last card)'
>>> parse_move("play qc", [{"kind": "play", "card": "QC"}, {"kind": "draw"}])
{'kind': 'play', 'card': 'QC'}
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from trapoula.domain.text import (
    Command,
    DescribeEvent,
    GameText,
    Names,
    Turn,
    dealt_line,
    hand_started_line,
    match_options,
    match_over_line,
    match_started_line,
    other_command,
    typed_moves,
    view_lines,
    view_names,
)
from trapoula.domain.words import cap, card_code, pretty, pretty_cards, seat_name, suit_letter, suit_symbol

__all__ = [
    "DRAW_REASONS",
    "SKIP_REASONS",
    "OwnEvent",
    "describe_command",
    "describe_event",
    "distinct_moves",
    "game_events",
    "game_text",
    "menu_line",
    "parse_move",
    "render_view",
    "turn_of",
]

DRAW_REASONS = {
    "penalty": "penalty",
    "last_seven": "the penalty of a 7 played as a last card",
    "announce_penalty": "penalty for a missed announcement",
}
"""Why cards are drawn (``CardsDrawn.reason``, S7) in words; ``draw``, the turn's own draw, says nothing."""
SKIP_REASONS = {
    "nine": "by a 9",
    "starter_nine": "by the 9 turned up",
    "announce_penalty": "for a missed announcement",
    "jack": "by a jack",
    "eight": "by an 8",
}
"""Why a seat loses its turn (``TurnSkipped.reason``, S3.4) in words."""


def _words(code: Any, known: Mapping[str, str]) -> str:
    """A reason code in words: the known ones as ``known`` says, another with spaces for underscores."""
    return known.get(str(code), str(code).replace("_", " "))


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
        case "StarterTurned":  # the view shows the up-card: a line when the event says more, or verbose
            text = f"Up-card {pretty(p.get('card'))}"
            if p.get("pending_draw"):
                text += f": {p.get('pending_draw')} cards to take"
            if p.get("chooser") is not None:
                chooser = seat_name(names, p.get("chooser"), me)
                text += f"; {chooser} choose{'' if p.get('chooser') == me else 's'} the suit"
            elif not verbose and not p.get("pending_draw"):
                return None
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
            why = "" if p.get("reason") == "draw" else f" ({_words(p.get('reason'), DRAW_REASONS)})"
            return f"{cap(who)} draw{verb_s} {count} card{'' if count == 1 else 's'}{why}{shown}"
        case "StockReshuffled":
            return f"The discard pile ({p.get('count')} cards) is reshuffled under the stock"
        case "Passed":
            return f"{cap(who)} pass{'' if who == 'you' else 'es'}"
        case "TurnSkipped":
            return f"{cap(who)} {'are' if who == 'you' else 'is'} skipped {_words(p.get('reason'), SKIP_REASONS)}"
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


def distinct_moves(legal: Sequence[Command]) -> list[Command]:
    """The legal commands less those that do the same as another: a wild card played without a
    declaration keeps its own suit as the active suit (S4.3), so ``play A♠`` and ``play A♠, declare
    ♠`` are one move, listed once (as the declaration, like its three siblings).

    >>> distinct_moves([{"kind": "play", "card": "AS"}, {"kind": "play", "card": "AS", "suit": "S"},
    ...                 {"kind": "play", "card": "AS", "suit": "H"}])
    [{'kind': 'play', 'card': 'AS', 'suit': 'S'}, {'kind': 'play', 'card': 'AS', 'suit': 'H'}]
    """

    def key(c: Command) -> tuple[Any, ...]:
        return (c.get("kind"), c.get("card"), c.get("suit"), bool(c.get("announce")))

    keys = {key(c) for c in legal}
    return [
        c
        for c in legal
        if not (
            c.get("kind") == "play"
            and not c.get("suit")
            and isinstance(c.get("card"), str)
            and ("play", c["card"], c["card"][-1:], bool(c.get("announce"))) in keys
        )
    ]


_WORDS = {"d": "draw", "p": "pass", "choose": "choose_suit"}
"""Short and other words for the typed commands (S11)."""
_ANNOUNCE = frozenset({"announce", "!"})
"""A word that announces (``7H announce``, agonia R7.5)."""


def _typed(text: str) -> Command | None:
    """A typed shedding command (S11) as plain data, or None: a card (``QC``, ``q♣``, ``10h``, with
    ``play`` before it or not), a wild card with the suit it declares (``AS H``, ``play as declare
    ♥``, S6.2-S6.3), ``announce`` after a card (agonia R7.5); ``draw`` (``d``), ``pass``
    (``p``), ``choose H`` or a bare suit (agonia R7.2), ``mau`` and ``leave`` (mau_mau R5.6, R6.10).
    """
    words = [w for w in text.replace(",", " ").lower().split() if w not in ("play", "declare")]
    if not words:
        return None
    announce = any(w in _ANNOUNCE for w in words)
    words = [w for w in words if w not in _ANNOUNCE]
    first = _WORDS.get(words[0], words[0]) if words else ""
    if first in ("draw", "pass", "mau", "leave") and len(words) == 1 and not announce:
        return {"kind": first}
    if first == "choose_suit" and len(words) == 2 and suit_letter(words[1]) is not None:
        return {"kind": "choose_suit", "suit": suit_letter(words[1])}
    if len(words) == 1 and len(words[0]) == 1 and suit_letter(words[0]) is not None:
        return {"kind": "choose_suit", "suit": suit_letter(words[0])}
    card = card_code(words[0]) if words else None
    if card is None or len(words) > 2:
        return None
    command: dict[str, Any] = {"kind": "play", "card": card}
    if len(words) == 2:
        suit = suit_letter(words[1])
        if suit is None:
            return None
        command["suit"] = suit
    if announce:
        command["announce"] = True
    return command


def _same(typed: Command, listed: Command) -> bool:
    """Whether a typed command is a legal entry: the same kind, card, declared suit and announcement."""
    return (
        typed.get("kind") == listed.get("kind")
        and typed.get("card") == listed.get("card")
        and (typed.get("suit") or None) == (listed.get("suit") or None)
        and bool(typed.get("announce")) == bool(listed.get("announce"))
    )


parse_move = typed_moves(_typed, _same)
"""``GameText.parse_move`` of the shedding games: a typed move (:func:`_typed`) as the legal entry it
names, else as typed, for the rules to refuse with their reason (S11)."""


def turn_of(
    command: Callable[[Mapping[str, Any], Mapping[str, Any]], str],
) -> Callable[[Mapping[str, Any], Sequence[Command], Names], Turn]:
    """A shedding game's ``GameText.turn``: one menu entry per distinct move (:func:`distinct_moves`),
    each read by ``command``; a move may also be typed (:data:`parse_move`)."""

    def turn(view: Mapping[str, Any], legal: Sequence[Command], names: Names) -> Turn:
        menu = distinct_moves(legal)
        kinds = {c.get("kind") for c in menu}
        hint = [w for w, k in (("a card like QC", "play"), ("draw", "draw"), ("pass", "pass")) if k in kinds]
        if any(c.get("kind") == "play" and c.get("suit") for c in menu):
            hint.insert(1, "a wild card and its suit like AS H")
        if "choose_suit" in kinds:
            hint.append("a suit like H")
        typed = ["a card of your hand (QC, 10H)"] if "play" in kinds else []
        typed += [w for w in hint if not w.startswith("a card like")]
        return Turn(
            menu=tuple(menu),
            lines=tuple(command(c, view) for c in menu),
            hint=", ".join(hint),
            typed=tuple(typed),
        )

    return turn


def game_text(
    describe: DescribeEvent,
    command: Callable[[Mapping[str, Any], Mapping[str, Any]], str] = menu_line,
    demo_options: Mapping[str, Any] | None = None,
) -> GameText:
    """A shedding game's :class:`~trapoula.domain.text.GameText`: its events read by ``describe``, its
    commands by ``command`` (``(command, view) -> menu line``), its views by :func:`render_view`;
    one menu entry per distinct move (:func:`turn_of`), moves typed as :data:`parse_move` reads them."""
    return GameText(
        describe_command=command,
        describe_event=describe,
        render_view=render_view,
        turn=turn_of(command),
        parse_move=parse_move,
        demo_options=dict(demo_options or {}),
    )
