"""Giminaičiai: the turn -- draws from both piles, discards, the taken card, the turned-over pile,
skipping finished players, and the refusals of the draw and the discard (R4, R11.1, R11.2)."""

from __future__ import annotations

import pytest
from giminaiciai_helpers import ALL_CODES, Table, cards

from trapoula.domain.errors import InvalidInput
from trapoula.domain.events import redact
from trapoula.domain.games.giminaiciai import SPEC
from trapoula.domain.games.giminaiciai.events import (
    CardDiscarded,
    CardDrawn,
    DiscardPileTurnedOver,
    PointsScored,
)
from trapoula.domain.games.giminaiciai.rules import acting

ILL72 = "4H 5H 6H 7H 5D 7S 7D"
"""Seed illustration 72: main hearts 4-7 with 5D, 7S and 7D (R6.7), legal as one group."""


def two_players(stock_top: str = "9C") -> Table:
    """2 players, dealer 1: seat 0 holds :data:`ILL72`, the starter is 8D, the stock starts ``stock_top``."""
    t = Table(2)
    t.deal([ILL72, None], "8D", stock_top)
    return t


def test_r4_2_draw_from_the_stock_is_seen_by_the_drawer_only() -> None:
    """R4.2, section 9: the stock card goes to the hand; ``CardDrawn.stock_card`` is private to the seat."""
    t = two_players()
    events = t.draw(0)
    assert events == (CardDrawn(seat=0, source="stock", card=None, stock_card="9C"),)
    assert redact(events[0], 0)["stock_card"] == "9C"
    assert redact(events[0], 1)["stock_card"] is None and redact(events[0], None)["stock_card"] is None
    assert t.hand(0) == "9C 5D 7D 4H 5H 6H 7H 7S"
    assert t.view(1)["stock_count"] == 36 and t.view(1)["hand_sizes"] == [8, 7]


def test_r4_2_draw_from_the_discard_pile_is_public() -> None:
    """R4.2, section 9: the top of the pile is taken face up; the pile is then empty."""
    t = two_players()
    events = t.draw(0, "discard")
    assert events == (CardDrawn(seat=0, source="discard", card="8D", stock_card=None),)
    assert redact(events[0], 1)["card"] == "8D"
    assert t.view(1)["discard_pile"] == [] and t.view(1)["taken"] == "8D"


def test_r4_4_discard_ends_the_turn() -> None:
    """R4.4, R4.1: the discard goes face up on the pile and the turn passes to the next seat."""
    t = two_players()
    t.draw(0)
    assert t.discard(0, "4H") == (CardDiscarded(seat=0, card="4H"),)
    assert t.view(1)["discard_pile"] == ["8D", "4H"] and t.view(1)["hand_sizes"] == [7, 7]
    assert t.to_act == 1 and not t.state.drawn


def test_r4_5_a_stock_card_may_be_discarded_at_once() -> None:
    """R4.5: the card drawn from the stock may be discarded in the same turn."""
    t = two_players()
    t.draw(0)
    assert t.discard(0, "9C") == (CardDiscarded(seat=0, card="9C"),)


def test_r4_5_the_card_taken_from_the_pile_may_not_be_discarded_this_turn() -> None:
    """R4.5, R11.2 ``cannot_discard_taken_card``: neither by ``discard`` nor as a lay-down's discard;
    the listing offers every other card."""
    t = two_players()
    t.draw(0, "discard")
    t.rejects("cannot_discard_taken_card", "R4.5", t.command("discard", 0, card="8D"))
    t.rejects("cannot_discard_taken_card", "R4.5", t.lay_down_command(0, ILL72, discard="8D"))
    discards = [c["card"] for c in t.legal(0) if c["kind"] == "discard"]
    assert discards == list(cards("5D 7D 4H 5H 6H 7H 7S"))


def test_r4_6_empty_stock_turns_the_whole_pile_over_oldest_card_on_top() -> None:
    """R4.6: six players (stock 9 cards) draw and discard the drawn card nine times; the tenth draw
    from the stock turns the 10-card pile over without shuffling: the starter 5S, its oldest card, is
    drawn, and the first discard 6S is the new top.  Turning over scores nobody (R7.3)."""
    t = Table(6)
    t.deal_deck(ALL_CODES)  # starter 5S, stock 6S 7S 8S 9S TS JS QS KS AS
    for k in range(9):
        t.turn(k % 6)
    assert t.view(None)["stock_count"] == 0
    assert t.view(None)["discard_pile"] == list(cards("5S 6S 7S 8S 9S TS JS QS KS AS"))
    assert [c["source"] for c in t.legal(3)] == ["stock", "discard"]
    events = t.draw(3)
    assert events == (
        DiscardPileTurnedOver(seat=3, count=10, stock_size=10),
        CardDrawn(seat=3, source="stock", card=None, stock_card="5S"),
    )
    assert t.view(None)["discard_pile"] == [] and t.view(None)["stock_count"] == 9
    assert t.state.stock[0].code == "6S"
    t.discard(3, "5S")
    assert t.draw(4) == (CardDrawn(seat=4, source="stock", card=None, stock_card="6S"),)


def test_r4_6_facing_an_empty_stock_a_player_may_take_the_pile_top_instead() -> None:
    """R4.6: taking the top of the discard pile turns nothing over."""
    t = Table(6)
    t.deal_deck(ALL_CODES)
    for k in range(9):
        t.turn(k % 6)
    assert t.draw(3, "discard") == (CardDrawn(seat=3, source="discard", card="AS", stock_card=None),)
    assert t.view(None)["stock_count"] == 0
    assert t.view(None)["discard_pile"] == list(cards("5S 6S 7S 8S 9S TS JS QS KS"))


def test_r4_2_r11_1_drawing_from_an_empty_discard_pile_is_refused() -> None:
    """R4.2 ``empty_pile``: seat 0 takes the starter and lays down all 8 cards without a discard
    (seed ill. 72 as two groups, R6.7), so seat 1 faces an empty pile; the stock is still open."""
    t = two_players()
    t.draw(0, "discard")
    t.lay_down(0, "4H 5H 6H 5D", "7H 7S 7D 8D")
    assert t.to_act == 1 and t.view(1)["discard_pile"] == []
    assert t.legal(1) == [{"kind": "draw", "seat": 1, "source": "stock"}]
    t.rejects("empty_pile", "R4.2", t.command("draw", 1, source="discard"))


def test_r4_8_no_acting_out_of_turn_twice_or_before_drawing() -> None:
    """R4.8, R11.1, R11.2: ``not_your_turn``, ``must_draw_first``, ``already_drawn``."""
    t = two_players()
    t.rejects("not_your_turn", "R4.8", t.command("draw", 1, source="stock"))
    t.rejects("not_your_turn", "R4.8", t.command("draw", 5, source="stock"))
    t.rejects("must_draw_first", "R4.8", t.command("discard", 0, card="4H"))
    t.rejects("must_draw_first", "R4.8", t.lay_down_command(0, ILL72))
    t.draw(0)
    t.rejects("already_drawn", "R4.8", t.command("draw", 0, source="stock"))
    t.rejects("already_drawn", "R4.8", t.command("draw", 0, source="discard"))
    t.rejects("not_your_turn", "R4.8", t.command("discard", 1, card="2C"))


def test_r11_2_discarding_a_card_not_held_is_refused() -> None:
    """R4.4, R11.2 ``card_not_in_hand``."""
    t = two_players()
    t.draw(0)
    t.rejects("card_not_in_hand", "R4.4", t.command("discard", 0, card="AS"))
    t.rejects("card_not_in_hand", "R4.4", t.command("discard", 0, card="8D"))  # on the pile, not held


def test_r8_1_no_seat_command_without_a_hand_in_progress() -> None:
    """R11.1-R11.3 ``hand_over``: before the first deal nothing but the deal is accepted."""
    t = Table(2)
    t.rejects("hand_over", "R8.1", t.command("draw", 0, source="stock"))
    t.rejects("hand_over", "R8.1", t.command("discard", 0, card="2C"))
    t.rejects("hand_over", "R8.1", t.lay_down_command(0, ILL72))
    assert SPEC.needs_deal(t.state) and t.legal(0) == []


def test_r4_1_finished_players_are_skipped_and_the_last_one_plays_alone() -> None:
    """R4.1, R7.3: after seat 0 lays down, seat 1 of 2 takes every turn; each of his draws scores 1
    for seat 0, whichever pile it comes from."""
    t = two_players()
    t.draw(0)
    t.lay_down(0, ILL72, discard="9C")
    assert t.to_act == 1
    assert t.draw(1)[1:] == (PointsScored(seat=0, points=1, reason="card_taken"),)
    t.discard(1, t.state.hands[1][-1].code)
    assert t.to_act == 1
    assert t.draw(1, "discard")[1:] == (PointsScored(seat=0, points=1, reason="card_taken"),)
    assert t.view(None)["hand_points"] == [12, 0]


def test_r4_8_legal_commands_before_the_draw_and_for_other_seats() -> None:
    """R4.2, R4.8: the seat to act may draw from either pile; nobody else may do anything."""
    t = two_players()
    assert t.legal(0) == [
        {"kind": "draw", "seat": 0, "source": "stock"},
        {"kind": "draw", "seat": 0, "source": "discard"},
    ]
    assert t.legal(1) == [] and SPEC.legal_commands(t.state, 7) == ()
    assert acting(t.state) == (0,)


@pytest.mark.parametrize(
    "raw",
    [
        {"kind": "draw", "seat": 0, "source": "deck"},
        {"kind": "draw", "seat": 0},
        {"kind": "draw", "seat": "0", "source": "stock"},
        {"kind": "discard", "seat": 0, "card": "1H"},
        {"kind": "discard", "seat": 0, "card": 7},
        {"kind": "pass", "seat": 0},
        {"kind": "lay_down", "seat": 0, "groups": "4H 5H 6H"},
        {"kind": "lay_down", "seat": 0, "groups": [["4H", "5H", "XX"]]},
        {"kind": "lay_down", "seat": 0, "groups": [["4H", "5H", "6H"]], "extra": -1},
        {"kind": "lay_down", "seat": 0, "groups": [["4H", "5H", "6H"]], "extra": True},
        {"kind": "lay_down", "seat": 0, "groups": [["4H"]] * 53},
        {"kind": "lay_down", "seat": 0, "groups": [["4H", "5H", "6H"]], "discard": 5},
        {"kind": "lay_down", "seat": 0, "groups": [["4H", "5H", "6H"]], "melds": []},
        "draw",
    ],
)
def test_section_8_malformed_commands_are_invalid_input(raw: object) -> None:
    """Section 8, STYLE habit 4a: malformed input never reaches the rules."""
    with pytest.raises(InvalidInput):
        SPEC.parse_command(raw)  # type: ignore[arg-type]


def test_section_8_command_payloads_round_trip() -> None:
    """Section 8: ``command_payload`` is the inverse of ``parse_command``."""
    for raw in (
        {"kind": "draw", "seat": 1, "source": "discard"},
        {"kind": "discard", "seat": 2, "card": "TS"},
        {
            "kind": "lay_down",
            "seat": 0,
            "groups": [["4H", "5H", "6H"], ["KC", "KD", "KS"]],
            "discard": "2C",
            "extra": 0,
        },
        {"kind": "lay_down", "seat": 0, "groups": [["4H", "5H", "6H", "7H"]], "extra": 1},
    ):
        assert SPEC.command_payload(SPEC.parse_command(raw)) == raw
    cmd = SPEC.parse_command({"kind": "lay_down", "seat": 0, "groups": [["4H", "5H", "6H"]], "discard": None})
    assert SPEC.command_payload(cmd) == {"kind": "lay_down", "seat": 0, "groups": [["4H", "5H", "6H"]], "extra": 0}
