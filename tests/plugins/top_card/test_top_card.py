"""Top Card, a game plugged in from this folder alone (its rules T1-T8 are in ``top_card``'s
docstring): found through its entry point, played by the rules worked out by hand, over gRPC with
the generic command form, through ``trapoula verify``, the projection and the standings."""

from __future__ import annotations

import io
import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from trapoula.clients.cli import main
from trapoula.clients.table import TableClient
from trapoula.domain.errors import CommandRejected
from trapoula.domain.game import MatchConfig, SeatInfo
from trapoula.domain.lifecycle import MatchResult
from trapoula.domain.match import Match
from trapoula.domain.registry import ENTRY_POINT_GROUP, GAMES, discover

KEY = "top_card"


def test_the_game_is_found_through_its_entry_point() -> None:
    """The registry reads the ``trapoula.games`` entry points: Top Card's comes from this folder's
    distribution metadata, its spec from its own package."""
    found = discover()
    assert KEY in found and found[KEY] is GAMES[KEY]
    assert type(found[KEY].initial_state).__module__ != "trapoula"
    assert found[KEY].initial_state.__module__ == "top_card.rules"
    assert ENTRY_POINT_GROUP == "trapoula.games"


def test_a_hand_worked_by_hand_t3_to_t7() -> None:
    """Two seats, seat 0 deals (T2), so seat 1 is dealt first and leads (T3, T4).  Seat 1 holds
    AS 2C 5D, seat 0 KH 3S 4C.  Trick 1: AS beats KH, seat 1 leads again (T5); trick 2: 2C, 3S,
    seat 0 takes it and leads; trick 3: 4C, 5D, seat 1.  Seat 1 has 2 points, seat 0 has 1
    (T6); with a target of 2 the match is over and seat 1 wins (T7)."""
    spec = GAMES[KEY]
    config = MatchConfig(KEY, (SeatInfo(0, "ann"), SeatInfo(1, "bob")), {"target_points": 2})
    match: Match[Any, Any] = Match.start(spec, config)
    match, _ = match.apply(match.explicit_deal({"hands": [["AS", "2C", "5D"], ["KH", "3S", "4C"]]}))
    assert match.acting(range(2)) == (1,)
    with pytest.raises(CommandRejected) as refused:
        match.apply(spec.parse_command({"kind": "play", "seat": 0, "card": "KH"}))
    assert (refused.value.reason, refused.value.rule) == ("not_your_turn", "T4")
    for seat, card in ((1, "AS"), (0, "KH"), (1, "2C"), (0, "3S"), (0, "4C"), (1, "5D")):
        match, events = match.apply(spec.parse_command({"kind": "play", "seat": seat, "card": card}))
    result = spec.fact(events[-1])
    assert isinstance(result, MatchResult)
    assert (result.totals, result.winners, result.ranking) == ((1, 2), (1,), (1, 0))
    assert match.over


@pytest.fixture
def server(tmp_path: Path) -> Iterator[str]:
    """``trapoula serve`` in its own process on SQLite: it finds the game through the entry point
    (this folder is on its ``PYTHONPATH``)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    address = f"127.0.0.1:{port}"
    env = {**os.environ, "TRAPOULA_DATABASE_URL": f"sqlite:///{tmp_path / 'top_card.sqlite3'}"}
    process = subprocess.Popen(
        [sys.executable, "-m", "trapoula.clients", "serve", "--address", address],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    try:
        with TableClient(address) as client:
            client.wait_ready(timeout=60)
        yield address
    finally:
        process.terminate()
        process.wait(timeout=30)


def test_a_match_over_grpc_verifies_and_reaches_the_history_and_standings(server: str, tmp_path: Path) -> None:
    """A person and a heuristic bot play Top Card to 1 point (so one hand) over gRPC; the person's commands travel
    in the generic form (``Command.json``, no proto change for the game).  The record verifies
    (T3's commitments and every move re-decided), and the finished match is in the history and the
    standings (the projection read its match_ended fact)."""
    with TableClient(server) as client:
        table = client.create_table(KEY, seats=2, options={"target_points": 1})
        me = client.join(table.table_id, "ann")
        client.add_bot(table.table_id, "heuristic")
        client.start_match(table.table_id)
        deadline = time.monotonic() + 60
        view = client.view(table.table_id).view
        while view.get("phase") != "over" and time.monotonic() < deadline:
            if view.get("legal"):
                client.act(table.table_id, view["legal"][0])
            else:
                time.sleep(0.05)
            view = client.view(table.table_id).view
        totals = view["totals"]
        assert view["phase"] == "over" and view["hand_no"] == 1 and sum(totals) == 3  # one hand of three tricks (T6)
        record = tmp_path / "top_card.jsonl"
        record.write_text(client.record(table.table_id), encoding="utf-8")
        out = io.StringIO()
        assert main(["verify", str(record)], out=out) == 0, out.getvalue()
        assert "verified" in out.getvalue()
        for _ in range(100):
            matches = client.matches(game=KEY).items
            if matches:
                break
            time.sleep(0.1)
        assert [m.table_id for m in matches] == [table.table_id]
        standings = {s.player: (s.played, s.won) for s in client.standings(game=KEY).items}
        winner = "ann" if totals[me.seat] >= 2 else "heuristic bot 1"  # two seats share 3 points: no tie (T7)
        assert standings[winner] == (1, 1)
        assert sum(played for played, _ in standings.values()) == 2
