"""Hand-offs from worker threads to an event loop: one wake-up of the loop for all that arrive
before it runs them.

``loop.call_soon_threadsafe`` writes to the loop's self-pipe at every call.  Under load a
command's thread hands the loop two things (the watchers' wake-up when its save is announced,
:mod:`trapoula.service.fanout`, and its result, :func:`run_in`), and many commands finish while
the loop is busy: each write is a system call that lets go of the GIL, which the thread then
waits to take back from the loop.  :class:`Waker` queues what the threads hand over and writes
once until the loop has run the queue.  A call that :func:`run_in` runs on a thread hands over
its wake-ups with its result: the loop is woken once, when the thread is done, and does not
take the GIL from it meanwhile.  A hand-off made on the loop's own thread (a save answered on the
loop announces it there) is queued with ``call_soon``: no self-pipe write, no wake-up.
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import logging
import threading
from collections.abc import Callable
from concurrent.futures import Executor
from typing import Any, TypeVar

log = logging.getLogger(__name__)

T = TypeVar("T")


class Waker:
    """Runs callables on ``loop`` from any thread (see the module docstring): in the order handed
    over; one that raises is logged and the others still run."""

    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        self.loop = loop
        self._lock = threading.Lock()
        self._queued: list[tuple[Callable[..., None], tuple[Any, ...]]] = []
        self._scheduled = False

    def call(self, fn: Callable[..., None], *args: Any) -> None:
        """Run ``fn(*args)`` on the loop soon (any thread).

        Raises:
            RuntimeError: the loop is closed (and nothing queued since was run).
        """
        with self._lock:
            self._queued.append((fn, args))
            if self._scheduled:
                return
            held = getattr(_held, "wakers", None)
            if held is not None:  # within run_in's call: the loop is woken with its result
                held.add(self)
                return
            self._scheduled = True
        self._wake()

    def _wake(self) -> None:
        try:
            if asyncio._get_running_loop() is self.loop:  # on the loop's own thread: no self-pipe write
                self.loop.call_soon(self._run)
            else:
                self.loop.call_soon_threadsafe(self._run)
        except RuntimeError:
            with self._lock:
                self._scheduled = False
                self._queued.clear()
            raise

    def release(self) -> None:
        """Wake the loop for what was handed over while wake-ups were held (:func:`run_in`), unless
        it is woken already.

        Raises:
            RuntimeError: the loop is closed.
        """
        with self._lock:
            if self._scheduled or not self._queued:
                return
            self._scheduled = True
        self._wake()

    def _run(self) -> None:
        with self._lock:
            queued, self._queued = self._queued, []
            self._scheduled = False
        for fn, args in queued:
            try:
                fn(*args)
            except Exception:  # one hand-off must not lose the others
                log.exception("hand-off %r failed", fn)


_held = threading.local()
"""``wakers``: the set of :class:`Waker` whose wake-up this thread holds back (in :func:`run_in`)."""

_WAKERS: dict[asyncio.AbstractEventLoop, Waker] = {}
_WAKERS_LOCK = threading.Lock()


def waker(loop: asyncio.AbstractEventLoop) -> Waker:
    """The :class:`Waker` of ``loop`` (one per loop; forgotten when the loop is closed and another
    is asked for)."""
    found = _WAKERS.get(loop)
    if found is not None:
        return found
    with _WAKERS_LOCK:
        for old in [k for k in _WAKERS if k.is_closed()]:
            del _WAKERS[old]
        return _WAKERS.setdefault(loop, Waker(loop))


def _settle(future: asyncio.Future[Any], error: BaseException | None, result: Any) -> None:
    if future.done():  # cancelled meanwhile
        return
    if error is not None:
        future.set_exception(error)
    else:
        future.set_result(result)


async def run_in(executor: Executor, fn: Callable[..., T], *args: Any) -> T:
    """``fn(*args)`` on ``executor``'s threads, in a copy of the caller's context (its log
    fields), as ``loop.run_in_executor`` runs it, its result or error handed back through the
    loop's :class:`Waker` with the wake-ups ``fn`` handed over meanwhile (the loop is woken once,
    when ``fn`` is done).  Cancelled before a thread took it, it does not run.

    Raises:
        Exception: what ``fn`` raises.
        RuntimeError: the executor is shut down.
    """
    loop = asyncio.get_running_loop()
    future: asyncio.Future[T] = loop.create_future()
    context = contextvars.copy_context()
    hand = waker(loop)

    def work() -> None:
        held: set[Waker] = set()
        _held.wakers = held
        try:
            outcome: tuple[BaseException | None, Any] = (None, context.run(fn, *args))
        except BaseException as exc:  # handed to the caller, as run_in_executor does
            outcome = (exc, None)
        finally:
            _held.wakers = None
        for each in (hand, *(held - {hand})):
            with contextlib.suppress(RuntimeError):  # a closed loop: nobody waits there any more
                if each is hand:
                    hand.call(_settle, future, *outcome)
                else:
                    each.release()

    submitted = executor.submit(work)
    try:
        return await future
    except asyncio.CancelledError:
        submitted.cancel()  # not run when no thread has taken it yet
        raise
