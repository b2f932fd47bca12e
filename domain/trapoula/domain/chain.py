"""The hash chain of a table's event log (DESIGN, Fairness and audit).

Each stored event carries the hash of the previous one; a record cannot be edited without
changing every later hash.  The hash of event number ``seq`` (1, 2, ...) is

    SHA-256( prev_hash || "\\n" || canonical_json({"seq": seq, "name": name, "payload": payload}) )

in hex, where ``prev_hash`` is the previous event's hash (64 zeros before the first event) and
``canonical_json`` is JSON with sorted keys, separators ``,`` and ``:`` and non-ASCII escaped.

>>> h = event_hash(GENESIS, 1, "Passed", {"seat": 0})
>>> len(h), h == event_hash(GENESIS, 1, "Passed", {"seat": 0})
(64, True)
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping, Sequence
from typing import Any

GENESIS = "0" * 64
"""The ``prev_hash`` of a log's first event."""


_CANONICAL = json.JSONEncoder(sort_keys=True, separators=(",", ":"), ensure_ascii=True)
"""The encoder ``json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=True)``
makes anew at each call, made once."""


def canonical_json(value: Any) -> str:
    """JSON with sorted keys and no spaces: the form that is hashed."""
    return _CANONICAL.encode(value)


def event_hash(prev_hash: str, seq: int, name: str, payload: Mapping[str, Any]) -> str:
    """The chained hash of one event (see the module docstring); hex, 64 digits."""
    return hash_of_written(prev_hash, seq, name, canonical_json(payload))


def hash_of_written(prev_hash: str, seq: int, name: str, payload_json: str) -> str:
    """:func:`event_hash` of an event whose payload is already written as ``canonical_json(payload)``
    (an audit compares that text too).  The object hashed has its keys in sorted order, ``name``,
    ``payload``, ``seq``, so its canonical JSON is those three written one after the other.

    >>> hash_of_written(GENESIS, 1, "Passed", '{"seat":0}') == event_hash(GENESIS, 1, "Passed", {"seat": 0})
    True
    """
    number = str(seq) if type(seq) is int else canonical_json(seq)
    body = '{"name":' + canonical_json(name) + ',"payload":' + payload_json + ',"seq":' + number + "}"
    return hashlib.sha256((prev_hash + "\n" + body).encode("ascii")).hexdigest()


HAND_REVEALED = frozenset({"SeedRevealed", "ShuffleRevealed"})
"""The events that end a hand and reveal its deal: the shedding games' ``SeedRevealed`` (S5.1) and
``vida``'s ``ShuffleRevealed`` (R3.2).  A record's ``hands`` counts them."""

RECORD_FORMAT = "trapoula-record"
"""The ``format`` of a record's header line (docs/record.md)."""
RECORD_VERSION = 1
"""The record format's version."""


def record_header(table_id: str, game: str, hands: int, events: int) -> dict[str, Any]:
    """A record's first line (docs/record.md): format, version, table id, game, finished hands, event count."""
    return {
        "format": RECORD_FORMAT,
        "version": RECORD_VERSION,
        "table_id": table_id,
        "game": game,
        "hands": hands,
        "events": events,
    }


def chain_record(table_id: str, game: str, entries: Sequence[tuple[str, Mapping[str, Any]]]) -> list[dict[str, Any]]:
    """Hash-chain ``(name, payload)`` entries into record lines, header first (docs/record.md).

    ``hands`` in the header counts the events that end a hand (:data:`HAND_REVEALED`).  Each line is
    ``{"seq", "name", "payload", "prev_hash", "hash"}`` with ``seq`` from 1.

    >>> lines = chain_record("t", "agonia", [("Passed", {"seat": 0})])
    >>> lines[0]["events"], lines[1]["prev_hash"] == GENESIS
    (1, True)
    >>> lines[1]["hash"] == event_hash(GENESIS, 1, "Passed", {"seat": 0})
    True
    """
    hands = sum(1 for name, _ in entries if name in HAND_REVEALED)
    lines: list[dict[str, Any]] = [record_header(table_id, game, hands, len(entries))]
    prev = GENESIS
    for seq, (name, payload) in enumerate(entries, start=1):
        digest = event_hash(prev, seq, name, payload)
        lines.append({"seq": seq, "name": name, "payload": dict(payload), "prev_hash": prev, "hash": digest})
        prev = digest
    return lines
