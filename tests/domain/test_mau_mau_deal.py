"""Mau Mau: the deal (R3; S5): seven cards each from 104, the covered up-card, dealers and vacant seats."""

from __future__ import annotations

from collections import Counter

import pytest
from mau_mau_helpers import SEED, Table, finish_hand, names, turn, turned

from trapoula.domain.cards import codes, deck_104, sorted_cards
from trapoula.domain.deal import Deal, shuffle
from trapoula.domain.errors import InvalidInput
from trapoula.domain.games.mau_mau import SPEC
from trapoula.domain.games.shedding.events import CardsDealt, HandStarted, StarterTurned

HANDS3 = ["2C 3C 4C 5C 6C 2D 3D", "2H 3H 4H 5H 6H 4D 5D", "2S 3S 4S 5S 6S 6D QD"]


@pytest.mark.parametrize(("players", "stock"), [(2, 89), (3, 82), (4, 75), (5, 68)])
def test_r3_3_seven_cards_each_from_two_decks_and_the_rest_is_the_stock(players: int, stock: int) -> None:
    t = Table(players)
    t.seeded()
    assert [len(t.state.hands[s]) for s in range(players)] == [7] * players
    covered = len(t.state.discard) - 1  # R3.4 turns more up-cards from the stock
    assert len(t.state.stock) + covered == stock
    held = [c for h in t.state.hands for c in h] + list(t.state.stock) + list(t.state.discard)
    assert Counter(codes(held)) == Counter(codes(deck_104()))  # S2.2, S4.1: each code twice


def test_s5_2_cards_go_one_at_a_time_from_the_first_player_r3_1_the_last_seat_deals_first() -> None:
    t = Table(3)
    events = t.seeded()
    order = shuffle(deck_104(), SEED, "deal")
    started = next(e for e in events if isinstance(e, HandStarted))
    assert (started.dealer, started.first_player, started.seats_in_hand) == (2, 0, (0, 1, 2))
    dealt = {e.seat: e.cards for e in events if isinstance(e, CardsDealt)}
    for j, seat in enumerate((0, 1, 2)):
        assert dealt[seat] == codes(sorted_cards(order[j:21:3]))
    assert events[-1] == turn(0)


def test_r3_4_a_special_up_card_is_covered_by_the_next_stock_card_repeatedly() -> None:
    t = Table(3)
    events = t.deal(HANDS3, "7H", "JC 9S 5D KS")
    assert [e for e in events if isinstance(e, StarterTurned)] == [
        turned("7H"),
        turned("JC", covers="7H"),
        turned("9S", covers="JC"),
        turned("5D", covers="9S"),
    ]
    assert (t.discard, t.top, t.active_suit, t.pending, t.to_act) == ("7H JC 9S 5D", "5D", "D", 0, 0)
    assert t.stock[0] == "KS"
    assert names(events)[-1] == "TurnStarted"  # covered cards have no effect (no skip, no reverse)


def test_r3_4_a_plain_up_card_is_not_covered() -> None:
    t = Table(2)
    events = t.deal(HANDS3[:2], "KH", "JC")
    assert [e for e in events if isinstance(e, StarterTurned)] == [turned("KH")]
    assert t.active_suit == "H"


@pytest.mark.parametrize("special", ["7S", "8S", "9S", "JS", "AS"])
def test_r3_4_each_special_rank_is_covered(special: str) -> None:
    t = Table(2)
    t.deal(HANDS3[:2], special, "TC")
    assert (t.discard, t.active_suit) == (f"{special} TC", "C")


def test_r3_2_the_deal_moves_to_the_next_seat_clockwise_and_passes_over_a_vacant_seat() -> None:
    t = Table(4, options={"elimination_limit": -10_000}, first_dealer=1)
    t.seeded()
    assert (t.state.dealer, t.state.first_player) == (1, 2)
    t.leave(2)  # mid-hand; two others stay (R6.10.2)
    finish_hand(t)
    events = t.seeded()
    started = next(e for e in events if isinstance(e, HandStarted))
    assert (started.dealer, started.first_player, started.seats_in_hand) == (3, 0, (0, 1, 3))


def test_r3_2_a_dealer_who_left_is_followed_by_the_next_seated_player() -> None:
    t = Table(3, options={"elimination_limit": -10_000})
    t.seeded()
    assert t.state.dealer == 2
    t.leave(2)
    finish_hand(t)
    t.join("eve")  # takes the vacant seat 2 (R6.9.2) but R3.2 counts from the old dealer's seat
    events = t.seeded()
    started = next(e for e in events if isinstance(e, HandStarted))
    assert (started.dealer, started.first_player, started.seats_in_hand) == (0, 1, (0, 1, 2))


def test_s5_2_a_vacant_seat_gets_no_cards_and_the_deal_goes_round_the_others() -> None:
    t = Table(3, options={"elimination_limit": -10_000}, first_dealer=0)
    t.leave(1)  # before the first hand
    events = t.seeded()
    order = shuffle(deck_104(), SEED, "deal")
    dealt = {e.seat: e.cards for e in events if isinstance(e, CardsDealt)}
    assert set(dealt) == {0, 2}
    assert dealt[2] == codes(sorted_cards(order[0:14:2]))  # seat 2 is to the dealer's left
    assert dealt[0] == codes(sorted_cards(order[1:14:2]))
    assert (t.state.dealer, t.to_act, t.view(None)["seats_in_hand"]) == (0, 2, [0, 2])
    assert t.view(None)["hand_sizes"] == [7, 0, 7]


def test_s5_3_an_explicit_deal_names_a_vacant_seat_with_no_cards() -> None:
    t = Table(3, first_dealer=0)
    t.leave(1)
    t.deal([HANDS3[0], "", HANDS3[2]], "KD")
    assert (t.hand(0), t.hand(2), t.to_act) == ("2C 3C 4C 5C 6C 2D 3D", "6D QD 2S 3S 4S 5S 6S", 2)
    with pytest.raises(InvalidInput) as bad:
        t2 = Table(3, first_dealer=0)
        t2.leave(1)
        t2.explicit(HANDS3, "KD")
    assert bad.value.reason == "bad_deal"
    assert "vacant" in str(bad.value)


def test_s5_3_an_explicit_deal_must_hold_each_code_exactly_twice() -> None:
    t = Table(2)
    with pytest.raises(InvalidInput) as short:
        t.explicit(HANDS3[:2], "KD", fill=False)
    assert short.value.reason == "bad_deal"
    with pytest.raises(InvalidInput) as wrong_size:
        t.explicit(["2C 3C", HANDS3[1]], "KD")
    assert wrong_size.value.reason == "bad_deal"
    seeded_52 = Deal.from_seed(deck_104()[:52], SEED)
    t.rejects("bad_deal", "S5.3", SPEC.deal_command(t.state, seeded_52))
