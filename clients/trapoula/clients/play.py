"""A person against bots in the terminal (``trapoula play``).

The legal commands of the person's view are offered as a numbered menu, grouped and explained as
the game's text says (``GameSpec.text``: :meth:`~trapoula.domain.text.GameText.turn_for`); the person
types a number, a move in the game's words where the game reads typed moves
(``GameText.parse_move``), ``more`` to list the entries a long menu leaves out, or ``q``.  Input is
read line by line, so a piped stdin works too; when it ends the game stops.  A move that is the only
legal one is made without asking, and said (unless the game asks even then,
``GameText.asks_single_move``).  The bots are named as the server names those it seats
(:func:`bot_name`).

Two sessions share the loop:

* :class:`LocalSession` plays in this process with the domain (no server): bots choose from
  their own seat's view with :func:`trapoula.domain.bots.choose`; every hand's seed is fresh
  (or derived from ``--seed`` to replay a game).  It says that no record is kept unless asked
  (``--record FILE``: the match's record, hash-chained and unsigned, written at its end or when the
  person leaves).
* :class:`RemoteSession` plays at a trapoula server (``--address``): it creates a table, says its
  id, takes seat 0, seats server bots, and acts over gRPC.  When the person quits it leaves the seat
  where the game has a command for it (``leave``), else says that the table stays playing;
  ``--record FILE`` writes the server's signed record then.
"""

from __future__ import annotations

import hashlib
import json
import random
import re
import secrets
import uuid
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any, Protocol, TextIO

from trapoula.clients.errors import TrapoulaError
from trapoula.clients.table import TableClient, my_move
from trapoula.clients.text import game_text
from trapoula.domain.audit import TABLE_EVENTS
from trapoula.domain.chain import RecordEntry, chain_record
from trapoula.domain.errors import CommandRejected, InvalidInput
from trapoula.domain.events import redact, to_payload, visible
from trapoula.domain.game import GameSpec, MatchConfig, SeatInfo
from trapoula.domain.lifecycle import Role
from trapoula.domain.match import Match
from trapoula.domain.registry import DEFAULT_GAME, find_game
from trapoula.domain.tableevents import created_payload
from trapoula.domain.text import DescribeEvent, GameText, Turn

__all__ = ["LocalSession", "RemoteSession", "Session", "bot_name", "play_loop"]

Seen = list[tuple[str, dict[str, Any]]]
"""Events as the person saw them: (name, redacted payload)."""

MAX_AUTO = 100_000
"""Bot moves and deals in a row, at most (a bound against a runaway loop, not a rule)."""


def bot_name(level: str, seat: int) -> str:
    """A bot's display name, as the server names the bots it seats (``heuristic bot 1``).

    >>> bot_name("heuristic", 1)
    'heuristic bot 1'
    """
    return f"{level} bot {seat}"


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

    def about(self) -> list[str]:
        """What the person is told once the match has started (where it is played, its record)."""
        ...

    def leave(self) -> list[str]:
        """The person quits before the end: leave the seat where the game allows it; what happened."""
        ...

    def finish(self) -> list[str]:
        """The match is over (or the person left): what the person is told last (the record)."""
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
        record: where to write the match's record (docs/record.md: hash-chained, unsigned as no
            server signs it) when the match ends or the person leaves; None: no record is kept.
    """

    def __init__(
        self,
        game: str = DEFAULT_GAME,
        seats: int = 4,
        level: str = "heuristic",
        options: Mapping[str, Any] | None = None,
        *,
        seed: str | None = None,
        rng: random.Random | None = None,
        name: str = "you",
        record: str | Path | None = None,
    ) -> None:
        spec: GameSpec[Any, Any] = find_game(game)
        self.level = level
        self.me = 0
        self.names = [name] + [bot_name(level, i) for i in range(1, seats)]
        config = MatchConfig(
            game=game,
            seats=tuple(SeatInfo(i, self.names[i], None if i == self.me else level) for i in range(seats)),
            options=dict(options or {}),
        )
        self.match: Match[Any, Any] = Match.start(spec, config)
        self.seed = seed
        self.rng = rng or random.Random()
        self.bots = {i: level for i in range(seats) if i != self.me}
        self.record = Path(record) if record is not None else None
        self._between_hands = 0  # the entries up to the end of the last finished hand's command
        self.table_id = f"local-{uuid.uuid4()}"
        self._entries: list[RecordEntry] = table_entries(
            game, config.options, self.names, [None if i == self.me else level for i in range(seats)]
        )
        self._table_events = len(self._entries)

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
        self._entries.extend((event.event_name(), to_payload(event), type(event).version) for event in events)
        if any(event.role is Role.HAND_REVEALED for event in events):
            self._between_hands = len(self._entries)
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

    def about(self) -> list[str]:
        """Said at the start: the match is local, and whether its record is kept."""
        if self.record is None:
            return ["Local match (no server): no record is kept; play --record FILE keeps one."]
        return [f"Local match (no server): its record goes to {self.record} when it ends or you leave."]

    def leave(self) -> list[str]:
        """Nothing to leave: the match lives in this process only."""
        return []

    def finish(self) -> list[str]:
        """Write the record (``record``), hash-chained (docs/record.md): the whole match when it is
        over, else its finished hands (as a server's record of a match under way: a record does not
        end in the middle of a hand, REC7)."""
        if self.record is None:
            return []
        entries = self._entries if self.over else self._entries[: max(self._between_hands, self._table_events)]
        lines = chain_record(self.table_id, self.spec.key, entries)
        text = "".join(json.dumps(line, ensure_ascii=False, separators=(",", ":")) + "\n" for line in lines)
        self.record.write_text(text, encoding="utf-8")
        head = lines[0]
        whole = "the whole match" if self.over else "the hands finished before you left"
        return [
            f"Record written to {self.record}: {whole}, {head['hands']} finished hand(s), {head['events']} events "
            "(unsigned: no server signed it; trapoula verify and trapoula replay read it)."
        ]


def table_entries(
    game: str, options: Mapping[str, Any], names: Sequence[str], bots: Sequence[str | None]
) -> list[RecordEntry]:
    """The table's own events that open a local match's record, as a server writes them
    (docs/record.md 2.4): ``TableCreated``, then each seat's ``SeatTaken`` (a person's token is
    made up and never used: only its hash is written)."""
    entries: list[RecordEntry] = [("TableCreated", created_payload(game, len(names), options))]
    for seat, (name, bot) in enumerate(zip(names, bots, strict=True)):
        token_hash = None if bot is not None else hashlib.sha256(secrets.token_bytes(32)).hexdigest()
        entries.append(("SeatTaken", {"seat": seat, "name": name, "bot": bot, "token_hash": token_hash}))
    return entries


class RemoteSession:
    """A match at a trapoula server: the person takes seat 0, the server's bots the rest.

    Args:
        client: a connected client without a token (it adopts the seat token).
        game, seats, level, options, name: as for :class:`LocalSession`.
        record: where to write the record the server keeps (signed) when the match ends or the
            person leaves; None: none is written.

    Raises:
        InvalidInput: ``game`` is no game this client knows (``unknown_game``): it could not tell
            the match's end (role ``match_ended``).
    """

    def __init__(
        self,
        client: TableClient,
        game: str = DEFAULT_GAME,
        seats: int = 4,
        level: str = "heuristic",
        options: Mapping[str, Any] | None = None,
        *,
        name: str = "you",
        record: str | Path | None = None,
    ) -> None:
        self.client = client
        self.record = Path(record) if record is not None else None
        self.spec: GameSpec[Any, Any] = find_game(game)
        self.game, self.seats, self.level, self.options = game, seats, level, dict(options or {})
        self.me = 0
        self.names: list[str] = [name] + [bot_name(level, i) for i in range(1, seats)]
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
        ended = any(self.spec.role_of(name) is Role.MATCH_ENDED for name, _ in seen)
        self._over = self._over or ended or view.get("phase") == "match_over"
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
            self.client.add_bot(self.table_id, self.level, name=bot_name(self.level, i))
        before = self.client.view(self.table_id).version
        self.client.start_match(self.table_id)  # as the owner; the person's own view of it follows
        now = self.client.view(self.table_id)
        seen: Seen = []
        if now.version > before:
            with self.client.watch(self.table_id, before) as updates:
                for update in updates:
                    seen.extend(self._seen(update.version, [update], update.view))
                    if update.version >= now.version:
                        break
        if not seen:
            self._seen(now.version, [], now.view)
        return seen

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

    def about(self) -> list[str]:
        """Said at the start: the table and where it is."""
        return [f"Table {self.table_id} at {self.client.target}; you sit at seat {self.me}."]

    def leave(self) -> list[str]:
        """Leave the seat when the game has a command for it (the view's legal ``leave``); else the
        table stays as it is, waiting for the person's move."""
        if self._over:
            return []
        if any(c.get("kind") == "leave" for c in self._view.get("legal") or []):
            try:
                self.act({"kind": "leave"})
            except TrapoulaError as exc:
                return [f"Could not leave the match ({exc}): table {self.table_id} stays as it is."]
            return [f"You left the match: your seat at table {self.table_id} is vacant and the others play on."]
        return [
            f"A seat cannot leave a match of {self.game}: table {self.table_id} stays playing at the server, "
            "waiting for your move."
        ]

    def finish(self) -> list[str]:
        """Fetch the record to ``record`` (the hands finished so far when the match is not over), or
        say how to fetch it once the match is over."""
        if self.record is not None and self.table_id:
            jsonl = self.client.record(self.table_id)
            self.record.write_text(jsonl, encoding="utf-8")
            whole = "the whole match" if self._over else "the hands finished so far"
            return [f"Record written to {self.record}: {whole}, as the server signed it."]
        if not self._over:
            return []
        return [f"Its record: trapoula record {self.table_id} --address {self.client.target} --out FILE"]


def _print_events(seen: Seen, describe: DescribeEvent, names: Sequence[str], me: int, out: TextIO) -> None:
    """Print a line for each event of ``seen`` worth one, read by ``describe`` (the game's
    ``GameText.narrate``; the table's own events say nothing, :data:`~trapoula.domain.audit.TABLE_EVENTS`)."""
    for name, payload in seen:
        if name in TABLE_EVENTS:
            continue
        line = describe(name, payload, names, me)
        if line:
            print(line, file=out)


_MENU_NUMBER = re.compile(r"^[0-9]{1,9}$")
"""A menu number as typed (ASCII digits, at most 9: ``int`` refuses other digits such as ``²`` and
more than 4300)."""
_MORE_WORDS = frozenset({"more", "all"})
"""What a person types to list the menu entries a long menu leaves out (``Turn.shown``)."""


def _no_move(text: str) -> Mapping[str, Any] | None:
    """Reads no typed move (a game whose moves are chosen by number only)."""
    return None


def _parser(text: GameText, legal: Sequence[Mapping[str, Any]]) -> Callable[[str], Mapping[str, Any] | None]:
    """The game's reading of a typed line against ``legal`` (``GameText.parse_move``)."""
    return lambda line: text.parse_move(line, legal)


def _read_choice(
    inp: TextIO,
    out: TextIO,
    turn: Turn,
    parse: Callable[[str], Mapping[str, Any] | None] = _no_move,
    unlisted: Sequence[str] = (),
) -> Mapping[str, Any] | None:
    """The chosen command: a number from the menu of ``turn``, or the move ``parse`` reads in the
    typed line (``GameText.parse_move``); None to quit (``q`` or the end of the input).  ``unlisted``
    holds the menu lines left out of the printed menu, printed when ``more`` is typed.  A line that
    is none of these is answered with what may be typed (the numbers, ``Turn.typed``, ``more``)."""
    count = len(turn.menu)
    numbers = f"1-{count}" if count > 1 else "1" if count else ""
    hint = ", or ".join(part for part in (numbers, turn.hint) if part)
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
            return turn.menu[int(text) - 1]
        typed = parse(line.strip())
        if typed is not None:
            return typed
        if unlisted and text in _MORE_WORDS:
            for entry in unlisted:
                print(entry, file=out)
            continue
        choices = [f"a number from 1 to {count}"] if count else []
        choices.extend(turn.typed)
        if unlisted:
            choices.append(f"more (to list every {turn.more or 'entry'})")
        print(f"Please type {', '.join(choices)}, or q.", file=out)


def _print_menu(turn: Turn, out: TextIO) -> list[str]:
    """Print the menu of ``turn``, numbered from 1, and return the lines left out: past ``Turn.shown``
    entries the rest is summed up in one line (numbers and how to see them), for ``more``."""
    lines = [f"  {i}) {line}" for i, line in enumerate(turn.lines, start=1)]
    if turn.shown is None or turn.shown >= len(lines):
        for line in lines:
            print(line, file=out)
        return []
    cut = turn.shown
    for line in lines[:cut]:
        print(line, file=out)
    hidden = len(lines) - cut
    numbers = f"{cut + 1}-{len(lines)}" if hidden > 1 else f"{cut + 1}"
    more = f"{hidden} more {turn.more or 'entry'}{'s' if hidden > 1 else ''}"
    print(f"  {numbers}) {more}: type more to list {'them' if hidden > 1 else 'it'}, or type one", file=out)
    return lines[cut:]


def _told(session: Session, what: str) -> list[str]:
    """The lines of ``session.about()``, ``leave()`` or ``finish()``; none from a session without them
    (a session written before they were asked for)."""
    method = getattr(session, what, None)
    return list(method()) if callable(method) else []


def clock_line(view: Mapping[str, Any], me: int) -> str | None:
    """The line telling seat ``me`` when its time runs out, from the view's turn clocks (docs/clock.md
    C6), or None at a table without a clock or when its move is not awaited.

    >>> clock = {"move_seconds": 30, "bank_seconds": 0, "policy": "heuristic", "banks": [0.0, 0.0],
    ...          "deadlines": [{"seat": 1, "deadline": "2026-12-02T19:04:31.250Z"}]}
    >>> clock_line({"table": {"clock": clock}}, 1)
    'Your time runs out at 19:04:31 UTC (30 s a move); then the server moves for you (heuristic).'
    >>> clock_line({"table": {"clock": clock}}, 0) is None, clock_line({"table": {"clock": None}}, 1) is None
    (True, True)
    """
    table = view.get("table")
    clock = table.get("clock") if isinstance(table, Mapping) else None
    if not isinstance(clock, Mapping):
        return None
    mine = next((d for d in clock.get("deadlines") or () if isinstance(d, Mapping) and d.get("seat") == me), None)
    if mine is None:
        return None
    at = str(mine.get("deadline", ""))
    shown = at[11:19] + " UTC" if len(at) >= 19 else at
    return (
        f"Your time runs out at {shown} ({clock.get('move_seconds')} s a move); "
        f"then the server moves for you ({clock.get('policy')})."
    )


def _say(lines: Sequence[str], out: TextIO) -> None:
    for line in lines:
        print(line, file=out)


def play_loop(session: Session, inp: TextIO, out: TextIO) -> int:
    """Play ``session`` with a person reading ``inp`` and writing ``out``; returns an exit code
    (0 when the match ended or the person left).  The game's words are those of the view's ``game``
    (``GameSpec.text``).  A move that is the only legal one is made without asking, and said.  When
    the person quits (``q``, the end of the input, Ctrl-C) the session leaves the table
    (:meth:`Session.leave`) and says what became of it."""
    seen = session.start()
    game = session.view().get("game")
    text = game_text(game)
    describe = text.narrate()
    _say(_told(session, "about"), out)
    _print_events(seen, describe, session.names, session.me, out)
    refused = False  # the last move was refused: ask, even when only one is listed
    try:
        for _ in range(MAX_AUTO):
            view = session.view()
            if session.over:
                print("", file=out)
                print(text.render_view(view), file=out)
                print("Thanks for playing.", file=out)
                _say(_told(session, "finish"), out)
                return 0
            legal: list[dict[str, Any]] = list(view.get("legal") or [])
            if not my_move(view):
                _print_events(session.wait(), describe, session.names, session.me, out)
                continue
            forced = len(legal) == 1 and legal[0].get("kind") != "leave"  # leaving is never done for the person
            print("", file=out)
            print(text.render_view(view), file=out)
            clock = clock_line(view, session.me)
            if clock:
                print(clock, file=out)
            if forced and not refused and not text.asks_single_move:  # nothing to choose: made, and said
                listed = text.turn_for(view, legal, session.names).lines
                print(f"Your only move: {listed[0] if listed else text.describe_command(legal[0], view)}", file=out)
                choice: Mapping[str, Any] | None = legal[0]
            else:
                turn = text.turn_for(view, legal, session.names)
                _say(turn.before, out)
                unlisted = _print_menu(turn, out)
                _say(turn.after, out)
                choice = _read_choice(inp, out, turn, _parser(text, legal), unlisted)
            if choice is None:
                print("You leave the table.", file=out)
                _say(_told(session, "leave"), out)
                _say(_told(session, "finish"), out)
                return 0
            try:
                seen = session.act(dict(choice))
            except (CommandRejected, InvalidInput, TrapoulaError) as exc:
                print(f"Refused: {exc}", file=out)
                refused = True
                continue
            refused = False
            _print_events(seen, describe, session.names, session.me, out)
    except KeyboardInterrupt:
        print("\nYou leave the table.", file=out)
        _say(_told(session, "leave"), out)
        _say(_told(session, "finish"), out)
        raise
    return 1
