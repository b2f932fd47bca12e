"""Turn clocks across replicas and restarts (docs/clock.md C5): the deadlines live in the log, so a
seat whose time runs out is moved once, by whichever replica is alive, after the deadline.

Real server processes (``python -m trapoula.service``): two replicas on one PostgreSQL schema, and
one process on SQLite killed and started again.  Each seat has two seconds a move and the ``pass``
policy (draw, then pass, C4; the heuristic player once the seat is away, C4a); nobody moves the
person's seat but the clock.
"""

from __future__ import annotations

import time
from datetime import datetime
from pathlib import Path
from typing import Any

import pytest
from processes import ServerProcess, servers

from trapoula.clients.table import TableClient
from trapoula.service.application import Tables
from trapoula.service.entries import Entry

pytestmark = pytest.mark.process  # server processes

CLOCK = {"move_seconds": 2, "policy": "pass"}
WAIT_SECONDS = 40.0
"""Longest wait for the timeouts a test expects."""


def stored(url: str, schema: str | None, table_id: str) -> list[Entry]:
    """The table's stored events, read afresh (hash chain checked) by a ``Tables`` that keeps no clock."""
    tables = Tables(url, bytes.fromhex("5e" * 32), schema=schema)
    try:
        return list(tables.stored_events(table_id))
    finally:
        tables.close()


def wait_timeouts(url: str, schema: str | None, table_id: str, count: int) -> list[Entry]:
    """The stored events once ``count`` ``TimedOut`` are among them."""
    deadline = time.monotonic() + WAIT_SECONDS
    while time.monotonic() < deadline:
        entries = stored(url, schema, table_id)
        if sum(e.name == "TimedOut" for e in entries) >= count:
            return entries
        time.sleep(0.25)
    raise AssertionError(f"fewer than {count} TimedOut within {WAIT_SECONDS} s")


def check_once(entries: list[Entry]) -> list[Entry]:
    """Each ``TimedOut`` is stored once per deadline, no earlier than it, and followed by the move
    made for its seat (actor ``clock:N``); returns the ``TimedOut`` events."""
    timed_out = [e for e in entries if e.name == "TimedOut"]
    keys = [(e.payload["seat"], e.payload["deadline"]) for e in timed_out]
    assert len(keys) == len(set(keys)), keys
    for e in timed_out:
        deadline = datetime.fromisoformat(e.payload["deadline"].replace("Z", "+00:00")).timestamp()
        assert e.at >= deadline - 0.001
        after = entries[e.seq]  # the event after it
        assert after.actor == f"clock:{e.payload['seat']}"
    return timed_out


def one_person_table(address: str) -> str:
    """An agonia table with the time control :data:`CLOCK`: ann in seat 0, a heuristic bot in seat 1;
    started.  Returns its id."""
    with TableClient(address) as owner:
        table_id = owner.create_table("agonia", 2, options={"target_points": 0, "clock": CLOCK}).table_id
        owner.join(table_id, "ann", seat=0)
        owner.add_bot(table_id, "heuristic", seat=1)
        owner.start_match(table_id)
    return table_id


@pytest.mark.postgres
def test_two_replicas_move_a_timed_out_seat_once_and_the_survivor_after_the_other_is_killed(
    postgres_store: Any, tmp_path: Path
) -> None:
    """Both replicas keep the clock of a table created on A: each timeout is saved once (the other
    replica's save collides and finds nothing due).  Then A is killed (SIGKILL): B goes on moving
    the seat after each deadline, from the deadlines in the log."""
    url, schema = postgres_store.url, postgres_store.schema
    with servers(tmp_path) as started:
        for name in ("a", "b"):
            started.append(ServerProcess(url, tmp_path / f"replica-{name}.log", schema=schema).start())
        a, _b = started
        table_id = one_person_table(a.address)
        first = check_once(wait_timeouts(url, schema, table_id, 2))
        a.kill()
        killed_at = time.time()
        entries = wait_timeouts(url, schema, table_id, len(first) + 2)
        later = [e for e in check_once(entries) if e.at > killed_at]
        assert len(later) >= 2  # moved by B alone
        timed_out = check_once(entries)
        assert all(e.payload["seat"] == 0 for e in timed_out)
        policies = [e.payload["policy"] for e in timed_out]  # C4a: away after 3 in a row
        assert policies[:3] == ["pass"] * 3 and set(policies[3:]) == {"heuristic"}


def test_a_restarted_server_moves_the_seat_whose_time_ran_out_while_it_was_down(tmp_path: Path) -> None:
    """One server on SQLite is killed right after the match starts and started again after the
    seat's deadline: it finds the table in the log and moves the seat at once (C5)."""
    url = f"sqlite:///{tmp_path / 'trapoula.sqlite3'}"
    with servers(tmp_path) as started:
        first = ServerProcess(url, tmp_path / "first.log").start()
        started.append(first)
        table_id = one_person_table(first.address)
        first.kill()
        assert not any(e.name == "TimedOut" for e in stored(url, None, table_id))
        time.sleep(CLOCK["move_seconds"] + 0.5)  # the deadline passes while no server runs
        restarted_at = time.time()
        started.append(ServerProcess(url, tmp_path / "second.log").start())
        timed_out = check_once(wait_timeouts(url, None, table_id, 1))
        assert timed_out[0].at >= restarted_at
