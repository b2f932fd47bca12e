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

from shedding_helpers import ALL_CODES as ALL_CODES
from shedding_helpers import ShedTable
from shedding_helpers import drew as drew
from shedding_helpers import names as names
from shedding_helpers import of_type as of_type
from shedding_helpers import passed as passed
from shedding_helpers import reshuffled as reshuffled
from shedding_helpers import turn as turn

from trapoula.domain.cards import codes, deck_104
from trapoula.domain.events import Event
from trapoula.domain.games.mau_mau import SPEC
from trapoula.domain.games.mau_mau.events import MauCalled, MauMissed, StarterTurned
from trapoula.domain.games.shedding.events import (
    CardPlayed,
    DirectionReversed,
    TurnSkipped,
)

NAMES = ("ann", "bob", "cat", "dan", "eve", "fay")
"""Display names of seats 0-5 (a sixth, to show that six players are refused)."""

SEED = "5eed" * 16
"""A fixed 64-hex-digit seed."""


class Table(ShedTable):
    """One Mau Mau match, driven through ``SPEC`` like the service drives it.

    ``state`` is the folded state; ``log`` every event so far.
    """

    spec = SPEC
    seat_names = NAMES
    players = 3
    decks = codes(deck_104())

    # ------------------------------------------------------------------ given

    def seeded(self, seed: str = SEED) -> tuple[Event, ...]:
        """Deal the next hand from ``seed`` (S5.1)."""
        return super().seeded(seed)

    # ------------------------------------------------------------------ when

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


def skipped(seat: int) -> TurnSkipped:
    """``TurnSkipped`` by an eight (R5.2.1)."""
    return TurnSkipped(seat=seat, reason="eight")


def reversed_(direction: int) -> DirectionReversed:
    """``DirectionReversed`` (R5.3.1)."""
    return DirectionReversed(direction=direction)


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
