"""ListLobby, ListMatches and GetStandings over a real channel; the thin client's methods and the
``trapoula history`` / ``trapoula standings`` commands; ``serve`` migrating and projecting."""

from __future__ import annotations

import asyncio
import io
import json
import threading
import time
import urllib.request
from collections.abc import Callable, Iterator
from typing import Any

import grpc
import pytest
import sqlalchemy
from grpc_helpers import ServerThread, error_info, projected
from prometheus_client.parser import text_string_to_metric_families

from trapoula.api.v1 import table_pb2 as pb
from trapoula.api.v1 import table_pb2_grpc
from trapoula.clients.cli import main as cli
from trapoula.clients.table import TableClient
from trapoula.service.application import Tables
from trapoula.service.migrations import head
from trapoula.service.server import serve
from trapoula.service.settings import Settings

pytestmark = pytest.mark.timeout(120)


def eventually(check: Callable[[], Any], timeout: float = 20.0) -> Any:
    """``check()`` once it is truthy (the read models follow the log a moment later)."""
    deadline = time.monotonic() + timeout
    while True:
        found = check()
        if found or time.monotonic() > deadline:
            return found
        time.sleep(0.05)


def until(read: Callable[[], Any], want: Any, timeout: float = 20.0) -> Any:
    """``read()`` again until it equals ``want`` (the read models follow the log a moment later)
    or ``timeout`` seconds have passed; the last value read."""
    deadline = time.monotonic() + timeout
    while (got := read()) != want and time.monotonic() < deadline:
        time.sleep(0.05)
    return got


@pytest.fixture
def served(store: Any) -> Iterator[tuple[Tables, ServerThread]]:
    tables = store.open()
    try:
        with projected(tables, store.url, store.schema) as (server, _):
            yield tables, server
    finally:
        tables.close()


def test_a_match_played_over_grpc_shows_in_the_history_and_the_standings(served: tuple[Tables, ServerThread]) -> None:
    tables, server = served
    with grpc.insecure_channel(server.address) as channel:
        stub = table_pb2_grpc.TableServiceStub(channel)
        created = stub.CreateTable(pb.CreateTableRequest(game="agonia", seats=2, options={"target_points": 0}))
        owner = (("authorization", f"Bearer {created.owner_token}"),)
        for name in ("helga", "otto"):
            stub.AddBot(pb.AddBotRequest(table_id=created.table_id, level="heuristic", name=name), metadata=owner)
        stub.StartMatch(pb.StartMatchRequest(table_id=created.table_id, command_id="go"), metadata=owner)
        waiting = stub.CreateTable(pb.CreateTableRequest(game="agonia", seats=3))
        stub.JoinTable(pb.JoinTableRequest(table_id=waiting.table_id, name="ann", seat=1))
        assert tables.settle(60)

        matches = eventually(lambda: stub.ListMatches(pb.ListMatchesRequest()).matches)
        assert [m.table_id for m in matches] == [created.table_id]
        match = matches[0]
        end = tables.stored_events(created.table_id)[-1]
        record = stub.GetRecord(pb.GetRecordRequest(table_id=created.table_id))
        assert (match.game, json.loads(match.result_json)) == ("agonia", end.payload)
        assert list(match.winner_seats) == [end.payload["winner"]] and not match.HasField("winner_team")
        assert [(p.seat, p.name, p.bot, p.total, p.won) for p in match.players] == [
            (seat, name, "heuristic", end.payload["totals"][seat], seat == end.payload["winner"])
            for seat, name in enumerate(["helga", "otto"])
        ]
        assert match.record_available and match.record_complete and match.record_hands == record.hands == 1
        assert match.version == len(tables.stored_events(created.table_id))
        assert match.finished_at.endswith("Z") and match.started_at <= match.finished_at
        assert stub.ListMatches(pb.ListMatchesRequest(player="ann")).matches == []
        assert len(stub.ListMatches(pb.ListMatchesRequest(player="otto", game="agonia")).matches) == 1

        def lobby() -> list[Any]:
            return [
                (t.table_id, list(t.free_seats), t.open_places, t.status, [(p.seat, p.name, p.bot) for p in t.players])
                for t in stub.ListLobby(pb.ListLobbyRequest()).tables
            ]

        # the join may be folded after the match's end: wait for it, not for the first table listed
        want = [(waiting.table_id, [0, 2], 2, "open", [(1, "ann", "")])]
        assert until(lobby, want) == want

        first = stub.GetStandings(pb.GetStandingsRequest(game="agonia", page_size=1))
        second = stub.GetStandings(pb.GetStandingsRequest(game="agonia", page_size=1, page_token=first.next_page_token))
        rows = [*first.standings, *second.standings]
        winner, loser = ("helga", "otto") if end.payload["winner"] == 0 else ("otto", "helga")
        assert [(r.player, r.bot, r.played, r.won) for r in rows] == [
            (winner, "heuristic", 1, 1),
            (loser, "heuristic", 1, 0),
        ]
        assert first.next_page_token and second.next_page_token == ""

        for request, call, reason in [
            (pb.ListMatchesRequest(page_token="nope"), stub.ListMatches, "bad_page_token"),
            (pb.ListMatchesRequest(finished_after="tomorrow"), stub.ListMatches, "bad_time"),
            (pb.GetStandingsRequest(page_size=-1), stub.GetStandings, "bad_page_size"),
            (pb.ListLobbyRequest(page_token="x" * 600), stub.ListLobby, "bad_page_token"),
        ]:
            with pytest.raises(grpc.RpcError) as refused:
                call(request)
            assert refused.value.code() == grpc.StatusCode.INVALID_ARGUMENT
            assert error_info(refused.value).reason == reason

    with TableClient(server.address) as client:
        page = client.matches(player="helga")
        assert [m.table_id for m in page.items] == [created.table_id] and page.next_page_token == ""
        assert [p.name for p in page.items[0].winners] == [winner]
        assert [t.table_id for t in client.lobby().items] == [waiting.table_id]
        assert [(s.player, s.played) for s in client.standings(player=winner).items] == [(winner, 1)]

    out = io.StringIO()
    assert cli(["history", "--address", server.address], out=out) == 0
    lines = out.getvalue().splitlines()
    assert lines[0].split() == ["FINISHED", "(UTC)", "GAME", "TABLE", "HANDS", "RECORD", "WINNERS", "PLAYERS"]
    assert len(lines) == 2 and created.table_id in lines[1] and " yes " in lines[1]
    out = io.StringIO()
    assert cli(["standings", "--game", "agonia", "--address", server.address], out=out) == 0
    lines = out.getvalue().splitlines()
    # the last column: a verified player's id, "unverified" for a person without one, "-" for a bot
    assert lines[0].split() == ["GAME", "PLAYER", "BOT", "PLAYED", "WON", "LAST", "FINISHED", "(UTC)", "PLAYER", "ID"]
    assert lines[1].split()[-1] == "-"
    assert lines[1].split()[:5] == ["agonia", winner, "heuristic", "1", "1"] and len(lines) == 3
    assert cli(["history", "--after", "yesterday", "--address", server.address], out=io.StringIO()) == 1


def test_the_lobby_shows_a_table_for_explicit_deals_before_anyone_joins(served: tuple[Tables, ServerThread]) -> None:
    """S5.3 (vida R3.2, giminaiciai R3.8, romis R3.7), as the rules owners answered: a table for
    explicit deals says so before anyone joins.  Two empty tables: the lobby lists the one created with
    ``manual_deal`` as such, the ordinary one not; so does the thin client's ``lobby``."""
    _, server = served
    with grpc.insecure_channel(server.address) as channel:
        stub = table_pb2_grpc.TableServiceStub(channel)
        manual = stub.CreateTable(pb.CreateTableRequest(game="vida", seats=4, manual_deal=True)).table_id
        ordinary = stub.CreateTable(pb.CreateTableRequest(game="vida", seats=4)).table_id

        def lobby() -> dict[str, tuple[bool, list[int]]]:
            listed = stub.ListLobby(pb.ListLobbyRequest()).tables
            return {t.table_id: (t.manual_deal, list(t.free_seats)) for t in listed}

        want = {manual: (True, [0, 1, 2, 3]), ordinary: (False, [0, 1, 2, 3])}
        assert until(lobby, want) == want
    with TableClient(server.address) as client:
        assert {t.table_id: t.manual_deal for t in client.lobby().items} == {manual: True, ordinary: False}


def test_a_server_without_read_models_answers_unavailable(sqlite_store: Any) -> None:
    tables = sqlite_store.open()
    try:
        with ServerThread(tables) as server, grpc.insecure_channel(server.address) as channel:
            stub = table_pb2_grpc.TableServiceStub(channel)
            with pytest.raises(grpc.RpcError) as refused:
                stub.ListMatches(pb.ListMatchesRequest())
            assert refused.value.code() == grpc.StatusCode.UNAVAILABLE
            assert error_info(refused.value).reason == "read_models_off"
    finally:
        tables.close()


def test_serve_migrates_and_a_server_with_the_projection_catches_up(tmp_path: Any) -> None:
    url = f"sqlite:///{tmp_path / 'served.sqlite3'}"

    def run(projection: bool, work: Callable[[str], None]) -> None:
        settings = Settings(
            address="127.0.0.1:0",
            database_url=url,
            secret=bytes(32),
            metrics_address="127.0.0.1:0" if projection else None,
            projection=projection,
        )
        started: list[tuple[asyncio.AbstractEventLoop, asyncio.Event, str]] = []
        ready = threading.Event()

        async def main() -> None:
            stop = asyncio.Event()

            def on_ready(address: str) -> None:
                started.append((asyncio.get_running_loop(), stop, address))
                ready.set()

            await serve(settings, ready=on_ready, stop=stop, metrics_ready=scraped.append)

        thread = threading.Thread(target=asyncio.run, args=(main(),), daemon=True)
        thread.start()
        assert ready.wait(30)
        loop, stop, address = started[0]
        try:
            work(address)
        finally:
            loop.call_soon_threadsafe(stop.set)
            thread.join(30)

    made: list[str] = []
    scraped: list[str] = []

    def without_projection(address: str) -> None:
        with TableClient(address) as client:
            made.append(client.create_table("agonia", seats=2).table_id)
            time.sleep(0.5)  # a projecting server would have listed it by now
            assert client.lobby().items == ()

    def with_projection(address: str) -> None:
        with TableClient(address) as client:
            lobby = eventually(lambda: client.lobby().items)
            assert [t.table_id for t in lobby] == made
        # the projection's progress is exported: the log's two events (the table's TableCreated and
        # its first hand's SeedCommitted, docs/shuffle.md 2a) folded, nothing left, no failure
        [metrics_address] = scraped

        def progress() -> dict[str, float]:
            with urllib.request.urlopen(f"http://{metrics_address}/metrics", timeout=10) as reply:
                text = reply.read().decode()
            return {
                s.name: s.value
                for family in text_string_to_metric_families(text)
                for s in family.samples
                if s.name.startswith("trapoula_projection_")
            }

        seen = eventually(lambda: (lambda p: p if p.get("trapoula_projection_position", 0) > 0 else None)(progress()))
        assert seen == {
            "trapoula_projection_position": 2.0,
            "trapoula_projection_lag": 0.0,
            "trapoula_projection_failures_total": 0.0,
        }

    run(False, without_projection)
    run(True, with_projection)
    engine = sqlalchemy.create_engine(url)
    with engine.connect() as conn:
        assert conn.execute(sqlalchemy.text("SELECT version_num FROM trapoula_alembic_version")).scalar() == head()
    engine.dispose()


def test_history_shows_vida_teams_and_the_players_out_of_a_mau_mau_match(sqlite_store: Any) -> None:
    """``trapoula history``: a vida match lists each team's partners (seats 0 and 2, 1 and 3, R2.3)
    with the games it won; a mau_mau match marks the players eliminated before its end ``[out]``
    (R6.6)."""
    from test_projection import play_matches

    tables = sqlite_store.open()
    try:
        with projected(tables, sqlite_store.url, sqlite_store.schema) as (server, projection):
            vida, mau_mau = play_matches(
                tables,
                [
                    ("vida", ["helga", "otto", "ida", "max"], {"target_score": 100, "wins_needed": 1}),
                    ("mau_mau", ["max", "ida", "otto"], {"elimination_limit": -1}),
                ],
            )
            assert projection.wait_caught_up(20)
            out = io.StringIO()
            assert cli(["history", "--address", server.address], out=out) == 0
            rows = {line.split()[3]: line for line in out.getvalue().splitlines()[1:]}
    finally:
        tables.close()
    won = [f"{n} game{'' if n == 1 else 's'} won" for n in tables.stored_events(vida)[-1].payload["games_won"]]
    assert rows[vida].endswith(f"team 0: helga, ida ({won[0]}); team 1: otto, max ({won[1]})")
    events = tables.stored_events(mau_mau)
    out_seats = {e.payload["seat"] for e in events if e.name == "PlayerEliminated"}
    assert out_seats, "the mau_mau match must eliminate someone"
    names = ["max", "ida", "otto"]
    assert all(f"{name} (" in rows[mau_mau] for name in names)
    marked = {name for name in names if f"{name} (" in _out_parts(rows[mau_mau])}
    assert marked == {names[s] for s in out_seats}
    assert "[left]" not in rows[mau_mau]


def _out_parts(row: str) -> str:
    """The players of a history row marked ``[out]``, joined."""
    players = row.split("  ")[-1]
    return " ".join(part for part in players.split(", ") if part.endswith("[out]"))
