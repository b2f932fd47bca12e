"""Giminaičiai: laying down -- legal and illegal groups (the seed's examples, R6.7, R6.8), the optional
discard and the extra cards (R5.1-R5.6), the listing of legal lay-downs and every refusal of R11.3."""

from __future__ import annotations

import pytest
from giminaiciai_helpers import ALL_CODES, Table, cards, lay_down

from trapoula.domain.games.giminaiciai import SPEC
from trapoula.domain.games.giminaiciai.events import HandLaidDown, PlayerFinished, PointsScored

ILL72 = "4H 5H 6H 7H 5D 7S 7D"
"""Seed illustration 72 (R6.7): main hearts 4-7 with 5D, 7S and 7D -- legal as one group."""


def position_a() -> Table:
    """2 players, dealer 1; seat 0 holds :data:`ILL72`, the starter (pile) is 8D; seat 0 draws 9C."""
    t = Table(2)
    t.deal([ILL72, None], "8D", "9C")
    t.draw(0)
    return t


def position_b() -> Table:
    """As :func:`position_a`, but seat 0 takes the 8D from the pile: the pile is empty."""
    t = Table(2)
    t.deal([ILL72, None], "8D", "9C")
    t.draw(0, "discard")
    return t


EXTRAS_HANDS = ("3H 4H 5H 9C 9D KD 2H", "6H 7H 2C 4D 6S 8C TS")


def position_extras() -> Table:
    """2 players, dealer 1, starter 8H.  Seat 0 draws 9S and discards KD; seat 1 draws TC and discards
    7H; seat 0 draws QC and discards 2H; seat 1 draws JC and discards 6H; seat 0 draws 9H.  Seat 0 then
    holds 3H 4H 5H 9C 9D 9S 9H QC and the pile, top first, is 6H 2H 7H KD 8H."""
    t = Table(2)
    t.deal(EXTRAS_HANDS, "8H", "9S TC QC JC 9H")
    t.turn(0, "KD")
    t.turn(1, "7H")
    t.turn(0, "2H")
    t.turn(1, "6H")
    t.draw(0)
    assert t.hand(0) == "9C QC 9D 3H 4H 5H 9H 9S"
    assert t.view(1)["discard_pile"] == list(cards("8H KD 7H 2H 6H"))
    return t


def _lay_downs(t: Table, seat: int) -> list[dict[str, object]]:
    return [c for c in t.legal(seat) if c["kind"] == "lay_down"]


# ------------------------------------------------------------------------------ the seed's examples


@pytest.mark.parametrize(
    ("groups", "refusal"),
    [
        (("KH KD KS QH JH AH AD",), None),  # ill. 71
        ((ILL72,), None),  # ill. 72
        (("4H 5H 6H 7H 5D 7S 7D 8D",), ("R6.5", "8D")),  # ill. 72: 8D hangs on the relative 7D
        (("4H 5H 6H 5D", "7H 7S 7D 8D"), None),  # ill. 72 as two groups
        (("4H 5H 5C 6C 7C 8C 9C",), ("R6.5", "4H")),  # R6.8: 4H only on the relative 5H
        (("QS KS AS 2S 3S 2C 3D",), None),  # R6.8: round the corner
        (("7C 7D 7H 9C 6D 5D 4D",), ("R6.4.2", "9C")),  # R6.8: 9C not in a run with 7C
        (("7C 7D 7H 8C 9C 6D 5D 4D",), None),
        (("KH KC KD QH JH TH QS",), None),  # R6.8, decision 9: main hearts K-Q-J-T
        (("KH KC KD AH AD 2D 3D QS",), ("R6.5", "QS")),  # R6.8: no KS for QS
        (("5H 6D 7H 8H 9H 6S 6C",), ("R6.5", "5H")),  # R6.8: no reading places 5H
        (("KH KC KD KS QS", "2C 3C 4C"), None),  # R6.7, decision 9: four kings as main
        (("KH KC KD QS", "2C 3C 4C 5C"), ("R6.5", "QS")),  # ill. 70
    ],
)
def test_r5_1_r6_the_seed_examples_laid_down(groups: tuple[str, ...], refusal: tuple[str, str] | None) -> None:
    """R5.1, R5.2, R6: seat 0 of 2 is dealt the first 7 cards of the example; an 8-card example's last
    card is the stock top and all 8 are laid, a 7-card example is laid with the drawn card (the first
    card of the deck not in it) as the discard.  Legal: the hand is laid and seat 0 has finished;
    illegal: ``illegal_group`` naming the rule and the card of ``explain_group``."""
    laid = " ".join(groups).split()
    spare = next(c for c in ALL_CODES if c not in laid)
    eighth = laid[7] if len(laid) == 8 else spare
    t = Table(2)
    t.deal([" ".join(laid[:7]), None], next(c for c in ALL_CODES if c not in laid and c != spare), eighth)
    t.draw(0)
    discard = None if len(laid) == 8 else spare
    command = t.lay_down_command(0, *groups, discard=discard)
    if refusal is None:
        events = t.apply(command)
        assert events[0] == HandLaidDown(
            seat=0, groups=tuple(cards(g) for g in groups), extra_cards=(), discard=discard, cards_laid=len(laid)
        )
        assert events[-1] == PlayerFinished(seat=0, place=1)
        assert t.view(1)["laid"][0] == [g.split() for g in groups]
    else:
        error = t.rejects("illegal_group", refusal[0], command)
        assert f"is illegal: {refusal[1]} " in error.message  # explain_group's sentence starts with the card


# ------------------------------------------------------------------------------ discard, extras, order


def test_r5_2_seven_cards_and_a_discard_or_eight_cards() -> None:
    """R5.2, R5.4: in position A seat 0 lays 7 and discards 9C: the 9C ends on the pile; with the 8D of
    the pile as an extra card (R5.3) it lays 8: the 8D leaves the pile before the 9C goes on it."""
    t = position_a()
    events = t.lay_down(0, "4H 5H 6H 5D", "7H 7S 7D 8D", discard="9C", extra=1)
    assert events[0] == HandLaidDown(
        seat=0,
        groups=(cards("4H 5H 6H 5D"), cards("7H 7S 7D 8D")),
        extra_cards=("8D",),
        discard="9C",
        cards_laid=8,
    )
    assert t.points(events) == [(0, 10, "finishing_bonus"), (0, 1, "extra_card_bonus")]
    assert t.view(1)["discard_pile"] == ["9C"]
    assert t.view(1)["hand_sizes"] == [0, 7] and t.view(1)["finished"] == [0]


def test_r5_2_discarding_is_allowed_even_when_all_eight_fit() -> None:
    """R5.2: in position B all 8 cards fit in two groups; laying 7 and discarding 5D is also legal."""
    t = position_b()
    events = t.lay_down(0, "4H 5H 6H 7H 7S 7D 8D", discard="5D")
    assert events[0].cards_laid == 7  # type: ignore[attr-defined]
    assert t.points(events) == [(0, 10, "finishing_bonus")]
    assert t.view(1)["discard_pile"] == ["5D"]


def test_r6_3_groups_and_cards_may_be_listed_in_any_order() -> None:
    """R6.3 (no declared reading), decision 13: the same lay-down with its groups and cards reordered is
    accepted and recorded as sent."""
    t = position_a()
    events = t.lay_down(0, "7S 8D 7H 7D", "6H 5D 5H 4H", discard="9C", extra=1)
    assert events[0].groups == (cards("7S 8D 7H 7D"), cards("6H 5D 5H 4H"))  # type: ignore[attr-defined]


def test_r5_3_extra_cards_are_taken_in_order_from_the_top_each_fitting_when_taken() -> None:
    """R5.3, R5.4, R7.2: pile top first 6H 2H 7H KD 8H.  Two extra cards: 6H then 2H extend 3H-5H to 2H-6H
    (9 cards: 10 + 3); three: 7H too (10 cards: 10 + 7).  The 8H would fit after the 7H, but the KD
    before it fits no group, and cards are never skipped."""
    t = position_extras()
    downs = _lay_downs(t, 0)
    assert downs == [
        lay_down(0, "9C 9D 9H 9S", h, discard="QC", extra=k)
        for k, h in enumerate(("3H 4H 5H", "3H 4H 5H 6H", "2H 3H 4H 5H 6H", "2H 3H 4H 5H 6H 7H"))
    ]
    t.rejects(
        "extra_card_does_not_fit",
        "R5.3",
        t.lay_down_command(0, "3H 4H 5H 6H 2H 7H", "9C 9D 9S 9H KD", discard="QC", extra=4),
    )
    error = t.rejects(
        "extra_card_does_not_fit",
        "R5.3",
        t.lay_down_command(0, "3H 4H 5H 6H 2H 7H KD 8H", "9C 9D 9S 9H", discard="QC", extra=5),
    )
    assert "'KD'" in error.message
    t.rejects("card_not_in_hand", "R5.6", t.lay_down_command(0, "3H 4H 5H 7H", "9C 9D 9S 9H", discard="QC", extra=1))
    two = t.apply(t.lay_down_command(0, "3H 4H 5H 6H 2H", "9C 9D 9S 9H", discard="QC", extra=2))
    assert two[0] == HandLaidDown(
        seat=0,
        groups=(cards("3H 4H 5H 6H 2H"), cards("9C 9D 9S 9H")),
        extra_cards=("6H", "2H"),
        discard="QC",
        cards_laid=9,
    )
    assert t.points(two) == [(0, 10, "finishing_bonus"), (0, 3, "extra_card_bonus")]
    assert t.view(1)["discard_pile"] == list(cards("8H KD 7H QC"))


def test_r5_3_three_extra_cards_make_ten() -> None:
    """R5.3, R7.2: 7 hand cards and 6H, 2H, 7H laid: 10 cards, bonus 7."""
    t = position_extras()
    events = t.lay_down(0, "2H 3H 4H 5H 6H 7H", "9C 9D 9S 9H", discard="QC", extra=3)
    assert events[0].extra_cards == ("6H", "2H", "7H")  # type: ignore[attr-defined]
    assert t.points(events) == [(0, 10, "finishing_bonus"), (0, 7, "extra_card_bonus")]
    assert t.view(1)["discard_pile"] == list(cards("8H KD QC"))


def test_r5_3_decision_7_an_extra_card_cannot_rescue_the_hand_cards_of_a_group() -> None:
    """R5.3, decision 7: 4H 5H with the extra 6H would be a sequence, but the group's hand cards alone
    (2 cards) are no legal group: ``illegal_group`` (R6.3)."""
    t = position_extras()
    error = t.rejects(
        "illegal_group", "R6.3", t.lay_down_command(0, "4H 5H 6H", "3H 9C 9D 9S 9H", discard="QC", extra=1)
    )
    assert "4H 5H" in error.message


# ------------------------------------------------------------------------------ listing


def test_legal_lay_downs_position_a() -> None:
    """Listing in position A: 9C is related to no card, so it must be the discard (R5.2); the rest is
    legal as one group (ill. 72) or as 4H 5H 6H 5D + 7H 7S 7D, to which the 8D of the pile may be added
    (R5.3); it cannot join the single group (R6.5).  Canonical form: cards by suit then rank, groups by
    their lowest card.  The discards come first, every card in canonical order (R4.4)."""
    t = position_a()
    legal = t.legal(0)
    assert [c["card"] for c in legal if c["kind"] == "discard"] == list(cards("9C 5D 7D 4H 5H 6H 7H 7S"))
    assert _lay_downs(t, 0) == [
        lay_down(0, "5D 7D 4H 5H 6H 7H 7S", discard="9C"),
        lay_down(0, "5D 4H 5H 6H", "7D 7H 7S", discard="9C"),
        lay_down(0, "5D 4H 5H 6H", "7D 8D 7H 7S", discard="9C", extra=1),
    ]
    for payload in legal:  # every listed command is accepted (section 8)
        assert SPEC.decide(t.state, SPEC.parse_command(payload))


def test_legal_lay_downs_position_b() -> None:
    """Listing in position B (8D taken, the pile empty): all 8 as 4H 5H 6H 5D + 7H 7S 7D 8D; or, with
    5D discarded, 4H 5H 6H 7H 7S 7D 8D as one group -- the sevens as main, hearts 4-7 on 7H and 8D on
    7D -- or as 4H 5H 6H + 7H 7S 7D 8D.  The 8D may not be discarded (R4.5)."""
    t = position_b()
    assert [c["card"] for c in t.legal(0) if c["kind"] == "discard"] == list(cards("5D 7D 4H 5H 6H 7H 7S"))
    assert _lay_downs(t, 0) == [
        lay_down(0, "5D 4H 5H 6H", "7D 8D 7H 7S"),
        lay_down(0, "7D 8D 4H 5H 6H 7H 7S", discard="5D"),
        lay_down(0, "7D 8D 7H 7S", "4H 5H 6H", discard="5D"),
    ]


def test_no_lay_down_is_listed_when_none_is_legal() -> None:
    """R5: seat 1 of R7.5 after drawing 6H (2H-6H, 9C 9D, KD) can lay nothing down: only discards."""
    t = Table(3)
    t.deal(["2C 3C 4C 5C 6C 7C 7H", "2H 3H 4H 5H 9C 9D KD", None], "QD", "8C 6H")
    t.turn(0, "7H")
    t.draw(1)
    assert {c["kind"] for c in t.legal(1)} == {"discard"}


# ------------------------------------------------------------------------------ refusals (R11.3)


def test_r11_3_card_not_in_hand() -> None:
    """R5.6, R5.2 ``card_not_in_hand``: a card neither held nor among the top ``extra`` pile cards (the
    8D on the pile with ``extra`` 0, the 9D nowhere), or a discard not held."""
    t = position_a()
    t.rejects("card_not_in_hand", "R5.6", t.lay_down_command(0, "4H 5H 6H 5D", "7H 7S 7D 8D", discard="9C"))
    t.rejects("card_not_in_hand", "R5.6", t.lay_down_command(0, ILL72 + " 9C 9D"))
    t.rejects("card_not_in_hand", "R5.2", t.lay_down_command(0, ILL72, discard="AS"))
    t.rejects("card_not_in_hand", "R5.2", t.lay_down_command(0, ILL72, discard="8D", extra=1))


def test_r11_3_cannot_discard_taken_card() -> None:
    """R4.5 ``cannot_discard_taken_card``: the 8D taken from the pile may not be the lay-down's discard."""
    t = position_b()
    t.rejects("cannot_discard_taken_card", "R4.5", t.lay_down_command(0, ILL72, discard="8D"))


def test_r11_3_not_enough_discards() -> None:
    """R5.3 ``not_enough_discards``: ``extra`` 2 with one card on the pile."""
    t = position_a()
    t.rejects("not_enough_discards", "R5.3", t.lay_down_command(0, "4H 5H 6H 5D", "7H 7S 7D 8D", discard="9C", extra=2))


def test_r11_3_bad_group_count() -> None:
    """R5.1 ``bad_group_count``: no group, or three groups."""
    t = position_a()
    t.rejects("bad_group_count", "R5.1", t.lay_down_command(0, discard="9C"))
    t.rejects("bad_group_count", "R5.1", t.lay_down_command(0, "4H 5H 6H", "5D 7S 7D", "7H", discard="9C"))


def test_r11_3_cards_mismatch() -> None:
    """R5.1, R5.3, R5.6 ``cards_mismatch``: a hand card neither laid nor discarded, a card listed twice
    (also as the discard), an extra card taken but not laid."""
    t = position_a()
    t.rejects("cards_mismatch", "R5.1", t.lay_down_command(0, ILL72))
    t.rejects("cards_mismatch", "R5.6", t.lay_down_command(0, ILL72 + " 7D", discard="9C"))
    t.rejects("cards_mismatch", "R5.6", t.lay_down_command(0, ILL72 + " 9C", discard="9C"))
    t.rejects("cards_mismatch", "R5.3", t.lay_down_command(0, ILL72, discard="9C", extra=1))


def test_r11_3_illegal_group_names_the_card_and_the_rule() -> None:
    """R6 ``illegal_group``: 9C is related to no card of the group (R6.5); an empty group has too few
    cards (R6.3); a 2-card group too (R6.3)."""
    t = position_a()
    error = t.rejects("illegal_group", "R6.5", t.lay_down_command(0, ILL72 + " 9C"))
    assert "group 1 (4H 5H 6H 7H 5D 7S 7D 9C) is illegal: 9C is related to no other card" in error.message
    t.rejects("illegal_group", "R6.3", t.lay_down_command(0, ILL72, "", discard="9C"))
    t.rejects("illegal_group", "R6.3", t.lay_down_command(0, "4H 5H 6H 7H 5D", "7S 7D", discard="9C"))


def test_r11_3_extra_card_does_not_fit() -> None:
    """R5.3 ``extra_card_does_not_fit``: the 8D added to the single group of ill. 72 hangs only on the
    relative 7D (R6.5); an extra card may not start a group of its own."""
    t = position_a()
    error = t.rejects("extra_card_does_not_fit", "R5.3", t.lay_down_command(0, ILL72 + " 8D", discard="9C", extra=1))
    assert "'8D'" in error.message
    error = t.rejects("extra_card_does_not_fit", "R5.3", t.lay_down_command(0, ILL72, "8D", discard="9C", extra=1))
    assert "group of its own" in error.message


def test_r5_5_a_finished_player_lays_nothing_more() -> None:
    """R5.5: after laying down seat 0 holds nothing and is never to act again in the hand."""
    t = position_a()
    t.lay_down(0, ILL72, discard="9C")
    assert t.legal(0) == [] and t.to_act == 1
    t.rejects("not_your_turn", "R4.8", t.lay_down_command(0, "5C 6C 7C"))
    assert isinstance(t.log[-2], PointsScored) and t.log[-1] == PlayerFinished(seat=0, place=1)
