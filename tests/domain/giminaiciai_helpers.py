"""Given / when / then for Giminaičiai rule tests (STYLE habit 11a/b).

A :class:`Table` is a match driven only through the game's :class:`~trapoula.domain.game.GameSpec`
(``SPEC``, built directly: the game is not in the registry yet): *given* an explicit deal (card codes
written in the test, R3.8), *when* a seat issues a command (parsed from plain data, as the service
does), *then* the test compares the returned events with the expected ones, or checks that a refusal
names its reason code and rule, changes nothing and is not offered by ``legal_commands`` (section 8).

Unless a test names it, the dealer of the first hand is seat n-1, so that seat 0 plays first (R3.1).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

import pytest
from match_table import MatchTable

from trapoula.domain.cards import codes, deck_52, parse_cards
from trapoula.domain.deal import Deal
from trapoula.domain.errors import CommandRejected
from trapoula.domain.events import Event
from trapoula.domain.game import GameSpec, MatchConfig, SeatInfo
from trapoula.domain.games.giminaiciai import SPEC, GiminaiciaiState
from trapoula.domain.games.giminaiciai.commands import Command, LayDown, canonical
from trapoula.domain.games.giminaiciai.events import CardDrawn, PointsScored

NAMES = ("ann", "bob", "cy", "dee", "eve", "fay")
"""Display names of seats 0-5."""

ALL_CODES: tuple[str, ...] = codes(deck_52())
"""The 52 codes in canonical order: 2C 3C ... AC 2D ... AS."""


class Table(MatchTable):
    """One Giminaičiai match of ``n`` players, driven through ``SPEC`` like the service drives it.

    ``state`` is the folded state; ``log`` every event so far.
    """

    spec: ClassVar[GameSpec[Any, Any]] = SPEC

    def __init__(
        self,
        n: int = 3,
        *,
        options: Mapping[str, Any] | None = None,
        first_dealer: int | None = None,
        initial_totals: Sequence[int] | None = None,
    ) -> None:
        self.n = n
        self.config = MatchConfig(
            game="giminaiciai",
            seats=tuple(SeatInfo(i, NAMES[i]) for i in range(n)),
            options=dict(options or {}),
            first_dealer=first_dealer,
            initial_totals=tuple(initial_totals) if initial_totals is not None else None,
        )
        self.state: GiminaiciaiState = SPEC.initial_state(self.config)
        self.log: list[Event] = []

    # ------------------------------------------------------------------ given

    def explicit(self, hands: Sequence[str | None], starter: str, stock_top: str = "") -> Deal:
        """The explicit deal (R3.8) of the next hand: each seat's 7 cards (space-separated codes, by
        seat; None: the next 7 unused cards in canonical order), the starter, and the top of the stock
        (top first); the rest of the stock follows in canonical order."""
        listed = [c for h in hands if h for c in h.split()] + [starter, *stock_top.split()]
        assert len(listed) == len(set(listed)), f"a card is given twice in {listed}"
        used = set(listed)
        spare = [c for c in ALL_CODES if c not in used]
        filled: list[list[str]] = []
        for h in hands:
            if h is None:
                filled.append(spare[:7])
                spare = spare[7:]
            else:
                filled.append(h.split())
        raw = {"hands": filled, "starter": starter, "stock": stock_top.split() + spare}
        return SPEC.explicit_deal(self.state, raw)

    def deal(self, hands: Sequence[str | None], starter: str, stock_top: str = "") -> tuple[Event, ...]:
        """Deal the next hand explicitly (``next_hand``); see :meth:`explicit`."""
        return self.apply(SPEC.deal_command(self.state, self.explicit(hands, starter, stock_top)))

    def deal_deck(self, deck: Sequence[str]) -> tuple[Event, ...]:
        """Deal the next hand from an explicit deck order (52 codes, top first, R3.6)."""
        return self.apply(SPEC.deal_command(self.state, SPEC.explicit_deal(self.state, {"deck": list(deck)})))

    def seeded(self, seed: str) -> tuple[Event, ...]:
        """Deal the next hand from ``seed``, as the table does (R3.2)."""
        return self.apply(SPEC.deal_command(self.state, Deal.from_seed(SPEC.deck(self.state), seed)))

    # ------------------------------------------------------------------ when

    def command(self, kind: str, seat: int, **fields: Any) -> Command:
        """Parse a seat command from plain data, as the service does."""
        return SPEC.parse_command({"kind": kind, "seat": seat, **fields})

    def draw(self, seat: int, source: str = "stock") -> tuple[Event, ...]:
        """``draw {source}`` (R4.2)."""
        return self.apply(self.command("draw", seat, source=source))

    def discard(self, seat: int, card: str) -> tuple[Event, ...]:
        """``discard {card}`` (R4.4)."""
        return self.apply(self.command("discard", seat, card=card))

    def lay_down(self, seat: int, *groups: str, discard: str | None = None, extra: int = 0) -> tuple[Event, ...]:
        """``lay_down {groups, discard, extra}`` (R5); each group as space-separated codes."""
        return self.apply(self.lay_down_command(seat, *groups, discard=discard, extra=extra))

    def lay_down_command(self, seat: int, *groups: str, discard: str | None = None, extra: int = 0) -> Command:
        """The ``lay_down`` command, parsed from plain data."""
        fields: dict[str, Any] = {"groups": [g.split() for g in groups], "extra": extra}
        if discard is not None:
            fields["discard"] = discard
        return self.command("lay_down", seat, **fields)

    def turn(self, seat: int, discard: str | None = None, source: str = "stock") -> tuple[Event, ...]:
        """Draw, then discard ``discard`` (the drawn card when None)."""
        events = self.draw(seat, source)
        drawn = next(e for e in events if isinstance(e, CardDrawn))
        card = discard or drawn.card or drawn.stock_card
        assert card is not None
        return events + self.discard(seat, card)

    # ------------------------------------------------------------------ then

    def rejects(self, reason: str, rule: str, command: Command) -> CommandRejected:
        """Assert that ``command`` is refused with ``reason`` citing ``rule``, that nothing changes,
        and that ``legal_commands`` does not offer it (section 8)."""
        before, logged = self.state, len(self.log)
        with pytest.raises(CommandRejected) as info:
            self.apply(command)
        assert (info.value.reason, info.value.rule) == (reason, rule), str(info.value)
        assert self.state is before
        assert len(self.log) == logged
        seat = SPEC.command_seat(command)
        if seat is not None and 0 <= seat < self.n:
            listed = SPEC.legal_commands(self.state, seat)
            assert command not in listed
            if isinstance(command, LayDown):
                assert canonical(command) not in listed
        return info.value

    @property
    def to_act(self) -> int | None:
        """The seat to act (R4.1)."""
        return self.state.to_act

    def hand(self, seat: int) -> str:
        """The seat's cards, canonical order, space-separated."""
        return " ".join(codes(sorted(self.state.hands[seat], key=lambda c: c.sort_key)))

    @staticmethod
    def names(events: Sequence[Event]) -> list[str]:
        """The event names, in order."""
        return [e.event_name() for e in events]

    @staticmethod
    def points(events: Sequence[Event]) -> list[tuple[int, int, str]]:
        """``(seat, points, reason)`` of every ``PointsScored`` in ``events``."""
        return [(e.seat, e.points, e.reason) for e in events if isinstance(e, PointsScored)]


def cards(text: str) -> tuple[str, ...]:
    """Card codes from a space-separated string, checked to parse."""
    return codes(parse_cards(text))


# ---------------------------------------------------------------------------------------- deals

R75_HANDS = (
    "2C 3C 4C 5C 6C 7C 7H",
    "2H 3H 4H 5H 9C 9D KD",
    "KC KH KS AC AH AS 2S",
)
"""The worked example R7.5 (3 players, dealer 2), with the starter ``QD`` and the stock ``8C 6H 9H ...``.

Seat 0 draws 8C and lays 2C-8C, discarding 7H (10).  Seat 1 draws 6H (seat 0 +1) and, unable to lay
down (KD is related to no card of his), discards KD.  Seat 2 takes KD (seat 0 +1) and lays the four
kings with AC, AH and AS-2S (8 cards: 1).  Seat 0 is skipped.  Seat 1 draws 9H (seat 0 +1, seat 2 +1)
and lays 2H-6H with 9C 9D 9H, taking 7H from the pile as an extra card (seat 0 +1, seat 2 +1): 9
cards, 3.  Hand points: 14, 3, 3."""
R75_STARTER = "QD"
R75_STOCK_TOP = "8C 6H 9H"


def play_r75(table: Table, shift: int = 0) -> list[Event]:
    """Deal :data:`R75_HANDS` and play R7.5 on a 3-player table whose dealer is seat (2 + shift) mod 3,
    every seat of the example moved on by ``shift``; return the events."""

    def seat(s: int) -> int:
        return (s + shift) % 3

    hands: list[str | None] = [None, None, None]
    for s, h in enumerate(R75_HANDS):
        hands[seat(s)] = h
    out: list[Event] = []
    out += table.deal(hands, R75_STARTER, R75_STOCK_TOP)
    out += table.draw(seat(0))
    out += table.lay_down(seat(0), "2C 3C 4C 5C 6C 7C 8C", discard="7H")
    out += table.turn(seat(1), "KD")
    out += table.draw(seat(2), "discard")
    out += table.lay_down(seat(2), "KC KH KS KD AC AH AS 2S")
    out += table.draw(seat(1))
    out += table.lay_down(seat(1), "2H 3H 4H 5H 6H 7H", "9C 9D 9H", extra=1)
    return out
