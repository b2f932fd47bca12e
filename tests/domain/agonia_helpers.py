"""Given / when / then for Agonia rule tests (STYLE habit 11a/b).

A :class:`Table` is a match driven only through the generic :class:`~trapoula.domain.game.GameSpec`
interface: *given* an explicit deal (card codes written in the test, S5.3), *when* a seat issues a
command, *then* the test compares the returned events with the expected ones, or checks that a
refusal names its reason code and rule number and changes nothing (S11).

The small builders (:func:`played`, :func:`drew`, :func:`turn` ...) write the expected events.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from shedding_helpers import ALL_CODES as ALL_CODES
from shedding_helpers import ShedTable
from shedding_helpers import drew as drew
from shedding_helpers import names as names
from shedding_helpers import passed as passed
from shedding_helpers import reshuffled as reshuffled
from shedding_helpers import turn as turn

from trapoula.domain.cards import codes
from trapoula.domain.events import Event
from trapoula.domain.games.agonia import SPEC
from trapoula.domain.games.agonia.commands import Command, Play
from trapoula.domain.games.agonia.events import AnnouncementMissed, SuitChosen
from trapoula.domain.games.shedding.events import (
    CardPlayed,
    HandEnded,
    SeedRevealed,
    TurnSkipped,
)

NAMES = ("ann", "bob", "cat", "dan", "eve")
"""Display names of seats 0-4 (a fifth, to show that five players are refused)."""


class Table(ShedTable):
    """One Agonia match, driven through ``SPEC`` like the service drives it.

    ``state`` is the folded state; ``log`` every event so far.
    """

    spec = SPEC
    seat_names = NAMES
    players = 4

    # ------------------------------------------------------------------ given

    # ------------------------------------------------------------------ when

    def choose(self, seat: int, suit: str) -> tuple[Event, ...]:
        """``choose_suit {suit}``."""
        return self.apply(self.command("choose_suit", seat, suit=suit))

    def draw_and_pass(self, turns: int) -> None:
        """``turns`` turns in a row in which the seat to act draws one card and passes."""
        for _ in range(turns):
            seat = self.to_act
            assert seat is not None
            self.draw(seat)
            self.pass_(seat)

    # ------------------------------------------------------------------ then

    def offered(self, command: Command, legal: Sequence[Command]) -> bool:
        """A play is offered whatever its announcement (R7.5.1-R7.5.3 accept it either way)."""
        if isinstance(command, Play):
            return any(isinstance(c, Play) and (c.card, c.suit) == (command.card, command.suit) for c in legal)
        return command in legal

    @property
    def stock(self) -> str:
        """The stock, top first, space-separated."""
        return " ".join(codes(self.state.stock))


# ---------------------------------------------------------------------- expected events


def played(
    seat: int, card: str, active: str, *, declared: str | None = None, pending: int = 0, announce: bool = False
) -> CardPlayed:
    """The ``CardPlayed`` event expected for a play (S6.4)."""
    return CardPlayed(
        seat=seat, card=card, declared_suit=declared, active_suit=active, announce=announce, pending_draw=pending
    )


def skipped(seat: int, reason: str) -> TurnSkipped:
    """``TurnSkipped``: ``seat`` loses its turn (S3.4)."""
    return TurnSkipped(seat=seat, reason=reason)


def missed(seat: int, cards_left: int, penalty: str) -> AnnouncementMissed:
    """``AnnouncementMissed`` (R7.5.2)."""
    return AnnouncementMissed(seat=seat, cards_left=cards_left, penalty=penalty)


def chosen(seat: int, suit: str) -> SuitChosen:
    """``SuitChosen`` (R7.2.2)."""
    return SuitChosen(seat=seat, suit=suit)


def went_out(
    winner: int, hands: tuple[tuple[str, ...], ...], hand_points: tuple[int, ...], totals: tuple[int, ...]
) -> tuple[HandEnded, SeedRevealed]:
    """The events that end a hand of an explicit deal when ``winner`` goes out (R6.1): ``HandEnded``
    (reason ``out``) with each seat's cards left, points and totals, then ``SeedRevealed`` with no
    seed and no reshuffle (S5.3)."""
    return (
        HandEnded(reason="out", winner=winner, hands=hands, hand_points=hand_points, totals=totals),
        SeedRevealed(seed=None, reshuffle_orders=()),
    )


# ---------------------------------------------------------------------- shared scenarios

S1_HAND = "2D 3D 4D 5D 6D 7D TD"
"""Seat 1's hand in :func:`down_to_one`: 2+3+4+5+6+7+10 = 37 points."""
CHAIN_NINES_LAST = ("8C", "8D", "8H", "8S", "9S", "9H")
CHAIN_EIGHTS_LAST = ("9C", "9D", "9H", "9S", "8S", "8H")


def down_to_one(
    last: str,
    chain: Sequence[str] = CHAIN_NINES_LAST,
    options: Mapping[str, Any] | None = None,
    stock: str = "",
) -> Table:
    """Two players, up-card 2C: seat 0 plays six eights and nines in one turn (R5.3.1, R5.4.2)
    and is still to act holding only ``last``; seat 1 holds ``S1_HAND`` (37 points).

    ``CHAIN_NINES_LAST`` (8C 8D 8H 8S 9S 9H) leaves 9H on top; ``CHAIN_EIGHTS_LAST``
    (9C 9D 9H 9S 8S 8H) leaves 8H on top.
    """
    t = Table(2, options=options)
    t.deal([" ".join([*chain, last]), S1_HAND], "2C", stock)
    for card in chain:
        t.play(0, card)
    assert (t.hand(0), t.to_act) == (last, 0)
    return t


def quick_out(table: Table, others: Sequence[str] | None = None) -> tuple[Event, ...]:
    """Deal a hand in which the first player goes out fast, and play it out; return its last events.

    Up-card 2S.  The first player P holds ``8S 8H 8D 8C 9C 9D KD``: 8S (on 2S) 8H 8D 8C (each an
    8: play again, R5.3.1) 9C (a 9 skips P+1, R5.4.1; with two players P plays again, R5.4.2);
    every other seat in turn draws a card and passes; P plays 9D the same way, then KD, his last
    card (R6.1).  ``others``: the hands of the other seats from P+1 on (default: the canonical
    leftovers, seven each).
    """
    st = table.state
    n = st.n
    dealer = table.state.config.first_dealer if st.phase.value == "new" else (st.dealer + 1) % n
    if dealer is None:
        dealer = n - 1
    first = (dealer + 1) % n
    runner = "8S 8H 8D 8C 9C 9D KD"
    if others is None:
        pool = [c for c in ALL_CODES if c not in runner.split() and c != "2S"]
        others = [" ".join(pool[7 * i : 7 * i + 7]) for i in range(n - 1)]
    hands = [""] * n
    hands[first] = runner
    for i, h in enumerate(others):
        hands[(first + 1 + i) % n] = h
    table.deal(hands, "2S")
    for card in ("8S", "8H", "8D", "8C"):
        table.play(first, card)
    last: tuple[Event, ...] = ()
    for card in ("9C", "9D", "KD"):
        while table.to_act != first:
            table.draw_and_pass(1)
        last = table.play(first, card)
    return last


# Seat 0: every spade and heart but 3H, plus 2D = 95 + 92 + 2 = 189 points in all.
# Seat 1: every club but 2C, every diamond but 2D, plus 3H = 93 + 93 + 3 = 189.
T_HANDS = ["2S 3S 4S 5S 6S 7S 8S", "3C 4C 5C 6C 7C 8C 9C"]
T_STOCK = (
    "9S TC TS JC JS QC QS KC KS AC AS 3D 2H 4D 4H 5D 5H 6D 6H 7D 7H 8D 8H 9D 9H TD TH JD JH QD QH KD KH AD AH 3H 2D"
)
T_FINAL = [
    "2D 2H 4H 5H 6H 7H 8H 9H TH JH QH KH AH 2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS AS",
    "3C 4C 5C 6C 7C 8C 9C TC JC QC KC AC 3D 4D 5D 6D 7D 8D 9D TD JD QD KD AD 3H",
]


def table_t(options: Mapping[str, Any] | None = None, turns: int = 37) -> Table:
    """Two players, hands ``T_HANDS``, up-card 2C, stock ``T_STOCK``; ``turns`` turns of
    draw-and-pass with no card played.  After all 37, the stock is empty, the discard pile holds only
    2C, the hands are ``T_FINAL`` (189 points each) and seat 1 is to act."""
    t = Table(2, options=options)
    t.deal(T_HANDS, "2C", T_STOCK, fill=False)
    t.draw_and_pass(turns)
    return t
