"""The thin client, the demo and the ``trapoula`` command against a real server.

One in-process server (port 0, a SQLite file in a temporary folder) serves the whole module;
bots play over gRPC, each with its own channel and seat token.
"""

from __future__ import annotations

import io
import json
import uuid
from pathlib import Path
from typing import Any

import pytest

from trapoula.clients.audit import audit_text
from trapoula.clients.cli import main
from trapoula.clients.demo import DemoResult, run_demo
from trapoula.clients.errors import AlreadyExists, CommandRejected, InvalidArgument, NotFound, PermissionDenied
from trapoula.clients.replay import Replay
from trapoula.clients.table import TableClient
from trapoula.domain.cards import codes, deck_52

pytestmark = pytest.mark.timeout(300)


@pytest.fixture(scope="module")
def demo(address: str, tmp_path_factory: pytest.TempPathFactory) -> tuple[DemoResult, str]:
    out = io.StringIO()
    path = tmp_path_factory.mktemp("demo") / "match.jsonl"
    result = run_demo(address, options={"target_points": 10}, record_path=path, seed=1, out=out)
    return result, out.getvalue()


def test_demo_plays_a_match_over_grpc_and_its_record_verifies(demo: tuple[DemoResult, str]) -> None:
    result, output = demo
    assert result.report.ok, result.report.summary()
    assert result.record_path.exists()
    lines = result.record_path.read_text(encoding="utf-8").splitlines()
    header = json.loads(lines[0])
    assert header["table_id"] == result.table_id and header["game"] == "agonia"
    assert header["events"] == len(lines) - 1 == result.report.events
    assert result.report.match_over and result.report.winner is not None
    assert result.report.hands == result.report.hands_verified == header["hands"] >= 1
    assert "record verified" in output
    assert f"record written to {result.record_path}" in output
    assert "final standings:" in output
    names = [json.loads(line)["payload"]["name"] for line in lines[1:] if json.loads(line)["name"] == "SeatTaken"]
    assert sorted(names) == ["Anna", "Babis", "Chrysa", "Dimos"]


def test_verify_command_exits_0_on_the_record_and_1_on_a_tampered_copy(
    demo: tuple[DemoResult, str], tmp_path: Path
) -> None:
    """One byte of one card code changed: exit 1, naming the event's seq and name and a rule."""
    result, _ = demo
    out = io.StringIO()
    assert main(["verify", str(result.record_path)], out=out) == 0
    assert "record verified" in out.getvalue()

    lines = result.record_path.read_text(encoding="utf-8").splitlines()
    index = next(i for i, line in enumerate(lines) if json.loads(line).get("name") == "CardPlayed")
    entry: dict[str, Any] = json.loads(lines[index])
    card = entry["payload"]["card"]
    entry["payload"]["card"] = card[0] + ("C" if card[1] != "C" else "D")
    lines[index] = json.dumps(entry)
    tampered = tmp_path / "tampered.jsonl"
    tampered.write_text("\n".join(lines) + "\n", encoding="utf-8")
    out = io.StringIO()
    assert main(["verify", str(tampered)], out=out) == 1
    text = out.getvalue()
    assert f"first discrepancy at seq {entry['seq']} (CardPlayed), rule " in text
    assert "record verified" not in text


def test_replay_command_prints_a_position_for_one_seat(demo: tuple[DemoResult, str]) -> None:
    result, _ = demo
    replay = Replay.from_file(result.record_path)
    dealt = next(p for p in range(1, replay.length + 1) if replay.step(p).name == "CardsDealt")
    seat = replay.step(dealt).event.seat  # type: ignore[attr-defined]
    out = io.StringIO()
    assert main(["replay", str(result.record_path), "--at", str(dealt), "--seat", str(seat)], out=out) == 0
    text = out.getvalue()
    explained, text = text.split("\n", 1)  # the first line says what positions and seq numbers are
    assert explained.startswith("Positions: [N/M] is the match after its N-th game event, of M")
    assert text.startswith(f"[{dealt}/{replay.length}] seq {replay.step(dealt).seq}: You are dealt ")
    assert any(symbol in text for symbol in "♣♦♥♠")
    hand = replay.view(dealt, seat)["hand"]
    assert len(hand) == 7
    assert replay.view(dealt, None).get("hand") is None  # a spectator sees no hand
    everything = replay.view(replay.length)  # the omniscient view: every hand
    assert len(everything["hands"]) == 4
    assert sum(everything["hand_sizes"]) == sum(len(h) for h in everything["hands"])

    out = io.StringIO()
    assert main(["replay", str(result.record_path)], out=out, inp=io.StringIO()) == 0
    steps = [line for line in out.getvalue().splitlines() if line.startswith("[")]
    assert len(steps) == replay.length + 1
    assert "Match over" in steps[-1]


def test_client_calls_and_typed_errors(address: str) -> None:
    """Create, join, bot, start; the rules' refusal carries its reason and rule (S11)."""
    with TableClient(address) as owner:
        with pytest.raises(InvalidArgument):
            owner.create_table("chess", 2)
        table = owner.create_table("agonia", 2, {"target_points": 0})
        with pytest.raises(NotFound):
            owner.view(str(uuid.uuid4()))
        assert any(g.key == "agonia" and g.options["target_points"] == 100 for g in owner.list_games())
        assert table.table_id in {t.table_id for t in owner.list_tables("agonia")}
    with TableClient(address) as ann:
        joined = ann.join(table.table_id, "ann", seat=0)
        assert (joined.seat, ann.token) == (0, joined.token)
        with pytest.raises(AlreadyExists):
            TableClient(address).join(table.table_id, "bob", seat=0)
        assert ann.add_bot(table.table_id, "heuristic", token=table.owner_token) == 1  # the owner's call
        ann.start_match(table.table_id, token=table.owner_token)
        view = ann.view(table.table_id).view
        assert view["seat"] == 0 and len(view["hand"]) >= 7
        with TableClient(address) as stranger, pytest.raises(PermissionDenied):
            stranger.act(table.table_id, {"kind": "draw"})
        if view["legal"]:
            missing = next(c for c in codes(deck_52()) if c not in view["hand"] and c != view["top_card"])
            with pytest.raises(CommandRejected) as refused:
                ann.act(table.table_id, {"kind": "play", "card": missing})
            assert (refused.value.reason, refused.value.rule) == ("card_not_in_hand", "S11")


def test_watch_yields_updates_and_is_cancelled_on_exit(address: str) -> None:
    """A person plays a single hand against a server bot through watch + act; the record of
    the finished hand verifies."""
    with TableClient(address) as client:
        table = client.create_table("agonia", 2, {"target_points": 0})
        client.join(table.table_id, "ann")
        client.add_bot(table.table_id, "random")
        client.start_match(table.table_id)
        with client.watch(table.table_id) as watch:
            first = next(iter(watch))
        assert watch.cancelled
        assert first.version == 1 and first.name == "TableCreated"
        current = client.view(table.table_id)
        view, moves = current.view, 0
        while view.get("legal") and moves < 500:
            view = client.act(table.table_id, view["legal"][0]).view
            moves += 1
        assert view["phase"] == "match_over"
        report = audit_text(client.record(table.table_id))
        assert report.ok and report.hands == 1, report.summary()


def test_play_command_at_a_server_with_piped_input(address: str) -> None:
    out = io.StringIO()
    code = main(["play", "--address", address, "--seats", "2", "--target", "0"], out=out, inp=io.StringIO("1\n" * 400))
    text = out.getvalue()
    assert code == 0
    assert "Your hand" in text and "Your move [1-" in text
    assert "Match over" in text or "(input ended)" in text


def test_tables_and_games_commands(address: str) -> None:
    out = io.StringIO()
    assert main(["games", "--address", address], out=out) == 0
    assert out.getvalue().startswith("agonia")
    out = io.StringIO()
    assert main(["tables", "--address", address, "--game", "agonia"], out=out) == 0
    assert "agonia" in out.getvalue()
