"""Reading a game's options from plain data (each game's section 7): the checks the games' ``parse_options``
share.  A game keeps its own keys, choices and rules; these read a key or a value the way every game
reads it, with the game's key and rule in the message (reason ``bad_option``).

>>> whole(100.0), whole(2.5), is_int(3), is_int(True)
(100, 2.5, True, False)
>>> int_option("agonia", "target_points", 50.0, 0, 500, "R7.1")
50
"""

from __future__ import annotations

import dataclasses
import functools
import json
from collections.abc import Iterator, Mapping
from typing import Any, TypeGuard

from trapoula.domain.errors import InvalidInput

__all__ = ["int_option", "is_int", "option_items", "options_mapping", "plain_options", "whole"]


def whole(value: Any) -> Any:
    """An integral float (``100.0``, as JSON may give an integer) as an ``int``; anything else unchanged."""
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return value


def is_int(value: Any) -> TypeGuard[int]:
    """True for an ``int`` that is not a ``bool`` (plain data read from options, a configuration or a deal)."""
    return isinstance(value, int) and not isinstance(value, bool)


def shown(value: Any, limit: int = 32) -> str:
    """``value`` as an option error shows it: its JSON text (``null``, ``"x"``, ``true``, ``[1, 2]``),
    as the caller wrote it in any language, never a Python repr; cut to ``limit`` characters with an
    ellipsis.

    >>> shown(None), shown("x"), shown(True), shown(2.5)
    ('null', '"x"', 'true', '2.5')
    """
    try:
        text = json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError):  # not plain data (a caller in Python passed an object)
        text = type(value).__name__
    return text if len(text) <= limit else text[: limit - 1] + "\u2026"


def options_mapping(game: str, raw: Any) -> Mapping[str, Any]:
    """``raw``, the plain options of ``game``, checked to be a mapping (section 7).

    Raises:
        InvalidInput: anything else (``bad_option``).
    """
    if not isinstance(raw, Mapping):
        raise InvalidInput(f"{game} options {shown(raw)} are not a mapping (section 7)", reason="bad_option")
    return raw


def int_option(game: str, key: str, value: Any, low: int, high: int, rule: str) -> int:
    """The option ``key`` of ``game`` as an integer from ``low`` to ``high`` (an integral float accepted,
    :func:`whole`), the game's ``rule`` for it named in the message.

    Raises:
        InvalidInput: anything else (``bad_option``): ``"<game> option <key>=<value>: expected an
            integer from <low> to <high> (<rule>)"``.
    """
    value = whole(value)
    if not is_int(value) or not low <= value <= high:
        raise InvalidInput(
            f"{game} option {key}={shown(value)}: expected an integer from {low} to {high} ({rule})",
            reason="bad_option",
        )
    return value


def option_items(game: str, raw: Mapping[str, Any], options: type) -> Iterator[tuple[str, Any]]:
    """The ``(key, value)`` pairs of the plain options ``raw`` in their order, each key checked, as it
    comes, to be a field of the game's dataclass ``options`` (its section 7).

    Raises:
        InvalidInput: an unknown key (``bad_option``), the known ones listed.
    """
    fields = {f.name for f in dataclasses.fields(options)}
    for key, value in raw.items():
        if key not in fields:
            raise InvalidInput(
                f"unknown {game} option {key!r}; known: {', '.join(sorted(fields))} ({game} section 7)",
                reason="bad_option",
            )
        yield key, value


_last: list[tuple[object, dict[str, Any]]] = [(object(), {})]
"""The options value :func:`plain_options` wrote last, with its dict (one assignment: a concurrent
reader sees an old pair or the new one)."""


@functools.lru_cache(maxsize=256)
def _as_dict(options: Any) -> dict[str, Any]:
    """The options as plain data, built once per value (views ask for them at every event)."""
    return dataclasses.asdict(options)


def plain_options(options: Any) -> dict[str, Any]:
    """A game's options value (a frozen dataclass) as plain data, a fresh dict each call (its
    ``to_dict``, section 7): every view of a table asks for the same options object's, so the last
    one's is kept at hand, and each value's is built once."""
    last = _last[0]
    if last[0] is not options:
        last = _last[0] = (options, _as_dict(options))
    return dict(last[1])
