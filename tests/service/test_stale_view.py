"""A command chosen from a view the table has moved past: ``Act.view_version`` (the typed contract).

A command the rules accepted at the version of the caller's view but refuse now is answered
ABORTED ``stale_view`` (refresh and choose again), with the refusal on the table as it is now in
the metadata; a command the rules refused at that version too stays FAILED_PRECONDITION, the
illegal move it is.  A version beyond the caller's head is OUT_OF_RANGE ``version_ahead``.  None
of these refusals stores anything.

The deal is the one of ``test_mau_call``: seat 0 holds 2C-8C, the up-card is 3D (mau_mau R3.4),
seat 0 plays first (R3.5); of its cards only 3C matches the up-card (by rank, R4.1).
"""

from __future__ import annotations

from typing import Any

import grpc
import pytest
from google.rpc import error_details_pb2  # type: ignore[import-untyped]
from grpc_status import rpc_status

from trapoula.api.v1 import table_pb2 as pb
from trapoula.api.v1 import table_pb2_grpc
from trapoula.clients.errors import CommandRejected as ClientRejected
from trapoula.clients.errors import StaleView as ClientStaleView
from trapoula.clients.errors import from_rpc_error
from trapoula.domain.cards import codes, deck_104
from trapoula.domain.errors import CommandRejected
from trapoula.service.application import OWNER, Tables
from trapoula.service.errors import StaleView, VersionAhead

pytestmark = pytest.mark.timeout(120)

D104 = list(codes(deck_104()))
HANDS = [D104[0:7], D104[7:14]]
DEAL = {"hands": HANDS, "starter": D104[14], "stock": D104[15:]}


def _started(tables: Tables) -> tuple[str, Any, Any]:
    table_id, _ = tables.create_table("mau_mau", 2, {}, manual_deal=True)
    _, ann = tables.join(table_id, "ann", 0)
    _, bob = tables.join(table_id, "bob", 1)
    tables.start_match(table_id, OWNER, "start", DEAL)
    return table_id, tables.authenticate(table_id, ann), tables.authenticate(table_id, bob)


def test_a_move_legal_in_the_view_but_refused_now_is_stale(tables: Tables) -> None:
    table_id, ann, _ = _started(tables)
    seen, view = tables.view(table_id, ann)
    assert HANDS[0] == ["2C", "3C", "4C", "5C", "6C", "7C", "8C"] and DEAL["starter"] == "3D"
    assert sorted(c["card"] for c in view["legal"] if c["kind"] == "play") == ["3C"]
    played = tables.act(table_id, ann, "p1", {"kind": "play", "card": "3C"}, view_version=seen)
    assert played.events[0].name == "CardPlayed" and played.version > seen
    stored = tables.stored_events(table_id)
    # The same card again from the old view: legal at ``seen`` (R4.1), refused now (bob's turn, R3.5).
    with pytest.raises(StaleView) as stale:
        tables.act(table_id, ann, "p2", {"kind": "play", "card": "3C"}, view_version=seen)
    assert stale.value.reason == "stale_view"
    assert isinstance(stale.value.refusal, CommandRejected)
    assert f"moved on from version {seen} to {played.version}" in stale.value.message
    # Without a view version the same command is the rules' plain refusal, as before.
    with pytest.raises(CommandRejected) as plain:
        tables.act(table_id, ann, "p3", {"kind": "play", "card": "3C"})
    assert plain.value.reason == stale.value.refusal.reason
    assert tables.stored_events(table_id) == stored


def test_a_move_illegal_in_the_view_too_stays_a_refusal(tables: Tables) -> None:
    table_id, ann, _ = _started(tables)
    seen, _ = tables.view(table_id, ann)
    # 5C neither follows suit nor rank of the 3D up-card (R4.1): refused on the view it was chosen from.
    with pytest.raises(CommandRejected) as same_view:
        tables.act(table_id, ann, "x1", {"kind": "play", "card": "5C"}, view_version=seen)
    assert not isinstance(same_view.value, StaleView)
    tables.act(table_id, ann, "p1", {"kind": "play", "card": "3C"}, view_version=seen)
    # After the table moved on it is still no stale view: it was illegal at ``seen`` as well.
    with pytest.raises(CommandRejected):
        tables.act(table_id, ann, "x2", {"kind": "play", "card": "5C"}, view_version=seen)


def test_a_legal_move_from_an_older_view_is_played(tables: Tables) -> None:
    table_id, ann, bob = _started(tables)
    seen, _ = tables.view(table_id, ann)
    # Seat 0 plays 3C (R4.1), bob draws (R4.2) and passes: seat 0's turn again. Its draw, chosen
    # from the view at ``seen``, is still legal now, so it is played, not refused as stale.
    tables.act(table_id, ann, "p1", {"kind": "play", "card": "3C"}, view_version=seen)
    bob_seen, bob_view = tables.view(table_id, bob)
    kinds = {c["kind"] for c in bob_view["legal"]}
    assert "draw" in kinds
    tables.act(table_id, bob, "b1", {"kind": "draw"}, view_version=bob_seen)
    while tables.view(table_id, bob)[1]["to_act"] == 1:
        tables.act(table_id, bob, f"b{tables.view(table_id, bob)[0]}", {"kind": "pass"})
    drawn = tables.act(table_id, ann, "d1", {"kind": "draw"}, view_version=seen)
    assert drawn.events[0].name == "CardsDrawn"


def test_a_version_beyond_the_head_is_out_of_range(tables: Tables) -> None:
    table_id, ann, _ = _started(tables)
    seen, _ = tables.view(table_id, ann)
    stored = tables.stored_events(table_id)
    with pytest.raises(VersionAhead) as ahead:
        tables.act(table_id, ann, "p1", {"kind": "play", "card": "3C"}, view_version=seen + 1)
    assert ahead.value.reason == "version_ahead"
    assert tables.stored_events(table_id) == stored


def _info(error: grpc.RpcError) -> tuple[str, dict[str, str]]:
    status = rpc_status.from_call(error)
    assert status is not None
    info = error_details_pb2.ErrorInfo()
    status.details[0].Unpack(info)
    return info.reason, dict(info.metadata)


def test_over_grpc_stale_is_aborted_and_the_client_raises_stale_view(
    tables: Tables, stub: table_pb2_grpc.TableServiceStub, auth: Any
) -> None:
    table_id, _ = tables.create_table("mau_mau", 2, {}, manual_deal=True)
    ann = auth(tables.join(table_id, "ann", 0)[1])
    tables.join(table_id, "bob", 1)
    tables.start_match(table_id, OWNER, "start", DEAL)
    seen = stub.GetView(pb.GetViewRequest(table_id=table_id), metadata=ann).view.version
    three = pb.Command(play=pb.PlayCard(card="3C"))

    def act(command_id: str, command: pb.Command, **version: int) -> pb.ActResponse:
        request = pb.ActRequest(table_id=table_id, command_id=command_id, command=command, **version)
        reply: pb.ActResponse = stub.Act(request, metadata=ann)
        return reply

    played = act("p1", three, view_version=seen)
    with pytest.raises(grpc.RpcError) as stale:
        act("p2", three, view_version=seen)
    assert stale.value.code() == grpc.StatusCode.ABORTED
    reason, meta = _info(stale.value)
    assert reason == "stale_view"
    assert meta["version"] == str(played.version) and meta["refused"] and meta["rule"]
    error = from_rpc_error(stale.value)
    assert isinstance(error, ClientStaleView) and error.metadata["refused"] == meta["refused"]
    with pytest.raises(grpc.RpcError) as plain:
        act("p3", three)
    assert plain.value.code() == grpc.StatusCode.FAILED_PRECONDITION
    assert _info(plain.value)[0] == meta["refused"]
    assert isinstance(from_rpc_error(plain.value), ClientRejected)
    with pytest.raises(grpc.RpcError) as ahead:
        act("p4", three, view_version=played.version + 1)
    assert ahead.value.code() == grpc.StatusCode.OUT_OF_RANGE and _info(ahead.value)[0] == "version_ahead"
