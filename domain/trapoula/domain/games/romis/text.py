"""Romis's words in the terminal (docs/rules/romis.md sections 8, 9 and 13; ``GameSpec.text``).

Its sealed commands as menu lines, its events as each viewer saw them (a seat's own sealed payload
and cards, the others' counts), its views (R5.4: as of the last resolved round), what the menu says
when no reveal is possible (R4.7, R6) and its typed commands (R13.1-R13.3): ``reveal 5H 7D``,
``reveal 9S with 8S 9D``, ``aux``, ``cannot``.

>>> describe_command({"kind": "reveal", "cards": ["5H", "7D"]})
'reveal 5♥ 7♦'
>>> parse_typed("reveal 9S with 8s 9d")
{'kind': 'reveal', 'cards': ['9S'], 'companions': ['8S', '9D']}
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from trapoula.domain.text import (
    GameText,
    Turn,
    match_over_line,
    match_started_line,
    other_command,
    typed_moves,
    view_lines,
    view_names,
    viewer_seat,
)
from trapoula.domain.words import at, cap, card_code, plural, pretty, pretty_cards, seat_name, sorted_codes

__all__ = [
    "HINT",
    "KINDS",
    "TEXT",
    "TYPED",
    "TYPED_HELP",
    "choose_typed",
    "describe_command",
    "describe_event",
    "no_reveal",
    "parse_typed",
    "render_view",
    "turn",
]

KINDS = frozenset({"reveal", "use_auxiliary", "cannot"})
"""The sealed commands (R13.1-R13.3), which the person may also type."""
TYPED_HELP = (
    "  or type: reveal 5H 7D (two cards in rounds 1-2, one from round 3); "
    "reveal 9S with 8S 9D (a new combination: 9S face up, 8S 9D face down as its companions); "
    "aux (turn up your next auxiliary card); cannot (you cannot reveal)"
)
"""How to type the commands (R13.1-R13.3), shown under the menu."""
HINT = "reveal and your cards, aux or cannot"
"""What may be typed, as the prompt offers it."""
TYPED = "reveal and the cards (e.g. reveal 5H 7D, or reveal 9S with 8S 9D), aux or cannot"
"""What may be typed, as the answer to a line that names no move lists it."""
_AUXILIARY_WORDS = frozenset({"aux", "auxiliary", "use_auxiliary"})
"""What a person types to turn up the next auxiliary card (R13.2)."""
_SHUFFLES = {
    "deal": "The deck is shuffled for the deal",
    "eliminated_pile": "The eliminated pile is shuffled and cut to make the stock",
    "redeal": "The cards in hand are shuffled to be dealt again",
}
"""R3.2, R9.1, R9.3: what a shuffle (``purpose``) is for."""
_STAGES = {
    "first_deal": " (first obligatory deal)",
    "second_deal": " (second obligatory deal)",
    "redeal": " (dealt again)",
}
"""R4.3, R4.5, R9.3: the stage of a deal after the 5-card hands, in words."""
_ENDINGS = {"winner": "won", "all_revealed": "all 52 cards revealed", "stalemate": "stalemate"}
"""R10.1, R10.5, R9.4: why a hand ended."""


# --------------------------------------------------------------------------- commands


def describe_command(command: Mapping[str, Any]) -> str:
    """A menu line for a command (section 8): a reveal, with a new combination's companions face
    down (R13.1, R8.2), turning up the next auxiliary card (R13.2), ``cannot reveal`` (R13.3), the
    table's deal; any other command as its plain data."""
    kind = command.get("kind")
    if kind == "reveal":
        text = f"reveal {pretty_cards(command.get('cards'))}"
        if command.get("companions"):
            text += f" with {pretty_cards(command.get('companions'))} face down (new combination)"
        return text
    if kind == "use_auxiliary":
        return "turn up your next auxiliary card"
    if kind == "cannot":
        return "cannot reveal"
    return other_command(command)


def _menu_line(command: Mapping[str, Any], view: Mapping[str, Any]) -> str:
    """:func:`describe_command` (the view adds nothing to a menu line)."""
    return describe_command(command)


# --------------------------------------------------------------------------- events


def _slots(slots: Any) -> str:
    """``auxiliary card 1`` / ``auxiliary cards 1 and 2`` (R6.2: slot 1 first)."""
    used = [str(s) for s in slots] if isinstance(slots, Sequence) and not isinstance(slots, str) else []
    if not used:
        return ""
    return f"auxiliary card{'' if len(used) == 1 else 's'} {' and '.join(used)}"


def _sealed_payload(raw: Any) -> Mapping[str, Any] | None:
    """The sealed command of a ``SubmissionSealed`` (R5.2): a mapping, or its canonical JSON text."""
    if isinstance(raw, str):
        try:
            raw = json.loads(raw)
        except ValueError:
            return None
    return raw if isinstance(raw, Mapping) else None


def _resolved_seat(p: Mapping[str, Any], seat: int, names: Sequence[str | None], me: int | None) -> str:
    """One live seat's part of a ``RoundResolved`` (R5.3), read from its per-seat lists (``kinds``,
    ``cards``, ``new_combination``, ``companions`` as a count, ``auxiliary_slots``): its reveal or
    ``cannot``, a new combination's face-down companions (R8.2, R8.3), and the auxiliary cards it
    turned up in the round (R6.4)."""
    who = seat_name(names, seat, me)
    if at(p.get("kinds"), seat) == "cannot":
        text = f"{who} cannot reveal"
    else:
        verb_s = "" if who == "you" else "s"
        text = f"{who} reveal{verb_s} {pretty_cards(at(p.get('cards'), seat))}"
        if at(p.get("new_combination"), seat):
            companions = plural(at(p.get("companions"), seat), "companion")
            text += f" and start{verb_s} a new combination with {companions} face down"
    used = _slots(at(p.get("auxiliary_slots"), seat))
    if used:
        text += f" (after turning up {used})"
    return text


def describe_event(
    name: str, payload: Mapping[str, Any], names: Sequence[str | None], me: int | None = None, *, verbose: bool = False
) -> str | None:
    """The events (section 9) as ``me`` saw them (:class:`~trapoula.domain.text.DescribeEvent`)."""
    p = payload
    who = seat_name(names, p.get("seat"), me)
    verb_s = "" if who == "you" else "s"
    be = "are" if who == "you" else "is"
    match name:
        case "MatchStarted":  # R12.1, R12.3
            raw = p.get("options")
            options: Mapping[str, Any] = raw if isinstance(raw, Mapping) else {}
            limit = f", to {options['target_score']} points" if "target_score" in options else ""
            factor = options.get("carried_bonus_factor")
            if isinstance(factor, int) and factor > 1:
                limit += f", bonus factor {factor} carried over"
            return match_started_line(p, limit)
        case "ShuffleCommitted":  # R3.2, R9.1, R9.3
            shuffled = _SHUFFLES.get(str(p.get("purpose")), f"Shuffled ({p.get('purpose')})")
            return f"{shuffled}; commitment {str(p.get('commitment'))[:16]}…"
        case "HandStarted":  # R3.1, R10.6
            dealer = seat_name(names, p.get("dealer"), me)
            return (
                f"--- hand {p.get('hand_no')}: {dealer} deal{'' if dealer == 'you' else 's'} "
                f"(bonus factor {p.get('bonus_factor')})"
            )
        case "CardsDealt":  # R3.3, R4.3, R4.5, R7.4, R9.3
            stage = p.get("stage")
            cards = p.get("cards")
            if stage == "extra":
                shown = f": {pretty_cards(cards)}" if cards else ""
                count = p.get("count")
                extra = "an extra card" if count == 1 else plural(count, "extra card")
                return f"{cap(who)} {be} dealt {extra}{shown}"
            words = _STAGES.get(str(stage), "")
            if cards:
                return f"{cap(who)} {be} dealt {pretty_cards(sorted_codes(cards))}{words}"
            if stage == "redeal" or verbose:
                return f"{cap(who)} {be} dealt {plural(p.get('count'), 'card')}{words}"
            return None
        case "AuxiliaryDealt":  # R3.4: nobody sees them, the owner neither, until used
            cards = p.get("cards")
            dealt = f"{cap(who)} {be} dealt {plural(p.get('count'), 'auxiliary card')} face down"
            if cards:
                return f"{dealt}: {pretty_cards(cards)}"
            return dealt if who == "you" or verbose else None
        case "RoundOpened":  # R4.2, R4.4, R4.6, R7.4
            attempt = p.get("attempt")
            again = f" (attempt {attempt})" if isinstance(attempt, int) and attempt > 1 else ""
            live = ", ".join(seat_name(names, s, me) for s in p.get("live") or [])
            return f"Round {p.get('round')}{again}: reveal {plural(p.get('required'), 'card')}; in play: {live}"
        case "AuxiliaryUsed":  # R6.1, R6.4
            card = f": {pretty(p.get('card'))}" if p.get("card") else ""
            slot = f"auxiliary card {p.get('slot')}" if p.get("slot") is not None else "an auxiliary card"
            return f"{cap(who)} turned up {slot}{card}"
        case "SubmissionSealed":  # R5.1, R5.2
            sealed = _sealed_payload(p.get("payload"))
            what = f": {describe_command(sealed)}" if sealed is not None else ""
            return f"{cap(who)} {'have' if who == 'you' else 'has'} submitted (sealed){what}"
        case "RoundResolved":  # R5.3
            attempt = p.get("attempt")
            again = f" (attempt {attempt})" if isinstance(attempt, int) and attempt > 1 else ""
            kinds = p.get("kinds") or []
            seats = [s for s, kind in enumerate(kinds) if kind is not None]  # None: not live
            parts = "; ".join(_resolved_seat(p, s, names, me) for s in seats)
            return f"Round {p.get('round')}{again} resolved: {parts or '-'}"
        case "PlayerEliminated":  # R7.1-R7.3
            held = f"; held {pretty_cards(p.get('hand'))}" if p.get("hand") else ""
            return f"{cap(who)} {be} eliminated in round {p.get('round')} with {plural(p.get('points'), 'point')}{held}"
        case "NobodyCouldReveal":  # R7.4
            return (
                f"Nobody could reveal in round {p.get('round')}: "
                "everyone gets an extra card and the round is played again"
            )
        case "EliminatedPileRestocked":  # R9.1
            return f"The eliminated pile ({plural(p.get('count'), 'card')}) becomes the stock"
        case "HandCardsRedealt":  # R9.3
            counts = p.get("counts") or []  # 0 for a seat not live
            each = ", ".join(f"{seat_name(names, s, me)} {c}" for s, c in enumerate(counts) if c)
            return f"No card left to deal: the cards in hand are gathered and dealt again ({each})"
        case "HandWon":  # R10.1-R10.4
            laid = p.get("laid_down")
            lays = f", lay{verb_s} down {pretty_cards(laid)}" if laid else ""
            return (
                f"{cap(who)} win{verb_s} the hand{lays}: {plural(p.get('revealed_count'), 'revealed card')} "
                f"x {p.get('multiplier')} + bonus {p.get('bonus')} = {plural(p.get('points'), 'point')}"
            )
        case "HandEnded":  # R10.5-R10.9
            why = _ENDINGS.get(str(p.get("reason")), str(p.get("reason")))
            if p.get("reason") == "winner" and p.get("winner") is not None:
                why = f"won by {seat_name(names, p.get('winner'), me)}"
            points = ", ".join(f"{seat_name(names, s)} {v}" for s, v in enumerate(p.get("hand_points") or []))
            totals = ", ".join(f"{seat_name(names, s)} {v}" for s, v in enumerate(p.get("totals") or []))
            factor = p.get("bonus_factor")
            bonus = f". Next bonus factor {factor}" if isinstance(factor, int) and factor != 1 else ""
            return f"Hand over ({why}). Points: {points}. Totals: {totals}{bonus}"
        case "ShuffleRevealed":  # R3.2, R9.1, R9.3, R10.9
            if not verbose:
                return None
            shuffles = [f"deal, salt {p.get('salt') or 'none (explicit deal)'}"]
            for later in p.get("later") or []:
                if isinstance(later, Sequence) and len(later) == 3:
                    shuffles.append(f"{str(later[0]).replace('_', ' ')}, salt {later[2]}")
            return "Shuffles revealed: " + "; ".join(shuffles)
        case "MatchEnded":  # R11.1
            return match_over_line(p, names, me)
    return f"{name} {dict(p)}"


# --------------------------------------------------------------------------- views


def _seat_line(view: Mapping[str, Any], seat: int, names: Sequence[str | None], me: int | None) -> str:
    """One seat of a view during a hand (R5.4: as of the last resolved round): eliminated, or its
    revealed cards, auxiliary cards left face down and companions face down; the viewer's own
    auxiliary cards are counted as he knows them, after those he turned up this round (R6.4)."""
    who = seat_name(names, seat, me)
    if seat in (view.get("eliminated") or []):
        return f"  {who}: eliminated"
    facts = [f"revealed {pretty_cards(at(view.get('revealed'), seat))}"]
    aux = at(view.get("auxiliary_counts"), seat)
    if seat == me and isinstance(view.get("auxiliary_left"), int):  # R6.4: his own count he knows at once
        aux = view.get("auxiliary_left")
    if isinstance(aux, int):
        facts.append(plural(aux, "auxiliary card"))
    companions = at(view.get("companion_counts"), seat)
    if companions:
        facts.append(f"{plural(companions, 'companion')} face down")
    return f"  {who}: {'; '.join(facts)}"


def _own_lines(view: Mapping[str, Any], names: Sequence[str | None]) -> list[str]:
    """A view's own lines (section 9): the hand and round with the cards to reveal (R4), each seat's
    revealed cards, auxiliary and companion counts as of the last resolved round (R5.4), who has
    submitted and who is awaited (R5.2), the viewer's own companions, auxiliary cards left and sealed
    submission, the last resolved round, the last hand's ending (R10)."""
    me = viewer_seat(view)
    lines = []
    head = f"Hand {view.get('hand_no')}"
    if view.get("dealer") is not None:
        head += f", dealer {seat_name(names, view.get('dealer'), me)}"
    lines.append(f"{head}; bonus factor {view.get('bonus_factor')}; match to {view.get('target_score')} points")
    if view.get("phase") == "play":
        attempt = view.get("attempt")
        again = f" (attempt {attempt})" if isinstance(attempt, int) and attempt > 1 else ""
        lines.append(f"Round {view.get('round')}{again}: reveal {plural(view.get('required'), 'card')}")
        seats = range(len(names)) if names else range(len(view.get("revealed") or []))
        lines.extend(_seat_line(view, s, names, me) for s in seats)
        submitted = ", ".join(seat_name(names, s, me) for s in view.get("submitted") or [])
        waiting = ", ".join(seat_name(names, s, me) for s in view.get("waiting") or [])
        lines.append(f"Submitted (sealed): {submitted or 'nobody yet'}; waiting for: {waiting or 'nobody'}")
        if view.get("eliminated_pile_count"):
            lines.append(f"Eliminated pile: {plural(view.get('eliminated_pile_count'), 'card')}")
        if view.get("companions"):
            lines.append(f"Your companions (face down): {pretty_cards(view.get('companions'))}")
        if isinstance(view.get("auxiliary_left"), int):
            lines.append(f"Your auxiliary cards left (unseen): {view.get('auxiliary_left')}")
        pending = view.get("pending")
        if isinstance(pending, Mapping):
            lines.append(f"You have submitted (sealed): {describe_command(pending)}")
        last_round = view.get("last_round")
        if isinstance(last_round, Mapping):
            lines.append(str(describe_event("RoundResolved", last_round, [n or "" for n in names], me, verbose=True)))
    last_hand = view.get("last_hand")
    if isinstance(last_hand, Mapping) and view.get("hand_over"):
        lines.append(str(describe_event("HandEnded", last_hand, [n or "" for n in names], me, verbose=True)))
    return lines


def render_view(view: Mapping[str, Any]) -> str:
    """A view (section 9): its own lines, then the lines every game shares
    (:func:`~trapoula.domain.text.view_lines`); no cards are held between hands (R10.9).  The viewer's
    own count of cards in hand is the hand it is shown: ``hand_sizes`` holds what the others know, as
    of the last resolved round (R5.4), before an auxiliary card turned up (R6.4) or a submission.

    >>> print(render_view({"phase": "play", "seat": 0, "names": ["ann", "bob"], "hand": ["5C", "QC", "5S"],
    ...                    "hand_sizes": [2, 5], "stock_count": 30}).splitlines()[-2])
    Stock 30 cards; hands: ann 3, bob 5
    """
    names = view_names(view)
    sizes = list(view.get("hand_sizes") or [])
    own, seat = view.get("hand"), view.get("seat")
    if isinstance(own, list) and isinstance(seat, int) and not isinstance(seat, bool) and 0 <= seat < len(sizes):
        sizes[seat] = len(own)
        view = {**view, "hand_sizes": sizes}
    return "\n".join(view_lines(view, names, head=_own_lines(view, names), held=view.get("phase") == "play"))


# --------------------------------------------------------------------------- the menu and typed moves


def no_reveal(legal: Sequence[Mapping[str, Any]]) -> str | None:
    """What to do when the menu offers no reveal (R4.7): turn up the next auxiliary card (R6.1, R6.2),
    or, with none left, ``cannot`` (R6.3) and what follows from it (R7.1, R7.4); None when a reveal
    is offered, or when ``legal`` holds a command that is none of the sealed ones."""
    kinds = {c.get("kind") for c in legal}
    if "reveal" in kinds or not kinds <= KINDS:
        return None
    if "use_auxiliary" in kinds:
        return "No reveal is possible with your cards: turn up your next auxiliary card (aux), then reveal if you can."
    if "cannot" in kinds:
        return (
            "No reveal is possible and no auxiliary card is left: submit cannot. You drop out of the hand "
            "if another player reveals; if nobody can, everyone gets an extra card and the round is replayed."
        )
    return None


def turn(view: Mapping[str, Any], legal: Sequence[Mapping[str, Any]], names: Sequence[str | None]) -> Turn:
    """A seat's move (``GameText.turn``): :func:`no_reveal` before the menu, the legal commands as
    listed, :data:`TYPED_HELP` after it (R13)."""
    note = no_reveal(legal)
    return Turn(
        menu=tuple(legal),
        lines=tuple(describe_command(command) for command in legal),
        before=() if note is None else (note,),
        after=(TYPED_HELP,),
        hint=HINT,
        typed=(TYPED,),
    )


def parse_typed(text: str) -> dict[str, Any] | None:
    """The command ``text`` names (R13.1-R13.3), or None.

    ``reveal 5H 7D`` -> ``{"kind": "reveal", "cards": ["5H", "7D"]}`` (R4.2, R4.4, R4.6);
    ``reveal 9S with 8S 9D`` adds ``"companions": ["8S", "9D"]`` (a new combination, R8.2);
    ``aux``, ``auxiliary`` or ``use_auxiliary`` -> ``{"kind": "use_auxiliary"}``; ``cannot`` ->
    ``{"kind": "cannot"}``.  Words in any case, commas as spaces; cards as
    :func:`~trapoula.domain.words.card_code` reads them, each one of the 52 (R2.2).  None for anything
    else, for a word that is not a card, and for ``with`` with no card before or after it.  Whether
    the command is legal is the rules' call.
    """
    words = text.replace(",", " ").split()
    head = words[0].lower() if words else ""
    if len(words) == 1 and head in _AUXILIARY_WORDS:
        return {"kind": "use_auxiliary"}
    if len(words) == 1 and head == "cannot":
        return {"kind": "cannot"}
    if head != "reveal":
        return None
    rest = [w.lower() for w in words[1:]]
    split = rest.index("with") if "with" in rest else len(rest)
    shown, hidden = words[1 : 1 + split], words[2 + split :]
    if not shown or (split < len(rest) and not hidden):
        return None
    cards = [card_code(w) for w in shown]
    companions = [card_code(w) for w in hidden]
    if any(c is None for c in cards + companions):
        return None
    command: dict[str, Any] = {"kind": "reveal", "cards": cards}
    if companions:
        command["companions"] = companions
    return command


def _same(typed: Mapping[str, Any], legal: Mapping[str, Any]) -> bool:
    """True when ``legal`` is the command ``typed`` names: same kind, and for a reveal the same
    cards and companions in any order (neither order matters, R4.4, R8.2)."""
    if typed.get("kind") != legal.get("kind"):
        return False
    return all(sorted(typed.get(k) or ()) == sorted(legal.get(k) or ()) for k in ("cards", "companions"))


choose_typed = typed_moves(parse_typed, _same)
"""The typed command (:func:`parse_typed`) as ``GameText.parse_move`` gives it: the matching entry of
the legal list (:func:`_same`), else as typed, so that the rules answer an illegal one (R5.5,
section 8); None when the text names no command (:func:`~trapoula.domain.text.typed_moves`)."""


TEXT = GameText(
    describe_command=_menu_line,
    describe_event=describe_event,
    render_view=render_view,
    turn=turn,
    parse_move=choose_typed,
    asks_single_move=True,
)
"""Romis's :class:`~trapoula.domain.text.GameText`: a sealed submission (R5.1-R5.2) is always the
person's own, even when only one is possible: the terminal asks for it."""
