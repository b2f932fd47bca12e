"""Reads that span tables or whole logs: the list of tables, the games, a table's record.

The list of tables is read from the notification log (every ``TableCreated``), remembered in
memory and extended on each call; the lobby of the read models (:mod:`trapoula.service.readmodels`)
is the one to page through many tables.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Callable, Sequence

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from trapoula.domain import bots
from trapoula.domain.chain import GENESIS, record_header
from trapoula.domain.clock import CLOCK_DEFAULTS, CLOCK_OPTION
from trapoula.domain.errors import InvalidInput
from trapoula.domain.listings import GameInfo, TableSummary
from trapoula.domain.registry import GAMES
from trapoula.domain.signing import sign_header, signed_heads
from trapoula.service.entries import Entry
from trapoula.service.errors import TableNotFound, clip
from trapoula.service.inputs import check_key
from trapoula.service.recording import Table
from trapoula.service.store import TableStore, tables_created
from trapoula.service.tablestate import apply_entry, start_state

MAX_PAGE_TOKEN = 20
"""Longest page token (a decimal number)."""
DEFAULT_PAGE_SIZE = 50
MAX_PAGE_SIZE = 500


def record_of(table: Table, key: Ed25519PrivateKey) -> tuple[str, int]:
    """The table's record, its header signed with ``key``: ``(jsonl, finished hands)`` (see
    ``Tables.record``, docs/record.md)."""
    state = table.state
    entries = table.entries[: state.record_cut]
    head = entries[-1].hash if entries else GENESIS
    complete = state.over and state.record_cut == state.version
    unsigned = record_header(state.table_id, state.game, state.record_hands, len(entries))
    header = sign_header(unsigned, head, complete, key)
    ends = _hand_ends(entries, state.table_id, state.owner_token_hash)
    heads = [(hands, cut, entries[cut - 1].hash, complete and cut == len(entries)) for hands, cut in ends]
    header["heads"] = signed_heads(unsigned, heads, key)
    lines = [json.dumps(header, ensure_ascii=False, separators=(",", ":"))]
    lines.extend(json.dumps(e.record_line(), ensure_ascii=False, separators=(",", ":")) for e in entries)
    return "\n".join(lines) + "\n", state.record_hands


def _hand_ends(entries: Sequence[Entry], table_id: str, owner_token_hash: str) -> list[tuple[int, int]]:
    """``(finished hands, events)`` of each place a record of ``entries`` may end after a hand: the
    record's end once each hand is over (``TableState.record_cut``, the events that belong to the
    hand's end included), folded afresh from the first event."""
    if not entries:
        return []
    state = start_state(table_id, entries[0], owner_token_hash)
    ends: dict[int, int] = {}
    for entry in entries[1:]:
        state = apply_entry(state, entry)
        if state.record_hands > 0:
            ends[state.record_hands] = state.record_cut
    return sorted(ends.items())


def list_games() -> list[GameInfo]:
    """The games this server plays, with their options' defaults (the game's own, and the
    platform's time control ``clock``, docs/clock.md C1) and bot levels."""
    return [
        GameInfo(
            s.key,
            s.title,
            s.summary,
            s.min_players,
            s.max_players,
            {**s.option_defaults(), CLOCK_OPTION: dict(CLOCK_DEFAULTS)},
            bots.levels(s.key),
            s.seat_changes,
        )
        for s in GAMES.values()
    ]


class TableIndex:
    """Every public table of the store, oldest first: ``(notification id, table id, game)`` (a
    private table, ``TableCreated.private``, is never listed)."""

    def __init__(self, store: TableStore) -> None:
        self.store = store
        self._rows: list[tuple[int, str, str]] = []
        self._next = 1
        """The notification id to read from next."""
        self._lock = threading.Lock()

    def refresh(self) -> list[tuple[int, str, str]]:
        """The rows, after reading the tables created since the last call.

        Raises:
            Exception: what the store raises when it cannot be read.
        """
        with self._lock:
            for nid, table_id, payload in tables_created(self.store, self._next):
                if payload.get("private") is not True:
                    self._rows.append((nid, table_id, str(payload.get("game", ""))))
                self._next = nid + 1
            return list(self._rows)

    def page(
        self, load: Callable[[str], Table], game: str = "", page_size: int = 0, page_token: str = ""
    ) -> tuple[list[TableSummary], str]:
        """Tables, newest first, optionally of one game (see ``Tables.list_tables``); ``load`` reads
        one table.

        Raises:
            InvalidInput: a bad page token (``bad_page_token``), page size (``bad_page_size``) or
                game key (``unknown_game``).
        """
        if isinstance(page_size, bool) or not isinstance(page_size, int) or page_size < 0:
            raise InvalidInput(f"page_size {clip(page_size)!r}: expected an integer >= 0", reason="bad_page_size")
        check_key(game, "game", "unknown_game")
        size = min(page_size or DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE)
        before: int | None = None
        if page_token:
            if not (
                isinstance(page_token, str)
                and len(page_token) <= MAX_PAGE_TOKEN
                and page_token.isascii()
                and page_token.isdigit()
            ):
                raise InvalidInput(f"page_token {clip(page_token)!r} is not one this server gave", "bad_page_token")
            before = int(page_token)
        rows = [r for r in reversed(self.refresh()) if (not game or r[2] == game)]
        if before is not None:
            rows = [r for r in rows if r[0] < before]
        page = rows[:size]
        summaries = []
        for _, tid, _game in page:
            try:
                state = load(tid).state
            except TableNotFound:
                continue
            summaries.append(
                TableSummary(
                    tid,
                    state.game,
                    len(state.seats),
                    state.free_seats,
                    state.status,
                    state.position(None),
                    state.manual_deal,
                )
            )
        next_token = str(page[-1][0]) if len(rows) > size else ""
        return summaries, next_token
