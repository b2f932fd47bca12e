"""Test-session rules shared by every test folder.

Games plugged in for the tests only live in ``tests/plugins/<folder>/``: each folder holds a game
package and its distribution's metadata (a ``*.dist-info`` folder whose ``entry_points.txt`` names
the game in the ``trapoula.games`` group), as an installed plug-in would.  Each folder is put on
``sys.path``, and on ``PYTHONPATH`` for the servers and terminals the tests start, before any test
reads the registry, so the plug-ins are found through their entry points like any game.

Two markers leave out the long tests (``make test-fast`` runs ``-m "not slow and not process"``;
``make test`` runs them all): ``slow``, a long run (the random playouts of every game, the quick
benchmark), and ``process``, a test that starts a Python process of its own (a server, an example
program, a process it stops with a signal).  A test that starts one unmarked fails at once, so the
fast run stays fast.

PostgreSQL tests carry the ``postgres`` marker.  They skip, with the reason printed, when no
database can be had; but when ``TRAPOULA_REQUIRE_POSTGRES=1`` (set by CI, which provides
``TEST_DATABASE_URL``) a skipped PostgreSQL test fails the session instead of passing silently.
"""

from __future__ import annotations

import logging
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from trapoula.domain import registry

PLUGINS = Path(__file__).resolve().parent / "plugins"
"""The folders of the games plugged in for the tests (see the module docstring)."""


def _plug_in(folders: list[Path]) -> None:
    paths = [str(f) for f in folders]
    sys.path[:0] = [p for p in paths if p not in sys.path]
    inherited = [p for p in os.environ.get("PYTHONPATH", "").split(os.pathsep) if p and p not in paths]
    os.environ["PYTHONPATH"] = os.pathsep.join([*paths, *inherited])  # the processes the tests start
    registry.reload()


_plug_in(sorted(f for f in PLUGINS.iterdir() if f.is_dir() and not f.name.startswith(("_", "."))))

_skipped_postgres: list[str] = []

_LONGEST_PLAYOUTS_FIRST = ("vida", "mau_mau", "giminaiciai", "agonia", "crazy_eights", "romis")
"""The random-playout classes by their measured CPU time, longest first (a game missing here runs
with the other tests)."""


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "postgres: needs a PostgreSQL database (TEST_DATABASE_URL)")
    config.addinivalue_line("markers", "slow: a long run (random playouts, the quick benchmark); not in make test-fast")
    config.addinivalue_line(
        "markers", "process: starts a Python process of its own (a server, an example); not in make test-fast"
    )


_RUNNING: list[pytest.Item] = []
"""The test being set up, run or torn down (in this process)."""
_PYTHON_FOLDER = Path(sys.executable).resolve().parent
"""The folder of this interpreter: its ``python`` and the console scripts (``trapoula``) beside it."""
_popen_init = subprocess.Popen.__init__


def _starts_python(args: Any) -> bool:
    """True when a ``Popen`` argument list (or command string) runs this interpreter or a script of
    its folder."""
    first = (
        args.split()[0]
        if isinstance(args, str) and args.strip()
        else args[0]
        if isinstance(args, list | tuple) and args
        else None
    )
    if not isinstance(first, str | os.PathLike):
        return False
    path = Path(first)
    return path.name.startswith("python") or (path.is_absolute() and path.resolve().parent == _PYTHON_FOLDER)


def _guarded_init(self: subprocess.Popen[Any], args: Any, *rest: Any, **options: Any) -> None:
    item = _RUNNING[-1] if _RUNNING else None
    if item is not None and "process" not in item.keywords and _starts_python(args):
        raise RuntimeError(
            f"{item.nodeid} starts a Python process: mark it @pytest.mark.process (make test-fast leaves those out)"
        )
    _popen_init(self, args, *rest, **options)


subprocess.Popen.__init__ = _guarded_init  # type: ignore[method-assign]


@pytest.hookimpl(wrapper=True)
def pytest_runtest_protocol(item: pytest.Item, nextitem: pytest.Item | None) -> Any:
    """Note the running test (its fixtures' set-up and tear-down included) for :func:`_guarded_init`."""
    _RUNNING.append(item)
    try:
        return (yield)
    finally:
        _RUNNING.pop()


def pytest_collection_modifyitems(session: pytest.Session, config: pytest.Config, items: list[pytest.Item]) -> None:
    """The random-playout classes first: each holds one game's 600 matches and runs on one worker
    (``make test`` runs ``--dist loadscope --no-loadscope-reorder``), so starting the longest work
    first lets the many short tests fill in around it on both workers."""

    def rank(item: pytest.Item) -> int:
        for i, key in enumerate(_LONGEST_PLAYOUTS_FIRST):
            if f"/properties/test_playouts.py::TestPlayouts_{key}::" in item.nodeid:
                return i
        return len(_LONGEST_PLAYOUTS_FIRST)

    items.sort(key=rank)


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    if report.skipped and "postgres" in report.keywords:
        _skipped_postgres.append(report.nodeid)


def _required() -> bool:
    return bool(_skipped_postgres) and os.environ.get("TRAPOULA_REQUIRE_POSTGRES") == "1"


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    if _required():
        terminalreporter.write_line(
            f"FAILED: {len(_skipped_postgres)} PostgreSQL test(s) skipped although TRAPOULA_REQUIRE_POSTGRES=1",
            red=True,
        )


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    if _required():
        session.exitstatus = pytest.ExitCode.TESTS_FAILED


@pytest.fixture(autouse=True)
def _logging_as_it_was() -> Iterator[None]:
    """A test that runs the server's ``main`` in this process installs its log handler on the root
    logger (``trapoula.service.logs.configure``); remove it afterwards, so that later tests in the
    same worker do not find the server's log lines in their captured standard error."""
    root, own = logging.getLogger(), logging.getLogger("trapoula")
    handlers, levels = list(root.handlers), (root.level, own.level)
    yield
    for handler in [h for h in root.handlers if h not in handlers]:
        root.removeHandler(handler)
    root.setLevel(levels[0])
    own.setLevel(levels[1])
