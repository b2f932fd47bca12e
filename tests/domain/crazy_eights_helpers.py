"""Given / when / then for Crazy Eights rule tests (STYLE habit 11a/b).

A :class:`Table` is a match driven only through the generic :class:`~trapoula.domain.game.GameSpec`
interface: *given* an explicit deal (card codes written in the test, S5.3), *when* a seat issues a
command, *then* the test compares the returned events with the expected ones, or checks that a
refusal names its reason code and rule number, changes nothing and is not offered by
``legal_commands`` (S11).

The small builders (:func:`played`, :func:`drew`, :func:`turn` ...) write the expected events.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from shedding_helpers import ALL_CODES as ALL_CODES
from shedding_helpers import ShedTable
from shedding_helpers import drew as drew
from shedding_helpers import names as names
from shedding_helpers import passed as passed
from shedding_helpers import turn as turn

from trapoula.domain.cards import codes
from trapoula.domain.events import Event
from trapoula.domain.games.crazy_eights import SPEC
from trapoula.domain.games.crazy_eights.events import StarterBuried
from trapoula.domain.games.shedding.events import (
    CardPlayed,
    DirectionReversed,
    StarterTurned,
    TurnSkipped,
)

NAMES = ("ann", "bob", "cat", "dan", "eve", "fay", "gus", "hal")
"""Display names of seats 0-7 (an eighth, to show that eight players are refused)."""

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
    seat_names = NAMES
    players = 2

    # ------------------------------------------------------------------ given

    def given(self, *events: Event) -> None:
        """Fold ``events`` as facts of the hand, without deciding them (STYLE habit 11a: given)."""
        for event in events:
            self.state = SPEC.evolve(self.state, event)
        self.log.extend(events)

    # ------------------------------------------------------------------ when

    # ------------------------------------------------------------------ then

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


def turned(card: str) -> StarterTurned:
    """``StarterTurned``: an up-card with no effect (R3.4)."""
    return StarterTurned(card=card, active_suit=card[1], pending_draw=0, chooser=None)


def buried(card: str, position: int) -> StarterBuried:
    """``StarterBuried`` (R3.3)."""
    return StarterBuried(card=card, position=position)


def skipped(seat: int) -> TurnSkipped:
    """``TurnSkipped`` for a jack (R5.4.1)."""
    return TurnSkipped(seat=seat, reason="jack")


def reversed_to(direction: int) -> DirectionReversed:
    """``DirectionReversed`` (R5.5.1)."""
    return DirectionReversed(direction=direction)


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
