"""Giminaičiai: scoring (R7), the end of the hand (R8) and of the match (R9), and the audit's replay of
recorded events as commands (``command_for``)."""

from __future__ import annotations

from collections.abc import Sequence

import pytest
from giminaiciai_helpers import ALL_CODES, R75_HANDS, Table, cards, play_r75

from trapoula.domain.events import Event
from trapoula.domain.games.giminaiciai import SPEC
from trapoula.domain.games.giminaiciai.events import (
    CardDiscarded,
    CardDrawn,
    HandEnded,
    HandLaidDown,
    MatchEnded,
    PlayerFinished,
    PointsScored,
    ShuffleRevealed,
)
from trapoula.domain.games.giminaiciai.laying import extra_card_bonus
from trapoula.domain.games.giminaiciai.rules import acting


def _taken(seat: int, points: int = 1) -> PointsScored:
    return PointsScored(seat=seat, points=points, reason="card_taken")


@pytest.mark.parametrize(("laid", "bonus"), [(7, 0), (8, 1), (9, 3), (10, 7), (11, 15), (13, 63)])
def test_r7_2_extra_card_bonus_doubles_per_card_beyond_seven(laid: int, bonus: int) -> None:
    """R7.2: 8th card 1, 9th 2, 10th 4, 11th 8 ...: N cards score 2^(N-7) - 1."""
    assert extra_card_bonus(laid) == bonus


def test_r7_5_the_worked_example_event_by_event() -> None:
    """R7.5 (3 players, dealer 2), every event after the deal: seat 0 scores 10 and then 1 for each of
    the four cards drawn or taken afterwards by the others (seat 1's 6H, seat 2's KD, seat 1's 9H and
    his extra 7H); seat 2 scores 1 for his 8 cards and 1 each for seat 1's 9H and 7H; seat 1 scores 3
    for 9 cards.  Hand points 14, 3, 3 (R7.1-R7.3, R8.1)."""
    t = Table(3)
    events = play_r75(t)[6:]
    assert events == [
        CardDrawn(seat=0, source="stock", card=None, stock_card="8C"),
        HandLaidDown(seat=0, groups=(cards("2C 3C 4C 5C 6C 7C 8C"),), extra_cards=(), discard="7H", cards_laid=7),
        PointsScored(seat=0, points=10, reason="finishing_bonus"),
        PlayerFinished(seat=0, place=1),
        CardDrawn(seat=1, source="stock", card=None, stock_card="6H"),
        _taken(0),
        CardDiscarded(seat=1, card="KD"),
        CardDrawn(seat=2, source="discard", card="KD", stock_card=None),
        _taken(0),
        HandLaidDown(seat=2, groups=(cards("KC KH KS KD AC AH AS 2S"),), extra_cards=(), discard=None, cards_laid=8),
        PointsScored(seat=2, points=1, reason="extra_card_bonus"),
        PlayerFinished(seat=2, place=2),
        CardDrawn(seat=1, source="stock", card=None, stock_card="9H"),
        _taken(0),
        _taken(2),
        HandLaidDown(
            seat=1,
            groups=(cards("2H 3H 4H 5H 6H 7H"), cards("9C 9D 9H")),
            extra_cards=("7H",),
            discard=None,
            cards_laid=9,
        ),
        _taken(0),
        _taken(2),
        PointsScored(seat=1, points=3, reason="extra_card_bonus"),
        PlayerFinished(seat=1, place=3),
        HandEnded(
            hand_no=1,
            reason="all_finished",
            winner=0,
            hand_points=(14, 3, 3),
            totals=(14, 3, 3),
            remaining=((), (), ()),
        ),
        ShuffleRevealed(hand_no=1, deck=t.log[1].deck, salt=""),  # type: ignore[attr-defined]
    ]
    assert t.view(None)["totals"] == [14, 3, 3]
    assert not SPEC.is_terminal(t.state) and SPEC.needs_deal(t.state)


def test_r7_5_seat_0_is_skipped_after_finishing() -> None:
    """R4.1, R7.5: after seat 2 lays down, seat 0 (finished) is skipped and seat 1 is to act."""
    t = Table(3)
    t.deal(R75_HANDS, "QD", "8C 6H 9H")
    t.draw(0)
    t.lay_down(0, "2C 3C 4C 5C 6C 7C 8C", discard="7H")
    assert t.to_act == 1
    t.turn(1, "KD")
    t.draw(2, "discard")
    t.lay_down(2, "KC KH KS KD AC AH AS 2S")
    assert t.to_act == 1 and acting(t.state) == (1,)


SIX_HANDS = (
    "2H 3H 4H 5H 6H 7H 8H",
    "2D 3D 4D 5D 6D 7D 8D",
    "2C 3C 4C 5C 6C 7C 8C",
    "TH JH QH KH AH TD JD",
    "2S 3S 4S 5S 6S KS JS",
    "QS TS AD AC KD TC QC",
)
"""Six players, dealer 5, starter AS, stock 9H 9D 9C QD 7S JC 8S KC 9S."""


def play_six(t: Table) -> list[Event]:
    """Seats 0-3 each draw and lay 8 cards; seats 4 and 5 draw and discard KS, QS, JS, TS in turn, which
    empties the stock; seat 4 draws 9S and lays all 13 spades, taking the 5 pile cards TS JS QS KS AS."""
    out = list(t.deal(SIX_HANDS, "AS", "9H 9D 9C QD 7S JC 8S KC 9S"))
    for seat, groups in enumerate(
        (
            ("2H 3H 4H 5H 6H 7H 8H 9H",),
            ("2D 3D 4D 5D 6D 7D 8D 9D",),
            ("2C 3C 4C 5C 6C 7C 8C 9C",),
            ("TH JH QH KH AH", "TD JD QD"),
        )
    ):
        out += t.draw(seat)
        out += t.lay_down(seat, *groups)
    out += t.turn(4, "KS")
    out += t.turn(5, "QS")
    out += t.turn(4, "JS")
    out += t.turn(5, "TS")
    out += t.draw(4)
    assert t.view(None)["stock_count"] == 0
    assert t.view(None)["discard_pile"] == list(cards("AS KS QS JS TS"))
    out += t.lay_down(4, "2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS AS", extra=5)
    return out


def test_r4_7_r8_2_the_hand_ends_when_a_turn_would_start_with_both_piles_empty() -> None:
    """R4.7, R8.2, R5.3, R7.2, R7.3: seat 4 empties stock and pile; seat 5's turn would start with both
    empty, so the hand ends and seat 5 scores nothing more.  13 cards laid: 63.  Taken cards: seat 0
    scores 1 for each of the 8 draws after its finish and 5 for seat 4's extras: 10 + 1 + 8 + 5 = 24;
    seat 1 1 + 7 + 5 = 13; seat 2 1 + 6 + 5 = 12; seat 3 1 + 5 + 5 = 11."""
    t = Table(6)
    events = play_six(t)
    assert events[-9:] == [
        HandLaidDown(
            seat=4,
            groups=(cards("2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS AS"),),
            extra_cards=cards("TS JS QS KS AS"),
            discard=None,
            cards_laid=13,
        ),
        _taken(0, 5),
        _taken(1, 5),
        _taken(2, 5),
        _taken(3, 5),
        PointsScored(seat=4, points=63, reason="extra_card_bonus"),
        PlayerFinished(seat=4, place=5),
        HandEnded(
            hand_no=1,
            reason="piles_exhausted",
            winner=0,
            hand_points=(24, 13, 12, 11, 63, 0),
            totals=(24, 13, 12, 11, 63, 0),
            remaining=((), (), (), (), (), cards("TC JC QC KC AC KD AD")),
        ),
        ShuffleRevealed(hand_no=1, deck=t.log[1].deck, salt=""),  # type: ignore[attr-defined]
    ]
    assert t.view(None)["last_hand"]["remaining"][5] == list(cards("TC JC QC KC AC KD AD"))
    assert t.view(5)["legal"] == [] and SPEC.needs_deal(t.state)


def test_r7_3_draws_score_for_every_player_finished_before_the_turn() -> None:
    """R7.3: in the six-player hand, seat 3's draw scores 1 for each of seats 0, 1 and 2, in the order
    they finished; seat 0's own first draw scored nothing."""
    t = Table(6)
    events = play_six(t)
    drawn = [i for i, e in enumerate(events) if isinstance(e, CardDrawn)]
    assert events[drawn[0] + 1].event_name() == "HandLaidDown"
    assert events[drawn[3] + 1 : drawn[3] + 4] == [_taken(0), _taken(1), _taken(2)]


def test_r9_1_the_match_ends_when_one_player_alone_reaches_the_target() -> None:
    """R9.1, R10.1, R10.2: target 20, initial totals 10, 0, 0; after R7.5 seat 0 has 24, alone at the top."""
    t = Table(3, options={"target_score": 20}, initial_totals=(10, 0, 0))
    events = play_r75(t)
    assert events[-3] == HandEnded(
        hand_no=1, reason="all_finished", winner=0, hand_points=(14, 3, 3), totals=(24, 3, 3), remaining=((), (), ())
    )
    assert events[-1] == MatchEnded(winner=0, totals=(24, 3, 3))
    assert SPEC.is_terminal(t.state) and not SPEC.needs_deal(t.state)
    view = t.view(1)
    assert view["match_over"] and view["winner"] == 0 and view["legal"] == []


def test_r9_2_a_tie_at_the_top_plays_on_until_one_leads_alone() -> None:
    """R9.2: target 14, initial totals 0, 11, 0: after R7.5 seats 0 and 1 share 14 -- the match goes on.
    The next hand (dealer 0, R3.7) repeats R7.5 one seat on: seat 1 scores 14, seat 2 3, seat 0 3;
    totals 17, 28, 6: seat 1 wins."""
    t = Table(3, options={"target_score": 14}, initial_totals=(0, 11, 0))
    first = play_r75(t)
    assert first[-2].event_name() == "HandEnded" and first[-1].event_name() == "ShuffleRevealed"
    assert t.view(None)["totals"] == [14, 14, 3] and not SPEC.is_terminal(t.state)
    second = play_r75(t, shift=1)
    assert second[0].dealer == 0  # type: ignore[attr-defined]
    assert second[-3].hand_points == (3, 14, 3)  # type: ignore[attr-defined]
    assert second[-1] == MatchEnded(winner=1, totals=(17, 28, 6))


def test_r9_1_below_the_target_the_match_goes_on() -> None:
    """R9.1: with the default target 200 the first hand of R7.5 ends nothing but the hand."""
    t = Table(3)
    events = play_r75(t)
    assert not any(isinstance(e, MatchEnded) for e in events)
    assert t.view(0)["hand_over"] and t.view(0)["next_dealer"] == 0


def _replay_as_commands(table: Table, log: Sequence[Event]) -> None:
    """What the audit does: rebuild each command from the recorded events (``command_for``) and check
    that deciding it again from the state so far gives exactly the recorded events."""
    state = SPEC.initial_state(table.config)
    i = 0
    while i < len(log):
        command = SPEC.command_for(state, log, i)
        assert command is not None, f"no command for {log[i]}"
        events = SPEC.decide(state, command)
        assert list(events) == list(log[i : i + len(events)])
        for event in events:
            state = SPEC.evolve(state, event)
        i += len(events)
    assert state == table.state


def test_command_for_rebuilds_every_command_of_the_worked_example() -> None:
    """Section 8, audit: the R7.5 hand replays command by command into the same events."""
    t = Table(3)
    play_r75(t)
    _replay_as_commands(t, t.log)


def test_command_for_rebuilds_a_turned_over_pile_and_an_exhausted_hand() -> None:
    """R4.6, R4.7 and the audit: a draw that turns the pile over is one command; the six-player hand
    replays exactly."""
    t = Table(6)
    t.deal_deck(ALL_CODES)
    for k in range(10):
        t.turn(k % 6)
    assert any(e.event_name() == "DiscardPileTurnedOver" for e in t.log)
    _replay_as_commands(t, t.log)
    six = Table(6)
    play_six(six)
    _replay_as_commands(six, six.log)
