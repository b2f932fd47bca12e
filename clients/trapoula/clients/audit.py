"""Verify a record offline: read its JSON Lines and run the domain's audit (docs/record.md).

>>> report = audit_text(open("trapoula-t1.jsonl").read())   # doctest: +SKIP
>>> report.ok, report.first
(True, None)

Nothing here talks to a server: whoever holds a record can check it.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from trapoula.domain.audit import AuditReport, HandResult, Problem, audit_record

_loads: Callable[[str], Any]
try:  # orjson (the server's extra) parses a record several times faster; without it, json
    from orjson import loads as _loads
except ImportError:  # pragma: no cover - the thin client without the server's extras
    _loads = json.loads

__all__ = [
    "AuditReport",
    "HandResult",
    "Problem",
    "audit_file",
    "audit_text",
    "parse_record",
    "read_record",
]


def parse_record(text: str) -> list[dict[str, Any]]:
    """The record's lines as mappings (blank lines skipped).

    A line that is not a JSON object becomes ``{"invalid_line": <text>}``, which the audit
    reports as a malformed line (REC1 for the header, REC2 for an event) instead of stopping.
    """
    out: list[dict[str, Any]] = []
    for raw in text.splitlines():  # line by line: a line is one value or an invalid line, never more
        if not raw.strip():
            continue
        try:
            value = _loads(raw)
        except ValueError:  # orjson's refusals (NaN, a 65-bit integer ...): json reads what it can
            try:
                value = json.loads(raw)
            except json.JSONDecodeError:
                value = None
        out.append(value if type(value) is dict else {"invalid_line": raw})
    return out


def read_record(path: str | Path) -> list[dict[str, Any]]:
    """The lines of the record file at ``path`` (UTF-8).

    Raises:
        OSError: the file cannot be read.
    """
    return parse_record(Path(path).read_text(encoding="utf-8"))


def audit_text(text: str) -> AuditReport:
    """Audit a record given as JSON Lines text."""
    return audit_record(parse_record(text))


def audit_file(path: str | Path) -> AuditReport:
    """Audit the record file at ``path``.

    Raises:
        OSError: the file cannot be read.
    """
    return audit_record(read_record(path))
