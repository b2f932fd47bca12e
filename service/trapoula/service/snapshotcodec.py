"""The JSON codec of snapshots (:mod:`trapoula.service.snapshots`): a table's folded state to
tagged JSON and back.

A snapshot's state is JSON only, never pickle: :func:`encode_value` writes tagged JSON of plain
values, tuples, lists, sets, frozensets, dicts, cards, enums and dataclasses, and
:func:`decode_value` rebuilds only classes of ``trapoula.domain`` (plus ``TableState`` and
``SeatRecord``), without calling any of their code, so whoever can write the database cannot make
the server run code of his choosing.  Both raise :class:`SnapshotUnusable` for what they cannot
write or read.  A change to the encoding bumps :data:`trapoula.service.snapshots.TABLE_STATE_VERSION`.
"""

from __future__ import annotations

import dataclasses
import enum
import importlib
import math
from functools import cache
from typing import Any

from trapoula.domain.cards import Card, parse_card
from trapoula.service.tablestate import SeatRecord, TableState

_SERVICE_CLASSES: dict[str, type] = {"TableState": TableState, "SeatRecord": SeatRecord}
"""Classes outside ``trapoula.domain`` that a snapshot may hold (``trapoula.service.tablestate``)."""
_TABLE_STATE = "trapoula.service.tablestate"
_DOMAIN_PREFIX = "trapoula.domain."


class SnapshotUnusable(Exception):
    """A stored snapshot cannot be used: another format or code, or it does not decode.  The table
    is then replayed from its log."""


_TOPICS: dict[type, str] = {}


def _topic(cls: type) -> str:
    """``module:qualname`` of a class a snapshot may hold.

    Raises:
        SnapshotUnusable: the class is neither of ``trapoula.domain`` nor one of ``_SERVICE_CLASSES``.
    """
    topic = _TOPICS.get(cls)
    if topic is not None:
        return topic
    module, name = cls.__module__, cls.__qualname__
    if module.startswith(_DOMAIN_PREFIX) or (module == _TABLE_STATE and _SERVICE_CLASSES.get(name) is cls):
        topic = _TOPICS[cls] = f"{module}:{name}"
        return topic
    raise SnapshotUnusable(f"a snapshot cannot hold a {module}.{name}")


@cache
def _resolve(topic: str) -> type:
    """The class of a topic written by :func:`_topic`: a dataclass or an enum of ``trapoula.domain``,
    or one of ``_SERVICE_CLASSES``.  Only modules of ``trapoula.domain`` are imported.

    Raises:
        SnapshotUnusable: any other topic.
    """
    module, _, name = topic.partition(":")
    if module == _TABLE_STATE and name in _SERVICE_CLASSES:
        return _SERVICE_CLASSES[name]
    if not module.startswith(_DOMAIN_PREFIX) or not name:
        raise SnapshotUnusable(f"snapshot names class {topic[:80]!r}, outside trapoula.domain")
    try:
        obj: Any = importlib.import_module(module)
        for part in name.split("."):
            obj = getattr(obj, part)
    except (ImportError, AttributeError) as exc:
        raise SnapshotUnusable(f"snapshot names class {topic[:80]!r}, which does not exist") from exc
    if not isinstance(obj, type) or not (dataclasses.is_dataclass(obj) or issubclass(obj, enum.Enum)):
        raise SnapshotUnusable(f"snapshot names {topic[:80]!r}, neither a dataclass nor an enum")
    return obj


_FIELDS: dict[type, tuple[str, ...]] = {}


def _field_names(cls: type) -> tuple[str, ...]:
    names = _FIELDS.get(cls)
    if names is None:
        names = _FIELDS[cls] = tuple(f.name for f in dataclasses.fields(cls))
    return names


def encode_value(value: Any) -> Any:
    """JSON-ready data for ``value`` (see :func:`decode_value`).

    ``None``, booleans, integers, finite floats and strings stay as they are; every other value is
    a one-key (two for enums and dataclasses) object: ``{"t": [...]}`` a tuple, ``{"l": [...]}`` a
    list, ``{"f": [...]}`` a frozenset, ``{"s": [...]}`` a set, ``{"d": [[key, value], ...]}`` a
    dict (keys of any type), ``{"c": "7H"}`` a card, ``{"C": "7H8DTS"}`` a tuple of cards (2
    characters each), ``{"F": "..."}`` a frozenset of cards, ``{"e": topic, "v": value}`` an enum
    member, ``{"o": topic, "v": [field values in declaration order]}`` a dataclass (every field,
    those not in ``__init__`` too).

    Raises:
        SnapshotUnusable: a value of another type (a class outside ``trapoula.domain``, a float
            that is not finite ...).
    """
    t = type(value)
    if value is None or t is bool or t is int or t is str:
        return value
    if t is tuple:
        if value and all(type(v) is Card for v in value):
            return {"C": "".join(c.code for c in value)}
        return {"t": [encode_value(v) for v in value]}
    if t is Card:
        return {"c": value.code}
    if t is frozenset:
        if value and all(type(v) is Card for v in value):
            return {"F": "".join(sorted(c.code for c in value))}
        return {"f": [encode_value(v) for v in value]}
    if t is list:
        return {"l": [encode_value(v) for v in value]}
    if t is dict:
        return {"d": [[encode_value(k), encode_value(v)] for k, v in value.items()]}
    if t is set:
        return {"s": [encode_value(v) for v in value]}
    if t is float:
        if not math.isfinite(value):
            raise SnapshotUnusable(f"a snapshot cannot hold the float {value!r}")
        return value
    if isinstance(value, enum.Enum):
        return {"e": _topic(t), "v": encode_value(value.value)}
    if dataclasses.is_dataclass(value):
        return {"o": _topic(t), "v": [encode_value(getattr(value, n)) for n in _field_names(t)]}
    raise SnapshotUnusable(f"a snapshot cannot hold a {t.__module__}.{t.__qualname__}")


def _cards(text: Any) -> list[Card]:
    if not isinstance(text, str) or len(text) % 2:
        raise SnapshotUnusable("snapshot: a card list is not text of 2-character codes")
    return [parse_card(text[i : i + 2]) for i in range(0, len(text), 2)]


def decode_value(data: Any) -> Any:
    """The value :func:`encode_value` wrote.

    Dataclasses are rebuilt field by field without calling their ``__init__``, enums through their
    values; nothing else of a class runs.

    Raises:
        SnapshotUnusable: the data is not what :func:`encode_value` writes (an unknown tag, a class
            outside ``trapoula.domain``, a wrong number of fields, a bad card ...).
    """
    t = type(data)
    if data is None or t is bool or t is int or t is str or t is float:
        return data
    if t is not dict:
        raise SnapshotUnusable(f"snapshot: unexpected {t.__name__} in the data")
    try:
        if len(data) == 1:
            ((tag, body),) = data.items()
            if tag == "C":
                return tuple(_cards(body))
            if tag == "t":
                return tuple(decode_value(v) for v in body)
            if tag == "c":
                card = _cards(body)
                if len(card) != 1:
                    raise SnapshotUnusable("snapshot: a card is not one 2-character code")
                return card[0]
            if tag == "F":
                return frozenset(_cards(body))
            if tag == "f":
                return frozenset(decode_value(v) for v in body)
            if tag == "l":
                return [decode_value(v) for v in body]
            if tag == "d":
                return {decode_value(k): decode_value(v) for k, v in body}
            if tag == "s":
                return {decode_value(v) for v in body}
        elif len(data) == 2 and "v" in data:
            if "o" in data:
                cls = _resolve(data["o"])
                names = _field_names(cls) if dataclasses.is_dataclass(cls) else ()
                values = data["v"]
                if not names or type(values) is not list or len(values) != len(names):
                    raise SnapshotUnusable(f"snapshot: {data['o'][:80]!r} does not have those fields")
                obj: Any = object.__new__(cls)
                for name, value in zip(names, values, strict=True):
                    object.__setattr__(obj, name, decode_value(value))
                return obj
            if "e" in data:
                cls = _resolve(data["e"])
                if not issubclass(cls, enum.Enum):
                    raise SnapshotUnusable(f"snapshot: {data['e'][:80]!r} is not an enum")
                return cls(decode_value(data["v"]))
    except SnapshotUnusable:
        raise
    except Exception as exc:  # a malformed body: wrong shapes, bad card codes, unhashable keys ...
        raise SnapshotUnusable(f"snapshot data does not decode: {type(exc).__name__}: {exc}") from exc
    raise SnapshotUnusable(f"snapshot: unknown tag(s) {sorted(map(str, data))[:4]}")
