"""Given / when / then for Giminaičiai rule tests (STYLE habit 11a/b).

A :class:`Table` is a match driven only through the game's :class:`~trapoula.domain.game.GameSpec`
(``SPEC``, built directly: the game is not in the registry yet): *given* an explicit deal (card codes
written in the test, R3.8), *when* a seat issues a command (parsed from plain data, as the service
does), *then* the test compares the returned events with the expected ones, or checks that a refusal
names its reason code and rule, changes nothing and is not offered by ``legal_commands`` (section 8).

Unless a test names it, the dealer of the first hand is seat n-1, so that seat 0 plays first (R3.1).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar

from match_table import MatchTable

from trapoula.domain.cards import codes, deck_52, parse_cards
from trapoula.domain.deal import Deal
from trapoula.domain.events import Event
from trapoula.domain.game import GameSpec
from trapoula.domain.games.giminaiciai import SPEC
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
    seat_names = NAMES
    players = 3

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

    # ------------------------------------------------------------------ when

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

    def offered(self, command: Command, legal: Sequence[Command]) -> bool:
        """A lay-down is offered in any order of its cards (R6.3): its canonical form is listed."""
        return command in legal or (isinstance(command, LayDown) and canonical(command) in legal)

    @property
    def to_act(self) -> int | None:
        """The seat to act (R4.1)."""
        return self.state.to_act

    def hand(self, seat: int) -> str:
        """The seat's cards, canonical order, space-separated."""
        return " ".join(codes(sorted(self.state.hands[seat], key=lambda c: c.sort_key)))

    @staticmethod
    def points(events: Sequence[Event]) -> list[tuple[int, int, str]]:
        """``(seat, points, reason)`` of every ``PointsScored`` in ``events``."""
        return [(e.seat, e.points, e.reason) for e in events if isinstance(e, PointsScored)]


def last_hand(
    hand_no: int, reason: str, winner: int | None, points: list[int], totals: list[int], remaining: list[list[str]]
) -> dict[str, Any]:
    """A hand's result as the views and ``HandEnded`` give it (R8.3): its number, why it ended, the
    winner, the hand points and totals by seat, and the cards each seat was left holding."""
    return {
        "hand_no": hand_no,
        "reason": reason,
        "winner": winner,
        "hand_points": points,
        "totals": totals,
        "remaining": remaining,
    }


def cards(text: str) -> tuple[str, ...]:
    """Card codes from a space-separated string, checked to parse."""
    return codes(parse_cards(text))


def lay_down(seat: int, *groups: str, discard: str | None = None, extra: int = 0) -> dict[str, Any]:
    """The plain form of a ``lay_down`` (section 8) as a view lists it: ``seat``, each group's cards
    as written (space-separated codes), the ``discard`` when there is one, and ``extra``."""
    payload: dict[str, Any] = {"kind": "lay_down", "seat": seat, "groups": [list(cards(g)) for g in groups]}
    if discard is not None:
        payload["discard"] = discard
    payload["extra"] = extra
    return payload


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
