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
"""

from __future__ import annotations

import random
import threading
import time
from collections import defaultdict
from collections.abc import Callable, Sequence
from typing import Any

import pytest
from eventsourcing.persistence import IntegrityError, OperationalError

from trapoula.service.committer import MAX_BATCH_EVENTS, GroupCommit

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


def _behind_a_blocked_batch(store: FakeStore, committer: GroupCommit, tags: Sequence[str]) -> list[Committer]:
    """A first save whose store call blocks until the saves of ``tags`` (one thread each) have all
    queued behind it; then it is let through.  Returns the threads, first one first."""
    store.gate = threading.Event()
    first = Committer(committer, "first", [_save("first")])
    first.start()
    deadline = time.monotonic() + JOIN_SECONDS
    while not store.calls:
        assert time.monotonic() < deadline
        time.sleep(0.001)
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
    store.gate = threading.Event()
    first = Committer(committer, "first", [_save("first")])
    first.start()
    while not store.calls:
        time.sleep(0.001)
    queued = [Committer(committer, f"q{n}", [_save(f"q{n}")]) for n in range(5)]
    for thread in queued:
        thread.start()
    _queued(committer, 5)
    store.gate.set()
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
    store.gate = threading.Event()
    first = Committer(committer, "first", [_save("first")])
    first.start()
    while not store.calls:
        time.sleep(0.001)
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
