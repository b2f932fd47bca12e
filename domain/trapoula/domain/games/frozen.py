"""Frozen game states: copies with some fields changed, and values derived from the last one.

A game's state is a frozen dataclass (STYLE habit 1), and ``evolve`` makes a new one at every event.
:func:`replace_fields` does what ``dataclasses.replace`` does without running ``__init__``, through a
copying function written once per class.  A frozen dataclass refuses attribute stores (its
``__setattr__`` raises), and setting each slot through ``object.__setattr__`` or the slot's
descriptor is a call per field; so the copy is built as an instance of a *builder*: a subclass with
no field or slot of its own (the same memory layout) that keeps the plain ``object.__setattr__``.
Stores into it are the interpreter's direct slot writes, about five times cheaper.  Once every
field is set the new object's class becomes the state's class, and it is as frozen as any other.

- :func:`replace_fields` (changes by name), :func:`set_fields` (a constant tuple of names and their
  values) and :func:`applier` (an ``evolve`` step for one kind of event) make such copies, each
  through a function written once for its class and its changed names;
- :func:`construct_quickly` builds new instances of a frozen dataclass the same way (every event
  class, and the few values a game makes at every step);
- :class:`Memo` lets a state keep what it works out about itself (its legal commands);
- :func:`remember_last` keeps a function's answer for the last state it was asked about: the views
  of every viewer of one state, and the refusals of one legality check, ask the same again.

>>> from dataclasses import dataclass
>>> @dataclass(frozen=True, slots=True)
... class Point:
...     x: int
...     y: int = 0
>>> moved = replace_fields(Point(1, 2), {"y": 5})
>>> moved, type(moved) is Point
(Point(x=1, y=5), True)
"""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Callable, Mapping
from typing import Any, TypeVar

__all__ = [
    "Memo",
    "applier",
    "builder",
    "construct_quickly",
    "known_setter",
    "remember_last",
    "replace_fields",
    "set_fields",
]

T = TypeVar("T")
R = TypeVar("R")

_Copier = Callable[[Any, Mapping[str, Any]], Any]

_COPIERS: dict[tuple[Any, ...], _Copier] = {}
"""The copying function of each state class and list of changed names met so far, by
``(class, *names)`` (a class's fields never change)."""

_BUILDERS: dict[type, type] = {}
"""The builder class of each frozen class met so far (:func:`builder`)."""


def builder(cls: type) -> type:
    """The builder of the frozen dataclass ``cls``: a subclass with the same memory layout (no slot
    and no field of its own) whose attributes can be stored.  An object made with
    ``object.__new__(builder(cls))`` takes its fields by plain assignment; setting its
    ``__class__`` to ``cls`` then makes it an ordinary, frozen ``cls``.  Only code that builds a
    value and hands it out frozen may use it (the state copies here, the games' own fast
    constructors).

    Raises:
        TypeError: ``cls`` is not a dataclass.
    """
    made = _BUILDERS.get(cls)
    if made is None:
        if not dataclasses.is_dataclass(cls):
            raise TypeError(f"{cls.__name__} is not a dataclass")
        # both methods plain: the interpreter then stores into the slots directly
        made = type(
            f"{cls.__name__}Builder",
            (cls,),
            {"__slots__": (), "__setattr__": object.__setattr__, "__delattr__": object.__delattr__},
        )
        _BUILDERS[cls] = made
    return made


def construct_quickly(cls: type) -> bool:
    """Give the frozen, slotted dataclass ``cls`` a ``__new__`` that builds its instances by plain
    stores into a builder object (:func:`builder`) in place of the dataclass ``__init__`` (a call of
    ``object.__setattr__`` per field): the same parameters and defaults, the same instance, about
    three times cheaper.  Returns whether it did: a class that is not a frozen, slotted dataclass,
    or has a field outside ``__init__``, a keyword-only one, a default factory or ``__post_init__``
    keeps its ``__init__``.  Every event class gets it (:class:`trapoula.domain.events.Event`).

    >>> from dataclasses import dataclass
    >>> @dataclass(frozen=True, slots=True)
    ... class Point:
    ...     x: int
    ...     y: int = 0
    >>> construct_quickly(Point), Point(1), Point(1, y=2) == Point(x=1, y=2)
    (True, Point(x=1, y=0), True)
    """
    own = vars(cls)
    params: Any = own.get("__dataclass_params__")
    if "__init__" not in own or "__slots__" not in own or params is None or not params.frozen:
        return False
    real = dataclasses.fields(cls)  # ClassVars are not fields
    if "__post_init__" in own or any(
        not f.init or f.kw_only or f.default_factory is not dataclasses.MISSING for f in real
    ):
        return False
    names = [f.name for f in real]
    if any(not n.isidentifier() or n.startswith("_") or n in ("cls", "new") for n in names):
        return False
    env: dict[str, Any] = {"_new": object.__new__, "_builder": builder(cls), "_cls": cls, "_init": own["__init__"]}
    params_text = []
    for f in real:
        if f.default is dataclasses.MISSING:
            params_text.append(f.name)
        else:
            env[f"_default_{f.name}"] = f.default
            params_text.append(f"{f.name}=_default_{f.name}")
    lines = [f"def __new__(cls, {', '.join(params_text)}):"]
    lines.append("    if cls is not _cls:  # a subclass that is no frozen dataclass of its own")
    lines.append(f"        new = _new(cls); _init(new, {', '.join(names)}); return new")
    lines.append("    new = _new(_builder)")
    lines.extend(f"    new.{n} = {n}" for n in names)
    lines.append("    new.__class__ = _cls")
    lines.append("    return new")
    exec("\n".join(lines), env)  # the way dataclasses writes __init__
    new = env["__new__"]
    new.__qualname__ = f"{cls.__qualname__}.__new__"
    cls.__new__ = new  # type: ignore[method-assign]
    cls.__getnewargs__ = lambda self: tuple(getattr(self, n) for n in names)  # type: ignore[attr-defined]
    delattr(cls, "__init__")
    return True


def replace_fields(state: T, changes: Mapping[str, Any]) -> T:
    """A new instance of the dataclass of ``state``, each field ``changes[name]`` when ``changes``
    names it and the value in ``state`` otherwise (``dataclasses.replace`` without ``__init__``: no
    check and no ``__post_init__``).  A key of ``changes`` that is not a field is ignored.

    The copying function is written once for each class and each list of changed names (a call
    site changes the same names, in the same order, every time).

    Raises:
        TypeError: ``state`` is not a dataclass instance.
    """
    key = (type(state), *changes)
    copier = _COPIERS.get(key)
    if copier is None:
        copier = _COPIERS[key] = _copier(type(state), tuple(changes))
    result: T = copier(state, changes)
    return result


_SETTERS: dict[tuple[type, tuple[str, ...]], Callable[[Any, tuple[Any, ...]], Any]] = {}
"""The copying function of each class and tuple of field names met so far (:func:`set_fields`)."""


def set_fields(state: T, names: tuple[str, ...], values: tuple[Any, ...]) -> T:
    """:func:`replace_fields` with the changes given as field names and their values, in the same
    order: ``names`` a constant tuple of the caller's (which picks a copying function written for
    it), ``values`` the new values.  Every name must be a field of the state's class.

    >>> from dataclasses import dataclass
    >>> @dataclass(frozen=True, slots=True)
    ... class Point:
    ...     x: int
    ...     y: int = 0
    >>> set_fields(Point(1, 2), ("y",), (5,))
    Point(x=1, y=5)

    Raises:
        TypeError: ``state`` is not a dataclass instance, or a name is not one of its fields.
    """
    setter = _SETTERS.get((type(state), names))
    if setter is None:
        setter = _SETTERS[type(state), names] = _setter(type(state), names)
    result: T = setter(state, values)
    return result


def applier(
    cls: type, names: tuple[str, ...], changes: Callable[..., tuple[tuple[str, ...], tuple[Any, ...]]], *extra: Any
) -> Callable[[Any, Any], Any]:
    """A function ``(state, event) -> state`` for states of class ``cls``: it asks
    ``changes(state, event, *extra)`` for ``(names, values)`` and, when the names are ``names``
    (the very tuple), copies the state with those fields set in one function written for them
    (:func:`set_fields` without its look-up); any other names go through :func:`set_fields`, and
    no names at all leave the state as it is.  A game's ``evolve`` dispatches each event to one.

    >>> from dataclasses import dataclass
    >>> @dataclass(frozen=True, slots=True)
    ... class Point:
    ...     x: int
    ...     y: int = 0
    >>> MOVE = ("y",)
    >>> move = applier(Point, MOVE, lambda state, step: (MOVE, (state.y + step,)))
    >>> move(Point(1, 2), 3)
    Point(x=1, y=5)

    Raises:
        TypeError: ``cls`` is no dataclass, or a name is not one of its fields.
    """
    fields = tuple(field.name for field in dataclasses.fields(cls))
    unknown = set(names) - set(fields)
    if unknown:
        raise TypeError(f"{cls.__name__} has no field(s) {sorted(unknown)}")
    env: dict[str, Any] = {
        "_new": object.__new__,
        "_cls": cls,
        "_builder": builder(cls),
        "_changes": changes,
        "_extra": extra,
        "_names": names,
        "_other": _other_changes,
    }
    lines = ["def apply(state, event):", "    names, values = _changes(state, event, *_extra)"]
    lines.append("    if names is not _names:")
    lines.append("        return _other(state, names, values)")
    lines.append("    new = _new(_builder)")
    lines.extend(
        f"    new.{n} = values[{names.index(n)}]" if n in names else f"    new.{n} = state.{n}" for n in fields
    )
    lines.extend(f"    new.{name} = None" for name in memo_slots(cls))
    lines.append("    new.__class__ = _cls")
    lines.append("    return new")
    exec("\n".join(lines), env)
    apply: Callable[[Any, Any], Any] = env["apply"]
    return apply


def _other_changes(state: T, names: tuple[str, ...], values: tuple[Any, ...]) -> T:
    """The copy :func:`applier` makes for names it was not written for (none: the state itself)."""
    return set_fields(state, names, values) if names else state


known_setter = _SETTERS.get
"""``known_setter((cls, names))``: the copying function :func:`set_fields` wrote for ``cls`` and
``names``, None before its first call with them (for the hottest callers, which save a call)."""


def _setter(cls: type, names: tuple[str, ...]) -> Callable[[Any, tuple[Any, ...]], Any]:
    """The copying function of ``cls`` taking ``names`` from a tuple of values (:func:`set_fields`)."""
    fields = tuple(field.name for field in dataclasses.fields(cls))
    unknown = set(names) - set(fields)
    if unknown:
        raise TypeError(f"{cls.__name__} has no field(s) {sorted(unknown)}")
    env: dict[str, Any] = {"_new": object.__new__, "_cls": cls, "_builder": builder(cls)}
    lines = ["def copy(state, values):", "    new = _new(_builder)"]
    lines.extend(
        f"    new.{n} = values[{names.index(n)}]" if n in names else f"    new.{n} = state.{n}" for n in fields
    )
    lines.extend(f"    new.{name} = None" for name in memo_slots(cls))
    lines.append("    new.__class__ = _cls")
    lines.append("    return new")
    exec("\n".join(lines), env)
    setter: Callable[[Any, tuple[Any, ...]], Any] = env["copy"]
    return setter


def memo_slots(cls: type) -> tuple[str, ...]:
    """The slots of ``cls`` that are not dataclass fields: values a state works out from its fields
    and keeps (:class:`Memo`).  A copy starts with each of them None: not worked out yet."""
    fields = {field.name for field in dataclasses.fields(cls)}
    names: list[str] = []
    for klass in cls.__mro__:
        for name in vars(klass).get("__slots__", ()):
            if name not in fields and not name.startswith("__") and name not in names:
                names.append(name)
    return tuple(names)


class Memo:
    """A base of the states that keep what they work out about themselves (their legal commands):
    one slot, :attr:`memo`, outside the dataclass fields, so it is no part of equality, of ``repr``,
    of pickling or of a snapshot.  A state never changes, so what is worked out once stays true.

    Reading it: ``state.memo``, None until set (a copy made by :func:`replace_fields`,
    :func:`set_fields` or :func:`applier` starts with None; a state made by its constructor has it
    unset, so a reader catches ``AttributeError`` too).  Setting it: ``object.__setattr__(state,
    "memo", value)`` (the frozen class refuses plain assignment), once, with an immutable value."""

    __slots__ = ("memo",)

    memo: Any
    """What the game worked out about this state, in the game's own shape; None (or unset, for a
    state made by its constructor) until then."""


def _copier(cls: type, changed: tuple[str, ...]) -> _Copier:
    """The copying function of ``cls`` changing the fields ``changed`` (other names are ignored):
    each field assigned, from ``changes`` or from the state, into a new builder object
    (:func:`builder`), each memo slot set to None, then the class set to ``cls``."""
    fields = tuple(field.name for field in dataclasses.fields(cls))
    for name in fields:
        if not name.isidentifier() or name.startswith("__"):
            raise TypeError(f"{cls.__name__}.{name} cannot be copied by name")
    env: dict[str, Any] = {"_new": object.__new__, "_cls": cls, "_builder": builder(cls)}
    lines = ["def copy(state, changes):", "    new = _new(_builder)"]
    lines.extend(f"    new.{n} = changes[{n!r}]" if n in changed else f"    new.{n} = state.{n}" for n in fields)
    lines.extend(f"    new.{name} = None" for name in memo_slots(cls))
    lines.append("    new.__class__ = _cls")
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
