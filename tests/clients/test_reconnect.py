"""The client reconnects by itself: retries with backoff on the next server, watches that resume.

Two "replicas" are two ``Tables`` on one SQLite file, each behind its own in-process gRPC
server; a server can stop and start again on the same port.  A client-side interceptor
(:class:`Tap`) counts the attempts that leave the client and can lose a reply after the server
has answered it, as a server killed between its commit and its reply would.  A
:class:`StatusProxy` sits in front of a replica and ends planned calls with a chosen status
(:class:`Break`), on the wire, as a stopping or failing server would.
"""

from __future__ import annotations

import asyncio
import socket
import threading
from collections.abc import Callable, Iterator
from concurrent import futures
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import grpc
import psycopg.errors
import pytest
import sqlalchemy.exc
from eventsourcing import persistence

from trapoula.api.v1 import table_pb2
from trapoula.clients import table as table_module
from trapoula.clients.errors import CommandRejected, InvalidArgument, PermissionDenied, TrapoulaError, Unavailable
from trapoula.clients.table import Reconnected, TableClient, Update, Watch, my_move
from trapoula.service.application import Tables
from trapoula.service.server import create_server, start_server, stop_server

pytestmark = pytest.mark.timeout(120)

SECRET = bytes.fromhex("5e" * 32)
BUDGET = 20.0
"""The retry budget of the clients that must get through (far more than they need)."""


class Replica:
    """A ``grpc.aio`` server for one ``Tables``, in its own event-loop thread, on a fixed port
    once started (so it can stop and start again where its clients look for it)."""

    def __init__(self, tables: Tables, port: int = 0) -> None:
        self.tables = tables
        self.port = port
        self._loop: asyncio.AbstractEventLoop | None = None
        self._thread: threading.Thread | None = None
        self._server: grpc.aio.Server | None = None

    @property
    def address(self) -> str:
        return f"127.0.0.1:{self.port}"

    def _submit(self, coro: Any) -> Any:
        assert self._loop is not None
        return asyncio.run_coroutine_threadsafe(coro, self._loop).result(10)

    def start(self) -> Replica:
        self._loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self._loop.run_forever, name="test-replica", daemon=True)
        self._thread.start()

        async def serve() -> int:
            self._server, port = create_server(self.address, self.tables, poll_seconds=1.0)
            await start_server(self._server)
            return port

        self.port = self._submit(serve())
        return self

    def stop(self) -> None:
        """Stop gracefully (open watches end with ``UNAVAILABLE``, ``server_stopping``)."""
        if self._server is None or self._loop is None or self._thread is None:
            return
        self._submit(stop_server(self._server, grace=0.2))
        self._server = None
        self._loop.call_soon_threadsafe(self._loop.stop)
        self._thread.join(timeout=10)
        self._loop.close()


@pytest.fixture
def url(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'trapoula.sqlite3'}"


@pytest.fixture
def open_tables(url: str) -> Iterator[Callable[[], Tables]]:
    """``Tables`` on the one SQLite file (each call one more replica's); closed at the end."""
    opened: list[Tables] = []

    def make() -> Tables:
        opened.append(Tables(url, SECRET))
        return opened[-1]

    try:
        yield make
    finally:
        for tables in opened:
            tables.close()


@pytest.fixture
def replicas(open_tables: Callable[[], Tables]) -> Iterator[list[Replica]]:
    """Two replicas, A and B, on the one SQLite file, then any restarted (:func:`restart_later`);
    all stopped at the end."""
    started = [Replica(open_tables()).start(), Replica(open_tables()).start()]
    try:
        yield started
    finally:
        for replica in started:
            replica.stop()


def restart_later(replicas: list[Replica], port: int, tables: Tables, seconds: float) -> None:
    """In ``seconds``, start a replica on ``port`` again (with ``tables``, as a restarted process
    would); it joins ``replicas`` (a server nobody holds would be collected, and would stop)."""

    def start() -> None:
        replicas.append(Replica(tables, port).start())

    threading.Timer(seconds, start).start()


def free_port() -> int:
    """A port nothing listens on (bound, then released)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


class LostReply(grpc.RpcError):
    """What a caller sees when the server answered and the connection broke before the reply arrived."""

    def code(self) -> grpc.StatusCode:
        return grpc.StatusCode.UNAVAILABLE

    def details(self) -> str:
        return "Socket closed"

    def trailing_metadata(self) -> None:
        return None


class Tap(grpc.UnaryUnaryClientInterceptor):  # type: ignore[misc]
    """Records each unary attempt (method name, request); loses the reply of the next call of
    each method in ``lose`` (after the server has answered it)."""

    def __init__(self, lose: set[str] | None = None) -> None:
        self.calls: list[tuple[str, Any]] = []
        self.lose = set(lose or ())
        self.lost: dict[str, Any] = {}

    def names(self) -> list[str]:
        return [name for name, _ in self.calls]

    def intercept_unary_unary(self, continuation: Any, details: Any, request: Any) -> Any:
        name = details.method.rsplit("/", 1)[-1]
        self.calls.append((name, request))
        outcome = continuation(details, request)
        if name in self.lose:
            self.lose.discard(name)
            self.lost[name] = outcome.result()  # the server has answered
            raise LostReply()
        return outcome


@dataclass
class Break:
    """A planned failure: the next call of ``method`` through a :class:`StatusProxy` ends with ``code``."""

    method: str
    code: grpc.StatusCode
    ran: bool = False
    """A unary call: ended after the replica answered it (its reply lost), else before it is sent on."""
    after: int = 0
    """A stream: ended when its message number ``after`` (0-based) arrives, instead of passing it on."""


_STREAMING = {m.name for m in table_pb2.DESCRIPTOR.services_by_name["TableService"].methods if m.server_streaming}


class StatusProxy(grpc.GenericRpcHandler):  # type: ignore[misc]
    """A gRPC server in front of a replica: passes every call through as bytes (with its
    ``authorization`` and the replica's status and rich details), except the calls its
    :attr:`plan` lists, each ended once with its status.  :attr:`calls` records ``(method,
    request bytes)`` of each call it received."""

    def __init__(self, upstream: str) -> None:
        self.plan: list[Break] = []
        self.calls: list[tuple[str, bytes]] = []
        self._lock = threading.Lock()
        self._channel = grpc.insecure_channel(upstream)
        self._server = grpc.server(futures.ThreadPoolExecutor(max_workers=8))
        self._server.add_generic_rpc_handlers((self,))
        self.address = f"127.0.0.1:{self._server.add_insecure_port('127.0.0.1:0')}"
        self._server.start()

    def close(self) -> None:
        self._server.stop(grace=None)
        self._channel.close()

    def requests(self, method: str, message: Any) -> list[Any]:
        """The requests of ``method`` received, parsed as ``message``."""
        return [message.FromString(raw) for name, raw in self.calls if name == method]

    def _take(self, method: str, request: bytes) -> Break | None:
        with self._lock:
            self.calls.append((method, request))
            planned = next((b for b in self.plan if b.method == method), None)
            if planned is not None:
                self.plan.remove(planned)
            return planned

    def service(self, details: Any) -> Any:
        path = details.method
        method = path.rsplit("/", 1)[-1]

        def forwarded(context: Any) -> tuple[tuple[str, str], ...]:
            return tuple((k, v) for k, v in context.invocation_metadata() if k == "authorization")

        def relay(error: grpc.RpcError, context: Any) -> None:
            context.set_trailing_metadata(error.trailing_metadata() or ())
            context.abort(error.code(), error.details())

        def unary(request: bytes, context: Any) -> bytes:
            planned = self._take(method, request)
            if planned is not None and not planned.ran:
                context.abort(planned.code, f"planned {planned.code.name}")
            try:
                reply: bytes = self._channel.unary_unary(path)(request, metadata=forwarded(context), timeout=30)
            except grpc.RpcError as error:
                relay(error, context)
            if planned is not None:
                context.abort(planned.code, f"planned {planned.code.name} (the replica answered)")
            return reply

        def stream(request: bytes, context: Any) -> Iterator[bytes]:
            planned = self._take(method, request)
            call = self._channel.unary_stream(path)(request, metadata=forwarded(context))
            context.add_callback(call.cancel)
            try:
                for count, message in enumerate(call):
                    if planned is not None and count == planned.after:
                        call.cancel()
                        context.abort(planned.code, f"planned {planned.code.name}")
                    yield message
            except grpc.RpcError as error:
                relay(error, context)

        if method in _STREAMING:
            return grpc.unary_stream_rpc_method_handler(stream)
        return grpc.unary_unary_rpc_method_handler(unary)


@pytest.fixture
def proxy(replicas: list[Replica]) -> Iterator[StatusProxy]:
    """A :class:`StatusProxy` in front of replica A."""
    started = StatusProxy(replicas[0].address)
    try:
        yield started
    finally:
        started.close()


def tapped(address: str, tap: Tap, **kwargs: Any) -> TableClient:
    """A client of ``address`` whose unary calls go through ``tap``."""
    return TableClient(address, channel=grpc.intercept_channel(grpc.insecure_channel(address), tap), **kwargs)


def two_seats(client: TableClient) -> tuple[str, str, str]:
    """An agonia table for two with its match started: ``(table_id, ann's token, bob's token)``."""
    table = client.create_table("agonia", seats=2)
    ann = client.join(table.table_id, "ann").token
    bob = client.join(table.table_id, "bob").token
    client.start_match(table.table_id)
    return table.table_id, ann, bob


def play(table_id: str, players: list[TableClient], moves: int) -> int:
    """Play ``moves`` moves, each the first legal command of the seat to act; the table's version after."""
    version = 0
    for _ in range(moves):
        for player in players:
            now = player.view(table_id)
            if my_move(now.view):
                version = player.act(table_id, now.view["legal"][0]).version
                break
        else:
            raise AssertionError("nobody may move")
    return version


def read_until(updates: Iterator[Update], version: int) -> list[Update]:
    """The updates up to ``version``, read from a watch."""
    out: list[Update] = []
    while not out or out[-1].version < version:
        out.append(next(updates))
    return out


def stored(address: str, token: str, table_id: str, version: int) -> list[tuple[int, str, dict[str, Any]]]:
    """``(version, name, payload)`` of the stored events up to ``version``, as ``token``'s seat sees them."""
    with TableClient(address, token, retry_for=0) as fresh, fresh.watch(table_id) as watch:
        return [(u.version, u.name, u.payload) for u in read_until(iter(watch), version)]


# --------------------------------------------------------------------------- watches


@pytest.mark.parametrize("how", ["failover", "restart"])
def test_a_watch_resumes_after_its_server_stops_with_no_event_lost_or_repeated(
    how: str, replicas: list[Replica], open_tables: Callable[[], Tables]
) -> None:
    """``failover``: ann's watch is on A; A stops; it resumes on B.  ``restart``: the clients know
    only A; A stops and starts again on its port (a new ``Tables`` on the same file, as a
    restarted process), and the match goes on.  The watch yields versions 1..head, each once,
    equal to the stored events as ann's seat sees them."""
    a, b = replicas
    servers = [a.address, b.address] if how == "failover" else [a.address]
    seen: list[Reconnected] = []
    with (
        TableClient(servers, retry_for=BUDGET) as owner,
        TableClient(servers, retry_for=BUDGET, on_reconnect=seen.append) as ann,
        TableClient(servers, retry_for=BUDGET) as bob,
    ):
        table_id, ann.token, bob.token = two_seats(owner)
        with ann.watch(table_id) as watch:
            updates = iter(watch)
            before = play(table_id, [ann, bob], 4)
            got = read_until(updates, before)
            assert watch.target == a.address
            a.stop()
            if how == "restart":
                restart_later(replicas, a.port, open_tables(), 0.3)
            after = play(table_id, [ann, bob], 4)
            got += read_until(updates, after)
            assert watch.version == after
            assert watch.target == servers[-1]
    versions = [u.version for u in got]
    assert versions == list(range(1, after + 1))
    check = b.address if how == "failover" else a.address
    assert [(u.version, u.name, u.payload) for u in got] == stored(check, ann.token, table_id, after)
    resumed = [r for r in seen if r.call == "WatchTable"]
    assert len(resumed) == 1
    assert (resumed[0].target, resumed[0].from_version, resumed[0].failed) == (servers[-1], before, (a.address,))
    assert str(resumed[0]).startswith(f"reconnected to {servers[-1]} after ")
    assert f", resuming from version {before} (WatchTable; " in str(resumed[0])


RESUMED = ["UNAVAILABLE", "CANCELLED", "DEADLINE_EXCEEDED", "INTERNAL", "UNKNOWN", "ABORTED", "RESOURCE_EXHAUSTED"]
RAISED = [
    "INVALID_ARGUMENT",
    "NOT_FOUND",
    "PERMISSION_DENIED",
    "FAILED_PRECONDITION",
    "OUT_OF_RANGE",
    "UNAUTHENTICATED",
]


@pytest.mark.parametrize("code", RESUMED + RAISED)
def test_a_watch_resumes_after_a_failure_that_is_not_the_callers(
    code: str, replicas: list[Replica], proxy: StatusProxy
) -> None:
    """The stream ends with ``code`` after two updates.  A failure of the server or the network
    (:data:`RESUMED`): the watch re-opens from version 2 and yields every version once, in order.
    The caller's (:data:`RAISED`): it would come again, so it is raised, typed, with its code."""
    a, _ = replicas
    status = grpc.StatusCode[code]
    seen: list[Reconnected] = []
    with TableClient(a.address) as owner:
        table_id, ann_token, bob_token = two_seats(owner)
    proxy.plan = [Break("WatchTable", status, after=2)]
    with (
        TableClient(proxy.address, ann_token, retry_for=BUDGET, on_reconnect=seen.append) as watcher,
        TableClient(a.address, ann_token) as ann,
        TableClient(a.address, bob_token) as bob,
        watcher.watch(table_id) as watch,
    ):
        updates = iter(watch)
        got = [next(updates), next(updates)]
        if code in RAISED:
            with pytest.raises(TrapoulaError) as raised:
                next(updates)
            assert (raised.value.code, watch.version) == (status, 2)
            assert [name for name, _ in proxy.calls] == ["WatchTable"]
            return
        head = play(table_id, [ann, bob], 3)
        got += read_until(updates, head)
    assert [u.version for u in got] == list(range(1, head + 1))
    assert [(r.call, r.from_version, r.failed) for r in seen] == [("WatchTable", 2, (proxy.address,))]
    assert [r.from_version for r in proxy.requests("WatchTable", table_pb2.WatchTableRequest)] == [0, 2]


def session_ended() -> persistence.InternalError:
    """What the store raises for a PostgreSQL session ended by ``idle_in_transaction_session_timeout``
    (eventsourcing's error, from SQLAlchemy's, from psycopg's)."""
    driver = psycopg.errors.IdleInTransactionSessionTimeout("terminating connection due to idle-in-transaction timeout")
    try:
        try:
            raise sqlalchemy.exc.InternalError("SELECT 1", {}, driver) from driver
        except sqlalchemy.exc.InternalError as middle:
            raise persistence.InternalError(middle) from middle
    except persistence.InternalError as top:
        return top


def test_a_watch_ended_by_a_store_timeout_answers_store_unavailable_and_resumes(
    replicas: list[Replica], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A's store fails the watch's second read with the error of a session its database ended: the
    stream ends ``UNAVAILABLE`` / ``store_unavailable`` (it was ``INTERNAL``), and a client's watch
    resumes from the last version it yielded, each version once."""
    a, _ = replicas
    with TableClient(a.address) as owner:
        table_id, ann_token, bob_token = two_seats(owner)
    reads = a.tables.events_after
    failing = {"reads": 0}

    def failing_once(*args: Any, **kwargs: Any) -> Any:
        failing["reads"] += 1
        if failing["reads"] == 2:
            raise session_ended()
        return reads(*args, **kwargs)

    monkeypatch.setattr(a.tables, "events_after", failing_once)
    monkeypatch.setattr(a.tables, "watch_in_memory", lambda *args, **kwargs: None)  # every read asks the store
    seen: list[Reconnected] = []
    with (
        TableClient(a.address, ann_token, retry_for=0) as plain,
        TableClient(a.address, ann_token, retry_for=BUDGET, on_reconnect=seen.append) as resuming,
        TableClient(a.address, ann_token) as ann,
        TableClient(a.address, bob_token) as bob,
    ):
        with plain.watch(table_id) as watch:
            updates = iter(watch)
            first = next(updates)
            play(table_id, [ann, bob], 1)
            with pytest.raises(Unavailable) as ended:
                read_until(updates, 10**9)
        assert (ended.value.code, ended.value.reason) == (grpc.StatusCode.UNAVAILABLE, "store_unavailable")
        failing["reads"] = 0
        with resuming.watch(table_id) as watch:
            updates = iter(watch)
            got = [next(updates)]
            head = play(table_id, [ann, bob], 2)
            got += read_until(updates, head)
    assert first.version == 1
    assert [u.version for u in got] == list(range(1, head + 1))
    assert [(r.call, r.failed) for r in seen] == [("WatchTable", (a.address,))]


def test_a_watch_whose_servers_are_gone_raises_unavailable_naming_them(replicas: list[Replica]) -> None:
    a, b = replicas
    with TableClient([a.address, b.address], retry_for=0.5) as ann:
        table_id, ann.token, _ = two_seats(ann)
        with ann.watch(table_id) as watch:
            updates = iter(watch)
            first = next(updates)
            a.stop()
            b.stop()
            with pytest.raises(Unavailable) as failed:
                list(updates)
    assert first.version == 1 and watch.version >= 1
    message = str(failed.value)
    assert message.startswith(f"no answer from the trapoula servers at {a.address}, {b.address} after ")
    assert "failed to connect to all addresses" in message


def test_a_cancelled_watch_stops_waiting_to_reconnect(replicas: list[Replica]) -> None:
    """Cancelled from another thread while it waits between attempts: iteration just ends."""
    a, _ = replicas
    with TableClient(a.address, retry_for=BUDGET) as ann:
        table_id, ann.token, _ = two_seats(ann)
        watch = ann.watch(table_id)
        updates = iter(watch)
        assert next(updates).version == 1
        a.stop()
        threading.Timer(0.5, watch.cancel).start()
        rest = list(updates)
    assert watch.cancelled
    assert [u.version for u in rest] == list(range(2, len(rest) + 2))


# --------------------------------------------------------------------------- unary calls


def test_act_whose_reply_was_lost_is_retried_with_the_same_command_id_and_lands_once(
    replicas: list[Replica],
) -> None:
    """The server played the move, then the reply was lost: the retry sends the same command id
    and gets the first result; the table's version moved once."""
    a, _ = replicas
    with TableClient(a.address) as owner:
        table_id, ann_token, bob_token = two_seats(owner)
    tap = Tap(lose={"Act"})
    with tapped(a.address, tap, retry_for=BUDGET) as player:
        player.token = ann_token if my_move(TableClient(a.address, ann_token).view(table_id).view) else bob_token
        now = player.view(table_id)
        result = player.act(table_id, now.view["legal"][0])
        acts = [request for name, request in tap.calls if name == "Act"]
        assert len(acts) == 2
        assert acts[0].command_id == acts[1].command_id != ""
        first = tap.lost["Act"]
        assert result.version == int(first.version) > now.version
        assert [e.version for e in result.events] == [e.version for e in first.events]
        assert player.view(table_id).version == result.version


def test_act_is_retried_on_the_next_server_when_one_is_stopped(replicas: list[Replica]) -> None:
    a, b = replicas
    seen: list[Reconnected] = []
    with TableClient(a.address) as owner:
        table_id, ann_token, bob_token = two_seats(owner)
        token = ann_token if my_move(TableClient(a.address, ann_token).view(table_id).view) else bob_token
    # seeds=False: a seed owed would be given (and retried) just before the Act this test follows
    with TableClient([a.address, b.address], token, retry_for=BUDGET, on_reconnect=seen.append, seeds=False) as player:
        now = player.view(table_id)
        a.stop()
        result = player.act(table_id, now.view["legal"][0], command_id="c-1")
        again = player.act(table_id, now.view["legal"][0], command_id="c-1")
        assert player.target == b.address
    assert result.version > now.version
    assert again.version == result.version  # the repeated id: the first result, nothing saved
    assert [(r.call, r.target, r.failed, r.from_version) for r in seen] == [("Act", b.address, (a.address,), None)]


@pytest.mark.parametrize("ran", [False, True], ids=["cancelled-unrun", "cancelled-after-it-ran"])
def test_start_match_and_act_answered_cancelled_are_retried_with_the_same_command_id(
    ran: bool, replicas: list[Replica], proxy: StatusProxy
) -> None:
    """A stopping server's gRPC answers ``CANCELLED`` (a call that arrived after it stopped
    serving); here the status comes before the replica ran the call, or after (its reply lost).
    The client sends the same command id again: the match starts once and the move lands once."""
    a, _ = replicas
    with TableClient(a.address) as owner:
        created = owner.create_table("agonia", seats=2)
        table_id = created.table_id
        tokens = [owner.join(table_id, name).token for name in ("ann", "bob")]
    proxy.plan = [Break("StartMatch", grpc.StatusCode.CANCELLED, ran), Break("Act", grpc.StatusCode.CANCELLED, ran)]
    seen: list[Reconnected] = []
    with (
        TableClient(proxy.address, created.owner_token, retry_for=BUDGET, on_reconnect=seen.append) as boss,
        TableClient(proxy.address, tokens[0], retry_for=BUDGET, on_reconnect=seen.append) as ann,
        TableClient(proxy.address, tokens[1], retry_for=BUDGET, on_reconnect=seen.append) as bob,
        TableClient(a.address, tokens[0]) as direct,
    ):
        started = boss.start_match(table_id)  # only the owner starts the match
        assert started.version == direct.view(table_id).version
        mover = ann if my_move(ann.view(table_id).view) else bob
        before = mover.view(table_id)
        moved = mover.act(table_id, before.view["legal"][0])
        assert moved.version == direct.view(table_id).version > before.version
    starts = proxy.requests("StartMatch", table_pb2.StartMatchRequest)
    acts = proxy.requests("Act", table_pb2.ActRequest)
    assert len(starts) == len(acts) == 2
    assert starts[0].command_id == starts[1].command_id != ""
    assert acts[0].command_id == acts[1].command_id != ""
    assert [(r.call, r.attempts, r.failed) for r in seen] == [
        ("StartMatch", 1, (proxy.address,)),
        ("Act", 1, (proxy.address,)),
    ]


def test_add_bot_answered_cancelled_is_not_retried(replicas: list[Replica], proxy: StatusProxy) -> None:
    """``AddBot`` carries no command or request id: ``CANCELLED`` may have come after it ran, so it
    is raised at once as :class:`Unavailable` (one attempt)."""
    a, _ = replicas
    with TableClient(a.address) as owner:
        table_id = owner.create_table("agonia", seats=2).table_id
    proxy.plan = [Break("AddBot", grpc.StatusCode.CANCELLED)]
    with TableClient(proxy.address, retry_for=BUDGET) as client, pytest.raises(Unavailable) as failed:
        client.add_bot(table_id)
    assert [name for name, _ in proxy.calls] == ["AddBot"]
    assert failed.value.code == grpc.StatusCode.CANCELLED
    assert str(failed.value) == (
        f"no answer from the trapoula server at {proxy.address}: planned CANCELLED "
        "(AddBot is not retried: it may have reached the server)"
    )


@pytest.mark.parametrize("ran", [False, True], ids=["cancelled-unrun", "cancelled-after-it-ran"])
def test_create_table_and_join_answered_cancelled_are_retried_with_the_same_request_id(
    ran: bool, replicas: list[Replica], proxy: StatusProxy
) -> None:
    """``CANCELLED`` before or after the replica ran the call: the client sends the same request id
    again, and the server answers the same table and the same seat: one table, one seat taken."""
    a, _ = replicas
    proxy.plan = [
        Break("CreateTable", grpc.StatusCode.CANCELLED, ran),
        Break("JoinTable", grpc.StatusCode.CANCELLED, ran),
    ]
    seen: list[Reconnected] = []
    with TableClient(proxy.address, retry_for=BUDGET, on_reconnect=seen.append) as client:
        table = client.create_table("agonia", seats=2)
        joined = client.join(table.table_id, "ann")
    creates = proxy.requests("CreateTable", table_pb2.CreateTableRequest)
    joins = proxy.requests("JoinTable", table_pb2.JoinTableRequest)
    assert len(creates) == len(joins) == 2
    assert creates[0].request_id == creates[1].request_id != ""
    assert joins[0].request_id == joins[1].request_id != ""
    with TableClient(a.address) as direct:
        assert [t.table_id for t in direct.list_tables()] == [table.table_id]
        assert direct.view(table.table_id).view["table"]["seats"] == [
            {"seat": 0, "name": "ann", "bot": None},
            {"seat": 1, "free": True},
        ]
    assert joined.seat == 0
    assert [(r.call, r.attempts) for r in seen] == [("CreateTable", 1), ("JoinTable", 1)]


def test_a_server_down_then_back_on_the_same_port_within_the_budget(
    replicas: list[Replica], open_tables: Callable[[], Tables]
) -> None:
    a, _ = replicas
    seen: list[Reconnected] = []
    with TableClient(a.address, retry_for=BUDGET, on_reconnect=seen.append) as client:
        assert [g.key for g in client.list_games()][:1] == ["agonia"]
        a.stop()
        restart_later(replicas, a.port, open_tables(), 0.5)
        games = client.list_games()
    assert "agonia" in [g.key for g in games]
    assert len(seen) == 1
    assert (seen[0].call, seen[0].target, seen[0].failed) == ("ListGames", a.address, (a.address,))
    assert seen[0].attempts >= 1


def test_an_exhausted_budget_raises_unavailable_naming_the_servers_tried() -> None:
    dead = [f"127.0.0.1:{free_port()}", f"127.0.0.1:{free_port()}"]
    with TableClient(",".join(dead), retry_for=0.5) as client, pytest.raises(Unavailable) as failed:
        client.list_tables()
    message = str(failed.value)
    assert message.startswith(f"no answer from the trapoula servers at {dead[0]}, {dead[1]} after ")
    attempts = int(message.split(" after ")[1].split(" attempts")[0])
    assert attempts >= 2
    assert "failed to connect to all addresses" in message
    assert failed.value.code == grpc.StatusCode.UNAVAILABLE


def test_refusals_are_not_retried(replicas: list[Replica]) -> None:
    """``FAILED_PRECONDITION`` (an illegal move) and ``PERMISSION_DENIED`` (a wrong token) go
    back to the caller after one attempt."""
    a, _ = replicas
    with TableClient(a.address) as owner:
        table_id, ann_token, _ = two_seats(owner)
    tap = Tap()
    with tapped(a.address, tap, retry_for=BUDGET) as ann:
        ann.token = ann_token
        with pytest.raises(CommandRejected):
            ann.act(table_id, {"kind": "choose_suit", "suit": "H"})  # no suit is to be chosen
        assert tap.names() == ["Act"]
        ann.token = "not-a-token"
        with pytest.raises(PermissionDenied):
            ann.act(table_id, {"kind": "draw"})
        assert tap.names() == ["Act", "Act"]


def test_create_table_is_retried_once_it_may_have_reached_a_server(replicas: list[Replica]) -> None:
    """The server made the table, the reply was lost: the retry with the same request id answers
    that table, and there is one table."""
    a, _ = replicas
    tap = Tap(lose={"CreateTable"})
    with tapped(a.address, tap, retry_for=BUDGET) as client:
        table = client.create_table("agonia", seats=2)
    assert tap.names() == ["CreateTable", "CreateTable"]
    assert table.table_id == tap.lost["CreateTable"].table_id
    with TableClient(a.address) as client:
        assert [t.table_id for t in client.list_tables()] == [table.table_id]


def test_create_table_is_retried_when_it_never_reached_a_server(replicas: list[Replica]) -> None:
    """The first server refuses the connection (gRPC never sent the call): the next one makes
    the table, once."""
    _, b = replicas
    dead = f"127.0.0.1:{free_port()}"
    seen: list[Reconnected] = []
    with TableClient([dead, b.address], retry_for=BUDGET, on_reconnect=seen.append) as client:
        table = client.create_table("agonia", seats=2)
        assert [t.table_id for t in client.list_tables()] == [table.table_id]
    assert [(r.call, r.target, r.failed, r.attempts) for r in seen] == [("CreateTable", b.address, (dead,), 1)]


# --------------------------------------------------------------------------- settings


def test_targets_and_budget_are_checked() -> None:
    with TableClient(" h1:1 , h2:2,h1:1") as client:
        assert client.targets == ("h1:1", "h2:2")
        assert client.target == "h1:1"
        assert client.retry_for == table_module.DEFAULT_RETRY_FOR == 30.0
    with TableClient(["h1:1"], retry_for=0) as client:
        assert client.targets == ("h1:1",) and client.retry_for == 0.0
    for bad in ("a:1,,b:2", [], ["a:1", 2], b"a:1"):
        with pytest.raises(InvalidArgument, match="is not a host:port address"):
            TableClient(bad)  # type: ignore[arg-type]
    for budget in (-1, "5", True):
        with pytest.raises(InvalidArgument, match="is not a number of seconds >= 0"):
            TableClient("h1:1", retry_for=budget)  # type: ignore[arg-type]
    with pytest.raises(InvalidArgument, match="a given channel goes with one address"):
        TableClient("h1:1,h2:2", channel=grpc.insecure_channel("h1:1"))


def test_the_backoff_grows_by_1_6_up_to_2_seconds_with_jitter(monkeypatch: pytest.MonkeyPatch) -> None:
    """The largest jitter (x1.2): 0.12, 0.192, 0.3072 ... s; the 8th wait would be 0.1 x 1.6^7 =
    2.68 s, capped at 2 s (x1.2 = 2.4 s); no wait goes past the end of the budget."""
    monkeypatch.setattr(table_module.random, "uniform", lambda low, high: high)
    client = TableClient("h1:1", retry_for=100)
    outage = table_module._Outage(client, "GetView")
    waits = []
    for _ in range(9):
        outage.attempts += 1
        waits.append(round(outage.delay(), 4))
    assert waits == [0.12, 0.192, 0.3072, 0.4915, 0.7864, 1.2583, 2.0133, 2.4, 2.4]
    client.retry_for = 1.0
    outage.started -= 0.75
    assert 0 < outage.delay() <= 0.25
    client.close()


def test_a_watch_without_a_client_raises_as_before() -> None:
    """A :class:`Watch` built on a bare call (no client to reconnect through) raises the typed error."""

    class Broken:
        def __iter__(self) -> Iterator[Any]:
            raise LostReply()

        def cancel(self) -> None:
            pass

    with Watch(Broken()) as watch, pytest.raises(Unavailable, match="Socket closed"):
        list(watch)
