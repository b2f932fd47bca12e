"""A person against bots in the terminal (``trapoula play``).

The legal commands of the person's view are offered as a numbered menu; the person types a
number (or ``q``).  Some commands may be typed as well: ``vida``'s bids and gives (``90H``,
``7C 8D TS``) and ``romis``'s sealed commands (``reveal 5H 7D``, ``reveal 9S with 8S 9D``, ``aux``,
``cannot``).  Input is read line by line, so a piped stdin works too; when it ends the game stops.

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
from trapoula.clients.text import describe_command, describe_event, describe_vida_call, render_view, suit_letter
from trapoula.domain.bots import choose
from trapoula.domain.cards import parse_card
from trapoula.domain.deal import Deal
from trapoula.domain.errors import CommandRejected, InvalidInput
from trapoula.domain.events import redact, visible
from trapoula.domain.game import GameSpec, MatchConfig, SeatInfo, acting_seats
from trapoula.domain.registry import find_game

__all__ = ["LocalSession", "RemoteSession", "Session", "play_loop"]

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
        self.spec: GameSpec[Any, Any] = find_game(game)
        self.level = level
        self.me = 0
        self.names = [name] + [f"{level}-bot-{i}" for i in range(1, seats)]
        config = MatchConfig(
            game=game,
            seats=tuple(SeatInfo(i, self.names[i], None if i == self.me else level) for i in range(seats)),
            options=dict(options or {}),
        )
        self.state: Any = self.spec.initial_state(config)
        self.seed = seed
        self.rng = rng or random.Random()
        self.hand_no = 0

    def _hand_seed(self) -> str:
        self.hand_no += 1
        if self.seed is None:
            return secrets.token_hex(32)
        return hashlib.sha256(f"{self.seed}/{self.hand_no}".encode()).hexdigest()

    def _apply(self, command: Any, seen: Seen) -> None:
        """Decide and apply ``command``; the person sees each event redacted for his seat, and not at
        all an event withheld from him (``romis``'s ``AuxiliaryUsed`` of another seat, R5.4)."""
        for event in self.spec.decide(self.state, command):
            self.state = self.spec.evolve(self.state, event)
            if visible(event, self.me):
                seen.append((event.event_name(), redact(event, self.me)))

    def _advance(self, seen: Seen) -> Seen:
        for _ in range(MAX_AUTO):
            if self.spec.is_terminal(self.state):
                break
            if self.spec.needs_deal(self.state):
                deal = Deal.from_seed(self.spec.deck(self.state), self._hand_seed())
                self._apply(self.spec.deal_command(self.state, deal), seen)
                continue
            acting = acting_seats(self.spec, self.state, range(self.spec.max_players))
            if self.me in acting:
                break
            bot = next(iter(acting), None)
            if bot is None:
                break
            payload = choose(self.spec.key, self.spec.seat_view(self.state, bot), self.level, self.rng)
            self._apply(self.spec.parse_command(payload), seen)
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
        view["acting"] = list(acting_seats(self.spec, self.state, range(self.spec.max_players)))
        return view

    def wait(self) -> Seen:
        """Nothing to wait for locally: the bots have moved."""
        return self._advance([])

    @property
    def over(self) -> bool:
        """True when the match is over."""
        return bool(self.spec.is_terminal(self.state))


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
) -> Mapping[str, Any] | None:
    """The chosen command: a number from the menu, a typed bid (``90H``) when ``bids`` holds the
    legal bids, or three typed cards (``7C 8D TS``) when ``gives`` holds the legal gives (vida R4.3,
    R5.1), or with ``sealed`` a typed ``romis`` command (``reveal 5H 7D``, ``reveal 9S with 8S 9D``,
    ``aux``, ``cannot``; romis R13.1-R13.3, :func:`_romis_choice`); None to quit (``q`` or the end
    of the input)."""
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
        choices = [f"a number from 1 to {count}"] if count else []
        if bids:
            low, high = min(int(b["points"]) for b in bids), max(int(b["points"]) for b in bids)
            choices.append(f"a bid from {low} to {high} in tens with a suit (C D H S, e.g. {low}H)")
        if gives:
            choices.append("three different cards of your hand (e.g. 7C 8D TS)")
        if sealed:
            choices.append("reveal and the cards (e.g. reveal 5H 7D, or reveal 9S with 8S 9D), aux or cannot")
        print(f"Please type {', '.join(choices)}, or q.", file=out)


def _menu_line(command: Mapping[str, Any], view: Mapping[str, Any]) -> str:
    """A menu line: :func:`describe_command`, with vida's doubling level named (R4.5)."""
    if command.get("kind") == "vida" and view.get("game") == "vida":
        return describe_vida_call(view.get("level"))
    return describe_command(command, int(view.get("pending_draw") or 0))


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
            print(render_view(view), file=out)
            print("Thanks for playing.", file=out)
            return 0
        legal: list[dict[str, Any]] = list(view.get("legal") or [])
        if not my_move(view):
            _print_events(session.wait(), session.names, session.me, out)
            continue
        print("", file=out)
        print(render_view(view), file=out)
        bids = [c for c in legal if c.get("kind") == "bid"]
        gives = [c for c in legal if c.get("kind") == "give"]
        menu = [c for c in legal if c.get("kind") not in ("bid", "give")]
        for i, command in enumerate(menu, start=1):
            print(f"  {i}) {_menu_line(command, view)}", file=out)
        if bids:
            low = min(int(b["points"]) for b in bids)
            print(f"  or bid: type points and suit (C D H S), e.g. {low}H (from {low}, in tens)", file=out)
        if gives:
            print(_give_help(view, session.names), file=out)
        sealed = view.get("game") == "romis" or any(c.get("kind") in ROMIS_KINDS for c in legal)
        if sealed:
            print(ROMIS_HELP, file=out)
        choice = _read_choice(inp, out, menu, bids, gives, sealed)
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
