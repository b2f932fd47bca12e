"""A batched watch (``WatchTableRequest.batch``): the events ready together in one message, with
the view after the last only; every event still once and in order, nothing hidden shown.

On the explicit deal of the conftest (:data:`DEAL`, S5.3): seat 0 holds 4D 5C 6H KS QS JS 2S,
seat 1 3C 4C 6C 8H 9H TH JH, the up-card is 3D and the stock begins 2C; the started table is at
version 9.  Seat 0 plays 4D (same suit as the up-card, R4.1): CardPlayed and TurnStarted, versions
10 and 11, saved together.  Seat 1 then draws (R4.3): CardsDrawn 2C, version 12.
"""

from __future__ import annotations

import gc
import json
import threading
from collections.abc import Iterator
from typing import Any

import grpc
import pytest
from grpc_helpers import Auth, ServerThread, Stub, command, two_people

from trapoula.api.v1 import table_pb2 as pb
from trapoula.clients.table import TableClient, Update
from trapoula.service import views
from trapoula.service.application import OWNER, SPECTATOR, Tables, WatchRun, seat_principal

pytestmark = pytest.mark.timeout(120)

SEAT0_HIDDEN = ("5C", "6H", "KS", "QS", "JS", "2S")
"""Seat 0's cards still in its hand after it played 4D: never in a message to seat 1 (S13.3)."""


def _messages(call: Any, until: int) -> list[pb.WatchTableResponse]:
    """The messages of ``call`` up to the one whose last event is at version ``until``."""
    got: list[pb.WatchTableResponse] = []
    for message in call:
        got.append(message)
        if message.events[-1].version >= until:
            break
    return got


def _shape(messages: list[pb.WatchTableResponse]) -> list[tuple[list[int], int]]:
    """``([event versions], view version)`` of each message."""
    return [([int(e.version) for e in m.events], int(m.view.version)) for m in messages]


def test_a_batched_watch_sends_each_save_in_one_message_with_the_view_after_its_last_event(
    stub: Stub, auth: Auth, deal: dict[str, Any]
) -> None:
    """History 1-9 in one message; the move 10-11 (one save) in one; the draw 12 alone.  The events
    are those of the one-event-a-message watch, and each view is the view after the message's last."""
    table_id, seat0, seat1 = two_people(stub, auth, deal)
    batched = stub.WatchTable(pb.WatchTableRequest(table_id=table_id, batch=True), metadata=seat1)
    try:
        got = _messages(batched, 9)
        live: list[pb.WatchTableResponse] = []
        reader = threading.Thread(target=lambda: live.extend(_messages(batched, 11)))
        reader.start()
        play = pb.ActRequest(table_id=table_id, command_id="p1", command=command({"kind": "play", "card": "4D"}))
        assert stub.Act(play, metadata=seat0).version == 11
        reader.join(timeout=60)
        got += live
        reader = threading.Thread(target=lambda: live.extend(_messages(batched, 12)))
        live.clear()
        reader.start()
        draw = pb.ActRequest(table_id=table_id, command_id="d1", command=pb.Command(draw=pb.DrawCard()))
        assert stub.Act(draw, metadata=seat1).version == 12
        reader.join(timeout=60)
        got += live
    finally:
        batched.cancel()  # type: ignore[no-untyped-call]
    assert _shape(got) == [(list(range(1, 10)), 9), ([10, 11], 11), ([12], 12)]
    assert not any(m.HasField("event") for m in got)
    played, turn = got[1].events
    assert (played.name, json.loads(played.payload_json)["card"]) == ("CardPlayed", "4D")
    assert turn.name == "TurnStarted" and json.loads(turn.payload_json)["seat"] == 1
    after_play = json.loads(got[1].view.view_json)
    assert after_play["top_card"] == "4D" and after_play["to_act"] == 1 and after_play["table"]["version"] == 11
    assert after_play["hand"] == ["3C", "4C", "6C", "8H", "9H", "TH", "JH"]
    drawn = got[2].events[0]
    assert drawn.name == "CardsDrawn" and json.loads(drawn.payload_json)["cards"] == ["2C"]
    assert "2C" in json.loads(got[2].view.view_json)["hand"]
    plain = stub.WatchTable(pb.WatchTableRequest(table_id=table_id), metadata=seat1)  # one event a message
    try:
        one_a_message = [m for _, m in zip(range(12), plain, strict=False)]
    finally:
        plain.cancel()  # type: ignore[no-untyped-call]
    assert [m.event.version for m in one_a_message] == list(range(1, 13))
    events = [e for m in got for e in m.events]
    assert [(e.version, e.name, e.payload_json) for e in events] == [
        (m.event.version, m.event.name, m.event.payload_json) for m in one_a_message
    ]
    assert [m.view.view_json for m in got] == [one_a_message[v - 1].view.view_json for v in (9, 11, 12)]
    for m in got:
        text = "".join(e.payload_json for e in m.events) + m.view.view_json
        assert not any(f'"{card}"' in text for card in SEAT0_HIDDEN)


def test_a_batched_watch_from_a_version_sends_only_what_follows(stub: Stub, auth: Auth, deal: dict[str, Any]) -> None:
    """From version 4: one message of 5-9; a ``from_version`` beyond the table is OUT_OF_RANGE."""
    table_id, _, seat1 = two_people(stub, auth, deal)
    call = stub.WatchTable(pb.WatchTableRequest(table_id=table_id, from_version=4, batch=True), metadata=seat1)
    try:
        assert _shape(_messages(call, 9)) == [([5, 6, 7, 8, 9], 9)]
    finally:
        call.cancel()  # type: ignore[no-untyped-call]
    ahead = stub.WatchTable(pb.WatchTableRequest(table_id=table_id, from_version=10, batch=True), metadata=seat1)
    with pytest.raises(grpc.RpcError) as raised:
        next(iter(ahead))
    assert raised.value.code() == grpc.StatusCode.OUT_OF_RANGE


def test_the_client_yields_every_event_of_a_batched_watch_with_the_view_on_the_last(
    server: ServerThread, stub: Stub, auth: Auth, deal: dict[str, Any]
) -> None:
    """``TableClient.watch(batch=True)``: updates 1-9, the view ({}) left empty on all but 9."""
    table_id, _, _ = two_people(stub, auth, deal)
    with TableClient(f"127.0.0.1:{server.port}") as client:
        updates: list[Update] = []
        with client.watch(table_id, batch=True) as watch:  # a spectator
            for update in watch:
                updates.append(update)
                if update.version == 9:
                    break
    assert [u.version for u in updates] == list(range(1, 10))
    assert [bool(u.view) for u in updates] == [False] * 8 + [True]
    assert updates[-1].view["table"]["version"] == 9 and "hand" not in updates[-1].view
    dealt = [u.payload for u in updates if u.name == "CardsDealt"]
    assert [d["cards"] for d in dealt] == [None, None]  # a spectator sees no hand (S13.3)


@pytest.fixture
def started(tables: Tables, deal: dict[str, Any]) -> Iterator[str]:
    """A two-seat table of :data:`DEAL`, started (version 9), seat 0 having played 4D (11)."""
    table_id, _ = tables.create_table("agonia", 2, {"target_points": 0}, manual_deal=True)
    tables.join(table_id, "ann")
    tables.join(table_id, "bob")
    assert tables.start_match(table_id, OWNER, "start", deal=deal).version == 9
    tables.act(table_id, seat_principal(0), "p1", {"kind": "play", "card": "4D"})
    yield table_id


def test_watchers_who_see_the_table_alike_share_one_run(tables: Tables, started: str) -> None:
    """Two spectators woken after the move get the same run object (serialised once for both),
    rendered once; a seat's run differs from the spectators' (its hand is in its view)."""
    first = tables.watch_in_memory(started, SPECTATOR, 9, every_view=False)
    second = tables.watch_in_memory(started, SPECTATOR, 9, every_view=False)
    assert first is not None and second is not None
    (run,) = first.items
    assert isinstance(run, WatchRun) and second.items[0] is run
    assert [e.version for e in run.events] == [10, 11] and run.version == 11
    assert [e.name for e in run.events] == ["CardPlayed", "TurnStarted"]
    assert run.last.view["table"]["viewer"] == "spectator" and "hand" not in run.last.view
    (seat_run,) = tables.events_after(started, seat_principal(1), 9, every_view=False).items
    assert isinstance(seat_run, WatchRun) and seat_run is not run
    assert seat_run.last.view["hand"] == ["3C", "4C", "6C", "8H", "9H", "TH", "JH"]


def _tracked_below(root: Any) -> int:
    """How many objects the cyclic collector tracks among those reachable from ``root`` (``root``
    included, classes left out): what a young collection walks while ``root`` is alive."""
    seen: set[int] = set()
    stack = [root]
    count = 0
    while stack:
        obj = stack.pop()
        if id(obj) in seen or not gc.is_tracked(obj) or isinstance(obj, type):  # an object's class is not its data
            continue
        seen.add(id(obj))
        count += 1
        stack.extend(gc.get_referents(obj))
    return count


def test_a_kept_rendering_holds_its_view_and_events_as_text(tables: Tables, started: str) -> None:
    """The renderings a table keeps for its watchers hold each view and each redacted payload as
    its JSON text, made once: the same text as the view rendered afresh (S13.1), read back equal,
    and no dict or list of it kept for the collector to walk.  Seat 1's run after 4D (versions 10,
    11): the view shows its hand 3C 4C 6C 8H 9H TH JH (S13.3)."""
    (run,) = tables.events_after(started, seat_principal(1), 9, every_view=False).items
    assert isinstance(run, WatchRun)
    table = tables.store.load(started)
    fresh = views.table_view(table.state, seat_principal(1))
    assert json.loads(run.last.view_json) == fresh == run.last.view
    assert run.last.view["hand"] == ["3C", "4C", "6C", "8H", "9H", "TH", "JH"]
    assert [json.loads(e.payload_json) for e in run.events] == [e.payload for e in run.events]
    assert json.loads(run.events[0].payload_json)["card"] == "4D"
    containers = _tracked_below(fresh)  # the view as a value: its lists, and its dicts that hold them
    # the run, its item and its two events, each event's tuple: what the collector walks, whatever the view's size
    assert _tracked_below(run) <= 5 < containers


def test_an_event_that_hides_nothing_is_one_object_for_every_viewer(tables: Tables, started: str) -> None:
    """4D played (CardPlayed, TurnStarted: versions 10 and 11, no hidden nor private field) reaches
    both seats and the spectators as the same two events, made once (S13.1); seat 1's draw of 2C
    (CardsDrawn, version 12: its cards private to seat 1, S13.3) is seat 1's own, the others get
    it without the cards."""
    viewers = (SPECTATOR, seat_principal(0), seat_principal(1))
    runs = [tables.events_after(started, p, 9, every_view=False).items[0] for p in viewers]
    assert all(isinstance(run, WatchRun) for run in runs)
    spectator, seat0, seat1 = (run.events for run in runs)  # type: ignore[union-attr]
    assert [e.version for e in spectator] == [10, 11] and json.loads(spectator[0].payload_json)["card"] == "4D"
    assert all(a is b is c for a, b, c in zip(spectator, seat0, seat1, strict=True))
    drawn = tables.act(started, seat_principal(1), "d1", {"kind": "draw"})
    assert drawn.events[0].name == "CardsDrawn" and drawn.events[0].version == 12
    assert json.loads(drawn.events[0].payload_json)["cards"] == ["2C"]
    (others,) = tables.events_after(started, SPECTATOR, 11, every_view=False).items
    assert isinstance(others, WatchRun) and others.events[0].version == 12
    assert others.events[0] is not drawn.events[0] and json.loads(others.events[0].payload_json)["cards"] is None
    (seat0_run,) = tables.events_after(started, seat_principal(0), 11, every_view=False).items
    assert json.loads(seat0_run.events[0].payload_json)["cards"] is None  # type: ignore[union-attr]


def test_a_viewers_renderings_are_kept_under_one_key_object(tables: Tables, started: str) -> None:
    """One rendering an event (``every_view``) for the spectator and for seat 1, versions 10 and
    11: each version's renderings are kept under ``(kind, viewer)``, the very same tuple at every
    version (not a new one each rendering for the collector to walk)."""
    for principal in (SPECTATOR, seat_principal(1)):
        assert [i.version for i in tables.events_after(started, principal, 9).items] == [10, 11]
    renders = tables.store.load(started).renders
    keys = [[k for k in renders[seq] if isinstance(k, tuple) and isinstance(k[0], str)] for seq in (10, 11)]
    assert sorted(keys[0], key=str) == [("seat", 1), ("spectator", None)]
    assert all(any(k is other for other in keys[1]) for k in keys[0])


def test_a_run_holds_at_most_limit_events_and_the_rest_follows(tables: Tables, started: str) -> None:
    """``limit`` 4 from 0: a run of 1-4 with the view at 4; then 5-8; then 9-11."""
    runs = []
    after = 0
    while after < 11:
        (run,) = tables.events_after(started, SPECTATOR, after, limit=4, every_view=False).items
        assert isinstance(run, WatchRun)
        runs.append(([e.version for e in run.events], run.last.view["table"]["version"]))
        after = run.version
    assert runs == [([1, 2, 3, 4], 4), ([5, 6, 7, 8], 8), ([9, 10, 11], 11)]
    assert tables.events_after(started, SPECTATOR, 11, every_view=False).items == ()


def test_a_client_that_stops_in_the_middle_of_a_message_gets_the_rest_when_it_goes_on(
    server: ServerThread, stub: Stub, auth: Auth, deal: dict[str, Any]
) -> None:
    """History 1-9 comes in one message: leaving the loop at 5 and iterating the same watch again
    yields 6-9 next, then the move's 10-11 (nothing of the message dropped)."""
    table_id, seat0, _ = two_people(stub, auth, deal)
    with TableClient(f"127.0.0.1:{server.port}") as client, client.watch(table_id, batch=True) as watch:
        first = []
        for update in watch:
            first.append(update.version)
            if update.version == 5:
                break
        play = pb.ActRequest(table_id=table_id, command_id="p1", command=command({"kind": "play", "card": "4D"}))
        assert stub.Act(play, metadata=seat0).version == 11
        rest = []
        for update in watch:
            rest.append((update.version, bool(update.view)))
            if update.version == 11:
                break
    assert first == [1, 2, 3, 4, 5]
    assert rest == [(6, False), (7, False), (8, False), (9, True), (10, False), (11, True)]


def test_a_long_run_is_made_for_its_watcher_alone(
    tables: Tables, started: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A catch-up run of more than ``SHARED_RUN_EVENTS`` events (4 here) is not kept for others: two
    spectators from 0 get equal runs of 1-5, not one shared object; a short run (9-11) is shared."""
    monkeypatch.setattr(views, "SHARED_RUN_EVENTS", 4)
    (a,) = tables.events_after(started, SPECTATOR, 0, limit=5, every_view=False).items
    (b,) = tables.events_after(started, SPECTATOR, 0, limit=5, every_view=False).items
    assert isinstance(a, WatchRun) and isinstance(b, WatchRun)
    assert a == b and a is not b and [e.version for e in a.events] == [1, 2, 3, 4, 5]
    (c,) = tables.events_after(started, SPECTATOR, 8, every_view=False).items
    (d,) = tables.events_after(started, SPECTATOR, 8, every_view=False).items
    assert c is d and [e.version for e in c.events] == [9, 10, 11]
