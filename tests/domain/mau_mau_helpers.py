"""Given / when / then for Mau Mau rule tests (STYLE habit 11a/b).

A :class:`Table` is a match driven only through the generic :class:`~trapoula.domain.game.GameSpec`
interface: *given* an explicit deal (card codes written in the test, S5.3) or a seed, *when* a
seat or the table issues a command, *then* the test compares the returned events with the
expected ones, or checks that a refusal names its reason code and rule number and changes nothing
(S11).  The small builders (:func:`played`, :func:`drew`, :func:`turn` ...) write the expected
events.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from shedding_helpers import ShedTable

from trapoula.domain.cards import codes, deck_52, deck_104
from trapoula.domain.deal import Deal
from trapoula.domain.errors import CommandRejected
from trapoula.domain.events import Event
from trapoula.domain.game import MatchConfig, SeatInfo
from trapoula.domain.games.mau_mau import SPEC, MauMauState
from trapoula.domain.games.mau_mau.commands import Command
from trapoula.domain.games.mau_mau.events import MauCalled, MauMissed, StarterTurned
from trapoula.domain.games.shedding.events import (
    CardPlayed,
    CardsDrawn,
    DirectionReversed,
    Passed,
    StockReshuffled,
    TurnSkipped,
    TurnStarted,
)

NAMES = ("ann", "bob", "cat", "dan", "eve", "fay")
"""Display names of seats 0-5 (a sixth, to show that six players are refused)."""

ALL_CODES: tuple[str, ...] = codes(deck_52())
"""The 52 codes in canonical order (S2.3): 2C 3C ... AC 2D ... AS."""

SEED = "5eed" * 16
"""A fixed 64-hex-digit seed."""


class Table(ShedTable):
    """One Mau Mau match, driven through ``SPEC`` like the service drives it.

    ``state`` is the folded state; ``log`` every event so far.
    """

    spec = SPEC

    def __init__(
        self,
        players: int = 3,
        *,
        options: Mapping[str, Any] | None = None,
        first_dealer: int | None = None,
        initial_totals: Sequence[int] | None = None,
    ) -> None:
        self.config = MatchConfig(
            game="mau_mau",
            seats=tuple(SeatInfo(i, NAMES[i]) for i in range(players)),
            options=dict(options or {}),
            first_dealer=first_dealer,
            initial_totals=tuple(initial_totals) if initial_totals is not None else None,
        )
        self.state: MauMauState = SPEC.initial_state(self.config)
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

        ``hands``: one space-separated string per seat number in use ("" for a vacant seat);
        ``stock``: the top of the stock, top first; with ``fill`` the rest of the two decks follows
        beneath it in canonical order (S2.3), each code as often as it is still missing.
        ``reshuffles``: the orders of reshuffles 1, 2, ... (S8.5, R6.10.2), top first.
        """
        hand_lists = [h.split() for h in hands]
        stock_list = stock.split()
        if fill:
            named = Counter(c for h in hand_lists for c in h) + Counter([starter, *stock_list])
            left = Counter(codes(deck_104())) - named
            stock_list += [c for c in ALL_CODES for _ in range(left[c])]
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
        return self.apply(SPEC.deal_command(self.state, self.explicit(hands, starter, stock, reshuffles, fill=fill)))

    def seeded(self, seed: str = SEED) -> tuple[Event, ...]:
        """Deal the next hand from ``seed`` (S5.1)."""
        return self.apply(SPEC.deal_command(self.state, Deal.from_seed(SPEC.deck(self.state), seed)))

    # ------------------------------------------------------------------ when

    def command(self, kind: str, seat: int | None = None, **fields: Any) -> Command:
        """Parse a command from plain data, as the service does (``seat`` None: a table command)."""
        raw: dict[str, Any] = {"kind": kind, **fields}
        if seat is not None:
            raw["seat"] = seat
        return SPEC.parse_command(raw)

    def play(self, seat: int, card: str, suit: str | None = None) -> tuple[Event, ...]:
        """``play {card, suit?}``."""
        return self.apply(self.command("play", seat, card=card, **({"suit": suit} if suit else {})))

    def mau(self, seat: int) -> tuple[Event, ...]:
        """``mau``."""
        return self.apply(self.command("mau", seat))

    def leave(self, seat: int) -> tuple[Event, ...]:
        """``leave``."""
        return self.apply(self.command("leave", seat))

    def join(self, name: str, computer: str | None = None) -> tuple[Event, ...]:
        """The table's ``join {name, computer}``."""
        return self.apply(self.command("join", name=name, computer=computer))

    # ------------------------------------------------------------------ then

    def rejects_play(self, reason: str, rule: str, seat: int, card: str, suit: str | None = None) -> CommandRejected:
        """:meth:`rejects` for a ``play``."""
        return self.rejects(reason, rule, self.command("play", seat, card=card, **({"suit": suit} if suit else {})))

    @property
    def stock(self) -> list[str]:
        """The stock, top first."""
        return list(codes(self.state.stock))

    def kinds(self, seat: int) -> list[str]:
        """The kinds of the legal commands of ``seat``, in order, without repeats."""
        out: list[str] = []
        for c in self.legal(seat):
            if c["kind"] not in out:
                out.append(c["kind"])
        return out


# ---------------------------------------------------------------------- expected events


def played(seat: int, card: str, active: str, *, declared: str | None = None, pending: int = 0) -> CardPlayed:
    """The ``CardPlayed`` event expected for a play (S6.4)."""
    return CardPlayed(
        seat=seat, card=card, declared_suit=declared, active_suit=active, announce=False, pending_draw=pending
    )


def drew(seat: int, cards: str, reason: str = "draw") -> CardsDrawn:
    """The ``CardsDrawn`` event of ``seat`` drawing ``cards`` (space-separated, in drawing order)."""
    drawn = tuple(cards.split())
    return CardsDrawn(seat=seat, cards=drawn, count=len(drawn), reason=reason)


def turn(seat: int) -> TurnStarted:
    """``TurnStarted``: ``seat`` has a (new) turn (S3.6, S3.7)."""
    return TurnStarted(seat=seat)


def skipped(seat: int) -> TurnSkipped:
    """``TurnSkipped`` by an eight (R5.2.1)."""
    return TurnSkipped(seat=seat, reason="eight")


def reversed_(direction: int) -> DirectionReversed:
    """``DirectionReversed`` (R5.3.1)."""
    return DirectionReversed(direction=direction)


def passed(seat: int) -> Passed:
    """``Passed`` (R4.4)."""
    return Passed(seat=seat)


def reshuffled(k: int, order: str) -> StockReshuffled:
    """``StockReshuffled``: reshuffle ``k`` put ``order`` (top first) beneath the stock (S8)."""
    cards = tuple(order.split())
    return StockReshuffled(k=k, count=len(cards), order=cards)


def called(seat: int) -> MauCalled:
    """``MauCalled`` (R5.6.1)."""
    return MauCalled(seat=seat)


def missed(seat: int) -> MauMissed:
    """``MauMissed`` (R5.6.2)."""
    return MauMissed(seat=seat)


def turned(card: str, covers: str | None = None) -> StarterTurned:
    """``StarterTurned`` for ``card``, covering ``covers`` (R3.4)."""
    return StarterTurned(card=card, active_suit=card[1], pending_draw=0, chooser=None, covers=covers)


def finish_hand(t: Table, level: str = "medium", seed: int = 0) -> None:
    """Play the hand in progress to its end, every seat to act choosing as the computer player of
    ``level`` would (R7.2), from its own view."""
    rng = random.Random(seed)
    while t.state.phase.value == "playing":
        seat = t.to_act
        assert seat is not None
        view = t.view(seat)
        t.apply(SPEC.parse_command(SPEC.bot_levels[level](view, view["legal"], rng)))


def names(events: Sequence[Event]) -> list[str]:
    """The event names, in order."""
    return [e.event_name() for e in events]


def of_type(events: Sequence[Event], name: str) -> list[Event]:
    """The events named ``name``."""
    return [e for e in events if e.event_name() == name]
