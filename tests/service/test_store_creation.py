"""Replicas opening a new PostgreSQL store at the same moment each open it (docs/replicas.md, "One
machine, several cores": the processes of one machine start together).

Each process makes the store's tables that are missing as it opens the store.  The library's way
(a look for each table, then ``CREATE TABLE``) lets two processes both find a table missing, and
the second then fails (``relation "trapoula_events" already exists``, or a duplicate key in
``pg_type``): in a run of five rounds of four at once before the change, 15 of the 20 failed.
"""

from __future__ import annotations

import threading
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest
import sqlalchemy

from trapoula.service.application import Tables
from trapoula.service.recorder import creation_lock_key

pytestmark = [pytest.mark.postgres]

AT_ONCE = 4
"""Replicas opening the store together."""


def test_replicas_opening_an_empty_schema_at_once_each_open_it_and_share_one_store(postgres_store: Any) -> None:
    """Four ``Tables`` opened at the same moment (a barrier) on an empty schema: none fails; the
    schema then holds one events' table and one snapshots' table, and a table created through one
    replica is read through another."""
    barrier = threading.Barrier(AT_ONCE)

    def open_one() -> Tables:
        barrier.wait()
        return postgres_store.open()

    with ThreadPoolExecutor(AT_ONCE) as pool:
        futures = [pool.submit(open_one) for _ in range(AT_ONCE)]
        opened = [f.result() for f in futures]  # the first failure is raised here
    try:
        engine = sqlalchemy.create_engine(postgres_store.url)
        try:
            names = sorted(sqlalchemy.inspect(engine).get_table_names(schema=postgres_store.schema))
        finally:
            engine.dispose()
        assert names == ["trapoula_events", "trapoula_snapshots"]
        table_id, _owner = opened[0].create_table("agonia", 4, {})
        jsonl, _hands = opened[AT_ONCE - 1].record(table_id)
        assert jsonl and opened[AT_ONCE - 1].record(table_id) == opened[0].record(table_id)
    finally:
        for tables in opened:
            tables.close()


def test_each_schema_has_its_own_creation_lock() -> None:
    """Stores in two schemas of one database never wait for each other's creation; a key is a
    signed 64-bit integer, as ``pg_advisory_xact_lock`` takes."""
    keys = {creation_lock_key(s) for s in (None, "a", "b", "trapoula")}
    assert len(keys) == 4
    assert all(-(2**63) <= k < 2**63 for k in keys)
