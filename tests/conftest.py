"""Test-session rules shared by every test folder.

Games plugged in for the tests only live in ``tests/plugins/<folder>/``: each folder holds a game
package and its distribution's metadata (a ``*.dist-info`` folder whose ``entry_points.txt`` names
the game in the ``trapoula.games`` group), as an installed plug-in would.  Each folder is put on
``sys.path``, and on ``PYTHONPATH`` for the servers and terminals the tests start, before any test
reads the registry, so the plug-ins are found through their entry points like any game.

PostgreSQL tests carry the ``postgres`` marker.  They skip, with the reason printed, when no
database can be had; but when ``TRAPOULA_REQUIRE_POSTGRES=1`` (set by CI, which provides
``TEST_DATABASE_URL``) a skipped PostgreSQL test fails the session instead of passing silently.
"""

from __future__ import annotations

import logging
import os
import sys
from collections.abc import Iterator
from pathlib import Path

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


def pytest_collection_modifyitems(session: pytest.Session, config: pytest.Config, items: list[pytest.Item]) -> None:
    """The random-playout classes first: each holds one game's 1,000 matches and runs on one worker
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
