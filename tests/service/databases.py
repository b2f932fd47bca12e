"""Where the PostgreSQL tests get their database (the ``postgres_url`` fixture of ``conftest.py``).

In this order:

1. ``TEST_DATABASE_URL``, when set and not empty: that database, and Docker is never asked
   (testcontainers is not even imported);
2. else, when a Docker engine answers: a PostgreSQL container (:data:`POSTGRES_IMAGE`) started
   with testcontainers for the test session and removed after it; one that cannot start (no
   image, no network) fails the tests that need it;
3. else none: the PostgreSQL tests skip with :data:`NO_POSTGRES` (and fail the session under
   ``TRAPOULA_REQUIRE_POSTGRES=1``).
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterator, Mapping

POSTGRES_IMAGE = "postgres:16-alpine"
"""The image of the PostgreSQL container started where Docker runs."""
DOCKER_PING_SECONDS = 5
"""How long the Docker engine has to answer its ping."""
NO_POSTGRES = (
    "no PostgreSQL: TEST_DATABASE_URL is not set and no Docker engine answers for a testcontainers "
    "PostgreSQL; set e.g. TEST_DATABASE_URL=postgresql+psycopg://user@host:5432/db"
)
"""Why a PostgreSQL test skips."""


def docker_engine_answers() -> bool:
    """True when a Docker engine answers a ping where testcontainers looks for one (its settings,
    ``DOCKER_HOST``, the current docker context, else the local socket)."""
    from docker.errors import DockerException
    from testcontainers.core.docker_client import DockerClient

    try:
        return bool(DockerClient(timeout=DOCKER_PING_SECONDS).client.ping())
    except (DockerException, OSError):  # no engine there; requests' connection errors are OSErrors
        return False


@contextlib.contextmanager
def postgres_database(environ: Mapping[str, str] = os.environ) -> Iterator[str | None]:
    """The SQLAlchemy URL of the tests' PostgreSQL database (see the module docstring), or None.

    Raises:
        docker.errors.DockerException: Docker answers but the container cannot be started.
    """
    url = environ.get("TEST_DATABASE_URL")
    if url:
        yield url
    elif docker_engine_answers():
        from testcontainers.community.postgres import PostgresContainer

        with PostgresContainer(POSTGRES_IMAGE, driver="psycopg") as container:
            yield container.get_connection_url()
    else:
        yield None
