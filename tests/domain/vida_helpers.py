"""Given / when / then for Vida rule tests (STYLE habit 11a/b).

A :class:`Table` is a match driven only through the generic :class:`~trapoula.domain.game.GameSpec`
interface: *given* an explicit deal (card codes written in the test, R3.2), *when* a seat issues a
command (parsed from plain data, as the service does), *then* the test compares the returned
events with the expected ones, or checks that a refusal names its reason code and rule, changes
nothing and is not offered by ``legal_commands`` (section 8).

The deals below are worked by hand in the tests that use them; seat numbers are those of R2.3
(team 0 = seats 0 and 2, team 1 = seats 1 and 3).  With the first dealer 3 (the default here),
seat 0 speaks first and leads first (R4.2, R4.9).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from match_table import MatchTable

from trapoula.domain.cards import codes, deck_32
from trapoula.domain.deal import Deal
from trapoula.domain.events import Event
from trapoula.domain.game import GameSpec
from trapoula.domain.games.vida import SPEC

NAMES = ("ann", "bob", "cy", "dee")
"""Display names of seats 0-3."""

ALL_CODES: tuple[str, ...] = codes(deck_32())
"""The 32 codes in canonical order: 7C 8C 9C TC JC QC KC AC 7D ... AS."""

MONO: tuple[str, str, str, str] = (
    "7C 8C 9C TC JC QC KC AC",
    "7D 8D 9D TD JD QD KD AD",
    "7H 8H 9H TH JH QH KH AH",
    "7S 8S 9S TS JS QS KS AS",
)
"""Each seat holds one whole suit: seat 0 clubs, 1 diamonds, 2 hearts, 3 spades.

With 80 clubs by seat 0 every seat has an eight-card sequence to the ace; seat 0's is in trumps,
so team 0 wins the comparison and scores 100 + 100 (R5.4, R5.5).  Seat 0 leads trumps eight
times and takes every trick (capot, R6.2): :data:`MONO_TRICKS`."""

MONO_TRICKS: tuple[str, ...] = (
    "JC 7D 7H 7S",
    "9C 8D 8H 8S",
    "AC 9D 9H 9S",
    "TC TD TH TS",
    "KC JD JH JS",
    "QC QD QH QS",
    "8C KD KH KS",
    "7C AD AH AS",
)
"""Seat 0 leading, clubs trumps: card points 20, 14, 11, 40, 10, 12, 12, 33 + 10 = 162 (R2.5-R2.7)."""

FAIL: tuple[str, str, str, str] = (
    "JH 9H AH TH AC TC KC QC",
    "KH QH 8H 7H 7C 8C 9C JC",
    "AD TD KD QD AS TS KS QS",
    "JD 9D 8D 7D JS 9S 8S 7S",
)
"""80 hearts by seat 1 (team 1), who holds belote (K and Q of hearts) and fails: team 0 takes
every trick (:data:`FAIL_TRICKS`, a reverse capot).  Declarations: seat 0 A-K-Q of clubs and
J-T-9 of hearts, seat 2 A-K-Q of diamonds and of spades, seat 1 9-8-7 of clubs, seat 3 9-8-7 of
diamonds and of spades: team 0's best (a tierce to the ace) wins, 4 x 20 = 80 (R5.5)."""

FAIL_TRICKS: tuple[str, ...] = (
    "JH 7H QD 7D",
    "9H 8H QS 8D",
    "AH QH KD 9D",
    "TH KH KS JD",
    "AC 7C TD 7S",
    "TC 8C AD 8S",
    "KC 9C TS 9S",
    "QC JC AS JS",
)
"""Seat 0 leading, hearts trumps: 23, 17, 18, 20, 21, 21, 14, 18 + 10 = 162, all to team 0.
Seat 1's queen of hearts in trick 3 is the first of his king and queen (belote, R5.9)."""

DUTY: tuple[str, str, str, str] = (
    "AH TH AS KS QS 7D 8D 9D",
    "7H 7S 8S 9S TS JS TD JD",
    "QH 9H KH AC KC 7C AD KD",
    "JH 8H TC JC 9C 8C QC QD",
)
"""For the duties of play (R4.10-R4.13) with hearts trumps and seat 0 leading.  Combinations:
seat 0 A-K-Q of spades and 9-8-7 of diamonds, seat 1 J-T-9-8-7 of spades, seat 2 none, seat 3
Q-J-T-9-8 of clubs."""


class Table(MatchTable):
    """One Vida match, driven through ``SPEC`` like the service drives it.

    ``state`` is the folded state; ``log`` every event so far.
    """

    spec: ClassVar[GameSpec[Any, Any]] = SPEC
    seat_names = NAMES
    players = 4

    def __init__(
        self,
        *,
        options: Mapping[str, Any] | None = None,
        first_dealer: int | None = 3,
        initial_totals: Sequence[int] | None = None,
    ) -> None:
        super().__init__(4, options=options, first_dealer=first_dealer, initial_totals=initial_totals)

    # ------------------------------------------------------------------ given

    def explicit(self, hands: Sequence[str], widow: str | None = None) -> Deal:
        """The explicit deal (R3.2) of the next hand from each seat's cards (space-separated codes,
        by seat 0-3) and, with ``open_vida``, the widow."""
        raw: dict[str, Any] = {"hands": [h.split() for h in hands]}
        if widow is not None:
            raw["widow"] = widow.split()
        return SPEC.explicit_deal(self.state, raw)

    def deal(self, hands: Sequence[str], widow: str | None = None) -> tuple[Event, ...]:
        """Deal the next hand explicitly (``next_hand``, R3.2); see :meth:`explicit`."""
        return self.apply(SPEC.deal_command(self.state, self.explicit(hands, widow)))

    # ------------------------------------------------------------------ when

    def bid(self, seat: int, points: int, suit: str) -> tuple[Event, ...]:
        """``bid {points, suit}`` (R4.3)."""
        return self.apply(self.command("bid", seat, points=points, suit=suit))

    def pass_(self, seat: int) -> tuple[Event, ...]:
        """``pass`` (R4.4)."""
        return self.apply(self.command("pass", seat))

    def vida(self, seat: int) -> tuple[Event, ...]:
        """``vida`` (R4.5)."""
        return self.apply(self.command("vida", seat))

    def give(self, seat: int, cards: str) -> tuple[Event, ...]:
        """``give {cards}`` (R5.1)."""
        return self.apply(self.command("give", seat, cards=cards.split()))

    def declare(self, seat: int) -> tuple[Event, ...]:
        """``declare`` (R5.8)."""
        return self.apply(self.command("declare", seat))

    def play(self, seat: int, card: str, belote: bool = False) -> tuple[Event, ...]:
        """``play {card, belote}`` (R4.9-R4.13, R5.9)."""
        fields: dict[str, Any] = {"card": card}
        if belote:
            fields["belote"] = True
        return self.apply(self.command("play", seat, **fields))

    def calls(self, *calls: str) -> tuple[Event, ...]:
        """Auction calls in turn from the seat to act: ``"pass"``, ``"vida"`` or a bid ``"90S"``."""
        out: list[Event] = []
        for call in calls:
            seat = self.to_act
            assert seat is not None
            if call == "pass":
                out.extend(self.pass_(seat))
            elif call == "vida":
                out.extend(self.vida(seat))
            else:
                out.extend(self.bid(seat, int(call[:-1]), call[-1]))
        return tuple(out)

    def trick(self, cards: str, belote: str | None = None) -> tuple[Event, ...]:
        """Play a trick's cards in turn from the seat to act; ``belote`` names a card played with it."""
        out: list[Event] = []
        for card in cards.split():
            seat = self.to_act
            assert seat is not None
            out.extend(self.play(seat, card, belote=card == belote))
        return tuple(out)

    def tricks(self, tricks: Sequence[str], belote: str | None = None) -> tuple[Event, ...]:
        """Play several tricks (:meth:`trick`)."""
        out: list[Event] = []
        for cards in tricks:
            out.extend(self.trick(cards, belote))
        return tuple(out)

    # ------------------------------------------------------------------ then

    @property
    def to_act(self) -> int | None:
        """The seat to act (R4.1)."""
        return self.state.to_act

    def hand(self, seat: int) -> str:
        """The seat's cards, canonical order, space-separated."""
        return " ".join(self.view(seat)["hand"])


def mono_hand(table: Table) -> tuple[Event, ...]:
    """Deal MONO and play it: 80 clubs by seat 0, capot with belote: team 0 books 550, team 1 0."""
    table.deal(MONO)
    if table.to_act == 0:  # dealer 3
        table.calls("80C", "pass", "pass", "pass")
        return table.tricks(MONO_TRICKS, belote="KC")
    assert table.to_act == 1  # dealer 0: seat 1 speaks and leads first; seat 0 trumps the diamond
    table.calls("pass", "pass", "pass", "80C", "pass", "pass", "pass")
    return table.trick("7D 7H 7S JC") + table.tricks(MONO_TRICKS[1:], belote="KC")


def fail_hand(table: Table) -> tuple[Event, ...]:
    """Deal FAIL (dealer 3) and play it: team 1 fails 80 hearts, keeps its belote: 410 / 20."""
    table.deal(FAIL)
    table.calls("pass", "80H", "pass", "pass", "pass")
    return table.tricks(FAIL_TRICKS, belote="QH")


SCORE_A = {
    "contract": {"holder": 0, "team": 0, "points": 80, "suit": "H", "level": 4, "multiplier": 8},
    "tricks_won": [5, 3],
    "trick_points_raw": [71, 91],
    "capot_team": None,
    "trick_points": [70, 90],
    "declaration_points": [0, 200],
    "belote_points": [20, 0],
    "contract_points": [91, 291],
    "contract_made": False,
    "hand_points": [0, 1020],
    "totals": [0, 1020],
}
"""Hand A of the vida service tests (tests/service/test_vida_service.py) scored by hand.
Declarations (R5.3-R5.5): ann A-K-Q of spades and 9-8-7 of diamonds,
bob J-T-9-8-7 of spades, dee Q-J-T-9-8 of clubs, cy none; team 1's quint to the queen is the best,
so team 1 scores both quints, 200.  Belote 20 for cy (team 0).  Contract test (R6.3): team 0 has
71 + 0 + 20 = 91 >= 80 but not more than team 1's 91 + 200 = 291: failed.  With vida (R6.7) the
defenders book 80 x 8 + 160 + 200 + 20 = 1020, the bidders 0.  Rounded 71 -> 70, 91 -> 90 (R6.4)."""
