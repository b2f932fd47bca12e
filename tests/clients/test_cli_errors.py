"""The ``trapoula`` command on bad input: one line on standard error, a documented exit status
(0 done, 1 failed, 2 unusable input), never a traceback.  No server is needed here."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest
from record_helpers import Tampered

from trapoula.clients import cli
from trapoula.clients.cli import main, seed_arg
from trapoula.clients.replay import Replay
from trapoula.domain.errors import InvalidInput


def _write(tmp_path: Path, name: str, data: str | bytes) -> str:
    path = tmp_path / name
    if isinstance(data, bytes):
        path.write_bytes(data)
    else:
        path.write_text(data, encoding="utf-8")
    return str(path)


def _one_error_line(err: str, command: str) -> str:
    """The single line a command printed on standard error."""
    lines = err.splitlines()
    assert len(lines) == 1, err
    assert lines[0].startswith(f"trapoula {command}: ")
    assert "Traceback" not in err
    return lines[0]


# --------------------------------------------------------------------------- verify


def test_verify_exits_0_on_a_clean_record(clean_record: str, tmp_path: Path) -> None:
    out = io.StringIO()
    assert main(["verify", _write(tmp_path, "r.jsonl", clean_record)], out=out) == 0
    assert out.getvalue().rstrip().endswith("record verified")


def test_verify_reports_a_changed_card_in_rules_terms_s11_then_rec5(
    tampered: Tampered, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """One byte of a card code changed: exit 1; the first discrepancy is the refusal of a card
    the seat does not hold (S11), then the broken hash (REC5); no exception text anywhere."""
    out = io.StringIO()
    assert main(["verify", _write(tmp_path, "t.jsonl", tampered.text)], out=out) == 1
    text = out.getvalue()
    refusal = (
        f"the rules refuse play card {tampered.card} by seat {tampered.seat}: "
        f"card {tampered.card!r} is not in the hand of seat {tampered.seat} ("
    )
    assert f"record NOT verified: first discrepancy at seq {tampered.seq} (CardPlayed), rule S11: {refusal}" in text
    listed = [line.strip() for line in text.splitlines() if line.startswith("  seq ")]
    assert len(listed) == 2
    assert listed[0].startswith(f"seq {tampered.seq} CardPlayed: {refusal}") and listed[0].endswith("(rule S11)")
    assert listed[1].startswith(f"seq {tampered.seq} CardPlayed: hash ") and listed[1].endswith("(rule REC5)")
    assert not any(word in text for word in ("Error", "tuple", "Traceback"))
    assert capsys.readouterr().err == ""


def test_verify_a_file_that_is_not_utf8_exits_2_with_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = io.StringIO()
    path = _write(tmp_path, "bin.jsonl", b'{"format": "trapoula-record"}\n\xff\xfe\n')
    assert main(["verify", path], out=out) == 2
    line = _one_error_line(capsys.readouterr().err, "verify")
    assert line == (
        f"trapoula verify: cannot read {path}: not UTF-8 text (byte 0xff at offset 30); a record is UTF-8 JSON Lines"
    )
    assert out.getvalue() == ""


def test_verify_a_missing_file_or_a_folder_exits_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    missing = str(tmp_path / "nope.jsonl")
    assert main(["verify", missing], out=io.StringIO()) == 2
    assert _one_error_line(capsys.readouterr().err, "verify") == (
        f"trapoula verify: cannot read {missing}: No such file or directory"
    )
    assert main(["verify", str(tmp_path)], out=io.StringIO()) == 2
    assert _one_error_line(capsys.readouterr().err, "verify").startswith(f"trapoula verify: cannot read {tmp_path}: ")


@pytest.mark.parametrize(
    "content",
    ["", "hello\n", '{"seq": 1, "name": "TableCreated"}\n', '{"format": "something-else", "version": 1}\n'],
)
def test_verify_a_file_that_is_not_a_record_exits_2(
    content: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _write(tmp_path, "x.jsonl", content)
    assert main(["verify", path], out=io.StringIO()) == 2
    assert _one_error_line(capsys.readouterr().err, "verify") == (
        f"trapoula verify: {path} is not a trapoula record: its first line is not a 'trapoula-record' header"
    )


def test_verify_interrupted_exits_130(
    clean_record: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    def interrupted(*args: object, **kwargs: object) -> object:
        raise KeyboardInterrupt

    monkeypatch.setattr(cli, "audit_record", interrupted)
    assert main(["verify", _write(tmp_path, "r.jsonl", clean_record)], out=io.StringIO()) == 130
    assert _one_error_line(capsys.readouterr().err, "verify") == "trapoula verify: interrupted"


# --------------------------------------------------------------------------- replay


def test_replay_of_a_tampered_record_says_where_it_stops_and_why_s11(
    tampered: Tampered, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Exit 1; one line naming the seq, the event and the refused card (S11); the positions
    before the event are still shown."""
    out = io.StringIO()
    assert main(["replay", _write(tmp_path, "t.jsonl", tampered.text)], out=out, inp=io.StringIO()) == 1
    line = _one_error_line(capsys.readouterr().err, "replay")
    assert line.startswith(
        f"trapoula replay: the record cannot be replayed past seq {tampered.seq} (CardPlayed): "
        f"the rules refuse play card {tampered.card} by seat {tampered.seat}: "
        f"card {tampered.card!r} is not in the hand of seat {tampered.seat} ("
    )
    reached = tampered.position - 1
    assert line.endswith(f"(card_not_in_hand) (rule S11); positions 0..{reached} can be shown")
    steps = [s for s in out.getvalue().splitlines() if s.startswith("[")]
    assert len(steps) == reached + 1
    assert steps[-1].startswith(f"[{reached}/{reached}] seq {tampered.seq - 1}: ")


def test_replay_class_raises_or_stops_with_the_seq_and_the_reason(tampered: Tampered) -> None:
    with pytest.raises(InvalidInput) as raised:
        Replay.from_text(tampered.text)
    assert raised.value.reason == "bad_record"
    assert raised.value.message.startswith(f"the record cannot be replayed past seq {tampered.seq} (CardPlayed): ")
    partial = Replay.from_text(tampered.text, partial=True)
    assert partial.stopped is not None
    assert (partial.stopped.seq, partial.stopped.name, partial.stopped.position) == (
        tampered.seq,
        "CardPlayed",
        tampered.position - 1,
    )
    assert partial.stopped.reason.endswith("(card_not_in_hand) (rule S11)")
    assert partial.length == tampered.position - 1


def test_replay_of_a_clean_record_exits_0(clean_record: str, tmp_path: Path) -> None:
    out = io.StringIO()
    assert main(["replay", _write(tmp_path, "r.jsonl", clean_record)], out=out, inp=io.StringIO()) == 0
    assert Replay.from_text(clean_record).stopped is None


def test_replay_of_unusable_files_and_bad_arguments_exits_2(
    clean_record: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    binary = _write(tmp_path, "bin.jsonl", b"\x80abc\n")
    record = _write(tmp_path, "r.jsonl", clean_record)
    broken = clean_record.splitlines()
    match_started = next(i for i, raw in enumerate(broken) if json.loads(raw).get("name") == "MatchStarted")
    entry = json.loads(broken[match_started])
    del entry["payload"]["names"]
    broken[match_started] = json.dumps(entry)
    garbled = _write(tmp_path, "garbled.jsonl", "\n".join(broken) + "\n")
    expected = {
        (binary,): f"trapoula replay: cannot read {binary}: not UTF-8 text (byte 0x80 at offset 0); "
        "a record is UTF-8 JSON Lines",
        (record, "--seat", "9"): "trapoula replay: --seat 9: the table has seats 0..2",
        (record, "--seat", "north"): "trapoula replay: --seat 'north': expected a seat number, 'spectator' or 'all'",
        (record, "--at", "100000"): f"trapoula replay: --at 100000: the record has positions "
        f"0..{Replay.from_text(clean_record).length}",
        (garbled,): f"trapoula replay: {garbled}: the record does not describe a valid match: its MatchStarted "
        "(or TableCreated and SeatTaken) lacks or garbles names, bots, options, first_dealer or initial_totals",
    }
    for arguments, line in expected.items():
        assert main(["replay", *arguments], out=io.StringIO(), inp=io.StringIO()) == 2, arguments
        assert _one_error_line(capsys.readouterr().err, "replay") == line


# --------------------------------------------------------------------------- play


@pytest.mark.parametrize(
    ("seed", "why"),
    [("00", "2 characters"), ("ab" * 31 + "zz", "not hex: 'z'"), ("ab" * 33, "66 characters")],
)
def test_play_refuses_a_seed_that_is_not_64_hex_digits(seed: str, why: str, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exited:
        main(["play", "--seed", seed], out=io.StringIO(), inp=io.StringIO())
    assert exited.value.code == 2
    err = capsys.readouterr().err
    assert f"argument --seed: {seed!r} is not a seed: expected 64 hex digits ({why})" in err
    assert "Traceback" not in err


def test_a_seed_in_capitals_is_the_same_seed() -> None:
    assert seed_arg("AB" * 32) == seed_arg(" " + "ab" * 32 + "\n") == "ab" * 32


def test_play_with_a_seed_at_a_server_exits_2_before_connecting(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["play", "--seed", "ab" * 32, "--address", "127.0.0.1:1"], out=io.StringIO(), inp=io.StringIO())
    assert code == 2
    assert _one_error_line(capsys.readouterr().err, "play") == (
        "trapoula play: --seed replays local games only; a server deals from its own seeds (drop --address)"
    )


# --------------------------------------------------------------------------- serve and demo


def test_serve_takes_exactly_the_flags_of_python_m_trapoula_service(capsys: pytest.CaptureFixture[str]) -> None:
    """``trapoula serve --help`` is the service's own help: one parser, so the two never diverge
    (``--database-schema`` included)."""
    service_main = pytest.importorskip("trapoula.service.__main__")
    with pytest.raises(SystemExit) as exited:
        service_main.main(["--help"])
    assert exited.value.code == 0
    service_help = capsys.readouterr().out
    with pytest.raises(SystemExit) as exited:
        main(["serve", "--help"])
    assert exited.value.code == 0
    assert capsys.readouterr().out == service_help
    assert "--database-schema" in service_help and "--database-url" in service_help


def test_serve_passes_the_arguments_and_the_exit_status_through(monkeypatch: pytest.MonkeyPatch) -> None:
    service_main = pytest.importorskip("trapoula.service.__main__")
    seen: list[list[str]] = []

    def fake_main(argv: list[str]) -> int:
        seen.append(argv)
        return 3

    monkeypatch.setattr(service_main, "main", fake_main)
    arguments = ["--address", "127.0.0.1:0", "--database-schema", "s1", "--database-url", "sqlite:///x.sqlite3"]
    assert main(["serve", *arguments]) == 3
    assert seen == [arguments]


def test_serve_with_a_bad_database_url_is_one_line_and_a_failure(capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("trapoula.service.__main__")
    code = main(["serve", "--address", "127.0.0.1:0", "--database-url", "nosuchdialect://x"])
    assert code != 0
    err = capsys.readouterr().err
    assert "Traceback" not in err
    assert "nosuchdialect" in err.strip().splitlines()[-1]


def test_demo_with_a_record_path_in_a_missing_folder_exits_2_before_playing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    missing = tmp_path / "no" / "such"
    out = io.StringIO()
    assert main(["demo", "--record", str(missing / "m.jsonl"), "--address", "127.0.0.1:1"], out=out) == 2
    assert _one_error_line(capsys.readouterr().err, "demo") == (
        f"trapoula demo: no such folder for the record: {str(missing)!r}"
    )
    assert out.getvalue() == ""


def test_replay_of_a_record_with_a_changed_seed_plays_but_warns_that_it_does_not_verify_s5_1(
    clean_record: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A changed revealed seed breaks no rule of play, so the replay reaches its end (exit 0), but
    it says at once that the record does not verify, naming the commitment rule S5.1."""
    lines = [json.loads(line) for line in clean_record.splitlines()]
    revealed = next(line for line in lines if line.get("name") == "SeedRevealed")
    revealed["payload"]["seed"] = "f" * 64
    text = "".join(json.dumps(line) + "\n" for line in lines)
    out = io.StringIO()
    assert main(["replay", _write(tmp_path, "seed.jsonl", text)], out=out, inp=io.StringIO()) == 0
    line = _one_error_line(capsys.readouterr().err, "replay")
    assert line.startswith("trapoula replay: warning: this record does not verify (")
    assert f"the first at seq {revealed['seq']} (SeedRevealed), rule S5.1" in line
