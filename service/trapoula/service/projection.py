"""The projection that keeps the read models (:mod:`trapoula.service.readmodels`) from the event log.

It reads the application's notification log (every stored event of every table, numbered by the
store: ``recorder.select_notifications``) after its position, decodes each notification with the
application's mapper into a :class:`Fact`, folds a batch of facts into the read-model rows and
writes the rows and the new position **in one transaction**.  So:

* exactly once: a batch is applied with its position or not at all; a notification at or before
  the position is skipped (idempotent by position);
* resumable: after a crash or a restart the projection goes on from the stored position;
* replicas: on PostgreSQL the position row is locked (``SELECT ... FOR UPDATE SKIP LOCKED``) for
  the whole transaction, so two replicas running the projection never apply one notification
  twice (the one that finds the row locked leaves the batch to the other and looks again
  later); on SQLite the transaction holds the database's write lock from its start;
* rebuildable: :meth:`Projection.rebuild` empties the tables, resets the position and folds the
  whole log again; the rows it makes equal those kept live (every value comes from the log:
  times are the events' own).

Positions may have gaps (a save that lost a race used one up); the projection only ever
compares them.  On PostgreSQL the store takes a table lock for each save, so notifications
become visible in the order of their numbers and none is passed over.

:class:`Projection` runs in a background thread of the server: woken by the application's
listeners after each save (and, on PostgreSQL, after other replicas' saves that
``Tables.follow_store`` announces), and every ``poll_seconds`` in case a wake-up was missed; it
pauses ``pause_seconds`` after each catch-up so that a busy server's saves are applied in
batches.  Read models are eventually consistent: a finished match is listed shortly after its
``MatchEnded`` is saved (docs/read-models.md).
"""

from __future__ import annotations

import itertools
import json
import logging
import threading
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import Table, and_, bindparam, delete, func, insert, select, tuple_, update
from sqlalchemy.engine import Connection

from trapoula.domain.chain import HAND_REVEALED
from trapoula.domain.game import GameSpec
from trapoula.domain.registry import GAMES
from trapoula.service.application import Tables
from trapoula.service.entries import (
    BETWEEN_HANDS,
    JOIN_QUEUED,
    MATCH_ENDED,
    SEAT_FREEING,
    SEAT_TAKEN,
    TABLE_CREATED,
    TABLE_EVENTS,
)
from trapoula.service.readmodels import ReadModels
from trapoula.service.readtables import PROJECTION_NAME, Base
from trapoula.service.status import store_down

log = logging.getLogger(__name__)

BATCH_SIZE = 500
"""Most notifications applied in one transaction."""
POLL_SECONDS = 5.0
"""The background projection looks at the log at least this often, even without a wake-up."""
PAUSE_SECONDS = 0.1
"""Pause after each catch-up, so that the saves of a busy server are applied in batches."""
RETRY_SECONDS = 0.5
"""First wait after a failed catch-up (doubles each time)."""
RETRY_MAX_SECONDS = 30.0
"""Longest wait between two tries after failures."""
_CHUNK = 400
"""Most keys in one ``IN (...)`` list."""

_LOBBY: Table = Base.metadata.tables["trapoula_lobby"]
_PLAYERS: Table = Base.metadata.tables["trapoula_players"]
_MATCHES: Table = Base.metadata.tables["trapoula_matches"]
_STANDINGS: Table = Base.metadata.tables["trapoula_standings"]
_POSITION: Table = Base.metadata.tables["trapoula_projection"]


@dataclass(frozen=True, slots=True)
class Fact:
    """One stored event as the projection folds it."""

    position: int
    """Its notification id: its place in the whole log (increasing, maybe with gaps)."""
    table_id: str
    version: int
    """Its version in its table's log (1 for ``TableCreated``)."""
    name: str
    """The event name (``TableCreated``, ``SeatTaken``, ``MatchEnded`` ...); ``""`` for a
    notification that is no table event (skipped, but its position counts)."""
    payload: Mapping[str, Any]
    timestamp: datetime
    """When it was saved (aware, UTC)."""


def fact_of(notification: Any, mapper: Any) -> Fact:
    """The fact of one notification of the store, decoded by the application's ``mapper``.

    Raises:
        Exception: what the mapper raises for a notification it cannot decode.
    """
    stored = mapper.to_domain_event(notification)
    name = getattr(stored, "name", None)
    payload = getattr(stored, "payload", None)
    if not isinstance(name, str) or not isinstance(payload, Mapping):
        name, payload = "", {}
    when = getattr(stored, "timestamp", None)
    if not isinstance(when, datetime):
        when = datetime.fromtimestamp(0, UTC)
    elif when.tzinfo is None:
        when = when.replace(tzinfo=UTC)
    return Fact(
        int(notification.id),
        str(notification.originator_id),
        int(notification.originator_version),
        name,
        payload,
        when.astimezone(UTC),
    )


def _json(value: Any) -> str:
    return json.dumps(value, sort_keys=True, ensure_ascii=False, separators=(",", ":"))


def _int(value: Any) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def _chunks(items: Sequence[Any]) -> Iterator[Sequence[Any]]:
    for i in range(0, len(items), _CHUNK):
        yield items[i : i + _CHUNK]


# --------------------------------------------------------------------------- the fold


@dataclass(slots=True)
class _Player:
    """A ``trapoula_players`` row being folded."""

    table_id: str
    joined: int
    seat: int
    name: str
    bot: str
    left_version: int | None = None
    team: int | None = None
    total: int | None = None
    won: bool = False
    new: bool = False
    dirty: bool = False

    def row(self) -> dict[str, Any]:
        return {
            "table_id": self.table_id,
            "joined": self.joined,
            "seat": self.seat,
            "name": self.name,
            "bot": self.bot,
            "left_version": self.left_version,
            "team": self.team,
            "total": self.total,
            "won": self.won,
        }


@dataclass(slots=True)
class _Table:
    """A ``trapoula_lobby`` row being folded, with the table's players."""

    table_id: str
    created_seq: int
    game: str
    seats: int
    options: str
    manual_deal: bool
    status: str
    free_seats: str
    open_places: int
    seated: int
    waiting: int
    hands: int
    record_cut: int
    record_hands: int
    created_at: datetime
    started_at: datetime | None
    players: list[_Player] = field(default_factory=list)
    new: bool = False
    dirty: bool = False

    _COLUMNS = (
        "table_id", "created_seq", "game", "seats", "options", "manual_deal", "status", "free_seats",
        "open_places", "seated", "waiting", "hands", "record_cut", "record_hands", "created_at", "started_at",
    )  # fmt: skip

    def row(self) -> dict[str, Any]:
        return {c: getattr(self, c) for c in self._COLUMNS}

    @property
    def started(self) -> bool:
        return self.status in ("playing", "over")

    def occupant(self, seat: int) -> _Player | None:
        """Who holds ``seat`` now."""
        for player in reversed(self.players):
            if player.seat == seat and player.left_version is None:
                return player
        return None


def _team(spec: GameSpec[Any, Any] | None, seat: int) -> int | None:
    if spec is None:
        return None
    return next((i for i, members in enumerate(spec.teams) if seat in members), None)


class _Fold:
    """One transaction's fold: the rows the facts touch are read once, changed in memory, and
    written back together by :meth:`flush`."""

    def __init__(self, conn: Connection) -> None:
        self.conn = conn
        self.tables: dict[str, _Table] = {}
        self.matches: list[dict[str, Any]] = []
        self.standings: dict[tuple[str, str, str], list[Any]] = {}
        """``(game, name, bot)`` -> [played, won, last finished at] added by this fold."""

    # ----------------------------------------------------------------------- reading

    def load(self, table_ids: Sequence[str]) -> None:
        """Read the rows of ``table_ids`` not read yet (unknown ones are skipped)."""
        wanted = [t for t in dict.fromkeys(table_ids) if t not in self.tables]
        for chunk in _chunks(wanted):
            for r in self.conn.execute(select(_LOBBY).where(_LOBBY.c.table_id.in_(chunk))):
                self.tables[r.table_id] = _Table(**{c: getattr(r, c) for c in _Table._COLUMNS})
            stmt = select(_PLAYERS).where(_PLAYERS.c.table_id.in_(chunk)).order_by(_PLAYERS.c.joined)
            for r in self.conn.execute(stmt):
                table = self.tables.get(r.table_id)
                if table is not None:
                    table.players.append(_Player(**r._mapping))

    # ----------------------------------------------------------------------- folding

    def run(self, facts: Sequence[Fact]) -> None:
        """Fold ``facts`` (in log order)."""
        self.load([f.table_id for f in facts if f.name])
        for fact in facts:
            self.apply(fact)

    def apply(self, fact: Fact) -> None:
        """Fold one fact (a trusted stored event, as ``tablestate.apply_entry`` folds it)."""
        name = fact.name
        if not name:
            return
        if name == TABLE_CREATED:
            self._created(fact)
            return
        table = self.tables.get(fact.table_id)
        if table is None:
            log.warning("projection: %s of table %s before its TableCreated; skipped", name, fact.table_id)
            return
        spec = GAMES.get(table.game)
        p = fact.payload
        extends = table.record_cut == fact.version - 1 and table.hands > 0  # tablestate._extends_record
        if name == SEAT_TAKEN:
            seat = _int(p.get("seat"))
            if seat is None or seat < 0:
                return
            player = _Player(
                table.table_id, fact.version, seat, str(p.get("name") or ""), str(p.get("bot") or ""), new=True
            )
            player.team = _team(spec, seat)
            table.players.append(player)
            table.seats = max(table.seats, seat + 1)
            if p.get("queued") is not None:
                table.waiting = max(0, table.waiting - 1)
            if not table.started or extends:
                table.record_cut = fact.version
        elif name == JOIN_QUEUED:
            table.waiting += 1
        elif name in TABLE_EVENTS:
            return
        else:
            changed = False
            if not table.started:
                table.status = "playing"
                table.started_at = fact.timestamp
                changed = True
            if name in SEAT_FREEING and spec is not None and spec.seat_changes:
                seat = _int(p.get("seat"))
                gone = table.occupant(seat) if seat is not None else None
                if gone is not None:
                    gone.left_version = fact.version
                    gone.dirty = changed = True
            if name in HAND_REVEALED:
                table.hands += 1
                changed = True
            if name in HAND_REVEALED or (name in BETWEEN_HANDS and extends):
                table.record_cut, table.record_hands = fact.version, table.hands
                changed = True
            if name == MATCH_ENDED:
                self._ended(table, spec, fact)
                changed = True
            if not changed:
                return
        table.dirty = True

    def _created(self, fact: Fact) -> None:
        p = fact.payload
        if fact.table_id in self.tables:  # loaded by run(), or made by an earlier fact
            log.warning("projection: a second TableCreated of table %s; skipped", fact.table_id)
            return
        game = str(p.get("game") or "")
        table = _Table(
            table_id=fact.table_id,
            created_seq=fact.position,
            game=game,
            seats=max(0, _int(p.get("seats")) or 0),
            options=_json(p.get("options") or {}),
            manual_deal=bool(p.get("manual_deal")),
            status="open",
            free_seats="[]",
            open_places=0,
            seated=0,
            waiting=0,
            hands=0,
            record_cut=fact.version,
            record_hands=0,
            created_at=fact.timestamp,
            started_at=None,
            new=True,
            dirty=True,
        )
        self.tables[fact.table_id] = table

    def _ended(self, table: _Table, spec: GameSpec[Any, Any] | None, fact: Fact) -> None:
        """``MatchEnded``: every player's result, the match row, the standings (per game's payload:
        ``winner`` and per-seat ``totals``, or ``vida``'s ``winner_team`` and ``games_won``, R6.10)."""
        p = fact.payload
        teams = spec.teams if spec is not None else ()
        winner_team = _int(p.get("winner_team"))
        if winner_team is not None and not 0 <= winner_team < len(teams):
            winner_team = None
        winner = _int(p.get("winner"))
        winner_seats = [winner] if winner is not None else []
        if winner_team is not None:
            winner_seats = sorted(teams[winner_team])
        games_won = p.get("games_won")
        team_totals = (
            [v for v in games_won if _int(v) is not None]
            if winner_team is not None and isinstance(games_won, list)
            else None
        )
        totals = p.get("totals") if not teams else None
        last: dict[int, _Player] = {}
        for player in table.players:
            last[player.seat] = player
        results: dict[tuple[str, str], bool] = {}
        for player in table.players:
            is_last = last[player.seat] is player
            total = None
            if is_last and isinstance(totals, list) and player.seat < len(totals):
                total = _int(totals[player.seat])
            player.total = total
            player.won = is_last and player.seat in winner_seats
            player.dirty = True
            key = (player.name, player.bot)
            results[key] = results.get(key, False) or player.won
        table.status = "over"
        self.matches.append(
            {
                "table_id": table.table_id,
                "ended_seq": fact.position,
                "game": table.game,
                "created_at": table.created_at,
                "started_at": table.started_at,
                "finished_at": fact.timestamp,
                "version": fact.version,
                "hands": table.hands,
                "record_hands": table.record_hands,
                "record_complete": table.record_cut == fact.version,
                "winner_seats": _json(winner_seats),
                "winner_team": winner_team,
                "team_totals": _json(team_totals) if team_totals is not None else None,
                "result": _json(dict(p)),
            }
        )
        for (name, bot), won in results.items():
            entry = self.standings.setdefault((table.game, name, bot), [0, 0, fact.timestamp])
            entry[0] += 1
            entry[1] += int(won)
            entry[2] = fact.timestamp

    @staticmethod
    def _derive(table: _Table, spec: GameSpec[Any, Any] | None) -> None:
        """Seats, status and the places open, from the players (``TableState.status``); run on
        each changed table before it is written."""
        occupied = {p.seat for p in table.players if p.left_version is None}
        free = [s for s in range(table.seats) if s not in occupied]
        table.seated = len(occupied)
        table.free_seats = _json(free)
        if not table.started:
            table.status = "open" if free else "ready"
        if table.status == "open":
            table.open_places = len(free)
        elif table.status == "playing" and spec is not None and spec.seat_changes:
            table.open_places = max(0, spec.max_players - table.seated - table.waiting)
        else:
            table.open_places = 0

    # ----------------------------------------------------------------------- writing

    def flush(self) -> None:
        """Write every changed row."""
        conn = self.conn
        tables = list(self.tables.values())
        for table in tables:
            if table.dirty:
                self._derive(table, GAMES.get(table.game))
        new = [t.row() for t in tables if t.new]
        changed = [{**t.row(), "_id": t.table_id} for t in tables if t.dirty and not t.new]
        if new:
            conn.execute(insert(_LOBBY), new)
        if changed:
            conn.execute(update(_LOBBY).where(_LOBBY.c.table_id == bindparam("_id")), changed)
        players = [p for t in tables for p in t.players]
        new_players = [p.row() for p in players if p.new]
        changed_players = [
            {**p.row(), "_table": p.table_id, "_joined": p.joined} for p in players if p.dirty and not p.new
        ]
        if new_players:
            conn.execute(insert(_PLAYERS), new_players)
        if changed_players:
            stmt = update(_PLAYERS).where(
                and_(_PLAYERS.c.table_id == bindparam("_table"), _PLAYERS.c.joined == bindparam("_joined"))
            )
            conn.execute(stmt, changed_players)
        if self.matches:
            conn.execute(insert(_MATCHES), self.matches)
        self._flush_standings()

    def _flush_standings(self) -> None:
        keys = list(self.standings)
        if not keys:
            return
        s = _STANDINGS
        known: dict[tuple[str, str, str], tuple[int, int]] = {}
        for chunk in _chunks(keys):
            stmt = select(s.c.game, s.c.name, s.c.bot, s.c.played, s.c.won).where(
                tuple_(s.c.game, s.c.name, s.c.bot).in_(chunk)
            )
            for r in self.conn.execute(stmt):
                known[(r.game, r.name, r.bot)] = (r.played, r.won)
        inserts: list[dict[str, Any]] = []
        updates: list[dict[str, Any]] = []
        for key, (played, won, last) in self.standings.items():
            game, name, bot = key
            if key in known:
                before_played, before_won = known[key]
                updates.append(
                    {
                        "_game": game,
                        "_name": name,
                        "_bot": bot,
                        "played": before_played + played,
                        "won": before_won + won,
                        "last_finished_at": last,
                    }
                )
            else:
                inserts.append(
                    {"game": game, "name": name, "bot": bot, "played": played, "won": won, "last_finished_at": last}
                )
        if inserts:
            self.conn.execute(insert(s), inserts)
        if updates:
            change = update(s).where(
                and_(s.c.game == bindparam("_game"), s.c.name == bindparam("_name"), s.c.bot == bindparam("_bot"))
            )
            self.conn.execute(change, updates)


# --------------------------------------------------------------------------- the projection


class Projection:
    """Keeps ``read_models`` up to date with the log of ``tables`` (see the module docstring).

    Args:
        tables: the application whose notification log is read (``recorder``, ``mapper``,
            ``add_listener``).
        read_models: where the rows and the position are written (migrated already:
            :meth:`ReadModels.migrate`).
        batch_size: most notifications per transaction.
        poll_seconds: the background thread looks at the log at least this often.
        pause_seconds: the background thread's pause after each catch-up.
    """

    def __init__(
        self,
        tables: Tables,
        read_models: ReadModels,
        *,
        batch_size: int = BATCH_SIZE,
        poll_seconds: float = POLL_SECONDS,
        pause_seconds: float = PAUSE_SECONDS,
    ) -> None:
        self.tables = tables
        self.read_models = read_models
        self.batch_size = max(1, batch_size)
        self.poll_seconds = poll_seconds
        self.pause_seconds = pause_seconds
        self._wake = threading.Event()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._listening = False
        self.observed: tuple[int, int] = (0, 0)
        """``(position, head)`` as the background thread last saw them (for the metrics; no I/O)."""
        self.failures = 0
        """Catch-ups of the background thread that failed (each is logged)."""

    # ----------------------------------------------------------------------- transactions

    @contextmanager
    def _transaction(self) -> Iterator[Connection]:
        serial = self.read_models.serial
        if serial is not None:
            serial.acquire()
        try:
            with self.read_models.write_engine.begin() as conn:
                yield conn
        finally:
            if serial is not None:
                serial.release()

    def _lock_position(self, conn: Connection, *, wait: bool = False) -> int | None:
        """The stored position, its row locked until the transaction ends (PostgreSQL); None when
        another replica holds the lock (and ``wait`` is False).  A missing row is made at 0."""
        stmt = select(_POSITION.c.position).where(_POSITION.c.name == PROJECTION_NAME)
        postgres = conn.dialect.name == "postgresql"
        if postgres:
            stmt = stmt.with_for_update(skip_locked=not wait)
        found = conn.execute(stmt).first()
        if found is not None:
            return int(found[0])
        if postgres and not wait:
            count = select(func.count()).select_from(_POSITION).where(_POSITION.c.name == PROJECTION_NAME)
            if conn.execute(count).scalar():
                return None  # locked by another replica: it is applying this batch
        conn.execute(insert(_POSITION).values(name=PROJECTION_NAME, position=0))
        return 0

    def _step(self, fetch: Callable[[int], Sequence[Fact]]) -> int:
        """One transaction: lock the position, fold the facts ``fetch(position)`` gives after it,
        write the rows and the new position.  Returns how many facts were applied (-1: another
        replica holds the position)."""
        with self._transaction() as conn:
            position = self._lock_position(conn)
            if position is None:
                return -1
            facts = [f for f in fetch(position) if f.position > position]
            if not facts:
                return 0
            for before, after in itertools.pairwise(facts):
                if after.position <= before.position:
                    raise ValueError(f"facts out of order: position {after.position} after {before.position}")
            fold = _Fold(conn)
            fold.run(facts)
            fold.flush()
            conn.execute(
                update(_POSITION).where(_POSITION.c.name == PROJECTION_NAME).values(position=facts[-1].position)
            )
            return len(facts)

    def _fetch(self, position: int) -> list[Fact]:
        recorder = self.tables.recorder
        notifications = recorder.select_notifications(start=position + 1, limit=self.batch_size)
        return [fact_of(n, self.tables.mapper) for n in notifications]

    # ----------------------------------------------------------------------- public API

    @property
    def position(self) -> int:
        """The notification id of the last stored event applied (0: none)."""
        return self.read_models.position()

    def head(self) -> int:
        """The notification id of the newest stored event of the log (0: none)."""
        return int(self.tables.recorder.max_notification_id() or 0)

    def apply(self, facts: Sequence[Fact]) -> int:
        """Fold ``facts`` (in log order, increasing positions) in one transaction with the new
        position; those at or before the stored position are skipped.  Returns how many were
        applied (-1: another replica holds the position; nothing was done).

        The entry point of :meth:`catch_up`, and of tools and tests that feed facts directly.

        Raises:
            ValueError: the facts are not in increasing position order (nothing is applied).
            Exception: what the database raises (nothing is applied).
        """
        given = list(facts)
        return self._step(lambda _position: given)

    def catch_up(self, max_batches: int | None = None) -> int:
        """Apply the log after the position, :attr:`batch_size` notifications per transaction,
        until its end (or ``max_batches`` transactions, or :meth:`stop`); returns how many
        notifications were applied.  Stops early, without error, when another replica holds the
        position (it is catching up).

        Raises:
            Exception: what the store, the mapper or the database raises; the batches before
                the failing one stay applied, the failing one is not.
        """
        total = 0
        batches = 0
        while (max_batches is None or batches < max_batches) and not self._stop.is_set():
            applied = self._step(self._fetch)
            if applied <= 0:
                break
            total += applied
            batches += 1
        return total

    def rebuild(self) -> int:
        """Empty the read models, set the position to 0 (one transaction, waiting for a replica's
        batch in progress), then apply the whole log again (:meth:`catch_up`); returns how many
        notifications were applied.  Readers see the tables fill up again meanwhile.

        Raises:
            Exception: as :meth:`catch_up`.
        """
        with self._transaction() as conn:
            self._lock_position(conn, wait=True)
            for table in (_STANDINGS, _MATCHES, _PLAYERS, _LOBBY):
                conn.execute(delete(table))
            conn.execute(update(_POSITION).where(_POSITION.c.name == PROJECTION_NAME).values(position=0))
        return self.catch_up()

    def wait_caught_up(self, timeout: float = 10.0, position: int | None = None) -> bool:
        """Wait until the stored position reaches ``position`` (default: the log's head now); False
        on timeout.  For tests and tools; the background thread does the work."""
        target = self.head() if position is None else position
        deadline = time.monotonic() + timeout
        while self.position < target:
            if time.monotonic() >= deadline:
                return False
            self._wake.set()
            time.sleep(0.02)
        return True

    # ----------------------------------------------------------------------- background thread

    def start(self) -> None:
        """Catch up and keep up in a background thread (woken by every save of ``tables``)."""
        if self._thread is not None:
            return
        self._stop.clear()
        self.tables.add_listener(self._woken)
        self._listening = True
        self._wake.set()
        self._thread = threading.Thread(target=self._run, name="trapoula-projection", daemon=True)
        self._thread.start()

    def stop(self, timeout: float = 5.0) -> None:
        """Stop the background thread (the batch being applied is finished or rolled back; waits up
        to ``timeout`` seconds)."""
        if self._listening:
            self.tables.remove_listener(self._woken)
            self._listening = False
        self._stop.set()
        self._wake.set()
        if self._thread is not None:
            self._thread.join(timeout)
            self._thread = None

    def _woken(self, _table_id: str, _version: int) -> None:
        self._wake.set()

    def _run(self) -> None:
        delay = RETRY_SECONDS
        failing = False
        while not self._stop.is_set():
            self._wake.wait(self.poll_seconds)
            if self._stop.is_set():
                return
            self._wake.clear()
            try:
                head, position = self.head(), self.position  # two reads; an idle poll takes no write lock
                if head > position:
                    self.catch_up()
                    position = self.position
                self.observed = (position, max(head, position))
            except Exception as exc:
                self.failures += 1
                lines = str(exc).strip().splitlines()
                log.warning(
                    "projection: cannot apply the event log after position %s (%s); trying again in %.1fs",
                    self._safe_position(),
                    lines[0][:300] if lines else type(exc).__name__,
                    delay,
                    exc_info=not failing and not store_down(exc),  # a bug's traceback, once
                )
                failing = True
                self._stop.wait(delay)
                delay = min(delay * 2, RETRY_MAX_SECONDS)
                self._wake.set()
                continue
            if failing:
                log.info("projection: applying the event log again")
            failing = False
            delay = RETRY_SECONDS
            self._stop.wait(self.pause_seconds)

    def _safe_position(self) -> str:
        try:
            return str(self.position)
        except Exception:
            return "?"
