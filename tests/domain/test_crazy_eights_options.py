"""Crazy Eights: the optional action cards and drawing rule (R5.2-R5.7, section 7; S3.4-S3.6, S9)."""

from __future__ import annotations

import pytest
from crazy_eights_helpers import (
    ALL_CODES,
    ALL_OPTIONS,
    Table,
    arrange,
    drew,
    names,
    passed,
    played,
    reversed_to,
    skipped,
    turn,
)

from trapoula.domain.games.crazy_eights.events import HandEnded

TWOS = {"twos_draw_two": True, "queen_spades_draw_five": True}
"""Twos and the queen of spades both on: each must keep to its own rules."""

# Three players, up-card KC, seat 0 to act; the stock starts 7C 9H TH JH QH.
T3 = ["2C 3C 4H 5H 6H", "2D 3D 8S QS 9C", "4D 5D 6D 7D KH"]


def table_3(options: dict[str, object], hands: list[str] | None = None, starter: str = "KC") -> Table:
    """Three players with ``options``, hands ``T3`` (or ``hands``), up-card ``starter``."""
    t = Table(3, options=options)
    t.deal(hands or T3, starter, "7C 9H TH JH QH")
    return t


# ---------------------------------------------------------------------------- R5.2: twos draw two


def test_r5_2_1_a_two_makes_the_next_player_owe_two() -> None:
    t = table_3(TWOS)
    assert t.play(0, "2C") == (played(0, "2C", pending=2), turn(1))
    assert (t.pending, t.view(2)["pending_draw"]) == (2, 2)


def test_r5_2_2_a_two_of_any_suit_passes_the_whole_pending_draw_on() -> None:
    t = table_3(TWOS)
    t.play(0, "2C")
    assert t.kinds(1) == ["2D", "draw"]
    assert t.play(1, "2D") == (played(1, "2D", pending=4), turn(2))


def test_r5_2_2_r5_2_3_taking_the_whole_pending_draw_ends_the_turn() -> None:
    t = table_3(TWOS)
    t.play(0, "2C")
    t.play(1, "2D")
    assert t.kinds(2) == ["draw"]
    assert t.draw(2) == (drew(2, "7C 9H TH JH", "penalty"), turn(0))
    assert (t.pending, t.hand(2)) == (0, "7C 4D 5D 6D 7D 9H TH JH KH")
    assert t.view(0)["drawn_this_turn"] is False


def test_r5_2_3_while_twos_are_pending_only_a_two_plays_not_an_eight_nor_the_queen_of_spades() -> None:
    t = table_3(TWOS)
    t.play(0, "2C")
    t.rejects_play("penalty_pending", "R5.2.3", 1, "8S", "C")
    t.rejects_play("penalty_pending", "R5.2.3", 1, "8S")
    t.rejects_play("penalty_pending", "R5.2.3", 1, "QS")  # R5.3.3
    t.rejects_play("penalty_pending", "R5.2.3", 1, "9C")
    t.rejects("penalty_pending", "R5.2.3", t.command("pass", 1))


def test_r5_2_4_with_the_option_off_a_two_is_an_ordinary_card() -> None:
    t = table_3({})
    assert t.play(0, "2C") == (played(0, "2C"), turn(1))
    assert t.kinds(1) == ["9C", "2D", "8S", "8S/C", "8S/D", "8S/H", "8S/S", "draw"]


# ---------------------------------------------------------------------------- R5.3: the queen of spades


def queen_table(options: dict[str, object]) -> Table:
    """Two players, up-card 9S: seat 0 holds QS 2S and clubs, seat 1 diamonds, 2H and 8H; stock TC JC ..."""
    t = Table(2, options=options)
    t.deal(["QS 2S 3C 4C 5C 6C 7C", "2D 3D 4D 5D 6D 2H 8H"], "9S", "TC JC QC KC AC 9C")
    return t


def test_r5_3_1_the_queen_of_spades_makes_the_next_player_owe_five() -> None:
    t = queen_table(TWOS)
    assert t.play(0, "QS") == (played(0, "QS", pending=5), turn(1))


def test_r5_3_2_nothing_answers_the_queen_the_five_are_drawn_and_the_turn_ends() -> None:
    t = queen_table(TWOS)
    t.play(0, "QS")
    assert t.kinds(1) == ["draw"]
    t.rejects_play("penalty_pending", "R5.3.2", 1, "2H")  # twos do not answer it
    t.rejects_play("penalty_pending", "R5.3.2", 1, "8H", "S")
    t.rejects("penalty_pending", "R5.3.2", t.command("pass", 1))
    assert t.draw(1) == (drew(1, "TC JC QC KC AC", "penalty"), turn(0))
    assert t.pending == 0


def test_r5_3_3_the_queen_of_spades_itself_plays_only_by_the_matching_rule() -> None:
    t = Table(2, options=TWOS)
    t.deal(["QS 3H 4C 5C 6C 7C 9C", "2D 3D 4D 5D 6D 7D 8H"], "9H")
    t.rejects_play("no_match", "R4.1", 0, "QS")
    t.play(0, "3H")
    t.play(1, "8H", "S")
    assert t.play(0, "QS") == (played(0, "QS", pending=5), turn(1))


def test_r5_3_4_with_the_option_off_the_queen_of_spades_is_an_ordinary_card() -> None:
    t = queen_table({"twos_draw_two": True})
    assert t.play(0, "QS") == (played(0, "QS"), turn(1))
    assert t.kinds(1) == ["8H", "8H/C", "8H/D", "8H/H", "8H/S", "draw"]  # no pending draw: an 8 plays


# ---------------------------------------------------------------------------- R5.4: jacks skip


def test_r5_4_1_a_jack_skips_the_next_player() -> None:
    t = table_3({"jacks_skip": True}, ["JC 3C 4H 5H 6H", "2D 3D 8S QS 9C", "4D 5D 6D 7D KH"])
    assert t.play(0, "JC") == (played(0, "JC"), skipped(1), turn(2))


def test_r5_4_2_with_two_players_the_player_of_the_jack_takes_a_new_turn_s3_6() -> None:
    t = Table(2, options={"jacks_skip": True})
    t.deal(["JC 3C 4H 5H 6H 7H 9H", "2D 3D 4D 5D 6D 7D 9D"], "KC", "TS")
    t.draw(0)
    assert t.play(0, "JC") == (played(0, "JC"), skipped(1), turn(0))
    assert "draw" in t.kinds(0)  # per-turn limits start afresh
    assert t.view(0)["drawn_this_turn"] is False


def test_r5_4_with_the_option_off_a_jack_is_an_ordinary_card() -> None:
    t = table_3({}, ["JC 3C 4H 5H 6H", "2D 3D 8S QS 9C", "4D 5D 6D 7D KH"])
    assert t.play(0, "JC") == (played(0, "JC"), turn(1))


# ---------------------------------------------------------------------------- R5.5: aces reverse


def test_r5_5_1_an_ace_reverses_the_direction_of_play() -> None:
    t = table_3({"aces_reverse": True}, ["AC 3C 4H 5H 6H", "2D 3D 8S QS 9C", "4D 5D 6D 7D TC"])
    assert t.play(0, "AC") == (played(0, "AC"), reversed_to(-1), turn(2))
    assert t.view(1)["direction"] == -1
    assert t.play(2, "TC") == (played(2, "TC"), turn(1))


def test_r5_5_2_with_two_players_an_ace_does_not_change_who_plays_next_but_is_recorded() -> None:
    t = Table(2, options={"aces_reverse": True})
    t.deal(["AC AD 4H 5H 6H 7H 9H", "2D 3D 4D 5D 6D 7D 9D"], "KC")
    assert t.play(0, "AC") == (played(0, "AC"), reversed_to(-1), turn(1))
    assert t.view(None)["direction"] == -1
    t.draw(1)
    t.pass_(1)
    assert t.play(0, "AD") == (played(0, "AD"), reversed_to(1), turn(1))


def test_r5_4_r5_5_after_a_reverse_a_jack_skips_in_the_new_direction() -> None:
    t = Table(4, options={"aces_reverse": True, "jacks_skip": True})
    t.deal(["AC 2H 3H 4H 5H", "2D 3D 4D 5D 6D", "7D 9D TD QD KD", "JC 2S 3S 4S 5S"], "KC")
    t.play(0, "AC")
    assert t.play(3, "JC") == (played(3, "JC"), skipped(2), turn(1))


# ---------------------------------------------------------------------------- R5.6: draw until playable

UNTIL = {"draw_until_playable": True}


def until_table(stock: str = "TD JD 4H") -> Table:
    """Two players, up-card KH; seat 0 holds clubs only (nothing to play); the stock starts ``stock``."""
    t = Table(2, options=UNTIL)
    t.deal(["2C 3C 4C 5C 6C 7C 9C", "2D 3D 4D 5D 6D 7D 9D"], "KH", stock)
    return t


def test_r5_6_1_a_player_without_a_legal_card_draws_one_card_at_a_time_until_he_holds_one() -> None:
    t = until_table()
    assert t.draw(0) == (drew(0, "TD"),)
    assert t.kinds(0) == ["draw"]
    assert t.draw(0) == (drew(0, "JD"),)
    assert t.draw(0) == (drew(0, "4H"),)
    assert t.kinds(0) == ["4H"]


def test_r5_6_2_once_he_holds_a_legal_card_after_drawing_he_must_play() -> None:
    t = until_table("4H")
    t.draw(0)
    t.rejects("must_play", "R5.6.2", t.command("draw", 0))
    t.rejects("must_play", "R5.6.2", t.command("pass", 0))
    assert t.play(0, "4H") == (played(0, "4H"), turn(1))


def test_r5_6_1_the_first_draw_is_allowed_even_holding_a_legal_card() -> None:
    t = Table(2, options=UNTIL)
    t.deal(["2C 3C 4C 5C 6C 7C 9H", "2D 3D 4D 5D 6D 7D 9D"], "KH", "TD")
    assert t.kinds(0) == ["9H", "draw"]
    assert t.draw(0) == (drew(0, "TD"),)
    assert t.kinds(0) == ["9H"]


def test_r5_6_3_he_may_pass_only_when_the_stock_is_empty_and_he_holds_no_legal_card() -> None:
    t = until_table()
    t.rejects("must_draw_first", "R5.6.3", t.command("pass", 0))
    t.draw(0)
    t.rejects("must_draw_first", "R5.6.3", t.command("pass", 0))
    held = {"2C", "3C", "4C", "5C", "6C", "7C", "9C", "TD", "2D", "3D", "4D", "5D", "6D", "7D", "9D", "KH", "QH"}
    pile = ["KH", *(c for c in ALL_CODES if c not in held), "QH"]
    arrange(t, ["2C 3C 4C 5C 6C 7C 9C TD", "2D 3D 4D 5D 6D 7D 9D"], " ".join(pile), 0)
    assert t.kinds(0) == ["pass"]
    assert t.pass_(0) == (passed(0), turn(1))


def test_r5_6_4_a_penalty_is_still_taken_in_one_draw_that_ends_the_turn() -> None:
    t = Table(2, options={**UNTIL, "twos_draw_two": True})
    t.deal(["2C 3C 4C 5C 6C 7C 9C", "2H 3D 4D 5D 6D 7D 9D"], "KC", "8C TC")
    t.play(0, "2C")
    assert t.draw(1) == (drew(1, "8C TC", "penalty"), turn(0))  # 8C would play: the turn ends anyway


# ---------------------------------------------------------------------------- R5.7


@pytest.mark.parametrize(("card", "top"), [("2C", "5C"), ("QS", "5S"), ("JC", "5C"), ("AC", "5C")])
def test_r5_7_going_out_with_an_action_card_ends_the_hand_without_its_effect(card: str, top: str) -> None:
    t = Table(2, options=ALL_OPTIONS)
    t.deal(["2C QS JC AC 3H 4H 5H", "2D 3D 4D 5D 6D 7D KD"], "9H")
    held = {card, "3D", "KD", "9H", top}
    pile = ["9H", *(c for c in ALL_CODES if c not in held), top]
    arrange(t, [card, "3D KD"], " ".join(pile), 0)
    events = t.play(0, card)
    assert events[0] == played(0, card)  # no pending draw
    assert names(events) == ["CardPlayed", "HandEnded", "SeedRevealed", "MatchEnded"]  # nobody skipped or reversed
    ended = events[1]
    assert isinstance(ended, HandEnded)
    assert (ended.winner, ended.hand_values, t.state.direction, t.pending) == (0, (0, 13), 1, 0)
