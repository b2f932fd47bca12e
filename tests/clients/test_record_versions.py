"""``trapoula verify`` and ``trapoula replay`` of records whose events have schema versions
(docs/record.md 2.2-2.3, docs/events.md).  No server is needed here.

Agonia's ``CardPlayed`` gains ``rank`` (the rank of the card played, its code's first character,
S2.1) at version 2, with an upcaster from version 1, and rules that write it.  A record written
before the change (no ``v``) and one written after (``"v": 2`` on every ``CardPlayed`` line, under
the hash) both verify and replay; a ``v`` changed after the fact breaks the chain (REC5).
"""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import pytest
from evolution_helpers import evolved_agonia
from record_helpers import record_text

from trapoula.clients.cli import main
from trapoula.clients.replay import Replay
from trapoula.domain.audit import audit_record
from trapoula.domain.events import Event
from trapoula.domain.registry import GAMES


@pytest.fixture
def evolved(monkeypatch: pytest.MonkeyPatch) -> type[Event]:
    """Agonia with ``CardPlayed`` at version 2 in the registry, for this test; returns the class."""

    new_class, spec = evolved_agonia()
    monkeypatch.setitem(GAMES, "agonia", spec)
    return new_class


def _write(tmp_path: Path, name: str, lines: list[dict[str, Any]]) -> str:
    path = tmp_path / name
    path.write_text("".join(json.dumps(line, separators=(",", ":")) + "\n" for line in lines), encoding="utf-8")
    return str(path)


def _run(*argv: str) -> tuple[int, str]:
    out = io.StringIO()
    code = main(list(argv), out=out, inp=io.StringIO())
    return code, out.getvalue()


def _verified_and_replayed(path: Path, lines: list[dict[str, Any]], evolved: type[Event]) -> tuple[Replay, int]:
    """``lines`` written to ``path`` verify and replay (``trapoula verify`` and ``replay``), the first
    ``CardPlayed`` read as the ``evolved`` class: the replay, and the position of that event."""
    record = _write(path.parent, path.name, lines)
    code, out = _run("verify", record)
    assert code == 0 and "record verified" in out, out
    assert _run("replay", record)[0] == 0
    replay = Replay(lines)
    first = next(p for p in range(1, replay.length + 1) if replay.step(p).name == "CardPlayed")
    assert type(replay.step(first).event) is evolved
    return replay, first


def test_a_record_with_version_2_lines_verifies_and_replays(evolved: type[Event], tmp_path: Path) -> None:
    lines = [json.loads(raw) for raw in record_text().splitlines()]
    played = [line for line in lines[1:] if line["name"] == "CardPlayed"]
    assert played and all(line["v"] == 2 and line["payload"]["rank"] == line["payload"]["card"][0] for line in played)
    assert all("v" not in line for line in lines[1:] if line["name"] != "CardPlayed")
    replay, first = _verified_and_replayed(tmp_path / "v2.jsonl", lines, evolved)
    assert replay.event_payload(first)["rank"] == played[0]["payload"]["card"][0]


def test_a_record_written_before_the_change_still_verifies_and_replays(
    clean_record: str, evolved: type[Event], tmp_path: Path
) -> None:
    """The lines carry no ``v``: version 1, upcast when read; the rules' version-2 events equal them."""
    lines = [json.loads(raw) for raw in clean_record.splitlines()]
    assert all("v" not in line and "rank" not in line["payload"] for line in lines[1:])
    _verified_and_replayed(tmp_path / "v1.jsonl", lines, evolved)


@pytest.mark.parametrize("edit", [3, 1, None])
def test_a_version_changed_after_the_fact_breaks_the_chain(
    evolved: type[Event], tmp_path: Path, edit: int | None
) -> None:
    """REC5: ``v`` is under the hash.  ``v`` 3 is also a version this code does not read (REC6), and
    ``v`` 1 written out is malformed (REC2: a line at version 1 has no ``v``)."""
    lines = [json.loads(raw) for raw in record_text().splitlines()]
    index = next(i for i, line in enumerate(lines) if line.get("v") == 2)
    seq = lines[index]["seq"]
    if edit is None:
        del lines[index]["v"]
    else:
        lines[index]["v"] = edit
    found = {(p.seq, p.rule) for p in audit_record(lines).problems}
    assert (seq, "REC5") in found
    assert ((seq, "REC6") in found) == (edit == 3) and ((seq, "REC2") in found) == (edit == 1)
    code, out = _run("verify", _write(tmp_path, "edited.jsonl", lines))
    assert code == 1 and f"seq {seq} CardPlayed: hash" in out, out
