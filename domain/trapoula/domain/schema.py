"""Each game's JSON Schema (draft 2020-12): its commands, events, views and options, generated from
the domain's own types, so that a client in any language can generate its types from it
(docs/schemas/README.md).

Nothing here is written per game.  :func:`game_schema` reads a :class:`~trapoula.domain.game.GameSpec`:

* **commands**: the classes of the union that the game's ``parse_command`` returns, and the table's
  command that its ``deal_command`` returns: each class's dataclass fields and their type hints (a
  class whose plain form is not its fields names them in ``plain_fields``, as ``next_hand`` does);
  a field with a default may be left out.  The ``kind`` is the class's ``kind`` (a
  :class:`~trapoula.domain.game.SeatCommand`'s) or its name in snake case (``LayDown``: ``lay_down``).
* **events**: ``event_types``, each class's dataclass fields and type hints; every field is in every
  payload (:func:`~trapoula.domain.events.to_payload`), and a hidden or private field may be null,
  as a viewer is shown it (:func:`~trapoula.domain.events.redact`).
* **options**: the dataclass that the game's ``parse_options`` returns, its fields' defaults as
  ``option_defaults`` writes them; every key may be left out.
* **views**: the ``TypedDict`` the game names in ``GameSpec.view_type`` (its views module's
  ``VIEW_TYPE``), whose ``legal`` entries are commands; a game that names none gets an open object
  with its ``legal`` list.

Type hints map to JSON Schema as plain data does: ``int`` an integer, ``str`` a string, a tuple or
list an array (``tuple[X, Y]`` of exactly those items), a ``dict`` an object, a union ``anyOf`` (or
a list of types), a ``Literal`` or an enumeration its values; a :class:`~trapoula.domain.cards.Card`
or a :data:`~trapoula.domain.cards.CardCode` the ``card`` definition (``^[23456789TJQKA][CDHS]$``,
S2.1), a :class:`~trapoula.domain.cards.Suit` or :data:`~trapoula.domain.cards.SuitCode` the
``suit`` definition; ``Annotated[T, Wire(...)]`` adds what the type cannot say
(:mod:`trapoula.domain.wire`: ranges, patterns, references).  Objects generated from a class are
closed (``additionalProperties: false``).  Descriptions are the classes' docstrings and their
fields' attribute docstrings, where the source can be read.

The document: ``$defs`` holds ``card``, ``suit``, ``command.<kind>`` for each command and ``command``
(one of them), ``event.<Name>`` for each event's payload, ``options``, ``view`` (and the
``TypedDict`` definitions it uses, by class name), ``seat_view`` and ``spectator_view``; the top
level lists them by role in its ``properties`` (``command``, ``events`` by name, ``options``,
``seat_view``, ``spectator_view``), so that a generator emits a type for each.  It describes no
message of its own.

``python -m trapoula.domain.schema DIR [GAME ...]`` writes ``DIR/<game>.json`` for the named games
(every registered game when none is named); ``make docs`` writes docs/schemas/, and a test fails
when those files and the code differ.

>>> from trapoula.domain.registry import GAMES
>>> doc = game_schema(GAMES["agonia"])
>>> doc["$defs"]["card"]["pattern"], doc["$defs"]["command.play"]["required"]
('^[23456789TJQKA][CDHS]$', ['card', 'kind', 'seat'])
"""

from __future__ import annotations

import ast
import dataclasses
import enum
import functools
import inspect
import itertools
import json
import re
import sys
import textwrap
import threading
import types
import typing
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from trapoula.domain.cards import Card, Rank, Suit
from trapoula.domain.events import Event
from trapoula.domain.game import GameSpec
from trapoula.domain.wire import Wire

__all__ = ["DIALECT", "command_classes", "command_kind", "game_schema", "main", "schema_text", "type_schema"]

DIALECT = "https://json-schema.org/draft/2020-12/schema"
"""The JSON Schema dialect of every game's schema (``$schema``)."""

Schema = dict[str, Any]
"""A JSON Schema as plain data."""

_CARD_PATTERN = "^[" + "".join(r.value for r in Rank) + "][" + "".join(s.value for s in Suit) + "]$"
"""A card code: a rank then a suit (S2.1), from :class:`~trapoula.domain.cards.Rank` and ``Suit``."""


def _ref(name: str) -> Schema:
    return {"$ref": f"#/$defs/{name}"}


def command_kind(cls: type) -> str:
    """The ``kind`` of a command class's plain form: its ``kind`` attribute when it is a string (a
    :class:`~trapoula.domain.game.SeatCommand`), else its name in snake case (``ChooseSuit``:
    ``choose_suit``, ``NextHand``: ``next_hand``).

    >>> from trapoula.domain.game import NextHand
    >>> command_kind(NextHand)
    'next_hand'
    """
    kind = getattr(cls, "kind", None)
    if isinstance(kind, str):
        return kind
    return re.sub(r"(?<!^)(?=[A-Z])", "_", cls.__name__).lower()


def _members(annotation: Any) -> tuple[Any, ...]:
    """The members of a union (an ``X | Y`` or a ``Union``), else ``(annotation,)``."""
    if typing.get_origin(annotation) in (types.UnionType, typing.Union):
        return typing.get_args(annotation)
    return (annotation,)


def _returns(function: Any) -> Any:
    """The return annotation of ``function``, resolved in its module; None where it has none or it
    does not resolve (a plug-in's function without hints)."""
    try:
        return typing.get_type_hints(function, include_extras=True).get("return")
    except Exception:  # an unresolvable hint is no hint
        return None


def command_classes(spec: GameSpec[Any, Any]) -> tuple[type, ...]:
    """The command classes of ``spec``: the dataclasses of the union its ``parse_command`` returns,
    then the one its ``deal_command`` returns (the table's ``next_hand``), each once, in that order;
    empty when the annotations name none (the schema then accepts any object with a ``kind``)."""
    found: list[type] = []
    for function in (spec.parse_command, spec.deal_command):
        for member in _members(_returns(function)):
            if isinstance(member, type) and dataclasses.is_dataclass(member) and member not in found:
                found.append(member)
    return tuple(found)


@functools.cache
def _attribute_docs(cls: type) -> Mapping[str, str]:
    """Field name -> the attribute docstring written under it in the class body (and its bases');
    empty where the source cannot be read."""
    docs: dict[str, str] = {}
    for klass in reversed(cls.__mro__):
        if klass is object:
            continue
        try:
            tree = ast.parse(textwrap.dedent(inspect.getsource(klass)))
        except (OSError, TypeError, SyntaxError):
            continue
        body = tree.body[0].body if tree.body and isinstance(tree.body[0], ast.ClassDef) else []
        for here, after in itertools.pairwise(body):
            if (
                isinstance(here, ast.AnnAssign)
                and isinstance(here.target, ast.Name)
                and isinstance(after, ast.Expr)
                and isinstance(after.value, ast.Constant)
                and isinstance(after.value.value, str)
            ):
                docs[here.target.id] = _one_line(after.value.value)
    return docs


@functools.cache
def _field_hints(cls: type) -> Mapping[str, Any]:
    """Each dataclass field's type hint, its text (postponed annotations) evaluated in the module of
    the class that declares it; only the fields are read, not the class variables (whose hints may
    name what the module imports for the type checker alone)."""
    names = {f.name for f in dataclasses.fields(cls)}
    hints: dict[str, Any] = {}
    for klass in reversed(cls.__mro__):
        namespace = vars(sys.modules[klass.__module__])
        for name, hint in vars(klass).get("__annotations__", {}).items():
            if name in names:
                hints[name] = eval(hint, dict(namespace)) if isinstance(hint, str) else hint
    return hints


def _one_line(text: str) -> str:
    return " ".join(text.split())


def _class_doc(cls: type) -> str:
    """The first paragraph of the class's own docstring, on one line."""
    doc = cls.__dict__.get("__doc__") or ""
    return _one_line(inspect.cleandoc(doc).split("\n\n")[0]) if doc else ""


def _title(name: str) -> str:
    """``lay_down`` -> ``LayDown``."""
    return "".join(part[:1].upper() + part[1:] for part in re.split(r"[_.]", name) if part)


class _Builder:
    """Turns the type hints of one game into JSON Schema, gathering the ``$defs`` it needs."""

    def __init__(self) -> None:
        self.defs: dict[str, Schema] = {}

    def of(self, annotation: Any, where: str) -> Schema:
        """The schema of a type hint (see the module docstring); ``where`` names the field for errors.

        Raises:
            TypeError: a hint with no plain-data form (a set, a class that is no dataclass).
        """
        if annotation is None or annotation is type(None):
            return {"type": "null"}
        origin, args = typing.get_origin(annotation), typing.get_args(annotation)
        if origin is typing.Annotated:
            return self._annotated(args[0], args[1:], where)
        if origin in (typing.NotRequired, typing.Required, typing.ClassVar):
            return self.of(args[0], where)
        simple = _SIMPLE.get(annotation)
        if simple is not None:
            return dict(simple)
        if annotation in (Any, object):
            return {}
        if annotation is Card:
            return _ref("card")
        if annotation is Suit:
            return _ref("suit")
        if origin in (types.UnionType, typing.Union):
            return _union([self.of(arg, where) for arg in args])
        if origin is typing.Literal:
            return _enum(list(args))
        if isinstance(annotation, type) and issubclass(annotation, enum.Enum):
            return _enum([member.value for member in annotation])
        if origin in (tuple, list) or annotation in (tuple, list) or _is_abc(origin, "Sequence"):
            return self._array(origin, args, where)
        if origin is dict or annotation is dict or _is_abc(origin, "Mapping"):
            value = self.of(args[1], where) if len(args) == 2 else {}
            return {"type": "object", "additionalProperties": value} if value else {"type": "object"}
        if typing.is_typeddict(annotation):
            return self.typed_dict(annotation)
        if isinstance(annotation, type) and dataclasses.is_dataclass(annotation):
            return self.dataclass(annotation, all_required=False)
        raise TypeError(f"{where}: {annotation!r} has no plain-data (JSON) form")

    def _annotated(self, base: Any, metadata: Sequence[Any], where: str) -> Schema:
        wires = [m for m in metadata if isinstance(m, Wire)]
        schema = self.of(base, where) if not any(w.replace for w in wires) else {}
        for wire in wires:
            extra = wire.schema()
            if wire.replace or "$ref" in extra:
                schema = {}
            schema.update(extra)
        return schema

    def _array(self, origin: Any, args: tuple[Any, ...], where: str) -> Schema:
        if origin is tuple and args and not (len(args) == 2 and args[1] is Ellipsis):
            items = [self.of(arg, where) for arg in args]
            return {"type": "array", "prefixItems": items, "items": False, "minItems": len(items)}
        return {"type": "array", "items": self.of(args[0], where)} if args else {"type": "array"}

    def fields(self, cls: type, where: str) -> list[tuple[str, Any, bool]]:
        """``(name, hint, has a default)`` of each dataclass field of ``cls``, in declaration order."""
        hints = _field_hints(cls)
        out = []
        for f in dataclasses.fields(cls):
            has_default = f.default is not dataclasses.MISSING or f.default_factory is not dataclasses.MISSING
            out.append((f.name, hints[f.name], has_default))
        return out

    def dataclass(self, cls: type, all_required: bool) -> Schema:
        """A closed object of the dataclass's fields: required are those without a default, or all."""
        docs = _attribute_docs(cls)
        properties: dict[str, Schema] = {}
        required: list[str] = []
        for name, hint, has_default in self.fields(cls, cls.__name__):
            properties[name] = _described(self.of(hint, f"{cls.__name__}.{name}"), docs.get(name))
            if all_required or not has_default:
                required.append(name)
        return _object(properties, required, _class_doc(cls))

    def typed_dict(self, cls: Any) -> Schema:
        """A ``$ref`` to the closed object of the ``TypedDict`` ``cls`` (defined once, by class name)."""
        name = cls.__name__
        if name not in self.defs:
            self.defs[name] = {}  # a placeholder: a TypedDict may name itself
            hints = typing.get_type_hints(cls, include_extras=True)
            docs = _attribute_docs(cls)
            properties = {key: _described(self.of(hint, f"{name}.{key}"), docs.get(key)) for key, hint in hints.items()}
            optional = {key for key, hint in hints.items() if _is_not_required(hint)}
            required = [key for key in hints if key not in optional and (cls.__total__ or _is_required(hints[key]))]
            schema = _object(properties, required, _class_doc(cls))
            self.defs[name] = {"title": name, **schema}
        return _ref(name)


def _is_required(hint: Any) -> bool:
    origin: Any = typing.get_origin(hint)
    return origin is typing.Required


def _is_not_required(hint: Any) -> bool:
    origin: Any = typing.get_origin(hint)
    return origin is typing.NotRequired


def _is_abc(origin: Any, name: str) -> bool:
    import collections.abc

    return origin is getattr(collections.abc, name)


_SIMPLE: Mapping[Any, Schema] = {
    bool: {"type": "boolean"},
    int: {"type": "integer"},
    float: {"type": "number"},
    str: {"type": "string"},
}
"""The scalar hints."""


def _described(schema: Schema, description: str | None) -> Schema:
    return {**schema, "description": description} if description else schema


def _object(properties: Mapping[str, Schema], required: Sequence[str], description: str) -> Schema:
    out: Schema = {"type": "object", "properties": dict(properties), "required": sorted(required)}
    out["additionalProperties"] = False
    if description:
        out["description"] = description
    return out


def _union(members: list[Schema]) -> Schema:
    """``anyOf`` the members; a union of bare types is one list of types (``["string", "null"]``)."""
    if all(set(m) == {"type"} and isinstance(m["type"], str) for m in members):
        return {"type": [m["type"] for m in members]}
    nulls = [m for m in members if m == {"type": "null"}]
    others = [m for m in members if m != {"type": "null"}]
    if nulls and len(others) == 1 and set(others[0]) == {"enum"}:
        return {"enum": [*others[0]["enum"], None]}
    return {"anyOf": members}


def _enum(values: list[Any]) -> Schema:
    kinds = {type(v) for v in values}
    schema: Schema = {"enum": values}
    if kinds == {str}:
        schema["type"] = "string"
    elif kinds == {int}:
        schema["type"] = "integer"
    return schema


def _nullable(schema: Schema) -> Schema:
    """``schema`` or null (a hidden or private field as a viewer is shown it)."""
    if schema.get("type") == "null" or schema == {}:
        return schema
    kind = schema.get("type")
    if isinstance(kind, list):
        return schema if "null" in kind else {**schema, "type": [*kind, "null"]}
    if isinstance(kind, str) and set(schema) <= {"type", "description"}:
        return {**schema, "type": [kind, "null"]}
    return {"anyOf": [schema, {"type": "null"}]}


def _command_defs(spec: GameSpec[Any, Any], builder: _Builder) -> dict[str, Schema]:
    defs: dict[str, Schema] = {}
    for cls in command_classes(spec):
        kind = command_kind(cls)
        plain = getattr(cls, "plain_fields", None)
        if isinstance(plain, Mapping):
            properties = {name: builder.of(hint, f"{cls.__name__}.{name}") for name, hint in plain.items()}
            required = [name for name, hint in plain.items() if not _is_not_required(hint)]
            schema = _object(properties, required, _class_doc(cls))
        else:
            schema = builder.dataclass(cls, all_required=False)
        schema["properties"] = {"kind": {"const": kind}, **schema["properties"]}
        schema["required"] = sorted(["kind", *schema["required"]])
        defs[f"command.{kind}"] = {"title": f"{_title(kind)}Command", **schema}
    if defs:
        defs["command"] = {
            "title": "Command",
            "description": f"Any {spec.key} command, told apart by its kind (section 8).",
            "oneOf": [_ref(name) for name in sorted(defs)],
        }
    else:
        defs["command"] = {
            "title": "Command",
            "description": f"A {spec.key} command: its kind and its fields (section 8).",
            "type": "object",
            "properties": {"kind": {"type": "string"}},
            "required": ["kind"],
        }
    return defs


def _event_def(name: str, cls: type[Event], builder: _Builder) -> Schema:
    schema = builder.dataclass(cls, all_required=True)
    for field_name, field_schema in schema["properties"].items():
        if field_name in cls.hidden:
            note = "Hidden: null for every viewer while the hand is in progress; the record holds it."
        elif field_name in cls.private:
            note = f"Private: null for every viewer but the seats named by {', '.join(cls.private_to)}."
        else:
            continue
        described = field_schema.get("description")
        field_schema = _nullable({k: v for k, v in field_schema.items() if k != "description"})
        field_schema["description"] = f"{described} {note}" if described else note
        schema["properties"][field_name] = field_schema
    if cls.withheld:
        schema["description"] = (
            f"{schema.get('description', '')} Withheld: only the seats named by {', '.join(cls.private_to)} receive it."
        ).strip()
    return {"title": f"{name}Event", "x-version": cls.version, **schema}


def _options_def(spec: GameSpec[Any, Any], builder: _Builder) -> Schema:
    cls = _returns(spec.parse_options)
    defaults = spec.option_defaults()
    if not (isinstance(cls, type) and dataclasses.is_dataclass(cls)):
        return {"title": "Options", "type": "object", "default": defaults}
    schema = builder.dataclass(cls, all_required=False)
    for key, value in defaults.items():
        if key in schema["properties"]:
            schema["properties"][key]["default"] = value
    schema["required"] = []
    return {"title": cls.__name__, **schema}


def _view_defs(spec: GameSpec[Any, Any], builder: _Builder) -> dict[str, Schema]:
    view_type = spec.view_type
    if view_type is not None:
        ref = builder.typed_dict(view_type)
        properties = builder.defs[view_type.__name__]["properties"]
    else:
        ref = {
            "type": "object",
            "properties": {"legal": {"type": "array", "items": _ref("command")}},
            "required": ["legal"],
        }
        properties = ref["properties"]
    seat: Schema = {"properties": {"seat": {"type": "integer", "minimum": 0}}} if "seat" in properties else {}
    spectator: dict[str, Schema] = {}
    if "seat" in properties:
        spectator["seat"] = {"type": "null"}
    if "legal" in properties:
        spectator["legal"] = {"maxItems": 0}
    return {
        "view": {"title": "View", "description": f"What a seat or a spectator sees of a {spec.key} match.", **ref},
        "seat_view": {
            "title": "SeatView",
            "description": "What one seat sees, with its legal commands (S13.1).",
            "allOf": [_ref("view"), *([seat] if seat else [])],
        },
        "spectator_view": {
            "title": "SpectatorView",
            "description": "What a spectator sees: no hand of its own, no legal command (S13.2).",
            "allOf": [_ref("view"), *([{"properties": spectator}] if spectator else [])],
        },
    }


def _build(spec: GameSpec[Any, Any]) -> Schema:
    builder = _Builder()
    defs: dict[str, Schema] = {
        "card": {
            "title": "Card",
            "description": "A card code: its rank (2-9, T, J, Q, K, A) then its suit (C, D, H, S) (S2.1).",
            "type": "string",
            "pattern": _CARD_PATTERN,
        },
        "suit": {"title": "Suit", "description": "A suit letter (S2.1).", **_enum([s.value for s in Suit])},
    }
    defs.update(_command_defs(spec, builder))
    events = {name: _event_def(name, cls, builder) for name, cls in sorted(spec.event_types.items())}
    defs.update({f"event.{name}": schema for name, schema in events.items()})
    defs["options"] = _options_def(spec, builder)
    defs.update(_view_defs(spec, builder))
    for name, schema in builder.defs.items():
        defs.setdefault(name, schema)
    return {
        "$schema": DIALECT,
        "$id": f"urn:trapoula:game:{spec.key}",
        "title": spec.title,
        "description": f"{spec.summary} The commands, events, views and options of {spec.key}, "
        "generated from its types; the top level lists the definitions by role.",
        "type": "object",
        "properties": {
            "command": _ref("command"),
            "events": {
                "type": "object",
                "properties": {name: _ref(f"event.{name}") for name in events},
                "additionalProperties": False,
            },
            "options": _ref("options"),
            "seat_view": _ref("seat_view"),
            "spectator_view": _ref("spectator_view"),
        },
        "$defs": defs,
    }


def type_schema(annotation: Any) -> tuple[Schema, dict[str, Schema]]:
    """The JSON Schema of a plain-data type hint (a ``TypedDict``, a dataclass, a union ...) as this
    module writes a game's, and the ``$defs`` it names (``TypedDict`` definitions by class name,
    ``card``, ``suit``): for the platform's own wire shapes (the service's table events and the
    ``table`` part of its views), built by the same rules as the games'.

    Raises:
        TypeError: a hint with no plain-data form.
    """
    builder = _Builder()
    schema = builder.of(annotation, getattr(annotation, "__name__", repr(annotation)))
    return schema, dict(builder.defs)


_TEXTS: dict[int, tuple[GameSpec[Any, Any], str]] = {}
"""The schema text of each spec met so far, by ``id`` (the spec kept, so its id is not reused)."""
_LOCK = threading.Lock()


def schema_text(spec: GameSpec[Any, Any]) -> str:
    """``spec``'s schema as JSON text: sorted keys, two-space indents, a trailing newline (the form of
    docs/schemas/<game>.json); built once per spec, then served from memory (the service's to send).

    Raises:
        TypeError: a field whose type hint has no plain-data form.
    """
    known = _TEXTS.get(id(spec))
    if known is not None and known[0] is spec:
        return known[1]
    text = json.dumps(_build(spec), indent=2, sort_keys=True, ensure_ascii=False) + "\n"
    with _LOCK:
        _TEXTS[id(spec)] = (spec, text)
    return text


def game_schema(spec: GameSpec[Any, Any]) -> Schema:
    """``spec``'s JSON Schema document (see the module docstring), a fresh copy each call, read from
    :func:`schema_text`'s cached text.

    Raises:
        TypeError: a field whose type hint has no plain-data form.
    """
    schema: Schema = json.loads(schema_text(spec))
    return schema


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m trapoula.domain.schema DIR [GAME ...]``: write ``DIR/<game>.json`` for each named
    game (every registered game when none is named).

    Exit status 2 with a message on standard error without a directory or for a game that is not
    registered.
    """
    from trapoula.domain.registry import GAMES

    args = list(sys.argv[1:] if argv is None else argv)
    if not args:
        print("usage: python -m trapoula.domain.schema DIR [GAME ...]", file=sys.stderr)
        return 2
    directory, keys = Path(args[0]), args[1:] or sorted(GAMES)
    unknown = [k for k in keys if k not in GAMES]
    if unknown:
        print(f"unknown game(s): {', '.join(unknown)}; registered: {', '.join(sorted(GAMES))}", file=sys.stderr)
        return 2
    directory.mkdir(parents=True, exist_ok=True)
    for key in keys:
        (directory / f"{key}.json").write_text(schema_text(GAMES[key]), encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
