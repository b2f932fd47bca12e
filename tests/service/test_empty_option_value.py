"""An option whose ``google.protobuf.Value`` carries no value is refused by name (the typed contract).

A client whose protobuf library does not know a field name it was given (``number_value`` where
its JSON mapping reads ``numberValue``) sends the option's ``Value`` empty.  The server answers
INVALID_ARGUMENT ``bad_option`` naming the option, and creates no table, instead of passing the
game a null that it reports as an unreadable value.
"""

from __future__ import annotations

import grpc
import pytest
from google.protobuf import struct_pb2

from trapoula.api.v1 import table_pb2 as pb
from trapoula.api.v1 import table_pb2_grpc


def _create(stub: table_pb2_grpc.TableServiceStub, options: struct_pb2.Struct) -> pb.CreateTableResponse:
    reply: pb.CreateTableResponse = stub.CreateTable(pb.CreateTableRequest(game="agonia", seats=2, options=options))
    return reply


def test_an_empty_value_is_refused_by_name_and_creates_nothing(stub: table_pb2_grpc.TableServiceStub) -> None:
    before = len(stub.ListTables(pb.ListTablesRequest()).tables)
    options = struct_pb2.Struct()
    options.fields["target_points"].SetInParent()  # a Value with none of its kinds set
    with pytest.raises(grpc.RpcError) as refused:
        _create(stub, options)
    assert refused.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    message = refused.value.details()
    assert message.startswith("option target_points has no value") and "None" not in message
    assert len(stub.ListTables(pb.ListTablesRequest()).tables) == before


def test_an_empty_value_inside_a_list_is_named_by_its_place(stub: table_pb2_grpc.TableServiceStub) -> None:
    options = struct_pb2.Struct()
    options.update({"computer_seats": [1, 2]})
    options.fields["computer_seats"].list_value.values.add()  # a third item, empty
    with pytest.raises(grpc.RpcError) as refused:
        stub.CreateTable(pb.CreateTableRequest(game="mau_mau", seats=3, options=options))
    assert refused.value.details().startswith("option computer_seats[2] has no value")


def test_a_null_value_is_a_value(stub: table_pb2_grpc.TableServiceStub) -> None:
    # null_value is one of Value's kinds: it reaches the game, which judges it (agonia R7.1).
    options = struct_pb2.Struct()
    options.update({"target_points": None})
    with pytest.raises(grpc.RpcError) as refused:
        _create(stub, options)
    assert refused.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert "has no value" not in refused.value.details() and "target_points" in refused.value.details()
    options.update({"target_points": 50})
    assert _create(stub, options).table_id
