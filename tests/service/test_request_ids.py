"""Retried ``CreateTable`` and ``JoinTable`` calls with a request id leave no orphan table or seat.

A call that timed out may still have been stored; the client then retries with the same request
id, and the server answers what the first call made (the table id and tokens derive from the
request id and the server's secret), storing nothing more.  Replicas sharing the secret answer
alike, whichever of them the retry reaches.
"""

from __future__ import annotations

import time
from typing import Any

import grpc
import pytest

from trapoula.api.v1 import table_pb2 as pb
from trapoula.api.v1 import table_pb2_grpc
from trapoula.domain.errors import InvalidInput
from trapoula.service.application import Tables

REQUEST = "7f3c2a9e5b1d4c6e8a0f2b4d6e8a0c1e"
OTHER = "0a1b2c3d4e5f60718293a4b5c6d7e8f9"


# A table that deals from seeds stores its first hand's server seed commitment with its creation
# (``SeedCommitted``, docs/shuffle.md 2a).


def _names(tables: Tables, table_id: str) -> list[str]:
    return [e.name for e in tables.stored_events(table_id)]


def test_a_retried_creation_answers_the_same_table_and_token_and_stores_one_table(store: Any) -> None:
    """Two replicas with one secret: the retry on the other replica answers the first call's table
    id and owner token; the store holds one ``TableCreated``; another request id is another table."""
    a, b = store.open(), store.open()
    try:
        first = a.create_table("agonia", 2, {"target_points": 50}, request_id=REQUEST)
        again = b.create_table("agonia", 2, {"target_points": 50}, request_id=REQUEST)
        assert again == first
        assert _names(a, first[0]) == ["TableCreated", "SeedCommitted"]
        assert list(a.table_ids()).count(first[0]) == 1 and len(list(a.table_ids())) == 1
        other = a.create_table("agonia", 2, request_id=OTHER)
        assert other[0] != first[0] and other[1] != first[1]
        assert len(list(b.table_ids())) == 2
        assert a.authenticate(first[0], first[1]).kind == "owner"
    finally:
        a.close()
        b.close()


def test_without_a_request_id_every_creation_is_a_new_table(tables: Tables) -> None:
    one, two = tables.create_table("agonia", 2), tables.create_table("agonia", 2)
    assert one[0] != two[0] and one[1] != two[1]


def test_a_retried_join_answers_the_same_seat_and_token_and_takes_one_seat(store: Any) -> None:
    """Seat 0 is taken once by ann's request id on either replica; bob's join then takes seat 1 and
    the table has exactly two ``SeatTaken`` events."""
    a, b = store.open(), store.open()
    try:
        table_id, _owner = a.create_table("agonia", 3)
        first = a.join(table_id, "ann", request_id=REQUEST)
        again = b.join(table_id, "ann", request_id=REQUEST)
        assert first == again and first[0] == 0
        assert b.join(table_id, "bob", request_id=OTHER)[0] == 1
        assert _names(a, table_id) == ["TableCreated", "SeedCommitted", "SeatTaken", "SeatTaken"]
        principal = a.authenticate(table_id, first[1])
        assert (principal.kind, principal.seat) == ("seat", 0)
    finally:
        a.close()
        b.close()


def test_a_join_request_id_belongs_to_its_table(tables: Tables) -> None:
    """The same request id at two tables takes a seat at each, with two different tokens."""
    one, _ = tables.create_table("agonia", 2)
    two, _ = tables.create_table("agonia", 2)
    seat_one, token_one = tables.join(one, "ann", request_id=REQUEST)
    seat_two, token_two = tables.join(two, "ann", request_id=REQUEST)
    assert (seat_one, seat_two) == (0, 0) and token_one != token_two


def test_a_retried_creation_with_computer_seats_seats_them_once(tables: Tables) -> None:
    """mau_mau's ``computer_seats`` option (R7.2): the retry finds the bots seated and seats none again."""
    options = {"computer_seats": {"1": "hard"}}
    first = tables.create_table("mau_mau", 2, options, request_id=REQUEST)
    again = tables.create_table("mau_mau", 2, options, request_id=REQUEST)
    assert again == first
    assert _names(tables, first[0]).count("SeatTaken") == 1


@pytest.mark.parametrize("bad", ["short", "x" * 129, "caf\u00e9-request-id-00000", "tab\there-request-id-000"])
def test_a_bad_request_id_is_refused_and_stores_nothing(tables: Tables, bad: str) -> None:
    with pytest.raises(InvalidInput) as raised:
        tables.create_table("agonia", 2, request_id=bad)
    assert raised.value.reason == "bad_request_id"
    assert list(tables.table_ids()) == []
    table_id, _ = tables.create_table("agonia", 2)
    with pytest.raises(InvalidInput) as joined:
        tables.join(table_id, "ann", request_id=bad)
    assert joined.value.reason == "bad_request_id"
    assert _names(tables, table_id) == ["TableCreated", "SeedCommitted"]


def test_a_creation_that_timed_out_is_retried_over_grpc_without_an_orphan(server: Any) -> None:
    """The first CreateTable is stored but its answer comes after the caller's deadline
    (DEADLINE_EXCEEDED); the retry with the same request id answers that table, and the server
    lists one table."""
    original = server.tables.create_table
    calls = [0]

    def slow_create(*args: Any, **kwargs: Any) -> tuple[str, str]:
        result = original(*args, **kwargs)
        calls[0] += 1
        if calls[0] == 1:
            time.sleep(1.5)  # stored, but answered after the caller's deadline
        return result

    server.tables.create_table = slow_create
    with grpc.insecure_channel(f"127.0.0.1:{server.port}") as channel:
        stub = table_pb2_grpc.TableServiceStub(channel)
        request = pb.CreateTableRequest(game="agonia", seats=2, request_id=REQUEST)
        with pytest.raises(grpc.RpcError) as timed_out:
            stub.CreateTable(request, timeout=0.5)
        assert timed_out.value.code() == grpc.StatusCode.DEADLINE_EXCEEDED
        answer = stub.CreateTable(request, timeout=10)
        listed = stub.ListTables(pb.ListTablesRequest(), timeout=10)
        joined = stub.JoinTable(pb.JoinTableRequest(table_id=answer.table_id, name="ann", request_id=OTHER))
        rejoined = stub.JoinTable(pb.JoinTableRequest(table_id=answer.table_id, name="ann", request_id=OTHER))
    assert [t.table_id for t in listed.tables] == [answer.table_id]
    assert (joined.seat, joined.seat_token) == (rejoined.seat, rejoined.seat_token) == (0, joined.seat_token)
