"""Who is playing: identity tokens from the embedding app, checked by the server (docs/identity.md),
the standings per verified player, and the table's governance: only the owner adds bots and starts
the match, and a private table is unlisted and joined with its invitation code (issue 19, points 1
and 2)."""

from __future__ import annotations

import io
import json
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import grpc
import jwt
import pytest
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec, ed25519
from grpc_helpers import SECRET, ServerThread, error_info, projected

from trapoula.api.v1 import table_pb2 as pb
from trapoula.api.v1 import table_pb2_grpc
from trapoula.clients.cli import main as cli
from trapoula.clients.errors import PermissionDenied as ClientPermissionDenied
from trapoula.clients.table import TableClient
from trapoula.service.application import Tables
from trapoula.service.errors import Unauthenticated
from trapoula.service.identity import IdentityVerifier, load_verifier, verifier_from_text
from trapoula.service.limits import Limits, LimitSettings, Rate

pytestmark = pytest.mark.timeout(180)

APP_SECRET = "the app's shared identity secret, 32+ bytes long"
"""The HS256 key the app signs its players' tokens with, in these tests."""


def token(
    sub: str, name: str | None = None, *, key: Any = APP_SECRET, alg: str = "HS256", kid: str = "", **claims: Any
) -> str:
    """An identity token as an app would issue it: ``sub``, ``name``, valid for ten minutes."""
    body: dict[str, Any] = {"sub": sub, "exp": int(time.time()) + 600, **claims}
    if name is not None:
        body["name"] = name
    return jwt.encode(body, key, algorithm=alg, headers={"kid": kid} if kid else None)


def refused(call: Any) -> tuple[grpc.StatusCode, str]:
    with pytest.raises(grpc.RpcError) as caught:
        call()
    info = error_info(caught.value)
    return caught.value.code(), info.reason if info is not None else ""


# --------------------------------------------------------------------------- the verifier alone


def test_a_shared_secret_verifies_the_apps_token_and_names_the_player() -> None:
    verifier = verifier_from_text(APP_SECRET + "\n")
    who = verifier.verify(token("u-17", "Ann Smith"))
    assert (who.player_id, who.name) == ("u-17", "Ann Smith")
    assert verifier.verify(token("u-18", preferred_username="bob")).name == "bob"  # no name: preferred_username
    assert verifier.verify(token("u-19")).name == "u-19"  # neither: the id


@pytest.mark.parametrize(
    ("make", "says"),
    [
        (lambda: "", "requires an identity token"),
        (lambda: "not-a-jwt", "not a JWT this server reads"),
        (lambda: token("u-1", "ann", key="another app's secret, also 32+ bytes"), "signature does not verify"),
        (lambda: token("u-1", "ann", exp=int(time.time()) - 3600), "expired"),
        (lambda: jwt.encode({"sub": "u-1", "name": "ann"}, APP_SECRET, algorithm="HS256"), "lacks the 'exp' claim"),
        (lambda: jwt.encode({"name": "ann", "exp": int(time.time()) + 60}, APP_SECRET, algorithm="HS256"), "'sub'"),
        (lambda: token("u-1", "ann", nbf=int(time.time()) + 3600), "not valid yet"),
        (lambda: token("u-1", "ann", aud="another-service"), "audience"),
        (lambda: jwt.encode({"sub": "u-1", "exp": int(time.time()) + 60}, "", algorithm="none"), "algorithm"),
    ],
    ids=["none", "malformed", "other-key", "expired", "no-exp", "no-sub", "not-yet", "other-audience", "alg-none"],
)
def test_a_token_that_does_not_verify_is_refused_by_name_never_quoted(make: Callable[[], str], says: str) -> None:
    """Each token is made when the test runs (one made at collection could expire before a slow run
    reaches it)."""
    bad = make()
    with pytest.raises(Unauthenticated) as caught:
        verifier_from_text(APP_SECRET).verify(bad)
    assert says in caught.value.message
    assert caught.value.reason == ("identity_required" if not bad else "bad_identity")
    assert not bad or bad not in caught.value.message


def test_a_public_key_verifies_only_its_own_algorithms(tmp_path: Path) -> None:
    """An Ed25519 PEM key takes EdDSA tokens only: an HS256 token "signed" with the public key's
    text (the algorithm-confusion attack) is refused."""
    private = ed25519.Ed25519PrivateKey.generate()
    pem = private.public_key().public_bytes(serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo)
    path = tmp_path / "app.pem"
    path.write_bytes(pem)
    verifier = load_verifier(path, audience="trapoula", issuer="https://app.example")
    good = token("u-5", "eve", key=private, alg="EdDSA", aud="trapoula", iss="https://app.example")
    assert verifier.verify(good).player_id == "u-5"
    for bad in (
        token("u-5", "eve", key=private, alg="EdDSA", aud="trapoula", iss="https://elsewhere.example"),
        token("u-5", "eve", key=private, alg="EdDSA", iss="https://app.example"),  # no aud
    ):
        with pytest.raises(Unauthenticated):
            verifier.verify(bad)
    confused = jwt.api_jws.PyJWS().encode(
        json.dumps(
            {"sub": "u-5", "exp": int(time.time()) + 60, "aud": "trapoula", "iss": "https://app.example"}
        ).encode(),
        b"a" * 32,
        algorithm="HS256",
    )
    with pytest.raises(Unauthenticated, match="algorithm"):
        verifier.verify(confused)


def test_a_jwk_set_picks_the_key_the_token_names() -> None:
    keys = {kid: ec.generate_private_key(ec.SECP256R1()) for kid in ("2026-11", "2026-12")}
    jwks = {
        "keys": [
            {**json.loads(jwt.algorithms.ECAlgorithm.to_jwk(k.public_key())), "kid": kid, "alg": "ES256", "use": "sig"}
            for kid, k in keys.items()
        ]
    }
    verifier = verifier_from_text(json.dumps(jwks))
    for kid, key in keys.items():
        assert verifier.verify(token("u-9", "zoe", key=key, alg="ES256", kid=kid)).name == "zoe"
    with pytest.raises(Unauthenticated, match="signature"):  # the right kid, signed by the other key
        verifier.verify(token("u-9", "zoe", key=keys["2026-11"], alg="ES256", kid="2026-12"))
    with pytest.raises(Unauthenticated, match="key id"):
        verifier.verify(token("u-9", "zoe", key=keys["2026-11"], alg="ES256", kid="2025-01"))


def test_a_key_file_with_no_usable_key_is_refused_before_anything_starts(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="at least 32 bytes"):
        verifier_from_text("short")
    with pytest.raises(ValueError, match="JWK Set"):
        verifier_from_text('{"keys": [{"kty": "nope"}]}')
    with pytest.raises(ValueError, match="no-such-file"):
        load_verifier(tmp_path / "no-such-file")


# --------------------------------------------------------------------------- over gRPC


@pytest.fixture
def verified(tmp_path: Path) -> Iterator[tuple[Tables, ServerThread, str]]:
    """A server configured with the app's key, answering the read models; ``(tables, server, url)``."""
    url = f"sqlite:///{tmp_path / 'verified.sqlite3'}"
    tables = Tables(url, SECRET, identity=IdentityVerifier({"": (APP_SECRET.encode(), ("HS256",))}))
    try:
        with projected(tables, url) as (server, _):
            yield tables, server, url
    finally:
        tables.close()


def test_with_a_key_creating_and_joining_need_a_valid_token_and_a_refusal_stores_nothing(
    verified: tuple[Tables, ServerThread, str],
) -> None:
    tables, server, _ = verified
    ann = token("u-ann", "Ann Smith")
    with grpc.insecure_channel(server.address) as channel:
        stub = table_pb2_grpc.TableServiceStub(channel)
        create = pb.CreateTableRequest(game="agonia", seats=2)
        assert refused(lambda: stub.CreateTable(create)) == (grpc.StatusCode.UNAUTHENTICATED, "identity_required")
        assert stub.ListTables(pb.ListTablesRequest()).tables == []
        created = stub.CreateTable(pb.CreateTableRequest(game="agonia", seats=2, identity_token=ann))
        tid = created.table_id
        before = len(tables.stored_events(tid))
        cases = [
            (pb.JoinTableRequest(table_id=tid), (grpc.StatusCode.UNAUTHENTICATED, "identity_required")),
            (
                pb.JoinTableRequest(table_id=tid, identity_token=token("u-ann", "Ann", key="x" * 40)),
                (grpc.StatusCode.UNAUTHENTICATED, "bad_identity"),
            ),
            (
                pb.JoinTableRequest(table_id=tid, identity_token=token("u-ann", "Ann", exp=int(time.time()) - 120)),
                (grpc.StatusCode.UNAUTHENTICATED, "bad_identity"),
            ),
            # ann's token, another player's name: refused, whoever typed it
            (
                pb.JoinTableRequest(table_id=tid, name="bob", identity_token=ann),
                (grpc.StatusCode.PERMISSION_DENIED, "identity_mismatch"),
            ),
        ]
        for request, want in cases:
            assert refused(lambda r=request: stub.JoinTable(r)) == want
        assert len(tables.stored_events(tid)) == before
        rid = "r" * 24
        joined = stub.JoinTable(pb.JoinTableRequest(table_id=tid, identity_token=ann, request_id=rid))
        # the same request id again, with bob's token: the seat is ann's, bob may not have it
        bob = token("u-bob", "Bob")
        retried = pb.JoinTableRequest(table_id=tid, identity_token=bob, request_id=rid)
        assert refused(lambda: stub.JoinTable(retried)) == (grpc.StatusCode.PERMISSION_DENIED, "identity_mismatch")
        again = stub.JoinTable(pb.JoinTableRequest(table_id=tid, identity_token=ann, request_id=rid))
        assert (again.seat, again.seat_token) == (joined.seat, joined.seat_token)
    taken = [e.payload for e in tables.stored_events(tid) if e.name == "SeatTaken"]
    assert taken == [
        {"seat": 0, "name": "Ann Smith", "bot": None, "token_hash": taken[0]["token_hash"], "player_id": "u-ann"}
    ]


def play_to_the_end(address: str, tables: Tables, identity: str | None, name: str) -> str:
    """A two-seat, one-hand agonia match (R7 target 0): the token's player (or ``name``, without
    one) against a heuristic bot, moved by this client from its view's legal moves; the table id."""
    with TableClient(address, identity_token=identity, seeds=False) as me:
        table_id = me.create_table("agonia", 2, {"target_points": 0}).table_id
        me.join(table_id, name)
        me.add_bot(table_id, "heuristic")
        me.start_match(table_id)
        for _ in range(500):
            assert tables.settle(60)
            view = me.view(table_id).view
            if view["table"]["status"] == "over":
                return table_id
            me.act(table_id, view["legal"][0])
    raise AssertionError("the match did not end")


def eventually(read: Any, want: Any, timeout: float = 20.0) -> Any:
    deadline = time.monotonic() + timeout
    while (got := read()) != want and time.monotonic() < deadline:
        time.sleep(0.05)
    return got


def test_standings_count_per_verified_player_not_per_name(verified: tuple[Tables, ServerThread, str]) -> None:
    """Two players who both call themselves "ann" are two rows; one player whose app renamed her is
    one row under her latest name (R7: target 0 is a one-hand match)."""
    tables, server, _ = verified
    first = play_to_the_end(server.address, tables, token("u-1", "ann"), "")
    second = play_to_the_end(server.address, tables, token("u-2", "ann"), "")
    third = play_to_the_end(server.address, tables, token("u-1", "Ann B."), "")
    with grpc.insecure_channel(server.address) as channel:
        stub = table_pb2_grpc.TableServiceStub(channel)

        def matches() -> list[Any]:
            return list(stub.ListMatches(pb.ListMatchesRequest(game="agonia")).matches)

        assert len(eventually(lambda: len(matches()), 3) and matches()) == 3
        won = {
            m.table_id: {p.player_id: p.won for p in m.players if p.verified}
            for m in stub.ListMatches(pb.ListMatchesRequest()).matches
        }
        mine = stub.ListMatches(pb.ListMatchesRequest(player_id="u-1")).matches
        assert sorted(m.table_id for m in mine) == sorted([first, third])
        with TableClient(server.address) as client:
            page = client.matches(player_id="u-2")
            assert [m.table_id for m in page.items] == [second]
            assert [(p.player_id, p.verified) for p in page.items[0].players if not p.bot] == [("u-2", True)]
        seat = next(p for p in mine[0].players if p.bot == "")
        assert (seat.player_id, seat.verified, seat.name) == ("u-1", True, "Ann B.")  # newest first
        rows = {
            (r.player_id, r.verified): r for r in stub.GetStandings(pb.GetStandingsRequest(game="agonia")).standings
        }
        u1, u2 = rows[("u-1", True)], rows[("u-2", True)]
        assert (u1.player, u1.played, u1.won) == ("Ann B.", 2, won[first]["u-1"] + won[third]["u-1"])
        assert (u2.player, u2.played, u2.won) == ("ann", 1, int(won[second]["u-2"]))
        bots = rows[("", False)]
        assert (bots.player, bots.bot, bots.played) == ("heuristic bot 1", "heuristic", 3)
        assert len(rows) == 3
    out = io.StringIO()
    assert cli(["standings", "--game", "agonia", "--address", server.address], out=out) == 0
    ids = sorted(line.split()[-1] for line in out.getvalue().splitlines()[1:])
    assert ids == ["-", "u-1", "u-2"]
    out = io.StringIO()
    assert cli(["history", "--address", server.address], out=out) == 0
    assert "(unverified)" not in out.getvalue() and "Ann B." in out.getvalue()


def test_an_anonymous_server_marks_names_unverified(store: Any) -> None:
    tables = store.open()
    try:
        with projected(tables, store.url, store.schema) as (server, _):
            played = play_to_the_end(server.address, tables, token("u-1", "ann"), "ann")  # the token is ignored
            with grpc.insecure_channel(server.address) as channel:
                stub = table_pb2_grpc.TableServiceStub(channel)
                found = eventually(lambda: len(stub.ListMatches(pb.ListMatchesRequest()).matches), 1)
                assert found == 1
                (match,) = stub.ListMatches(pb.ListMatchesRequest()).matches
                assert match.table_id == played
                assert {(p.name, p.player_id, p.verified) for p in match.players} == {
                    ("ann", "", False),
                    ("heuristic bot 1", "", False),
                }
                rows = stub.GetStandings(pb.GetStandingsRequest()).standings
                assert {(r.player, r.player_id, r.verified, r.played) for r in rows} == {
                    ("ann", "", False, 1),
                    ("heuristic bot 1", "", False, 1),
                }
            out = io.StringIO()
            assert cli(["history", "--address", server.address], out=out) == 0
            assert "ann (unverified)" in out.getvalue() and "heuristic bot 1 (unverified)" not in out.getvalue()
            out = io.StringIO()
            assert cli(["standings", "--address", server.address], out=out) == 0
            assert sorted(line.split()[-1] for line in out.getvalue().splitlines()[1:]) == ["-", "unverified"]
        taken = [e.payload for e in tables.stored_events(played) if e.name == "SeatTaken"]
        assert all("player_id" not in p for p in taken)  # an anonymous seat stores what it always stored
    finally:
        tables.close()


# --------------------------------------------------------------------------- governance


def test_a_stranger_cannot_add_bots_to_or_start_anothers_table(store: Any) -> None:
    tables = store.open()
    try:
        with ServerThread(tables) as server, grpc.insecure_channel(server.address) as channel:
            stub = table_pb2_grpc.TableServiceStub(channel)
            created = stub.CreateTable(pb.CreateTableRequest(game="agonia", seats=3))
            tid = created.table_id
            owner = (("authorization", f"Bearer {created.owner_token}"),)
            ann = stub.JoinTable(pb.JoinTableRequest(table_id=tid, name="ann"))
            seat = (("authorization", f"Bearer {ann.seat_token}"),)
            before = len(tables.stored_events(tid))
            bot = pb.AddBotRequest(table_id=tid, level="random")
            for metadata in ((), seat):
                assert refused(lambda m=metadata: stub.AddBot(bot, metadata=m)) == (
                    grpc.StatusCode.PERMISSION_DENIED,
                    "owner_only",
                )
            assert len(tables.stored_events(tid)) == before
            assert stub.AddBot(bot, metadata=owner).seat == 1
            assert stub.AddBot(bot, metadata=owner).seat == 2
            start = pb.StartMatchRequest(table_id=tid, command_id="go")
            assert refused(lambda: stub.StartMatch(start, metadata=seat)) == (
                grpc.StatusCode.PERMISSION_DENIED,
                "owner_only",
            )
            assert refused(lambda: stub.StartMatch(start)) == (grpc.StatusCode.PERMISSION_DENIED, "permission_denied")
            assert len(tables.stored_events(tid)) == before + 2
            assert stub.StartMatch(start, metadata=owner).version > before + 2
    finally:
        tables.close()


def test_a_private_table_is_unlisted_and_joined_only_with_its_code(store: Any) -> None:
    tables = store.open()
    try:
        with (
            projected(tables, store.url, store.schema) as (server, _),
            grpc.insecure_channel(server.address) as channel,
        ):
            stub = table_pb2_grpc.TableServiceStub(channel)
            public = stub.CreateTable(pb.CreateTableRequest(game="agonia", seats=2))
            private = stub.CreateTable(pb.CreateTableRequest(game="agonia", seats=2, private=True))
            assert public.invitation_code == "" and len(private.invitation_code) == 22
            later = stub.CreateTable(pb.CreateTableRequest(game="mau_mau", seats=2))
            listed = [t.table_id for t in stub.ListTables(pb.ListTablesRequest()).tables]
            assert listed == [later.table_id, public.table_id]
            lobby = eventually(
                lambda: [t.table_id for t in stub.ListLobby(pb.ListLobbyRequest()).tables],
                [later.table_id, public.table_id],
            )
            assert lobby == [later.table_id, public.table_id]
            tid = private.table_id
            before = len(tables.stored_events(tid))
            for code in ("", "x" * 22, public.invitation_code):
                request = pb.JoinTableRequest(table_id=tid, name="eve", invitation_code=code)
                assert refused(lambda r=request: stub.JoinTable(r)) == (
                    grpc.StatusCode.PERMISSION_DENIED,
                    "bad_invitation",
                )
            assert len(tables.stored_events(tid)) == before
            joined = stub.JoinTable(
                pb.JoinTableRequest(table_id=tid, name="ann", invitation_code=private.invitation_code)
            )
            assert joined.seat == 0
            # a public table takes any code, or none
            assert (
                stub.JoinTable(pb.JoinTableRequest(table_id=public.table_id, name="bo", invitation_code="z")).seat == 0
            )
            created = next(e for e in tables.stored_events(tid) if e.name == "TableCreated")
            assert created.payload["private"] is True
            first = next(e for e in tables.stored_events(public.table_id) if e.name == "TableCreated")
            assert "private" not in first.payload
            # the Python client sends the owner token it was given, and the code
            with TableClient(server.address) as owner, TableClient(server.address) as guest:
                made = owner.create_table("agonia", 2, private=True)
                with pytest.raises(ClientPermissionDenied):
                    guest.join(made.table_id, "eve")
                assert guest.join(made.table_id, "eve", invitation_code=made.invitation_code).seat == 0
                with pytest.raises(ClientPermissionDenied):
                    guest.add_bot(made.table_id, "random")
                owner.add_bot(made.table_id, "random")
                assert owner.start_match(made.table_id).version > 0
    finally:
        tables.close()


def test_with_a_key_each_verified_player_has_an_allowance_of_its_own(tmp_path: Path) -> None:
    """The limits per client (docs/operations.md) count a verified player, not the address it calls
    from: one address, two players, one table a player at most; a refusal stores nothing."""
    url = f"sqlite:///{tmp_path / 'limited.sqlite3'}"
    tables = Tables(url, SECRET, identity=IdentityVerifier({"": (APP_SECRET.encode(), ("HS256",))}))
    limits = Limits(LimitSettings(create=Rate(0.001, 1)))
    try:
        with ServerThread(tables, limits=limits) as server, grpc.insecure_channel(server.address) as channel:
            stub = table_pb2_grpc.TableServiceStub(channel)
            for player in ("u-1", "u-2"):
                stub.CreateTable(pb.CreateTableRequest(game="agonia", seats=2, identity_token=token(player)))
            again = pb.CreateTableRequest(game="agonia", seats=2, identity_token=token("u-1"))
            with pytest.raises(grpc.RpcError) as caught:
                stub.CreateTable(again)
            assert caught.value.code() == grpc.StatusCode.RESOURCE_EXHAUSTED
            assert "CreateTable: more than 1 calls at once" in (caught.value.details() or "")
            assert len(stub.ListTables(pb.ListTablesRequest()).tables) == 2
    finally:
        tables.close()


def test_a_request_id_is_the_creators_own_and_a_retry_gets_the_table_as_it_was_made(tmp_path: Path) -> None:
    """Another player replaying ann's request id makes a table of its own (never ann's owner token);
    a retry answers the table as the first call made it (its invitation code follows the table, not
    the retry), and a retry at the open-table limit is answered, not refused."""
    url = f"sqlite:///{tmp_path / 'retries.sqlite3'}"
    tables = Tables(url, SECRET, identity=IdentityVerifier({"": (APP_SECRET.encode(), ("HS256",))}))
    limits = Limits(LimitSettings(max_open_tables=2))
    try:
        with ServerThread(tables, limits=limits) as server, grpc.insecure_channel(server.address) as channel:
            stub = table_pb2_grpc.TableServiceStub(channel)
            rid, ann, bob = "r" * 32, token("u-ann"), token("u-bob")
            made = stub.CreateTable(pb.CreateTableRequest(game="agonia", seats=2, identity_token=ann, request_id=rid))
            again = stub.CreateTable(
                pb.CreateTableRequest(game="agonia", seats=2, identity_token=ann, request_id=rid, private=True)
            )
            assert (again.table_id, again.owner_token, again.invitation_code) == (made.table_id, made.owner_token, "")
            theirs = stub.CreateTable(pb.CreateTableRequest(game="agonia", seats=2, identity_token=bob, request_id=rid))
            assert theirs.table_id != made.table_id and theirs.owner_token != made.owner_token
            hidden = pb.CreateTableRequest(
                game="agonia", seats=2, identity_token=ann, request_id="p" * 32, private=True
            )
            first = stub.CreateTable(hidden)
            assert len(first.invitation_code) == 22
            hidden.private = False  # the retry's flag does not change the table
            assert stub.CreateTable(hidden).invitation_code == first.invitation_code
            # ann now owns two open tables, the limit: her retries are answered, a new table is not made
            assert stub.CreateTable(hidden).table_id == first.table_id
            fresh = pb.CreateTableRequest(game="agonia", seats=2, identity_token=ann, request_id="q" * 32)
            with pytest.raises(grpc.RpcError) as caught:
                stub.CreateTable(fresh)
            assert caught.value.code() == grpc.StatusCode.RESOURCE_EXHAUSTED
            listed = {t.table_id for t in stub.ListTables(pb.ListTablesRequest()).tables}
            assert listed == {made.table_id, theirs.table_id}
    finally:
        tables.close()
