"""The players' seeds (docs/shuffle.md 2a; :mod:`trapoula.domain.seeding`): the server commits to
its seed of a hand before any seat may give one, each seat may give its own, the hand is dealt from
the server's seed mixed with the seats' seeds, and the server's seed is revealed when the hand
ends.  ``GiveSeed`` refuses bad input and changes nothing then; the Python client gives a random
seed by itself; ``verify`` recomputes the mix (REC9) and finds every edit of it."""

from __future__ import annotations

import functools
import hashlib
import hmac
import json
from collections.abc import Callable
from typing import Any

import grpc
import pytest
from grpc_helpers import SECRET, Lines, bot_record, error_info, rechained, view_of

from trapoula.api.v1 import table_pb2 as pb
from trapoula.api.v1 import table_pb2_grpc
from trapoula.clients.table import TableClient
from trapoula.domain.audit import audit_record
from trapoula.domain.seeding import mix_seeds
from trapoula.domain.signing import key_from_secret, key_id, public_key_hex
from trapoula.service.application import Tables

Stub = table_pb2_grpc.TableServiceStub
Meta = tuple[tuple[str, str], ...]

ANN_SEED = "11" * 32
BOB_SEED = "22" * 32


def server_seed(table_id: str, hand: int) -> str:
    """The reference server's seed of a hand (docs/shuffle.md 1): HMAC-SHA256(secret, "table_id/hand")."""
    return hmac.new(SECRET, f"{table_id}/{hand}".encode(), hashlib.sha256).hexdigest()


def two_seats(stub: Stub, auth: Callable[[str], Meta], manual_deal: bool = False) -> tuple[str, Meta, Meta, Meta]:
    """A two-seat agonia table to 500 points: ``(table_id, owner, seat 0, seat 1)`` metadata."""
    created = stub.CreateTable(
        pb.CreateTableRequest(game="agonia", seats=2, options={"target_points": 500}, manual_deal=manual_deal)
    )
    seats = [stub.JoinTable(pb.JoinTableRequest(table_id=created.table_id, name=n)) for n in ("ann", "bob")]
    return created.table_id, auth(created.owner_token), auth(seats[0].seat_token), auth(seats[1].seat_token)


def refusal(call: Callable[[], Any]) -> tuple[grpc.StatusCode, str]:
    with pytest.raises(grpc.RpcError) as exc:
        call()
    return exc.value.code(), error_info(exc.value).reason


def test_a_seats_seed_is_mixed_into_the_deal_exactly_as_documented(
    stub: Stub, tables: Tables, auth: Callable[[str], Meta]
) -> None:
    """Section 2a: hand 1's server seed is committed at creation (SHA-256 of HMAC(secret,
    "table_id/1")); ann gives 11..11, bob none; hand 1 is dealt from mix_seeds(server seed,
    {0: 11..11}) and its HandStarted commits to that; hand 2's server seed is committed just
    before hand 1's deal, and the views name hand 2 as the one awaiting seeds."""
    table_id, owner, ann, _bob = two_seats(stub, auth)
    given = stub.GiveSeed(pb.GiveSeedRequest(table_id=table_id, seed=ANN_SEED), metadata=ann)
    assert given.hand == 1
    _, view = view_of(stub, table_id, ann)
    assert view["table"]["seed"] == {
        "hand": 1,
        "commitment": hashlib.sha256(bytes.fromhex(server_seed(table_id, 1))).hexdigest(),
        "given": [0],
    }
    assert view["table"]["seat"] == 0
    stub.StartMatch(pb.StartMatchRequest(table_id=table_id, command_id="go"), metadata=owner)
    events = tables.stored_events(table_id)
    names = [e.name for e in events]
    assert names[:6] == ["TableCreated", "SeedCommitted", "SeatTaken", "SeatTaken", "SeedGiven", "MatchStarted"]
    assert names[6:8] == ["SeedCommitted", "HandStarted"]  # hand 2's commitment, just before hand 1's deal
    assert events[4].payload == {"hand": 1, "seat": 0, "seed": ANN_SEED} and events[4].actor == "seat:0"
    assert events[6].payload == {
        "hand": 2,
        "commitment": hashlib.sha256(bytes.fromhex(server_seed(table_id, 2))).hexdigest(),
    }
    started = events[7].payload
    deck_seed = mix_seeds(server_seed(table_id, 1), [(0, ANN_SEED)])
    assert started["seed"] == deck_seed != server_seed(table_id, 1)
    assert started["commitment"] == hashlib.sha256(bytes.fromhex(deck_seed)).hexdigest()
    assert view_of(stub, table_id, ann)[1]["table"]["seed"]["hand"] == 2
    assert view_of(stub, table_id)[1]["table"]["seed"]["given"] == []  # a spectator sees who gave, too


def test_give_seed_refuses_bad_input_and_changes_nothing(stub: Stub, auth: Callable[[str], Meta]) -> None:
    """Each refusal is typed and leaves the version where it was; the same seed again is answered
    as the first was and stores nothing."""
    table_id, owner, ann, bob = two_seats(stub, auth)

    def version() -> int:
        return view_of(stub, table_id)[0]

    first = stub.GiveSeed(pb.GiveSeedRequest(table_id=table_id, seed=ANN_SEED, hand=1), metadata=ann)
    before = version()
    assert (first.hand, first.version) == (1, before)
    again = stub.GiveSeed(pb.GiveSeedRequest(table_id=table_id, seed=ANN_SEED), metadata=ann)
    assert (again.hand, again.version) == (1, before)  # a retried call: nothing more stored
    cases: list[tuple[pb.GiveSeedRequest, Meta, grpc.StatusCode, str]] = [
        (pb.GiveSeedRequest(table_id=table_id, seed=BOB_SEED), ann, grpc.StatusCode.FAILED_PRECONDITION, "seed_given"),
        (pb.GiveSeedRequest(table_id=table_id, seed="AB" * 32), bob, grpc.StatusCode.INVALID_ARGUMENT, "bad_seed"),
        (pb.GiveSeedRequest(table_id=table_id, seed="ab" * 31), bob, grpc.StatusCode.INVALID_ARGUMENT, "bad_seed"),
        (pb.GiveSeedRequest(table_id=table_id, seed=BOB_SEED), (), grpc.StatusCode.PERMISSION_DENIED, "seat_only"),
        (pb.GiveSeedRequest(table_id=table_id, seed=BOB_SEED), owner, grpc.StatusCode.PERMISSION_DENIED, "seat_only"),
        (
            pb.GiveSeedRequest(table_id=table_id, seed=BOB_SEED, hand=2),
            bob,
            grpc.StatusCode.FAILED_PRECONDITION,
            "seed_too_late",
        ),
        (pb.GiveSeedRequest(table_id="nope", seed=BOB_SEED), bob, grpc.StatusCode.INVALID_ARGUMENT, "bad_table_id"),
    ]
    for request, metadata, code, reason in cases:
        assert refusal(functools.partial(stub.GiveSeed, request, metadata=metadata)) == (code, reason), request
        assert version() == before
    stub.StartMatch(pb.StartMatchRequest(table_id=table_id, command_id="go"), metadata=owner)
    late = pb.GiveSeedRequest(table_id=table_id, seed=BOB_SEED, hand=1)  # hand 1 is dealt
    assert refusal(lambda: stub.GiveSeed(late, metadata=bob)) == (grpc.StatusCode.FAILED_PRECONDITION, "seed_too_late")
    assert stub.GiveSeed(pb.GiveSeedRequest(table_id=table_id, seed=BOB_SEED), metadata=bob).hand == 2


def test_a_table_for_explicit_deals_takes_no_seeds(stub: Stub, auth: Callable[[str], Meta]) -> None:
    """S5.3: its hands are dealt as entered; it commits to no server seed and refuses ``no_seeds``."""
    table_id, _owner, ann, _bob = two_seats(stub, auth, manual_deal=True)
    request = pb.GiveSeedRequest(table_id=table_id, seed=ANN_SEED)
    assert refusal(lambda: stub.GiveSeed(request, metadata=ann)) == (grpc.StatusCode.FAILED_PRECONDITION, "no_seeds")
    version, view = view_of(stub, table_id, ann)
    assert version == 3 and view["table"]["seed"] is None  # TableCreated and two SeatTaken: no SeedCommitted


def test_the_python_client_gives_a_random_seed_by_itself(tables: Tables, server: Any) -> None:
    """The client gives 32 random bytes on joining, and before its first move after a deal; with
    ``seeds=False`` it gives none.  Two clients' seeds differ."""
    address = f"127.0.0.1:{server.port}"
    with TableClient(address) as owner:
        table_id = owner.create_table("agonia", seats=3, options={"target_points": 500}).table_id
        with TableClient(address) as ann, TableClient(address) as bob, TableClient(address, seeds=False) as cat:
            ann.join(table_id, "ann")
            bob.join(table_id, "bob")
            cat.join(table_id, "cat")
            given = [e.payload for e in tables.stored_events(table_id) if e.name == "SeedGiven"]
            assert [g["seat"] for g in given] == [0, 1] and given[0]["seed"] != given[1]["seed"]
            assert all(len(g["seed"]) == 64 and set(g["seed"]) <= set("0123456789abcdef") for g in given)
            owner.token = None
            owner.start_match(table_id)  # only the owner starts the match
            started = ann.view(table_id)
            assert started.view["table"]["seed"]["hand"] == 2  # owed: given before ann's next move
            assert not [e for e in tables.stored_events(table_id) if e.name == "SeedGiven" and e.payload["hand"] == 2]
            for client in (ann, bob, cat):
                view = client.view(table_id).view
                if view["legal"]:
                    client.act(table_id, view["legal"][0])
            hand_2 = [e.payload["seat"] for e in tables.stored_events(table_id) if e.name == "SeedGiven"][2:]
            assert 2 not in hand_2 and set(hand_2) <= {0, 1}


def test_get_signing_key_publishes_the_key_that_signs_the_records(stub: Stub) -> None:
    """docs/record.md 2.5: the public key a record's header names as signer, and its short id."""
    key = stub.GetSigningKey(pb.GetSigningKeyRequest())
    public = public_key_hex(key_from_secret(SECRET))
    assert (key.scheme, key.public_key, key.key_id) == ("ed25519", public, key_id(public))


# --------------------------------------------------------------------------- verify (REC9)


@pytest.fixture
def record(tables: Tables) -> Lines:
    """A finished agonia match of two heuristic bots to 0 points (one hand, R7.1), its record parsed."""
    return bot_record(tables)


def rec9(lines: Lines) -> list[str]:
    return [p.message for p in audit_record(rechained(lines)).problems if p.rule == "REC9"]


def copy_of(record: Lines) -> Lines:
    return [json.loads(json.dumps(line)) for line in record]


def test_verify_reports_each_hand_with_its_server_seed_and_the_seats_seeds(record: Lines) -> None:
    report = audit_record(record)
    assert report.ok, report.summary()
    (hand,) = report.results
    table_id = record[0]["table_id"]
    bots = [hmac.new(SECRET, f"{table_id}/seed/1/{s}".encode(), hashlib.sha256).hexdigest() for s in (0, 1)]
    assert hand.server_seed == server_seed(table_id, 1)
    assert hand.player_seeds == ((0, bots[0]), (1, bots[1]))
    assert hand.seed == mix_seeds(hand.server_seed, hand.player_seeds)
    line = hand.line(str)
    assert f"server seed {hand.server_seed} (committed {hand.server_commitment})" in line
    assert "mixed with the seeds of seats: 0, 1" in line
    assert report.to_json()["results"][0]["player_seeds"] == [[0, bots[0]], [1, bots[1]]]


def test_every_edit_of_the_players_seeds_is_found(record: Lines) -> None:
    """REC9, each edit made with the hash chain recomputed (the signature aside, REC8)."""
    given = next(i for i, line in enumerate(record) if line.get("name") == "SeedGiven")
    revealed = next(i for i, line in enumerate(record) if line.get("name") == "ServerSeedRevealed")
    committed = next(i for i, line in enumerate(record) if line.get("name") == "SeedCommitted")

    changed = copy_of(record)
    changed[given]["payload"]["seed"] = "33" * 32  # a seat's seed swapped after the fact
    assert rec9(changed) == ["hand 1's deck seed is not the server's seed mixed with the seats' seeds"]

    dropped = copy_of(record)
    del dropped[given]  # a seat's seed left out
    for seq, line in enumerate(dropped[1:], start=1):
        line["seq"] = seq
    assert rec9(dropped) == ["hand 1's deck seed is not the server's seed mixed with the seats' seeds"]

    lied = copy_of(record)
    lied[revealed]["payload"]["seed"] = "44" * 32  # another server seed revealed
    (only,) = rec9(lied)  # reported where the wrong seed is revealed, and nowhere else
    assert only.startswith("hand 1: the server's seed does not hash to its commitment ")

    unrevealed = copy_of(record)
    del unrevealed[revealed]
    for seq, line in enumerate(unrevealed[1:], start=1):
        line["seq"] = seq
    assert "hand 1 is over but the server's seed is not revealed (ServerSeedRevealed)" in rec9(unrevealed)

    late = copy_of(record)
    late[committed]["payload"]["hand"] = 3  # hand 1 now dealt with no commitment first
    assert "hand 1: SeedGiven before the server committed to its seed" in rec9(late)

    shape = copy_of(record)
    shape[given]["payload"]["extra"] = 1
    assert rec9(shape) == [
        "SeedGiven has fields ['extra', 'hand', 'seat', 'seed'], not ['hand', 'seat', 'seed']",
        "hand 1's deck seed is not the server's seed mixed with the seats' seeds",
    ]
