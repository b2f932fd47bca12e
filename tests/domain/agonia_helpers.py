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

from shedding_helpers import ShedTable

from trapoula.domain.cards import codes, deck_52
from trapoula.domain.deal import Deal
from trapoula.domain.errors import CommandRejected
from trapoula.domain.events import Event
from trapoula.domain.game import MatchConfig, SeatInfo
from trapoula.domain.games.agonia import SPEC, AgoniaState
from trapoula.domain.games.agonia.commands import Command, Play
from trapoula.domain.games.agonia.events import AnnouncementMissed, SuitChosen
from trapoula.domain.games.shedding.events import (
    CardPlayed,
    CardsDrawn,
    Passed,
    StockReshuffled,
    TurnSkipped,
    TurnStarted,
)

NAMES = ("ann", "bob", "cat", "dan", "eve")
"""Display names of seats 0-4 (a fifth, to show that five players are refused)."""

ALL_CODES: tuple[str, ...] = codes(deck_52())
"""The 52 codes in canonical order (S2.3): 2C 3C ... AC 2D ... AS."""


class Table(ShedTable):
    """One Agonia match, driven through ``SPEC`` like the service drives it.

    ``state`` is the folded state; ``log`` every event so far.
    """

    spec = SPEC

    def __init__(
        self,
        players: int = 4,
        *,
        options: Mapping[str, Any] | None = None,
        first_dealer: int | None = None,
        initial_totals: Sequence[int] | None = None,
    ) -> None:
        config = MatchConfig(
            game="agonia",
            seats=tuple(SeatInfo(i, NAMES[i]) for i in range(players)),
            options=dict(options or {}),
            first_dealer=first_dealer,
            initial_totals=tuple(initial_totals) if initial_totals is not None else None,
        )
        self.state: AgoniaState = SPEC.initial_state(config)
        self.log: list[Event] = []

    # ------------------------------------------------------------------ given

    def explicit(
        self,
        hands: Sequence[str],
        starter: str,
        stock: str = "",
        reshuffles: Sequence[str] | None = None,
        *,
        fill: bool = True,
    ) -> Deal:
        """The explicit deal (S5.3) of the next hand.

        ``hands``: one space-separated string of seven codes per seat; ``stock``: the top of the
        stock, top first; with ``fill`` the cards not named anywhere follow beneath it in canonical
        order (S2.3).  ``reshuffles``: the orders of reshuffles 1, 2, ... (S8.5), top first.
        """
        hand_lists = [h.split() for h in hands]
        stock_list = stock.split()
        if fill:
            named = {c for h in hand_lists for c in h} | {starter} | set(stock_list)
            stock_list += [c for c in ALL_CODES if c not in named]
        raw: dict[str, Any] = {"hands": hand_lists, "starter": starter, "stock": stock_list}
        if reshuffles is not None:
            raw["reshuffles"] = [r.split() for r in reshuffles]
        return SPEC.explicit_deal(self.state, raw)

    def deal(
        self,
        hands: Sequence[str],
        starter: str,
        stock: str = "",
        reshuffles: Sequence[str] | None = None,
        *,
        fill: bool = True,
    ) -> tuple[Event, ...]:
        """Deal the next hand explicitly (``next_hand`` with a deal, S5.3); see :meth:`explicit`."""
        deal = self.explicit(hands, starter, stock, reshuffles, fill=fill)
        return self.apply(SPEC.deal_command(self.state, deal))

    def seeded(self, seed: str) -> tuple[Event, ...]:
        """Deal the next hand from ``seed`` (S5.1)."""
        return self.apply(SPEC.deal_command(self.state, Deal.from_seed(SPEC.deck(self.state), seed)))

    # ------------------------------------------------------------------ when

    def command(self, kind: str, seat: int, **fields: Any) -> Command:
        """Parse a seat command from plain data, as the service does."""
        return SPEC.parse_command({"kind": kind, "seat": seat, **fields})

    def play(self, seat: int, card: str, suit: str | None = None, announce: bool | None = None) -> tuple[Event, ...]:
        """``play {card, suit?, announce?}``."""
        fields: dict[str, Any] = {"card": card}
        if suit is not None:
            fields["suit"] = suit
        if announce is not None:
            fields["announce"] = announce
        return self.apply(self.command("play", seat, **fields))

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

    def rejects_play(
        self, reason: str, rule: str, seat: int, card: str, suit: str | None = None, announce: bool | None = None
    ) -> CommandRejected:
        """:meth:`rejects` for a ``play``."""
        fields: dict[str, Any] = {"card": card}
        if suit is not None:
            fields["suit"] = suit
        if announce is not None:
            fields["announce"] = announce
        return self.rejects(reason, rule, self.command("play", seat, **fields))

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


def drew(seat: int, cards: str, reason: str = "draw") -> CardsDrawn:
    """The ``CardsDrawn`` event of ``seat`` drawing ``cards`` (space-separated, in drawing order)."""
    drawn = tuple(cards.split())
    return CardsDrawn(seat=seat, cards=drawn, count=len(drawn), reason=reason)


def turn(seat: int) -> TurnStarted:
    """``TurnStarted``: ``seat`` has a (new) turn (S3.6, S3.7)."""
    return TurnStarted(seat=seat)


def skipped(seat: int, reason: str) -> TurnSkipped:
    """``TurnSkipped``: ``seat`` loses its turn (S3.4)."""
    return TurnSkipped(seat=seat, reason=reason)


def passed(seat: int) -> Passed:
    """``Passed`` (S11)."""
    return Passed(seat=seat)


def reshuffled(k: int, order: str) -> StockReshuffled:
    """``StockReshuffled``: reshuffle ``k`` put ``order`` (top first) beneath the stock (S8)."""
    cards = tuple(order.split())
    return StockReshuffled(k=k, count=len(cards), order=cards)


def missed(seat: int, cards_left: int, penalty: str) -> AnnouncementMissed:
    """``AnnouncementMissed`` (R7.5.2)."""
    return AnnouncementMissed(seat=seat, cards_left=cards_left, penalty=penalty)


def chosen(seat: int, suit: str) -> SuitChosen:
    """``SuitChosen`` (R7.2.2)."""
    return SuitChosen(seat=seat, suit=suit)


def names(events: Sequence[Event]) -> list[str]:
    """The event names, in order."""
    return [e.event_name() for e in events]


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
