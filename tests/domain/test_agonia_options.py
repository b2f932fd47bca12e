"""Agonia's variants α-δ (R7.2-R7.5; decisions 22-28, 31); R7.1 and R7.6 are in the scoring and sevens tests."""

from __future__ import annotations

from typing import Any

import pytest
from agonia_helpers import (
    CHAIN_EIGHTS_LAST,
    S1_HAND,
    Table,
    chosen,
    down_to_one,
    drew,
    missed,
    passed,
    played,
    quick_out,
    skipped,
    table_t,
    turn,
    went_out,
)

from trapoula.domain.games.agonia import SPEC
from trapoula.domain.games.shedding.events import HandEnded, MatchEnded, SeedRevealed, StarterTurned

# ---------------------------------------------------------------------------- R7.2: starter_ace_suit (α)

# Up-card AS, dealer 3, seat 0 first.  Seat 0 holds an ace and hearts; seat 1 diamonds.
ALPHA = ["AC 2C 3C 4C 2H 3H 4H", "2D 3D 4D 5D 6D 9D TD", "5H 6H 7H TH 5C 6C 7C", "2S 3S 4S 5S 6S QS TS"]


def alpha(mode: str, players: int = 4) -> Table:
    t = Table(players, options={"starter_ace_suit": mode})
    t.deal(ALPHA[:players], "AS")
    return t


def test_r7_2_1_by_default_an_ace_up_card_keeps_its_suit_and_there_is_no_choice() -> None:
    t = alpha("ace")
    assert t.log[-2:] == [StarterTurned(card="AS", active_suit="S", pending_draw=0, chooser=None), turn(0)]
    t.rejects("no_suit_choice", "R7.2", t.command("choose_suit", 0, suit="H"))


def test_r7_2_2_with_first_player_choosing_the_hand_opens_with_his_suit_choice() -> None:
    t = alpha("first_player")
    assert t.log[-1] == StarterTurned(card="AS", active_suit="S", pending_draw=0, chooser=0)
    assert (t.to_act, t.view(None)["chooser"]) == (0, 0)
    assert t.legal(0) == [{"kind": "choose_suit", "seat": 0, "suit": s} for s in "CDHS"]
    assert t.legal(1) == []
    # Every other command waits for the choice.
    t.rejects("suit_choice_pending", "R7.2.2", t.command("play", 0, card="2H"))
    t.rejects("suit_choice_pending", "R7.2.2", t.command("draw", 0))
    t.rejects("suit_choice_pending", "R7.2.2", t.command("pass", 0))
    t.rejects("suit_choice_pending", "R7.2.2", t.command("draw", 1))
    t.rejects("not_your_turn", "R7.2.3", t.command("choose_suit", 1, suit="D"))
    t.rejects("hand_in_progress", "S11", SPEC.deal_command(t.state, t.explicit(ALPHA, "AS")))
    # The choice is not a play: the first player then plays as usual (decision 31).
    assert t.choose(0, "H") == (chosen(0, "H"), turn(0))
    assert (t.active_suit, t.top, t.to_act) == ("H", "AS", 0)
    t.rejects("no_suit_choice", "R7.2", t.command("choose_suit", 0, suit="C"))
    t.rejects_play("no_match", "R4.1", 0, "2C")
    assert t.play(0, "2H") == (played(0, "2H", "H"), turn(1))


def test_r7_2_4_after_the_choice_the_up_card_is_still_an_ace_and_no_ace_goes_on_it() -> None:
    t = alpha("first_player")
    t.choose(0, "C")
    t.rejects_play("ace_on_ace", "R5.1.3", 0, "AC")
    assert t.play(0, "2C") == (played(0, "2C", "C"), turn(1))


def test_r7_2_2_choosing_the_aces_own_suit_is_allowed() -> None:
    t = alpha("first_player")
    assert t.choose(0, "S") == (chosen(0, "S"), turn(0))
    assert t.active_suit == "S"


def test_r7_2_3_with_dealer_the_dealer_chooses_and_the_first_player_then_plays() -> None:
    t = alpha("dealer")
    assert t.log[-1] == StarterTurned(card="AS", active_suit="S", pending_draw=0, chooser=3)
    t.rejects("not_your_turn", "R7.2.3", t.command("choose_suit", 0, suit="H"))
    assert t.choose(3, "D") == (chosen(3, "D"), turn(0))
    # Seat 0 holds no diamond, and his ace may not go on the ace.
    assert t.legal(0) == [{"kind": "draw", "seat": 0}]


def test_r7_2_3_with_previous_winner_the_first_hand_falls_back_to_the_first_player() -> None:
    t = alpha("previous_winner")
    assert t.log[-1] == StarterTurned(card="AS", active_suit="S", pending_draw=0, chooser=0)


def test_r7_2_3_with_previous_winner_the_player_who_went_out_last_hand_chooses() -> None:
    t = Table(options={"starter_ace_suit": "previous_winner", "target_points": 1000})
    quick_out(t)  # seat 0 goes out
    t.deal([ALPHA[3], ALPHA[0], ALPHA[1], ALPHA[2]], "AS")
    assert (t.state.dealer, t.state.first_player) == (0, 1)
    assert t.log[-1] == StarterTurned(card="AS", active_suit="S", pending_draw=0, chooser=0)
    assert t.choose(0, "C") == (chosen(0, "C"), turn(1))


def test_r7_2_3_with_previous_winner_after_a_blocked_hand_the_first_player_chooses() -> None:
    t = table_t(options={"starter_ace_suit": "previous_winner", "target_points": 1000})
    t.pass_(1)
    t.pass_(0)
    assert t.state.last_winner is None
    t.deal(["2C 3C 4C 5C 6C 7C 8C", "2D 3D 4D 5D 6D 7D 8D"], "AH")
    assert (t.state.dealer, t.state.first_player) == (0, 1)
    assert t.log[-1] == StarterTurned(card="AH", active_suit="H", pending_draw=0, chooser=1)


# ---------------------------------------------------------------------------- R7.3: ace_last_card (β)

# Two players, up-card 2C, stock KC QC JC.  Seat 0 draws KC and passes; seat 1 plays 8C 8D 8H 8S
# (eights, R5.3.1), 9S (two players: again, R5.4.2) and 4S, and is left holding AH.
BETA = ["AS 4H 4D 2D 3D 5D 7S", "8C 8D 8H 8S 9S 4S AH"]


def beta(on: bool) -> Table:
    t = Table(2, options={"ace_last_card": on})
    t.deal(BETA, "2C", "KC QC JC")
    t.draw(0)
    t.pass_(0)
    for card in ("8C", "8D", "8H", "8S", "9S", "4S"):
        t.play(1, card)
    assert (t.hand(1), t.to_act, t.top) == ("AH", 0, "4S")
    return t


def test_r7_3_the_seeds_example_after_an_ace_changing_to_hearts_a_last_ace_of_hearts_goes_out() -> None:
    t = beta(True)
    assert t.play(0, "AS", suit="H") == (played(0, "AS", "H", declared="H"), turn(1))
    assert t.play(1, "AH") == (
        played(1, "AH", "H"),
        *went_out(
            1,
            (("KC", "2D", "3D", "4D", "5D", "4H", "7S"), ()),
            hand_points=(10 + 2 + 3 + 4 + 5 + 4 + 7, 0),
            totals=(35, 0),
        ),
    )


def test_r7_3_without_the_option_the_last_ace_may_not_go_on_the_ace() -> None:
    t = beta(False)
    t.play(0, "AS", suit="H")
    t.rejects_play("ace_on_ace", "R5.1.3", 1, "AH")
    assert [c["kind"] for c in t.legal(1)] == ["draw"]


def test_r7_3_the_last_ace_counts_as_a_plain_card_so_a_declared_suit_is_ignored() -> None:
    t = beta(True)
    t.play(0, "AS", suit="H")
    assert t.play(1, "AH", suit="C")[0] == played(1, "AH", "H")


def test_r7_3_decision_24_the_last_ace_of_the_active_suit_may_go_on_a_plain_card() -> None:
    t = beta(True)
    t.play(0, "4H")
    events = t.play(1, "AH")
    assert events[0] == played(1, "AH", "H")
    assert isinstance(events[1], HandEnded) and events[1].winner == 1


def test_r7_3_without_the_option_a_last_ace_on_a_plain_card_is_refused() -> None:
    t = beta(False)
    t.play(0, "4H")
    t.rejects_play("last_card_forbidden", "R4.6", 1, "AH")


def test_r7_3_a_last_ace_not_of_the_active_suit_stays_forbidden() -> None:
    t = beta(True)
    t.play(0, "4D")
    t.rejects_play("last_card_forbidden", "R4.6", 1, "AH")
    t.rejects_play("last_card_forbidden", "R4.6", 1, "AH", suit="D")


def test_r7_3_a_last_ace_not_of_the_declared_suit_may_not_go_on_an_ace() -> None:
    t = beta(True)
    t.play(0, "AS", suit="D")
    t.rejects_play("ace_on_ace", "R5.1.3", 1, "AH")


def test_r7_3_a_last_ace_may_not_be_played_while_a_penalty_is_pending() -> None:
    t = beta(True)
    t.play(0, "7S")
    t.rejects_play("penalty_pending", "R5.2.3", 1, "AH")


# ---------------------------------------------------------------------------- R7.4: eight_last_card (γ)


def test_r7_4_an_eight_may_be_the_last_card_and_its_player_plays_again_with_an_empty_hand() -> None:
    t = down_to_one("8D", CHAIN_EIGHTS_LAST, options={"eight_last_card": True}, stock="JD")
    assert t.play(0, "8D") == (played(0, "8D", "D"), turn(0))
    assert (t.hand(0), t.to_act, SPEC.hand_in_progress(t.state)) == ("", 0, True)
    t.rejects("must_draw_first", "R4.4", t.command("pass", 0))
    assert t.legal(0) == [{"kind": "draw", "seat": 0}]
    assert t.draw(0) == (drew(0, "JD"),)
    # Decision 25: the drawn card may win the hand when it is legal and may be a last card.
    assert t.play(0, "JD") == (
        played(0, "JD", "D"),
        HandEnded(reason="out", winner=0, hands=((), tuple(S1_HAND.split())), hand_points=(0, 37), totals=(0, 37)),
        SeedRevealed(seed=None, reshuffle_orders=()),
    )


def test_r7_4_when_the_drawn_card_cannot_be_played_he_passes() -> None:
    t = down_to_one("8D", CHAIN_EIGHTS_LAST, options={"eight_last_card": True}, stock="KC")
    t.play(0, "8D")
    assert t.draw(0) == (drew(0, "KC"),)
    t.rejects_play("no_match", "R4.1", 0, "KC")
    assert t.pass_(0) == (passed(0), turn(1))


def test_r7_4_a_drawn_ace_is_still_no_last_card() -> None:
    t = down_to_one("8D", CHAIN_EIGHTS_LAST, options={"eight_last_card": True}, stock="AH")
    t.play(0, "8D")
    t.draw(0)
    t.rejects_play("last_card_forbidden", "R4.6", 0, "AH")


# ---------------------------------------------------------------------------- R7.5: announce_cards (δ)

# Two players, up-card 2C, seat 0 first: 8C 8D 8H (6, 5, 4 left), 9H (3 left), 9S (2 left: announce),
# 8S (1 left: announce), 2S (out).  Every card gives seat 0 another turn (R5.3.1, R5.4.2).
DELTA = ["8C 8D 8H 9H 9S 8S 2S", "5H 6H 7H 9D 2D 3D 4D"]


def delta(penalty: str, *, target: int = 100, stock: str = "QC JC TC") -> Table:
    t = Table(2, options={"announce_cards": True, "announce_penalty": penalty, "target_points": target})
    t.deal(DELTA, "2C", stock)
    for card in ("8C", "8D", "8H", "9H"):
        t.play(0, card)
    assert (t.hand(0), t.to_act) == ("2S 8S 9S", 0)
    return t


@pytest.mark.parametrize("penalty", ["draw_one", "skip_turn", "ten_points"])
def test_r7_5_1_a_play_leaving_two_or_one_card_with_announce_has_no_penalty(penalty: str) -> None:
    t = delta(penalty)
    assert {"kind": "play", "seat": 0, "card": "9S", "announce": True} in t.legal(0)
    assert t.play(0, "9S", announce=True) == (played(0, "9S", "S", announce=True), skipped(1, "nine"), turn(0))
    assert t.play(0, "8S", announce=True) == (played(0, "8S", "S", announce=True), turn(0))
    events = t.play(0, "2S")
    assert isinstance(events[1], HandEnded)
    assert events[1].hand_points == (0, 5 + 6 + 7 + 9 + 2 + 3 + 4)


def test_r7_5_2_draw_one_he_draws_a_card_after_the_plays_effect_and_before_the_turn_passes() -> None:
    t = delta("draw_one")
    assert t.play(0, "9S") == (
        played(0, "9S", "S"),
        missed(0, 2, "draw_one"),
        drew(0, "QC", "announce_penalty"),
        skipped(1, "nine"),
        turn(0),
    )
    assert t.hand(0) == "QC 2S 8S"


def test_r7_5_2_draw_one_after_an_eight_he_plays_again_with_the_drawn_card_in_hand() -> None:
    t = delta("draw_one")
    t.play(0, "9S", announce=True)
    assert t.play(0, "8S") == (
        played(0, "8S", "S"),
        missed(0, 1, "draw_one"),
        drew(0, "QC", "announce_penalty"),
        turn(0),
    )
    assert t.hand(0) == "QC 2S"
    # The penalty card is not the turn's one draw (R4.3).
    assert t.draw(0) == (drew(0, "JC"),)


def test_r7_5_2_with_a_seven_the_draw_one_penalty_comes_after_the_pending_draw_is_set() -> None:
    t = Table(2, options={"announce_cards": True})
    t.deal(["8C 8D 8H 8S 7S 2S 3S", "5H 6H 7H 9D 2D 3D 4D"], "2C", "QC JC TC")
    for card in ("8C", "8D", "8H", "8S"):
        t.play(0, card)
    assert t.play(0, "7S") == (
        played(0, "7S", "S", pending=2),
        missed(0, 2, "draw_one"),
        drew(0, "QC", "announce_penalty"),
        turn(1),
    )
    assert t.pending == 2
    assert t.play(1, "7H") == (played(1, "7H", "H", pending=4), turn(0))


def test_r7_5_3_each_missed_announcement_is_a_separate_offence() -> None:
    t = delta("ten_points")
    assert t.play(0, "9S")[:2] == (played(0, "9S", "S"), missed(0, 2, "ten_points"))
    assert t.play(0, "8S")[:2] == (played(0, "8S", "S"), missed(0, 1, "ten_points"))


def test_r7_5_2_ten_points_are_added_when_the_hand_ends_even_if_he_goes_out() -> None:
    t = delta("ten_points")
    assert t.play(0, "9S") == (played(0, "9S", "S"), missed(0, 2, "ten_points"), skipped(1, "nine"), turn(0))
    assert t.play(0, "8S") == (played(0, "8S", "S"), missed(0, 1, "ten_points"), turn(0))
    assert t.play(0, "2S") == (
        played(0, "2S", "S"),
        *went_out(0, ((), ("2D", "3D", "4D", "9D", "5H", "6H", "7H")), hand_points=(20, 36), totals=(20, 36)),
    )


def test_r7_5_2_decision_22_in_a_single_hand_with_ten_points_the_lowest_total_still_wins() -> None:
    t = delta("ten_points", target=0)
    t.play(0, "9S", announce=True)
    t.play(0, "8S")
    assert t.play(0, "2S")[-1] == MatchEnded(winner=0, totals=(10, 36), reason="single_hand")


def test_r7_5_2_ten_points_are_added_to_a_player_who_does_not_go_out() -> None:
    t = Table(2, options={"announce_cards": True, "announce_penalty": "ten_points"})
    t.deal(["9C 3C 9D 9H 5H 9S KS", "8C 8D 4D 8H 8S 6S QD"], "2C")
    t.play(0, "9C")
    t.play(0, "3C")
    t.play(1, "8C")
    t.play(1, "8D")
    t.play(1, "4D")
    t.play(0, "9D")
    t.play(0, "9H")
    t.play(0, "5H", announce=True)
    t.play(1, "8H")
    assert t.play(1, "8S") == (played(1, "8S", "S"), missed(1, 2, "ten_points"), turn(1))
    t.play(1, "6S", announce=True)
    t.play(0, "9S", announce=True)
    events = t.play(0, "KS")
    assert events[1] == HandEnded(reason="out", winner=0, hands=((), ("QD",)), hand_points=(0, 10 + 10), totals=(0, 20))


def skip_turn_owed() -> Table:
    """δ ``skip_turn``: seat 0 misses at 9S, announces 8S, draws QC and passes: seat 1 to act, top 8S."""
    t = delta("skip_turn")
    assert t.play(0, "9S") == (played(0, "9S", "S"), missed(0, 2, "skip_turn"), skipped(1, "nine"), turn(0))
    # His own play-again turns are not turns "from another player": nothing is used up yet.
    assert t.play(0, "8S", announce=True) == (played(0, "8S", "S", announce=True), turn(0))
    t.draw(0)
    assert t.pass_(0) == (passed(0), turn(1))
    return t


def test_r7_5_2_skip_turn_he_loses_his_next_turn_coming_from_another_player() -> None:
    t = skip_turn_owed()
    t.draw(1)  # JC
    assert t.pass_(1) == (passed(1), skipped(0, "announce_penalty"), turn(1))
    # Used up: the next turn comes to him.
    t.draw(1)  # TC
    assert t.pass_(1) == (passed(1), turn(0))


def test_r7_5_2_a_turn_lost_to_a_nine_does_not_use_up_the_announce_penalty() -> None:
    t = Table(2, options={"announce_cards": True, "announce_penalty": "skip_turn"})
    t.deal(["8C 8D 8H 8S 2S 3S 4S", "9S 9D 5S 6S 7S 2D 3D"], "2C", "QC JC TC")
    for card in ("8C", "8D", "8H", "8S"):
        t.play(0, card)
    assert t.play(0, "2S") == (played(0, "2S", "S"), missed(0, 2, "skip_turn"), turn(1))
    # Seat 1's nines: seat 0 loses those turns to the nines; the announcement penalty is still owed.
    assert t.play(1, "9S") == (played(1, "9S", "S"), skipped(0, "nine"), turn(1))
    assert t.play(1, "9D") == (played(1, "9D", "D"), skipped(0, "nine"), turn(1))
    assert t.play(1, "2D") == (played(1, "2D", "D"), skipped(0, "announce_penalty"), turn(1))
    assert t.play(1, "3D") == (played(1, "3D", "D"), turn(0))


def test_r7_5_2_decision_28_a_seven_pending_against_a_skipped_player_is_drawn_automatically() -> None:
    t = Table(2, options={"announce_cards": True, "announce_penalty": "skip_turn"})
    t.deal(["8C 8D 8H 8S 2S 3S 4S", "9S 9D 5S 6S 7S 2D 3D"], "2C", "QC JC TC")
    for card in ("8C", "8D", "8H", "8S"):
        t.play(0, card)
    t.play(0, "2S")  # missed at 2 cards: 3S 4S
    assert t.play(1, "7S") == (
        played(1, "7S", "S", pending=2),
        drew(0, "QC JC", "penalty"),
        skipped(0, "announce_penalty"),
        turn(1),
    )
    assert (t.pending, t.hand(0), t.to_act) == (0, "JC QC 3S 4S", 1)
    # The seven is now plain (decision 33): seat 1 plays on by suit.
    assert t.play(1, "5S") == (played(1, "5S", "S"), turn(0))


def test_r7_5_3_an_announcement_on_a_play_that_needs_none_is_accepted_and_harmless() -> None:
    t = Table(2, options={"announce_cards": True})
    t.deal(DELTA, "2C", "QC")
    assert t.play(0, "8C", announce=True) == (played(0, "8C", "C", announce=True), turn(0))


@pytest.mark.parametrize("options", [{}, {"announce_cards": False, "announce_penalty": "ten_points"}])
def test_r7_5_3_when_the_option_is_off_no_announcement_is_needed(options: dict[str, Any]) -> None:
    t = Table(2, options=options)
    t.deal(DELTA, "2C", "QC")
    for card in ("8C", "8D", "8H", "9H"):
        t.play(0, card)
    assert t.play(0, "9S") == (played(0, "9S", "S"), skipped(1, "nine"), turn(0))
    assert t.play(0, "8S", announce=True) == (played(0, "8S", "S", announce=True), turn(0))
    events = t.play(0, "2S")
    assert isinstance(events[1], HandEnded) and events[1].hand_points == (0, 36)


def test_r7_5_4_reaching_two_cards_by_drawing_needs_no_announcement() -> None:
    t = delta("draw_one")
    t.play(0, "9S", announce=True)
    t.play(0, "8S", announce=True)
    assert t.hand(0) == "2S"
    assert t.draw(0) == (drew(0, "QC"),)  # two cards now: nothing to announce
    assert t.pass_(0) == (passed(0), turn(1))
    # ... but playing down from two to one again needs the call again (R7.5.1).
    t.draw(1)
    t.pass_(1)
    assert t.play(0, "2S")[:2] == (played(0, "2S", "S"), missed(0, 1, "draw_one"))


def test_r7_5_1_the_legal_commands_carry_the_announcement_where_it_is_needed() -> None:
    t = delta("draw_one")
    assert {"kind": "play", "seat": 0, "card": "9S", "announce": True} in t.legal(0)
    t.play(0, "9S", announce=True)
    assert {"kind": "play", "seat": 0, "card": "8S", "announce": True} in t.legal(0)
    t = Table(2, options={"announce_cards": True})
    t.deal(DELTA, "2C")
    assert {"kind": "play", "seat": 0, "card": "8C"} in t.legal(0)
