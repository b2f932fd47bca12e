"""Romis su iškritimu: related cards (R2.5), the rounds (R4), their resolution (R5.3) and the refusals of
the seat commands (R13.1-R13.3)."""

from __future__ import annotations

import pytest
from romis_helpers import Table, cards, of

from trapoula.domain.cards import parse_card, parse_cards
from trapoula.domain.errors import InvalidInput
from trapoula.domain.games.romis import SPEC
from trapoula.domain.games.romis.commands import Cannot, Reveal, UseAuxiliary
from trapoula.domain.games.romis.events import CardsDealt, RoundOpened, RoundResolved
from trapoula.domain.games.romis.reveals import is_related

# Seat 0 holds R4.4's cards; seat 1 reveals a pair of queens in round 1 and of threes in round 2.
HANDS = ["6H 7H 5H 7D KC", "QS QD 3C 8H 4D"]
AUX = ["2S 9D", "TS 6C"]
FIRST = ["KS 2D 9S", "QC 3D 8C"]
SECOND = ["4H", "JC"]


def r44_table() -> Table:
    """Two players, dealer 1: seat 0 holds 6H 7H 5H 7D KC, seat 1 QS QD 3C 8H 4D (R4.4's example)."""
    t = Table(2)
    t.deal_streams(HANDS, AUX, FIRST, SECOND)
    return t


def round_2_table() -> Table:
    """:func:`r44_table` after round 1: seat 0 revealed 6H 7H, seat 1 QS QD; 3 cards each dealt."""
    t = r44_table()
    t.reveal(0, "6H 7H")
    t.reveal(1, "QS QD")
    return t


def reveals(t: Table, seat: int) -> list[str]:
    return [" ".join(c["cards"]) for c in t.legal(seat)]


@pytest.mark.parametrize(
    ("a", "b", "related"),
    [
        ("QC", "QS", True),
        ("4H", "5H", True),
        ("TS", "JS", True),
        ("AH", "KH", True),
        ("AH", "AD", True),
        ("AH", "2H", False),
        ("AH", "KS", False),
        ("4H", "5D", False),
        ("4H", "6H", False),
        ("4H", "4H", False),
    ],
)
def test_r2_5_the_examples_of_related_cards(a: str, b: str, related: bool) -> None:
    """R2.5: same rank, or same suit and adjacent ranks; the ace is high only (AH-2H not related)."""
    assert is_related(parse_card(a), parse_card(b)) is related
    assert is_related(parse_card(b), parse_card(a)) is related


def test_r4_2_round_1_lists_every_related_pair() -> None:
    """R4.2, R4.7: from 6H 7H 5H 7D KC the related pairs are 7D 7H, 5H 6H and 6H 7H (not 5H 7H);
    round 1 opens for both seats, 2 cards each."""
    t = r44_table()
    assert t.log[-1] == RoundOpened(round=1, attempt=1, required=2, live=(0, 1))
    assert reveals(t, 0) == ["7D 7H", "5H 6H", "6H 7H"]
    assert reveals(t, 1) == ["QD QS"]


def test_r4_2_round_1_refusals() -> None:
    """R13.1 in round 1: ``wrong_count`` (R4.2), ``card_not_available`` (R4.1), ``duplicate_cards``
    (R13.1), ``not_related`` (R4.2: 5H and 7H are of one suit but not adjacent)."""
    t = r44_table()
    t.rejects("wrong_count", "R4.2", t.reveal_command(0, "6H"))
    t.rejects("wrong_count", "R4.2", t.reveal_command(0, "5H 6H 7H"))
    t.rejects("card_not_available", "R4.1", t.reveal_command(0, "6H 8H"))
    t.rejects("duplicate_cards", "R13.1", t.reveal_command(0, "6H 6H"))
    t.rejects("not_related", "R4.2", t.reveal_command(0, "5H 7H"))
    t.rejects("not_related", "R4.2", t.reveal_command(0, "KC 7D"))


def test_r4_2_the_ace_is_revealed_only_with_a_king_or_an_ace() -> None:
    """R2.5, R4.2: "an ace may be revealed only with a king or with another ace": AH 2H is refused,
    AH KH and AH AD are legal."""
    t = Table(2)
    t.deal(["AH 2H KH AD 9C", "QS QD 3C 8H 4D"])
    assert reveals(t, 0) == ["AD AH", "KH AH"]
    t.rejects("not_related", "R4.2", t.reveal_command(0, "AH 2H"))


def test_r5_3_round_1_resolves_when_both_have_submitted() -> None:
    """R5.3, R4.3: the round resolves at the last submission: the reveals are opened, 3 cards are
    dealt to each live seat one at a time in the seat order after the dealer, and round 2 opens."""
    t = r44_table()
    first = t.reveal(0, "7H 6H")
    assert t.names(first) == ["SubmissionSealed"]
    events = t.reveal(1, "QS QD")
    assert t.names(events) == [
        "SubmissionSealed",
        "RoundResolved",
        "CardsDealt",
        "CardsDealt",
        "RoundOpened",
    ]
    resolved = of(events, RoundResolved)[0]
    assert (resolved.round, resolved.attempt, resolved.kinds) == (1, 1, ("reveal", "reveal"))
    assert resolved.cards == (cards("6H 7H"), cards("QD QS"))
    assert resolved.new_combination == (False, False) and resolved.companions == (0, 0)
    assert resolved.auxiliary_slots == ((), ())
    assert [(e.seat, e.count, e.stage, e.cards) for e in of(events, CardsDealt)] == [
        (0, 3, "first_deal", cards("KS 2D 9S")),
        (1, 3, "first_deal", cards("QC 3D 8C")),
    ]
    assert events[-1] == RoundOpened(round=2, attempt=1, required=2, live=(0, 1))
    assert t.revealed(0) == "6H 7H" and t.hand(0) == "KC 2D 7D 5H 9S KS"


def test_r4_4_the_seed_example_5h_7d_and_two_kings() -> None:
    """R4.4 (seed example): after 6H 7H, 5H + 7D is legal (5H next to 6H, 7D same rank as 7H), and so
    are two kings (related to each other, to nothing revealed); nothing else is."""
    t = round_2_table()
    assert reveals(t, 0) == ["KC KS", "7D 5H"]
    t.rejects("not_related", "R4.4", t.reveal_command(0, "7D KC"))
    t.rejects("not_related", "R4.4", t.reveal_command(0, "2D 9S"))
    t.rejects("wrong_count", "R4.4", t.reveal_command(0, "5H"))
    assert reveals(t, 1) == ["3C 3D", "8C 8H", "3D 4D"]
    t.rejects("not_related", "R4.4", t.reveal_command(1, "QC 3C"))
    t.reveal(0, "5H 7D")
    events = t.reveal(1, "3C 3D")
    assert of(events, RoundResolved)[0].cards == (cards("7D 5H"), cards("3C 3D"))
    assert t.revealed(0) == "6H 7H 7D 5H"


def test_r4_5_r4_6_second_deal_then_one_card_a_round() -> None:
    """R4.5: after round 2 one card each, in the seat order after the dealer; R4.6: from round 3 one card
    related to one of his revealed cards -- two cards are ``wrong_count``, an unrelated one
    ``not_related`` (R4.6)."""
    t = round_2_table()
    t.reveal(0, "KC KS")
    events = t.reveal(1, "3C 3D")
    assert [(e.seat, e.count, e.stage, e.cards) for e in of(events, CardsDealt)] == [
        (0, 1, "second_deal", ("4H",)),
        (1, 1, "second_deal", ("JC",)),
    ]
    assert events[-1] == RoundOpened(round=3, attempt=1, required=1, live=(0, 1))
    assert reveals(t, 0) == ["7D", "5H"]
    assert reveals(t, 1) == ["QC", "4D"]
    t.rejects("wrong_count", "R4.6", t.reveal_command(0, "7D 5H"))
    t.rejects("not_related", "R4.6", t.reveal_command(0, "4H"))  # next to 5H, which is not revealed yet
    t.rejects("card_not_available", "R4.1", t.reveal_command(0, "6H"))
    t.reveal(0, "5H")
    t.reveal(1, "QC")
    assert reveals(t, 0) == ["7D", "4H"]  # 4H is next to the 5H just revealed
    assert reveals(t, 1) == ["JC", "4D"]
    assert t.state.round == 4 and t.state.required == 1


def test_r4_7_cannot_and_use_auxiliary_are_refused_while_a_reveal_exists() -> None:
    """R4.7, R13.2, R13.3: with a legal reveal, ``cannot`` is ``reveal_possible`` (R4.7) and
    ``use_auxiliary`` is ``reveal_possible`` (R6.1)."""
    t = r44_table()
    t.rejects("reveal_possible", "R4.7", Cannot(0))
    t.rejects("reveal_possible", "R6.1", UseAuxiliary(0))


def test_r5_2_a_submission_is_binding() -> None:
    """R5.2, R13.1-R13.3: after submitting, every seat command of that seat is ``already_submitted``
    (``resubmit`` off, the default) and it has no legal command; the round waits for the other seat."""
    t = r44_table()
    t.reveal(0, "6H 7H")
    t.rejects("already_submitted", "R5.2", t.reveal_command(0, "5H 6H"))
    t.rejects("already_submitted", "R5.2", UseAuxiliary(0))
    t.rejects("already_submitted", "R5.2", Cannot(0))
    assert t.legal(0) == [] and SPEC.acting(t.state) == (1,)


def test_r13_hand_over_and_eliminated() -> None:
    """R13.1-R13.3: before any hand and after one, every seat command is ``hand_over`` (R4.1); a seat
    that dropped out is ``eliminated`` (R7.3); a seat not at the table is malformed (``bad_seat``)."""
    t = Table(3)
    t.rejects("hand_over", "R4.1", Reveal(0, parse_cards("6H 7H")))
    t.rejects("hand_over", "R4.1", UseAuxiliary(0))
    t.deal(["6H 7H 5H 7D KC", "QS QD 3C 8H 4D", "2C 4S 9D JH KD"], ["2S 9H", "TS 6C", "8S TC"])
    t.reveal(0, "6H 7H")
    t.reveal(1, "QS QD")
    t.give_up(2)
    assert not t.state.live[2]
    t.rejects("eliminated", "R7.3", Cannot(2))
    t.rejects("eliminated", "R7.3", UseAuxiliary(2))
    t.rejects("eliminated", "R7.3", Reveal(2, parse_cards("2C 4S")))
    assert t.legal(2) == [] and SPEC.acting(t.state) == (0, 1)
    with pytest.raises(InvalidInput) as info:
        t.apply(Cannot(3))
    assert info.value.reason == "bad_seat"
    t.auto()
    t.rejects("hand_over", "R4.1", Cannot(0))
    t.rejects("hand_over", "R4.1", UseAuxiliary(1))
