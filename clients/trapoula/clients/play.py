"""A person against bots in the terminal (``trapoula play``).

The legal commands of the person's view are offered as a numbered menu; the person types a
number (or ``q``).  Some commands may be typed as well: ``vida``'s bids and gives (``90H``,
``7C 8D TS``), ``romis``'s sealed commands (``reveal 5H 7D``, ``reveal 9S with 8S 9D``, ``aux``,
``cannot``) and ``giminaiciai``'s draws, discards and lay-downs (``draw``, ``take``, ``discard 7H``,
``lay 4H 5H 6H 7H | KC KD KS extra 1 discard 2C``).  A long list of lay-downs is cut to
:data:`LAY_DOWNS_SHOWN` entries, the rest listed on ``more``.  Input is read line by line, so a piped
stdin works too; when it ends the game stops.

Two sessions share the loop:

* :class:`LocalSession` plays in this process with the domain (no server): bots choose from
  their own seat's view with :func:`trapoula.domain.bots.choose`; every hand's seed is fresh
  (or derived from ``--seed`` to replay a game).
* :class:`RemoteSession` plays at a trapoula server (``--address``): it creates a table, takes
  seat 0, seats server bots, and acts over gRPC.
"""

from __future__ import annotations

import hashlib
import random
import re
import secrets
from collections.abc import Mapping, Sequence
from typing import Any, Protocol, TextIO

from trapoula.clients.errors import TrapoulaError
from trapoula.clients.table import TableClient, my_move
from trapoula.clients.text import (
    describe_command,
    describe_event,
    describe_vida_call,
    pretty,
    pretty_cards,
    render_view,
    suit_letter,
)
from trapoula.domain.cards import parse_card
from trapoula.domain.errors import CommandRejected, InvalidInput
from trapoula.domain.events import redact, visible
from trapoula.domain.game import GameSpec, MatchConfig, SeatInfo
from trapoula.domain.games.giminaiciai.laying import HAND_SIZE, extra_card_bonus
from trapoula.domain.match import Match
from trapoula.domain.registry import find_game

__all__ = ["GIMINAICIAI_DRAW_HELP", "GIMINAICIAI_TURN_HELP", "LocalSession", "RemoteSession", "Session", "play_loop"]

Seen = list[tuple[str, dict[str, Any]]]
"""Events as the person saw them: (name, redacted payload)."""

MAX_AUTO = 100_000
"""Bot moves and deals in a row, at most (a bound against a runaway loop, not a rule)."""


class Session(Protocol):
    """What the play loop needs from a game: start, act, the person's view, the end."""

    @property
    def names(self) -> Sequence[str]:
        """Display name per seat."""
        ...

    @property
    def me(self) -> int:
        """The person's seat."""
        ...

    def start(self) -> Seen:
        """Start the match; the events up to the person's first decision."""
        ...

    def act(self, command: Mapping[str, Any]) -> Seen:
        """Issue the person's command; the events up to its next decision.

        Raises:
            CommandRejected, InvalidInput, TrapoulaError: the command is refused.
        """
        ...

    def view(self) -> dict[str, Any]:
        """The person's current view."""
        ...

    def wait(self) -> Seen:
        """Block until something happens (remote bots are slow); the new events."""
        ...

    @property
    def over(self) -> bool:
        """True when the match is over."""
        ...


class LocalSession:
    """A match played in this process: the person at seat 0, bots of ``level`` elsewhere.

    Args:
        game: the game key.
        seats: number of seats.
        level: the bots' level (``random``, ``heuristic``).
        options: the game's options.
        seed: 64 hex digits to make the game reproducible (each hand's seed is
            ``SHA-256(seed "/" hand_no)``); None for fresh random seeds.
        rng: the bots' randomness.
        name: the person's display name.
    """

    def __init__(
        self,
        game: str = "agonia",
        seats: int = 4,
        level: str = "heuristic",
        options: Mapping[str, Any] | None = None,
        *,
        seed: str | None = None,
        rng: random.Random | None = None,
        name: str = "you",
    ) -> None:
        spec: GameSpec[Any, Any] = find_game(game)
        self.level = level
        self.me = 0
        self.names = [name] + [f"{level}-bot-{i}" for i in range(1, seats)]
        config = MatchConfig(
            game=game,
            seats=tuple(SeatInfo(i, self.names[i], None if i == self.me else level) for i in range(seats)),
            options=dict(options or {}),
        )
        self.match: Match[Any, Any] = Match.start(spec, config)
        self.seed = seed
        self.rng = rng or random.Random()
        self.bots = {i: level for i in range(seats) if i != self.me}

    @property
    def spec(self) -> GameSpec[Any, Any]:
        """The game."""
        return self.match.spec

    @spec.setter
    def spec(self, spec: GameSpec[Any, Any]) -> None:
        self.match = Match(spec, self.match.state, self.match.hands)

    @property
    def state(self) -> Any:
        """The game's state now."""
        return self.match.state

    def _hand_seed(self, hand_no: int) -> str:
        if self.seed is None:
            return secrets.token_hex(32)
        return hashlib.sha256(f"{self.seed}/{hand_no}".encode()).hexdigest()

    def _apply(self, command: Any, seen: Seen) -> None:
        """Apply ``command`` (:meth:`Match.apply`); the person sees each event redacted for his seat,
        and not at all an event withheld from him (a game's ``Event.withheld``)."""
        self.match, events = self.match.apply(command)
        seen.extend((event.event_name(), redact(event, self.me)) for event in events if visible(event, self.me))

    def _advance(self, seen: Seen) -> Seen:
        seats = range(self.spec.max_players)
        for _ in range(MAX_AUTO):
            move = self.match.next_move(self.bots, self._hand_seed, lambda: self.rng, seats)
            if move is None:
                break
            self._apply(move.command, seen)
        return seen

    def start(self) -> Seen:
        """Deal the first hand and let the bots move up to the person's turn."""
        return self._advance([])

    def act(self, command: Mapping[str, Any]) -> Seen:
        """Play the person's command, then the bots' moves up to its next turn.

        Raises:
            CommandRejected: the rules refuse it.  InvalidInput: it is malformed.
        """
        seen: Seen = []
        self._apply(self.spec.parse_command({**command, "seat": self.me}), seen)
        return self._advance(seen)

    def view(self) -> dict[str, Any]:
        """The person's view, with ``acting`` (the seats the match waits for) as the server adds it."""
        view = dict(self.spec.seat_view(self.state, self.me))
        view["acting"] = list(self.match.acting(range(self.spec.max_players)))
        return view

    def wait(self) -> Seen:
        """Nothing to wait for locally: the bots have moved."""
        return self._advance([])

    @property
    def over(self) -> bool:
        """True when the match is over."""
        return self.match.over


class RemoteSession:
    """A match at a trapoula server: the person takes seat 0, the server's bots the rest.

    Args:
        client: a connected client without a token (it adopts the seat token).
        game, seats, level, options, name: as for :class:`LocalSession`.
    """

    def __init__(
        self,
        client: TableClient,
        game: str = "agonia",
        seats: int = 4,
        level: str = "heuristic",
        options: Mapping[str, Any] | None = None,
        *,
        name: str = "you",
    ) -> None:
        self.client = client
        self.game, self.seats, self.level, self.options = game, seats, level, dict(options or {})
        self.me = 0
        self.names: list[str] = [name] + [f"{level}-bot-{i}" for i in range(1, seats)]
        self._name = name
        self.table_id = ""
        self._view: dict[str, Any] = {}
        self._version = 0
        self._over = False

    def _seen(self, version: int, events: Sequence[Any], view: dict[str, Any]) -> Seen:
        self._version = max(self._version, version)
        self._view = view
        self.names = ["" if n is None else str(n) for n in view.get("names") or self.names]
        seen: Seen = [(e.name, e.payload) for e in events]
        self._over = self._over or any(name == "MatchEnded" for name, _ in seen) or view.get("phase") == "match_over"
        return seen

    def start(self) -> Seen:
        """Create the table, sit down, seat the bots and start the match.

        Raises:
            TrapoulaError: the server refused a step.
        """
        table = self.client.create_table(self.game, self.seats, self.options)
        self.table_id = table.table_id
        joined = self.client.join(self.table_id, self._name)
        self.client.token = joined.token
        self.me = joined.seat
        for i in range(1, self.seats):
            self.client.add_bot(self.table_id, self.level, name=f"{self.level}-bot-{i}")
        result = self.client.start_match(self.table_id)
        return self._seen(result.version, result.events, result.view)

    def act(self, command: Mapping[str, Any]) -> Seen:
        """Send the person's command (the server's bots answer within the call).

        Raises:
            TrapoulaError: refused (:class:`~trapoula.clients.errors.CommandRejected` ...).
        """
        result = self.client.act(self.table_id, {k: v for k, v in command.items() if k != "seat"})
        return self._seen(result.version, result.events, result.view)

    def view(self) -> dict[str, Any]:
        """The person's latest view."""
        return self._view

    def wait(self) -> Seen:
        """Watch the table until the person may act or the match ends."""
        seen: Seen = []
        with self.client.watch(self.table_id, self._version) as updates:
            for update in updates:
                seen.extend(self._seen(update.version, [update], update.view))
                if self._over or my_move(update.view):
                    break
        return seen

    @property
    def over(self) -> bool:
        """True once the match has ended."""
        return self._over


def _print_events(seen: Seen, names: Sequence[str], me: int, out: TextIO) -> None:
    for name, payload in seen:
        line = describe_event(name, payload, names, me)
        if line:
            print(line, file=out)


_BID = re.compile(r"^([0-9]{1,9})\s*([cdhs♣♦♥♠])$")
"""A typed bid: points (ASCII digits, at most 9: ``int`` refuses other digits such as ``²`` and more
than 4300) then suit (``90H``, ``100 s``, ``90♥``; vida R4.3)."""
_MENU_NUMBER = re.compile(r"^[0-9]{1,9}$")
"""A menu number as typed (ASCII digits, as :data:`_BID`)."""
_RANKS = {"10": "T", "t": "T", "j": "J", "q": "Q", "k": "K", "a": "A"}
"""Typed ranks: ``10`` or ``T`` for the ten, letters in either case."""


def _typed_bid(text: str, bids: Sequence[Mapping[str, Any]]) -> Mapping[str, Any] | None:
    """The legal bid ``text`` names, or None."""
    match = _BID.match(text)
    if match is None:
        return None
    points, suit = int(match.group(1)), suit_letter(match.group(2))
    return next((b for b in bids if b.get("points") == points and b.get("suit") == suit), None)


def _typed_card(word: str) -> str | None:
    """A typed card as its code (``7c``, ``10S``, ``T♠``, ``kh`` -> ``7C``, ``TS``, ``TS``, ``KH``), else None."""
    if len(word) < 2:
        return None
    rank, suit = word[:-1], suit_letter(word[-1])
    rank = _RANKS.get(rank.lower(), rank.upper())
    if suit is None or len(rank) != 1:
        return None
    return rank + suit


def _typed_give(text: str, gives: Sequence[Mapping[str, Any]]) -> Mapping[str, Any] | None:
    """The legal ``give`` (vida R5.1) that ``text`` names: three cards in order, the first to the
    next seat, the second to the partner, the third to the seat before; None if it names none."""
    words = text.replace(",", " ").split()
    if words[:1] == ["give"]:
        words = words[1:]
    if len(words) != 3:
        return None
    cards = [_typed_card(w) for w in words]
    return next((g for g in gives if list(g.get("cards") or ()) == cards), None)


ROMIS_KINDS = frozenset({"reveal", "use_auxiliary", "cannot"})
"""``romis``'s sealed commands (rules/romis.md R13.1-R13.3), which the person may also type."""
_AUXILIARY_WORDS = frozenset({"aux", "auxiliary", "use_auxiliary"})
"""What a person types to turn up the next auxiliary card (romis R13.2)."""
ROMIS_HELP = (
    "  or type: reveal 5H 7D (two cards in rounds 1-2, one from round 3); "
    "reveal 9S with 8S 9D (a new combination: 9S face up, 8S 9D face down as its companions); "
    "aux (turn up your next auxiliary card); cannot (you cannot reveal)"
)
"""How to type ``romis``'s commands (R13.1-R13.3), shown under the menu."""


def _typed_romis(text: str) -> dict[str, Any] | None:
    """The ``romis`` command ``text`` names (rules/romis.md R13.1-R13.3), or None.

    ``reveal 5H 7D`` -> ``{"kind": "reveal", "cards": ["5H", "7D"]}`` (R4.2, R4.4, R4.6);
    ``reveal 9S with 8S 9D`` adds ``"companions": ["8S", "9D"]`` (a new combination, R8.2);
    ``aux``, ``auxiliary`` or ``use_auxiliary`` -> ``{"kind": "use_auxiliary"}``; ``cannot`` ->
    ``{"kind": "cannot"}``.  Words in any case, commas as spaces; cards as :func:`_typed_card` reads
    them, each one of the 52 (R2.2).  None for anything else, for a word that is not a card, and for
    ``with`` with no card before or after it.  Whether the command is legal is the rules' call.
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
    cards = [_card_code(w) for w in shown]
    companions = [_card_code(w) for w in hidden]
    if any(c is None for c in cards + companions):
        return None
    command: dict[str, Any] = {"kind": "reveal", "cards": cards}
    if companions:
        command["companions"] = companions
    return command


def _card_code(word: str) -> str | None:
    """A typed card (:func:`_typed_card`) when it names one of the 52 cards (R2.2), else None."""
    code = _typed_card(word)
    if code is None:
        return None
    try:
        parse_card(code)
    except InvalidInput:
        return None
    return code


def _same_romis(typed: Mapping[str, Any], legal: Mapping[str, Any]) -> bool:
    """True when ``legal`` is the command ``typed`` names: same kind, and for a reveal the same
    cards and companions in any order (neither order matters, R4.4, R8.2)."""
    if typed.get("kind") != legal.get("kind"):
        return False
    return all(sorted(typed.get(k) or ()) == sorted(legal.get(k) or ()) for k in ("cards", "companions"))


def _romis_choice(text: str, legal: Sequence[Mapping[str, Any]]) -> Mapping[str, Any] | None:
    """The typed ``romis`` command (:func:`_typed_romis`): the matching entry of ``legal`` when
    there is one, else as typed, so that the rules answer an illegal one with their reason (R5.5);
    None when ``text`` names no command."""
    typed = _typed_romis(text)
    if typed is None:
        return None
    return next((c for c in legal if _same_romis(typed, c)), typed)


GIMINAICIAI_DRAW_HELP = "  or type: draw (from the stock) or take (the top card of the discard pile)"
"""How to type ``giminaiciai``'s draws (R4.2, R11.1), shown under the menu before the draw."""
GIMINAICIAI_TURN_HELP = (
    "  or type: discard 7H; or lay down your whole hand in one or two groups split by |, "
    "adding extra N to take the top N cards of the discard pile into them and discard 2C to put one card "
    "on the pile: lay 4H 5H 6H 7H | KC KD KS extra 1 discard 2C"
)
"""How to type ``giminaiciai``'s discard and lay-down (R4.4, R5.1-R5.3, R11.2, R11.3), shown under the
menu after the draw."""
LAY_DOWNS_SHOWN = 12
"""At most this many lay-downs are listed in the menu; the others keep their numbers and are listed
when the person types ``more`` (a hand with many cards that fit either group has dozens, R5.3)."""
_MORE_WORDS = frozenset({"more", "all"})
"""What a person types to list the lay-downs the menu leaves out."""
_STOCK_WORDS = frozenset({"draw", "stock", "draw stock"})
"""``giminaiciai``: typed words for the draw from the stock (R4.2, R11.1)."""
_PILE_WORDS = frozenset({"take", "pile", "take pile", "draw pile", "draw discard"})
"""``giminaiciai``: typed words for taking the top card of the discard pile (R4.2, R11.1)."""
_EXTRA = re.compile(r"^[0-9]{1,2}$")
"""The ``N`` of a typed ``extra N`` (ASCII digits; more than 99 exceeds any discard pile, R5.3)."""


def _typed_giminaiciai(text: str) -> dict[str, Any] | None:
    """The ``giminaiciai`` command ``text`` names (rules/giminaiciai.md R11.1-R11.3), or None.

    ``draw``, ``stock`` -> ``{"kind": "draw", "source": "stock"}``; ``take``, ``pile`` -> ``{"kind":
    "draw", "source": "discard"}`` (R4.2); ``discard 7H`` -> ``{"kind": "discard", "card": "7H"}``
    (R4.4); ``lay 4H 5H 6H 7H | KC KD KS extra 1 discard 2C`` (``lay down`` too) -> ``{"kind":
    "lay_down", "groups": [["4H", "5H", "6H", "7H"], ["KC", "KD", "KS"]], "extra": 1, "discard": "2C"}``
    (R5.1-R5.3): groups split by ``|``, ``extra N`` and ``discard C`` anywhere after ``lay``, each at
    most once; ``extra`` is left out when not typed.  Words in any case, commas as spaces; cards as
    :func:`_typed_card` reads them, each one of the 52 (R2.2).  None for anything else: a word that is
    not a card, an empty group, ``extra`` without a number, ``discard`` without a card.  Whether the
    command is legal is the rules' call (R5.6).
    """
    words = text.replace(",", " ").replace("|", " | ").split()
    joined = " ".join(words).lower()
    if joined in _STOCK_WORDS:
        return {"kind": "draw", "source": "stock"}
    if joined in _PILE_WORDS:
        return {"kind": "draw", "source": "discard"}
    head = words[0].lower() if words else ""
    if head == "discard" and len(words) == 2:
        card = _card_code(words[1])
        return None if card is None else {"kind": "discard", "card": card}
    if head != "lay":
        return None
    rest = words[2:] if words[1:2] and words[1].lower() == "down" else words[1:]
    return _typed_lay_down(rest)


def _typed_lay_down(words: Sequence[str]) -> dict[str, Any] | None:
    """The lay-down of the words after ``lay`` (:func:`_typed_giminaiciai`), or None."""
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
            card = _card_code(following)
            if "discard" in command or card is None:
                return None
            command["discard"] = card
            position += 1
        else:
            card = _card_code(words[position])
            if card is None:
                return None
            groups[-1].append(card)
        position += 1
    if any(not group for group in groups):
        return None
    command["groups"] = groups
    return command


def _same_giminaiciai(typed: Mapping[str, Any], legal: Mapping[str, Any]) -> bool:
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


def _giminaiciai_choice(text: str, legal: Sequence[Mapping[str, Any]]) -> Mapping[str, Any] | None:
    """The typed ``giminaiciai`` command (:func:`_typed_giminaiciai`): the matching entry of ``legal``
    (:func:`_same_giminaiciai`) when there is one, sent as the view lists it; else as typed, so that
    the rules answer with their reason (R5.6, section 8); None when ``text`` names no command."""
    typed = _typed_giminaiciai(text)
    if typed is None:
        return None
    return next((c for c in legal if _same_giminaiciai(typed, c)), typed)


def _cards_laid(command: Mapping[str, Any]) -> int:
    """How many cards a lay-down lays: hand cards and extra pile cards (R7.2)."""
    return sum(len(group) for group in command.get("groups") or [])


def _order_lay_downs(menu: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    """``giminaiciai``'s menu: the draws and discards as listed, then the lay-downs laying the most
    cards first (they score the most, R7.2), otherwise as listed."""
    others = [c for c in menu if c.get("kind") != "lay_down"]
    downs = sorted((c for c in menu if c.get("kind") == "lay_down"), key=lambda c: -_cards_laid(c))
    return others + downs


def _prompt_hint(bids: Sequence[Mapping[str, Any]], gives: Sequence[Mapping[str, Any]], sealed: bool = False) -> str:
    if gives:
        return "three cards to give, like 7C 8D TS"
    if bids:
        return f"a bid like {min(int(b['points']) for b in bids)}H"
    if sealed:
        return "reveal and your cards, aux or cannot"
    return ""


def _read_choice(
    inp: TextIO,
    out: TextIO,
    menu: Sequence[Mapping[str, Any]],
    bids: Sequence[Mapping[str, Any]] = (),
    gives: Sequence[Mapping[str, Any]] = (),
    sealed: bool = False,
    *,
    relatives: bool = False,
    unlisted: Sequence[str] = (),
) -> Mapping[str, Any] | None:
    """The chosen command: a number from the menu, a typed bid (``90H``) when ``bids`` holds the
    legal bids, or three typed cards (``7C 8D TS``) when ``gives`` holds the legal gives (vida R4.3,
    R5.1), or with ``sealed`` a typed ``romis`` command (``reveal 5H 7D``, ``reveal 9S with 8S 9D``,
    ``aux``, ``cannot``; romis R13.1-R13.3, :func:`_romis_choice`), or with ``relatives`` a typed
    ``giminaiciai`` command (``draw``, ``take``, ``discard 7H``, ``lay 4H 5H 6H | KC KD KS``;
    R11.1-R11.3, :func:`_giminaiciai_choice`); None to quit (``q`` or the end of the input).
    ``unlisted`` holds the menu lines left out of the printed menu, printed when ``more`` is typed."""
    count = len(menu)
    numbers = f"1-{count}" if count > 1 else "1" if count else ""
    typed = _prompt_hint(bids, gives, sealed)
    hint = ", or ".join(part for part in (numbers, typed) if part)
    while True:
        print(f"Your move [{hint}, q to quit]: ", end="", file=out, flush=True)
        line = inp.readline()
        if not line:
            print("\n(input ended)", file=out)
            return None
        text = line.strip().lower()
        if text in ("q", "quit", "exit"):
            return None
        if _MENU_NUMBER.match(text) and 1 <= int(text) <= count:
            return menu[int(text) - 1]
        bid = _typed_bid(text, bids) if bids else None
        if bid is not None:
            return bid
        give = _typed_give(line.strip(), gives) if gives else None
        if give is not None:
            return give
        sealed_choice = _romis_choice(line.strip(), menu) if sealed else None
        if sealed_choice is not None:
            return sealed_choice
        typed_choice = _giminaiciai_choice(line.strip(), menu) if relatives else None
        if typed_choice is not None:
            return typed_choice
        if unlisted and text in _MORE_WORDS:
            for entry in unlisted:
                print(entry, file=out)
            continue
        choices = [f"a number from 1 to {count}"] if count else []
        if bids:
            low, high = min(int(b["points"]) for b in bids), max(int(b["points"]) for b in bids)
            choices.append(f"a bid from {low} to {high} in tens with a suit (C D H S, e.g. {low}H)")
        if gives:
            choices.append("three different cards of your hand (e.g. 7C 8D TS)")
        if sealed:
            choices.append("reveal and the cards (e.g. reveal 5H 7D, or reveal 9S with 8S 9D), aux or cannot")
        if relatives:
            choices.append(
                "draw, take, discard and a card (e.g. discard 7H) or lay and the groups "
                "(e.g. lay 4H 5H 6H | KC KD KS extra 1 discard 2C)"
            )
        if unlisted:
            choices.append("more (to list every lay-down)")
        print(f"Please type {', '.join(choices)}, or q.", file=out)


def _menu_line(command: Mapping[str, Any], view: Mapping[str, Any]) -> str:
    """A menu line: :func:`describe_command`, with vida's doubling level named (R4.5); a
    ``giminaiciai`` lay-down also names the cards it takes from the top of the discard pile (R5.3)
    and, when it lays more than 7 cards, how many and their bonus (R7.2)."""
    if command.get("kind") == "vida" and view.get("game") == "vida":
        return describe_vida_call(view.get("level"))
    if command.get("kind") != "lay_down" or view.get("game") != "giminaiciai":
        return describe_command(command, int(view.get("pending_draw") or 0))
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


def _print_menu(menu: Sequence[Mapping[str, Any]], view: Mapping[str, Any], out: TextIO) -> list[str]:
    """Print the menu, numbered from 1, and return the lines left out: past :data:`LAY_DOWNS_SHOWN`
    lay-downs the rest is summed up in one line (numbers and how to see them), for ``more``."""
    lines = [f"  {i}) {_menu_line(command, view)}" for i, command in enumerate(menu, start=1)]
    downs = [i for i, command in enumerate(menu) if command.get("kind") == "lay_down"]
    if len(downs) <= LAY_DOWNS_SHOWN:
        for line in lines:
            print(line, file=out)
        return []
    cut = downs[LAY_DOWNS_SHOWN]
    for line in lines[:cut]:
        print(line, file=out)
    hidden = len(lines) - cut
    numbers = f"{cut + 1}-{len(lines)}" if hidden > 1 else f"{cut + 1}"
    more = f"{hidden} more lay-down{'s' if hidden > 1 else ''}"
    print(f"  {numbers}) {more}: type more to list {'them' if hidden > 1 else 'it'}, or type one", file=out)
    return lines[cut:]


def _romis_no_reveal(legal: Sequence[Mapping[str, Any]]) -> str | None:
    """What to do when ``romis``'s menu offers no reveal (R4.7): turn up the next auxiliary card
    (R6.1, R6.2), or, with none left, ``cannot`` (R6.3) and what follows from it (R7.1, R7.4); None
    when a reveal is offered."""
    kinds = {c.get("kind") for c in legal}
    if "reveal" in kinds or not kinds <= ROMIS_KINDS:
        return None
    if "use_auxiliary" in kinds:
        return "No reveal is possible with your cards: turn up your next auxiliary card (aux), then reveal if you can."
    if "cannot" in kinds:
        return (
            "No reveal is possible and no auxiliary card is left: submit cannot. You drop out of the hand "
            "if another player reveals; if nobody can, everyone gets an extra card and the round is replayed."
        )
    return None


def _typed_help(view: Mapping[str, Any], legal: Sequence[Mapping[str, Any]]) -> str | None:
    """The help line for a game whose commands may be typed, else None: ``romis``'s (R13), or
    ``giminaiciai``'s before the draw or after it (R11.1-R11.3)."""
    if view.get("game") == "romis" or any(c.get("kind") in ROMIS_KINDS for c in legal):
        return ROMIS_HELP
    if view.get("game") == "giminaiciai":
        return GIMINAICIAI_TURN_HELP if view.get("drawn") else GIMINAICIAI_DRAW_HELP
    return None


def _give_help(view: Mapping[str, Any], names: Sequence[str]) -> str:
    """How to type vida's give (R5.1): the seats the three cards go to, in order."""
    raw_seat = view.get("seat")
    seat = raw_seat if isinstance(raw_seat, int) else 0
    to = [names[(seat + i) % len(names)] if len(names) == 4 else f"seat {(seat + i) % 4}" for i in (1, 2, 3)]
    return (
        f"  give three cards: type them in order, the first to {to[0]}, the second to {to[1]} (your partner), "
        f"the third to {to[2]}, e.g. {' '.join((view.get('hand') or ['7C', '8D', 'TS'])[:3])}"
    )


def play_loop(session: Session, inp: TextIO, out: TextIO) -> int:
    """Play ``session`` with a person reading ``inp`` and writing ``out``; returns an exit code
    (0 when the match ended or the person left)."""
    _print_events(session.start(), session.names, session.me, out)
    for _ in range(MAX_AUTO):
        view = session.view()
        if session.over:
            print("", file=out)
            print(render_view(view), file=out)
            print("Thanks for playing.", file=out)
            return 0
        legal: list[dict[str, Any]] = list(view.get("legal") or [])
        if not my_move(view):
            _print_events(session.wait(), session.names, session.me, out)
            continue
        print("", file=out)
        print(render_view(view), file=out)
        no_reveal = _romis_no_reveal(legal)
        if no_reveal is not None:
            print(no_reveal, file=out)
        bids = [c for c in legal if c.get("kind") == "bid"]
        gives = [c for c in legal if c.get("kind") == "give"]
        menu = [c for c in legal if c.get("kind") not in ("bid", "give")]
        relatives = view.get("game") == "giminaiciai"
        if relatives:
            menu = _order_lay_downs(menu)
        unlisted = _print_menu(menu, view, out)
        if bids:
            low = min(int(b["points"]) for b in bids)
            print(f"  or bid: type points and suit (C D H S), e.g. {low}H (from {low}, in tens)", file=out)
        if gives:
            print(_give_help(view, session.names), file=out)
        sealed = view.get("game") == "romis" or any(c.get("kind") in ROMIS_KINDS for c in legal)
        help_line = _typed_help(view, legal)
        if help_line is not None:
            print(help_line, file=out)
        choice = _read_choice(inp, out, menu, bids, gives, sealed, relatives=relatives, unlisted=unlisted)
        if choice is None:
            print("You leave the table.", file=out)
            return 0
        try:
            seen = session.act(dict(choice))
        except (CommandRejected, InvalidInput, TrapoulaError) as exc:
            print(f"Refused: {exc}", file=out)
            continue
        _print_events(seen, session.names, session.me, out)
    return 1
