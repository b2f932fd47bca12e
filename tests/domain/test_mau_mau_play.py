"""Mau Mau: the turn, legal moves and the special cards (R4, R5.1-R5.5; S3, S6, S9)."""

from __future__ import annotations

import pytest
from mau_mau_helpers import Table, drew, played, reversed_, skipped, turn

from trapoula.domain.errors import InvalidInput

# Three players, dealer 2 (R3.1), seat 0 first; up-card 5D.
H0 = "5H 9H 8H 7H JC AH KS"
H1 = "5C 7C 8C 9C 2D 3D QS"
H2 = "6H 7D 8D 9D JD AD 4S"
STOCK = "2C 3C 4C 6C TC"


def table(starter: str = "5D", hands: tuple[str, str, str] = (H0, H1, H2), players: int = 3) -> Table:
    t = Table(players)
    t.deal(list(hands)[:players], starter, STOCK)
    return t


def test_r4_1_a_card_of_the_same_rank_plays_and_the_turn_goes_clockwise_r4_5() -> None:
    t = table()
    assert t.play(0, "5H") == (played(0, "5H", "H"), turn(1))
    assert (t.top, t.active_suit, t.to_act) == ("5H", "H", 1)


def test_r4_1_a_card_of_the_active_suit_plays() -> None:
    t = table()
    t.play(0, "5H")
    t.play(1, "5C")  # rank
    assert t.play(2, "JD") == (played(2, "JD", "D"), turn(0))  # a jack on anything (R5.4.1)


def test_r4_1_a_card_matching_neither_rank_nor_suit_is_refused() -> None:
    t = table()
    t.rejects_play("no_match", "R4.1", 0, "KS")
    assert [c["card"] for c in t.legal(0) if c["kind"] == "play" and "suit" not in c] == ["JC", "5H"]


def test_s3_7_only_the_seat_to_act_plays_draws_or_passes() -> None:
    t = table()
    t.rejects_play("not_your_turn", "S3.7", 1, "5C")
    t.rejects("not_your_turn", "S3.7", t.command("draw", 1))
    t.rejects("not_your_turn", "S3.7", t.command("pass", 2))
    assert t.kinds(1) == ["leave"]  # R6.10: leave is always open to a seated player


def test_s11_a_card_not_in_hand_and_a_suit_on_a_plain_card_are_refused_s6_3() -> None:
    t = table()
    t.rejects_play("card_not_in_hand", "S11", 0, "5S")
    t.rejects_play("suit_not_allowed", "S6.3", 0, "5H", suit="C")
    with pytest.raises(InvalidInput) as bad:
        t.command("play", 0, card="JC", suit="X")
    assert bad.value.reason == "bad_suit"
    with pytest.raises(InvalidInput) as bad_card:
        t.command("play", 0, card="1C")
    assert bad_card.value.reason == "bad_card"


def test_r4_2_r4_3_drawing_ends_the_turn_even_with_a_card_that_plays() -> None:
    t = table()
    assert t.draw(0) == (drew(0, "2C"), turn(1))
    assert "2C" in t.hand(0)
    t.rejects_play("not_your_turn", "S3.7", 0, "5H")


def test_r4_4_pass_is_refused_while_a_card_can_be_drawn() -> None:
    t = table()
    t.rejects("must_draw_first", "R4.4", t.command("pass", 0))
    assert t.kinds(0) == ["play", "draw", "mau", "leave"]


def test_s11_nothing_but_leave_is_open_between_hands_or_before_the_first() -> None:
    t = Table(3)
    t.rejects("hand_over", "S11", t.command("draw", 0))
    t.rejects("hand_over", "S11", t.command("mau", 0))
    assert t.legal(0) == [{"kind": "leave", "seat": 0}]


# --------------------------------------------------------------------------- sevens


def test_r5_1_1_a_seven_makes_the_next_player_owe_two() -> None:
    t = table("5H")
    assert t.play(0, "7H") == (played(0, "7H", "H", pending=2), turn(1))
    assert t.view(2)["pending_draw"] == 2


def test_r5_1_2_a_seven_on_a_seven_passes_four_on_and_the_taker_draws_all_in_one_event() -> None:
    t = table("5H")
    t.play(0, "7H")
    assert t.play(1, "7C") == (played(1, "7C", "C", pending=4), turn(2))
    assert t.draw(2) == (drew(2, "2C 3C 4C 6C", "penalty"), turn(0))  # R5.1.4: his turn ends
    assert t.pending == 0


def test_r5_1_3_while_a_draw_is_pending_only_a_seven_plays_not_even_a_jack_and_pass_is_refused() -> None:
    t = table("5H")
    t.play(0, "7H")
    t.rejects_play("penalty_pending", "R5.1.3", 1, "5C")
    t.play(1, "7C")
    t.rejects_play("penalty_pending", "R5.1.3", 2, "JD")
    t.rejects_play("penalty_pending", "R5.1.3", 2, "JD", suit="H")
    t.rejects("penalty_pending", "R5.1.3", t.command("pass", 2))
    assert t.legal(2) == [
        {"kind": "play", "seat": 2, "card": "7D"},
        {"kind": "draw", "seat": 2},
        {"kind": "mau", "seat": 2},
        {"kind": "leave", "seat": 2},
    ]


def test_r5_1_2_stacking_is_optional_s9_4() -> None:
    t = table("5H")
    t.play(0, "7H")
    assert t.draw(1) == (drew(1, "2C 3C", "penalty"), turn(2))
    assert "7C" in t.hand(1)


# --------------------------------------------------------------------------- eights


def test_r5_2_1_an_eight_skips_the_next_player() -> None:
    t = table("5H")
    assert t.play(0, "8H") == (played(0, "8H", "H"), skipped(1), turn(2))


def test_r5_2_2_with_two_players_the_player_of_the_eight_plays_again() -> None:
    t = table("5H", players=2)
    assert t.play(0, "8H") == (played(0, "8H", "H"), skipped(1), turn(0))
    assert t.play(0, "9H") == (played(0, "9H", "H"), reversed_(-1), turn(1))  # R5.3.2


# --------------------------------------------------------------------------- nines


def test_r5_3_1_a_nine_reverses_and_the_neighbour_on_the_other_side_plays() -> None:
    t = table("5H")
    assert t.play(0, "9H") == (played(0, "9H", "H"), reversed_(-1), turn(2))
    assert t.view(1)["direction"] == -1


def test_r5_3_3_the_direction_stays_reversed_until_another_nine_and_a_seven_goes_that_way() -> None:
    t = table("5H", hands=(H0, H1, "6H 7H 8D 9D JD AD 4S"))
    t.play(0, "9H")
    assert t.play(2, "7H") == (played(2, "7H", "H", pending=2), turn(1))  # counter-clockwise
    t.draw(1)
    assert t.to_act == 0
    t.play(0, "JC", "D")
    assert t.play(2, "9D") == (played(2, "9D", "D"), reversed_(1), turn(0))


def test_r3_5_every_hand_starts_clockwise_again() -> None:
    t = Table(2, options={"elimination_limit": -10_000})
    t.deal(["9H AH AD AS AC AH 5H", "2C 3C 4C 5C 6C 7C 8C"], "2H")
    t.play(0, "9H")
    assert t.state.direction == -1
    t.draw(1)
    for card in ("AH", "AD", "AS", "AC"):
        t.play(0, card)
    t.mau(0)
    t.play(0, "AH")
    t.play(0, "5H")  # out (R6.1)
    assert t.state.phase.value == "hand_over"
    t.seeded()
    assert (t.state.direction, t.view(0)["direction"]) == (1, 1)


# --------------------------------------------------------------------------- jacks


def test_r5_4_2_a_jack_chooses_the_suit_the_next_player_must_play() -> None:
    t = table()
    assert t.play(0, "JC", "S") == (played(0, "JC", "S", declared="S"), turn(1))
    t.rejects_play("no_match", "R4.1", 1, "5C")
    assert t.play(1, "QS") == (played(1, "QS", "S"), turn(2))


def test_r5_4_2_a_jack_without_a_choice_keeps_its_own_suit() -> None:
    t = table()
    assert t.play(0, "JC") == (played(0, "JC", "C"), turn(1))
    assert t.active_suit == "C"


def test_r5_4_1_a_jack_plays_on_a_jack_with_or_without_a_suit() -> None:
    t = table()
    t.play(0, "JC", "H")
    t.draw(1)
    assert [c.get("suit") for c in t.legal(2) if c.get("card") == "JD"] == [None, "C", "D", "H", "S"]
    assert t.play(2, "JD", "S") == (played(2, "JD", "S", declared="S"), turn(0))


# --------------------------------------------------------------------------- aces


def test_r5_5_1_after_an_ace_the_same_player_plays_again_or_draws_and_may_not_pass() -> None:
    t = table("5H")
    assert t.play(0, "AH") == (played(0, "AH", "H"),)
    assert (t.to_act, t.view(0)["ace_pending"]) == (0, True)
    t.rejects("must_play_or_draw", "R5.5.1", t.command("pass", 0))
    assert t.play(0, "5H") == (played(0, "5H", "H"), turn(1))
    assert t.view(0)["ace_pending"] is False


def test_r5_5_2_drawing_after_an_ace_ends_the_turn() -> None:
    t = table("5H")
    t.play(0, "AH")
    assert t.draw(0) == (drew(0, "2C"), turn(1))


def test_r5_5_3_the_extra_card_has_its_own_effect_and_aces_chain() -> None:
    t = table("5H", hands=("AH AD 8D 7H JC 2S KS", H1, H2))
    t.play(0, "AH")
    assert t.play(0, "AD") == (played(0, "AD", "D"),)  # another ace: R5.5.1 again
    assert t.play(0, "8D") == (played(0, "8D", "D"), skipped(1), turn(2))


# --------------------------------------------------------------------------- last cards


def test_r4_7_any_card_may_be_the_last_one_an_ace_an_eight_a_nine_or_a_jack() -> None:
    for last in ("AS", "8H", "9H", "JS"):
        t = Table(2)
        t.deal([f"AH AD AS AC AD AH {last}", "2C 3C 4C 5C 6C 7C 8C"], "2H")
        for card in ("AH", "AD", "AS", "AC", "AD"):
            t.play(0, card)
        t.mau(0)
        t.play(0, "AH")
        events = t.play(0, last, "H") if last == "JS" else t.play(0, last)
        assert [e.event_name() for e in events][:2] == ["CardPlayed", "HandEnded"], last  # R5.5.4, R6.1
        assert t.state.last_winner == 0
