"""``trapoula.service.eventloop``: the server's loop is uvloop where it imports, else asyncio's own.

* With uvloop installed (the server extra on Linux and macOS, as here): a new loop is a
  ``uvloop.Loop``, named ``uvloop <version>`` for the serving line; a loop given is named by its
  own kind (an asyncio loop: ``asyncio``).
* With uvloop missing (``import uvloop`` fails, as on Windows): asyncio's own selector loop,
  named ``asyncio``; nothing else changes.
* ``run`` runs a coroutine to its end in a loop of that kind and returns its result; what the
  coroutine raises comes out of ``run``; the loop is closed afterwards.
"""

from __future__ import annotations

import asyncio
import sys

import pytest

from trapoula.service import eventloop

uvloop = pytest.importorskip("uvloop")


def test_with_uvloop_installed_a_new_loop_is_uvloops() -> None:
    loop = eventloop.new_event_loop()
    try:
        assert isinstance(loop, uvloop.Loop)
    finally:
        loop.close()
    assert eventloop.loop_name() == f"uvloop {uvloop.__version__}"


def test_the_name_is_that_of_the_loop_given_whatever_is_installed() -> None:
    """The serving line names the loop that runs: a server started on asyncio's loop by a client
    (``trapoula demo``) says asyncio although uvloop is installed."""
    mine = asyncio.new_event_loop()
    theirs = uvloop.new_event_loop()
    try:
        assert eventloop.loop_name(mine) == "asyncio"
        assert eventloop.loop_name(theirs) == f"uvloop {uvloop.__version__}"
    finally:
        mine.close()
        theirs.close()


def test_without_uvloop_the_loop_is_asyncios_own(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "uvloop", None)  # ``import uvloop`` raises ImportError
    loop = eventloop.new_event_loop()
    try:
        assert not isinstance(loop, uvloop.Loop)
        assert isinstance(loop, asyncio.SelectorEventLoop)
    finally:
        loop.close()
    assert eventloop.loop_name() == "asyncio"


def test_run_returns_the_result_in_a_loop_of_that_kind_and_closes_it() -> None:
    seen: list[asyncio.AbstractEventLoop] = []

    async def main() -> int:
        seen.append(asyncio.get_running_loop())
        await asyncio.sleep(0)
        return 42

    assert eventloop.run(main()) == 42
    assert isinstance(seen[0], uvloop.Loop)
    assert seen[0].is_closed()


def test_run_lets_the_coroutines_error_out() -> None:
    async def main() -> None:
        raise LookupError("table 7 not found")

    with pytest.raises(LookupError, match="table 7 not found"):
        eventloop.run(main())
