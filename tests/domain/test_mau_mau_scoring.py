"""Mau Mau: the end of a hand, scoring, elimination and the end of the match (R6.1-R6.8; S10)."""

from __future__ import annotations

import pytest
from mau_mau_helpers import Table, drew, names, of_type, passed, played, turn

from trapoula.domain.cards import parse_cards
from trapoula.domain.errors import InvalidInput
from trapoula.domain.games.mau_mau.rules import card_points
from trapoula.domain.games.shedding.events import HandEnded, MatchEnded, PlayerEliminated, PlayerJoined, SeedRevealed


def test_r2_4_r6_4_the_worked_example_counts_48_and_6_points() -> None:
    assert card_points(parse_cards("JH AS 7C TD")) == 48
    assert card_points(parse_cards("3S 3S")) == 6
    assert card_points(parse_cards("2C 9D TH JS QC KD AH")) == 2 + 9 + 10 + 20 + 10 + 10 + 11


def elimination_table(totals: tuple[int, int, int] = (-60, -95, 0)) -> Table:
    """R6.6's example: seat 0 goes out; seat 1 keeps 2C 2C 2D 2D 2H 2S (12 points) and seat 2
    keeps 3C 3D 4C 5C 7D 8D (30 points)."""
    t = Table(3, initial_totals=totals)
    t.deal(["2H AS AH AD AC AH 5H", "2S 2C 2C 2D 2D 2H 2S", "4S 3C 3D 4C 5C 7D 8D"], "3H")
    t.play(0, "2H")
    t.play(1, "2S")
    t.play(2, "4S")
    for card in ("AS", "AH", "AD", "AC"):
        t.play(0, card)
    t.mau(0)
    t.play(0, "AH")
    return t


def test_r6_1_r6_3_r6_6_the_worked_elimination_example() -> None:
    t = elimination_table()
    events = t.play(0, "5H")
    ended = of_type(events, "HandEnded")[0]
    assert isinstance(ended, HandEnded)
    assert (ended.reason, ended.winner, ended.hand_points, ended.totals) == ("out", 0, (0, -12, -30), (-60, -107, -30))
    assert ended.hands == ((), ("2C", "2C", "2D", "2D", "2H", "2S"), ("3C", "4C", "5C", "3D", "7D", "8D"))
    assert names(events) == ["CardPlayed", "HandEnded", "SeedRevealed", "PlayerEliminated"]
    assert events[-1] == PlayerEliminated(seat=1, total=-107)
    view = t.view(0)
    assert (view["eliminated"], view["seated"], view["totals"]) == ([1], [0, 2], [-60, -107, -30])
    assert view["last_hand"] == {
        "reason": "out",
        "winner": 0,
        "hands": [[], ["2C", "2C", "2D", "2D", "2H", "2S"], ["3C", "4C", "5C", "3D", "7D", "8D"]],
        "hand_points": [0, -12, -30],
    }
    assert t.state.phase.value == "hand_over"
    assert t.legal(1) == []  # an eliminated player has no seat any more (R6.6)


def test_r6_6_the_winner_of_the_hand_is_never_eliminated_by_it() -> None:
    """R6.6: one point above the limit, the winner scores 0 and stays; the others go on too."""
    t = elimination_table((-99, 0, 0))
    events = t.play(0, "5H")
    assert [e.seat for e in of_type(events, "PlayerEliminated")] == []  # type: ignore[attr-defined]
    assert t.view(None)["totals"] == [-99, -12, -30]


def test_r7_3_r6_6_a_match_cannot_start_from_a_total_already_at_the_limit() -> None:
    """R7.3 (the product's decision, confirmed by the rules owners), R6.6: a total at or below the
    limit is already out, so no match starts from one; the refusal names R7.3."""
    with pytest.raises(InvalidInput) as refused:
        Table(3, initial_totals=(-100, 0, 0))
    assert refused.value.reason == "bad_config" and "R7.3" in str(refused.value)
    with pytest.raises(InvalidInput):
        Table(3, options={"elimination_limit": -40}, initial_totals=(0, -41, 0))
    Table(3, initial_totals=(-99, 0, 0))  # one point above is still in


def test_r6_7_the_match_ends_when_one_player_is_left() -> None:
    t = elimination_table((-60, -95, -90))
    events = t.play(0, "5H")
    assert names(events)[-3:] == ["PlayerEliminated", "PlayerEliminated", "MatchEnded"]
    assert events[-1] == MatchEnded(winner=0, totals=(-60, -107, -120), reason="last_player")
    assert t.view(None)["match_winner"] == 0
    assert [t.legal(s) for s in range(3)] == [[], [], []]
    t.rejects("match_over", "R6.10", t.command("leave", 0))


def test_r6_2_a_last_seven_makes_the_next_player_draw_the_whole_stack_which_counts() -> None:
    t = Table(2, options={"elimination_limit": -1000})
    t.deal(["AH AD AS AC AH 7H 7D", "7C 2C 3C 4C 5C 6C 8C"], "2H", "KD QD")
    for card in ("AH", "AD", "AS", "AC", "AH"):
        t.play(0, card)
    t.mau(0)
    t.play(0, "7H")  # leaves 7D; seat 1 owes 2
    assert t.play(1, "7C") == (played(1, "7C", "C", pending=4), turn(0))
    events = t.play(0, "7D")  # the last card, on the stack of two sevens
    assert events[:2] == (played(0, "7D", "D", pending=6), drew(1, "KD QD 2C 3C 4C 5C", "last_seven"))
    ended = of_type(events, "HandEnded")[0]
    assert isinstance(ended, HandEnded)
    points = card_points(parse_cards("2C 3C 4C 5C 6C 8C KD QD 2C 3C 4C 5C"))
    assert ended.hand_points == (0, -points)


def test_s10_4_r6_8_a_blocked_hand_ends_with_nobody_out_and_everyone_scores_minus_his_hand() -> None:
    t = Table(2, options={"elimination_limit": -10_000})
    t.seeded()
    while t.state.can_draw() or t.pending:
        t.draw(t.to_act)  # type: ignore[arg-type]
    seat = t.to_act
    assert seat is not None and t.state.discard == t.state.discard[-1:]
    t.rejects("stock_empty", "R4.4", t.command("draw", seat))
    assert t.kinds(seat)[-3:] == ["pass", "mau", "leave"]  # R4.4: he may pass, even holding a card that plays
    assert t.pass_(seat) == (passed(seat), turn(1 - seat))
    events = t.pass_(1 - seat)
    assert names(events) == ["Passed", "HandEnded", "SeedRevealed"]
    ended = events[1]
    assert isinstance(ended, HandEnded) and isinstance(events[2], SeedRevealed)
    hands = [parse_cards(h) for h in ended.hands]
    assert (ended.reason, ended.winner) == ("blocked", None)
    assert ended.hand_points == (-card_points(hands[0]), -card_points(hands[1]))


def test_r6_9_4_r2_5_a_newcomer_takes_the_seat_of_a_player_eliminated_in_the_last_hand() -> None:
    """R6.9.4, R2.5 (the product's decisions, confirmed by the rules owners): R6.6's example eliminates
    seat 1 at -107; eve joins between hands and takes that seat, the lowest vacant one (R6.9.2), with
    the lowest total of the seated players, -60 (R6.9.1).  The record keeps both totals (the
    ``PlayerEliminated`` at -107, the ``PlayerJoined`` at -60); until the next deal seat 1 shows hand
    size 0 (it held six cards when the hand ended), then seven (R3.3)."""
    t = elimination_table()
    t.play(0, "5H")
    assert t.join("eve") == (PlayerJoined(seat=1, name="eve", computer=None, total=-60),)
    assert [(e.seat, e.total) for e in t.log if isinstance(e, PlayerEliminated | PlayerJoined)] == [  # type: ignore[union-attr]
        (1, -107),
        (1, -60),
    ]
    view = t.view(None)
    # seat 1 shows 0 cards though its last occupant ended the hand with six; seat 2 still shows its six
    assert (view["names"][1], view["totals"], view["hand_sizes"]) == ("eve", [-60, -60, -30], [0, 0, 6])
    assert (view["seated"], view["eliminated"]) == ([0, 1, 2], [])
    t.seeded()
    assert t.view(None)["hand_sizes"] == [7, 7, 7]


def test_r6_8_a_blocked_hand_that_eliminates_everybody_ends_the_match_with_no_winner() -> None:
    """R6.8 (the product's answer, confirmed by the rules owners; decision 20 assumed it could not
    happen): with the limit at -1, two players only draw until nothing can be drawn (S7.3) and both
    pass: the hand is blocked, nobody scores 0, so both totals fall to -1 or below and both players
    are eliminated (R6.6); the match ends with no winner."""
    t = Table(2, options={"elimination_limit": -1})
    t.seeded()
    while t.state.can_draw() or t.pending:
        t.draw(t.to_act)  # type: ignore[arg-type]
    seat = t.to_act
    assert seat is not None
    t.pass_(seat)
    events = t.pass_(1 - seat)
    assert names(events) == [
        "Passed",
        "HandEnded",
        "SeedRevealed",
        "PlayerEliminated",
        "PlayerEliminated",
        "MatchEnded",
    ]
    ended = events[1]
    assert isinstance(ended, HandEnded) and ended.winner is None
    assert all(total is not None and total <= -1 for total in ended.totals)
    assert [e.seat for e in of_type(events, "PlayerEliminated")] == [0, 1]  # type: ignore[attr-defined]
    assert events[-1] == MatchEnded(winner=None, totals=ended.totals, reason="last_player")
    assert t.view(None)["match_winner"] is None and t.state.phase.value == "match_over"
