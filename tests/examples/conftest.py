"""Fixtures of the examples' tests: a real server process (``tests/service/processes.py``).

The suite runs with ``--import-mode=importlib``, which does not put test folders on ``sys.path``;
the service tests' folder is put there for its ``processes`` module.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

_SERVICE = str(Path(__file__).resolve().parent.parent / "service")
if _SERVICE not in sys.path:
    sys.path.insert(0, _SERVICE)

from processes import ServerProcess, servers  # noqa: E402  (after the path is set)


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    """A ``python -m trapoula.service`` process on a SQLite file, shared by the module's tests."""
    folder = tmp_path_factory.mktemp("server")
    with servers(folder) as started:
        process = ServerProcess(
            f"sqlite:///{folder / 'store.sqlite3'}", folder / "server.log", extra=("--metrics-address", "off")
        ).start()
        started.append(process)
        yield process
