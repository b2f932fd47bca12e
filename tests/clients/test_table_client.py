"""The thin client against a stand-in server: message size, error strings, argument checks.

The stand-in implements only what a test needs (``GetRecord``, ``Act``) and counts the calls
it receives, so a test can tell that a bad argument never left the client.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from concurrent import futures
from typing import Any

import grpc
import pytest
from google.protobuf import any_pb2
from google.rpc import error_details_pb2, status_pb2  # type: ignore[import-untyped]
from grpc_status import rpc_status

from trapoula.api.v1 import table_pb2, table_pb2_grpc
from trapoula.clients.errors import CommandRejected, InvalidArgument, TrapoulaError, Unavailable
from trapoula.clients.table import MAX_MESSAGE_BYTES, TableClient

BIG = 5 * 1024 * 1024 + 17
"""A record larger than gRPC's default 4 MB limit on received messages."""
REFUSAL = "play by seat 3: it is seat 1's turn (agonia, hand 1, seat 3, to act 1)"


class StandIn(table_pb2_grpc.TableServiceServicer):
    """``GetRecord`` answers :data:`BIG` bytes; ``Act`` refuses as the real server does, its
    message ending with the ``[reason, rule]`` tag when ``tagged``."""

    def __init__(self) -> None:
        self.calls = 0
        self.tagged = True

    def GetRecord(self, request: Any, context: Any) -> table_pb2.GetRecordResponse:
        self.calls += 1
        return table_pb2.GetRecordResponse(jsonl="x" * (BIG - 1) + "\n", hands=1)

    def Act(self, request: Any, context: Any) -> table_pb2.ActResponse:
        self.calls += 1
        info = error_details_pb2.ErrorInfo(reason="not_your_turn", domain="trapoula", metadata={"rule": "S3.7"})
        detail = any_pb2.Any()
        detail.Pack(info)
        message = f"{REFUSAL} [not_your_turn, S3.7]" if self.tagged else REFUSAL
        status = status_pb2.Status(code=grpc.StatusCode.FAILED_PRECONDITION.value[0], message=message, details=[detail])
        context.abort_with_status(rpc_status.to_status(status))
        raise AssertionError("unreachable")  # pragma: no cover


@pytest.fixture(scope="module")
def stand_in() -> Iterator[tuple[str, StandIn]]:
    servicer = StandIn()
    limit = ("grpc.max_send_message_length", MAX_MESSAGE_BYTES)
    server = grpc.server(futures.ThreadPoolExecutor(max_workers=2), options=[limit])
    table_pb2_grpc.add_TableServiceServicer_to_server(servicer, server)
    port = server.add_insecure_port("127.0.0.1:0")
    server.start()
    try:
        yield f"127.0.0.1:{port}", servicer
    finally:
        server.stop(grace=None)


def test_a_record_larger_than_4_mb_arrives_whole(stand_in: tuple[str, StandIn]) -> None:
    """gRPC's default receive limit is 4 MB; the client's channel allows 64 MiB."""
    address, _ = stand_in
    with TableClient(address) as client:
        jsonl = client.record("t1")
    assert len(jsonl) == BIG
    assert MAX_MESSAGE_BYTES == 64 * 1024 * 1024


def test_a_refusal_shows_its_reason_and_rule_once_s3_7(stand_in: tuple[str, StandIn]) -> None:
    """The server ends a refusal's message with ``[not_your_turn, S3.7]``; the client's error
    keeps the tag as data and shows it once."""
    address, servicer = stand_in
    with TableClient(address, token="tok") as client:
        for tagged in (True, False):
            servicer.tagged = tagged
            with pytest.raises(CommandRejected) as refused:
                client.act("t1", {"kind": "draw"})
            error = refused.value
            assert (error.reason, error.rule, error.message) == ("not_your_turn", "S3.7", REFUSAL)
            assert str(error) == f"{REFUSAL} [not_your_turn, S3.7]"
    servicer.tagged = True


def test_an_error_built_by_hand_shows_its_tag_once() -> None:
    error = TrapoulaError("m [r, R1]", reason="r", metadata={"rule": "R1"})
    assert str(error) == "m [r, R1]"
    assert str(TrapoulaError("m", reason="r")) == "m [r]"
    assert str(TrapoulaError("m")) == "m"


BAD_CALLS: list[tuple[str, Callable[[TableClient], Any], str]] = [
    ("seats text", lambda c: c.create_table("agonia", seats="2"), "seats '2' is not a whole number (0..2147483647)"),
    ("seats negative", lambda c: c.create_table("agonia", seats=-1), "seats -1 is out of range (0..2147483647)"),
    ("seats bool", lambda c: c.create_table("agonia", seats=True), "seats True is not a whole number"),
    ("game", lambda c: c.create_table(7), "game 7 is not text"),
    ("options", lambda c: c.create_table("agonia", 2, options=[1]), "options [1] is not a mapping"),
    ("option value", lambda c: c.create_table("agonia", 2, options={"x": {1, 2}}), "option 'x': {1, 2} is not a JSON"),
    ("first dealer", lambda c: c.create_table("agonia", 2, first_dealer=2**40), "first_dealer 1099511627776 is out"),
    ("totals", lambda c: c.create_table("agonia", 2, initial_totals="12"), "initial_totals '12' is not a list"),
    ("total", lambda c: c.create_table("agonia", 2, initial_totals=[1, 2.5]), "initial total 2.5 is not a whole"),
    ("join seat", lambda c: c.join("t1", "ann", seat=2**40), "seat 1099511627776 is out of range (0..2147483647)"),
    ("join table", lambda c: c.join(None, "ann"), "table_id None is not text"),
    ("bot seat", lambda c: c.add_bot("t1", seat=-1), "seat -1 is out of range"),
    (
        "from_version",
        lambda c: c.watch("t1", from_version=-1),
        "from_version -1 is out of range (0..18446744073709551615)",
    ),
    ("from_version text", lambda c: c.watch("t1", from_version="3"), "from_version '3' is not a whole number"),
    ("command", lambda c: c.act("t1", "draw"), "command 'draw' is not a mapping"),
    # any text kind may be a command of some game (it travels as JSON); a kind that is no text is not
    ("command kind", lambda c: c.act("t1", {"kind": 3}), "command {'kind': 3} has no text 'kind'"),
    ("page size", lambda c: c.list_tables(page_size=2**31), "page_size 2147483648 is out of range"),
    ("wait", lambda c: c.wait_ready(timeout=0), "timeout 0 is not a positive number of seconds"),
]


@pytest.mark.parametrize(("what", "call", "message"), BAD_CALLS, ids=[b[0] for b in BAD_CALLS])
def test_bad_arguments_are_refused_before_any_call(
    what: str, call: Callable[[TableClient], Any], message: str, stand_in: tuple[str, StandIn]
) -> None:
    address, servicer = stand_in
    before = servicer.calls
    with TableClient(address) as client, pytest.raises(InvalidArgument) as refused:
        call(client)
    assert refused.value.message.startswith(message), refused.value.message
    assert refused.value.code is None
    assert servicer.calls == before


@pytest.mark.parametrize("target", ["", "  ", None])
def test_a_client_needs_an_address(target: Any) -> None:
    with pytest.raises(InvalidArgument, match="is not a host:port address"):
        TableClient(target)


def test_an_unreachable_server_is_named_in_the_error() -> None:
    """Nothing listens on port 1: ``Unavailable``, and the message says where the client looked
    (retrying turned off; test_reconnect.py covers the retries)."""
    with TableClient("127.0.0.1:1", timeout=5, retry_for=0) as client, pytest.raises(Unavailable) as failed:
        client.list_games()
    assert str(failed.value).startswith("no answer from the trapoula server at 127.0.0.1:1: ")
    assert "\n" not in str(failed.value)
