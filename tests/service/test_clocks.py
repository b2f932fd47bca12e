"""Turn clocks kept by the server (docs/clock.md): a seat that does not move in its time is moved
by the table's policy, as events (``TimedOut`` then the seat's move), and the record verifies.

Times here are real (the deadlines come from the stored events' times), with one-second moves:
each test waits a little over a second per timeout, never on a timed assertion of speed.
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from typing import Any

import pytest
from grpc_helpers import SECRET

from trapoula.clients.play import clock_line
from trapoula.domain.audit import audit_record
from trapoula.domain.clock import instant
from trapoula.domain.errors import InvalidInput
from trapoula.domain.games.romis.events import AuxiliaryUsed
from trapoula.service.application import OWNER, Tables
from trapoula.service.entries import Entry
from trapoula.service.tablestate import tick

WAIT_SECONDS = 15.0
"""Longest wait for the server to move a seat whose time ran out."""


@pytest.fixture
def clocked(sqlite_store: Any) -> Iterator[Tables]:
    """``Tables`` on SQLite keeping the turn clocks, as a serving server does."""
    tables = Tables(sqlite_store.url, SECRET)
    tables.keep_clocks()
    try:
        yield tables
    finally:
        tables.close()


def two_people(tables: Tables, clock: dict[str, Any], deal: dict[str, Any]) -> tuple[str, str, str]:
    """A started two-person agonia table for explicit deals (S5.3) with the time control ``clock``:
    ``(table_id, seat 0's token, seat 1's token)``."""
    table_id, _ = tables.create_table("agonia", 2, {"target_points": 0, "clock": clock}, manual_deal=True)
    _, t0 = tables.join(table_id, "ann", 0)
    _, t1 = tables.join(table_id, "bob", 1)
    tables.start_match(table_id, OWNER, "start", deal)
    return table_id, t0, t1


def wait_for(tables: Tables, table_id: str, name: str, count: int = 1) -> list[Entry]:
    """Every stored event of the table once ``count`` events named ``name`` are among them."""
    deadline = time.monotonic() + WAIT_SECONDS
    while time.monotonic() < deadline:
        entries = list(tables.stored_events(table_id))
        if sum(e.name == name for e in entries) >= count:
            return entries
        time.sleep(0.05)
    raise AssertionError(f"no {count} {name} event(s) within {WAIT_SECONDS} s")


def test_a_seat_that_does_not_move_is_moved_by_the_server_after_its_time(clocked: Tables, deal: dict[str, Any]) -> None:
    """docs/clock.md C2-C4 with the ``pass`` policy: seat 0 is to play first (S5.3 deal: 4D on the
    up-card 3D, or draw, R4.1); it does nothing for its second, so the server records
    ``TimedOut {seat 0, the deadline its view showed, "pass"}`` and draws for it (``pass`` takes the
    draw when the seat may not pass, C4), the top card of the stock, ``deal["stock"][0]`` (2C).
    After the draw seat 0 is to move again (R4.3: play the drawn card or pass) with a new second."""
    table_id, t0, _t1 = two_people(clocked, {"move_seconds": 1, "policy": "pass"}, deal)
    ann = clocked.authenticate(table_id, t0)
    version, view = clocked.view(table_id, ann)
    started_at = clocked.stored_events(table_id)[-1].at
    assert view["table"]["clock"] == {
        "move_seconds": 1,
        "bank_seconds": 0,
        "policy": "pass",
        "deadlines": [{"seat": 0, "deadline": instant(started_at + 1)}],  # C2: from the deal's last event
        "banks": [0.0, 0.0],
    }
    deadline = instant(started_at + 1)  # the terminal tells seat 0, not seat 1
    told = f"Your time runs out at {deadline[11:19]} UTC (1 s a move); then the server moves for you (pass)."
    assert clock_line(view, 0) == told and clock_line(view, 1) is None
    entries = wait_for(clocked, table_id, "TimedOut")
    timed_out = next(e for e in entries if e.name == "TimedOut")
    assert timed_out.seq == version + 1
    assert timed_out.payload == {"seat": 0, "deadline": instant(started_at + 1), "policy": "pass"}
    assert timed_out.at >= started_at + 1  # never before the deadline
    drawn = entries[timed_out.seq]  # the event after TimedOut
    assert (drawn.name, drawn.actor, drawn.payload["seat"]) == ("CardsDrawn", "clock:0", 0)
    assert drawn.payload["cards"] == [deal["stock"][0]] == ["2C"]
    _, after = clocked.view(table_id, ann)
    assert after["table"]["clock"]["deadlines"] == [{"seat": 0, "deadline": instant(drawn.at + 1)}]
    assert {"kind": "pass", "seat": 0} in after["legal"]


def test_a_timed_out_match_is_played_on_and_its_record_verifies(clocked: Tables, deal: dict[str, Any]) -> None:
    """The ``heuristic`` policy plays for seat 0 after its second (its only playable card, 4D on
    3D, R4.1); then both seats play their first legal move at once until the hand, and with
    ``target_points`` 0 the match, ends: the record holds the ``TimedOut`` and verifies (REC1-REC9)."""
    table_id, t0, t1 = two_people(clocked, {"move_seconds": 1}, deal)
    entries = wait_for(clocked, table_id, "TimedOut")
    timed_out = next(e for e in entries if e.name == "TimedOut")
    assert timed_out.payload["policy"] == "heuristic"
    played = entries[timed_out.seq]
    assert (played.name, played.actor, played.payload["card"]) == ("CardPlayed", "clock:0", "4D")
    seats = {0: clocked.authenticate(table_id, t0), 1: clocked.authenticate(table_id, t1)}
    for turn in range(400):
        _, view = clocked.view(table_id, seats[0])
        if view["table"]["status"] == "over":
            break
        mover = view["acting"][0]
        _, own = clocked.view(table_id, seats[mover])
        clocked.act(table_id, seats[mover], f"m{turn}", own["legal"][0])
    else:
        raise AssertionError("the hand did not end in 400 moves")
    text, hands = clocked.record(table_id)
    lines = [json.loads(line) for line in text.splitlines()]
    assert hands == 1 and "TimedOut" in [line.get("name") for line in lines]
    report = audit_record(lines)
    assert report.problems == (), report.problems


@pytest.mark.parametrize(
    ("clock", "message"),
    [
        ({"move_seconds": -1}, "clock.move_seconds -1: expected a whole number of seconds from 0 to 86400"),
        ({"move_seconds": 2.5}, "clock.move_seconds 2.5"),
        ({"move_seconds": 30, "policy": "leave"}, 'clock.policy "leave": expected one of random, heuristic, pass'),
        ({"minutes": 3}, "option clock has no field 'minutes'"),
        ({"bank_seconds": 60}, "clock.bank_seconds needs move_seconds above 0"),
        ("fast", 'option clock "fast" is not a mapping'),
    ],
    ids=["negative", "fraction", "leave-in-agonia", "unknown-field", "bank-without-moves", "not-a-mapping"],
)
def test_a_bad_time_control_is_refused_and_creates_nothing(clocked: Tables, clock: Any, message: str) -> None:
    """docs/clock.md C1: each field checked; ``leave`` only in a game whose players may leave (mau_mau R6.10)."""
    before = clocked.list_tables("agonia")[0]
    with pytest.raises(InvalidInput) as refused:
        clocked.create_table("agonia", 2, {"clock": clock})
    assert refused.value.reason == "bad_option" and message in str(refused.value)
    assert clocked.list_tables("agonia")[0] == before


def test_the_leave_policy_makes_a_timed_out_mau_mau_player_leave(clocked: Tables) -> None:
    """mau_mau R6.10 (a player may leave at any time) and docs/clock.md C4: with ``leave``, the
    player whose time ran out leaves the match (``PlayerLeft``, actor ``clock:N``); the two others
    play on."""
    table_id, _ = clocked.create_table("mau_mau", 3, {"clock": {"move_seconds": 1, "policy": "leave"}})
    for name in ("ann", "bob", "cy"):
        clocked.join(table_id, name)
    clocked.start_match(table_id, OWNER, "start")
    entries = wait_for(clocked, table_id, "TimedOut")
    timed_out = next(e for e in entries if e.name == "TimedOut")
    seat = timed_out.payload["seat"]
    left = entries[timed_out.seq]
    assert (left.name, left.actor, left.payload["seat"]) == ("PlayerLeft", f"clock:{seat}", seat)


def test_the_terminal_says_who_ran_out_of_time() -> None:
    """docs/clock.md C4: the one table event a player is told of."""
    from trapoula.clients.text import describe_event

    timed_out = {"seat": 1, "deadline": "2026-12-02T19:00:00.000Z", "policy": "pass"}
    names = ["ann", "bob"]
    assert describe_event("agonia", "TimedOut", timed_out, names) == "bob ran out of time: the server moves (pass)"
    assert describe_event("agonia", "TimedOut", timed_out, names, 1) == "you ran out of time: the server moves (pass)"
    assert describe_event("agonia", "SeedGiven", {"hand": 1, "seat": 1, "seed": "ab" * 32}, names) is None


def test_a_timed_out_romis_seat_submits_in_one_save_and_its_withheld_moves_stay_unseen(clocked: Tables) -> None:
    """romis R5.2-R5.4 and docs/clock.md C4: each seat that does not submit in its second is moved
    once per round: its ``TimedOut`` is followed, in the same save, by its ``SubmissionSealed``
    (after any ``AuxiliaryUsed`` it needed first, which the other seat never receives, R5.4); and an
    ``AuxiliaryUsed`` does not restart the seat's clock, which would tell the others of it (C2)."""
    table_id, _ = clocked.create_table("romis", 2, {"clock": {"move_seconds": 1}})
    for name in ("ann", "bob"):
        clocked.join(table_id, name)
    clocked.start_match(table_id, OWNER, "start")
    entries = wait_for(clocked, table_id, "TimedOut", 4)
    timed_out = [e for e in entries if e.name == "TimedOut"]
    for e in timed_out[:4]:
        seat = e.payload["seat"]
        save = [x for x in entries[e.seq :] if x.command_id is None][:9]  # the events saved after it
        public = next(x for x in save if x.name != "AuxiliaryUsed")
        assert (public.name, public.actor) == ("SubmissionSealed", f"clock:{seat}")
        assert all(x.actor == f"clock:{seat}" for x in save[: save.index(public)])
    rounds = [(e.payload["seat"], e.payload["deadline"]) for e in timed_out]
    assert len(rounds) == len(set(rounds))


def test_a_withheld_move_does_not_restart_the_clock(clocked: Tables) -> None:
    """docs/clock.md C2 and romis R5.4: an ``AuxiliaryUsed`` of seat 0 (withheld: only seat 0
    receives it) leaves every clock as it was, where a move the others see (here a seed seat 0
    gives, a table event of its own) makes seat 0 due again from its time."""
    table_id, _ = clocked.create_table("romis", 2, {"clock": {"move_seconds": 30}})
    for name in ("ann", "bob"):
        clocked.join(table_id, name)
    clocked.start_match(table_id, OWNER, "start")
    state = clocked._load(table_id).state
    assert state.clock is not None and [seat for seat, _ in state.clock.deadlines()] == [0, 1]
    due = state.clock.due[0]
    assert due is not None
    withheld = Entry(
        state.version + 1, "AuxiliaryUsed", {}, "", "", None, "seat:0", AuxiliaryUsed(0, 1, "7H"), 1, due + 5
    )
    assert tick(state, withheld).clock == state.clock
    public = Entry(state.version + 1, "SeedGiven", {}, "", "", None, "seat:0", None, 1, due + 5)
    ticked = tick(state, public).clock
    assert ticked is not None and ticked.due == (due + 5, state.clock.due[1])


def test_a_seat_away_is_moved_by_the_heuristic_player_so_an_abandoned_match_ends(
    clocked: Tables, deal: dict[str, Any]
) -> None:
    """docs/clock.md C4a: with ``pass`` every agonia turn of an absent seat is two timeouts (draw,
    then pass, R4.3): seats 0, 0, 1, 1, 0, 0.  At its 6th timeout seat 0 has missed 3 in a row,
    so it is away and the ``heuristic`` player moves for it (recorded as the policy applied), where
    passing for ever could keep a match everyone left from ending."""
    table_id, _t0, _t1 = two_people(clocked, {"move_seconds": 1, "policy": "pass"}, deal)
    entries = wait_for(clocked, table_id, "TimedOut", 6)
    timed_out = [e.payload for e in entries if e.name == "TimedOut"][:6]
    assert [p["seat"] for p in timed_out] == [0, 0, 1, 1, 0, 0]
    assert [p["policy"] for p in timed_out] == ["pass"] * 5 + ["heuristic"]


def test_the_clock_waits_out_a_store_outage_and_then_moves_the_seat(
    clocked: Tables, deal: dict[str, Any], monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """docs/clock.md C5: while the store cannot be read the clock pauses (said once in the log, not
    at every look); once it can, the seat whose deadline passed meanwhile is moved, once."""
    import trapoula.service.clocks as clocks

    monkeypatch.setattr(clocks, "RETRY_SECONDS", 0.3)
    recorder = clocked.store.recorder
    real = recorder.max_notification_id

    def down() -> int:
        raise ConnectionError("the store is unreachable")

    monkeypatch.setattr(recorder, "max_notification_id", down)
    monkeypatch.setattr(clocks, "DISCOVER_SECONDS", 0.0)  # every look reads the store
    with caplog.at_level("INFO", logger="trapoula.service.clocks"):
        table_id, _t0, _t1 = two_people(clocked, {"move_seconds": 1, "policy": "pass"}, deal)
        time.sleep(1.8)  # past the deadline, the store still down
        assert not any(e.name == "TimedOut" for e in clocked.stored_events(table_id))
        monkeypatch.setattr(recorder, "max_notification_id", real)
        entries = wait_for(clocked, table_id, "TimedOut")
        deadline = time.monotonic() + WAIT_SECONDS  # said once the look that saved the timeout is over
        while not any("turn clocks running again" in r.getMessage() for r in caplog.records):
            assert time.monotonic() < deadline, "the clock never said it runs again"
            time.sleep(0.05)
    assert [e.payload["seat"] for e in entries if e.name == "TimedOut"][:1] == [0]
    paused = [r for r in caplog.records if "turn clocks paused" in r.getMessage()]
    assert len(paused) == 1 and "the store is unreachable" in paused[0].getMessage()
