"""The demo's client-side bots and streams: they end, and say why, however the match ends.

One in-process server (port 0, SQLite in a temporary folder) serves the module; each test plays
a single hand (``target 0``).  A bot's brain is replaced where a test needs it to fail.
"""

from __future__ import annotations

import io
import random
import threading
from pathlib import Path
from typing import Any

import pytest

from trapoula.clients import demo
from trapoula.clients.demo import run_demo
from trapoula.clients.errors import InvalidArgument, TrapoulaError
from trapoula.domain.cards import codes, deck_52

pytestmark = pytest.mark.timeout(120)


def _demo_threads() -> list[str]:
    """The demo's threads still alive (bots and the supervisor)."""
    return [
        t.name
        for t in threading.enumerate()
        if t.is_alive() and (t.name.startswith("trapoula-bot-") or t.name == "trapoula-demo-supervisor")
    ]


def _stopped(address: str, record: Path, levels: tuple[str, ...]) -> str:
    """A demo of ``levels`` to 0 points that must stop with a failure: the failure's words."""
    with pytest.raises(TrapoulaError) as failed:
        run_demo(address, options={"target_points": 0}, record_path=record, levels=levels, out=io.StringIO())
    return str(failed.value)


def test_a_single_hand_prints_its_progress_and_the_record_path_and_leaves_no_thread(
    address: str, tmp_path: Path
) -> None:
    out = io.StringIO()
    path = tmp_path / "one.jsonl"
    result = run_demo(
        address, options={"target_points": 0}, record_path=path, levels=("random", "heuristic"), seed=3, out=out
    )
    lines = out.getvalue().splitlines()
    assert result.report.ok, result.report.summary()
    assert lines[0].startswith(f"table {result.table_id} (agonia, 2 seats, options {{'target_points': 0}})")
    assert lines[1] == "hand 1:"
    assert any(line.startswith("  Match over") for line in lines)
    assert f"record written to {path}" in lines
    assert lines[-1] == f"record verified: 1 hand(s), {result.report.events} events, hash chain intact"
    assert _demo_threads() == []


def test_a_failing_bot_stops_the_demo_with_its_error_and_every_stream_ends(
    address: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Seat 1's brain fails on its first decision: the others would wait for it forever; the
    demo stops them all and raises the failure, naming the bot."""
    real = demo.choose

    def choose(game: str, view: dict[str, Any], level: str, rng: random.Random) -> dict[str, Any]:
        if view.get("seat") == 1:
            raise RuntimeError("brain fault")
        return real(game, view, level, rng)

    monkeypatch.setattr(demo, "choose", choose)
    failed = _stopped(address, tmp_path / "x.jsonl", ("heuristic",) * 3)
    assert failed == "bot Babis (seat 1) failed: RuntimeError: brain fault"
    assert not (tmp_path / "x.jsonl").exists()
    assert _demo_threads() == []


def test_a_bot_refused_on_a_current_view_is_a_failure_not_a_stall_s11(
    address: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Seat 0 plays a card it does not hold: the server refuses (card_not_in_hand, S11), the
    table has not moved on, so the bot stops the demo instead of waiting for news."""
    real = demo.choose

    def choose(game: str, view: dict[str, Any], level: str, rng: random.Random) -> dict[str, Any]:
        kinds = {c["kind"] for c in view.get("legal") or ()}
        if view.get("seat") == 0 and "choose_suit" not in kinds:
            missing = next(c for c in codes(deck_52()) if c not in view["hand"])
            return {"kind": "play", "card": missing}
        return real(game, view, level, rng)

    monkeypatch.setattr(demo, "choose", choose)
    failed = _stopped(address, tmp_path / "x.jsonl", ("random",) * 2)
    message = failed
    assert message.startswith("Anna (seat 0) was refused {'kind': 'play', 'card': ")
    assert message.endswith("[card_not_in_hand, S11]")
    assert _demo_threads() == []


def test_bad_demo_arguments_are_refused_before_playing(tmp_path: Path) -> None:
    with pytest.raises(InvalidArgument, match="unknown bot level"):
        run_demo("127.0.0.1:1", levels=("genius",), out=io.StringIO())
    with pytest.raises(InvalidArgument, match="at least one bot"):
        run_demo("127.0.0.1:1", levels=(), out=io.StringIO())
    with pytest.raises(IsADirectoryError):
        run_demo("127.0.0.1:1", record_path=tmp_path, out=io.StringIO())
