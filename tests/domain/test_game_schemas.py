"""Each game's JSON Schema (trapoula.domain.schema, docs/schemas/) holds what the games send.

* docs/schemas/<game>.json is what the code generates (``make docs``);
* every line of every golden playthrough is valid under its game's schema: each command sent,
  each event payload as recorded and as each seat and the spectator are shown it, each seat's and
  the spectator's view at every step, each legal command, the options;
* likewise a few hundred random matches per game, with random options drawn from the schema;
* the schema is not vacuous: a card ``1X`` (S2.1), an unknown command kind (section 8), a missing
  field and a mistyped option value are refused, and the option ranges, choices and types it
  states are the ones each game's ``parse_options`` enforces (section 7);
* a game plugged in from outside (tests/plugins/top_card) gets its schema with no edit.
"""

from __future__ import annotations

import json
import random
import re
from collections.abc import Iterator, Mapping
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from jsonschema import Draft202012Validator
from jsonschema.exceptions import ValidationError

from trapoula.domain.deal import Deal
from trapoula.domain.errors import InvalidInput
from trapoula.domain.events import redact, to_payload, visible
from trapoula.domain.game import GameSpec, MatchConfig, SeatInfo, acting_seats
from trapoula.domain.match import Match
from trapoula.domain.registry import GAMES
from trapoula.domain.schema import game_schema, main, schema_text

ROOT = Path(__file__).resolve().parents[2]
BUILT_IN = ("agonia", "crazy_eights", "giminaiciai", "mau_mau", "romis", "vida")
RANDOM_MATCHES: Mapping[str, int] = {"vida": 120}
"""Random matches per game, 200 where not named (each a short one: see SHORT and MAX_COMMANDS); a
Vida view, of some fifty keys, costs the most to validate."""
MAX_COMMANDS: Mapping[str, int] = {"vida": 45}
"""A random match stops after this many commands, 30 where not named (its events, views and commands
up to there are checked): a random player's Mau Mau or Giminaičiai hand can run to hundreds of
turns, and a validation costs milliseconds a view; a Vida hand takes 40 or so (R4, R5)."""
VIEW_SHARE = (0.25, 0.01)
"""The share of a random match's states whose views (every seat's and the spectator's) are checked:
after an event with a platform role (a hand or match started or ended, a seat changed), and after
any other command; the views of the first and the last state are always checked, and so are every
command, every event and every legal command met (a view costs milliseconds to validate)."""
BOT_SHARE = 0.5
"""The share of random matches whose seats all play as the game's ``heuristic`` computer player (its
hands end sooner than a random player's); the others play random legal commands."""
PREFERRED = ("lay_down", "play", "reveal", "discard")
"""The kinds the random player sends when it may (usually), to keep hands short."""

SHORT: Mapping[str, Mapping[str, Any]] = {
    "agonia": {"target_points": 0},  # a single hand (R7.1)
    "crazy_eights": {"scoring": "single"},  # one hand (R7.1)
    "giminaiciai": {"target_score": 1},  # over after the first hand with points (R10.1)
    "mau_mau": {"elimination_limit": -1},  # the first points eliminate (R7.1)
    "romis": {"target_score": 1},  # over after the first hand (R12.1)
    "vida": {"target_score": 1, "wins_needed": 1, "max_bid": 120},  # one game; short bid lists (R6.9, R6.10, R4.3)
}
"""Options that keep a random match short (the others are drawn from the schema)."""


@cache
def validator(game: str, definition: str) -> Draft202012Validator:
    """A validator of one ``$defs`` entry of the game's schema, its references written out in place
    (the same schema; it validates twice as fast as one that resolves each reference)."""
    doc = game_schema(GAMES[game])  # checked against the 2020-12 meta-schema once a game, below
    return Draft202012Validator(inline({"$ref": f"#/$defs/{definition}"}, doc["$defs"]))


def inline(node: Any, defs: Mapping[str, Any]) -> Any:
    """``node`` with each ``{"$ref": "#/$defs/x", ...}`` replaced by ``defs["x"]`` (and its other
    keywords beside it, under ``allOf``); the games' schemas have no recursive definition."""
    if isinstance(node, dict):
        if "$ref" in node:
            target = inline(defs[node["$ref"].removeprefix("#/$defs/")], defs)
            rest = {k: inline(v, defs) for k, v in node.items() if k != "$ref"}
            return {"allOf": [target], **rest} if rest else target
        return {k: inline(v, defs) for k, v in node.items()}
    if isinstance(node, list):
        return [inline(v, defs) for v in node]
    return node


def check(game: str, definition: str, value: Any, where: str) -> None:
    errors = list(validator(game, definition).iter_errors(value))
    if errors:
        best = min(errors, key=lambda e: len(e.absolute_path))
        path = "/".join(str(p) for p in best.absolute_path)
        raise AssertionError(f"{game} {where}: not a valid {definition} at /{path}: {best.message}\n{value}")


def rejects(game: str, definition: str, value: Any) -> ValidationError:
    errors = sorted(validator(game, definition).iter_errors(value), key=lambda e: len(e.absolute_path))
    assert errors, f"{game}: {value} is a valid {definition}"
    return errors[-1]


# --- the files -------------------------------------------------------------------------------------


@pytest.mark.parametrize("game", BUILT_IN)
def test_the_published_file_is_what_the_code_generates(game: str) -> None:
    # `make docs` writes them; a command, event, view or option changed without it fails here.
    written = (ROOT / "docs" / "schemas" / f"{game}.json").read_text(encoding="utf-8")
    assert written == schema_text(GAMES[game])
    assert written.endswith("}\n")
    assert json.loads(written) == game_schema(GAMES[game])


def test_the_folder_holds_one_file_per_game_and_its_readme() -> None:
    names = sorted(p.name for p in (ROOT / "docs" / "schemas").iterdir())
    # and the table's part, which the service merges into each (tests/service/test_served_schema.py)
    assert names == sorted([*(f"{g}.json" for g in BUILT_IN), "table.json", "README.md"])
    readme = (ROOT / "docs" / "schemas" / "README.md").read_text(encoding="utf-8")
    assert "quicktype" in readme and "json-schema-to-typescript" in readme


@pytest.mark.parametrize("game", BUILT_IN)
def test_each_document_is_a_2020_12_schema_with_its_parts(game: str) -> None:
    spec = GAMES[game]
    doc = game_schema(spec)
    Draft202012Validator.check_schema(doc)
    assert doc["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    defs = doc["$defs"]
    assert {"card", "suit", "command", "options", "view", "seat_view", "spectator_view"} <= set(defs)
    assert {f"event.{name}" for name in spec.event_types} <= set(defs)
    assert set(doc["properties"]["events"]["properties"]) == set(spec.event_types)
    assert "command.next_hand" in defs
    for name in spec.event_types:  # every field is in every payload, and no other
        event = defs[f"event.{name}"]
        assert event["additionalProperties"] is False and event["required"] == sorted(event["properties"])
    assert game_schema(spec) is not game_schema(spec)  # a fresh copy each time, from one cached text
    assert schema_text(spec) is schema_text(spec)


def test_main_writes_the_files(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main([str(tmp_path), "romis"]) == 0
    assert (tmp_path / "romis.json").read_text(encoding="utf-8") == schema_text(GAMES["romis"])
    assert main([str(tmp_path), "no_such_game"]) == 2
    assert "unknown game(s): no_such_game" in capsys.readouterr().err
    assert main([]) == 2


# --- the golden playthroughs -------------------------------------------------------------------------

STEP = re.compile(r"^## step \d+: (?:table )?(\{.*\})( \(scripted\))?$")
EVENT = re.compile(r"^event (\w+): (\{.*\})$")
SEEN = re.compile(r"^  seen by [^{]*: (\{.*\})$")
VIEW = re.compile(r"^view (seat \d+|spectator): (\{.*\})$")
LEGAL = re.compile(r"^legal seat (\d+): (.*)$")
OPTIONS = re.compile(r"^(?:all )?options: (\{.*?\})(?: \(the rest default\))?$")


def json_objects(text: str) -> Iterator[Any]:
    """Every JSON object in ``text`` (an abridged legal line lists its payloads between words)."""
    decoder = json.JSONDecoder()
    at = text.find("{")
    while at >= 0:
        value, end = decoder.raw_decode(text, at)
        yield value
        at = text.find("{", end)


def golden_lines(game: str) -> Iterator[tuple[str, str, Any]]:
    """``(where, definition, value)`` for every value of the game's golden playthroughs."""
    paths = sorted((ROOT / "tests" / "golden" / game).glob("*.txt"))
    assert paths, game
    for path in paths:
        event = ""
        views: list[tuple[str, dict[str, Any]]] = []
        legal: dict[int, list[Any]] = {}
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            where = f"{path.name}:{number}"
            if (m := OPTIONS.match(line)) is not None:
                yield where, "options", json.loads(m.group(1))
            elif (m := STEP.match(line)) is not None:
                yield where, "command", json.loads(m.group(1))
            elif (m := EVENT.match(line)) is not None:
                event = m.group(1)
                yield where, f"event.{event}", json.loads(m.group(2))
            elif (m := SEEN.match(line)) is not None:
                yield where, f"event.{event}", json.loads(m.group(1))
            elif (m := VIEW.match(line)) is not None:
                views.append((where, json.loads(m.group(2))))
            elif (m := LEGAL.match(line)) is not None:
                seat, text = int(m.group(1)), m.group(2)
                legal[seat] = json.loads(text) if text.startswith("[") else list(json_objects(text))
                for item in legal[seat]:
                    yield where, "command", item
            elif line.startswith("## ") or line.startswith("# the match is over"):
                yield from resolved_views(views, legal)
                views, legal = [], {}
        yield from resolved_views(views, legal)


def resolved_views(views: list[tuple[str, dict[str, Any]]], legal: dict[int, list[Any]]) -> Iterator[Any]:
    """The views of one step, a view whose ``legal`` points to its ``legal seat`` line given that line's payloads."""
    for where, view in views:
        if isinstance(view.get("legal"), str):
            view = {**view, "legal": legal[view["seat"]]}
        yield where, "spectator_view" if view.get("seat") is None else "seat_view", view


@pytest.mark.parametrize("game", BUILT_IN)
def test_every_golden_line_is_valid_under_its_games_schema(game: str) -> None:
    counts: dict[str, int] = {}
    for where, definition, value in golden_lines(game):
        check(game, definition, value, where)
        kind = definition.split(".")[0]
        counts[kind] = counts.get(kind, 0) + 1
    assert counts["event"] > 50 and counts["seat_view"] > 50 and counts["spectator_view"] > 10, counts
    assert counts["command"] > 50 and counts["options"] >= 6, counts


# --- random matches ---------------------------------------------------------------------------------


@cache
def option_properties(game: str) -> dict[str, Any]:
    properties: dict[str, Any] = game_schema(GAMES[game])["$defs"]["options"]["properties"]
    return properties


def random_options(game: str, rng: random.Random) -> dict[str, Any]:
    """Options drawn from the schema's own choices (enumerations, booleans), then SHORT."""
    options: dict[str, Any] = {}
    for key, prop in option_properties(game).items():
        if "enum" in prop:
            options[key] = rng.choice(prop["enum"])
        elif prop.get("type") == "boolean":
            options[key] = rng.random() < 0.5
    return {**options, **SHORT[game]}


class Checker:
    """Validates what one random match sends, each distinct value once."""

    def __init__(self, game: str) -> None:
        self.game = game
        self.seen: set[tuple[str, str]] = set()
        self.counts: dict[str, int] = {}
        self.ended = 0
        """The random matches played to their end."""

    def __call__(self, definition: str, value: Any, where: str) -> None:
        key = (definition, json.dumps(value, sort_keys=True))
        if key in self.seen:
            return
        self.seen.add(key)
        self.counts[definition.split(".")[0]] = self.counts.get(definition.split(".")[0], 0) + 1
        check(self.game, definition, value, where)

    def view(self, view: dict[str, Any], where: str) -> None:
        """A view: its legal commands each once, then the rest (so a long legal list is read once a command)."""
        legal = view.get("legal", [])
        for command in legal:
            self("command", command, where)
        if view.get("seat") is None:
            self("spectator_view", view, where)
        else:
            self("seat_view", {**view, "legal": legal[:1]}, where)


def seat_count(spec: GameSpec[Any, Any], state: Any, n: int) -> int:
    names = spec.seat_view(state, None).get("names")
    return max(n, len(names)) if isinstance(names, list) else n


def play_random(spec: GameSpec[Any, Any], index: int, checked: Checker) -> int:
    """Play random match ``index`` of ``spec`` with random legal commands, checking every command,
    event (full and as each viewer sees it), view and legal command; returns the number of commands."""
    rng = random.Random(f"schemas/{spec.key}/{index}")
    n = rng.randint(spec.min_players, spec.max_players)
    options = random_options(spec.key, rng)
    bot = spec.bot_levels["heuristic"] if rng.random() < BOT_SHARE else None
    label = f"#{index} n={n} options={options} heuristic={bot is not None}"
    checked("options", options, label)
    config = MatchConfig(spec.key, tuple(SeatInfo(s, f"p{s}") for s in range(n)), options)
    state = spec.initial_state(config)
    steps = 0

    def snapshot() -> None:
        count = seat_count(spec, state, n)
        for viewer in (*range(count), None):
            checked.view(spec.seat_view(state, viewer), f"{label} step {steps} viewer {viewer}")

    snapshot()
    limit = MAX_COMMANDS.get(spec.key, 30)
    while not spec.is_terminal(state) and steps < limit:
        steps += 1
        if spec.needs_deal(state):
            command = spec.deal_command(state, Deal.from_seed(spec.deck(state), f"{rng.getrandbits(256):064x}"))
        else:
            seats = acting_seats(spec, state, range(seat_count(spec, state, n)))
            seat = rng.choice(seats)
            if bot is not None:
                view = spec.seat_view(state, seat)
                payload = dict(bot(view, view["legal"], rng))
            else:
                payload = choose(rng, [spec.command_payload(c) for c in spec.legal_commands(state, seat)])
            command = spec.parse_command(payload)
        checked("command", spec.command_payload(command), f"{label} step {steps}")
        _, happened = Match(spec, state).steps(command)
        boundary = False
        for event, state in happened:
            name = event.event_name()
            boundary = boundary or spec.role_of(name) is not None
            checked(f"event.{name}", to_payload(event), f"{label} step {steps}")
            for viewer in (*range(seat_count(spec, state, n)), None):
                if visible(event, viewer):
                    checked(f"event.{name}", redact(event, viewer), f"{label} step {steps} viewer {viewer}")
        if spec.is_terminal(state) or steps == limit or rng.random() < VIEW_SHARE[0 if boundary else 1]:
            snapshot()
    checked.ended += spec.is_terminal(state)
    return steps


def choose(rng: random.Random, payloads: list[dict[str, Any]]) -> dict[str, Any]:
    """A legal payload: a lay-down whenever there is one, else usually a play (PREFERRED), rarely a
    ``leave`` (mau_mau R6.10), else any."""
    for kind in PREFERRED:
        wanted = [p for p in payloads if p.get("kind") == kind]
        if wanted and (kind == "lay_down" or rng.random() < 0.9):
            return rng.choice(wanted)
    staying = [p for p in payloads if p.get("kind") != "leave"]
    return rng.choice(staying if staying and rng.random() < 0.98 else payloads)


@pytest.mark.parametrize("game", BUILT_IN)
def test_random_matches_are_valid_under_their_games_schema(game: str) -> None:
    spec = GAMES[game]
    checked = Checker(game)
    matches = RANDOM_MATCHES.get(game, 200)
    commands = sum(play_random(spec, index, checked) for index in range(matches))
    assert commands > matches and checked.ended > 0, (commands, checked.ended)  # some to their end
    assert {"command", "event", "seat_view", "spectator_view", "options"} <= set(checked.counts), checked.counts


def test_a_game_plugged_in_from_outside_gets_its_schema() -> None:
    # tests/plugins/top_card declares nothing for it: its schema comes from its types alone.
    spec = GAMES["top_card"]
    doc = game_schema(spec)
    assert {"command.play", "command.next_hand", "options", "seat_view"} <= set(doc["$defs"])
    checked = Checker("top_card")
    for index in range(20):
        play_random_plugin(spec, index, checked)
    assert checked.counts["event"] > 5


def play_random_plugin(spec: GameSpec[Any, Any], index: int, checked: Checker) -> None:
    rng = random.Random(f"schemas/top_card/{index}")
    n = rng.randint(spec.min_players, spec.max_players)
    state = spec.initial_state(MatchConfig(spec.key, tuple(SeatInfo(s, f"p{s}") for s in range(n)), {}))
    while not spec.is_terminal(state):
        if spec.needs_deal(state):
            command = spec.deal_command(state, Deal.from_seed(spec.deck(state), f"{rng.getrandbits(256):064x}"))
        else:
            seat = rng.choice(acting_seats(spec, state, range(n)))
            command = rng.choice(spec.legal_commands(state, seat))
        checked("command", spec.command_payload(command), f"top_card #{index}")
        _, happened = Match(spec, state).steps(command)
        for event, state in happened:  # noqa: B007
            checked(f"event.{event.event_name()}", to_payload(event), f"top_card #{index}")
        for viewer in (*range(n), None):
            checked.view(spec.seat_view(state, viewer), f"top_card #{index}")


# --- the schema refuses what the rules refuse --------------------------------------------------------


def test_a_card_code_that_is_no_card_is_refused_s2_1() -> None:
    # S2.1: rank 2-9 T J Q K A, then suit C D H S.
    error = rejects("agonia", "command.play", {"kind": "play", "seat": 0, "card": "1X"})
    assert list(error.absolute_path) == ["card"] and "does not match" in error.message
    rejects("agonia", "command", {"kind": "play", "seat": 0, "card": "1X"})
    with pytest.raises(InvalidInput) as bad:
        GAMES["agonia"].parse_command({"kind": "play", "seat": 0, "card": "1X"})
    assert bad.value.reason == "bad_card" and "S2.1" in str(bad.value)
    played = {"seat": 1, "card": "1X", "declared_suit": None, "active_suit": "H", "pending_draw": 0, "announce": False}
    assert list(rejects("agonia", "event.CardPlayed", played).absolute_path) == ["card"]
    dealt = {"seat": 0, "cards": ["AS", "10H"], "count": 2}  # a ten is T
    assert list(rejects("mau_mau", "event.CardsDealt", dealt).absolute_path) == ["cards"]  # a list of cards or null
    view = next(v for w, d, v in golden_lines("vida") if d == "seat_view" and v["hand"])
    assert list(rejects("vida", "seat_view", {**view, "hand": ["1X"]}).absolute_path) == ["hand", 0]


@pytest.mark.parametrize("game", BUILT_IN)
def test_an_unknown_command_kind_is_refused_section_8(game: str) -> None:
    refused = {"kind": "fly", "seat": 0}
    rejects(game, "command", refused)
    with pytest.raises(InvalidInput) as bad:
        GAMES[game].parse_command(refused)
    assert bad.value.reason == "bad_command"
    defs = game_schema(GAMES[game])["$defs"]
    kinds = {d["properties"]["kind"]["const"] for n, d in defs.items() if n.startswith("command.")}
    assert "next_hand" in kinds and "fly" not in kinds


def test_a_missing_field_is_refused() -> None:
    # section 8: a play names its card; an event payload holds every field (docs/record.md 2.4).
    error = rejects("crazy_eights", "command.play", {"kind": "play", "seat": 0})
    assert "'card' is a required property" in error.message
    with pytest.raises(InvalidInput):
        GAMES["giminaiciai"].parse_command({"kind": "discard", "seat": 0})
    rejects("giminaiciai", "command", {"kind": "discard", "seat": 0})
    started = next(v for w, d, v in golden_lines("romis") if d == "event.HandStarted")
    error = rejects("romis", "event.HandStarted", {k: v for k, v in started.items() if k != "commitment"})
    assert "'commitment' is a required property" in error.message
    view = next(v for w, d, v in golden_lines("romis") if d == "spectator_view")
    without = {k: v for k, v in view.items() if k != "legal"}
    assert "'legal' is a required property" in rejects("romis", "view", without).message
    rejects("romis", "event.HandStarted", {**started, "surplus": 1})  # closed: no field beyond the class's


def test_a_spectator_view_has_no_legal_command_and_a_seat_view_a_seat() -> None:
    view = next(v for w, d, v in golden_lines("agonia") if d == "seat_view" and v["legal"])
    rejects("agonia", "spectator_view", view)
    rejects("agonia", "seat_view", {**view, "seat": None})


def test_a_mistyped_option_is_refused_r7_1() -> None:
    # agonia R7.1: target_points is an integer from 0 to 1,000.
    prop = game_schema(GAMES["agonia"])["$defs"]["options"]["properties"]["target_points"]
    assert (prop["type"], prop["minimum"], prop["maximum"], prop["default"]) == ("integer", 0, 1000, 100)
    assert "R7.1" in prop["description"]
    error = rejects("agonia", "options", {"target_points": "100"})
    assert list(error.absolute_path) == ["target_points"] and "is not of type 'integer'" in error.message
    with pytest.raises(InvalidInput, match=r"R7\.1"):
        GAMES["agonia"].parse_options({"target_points": "100"})
    assert list(rejects("agonia", "options", {"target_points": 1001}).absolute_path) == ["target_points"]
    assert "Additional properties" in rejects("agonia", "options", {"target": 100}).message
    check("agonia", "options", {"target_points": 50.0}, "an integral float, as parse_options takes it")


@pytest.mark.parametrize("game", BUILT_IN)
def test_the_option_schema_is_what_parse_options_enforces_section_7(game: str) -> None:
    spec = GAMES[game]
    options = game_schema(spec)["$defs"]["options"]
    assert options["additionalProperties"] is False
    assert set(options["properties"]) == set(spec.option_defaults())
    check(game, "options", spec.option_defaults(), "the defaults")

    def accepted(key: str, value: Any) -> bool:
        by_schema = not list(validator(game, "options").iter_errors({key: value}))
        try:
            spec.parse_options({key: value})
            by_rules = True
        except InvalidInput:
            by_rules = False
        assert by_schema == by_rules, (key, value, by_schema, by_rules)
        return by_rules

    for key, prop in options["properties"].items():
        assert "description" in prop, key
        assert accepted(key, prop["default"]), key
        assert not accepted(key, "nonsense"), key
        if prop.get("type") == "integer":
            low, high = prop["minimum"], prop["maximum"]
            assert accepted(key, low) and accepted(key, high) and not accepted(key, low - 1), key
            assert not accepted(key, high + 1) and not accepted(key, True), key
            if "multipleOf" in prop:
                assert not accepted(key, low + prop["multipleOf"] // 2), key
        elif prop.get("type") == "boolean":
            assert accepted(key, True) and accepted(key, False) and not accepted(key, 1), key
        elif "enum" in prop:
            assert all(accepted(key, v) for v in prop["enum"]), key
    if game == spec.key and spec.target_option is not None:
        assert not accepted(spec.target_option, str(spec.option_defaults()[spec.target_option]))


def test_mau_mau_computer_seats_are_an_object_of_skills_r7_2() -> None:
    check("mau_mau", "options", {"computer_seats": {"1": "hard", "2": "random"}}, "R7.2")
    error = rejects("mau_mau", "options", {"computer_seats": {"1": "expert"}})
    assert list(error.absolute_path) == ["computer_seats", "1"]
    rejects("mau_mau", "options", {"computer_seats": {"7": "easy"}})  # seats 0..4 (R2.2)
    with pytest.raises(InvalidInput):
        GAMES["mau_mau"].parse_options({"computer_seats": {"7": "easy"}})


def test_command_fields_the_types_make_precise() -> None:
    # giminaiciai R4.2: a draw is from the stock or the discard pile; R5.3: extra from 0.
    rejects("giminaiciai", "command", {"kind": "draw", "seat": 0, "source": "pocket"})
    rejects("giminaiciai", "command", {"kind": "lay_down", "seat": 0, "groups": [["4H", "5H", "6H"]], "extra": -1})
    check("giminaiciai", "command", {"kind": "lay_down", "seat": 0, "groups": [["4H", "5H", "6H"]]}, "extra optional")
    # vida R4.3: bids are multiples of 10 from 80, in a suit.
    rejects("vida", "command", {"kind": "bid", "seat": 0, "points": 85, "suit": "H"})
    rejects("vida", "command", {"kind": "bid", "seat": 0, "points": 90, "suit": "X"})
    # mau_mau R6.9: a newcomer's name is 1 to 64 characters.
    rejects("mau_mau", "command", {"kind": "join", "name": "", "computer": None})
    check("mau_mau", "command", {"kind": "join", "name": "eve", "computer": "hard"}, "R6.9")
    # the seat is an integer (section 8), a flag a boolean
    rejects("agonia", "command", {"kind": "draw", "seat": "0"})
    rejects("agonia", "command", {"kind": "play", "seat": 0, "card": "7H", "announce": "yes"})
