"""Snapshots of tables (docs/storage.md), on SQLite and on PostgreSQL (``store`` fixture).

A long match is played by four server bots at a manual-deal ``crazy_eights`` table: the owner
deals every hand (``next_hand``, one command each, so the command index grows), the bots play
the rest.  A fresh ``Tables`` on the same store then loads the table cold, from its latest
snapshot, and everything it serves is compared with what a ``Tables`` with snapshots off serves
after replaying the whole log.
"""

from __future__ import annotations

import dataclasses
import enum
import json
import logging
from typing import Any

import pytest

from trapoula.domain.cards import Card, Rank, Suit, parse_card
from trapoula.domain.chain import GENESIS, event_hash
from trapoula.domain.game import MatchConfig, SeatInfo
from trapoula.domain.registry import GAMES
from trapoula.service import snapshots
from trapoula.service.application import CHUNK_EVENTS, OWNER, SPECTATOR, Tables, seat_principal
from trapoula.service.entries import Entry, EntryLog
from trapoula.service.errors import CorruptLog
from trapoula.service.snapshotcodec import SnapshotUnusable, decode_value, encode_value
from trapoula.service.snapshots import ColdLoad
from trapoula.service.tablestate import SeatRecord, TableState

EVERY = 256
"""Snapshot interval of the long-match test (half the default, so that playing past the next multiple is short)."""


# --------------------------------------------------------------------------- helpers


def _deal_hands(tables: Tables, table_id: str, until: int, first: int) -> int:
    """Have the owner deal hand after hand (command ids ``hand-<n>`` from ``first``) until the table's
    version reaches ``until`` at the end of a hand, or the match ends; returns the next hand number."""
    hand = first
    while True:
        assert tables.settle(timeout=120)
        state = tables._load(table_id).state
        if state.over or state.version >= until:
            return hand
        tables.act(table_id, OWNER, f"hand-{hand}", {"kind": "next_hand"})
        hand += 1


def _long_match(tables: Tables, until: int) -> tuple[str, int]:
    """A manual-deal four-bot ``crazy_eights`` match played to at least ``until`` events (between
    hands); returns ``(table_id, next hand number)``."""
    table_id, _ = tables.create_table(
        "crazy_eights", 4, {"scoring": "points", "target_per_player": 1000}, manual_deal=True
    )
    for seat in range(4):
        tables.add_bot(table_id, "heuristic" if seat % 2 else "random")
    tables.start_match(table_id, OWNER, "hand-1")
    return table_id, _deal_hands(tables, table_id, until, 2)


def _cold(store: Any, **options: Any) -> tuple[Tables, list[ColdLoad]]:
    """A new ``Tables`` on ``store`` whose cold loads are reported into the returned list."""
    tables = store.open(**options)
    reports: list[ColdLoad] = []
    tables.add_load_listener(reports.append)
    return tables, reports


def _chain_intact(entries: tuple[Entry, ...]) -> bool:
    prev = GENESIS
    for seq, entry in enumerate(entries, start=1):
        if (
            entry.seq != seq
            or entry.prev_hash != prev
            or entry.hash != event_hash(prev, seq, entry.name, entry.payload)
        ):
            return False
        prev = entry.hash
    return True


def _corrupt_snapshot(tables: Tables, table_id: str, version: int, state: bytes) -> None:
    """Overwrite the stored state of one snapshot, as someone writing to the database could."""
    assert tables.snapshots is not None
    recorder: Any = tables.snapshots.recorder
    cls = recorder.events_record_cls
    with recorder.transaction(commit=True) as session:
        rows = (
            session.query(cls)
            .filter(cls.originator_id == tables._load(table_id).id, cls.originator_version == version)
            .update({"state": state})
        )
    assert rows == 1


# --------------------------------------------------------------------------- the long match


def test_a_cold_load_from_a_snapshot_serves_what_a_full_replay_serves(store: Any) -> None:
    """Several thousand events: the cold load reads the latest snapshot and fewer than
    ``EVERY + CHUNK_EVENTS`` events; state, command index, stored events, watch batches from old
    and recent positions, the record and an old command's repeat equal a full replay's; then play
    goes on from the restored table with the hash chain intact, and later snapshots are used."""
    first = store.open(snapshot_every=EVERY)
    try:
        table_id, hand = _long_match(first, 3000)
    finally:
        first.close()

    restored, reports = _cold(store, snapshot_every=EVERY)
    replayed, replay_reports = _cold(store, snapshot_every=0)
    try:
        head, _view = restored.view(table_id, SPECTATOR)
        assert head >= 3000
        (report,) = reports
        assert report.ignored is None
        assert head - EVERY - CHUNK_EVENTS < report.snapshot_version <= head
        assert report.events_read == head - report.snapshot_version
        replayed.view(table_id, SPECTATOR)
        assert [(r.snapshot_version, r.events_read) for r in replay_reports] == [(0, head)]

        mine, theirs = restored._load(table_id), replayed._load(table_id)
        assert mine.state == theirs.state
        assert mine.commands == theirs.commands
        assert len(mine.commands) == hand - 1  # hand-1 .. hand-(n-1), each the owner's
        assert mine.last_command == theirs.last_command == ("owner", f"hand-{hand - 1}")
        assert not mine.entries.prefix_loaded  # nothing before the snapshot was read so far

        seat = seat_principal(2)
        base = report.snapshot_version
        recent = restored.events_after(table_id, seat, base, limit=20)
        assert recent == replayed.events_after(table_id, seat, base, limit=20)
        assert [i.event.version for i in recent.items] == list(range(base + 1, min(head, base + 20) + 1))
        assert not mine.entries.prefix_loaded  # a watcher from the snapshot on does not need the prefix

        positions = {0, 1, 63, 64, 65, 700, base - 1, base, base + 1, head - 1, head}
        for after in sorted(p for p in positions if p <= head):
            for who in (SPECTATOR, seat):
                batch = restored.events_after(table_id, who, after, limit=20)
                assert batch == replayed.events_after(table_id, who, after, limit=20), (after, who)
        assert mine.entries.prefix_loaded
        assert restored.record(table_id) == replayed.record(table_id)
        stored = restored.stored_events(table_id)
        assert stored == replayed.stored_events(table_id)
        assert _chain_intact(stored)
        old = restored.act(table_id, OWNER, "hand-3", {"kind": "next_hand"})  # a repeat: the first result
        assert old == replayed.act(table_id, OWNER, "hand-3", {"kind": "next_hand"})
        assert restored._load(table_id).state.version == head

        # play on from the restored table, past the next multiple of EVERY
        _deal_hands(restored, table_id, (head // EVERY + 1) * EVERY + 1, hand)
        after_play = restored._load(table_id).state
        stored = restored.stored_events(table_id)
        assert len(stored) == after_play.version > head
        assert _chain_intact(stored)
    finally:
        restored.close()
        replayed.close()

    again, again_reports = _cold(store)
    full, _ = _cold(store, snapshot_every=0)
    try:
        assert again.view(table_id, SPECTATOR) == full.view(table_id, SPECTATOR)
        (report,) = again_reports
        assert report.snapshot_version > base  # a snapshot taken by the restored table's saves
        assert again._load(table_id).state == full._load(table_id).state == after_play
        assert again.record(table_id) == full.record(table_id)
    finally:
        again.close()
        full.close()


# --------------------------------------------------------------------------- unusable snapshots


def _short_match(tables: Tables) -> str:
    table_id, _ = tables.create_table("agonia", 2, {"target_points": 0})
    for _seat in range(2):
        tables.add_bot(table_id, "heuristic")
    tables.start_match(table_id, OWNER, "go")
    assert tables.settle(timeout=60)
    assert tables.view(table_id, SPECTATOR)[1]["table"]["status"] == "over"
    return table_id


def test_an_unusable_snapshot_is_ignored_the_log_replayed_and_the_snapshot_replaced(
    store: Any, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """A snapshot of other code (another fingerprint) or with broken data is ignored (logged): the
    table is replayed from its log, the same as without snapshots, and a good snapshot takes the
    bad one's place (the same version: the match is over)."""
    every = 8
    first = store.open(snapshot_every=every)
    try:
        table_id = _short_match(first)
        head = first.view(table_id, SPECTATOR)[0]
        assert head > 2 * every
        assert first.snapshots is not None
        snapshots.delete_snapshot(first.snapshots, first._load(table_id).id, head)  # if the last save took one
        with monkeypatch.context() as patch:
            patch.setattr(snapshots, "state_fingerprint", lambda game: "0" * 64)
            assert first.save_snapshot(table_id) == head  # as other code would have written it
    finally:
        first.close()
    full, _ = _cold(store, snapshot_every=0)
    expected = full._load(table_id).state
    full.close()

    caplog.set_level(logging.WARNING, logger="trapoula.service.snapshots")
    for damage in ("fingerprint", "garbage", "foreign class"):
        tables, reports = _cold(store, snapshot_every=every)
        try:
            if damage == "garbage":
                _corrupt_snapshot(tables, table_id, head, b"\x00not json")
                tables, reports = _reopen(tables, store, every)
            elif damage == "foreign class":
                good = snapshots.TableSnapshot.of(tables._load(table_id))
                body = json.dumps({"state": {"o": "os:system", "v": ["true"]}})
                forged = dataclasses.replace(good, state={**good.state, "body": body})
                assert tables.snapshots is not None
                _corrupt_snapshot(tables, table_id, head, tables.snapshots.mapper.to_stored_event(forged).state)
                tables, reports = _reopen(tables, store, every)
            caplog.clear()
            assert tables._load(table_id).state == expected
            (report,) = reports
            assert (report.snapshot_version, report.events_read) == (0, head), damage
            assert report.ignored is not None
            assert {"fingerprint": "fingerprint", "garbage": "MapperDeserialisationError"}.get(
                damage, "outside trapoula.domain"
            ) in report.ignored
            assert any("ignored" in r.getMessage() for r in caplog.records)
        finally:
            tables.close()
        tables, reports = _cold(store, snapshot_every=every)  # the replay stored a good snapshot in its place
        try:
            assert tables._load(table_id).state == expected
            assert [(r.snapshot_version, r.events_read, r.ignored) for r in reports] == [(head, 0, None)]
        finally:
            tables.close()


def _stored_fingerprint(tables: Tables, table_id: str) -> str:
    """The fingerprint of the table's latest stored snapshot."""
    assert tables.snapshots is not None
    (latest,) = tables.snapshots.get(tables._load(table_id).id, desc=True, limit=1)
    return str(latest.state["fingerprint"])


def _snapshotted_match(store: Any, every: int) -> tuple[str, int, TableState]:
    """A finished short match with a snapshot at its head: ``(table_id, head, state)``, the state
    as a replay of the whole log gives it."""
    first = store.open(snapshot_every=every)
    try:
        table_id = _short_match(first)
        head = first.view(table_id, SPECTATOR)[0]
        assert first.save_snapshot(table_id) == head
        assert _stored_fingerprint(first, table_id) == "trapoula-snapshot/2 table/4 agonia/1"
    finally:
        first.close()
    full, _ = _cold(store, snapshot_every=0)
    try:
        return table_id, head, full._load(table_id).state
    finally:
        full.close()


def test_a_snapshot_survives_new_code_that_keeps_the_state_versions(
    store: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """docs/storage.md section 3: the fingerprint is the snapshot format, the table-state version and
    the game's ``state_version`` ("trapoula-snapshot/2 table/4 agonia/1"), never a digest of the
    source: after a restart with other code for the game (another ``evolve``, the same state
    version) the table is restored from the snapshot, nothing folded again."""
    every = 8
    table_id, head, expected = _snapshotted_match(store, every)
    spec = GAMES["agonia"]
    folded: list[str] = []

    def evolve(state: Any, event: Any) -> Any:
        folded.append(event.event_name())
        return spec.evolve(state, event)

    monkeypatch.setitem(GAMES, "agonia", dataclasses.replace(spec, evolve=evolve))
    tables, reports = _cold(store, snapshot_every=every)
    try:
        assert tables._load(table_id).state == expected
        assert [(r.snapshot_version, r.events_read, r.ignored) for r in reports] == [(head, 0, None)]
        assert folded == []
    finally:
        tables.close()


@pytest.mark.parametrize("bump", ["game", "table"])
def test_a_bumped_state_version_makes_the_snapshots_unusable(
    store: Any, monkeypatch: pytest.MonkeyPatch, bump: str
) -> None:
    """``GameSpec.state_version`` 2 for ``agonia`` (or ``TABLE_STATE_VERSION`` 5): the snapshot is
    ignored, the table refolded from its log to the same state, and a snapshot under the new
    fingerprint takes the old one's place; another game's fingerprint moves only with the table's."""
    every = 8
    table_id, head, expected = _snapshotted_match(store, every)
    if bump == "game":
        monkeypatch.setitem(GAMES, "agonia", dataclasses.replace(GAMES["agonia"], state_version=2))
        fingerprint = "trapoula-snapshot/2 table/4 agonia/2"
    else:
        monkeypatch.setattr(snapshots, "TABLE_STATE_VERSION", 5)
        fingerprint = "trapoula-snapshot/2 table/5 agonia/1"
    assert snapshots.state_fingerprint("agonia") == fingerprint
    other = (
        "trapoula-snapshot/2 table/4 crazy_eights/1" if bump == "game" else "trapoula-snapshot/2 table/5 crazy_eights/1"
    )
    assert snapshots.state_fingerprint("crazy_eights") == other
    tables, reports = _cold(store, snapshot_every=every)
    try:
        assert tables._load(table_id).state == expected
        (report,) = reports
        assert (report.snapshot_version, report.events_read) == (0, head)
        assert report.ignored is not None and f"this code's {fingerprint!r}" in report.ignored
        assert "'trapoula-snapshot/2 table/4 agonia/1'" in report.ignored
        assert _stored_fingerprint(tables, table_id) == fingerprint
    finally:
        tables.close()
    tables, reports = _cold(store, snapshot_every=every)
    try:
        assert tables._load(table_id).state == expected
        assert [(r.snapshot_version, r.events_read, r.ignored) for r in reports] == [(head, 0, None)]
    finally:
        tables.close()


def _reopen(tables: Tables, store: Any, every: int) -> tuple[Tables, list[ColdLoad]]:
    tables.close()
    return _cold(store, snapshot_every=every)


def test_a_snapshot_whose_version_does_not_match_the_log_is_ignored(store: Any) -> None:
    """A snapshot saying the table's event at its version has another hash than the log's is not
    used: the log wins."""
    tables = store.open(snapshot_every=0)
    try:
        table_id = _short_match(tables)
        table = tables._load(table_id)
        head = table.state.version
        fake_state = dataclasses.replace(table.state, last_hash="f" * 64)
        fake = snapshots.TableSnapshot.of(_with_state(table, fake_state))
    finally:
        tables.close()
    tables, reports = _cold(store)
    try:
        assert tables.snapshots is not None
        tables.snapshots.put([fake])
        tables.close()
        tables, reports = _cold(store)
        assert tables._load(table_id).state.last_hash != "f" * 64
        (report,) = reports
        assert report.snapshot_version == 0 and report.events_read == head
        assert report.ignored is not None and "does not match" in report.ignored
    finally:
        tables.close()


def test_an_unusable_snapshot_past_the_head_is_removed_after_the_replay(store: Any) -> None:
    """A snapshot row at a version the table never reached (a copy relabelled v head+100) is
    ignored; the replay stores a good snapshot at the head and removes the bad row, so the next
    cold load starts from the head instead of replaying the log every time."""
    every = 8
    tables = store.open(snapshot_every=0)
    try:
        table_id = _short_match(tables)
        table = tables._load(table_id)
        head = table.state.version
        assert head > 2 * every
        beyond = dataclasses.replace(snapshots.TableSnapshot.of(table), originator_version=head + 100)
    finally:
        tables.close()
    tables, reports = _cold(store, snapshot_every=every)
    try:
        assert tables.snapshots is not None
        tables.snapshots.put([beyond])
        tables.close()
        tables, reports = _cold(store, snapshot_every=every)
        tables._load(table_id)
        (report,) = reports
        assert (report.snapshot_version, report.events_read) == (0, head)
        assert report.ignored is not None
    finally:
        tables.close()
    tables, reports = _cold(store, snapshot_every=every)
    try:
        tables._load(table_id)
        assert [(r.snapshot_version, r.events_read, r.ignored) for r in reports] == [(head, 0, None)]
    finally:
        tables.close()


def _with_state(table: Any, state: TableState) -> Any:
    """A stand-in for ``table`` with another state (to forge a snapshot)."""

    class Stand:
        id = table.id
        commands = table.commands
        created_on = table.created_on

    stand = Stand()
    stand.state = state  # type: ignore[attr-defined]
    return stand


# --------------------------------------------------------------------------- taking snapshots


def test_a_failing_snapshot_store_never_fails_a_command(
    tables: Tables, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """Every save passes a multiple of 1: each one tries a snapshot, each fails, every command is
    answered and saved."""
    app = tables
    monkeypatch.setattr(app.store, "snapshot_every", 1)
    assert app.snapshots is not None

    def broken(*_: Any, **__: Any) -> None:
        raise RuntimeError("disk full")

    monkeypatch.setattr(app.snapshots, "put", broken)
    caplog.set_level(logging.WARNING)
    table_id = _short_match(app)
    assert app.view(table_id, SPECTATOR)[1]["table"]["status"] == "over"
    assert any("snapshot" in r.getMessage() and r.exc_info for r in caplog.records)


def test_two_replicas_may_snapshot_the_same_version(store: Any) -> None:
    """The second snapshot at one version is dropped quietly; the first stays usable."""
    one, two = store.open(snapshot_every=0), store.open()
    try:
        table_id = _short_match(one)
        head = one.view(table_id, SPECTATOR)[0]
        assert two.save_snapshot(table_id) == head
        assert two.save_snapshot(table_id) == head
        assert two.save_snapshot(table_id) == head
    finally:
        one.close()
        two.close()
    tables, reports = _cold(store)
    try:
        tables.view(table_id, SPECTATOR)
        assert [(r.snapshot_version, r.events_read) for r in reports] == [(head, 0)]
    finally:
        tables.close()


def test_snapshots_off_neither_take_nor_read_snapshots(store: Any) -> None:
    tables = store.open(snapshot_every=0)
    try:
        table_id = _short_match(tables)
        assert tables.snapshots is None
        with pytest.raises(RuntimeError, match="snapshot_every=0"):
            tables.save_snapshot(table_id)
    finally:
        tables.close()


# --------------------------------------------------------------------------- the codec


class _Color(enum.Enum):
    RED = "r"


def test_the_codec_round_trips_the_values_of_a_state() -> None:
    card = parse_card("TS")
    config = MatchConfig("agonia", (SeatInfo(0, "ann"), SeatInfo(1, "bob", "random")), {"target_points": 0}, None, None)
    value = {
        "cards": (card, parse_card("7H"), card),
        "set": frozenset({card, parse_card("2C")}),
        "mixed": (1, "a", None, True, 2.5, [1, (2,)], {3, 4}, frozenset({5})),
        (1, 2): {0: Suit.HEARTS, 1: Rank.ACE},
        "config": config,
        "empty": ((), frozenset(), [], {}),
    }
    data = json.loads(json.dumps(encode_value(value)))
    back = decode_value(data)
    assert back == value
    assert back["cards"][0] is card  # cards are the interned ones
    assert type(back["mixed"][6]) is set and type(back["mixed"][5]) is list
    assert encode_value((card, parse_card("7H"))) == {"C": "TS7H"}
    assert encode_value(Suit.HEARTS) == {"e": "trapoula.domain.cards:Suit", "v": "H"}
    record = SeatRecord("ann", None, "ab" * 32, 7)
    assert decode_value(encode_value(record)) == record
    assert isinstance(decode_value(encode_value(card)), Card)


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"o": "os:system", "v": ["true"]}, "outside trapoula.domain"),
        ({"o": "builtins:eval", "v": ["1"]}, "outside trapoula.domain"),
        ({"o": "trapoula.service.application:Tables", "v": []}, "outside trapoula.domain"),
        ({"o": "trapoula.domain.cards:parse_card", "v": ["TS"]}, "neither a dataclass nor an enum"),
        ({"o": "trapoula.domain.nowhere:Thing", "v": []}, "does not exist"),
        ({"o": "trapoula.domain.game:SeatInfo", "v": [0, "ann"]}, "does not have those fields"),
        ({"e": "trapoula.domain.game:SeatInfo", "v": 1}, "not an enum"),
        ({"e": "trapoula.domain.cards:Suit", "v": "X"}, "does not decode"),
        ({"c": "1X"}, "does not decode"),
        ({"C": "TS7"}, "2-character codes"),
        ({"x": []}, "unknown tag"),
        ([1, 2], "unexpected list"),
        ({"d": [[{"l": []}, 1]]}, "does not decode"),
    ],
)
def test_the_codec_refuses_what_it_did_not_write(data: Any, message: str) -> None:
    with pytest.raises(SnapshotUnusable, match=message):
        decode_value(data)


def test_the_codec_refuses_to_write_foreign_values() -> None:
    with pytest.raises(SnapshotUnusable, match="cannot hold"):
        encode_value(_Color.RED)  # an enum outside trapoula.domain
    with pytest.raises(SnapshotUnusable, match="cannot hold"):
        encode_value(float("nan"))
    with pytest.raises(SnapshotUnusable, match="cannot hold"):
        encode_value(object())


# --------------------------------------------------------------------------- the entry log


def _entries(n: int) -> list[Entry]:
    return [Entry(i, "E", {}, "p", "h", None, "table", None) for i in range(1, n + 1)]


def test_an_entry_log_reads_its_prefix_only_when_an_early_event_is_needed() -> None:
    every = _entries(10)
    loads: list[int] = []

    def load() -> list[Entry]:
        loads.append(1)
        return every[:6]

    log = EntryLog(every[6:], 6, load)
    assert len(log) == 10 and log[6] is every[6] and log[-1] is every[9]
    assert list(log[7:]) == every[7:]
    head = log[:10]  # a lazy view
    assert len(head) == 10 and list(head[8:10]) == every[8:10] and head[-2] is every[8]
    assert not loads and not log.prefix_loaded
    assert head[2] is every[2]
    assert loads == [1] and log.prefix_loaded
    assert list(log) == every and list(log[3:8]) == every[3:8] and list(log[::3]) == every[::3]
    assert log[0] is every[0] and log[-10] is every[0]
    with pytest.raises(IndexError):
        log[10]
    with pytest.raises(IndexError):
        log[-11]
    assert loads == [1]


def test_an_entry_log_whose_prefix_is_short_says_the_log_is_corrupt() -> None:
    log = EntryLog(_entries(3), 5, lambda: _entries(4))
    with pytest.raises(CorruptLog):
        log[0]
    assert not log.prefix_loaded
