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

from collections.abc import Mapping, Sequence
from typing import Any

from trapoula.domain.cards import Suit, parse_card
from trapoula.domain.errors import InvalidInput

__all__ = [
    "describe_command",
    "describe_event",
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
        return text
    if kind == "draw":
        return f"take the {pending_draw} cards" if pending_draw > 0 else "draw a card"
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
    return str(dict(command))


def describe_event(
    name: str, payload: Mapping[str, Any], names: Sequence[str], me: int | None = None, *, verbose: bool = False
) -> str | None:
    """One line for an event as a viewer (``me``: a seat, or None) saw it.

    Returns None for an event not worth a line in a game (a turn starting, a hidden deal, the
    seed revealed) unless ``verbose``.
    """
    p = payload
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
            else:
                limit = ""
            return f"Match of {p.get('game')}: {players}{limit}"
        case "HandStarted":
            how = "explicit deal" if p.get("explicit_deal") else f"commitment {str(p.get('commitment'))[:16]}…"
            return f"--- hand {p.get('hand_no')}: {_name(names, p.get('dealer'))} deals ({how})"
        case "CardsDealt":
            cards = p.get("cards")
            be = "are" if who == "you" else "is"
            if not cards:
                return f"{_cap(who)} {be} dealt {p.get('count')} cards" if verbose else None
            return f"{_cap(who)} {be} dealt {pretty_cards(cards)}"
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
            return f"Match over: {_team(p.get('winner_team'))} wins, games {p.get('games_won')}"
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


_VIDA_LEVELS: dict[Any, str] = {1: "vida", 2: "contra vida", 3: "third vida", 4: "fourth vida"}
"""vida R4.5: the names of the doubling levels."""


def _team(team: Any) -> str:
    return f"team {team} (seats {team} and {team + 2})" if isinstance(team, int) else "nobody"


def _contract(c: Any) -> str:
    if not isinstance(c, Mapping):
        return "?"
    level = _VIDA_LEVELS.get(c.get("level"))
    doubled = f", {level} x{c.get('multiplier')}" if level else ""
    return f"{c.get('points')} {suit_symbol(c.get('suit'))}{doubled}"


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
            return f"Contract: {_contract(p)} for {_team(p.get('team'))}, held by {holder}"
        case "HandAnnulled":
            return f"All passed: the hand is annulled; {_name(names, p.get('next_dealer'), me)} deals next"
        case "WidowTaken":
            return f"{_cap(who)} take{verb_s} the widow {pretty_cards(p.get('cards'))}"
        case "CardGiven":
            giver, taker = _name(names, p.get("from_seat"), me), _name(names, p.get("to_seat"), me)
            card = f" {pretty(p.get('card'))}" if p.get("card") else " a card"
            return f"{_cap(giver)} give{'' if giver == 'you' else 's'}{card} to {taker}"
        case "DeclarationAnnounced":
            return f"{_cap(who)} declare{verb_s} {', '.join(str(k) for k in p.get('kinds') or [])}"
        case "DeclarationsResolved":
            points = p.get("declaration_points") or []
            if p.get("standoff"):
                tied = p.get("tied") or {}
                return f"Declarations stand off ({tied.get('kind')} to {tied.get('top')}): none count"
            if p.get("winner_team") is None:
                return "No declarations" if verbose else None
            shown = "; ".join(
                f"{_name(names, c.get('seat'), me)} {c.get('kind')} {pretty_cards(c.get('cards'))}"
                for c in p.get("shown") or []
                if isinstance(c, Mapping)
            )
            team = p.get("winner_team")
            scored = points[team] if isinstance(team, int) and team < len(points) else "?"
            return f"Declarations: {_team(team)} scores {scored} ({shown})"
        case "BeloteAnnounced":
            return f"{_cap(who)} announce{verb_s} belote with {pretty(p.get('card'))}"
        case "TrickTaken":
            winner = _name(names, p.get("winner"), me)
            cards = pretty_cards(p.get("cards"))
            return f"Trick {p.get('trick_no')}: {cards}, won by {winner} ({p.get('points')} points)"
        case "HandScored":
            made = "made" if p.get("contract_made") else "failed"
            hand, totals = p.get("hand_points") or [], p.get("totals") or []
            capot = "" if p.get("capot_team") is None else f", capot by {_team(p.get('capot_team'))}"
            return (
                f"Contract {_contract(p.get('contract'))} {made} (trick points {p.get('trick_points_raw')}{capot}). "
                f"Hand: {hand}. Totals: {totals}"
            )
        case "ShuffleRevealed":
            salt = p.get("salt")
            return f"Deck revealed; salt {salt if salt else 'none (explicit deal)'}" if verbose else None
        case "GameWon":
            team = _team(p.get("team"))
            return f"Game {p.get('game_no')} won by {team} at {p.get('totals')}; games {p.get('games_won')}"
    return f"{name} {dict(p)}"


def _render_vida(view: Mapping[str, Any], names: Sequence[str | None]) -> list[str]:
    """The lines of a ``vida`` view: auction or contract, widow, trick, tricks won, scores."""
    lines = []
    contract = view.get("contract")
    if isinstance(contract, Mapping):
        holder = _name(names, contract.get("holder"), view.get("seat"))
        lines.append(f"Contract {_contract(contract)} for {_team(contract.get('team'))}, held by {holder}")
    elif view.get("phase") == "auction":
        calls = []
        for c in view.get("auction") or []:
            if not isinstance(c, Mapping):
                continue
            call = c.get("call")
            if call == "bid":
                call = f"{c.get('points')} {suit_symbol(c.get('suit'))}"
            elif call == "vida":
                call = _VIDA_LEVELS.get(c.get("level"), "vida")
            calls.append(f"{_name(names, c.get('seat'), view.get('seat'))} {call}")
        lines.append("Auction: " + (", ".join(calls) if calls else "no call yet"))
    if view.get("widow"):
        lines.append(f"Widow: {pretty_cards(view.get('widow'))}")
    trick = view.get("trick") or []
    if view.get("phase") == "play":
        played = ", ".join(
            f"{_name(names, t.get('seat'), view.get('seat'))} {pretty(t.get('card'))}"
            for t in trick
            if isinstance(t, Mapping)
        )
        lines.append(f"Trick {view.get('trick_no')}: {played or 'nothing played yet'}")
    won = view.get("tricks_won")
    if won:
        lines.append(f"Tricks won: team 0 {won[0]}, team 1 {won[1]}")
    return lines


def render_view(view: Mapping[str, Any]) -> str:
    """A few lines describing a view (a seat's, a spectator's, or a replay's omniscient one)."""
    names: list[str | None] = [None if n is None else str(n) for n in view.get("names") or []]
    seat = view.get("seat")
    lines = _render_vida(view, names) if view.get("game") == "vida" else []
    top = view.get("top_card")
    if top is not None:
        line = f"Up-card {pretty(top)}, suit {suit_symbol(view.get('active_suit'))}"
        if view.get("pending_draw"):
            line += f", {view.get('pending_draw')} cards to take"
        lines.append(line)
    sizes = view.get("hand_sizes") or []
    if sizes:
        counts = ", ".join(f"{_name(names, s)} {k}" for s, k in enumerate(sizes))
        lines.append(f"Stock {view.get('stock_count')} cards; hands: {counts}")
    if view.get("to_act") is not None:
        lines.append(f"To act: {_name(names, view.get('to_act'))}")
    hands = view.get("hands")
    if isinstance(hands, list):
        for s, hand in enumerate(hands):
            lines.append(f"  {_name(names, s)}: {pretty_cards(hand)}")
    elif "hand" in view and isinstance(seat, int):
        lines.append(f"Your hand ({_name(names, seat)}): {pretty_cards(view.get('hand'))}")
    totals = view.get("totals") or []
    if totals and view.get("game") == "vida":
        lines.append(f"Totals: team 0 {totals[0]}, team 1 {totals[1]}; games won {view.get('games_won')}")
    elif totals:
        shown = [f"{_name(names, s)} {t}" for s, t in enumerate(totals) if t is not None]
        lines.append("Totals: " + ", ".join(shown))
    return "\n".join(lines)
