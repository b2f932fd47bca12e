"""Crazy Eights: the end of a hand, scoring and the end of the match (R6; S10, section 9)."""

from __future__ import annotations

import hashlib
from typing import Any

import pytest
from crazy_eights_helpers import ALL_CODES, Table, arrange, drew, passed, played, turn

from trapoula.domain.games.crazy_eights import SPEC
from trapoula.domain.games.crazy_eights.events import HandEnded, MatchEnded
from trapoula.domain.games.shedding.events import HandStarted, SeedRevealed

POINTS = {"scoring": "points"}


def _pile(first: str, top: str, *held: str) -> str:
    """A discard pile from ``first`` (the up-card) to ``top``, every card not in ``held`` between."""
    kept = {c for h in (first, top, *held) for c in h.split()}
    return " ".join([first, *(c for c in ALL_CODES if c not in kept), top])


# ---------------------------------------------------------------------------- blocked hands (R6.2)

B_DEAL = ["2C TC 3C 4C 5C", "TD TS QC 3D 4D", "QD QS JC JD 9C"]
"""Three players, up-card 2H."""


def blocked(options: dict[str, object], hands: list[str], **table: Any) -> Table:
    """Three players after ``B_DEAL``: the stock is empty, KH is on the pile (hearts), seat 0 to act
    and ``hands`` held: nobody holds a heart, a king or an 8 (given, R4.5)."""
    t = Table(3, options=options, **table)
    t.deal(B_DEAL, "2H")
    arrange(t, hands, _pile("2H", "KH", *hands), 0)
    return t


VALUES_12_30_55 = ["2C TC", "TD TS QC", "QD QS JC JD 9C 6S"]
"""Hand values 2 + 10 = 12, 10 + 10 + 10 = 30, 10 + 10 + 10 + 10 + 9 + 6 = 55 (R2.4, R6.8)."""
VALUES_12_12_40 = ["2C TC", "2D TD", "QD QS JC JD"]
"""Hand values 12, 12 and 40 (R6.8)."""


def pass_round(t: Table) -> tuple[object, ...]:
    """Seats 0, 1, 2 pass in turn; return the events of the last pass."""
    assert t.pass_(0) == (passed(0), turn(1))
    assert t.pass_(1) == (passed(1), turn(2))
    return t.pass_(2)


def test_r6_2_r6_3_a_blocked_single_hand_goes_to_the_lowest_hand_value() -> None:
    t = blocked({}, VALUES_12_30_55)
    events = pass_round(t)
    hands = (("2C", "TC"), ("QC", "TD", "TS"), ("9C", "JC", "JD", "QD", "6S", "QS"))
    assert events == (
        passed(2),
        HandEnded(
            reason="blocked",
            winner=0,
            hands=hands,
            hand_points=(0, 0, 0),
            totals=(0, 0, 0),
            hand_values=(12, 30, 55),
        ),
        SeedRevealed(seed=None, reshuffle_orders=()),
        MatchEnded(winner=0, totals=(0, 0, 0), reason="single_hand", tied=()),
    )
    view = t.view(1)
    assert (view["match_winner"], view["tied"], view["phase"]) == (0, [], "match_over")
    assert view["last_hand"] == {
        "reason": "blocked",
        "winner": 0,
        "hands": [list(h) for h in hands],
        "hand_points": [0, 0, 0],
        "hand_values": [12, 30, 55],
    }


def test_r6_3_a_tie_for_the_lowest_value_ends_the_single_game_with_no_winner() -> None:
    t = blocked({}, VALUES_12_12_40)
    events = pass_round(t)
    assert events[-1] == MatchEnded(winner=None, totals=(0, 0, 0), reason="single_hand", tied=(0, 1))
    ended = events[1]
    assert isinstance(ended, HandEnded)
    assert (ended.winner, ended.hand_values) == (None, (12, 12, 40))
    assert (t.view(None)["match_winner"], t.view(None)["tied"]) == (None, [0, 1])
    assert SPEC.is_terminal(t.state)


def test_r6_2_a_card_played_in_between_starts_the_count_of_idle_turns_again() -> None:
    """Seat 0 passes, seat 1 plays 5H, then seats 2, 0 and 1 pass: blocked only after the third."""
    t = blocked({}, ["2C TC", "TD TS QC 5H", "QD QS JC JD 9C 6S"])
    t.pass_(0)
    assert t.play(1, "5H") == (played(1, "5H"), turn(2))
    assert t.pass_(2) == (passed(2), turn(0))
    assert t.pass_(0) == (passed(0), turn(1))
    events = t.pass_(1)
    assert [e.event_name() for e in events] == ["Passed", "HandEnded", "SeedRevealed", "MatchEnded"]


def test_r6_5_points_game_blocked_the_lowest_scores_the_differences() -> None:
    """R6.8: values [12, 30, 55]: seat 0 scores (30 - 12) + (55 - 12) = 61; the hand has no winner."""
    t = blocked(POINTS, VALUES_12_30_55)
    events = pass_round(t)
    ended = events[1]
    assert isinstance(ended, HandEnded)
    assert (ended.winner, ended.hand_points, ended.totals) == (None, (61, 0, 0), (61, 0, 0))
    assert len(events) == 3  # 61 < 150: no MatchEnded (R6.6)
    assert SPEC.needs_deal(t.state)
    assert t.view(0)["totals"] == [61, 0, 0]


def test_r6_5_points_game_blocked_with_a_tie_for_lowest_nobody_scores() -> None:
    t = blocked(POINTS, VALUES_12_12_40, initial_totals=(5, 6, 7))
    ended = pass_round(t)[1]
    assert isinstance(ended, HandEnded)
    assert (ended.winner, ended.hand_points, ended.totals) == (None, (0, 0, 0), (5, 6, 7))
    assert SPEC.needs_deal(t.state)


def test_r6_5_r6_6_the_lowest_of_a_blocked_hand_may_reach_the_target_and_win() -> None:
    t = blocked(POINTS, VALUES_12_30_55, initial_totals=(100, 0, 0))
    events = pass_round(t)
    assert events[-1] == MatchEnded(winner=0, totals=(161, 0, 0), reason="target", tied=())
    assert t.view(2)["last_hand"]["winner"] is None


def test_s7_3_r6_2_a_penalty_drawn_from_an_empty_stock_gets_nothing_ends_the_turn_and_counts_as_idle() -> None:
    """Twos on, stock empty: seat 0 plays 2H; seat 1 has no 2 and takes the penalty: no card; seat 0
    then holds only 5C on 2H and passes: two idle turns in a row with two players: blocked; seat 0
    (5) is lower than seat 1 (QC KC, 20)."""
    t = Table(2, options={"twos_draw_two": True})
    t.deal(["2H 5C 3C 4C 6C 7C 9C", "QC KC 2D 3D 4D 5D 6D"], "3S")
    arrange(t, ["2H 5C", "QC KC"], _pile("3S", "3H", "2H 5C QC KC"), 0)
    assert t.play(0, "2H") == (played(0, "2H", pending=2), turn(1))
    assert t.kinds(1) == ["draw"]
    assert t.draw(1) == (drew(1, "", "penalty"), turn(0))
    assert (t.pending, t.state.idle_turns) == (0, 1)
    assert t.kinds(0) == ["pass"]
    events = t.pass_(0)
    assert events[-1] == MatchEnded(winner=0, totals=(0, 0), reason="single_hand", tied=())
    ended = events[1]
    assert isinstance(ended, HandEnded)
    assert (ended.reason, ended.hand_values) == ("blocked", (5, 20))


# ---------------------------------------------------------------------------- going out (R6.1, R6.4)

O_DEAL = ["4C 2D 3D 5D 6D", "8H KD 3C 7D 9D", "AS 9S TD JD QD"]
"""Three players, up-card 4D."""


def one_to_go(options: dict[str, object], **table: Any) -> Table:
    """R6.8: three players; seat 0 holds only 4C on 4H, seat 1 holds 8H KD 3C (63), seat 2 AS 9S (10)."""
    t = Table(3, options=options, **table)
    t.deal(O_DEAL, "4D")
    hands = ["4C", "8H KD 3C", "AS 9S"]
    arrange(t, hands, _pile("4D", "4H", *hands), 0)
    return t


def test_r6_1_r6_3_the_first_out_wins_the_single_game_and_no_points_are_booked() -> None:
    t = one_to_go({})
    events = t.play(0, "4C")
    assert events == (
        played(0, "4C"),
        HandEnded(
            reason="out",
            winner=0,
            hands=((), ("3C", "KD", "8H"), ("9S", "AS")),
            hand_points=(0, 0, 0),
            totals=(0, 0, 0),
            hand_values=(0, 63, 10),
        ),
        SeedRevealed(seed=None, reshuffle_orders=()),
        MatchEnded(winner=0, totals=(0, 0, 0), reason="single_hand", tied=()),
    )
    t.rejects("match_over", "R6.3", SPEC.deal_command(t.state, t.explicit(O_DEAL, "4D")))
    t.rejects("hand_over", "S11", t.command("draw", 1))


def test_r6_4_r6_8_points_game_the_player_out_scores_every_card_left_in_the_other_hands() -> None:
    """Seat 1: 50 + 10 + 3 = 63; seat 2: 1 + 9 = 10; seat 0 scores 73."""
    t = one_to_go(POINTS)
    events = t.play(0, "4C")
    ended = events[1]
    assert isinstance(ended, HandEnded)
    assert (ended.hand_points, ended.totals, ended.hand_values) == ((73, 0, 0), (73, 0, 0), (0, 63, 10))
    assert [e.event_name() for e in events] == ["CardPlayed", "HandEnded", "SeedRevealed"]
    view = t.view(None)
    assert (view["phase"], view["totals"], view["target"], view["last_hand"]["hand_points"]) == (
        "hand_over",
        [73, 0, 0],
        150,
        [73, 0, 0],
    )
    assert t.legal(0) == t.legal(1) == t.legal(2) == []


@pytest.mark.parametrize(("before", "ends"), [(76, False), (77, True), (120, True)])
def test_r6_6_the_match_ends_when_a_total_reaches_the_target_equal_or_greater(before: int, ends: bool) -> None:
    """Three players: target 150; seat 0 scores 73."""
    t = one_to_go(POINTS, initial_totals=(before, 0, 0))
    events = t.play(0, "4C")
    if ends:
        assert events[-1] == MatchEnded(winner=0, totals=(before + 73, 0, 0), reason="target", tied=())
        assert SPEC.is_terminal(t.state)
        t.rejects("match_over", "R6.6", SPEC.deal_command(t.state, t.explicit(O_DEAL, "4D")))
    else:
        assert not isinstance(events[-1], MatchEnded)


def test_r7_2_target_per_player_sets_the_target() -> None:
    """20 a player, three players: 60; seat 0's 73 reaches it."""
    t = one_to_go({**POINTS, "target_per_player": 20})
    assert t.view(0)["target"] == 60
    assert isinstance(t.play(0, "4C")[-1], MatchEnded)


def test_r6_8_two_players_two_eights_left_score_100_and_reach_the_target() -> None:
    t = Table(2, options=POINTS)
    t.deal(["KS 2C 3C 4C 5C 6C 7C", "8C 8D 2D 3D 4D 5D 6D"], "9S")
    arrange(t, ["KS", "8C 8D"], _pile("9S", "QS", "KS 8C 8D"), 0)
    events = t.play(0, "KS")
    assert events[-1] == MatchEnded(winner=0, totals=(100, 0), reason="target", tied=())


# ---------------------------------------------------------------------------- the next hand (R6.7)


def _seed(label: str) -> str:
    return hashlib.sha256(label.encode()).hexdigest()


def test_r6_7_the_deal_passes_to_the_left_and_the_player_to_his_left_plays_first() -> None:
    t = one_to_go(POINTS)  # hand 1: dealer 2, seat 0 first (R3.1)
    t.play(0, "4C")
    events = t.seeded(_seed("hand 2"))
    started = next(e for e in events if isinstance(e, HandStarted))
    assert (started.hand_no, started.dealer, started.first_player, t.to_act) == (2, 0, 1, 1)
    assert events[-1] == turn(1)
    assert t.view(2)["totals"] == [73, 0, 0]
    assert "last_hand" not in t.view(2)
    t.rejects("hand_in_progress", "S11", SPEC.deal_command(t.state, t.explicit(O_DEAL, "4D")))


def test_r6_7_with_a_first_dealer_set_the_rotation_starts_from_him() -> None:
    t = Table(3, options=POINTS, first_dealer=0)
    t.deal(["4C 2D 3D 5D 6D", "8H KD 3C 7D 9D", "AS 9S TD JD QD"], "4D")
    assert (t.state.dealer, t.to_act) == (0, 1)
    hands = ["2D", "3C", "AS"]
    arrange(t, hands, _pile("4D", "2H", *hands), 0)
    t.play(0, "2D")
    events = t.seeded(_seed("next"))
    started = next(e for e in events if isinstance(e, HandStarted))
    assert (started.dealer, started.first_player) == (1, 2)
