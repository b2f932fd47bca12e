"""Explicit deals only at a table created for them (S5.3; vida R3.2, giminaiciai R3.8, romis R3.7),
as the rules owners answered: never at an ordinary table, for the first hand and for every
``next_hand``; such a table (``manual_deal``) says so before anyone joins.

An ordinary table refuses an explicit deal with ``explicit_deal_not_allowed`` (FAILED_PRECONDITION
over gRPC, citing the game's explicit-deal rule) and stores nothing; a ``manual_deal`` table deals it.
"""

from __future__ import annotations

import io
import json
from typing import Any

import grpc
import pytest
from grpc_helpers import error_info

from trapoula.api.v1 import table_pb2 as pb
from trapoula.api.v1 import table_pb2_grpc
from trapoula.clients.cli import main as cli
from trapoula.domain.cards import codes, deck_32, deck_52, deck_104
from trapoula.domain.errors import CommandRejected
from trapoula.service.application import OWNER, SPECTATOR, Tables

pytestmark = pytest.mark.timeout(120)

D32, D52, D104 = list(codes(deck_32())), list(codes(deck_52())), list(codes(deck_104()))

DEALS: dict[str, tuple[int, str, dict[str, Any]]] = {
    "agonia": (2, "S5.3", {"hands": [D52[0:7], D52[7:14]], "starter": D52[14], "stock": D52[15:]}),
    "crazy_eights": (2, "S5.3", {"hands": [D52[0:7], D52[7:14]], "starter": D52[14], "stock": D52[15:]}),
    "mau_mau": (2, "S5.3", {"hands": [D104[0:7], D104[7:14]], "starter": D104[14], "stock": D104[15:]}),
    "vida": (4, "R3.2", {"deck": D32}),
    "giminaiciai": (2, "R3.8", {"deck": D52}),
    "romis": (2, "R3.7", {"hands": [D52[0:5], D52[5:10]], "stock": D52[10:]}),
}
"""Per game: seats, the rule of its explicit deal, and an explicit deal of its whole deck in
canonical order (the shedding games: seven cards each, then 3D as the up-card, a plain card)."""


def _seated(tables: Tables, game: str, manual_deal: bool, options: dict[str, Any] | None = None) -> str:
    seats = DEALS[game][0]
    table_id, _ = tables.create_table(game, seats, options or {}, manual_deal=manual_deal)
    for seat in range(seats):
        tables.join(table_id, f"p{seat}", seat)
    return table_id


def _names(tables: Tables, table_id: str) -> list[str]:
    return [e.name for e in tables.stored_events(table_id)]


@pytest.mark.parametrize("game", sorted(DEALS))
def test_an_ordinary_table_refuses_an_explicit_first_deal_and_a_manual_deal_table_deals_it(
    tables: Tables, game: str
) -> None:
    """S5.3 / vida R3.2 / giminaiciai R3.8 / romis R3.7: at an ordinary table the owner's explicit
    first deal is refused (``explicit_deal_not_allowed``, the game's rule), stores nothing and uses up
    no command id: the same id then starts the match from a seed.  At a ``manual_deal`` table the same
    deal is dealt: its ``HandStarted`` says ``explicit_deal`` and has no seed."""
    seats, rule, deal = DEALS[game]
    ordinary = _seated(tables, game, manual_deal=False)
    before = tables.stored_events(ordinary)
    with pytest.raises(CommandRejected) as refused:
        tables.start_match(ordinary, OWNER, "start", deal)
    assert (refused.value.reason, refused.value.rule) == ("explicit_deal_not_allowed", rule)
    assert tables.stored_events(ordinary) == before
    assert len(before) == 2 + seats  # TableCreated, SeedCommitted (docs/shuffle.md 2a) and the seats taken
    tables.start_match(ordinary, OWNER, "start")  # a seed: allowed at every table
    started = next(e for e in tables.stored_events(ordinary) if e.name == "HandStarted")
    assert started.payload["explicit_deal"] is False

    manual = _seated(tables, game, manual_deal=True)
    tables.start_match(manual, OWNER, "start", deal)
    started = next(e for e in tables.stored_events(manual) if e.name == "HandStarted")
    assert (started.payload["explicit_deal"], started.payload["seed"]) == (True, None)


def test_an_ordinary_table_refuses_an_explicit_next_hand_before_anything_else(tables: Tables) -> None:
    """S5.3: an ordinary table refuses an explicit ``next_hand`` as such (``explicit_deal_not_allowed``),
    not as a ``next_hand`` during a hand (``hand_in_progress``, which is what a seeded one gets here),
    and stores nothing."""
    table_id = _seated(tables, "agonia", manual_deal=False, options={"target_points": 500})
    tables.start_match(table_id, OWNER, "start")
    version = tables.view(table_id, SPECTATOR)[0]
    with pytest.raises(CommandRejected) as refused:
        tables.act(table_id, OWNER, "n", {"kind": "next_hand", "deal": DEALS["agonia"][2]})
    assert (refused.value.reason, refused.value.rule) == ("explicit_deal_not_allowed", "S5.3")
    with pytest.raises(CommandRejected) as seeded:
        tables.act(table_id, OWNER, "n", {"kind": "next_hand", "deal": None})
    assert seeded.value.reason == "hand_in_progress"
    assert tables.view(table_id, SPECTATOR)[0] == version


def test_a_manual_deal_table_deals_an_explicit_next_hand(tables: Tables) -> None:
    """S5.3: at a ``manual_deal`` table two bots play the explicit first hand out; the table then waits
    (``needs_deal``) and the owner's explicit ``next_hand`` deals hand 2 from it: ``hands`` are per
    seat (S5.3), so seat 0 holds 2C-8C and seat 1 9C-AC and 2D again."""
    table_id, _ = tables.create_table("agonia", 2, {"target_points": 500}, manual_deal=True)
    for _ in range(2):
        tables.add_bot(table_id, "heuristic")
    tables.start_match(table_id, OWNER, "start", DEALS["agonia"][2])
    assert tables.settle(60)
    view = tables.view(table_id, OWNER)[1]
    assert (view["table"]["needs_deal"], view["hand_no"]) == (True, 1)
    tables.act(table_id, OWNER, "n2", {"kind": "next_hand", "deal": DEALS["agonia"][2]})
    started = [e for e in tables.stored_events(table_id) if e.name == "HandStarted"]
    assert [(e.payload["hand_no"], e.payload["explicit_deal"]) for e in started] == [(1, True), (2, True)]
    dealt = [e.payload for e in tables.stored_events(table_id) if e.name == "CardsDealt"][2:4]
    assert {d["seat"]: d["cards"] for d in dealt} == {0: D52[0:7], 1: D52[7:14]}


def test_over_grpc_an_ordinary_table_refuses_explicit_deals_with_failed_precondition(
    stub: table_pb2_grpc.TableServiceStub, auth: Any
) -> None:
    """S5.3 over the wire: ``StartMatch`` with a deal and ``Act`` ``next_hand`` with a deal at an
    ordinary table are FAILED_PRECONDITION, reason ``explicit_deal_not_allowed``, rule S5.3; the table's
    version does not move.  The same table then starts from a seed."""
    created = stub.CreateTable(pb.CreateTableRequest(game="agonia", seats=2, options={"target_points": 500}))
    for name in ("ann", "bob"):
        stub.JoinTable(pb.JoinTableRequest(table_id=created.table_id, name=name))
    owner = auth(created.owner_token)
    hands, starter, stock = (DEALS["agonia"][2][k] for k in ("hands", "starter", "stock"))
    deal = pb.ExplicitDeal(hands=[pb.CardList(cards=h) for h in hands], starter=starter, stock=stock)

    def version() -> int:
        return int(stub.GetView(pb.GetViewRequest(table_id=created.table_id)).view.version)

    with pytest.raises(grpc.RpcError) as first:
        stub.StartMatch(pb.StartMatchRequest(table_id=created.table_id, command_id="s", deal=deal), metadata=owner)
    info = error_info(first.value)
    assert (first.value.code(), info.reason, info.metadata["rule"]) == (
        grpc.StatusCode.FAILED_PRECONDITION,
        "explicit_deal_not_allowed",
        "S5.3",
    )
    assert "manual_deal" in str(first.value.details())
    assert version() == 4  # TableCreated, SeedCommitted (docs/shuffle.md 2a), two SeatTaken
    started = stub.StartMatch(pb.StartMatchRequest(table_id=created.table_id, command_id="s"), metadata=owner)
    next_hand = pb.Command(next_hand=pb.NextHand(deal=deal))
    with pytest.raises(grpc.RpcError) as later:
        stub.Act(pb.ActRequest(table_id=created.table_id, command_id="n", command=next_hand), metadata=owner)
    assert (later.value.code(), error_info(later.value).reason) == (
        grpc.StatusCode.FAILED_PRECONDITION,
        "explicit_deal_not_allowed",
    )
    assert version() == started.version


def test_a_table_for_explicit_deals_says_so_before_anyone_joins(
    stub: table_pb2_grpc.TableServiceStub, server: Any
) -> None:
    """S5.3: "such a table says so before anyone joins": ``ListTables`` and a spectator's view show
    ``manual_deal`` from the table's creation, true for a table created for explicit deals and false
    for an ordinary one; ``trapoula tables`` marks it."""
    manual = stub.CreateTable(pb.CreateTableRequest(game="agonia", seats=2, manual_deal=True)).table_id
    ordinary = stub.CreateTable(pb.CreateTableRequest(game="agonia", seats=2)).table_id
    listed = {t.table_id: t.manual_deal for t in stub.ListTables(pb.ListTablesRequest()).tables}
    assert (listed[manual], listed[ordinary]) == (True, False)
    for table_id, expected in ((manual, True), (ordinary, False)):
        view = json.loads(stub.GetView(pb.GetViewRequest(table_id=table_id)).view.view_json)
        assert (view["table"]["manual_deal"], view["table"]["seats"]) == (
            expected,
            [{"seat": 0, "free": True}, {"seat": 1, "free": True}],
        )
    out = io.StringIO()
    assert cli(["tables", "--address", f"127.0.0.1:{server.port}"], out=out) == 0
    lines = {line.split()[0]: line for line in out.getvalue().splitlines()}
    assert lines[manual].endswith("manual deal") and "manual deal" not in lines[ordinary]
