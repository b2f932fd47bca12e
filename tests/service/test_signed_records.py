"""Signed records (docs/record.md 2.1, REC8): a record's header carries the server's Ed25519
signature of what the record states, so that an edit made with the hash chain recomputed, a cut
and a header changed after the fact are all found; an unsigned record (format version 1, written
before records were signed) still verifies and says it is unsigned."""

from __future__ import annotations

import io
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from grpc_helpers import Lines, bot_record, rechained

from trapoula.clients.cli import main
from trapoula.domain.audit import audit_record
from trapoula.domain.errors import InvalidInput
from trapoula.domain.signing import cut_record, key_from_secret, key_id, public_key_hex, sign_header
from trapoula.service.application import Tables

SECRET = bytes.fromhex("5e" * 32)
"""The tests' server secret (tests/service/conftest.py)."""
KEY = public_key_hex(key_from_secret(SECRET))


@pytest.fixture
def record(tables: Tables) -> Lines:
    """A finished agonia match of two heuristic bots to 0 points (one hand, R7.1), its record parsed."""
    return bot_record(tables)


def edited(lines: Lines, name: str, change: Callable[[dict[str, Any]], None]) -> Lines:
    """The record with ``change`` made to the payload of the first event ``name``, chain recomputed."""
    copy = [
        dict(line, payload=json.loads(json.dumps(line["payload"]))) if "payload" in line else dict(line)
        for line in lines
    ]
    line = next(line for line in copy[1:] if line["name"] == name)
    change(line["payload"])
    return rechained(copy)


def signature_problems(lines: Lines, trusted: list[str] | None = None) -> list[str]:
    return [p.message for p in audit_record(lines, trusted).problems if p.rule == "REC8"]


def test_a_servers_record_is_signed_whole_and_verifies(record: Lines) -> None:
    report = audit_record(record, trusted=[KEY])
    assert report.ok, report.summary()
    assert (report.signer, report.signed, report.complete, report.match_over) == (KEY, True, True, True)
    assert f"signed by key {key_id(KEY)} (ed25519 {KEY}): the whole match" in report.summary()


def test_recomputing_the_chain_does_not_hide_an_edit(record: Lines) -> None:
    # Each of these verified before records were signed, once the chain was recomputed (issue of
    # the audit): now the signature of the header's statement no longer matches.
    edits: list[tuple[str, Callable[[dict[str, Any]], None]]] = [
        ("TableCreated", lambda p: p["options"].update(target_points=1000)),
        ("TableCreated", lambda p: p.update(first_dealer=0)),
        ("SeatTaken", lambda p: p.update(bot=None)),
        ("SeatTaken", lambda p: p.update(name="mallory")),
        ("MatchStarted", lambda p: p.update(names=["mallory", "bob"])),
    ]
    for name, change in edits:
        found = signature_problems(edited(record, name, change))
        assert found and "does not match this record" in found[0], name


def test_a_dropped_line_and_a_cut_record_are_found(record: Lines) -> None:
    seat_taken = next(i for i, line in enumerate(record) if line.get("name") == "SeatTaken")
    dropped = rechained([*record[:seat_taken], *record[seat_taken + 1 :]])
    for i, line in enumerate(dropped[1:], start=1):
        line["seq"] = i
    assert signature_problems(rechained(dropped))
    cut = [dict(record[0]), *record[1:-3]]  # the last hand's end and the match's end cut off
    assert signature_problems(cut)
    cut[0]["events"] = len(cut) - 1  # the count made to agree: the signature still does not
    assert any("does not match" in m for m in signature_problems(cut))


def test_a_changed_header_is_found(record: Lines) -> None:
    # The statement signed is read off the record itself: its table, game and whether it is whole.
    for field, value in (("table_id", "another-table"), ("complete", False), ("game", "mau_mau")):
        header = {**record[0], field: value}
        assert any("does not match" in m for m in signature_problems([header, *record[1:]])), field
    # A count the header gives is checked against the lines (REC1), the lines by the signature.
    header = {**record[0], "hands": 2}
    assert [p.rule for p in audit_record([header, *record[1:]]).problems] == ["REC1"]


def test_a_stripped_signature_is_reported_unsigned(record: Lines) -> None:
    header = {k: v for k, v in record[0].items() if k not in ("signer", "complete", "signature")}
    header["version"] = 1
    report = audit_record([header, *record[1:]])
    assert report.ok and report.signer is None and not report.signed
    assert "unsigned: a record of format version 1" in report.summary()
    assert signature_problems([header, *record[1:]], trusted=[KEY]) == [
        "the record is not signed by a trusted key: it carries no signature"
    ]


def test_another_servers_key_is_not_trusted(record: Lines) -> None:
    other = public_key_hex(key_from_secret(b"another server"))
    assert signature_problems(record, trusted=[other]) == [f"signed by key {key_id(KEY)}, which is not a trusted key"]
    summary = audit_record(record, trusted=[other]).summary()
    assert f"signed by key {key_id(KEY)} (ed25519 {KEY}): NOT accepted (REC8 below)" in summary


def test_a_signer_that_is_no_key_is_refused(record: Lines) -> None:
    header = {**record[0], "signer": {"scheme": "rsa", "public_key": KEY}}
    assert signature_problems([header, *record[1:]])[0].startswith("signer ")


def test_a_validly_signed_claim_is_checked_against_the_events(record: Lines) -> None:
    # The whole match signed (with the tests' key) as if it were not over: the signature holds,
    # the claim does not (REC8, at the last line, the match's end).
    unsigned = {k: v for k, v in record[0].items() if k not in ("signer", "complete", "signature")}
    header = sign_header(unsigned, record[-1]["hash"], False, key_from_secret(SECRET))
    report = audit_record([header, *record[1:]])
    assert report.signed and report.complete is False and report.match_over
    assert [(p.seq, p.name, p.rule) for p in report.problems] == [(record[-1]["seq"], "MatchEnded", "REC8")]
    assert report.problems[0].message == (
        "the signed header says the record stops before the match's end; its events say otherwise"
    )


# --------------------------------------------------------------------------- signed heads (docs/record.md 2.5)


@pytest.fixture
def long_record(tables: Tables) -> Lines:
    """A finished agonia match of three heuristic bots to 150 points (several hands, R7.1), parsed."""
    lines = bot_record(tables, seats=3, target=150)
    assert lines[0]["hands"] >= 2, "the match took one hand: no earlier head to cut at"
    return lines


def test_the_header_signs_the_head_of_every_hands_end(long_record: Lines) -> None:
    """One signed head per finished hand: at the line that ends it (the server's seed revealed
    after the game's own reveal, docs/shuffle.md 2a), the last one the whole match."""
    header, body = long_record[0], long_record[1:]
    heads = header["heads"]
    assert [h["hands"] for h in heads] == list(range(1, header["hands"] + 1))
    for h in heads:
        assert body[h["events"] - 1]["hash"] == h["head"]
        assert body[h["events"] - 1]["name"] in ("ServerSeedRevealed", "MatchEnded")
    assert heads[-1]["events"] == header["events"] and heads[-1]["signature"] == header["signature"]
    assert [h["complete"] for h in heads] == [False] * (len(heads) - 1) + [True]
    report = audit_record(long_record, trusted=[KEY])
    assert report.ok and report.signed_heads == tuple(range(1, header["hands"] + 1)), report.summary()


def test_a_record_cut_at_a_signed_head_verifies_and_anywhere_else_is_incomplete(long_record: Lines) -> None:
    """Cut at hand k's signed head (``cut_record``), the prefix verifies as signed and not
    complete; cut at any other line, with the header's counts made to agree and the nearest
    head's signature, it is reported incomplete (REC8) and not verified."""
    heads = {h["events"]: h for h in long_record[0]["heads"]}
    for h in long_record[0]["heads"][:-1]:
        cut = cut_record(long_record, h["hands"])
        report = audit_record(cut, trusted=[KEY])
        assert report.ok, report.summary()
        assert (report.hands, report.complete, report.match_over) == (h["hands"], False, False)
    ends = sorted(heads)
    for events in range(1, len(long_record) - 1, 5):
        if events in heads:
            continue
        near = heads[max((e for e in ends if e < events), default=ends[0])]
        header = {**long_record[0], "events": events, "complete": False, "signature": near["signature"]}
        header["hands"] = sum(1 for e in ends if e <= events)
        header["heads"] = [h for h in long_record[0]["heads"] if h["events"] <= events]
        report = audit_record([header, *long_record[1 : events + 1]])
        assert not report.ok and any(
            "incomplete" in m for m in signature_problems([header, *long_record[1 : events + 1]])
        )


def test_a_forged_head_is_found_and_a_missing_one_cannot_be_cut_at(long_record: Lines) -> None:
    forged = json.loads(json.dumps(long_record))
    forged[0]["heads"][0]["hands"] = 2  # claims more hands than the record holds there
    assert any(m.startswith("heads[0] (hand 2) does not state") for m in signature_problems(forged))
    resigned = json.loads(json.dumps(long_record))
    resigned[0]["heads"][0]["signature"] = resigned[0]["heads"][1]["signature"]
    assert any(m.startswith("heads[0]: the signature of key") for m in signature_problems(resigned))
    with pytest.raises(InvalidInput) as missing:
        cut_record(long_record, long_record[0]["hands"] + 1)
    assert missing.value.reason == "no_signed_head"


def test_trapoula_cut_writes_a_signed_prefix_that_verify_accepts(long_record: Lines, tmp_path: Path) -> None:
    path, out = tmp_path / "whole.jsonl", tmp_path / "hand1.jsonl"
    path.write_text("".join(json.dumps(line) + "\n" for line in long_record), encoding="utf-8")
    shown = io.StringIO()
    assert main(["cut", str(path), "--hands", "1", "--out", str(out)], out=shown) == 0
    assert f"wrote {out}: hands 1-1" in shown.getvalue()
    verified = io.StringIO()
    assert main(["verify", str(out), "--key", KEY], out=verified) == 0, verified.getvalue()
    assert "the match up to a hand's end (not over)" in verified.getvalue()
    assert main(["cut", str(path), "--hands", "99", "--out", str(out)], out=io.StringIO()) == 1
