"""The field list of every event of a game, read from its event classes (docs/record-events.md).

A record's event lines hold each event's payload: exactly the fields of its class at the line's
version (docs/record.md section 2.4).  This module reads those fields, their JSON types and who
may see them from the classes themselves, so that the documentation of a record cannot drift from
the code: ``python -m trapoula.domain.catalogue`` writes the Markdown of docs/record-events.md,
and a test compares the two.

* :func:`event_catalogue`: one game's events as :class:`EventEntry` values;
* :func:`json_type`: a field's Python annotation as JSON type text (``array of string``);
* :func:`catalogue_markdown` / :func:`catalogue_json`: the catalogue of several games, as a
  document or as JSON-ready data for programs, with each game's options and their defaults (what
  ``MatchStarted.options`` holds, REC7) and the upcast of every older version of an event.
"""

from __future__ import annotations

import dataclasses
import json
import sys
import types
import typing
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from trapoula.domain.cards import CardCode, SuitCode
from trapoula.domain.events import Event
from trapoula.domain.game import GameSpec
from trapoula.domain.upcasting import upcaster_for
from trapoula.domain.wire import as_read_back

__all__ = [
    "EventEntry",
    "FieldEntry",
    "UpcastEntry",
    "catalogue_json",
    "catalogue_markdown",
    "event_catalogue",
    "json_type",
]

_SCALAR_NAMES: Mapping[object, str] = {
    int: "integer",
    str: "string",
    bool: "boolean",
    float: "number",
    type(None): "null",
    typing.Any: "any",
}
"""JSON type names of the annotations a payload field may have (STYLE habit 6: plain data)."""

_NAMESPACE: Mapping[str, object] = {
    "Any": typing.Any,
    "None": None,
    "dict": dict,
    "tuple": tuple,
    "list": list,
    "CardCode": CardCode,
    "SuitCode": SuitCode,
}
"""What a field annotation written as text may name (events use only builtins, ``Any`` and the card
and suit codes, strings here; :mod:`trapoula.domain.schema` gives them their patterns)."""


@dataclass(frozen=True, slots=True)
class FieldEntry:
    """One payload field of an event class."""

    name: str
    type: str
    """JSON type text (:func:`json_type`): ``integer``, ``string or null``, ``array of string`` ..."""
    visibility: str
    """``public``; ``hidden`` (nobody sees it while the hand is in progress; the record holds it);
    or ``private`` (only the seats its event's ``private_to`` fields name see it)."""
    default: str | None
    """The JSON text of the default a payload written at an older version takes when it lacks the
    field (docs/events.md); None for a field every payload must hold."""


@dataclass(frozen=True, slots=True)
class UpcastEntry:
    """How a payload written at an older version of an event is read (docs/events.md section 2)."""

    from_version: int
    """The version the step starts from; it gives the payload of ``from_version + 1``."""
    upcast: str
    """What the step does: the first paragraph of its upcaster's docstring, or, for a step with no
    upcaster, that the payload is unchanged (a field it lacks takes its default)."""


@dataclass(frozen=True, slots=True)
class EventEntry:
    """One event class of a game: its wire name, schema version, platform role and fields."""

    name: str
    version: int
    """``Event.version``: the ``v`` of its record lines (1 when absent)."""
    role: str | None
    """The lifecycle role (:class:`~trapoula.domain.lifecycle.Role` value), None for none."""
    withheld: bool
    """True when only the seats its ``private_to`` fields name receive the event at all."""
    private_to: tuple[str, ...]
    """The fields naming the seats that see its private fields (and a withheld event)."""
    between_hands: bool
    summary: str
    """The first sentence of the class's docstring, with its rule numbers."""
    fields: tuple[FieldEntry, ...]
    upcasts: tuple[UpcastEntry, ...] = ()
    """One step per older version, from version 1 up (empty for an event at version 1)."""


def json_type(annotation: object) -> str:
    """The JSON type text of a field annotation (a type, or its text under postponed annotations).

    Tuples are JSON arrays: ``tuple[X, ...]`` reads ``array of X``, a fixed ``tuple[X, Y]`` reads
    ``[X, Y]``; dictionaries are ``object``; a union joins its members with ``or``.

    >>> json_type("tuple[str | None, ...]")
    'array of (string or null)'
    >>> json_type("tuple[int, int]")
    '[integer, integer]'

    Raises:
        ValueError: an annotation that is no JSON-ready type (an event field must be plain data).
    """
    if isinstance(annotation, str):
        annotation = eval(annotation, dict(_NAMESPACE))  # an annotation's text, as dataclasses keeps it
    return _type_text(annotation, nested=False)


def _type_text(annotation: object, nested: bool) -> str:
    if annotation is None:
        annotation = type(None)
    scalar = _SCALAR_NAMES.get(annotation)
    if scalar is not None:
        return scalar
    origin, args = typing.get_origin(annotation), typing.get_args(annotation)
    if origin is typing.Annotated:  # a card or suit code: its JSON type is its base type's
        return _type_text(args[0], nested)
    if origin in (types.UnionType, typing.Union):
        text = " or ".join(_type_text(arg, nested=True) for arg in args)
        return f"({text})" if nested else text
    if origin is dict or annotation is dict:
        return "object"
    if origin in (tuple, list):
        if origin is list or (len(args) == 2 and args[1] is Ellipsis):
            return f"array of {_type_text(args[0], nested=True)}"
        return "[" + ", ".join(_type_text(arg, nested=False) for arg in args) + "]"
    raise ValueError(f"{annotation!r} is not a JSON-ready field type")


def _summary(cls: type[Event]) -> str:
    """The class docstring's first sentence on one line (its first paragraph, up to a full stop)."""
    paragraph = (cls.__doc__ or "").strip().split("\n\n")[0]
    text = " ".join(line.strip() for line in paragraph.splitlines())
    end = text.find(". ")
    return text if end < 0 else text[: end + 1]


_NO_UPCASTER = "unchanged: a field the payload lacks takes its default"
"""What a step with no upcaster does (:func:`trapoula.domain.upcasting.upcast`)."""


def _upcasts(cls: type[Event]) -> tuple[UpcastEntry, ...]:
    """The steps from each older version of ``cls`` to the next, each told by its upcaster's docstring.

    Raises:
        ValueError: an upcaster without a docstring (a record's reader learns from it what the step does).
    """
    steps = []
    for version in range(1, cls.version):
        upcaster = upcaster_for(cls, version)
        if upcaster is None:
            steps.append(UpcastEntry(version, _NO_UPCASTER))
            continue
        doc = (upcaster.__doc__ or "").strip()
        if not doc:
            raise ValueError(
                f"the upcaster of {cls.event_name()} from version {version} has no docstring: "
                "docs/record-events.md tells a record's readers what it does"
            )
        steps.append(UpcastEntry(version, " ".join(doc.split("\n\n")[0].split())))
    return tuple(steps)


def _entry(name: str, cls: type[Event]) -> EventEntry:
    fields = []
    for f in dataclasses.fields(cls):  # type: ignore[arg-type]  # every event class is a dataclass
        if f.default is not dataclasses.MISSING:
            default: str | None = _json_text(f.default)
        elif f.default_factory is not dataclasses.MISSING:
            default = _json_text(f.default_factory())
        else:
            default = None
        visibility = "hidden" if f.name in cls.hidden else "private" if f.name in cls.private else "public"
        fields.append(FieldEntry(f.name, json_type(f.type), visibility, default))
    role = cls.role.value if cls.role is not None else None
    return EventEntry(
        name,
        cls.version,
        role,
        cls.withheld,
        cls.private_to,
        cls.between_hands,
        _summary(cls),
        tuple(fields),
        _upcasts(cls),
    )


def _json_text(value: Any) -> str:
    return json.dumps(list(value) if isinstance(value, tuple) else value, ensure_ascii=False)


def event_catalogue(spec: GameSpec[Any, Any]) -> tuple[EventEntry, ...]:
    """Every event of ``spec`` (``GameSpec.event_types``), sorted by name, with its fields in the
    order a payload writes them.

    Raises:
        ValueError: an event field whose annotation is not plain JSON-ready data.
    """
    return tuple(_entry(name, spec.event_types[name]) for name in sorted(spec.event_types))


def catalogue_json(specs: Iterable[GameSpec[Any, Any]]) -> dict[str, Any]:
    """The catalogue of ``specs`` as JSON-ready data: ``{game key: {"title", "players": [min, max],
    "seat_changes", "options": {option: default}, "events": [{"name", "version", "role", "withheld",
    "private_to", "between_hands", "summary", "fields": [{"name", "type", "visibility", "default"}],
    "upcasts": [{"from_version", "upcast"}]}]}}``, games in key order."""
    return {
        spec.key: {
            "title": spec.title,
            "players": [spec.min_players, spec.max_players],
            "seat_changes": spec.seat_changes,
            "options": as_read_back(dict(spec.option_defaults())),
            "events": [as_read_back(dataclasses.asdict(e)) for e in event_catalogue(spec)],
        }
        for spec in sorted(specs, key=lambda s: s.key)
    }


_HEADER = """\
# The events of each game, field by field

Generated from the event classes by `python -m trapoula.domain.catalogue` (`make docs`); a test
fails when this file and the code differ.  A record's event line (docs/record.md section 2.2)
holds in `payload` exactly the fields listed for its event at its current version (a line whose
`v` is older holds the fields of that version; docs/events.md).

- **v**: the event's schema version (docs/events.md); a line without `v` is at version 1.
- **role**: the platform role the event plays (`domain/trapoula/domain/lifecycle.py`): the
  platform reads a hand's start and reveal, a match's start and end and the seat changes only
  through these.
- A field is *public*, *hidden* (nobody sees it while the hand is in progress; the record holds
  it, and a later event reveals it) or *private* (only the seat its event names sees it while the
  hand is in progress; the others get `null`).  A *withheld* event reaches only that seat.
- *default*: the value a payload written at an older version takes when it lacks the field.
- Types are JSON: a card is a `string` code (docs/shuffle.md section 7), a seat an `integer`
  from 0.
- **Older versions**: for an event whose version is above 1, how a payload written at each older
  version is brought to the next (docs/events.md section 2), one step at a time; a line whose `v`
  is above the event's version is refused (REC6).
- **Players**: how many seats a table of the game may have, and whether players join and leave
  during a match (docs/record.md section 3.3).
- **Options**: every option of the game with its default.  `MatchStarted.options` lists every one,
  the defaults filled in; `TableCreated.options` holds those the table was created with (REC7,
  docs/record.md section 3.3).
"""


_RULE = "|---|---|---|---|---|"
"""The line under a table's header."""


def catalogue_markdown(specs: Iterable[GameSpec[Any, Any]]) -> str:
    """The Markdown of docs/record-events.md for ``specs``: a section per game (in key order), a
    table per game, an event a row."""
    lines = [_HEADER]
    for spec in sorted(specs, key=lambda s: s.key):
        lines += [
            f"## `{spec.key}`: {spec.title}",
            "",
            _players(spec),
            "",
            "| event | v | role | fields | what it says |",
            "|---|---|---|---|---|",
        ]
        for entry in event_catalogue(spec):
            name = f"`{entry.name}`" + (" (withheld)" if entry.withheld else "")
            role = f"`{entry.role}`" if entry.role else ""
            fields = "<br>".join(_field_text(f, entry.private_to) for f in entry.fields)
            summary = entry.summary.replace("``", "`").replace("|", "\\|")
            lines.append(f"| {name} | {entry.version} | {role} | {fields} | {summary} |")
        lines += ["", *_older_versions(spec), "", *_options(spec), ""]
    return "\n".join(lines)


def _players(spec: GameSpec[Any, Any]) -> str:
    """The line of a game's number of seats and whether players join and leave during a match (REC7)."""
    count = (
        f"{spec.min_players}" if spec.min_players == spec.max_players else f"{spec.min_players} to {spec.max_players}"
    )
    changes = (
        "players may join and leave during the match (seat changes: `SeatTaken` after the start, `JoinQueued`)"
        if spec.seat_changes
        else "no seat changes during the match"
    )
    return f"Players: {count}; {changes}."


def _older_versions(spec: GameSpec[Any, Any]) -> list[str]:
    """The section of a game's older event versions: a table of the steps, or a sentence when none."""
    steps = [(entry.name, step) for entry in event_catalogue(spec) for step in entry.upcasts]
    if not steps:
        return [
            "Older versions: none.  Every event above is at version 1: a line of one of them with `v` is refused "
            "(REC2 for a `v` that is not an integer above 1, REC6 for a higher one)."
        ]
    lines = ["Older versions:", "", "| event | from v | to v | the payload of the next version |", "|---|---|---|---|"]
    for name, step in steps:
        told = step.upcast.replace("``", "`").replace("|", "\\|")
        lines.append(f"| `{name}` | {step.from_version} | {step.from_version + 1} | {told} |")
    return lines


def _options(spec: GameSpec[Any, Any]) -> list[str]:
    """The table of a game's options and their defaults (``GameSpec.option_defaults``)."""
    lines = ["Options (`MatchStarted.options`):", "", "| option | default |", "|---|---|"]
    for key, value in spec.option_defaults().items():
        lines.append(f"| `{key}` | `{_json_text(value)}` |")
    return lines


def _field_text(entry: FieldEntry, private_to: Sequence[str]) -> str:
    text = f"`{entry.name}` {entry.type}"
    if entry.visibility == "private":
        text += f", private to `{'`, `'.join(private_to)}`"
    elif entry.visibility == "hidden":
        text += ", hidden"
    if entry.default is not None:
        text += f", default `{entry.default}`"
    return text.replace("|", "\\|")


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m trapoula.domain.catalogue [--json] [GAME ...]``: print the catalogue of the named
    games (every registered game when none is named) as Markdown, or as JSON with ``--json``.

    Exit status 2 with a message on standard error for a game that is not registered.
    """
    from trapoula.domain.registry import GAMES

    args = list(sys.argv[1:] if argv is None else argv)
    as_json = "--json" in args
    keys = [a for a in args if a != "--json"] or sorted(GAMES)
    unknown = [k for k in keys if k not in GAMES]
    if unknown:
        print(f"unknown game(s): {', '.join(unknown)}; registered: {', '.join(sorted(GAMES))}", file=sys.stderr)
        return 2
    specs = [GAMES[k] for k in keys]
    text = (
        json.dumps(catalogue_json(specs), ensure_ascii=False, indent=2) + "\n" if as_json else catalogue_markdown(specs)
    )
    sys.stdout.write(text)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
