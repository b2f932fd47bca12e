"""Crazy Eights: the turn, legal moves and eights (R4, R5.1; S3.7, S6, S11)."""

from __future__ import annotations

import pytest
from crazy_eights_helpers import ALL_CODES, Table, arrange, drew, passed, played, turn

from trapoula.domain.errors import InvalidInput
from trapoula.domain.games.crazy_eights import SPEC

# Two players, up-card 5C; seat 0 (dealer 1's left) to act; the stock starts 7C 7S.
S0 = "2C 3C 5H KH 8D AD 9S"
S1 = "5S 6H 2D 3D 4D 9C AS"


def table_b() -> Table:
    """Two players, hands ``S0`` and ``S1``, up-card 5C, stock 7C 7S then the rest."""
    t = Table(2)
    t.deal([S0, S1], "5C", "7C 7S")
    return t


def empty_stock(seat0: str, seat1: str, top: str, active: str | None = None) -> Table:
    """``table_b`` after every stock card and every other card went to the discard pile (given):
    seat 0 holds ``seat0``, seat 1 ``seat1``, ``top`` is on the pile, seat 0 to act (R4.5)."""
    t = table_b()
    held = set(f"{seat0} {seat1} 5C {top}".split())
    pile = ["5C", *(c for c in ALL_CODES if c not in held), top]
    arrange(t, [seat0, seat1], " ".join(pile), 0, active=active)
    return t


# ---------------------------------------------------------------------------- R4.1: matching


def test_r4_1_the_legal_commands_are_every_matching_card_every_eight_with_each_suit_and_draw() -> None:
    t = table_b()
    assert t.kinds(0) == ["2C", "3C", "8D", "8D/C", "8D/D", "8D/H", "8D/S", "5H", "draw"]
    assert t.kinds(1) == []
    assert t.legal(0)[3] == {"kind": "play", "seat": 0, "card": "8D", "suit": "C"}


def test_r4_1_a_card_of_the_same_rank_is_legal_and_sets_the_active_suit() -> None:
    t = table_b()
    assert t.play(0, "5H") == (played(0, "5H"), turn(1))
    assert (t.top, t.active_suit, t.to_act) == ("5H", "H", 1)
    assert t.hand(0) == "2C 3C 8D AD KH 9S"
    assert t.kinds(1) == ["6H", "5S", "draw"]


def test_r4_1_a_card_of_the_active_suit_is_legal() -> None:
    t = table_b()
    assert t.play(0, "3C") == (played(0, "3C"), turn(1))
    assert t.play(1, "9C") == (played(1, "9C"), turn(0))


def test_r4_1_a_card_matching_neither_rank_nor_suit_is_refused_no_match() -> None:
    t = table_b()
    err = t.rejects_play("no_match", "R4.1", 0, "KH")
    assert "'KH'" in err.message and "crazy_eights" in err.message
    t.rejects_play("no_match", "R4.1", 0, "AD")
    t.rejects_play("no_match", "R4.1", 0, "9S")


# ---------------------------------------------------------------------------- R5.1: eights


def test_r5_1_an_eight_plays_on_anything_and_names_the_suit_to_follow() -> None:
    """R5.1.1-R5.1.3: 8D on 5C naming spades; seat 1 must play a spade (5S, AS) or an 8."""
    t = table_b()
    assert t.play(0, "8D", "S") == (played(0, "8D", "S", declared="S"), turn(1))
    assert (t.top, t.active_suit) == ("8D", "S")
    assert t.kinds(1) == ["5S", "AS", "draw"]
    t.rejects_play("no_match", "R4.1", 1, "2D")  # the 8's own suit no longer counts
    t.rejects_play("no_match", "R4.1", 1, "9C")


def test_r5_1_2_an_eight_naming_no_suit_keeps_its_own_suit() -> None:
    t = table_b()
    assert t.play(0, "8D") == (played(0, "8D", "D"), turn(1))
    assert t.kinds(1) == ["2D", "3D", "4D", "draw"]


def test_r5_1_3_an_eight_may_follow_an_eight() -> None:
    t = Table(2)
    t.deal(["8C 2C 3C 4C 5C 6C 7C", "8H 2D 3D 4D 5D 6D 7D"], "KS")
    t.play(0, "8C", "S")
    assert t.play(1, "8H", "C") == (played(1, "8H", "C", declared="C"), turn(0))
    assert t.kinds(0) == ["2C", "3C", "4C", "5C", "6C", "7C", "draw"]


def test_s6_3_a_suit_may_be_named_only_with_an_eight_suit_not_allowed() -> None:
    t = table_b()
    t.rejects_play("suit_not_allowed", "S6.3", 0, "3C", "H")


@pytest.mark.parametrize(
    ("raw", "reason"),
    [
        ({"kind": "play", "seat": 0, "card": "ZZ"}, "bad_card"),
        ({"kind": "play", "seat": 0, "card": 7}, "bad_card"),
        ({"kind": "play", "seat": 0, "card": "8D", "suit": "X"}, "bad_suit"),
        ({"kind": "play", "seat": 0, "card": "8D", "suit": 3}, "bad_suit"),
        ({"kind": "play", "seat": 0, "card": "8D", "announce": True}, "bad_command"),
        ({"kind": "choose_suit", "seat": 0, "suit": "H"}, "bad_command"),
        ({"kind": "draw", "seat": "0"}, "bad_seat"),
        ({"kind": "pass", "seat": True}, "bad_seat"),
    ],
)
def test_s11_malformed_commands_are_invalid_input(raw: dict[str, object], reason: str) -> None:
    with pytest.raises(InvalidInput) as err:
        SPEC.parse_command(raw)
    assert err.value.reason == reason


def test_s11_command_payloads_parse_back() -> None:
    for raw in (
        {"kind": "play", "seat": 2, "card": "8H", "suit": "S"},
        {"kind": "play", "seat": 0, "card": "TD"},
        {"kind": "draw", "seat": 1},
        {"kind": "pass", "seat": 6},
    ):
        assert SPEC.command_payload(SPEC.parse_command(raw)) == raw


# ---------------------------------------------------------------------------- S3.7, S11


def test_s3_7_only_the_seat_to_act_may_play_draw_or_pass() -> None:
    assert "seat 1" in table_b().refuses_out_of_turn(1, 1, 1).message


def test_s11_a_card_not_in_the_hand_is_refused_card_not_in_hand() -> None:
    table_b().refuses_a_card_not_in_hand(0, "5S")


def test_s11_before_the_deal_turn_commands_are_refused_hand_over() -> None:
    t = Table(2)
    t.rejects("hand_over", "S11", t.command("draw", 0))
    t.rejects("hand_over", "S11", t.command("play", 0, card="2C"))
    assert SPEC.needs_deal(t.state)


# ---------------------------------------------------------------------------- R4.2-R4.4: drawing, passing


def test_r4_2_a_player_may_draw_even_holding_a_legal_card() -> None:
    t = table_b()
    assert t.draw(0) == (drew(0, "7C"),)
    assert (t.to_act, t.hand(0)) == (0, "2C 3C 7C 8D AD 5H KH 9S")
    assert t.view(0)["drawn_this_turn"] is True
    assert t.view(1)["hand_sizes"] == [8, 7]


def test_r4_3_after_drawing_he_plays_any_legal_card_or_passes_but_draws_no_more() -> None:
    t = table_b()
    t.draw(0)
    assert t.kinds(0) == ["2C", "3C", "7C", "8D", "8D/C", "8D/D", "8D/H", "8D/S", "5H", "pass"]
    t.rejects("already_drawn", "R4.3", t.command("draw", 0))
    assert t.play(0, "7C") == (played(0, "7C"), turn(1))  # the drawn card


def test_r4_3_r4_6_a_pass_after_drawing_ends_the_turn() -> None:
    t = table_b()
    t.draw(0)
    assert t.pass_(0) == (passed(0), turn(1))
    assert t.view(1)["drawn_this_turn"] is False
    assert t.draw(1) == (drew(1, "7S"),)  # a new turn: a draw of its own


def test_r4_4_no_pass_before_drawing_while_the_stock_holds_cards_must_draw_first() -> None:
    t = table_b()
    t.rejects("must_draw_first", "R4.4", t.command("pass", 0))


def test_r4_4_r4_5_with_the_stock_empty_a_player_without_a_legal_card_passes_without_drawing() -> None:
    """Seat 0 holds 2C 3C 9S on QH (active hearts): no heart, no queen, no 8."""
    t = empty_stock("2C 3C 9S", "2D 6H", "QH")
    assert t.view(0)["stock_count"] == 0
    assert t.kinds(0) == ["pass"]
    t.rejects("stock_empty", "R4.5", t.command("draw", 0))
    assert t.pass_(0) == (passed(0), turn(1))


def test_r4_4_with_the_stock_empty_a_player_holding_a_legal_card_must_play() -> None:
    t = empty_stock("2C 3C 9S", "2D 6H", "QH")
    t.pass_(0)
    t.rejects("must_play", "R4.4", t.command("pass", 1))
    t.rejects("stock_empty", "R4.5", t.command("draw", 1))
    assert t.kinds(1) == ["6H"]
    assert t.play(1, "6H") == (played(1, "6H"), turn(0))


def test_r4_3_a_player_who_drew_the_last_card_may_still_pass() -> None:
    """The pass after a draw (R4.3) stands when that draw emptied the stock, even holding a legal card."""
    t = table_b()
    while len(t.state.stock) > 1:
        seat = t.to_act
        assert seat is not None
        t.draw(seat)
        t.pass_(seat)
    seat = t.to_act
    assert seat is not None
    t.draw(seat)
    assert t.view(seat)["stock_count"] == 0
    assert "pass" in t.kinds(seat)
    assert t.pass_(seat) == (passed(seat), turn(1 - seat))


# ---------------------------------------------------------------------------- R4.7, R6.1


def test_r4_7_r5_1_4_an_eight_may_be_the_last_card() -> None:
    """R4.7, R5.1.4: seat 0 goes out with 8S naming diamonds.  The named suit has no use (R5.1.4), so
    the active suit reported is the 8's own, spades (decision T1 of docs/decisions/crazy_eights.md,
    the rules owners' open question R5.1.4 vs S4.3; this test used to expect diamonds, by S4.3); the
    ``CardPlayed`` keeps the suit named, as played."""
    t = empty_stock("8S", "2D 6H", "QH")
    events = t.play(0, "8S", "D")
    assert events[0] == played(0, "8S", "S", declared="D")
    assert [e.event_name() for e in events[1:]] == ["HandEnded", "SeedRevealed", "MatchEnded"]
    assert t.view(None)["match_winner"] == 0
    for viewer in (0, 1, None):
        view = t.view(viewer)
        assert (view["top_card"], view["active_suit"]) == ("8S", "S")


def test_decision_t1_r5_1_4_a_last_eight_reports_its_own_suit_and_a_middle_one_the_named_suit() -> None:
    """Decision T1 (docs/decisions/crazy_eights.md), R5.1.2, R5.1.4, S4.3: an 8 that is not the last
    card makes the named suit active (8D naming hearts: hearts, so seat 1 follows with 6H, R5.1.3); the
    last card 8S naming clubs reports spades, the card's own suit, in the event and in every view; the
    audit rebuilds that play with the suit named (S11)."""
    t = empty_stock("8D 8S", "2D 6H", "QH")
    assert t.play(0, "8D", "H")[0] == played(0, "8D", "H", declared="H")
    assert t.view(None)["active_suit"] == "H"
    t.play(1, "6H")
    before = t.state
    events = t.play(0, "8S", "C")
    assert events[0] == played(0, "8S", "S", declared="C")
    assert {t.view(viewer)["active_suit"] for viewer in (0, 1, None)} == {"S"}
    assert SPEC.command_for(before, events, 0) == SPEC.parse_command(
        {"kind": "play", "seat": 0, "card": "8S", "suit": "C"}
    )
