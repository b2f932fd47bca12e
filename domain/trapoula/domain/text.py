"""How a game reads in the terminal: the :class:`GameText` a game carries as ``GameSpec.text``.

A game owns its words (STYLE section 5): how its commands read as menu lines, how its events read
to each viewer, how a view is drawn, how its menu is grouped and how a typed move is read against the
view's legal commands.  The clients (the terminal, the demo, the replay) call these through
``find_game(key).text`` and never name a game.

A game that gives no text gets :data:`PLAIN_TEXT`: commands as their kind and fields, events as their
name and payload, views as the hand sizes, the seat to act, the hands and the totals, a numbered menu
of the legal commands and nothing typed but its numbers.  A new game thus plays in the terminal,
plainly, before it has words of its own.

The pieces below (:func:`match_started_line`, :func:`hand_started_line`, :func:`view_lines` ...) are
what several games' texts share; they read the fields their docstrings name.

>>> PLAIN_TEXT.describe_command({"kind": "play", "seat": 0, "card": "7H", "announce": True}, {})
'play 7♥ announce'
>>> PLAIN_TEXT.describe_event("Scored", {"seat": 1, "points": 3}, ["ann", "bob"], 0)
"Scored {'seat': 1, 'points': 3}"
>>> print(PLAIN_TEXT.render_view({"names": ["ann", "bob"], "seat": 0, "hand": ["7H"], "hand_sizes": [1, 2],
...                                "to_act": 1, "totals": [0, 5]}))
Cards in hand: ann 1, bob 2
To act: bob
Your hand (ann): 7♥
Totals: ann 0, bob 5
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from trapoula.domain.words import cap, pretty, pretty_cards, seat_name, sorted_codes

__all__ = [
    "PLAIN_TEXT",
    "Command",
    "DescribeEvent",
    "GameText",
    "Turn",
    "dealt_line",
    "hand_started_line",
    "match_options",
    "match_over_line",
    "match_started_line",
    "other_command",
    "plain_command",
    "plain_event",
    "plain_turn",
    "plain_view",
    "typed_moves",
    "view_lines",
    "view_names",
    "viewer_seat",
]

Names = Sequence[str | None]
"""Display name per seat (None or empty for a seat without one)."""
Command = Mapping[str, Any]
"""A command's plain-data form, as a view's ``legal`` list holds it."""


class DescribeEvent(Protocol):
    """``GameText.describe_event``: one line for an event as a viewer saw it.

    ``name`` is the event's name, ``payload`` its payload as the viewer received it (redacted for a
    seat or a spectator), ``names`` the seats' display names, ``me`` the viewer's seat (None for a
    spectator or the omniscient reader).  Returns None for an event not worth a line in a game (a
    turn starting, a hidden deal, a seed revealed) unless ``verbose``.
    """

    def __call__(
        self, name: str, payload: Mapping[str, Any], names: Names, me: int | None = None, *, verbose: bool = False
    ) -> str | None:
        """The line, or None (see the class)."""
        ...


@dataclass(frozen=True, slots=True)
class Turn:
    """A seat's move as the terminal offers it (``GameText.turn``): a numbered menu of commands, the
    lines around it, and what the person may type besides a number.

    The terminal prints ``before``, the menu lines numbered from 1 (only the first ``shown`` of them
    when ``shown`` is set: the rest are summed up in one line and listed when ``more`` is typed),
    then ``after``; its prompt offers the numbers and ``hint``; a line it cannot read is answered
    with the numbers, ``typed`` and ``more``.
    """

    menu: tuple[Command, ...]
    """The commands of the menu, in the order they are numbered (from 1)."""
    lines: tuple[str, ...]
    """The menu line of each command of ``menu``, in the same order."""
    before: tuple[str, ...] = ()
    """Lines printed before the menu (what to do when no ordinary move is possible)."""
    after: tuple[str, ...] = ()
    """Lines printed after the menu (how to type a move)."""
    hint: str = ""
    """What may be typed, in the prompt (``a bid like 90H``); empty: only numbers."""
    typed: tuple[str, ...] = ()
    """What may be typed, each as the line that answers an unreadable one lists it."""
    shown: int | None = None
    """How many menu entries are printed; None: all of them."""
    more: str = ""
    """What the entries past ``shown`` are, in the singular (``lay-down``)."""


def other_command(command: Command) -> str:
    """A command a game's own menu words leave out: the table's ``next_hand`` as ``deal the next
    hand``, any other as its plain data.

    >>> other_command({"kind": "next_hand", "explicit": False})
    'deal the next hand'
    >>> other_command({"kind": "shout", "seat": 1})
    "{'kind': 'shout', 'seat': 1}"
    """
    if command.get("kind") == "next_hand":
        return "deal the next hand"
    return str(dict(command))


def plain_command(command: Command, view: Mapping[str, Any] | None = None) -> str:
    """A command as its kind and fields: card codes with their suit symbols, a flag by its name,
    another value after its name; the table's ``next_hand`` as ``deal the next hand``.

    >>> plain_command({"kind": "play_cards", "seat": 1, "cards": ["7H", "8H"], "points": 3, "open": False})
    'play cards 7♥ 8♥ points 3'
    >>> plain_command({"kind": "next_hand", "explicit": False})
    'deal the next hand'
    """
    kind = str(command.get("kind"))
    if kind == "next_hand":
        return "deal the next hand"
    words = [kind.replace("_", " ")]
    for key, value in command.items():
        if key in ("kind", "seat") or value is None or value is False:
            continue
        if value is True:
            words.append(key)
        elif isinstance(value, str) and pretty(value) != value:
            words.append(pretty(value))
        elif isinstance(value, list) and value and all(isinstance(v, str) and pretty(v) != v for v in value):
            words.append(pretty_cards(value))
        else:
            words.append(f"{key} {value}")
    return " ".join(words)


def match_started_line(payload: Mapping[str, Any], limit: str = "") -> str:
    """The platform's first event (``MatchStarted``, S12): the game, the players and how long the
    match lasts (``limit``, in the game's words: ``", to 100 points"``).

    >>> match_started_line({"game": "g", "names": ["ann", None, "cy"]}, ", to 5 points")
    'Match of g: ann, cy, to 5 points'
    """
    players = ", ".join(str(n) for n in payload.get("names") or [] if n)
    return f"Match of {payload.get('game')}: {players}{limit}"


def match_options(payload: Mapping[str, Any]) -> Mapping[str, Any]:
    """The options a ``MatchStarted`` payload (S12) carries, an empty mapping when it carries none,
    for a game to say how long its match lasts (:func:`match_started_line`'s ``limit``).

    >>> match_options({"options": {"target_score": 100}}), match_options({"options": None})
    ({'target_score': 100}, {})
    """
    raw = payload.get("options")
    return raw if isinstance(raw, Mapping) else {}


def plain_event(
    name: str, payload: Mapping[str, Any], names: Names, me: int | None = None, *, verbose: bool = False
) -> str | None:
    """:class:`DescribeEvent` for a game without words: the platform's ``MatchStarted`` as
    :func:`match_started_line`, any other event as its name and payload."""
    if name == "MatchStarted":
        return match_started_line(payload)
    return f"{name} {dict(payload)}"


def hand_started_line(payload: Mapping[str, Any], names: Names, me: int | None = None) -> str:
    """A hand begins (role ``hand_started``), from the fields of its fact: ``hand_no``, ``dealer``,
    ``explicit_deal`` and ``commitment`` (cut to 16 digits), with ``game_no`` where a game counts
    games within the match.

    >>> hand_started_line({"hand_no": 2, "dealer": 0, "explicit_deal": True}, ["ann"], me=1)
    '--- hand 2: ann deals (explicit deal)'
    >>> hand_started_line({"hand_no": 1, "game_no": 3, "dealer": 0, "commitment": "ab" * 32}, ["ann"], me=0)
    '--- hand 1 of game 3: you deal (commitment abababababababab…)'
    """
    p = payload
    how = "explicit deal" if p.get("explicit_deal") else f"commitment {str(p.get('commitment'))[:16]}…"
    dealer = seat_name(names, p.get("dealer"), me)
    game = f" of game {p.get('game_no')}" if p.get("game_no") is not None else ""
    return f"--- hand {p.get('hand_no')}{game}: {dealer} deal{'' if dealer == 'you' else 's'} ({how})"


def dealt_line(payload: Mapping[str, Any], names: Names, me: int | None = None, *, verbose: bool = False) -> str | None:
    """A seat is dealt its hand (``seat``, ``cards`` for its own eyes, ``count``): the cards in
    canonical order (S2.3) to their owner; to the others a count, only when ``verbose``.

    >>> dealt_line({"seat": 0, "cards": ["AS", "2C"], "count": 2}, ["ann"], me=0)
    'You are dealt 2♣ A♠'
    >>> dealt_line({"seat": 0, "cards": None, "count": 2}, ["ann"], me=1, verbose=True)
    'ann is dealt 2 cards'
    """
    who = seat_name(names, payload.get("seat"), me)
    cards = payload.get("cards")
    be = "are" if who == "you" else "is"
    if not cards:
        return f"{cap(who)} {be} dealt {payload.get('count')} cards" if verbose else None
    return f"{cap(who)} {be} dealt {pretty_cards(sorted_codes(cards))}"


def match_over_line(payload: Mapping[str, Any], names: Names, me: int | None = None) -> str:
    """The match is over (role ``match_ended``) with one ``winner`` seat, or None for no winner.

    >>> match_over_line({"winner": 1}, ["ann", "bob"]), match_over_line({"winner": None}, [])
    ('Match over: bob wins', 'Match over: no winner')
    """
    winner = payload.get("winner")
    if winner is None:
        return "Match over: no winner"
    champion = seat_name(names, winner, me)
    return f"Match over: {cap(champion)} {'win' if champion == 'you' else 'wins'}"


def view_names(view: Mapping[str, Any]) -> list[str | None]:
    """The display names of a view's ``names`` (None for a seat without one)."""
    return [None if n is None else str(n) for n in view.get("names") or []]


def viewer_seat(view: Mapping[str, Any]) -> int | None:
    """The view's ``seat`` when it is a seat's view, None for a spectator's or the omniscient one."""
    seat = view.get("seat")
    return seat if isinstance(seat, int) else None


def view_lines(
    view: Mapping[str, Any],
    names: Names,
    *,
    head: Sequence[str] = (),
    held: bool = True,
    own: Sequence[str] = (),
    tail: Sequence[str] | None = None,
) -> list[str]:
    """The lines of a view that every game shares, after the game's own ``head``: the hand sizes
    (with the stock where the view counts one), the seat to act, then every seat's hand (the
    omniscient view's ``hands``) or the viewer's own ``hand`` followed by ``own`` (what the game adds
    about it), and last ``tail``, or the ``totals`` of the seats that have one when ``tail`` is None.
    With ``held`` False (no cards are held: between hands) the sizes and hands are left out.
    """
    lines = list(head)
    sizes = (view.get("hand_sizes") or []) if held else []
    if sizes:
        counts = ", ".join(f"{seat_name(names, s)} {k}" for s, k in enumerate(sizes))
        if view.get("stock_count") is None:
            lines.append(f"Cards in hand: {counts}")
        else:
            lines.append(f"Stock {view.get('stock_count')} cards; hands: {counts}")
    if view.get("to_act") is not None:
        lines.append(f"To act: {seat_name(names, view.get('to_act'))}")
    hands = view.get("hands")
    seat = view.get("seat")
    if not held:
        pass
    elif isinstance(hands, list):
        for s, hand in enumerate(hands):
            lines.append(f"  {seat_name(names, s)}: {pretty_cards(hand)}")
    elif "hand" in view and isinstance(seat, int):
        lines.append(f"Your hand ({seat_name(names, seat)}): {pretty_cards(view.get('hand'))}")
        lines.extend(own)
    if tail is not None:
        lines.extend(tail)
    else:
        totals = view.get("totals") or []
        if totals:
            shown = [f"{seat_name(names, s)} {t}" for s, t in enumerate(totals) if t is not None]
            lines.append("Totals: " + ", ".join(shown))
    return lines


def plain_view(view: Mapping[str, Any]) -> str:
    """A view for a game without words: :func:`view_lines` alone."""
    return "\n".join(view_lines(view, view_names(view)))


def plain_turn(
    describe: Callable[[Command, Mapping[str, Any]], str], view: Mapping[str, Any], legal: Sequence[Command]
) -> Turn:
    """The menu of a game that groups nothing: every legal command as listed, read by ``describe``."""
    return Turn(menu=tuple(legal), lines=tuple(describe(c, view) for c in legal))


def no_typed_move(text: str, legal: Sequence[Command]) -> Command | None:
    """``GameText.parse_move`` for a game whose moves are chosen by number only: always None."""
    return None


def typed_moves(
    parse: Callable[[str], Command | None], same: Callable[[Command, Command], bool]
) -> Callable[[str, Sequence[Command]], Command | None]:
    """``GameText.parse_move`` for a game whose moves may be typed: ``parse`` reads the text into a
    plain command (None when it names none), ``same`` says whether it is a given legal entry (the
    game's own equality: order of cards ignored, say).  The move is the matching entry of the legal
    list, sent as the view lists it; else the command as typed, so that the rules answer an illegal
    one with their reason (each game's section 8); None when the text names no command."""

    def parse_move(text: str, legal: Sequence[Command]) -> Command | None:
        typed = parse(text)
        if typed is None:
            return None
        return next((c for c in legal if same(typed, c)), typed)

    return parse_move


@dataclass(frozen=True, slots=True)
class GameText:
    """A game's words in the terminal (``GameSpec.text``): plain functions of the JSON-ready views,
    payloads and commands the server streams, so that a local game, a remote one and a replay read
    alike.  Every field has a plain default (:data:`PLAIN_TEXT`)."""

    describe_command: Callable[[Command, Mapping[str, Any]], str] = plain_command
    """``(command, view) -> menu line``: a legal command as the view's seat is offered it."""
    describe_event: DescribeEvent = plain_event
    """One line for an event as a viewer saw it, or None (:class:`DescribeEvent`)."""
    render_view: Callable[[Mapping[str, Any]], str] = plain_view
    """A view (a seat's, a spectator's, or a replay's omniscient one with ``hands``) as lines of text."""
    turn: Callable[[Mapping[str, Any], Sequence[Command], Names], Turn] | None = None
    """``(view, legal, names) -> Turn``: the menu of a seat's move, grouped and explained the game's
    way; None: every legal command as listed (:func:`plain_turn`)."""
    parse_move: Callable[[str, Sequence[Command]], Command | None] = no_typed_move
    """``(typed line, legal) -> command or None``: a move typed in words (``bid 90 H``, ``reveal 5H
    7D``), as the entry of ``legal`` it names when there is one (sent as listed), else as typed (for
    the rules to refuse with their reason); None when the line names no move of the game."""
    asks_single_move: bool = False
    """True when the terminal asks for a move even when it is the only legal one; False: the only
    legal move is made without asking, and said."""
    narrator: Callable[[], DescribeEvent] | None = None
    """A fresh :attr:`describe_event` for a reader who follows a match's events in order and may
    remember them (a trick's line naming who played each card); None: :attr:`describe_event`."""
    demo_options: Mapping[str, Any] = field(default_factory=dict)
    """Options a demonstration match uses unless told otherwise (a game whose default is a single
    hand plays a scored match, so that the demo has standings to print)."""

    def narrate(self) -> DescribeEvent:
        """:attr:`describe_event` for one reader following one match's events in order
        (:attr:`narrator`)."""
        return self.narrator() if self.narrator is not None else self.describe_event

    def turn_for(self, view: Mapping[str, Any], legal: Sequence[Command], names: Names) -> Turn:
        """The menu of a seat's move: :attr:`turn` when the game groups its menu, else
        :func:`plain_turn` with :attr:`describe_command`."""
        if self.turn is not None:
            return self.turn(view, legal, names)
        return plain_turn(self.describe_command, view, legal)


PLAIN_TEXT = GameText()
"""The words of a game that gives none (the default of ``GameSpec.text``)."""
