"""``Heads``: each table's newest known version, its listeners and its last read (``trapoula.service.heads``)."""

from __future__ import annotations

import logging

import pytest

from trapoula.service.heads import Heads


def test_a_head_only_moves_forward_but_every_announcement_is_heard() -> None:
    heads = Heads(reads_kept=4)
    heard: list[tuple[str, int]] = []
    heads.add_listener(lambda table_id, version: heard.append((table_id, version)))
    heads.announce("a", 3)
    heads.announce("a", 2)  # another replica's older save, heard late
    heads.announce("b", 1)
    assert (heads.known("a"), heads.known("b"), heads.known("c")) == (3, 1, 0)
    assert heard == [("a", 3), ("a", 2), ("b", 1)]


def test_a_failing_listener_is_logged_and_the_others_still_hear(caplog: pytest.LogCaptureFixture) -> None:
    heads = Heads(reads_kept=4)
    heard: list[int] = []

    def broken(table_id: str, version: int) -> None:
        raise ValueError("boom")

    heads.add_listener(broken)
    heads.add_listener(lambda table_id, version: heard.append(version))
    with caplog.at_level(logging.ERROR, logger="trapoula.service.heads"):
        heads.announce("a", 5)
    assert heard == [5] and heads.known("a") == 5
    assert "failed for table a v5" in caplog.text
    heads.remove_listener(broken)
    heads.remove_listener(broken)  # twice: ignored
    heads.announce("a", 6)
    assert heard == [5, 6]


def test_the_oldest_read_is_forgotten_past_reads_kept() -> None:
    heads = Heads(reads_kept=2)
    heads.note_read("a", 10.0)
    heads.note_read("b", 11.0)
    heads.note_read("a", 12.0)  # a read again: now the most recent
    heads.note_read("c", 13.0)  # three tables: b, the oldest, is forgotten
    assert (heads.read_at("a"), heads.read_at("b"), heads.read_at("c")) == (12.0, None, 13.0)
