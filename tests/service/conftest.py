"""Fixtures of the service tests: ``Tables`` on SQLite and PostgreSQL, an in-process gRPC server.

PostgreSQL: the URL comes from ``TEST_DATABASE_URL`` (for example
``postgresql+psycopg://postgres@127.0.0.1:5432/test``; Docker is then never asked), else from a
testcontainers PostgreSQL where a Docker engine answers (``databases.py``).  Each test gets a
fresh schema ``trapoula_test_<random>`` that is dropped afterwards, so runs never collide.
Without either, or when the database cannot be reached, the PostgreSQL tests are skipped with
the reason printed (``-ra``).
"""

from __future__ import annotations

import secrets
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import grpc
import pytest
import sqlalchemy

from trapoula.api.v1 import table_pb2_grpc
from trapoula.domain.cards import codes, deck_52
from trapoula.service.application import Tables

_HERE = str(Path(__file__).resolve().parent)
for _folder in (_HERE, str(Path(_HERE).parent / "domain")):  # ``--import-mode=importlib``: the tests
    if _folder not in sys.path:  # import ``processes`` from here, ``evolution_helpers`` from the domain's
        sys.path.insert(0, _folder)

from databases import NO_POSTGRES, postgres_database  # noqa: E402  (after the path is set)
from grpc_helpers import SECRET, ServerThread  # noqa: E402


@dataclass
class Store:
    """Where a test's tables live."""

    kind: str
    url: str
    schema: str | None = None

    def open(self, secret: bytes = SECRET, **options: Any) -> Tables:
        """A new ``Tables`` on this store (a "replica" when called twice); ``options`` go to ``Tables``."""
        return Tables(self.url, secret, schema=self.schema, **options)


@pytest.fixture
def sqlite_store(tmp_path: Any) -> Store:
    """A SQLite file in the test's temporary folder."""
    return Store("sqlite", f"sqlite:///{tmp_path / 'trapoula.sqlite3'}")


@pytest.fixture(scope="session")
def postgres_url() -> Iterator[str | None]:
    """``TEST_DATABASE_URL``; else a testcontainers PostgreSQL where Docker answers; else None
    (:func:`databases.postgres_database`)."""
    with postgres_database() as url:
        yield url


@pytest.fixture
def postgres_store(postgres_url: str | None) -> Iterator[Store]:
    """A fresh schema in the tests' PostgreSQL database (dropped afterwards)."""
    url = postgres_url
    if not url:
        pytest.skip(NO_POSTGRES)
    schema = f"trapoula_test_{secrets.token_hex(6)}"
    try:
        engine = sqlalchemy.create_engine(url)
        with engine.begin() as conn:
            conn.execute(sqlalchemy.text(f'CREATE SCHEMA "{schema}"'))
    except Exception as exc:  # unreachable database, missing driver ...
        pytest.skip(f"PostgreSQL at TEST_DATABASE_URL is not usable: {type(exc).__name__}: {exc}")
    try:
        yield Store("postgres", url, schema)
    finally:
        with engine.begin() as conn:
            conn.execute(sqlalchemy.text(f'DROP SCHEMA "{schema}" CASCADE'))
        engine.dispose()


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def store(request: pytest.FixtureRequest) -> Store:
    """Each store in turn: SQLite, then PostgreSQL."""
    name = "sqlite_store" if request.param == "sqlite" else "postgres_store"
    result: Store = request.getfixturevalue(name)
    return result


def _opened(store: Store) -> Iterator[Tables]:
    app = store.open()
    try:
        yield app
    finally:
        app.close()


@pytest.fixture
def tables(store: Store) -> Iterator[Tables]:
    """A ``Tables`` application on each store."""
    yield from _opened(store)


@pytest.fixture
def sqlite_tables(sqlite_store: Store) -> Iterator[Tables]:
    """``Tables`` on SQLite, closed after the server that serves them has stopped."""
    yield from _opened(sqlite_store)


# --------------------------------------------------------------------------- explicit deals


def two_player_deal(hand0: str, hand1: str, starter: str) -> dict[str, Any]:
    """An explicit deal (S5.3) for two seats; the stock is every other card in deck order."""
    h0, h1 = hand0.split(), hand1.split()
    used = {*h0, *h1, starter}
    stock = [c for c in codes(deck_52()) if c not in used]
    return {"hands": [h0, h1], "starter": starter, "stock": stock}


DEAL = two_player_deal("4D 5C 6H KS QS JS 2S", "3C 4C 6C 8H 9H TH JH", "3D")
"""Seat 0 (first to play, dealer seat 1) may play 4D (same suit as 3D) but not 5C (R4.1)."""


@pytest.fixture
def deal() -> dict[str, Any]:
    """:data:`DEAL`."""
    return {k: list(v) if isinstance(v, list) else v for k, v in DEAL.items()}


# --------------------------------------------------------------------------- the gRPC server


@pytest.fixture
def server(tables: Tables) -> Iterator[ServerThread]:
    """The server, on each store."""
    thread = ServerThread(tables).start()
    try:
        yield thread
    finally:
        thread.stop()


@pytest.fixture
def serve_tables() -> Iterator[Callable[[Tables], ServerThread]]:
    """Start servers for given ``Tables`` (stopped at the end of the test)."""
    started: list[ServerThread] = []

    def start(tables: Tables) -> ServerThread:
        thread = ServerThread(tables).start()
        started.append(thread)
        return thread

    try:
        yield start
    finally:
        for thread in started:
            thread.stop()


@pytest.fixture
def channel(server: ServerThread) -> Iterator[grpc.Channel]:
    """A client channel to the server."""
    with grpc.insecure_channel(f"127.0.0.1:{server.port}") as ch:
        yield ch


@pytest.fixture
def stub(channel: grpc.Channel) -> table_pb2_grpc.TableServiceStub:
    """The generated ``TableService`` stub."""
    return table_pb2_grpc.TableServiceStub(channel)


def bearer(token: str) -> tuple[tuple[str, str], ...]:
    """Call metadata carrying a token."""
    return (("authorization", f"Bearer {token}"),)


@pytest.fixture
def auth() -> Callable[[str], tuple[tuple[str, str], ...]]:
    """:func:`bearer`, as a fixture."""
    return bearer


@pytest.fixture
def make_deal() -> Callable[[str, str, str], dict[str, Any]]:
    """:func:`two_player_deal`, as a fixture."""
    return two_player_deal
