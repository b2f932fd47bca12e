"""Romis su iškritimu: the deal (R3), its commitments (R3.2, section 9), the options (section 7) and
the shape of commands (section 8)."""

from __future__ import annotations

import hashlib

import pytest
from romis_helpers import ALL_CODES, Table, cards, of

from trapoula.domain.cards import parse_cards
from trapoula.domain.deal import Deal, deck_hash, shuffle
from trapoula.domain.errors import InvalidInput
from trapoula.domain.events import redact
from trapoula.domain.game import MatchConfig, SeatInfo
from trapoula.domain.games.romis import SPEC
from trapoula.domain.games.romis.commands import Cannot, NextHand, Reveal, UseAuxiliary
from trapoula.domain.games.romis.events import (
    AuxiliaryDealt,
    CardsDealt,
    HandStarted,
    MatchStarted,
    RoundOpened,
    ShuffleCommitted,
)
from trapoula.domain.games.romis.options import parse_options

SEED = "ab" * 32


def test_r3_6_a_seeded_deal_follows_the_deck_order() -> None:
    """R3.6 with 3 players, dealer seat 2 (R3.1 default): d[i], i < 15, to seat i mod 3 of the order
    0, 1, 2; d[15..17] slot 1 and d[18..20] slot 2 of seats 0, 1, 2; the stock d[21..] has 31 cards (R3.5)."""
    t = Table(3)
    events = t.seeded(SEED)
    d = [c.code for c in shuffle(SPEC.deck(t.state), SEED, "deal")]
    assert [e.cards for e in of(events, CardsDealt)] == [tuple(d[s:15:3]) for s in range(3)]
    assert [e.seat for e in of(events, CardsDealt)] == [0, 1, 2]
    assert [e.cards for e in of(events, AuxiliaryDealt)] == [(d[15 + s], d[18 + s]) for s in range(3)]
    assert [c.code for c in t.state.stock] == d[21:]
    assert len(t.state.stock) == 31


@pytest.mark.parametrize(("n", "stock"), [(2, 38), (3, 31), (4, 24)])
def test_r3_5_the_stock_holds_52_minus_7n_cards(n: int, stock: int) -> None:
    """R3.5: 38 with 2 players, 31 with 3, 24 with 4; every seat holds 5 cards and 2 auxiliary cards."""
    t = Table(n)
    t.seeded(SEED)
    assert len(t.state.stock) == stock
    assert [len(h) for h in t.state.hands] == [5] * n
    assert [len(a) for a in t.state.aux] == [2] * n


def test_r3_the_deal_events_in_order() -> None:
    """R3.1-R3.4, R4.2, section 9: MatchStarted, HandStarted, ShuffleCommitted (deal), the hands in the
    seat order after the dealer, the auxiliary cards in that order, round 1 opened for everybody."""
    t = Table(3, first_dealer=0)
    events = t.seeded(SEED)
    assert t.names(events) == [
        "MatchStarted",
        "HandStarted",
        "ShuffleCommitted",
        "CardsDealt",
        "CardsDealt",
        "CardsDealt",
        "AuxiliaryDealt",
        "AuxiliaryDealt",
        "AuxiliaryDealt",
        "RoundOpened",
    ]
    assert [e.seat for e in of(events, CardsDealt)] == [1, 2, 0]
    assert {(e.count, e.stage) for e in of(events, CardsDealt)} == {(5, "hand")}
    assert [(e.seat, e.count) for e in of(events, AuxiliaryDealt)] == [(1, 2), (2, 2), (0, 2)]
    assert events[-1] == RoundOpened(round=1, attempt=1, required=2, live=(0, 1, 2))
    started = of(events, MatchStarted)[0]
    assert started.first_dealer == 0 and started.options == {
        "target_score": 100,
        "carried_bonus_factor": 1,
        "resubmit": False,
    }


def test_r3_2_the_deal_commitment_is_sha256_of_the_order_and_the_seed() -> None:
    """R3.2, section 9: commitment = SHA-256 hex of the 52 codes joined by "," + ":" + salt, the salt
    being the seed; HandStarted and ShuffleCommitted publish it; the seed and deck are hidden."""
    t = Table(2)
    events = t.seeded(SEED)
    order = [c.code for c in shuffle(SPEC.deck(t.state), SEED, "deal")]
    expected = hashlib.sha256((",".join(order) + ":" + SEED).encode()).hexdigest()
    started = of(events, HandStarted)[0]
    assert started.commitment == expected
    assert of(events, ShuffleCommitted) == [ShuffleCommitted(hand_no=1, purpose="deal", commitment=expected)]
    assert started.seed == SEED and started.bonus_factor == 1 and not started.explicit_deal
    for viewer in (0, 1, None):
        shown = redact(started, viewer)
        assert shown["seed"] is None and shown["deck"] is None and shown["commitment"] == expected
    assert SPEC.commitment(SEED, parse_cards(order)) == expected


def test_r3_7_an_explicit_deal_gives_hands_and_the_auxiliary_cards_from_the_stock() -> None:
    """R3.7 (2 players, dealer 1): hands as given; the auxiliary cards are the first 4 stock cards,
    slot 1 of seats 0 and 1, then slot 2 of seats 0 and 1; the rest of the stock follows, top first.
    The deck order is that of R3.6 and the salt of the commitment is empty."""
    t = Table(2)
    hands = [list(cards("6H 7H 5H 7D 2C")), list(cards("2D 4S 9C JH KD"))]
    rest = [c for c in ALL_CODES if c not in {*hands[0], *hands[1]}]
    events = t.apply(SPEC.deal_command(t.state, SPEC.explicit_deal(t.state, {"hands": hands, "stock": rest})))
    assert [e.cards for e in of(events, CardsDealt)] == [tuple(hands[0]), tuple(hands[1])]
    assert [e.cards for e in of(events, AuxiliaryDealt)] == [(rest[0], rest[2]), (rest[1], rest[3])]
    order = [hands[i % 2][i // 2] for i in range(10)] + rest
    started = of(events, HandStarted)[0]
    assert list(started.deck) == order and started.explicit_deal and started.seed is None
    assert started.commitment == hashlib.sha256((",".join(order) + ":").encode()).hexdigest()
    assert t.state.secret == deck_hash(parse_cards(order))
    assert [c.code for c in t.state.stock] == rest[4:]


def test_r3_8_the_deal_passes_to_the_next_seat() -> None:
    """R3.1, R3.8: seat n-1 deals first (here seat 2 of 3), then seat 0, then seat 1; the seat after
    the dealer receives the first card."""
    t = Table(3, options={"target_score": 1000})
    for dealer in (2, 0, 1):
        events = t.seeded(SEED)
        assert of(events, HandStarted)[0].dealer == dealer
        assert of(events, CardsDealt)[0].seat == (dealer + 1) % 3
        t.auto()


def test_r13_4_next_hand_is_refused_during_a_hand_and_after_the_match() -> None:
    """R13.4: ``hand_in_progress`` while a hand is played (R10.9); ``match_over`` once the match is over
    (R11.1); ``bad_deal`` for an order that is not the 52-card deck (R3.7)."""
    t = Table(2, options={"target_score": 1})
    deal = Deal.from_seed(SPEC.deck(t.state), SEED)
    t.rejects("bad_deal", "R3.7", NextHand(Deal(order=deal.order[:51], seed=None)))
    t.seeded(SEED)
    t.rejects("hand_in_progress", "R10.9", NextHand(deal))
    t.auto()
    assert SPEC.is_terminal(t.state)
    t.rejects("match_over", "R11.1", NextHand(deal))


@pytest.mark.parametrize(
    ("raw", "fragment"),
    [
        ({"hands": [["2C", "3C", "4C", "5C", "6C"]], "stock": []}, "must list 2 hands"),
        ({"hands": [["2C", "3C", "4C", "5C"], ["7C", "8C", "9C", "TC", "JC"]], "stock": []}, "holds 4 cards"),
        ({"deck": list(ALL_CODES)}, "expected 'hands' and 'stock'"),
        (
            {"hands": [list(ALL_CODES[:5]), list(ALL_CODES[5:10])], "stock": list(ALL_CODES[9:51])},
            "missing ['AS'], repeated ['JC']",
        ),
        ({"hands": [list(ALL_CODES[:5]), list(ALL_CODES[5:10])], "stock": list(ALL_CODES[10:]), "dealer": 0}, "seat 1"),
        ({"hands": [["2C", "3C", "4C", "5C", "1C"], list(ALL_CODES[5:10])], "stock": list(ALL_CODES[10:])}, "1C"),
        ("hands", "not a mapping"),
    ],
)
def test_r3_7_a_bad_explicit_deal_is_refused(raw: object, fragment: str) -> None:
    """R3.7: n hands of 5 cards and a stock of 52 - 5n, exactly the 52-card deck, no other key; a named
    dealer must be the next hand's (R3.9); else ``bad_deal``."""
    t = Table(2)
    with pytest.raises(InvalidInput) as info:
        SPEC.explicit_deal(t.state, raw)  # type: ignore[arg-type]
    assert info.value.reason == "bad_deal"
    assert fragment in info.value.message


def test_r3_7_an_explicit_deal_may_name_the_next_dealer() -> None:
    """R3.1, R3.9: ``dealer`` equal to the next hand's dealer (seat 1 of 2) is accepted."""
    t = Table(2)
    raw = {"hands": [list(ALL_CODES[:5]), list(ALL_CODES[5:10])], "stock": list(ALL_CODES[10:]), "dealer": 1}
    assert SPEC.explicit_deal(t.state, raw).order[:2] == parse_cards("2C 7C")


def test_section_7_options_and_their_defaults() -> None:
    """R12.1 target_score 100, R12.3 carried_bonus_factor 1, R12.4 resubmit false; integral
    floats are accepted; anything else is ``bad_option``."""
    assert SPEC.option_defaults() == {"target_score": 100, "carried_bonus_factor": 1, "resubmit": False}
    assert parse_options({"target_score": 50.0, "carried_bonus_factor": 3, "resubmit": True}).to_dict() == {
        "target_score": 50,
        "carried_bonus_factor": 3,
        "resubmit": True,
    }
    for bad in (
        {"target_score": 0},
        {"target_score": True},
        {"carried_bonus_factor": 0},
        {"resubmit": 1},
        {"initial_totals": [0, 0]},
        {"jokers": 2},
    ):
        with pytest.raises(InvalidInput) as info:
            parse_options(bad)
        assert info.value.reason == "bad_option", bad
    with pytest.raises(InvalidInput):
        parse_options([])  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("n", "first_dealer", "totals", "reason"),
    [
        (1, None, None, "bad_seats"),
        (5, None, None, "bad_seats"),
        (2, 2, None, "bad_config"),
        (2, None, (1,), "bad_config"),
    ],
)
def test_r2_3_two_to_four_players_and_a_valid_start(
    n: int, first_dealer: int | None, totals: tuple[int, ...] | None, reason: str
) -> None:
    """R2.3: 2 to 4 players; R3.1 a first dealer that is a seat; R12.2 one initial total per seat."""
    config = MatchConfig("romis", tuple(SeatInfo(i, f"p{i}") for i in range(n)), {}, first_dealer, totals)
    with pytest.raises(InvalidInput) as info:
        SPEC.initial_state(config)
    assert info.value.reason == reason


def test_r12_2_r12_3_initial_totals_and_carried_bonus_factor_start_the_match() -> None:
    """R12.2: the totals start from MatchConfig.initial_totals; R12.3: the first hand's bonus factor is
    carried_bonus_factor (HandStarted.bonus_factor)."""
    t = Table(2, options={"carried_bonus_factor": 3}, initial_totals=(40, 55))
    events = t.seeded(SEED)
    assert of(events, MatchStarted)[0].initial_totals == (40, 55)
    assert of(events, HandStarted)[0].bonus_factor == 3
    assert t.view(None)["totals"] == [40, 55] and t.view(None)["bonus_factor"] == 3


@pytest.mark.parametrize(
    ("raw", "reason"),
    [
        ({"kind": "reveal", "seat": 0}, "bad_command"),
        ({"kind": "reveal", "seat": 0, "cards": "6H 7H"}, "bad_command"),
        ({"kind": "reveal", "seat": 0, "cards": ["6H", 7]}, "bad_card"),
        ({"kind": "reveal", "seat": 0, "cards": ["6H", "1H"]}, "bad_card"),
        ({"kind": "reveal", "seat": 0, "cards": ["6H"], "companions": "7H"}, "bad_command"),
        ({"kind": "cannot", "seat": 0, "cards": []}, "bad_command"),
        ({"kind": "use_auxiliary", "seat": "0"}, "bad_seat"),
        ({"kind": "draw", "seat": 0}, "bad_command"),
        ({"kind": "reveal", "seat": 0, "cards": ["2C"] * 53}, "bad_command"),
        (["reveal"], "bad_command"),
    ],
)
def test_section_8_malformed_commands_are_invalid_input(raw: object, reason: str) -> None:
    """Section 8: the shape of a command is checked before the rules (``bad_command``, ``bad_card``,
    ``bad_seat``)."""
    with pytest.raises(InvalidInput) as info:
        SPEC.parse_command(raw)  # type: ignore[arg-type]
    assert info.value.reason == reason


def test_section_8_commands_round_trip_through_plain_data() -> None:
    """Section 8: parse_command and command_payload are inverse; an empty companions list is none."""
    for command in (
        Reveal(0, parse_cards("6H 7H")),
        Reveal(1, parse_cards("9S"), parse_cards("9D TS")),
        UseAuxiliary(2),
        Cannot(3),
    ):
        assert SPEC.parse_command(SPEC.command_payload(command)) == command
    assert SPEC.parse_command({"kind": "reveal", "seat": 0, "cards": ["9S"], "companions": []}) == Reveal(
        0, parse_cards("9S")
    )
    assert SPEC.command_payload(NextHand(Deal.from_seed(SPEC.deck(Table(2).state), SEED))) == {
        "kind": "next_hand",
        "explicit": False,
    }
    assert SPEC.command_seat(Cannot(3)) == 3
