"""Pieces that several games' rules modules share: the accumulator a decision emits its events into,
the check that a command is one its state already listed as legal, where a match played hand by
hand stands (:class:`Phases`), the checks of a match's configuration where every seat scores for
itself, and the summary of the last hand that the views show (:func:`ended_hand_view`).

Each piece is what the games wrote alike; a game still says which of its rules each one carries out
(its own messages and rule numbers are passed in).
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Generic, Protocol, TypedDict, TypeVar

from trapoula.domain.cards import CardCode, parse_cards
from trapoula.domain.deal import Deal
from trapoula.domain.errors import InvalidInput
from trapoula.domain.events import Event
from trapoula.domain.game import MatchConfig
from trapoula.domain.games.frozen import Memo
from trapoula.domain.lifecycle import MatchStarted, StartsHand
from trapoula.domain.options import is_int
from trapoula.domain.wire import OptionsPayload

__all__ = [
    "MAX_INITIAL_TOTAL",
    "Acc",
    "EndedHand",
    "MatchView",
    "Phased",
    "Phases",
    "ScoredMatchView",
    "dealer_and_totals",
    "ended_hand_view",
    "is_listed",
    "seat_count",
    "sole_leader",
    "table_deal",
]

S = TypeVar("S")
"""A game's state type."""

MAX_INITIAL_TOTAL = 10**9
"""Initial totals beyond this size are refused as malformed (each game's rule on initial totals)."""


class EndedHand(Protocol):
    """A game's ``HandEnded`` event as its views show it (each game's section 9): the hand, why it
    ended, its winner, and each seat's points and total."""

    @property
    def hand_no(self) -> int:
        """The hand's number in the match, from 1."""

    @property
    def reason(self) -> str:
        """Why the hand ended (the game's own reasons)."""

    @property
    def winner(self) -> int | None:
        """The hand's winner, None when it has none."""

    @property
    def hand_points(self) -> tuple[int, ...]:
        """Each seat's points of the hand."""

    @property
    def totals(self) -> tuple[int, ...]:
        """Each seat's match total after the hand."""


class EndedHandView(TypedDict):
    """The keys :func:`ended_hand_view` gives of the last hand (section 9 ``HandEnded``); a game's
    ``last_hand`` type adds its own."""

    hand_no: int
    reason: str
    """Why the hand ended (the game's own reasons)."""
    winner: int | None
    hand_points: list[int]
    totals: list[int]


def ended_hand_view(last: EndedHand) -> dict[str, Any]:
    """The plain-data summary of the last hand that a game's view shows (section 9 ``HandEnded``):
    ``{hand_no, reason, winner, hand_points: [...], totals: [...]}``, to which the game adds its own
    fields."""
    return {
        "hand_no": last.hand_no,
        "reason": last.reason,
        "winner": last.winner,
        "hand_points": list(last.hand_points),
        "totals": list(last.totals),
    }


class MatchView(TypedDict):
    """The keys of a view of a match played hand after hand to its winner (each game's section 9):
    whether the hand and the match are over, the winner and the options; a game's ``VIEW_TYPE``
    adds its own (a key's description is written in the game's own type, where the schema reads
    it)."""

    hand_over: bool
    match_over: bool
    winner: int | None
    options: OptionsPayload


class ScoredMatchView(MatchView):
    """The keys of a view of a match of players each on his own, dealt hand after hand from one
    stock and scored to a ``target_score`` (each game's section 9): the players, the hand and its
    dealers, the deal's commitment, the viewer's hand, the hand sizes, the stock and the scores; a
    game's ``VIEW_TYPE`` adds its own."""

    names: list[str]
    players: int
    hand_no: int
    dealer: int | None
    first_dealer: int
    next_dealer: int | None
    commitment: str | None
    explicit_deal: bool
    hand: list[CardCode]
    hand_sizes: list[int]
    stock_count: int
    hand_points: list[int]
    totals: list[int]
    target_score: int


class Phased(Protocol):
    """A game state that says where its match stands (``phase``, one of the game's own enum members)."""

    @property
    def phase(self) -> enum.Enum:
        """The phase of the match."""


@dataclass(frozen=True, slots=True)
class Phases:
    """The phases of a match played hand by hand, as a game names them in its own enum: before the
    first deal (``new``), while a hand is played (``playing``: one phase or more), between hands
    (``hand_over``) and after the match (``match_over``).  Its methods are the game's
    ``GameSpec.is_terminal``, ``needs_deal`` and ``hand_in_progress``.
    """

    new: enum.Enum
    playing: tuple[enum.Enum, ...]
    hand_over: enum.Enum
    match_over: enum.Enum

    def is_terminal(self, state: Phased) -> bool:
        """True when the match is over."""
        return state.phase is self.match_over

    def needs_deal(self, state: Phased) -> bool:
        """True when the table must issue ``next_hand``: before the first hand and between hands."""
        phase = state.phase
        return phase is self.new or phase is self.hand_over

    def hand_in_progress(self, state: Phased) -> bool:
        """True while a hand is played (from ``HandStarted`` until the hand ends)."""
        return state.phase in self.playing


class Acc(Generic[S]):
    """Events decided so far, with the state they lead to (so later decisions see earlier ones).

    The events are applied when :attr:`state` is asked for, not when emitted: a decision that reads
    no state after its last events never folds them (``decide`` returns the events; the caller
    applies them).  ``evolve`` is the game's own (``GameSpec.evolve``).
    """

    __slots__ = ("_applied", "_state", "events", "evolve")

    def __init__(self, state: S, evolve: Callable[[S, Event], S]) -> None:
        self._state = state
        self._applied = 0
        self.evolve = evolve
        self.events: list[Event] = []

    @property
    def state(self) -> S:
        """The state after every event emitted so far."""
        events = self.events
        if self._applied < len(events):
            state, evolve = self._state, self.evolve
            for event in events[self._applied :]:
                state = evolve(state, event)
            self._state, self._applied = state, len(events)
        return self._state

    def emit(self, event: Event) -> None:
        """Record ``event``; :attr:`state` applies it."""
        self.events.append(event)


def is_listed(state: Memo, command: object) -> bool:
    """True when ``command`` is one of the legal commands already worked out for ``state`` and kept
    in its memo slot (the very object the game's ``legal_commands`` listed, :class:`Memo`): it is
    legal, with no check to run again.  False for a state made by its constructor (no memo yet)."""
    try:
        legal = state.memo
    except AttributeError:  # a state made by its constructor
        return False
    if legal is not None:
        for listed in legal:
            if listed is command:
                return True
    return False


def seat_count(config: MatchConfig, game: str, min_players: int, max_players: int, rule: str) -> int:
    """The number of seats of a match of ``game``, checked against the game's range of players (its
    ``rule``, e.g. ``R2.3``).

    Raises:
        InvalidInput: fewer than ``min_players`` or more than ``max_players`` seats (``bad_seats``).
    """
    n = len(config.seats)
    if not min_players <= n <= max_players:
        raise InvalidInput(f"{game} needs {min_players} to {max_players} players, got {n} ({rule})", reason="bad_seats")
    return n


def dealer_and_totals(config: MatchConfig, n: int, totals_rule: str) -> tuple[int, tuple[int, ...]]:
    """The first dealer and the initial totals of a match of ``n`` seats that each score for
    themselves: ``config.first_dealer``, seat n-1 when not given (each game's R3.1), and
    ``config.initial_totals``, all 0 when not given (the game's ``totals_rule``).

    Raises:
        InvalidInput: a first dealer that is not a seat 0..n-1, or initial totals that are not n
            integers of at most :data:`MAX_INITIAL_TOTAL` in size (``bad_config``).
    """
    fd = config.first_dealer
    if fd is None:
        fd = n - 1
    if not is_int(fd) or not 0 <= fd < n:
        raise InvalidInput(f"first_dealer {fd!r} is not a seat 0..{n - 1} (R3.1)", reason="bad_config")
    raw = config.initial_totals
    totals: tuple[Any, ...] = (0,) * n if raw is None else tuple(raw)
    if len(totals) != n or any(not is_int(t) or abs(t) > MAX_INITIAL_TOTAL for t in totals):
        raise InvalidInput(
            f"initial totals {str(raw)[:80]}: expected {n} integers, one per seat ({totals_rule})", reason="bad_config"
        )
    return fd, tuple(totals)


def table_deal(events: Sequence[Event], i: int) -> Deal | None:
    """For an audit (``GameSpec.command_for``): the deal of the table's ``next_hand`` whose events
    start at ``events[i]`` -- a hand's start (:class:`~trapoula.domain.lifecycle.StartsHand`), or the
    ``MatchStarted`` right before the first one -- as the hand's start records it: its deck order
    and seed (each game's section 8, ``next_hand``).  None for any other event, and for a
    ``MatchStarted`` that no hand's start follows.

    Raises:
        InvalidInput: a recorded deck code that does not parse (``bad_card``).
    """
    event: Event | None = events[i]
    if isinstance(event, MatchStarted):
        event = events[i + 1] if i + 1 < len(events) else None
    if isinstance(event, StartsHand):
        return Deal(order=parse_cards(event.deck), seed=event.seed)
    return None


def sole_leader(totals: Sequence[int], target: int) -> int | None:
    """The seat whose total alone is the highest and reaches ``target``: the winner of a match played
    to a target where a tie for the lead plays on (each such game's match-end rule); None while no
    seat is.

    >>> sole_leader((120, 205, 90), 200), sole_leader((205, 205, 90), 200), sole_leader((120, 150), 200)
    (1, None, None)
    """
    top = max(totals)
    if top >= target and totals.count(top) == 1:
        return totals.index(top)
    return None


Decision = Callable[[S, Any], tuple[Event, ...]]
"""How a game decides one kind of command (``_decide_play`` ...)."""


def dispatch(game: str, kinds: Mapping[type, Decision[S]]) -> Callable[[S, Any], tuple[Event, ...]]:
    """A game's ``decide``: each command handed to the function of its class in ``kinds`` (command
    class -> how the game decides it; a subclass of a class in it as that class), which validates
    it and returns the events it causes (section 8 of each game's rules).

    >>> from trapoula.domain.game import SeatCommand
    >>> class Pass(SeatCommand, kind="pass"): ...
    >>> class Draw(SeatCommand, kind="draw"): ...
    >>> decide = dispatch("example", {Pass: lambda state, cmd: ("passed", cmd.seat)})
    >>> decide(None, Pass(2))
    ('passed', 2)
    >>> decide(None, Draw(2))
    Traceback (most recent call last):
    ...
    AssertionError: example: Draw(seat=2) is not a command of the game

    Raises:
        CommandRejected: (from ``decide``) the rules refuse the command; ``reason`` and ``rule`` name why.
    """
    table = dict(kinds)
    lookup = table.get

    def decide(state: S, command: Any) -> tuple[Event, ...]:
        handle = lookup(type(command))
        if handle is None:
            handle = next((table[k] for k in type(command).__mro__ if k in table), None)
            if handle is None:
                raise AssertionError(f"{game}: {command!r} is not a command of the game")
        return handle(state, command)

    return decide
