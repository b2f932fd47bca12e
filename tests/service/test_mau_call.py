"""mau_mau R5.6.3-R5.6.4 through the service, as the rules owners answered: a "Mau" call may be
repeated any number of times in a turn, but a repeat changes nothing: it is answered like the first
and stores no event (only the first call of a turn is a ``MauCalled``).  Such a command travels
load -> decide -> save -> publish as a success that saves nothing: the reply carries no event, the
version does not move, and watchers receive nothing for it."""

from __future__ import annotations

import json
from typing import Any

import pytest

from trapoula.api.v1 import table_pb2 as pb
from trapoula.api.v1 import table_pb2_grpc
from trapoula.domain.cards import codes, deck_104
from trapoula.service.application import OWNER, SPECTATOR, Tables

pytestmark = pytest.mark.timeout(120)

D104 = list(codes(deck_104()))
HANDS = [D104[0:7], D104[7:14]]
"""Seat 0 holds 2C-8C, seat 1 9C-AC and 2D; the up-card is 3D (not special, R3.4), the stock the rest
(S5.3).  Seat 1 deals the first hand (R3.1), so seat 0 plays first (R3.5) and may play 3C (R4.1)."""
DEAL = {"hands": HANDS, "starter": D104[14], "stock": D104[15:]}


def _started(tables: Tables) -> tuple[str, Any]:
    """A two-person mau_mau table for explicit deals, dealt :data:`DEAL`; ``(table_id, seat 0)``."""
    table_id, _ = tables.create_table("mau_mau", 2, {}, manual_deal=True)
    _, ann = tables.join(table_id, "ann", 0)
    tables.join(table_id, "bob", 1)
    tables.start_match(table_id, OWNER, "start", DEAL)
    return table_id, tables.authenticate(table_id, ann)


def test_r5_6_3_r5_6_4_a_repeated_call_is_a_success_that_saves_nothing(tables: Tables) -> None:
    """The first call of seat 0's turn stores one ``MauCalled``; each repeat, under a new command id
    or the same one, is answered with no event, the same version and the same view, and stores
    nothing; the stored events are those of the first call only."""
    table_id, ann = _started(tables)
    first = tables.act(table_id, ann, "m1", {"kind": "mau"})
    assert [(e.name, e.payload) for e in first.events] == [("MauCalled", {"seat": 0})]
    stored = tables.stored_events(table_id)
    assert stored[-1].name == "MauCalled" and len(stored) == first.version
    for command_id in ("m2", "m3", "m2"):
        again = tables.act(table_id, ann, command_id, {"kind": "mau"})
        assert (again.version, again.events) == (first.version, ())
        assert again.view == first.view
        assert again.view["mau_called"] is True and {"kind": "mau", "seat": 0} in again.view["legal"]
    assert tables.stored_events(table_id) == stored
    assert tables.view(table_id, SPECTATOR)[0] == first.version


def test_over_grpc_a_repeated_call_answers_no_event_and_watchers_get_nothing(
    stub: table_pb2_grpc.TableServiceStub, auth: Any
) -> None:
    """Over the wire: the repeated ``mau`` is an OK ``Act`` reply with no event at the version of the
    first call; a watcher from that version receives nothing for it: its first message is the next
    real event, seat 0's 3C (``CardPlayed``) at the very next version."""
    created = stub.CreateTable(pb.CreateTableRequest(game="mau_mau", seats=2, manual_deal=True))
    table_id = created.table_id
    ann = auth(stub.JoinTable(pb.JoinTableRequest(table_id=table_id, name="ann", seat=0)).seat_token)
    stub.JoinTable(pb.JoinTableRequest(table_id=table_id, name="bob", seat=1))
    deal = pb.ExplicitDeal(hands=[pb.CardList(cards=h) for h in HANDS], starter=DEAL["starter"], stock=DEAL["stock"])
    stub.StartMatch(
        pb.StartMatchRequest(table_id=table_id, command_id="s", deal=deal), metadata=auth(created.owner_token)
    )

    def act(command_id: str, command: pb.Command) -> pb.ActResponse:
        reply: pb.ActResponse = stub.Act(
            pb.ActRequest(table_id=table_id, command_id=command_id, command=command), metadata=ann
        )
        return reply

    mau = pb.Command(mau=pb.CallMau())
    first = act("m1", mau)
    assert [e.name for e in first.events] == ["MauCalled"]
    watch = stub.WatchTable(pb.WatchTableRequest(table_id=table_id, from_version=first.version), timeout=30)
    try:
        again = act("m2", mau)
        assert (again.version, list(again.events)) == (first.version, [])
        assert json.loads(again.view.view_json)["mau_called"] is True
        view = stub.GetView(pb.GetViewRequest(table_id=table_id), metadata=ann).view
        assert view.version == first.version
        played = act("p", pb.Command(play=pb.PlayCard(card="3C")))
        assert played.events[0].name == "CardPlayed" and played.events[0].version == first.version + 1
        message = next(watch)
        assert (message.event.version, message.event.name) == (first.version + 1, "CardPlayed")
    finally:
        watch.cancel()
