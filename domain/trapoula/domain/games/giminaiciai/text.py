"""Giminaičiai's words in the terminal (docs/rules/giminaiciai.md sections 8, 9 and 11; ``GameSpec.text``).

Its commands as menu lines (a lay-down names the pile cards it takes and its bonus, R5.3, R7.2), its
events as each viewer saw them, its views (section 9), its menu (the lay-downs laying the most cards
first, a long list cut to :data:`LAY_DOWNS_SHOWN`) and its typed commands (R11.1-R11.3): ``draw`` /
``stock``, ``take`` / ``pile``, ``discard 7H`` and ``lay 4H 5H 6H 7H | KC KD KS extra 1 discard 2C``.

>>> describe_command({"kind": "draw", "source": "discard"})
'take the top card of the discard pile'
>>> parse_typed("lay 4h 5h 6h | kc kd ks discard 2c")
{'kind': 'lay_down', 'discard': '2C', 'groups': [['4H', '5H', '6H'], ['KC', 'KD', 'KS']]}
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from trapoula.domain.games.giminaiciai.laying import HAND_SIZE, extra_card_bonus
from trapoula.domain.text import (
    GameText,
    Turn,
    dealt_line,
    hand_started_line,
    match_over_line,
    match_started_line,
    other_command,
    typed_moves,
    view_lines,
    view_names,
    viewer_seat,
)
from trapoula.domain.words import at, cap, card_code, ordinal, plural, pretty, pretty_cards, seat_name, seats_line

__all__ = [
    "DRAW_HELP",
    "LAY_DOWNS_SHOWN",
    "PILE_SHOWN",
    "TEXT",
    "TURN_HELP",
    "TYPED",
    "choose_typed",
    "describe_command",
    "describe_event",
    "menu_line",
    "order_lay_downs",
    "parse_typed",
    "render_view",
    "turn",
    "typed_help",
]

PILE_SHOWN = 10
"""At most this many cards of the discard pile are named in a view, from the top (the extra cards of
a lay-down are taken from the top, R5.3); the rest are counted."""
LAY_DOWNS_SHOWN = 12
"""At most this many lay-downs are listed in the menu; the others keep their numbers and are listed
when the person types ``more`` (a hand with many cards that fit either group has dozens, R5.3)."""
DRAW_HELP = "  or type: draw (from the stock) or take (the top card of the discard pile)"
"""How to type the draws (R4.2, R11.1), shown under the menu before the draw."""
TURN_HELP = (
    "  or type: discard 7H; or lay down your whole hand in one or two groups split by |, "
    "adding extra N to take the top N cards of the discard pile into them and discard 2C to put one card "
    "on the pile: lay 4H 5H 6H 7H | KC KD KS extra 1 discard 2C"
)
"""How to type the discard and the lay-down (R4.4, R5.1-R5.3, R11.2, R11.3), shown under the menu
after the draw."""
TYPED = (
    "draw, take, discard and a card (e.g. discard 7H) or lay and the groups "
    "(e.g. lay 4H 5H 6H | KC KD KS extra 1 discard 2C)"
)
"""What may be typed (R11.1-R11.3), as the answer to a line that names no move lists it."""
_ENDINGS = {
    "all_finished": "everybody laid down",
    "piles_exhausted": "stock and discard pile empty",
    "stalled": "stalled: nobody laid down while the cards went round",
}
"""R8.1, R8.2 and the stalled hand (R8.4): why a hand ended."""
_STOCK_WORDS = frozenset({"draw", "stock", "draw stock"})
"""Typed words for the draw from the stock (R4.2, R11.1)."""
_PILE_WORDS = frozenset({"take", "pile", "take pile", "draw pile", "draw discard"})
"""Typed words for taking the top card of the discard pile (R4.2, R11.1)."""
_EXTRA = re.compile(r"^[0-9]{1,2}$")
"""The ``N`` of a typed ``extra N`` (ASCII digits; more than 99 exceeds any discard pile, R5.3)."""


# --------------------------------------------------------------------------- commands


def describe_command(command: Mapping[str, Any]) -> str:
    """A menu line for a command (section 8): the two draws (R4.2), a discard (R4.4), a lay-down with
    its groups, the pile cards it takes and its discard (R5.1-R5.3), the table's deal; any other
    command as its plain data."""
    kind = command.get("kind")
    if kind == "draw" and command.get("source") == "stock":
        return "draw from the stock"
    if kind == "draw" and command.get("source") == "discard":
        return "take the top card of the discard pile"
    if kind == "draw":
        return "draw a card"
    if kind == "discard":
        return f"discard {pretty(command.get('card'))}"
    if kind == "lay_down":
        groups = " | ".join(pretty_cards(g) for g in command.get("groups") or [])
        text = f"lay down {groups}"
        if command.get("extra"):
            text += f" with {command.get('extra')} from the pile"
        if command.get("discard"):
            text += f", discard {pretty(command.get('discard'))}"
        return text
    return other_command(command)


def _cards_laid(command: Mapping[str, Any]) -> int:
    """How many cards a lay-down lays: hand cards and extra pile cards (R7.2)."""
    return sum(len(group) for group in command.get("groups") or [])


def menu_line(command: Mapping[str, Any], view: Mapping[str, Any]) -> str:
    """A menu line in a view (:func:`describe_command`): a lay-down also names the cards it takes from
    the top of the view's discard pile (R5.3) and, when it lays more than 7 cards, how many and their
    bonus (R7.2)."""
    if command.get("kind") != "lay_down":
        return describe_command(command)
    extra = command.get("extra")
    pile = list(view.get("discard_pile") or [])
    text = describe_command({k: v for k, v in command.items() if k not in ("extra", "discard")})
    if isinstance(extra, int) and 0 < extra <= len(pile):
        text += f" taking {pretty_cards(pile[::-1][:extra])} from the pile"
    elif extra:
        text += f" with {extra} from the pile"
    if command.get("discard"):
        text += f", discard {pretty(command.get('discard'))}"
    laid = _cards_laid(command)
    return f"{text} ({laid} cards: bonus {extra_card_bonus(laid)})" if laid > HAND_SIZE else text


# --------------------------------------------------------------------------- events


def describe_event(
    name: str, payload: Mapping[str, Any], names: Sequence[str | None], me: int | None = None, *, verbose: bool = False
) -> str | None:
    """The events (section 9) as ``me`` saw them (:class:`~trapoula.domain.text.DescribeEvent`)."""
    p = payload
    who = seat_name(names, p.get("seat"), me)
    verb_s = "" if who == "you" else "s"
    match name:
        case "MatchStarted":  # R10.1
            raw = p.get("options")
            options: Mapping[str, Any] = raw if isinstance(raw, Mapping) else {}
            limit = f", to {options['target_score']} points" if "target_score" in options else ""
            return match_started_line(p, limit)
        case "HandStarted":  # R3.1
            return hand_started_line(p, names, me)
        case "CardsDealt":  # R3.3
            return dealt_line(p, names, me, verbose=verbose)
        case "StarterTurned":  # R3.4
            return f"Up-card {pretty(p.get('card'))} starts the discard pile"
        case "CardDrawn":  # R4.2
            if p.get("source") == "discard":
                return f"{cap(who)} take{verb_s} {pretty(p.get('card'))} from the discard pile"
            shown = f" ({pretty(p.get('stock_card'))})" if p.get("stock_card") else ""
            return f"{cap(who)} draw{verb_s} from the stock{shown}"
        case "CardDiscarded":  # R4.4
            return f"{cap(who)} discard{verb_s} {pretty(p.get('card'))}"
        case "DiscardPileTurnedOver":  # R4.6
            return f"The discard pile ({p.get('count')} cards) is turned over to make the stock"
        case "HandLaidDown":  # R5
            groups = " | ".join(pretty_cards(g) for g in p.get("groups") or [])
            extra = f", {len(p.get('extra_cards') or [])} from the pile" if p.get("extra_cards") else ""
            discard = f", discarding {pretty(p.get('discard'))}" if p.get("discard") else ""
            return f"{cap(who)} lay{verb_s} down {groups} ({p.get('cards_laid')} cards{extra}{discard})"
        case "PointsScored":  # R7
            return f"{cap(who)} score{verb_s} {p.get('points')} ({str(p.get('reason')).replace('_', ' ')})"
        case "PlayerFinished":  # R5.5
            return f"{cap(who)} finish{'' if who == 'you' else 'es'} in place {p.get('place')}" if verbose else None
        case "HandEnded":  # R8
            points = ", ".join(f"{seat_name(names, s)} {v}" for s, v in enumerate(p.get("hand_points") or []))
            totals = ", ".join(f"{seat_name(names, s)} {v}" for s, v in enumerate(p.get("totals") or []))
            why = str(p.get("reason")).replace("_", " ")
            return f"Hand over ({why}). Points: {points}. Totals: {totals}"
        case "MatchEnded":  # R9.1
            return match_over_line(p, names, me)
        case "ShuffleRevealed":  # R3.2, R8.3
            salt = p.get("salt")
            return f"Deck revealed; salt {salt if salt else 'none (explicit deal)'}" if verbose else None
    return f"{name} {dict(p)}"


# --------------------------------------------------------------------------- views


def _pile_line(pile: Any) -> str:
    """The discard pile (R3.4, public), given bottom first: how many cards, then the cards from the
    top, at most :data:`PILE_SHOWN` of them.

    >>> _pile_line(["5C", "9S", "6D"])
    'Discard pile: 3 cards, top first 6♦ 9♠ 5♣'
    >>> _pile_line([])
    'Discard pile: empty'
    """
    cards = list(pile) if isinstance(pile, Sequence) and not isinstance(pile, str) else []
    if not cards:
        return "Discard pile: empty"
    top_first = cards[::-1]
    shown = pretty_cards(top_first[:PILE_SHOWN])
    more = f" … and {len(cards) - PILE_SHOWN} more" if len(cards) > PILE_SHOWN else ""
    return f"Discard pile: {plural(len(cards), 'card')}, top first {shown}{more}"


def _around(view: Mapping[str, Any], names: Sequence[str | None]) -> tuple[list[str], list[str]]:
    """A view's own lines (section 9), as (lines before, lines after) the hand sizes, the seat to act
    and the hands.

    Before: the hand, its dealer and the target (R3.1, R9.1); each seat that laid down, in the order
    it finished, with its groups as laid (R5.5); during a hand the discard pile (top first, R3.4) --
    so that its top is seen before ``take the top card of the discard pile`` is offered (R4.2).
    After: the card the seat to act took from the pile this turn, which it may not discard (R4.5);
    this hand's points so far (R7) when any; the totals before this hand while it lasts, else the
    last hand's ending, the cards unfinished players still held (R8.2), the totals after it and the
    winner (R9).
    """
    me = viewer_seat(view)
    before: list[str] = []
    after: list[str] = []
    head = f"Hand {view.get('hand_no')}"
    if view.get("dealer") is not None:
        head += f", dealer {seat_name(names, view.get('dealer'), me)}"
    before.append(f"{head}; match to {view.get('target_score')} points")
    laid = view.get("laid") or []
    for place, seat in enumerate(view.get("finished") or [], start=1):
        who = seat_name(names, seat, me)
        groups = " | ".join(pretty_cards(g) for g in at(laid, seat) or [])
        before.append(f"{cap(who)} laid down {ordinal(place)}: {groups or '-'}")
    if view.get("phase") == "play":
        before.append(_pile_line(view.get("discard_pile")))
        taken = view.get("taken")
        if taken is not None:
            who = seat_name(names, view.get("to_act"), me)
            if who == "you":
                after.append(f"You took {pretty(taken)} from the discard pile this turn: you may not discard it")
            else:
                after.append(f"{who} took {pretty(taken)} from the discard pile this turn")
        points = view.get("hand_points") or []
        if any(points):
            after.append(f"Points this hand: {seats_line(points, names)}")
        after.append(f"Totals before this hand: {seats_line(view.get('totals'), names)}")
        return before, after
    last = view.get("last_hand")
    if isinstance(last, Mapping) and view.get("hand_over"):
        why = _ENDINGS.get(str(last.get("reason")), str(last.get("reason")))
        after.append(f"Hand {last.get('hand_no')} over ({why}); points: {seats_line(last.get('hand_points'), names)}")
        for seat, cards in enumerate(last.get("remaining") or []):
            if cards:
                who = seat_name(names, seat, me)
                after.append(f"{cap(who)} {'were' if who == 'you' else 'was'} left holding {pretty_cards(cards)}")
    if view.get("totals"):
        after.append(f"Totals: {seats_line(view.get('totals'), names)}")
    if view.get("match_over") and view.get("winner") is not None:
        after.append(f"Winner: {seat_name(names, view.get('winner'), me)}")
    return before, after


def render_view(view: Mapping[str, Any]) -> str:
    """A view (section 9): its own lines around the lines every game shares
    (:func:`~trapoula.domain.text.view_lines`); no cards are held between hands (R8.3)."""
    names = view_names(view)
    before, after = _around(view, names)
    return "\n".join(view_lines(view, names, head=before, held=view.get("phase") == "play", tail=after))


# --------------------------------------------------------------------------- the menu and typed moves


def order_lay_downs(menu: Sequence[Mapping[str, Any]]) -> list[Mapping[str, Any]]:
    """The menu's order: the draws and discards as listed, then the lay-downs laying the most cards
    first (they score the most, R7.2), otherwise as listed."""
    others = [c for c in menu if c.get("kind") != "lay_down"]
    downs = sorted((c for c in menu if c.get("kind") == "lay_down"), key=lambda c: -_cards_laid(c))
    return others + downs


def typed_help(view: Mapping[str, Any]) -> str:
    """The help line under the menu: the draws before the draw (:data:`DRAW_HELP`), the discard and
    the lay-down after it (:data:`TURN_HELP`; R4.2, R4.3)."""
    return TURN_HELP if view.get("drawn") else DRAW_HELP


def turn(view: Mapping[str, Any], legal: Sequence[Mapping[str, Any]], names: Sequence[str | None]) -> Turn:
    """A seat's move (``GameText.turn``): the menu in :func:`order_lay_downs` order, read by
    :func:`menu_line`, listing at most :data:`LAY_DOWNS_SHOWN` lay-downs, then :func:`typed_help`."""
    menu = order_lay_downs(legal)
    downs = [i for i, command in enumerate(menu) if command.get("kind") == "lay_down"]
    shown = downs[LAY_DOWNS_SHOWN] if len(downs) > LAY_DOWNS_SHOWN else None
    return Turn(
        menu=tuple(menu),
        lines=tuple(menu_line(command, view) for command in menu),
        after=(typed_help(view),),
        typed=(TYPED,),
        shown=shown,
        more="lay-down",
    )


def parse_typed(text: str) -> dict[str, Any] | None:
    """The command ``text`` names (R11.1-R11.3), or None.

    ``draw``, ``stock`` -> ``{"kind": "draw", "source": "stock"}``; ``take``, ``pile`` -> ``{"kind":
    "draw", "source": "discard"}`` (R4.2); ``discard 7H`` -> ``{"kind": "discard", "card": "7H"}``
    (R4.4); ``lay 4H 5H 6H 7H | KC KD KS extra 1 discard 2C`` (``lay down`` too) -> ``{"kind":
    "lay_down", "groups": [["4H", "5H", "6H", "7H"], ["KC", "KD", "KS"]], "extra": 1, "discard": "2C"}``
    (R5.1-R5.3): groups split by ``|``, ``extra N`` and ``discard C`` anywhere after ``lay``, each at
    most once; ``extra`` is left out when not typed.  Words in any case, commas as spaces; cards as
    :func:`~trapoula.domain.words.card_code` reads them, each one of the 52 (R2.2).  None for anything
    else: a word that is not a card, an empty group, ``extra`` without a number, ``discard`` without a
    card.  Whether the command is legal is the rules' call (R5.6).
    """
    words = text.replace(",", " ").replace("|", " | ").split()
    joined = " ".join(words).lower()
    if joined in _STOCK_WORDS:
        return {"kind": "draw", "source": "stock"}
    if joined in _PILE_WORDS:
        return {"kind": "draw", "source": "discard"}
    head = words[0].lower() if words else ""
    if head == "discard" and len(words) == 2:
        card = card_code(words[1])
        return None if card is None else {"kind": "discard", "card": card}
    if head != "lay":
        return None
    rest = words[2:] if words[1:2] and words[1].lower() == "down" else words[1:]
    return _typed_lay_down(rest)


def _typed_lay_down(words: Sequence[str]) -> dict[str, Any] | None:
    """The lay-down of the words after ``lay`` (:func:`parse_typed`), or None."""
    groups: list[list[str]] = [[]]
    command: dict[str, Any] = {"kind": "lay_down"}
    position = 0
    while position < len(words):
        word = words[position].lower()
        following = words[position + 1] if position + 1 < len(words) else ""
        if word == "|":
            groups.append([])
        elif word == "extra":
            if "extra" in command or not _EXTRA.match(following):
                return None
            command["extra"] = int(following)
            position += 1
        elif word == "discard":
            card = card_code(following)
            if "discard" in command or card is None:
                return None
            command["discard"] = card
            position += 1
        else:
            card = card_code(words[position])
            if card is None:
                return None
            groups[-1].append(card)
        position += 1
    if any(not group for group in groups):
        return None
    command["groups"] = groups
    return command


def _same(typed: Mapping[str, Any], legal: Mapping[str, Any]) -> bool:
    """True when ``legal`` is the command ``typed`` names (R11.1-R11.3).

    A lay-down's groups and the cards of each group are compared in any order (the reading is not
    declared, R6.3; decision 13), with the same discard (R5.2); ``extra`` is compared only when typed:
    the cards listed already say which pile cards are taken (R5.3), so a lay-down typed without it
    matches the legal one that takes them.
    """
    if typed.get("kind") != legal.get("kind"):
        return False
    if typed.get("kind") != "lay_down":
        return all(typed.get(k) == legal.get(k) for k in ("source", "card"))
    if "extra" in typed and typed.get("extra") != legal.get("extra"):
        return False
    return typed.get("discard") == legal.get("discard") and _group_sets(typed) == _group_sets(legal)


def _group_sets(command: Mapping[str, Any]) -> list[list[str]]:
    """A lay-down's groups with order removed: each group's codes sorted, then the groups sorted (a card
    listed twice stays twice, so it never matches a legal lay-down, R5.6)."""
    return sorted(sorted(str(c) for c in group) for group in command.get("groups") or [])


choose_typed = typed_moves(parse_typed, _same)
"""The typed command (:func:`parse_typed`) as ``GameText.parse_move`` gives it: the matching entry of
the legal list (:func:`_same`), else as typed, so that the rules answer an illegal one (R5.6,
section 8); None when the text names no command (:func:`~trapoula.domain.text.typed_moves`)."""


TEXT = GameText(
    describe_command=menu_line,
    describe_event=describe_event,
    render_view=render_view,
    turn=turn,
    parse_move=choose_typed,
)
"""Giminaičiai's :class:`~trapoula.domain.text.GameText`."""
