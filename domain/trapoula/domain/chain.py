"""The hash chain of a table's event log (DESIGN, Fairness and audit).

Each stored event carries the hash of the previous one; a record cannot be edited without
changing every later hash.  The hash of event number ``seq`` (1, 2, ...) is

    SHA-256( prev_hash || "\\n" || canonical_json({"seq": seq, "name": name, "payload": payload}) )

in hex, where ``prev_hash`` is the previous event's hash (64 zeros before the first event) and
``canonical_json`` is JSON with sorted keys, separators ``,`` and ``:`` and non-ASCII escaped.
An event stored at a schema version ``v`` other than 1 (``Event.version``, docs/events.md) has
``"v": v`` in the hashed object too, beside ``seq``, ``name`` and ``payload``; an event at version
1 has no ``v``, so every hash written before versions were recorded stays what it was.  The hash
always covers the payload as it was stored, never an upcast form of it.

>>> h = event_hash(GENESIS, 1, "Passed", {"seat": 0})
>>> len(h), h == event_hash(GENESIS, 1, "Passed", {"seat": 0})
(64, True)
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Mapping, Sequence
from typing import Any

GENESIS = "0" * 64
"""The ``prev_hash`` of a log's first event."""


_CANONICAL = json.JSONEncoder(sort_keys=True, separators=(",", ":"), ensure_ascii=True)
"""The encoder ``json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=True)``
makes anew at each call, made once."""


def _c_encoder() -> Callable[[Any, int], Sequence[str]] | None:
    """The C encoder ``_CANONICAL.encode`` makes anew at each call (``json.encoder.c_make_encoder``,
    with the same default, string escaping, separators, key order and NaN handling), made once;
    None where ``json`` has no C encoder.  It writes the same text: ``encode`` joins the same
    encoder's pieces.  It is made without the check for circular references (a cycle raises
    RecursionError instead of ValueError): a record's payloads are parsed JSON or events' fields."""
    make = getattr(json.encoder, "c_make_encoder", None)
    if make is None:  # pragma: no cover - a Python without the _json accelerator
        return None
    escape = json.encoder.encode_basestring_ascii
    encoder: Callable[[Any, int], Sequence[str]] = make(
        None, _CANONICAL.default, escape, None, ":", ",", True, False, True
    )
    return encoder


_ENCODE = _c_encoder()
_ESCAPE: Callable[[str], str] = json.encoder.encode_basestring_ascii


def canonical_json(value: Any) -> str:
    """JSON with sorted keys and no spaces: the form that is hashed.

    >>> canonical_json({"b": [1, None, "\u00e9"], "a": True}) == json.dumps(
    ...     {"b": [1, None, "\u00e9"], "a": True}, sort_keys=True, separators=(",", ":"), ensure_ascii=True
    ... )
    True
    """
    if type(value) is str:
        return _ESCAPE(value)
    if _ENCODE is None:  # pragma: no cover - a Python without the _json accelerator
        return _CANONICAL.encode(value)
    return "".join(_ENCODE(value, 0))


def event_hash(prev_hash: str, seq: int, name: str, payload: Mapping[str, Any], version: int = 1) -> str:
    """The chained hash of one event (see the module docstring); hex, 64 digits.

    ``version`` is the schema version the event was stored with; it is hashed only when it is not 1.

    >>> event_hash(GENESIS, 1, "Passed", {"seat": 0}, 1) == event_hash(GENESIS, 1, "Passed", {"seat": 0})
    True
    >>> event_hash(GENESIS, 1, "Passed", {"seat": 0}, 2) == event_hash(GENESIS, 1, "Passed", {"seat": 0})
    False
    """
    return hash_of_written(prev_hash, seq, name, canonical_json(payload), version)


def hash_of_written(prev_hash: str, seq: int, name: str, payload_json: str, version: int = 1) -> str:
    """:func:`event_hash` of an event whose payload is already written as ``canonical_json(payload)``
    (an audit compares that text too).  The object hashed has its keys in sorted order, ``name``,
    ``payload``, ``seq`` (and ``v`` when the version is not 1), so its canonical JSON is those
    written one after the other.

    >>> hash_of_written(GENESIS, 1, "Passed", '{"seat":0}') == event_hash(GENESIS, 1, "Passed", {"seat": 0})
    True
    >>> hash_of_written(GENESIS, 1, "Passed", '{"seat":0}', 2) == event_hash(GENESIS, 1, "Passed", {"seat": 0}, 2)
    True
    """
    number = str(seq) if type(seq) is int else canonical_json(seq)
    body = '{"name":' + canonical_json(name) + ',"payload":' + payload_json + ',"seq":' + number
    if version != 1:
        body += ',"v":' + (str(version) if type(version) is int else canonical_json(version))
    return hashlib.sha256((prev_hash + "\n" + body + "}").encode("ascii")).hexdigest()


def record_line(
    seq: int, name: str, payload: Mapping[str, Any], prev_hash: str, hash: str, version: int = 1
) -> dict[str, Any]:
    """One event line of a record (docs/record.md, 2.2): ``{"seq", "name", "payload", "prev_hash",
    "hash"}``, with ``"v"`` after ``name`` only for an event stored at a version other than 1.

    >>> record_line(3, "Passed", {"seat": 0}, "p", "h")
    {'seq': 3, 'name': 'Passed', 'payload': {'seat': 0}, 'prev_hash': 'p', 'hash': 'h'}
    >>> list(record_line(3, "Passed", {"seat": 0}, "p", "h", 2))
    ['seq', 'name', 'v', 'payload', 'prev_hash', 'hash']
    """
    if version == 1:
        return {"seq": seq, "name": name, "payload": payload, "prev_hash": prev_hash, "hash": hash}
    return {"seq": seq, "name": name, "v": version, "payload": payload, "prev_hash": prev_hash, "hash": hash}


RECORD_FORMAT = "trapoula-record"
"""The ``format`` of a record's header line (docs/record.md)."""
RECORD_VERSION = 2
"""The record format's version as a server writes it: its header signed (:mod:`trapoula.domain.signing`)."""
RECORD_UNSIGNED = 1
"""The format version of an unsigned record (written before records were signed, or built by
:func:`chain_record`): the same lines, a header without a signature."""


def record_header(table_id: str, game: str, hands: int, events: int) -> dict[str, Any]:
    """A record's first line, unsigned (docs/record.md): format, version 1, table id, game, finished
    hands, event count; :func:`trapoula.domain.signing.sign_header` signs it (version 2)."""
    return {
        "format": RECORD_FORMAT,
        "version": RECORD_UNSIGNED,
        "table_id": table_id,
        "game": game,
        "hands": hands,
        "events": events,
    }


RecordEntry = tuple[str, Mapping[str, Any]] | tuple[str, Mapping[str, Any], int]
"""One event for :func:`chain_record`: ``(name, payload)``, or ``(name, payload, version)`` for an
event stored at a schema version other than 1."""


def chain_record(table_id: str, game: str, entries: Sequence[RecordEntry]) -> list[dict[str, Any]]:
    """Hash-chain ``(name, payload)`` or ``(name, payload, version)`` entries into record lines,
    header first (docs/record.md).

    ``hands`` in the header counts the events that end a hand and reveal its deal (the game's events
    of role ``hand_revealed``, :mod:`trapoula.domain.lifecycle`).  Each line is
    ``{"seq", "name", "payload", "prev_hash", "hash"}`` with ``seq`` from 1, and ``"v"`` for an
    event whose version is not 1 (:func:`record_line`).

    >>> lines = chain_record("t", "agonia", [("Passed", {"seat": 0})])
    >>> lines[0]["events"], lines[1]["prev_hash"] == GENESIS
    (1, True)
    >>> lines[1]["hash"] == event_hash(GENESIS, 1, "Passed", {"seat": 0})
    True
    """
    from trapoula.domain.lifecycle import Role
    from trapoula.domain.registry import find_game

    spec = find_game(game)
    hands = sum(1 for entry in entries if spec.role_of(entry[0]) is Role.HAND_REVEALED)
    lines: list[dict[str, Any]] = [record_header(table_id, game, hands, len(entries))]
    prev = GENESIS
    for seq, entry in enumerate(entries, start=1):
        name, payload = entry[0], entry[1]
        version = entry[2] if len(entry) == 3 else 1
        digest = event_hash(prev, seq, name, payload, version)
        lines.append(record_line(seq, name, dict(payload), prev, digest, version))
        prev = digest
    return lines
