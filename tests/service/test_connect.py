"""The same service over the Connect protocol (docs/browser.md): the Connect endpoint shares the
gRPC server's servicer and ``Tables``, answers the same errors with the same ``ErrorInfo``, streams
``WatchTable`` over HTTP/1.1 and answers CORS only for the allowed origins."""

from __future__ import annotations

import base64
import json
import socket
import threading
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import grpc
import pytest
from connectrpc.code import Code
from connectrpc.errors import ConnectError
from google.rpc import error_details_pb2  # type: ignore[import-untyped]
from grpc_helpers import ServerThread, connect_post, serve_once

from trapoula.api.v1 import table_pb2 as pb
from trapoula.api.v1 import table_pb2_grpc
from trapoula.api.v1.table_connect import TableServiceClientSync
from trapoula.service.application import Tables
from trapoula.service.connect import ConnectServer, connect_code
from trapoula.service.server import StartupError, start_connect, stop_server
from trapoula.service.settings import Settings

pytestmark = pytest.mark.timeout(120)

ORIGIN = "http://cards.example"
PATH = "/trapoula.api.v1.TableService/"


class Both:
    """A gRPC server and its Connect endpoint over one servicer."""

    def __init__(self, thread: ServerThread, connect: ConnectServer, port: int) -> None:
        self.thread, self.connect, self.port = thread, connect, port
        self.base = f"http://127.0.0.1:{port}"

    def post(self, method: str, body: dict[str, Any], token: str | None = None) -> tuple[int, dict[str, Any]]:
        """A unary Connect call in JSON: ``(HTTP status, JSON body)``."""
        return connect_post(self.base, method, body, token)


@pytest.fixture
def both(sqlite_tables: Tables) -> Iterator[Both]:
    thread = ServerThread(sqlite_tables).start()
    assert thread.server is not None
    connect: ConnectServer | None = None
    try:
        connect, port = thread._submit(start_connect(thread.server, "127.0.0.1:0", (ORIGIN,)))
        yield Both(thread, connect, port)
    finally:
        if connect is not None:
            thread._submit(connect.stop())
        thread.stop()


def reason_of(error: dict[str, Any]) -> str:
    """The ``ErrorInfo.reason`` of a Connect error's JSON (its detail's bytes, not its debug form)."""
    [detail] = error["details"]
    assert detail["type"] == "google.rpc.ErrorInfo"
    info = error_details_pb2.ErrorInfo.FromString(base64.b64decode(detail["value"] + "=="))
    assert info.domain == "trapoula"
    return str(info.reason)


def test_connect_codes_are_the_grpc_codes_of_the_same_name() -> None:
    for code in grpc.StatusCode:
        if code is not grpc.StatusCode.OK:
            assert connect_code(code).name.replace("CANCELED", "CANCELLED") == code.name


def test_unary_calls_and_errors_match_grpc(both: Both) -> None:
    status, created = both.post("CreateTable", {"game": "agonia", "seats": 2, "options": {"target_points": 0}})
    assert status == 200 and created["tableId"] and created["ownerToken"]
    table_id = created["tableId"]
    status, joined = both.post("JoinTable", {"tableId": table_id, "name": "ann"})
    assert status == 200 and joined.get("seat", 0) == 0 and joined["seatToken"]  # proto JSON leaves out 0
    # the table is the gRPC server's: a gRPC caller sees the seat taken over Connect
    with grpc.insecure_channel(both.thread.address) as channel:
        stub = table_pb2_grpc.TableServiceStub(channel)
        view = stub.GetView(pb.GetViewRequest(table_id=table_id))
        assert json.loads(view.view.view_json)["names"][0] == "ann"
        with pytest.raises(grpc.RpcError) as grpc_err:
            stub.CreateTable(pb.CreateTableRequest(game="nope", seats=2))
    status, error = both.post("CreateTable", {"game": "nope", "seats": 2})
    assert status == 400 and error["code"] == "invalid_argument"
    assert error["message"] == grpc_err.value.details()
    assert reason_of(error) == "unknown_game"
    status, error = both.post("StartMatch", {"tableId": table_id, "commandId": "c1"}, token="not-a-token")
    assert error["code"] == "permission_denied" and reason_of(error)
    status, error = both.post("GetView", {"tableId": "00000000-0000-4000-8000-000000000000"})
    assert error["code"] == "not_found" and reason_of(error) == "table_not_found"


def test_a_refused_move_is_failed_precondition_with_the_rules_reason(both: Both) -> None:
    _, created = both.post("CreateTable", {"game": "agonia", "seats": 2, "options": {"target_points": 0}})
    table_id, owner = created["tableId"], created["ownerToken"]
    tokens = [both.post("JoinTable", {"tableId": table_id, "name": n})[1]["seatToken"] for n in ("a", "b")]
    status, _ = both.post("StartMatch", {"tableId": table_id, "commandId": "start"}, token=owner)
    assert status == 200
    views = [json.loads(both.post("GetView", {"tableId": table_id}, t)[1]["view"]["viewJson"]) for t in tokens]
    waiting = next(i for i, view in enumerate(views) if not view["legal"])
    status, error = both.post(
        "Act", {"tableId": table_id, "commandId": "x", "command": {"draw": {}}}, token=tokens[waiting]
    )
    assert status == 400 and error["code"] == "failed_precondition"
    assert reason_of(error) and "[" in error["message"]


def test_watch_streams_over_http_1_1_until_the_match_ends(both: Both) -> None:
    with TableServiceClientSync(both.base) as client:
        created = client.create_table(pb.CreateTableRequest(game="agonia", seats=2, options={"target_points": 0}))
        for _ in range(2):
            client.add_bot(
                pb.AddBotRequest(table_id=created.table_id, level="random"),
                headers={"authorization": f"Bearer {created.owner_token}"},
            )
        client.start_match(
            pb.StartMatchRequest(table_id=created.table_id, command_id="go"),
            headers={"authorization": f"Bearer {created.owner_token}"},
        )
        items = list(client.watch_table(pb.WatchTableRequest(table_id=created.table_id, from_version=0)))
    versions = [item.event.version for item in items]
    assert versions == list(range(1, len(versions) + 1))
    assert items[-1].event.name == "MatchEnded"
    with grpc.insecure_channel(both.thread.address) as channel:
        stub = table_pb2_grpc.TableServiceStub(channel)
        over_grpc = list(stub.WatchTable(pb.WatchTableRequest(table_id=created.table_id), timeout=60))
        batched_grpc = list(stub.WatchTable(pb.WatchTableRequest(table_id=created.table_id, batch=True), timeout=60))
    assert over_grpc == items
    with TableServiceClientSync(both.base) as client:  # batched: the finished match's 200 first events, and so on
        batched = list(client.watch_table(pb.WatchTableRequest(table_id=created.table_id, batch=True)))
    assert batched == batched_grpc
    assert [len(m.events) for m in batched] == [min(200, len(items) - i) for i in range(0, len(items), 200)]
    assert [e for m in batched for e in m.events] == [item.event for item in items]
    assert [m.view for m in batched] == [items[min(i + 199, len(items) - 1)].view for i in range(0, len(items), 200)]


def test_cors_answers_the_allowed_origin_only(both: Both) -> None:
    def preflight(origin: str) -> tuple[int, dict[str, str]]:
        headers = {
            "origin": origin,
            "access-control-request-method": "POST",
            "access-control-request-headers": "authorization,content-type,connect-protocol-version",
        }
        request = urllib.request.Request(both.base + PATH + "GetView", headers=headers, method="OPTIONS")
        try:
            with urllib.request.urlopen(request, timeout=10) as reply:
                return reply.status, {k.lower(): v for k, v in reply.headers.items()}
        except urllib.error.HTTPError as err:
            return err.code, {k.lower(): v for k, v in err.headers.items()}

    status, headers = preflight(ORIGIN)
    assert status == 200 and headers["access-control-allow-origin"] == ORIGIN
    assert "authorization" in headers["access-control-allow-headers"].lower()
    status, headers = preflight("http://elsewhere.example")
    assert status == 400 and "access-control-allow-origin" not in headers


def test_serve_starts_the_connect_endpoint_only_when_asked(tmp_path: Path) -> None:
    assert Settings().connect_address is None and Settings.from_env({}).connect_address is None
    assert Settings.from_env({"TRAPOULA_CONNECT_ADDRESS": "127.0.0.1:0"}).connect_address == "127.0.0.1:0"
    assert Settings.from_args(["--cors-origins", "*"], {}).cors_origins == ("*",)
    with pytest.raises(ValueError, match="TRAPOULA_CORS_ORIGINS"):
        Settings.from_env({"TRAPOULA_CORS_ORIGINS": "cards.example/path"})
    told: list[str] = []
    connected: list[str] = []
    base = Settings(
        address="127.0.0.1:0",
        database_url=f"sqlite:///{tmp_path / 'c.sqlite3'}",
        metrics_address=None,
        connect_address="127.0.0.1:0",
    )
    serve_once(base, told, connect_ready=connected.append)
    assert len(told) == 1 and len(connected) == 1 and connected[0].startswith("127.0.0.1:")


def test_a_busy_connect_address_stops_the_server_before_it_serves(tmp_path: Path) -> None:
    with socket.socket() as holder:
        holder.bind(("127.0.0.1", 0))
        holder.listen()
        busy = f"127.0.0.1:{holder.getsockname()[1]}"
        settings = Settings(
            address="127.0.0.1:0",
            database_url=f"sqlite:///{tmp_path / 'b.sqlite3'}",
            metrics_address=None,
            connect_address=busy,
        )
        told: list[str] = []
        with pytest.raises(StartupError, match="--connect-address"):
            serve_once(settings, told)
        assert told == []


def test_a_stopping_server_ends_connect_watches_unavailable(both: Both) -> None:
    _, created = both.post("CreateTable", {"game": "agonia", "seats": 2})
    failures: list[ConnectError] = []
    opened = threading.Event()

    def watch() -> None:
        with TableServiceClientSync(both.base) as client:
            try:
                for _ in client.watch_table(pb.WatchTableRequest(table_id=created["tableId"])):
                    opened.set()
            except ConnectError as exc:
                failures.append(exc)

    watcher = threading.Thread(target=watch)
    watcher.start()
    assert opened.wait(10)  # TableCreated, SeedCommitted ... then it waits for moves
    assert both.thread.server is not None
    both.thread._submit(stop_server(both.thread.server, grace=0.5))
    watcher.join(10)
    [failure] = failures
    assert failure.code is Code.UNAVAILABLE
    [detail] = failure.details
    info = error_details_pb2.ErrorInfo()
    assert detail.Unpack(info) and info.reason == "server_stopping"


def test_an_unreadable_request_is_invalid_argument_bad_request_as_over_grpc(both: Both) -> None:
    for body, kind in ((b"{not json", "application/json"), (b"\xff\x01junk", "application/proto")):
        headers = {"content-type": kind, "connect-protocol-version": "1"}
        request = urllib.request.Request(both.base + PATH + "CreateTable", body, headers, method="POST")
        with pytest.raises(urllib.error.HTTPError) as err:
            urllib.request.urlopen(request, timeout=10)
        assert err.value.code == 400
        if kind == "application/json":
            error = json.loads(err.value.read())
            assert error["code"] == "invalid_argument" and reason_of(error) == "bad_request"
            assert error["message"].startswith("CreateTable: the request is not readable")
