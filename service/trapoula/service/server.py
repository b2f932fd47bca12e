"""The grpc.aio server: ``TableService`` plus health checking and reflection; graceful stop; the
same service over the Connect protocol on its own address when asked (:func:`start_connect`).

server, port = create_server("127.0.0.1:0", tables)   # inside a running event loop
await server.start()
...
await stop_server(server)                            # NOT_SERVING, drain, close the pool

The server does not share its port: ``grpc.so_reuseport`` is off, so a second server on a port
in use fails to start (:func:`create_server` raises ``RuntimeError``) instead of silently
taking half the calls.  Messages of up to :data:`MAX_MESSAGE_BYTES` are sent (a long record in
``GetRecord``) and of up to :data:`MAX_REQUEST_BYTES` received.
"""

from __future__ import annotations

import asyncio
import contextlib
import errno
import logging
import signal
import socket
import weakref
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import grpc
from grpc_health.v1 import health, health_pb2, health_pb2_grpc
from grpc_reflection.v1alpha import reflection

from trapoula.api.v1 import table_pb2
from trapoula.domain import signing
from trapoula.service import logs, redaction
from trapoula.service.application import Tables
from trapoula.service.collector import serving_collector
from trapoula.service.connect import ConnectServer, connect_app
from trapoula.service.deadlines import DEFAULT_CALL_DEADLINE_SECONDS, CallDeadline
from trapoula.service.fanout import Fanout
from trapoula.service.health import StoreHealth, store_probe
from trapoula.service.limits import Limits, LimitSettings
from trapoula.service.loopacts import LoopActs
from trapoula.service.loopsave import LoopSaver
from trapoula.service.metrics import Metrics
from trapoula.service.projection import Projection
from trapoula.service.readmodels import ReadModels
from trapoula.service.servicer import POLL_SECONDS, TableServicer, add_to_server
from trapoula.service.settings import Settings, display_url, is_random_secret
from trapoula.service.startup import StartupError as StartupError
from trapoula.service.startup import open_read_models, open_tables, serve_metrics
from trapoula.service.webpage import WEB_ROOT, is_built

log = logging.getLogger(__name__)

SERVICE_NAME = table_pb2.DESCRIPTOR.services_by_name["TableService"].full_name
"""``trapoula.api.v1.TableService``."""
GRACE_SECONDS = 5.0
"""How long a stopping server lets calls in flight finish."""
MAX_MESSAGE_BYTES = 64 * 1024 * 1024
"""Largest message sent (gRPC's default, 4 MiB, is too small for a long record)."""
MAX_REQUEST_BYTES = 8 * 1024 * 1024
"""Largest message received: far above any legal request (about 100 KB at most), low enough that a
flood of giant requests, which gRPC reads whole before any token is checked, cannot exhaust memory
or stall the other calls; a larger one is refused with ``RESOURCE_EXHAUSTED``."""
MAX_PENDING_CALLS = 10_000
"""Calls that may wait in gRPC's core for the event loop to take them before the core begins to
drop new ones (it drops every one beyond twice as many).

grpc.aio takes the calls that reached the process one at a time, one per turn of the event loop,
so a burst of calls (hundreds of tables opening their streams and starting their matches at once)
waits there while the loop works, all the more during a pause of the garbage collector.  With
gRPC's defaults (1,000, and 3,000 at most) the core dropped new calls at random past 1,000 and
answered them ``CANCELLED`` without running them, as if the caller had cancelled: the paced load
of 400 tables met a few dozen such calls among its set-up's 4,400.  A waiting call holds only
its headers and the first bytes of its request (HTTP/2 flow control bounds the rest); it still
ends with its deadline, and after 30 s of waiting (gRPC's
``grpc.server_max_unrequested_time_in_server``)."""
SERVER_OPTIONS: tuple[tuple[str, int], ...] = (
    ("grpc.so_reuseport", 0),
    ("grpc.max_send_message_length", MAX_MESSAGE_BYTES),
    ("grpc.max_receive_message_length", MAX_REQUEST_BYTES),
    ("grpc.http2.min_recv_ping_interval_without_data_ms", 10_000),
    ("grpc.server.max_pending_requests", MAX_PENDING_CALLS),
    ("grpc.server.max_pending_requests_hard_limit", 2 * MAX_PENDING_CALLS),
)
"""Channel arguments of the server: no port sharing, replies up to 64 MiB, requests up to 8 MiB,
clients' keepalive pings accepted every 10 s or more (the trapoula client pings every 20 s
while a watch is open, to notice a frozen server), and up to :data:`MAX_PENDING_CALLS` calls
waiting for the event loop without any dropped."""


@dataclass
class _Parts:
    tables: Tables
    fanout: Fanout
    executor: ThreadPoolExecutor
    health: Any
    listener: Callable[[str, int], None]
    servicer: TableServicer
    store_health: StoreHealth


_PARTS: weakref.WeakKeyDictionary[grpc.aio.Server, _Parts] = weakref.WeakKeyDictionary()


def create_server(
    address: str,
    tables: Tables,
    *,
    workers: int = 16,
    poll_seconds: float = POLL_SECONDS,
    metrics: Metrics | None = None,
    read_models: ReadModels | None = None,
    call_deadline: float = DEFAULT_CALL_DEADLINE_SECONDS,
    limits: Limits | LimitSettings | None = None,
) -> tuple[grpc.aio.Server, int]:
    """Build (not start) the gRPC server for ``tables`` listening on ``address`` (insecure).

    Call it inside the running event loop that will serve.  ``address`` is ``host:port``; port 0
    picks a free port, returned as ``port``.  Health checking reports ``SERVING`` for ``""`` and
    for ``trapoula.api.v1.TableService`` once started, ``NOT_SERVING`` for both once stopping,
    and for ``TableService`` while the store cannot be reached (:mod:`trapoula.service.health`);
    reflection (``grpc.reflection.v1alpha``: the grpcio-reflection package offers no v1 service
    yet) lists both services.  Store calls run on a pool of ``workers`` threads.  Every call is
    counted in ``metrics`` (a new :class:`~trapoula.service.metrics.Metrics` if None;
    :func:`metrics_of` returns it), which follows ``tables`` until :func:`stop_server`; serving
    them over HTTP is the caller's choice.
    ``ListLobby``, ``ListMatches`` and ``GetStandings`` read ``read_models`` (None: they are
    answered ``UNAVAILABLE``, reason ``read_models_off``); keeping them up to date is the
    caller's (:func:`open_read_models`).  Every call has the server's deadline of
    ``call_deadline`` seconds (a unary call whole, a stream until its request has come:
    :class:`~trapoula.service.deadlines.CallDeadline`), and no log record of the process shows a
    token (:func:`trapoula.service.redaction.install`).
    ``limits``: the limits per client (:mod:`trapoula.service.limits`; None: the defaults); a
    :class:`~trapoula.service.limits.Limits` without ``open_here`` counts with the tables' own.

    Raises:
        RuntimeError: the address cannot be bound (in use, or not an address of this host); the
            message names it.
    """
    _check_port_free(address)
    redaction.install(logs.hidden_in_call)
    server = grpc.aio.server(options=SERVER_OPTIONS, interceptors=(CallDeadline(call_deadline),))
    fanout = Fanout()
    executor = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="trapoula-store")
    if not isinstance(limits, Limits):
        limits = Limits(limits)
    servicer = TableServicer(tables, fanout, executor, poll_seconds=poll_seconds, metrics=metrics, limits=limits)
    servicer.read_models = read_models
    add_to_server(servicer, server)
    health_servicer = health.aio.HealthServicer()  # type: ignore[attr-defined]
    health_pb2_grpc.add_HealthServicer_to_server(health_servicer, server)
    reflection.enable_server_reflection((SERVICE_NAME, health.SERVICE_NAME, reflection.SERVICE_NAME), server)
    try:
        port = server.add_insecure_port(address)
    except RuntimeError as exc:
        port = 0
        cause: BaseException | None = exc
    else:
        cause = None
    if port == 0:
        executor.shutdown(wait=False)
        raise StartupError(
            f"cannot listen on {address!r}: the port is in use or the address is not this host's "
            "(set --address or TRAPOULA_ADDRESS)"
        ) from cause
    store = tables.store
    saver = LoopSaver.for_engine(store.recorder, store.engine, store.batched)
    if saver is not None:
        servicer.loop_acts = LoopActs(tables, saver, executor)
    tables.add_listener(fanout.publish)
    servicer.metrics.attach(tables, executor)
    store_health = StoreHealth(health_servicer, store_probe(tables), (SERVICE_NAME,))
    servicer.metrics.add_unreachable_listener(store_health.store_failed)
    _PARTS[server] = _Parts(tables, fanout, executor, health_servicer, fanout.publish, servicer, store_health)
    return server, port


def _check_port_free(address: str) -> None:
    """Fail early, with the system's reason, when every address ``address`` resolves to is in use.

    gRPC would fail too (``so_reuseport`` is off) but only after logging its own lines; this
    check keeps the failure to one line.  Port 0 and unresolvable addresses are left to gRPC.
    """
    host, _, port_text = address.rpartition(":")
    if not port_text.isdigit() or int(port_text) == 0:
        return
    bind_host = host.strip("[]") or None
    try:
        infos = socket.getaddrinfo(bind_host, int(port_text), type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
    except OSError:
        return
    errors: list[OSError] = []
    for family, kind, proto, _name, sockaddr in infos:
        try:
            with socket.socket(family, kind, proto) as probe:
                probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
                probe.bind(sockaddr)
            return
        except OSError as exc:
            errors.append(exc)
    if errors and all(e.errno == errno.EADDRINUSE for e in errors):
        raise StartupError(
            f"cannot listen on {address!r}: {errors[0].strerror} (another server uses the port; "
            "set --address or TRAPOULA_ADDRESS)"
        )


async def start_server(server: grpc.aio.Server) -> None:
    """Start a server made by :func:`create_server`, keep its tables' turn clocks
    (``Tables.keep_clocks``) and report it ``SERVING``; from then on the health of ``TableService``
    follows the store: ``NOT_SERVING`` while it cannot be reached
    (:class:`~trapoula.service.health.StoreHealth`, checked once before this returns)."""
    await server.start()
    parts = _PARTS.get(server)
    if parts is not None:
        parts.tables.keep_clocks()
        await parts.health.set("", health_pb2.HealthCheckResponse.SERVING)
        await parts.store_health.start()


async def stop_server(server: grpc.aio.Server, grace: float = GRACE_SECONDS) -> None:
    """Stop gracefully: health ``NOT_SERVING``, end open watch streams and answer new calls
    ``UNAVAILABLE`` (``server_stopping``), let the calls in flight finish (up to ``grace``
    seconds in all), then stop gRPC (cancelling what is left) and release the thread pool.
    (Background automatic play is stopped by ``Tables.stop_automatic`` or ``Tables.close``.)

    A call that reaches the process after gRPC itself has stopped is cancelled by gRPC
    (``CANCELLED``) without reaching the service: it changed nothing and may be sent again.
    """
    parts = _PARTS.pop(server, None)
    deadline = asyncio.get_running_loop().time() + grace
    if parts is not None:
        parts.servicer.metrics.remove_unreachable_listener(parts.store_health.store_failed)
        await parts.store_health.stop()
        await parts.health.enter_graceful_shutdown()
        parts.tables.remove_listener(parts.listener)
        parts.servicer.metrics.detach()
        parts.fanout.close()  # open watch streams end now (UNAVAILABLE), not after the grace
        await parts.servicer.drain(grace)
    await server.stop(max(0.0, deadline - asyncio.get_running_loop().time()))
    if parts is not None:
        if parts.servicer.loop_acts is not None:
            await parts.servicer.loop_acts.saver.close()
        parts.executor.shutdown(wait=False, cancel_futures=True)


def fanout_of(server: grpc.aio.Server) -> Fanout | None:
    """The fan-out of a server made by :func:`create_server` (for tests and diagnostics)."""
    parts = _PARTS.get(server)
    return parts.fanout if parts is not None else None


def servicer_of(server: grpc.aio.Server) -> TableServicer | None:
    """The servicer of a server made by :func:`create_server` (the Connect endpoint serves it too)."""
    parts = _PARTS.get(server)
    return parts.servicer if parts is not None else None


async def start_connect(
    server: grpc.aio.Server,
    address: str,
    cors_origins: Sequence[str] = (),
    call_deadline: float = DEFAULT_CALL_DEADLINE_SECONDS,
    web_root: Path | None = None,
) -> tuple[ConnectServer, int]:
    """Serve the servicer of ``server`` (made by :func:`create_server`) over the Connect protocol on
    ``address`` too (:mod:`trapoula.service.connect`), each request to be received within
    ``call_deadline`` seconds and a unary call then answered within as long, with the web page of
    ``web_root`` at ``/`` (:mod:`trapoula.service.webpage`; None: none); returns the Connect
    server and its bound port.
    Stop it after :func:`stop_server`: by then its watch streams have ended and its calls drained.

    Raises:
        StartupError: the address cannot be bound; one line naming it and the setting to fix.
    """
    servicer = servicer_of(server)
    if servicer is None:
        raise StartupError("the gRPC server is not running")
    connect = ConnectServer(connect_app(servicer, cors_origins, call_deadline, web_root), grace=GRACE_SECONDS)
    try:
        port = await connect.start(address)
    except (OSError, ValueError) as exc:
        why = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
        raise StartupError(
            f"cannot listen on {address!r} for Connect: {why} (set --connect-address or TRAPOULA_CONNECT_ADDRESS)"
        ) from exc
    return connect, port


def metrics_of(server: grpc.aio.Server) -> Metrics | None:
    """The metrics of a server made by :func:`create_server` (None once it is stopped)."""
    parts = _PARTS.get(server)
    return parts.servicer.metrics if parts is not None else None


def display_address(address: str, port: int) -> str:
    """``address`` with its port replaced by the bound ``port``."""
    host = address.rsplit(":", 1)[0] if ":" in address else address
    return f"{host}:{port}"


async def serve(
    settings: Settings | None = None,
    *,
    ready: Callable[[str], None] | None = None,
    stop: asyncio.Event | None = None,
    metrics_ready: Callable[[str], None] | None = None,
    connect_ready: Callable[[str], None] | None = None,
    web_ready: Callable[[str], None] | None = None,
) -> None:
    """Serve until SIGINT/SIGTERM (or until ``stop`` is set), then stop gracefully.

    ``ready(address)`` is called with the bound ``host:port`` once serving, then
    ``metrics_ready(address)`` with the bound ``host:port`` of the metrics endpoint
    (``settings.metrics_address``; not called when it is off or cannot be bound: a metrics
    address that cannot be bound is logged as a warning and the server serves without it), then
    ``connect_ready(address)`` with the bound ``host:port`` of the Connect endpoint
    (``settings.connect_address``, :mod:`trapoula.service.connect`; not called when it is off),
    then ``web_ready(address)`` with the same ``host:port`` when the Connect endpoint also serves
    the web page (``settings.web``, :mod:`trapoula.service.webpage`; not called when either is off
    or the page is not built: a warning says so).
    Stopping: background automatic play stops between batches, open watch streams end, calls in
    flight get :data:`GRACE_SECONDS` to finish, then the metrics endpoint and the store are closed.

    Raises:
        StartupError: the store cannot be opened, the gRPC or Connect address cannot be bound or
            the read models cannot be migrated (one line).
    """
    settings = settings or Settings.from_env()
    redaction.install(logs.hidden_in_call, settings.secret.hex(), settings.secret.hex().upper())
    tables = open_tables(settings)
    metrics = Metrics()
    read_models: ReadModels | None = None
    projection: Projection | None = None
    connect: ConnectServer | None = None
    try:
        if tables.follow_store(asyncio.get_running_loop()):
            log.info("following the store for other replicas' moves")
        read_models = ReadModels(settings.database_url, settings.database_schema)
        server, port = create_server(
            settings.address,
            tables,
            poll_seconds=settings.watch_poll_seconds,
            metrics=metrics,
            read_models=read_models,
            call_deadline=settings.call_deadline_seconds,
            limits=LimitSettings.of(settings),
        )
        projection = open_read_models(settings, tables, read_models)
        if projection is not None:
            metrics.follow_projection(projection)
        metrics_bound = serve_metrics(metrics, settings.metrics_address)
        connect_bound: str | None = None
        if settings.connect_address is not None:
            connect, connect_port = await start_connect(
                server,
                settings.connect_address,
                settings.cors_origins,
                settings.call_deadline_seconds,
                WEB_ROOT if settings.web else None,
            )
            connect_bound = display_address(settings.connect_address, connect_port)
        await start_server(server)
        bound = display_address(settings.address, port)
        schema = f", schema {settings.database_schema}" if settings.database_schema else ""
        log.info(
            "trapoula serving %s on %s, store %s%s", SERVICE_NAME, bound, display_url(settings.database_url), schema
        )
        public = signing.public_key_hex(tables.signing_key)
        log.info("records signed with key %s (ed25519 %s; verify --key)", signing.key_id(public), public)
        if tables.identity is not None:
            log.info("identity tokens required to create tables and take seats: %r", tables.identity)
        else:
            log.info("no identity key: players are anonymous, their names unverified (docs/identity.md)")
        if is_random_secret(settings.secret):
            log.warning(
                "no server secret given (TRAPOULA_SECRET_FILE, --secret-file or TRAPOULA_SECRET): a random one "
                "for this process, so its signing key changes at each start and replicas sign apart"
            )
        if ready is not None:
            ready(bound)
        if metrics_ready is not None and metrics_bound is not None:
            metrics_ready(metrics_bound)
        if connect_bound is not None:
            origins = ", ".join(settings.cors_origins) or "none"
            log.info("Connect protocol on http://%s (CORS origins: %s)", connect_bound, origins)
            if connect_ready is not None:
                connect_ready(connect_bound)
            if settings.web and is_built(WEB_ROOT):
                log.info("web page on http://%s/", connect_bound)
                if web_ready is not None:
                    web_ready(connect_bound)
            elif settings.web:
                log.warning("web page not built: `make web` builds it (Node.js 20 or newer); the Connect calls serve")
        stop = stop or asyncio.Event()
        loop = asyncio.get_running_loop()
        for sig in (signal.SIGINT, signal.SIGTERM):
            with contextlib.suppress(NotImplementedError, RuntimeError, ValueError):
                loop.add_signal_handler(sig, stop.set)
        try:
            await stop.wait()
        finally:
            for sig in (signal.SIGINT, signal.SIGTERM):
                with contextlib.suppress(NotImplementedError, RuntimeError, ValueError):
                    loop.remove_signal_handler(sig)
            log.info("stopping")
            await asyncio.gather(
                loop.run_in_executor(None, tables.stop_automatic, GRACE_SECONDS), stop_server(server, GRACE_SECONDS)
            )
            log.info("stopped")
    finally:
        if connect is not None:
            await connect.stop()
        if projection is not None:
            projection.stop()
        if read_models is not None:
            read_models.close()
        metrics.close_http()
        tables.close()


def run(
    settings: Settings | None = None,
    *,
    ready: Callable[[str], None] | None = None,
    metrics_ready: Callable[[str], None] | None = None,
    connect_ready: Callable[[str], None] | None = None,
    web_ready: Callable[[str], None] | None = None,
) -> None:
    """Serve in a new event loop until interrupted (the blocking form of :func:`serve`), with the
    garbage collector tuned for serving (:func:`~trapoula.service.collector.serving_collector`)."""
    with serving_collector():
        asyncio.run(
            serve(settings, ready=ready, metrics_ready=metrics_ready, connect_ready=connect_ready, web_ready=web_ready)
        )
