"""The ``--update-golden`` option: rewrite the golden playthroughs instead of diffing them.

``pytest tests/golden --update-golden`` (or ``TRAPOULA_UPDATE_GOLDEN=1``) regenerates every
file; review the diff before committing it (STYLE habit 11d).
"""

from __future__ import annotations

import contextlib
import os

import pytest


def pytest_addoption(parser: pytest.Parser) -> None:
    with contextlib.suppress(ValueError):  # already added by another conftest
        parser.addoption(
            "--update-golden",
            action="store_true",
            default=False,
            help="rewrite the golden playthrough files instead of comparing with them",
        )


@pytest.fixture
def update_golden(request: pytest.FixtureRequest) -> bool:
    """True when the golden files are to be rewritten."""
    return bool(request.config.getoption("--update-golden")) or os.environ.get("TRAPOULA_UPDATE_GOLDEN") == "1"
