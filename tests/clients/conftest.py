"""Client tests: a server for each test module, and records made offline (``record_helpers``), as
fixtures.

The suite runs with ``--import-mode=importlib``, which does not put test folders on
``sys.path``; the tests import their small helper module from this folder.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

_HERE = Path(__file__).resolve().parent
for _folder in (str(_HERE), str(_HERE.parent / "domain")):  # ``record_helpers`` here plays its matches
    if _folder not in sys.path:  # with the domain tests' ``match_table``
        sys.path.insert(0, _folder)

from record_helpers import Tampered, record_text  # noqa: E402  (after the path is set)

from trapoula.clients.demo import local_server  # noqa: E402


@pytest.fixture(scope="module")
def address(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The address of a server in this process on a SQLite file, shared by the module's tests."""
    folder = tmp_path_factory.mktemp("server")
    with local_server(f"sqlite:///{folder / 'trapoula.sqlite3'}") as where:
        yield where


@pytest.fixture(scope="session")
def clean_record() -> str:
    """A whole single-hand match between three seats, verified."""
    return record_text()


@pytest.fixture(scope="session")
def tampered(clean_record: str) -> Tampered:
    """The first ``CardPlayed`` of :func:`clean_record` with its card's suit letter changed, to a
    card that the seat has not been given (hash chain left as it was)."""
    lines = clean_record.splitlines(keepends=True)
    games = 0
    given: dict[int, set[str]] = {}
    for index, raw in enumerate(lines[1:], start=1):
        entry = json.loads(raw)
        name, payload = entry["name"], entry["payload"]
        if name in ("TableCreated", "SeatTaken"):
            continue
        games += 1
        if name in ("CardsDealt", "CardsDrawn"):
            given.setdefault(payload["seat"], set()).update(payload["cards"])
        if name != "CardPlayed":
            continue
        seat, card = payload["seat"], payload["card"]
        other = next(card[0] + suit for suit in "CDHS" if card[0] + suit not in given[seat])
        old, new = f'"card":"{card}"', f'"card":"{other}"'
        assert raw.count(old) == 1
        lines[index] = raw.replace(old, new)
        return Tampered("".join(lines), entry["seq"], seat, other, games)
    raise AssertionError("the match has no CardPlayed")
