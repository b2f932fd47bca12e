"""Agonia: the turn and legal moves, aces, eights, nines, last cards (R4, R5.1, R5.3, R5.4; S3, S6, S11)."""

from __future__ import annotations

import pytest
from agonia_helpers import CHAIN_EIGHTS_LAST, Table, down_to_one, drew, passed, played, skipped, turn, went_out

from trapoula.domain.errors import InvalidInput
from trapoula.domain.events import redact
from trapoula.domain.games.agonia import SPEC

# Up-card 5C; seat 0 (first player, dealer 3) to act.
D = ["5H KH 2C 3C 4C 8D AD", "5S 6H 2D 3D 4D 9C AS", "6C 7C TC JC 3S 4S 6S", "7S 8S 9S TS JS QS KS"]


def table_d(stock: str = "2H 3H 4H") -> Table:
    """Four players, hands ``D``, up-card 5C, the stock starting with ``stock``."""
    t = Table()
    t.deal(D, "5C", stock)
    return t


# ---------------------------------------------------------------------------- R4.1: matching


def test_r4_1_a_card_of_the_same_rank_is_legal_and_its_suit_becomes_the_active_suit() -> None:
    t = table_d()
    assert t.play(0, "5H") == (played(0, "5H", "H"), turn(1))
    assert (t.top, t.active_suit, t.to_act) == ("5H", "H", 1)
    assert t.hand(0) == "2C 3C 4C 8D AD KH"


def test_r4_1_a_card_of_the_active_suit_is_legal() -> None:
    t = table_d()
    assert t.play(0, "3C") == (played(0, "3C", "C"), turn(1))
    assert t.play(1, "9C") == (played(1, "9C", "C"), skipped(2, "nine"), turn(3))


def test_r4_1_a_card_matching_neither_rank_nor_suit_is_refused_no_match() -> None:
    t = table_d()
    err = t.rejects_play("no_match", "R4.1", 0, "KH")
    assert "'KH'" in err.message
    t.rejects_play("no_match", "R4.1", 0, "8D")


def test_r4_1_the_legal_commands_list_every_matching_card_every_ace_with_each_suit_and_draw() -> None:
    t = table_d()
    assert t.legal(0) == [
        {"kind": "play", "seat": 0, "card": "2C"},
        {"kind": "play", "seat": 0, "card": "3C"},
        {"kind": "play", "seat": 0, "card": "4C"},
        {"kind": "play", "seat": 0, "card": "AD"},
        {"kind": "play", "seat": 0, "card": "AD", "suit": "C"},
        {"kind": "play", "seat": 0, "card": "AD", "suit": "D"},
        {"kind": "play", "seat": 0, "card": "AD", "suit": "H"},
        {"kind": "play", "seat": 0, "card": "AD", "suit": "S"},
        {"kind": "play", "seat": 0, "card": "5H"},
        {"kind": "draw", "seat": 0},
    ]
    assert t.legal(1) == []


def test_s3_7_only_the_seat_to_act_may_play_draw_or_pass() -> None:
    table_d().refuses_out_of_turn(1, 2, 3)


def test_s11_a_card_not_in_the_hand_is_refused_card_not_in_hand() -> None:
    table_d().refuses_a_card_not_in_hand(0, "5S")


@pytest.mark.parametrize(
    ("raw", "reason"),
    [
        ({"kind": "play", "seat": 0, "card": "ZZ"}, "bad_card"),
        ({"kind": "play", "seat": 0, "card": "AD", "suit": "X"}, "bad_suit"),
        ({"kind": "play", "seat": 0}, "bad_card"),
        ({"kind": "play", "seat": "0", "card": "5H"}, "bad_seat"),
        ({"kind": "play", "seat": 0, "card": "5H", "announce": "yes"}, "bad_command"),
        ({"kind": "draw", "seat": 0, "card": "5H"}, "bad_command"),
        ({"kind": "fold", "seat": 0}, "bad_command"),
        ({"kind": "choose_suit", "seat": 0}, "bad_suit"),
    ],
)
def test_s2_1_s6_3_malformed_commands_are_invalid_input_before_the_rules_run(
    raw: dict[str, object], reason: str
) -> None:
    with pytest.raises(InvalidInput) as info:
        SPEC.parse_command(raw)
    assert info.value.reason == reason


# ---------------------------------------------------------------------------- R4.2-R4.5: draw, pass, turn order


def test_r4_2_a_player_may_draw_even_holding_a_legal_card_and_his_turn_goes_on() -> None:
    t = table_d()
    events = t.draw(0)
    assert events == (drew(0, "2H"),)
    assert t.to_act == 0
    # S7.1: only the drawer sees the card; seat, count and reason are public (S12).
    assert redact(events[0], 0)["cards"] == ["2H"]
    assert redact(events[0], 1) == {"seat": 0, "cards": None, "count": 1, "reason": "draw"}
    assert t.hand(0) == "2C 3C 4C 8D AD 2H 5H KH"
    assert t.stock.startswith("3H 4H")


def test_r4_3_after_drawing_he_may_play_any_legal_card_not_only_the_drawn_one() -> None:
    t = table_d()
    t.draw(0)
    assert t.play(0, "4C") == (played(0, "4C", "C"), turn(1))


def test_r4_3_after_drawing_he_may_play_the_drawn_card() -> None:
    t = table_d(stock="5D 2H")
    assert t.draw(0) == (drew(0, "5D"),)
    assert t.play(0, "5D") == (played(0, "5D", "D"), turn(1))


def test_r4_3_only_one_card_may_be_drawn_per_turn() -> None:
    t = table_d()
    t.draw(0)
    t.rejects("already_drawn", "R4.3", t.command("draw", 0))
    assert [c["kind"] for c in t.legal(0)].count("draw") == 0


def test_r4_4_a_player_may_not_pass_before_drawing_even_when_he_cannot_play() -> None:
    t = table_d()
    t.rejects("must_draw_first", "R4.4", t.command("pass", 0))
    t.play(0, "3C")
    t.draw(1)
    t.pass_(1)
    t.play(2, "6C")
    # Seat 3 holds 7S-KS: nothing matches 6C, and still he must draw before passing.
    assert [c["kind"] for c in t.legal(3)] == ["draw"]
    t.rejects("must_draw_first", "R4.4", t.command("pass", 3))


def test_r4_4_after_drawing_he_may_pass_even_though_he_could_play() -> None:
    t = table_d()
    t.draw(0)
    assert t.pass_(0) == (passed(0), turn(1))
    assert t.hand(0) == "2C 3C 4C 8D AD 2H 5H KH"
    assert (t.top, t.active_suit) == ("5C", "C")


def test_r4_5_the_turn_goes_clockwise_and_from_the_last_seat_back_to_seat_0() -> None:
    t = table_d()
    assert t.play(0, "5H") == (played(0, "5H", "H"), turn(1))
    assert t.play(1, "5S") == (played(1, "5S", "S"), turn(2))
    assert t.play(2, "6S") == (played(2, "6S", "S"), turn(3))
    assert t.play(3, "TS") == (played(3, "TS", "S"), turn(0))


def test_r4_5_a_drawing_turn_resets_for_the_next_player() -> None:
    t = table_d()
    t.draw(0)
    t.pass_(0)
    assert t.draw(1) == (drew(1, "3H"),)
    assert t.view(1)["drawn_this_turn"] is True


# ---------------------------------------------------------------------------- R5.1: aces


def test_r5_1_1_an_ace_may_be_played_on_any_card_and_without_a_declaration_keeps_its_suit() -> None:
    t = table_d()
    assert t.play(0, "AD") == (played(0, "AD", "D"), turn(1))
    assert t.active_suit == "D"
    assert t.play(1, "2D") == (played(1, "2D", "D"), turn(2))


def test_r5_1_2_the_ace_player_declares_a_suit_and_the_next_player_must_follow_it() -> None:
    t = table_d()
    assert t.play(0, "AD", suit="S") == (played(0, "AD", "S", declared="S"), turn(1))
    assert t.active_suit == "S"
    t.rejects_play("no_match", "R4.1", 1, "2D")  # the ace's own suit no longer counts (R5.1.5)
    t.rejects_play("no_match", "R4.1", 1, "6H")
    assert t.play(1, "5S") == (played(1, "5S", "S"), turn(2))


def test_r5_1_2_declaring_the_aces_own_suit_is_the_same_as_no_declaration() -> None:
    t = table_d()
    assert t.play(0, "AD", suit="D") == (played(0, "AD", "D", declared="D"), turn(1))
    assert t.active_suit == "D"


def test_r5_1_2_a_suit_may_be_declared_also_when_the_ace_matched_anyway() -> None:
    t = Table()
    t.deal(D, "5D")
    assert t.play(0, "AD", suit="H") == (played(0, "AD", "H", declared="H"), turn(1))
    assert t.play(1, "6H") == (played(1, "6H", "H"), turn(2))


def test_r5_1_3_an_ace_is_never_played_on_an_ace_even_of_the_declared_suit() -> None:
    t = table_d()
    t.play(0, "AD", suit="S")
    t.rejects_play("ace_on_ace", "R5.1.3", 1, "AS")
    t.rejects_play("ace_on_ace", "R5.1.3", 1, "AS", suit="H")


def test_s6_3_a_suit_may_be_declared_only_with_an_ace() -> None:
    t = table_d()
    t.rejects_play("suit_not_allowed", "S6.3", 0, "5H", suit="H")
    t.rejects_play("suit_not_allowed", "S6.3", 0, "3C", suit="C")


# ---------------------------------------------------------------------------- R5.3: eights

E = ["8C 8H 8D KD QS JS 2H", "2D 3D 4D 5D 6D 7D TD", "2S 3S 4S 5S 6S 7S TS", "3H 4H 5H 6H 7H TH AH"]


def test_r5_3_1_after_an_eight_the_same_player_plays_again() -> None:
    t = Table()
    t.deal(E, "3C")
    assert t.play(0, "8C") == (played(0, "8C", "C"), turn(0))
    assert t.to_act == 0


def test_r5_3_2_he_may_play_several_eights_in_a_row_then_any_legal_card() -> None:
    t = Table()
    t.deal(E, "3C")
    assert t.play(0, "8C") == (played(0, "8C", "C"), turn(0))
    assert t.play(0, "8H") == (played(0, "8H", "H"), turn(0))
    assert t.play(0, "8D") == (played(0, "8D", "D"), turn(0))
    assert t.play(0, "KD") == (played(0, "KD", "D"), turn(1))
    assert t.hand(0) == "2H JS QS"


def test_r5_3_1_the_new_turn_after_an_eight_allows_a_fresh_draw_and_needs_one_before_passing() -> None:
    t = Table()
    t.deal(E, "3C", "9C 4C")
    assert t.draw(0) == (drew(0, "9C"),)
    assert t.play(0, "8C") == (played(0, "8C", "C"), turn(0))
    t.rejects("must_draw_first", "R4.4", t.command("pass", 0))
    assert t.draw(0) == (drew(0, "4C"),)
    t.rejects("already_drawn", "R4.3", t.command("draw", 0))
    assert t.pass_(0) == (passed(0), turn(1))
    assert t.hand(0) == "4C 9C 8D KD 2H 8H JS QS"


# ---------------------------------------------------------------------------- R5.4: nines


def test_r5_4_1_after_a_nine_the_next_player_loses_his_turn() -> None:
    t = Table()
    t.deal(["9C 3H 4H 5H 6H 7H TH", "2D 3D 4D 5D 6D 7D TD", "2S 3S 4S 5S 6S 7S TS", "9D JD QD KD AD 2H KH"], "3C")
    assert t.play(0, "9C") == (played(0, "9C", "C"), skipped(1, "nine"), turn(2))
    t.rejects("not_your_turn", "S3.7", t.command("draw", 1))


def test_r5_4_1_a_nine_of_the_last_seat_skips_seat_0() -> None:
    t = Table()
    t.deal(["9C 3H 4H 5H 6H 7H TH", "2D 3D 4D 5D 6D 7D TD", "2S 4S 5S 6S 7S TS JS", "9D JD QD KD AD 2H KH"], "3S")
    t.play(0, "3H")
    t.play(1, "3D")
    t.draw(2)
    t.pass_(2)
    assert t.play(3, "9D") == (played(3, "9D", "D"), skipped(0, "nine"), turn(1))


def test_r5_4_1_with_three_players_a_nine_of_seat_2_skips_seat_0_and_seat_1_plays() -> None:
    t = Table(3)
    t.deal(["3C 4H 5H 6H 7H TH JH", "4C 3D 4D 5D 6D 7D TD", "9C 2S 3S 4S 5S 6S 7S"], "2C")
    t.play(0, "3C")
    t.play(1, "4C")
    assert t.play(2, "9C") == (played(2, "9C", "C"), skipped(0, "nine"), turn(1))


def test_r5_4_2_with_two_players_the_player_of_a_nine_plays_again_with_a_fresh_turn() -> None:
    t = Table(2)
    t.deal(["9C 3H 4H 5H 6H 7H TH", "2D 3D 4D 5D 6D 7D TD"], "3C", "QD KD")
    assert t.draw(0) == (drew(0, "QD"),)
    assert t.play(0, "9C") == (played(0, "9C", "C"), skipped(1, "nine"), turn(0))
    assert t.draw(0) == (drew(0, "KD"),)
    assert t.pass_(0) == (passed(0), turn(1))


# ---------------------------------------------------------------------------- R4.6: last cards


@pytest.mark.parametrize(("last", "rule"), [("AH", "R4.6"), ("9C", "R4.6"), ("9D", "R4.6")])
def test_r4_6_an_ace_or_a_nine_may_not_be_the_last_card(last: str, rule: str) -> None:
    t = down_to_one(last)
    t.rejects_play("last_card_forbidden", rule, 0, last)
    if last == "AH":
        t.rejects_play("last_card_forbidden", rule, 0, last, suit="H")


def test_r4_6_r5_3_3_an_eight_may_not_be_the_last_card() -> None:
    t = down_to_one("8D", CHAIN_EIGHTS_LAST)
    t.rejects_play("last_card_forbidden", "R4.6", 0, "8D")
    # He draws and may then pass, or play the drawn card.
    t.draw(0)
    assert t.pass_(0) == (passed(0), turn(1))


def test_r4_6_r6_1_any_other_card_may_be_the_last_and_its_player_goes_out() -> None:
    t = down_to_one("KH")
    assert t.play(0, "KH") == (
        played(0, "KH", "H"),
        *went_out(0, ((), ("2D", "3D", "4D", "5D", "6D", "7D", "TD")), hand_points=(0, 37), totals=(0, 37)),
    )
    t.rejects("hand_over", "S11", t.command("draw", 1))
    assert SPEC.needs_deal(t.state)
