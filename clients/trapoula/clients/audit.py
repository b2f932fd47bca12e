"""Verify a record offline: read its JSON Lines and run the domain's audit (docs/record.md).

>>> report = audit_text(open("trapoula-t1.jsonl").read())   # doctest: +SKIP
>>> report.ok, report.first
(True, None)

Nothing here talks to a server: whoever holds a record can check it.
"""

from __future__ import annotations

import contextlib
import gc
import json
from collections.abc import Callable, Iterator
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
    "collector_paused",
    "parse_record",
    "read_record",
]


@contextlib.contextmanager
def collector_paused() -> Iterator[None]:
    """Within the block, Python's cyclic garbage collector does not run (``gc.disable``); on exit
    it runs again if it ran on entry, the objects made in the block counted among the oldest.

    Reading a record makes a few objects per line that all live to its end (its parsed lines, the
    events decoded, the states folded) and form no cycle: reference counting frees them all, and
    the collections their number would set off, each walking every object kept so far and the
    full ones the whole heap, found nothing and took a third or more of a replay's time.  On exit
    the objects still young (those of the block) join the oldest generation without a walk
    (``gc.freeze`` then ``gc.unfreeze``: two moves of whole lists), so that the first allocation
    after the block does not set off a collection of all of them; in a process that keeps objects
    frozen (a server's, :mod:`trapoula.service.collector`) they stay young instead.
    """
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if gc.get_freeze_count() == 0:
            gc.freeze()
            gc.unfreeze()
        if was_enabled:
            gc.enable()


def parse_record(text: str) -> list[dict[str, Any]]:
    """The record's lines as mappings (blank lines skipped).

    A line that is not a JSON object becomes ``{"invalid_line": <text>}``, which the audit
    reports as a malformed line (REC1 for the header, REC2 for an event) instead of stopping.
    """
    out: list[dict[str, Any]] = []
    append, loads = out.append, _loads
    for raw in text.splitlines():  # line by line: a line is one value or an invalid line, never more
        try:
            value = loads(raw)
        except ValueError:  # a blank line; orjson's refusals (NaN, a 65-bit integer ...): json reads what it can
            if not raw.strip():
                continue
            try:
                value = json.loads(raw)
            except json.JSONDecodeError:
                value = None
        append(value if type(value) is dict else {"invalid_line": raw})
    return out


def read_record(path: str | Path) -> list[dict[str, Any]]:
    """The lines of the record file at ``path`` (UTF-8).

    Raises:
        OSError: the file cannot be read.
    """
    return parse_record(Path(path).read_text(encoding="utf-8"))


def audit_text(text: str) -> AuditReport:
    """Audit a record given as JSON Lines text."""
    with collector_paused():
        return audit_record(parse_record(text))


def audit_file(path: str | Path) -> AuditReport:
    """Audit the record file at ``path``.

    Raises:
        OSError: the file cannot be read.
    """
    return audit_text(Path(path).read_text(encoding="utf-8"))
