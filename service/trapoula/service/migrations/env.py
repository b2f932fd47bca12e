"""The Alembic environment of the read models (their tables: :mod:`trapoula.service.readtables`).

It runs only through :func:`trapoula.service.migrations.upgrade` and the other functions of that
package, which hand it an open connection (``config.attributes["connection"]``) already in its
transaction (on PostgreSQL with ``search_path`` set to the store's schema, under an advisory
lock).  The version is kept in ``trapoula_alembic_version``; only the read-model tables are
compared by autogenerate (:func:`trapoula.service.migrations.include_name`), never the event
store's own tables.
"""

from __future__ import annotations

from alembic import context
from sqlalchemy.engine import Connection

from trapoula.service.migrations import VERSION_TABLE, include_name
from trapoula.service.readtables import Base


def run_migrations() -> None:
    """Run the migrations on the connection the caller gave (there is no offline mode).

    Raises:
        RuntimeError: no connection was given (``alembic`` run from the command line).
    """
    connection = context.config.attributes.get("connection")
    if not isinstance(connection, Connection) or context.is_offline_mode():
        raise RuntimeError("the read-model migrations run through trapoula.service.migrations.upgrade(engine)")
    context.configure(
        connection=connection,
        target_metadata=Base.metadata,
        version_table=VERSION_TABLE,
        include_name=include_name,
        compare_type=True,
        render_as_batch=connection.dialect.name == "sqlite",
    )
    with context.begin_transaction():
        context.run_migrations()


run_migrations()
