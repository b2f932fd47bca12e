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
from collections.abc import Mapping
from typing import Any

GENESIS = "0" * 64
"""The ``prev_hash`` of a log's first event."""


def canonical_json(value: Any) -> str:
    """JSON with sorted keys and no spaces: the form that is hashed."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=True)


def event_hash(prev_hash: str, seq: int, name: str, payload: Mapping[str, Any]) -> str:
    """The chained hash of one event (see the module docstring); hex, 64 digits."""
    body = canonical_json({"seq": seq, "name": name, "payload": payload})
    return hashlib.sha256((prev_hash + "\n" + body).encode("ascii")).hexdigest()
