"""Verify a record offline: read its JSON Lines and run the domain's audit (docs/record.md).

>>> report = audit_text(open("trapoula-t1.jsonl").read())   # doctest: +SKIP
>>> report.ok, report.first
(True, None)

Nothing here talks to a server: whoever holds a record can check it.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from trapoula.domain.audit import AuditReport, HandResult, Problem, audit_record
from trapoula.domain.registry import GAMES

__all__ = [
    "AuditReport",
    "HandResult",
    "Problem",
    "audit_file",
    "audit_text",
    "parse_record",
    "read_record",
    "report_summary",
    "team_name",
]


def team_name(members: tuple[int, ...], team: int, names: tuple[str, ...]) -> str:
    """``team 0 (Anna and Chrysa)``: a partnership by its number and its members' names (``vida`` R2.3)."""
    return f"team {team} (" + " and ".join(names[m] if m < len(names) else f"seat {m}" for m in members) + ")"


def report_summary(report: AuditReport) -> str:
    """:meth:`AuditReport.summary`, with a team game's totals and winner given per team (``vida``
    R2.3, R6.9, R6.10: the report's totals and winner count per team, in ``GameSpec.teams`` order)."""
    text = report.summary()
    spec = GAMES.get(report.game or "")
    if spec is None or not spec.teams:
        return text
    teams = spec.teams
    lines = []
    for line in text.splitlines():
        if line.startswith("totals: ") and report.totals is not None:
            shown = (
                f"{team_name(teams[i], i, report.names)} {t}"
                for i, t in enumerate(report.totals)
                if t is not None and i < len(teams)
            )
            line = "totals: " + ", ".join(shown)
        elif line.startswith("match winner: ") and report.winner is not None and 0 <= report.winner < len(teams):
            line = "match winner: " + team_name(teams[report.winner], report.winner, report.names)
        lines.append(line)
    return "\n".join(lines)


def parse_record(text: str) -> list[dict[str, Any]]:
    """The record's lines as mappings (blank lines skipped).

    A line that is not a JSON object becomes ``{"invalid_line": <text>}``, which the audit
    reports as a malformed line (REC1 for the header, REC2 for an event) instead of stopping.
    """
    out: list[dict[str, Any]] = []
    for raw in text.splitlines():
        if not raw.strip():
            continue
        try:
            value = json.loads(raw)
        except json.JSONDecodeError:
            value = None
        out.append(value if isinstance(value, dict) else {"invalid_line": raw})
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
