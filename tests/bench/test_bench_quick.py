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
from trapoula.service.metrics import LATENCY_BUCKETS

from .__main__ import QUICK
from .figures import SKIPPED, bounds, expected_keys, may_skip

pytestmark = [pytest.mark.timeout(180), pytest.mark.slow, pytest.mark.process]

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
        timeout=170,
        check=False,
    )
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    return done, json.loads(out.read_text(encoding="utf-8"))


def test_every_figure_is_measured_or_says_why_it_was_skipped(quick_run: tuple[Any, dict[str, Any]]) -> None:
    _, document = quick_run
    figures = document["figures"]
    keys = expected_keys(sorted(GAMES), QUICK.levels)
    # every game (two figures each: the six built-in games and any plugged in), the bare program,
    # open_spiel, replay; per store and level Act (12), the baselines (10), the ratios (4); fan-out,
    # paced load, saturation, memory
    assert len(keys) == 2 * len(GAMES) + 3 + 4 + 4 + 2 * 2 * (12 + 10 + 4) + 11 + 13 + 14 + 3
    assert len(GAMES) >= 6
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
        row = f"grpc.sqlite.{n}"
        assert figures[f"{row}.act.per_s"] > 0
        assert figures[f"{row}.act.errors"] == 0
        assert 0 < figures[f"{row}.act.p50_ms"] <= figures[f"{row}.act.p99_ms"]
        for key in ("request_bytes", "reply_bytes", "stream_messages", "stream_message_bytes", "events", "event_bytes"):
            assert figures[f"{row}.act.{key}"] > 0, key
        assert figures[f"{row}.act.events"] >= 1  # each command stores its own event at least
        for key in ("echo.per_s", "stream.per_s", "append.per_s", "append.cpu_ms"):
            assert figures[f"{row}.{key}"] > 0, key
        if sys.platform == "linux":
            assert figures[f"{row}.act.server_cores"] > 0
            parts = (
                figures[f"{row}.echo.server_cpu_ms"]
                + figures[f"{row}.append.cpu_ms"]
                + figures[f"{row}.act.stream_messages"] * figures[f"{row}.stream.server_cpu_ms"]
            )
            assert figures[f"{row}.baseline.cpu_ms"] == pytest.approx(parts)
            assert figures[f"{row}.ratio.cpu_vs_bare"] == pytest.approx(figures[f"{row}.act.server_cpu_ms"] / parts)
        p50, echo = figures[f"{row}.act.p50_ms"], figures[f"{row}.echo.p50_ms"]
        assert figures[f"{row}.ratio.p50_vs_echo"] == pytest.approx(p50 / echo)
    assert figures["fanout.watchers"] == QUICK.watchers
    assert 0 < figures["fanout.p50_ms"] <= figures["fanout.p99_ms"] <= figures["fanout.max_ms"]
    assert figures["fanout.messages_per_watcher"] >= 1 and figures["fanout.bare.per_s"] > 0
    if sys.platform == "linux":
        assert figures["fanout.server_cpu_ms_per_watcher"] > 0 and figures["fanout.ratio.cpu_vs_bare"] > 0
    if not isinstance(figures["paced.per_s"], str):  # PostgreSQL was there
        assert figures["paced.tables"] == QUICK.paced_tables and figures["paced.errors"] == 0
        assert figures["paced.per_s"] > 0 and 0 < figures["paced.p50_ms"] <= figures["paced.p99_ms"]
        # the replica's own p99 is a bucket's bound of its histogram (prometheus_client's defaults)
        assert any(figures["paced.server_p99_ms"] == pytest.approx(b * 1000.0) for b in LATENCY_BUCKETS)
        assert 0 <= figures["paced.send_lag_p99_ms"] <= figures["paced.max_ms"]
        assert figures["saturation.one.per_s"] > 0 and figures["saturation.two.per_s"] > 0
        one, two = figures["saturation.one.per_s"], figures["saturation.two.per_s"]
        assert figures["saturation.ratio.two_vs_one"] == pytest.approx(two / one)
        # the kinds ran in alternating turns, each turn's rates noted beside the pooled figures
        pairs = [n for n in document["notes"] if n.startswith("saturation, moves/s of one / two replicas")]
        assert len(pairs) == 1 and len(pairs[0].split(": ")[1].split(", ")) == QUICK.saturation_turns == 2
        assert [k for k in document["step_seconds"] if k.startswith("saturation: ")] == [
            f"saturation: {n} replica(s), turn {t} of 2" for t in (1, 2) for n in (1, 2)
        ]
        if sys.platform == "linux":  # the CPU a move of every part, and the machine's ceiling from them
            parts = [figures[f"saturation.two.{part}_cpu_ms"] for part in ("replicas", "load", "postgres")]
            assert all(figures[f"saturation.one.{part}_cpu_ms"] > 0 for part in ("replicas", "load", "postgres"))
            assert all(p > 0 for p in parts)
            cores = os.cpu_count() or 1
            assert figures["saturation.ratio.ceiling"] == pytest.approx(cores * 1000.0 / sum(parts) / one)
            free_load = cores * 1000.0 / (parts[0] + parts[2]) / one  # the load generator's CPU left out
            assert figures["saturation.ratio.ceiling_free_load"] == pytest.approx(free_load)
            assert figures["saturation.ratio.ceiling_free_load"] > figures["saturation.ratio.ceiling"]
    assert figures["memory.tables"] == QUICK.memory_tables
    assert figures["memory.traced_bytes_per_table"] > 0


def test_the_report_prints_every_part_and_row(quick_run: tuple[Any, dict[str, Any]]) -> None:
    done, document = quick_run
    text = done.stdout
    for title in ("Pure domain", "open_spiel crazy_eights", "Replay of a stored record", "gRPC: Act at N tables"):
        assert title in text
    for title in ("Bare baselines", "over the bare baseline", "Fan-out", "Paced load", "Saturation"):
        assert title in text
    assert "Memory per open table" in text
    for game in GAMES:
        assert f"│ {game} " in text
    for store in ("sqlite", "postgresql"):
        for n in QUICK.levels:
            rows = [line for line in text.splitlines() if line.startswith(f"│ {store} ") and f"│ {n} │" in line]
            assert len(rows) == 3, (store, n)  # Act's row, the baselines' row and the ratio's row
    if any(isinstance(v, str) for v in document["figures"].values()):
        assert "note: " in text  # what was skipped, and why


def test_every_bound_is_printed_beside_its_figure_and_marked(quick_run: tuple[Any, dict[str, Any]]) -> None:
    done, document = quick_run
    text = done.stdout
    judged = document["bounds"]
    assert list(judged) == [b.key for b in bounds(QUICK.levels)]
    start = text.index("Bounds (issue 15)")
    lines = text[start:].splitlines()
    for bound in bounds(QUICK.levels):
        line = next(line for line in lines if f"│ {bound.what} " in line)
        verdict = judged[bound.key]
        mark = {True: "│ met ", False: "│ NOT MET ", None: "│ not measured "}[verdict["met"]]
        assert mark in line and f" {verdict['bound']} │" in line, line
        if verdict["value"] is not None:
            assert verdict["met"] == bound.met(verdict["value"])
    met = sum(1 for v in judged.values() if v["met"])
    assert f"bounds: {met} of {len(judged)} met" in text


def test_the_run_logs_no_traceback_and_its_servers_refuse_no_call(quick_run: tuple[Any, dict[str, Any]]) -> None:
    """Nothing the run did was logged as an error (an ``Event loop is closed`` from a step's calls
    reaching the next step's loop, a callback that raised), and no call was refused by a limit
    per client (``make bench`` raises the ``Act`` rate of its servers, bench.servers)."""
    done, _ = quick_run
    for stream in (done.stdout, done.stderr):
        assert "Traceback" not in stream, stream[stream.find("Traceback") - 500 :][:3000]
        assert "Exception in callback" not in stream
        assert "RESOURCE_EXHAUSTED" not in stream
