"""The test table every game's helpers build on: a match driven by the domain's match driver
(:class:`trapoula.domain.match.Match`), as the service drives it, with its log of events and the
readers and checks every game's tests share: the match's set-up from seat names and options, a
command parsed from plain data, a seeded deal, a seat's view and legal commands, and the refusal
check of section 8 (S11)."""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import Any, ClassVar

import pytest

from trapoula.domain.deal import Deal
from trapoula.domain.errors import CommandRejected
from trapoula.domain.events import Event
from trapoula.domain.game import GameSpec, MatchConfig, SeatInfo
from trapoula.domain.match import Match
from trapoula.domain.tableevents import created_payload


def names(events: Sequence[Event]) -> list[str]:
    """The event names, in order."""
    return [e.event_name() for e in events]


def of_type(events: Sequence[Event], name: str) -> list[Event]:
    """The events named ``name``."""
    return [e for e in events if e.event_name() == name]


def seeded_commands(
    spec: GameSpec[Any, Any], state: Any, seed_of_hand: Callable[[int], str], move: Callable[[Any], Any]
) -> Iterator[tuple[tuple[Event, ...], Any, int]]:
    """Play from ``state`` to the end of the match as the service would: a deal whenever one is due,
    from the seed ``seed_of_hand(hand number)`` (1, 2, ...), else the command ``move(state)``.  After
    each command: its events, the state then, and the number of the hand."""
    hands = 0
    while not spec.is_terminal(state):
        if spec.needs_deal(state):
            hands += 1
            command = spec.deal_command(state, Deal.from_seed(spec.deck(state), seed_of_hand(hands)))
        else:
            command = move(state)
        events = spec.decide(state, command)
        for event in events:
            state = spec.evolve(state, event)
        yield events, state, hands


def table_entries(
    game: str,
    names: Sequence[str],
    options: Mapping[str, Any],
    manual_deal: bool = False,
    bots: Sequence[str | None] | None = None,
) -> list[tuple[str, dict[str, Any]]]:
    """The table's own events that open a record (docs/record.md): ``TableCreated`` for ``game``
    with ``options``, then a ``SeatTaken`` of each of ``names`` (a person unless ``bots`` gives the
    seat's level, its token's hash made up)."""
    entries: list[tuple[str, dict[str, Any]]] = [
        ("TableCreated", created_payload(game, len(names), options, manual_deal=manual_deal))
    ]
    for seat, name in enumerate(names):
        token_hash = hashlib.sha256(f"token-{seat}".encode()).hexdigest()
        bot = bots[seat] if bots is not None else None
        entries.append(("SeatTaken", {"seat": seat, "name": name, "bot": bot, "token_hash": token_hash}))
    return entries


class MatchTable:
    """A match under test of ``n`` players: ``state`` is the folded state, ``log`` every event so far.

    A subclass sets ``spec``, the display names of its seats (``seat_names``) and how many players
    it seats unless a test says (``players``).
    """

    spec: ClassVar[GameSpec[Any, Any]]
    seat_names: ClassVar[Sequence[str]]
    players: ClassVar[int] = 2
    state: Any
    log: list[Event]

    def __init__(
        self,
        n: int | None = None,
        *,
        options: Mapping[str, Any] | None = None,
        first_dealer: int | None = None,
        initial_totals: Sequence[int] | None = None,
    ) -> None:
        self.n = self.players if n is None else n
        self.config = MatchConfig(
            game=self.spec.key,
            seats=tuple(SeatInfo(i, self.seat_names[i]) for i in range(self.n)),
            options=dict(options or {}),
            first_dealer=first_dealer,
            initial_totals=tuple(initial_totals) if initial_totals is not None else None,
        )
        self.state = self.spec.initial_state(self.config)
        self.log = []

    names = staticmethod(names)

    def apply(self, command: Any) -> tuple[Event, ...]:
        """Decide ``command`` and fold its events (:meth:`Match.apply`); return them.

        Raises:
            CommandRejected, InvalidInput: the rules refuse the command (nothing changes).
        """
        match, events = Match(self.spec, self.state).apply(command)
        self.state = match.state
        self.log.extend(events)
        return events

    def command(self, kind: str, seat: int | None = None, **fields: Any) -> Any:
        """Parse a command from plain data, as the service does (``seat`` None: a table command)."""
        raw: dict[str, Any] = {"kind": kind, **fields}
        if seat is not None:
            raw["seat"] = seat
        return self.spec.parse_command(raw)

    def seeded(self, seed: str) -> tuple[Event, ...]:
        """Deal the next hand from ``seed``, as the table does (S5.1)."""
        return self.apply(self.spec.deal_command(self.state, Deal.from_seed(self.spec.deck(self.state), seed)))

    def deal_deck(self, deck: str | Sequence[str]) -> tuple[Event, ...]:
        """Deal the next hand from an explicit deck order (codes, top first; a string space-separated)."""
        cards = deck.split() if isinstance(deck, str) else list(deck)
        return self.apply(self.spec.deal_command(self.state, self.spec.explicit_deal(self.state, {"deck": cards})))

    def view(self, viewer: int | None) -> dict[str, Any]:
        """``seat_view`` of a seat or a spectator."""
        return dict(self.spec.seat_view(self.state, viewer))

    def legal(self, seat: int) -> list[dict[str, Any]]:
        """The legal commands of ``seat`` as plain data."""
        return [dict(self.spec.command_payload(c)) for c in self.spec.legal_commands(self.state, seat)]

    def offered(self, command: Any, legal: Sequence[Any]) -> bool:
        """True when ``legal`` offers ``command`` (a game may compare fewer fields)."""
        return command in legal

    def rejects(self, reason: str, rule: str, command: Any) -> CommandRejected:
        """Assert that ``command`` is refused with ``reason`` citing ``rule``, that nothing changes,
        and that ``legal_commands`` does not offer it (section 8, S11)."""
        before, logged = self.state, len(self.log)
        with pytest.raises(CommandRejected) as info:
            self.apply(command)
        assert (info.value.reason, info.value.rule) == (reason, rule), str(info.value)
        assert self.state is before
        assert len(self.log) == logged
        seat = self.spec.command_seat(command)
        if seat is not None and 0 <= seat < self.n:
            assert not self.offered(command, self.spec.legal_commands(self.state, seat))
        return info.value
