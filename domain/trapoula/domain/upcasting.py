"""Upcasting: stored events written by an older shape of their class, read by the current one
(DESIGN, Games as plug-ins: "stored events carry a schema version and are upcast when read").

Every domain event class declares its schema version, ``Event.version`` (1 unless the class says
otherwise), and every stored event keeps the version it was written with.  A class whose shape
changes (a field added, renamed or given another meaning) bumps its ``version`` on purpose; a
payload stored at an older version is then brought up to date when it is read, step by step
(1 -> 2 -> 3 ...), by the functions registered here with :func:`register_upcaster`.  A step with
no function registered changes nothing: that is the step of a field added with a dataclass
default, which :func:`~trapoula.domain.events.from_payload` fills in.

Upcasting changes only the decoded event in memory.  The stored payload, its version and its
hash stay as they were written: the hash chain and the record always hold the stored form
(docs/record.md, docs/events.md).

Upcasters are keyed by the event class, not by its name, because names repeat across games
(``CardPlayed`` is the shedding games' and ``vida``'s, two classes of different shapes).  A game
registers the upcasters of its own event classes from its own package, when it is imported.

>>> from dataclasses import dataclass
>>> from trapoula.domain.events import Event
>>> @dataclass(frozen=True, slots=True)
... class Noted(Event):
...     version = 3
...     seat: int
...     note: str
...     tone: str = "plain"
>>> register_upcaster(Noted, 1, lambda p: {**p, "note": "none"})
>>> upcast(Noted, {"seat": 1}, 1)  # 1 -> 2 adds the note; 2 -> 3 (no upcaster) leaves the default tone
{'seat': 1, 'note': 'none'}
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any, TypeAlias

from trapoula.domain.errors import InvalidInput

if TYPE_CHECKING:
    from trapoula.domain.events import Event

Upcaster: TypeAlias = Callable[[dict[str, Any]], dict[str, Any]]
"""One step: a payload written at version ``n`` -> the same fact at version ``n + 1``.  It receives
a copy of its own (it may change it) and returns the payload of the next version."""

_UPCASTERS: dict[tuple[type[Event], int], Upcaster] = {}
"""``(event class, from version)`` -> the step from that version to the next."""


def register_upcaster(event_class: type[Event], from_version: int, upcaster: Upcaster) -> None:
    """Register the step that brings a payload of ``event_class`` from ``from_version`` to
    ``from_version + 1``.

    Raises:
        ValueError: ``from_version`` is not in ``1 .. event_class.version - 1`` (bump the class's
            ``version`` first), or a step from that version is already registered for that class.
    """
    name = event_class.event_name()
    if (
        isinstance(from_version, bool)
        or not isinstance(from_version, int)
        or not 1 <= from_version < event_class.version
    ):
        raise ValueError(
            f"event {name} is at version {event_class.version}: no upcaster from version {from_version!r} "
            f"(from versions 1..{event_class.version - 1})"
        )
    key = (event_class, from_version)
    if key in _UPCASTERS:
        raise ValueError(f"event {name}: an upcaster from version {from_version} is already registered")
    _UPCASTERS[key] = upcaster


def upcaster_for(event_class: type[Event], from_version: int) -> Upcaster | None:
    """The step registered for ``event_class`` from ``from_version``, or None (the step changes nothing)."""
    return _UPCASTERS.get((event_class, from_version))


def upcast(event_class: type[Event], payload: Mapping[str, Any], version: int) -> dict[str, Any]:
    """``payload``, stored at ``version``, brought to ``event_class.version`` step by step.

    The result is a new dict: ``payload`` (and anything inside it) is never changed.  Steps with no
    registered upcaster leave the payload as it is (a field added with a default is filled in by
    :func:`~trapoula.domain.events.from_payload`).

    Raises:
        InvalidInput: ``version`` is not an integer from 1 to the class's version (a later version
            was written by newer code), or an upcaster fails on the payload (``bad_event``).
    """
    name, target = event_class.event_name(), event_class.version
    if isinstance(version, bool) or not isinstance(version, int) or not 1 <= version <= target:
        raise InvalidInput(
            f"event {name} stored at version {version!r}; this code reads versions 1..{target}",
            reason="bad_event",
        )
    current = copy.deepcopy(dict(payload))
    for step in range(version, target):
        upcaster = _UPCASTERS.get((event_class, step))
        if upcaster is None:
            continue
        try:
            current = upcaster(current)
        except Exception as exc:  # a payload the step cannot read: say which step and why
            raise InvalidInput(
                f"event {name}: upcasting from version {step} to {step + 1} failed: {type(exc).__name__}: {exc}",
                reason="bad_event",
            ) from exc
        if not isinstance(current, dict):
            raise InvalidInput(
                f"event {name}: the upcaster from version {step} returned a {type(current).__name__}, not a dict",
                reason="bad_event",
            )
    return current
