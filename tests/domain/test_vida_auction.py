"""Vida's auction (docs/rules/vida.md R4.2-R4.8, D3-D8, D38) and the common refusals of section 8."""

from __future__ import annotations

import dataclasses

from vida_helpers import MONO, Table

from trapoula.domain.errors import CommandRejected
from trapoula.domain.games.vida import SPEC
from trapoula.domain.games.vida.commands import Bid, Pass, Play, Vida
from trapoula.domain.games.vida.events import (
    AuctionClosed,
    BidMade,
    HandAnnulled,
    Passed,
    ShuffleRevealed,
    VidaCalled,
)


def dealt(options: dict[str, object] | None = None, first_dealer: int = 3) -> Table:
    """A table with the MONO deal dealt; with the first dealer 3, seat 0 speaks first (R4.2)."""
    table = Table(options=options, first_dealer=first_dealer)
    table.deal(MONO)
    return table


def test_r4_2_the_seat_after_the_dealer_speaks_first() -> None:
    table = dealt()
    assert table.to_act == 0
    assert table.view(0)["phase"] == "auction"


def test_r4_2_d1_first_bidder_before_dealer_makes_seat_dealer_plus_3_speak_first() -> None:
    table = dealt({"first_bidder": "before_dealer"})
    assert table.to_act == 2
    table.rejects("not_your_turn", "R4.1", table.command("pass", 0))


def test_r4_7_the_seed_example_auction_ends_with_140_hearts_to_seat_3() -> None:
    """Seed: A B C D = seats 0 1 2 3, dealer 3: pass, pass, 90S, 110D, pass, 120H, 130S, 140H,
    pass, pass, pass -> the contract is 140 hearts, held by seat 3 (team 1)."""
    table = dealt()
    events = table.calls("pass", "pass", "90S", "110D", "pass", "120H", "130S", "140H", "pass", "pass")
    assert events == (
        Passed(0),
        Passed(1),
        BidMade(2, 90, "S"),
        BidMade(3, 110, "D"),
        Passed(0),
        BidMade(1, 120, "H"),
        BidMade(2, 130, "S"),
        BidMade(3, 140, "H"),
        Passed(0),
        Passed(1),
    )
    last = table.pass_(2)
    assert last[:2] == (Passed(2), AuctionClosed(holder=3, team=1, points=140, suit="H", level=0, multiplier=1))
    assert table.names(last)[2:] == ["DeclarationsResolved"]
    view = table.view(None)
    assert view["contract"] == {"holder": 3, "team": 1, "points": 140, "suit": "H", "level": 0, "multiplier": 1}
    assert view["trump"] == "H"
    assert view["auction"][2] == {"seat": 2, "call": "bid", "points": 90, "suit": "S"}
    assert view["auction"][0] == {"seat": 0, "call": "pass"}
    assert len(view["auction"]) == 11


def test_r4_3_points_must_be_a_multiple_of_10_and_at_least_80() -> None:
    table = dealt()
    table.rejects("invalid_points", "R4.3", table.command("bid", 0, points=85, suit="H"))
    table.rejects("invalid_points", "R4.3", table.command("bid", 0, points=70, suit="H"))
    table.rejects("invalid_points", "R4.3", table.command("bid", 0, points=0, suit="H"))
    assert table.bid(0, 80, "H") == (BidMade(0, 80, "H"),)


def test_r2_2_a_bid_must_name_one_of_the_four_suits() -> None:
    table = dealt()
    table.rejects("invalid_suit", "R4.3", table.command("bid", 0, points=90, suit="X"))
    table.rejects("invalid_suit", "R4.3", table.command("bid", 0, points=90, suit="NT"))
    table.rejects("invalid_suit", "R4.3", table.command("bid", 0, points=85, suit="X"))  # the suit is checked first


def test_r4_3_d8_equal_points_in_another_suit_are_too_low() -> None:
    table = dealt()
    table.bid(0, 90, "H")
    table.rejects("bid_too_low", "R4.3", table.command("bid", 1, points=90, suit="S"))
    table.rejects("bid_too_low", "R4.3", table.command("bid", 1, points=80, suit="S"))
    assert table.bid(1, 100, "H") == (BidMade(1, 100, "H"),)  # any suit, the same as an earlier bid too


def test_r4_3_d8_a_player_may_overcall_his_partner() -> None:
    table = dealt()
    table.calls("90S", "pass")
    assert table.bid(2, 100, "S") == (BidMade(2, 100, "S"),)
    assert table.state.bid is not None and table.state.bid.seat == 2


def test_r4_4_a_pass_is_not_binding() -> None:
    table = dealt()
    table.calls("pass", "90S", "pass", "pass")
    assert table.bid(0, 100, "C") == (BidMade(0, 100, "C"),)


def test_r4_7_d6_passes_before_any_bid_do_not_end_the_auction() -> None:
    table = dealt()
    assert table.calls("pass", "pass", "pass") == (Passed(0), Passed(1), Passed(2))
    assert table.to_act == 3
    assert table.bid(3, 80, "S") == (BidMade(3, 80, "S"),)
    assert table.calls("pass", "pass") == (Passed(0), Passed(1))
    closing = table.pass_(2)
    assert closing[1] == AuctionClosed(holder=3, team=1, points=80, suit="S", level=0, multiplier=1)


def test_r4_5_vida_levels_alternate_and_the_fourth_vida_ends_the_auction_at_once() -> None:
    """D3: levels 1 and 3 by the defenders, 2 and 4 by the bidders; R4.7 (b)."""
    table = dealt()
    table.calls("pass", "pass", "90S")
    assert table.vida(3) == (VidaCalled(3, 1, 2),)
    assert table.vida(0) == (VidaCalled(0, 2, 4),)
    assert table.vida(1) == (VidaCalled(1, 3, 6),)
    events = table.vida(2)
    assert events[:2] == (
        VidaCalled(2, 4, 8),
        AuctionClosed(holder=2, team=0, points=90, suit="S", level=4, multiplier=8),
    )
    assert table.names(events)[2:] == ["DeclarationsResolved"]
    assert table.view(None)["phase"] == "play"
    table.rejects("wrong_phase", "R4.1", table.command("vida", 0))


def test_r4_5_d3_the_bidding_team_may_not_call_vida_on_its_own_bid() -> None:
    table = dealt()
    table.calls("pass", "pass", "90S", "pass")
    table.rejects("not_entitled", "R4.5", table.command("vida", 0))  # the bidder's partner
    assert {"kind": "vida", "seat": 0} not in table.legal(0)
    assert {"kind": "bid", "seat": 0, "points": 100, "suit": "S"} in table.legal(0)


def test_r4_5_d3_level_2_belongs_to_the_bidders_either_member() -> None:
    table = dealt()
    table.calls("pass", "pass", "90S", "vida", "pass")
    table.rejects("not_entitled", "R4.5", table.command("vida", 1))  # a defender may not contra
    table.calls("pass")
    assert table.vida(2) == (VidaCalled(2, 2, 4),)
    assert {"kind": "vida", "seat": 3} in table.legal(3)  # level 3 is the defenders' again


def test_r4_5_d3_level_3_belongs_to_the_defenders() -> None:
    table = dealt()
    table.calls("pass", "pass", "90S", "vida", "vida")
    assert table.to_act == 1
    assert {"kind": "vida", "seat": 1} in table.legal(1)
    table.calls("pass")
    table.rejects("not_entitled", "R4.5", table.command("vida", 2))


def test_r4_5_no_bid_nothing_to_double() -> None:
    table = dealt()
    table.rejects("no_bid", "R4.5", table.command("vida", 0))
    table.calls("pass")
    table.rejects("no_bid", "R4.5", table.command("vida", 1))


def test_r4_5_max_level_is_refused_when_the_fourth_vida_stands() -> None:
    """The fourth vida ends the auction at once (R4.7 b), so no play reaches this check; it is
    tested on a state built to stand at level 4 in the auction."""
    table = dealt()
    table.calls("pass", "pass", "90S")
    table.state = dataclasses.replace(table.state, level=4)
    table.rejects("max_level", "R4.5", table.command("vida", 3))


def test_r4_6_d4_no_bid_after_a_vida() -> None:
    table = dealt()
    table.calls("pass", "pass", "90S", "vida")
    table.rejects("bidding_closed", "R4.6", table.command("bid", 0, points=100, suit="S"))
    table.rejects("bidding_closed", "R4.6", table.command("bid", 0, points=200, suit="H"))
    # the table's order of checks: a bid not above the current one is too low first
    table.rejects("bid_too_low", "R4.3", table.command("bid", 0, points=90, suit="H"))


def test_d38_a_non_entitled_seat_after_a_vida_may_only_pass() -> None:
    table = dealt()
    table.calls("pass", "pass", "90S", "vida", "pass")
    assert table.to_act == 1
    assert table.legal(1) == [{"kind": "pass", "seat": 1}]
    assert table.legal(0) == []


def test_r4_7_three_passes_after_a_vida_close_the_auction_at_that_level() -> None:
    table = dealt()
    table.calls("pass", "pass", "90S", "vida", "pass", "pass")
    events = table.pass_(2)
    assert events[:2] == (Passed(2), AuctionClosed(holder=2, team=0, points=90, suit="S", level=1, multiplier=2))


def test_r4_8_all_four_pass_annuls_the_hand_and_the_next_dealer_deals() -> None:
    table = dealt()
    table.calls("pass", "pass", "pass")
    events = table.pass_(3)
    deck = tuple(table.state.deck[i].code for i in range(32))
    assert events == (
        Passed(3),
        HandAnnulled(reason="all_passed", next_dealer=0),
        ShuffleRevealed(hand_no=1, deck=deck, salt=""),
    )
    view = table.view(0)
    assert (view["phase"], view["hand_over"], view["annulled"], view["next_dealer"]) == ("hand_over", True, True, 0)
    assert view["hand_points"] == [0, 0]
    table.rejects("hand_over", "R4.1", table.command("pass", 0))
    started = table.deal(MONO)
    assert started[0].dealer == 0  # type: ignore[attr-defined]
    assert table.to_act == 1


def test_r4_8_all_pass_same_dealer_redeals_by_the_same_dealer() -> None:
    table = dealt({"all_pass": "same_dealer"})
    events = table.calls("pass", "pass", "pass", "pass")
    assert events[4] == HandAnnulled(reason="all_passed", next_dealer=3)
    started = table.deal(MONO)
    assert started[0].dealer == 3  # type: ignore[attr-defined]
    assert table.to_act == 0


def test_r4_8_open_vida_all_pass_is_annulled_too() -> None:
    table = Table(options={"open_vida": True})
    table.deal([h[: 7 * 3 - 1] for h in MONO], "AC AD AH AS")
    events = table.calls("pass", "pass", "pass", "pass")
    assert table.names(events) == ["Passed", "Passed", "Passed", "Passed", "HandAnnulled", "ShuffleRevealed"]


def test_section_8_common_refusals_come_first_and_in_order() -> None:
    table = Table()
    table.rejects("hand_over", "R4.1", table.command("bid", 0, points=80, suit="H"))
    table.deal(MONO)
    table.rejects("wrong_phase", "R4.1", table.command("play", 0, card="JC"))
    table.rejects("wrong_phase", "R4.1", table.command("give", 0, cards=["7C", "8C", "9C"]))
    table.rejects("wrong_phase", "R4.1", table.command("declare", 0))
    table.rejects("not_your_turn", "R4.1", table.command("bid", 1, points=80, suit="H"))
    table.rejects("not_your_turn", "R4.1", table.command("bid", 1, points=85, suit="X"))  # before the specific codes
    table.rejects("not_your_turn", "R4.1", table.command("pass", 7))
    table.rejects("not_your_turn", "R4.1", table.command("vida", 2))


def test_legal_commands_list_every_bid_from_the_minimum_to_max_bid_in_every_suit() -> None:
    table = dealt()
    legal = table.legal(0)
    assert legal[0] == {"kind": "pass", "seat": 0}
    assert legal[1] == {"kind": "bid", "seat": 0, "points": 80, "suit": "C"}
    assert legal[-1] == {"kind": "bid", "seat": 0, "points": 1000, "suit": "S"}
    assert len(legal) == 1 + 93 * 4  # 80..1000 step 10 is 93 values
    assert table.legal(1) == []
    table.bid(0, 150, "D")
    legal = table.legal(1)
    assert legal[:3] == [
        {"kind": "pass", "seat": 1},
        {"kind": "vida", "seat": 1},
        {"kind": "bid", "seat": 1, "points": 160, "suit": "C"},
    ]
    assert len(legal) == 2 + 85 * 4  # 160..1000


def test_section_7_d7_max_bid_1000_by_default_a_bid_above_it_is_refused_and_1000_stands() -> None:
    """Section 7 ``max_bid`` and D7, as the rules owners confirmed them: the rules set no maximum, and
    the table bounds the bids it lists and accepts, 1000 by default.  Seat 0 speaks first (dealer 3,
    R4.2): 1010 hearts is refused ``invalid_points`` (R4.3) and changes nothing; 1000 hearts is the
    highest bid, after which seat 1 may only pass or call vida (nothing is above 1000)."""
    table = dealt()
    assert table.view(0)["options"]["max_bid"] == 1000
    table.rejects("invalid_points", "R4.3", table.command("bid", 0, points=1010, suit="H"))
    table.bid(0, 1000, "H")
    assert table.view(None)["bid"] == {"seat": 0, "points": 1000, "suit": "H"}
    assert table.legal(1) == [{"kind": "pass", "seat": 1}, {"kind": "vida", "seat": 1}]


def test_section_7_max_bid_option_caps_the_bids() -> None:
    """Section 7: a table created with ``max_bid`` 100 lists bids 80 to 100 only (3 values x 4 suits)."""
    table = dealt({"max_bid": 100})
    assert [c for c in table.legal(0) if c["kind"] == "bid"][-1] == {
        "kind": "bid",
        "seat": 0,
        "points": 100,
        "suit": "S",
    }
    assert len(table.legal(0)) == 1 + 3 * 4
    table.rejects("invalid_points", "R4.3", table.command("bid", 0, points=110, suit="S"))
    table.bid(0, 100, "S")
    assert table.legal(1) == [{"kind": "pass", "seat": 1}, {"kind": "vida", "seat": 1}]


def test_legal_commands_agree_with_decide_during_the_auction() -> None:
    table = dealt()
    table.calls("pass", "90S", "vida")
    for seat in range(4):
        offered = SPEC.legal_commands(table.state, seat)
        for command in (
            Pass(seat),
            Vida(seat),
            Bid(seat, 100, "H"),
            Bid(seat, 90, "C"),
            Play(seat, table.state.hands[seat][0]),
        ):
            try:
                SPEC.decide(table.state, command)
                accepted = True
            except CommandRejected:
                accepted = False
            assert accepted == (command in offered), command
