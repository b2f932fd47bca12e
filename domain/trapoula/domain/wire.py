"""What a type says of its plain-data (JSON) form beyond its Python type, for the games' published
JSON Schemas (:mod:`trapoula.domain.schema`).

A field's annotation says what Python holds; ``Annotated[T, Wire(...)]`` adds what the JSON form of
the value must further be, so that the schema generated from the type is as precise as the rules:

* JSON Schema keywords merged into the schema generated from ``T`` (``Wire(minimum=0)``,
  ``Wire(enum=["stock", "discard"])``);
* a reference to a definition every game's schema has (``Wire(ref="card")``: a card code, S2.1;
  ``suit``, ``command``, ``options``);
* the whole schema where the plain form is not the Python one (``Wire(replace=True, type="object",
  ...)``: ``mau_mau``'s ``computer_seats`` is a tuple of pairs in Python, an object in JSON).

The aliases below are the references the domain's own types use.  Annotated types are plain ``T``
to Python and to the type checker.

>>> Wire(minimum=0, maximum=10).schema()
{'maximum': 10, 'minimum': 0}
>>> Wire(ref="card").schema()
{'$ref': '#/$defs/card'}
"""

from __future__ import annotations

import enum
import json
from dataclasses import dataclass
from typing import Annotated, Any, TypeAlias

__all__ = ["CommandPayload", "OptionsPayload", "Wire", "as_read_back", "values_of"]


@dataclass(frozen=True, slots=True, init=False)
class Wire:
    """JSON Schema precision for an ``Annotated`` type (see the module docstring).

    ``Wire(ref=None, replace=False, **keywords)``: ``ref`` names a definition of the game's schema
    (``card``, ``suit``, ``command``, ``options``, ``event.<Name>``) that the value is; ``keywords``
    are JSON Schema keywords (their values plain data); ``replace`` makes them the whole schema
    instead of additions to the one generated from the annotated type.
    """

    ref: str | None
    """The ``$defs`` name the value refers to, None for none."""
    replace: bool
    """True: :meth:`schema` is the whole schema of the value."""
    keywords_json: str
    """The keywords as sorted JSON text (so that a ``Wire`` is hashable, as ``Annotated`` wants)."""

    def __init__(self, *, ref: str | None = None, replace: bool = False, **keywords: Any) -> None:
        object.__setattr__(self, "ref", ref)
        object.__setattr__(self, "replace", replace)
        object.__setattr__(self, "keywords_json", json.dumps(keywords, sort_keys=True))

    def schema(self) -> dict[str, Any]:
        """The JSON Schema keywords this adds (a fresh dict): ``$ref`` when it names a definition,
        then its keywords."""
        out: dict[str, Any] = {"$ref": f"#/$defs/{self.ref}"} if self.ref is not None else {}
        out.update(json.loads(self.keywords_json))
        return out


def as_read_back(value: Any) -> Any:
    """``value`` as JSON reads it back: every tuple made a list, inside lists and dicts too (other
    values as they are).

    >>> as_read_back({"seats": (0, 1), "pairs": [("a", 1)], "n": 2})
    {'seats': [0, 1], 'pairs': [['a', 1]], 'n': 2}
    """
    if isinstance(value, tuple | list):
        return [as_read_back(v) for v in value]
    if isinstance(value, dict):
        return {k: as_read_back(v) for k, v in value.items()}
    return value


def values_of(enumeration: type[enum.Enum]) -> Wire:
    """The ``Wire`` of a string holding the value of one of ``enumeration``'s members (a view's
    ``phase``): ``Annotated[str, values_of(Phase)]``.

    >>> class Side(enum.Enum):
    ...     LEFT = "left"
    ...     RIGHT = "right"
    >>> values_of(Side).schema()
    {'enum': ['left', 'right']}
    """
    return Wire(enum=[member.value for member in enumeration])


CommandPayload: TypeAlias = Annotated[dict[str, Any], Wire(ref="command")]
"""A command in its plain-data form (each game's section 8), as a view's ``legal`` list holds them."""

OptionsPayload: TypeAlias = Annotated[dict[str, Any], Wire(ref="options")]
"""A game's options in their plain-data form (each game's section 7), as views and ``MatchStarted`` hold them."""
