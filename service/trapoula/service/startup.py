"""Opening what a server serves: the event store, the read models and their projection, the
metrics endpoint.  A failure to open the store or migrate the read models is a
:class:`StartupError` of one line, naming the store (its password masked), the cause and the
setting to fix; the metrics endpoint never stops a server (a warning instead).
"""

from __future__ import annotations

import logging

import sqlalchemy

from trapoula.service.application import Tables
from trapoula.service.metrics import Metrics
from trapoula.service.projection import Projection
from trapoula.service.readmodels import ReadModels
from trapoula.service.settings import Settings, display_url, identity_of

log = logging.getLogger(__name__)


class StartupError(RuntimeError):
    """The server cannot start: its message is one line naming what failed and the setting to fix."""


def open_tables(settings: Settings) -> Tables:
    """The ``Tables`` of ``settings``.

    Raises:
        StartupError: the event store cannot be opened; one line naming the store (password
            masked), the cause, and the setting to fix.
    """
    try:
        return Tables(
            settings.database_url,
            settings.secret,
            schema=settings.database_schema,
            snapshot_every=settings.snapshot_every,
            cache_size=settings.cache_size,
            auto_workers=settings.auto_workers,
            recent_states=settings.recent_states,
            identity=identity_of(settings),
        )
    except Exception as exc:
        cause = _cause(exc, settings.database_url)
        fix = (
            "--database-schema or TRAPOULA_DATABASE_SCHEMA to a schema that exists: CREATE SCHEMA ..."
            if settings.database_schema and "schema" in cause.lower()
            else "--database-url or TRAPOULA_DATABASE_URL"
        )
        raise StartupError(
            f"cannot open the event store {display_url(settings.database_url)}: {cause[:300]} (set {fix})"
        ) from exc


def _cause(exc: BaseException, database_url: str) -> str:
    """The first line of ``exc`` (its type when it has no text), the store's password masked."""
    lines = str(exc).strip().splitlines()
    cause = lines[0] if lines else type(exc).__name__
    password = _password(database_url)
    return cause.replace(password, "***") if password else cause


def _password(url: str) -> str | None:
    try:
        password = sqlalchemy.engine.make_url(url).password
        return str(password) if password else None
    except Exception:
        return None


def open_read_models(settings: Settings, tables: Tables, read_models: ReadModels) -> Projection | None:
    """Migrate ``read_models`` (in the store of ``settings``) to the newest revision
    (:mod:`trapoula.service.migrations`; replicas starting together take turns) and start their
    projection; returns it (None when ``settings.projection`` is off: another server keeps them).

    Raises:
        StartupError: the read models cannot be migrated; one line naming the store (password
            masked) and the cause.
    """
    try:
        revision = read_models.migrate()
    except Exception as exc:
        cause = _cause(exc, settings.database_url)
        raise StartupError(
            f"cannot migrate the read models in {display_url(settings.database_url)}: {cause[:300]} "
            "(the database user needs the right to create tables; see docs/read-models.md)"
        ) from exc
    log.debug("read models at migration %s", revision)
    if not settings.projection:
        log.info("projection off: this server does not keep the read models up to date")
        return None
    projection = Projection(tables, read_models)
    projection.start()
    return projection


def serve_metrics(metrics: Metrics, address: str | None) -> str | None:
    """Serve ``metrics`` over HTTP on ``address`` (None: off); the bound ``host:port``, or None
    when off or when the address cannot be bound (a warning: metrics never stop the game)."""
    if address is None:
        log.info("metrics off")
        return None
    try:
        bound = metrics.serve_http(address)
    except (OSError, ValueError) as exc:
        why = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
        log.warning(
            "metrics not served: cannot listen on %r (%s); set --metrics-address or TRAPOULA_METRICS_ADDRESS "
            "to a free port of this host, or off",
            address,
            why,
        )
        return None
    log.info("metrics on http://%s/metrics", bound)
    return bound
