"""Plain-text rendering of cards, commands, events and views for the terminal front ends.

Cards are shown with their suit symbols (``10♠``, ``A♥``); everything works on the JSON-ready
views and payloads the server streams, so the same code serves a local game, a remote one and a
replay.

>>> pretty("TS"), pretty_cards(["7H", "AC"])
('10♠', '7♥ A♣')
>>> describe_command({"kind": "play", "card": "AS", "suit": "H"})
'play A♠, declare ♥'
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from trapoula.domain.cards import Suit, parse_card, sorted_cards
from trapoula.domain.errors import InvalidInput

__all__ = [
    "combination_name",
    "describe_command",
    "describe_event",
    "describe_vida_call",
    "pretty",
    "pretty_cards",
    "render_view",
    "suit_letter",
    "suit_symbol",
]


def pretty(code: Any) -> str:
    """A card code with its suit symbol (``"TS"`` -> ``"10♠"``); other text is returned as is."""
    if not isinstance(code, str):
        return "?" if code is None else str(code)
    try:
        return parse_card(code).pretty()
    except InvalidInput:
        return code


def pretty_cards(codes: Sequence[Any] | None) -> str:
    """Several cards, space-separated (``"-"`` when there are none)."""
    return " ".join(pretty(c) for c in codes) if codes else "-"


def suit_symbol(letter: Any) -> str:
    """``"H"`` -> ``"♥"`` (other text as is)."""
    if not isinstance(letter, str):
        return "?"
    try:
        return Suit.parse(letter).symbol
    except InvalidInput:
        return letter


def _sorted_codes(cards: Sequence[Any]) -> Sequence[Any]:
    """Card codes in canonical order (S2.3: by suit, then rank), as a hand is shown; as given when
    some code does not parse."""
    try:
        return [str(c) for c in sorted_cards(parse_card(str(code)) for code in cards)]
    except InvalidInput:
        return cards


def suit_letter(text: str) -> str | None:
    """A suit as its letter (``"h"``, ``"H"`` or ``"♥"`` -> ``"H"``), None for other text."""
    try:
        return Suit.parse(text).value
    except InvalidInput:
        return None


def _name(names: Sequence[str | None], seat: Any, me: int | None = None) -> str:
    if isinstance(seat, int) and seat == me:
        return "you"
    if isinstance(seat, int) and 0 <= seat < len(names) and names[seat]:
        return str(names[seat])
    return f"seat {seat}"


def _cap(text: str) -> str:
    """``you`` at the start of a sentence; display names stay as their owners wrote them."""
    return "You" if text == "you" else text


def describe_command(command: Mapping[str, Any], pending_draw: int = 0) -> str:
    """A menu line for a command payload (``play 7♥``, ``draw a card``, ``pass`` ...)."""
    kind = command.get("kind")
    if kind == "play":
        text = f"play {pretty(command.get('card'))}"
        if command.get("suit"):
            text += f", declare {suit_symbol(command.get('suit'))}"
        if command.get("announce"):
            text += " (announce)"
        if command.get("belote"):  # vida R5.9
            text += " and announce belote"
        return text
    if kind == "draw" and command.get("source") == "stock":
        return "draw from the stock"
    if kind == "draw" and command.get("source") == "discard":
        return "take the top card of the discard pile"
    if kind == "draw":
        return f"take the {pending_draw} cards" if pending_draw > 0 else "draw a card"
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
    if kind == "pass":
        return "pass"
    if kind == "choose_suit":
        return f"choose {suit_symbol(command.get('suit'))}"
    if kind == "next_hand":
        return "deal the next hand"
    if kind == "mau":
        return 'call "Mau"'
    if kind == "leave":
        return "leave the match"
    if kind == "bid":
        return f"bid {command.get('points')} {suit_symbol(command.get('suit'))}"
    if kind == "vida":
        return "call vida (double)"
    if kind == "give":
        return f"give {pretty_cards(command.get('cards'))}"
    if kind == "declare":
        return "declare your combinations"
    if kind == "reveal":  # romis R13.1, R8.2
        text = f"reveal {pretty_cards(command.get('cards'))}"
        if command.get("companions"):
            text += f" with {pretty_cards(command.get('companions'))} face down (new combination)"
        return text
    if kind == "use_auxiliary":  # romis R13.2
        return "turn up your next auxiliary card"
    if kind == "cannot":  # romis R13.3
        return "cannot reveal"
    return str(dict(command))


def describe_event(
    name: str, payload: Mapping[str, Any], names: Sequence[str], me: int | None = None, *, verbose: bool = False
) -> str | None:
    """One line for an event as a viewer (``me``: a seat, or None) saw it.

    Returns None for an event not worth a line in a game (a turn starting, a hidden deal, the
    seed revealed) unless ``verbose``.
    """
    p = payload
    if _is_romis(name, p):
        return _describe_romis(name, p, names, me, verbose=verbose)
    who = _name(names, p.get("seat"), me)
    verb_s = "" if who == "you" else "s"
    match name:
        case "MatchStarted":
            options = p.get("options") or {}
            players = ", ".join(str(n) for n in p.get("names") or [] if n)
            if "target_points" in options:
                target = options["target_points"]
                limit = ", a single hand" if target == 0 else f", to {target} points"
            elif "elimination_limit" in options:
                limit = f", out at {options['elimination_limit']} points"
            elif options.get("scoring") == "single":
                limit = ", a single hand"
            elif "target_per_player" in options:
                limit = f", to {options['target_per_player']} points per player"
            elif "target_score" in options and "wins_needed" in options:  # vida R6.9, R6.10
                wins = options.get("wins_needed")
                games = f"{wins} game{'' if wins == 1 else 's'}"
                limit = f", games won above {options['target_score']} points, {games} to win"
                if options.get("open_vida"):
                    limit += ", open vida"
                if options.get("declaration_timing") == "before_first_card":
                    limit += ", declarations before the first card"
            elif "target_score" in options:  # giminaiciai R10.1, romis R12.1
                limit = f", to {options['target_score']} points"
            else:
                limit = ""
            factor = options.get("carried_bonus_factor")
            if isinstance(factor, int) and factor > 1:  # romis R12.3
                limit += f", bonus factor {factor} carried over"
            return f"Match of {p.get('game')}: {players}{limit}"
        case "HandStarted":
            how = "explicit deal" if p.get("explicit_deal") else f"commitment {str(p.get('commitment'))[:16]}…"
            dealer = _name(names, p.get("dealer"), me)
            game = f" of game {p.get('game_no')}" if p.get("game_no") is not None else ""
            return f"--- hand {p.get('hand_no')}{game}: {dealer} deal{'' if dealer == 'you' else 's'} ({how})"
        case "CardsDealt":
            cards = p.get("cards")
            be = "are" if who == "you" else "is"
            if not cards:
                return f"{_cap(who)} {be} dealt {p.get('count')} cards" if verbose else None
            return f"{_cap(who)} {be} dealt {pretty_cards(_sorted_codes(cards))}"
        case "StarterTurned" if "active_suit" not in p:  # giminaiciai R3.4
            return f"Up-card {pretty(p.get('card'))} starts the discard pile"
        case "StarterTurned":
            text = f"Up-card {pretty(p.get('card'))}"
            if p.get("pending_draw"):
                text += f": {p.get('pending_draw')} cards to take"
            if p.get("chooser") is not None:
                text += f"; {_name(names, p.get('chooser'), me)} choose{'' if p.get('chooser') == me else 's'} the suit"
            return text
        case "TurnStarted":
            return f"{_cap(who)} {'are' if who == 'you' else 'is'} to play" if verbose else None
        case "SeedRevealed":
            seed = p.get("seed")
            return f"Seed revealed: {seed if seed else 'none (explicit deal)'}" if verbose else None
        case "CardPlayed":
            text = f"{_cap(who)} play{verb_s} {pretty(p.get('card'))}"
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
            return f"{_cap(who)} draw{verb_s} {count} card{'' if count == 1 else 's'}{why}{shown}"
        case "StockReshuffled":
            return f"The discard pile ({p.get('count')} cards) is reshuffled under the stock"
        case "Passed":
            return f"{_cap(who)} pass{'' if who == 'you' else 'es'}"
        case "TurnSkipped":
            return f"{_cap(who)} {'are' if who == 'you' else 'is'} skipped ({p.get('reason')})"
        case "SuitChosen":
            return f"{_cap(who)} choose{verb_s} {suit_symbol(p.get('suit'))}"
        case "AnnouncementMissed":
            return f"{_cap(who)} did not announce {p.get('cards_left')} card(s) left: {p.get('penalty')}"
        case "CardDrawn":
            if p.get("source") == "discard":
                return f"{_cap(who)} take{verb_s} {pretty(p.get('card'))} from the discard pile"
            shown = f" ({pretty(p.get('stock_card'))})" if p.get("stock_card") else ""
            return f"{_cap(who)} draw{verb_s} from the stock{shown}"
        case "CardDiscarded":
            return f"{_cap(who)} discard{verb_s} {pretty(p.get('card'))}"
        case "DiscardPileTurnedOver":
            return f"The discard pile ({p.get('count')} cards) is turned over to make the stock"
        case "HandLaidDown":
            groups = " | ".join(pretty_cards(g) for g in p.get("groups") or [])
            extra = f", {len(p.get('extra_cards') or [])} from the pile" if p.get("extra_cards") else ""
            discard = f", discarding {pretty(p.get('discard'))}" if p.get("discard") else ""
            return f"{_cap(who)} lay{verb_s} down {groups} ({p.get('cards_laid')} cards{extra}{discard})"
        case "PointsScored":
            return f"{_cap(who)} score{verb_s} {p.get('points')} ({str(p.get('reason')).replace('_', ' ')})"
        case "PlayerFinished":
            return f"{_cap(who)} finish{'' if who == 'you' else 'es'} in place {p.get('place')}" if verbose else None
        case "HandEnded" if "remaining" in p:
            points = ", ".join(f"{_name(names, s)} {v}" for s, v in enumerate(p.get("hand_points") or []))
            totals = ", ".join(f"{_name(names, s)} {v}" for s, v in enumerate(p.get("totals") or []))
            why = str(p.get("reason")).replace("_", " ")
            return f"Hand over ({why}). Points: {points}. Totals: {totals}"
        case "HandEnded":
            winner = p.get("winner")
            reason = p.get("reason")
            if winner is not None:
                head = f"{_cap(_name(names, winner, me))} went out"
            else:
                head = "Hand abandoned" if reason == "abandoned" else "Hand blocked"
            points = ", ".join(
                f"{_name(names, s)} {v}" for s, v in enumerate(p.get("hand_points") or []) if v is not None
            )
            totals = ", ".join(f"{_name(names, s)} {v}" for s, v in enumerate(p.get("totals") or []) if v is not None)
            return f"{head}. Points: {points}. Totals: {totals}"
        case "MatchEnded" if "winner_team" in p:
            games = _pair(p.get("games_won"))
            return f"Match over: {_team(p.get('winner_team'), names, me)} wins, games won {games}"
        case "MatchEnded":
            winner = p.get("winner")
            if winner is None:
                return "Match over: no winner"
            champion = _name(names, winner, me)
            return f"Match over: {_cap(champion)} {'win' if champion == 'you' else 'wins'}"
        case "DirectionReversed":
            return f"Play now goes {'clockwise' if p.get('direction') == 1 else 'counter-clockwise'}"
        case "StarterBuried":
            return f"The up-card {pretty(p.get('card'))} is buried in the stock"
        case "MauCalled":
            return f'{_cap(who)} call{verb_s} "Mau"'
        case "MauMissed":
            return f'{_cap(who)} did not call "Mau"'
        case "PlayerJoined":
            skill = f" (computer, {p.get('computer')})" if p.get("computer") else ""
            return f"{p.get('name')}{skill} joins at seat {p.get('seat')} with {p.get('total')} points"
        case "PlayerLeft":
            return f"{_cap(who)} le{'ave' if who == 'you' else 'aves'} the match"
        case "PlayerEliminated":
            return f"{_cap(who)} {'are' if who == 'you' else 'is'} eliminated with {p.get('total')} points"
        case "TableCreated" | "SeatTaken" | "JoinQueued":
            return None
    return _describe_vida(name, p, names, me, verbose=verbose)


_ROMIS_EVENTS = frozenset(
    {
        "ShuffleCommitted",
        "AuxiliaryDealt",
        "RoundOpened",
        "AuxiliaryUsed",
        "SubmissionSealed",
        "RoundResolved",
        "NobodyCouldReveal",
        "EliminatedPileRestocked",
        "HandCardsRedealt",
        "HandWon",
    }
)
"""The events only ``romis`` has (rules/romis.md section 9)."""
_ROMIS_MARKS = {
    "HandStarted": "bonus_factor",
    "CardsDealt": "stage",
    "PlayerEliminated": "round",
    "HandEnded": "bonus_factor",
    "ShuffleRevealed": "purpose",
}
"""Events ``romis`` shares by name with other games, each with a field only ``romis``'s has
(section 9; ``HandEnded.bonus_factor`` is the next hand's)."""
_SHUFFLES = {
    "deal": "The deck is shuffled for the deal",
    "eliminated_pile": "The eliminated pile is shuffled and cut to make the stock",
    "redeal": "The cards in hand are shuffled to be dealt again",
}
"""romis R3.2, R9.1, R9.3: what a shuffle (``purpose``) is for."""
_STAGES = {
    "first_deal": " (first obligatory deal)",
    "second_deal": " (second obligatory deal)",
    "redeal": " (dealt again)",
}
"""romis R4.3, R4.5, R9.3: the stage of a deal after the 5-card hands, in words."""
_ENDINGS = {"winner": "won", "all_revealed": "all 52 cards revealed", "stalemate": "stalemate"}
"""romis R10.1, R10.5, R9.4: why a hand ended."""


def _is_romis(name: str, p: Mapping[str, Any]) -> bool:
    """True for a ``romis`` event (section 9): a name only it has, or a shared name with its field."""
    mark = _ROMIS_MARKS.get(name)
    return name in _ROMIS_EVENTS or (mark is not None and mark in p)


def _plural(count: Any, noun: str) -> str:
    """``1 card``, ``3 cards``."""
    return f"{count} {noun}{'' if count == 1 else 's'}"


def _slots(slots: Any) -> str:
    """``auxiliary card 1`` / ``auxiliary cards 1 and 2`` (romis R6.2: slot 1 first)."""
    used = [str(s) for s in slots] if isinstance(slots, Sequence) and not isinstance(slots, str) else []
    if not used:
        return ""
    return f"auxiliary card{'' if len(used) == 1 else 's'} {' and '.join(used)}"


def _sealed_payload(raw: Any) -> Mapping[str, Any] | None:
    """The sealed command of a ``SubmissionSealed`` (romis R5.2): a mapping, or its canonical JSON text."""
    if isinstance(raw, str):
        try:
            raw = json.loads(raw)
        except ValueError:
            return None
    return raw if isinstance(raw, Mapping) else None


def _at(values: Any, seat: int) -> Any:
    """``values[seat]`` of a per-seat list, None when the list is shorter or not a list."""
    if isinstance(values, Sequence) and not isinstance(values, str) and seat < len(values):
        return values[seat]
    return None


def _resolved_seat(p: Mapping[str, Any], seat: int, names: Sequence[str], me: int | None) -> str:
    """One live seat's part of a ``RoundResolved`` (romis R5.3), read from its per-seat lists
    (``kinds``, ``cards``, ``new_combination``, ``companions`` as a count, ``auxiliary_slots``): its
    reveal or ``cannot``, a new combination's face-down companions (R8.2, R8.3), and the auxiliary
    cards it turned up in the round (R6.4)."""
    who = _name(names, seat, me)
    if _at(p.get("kinds"), seat) == "cannot":
        text = f"{who} cannot reveal"
    else:
        verb_s = "" if who == "you" else "s"
        text = f"{who} reveal{verb_s} {pretty_cards(_at(p.get('cards'), seat))}"
        if _at(p.get("new_combination"), seat):
            companions = _plural(_at(p.get("companions"), seat), "companion")
            text += f" and start{verb_s} a new combination with {companions} face down"
    used = _slots(_at(p.get("auxiliary_slots"), seat))
    if used:
        text += f" (after turning up {used})"
    return text


def _describe_romis(
    name: str, p: Mapping[str, Any], names: Sequence[str], me: int | None, *, verbose: bool
) -> str | None:
    """``romis``'s events (rules/romis.md section 9) as ``me`` saw them."""
    who = _name(names, p.get("seat"), me)
    verb_s = "" if who == "you" else "s"
    be = "are" if who == "you" else "is"
    match name:
        case "ShuffleCommitted":  # R3.2, R9.1, R9.3
            shuffled = _SHUFFLES.get(str(p.get("purpose")), f"Shuffled ({p.get('purpose')})")
            return f"{shuffled}; commitment {str(p.get('commitment'))[:16]}…"
        case "HandStarted":  # R3.1, R10.6
            dealer = _name(names, p.get("dealer"), me)
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
                extra = "an extra card" if count == 1 else _plural(count, "extra card")
                return f"{_cap(who)} {be} dealt {extra}{shown}"
            words = _STAGES.get(str(stage), "")
            if cards:
                return f"{_cap(who)} {be} dealt {pretty_cards(_sorted_codes(cards))}{words}"
            if stage == "redeal" or verbose:
                return f"{_cap(who)} {be} dealt {_plural(p.get('count'), 'card')}{words}"
            return None
        case "AuxiliaryDealt":  # R3.4: nobody sees them, the owner neither, until used
            cards = p.get("cards")
            dealt = f"{_cap(who)} {be} dealt {_plural(p.get('count'), 'auxiliary card')} face down"
            if cards:
                return f"{dealt}: {pretty_cards(cards)}"
            return dealt if who == "you" or verbose else None
        case "RoundOpened":  # R4.2, R4.4, R4.6, R7.4
            attempt = p.get("attempt")
            again = f" (attempt {attempt})" if isinstance(attempt, int) and attempt > 1 else ""
            live = ", ".join(_name(names, s, me) for s in p.get("live") or [])
            return f"Round {p.get('round')}{again}: reveal {_plural(p.get('required'), 'card')}; in play: {live}"
        case "AuxiliaryUsed":  # R6.1, R6.4
            card = f": {pretty(p.get('card'))}" if p.get("card") else ""
            slot = f"auxiliary card {p.get('slot')}" if p.get("slot") is not None else "an auxiliary card"
            return f"{_cap(who)} turned up {slot}{card}"
        case "SubmissionSealed":  # R5.1, R5.2
            sealed = _sealed_payload(p.get("payload"))
            what = f": {describe_command(sealed)}" if sealed is not None else ""
            return f"{_cap(who)} {'have' if who == 'you' else 'has'} submitted (sealed){what}"
        case "RoundResolved":  # R5.3
            attempt = p.get("attempt")
            again = f" (attempt {attempt})" if isinstance(attempt, int) and attempt > 1 else ""
            kinds = p.get("kinds") or []
            seats = [s for s, kind in enumerate(kinds) if kind is not None]  # None: not live
            parts = "; ".join(_resolved_seat(p, s, names, me) for s in seats)
            return f"Round {p.get('round')}{again} resolved: {parts or '-'}"
        case "PlayerEliminated":  # R7.1-R7.3
            held = f"; held {pretty_cards(p.get('hand'))}" if p.get("hand") else ""
            return (
                f"{_cap(who)} {be} eliminated in round {p.get('round')} with {_plural(p.get('points'), 'point')}{held}"
            )
        case "NobodyCouldReveal":  # R7.4
            return (
                f"Nobody could reveal in round {p.get('round')}: "
                "everyone gets an extra card and the round is played again"
            )
        case "EliminatedPileRestocked":  # R9.1
            return f"The eliminated pile ({_plural(p.get('count'), 'card')}) becomes the stock"
        case "HandCardsRedealt":  # R9.3
            counts = p.get("counts") or []  # 0 for a seat not live
            each = ", ".join(f"{_name(names, s, me)} {c}" for s, c in enumerate(counts) if c)
            return f"No card left to deal: the cards in hand are gathered and dealt again ({each})"
        case "HandWon":  # R10.1-R10.4
            laid = p.get("laid_down")
            lays = f", lay{verb_s} down {pretty_cards(laid)}" if laid else ""
            return (
                f"{_cap(who)} win{verb_s} the hand{lays}: {_plural(p.get('revealed_count'), 'revealed card')} "
                f"x {p.get('multiplier')} + bonus {p.get('bonus')} = {_plural(p.get('points'), 'point')}"
            )
        case "HandEnded":  # R10.5-R10.9
            why = _ENDINGS.get(str(p.get("reason")), str(p.get("reason")))
            if p.get("reason") == "winner" and p.get("winner") is not None:
                why = f"won by {_name(names, p.get('winner'), me)}"
            points = ", ".join(f"{_name(names, s)} {v}" for s, v in enumerate(p.get("hand_points") or []))
            totals = ", ".join(f"{_name(names, s)} {v}" for s, v in enumerate(p.get("totals") or []))
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
    return f"{name} {dict(p)}"


_VIDA_LEVELS: dict[Any, str] = {1: "vida", 2: "contra vida", 3: "third vida", 4: "fourth vida"}
"""vida R4.5: the names of the doubling levels."""
_VIDA_MULTIPLIERS: dict[Any, int] = {1: 2, 2: 4, 3: 6, 4: 8}
"""vida R4.5: the multiplier of each level."""
_VIDA_TEAMS = ((0, 2), (1, 3))
"""vida R2.3: team 0 = seats 0 and 2, team 1 = seats 1 and 3."""


def _team(team: Any, names: Sequence[str | None] = (), me: int | None = None) -> str:
    """``team 0 (ann and cy)``: a vida team with its members' names (R2.3); ``nobody`` for None."""
    if not isinstance(team, int) or not 0 <= team < len(_VIDA_TEAMS):
        return "nobody"
    members = " and ".join(_name(names, s, me) for s in _VIDA_TEAMS[team])
    return f"team {team} ({members})"


_KIND_NAMES = {
    "carre_J": "four jacks",
    "carre_9": "four nines",
    "carre_A": "four aces",
    "carre_T": "four tens",
    "carre_K": "four kings",
    "carre_Q": "four queens",
    "seq3": "tierce",
    "seq4": "quarte",
    "seq5": "quint",
    "seq6": "sixth",
    "seq7": "seventh",
    "seq8": "eighth",
}
"""vida R5.2: a combination's code in words (the glossary's English terms, section 11)."""


def combination_name(kind: Any) -> str:
    """``"seq4"`` -> ``"quarte"``, ``"carre_J"`` -> ``"four jacks"`` (vida R5.2); other text as is."""
    return _KIND_NAMES.get(str(kind), str(kind))


def _pair(values: Any) -> str:
    """A per-team pair as ``team 0 190, team 1 80`` (vida R2.3)."""
    if isinstance(values, Sequence) and not isinstance(values, str) and len(values) == len(_VIDA_TEAMS):
        return f"team 0 {values[0]}, team 1 {values[1]}"
    return str(values)


def _contract(c: Any) -> str:
    if not isinstance(c, Mapping):
        return "?"
    level = _VIDA_LEVELS.get(c.get("level"))
    doubled = f", {level} x{c.get('multiplier')}" if level else ""
    return f"{c.get('points')} {suit_symbol(c.get('suit'))}{doubled}"


def describe_vida_call(level: Any) -> str:
    """The menu line of vida's ``vida`` command when the current level is ``level`` (R4.5):
    ``call vida (x2)`` at level 0, ``call contra vida (x4)`` at level 1 ..."""
    nxt = level + 1 if isinstance(level, int) else 1
    return f"call {_VIDA_LEVELS.get(nxt, 'vida')} (x{_VIDA_MULTIPLIERS.get(nxt, '?')})"


def _describe_vida(
    name: str, p: Mapping[str, Any], names: Sequence[str], me: int | None, *, verbose: bool
) -> str | None:
    """``vida``'s own events (rules/vida.md section 9)."""
    who = _name(names, p.get("seat"), me)
    verb_s = "" if who == "you" else "s"
    match name:
        case "WidowExposed":
            return f"Widow face up: {pretty_cards(p.get('cards'))}"
        case "BidMade":
            return f"{_cap(who)} bid{verb_s} {p.get('points')} {suit_symbol(p.get('suit'))}"
        case "VidaCalled":
            level = _VIDA_LEVELS.get(p.get("level"), "vida")
            return f"{_cap(who)} call{verb_s} {level} (x{p.get('multiplier')})"
        case "AuctionClosed":
            holder = _name(names, p.get("holder"), me)
            return (
                f"Contract: {_contract(p)} for {_team(p.get('team'), names, me)}, held by {holder}; "
                f"trumps {suit_symbol(p.get('suit'))}"
            )
        case "HandAnnulled":
            nxt = _name(names, p.get("next_dealer"), me)
            return f"All passed: the hand is annulled; {nxt} deal{'' if nxt == 'you' else 's'} next"
        case "WidowTaken":
            return f"{_cap(who)} take{verb_s} the widow {pretty_cards(p.get('cards'))}"
        case "CardGiven":
            giver, taker = _name(names, p.get("from_seat"), me), _name(names, p.get("to_seat"), me)
            card = f" {pretty(p.get('card'))}" if p.get("card") else " a card"
            return f"{_cap(giver)} give{'' if giver == 'you' else 's'}{card} to {taker}"
        case "DeclarationAnnounced":
            return f"{_cap(who)} declare{verb_s} {', '.join(combination_name(k) for k in p.get('kinds') or [])}"
        case "DeclarationsResolved":
            points = p.get("declaration_points") or []
            if p.get("standoff"):
                tied = p.get("tied") or {}
                kind, top = combination_name(tied.get("kind")), pretty(tied.get("top"))
                return f"Declarations stand off ({kind} to {top}): none count"
            if p.get("winner_team") is None:
                return "No declarations" if verbose else None
            shown = "; ".join(
                f"{_name(names, c.get('seat'), me)} {combination_name(c.get('kind'))} {pretty_cards(c.get('cards'))}"
                for c in p.get("shown") or []
                if isinstance(c, Mapping)
            )
            team = p.get("winner_team")
            scored = points[team] if isinstance(team, int) and 0 <= team < len(points) else "?"
            return f"Declarations: {_team(team, names, me)} scores {scored} ({shown})"
        case "BeloteAnnounced":
            return f"{_cap(who)} announce{verb_s} belote with {pretty(p.get('card'))}"
        case "TrickTaken":
            winner = _name(names, p.get("winner"), me)
            cards = pretty_cards(p.get("cards"))
            return f"Trick {p.get('trick_no')}: {cards}, won by {winner} ({p.get('points')} points)"
        case "HandScored":
            made = "made" if p.get("contract_made") else "failed"
            capot = "" if p.get("capot_team") is None else f"; capot by {_team(p.get('capot_team'), names, me)}"
            extras = ""
            if any(p.get("declaration_points") or ()):
                extras += f"; declarations {_pair(p.get('declaration_points'))}"
            if any(p.get("belote_points") or ()):
                extras += f"; belote {_pair(p.get('belote_points'))}"
            contract = p.get("contract")
            bidders = _team(contract.get("team"), names, me) if isinstance(contract, Mapping) else "?"
            return (
                f"Contract {_contract(contract)} of {bidders} {made}: trick points {_pair(p.get('trick_points_raw'))}"
                f"{capot}{extras}. Hand: {_pair(p.get('hand_points'))}. Totals: {_pair(p.get('totals'))}"
            )
        case "ShuffleRevealed":
            salt = p.get("salt")
            return f"Deck revealed; salt {salt if salt else 'none (explicit deal)'}" if verbose else None
        case "GameWon":
            team = _team(p.get("team"), names, me)
            games = _pair(p.get("games_won"))
            return f"Game {p.get('game_no')} won by {team} at {_pair(p.get('totals'))}; games won {games}"
    return f"{name} {dict(p)}"


def _vida_call(call: Mapping[str, Any], names: Sequence[str | None], me: Any) -> str:
    what = call.get("call")
    if what == "bid":
        what = f"{call.get('points')} {suit_symbol(call.get('suit'))}"
    elif what == "vida":
        what = _VIDA_LEVELS.get(call.get("level"), "vida")
    return f"{_name(names, call.get('seat'), me)} {what}"


def _render_vida(view: Mapping[str, Any], names: Sequence[str | None]) -> list[str]:
    """The lines of a ``vida`` view: teams, auction or contract and trumps, widow, declarations,
    belote, the trick, tricks won, the last hand's score, totals and games (rules/vida.md section 9)."""
    me = view.get("seat") if isinstance(view.get("seat"), int) else None
    phase = view.get("phase")
    lines = []
    head = f"Hand {view.get('hand_no')} of game {view.get('game_no')}"
    if view.get("dealer") is not None:
        head += f", dealer {_name(names, view.get('dealer'), me)}"
    lines.append(f"{head}. Teams: {_team(0, names, me)} v {_team(1, names, me)}")
    if me is not None and 0 <= me < 4:  # R2.3, R2.4: partners sit opposite; seat k+1 acts after seat k
        order = ", ".join(_name(names, (me + i) % 4, me) for i in range(4))
        lines.append(f"Your partner: {_name(names, (me + 2) % 4)}. Order of play: {order}, ...")
    contract = view.get("contract")
    if isinstance(contract, Mapping):
        holder = _name(names, contract.get("holder"), me)
        lines.append(
            f"Contract {_contract(contract)} for {_team(contract.get('team'), names, me)}, held by {holder}; "
            f"trumps {suit_symbol(view.get('trump') or contract.get('suit'))}"
        )
    elif phase == "auction":
        calls = [_vida_call(c, names, me) for c in view.get("auction") or [] if isinstance(c, Mapping)]
        lines.append("Auction: " + (", ".join(calls) if calls else "no call yet"))
        bid = view.get("bid")
        if isinstance(bid, Mapping):
            level = _VIDA_LEVELS.get(view.get("level"))
            doubled = f", {level}" if level else ""
            owner = _name(names, bid.get("seat"), me)
            lines.append(f"Highest bid: {bid.get('points')} {suit_symbol(bid.get('suit'))} by {owner}{doubled}")
    if view.get("widow"):
        lines.append(f"Widow (face up): {pretty_cards(view.get('widow'))}")
    taken = view.get("widow_taken")
    if isinstance(taken, Mapping) and phase == "exchange":
        lines.append(f"{_cap(_name(names, taken.get('seat'), me))} took the widow {pretty_cards(taken.get('cards'))}")
    gifts = [
        f"{pretty(g.get('card'))} to {_name(names, g.get('to_seat'), me)}"
        for g in view.get("given") or []
        if isinstance(g, Mapping)
    ]
    if gifts:
        lines.append(f"You gave {', '.join(gifts)}")
    if view.get("received"):
        lines.append(f"You received {pretty(view.get('received'))}")
    raw_declarations = view.get("declarations")
    declarations: Mapping[str, Any] = raw_declarations if isinstance(raw_declarations, Mapping) else {}
    announced = [
        f"{_name(names, a.get('seat'), me)} {', '.join(combination_name(k) for k in a.get('kinds') or [])}"
        for a in declarations.get("announced") or []
        if isinstance(a, Mapping)
    ]
    if announced and phase in ("play", "exchange"):
        lines.append("Declared: " + "; ".join(announced))
    resolution = declarations.get("resolution")
    if isinstance(resolution, Mapping) and phase == "play":
        line = _describe_vida("DeclarationsResolved", resolution, [n or "" for n in names], me, verbose=True)
        if line:
            lines.append(line)
    belote = view.get("belote")
    if isinstance(belote, Mapping) and phase == "play":
        lines.append(f"Belote: {_name(names, belote.get('seat'), me)} with {pretty(belote.get('card'))}")
    if phase == "play":
        tricks = view.get("tricks") or []
        if tricks and not view.get("trick") and isinstance(tricks[-1], Mapping):
            last = tricks[-1]
            leader = last.get("leader")
            cards = list(last.get("cards") or [])
            if isinstance(leader, int):  # cards in play order from the leader (R2.4)
                shown = ", ".join(f"{_name(names, (leader + i) % 4, me)} {pretty(c)}" for i, c in enumerate(cards))
            else:
                shown = pretty_cards(cards)
            lines.append(f"Last trick {last.get('trick_no')}: {shown}; won by {_name(names, last.get('winner'), me)}")
        played = ", ".join(
            f"{_name(names, t.get('seat'), me)} {pretty(t.get('card'))}"
            for t in view.get("trick") or []
            if isinstance(t, Mapping)
        )
        lines.append(f"Trick {view.get('trick_no')}: {played or 'nothing played yet'}")
        won = view.get("tricks_won")
        if won:
            lines.append(f"Tricks won: {_pair(won)}")
    if view.get("hand_over") and (view.get("contract_made") is not None or view.get("annulled")):
        if view.get("annulled"):
            lines.append("Last hand: annulled (all passed)")
        else:
            made = "made" if view.get("contract_made") else "failed"
            lines.append(f"Last hand: contract {made}; hand points {_pair(view.get('hand_points'))}")
    return lines


def _combination_fate(view: Mapping[str, Any], seat: int) -> str:
    """What became of a seat's combinations once the teams' were compared (vida R5.5-R5.8)."""
    declarations = view.get("declarations")
    resolution = declarations.get("resolution") if isinstance(declarations, Mapping) else None
    if not isinstance(resolution, Mapping):
        return ""
    if resolution.get("standoff"):
        return " - a stand-off: none count"
    if resolution.get("winner_team") == seat % 2:
        return " - your team's declarations score"
    return " - beaten by the other team's" if resolution.get("winner_team") is not None else ""


def _seat_line(view: Mapping[str, Any], seat: int, names: Sequence[str | None], me: Any) -> str:
    """One seat of a ``romis`` view during a hand (R5.4: as of the last resolved round): eliminated,
    or its revealed cards, auxiliary cards left face down and companions face down; the viewer's own
    auxiliary cards are counted as he knows them, after those he turned up this round (R6.4)."""
    who = _name(names, seat, me)
    if seat in (view.get("eliminated") or []):
        return f"  {who}: eliminated"
    facts = [f"revealed {pretty_cards(_at(view.get('revealed'), seat))}"]
    aux = _at(view.get("auxiliary_counts"), seat)
    if seat == me and isinstance(view.get("auxiliary_left"), int):  # R6.4: his own count he knows at once
        aux = view.get("auxiliary_left")
    if isinstance(aux, int):
        facts.append(_plural(aux, "auxiliary card"))
    companions = _at(view.get("companion_counts"), seat)
    if companions:
        facts.append(f"{_plural(companions, 'companion')} face down")
    return f"  {who}: {'; '.join(facts)}"


def _render_romis(view: Mapping[str, Any], names: Sequence[str | None]) -> list[str]:
    """The lines of a ``romis`` view (rules/romis.md section 9): the hand and round with the cards
    to reveal (R4), each seat's revealed cards, auxiliary and companion counts as of the last resolved
    round (R5.4), who has submitted and who is awaited (R5.2), the viewer's own companions, auxiliary
    cards left and sealed submission, the last resolved round, the last hand's ending (R10)."""
    me = view.get("seat") if isinstance(view.get("seat"), int) else None
    shown = [n or "" for n in names]
    lines = []
    head = f"Hand {view.get('hand_no')}"
    if view.get("dealer") is not None:
        head += f", dealer {_name(names, view.get('dealer'), me)}"
    lines.append(f"{head}; bonus factor {view.get('bonus_factor')}; match to {view.get('target_score')} points")
    if view.get("phase") == "play":
        attempt = view.get("attempt")
        again = f" (attempt {attempt})" if isinstance(attempt, int) and attempt > 1 else ""
        lines.append(f"Round {view.get('round')}{again}: reveal {_plural(view.get('required'), 'card')}")
        seats = range(len(names)) if names else range(len(view.get("revealed") or []))
        lines.extend(_seat_line(view, s, names, me) for s in seats)
        submitted = ", ".join(_name(names, s, me) for s in view.get("submitted") or [])
        waiting = ", ".join(_name(names, s, me) for s in view.get("waiting") or [])
        lines.append(f"Submitted (sealed): {submitted or 'nobody yet'}; waiting for: {waiting or 'nobody'}")
        if view.get("eliminated_pile_count"):
            lines.append(f"Eliminated pile: {_plural(view.get('eliminated_pile_count'), 'card')}")
        if view.get("companions"):
            lines.append(f"Your companions (face down): {pretty_cards(view.get('companions'))}")
        if isinstance(view.get("auxiliary_left"), int):
            lines.append(f"Your auxiliary cards left (unseen): {view.get('auxiliary_left')}")
        pending = view.get("pending")
        if isinstance(pending, Mapping):
            lines.append(f"You have submitted (sealed): {describe_command(pending)}")
        last_round = view.get("last_round")
        if isinstance(last_round, Mapping):
            lines.append(str(_describe_romis("RoundResolved", last_round, shown, me, verbose=True)))
    last_hand = view.get("last_hand")
    if isinstance(last_hand, Mapping) and view.get("hand_over"):
        lines.append(str(_describe_romis("HandEnded", last_hand, shown, me, verbose=True)))
    return lines


PILE_SHOWN = 10
"""At most this many cards of a giminaiciai discard pile are named in a view, from the top (the extra
cards of a lay-down are taken from the top, R5.3); the rest are counted."""
_GIMINAICIAI_ENDINGS = {
    "all_finished": "everybody laid down",
    "piles_exhausted": "stock and discard pile empty",
    "stalled": "stalled: nobody laid down while the cards went round",
}
"""giminaiciai R8.1, R8.2 and the stalled hand (R8.4): why a hand ended."""


def _ordinal(n: int) -> str:
    """``1st``, ``2nd``, ``3rd``, ``4th`` ... (places in which players laid down, R5.5)."""
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def _seats_line(values: Any, names: Sequence[str | None]) -> str:
    """``ann 0, bob 11, cy 0``: one number per seat, by display name (as every game's totals)."""
    listed = values if isinstance(values, Sequence) and not isinstance(values, str) else []
    return ", ".join(f"{_name(names, s)} {v}" for s, v in enumerate(listed))


def _pile_line(pile: Any) -> str:
    """The giminaiciai discard pile (R3.4, public), given bottom first: how many cards, then the cards
    from the top, at most :data:`PILE_SHOWN` of them.

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
    return f"Discard pile: {_plural(len(cards), 'card')}, top first {shown}{more}"


def _render_giminaiciai(view: Mapping[str, Any], names: Sequence[str | None]) -> tuple[list[str], list[str]]:
    """The lines of a ``giminaiciai`` view (rules/giminaiciai.md section 9), as (lines before, lines
    after) the hand sizes, the seat to act and the hands.

    Before: the hand, its dealer and the target (R3.1, R9.1); each seat that laid down, in the order
    it finished, with its groups as laid (R5.5); during a hand the discard pile (top first, R3.4) --
    so that its top is seen before ``take the top card of the discard pile`` is offered (R4.2).
    After: the card the seat to act took from the pile this turn, which it may not discard (R4.5);
    this hand's points so far (R7) when any; the totals before this hand while it lasts, else the
    last hand's ending, the cards unfinished players still held (R8.2), the totals after it and the
    winner (R9).
    """
    me = view.get("seat") if isinstance(view.get("seat"), int) else None
    before: list[str] = []
    after: list[str] = []
    in_hand = view.get("phase") == "play"
    head = f"Hand {view.get('hand_no')}"
    if view.get("dealer") is not None:
        head += f", dealer {_name(names, view.get('dealer'), me)}"
    before.append(f"{head}; match to {view.get('target_score')} points")
    laid = view.get("laid") or []
    for place, seat in enumerate(view.get("finished") or [], start=1):
        who = _name(names, seat, me)
        groups = " | ".join(pretty_cards(g) for g in _at(laid, seat) or [])
        before.append(f"{_cap(who)} laid down {_ordinal(place)}: {groups or '-'}")
    if in_hand:
        before.append(_pile_line(view.get("discard_pile")))
        taken = view.get("taken")
        if taken is not None:
            who = _name(names, view.get("to_act"), me)
            if who == "you":
                after.append(f"You took {pretty(taken)} from the discard pile this turn: you may not discard it")
            else:
                after.append(f"{who} took {pretty(taken)} from the discard pile this turn")
        points = view.get("hand_points") or []
        if any(points):
            after.append(f"Points this hand: {_seats_line(points, names)}")
        after.append(f"Totals before this hand: {_seats_line(view.get('totals'), names)}")
        return before, after
    last = view.get("last_hand")
    if isinstance(last, Mapping) and view.get("hand_over"):
        why = _GIMINAICIAI_ENDINGS.get(str(last.get("reason")), str(last.get("reason")))
        after.append(f"Hand {last.get('hand_no')} over ({why}); points: {_seats_line(last.get('hand_points'), names)}")
        for seat, cards in enumerate(last.get("remaining") or []):
            if cards:
                who = _name(names, seat, me)
                after.append(f"{_cap(who)} {'were' if who == 'you' else 'was'} left holding {pretty_cards(cards)}")
    if view.get("totals"):
        after.append(f"Totals: {_seats_line(view.get('totals'), names)}")
    if view.get("match_over") and view.get("winner") is not None:
        after.append(f"Winner: {_name(names, view.get('winner'), me)}")
    return before, after


def render_view(view: Mapping[str, Any]) -> str:
    """A few lines describing a view (a seat's, a spectator's, or a replay's omniscient one)."""
    names: list[str | None] = [None if n is None else str(n) for n in view.get("names") or []]
    seat = view.get("seat")
    after: list[str] = []
    if view.get("game") == "vida":
        lines = _render_vida(view, names)
    elif view.get("game") == "romis":
        lines = _render_romis(view, names)
    elif view.get("game") == "giminaiciai":
        lines, after = _render_giminaiciai(view, names)
    else:
        lines = []
    top = view.get("top_card")
    if top is not None:
        line = f"Up-card {pretty(top)}, suit {suit_symbol(view.get('active_suit'))}"
        if view.get("pending_draw"):
            line += f", {view.get('pending_draw')} cards to take"
        lines.append(line)
    # no cards are held between hands (giminaiciai R8.3, romis R10.9)
    between = view.get("game") in ("giminaiciai", "romis") and view.get("phase") != "play"
    sizes = [] if between else view.get("hand_sizes") or []
    if sizes:
        counts = ", ".join(f"{_name(names, s)} {k}" for s, k in enumerate(sizes))
        if view.get("stock_count") is None:  # vida has no stock (R3.3)
            lines.append(f"Cards in hand: {counts}")
        else:
            lines.append(f"Stock {view.get('stock_count')} cards; hands: {counts}")
    if view.get("to_act") is not None:
        lines.append(f"To act: {_name(names, view.get('to_act'))}")
    hands = view.get("hands")
    if between:
        pass
    elif isinstance(hands, list):
        for s, hand in enumerate(hands):
            lines.append(f"  {_name(names, s)}: {pretty_cards(hand)}")
    elif "hand" in view and isinstance(seat, int):
        lines.append(f"Your hand ({_name(names, seat)}): {pretty_cards(view.get('hand'))}")
        combos = [c for c in view.get("combinations") or [] if isinstance(c, Mapping)]
        first_trick = isinstance(view.get("trick_no"), int) and view["trick_no"] <= 1
        if combos and view.get("phase") == "play" and first_trick:  # vida R5.3: the seat's own combinations
            listed = "; ".join(
                f"{combination_name(c.get('kind'))} {pretty_cards(c.get('cards'))} ({c.get('points')})" for c in combos
            )
            lines.append(f"Your combinations: {listed}{_combination_fate(view, seat)}")
    totals = view.get("totals") or []
    if view.get("game") == "giminaiciai":
        lines.extend(after)
    elif totals and view.get("game") == "vida":
        raw_options = view.get("options")
        options: Mapping[str, Any] = raw_options if isinstance(raw_options, Mapping) else {}
        target = f" (a game is won above {options['target_score']})" if "target_score" in options else ""
        lines.append(f"Totals: {_pair(totals)}{target}; games won: {_pair(view.get('games_won'))}")
    elif totals:
        shown = [f"{_name(names, s)} {t}" for s, t in enumerate(totals) if t is not None]
        lines.append("Totals: " + ", ".join(shown))
    return "\n".join(lines)
