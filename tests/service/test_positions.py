"""Positions: the version numbers a viewer is given skip the events withheld from it
(``TableState.position`` / ``version_at``; docs/rules/romis.md R5.4 and section 9: an event such as
``AuxiliaryUsed`` is not sent to another seat at all, and its version number must not give it away).

The log here is worked out by hand: versions 1..10, with events withheld from everybody but seat 1
at versions 4 and 5 and from everybody but seat 0 at version 8.
"""

from __future__ import annotations

import dataclasses

import pytest

from trapoula.service.tablestate import TableState

WITHHELD = ((4, frozenset({1})), (5, frozenset({1})), (8, frozenset({0})))


@pytest.fixture
def state() -> TableState:
    """A table at version 10 with the withheld events above."""
    return TableState(
        table_id="t",
        game="romis",
        seats=(None, None, None),
        options={},
        first_dealer=None,
        initial_totals=None,
        manual_deal=False,
        owner_token_hash="",
        version=10,
        last_hash="",
        withheld=WITHHELD,
    )


def test_a_seat_counts_its_own_withheld_events_and_not_the_others(state: TableState) -> None:
    """Seat 1 receives 4 and 5 but not 8: 9 events; seat 0 the reverse: 8; seat 2 and spectators: 7."""
    assert state.position(1) == 9
    assert state.position(0) == 8
    assert state.position(2) == 7
    assert state.position(None) == 7


@pytest.mark.parametrize(
    ("viewer", "version", "expected"),
    [(2, 3, 3), (2, 4, 3), (2, 5, 3), (2, 6, 4), (2, 8, 5), (2, 9, 6), (1, 5, 5), (1, 8, 7), (0, 8, 6)],
)
def test_position_of_a_version(state: TableState, viewer: int, version: int, expected: int) -> None:
    """Seat 2 sees versions 1, 2, 3, 6, 7, 9, 10 as positions 1..7; seat 1 skips only 8; seat 0 4 and 5."""
    assert state.position(viewer, version) == expected


@pytest.mark.parametrize(
    ("viewer", "position", "expected"),
    [(2, 0, 0), (2, 3, 5), (2, 4, 6), (2, 5, 8), (2, 7, 10), (1, 7, 8), (1, 9, 10), (0, 3, 5), (0, 5, 7)],
)
def test_a_watch_from_a_position_resumes_after_the_last_version_of_that_position(
    state: TableState, viewer: int, position: int, expected: int
) -> None:
    """Seat 2 at position 3 has seen version 3 and cannot see 4, 5: it resumes after version 5."""
    assert state.version_at(viewer, position) == expected
    assert state.position(viewer, expected) == position


def test_without_withheld_events_positions_are_versions(state: TableState) -> None:
    """Every game but romis: position == version for every viewer."""
    plain = dataclasses.replace(state, withheld=())
    for viewer in (None, 0, 1, 2):
        assert [plain.position(viewer, v) for v in range(11)] == list(range(11))
        assert [plain.version_at(viewer, p) for p in range(11)] == list(range(11))
