"""Crazy Eights: setup, options and the deal (R2.2, R3.1-R3.5, section 7; S5)."""

from __future__ import annotations

import hashlib

import pytest
from crazy_eights_helpers import ALL_OPTIONS, NAMES, Table, buried, names, rest_of_deck, turn, turned

from trapoula.domain.cards import deck_52
from trapoula.domain.deal import Deal
from trapoula.domain.errors import InvalidInput
from trapoula.domain.events import redact
from trapoula.domain.game import MatchConfig, SeatInfo
from trapoula.domain.games.crazy_eights import SPEC
from trapoula.domain.games.crazy_eights.events import StarterBuried
from trapoula.domain.games.crazy_eights.options import CrazyEightsOptions, parse_options
from trapoula.domain.games.shedding.events import CardsDealt, HandStarted, MatchStarted

H0 = "2C 3C 4C 5C 6C 7C 9C"
H1 = "2D 3D 4D 5D 6D 7D 9D"


def _seed(label: str) -> str:
    return hashlib.sha256(label.encode()).hexdigest()


# ---------------------------------------------------------------------------- R2.2, section 7


@pytest.mark.parametrize("players", [1, 8])
def test_r2_2_two_to_seven_players(players: int) -> None:
    with pytest.raises(InvalidInput) as err:
        Table(players)
    assert err.value.reason == "bad_seats"
    assert f"got {players}" in err.value.message


def test_section_7_options_default_to_the_standard_game_r7_3() -> None:
    assert SPEC.option_defaults() == {
        "scoring": "single",
        "target_per_player": 50,
        "twos_draw_two": False,
        "queen_spades_draw_five": False,
        "jacks_skip": False,
        "aces_reverse": False,
        "draw_until_playable": False,
    }


def test_r7_2_the_target_is_target_per_player_times_the_players_r6_6() -> None:
    assert [CrazyEightsOptions(scoring="points").target(n) for n in (2, 3, 7)] == [100, 150, 350]
    assert parse_options({"target_per_player": 20.0}).target(4) == 80  # a JSON number 20.0 is 20


@pytest.mark.parametrize(
    "raw",
    [
        {"jokers": True},
        {"scoring": "double"},
        {"scoring": None},
        {"target_per_player": 0},
        {"target_per_player": 2.5},
        {"target_per_player": True},
        {"target_per_player": 1001},
        {"jacks_skip": "yes"},
        {"draw_until_playable": 1},
    ],
)
def test_section_7_a_bad_option_is_refused_bad_option(raw: dict[str, object]) -> None:
    with pytest.raises(InvalidInput) as err:
        parse_options(raw)
    assert err.value.reason == "bad_option"
    assert repr(next(iter(raw)))[1:-1] in err.value.message


@pytest.mark.parametrize(
    ("options", "kwargs"),
    [
        ({}, {"first_dealer": 3}),
        ({}, {"first_dealer": -1}),
        ({}, {"initial_totals": (1, 2, 3)}),
        ({"scoring": "points"}, {"initial_totals": (100, 0)}),  # R6.6: 100 is the target of two players
        ({"scoring": "points", "target_per_player": 10}, {"initial_totals": (0, 20)}),
    ],
)
def test_r3_1_r6_6_a_bad_match_setup_is_refused_bad_config(
    options: dict[str, object], kwargs: dict[str, object]
) -> None:
    config = MatchConfig("crazy_eights", (SeatInfo(0, "a"), SeatInfo(1, "b")), options, **kwargs)
    with pytest.raises(InvalidInput) as err:
        SPEC.initial_state(config)
    assert err.value.reason == "bad_config"


def test_r6_6_initial_totals_below_the_target_are_kept() -> None:
    t = Table(2, options={"scoring": "points"}, initial_totals=(99, 0))
    assert t.view(None)["totals"] == [99, 0]
    assert t.view(None)["target"] == 100


# ---------------------------------------------------------------------------- R3.1, R3.2, R3.5


@pytest.mark.parametrize(
    ("players", "size", "stock"), [(2, 7, 37), (3, 5, 36), (4, 5, 31), (5, 5, 26), (6, 5, 21), (7, 5, 16)]
)
def test_r3_2_seven_cards_each_with_two_players_five_with_more(players: int, size: int, stock: int) -> None:
    t = Table(players)
    t.seeded(_seed(f"sizes-{players}"))
    assert [len(h) for h in t.state.hands] == [size] * players
    assert len(t.state.stock) == stock  # burying an 8 keeps the count (R3.3)
    assert t.view(0)["stock_count"] == stock


def test_r3_2_cards_go_one_at_a_time_from_the_dealers_left_then_the_up_card() -> None:
    """Three players, default dealer seat 2 (R3.1): the canonical deck dealt in order gives seat 0
    cards 0, 3, 6, 9, 12, seat 1 cards 1, 4, ..., seat 2 cards 2, 5, ...; card 15 (4D) is turned."""
    t = Table(3)
    events = t.apply(SPEC.deal_command(t.state, Deal(order=deck_52())))
    dealt = {e.seat: e.cards for e in events if isinstance(e, CardsDealt)}
    assert dealt == {
        0: ("2C", "5C", "8C", "JC", "AC"),
        1: ("3C", "6C", "9C", "QC", "2D"),
        2: ("4C", "7C", "TC", "KC", "3D"),
    }
    assert events[-2:] == (turned("4D"), turn(0))
    assert t.stock.split()[:3] == ["5D", "6D", "7D"]


def test_r3_1_r3_5_the_first_dealer_is_seat_n_minus_1_unless_set_and_his_left_plays_first() -> None:
    t = Table(4)
    started = next(e for e in t.seeded(_seed("d")) if isinstance(e, HandStarted))
    assert (started.dealer, started.first_player, t.to_act) == (3, 0, 0)
    t = Table(4, first_dealer=1)
    events = t.seeded(_seed("d"))
    started = next(e for e in events if isinstance(e, HandStarted))
    assert (started.dealer, started.first_player, t.to_act) == (1, 2, 2)
    assert next(e for e in events if isinstance(e, MatchStarted)).first_dealer == 1


def test_s11_the_match_starts_with_the_names_and_every_option() -> None:
    t = Table(3, options={"jacks_skip": True})
    started = t.seeded(_seed("m"))[0]
    assert isinstance(started, MatchStarted)
    assert (started.game, started.names) == ("crazy_eights", NAMES[:3])
    assert started.options == {**SPEC.option_defaults(), "jacks_skip": True}


# ---------------------------------------------------------------------------- R3.3: an 8 up-card


def test_r3_3_an_eight_up_card_is_buried_in_the_middle_of_the_stock() -> None:
    """The rules' example: two players, up-card 8S, stock X0 ... X36: X0 (KH) becomes the up-card
    and the stock is X1 ... X18, 8S, X19 ... X36 (18 cards above the 8)."""
    t = Table(2)
    x = ["KH", *rest_of_deck(H0, H1, "8S KH")]
    assert len(x) == 37
    events = t.deal([H0, H1], "8S", "KH")
    assert events[-4:] == (turned("8S"), buried("8S", 18), turned("KH"), turn(0))
    assert t.stock.split() == [*x[1:19], "8S", *x[19:]]
    assert (t.top, t.active_suit, t.state.discard) == ("KH", "H", t.state.discard[:1])
    assert t.view(0)["discard"] == ["KH"]


def test_r3_3_burying_is_repeated_while_the_up_card_is_an_eight() -> None:
    """Up-card 8S, stock 8H KH r1 ... r35: 8S goes under 8H and 18 cards; 8H is turned and goes
    18 cards down in its turn (under r1 ... r17 and 8S); KH is the up-card."""
    t = Table(2)
    r = rest_of_deck(H0, H1, "8S 8H KH")
    events = t.deal([H0, H1], "8S", "8H KH")
    assert events[-6:] == (turned("8S"), buried("8S", 18), turned("8H"), buried("8H", 18), turned("KH"), turn(0))
    assert t.stock.split() == [*r[:17], "8S", "8H", *r[17:]]
    assert len(t.state.stock) == 37


def test_r3_3_with_seven_players_the_eight_goes_under_seven_of_the_fifteen_cards_left() -> None:
    """Seven players: 35 cards dealt, stock of 16 after the up-card; turning its top leaves 15."""
    t = Table(7)
    hands = ["2C 2D 2H 2S 3C", "3D 3H 3S 4C 4D", "4H 4S 5C 5D 5H", "5S 6C 6D 6H 6S", "7C 7D 7H 7S 9C",
             "9D 9H 9S TC TD", "TH TS JC JD JH"]  # fmt: skip
    events = t.deal(hands, "8C", "KD")
    assert events[-3:] == (buried("8C", 7), turned("KD"), turn(0))
    assert t.stock.split().index("8C") == 7
    assert len(t.state.stock) == 16


def test_r3_3_the_buried_eight_is_public_and_its_position_hidden_until_the_hand_ends() -> None:
    event = StarterBuried(card="8S", position=18)
    for viewer in (0, 1, None):
        assert redact(event, viewer) == {"card": "8S", "position": None}


def test_r3_3_an_explicit_deal_turns_the_top_of_its_stock_in_place_of_the_eight() -> None:
    """The record of a physical table: ``starter`` is the first card turned up (S5.3)."""
    t = Table(3)
    hands = ["2C 3C 4C 5C 6C", "2D 3D 4D 5D 6D", "2H 3H 4H 5H 6H"]
    events = t.deal(hands, "8D", "9D")
    assert names(events[-4:]) == ["StarterTurned", "StarterBuried", "StarterTurned", "TurnStarted"]
    assert (t.top, t.active_suit) == ("9D", "D")


# ---------------------------------------------------------------------------- R3.4


@pytest.mark.parametrize("starter", ["2C", "QS", "JC", "AC"])
def test_r3_4_an_action_card_turned_up_has_no_effect(starter: str) -> None:
    t = Table(3, options=ALL_OPTIONS)
    events = t.deal(["3C 4C 5C 6C 7C", "3D 4D 5D 6D 7D", "3H 4H 5H 6H 7H"], starter)
    assert events[-2:] == (turned(starter), turn(0))
    assert (t.pending, t.state.direction, t.active_suit) == (0, 1, starter[1])


# ---------------------------------------------------------------------------- S5.3


@pytest.mark.parametrize(
    "raw",
    [
        {"hands": [H0.split(), H1.split()[:5]], "starter": "KH", "stock": rest_of_deck(H0, "2D 3D 4D 5D 6D KH")},
        {"hands": [H0.split(), H1.split()], "starter": "KH", "stock": rest_of_deck(H0, H1)},  # KH twice
        {"hands": [H0.split(), H1.split()], "starter": "KH", "stock": rest_of_deck(H0, H1, "KH"),
         "reshuffles": [["2H"]]},
    ],
)  # fmt: skip
def test_s5_3_an_explicit_deal_must_hold_the_deck_in_hands_of_the_right_size_r3_2_r4_5(
    raw: dict[str, object],
) -> None:
    t = Table(2)
    with pytest.raises(InvalidInput) as err:
        SPEC.explicit_deal(t.state, raw)
    assert err.value.reason == "bad_deal"


def test_s5_3_an_explicit_deal_with_three_players_deals_five_each_r3_2() -> None:
    t = Table(3)
    with pytest.raises(InvalidInput, match="not 5"):
        t.explicit([H0, H1, "2H 3H 4H 5H 6H 7H 9H"], "KS")
