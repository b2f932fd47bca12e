"""Regressions found by trying to break the server: each case gets its status code and
``ErrorInfo.reason``, and leaves the tables as they were.

Automatic play runs in small batches here (``chunk_events``) so that a one-hand bot match takes
several batches and stays fast.
"""

from __future__ import annotations

import functools
import json
import logging
import os
import signal
import socket
import subprocess
import sys
import time
import uuid
from collections.abc import Callable, Iterator
from typing import Any

import grpc
import pytest
from google.protobuf import struct_pb2
from google.rpc import error_details_pb2  # type: ignore[import-untyped]
from grpc_helpers import serve_once
from grpc_status import rpc_status

from trapoula.api.v1 import table_pb2 as pb
from trapoula.api.v1 import table_pb2_grpc
from trapoula.domain.chain import GENESIS, event_hash
from trapoula.domain.errors import CommandRejected, InvalidInput
from trapoula.service import convert, status
from trapoula.service import server as server_module
from trapoula.service.__main__ import main
from trapoula.service.application import OWNER, SPECTATOR, Tables, seat_principal
from trapoula.service.errors import ErrorContext, TableNotFound, annotate, clip
from trapoula.service.server import MAX_MESSAGE_BYTES, MAX_REQUEST_BYTES, create_server
from trapoula.service.settings import Settings, display_url

Meta = Callable[[str], tuple[tuple[str, str], ...]]
Stub = table_pb2_grpc.TableServiceStub
pytestmark = pytest.mark.timeout(120)

CHUNK = 12
"""Events per save in the batched tests: a start alone is 6 (S5.2), with its players' seeds up to 11
(docs/shuffle.md 2a: two bots' seeds for hand 1, hand 2's commitment, their seeds for it); a hand at
least 7 more plays."""
LONG = "x" * 16_384
"""Longer than gRPC's 8 KiB metadata limit if echoed in full."""


def error_info(err: grpc.RpcError) -> error_details_pb2.ErrorInfo:
    found = rpc_status.from_call(err)  # type: ignore[arg-type]
    assert found is not None and len(found.details) == 1, err
    info = error_details_pb2.ErrorInfo()
    assert found.details[0].Unpack(info)
    return info


def refused(call: Callable[[], Any]) -> tuple[grpc.StatusCode, str, str]:
    """``(code, reason, message)`` of a call that must fail with a trapoula status."""
    with pytest.raises(grpc.RpcError) as exc:
        call()
    err = exc.value
    return err.code(), error_info(err).reason, str(err.details())


def explicit(deal: dict[str, Any]) -> pb.ExplicitDeal:
    return pb.ExplicitDeal(
        hands=[pb.CardList(cards=h) for h in deal["hands"]], starter=deal["starter"], stock=deal["stock"]
    )


def version_of(stub: Stub, table_id: str) -> int:
    return int(stub.GetView(pb.GetViewRequest(table_id=table_id)).view.version)


def two_people(stub: Stub, auth: Meta, deal: dict[str, Any] | None) -> tuple[str, Any, Any, Any]:
    """A two-person table (started with ``deal`` by the owner unless None, at a table created for
    explicit deals then: ``manual_deal``, S5.3 as the rules owners answered):
    ``(table_id, owner, seat 0, seat 1)`` metadata."""
    request = pb.CreateTableRequest(game="agonia", seats=2, options={"target_points": 0}, manual_deal=deal is not None)
    created = stub.CreateTable(request)
    j0 = stub.JoinTable(pb.JoinTableRequest(table_id=created.table_id, name="ann"))
    j1 = stub.JoinTable(pb.JoinTableRequest(table_id=created.table_id, name="bob"))
    owner = auth(created.owner_token)
    if deal is not None:
        request = pb.StartMatchRequest(table_id=created.table_id, command_id="start", deal=explicit(deal))
        assert stub.StartMatch(request, metadata=owner).version == 9
    return created.table_id, owner, auth(j0.seat_token), auth(j1.seat_token)


def bot_table(stub: Stub, target: int = 0, seats: int = 2) -> tuple[str, Any]:
    """An all-bot table, not started: ``(table_id, owner metadata)``."""
    created = stub.CreateTable(pb.CreateTableRequest(game="agonia", seats=seats, options={"target_points": target}))
    owner = (("authorization", f"Bearer {created.owner_token}"),)
    for _ in range(seats):
        stub.AddBot(pb.AddBotRequest(table_id=created.table_id, level="random"), metadata=owner)
    return created.table_id, owner


@pytest.fixture
def batched(store: Any) -> Iterator[Tables]:
    """``Tables`` saving automatic play :data:`CHUNK` events at a time, on each store."""
    app = store.open(chunk_events=CHUNK)
    try:
        yield app
    finally:
        app.close()


@pytest.fixture
def batched_stub(batched: Tables, serve_tables: Callable[[Tables], Any]) -> Iterator[Stub]:
    """A stub of a server over :func:`batched`."""
    server = serve_tables(batched)
    with grpc.insecure_channel(f"127.0.0.1:{server.port}") as channel:
        yield table_pb2_grpc.TableServiceStub(channel)


# --------------------------------------------------------------------------- 1. one server per port


@pytest.mark.parametrize("probe", [True, False])
def test_a_second_server_on_a_port_in_use_fails_to_start(
    server: Any, stub: Stub, monkeypatch: pytest.MonkeyPatch, probe: bool
) -> None:
    """gRPC shares ports (SO_REUSEPORT) unless told not to: the second server must fail, naming the
    address, both by the early probe and (without it, as in a race) by gRPC's own bind."""
    address = f"127.0.0.1:{server.port}"
    if not probe:
        monkeypatch.setattr(server_module, "_check_port_free", lambda address: None)

    async def second() -> None:
        create_server(address, server.tables)

    with pytest.raises(RuntimeError, match=address):
        server._submit(second())
    assert stub.ListTables(pb.ListTablesRequest()).tables == []  # the first server goes on serving


@pytest.mark.process
@pytest.mark.timeout(60)
def test_the_module_on_a_port_in_use_exits_with_one_line(tmp_path: Any) -> None:
    with socket.socket() as holder:
        holder.bind(("127.0.0.1", 0))
        holder.listen()
        address = f"127.0.0.1:{holder.getsockname()[1]}"
        done = subprocess.run(
            [sys.executable, "-m", "trapoula.service", "--address", address,
             "--database-url", f"sqlite:///{tmp_path / 'x.sqlite3'}"],
            capture_output=True, text=True, timeout=60, cwd=tmp_path,
        )  # fmt: skip
    assert done.returncode == 1
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"trapoula: cannot listen on '{address}'"), done.stderr
    assert "TRAPOULA_ADDRESS" in lines[0] and done.stdout == ""


# --------------------------------------------------------------------------- 2. automatic play in batches


def test_an_all_bot_match_is_saved_in_bounded_batches_and_a_watcher_sees_it_to_the_end(
    batched_stub: Stub, batched: Tables
) -> None:
    """StartMatch answers with the first batch only; the rest is played after the reply until the
    match ends (no wedged table), every event hash-chained and streamed to a watcher."""
    stub = batched_stub
    table_id, owner = bot_table(stub)
    reply = stub.StartMatch(pb.StartMatchRequest(table_id=table_id, command_id="go"), metadata=owner)
    assert 6 <= len(reply.events) <= CHUNK  # the start (6 events, S5.2) and what fits after it
    assert [e.version for e in reply.events] == list(range(5, reply.version + 1))  # after 4 table events
    messages = list(stub.WatchTable(pb.WatchTableRequest(table_id=table_id), timeout=60))  # ends by itself
    assert [m.event.version for m in messages] == list(range(1, len(messages) + 1))
    assert messages[-1].event.name == "MatchEnded" and len(messages) > reply.version + CHUNK
    assert json.loads(messages[-1].view.view_json)["table"]["status"] == "over"
    stored = batched.stored_events(table_id)
    assert [e.seq for e in stored if e.command_id == "go"] == list(range(5, reply.version + 1))
    assert {e.command_id for e in stored[reply.version :]} == {None}  # the background batches
    assert {e.actor for e in stored[reply.version :]} <= {"bot:0", "bot:1", "table"}
    record = stub.GetRecord(pb.GetRecordRequest(table_id=table_id))
    lines = [json.loads(line) for line in record.jsonl.splitlines()[1:]]
    prev = GENESIS
    for line in lines:
        assert line["hash"] == event_hash(prev, line["seq"], line["name"], line["payload"])
        prev = line["hash"]
    assert record.hands == 1 and lines[-1]["name"] == "MatchEnded"


def test_a_person_gets_the_turn_back_and_the_bots_batches_stay_bounded(batched: Tables) -> None:
    """A person and a bot: after each of the person's moves the bot plays (in the background when
    it does not fit the batch) until the person must act; the person's results never exceed a batch."""
    table_id, _owner = batched.create_table("agonia", 2, {"target_points": 0})
    _, token = batched.join(table_id, "ann")
    batched.add_bot(table_id, "heuristic")
    me = batched.authenticate(table_id, token)
    result = batched.start_match(table_id, OWNER, "start")  # only the owner starts the match
    for n in range(300):
        assert len(result.events) <= CHUNK
        assert batched.settle(timeout=60)
        _, view = batched.view(table_id, me)
        if view["table"]["status"] == "over":
            break
        assert view["legal"], view  # the table never stops with the bot to act
        result = batched.act(table_id, me, f"m{n}", view["legal"][0])
    assert batched.view(table_id, SPECTATOR)[1]["table"]["status"] == "over"


def test_every_save_of_a_bot_match_of_several_hands_holds_at_most_a_batch(
    batched: Tables, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A match of three bots over several hands (target 100, R6.10): after the start's own save
    (the start, its deal and seeds: a first step always goes in) each save holds at most CHUNK
    events.  A deal brings the next hand's seed commitments and the bots' seeds with it
    (docs/shuffle.md 2a) and a hand's end its server seed's reveal; a step with what it brings
    that would pass the bound waits for the next save whole."""
    saves: list[int] = []
    save = batched.commands.save

    def counted(table: Any, drafts: Any, command_id: str | None) -> Any:
        saves.append(len(drafts))
        return save(table, drafts, command_id)

    monkeypatch.setattr(batched.commands, "save", counted)
    # a fixed request id fixes the table id, so the seeded deals: a first hand scoring over 100 (R6.7)
    # would end the match in one hand (about one random match in 10,000)
    table_id, _owner = batched.create_table(
        "agonia", 3, {"target_points": 100}, request_id="several-hands-bounded-saves"
    )
    for level in ("heuristic", "random", "heuristic"):
        batched.add_bot(table_id, level)
    before = len(stored_before := batched.stored_events(table_id))
    assert [e.name for e in stored_before][-3:] == ["SeatTaken"] * 3
    saves.clear()
    batched.start_match(table_id, OWNER, "go")
    assert batched.settle(timeout=60)
    stored = batched.stored_events(table_id)
    assert stored[-1].name == "MatchEnded" and sum(e.name == "HandStarted" for e in stored) >= 2
    assert sum(saves) == len(stored) - before and len(saves) >= 2
    first = next(i for i, e in enumerate(stored[before:]) if e.command_id is None)  # the start's own save
    assert saves[0] == first and stored[before].name == "MatchStarted"
    assert max(saves[1:]) <= CHUNK, saves
    assert [e.seq for e in stored] == list(range(1, len(stored) + 1))


def test_automatic_play_left_by_a_stopped_service_resumes_at_the_next_read(store: Any) -> None:
    """A stop between batches leaves bots to act; the next service to read the table plays on."""
    first = store.open(chunk_events=CHUNK)
    try:
        table_id, _owner = first.create_table("agonia", 2, {"target_points": 0})
        first.add_bot(table_id, "random")
        first.add_bot(table_id, "heuristic")
        first.stop_automatic()  # as a stopping server does: no batch after the command's own
        result = first.start_match(table_id, OWNER, "go")
        assert len(result.events) <= CHUNK
        assert first.settle(timeout=5)
        version, view = first.view(table_id, SPECTATOR)
        assert (version, view["table"]["status"]) == (result.version, "playing")
    finally:
        first.close()
    second = store.open(chunk_events=CHUNK)
    try:
        second.view(table_id, SPECTATOR)  # any read resumes automatic play
        assert second.settle(timeout=60)
        version, view = second.view(table_id, SPECTATOR)
        assert view["table"]["status"] == "over" and version > result.version
        assert second.record(table_id)[1] == 1
    finally:
        second.close()


# --------------------------------------------------------------------------- 3. graceful stop


@pytest.mark.process
@pytest.mark.timeout(90)
def test_sigterm_stops_a_busy_server_and_ends_watch_streams(tmp_path: Any) -> None:
    """Busy all-bot tables (background automatic play) and an open watch stream: SIGTERM ends the
    stream with UNAVAILABLE (server_stopping) and the process exits 0 well before bots could finish."""
    env = {**os.environ, "TRAPOULA_SECRET": "22" * 32, "TRAPOULA_ADDRESS": "127.0.0.1:0"}
    proc = subprocess.Popen(
        [sys.executable, "-m", "trapoula.service", "--database-url", f"sqlite:///{tmp_path / 'busy.sqlite3'}"],
        env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=tmp_path,
    )  # fmt: skip
    try:
        assert proc.stdout is not None
        address = proc.stdout.readline().split()[-1]
        with grpc.insecure_channel(address) as channel:
            stub = table_pb2_grpc.TableServiceStub(channel)
            ids = []
            for _ in range(3):
                table_id, owner = bot_table(stub, target=1_000, seats=4)
                stub.StartMatch(pb.StartMatchRequest(table_id=table_id, command_id="go"), metadata=owner, timeout=30)
                ids.append(table_id)
            stream = stub.WatchTable(pb.WatchTableRequest(table_id=ids[0]), timeout=60)
            messages = iter(stream)
            seen = [next(messages) for _ in range(5)]
            assert [m.event.version for m in seen] == [1, 2, 3, 4, 5]
            started = time.monotonic()
            proc.send_signal(signal.SIGTERM)
            with pytest.raises(grpc.RpcError) as ended:
                for _ in stream:
                    pass
            assert ended.value.code() == grpc.StatusCode.UNAVAILABLE
            assert error_info(ended.value).reason == "server_stopping"
        assert proc.wait(timeout=30) == 0
        assert time.monotonic() - started < 30
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert proc.stderr is not None and "Traceback" not in proc.stderr.read()
    left = Tables(f"sqlite:///{tmp_path / 'busy.sqlite3'}")
    try:
        left.stop_automatic()  # only look: do not play on
        statuses = {left.view(t, SPECTATOR)[1]["table"]["status"] for t in ids}
        assert statuses == {"playing"}  # stopped between batches, not played out first
        for t in ids:
            jsonl, _hands = left.record(t)  # every saved batch is whole: the chain checks out on load
            assert jsonl
    finally:
        left.close()


# --------------------------------------------------------------------------- 4. long input


def test_long_input_is_invalid_argument_with_a_short_message(stub: Stub, auth: Meta, deal: dict[str, Any]) -> None:
    """Every echo of input is clipped to 64 characters: a 16 KiB input never turns the status into
    RESOURCE_EXHAUSTED (gRPC's 8 KiB metadata limit)."""
    table_id, owner, seat0, _seat1 = two_people(stub, auth, deal)
    wrong_struct = struct_pb2.Struct()
    wrong_struct.update({LONG: 1})
    cases: list[tuple[str, Callable[[], Any], grpc.StatusCode, str]] = [
        ("table id", lambda: stub.JoinTable(pb.JoinTableRequest(table_id=LONG[:4096], name="cat")),
         grpc.StatusCode.INVALID_ARGUMENT, "bad_table_id"),
        ("command id", lambda: stub.Act(pb.ActRequest(table_id=table_id, command_id=LONG[:4096],
                                                       command=pb.Command(draw=pb.DrawCard())), metadata=seat0),
         grpc.StatusCode.INVALID_ARGUMENT, "bad_command_id"),
        ("name", lambda: stub.JoinTable(pb.JoinTableRequest(table_id=table_id, name=LONG)),
         grpc.StatusCode.INVALID_ARGUMENT, "bad_name"),
        ("bot name", lambda: stub.AddBot(pb.AddBotRequest(table_id=table_id, level="random", name=LONG),
                                         metadata=owner),
         grpc.StatusCode.INVALID_ARGUMENT, "bad_name"),
        ("bot level", lambda: stub.AddBot(pb.AddBotRequest(table_id=table_id, level=LONG), metadata=owner),
         grpc.StatusCode.INVALID_ARGUMENT, "bad_bot_level"),
        ("game", lambda: stub.CreateTable(pb.CreateTableRequest(game=LONG, seats=2)),
         grpc.StatusCode.INVALID_ARGUMENT, "unknown_game"),
        ("option key", lambda: stub.CreateTable(pb.CreateTableRequest(game="agonia", seats=2, options=wrong_struct)),
         grpc.StatusCode.INVALID_ARGUMENT, "bad_option"),
        ("option value", lambda: stub.CreateTable(pb.CreateTableRequest(game="agonia", seats=2,
                                                                        options={"target_points": LONG})),
         grpc.StatusCode.INVALID_ARGUMENT, "bad_option"),
        ("card", lambda: stub.Act(pb.ActRequest(table_id=table_id, command_id="c1",
                                                command=pb.Command(play=pb.PlayCard(card=LONG))), metadata=seat0),
         grpc.StatusCode.INVALID_ARGUMENT, "bad_card"),
        ("suit", lambda: stub.Act(pb.ActRequest(table_id=table_id, command_id="c1",
                                                command=pb.Command(play=pb.PlayCard(card="4D", suit=LONG))),
                                  metadata=seat0),
         grpc.StatusCode.INVALID_ARGUMENT, "bad_suit"),
        ("chosen suit", lambda: stub.Act(pb.ActRequest(table_id=table_id, command_id="c1",
                                                       command=pb.Command(choose_suit=pb.ChooseSuit(suit=LONG))),
                                         metadata=seat0),
         grpc.StatusCode.INVALID_ARGUMENT, "bad_suit"),
        ("deal card", lambda: stub.Act(pb.ActRequest(table_id=table_id, command_id="c1", command=pb.Command(
            next_hand=pb.NextHand(deal=pb.ExplicitDeal(hands=[pb.CardList(cards=[LONG])], starter="3D")))),
            metadata=owner),
         grpc.StatusCode.INVALID_ARGUMENT, "bad_card"),
        ("page token", lambda: stub.ListTables(pb.ListTablesRequest(page_token=LONG)),
         grpc.StatusCode.INVALID_ARGUMENT, "bad_page_token"),
        ("lobby game", lambda: stub.ListTables(pb.ListTablesRequest(game=LONG)),
         grpc.StatusCode.INVALID_ARGUMENT, "unknown_game"),
    ]  # fmt: skip
    for label, call, code, reason in cases:
        got_code, got_reason, message = refused(call)
        assert (got_code, got_reason) == (code, reason), label
        assert len(message) <= 200 and LONG[:100] not in message, (label, message)
        assert version_of(stub, table_id) == 9, label
    assert [t.table_id for t in stub.ListTables(pb.ListTablesRequest()).tables] == [table_id]


@pytest.mark.parametrize(
    ("name", "ok"),
    [
        ("a" * 64, True),
        ("  " + "a" * 64 + "  ", True),  # stripped first
        ("a" * 65, False),
        ("ann\x07", False),  # a control character
        ("ann\nbob", False),
        ("bob\u202eevil", False),  # a bidi override
        ("\u00e9l\u00e8ne \U0001f469\u200d\U0001f469", True),  # accents, an emoji joined by ZWJ
    ],
)
def test_names_are_1_to_64_characters_without_control_characters(tables: Tables, name: str, ok: bool) -> None:
    table_id, _owner = tables.create_table("agonia", 2, {})
    if ok:
        assert tables.join(table_id, name)[0] == 0
        return
    with pytest.raises(InvalidInput) as exc:
        tables.join(table_id, name)
    assert exc.value.reason == "bad_name"
    assert tables.view(table_id, SPECTATOR)[0] == 2  # TableCreated, SeedCommitted (docs/shuffle.md 2a)


def test_status_clips_every_echo_and_message() -> None:
    """The net under every message: 64 characters of any metadata value, 300 of a message."""
    assert clip("y" * 65) == "y" * 63 + "\u2026" and clip("short") == "short"
    rich = status.to_rpc_status(annotate(InvalidInput("bad " + LONG, "bad_card"), ErrorContext(LONG, 1, 2)))
    info = error_details_pb2.ErrorInfo()
    assert rich.details[0].Unpack(info)
    assert len(rich.message) == 300 and rich.message.endswith("\u2026")
    assert info.metadata["table_id"] == "x" * 63 + "\u2026"
    rejected = status.to_rpc_status(CommandRejected("no_match", "R4.1", "card " + LONG))
    assert rejected.message.endswith("\u2026 [no_match, R4.1]") and len(rejected.message) < 330


# --------------------------------------------------------------------------- 5. options that are not JSON


@pytest.mark.parametrize("bad", [float("nan"), float("inf"), float("-inf")])
def test_nan_and_infinity_in_options_are_bad_options(stub: Stub, bad: float) -> None:
    for options in ({"target_points": bad}, {"target_points": [1, bad]}, {"x": {"y": bad}}):
        struct = struct_pb2.Struct()
        struct.update(options)
        request = pb.CreateTableRequest(game="agonia", seats=2, options=struct)
        code, reason, _ = refused(functools.partial(stub.CreateTable, request))
        assert (code, reason) == (grpc.StatusCode.INVALID_ARGUMENT, "bad_option"), options
    assert stub.ListTables(pb.ListTablesRequest()).tables == []


def test_a_request_reader_never_lets_value_or_type_errors_through() -> None:
    """Whatever a reader raises is INVALID_ARGUMENT with its reason, never INTERNAL."""

    @convert.reads_request("bad_thing")
    def reader(kind: str) -> int:
        if kind == "type":
            raise TypeError("not a thing")
        if kind == "invalid":
            raise InvalidInput("kept", reason="bad_card")
        return int(kind)

    for kind, reason in (("type", "bad_thing"), ("nope", "bad_thing"), ("invalid", "bad_card")):
        with pytest.raises(InvalidInput) as exc:
            reader(kind)
        assert exc.value.reason == reason
        assert status.code_for(exc.value) == grpc.StatusCode.INVALID_ARGUMENT
    assert reader("7") == 7


# --------------------------------------------------------------------------- 6. command ids per caller


def test_command_ids_belong_to_their_caller(stub: Stub, auth: Meta, deal: dict[str, Any]) -> None:
    """The owner started with id "start"; the seats may use "start" for their own commands."""
    table_id, _owner, seat0, seat1 = two_people(stub, auth, deal)

    def act(meta: Any, cmd: pb.Command) -> pb.ActResponse:
        return stub.Act(pb.ActRequest(table_id=table_id, command_id="start", command=cmd), metadata=meta)

    played = act(seat0, pb.Command(play=pb.PlayCard(card="4D")))  # R4.1: 4D follows the suit of 3D
    assert (played.version, [e.name for e in played.events]) == (11, ["CardPlayed", "TurnStarted"])
    drawn = act(seat1, pb.Command(draw=pb.DrawCard()))  # seat 0's "start" is not seat 1's
    assert (drawn.version, [e.name for e in drawn.events]) == (12, ["CardsDrawn"])
    assert json.loads(drawn.events[0].payload_json)["seat"] == 1
    again = act(seat1, pb.Command(play=pb.PlayCard(card="4C")))  # seat 1 repeats its id: its first result
    assert again == drawn and version_of(stub, table_id) == 12


def test_a_repeated_id_of_the_same_seat_returns_its_first_result_even_after_others_used_it(
    tables: Tables, deal: dict[str, Any]
) -> None:
    """Command ids belong to their caller (the table is created for explicit deals, S5.3 as the rules
    owners answered, so the owner may deal it)."""
    table_id, _owner = tables.create_table("agonia", 2, {"target_points": 0}, manual_deal=True)
    _, t0 = tables.join(table_id, "ann")
    _, t1 = tables.join(table_id, "bob")
    p0, p1 = tables.authenticate(table_id, t0), tables.authenticate(table_id, t1)
    tables.start_match(table_id, OWNER, "x", deal)
    first = tables.act(table_id, p0, "x", {"kind": "play", "card": "4D"})
    other = tables.act(table_id, p1, "x", {"kind": "draw"})
    assert (first.version, other.version) == (11, 12)
    assert tables.act(table_id, p0, "x", {"kind": "draw"}) == first  # a different payload: still the first result
    assert tables.act(table_id, p1, "x", {"kind": "draw"}).events == other.events
    assert tables.view(table_id, SPECTATOR)[0] == 12
    assert seat_principal(0) == p0


# --------------------------------------------------------------------------- 7. explicit deals


def test_only_the_owner_may_give_an_explicit_deal(stub: Stub, auth: Meta, deal: dict[str, Any]) -> None:
    """Explicit deals (S5.3) are for audits and tests: a seat giving one could stack the deck."""
    table_id, owner, seat0, _seat1 = two_people(stub, auth, None)
    start = pb.StartMatchRequest(table_id=table_id, command_id="s", deal=explicit(deal))
    code, reason, _ = refused(lambda: stub.StartMatch(start, metadata=seat0))
    assert (code, reason) == (grpc.StatusCode.PERMISSION_DENIED, "explicit_deal_owner_only")
    assert version_of(stub, table_id) == 4
    # only the owner starts the match, even from a seed (issue 19: table governance)
    seeded_start = pb.StartMatchRequest(table_id=table_id, command_id="s")
    code, reason, _ = refused(lambda: stub.StartMatch(seeded_start, metadata=seat0))
    assert (code, reason) == (grpc.StatusCode.PERMISSION_DENIED, "owner_only")
    assert version_of(stub, table_id) == 4
    seeded = stub.StartMatch(seeded_start, metadata=owner)
    # the owner starts from a seed: 4 table events (TableCreated, SeedCommitted of hand 1, two SeatTaken),
    # MatchStarted, SeedCommitted of hand 2 (docs/shuffle.md 2a), HandStarted, 2 CardsDealt, StarterTurned,
    # TurnStarted, and a TurnSkipped before it when the seeded up-card is a 9 (R3.4.2)
    names = [e.name for e in seeded.events]
    assert names[:5] == ["MatchStarted", "SeedCommitted", "HandStarted", "CardsDealt", "CardsDealt"]
    assert seeded.version == 11 + sum(e.name == "TurnSkipped" for e in seeded.events)
    next_hand = pb.Command(next_hand=pb.NextHand(deal=explicit(deal)))
    code, reason, _ = refused(
        lambda: stub.Act(pb.ActRequest(table_id=table_id, command_id="n", command=next_hand), metadata=seat0)
    )
    assert (code, reason) == (grpc.StatusCode.PERMISSION_DENIED, "explicit_deal_owner_only")
    assert version_of(stub, table_id) == seeded.version


# --------------------------------------------------------------------------- 8. one id per table


def test_only_the_canonical_table_id_is_accepted(stub: Stub, auth: Meta, deal: dict[str, Any]) -> None:
    """Aliases of a table's UUID would each get their own lock: they are refused."""
    table_id, _owner, seat0, _seat1 = two_people(stub, auth, deal)
    aliases = [table_id.upper(), "{" + table_id + "}", "urn:uuid:" + table_id, table_id.replace("-", ""),
               " " + table_id, table_id + "\n"]  # fmt: skip
    for alias in aliases:
        for call in (
            lambda a=alias: stub.GetView(pb.GetViewRequest(table_id=a)),
            lambda a=alias: stub.JoinTable(pb.JoinTableRequest(table_id=a, name="cat")),
            lambda a=alias: stub.Act(
                pb.ActRequest(table_id=a, command_id="c", command=pb.Command(draw=pb.DrawCard())), metadata=seat0
            ),
        ):
            code, reason, _ = refused(call)
            assert (code, reason) == (grpc.StatusCode.INVALID_ARGUMENT, "bad_table_id"), alias
    assert version_of(stub, table_id) == 9


def test_unknown_tables_leave_no_lock_behind(tables: Tables) -> None:
    table_id, _owner = tables.create_table("agonia", 2, {})
    tables.join(table_id, "ann")
    before = len(tables._locks)
    for _ in range(50):
        with pytest.raises(TableNotFound):
            tables.join(str(uuid.uuid4()), "ann")
        with pytest.raises(TableNotFound):
            tables.add_bot(str(uuid.uuid4()), "random")
    with pytest.raises(InvalidInput):
        tables.join(table_id.upper(), "bob")
    assert len(tables._locks) == before == 1


# --------------------------------------------------------------------------- 9. watching ahead of the table


def test_watching_from_a_version_the_table_has_not_reached_is_out_of_range(
    stub: Stub, auth: Meta, deal: dict[str, Any]
) -> None:
    table_id, _owner, seat0, _seat1 = two_people(stub, auth, deal)

    def watch(from_version: int) -> list[pb.WatchTableResponse]:
        return list(stub.WatchTable(pb.WatchTableRequest(table_id=table_id, from_version=from_version), timeout=30))

    for ahead in (10, 2**63):
        code, reason, message = refused(functools.partial(watch, ahead))
        assert (code, reason) == (grpc.StatusCode.OUT_OF_RANGE, "version_ahead")
        assert "version 9" in message
    at_head = stub.WatchTable(pb.WatchTableRequest(table_id=table_id, from_version=9), metadata=seat0, timeout=30)
    stub.Act(pb.ActRequest(table_id=table_id, command_id="d", command=pb.Command(draw=pb.DrawCard())), metadata=seat0)
    try:
        assert next(iter(at_head)).event.version == 10  # the head itself is fine: the stream waits for what follows
    finally:
        at_head.cancel()  # type: ignore[no-untyped-call]


# --------------------------------------------------------------------------- 10. big messages


def test_a_record_over_4_mib_can_be_fetched(server: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """The server sends messages of up to 64 MiB (gRPC's default is 4 MiB) and takes requests of up to
    8 MiB: a 5 MB one is judged, a larger one than 8 MiB refused before it is read."""
    big = '{"format":"trapoula-record"}\n' + ("z" * 999 + "\n") * 5_000  # 5 MB
    monkeypatch.setattr(server.tables, "record", lambda table_id: (big, 7))
    options = [("grpc.max_receive_message_length", MAX_MESSAGE_BYTES)]
    with grpc.insecure_channel(f"127.0.0.1:{server.port}", options=options) as channel:
        stub = table_pb2_grpc.TableServiceStub(channel)
        reply = stub.GetRecord(pb.GetRecordRequest(table_id=str(uuid.uuid4())), timeout=30)
        assert (len(reply.jsonl), reply.hands) == (len(big), 7)
        huge = struct_pb2.Struct()
        huge.update({"target_points": "q" * 5_000_000})  # a 5 MB request reaches the server ...
        request = pb.CreateTableRequest(game="agonia", seats=2, options=huge)
        code, reason, _ = refused(lambda: stub.CreateTable(request, timeout=30))
        assert (code, reason) == (grpc.StatusCode.INVALID_ARGUMENT, "bad_option")  # ... and is judged, not dropped
        huge.update({"target_points": "q" * (MAX_REQUEST_BYTES + 1)})  # above 8 MiB: refused unread
        request = pb.CreateTableRequest(game="agonia", seats=2, options=huge)
        with pytest.raises(grpc.RpcError) as refusal:
            stub.CreateTable(request, timeout=30)
        assert refusal.value.code() == grpc.StatusCode.RESOURCE_EXHAUSTED


# --------------------------------------------------------------------------- 11. page tokens


def test_page_tokens_are_ascii_digits_only(stub: Stub) -> None:
    for _ in range(3):
        stub.CreateTable(pb.CreateTableRequest(game="agonia", seats=2))
    first = stub.ListTables(pb.ListTablesRequest(page_size=2))
    assert first.next_page_token.isascii() and first.next_page_token.isdigit()
    assert len(stub.ListTables(pb.ListTablesRequest(page_size=2, page_token=first.next_page_token)).tables) == 1
    for token in ("-5", " 5 ", "1_0", "\u0663", "+5", "0x5", "5" * 21, "5.0"):
        code, reason, _ = refused(functools.partial(stub.ListTables, pb.ListTablesRequest(page_token=token)))
        assert (code, reason) == (grpc.StatusCode.INVALID_ARGUMENT, "bad_page_token"), token
    assert len(stub.ListTables(pb.ListTablesRequest()).tables) == 3


# --------------------------------------------------------------------------- 14. startup errors and logging


@pytest.mark.parametrize(
    ("url", "shown"),
    [
        ("bogus://nowhere", "bogus://nowhere"),
        ("sqlite:///{tmp}/no/such/folder/x.sqlite3", "no/such/folder"),
        ("postgresql+psycopg://ann:hunter2@127.0.0.1:1/trapoula", "postgresql+psycopg://ann:***@127.0.0.1:1/trapoula"),
    ],
)
def test_a_store_that_cannot_be_opened_is_one_line_and_a_nonzero_exit(
    tmp_path: Any, capsys: pytest.CaptureFixture[str], url: str, shown: str
) -> None:
    code = main(["--address", "127.0.0.1:0", "--database-url", url.format(tmp=tmp_path)])
    err = capsys.readouterr().err.strip().splitlines()
    assert code == 1
    assert len(err) == 1 and err[0].startswith("trapoula: cannot open the event store "), err
    assert shown in err[0] and "TRAPOULA_DATABASE_URL" in err[0]
    assert "hunter2" not in err[0] and "Traceback" not in err[0]


def test_the_startup_line_names_the_address_and_the_store_without_its_password(
    tmp_path: Any, caplog: pytest.LogCaptureFixture
) -> None:
    url = f"sqlite:///{tmp_path / 'log.sqlite3'}"
    settings = Settings(address="127.0.0.1:0", database_url=url, secret=bytes(32))
    bound: list[str] = []
    with caplog.at_level(logging.INFO, logger="trapoula.service.server"):
        serve_once(settings, bound)
    [line] = [r.getMessage() for r in caplog.records if "serving" in r.getMessage()]
    assert bound[0] in line and f"store {url}" in line
    assert display_url("postgresql+psycopg://ann:hunter2@db:5432/t") == "postgresql+psycopg://ann:***@db:5432/t"
    assert display_url("postgresql://u:p@ss@h/d") == "postgresql://u:***@h/d"


@pytest.mark.parametrize(
    ("method", "body"),
    [
        ("CreateTable", b"\xff\xff\xff"),  # not a protobuf message at all
        ("JoinTable", b"\x0a\x02\xff\xfe"),  # table_id: bytes that are not UTF-8
        ("CreateTable", b"\x18"),  # a field key with its value cut off
        ("WatchTable", b"\xff\xff"),  # a streaming call
    ],
)
def test_request_bytes_that_do_not_parse_get_invalid_argument_and_the_server_goes_on(
    channel: grpc.Channel, stub: table_pb2_grpc.TableServiceStub, method: str, body: bytes
) -> None:
    """Bad input gets a clear error: grpcio would answer UNKNOWN; the service says INVALID_ARGUMENT
    with reason ``bad_request``, and the next call is served as usual."""
    path = f"/trapoula.api.v1.TableService/{method}"
    if method == "WatchTable":
        call: Any = channel.unary_stream(path, request_serializer=None, response_deserializer=None)
        with pytest.raises(grpc.RpcError) as failed:
            list(call(body, timeout=10))
    else:
        call = channel.unary_unary(path, request_serializer=None, response_deserializer=None)
        with pytest.raises(grpc.RpcError) as failed:
            call(body, timeout=10)
    assert failed.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert f"{method}: the request is not readable" in (failed.value.details() or "")
    rich = rpc_status.from_call(failed.value)
    assert rich is not None
    info = error_details_pb2.ErrorInfo()
    rich.details[0].Unpack(info)
    assert info.reason == "bad_request"
    assert stub.ListGames(pb.ListGamesRequest()).games  # the server goes on
