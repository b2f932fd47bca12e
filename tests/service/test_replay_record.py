"""``ReplayRecord`` (the replay viewer's call): a record replayed through the rules as one viewer
saw it, and audited, over gRPC and Connect; the views are ``trapoula replay``'s."""

from __future__ import annotations

import json
from pathlib import Path

import grpc
import pytest
from grpc_helpers import ServerThread, connect_post, error_info

from trapoula.api.v1 import table_pb2 as pb
from trapoula.api.v1 import table_pb2_grpc
from trapoula.clients.replay import Replay
from trapoula.service.application import Tables
from trapoula.service.server import start_connect

pytestmark = pytest.mark.timeout(120)

RECORDS = Path(__file__).resolve().parents[1] / "clients" / "records_v1"


def test_a_vida_record_through_one_seat_s_eyes(sqlite_tables: Tables) -> None:
    text = (RECORDS / "vida.jsonl").read_text(encoding="utf-8")
    replay = Replay.from_text(text)
    with ServerThread(sqlite_tables) as server, grpc.insecure_channel(server.address) as channel:
        stub = table_pb2_grpc.TableServiceStub(channel)
        reply = stub.ReplayRecord(pb.ReplayRecordRequest(jsonl=text, seat=2, positions=[0, 30, replay.length]))
        assert reply.game == "vida" and reply.table_id == replay.table_id
        assert list(reply.names) == list(replay.names)
        assert [s.position for s in reply.steps] == list(range(1, replay.length + 1))
        assert [s.name for s in reply.steps] == [replay.step(p).name for p in range(1, replay.length + 1)]
        assert reply.steps[0].hand == 0 and reply.steps[-1].hand == 2
        assert [p.position for p in reply.positions] == [0, 30, replay.length]
        for shown in reply.positions:
            assert json.loads(shown.view_json) == json.loads(json.dumps(replay.view(shown.position, 2)))
        assert json.loads(reply.positions[1].view_json)["hand"] == replay.view(30, 2)["hand"]
        assert reply.verified and "verified" in reply.report and reply.stopped == ""

        spectator = stub.ReplayRecord(pb.ReplayRecordRequest(jsonl=text, positions=[30]))
        assert json.loads(spectator.positions[0].view_json)["seat"] is None
        assert "hand" not in json.loads(spectator.positions[0].view_json) or not json.loads(
            spectator.positions[0].view_json
        ).get("hand")

        for request, reason in (
            (pb.ReplayRecordRequest(jsonl="no record"), "bad_record"),
            (pb.ReplayRecordRequest(jsonl=text, seat=4), "bad_seat"),
            (pb.ReplayRecordRequest(jsonl=text, positions=[replay.length + 1]), "bad_position"),
            (pb.ReplayRecordRequest(jsonl=text, positions=[0] * 65), "bad_position"),
        ):
            with pytest.raises(grpc.RpcError) as failed:
                stub.ReplayRecord(request)
            assert failed.value.code() is grpc.StatusCode.INVALID_ARGUMENT
            assert error_info(failed.value).reason == reason


def test_romis_sealed_submissions_are_not_seen_by_the_others_and_connect_answers_alike(
    sqlite_tables: Tables,
) -> None:
    text = (RECORDS / "romis.jsonl").read_text(encoding="utf-8")
    replay = Replay.from_text(text)
    with ServerThread(sqlite_tables) as server:
        assert server.server is not None
        connect, port = server._submit(start_connect(server.server, "127.0.0.1:0"))
        try:
            status, reply = connect_post(
                f"http://127.0.0.1:{port}", "ReplayRecord", {"jsonl": text, "seat": 0, "positions": [5]}
            )
        finally:
            server._submit(connect.stop())
    assert status == 200 and reply["game"] == "romis" and reply["verified"] is True
    steps = reply["steps"]
    assert len(steps) == replay.length
    unseen = [s for s in steps if s.get("seen") is not True]
    assert unseen, "another seat's sealed submission is withheld from seat 0"
    assert all(not replay.reaches(s["position"], 0) for s in unseen)
    assert json.loads(reply["positions"][0]["viewJson"]) == json.loads(json.dumps(replay.view(5, 0)))
