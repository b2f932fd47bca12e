"""The ``Tables`` application without gRPC, on SQLite and on PostgreSQL (``store`` fixture).

Deals are explicit where a test needs to know the cards (S5.3); seeded deals are checked against
HMAC-SHA256(secret, "table_id/hand_no") computed here by hand.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import random
import threading
import uuid
from typing import Any

import pytest
from eventsourcing.persistence import IntegrityError

from trapoula.domain import bots
from trapoula.domain.audit import audit_record
from trapoula.domain.chain import GENESIS, event_hash
from trapoula.domain.errors import CommandRejected, InvalidInput
from trapoula.domain.seeding import mix_seeds
from trapoula.domain.signing import Head, key_from_secret, public_key_hex, verify
from trapoula.service.application import OWNER, SPECTATOR, Principal, Tables, seat_principal
from trapoula.service.errors import AlreadyStarted, Conflict, PermissionDenied, SeatTaken, TableNotFound

SECRET = bytes.fromhex("5e" * 32)


def _choose(level: str, view: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    return bots.choose("agonia", view, level, rng)


def seated(tables: Tables, target: int = 0, **create: Any) -> tuple[str, str, str, str]:
    """A two-seat Agonia table with two people: ``(table_id, owner_token, token0, token1)``."""
    table_id, owner = tables.create_table("agonia", 2, {"target_points": target}, **create)
    _, t0 = tables.join(table_id, "ann", 0)
    _, t1 = tables.join(table_id, "bob", 1)
    return table_id, owner, t0, t1


def started(tables: Tables, deal: dict[str, Any] | None) -> tuple[str, Principal, Principal]:
    """A started two-person table (explicit deal, or seeded when None): ``(id, seat 0, seat 1)``.

    An explicit deal needs a table created for it (``manual_deal``, S5.3 as the rules owners answered).
    """
    table_id, _owner, t0, t1 = seated(tables, manual_deal=deal is not None)
    tables.start_match(table_id, OWNER, "start", deal)
    return table_id, tables.authenticate(table_id, t0), tables.authenticate(table_id, t1)


def names(tables: Tables, table_id: str) -> list[str]:
    return [e.name for e in tables.stored_events(table_id)]


def drive(tables: Tables, table_id: str, people: dict[int, Principal], until: Any, limit: int = 2000) -> None:
    """Play the people's seats with the heuristic policy until ``until(view)`` holds."""
    rng = random.Random(7)
    for n in range(limit):
        _, spectator_view = tables.view(table_id, SPECTATOR)
        if until(spectator_view):
            return
        for seat, principal in people.items():
            _, view = tables.view(table_id, principal)
            if view["legal"]:
                command = _choose("heuristic", view, rng)
                tables.act(table_id, principal, f"drive-{n}-{seat}", command)
                break
        else:
            raise AssertionError("nobody can move")
    raise AssertionError("the game did not reach the condition")


# --------------------------------------------------------------------------- creating and seating


def test_start_with_an_explicit_deal_stores_one_event_per_fact(tables: Tables, deal: dict[str, Any]) -> None:
    """S5.2/S5.3: the start stores MatchStarted, HandStarted, one CardsDealt per seat, the up-card, the turn
    (at a table created for explicit deals, S5.3 as the rules owners answered)."""
    table_id, _owner, _t0, _t1 = seated(tables, manual_deal=True)
    result = tables.start_match(table_id, OWNER, "start", deal)
    assert result.version == 9
    assert names(tables, table_id) == [
        "TableCreated", "SeatTaken", "SeatTaken", "MatchStarted", "HandStarted", "CardsDealt", "CardsDealt",
        "StarterTurned", "TurnStarted",
    ]  # fmt: skip
    assert [e.version for e in result.events] == [4, 5, 6, 7, 8, 9]
    dealt = [e.payload for e in result.events if e.name == "CardsDealt"]
    assert [d["cards"] for d in dealt] == [None, None]  # the owner sees no hand (S13.2)
    assert [d["count"] for d in dealt] == [7, 7]
    assert result.view["top_card"] == "3D" and result.view["to_act"] == 0


def test_joining_fills_free_seats_in_order_and_tokens_are_only_stored_hashed(tables: Tables) -> None:
    table_id, owner = tables.create_table("agonia", 3, {})
    seat_a, token_a = tables.join(table_id, "ann")
    seat_bot = tables.add_bot(table_id, "random")
    seat_b, token_b = tables.join(table_id, "bob")
    assert (seat_a, seat_bot, seat_b) == (0, 1, 2)
    stored = json.dumps([e.payload for e in tables.stored_events(table_id)])
    for token in (owner, token_a, token_b):
        assert token not in stored
    assert hashlib.sha256(token_a.encode()).hexdigest() in stored
    assert tables.authenticate(table_id, token_b) == seat_principal(2)
    assert tables.authenticate(table_id, owner) == OWNER
    assert tables.authenticate(table_id, None) == SPECTATOR


def test_seat_errors_change_nothing(tables: Tables) -> None:
    table_id, _owner = tables.create_table("agonia", 2, {})
    tables.join(table_id, "ann", 1)
    with pytest.raises(SeatTaken):
        tables.join(table_id, "bob", 1)
    with pytest.raises(InvalidInput) as bad_seat:
        tables.join(table_id, "bob", 2)
    assert bad_seat.value.reason == "bad_seat"
    with pytest.raises(InvalidInput) as bad_name:
        tables.join(table_id, "   ")
    assert bad_name.value.reason == "bad_name"
    with pytest.raises(InvalidInput) as bad_level:
        tables.add_bot(table_id, "genius")
    assert bad_level.value.reason == "bad_bot_level"
    assert tables.view(table_id, SPECTATOR)[0] == 3  # TableCreated, SeedCommitted (docs/shuffle.md 2a), SeatTaken
    tables.add_bot(table_id, "heuristic")
    with pytest.raises(SeatTaken) as full:
        tables.join(table_id, "cat")
    assert full.value.reason == "table_full"
    assert tables.view(table_id, SPECTATOR)[0] == 4  # the bot's SeatTaken; the refused join stored nothing


def test_the_match_starts_once_and_only_with_every_seat_taken(tables: Tables) -> None:
    """S3.1: every seat is taken before the first deal; a second start is ALREADY_EXISTS."""
    table_id, _owner = tables.create_table("agonia", 2, {})
    _, token = tables.join(table_id, "ann")
    with pytest.raises(CommandRejected) as free:
        tables.start_match(table_id, OWNER, "s1")
    assert (free.value.reason, free.value.rule) == ("seats_free", "S3.1")
    with pytest.raises(PermissionDenied):
        tables.start_match(table_id, SPECTATOR, "s1")
    tables.join(table_id, "bob")
    ann = tables.authenticate(table_id, token)
    with pytest.raises(PermissionDenied) as seat_start:  # only the owner starts the match (table governance)
        tables.start_match(table_id, ann, "s1")
    assert seat_start.value.reason == "owner_only"
    first = tables.start_match(table_id, OWNER, "s1")
    again = tables.start_match(table_id, OWNER, "s1")  # the same caller's command id: the first result
    assert (again.version, [e.name for e in again.events]) == (first.version, [e.name for e in first.events])
    with pytest.raises(PermissionDenied):
        tables.start_match(table_id, ann, "s1")  # ann's "s1" is another command, and not hers to give
    with pytest.raises(AlreadyStarted):
        tables.start_match(table_id, OWNER, "s2")
    with pytest.raises(AlreadyStarted):
        tables.add_bot(table_id, "random")
    assert tables.view(table_id, SPECTATOR)[0] == first.version


@pytest.mark.parametrize(
    ("game", "seats", "options", "extra", "reason"),
    [
        ("chess", 2, {}, {}, "unknown_game"),
        ("agonia", 5, {}, {}, "bad_seats"),
        ("agonia", 1, {}, {}, "bad_seats"),
        ("agonia", 2, {"jokers": True}, {}, "bad_option"),
        ("agonia", 2, {"target_points": 2.5}, {}, "bad_option"),
        ("agonia", 2, {}, {"first_dealer": 2}, "bad_config"),
        ("agonia", 2, {}, {"initial_totals": [1, 2, 3]}, "bad_config"),
    ],
)
def test_bad_tables_are_refused_before_anything_is_stored(
    tables: Tables, game: str, seats: int, options: dict[str, Any], extra: dict[str, Any], reason: str
) -> None:
    with pytest.raises(InvalidInput) as exc:
        tables.create_table(game, seats, options, **extra)
    assert exc.value.reason == reason
    assert list(tables.table_ids()) == []


# --------------------------------------------------------------------------- acting


def test_a_legal_play_is_stored_and_the_turn_passes(tables: Tables, deal: dict[str, Any]) -> None:
    """R4.1: 4D matches the suit of the up-card 3D; then it is seat 1's turn."""
    table_id, p0, p1 = started(tables, deal)
    result = tables.act(table_id, p0, "c1", {"kind": "play", "card": "4D"})
    assert result.version == 11
    assert [(e.name, e.payload.get("seat")) for e in result.events] == [("CardPlayed", 0), ("TurnStarted", 1)]
    assert result.view["hand"] == ["5C", "6H", "2S", "JS", "QS", "KS"]  # canonical order (S2.3)
    assert result.view["top_card"] == "4D" and result.view["to_act"] == 1
    assert tables.view(table_id, p1)[1]["hand_sizes"] == [6, 7]


def test_an_illegal_card_is_refused_with_its_rule_and_changes_nothing(tables: Tables, deal: dict[str, Any]) -> None:
    """R4.1: 5C matches neither the rank 3 nor the suit D of the up-card."""
    table_id, p0, _p1 = started(tables, deal)
    before = tables.record(table_id), tables.view(table_id, p0)
    with pytest.raises(CommandRejected) as exc:
        tables.act(table_id, p0, "c1", {"kind": "play", "card": "5C"})
    assert (exc.value.reason, exc.value.rule) == ("no_match", "R4.1")
    assert (tables.record(table_id), tables.view(table_id, p0)) == before
    # the refused id was not consumed: the same id may now carry a legal command
    assert tables.act(table_id, p0, "c1", {"kind": "play", "card": "4D"}).version == 11


def test_acting_out_of_turn_is_refused(tables: Tables, deal: dict[str, Any]) -> None:
    """S3.7: only the seat to act may play; seat 1 holds 3C, which would match, but waits."""
    table_id, _p0, p1 = started(tables, deal)
    with pytest.raises(CommandRejected) as exc:
        tables.act(table_id, p1, "c1", {"kind": "play", "card": "3C"})
    assert (exc.value.reason, exc.value.rule) == ("not_your_turn", "S3.7")
    assert tables.view(table_id, SPECTATOR)[0] == 9


@pytest.mark.parametrize(
    ("command", "reason"),
    [
        ({"kind": "play", "card": "1X"}, "bad_card"),
        ({"kind": "play", "card": 7}, "bad_card"),
        ({"kind": "fold"}, "bad_command"),
        ({"kind": "choose_suit", "suit": "X"}, "bad_suit"),
        ({"kind": "draw", "card": "4D"}, "bad_command"),
    ],
)
def test_malformed_commands_are_invalid_input_and_change_nothing(
    tables: Tables, deal: dict[str, Any], command: dict[str, Any], reason: str
) -> None:
    table_id, p0, _p1 = started(tables, deal)
    with pytest.raises(InvalidInput) as exc:
        tables.act(table_id, p0, "c1", command)
    assert exc.value.reason == reason
    assert tables.view(table_id, SPECTATOR)[0] == 9


def test_bad_command_ids_are_invalid_input(tables: Tables, deal: dict[str, Any]) -> None:
    table_id, p0, _p1 = started(tables, deal)
    for bad in ("", "x" * 129):
        with pytest.raises(InvalidInput) as exc:
            tables.act(table_id, p0, bad, {"kind": "draw"})
        assert exc.value.reason == "bad_command_id"
    assert tables.view(table_id, SPECTATOR)[0] == 9


def test_who_may_act(tables: Tables, deal: dict[str, Any]) -> None:
    """A spectator may not act; the owner has no seat; a token acts only for its own seat."""
    table_id, p0, _p1 = started(tables, deal)
    for principal, command in (
        (SPECTATOR, {"kind": "draw"}),
        (OWNER, {"kind": "draw"}),
        (p0, {"kind": "draw", "seat": 1}),
    ):
        with pytest.raises(PermissionDenied):
            tables.act(table_id, principal, "c1", command)
    with pytest.raises(PermissionDenied):
        tables.authenticate(table_id, "not-a-token")
    assert tables.view(table_id, SPECTATOR)[0] == 9
    # a seat field naming the caller's own seat is accepted (the view's legal payloads carry it)
    assert tables.act(table_id, p0, "c1", {"kind": "play", "seat": 0, "card": "4D"}).version == 11


def test_an_unknown_table_is_not_found(tables: Tables) -> None:
    table_id = str(uuid.uuid4())
    with pytest.raises(TableNotFound):
        tables.view(table_id, SPECTATOR)
    with pytest.raises(TableNotFound):
        tables.join(table_id, "ann")
    with pytest.raises(TableNotFound):
        tables.record(table_id)


def test_a_repeated_command_id_returns_the_first_result_and_stores_nothing(
    tables: Tables, deal: dict[str, Any]
) -> None:
    table_id, p0, _p1 = started(tables, deal)
    first = tables.act(table_id, p0, "same", {"kind": "draw"})
    again = tables.act(table_id, p0, "same", {"kind": "draw"})  # a second draw would be refused (R4.3)
    assert first.version == again.version == 10
    assert first.events == again.events
    assert [e.name for e in first.events] == ["CardsDrawn"]
    assert first.events[0].payload["cards"] == ["2C"]  # the stock's top: the first unused card in deck order
    assert len(tables.stored_events(table_id)) == 10
    with pytest.raises(CommandRejected) as exc:
        tables.act(table_id, p0, "other", {"kind": "draw"})
    assert (exc.value.reason, exc.value.rule) == ("already_drawn", "R4.3")


# --------------------------------------------------------------------------- seeds, records, visibility


def test_a_seeded_hand_commits_to_the_hmac_of_the_secret_and_reveals_it_at_the_end(tables: Tables) -> None:
    """S5.1 with the players' seeds (docs/shuffle.md 2a): the server's seed = HMAC-SHA256(secret,
    "table_id/1"), committed as SHA-256(seed) when the table is created; each bot's own seed =
    HMAC-SHA256(secret, "table_id/seed/1/seat"); the hand's seed = mix_seeds(server seed, the bots'
    seeds); HandStarted commits to it; both are revealed after the hand."""
    table_id, _owner = tables.create_table("agonia", 2, {"target_points": 0})
    tables.add_bot(table_id, "heuristic")
    tables.add_bot(table_id, "random")
    result = tables.start_match(table_id, OWNER, "go")  # bots play the whole one-hand match
    assert tables.settle(timeout=60)
    assert tables.view(table_id, SPECTATOR)[1]["table"]["status"] == "over"
    server = hmac.new(SECRET, f"{table_id}/1".encode(), hashlib.sha256).hexdigest()
    bots = [hmac.new(SECRET, f"{table_id}/seed/1/{s}".encode(), hashlib.sha256).hexdigest() for s in (0, 1)]
    seed = mix_seeds(server, enumerate(bots))
    events = tables.stored_events(table_id)
    assert events[1].name == "SeedCommitted"  # right after TableCreated: before any seat could give a seed
    assert events[1].payload == {"hand": 1, "commitment": hashlib.sha256(bytes.fromhex(server)).hexdigest()}
    given = [e.payload for e in events if e.name == "SeedGiven" and e.payload["hand"] == 1]
    assert given == [{"hand": 1, "seat": 0, "seed": bots[0]}, {"hand": 1, "seat": 1, "seed": bots[1]}]
    stored = {e.name: e.payload for e in events}
    assert stored["HandStarted"]["seed"] == seed
    assert stored["HandStarted"]["commitment"] == hashlib.sha256(bytes.fromhex(seed)).hexdigest()
    assert stored["SeedRevealed"]["seed"] == seed
    assert stored["ServerSeedRevealed"] == {"hand": 1, "seed": server}
    seen = [e for e in result.events if e.name == "HandStarted"]
    assert seen[0].payload["seed"] is None and seen[0].payload["deck"] is None  # hidden (S13.3)
    assert SECRET.hex() not in tables.record(table_id)[0]


def test_the_record_chains_every_event_of_a_finished_match(tables: Tables) -> None:
    table_id, _owner = tables.create_table("agonia", 2, {"target_points": 0})
    tables.add_bot(table_id, "heuristic")
    tables.add_bot(table_id, "heuristic")
    tables.start_match(table_id, OWNER, "go")
    assert tables.settle(timeout=60)
    final = tables.view(table_id, SPECTATOR)[0]
    jsonl, hands = tables.record(table_id)
    lines = [json.loads(line) for line in jsonl.splitlines()]
    header, events = lines[0], lines[1:]
    signature, key = header.pop("signature"), public_key_hex(key_from_secret(SECRET))
    heads = header.pop("heads")  # one signed head per hand's end (docs/record.md 2.5): here the one hand
    assert heads == [
        {"hands": 1, "events": final, "head": events[-1]["hash"], "complete": True, "signature": signature}
    ]
    assert header == {"format": "trapoula-record", "version": 2, "table_id": table_id, "game": "agonia",
                      "hands": 1, "events": final, "complete": True,
                      "signer": {"scheme": "ed25519", "public_key": key}}  # fmt: skip
    stated = Head(table_id, "agonia", final, events[-1]["hash"], 1, True)
    assert verify(header["signer"]["public_key"], stated, signature)  # docs/record.md 2.1
    assert hands == 1
    assert [e["seq"] for e in events] == list(range(1, final + 1))
    assert [e["name"] for e in events[-4:]] == ["HandEnded", "SeedRevealed", "ServerSeedRevealed", "MatchEnded"]
    prev = GENESIS
    for e in events:
        assert set(e) == {"seq", "name", "payload", "prev_hash", "hash"}
        assert e["prev_hash"] == prev
        assert e["hash"] == event_hash(prev, e["seq"], e["name"], e["payload"])
        prev = e["hash"]
    assert events[0]["payload"] == {"game": "agonia", "seats": 2, "options": {"target_points": 0},
                                    "first_dealer": None, "initial_totals": None, "manual_deal": False}  # fmt: skip


def test_the_record_never_holds_a_hand_in_progress(tables: Tables) -> None:
    """A record stops at the last SeedRevealed: nothing of the hand being played (DESIGN, Visibility).

    The first hand is dealt from a seed: this ordinary table deals hand 2 by itself, and an ordinary
    table accepts no explicit deal (S5.3 as the rules owners answered; the test used to deal hand 1
    explicitly)."""
    table_id, owner, t0, t1 = seated(tables, target=500)
    jsonl, hands = tables.record(table_id)
    assert (hands, len(jsonl.splitlines())) == (0, 5)  # header, TableCreated, SeedCommitted, 2 x SeatTaken
    tables.start_match(table_id, OWNER, "start")
    assert tables.record(table_id) == (jsonl, 0)  # hand 1 in progress: nothing of it
    people = {0: tables.authenticate(table_id, t0), 1: tables.authenticate(table_id, t1)}
    drive(tables, table_id, people, until=lambda view: view["hand_no"] == 2)
    jsonl, hands = tables.record(table_id)
    events = [json.loads(line) for line in jsonl.splitlines()[1:]]
    assert hands == 1
    assert [e["name"] for e in events[-2:]] == ["SeedRevealed", "ServerSeedRevealed"]
    assert [e["payload"]["hand_no"] for e in events if e["name"] == "HandStarted"] == [1]
    stored = tables.stored_events(table_id)
    # hand 2, dealt automatically with hand 3's server seed committed ahead of it, is left out
    assert [(e.name, e.actor) for e in stored[len(events) : len(events) + 2]] == [
        ("SeedCommitted", "table"),
        ("HandStarted", "table"),
    ]
    assert owner not in jsonl and t0 not in jsonl


_CARD = __import__("re").compile(r"\b[2-9TJQKA][CDHS]\b")


def _assert_nothing_hidden(item_event: Any, view: dict[str, Any], viewer: int | None) -> None:
    payload = item_event.payload
    if item_event.name in ("CardsDealt", "CardsDrawn") and payload["seat"] != viewer:
        assert payload["cards"] is None
    if item_event.name == "HandStarted":
        assert (payload["seed"], payload["deck"], payload["reshuffles"]) == (None, None, None)
    if item_event.name == "StockReshuffled":
        assert payload["order"] is None
    visible = set(view.get("hand", [])) | set(view["discard"])
    if "last_hand" in view:
        visible |= {c for hand in view["last_hand"]["hands"] for c in hand}
    shown = set(_CARD.findall(json.dumps({k: v for k, v in view.items() if k not in ("options", "table")})))
    assert shown <= visible, (viewer, shown - visible)


@pytest.mark.parametrize("seats", [2, 4])
def test_no_viewer_is_ever_shown_a_hidden_card(tables: Tables, seats: int) -> None:
    """S13.3: every event and view sent to every viewer, over whole bot matches of several hands."""
    table_id, _owner = tables.create_table("agonia", seats, {"target_points": 60})
    for i in range(seats):
        tables.add_bot(table_id, "random" if i % 2 else "heuristic")
    tables.start_match(table_id, OWNER, "go")
    assert tables.settle(timeout=60)
    viewers: list[int | None] = [None, *range(seats)]
    for viewer in viewers:
        principal = SPECTATOR if viewer is None else seat_principal(viewer)
        batch = tables.events_after(table_id, principal, 0, limit=100_000)
        assert batch.over
        assert [i.event.version for i in batch.items] == list(range(1, batch.head + 1))
        for item in batch.items:
            _assert_nothing_hidden(item.event, item.view, viewer)


def test_events_after_a_version_resume_with_no_gap_or_duplicate(tables: Tables, deal: dict[str, Any]) -> None:
    table_id, p0, p1 = started(tables, deal)
    tables.act(table_id, p0, "c1", {"kind": "play", "card": "4D"})
    first = tables.events_after(table_id, p1, 0, limit=4)
    assert [i.event.version for i in first.items] == [1, 2, 3, 4] and first.head == 11
    rest = tables.events_after(table_id, p1, 4)
    assert [i.event.version for i in rest.items] == list(range(5, 12))
    assert rest.items[0].view["hand"] == []  # v5 HandStarted: nothing dealt yet
    assert rest.items[2].view["hand"] == ["3C", "4C", "6C", "8H", "9H", "TH", "JH"]  # v7 seat 1's cards
    assert rest.items[-1].view["to_act"] == 1 and rest.items[-1].view["top_card"] == "4D"
    assert tables.events_after(table_id, p1, 11).items == ()
    with pytest.raises(InvalidInput):
        tables.events_after(table_id, p1, -1)


# --------------------------------------------------------------------------- bots and deals


def test_bots_play_a_match_of_several_hands_dealing_each_hand_themselves(tables: Tables) -> None:
    """R6.10: after a hand the next one is dealt automatically (seed of hand k: "table_id/k")."""
    table_id, _owner = tables.create_table("agonia", 3, {"target_points": 40})
    for level in ("heuristic", "random", "heuristic"):
        tables.add_bot(table_id, level)
    result = tables.start_match(table_id, OWNER, "go")
    assert tables.settle(timeout=60)
    stored = tables.stored_events(table_id)
    starts = [e for e in stored if e.name == "HandStarted"]
    assert tables.view(table_id, SPECTATOR)[1]["table"]["status"] == "over" and stored[-1].name == "MatchEnded"
    assert len(starts) >= 1 and [e.payload["hand_no"] for e in starts] == list(range(1, len(starts) + 1))
    for e in starts:  # docs/shuffle.md 2a: the server's seed mixed with the three bots' seeds
        hand = e.payload["hand_no"]
        server = hmac.new(SECRET, f"{table_id}/{hand}".encode(), hashlib.sha256).hexdigest()
        bots_seeds = [
            hmac.new(SECRET, f"{table_id}/seed/{hand}/{s}".encode(), hashlib.sha256).hexdigest() for s in range(3)
        ]
        assert e.payload["seed"] == mix_seeds(server, enumerate(bots_seeds))
    assert {e.actor for e in starts[1:]} <= {"table"} and starts[0].actor == "owner"
    assert {e.actor for e in stored if e.name == "CardPlayed"} <= {"bot:0", "bot:1", "bot:2"}
    # the start and the automatic play saved with it carry the command's id; later batches none
    go = [e for e in stored if e.command_id == "go"]
    assert go == list(stored[5 : result.version]) and len(go) <= 200  # after TableCreated, SeedCommitted, 3 seats
    assert {e.command_id for e in stored[result.version :]} <= {None}


def test_a_manual_deal_table_waits_for_next_hand(tables: Tables, make_deal: Any) -> None:
    """manual_deal: the owner (or a seat) sends next_hand; with an explicit deal the seed is None."""
    table_id, _owner = tables.create_table("agonia", 2, {"target_points": 500}, manual_deal=True)
    tables.add_bot(table_id, "heuristic")
    tables.add_bot(table_id, "heuristic")
    tables.start_match(table_id, OWNER, "go")
    assert tables.settle(timeout=60)
    result_view = tables.view(table_id, OWNER)[1]
    assert result_view["phase"] == "hand_over" and result_view["table"]["needs_deal"] is True
    with pytest.raises(PermissionDenied):
        tables.act(table_id, SPECTATOR, "n2", {"kind": "next_hand", "deal": None})
    tables.act(table_id, OWNER, "n2", {"kind": "next_hand", "deal": None})
    assert tables.settle(timeout=60)
    second_view = tables.view(table_id, OWNER)[1]
    started_2 = [e for e in tables.stored_events(table_id) if e.name == "HandStarted"][1]
    assert started_2.payload["hand_no"] == 2
    assert started_2.payload["seed"] == hmac.new(SECRET, f"{table_id}/2".encode(), hashlib.sha256).hexdigest()
    assert second_view["hand_no"] == 2 and second_view["phase"] == "hand_over"  # the bots played it out
    explicit = make_deal("4D 5C 6H KS QS JS 2S", "3C 4C 6C 8H 9H TH JH", "3D")
    third = tables.act(table_id, OWNER, "n3", {"kind": "next_hand", "deal": explicit})
    started_3 = [e for e in tables.stored_events(table_id) if e.name == "HandStarted"][2]
    assert (started_3.payload["explicit_deal"], started_3.payload["seed"]) == (True, None)
    assert third.view["hand_no"] == 3
    with pytest.raises(InvalidInput):
        tables.act(table_id, OWNER, "n4", {"kind": "next_hand", "deal": {"hands": []}})


# --------------------------------------------------------------------------- concurrency and persistence


def test_two_replicas_racing_on_one_table_apply_exactly_one_command(store: Any, deal: dict[str, Any]) -> None:
    """Both replicas decide against version 9 and save at version 10; the loser retries against the
    new state and the rules refuse its second draw (R4.3): exactly one CardsDrawn is stored."""
    a, b = store.open(), store.open()
    try:
        table_id, p0, _p1 = started(a, deal)
        assert b.view(table_id, p0)[0] == 9
        barrier = threading.Barrier(2, timeout=20)
        for app in (a, b):
            original = app.store.save
            calls = [0]

            def racing_save(*objs: Any, _original: Any = original, _calls: list[int] = calls, **kw: Any) -> Any:
                _calls[0] += 1
                if _calls[0] == 1:
                    barrier.wait()  # both have decided at version 9 before either saves
                return _original(*objs, **kw)

            app.store.save = racing_save  # type: ignore[method-assign]
        outcomes: dict[str, Any] = {}

        def run(name: str, app: Tables) -> None:
            try:
                outcomes[name] = app.act(table_id, p0, f"draw-{name}", {"kind": "draw"})
            except Exception as exc:
                outcomes[name] = exc

        threads = [threading.Thread(target=run, args=(n, app)) for n, app in (("a", a), ("b", b))]
        for t in threads:
            t.start()
        for t in threads:
            t.join(timeout=60)
        results = [o for o in outcomes.values() if not isinstance(o, Exception)]
        errors = [o for o in outcomes.values() if isinstance(o, Exception)]
        assert len(results) == 1 and len(errors) == 1, outcomes
        assert isinstance(errors[0], CommandRejected | Conflict)
        if isinstance(errors[0], CommandRejected):
            assert errors[0].reason == "already_drawn"
        stored = a.stored_events(table_id)
        assert [e.name for e in stored[9:]] == ["CardsDrawn"] and len(stored) == 10
        assert b.view(table_id, p0)[0] == 10
    finally:
        a.close()
        b.close()


def test_a_command_that_keeps_losing_the_race_is_aborted(
    tables: Tables, deal: dict[str, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    table_id, p0, _p1 = started(tables, deal)

    def always_conflict(*objs: Any, **kw: Any) -> Any:
        raise IntegrityError("duplicate key (originator_id, originator_version)")

    monkeypatch.setattr(tables.store, "save", always_conflict)
    with pytest.raises(Conflict):
        tables.act(table_id, p0, "c1", {"kind": "draw"})
    monkeypatch.undo()
    assert tables.view(table_id, SPECTATOR)[0] == 9


def unsigned(record: tuple[str, int]) -> tuple[list[Any], int]:
    """A record's lines without its header's signature fields (they name the signing server)."""
    lines = [json.loads(line) for line in record[0].splitlines()]
    for key in ("signer", "signature"):
        lines[0].pop(key)
    return lines, record[1]


def test_a_restarted_service_reads_the_same_tables(store: Any, deal: dict[str, Any]) -> None:
    first = store.open()
    try:
        table_id, p0, _p1 = started(first, deal)
        first.act(table_id, p0, "c1", {"kind": "play", "card": "4D"})
        before = first.view(table_id, p0), first.record(table_id), first.events_after(table_id, p0, 0)
    finally:
        first.close()
    second = store.open(secret=bytes(32))  # another secret: stored hands need no old secret
    try:
        now = second.view(table_id, p0), unsigned(second.record(table_id)), second.events_after(table_id, p0, 0)
        assert now == (before[0], unsigned(before[1]), before[2])
        # The record's lines are the same; its header is signed by the new secret's key.
        assert audit_record([json.loads(line) for line in second.record(table_id)[0].splitlines()]).signed
        again = second.act(table_id, p0, "c1", {"kind": "play", "card": "4D"})  # idempotent across restarts
        assert again.version == 11
    finally:
        second.close()


# --------------------------------------------------------------------------- lobby


def test_tables_are_listed_newest_first_a_page_at_a_time(tables: Tables) -> None:
    ids = [tables.create_table("agonia", 2, {})[0] for _ in range(3)]
    tables.join(ids[2], "ann")
    page1, token = tables.list_tables("", 2, "")
    assert [s.table_id for s in page1] == [ids[2], ids[1]] and token
    assert (page1[0].free_seats, page1[0].status, page1[0].version) == ((1,), "open", 3)  # with SeedCommitted
    page2, token2 = tables.list_tables("", 2, token)
    assert [s.table_id for s in page2] == [ids[0]] and token2 == ""
    assert [s.table_id for s in tables.list_tables("agonia")[0]] == ids[::-1]
    assert tables.list_tables("mau_mau")[0] == []
    with pytest.raises(InvalidInput):
        tables.list_tables("", 2, "garbage")


def test_the_games_are_listed_with_their_option_defaults() -> None:
    games = {g.key: g for g in Tables.list_games()}
    agonia, mau_mau, crazy = games["agonia"], games["mau_mau"], games["crazy_eights"]
    assert (agonia.key, agonia.min_players, agonia.max_players) == ("agonia", 2, 4)  # agonia R2.2
    assert agonia.options["target_points"] == 100  # agonia R7.1
    assert mau_mau.options == {  # mau_mau section 7, and the platform's time control (docs/clock.md C1)
        "elimination_limit": -100,
        "computer_seats": {},
        "clock": {"move_seconds": 0, "bank_seconds": 0, "policy": "heuristic"},
    }
    assert mau_mau.bot_levels == ("random", "heuristic", "easy", "medium", "hard") and mau_mau.seat_changes
    assert crazy.options["scoring"] == "single" and crazy.options["target_per_player"] == 50  # crazy_eights R7
    assert crazy.bot_levels == ("random", "heuristic") and not crazy.seat_changes


@pytest.mark.postgres
def test_a_replica_hears_of_moves_saved_by_another_replica(postgres_store: Any) -> None:
    """PostgreSQL LISTEN/NOTIFY: replica B's listeners learn of a table created through replica A."""
    a, b = postgres_store.open(), postgres_store.open()
    heard: list[tuple[str, int]] = []
    got = threading.Event()

    def listener(table_id: str, version: int) -> None:
        heard.append((table_id, version))
        got.set()

    try:
        assert b.follow_store() is True
        b.add_listener(listener)
        table_id, _owner = a.create_table("agonia", 2, {})
        assert got.wait(timeout=30)
        assert heard[0] == (table_id, 1)
    finally:
        a.close()
        b.close()


def test_sqlite_has_no_store_subscription(sqlite_store: Any) -> None:
    app = sqlite_store.open()
    try:
        assert app.follow_store() is False
    finally:
        app.close()


def test_views_after_any_version_match_a_replay_from_the_start(tables: Tables) -> None:
    """Past views are rebuilt from checkpoints every 64 versions: they must equal a full replay."""
    viewer = seat_principal(1)
    for _attempt in range(5):  # seeds derive from the random table id: play until a match is long enough
        table_id, _owner = tables.create_table("agonia", 4, {"target_points": 50})
        for _ in range(4):
            tables.add_bot(table_id, "random")
        tables.start_match(table_id, OWNER, "go")
        assert tables.settle(timeout=60)
        full = tables.events_after(table_id, viewer, 0, limit=100_000).items
        if len(full) > 130:
            break
    assert len(full) > 130
    for after in (1, 63, 64, 65, 127, 128, 129, len(full) - 1):
        part = tables.events_after(table_id, viewer, after, limit=70).items
        assert part == full[after : after + 70], after
