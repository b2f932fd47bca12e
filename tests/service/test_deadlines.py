"""The server's own deadline of a call (docs/operations.md, Deadlines): a unary call half sent is
answered ``DEADLINE_EXCEEDED`` and its stream reset within the deadline, its task freed; a watch
stream whose request never comes likewise; a whole request without the end of its stream is
served at once."""

from __future__ import annotations

import asyncio
import json
import socket
import time
import urllib.request
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
from trapoula.service.server import start_connect
from trapoula.service.settings import Settings

DEADLINE = 0.6
"""The test's server deadline (seconds)."""
SLACK = 3.0
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
    assert outcome.status == 0 and outcome.done_after is not None  # answered OK: within the deadline
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


@pytest.mark.process
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


def test_a_connect_request_body_cut_short_is_answered_at_the_deadline(table: tuple[ServerThread, str]) -> None:
    server, table_id = table
    assert server.server is not None
    connect, port = server._submit(start_connect(server.server, "127.0.0.1:0", (), DEADLINE))
    try:
        body = json.dumps({"tableId": table_id}).encode()
        head = (
            "POST /trapoula.api.v1.TableService/GetView HTTP/1.1\r\nHost: localhost\r\n"
            f"Content-Type: application/json\r\nContent-Length: {len(body) + 10}\r\n\r\n"
        ).encode()
        with socket.create_connection(("127.0.0.1", port), timeout=DEADLINE + SLACK) as sock:
            sock.sendall(head + body)  # ten bytes short
            sent = time.monotonic()
            reply = b""
            while b"}" not in reply.partition(b"\r\n\r\n")[2]:  # until the JSON error is whole
                chunk = sock.recv(65536)
                if not chunk:
                    break
                reply += chunk
            waited = time.monotonic() - sent
        status_line, _, rest = reply.partition(b"\r\n")
        assert status_line.split()[1] == b"504", reply  # Connect's deadline_exceeded
        chunked = rest.partition(b"\r\n\r\n")[2]  # one chunk: its size, then the JSON error
        error = json.loads(chunked[chunked.index(b"{") : chunked.rindex(b"}") + 1])
        assert error["code"] == "deadline_exceeded" and "the request of this call" in error["message"]
        assert DEADLINE * 0.9 <= waited <= DEADLINE + SLACK
        status, answer = _connect_post(port, "GetView", {"tableId": table_id})  # a whole one: served
        assert status == 200 and "view" in answer
    finally:
        server._submit(connect.stop())


def _connect_post(port: int, method: str, body: dict[str, str]) -> tuple[int, dict[str, object]]:
    request = urllib.request.Request(
        f"http://127.0.0.1:{port}/trapoula.api.v1.TableService/{method}",
        json.dumps(body).encode(),
        {"Content-Type": "application/json"},
        method="POST",
    )
    with urllib.request.urlopen(request, timeout=10) as reply:
        return int(reply.status), json.loads(reply.read())


def test_a_unary_call_is_cut_at_the_deadline_as_a_whole_and_a_writing_stream_only_for_its_request() -> None:
    """The whole-call deadline of a unary method, and a streaming method written with
    ``context.write`` (as grpc's health ``Watch``), on a bare grpc.aio server."""
    ran: list[str] = []

    async def slow(request: bytes, context: grpc.aio.ServicerContext[bytes, bytes]) -> bytes:
        try:
            await asyncio.sleep(30)
        except asyncio.CancelledError:
            ran.append("cancelled")
            raise
        return request

    async def writes(request: bytes, context: grpc.aio.ServicerContext[bytes, bytes]) -> None:
        for _ in range(3):
            await asyncio.sleep(DEADLINE)  # three times the deadline in all: a stream is exempt once started
            await context.write(request)

    async def scenario() -> None:
        server = grpc.aio.server(interceptors=(CallDeadline(DEADLINE),))
        handlers = {
            "Slow": grpc.unary_unary_rpc_method_handler(slow),
            "Writes": grpc.unary_stream_rpc_method_handler(writes),
        }
        server.add_generic_rpc_handlers((grpc.method_handlers_generic_handler("t.T", handlers),))
        port = server.add_insecure_port("127.0.0.1:0")
        await server.start()
        try:
            async with grpc.aio.insecure_channel(f"127.0.0.1:{port}") as channel:
                started = time.monotonic()
                with pytest.raises(grpc.aio.AioRpcError) as cut:
                    await channel.unary_unary("/t.T/Slow")(b"x")
                assert cut.value.code() is grpc.StatusCode.DEADLINE_EXCEEDED
                assert "the server's deadline for this call (0.6 s)" in (cut.value.details() or "")
                assert DEADLINE * 0.9 <= time.monotonic() - started <= DEADLINE + SLACK
                assert ran == ["cancelled"]
                replies = [reply async for reply in channel.unary_stream("/t.T/Writes")(b"y")]
                assert replies == [b"y", b"y", b"y"]
            outcome = await asyncio.to_thread(call, port, "/t.T/Writes")  # no request: cut at the deadline
            _expired(outcome)
        finally:
            await server.stop(None)

    asyncio.run(scenario())
