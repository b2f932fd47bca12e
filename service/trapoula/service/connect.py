"""``TableService`` over the Connect protocol, for browsers (docs/browser.md).

The same service as the gRPC server, in the same process, over the same ``Tables``: each Connect
call goes to the very :class:`~trapoula.service.servicer.TableServicer` method the gRPC call goes
to (through the same counting and logging, :func:`~trapoula.service.servicer.checked_unary`), with
a :class:`ConnectContext` in place of gRPC's context.  So a Connect caller gets the same replies
and the same errors: the gRPC status code becomes the Connect code of the same name, and the
``google.rpc.ErrorInfo`` (``reason``, ``domain`` "trapoula", ``metadata``) travels in the
error's ``details``, exactly as in gRPC's ``grpc-status-details-bin``.

The endpoint speaks the Connect protocol over HTTP/1.1 (JSON or binary protobuf; unary calls and
``WatchTable``'s server stream), served by uvicorn on the server's event loop
(:class:`ConnectServer`).  gRPC-Web is not served (the Connect library has none).  A page of
another origin may call it only when that origin is allowed (``--cors-origins``,
:func:`connect_app`).

server = ConnectServer(connect_app(servicer, ("http://localhost:5173",)))
port = await server.start("127.0.0.1:8080")
...
await server.stop()
"""

from __future__ import annotations

import asyncio
import logging
import socket
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from pathlib import Path
from typing import Any, NoReturn, cast

import grpc
import uvicorn
from connectrpc.code import Code
from connectrpc.errors import ConnectError
from connectrpc.request import RequestContext
from google.rpc import status_pb2  # type: ignore[import-untyped]
from starlette.middleware.cors import CORSMiddleware
from starlette.types import ASGIApp

from trapoula.api.v1 import table_pb2 as pb
from trapoula.api.v1.table_connect import TableServiceASGIApplication
from trapoula.service import convert
from trapoula.service.errors import clip
from trapoula.service.servicecalls import Context
from trapoula.service.servicer import Malformed, TableServicer, checked_stream, checked_unary
from trapoula.service.settingvalues import DEFAULT_CALL_DEADLINE_SECONDS
from trapoula.service.webpage import with_web_page

log = logging.getLogger(__name__)

MAX_REQUEST_BYTES = 8 * 1024 * 1024
"""Largest request body read (as the gRPC server's ``grpc.max_receive_message_length``)."""
STATUS_DETAILS_KEY = "grpc-status-details-bin"
"""The trailing metadata entry holding the serialised ``google.rpc.Status`` of a failed call."""

CORS_ALLOWED_HEADERS = (
    "authorization",
    "content-type",
    "content-encoding",
    "accept-encoding",
    "connect-protocol-version",
    "connect-timeout-ms",
    "connect-content-encoding",
    "connect-accept-encoding",
    "grpc-timeout",
    "x-grpc-web",
    "x-user-agent",
)
"""Request headers a page of an allowed origin may send: the seat token and the Connect protocol's
own (as the Connect project lists them for CORS)."""
CORS_EXPOSED_HEADERS = (
    "content-encoding",
    "connect-content-encoding",
    "grpc-status",
    "grpc-message",
    "grpc-status-details-bin",
)
"""Response headers a page of an allowed origin may read."""
CORS_MAX_AGE = 7200
"""Seconds a browser may keep a preflight's answer."""


def connect_code(code: grpc.StatusCode) -> Code:
    """The Connect code of a gRPC status code: the one of the same name (``CANCELLED`` is
    ``canceled``).

    >>> connect_code(grpc.StatusCode.FAILED_PRECONDITION)
    <Code.FAILED_PRECONDITION: 'failed_precondition'>
    >>> connect_code(grpc.StatusCode.CANCELLED)
    <Code.CANCELED: 'canceled'>
    """
    name = "CANCELED" if code is grpc.StatusCode.CANCELLED else code.name
    return Code[name] if name in Code.__members__ else Code.UNKNOWN


def connect_error(code: grpc.StatusCode, message: str, trailing_metadata: Sequence[tuple[str, Any]]) -> ConnectError:
    """The Connect error of a gRPC status: same code (:func:`connect_code`), same message, and the
    details of the ``google.rpc.Status`` in ``trailing_metadata`` (its ``ErrorInfo``) as details."""
    details: list[Any] = []
    for key, value in trailing_metadata:
        if key == STATUS_DETAILS_KEY and isinstance(value, bytes):
            details.extend(status_pb2.Status.FromString(value).details)
    return ConnectError(connect_code(code), message, details)


class ConnectContext:
    """What :class:`~trapoula.service.servicer.TableServicer` reads of a call's gRPC context, from a
    Connect request: its metadata (the request's headers: ``authorization: Bearer <token>``), its
    :meth:`peer` and :meth:`abort`, which raises the call's :class:`~connectrpc.errors.ConnectError`."""

    def __init__(self, request: RequestContext[Any, Any]) -> None:
        self.request = request

    def peer(self) -> str:
        """The caller's address as gRPC writes a peer (``ipv4:10.0.0.7:51234``, ``ipv6:[::1]:51234``),
        so a client counts alike over both protocols (:mod:`trapoula.service.limits`); ``unknown``
        when the server gave none."""
        address = self.request.client_address()
        if not address:
            return "unknown"
        host, _, port = address.rpartition(":")
        return f"ipv6:[{host}]:{port}" if ":" in host else f"ipv4:{host}:{port}"

    def invocation_metadata(self) -> tuple[tuple[str, str], ...]:
        """The request's headers as gRPC metadata (lower-case keys)."""
        return tuple((key.lower(), value) for key, value in self.request.request_headers().allitems())

    async def abort(
        self, code: grpc.StatusCode, details: str = "", trailing_metadata: Sequence[tuple[str, Any]] = ()
    ) -> NoReturn:
        """End the call with the error of ``code`` (:func:`connect_error`)."""
        raise connect_error(code, details, trailing_metadata)


class ConnectTableService:
    """The generated ``TableService`` protocol of ``table_connect``, each method handing its request
    to the same :class:`~trapoula.service.servicer.TableServicer` method as gRPC (see the proto for
    each call's request, reply and errors).  A unary call must be answered within ``call_deadline``
    seconds once its request has come (else ``deadline_exceeded``, as over gRPC:
    :mod:`trapoula.service.deadlines`)."""

    def __init__(self, servicer: TableServicer, call_deadline: float = DEFAULT_CALL_DEADLINE_SECONDS) -> None:
        self.servicer = servicer
        self.call_deadline = call_deadline
        metrics = servicer.metrics
        self._unary: dict[str, Callable[[Any, Context], Awaitable[Any]]] = {}
        for method in pb.DESCRIPTOR.services_by_name["TableService"].methods:
            if not method.server_streaming:
                self._unary[method.name] = checked_unary(getattr(servicer, method.name), method.name, metrics)
        self._watch = checked_stream(self._watch_messages, "WatchTable", metrics)

    async def _call(self, method: str, request: Any, ctx: RequestContext[Any, Any]) -> Any:
        limit = asyncio.timeout(self.call_deadline)
        try:
            async with limit:
                return await self._unary[method](request, cast(Context, ConnectContext(ctx)))
        except TimeoutError:
            if not limit.expired():
                raise
        raise ConnectError(
            Code.DEADLINE_EXCEEDED, f"the server's deadline for this call ({self.call_deadline:g} s) has passed"
        )

    async def _watch_messages(self, request: pb.WatchTableRequest, context: Context) -> AsyncIterator[Any]:
        async for item in self.servicer.watch_items(request, context):
            yield convert.watch_response(item)

    async def create_table(
        self, request: pb.CreateTableRequest, ctx: RequestContext[Any, Any]
    ) -> pb.CreateTableResponse:
        """CreateTable."""
        return cast(pb.CreateTableResponse, await self._call("CreateTable", request, ctx))

    async def join_table(self, request: pb.JoinTableRequest, ctx: RequestContext[Any, Any]) -> pb.JoinTableResponse:
        """JoinTable."""
        return cast(pb.JoinTableResponse, await self._call("JoinTable", request, ctx))

    async def add_bot(self, request: pb.AddBotRequest, ctx: RequestContext[Any, Any]) -> pb.AddBotResponse:
        """AddBot."""
        return cast(pb.AddBotResponse, await self._call("AddBot", request, ctx))

    async def start_match(self, request: pb.StartMatchRequest, ctx: RequestContext[Any, Any]) -> pb.ActResponse:
        """StartMatch."""
        return cast(pb.ActResponse, await self._call("StartMatch", request, ctx))

    async def act(self, request: pb.ActRequest, ctx: RequestContext[Any, Any]) -> pb.ActResponse:
        """Act."""
        return cast(pb.ActResponse, await self._call("Act", request, ctx))

    async def give_seed(self, request: pb.GiveSeedRequest, ctx: RequestContext[Any, Any]) -> pb.GiveSeedResponse:
        """GiveSeed."""
        return cast(pb.GiveSeedResponse, await self._call("GiveSeed", request, ctx))

    async def get_signing_key(
        self, request: pb.GetSigningKeyRequest, ctx: RequestContext[Any, Any]
    ) -> pb.GetSigningKeyResponse:
        """GetSigningKey."""
        return cast(pb.GetSigningKeyResponse, await self._call("GetSigningKey", request, ctx))

    async def get_view(self, request: pb.GetViewRequest, ctx: RequestContext[Any, Any]) -> pb.GetViewResponse:
        """GetView."""
        return cast(pb.GetViewResponse, await self._call("GetView", request, ctx))

    def watch_table(
        self, request: pb.WatchTableRequest, ctx: RequestContext[Any, Any]
    ) -> AsyncIterator[pb.WatchTableResponse]:
        """WatchTable: a Connect server stream (HTTP/1.1 does), ended with an error as gRPC's is."""
        return self._watch(request, cast(Context, ConnectContext(ctx)))

    async def get_record(self, request: pb.GetRecordRequest, ctx: RequestContext[Any, Any]) -> pb.GetRecordResponse:
        """GetRecord."""
        return cast(pb.GetRecordResponse, await self._call("GetRecord", request, ctx))

    async def replay_record(
        self, request: pb.ReplayRecordRequest, ctx: RequestContext[Any, Any]
    ) -> pb.ReplayRecordResponse:
        """ReplayRecord."""
        return cast(pb.ReplayRecordResponse, await self._call("ReplayRecord", request, ctx))

    async def list_tables(self, request: pb.ListTablesRequest, ctx: RequestContext[Any, Any]) -> pb.ListTablesResponse:
        """ListTables."""
        return cast(pb.ListTablesResponse, await self._call("ListTables", request, ctx))

    async def list_games(self, request: pb.ListGamesRequest, ctx: RequestContext[Any, Any]) -> pb.ListGamesResponse:
        """ListGames."""
        return cast(pb.ListGamesResponse, await self._call("ListGames", request, ctx))

    async def get_game_schema(
        self, request: pb.GetGameSchemaRequest, ctx: RequestContext[Any, Any]
    ) -> pb.GetGameSchemaResponse:
        """GetGameSchema."""
        return cast(pb.GetGameSchemaResponse, await self._call("GetGameSchema", request, ctx))

    async def list_lobby(self, request: pb.ListLobbyRequest, ctx: RequestContext[Any, Any]) -> pb.ListLobbyResponse:
        """ListLobby."""
        return cast(pb.ListLobbyResponse, await self._call("ListLobby", request, ctx))

    async def list_matches(
        self, request: pb.ListMatchesRequest, ctx: RequestContext[Any, Any]
    ) -> pb.ListMatchesResponse:
        """ListMatches."""
        return cast(pb.ListMatchesResponse, await self._call("ListMatches", request, ctx))

    async def get_standings(
        self, request: pb.GetStandingsRequest, ctx: RequestContext[Any, Any]
    ) -> pb.GetStandingsResponse:
        """GetStandings."""
        return cast(pb.GetStandingsResponse, await self._call("GetStandings", request, ctx))


class _Application(TableServiceASGIApplication):
    """The generated application, except that a request body that does not parse reaches the
    servicer as a :class:`~trapoula.service.servicer.Malformed` request, answered
    ``invalid_argument`` (``bad_request``) as over gRPC, instead of the library's ``unknown``; and a
    request body must come whole within ``request_deadline`` seconds (else ``deadline_exceeded``:
    a client sending half a body holds nothing longer)."""

    def __init__(self, service: ConnectTableService, *, request_deadline: float, **options: Any) -> None:
        super().__init__(service, **options)
        self.request_deadline = request_deadline

    async def _read_post_request(self, endpoint: Any, receive: Any, codec: Any, headers: Any) -> Any:
        limit = asyncio.timeout(self.request_deadline)
        try:
            async with limit:
                return await super()._read_post_request(endpoint, receive, codec, headers)
        except ConnectError:
            raise
        except TimeoutError:
            if limit.expired():
                raise ConnectError(
                    Code.DEADLINE_EXCEEDED,
                    f"the server's deadline for the request of this call ({self.request_deadline:g} s) has passed",
                ) from None
            return Malformed(endpoint.method.name, "TimeoutError")
        except Exception as exc:  # bad JSON, a field of the wrong type, corrupt protobuf ...
            return Malformed(endpoint.method.name, clip(f"{type(exc).__name__}: {exc}"))


def connect_app(
    servicer: TableServicer,
    cors_origins: Sequence[str] = (),
    call_deadline: float = DEFAULT_CALL_DEADLINE_SECONDS,
    web_root: Path | None = None,
) -> ASGIApp:
    """The ASGI application serving ``servicer`` over the Connect protocol at
    ``/trapoula.api.v1.TableService/<Method>``; requests up to :data:`MAX_REQUEST_BYTES`, each
    received within ``call_deadline`` seconds, and a unary call then answered within as long.

    ``cors_origins``: the origins whose pages may call it (``"*"``: any), answered with CORS
    headers (preflights too: POST and GET, the headers of :data:`CORS_ALLOWED_HEADERS`, exposing
    :data:`CORS_EXPOSED_HEADERS`); empty: no CORS headers, so browsers allow same-origin calls only.
    No credentials (cookies) are involved: the seat token travels in ``authorization``.

    ``web_root``: the built web page served at ``/`` beside the calls (:mod:`trapoula.service.webpage`);
    None: the calls only.
    """
    app: ASGIApp = cast(
        ASGIApp,
        _Application(
            ConnectTableService(servicer, call_deadline),
            request_deadline=call_deadline,
            read_max_bytes=MAX_REQUEST_BYTES,
        ),
    )
    if web_root is not None:
        app = with_web_page(app, web_root)
    if not cors_origins:
        return app
    return CORSMiddleware(
        app,
        allow_origins=list(cors_origins),
        allow_methods=["GET", "POST"],
        allow_headers=list(CORS_ALLOWED_HEADERS),
        expose_headers=list(CORS_EXPOSED_HEADERS),
        max_age=CORS_MAX_AGE,
    )


def bind(address: str) -> socket.socket:
    """A listening TCP socket on ``address`` (``host:port``, port 0: a free one; ``[::1]:8080`` for IPv6).

    Raises:
        OSError: the address cannot be bound (in use, or not this host's).
    """
    host, _, port = address.rpartition(":")
    infos = socket.getaddrinfo(host.strip("[]") or None, int(port), type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
    error: OSError | None = None
    for family, kind, proto, _name, sockaddr in infos:
        sock = socket.socket(family, kind, proto)
        try:
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            sock.bind(sockaddr)
            sock.listen(1024)
            sock.setblocking(False)
            return sock
        except OSError as exc:
            sock.close()
            error = exc
    raise error or OSError(f"no address for {address!r}")


class ConnectServer:
    """uvicorn (HTTP/1.1) serving an ASGI app on the running event loop, without signal handlers of
    its own (the caller stops it: :meth:`stop`)."""

    def __init__(self, app: ASGIApp, *, grace: float = 5.0) -> None:
        config = uvicorn.Config(
            app,
            http="h11",
            ws="none",
            lifespan="off",
            log_config=None,
            log_level="warning",
            access_log=False,
            proxy_headers=False,
            server_header=False,
            date_header=False,
            timeout_graceful_shutdown=max(1, round(grace)),
        )
        config.load()
        self.server = uvicorn.Server(config)
        self.sockets: list[socket.socket] = []

    async def start(self, address: str) -> int:
        """Listen on ``address`` and serve; returns the bound port.

        Raises:
            OSError: the address cannot be bound.
        """
        sock = bind(address)
        self.sockets = [sock]
        self.server.lifespan = self.server.config.lifespan_class(self.server.config)  # "off": nothing to run
        await self.server.startup(sockets=self.sockets)
        return int(sock.getsockname()[1])

    async def stop(self) -> None:
        """Stop listening, close idle connections, let the calls in flight end (within the grace),
        then cancel what is left."""
        if not self.server.started:
            return
        self.server.should_exit = True
        await self.server.shutdown(sockets=self.sockets)
