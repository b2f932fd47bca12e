"""Fixtures of the contract suite: one in-process gRPC server on SQLite per test module, shared by
every game's tests in it (the service tests' helpers are imported from ``tests/service``)."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import grpc
import pytest

_HERE = Path(__file__).resolve().parent
for _folder in (str(_HERE), str(_HERE.parent / "service")):  # ``--import-mode=importlib``: the suite
    if _folder not in sys.path:  # imports ``contract_games`` from here, ``grpc_helpers`` from there
        sys.path.insert(0, _folder)

from contract_games import Served  # noqa: E402
from grpc_helpers import SECRET, Stub, projected  # noqa: E402

from trapoula.service.application import Tables  # noqa: E402


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    """One server on a SQLite file for the whole module, with its read models kept by a projection."""
    url = f"sqlite:///{tmp_path_factory.mktemp('contract') / 'contract.sqlite3'}"
    tables = Tables(url, SECRET)
    try:
        with projected(tables, url, poll_seconds=0.2) as (server, _), grpc.insecure_channel(server.address) as channel:
            yield Served(tables, server.address, Stub(channel))
    finally:
        tables.close()
