"""Vida: capot, the contract test, rounding and booking a hand (R6.1-R6.8, D17-D25)."""

from __future__ import annotations

import pytest

from trapoula.domain.cards import Suit
from trapoula.domain.games.vida.scoring import Contract, HandScore, round_points, score_hand

H, S, D, C = Suit.HEARTS, Suit.SPADES, Suit.DIAMONDS, Suit.CLUBS


# ------------------------------------------------------------------------------ contract (R4.5, R4.7)


@pytest.mark.parametrize(("level", "multiplier"), [(0, 1), (1, 2), (2, 4), (3, 6), (4, 8)])
def test_r4_7_multiplier_of_each_vida_level(level: int, multiplier: int) -> None:
    assert Contract(2, 0, 100, H, level).multiplier == multiplier


@pytest.mark.parametrize(
    ("holder", "team", "points", "level"),
    [(0, 1, 90, 0), (4, 0, 90, 0), (1, 1, 95, 0), (1, 1, 0, 0), (1, 1, 90, 5), (1, 1, 90, -1)],
)
def test_r2_3_r4_5_an_impossible_contract_is_an_error(holder: int, team: int, points: int, level: int) -> None:
    with pytest.raises(ValueError):
        Contract(holder, team, points, H, level)


# ---------------------------------------------------------------------------------- rounding (R6.4)


@pytest.mark.parametrize(
    ("raw", "rounded"),
    [
        ((100, 62), (100, 60)),  # last digits 0 and 2: both down
        ((101, 61), (100, 60)),  # 1 and 1: both down (R6.4 example 101 -> 100)
        ((92, 70), (90, 70)),  # 2 and 0
        ((83, 79), (80, 80)),  # 3 down, 9 up
        ((104, 58), (100, 60)),  # 4 down, 8 up
        ((85, 77), (80, 80)),  # 5 down (R6.4 example 85 -> 80), 7 up
        ((97, 65), (100, 60)),  # 7 up (R6.4 example 97 -> 100), 5 down
        ((68, 94), (70, 90)),  # 8 up (R6.4 example 68 -> 70), 4 down
        ((129, 33), (130, 30)),  # 9 up, 3 down
        ((60, 102), (60, 100)),  # 0 (R6.4 example 60 -> 60), 2
        ((0, 162), (0, 160)),
    ],
)
def test_r6_4_rounding_for_each_last_digit(raw: tuple[int, int], rounded: tuple[int, int]) -> None:
    """Last digit 0-5 rounds down, 7-9 up; the jack of trumps does not matter then."""
    assert round_points(raw, 0) == rounded
    assert round_points(raw, 1) == rounded
    assert round_points(raw, None) == rounded


def test_r6_4_d23_last_digit_6_the_team_with_the_trump_jack_rounds_up() -> None:
    """146 / 16: 150 / 10 if the 146-team took the trump jack, 140 / 20 if the 16-team did."""
    assert round_points((146, 16), 0) == (150, 10)
    assert round_points((146, 16), 1) == (140, 20)
    assert round_points((16, 146), 1) == (10, 150)
    assert round_points((16, 146), 0) == (20, 140)
    assert round_points((76, 86), 0) == (80, 80)
    assert round_points((76, 86), 1) == (70, 90)


def test_r6_4_last_digit_6_needs_the_jack_team() -> None:
    with pytest.raises(ValueError, match="146"):
        round_points((146, 16), None)


@pytest.mark.parametrize("jack_team", [0, 1])
def test_r6_4_rounded_trick_points_always_total_160(jack_team: int) -> None:
    """Every split of 162 raw points rounds to two multiples of 10 adding up to 160, each within 6."""
    for a in range(163):
        rounded = round_points((a, 162 - a), jack_team)
        assert sum(rounded) == 160
        assert rounded[0] % 10 == 0 and rounded[1] % 10 == 0
        assert abs(rounded[0] - a) <= 6


# ---------------------------------------------------------------------- worked examples (R6.8)


def test_r6_8_example_1_made_contract_without_vida() -> None:
    """90 hearts by team 0; raw 101 / 61: made; rounded 100 / 60; team 0 books 90 + 100 = 190, team 1 60."""
    score = score_hand(Contract(0, 0, 90, H, 0), (5, 3), (101, 61), 0, (0, 0), (0, 0))
    assert score == HandScore(
        tricks_won=(5, 3),
        trick_points_raw=(101, 61),
        capot_team=None,
        trick_points=(100, 60),
        declaration_points=(0, 0),
        belote_points=(0, 0),
        contract_points=(101, 61),
        contract_made=True,
        hand_points=(190, 60),
    )


def test_r6_8_example_2_failed_contract_defenders_book_everything() -> None:
    """120 spades by team 1 with a quarte (50); team 0's belote (20); raw 98 / 64.  64 + 50 = 114 < 120:
    failed; team 1 books 0, team 0 120 + 160 + 50 + 20 = 350."""
    score = score_hand(Contract(1, 1, 120, S, 0), (4, 4), (98, 64), 0, (0, 50), (20, 0))
    assert score.contract_points == (118, 114)
    assert score.contract_made is False
    assert score.trick_points == (100, 60)
    assert score.hand_points == (350, 0)


def test_r6_8_example_3_a_tie_fails_the_contract() -> None:
    """80 by team 0, raw 81 / 81: 81 >= 80 but not > 81: failed; team 1 books 80 + 160 = 240 (D22)."""
    score = score_hand(Contract(0, 0, 80, C, 0), (4, 4), (81, 81), 1, (0, 0), (0, 0))
    assert (score.contract_made, score.trick_points, score.hand_points) == (False, (80, 80), (0, 240))


def test_r6_8_example_3_made_when_bidders_need_not_outscore() -> None:
    """Same with bidders_must_outscore = false: made; 81 -> 80 and 81 -> 80; team 0 80 + 80 = 160, team 1 80."""
    score = score_hand(Contract(0, 0, 80, C, 0), (4, 4), (81, 81), 1, (0, 0), (0, 0), must_outscore=False)
    assert (score.contract_made, score.trick_points, score.hand_points) == (True, (80, 80), (160, 80))


def test_r6_8_example_4_146_with_the_trump_jack_rounds_to_150() -> None:
    """Raw 146 / 16, the 146-team won the trump jack: 150 / 10; booked in a made 90 by that team."""
    score = score_hand(Contract(0, 0, 90, H, 0), (7, 1), (146, 16), 0, (0, 0), (0, 0))
    assert (score.trick_points, score.hand_points) == ((150, 10), (240, 10))
    score = score_hand(Contract(0, 0, 90, H, 0), (7, 1), (146, 16), 1, (0, 0), (0, 0))
    assert (score.trick_points, score.hand_points) == ((140, 20), (230, 20))


def test_r6_8_example_5_vida_made_the_winner_books_double_bid_160_and_declarations() -> None:
    """90 diamonds by team 0 with vida (x2); team 1's tierce (20); raw 95 / 67: 95 >= 90 and
    95 > 67 + 20 = 87: made; team 0 books 2 x 90 + 160 + 20 = 360, team 1 0."""
    score = score_hand(Contract(2, 0, 90, D, 1), (5, 3), (95, 67), 0, (0, 20), (0, 0))
    assert score.contract_points == (95, 87)
    assert score.contract_made is True
    assert score.trick_points == (90, 70)
    assert score.hand_points == (360, 0)


def test_r6_8_example_6_capot_books_250() -> None:
    """100 by team 0, team 0 wins all eight tricks: 250 >= 100, made; team 0 100 + 250 = 350."""
    score = score_hand(Contract(0, 0, 100, H, 0), (8, 0), (162, 0), 0, (0, 0), (0, 0))
    assert score == HandScore(
        tricks_won=(8, 0),
        trick_points_raw=(162, 0),
        capot_team=0,
        trick_points=(250, 0),
        declaration_points=(0, 0),
        belote_points=(0, 0),
        contract_points=(250, 0),
        contract_made=True,
        hand_points=(350, 0),
    )


def test_r6_8_example_7_d19_d20_capot_short_of_270_fails_and_defenders_book_160() -> None:
    """270 by team 0, capot, team 0's tierce lost to team 1's quarte: 250 < 270, failed; team 1
    books 270 + 160 + 50 = 480 (160, not 250: the capot is not theirs, D20); team 0 books 0."""
    score = score_hand(Contract(0, 0, 270, S, 0), (8, 0), (162, 0), 0, (0, 50), (0, 0))
    assert score.capot_team == 0
    assert score.trick_points == (250, 0)
    assert score.contract_points == (250, 50)
    assert score.contract_made is False
    assert score.hand_points == (0, 480)


def test_r6_2_d19_capot_counts_250_in_the_contract_test() -> None:
    """Glossary: had the tierce counted, 250 + 20 = 270 makes the 270 contract; team 0 books
    270 + 250 + 20 = 540."""
    score = score_hand(Contract(0, 0, 270, S, 0), (8, 0), (162, 0), 0, (20, 0), (0, 0))
    assert (score.contract_points, score.contract_made, score.hand_points) == ((270, 0), True, (540, 0))


# ------------------------------------------------------------------ contract test (R6.3, R6.5, R6.6)


def test_r6_3_r6_5_contract_made_by_team_1_both_teams_book_their_points() -> None:
    """100 spades by seat 3 (team 1); raw 52 / 110, team 1's belote 20: 130 >= 100 and > 52, made;
    52 -> 50, 110 -> 110; team 1 books 100 + 110 + 20 = 230, team 0 books 50."""
    score = score_hand(Contract(3, 1, 100, S, 0), (3, 5), (52, 110), 1, (0, 0), (0, 20))
    assert (score.contract_points, score.contract_made) == ((52, 130), True)
    assert (score.trick_points, score.hand_points) == ((50, 110), (50, 230))


def test_r6_3_d22_declarations_count_towards_reaching_the_bid_exactly() -> None:
    """100 hearts by team 0: raw 80 / 82 plus a tierce 20 = 100: exactly the bid and > 82: made;
    team 0 books 100 + 80 + 20 = 200, team 1 80."""
    score = score_hand(Contract(0, 0, 100, H, 0), (4, 4), (80, 82), 0, (20, 0), (0, 0))
    assert (score.contract_points, score.contract_made, score.hand_points) == ((100, 82), True, (200, 80))


def test_r6_3_one_point_short_of_the_bid_fails() -> None:
    score = score_hand(Contract(0, 0, 100, H, 0), (4, 4), (79, 83), 0, (20, 0), (0, 0))
    assert (score.contract_points, score.contract_made) == ((99, 83), False)
    assert score.hand_points == (0, 100 + 160 + 20)


def test_r6_3_d25_reaching_the_bid_but_not_outscoring_fails() -> None:
    """80 by team 0: raw 82 / 80, team 1 won the declarations with a tierce: 82 >= 80 but 82 < 100:
    failed; team 1 books 80 + 160 + 20 = 260.  Without the outscore duty it is made: team 0
    80 + 80 = 160, team 1 80 + 20 = 100 (D25: the defenders keep their declarations)."""
    score = score_hand(Contract(0, 0, 80, H, 0), (4, 4), (82, 80), 0, (0, 20), (0, 0))
    assert (score.contract_made, score.hand_points) == (False, (0, 260))
    score = score_hand(Contract(0, 0, 80, H, 0), (4, 4), (82, 80), 0, (0, 20), (0, 0), must_outscore=False)
    assert (score.contract_made, score.hand_points) == (True, (160, 100))


def test_r6_6_d17_belote_stays_with_failing_bidders_without_vida() -> None:
    """110 by team 1 with belote 20: raw 80 / 82, 102 < 110: failed; team 1 still books its 20;
    team 0 books 110 + 160 = 270."""
    score = score_hand(Contract(1, 1, 110, H, 0), (4, 4), (80, 82), 0, (0, 0), (0, 20))
    assert (score.contract_points, score.contract_made, score.hand_points) == ((80, 102), False, (270, 20))


def test_r6_5_d25_defenders_book_their_own_belote_when_the_contract_is_made() -> None:
    """90 by team 0; raw 110 / 52; team 1's belote 20: 110 > 72, made; team 0 90 + 110 = 200, team 1
    50 + 20 = 70."""
    score = score_hand(Contract(0, 0, 90, C, 0), (6, 2), (110, 52), 0, (0, 0), (0, 20))
    assert (score.contract_made, score.hand_points) == (True, (200, 70))


# ---------------------------------------------------------------------------------- vida (R6.7, D24)


@pytest.mark.parametrize(("level", "booked"), [(1, 380), (2, 580), (3, 780), (4, 980)])
def test_r6_7_d24_vida_made_winner_takes_bid_times_multiplier_160_and_both_belotes(level: int, booked: int) -> None:
    """100 hearts by team 1 at vida level 1-4; raw 60 / 102; team 0's belote 20: 102 >= 100 and
    102 > 80: made; team 1 books 100 x (2, 4, 6, 8) + 160 + 20 (the defenders' belote too), team 0
    nothing."""
    score = score_hand(Contract(1, 1, 100, H, level), (3, 5), (60, 102), 1, (0, 0), (20, 0))
    assert score.contract_made is True
    assert score.trick_points == (60, 100)
    assert score.hand_points == (0, booked)


@pytest.mark.parametrize(("level", "booked"), [(1, 430), (2, 630), (3, 830), (4, 1030)])
def test_r6_7_d17_vida_failed_the_defenders_take_the_bidders_belote(level: int, booked: int) -> None:
    """100 hearts by team 1 at vida level 1-4; team 0 won the declarations with a quarte (50); team 1
    announced belote (20); raw 90 / 72: 92 < 100, failed; team 0 books 100 x (2, 4, 6, 8) + 160 + 50
    + 20, team 1 nothing, not even its belote (D17)."""
    score = score_hand(Contract(3, 1, 100, H, level), (5, 3), (90, 72), 0, (50, 0), (0, 20))
    assert score.contract_points == (140, 92)
    assert score.contract_made is False
    assert score.hand_points == (booked, 0)


def test_r6_6_the_same_hand_without_vida_keeps_the_belote_with_its_team() -> None:
    """The failed hand above at level 0: team 1 books its belote 20, team 0 100 + 160 + 50 = 310."""
    score = score_hand(Contract(3, 1, 100, H, 0), (5, 3), (90, 72), 0, (50, 0), (0, 20))
    assert (score.contract_made, score.hand_points) == (False, (310, 20))


def test_r6_7_vida_winner_with_capot_books_250() -> None:
    """120 by team 0 at contra vida (x4), capot: 120 x 4 + 250 = 730."""
    score = score_hand(Contract(0, 0, 120, H, 2), (8, 0), (162, 0), 0, (0, 0), (0, 0))
    assert (score.contract_made, score.hand_points) == (True, (730, 0))


def test_r6_7_d20_vida_failed_after_the_bidders_capot_the_defenders_book_160() -> None:
    """270 by team 0 with vida, capot, team 1's quarte (50): 250 < 270 failed; team 1 books
    270 x 2 + 160 + 50 = 750 (they did not win all the tricks)."""
    score = score_hand(Contract(0, 0, 270, H, 1), (8, 0), (162, 0), 0, (0, 50), (0, 0))
    assert (score.contract_made, score.hand_points) == (False, (0, 750))


def test_r6_7_vida_reverse_capot_books_250() -> None:
    """90 by team 0 with vida; team 1 wins all eight tricks: failed; team 1 books 90 x 2 + 250 = 430."""
    score = score_hand(Contract(0, 0, 90, H, 1), (0, 8), (0, 162), 1, (0, 0), (0, 0))
    assert (score.capot_team, score.contract_made, score.hand_points) == (1, False, (0, 430))


# ----------------------------------------------------------------------- capot (R6.2, D20, D21)


def test_r6_6_d20_reverse_capot_the_defenders_book_bid_plus_250() -> None:
    """90 by team 0 with belote 20; team 1 wins all eight tricks and a tierce (20): 20 < 90, failed;
    team 1 books 90 + 250 + 20 = 360; team 0 keeps its belote 20 (D17)."""
    score = score_hand(Contract(0, 0, 90, H, 0), (0, 8), (0, 162), 1, (0, 20), (20, 0))
    assert score.capot_team == 1
    assert score.trick_points == (0, 250)
    assert score.contract_points == (20, 270)
    assert (score.contract_made, score.hand_points) == (False, (20, 360))


def test_r6_5_d21_reverse_capot_with_a_made_contract_uses_the_general_formulas() -> None:
    """80 by team 0 holding four jacks and four nines (350); team 1 wins all eight tricks: 350 >= 80
    and 350 > 250, made; team 0 books 80 + 0 + 350 = 430, team 1 250."""
    score = score_hand(Contract(0, 0, 80, H, 0), (0, 8), (0, 162), 1, (350, 0), (0, 0))
    assert (score.contract_points, score.contract_made) == ((350, 250), True)
    assert (score.trick_points, score.hand_points) == ((0, 250), (430, 250))


def test_r6_2_capot_needs_no_jack_team_and_is_never_rounded() -> None:
    score = score_hand(Contract(1, 1, 90, H, 0), (0, 8), (0, 162), None, (0, 0), (0, 0))
    assert (score.trick_points, score.hand_points) == ((0, 250), (0, 340))


# ------------------------------------------------------------------------------------ bad input


@pytest.mark.parametrize(
    ("tricks", "raw"),
    [((4, 3), (81, 81)), ((5, 3), (100, 61)), ((8, 0), (150, 12)), ((-1, 9), (0, 162))],
)
def test_r6_1_inconsistent_tricks_or_raw_points_are_an_error(tricks: tuple[int, int], raw: tuple[int, int]) -> None:
    with pytest.raises(ValueError):
        score_hand(Contract(0, 0, 90, H, 0), tricks, raw, 0, (0, 0), (0, 0))


def test_r6_4_a_raw_total_ending_in_6_without_the_jack_team_is_an_error() -> None:
    with pytest.raises(ValueError):
        score_hand(Contract(0, 0, 90, H, 0), (7, 1), (146, 16), None, (0, 0), (0, 0))
