"""Giminaičiai: what each seat sees (section 9) and the computer players (``random``, ``heuristic``)."""

from __future__ import annotations

import json
import random

from giminaiciai_helpers import R75_HANDS, Table, cards, last_hand, lay_down, play_r75

from trapoula.domain.events import redact
from trapoula.domain.games.giminaiciai import SPEC
from trapoula.domain.games.giminaiciai.bot import discard_choice, heuristic, random_policy
from trapoula.domain.games.giminaiciai.events import CardDrawn

ILL72 = "4H 5H 6H 7H 5D 7S 7D"


def r75_until_seat_2_took_kd() -> Table:
    """R7.5 up to seat 2 taking the KD from the pile (before his lay-down)."""
    t = Table(3)
    t.deal(R75_HANDS, "QD", "8C 6H 9H")
    t.draw(0)
    t.lay_down(0, "2C 3C 4C 5C 6C 7C 8C", discard="7H")
    t.turn(1, "KD")
    t.draw(2, "discard")
    return t


def test_section_9_the_acting_seat_sees_its_hand_and_the_public_table() -> None:
    """Section 9: own hand, the others' counts, the whole discard pile, the stock count, laid groups,
    points and the legal commands; ``taken`` is the pile card of this turn (R4.5)."""
    view = r75_until_seat_2_took_kd().view(2)
    assert view["hand"] == list(cards("KC AC KD KH AH 2S KS AS"))
    assert view["hand_sizes"] == [0, 7, 8]
    assert view["stock_count"] == 28
    assert view["discard_pile"] == ["QD", "7H"] and view["discard_top"] == "7H"
    assert view["laid"] == [[list(cards("2C 3C 4C 5C 6C 7C 8C"))], [], []]
    assert view["finished"] == [0]
    assert view["hand_points"] == [12, 0, 0] and view["totals"] == [0, 0, 0]
    assert (view["to_act"], view["drawn"], view["taken"]) == (2, True, "KD")
    assert lay_down(2, "KC AC KD KH AH 2S KS AS") in view["legal"]
    assert "KD" not in [c.get("card") for c in view["legal"] if c["kind"] == "discard"]


def test_section_9_no_seat_sees_another_seats_cards() -> None:
    """Section 9, STYLE habit 6: seat 1 and a spectator never see seat 2's hand (the KD taken from the
    pile is public); they have no legal command."""
    t = r75_until_seat_2_took_kd()
    hidden = set(cards("AC KC AH KH 2S AS KS"))
    for viewer in (1, None):
        view = t.view(viewer)
        text = json.dumps(view)
        assert not any(f'"{code}"' in text for code in hidden)
        assert view["legal"] == []
    assert t.view(None)["hand"] == [] and t.view(1)["hand"] == list(cards("9C 9D 2H 3H 4H 5H 6H"))


def test_section_9_after_the_hand_the_result_and_the_remaining_cards_are_public() -> None:
    """R8.3, section 9: the last hand's reason, winner, points and totals; the next dealer (R3.7)."""
    t = Table(3)
    play_r75(t)
    view = t.view(None)
    assert view["phase"] == "hand_over" and view["hand_over"]
    assert view["last_hand"] == last_hand(1, "all_finished", 0, [14, 3, 3], [14, 3, 3], [[], [], []])
    assert view["totals"] == [14, 3, 3] and view["next_dealer"] == 0 and view["to_act"] is None


def test_section_9_a_card_taken_from_the_pile_is_public_a_stock_card_private() -> None:
    """Section 9: ``CardDrawn.card`` (pile) is public; ``CardDrawn.stock_card`` goes to the seat only."""
    pile = CardDrawn(seat=2, source="discard", card="KD", stock_card=None)
    stock = CardDrawn(seat=1, source="stock", card=None, stock_card="6H")
    assert redact(pile, 0)["card"] == "KD" and redact(pile, None)["card"] == "KD"
    assert redact(stock, 1)["stock_card"] == "6H" and redact(stock, 2)["stock_card"] is None


def test_heuristic_takes_the_pile_card_that_makes_a_lay_down_possible() -> None:
    """Heuristic draw: seat 2 of R7.5 takes the KD, with which his 8 cards can be laid (R5.1)."""
    t = Table(3)
    t.deal(R75_HANDS, "QD", "8C 6H 9H")
    t.draw(0)
    t.lay_down(0, "2C 3C 4C 5C 6C 7C 8C", discard="7H")
    view = t.view(1)
    assert heuristic(view, view["legal"], random.Random(0))["source"] == "stock"  # 7H joins nothing of seat 1
    t.turn(1, "KD")
    view = t.view(2)
    assert heuristic(view, view["legal"], random.Random(0)) == {"kind": "draw", "seat": 2, "source": "discard"}


def test_heuristic_takes_the_pile_card_that_joins_a_meld() -> None:
    """Heuristic draw: a 4C on the pile forms the sequence 2C 3C 4C with seat 0's cards (R6.2)."""
    t = Table(2)
    t.deal(["2C 3C 9D 9H KS 5H JS", None], "4C")
    view = t.view(0)
    assert heuristic(view, view["legal"], random.Random(0)) == {"kind": "draw", "seat": 0, "source": "discard"}


def test_heuristic_lays_down_the_most_cards() -> None:
    """Heuristic lay-down: of 7 cards with a discard, or 8 with the extra 8D (R5.3, R7.2), it lays 8."""
    t = Table(2)
    t.deal([ILL72, None], "8D", "9C")
    t.draw(0)
    view = t.view(0)
    assert heuristic(view, view["legal"], random.Random(0)) == lay_down(
        0, "5D 4H 5H 6H", "7D 8D 7H 7S", discard="9C", extra=1
    )


def test_heuristic_discards_the_least_related_card() -> None:
    """Heuristic discard: seat 1 of R7.5 after drawing 6H discards KD, related to none of his cards (R6.1)."""
    t = Table(3)
    t.deal(R75_HANDS, "QD", "8C 6H 9H")
    t.turn(0, "7H")
    t.draw(1)
    view = t.view(1)
    assert heuristic(view, view["legal"], random.Random(0)) == {"kind": "discard", "seat": 1, "card": "KD"}
    hand = [c for c in t.state.hands[1]]
    assert discard_choice(hand, hand, random.Random(5)).code == "KD"


def test_bots_choose_legal_commands() -> None:
    """Both levels return one of the legal payloads; the random level reaches both kinds after a draw."""
    t = Table(2)
    t.deal([ILL72, None], "8D", "9C")
    t.draw(0)
    view = t.view(0)
    kinds = {random_policy(view, view["legal"], random.Random(seed))["kind"] for seed in range(20)}
    assert kinds == {"discard", "lay_down"}
    for level, policy in SPEC.bot_levels.items():
        assert policy(view, view["legal"], random.Random(1)) in view["legal"], level


def test_heuristic_alone_sometimes_explores_otherwise_never() -> None:
    """R4.1, R4.6: a player left alone meets the turned-over pile in the same order again, so the
    heuristic, alone, now and then discards a card other than the least related; with another player
    still in the hand it always discards the least related card (here KD, related to nothing)."""
    together = Table(3)
    together.deal(R75_HANDS, "QD", "8C 6H 9H")
    together.turn(0, "7H")
    together.draw(1)
    view = together.view(1)
    assert {heuristic(view, view["legal"], random.Random(s))["card"] for s in range(40)} == {"KD"}
    alone = Table(2)
    alone.deal([ILL72, "2C 3C 4C 5C 9S 9D KD"], "8D", "TS 6C")
    alone.draw(0)
    alone.lay_down(0, ILL72, discard="TS")
    alone.draw(1)
    view = alone.view(1)
    chosen = {heuristic(view, view["legal"], random.Random(s))["card"] for s in range(40)}
    assert "KD" in chosen and len(chosen) > 1
