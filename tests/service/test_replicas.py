"""Several server processes over one PostgreSQL event store (DESIGN, Storage).

Two replicas (``python -m trapoula.service`` child processes) share one schema.  A match is
played with its seats split across them and a watcher on each; every watcher must see every
event exactly once, in order, and the moves made through the other replica must reach it by
PostgreSQL LISTEN/NOTIFY: both replicas poll the store only every 10 minutes
(``--watch-poll-seconds 600``), so a watcher that depended on polling would never finish.

Then 50 commands fired at once at one table through both replicas: exactly the legal one is
applied, once; the others are refused (``FAILED_PRECONDITION`` with the rule, or ``ABORTED``)
and change nothing; the log stays gap-free and hash-chained and the record verifies.
"""

from __future__ import annotations

import random
import threading
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest
from grpc_helpers import chained
from processes import ServerProcess, servers

from trapoula.clients.audit import audit_text
from trapoula.clients.errors import CommandRejected, Conflict, TrapoulaError
from trapoula.clients.table import TableClient, my_move
from trapoula.domain.bots import choose

pytestmark = [pytest.mark.postgres, pytest.mark.process]

WATCH_SECONDS = 60.0
"""How long a watcher may take to see the end of the match once it is over."""


@pytest.fixture
def replicas(postgres_store: Any, tmp_path: Path) -> Iterator[tuple[ServerProcess, ServerProcess]]:
    """Two server processes on one fresh PostgreSQL schema, polling only every 10 minutes."""
    with servers(tmp_path) as started:
        for name in ("a", "b"):
            server = ServerProcess(
                postgres_store.url,
                tmp_path / f"replica-{name}.log",
                schema=postgres_store.schema,
                extra=("--watch-poll-seconds", "600"),
            )
            started.append(server.start())
        yield started[0], started[1]


class Watcher(threading.Thread):
    """A spectator's watch stream on one replica, collecting ``(version, name, payload)``."""

    def __init__(self, address: str, table_id: str) -> None:
        super().__init__(name=f"watch-{address}", daemon=True)
        self.client = TableClient(address)
        self.table_id = table_id
        self.seen: list[tuple[int, str, dict[str, Any]]] = []
        self.error: BaseException | None = None
        self.watch = self.client.watch(table_id, 0)

    def run(self) -> None:
        try:
            for update in self.watch:  # the server ends the stream once the match is over
                self.seen.append((update.version, update.name, update.payload))
        except BaseException as exc:
            self.error = exc


def test_a_match_split_over_two_replicas_reaches_each_watcher_exactly_once_in_order(
    replicas: tuple[ServerProcess, ServerProcess],
) -> None:
    """Seats 0 and 2 play through replica A, seats 1 and 3 through replica B (Agonia, one hand:
    ``target_points`` 0); a spectator watches on each replica from version 0."""
    a, b = replicas
    owner = TableClient(a.address)
    created = owner.create_table("agonia", seats=4, options={"target_points": 0})
    table_id = created.table_id
    players: list[TableClient] = []
    for seat in range(4):
        client = TableClient((a if seat % 2 == 0 else b).address)
        client.join(table_id, f"player {seat}", seat=seat)
        players.append(client)
    watchers = [Watcher(a.address, table_id), Watcher(b.address, table_id)]
    for w in watchers:
        w.start()
    owner.start_match(table_id)  # only the owner starts the match
    rng = random.Random(7)
    moves = 0
    while True:
        acted = False
        for client in players:
            now = client.view(table_id)
            if now.view["table"]["status"] == "over":
                break
            if my_move(now.view):
                client.act(table_id, choose("agonia", now.view, "random", rng))
                moves += 1
                acted = True
        else:
            assert acted, "nobody could move in a match that is not over"
            continue
        break
    for w in watchers:
        w.join(WATCH_SECONDS)
        assert not w.is_alive(), "a watcher did not see the end of the match: a replica missed a notification"
        assert w.error is None
    record = owner.record(table_id)
    report = audit_text(record)
    assert report.ok, report.problems
    assert report.match_over
    stored = [line for line in record.splitlines()[1:]]
    events = len(stored)
    assert moves > 10
    for w in watchers:
        assert [v for v, _, _ in w.seen] == list(range(1, events + 1))
    assert watchers[0].seen == watchers[1].seen  # the same viewer sees the same thing on each replica
    for client in (owner, *players, *(w.client for w in watchers)):
        client.close()


def _fire(address: str, token: str, table_id: str, command_id: str, command: dict[str, Any]) -> tuple[str, Any]:
    with TableClient(address, token=token) as client:
        try:
            return "ok", client.act(table_id, command, command_id=command_id)
        except CommandRejected as exc:
            return "rejected", exc
        except Conflict as exc:
            return "aborted", exc
        except TrapoulaError as exc:
            return "other", exc


def _stored(store: Any, table_id: str) -> list[Any]:
    tables = store.open()
    try:
        return list(tables.stored_events(table_id))
    finally:
        tables.close()


def _setup_two_seats(address: str, deal: dict[str, Any]) -> tuple[str, str, list[str]]:
    """An Agonia table for two, started from ``deal`` (the conftest's: seat 0 to play 4D or draw, R4.1);
    created for explicit deals (``manual_deal``: S5.3 as the rules owners answered)."""
    with TableClient(address) as owner:
        created = owner.create_table("agonia", seats=2, options={"target_points": 0}, manual_deal=True)
        tokens = [owner.join(created.table_id, f"p{s}", seat=s).token for s in (0, 1)]
        owner.token = created.owner_token
        owner.start_match(created.table_id, deal=deal)
    return created.table_id, created.owner_token, tokens


def test_fifty_simultaneous_commands_through_two_replicas_apply_exactly_the_legal_one(
    replicas: tuple[ServerProcess, ServerProcess], postgres_store: Any, deal: dict[str, Any]
) -> None:
    """Seat 0 may play 4D (same suit as the up-card 3D, agonia R4.1); 5C is refused (R4.1); once a
    move is made it is seat 1's turn (S3.7).

    25 plays of 4D and 25 plays of 5C, each with its own command id, half through each replica,
    all at once: exactly one 4D is applied (it leaves seat 0's hand and passes the turn, so every
    other 4D is refused as not seat 0's turn or no longer in hand), every 5C is refused, and the
    log grows by exactly the events of that one move.
    """
    a, b = replicas
    table_id, _owner_token, tokens = _setup_two_seats(a.address, deal)
    before = _stored(postgres_store, table_id)
    commands = [
        ((a, b)[i % 2].address, f"burst-{i}", {"kind": "play", "card": "4D" if i < 25 else "5C"}) for i in range(50)
    ]
    barrier = threading.Barrier(50)

    def fire(job: tuple[str, str, dict[str, Any]]) -> tuple[str, Any]:
        address, command_id, command = job
        barrier.wait(timeout=30)
        return _fire(address, tokens[0], table_id, command_id, command)

    with ThreadPoolExecutor(max_workers=50) as pool:
        outcomes = list(pool.map(fire, commands))
    applied = [cmd for cmd, (kind, _) in zip(commands, outcomes, strict=True) if kind == "ok"]
    assert [c[2]["card"] for c in applied] == ["4D"]
    for (_, _, command), (kind, result) in zip(commands, outcomes, strict=True):
        if kind == "ok":
            continue
        assert kind in ("rejected", "aborted"), result
        if kind == "rejected":  # 5C before the 4D landed: not playable; anything after: seat 1's turn
            allowed = {("not_your_turn", "S3.7")} | ({(result.reason, "R4.1")} if command["card"] == "5C" else set())
            assert (result.reason, result.rule) in allowed, result
    after = _stored(postgres_store, table_id)
    new = after[len(before) :]
    assert new[0].name == "CardPlayed" and new[0].payload["card"] == "4D" and new[0].payload["seat"] == 0
    assert {e.command_id for e in new} == {applied[0][1]}
    # gap-free and hash-chained from the first event
    chained(after)


def test_one_command_sent_fifty_times_through_two_replicas_lands_once(
    replicas: tuple[ServerProcess, ServerProcess], postgres_store: Any, deal: dict[str, Any]
) -> None:
    """The same command id 50 times at once (a client retrying through both replicas): it is
    applied once, and every one of the 50 answers is that one result."""
    a, b = replicas
    table_id, _owner_token, tokens = _setup_two_seats(b.address, deal)
    before = _stored(postgres_store, table_id)
    barrier = threading.Barrier(50)

    def fire(i: int) -> tuple[str, Any]:
        barrier.wait(timeout=30)
        return _fire((a, b)[i % 2].address, tokens[0], table_id, "the-one", {"kind": "draw"})

    with ThreadPoolExecutor(max_workers=50) as pool:
        outcomes = list(pool.map(fire, range(50)))
    assert {kind for kind, _ in outcomes} == {"ok"}, [r for k, r in outcomes if k != "ok"][:3]
    results = {(r.version, tuple((e.version, e.name) for e in r.events)) for _, r in outcomes}
    assert len(results) == 1
    after = _stored(postgres_store, table_id)
    new = after[len(before) :]
    assert [e.name for e in new] == ["CardsDrawn"]
    assert new[0].command_id == "the-one"
