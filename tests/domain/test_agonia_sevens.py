"""Agonia: sevens, the stackable draw-two (R5.2; S9; decisions 6, 7, 8, 9, 32, 33; option R7.6)."""

from __future__ import annotations

from agonia_helpers import Table, down_to_one, drew, passed, played, turn, went_out

# Up-card 2C; seat 0 (first player, dealer 3) to act.  Every seat holds one seven.
S = ["7C 3C 4C 5C 6C KH 2S", "7D 3D 4D 5D 6D QH TC", "7H 3H 4H 5H 6H JH AC", "7S 8S 9S TS JS QS KS"]
STOCK = "2H 8H 9H TH QD KD AD 2D"


def table_s() -> Table:
    """Four players, hands ``S``, up-card 2C, the stock starting with ``STOCK``."""
    t = Table()
    t.deal(S, "2C", STOCK)
    return t


def test_r5_2_1_a_seven_makes_the_next_player_owe_two() -> None:
    t = table_s()
    assert t.play(0, "7C") == (played(0, "7C", "C", pending=2), turn(1))
    assert (t.to_act, t.pending) == (1, 2)
    assert t.view(2)["pending_draw"] == 2


def test_r5_2_2_a_seven_on_a_pending_seven_passes_four_to_the_next_player() -> None:
    t = table_s()
    t.play(0, "7C")
    assert t.play(1, "7D") == (played(1, "7D", "D", pending=4), turn(2))
    assert (t.to_act, t.pending) == (2, 4)


def test_r5_2_2_sevens_stack_across_players_two_four_six_and_the_taker_draws_all_six_at_once() -> None:
    t = table_s()
    assert t.play(0, "7C") == (played(0, "7C", "C", pending=2), turn(1))
    assert t.play(1, "7D") == (played(1, "7D", "D", pending=4), turn(2))
    assert t.play(2, "7H") == (played(2, "7H", "H", pending=6), turn(3))
    assert t.draw(3) == (drew(3, "2H 8H 9H TH QD KD", "penalty"),)
    assert (t.to_act, t.pending) == (3, 0)
    assert t.hand(3) == "QD KD 2H 8H 9H TH 7S 8S 9S TS JS QS KS"


def test_r5_2_2_the_fourth_seven_makes_eight_due_back_at_the_first_player() -> None:
    t = table_s()
    for seat, card in enumerate(("7C", "7D", "7H")):
        t.play(seat, card)
    assert t.play(3, "7S") == (played(3, "7S", "S", pending=8), turn(0))
    assert t.draw(0) == (drew(0, "2H 8H 9H TH QD KD AD 2D", "penalty"),)


def test_r5_2_2_the_player_who_owes_may_take_the_cards_even_holding_a_seven() -> None:
    t = table_s()
    t.play(0, "7C")
    assert t.draw(1) == (drew(1, "2H 8H", "penalty"),)
    assert "7D" in t.hand(1)


def test_r5_2_3_while_a_draw_is_pending_only_a_seven_may_be_played_and_pass_is_refused() -> None:
    t = table_s()
    t.play(0, "7C")
    t.rejects_play("penalty_pending", "R5.2.3", 1, "TC")  # matches the 7C by suit
    t.rejects("penalty_pending", "R5.2.3", t.command("pass", 1))
    assert t.legal(1) == [{"kind": "play", "seat": 1, "card": "7D"}, {"kind": "draw", "seat": 1}]
    t.play(1, "7D")
    t.rejects_play("penalty_pending", "R5.2.3", 2, "AC")  # decision 8: not even an ace
    t.rejects_play("penalty_pending", "R5.2.3", 2, "AC", suit="D")


def test_r5_2_4_after_taking_the_cards_he_may_not_pass_straight_away_but_plays_on_the_seven() -> None:
    t = table_s()
    t.play(0, "7C")
    t.draw(1)
    t.rejects("must_draw_first", "R4.4", t.command("pass", 1))
    assert t.play(1, "TC") == (played(1, "TC", "C"), turn(2))


def test_r5_2_4_after_taking_the_cards_he_may_still_draw_one_card_then_pass() -> None:
    t = table_s()
    t.play(0, "7C")
    assert t.draw(1) == (drew(1, "2H 8H", "penalty"),)
    assert t.draw(1) == (drew(1, "9H"),)  # decision 32: taking is not the turn's one draw
    t.rejects("already_drawn", "R4.3", t.command("draw", 1))
    assert t.pass_(1) == (passed(1), turn(2))


def test_r5_2_4_decision_33_after_the_penalty_is_taken_the_seven_is_plain_and_an_ace_may_go_on_it() -> None:
    t = table_s()
    t.play(0, "7C")
    t.play(1, "7D")
    assert t.draw(2) == (drew(2, "2H 8H 9H TH", "penalty"),)
    assert t.play(2, "AC", suit="H") == (played(2, "AC", "H", declared="H"), turn(3))


def test_r5_2_5_a_seven_played_after_taking_counts_as_a_first_seven() -> None:
    t = table_s()
    t.play(0, "7C")
    t.draw(1)
    assert t.play(1, "7D") == (played(1, "7D", "D", pending=2), turn(2))


def test_decision_33_a_seven_left_on_top_after_a_pass_starts_a_new_draw_of_two() -> None:
    t = table_s()
    t.play(0, "7C")
    t.draw(1)
    t.draw(1)
    t.pass_(1)
    assert (t.top, t.pending) == ("7C", 0)
    t.rejects_play("no_match", "R4.1", 2, "3H")
    assert t.play(2, "7H") == (played(2, "7H", "H", pending=2), turn(3))


def test_r5_2_6_a_seven_may_be_the_last_card_and_the_next_player_draws_two_before_the_hand_ends() -> None:
    t = down_to_one("7H", stock="KC QC")
    assert t.play(0, "7H") == (
        played(0, "7H", "H", pending=2),
        drew(1, "KC QC", "last_seven"),
        *went_out(
            0,
            ((), ("QC", "KC", "2D", "3D", "4D", "5D", "6D", "7D", "TD")),
            hand_points=(0, 37 + 10 + 10),
            totals=(0, 57),
        ),
    )
    assert t.to_act is None
    assert t.pending == 0


def test_r7_6_2_with_seven_last_card_forbidden_a_seven_may_not_be_the_last_card() -> None:
    t = down_to_one("7H", options={"seven_last_card": "forbidden"})
    t.rejects_play("last_card_forbidden", "R7.6.2", 0, "7H")
    assert [c["kind"] for c in t.legal(0)] == ["draw"]


def test_r7_6_2_with_seven_last_card_forbidden_a_seven_that_is_not_the_last_card_still_counts() -> None:
    t = Table(options={"seven_last_card": "forbidden"})
    t.deal(S, "2C", STOCK)
    assert t.play(0, "7C") == (played(0, "7C", "C", pending=2), turn(1))
