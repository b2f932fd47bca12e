"""``Act`` run on the event loop, its save sent from there (``trapoula.service.loopacts`` and
``loopsave``), and the store's notifications read by the loop (``follower``), on PostgreSQL.

The table of every test: agonia, two seats, the explicit deal of ``conftest.DEAL`` (S5.3), so the
match stands at version 9 once started, seat 0 to play on the up-card 3D: 4D is legal (same
suit, R4.1) and makes versions 10 and 11 (``CardPlayed``, ``TurnStarted``); 5C is refused (R4.1).

* Over gRPC, a seat's moves run on the loop: each is counted there, a repeated command id returns
  the first result and stores nothing, a refusal goes to the store's threads and is answered as
  before (``FAILED_PRECONDITION``, R4.1), and the log stored equals the one in memory, chained.
* Saves of ten tables sent together go in one batch (one transaction); saves of tables close
  together wait a moment for each other, a table saving alone never waits.
* A batch holding a save that lost its race to another replica: the other tables' saves are
  stored from the loop, the loser's command goes to a thread, which decides it again on the
  store's latest state; every log stays gap-free and chained, each command in it once.
* A caller cancelled while its save is on its way: the save lands, the table in memory has it and
  its lock is free again.
* The saves' connection cut by the database: that ``Act`` is answered ``UNAVAILABLE``
  (``store_unavailable``) and stores nothing; the next one connects again and is stored.
* The follower on the loop: another replica's save is announced by the loop's thread, its own
  skipped; with its connection cut, a thread listens again, announces what was saved meanwhile
  and hands the new connection back to the loop.
* While the follower listens, the watches' polls of an idle table take it in memory and ask the
  store nothing; after its connection is cut, they ask the store again.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import threading
import time
from collections.abc import Iterator
from typing import Any

import grpc
import pytest
import sqlalchemy
from grpc_helpers import ServerThread, chained

from trapoula.api.v1 import table_pb2 as pb
from trapoula.api.v1 import table_pb2_grpc
from trapoula.clients.errors import CommandRejected
from trapoula.clients.table import TableClient
from trapoula.service.application import OWNER, Tables
from trapoula.service.loopacts import LoopActs
from trapoula.service.loopsave import LoopSaver
from trapoula.service.server import servicer_of

pytestmark = pytest.mark.postgres

WAIT_SECONDS = 15.0
"""How long a notification or a reconnection may take."""


def _until(condition: Any, what: str) -> None:
    deadline = time.monotonic() + WAIT_SECONDS
    while not condition():
        assert time.monotonic() < deadline, what
        time.sleep(0.01)


def _table(tables: Tables, deal: dict[str, Any]) -> tuple[str, str, str]:
    """A started two-seat agonia table at version 9: ``(table id, seat 0's token, seat 1's)``."""
    table_id, _owner = tables.create_table("agonia", 2, {"target_points": 0}, manual_deal=True)
    _, t0 = tables.join(table_id, "ann", 0)
    _, t1 = tables.join(table_id, "bob", 1)
    tables.start_match(table_id, OWNER, "start", deal)
    return table_id, t0, t1


def _same_log(store: Any, tables: Tables, table_id: str) -> list[str]:
    """The names of the table's stored events, read by a new ``Tables`` on ``store`` (nothing
    cached), after checking they are gap-free and chained (REC5) and the same as the log
    ``tables`` holds in memory."""
    fresh = store.open()
    try:
        stored = fresh.stored_events(table_id)
    finally:
        fresh.close()
    chained(stored)
    held = tables.stored_events(table_id)
    assert [(e.seq, e.name, e.hash) for e in stored] == [(e.seq, e.name, e.hash) for e in held]
    return [e.name for e in stored]


@pytest.fixture
def pg_tables(postgres_store: Any) -> Iterator[Tables]:
    """``Tables`` on the test's PostgreSQL schema."""
    app = postgres_store.open()
    try:
        yield app
    finally:
        app.close()


def _acts(tables: Tables, **waits: float) -> tuple[LoopActs, asyncio.AbstractEventLoop]:
    """A :class:`LoopActs` of ``tables`` on a new event loop (the caller closes the loop); ``waits``
    go to the saver (``gather_seconds``, ``siblings_seconds``)."""
    loop = asyncio.new_event_loop()
    saver = LoopSaver.for_engine(tables.store.recorder, tables.store.engine, tables.store.batched, **waits)
    assert saver is not None
    return LoopActs(tables, saver, _Inline()), loop


class _Inline(concurrent.futures.Executor):
    """An executor running each call at once (snapshots, loads of tables that left the cache)."""

    def submit(self, fn: Any, /, *args: Any, **kwargs: Any) -> concurrent.futures.Future[Any]:
        future: concurrent.futures.Future[Any] = concurrent.futures.Future()
        try:
            future.set_result(fn(*args, **kwargs))
        except BaseException as exc:
            future.set_exception(exc)
        return future


def test_moves_over_grpc_run_on_the_loop_and_refusals_on_a_thread(
    postgres_store: Any, pg_tables: Tables, deal: dict[str, Any]
) -> None:
    """4D by seat 0 (R4.1) runs on the loop: versions 10, 11; sent again with its command id (and
    another command), the first result comes back and nothing is stored.  Seat 1's 3C on the 4D
    (neither its suit nor its rank, R4.1) is refused on the copy, so a thread decides it again on
    the store's latest state and refuses it (``FAILED_PRECONDITION``); seat 1's draw then runs on
    the loop: version 12, ``CardsDrawn`` of 2C, the stock's first card."""
    table_id, t0, t1 = _table(pg_tables, deal)
    with ServerThread(pg_tables) as server:
        assert server.server is not None
        servicer = servicer_of(server.server)
        assert servicer is not None and servicer.loop_acts is not None
        acts = servicer.loop_acts
        with TableClient(server.address, token=t0) as ann:
            played = ann.act(table_id, {"kind": "play", "card": "4D"}, command_id="m1")
            assert played.version == 11 and [e.name for e in played.events] == ["CardPlayed", "TurnStarted"]
            assert (acts.on_loop, acts.handed) == (1, 0)
            again = ann.act(table_id, {"kind": "draw"}, command_id="m1")  # the same id: the first result
            assert again.version == 11 and [e.name for e in again.events] == ["CardPlayed", "TurnStarted"]
            assert acts.handed == 0
        with TableClient(server.address, token=t1) as bob:
            with pytest.raises(CommandRejected) as refused:
                bob.act(table_id, {"kind": "play", "card": "3C"}, command_id="b1")  # 3C on 4D: neither suit nor rank
            assert refused.value.code == grpc.StatusCode.FAILED_PRECONDITION
            assert acts.handed == 1
            drawn = bob.act(table_id, {"kind": "draw"}, command_id="b2")
            assert drawn.version == 12 and [e.name for e in drawn.events] == ["CardsDrawn"]
            assert drawn.events[0].payload["cards"] == ["2C"]  # the stock's first card: 2C, the lowest unused (DEAL)
            assert (acts.on_loop, acts.handed) == (2, 1)
    names = _same_log(postgres_store, pg_tables, table_id)
    assert names[9:] == ["CardPlayed", "TurnStarted", "CardsDrawn"]
    assert names.count("CardPlayed") == 1


def test_ten_tables_moved_together_are_saved_in_one_batch(
    postgres_store: Any, pg_tables: Tables, deal: dict[str, Any]
) -> None:
    """Ten tables, seat 0 plays 4D at each in the same loop turn: ten saves, one batch (one
    transaction), each table at version 11 in the store and in memory."""
    made = [_table(pg_tables, deal) for _ in range(10)]
    acts, loop = _acts(pg_tables)
    try:
        before = pg_tables.store.batches

        async def play() -> list[Any]:
            moves = [acts.act(tid, t0, "p", {"kind": "play", "card": "4D"}) for tid, t0, _ in made]
            try:
                return await asyncio.gather(*moves)
            finally:
                await acts.saver.close()

        results = loop.run_until_complete(play())
    finally:
        loop.close()
    assert [r.version for r in results] == [11] * 10
    assert pg_tables.store.batches - before == 1
    assert (acts.on_loop, acts.handed) == (10, 0)
    for tid, _, _ in made:
        assert _same_log(postgres_store, pg_tables, tid)[9:] == ["CardPlayed", "TurnStarted"]


def test_saves_of_tables_close_together_wait_for_each_other_and_a_table_alone_never_waits(
    postgres_store: Any, pg_tables: Tables, deal: dict[str, Any]
) -> None:
    """A saver waiting 0.5 s for company (``gather_seconds``) once saves of two tables came less
    than 60 s apart (``siblings_seconds``).  At table X, seat 0's 4D (R4.1: versions 10, 11) and
    then seat 1's draw (version 12, ``CardsDrawn``) are each sent at once: the first save of all,
    then a save of the same table (nobody else saves).  Seat 0's 4D at Y then comes after X's
    saves: the sender waits, and seat 0's 4D at Z, made 0.05 s later, joins it: one batch for Y
    and Z (one transaction), each table at version 11 in the store."""
    (x, x0, x1), (y, y0, _), (z, z0, _) = (_table(pg_tables, deal) for _ in range(3))
    acts, loop = _acts(pg_tables, gather_seconds=0.5, siblings_seconds=60.0)
    saver = acts.saver
    store = pg_tables.store
    try:

        async def play() -> tuple[list[int], list[int], int]:
            try:
                batches, gathered, versions = [], [], []
                for tid, token, move in ((x, x0, {"kind": "play", "card": "4D"}), (x, x1, {"kind": "draw"})):
                    before = store.batches
                    result = await acts.act(tid, token, "m", move)
                    versions.append(result.version)
                    batches.append(store.batches - before)
                    gathered.append(saver.gathered)
                before = store.batches

                async def later() -> Any:
                    await asyncio.sleep(0.05)
                    return await acts.act(z, z0, "m", {"kind": "play", "card": "4D"})

                on_y, on_z = await asyncio.gather(acts.act(y, y0, "m", {"kind": "play", "card": "4D"}), later())
                versions += [on_y.version, on_z.version]
                return versions, batches + gathered, store.batches - before
            finally:
                await saver.close()

        versions, alone, together = loop.run_until_complete(play())
    finally:
        loop.close()
    assert versions == [11, 12, 11, 11]
    assert alone == [1, 1, 0, 0]  # X's two saves: a batch each, neither waited
    assert together == 1 and saver.gathered == 1  # Y's and Z's: one batch, after one wait
    assert _same_log(postgres_store, pg_tables, x)[9:] == ["CardPlayed", "TurnStarted", "CardsDrawn"]
    for tid in (y, z):
        assert _same_log(postgres_store, pg_tables, tid)[9:] == ["CardPlayed", "TurnStarted"]


def test_a_batch_with_a_lost_race_stores_the_others_and_decides_the_loser_again(
    postgres_store: Any, deal: dict[str, Any]
) -> None:
    """Replica B draws for seat 0 at table X (version 10 on) behind replica A's back (A does not
    follow the store, so its copy of X stays at version 9).  A then sends seat 0's 4D at X and at
    Y in one batch: the batch collides at X's version 10, nothing of it is stored; Y's save is
    then stored alone from the loop (versions 10, 11) and X's command is handed to the store's
    threads (None), with nothing of A's stored at X: X's log holds B's draw and no gap."""
    a, b = postgres_store.open(), postgres_store.open()
    try:
        x, x0, _ = _table(a, deal)
        y, y0, _ = _table(a, deal)
        b.act(x, b.authenticate(x, x0), "d", {"kind": "draw"})
        acts, loop = _acts(a)
        try:

            async def play() -> list[Any]:
                moves = [acts.act(tid, tok, "p", {"kind": "play", "card": "4D"}) for tid, tok in ((x, x0), (y, y0))]
                try:
                    return await asyncio.gather(*moves)
                finally:
                    await acts.saver.close()

            on_x, on_y = loop.run_until_complete(play())
        finally:
            loop.close()
        assert on_x is None  # handed to the threads
        assert on_y is not None and on_y.version == 11
        assert (acts.on_loop, acts.handed) == (1, 1)
        assert _same_log(postgres_store, a, y)[9:] == ["CardPlayed", "TurnStarted"]
        x_names = _same_log(postgres_store, a, x)
        assert x_names[9] == "CardsDrawn" and "CardPlayed" not in x_names
        assert not a.commands.locks[x].locked() and not a.commands.locks[y].locked()
    finally:
        a.close()
        b.close()


def test_a_cancelled_caller_leaves_its_save_to_land_and_the_lock_free(
    postgres_store: Any, pg_tables: Tables, deal: dict[str, Any]
) -> None:
    """Seat 0's 4D, its caller cancelled once the save is on its way: the store holds versions 10
    and 11, the table in memory is at 11, and the table's lock is free."""
    table_id, t0, _ = _table(pg_tables, deal)
    acts, loop = _acts(pg_tables)
    try:

        async def play() -> None:
            task = asyncio.ensure_future(acts.act(table_id, t0, "p", {"kind": "play", "card": "4D"}))
            await asyncio.sleep(0)  # the command is decided and its save handed over
            task.cancel()
            with pytest.raises(asyncio.CancelledError):
                await task
            await acts.saver.close()  # the batch on its way is answered

        loop.run_until_complete(play())
    finally:
        loop.close()
    assert _same_log(postgres_store, pg_tables, table_id)[9:] == ["CardPlayed", "TurnStarted"]
    peeked = pg_tables.store.peek(table_id)
    assert peeked is not None and peeked.state.version == 11
    assert not pg_tables.commands.locks[table_id].locked()


def _terminate(url: str, like: str) -> int:
    """End the database sessions whose last statement contains ``like`` (name the test's schema in
    it: the other tests' sessions share the database); how many."""
    engine = sqlalchemy.create_engine(url)
    try:
        with engine.begin() as conn:
            rows = conn.execute(
                sqlalchemy.text(
                    "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                    "WHERE pid <> pg_backend_pid() AND query LIKE :like"
                ),
                {"like": f"%{like}%"},
            ).all()
        return len(rows)
    finally:
        engine.dispose()


def test_a_cut_save_connection_answers_store_unavailable_then_connects_again(
    postgres_store: Any, pg_tables: Tables, deal: dict[str, Any]
) -> None:
    """The loop's save connection ended by the database between two moves: seat 0's 4D is
    answered ``UNAVAILABLE`` with reason ``store_unavailable`` and stores nothing; sent again with
    the same command id, it is stored once (versions 10, 11)."""
    table_id, t0, _ = _table(pg_tables, deal)
    other, other0, _ = _table(pg_tables, deal)
    with ServerThread(pg_tables) as server, grpc.insecure_channel(server.address) as channel:
        stub = table_pb2_grpc.TableServiceStub(channel)
        with TableClient(server.address, token=other0) as ann:
            assert ann.act(other, {"kind": "play", "card": "4D"}).version == 11  # the save connection is open
        assert _terminate(postgres_store.url, f'LOCK TABLE "{postgres_store.schema}".') >= 1  # this test's only
        request = pb.ActRequest(table_id=table_id, command_id="m1", command=pb.Command(play=pb.PlayCard(card="4D")))
        metadata = (("authorization", f"Bearer {t0}"),)
        with pytest.raises(grpc.RpcError) as cut:
            stub.Act(request, metadata=metadata)
        assert cut.value.code() == grpc.StatusCode.UNAVAILABLE
        assert "store_unavailable" in str(cut.value.trailing_metadata())
        assert len(pg_tables.stored_events(table_id)) == 9
        again = stub.Act(request, metadata=metadata)
        assert again.version == 11
    assert _same_log(postgres_store, pg_tables, table_id)[9:] == ["CardPlayed", "TurnStarted"]


def test_the_follower_on_the_loop_announces_other_saves_and_comes_back_after_a_cut(
    postgres_store: Any, deal: dict[str, Any]
) -> None:
    """Replica A follows on an event loop; B plays 4D at a table (version 11): A's loop thread
    announces (table, 11).  A's listening connection is then ended by the database; B draws
    (version 12 on) while A listens again from a thread: the save is announced all the same, and
    the loop reads the new connection once it is back: B's next table is announced from the loop."""
    a, b = postgres_store.open(), postgres_store.open()
    loop = asyncio.new_event_loop()
    runner = threading.Thread(target=loop.run_forever, name="test-follow-loop", daemon=True)
    runner.start()
    heard: list[tuple[str, int, str]] = []
    a.add_listener(lambda tid, version: heard.append((tid, version, threading.current_thread().name)))
    try:
        table_id, t0, t1 = _table(b, deal)
        assert asyncio.run_coroutine_threadsafe(_start(a, loop), loop).result(10)
        b.act(table_id, b.authenticate(table_id, t0), "p", {"kind": "play", "card": "4D"})
        _until(lambda: (table_id, 11, "test-follow-loop") in heard, f"A's loop did not announce B's move: {heard}")
        assert _terminate(postgres_store.url, f'LISTEN "{postgres_store.schema}_') == 1  # A's; B does not listen
        drawn = b.act(table_id, b.authenticate(table_id, t1), "d", {"kind": "draw"})
        _until(lambda: any(v == drawn.version for _, v, _ in heard), f"B's draw was never announced: {heard}")
        _until(lambda: a.follower._watched is not None, "the loop never took the listening connection back")
        created, _owner = b.create_table("agonia", 2, {"target_points": 0})
        _until(
            lambda: any(tid == created and name == "test-follow-loop" for tid, _, name in heard),
            f"A's loop did not announce B's new table after the cut: {heard}",
        )
    finally:
        a.close()
        b.close()
        loop.call_soon_threadsafe(loop.stop)
        runner.join(10)
        loop.close()


async def _start(tables: Tables, loop: asyncio.AbstractEventLoop) -> bool:
    return tables.follow_store(loop)


def test_with_the_follower_listening_the_polls_of_an_idle_table_mostly_ask_no_store_and_after_a_cut_they_do(
    postgres_store: Any, pg_tables: Tables
) -> None:
    """Five spectators of a table where nothing happens, on a server polling every 0.2 s whose
    loop follows the store: of their polls, at most one in four asks the store (``MEMORY_POLLS``:
    three in a row take the table in memory, no save can have been missed).  With the listening
    connection gone silent (the loop no longer reads it, nothing breaks), another replica's join
    still reaches a watcher through those store polls.  Once the database ends the follower's
    connection, every poll asks the store (until ``RESTEADY_SECONDS`` after it listened again)."""
    tables = pg_tables
    table_id, _owner = tables.create_table("agonia", 2, {"target_points": 0})
    counts = {"store_polls": 0, "in_memory": 0}
    watch_in_memory, events_after = tables.watch_in_memory, tables.events_after

    def in_memory(*args: Any, **kwargs: Any) -> Any:
        counts["in_memory"] += 1
        return watch_in_memory(*args, **kwargs)

    def after(*args: Any, **kwargs: Any) -> Any:
        if "max_age" in kwargs:
            counts["store_polls"] += 1
        return events_after(*args, **kwargs)

    other = postgres_store.open()
    with ServerThread(tables, poll_seconds=0.2) as server, concurrent.futures.ThreadPoolExecutor(1) as pool:
        assert asyncio.run_coroutine_threadsafe(_start(tables, server.loop), server.loop).result(10)
        tables.watch_in_memory = in_memory  # type: ignore[method-assign]
        tables.events_after = after  # type: ignore[method-assign]
        with grpc.insecure_channel(server.address) as channel:
            stub = table_pb2_grpc.TableServiceStub(channel)
            streams = [stub.WatchTable(pb.WatchTableRequest(table_id=table_id)) for _ in range(5)]
            assert [next(s).event.name for s in streams] == ["TableCreated"] * 5
            assert [next(s).event.name for s in streams] == ["SeedCommitted"] * 5
            _until(lambda: counts["in_memory"] >= 25, "fewer than 25 polls in memory")
            assert counts["store_polls"] <= counts["in_memory"] // 3 + 5
            follower = tables.follower
            server.loop.call_soon_threadsafe(server.loop.remove_reader, follower._socket)  # silent, not broken
            time.sleep(0.5)
            other.join(table_id, "bob", 0)  # another replica's save: its notification is never read
            seated = pool.submit(next, streams[0]).result(WAIT_SECONDS)
            assert seated.event.name == "SeatTaken" and seated.event.version == 3
            server.loop.call_soon_threadsafe(server.loop.add_reader, follower._socket, follower._readable)
            assert _terminate(postgres_store.url, f'LISTEN "{postgres_store.schema}_') == 1
            _until(lambda: not follower.follows_since(time.monotonic()), "the follower did not notice the cut")
            store_polls = counts["store_polls"]
            _until(lambda: counts["store_polls"] >= store_polls + 10, "the polls did not ask the store after the cut")
            for s in streams:
                s.cancel()
    other.close()
