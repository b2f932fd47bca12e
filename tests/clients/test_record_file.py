"""What ``trapoula verify`` accepts and refuses in a record file (docs/record.md 2.7): line ends,
blank lines, keys the format does not name, upper-case hex, numbers written otherwise, a header
downgraded to version 1.  Each case edits one line of a signed record and checks the rules the
audit reports, as the table of 2.7 says.  No server is needed here."""

from __future__ import annotations

import io
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from record_helpers import record_text

from trapoula.clients.audit import audit_text, parse_record
from trapoula.clients.cli import main
from trapoula.domain.audit import audit_record
from trapoula.domain.signing import key_from_secret, public_key_hex, sign_header

KEY = key_from_secret(bytes(range(32)))


def signed_text() -> str:
    """A signed record of a finished agonia match (format version 2), compact, one line an event."""
    lines = [json.loads(line) for line in record_text().splitlines()]
    lines[0] = sign_header(lines[0], lines[-1]["hash"], True, KEY)
    return "".join(json.dumps(line, separators=(",", ":"), ensure_ascii=False) + "\n" for line in lines)


TEXT = signed_text()


def edited(index: int, change: Callable[[dict[str, Any]], Any]) -> str:
    """The record with line ``index`` (0: the header) parsed, changed and written again."""
    lines = TEXT.splitlines()
    value = json.loads(lines[index])
    change(value)
    lines[index] = json.dumps(value, separators=(",", ":"))
    return "\n".join(lines) + "\n"


def rules(text: str, trusted: list[str] | None = None) -> list[str]:
    """The rules of the problems the audit finds in ``text``, in the report's order."""
    return [p.rule for p in audit_record(parse_record(text), trusted=trusted).problems]


CASES: dict[str, tuple[Callable[[], str], list[str]]] = {
    "crlf line ends": (lambda: TEXT.replace("\n", "\r\n"), []),
    "cr line ends": (lambda: TEXT.replace("\n", "\r"), []),
    "no newline at the end": (lambda: TEXT.rstrip("\n"), []),
    "blank lines": (lambda: TEXT.replace("\n", "\n\n  \n", 3) + "\n\n", []),
    "spaces and another key order": (
        lambda: "\n".join(json.dumps(dict(reversed(json.loads(x).items())), indent=None) for x in TEXT.splitlines()),
        [],
    ),
    "non-ASCII escaped": (
        lambda: "\n".join(json.dumps(json.loads(x), ensure_ascii=True) for x in TEXT.splitlines()),
        [],
    ),
    "a key twice, the last one right": (lambda: TEXT.replace('{"seq":3,', '{"seq":99,"seq":3,', 1), []),
    "an extra key on an event line": (lambda: edited(5, lambda v: v.update(note="x")), []),
    "an extra key in the header": (lambda: edited(0, lambda v: v.update(note="x")), []),
    "an extra key in signer": (lambda: edited(0, lambda v: v["signer"].update(note="x")), []),
    "an extra field in a table event's payload": (lambda: edited(1, lambda v: v["payload"].update(note="x")), ["REC5"]),
    "upper-case hash": (lambda: edited(5, lambda v: v.update(hash=v["hash"].upper())), ["REC5", "REC4"]),
    "upper-case public key": (
        lambda: edited(0, lambda v: v["signer"].update(public_key=v["signer"]["public_key"].upper())),
        ["REC8"],
    ),
    "upper-case signature": (lambda: edited(0, lambda v: v.update(signature=v["signature"].upper())), ["REC8"]),
    "MatchStarted's seq written 5.0": (  # skipped: one line fewer, the chain broken, no MatchStarted
        lambda: edited(5, lambda v: v.update(seq=5.0)),
        ["REC1", "REC2", "REC3", "REC4", "REC7"],
    ),
    "version 2.0": (lambda: edited(0, lambda v: v.update(version=2.0)), ["REC1"]),
    "events written as a float": (lambda: edited(0, lambda v: v.update(events=float(v["events"]))), []),
    "a line that is no JSON": (
        lambda: "\n".join([*TEXT.splitlines()[:4], "{not json", *TEXT.splitlines()[4:]]),
        ["REC8", "REC2"],
    ),
    "downgraded to version 1": (lambda: edited(0, lambda v: v.update(version=1)), []),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_what_verify_accepts_and_refuses(case: str) -> None:
    make, expected = CASES[case]
    assert rules(make()) == expected


def test_a_downgraded_header_is_unsigned_and_fails_only_a_trusted_key() -> None:
    # 2.1, 3.1: version 1 ignores signer, complete and signature; --key asks for a signature.
    text = edited(0, lambda v: v.update(version=1))
    report = audit_text(text)
    assert (report.ok, report.signer, report.signed, report.complete) == (True, None, False, None)
    assert rules(text, trusted=[public_key_hex(KEY)]) == ["REC8"]
    assert rules(TEXT, trusted=[public_key_hex(KEY)]) == []


def test_a_failed_signature_makes_no_claim_of_completeness() -> None:
    # 3.1: complete is read only when the signature holds.
    report = audit_text(edited(0, lambda v: v.update(complete=False)))
    assert (report.signer, report.signed, report.complete) == (public_key_hex(KEY), False, None)
    assert [p.rule for p in report.problems] == ["REC8"]


def test_a_byte_order_mark_is_no_record(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # 2.7: the first line is then no record header: exit status 2, nothing checked.
    path = tmp_path / "bom.jsonl"
    path.write_text("\ufeff" + TEXT, encoding="utf-8")
    assert main(["verify", str(path)], out=io.StringIO()) == 2
    assert "is not a trapoula record" in capsys.readouterr().err
