"""The schema a client of the service types its messages from (``GetGameSchema``, docs/schemas/).

A game's own schema (:func:`trapoula.domain.schema.game_schema`) describes its commands, events,
views and options.  What the service sends holds more, all of it described here as ``TypedDict``
types and turned into JSON Schema by the same rules (:func:`trapoula.domain.schema.type_schema`):

* every view (``View.view_json``) is the game's view plus ``acting`` (the seats the match waits
  for) and ``table`` (:class:`TablePart`: the table's id, version, status, seats, kind, the
  viewer and the hand awaiting the players' seeds);
* the table's own events (``Event.payload_json`` of ``TableCreated``, ``SeatTaken``,
  ``JoinQueued``, ``SeedCommitted``, ``SeedGiven`` and ``ServerSeedRevealed``, docs/record.md 2.4).

:func:`served_schema_text` is the game's schema with these added: ``$defs.table`` and the
definitions they use, ``acting`` and ``table`` among the view's properties, ``table_event.<Name>``
for each table event and ``table_events`` listing them at the top level.  Built once per game.
docs/schemas/table.json holds the platform's part alone (:func:`platform_schema_text`;
``python -m trapoula.service.served DIR`` writes it, ``make docs`` runs that).
"""

from __future__ import annotations

import json
import sys
import threading
from collections.abc import Sequence
from pathlib import Path
from typing import Any, Literal, TypedDict

from trapoula.domain.clock import CLOCK_DEFAULTS, CLOCK_OPTION, MAX_BANK_SECONDS, MAX_MOVE_SECONDS
from trapoula.domain.game import GameSpec
from trapoula.domain.schema import DIALECT, game_schema, type_schema
from trapoula.domain.tableevents import TABLE_EVENT_TYPES

__all__ = ["TABLE_EVENT_TYPES", "TablePart", "main", "platform_schema", "platform_schema_text", "served_schema_text"]


class TakenSeat(TypedDict):
    """A seat someone holds."""

    seat: int
    name: str
    bot: str | None
    """The bot's level, or null for a person."""


class FreeSeat(TypedDict):
    """A seat nobody holds."""

    seat: int
    free: Literal[True]


class SeedPart(TypedDict):
    """The hand awaiting the players' seeds (docs/shuffle.md 2a)."""

    hand: int
    commitment: str
    """SHA-256 of the server's seed of that hand, published before any seat gave one."""
    given: list[int]
    """The seats that gave theirs, in seat order."""


class SeatDeadline(TypedDict):
    """A seat whose move is awaited, and when its time runs out (docs/clock.md C2)."""

    seat: int
    deadline: str
    """RFC 3339 in UTC, to the millisecond: its time per move and its bank left, from when it became due."""


class ClockPart(TypedDict):
    """A table's turn clocks (docs/clock.md)."""

    move_seconds: int
    bank_seconds: int
    policy: str
    """What is done for a seat whose time ran out (C4)."""
    deadlines: list[SeatDeadline]
    """The seats whose move is awaited, earliest deadline first."""
    banks: list[float]
    """Each seat's bank left, in seconds (C3), as of its last move."""


class TablePart(TypedDict):
    """The ``table`` part of every view the service sends."""

    table_id: str
    version: int
    """The viewer's position in the table's log (``Event.version``)."""
    status: Literal["open", "ready", "playing", "over"]
    seats: list[TakenSeat | FreeSeat]
    manual_deal: bool
    """True at a table created for explicit deals (S5.3)."""
    viewer: Literal["seat", "owner", "spectator", "former", "waiting"]
    seat: int | None
    """The viewer's seat, or null."""
    needs_deal: bool
    """True when the table waits for ``next_hand`` (a table for explicit deals, between hands)."""
    seed: SeedPart | None
    """The hand awaiting the players' seeds, or null."""
    clock: ClockPart | None
    """The turn clocks of a table with a time control (docs/clock.md), else null."""


_TEXTS: dict[str, str] = {}
_LOCK = threading.Lock()


def platform_schema() -> dict[str, Any]:
    """The platform's part of every served schema (docs/schemas/table.json): ``$defs`` holding
    ``table`` (:class:`TablePart`), ``table_event.<Name>`` for each table event and the
    definitions they use; ``properties`` listing them by role.

    Raises:
        TypeError: a platform type with no plain-data form (a defect here).
    """
    table, defs = type_schema(TablePart)
    defs["table"] = table
    defs["time_control"] = _time_control()
    events = {}
    for name, cls in TABLE_EVENT_TYPES.items():
        ref, more = type_schema(cls)
        defs.update(more)
        defs[f"table_event.{name}"] = ref
        events[name] = {"$ref": f"#/$defs/table_event.{name}"}
    return {
        "$schema": DIALECT,
        "$id": "urn:trapoula:table",
        "title": "Table",
        "description": "What the service adds to every game's messages: the table part of its views and "
        "the table's own events (docs/record.md 2.4). GetGameSchema serves each game's schema with these "
        "definitions merged in, the view's properties extended by acting and table.",
        "type": "object",
        "properties": {
            "table": {"$ref": "#/$defs/table"},
            "table_events": {"type": "object", "properties": events, "additionalProperties": False},
        },
        "$defs": defs,
    }


def _time_control() -> dict[str, Any]:
    """The ``clock`` option every game takes (docs/clock.md C1), as JSON Schema."""
    return {
        "type": ["object", "null"],
        "description": "The table's time control (docs/clock.md C1): seconds per move (0: no clock), a bank of "
        "extra seconds per seat for the match, and what is done for a seat whose time ran out: a computer-player "
        "level, pass (the safest pass or draw) or leave (where players may leave during the match).",
        "properties": {
            "move_seconds": {"type": "integer", "minimum": 0, "maximum": MAX_MOVE_SECONDS, "default": 0},
            "bank_seconds": {"type": "integer", "minimum": 0, "maximum": MAX_BANK_SECONDS, "default": 0},
            "policy": {"type": "string", "default": CLOCK_DEFAULTS["policy"]},
        },
        "additionalProperties": False,
    }


def platform_schema_text() -> str:
    """:func:`platform_schema` as the text of docs/schemas/table.json (sorted keys, two-space
    indents, a trailing newline)."""
    return json.dumps(platform_schema(), indent=2, sort_keys=True, ensure_ascii=False) + "\n"


def _served(spec: GameSpec[Any, Any]) -> dict[str, Any]:
    doc = game_schema(spec)
    defs: dict[str, Any] = doc["$defs"]
    platform = platform_schema()
    clash = sorted(set(defs) & set(platform["$defs"]))
    if clash:  # pragma: no cover - a game naming a type as the platform does
        raise TypeError(f"{spec.key}: its schema defines {clash}, which the platform's defines too")
    defs.update(platform["$defs"])
    view = defs["view"]
    target = defs[view["$ref"].rsplit("/", 1)[1]] if "$ref" in view else view
    target.setdefault("properties", {})
    target["properties"]["acting"] = {
        "type": "array",
        "items": {"type": "integer", "minimum": 0},
        "description": "The seats whose move the match waits for.",
    }
    target["properties"]["table"] = {"$ref": "#/$defs/table"}
    target["required"] = sorted({*target.get("required", ()), "acting", "table"})
    options = defs["options"]
    options.setdefault("properties", {})[CLOCK_OPTION] = {"$ref": "#/$defs/time_control"}
    doc["properties"]["table_events"] = platform["properties"]["table_events"]
    doc["$id"] = f"urn:trapoula:served:{spec.key}"
    doc["description"] += " As the service sends them: views with their table part, and the table's own events."
    return doc


def served_schema_text(spec: GameSpec[Any, Any]) -> str:
    """The JSON Schema (draft 2020-12) of everything the service sends and takes for ``spec``'s
    tables, as text (sorted keys, two-space indents, a trailing newline); see the module docstring.
    Built once per game key.

    Raises:
        TypeError: a game type with no plain-data form (a defect of the game).
    """
    text = _TEXTS.get(spec.key)
    if text is None:
        text = json.dumps(_served(spec), indent=2, sort_keys=True, ensure_ascii=False) + "\n"
        with _LOCK:
            _TEXTS[spec.key] = text
    return text


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m trapoula.service.served DIR``: write ``DIR/table.json`` (:func:`platform_schema_text`).
    Exit status 2 with a message on standard error without a directory."""
    args = list(sys.argv[1:] if argv is None else argv)
    if len(args) != 1:
        print("usage: python -m trapoula.service.served DIR", file=sys.stderr)
        return 2
    directory = Path(args[0])
    directory.mkdir(parents=True, exist_ok=True)
    (directory / "table.json").write_text(platform_schema_text(), encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
