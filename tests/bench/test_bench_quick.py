"""``python -m bench --quick`` runs end to end and prints every figure, so the bench cannot rot.

The run's figures are too short to read anything from; what is checked is that every step ran:
every key of a complete run is in its JSON as a number (PostgreSQL's rows and open_spiel's
reference may instead say why they were skipped), every table and row is printed, and the
figures that must be positive are.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from trapoula.domain.registry import GAMES

from .__main__ import QUICK
from .figures import SKIPPED, expected_keys, may_skip

pytestmark = pytest.mark.timeout(120)

HERE = Path(__file__).resolve().parent


@pytest.fixture(scope="module")
def quick_run(tmp_path_factory: pytest.TempPathFactory) -> tuple[subprocess.CompletedProcess[str], dict[str, Any]]:
    """One quick run (module scope: every test below reads the same run)."""
    out = tmp_path_factory.mktemp("bench") / "figures.json"
    env = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join(p for p in (str(HERE.parent), os.environ.get("PYTHONPATH")) if p),
    }
    done = subprocess.run(
        [sys.executable, "-m", "bench", "--quick", "--json", str(out)],
        capture_output=True,
        text=True,
        env=env,
        timeout=110,
        check=False,
    )
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    return done, json.loads(out.read_text(encoding="utf-8"))


def test_every_figure_is_measured_or_says_why_it_was_skipped(quick_run: tuple[Any, dict[str, Any]]) -> None:
    _, document = quick_run
    figures = document["figures"]
    keys = expected_keys(sorted(GAMES), QUICK.levels)
    assert len(keys) == 12 + 4 + 4 + 2 * 3 + 2 * 2 * 15 + 5 + 3  # every game, open_spiel, replay, echo, rows ...
    missing = [k for k in keys if k not in figures]
    assert missing == []
    for key in keys:
        value = figures[key]
        if isinstance(value, str):
            assert may_skip(key) and value.startswith(SKIPPED), (key, value)
        else:
            assert isinstance(value, int | float), (key, value)


def test_the_figures_that_must_be_positive_are(quick_run: tuple[Any, dict[str, Any]]) -> None:
    _, document = quick_run
    figures = document["figures"]
    for game in GAMES:
        assert figures[f"domain.{game}.commands_per_s"] > 0
    for key in ("replay.events", "replay.fold_events_per_s", "replay.audit_events_per_s"):
        assert figures[key] > 0
    for n in QUICK.levels:
        assert figures[f"grpc.echo.{n}.per_s"] > 0
        assert figures[f"grpc.sqlite.{n}.act.per_s"] > 0
        assert figures[f"grpc.sqlite.{n}.act.errors"] == 0
        assert 0 < figures[f"grpc.sqlite.{n}.act.p50_ms"] <= figures[f"grpc.sqlite.{n}.act.p99_ms"]
        assert figures[f"grpc.sqlite.{n}.append.per_s"] > 0
        if sys.platform == "linux":
            assert figures[f"grpc.sqlite.{n}.act.server_cores"] > 0
        p50, echo = figures[f"grpc.sqlite.{n}.act.p50_ms"], figures[f"grpc.echo.{n}.p50_ms"]
        assert figures[f"grpc.sqlite.{n}.ratio.p50_vs_echo"] == pytest.approx(p50 / echo)
    assert figures["fanout.watchers"] == QUICK.watchers
    assert 0 < figures["fanout.p50_ms"] <= figures["fanout.p99_ms"] <= figures["fanout.max_ms"]
    assert figures["memory.tables"] == QUICK.memory_tables
    assert figures["memory.traced_bytes_per_table"] > 0


def test_the_report_prints_every_part_and_row(quick_run: tuple[Any, dict[str, Any]]) -> None:
    done, document = quick_run
    text = done.stdout
    for title in ("Pure domain", "open_spiel crazy_eights", "Replay of a stored record", "gRPC: Act at N tables"):
        assert title in text
    for title in ("gRPC ratios", "Fan-out", "Memory per open table"):
        assert title in text
    for game in GAMES:
        assert f"│ {game} " in text
    for store in ("sqlite", "postgresql"):
        for n in QUICK.levels:
            rows = [line for line in text.splitlines() if line.startswith(f"│ {store} ") and f"│ {n} │" in line]
            assert len(rows) == 2, (store, n)  # the figures' row and the ratios' row
    if any(isinstance(v, str) for v in document["figures"].values()):
        assert "note: " in text  # what was skipped, and why
