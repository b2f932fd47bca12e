"""``trapoula load``: the figures it prints, short runs against a real server, bad usage.

The runs play against an in-process server (port 0) on a SQLite file in a temporary folder;
afterwards the test reads the server's store to check what the load generator says it did.
"""

from __future__ import annotations

import asyncio
import gc
import io
import itertools
import math
import os
import random
import re
import signal
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from trapoula.clients import load
from trapoula.clients.cli import main
from trapoula.clients.load import Latencies, Snapshot, Spread, interval_line, percentile
from trapoula.service.application import Tables
from trapoula.service.server import create_server, start_server, stop_server

pytestmark = pytest.mark.timeout(120)

SECRET = bytes.fromhex("5e" * 32)
LINE = re.compile(
    r"^t +(?P<t>\d+\.\d)s \| commands (?P<commands>\d+) \+\d+ [\d.]+/s \| act ms p50/p90/p99/max (\S+) "
    r"\(run (\S+)\) \| streamed [\d.]+/s \| matches (?P<matches>\d+) \+\d+ \| errors (?P<errors>.+)$"
)


class Served:
    """A grpc.aio server for ``tables`` on port 0, in its own event loop thread."""

    def __init__(self, tables: Tables) -> None:
        self.tables = tables
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, name="test-load-server", daemon=True)
        self.thread.start()

        async def start() -> tuple[Any, int]:
            server, port = create_server("127.0.0.1:0", tables, poll_seconds=1.0)
            await start_server(server)
            return server, port

        self.server, port = asyncio.run_coroutine_threadsafe(start(), self.loop).result(10)
        self.address = f"127.0.0.1:{port}"

    def stop(self) -> None:
        asyncio.run_coroutine_threadsafe(stop_server(self.server, grace=0.5), self.loop).result(10)
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(timeout=10)
        self.loop.close()


@pytest.fixture
def served(tmp_path: Path) -> Iterator[Served]:
    tables = Tables(f"sqlite:///{tmp_path / 'load.sqlite3'}", SECRET)
    server = Served(tables)
    try:
        yield server
    finally:
        server.stop()
        tables.close()


def _run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, list[str], str]:
    out = io.StringIO()
    code = main(["load", *argv], out=out)
    return code, out.getvalue().splitlines(), capsys.readouterr().err


def _summary(lines: list[str]) -> dict[str, str]:
    """The summary block's rows, by their first word."""
    start = next(i for i, line in enumerate(lines) if line.startswith("summary: "))
    return {line.split()[0]: line for line in lines[start + 1 :] if line.startswith("  ") and line.split()}


# --------------------------------------------------------------------------- figures


def test_percentile_is_the_nearest_rank() -> None:
    values = [float(v) for v in range(1, 11)]  # 1..10 ms
    assert percentile(values, 50) == 5.0  # ceil(0.5 * 10) = 5th value
    assert percentile(values, 90) == 9.0
    assert percentile(values, 99) == 10.0  # ceil(9.9) = 10th
    assert percentile(values, 100) == 10.0
    assert percentile([7.0], 50) == 7.0
    assert percentile([1.0, 2.0, 3.0], 34) == 2.0  # ceil(1.02) = 2nd
    with pytest.raises(ValueError, match="no values"):
        percentile([], 50)
    with pytest.raises(ValueError, match="outside"):
        percentile([1.0], 0)


def test_latencies_give_the_interval_and_the_whole_run() -> None:
    lat = Latencies()
    for ms in (30.0, 10.0, 20.0, 40.0):
        lat.add(ms)
    interval, run = lat.roll()
    assert interval == run == Spread(4, 20.0, 40.0, 40.0, 40.0)
    assert lat.roll() == (None, run)  # an interval without calls: the run's figures stay
    for ms in (5.0, 100.0):
        lat.add(ms)
    interval, run = lat.roll()
    assert interval == Spread(2, 5.0, 100.0, 100.0, 100.0)
    # the run: 5 10 20 30 40 100 -> p50 the 3rd (20), p90 the 6th (ceil 5.4), p99 the 6th
    assert run == Spread(6, 20.0, 100.0, 100.0, 100.0)
    assert run.text() == "20.0/100.0/100.0/100.0"


def test_interval_line_says_rates_over_the_interval() -> None:
    before = Snapshot(5.0, 100, 1000, 1, 4, {})
    now = Snapshot(10.0, 350, 3500, 3, 6, {"UNAVAILABLE": 1, "FAILED_PRECONDITION": 2})
    line = interval_line(before, now, Spread(250, 12.34, 30.0, 80.0, 120.0), Spread(350, 11.0, 29.0, 85.0, 130.0))
    assert line == (
        "t  10.0s | commands 350 +250 50.0/s | act ms p50/p90/p99/max 12.3/30.0/80.0/120.0 "
        "(run 11.0/29.0/85.0/130.0) | streamed 500.0/s | matches 3 +2 "
        "| errors 3 (FAILED_PRECONDITION 2, UNAVAILABLE 1)"
    )
    assert interval_line(now, now, None, None).endswith("| errors 3 (FAILED_PRECONDITION 2, UNAVAILABLE 1)")
    assert "act ms p50/p90/p99/max - (run -)" in interval_line(before, before, None, None)


# --------------------------------------------------------------------------- runs


def test_a_short_run_plays_matches_to_the_end_and_the_store_holds_its_commands(
    served: Served, capsys: pytest.CaptureFixture[str]
) -> None:
    """Three single-hand tables until two matches have ended (a few seconds)."""
    argv = ["--address", served.address, "--tables", "3", "--game", "crazy_eights", "--seats", "2", "--seed", "7"]
    code, lines, err = _run([*argv, "--duration", "60", "--matches", "2", "--every", "0.5"], capsys)
    assert code == 0, "\n".join([*lines[-8:], err])
    assert err == ""
    assert lines[0] == (
        f"load: 3 crazy_eights tables of 2 heuristic bots at {served.address} for 60 s or 2 matches, "
        "1 spectator stream(s) per table, options default; a line every 0.5 s"
    )
    ticks = [m for m in map(LINE.match, lines) if m]
    stamps = [float(m["t"]) for m in ticks]
    assert stamps and stamps == sorted(stamps) and len(set(stamps)) == len(stamps)  # one line per interval
    assert all(t >= 0.5 * (i + 1) for i, t in enumerate(stamps[:-1]))  # never early (late on a busy machine)
    assert all(m["errors"] == "0" for m in ticks)
    rows = _summary(lines)
    assert rows["errors"].split() == ["errors", "none"]
    commands = int(rows["commands"].split()[1])
    created, matches = (int(n) for n in re.findall(r"\d+", rows["tables"]))
    assert commands >= int(ticks[-1]["commands"]) > 0  # (a reply may land between the last line and the summary)
    assert matches >= int(ticks[-1]["matches"]) and matches >= 2
    assert created >= 3  # each ended match's table is replaced, but the run may end first

    # the store holds what the figures count; a call cut short by the end of the run (at most one
    # a table: a CreateTable, or the Act of the seat to play) may be stored without being counted
    app = served.tables
    ids = list(app.table_ids())
    assert created <= len(ids) <= created + 3
    logs = [app.stored_events(tid) for tid in ids]
    over = [log for log in logs if log[-1].name == "MatchEnded"]
    assert matches <= len(over) <= matches + 3
    # a seat's Act stores its events under its command id (SeatTaken has none)
    seat_commands = {e.command_id for log in logs for e in log if e.actor.startswith("seat:") and e.command_id}
    assert commands <= len(seat_commands) <= commands + 3


class _Thresholds(io.StringIO):
    """An output that notes the collector's thresholds each time a line is printed."""

    def __init__(self) -> None:
        super().__init__()
        self.seen: set[tuple[int, int, int]] = set()

    def write(self, text: str) -> int:
        self.seen.add(gc.get_threshold())
        return super().write(text)


def test_a_run_tunes_the_collector_and_puts_it_back(served: Served) -> None:
    before = gc.get_threshold()
    assert before != load.GC_THRESHOLDS
    out = _Thresholds()
    plan = load.LoadPlan(served.address, tables=2, duration=0.5, game="crazy_eights", seats=2, seed=3, every=0.2)
    result = load.run_load(plan, out)
    assert result.final.commands > 0
    assert out.seen == {(2_000, 1, 5_000)}  # every line, the summary too, printed during the run
    assert gc.get_threshold() == before
    assert gc.get_freeze_count() == 0


def test_a_bot_refused_by_the_rules_is_counted_and_the_run_goes_on(
    served: Served, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A wrong bot (it draws when it may not): FAILED_PRECONDITION counted, tables replaced, exit 1."""
    monkeypatch.setattr(load, "ERROR_PAUSE", 0.05)
    picks: list[Any] = []

    def wrong(game: str, view: Any, level: str, rng: Any) -> dict[str, Any]:
        picks.append(view)
        return {"kind": "choose_suit", "suit": "H"}  # only legal after an ace up-card (R7.2)

    monkeypatch.setattr(load, "choose", wrong)
    argv = ["--address", served.address, "--tables", "1", "--seats", "2", "--duration", "1.5", "--every", "5"]
    code, lines, err = _run(argv, capsys)
    assert code == 1, "\n".join(lines)
    assert err == "trapoula load: " + err.removeprefix("trapoula load: ")
    assert re.fullmatch(r"trapoula load: \d+ error\(s\) during the run; the summary lists them by kind\n", err)
    rows = _summary(lines)
    only = re.fullmatch(r"\s*errors\s+(\d+) \(FAILED_PRECONDITION \1\)", rows["errors"])
    assert only is not None, rows["errors"]
    refused = int(only[1])
    assert refused >= 2  # the slot went on with a new table after the first refusal
    created = int(rows["tables"].split()[1])
    assert refused <= created <= refused + 1  # each refusal abandoned its table; the last may be cut short
    example = next(line for line in lines if line.startswith("    FAILED_PRECONDITION: table "))
    assert "[" in example  # the server's [reason, rule] tag
    assert rows["commands"].split()[1] == "0"
    assert refused <= len(picks) <= refused + 1  # the last pick's call may be cut short by the end of the run


def test_ctrl_c_stops_cleanly_with_the_summary(served: Served, capsys: pytest.CaptureFixture[str]) -> None:
    if threading.current_thread() is not threading.main_thread():
        pytest.skip("SIGINT reaches the main thread only")
    timer = threading.Timer(1.0, os.kill, (os.getpid(), signal.SIGINT))
    timer.start()
    try:
        argv = ["--address", served.address, "--tables", "2", "--seats", "2", "--duration", "60"]
        code, lines, err = _run(argv, capsys)
    finally:
        timer.cancel()
    assert code == 130
    assert err == "trapoula load: interrupted\n"
    summary = next(line for line in lines if line.startswith("summary: "))
    seconds = float(re.findall(r"interrupted after ([\d.]+) s", summary)[0])
    assert 0.5 < seconds < 30
    assert _summary(lines)["errors"].split() == ["errors", "none"]


# --------------------------------------------------------------------------- paced (open loop)

PACED_LINE = re.compile(
    r"^t +(?P<t>\d+\.\d)s \| commands (?P<commands>\d+) \+\d+ (?P<rate>[\d.]+)/s \(target (?P<target>[\d.]+)/s\) "
    r"\| act ms p50/p90/p99/max (\S+) \(run (\S+)\) \| streamed [\d.]+/s \| matches \d+ \+\d+ \| errors (?P<errors>.+)$"
)


def _act_ms(row: str) -> tuple[float, float, float, float]:
    """p50, p90, p99 and max of the summary's ``Act ms`` row."""
    found = re.fullmatch(r"  Act ms    p50 (\S+)  p90 (\S+)  p99 (\S+)  max (\S+)( from each move's due time)?", row)
    assert found is not None, row
    return float(found[1]), float(found[2]), float(found[3]), float(found[4])


def _send_lag(row: str) -> tuple[float, float, int]:
    """p50, max and the count of moves of the summary's ``send`` lag row."""
    found = re.fullmatch(
        r"  send lag  p50 (\S+)  p90 \S+  p99 \S+  max (\S+) ms after the due time, "
        r"of the (\d+) moves ready before it \(this generator's own lag\)",
        row,
    )
    assert found is not None, row
    return float(found[1]), float(found[2]), int(found[3])


def test_a_pace_is_a_poisson_schedule_and_counts_the_moves_due() -> None:
    pace = load._Pace(4.0, random.Random(11))
    pace.start(100.0)
    dues = [pace.take() for _ in range(20_000)]
    assert dues == sorted(dues) and dues[0] > 100.0
    gaps = [b - a for a, b in itertools.pairwise(dues)]
    assert sum(gaps) / len(gaps) == pytest.approx(0.25, rel=0.03)  # 4 a second on average
    assert sum(g < 0.25 for g in gaps) / len(gaps) == pytest.approx(1 - math.exp(-1), abs=0.02)  # exponential
    # moves due by a time: the taken ones at or before it, and those still to take
    assert pace.due_by(dues[99]) == 100
    assert pace.due_by(100.0) == 0
    fresh = load._Pace(4.0, random.Random(11))
    fresh.start(100.0)
    fresh.take()
    assert fresh.due_by(dues[9]) == 10  # one taken, nine counted ahead without being drawn
    assert fresh.take() == dues[1]  # ... and counting drew nothing
    fresh.closed = dues[4]
    assert fresh.due_by(dues[9]) == 5  # a table that stopped playing has no moves due after
    # a bot may take a move before the table's schedule was started: it begins then, once
    lazy = load._Pace(4.0, random.Random(11))
    before = time.perf_counter()
    first = lazy.take()
    assert first > before
    lazy.start(0.0)
    assert lazy.take() > first


def test_a_paced_run_makes_the_moves_due_at_the_rate_and_the_store_holds_them(
    served: Served, capsys: pytest.CaptureFixture[str]
) -> None:
    """4 agonia tables, 24 moves a second in all, for 5 s: about 120 moves, each made when due."""
    argv = ["--address", served.address, "--tables", "4", "--seats", "2", "--rate", "24", "--seed", "5"]
    code, lines, err = _run([*argv, "--duration", "5", "--every", "1"], capsys)
    assert code == 0, "\n".join([*lines[-10:], err])
    assert err == ""
    assert lines[1] == (
        "paced: 24 moves/s in all, each table 6/s on average (Poisson); Act latency counted from each move's due time"
    )
    assert re.fullmatch(r"set up 4 table\(s\) in [\d.]+ s \(errors 0\); the clock starts", lines[2])
    ticks = [m for m in map(PACED_LINE.match, lines) if m]
    assert len(ticks) >= 5 and all(m["target"] == "24.0" and m["errors"] == "0" for m in ticks)
    rows = _summary(lines)
    assert rows["errors"].split() == ["errors", "none"]
    made = int(rows["commands"].split()[1])
    scheduled, behind = (int(n) for n in re.findall(r"\d+", rows["schedule"]))
    assert 0.7 * 120 <= scheduled <= 1.3 * 120  # a Poisson count of mean 120 (sd 11)
    assert made + behind == scheduled
    assert behind <= max(4, scheduled // 10)  # the moves in flight when the run ended (a busy machine: a few more)
    assert abs(made / 5.0 - 24.0) <= 0.3 * 24.0  # the achieved rate
    assert rows["commands"].startswith(f"  commands  {made} Act calls, ") and "(target 24.0/s)" in rows["commands"]
    p50, _p90, p99, _max = _act_ms(rows["Act"])
    assert 0 < p50 <= p99
    # the bots wait for most moves (a table's gaps, 1/6 s on average, are mostly longer than a
    # call and its stream message, even on a busy machine): the send lag counts those, each a
    # move made, none sent before its due time
    lag_p50, lag_max, ready = _send_lag(rows["send"])
    assert made // 4 <= ready <= made and 0 <= lag_p50 <= lag_max
    # each counted move is a seat's command in the store (a call cut short at the end may be stored too)
    app = served.tables
    logs = [app.stored_events(tid) for tid in app.table_ids()]
    assert len(logs) == 4
    seat_commands = {e.command_id for log in logs for e in log if e.actor.startswith("seat:") and e.command_id}
    assert made <= len(seat_commands) <= made + 4


def test_a_paced_run_counts_latency_from_the_due_time_when_the_server_falls_behind(
    served: Served, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every Act takes 0.2 s on the server; one table is due 20 moves a second: it makes about 5,
    the others fall behind, and the latency counted from their due times grows past a second."""
    act = served.tables.act

    def slow(*args: Any, **kwargs: Any) -> Any:
        time.sleep(0.2)
        return act(*args, **kwargs)

    monkeypatch.setattr(served.tables, "act", slow)
    argv = ["--address", served.address, "--tables", "1", "--seats", "2", "--rate", "20", "--seed", "2"]
    code, lines, err = _run([*argv, "--duration", "3", "--every", "3", "--watchers", "0"], capsys)
    assert code == 0, "\n".join([*lines[-10:], err])
    rows = _summary(lines)
    made = int(rows["commands"].split()[1])
    scheduled, behind = (int(n) for n in re.findall(r"\d+", rows["schedule"]))
    assert 6 <= made <= 15  # one at a time, each at least 0.2 s
    assert scheduled >= 35 and behind == scheduled - made  # about 60 were due
    p50, _p90, _p99, most = _act_ms(rows["Act"])
    assert p50 >= 200.0  # never less than the server's own time
    assert most >= 1000.0  # the last moves were made long after they were due
    # behind from its second move on, a bot is never ready before a move is due: no send lag
    # counts the server's slowness (only the first moves, due before the first reply, may be early)
    assert "send" not in rows or _send_lag(rows["send"])[2] <= 2


def test_the_send_lag_shows_a_load_generator_short_of_time(
    served: Served, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each bot's choice holds the load generator's event loop for 30 ms (a generator short of
    CPU): bots waiting for their moves' due times wake late behind it, and the send lag says so."""
    choose = load.choose

    def busy(*args: Any, **kwargs: Any) -> Any:
        time.sleep(0.03)  # blocks the one event loop every bot runs on
        return choose(*args, **kwargs)

    monkeypatch.setattr(load, "choose", busy)
    argv = ["--address", served.address, "--tables", "4", "--seats", "2", "--rate", "12", "--seed", "3"]
    code, lines, err = _run([*argv, "--duration", "4", "--every", "4", "--watchers", "0"], capsys)
    assert code == 0, "\n".join([*lines[-10:], err])
    rows = _summary(lines)
    made = int(rows["commands"].split()[1])
    _p50, lag_max, ready = _send_lag(rows["send"])
    # about 48 moves, 36 % of the time blocked: moves due in a blocked stretch are sent at its end,
    # up to 30 ms late (with no blocking the lag stays well under 5 ms: the paced test above)
    assert 0 < ready <= made and lag_max >= 10.0


def test_a_table_is_caught_up_once_every_stream_has_the_start_s_last_event() -> None:
    async def scenario() -> None:
        table = load._Table("t", None, streams=3)
        table.saw(0, 5)
        table.saw(2, 9)
        assert not table.started.is_set() and not table.caught_up.is_set()
        table.expect(7)  # the start's last event is version 7
        assert table.started.is_set() and table.target == 7
        assert not table.caught_up.is_set()  # stream 0 has 5, stream 1 nothing yet
        table.saw(1, 7)
        table.saw(0, 6)
        assert not table.caught_up.is_set() and table.heads == [6, 7, 9]
        table.saw(0, 7)
        assert table.caught_up.is_set()
        early = load._Table("u", None, streams=2)
        early.saw(0, 4)
        early.saw(1, 4)
        early.expect(4)  # every stream had it before the answer came
        assert early.caught_up.is_set()

    asyncio.run(scenario())


def test_set_up_first_starts_the_clock_once_every_table_plays(
    served: Served, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A table counts as set up once its match has started and every one of its streams (the
    bots' and the spectator's) has received the start's last event."""
    made: list[Any] = []

    class Recorded(load._Table):
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__(*args, **kwargs)
            made.append(self)

    ready_at: list[list[tuple[int | None, list[int]]]] = []
    slot_ready = load._Run.slot_ready

    def noted(run: Any) -> None:  # each table's state when its slot says it is set up
        ready_at.append([(t.target, list(t.heads)) for t in made])
        slot_ready(run)

    monkeypatch.setattr(load, "_Table", Recorded)
    monkeypatch.setattr(load._Run, "slot_ready", noted)
    argv = ["--address", served.address, "--tables", "3", "--seats", "2", "--set-up-first", "--game", "crazy_eights"]
    code, lines, err = _run([*argv, "--duration", "60", "--matches", "1", "--every", "5"], capsys)
    assert code == 0, "\n".join([*lines[-10:], err])
    assert re.fullmatch(r"set up 3 table\(s\) in [\d.]+ s \(errors 0\); the clock starts", lines[1])
    rows = _summary(lines)
    assert re.fullmatch(r"  set up    3 tables in [\d.]+ s, before the clock started", rows["set"])
    assert "closed loop" in next(line for line in lines if line.startswith("summary: "))
    assert "schedule" not in rows and int(rows["commands"].split()[1]) > 0
    assert len(ready_at) == 3 and len(made) >= 3
    for ready, tables_then in enumerate(ready_at, 1):  # the ready ones, and others still being set up
        caught_up = [t for t, heads in tables_then if t is not None and len(heads) == 3 and min(heads) >= t > 0]
        assert len(caught_up) >= ready, tables_then


# --------------------------------------------------------------------------- bad usage


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--tables", "0"], "argument --tables: '0' is not at least 1"),
        (["--duration", "-1"], "argument --duration: '-1' is not a positive number of seconds"),
        (["--duration", "nan"], "argument --duration: 'nan' is not a positive number of seconds"),
        (["--every", "often"], "argument --every: 'often' is not a number of seconds"),
        (["--watchers", "-1"], "argument --watchers: '-1' is below 0"),
        (["--rate", "0"], "argument --rate: '0' is not a positive number of moves per second"),
        (["--rate", "inf"], "argument --rate: 'inf' is not a positive number of moves per second"),
        (["--rate", "fast"], "argument --rate: 'fast' is not a number of moves per second"),
        (["--game", "chess"], "argument --game: invalid choice: 'chess'"),
        (["--option", "target_points"], "argument --option: 'target_points' is not KEY=VALUE"),
    ],
)
def test_bad_flags_exit_2_with_a_clear_message(
    argv: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as exited:
        main(["load", "--address", "127.0.0.1:1", *argv], out=io.StringIO())
    assert exited.value.code == 2
    assert message in capsys.readouterr().err


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--seats", "5"], "trapoula load: --seats 5: agonia seats 2 to 4 players\n"),
        (["--game", "vida", "--seats", "3"], "trapoula load: --seats 3: vida seats 4 to 4 players\n"),
        (["--bots", "genius"], "trapoula load: --bots 'genius' is not a level of agonia; choose one of random, "),
        (["--option", "nope=1"], "trapoula load: unknown agonia option 'nope'; known: "),
        (["--game", "agonia", "--target", "-5"], "trapoula load: "),
    ],
)
def test_unusable_settings_exit_2_before_connecting(
    argv: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    out = io.StringIO()
    code = main(["load", "--address", "127.0.0.1:1", *argv], out=out)
    err = capsys.readouterr().err
    assert (code, out.getvalue()) == (2, ""), err
    assert err.startswith(message) and err.count("\n") == 1


def test_an_unreachable_server_is_one_line_and_exit_1(capsys: pytest.CaptureFixture[str]) -> None:
    out = io.StringIO()
    assert main(["load", "--address", "127.0.0.1:1", "--duration", "1"], out=out) == 1
    err = capsys.readouterr().err
    assert err.startswith("trapoula load: no answer from the trapoula server at 127.0.0.1:1: UNAVAILABLE: ")
    assert err.count("\n") == 1
    assert out.getvalue() == ""


def test_several_replicas_are_each_probed_before_the_run(served: Served, capsys: pytest.CaptureFixture[str]) -> None:
    """``--address A,B`` spreads the tables over both replicas; one that does not answer stops the
    run before it starts, naming the addresses."""
    out = io.StringIO()
    both = f"{served.address},127.0.0.1:1"
    assert main(["load", "--address", both, "--duration", "1"], out=out) == 1
    err = capsys.readouterr().err
    assert err.startswith(f"trapoula load: no answer from the trapoula server at {both}: UNAVAILABLE: ")
    assert out.getvalue() == ""


def test_a_run_over_two_addresses_of_one_server_plays(served: Served, capsys: pytest.CaptureFixture[str]) -> None:
    """The same server listed twice (two "replicas"): the run plays and ends without error."""
    argv = ["--address", f"{served.address},{served.address}", "--tables", "2", "--game", "crazy_eights"]
    code, lines, err = _run([*argv, "--seats", "2", "--duration", "60", "--matches", "1", "--every", "5"], capsys)
    assert code == 0, "\n".join([*lines[-8:], err])
    assert _summary(lines)["errors"].split() == ["errors", "none"]


def test_vida_bots_go_on_from_a_fresh_view_when_the_stream_is_behind(
    served: Served, capsys: pytest.CaptureFixture[str]
) -> None:
    """vida: the view streamed with an event in the middle of another seat's command (the last
    pass of the auction, before the contract is set, R4) may offer a move the table no longer
    takes; the bot is refused, reads the current view and plays on: no error."""
    argv = ["--address", served.address, "--tables", "2", "--game", "vida", "--seed", "3"]
    code, lines, err = _run([*argv, "--duration", "6", "--every", "6"], capsys)
    assert code == 0, "\n".join([*lines[-8:], err])
    summary = next(line for line in lines if line.startswith("  errors"))
    assert summary == "  errors    none"
    commands = next(line for line in lines if line.startswith("  commands"))
    assert int(commands.split()[1]) > 50
