"""The gRPC server over a real channel (port 0), on SQLite and PostgreSQL.

A private helper turns the view's legal payloads into ``Command`` messages: the thin client of
``trapoula.clients`` is not used here, only the generated stubs.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Callable
from typing import Any

import grpc
import pytest
from grpc_health.v1 import health_pb2, health_pb2_grpc
from grpc_helpers import command, error_info, two_people, view_of
from grpc_reflection.v1alpha import reflection_pb2, reflection_pb2_grpc

from trapoula.api.v1 import table_pb2 as pb
from trapoula.api.v1 import table_pb2_grpc
from trapoula.domain.chain import GENESIS, event_hash
from trapoula.domain.registry import GAMES
from trapoula.service.application import Tables

Meta = Callable[[str], tuple[tuple[str, str], ...]]
pytestmark = pytest.mark.timeout(120)


def test_health_answers_serving_and_reflection_lists_the_service(channel: grpc.Channel) -> None:
    health = health_pb2_grpc.HealthStub(channel)
    for service in ("", "trapoula.api.v1.TableService"):
        reply = health.Check(health_pb2.HealthCheckRequest(service=service), timeout=10)
        assert reply.status == health_pb2.HealthCheckResponse.SERVING
    reflect = reflection_pb2_grpc.ServerReflectionStub(channel)
    replies = reflect.ServerReflectionInfo(iter([reflection_pb2.ServerReflectionRequest(list_services="")]))
    names = {s.name for r in replies for s in r.list_services_response.service}
    assert {"trapoula.api.v1.TableService", "grpc.health.v1.Health"} <= names


def test_a_whole_match_with_a_person_and_bots(stub: table_pb2_grpc.TableServiceStub, auth: Meta) -> None:
    """A 3-seat Agonia match to 30 points: hands are dealt by the server, bots move in between."""
    created = stub.CreateTable(pb.CreateTableRequest(game="agonia", seats=3, options={"target_points": 30}))
    table_id = created.table_id
    me = stub.JoinTable(pb.JoinTableRequest(table_id=table_id, name="ann", seat=1))
    owner = auth(created.owner_token)  # only the owner adds bots and starts the match
    assert stub.AddBot(pb.AddBotRequest(table_id=table_id, level="random"), metadata=owner).seat == 0
    assert stub.AddBot(pb.AddBotRequest(table_id=table_id, level="heuristic", name="helga"), metadata=owner).seat == 2
    md = auth(me.seat_token)
    stub.StartMatch(pb.StartMatchRequest(table_id=table_id, command_id="start"), metadata=owner)
    view = json.loads(stub.GetView(pb.GetViewRequest(table_id=table_id), metadata=md).view.view_json)
    assert view["names"] == ["random bot 0", "ann", "helga"]
    moves = 0
    while view["table"]["status"] != "over":
        legal = view["legal"]
        assert legal, view  # the server only hands back the turn when this seat can act
        plays = [c for c in legal if c["kind"] == "play"]
        choice = plays[0] if plays else legal[0]
        moves += 1
        reply = stub.Act(pb.ActRequest(table_id=table_id, command_id=f"m{moves}", command=command(choice)), metadata=md)
        assert reply.events[0].version == reply.version - len(reply.events) + 1
        view = json.loads(reply.view.view_json)
        assert moves < 2000
    assert max(view["totals"]) > 30 and view["match_winner"] is not None
    record = stub.GetRecord(pb.GetRecordRequest(table_id=table_id))
    lines = [json.loads(line) for line in record.jsonl.splitlines()]
    assert lines[0]["hands"] == record.hands >= 1 and lines[0]["events"] == len(lines) - 1 == reply.version
    assert lines[-1]["name"] == "MatchEnded"
    prev = GENESIS
    for e in lines[1:]:
        assert e["prev_hash"] == prev and e["hash"] == event_hash(prev, e["seq"], e["name"], e["payload"])
        prev = e["hash"]
    listed = stub.ListTables(pb.ListTablesRequest(game="agonia", page_size=10))
    assert [(t.table_id, t.status, t.version) for t in listed.tables] == [(table_id, "over", reply.version)]
    games = stub.ListGames(pb.ListGamesRequest())
    by_key = {g.key: g for g in games.games}
    built_in = ["agonia", "crazy_eights", "giminaiciai", "mau_mau", "romis", "vida"]
    assert sorted(by_key) == sorted(GAMES) and set(built_in) <= set(by_key)  # and the games plugged in
    assert json.loads(by_key["agonia"].options_json)["target_points"] == 100
    assert list(by_key["agonia"].bot_levels) == ["random", "heuristic"] and not by_key["agonia"].seat_changes
    assert list(by_key["mau_mau"].bot_levels)[:2] == ["random", "heuristic"] and by_key["mau_mau"].seat_changes
    assert (by_key["mau_mau"].min_players, by_key["mau_mau"].max_players) == (2, 5)  # mau_mau R2.2
    assert (by_key["crazy_eights"].min_players, by_key["crazy_eights"].max_players) == (2, 7)  # crazy_eights R2.2
    assert (by_key["giminaiciai"].min_players, by_key["giminaiciai"].max_players) == (2, 6)  # giminaiciai R2.3
    options = {key: json.loads(g.options_json) for key, g in by_key.items()}
    for game_options in options.values():  # docs/clock.md C1: every game lists the platform's time control
        assert game_options.pop("clock") == {"move_seconds": 0, "bank_seconds": 0, "policy": "heuristic"}
    assert options["giminaiciai"] == {"target_score": 200}  # giminaiciai R10.1
    assert list(by_key["giminaiciai"].bot_levels) == ["random", "heuristic"] and not by_key["giminaiciai"].seat_changes
    assert (by_key["romis"].min_players, by_key["romis"].max_players) == (2, 4)  # romis R2.3
    assert options["romis"] == {  # romis R12.1, R12.3, R12.4
        "target_score": 100,
        "carried_bonus_factor": 1,
        "resubmit": False,
    }
    assert list(by_key["romis"].bot_levels) == ["random", "heuristic"] and not by_key["romis"].seat_changes


def test_bad_input_gets_its_status_changes_nothing_and_the_server_goes_on(
    stub: table_pb2_grpc.TableServiceStub, auth: Meta, deal: dict[str, Any]
) -> None:
    table_id, seat0, seat1 = two_people(stub, auth, deal)

    def act(metadata: Any, cmd: pb.Command, command_id: str = "c1") -> None:
        stub.Act(pb.ActRequest(table_id=table_id, command_id=command_id, command=cmd), metadata=metadata)

    cases: list[tuple[str, Callable[[], Any], grpc.StatusCode, str]] = [
        ("unknown table", lambda: view_of(stub, "00000000-0000-4000-8000-000000000000"),
         grpc.StatusCode.NOT_FOUND, "table_not_found"),
        ("malformed card", lambda: act(seat0, pb.Command(play=pb.PlayCard(card="1X"))),
         grpc.StatusCode.INVALID_ARGUMENT, "bad_card"),
        ("no command", lambda: act(seat0, pb.Command()), grpc.StatusCode.INVALID_ARGUMENT, "bad_command"),
        ("no command id", lambda: act(seat0, pb.Command(draw=pb.DrawCard()), ""),
         grpc.StatusCode.INVALID_ARGUMENT, "bad_command_id"),
        ("wrong token", lambda: act(auth("forged"), pb.Command(draw=pb.DrawCard())),
         grpc.StatusCode.PERMISSION_DENIED, "bad_token"),
        ("not a bearer token", lambda: act((("authorization", "Token x"),), pb.Command(draw=pb.DrawCard())),
         grpc.StatusCode.PERMISSION_DENIED, "bad_token"),
        ("spectator acts", lambda: act((), pb.Command(draw=pb.DrawCard())),
         grpc.StatusCode.PERMISSION_DENIED, "permission_denied"),
        ("out of turn", lambda: act(seat1, pb.Command(play=pb.PlayCard(card="3C"))),
         grpc.StatusCode.FAILED_PRECONDITION, "not_your_turn"),
        ("illegal card", lambda: act(seat0, pb.Command(play=pb.PlayCard(card="5C"))),
         grpc.StatusCode.FAILED_PRECONDITION, "no_match"),
        ("seat taken", lambda: stub.JoinTable(pb.JoinTableRequest(table_id=table_id, name="cat", seat=0)),
         grpc.StatusCode.ALREADY_EXISTS, "already_started"),
        ("unknown game", lambda: stub.CreateTable(pb.CreateTableRequest(game="chess", seats=2)),
         grpc.StatusCode.INVALID_ARGUMENT, "unknown_game"),
        ("unknown option", lambda: stub.CreateTable(pb.CreateTableRequest(game="agonia", seats=2,
                                                                          options={"jokers": 2})),
         grpc.StatusCode.INVALID_ARGUMENT, "bad_option"),
    ]  # fmt: skip
    for label, call, code, reason in cases:
        with pytest.raises(grpc.RpcError) as exc:
            call()
        err = exc.value
        assert (err.code(), error_info(err).reason) == (code, reason), label
        assert view_of(stub, table_id, seat0)[0] == 9, label
    with pytest.raises(grpc.RpcError) as refused:
        act(seat0, pb.Command(play=pb.PlayCard(card="5C")))
    info = error_info(refused.value)
    assert dict(info.metadata) == {"rule": "R4.1", "seat": "0", "version": "9", "table_id": table_id}
    assert "R4.1" in str(refused.value.details())
    assert stub.ListTables(pb.ListTablesRequest()).tables[0].version == 9  # still serving, nothing stored
    reply = stub.Act(pb.ActRequest(table_id=table_id, command_id="c1", command=command({"kind": "play",
                                                                                          "card": "4D"})),
                     metadata=seat0)  # fmt: skip
    assert reply.version == 11


def test_a_repeated_command_id_returns_the_first_reply(
    stub: table_pb2_grpc.TableServiceStub, auth: Meta, deal: dict[str, Any]
) -> None:
    table_id, seat0, _seat1 = two_people(stub, auth, deal)
    request = pb.ActRequest(table_id=table_id, command_id="once", command=pb.Command(draw=pb.DrawCard()))
    first = stub.Act(request, metadata=seat0)
    again = stub.Act(request, metadata=seat0)
    assert first == again and first.version == 10
    assert [json.loads(e.payload_json)["cards"] for e in first.events] == [["2C"]]
    assert view_of(stub, table_id)[0] == 10


def test_two_simultaneous_commands_on_one_table_apply_exactly_one(
    stub: table_pb2_grpc.TableServiceStub, auth: Meta, deal: dict[str, Any]
) -> None:
    """Two draws by seat 0 at once: one is stored, the other is refused against the new state (R4.3)."""
    table_id, seat0, _seat1 = two_people(stub, auth, deal)
    futures = [
        stub.Act.future(
            pb.ActRequest(table_id=table_id, command_id=f"d{i}", command=pb.Command(draw=pb.DrawCard())),
            metadata=seat0,
        )
        for i in range(2)
    ]
    ok, refused = [], []
    for f in futures:
        try:
            ok.append(f.result(timeout=30))
        except grpc.RpcError as err:
            refused.append(err)
    assert len(ok) == 1 and len(refused) == 1
    assert refused[0].code() in (grpc.StatusCode.FAILED_PRECONDITION, grpc.StatusCode.ABORTED)
    if refused[0].code() == grpc.StatusCode.FAILED_PRECONDITION:
        assert error_info(refused[0]).reason == "already_drawn"
    assert ok[0].version == 10 and view_of(stub, table_id)[0] == 10
    record_events = [e for e in ok[0].events if e.name == "CardsDrawn"]
    assert len(record_events) == 1


def _collect(stream: Any, until: int, into: list[pb.WatchTableResponse]) -> None:
    for message in stream:
        into.append(message)
        if message.event.version >= until:
            return


def test_a_watcher_that_reconnects_from_its_last_version_gets_every_event_once(
    stub: table_pb2_grpc.TableServiceStub, auth: Meta, deal: dict[str, Any]
) -> None:
    """WatchTable: history, then live; a reconnect from the last version seen leaves no gap, no duplicate.
    Seat 1 never sees a card of seat 0's hand until it is played (S13.3)."""
    table_id, seat0, seat1 = two_people(stub, auth, deal)
    got: list[pb.WatchTableResponse] = []
    first = stub.WatchTable(pb.WatchTableRequest(table_id=table_id, from_version=0), metadata=seat1)
    try:
        _collect(first, 6, got)
    finally:
        first.cancel()  # type: ignore[no-untyped-call]
    stub.Act(pb.ActRequest(table_id=table_id, command_id="p1", command=command({"kind": "play", "card": "4D"})),
             metadata=seat0)  # fmt: skip
    second = stub.WatchTable(pb.WatchTableRequest(table_id=table_id, from_version=got[-1].event.version),
                             metadata=seat1)  # fmt: skip
    try:
        _collect(second, 11, got)  # history up to v11
        live: list[pb.WatchTableResponse] = []
        reader = threading.Thread(target=_collect, args=(second, 12, live))
        reader.start()
        stub.Act(pb.ActRequest(table_id=table_id, command_id="d1", command=pb.Command(draw=pb.DrawCard())),
                 metadata=seat1)  # fmt: skip
        reader.join(timeout=60)
        got.extend(live)
    finally:
        second.cancel()  # type: ignore[no-untyped-call]
    assert [m.event.version for m in got] == list(range(1, 13))
    assert [m.view.version for m in got] == list(range(1, 13))
    assert got[-1].event.name == "CardsDrawn" and json.loads(got[-1].event.payload_json)["cards"] == ["2C"]
    seat0_hidden = {"5C", "6H", "KS", "QS", "JS", "2S"}  # seat 0's cards still in hand
    for m in got:
        text = m.event.payload_json + m.view.view_json
        assert not any(f'"{card}"' in text for card in seat0_hidden), (m.event.name, text)
    names = {m.event.name: json.loads(m.event.payload_json) for m in got}
    assert names["HandStarted"]["seed"] is None and names["HandStarted"]["deck"] is None
    dealt = [json.loads(m.event.payload_json) for m in got if m.event.name == "CardsDealt"]
    assert [(d["seat"], d["cards"]) for d in dealt] == [(0, None), (1, ["3C", "4C", "6C", "8H", "9H", "TH", "JH"])]


def test_a_finished_match_streams_to_its_end_and_closes(stub: table_pb2_grpc.TableServiceStub) -> None:
    created = stub.CreateTable(pb.CreateTableRequest(game="agonia", seats=2, options={"target_points": 0}))
    for _ in range(2):
        stub.AddBot(
            pb.AddBotRequest(table_id=created.table_id, level="heuristic"),
            metadata=(("authorization", f"Bearer {created.owner_token}"),),
        )
    final = stub.StartMatch(
        pb.StartMatchRequest(table_id=created.table_id, command_id="go"),
        metadata=(("authorization", f"Bearer {created.owner_token}"),),
    )
    messages = list(stub.WatchTable(pb.WatchTableRequest(table_id=created.table_id)))  # a spectator
    assert [m.event.version for m in messages] == list(range(1, len(messages) + 1))
    assert len(messages) >= final.version and messages[-1].event.name == "MatchEnded"
    for m in messages:
        payload = json.loads(m.event.payload_json)
        if m.event.name in ("CardsDealt", "CardsDrawn"):
            assert payload["cards"] is None
        assert "hand" not in json.loads(m.view.view_json)


def test_watching_an_unknown_table_is_not_found(stub: table_pb2_grpc.TableServiceStub) -> None:
    with pytest.raises(grpc.RpcError) as exc:
        list(stub.WatchTable(pb.WatchTableRequest(table_id="00000000-0000-4000-8000-000000000000")))
    assert (exc.value.code(), error_info(exc.value).reason) == (grpc.StatusCode.NOT_FOUND, "table_not_found")
    with pytest.raises(grpc.RpcError) as bad:
        list(stub.WatchTable(pb.WatchTableRequest(table_id="nope")))
    assert (bad.value.code(), error_info(bad.value).reason) == (grpc.StatusCode.INVALID_ARGUMENT, "bad_table_id")


def test_an_unexpected_error_is_internal_and_the_server_goes_on(
    stub: table_pb2_grpc.TableServiceStub, tables: Tables, monkeypatch: pytest.MonkeyPatch
) -> None:
    created = stub.CreateTable(pb.CreateTableRequest(game="agonia", seats=2))

    def broken(*args: Any) -> Any:
        raise RuntimeError("disk on fire")

    monkeypatch.setattr(tables, "view", broken)
    with pytest.raises(grpc.RpcError) as exc:
        view_of(stub, created.table_id)
    assert exc.value.code() == grpc.StatusCode.INTERNAL
    details = str(exc.value.details())
    assert "internal error" in details and "disk" not in details
    assert error_info(exc.value).reason == "internal"
    monkeypatch.undo()
    assert view_of(stub, created.table_id)[0] == 2  # TableCreated, SeedCommitted (docs/shuffle.md 2a)
