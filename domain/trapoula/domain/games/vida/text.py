"""Vida's words in the terminal (docs/rules/vida.md sections 8 and 9; ``GameSpec.text``).

Its commands as menu lines (the doubling level a ``vida`` call reaches, R4.5), its events as each
viewer saw them, its views (teams, auction or contract, widow, declarations, belote, the trick, the
score), its menu (bids and gives are typed, not listed) and its typed moves: a bid as points and suit
(``90H``, R4.3) and a give as three cards in order (``7C 8D TS``, R5.1).

>>> describe_command({"kind": "bid", "points": 90, "suit": "H"})
'bid 90 ♥'
>>> describe_vida_call(1)
'call contra vida (x4)'
>>> choose_typed("90h", [{"kind": "bid", "points": 90, "suit": "H"}])
{'kind': 'bid', 'points': 90, 'suit': 'H'}
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from trapoula.domain.games.vida.events import TEAMS
from trapoula.domain.text import (
    DescribeEvent,
    GameText,
    Names,
    Turn,
    dealt_line,
    hand_started_line,
    match_started_line,
    other_command,
    view_lines,
    view_names,
    viewer_seat,
)
from trapoula.domain.words import (
    cap,
    card_code,
    pretty,
    pretty_cards,
    seat_name,
    suit_letter,
    suit_symbol,
    typed_card,
)

__all__ = [
    "TEXT",
    "choose_typed",
    "combination_name",
    "describe_command",
    "describe_event",
    "describe_vida_call",
    "menu_line",
    "narrate",
    "render_view",
    "turn",
]

_LEVELS: dict[Any, str] = {1: "vida", 2: "contra vida", 3: "third vida", 4: "fourth vida"}
"""R4.5: the names of the doubling levels."""
_MULTIPLIERS: dict[Any, int] = {1: 2, 2: 4, 3: 6, 4: 8}
"""R4.5: the multiplier of each level."""
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
"""R5.2: a combination's code in words (the glossary's English terms, section 11)."""
_BID = re.compile(r"^([0-9]{1,9})\s*([cdhs♣♦♥♠])$")
"""A typed bid: points (ASCII digits, at most 9: ``int`` refuses other digits such as ``²`` and more
than 4300) then suit (``90H``, ``100 s``, ``90♥``; R4.3)."""


# --------------------------------------------------------------------------- commands


def describe_command(command: Mapping[str, Any]) -> str:
    """A menu line for a command (section 8): a card played, with belote announced (R5.9), ``pass``,
    a bid (R4.3), a ``vida`` call (R4.5), a give (R5.1), declaring one's combinations (R5.3), the
    table's deal; any other command as its plain data."""
    kind = command.get("kind")
    if kind == "play":
        text = f"play {pretty(command.get('card'))}"
        if command.get("belote"):
            text += " and announce belote"
        return text
    if kind == "pass":
        return "pass"
    if kind == "bid":
        return f"bid {command.get('points')} {suit_symbol(command.get('suit'))}"
    if kind == "vida":
        return "call vida (double)"
    if kind == "give":
        return f"give {pretty_cards(command.get('cards'))}"
    if kind == "declare":
        return "declare your combinations"
    return other_command(command)


def describe_vida_call(level: Any) -> str:
    """The menu line of the ``vida`` command when the current level is ``level`` (R4.5):
    ``call vida (x2)`` at level 0, ``call contra vida (x4)`` at level 1 ..."""
    nxt = level + 1 if isinstance(level, int) else 1
    return f"call {_LEVELS.get(nxt, 'vida')} (x{_MULTIPLIERS.get(nxt, '?')})"


def menu_line(command: Mapping[str, Any], view: Mapping[str, Any]) -> str:
    """A menu line in a view: a ``vida`` call names the level it reaches from the view's ``level``
    (:func:`describe_vida_call`, R4.5); any other command as :func:`describe_command`."""
    if command.get("kind") == "vida":
        return describe_vida_call(view.get("level"))
    return describe_command(command)


# --------------------------------------------------------------------------- events


def _team(team: Any, names: Sequence[str | None] = (), me: int | None = None) -> str:
    """``team 0 (ann and cy)``: a team with its members' names (R2.3); ``nobody`` for None."""
    if not isinstance(team, int) or not 0 <= team < len(TEAMS):
        return "nobody"
    members = " and ".join(seat_name(names, s, me) for s in TEAMS[team])
    return f"team {team} ({members})"


def combination_name(kind: Any) -> str:
    """``"seq4"`` -> ``"quarte"``, ``"carre_J"`` -> ``"four jacks"`` (R5.2); other text as is."""
    return _KIND_NAMES.get(str(kind), str(kind))


def _pair(values: Any, names: Sequence[str | None] | None = None, me: int | None = None) -> str:
    """A per-team pair as ``team 0 190, team 1 80`` (R2.3); with ``names``, each team with its
    players: ``team 0 (ann and cy) 190, team 1 (bob and dee) 80``."""
    if isinstance(values, Sequence) and not isinstance(values, str) and len(values) == len(TEAMS):
        if names is not None:
            return f"{_team(0, names, me)} {values[0]}, {_team(1, names, me)} {values[1]}"
        return f"team 0 {values[0]}, team 1 {values[1]}"
    return str(values)


def _contract(c: Any) -> str:
    """A contract (R4.3, R4.5): its points and trump suit, with its doubling level and multiplier."""
    if not isinstance(c, Mapping):
        return "?"
    level = _LEVELS.get(c.get("level"))
    doubled = f", {level} x{c.get('multiplier')}" if level else ""
    return f"{c.get('points')} {suit_symbol(c.get('suit'))}{doubled}"


def _match_length(options: Mapping[str, Any]) -> str:
    """How long the match lasts (R6.9 ``target_score``, R6.10 ``wins_needed``), with the variants
    named (``open_vida``, R5.1; ``declaration_timing``), as the end of the ``MatchStarted`` line."""
    if "target_score" in options and "wins_needed" in options:
        wins = options.get("wins_needed")
        games = f"{wins} game{'' if wins == 1 else 's'}"
        limit = f", games won above {options['target_score']} points, {games} to win"
        if options.get("open_vida"):
            limit += ", open vida"
        if options.get("declaration_timing") == "before_first_card":
            limit += ", declarations before the first card"
        return limit
    if "target_score" in options:
        return f", to {options['target_score']} points"
    return ""


def describe_event(
    name: str, payload: Mapping[str, Any], names: Sequence[str | None], me: int | None = None, *, verbose: bool = False
) -> str | None:
    """The events (section 9) as ``me`` saw them (:class:`~trapoula.domain.text.DescribeEvent`)."""
    p = payload
    who = seat_name(names, p.get("seat"), me)
    verb_s = "" if who == "you" else "s"
    match name:
        case "MatchStarted":
            raw = p.get("options")
            return match_started_line(p, _match_length(raw if isinstance(raw, Mapping) else {}))
        case "HandStarted":
            return hand_started_line(p, names, me)
        case "CardsDealt":
            return dealt_line(p, names, me, verbose=verbose)
        case "CardPlayed":
            return f"{cap(who)} play{verb_s} {pretty(p.get('card'))}"
        case "Passed":
            return f"{cap(who)} pass{'' if who == 'you' else 'es'}"
        case "MatchEnded":
            games = _pair(p.get("games_won"))
            return f"Match over: {_team(p.get('winner_team'), names, me)} wins, games won {games}"
        case "WidowExposed":
            return f"Widow face up: {pretty_cards(p.get('cards'))}"
        case "BidMade":
            return f"{cap(who)} bid{verb_s} {p.get('points')} {suit_symbol(p.get('suit'))}"
        case "VidaCalled":
            level = _LEVELS.get(p.get("level"), "vida")
            return f"{cap(who)} call{verb_s} {level} (x{p.get('multiplier')})"
        case "AuctionClosed":
            holder = seat_name(names, p.get("holder"), me)
            return (
                f"Contract: {_contract(p)} for {_team(p.get('team'), names, me)}, held by {holder}; "
                f"trumps {suit_symbol(p.get('suit'))}"
            )
        case "HandAnnulled":
            nxt = seat_name(names, p.get("next_dealer"), me)
            return f"All passed: the hand is annulled; {nxt} deal{'' if nxt == 'you' else 's'} next"
        case "WidowTaken":
            return f"{cap(who)} take{verb_s} the widow {pretty_cards(p.get('cards'))}"
        case "CardGiven":
            giver, taker = seat_name(names, p.get("from_seat"), me), seat_name(names, p.get("to_seat"), me)
            card = f" {pretty(p.get('card'))}" if p.get("card") else " a card"
            return f"{cap(giver)} give{'' if giver == 'you' else 's'}{card} to {taker}"
        case "DeclarationAnnounced":
            return f"{cap(who)} declare{verb_s} {', '.join(combination_name(k) for k in p.get('kinds') or [])}"
        case "DeclarationsResolved":
            points = p.get("declaration_points") or []
            if p.get("standoff"):
                tied = p.get("tied") or {}
                kind, top = combination_name(tied.get("kind")), pretty(tied.get("top"))
                return f"Declarations stand off ({kind} to {top}): none count"
            if p.get("winner_team") is None:
                return "No declarations" if verbose else None
            shown = "; ".join(
                f"{seat_name(names, c.get('seat'), me)} {combination_name(c.get('kind'))} "
                f"{pretty_cards(c.get('cards'))}"
                for c in p.get("shown") or []
                if isinstance(c, Mapping)
            )
            team = p.get("winner_team")
            scored = points[team] if isinstance(team, int) and 0 <= team < len(points) else "?"
            return f"Declarations: {_team(team, names, me)} scores {scored} ({shown})"
        case "BeloteAnnounced":
            return f"{cap(who)} announce{verb_s} belote with {pretty(p.get('card'))}"
        case "TrickTaken":
            winner = seat_name(names, p.get("winner"), me)
            seats = p.get("seats")  # who played each card, when the reader followed the trick (narrate)
            listed = list(p.get("cards") or [])
            if isinstance(seats, Sequence) and len(seats) == len(listed):
                cards = ", ".join(f"{seat_name(names, s, me)} {pretty(c)}" for s, c in zip(seats, listed, strict=True))
            else:
                cards = pretty_cards(listed)
            return f"Trick {p.get('trick_no')}: {cards}; won by {winner} ({p.get('points')} points)"
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
                f"{capot}{extras}. Hand: {_pair(p.get('hand_points'))}. Totals: {_pair(p.get('totals'), names, me)}"
            )
        case "ShuffleRevealed":
            salt = p.get("salt")
            return f"Deck revealed; salt {salt if salt else 'none (explicit deal)'}" if verbose else None
        case "GameWon":
            team = _team(p.get("team"), names, me)
            games = _pair(p.get("games_won"))
            return f"Game {p.get('game_no')} won by {team} at {_pair(p.get('totals'), names, me)}; games won {games}"
    return f"{name} {dict(p)}"


# --------------------------------------------------------------------------- views


def _call(call: Mapping[str, Any], names: Sequence[str | None], me: Any) -> str:
    """One call of the auction (R4.3-R4.5): a bid, ``vida`` at its level, or a pass."""
    what = call.get("call")
    if what == "bid":
        what = f"{call.get('points')} {suit_symbol(call.get('suit'))}"
    elif what == "vida":
        what = _LEVELS.get(call.get("level"), "vida")
    return f"{seat_name(names, call.get('seat'), me)} {what}"


def _own_lines(view: Mapping[str, Any], names: Sequence[str | None]) -> list[str]:
    """A view's own lines: teams, auction or contract and trumps, widow, declarations, belote, the
    trick, tricks won, the last hand's score (section 9)."""
    me = viewer_seat(view)
    phase = view.get("phase")
    lines = []
    head = f"Hand {view.get('hand_no')} of game {view.get('game_no')}"
    if view.get("dealer") is not None:
        head += f", dealer {seat_name(names, view.get('dealer'), me)}"
    lines.append(f"{head}. Teams: {_team(0, names, me)} v {_team(1, names, me)}")
    if me is not None and 0 <= me < 4:  # R2.3, R2.4: partners sit opposite; seat k+1 acts after seat k
        order = ", ".join(seat_name(names, (me + i) % 4, me) for i in range(4))
        lines.append(f"Your partner: {seat_name(names, (me + 2) % 4)}. Order of play: {order}, ...")
    contract = view.get("contract")
    if isinstance(contract, Mapping):
        holder = seat_name(names, contract.get("holder"), me)
        lines.append(
            f"Contract {_contract(contract)} for {_team(contract.get('team'), names, me)}, held by {holder}; "
            f"trumps {suit_symbol(view.get('trump') or contract.get('suit'))}"
        )
    elif phase == "auction":
        calls = [_call(c, names, me) for c in view.get("auction") or [] if isinstance(c, Mapping)]
        lines.append("Auction: " + (", ".join(calls) if calls else "no call yet"))
        bid = view.get("bid")
        if isinstance(bid, Mapping):
            level = _LEVELS.get(view.get("level"))
            doubled = f", {level}" if level else ""
            owner = seat_name(names, bid.get("seat"), me)
            lines.append(f"Highest bid: {bid.get('points')} {suit_symbol(bid.get('suit'))} by {owner}{doubled}")
    if view.get("widow"):
        lines.append(f"Widow (face up): {pretty_cards(view.get('widow'))}")
    taken = view.get("widow_taken")
    if isinstance(taken, Mapping) and phase == "exchange":
        taker = cap(seat_name(names, taken.get("seat"), me))
        lines.append(f"{taker} took the widow {pretty_cards(taken.get('cards'))}")
    gifts = [
        f"{pretty(g.get('card'))} to {seat_name(names, g.get('to_seat'), me)}"
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
        f"{seat_name(names, a.get('seat'), me)} {', '.join(combination_name(k) for k in a.get('kinds') or [])}"
        for a in declarations.get("announced") or []
        if isinstance(a, Mapping)
    ]
    if announced and phase in ("play", "exchange"):
        lines.append("Declared: " + "; ".join(announced))
    resolution = declarations.get("resolution")
    if isinstance(resolution, Mapping) and phase == "play":
        line = describe_event("DeclarationsResolved", resolution, [n or "" for n in names], me, verbose=True)
        if line:
            lines.append(line)
    belote = view.get("belote")
    if isinstance(belote, Mapping) and phase == "play":
        lines.append(f"Belote: {seat_name(names, belote.get('seat'), me)} with {pretty(belote.get('card'))}")
    if phase == "play":
        tricks = view.get("tricks") or []
        if tricks and not view.get("trick") and isinstance(tricks[-1], Mapping):
            last = tricks[-1]
            leader = last.get("leader")
            cards = list(last.get("cards") or [])
            if isinstance(leader, int):  # cards in play order from the leader (R2.4)
                shown = ", ".join(f"{seat_name(names, (leader + i) % 4, me)} {pretty(c)}" for i, c in enumerate(cards))
            else:
                shown = pretty_cards(cards)
            lines.append(
                f"Last trick {last.get('trick_no')}: {shown}; won by {seat_name(names, last.get('winner'), me)}"
            )
        played = ", ".join(
            f"{seat_name(names, t.get('seat'), me)} {pretty(t.get('card'))}"
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
    """What became of a seat's combinations once the teams' were compared (R5.5-R5.8)."""
    declarations = view.get("declarations")
    resolution = declarations.get("resolution") if isinstance(declarations, Mapping) else None
    if not isinstance(resolution, Mapping):
        return ""
    if resolution.get("standoff"):
        return " - a stand-off: none count"
    if resolution.get("winner_team") == seat % 2:
        return " - your team's declarations score"
    return " - beaten by the other team's" if resolution.get("winner_team") is not None else ""


def _own_combinations(view: Mapping[str, Any]) -> list[str]:
    """The viewer's own combinations during the first trick, with what became of them (R5.3, R5.5-R5.8)."""
    seat = viewer_seat(view)
    combos = [c for c in view.get("combinations") or [] if isinstance(c, Mapping)]
    first_trick = isinstance(view.get("trick_no"), int) and view["trick_no"] <= 1
    if seat is None or not combos or view.get("phase") != "play" or not first_trick:
        return []
    listed = "; ".join(
        f"{combination_name(c.get('kind'))} {pretty_cards(c.get('cards'))} ({c.get('points')})" for c in combos
    )
    return [f"Your combinations: {listed}{_combination_fate(view, seat)}"]


def render_view(view: Mapping[str, Any]) -> str:
    """A view (section 9): its own lines, the lines every game shares
    (:func:`~trapoula.domain.text.view_lines`) with the viewer's own combinations after its hand, then
    the teams' totals and games won (R6.9, R6.10)."""
    names = view_names(view)
    totals = view.get("totals") or []
    tail = []
    if totals:
        raw_options = view.get("options")
        options: Mapping[str, Any] = raw_options if isinstance(raw_options, Mapping) else {}
        target = f" (a game is won above {options['target_score']})" if "target_score" in options else ""
        me = viewer_seat(view)
        tail.append(f"Totals: {_pair(totals, names, me)}{target}; games won: {_pair(view.get('games_won'))}")
    return "\n".join(view_lines(view, names, head=_own_lines(view, names), own=_own_combinations(view), tail=tail))


# --------------------------------------------------------------------------- the menu and typed moves


def _give_help(view: Mapping[str, Any], names: Sequence[str | None]) -> str:
    """How to type the give (R5.1): the seats the three cards go to, in order."""
    raw_seat = view.get("seat")
    seat = raw_seat if isinstance(raw_seat, int) else 0
    to = [names[(seat + i) % len(names)] if len(names) == 4 else f"seat {(seat + i) % 4}" for i in (1, 2, 3)]
    return (
        f"  give three cards: type them in order, the first to {to[0]}, the second to {to[1]} (your partner), "
        f"the third to {to[2]}, e.g. {' '.join((view.get('hand') or ['7C', '8D', 'TS'])[:3])}"
    )


def turn(view: Mapping[str, Any], legal: Sequence[Mapping[str, Any]], names: Sequence[str | None]) -> Turn:
    """A seat's move (``GameText.turn``): the menu lists every command but the bids and the gives,
    which are typed (R4.3, R5.1); how to type them is said after it."""
    bids = [c for c in legal if c.get("kind") == "bid"]
    gives = [c for c in legal if c.get("kind") == "give"]
    menu = [c for c in legal if c.get("kind") not in ("bid", "give")]
    after: list[str] = []
    typed: list[str] = []
    hint = ""
    if bids:
        low, high = min(int(b["points"]) for b in bids), max(int(b["points"]) for b in bids)
        after.append(f"  or bid: type points and suit (C D H S), e.g. {low}H (from {low}, in tens)")
        typed.append(f"a bid from {low} to {high} in tens with a suit (C D H S, e.g. {low}H)")
        hint = f"a bid like {low}H"
    if gives:
        after.append(_give_help(view, names))
        typed.append("three different cards of your hand (e.g. 7C 8D TS)")
        hint = "three cards to give, like 7C 8D TS"
    if any(c.get("kind") == "play" for c in legal):  # a card may be typed (R4.9-R4.13)
        typed.append("a card of your hand (e.g. QC; KH belote to announce belote)")
        hint = "a card like QC"
    return Turn(
        menu=tuple(menu),
        lines=tuple(menu_line(command, view) for command in menu),
        after=tuple(after),
        hint=hint,
        typed=tuple(typed),
    )


def _typed_bid(text: str, bids: Sequence[Mapping[str, Any]]) -> Mapping[str, Any] | None:
    """The legal bid ``text`` names (points then suit, R4.3), or None."""
    match = _BID.match(text.lower())
    if match is None:
        return None
    points, suit = int(match.group(1)), suit_letter(match.group(2))
    return next((b for b in bids if b.get("points") == points and b.get("suit") == suit), None)


def _typed_give(text: str, gives: Sequence[Mapping[str, Any]]) -> Mapping[str, Any] | None:
    """The legal ``give`` (R5.1) that ``text`` names: three cards in order, the first to the next
    seat, the second to the partner, the third to the seat before; None if it names none."""
    words = text.replace(",", " ").split()
    if words[:1] == ["give"]:
        words = words[1:]
    if len(words) != 3:
        return None
    cards = [typed_card(w) for w in words]
    return next((g for g in gives if list(g.get("cards") or ()) == cards), None)


def choose_typed(text: str, legal: Sequence[Mapping[str, Any]]) -> Mapping[str, Any] | None:
    """The typed move as ``GameText.parse_move`` gives it: the legal bid ``text`` names (``90H``,
    ``100 s``, ``90♥``; R4.3) or the legal give (``7C 8D TS``, R5.1), as ``legal`` lists it; None when
    it names neither (a bid or a give that is not legal is not sent: the menu is asked again)."""
    bids = [c for c in legal if c.get("kind") == "bid"]
    gives = [c for c in legal if c.get("kind") == "give"]
    bid = _typed_bid(text, bids) if bids else None
    if bid is not None:
        return bid
    give = _typed_give(text, gives) if gives else None
    return give if give is not None else _typed_other(text, legal)


_OTHER_WORDS = {"pass": "pass", "p": "pass", "vida": "vida", "double": "vida", "declare": "declare"}
"""Typed words of the commands without fields (section 8): ``pass``, ``vida`` (R4.5), ``declare`` (R5.3)."""


def _typed_other(text: str, legal: Sequence[Mapping[str, Any]]) -> Mapping[str, Any] | None:
    """The legal card play ``text`` names (``QC``, ``play 10h``, ``KH belote`` to announce belote,
    R5.9), or the legal ``pass``, ``vida`` or ``declare``; None when it names none of them."""
    words = [w for w in text.lower().replace(",", " ").split() if w != "play"]
    if len(words) == 1 and words[0] in _OTHER_WORDS:
        return next((c for c in legal if c.get("kind") == _OTHER_WORDS[words[0]]), None)
    belote = "belote" in words
    words = [w for w in words if w != "belote"]
    card = card_code(words[0]) if len(words) == 1 else None
    plays = [c for c in legal if c.get("kind") == "play" and c.get("card") == card]
    return next((c for c in plays if bool(c.get("belote")) == belote), plays[0] if plays and not belote else None)


def narrate() -> DescribeEvent:
    """:func:`describe_event` for a reader who follows the events in order (``GameText.narrator``): a
    trick's line names who played each card (R4.14), from the cards played since the last trick."""
    played: list[tuple[Any, Any]] = []

    def describe(
        name: str, payload: Mapping[str, Any], names: Names, me: int | None = None, *, verbose: bool = False
    ) -> str | None:
        if name == "HandStarted":
            played.clear()
        elif name == "CardPlayed":
            played.append((payload.get("seat"), payload.get("card")))
        elif name == "TrickTaken":
            cards = list(payload.get("cards") or [])
            if [c for _, c in played[-len(cards) :]] == cards and cards:
                payload = {**payload, "seats": [s for s, _ in played[-len(cards) :]]}
            played.clear()
        return describe_event(name, payload, names, me, verbose=verbose)

    return describe


TEXT = GameText(
    narrator=narrate,
    describe_command=menu_line,
    describe_event=describe_event,
    render_view=render_view,
    turn=turn,
    parse_move=choose_typed,
)
"""Vida's :class:`~trapoula.domain.text.GameText`."""
