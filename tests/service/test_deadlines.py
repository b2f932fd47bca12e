"""The server's own deadline of a call (docs/operations.md, Deadlines): a unary call half sent is
answered ``DEADLINE_EXCEEDED`` and its stream reset within the deadline, its task freed; a watch
stream whose request never comes likewise; a whole request without the end of its stream is
served at once."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Iterator
from pathlib import Path

import grpc
import pytest
from grpc_helpers import SECRET, ServerThread
from processes import ServerProcess
from rawh2 import Outcome, call, frame

from trapoula.api.v1 import table_pb2 as pb
from trapoula.api.v1 import table_pb2_grpc
from trapoula.service.application import Tables
from trapoula.service.deadlines import CallDeadline
from trapoula.service.settings import Settings

DEADLINE = 0.6
"""The test's server deadline (seconds)."""
SLACK = 2.0
"""How much later than the deadline a slow shared machine may answer (seconds)."""
DEADLINE_EXCEEDED = grpc.StatusCode.DEADLINE_EXCEEDED.value[0]


@pytest.fixture
def table(tmp_path: Path) -> Iterator[tuple[ServerThread, str]]:
    tables = Tables(f"sqlite:///{tmp_path / 'd.sqlite3'}", SECRET)
    table_id, _owner = tables.create_table("agonia", 2, {"target_points": 0})
    try:
        with ServerThread(tables, call_deadline=DEADLINE) as server:
            yield server, table_id
    finally:
        tables.close()


def _tasks(server: ServerThread) -> int:
    async def count() -> int:
        return len(asyncio.all_tasks())

    return int(server._submit(count()))


def _settles_to(server: ServerThread, before: int) -> int:
    """The number of tasks of the server's loop once back to ``before`` (the finished calls'
    tasks end a moment after their reply), or as it is after 2 s."""
    deadline = time.monotonic() + 2.0
    while (now := _tasks(server)) != before and time.monotonic() < deadline:
        time.sleep(0.05)
    return now


def _expired(outcome: Outcome) -> None:
    assert outcome.status == DEADLINE_EXCEEDED, outcome
    assert outcome.headers[b"grpc-message"].startswith(b"the server's deadline for ")
    assert outcome.done_after is not None and DEADLINE * 0.9 <= outcome.done_after <= DEADLINE + SLACK
    assert outcome.reset_after is not None  # the stream the client left open is reset: nothing of it is kept


def test_a_unary_call_with_headers_and_no_body_is_answered_at_the_deadline(table: tuple[ServerThread, str]) -> None:
    server, _ = table
    before = _tasks(server)
    _expired(call(server.port, "/trapoula.api.v1.TableService/GetView"))
    assert _settles_to(server, before) == before  # the call's task is gone


def test_a_request_cut_short_is_answered_at_the_deadline(table: tuple[ServerThread, str]) -> None:
    server, table_id = table
    before = _tasks(server)
    whole = frame(pb.GetViewRequest(table_id=table_id).SerializeToString())
    _expired(call(server.port, "/trapoula.api.v1.TableService/GetView", whole[:3]))  # the length prefix cut
    _expired(call(server.port, "/trapoula.api.v1.TableService/GetView", whole[:-4]))  # the message cut
    _expired(call(server.port, "/grpc.health.v1.Health/Check", frame(b"\x0a\x00")[:6]))  # every service
    assert _settles_to(server, before) == before


def test_a_watch_whose_request_never_comes_is_answered_at_the_deadline(table: tuple[ServerThread, str]) -> None:
    server, table_id = table
    before = _tasks(server)
    whole = frame(pb.WatchTableRequest(table_id=table_id).SerializeToString())
    outcome = call(server.port, "/trapoula.api.v1.TableService/WatchTable", whole[:7])
    _expired(outcome)
    assert b"the request of this stream" in outcome.headers[b"grpc-message"]
    assert _settles_to(server, before) == before


def test_a_whole_request_is_served_at_once_and_a_watch_outlives_the_deadline(table: tuple[ServerThread, str]) -> None:
    server, table_id = table
    whole = frame(pb.GetViewRequest(table_id=table_id).SerializeToString())
    outcome = call(server.port, "/trapoula.api.v1.TableService/GetView", whole)  # the client never ends its side
    assert outcome.status == 0 and outcome.done_after is not None and outcome.done_after < DEADLINE
    with grpc.insecure_channel(server.address) as channel:
        stub = table_pb2_grpc.TableServiceStub(channel)
        stream = stub.WatchTable(pb.WatchTableRequest(table_id=table_id), timeout=DEADLINE * 3)
        first = next(stream)  # the table as it is, then nothing until its deadline: the caller's
        assert first.HasField("view")
        with pytest.raises(grpc.RpcError) as ended:
            for _ in stream:
                pass
        assert ended.value.code() is grpc.StatusCode.DEADLINE_EXCEEDED
        assert "server's deadline" not in (ended.value.details() or "")  # the caller's own, at 3 x
        assert len(stub.ListGames(pb.ListGamesRequest(), timeout=5).games) >= 6  # unary calls: as ever


def test_the_deadline_is_a_setting() -> None:
    assert Settings().call_deadline_seconds == 30.0
    assert Settings.from_env({"TRAPOULA_CALL_DEADLINE_SECONDS": "2.5"}).call_deadline_seconds == 2.5
    assert Settings.from_args(["--call-deadline-seconds", "0.5"], {}).call_deadline_seconds == 0.5
    with pytest.raises(ValueError, match=r"^TRAPOULA_CALL_DEADLINE_SECONDS: call deadline '0' is not a number"):
        Settings.from_env({"TRAPOULA_CALL_DEADLINE_SECONDS": "0"})
    with pytest.raises(ValueError, match="must be positive"):
        CallDeadline(0)


def test_a_server_process_applies_its_deadline_setting(tmp_path: Path) -> None:
    server = ServerProcess(
        f"sqlite:///{tmp_path / 'p.sqlite3'}",
        tmp_path / "server.log",
        secret_hex=SECRET.hex(),
        extra=["--call-deadline-seconds", str(DEADLINE), "--metrics-address", "off"],
    ).start()
    try:
        _expired(call(int(server.address.rsplit(":", 1)[1]), "/trapoula.api.v1.TableService/ListGames"))
    finally:
        assert server.terminate() == 0
