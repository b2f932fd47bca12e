"""Given / when / then for Crazy Eights rule tests (STYLE habit 11a/b).

A :class:`Table` is a match driven only through the generic :class:`~trapoula.domain.game.GameSpec`
interface: *given* an explicit deal (card codes written in the test, S5.3), *when* a seat issues a
command, *then* the test compares the returned events with the expected ones, or checks that a
refusal names its reason code and rule number, changes nothing and is not offered by
``legal_commands`` (S11).

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
from trapoula.domain.games.crazy_eights import SPEC, CrazyEightsState
from trapoula.domain.games.crazy_eights.commands import Command
from trapoula.domain.games.crazy_eights.events import StarterBuried
from trapoula.domain.games.shedding.events import (
    CardPlayed,
    CardsDrawn,
    DirectionReversed,
    Passed,
    StarterTurned,
    TurnSkipped,
    TurnStarted,
)

NAMES = ("ann", "bob", "cat", "dan", "eve", "fay", "gus", "hal")
"""Display names of seats 0-7 (an eighth, to show that eight players are refused)."""

ALL_CODES: tuple[str, ...] = codes(deck_52())
"""The 52 codes in canonical order (S2.3): 2C 3C ... AC 2D ... AS."""

ALL_OPTIONS: dict[str, Any] = {
    "twos_draw_two": True,
    "queen_spades_draw_five": True,
    "jacks_skip": True,
    "aces_reverse": True,
    "draw_until_playable": True,
}
"""The five optional rules of R5.2-R5.6, all on."""


class Table(ShedTable):
    """One Crazy Eights match, driven through ``SPEC`` like the service drives it.

    ``state`` is the folded state; ``log`` every event so far.
    """

    spec = SPEC

    def __init__(
        self,
        players: int = 2,
        *,
        options: Mapping[str, Any] | None = None,
        first_dealer: int | None = None,
        initial_totals: Sequence[int] | None = None,
    ) -> None:
        config = MatchConfig(
            game="crazy_eights",
            seats=tuple(SeatInfo(i, NAMES[i]) for i in range(players)),
            options=dict(options or {}),
            first_dealer=first_dealer,
            initial_totals=tuple(initial_totals) if initial_totals is not None else None,
        )
        self.state: CrazyEightsState = SPEC.initial_state(config)
        self.log: list[Event] = []

    # ------------------------------------------------------------------ given

    def explicit(self, hands: Sequence[str], starter: str, stock: str = "", *, fill: bool = True) -> Deal:
        """The explicit deal (S5.3) of the next hand.

        ``hands``: one space-separated string of codes per seat (7 each with two players, 5 with
        more, R3.2); ``stock``: the top of the stock, top first; with ``fill`` the cards not named
        anywhere follow beneath it in canonical order (S2.3).
        """
        hand_lists = [h.split() for h in hands]
        stock_list = stock.split()
        if fill:
            named = {c for h in hand_lists for c in h} | {starter} | set(stock_list)
            stock_list += [c for c in ALL_CODES if c not in named]
        return SPEC.explicit_deal(self.state, {"hands": hand_lists, "starter": starter, "stock": stock_list})

    def deal(self, hands: Sequence[str], starter: str, stock: str = "", *, fill: bool = True) -> tuple[Event, ...]:
        """Deal the next hand explicitly (``next_hand`` with a deal, S5.3); see :meth:`explicit`."""
        return self.apply(SPEC.deal_command(self.state, self.explicit(hands, starter, stock, fill=fill)))

    def seeded(self, seed: str) -> tuple[Event, ...]:
        """Deal the next hand from ``seed`` (S5.1)."""
        return self.apply(SPEC.deal_command(self.state, Deal.from_seed(SPEC.deck(self.state), seed)))

    def given(self, *events: Event) -> None:
        """Fold ``events`` as facts of the hand, without deciding them (STYLE habit 11a: given)."""
        for event in events:
            self.state = SPEC.evolve(self.state, event)
        self.log.extend(events)

    # ------------------------------------------------------------------ when

    def command(self, kind: str, seat: int, **fields: Any) -> Command:
        """Parse a seat command from plain data, as the service does."""
        return SPEC.parse_command({"kind": kind, "seat": seat, **fields})

    def play(self, seat: int, card: str, suit: str | None = None) -> tuple[Event, ...]:
        """``play {card, suit?}``."""
        fields: dict[str, Any] = {"card": card}
        if suit is not None:
            fields["suit"] = suit
        return self.apply(self.command("play", seat, **fields))

    # ------------------------------------------------------------------ then

    def rejects_play(self, reason: str, rule: str, seat: int, card: str, suit: str | None = None) -> CommandRejected:
        """:meth:`rejects` for a ``play``."""
        fields: dict[str, Any] = {"card": card}
        if suit is not None:
            fields["suit"] = suit
        return self.rejects(reason, rule, self.command("play", seat, **fields))

    @property
    def stock(self) -> str:
        """The stock, top first, space-separated."""
        return " ".join(codes(self.state.stock))

    def kinds(self, seat: int) -> list[str]:
        """The legal commands of ``seat`` written short: ``7H``, ``8S/H`` (an 8 naming hearts),
        ``draw``, ``pass``."""
        out = []
        for c in self.legal(seat):
            if c["kind"] == "play":
                out.append(c["card"] + (f"/{c['suit']}" if "suit" in c else ""))
            else:
                out.append(c["kind"])
        return out


# ---------------------------------------------------------------------- expected events


def played(
    seat: int, card: str, active: str | None = None, *, declared: str | None = None, pending: int = 0
) -> CardPlayed:
    """The ``CardPlayed`` event expected for a play (S6.4); ``active`` defaults to the card's suit."""
    return CardPlayed(
        seat=seat,
        card=card,
        declared_suit=declared,
        active_suit=active or declared or card[1],
        announce=False,
        pending_draw=pending,
    )


def drew(seat: int, cards: str, reason: str = "draw") -> CardsDrawn:
    """The ``CardsDrawn`` event of ``seat`` drawing ``cards`` (space-separated, in drawing order)."""
    drawn = tuple(cards.split())
    return CardsDrawn(seat=seat, cards=drawn, count=len(drawn), reason=reason)


def turned(card: str) -> StarterTurned:
    """``StarterTurned``: an up-card with no effect (R3.4)."""
    return StarterTurned(card=card, active_suit=card[1], pending_draw=0, chooser=None)


def buried(card: str, position: int) -> StarterBuried:
    """``StarterBuried`` (R3.3)."""
    return StarterBuried(card=card, position=position)


def turn(seat: int) -> TurnStarted:
    """``TurnStarted``: ``seat`` has a (new) turn (S3.6, S3.7)."""
    return TurnStarted(seat=seat)


def skipped(seat: int) -> TurnSkipped:
    """``TurnSkipped`` for a jack (R5.4.1)."""
    return TurnSkipped(seat=seat, reason="jack")


def reversed_to(direction: int) -> DirectionReversed:
    """``DirectionReversed`` (R5.5.1)."""
    return DirectionReversed(direction=direction)


def passed(seat: int) -> Passed:
    """``Passed`` (S11)."""
    return Passed(seat=seat)


def names(events: Sequence[Event]) -> list[str]:
    """The event names, in order."""
    return [e.event_name() for e in events]


def rest_of_deck(*used: str) -> list[str]:
    """The codes not in ``used`` (space-separated strings), canonical order (S2.3)."""
    taken = {c for u in used for c in u.split()}
    return [c for c in ALL_CODES if c not in taken]


def exhaust_stock(table: Table, keep: int = 0) -> None:
    """Both players of a two-player table draw and pass in turn until the stock holds ``keep``
    cards (R4.3).  The draws must not hand anyone a card the test relies on."""
    while len(table.state.stock) > keep:
        seat = table.to_act
        assert seat is not None
        table.draw(seat)
        table.pass_(seat)


def arrange(table: Table, hands: Sequence[str], discard: str, to_act: int, *, active: str | None = None) -> None:
    """Given the events leading, after the deal, to a position with an empty stock (S4.1, R4.5).

    Seat ``s`` then holds ``hands[s]``; the discard pile is ``discard`` (bottom first, starting with
    the up-card) with ``active`` as active suit (default: the top card's suit); ``to_act`` is to
    play.  The stock is drawn top first, each card by the seat that ends up holding it, or by seat
    0 which then plays it; a dealt card missing from its seat's final hand is played by that seat.
    """
    st = table.state
    n = st.n
    dealt = [set(codes(h)) for h in st.hands]
    final = [h.split() for h in hands]
    pile = discard.split()
    assert pile[0] == st.discard[0].code, "the discard pile starts with the up-card"
    events: list[Event] = []
    for card in codes(st.stock):
        owner = next((s for s in range(n) if card in final[s]), 0)
        events.append(drew(owner, card))
    for card in pile[1:]:
        owner = next((s for s in range(n) if card in dealt[s]), 0)
        suit = active if active is not None and card == pile[-1] else card[1]
        events.append(played(owner, card, suit))
    events.append(turn(to_act))
    table.given(*events)
    for s in range(n):
        assert table.hand(s) == " ".join(sorted(final[s], key=ALL_CODES.index)), f"seat {s} holds {table.hand(s)}"
    assert not table.state.stock
    assert [c.code for c in table.state.discard] == pile
