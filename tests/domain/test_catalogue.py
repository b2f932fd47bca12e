"""The event catalogue (docs/record-events.md) is the code's own field list (docs/record.md 2.4).

Hand-checked entries cite the rules that make a field hidden or private; every event line of the
golden playthroughs is checked against its catalogue entry, field by field and type by type.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from trapoula.domain.catalogue import (
    EventEntry,
    UpcastEntry,
    _entry,
    catalogue_json,
    catalogue_markdown,
    event_catalogue,
    json_type,
    main,
)
from trapoula.domain.events import Event
from trapoula.domain.registry import GAMES
from trapoula.domain.upcasting import register_upcaster

ROOT = Path(__file__).resolve().parents[2]
BUILT_IN = ("agonia", "crazy_eights", "giminaiciai", "mau_mau", "romis", "vida")
EVENT_LINE = re.compile(r"^event (\w+): (\{.*\})$")


def entry(game: str, name: str) -> EventEntry:
    return next(e for e in event_catalogue(GAMES[game]) if e.name == name)


def test_the_document_is_what_the_code_generates() -> None:
    # `make docs` writes it; an event field added, removed or retyped without it fails here.
    written = (ROOT / "docs" / "record-events.md").read_text(encoding="utf-8")
    assert written == catalogue_markdown(GAMES[k] for k in BUILT_IN)


def test_record_md_points_to_it() -> None:
    assert "record-events.md" in (ROOT / "docs" / "record.md").read_text(encoding="utf-8")


def test_a_hands_start_hides_its_seed_and_deck_until_the_reveal() -> None:
    # S5.1, S12: the commitment is public, the seed and deck order hidden until SeedRevealed.
    started = entry("agonia", "HandStarted")
    fields = {f.name: (f.type, f.visibility) for f in started.fields}
    assert fields["commitment"] == ("string", "public")
    assert fields["seed"] == ("string or null", "hidden")  # null for an explicit deal, S5.3
    assert fields["deck"] == ("array of string", "hidden")
    assert fields["reshuffles"] == ("array of array of string", "hidden")
    assert started.role == "hand_started"
    order = "hand_no dealer first_player seats_in_hand explicit_deal commitment seed deck reshuffles"
    assert [f.name for f in started.fields] == order.split()


def test_dealt_cards_are_private_to_their_seat() -> None:
    # S5.2: the cards go to that seat only, the count is public.
    dealt = entry("mau_mau", "CardsDealt")
    assert [(f.name, f.type, f.visibility) for f in dealt.fields] == [
        ("seat", "integer", "public"),
        ("cards", "array of string", "private"),
        ("count", "integer", "public"),
    ]
    assert dealt.private_to == ("seat",)
    assert not dealt.withheld


def test_a_romis_auxiliary_use_is_withheld_and_a_vida_gift_private_to_both_seats() -> None:
    # romis R5.4: the mere event would tell the others the seat had no legal reveal.
    used = entry("romis", "AuxiliaryUsed")
    assert used.withheld
    assert {f.name for f in used.fields if f.visibility == "private"} == {"card", "slot"}
    # vida R5.1, D30: the given card is seen by the giver and the receiver.
    given = entry("vida", "CardGiven")
    assert given.private_to == ("from_seat", "to_seat")
    assert [f.name for f in given.fields if f.visibility == "private"] == ["card"]


def test_the_match_end_is_between_hands_and_plays_its_role() -> None:
    for key in BUILT_IN:
        ended = entry(key, "MatchEnded")
        assert ended.role == "match_ended" and ended.between_hands, key


@pytest.mark.parametrize(
    ("annotation", "text"),
    [
        ("int", "integer"),
        ("str | None", "string or null"),
        ("dict[str, Any] | None", "object or null"),
        ("tuple[int | None, ...]", "array of (integer or null)"),
        ("tuple[tuple[str, tuple[str, ...], str], ...]", "array of [string, array of string, string]"),
        ("tuple[int, int]", "[integer, integer]"),
        (bool, "boolean"),
    ],
)
def test_json_type(annotation: object, text: str) -> None:
    assert json_type(annotation) == text


def test_a_field_that_is_not_plain_data_is_refused() -> None:
    with pytest.raises(ValueError, match="not a JSON-ready field type"):
        json_type("set[int]")


def fits(value: Any, text: str) -> bool:
    """Does a JSON value fit the catalogue's type text (the small grammar json_type writes)?"""
    if text.startswith("(") and text.endswith(")") and text.count("(") == 1:
        text = text[1:-1]
    if " or " in text and not text.startswith(("array of", "[")):
        return any(fits(value, part) for part in text.split(" or "))
    if text.startswith("array of "):
        return isinstance(value, list) and all(fits(v, text[len("array of ") :]) for v in value)
    if text.startswith("["):
        parts = [p.strip() for p in re.split(r",(?![^\[]*\])", text[1:-1])]
        return isinstance(value, list) and len(value) == len(parts) and all(map(fits, value, parts))
    simple = {
        "integer": lambda v: isinstance(v, int) and not isinstance(v, bool),
        "string": lambda v: isinstance(v, str),
        "boolean": lambda v: isinstance(v, bool),
        "null": lambda v: v is None,
        "object": lambda v: isinstance(v, dict),
        "any": lambda v: True,
    }
    return simple[text](value)


@pytest.mark.parametrize("game", BUILT_IN)
def test_every_golden_event_line_holds_exactly_the_catalogued_fields(game: str) -> None:
    catalogue = {e.name: e for e in event_catalogue(GAMES[game])}
    lines = 0
    for path in sorted((ROOT / "tests" / "golden" / game).glob("*.txt")):
        for line in path.read_text(encoding="utf-8").splitlines():
            match = EVENT_LINE.match(line)
            if match is None:
                continue
            name, payload = match.group(1), json.loads(match.group(2))
            fields = catalogue[name].fields
            assert sorted(payload) == sorted(f.name for f in fields), (path.name, name)
            for f in fields:
                assert fits(payload[f.name], f.type), (path.name, name, f.name, payload[f.name], f.type)
            lines += 1
    assert lines > 100


def test_fits_refuses_what_does_not_fit() -> None:
    assert not fits(True, "integer")
    assert not fits([1, "a"], "array of integer")
    assert not fits([1], "[integer, integer]")
    assert fits(None, "(integer or null)")


def test_json_form_and_the_command(capsys: pytest.CaptureFixture[str]) -> None:
    data = catalogue_json([GAMES["vida"]])
    assert list(data) == ["vida"]
    names = [e["name"] for e in data["vida"]["events"]]
    assert names == sorted(names) and "BidMade" in names
    assert main(["--json", "vida"]) == 0
    assert json.loads(capsys.readouterr().out) == data
    assert main(["no_such_game"]) == 2
    assert "unknown game(s): no_such_game" in capsys.readouterr().err


def test_an_older_version_is_told_by_its_upcasters_docstring() -> None:
    # docs/record-events.md, "Older versions": a reader of a record brings an old payload up step by
    # step (docs/events.md section 2); the document says what each step does, from the code.
    @dataclass(frozen=True, slots=True)
    class CatalogueNoted(Event):
        version = 3
        seat: int
        note: str
        tone: str = "plain"

    def add_note(payload: dict[str, Any]) -> dict[str, Any]:
        """Adds `note` = `"none"`.

        (Version 1 had no note.)"""
        return {**payload, "note": "none"}

    register_upcaster(CatalogueNoted, 1, add_note)
    assert _entry("CatalogueNoted", CatalogueNoted).upcasts == (
        UpcastEntry(1, 'Adds `note` = `"none"`.'),
        UpcastEntry(2, "unchanged: a field the payload lacks takes its default"),
    )

    @dataclass(frozen=True, slots=True)
    class CatalogueUntold(Event):
        version = 2
        seat: int

    register_upcaster(CatalogueUntold, 1, lambda p: p)
    with pytest.raises(ValueError, match="no docstring"):
        _entry("CatalogueUntold", CatalogueUntold)


def test_the_options_of_each_game_are_listed_with_their_defaults() -> None:
    # REC7 (docs/record.md 3.3): MatchStarted.options lists every option, the defaults filled in.
    data = catalogue_json([GAMES["agonia"]])
    assert data["agonia"]["options"]["target_points"] == 100
    assert "| `target_points` | `100` |" in (ROOT / "docs" / "record-events.md").read_text(encoding="utf-8")
