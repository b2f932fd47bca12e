"""Agonia: reshuffling the discard pile, an empty stock, blocked hands (R4.7, R4.8, R6.5; S7.3, S8, S10.4;
decisions 16, 17, 18, 34)."""

from __future__ import annotations

import hashlib

from agonia_helpers import T_FINAL, Table, drew, passed, played, quick_out, reshuffled, table_t, turn

from trapoula.domain.cards import parse_cards
from trapoula.domain.deal import shuffle
from trapoula.domain.games.agonia import SPEC
from trapoula.domain.games.shedding.events import HandEnded, MatchEnded, SeedRevealed, StockReshuffled

# ---------------------------------------------------------------------------- four players, a small stock

A_HANDS = ["3H 2C 3C 4C 5C 6C 7C", "4H 8C 9C TC JC QC KC", "5H AC 2D 3D 4D 5D 6D", "6H 7D 8D 9D TD JD QD"]
A_STOCK = "KD AD 2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS AS 7H 8H 9H TH JH QH KH AH"


def table_a(reshuffles: list[str] | None = None) -> Table:
    """Up-card 2H; seats 0-3 play 3H 4H 5H 6H, then 21 turns of draw-and-pass leave KH AH in the stock
    and 2H 3H 4H 5H 6H in the discard pile; seat 1 is to act."""
    t = Table()
    t.deal(A_HANDS, "2H", A_STOCK, reshuffles, fill=False)
    for seat, card in enumerate(("3H", "4H", "5H", "6H")):
        t.play(seat, card)
    t.draw_and_pass(21)
    assert (t.stock, t.discard, t.to_act) == ("KH AH", "2H 3H 4H 5H 6H", 1)
    return t


def test_r4_8_a_draw_that_leaves_one_card_puts_the_pile_but_its_top_card_beneath_it() -> None:
    t = table_a(reshuffles=["4H 2H 5H 3H"])
    assert t.draw(1) == (drew(1, "KH"), reshuffled(1, "4H 2H 5H 3H"))
    assert t.stock == "AH 4H 2H 5H 3H"
    assert (t.discard, t.top, t.active_suit) == ("6H", "6H", "H")
    assert t.view(1)["stock_count"] == 5
    assert sum(len(h) for h in t.state.hands) + 5 + 1 == 52


def test_s8_5_a_reshuffle_not_given_in_an_explicit_deal_derives_from_the_hash_of_its_deck_order() -> None:
    t = table_a()
    hands = [h.split() for h in A_HANDS]
    order = [hands[seat][i] for i in range(7) for seat in range(4)] + ["2H"] + A_STOCK.split()
    seed = hashlib.sha256(" ".join(order).encode("ascii")).hexdigest()
    expected = shuffle(parse_cards("2H 3H 4H 5H"), seed, "reshuffle/1")
    events = t.draw(1)
    assert events[0] == drew(1, "KH")
    assert isinstance(events[1], StockReshuffled)
    assert events[1].order == tuple(c.code for c in expected)
    assert sorted(events[1].order) == ["2H", "3H", "4H", "5H"]


def test_s8_5_an_explicit_reshuffle_that_is_not_a_permutation_of_the_pile_is_refused_bad_deal() -> None:
    t = table_a(reshuffles=["4H 2H 5H 9S"])
    t.rejects("bad_deal", "S8.5", t.command("draw", 1))


def test_r4_8_s8_4_a_penalty_draw_reshuffles_in_the_middle_after_the_card_that_leaves_one() -> None:
    t = Table()
    hands = ["3H 7H 2C 3C 4C 5C 6C", "4H 7C 8C 9C TC JC QC", "5H KC AC 2D 3D 4D 5D", "6H 6D 7D 8D 9D TD JD"]
    stock = "QD KD AD 2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS AS 8H 9H TH JH QH KH AH"
    t.deal(hands, "2H", stock, ["6H 2H 7H 3H 5H 4H"], fill=False)
    for seat, card in enumerate(("3H", "4H", "5H", "6H")):
        t.play(seat, card)
    t.draw_and_pass(20)
    assert (t.stock, t.to_act) == ("QH KH AH", 0)
    t.play(0, "7H")
    assert t.play(1, "7C") == (played(1, "7C", "C", pending=4), turn(2))
    # QH, KH (one card left: 2H 3H 4H 5H 6H 7H go beneath it), AH, then the first reshuffled card.
    assert t.draw(2) == (reshuffled(1, "6H 2H 7H 3H 5H 4H"), drew(2, "QH KH AH 6H", "penalty"))
    assert (t.stock, t.discard, t.pending, t.to_act) == ("2H 7H 3H 5H 4H", "7C", 0, 2)


def test_s8_5_s5_1_a_seeded_hand_reshuffles_with_the_label_reshuffle_k_and_reveals_seed_and_orders() -> None:
    """Drive a seeded hand: first every player draws then plays what he can (the stock runs down
    and the pile fills), after the first reshuffle every player plays when he can."""
    seed = "00" * 32  # with this policy the all-zero seed reshuffles twice
    t = Table()
    t.seeded(seed)
    orders: list[tuple[str, ...]] = []
    for _ in range(3000):
        if not SPEC.hand_in_progress(t.state):
            break
        seat = t.to_act
        assert seat is not None
        kinds = [c["kind"] for c in t.legal(seat)]
        plays = [c for c in t.legal(seat) if c["kind"] == "play" and "suit" not in c]
        if "draw" in kinds and (not orders or not plays):
            pile = t.state.discard
            k = len(orders) + 1
            for event in t.draw(seat):
                if isinstance(event, StockReshuffled):
                    expected = shuffle(pile[:-1], seed, f"reshuffle/{k}")
                    assert event == StockReshuffled(k=k, count=len(pile) - 1, order=tuple(c.code for c in expected))
                    orders.append(event.order)
        elif plays:
            t.play(seat, plays[0]["card"])
        else:
            t.pass_(seat)
    assert len(orders) >= 2, "fewer than two reshuffles"
    assert not SPEC.hand_in_progress(t.state)
    revealed = [e for e in t.log if isinstance(e, SeedRevealed)]
    assert revealed == [SeedRevealed(seed=seed, reshuffle_orders=tuple(orders))]


# ---------------------------------------------------------------------------- two players, the whole stock drawn


def test_r4_8_s8_3_nothing_is_reshuffled_when_the_pile_holds_only_its_top_card() -> None:
    t = table_t(turns=35)
    assert (t.stock, t.to_act) == ("3H 2D", 1)
    assert t.draw(1) == (drew(1, "3H"),)
    assert (t.stock, t.discard) == ("2D", "2C")
    t.pass_(1)
    assert t.draw(0) == (drew(0, "2D"),)
    assert t.stock == ""


def test_r4_8_a_card_drawn_from_an_empty_stock_first_reshuffles_the_pile_but_its_top_card() -> None:
    t = table_t()
    assert t.play(1, "3C") == (played(1, "3C", "C"), turn(0))
    assert t.draw(0) == (reshuffled(1, "2C"), drew(0, "2C"))
    assert (t.stock, t.discard) == ("", "3C")


def test_r4_7_when_no_card_can_be_drawn_draw_is_refused_and_he_may_pass_without_drawing() -> None:
    t = table_t()
    assert [t.hand(0), t.hand(1)] == T_FINAL
    assert (t.stock, t.discard, t.to_act) == ("", "2C", 1)
    t.rejects("stock_empty", "R4.7", t.command("draw", 1))
    assert {"kind": "pass", "seat": 1} in t.legal(1)
    assert t.pass_(1) == (passed(1), turn(0))


def test_r6_5_s10_4_a_round_of_passes_without_drawing_blocks_the_hand_and_everybody_scores_his_hand() -> None:
    t = table_t(options={"target_points": 1000})
    t.pass_(1)
    assert t.pass_(0) == (
        passed(0),
        HandEnded(
            reason="blocked",
            winner=None,
            hands=(tuple(T_FINAL[0].split()), tuple(T_FINAL[1].split())),
            hand_points=(189, 189),
            totals=(189, 189),
        ),
        SeedRevealed(seed=None, reshuffle_orders=()),
    )
    assert SPEC.needs_deal(t.state)


def test_decision_34_a_single_hand_blocked_with_a_tie_for_lowest_is_followed_by_another_hand() -> None:
    t = table_t(options={"target_points": 0})
    t.pass_(1)
    events = t.pass_(0)
    assert [e.event_name() for e in events] == ["Passed", "HandEnded", "SeedRevealed"]  # no MatchEnded
    assert not SPEC.is_terminal(t.state)
    # The next hand: the deal passes to seat 0, seat 1 plays first and goes out; seat 0 keeps
    # 2C 3C 4C 5C 6C 7C TC = 37.
    last = quick_out(t, others=["2C 3C 4C 5C 6C 7C TC"])
    assert last[-1] == MatchEnded(winner=1, totals=(226, 189), reason="single_hand")
    assert SPEC.is_terminal(t.state)


def test_decision_18_a_penalty_larger_than_what_can_be_had_gives_what_there_is_after_a_reshuffle() -> None:
    t = table_t()
    assert t.play(1, "7C") == (played(1, "7C", "C", pending=2), turn(0))
    # The stock is empty: the pile but its top card (just 2C) is reshuffled, 2C is drawn, and the
    # second card lapses (S7.3).
    assert t.draw(0) == (reshuffled(1, "2C"), drew(0, "2C", "penalty"))
    assert (t.stock, t.discard, t.pending, t.to_act) == ("", "7C", 0, 0)
    # R5.2.4: nothing can be drawn, so he may pass straight after taking.
    t.rejects("stock_empty", "R4.7", t.command("draw", 0))
    assert t.pass_(0) == (passed(0), turn(1))
    t.pass_(1)
    events = t.pass_(0)
    ended = events[1]
    assert isinstance(ended, HandEnded)
    assert (ended.reason, ended.winner, ended.hand_points) == ("blocked", None, (189 + 2, 189 - 7))
    assert events[2] == SeedRevealed(seed=None, reshuffle_orders=(("2C",),))
