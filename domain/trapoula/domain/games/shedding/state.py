"""The state every shedding game shares (S4): frozen, tuples only (STYLE habit 1).

A game's state subclasses :class:`ShedState`, adding its own per-turn flags and options; it is
built only by the game's ``evolve`` (with the helpers of :mod:`~trapoula.domain.games.shedding.engine`).
"""

from __future__ import annotations

import enum
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from typing import Annotated, Any, TypedDict

from trapoula.domain.cards import Card, CardCode, Suit, SuitCode, codes
from trapoula.domain.game import MatchConfig
from trapoula.domain.games.frozen import Memo, remember_last
from trapoula.domain.wire import CommandPayload, OptionsPayload, Wire, values_of


@cache
def _seats(n: int) -> frozenset[int]:
    """Seat numbers 0..n-1."""
    return frozenset(range(n))


class Phase(enum.Enum):
    """Where the match stands."""

    NEW = "new"
    """Configured; no hand dealt yet (a deal is due)."""
    PLAYING = "playing"
    """A hand is in progress."""
    HAND_OVER = "hand_over"
    """A hand ended and the match did not (a deal is due)."""
    MATCH_OVER = "match_over"
    """The match is decided."""


NEW, PLAYING, HAND_OVER, MATCH_OVER = Phase.NEW, Phase.PLAYING, Phase.HAND_OVER, Phase.MATCH_OVER
PHASE_VALUES: dict[Phase, str] = {phase: phase.value for phase in Phase}
"""Phase -> its value as views show it (``phase.value`` without the enum's descriptor)."""
"""The phases as module constants: reading a member off its enum class costs a slow class
attribute look-up (no specialisation for a class with a metaclass), the rules' hot paths read these."""


@dataclass(frozen=True, slots=True)
class ShedState(Memo):
    """The zones and public state of a shedding match (S4.1, S4.2), including the hand in progress.

    A game may keep on a state what it works out about it (its legal commands) in the
    :class:`~trapoula.domain.games.frozen.Memo` slot.
    """

    config: MatchConfig
    n: int
    """Number of seat numbers in use: the configured seats, more when players join (R6.9.2)."""
    phase: Phase = Phase.NEW
    hand_no: int = 0
    dealer: int = -1
    """Dealer of the current (or last) hand; -1 before the first."""
    first_player: int = 0
    totals: tuple[int, ...] = ()
    last_winner: int | None = None
    """Who went out in the previous hand, None after a blocked hand (or before the first)."""
    match_winner: int | None = None
    hands: tuple[tuple[Card, ...], ...] = ()
    """Each seat's hand, in canonical order (S2.3): dealt so, and each drawn card put in its place."""
    stock: tuple[Card, ...] = ()
    """Top first."""
    discard: tuple[Card, ...] = ()
    """Bottom first: the last card is the top card."""
    active_suit: Suit | None = None
    pending_draw: int = 0
    to_act: int | None = None
    direction: int = 1
    """+1 clockwise, -1 counter-clockwise (S3.1, S3.5)."""
    vacant: frozenset[int] = frozenset()
    """Seats taking no part in the hand in progress (S3.2)."""
    drawn: bool = False
    """A voluntary card was drawn this turn (S7.2)."""
    turn_active: bool = False
    """A card was played or drawn this turn (for the blocked-hand count, S10.4)."""
    idle_turns: int = 0
    """Turns in a row ended without playing or drawing a card (S10.4)."""
    seed: str | None = None
    """Secret seed of the hand in progress (None for an explicit deal)."""
    reshuffle_seed: str = ""
    """What reshuffle orders derive from: the seed, or the explicit deck's hash (S8.5)."""
    explicit_reshuffles: tuple[tuple[Card, ...], ...] = ()
    reshuffle_orders: tuple[tuple[Card, ...], ...] = ()
    """Orders of the reshuffles done in this hand, for ``SeedRevealed``."""
    commitment: str = ""
    explicit_deal: bool = False
    last_hand_points: tuple[int | None, ...] = ()
    """Per seat; None for a seat not in the last hand (R2.5)."""
    last_hands: tuple[tuple[Card, ...], ...] = ()
    last_reason: str = ""
    names: tuple[str, ...] = ()
    """Display name per seat (``MatchStarted``, then ``PlayerJoined``); empty before ``MatchStarted``
    unless the game fills it from the configuration."""
    bots: tuple[str | None, ...] = ()
    """Computer level per seat, None for a person (same sources as ``names``)."""
    left: frozenset[int] = frozenset()
    """Seats whose player left the match (R6.10): vacant, their totals out of the standings."""
    eliminated: frozenset[int] = frozenset()
    """Seats whose player was eliminated (R6.6): vacant, their final totals kept."""
    match_started: bool = False
    """``MatchStarted`` has been recorded."""

    @property
    def seated(self) -> frozenset[int]:
        """Seats with a player in the match (S3.2): neither left (R6.10) nor eliminated (R6.6)."""
        every = _seats(self.n)
        if not self.left and not self.eliminated:
            return every
        return every - self.left - self.eliminated

    @property
    def in_hand(self) -> frozenset[int]:
        """Seats taking part in the hand in progress (or the last one), less those that left it (S3.2)."""
        return _seats(self.n) - self.vacant if self.vacant else _seats(self.n)

    def seat_after(self, seat: int, among: frozenset[int]) -> int:
        """The first seat of ``among`` clockwise after ``seat`` (S3.3, R3.2); ``seat`` if none other is."""
        for step in range(1, self.n + 1):
            nxt = (seat + step) % self.n
            if nxt in among:
                return nxt
        return seat

    @property
    def top_card(self) -> Card | None:
        """The top card of the discard pile."""
        return self.discard[-1] if self.discard else None

    def next_seat(self, seat: int) -> int:
        """The nearest seat after ``seat`` in the current direction that takes part in the hand (S3.2)."""
        nxt = (seat + self.direction) % self.n
        if self.vacant:
            for _ in range(self.n):
                if nxt not in self.vacant:
                    break
                nxt = (nxt + self.direction) % self.n
        return nxt

    def can_draw(self) -> bool:
        """True unless the stock is empty and the discard pile holds only its top card (S7.3).

        A game that never reshuffles (S8.2) checks the stock alone (``engine.can_draw``).
        """
        return bool(self.stock) or len(self.discard) > 1


Parts = tuple[
    tuple[int, ...], str | None, str | None, tuple[str, ...], tuple[str, ...], tuple[tuple[str, ...], ...] | None
]
"""What :func:`public_parts` returns: hand sizes, top card, active suit, discard pile, names, last hands."""


@remember_last
def public_parts(state: ShedState) -> Parts:
    """What every viewer's view of an agonia or crazy_eights table shows of ``state``, as immutable
    values computed once for the views of all viewers (S13): hand sizes, the top card, the active
    suit, the discard pile, the names, and the last hand's hands once it is over (S10.5), else None."""
    top = state.top_card
    last = None
    if state.phase in (Phase.HAND_OVER, Phase.MATCH_OVER) and state.last_hands:
        last = tuple(codes(h) for h in state.last_hands)
    return (
        tuple(len(h) for h in state.hands),
        top.code if top else None,
        state.active_suit.value if state.active_suit else None,
        codes(state.discard),
        tuple(s.name for s in state.config.seats),
        last,
    )


def turn_keys(state: ShedState) -> dict[str, Any]:
    """Where the hand stands, as a shedding game's view shows it (S13.1): ``phase, hand_no, dealer,
    first_player, to_act``, in that order."""
    return {
        "phase": PHASE_VALUES[state.phase],
        "hand_no": state.hand_no,
        "dealer": state.dealer,
        "first_player": state.first_player,
        "to_act": state.to_act,
    }


def shed_keys(state: ShedState, viewer: int | None, parts: Parts, **after_turn: Any) -> dict[str, Any]:
    """The keys an agonia or crazy_eights view shows ``viewer`` of the hand and the table (S13.1),
    from ``parts`` (:func:`public_parts` of ``state``): :func:`turn_keys`, a game's own
    ``after_turn``, then ``seat, hand_sizes, top_card, active_suit, discard, stock_count,
    pending_draw, drawn_this_turn, direction, totals``, in that order."""
    sizes, top, active, discard = parts[:4]
    return {
        **turn_keys(state),
        **after_turn,
        "seat": viewer,
        "hand_sizes": list(sizes),
        "top_card": top,
        "active_suit": active,
        "discard": list(discard),
        "stock_count": len(state.stock),
        "pending_draw": state.pending_draw,
        "drawn_this_turn": state.drawn,
        "direction": state.direction,
        "totals": list(state.totals),
    }


class LastHandView(TypedDict):
    """The ``last_hand`` of a shedding game's view once a hand is over (S10.5, S13.1; :func:`last_hand_view`)."""

    reason: str
    """Why the hand ended (the ``HandEnded`` reason)."""
    winner: int | None
    """Who went out, None for a blocked hand."""
    hands: list[list[CardCode]]
    """Each seat's cards left, revealed (S10.5)."""
    hand_points: list[int | None]
    """Each seat's points of the hand (null for a seat not in it, ``mau_mau`` R2.5)."""


class ShedView(TypedDict):
    """The keys of an ``agonia`` or ``crazy_eights`` view (S13.1, S13.2); each game's ``VIEW_TYPE``
    adds its own."""

    phase: Annotated[str, values_of(Phase)]
    hand_no: int
    """0 before the first hand."""
    dealer: int
    """-1 before the first hand."""
    first_player: int
    to_act: int | None
    seat: int | None
    """The viewer: a seat, or null for a spectator."""
    hand_sizes: list[int]
    top_card: CardCode | None
    active_suit: SuitCode | None
    discard: list[CardCode]
    """The discard pile, bottom first."""
    stock_count: int
    pending_draw: int
    drawn_this_turn: bool
    direction: Annotated[int, Wire(enum=[1, -1])]
    """+1 clockwise, -1 reversed."""
    totals: list[int]
    commitment: str | None
    """The hand's commitment (S5.1), null before the first hand."""
    explicit_deal: bool
    match_winner: int | None
    options: OptionsPayload
    names: list[str]
    legal: list[CommandPayload]
    """The viewer's legal commands; empty for a spectator."""


def last_hand_view(state: ShedState, hands: Sequence[Sequence[str]], hand_points: list[Any]) -> dict[str, Any]:
    """The ``last_hand`` of a shedding game's view once a hand is over (S10.5, S13.1): its reason,
    its winner, each seat's cards left (``hands``) and each seat's ``hand_points``, in that order."""
    return {
        "reason": state.last_reason,
        "winner": state.last_winner,
        "hands": [list(h) for h in hands],
        "hand_points": hand_points,
    }


_last_context: tuple[object, int, str] = (None, 0, "")
"""The state and seat :func:`refusal_context` described last, and its text."""


def refusal_context(game: str, state: ShedState, seat: int) -> str:
    """``(game, hand N, seat S, to act T)``: the context every refusal message of a shedding game
    ends with (STYLE habit 5), remembered for the last state and seat, since one legality check
    refuses many commands of one seat in one state (a state belongs to one game, so ``game`` is
    not part of the key).

    >>> refusal_context("agonia", ShedState(config=MatchConfig("agonia", ()), n=2), 1)
    '(agonia, hand 0, seat 1, to act None)'
    """
    global _last_context
    last = _last_context
    if last[0] is state and last[1] == seat:
        return last[2]
    text = f"({game}, hand {state.hand_no}, seat {seat}, to act {state.to_act})"
    _last_context = (state, seat, text)  # one assignment: a concurrent reader sees an old triple or the new one
    return text
