"""Top Card, a game plugged in from this folder alone (its rules T1-T8 are in ``top_card``'s
docstring): found through its entry point, played by the rules worked out by hand, and served by
``trapoula serve`` in a process of its own.  Like every registered game it also runs through the
contract suite (tests/contract): over gRPC with the generic command form, through ``trapoula
verify`` and ``replay``, the history and the standings, and in the terminal."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

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


@pytest.mark.process
def test_served_in_its_own_process_the_game_is_found_and_its_bots_play_one_hand_t6_t7(server: str) -> None:
    """``trapoula serve`` in its own process lists Top Card (its entry point found there: T1's players,
    T8's option, its bot levels), and two bots play a match to 1 point: one hand of three tricks, one
    point each (T6), and three points between two seats leave no tie (T7).  A match of people over
    gRPC with the generic command form, its record verified and replayed, the history and the
    standings: the contract suite (tests/contract), which runs every registered game."""
    with TableClient(server) as client:
        game = next(g for g in client.list_games() if g.key == KEY)
        options = dict(game.options)
        assert options.pop("clock") == {"move_seconds": 0, "bank_seconds": 0, "policy": "heuristic"}  # docs/clock.md C1
        assert (game.min_players, game.max_players, options) == (2, 4, {"target_points": 3})
        assert game.bot_levels == ("random", "heuristic")
        table = client.create_table(KEY, seats=2, options={"target_points": 1})
        client.token = table.owner_token
        for level in ("heuristic", "random"):
            client.add_bot(table.table_id, level)
        client.start_match(table.table_id)
        deadline = time.monotonic() + 60
        view = client.view(table.table_id).view
        while view.get("phase") != "over" and time.monotonic() < deadline:
            time.sleep(0.05)
            view = client.view(table.table_id).view
        totals = view["totals"]
        assert view["phase"] == "over" and view["hand_no"] == 1 and sum(totals) == 3  # one hand of three tricks (T6)
        assert sorted(totals) in ([0, 3], [1, 2])  # no tie for the highest total (T7)
