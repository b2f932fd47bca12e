"""The read models and their projection, on SQLite and PostgreSQL (``store`` fixture).

Real matches are played by server bots through ``Tables``; hand-made facts check the fold where
the expected rows are worked out below, event by event; 10,000 synthetic finished matches are
fed through ``Projection.apply`` to check paging.
"""

from __future__ import annotations

import sqlite3
import threading
import time
import uuid
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
import sqlalchemy

from trapoula.domain.errors import InvalidInput
from trapoula.service.application import OWNER, Tables
from trapoula.service.migrations import differences, head
from trapoula.service.projection import Projection
from trapoula.service.projectionfold import Fact, Fold
from trapoula.service.readmodels import ReadModels, _wal
from trapoula.service.readpages import parse_time, rfc3339
from trapoula.service.readresults import SeatedPlayer
from trapoula.service.readtables import Base

pytestmark = pytest.mark.timeout(120)

T0 = datetime(2025, 5, 1, 12, 0, tzinfo=UTC)


def open_models(store: Any) -> ReadModels:
    models = ReadModels(store.url, store.schema)
    assert models.migrate() == head()
    return models


def snapshot(models: ReadModels) -> dict[str, list[tuple[Any, ...]]]:
    """Every row of every read-model table (and the position), sorted."""
    with models.engine.connect() as conn:
        return {
            name: sorted((tuple(r) for r in conn.execute(sqlalchemy.select(table))), key=repr)
            for name, table in Base.metadata.tables.items()
        }


def notification_ids(tables: Tables) -> list[int]:
    ids: list[int] = []
    while True:
        found = tables.recorder.select_notifications(start=(ids[-1] + 1) if ids else 1, limit=1000)
        ids.extend(n.id for n in found)
        if len(found) < 1000:
            return ids


# --------------------------------------------------------------------------- real matches

MATCHES: list[tuple[str, list[str], dict[str, Any]]] = [
    ("agonia", ["helga", "otto"], {"target_points": 0}),
    ("crazy_eights", ["helga", "otto", "ida"], {}),
    ("agonia", ["otto", "helga"], {"target_points": 0}),
    ("romis", ["ida", "helga"], {"target_score": 1}),
    ("vida", ["helga", "otto", "ida", "max"], {"target_score": 100, "wins_needed": 1}),
    ("mau_mau", ["max", "ida", "otto"], {"elimination_limit": -1}),
]
"""Short matches of every kind of result: one winner, a team (vida R2.3), eliminations (mau_mau)."""


def play_matches(tables: Tables, matches: list[tuple[str, list[str], dict[str, Any]]] = MATCHES) -> list[str]:
    """Play each match to its end with heuristic bots of the given names, one after the other."""
    finished = []
    for game, names, options in matches:
        table_id, _ = tables.create_table(game, len(names), options)
        for name in names:
            tables.add_bot(table_id, "heuristic", name=name)
        tables.start_match(table_id, OWNER, "start")
        assert tables.settle(60)
        assert tables.stored_events(table_id)[-1].name == "MatchEnded"
        finished.append(table_id)
    return finished


def not_started(tables: Tables) -> tuple[str, str]:
    """A 3-seat table with ann in seat 1 (open) and a full 2-seat table not started (ready)."""
    open_id, _ = tables.create_table("agonia", 3, {})
    tables.join(open_id, "ann", 1)
    ready_id, _ = tables.create_table("agonia", 2, {})
    tables.join(ready_id, "bob")
    tables.add_bot(ready_id, "random")
    return open_id, ready_id


def expected_results(tables: Tables, table_id: str) -> tuple[str, tuple[int, ...], dict[tuple[str, str], bool]]:
    """``(game, winner seats, {(name, bot): won})`` worked out from the stored events by the rules:
    ``winner`` is a seat; vida's ``winner_team`` t is seats t and t + 2 (R2.3)."""
    events = tables.stored_events(table_id)
    game = events[0].payload["game"]
    end = events[-1].payload
    winners = (end["winner_team"], end["winner_team"] + 2) if "winner_team" in end else (end["winner"],)
    seated = {e.payload["seat"]: (e.payload["name"], e.payload["bot"] or "") for e in events if e.name == "SeatTaken"}
    return game, winners, {who: seat in winners for seat, who in seated.items()}


def expected_standings(tables: Tables, finished: list[str]) -> dict[tuple[str, str, str], tuple[int, int]]:
    out: dict[tuple[str, str, str], tuple[int, int]] = {}
    for table_id in finished:
        game, _winners, results = expected_results(tables, table_id)
        for (name, bot), won in results.items():
            played, wins = out.get((game, name, bot), (0, 0))
            out[(game, name, bot)] = (played + 1, wins + won)
    return out


def standings_of(models: ReadModels) -> dict[tuple[str, str, str], tuple[int, int]]:
    rows, token = models.standings(page_size=500)
    assert token == ""
    return {(r.game, r.name, r.bot): (r.played, r.won) for r in rows}


def test_a_rebuild_from_the_log_equals_the_live_read_models(store: Any) -> None:
    tables = store.open()
    models = open_models(store)
    live = Projection(tables, models, poll_seconds=0.2, pause_seconds=0.01)
    live.start()
    try:
        finished = play_matches(tables)
        open_id, _ready = not_started(tables)
        assert live.wait_caught_up(30)
    finally:
        live.stop()
    try:
        head_id = live.head()
        rows = snapshot(models)
        assert rows["trapoula_projection"] == [("tables", head_id)]
        assert len(rows["trapoula_matches"]) == 6 and len(rows["trapoula_lobby"]) == 8

        lobby, token = models.lobby()
        assert token == "" and [t.table_id for t in lobby] == [open_id]  # not the ready one, nor the finished
        assert (lobby[0].game, lobby[0].seats, lobby[0].free_seats, lobby[0].open_places) == ("agonia", 3, (0, 2), 2)
        assert lobby[0].players == (SeatedPlayer(1, "ann", ""),) and lobby[0].status == "open"

        matches, token = models.matches()
        assert token == "" and [m.table_id for m in matches] == finished[::-1]  # newest first
        for m in matches:
            events = tables.stored_events(m.table_id)
            game, winners, results = expected_results(tables, m.table_id)
            assert (m.game, m.winner_seats, m.version) == (game, winners, len(events))
            assert {(p.name, p.bot): p.won for p in m.players} == results
            assert m.hands == sum(e.name in ("SeedRevealed", "ShuffleRevealed") for e in events)
            assert m.record_hands == tables.record(m.table_id)[1] >= 1 and m.record_available and m.record_complete
            assert m.result == events[-1].payload
        vida = next(m for m in matches if m.game == "vida")
        assert vida.team_totals == tuple(tables.stored_events(vida.table_id)[-1].payload["games_won"])
        assert [p.team for p in vida.players] == [0, 1, 0, 1] and all(p.total is None for p in vida.players)
        mau_mau = next(m for m in matches if m.game == "mau_mau")
        assert sum(p.left for p in mau_mau.players) == 2 and [p.won for p in mau_mau.players if not p.left] == [True]

        standings = standings_of(models)
        assert standings == expected_standings(tables, finished)
        assert standings[("agonia", "helga", "heuristic")][0] == 2  # two agonia matches

        assert Projection(tables, models).rebuild() == len(notification_ids(tables))
        assert snapshot(models) == rows
    finally:
        models.close()
        tables.close()


def test_a_restart_in_the_middle_of_catching_up_leaves_no_duplicates(store: Any, monkeypatch: Any) -> None:
    tables = store.open()
    first_models = open_models(store)
    try:
        finished = play_matches(tables, MATCHES[:4])
        ids = notification_ids(tables)
        first = Projection(tables, first_models, batch_size=25)
        assert first.catch_up(max_batches=3) == 75
        assert first.position == ids[74]

        calls = 0
        fold_one = Fold.apply

        def fails_at_the_tenth(self: Any, fact: Fact) -> None:
            nonlocal calls
            calls += 1
            if calls == 10:
                raise RuntimeError("the database went away")
            fold_one(self, fact)

        monkeypatch.setattr(Fold, "apply", fails_at_the_tenth)
        with pytest.raises(RuntimeError, match="went away"):
            first.catch_up()
        monkeypatch.undo()
        assert first.position == ids[74]  # the failed batch left nothing
        first_models.close()

        second_models = open_models(store)  # a restarted server: the migration finds nothing to do
        second = Projection(tables, second_models, batch_size=40)
        assert second.catch_up() == len(ids) - 75
        assert second.position == ids[-1]
        rows = snapshot(second_models)
        assert len(rows["trapoula_matches"]) == len({r[0] for r in rows["trapoula_matches"]}) == 4
        seats_taken = sum(sum(e.name == "SeatTaken" for e in tables.stored_events(t)) for t in finished)
        assert len(rows["trapoula_players"]) == seats_taken == 2 + 3 + 2 + 2
        assert standings_of(second_models) == expected_standings(tables, finished)
        assert standings_of(second_models)[("agonia", "otto", "heuristic")][0] == 2
        second.rebuild()
        assert snapshot(second_models) == rows
        second_models.close()
    finally:
        tables.close()


def test_a_catch_up_ends_with_the_first_batch_short_of_full(store: Any, monkeypatch: Any) -> None:
    """A log of n notifications in batches of b: ceil(n / b) transactions, one more only when b
    divides n (the last full batch cannot tell it reached the end)."""
    tables = store.open()
    models = open_models(store)
    try:
        play_matches(tables, MATCHES[:1])
        n = len(notification_ids(tables))
        steps = 0
        step = Projection._step

        def counted(self: Projection, fetch: Any) -> int:
            nonlocal steps
            steps += 1
            return step(self, fetch)

        monkeypatch.setattr(Projection, "_step", counted)
        ragged = next(b for b in range(5, n) if n % b)
        projection = Projection(tables, models, batch_size=ragged)
        assert projection.catch_up() == n
        assert steps == -(-n // ragged)
        steps = 0
        projection.batch_size = next(b for b in range(2, n + 1) if n % b == 0)
        assert projection.rebuild() == n  # the whole log again, in batches that divide it
        assert steps == n // projection.batch_size + 1
    finally:
        models.close()
        tables.close()


def test_two_projections_at_once_apply_each_event_exactly_once(store: Any) -> None:
    tables = store.open()
    models = [open_models(store), open_models(store)]
    try:
        finished = play_matches(tables, MATCHES[:3])
        ids = notification_ids(tables)
        projections = [Projection(tables, m, batch_size=7) for m in models]
        applied = [0, 0]

        def run(i: int) -> None:
            deadline = time.monotonic() + 60
            while projections[i].position < ids[-1] and time.monotonic() < deadline:
                done = projections[i].catch_up()
                applied[i] += done
                if not done:
                    time.sleep(0.005)  # the other one holds the position

        threads = [threading.Thread(target=run, args=(i,)) for i in (0, 1)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(90)
        assert sum(applied) == len(ids)  # each notification applied by one of them, once
        assert standings_of(models[0]) == expected_standings(tables, finished)
        rows = snapshot(models[0])
        projections[0].rebuild()
        assert snapshot(models[1]) == rows
    finally:
        for m in models:
            m.close()
        tables.close()


# --------------------------------------------------------------------------- hand-made facts


class Log:
    """Facts with increasing positions, one second apart from :data:`T0`."""

    def __init__(self) -> None:
        self.facts: list[Fact] = []

    def add(self, table_id: str, event: str, /, **payload: Any) -> Fact:
        position = len(self.facts) + 1
        version = 1 + sum(f.table_id == table_id for f in self.facts)
        fact = Fact(position, table_id, version, event, payload, T0 + timedelta(seconds=position))
        self.facts.append(fact)
        return fact

    def created(self, table_id: str, game: str, seats: int) -> None:
        self.add(table_id, "TableCreated", game=game, seats=seats, options={}, first_dealer=None, manual_deal=False)

    def seat(self, table_id: str, seat: int, name: str, bot: str | None = None, queued: int | None = None) -> None:
        payload: dict[str, Any] = {"seat": seat, "name": name, "bot": bot, "token_hash": None if bot else "h"}
        if queued is not None:
            payload["queued"] = queued
        self.add(table_id, "SeatTaken", **payload)


def test_hand_made_facts_fold_into_the_rows_worked_out_by_hand(sqlite_store: Any) -> None:
    models = open_models(sqlite_store)
    fold = Projection(None, models)  # type: ignore[arg-type]  # apply() reads no log
    log = Log()
    vida, mau, crazy, open_id, ready = (str(uuid.UUID(int=i)) for i in range(1, 6))
    log.created(vida, "vida", 4)  # positions 1-10
    for seat, name in enumerate(["ann", "bob", "cy", "dee"]):
        log.seat(vida, seat, name, "heuristic" if name == "dee" else None)
    for name in ("MatchStarted", "HandStarted", "ShuffleRevealed", "GameWon"):
        log.add(vida, name)
    log.add(vida, "MatchEnded", winner_team=1, games_won=[0, 1])
    log.created(mau, "mau_mau", 2)  # positions 11-17: v1-v7
    log.seat(mau, 0, "ann")
    log.seat(mau, 1, "bob")
    log.add(mau, "MatchStarted")
    log.add(mau, "HandStarted")
    log.add(mau, "JoinQueued", name="eve", bot=None, token_hash="e")  # v6
    log.add(mau, "PlayerLeft", seat=1)  # v7: bob's seat is vacant (R6.10)
    assert fold.apply(log.facts) == 17

    lobby, _ = models.lobby()
    assert [t.table_id for t in lobby] == [mau]  # under way, taking newcomers (R6.9)
    assert (lobby[0].status, lobby[0].free_seats, lobby[0].waiting) == ("playing", (1,), 1)
    assert lobby[0].open_places == 5 - 1 - 1  # mau_mau's 5 players, ann seated, eve waiting
    assert lobby[0].players == (SeatedPlayer(0, "ann", ""),)

    log.add(mau, "SeedRevealed")  # v8: hand 1 ends, the record reaches it
    log.add(mau, "PlayerJoined", seat=1)  # v9
    log.seat(mau, 1, "eve", queued=6)  # v10
    log.add(mau, "HandStarted")  # v11
    log.add(mau, "SeedRevealed")  # v12
    log.add(mau, "PlayerEliminated", seat=0)  # v13
    log.add(mau, "MatchEnded", winner=1, totals=[-120, 0], reason="last_player")  # v14, position 24
    log.created(crazy, "crazy_eights", 2)  # positions 25-29
    log.seat(crazy, 0, "ann")
    log.seat(crazy, 1, "bob")
    log.add(crazy, "SeedRevealed")
    log.add(crazy, "MatchEnded", winner=None, totals=[0, 0], reason="single_hand", tied=[0, 1])
    log.created(open_id, "agonia", 3)  # positions 30-31
    log.seat(open_id, 2, "ann")
    log.created(ready, "agonia", 2)  # positions 32-34
    log.seat(ready, 0, "bob")
    log.seat(ready, 1, "random bot 1", "random")
    assert fold.apply(log.facts) == 17  # the first 17 are skipped: applied already
    assert fold.apply(log.facts) == 0 and models.position() == 34

    lobby, _ = models.lobby()
    assert [(t.table_id, t.free_seats, t.open_places) for t in lobby] == [(open_id, (0, 1), 2)]

    matches, token = models.matches()
    assert token == "" and [m.table_id for m in matches] == [crazy, mau, vida]
    c, m, v = matches
    assert (v.winner_seats, v.winner_team, v.team_totals) == ((1, 3), 1, (0, 1))
    assert [(p.name, p.team, p.won, p.total) for p in v.players] == [
        ("ann", 0, False, None), ("bob", 1, True, None), ("cy", 0, False, None), ("dee", 1, True, None),
    ]  # fmt: skip
    assert (v.hands, v.record_hands, v.record_complete, v.version) == (1, 1, True, 10)
    assert [(p.seat, p.name, p.total, p.won, p.left) for p in m.players] == [
        (0, "ann", -120, False, True),  # eliminated (R6.6): seat 0's last holder, its total
        (1, "bob", None, False, True),  # left; seat 1 went to eve, so the total is hers
        (1, "eve", 0, True, False),
    ]
    assert (m.winner_seats, m.hands, m.record_hands, m.record_complete) == ((1,), 2, 2, True)
    assert m.started_at == T0 + timedelta(seconds=14) and m.finished_at == T0 + timedelta(seconds=24)
    assert (c.winner_seats, [p.won for p in c.players], c.result["tied"]) == ((), [False, False], [0, 1])

    assert standings_of(models) == {
        ("vida", "ann", ""): (1, 0), ("vida", "bob", ""): (1, 1), ("vida", "cy", ""): (1, 0),
        ("vida", "dee", "heuristic"): (1, 1),
        ("mau_mau", "ann", ""): (1, 0), ("mau_mau", "bob", ""): (1, 0), ("mau_mau", "eve", ""): (1, 1),
        ("crazy_eights", "ann", ""): (1, 0), ("crazy_eights", "bob", ""): (1, 0),
    }  # fmt: skip
    rows, _ = models.standings()
    assert [(r.game, r.name) for r in rows[:3]] == [("mau_mau", "eve"), ("vida", "bob"), ("vida", "dee")]

    assert [x.table_id for x in models.matches(player="eve")[0]] == [mau]
    assert [x.table_id for x in models.matches(player="ann")[0]] == [crazy, mau, vida]
    assert [x.table_id for x in models.matches(game="vida")[0]] == [vida]
    ended = rfc3339(m.finished_at)
    assert [x.table_id for x in models.matches(finished_after=ended)[0]] == [crazy, mau]
    assert [x.table_id for x in models.matches(finished_before=ended)[0]] == [vida]
    page, token = models.matches(page_size=1)
    assert [x.table_id for x in page] == [crazy] and token
    page, token = models.matches(page_size=1, page_token=token)
    assert [x.table_id for x in page] == [mau]
    models.close()


def test_facts_out_of_order_are_refused_and_apply_nothing(sqlite_store: Any) -> None:
    models = open_models(sqlite_store)
    fold = Projection(None, models)  # type: ignore[arg-type]
    log = Log()
    log.created(str(uuid.uuid4()), "agonia", 2)
    log.created(str(uuid.uuid4()), "agonia", 2)
    with pytest.raises(ValueError, match="out of order"):
        fold.apply(log.facts[::-1])
    assert models.position() == 0 and models.lobby()[0] == []
    models.close()


def hands_of(models: ReadModels, table_id: str) -> tuple[int, int]:
    """``(hands, record_hands)`` of the table's lobby row."""
    lobby = Base.metadata.tables["trapoula_lobby"]
    with models.engine.connect() as conn:
        row = conn.execute(sqlalchemy.select(lobby.c.hands, lobby.c.record_hands).where(lobby.c.table_id == table_id))
        hands, record_hands = row.one()
    return hands, record_hands


def started_mau_mau() -> tuple[Log, str]:
    """A log of a 2-seat mau_mau table whose match has started (positions 1-4), and its id."""
    log = Log()
    table_id = str(uuid.uuid4())
    log.created(table_id, "mau_mau", 2)
    log.seat(table_id, 0, "ann")
    log.seat(table_id, 1, "bob")
    log.add(table_id, "MatchStarted")
    return log, table_id


def test_a_projection_reads_the_rows_again_after_another_one_applied_a_batch(store: Any) -> None:
    """Each ``SeedRevealed`` ends a hand (S5.1: role hand_revealed): three of them, applied by A,
    then B, then A again, make 3 hands, not the 2 that A's rows of its first batch would make."""
    models = [open_models(store), open_models(store)]
    a, b = (Projection(None, m) for m in models)  # type: ignore[arg-type]  # apply() reads no log
    log, table_id = started_mau_mau()
    log.add(table_id, "SeedRevealed")  # position 5: hand 1 ends
    try:
        assert a.apply(log.facts) == 5 and hands_of(models[0], table_id) == (1, 1)
        log.add(table_id, "SeedRevealed")  # hand 2
        assert b.apply(log.facts) == 1 and hands_of(models[0], table_id) == (2, 2)
        log.add(table_id, "SeedRevealed")  # hand 3
        assert a.apply(log.facts) == 1
        assert hands_of(models[0], table_id) == (3, 3)
    finally:
        for m in models:
            m.close()


def test_a_projection_keeps_its_rows_between_batches_and_none_of_a_failed_one(
    sqlite_store: Any, monkeypatch: Any
) -> None:
    """A batch that touches only tables the projection wrote reads no lobby row; a batch that
    fails after folding (its transaction rolled back) leaves nothing kept: applied again it counts
    its hand once (S5.1)."""
    models = open_models(sqlite_store)
    projection = Projection(None, models)  # type: ignore[arg-type]
    log, table_id = started_mau_mau()
    assert projection.apply(log.facts) == 4
    reads: list[str] = []

    def seen(_conn: Any, _cursor: Any, statement: str, *_args: Any) -> None:
        if statement.lstrip().upper().startswith("SELECT") and "trapoula_lobby" in statement:
            reads.append(statement)

    sqlalchemy.event.listen(models.write_engine, "before_cursor_execute", seen)
    try:
        log.add(table_id, "SeedRevealed")  # hand 1
        assert projection.apply(log.facts) == 1 and hands_of(models, table_id) == (1, 1)
        assert reads == []  # the row came from what the first batch wrote

        log.add(table_id, "SeedRevealed")  # hand 2
        flush = Fold.flush

        def failing(self: Fold) -> None:
            flush(self)
            raise RuntimeError("the database went away")

        monkeypatch.setattr(Fold, "flush", failing)
        with pytest.raises(RuntimeError, match="went away"):
            projection.apply(log.facts)
        assert hands_of(models, table_id) == (1, 1) and models.position() == 5
        monkeypatch.setattr(Fold, "flush", flush)
        assert projection.apply(log.facts) == 1
        assert hands_of(models, table_id) == (2, 2)  # not 3: the failed batch's fold was dropped
        assert len(reads) == 1  # read again once, after the failure
    finally:
        sqlalchemy.event.remove(models.write_engine, "before_cursor_execute", seen)
        models.close()


def test_the_pause_after_a_catch_up_grows_with_its_length_up_to_a_second() -> None:
    """A catch-up of 1 ms pauses the 0.1 s floor; one of 50 ms, four times that (0.2 s); one of
    half a second or more, the 1 s cap; a floor above the cap wins."""
    projection = Projection(None, None)  # type: ignore[arg-type]  # no I/O
    assert projection.pause_after(0.001) == 0.1
    assert projection.pause_after(0.05) == pytest.approx(0.2)
    assert projection.pause_after(0.5) == projection.pause_after(30.0) == 1.0
    slow = Projection(None, None, pause_seconds=2.0)  # type: ignore[arg-type]
    assert slow.pause_after(0.01) == slow.pause_after(5.0) == 2.0


# --------------------------------------------------------------------------- 10,000 matches

NAMES = [f"player {i:02d}" for i in range(20)]
GAMES3 = ("agonia", "romis", "crazy_eights")


def synthetic(m: int) -> tuple[str, str, str, str, int]:
    """Match ``m``: ``(table_id, game, seat 0's name, seat 1's name, winner seat)``."""
    return (
        str(uuid.UUID(int=m + 1)),
        GAMES3[m % 3],
        NAMES[m % 20],
        NAMES[(m + 1 + (m // 20) % 19) % 20],  # never seat 0's name
        m % 2,
    )


def synthetic_facts(count: int) -> list[Fact]:
    """Six facts per match, match ``m`` ending at T0 + m minutes."""
    facts: list[Fact] = []
    for m in range(count):
        table_id, game, a, b, winner = synthetic(m)
        when = T0 + timedelta(minutes=m)
        rows: list[tuple[str, dict[str, Any]]] = [
            ("TableCreated", {"game": game, "seats": 2, "options": {}, "manual_deal": False}),
            ("SeatTaken", {"seat": 0, "name": a, "bot": None, "token_hash": "a"}),
            ("SeatTaken", {"seat": 1, "name": b, "bot": None, "token_hash": "b"}),
            ("MatchStarted", {}),
            ("SeedRevealed", {"seed": "00"}),
            ("MatchEnded", {"winner": winner, "totals": [10 * (1 - winner), 10 * winner]}),
        ]
        for version, (name, payload) in enumerate(rows, 1):
            facts.append(Fact(len(facts) + 1, table_id, version, name, payload, when))
    return facts


def page_all(fetch: Any, size: int) -> list[Any]:
    items: list[Any] = []
    token = ""
    while True:
        page, token = fetch(size, token)
        assert len(page) <= size and (len(page) == size or not token)
        items.extend(page)
        if not token:
            return items


def test_ten_thousand_finished_matches_page_exactly_once_in_order(store: Any) -> None:
    count = 10_000
    models = open_models(store)
    try:
        fold = Projection(None, models)  # type: ignore[arg-type]
        facts = synthetic_facts(count)
        for i in range(0, len(facts), 6_000):
            assert fold.apply(facts[i : i + 6_000]) == min(6_000, len(facts) - i)
        made = [synthetic(m) for m in range(count)]
        newest_first = [match[0] for match in reversed(made)]

        got = page_all(lambda n, t: models.matches(page_size=n, page_token=t), 500)
        assert [x.table_id for x in got] == newest_first
        got = page_all(lambda n, t: models.matches(game="agonia", page_size=n, page_token=t), 137)
        assert [x.table_id for x in got] == [t for i, t in enumerate(newest_first) if (count - 1 - i) % 3 == 0]
        assert len(got) == 3_334 and {x.game for x in got} == {"agonia"}

        who = NAMES[3]
        got = page_all(lambda n, t: models.matches(player=who, page_size=n, page_token=t), 100)
        wanted = [match[0] for match in reversed(made) if who in match[2:4]]
        assert [x.table_id for x in got] == wanted and len(wanted) == 1_000  # seat 0 every 20th, seat 1 as often
        assert all(who in {p.name for p in x.players} for x in got)

        after, before = T0 + timedelta(minutes=3_000), T0 + timedelta(minutes=6_000)
        forms = [
            (rfc3339(after), "2025-05-05T19:00:00+03:00"),  # 6,000 minutes after T0, in UTC+3
            (str(int(after.timestamp())), str(int(before.timestamp()))),
        ]
        wanted = [match[0] for match in reversed(made[3_000:6_000]) if match[1] == "romis"]
        for low, high in forms:
            got = page_all(
                lambda n, t, low=low, high=high: models.matches(
                    game="romis", finished_after=low, finished_before=high, page_size=n, page_token=t
                ),
                250,
            )
            assert [x.table_id for x in got] == wanted and len(wanted) == 1_000
            assert all(after <= x.finished_at < before and x.game == "romis" for x in got)

        expected: dict[tuple[str, str], list[int]] = {}
        for _, game, a, b, winner in made:
            for seat, name in enumerate((a, b)):
                entry = expected.setdefault((game, name), [0, 0])
                entry[0] += 1
                entry[1] += seat == winner
        rows = page_all(lambda n, t: models.standings(page_size=n, page_token=t), 7)
        assert {(r.game, r.name): [r.played, r.won] for r in rows} == expected
        assert len(rows) == len(expected) == 60
        assert [(r.game, r.name) for r in rows] == sorted(
            expected, key=lambda k: (-expected[k][1], expected[k][0], k[0], k[1])
        )
        assert sum(r.played for r in rows) == 2 * count and sum(r.won for r in rows) == count
    finally:
        models.close()


# --------------------------------------------------------------------------- migrations


def test_the_migrations_match_the_models_and_a_second_upgrade_changes_nothing(store: Any) -> None:
    models = [ReadModels(store.url, store.schema) for _ in range(3)]
    try:
        revisions: list[str] = []
        threads = [threading.Thread(target=lambda m=m: revisions.append(m.migrate())) for m in models]
        for thread in threads:  # replicas starting together: one migrates, the others wait and find it done
            thread.start()
        for thread in threads:
            thread.join(60)
        assert revisions == [head()] * 3
        assert differences(models[0].engine) == []
        log = Log()
        log.created(str(uuid.uuid4()), "agonia", 2)
        Projection(None, models[0]).apply(log.facts)  # type: ignore[arg-type]

        statements: list[str] = []

        def seen(_conn: Any, _cursor: Any, statement: str, *_: Any) -> None:
            statements.append(statement)

        sqlalchemy.event.listen(models[1].write_engine, "before_cursor_execute", seen)
        assert models[1].migrate() == head()
        assert statements and not [s for s in statements if s.lstrip().upper().startswith(("CREATE", "ALTER", "DROP"))]
        assert len(models[1].lobby()[0]) == 1 and models[1].position() == 1
    finally:
        for m in models:
            m.close()


# --------------------------------------------------------------------------- bad input


@pytest.mark.parametrize(
    ("call", "reason"),
    [
        (lambda m: m.lobby(page_size=-1), "bad_page_size"),
        (lambda m: m.lobby(page_size=True), "bad_page_size"),
        (lambda m: m.lobby(page_token="abc"), "bad_page_token"),
        (lambda m: m.lobby(page_token="-5"), "bad_page_token"),
        (lambda m: m.matches(page_token="9" * 21), "bad_page_token"),
        (lambda m: m.matches(page_token="9223372036854775808"), "bad_page_token"),  # 2**63: past any position
        (lambda m: m.lobby(page_token="99999999999999999999"), "bad_page_token"),
        (lambda m: m.matches(page_token="١٢"), "bad_page_token"),  # Arabic-Indic digits
        (lambda m: m.standings(page_token="12"), "bad_page_token"),
        (lambda m: m.standings(page_token="WzEsMl0"), "bad_page_token"),  # base64 of [1,2]
        (lambda m: m.standings(page_token="%%%"), "bad_page_token"),
        (lambda m: m.lobby(game="g" * 65), "unknown_game"),
        (lambda m: m.lobby(game="poker"), "unknown_game"),
        (lambda m: m.matches(game="Agonia"), "unknown_game"),
        (lambda m: m.standings(player="\u2028 "), "bad_player"),
        (lambda m: m.matches(player="p" * 65), "bad_player"),
        (lambda m: m.matches(player="ann\x00"), "bad_player"),
        (lambda m: m.standings(game="agonia\n"), "unknown_game"),
        (lambda m: m.standings(page_token="WzEsMSwiYWdvbmlhIiwiXHUwMDAwIiwiIl0"), "bad_page_token"),  # a NUL name
        (lambda m: m.matches(finished_after="2025-05-01T12:00:00"), "bad_time"),  # no offset
        (lambda m: m.matches(finished_after="yesterday"), "bad_time"),
        (lambda m: m.matches(finished_before="99999999999999"), "bad_time"),
        (lambda m: m.matches(finished_before="2025-13-01T00:00:00Z"), "bad_time"),
        (lambda m: m.matches(finished_before="x" * 41), "bad_time"),
    ],
)
def test_bad_filters_and_page_tokens_are_refused_with_a_reason(call: Any, reason: str) -> None:
    models = ReadModels("sqlite:///:memory:")
    models.migrate()
    with pytest.raises(InvalidInput) as refused:
        call(models)
    assert refused.value.reason == reason
    models.close()


def test_time_filters_read_rfc3339_and_unix_seconds() -> None:
    noon = datetime(2025, 5, 1, 12, tzinfo=UTC)
    assert parse_time("2025-05-01T12:00:00Z", "t") == noon
    assert parse_time("2025-05-01T14:30:00+02:30", "t") == noon
    assert parse_time("1746100800", "t") == noon
    assert parse_time("1746100800.25", "t") == noon + timedelta(milliseconds=250)
    assert parse_time("", "t") is None
    assert rfc3339(noon + timedelta(microseconds=7)) == "2025-05-01T12:00:00.000007Z"


def test_a_standings_token_after_the_longest_names_is_accepted_back() -> None:
    """Every token the server gives is one it takes: three 64-character texts and the key of a
    128-character verified id (docs/identity.md), of 4-byte characters."""
    from trapoula.service.readpages import MAX_PAGE_TOKEN, encode_standings_token, standings_token
    from trapoula.service.readresults import Standing

    when = datetime(2025, 5, 1, 12, tzinfo=UTC)
    row = Standing(
        game="𝔸" * 64,
        player="id:" + "𝔹" * 128,
        name="𝔸" * 64,
        player_id="𝔹" * 128,
        bot="Ω" * 64,
        played=2**31 - 1,
        won=2**31 - 1,
        last_finished_at=when,
    )
    token = encode_standings_token(row)
    assert len(token) <= MAX_PAGE_TOKEN
    assert standings_token(token) == (2**31 - 1, 2**31 - 1, "𝔸" * 64, "𝔸" * 64, "id:" + "𝔹" * 128, "Ω" * 64)


class _Refusing:
    """A DB-API connection whose first ``locked`` executes fail as SQLite fails a journal-mode
    switch while another connection of a new file makes it."""

    def __init__(self, locked: int, error: str = "database is locked") -> None:
        self.locked = locked
        self.error = error
        self.sent: list[str] = []

    def execute(self, sql: str) -> None:
        self.sent.append(sql)
        if len(self.sent) <= self.locked:
            raise sqlite3.OperationalError(self.error)


def test_wal_is_asked_again_while_another_connection_holds_the_new_file() -> None:
    """Three connections opening a new file together: the journal-mode switch refused as locked
    is tried again until it goes through; any other failure is raised at once."""
    refusing = _Refusing(locked=2)
    _wal(refusing)
    assert refusing.sent == ["PRAGMA journal_mode=WAL"] * 3
    broken = _Refusing(locked=1, error="disk I/O error")
    with pytest.raises(sqlite3.OperationalError, match="disk I/O error"):
        _wal(broken)
    assert len(broken.sent) == 1
