"""Event schema versions and upcasting (DESIGN, Games as plug-ins; docs/events.md).

The events here are test-local classes shaped like the shedding games' ``Passed`` (S12): a
payload stored by an older shape of its class is brought to the current shape step by step, a
missing field takes its default, and anything else that does not fit is refused by name.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from typing import Any, ClassVar

import pytest

from trapoula.domain.chain import GENESIS, chain_record, event_hash, record_line
from trapoula.domain.errors import InvalidInput
from trapoula.domain.events import Event, from_payload, payload_mismatch, to_payload
from trapoula.domain.games.shedding.events import Passed
from trapoula.domain.upcasting import register_upcaster, upcast, upcaster_for


def _v3() -> tuple[type[Event], list[str]]:
    """A class at version 3: v1 ``{seat}``; v2 added ``why`` (no default); v3 renamed ``why`` to
    ``reason`` and added ``cards`` (a tuple).  Returns the class and the log of the steps run."""

    @dataclass(frozen=True, slots=True)
    class Passed3(Event):
        version: ClassVar[int] = 3
        seat: int
        reason: str
        cards: tuple[str, ...]

    steps: list[str] = []

    def v1_v2(p: dict[str, Any]) -> dict[str, Any]:
        steps.append("1->2")
        p["why"] = "drawn"
        return p

    def v2_v3(p: dict[str, Any]) -> dict[str, Any]:
        steps.append("2->3")
        return {"seat": p["seat"], "reason": p.pop("why"), "cards": ["none"]}

    register_upcaster(Passed3, 1, v1_v2)
    register_upcaster(Passed3, 2, v2_v3)
    return Passed3, steps


def test_every_event_class_is_at_version_1_unless_it_says_otherwise() -> None:
    assert Event.version == 1 and Passed.version == 1
    cls, _ = _v3()
    assert cls.version == 3


def test_a_version_1_payload_is_upcast_step_by_step_to_version_3() -> None:
    cls, steps = _v3()
    stored = {"seat": 2}
    event = from_payload(cls, stored, 1)
    assert event == cls(seat=2, reason="drawn", cards=("none",))  # type: ignore[call-arg]
    assert steps == ["1->2", "2->3"]
    assert stored == {"seat": 2}  # the stored payload is never changed
    steps.clear()
    assert from_payload(cls, {"seat": 1, "why": "blocked"}, 2) == cls(seat=1, reason="blocked", cards=("none",))  # type: ignore[call-arg]
    assert steps == ["2->3"]  # from version 2: only the last step
    steps.clear()
    current = {"seat": 0, "reason": "x", "cards": ["AS"]}
    assert from_payload(cls, current, 3) == from_payload(cls, current) == cls(seat=0, reason="x", cards=("AS",))  # type: ignore[call-arg]
    assert steps == []  # the class's own version (or None): no step


def test_an_upcaster_works_on_a_copy_of_the_stored_payload() -> None:
    @dataclass(frozen=True, slots=True)
    class Dealt(Event):
        version: ClassVar[int] = 2
        cards: tuple[str, ...]

    def grow(p: dict[str, Any]) -> dict[str, Any]:
        p["cards"].append("2C")  # changes a list inside the payload in place
        return p

    register_upcaster(Dealt, 1, grow)
    stored = {"cards": ["AS"]}
    assert from_payload(Dealt, stored, 1) == Dealt(cards=("AS", "2C"))
    assert stored == {"cards": ["AS"]}


def test_a_field_missing_from_a_stored_payload_takes_its_default() -> None:
    """A field added with a default needs no upcaster: version 1 -> 2 has none, the default fills in."""

    @dataclass(frozen=True, slots=True)
    class Noted(Event):
        version: ClassVar[int] = 2
        seat: int
        note: str = "none"
        tags: tuple[str, ...] = field(default_factory=tuple)

    assert upcaster_for(Noted, 1) is None
    assert from_payload(Noted, {"seat": 3}, 1) == Noted(seat=3, note="none", tags=())
    assert from_payload(Noted, {"seat": 3, "note": "late"}) == Noted(seat=3, note="late")
    assert to_payload(Noted(seat=3)) == {"seat": 3, "note": "none", "tags": []}


def test_a_missing_field_without_default_or_upcaster_is_refused_by_name() -> None:
    @dataclass(frozen=True, slots=True)
    class Ranked(Event):
        version: ClassVar[int] = 2
        seat: int
        rank: str

    with pytest.raises(InvalidInput) as raised:
        from_payload(Ranked, {"seat": 0}, 1)
    assert raised.value.reason == "bad_event"
    assert raised.value.message == "event Ranked (version 2, stored at 1) payload lacks field(s) ['rank']"
    with pytest.raises(
        InvalidInput, match=r"^event Passed \(version 1, stored at 1\) payload lacks field\(s\) \['seat'\]$"
    ):
        from_payload(Passed, {})


def test_an_unknown_field_is_refused_by_name() -> None:
    with pytest.raises(InvalidInput) as raised:
        from_payload(Passed, {"seat": 0, "why": "bored"}, 1)
    assert raised.value.message == "event Passed (version 1, stored at 1) payload has unknown field(s) ['why']"
    assert payload_mismatch(Passed, {"why": 1}) == "lacks field(s) ['seat'] and has unknown field(s) ['why']"
    assert payload_mismatch(Passed, {"seat": 0}) is None


@pytest.mark.parametrize("version", [0, -1, 4, True, "2", None, 2.0])
def test_a_version_this_code_does_not_read_is_refused(version: Any) -> None:
    """Versions 1..3 only: a later one was written by newer code; 0, a bool or text is no version."""
    cls, steps = _v3()
    with pytest.raises(InvalidInput, match=r"^event Passed3 stored at version .*; this code reads versions 1\.\.3$"):
        upcast(cls, {"seat": 0}, version)
    assert steps == []


def test_an_upcaster_that_fails_is_reported_with_its_step() -> None:
    cls, _ = _v3()
    with pytest.raises(InvalidInput) as raised:
        from_payload(cls, {"seat": 0}, 2)  # a version-2 payload without its "why"
    assert raised.value.message == "event Passed3: upcasting from version 2 to 3 failed: KeyError: 'why'"


def test_upcasters_are_registered_once_from_a_version_below_the_class_version() -> None:
    cls, _ = _v3()
    with pytest.raises(ValueError, match="already registered"):
        register_upcaster(cls, 1, lambda p: p)
    for bad in (0, 3, 4):
        with pytest.raises(ValueError, match=r"from versions 1\.\.2"):
            register_upcaster(cls, bad, lambda p: p)
    with pytest.raises(ValueError, match=r"from versions 1\.\.0"):
        register_upcaster(Passed, 1, lambda p: p)


def test_the_hash_covers_a_version_above_1_only() -> None:
    """docs/record.md 2.3: ``v`` joins the hashed object only when it is not 1, so every hash written
    before versions were recorded is unchanged (the worked example of 2.3)."""
    v1 = event_hash(GENESIS, 1, "Passed", {"seat": 0})
    assert v1 == event_hash(GENESIS, 1, "Passed", {"seat": 0}, 1)
    assert v1 == "f20a44597d31dacaf8f29c4486d4f414241a130d5ec47c7f53eac86fbdd93b97"
    body = '{"name":"Passed","payload":{"seat":0},"seq":1,"v":2}'
    v2 = event_hash(GENESIS, 1, "Passed", {"seat": 0}, 2)
    assert v2 == hashlib.sha256((GENESIS + "\n" + body).encode()).hexdigest()
    assert v2 == "ae83aa21364c38f8f62b2c0d887c2367b18f4a17cfdabcf3a258131c92bccbbd"  # docs/record.md 2.3


def test_a_record_line_has_v_only_above_version_1() -> None:
    lines = chain_record(
        "t", "agonia", [("Passed", {"seat": 0}), ("Passed", {"seat": 1}, 2), ("Passed", {"seat": 0}, 1)]
    )
    assert [sorted(line) for line in lines[1:]] == [
        ["hash", "name", "payload", "prev_hash", "seq"],
        ["hash", "name", "payload", "prev_hash", "seq", "v"],
        ["hash", "name", "payload", "prev_hash", "seq"],
    ]
    assert lines[2]["v"] == 2
    assert lines[2]["hash"] == event_hash(lines[1]["hash"], 2, "Passed", {"seat": 1}, 2)
    assert lines[3]["hash"] == event_hash(lines[2]["hash"], 3, "Passed", {"seat": 0})
    assert record_line(2, "Passed", {"seat": 1}, "p", "h", 2) == {
        "seq": 2, "name": "Passed", "v": 2, "payload": {"seat": 1}, "prev_hash": "p", "hash": "h"
    }  # fmt: skip
