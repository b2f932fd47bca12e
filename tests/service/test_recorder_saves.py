"""The PostgreSQL save of ``TableRecorder``: its statement written as literals stores exactly the
events given (the same rows as the driver's parameters), and the connection kept for saves is
taken again after it broke."""

from __future__ import annotations

from typing import Any
from uuid import UUID

import pytest
import sqlalchemy
from eventsourcing.persistence import OperationalError, StoredEvent

from trapoula.service import recorder as recorder_module
from trapoula.service.application import SPECTATOR, Tables
from trapoula.service.recorder import TableRecorder, insert_sql

pytestmark = pytest.mark.postgres

NAMES = ("O'Brien \\x41 \\\\", "Ζωή ☃ 'quoted' \"double\"")
"""Seat names whose events hold quotes, backslashes and non-ASCII text."""


def _rows(tables: Tables, schema: str | None) -> list[tuple[Any, ...]]:
    with tables.store.engine.connect() as connection:
        table = f'"{schema}".trapoula_events' if schema else "trapoula_events"
        found = connection.execute(
            sqlalchemy.text(f"SELECT originator_id, originator_version, topic, state FROM {table} ORDER BY id")
        )
        return [(row[0], row[1], row[2], bytes(row[3])) for row in found]


def test_the_literal_statement_stores_the_events_as_given(postgres_store: Any, monkeypatch: Any) -> None:
    written: list[bytes | None] = []

    def literal(*args: Any) -> bytes | None:
        written.append(insert_sql(*args))
        return written[-1]

    monkeypatch.setattr(recorder_module, "insert_sql", literal)
    tables = postgres_store.open()
    given: list[StoredEvent] = []
    recorder = tables.store.recorder
    assert isinstance(recorder, TableRecorder)
    insert = recorder.insert_events

    def spy(stored_events: Any, **kwargs: Any) -> Any:
        given.extend(stored_events)
        return insert(stored_events, **kwargs)

    recorder.insert_events = spy  # type: ignore[method-assign]
    try:
        table_id, _owner = tables.create_table("agonia", 2)
        for seat, name in enumerate(NAMES):
            tables.join(table_id, name, seat)
        tables.add_bot(tables.create_table("agonia", 2)[0], "random")
        rows = _rows(tables, postgres_store.schema)
    finally:
        tables.close()
    assert len(given) >= 5
    assert rows == [(e.originator_id, e.originator_version, e.topic, e.state) for e in given]
    assert any(b"O'Brien" in state for *_, state in rows)
    assert written and None not in written  # every save written as literals, none left to the driver


def test_values_a_literal_cannot_hold_are_left_to_the_driver() -> None:
    event = StoredEvent(UUID(int=1), 1, "m:T", b"{}")
    assert insert_sql('"ev"', [event], "ev", "r|*|") is not None
    assert insert_sql('"ev"', [StoredEvent(UUID(int=1), 1, "m:T\x00", b"{}")], "ev", "r|*|") is None
    assert insert_sql('"ev"', [StoredEvent(UUID(int=1), True, "m:T", b"{}")], "ev", "r|*|") is None
    assert insert_sql('"ev"', [event], "ev", "r|\x00|") is None


def test_the_connection_kept_for_saves_is_taken_again_after_it_broke(postgres_store: Any) -> None:
    tables = postgres_store.open()
    try:
        table_id, _owner = tables.create_table("agonia", 2)
        recorder = tables.store.recorder
        assert isinstance(recorder, TableRecorder)
        pid = recorder._saver.info.backend_pid
        with tables.store.engine.connect() as connection:
            connection.execute(sqlalchemy.text(f"SELECT pg_terminate_backend({pid})"))
            connection.commit()
        with pytest.raises(OperationalError):
            tables.join(table_id, "ann", 0)
        assert tables.join(table_id, "ann", 0)[0] == 0
        assert recorder._saver.info.backend_pid != pid
        assert tables.store.load(table_id).state.version == tables.view(table_id, SPECTATOR)[0]
    finally:
        tables.close()
