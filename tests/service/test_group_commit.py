"""Group commit (``trapoula.service.committer``): the saves of many tables stored in one transaction.

Without a database, :class:`GroupCommit` over a fake store whose ``save(*events)`` records each
call (a transaction: all its events stored, or none when it raises):

* saves arriving together from many threads are stored in fewer calls than saves, every event
  exactly once, each save's events side by side and in order within one call, and each call made
  by a thread whose own save is in it (so no thread leads twice for one save);
* an ``IntegrityError`` in a batch goes to the save that lost its race only, the others of the
  batch are stored; any other store error reaches every save of its batch, and the committer
  goes on storing afterwards;
* a batch holds at most ``MAX_BATCH_EVENTS`` events, unless one save alone is bigger.

Every join is bounded: a save that waited forever fails its test instead of hanging it.

Then on each store (``store`` fixture), with the recorder's insert slowed a little so that saves
queue up behind one another:

* twelve people playing twelve tables at once through one ``Tables``: their saves share batches
  (``TableStore.batches`` below the saves), and each table's log in memory equals the one stored,
  gap-free and hash-chained, with every answered command in it;
* on PostgreSQL, two ``Tables`` racing on the same tables: a batch of replica A holding the saves
  of tables where B won and tables where nobody raced fails as a whole, and its tables are then
  saved alone: exactly one draw lands at each table, A's where it did not lose;
* twenty bot tables played by four automation workers while a spectator watches one of them over
  gRPC: its saves go in batches with other tables', and the watcher receives every event once, in
  order, as the store holds it.
"""

from __future__ import annotations

import json
import random
import threading
import time
from collections import defaultdict
from collections.abc import Callable, Sequence
from typing import Any

import pytest
from eventsourcing.persistence import IntegrityError, OperationalError
from grpc_helpers import chained

from trapoula.clients.table import TableClient
from trapoula.domain import bots
from trapoula.domain.errors import CommandRejected
from trapoula.service.application import OWNER, SPECTATOR, Principal, Tables
from trapoula.service.committer import MAX_BATCH_EVENTS, GroupCommit
from trapoula.service.errors import Conflict

JOIN_SECONDS = 30.0
"""Longest a committing thread may take to return (a save that waits forever fails here)."""


class FakeStore:
    """``save(*events)`` records ``(thread name, events)`` of each call, sleeps ``delay`` seconds,
    then stores every event, or none when ``fail(events)`` gives an exception to raise."""

    def __init__(self, delay: float = 0.0, fail: Callable[[Sequence[Any]], BaseException | None] | None = None) -> None:
        self.delay = delay
        self.fail = fail
        self.calls: list[tuple[str, tuple[Any, ...]]] = []
        self.stored: list[Any] = []
        self.batches: list[tuple[int, int]] = []
        self.gate: threading.Event | None = None
        """When set to an event: the first call waits for it (so that the next saves queue up)."""
        self._lock = threading.Lock()

    def save(self, *events: Any) -> None:
        with self._lock:
            first = not self.calls
            self.calls.append((threading.current_thread().name, events))
        if first and self.gate is not None:
            assert self.gate.wait(JOIN_SECONDS)
        if self.delay:
            time.sleep(self.delay)
        error = self.fail(events) if self.fail is not None else None
        if error is not None:
            raise error
        with self._lock:
            self.stored.extend(events)

    def on_batch(self, tables: int, events: int) -> None:
        self.batches.append((tables, events))


class Committer(threading.Thread):
    """A thread committing one save after another; keeps each commit's outcome (None: stored)."""

    def __init__(self, committer: GroupCommit, name: str, saves: list[list[Any]]) -> None:
        super().__init__(name=name, daemon=True)
        self.committer = committer
        self.saves = saves
        self.outcomes: list[BaseException | None] = []

    def run(self) -> None:
        for events in self.saves:
            try:
                self.committer.commit(events)
            except BaseException as exc:
                self.outcomes.append(exc)
            else:
                self.outcomes.append(None)


def _join(threads: Sequence[threading.Thread]) -> None:
    deadline = time.monotonic() + JOIN_SECONDS
    for thread in threads:
        thread.join(max(0.0, deadline - time.monotonic()))
    assert not [t.name for t in threads if t.is_alive()], "a save waited forever"


def _queued(committer: GroupCommit, count: int) -> None:
    """Wait until ``count`` saves wait behind the batch being stored."""
    deadline = time.monotonic() + JOIN_SECONDS
    while len(committer._waiting) < count:
        assert time.monotonic() < deadline, "the saves never queued"
        time.sleep(0.001)


def _save(tag: str, n: int = 2) -> list[tuple[str, int]]:
    """One table's save: ``n`` events ``(tag, 0) .. (tag, n - 1)``."""
    return [(tag, i) for i in range(n)]


def _first_held(store: FakeStore, committer: GroupCommit) -> Committer:
    """A first save (thread ``first``) whose store call has begun and blocks at the store's gate."""
    store.gate = threading.Event()
    first = Committer(committer, "first", [_save("first")])
    first.start()
    deadline = time.monotonic() + JOIN_SECONDS
    while not store.calls:
        assert time.monotonic() < deadline
        time.sleep(0.001)
    return first


def _behind_a_blocked_batch(store: FakeStore, committer: GroupCommit, tags: Sequence[str]) -> list[Committer]:
    """A first save whose store call blocks until the saves of ``tags`` (one thread each) have all
    queued behind it; then it is let through.  Returns the threads, first one first."""
    first = _first_held(store, committer)
    others = [Committer(committer, tag, [_save(tag)]) for tag in tags]
    for thread in others:
        thread.start()
    _queued(committer, len(tags))
    store.gate.set()
    return [first, *others]


def test_saves_arriving_together_are_stored_in_fewer_batches_each_once_whole_and_in_order() -> None:
    """16 threads each commit 12 saves of 1 to 5 events through a store call that takes 2 ms:
    fewer store calls than saves (and some call holding several saves), every event stored
    exactly once, each save's events side by side and in order in one call, every call made by a
    thread whose own save it holds, and ``on_batch`` told of every call with its counts."""
    store = FakeStore(delay=0.002)
    committer = GroupCommit(store.save, store.on_batch)
    rng = random.Random(3)
    threads = [
        Committer(committer, f"t{t}", [[(t, s, i) for i in range(rng.randint(1, 5))] for s in range(12)])
        for t in range(16)
    ]
    for thread in threads:
        thread.start()
    _join(threads)
    assert all(outcome is None for t in threads for outcome in t.outcomes)
    saves = {(t, s): events for t, thread in enumerate(threads) for s, events in enumerate(thread.saves)}
    expected = [e for events in saves.values() for e in events]
    assert sorted(store.stored) == sorted(expected) and len(store.stored) == len(expected)
    assert len(store.calls) < len(saves)
    assert max(tables for tables, _ in store.batches) > 1
    assert store.batches == [(len({e[:2] for e in events}), len(events)) for _, events in store.calls]
    for leader, events in store.calls:
        spans: dict[tuple[int, int], list[int]] = defaultdict(list)
        for position, (t, s, _i) in enumerate(events):
            spans[(t, s)].append(position)
        for key, positions in spans.items():
            start = positions[0]
            assert positions == list(range(start, start + len(saves[key])))  # whole and side by side
            assert list(events[start : start + len(saves[key])]) == saves[key]  # in order
        assert int(leader[1:]) in {t for t, _ in spans}, "a thread stored a batch without its own save"


def test_a_save_alone_is_stored_at_once_by_its_own_thread() -> None:
    """A save on a quiet committer waits for nobody: its own thread stores it, in one call."""
    store = FakeStore()
    committer = GroupCommit(store.save, store.on_batch)
    committer.commit(_save("alone", 3))
    assert store.calls == [(threading.current_thread().name, tuple(_save("alone", 3)))]
    assert store.batches == [(1, 3)]


def test_an_integrity_error_in_a_batch_goes_to_the_save_that_lost_its_race_only() -> None:
    """A batch of three saves, the middle one at versions another replica took: the batch's call
    fails and stores nothing; then each save is tried alone: the two others are stored, each
    once, and only the loser's commit raises ``IntegrityError``."""

    def taken(events: Sequence[Any]) -> BaseException | None:
        return IntegrityError("duplicate key (originator_id, originator_version)") if ("loser", 0) in events else None

    store = FakeStore(fail=taken)
    committer = GroupCommit(store.save, store.on_batch)
    threads = _behind_a_blocked_batch(store, committer, ["w1", "loser", "w2"])
    _join(threads)
    outcomes = {t.name: t.outcomes for t in threads}
    assert outcomes["first"] == [None] and outcomes["w1"] == [None] and outcomes["w2"] == [None]
    assert len(outcomes["loser"]) == 1 and isinstance(outcomes["loser"][0], IntegrityError)
    assert sorted(store.stored) == sorted(_save("first") + _save("w1") + _save("w2"))
    assert sorted(store.calls[1][1]) == sorted(_save("w1") + _save("loser") + _save("w2"))  # the three were one batch
    assert sorted(events for _, events in store.calls[2:]) == sorted(tuple(_save(t)) for t in ("w1", "loser", "w2"))


def test_a_store_error_reaches_every_save_of_its_batch_and_the_next_saves_are_stored() -> None:
    """The store fails (``OperationalError``: the database unreachable) for a batch of three
    saves: each of the three commits raises it, nothing of theirs is stored, no save is retried
    alone; the saves after it are stored as usual."""
    down = threading.Event()
    down.set()

    def unreachable(events: Sequence[Any]) -> BaseException | None:
        return OperationalError("connection refused") if down.is_set() and ("first", 0) not in events else None

    store = FakeStore(fail=unreachable)
    committer = GroupCommit(store.save, store.on_batch)
    threads = _behind_a_blocked_batch(store, committer, ["a", "b", "c"])
    _join(threads)
    outcomes = {t.name: t.outcomes for t in threads}
    assert outcomes["first"] == [None]
    for tag in ("a", "b", "c"):
        assert len(outcomes[tag]) == 1 and isinstance(outcomes[tag][0], OperationalError), outcomes[tag]
    assert len(store.calls) == 2 and store.stored == _save("first")
    down.clear()
    after = [Committer(committer, f"after{n}", [_save(f"after{n}")]) for n in range(4)]
    for thread in after:
        thread.start()
    _join(after)
    assert all(t.outcomes == [None] for t in after)
    assert sorted(store.stored) == sorted(_save("first") + [e for n in range(4) for e in _save(f"after{n}")])


@pytest.mark.parametrize("error", [IntegrityError("taken"), OperationalError("gone")])
def test_a_failed_batch_hands_the_lead_on_so_no_save_waits_forever(error: BaseException) -> None:
    """While a failing batch is being stored, more saves queue; the failed batch's leader hands
    the lead to the oldest of them, which stores them: every commit returns within the bound."""
    store = FakeStore(fail=lambda events: error if ("first", 0) in events else None)
    committer = GroupCommit(store.save, store.on_batch)
    first, *queued = _behind_a_blocked_batch(store, committer, [f"q{n}" for n in range(5)])
    _join([first, *queued])
    assert len(first.outcomes) == 1 and first.outcomes[0] is error
    assert all(t.outcomes == [None] for t in queued)
    assert sorted(store.stored) == sorted(e for n in range(5) for e in _save(f"q{n}"))
    assert [leader for leader, _ in store.calls[1:]] == ["q0"]  # the oldest waiting save led the next batch


def test_a_batch_holds_at_most_max_batch_events_unless_one_save_alone_is_bigger() -> None:
    """Saves queued behind a blocked batch: three of 0.45 ``MAX_BATCH_EVENTS`` events and one of
    1.25 ``MAX_BATCH_EVENTS``: no batch of several saves passes ``MAX_BATCH_EVENTS`` events, the big
    save is stored whole in a call of its own, and every event is stored once."""
    part, big = int(MAX_BATCH_EVENTS * 0.45), int(MAX_BATCH_EVENTS * 1.25)
    store = FakeStore()
    committer = GroupCommit(store.save, store.on_batch)
    first = _first_held(store, committer)
    sizes = {"p0": part, "p1": part, "big": big, "p2": part}
    queued = []
    for tag, n in sizes.items():  # one at a time, so they queue in this order
        thread = Committer(committer, tag, [_save(tag, n)])
        thread.start()
        queued.append(thread)
        _queued(committer, len(queued))
    store.gate.set()
    _join([first, *queued])
    assert all(t.outcomes == [None] for t in [first, *queued])
    groups = [sorted({tag for tag, _ in events}) for _, events in store.calls[1:]]
    assert groups == [["p0", "p1"], ["big"], ["p2"]]
    for _, events in store.calls[1:]:
        assert len(events) <= MAX_BATCH_EVENTS or len({tag for tag, _ in events}) == 1
    assert len(store.stored) == 2 + sum(sizes.values()) == len(set(store.stored))


# --------------------------------------------------------------------------- through Tables, on each store


class InsertSpy:
    """Wraps a ``Tables``' recorder insert: sleeps ``delay`` seconds first (so that saves queue up
    behind it), waits for :attr:`gate` when set, and keeps the tables of each call with its
    outcome (None: stored; else the exception)."""

    def __init__(self, tables: Tables, delay: float) -> None:
        self.delay = delay
        self.calls: list[tuple[frozenset[str], BaseException | None]] = []
        self.entered: list[frozenset[str]] = []
        """The tables of each call, as it begins."""
        self.gate: threading.Event | None = None
        self._lock = threading.Lock()
        recorder = tables.store.recorder
        self._insert = recorder.insert_events
        recorder.insert_events = self.insert_events

    def insert_events(self, stored_events: Sequence[Any], **kwargs: Any) -> Any:
        tables = frozenset(str(e.originator_id) for e in stored_events)
        with self._lock:
            self.entered.append(tables)
        gate = self.gate
        if gate is not None:
            assert gate.wait(JOIN_SECONDS)
        time.sleep(self.delay)
        try:
            result = self._insert(stored_events, **kwargs)
        except BaseException as exc:
            with self._lock:
                self.calls.append((tables, exc))
            raise
        with self._lock:
            self.calls.append((tables, None))
        return result

    def stored(self) -> list[frozenset[str]]:
        """The tables of each call that stored its events."""
        with self._lock:
            return [tables for tables, error in self.calls if error is None]


def _lines(entries: Sequence[Any]) -> list[tuple[Any, ...]]:
    return [(e.seq, e.name, e.payload, e.prev_hash, e.hash, e.command_id, e.actor) for e in entries]


def _bot_opponent_table(tables: Tables) -> tuple[str, Principal]:
    """A started Agonia table for two (one hand): a person at seat 0, a random bot at seat 1."""
    table_id, _owner = tables.create_table("agonia", 2, {"target_points": 0})
    _, token = tables.join(table_id, "ann", 0)
    tables.add_bot(table_id, "random", 1)
    me = tables.authenticate(table_id, token)
    tables.start_match(table_id, OWNER, "start")  # only the owner starts the match
    return table_id, me


def test_many_tables_saving_at_once_share_batches_and_each_log_stays_whole(store: Any) -> None:
    """Twelve people, one per table, each make up to eight moves at once through one ``Tables``
    (the bot's answers are saved with each move), every store insert taking 5 ms more: fewer
    batches than saves, some batch holding several tables; each table's log in memory (applied
    from the saves, never read back) equals the one a fresh ``Tables`` reads from the store,
    gap-free and hash-chained; every move answered is stored once under its command id."""
    tables = store.open()
    try:
        started = [_bot_opponent_table(tables) for _ in range(12)]
        spy = InsertSpy(tables, delay=0.005)
        batches_before = tables.store.batches
        go = threading.Barrier(len(started), timeout=JOIN_SECONDS)
        answered: dict[str, list[str]] = {table_id: [] for table_id, _ in started}
        failures: list[BaseException] = []

        def play(table_id: str, me: Principal, seed: int) -> None:
            rng = random.Random(seed)
            try:
                go.wait()
                for move in range(8):
                    _, view = tables.view(table_id, me)
                    if view["table"]["status"] == "over":
                        return
                    command = bots.choose("agonia", view, "random", rng)
                    tables.act(table_id, me, f"move-{move}", command)
                    answered[table_id].append(f"move-{move}")
            except BaseException as exc:
                failures.append(exc)

        threads = [threading.Thread(target=play, args=(t, me, n), daemon=True) for n, (t, me) in enumerate(started)]
        for thread in threads:
            thread.start()
        _join(threads)
        assert not failures, failures
        saved = spy.stored()
        assert tables.store.batches - batches_before == len(saved)
        saves = sum(len(tables_of_call) for tables_of_call in saved)
        assert saves >= 2 * len(started) and sum(len(v) for v in answered.values()) == saves
        assert len(saved) < saves
        assert max(len(tables_of_call) for tables_of_call in saved) > 1
        fresh = store.open()
        try:
            for table_id, _ in started:
                in_memory = tables.stored_events(table_id)
                assert _lines(in_memory) == _lines(fresh.stored_events(table_id))
                chained(in_memory)
                moves = [e.command_id for e in in_memory if e.actor == "seat:0" and e.command_id not in (None, "start")]
                assert sorted(set(moves)) == sorted(answered[table_id])
        finally:
            fresh.close()
    finally:
        tables.close()


def _draw(tables: Tables, table_id: str, me: Principal, command_id: str) -> Any:
    try:
        return tables.act(table_id, me, command_id, {"kind": "draw"})
    except (CommandRejected, Conflict) as exc:
        return exc


@pytest.mark.postgres
def test_a_batch_with_a_table_another_replica_took_stores_the_others(postgres_store: Any, deal: dict[str, Any]) -> None:
    """Six started tables (seat 0 to act, version 9, agonia R4.3: one draw a turn).  Replica A's
    six draws are decided at version 9; A's first save is held back until the other five have
    queued behind it, and meanwhile replica B draws at the first save's table and two of the
    queued ones.  A's next batch (five tables, two of them taken by B) fails with
    ``IntegrityError`` and its tables are saved alone: at each table exactly one ``CardsDrawn``
    at version 10, A's at the three B did not touch, B's at the other three; A's commands there
    are refused (``already_drawn``) or aborted, never applied twice."""
    a, b = postgres_store.open(), postgres_store.open()
    try:
        seats: list[tuple[str, Principal]] = []
        for _ in range(6):  # tables for explicit deals (manual_deal: S5.3 as the rules owners answered)
            table_id, _owner = a.create_table("agonia", 2, {"target_points": 0}, manual_deal=True)
            _, t0 = a.join(table_id, "ann", 0)
            a.join(table_id, "bob", 1)
            a.start_match(table_id, OWNER, "start", deal)
            seats.append((table_id, a.authenticate(table_id, t0)))
            assert b.view(table_id, SPECTATOR)[0] == 9
        spy = InsertSpy(a, delay=0.0)
        spy.gate = threading.Event()
        outcomes: dict[str, Any] = {}

        def draw_through_a(table_id: str, me: Principal) -> None:
            outcomes[table_id] = _draw(a, table_id, me, "draw-a")

        threads = [threading.Thread(target=draw_through_a, args=seat, daemon=True) for seat in seats]
        for thread in threads:
            thread.start()
        deadline = time.monotonic() + JOIN_SECONDS
        while not spy.entered:
            assert time.monotonic() < deadline
            time.sleep(0.001)
        _queued(a.store.committer, len(seats) - 1)
        (leader,) = spy.entered[0]
        queued = [table_id for table_id, _ in seats if table_id != leader]
        taken = {leader, queued[0], queued[2]}
        for table_id, me in seats:
            if table_id in taken:
                won = b.act(table_id, me, "draw-b", {"kind": "draw"})
                assert won.events[0].name == "CardsDrawn"
        spy.gate.set()
        _join(threads)
        for table_id, _ in seats:
            stored = a.stored_events(table_id)
            assert [e.name for e in stored[9:]] == ["CardsDrawn"] and len(stored) == 10
            chained(stored)
            if table_id in taken:
                assert stored[9].command_id == "draw-b"
                refused = outcomes[table_id]
                assert isinstance(refused, CommandRejected | Conflict), refused
                if isinstance(refused, CommandRejected):
                    assert refused.reason == "already_drawn"
            else:
                assert stored[9].command_id == "draw-a"
                assert outcomes[table_id].events[0].name == "CardsDrawn"
        batch = [tables for tables, error in spy.calls if len(tables) > 1]
        assert batch and set(batch[0]) == set(queued), spy.calls
        failed = [error for tables, error in spy.calls if tables == batch[0]]
        assert isinstance(failed[0], IntegrityError)
        alone = {next(iter(tables)): error for tables, error in spy.calls if len(tables) == 1 and tables <= set(queued)}
        assert set(alone) == set(queued)
        assert {t for t, error in alone.items() if error is None} == set(queued) - taken
    finally:
        a.close()
        b.close()


@pytest.fixture
def automation(store: Any) -> Any:
    """A ``Tables`` with four automation workers saving automatic play eight events at a time."""
    app = store.open(auto_workers=4, chunk_events=8)
    try:
        yield app
    finally:
        app.close()


def test_a_watcher_sees_every_event_once_in_order_while_its_table_is_saved_in_batches(
    automation: Tables, serve_tables: Any
) -> None:
    """Twenty Agonia tables of four heuristic bots (one hand each) played at once by four automation workers,
    eight events a save, each store insert taking 3 ms more; a spectator watches one of them
    over gRPC from version 0.  Some of the watched table's saves were stored in one batch with
    other tables' saves, and the watcher received exactly the table's stored events as a
    spectator sees them (versions 1 to the last, once each, in order, redacted alike)."""
    tables = automation
    ids = []
    for _ in range(20):
        table_id, _owner = tables.create_table("agonia", 4, {"target_points": 0})
        for _ in range(4):
            tables.add_bot(table_id, "heuristic")
        ids.append(table_id)
    watched = ids[7]
    server = serve_tables(tables)
    spy = InsertSpy(tables, delay=0.003)
    seen: list[tuple[int, str, dict[str, Any]]] = []
    errors: list[BaseException] = []
    with TableClient(f"127.0.0.1:{server.port}") as client:
        watch = client.watch(watched, 0)

        def read() -> None:
            try:
                for update in watch:  # the stream ends with the match
                    seen.append((update.version, update.name, update.payload))
            except BaseException as exc:
                errors.append(exc)

        reader = threading.Thread(target=read, daemon=True)
        reader.start()
        for table_id in ids:
            tables.start_match(table_id, OWNER, "go")
        assert tables.settle(timeout=120)
        reader.join(JOIN_SECONDS)
        assert not reader.is_alive(), "the watcher never saw the end of the match"
    assert not errors, errors
    expected = tables.events_after(watched, SPECTATOR, 0, limit=100_000)
    assert expected.over
    assert seen == [
        (item.event.version, item.event.name, json.loads(json.dumps(item.event.payload))) for item in expected.items
    ]
    assert [v for v, _, _ in seen] == list(range(1, expected.head + 1))
    together = [t for t in spy.stored() if watched in t and len(t) > 1]
    assert together, "the watched table's saves were never batched with other tables'"
