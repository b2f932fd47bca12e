"""Romis's sealed rounds through the service, on SQLite and PostgreSQL (docs/rules/romis.md R5, R6.4,
section 9; the ``tables`` fixture's stores).

Three people play the first round of an explicit deal (R3.7, dealer seat 2, so the seat order is 0,
1, 2).  Bob (seat 1) holds no related pair (R4.2): he turns up both auxiliary cards, QC and then KS,
and reveals KD KS (R6.1, R6.2).  Ann (seat 0) reveals 6H 7H, Cy (seat 2) 8C 8D.  A second table
deals Bob a pair instead, and he reveals it without an auxiliary card.

What the others may learn of Bob's turn before the round resolves is that he has submitted, nothing
more (R5.2, R5.4): they receive no ``AuxiliaryUsed``, not even redacted, and no version number of
theirs moves for it (positions, ``TableState.position``); their views do not change; the sealed
submission they receive has neither payload nor nonce; and all they receive is the same, to the
byte, whether Bob had to turn up his auxiliary cards or not (the digests, which differ with the
deal and the payload, aside).  When the round resolves, everybody learns which slots he used.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import re
import uuid
from typing import Any

import pytest

from trapoula.domain.audit import audit_record
from trapoula.domain.cards import codes, deck_52, parse_cards
from trapoula.domain.deal import deck_hash
from trapoula.domain.events import Payload
from trapoula.service.application import OWNER, SPECTATOR, Principal, Tables, seat_principal

pytestmark = pytest.mark.timeout(180)

ANN, BOB, CY = 0, 1, 2
HANDS = ("6H 7H 2C 9S JD", "2D 4S 9C JH KD", "8C 8D 3H 5S TC")
"""Ann's 6H 7H and Cy's 8C 8D are pairs (R4.2); Bob's five cards hold none."""
AUXILIARY = ("AC AD", "QC KS", "4C 4D")
"""Slot 1 then slot 2 of each seat (R3.4): Bob's QC still makes no pair, KS pairs with KD."""
DIGEST = re.compile(r"[0-9a-f]{64}")


def explicit_deal(hands: tuple[str, ...], auxiliary: tuple[str, ...]) -> dict[str, Any]:
    """R3.7: the auxiliary cards are the first 2n cards of the stock, all slot 1 cards then all slot 2
    cards in the seat order after the dealer (0, 1, 2); then every other card in canonical order."""
    slots = [a.split() for a in auxiliary]
    top = [slots[s][0] for s in range(3)] + [slots[s][1] for s in range(3)]
    used = {c for h in hands for c in h.split()} | set(top)
    return {"hands": [h.split() for h in hands], "stock": top + [c for c in codes(deck_52()) if c not in used]}


def start(tables: Tables, hands: tuple[str, ...], auxiliary: tuple[str, ...]) -> tuple[str, list[Principal]]:
    """A three-seat table of people, its match started from the explicit deal."""
    table_id, _ = tables.create_table("romis", 3, {}, manual_deal=True)
    for seat, name in enumerate(("ann", "bob", "cy")):
        tables.join(table_id, name, seat)
    tables.start_match(table_id, OWNER, "start", explicit_deal(hands, auxiliary))
    return table_id, [seat_principal(s) for s in range(3)]


def act(tables: Tables, table_id: str, seat: int, kind: str, **fields: Any) -> Any:
    """The seat's command under a fresh command id."""
    return tables.act(table_id, seat_principal(seat), uuid.uuid4().hex, {"kind": kind, **fields})


def received(tables: Tables, table_id: str, who: Principal, after: int = 0) -> list[tuple[int, str, Payload]]:
    return [(i.event.version, i.event.name, i.event.payload) for i in tables.events_after(table_id, who, after).items]


def masked(value: Any) -> str:
    return DIGEST.sub("#" * 64, json.dumps(value, sort_keys=True))


def test_r5_4_an_auxiliary_card_turned_up_reaches_nobody_else_not_even_as_a_version(tables: Tables) -> None:
    """R6.1, R6.4, R5.4, section 9: Bob's two ``AuxiliaryUsed`` go to Bob alone; Ann, Cy and a
    spectator see the same version, the same view and no event before and after them."""
    table_id, seats = start(tables, HANDS, AUXILIARY)
    others = [seats[ANN], seats[CY], SPECTATOR]
    before = {o.viewer: tables.view(table_id, o) for o in others}
    bob_before = tables.view(table_id, seats[BOB])[0]
    (listed,), _ = tables.list_tables("romis")
    assert listed.version == before[None][0]

    first = act(tables, table_id, BOB, "use_auxiliary")
    second = act(tables, table_id, BOB, "use_auxiliary")
    assert [(e.name, e.payload["slot"], e.payload["card"]) for e in (*first.events, *second.events)] == [
        ("AuxiliaryUsed", 1, "QC"),
        ("AuxiliaryUsed", 2, "KS"),
    ]
    assert (first.version, second.version) == (bob_before + 1, bob_before + 2)
    assert sorted(tables.view(table_id, seats[BOB])[1]["hand"]) == sorted([*HANDS[BOB].split(), "QC", "KS"])
    for other in others:
        assert tables.view(table_id, other) == before[other.viewer]
        assert received(tables, table_id, other, before[other.viewer][0]) == []
    (listed,), _ = tables.list_tables("romis")
    assert listed.version == before[None][0]


def test_r5_2_the_others_receive_the_seal_without_payload_and_positions_without_gaps(tables: Tables) -> None:
    """R5.2, R5.3, R6.4: Bob's sealed reveal reaches Ann as ``SubmissionSealed`` at her next position,
    payload and nonce None; when Cy's submission resolves the round, ``RoundResolved`` shows Bob's
    KD KS and his auxiliary slots 1 and 2.  Every viewer's positions run 1, 2, 3 ... with no gap, and
    Bob's stream holds exactly two events more than Ann's: his ``AuxiliaryUsed``."""
    table_id, seats = start(tables, HANDS, AUXILIARY)
    ann_at = tables.view(table_id, seats[ANN])[0]
    act(tables, table_id, BOB, "use_auxiliary")
    act(tables, table_id, BOB, "use_auxiliary")
    mine = act(tables, table_id, BOB, "reveal", cards=["KD", "KS"])
    assert [e.name for e in mine.events] == ["SubmissionSealed"]
    assert mine.events[0].payload["payload"] == {"kind": "reveal", "cards": ["KD", "KS"], "companions": []}
    seen = received(tables, table_id, seats[ANN], ann_at)
    assert [(v, n) for v, n, _ in seen] == [(ann_at + 1, "SubmissionSealed")]
    sealed = seen[0][2]
    assert (sealed["seat"], sealed["round"], sealed["attempt"], sealed["payload"], sealed["nonce"]) == (
        BOB,
        1,
        1,
        None,
        None,
    )
    assert sealed["commitment"] == mine.events[0].payload["commitment"]
    act(tables, table_id, ANN, "reveal", cards=["6H", "7H"])
    act(tables, table_id, CY, "reveal", cards=["8C", "8D"])

    streams = {who.viewer: received(tables, table_id, who) for who in (*seats, SPECTATOR)}
    for viewer, stream in streams.items():
        assert [v for v, _, _ in stream] == list(range(1, len(stream) + 1)), f"gap in {viewer}'s positions"
        assert tables.view(table_id, seats[viewer] if viewer is not None else SPECTATOR)[0] == len(stream)
        names = [n for _, n, _ in stream]
        assert names.count("AuxiliaryUsed") == (2 if viewer == BOB else 0)
    assert len(streams[BOB]) == len(streams[ANN]) + 2 == len(streams[None]) + 2
    resolved = next(p for _, n, p in streams[ANN] if n == "RoundResolved")
    assert resolved["cards"] == [["6H", "7H"], ["KD", "KS"], ["8C", "8D"]]
    assert resolved["auxiliary_slots"] == [[], [1, 2], []]
    assert all(isinstance(n, str) and len(n) == 64 for n in resolved["nonces"])

    # a watch resumed from any position gives the rest of the stream, no gap, no duplicate
    for after in range(len(streams[ANN]) + 1):
        assert received(tables, table_id, seats[ANN], after) == streams[ANN][after:]
    for after in range(len(streams[BOB]) + 1):
        assert received(tables, table_id, seats[BOB], after) == streams[BOB][after:]


def test_r5_4_what_the_others_receive_does_not_depend_on_the_auxiliary_cards(tables: Tables) -> None:
    """R5.4, section 9 ("the timing and size of what other seats receive must not depend on the
    submitter's choice"): with Bob dealt the pair KD KS outright (no auxiliary card used), Ann's and
    the spectator's events and views up to Bob's seal are, digests aside, the same text as above."""
    table_a, seats_a = start(tables, HANDS, AUXILIARY)
    pair = (HANDS[0], "2D 4S 9C KS KD", HANDS[2])
    table_b, seats_b = start(tables, pair, ("AC AD", "QC JH", "4C 4D"))
    act(tables, table_a, BOB, "use_auxiliary")
    act(tables, table_a, BOB, "use_auxiliary")
    act(tables, table_a, BOB, "reveal", cards=["KD", "KS"])
    act(tables, table_b, BOB, "reveal", cards=["KD", "KS"])
    for a, b in ((seats_a[ANN], seats_b[ANN]), (SPECTATOR, SPECTATOR), (seats_a[CY], seats_b[CY])):
        seen_a, seen_b = received(tables, table_a, a), received(tables, table_b, b)
        assert [(v, n) for v, n, _ in seen_a] == [(v, n) for v, n, _ in seen_b]
        for (_, _, pa), (_, _, pb) in zip(seen_a, seen_b, strict=True):
            assert masked(pa) == masked(pb) and len(json.dumps(pa)) == len(json.dumps(pb))
        view_a, view_b = tables.view(table_a, a), tables.view(table_b, b)
        assert view_a[0] == view_b[0]
        for view in (view_a[1], view_b[1]):
            view["table"].pop("table_id")
        assert masked(view_a[1]) == masked(view_b[1])


def test_r5_2_a_bot_match_records_every_seal_and_verifies(tables: Tables) -> None:
    """R5.2, R5.3, R10.9: a match of three server bots from seeded deals; the spectator never receives
    an ``AuxiliaryUsed`` and its positions have no gap; the record holds every ``SubmissionSealed``
    with its payload and nonce and every ``AuxiliaryUsed``, and verifies offline, seals included."""
    table_id, _ = tables.create_table("romis", 3, {"target_score": 30})
    for level in ("random", "heuristic", "heuristic"):
        tables.add_bot(table_id, level)
    tables.start_match(table_id, OWNER, "go")
    assert tables.settle(60)
    stream = received(tables, table_id, SPECTATOR)
    while len(stream) % 1000 == 0 and stream:
        stream += received(tables, table_id, SPECTATOR, len(stream))
    assert [v for v, _, _ in stream] == list(range(1, len(stream) + 1))
    assert "AuxiliaryUsed" not in {n for _, n, _ in stream} and stream[-1][1] == "MatchEnded"
    jsonl, hands = tables.record(table_id)
    lines = [json.loads(line) for line in jsonl.splitlines()]
    names = [line["name"] for line in lines[1:]]
    assert names.count("AuxiliaryUsed") > 0 and hands == names.count("HandStarted") >= 1
    sealed = [line["payload"] for line in lines[1:] if line["name"] == "SubmissionSealed"]
    assert sealed and all(p["payload"] is not None and len(p["nonce"]) == 64 for p in sealed)
    assert len(stream) == len(names) - names.count("AuxiliaryUsed")
    report = audit_record(lines)
    assert report.ok, [str(p) for p in report.problems]
    assert report.hands_verified == hands


def test_r5_2_a_rewritten_seal_is_caught_by_the_audit(tables: Tables) -> None:
    """R5.2, R5.3: the record of the first round with Bob's opened reveal rewritten (payload and
    commitment of his ``SubmissionSealed`` left as sealed) fails the seal check."""
    table_id, _ = tables.create_table("romis", 3, {"target_score": 1})
    for level in ("random", "random", "random"):
        tables.add_bot(table_id, level)
    tables.start_match(table_id, OWNER, "go")
    assert tables.settle(60)
    jsonl, _ = tables.record(table_id)
    lines = [json.loads(line) for line in jsonl.splitlines()]
    sealed = next(line for line in lines[1:] if line["name"] == "SubmissionSealed")
    sealed["payload"]["nonce"] = "0" * 64
    report = audit_record(lines)
    assert not report.ok
    assert any(p.rule == "R5.2" and p.kind == "seal" and p.seq == sealed["seq"] for p in report.problems)


def test_r5_2_the_owner_of_an_explicit_deal_cannot_compute_the_nonces(tables: Tables) -> None:
    """R5.2, R5.4: the owner who entered the deal knows every card, so the hand's secret may not come
    from the deal: the server adds its own (HMAC of its secret, table and hand), hidden in HandStarted
    and revealed in ShuffleRevealed when the hand ends.  Bob's nonce is keyed by it, not by the hash of
    the deck order the owner could compute."""
    table_id, _ = start(tables, HANDS, AUXILIARY)
    act(tables, table_id, BOB, "use_auxiliary")
    act(tables, table_id, BOB, "use_auxiliary")
    act(tables, table_id, BOB, "reveal", cards=["KD", "KS"])
    stored = {e.name: e.payload for e in tables.stored_events(table_id)}
    server_secret = tables.hand_seed(table_id, 1)
    started, sealed = stored["HandStarted"], stored["SubmissionSealed"]
    assert started["secret"] == server_secret and started["explicit_deal"] is True
    message = b"nonce/1/1/1/1/0"
    by_deck = hmac.new(bytes.fromhex(deck_hash(parse_cards(started["deck"]))), message, hashlib.sha256).hexdigest()
    assert sealed["nonce"] == hmac.new(bytes.fromhex(server_secret), message, hashlib.sha256).hexdigest() != by_deck
