"""Limits per client (docs/operations.md, Limits): token buckets on ``CreateTable``, ``JoinTable``
and ``Act``, open tables per owner, ``WatchTable`` streams per client; a refusal is
``RESOURCE_EXHAUSTED`` with an ``ErrorInfo`` and a ``RetryInfo``, over gRPC and Connect alike,
and stores nothing."""

from __future__ import annotations

import base64
import time
from collections.abc import Callable, Iterator
from datetime import timedelta
from typing import Any

import grpc
import pytest
from connectrpc.code import Code
from connectrpc.errors import ConnectError
from google.rpc import error_details_pb2, status_pb2  # type: ignore[import-untyped]
from grpc_helpers import ServerThread, connect_post
from grpc_status import rpc_status

from trapoula.api.v1 import table_pb2 as pb
from trapoula.api.v1 import table_pb2_grpc
from trapoula.api.v1.table_connect import TableServiceClientSync
from trapoula.clients.errors import ResourceExhausted, Unavailable
from trapoula.clients.table import TableClient
from trapoula.service import limits as limits_module
from trapoula.service.application import Tables
from trapoula.service.connect import ConnectServer
from trapoula.service.errors import Limited
from trapoula.service.limits import (
    ACT,
    CREATE,
    IDLE_SECONDS,
    JOIN,
    SLOT_RETRY_SECONDS,
    Buckets,
    Limits,
    LimitSettings,
    Rate,
    client_key,
    peer_host,
)
from trapoula.service.server import metrics_of, start_connect
from trapoula.service.settings import Settings

pytestmark = pytest.mark.timeout(120)


class Clock:
    """A clock the test moves by hand."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


class Peer:
    """A call's context, as far as the limits read it."""

    def __init__(self, peer: str) -> None:
        self._peer = peer

    def peer(self) -> str:
        return self._peer


ANN, BOB = Peer("ipv4:10.0.0.1:40000"), Peer("ipv4:10.0.0.2:40000")


def refused(call: Any) -> Limited:
    with pytest.raises(Limited) as caught:
        call()
    return caught.value


# --------------------------------------------------------------------------- the limiter alone


def test_the_client_is_the_peer_host_or_the_verified_identity() -> None:
    assert peer_host("ipv4:127.0.0.1:50123") == "127.0.0.1"
    assert peer_host("ipv6:[::1]:50123") == "::1"
    assert peer_host("ipv6:%5B2001:db8::7%5D:443") == "2001:db8::7"
    assert client_key("ipv4:10.0.0.1:1") == client_key("ipv4:10.0.0.1:2") == "ip:10.0.0.1"  # any connection
    assert client_key("ipv4:10.0.0.1:1", "player-7") == "id:player-7"
    assert client_key("ipv4:10.0.0.1:1", "player-7") != client_key("ipv4:10.0.0.2:1", "player-8")


def test_a_bucket_lets_its_burst_through_then_its_rate_and_says_how_long_to_wait() -> None:
    clock = Clock()
    limits = Limits(LimitSettings(create=Rate(4.0, 3)), clock=clock)
    for _ in range(3):
        limits.check(CREATE, ANN)
    first = refused(lambda: limits.check(CREATE, ANN))
    assert (first.reason, first.limit) == ("rate_limited", "CreateTable")
    assert first.retry_after == pytest.approx(0.25)  # (1 - 0 tokens) / 4 a second
    clock.now += 0.1  # 0.4 token
    assert refused(lambda: limits.check(CREATE, ANN)).retry_after == pytest.approx(0.15)  # (1 - 0.4) / 4
    clock.now += 0.15
    limits.check(CREATE, ANN)  # a token again
    clock.now += 10  # refilled, up to the burst only
    for _ in range(3):
        limits.check(CREATE, ANN)
    assert refused(lambda: limits.check(CREATE, ANN)).retry_after == pytest.approx(0.25)


def test_limits_are_per_client_and_per_method() -> None:
    clock = Clock()
    limits = Limits(LimitSettings(create=Rate(1.0, 1), join=Rate(1.0, 1), act=Rate(1.0, 1)), clock=clock)
    limits.check(CREATE, ANN)
    refused(lambda: limits.check(CREATE, ANN))
    limits.check(CREATE, BOB)  # another client: its own bucket
    limits.check(CREATE, Peer("ipv6:[::1]:5"))
    limits.check(JOIN, ANN)  # another method: its own bucket
    limits.check(ACT, ANN)
    assert refused(lambda: limits.check(JOIN, ANN)).limit == "JoinTable"
    assert refused(lambda: limits.check(ACT, ANN)).limit == "Act"


def test_a_limit_of_zero_is_off() -> None:
    limits = Limits(LimitSettings.off(), clock=Clock())
    for _ in range(10_000):
        limits.check(ACT, ANN)
        limits.open_watch(ANN)
        with limits.new_table(ANN) as slot:
            slot.created("t")
    assert limits.watches == {} and limits.owned == {}
    assert Limits(LimitSettings(act=Rate(5.0, 0)), clock=Clock()).rates[ACT] is None


def test_idle_clients_are_forgotten_and_memory_stays_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    clock = Clock()
    buckets = Buckets(Rate(10.0, 5), clock)
    for n in range(100):
        assert buckets.take(f"ip:10.0.{n // 256}.{n % 256}") == 0.0
    assert len(buckets.entries) == 100
    clock.now += 0.05  # half a token back each (4.5 of 5): not full yet
    buckets.sweep(clock.now)
    assert len(buckets.entries) == 100
    clock.now += limits_module.SWEEP_SECONDS  # every bucket refilled: forgotten at the next new client
    buckets.take("ip:192.0.2.1")
    assert list(buckets.entries) == ["ip:192.0.2.1"]
    monkeypatch.setattr(limits_module, "MAX_CLIENTS", 50)
    for n in range(200):  # all busy (not refilled): beyond the bound the oldest go
        buckets.take(f"ip:198.51.100.{n}")
    assert len(buckets.entries) <= 50
    assert "ip:198.51.100.199" in buckets.entries


def test_open_tables_count_until_their_match_ends_or_they_leave_the_cache() -> None:
    open_here: dict[str, bool] = {}
    limits = Limits(LimitSettings(max_open_tables=2), open_here=lambda t: open_here.get(t, False), clock=Clock())
    for table_id in ("t1", "t2"):
        with limits.new_table(ANN) as slot:
            open_here[table_id] = True
            slot.created(table_id)
    error = refused(lambda: limits.new_table(ANN))
    assert (error.reason, error.limit, error.retry_after) == ("too_many_tables", "open_tables", SLOT_RETRY_SECONDS)
    with limits.new_table(BOB) as slot:  # another client
        slot.created("b1")
    open_here["t1"] = False  # its match ended (or it left the cache)
    with limits.new_table(ANN) as slot:
        open_here["t3"] = True
        slot.created("t3")
    assert list(limits.owned["ip:10.0.0.1"]) == ["t2", "t3"]
    refused(lambda: limits.new_table(ANN))
    with pytest.raises(RuntimeError), limits.new_table(BOB):  # a creation that fails frees its slot
        raise RuntimeError("store down")
    assert limits.open_tables("ip:10.0.0.2") == 1 and limits.creating == {}


def test_tables_being_created_count_so_a_burst_cannot_overshoot() -> None:
    limits = Limits(LimitSettings(max_open_tables=3), open_here=lambda t: True, clock=Clock())
    slots = [limits.new_table(ANN) for _ in range(3)]  # three calls in flight, none created yet
    refused(lambda: limits.new_table(ANN))
    for n, slot in enumerate(slots):
        with slot:
            slot.created("same" if n < 2 else "other")  # a retried request id names the same table
    assert limits.open_tables("ip:10.0.0.1") == 2
    with limits.new_table(ANN) as slot:
        slot.created("third")


def test_the_sweep_forgets_owners_whose_tables_all_ended() -> None:
    clock = Clock()
    alive = {"t1": True}
    limits = Limits(LimitSettings(max_open_tables=10), open_here=lambda t: alive.get(t, False), clock=clock)
    with limits.new_table(ANN) as slot:
        slot.created("t1")
    alive["t1"] = False
    clock.now += limits_module.SWEEP_SECONDS
    with limits.new_table(BOB) as slot:  # any creation after the interval sweeps
        slot.created("b1")
    assert list(limits.owned) == ["ip:10.0.0.2"]


def test_watch_streams_count_while_open() -> None:
    limits = Limits(LimitSettings(max_watches=2), clock=Clock())
    keys = [limits.open_watch(ANN), limits.open_watch(ANN)]
    error = refused(lambda: limits.open_watch(ANN))
    assert (error.reason, error.limit, error.retry_after) == ("too_many_watches", "watches", SLOT_RETRY_SECONDS)
    limits.open_watch(BOB)
    limits.close_watch(keys[0])
    keys[0] = limits.open_watch(ANN)
    for key in keys:
        limits.close_watch(key)
    assert limits.watches == {"ip:10.0.0.2": 1}


def test_the_defaults_let_the_load_tool_set_up_400_tables_at_once_and_play() -> None:
    """``trapoula load`` from one address: 400 CreateTable, 1,600 JoinTable and 2,000 streams at
    once (a frozen clock), then ~500 Act a second for a minute with new tables as matches end."""
    clock = Clock()
    alive: dict[str, None] = {}  # the tables whose match goes on, oldest first
    limits = Limits(open_here=alive.__contains__, clock=clock)
    defaults = limits.settings
    assert (defaults.create, defaults.join, defaults.act) == (Rate(20.0, 500), Rate(100.0, 2000), Rate(1000.0, 2000))
    assert (defaults.max_open_tables, defaults.max_watches) == (1000, 5000)
    slots = [limits.new_table(ANN) for _ in range(400)]
    for n, slot in enumerate(slots):
        with slot:
            alive[f"t{n}"] = None
            slot.created(f"t{n}")
    for _ in range(1600):
        limits.check(JOIN, ANN)
    for _ in range(2000):
        limits.open_watch(ANN)
    for n in range(30_000):  # 60 s at 500 Act a second; a match ends every 40 moves: 12.5 new tables a second
        clock.now += 0.002
        limits.check(ACT, ANN)
        if n % 40 == 0:
            del alive[next(iter(alive))]
            with limits.new_table(ANN) as slot:
                alive[f"new{n}"] = None
                slot.created(f"new{n}")
            for _ in range(4):
                limits.check(JOIN, ANN)
    limits.sweep_tables()
    assert limits.open_tables("ip:10.0.0.1") == len(alive) == 400


def test_the_settings_reach_the_limits() -> None:
    env = {"TRAPOULA_LIMIT_CREATE_PER_SECOND": "0.5", "TRAPOULA_LIMIT_CREATE_BURST": "3", "TRAPOULA_MAX_WATCHES": "0"}
    settings = Settings.from_args(["--limit-act-burst", "7", "--max-open-tables", "9"], env)
    limits = LimitSettings.of(settings)
    assert limits.create == Rate(0.5, 3) and limits.act == Rate(1000.0, 7)
    assert (limits.max_open_tables, limits.max_watches) == (9, 0)
    with pytest.raises(ValueError, match="TRAPOULA_LIMIT_JOIN_BURST"):
        Settings.from_env({"TRAPOULA_LIMIT_JOIN_BURST": "-1"})
    with pytest.raises(SystemExit):
        Settings.from_args(["--limit-act-per-second", "fast"], {})


# --------------------------------------------------------------------------- over gRPC and Connect


def exhausted(call: Callable[[], Any]) -> tuple[str, str, float | None]:
    """The ``ErrorInfo`` reason, its ``limit`` and the ``RetryInfo`` delay of ``call``, which must be
    refused ``RESOURCE_EXHAUSTED``."""
    with pytest.raises(grpc.RpcError) as caught:
        call()
    assert caught.value.code() == grpc.StatusCode.RESOURCE_EXHAUSTED
    info, delay = rich(caught.value)
    return info.reason, info.metadata["limit"], delay


def rich(error: grpc.RpcError) -> tuple[error_details_pb2.ErrorInfo, float | None]:
    """The ``ErrorInfo`` and the ``RetryInfo`` delay (seconds) of a failed call."""
    status = rpc_status.from_call(error)
    assert status is not None
    info, delay = error_details_pb2.ErrorInfo(), None
    for detail in status.details:
        if detail.Is(error_details_pb2.RetryInfo.DESCRIPTOR):
            retry = error_details_pb2.RetryInfo()
            detail.Unpack(retry)
            delay = retry.retry_delay.ToNanoseconds() / 1e9
        else:
            assert detail.Unpack(info)
    return info, delay


class LimitedServer:
    """A server whose limits run on a clock the test moves, with a Connect endpoint."""

    def __init__(self, tables: Tables, settings: LimitSettings) -> None:
        self.clock = Clock()
        self.limits = Limits(settings, clock=self.clock)
        self.thread = ServerThread(tables, limits=self.limits).start()
        assert self.thread.server is not None
        self.connect: ConnectServer | None = None
        self.connect, port = self.thread._submit(start_connect(self.thread.server, "127.0.0.1:0"))
        self.base = f"http://127.0.0.1:{port}"
        self.channel = grpc.insecure_channel(self.thread.address)
        self.stub = table_pb2_grpc.TableServiceStub(self.channel)

    def limited(self, method: str, reason: str, least: float = 1.0) -> float:
        """``trapoula_limited_total`` of ``method`` and ``reason``, once it reaches ``least`` (a call
        is counted as it ends, just after its status was sent) or after 5 s."""
        metrics = metrics_of(self.thread.server) if self.thread.server is not None else None
        assert metrics is not None
        labels = {"method": method, "reason": reason}
        deadline = time.monotonic() + 5
        while True:
            value = metrics.registry.get_sample_value("trapoula_limited_total", labels) or 0.0
            if value >= least or time.monotonic() > deadline:
                return value
            time.sleep(0.01)

    def post(self, method: str, body: dict[str, Any]) -> tuple[int, dict[str, Any]]:
        return connect_post(self.base, method, body)

    def close(self) -> None:
        self.channel.close()
        if self.connect is not None:
            self.thread._submit(self.connect.stop())
        self.thread.stop()


@pytest.fixture
def make_server(sqlite_tables: Tables) -> Iterator[Any]:
    made: list[LimitedServer] = []

    def make(settings: LimitSettings) -> LimitedServer:
        server = LimitedServer(sqlite_tables, settings)
        made.append(server)
        return server

    try:
        yield make
    finally:
        for server in made:
            server.close()


AGONIA = {"game": "agonia", "seats": 2, "options": {"target_points": 0}}


def create(stub: table_pb2_grpc.TableServiceStub) -> pb.CreateTableResponse:
    return stub.CreateTable(pb.CreateTableRequest(game="agonia", seats=2, options={"target_points": 0}))


def test_a_client_over_its_create_rate_is_refused_with_the_delay_and_nothing_is_stored(
    make_server: Any, sqlite_tables: Tables
) -> None:
    server = make_server(LimitSettings(create=Rate(0.5, 2)))
    made = [create(server.stub).table_id for _ in range(2)]
    with pytest.raises(grpc.RpcError) as caught:
        create(server.stub)
    assert caught.value.code() == grpc.StatusCode.RESOURCE_EXHAUSTED
    info, delay = rich(caught.value)
    assert (info.reason, info.domain, dict(info.metadata)) == ("rate_limited", "trapoula", {"limit": "CreateTable"})
    assert delay == 2.0  # no token left: (1 - 0) / 0.5 a second
    assert "retry in 2.000 s" in (caught.value.details() or "")
    server.clock.now += 1.5  # 0.75 token: (1 - 0.75) / 0.5
    with pytest.raises(grpc.RpcError) as again:
        create(server.stub)
    assert rich(again.value)[1] == 0.5
    listed = server.stub.ListTables(pb.ListTablesRequest())
    assert sorted(t.table_id for t in listed.tables) == sorted(made)  # the refused calls stored nothing
    assert sorted(sqlite_tables.table_ids()) == sorted(made)
    assert server.limited("CreateTable", "rate_limited", 2) == 2
    server.clock.now += 0.5
    create(server.stub)


def test_join_and_act_are_limited_before_anything_runs(make_server: Any, sqlite_tables: Tables) -> None:
    server = make_server(LimitSettings(join=Rate(1.0, 2), act=Rate(2.0, 1)))
    created = create(server.stub)
    seats = [server.stub.JoinTable(pb.JoinTableRequest(table_id=created.table_id, name=n)) for n in ("a", "b")]
    with pytest.raises(grpc.RpcError) as join:
        server.stub.JoinTable(pb.JoinTableRequest(table_id=created.table_id, name="c"))
    assert (join.value.code(), *rich(join.value)) == (
        grpc.StatusCode.RESOURCE_EXHAUSTED,
        error_details_pb2.ErrorInfo(reason="rate_limited", domain="trapoula", metadata={"limit": "JoinTable"}),
        1.0,
    )
    server.stub.StartMatch(
        pb.StartMatchRequest(table_id=created.table_id, command_id="go"),
        metadata=(("authorization", f"Bearer {created.owner_token}"),),
    )
    version = len(sqlite_tables.stored_events(created.table_id))
    token = seats[0].seat_token
    draw = pb.ActRequest(table_id=created.table_id, command_id="m1", command=pb.Command(draw=pb.DrawCard()))
    try:
        server.stub.Act(draw, metadata=(("authorization", f"Bearer {token}"),))
    except grpc.RpcError as first:  # not this seat's turn: refused by the rules, a token spent all the same
        assert first.code() == grpc.StatusCode.FAILED_PRECONDITION
    after_first = len(sqlite_tables.stored_events(created.table_id))
    with pytest.raises(grpc.RpcError) as act:
        server.stub.Act(draw, metadata=(("authorization", f"Bearer {token}"),))
    assert act.value.code() == grpc.StatusCode.RESOURCE_EXHAUSTED and rich(act.value)[1] == 0.5
    assert len(sqlite_tables.stored_events(created.table_id)) == after_first >= version
    assert server.limited("Act", "rate_limited") == 1 and server.limited("JoinTable", "rate_limited") == 1


def test_open_tables_are_refused_at_the_limit_and_allowed_again_when_a_match_ends(
    make_server: Any, sqlite_tables: Tables
) -> None:
    server = make_server(LimitSettings(max_open_tables=2))
    first, second = create(server.stub), create(server.stub)
    assert exhausted(lambda: create(server.stub)) == ("too_many_tables", "open_tables", SLOT_RETRY_SECONDS)
    assert sorted(sqlite_tables.table_ids()) == sorted([first.table_id, second.table_id])
    owner = (("authorization", f"Bearer {first.owner_token}"),)
    for _ in range(2):  # bots play the first table's match to its end
        server.stub.AddBot(pb.AddBotRequest(table_id=first.table_id, level="random"), metadata=owner)
    server.stub.StartMatch(pb.StartMatchRequest(table_id=first.table_id, command_id="go"), metadata=owner)
    assert sqlite_tables.settle(timeout=60)
    assert not sqlite_tables.open_here(first.table_id) and sqlite_tables.open_here(second.table_id)
    third = create(server.stub)
    assert list(server.limits.owned["ip:127.0.0.1"]) == [second.table_id, third.table_id]
    assert server.limited("CreateTable", "too_many_tables") == 1


def test_a_table_stops_counting_when_it_leaves_the_cache(sqlite_store: Any) -> None:
    tables = sqlite_store.open(cache_size=2)
    try:
        first, _ = tables.create_table("agonia", 2, {"target_points": 0})
        assert tables.open_here(first)
        for _ in range(2):
            tables.create_table("agonia", 2, {"target_points": 0})
        assert not tables.open_here(first)  # evicted: no longer known open here (no store read)
        tables.view(first, tables.authenticate(first, None))
        assert tables.open_here(first)
        assert not tables.open_here("not-a-table-id")
        assert tables.open_here(first, idle_seconds=60)
        time.sleep(0.1)
        assert not tables.open_here(first, idle_seconds=0.05)  # unchanged for longer: abandoned
    finally:
        tables.close()


def test_a_table_left_unchanged_for_ten_minutes_stops_counting(sqlite_tables: Tables) -> None:
    limits = Limits(LimitSettings(max_open_tables=1), clock=Clock())
    limits.attach(sqlite_tables)
    with limits.new_table(ANN) as slot:
        table_id, _ = sqlite_tables.create_table("agonia", 2, {"target_points": 0})
        slot.created(table_id)
    assert refused(lambda: limits.new_table(ANN)).reason == "too_many_tables"
    cached = sqlite_tables.store.cached(table_id)
    assert cached is not None and cached.modified_on is not None
    cached.set_modified_on(cached.modified_on - timedelta(seconds=IDLE_SECONDS + 1))  # abandoned
    with limits.new_table(ANN) as slot:
        slot.created("next")
    assert list(limits.owned["ip:10.0.0.1"]) == ["next"]


def test_watch_streams_are_refused_at_the_limit_and_allowed_again_when_one_closes(make_server: Any) -> None:
    server = make_server(LimitSettings(max_watches=2))
    table_id = create(server.stub).table_id
    request = pb.WatchTableRequest(table_id=table_id)
    streams = [server.stub.WatchTable(request) for _ in range(2)]
    for stream in streams:
        assert next(stream).event.version == 1  # open, and counted
    third = server.stub.WatchTable(request)
    assert exhausted(lambda: next(third)) == ("too_many_watches", "watches", SLOT_RETRY_SECONDS)
    streams[0].cancel()
    deadline = time.monotonic() + 10
    while server.limits.watches.get("ip:127.0.0.1") != 1 and time.monotonic() < deadline:
        time.sleep(0.02)
    assert server.limits.watches == {"ip:127.0.0.1": 1}
    again = server.stub.WatchTable(request)
    assert next(again).event.version == 1
    again.cancel()
    streams[1].cancel()
    assert server.limited("WatchTable", "too_many_watches") == 1


def test_a_connect_client_sees_the_same_status_and_details(make_server: Any) -> None:
    server = make_server(LimitSettings(create=Rate(0.25, 1)))
    status, created = server.post("CreateTable", AGONIA)
    assert status == 200 and created["tableId"]
    with pytest.raises(grpc.RpcError) as over_grpc:  # the same client (127.0.0.1) over both protocols
        create(server.stub)
    status, error = server.post("CreateTable", AGONIA)
    assert status == 429 and error["code"] == "resource_exhausted"
    assert error["message"] == over_grpc.value.details()
    grpc_status = rpc_status.from_call(over_grpc.value)
    assert grpc_status is not None
    sent = [(d["type"], base64.b64decode(d["value"] + "==")) for d in error["details"]]
    assert sent == [(d.type_url.rpartition("/")[2], d.value) for d in grpc_status.details]
    assert [t for t, _ in sent] == ["google.rpc.ErrorInfo", "google.rpc.RetryInfo"]
    assert error_details_pb2.ErrorInfo.FromString(sent[0][1]).reason == "rate_limited"
    assert error_details_pb2.RetryInfo.FromString(sent[1][1]).retry_delay.ToMilliseconds() == 4000
    assert isinstance(grpc_status, status_pb2.Status)


def test_a_connect_watch_counts_with_the_grpc_ones(make_server: Any) -> None:
    server = make_server(LimitSettings(max_watches=1))
    table_id = create(server.stub).table_id
    stream = server.stub.WatchTable(pb.WatchTableRequest(table_id=table_id))
    assert next(stream).event.version == 1
    with TableServiceClientSync(server.base) as client, pytest.raises(ConnectError) as caught:
        list(client.watch_table(pb.WatchTableRequest(table_id=table_id)))
    stream.cancel()
    assert caught.value.code == Code.RESOURCE_EXHAUSTED
    reasons = []
    for detail in caught.value.details:
        info = error_details_pb2.ErrorInfo()
        if detail.Unpack(info):
            reasons.append(info.reason)
    assert reasons == ["too_many_watches"]


def test_the_python_client_exposes_the_retry_delay_and_waits_out_a_short_one(make_server: Any) -> None:
    server = make_server(LimitSettings(create=Rate(0.5, 1), join=Rate(20.0, 1)))
    with TableClient(server.thread.address, rate_wait=0) as client:
        table = client.create_table("agonia", seats=2, options={"target_points": 0})
        with pytest.raises(ResourceExhausted) as caught:
            client.create_table("agonia", seats=2, options={"target_points": 0})
    error = caught.value
    assert (error.code, error.reason, error.retry_delay) == (grpc.StatusCode.RESOURCE_EXHAUSTED, "rate_limited", 2.0)
    assert error.metadata == {"limit": "CreateTable"}
    with TableClient(server.thread.address, rate_wait=1.0) as client:
        with pytest.raises(ResourceExhausted) as long_wait:  # 2 s is more than it waits out: raised at once
            client.create_table("agonia", seats=2, options={"target_points": 0})
        assert long_wait.value.retry_delay == 2.0
    server.limits.clock = time.monotonic  # real time for the joins: 20 a second after the first
    server.limits.rates[JOIN].clock = time.monotonic
    with TableClient(server.thread.address) as client:
        started = time.monotonic()
        seats = [client.join(table.table_id, name).seat for name in ("ann", "bob")]
        took = time.monotonic() - started
    assert seats == [0, 1]
    assert server.limited("JoinTable", "rate_limited") == 1  # the second join was refused once, then waited out
    assert 0.04 <= took < 5


def test_a_watch_refused_for_too_many_streams_waits_within_its_budget_then_says_why(make_server: Any) -> None:
    server = make_server(LimitSettings(max_watches=1))
    table_id = create(server.stub).table_id
    held = server.stub.WatchTable(pb.WatchTableRequest(table_id=table_id))
    assert next(held).event.version == 1
    with TableClient(server.thread.address, retry_for=0.5) as client, client.watch(table_id) as watch:
        started = time.monotonic()
        with pytest.raises(Unavailable) as caught:
            list(watch)
        took = time.monotonic() - started
    held.cancel()
    error = caught.value
    assert (error.code, error.reason, error.retry_delay) == (
        grpc.StatusCode.RESOURCE_EXHAUSTED,
        "too_many_watches",
        SLOT_RETRY_SECONDS,
    )
    assert 0.5 <= took < 5  # waited the budget out (the delay asked for is longer), not a tight loop
    assert server.limited("WatchTable", "too_many_watches", 2) >= 2
