"""Frozen game states: copies with some fields changed, and values derived from the last one.

A game's state is a frozen dataclass (STYLE habit 1), and ``evolve`` makes a new one at every event.
:func:`replace_fields` does what ``dataclasses.replace`` does without running ``__init__``, through a
copying function written once per class that sets each field by its slot's descriptor, which costs
half as much as a loop over the field names with ``object.__setattr__``.  :func:`remember_last`
keeps a function's answer for the last state it was asked about: the views of every viewer of one
state, and the refusals of one legality check, ask the same again.

>>> from dataclasses import dataclass
>>> @dataclass(frozen=True, slots=True)
... class Point:
...     x: int
...     y: int = 0
>>> replace_fields(Point(1, 2), {"y": 5})
Point(x=1, y=5)
"""

from __future__ import annotations

import dataclasses
import functools
import types
from collections.abc import Callable, Mapping
from typing import Any, TypeVar

__all__ = ["remember_last", "replace_fields"]

T = TypeVar("T")
R = TypeVar("R")

_Copier = Callable[[Any, Mapping[str, Any]], Any]

_COPIERS: dict[type, _Copier] = {}
"""The copying function of each state class met so far (a class's fields never change)."""


def replace_fields(state: T, changes: Mapping[str, Any]) -> T:
    """A new instance of the dataclass of ``state``, each field ``changes[name]`` when ``changes``
    names it and the value in ``state`` otherwise (``dataclasses.replace`` without ``__init__``: no
    check and no ``__post_init__``).  A key of ``changes`` that is not a field is ignored.

    Raises:
        TypeError: ``state`` is not a dataclass instance.
    """
    cls = type(state)
    copier = _COPIERS.get(cls)
    if copier is None:
        copier = _COPIERS[cls] = _copier(cls)
    result: T = copier(state, changes)
    return result


def _copier(cls: type) -> _Copier:
    """The copying function of ``cls``: one line per field, which sets it through its slot's
    descriptor (``object.__setattr__`` for a field without a slot)."""
    env: dict[str, Any] = {"_new": object.__new__, "_cls": cls, "_setattr": object.__setattr__}
    lines = ["def copy(state, changes):", "    new = _new(_cls)"]
    for i, field in enumerate(dataclasses.fields(cls)):
        name = field.name
        if not name.isidentifier() or name.startswith("__"):
            raise TypeError(f"{cls.__name__}.{name} cannot be copied by name")
        value = f"changes[{name!r}] if {name!r} in changes else state.{name}"
        slot = next((vars(k)[name] for k in cls.__mro__ if name in vars(k)), None)
        if isinstance(slot, types.MemberDescriptorType):
            env[f"_set_{i}"] = slot.__set__
            lines.append(f"    _set_{i}(new, {value})")
        else:
            lines.append(f"    _setattr(new, {name!r}, {value})")
    lines.append("    return new")
    exec("\n".join(lines), env)  # the way dataclasses writes __init__
    copier: _Copier = env["copy"]
    return copier


def remember_last(fn: Callable[[T], R]) -> Callable[[T], R]:
    """``fn``, remembering its answer for the last state it was given (by identity: a state never
    changes, so the same object has the same answer).  ``fn`` must be a pure function of the state
    that returns an immutable value (a tuple, a string ...): every caller gets that same object.

    >>> calls = []
    >>> @remember_last
    ... def total(state: tuple[int, ...]) -> int:
    ...     calls.append(state)
    ...     return sum(state)
    >>> s = (1, 2)
    >>> total(s), total(s), len(calls)
    (3, 3, 1)
    """
    last: list[tuple[object, Any]] = [(object(), None)]

    @functools.wraps(fn)
    def remembered(state: T) -> R:
        seen, answer = last[0]
        if seen is state:
            result: R = answer
            return result
        result = fn(state)
        last[0] = (state, result)  # one assignment: a concurrent reader sees an old pair or the new one
        return result

    return remembered
