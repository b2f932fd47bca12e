"""The programs of ``examples/`` run as a user runs them, against a real server process (the
README's client snippet is checked against the bot in ``tests/docs``)."""

from __future__ import annotations

import json
import os
import queue
import re
import subprocess
import sys
import threading
import uuid
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from processes import ServerProcess

from trapoula.clients import TableClient, audit_file

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples"
RUN_SECONDS = 120.0
"""The longest an example may take here (a match of one hand takes about a second)."""
pytestmark = pytest.mark.process

UUID = r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}"


def _env() -> dict[str, str]:
    return {k: v for k, v in os.environ.items() if not k.startswith("TRAPOULA_")}


def _run(script: str, *args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, str(EXAMPLES / script), *args],
        cwd=cwd,
        env=_env(),
        capture_output=True,
        text=True,
        timeout=RUN_SECONDS,
    )


def _events(record: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in record.read_text(encoding="utf-8").splitlines()[1:]]


def test_bot_plays_a_match_and_saves_its_record_where_it_says(server: ServerProcess, tmp_path: Path) -> None:
    done = _run("bot.py", "--address", server.address, "--name", "randy", "--seed", "7", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    first = re.fullmatch(rf"table ({UUID}) at (\S+)", lines[0])
    assert first is not None, lines[0]
    assert first.group(2) == server.address
    table_id = first.group(1)
    assert lines[-1] == (
        f"record saved to trapoula-{table_id}.jsonl; check it with: trapoula verify trapoula-{table_id}.jsonl"
    )
    assert lines[-2].startswith("match over: MatchEnded ")
    record = tmp_path / f"trapoula-{table_id}.jsonl"
    report = audit_file(record)
    assert report.ok, report.problems
    events = _events(record)
    seats = [e["payload"] for e in events if e["name"] == "SeatTaken"]
    assert [(s["seat"], s["name"], s["bot"]) for s in seats] == [
        (0, "randy", None),
        (1, "heuristic bot 1", "heuristic"),
    ]
    assert events[-1]["name"] == "MatchEnded"
    assert json.loads(lines[-2].removeprefix("match over: MatchEnded ")) == events[-1]["payload"]
    played_by_randy = [e for e in events if e["name"] == "CardPlayed" and e["payload"]["seat"] == 0]
    assert played_by_randy, "the bot never played a card"


def test_bot_takes_the_game_seats_options_and_record_path(server: ServerProcess, tmp_path: Path) -> None:
    out = tmp_path / "eights.jsonl"
    args = ("--game", "crazy_eights", "--seats", "3", "--bots", "random", "--option", "scoring=single")
    done = _run("bot.py", "--address", server.address, *args, "--record", str(out), cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[-1] == f"record saved to {out}; check it with: trapoula verify {out}"
    assert audit_file(out).ok
    events = _events(out)
    created = events[0]["payload"]
    assert (created["game"], created["seats"], created["options"]) == ("crazy_eights", 3, {"scoring": "single"})
    assert [e["payload"]["bot"] for e in events if e["name"] == "SeatTaken"] == [None, "random", "random"]


def test_bot_exits_1_with_the_servers_refusal(server: ServerProcess, tmp_path: Path) -> None:
    done = _run("bot.py", "--address", server.address, "--game", "no_such_game", cwd=tmp_path)
    assert done.returncode == 1
    assert done.stderr.startswith("bot: ") and "no_such_game" in done.stderr, done.stderr
    assert done.stdout == ""
    assert list(tmp_path.iterdir()) == []


class _Lines:
    """The standard output of a running process, line by line, with a timeout."""

    def __init__(self, process: subprocess.Popen[str]) -> None:
        self.queue: queue.SimpleQueue[str | None] = queue.SimpleQueue()
        stdout = process.stdout
        assert stdout is not None

        def read() -> None:
            for line in stdout:
                self.queue.put(line.rstrip("\n"))
            self.queue.put(None)

        threading.Thread(target=read, daemon=True).start()

    def next(self, timeout: float = RUN_SECONDS) -> str | None:
        return self.queue.get(timeout=timeout)

    def until(self, predicate: Callable[[str], bool]) -> list[str]:
        seen: list[str] = []
        while (line := self.next()) is not None:
            seen.append(line)
            if predicate(line):
                return seen
        raise AssertionError(f"the output ended before the awaited line: {seen}")


def test_spectator_prints_the_moves_as_they_happen(server: ServerProcess, tmp_path: Path) -> None:
    with TableClient(server.address) as owner:
        table_id = owner.create_table("agonia", seats=2, options={"target_points": 0}).table_id
        owner.add_bot(table_id, "heuristic", name="Anna")
        owner.add_bot(table_id, "random", name="Babis")
        argv = [sys.executable, str(EXAMPLES / "spectator.py"), "--address", server.address, "--table", table_id]
        process = subprocess.Popen(
            argv, cwd=tmp_path, env=_env(), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
        )
        try:
            lines = _Lines(process)
            assert lines.next() == f"watching table {table_id} at {server.address}"
            before = lines.until(lambda line: "Babis (a bot) sits at seat 1" in line)  # the table before its match
            assert not any("plays" in line for line in before)
            owner.start_match(table_id)
            after = lines.until(lambda line: line == "match over")
            assert lines.next() is None
            assert process.wait(timeout=RUN_SECONDS) == 0
        finally:
            process.kill()
            process.wait()
        record = [json.loads(line) for line in owner.record(table_id).splitlines()[1:]]
    printed = [line for line in before + after if line != "match over"]
    versions = [int(line.split()[0]) for line in printed]
    assert versions == list(range(1, len(printed) + 1))  # every event once, in order
    assert printed[0] == "    1 table for agonia created with 2 seats"
    assert "Anna (a bot) sits at seat 0" in printed[2]
    plays = [line for line in printed if re.fullmatch(r"\s*\d+ (Anna|Babis) plays .+", line)]
    assert len(plays) == sum(1 for e in record if e["name"] == "CardPlayed")
    winner = next(e["payload"]["winner"] for e in record if e["name"] == "MatchEnded")
    assert printed[-1].endswith(f"Match over: {['Anna', 'Babis'][winner]} wins")


def test_spectator_exits_1_for_an_unknown_table(server: ServerProcess, tmp_path: Path) -> None:
    done = _run("spectator.py", "--address", server.address, "--table", str(uuid.uuid4()), cwd=tmp_path)
    assert done.returncode == 1
    assert done.stderr.startswith("spectator: ") and "not_found" in done.stderr, done.stderr
