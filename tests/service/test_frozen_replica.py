"""A replica frozen in the middle of a save does not stop the other replicas' saves (DESIGN, Storage).

Two server processes on one PostgreSQL schema.  Replica A plays four long bot matches in the
background (a steady stream of saves); the test watches PostgreSQL's lock table until one of
A's connections holds a lock on the event table that a save takes (a save of A in flight), and
at that moment freezes A with SIGSTOP for 10 s.  A save sent in one message is committed by the
server at the message's end without waiting for its client, so half a second into the freeze A
holds no such lock, and every move a person makes through replica B during the freeze is saved
and answered in under a second.  (Before, a replica frozen while idle inside its save's
transaction held ``LOCK TABLE ... IN EXCLUSIVE MODE`` and every replica's saves waited for
PostgreSQL to end its session.)  After SIGCONT, A serves again and its matches go on; every
table's log is gap-free and hash-chained, and every move answered through B is in it once.
"""

from __future__ import annotations

import os
import random
import signal
import threading
import time
import uuid
from pathlib import Path
from typing import Any

import psycopg
import pytest
import sqlalchemy
from grpc_helpers import chained
from processes import ServerProcess, fresh_schema, servers

from trapoula.clients.errors import TrapoulaError
from trapoula.clients.table import TableClient, my_move
from trapoula.domain.bots import choose
from trapoula.service.application import Tables

pytestmark = [pytest.mark.postgres, pytest.mark.process]

SECRET = bytes.fromhex("5e" * 32)
FREEZE_SECONDS = 10.0
"""How long replica A stays frozen."""
PAUSE_LIMIT = 1.0
"""Longest a move through replica B may take while A is frozen."""
CATCH_SECONDS = 10.0
"""How long the test may look for a save of A in flight."""
RECOVERY_SECONDS = 20.0
"""How long A may take to serve again after SIGCONT."""
A_NAME = "trapoula-frozen-a"
"""Replica A's ``application_name`` (how its database sessions are told apart from B's)."""
SAVE_LOCKS = """
    SELECT l.pid, l.mode, s.state
    FROM pg_locks l JOIN pg_stat_activity s ON s.pid = l.pid
    WHERE l.relation = %s::regclass AND l.granted AND l.mode <> 'AccessShareLock' AND s.application_name = %s
"""
"""The locks on the event table that a save takes (a read's ``AccessShareLock`` stands in no
save's way) held by replica A's sessions."""


@pytest.fixture
def pg_url(postgres_url: str | None) -> str:
    """``TEST_DATABASE_URL`` (the PostgreSQL tests skip without it)."""
    if not postgres_url:
        pytest.skip("TEST_DATABASE_URL is not set: the frozen-replica test needs a PostgreSQL database")
    return postgres_url


def _named(url: str, name: str) -> str:
    """``url`` whose sessions carry ``application_name`` ``name``."""
    return sqlalchemy.engine.make_url(url).update_query_dict({"application_name": name}).render_as_string(False)


def _libpq(url: str) -> str:
    """A SQLAlchemy PostgreSQL URL as a libpq connection string."""
    return sqlalchemy.engine.make_url(url).set(drivername="postgresql").render_as_string(hide_password=False)


def _start_both(a: ServerProcess, b: ServerProcess) -> None:
    """Start both processes at once (each takes a few seconds to import and serve)."""
    failures: list[BaseException] = []

    def start(server: ServerProcess) -> None:
        try:
            server.start()
        except BaseException as exc:
            failures.append(exc)

    threads = [threading.Thread(target=start, args=(s,)) for s in (a, b)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert not failures, failures


def _bot_match(address: str, seats: int, target: int) -> str:
    """A started Agonia match of ``seats`` random bots through the server at ``address``."""
    with TableClient(address) as owner:
        created = owner.create_table("agonia", seats=seats, options={"target_points": target})
        for seat in range(seats):
            owner.add_bot(created.table_id, "random", seat=seat)
        owner.token = created.owner_token
        owner.start_match(created.table_id)
    return created.table_id


class Player:
    """A person at seat 0 of an Agonia table for two (a random bot at seat 1) through one
    server, each move timed; a new table when the match is over."""

    def __init__(self, address: str) -> None:
        self.address = address
        self.rng = random.Random(17)
        self.tables: list[str] = []
        self.answered: dict[str, list[str]] = {}
        """Command ids answered OK, by table."""
        self.moves: list[tuple[float, float]] = []
        """``(start, seconds)`` of each move (an ``Act``) answered."""
        self.failures: list[tuple[float, float, TrapoulaError]] = []
        """``(start, seconds, error)`` of each move refused or not answered."""
        self.client = TableClient(address, retry_for=0)
        self._sit()

    def _sit(self) -> None:
        with TableClient(self.address, retry_for=0) as owner:
            created = owner.create_table("agonia", seats=2, options={"target_points": 500})
            table_id = created.table_id
            owner.add_bot(table_id, "random", seat=1)
        self.client.token = None
        self.client.join(table_id, "ann", seat=0)
        self.client.start_match(table_id, token=created.owner_token)  # only the owner starts the match
        self.tables.append(table_id)
        self.answered[table_id] = []

    def move(self) -> None:
        """Make one move (or sit at a new table when the match is over)."""
        table_id = self.tables[-1]
        now = self.client.view(table_id).view
        if now["table"]["status"] == "over":
            self._sit()
            return
        if not my_move(now):
            time.sleep(0.01)
            return
        command_id = str(uuid.uuid4())
        began = time.monotonic()
        try:
            self.client.act(table_id, choose("agonia", now, "random", self.rng), command_id=command_id)
        except TrapoulaError as exc:
            self.failures.append((began, time.monotonic() - began, exc))
            return
        self.moves.append((began, time.monotonic() - began))
        self.answered[table_id].append(command_id)


def _catch_a_save(conninfo: str, events_table: str) -> list[tuple[Any, ...]]:
    """Look at PostgreSQL's locks until one of A's sessions holds a save's lock on the event table;
    returns those locks (empty when none was seen within :data:`CATCH_SECONDS`)."""
    with psycopg.connect(conninfo, autocommit=True) as conn:
        deadline = time.monotonic() + CATCH_SECONDS
        while time.monotonic() < deadline:
            held = conn.execute(SAVE_LOCKS, (events_table, A_NAME), prepare=True).fetchall()
            if held:
                return held
    return []


def _save_locks(conninfo: str, events_table: str) -> list[tuple[Any, ...]]:
    with psycopg.connect(conninfo, autocommit=True) as conn:
        return conn.execute(SAVE_LOCKS, (events_table, A_NAME)).fetchall()


def _events_of(conninfo: str, events_table: str, table_ids: list[str]) -> int:
    with psycopg.connect(conninfo, autocommit=True) as conn:
        row = conn.execute(
            f"SELECT count(*) FROM {events_table} WHERE originator_id = ANY(%s::uuid[])", (table_ids,)
        ).fetchone()
    assert row is not None
    return int(row[0])


def test_a_replica_frozen_in_the_middle_of_a_save_pauses_the_other_replicas_saves_for_under_a_second(
    pg_url: str, tmp_path: Path
) -> None:
    """Replica A plays four four-bot matches (random bots, 500 points); B serves a person playing
    against a bot.  A is frozen (SIGSTOP) for 10 s at a moment one of its sessions holds a save's
    lock on the event table.  Half a second later none of A's sessions holds one; every move
    through B during the freeze (at least 20 of them) is answered in under a second.  After
    SIGCONT, A saves again (its matches' logs grow) and answers new commands (a table made, two
    bots seated); then both
    replicas stop and every table's log, read afresh, is gap-free and hash-chained, with every
    move answered through B in it exactly once."""
    conninfo = _libpq(pg_url)
    with fresh_schema(pg_url) as schema, servers(tmp_path) as started:
        events_table = f'"{schema}".trapoula_events'
        a = ServerProcess(_named(pg_url, A_NAME), tmp_path / "a.log", schema=schema)
        b = ServerProcess(pg_url, tmp_path / "b.log", schema=schema)
        started.extend((a, b))
        _start_both(a, b)
        person = Player(b.address)
        for _ in range(3):
            person.move()
        busy = [_bot_match(a.address, 4, 500) for _ in range(4)]

        caught = _catch_a_save(conninfo, events_table)
        os.kill(a.pid, signal.SIGSTOP)
        frozen_at = time.monotonic()
        try:
            assert caught, f"no save of replica A seen in flight within {CATCH_SECONDS}s:\n{a.log_tail()}"
            time.sleep(0.5)
            held = _save_locks(conninfo, events_table)
            saved_at_freeze = _events_of(conninfo, events_table, busy)
            moves_before = len(person.moves)
            while time.monotonic() < frozen_at + FREEZE_SECONDS:
                person.move()
                time.sleep(0.02)
        finally:
            os.kill(a.pid, signal.SIGCONT)
        assert not person.failures, f"moves through B failed while A was frozen (A's locks: {held}): {person.failures}"
        during = [seconds for began, seconds in person.moves[moves_before:] if began < frozen_at + FREEZE_SECONDS]
        assert len(during) >= 20, f"only {len(during)} moves through B while A was frozen"
        assert max(during) < PAUSE_LIMIT, f"a move through B took {max(during):.2f}s while A was frozen: {during}"
        assert not held, f"frozen replica A holds the event table's lock: {held} (caught at {caught})"

        with TableClient(a.address, retry_for=RECOVERY_SECONDS) as owner:
            check = owner.create_table("agonia", seats=2, options={"target_points": 0}).table_id
            owner.add_bot(check, "random", seat=0)
            owner.add_bot(check, "random", seat=1)
            assert owner.view(check).version == 4  # TableCreated, SeedCommitted (docs/shuffle.md 2a), 2 bots
        deadline = time.monotonic() + RECOVERY_SECONDS
        while _events_of(conninfo, events_table, busy) <= saved_at_freeze:
            assert time.monotonic() < deadline, f"replica A's matches did not go on after SIGCONT:\n{a.log_tail()}"
            time.sleep(0.1)
        person.client.close()
        assert a.terminate() == 0, a.log_tail()
        assert b.terminate() == 0, b.log_tail()

        store = Tables(pg_url, SECRET, schema=schema)
        try:
            for table_id in [*busy, check, *person.tables]:
                chained(store.stored_events(table_id))
            for table_id, answered in person.answered.items():
                logged = [e.command_id for e in store.stored_events(table_id) if e.actor == "seat:0" and e.command_id]
                moves = [c for c in dict.fromkeys(logged) if c in set(answered)]
                assert moves == answered  # each answered move stored, in the order answered
        finally:
            store.close()


WATCH_FAILOVER_SECONDS = 35.0
"""How long an open watch may take to leave a frozen replica and yield an event made on the other:
the client pings every 20 s and gives up on a ping unanswered for 10 s (docs/replicas.md, Faults:
"about 30 seconds"), then reconnects and reads from its last version."""


def test_a_watch_on_a_frozen_replica_resumes_on_the_other_within_about_thirty_seconds(
    pg_url: str, tmp_path: Path
) -> None:
    """A spectator watches a new table through replica A (``TableClient("A,B")``); A is frozen
    (SIGSTOP), and a seat is taken through replica B.  The watch gives A up and resumes on B
    within :data:`WATCH_FAILOVER_SECONDS` of the freeze, and yields the ``SeatTaken`` event made
    through B, once.  (gRPC waits for a ping's answer 60 s unless told otherwise: the watch took
    80 s.)"""
    with fresh_schema(pg_url) as schema, servers(tmp_path) as started:
        a = ServerProcess(pg_url, tmp_path / "a.log", schema=schema)
        b = ServerProcess(pg_url, tmp_path / "b.log", schema=schema)
        started.extend((a, b))
        _start_both(a, b)
        with TableClient(b.address) as maker:
            table_id = maker.create_table("agonia", seats=2).table_id
        seen: list[tuple[float, int, str]] = []
        failure: list[BaseException] = []

        def spectate() -> None:
            try:
                with TableClient(f"{a.address},{b.address}") as spectator, spectator.watch(table_id) as updates:
                    for update in updates:
                        seen.append((time.monotonic(), update.version, update.name))
                        if update.name == "SeatTaken":
                            return
            except BaseException as exc:
                failure.append(exc)

        watcher = threading.Thread(target=spectate, daemon=True)
        watcher.start()
        deadline = time.monotonic() + 10.0
        while not seen and time.monotonic() < deadline:  # the watch is open on A: it sent the table's start
            time.sleep(0.05)
        assert seen, f"the watch on A sent nothing: {failure}\n{a.log_tail()}"
        os.kill(a.pid, signal.SIGSTOP)
        frozen_at = time.monotonic()
        try:
            with TableClient(b.address) as player:
                player.join(table_id, "late", seat=0)
            watcher.join(WATCH_FAILOVER_SECONDS + 5.0)
        finally:
            os.kill(a.pid, signal.SIGCONT)
        assert not failure, failure
        joined = [(at, version) for at, version, name in seen if name == "SeatTaken"]
        assert len(joined) == 1, f"SeatTaken seen {len(joined)} times: {seen}"
        assert joined[0][0] - frozen_at <= WATCH_FAILOVER_SECONDS, f"after {joined[0][0] - frozen_at:.1f} s"
        versions = [version for _, version, _ in seen]
        assert versions == sorted(set(versions)), f"an event repeated or out of order: {versions}"
