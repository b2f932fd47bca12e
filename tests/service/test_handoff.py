"""Hand-offs from threads to the event loop: every callable runs once, in order, with one wake-up
of the loop for those handed over before it runs them; ``run_in`` behaves as ``run_in_executor``."""

from __future__ import annotations

import asyncio
import threading
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest

from trapoula.service.handoff import Waker, run_in, waker


def counting_wakes(loop: asyncio.AbstractEventLoop) -> list[int]:
    """Count the wake-ups a :class:`Waker` of ``loop`` schedules, in the list's first item, and
    those of them written to the loop's self-pipe (``call_soon_threadsafe``, from another thread)
    in its second."""
    wakes = [0, 0]
    threadsafe, soon = loop.call_soon_threadsafe, loop.call_soon

    def waker_run(callback: Any) -> bool:
        return isinstance(getattr(callback, "__self__", None), Waker)

    def from_thread(callback: Any, *args: Any, **kwargs: Any) -> Any:
        if waker_run(callback):
            wakes[0] += 1
            wakes[1] += 1
        return threadsafe(callback, *args, **kwargs)

    def on_loop(callback: Any, *args: Any, **kwargs: Any) -> Any:
        if waker_run(callback):
            wakes[0] += 1
        return soon(callback, *args, **kwargs)

    loop.call_soon_threadsafe = from_thread  # type: ignore[method-assign]
    loop.call_soon = on_loop  # type: ignore[method-assign]
    return wakes


def test_the_hand_offs_before_the_loop_runs_them_wake_it_once() -> None:
    async def main() -> tuple[list[int], list[int]]:
        loop = asyncio.get_running_loop()
        hand = Waker(loop)
        wakes = counting_wakes(loop)
        ran: list[int] = []

        def fail() -> None:
            raise RuntimeError("one hand-off fails")

        def hand_over() -> None:
            for i in range(50):
                hand.call(ran.append, i)
                if i == 10:
                    hand.call(fail)

        thread = threading.Thread(target=hand_over)
        thread.start()
        thread.join()  # the loop is busy meanwhile: it runs nothing
        await asyncio.sleep(0.01)
        hand.call(ran.append, 50)  # after the loop ran the queue: a new wake-up, from the loop's own thread
        await asyncio.sleep(0.01)
        return ran, wakes

    ran, wakes = asyncio.run(main())
    assert ran == list(range(51))
    assert wakes == [2, 1]  # the thread's hand-offs wrote to the self-pipe once; the loop's own, never


def test_run_in_gives_the_result_the_error_and_the_context() -> None:
    import contextvars

    var: contextvars.ContextVar[str] = contextvars.ContextVar("var", default="none")

    async def main(executor: ThreadPoolExecutor) -> None:
        var.set("caller's")
        assert await run_in(executor, lambda a, b: (a + b, var.get(), threading.current_thread().name), 2, 3) == (
            5,
            "caller's",
            "pool_0",
        )
        with pytest.raises(KeyError):
            await run_in(executor, {}.__getitem__, "missing")
        assert waker(asyncio.get_running_loop()) is waker(asyncio.get_running_loop())

    with ThreadPoolExecutor(1, thread_name_prefix="pool") as executor:
        asyncio.run(main(executor))


def test_a_call_cancelled_before_a_thread_took_it_does_not_run() -> None:
    ran: list[str] = []
    release = threading.Event()

    async def main(executor: ThreadPoolExecutor) -> None:
        busy = asyncio.ensure_future(run_in(executor, release.wait, 5))
        queued = asyncio.ensure_future(run_in(executor, ran.append, "queued"))
        await asyncio.sleep(0.05)
        queued.cancel()
        with pytest.raises(asyncio.CancelledError):
            await queued
        release.set()
        assert await busy is True

    with ThreadPoolExecutor(1) as executor:
        asyncio.run(main(executor))
    assert ran == []


def test_the_wake_ups_of_a_call_on_a_thread_come_with_its_result() -> None:
    async def main(executor: ThreadPoolExecutor) -> tuple[list[str], int]:
        loop = asyncio.get_running_loop()
        hand = waker(loop)
        order: list[str] = []
        wakes = counting_wakes(loop)

        def command() -> str:
            hand.call(order.append, "watchers woken")
            threading.Event().wait(0.05)  # the loop is idle meanwhile, and not woken
            order.append("command done")
            return "result"

        order.append(await run_in(executor, command))
        return order, wakes[0]

    with ThreadPoolExecutor(1) as executor:
        order, wakes = asyncio.run(main(executor))
    assert order == ["command done", "watchers woken", "result"]
    assert wakes == 1
