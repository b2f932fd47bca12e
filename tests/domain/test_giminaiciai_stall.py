"""Giminaičiai: R8.4, the stalled hand (the product's decision T1, confirmed by the rules owners) -- a
hand ends (``stalled``, scored as R8.2) when a turn would start after the discard pile has been
turned over twice (R4.6), or taken from 3 x n times in a row, with no lay-down in between.

Every position is a six-player hand (stock 9 cards, R3.5) in which each seat that does not lay down
draws from the stock and discards the card it drew, so the pile comes back in the same order after
each turn-over (R4.6); a two-player hand shows the last player alone (R4.1, decision 19)."""

from __future__ import annotations

from collections.abc import Sequence

from giminaiciai_helpers import ALL_CODES, Table, cards

from trapoula.domain.events import Event
from trapoula.domain.games.giminaiciai import SPEC
from trapoula.domain.games.giminaiciai.events import (
    CardDiscarded,
    CardDrawn,
    DiscardPileTurnedOver,
    HandEnded,
    PlayerFinished,
    PointsScored,
    ShuffleRevealed,
)
from trapoula.domain.games.giminaiciai.rules import STALL_PILE_DRAWS_PER_PLAYER, STALL_TURN_OVERS

ILL72 = "4H 5H 6H 7H 5D 7S 7D"
"""Seed illustration 72 (R6.7): one legal group of 7 cards, so its holder may lay down in any turn,
discarding the card he drew (R5.2)."""


def _turns(t: Table, seats: Sequence[int]) -> None:
    """Each seat in turn draws from the stock and discards the drawn card; nobody may act out of turn
    (R4.8), so a wrong order of seats is refused."""
    for seat in seats:
        t.turn(seat)


def _ended(t: Table) -> list[HandEnded]:
    return [e for e in t.log if isinstance(e, HandEnded)]


def _fold(t: Table) -> None:
    """Replay: the events folded from the initial state give the live state, turn-over count included
    (R8.4); and the audit rebuilds every command from the events (``command_for``) and decides
    it again into exactly the recorded events."""
    state = SPEC.initial_state(t.config)
    for event in t.log:
        state = SPEC.evolve(state, event)
    assert state == t.state
    state = SPEC.initial_state(t.config)
    i = 0
    while i < len(t.log):
        command = SPEC.command_for(state, t.log, i)
        assert command is not None, f"no command for {t.log[i]}"
        events = SPEC.decide(state, command)
        assert list(events) == list(t.log[i : i + len(events)])
        for event in events:
            state = SPEC.evolve(state, event)
        i += len(events)
    assert state == t.state


def test_r8_4_r4_6_r8_2_the_hand_stalls_after_the_second_turn_over_without_a_lay_down() -> None:
    """R8.4, R4.6, R8.2: deck in canonical order, dealer 5 (starter 5S, stock 6S-AS, R3.6).
    Nine turns empty the stock; seat 3's draw turns the 10-card pile over (count 1) and nothing ends.
    Nine more turns (seats 4 5 0 1 2 3 4 5 0) empty it again; seat 1's draw turns it over a second
    time and he draws 5S again, the hand goes on while he holds 8 cards, and after his discard the
    next turn would start: the hand ends, ``stalled``, nobody scores (R7.4), each seat keeps the
    cards dealt to him (seat s holds deck cards s, s+6, ... s+36)."""
    assert STALL_TURN_OVERS == 2
    t = Table(6)
    t.deal_deck(ALL_CODES)
    _turns(t, [0, 1, 2, 3, 4, 5, 0, 1, 2])
    assert t.draw(3) == (
        DiscardPileTurnedOver(seat=3, count=10, stock_size=10),
        CardDrawn(seat=3, source="stock", card=None, stock_card="5S"),
    )
    assert t.state.turn_overs == 1
    assert t.discard(3, "5S") == (CardDiscarded(seat=3, card="5S"),)
    _turns(t, [4, 5, 0, 1, 2, 3, 4, 5, 0])
    assert t.view(None)["discard_pile"] == list(cards("5S 6S 7S 8S 9S TS JS QS KS AS"))
    assert not _ended(t) and SPEC.hand_in_progress(t.state)
    assert t.draw(1) == (
        DiscardPileTurnedOver(seat=1, count=10, stock_size=10),
        CardDrawn(seat=1, source="stock", card=None, stock_card="5S"),
    )
    assert t.state.turn_overs == 2 and SPEC.acting(t.state) == (1,)
    assert t.discard(1, "5S") == (
        CardDiscarded(seat=1, card="5S"),
        HandEnded(
            hand_no=1,
            reason="stalled",
            winner=None,
            hand_points=(0, 0, 0, 0, 0, 0),
            totals=(0, 0, 0, 0, 0, 0),
            remaining=(
                cards("2C 8C AC 7D KD 6H QH"),
                cards("3C 9C 2D 8D AD 7H KH"),
                cards("4C TC 3D 9D 2H 8H AH"),
                cards("5C JC 4D TD 3H 9H 2S"),
                cards("6C QC 5D JD 4H TH 3S"),
                cards("7C KC 6D QD 5H JH 4S"),
            ),
        ),
        ShuffleRevealed(hand_no=1, deck=ALL_CODES, salt=""),
    )
    assert all(t.legal(s) == [] for s in range(6)) and SPEC.needs_deal(t.state)
    assert t.view(0)["last_hand"]["reason"] == "stalled"


def test_r8_4_a_lay_down_between_turn_overs_starts_the_count_again() -> None:
    """R8.4, R4.6, R5.5, R7.1, R7.3: seat 4 holds :data:`ILL72`, the starter is 2S.  Nine turns
    empty the stock; seat 3 turns the pile over (count 1); seat 4 draws and lays ILL72 down, discarding
    the drawn card (count 0; 10 points).  Eight turns (seat 4 is skipped) empty the stock; seat 2's
    turn-over is the second of the hand but the first since the lay-down: the hand goes on.  Nine
    more turns, and seat 2's next turn-over is the second since the lay-down: after his discard the
    hand ends.  Seat 4 scores 10 + 1 for each of the 8 + 1 + 9 + 1 = 19 draws after his finish."""
    t = Table(6)
    t.deal([None, None, None, None, ILL72, None], "2S")
    _turns(t, [0, 1, 2, 3, 4, 5, 0, 1, 2])
    t.turn(3)
    assert t.state.turn_overs == 1
    drawn = t.draw(4)[0]
    assert isinstance(drawn, CardDrawn) and drawn.stock_card is not None
    events = t.lay_down(4, ILL72, discard=drawn.stock_card)
    assert events[1:] == (PointsScored(seat=4, points=10, reason="finishing_bonus"), PlayerFinished(seat=4, place=1))
    assert t.state.turn_overs == 0
    _turns(t, [5, 0, 1, 2, 3, 5, 0, 1])
    events = t.turn(2)
    assert events[0] == DiscardPileTurnedOver(seat=2, count=10, stock_size=10)
    assert t.state.turn_overs == 1 and not _ended(t)
    _turns(t, [3, 5, 0, 1, 2, 3, 5, 0, 1])
    events = t.turn(2)
    assert events[0] == DiscardPileTurnedOver(seat=2, count=10, stock_size=10)
    (ended,) = _ended(t)
    assert (ended.reason, ended.winner, ended.hand_points) == ("stalled", 4, (0, 0, 0, 0, 29, 0))
    assert ended.remaining[4] == () and all(len(ended.remaining[s]) == 7 for s in (0, 1, 2, 3, 5))
    _fold(t)


def test_r8_4_the_player_of_the_second_turn_over_may_still_lay_down() -> None:
    """R8.4, R5.2, R7.3: seat 1 holds :data:`ILL72`, the starter is 2S.  Seat 3 turns the pile
    over first; seat 1's draw turns it over the second time (he draws the starter 2S again), but the
    hand only ends when the next turn would start: seat 1 lays down discarding 2S, the count starts
    again (10 points) and the hand goes on.  It stalls after seat 0's two later turn-overs; seat 1
    scores 10 + 1 for each of the 9 + 1 + 9 + 1 = 20 draws after his finish."""
    t = Table(6)
    t.deal([None, ILL72, None, None, None, None], "2S")
    _turns(t, [0, 1, 2, 3, 4, 5, 0, 1, 2, 3, 4, 5, 0, 1, 2, 3, 4, 5, 0])
    assert t.state.turn_overs == 1
    assert t.draw(1) == (
        DiscardPileTurnedOver(seat=1, count=10, stock_size=10),
        CardDrawn(seat=1, source="stock", card=None, stock_card="2S"),
    )
    assert t.state.turn_overs == 2
    events = t.lay_down(1, ILL72, discard="2S")
    assert events[-1] == PlayerFinished(seat=1, place=1)
    assert t.state.turn_overs == 0 and SPEC.acting(t.state) == (2,)
    _turns(t, [2, 3, 4, 5, 0, 2, 3, 4, 5, 0, 2, 3, 4, 5, 0, 2, 3, 4, 5])
    assert t.state.turn_overs == 1 and not _ended(t)
    t.turn(0)
    (ended,) = _ended(t)
    assert (ended.reason, ended.winner, ended.hand_points) == ("stalled", 1, (0, 30, 0, 0, 0, 0))
    _fold(t)


def test_r8_4_r4_1_r7_3_the_last_player_alone_cannot_score_the_others_points_for_ever() -> None:
    """R8.4, R4.1, decision 19, R7.3: two players; seat 0 draws 9C and lays :data:`ILL72` down,
    discarding 9C (10 points).  Seat 1, alone, draws and discards: 36 turns empty the stock (37 - 1),
    his 37th draw turns the 38-card pile (the starter 8D, 9C and his 36 discards) over, 37 more turns
    empty the stock again, and the 75th draw turns it over the second time: after that discard the
    hand ends.  Seat 0 scores 10 + 75; seat 1 nothing."""
    t = Table(2)
    t.deal([ILL72, None], "8D", "9C")
    t.draw(0)
    t.lay_down(0, ILL72, discard="9C")
    _turns(t, [1] * 36)
    assert t.view(None)["stock_count"] == 0 and len(t.view(None)["discard_pile"]) == 38
    _turns(t, [1] * 38)
    assert t.state.turn_overs == 1 and not _ended(t)
    events = t.turn(1)
    assert events[0] == DiscardPileTurnedOver(seat=1, count=38, stock_size=38)
    (ended,) = _ended(t)
    assert (ended.reason, ended.winner, ended.hand_points) == ("stalled", 0, (85, 0))
    assert ended.totals == (85, 0) and len(ended.remaining[1]) == 7


def test_r8_4_replay_equals_live_state_and_the_count_starts_at_zero_each_hand() -> None:
    """R8.4, R3.7, R8.3: the stalled hand of the first test folds from its events into the live
    state and replays command by command; the next hand (dealer 0) starts with no turn-over counted,
    and its own first turn-over counts 1."""
    t = Table(6)
    t.deal_deck(ALL_CODES)
    _turns(t, [0, 1, 2, 3, 4, 5, 0, 1, 2, 3, 4, 5, 0, 1, 2, 3, 4, 5, 0, 1])
    assert _ended(t)[0].reason == "stalled" and t.state.turn_overs == 2
    _fold(t)
    log: list[Event] = list(t.deal_deck(ALL_CODES))
    assert log[0].dealer == 0 and t.state.turn_overs == 0  # type: ignore[attr-defined]
    _turns(t, [1, 2, 3, 4, 5, 0, 1, 2, 3])
    t.turn(4)
    assert t.state.turn_overs == 1 and len(_ended(t)) == 1
    _fold(t)


def _take_and_give_back(t: Table, seat: int, times: int, other: str) -> str:
    """``seat`` draws the top of the discard pile and discards ``other`` (R4.5: never the card just
    taken), then takes ``other`` back and discards the card taken before, ``times`` draws in all;
    returns the card it will discard next."""
    for _ in range(times):
        events = t.draw(seat, "discard")
        taken = next(e for e in events if isinstance(e, CardDrawn)).card
        t.discard(seat, other)
        assert taken is not None
        other = taken
    return other


LONE = "2C 5S 9D JH KS 3D QC"
"""Seven cards with no meld (R6.3): seat 1 can never lay down with them and the pile's 9C."""


def test_r8_4_r4_5_the_last_player_taking_back_his_own_discards_stalls_after_3n_draws() -> None:
    """R8.4, R4.2, R4.5, R7.3: two players; seat 0 lays :data:`ILL72` down with 9C (10 points).
    Seat 1, alone, takes 9C from the pile and discards 2C, takes 2C back and discards 9C, and so on:
    nothing is turned over, so only the count of draws in a row from the pile ends the hand -- after
    3 x 2 = 6 of them, when his sixth discard is made.  Seat 0 scores 10 + 6; seat 1 nothing."""
    assert STALL_PILE_DRAWS_PER_PLAYER == 3
    t = Table(2)
    t.deal([ILL72, LONE], "8D", "9C")
    t.draw(0)
    t.lay_down(0, ILL72, discard="9C")
    other = _take_and_give_back(t, 1, 5, "2C")
    assert t.state.pile_draws == 5 and not _ended(t)
    _take_and_give_back(t, 1, 1, other)
    (ended,) = _ended(t)
    assert (ended.reason, ended.winner, ended.hand_points) == ("stalled", 0, (16, 0))
    _fold(t)


def test_r8_4_a_draw_from_the_stock_starts_the_pile_draw_count_again() -> None:
    """R8.4: as above, but after five draws from the pile seat 1 draws from the stock once (and
    discards what he drew): the count starts again, and the hand ends only after six more draws from
    the pile (10 + 5 + 1 + 6 points)."""
    t = Table(2)
    t.deal([ILL72, LONE], "8D", "9C")
    t.draw(0)
    t.lay_down(0, ILL72, discard="9C")
    other = _take_and_give_back(t, 1, 5, "2C")
    t.turn(1)
    assert t.state.pile_draws == 0 and not _ended(t)
    other = _take_and_give_back(t, 1, 5, other)
    assert t.state.pile_draws == 5 and not _ended(t)
    _take_and_give_back(t, 1, 1, other)
    (ended,) = _ended(t)
    assert (ended.reason, ended.hand_points) == ("stalled", (22, 0))
    _fold(t)
