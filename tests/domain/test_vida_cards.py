"""Vida: card orders and points, trick winner and legal cards (R2.5-R2.8, R4.10-R4.14, D26-D28)."""

from __future__ import annotations

import pytest

from trapoula.domain.cards import Card, Rank, Suit, deck_32, parse_card, parse_cards
from trapoula.domain.games.vida.cards import (
    PLAIN_ORDER,
    SEQUENCE_ORDER,
    TRUMP_ORDER,
    card_points,
    legal_cards,
    play_refusal,
    trick_points,
    trick_winner,
)

H = Suit.HEARTS
S = Suit.SPADES


def c(code: str) -> Card:
    return parse_card(code)


def cs(text: str) -> tuple[Card, ...]:
    return parse_cards(text)


# ------------------------------------------------------------------------ orders and points (R2.5-R2.8)


def test_r2_5_trump_order_is_j_9_a_t_k_q_8_7() -> None:
    assert "".join(r.value for r in TRUMP_ORDER) == "J9ATKQ87"


def test_r2_6_plain_order_is_a_t_k_q_j_9_8_7() -> None:
    assert "".join(r.value for r in PLAIN_ORDER) == "ATKQJ987"


def test_r2_8_sequence_order_is_natural_a_k_q_j_t_9_8_7() -> None:
    assert "".join(r.value for r in SEQUENCE_ORDER) == "AKQJT987"


@pytest.mark.parametrize(
    ("rank", "trump_points", "plain_points"),
    [("J", 20, 2), ("9", 14, 0), ("A", 11, 11), ("T", 10, 10), ("K", 4, 4), ("Q", 3, 3), ("8", 0, 0), ("7", 0, 0)],
)
def test_r2_5_r2_6_points_of_each_rank_in_trumps_and_plain(rank: str, trump_points: int, plain_points: int) -> None:
    """R2.5 (trumps) and R2.6 (plain): hearts are trumps, spades plain."""
    assert card_points(c(rank + "H"), H) == trump_points
    assert card_points(c(rank + "S"), H) == plain_points


def test_r2_5_trump_suit_totals_62() -> None:
    assert sum(card_points(Card(r, H), H) for r in TRUMP_ORDER) == 62


@pytest.mark.parametrize("suit", [Suit.CLUBS, Suit.DIAMONDS, Suit.SPADES])
def test_r2_6_each_plain_suit_totals_30(suit: Suit) -> None:
    assert sum(card_points(Card(r, suit), H) for r in PLAIN_ORDER) == 30


@pytest.mark.parametrize("trump", list(Suit))
def test_r2_7_the_whole_deck_totals_152_whatever_the_trumps(trump: Suit) -> None:
    assert sum(card_points(card, trump) for card in deck_32()) == 152


def test_r2_1_a_card_outside_the_32_card_deck_has_no_points() -> None:
    with pytest.raises(ValueError, match="6H"):
        card_points(c("6H"), H)


def test_r2_5_trick_points_sum_card_points_without_the_last_trick_bonus() -> None:
    """JH 20 + 9H 14 + AS 11 + 7C 0 = 45 with hearts trumps (R2.5, R2.6, R2.7)."""
    assert trick_points(cs("JH 9H AS 7C"), H) == 45
    assert trick_points(cs("JH 9H AS 7C"), S) == 2 + 0 + 11 + 0


# ------------------------------------------------------------------------------ trick winner (R4.14)


def test_r4_14_highest_card_of_the_suit_led_wins_without_trumps() -> None:
    """Spades led, hearts trumps: TS beats KS and 9S in the plain order (R2.6)."""
    assert trick_winner(cs("KS TS 9S QS"), H) == 1


def test_r4_14_plain_ten_beats_king_but_ace_beats_ten() -> None:
    assert trick_winner(cs("KS AS TS 7S"), H) == 1


def test_r4_14_plain_jack_is_below_queen() -> None:
    """In a plain suit the jack ranks under the queen (R2.6)."""
    assert trick_winner(cs("JS QS 8S 7S"), H) == 1


def test_r4_14_a_single_low_trump_beats_a_plain_ace() -> None:
    assert trick_winner(cs("AS 7H KS TS"), H) == 1


def test_r4_14_highest_trump_wins_in_the_trump_order() -> None:
    """Trumps J > 9 > A > T (R2.5): the nine beats the ace and the ten, the jack beats all."""
    assert trick_winner(cs("AH 9H TH 8H"), H) == 1
    assert trick_winner(cs("AS 9H JH TH"), H) == 2


def test_r4_13_r4_14_a_discard_never_wins_even_an_ace() -> None:
    """Spades led, hearts trumps; the AC discard does not beat the 7S led."""
    assert trick_winner(cs("7S AC AD 8S"), H) == 3
    assert trick_winner(cs("7S AC AD TC"), H) == 0


def test_r4_14_incomplete_trick_gives_the_card_now_winning() -> None:
    assert trick_winner(cs("QS"), H) == 0
    assert trick_winner(cs("QS KS"), H) == 1


def test_r4_14_an_empty_trick_has_no_winner() -> None:
    with pytest.raises(ValueError):
        trick_winner((), H)


# ---------------------------------------------------------------------- legal cards (R4.10-R4.13)


def test_r4_10_the_leader_may_play_any_card() -> None:
    hand = cs("AS 7H JH TC")
    assert legal_cards(hand, (), H) == hand
    assert all(play_refusal(hand, (), H, card) is None for card in hand)


def test_r4_10_d28_follow_suit_with_no_duty_to_go_higher() -> None:
    """KS led: the follower holding AS and 7S may play either spade, the 7 too (D28)."""
    hand = cs("AS 7S JH 8C")
    assert legal_cards(hand, cs("KS"), H) == cs("AS 7S")
    assert play_refusal(hand, cs("KS"), H, c("7S")) is None


def test_r4_10_a_follower_holding_the_suit_led_may_not_trump_or_discard() -> None:
    hand = cs("AS 7S JH 8C")
    assert play_refusal(hand, cs("KS"), H, c("JH")) == ("must_follow_suit", "R4.10")
    assert play_refusal(hand, cs("KS"), H, c("8C")) == ("must_follow_suit", "R4.10")


def test_r4_10_following_a_plain_suit_after_a_trump_was_played_still_follows_suit() -> None:
    """KS led, 7H trumped in: a player with spades must still play a spade, any one."""
    hand = cs("9S 8S AH")
    assert legal_cards(hand, cs("KS 7H"), H) == cs("9S 8S")
    assert play_refusal(hand, cs("KS 7H"), H, c("AH")) == ("must_follow_suit", "R4.10")


def test_r4_11_no_card_of_the_suit_led_means_must_trump() -> None:
    hand = cs("7H QH AC TD")
    assert legal_cards(hand, cs("KS"), H) == cs("7H QH")
    assert play_refusal(hand, cs("KS"), H, c("AC")) == ("must_trump", "R4.11")
    assert play_refusal(hand, cs("KS"), H, c("7H")) is None


def test_r4_11_d26_must_trump_even_when_partner_is_winning() -> None:
    """Seat 0 led AS, seat 1 played 7S: partner (seat 0) wins, seat 2 still must trump (D26)."""
    hand = cs("8H AC KD")
    trick = cs("AS 7S")
    assert trick_winner(trick, H) == 0
    assert legal_cards(hand, trick, H) == cs("8H")
    assert play_refusal(hand, trick, H, c("AC")) == ("must_trump", "R4.11")


def test_r4_12_must_overtrump_after_a_trump_lead() -> None:
    """AH led (trumps): holding 9H (above the ace) and KH, 7H, only the 9 may be played."""
    hand = cs("9H KH 7H AS")
    assert legal_cards(hand, cs("AH"), H) == cs("9H")
    assert play_refusal(hand, cs("AH"), H, c("KH")) == ("must_overtrump", "R4.12")
    assert play_refusal(hand, cs("AH"), H, c("AS")) == ("must_follow_suit", "R4.10")


def test_r4_12_trump_lead_with_no_higher_trump_any_trump() -> None:
    """JH led: no trump beats it, so any trump (8H or QH), never the spade."""
    hand = cs("8H QH AS")
    assert legal_cards(hand, cs("JH"), H) == cs("8H QH")
    assert play_refusal(hand, cs("JH"), H, c("AS")) == ("must_follow_suit", "R4.10")


def test_r4_12_trump_lead_with_no_trump_in_hand_any_card() -> None:
    hand = cs("AS 7C KD")
    assert legal_cards(hand, cs("9H"), H) == hand


def test_r4_12_over_trump_a_previous_trumping() -> None:
    """KS led, QH trumped in: holding KH and 8H (and no spade), only KH beats the queen."""
    hand = cs("KH 8H AC")
    trick = cs("KS QH")
    assert legal_cards(hand, trick, H) == cs("KH")
    assert play_refusal(hand, trick, H, c("8H")) == ("must_overtrump", "R4.12")
    assert play_refusal(hand, trick, H, c("AC")) == ("must_trump", "R4.11")


def test_r4_12_d27_must_overtrump_partner_trump() -> None:
    """Seat 0 led AS, seat 1 trumped with TH, seat 2 followed 8S; seat 3, partner of seat 1, holds
    no spade and 9H, 7H: he must over-trump his partner's winning ten with the nine (D27)."""
    trick = cs("AS TH 8S")
    assert trick_winner(trick, H) == 1
    hand = cs("9H 7H QD")
    assert legal_cards(hand, trick, H) == cs("9H")
    assert play_refusal(hand, trick, H, c("7H")) == ("must_overtrump", "R4.12")


def test_r4_12_d27_no_higher_trump_must_still_trump_any_trump() -> None:
    """KS led, JH trumped in: holding 9H and 7H (neither beats the jack) and no spade, any trump,
    never a discard (D27)."""
    hand = cs("9H 7H AD")
    trick = cs("KS JH")
    assert legal_cards(hand, trick, H) == cs("9H 7H")
    assert play_refusal(hand, trick, H, c("7H")) is None
    assert play_refusal(hand, trick, H, c("AD")) == ("must_trump", "R4.11")


def test_r4_12_highest_trump_in_the_trick_counts_not_the_last() -> None:
    """AH led, JH over it, then 7H: the follower must beat the jack, which nobody can: any trump."""
    hand = cs("9H TH")
    assert legal_cards(hand, cs("AH JH 7H"), H) == cs("9H TH")
    assert legal_cards(cs("9H TH"), cs("AH 7H"), H) == cs("9H")


def test_r4_13_no_suit_led_and_no_trump_may_play_anything() -> None:
    hand = cs("AC 7D TD")
    assert legal_cards(hand, cs("KS"), H) == hand
    assert legal_cards(hand, cs("KS 9H"), H) == hand
    assert all(play_refusal(hand, cs("KS 9H"), H, card) is None for card in hand)


@pytest.mark.parametrize(
    ("hand", "trick", "expected"),
    [
        ("AS 7S JH 8C", "KS", "AS 7S"),  # L != T, holds L: any card of L
        ("JH 8H 8C", "KS", "JH 8H"),  # L != T, no L, holds T, no trump in trick: all trumps
        ("JH 8H 8C", "KS AH", "JH"),  # ... trick holds a trump: the higher trumps
        ("KH 8H 8C", "KS JH", "KH 8H"),  # ... none higher: all trumps
        ("JH 8H 8C", "9H", "JH"),  # L = T, holds T: higher trumps
        ("KH 8H 8C", "9H", "KH 8H"),  # ... none higher: all trumps
        ("8C AD", "9H", "8C AD"),  # no L, no T: anything
        ("8C AD", "KS TH", "8C AD"),  # no L, no T: anything
    ],
)
def test_r4_14_summary_table_of_legal_cards(hand: str, trick: str, expected: str) -> None:
    """Summary of R4.14 (hearts trumps): one row per case of the table."""
    assert legal_cards(cs(hand), cs(trick), H) == cs(expected)


def test_r4_10_r4_12_play_refusal_agrees_with_legal_cards_over_the_whole_deck() -> None:
    """For every card of a few hands, play_refusal is None exactly for the legal cards."""
    cases = [("AS 7S JH 8C KH 9D 7D TC", "KS"), ("9H 7H QD TS", "AS TH 8S"), ("AC 7D", "QH")]
    for hand_text, trick_text in cases:
        hand, trick = cs(hand_text), cs(trick_text)
        legal = legal_cards(hand, trick, H)
        for card in hand:
            assert (play_refusal(hand, trick, H, card) is None) == (card in legal)


def test_play_refusal_of_a_card_not_in_hand_is_an_error() -> None:
    with pytest.raises(ValueError, match="AS"):
        play_refusal(cs("7H"), (), H, c("AS"))


def test_r4_10_legal_cards_keep_hand_order() -> None:
    hand = cs("7S KS AS")
    assert legal_cards(hand, cs("QS"), H) == hand
    assert [card.rank for card in legal_cards(hand, cs("QS"), H)] == [Rank.SEVEN, Rank.KING, Rank.ACE]
