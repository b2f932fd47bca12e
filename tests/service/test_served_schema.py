"""The schema the service serves (``GetGameSchema``; trapoula.service.served, docs/schemas/):
each game's own schema with the table's part merged in, published in docs/schemas/table.json."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import grpc
import jsonschema
import pytest
from grpc_helpers import error_info

from trapoula.api.v1 import table_pb2 as pb
from trapoula.api.v1 import table_pb2_grpc
from trapoula.domain.registry import GAMES
from trapoula.service.served import platform_schema, platform_schema_text, served_schema_text

ROOT = Path(__file__).resolve().parents[2]


def test_the_published_table_part_is_what_the_code_generates() -> None:
    # `make docs` writes it; a change to the table's part without it fails here.
    written = (ROOT / "docs" / "schemas" / "table.json").read_text(encoding="utf-8")
    assert written == platform_schema_text()
    jsonschema.Draft202012Validator.check_schema(json.loads(written))


@pytest.mark.parametrize("game", sorted(GAMES))
def test_the_served_schema_is_the_games_with_the_tables_part(game: str) -> None:
    served = json.loads(served_schema_text(GAMES[game]))
    jsonschema.Draft202012Validator.check_schema(served)
    defs = served["$defs"]
    assert defs["table"] == {"$ref": "#/$defs/TablePart"}
    assert set(served["properties"]["table_events"]["properties"]) == {
        "TableCreated",
        "SeatTaken",
        "JoinQueued",
        "SeedCommitted",
        "SeedGiven",
        "ServerSeedRevealed",
        "TimedOut",
    }
    assert set(platform_schema()["$defs"]) <= set(defs)

    def valid(definition: str, value: Any) -> bool:
        return jsonschema.Draft202012Validator({"$ref": f"#/$defs/{definition}", "$defs": defs}).is_valid(value)

    # the table's own events, as docs/record.md 2.4 gives them
    assert valid("table_event.SeedGiven", {"hand": 1, "seat": 0, "seed": "ab" * 32})
    assert not valid("table_event.SeedGiven", {"hand": 1, "seat": 0})  # a field missing
    assert not valid("table_event.SeedGiven", {"hand": 1, "seat": 0, "seed": "ab" * 32, "x": 1})  # one too many
    assert valid("table_event.SeatTaken", {"seat": 1, "name": "ann", "bot": None, "token_hash": "0" * 64})
    assert not valid("table_event.TableCreated", {"game": game})
    # docs/clock.md C1: every game's options take the platform's time control
    assert valid("options", {"clock": {"move_seconds": 30, "bank_seconds": 120, "policy": "pass"}})
    assert not valid("options", {"clock": {"move_seconds": -1}})
    assert not valid("options", {"clock": {"minutes": 3}})
    assert valid("table_event.TimedOut", {"seat": 1, "deadline": "2026-12-02T19:00:00.000Z", "policy": "pass"})


def test_get_game_schema_serves_it_and_refuses_an_unknown_game(stub: table_pb2_grpc.TableServiceStub) -> None:
    for game in ("agonia", "romis"):
        reply = stub.GetGameSchema(pb.GetGameSchemaRequest(game=game))
        assert reply.schema_json == served_schema_text(GAMES[game])
    with pytest.raises(grpc.RpcError) as refused:
        stub.GetGameSchema(pb.GetGameSchemaRequest(game="chess"))
    assert (refused.value.code(), error_info(refused.value).reason) == (
        grpc.StatusCode.INVALID_ARGUMENT,
        "unknown_game",
    )
