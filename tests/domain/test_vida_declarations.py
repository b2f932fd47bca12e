"""Vida: a hand's combinations and the comparison between the teams (R5.2-R5.6, D9-D16)."""

from __future__ import annotations

import pytest

from trapoula.domain.cards import Rank, Suit, parse_cards
from trapoula.domain.games.vida.declarations import (
    KIND_ORDER,
    Combination,
    Resolution,
    combinations,
    resolve,
    sequence_points,
)

C, D, H, S = Suit.CLUBS, Suit.DIAMONDS, Suit.HEARTS, Suit.SPADES


def combos(text: str) -> tuple[Combination, ...]:
    return combinations(parse_cards(text))


def summary(text: str) -> list[tuple[str, int, str]]:
    """(kind, points, cards) of each combination of a hand, in the returned order."""
    return [(k.kind, k.points, " ".join(card.code for card in k.cards)) for k in combos(text)]


def one(text: str) -> Combination:
    """The single combination of a hand."""
    (combination,) = combos(text)
    return combination


# ------------------------------------------------------------------------- kinds and values (R5.2)


@pytest.mark.parametrize(
    ("hand", "kind", "points"),
    [
        ("JC JD JH JS", "carre_J", 200),
        ("9C 9D 9H 9S", "carre_9", 150),
        ("AC AD AH AS", "carre_A", 100),
        ("TC TD TH TS", "carre_T", 100),
        ("KC KD KH KS", "carre_K", 100),
        ("QC QD QH QS", "carre_Q", 100),
        ("AH KH QH JH TH 9H 8H 7H", "seq8", 100),
        ("AH KH QH JH TH 9H 8H", "seq7", 100),
        ("KH QH JH TH 9H 8H", "seq6", 100),
        ("QH JH TH 9H 8H", "seq5", 100),
        ("JH TH 9H 8H", "seq4", 50),
        ("9H 8H 7H", "seq3", 20),
    ],
)
def test_r5_2_every_kind_and_its_points(hand: str, kind: str, points: int) -> None:
    combination = one(hand)
    assert (combination.kind, combination.points) == (kind, points)


@pytest.mark.parametrize(("length", "points"), [(3, 20), (4, 50), (5, 100), (6, 100), (7, 100), (8, 100)])
def test_r5_2_d11_sequence_points_by_length(length: int, points: int) -> None:
    assert sequence_points(length) == points


@pytest.mark.parametrize("length", [2, 9])
def test_r5_2_no_sequence_of_two_or_nine(length: int) -> None:
    with pytest.raises(ValueError):
        sequence_points(length)


def test_r5_2_no_four_of_a_kind_of_eights_or_sevens() -> None:
    """Four 8s and four 7s: no carre, and 8-7 of a suit is only two cards: nothing at all."""
    assert combos("8C 8D 8H 8S 7C 7D 7H 7S") == ()


def test_r5_2_sequences_never_wrap_round() -> None:
    """8-7 and A-K of hearts are not consecutive (R2.8 order A K Q J T 9 8 7, no wrapping)."""
    assert combos("8H 7H AH KH 9C 7C TD QD") == ()


def test_r2_8_sequences_use_the_natural_order_not_the_trump_order() -> None:
    """K-Q-J-T is consecutive in A K Q J T 9 8 7; J-9-A (trump order) is not a sequence."""
    assert summary("KS QS JS TS") == [("seq4", 50, "KS QS JS TS")]
    assert combos("JS 9S AS") == ()


def test_r5_2_a_pair_and_three_of_a_kind_are_nothing() -> None:
    assert combos("JC JD JH AS AD KC QD 7S") == ()


# ------------------------------------------------------------------- a player's combinations (R5.3)


def test_r5_3_combination_fields_for_a_sequence() -> None:
    """A sequence lists its cards high to low (R2.8); suit and top are its own."""
    combination = one("9D JD TD")
    assert combination == Combination("seq3", parse_cards("JD TD 9D"), 20, D, Rank.JACK)


def test_r5_3_combination_fields_for_a_four_of_a_kind() -> None:
    """A four-of-a-kind lists its cards C D H S; suit None; top is its rank."""
    combination = one("QS QH QC QD")
    assert combination == Combination("carre_Q", parse_cards("QC QD QH QS"), 100, None, Rank.QUEEN)


def test_r5_3_d11_a_run_of_six_is_one_sequence_of_100_not_a_quint_and_more() -> None:
    assert summary("AH KH QH JH TH 9H 7S 8C") == [("seq6", 100, "AH KH QH JH TH 9H")]


def test_r5_3_d11_a_run_of_eight_is_one_sequence_of_100() -> None:
    assert summary("7D 8D 9D TD JD QD KD AD") == [("seq8", 100, "AD KD QD JD TD 9D 8D 7D")]


def test_r5_3_d12_two_runs_in_one_suit_separated_by_a_gap_are_two_sequences() -> None:
    """A-K-Q and T-9-8 of hearts (the jack missing): two tierces, 20 + 20."""
    assert summary("AH KH QH TH 9H 8H 7C AC") == [("seq3", 20, "AH KH QH"), ("seq3", 20, "TH 9H 8H")]


def test_r5_3_d12_a_quarte_and_a_tierce_in_one_suit() -> None:
    """A-K-Q-J and 9-8-7 of spades (the ten missing): a quarte 50 and a tierce 20."""
    assert summary("AS KS QS JS 9S 8S 7S TC") == [("seq4", 50, "AS KS QS JS"), ("seq3", 20, "9S 8S 7S")]


def test_r5_3_d10_four_kings_and_k_q_j_of_hearts_score_100_plus_20() -> None:
    """The king of hearts counts in the carre and in the tierce (D10)."""
    assert summary("KC KD KH KS QH JH 7S 8S") == [("carre_K", 100, "KC KD KH KS"), ("seq3", 20, "KH QH JH")]
    assert sum(k.points for k in combos("KC KD KH KS QH JH 7S 8S")) == 120


def test_r5_3_two_carres_in_one_hand() -> None:
    assert [k.kind for k in combos("JC JD JH JS 9C 9D 9H 9S")] == ["carre_J", "carre_9"]


def test_r5_3_sequences_in_several_suits_strongest_first() -> None:
    """A quarte to the jack beats tierces; among tierces the higher top comes first."""
    kinds = [(k.kind, k.top, k.suit) for k in combos("9C 8C 7C JD TD 9D 8D QS KS AS")]
    assert kinds == [("seq4", Rank.JACK, D), ("seq3", Rank.ACE, S), ("seq3", Rank.NINE, C)]


def test_r5_3_empty_hand_and_outside_cards() -> None:
    assert combos("") == ()
    with pytest.raises(ValueError, match="6H"):
        combos("6H 7H 8H")


# ---------------------------------------------------------------------------- strength (R5.4, D13)


def test_r5_4_d13_kind_order_from_four_jacks_to_tierce() -> None:
    assert KIND_ORDER == (
        "carre_J",
        "carre_9",
        "carre_A",
        "carre_T",
        "carre_K",
        "carre_Q",
        "seq8",
        "seq7",
        "seq6",
        "seq5",
        "seq4",
        "seq3",
    )


def test_r5_4_d13_one_combination_of_each_kind_sorts_in_the_strength_order() -> None:
    """Even with the sequences in trumps, every four-of-a-kind beats every sequence (D13)."""
    hands = [
        "QC QD QH QS",
        "9H 8H 7H",
        "AH KH QH JH TH 9H 8H 7H",
        "JC JD JH JS",
        "JH TH 9H 8H",
        "AC AD AH AS",
        "AH KH QH JH TH",
        "KC KD KH KS",
        "9C 9D 9H 9S",
        "AH KH QH JH TH 9H",
        "TC TD TH TS",
        "AH KH QH JH TH 9H 8H",
    ]
    ranked = sorted((one(h) for h in hands), key=lambda k: k.strength(H), reverse=True)
    assert tuple(k.kind for k in ranked) == KIND_ORDER


def test_r5_4_d13_four_queens_beat_a_sequence_of_eight_in_trumps() -> None:
    assert one("QC QD QH QS").strength(H) > one("AH KH QH JH TH 9H 8H 7H").strength(H)


def test_r5_4_d13_a_sixth_beats_a_quint_though_both_count_100() -> None:
    assert one("KC QC JC TC 9C 8C").strength(H) > one("AD KD QD JD TD").strength(H)


def test_r5_4_quarte_to_the_jack_is_below_quarte_to_the_ace_even_in_trumps() -> None:
    """Seed: J-T-9-8 of hearts is below A-K-Q-J of diamonds; hearts trumps do not change that."""
    jack_hearts = one("JH TH 9H 8H")
    ace_diamonds = one("AD KD QD JD")
    for trump in Suit:
        assert ace_diamonds.strength(trump) > jack_hearts.strength(trump)


def test_r5_4_a_longer_sequence_beats_a_higher_shorter_one() -> None:
    assert one("JS TS 9S 8S").strength(C) > one("AH KH QH").strength(C)


def test_r5_4_equal_length_and_top_decided_by_trumps() -> None:
    """K-Q-J of hearts against K-Q-J of spades: equal with clubs trumps; spades trumps -> spades."""
    hearts, spades = one("KH QH JH"), one("KS QS JS")
    assert spades.strength(S) > hearts.strength(S)
    assert hearts.strength(H) > spades.strength(H)
    assert hearts.strength(C) == spades.strength(C)


# ------------------------------------------------------------------ comparison (R5.5, R5.6, D14)


def test_r5_5_seed_example_1_only_the_higher_tierce_counts() -> None:
    """Team 0 holds 9-8-7 of spades and K-Q-J of clubs, team 1 A-K-Q of hearts: the ace tierce
    wins; team 1 scores 20, team 0 nothing (diamonds trumps)."""
    team0 = combos("9S 8S 7S KC QC JC")
    team1 = combos("AH KH QH")
    result = resolve({0: team0, 1: team1}, D)
    assert result == Resolution(1, False, None, (0, 20), ((1, one("AH KH QH")),))


def test_r5_5_seed_example_1_split_between_partners() -> None:
    """The same with team 0's tierces held by seats 0 and 2: team 1 still scores 20."""
    result = resolve({0: combos("9S 8S 7S"), 2: combos("KC QC JC"), 3: combos("AH KH QH")}, D)
    assert (result.winner_team, result.points, result.shown) == (1, (0, 20), ((3, one("AH KH QH")),))


def test_r5_5_seed_example_2_quarte_and_tierce_against_a_tierce_score_70() -> None:
    """Team 0 holds 9-8-7 of spades and K-Q-J-T of clubs, team 1 A-K-Q of hearts: the quarte wins
    and team 0 scores all its combinations, 50 + 20 = 70, the losing tierce included."""
    result = resolve({0: combos("9S 8S 7S"), 2: combos("KC QC JC TC"), 1: combos("AH KH QH")}, D)
    assert result.winner_team == 0
    assert not result.standoff
    assert result.points == (70, 0)
    assert result.shown == ((0, one("9S 8S 7S")), (2, one("KC QC JC TC")))


def test_r5_5_seed_quarte_to_the_ace_beats_quarte_to_the_jack_in_trumps() -> None:
    """Team 0 J-T-9-8 of hearts (trumps), team 1 A-K-Q-J of diamonds: team 1 scores 50."""
    result = resolve({0: combos("JH TH 9H 8H"), 1: combos("AD KD QD JD")}, H)
    assert (result.winner_team, result.points) == (1, (0, 50))


def test_r5_4_r5_5_equal_sequences_the_one_in_trumps_wins() -> None:
    """K-Q-J of hearts (seat 1) against K-Q-J of spades (seat 2), spades trumps: team 0 scores 20."""
    result = resolve({1: combos("KH QH JH"), 2: combos("KS QS JS")}, S)
    assert result == Resolution(0, False, None, (20, 0), ((2, one("KS QS JS")),))


def test_r5_6_d14_standoff_cancels_every_declaration_of_both_teams() -> None:
    """Best combinations K-Q-J of hearts and K-Q-J of spades, diamonds trumps: they stand; team 0's
    extra 9-8-7 of clubs and team 1's extra tierce count nothing either (D14)."""
    result = resolve(
        {0: combos("KH QH JH"), 2: combos("9C 8C 7C"), 1: combos("KS QS JS"), 3: combos("TD 9D 8D")},
        D,
    )
    assert result == Resolution(None, True, ("seq3", Rank.KING), (0, 0), ())


def test_r5_6_equal_quints_stand_off() -> None:
    result = resolve({0: combos("AC KC QC JC TC"), 3: combos("AS KS QS JS TS")}, H)
    assert (result.winner_team, result.standoff, result.tied, result.points) == (
        None,
        True,
        ("seq5", Rank.ACE),
        (0, 0),
    )


def test_r5_6_d11_a_sixth_and_a_quint_do_not_stand_off() -> None:
    """Both count 100, but the sixth is stronger (R5.4): team 1 scores its 100."""
    result = resolve({0: combos("AC KC QC JC TC"), 1: combos("KS QS JS TS 9S 8S")}, H)
    assert (result.winner_team, result.standoff, result.points) == (1, False, (0, 100))


def test_r5_5_only_one_team_has_combinations() -> None:
    result = resolve({0: (), 1: (), 2: (), 3: combos("QD JD TD")}, C)
    assert result == Resolution(1, False, None, (0, 20), ((3, one("QD JD TD")),))


def test_r5_5_missing_seats_have_nothing() -> None:
    result = resolve({2: combos("JC JD JH JS")}, C)
    assert (result.winner_team, result.points) == (0, (200, 0))


def test_r5_5_nobody_has_combinations() -> None:
    assert resolve({}, H) == Resolution(None, False, None, (0, 0), ())
    assert resolve({0: (), 1: (), 2: (), 3: ()}, H) == Resolution(None, False, None, (0, 0), ())


def test_r5_5_the_winning_team_scores_all_combinations_of_both_partners() -> None:
    """Seat 0: four jacks (200); seat 2: T-9-8-7 of diamonds and A-K-Q of spades (50 + 20); team 1
    holds a quarte of hearts (50): four jacks win, team 0 books 200 + 50 + 20 = 270, team 1 nothing."""
    seat2 = combos("TD 9D 8D 7D AS KS QS")
    assert [k.kind for k in seat2] == ["seq4", "seq3"]
    result = resolve({0: combos("JC JD JH JS"), 1: combos("TH 9H 8H 7H"), 2: seat2}, H)
    assert result.winner_team == 0
    assert result.points == (270, 0)
    assert [(seat, k.kind) for seat, k in result.shown] == [(0, "carre_J"), (2, "seq4"), (2, "seq3")]


def test_r5_4_d13_four_aces_beat_four_tens_though_both_count_100() -> None:
    result = resolve({0: combos("TC TD TH TS"), 1: combos("AC AD AH AS"), 3: combos("9S 8S 7S")}, H)
    assert (result.winner_team, result.points) == (1, (0, 120))


def test_r5_4_d10_carre_and_sequence_sharing_a_card_both_count_when_winning() -> None:
    """Four kings and K-Q-J of hearts (seat 1) against a quint J-T-9-8-7 of diamonds (seat 0): four
    kings win (D13), team 1 books 100 + 20."""
    result = resolve({1: combos("KC KD KH KS QH JH 7S 8S"), 0: combos("JD TD 9D 8D 7D")}, S)
    assert (result.winner_team, result.points) == (1, (0, 120))


def test_r2_3_seats_outside_0_to_3_are_an_error() -> None:
    with pytest.raises(ValueError, match="4"):
        resolve({4: combos("9S 8S 7S")}, H)
