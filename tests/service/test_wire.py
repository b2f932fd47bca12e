"""Pure pieces of the wire: convert.py, status.py, fanout.py, bots.py, settings.py, server addresses."""

from __future__ import annotations

import asyncio
import random
import threading
from typing import Any

import grpc
import pytest
from google.protobuf import struct_pb2
from google.rpc import error_details_pb2  # type: ignore[import-untyped]

from trapoula.api.v1 import table_pb2 as pb
from trapoula.domain import bots
from trapoula.domain.errors import CommandRejected, InvalidInput
from trapoula.service import convert, status
from trapoula.service.application import SPECTATOR, Tables
from trapoula.service.errors import (
    AlreadyStarted,
    Conflict,
    ErrorContext,
    PermissionDenied,
    SeatTaken,
    TableNotFound,
    annotate,
)
from trapoula.service.fanout import Fanout
from trapoula.service.server import create_server, display_address
from trapoula.service.settings import Settings
from trapoula.service.settingvalues import DEFAULT_ADDRESS, DEFAULT_DATABASE_URL

# --------------------------------------------------------------------------- convert


def _choose(level: str, view: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    return bots.choose("agonia", view, level, rng)


def test_struct_numbers_come_back_as_ints_where_integral() -> None:
    struct = struct_pb2.Struct()
    struct.update({"target_points": 50, "ratio": 0.5, "nested": {"xs": [1, 2.0, "a"]}, "flag": True})
    assert convert.struct_to_dict(struct) == {"target_points": 50, "ratio": 0.5, "nested": {"xs": [1, 2, "a"]},
                                              "flag": True}  # fmt: skip
    assert isinstance(convert.struct_to_dict(struct)["target_points"], int)


def test_every_command_kind_converts_to_its_plain_form() -> None:
    c = pb.Command
    assert convert.command_to_dict(c(play=pb.PlayCard(card="AS", suit="H", announce=True))) == {
        "kind": "play", "card": "AS", "suit": "H", "announce": True}  # fmt: skip
    assert convert.command_to_dict(c(play=pb.PlayCard(card="7H"))) == {"kind": "play", "card": "7H"}
    assert convert.command_to_dict(c(draw=pb.DrawCard())) == {"kind": "draw"}
    passing = c()
    getattr(passing, "pass").SetInParent()  # "pass" is a Python keyword
    assert convert.command_to_dict(passing) == {"kind": "pass"}
    assert convert.command_to_dict(c(choose_suit=pb.ChooseSuit(suit="D"))) == {"kind": "choose_suit", "suit": "D"}
    assert convert.command_to_dict(c(next_hand=pb.NextHand())) == {"kind": "next_hand", "deal": None}
    deal = pb.ExplicitDeal(hands=[pb.CardList(cards=["2C"]), pb.CardList(cards=["3C"])], starter="4C",
                           stock=["5C"], reshuffles=[pb.CardList(cards=["6C"])])  # fmt: skip
    assert convert.command_to_dict(c(next_hand=pb.NextHand(deal=deal))) == {
        "kind": "next_hand",
        "deal": {"hands": [["2C"], ["3C"]], "starter": "4C", "stock": ["5C"], "reshuffles": [["6C"]]},
    }
    with pytest.raises(InvalidInput) as exc:
        convert.command_to_dict(c())
    assert exc.value.reason == "bad_command"


def test_the_seat_token_is_read_from_bearer_metadata() -> None:
    assert convert.bearer_token([("x-other", "1"), ("authorization", "Bearer abc")]) == "abc"
    assert convert.bearer_token([("authorization", b"bearer  xyz ")]) == "xyz"
    assert convert.bearer_token([]) is None and convert.bearer_token(None) is None
    for bad in ("Basic abc", "Bearer", "abc"):
        with pytest.raises(PermissionDenied):
            convert.bearer_token([("authorization", bad)])


# --------------------------------------------------------------------------- status


def _info(exc: BaseException) -> tuple[int, str, error_details_pb2.ErrorInfo]:
    rich = status.to_rpc_status(exc)
    info = error_details_pb2.ErrorInfo()
    assert rich.details[0].Unpack(info)
    return rich.code, rich.message, info


@pytest.mark.parametrize(
    ("exc", "code", "reason"),
    [
        (InvalidInput("bad card code 'ZZ'", reason="bad_card"), grpc.StatusCode.INVALID_ARGUMENT, "bad_card"),
        (CommandRejected("ace_on_ace", "R5.1.3", "no ace on an ace"), grpc.StatusCode.FAILED_PRECONDITION,
         "ace_on_ace"),
        (TableNotFound("no table 'x'"), grpc.StatusCode.NOT_FOUND, "table_not_found"),
        (PermissionDenied("wrong token"), grpc.StatusCode.PERMISSION_DENIED, "permission_denied"),
        (SeatTaken("seat 1 is taken"), grpc.StatusCode.ALREADY_EXISTS, "seat_taken"),
        (AlreadyStarted("started"), grpc.StatusCode.ALREADY_EXISTS, "already_started"),
        (Conflict("lost the race"), grpc.StatusCode.ABORTED, "conflict"),
        (KeyError("oops"), grpc.StatusCode.INTERNAL, "internal"),
    ],
)  # fmt: skip
def test_each_error_maps_to_its_status_code_and_reason(exc: Exception, code: grpc.StatusCode, reason: str) -> None:
    got_code, _message, info = _info(exc)
    assert (got_code, info.reason, info.domain) == (code.value[0], reason, "trapoula")
    assert status.code_for(exc) == code


def test_a_refusal_names_its_rule_seat_and_version() -> None:
    exc = annotate(CommandRejected("ace_on_ace", "R5.1.3", "AS on AH"), ErrorContext("t1", 2, 17))
    _code, message, info = _info(exc)
    assert message == "AS on AH [ace_on_ace, R5.1.3]"
    assert dict(info.metadata) == {"rule": "R5.1.3", "seat": "2", "version": "17", "table_id": "t1"}
    grpc_status = status.to_status(exc)
    assert grpc_status.code == grpc.StatusCode.FAILED_PRECONDITION
    assert grpc_status.trailing_metadata[0][0] == "grpc-status-details-bin"


def test_an_internal_error_does_not_echo_its_text() -> None:
    _code, message, _ = _info(RuntimeError("secret state 5C 6H"))
    assert "5C" not in message and message.startswith("internal error (ref ")


# --------------------------------------------------------------------------- fanout


def test_a_waiter_is_woken_by_a_publish_from_another_thread() -> None:
    fanout = Fanout()

    async def scenario() -> tuple[bool, bool, bool]:
        waiting = asyncio.ensure_future(fanout.wait("t", 3, timeout=30))
        await asyncio.sleep(0)
        assert fanout.watchers("t") == 1
        threading.Thread(target=fanout.publish, args=("t", 3)).start()  # not newer than 3: no wake-up
        threading.Thread(target=fanout.publish, args=("t", 4)).start()
        woken = await waiting
        already = await fanout.wait("t", 3, timeout=30)  # version 4 is known: returns at once
        timed_out = await fanout.wait("t", 4, timeout=0.01)
        return woken, already, timed_out

    assert asyncio.run(scenario()) == (True, True, False)
    assert fanout.latest("t") == 4 and fanout.watchers("t") == 0


def test_a_cancelled_waiter_leaves_nothing_behind() -> None:
    fanout = Fanout()

    async def scenario() -> None:
        task = asyncio.ensure_future(fanout.wait("t", 0))
        await asyncio.sleep(0)
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task

    asyncio.run(scenario())
    assert fanout.watchers("t") == 0
    fanout.publish("t", 1)  # nobody to wake: no error


def test_waits_time_out_each_at_its_own_deadline_and_a_woken_one_never() -> None:
    """Waits share a timer per timeout (fanout._Deadlines): each still times out at its own
    deadline (within the loop's timer slack), in order, whatever woke the others meanwhile."""
    fanout = Fanout()

    async def scenario() -> dict[str, tuple[bool, float]]:
        loop = asyncio.get_running_loop()
        start = loop.time()
        ended: dict[str, tuple[bool, float]] = {}

        async def wait(name: str, table: str, after: int, timeout: float) -> None:
            woken = await fanout.wait(table, after, timeout=timeout)
            ended[name] = (woken, round(loop.time() - start, 2))

        tasks = [asyncio.ensure_future(wait("a", "t", 0, 0.4))]
        await asyncio.sleep(0.1)
        tasks.append(asyncio.ensure_future(wait("b", "u", 0, 0.4)))
        await asyncio.sleep(0.1)
        tasks += [asyncio.ensure_future(wait("c", "t", 5, 0.4)), asyncio.ensure_future(wait("d", "t", 5, 0.1))]
        await asyncio.sleep(0.05)
        fanout.publish("t", 1)  # wakes a (waits for more than 0), not c nor d (more than 5)
        await asyncio.wait_for(asyncio.gather(*tasks), 5)  # a deadline never handled would hang here
        return ended

    ended = asyncio.run(scenario())
    assert [name for name, _ in sorted(ended.items(), key=lambda kv: kv[1][1])] == ["a", "d", "b", "c"]
    assert ended["a"][0] is True and 0.2 <= ended["a"][1] < 0.4  # woken at 0.25 s, before its deadline
    assert {name: woken for name, (woken, _) in ended.items() if name != "a"} == {"b": False, "c": False, "d": False}
    assert 0.3 <= ended["d"][1] < 0.65 and 0.5 <= ended["b"][1] < 0.85 and 0.6 <= ended["c"][1] < 0.95
    assert fanout.watchers("t") == 0 and fanout.watchers("u") == 0
    assert asyncio.run(fanout.wait("t", 9, timeout=0.01)) is False  # another loop, the first one closed
    assert len(fanout._deadlines) == 1  # the closed loop's timeouts forgotten


# --------------------------------------------------------------------------- bots


def _view(legal: list[dict[str, Any]], hand: list[str]) -> dict[str, Any]:
    return {"legal": legal, "hand": hand}


def test_settings_come_from_flags_over_the_environment_over_defaults() -> None:
    defaults = Settings.from_env({})
    assert (defaults.address, defaults.database_url, defaults.database_schema) == (
        DEFAULT_ADDRESS, DEFAULT_DATABASE_URL, None)  # fmt: skip
    assert len(defaults.secret) == 32 and defaults.secret != Settings.from_env({}).secret
    env = {"TRAPOULA_ADDRESS": "0.0.0.0:6000", "TRAPOULA_SECRET": "ab" * 16, "TRAPOULA_DATABASE_URL": "sqlite://"}
    from_env = Settings.from_env(env)
    assert (from_env.address, from_env.database_url, from_env.secret) == ("0.0.0.0:6000", "sqlite://", b"\xab" * 16)
    flagged = Settings.from_args(["--address", "127.0.0.1:0"], env)
    assert (flagged.address, flagged.database_url, flagged.secret) == ("127.0.0.1:0", "sqlite://", b"\xab" * 16)
    assert "secret=" not in repr(flagged)  # never printed
    for bad in ("xyz", "abcd"):
        with pytest.raises(ValueError):
            Settings.from_env({"TRAPOULA_SECRET": bad})


def test_create_server_binds_port_zero_and_refuses_a_bad_address(tmp_path: Any) -> None:
    tables = Tables(f"sqlite:///{tmp_path / 's.sqlite3'}")

    async def scenario() -> int:
        server, port = create_server("127.0.0.1:0", tables)
        await server.stop(None)
        with pytest.raises(RuntimeError):
            create_server("256.1.1.1:1", tables)
        return port

    try:
        assert asyncio.run(scenario()) > 0
    finally:
        tables.close()
    assert display_address("127.0.0.1:0", 4242) == "127.0.0.1:4242"
    assert display_address("[::]:0", 4242) == "[::]:4242"


@pytest.mark.parametrize("address", ["127.0.0.1:99999", "nonsense", "127.0.0.1:", ":50051", "127.0.0.1:5x"])
def test_an_address_without_a_valid_port_is_refused_before_binding(address: str) -> None:
    """A port out of 0..65535 would be wrapped by the OS; refuse it with a message naming it."""
    with pytest.raises(SystemExit):
        Settings.from_args(["--address", address], env={})
    with pytest.raises(ValueError, match="is not host:port"):
        Settings.from_env({"TRAPOULA_ADDRESS": address})


def test_a_bot_without_a_name_is_named_after_its_level_and_seat(tmp_path: Any) -> None:
    tables = Tables(f"sqlite:///{tmp_path / 'names.sqlite3'}", b"s" * 32)
    table_id, _owner = tables.create_table("agonia", 2, {"target_points": 0})
    tables.add_bot(table_id, "heuristic")
    tables.add_bot(table_id, "random", name="rita")
    assert [s["name"] for s in tables.view(table_id, SPECTATOR)[1]["table"]["seats"]] == ["heuristic bot 0", "rita"]
