"""Agonia: match setup, the deal and the up-card (docs/rules/agonia.md R1-R3, section 7 validation; S5)."""

from __future__ import annotations

import hashlib
from typing import Any

import pytest
from agonia_helpers import ALL_CODES, NAMES, Table, drew, played, quick_out, skipped, turn

from trapoula.domain.cards import deck_52
from trapoula.domain.deal import Deal, commitment
from trapoula.domain.errors import InvalidInput
from trapoula.domain.events import redact
from trapoula.domain.game import MatchConfig, SeatInfo
from trapoula.domain.games.agonia import SPEC
from trapoula.domain.games.agonia.commands import NextHand
from trapoula.domain.games.shedding.events import (
    CardsDealt,
    HandEnded,
    HandStarted,
    MatchStarted,
    StarterTurned,
    TurnStarted,
)

CANONICAL_TEXT = " ".join(ALL_CODES).encode("ascii")


def _config(players: int = 4, **kw: Any) -> MatchConfig:
    return MatchConfig(game="agonia", seats=tuple(SeatInfo(i, NAMES[i]) for i in range(players)), **kw)


# ---------------------------------------------------------------------------- R2.2, R3.1, section 7


def test_r1_2_every_option_defaults_to_the_seeds_main_rules() -> None:
    assert SPEC.option_defaults() == {
        "target_points": 100,
        "starter_ace_suit": "ace",
        "ace_last_card": False,
        "eight_last_card": False,
        "announce_cards": False,
        "announce_penalty": "draw_one",
        "seven_last_card": "penalty_then_out",
    }
    assert (SPEC.key, SPEC.min_players, SPEC.max_players) == ("agonia", 2, 4)


@pytest.mark.parametrize("players", [1, 5])
def test_r2_2_agonia_is_for_two_to_four_players(players: int) -> None:
    with pytest.raises(InvalidInput) as info:
        SPEC.initial_state(_config(players))
    assert info.value.reason == "bad_seats"
    assert "R2.2" in str(info.value)


@pytest.mark.parametrize(
    ("options", "named"),
    [
        ({"target": 50}, "'target'"),
        ({"target_points": -1}, "-1"),
        ({"target_points": "50"}, '"50"'),
        ({"target_points": True}, "true"),
        ({"target_points": 50.5}, "50.5"),
        ({"target_points": 1_001}, "1001"),
        ({"target_points": 10**20}, "100000000000000000000"),
        ({"starter_ace_suit": "winner"}, '"winner"'),
        ({"ace_last_card": "yes"}, '"yes"'),
        ({"eight_last_card": 1}, "1"),
        ({"announce_cards": None}, "null"),
        ({"announce_penalty": "two_points"}, '"two_points"'),
        ({"seven_last_card": "allowed"}, '"allowed"'),
    ],
)
def test_section_7_a_bad_option_is_invalid_input_naming_key_and_value(options: dict[str, Any], named: str) -> None:
    with pytest.raises(InvalidInput) as info:
        SPEC.initial_state(_config(options=options))
    assert info.value.reason == "bad_option"
    assert named in str(info.value)
    assert next(iter(options)) in str(info.value)


def test_r7_1_target_points_is_capped_at_1000() -> None:
    """R7.1, as the rules owners amended it: any limit from 0 up to 1,000.  1,000 is kept; 1,001 is
    refused as malformed (``bad_option``), naming the key, the value and R7.1."""
    assert SPEC.initial_state(_config(options={"target_points": 1000})).options.target_points == 1000
    assert SPEC.initial_state(_config(options={"target_points": 0})).options.target_points == 0
    with pytest.raises(InvalidInput) as info:
        SPEC.initial_state(_config(options={"target_points": 1001}))
    assert info.value.reason == "bad_option"
    assert all(part in str(info.value) for part in ("target_points", "1001", "R7.1"))


def test_section_7_good_options_are_kept_and_the_rest_defaulted() -> None:
    state = SPEC.initial_state(
        _config(options={"target_points": 50.0, "starter_ace_suit": "dealer", "announce_cards": True})
    )
    assert state.options.target_points == 50
    assert state.options.starter_ace_suit == "dealer"
    assert state.options.announce_cards is True
    assert state.options.announce_penalty == "draw_one"


@pytest.mark.parametrize(
    "kw",
    [
        {"first_dealer": 4},
        {"first_dealer": -1},
        {"initial_totals": (0, 0, 0)},
        {"initial_totals": (0, 0, 0, -5)},
    ],
)
def test_r3_1_a_first_dealer_or_initial_totals_that_do_not_fit_the_seats_are_invalid_input(kw: dict[str, Any]) -> None:
    with pytest.raises(InvalidInput) as info:
        SPEC.initial_state(_config(**kw))
    assert info.value.reason == "bad_config"


def test_r3_1_before_the_first_deal_nothing_can_be_played_and_a_deal_is_due() -> None:
    t = Table()
    assert SPEC.needs_deal(t.state)
    assert not SPEC.hand_in_progress(t.state)
    assert t.legal(0) == []
    t.rejects("hand_over", "S11", t.command("draw", 0))
    t.rejects("hand_over", "S11", t.command("play", 0, card="2C"))
    t.rejects("hand_over", "S11", t.command("pass", 0))
    t.rejects("hand_over", "S11", t.command("choose_suit", 0, suit="H"))


# ---------------------------------------------------------------------------- R3.2, R3.3: dealing


def test_r3_2_seven_cards_each_one_at_a_time_from_the_dealers_left_then_the_up_card_then_the_stock() -> None:
    t = Table()
    events = t.apply(SPEC.deal_command(t.state, Deal(order=deck_52())))
    assert events == (
        MatchStarted(
            game="agonia",
            names=NAMES[:4],
            bots=(None, None, None, None),
            options=SPEC.option_defaults(),
            first_dealer=3,
            initial_totals=(0, 0, 0, 0),
        ),
        HandStarted(
            hand_no=1,
            dealer=3,
            first_player=0,
            seats_in_hand=(0, 1, 2, 3),
            explicit_deal=True,
            commitment=hashlib.sha256(CANONICAL_TEXT).hexdigest(),
            seed=None,
            deck=ALL_CODES,
            reshuffles=(),
        ),
        CardsDealt(seat=0, cards=("2C", "6C", "TC", "AC", "5D", "9D", "KD"), count=7),
        CardsDealt(seat=1, cards=("3C", "7C", "JC", "2D", "6D", "TD", "AD"), count=7),
        CardsDealt(seat=2, cards=("4C", "8C", "QC", "3D", "7D", "JD", "2H"), count=7),
        CardsDealt(seat=3, cards=("5C", "9C", "KC", "4D", "8D", "QD", "3H"), count=7),
        StarterTurned(card="4H", active_suit="H", pending_draw=0, chooser=None),
        TurnStarted(seat=0),
    )
    assert t.top == "4H"
    assert t.discard == "4H"
    assert t.stock == "5H 6H 7H 8H 9H TH JH QH KH AH 2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS AS"
    assert (t.to_act, t.active_suit, t.pending) == (0, "H", 0)
    assert SPEC.hand_in_progress(t.state) and not SPEC.needs_deal(t.state)


@pytest.mark.parametrize(
    ("players", "first_dealer", "hands", "starter", "stock_size"),
    [
        (2, None, {0: "2C 4C 6C 8C TC QC AC", 1: "3C 5C 7C 9C JC KC 2D"}, "3D", 37),
        (3, None, {0: "2C 5C 8C JC AC 4D 7D", 1: "3C 6C 9C QC 2D 5D 8D", 2: "4C 7C TC KC 3D 6D 9D"}, "TD", 30),
        (4, 1, {2: "2C 6C TC AC 5D 9D KD", 3: "3C 7C JC 2D 6D TD AD", 0: "4C 8C QC 3D 7D JD 2H"}, "4H", 23),
    ],
)
def test_r3_2_the_deal_starts_left_of_the_dealer_and_leaves_37_30_or_23_cards_in_the_stock(
    players: int, first_dealer: int | None, hands: dict[int, str], starter: str, stock_size: int
) -> None:
    t = Table(players, first_dealer=first_dealer)
    t.apply(SPEC.deal_command(t.state, Deal(order=deck_52())))
    for seat, hand in hands.items():
        assert t.hand(seat) == hand
    assert t.top == starter
    assert len(t.state.stock) == stock_size
    dealer = players - 1 if first_dealer is None else first_dealer
    assert (t.state.dealer, t.state.first_player, t.to_act) == (dealer, (dealer + 1) % players, (dealer + 1) % players)


def test_s5_3_an_explicit_deal_rebuilds_the_deck_order_the_deal_would_have_come_from() -> None:
    t = Table()
    deal = t.explicit(
        ["2C 6C TC AC 5D 9D KD", "3C 7C JC 2D 6D TD AD", "4C 8C QC 3D 7D JD 2H", "5C 9C KC 4D 8D QD 3H"], "4H"
    )
    assert deal.order == deck_52()
    assert deal.explicit and deal.seed is None
    assert deal.commitment == hashlib.sha256(CANONICAL_TEXT).hexdigest()


def test_s5_1_a_seeded_deal_publishes_only_the_commitment_and_hides_the_seed_and_the_cards() -> None:
    t = Table()
    events = t.seeded("00" * 32)
    started = events[1]
    assert isinstance(started, HandStarted)
    assert started.commitment == commitment("00" * 32)
    assert started.explicit_deal is False
    assert redact(started, 0)["seed"] is None
    assert redact(started, None)["deck"] is None
    # The all-zero seed's order (pinned in test_deal.py) dealt to four players from seat 0.
    assert t.hand(0) == "5C 7C QC AD 4S JS AS"
    dealt = events[2]
    assert isinstance(dealt, CardsDealt)
    assert redact(dealt, 0)["cards"] == ["5C", "7C", "QC", "AD", "4S", "JS", "AS"]
    assert redact(dealt, 1)["cards"] is None
    assert redact(dealt, None)["count"] == 7


# ---------------------------------------------------------------------------- S5.3: bad deals


H4 = ["2C 6C TC AC 5D 9D KD", "3C 7C JC 2D 6D TD AD", "4C 8C QC 3D 7D JD 2H", "5C 9C KC 4D 8D QD 3H"]


@pytest.mark.parametrize(
    ("raw", "reason", "named"),
    [
        ({"hands": [*H4[:3], "5C 9C KC 4D 8D QD"], "starter": "4H"}, "bad_deal", "seat 3 holds 6 cards"),
        ({"hands": H4[:3], "starter": "4H"}, "bad_deal", "4 hands"),
        ({"hands": [*H4[:3], "5C 9C KC 4D 8D QD 2C"], "starter": "4H"}, "bad_deal", "repeated ['2C']"),
        ({"hands": H4, "starter": "4H", "stock": "5H"}, "bad_deal", "missing ["),
        ({"hands": H4, "starter": "4H", "dealer": 2}, "bad_deal", "'dealer'"),
        ({"hands": H4, "starter": None}, "bad_deal", "None"),
        ({"hands": [*H4[:3], "5C 9C KC 4D 8D QD 1H"], "starter": "4H"}, "bad_card", "'1H'"),
    ],
)
def test_s5_3_an_explicit_deal_that_is_not_exactly_the_deck_is_refused_as_invalid_input(
    raw: dict[str, Any], reason: str, named: str
) -> None:
    t = Table()
    full = dict(raw)
    full.setdefault("stock", [c for c in ALL_CODES[29:]])
    full["hands"] = [h.split() for h in full["hands"]]
    if isinstance(full["stock"], str):
        full["stock"] = full["stock"].split()
    with pytest.raises(InvalidInput) as info:
        SPEC.explicit_deal(t.state, full)
    assert info.value.reason == reason
    assert named in str(info.value)


def test_s11_next_hand_with_a_deal_that_is_not_one_52_card_deck_is_refused_bad_deal() -> None:
    t = Table()
    t.rejects("bad_deal", "S5.3", NextHand(Deal(order=deck_52()[:-1])))
    t.rejects("bad_deal", "S5.3", NextHand(Deal(order=deck_52()[:-1] + deck_52()[:1])))


# ---------------------------------------------------------------------------- R3.1, R6.10: dealer rotation


def test_r3_1_the_deal_passes_to_the_left_every_hand_starting_from_seat_n_minus_1() -> None:
    t = Table(options={"target_points": 1000})
    dealers = []
    for _ in range(5):
        quick_out(t)
        started = [e for e in t.log if isinstance(e, HandStarted)][-1]
        dealers.append((started.hand_no, started.dealer, started.first_player))
    assert dealers == [(1, 3, 0), (2, 0, 1), (3, 1, 2), (4, 2, 3), (5, 3, 0)]


def test_r3_1_the_first_dealer_and_the_initial_totals_come_from_the_match_config() -> None:
    t = Table(3, first_dealer=1, initial_totals=[10, 20, 30], options={"target_points": 1000})
    assert t.state.totals == (10, 20, 30)
    last = quick_out(t)
    started = [e for e in t.log if isinstance(e, HandStarted)]
    assert (started[0].dealer, started[0].first_player) == (1, 2)
    assert t.log[0] == MatchStarted(
        game="agonia",
        names=NAMES[:3],
        bots=(None, None, None),
        options={**SPEC.option_defaults(), "target_points": 1000},
        first_dealer=1,
        initial_totals=(10, 20, 30),
    )
    # Seat 2 went out.  Seat 0 (skipped by both nines) keeps 2C 3C 4C 5C 6C 7C TC = 37; seat 1
    # holds JC QC KC AC 2D 3D 4D = 50 and drew 5D, 6D = 11: 61.
    ended = last[-2]
    assert isinstance(ended, HandEnded)
    assert (ended.winner, ended.hand_points, ended.totals) == (2, (37, 61, 0), (47, 81, 30))
    quick_out(t)
    assert [e.dealer for e in t.log if isinstance(e, HandStarted)] == [1, 2]


# ---------------------------------------------------------------------------- R3.4: the up-card


HANDS = ["2C 3C 4C 5C 6C 7C TC", "2D 3D 4D 5D 6D 9D TD", "2H 3H 4H 5H 6H 7H TH", "2S 3S 4S 5S 6S QS TS"]


def test_r3_4_1_a_seven_up_card_makes_the_first_player_owe_two() -> None:
    t = Table()
    events = t.deal(HANDS, "7S", "KH QH")
    assert events[-2:] == (StarterTurned(card="7S", active_suit="S", pending_draw=2, chooser=None), turn(0))
    assert t.pending == 2
    # He takes the two cards and his turn goes on (R5.2.4) ...
    assert t.draw(0) == (drew(0, "KH QH", "penalty"),)
    assert (t.to_act, t.pending) == (0, 0)
    # ... and must play on the seven or draw one card: a pass straight away is refused.
    t.rejects("must_draw_first", "R4.4", t.command("pass", 0))
    assert t.play(0, "7C") == (played(0, "7C", "C", pending=2), turn(1))


def test_r3_4_1_the_first_player_may_answer_a_seven_up_card_with_a_seven_and_the_next_owes_four() -> None:
    t = Table()
    t.deal(HANDS, "7S")
    assert t.play(0, "7C") == (played(0, "7C", "C", pending=4), turn(1))
    assert (t.to_act, t.pending) == (1, 4)


def test_r3_4_2_a_nine_up_card_skips_the_first_player() -> None:
    t = Table()
    events = t.deal(HANDS, "9S")
    assert events[-3:] == (
        StarterTurned(card="9S", active_suit="S", pending_draw=0, chooser=None),
        skipped(0, "starter_nine"),
        turn(1),
    )
    t.rejects("not_your_turn", "S3.7", t.command("draw", 0))
    assert t.to_act == 1


def test_r3_4_2_with_two_players_a_nine_up_card_makes_the_dealer_play_first() -> None:
    t = Table(2)
    events = t.deal(HANDS[:2], "9S")
    assert (t.state.dealer, t.state.first_player) == (1, 0)
    assert events[-2:] == (skipped(0, "starter_nine"), turn(1))
    assert t.to_act == 1
    assert t.play(1, "9D") == (played(1, "9D", "D"), skipped(0, "nine"), turn(1))


def test_r3_4_3_an_eight_up_card_is_plain_and_the_dealer_does_not_play_again() -> None:
    t = Table()
    events = t.deal(HANDS, "8S")
    assert events[-2:] == (StarterTurned(card="8S", active_suit="S", pending_draw=0, chooser=None), turn(0))
    assert (t.to_act, t.active_suit, t.pending) == (0, "S", 0)


def test_r3_4_4_an_ace_up_card_keeps_its_own_suit_and_no_ace_may_be_played_on_it() -> None:
    t = Table()
    hands = ["AC 3C 4C 5C 6C 7C KS", *HANDS[1:]]
    events = t.deal(hands, "AS")
    assert events[-2:] == (StarterTurned(card="AS", active_suit="S", pending_draw=0, chooser=None), turn(0))
    t.rejects_play("ace_on_ace", "R5.1.3", 0, "AC")
    t.rejects_play("ace_on_ace", "R5.1.3", 0, "AC", suit="S")
    t.rejects_play("no_match", "R4.1", 0, "3C")
    t.rejects("no_suit_choice", "R7.2", t.command("choose_suit", 0, suit="C"))
    assert t.play(0, "KS") == (played(0, "KS", "S"), turn(1))


def test_r3_4_5_any_other_up_card_is_plain_and_sets_the_active_suit() -> None:
    t = Table()
    events = t.deal(HANDS, "KH")
    assert events[-2:] == (StarterTurned(card="KH", active_suit="H", pending_draw=0, chooser=None), turn(0))
    t.rejects_play("no_match", "R4.1", 0, "2C")
    t.draw(0)
    t.pass_(0)
    t.rejects_play("no_match", "R4.1", 1, "2D")
    assert t.to_act == 1
