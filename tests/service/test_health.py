"""Health follows the event store (``trapoula.service.health``): probes with stand-in stores here;
a real PostgreSQL cut off and restored in ``test_faults.py``."""

from __future__ import annotations

import asyncio
import logging
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from eventsourcing import persistence
from grpc_health.v1 import health, health_pb2

from trapoula.service.application import Tables
from trapoula.service.health import StoreHealth, store_probe

SERVICES = ("", "trapoula.api.v1.TableService")
SERVING = health_pb2.HealthCheckResponse.SERVING
NOT_SERVING = health_pb2.HealthCheckResponse.NOT_SERVING


class Store:
    """A stand-in store's probe: answers, fails, or hangs until released; counts its probes."""

    def __init__(self) -> None:
        self.down = False
        self.hanging = threading.Event()
        self.released = threading.Event()
        self.released.set()
        self.probes = 0
        self.probed = threading.Event()

    def probe(self) -> None:
        self.probes += 1
        self.probed.set()
        if not self.released.is_set():
            self.hanging.set()
            self.released.wait(30)
        if self.down:
            raise persistence.OperationalError('connection to server at "db" failed: Connection refused')


async def statuses(servicer: Any) -> list[int]:
    """The status ``Check`` answers for each of :data:`SERVICES`."""
    return [(await servicer.Check(health_pb2.HealthCheckRequest(service=name), None)).status for name in SERVICES]


def run(scenario: Callable[[Any, Store], Any]) -> Any:
    """``scenario(health servicer, store)`` in a new event loop."""
    return asyncio.run(scenario(health.aio.HealthServicer(), Store()))  # type: ignore[attr-defined]


def test_health_is_not_serving_while_the_probe_fails_and_serving_again_after(caplog: pytest.LogCaptureFixture) -> None:
    async def scenario(servicer: Any, store: Store) -> list[Any]:
        watch = StoreHealth(servicer, store.probe, SERVICES)
        seen = [await watch.check(), await statuses(servicer)]
        store.down = True
        seen += [await watch.check(), await statuses(servicer)]
        store.down = False
        seen += [await watch.check(), await statuses(servicer)]
        await watch.stop()
        return seen

    with caplog.at_level(logging.INFO, logger="trapoula.service.health"):
        seen = run(scenario)
    assert seen == [True, [SERVING] * 2, False, [NOT_SERVING] * 2, True, [SERVING] * 2]
    assert [r.getMessage() for r in caplog.records] == [
        "event store reachable: health SERVING",
        'event store unreachable (connection to server at "db" failed: Connection refused): health NOT_SERVING',
        "event store reachable: health SERVING",
    ]


def test_a_probe_that_does_not_answer_in_time_is_unreachable_and_is_never_doubled() -> None:
    """The probe hangs (a silent network): the check gives up after its timeout; the next check
    waits for the same probe instead of starting another; once it answers, health is back."""

    async def scenario(servicer: Any, store: Store) -> list[Any]:
        watch = StoreHealth(servicer, store.probe, SERVICES, timeout=0.05)
        store.released.clear()
        seen = [await watch.check(), await watch.check(), await statuses(servicer), store.probes]
        store.released.set()
        watch._timeout = 30.0  # the released probe answers at once; the bound only stops a broken test
        seen += [await watch.check(), await statuses(servicer), store.probes]
        await watch.stop()
        return seen

    assert run(scenario) == [False, False, [NOT_SERVING] * 2, 1, True, [SERVING] * 2, 1]


def test_a_call_that_met_an_unreachable_store_makes_it_probe_at_once() -> None:
    """Probes are an hour apart here: the second one comes from :meth:`StoreHealth.store_failed`."""

    async def scenario(servicer: Any, store: Store) -> list[Any]:
        watch = StoreHealth(servicer, store.probe, SERVICES, interval=3600)
        await watch.start()
        seen: list[Any] = [store.probes, await statuses(servicer)]
        store.down = True
        store.probed.clear()
        watch.store_failed()
        assert await asyncio.get_running_loop().run_in_executor(None, store.probed.wait, 30)
        while watch.reachable:  # the probe has run; its result is being applied
            await asyncio.sleep(0)
        seen += [store.probes, await statuses(servicer)]
        await watch.stop()
        watch.store_failed()  # after stop: nothing happens
        return seen

    assert run(scenario) == [1, [SERVING] * 2, 2, [NOT_SERVING] * 2]


def test_the_probe_asks_a_sqlite_file_and_skips_an_in_memory_store(tmp_path: Path) -> None:
    on_file = Tables(f"sqlite:///{tmp_path / 'store.sqlite3'}")
    in_memory = Tables("sqlite:///:memory:")
    try:
        probe = store_probe(on_file)
        assert probe is not None
        probe()
        assert store_probe(in_memory) is None
    finally:
        on_file.close()
        in_memory.close()
