"""Cards and decks (shedding-common S2): codes, parsing, canonical order, the three decks."""

from __future__ import annotations

from collections import Counter

import pytest

from trapoula.domain.cards import (
    Card,
    Rank,
    Suit,
    codes,
    deck_32,
    deck_52,
    deck_104,
    parse_card,
    parse_cards,
    sorted_cards,
)
from trapoula.domain.errors import InvalidInput


def test_s2_1_a_code_is_rank_then_suit_and_round_trips() -> None:
    card = parse_card("TS")
    assert (card.rank, card.suit) == (Rank.TEN, Suit.SPADES)
    assert card.code == "TS" == str(card)
    assert parse_card("7H") == Card(Rank.SEVEN, Suit.HEARTS)
    assert parse_card("AC") is parse_card("AC")  # one value per code
    assert all(parse_card(c.code) == c for c in deck_52())


@pytest.mark.parametrize("text", ["1S", "10H", "7h", "7", "", "7HH", " 7H", "XS", "7X", "AH "])
def test_s2_1_any_other_text_is_not_a_card_and_the_error_names_the_text(text: str) -> None:
    with pytest.raises(InvalidInput) as info:
        parse_card(text)
    assert info.value.reason == "bad_card"
    assert repr(text) in str(info.value)
    assert "S2.1" in str(info.value)


def test_s2_1_a_non_string_is_not_a_card() -> None:
    with pytest.raises(InvalidInput) as info:
        parse_card(None)  # type: ignore[arg-type]
    assert info.value.reason == "bad_card"
    assert "None" in info.value.message


def test_parse_cards_takes_a_list_or_one_string_and_names_the_bad_code() -> None:
    assert codes(parse_cards(["7H", "TS"])) == ("7H", "TS")
    assert codes(parse_cards("KH 7D 2C")) == ("KH", "7D", "2C")
    assert parse_cards("") == ()
    with pytest.raises(InvalidInput) as info:
        parse_cards("KH 7Q 2C")
    assert info.value.reason == "bad_card"
    assert "'7Q'" in str(info.value)


@pytest.mark.parametrize(
    ("text", "suit"), [("C", Suit.CLUBS), ("d", Suit.DIAMONDS), ("♥", Suit.HEARTS), ("S", Suit.SPADES)]
)
def test_s6_3_a_suit_is_one_of_c_d_h_s(text: str, suit: Suit) -> None:
    assert Suit.parse(text) is suit


@pytest.mark.parametrize("text", ["X", "", "CD", "hearts"])
def test_s6_3_any_other_suit_is_bad_suit_and_named(text: str) -> None:
    with pytest.raises(InvalidInput) as info:
        Suit.parse(text)
    assert info.value.reason == "bad_suit"
    assert repr(text) in str(info.value)


def test_s2_3_canonical_order_is_by_suit_then_rank() -> None:
    hand = parse_cards("AS 2H TC KH 2C 3D AC")
    assert codes(sorted_cards(hand)) == ("2C", "TC", "AC", "3D", "2H", "KH", "AS")
    assert parse_card("AC") < parse_card("2D") < parse_card("2H") < parse_card("2S")
    assert parse_card("9S") < parse_card("TS") < parse_card("JS") < parse_card("QS") < parse_card("KS")
    assert [r.value for r in sorted(Rank, key=lambda r: r.order)] == list("23456789TJQKA")
    assert [s.value for s in sorted(Suit, key=lambda s: s.order)] == list("CDHS")


def test_s2_2_the_52_card_deck_holds_each_code_once_in_canonical_order() -> None:
    deck = deck_52()
    assert len(deck) == 52
    assert len(set(deck)) == 52
    assert codes(deck[:3]) == ("2C", "3C", "4C")
    assert codes(deck[12:14]) == ("AC", "2D")
    assert deck[-1].code == "AS"
    assert list(deck) == sorted(deck)


def test_s2_2_the_104_card_deck_holds_each_code_exactly_twice() -> None:
    deck = deck_104()
    assert len(deck) == 104
    counts = Counter(codes(deck))
    assert len(counts) == 52
    assert set(counts.values()) == {2}
    assert deck[:52] == deck[52:] == deck_52()


def test_the_32_card_deck_holds_seven_to_ace_of_each_suit() -> None:
    deck = deck_32()
    assert len(deck) == 32
    assert len(set(deck)) == 32
    assert {c.rank.value for c in deck} == set("789TJQKA")
    assert codes(deck[:8]) == ("7C", "8C", "9C", "TC", "JC", "QC", "KC", "AC")
    assert deck[-1].code == "AS"


def test_card_faces_and_symbols() -> None:
    assert parse_card("TS").pretty() == "10♠"
    assert parse_card("QH").pretty() == "Q♥"
    assert [Suit.parse(s).symbol for s in "CDHS"] == ["♣", "♦", "♥", "♠"]
    assert [r.face_value for r in (Rank.TWO, Rank.TEN, Rank.JACK, Rank.ACE)] == [2, 10, 11, 14]
    assert repr(parse_card("7H")) == "Card.parse('7H')"
    assert Card.parse("7H") == parse_card("7H")
