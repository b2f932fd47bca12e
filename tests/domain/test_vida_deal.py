"""Vida's deal (docs/rules/vida.md R3.1-R3.5, D29, D35, D36), the match set-up and the options (section 7)."""

from __future__ import annotations

import hashlib
import hmac

import pytest
from vida_helpers import ALL_CODES, MONO, NAMES, Table

from trapoula.domain.cards import parse_cards
from trapoula.domain.deal import Deal
from trapoula.domain.errors import InvalidInput
from trapoula.domain.game import MatchConfig, SeatInfo
from trapoula.domain.games.shedding.events import MatchStarted
from trapoula.domain.games.vida import SPEC
from trapoula.domain.games.vida.commands import NextHand
from trapoula.domain.games.vida.events import CardsDealt, HandStarted, WidowExposed
from trapoula.domain.games.vida.options import VidaOptions, parse_options

CANONICAL = " ".join(ALL_CODES)
"""The deck in canonical order: deck[0..7] clubs 7..A, [8..15] diamonds, [16..23] hearts, [24..31] spades."""

SEED = "0f" * 32


def codes_of(text: str) -> tuple[str, ...]:
    """Space-separated card codes as a tuple."""
    return tuple(text.split())


def sha(text: str) -> str:
    return hashlib.sha256(text.encode("ascii")).hexdigest()


def test_r3_3_the_3_2_3_deal_from_the_seat_after_the_dealer() -> None:
    """Dealer 3: seat 0 (p=0) gets deck[0..2] + deck[12..13] + deck[20..22], seat 1 (p=1)
    deck[3..5] + deck[14..15] + deck[23..25], seat 2 deck[6..8] + deck[16..17] + deck[26..28],
    the dealer deck[9..11] + deck[18..19] + deck[29..31]."""
    table = Table()
    events = table.deal_deck(CANONICAL)
    assert events[0] == MatchStarted(
        game="vida",
        names=NAMES,
        bots=(None, None, None, None),
        options=VidaOptions().to_dict(),
        first_dealer=3,
        initial_totals=(0, 0),
    )
    assert events[1] == HandStarted(
        hand_no=1,
        game_no=1,
        dealer=3,
        explicit_deal=True,
        commitment=sha(":" + ",".join(ALL_CODES)),
        seed=None,
        deck=ALL_CODES,
    )
    assert events[2:] == (
        CardsDealt(0, codes_of("7C 8C 9C JD QD JH QH KH"), 8),
        CardsDealt(1, codes_of("TC JC QC KD AD AH 7S 8S"), 8),
        CardsDealt(2, codes_of("KC AC 7D 7H 8H 9S TS JS"), 8),
        CardsDealt(3, codes_of("8D 9D TD 9H TH QS KS AS"), 8),
    )
    assert table.hand(0) == "7C 8C 9C JD QD JH QH KH"


def test_r3_3_the_deal_starts_after_the_dealer_whoever_deals() -> None:
    table = Table(first_dealer=1)
    events = table.deal_deck(CANONICAL)
    dealt = [e for e in events if isinstance(e, CardsDealt)]
    assert [e.seat for e in dealt] == [2, 3, 0, 1]
    assert dealt[0].cards == codes_of("7C 8C 9C JD QD JH QH KH")
    assert table.to_act == 2  # R4.2


def test_r3_4_d29_open_vida_deals_3_2_2_and_lays_the_last_four_face_up() -> None:
    table = Table(options={"open_vida": True})
    events = table.deal_deck(CANONICAL)
    assert events[2:] == (
        CardsDealt(0, codes_of("7C 8C 9C JD QD JH QH"), 7),
        CardsDealt(1, codes_of("TC JC QC KD AD KH AH"), 7),
        CardsDealt(2, codes_of("KC AC 7D 7H 8H 7S 8S"), 7),
        CardsDealt(3, codes_of("8D 9D TD 9H TH 9S TS"), 7),
        WidowExposed(("JS", "QS", "KS", "AS")),
    )
    view = table.view(2)
    assert view["widow"] == ["JS", "QS", "KS", "AS"]
    assert view["hand_sizes"] == [7, 7, 7, 7]


def test_r3_2_explicit_hands_fill_each_seats_deck_positions_in_order() -> None:
    """Dealer 3: seat 0's cards go to positions 0 1 2 12 13 20 21 22, seat 1's to 3 4 5 14 15 23
    24 25, seat 2's to 6 7 8 16 17 26 27 28, seat 3's to 9 10 11 18 19 29 30 31."""
    table = Table()
    deal = table.explicit(MONO)
    deck = [c.code for c in deal.order]
    assert deal.seed is None
    assert deck[0:3] == ["7C", "8C", "9C"] and deck[12:14] == ["TC", "JC"] and deck[20:23] == ["QC", "KC", "AC"]
    assert deck[3:6] == ["7D", "8D", "9D"] and deck[14:16] == ["TD", "JD"] and deck[23:26] == ["QD", "KD", "AD"]
    assert deck[6:9] == ["7H", "8H", "9H"] and deck[16:18] == ["TH", "JH"] and deck[26:29] == ["QH", "KH", "AH"]
    assert deck[9:12] == ["7S", "8S", "9S"] and deck[18:20] == ["TS", "JS"] and deck[29:32] == ["QS", "KS", "AS"]
    events = table.apply(SPEC.deal_command(table.state, deal))
    assert events[1].commitment == sha(":" + ",".join(deck))  # type: ignore[attr-defined]
    assert [table.hand(s) for s in range(4)] == list(MONO)


def test_r3_4_explicit_open_vida_hands_and_widow() -> None:
    table = Table(options={"open_vida": True}, first_dealer=0)
    deal = table.explicit(
        ["7D 8D 9D TD JD QD KD", "7C 8C 9C TC JC QC KC", "7H 8H 9H TH JH QH KH", "7S 8S 9S TS JS QS KS"],
        "AC AD AH AS",
    )
    deck = [c.code for c in deal.order]
    # dealer 0: seat 1 is p=0 (positions 0 1 2 12 13 20 21), seat 0 is p=3 (9 10 11 18 19 26 27)
    assert deck[0:3] == ["7C", "8C", "9C"] and deck[12:14] == ["TC", "JC"] and deck[20:22] == ["QC", "KC"]
    assert deck[9:12] == ["7D", "8D", "9D"] and deck[18:20] == ["TD", "JD"] and deck[26:28] == ["QD", "KD"]
    assert deck[28:32] == ["AC", "AD", "AH", "AS"]


@pytest.mark.parametrize(
    ("raw", "options"),
    [
        ({"hands": [h.split()[:7] for h in MONO]}, {}),  # 7 cards without open vida
        ({"hands": [h.split() for h in MONO], "widow": ["AC", "AD", "AH", "AS"]}, {}),  # a widow without open vida
        ({"hands": [h.split()[:7] for h in MONO]}, {"open_vida": True}),  # open vida without its widow
        ({"hands": [h.split() for h in MONO[:3]]}, {}),  # three hands
        ({"hands": [MONO[0].split(), MONO[0].split(), MONO[2].split(), MONO[3].split()]}, {}),  # repeated cards
        ({"hands": [["2C", *MONO[0].split()[1:]], *(h.split() for h in MONO[1:])]}, {}),  # a rank 2 (R2.2)
        ({"hands": [["ZZ", *MONO[0].split()[1:]], *(h.split() for h in MONO[1:])]}, {}),  # not a code
        ({"deck": list(ALL_CODES[:31])}, {}),
        ({"deck": [*ALL_CODES[:31], "7C"]}, {}),
        ({"deck": " ".join(ALL_CODES)}, {}),
        ({"deck": list(ALL_CODES), "hands": [h.split() for h in MONO]}, {}),
        ({"stock": []}, {}),
    ],
)
def test_r3_2_bad_explicit_deals_are_refused(raw: dict[str, object], options: dict[str, object]) -> None:
    table = Table(options=options)
    with pytest.raises(InvalidInput) as info:
        SPEC.explicit_deal(table.state, raw)
    assert info.value.reason == "bad_deal"


def test_r3_2_a_seeded_deal_commits_to_the_salt_and_deck_and_reveals_them_at_the_end() -> None:
    """R3.2: the salt is the hand's seed (the product's decision, confirmed by the rules owners): the
    commitment is SHA-256 of seed + ":" + the deck the seed shuffles, and the revealed salt is the seed."""
    table = Table()
    events = table.seeded(SEED)
    started = events[1]
    assert isinstance(started, HandStarted)
    assert started.commitment == sha(SEED + ":" + ",".join(started.deck))
    assert sorted(started.deck) == sorted(ALL_CODES)
    assert started.seed == SEED and not started.explicit_deal
    assert tuple(c.code for c in Deal.from_seed(SPEC.deck(table.state), SEED).order) == started.deck
    end = table.calls("pass", "pass", "pass", "pass")
    revealed = end[-1]
    assert revealed.event_name() == "ShuffleRevealed"
    assert (revealed.hand_no, revealed.deck, revealed.salt) == (1, started.deck, SEED)  # type: ignore[attr-defined]
    assert SPEC.commitment(SEED, parse_cards(started.deck)) == started.commitment


def first_dealer_drawn(seed: str) -> int:
    """R3.1 by hand: the first 64-bit word of HMAC-SHA256(seed, "first_dealer/" + counter 0), mod 4."""
    block = hmac.new(bytes.fromhex(seed), b"first_dealer/" + (0).to_bytes(8, "big"), hashlib.sha256).digest()
    return int.from_bytes(block[:8], "big") % 4


def test_r3_1_d36_a_random_first_dealer_is_drawn_from_the_first_hands_seed() -> None:
    """R3.1 (the draw from the first hand's seed, the product's decision confirmed by the rules owners):
    the first dealer is the first integer of the seed's ``first_dealer`` stream, mod 4, worked out here
    from HMAC-SHA256 directly."""
    for seed in (SEED, "a1" * 32, "00" * 32, "5c" * 32):
        table = Table(first_dealer=None)
        events = table.seeded(seed)
        assert events[0].first_dealer == first_dealer_drawn(seed)  # type: ignore[attr-defined]
        assert events[1].dealer == first_dealer_drawn(seed)  # type: ignore[attr-defined]


def test_r3_1_the_option_fixes_the_first_dealer_and_the_configuration_wins_over_it() -> None:
    table = Table(options={"first_dealer": 2}, first_dealer=None)
    assert table.seeded(SEED)[1].dealer == 2  # type: ignore[attr-defined]
    table = Table(options={"first_dealer": 2}, first_dealer=1)
    assert table.seeded(SEED)[1].dealer == 1  # type: ignore[attr-defined]
    assert table.view(None)["first_dealer"] == 1


def test_r3_1_an_explicit_first_deal_with_a_random_first_dealer_is_dealt_by_seat_3() -> None:
    table = Table(first_dealer=None)
    assert table.view(None)["first_dealer"] is None
    events = table.deal(MONO)
    assert events[0].first_dealer == 3  # type: ignore[attr-defined]
    assert table.hand(0) == MONO[0]


def test_r3_5_d35_the_deal_passes_to_the_next_seat_after_every_hand() -> None:
    table = Table(first_dealer=2)
    for _ in range(5):
        table.deal(MONO)
        table.calls("pass", "pass", "pass", "pass")
    assert [e.dealer for e in table.log if isinstance(e, HandStarted)] == [2, 3, 0, 1, 2]
    assert [e.hand_no for e in table.log if isinstance(e, HandStarted)] == [1, 2, 3, 4, 5]


def test_next_hand_is_refused_during_a_hand_and_for_a_deal_that_is_not_the_deck() -> None:
    table = Table()
    short = NextHand(Deal(order=parse_cards(ALL_CODES[:31]), seed=None))
    table.rejects("bad_deal", "R3.2", short)
    table.deal(MONO)
    table.rejects(
        "hand_in_progress", "R4.1", SPEC.deal_command(table.state, Deal.from_seed(SPEC.deck(table.state), SEED))
    )
    assert SPEC.hand_in_progress(table.state) and not SPEC.needs_deal(table.state)


def test_r2_3_vida_needs_exactly_four_players_and_sane_configuration() -> None:
    def config(n: int = 4, **kw: object) -> MatchConfig:
        return MatchConfig("vida", tuple(SeatInfo(i, NAMES[i % 4]) for i in range(n)), **kw)  # type: ignore[arg-type]

    for n in (2, 3, 5):
        with pytest.raises(InvalidInput) as info:
            SPEC.initial_state(config(n))
        assert info.value.reason == "bad_seats"
    for kw in (
        {"first_dealer": 4},
        {"first_dealer": -1},
        {"initial_totals": (0, 0, 0, 0)},
        {"initial_totals": (3551, 0)},
        {"initial_totals": (-10, 0)},
    ):
        with pytest.raises(InvalidInput) as info:
            SPEC.initial_state(config(**kw))
        assert info.value.reason == "bad_config", kw
    state = SPEC.initial_state(config(initial_totals=(3550, 120)))
    assert state.totals == (3550, 120)


def test_section_7_defaults() -> None:
    assert SPEC.option_defaults() == {
        "open_vida": False,
        "declaration_timing": "after_auction",
        "bidders_must_outscore": True,
        "all_pass": "next_dealer",
        "first_bidder": "after_dealer",
        "first_leader": "after_dealer",
        "direction": "counterclockwise",
        "target_score": 3550,
        "wins_needed": 2,
        "first_dealer": "random",
        "max_bid": 1000,
    }
    assert parse_options({"target_score": 1000.0}).target_score == 1000


@pytest.mark.parametrize(
    "raw",
    [
        {"colour": True},
        {"open_vida": "yes"},
        {"open_vida": 1},
        {"declaration_timing": "never"},
        {"bidders_must_outscore": None},
        {"all_pass": "redeal"},
        {"first_bidder": "left"},
        {"first_leader": 3},
        {"direction": "up"},
        {"target_score": 0},
        {"target_score": "3550"},
        {"target_score": True},
        {"wins_needed": 0},
        {"first_dealer": 4},
        {"first_dealer": "dealer"},
        {"first_dealer": True},
        {"max_bid": 85},
        {"max_bid": 70},
        {"max_bid": 20_000},
    ],
)
def test_section_7_bad_options_are_refused(raw: dict[str, object]) -> None:
    with pytest.raises(InvalidInput) as info:
        parse_options(raw)
    assert info.value.reason == "bad_option"
