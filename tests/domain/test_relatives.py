"""Related cards and legal groups (giminaiciai R2.5, R6; romis R2.5).

The tables R6.7 and R6.8 are checked row by row; the R6.6 algorithm behind :func:`legal_group` is
checked against a brute-force search over the formal definition R6.4 on random groups, for both
rank orders.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from trapoula.domain.cards import Card, Rank, Suit, deck_52, parse_card, parse_cards
from trapoula.domain.errors import InvalidInput
from trapoula.domain.games.relatives import (
    BRANCH_FROM_RELATIVE,
    NO_MAIN_CARD,
    NO_MAIN_COMBINATION,
    NOT_IN_RUN,
    TOO_FEW_CARDS,
    UNRELATED_CARD,
    RankOrder,
    Reading,
    adjacent,
    explain_group,
    is_sequence,
    is_set,
    legal_group,
    read_group,
    related,
)

CYCLE = RankOrder.CYCLE
ACE_HIGH = RankOrder.ACE_HIGH
RANKS = tuple(Rank)
SUITS = tuple(Suit)


def cards(text: str) -> tuple[Card, ...]:
    return parse_cards(text)


# --------------------------------------------------------------------------- brute force over R6.4


def consecutive(ranks: Sequence[Rank], order: RankOrder) -> bool:
    """R2.5 / R6.4.2, written independently of the module: distinct ranks s, s+1, ..., s+k-1."""
    indices = {r.order for r in ranks}
    if len(indices) != len(ranks):
        return False
    k = len(indices)
    if order is CYCLE:
        return k == 13 or any({(s + i) % 13 for i in range(k)} == indices for s in range(13))
    return any(set(range(s, s + k)) == indices for s in range(0, 14 - k))


def brute_is_meld(m: Sequence[Card], order: RankOrder) -> bool:
    """R6.2: 3+ cards of one rank, or 3+ cards of one suit with consecutive ranks."""
    if len(m) < 3:
        return False
    if len({c.rank for c in m}) == 1:
        return True
    return len({c.suit for c in m}) == 1 and consecutive([c.rank for c in m], order)


def condition_2(main: Sequence[Card], hang: dict[Card, Card], order: RankOrder) -> bool:
    """R6.4.2: each main card with all its sequence relatives forms consecutive ranks of one suit."""
    for m in main:
        seq_relatives = [c for c, mm in hang.items() if mm == m and c.suit is m.suit]
        if not consecutive([m.rank, *(c.rank for c in seq_relatives)], order):
            return False
    return True


def brute_legal(group: Sequence[Card], order: RankOrder) -> bool:
    """R6.4 literally: some meld M of 3+ cards and some assignment of G \\ M satisfying 1 and 2."""
    for size in range(3, len(group) + 1):
        for main in itertools.combinations(group, size):
            if not brute_is_meld(main, order):
                continue
            others = [c for c in group if c not in main]
            choices = [[m for m in main if m.rank is c.rank or m.suit is c.suit] for c in others]
            for assignment in itertools.product(*choices):
                if condition_2(main, dict(zip(others, assignment, strict=True)), order):
                    return True
    return False


def satisfies_r6_4(group: Sequence[Card], reading: Reading, order: RankOrder) -> bool:
    """Whether a reading returned by the module is a witness for R6.4 on exactly the cards of the group."""
    relatives = [c for c, _ in reading.attached]
    if sorted(group) != sorted([*reading.main, *relatives]) or not brute_is_meld(reading.main, order):
        return False
    for c, m in reading.attached:
        if m not in reading.main or not (c.rank is m.rank or c.suit is m.suit):
            return False
    return condition_2(reading.main, dict(reading.attached), order)


RANDOM_EXAMPLES = 1500


@st.composite
def neighbourhood_groups(draw: st.DrawFn) -> tuple[Card, ...]:
    """3-9 distinct cards from a few neighbouring ranks (possibly round the corner) of a few suits,
    so that sets, sequences, relatives and near misses are common."""
    start = draw(st.integers(0, 12))
    width = draw(st.integers(3, 6))
    suits = draw(st.lists(st.sampled_from(SUITS), min_size=1, max_size=4, unique=True))
    pool = [parse_card(RANKS[(start + i) % 13].value + s.value) for i in range(width) for s in suits]
    if len(pool) < 3:
        pool += [c for c in deck_52() if c not in pool][: 3 - len(pool)]
    size = draw(st.integers(3, min(9, len(pool))))
    return tuple(draw(st.lists(st.sampled_from(pool), min_size=size, max_size=size, unique=True)))


groups = st.one_of(
    neighbourhood_groups(),
    neighbourhood_groups(),
    neighbourhood_groups(),
    st.lists(st.sampled_from(deck_52()), min_size=3, max_size=9, unique=True).map(tuple),
)


@pytest.mark.parametrize("order", list(RankOrder), ids=lambda o: o.name)
def test_r6_6_algorithm_agrees_with_brute_force_over_r6_4_on_random_groups(order: RankOrder) -> None:
    """R6.6 == R6.4 on random groups of 3-9 cards; every reading found is an R6.4 witness; explain_group
    is None exactly on legal groups (R6.3)."""
    seen = {True: 0, False: 0}

    @settings(max_examples=RANDOM_EXAMPLES, derandomize=True, database=None, deadline=None)
    @given(groups)
    def check(group: tuple[Card, ...]) -> None:
        expected = brute_legal(group, order)
        seen[expected] += 1
        assert legal_group(group, order) is expected, group
        reading = read_group(group, order)
        assert (reading is not None) is expected
        if reading is not None:
            assert satisfies_r6_4(group, reading, order), (group, reading)
        problem = explain_group(group, order)
        assert (problem is None) is expected, (group, problem)
        if problem is not None and problem.card is not None:
            assert problem.card in group
            assert problem.card.code in problem.message
            others = [c for c in group if c != problem.card]
            if problem.reason == UNRELATED_CARD:
                assert not any(related(problem.card, c, order) for c in others)
            if problem.reason == BRANCH_FROM_RELATIVE:
                assert any(related(problem.card, c, order) for c in others)
        assert legal_group(tuple(reversed(group)), order) is expected  # the listing order does not matter
        if order is ACE_HIGH and expected:
            assert legal_group(group, CYCLE)  # an ace-high reading is also a cyclic one

    check()
    assert seen[True] > 200 and seen[False] > 200, seen  # both outcomes well represented


# --------------------------------------------------------------------------- relatedness


@pytest.mark.parametrize(("a", "b"), [("KS", "AS"), ("AS", "2S"), ("AS", "KS"), ("2S", "AS")])
def test_r6_1_ace_is_related_to_king_and_two_of_its_suit_on_the_cycle(a: str, b: str) -> None:
    """Giminaiciai R6.1 / R2.5: `KS`-`AS` and `AS`-`2S` are related."""
    assert related(parse_card(a), parse_card(b), CYCLE)


def test_r6_1_ranks_two_apart_are_not_related() -> None:
    """Giminaiciai R6.1: `5H`-`7H` are not related."""
    assert not related(parse_card("5H"), parse_card("7H"), CYCLE)
    assert not related(parse_card("5H"), parse_card("7H"), ACE_HIGH)


@pytest.mark.parametrize(("a", "b"), [("QC", "QS"), ("4H", "5H"), ("TS", "JS"), ("AH", "KH"), ("AH", "AD")])
def test_romis_r2_5_related_pairs(a: str, b: str) -> None:
    """Romis R2.5: `QC-QS`, `4H-5H`, `TS-JS`, `AH-KH`, `AH-AD` are related (both ways)."""
    assert related(parse_card(a), parse_card(b), ACE_HIGH)
    assert related(parse_card(b), parse_card(a), ACE_HIGH)


@pytest.mark.parametrize(("a", "b"), [("AH", "2H"), ("AH", "KS"), ("4H", "5D")])
def test_romis_r2_5_unrelated_pairs(a: str, b: str) -> None:
    """Romis R2.5: `AH-2H`, `AH-KS`, `4H-5D` are not related (the ace is high only)."""
    assert not related(parse_card(a), parse_card(b), ACE_HIGH)
    assert not related(parse_card(b), parse_card(a), ACE_HIGH)


def test_r2_5_ace_two_adjacency_depends_on_the_order() -> None:
    """Giminaiciai R2.5 closes the cycle; romis R2.5 does not; K-A and 2-3 are adjacent in both."""
    assert adjacent(Rank.ACE, Rank.TWO, CYCLE) and adjacent(Rank.TWO, Rank.ACE, CYCLE)
    assert not adjacent(Rank.ACE, Rank.TWO, ACE_HIGH) and not adjacent(Rank.TWO, Rank.ACE, ACE_HIGH)
    for order in RankOrder:
        assert adjacent(Rank.KING, Rank.ACE, order) and adjacent(Rank.TWO, Rank.THREE, order)
        assert not adjacent(Rank.TWO, Rank.FOUR, order) and not adjacent(Rank.SEVEN, Rank.SEVEN, order)
    assert related(parse_card("AH"), parse_card("2H"), CYCLE)


def test_r6_1_a_card_is_not_its_own_relative() -> None:
    """R6.1 speaks of two cards."""
    assert not related(parse_card("7H"), parse_card("7H"), CYCLE)


# --------------------------------------------------------------------------- melds (R6.2)


def test_r6_2_sets() -> None:
    """R6.2: a set is 3 or more cards of one rank."""
    assert is_set(cards("KH KC KD"))
    assert is_set(cards("KH KC KD KS"))
    assert not is_set(cards("KH KC"))
    assert not is_set(cards("KH KC QD"))


def test_r6_2_sequences_in_any_listing_order() -> None:
    """R6.2: 3+ cards of one suit with consecutive ranks; mixed suits never form a sequence."""
    assert is_sequence(cards("4H 5H 6H"), CYCLE)
    assert is_sequence(cards("6H 4H 5H"), ACE_HIGH)
    assert is_sequence(cards("QS KS AS 2S"), CYCLE)
    assert not is_sequence(cards("4H 5H 6D"), CYCLE)
    assert not is_sequence(cards("4H 5H 7H"), CYCLE)
    assert not is_sequence(cards("4H 5H"), CYCLE)
    assert is_sequence(cards("QH KH AH"), ACE_HIGH)


def test_r2_5_round_the_corner_sequence_only_on_the_cycle() -> None:
    """Giminaiciai R2.5: `Q-K-A-2-3` is a sequence and a legal group; with the ace high only
    (romis R2.5) it is neither (2S-3S is a separate run that cannot hang on Q-K-A)."""
    qka23 = cards("QS KS AS 2S 3S")
    assert is_sequence(qka23, CYCLE) and legal_group(qka23, CYCLE)
    assert not is_sequence(qka23, ACE_HIGH) and not legal_group(qka23, ACE_HIGH)
    assert read_group(qka23) == Reading(cards("QS KS AS 2S 3S"), ())
    problem = explain_group(qka23, ACE_HIGH)
    assert problem is not None and (problem.card, problem.reason) == (parse_card("2S"), NOT_IN_RUN)
    assert is_sequence(cards("KD AD 2D"), CYCLE) and not is_sequence(cards("KD AD 2D"), ACE_HIGH)


def test_r2_5_all_thirteen_spades_form_a_complete_sequence() -> None:
    """Giminaiciai R2.5 / R6.8 row `2S ... AS`: legal, one main sequence of 13 (in either order)."""
    spades = tuple(c for c in deck_52() if c.suit is Suit.SPADES)
    for order in RankOrder:
        assert is_sequence(spades, order)
        assert legal_group(tuple(reversed(spades)), order)
        assert read_group(spades, order) == Reading(spades, ())
    with_relative = (*spades, parse_card("7H"))
    assert read_group(with_relative) == Reading(spades, ((parse_card("7H"), parse_card("7S")),))


def test_r2_5_twelve_spades_without_the_seven_wrap_only_on_the_cycle() -> None:
    """Giminaiciai R2.5: 8S..AS-2S..6S is one run round the corner; ace-high it is two runs."""
    twelve = tuple(c for c in deck_52() if c.suit is Suit.SPADES and c.rank is not Rank.SEVEN)
    assert is_sequence(twelve, CYCLE) and legal_group(twelve, CYCLE)
    assert not is_sequence(twelve, ACE_HIGH) and not legal_group(twelve, ACE_HIGH)
    reading = read_group(twelve, CYCLE)
    assert reading is not None and reading.main == cards("8S 9S TS JS QS KS AS 2S 3S 4S 5S 6S")


# --------------------------------------------------------------------------- R6.3 size, input errors


@pytest.mark.parametrize("text", ["", "KH", "KH KC", "4H 5H"])
def test_r6_3_a_group_needs_three_cards(text: str) -> None:
    """R6.3: fewer than 3 cards is never legal; the problem names no card."""
    group = cards(text)
    assert not legal_group(group) and read_group(group) is None
    problem = explain_group(group)
    assert problem is not None
    assert (problem.card, problem.rule, problem.reason) == (None, "R6.3", TOO_FEW_CARDS)


@pytest.mark.parametrize(
    "call",
    [legal_group, read_group, explain_group, is_set, lambda g: is_sequence(g, CYCLE)],
    ids=["legal_group", "read_group", "explain_group", "is_set", "is_sequence"],
)
def test_r5_6_a_card_listed_twice_is_malformed_input(call: object) -> None:
    """R5.6: a card listed twice is refused; the pure functions raise InvalidInput naming the card."""
    assert callable(call)
    with pytest.raises(InvalidInput) as info:
        call(cards("KH KC KD KH"))
    assert info.value.reason == "duplicate_card" and "KH" in info.value.message


# --------------------------------------------------------------------------- R6.7 (seed examples)


@pytest.mark.parametrize("extra", ["4C", "4D", "4S", "5C", "5D", "5S", "6C", "6D", "6S"])
def test_r6_7_row_1_any_other_four_five_or_six_hangs_on_the_main_hearts(extra: str) -> None:
    """R6.7 row 1: main `4H 5H 6H` + any other 4, 5 or 6 is legal (a set relative)."""
    group = cards(f"4H 5H 6H {extra}")
    card = parse_card(extra)
    assert read_group(group) == Reading(cards("4H 5H 6H"), ((card, parse_card(card.rank.value + "H")),))


def test_r6_7_row_1_all_the_other_fours_fives_and_sixes_at_once() -> None:
    """R6.7 row 1 / R6.4: any number of set relatives may hang on one main card."""
    assert legal_group(cards("4H 5H 6H 4C 4D 4S 5C 5D 5S 6C"))


@pytest.mark.parametrize("extra", ["3H", "7H"])
def test_r6_7_row_1_three_and_seven_of_hearts_extend_the_main_sequence(extra: str) -> None:
    """R6.7 row 1: `3H`, `7H` are not relatives but extend the main sequence."""
    reading = read_group(cards(f"4H 5H 6H {extra}"))
    assert reading is not None and reading.attached == () and parse_card(extra) in reading.main


@pytest.mark.parametrize("extra", ["AH", "AC", "AD", "QH", "QC", "QD"])
def test_r6_7_row_2_king_set_takes_an_ace_or_queen_of_a_main_suit(extra: str) -> None:
    """R6.7 row 2 (ill. 69): main `KH KC KD` + `AH/AC/AD/QH/QC/QD` (sequence relatives K-A, K-Q)."""
    card = parse_card(extra)
    reading = read_group(cards(f"KH KC KD {extra}"))
    assert reading == Reading(cards("KH KC KD"), ((card, parse_card("K" + card.suit.value)),))


@pytest.mark.parametrize("extra", ["AS", "QS"])
def test_r6_7_row_2_no_spade_relative_without_the_king_of_spades(extra: str) -> None:
    """R6.7 row 2 / row 5 (ill. 69, 70): not `AS`/`QS`, there is no `KS` in the set."""
    group = cards(f"KH KC KD {extra}")
    assert not legal_group(group)
    problem = explain_group(group)
    assert problem is not None
    assert (problem.card, problem.rule, problem.reason) == (parse_card(extra), "R6.5", UNRELATED_CARD)
    assert "KS" in problem.message and "not a main card" in problem.message


def test_r6_7_row_3_queen_jack_ten_run_on_from_the_king_of_hearts() -> None:
    """R6.7 row 3: `KH KC KD QH JH TH` legal, `QH-JH-TH` run on from `KH` (K-Q-J-T)."""
    group = cards("KH KC KD QH JH TH")
    assert legal_group(group)
    # R6.6 tries the set first: the hearts run hangs on KH.
    assert read_group(group) == Reading(
        cards("KH KC KD"), tuple(zip(cards("QH JH TH"), cards("KH KH KH"), strict=True))
    )


def test_r6_7_row_4_ace_two_three_of_diamonds_round_the_corner_from_the_king() -> None:
    """R6.7 row 4: `KH KC KD AD 2D 3D` legal, `AD-2D-3D` on `KD` (K-A-2-3); not with the ace high."""
    group = cards("KH KC KD AD 2D 3D")
    assert read_group(group) == Reading(
        cards("KH KC KD"), tuple(zip(cards("AD 2D 3D"), cards("KD KD KD"), strict=True))
    )
    assert not legal_group(group, ACE_HIGH)


def test_r6_7_row_5_queen_of_spades_with_three_kings_is_refused() -> None:
    """R6.7 row 5 (ill. 70): `KH KC KD` + `QS` is not legal; QS would need the main card KS."""
    problem = explain_group(cards("KH KC KD QS"))
    assert problem is not None
    assert (problem.card, problem.rule) == (parse_card("QS"), "R6.5")
    assert "QS" in problem.message and "KS" in problem.message


def test_r6_7_row_6_four_kings_as_main_set_carry_the_queen_of_spades() -> None:
    """R6.7 row 6 (R6.3, section 10 item 9): `KH KC KD KS QS` legal, `QS` on the main card `KS`."""
    assert read_group(cards("KH KC KD KS QS")) == Reading(cards("KH KC KD KS"), ((parse_card("QS"), parse_card("KS")),))


def test_r6_7_row_7_illustration_71() -> None:
    """R6.7 row 7 (ill. 71): `KH KD KS QH JH AH AD` legal: `J-Q-K-A` hearts on `KH`, `AD` on `KD`."""
    reading = read_group(cards("KH KD KS QH JH AH AD"))
    assert reading == Reading(
        cards("KH KD KS"),
        tuple(zip(cards("QH JH AH AD"), cards("KH KH KH KD"), strict=True)),
    )


def test_r6_7_row_8_illustration_72_one_group() -> None:
    """R6.7 row 8 (ill. 72): `4H 5H 6H 7H 5D 7S 7D` legal: `5D` on `5H`, `7S` and `7D` on `7H`."""
    reading = read_group(cards("4H 5H 6H 7H 5D 7S 7D"))
    assert reading == Reading(cards("4H 5H 6H 7H"), tuple(zip(cards("5D 7S 7D"), cards("5H 7H 7H"), strict=True)))


def test_r6_7_row_9_eight_of_diamonds_hangs_only_on_a_relative() -> None:
    """R6.7 row 9 (ill. 72, R6.5): with `8D` the one group is not legal; `8D` is related only to `7D`."""
    group = cards("4H 5H 6H 7H 5D 7S 7D 8D")
    assert not legal_group(group)
    problem = explain_group(group)
    assert problem is not None
    assert (problem.card, problem.rule, problem.reason) == (parse_card("8D"), "R6.5", BRANCH_FROM_RELATIVE)
    assert "7D" in problem.message


def test_r6_7_row_9_listed_the_other_way_the_sevens_reading_is_explained() -> None:
    """R6.7 row 9, second reason: with the sevens as main, `5D` hangs on nothing.  Both readings place
    7 cards; explain_group follows the one whose first unplaced card comes latest in the listing."""
    problem = explain_group(cards("8D 7D 7S 5D 4H 5H 6H 7H"))
    assert problem is not None
    assert (problem.card, problem.rule, problem.reason) == (parse_card("5D"), "R6.4.2", NOT_IN_RUN)
    assert "7D" in problem.message


def test_r6_7_row_10_the_same_cards_as_two_groups() -> None:
    """R6.7 row 10: `4H 5H 6H 5D` + `7H 7S 7D 8D` as two groups: each has its main combination."""
    assert read_group(cards("4H 5H 6H 5D")) == Reading(cards("4H 5H 6H"), ((parse_card("5D"), parse_card("5H")),))
    assert read_group(cards("7H 7S 7D 8D")) == Reading(cards("7H 7S 7D"), ((parse_card("8D"), parse_card("7D")),))


# --------------------------------------------------------------------------- R6.8 (worked examples)


R6_8_ROWS = [
    ("5H 5D 6D", False),
    ("5H 5D 6D 7D", True),
    ("4H 5H 5C 6C 7C 8C 9C", False),
    ("QS KS AS 2S 3S 2C 3D", True),
    ("7C 7D 7H 9C 6D 5D 4D", False),
    ("7C 7D 7H 8C 9C 6D 5D 4D", True),
    ("KH KC KD QH JH TH QS", True),
    ("KH KC KD AH AD 2D 3D QS", False),
    ("2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS AS", True),
    ("5H 6D 7H 8H 9H 6S 6C", False),
]


R6_7_EXAMPLES = [
    ("4H 5H 6H 4C 5D 6S", True),
    ("3H 4H 5H 6H 7H", True),
    ("KH KC KD AH QC AD", True),
    ("KH KC KD AS", False),
    ("KH KC KD QH JH TH", True),
    ("KH KC KD AD 2D 3D", True),
    ("KH KC KD QS", False),
    ("KH KC KD KS QS", True),
    ("KH KD KS QH JH AH AD", True),
    ("4H 5H 6H 7H 5D 7S 7D", True),
    ("4H 5H 6H 7H 5D 7S 7D 8D", False),
    ("4H 5H 6H 5D", True),
    ("7H 7S 7D 8D", True),
]
"""The examples of the R6.7 table, as groups of their own."""


@pytest.mark.parametrize(("group", "legal"), [*R6_7_EXAMPLES, *R6_8_ROWS])
def test_r6_7_r6_8_the_seed_examples_through_the_shared_module(group: str, legal: bool) -> None:
    """R6.7, R6.8: every example of the tables, judged with the rank cycle (R2.5)."""
    cards_ = parse_cards(group)
    assert legal_group(cards_, RankOrder.CYCLE) is legal
    assert (explain_group(cards_, RankOrder.CYCLE) is None) is legal


@pytest.mark.parametrize(("text", "legal"), R6_8_ROWS, ids=[t for t, _ in R6_8_ROWS])
def test_r6_8_worked_examples(text: str, legal: bool) -> None:
    """R6.8: every row of the table, also against the brute force over R6.4."""
    group = cards(text)
    assert legal_group(group) is legal
    assert brute_legal(group, CYCLE) is legal
    assert (explain_group(group) is None) is legal


def test_r6_8_row_1_related_chain_without_a_main_combination() -> None:
    """R6.8 `5H 5D 6D`: no set or sequence of 3; the problem is the whole group."""
    problem = explain_group(cards("5H 5D 6D"))
    assert problem is not None
    assert (problem.card, problem.rule, problem.reason) == (None, "R6.3", NO_MAIN_COMBINATION)


def test_r6_8_row_2_five_of_hearts_on_the_diamond_run() -> None:
    """R6.8 `5H 5D 6D 7D`: main `5D-7D`, `5H` on `5D`."""
    assert read_group(cards("5H 5D 6D 7D")) == Reading(cards("5D 6D 7D"), ((parse_card("5H"), parse_card("5D")),))


def test_r6_8_row_3_four_of_hearts_hangs_only_on_the_relative_five() -> None:
    """R6.8 `4H 5H 5C 6C 7C 8C 9C`: `4H` hangs only on the relative `5H` (R6.5)."""
    problem = explain_group(cards("4H 5H 5C 6C 7C 8C 9C"))
    assert problem is not None
    assert (problem.card, problem.rule, problem.reason) == (parse_card("4H"), "R6.5", BRANCH_FROM_RELATIVE)
    assert "5H" in problem.message


def test_r6_8_row_4_main_spades_turn_the_corner() -> None:
    """R6.8 `QS KS AS 2S 3S 2C 3D`: main `Q-K-A-2-3` spades, `2C`, `3D` by rank; not ace-high."""
    group = cards("QS KS AS 2S 3S 2C 3D")
    assert read_group(group) == Reading(
        cards("QS KS AS 2S 3S"), tuple(zip(cards("2C 3D"), cards("2S 3S"), strict=True))
    )
    assert not legal_group(group, ACE_HIGH)


def test_r6_8_row_5_nine_of_clubs_not_in_a_run_with_the_seven() -> None:
    """R6.8 `7C 7D 7H 9C 6D 5D 4D`: `9C` is not in a run with `7C` (gap at 8), R6.4.2."""
    problem = explain_group(cards("7C 7D 7H 9C 6D 5D 4D"))
    assert problem is not None
    assert (problem.card, problem.rule, problem.reason) == (parse_card("9C"), "R6.4.2", NOT_IN_RUN)
    assert "7C" in problem.message


def test_r6_8_row_6_runs_on_two_sevens() -> None:
    """R6.8 `7C 7D 7H 8C 9C 6D 5D 4D`: main sevens; `8C-9C` on `7C`, `4D-5D-6D` on `7D`."""
    reading = read_group(cards("7C 7D 7H 8C 9C 6D 5D 4D"))
    assert reading == Reading(
        cards("7C 7D 7H"), tuple(zip(cards("8C 9C 6D 5D 4D"), cards("7C 7C 7D 7D 7D"), strict=True))
    )


def test_r6_8_row_7_main_hearts_carry_the_kings_and_the_queen_of_spades() -> None:
    """R6.8 `KH KC KD QH JH TH QS`: main `KH-QH-JH-TH`; `KC`, `KD` on `KH`, `QS` on `QH`."""
    reading = read_group(cards("KH KC KD QH JH TH QS"))
    assert reading == Reading(cards("TH JH QH KH"), tuple(zip(cards("KC KD QS"), cards("KH KH QH"), strict=True)))


def test_r6_8_row_8_no_main_queen_and_no_king_of_spades() -> None:
    """R6.8 `KH KC KD AH AD 2D 3D QS`: not legal, `QS` has no main queen and no `KS`."""
    problem = explain_group(cards("KH KC KD AH AD 2D 3D QS"))
    assert problem is not None
    assert (problem.card, problem.rule, problem.reason) == (parse_card("QS"), "R6.5", UNRELATED_CARD)
    assert "KS" in problem.message


def test_r6_8_row_10_no_reading_places_every_card() -> None:
    """R6.8 `5H 6D 7H 8H 9H 6S 6C`: `5H-6D-7H` is no sequence; `5H` is related to no card."""
    problem = explain_group(cards("5H 6D 7H 8H 9H 6S 6C"))
    assert problem is not None and (problem.card, problem.reason) == (parse_card("5H"), UNRELATED_CARD)


# --------------------------------------------------------------------------- other explanations


def test_r6_5_a_card_related_to_nothing_is_named_even_without_a_main_combination() -> None:
    """R6.5: every card of a group must be related to another; `9C` is related to none of `5H 5D`."""
    problem = explain_group(cards("5H 9C 5D"))
    assert problem is not None
    assert (problem.card, problem.rule, problem.reason) == (parse_card("9C"), "R6.5", UNRELATED_CARD)


def test_r6_5_a_card_related_to_nothing_is_named_before_other_unplaced_cards() -> None:
    """R6.5: in `KH KC KD 5S 2S 4S`, `5S` hangs on nothing but is related to `4S`; `2S` is related to
    nothing, and is the card named."""
    problem = explain_group(cards("KH KC KD 5S 2S 4S"))
    assert problem is not None
    assert (problem.card, problem.rule, problem.reason) == (parse_card("2S"), "R6.5", UNRELATED_CARD)


def test_r6_4_1_a_card_with_neither_rank_nor_suit_of_a_main_card() -> None:
    """R6.4.1: `9C` is related to `9D` but `4H 5H 6H` has no nine and no club."""
    problem = explain_group(cards("4H 5H 6H 9C 9D"))
    assert problem is not None
    assert (problem.card, problem.rule, problem.reason) == (parse_card("9C"), "R6.4.1", NO_MAIN_CARD)


def test_r6_4_2_a_card_of_the_main_suit_outside_the_run() -> None:
    """R6.4.2: `9H` has the suit of the main sequence `4H 5H 6H` but is not in its run."""
    problem = explain_group(cards("4H 5H 6H 9H"))
    assert problem is not None
    assert (problem.card, problem.rule, problem.reason) == (parse_card("9H"), "R6.4.2", NOT_IN_RUN)


def test_r6_3_explanations_are_none_exactly_for_legal_groups() -> None:
    """R6.3: explain_group returns None for each legal example of R6.7."""
    for text in ["KH KC KD KS QS", "KH KD KS QH JH AH AD", "4H 5H 6H 7H 5D 7S 7D", "KH KC KD AD 2D 3D"]:
        assert explain_group(cards(text)) is None
