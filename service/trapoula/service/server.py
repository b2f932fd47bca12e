"""The grpc.aio server: ``TableService`` plus health checking and reflection; graceful stop.

server, port = create_server("127.0.0.1:0", tables)   # inside a running event loop
await server.start()
...
await stop_server(server)                            # NOT_SERVING, drain, close the pool
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import signal
import weakref
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any

import grpc
from grpc_health.v1 import health, health_pb2, health_pb2_grpc
from grpc_reflection.v1alpha import reflection

from trapoula.api.v1 import table_pb2, table_pb2_grpc
from trapoula.service.application import Tables
from trapoula.service.fanout import Fanout
from trapoula.service.servicer import POLL_SECONDS, TableServicer
from trapoula.service.settings import Settings

log = logging.getLogger(__name__)

SERVICE_NAME = table_pb2.DESCRIPTOR.services_by_name["TableService"].full_name
"""``trapoula.api.v1.TableService``."""
GRACE_SECONDS = 5.0
"""How long a stopping server lets calls in flight finish."""


@dataclass
class _Parts:
    tables: Tables
    fanout: Fanout
    executor: ThreadPoolExecutor
    health: Any
    listener: Callable[[str, int], None]


_PARTS: weakref.WeakKeyDictionary[grpc.aio.Server, _Parts] = weakref.WeakKeyDictionary()


def create_server(
    address: str,
    tables: Tables,
    *,
    workers: int = 16,
    poll_seconds: float = POLL_SECONDS,
) -> tuple[grpc.aio.Server, int]:
    """Build (not start) the gRPC server for ``tables`` listening on ``address`` (insecure).

    Call it inside the running event loop that will serve.  ``address`` is ``host:port``; port 0
    picks a free port, returned as ``port``.  Health checking reports ``SERVING`` for ``""`` and
    for ``trapoula.api.v1.TableService`` once started; reflection lists both services.  Store
    calls run on a pool of ``workers`` threads.

    Raises:
        RuntimeError: the address cannot be bound.
    """
    server = grpc.aio.server()
    fanout = Fanout()
    executor = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="trapoula-store")
    servicer = TableServicer(tables, fanout, executor, poll_seconds=poll_seconds)
    table_pb2_grpc.add_TableServiceServicer_to_server(servicer, server)
    health_servicer = health.aio.HealthServicer()  # type: ignore[attr-defined]
    health_pb2_grpc.add_HealthServicer_to_server(health_servicer, server)
    reflection.enable_server_reflection((SERVICE_NAME, health.SERVICE_NAME, reflection.SERVICE_NAME), server)
    try:
        port = server.add_insecure_port(address)
    except RuntimeError as exc:
        executor.shutdown(wait=False)
        raise RuntimeError(f"cannot listen on {address!r}: {exc}") from exc
    if port == 0:
        executor.shutdown(wait=False)
        raise RuntimeError(f"cannot listen on {address!r}")
    tables.add_listener(fanout.publish)
    _PARTS[server] = _Parts(tables, fanout, executor, health_servicer, fanout.publish)
    return server, port


async def start_server(server: grpc.aio.Server) -> None:
    """Start a server made by :func:`create_server` and report it ``SERVING``."""
    await server.start()
    parts = _PARTS.get(server)
    if parts is not None:
        for name in ("", SERVICE_NAME):
            await parts.health.set(name, health_pb2.HealthCheckResponse.SERVING)


async def stop_server(server: grpc.aio.Server, grace: float = GRACE_SECONDS) -> None:
    """Stop gracefully: health ``NOT_SERVING``, refuse new calls, let calls in flight finish for
    ``grace`` seconds, cancel the rest (open watch streams), then release the thread pool.
    """
    parts = _PARTS.pop(server, None)
    if parts is not None:
        await parts.health.enter_graceful_shutdown()
        parts.tables.remove_listener(parts.listener)
    await server.stop(grace)
    if parts is not None:
        parts.executor.shutdown(wait=False, cancel_futures=True)


def fanout_of(server: grpc.aio.Server) -> Fanout | None:
    """The fan-out of a server made by :func:`create_server` (for tests and diagnostics)."""
    parts = _PARTS.get(server)
    return parts.fanout if parts is not None else None


def display_address(address: str, port: int) -> str:
    """``address`` with its port replaced by the bound ``port``."""
    host = address.rsplit(":", 1)[0] if ":" in address else address
    return f"{host}:{port}"


async def serve(
    settings: Settings | None = None,
    *,
    ready: Callable[[str], None] | None = None,
    stop: asyncio.Event | None = None,
) -> None:
    """Serve until SIGINT/SIGTERM (or until ``stop`` is set), then stop gracefully.

    ``ready(address)`` is called with the bound ``host:port`` once serving.

    Raises:
        RuntimeError: the address cannot be bound.
    """
    settings = settings or Settings.from_env()
    tables = Tables(settings.database_url, settings.secret, schema=settings.database_schema)
    try:
        if tables.follow_store():
            log.info("following the store for other replicas' moves")
        server, port = create_server(settings.address, tables)
        await start_server(server)
        bound = display_address(settings.address, port)
        log.info("trapoula serving %s on %s", SERVICE_NAME, bound)
        if ready is not None:
            ready(bound)
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
            await stop_server(server)
    finally:
        tables.close()


def run(settings: Settings | None = None, *, ready: Callable[[str], None] | None = None) -> None:
    """Serve in a new event loop until interrupted (the blocking form of :func:`serve`)."""
    asyncio.run(serve(settings, ready=ready))
