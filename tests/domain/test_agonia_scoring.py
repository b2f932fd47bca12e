"""Agonia: end of the hand, scoring, end of the match (R2.4, R6; decisions 9, 20, 21, 22)."""

from __future__ import annotations

import pytest
from agonia_helpers import Table, drew, played, quick_out, skipped, turn, went_out

from trapoula.domain.cards import parse_cards
from trapoula.domain.deal import Deal
from trapoula.domain.events import Event
from trapoula.domain.games.agonia import SPEC
from trapoula.domain.games.agonia.rules import card_points
from trapoula.domain.games.shedding.events import HandEnded, HandStarted, MatchEnded, SeedRevealed


@pytest.mark.parametrize(
    ("cards", "points"),
    [
        ("2C", 2),
        ("3D", 3),
        ("4H", 4),
        ("5S", 5),
        ("6C", 6),
        ("7D", 7),
        ("8H", 8),
        ("9S", 9),
        ("TC", 10),
        ("JD", 10),
        ("QH", 10),
        ("KS", 10),
        ("AC", 11),
        ("2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC AC", 95),
    ],
)
def test_r2_4_card_points_are_face_value_ten_for_t_j_q_k_and_eleven_for_the_ace(cards: str, points: int) -> None:
    assert card_points(parse_cards(cards)) == points


# ---------------------------------------------------------------------------- R6.4, first worked example

# Up-card 3H, dealer 3.  Seat 2 goes out in its fifth turn; the others are left holding exactly the
# cards of the worked example: seat 0 KH 7D 2C, seat 1 AS, seat 3 9H 9D TS QC.
FIRST = ["4H 2S JS 4S KH 7D 2C", "5H 8S 3S 4C QS KS AS", "8H 6H 3C 8C 5C 9S KC", "6S 9C 5S 9H 9D TS QC"]


def play_first_example(t: Table) -> tuple[Event, ...]:
    """Deal ``FIRST`` and play the hand out; return the events of the last play."""
    t.deal(FIRST, "3H")
    # Round 1.
    t.play(0, "4H")
    t.play(1, "5H")
    assert t.play(2, "8H") == (played(2, "8H", "H"), turn(2))  # R5.3.1
    t.play(2, "6H")
    t.play(3, "6S")
    # Round 2.
    t.play(0, "2S")
    t.play(1, "8S")
    t.play(1, "3S")
    t.play(2, "3C")
    assert t.play(3, "9C") == (played(3, "9C", "C"), skipped(0, "nine"), turn(1))  # R5.4.1
    # Round 3 (seat 0 skipped).
    t.play(1, "4C")
    t.play(2, "8C")
    t.play(2, "5C")
    t.play(3, "5S")
    # Round 4.
    t.play(0, "JS")
    t.play(1, "QS")
    assert t.play(2, "9S") == (played(2, "9S", "S"), skipped(3, "nine"), turn(0))
    # Round 5.
    t.play(0, "4S")
    t.play(1, "KS")
    return t.play(2, "KC")


def test_r6_4_worked_example_one_seat_2_goes_out_and_the_others_score_19_11_and_38() -> None:
    t = Table()
    last = play_first_example(t)
    assert last == (
        played(2, "KC", "C"),
        *went_out(
            2,
            (("2C", "7D", "KH"), ("AS",), (), ("QC", "9D", "9H", "TS")),
            hand_points=(19, 11, 0, 38),
            totals=(19, 11, 0, 38),
        ),
    )
    assert SPEC.needs_deal(t.state)
    assert not SPEC.is_terminal(t.state)
    view = t.view(None)
    assert view["last_hand"] == {
        "reason": "out",
        "winner": 2,
        "hands": [["2C", "7D", "KH"], ["AS"], [], ["QC", "9D", "9H", "TS"]],
        "hand_points": [19, 11, 0, 38],
    }


def test_r6_9_worked_example_totals_40_12_33_45_plus_19_11_0_38_end_the_match_won_by_seat_1() -> None:
    t = Table(options={"target_points": 50}, initial_totals=[40, 12, 33, 45])
    last = play_first_example(t)
    ended = last[1]
    assert isinstance(ended, HandEnded)
    assert ended.totals == (59, 23, 33, 83)
    assert last[2:] == (
        SeedRevealed(seed=None, reshuffle_orders=()),
        MatchEnded(winner=1, totals=(59, 23, 33, 83), reason="target"),
    )
    assert SPEC.is_terminal(t.state)
    assert not SPEC.needs_deal(t.state)
    assert t.view(0)["match_winner"] == 1
    t.rejects("match_over", "R6.8", SPEC.deal_command(t.state, Deal.from_seed(SPEC.deck(t.state), "00" * 32)))
    t.rejects("hand_over", "S11", t.command("draw", 0))


def test_r6_9_worked_example_totals_52_30_30_41_tie_for_lowest_so_another_hand_is_dealt() -> None:
    t = Table(options={"target_points": 50}, initial_totals=[33, 19, 30, 3])
    last = play_first_example(t)
    ended = last[1]
    assert isinstance(ended, HandEnded)
    assert ended.totals == (52, 30, 30, 41)
    assert len(last) == 3  # no MatchEnded (R6.8)
    assert not SPEC.is_terminal(t.state)
    # Another hand by all players, dealt by seat 0; seat 1 goes out and R6.7-R6.8 apply again.
    last = quick_out(t)
    started = [e for e in t.log if isinstance(e, HandStarted)][-1]
    assert (started.hand_no, started.dealer, started.first_player) == (2, 0, 1)
    # Seat 2 (skipped twice) keeps 2C 3C 4C 5C 6C 7C TC = 37; seat 3 holds JC QC KC AC 2D 3D 4D
    # = 50 and drew 2H 4H = 6; seat 0 holds 5D 6D 7D TD JD QD AD = 59 and drew 3H 5H = 8.
    assert last[1] == HandEnded(
        reason="out",
        winner=1,
        hands=(
            ("5D", "6D", "7D", "TD", "JD", "QD", "AD", "3H", "5H"),
            (),
            ("2C", "3C", "4C", "5C", "6C", "7C", "TC"),
            ("JC", "QC", "KC", "AC", "2D", "3D", "4D", "2H", "4H"),
        ),
        hand_points=(67, 0, 37, 56),
        totals=(119, 30, 67, 97),
    )
    assert last[-1] == MatchEnded(winner=1, totals=(119, 30, 67, 97), reason="target")


def test_r6_7_exactly_reaching_the_target_does_not_end_the_match() -> None:
    t = Table(options={"target_points": 50}, initial_totals=[31, 39, 50, 12])
    last = play_first_example(t)
    ended = last[1]
    assert isinstance(ended, HandEnded)
    assert ended.totals == (50, 50, 50, 50)
    assert [e.event_name() for e in last] == ["CardPlayed", "HandEnded", "SeedRevealed"]
    assert SPEC.needs_deal(t.state)


def test_r6_7_going_one_point_over_the_target_ends_the_match_and_the_lowest_total_wins() -> None:
    t = Table(options={"target_points": 50}, initial_totals=[32, 10, 50, 12])
    last = play_first_example(t)
    assert last[-1] == MatchEnded(winner=1, totals=(51, 21, 50, 50), reason="target")


def test_r6_7_r7_1_target_0_plays_a_single_hand() -> None:
    t = Table(options={"target_points": 0})
    last = play_first_example(t)
    assert last[-1] == MatchEnded(winner=2, totals=(19, 11, 0, 38), reason="single_hand")


def test_r6_10_next_hand_is_refused_while_a_hand_is_in_progress() -> None:
    t = Table()
    t.deal(FIRST, "3H")
    t.rejects("hand_in_progress", "S11", SPEC.deal_command(t.state, Deal.from_seed(SPEC.deck(t.state), "00" * 32)))


# ---------------------------------------------------------------------------- R6.4, second worked example

# Up-card 2D, dealer 3.  Seats 1 and 2 each shed six cards in four turns (two eights each); in the
# fifth round seat 0 plays 7D, seat 1 goes out with 7H (4 now due) and seat 2, holding 5S, draws
# 3C 4C 5C 6C.
SECOND = ["3D 6H JC QH 7D KS 9C", "8D 4D 6S 8C 2C JH 7H", "4H 8S TS 2H 8H TH 5S", "5H TC KH TD AS QC 3S"]


def test_r6_4_worked_example_two_seat_1_goes_out_with_a_stacked_seven_and_seat_2_scores_23() -> None:
    t = Table()
    t.deal(SECOND, "2D", "3C 4C 5C 6C")
    moves = [
        (0, "3D"), (1, "8D"), (1, "4D"), (2, "4H"), (3, "5H"),
        (0, "6H"), (1, "6S"), (2, "8S"), (2, "TS"), (3, "TC"),
        (0, "JC"), (1, "8C"), (1, "2C"), (2, "2H"), (3, "KH"),
        (0, "QH"), (1, "JH"), (2, "8H"), (2, "TH"), (3, "TD"),
    ]  # fmt: skip
    for seat, card in moves:
        t.play(seat, card)
    assert (t.hand(1), t.hand(2)) == ("7H", "5S")
    assert t.play(0, "7D") == (played(0, "7D", "D", pending=2), turn(1))
    assert t.play(1, "7H") == (
        played(1, "7H", "H", pending=4),
        drew(2, "3C 4C 5C 6C", "last_seven"),
        *went_out(
            1,
            (("9C", "KS"), (), ("3C", "4C", "5C", "6C", "5S"), ("QC", "3S", "AS")),
            hand_points=(19, 0, 5 + 3 + 4 + 5 + 6, 10 + 3 + 11),
            totals=(19, 0, 23, 24),
        ),
    )
    assert t.to_act is None  # seat 2 draws but does not play (R5.2.6)


def test_r7_6_2_in_the_second_worked_example_a_forbidden_last_seven_is_refused() -> None:
    t = Table(options={"seven_last_card": "forbidden"})
    t.deal(SECOND, "2D", "3C 4C 5C 6C")
    for seat, card in [(0, "3D"), (1, "8D"), (1, "4D"), (2, "4H"), (3, "5H"), (0, "6H"), (1, "6S"), (2, "8S"),
                       (2, "TS"), (3, "TC"), (0, "JC"), (1, "8C"), (1, "2C"), (2, "2H"), (3, "KH"), (0, "QH"),
                       (1, "JH"), (2, "8H"), (2, "TH"), (3, "TD"), (0, "7D")]:  # fmt: skip
        t.play(seat, card)
    t.rejects_play("last_card_forbidden", "R7.6.2", 1, "7H")
    assert t.draw(1) == (drew(1, "3C 4C", "penalty"),)
