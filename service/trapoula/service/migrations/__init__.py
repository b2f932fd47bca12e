"""Alembic migrations of the read models, packaged with the service and run programmatically.

The server calls :func:`upgrade` at start (``ReadModels.migrate``): every pending migration runs
in one transaction, so a failed one leaves nothing half done.  On PostgreSQL the transaction
first takes an advisory lock (:func:`lock_key`, one per schema), so replicas starting together
migrate one after the other: the first upgrades, the others then find the newest revision and do
nothing.  On SQLite the transaction holds the database's write lock (``BEGIN IMMEDIATE``) from
the start, which serialises two processes the same way.  The version is kept in the table
:data:`VERSION_TABLE` (not ``alembic_version``, which another application of the same database
may use), in the store's schema.

A new migration: change the models, then write ``versions/rNNNN_<what>.py`` by hand or from
:func:`differences` (what autogenerate sees between the models and a database at head); the
test of the migrations fails while the two disagree.  No ``alembic.ini`` is needed.
"""

from __future__ import annotations

import hashlib
import threading
from pathlib import Path
from typing import Any

from alembic import command
from alembic.autogenerate import compare_metadata
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import text
from sqlalchemy.engine import Connection, Engine

HERE = Path(__file__).resolve().parent
"""The folder of ``env.py`` and ``versions/``."""
VERSION_TABLE = "trapoula_alembic_version"
"""Where the database's revision of the read models is kept."""
_IN_PROCESS = threading.Lock()
"""Alembic's ``context`` is one per process: two migrations of one process take turns (after the
database's lock, so that two threads still meet at the database as two replicas would)."""


def lock_key(schema: str | None) -> int:
    """The PostgreSQL advisory lock key of the migrations of ``schema`` (a signed 64-bit integer)."""
    digest = hashlib.sha256(f"trapoula read-model migrations/{schema or ''}".encode()).digest()
    return int.from_bytes(digest[:8], "big", signed=True)


def include_name(name: str | None, type_: str, parent_names: Any) -> bool:
    """Autogenerate's filter: only the read models' tables (the event store's are not ours)."""
    from trapoula.service.readtables import Base

    return type_ != "table" or name in Base.metadata.tables


def alembic_config(connection: Connection | None = None) -> Config:
    """An Alembic configuration of the packaged scripts, handing ``connection`` to ``env.py``."""
    config = Config()
    config.set_main_option("script_location", str(HERE))
    config.attributes["connection"] = connection
    return config


def head() -> str:
    """The newest revision of the packaged migrations."""
    found = ScriptDirectory.from_config(alembic_config()).get_current_head()
    assert found is not None
    return found


def current(connection: Connection) -> str | None:
    """The revision the database is at (None: never migrated)."""
    return MigrationContext.configure(connection, opts={"version_table": VERSION_TABLE}).get_current_revision()


def upgrade(engine: Engine, schema: str | None = None, revision: str = "head") -> str:
    """Apply every migration up to ``revision`` (default the newest) in one transaction; returns
    the database's revision after it.  Nothing is done when the database is there already.

    ``engine`` must reach the store's schema by default (``ReadModels.write_engine`` does); the
    advisory lock of ``schema`` (PostgreSQL) keeps two replicas from migrating at once.

    Raises:
        Exception: what the database raises (unreachable, no rights to create tables ...); the
            transaction is then rolled back.
    """
    with engine.begin() as connection:
        if connection.dialect.name == "postgresql":
            connection.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": lock_key(schema)})
        with _IN_PROCESS:
            command.upgrade(alembic_config(connection), revision)
        found = current(connection)
    assert found is not None
    return found


def differences(engine: Engine) -> list[Any]:
    """What Alembic's autogenerate finds between the read models and the database (empty when they
    agree; the event store's tables are left out)."""
    from trapoula.service.readtables import Base

    with engine.connect() as connection:
        context = MigrationContext.configure(
            connection,
            opts={"version_table": VERSION_TABLE, "include_name": include_name, "compare_type": True},
        )
        return list(compare_metadata(context, Base.metadata))
