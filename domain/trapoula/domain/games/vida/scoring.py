"""Scoring a hand: capot, the contract test, rounding and booking (R6.1-R6.8, D17-D25).

Pairs are ``(team 0, team 1)``.  Worked example R6.8 (1):

>>> from trapoula.domain.cards import Suit
>>> score = score_hand(Contract(0, 0, 90, Suit.HEARTS, 0), (5, 3), (101, 61), 0, (0, 0), (0, 0))
>>> score.contract_made, score.trick_points, score.hand_points
(True, (100, 60), (190, 60))
>>> round_points((146, 16), 0), round_points((146, 16), 1)
((150, 10), (140, 20))
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from trapoula.domain.cards import Suit

MULTIPLIERS: tuple[int, ...] = (1, 2, 4, 6, 8)
"""Multiplier of the bid at vida level 0 (none), 1 (vida), 2 (contra vida), 3 and 4 (R4.5, R4.7)."""

CAPOT_POINTS = 250
"""Trick points of a team that wins all eight tricks, instead of 162 (R6.2)."""

PLAY_POINTS = 160
"""The rounded trick points of a hand (R6.4), booked by a winner who did not make capot (R6.6, R6.7)."""

RAW_TOTAL = 162
"""Card points 152 plus the last-trick 10 (R2.7, R6.1)."""

TRICKS = 8
"""Tricks in a hand (R4.14)."""


@dataclass(frozen=True, slots=True)
class Contract:
    """The result of an auction (R4.7): who holds it, for how many points, in which trumps, at which level.

    Raises:
        ValueError: ``holder`` not 0-3, ``team`` not ``holder % 2`` (R2.3), ``points`` not a
            positive multiple of 10, or ``level`` not 0-4.
    """

    holder: int
    """Seat that made the highest bid (0-3)."""
    team: int
    """The bidding team: ``holder % 2`` (R2.3)."""
    points: int
    """The bid: points the bidding team promises to collect (R4.3)."""
    suit: Suit
    """The trump suit."""
    level: int
    """Vida level 0 (none) .. 4 (fourth vida) (R4.5)."""

    def __post_init__(self) -> None:
        if self.holder not in range(4) or self.team != self.holder % 2:
            raise ValueError(f"contract holder {self.holder!r} and team {self.team!r} do not match (R2.3)")
        if self.points <= 0 or self.points % 10:
            raise ValueError(f"contract points {self.points!r} are not a positive multiple of 10 (R4.3)")
        if self.level not in range(len(MULTIPLIERS)):
            raise ValueError(f"vida level {self.level!r} is not 0-4 (R4.5)")

    @property
    def multiplier(self) -> int:
        """Multiplier of the bid: 1, 2, 4, 6 or 8 for levels 0-4 (R4.5, R4.7)."""
        return MULTIPLIERS[self.level]

    def to_dict(self) -> dict[str, Any]:
        """The contract as plain data (section 9 ``AuctionClosed.contract``, and the views): holder,
        team, points, suit letter, level and multiplier."""
        return {
            "holder": self.holder,
            "team": self.team,
            "points": self.points,
            "suit": self.suit.value,
            "level": self.level,
            "multiplier": self.multiplier,
        }


def _round_one(raw: int, jack: bool) -> int:
    digit = raw % 10
    if digit <= 5:
        return raw - digit
    if digit >= 7:
        return raw - digit + 10
    return raw - digit + 10 if jack else raw - digit


def round_points(raw: tuple[int, int], jack_team: int | None) -> tuple[int, int]:
    """Round the two raw trick totals to multiples of 10 (R6.4, D23).

    Last digit 0-5 rounds down, 7-9 rounds up; a last digit 6 rounds up for ``jack_team`` (the team
    that won the jack of trumps) and down for the other.  Raw totals adding up to 162 give rounded
    totals adding up to 160.

    Raises:
        ValueError: a total is negative, or a total ends in 6 and ``jack_team`` is None.
    """
    if min(raw) < 0:
        raise ValueError(f"raw trick points {raw!r} must not be negative (R6.1)")
    if jack_team is None and any(r % 10 == 6 for r in raw):
        raise ValueError(f"raw trick points {raw!r} end in 6: the team with the trump jack is needed (R6.4)")
    return (_round_one(raw[0], jack_team == 0), _round_one(raw[1], jack_team == 1))


@dataclass(frozen=True, slots=True)
class HandScore:
    """Every number of a scored hand, each a pair (team 0, team 1) unless noted (R6.1-R6.7, event HandScored)."""

    tricks_won: tuple[int, int]
    """Tricks won by each team; they add up to 8."""
    trick_points_raw: tuple[int, int]
    """Card points plus the last-trick 10, before rounding (R6.1); they add up to 162."""
    capot_team: int | None
    """The team that won all eight tricks (R6.2), else None."""
    trick_points: tuple[int, int]
    """Rounded trick points (R6.4), or 250 / 0 under capot (R6.2)."""
    declaration_points: tuple[int, int]
    """Declaration points of the comparison (R5.5-R5.8)."""
    belote_points: tuple[int, int]
    """Belote points announced (R5.9)."""
    contract_points: tuple[int, int]
    """Raw (or 250 / 0) trick points + declaration + belote points: the contract test's values (R6.3)."""
    contract_made: bool
    """Whether the bidding team made its contract (R6.3)."""
    hand_points: tuple[int, int]
    """Points booked by each team for this hand (R6.5-R6.7)."""


def _pair(values: list[int]) -> tuple[int, int]:
    return (values[0], values[1])


def score_hand(
    contract: Contract,
    tricks_won: tuple[int, int],
    raw: tuple[int, int],
    jack_team: int | None,
    declaration_points: tuple[int, int],
    belote_points: tuple[int, int],
    must_outscore: bool = True,
) -> HandScore:
    """Score a finished hand (R6.2-R6.7, D17-D25).

    * Capot (R6.2, D19): a team with all eight tricks counts 250 trick points, the other 0, in the
      contract test and in booking (no rounding).
    * Contract test (R6.3, D22), raw values: contract points = trick points + declaration points +
      belote points; made when the bidders' are at least the bid and, when ``must_outscore``
      (option ``bidders_must_outscore``), strictly more than the defenders'.
    * Rounding (R6.4): :func:`round_points` with ``jack_team``, the team that won the trump jack.
    * Booking without vida (R6.5, R6.6): made -> bidders book bid + trick points + declarations +
      belote, defenders trick points + declarations + belote (D21, D25); failed -> bidders book
      their belote only (D17), defenders bid + 160 (250 on their own capot, D20) + both teams'
      declarations + their belote.
    * Booking with vida (R6.7, D24): the winner (bidders if made, else defenders) books bid x
      multiplier + 160 (250 if the winner won all eight tricks) + both teams' declarations + both
      teams' belote; the loser books 0.

    Args:
        contract: the contract of the hand.
        tricks_won: tricks won by team 0 and team 1 (they add up to 8).
        raw: raw trick points of team 0 and team 1 (R6.1; they add up to 162).
        jack_team: the team that won the jack of trumps (needed when a raw total ends in 6).
        declaration_points: result of the declaration comparison (R5.5-R5.8).
        belote_points: belote points announced by each team (R5.9).
        must_outscore: option ``bidders_must_outscore`` (R6.3).

    Raises:
        ValueError: tricks not adding up to 8, raw points not adding up to 162, a team with no
            trick and some points, a negative value, or a total ending in 6 without ``jack_team``.
    """
    if min(tricks_won) < 0 or sum(tricks_won) != TRICKS:
        raise ValueError(f"tricks won {tricks_won!r} must be two non-negative counts adding up to 8 (R4.14)")
    if min(raw) < 0 or sum(raw) != RAW_TOTAL:
        raise ValueError(f"raw trick points {raw!r} must be non-negative and add up to 162 (R6.1)")
    if any(tricks_won[t] == 0 and raw[t] != 0 for t in (0, 1)):
        raise ValueError(f"a team without tricks has no trick points: {tricks_won!r}, {raw!r} (R6.1)")
    if min(declaration_points) < 0 or min(belote_points) < 0:
        raise ValueError(f"negative declaration {declaration_points!r} or belote {belote_points!r} points")
    bidders = contract.team
    defenders = 1 - bidders
    capot_team = next((t for t in (0, 1) if tricks_won[t] == TRICKS), None)
    if capot_team is None:
        test_tricks = raw
        trick_points = round_points(raw, jack_team)
    else:
        test_tricks = trick_points = (CAPOT_POINTS, 0) if capot_team == 0 else (0, CAPOT_POINTS)
    contract_points = _pair([test_tricks[t] + declaration_points[t] + belote_points[t] for t in (0, 1)])
    made = contract_points[bidders] >= contract.points and (
        not must_outscore or contract_points[bidders] > contract_points[defenders]
    )
    booked = [0, 0]
    if contract.level == 0 and made:
        for t in (0, 1):
            booked[t] = trick_points[t] + declaration_points[t] + belote_points[t]
        booked[bidders] += contract.points
    elif contract.level == 0:
        booked[bidders] = belote_points[bidders]
        booked[defenders] = (
            contract.points
            + (CAPOT_POINTS if capot_team == defenders else PLAY_POINTS)
            + sum(declaration_points)
            + belote_points[defenders]
        )
    else:
        winner = bidders if made else defenders
        booked[winner] = (
            contract.points * contract.multiplier
            + (CAPOT_POINTS if capot_team == winner else PLAY_POINTS)
            + sum(declaration_points)
            + sum(belote_points)
        )
    return HandScore(
        tricks_won=tricks_won,
        trick_points_raw=raw,
        capot_team=capot_team,
        trick_points=trick_points,
        declaration_points=declaration_points,
        belote_points=belote_points,
        contract_points=contract_points,
        contract_made=made,
        hand_points=_pair(booked),
    )
