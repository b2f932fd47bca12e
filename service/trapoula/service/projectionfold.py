"""How the projection (:mod:`trapoula.service.projection`) folds stored events into the read-model
rows.

Each notification of the log becomes a :class:`Fact` (:func:`fact_of`).  A :class:`Fold` takes
one transaction's facts in log order: the rows they touch are read once, changed in memory
(:mod:`trapoula.service.projectionrows`) and written back together.  It follows the table's own
fold (:func:`trapoula.service.tablestate.apply_entry`): seats and their occupants, status, the
hands and the record's extent, and at the match's end (role ``match_ended``) the players' results, the match row and the
standings.
"""

from __future__ import annotations

import dataclasses
import json
import logging
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import and_, bindparam, insert, select, tuple_, update
from sqlalchemy.engine import Connection

from trapoula.domain.errors import InvalidInput
from trapoula.domain.events import Event, from_payload, to_payload
from trapoula.domain.game import GameSpec
from trapoula.domain.lifecycle import MatchResult, Role
from trapoula.domain.registry import GAMES
from trapoula.domain.seeding import SERVER_SEED_REVEALED
from trapoula.service.entries import JOIN_QUEUED, SEAT_TAKEN, TABLE_CREATED, TABLE_EVENTS
from trapoula.service.projectionrows import LOBBY, MATCHES, PLAYERS, STANDINGS, FoldedPlayer, FoldedTable
from trapoula.service.readtables import player_key

log = logging.getLogger("trapoula.service.projection")
"""The projection's logger (the fold's warnings are the projection's)."""

_CHUNK = 400
"""Most keys in one ``IN (...)`` list."""


@dataclass(frozen=True, slots=True)
class Fact:
    """One stored event as the projection folds it."""

    position: int
    """Its notification id: its place in the whole log (increasing, maybe with gaps)."""
    table_id: str
    version: int
    """Its version in its table's log (1 for ``TableCreated``)."""
    name: str
    """The event name (``TableCreated``, ``SeatTaken``, a game's event ...); ``""`` for a
    notification that is no table event (skipped, but its position counts)."""
    payload: Mapping[str, Any]
    """As stored (a game event's fields are read through :func:`current_payload`)."""
    timestamp: datetime
    """When it was saved (aware, UTC)."""
    event_version: int = 1
    """The schema version of the payload (``Event.version`` when it was written)."""


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
    version = getattr(stored, "event_version", 1)
    return Fact(
        int(notification.id),
        str(notification.originator_id),
        int(notification.originator_version),
        name,
        payload,
        when.astimezone(UTC),
        version if isinstance(version, int) else 1,
    )


def current_payload(spec: GameSpec[Any, Any] | None, fact: Fact) -> Mapping[str, Any]:
    """The fields of a game event's fact in its class's current shape: upcast from the version it
    was stored at, defaults filled in (:func:`trapoula.domain.events.from_payload`).  The stored
    payload as it is when the game or the event is unknown or the payload does not decode (the
    fold reads every field tolerantly)."""
    cls = spec.event_types.get(fact.name) if spec is not None else None
    if cls is None:
        return fact.payload
    try:
        return to_payload(from_payload(cls, fact.payload, fact.event_version))
    except (InvalidInput, TypeError):
        return fact.payload


def _json(value: Any) -> str:
    return json.dumps(value, sort_keys=True, ensure_ascii=False, separators=(",", ":"))


def _match_result(spec: GameSpec[Any, Any], cls: type[Event], payload: Mapping[str, Any]) -> MatchResult | None:
    """The :class:`~trapoula.domain.lifecycle.MatchResult` of a stored match-ending event, read
    leniently (a field missing from ``payload`` reads as None; the caller checks each value), or
    None when the payload makes no result at all."""

    def frozen(value: Any) -> Any:
        if isinstance(value, list | tuple):
            return tuple(frozen(v) for v in value)
        return value

    try:
        names = [f.name for f in dataclasses.fields(cls)]  # type: ignore[arg-type]
        result = spec.fact(cls(**{name: frozen(payload.get(name)) for name in names}))
    except Exception:  # a payload the game's fact cannot read: no result
        return None
    return result if isinstance(result, MatchResult) else None


def _int(value: Any) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def _chunks(items: Sequence[Any]) -> Iterator[Sequence[Any]]:
    for i in range(0, len(items), _CHUNK):
        yield items[i : i + _CHUNK]


def _team(spec: GameSpec[Any, Any] | None, seat: int) -> int | None:
    if spec is None:
        return None
    return next((i for i, members in enumerate(spec.teams) if seat in members), None)


class Fold:
    """One transaction's fold: the rows the facts touch are read once, changed in memory, and
    written back together by :meth:`flush`."""

    def __init__(self, conn: Connection, known: Mapping[str, FoldedTable] | None = None) -> None:
        self.conn = conn
        self.known: Mapping[str, FoldedTable] = known if known is not None else {}
        """Rows as stored already, by table id, taken instead of reading them (the projection's
        cache: :class:`~trapoula.service.projection.Projection` passes it only while it holds)."""
        self.tables: dict[str, FoldedTable] = {}
        self.matches: list[dict[str, Any]] = []
        self.standings: dict[tuple[str, str, str], list[Any]] = {}
        """``(game, name, bot)`` -> [played, won, last finished at] added by this fold."""

    # ----------------------------------------------------------------------- reading

    def load(self, table_ids: Sequence[str]) -> None:
        """Read the rows of ``table_ids`` not read yet (unknown ones are skipped); those in
        :attr:`known` are taken from there."""
        wanted = []
        for table_id in dict.fromkeys(table_ids):
            if table_id in self.tables:
                continue
            cached = self.known.get(table_id)
            if cached is not None:
                self.tables[table_id] = cached
            else:
                wanted.append(table_id)
        for chunk in _chunks(wanted):
            for r in self.conn.execute(select(LOBBY).where(LOBBY.c.table_id.in_(chunk))):
                self.tables[r.table_id] = FoldedTable(**{c: getattr(r, c) for c in FoldedTable._COLUMNS})
            stmt = select(PLAYERS).where(PLAYERS.c.table_id.in_(chunk)).order_by(PLAYERS.c.joined)
            for r in self.conn.execute(stmt):
                table = self.tables.get(r.table_id)
                if table is not None:
                    table.players.append(FoldedPlayer(**r._mapping))

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
            player_id = p.get("player_id")
            player = FoldedPlayer(
                table.table_id,
                fact.version,
                seat,
                str(p.get("name") or ""),
                str(p.get("bot") or ""),
                player_id if isinstance(player_id, str) else None,
                new=True,
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
        elif name in TABLE_EVENTS:  # the server's seed revealed extends a record as tablestate.apply_entry does
            if name == SERVER_SEED_REVEALED and extends:
                table.record_cut = fact.version
            return
        else:
            changed = False
            if not table.started:
                table.status = "playing"
                table.started_at = fact.timestamp
                changed = True
            cls = spec.event_types.get(name) if spec is not None else None
            role = cls.role if cls is not None else None
            if role is Role.SEAT_VACATED and spec is not None and spec.seat_changes:
                seat = _int(current_payload(spec, fact).get("seat"))
                gone = table.occupant(seat) if seat is not None else None
                if gone is not None:
                    gone.left_version = fact.version
                    gone.dirty = changed = True
            if role is Role.HAND_REVEALED:
                table.hands += 1
                changed = True
            if role is Role.HAND_REVEALED or (cls is not None and cls.between_hands and extends):
                table.record_cut, table.record_hands = fact.version, table.hands
                changed = True
            if role is Role.MATCH_ENDED and spec is not None and cls is not None:
                self._ended(table, spec, cls, fact)
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
        table = FoldedTable(
            table_id=fact.table_id,
            created_seq=fact.position,
            game=game,
            seats=max(0, _int(p.get("seats")) or 0),
            options=_json(p.get("options") or {}),
            manual_deal=bool(p.get("manual_deal")),
            private=p.get("private") is True,
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

    def _ended(self, table: FoldedTable, spec: GameSpec[Any, Any], cls: type[Event], fact: Fact) -> None:
        """The match's end (role ``match_ended``): every player's result, the match row, the
        standings, from the game's :class:`~trapoula.domain.lifecycle.MatchResult` (the winning seat
        and per-seat totals, or the winning team and the teams' scores), read from the event in its
        current shape (:func:`current_payload`)."""
        p = current_payload(spec, fact)
        result = _match_result(spec, cls, p)
        if result is None:
            log.warning("projection: %s of table %s does not decode; no result", fact.name, table.table_id)
            result = MatchResult((), (), ())
        teams = spec.teams
        winner_team = _int(result.winner_team)
        if winner_team is not None and not 0 <= winner_team < len(teams):
            winner_team = None
        winner_seats = sorted(w for w in result.winners if _int(w) is not None)
        team_totals = [v for v in result.team_scores if _int(v) is not None] if winner_team is not None else None
        totals = list(result.totals) if not teams and isinstance(result.totals, tuple) else None
        last: dict[int, FoldedPlayer] = {}
        for player in table.players:
            last[player.seat] = player
        results: dict[tuple[str, str], tuple[str, str | None, bool]] = {}
        for player in table.players:
            is_last = last[player.seat] is player
            total = None
            if is_last and isinstance(totals, list) and player.seat < len(totals):
                total = _int(totals[player.seat])
            player.total = total
            player.won = is_last and player.seat in winner_seats
            player.dirty = True
            seen = (player_key(player.name, player.player_id), player.bot)
            won_before = results[seen][2] if seen in results else False
            results[seen] = (player.name, player.player_id, won_before or player.won)
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
        for (who, bot), (name, player_id, won) in results.items():
            entry = self.standings.setdefault((table.game, who, bot), [0, 0, fact.timestamp, name, player_id])
            entry[0] += 1
            entry[1] += int(won)
            entry[2], entry[3] = fact.timestamp, name

    @staticmethod
    def _derive(table: FoldedTable, spec: GameSpec[Any, Any] | None) -> None:
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
            conn.execute(insert(LOBBY), new)
        if changed:
            conn.execute(update(LOBBY).where(LOBBY.c.table_id == bindparam("_id")), changed)
        players = [p for t in tables for p in t.players]
        new_players = [p.row() for p in players if p.new]
        changed_players = [
            {**p.row(), "_table": p.table_id, "_joined": p.joined} for p in players if p.dirty and not p.new
        ]
        if new_players:
            conn.execute(insert(PLAYERS), new_players)
        if changed_players:
            stmt = update(PLAYERS).where(
                and_(PLAYERS.c.table_id == bindparam("_table"), PLAYERS.c.joined == bindparam("_joined"))
            )
            conn.execute(stmt, changed_players)
        if self.matches:
            conn.execute(insert(MATCHES), self.matches)
        self._flush_standings()

    def _flush_standings(self) -> None:
        keys = list(self.standings)
        if not keys:
            return
        s = STANDINGS
        known: dict[tuple[str, str, str], tuple[int, int]] = {}
        for chunk in _chunks(keys):
            stmt = select(s.c.game, s.c.player, s.c.bot, s.c.played, s.c.won).where(
                tuple_(s.c.game, s.c.player, s.c.bot).in_(chunk)
            )
            for r in self.conn.execute(stmt):
                known[(r.game, r.player, r.bot)] = (r.played, r.won)
        inserts: list[dict[str, Any]] = []
        updates: list[dict[str, Any]] = []
        for key, (played, won, last, name, player_id) in self.standings.items():
            game, player, bot = key
            if key in known:
                before_played, before_won = known[key]
                updates.append(
                    {
                        "_game": game,
                        "_player": player,
                        "_bot": bot,
                        "name": name,
                        "played": before_played + played,
                        "won": before_won + won,
                        "last_finished_at": last,
                    }
                )
            else:
                inserts.append(
                    {
                        "game": game,
                        "player": player,
                        "name": name,
                        "player_id": player_id,
                        "bot": bot,
                        "played": played,
                        "won": won,
                        "last_finished_at": last,
                    }
                )
        if inserts:
            self.conn.execute(insert(s), inserts)
        if updates:
            change = update(s).where(
                and_(s.c.game == bindparam("_game"), s.c.player == bindparam("_player"), s.c.bot == bindparam("_bot"))
            )
            self.conn.execute(change, updates)
