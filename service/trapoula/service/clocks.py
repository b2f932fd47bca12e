"""Keeping the turn clocks: the move made for a seat whose time ran out (docs/clock.md).

A table created with a time control (``TableCreated.clock``) folds its seats' clocks from its
stored events' times (:class:`~trapoula.domain.clock.SeatClocks`, C2-C3), so every replica that
reads the log knows every deadline: nothing about a clock lives only in one process.

:class:`ClockKeeper` runs one thread per replica.  It learns of every table with a clock from the
store's notification log (the ``TableCreated`` events, read from the start when the replica starts,
so a restart or another replica's death loses no deadline), and of every save from the store's
announcements (this process's saves, and other replicas' through the follower).  When a seat's
deadline has passed it saves, under the table's lock and with the store's optimistic check,
``TimedOut {seat, deadline, policy}`` and the move the table's policy makes for that seat (C4,
:func:`~trapoula.domain.clock.timeout_command`), with the automatic play due after it.  Replicas
that see the same deadline race like any two commands: one save wins, the other collides, reads
the table again and finds nothing due, so a seat times out once.
"""

from __future__ import annotations

import collections
import functools
import logging
import random
import threading
import time
from collections.abc import Callable, Mapping
from typing import Any

from eventsourcing.persistence import IntegrityError

from trapoula.domain.bots import choose
from trapoula.domain.clock import instant, timeout_command
from trapoula.domain.game import acting_seats
from trapoula.domain.match import Match
from trapoula.service.autoplay import Dealer
from trapoula.service.commands import MAX_ATTEMPTS, Commands
from trapoula.service.drafts import Draft, event_draft
from trapoula.service.entries import TIMED_OUT
from trapoula.service.errors import TableNotFound
from trapoula.service.store import tables_created
from trapoula.service.tablestate import TableState

log = logging.getLogger(__name__)

TICK_SECONDS = 0.2
"""How often the keeper looks at the deadlines it knows (a seat is moved at most this late)."""
DISCOVER_SECONDS = 1.0
"""How often the keeper reads the tables created since it last looked (another replica's)."""
SETTLE_SECONDS = 30.0
"""How long the notifications below the newest id may still be filled by saves in flight."""
MAX_TIMEOUT_MOVES = 8
"""Most moves made for one timed-out seat in one save (:func:`timeout_drafts`)."""
RETRY_SECONDS = 5.0
"""How long a table whose timeout could not be saved waits before it is tried again."""


def timeout_drafts(dealer: Dealer, state: TableState, seat: int, deadline: float) -> list[Draft]:
    """What is saved when ``seat``'s time ran out at ``deadline`` (seconds since the epoch): the
    ``TimedOut`` event, the move the table's policy makes for the seat (actor ``clock:N``, C4) and
    the automatic play due after it.  A move withheld from the other seats that leaves the seat due
    (``Event.withheld``: a card turned up in secret) is followed by the policy's next move for it, up to
    :data:`MAX_TIMEOUT_MOVES`, so the others never see a second timeout that would tell them of it.

    Raises:
        CommandRejected, InvalidInput: the policy's move is refused (a defect: it is one of the
            seat's legal commands).
    """
    clock = state.clock
    assert clock is not None and state.game_state is not None
    spec = state.spec
    policy = clock.policy_for(seat)
    drafts = [Draft(TIMED_OUT, {"seat": seat, "deadline": instant(deadline), "policy": policy}, "table")]
    game_state = state.game_state
    for _ in range(MAX_TIMEOUT_MOVES):
        view = spec.seat_view(game_state, seat)
        rng = dealer.bot_rng(state.table_id, state.version + len(drafts))
        payload = timeout_command(policy, view.get("legal") or (), functools.partial(_bot, spec.key, view), rng)
        after, events = Match(spec, game_state).apply(spec.parse_command({**payload, "seat": seat}))
        game_state = after.state
        drafts.extend(event_draft(event, f"clock:{seat}") for event in events)
        if not all(event.withheld for event in events) or seat not in acting_seats(spec, game_state, (seat,)):
            break
    dealer.autoplay(state, game_state, drafts)
    return drafts


def _bot(game: str, view: Mapping[str, Any], level: str, rng: random.Random) -> Mapping[str, Any]:
    """The move of the computer player of ``level`` from one seat's ``view`` (it sees what the seat sees)."""
    return choose(game, view, level, rng)


class ClockKeeper:
    """Moves the seats whose time ran out, in a thread of its own (see the module docstring).

    Args:
        commands: saves the moves (and holds the tables' locks).
        dealer: drafts the automatic play after them.
        now: the wall clock, seconds since the epoch (the stored events' times are on it).
    """

    def __init__(self, commands: Commands, dealer: Dealer, now: Callable[[], float] = time.time) -> None:
        self.commands = commands
        self.store = commands.store
        self.dealer = dealer
        self.now = now
        self._deadlines: dict[str, float | None] = {}
        """The tables with a clock whose match is not known to be over -> the earliest deadline of
        their seats (None: none awaited)."""
        self._stale: set[str] = set()
        """The kept tables whose deadlines must be read again (they moved, or are new)."""
        self._failing = False
        self._lock = threading.Lock()
        self._wake = threading.Event()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._next_created = 1
        """The first notification id not yet settled (:meth:`_discover`)."""
        self._seen_created: set[int] = set()
        """The ``TableCreated`` notifications read since :attr:`_next_created`."""
        self._marks: collections.deque[tuple[float, int]] = collections.deque()
        """``(time, newest notification id)`` of each look not yet settled."""
        self._discovered_at = 0.0
        self.timed_out = 0
        """Seats this process moved after their time ran out."""

    def start(self) -> None:
        """Start keeping the clocks (once): listen to the store's announcements and start the thread."""
        if self._thread is not None:
            return
        self.store.heads.add_listener(self._announced)
        self._thread = threading.Thread(target=self._run, name="trapoula-clocks", daemon=True)
        self._thread.start()

    def stop(self, timeout: float = 5.0) -> None:
        """Stop the thread and wait up to ``timeout`` seconds for it (a save under way finishes)."""
        self._stop.set()
        self._wake.set()
        self.store.heads.remove_listener(self._announced)
        if self._thread is not None:
            self._thread.join(timeout=timeout)

    @property
    def tables(self) -> int:
        """Tables with a clock this process keeps (their match not known to be over)."""
        with self._lock:
            return len(self._deadlines)

    def _announced(self, table_id: str, version: int) -> None:
        """A table reached ``version``: its deadlines are read again (a table with a clock that
        this process created or holds is taken on at once; another's when discovered)."""
        with self._lock:
            if table_id in self._deadlines:
                self._stale.add(table_id)
                self._wake.set()
                return
        try:
            cached = self.store.cached(table_id)
        except Exception:  # a bad id never reaches here; nothing to keep
            return
        if cached is not None and cached.state.clock is not None and not cached.state.over:
            self._keep(table_id)

    def _keep(self, table_id: str) -> None:
        with self._lock:
            self._deadlines.setdefault(table_id, None)
            self._stale.add(table_id)
        self._wake.set()

    def _run(self) -> None:
        while not self._stop.is_set():
            wait = TICK_SECONDS
            try:
                self.step()
            except Exception as exc:  # the store down: said once, tried again every RETRY_SECONDS
                if not self._failing:
                    log.warning("turn clocks paused: %s: %s; trying again", type(exc).__name__, exc)
                self._failing, wait = True, RETRY_SECONDS
            else:
                if self._failing:
                    log.info("turn clocks running again")
                self._failing = False
            self._wake.wait(wait)
            self._wake.clear()

    def step(self) -> int:
        """One look at the clocks: discover new tables with a clock (every :data:`DISCOVER_SECONDS`),
        read the deadlines of the tables that moved, and move every seat whose time ran out.
        Returns the seats moved.

        Raises:
            Exception: what the store raises when it cannot be read.
        """
        now = self.now()
        if now - self._discovered_at >= DISCOVER_SECONDS:
            self._discover(now)
            self._discovered_at = now
        with self._lock:
            stale, self._stale = self._stale, set()
        pending = list(stale)
        try:
            while pending:
                self._refresh(pending[-1])
                pending.pop()
        finally:  # a store error: the tables not read yet are read at the next look
            if pending:
                with self._lock:
                    self._stale.update(pending)
        with self._lock:
            due = [tid for tid, at in self._deadlines.items() if at is not None and at <= now]
        moved = 0
        for table_id in due:
            if self._stop.is_set():
                break
            try:
                moved += self._time_out(table_id)
            except Exception:  # the store down, or a defect: this table waits, the others go on
                log.exception("table %s: a timed-out seat could not be moved; trying again later", table_id)
                with self._lock:
                    if table_id in self._deadlines:
                        self._deadlines[table_id] = now + RETRY_SECONDS
        return moved

    def _discover(self, now: float) -> None:
        """Take on the tables created with a clock since the last look (every replica's).

        The notifications up to the newest id are read; the next look starts again from the newest
        id of :data:`SETTLE_SECONDS` ago, so a creation committed late under a lower id (a replica
        frozen in its save) is still found, while the ids read before are never read again."""
        top = self.store.recorder.max_notification_id() or 0
        if self._next_created <= top:
            for nid, table_id, payload in tables_created(self.store, self._next_created, top):
                if nid not in self._seen_created:
                    self._seen_created.add(nid)
                    if payload.get("clock") is not None:
                        self._keep(table_id)
        self._marks.append((now, top))
        while self._marks and now - self._marks[0][0] >= SETTLE_SECONDS:
            settled = self._marks.popleft()[1] + 1
            if settled > self._next_created:
                self._next_created = settled
                self._seen_created = {i for i in self._seen_created if i >= settled}

    def _refresh(self, table_id: str) -> None:
        """Read a kept table's earliest deadline again (and let it go once its match is over)."""
        try:
            state = self.store.current(table_id).state
        except TableNotFound:
            state = None
        with self._lock:
            if state is None or state.clock is None or state.over:
                self._deadlines.pop(table_id, None)
                return
            deadlines = state.clock.deadlines()
            self._deadlines[table_id] = deadlines[0][1] if deadlines else None

    def _time_out(self, table_id: str) -> int:
        """Move the seats of ``table_id`` whose time ran out (under the table's lock); returns how many."""
        moved = 0
        with self.commands.lock(table_id):
            attempt = 0
            while attempt < MAX_ATTEMPTS and not self._stop.is_set():
                table = self.store.current(table_id)
                state = table.state
                clock = state.clock
                late = [] if clock is None or state.over else [d for d in clock.deadlines() if d[1] <= self.now()]
                if not late:
                    break
                seat, deadline = late[0]
                drafts = timeout_drafts(self.dealer, state, seat, deadline)
                try:
                    table = self.commands.save(table, drafts, None)
                except IntegrityError:  # another replica moved first: read the table again
                    self.store.load(table_id)
                    attempt += 1
                    continue
                log.info("table %s: seat %d ran out of time (deadline %s)", table_id, seat, instant(deadline))
                self.commands.after_save(table)
                moved += 1
                self.timed_out += 1
        self._refresh(table_id)
        return moved
