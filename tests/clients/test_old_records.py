"""Records written before records were signed (format version 1; one finished match of each game,
exported by the server as it was then, in records_v1/) still verify, replay to their end, and
say they are unsigned (docs/record.md 2.1, 3.1); a reader who asks for a trusted key is told
they carry no signature (REC8)."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from trapoula.clients.audit import audit_file
from trapoula.clients.cli import main
from trapoula.clients.replay import Replay

HERE = Path(__file__).resolve().parent / "records_v1"
GAMES = ("agonia", "crazy_eights", "giminaiciai", "mau_mau", "romis", "vida")
KEY = "ab" * 32


@pytest.mark.parametrize("game", GAMES)
def test_an_unsigned_record_of_each_game_verifies_and_says_so(game: str) -> None:
    path = HERE / f"{game}.jsonl"
    header, *lines = (json.loads(line) for line in path.read_text(encoding="utf-8").splitlines())
    assert (header["version"], header["game"]) == (1, game) and "signature" not in header
    report = audit_file(path)
    assert report.ok, report.summary()
    assert (report.signer, report.signed, report.complete) == (None, False, None)
    assert report.match_over and report.hands == report.hands_verified == header["hands"] >= 1
    out = io.StringIO()
    assert main(["verify", str(path)], out=out) == 0
    assert "unsigned: a record of format version 1" in out.getvalue() and "record verified" in out.getvalue()
    replay = Replay.from_file(path)
    game_events = [line for line in lines if line["name"] not in ("TableCreated", "SeatTaken", "JoinQueued")]
    assert replay.stopped is None and replay.length == len(game_events)  # every position, to the match's end


@pytest.mark.parametrize("game", ("agonia", "vida"))
def test_a_trusted_key_asks_for_a_signature_they_do_not_carry(game: str) -> None:
    out = io.StringIO()
    assert main(["verify", str(HERE / f"{game}.jsonl"), "--key", KEY], out=out) == 1
    assert "rule REC8: the record is not signed by a trusted key: it carries no signature" in out.getvalue()


def test_the_report_per_hand_and_as_json() -> None:
    # One line per hand: shuffled from its revealed seed, its commitment (S5.1), how it ended;
    # --json gives the same to programs.
    path = HERE / "agonia.jsonl"
    lines = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]
    started = next(line["payload"] for line in lines[1:] if line["name"] == "HandStarted")
    out = io.StringIO()
    assert main(["verify", str(path)], out=out) == 0
    hand = next(line for line in out.getvalue().splitlines() if line.startswith("hand 1: "))
    assert hand.startswith(f"hand 1: shuffled from seed {started['seed']}; commitment {started['commitment']}; ")
    assert hand.endswith("; verified")
    out = io.StringIO()
    assert main(["verify", str(path), "--json"], out=out) == 0
    data = json.loads(out.getvalue())
    assert data["ok"] is True and data["signer"] is None and data["hands"] == 1
    assert [(r["hand_no"], r["explicit"], r["seed"], r["commitment"]) for r in data["results"]] == [
        (1, False, started["seed"], started["commitment"])
    ]
