"""The seats' clocks folded from event times, and the timeout policies (docs/clock.md C1-C4),
worked out by hand: times are seconds since an arbitrary start."""

from __future__ import annotations

import random

import pytest

from trapoula.domain.clock import SeatClocks, TimeControl, instant, parse_time_control, timeout_command
from trapoula.domain.errors import InvalidInput


def test_a_seat_is_due_from_the_event_that_waits_for_it_until_it_moves() -> None:
    """C2: 20 s a move, no bank.  Seat 1 is waited for from t=100 (deadline 120); seat 2 is not."""
    clocks = SeatClocks.start(TimeControl(20), 3).after((1,), 100.0, None)
    assert clocks.due == (None, 100.0, None)
    assert clocks.deadlines() == ((1, 120.0),)
    assert clocks.deadline(2) is None and clocks.deadline(7) is None
    # an event that does not change who is waited for (a bot's Mau call) moves nothing
    assert clocks.after((1,), 105.0, None) is clocks


def test_a_seat_that_moves_again_gets_a_new_move_time() -> None:
    """C2: agonia R4.7 (an 8 plays again): seat 0 moves at t=15 and is still due: due from 15."""
    clocks = SeatClocks.start(TimeControl(10), 2).after((0,), 0.0, None).after((0,), 15.0, 0)
    assert clocks.deadlines() == ((0, 25.0),)


def test_the_bank_pays_for_slow_moves_and_never_goes_below_zero() -> None:
    """C3: 10 s a move and a 25 s bank.  Seat 0: due at 0, moves at 18 (8 s from the bank: 17
    left); due at 30, moves at 35 (within its 10 s: 17 left); due at 40, moves at 80 (30 s over,
    the bank pays 17 and stops at 0).  Seat 1's bank is untouched."""
    clocks = SeatClocks.start(TimeControl(10, 25), 2)
    clocks = clocks.after((0,), 0.0, None)
    assert clocks.deadline(0) == 35.0  # 0 + 10 + 25
    clocks = clocks.after((1,), 18.0, 0)
    assert clocks.banks == (17.0, 25.0)
    clocks = clocks.after((0,), 30.0, 1)  # seat 1 moved after 12 s: 2 s from its bank
    assert clocks.banks == (17.0, 23.0) and clocks.deadline(0) == 57.0
    clocks = clocks.after((1,), 35.0, 0).after((0,), 40.0, 1)
    assert clocks.banks == (17.0, 23.0)
    clocks = clocks.after((1,), 80.0, 0)
    assert clocks.banks == (0.0, 23.0) and clocks.deadlines() == ((1, 80.0 + 10 + 23),)


def test_several_seats_due_at_once_are_listed_earliest_first() -> None:
    """C6: sealed rounds (romis R5.2) wait for several seats; deadlines earliest first, ties in seat order."""
    clocks = SeatClocks.start(TimeControl(30, 10), 3).after((0, 1, 2), 50.0, None)
    clocks = clocks.after((0, 1, 2), 70.0, 1)  # seat 1 revealed and is due again (a new round)
    assert clocks.deadlines() == ((0, 90.0), (2, 90.0), (1, 110.0))
    clocks = clocks.after((1,), 75.0, None)  # seats 0 and 2 no longer waited for, within their time
    assert clocks.deadlines() == ((1, 110.0),) and clocks.banks == (10.0, 10.0, 10.0)


def test_the_time_control_is_read_field_by_field() -> None:
    """C1: defaults, whole floats, each policy of the game, and no clock for 0."""
    assert parse_time_control("agonia", {"move_seconds": 30}) == TimeControl(30, 0, "heuristic")
    assert parse_time_control("agonia", {"move_seconds": 30.0, "bank_seconds": 600, "policy": "random"}) == (
        TimeControl(30, 600, "random")
    )
    assert parse_time_control("mau_mau", {"move_seconds": 9, "policy": "hard"}, ("random", "hard"), True) == (
        TimeControl(9, 0, "hard")
    )
    assert parse_time_control("agonia", {}) is None
    for bad in ({"move_seconds": 86_401}, {"move_seconds": True}, {"bank_seconds": -1, "move_seconds": 1}):
        with pytest.raises(InvalidInput) as refused:
            parse_time_control("agonia", bad)
        assert refused.value.reason == "bad_option"
    with pytest.raises(InvalidInput, match="expected one of random, heuristic, pass, leave"):
        parse_time_control("mau_mau", {"move_seconds": 9, "policy": "forfeit"}, seat_changes=True)


def never(level: str, rng: random.Random) -> dict[str, str]:
    raise AssertionError("no computer player was asked")


def test_each_policy_chooses_among_the_seats_legal_moves() -> None:
    """C4: ``pass`` prefers a pass to a draw; ``leave`` the seat's leave; a level asks its player;
    ``pass`` with neither pass nor draw (vida trick play) asks the heuristic player."""
    legal = [{"kind": "play", "card": "7H"}, {"kind": "draw"}, {"kind": "pass"}, {"kind": "leave"}]
    rng = random.Random(3)
    assert timeout_command("pass", legal, never, rng) == {"kind": "pass"}
    assert timeout_command("pass", legal[:2], never, rng) == {"kind": "draw"}
    assert timeout_command("leave", legal, never, rng) == {"kind": "leave"}
    assert timeout_command("leave", legal[:2], never, rng) == {"kind": "draw"}
    asked: list[str] = []

    def bot(level: str, rng: random.Random) -> dict[str, str]:
        asked.append(level)
        return {"kind": "play", "card": "7H"}

    assert timeout_command("random", legal, bot, rng) == {"kind": "play", "card": "7H"}
    assert timeout_command("pass", legal[:1], bot, rng) == {"kind": "play", "card": "7H"}
    assert asked == ["random", "heuristic"]
    with pytest.raises(InvalidInput):
        timeout_command("pass", [], bot, rng)


def test_deadlines_are_written_in_utc_to_the_millisecond() -> None:
    assert instant(0.0) == "1970-01-01T00:00:00.000Z"
    assert instant(1_796_236_497.1849) == "2026-12-02T18:34:57.184Z"  # 20789 days and 66897 s; .1849 truncated
