"""Helpers shared by the gRPC service tests of the games (imported from this folder, which the
folder's conftest and the contract suite's put on ``sys.path``): an in-process server, call
metadata types, the ``ErrorInfo`` of a refusal, a caller's view, the stored events, a whole watch
stream, ``trapoula verify`` of a record, a view's legal payload as a ``Command`` and a started
two-person table of an explicit deal."""

from __future__ import annotations

import asyncio
import io
import json
import threading
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import grpc
from google.rpc import error_details_pb2  # type: ignore[import-untyped]
from grpc_status import rpc_status

from trapoula.api.v1 import table_pb2 as pb
from trapoula.api.v1 import table_pb2_grpc
from trapoula.clients.cli import main
from trapoula.domain.chain import GENESIS, event_hash
from trapoula.service.application import OWNER, Tables
from trapoula.service.projection import Projection
from trapoula.service.readmodels import ReadModels
from trapoula.service.server import create_server, serve, start_server, stop_server
from trapoula.service.settings import Settings

SECRET = bytes.fromhex("5e" * 32)
"""The server secret of every test (seeds are reproducible)."""

Meta = tuple[tuple[str, str], ...]
"""Call metadata (``authorization: Bearer <token>``)."""
Auth = Callable[[str], Meta]
Stub = table_pb2_grpc.TableServiceStub


class ServerThread:
    """A grpc.aio server on port 0 running in its own event loop thread (answering ListMatches and
    GetStandings from ``read_models`` when given; ``poll_seconds`` and ``options`` go to
    ``create_server``); a context manager too."""

    def __init__(
        self, tables: Tables, read_models: ReadModels | None = None, poll_seconds: float = 1.0, **options: Any
    ) -> None:
        self.tables, self.read_models = tables, read_models
        self.options: dict[str, Any] = {"poll_seconds": poll_seconds, **options}
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, name="test-grpc-loop", daemon=True)
        self.server: grpc.aio.Server | None = None
        self.port = 0

    def _submit(self, coro: Any, timeout: float = 10) -> Any:
        return asyncio.run_coroutine_threadsafe(coro, self.loop).result(timeout)

    async def _start(self) -> int:
        self.server, port = create_server("127.0.0.1:0", self.tables, read_models=self.read_models, **self.options)
        await start_server(self.server)
        return port

    def start(self) -> ServerThread:
        """Start serving; sets :attr:`port`."""
        self.thread.start()
        self.port = self._submit(self._start())
        return self

    def stop(self) -> None:
        """Stop gracefully and end the loop thread."""
        if self.server is not None:
            self._submit(stop_server(self.server, grace=0.5))
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(timeout=10)
        self.loop.close()

    @property
    def address(self) -> str:
        """``host:port`` of the server."""
        return f"127.0.0.1:{self.port}"

    def __enter__(self) -> ServerThread:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()


@contextmanager
def projected(
    tables: Tables, url: str, schema: str | None = None, poll_seconds: float = 0.5
) -> Iterator[tuple[ServerThread, Projection]]:
    """A server for ``tables`` answering from read models at ``url`` (migrated first), kept by a
    projection that polls every ``poll_seconds``: ``(server, projection)``, both stopped afterwards."""
    models = ReadModels(url, schema)
    models.migrate()
    projection = Projection(tables, models, poll_seconds=poll_seconds, pause_seconds=0.01)
    projection.start()
    try:
        with ServerThread(tables, models) as server:
            yield server, projection
    finally:
        projection.stop()
        models.close()


def serve_once(settings: Settings, told: list[str], **options: Any) -> None:
    """``trapoula serve``'s ``serve(settings)`` in this thread (``options`` passed on), stopped once it
    is ready; the address it is ready at is appended to ``told``."""

    async def scenario() -> None:
        stop = asyncio.Event()

        def ready(address: str) -> None:
            told.append(address)
            stop.set()

        await serve(settings, ready=ready, stop=stop, **options)

    asyncio.run(scenario())


def chained(entries: Sequence[Any]) -> None:
    """Stored events numbered 1, 2, ... without a gap, each hashed on the one before (REC5)."""
    prev = GENESIS
    for seq, entry in enumerate(entries, start=1):
        assert entry.seq == seq
        assert entry.prev_hash == prev and entry.hash == event_hash(prev, seq, entry.name, entry.payload)
        prev = entry.hash


def error_info(err: grpc.RpcError) -> error_details_pb2.ErrorInfo:
    """The ``ErrorInfo`` of a failed call (exactly one detail, domain ``trapoula``)."""
    status = rpc_status.from_call(err)  # type: ignore[arg-type]
    assert status is not None and len(status.details) == 1
    info = error_details_pb2.ErrorInfo()
    assert status.details[0].Unpack(info)
    assert info.domain == "trapoula"
    return info


def view_of(stub: Stub, table_id: str, metadata: Meta = ()) -> tuple[int, dict[str, Any]]:
    """``(version, view)`` of a caller."""
    reply = stub.GetView(pb.GetViewRequest(table_id=table_id), metadata=metadata)
    return reply.view.version, json.loads(reply.view.view_json)


def stored(tables: Tables, table_id: str) -> list[tuple[int, str, dict[str, Any]]]:
    """Every stored event, unredacted: ``(version, name, payload)``."""
    return [(e.seq, e.name, dict(e.payload)) for e in tables.stored_events(table_id)]


def watch_all(stub: Stub, table_id: str, metadata: Meta) -> list[pb.WatchTableResponse]:
    """The whole stream of a finished match (it ends by itself once the match is over)."""
    return list(stub.WatchTable(pb.WatchTableRequest(table_id=table_id, from_version=0), metadata=metadata, timeout=60))


def verify(record: str, path: Path) -> tuple[int, str]:
    """``trapoula verify`` of ``record`` written to ``path``: (exit status, output)."""
    path.write_text(record, encoding="utf-8")
    out = io.StringIO()
    return main(["verify", str(path)], out=out), out.getvalue()


Lines = list[dict[str, Any]]
"""A record's parsed lines, header first."""


def bot_record(tables: Tables, seats: int = 2, target: int = 0) -> Lines:
    """The parsed record of a finished agonia match of ``seats`` heuristic bots to ``target``
    points (0: one hand, R7.1)."""
    table_id, _ = tables.create_table("agonia", seats, {"target_points": target})
    for _ in range(seats):
        tables.add_bot(table_id, "heuristic")
    tables.start_match(table_id, OWNER, "go")
    assert tables.settle(timeout=120)
    return [json.loads(line) for line in tables.record(table_id)[0].splitlines()]


def rechained(lines: Lines) -> Lines:
    """The record with every event's hash recomputed (what a holder who edited it would do), the
    header's count kept in step."""
    prev, out = GENESIS, [dict(lines[0])]
    for line in lines[1:]:
        digest = event_hash(prev, line["seq"], line["name"], line["payload"], line.get("v", 1))
        out.append({**line, "prev_hash": prev, "hash": digest})
        prev = digest
    out[0]["events"] = len(out) - 1
    return out


CONNECT_PATH = "/trapoula.api.v1.TableService/"
"""The URL path of the service's methods on a Connect endpoint."""


def connect_post(base: str, method: str, body: dict[str, Any], token: str | None = None) -> tuple[int, dict[str, Any]]:
    """A unary Connect call in JSON to the endpoint at ``base`` (``http://host:port``), with a
    bearer ``token`` when given: ``(HTTP status, JSON body)``."""
    import urllib.error
    import urllib.request

    headers = {"content-type": "application/json", "connect-protocol-version": "1"}
    if token is not None:
        headers["authorization"] = f"Bearer {token}"
    request = urllib.request.Request(base + CONNECT_PATH + method, json.dumps(body).encode(), headers, method="POST")
    try:
        with urllib.request.urlopen(request, timeout=30) as reply:
            return reply.status, json.loads(reply.read())
    except urllib.error.HTTPError as err:
        return err.code, json.loads(err.read())


def command(payload: dict[str, Any]) -> pb.Command:
    """A legal-command payload from a view as a ``Command`` message."""
    kind = payload["kind"]
    if kind == "play":
        return pb.Command(
            play=pb.PlayCard(
                card=payload["card"], suit=payload.get("suit") or "", announce=payload.get("announce", False)
            )
        )
    if kind == "draw":
        return pb.Command(draw=pb.DrawCard())
    if kind == "pass":
        message = pb.Command()
        getattr(message, "pass").SetInParent()  # "pass" is a Python keyword
        return message
    if kind == "choose_suit":
        return pb.Command(choose_suit=pb.ChooseSuit(suit=payload["suit"]))
    raise AssertionError(kind)


def explicit(deal: dict[str, Any]) -> pb.ExplicitDeal:
    return pb.ExplicitDeal(
        hands=[pb.CardList(cards=h) for h in deal["hands"]], starter=deal["starter"], stock=deal["stock"]
    )


def two_people(stub: Stub, auth: Auth, deal: dict[str, Any]) -> tuple[str, Meta, Meta]:
    """A started two-person table dealt ``deal``: ``(table_id, metadata of seat 0, of seat 1)``; the
    table is created for explicit deals (``manual_deal``: S5.3 as the rules owners answered)."""
    created = stub.CreateTable(
        pb.CreateTableRequest(game="agonia", seats=2, options={"target_points": 0}, manual_deal=True)
    )
    j0 = stub.JoinTable(pb.JoinTableRequest(table_id=created.table_id, name="ann"))
    j1 = stub.JoinTable(pb.JoinTableRequest(table_id=created.table_id, name="bob"))
    assert (j0.seat, j1.seat) == (0, 1)
    started = stub.StartMatch(
        pb.StartMatchRequest(table_id=created.table_id, command_id="start", deal=explicit(deal)),
        metadata=auth(created.owner_token),
    )
    assert started.version == 9
    return created.table_id, auth(j0.seat_token), auth(j1.seat_token)
