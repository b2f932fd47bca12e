"""Giminaičiai: the deal, its commitment, the dealer rotation and the table commands (R3, R10, R11.4)."""

from __future__ import annotations

import hashlib

import pytest
from giminaiciai_helpers import ALL_CODES, R75_HANDS, Table, cards, play_r75

from trapoula.domain.cards import parse_cards
from trapoula.domain.deal import Deal
from trapoula.domain.errors import InvalidInput
from trapoula.domain.events import redact
from trapoula.domain.game import MatchConfig, SeatInfo
from trapoula.domain.games.giminaiciai import SPEC
from trapoula.domain.games.giminaiciai.events import CardsDealt, HandStarted, MatchStarted, StarterTurned
from trapoula.domain.games.giminaiciai.options import parse_options

SEED = "0f" * 32


def _dealt(events: object) -> dict[int, tuple[str, ...]]:
    return {e.seat: e.cards for e in events if isinstance(e, CardsDealt)}  # type: ignore[attr-defined]


def test_r3_6_three_players_dealer_2_deal_one_card_at_a_time_from_seat_0() -> None:
    """R3.3, R3.6: with the canonical deck 2C 3C ... AS as the order, dealer 2 of 3: d[i] goes to seat
    i mod 3; d[21] = TD is the starter; the stock is d[22..51], JD on top (30 cards, R3.5)."""
    t = Table(3)
    events = t.deal_deck(ALL_CODES)
    assert t.names(events) == ["MatchStarted", "HandStarted", "CardsDealt", "CardsDealt", "CardsDealt", "StarterTurned"]
    assert [e.seat for e in events if isinstance(e, CardsDealt)] == [0, 1, 2]
    assert _dealt(events) == {
        0: cards("2C 5C 8C JC AC 4D 7D"),
        1: cards("3C 6C 9C QC 2D 5D 8D"),
        2: cards("4C 7C TC KC 3D 6D 9D"),
    }
    assert events[-1] == StarterTurned(card="TD")
    assert t.view(None)["stock_count"] == 30
    assert t.state.stock[0].code == "JD"
    assert t.view(None)["discard_pile"] == ["TD"]


def test_r3_6_dealer_0_deals_first_to_seat_1_who_plays_first() -> None:
    """R3.1, R3.3, R4.1: with dealer 0 of 3, d[0] goes to seat 1, d[1] to seat 2, d[2] to seat 0."""
    t = Table(3, first_dealer=0)
    events = t.deal_deck(ALL_CODES)
    started = next(e for e in events if isinstance(e, HandStarted))
    assert (started.dealer, started.first_to_act) == (0, 1)
    assert [e.seat for e in events if isinstance(e, CardsDealt)] == [1, 2, 0]
    assert _dealt(events)[1] == cards("2C 5C 8C JC AC 4D 7D")
    assert _dealt(events)[0] == cards("4C 7C TC KC 3D 6D 9D")
    assert t.to_act == 1


@pytest.mark.parametrize(
    ("n", "stock", "starter"), [(2, 37, "3D"), (3, 30, "TD"), (4, 23, "4H"), (5, 16, "JH"), (6, 9, "5S")]
)
def test_r3_5_stock_sizes_and_starter_position(n: int, stock: int, starter: str) -> None:
    """R3.4, R3.5: the starter is d[7n]; the stock holds 52 - 7n - 1 cards (37, 30, 23, 16, 9)."""
    t = Table(n)
    t.deal_deck(ALL_CODES)
    assert t.view(None)["stock_count"] == stock
    assert t.view(None)["discard_pile"] == [starter]
    assert t.view(None)["hand_sizes"] == [7] * n


def test_r3_8_explicit_hands_are_written_as_the_deck_order_of_r3_6() -> None:
    """Section 9: an explicit deal's deck is the hands interleaved one card at a time from the player
    after the dealer (seat 0 for dealer 2), then the starter, then the stock."""
    t = Table(3)
    events = t.deal(R75_HANDS, "QD", "8C 6H 9H")
    started = next(e for e in events if isinstance(e, HandStarted))
    assert started.deck[:9] == cards("2C 2H KC 3C 3H KH 4C 4H KS")
    assert started.deck[21:25] == cards("QD 8C 6H 9H")
    assert started.explicit_deal and started.seed is None
    assert _dealt(events)[1] == cards("2H 3H 4H 5H 9C 9D KD")


def test_r3_2_explicit_commitment_is_sha256_of_the_codes_and_an_empty_salt() -> None:
    """R3.2, section 9: SHA-256 of the 52 codes joined by "," then ":" and the salt ("" when explicit)."""
    t = Table(3)
    events = t.deal_deck(ALL_CODES)
    started = next(e for e in events if isinstance(e, HandStarted))
    assert started.commitment == hashlib.sha256((",".join(ALL_CODES) + ":").encode()).hexdigest()
    assert t.view(1)["commitment"] == started.commitment


def test_r3_2_seeded_commitment_uses_the_seed_as_salt_and_hides_seed_and_deck() -> None:
    """R3.2: a seeded hand commits to its shuffled order with the seed as salt; the seed and the deck
    are hidden from every viewer while the hand lasts; each seat sees only its own cards."""
    t = Table(4)
    events = t.seeded(SEED)
    order = Deal.from_seed(SPEC.deck(t.state), SEED).order
    codes_ = ",".join(c.code for c in order)
    started = next(e for e in events if isinstance(e, HandStarted))
    assert started.commitment == hashlib.sha256(f"{codes_}:{SEED}".encode()).hexdigest()
    assert started.seed == SEED and not started.explicit_deal
    assert started.deck == tuple(c.code for c in order)
    for viewer in (None, 0, 3):
        seen = redact(started, viewer)
        assert seen["seed"] is None and seen["deck"] is None and seen["commitment"] == started.commitment
    dealt = [e for e in events if isinstance(e, CardsDealt)]
    assert [d.seat for d in dealt] == [0, 1, 2, 3]
    assert redact(dealt[1], 1)["cards"] == list(dealt[1].cards)
    assert redact(dealt[1], 0)["cards"] is None and redact(dealt[1], None)["cards"] is None
    assert dealt[1].cards == tuple(c.code for c in order[1:28:4])  # R3.6: d[1], d[5], ... to seat 1


def test_match_started_once_with_options_first_dealer_and_initial_totals() -> None:
    """R3.1, R10.1, R10.2: ``MatchStarted`` opens the first hand only, with the first dealer (default
    n-1), every option and the initial totals."""
    t = Table(3, options={"target_score": 150}, initial_totals=(5, 0, 7))
    events = t.deal_deck(ALL_CODES)
    assert events[0] == MatchStarted(
        game="giminaiciai",
        names=("ann", "bob", "cy"),
        bots=(None, None, None),
        options={"target_score": 150},
        first_dealer=2,
        initial_totals=(5, 0, 7),
    )
    assert t.view(0)["totals"] == [5, 0, 7]


def test_r3_7_the_deal_passes_to_the_next_seat() -> None:
    """R3.7, R8.3: after the hand dealt by seat 2 the next is dealt by seat 0 and seat 1 plays first;
    no second ``MatchStarted``."""
    t = Table(3)
    play_r75(t)
    assert t.view(None)["next_dealer"] == 0
    events = t.deal_deck(ALL_CODES)
    assert events[0] == HandStarted(
        hand_no=2,
        dealer=0,
        first_to_act=1,
        explicit_deal=True,
        commitment=hashlib.sha256((",".join(ALL_CODES) + ":").encode()).hexdigest(),
        seed=None,
        deck=ALL_CODES,
    )
    assert t.to_act == 1


def test_r11_4_next_hand_is_refused_during_a_hand_and_after_the_match() -> None:
    """R11.4: ``hand_in_progress`` while a hand lasts; ``match_over`` once the match has ended (R9.1)."""
    t = Table(3, options={"target_score": 10})
    t.deal(R75_HANDS, "QD", "8C 6H 9H")
    deal = Deal(order=parse_cards(" ".join(ALL_CODES)))
    t.rejects("hand_in_progress", "R8.3", SPEC.deal_command(t.state, deal))
    t2 = Table(3, options={"target_score": 10})
    play_r75(t2)
    assert SPEC.is_terminal(t2.state)
    t2.rejects("match_over", "R9.1", SPEC.deal_command(t2.state, deal))


def test_r3_8_a_deal_that_is_not_the_52_card_deck_is_refused() -> None:
    """R3.8, R11.4 ``bad_deal``: a deck order of 51 cards, or with a card twice, deals nothing."""
    t = Table(2)
    short = Deal(order=parse_cards(" ".join(ALL_CODES[:51])))
    t.rejects("bad_deal", "R3.8", SPEC.deal_command(t.state, short))
    doubled = Deal(order=parse_cards(" ".join((*ALL_CODES[:51], "2C"))))
    t.rejects("bad_deal", "R3.8", SPEC.deal_command(t.state, doubled))


@pytest.mark.parametrize(
    "raw",
    [
        {"deck": list(ALL_CODES[:51])},
        {"deck": [*ALL_CODES[:51], "2C"]},
        {"deck": [*ALL_CODES[:51], "1X"]},
        {"hands": [list(ALL_CODES[:7])], "starter": "AS", "stock": []},
        {"hands": [list(ALL_CODES[:7]), list(ALL_CODES[7:14])], "starter": "AS", "stock": list(ALL_CODES[14:50])},
        {"hands": [list(ALL_CODES[:7]), list(ALL_CODES[:7])], "starter": "AS", "stock": list(ALL_CODES[14:51])},
        {"deck": list(ALL_CODES), "dealer": 0},
        {"deck": list(ALL_CODES), "extra": 1},
        ["2C"],
    ],
)
def test_r3_8_malformed_explicit_deals_are_invalid_input(raw: object) -> None:
    """R3.8: wrong sizes, repeated or unparsable codes, a dealer that is not the next hand's (seat 1
    here, R3.1), unknown fields -- all ``bad_deal`` input errors."""
    t = Table(2)
    with pytest.raises(InvalidInput) as info:
        SPEC.explicit_deal(t.state, raw)  # type: ignore[arg-type]
    assert info.value.reason == "bad_deal"


def test_r3_8_an_explicit_deal_may_name_its_dealer() -> None:
    """R3.1: ``dealer`` in an explicit deal is accepted when it is the table's next dealer."""
    t = Table(2)
    deal = SPEC.explicit_deal(t.state, {"deck": list(ALL_CODES), "dealer": 1})
    assert deal.order == parse_cards(" ".join(ALL_CODES)) and deal.seed is None


@pytest.mark.parametrize("n", [1, 7])
def test_r2_3_two_to_six_players(n: int) -> None:
    """R2.3: 2 to 6 players; other counts are malformed (``bad_seats``)."""
    config = MatchConfig(game="giminaiciai", seats=tuple(SeatInfo(i, f"p{i}") for i in range(n)))
    with pytest.raises(InvalidInput) as info:
        SPEC.initial_state(config)
    assert info.value.reason == "bad_seats"


@pytest.mark.parametrize(
    ("first_dealer", "totals"), [(3, None), (-1, None), (None, (1, 2)), (None, (1, 2, "3")), (None, (1, 2, True))]
)
def test_r3_1_r10_2_bad_first_dealer_or_initial_totals(
    first_dealer: int | None, totals: tuple[object, ...] | None
) -> None:
    """R3.1: the first dealer is a seat; R10.2: the initial totals are n integers (``bad_config``)."""
    config = MatchConfig(
        game="giminaiciai",
        seats=tuple(SeatInfo(i, f"p{i}") for i in range(3)),
        first_dealer=first_dealer,
        initial_totals=totals,  # type: ignore[arg-type]
    )
    with pytest.raises(InvalidInput) as info:
        SPEC.initial_state(config)
    assert info.value.reason == "bad_config"


def test_r10_1_target_score_option() -> None:
    """R10.1: ``target_score`` defaults to 200; an integer from 1; no other option key."""
    assert SPEC.option_defaults() == {"target_score": 200}
    assert parse_options({"target_score": 1}).target_score == 1
    for bad in (
        {"target_score": 0},
        {"target_score": "200"},
        {"target_score": True},
        {"initial_totals": [0, 0]},
        {"x": 1},
    ):
        with pytest.raises(InvalidInput) as info:
            parse_options(bad)
        assert info.value.reason == "bad_option"
