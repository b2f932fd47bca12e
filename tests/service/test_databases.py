"""Where the PostgreSQL tests get their database (``databases.py``): ``TEST_DATABASE_URL`` first,
without asking Docker; else a testcontainers PostgreSQL where Docker answers; else none."""

from __future__ import annotations

from typing import Any, ClassVar

import databases
import pytest
import testcontainers.community.postgres
import testcontainers.core.docker_client

URL = "postgresql+psycopg://ann@db.example:5432/trapoula"


class Container:
    """Stands in for ``PostgresContainer``: records what it was asked."""

    made: ClassVar[list[tuple[str, str | None]]] = []
    events: ClassVar[list[str]] = []

    def __init__(self, image: str, driver: str | None = "psycopg2") -> None:
        Container.made.append((image, driver))

    def __enter__(self) -> Container:
        Container.events.append("started")
        return self

    def __exit__(self, *exc: Any) -> None:
        Container.events.append("removed")

    def get_connection_url(self) -> str:
        return "postgresql+psycopg://test:test@localhost:32768/test"


@pytest.fixture
def docker(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Every attempt to reach Docker is recorded (and refused); the container is a stand-in."""
    asked: list[str] = []

    def refuse(*_args: Any, **_kwargs: Any) -> Any:
        asked.append("docker")
        raise testcontainers.core.docker_client.docker.errors.DockerException("no engine here")

    monkeypatch.setattr(testcontainers.core.docker_client, "DockerClient", refuse)
    monkeypatch.setattr(testcontainers.community.postgres, "PostgresContainer", Container)
    Container.made, Container.events = [], []
    return asked


def test_test_database_url_wins_and_docker_is_never_asked(docker: list[str]) -> None:
    with databases.postgres_database({"TEST_DATABASE_URL": URL}) as url:
        assert url == URL
    assert docker == [] and Container.made == []


def test_without_the_url_nor_a_docker_engine_there_is_no_database(docker: list[str]) -> None:
    for environ in ({}, {"TEST_DATABASE_URL": ""}):
        with databases.postgres_database(environ) as url:
            assert url is None
    assert docker == ["docker", "docker"] and Container.made == []


def test_where_docker_answers_a_container_serves_the_session_and_is_removed(
    docker: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(databases, "docker_engine_answers", lambda: True)
    with databases.postgres_database({}) as url:
        assert url == "postgresql+psycopg://test:test@localhost:32768/test"
        assert Container.events == ["started"]
    assert Container.made == [("postgres:16-alpine", "psycopg")]
    assert Container.events == ["started", "removed"]
