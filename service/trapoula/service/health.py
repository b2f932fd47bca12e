"""The health of ``trapoula.api.v1.TableService`` follows the event store: ``NOT_SERVING`` while
it cannot be reached, ``SERVING`` again after.

A :class:`StoreHealth` probes the store every :data:`PROBE_SECONDS` seconds with a cheap query
(:func:`store_probe`: ``SELECT 1`` through the store's engine) on a thread of its own, and gives
each probe :data:`PROBE_TIMEOUT_SECONDS` to answer.  A call that fails because the store cannot be
reached (:func:`~trapoula.service.status.store_down`) makes it probe at once, so health turns
``NOT_SERVING`` within a probe of the first such call (a lock timeout at one table, with the store
answering, leaves it ``SERVING``).  Calls themselves never probe.

The server sets the service's status only (readiness probes and balancers ask for it, and take
the replica out of rotation); the server as a whole (``""``, what liveness probes ask) stays
``SERVING`` while the process serves, so a database outage never gets the replicas restarted.  A
stopping server leaves every status to ``enter_graceful_shutdown`` (``NOT_SERVING`` for good).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import sqlalchemy
from grpc_health.v1 import health_pb2

from trapoula.service.application import Tables

__all__ = ["PROBE_SECONDS", "PROBE_TIMEOUT_SECONDS", "StoreHealth", "store_probe"]

log = logging.getLogger(__name__)

PROBE_SECONDS = 2.0
"""Seconds between two probes of the store (from the end of one to the start of the next)."""
PROBE_TIMEOUT_SECONDS = 3.0
"""Seconds a probe may take before the store counts as unreachable (a probe still running then
is waited for again by the next one, never started twice)."""


def store_probe(tables: Tables) -> Callable[[], None] | None:
    """A blocking check that the store of ``tables`` answers: ``SELECT 1`` on a connection of its
    SQLAlchemy engine (raises what the driver raises when it does not).  None when there is nothing
    to probe: an in-memory SQLite store (it lives in this process, on one shared connection)."""
    datastore = getattr(tables.store.factory, "datastore", None)
    engine = getattr(datastore, "engine", None)
    if not isinstance(engine, sqlalchemy.Engine) or getattr(datastore, "is_sqlite_in_memory_db", False):
        return None

    def probe() -> None:
        with engine.connect() as connection:
            connection.execute(sqlalchemy.text("SELECT 1"))

    return probe


class StoreHealth:
    """Keeps a health servicer's statuses in step with the store (see the module docstring).

    Args:
        health: the ``grpc_health`` aio ``HealthServicer`` to set.
        probe: blocking, raises when the store does not answer (:func:`store_probe`); None: the
            store is always reachable.
        services: the service names whose status it sets.
        interval: seconds between probes (:data:`PROBE_SECONDS`).
        timeout: seconds a probe may take (:data:`PROBE_TIMEOUT_SECONDS`).
    """

    def __init__(
        self,
        health: Any,
        probe: Callable[[], None] | None,
        services: Sequence[str],
        *,
        interval: float = PROBE_SECONDS,
        timeout: float = PROBE_TIMEOUT_SECONDS,
    ) -> None:
        self._health = health
        self._probe = probe
        self._services = tuple(services)
        self._interval = interval
        self._timeout = timeout
        self._executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="trapoula-health")
        self._pending: asyncio.Future[str | None] | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._wake: asyncio.Event | None = None
        self._task: asyncio.Task[None] | None = None
        self.reachable: bool | None = None
        """What the last check found (None before the first)."""

    def _attempt(self) -> str | None:
        """Run the probe (on the probe thread): None when the store answered, else why not."""
        assert self._probe is not None
        try:
            self._probe()
        except Exception as exc:
            lines = str(exc).strip().splitlines()
            return lines[0][:200] if lines else type(exc).__name__
        return None

    async def check(self) -> bool:
        """Probe the store once and set the statuses: ``SERVING`` when it answered within the
        timeout, else ``NOT_SERVING`` (a change is logged).  Returns whether it answered."""
        failure: str | None = None
        if self._probe is not None:
            if self._pending is None or self._pending.done():
                self._pending = asyncio.get_running_loop().run_in_executor(self._executor, self._attempt)
            done, _ = await asyncio.wait({self._pending}, timeout=self._timeout)
            failure = self._pending.result() if done else f"no answer within {self._timeout:g}s"
        reachable = failure is None
        if reachable != self.reachable:
            if reachable:
                log.info("event store reachable: health SERVING")
            else:
                log.warning("event store unreachable (%s): health NOT_SERVING", failure)
            status = health_pb2.HealthCheckResponse.SERVING if reachable else health_pb2.HealthCheckResponse.NOT_SERVING
            for name in self._services:
                await self._health.set(name, status)
            self.reachable = reachable
        return reachable

    async def start(self) -> None:
        """Check once, then keep checking in a background task (in the running event loop)."""
        self._loop = asyncio.get_running_loop()
        self._wake = asyncio.Event()
        await self.check()
        self._task = asyncio.create_task(self._run(self._wake), name="trapoula-store-health")

    async def _run(self, wake: asyncio.Event) -> None:
        while True:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(wake.wait(), self._interval)
            wake.clear()
            await self.check()

    def store_failed(self) -> None:
        """A call met an unreachable store: probe now (callable from any thread; a no-op before
        :meth:`start` and after :meth:`stop`)."""
        loop, wake = self._loop, self._wake
        if loop is not None and wake is not None and self._task is not None:
            loop.call_soon_threadsafe(wake.set)

    async def stop(self) -> None:
        """Stop checking and release the probe thread (a probe still running is left to finish)."""
        task, self._task = self._task, None
        if task is not None:
            task.cancel()
            await asyncio.gather(task, return_exceptions=True)
        self._executor.shutdown(wait=False, cancel_futures=True)
