"""Stored events that evolve (docs/events.md), on SQLite and on PostgreSQL (``store`` fixture).

A table is played a little and stored as every database written before schema versions existed
holds it: ``Table.Recorded`` rows of the library's class version 1, with no ``event_version``.
Then Agonia's ``CardPlayed`` gains a field without a default, ``rank`` (the rank of the card
played: its code's first character, S2.1), at version 2, with an upcaster from version 1; the
rules now write it.  The old table loads, plays on and ends; what it serves and exports is
checked against values worked out by hand from the deal of ``conftest.DEAL``.
"""

from __future__ import annotations

import dataclasses
import json
import random
from dataclasses import dataclass
from typing import Any, ClassVar

import pytest
from evolution_helpers import evolved_agonia

from trapoula.clients.replay import Replay
from trapoula.domain import bots
from trapoula.domain.audit import audit_record
from trapoula.domain.chain import GENESIS, event_hash
from trapoula.domain.games.shedding import events as shedding
from trapoula.domain.registry import GAMES
from trapoula.service.application import OWNER, SPECTATOR, Principal, Tables, seat_principal
from trapoula.service.errors import CorruptLog

# The cards of conftest.DEAL (S5.3): seat 0 "4D 5C 6H KS QS JS 2S", seat 1 "3C 4C 6C 8H 9H TH JH",
# up-card 3D; seat 0 plays first (dealer seat 1, S3.3).
OLD_PLAY = {"seat": 0, "card": "4D", "declared_suit": None, "active_suit": "D", "announce": False, "pending_draw": 0}
"""Seat 0's 4D on the up-card 3D (R4.1, same suit), stored at schema version 1 as event 10 of the
table: ``TableCreated``, 2 x ``SeatTaken``, ``MatchStarted``, ``HandStarted``, 2 x ``CardsDealt``,
``StarterTurned`` and ``TurnStarted`` are 1-9, seat 1's ``TurnStarted`` is 11."""


def _as_written_before_versions(tables: Tables) -> int:
    """Rewrite every stored ``Table.Recorded`` as code before schema versions wrote it (no
    ``class_version``, no ``event_version``); returns how many rows were rewritten."""
    recorder: Any = tables.recorder
    cls = recorder.events_record_cls
    rewritten = 0
    with recorder.transaction(commit=True) as session:
        for row in session.query(cls).filter(cls.topic == "trapoula.service.recording:Table.Recorded"):
            state = json.loads(bytes(row.state))
            assert state.pop("class_version") == 2 and state.pop("event_version") == 1
            row.state = json.dumps(state, separators=(",", ":")).encode()
            rewritten += 1
    return rewritten


def _finish(tables: Tables, table_id: str, people: dict[int, Principal]) -> None:
    """Play the people's seats with the heuristic policy until the match is over."""
    rng = random.Random(7)
    for n in range(2000):
        if tables.view(table_id, SPECTATOR)[1]["table"]["status"] == "over":
            return
        for principal in people.values():
            view = tables.view(table_id, principal)[1]
            if view["legal"]:
                tables.act(table_id, principal, f"finish-{n}", bots.choose("agonia", view, "heuristic", rng))
                break
    raise AssertionError("the match did not end")


def test_an_old_table_loads_and_plays_on_after_an_event_class_gains_a_field(
    store: Any, deal: dict[str, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    """DESIGN (Games as plug-ins): stored events are upcast when read.  The version-1 ``CardPlayed``
    at table version 10 decodes through the upcaster (``rank`` "4"); its stored payload, version and hash
    stay as written; seat 1's 4C on 4D (R4.1, same rank) after the load is stored at version 2 with
    ``rank`` "4" under its hash; the record (``v`` only on version-2 lines) verifies and replays."""
    first = store.open(snapshot_every=0)
    try:
        table_id, _owner = first.create_table(
            "agonia", 2, {"target_points": 0}, manual_deal=True
        )  # an explicit deal (S5.3)
        t0, t1 = first.join(table_id, "ann", 0)[1], first.join(table_id, "bob", 1)[1]
        first.start_match(table_id, OWNER, "start", deal)
        p0 = first.authenticate(table_id, t0)
        assert first.act(table_id, p0, "c1", {"kind": "play", "card": "4D"}).version == 11
        assert _as_written_before_versions(first) == 10  # every event but TableCreated
    finally:
        first.close()

    new_class, evolved = evolved_agonia()
    monkeypatch.setitem(GAMES, "agonia", evolved)
    second = store.open(snapshot_every=0)
    try:
        p0, p1 = second.authenticate(table_id, t0), second.authenticate(table_id, t1)
        stored = second.stored_events(table_id)
        old = stored[9]
        assert (old.seq, old.name, old.version, old.payload) == (10, "CardPlayed", 1, OLD_PLAY)
        assert type(old.event) is new_class and old.event.rank == "4"  # type: ignore[attr-defined]
        seen = second.events_after(table_id, seat_principal(1), 9, limit=1).items[0].event
        assert (seen.version, seen.name, seen.payload) == (10, "CardPlayed", {**OLD_PLAY, "rank": "4"})

        result = second.act(table_id, p1, "c2", {"kind": "play", "card": "4C"})  # a move after the load
        assert result.version == 13
        assert [(e.name, e.payload) for e in result.events] == [
            ("CardPlayed", {"seat": 1, "card": "4C", "declared_suit": None, "active_suit": "C", "announce": False,
                            "pending_draw": 0, "rank": "4"}),
            ("TurnStarted", {"seat": 0}),
        ]  # fmt: skip
        new = second.stored_events(table_id)[11]
        assert (new.seq, new.version, new.payload["rank"]) == (12, 2, "4")
        assert new.hash == event_hash(new.prev_hash, 12, "CardPlayed", new.payload, 2)
        assert new.hash != event_hash(new.prev_hash, 12, "CardPlayed", new.payload)  # the version is hashed
        _finish(second, table_id, {0: p0, 1: p1})
        final = second._load(table_id).state
    finally:
        second.close()

    third = store.open(snapshot_every=0)  # the mixed log (versions 1 and 2) loads cold
    try:
        assert third._load(table_id).state == final
        stored = third.stored_events(table_id)
        prev = GENESIS
        for entry in stored:
            assert entry.prev_hash == prev and entry.hash == event_hash(
                prev, entry.seq, entry.name, entry.payload, entry.version
            )
            prev = entry.hash
        played = [e for e in stored if e.name == "CardPlayed"]
        assert [e.version for e in played] == [1] + [2] * (len(played) - 1)
        assert [e.seq for e in stored if e.version != 1] == [e.seq for e in played[1:]]
        jsonl, hands = third.record(table_id)
    finally:
        third.close()

    lines = [json.loads(line) for line in jsonl.splitlines()]
    assert hands == 1 and len(lines) == final.version + 1
    assert lines[10] == {"seq": 10, "name": "CardPlayed", "payload": OLD_PLAY, "prev_hash": stored[8].hash,
                         "hash": stored[9].hash}  # fmt: skip
    assert list(lines[12]) == ["seq", "name", "v", "payload", "prev_hash", "hash"] and lines[12]["v"] == 2
    report = audit_record(lines)
    assert report.ok and report.hands_verified == 1, report.summary()
    replay = Replay(lines)
    replayed = replay.state(replay.length)  # its config is MatchStarted's (options filled in), not the table's
    assert dataclasses.replace(replayed, config=final.game_state.config) == final.game_state
    assert replay.step(7).event == new_class(**OLD_PLAY, rank="4")  # type: ignore[call-arg]

    for edit in (3, 1, None):
        tampered = [dict(line) for line in lines]
        if edit is None:
            del tampered[12]["v"]
        else:
            tampered[12]["v"] = edit
        problems = audit_record(tampered).problems
        assert (12, "CardPlayed", "REC5") in [(p.seq, p.name, p.rule) for p in problems], edit


def test_without_its_upcaster_an_old_event_does_not_load(store: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """A field with no default and no upcaster: the table's log no longer decodes (CorruptLog names
    the event and the missing field); nothing is rewritten."""
    first = store.open(snapshot_every=0)
    try:
        table_id, _ = first.create_table("agonia", 2, {"target_points": 0})
        first.add_bot(table_id, "heuristic")
        first.add_bot(table_id, "heuristic")
        first.start_match(table_id, OWNER, "go")
        assert first.settle(timeout=60)
        before = first.record(table_id)
    finally:
        first.close()

    @dataclass(frozen=True, slots=True)
    class CardPlayed(shedding.CardPlayed):
        version: ClassVar[int] = 2
        rank: str

    spec = GAMES["agonia"]
    monkeypatch.setitem(
        GAMES, "agonia", dataclasses.replace(spec, event_types={**spec.event_types, "CardPlayed": CardPlayed})
    )
    second = store.open(snapshot_every=0)
    try:
        with pytest.raises(CorruptLog, match=r"'CardPlayed' does not decode: .*lacks field\(s\) \['rank'\]"):
            second.view(table_id, SPECTATOR)
    finally:
        second.close()
    monkeypatch.setitem(GAMES, "agonia", spec)
    third = store.open(snapshot_every=0)
    try:
        assert third.record(table_id) == before
    finally:
        third.close()
