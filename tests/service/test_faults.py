"""Faults the service survives with nothing lost (DESIGN, Storage; Errors).

* The database unreachable for a while (a proxy between a replica and PostgreSQL is cut): calls
  to that replica fail with ``UNAVAILABLE`` (reason ``store_unavailable``) and store nothing;
  when the proxy comes back the replica serves again by itself, and its follower of the store's
  notifications resubscribes, so its watcher receives the moves another replica saved meanwhile.
* A replica killed with SIGKILL mid-match: its clients go on through the other replica by
  themselves, their watches resuming from the last version they saw.
* A server on SQLite killed and started again mid-match: the match continues.
* Health checking reports ``TableService`` ``NOT_SERVING`` while a replica's database is cut off,
  ``SERVING`` after.
* SIGTERM: calls in flight finish, open streams end with ``UNAVAILABLE`` (``server_stopping``),
  the process exits 0, and every command answered OK is in the log, every other is not.

Each ends with the table's record verifying offline (``trapoula.clients.audit``).
"""

from __future__ import annotations

import json
import random
import threading
import time
import uuid
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import grpc
import pytest
from databases import NO_POSTGRES
from grpc_health.v1 import health_pb2, health_pb2_grpc
from processes import ServerProcess, TcpProxy, free_port, fresh_schema, proxied_url, servers, target_of

from trapoula.api.v1 import table_pb2, table_pb2_grpc
from trapoula.clients.audit import audit_text
from trapoula.clients.errors import TrapoulaError, Unavailable, from_rpc_error
from trapoula.clients.table import TableClient, command_message, my_move
from trapoula.domain.bots import choose
from trapoula.service.application import Tables

pytestmark = pytest.mark.process  # every test runs server processes

SECRET = bytes.fromhex("5e" * 32)
RECOVERY_SECONDS = 60.0
"""How long a replica may take to serve again once its database is back."""


@pytest.fixture
def pg_url(postgres_url: str | None) -> str:
    """``TEST_DATABASE_URL`` (the PostgreSQL tests skip without it)."""
    if not postgres_url:
        pytest.skip(NO_POSTGRES)
    return postgres_url


def _stored(url: str, schema: str, table_id: str) -> list[Any]:
    tables = Tables(url, SECRET, schema=schema)
    try:
        return list(tables.stored_events(table_id))
    finally:
        tables.close()


def _one_move(clients: list[TableClient], table_id: str, rng: random.Random) -> bool:
    """The acting seat makes one move (a random legal command); False when the match is over."""
    for client in clients:
        now = client.view(table_id)
        if now.view["table"]["status"] == "over":
            return False
        if my_move(now.view):
            client.act(table_id, choose("agonia", now.view, "random", rng))
            return True
    raise AssertionError("nobody may move in a match that is not over")


def _raw_act(address: str, token: str, table_id: str, command: dict[str, Any], command_id: str) -> Any:
    """One Act call without any client-side retry: the server's own answer."""
    with grpc.insecure_channel(address) as channel:
        stub = table_pb2_grpc.TableServiceStub(channel)
        request = table_pb2.ActRequest(table_id=table_id, command_id=command_id, command=command_message(command))
        try:
            return stub.Act(request, timeout=30, metadata=(("authorization", f"Bearer {token}"),))
        except grpc.RpcError as error:
            return from_rpc_error(error)


class Watcher(threading.Thread):
    """A spectator's stream, collecting ``(version, name)`` until the match is over."""

    def __init__(self, address: str, table_id: str, retry_for: float = 0) -> None:
        super().__init__(daemon=True)
        self.client = TableClient(address, retry_for=retry_for)
        self.watch = self.client.watch(table_id, 0)
        self.seen: list[tuple[int, str]] = []
        self.error: BaseException | None = None

    def run(self) -> None:
        try:
            for update in self.watch:
                self.seen.append((update.version, update.name))
        except BaseException as exc:
            self.error = exc


@pytest.mark.postgres
def test_a_replica_cut_off_from_its_database_refuses_then_recovers_by_itself(pg_url: str, tmp_path: Path) -> None:
    """Replica A reaches PostgreSQL through a proxy, replica B directly; seats play through B, a
    spectator watches on A (which polls only every 10 minutes: it learns of B's moves by
    NOTIFY).  While the proxy is cut, A answers ``UNAVAILABLE`` / ``store_unavailable`` and
    stores nothing; B goes on.  Once the proxy is back, A serves again without a restart and
    its watcher receives every event exactly once, in order."""
    host, port = target_of(pg_url)
    proxy = TcpProxy(host, port).start()
    rng = random.Random(11)
    with fresh_schema(pg_url) as schema, servers(tmp_path) as started:
        a = ServerProcess(
            proxied_url(pg_url, proxy.port),
            tmp_path / "a.log",
            schema=schema,
            extra=("--watch-poll-seconds", "600"),
        ).start()
        started.append(a)
        b = ServerProcess(pg_url, tmp_path / "b.log", schema=schema).start()
        started.append(b)
        with TableClient(b.address) as owner:
            created = owner.create_table("agonia", seats=2, options={"target_points": 0})
            table_id = created.table_id
        players = [TableClient(b.address), TableClient(b.address)]
        for seat, client in enumerate(players):
            client.join(table_id, f"p{seat}", seat=seat)
        watcher = Watcher(a.address, table_id, retry_for=RECOVERY_SECONDS)  # resumes after the cut
        watcher.start()
        players[0].start_match(table_id, token=created.owner_token)  # only the owner starts the match
        for _ in range(4):
            assert _one_move(players, table_id, rng)

        proxy.cut()
        before = _stored(pg_url, schema, table_id)
        acting = next(c for c in players if my_move(c.view(table_id).view))
        command = choose("agonia", acting.view(table_id).view, "random", rng)
        assert acting.token is not None
        refused = _raw_act(a.address, acting.token, table_id, command, "during-the-cut")
        assert isinstance(refused, Unavailable), refused
        assert refused.reason == "store_unavailable"
        assert _stored(pg_url, schema, table_id) == before  # nothing half-written
        for _ in range(3):  # B, on its direct connection, goes on
            assert _one_move(players, table_id, rng)

        proxy.restore()
        deadline = time.monotonic() + RECOVERY_SECONDS
        while True:
            acting = next(c for c in players if my_move(c.view(table_id).view))
            assert acting.token is not None
            command = choose("agonia", acting.view(table_id).view, "random", rng)
            answer = _raw_act(a.address, acting.token, table_id, command, f"after-{uuid.uuid4()}")
            if not isinstance(answer, TrapoulaError):
                break
            assert isinstance(answer, Unavailable) and time.monotonic() < deadline, answer
            time.sleep(0.5)
        while _one_move(players, table_id, rng):
            pass
        watcher.join(RECOVERY_SECONDS)
        assert not watcher.is_alive(), "replica A's watcher never saw the end: its follower did not resubscribe"
        assert watcher.error is None, watcher.error
        record = players[0].record(table_id)
        report = audit_text(record)
        assert report.ok and report.match_over, report.problems
        events = len(record.splitlines()) - 1
        assert [v for v, _ in watcher.seen] == list(range(1, events + 1))
        stored = _stored(pg_url, schema, table_id)
        assert [e.name for e in stored] == [n for _, n in watcher.seen]
        assert all(e.command_id != "during-the-cut" for e in stored)
        for client in (*players, watcher.client):
            client.close()
    proxy.cut()


def _until(read: Callable[[], Any], want: Any, seconds: float = RECOVERY_SECONDS) -> Any:
    """``read()`` again every 0.2 s until it equals ``want`` or ``seconds`` have passed; the last value read."""
    deadline = time.monotonic() + seconds
    while (got := read()) != want and time.monotonic() < deadline:
        time.sleep(0.2)
    return got


@pytest.mark.postgres
def test_health_is_not_serving_while_the_database_is_cut_off(pg_url: str, tmp_path: Path) -> None:
    """A replica reaching PostgreSQL through a proxy reports ``SERVING``; with the proxy cut it
    reports ``TableService`` ``NOT_SERVING`` by itself, no call needed (the server as a whole,
    ``""``, stays ``SERVING``: liveness); with the proxy back, ``SERVING`` again."""
    host, port = target_of(pg_url)
    proxy = TcpProxy(host, port).start()
    services = ("trapoula.api.v1.TableService", "")
    serving = [health_pb2.HealthCheckResponse.SERVING] * 2
    not_serving = [health_pb2.HealthCheckResponse.NOT_SERVING, health_pb2.HealthCheckResponse.SERVING]
    with fresh_schema(pg_url) as schema, servers(tmp_path) as started:
        a = ServerProcess(proxied_url(pg_url, proxy.port), tmp_path / "a.log", schema=schema).start()
        started.append(a)
        with grpc.insecure_channel(a.address) as channel:
            health = health_pb2_grpc.HealthStub(channel)

            def statuses() -> list[int]:
                return [health.Check(health_pb2.HealthCheckRequest(service=s), timeout=10).status for s in services]

            assert statuses() == serving
            proxy.cut()
            assert _until(statuses, not_serving) == not_serving, a.log_tail()
            proxy.restore()
            assert _until(statuses, serving) == serving, a.log_tail()
    proxy.cut()


@pytest.fixture
def sqlite_server(tmp_path: Path) -> Iterator[ServerProcess]:
    """A server process on a SQLite file."""
    with servers(tmp_path) as started:
        server = ServerProcess(f"sqlite:///{tmp_path / 'store.sqlite3'}", tmp_path / "server.log").start()
        started.append(server)
        yield server


def test_sigterm_lets_calls_in_flight_finish_and_ends_streams_cleanly(
    sqlite_server: ServerProcess, tmp_path: Path
) -> None:
    """20 tables, each with a player moving as fast as it can and a spectator stream; SIGTERM in
    the middle.  The process exits 0; each stream ends with ``UNAVAILABLE`` (``server_stopping``)
    or at the end of its match, never with another error; a call is answered, or refused with
    ``UNAVAILABLE`` (or, arriving after gRPC itself stopped, ``CANCELLED`` by gRPC); and the log
    holds exactly the commands that were answered OK (none lost, none applied behind a refusal)."""
    address = sqlite_server.address
    tables: list[tuple[str, str]] = []
    with TableClient(address) as owner:
        for _ in range(20):
            table_id = owner.create_table("agonia", seats=2, options={"target_points": 0}).table_id
            token = owner.join(table_id, "ann", seat=0).token
            owner.add_bot(table_id, "random", seat=1)
            owner.start_match(table_id, command_id="start")  # only the owner starts the match
            tables.append((table_id, token))
    answered: dict[str, list[str]] = {t: [] for t, _ in tables}  # the owner started each match: seat 0's ids follow
    failures: list[tuple[str, BaseException]] = []
    go = threading.Event()

    def play(table_id: str, token: str) -> None:
        with TableClient(address, token=token, retry_for=0) as me:
            go.wait()
            while True:
                step = "view"
                try:
                    now = me.view(table_id)
                    if not my_move(now.view):
                        if now.view["table"]["status"] == "over":
                            return
                        time.sleep(0.01)
                        continue
                    command_id = str(uuid.uuid4())
                    step = "act"
                    me.act(table_id, choose("agonia", now.view, "random", random.Random(command_id)), command_id)
                    answered[table_id].append(command_id)
                except Unavailable:  # refused, or CANCELLED: it reached the process after gRPC stopped
                    return
                except TrapoulaError as exc:
                    failures.append((step, exc))
                    return

    watchers = [Watcher(address, t) for t, _ in tables]
    for w in watchers:
        w.start()
    with ThreadPoolExecutor(max_workers=len(tables)) as pool:
        futures = [pool.submit(play, t, tok) for t, tok in tables]
        go.set()
        time.sleep(1.5)
        status = sqlite_server.terminate()
        for f in futures:
            f.result(timeout=60)
    assert status == 0, sqlite_server.log_tail()
    assert not failures, failures
    for w in watchers:
        w.join(30)
        assert not w.is_alive()
        if w.error is not None:
            assert isinstance(w.error, Unavailable) and w.error.reason == "server_stopping", w.error
    store = Tables(f"sqlite:///{tmp_path / 'store.sqlite3'}", SECRET)
    try:
        for table_id, _ in tables:
            logged = [e.command_id for e in store.stored_events(table_id) if e.actor == "seat:0" and e.command_id]
            assert sorted(set(logged)) == sorted(answered[table_id]), (failures, logged, answered[table_id])
        assert sum(len(v) for v in answered.values()) > 2 * len(tables)
    finally:
        store.close()


def _play_to_the_end(clients: list[TableClient], table_id: str, rng: random.Random, moves: int | None = None) -> int:
    """Make ``moves`` moves (None: until the match is over); returns how many were made."""
    made = 0
    while (moves is None or made < moves) and _one_move(clients, table_id, rng):
        made += 1
    return made


def _check_watchers(watchers: list[Watcher], record: str) -> None:
    """Each watcher ended by itself and saw every event of the record once, in order."""
    events = len(record.splitlines()) - 1
    for w in watchers:
        w.join(RECOVERY_SECONDS)
        assert not w.is_alive(), "a watcher never saw the end of the match"
        assert w.error is None, w.error
        assert [v for v, _ in w.seen] == list(range(1, events + 1))
    names = [json.loads(line)["name"] for line in record.splitlines()[1:]]
    for w in watchers:
        assert [n for _, n in w.seen] == names


@pytest.mark.postgres
def test_a_replica_killed_mid_match_its_clients_finish_through_the_other(pg_url: str, tmp_path: Path) -> None:
    """Both players and one spectator use replica A (listed first), another spectator replica B.
    After six moves A is killed with SIGKILL; the clients go on through B by themselves (the
    watch resumes from the last version it saw), the match ends, each watcher saw every event
    exactly once, in order, and the record verifies offline."""
    rng = random.Random(5)
    with fresh_schema(pg_url) as schema, servers(tmp_path) as started:
        a = ServerProcess(pg_url, tmp_path / "a.log", schema=schema).start()
        b = ServerProcess(pg_url, tmp_path / "b.log", schema=schema).start()
        started.extend((a, b))
        both = f"{a.address},{b.address}"
        with TableClient(both) as owner:
            created = owner.create_table("agonia", seats=2, options={"target_points": 0})
            table_id = created.table_id
        players = [TableClient(both), TableClient(both)]
        for seat, client in enumerate(players):
            client.join(table_id, f"p{seat}", seat=seat)
        watchers = [Watcher(both, table_id, retry_for=30), Watcher(f"{b.address},{a.address}", table_id, retry_for=30)]
        for w in watchers:
            w.start()
        players[0].start_match(table_id, token=created.owner_token)  # only the owner starts the match
        assert _play_to_the_end(players, table_id, rng, 6) == 6
        a.kill()
        assert _play_to_the_end(players, table_id, rng) > 0
        record = players[0].record(table_id)
        report = audit_text(record)
        assert report.ok and report.match_over, report.problems
        _check_watchers(watchers, record)
        for client in (*players, *(w.client for w in watchers)):
            client.close()


def test_a_sqlite_server_restarted_mid_match_continues_it(tmp_path: Path) -> None:
    """A server on a SQLite file is killed with SIGKILL after six moves and started again on the
    same port and file; the person at seat 0 (its client retrying by itself) and the server's
    bot at seat 1 finish the match; the spectator's watch resumes; the record verifies."""
    rng = random.Random(9)
    address = f"127.0.0.1:{free_port()}"
    url = f"sqlite:///{tmp_path / 'store.sqlite3'}"
    with servers(tmp_path) as started:
        first = ServerProcess(url, tmp_path / "first.log", address=address).start()
        started.append(first)
        with TableClient(address) as owner:
            created = owner.create_table("agonia", seats=2, options={"target_points": 0})
            table_id = created.table_id
            owner.add_bot(table_id, "random", seat=1)
        me = TableClient(address)
        me.join(table_id, "ann", seat=0)
        watcher = Watcher(address, table_id, retry_for=30)
        watcher.start()
        me.start_match(table_id, token=created.owner_token)  # only the owner starts the match
        assert _play_to_the_end([me], table_id, rng, 6) == 6
        first.kill()
        started.append(ServerProcess(url, tmp_path / "second.log", address=address).start())
        assert _play_to_the_end([me], table_id, rng) > 0
        record = me.record(table_id)
        report = audit_text(record)
        assert report.ok and report.match_over, report.problems
        _check_watchers([watcher], record)
        me.close()
        watcher.client.close()
