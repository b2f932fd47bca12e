"""The match driver: one pure game loop for every game (DESIGN, Layers).

A :class:`Match` is a game (:class:`~trapoula.domain.game.GameSpec`) and its state, immutable.  It
applies a command (``decide`` then ``evolve``), says whether a deal is due and which seats the match
waits for, builds the deal command from a seed or an explicit deal, and picks the move of a
computer player.  :meth:`Match.next_move` is the whole loop of automatic play: the deal when one is
due, else the first waiting computer seat's move, else nothing (a person must act).

Everything that plays a match drives it through this module: the server's automatic play, local
play in the terminal, the test tables, the golden playthroughs, the property harness and the bench.
Randomness and seeds are inputs (STYLE habit 3): a seed per hand number, a random source per move.

>>> import random
>>> from trapoula.domain.game import MatchConfig, SeatInfo
>>> from trapoula.domain.registry import find_game
>>> config = MatchConfig("crazy_eights", tuple(SeatInfo(i, f"p{i}", "random") for i in range(2)))
>>> match = Match.start(find_game("crazy_eights"), config)
>>> match.deal_due, match.over
(True, False)
>>> rng = random.Random(7)
>>> match, moves = match.play_out({0: "random", 1: "random"}, lambda hand: f"{hand:064x}", lambda: rng)
>>> match.over, match.hands > 0, moves > 0
(True, True, True)
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from trapoula.domain.bots import choose
from trapoula.domain.deal import Deal
from trapoula.domain.events import Event, Seat
from trapoula.domain.game import GameSpec, MatchConfig, acting_seats
from trapoula.domain.lifecycle import Role

S = TypeVar("S")
"""A game's state type."""
C = TypeVar("C")
"""A game's command type."""

TABLE = "table"
"""The actor of a deal (and of other table commands): no seat issues it."""


@dataclass(frozen=True, slots=True)
class Move(Generic[C]):
    """One automatic move: the command and who issues it."""

    command: C
    actor: str
    """``table`` for a deal, ``bot:N`` for the computer player in seat N."""


@dataclass(frozen=True, slots=True)
class Match(Generic[S, C]):
    """A game and its state (immutable): every method returns a new match or a value.

    ``hands`` counts the hands dealt so far (events of role ``hand_started``), so that the next
    deal's seed can be asked for by hand number.
    """

    spec: GameSpec[S, C]
    state: S
    hands: int = 0
    """Hands dealt so far."""

    @classmethod
    def start(cls, spec: GameSpec[S, C], config: MatchConfig) -> Match[S, C]:
        """The match configured by ``config``, before its first deal.

        Raises:
            InvalidInput: the configuration is not a match of the game (bad options, seats ...).
        """
        return cls(spec, spec.initial_state(config))

    # ----------------------------------------------------------------- reading the state

    @property
    def over(self) -> bool:
        """True when the match is over (``GameSpec.is_terminal``)."""
        return bool(self.spec.is_terminal(self.state))

    @property
    def deal_due(self) -> bool:
        """True when the next command must be the table's deal (``GameSpec.needs_deal``), the match
        not being over."""
        return not self.over and bool(self.spec.needs_deal(self.state))

    def acting(self, seats: Iterable[Seat]) -> tuple[Seat, ...]:
        """The seats among ``seats`` whose move the match waits for (``GameSpec.acting``)."""
        return acting_seats(self.spec, self.state, tuple(seats))

    def legal(self, seat: Seat) -> tuple[C, ...]:
        """The commands ``seat`` may issue now (``GameSpec.legal_commands``)."""
        return self.spec.legal_commands(self.state, seat)

    # ----------------------------------------------------------------- changing it

    def apply(self, command: C) -> tuple[Match[S, C], tuple[Event, ...]]:
        """Decide ``command`` and fold its events: ``(the match after it, the events)``.

        Raises:
            CommandRejected: the rules refuse the command (the match is unchanged).
            InvalidInput: the command is malformed.
        """
        events = tuple(self.spec.decide(self.state, command))
        return self.fold(events), events

    def steps(self, command: C) -> tuple[Match[S, C], tuple[tuple[Event, S], ...]]:
        """Decide ``command`` and fold its events one by one: ``(the match after it, each event with
        the state right after it)``, for a reader that looks between the events (a playthrough, a
        property check).

        Raises:
            CommandRejected, InvalidInput: as :meth:`apply`.
        """
        events = self.spec.decide(self.state, command)
        state, hands, evolve = self.state, self.hands, self.spec.evolve
        out: list[tuple[Event, S]] = []
        for event in events:
            state = evolve(state, event)
            hands += event.role is Role.HAND_STARTED
            out.append((event, state))
        return Match(self.spec, state, hands), tuple(out)

    def fold(self, events: Iterable[Event]) -> Match[S, C]:
        """The match after ``events`` (trusted: recorded or just decided), counting the hands dealt."""
        state, hands, evolve = self.state, self.hands, self.spec.evolve
        for event in events:
            state = evolve(state, event)
            hands += event.role is Role.HAND_STARTED
        return Match(self.spec, state, hands)

    def seeded_deal(self, seed: str) -> C:
        """The deal command shuffling the game's deck with ``seed`` (64 hex digits, docs/shuffle.md)."""
        return self.spec.deal_command(self.state, Deal.from_seed(self.spec.deck(self.state), seed))

    def explicit_deal(self, deal: Mapping[str, Any], secret: str | None = None) -> C:
        """The deal command for an explicit deal given as plain data (S5.3; each game's shape), with the
        server's ``secret`` where the game seals with one.

        Raises:
            InvalidInput: not a deal of the game (``bad_deal``).
        """
        made = self.spec.explicit_deal(self.state, deal)
        if secret is not None:
            made = dataclasses.replace(made, secret=secret)
        return self.spec.deal_command(self.state, made)

    def bot_command(self, seat: Seat, level: str, rng: random.Random) -> C:
        """The move of the computer player of ``level`` in ``seat``, chosen from the seat's own view
        (:func:`trapoula.domain.bots.choose`: a bot sees what the seat sees).

        Raises:
            InvalidInput: unknown level, or ``seat`` has no legal command (``no_legal_command``).
        """
        view = self.spec.seat_view(self.state, seat)
        return self.spec.parse_command(choose(self.spec.key, view, level, rng))

    def next_move(
        self,
        bots: Mapping[Seat, str],
        seed: Callable[[int], str] | None,
        rng: Callable[[], random.Random],
        seats: Iterable[Seat] | None = None,
    ) -> Move[C] | None:
        """The automatic move due now, or None when there is none.

        A deal is due: the deal of hand ``hands + 1`` from ``seed(hand number)`` (None: deals are
        entered by hand, so none is automatic).  Else the first seat the match waits for (among
        ``seats``, default every seat of ``bots``) that is a computer player moves, with the random
        source ``rng()``; a person among the waiting seats before it stops automatic play.

        Args:
            bots: seat -> bot level of the computer players.
            seed: the seed of a hand by its number (1, 2, ...), or None.
            rng: the random source of the next bot move (called once per move).
            seats: the seats to consider (default ``bots``' seats).

        Raises:
            InvalidInput: a bot level the game does not know.
        """
        if self.over:
            return None
        if self.deal_due:
            return None if seed is None else Move(self.seeded_deal(seed(self.hands + 1)), TABLE)
        waiting = self.acting(sorted(bots) if seats is None else seats)
        if not waiting or waiting[0] not in bots:
            return None
        seat = waiting[0]
        return Move(self.bot_command(seat, bots[seat], rng()), f"bot:{seat}")

    def play_out(
        self,
        bots: Mapping[Seat, str],
        seed: Callable[[int], str],
        rng: Callable[[], random.Random],
        limit: int = 1_000_000,
    ) -> tuple[Match[S, C], int]:
        """Play automatic moves (:meth:`next_move`) until none is due or ``limit`` commands were
        played: ``(the match then, commands played)``.

        Raises:
            CommandRejected: the rules refuse an automatic move (a defect of a bot).
        """
        match: Match[S, C] = self
        played = 0
        while played < limit:
            move = match.next_move(bots, seed, rng)
            if move is None:
                break
            match, _ = match.apply(move.command)
            played += 1
        return match, played
