"""The hash chain's formula (DESIGN, Fairness and audit; docs/record.md), recomputed independently.

The hash of event ``seq`` is SHA-256 of ``prev_hash``, a newline and the JSON of
``{"seq", "name", "payload"}`` with sorted keys, no spaces and non-ASCII escaped.  ``event_hash``
writes that JSON from the payload already written (``hash_of_written``); these tests check it
against ``json.dumps`` of the whole object, for payloads of every shape a record holds.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

import pytest

from trapoula.domain.chain import GENESIS, canonical_json, event_hash, hash_of_written


def _formula(prev: str, seq: int, name: str, payload: Any) -> str:
    body = json.dumps({"seq": seq, "name": name, "payload": payload}, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256((prev + "\n" + body).encode("ascii")).hexdigest()


PAYLOADS: list[tuple[str, dict[str, Any]]] = [
    ("Passed", {"seat": 0}),
    ("CardsDrawn", {"seat": 2, "cards": ["7H", "TS"], "count": 2, "reason": "penalty"}),
    ("HandEnded", {"reason": "out", "winner": None, "hands": [[], ["AS", "2C"]], "totals": [None, 12]}),
    ("MatchStarted", {"names": ["Νίκος", 'Ωμέγα "quoted"'], "bots": [None, "random"], "options": {"b": True, "a": 1}}),
    ("Scored", {"ratio": 0.5, "big": 2**70, "flag": False, "nested": {"z": [1, {"y": None}]}}),
    ("Empty", {}),
]


@pytest.mark.parametrize(("name", "payload"), PAYLOADS)
def test_an_event_s_hash_is_sha256_of_the_previous_hash_and_the_sorted_json(name: str, payload: dict[str, Any]) -> None:
    prev = hashlib.sha256(b"previous").hexdigest()
    for seq in (1, 17, 123456):
        expected = _formula(prev, seq, name, payload)
        assert event_hash(prev, seq, name, payload) == expected
        assert hash_of_written(prev, seq, name, canonical_json(payload)) == expected


def test_the_first_event_chains_from_64_zeros() -> None:
    assert GENESIS == "0" * 64
    assert event_hash(GENESIS, 1, "Passed", {"seat": 0}) == _formula("0" * 64, 1, "Passed", {"seat": 0})


def test_canonical_json_escapes_non_ascii_and_sorts_keys() -> None:
    assert canonical_json({"b": "é", "a": [1, 2]}) == '{"a":[1,2],"b":"\\u00e9"}'
