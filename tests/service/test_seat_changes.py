"""Seat changes at the table (docs/rules/mau_mau.md R6.9-R6.10, R7.2): joins between hands and queued
during one, leaves, tokens of seats that are gone, computer seats from the options, and the
record of such a match verifying offline (and failing once tampered with).

Every test runs on SQLite and on PostgreSQL (the ``store`` fixture).
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from trapoula.clients.audit import audit_text, parse_record
from trapoula.clients.replay import Replay
from trapoula.domain import bots
from trapoula.domain.cards import codes, deck_104
from trapoula.domain.chain import event_hash
from trapoula.domain.errors import CommandRejected, InvalidInput
from trapoula.service.application import OWNER, SPECTATOR, Principal, Tables
from trapoula.service.errors import AlreadyStarted, PermissionDenied, SeatTaken


def _events(tables: Tables, table_id: str) -> list[tuple[str, dict[str, Any]]]:
    return [(e.name, dict(e.payload)) for e in tables.stored_events(table_id)]


def _names(tables: Tables, table_id: str) -> list[str]:
    return [e.name for e in tables.stored_events(table_id)]


def _person_turns(tables: Tables, table_id: str, person: Principal, until: Any, seed: int = 3) -> None:
    """Play ``person``'s turns with the heuristic level until ``until()`` holds."""
    rng = random.Random(seed)
    for _ in range(3000):
        tables.settle(10)
        if until():
            return
        _, view = tables.view(table_id, person)
        if view["to_act"] == person.seat and person.seat in view["acting"]:
            tables.act(table_id, person, f"c{rng.random()}", _mau_choice(view, rng))
    raise AssertionError("the condition never held")


def _mau_choice(view: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    choice = bots.choose("mau_mau", view, "heuristic", rng)
    choice.pop("seat", None)
    return choice


def test_a_game_without_seat_changes_refuses_a_join_after_the_start(tables: Tables) -> None:
    """Agonia has no R6.9: once started, its seats are fixed."""
    table_id, _ = tables.create_table("agonia", 2, {"target_points": 0})
    tables.add_bot(table_id, "random")
    tables.join(table_id, "ann")
    tables.start_match(table_id, OWNER, "s")  # only the owner starts the match
    with pytest.raises(AlreadyStarted):
        tables.join(table_id, "late")


def test_computer_seats_from_the_option_are_seated_at_creation_r7_2(tables: Tables) -> None:
    """R7.2 ``computer_seats``: seat -> skill, fixed when the table is created."""
    table_id, _ = tables.create_table("mau_mau", 3, {"computer_seats": {"1": "hard", "2": "easy"}})
    taken = [p for n, p in _events(tables, table_id) if n == "SeatTaken"]
    assert [(p["seat"], p["bot"]) for p in taken] == [(1, "hard"), (2, "easy")]
    seat, _ = tables.join(table_id, "ann")
    assert seat == 0
    with pytest.raises(InvalidInput) as outside:
        tables.create_table("mau_mau", 2, {"computer_seats": {"3": "hard"}})
    assert outside.value.reason == "bad_option"


def test_a_join_between_hands_takes_the_next_seat_at_the_lowest_total_r6_9(tables: Tables) -> None:
    """R6.9.1-R6.9.2: between hands (a manual-deal table waits there) a newcomer sits down at once,
    at the next new seat number (none is vacant), with the lowest total among the seated."""
    # a fixed request id fixes the table id, so the seeded deal: about one random first hand in
    # 2,000 ends a match of two bots at once (an elimination, R6.6), leaving no match to join
    table_id, _ = tables.create_table("mau_mau", 2, {}, manual_deal=True, request_id="join-between-hands-r6.9")
    tables.add_bot(table_id, "medium")
    tables.add_bot(table_id, "hard")
    tables.start_match(table_id, OWNER, "s")
    assert tables.settle(30)
    state = tables._load(table_id).state
    assert state.spec.needs_deal(state.game_state)
    ended = [p for n, p in _events(tables, table_id) if n == "HandEnded"][-1]
    lowest = min(ended["totals"])
    assert lowest < 0  # R6.3: the loser's cards count against him

    seat, token = tables.join(table_id, "eve")
    assert seat == 2
    names = _names(tables, table_id)
    assert names[-2:] == ["PlayerJoined", "SeatTaken"]
    joined = [p for n, p in _events(tables, table_id) if n == "PlayerJoined"][-1]
    assert joined == {"seat": 2, "name": "eve", "computer": None, "total": lowest}
    eve = tables.authenticate(table_id, token)
    assert eve.kind == "seat" and eve.seat == 2

    tables.act(table_id, OWNER, "deal-2", {"kind": "next_hand"})
    started = [p for n, p in _events(tables, table_id) if n == "HandStarted"][-1]
    assert started["seats_in_hand"] == [0, 1, 2]
    _, view = tables.view(table_id, eve)
    assert len(view["hand"]) == 7  # R3.3


def _ann_and_two_bots(tables: Tables) -> tuple[str, str, Any]:
    """A started mau_mau table of ann (seat 0) and two medium bots: the table, ann's token and her
    principal.  A fixed request id fixes the table id, hence the seeded deals: a random first hand
    could end the match before a newcomer may sit."""
    table_id, _ = tables.create_table("mau_mau", 3, {}, request_id="ann-and-two-medium-bots")
    _, token = tables.join(table_id, "ann", 0)
    tables.add_bot(table_id, "medium", 1)
    tables.add_bot(table_id, "medium", 2)
    ann = tables.authenticate(table_id, token)
    tables.start_match(table_id, OWNER, "s")
    return table_id, token, ann


def test_a_join_during_a_hand_is_queued_until_it_ends_r6_9(tables: Tables) -> None:
    """R6.9: a join during a hand waits; the token sees a spectator's view meanwhile and cannot act;
    when the hand ends the newcomer takes the lowest vacant seat (R6.9.2), here the seat just left
    (R6.10), and plays from the next hand."""
    table_id, ann_token, ann = _ann_and_two_bots(tables)
    assert tables.settle(30)
    _, view = tables.view(table_id, ann)
    assert view["to_act"] == 0  # R3.5: the dealer (seat 2) has seat 0 on his left

    seat, eve_token = tables.join(table_id, "eve")
    assert seat == -1
    assert _names(tables, table_id)[-1] == "JoinQueued"
    waiting = tables.authenticate(table_id, eve_token)
    assert waiting.kind == "waiting"
    _, eve_view = tables.view(table_id, waiting)
    assert "hand" not in eve_view and eve_view["table"]["viewer"] == "waiting"
    with pytest.raises(PermissionDenied) as early:
        tables.act(table_id, waiting, "e1", {"kind": "draw"})
    assert early.value.reason == "join_queued"
    with pytest.raises(InvalidInput):
        tables.join(table_id, "zoe", seat=4)  # R6.9.2: the seat is the rules' choice

    left = tables.act(table_id, ann, "bye", {"kind": "leave"})
    assert left.events[0].name == "PlayerLeft"
    assert left.events[0].payload["during_hand"] is True
    assert tables.settle(60)

    names = _names(tables, table_id)
    joined_at = names.index("PlayerJoined")
    assert names[joined_at + 1] == "SeatTaken"
    assert "SeedRevealed" in names[:joined_at]  # seated only once the hand had ended
    taken = [p for n, p in _events(tables, table_id) if n == "SeatTaken"][-1]
    assert taken["seat"] == 0 and taken["name"] == "eve" and taken["queued"] is not None
    eve = tables.authenticate(table_id, eve_token)
    assert eve.kind == "seat" and eve.seat == 0

    # The token of the seat that was left now only repeats its own commands.
    former = tables.authenticate(table_id, ann_token)
    assert former.kind == "former"
    again = tables.act(table_id, former, "bye", {"kind": "leave"})
    assert again.version == left.version and [e.name for e in again.events] == [e.name for e in left.events]
    with pytest.raises(PermissionDenied) as gone:
        tables.act(table_id, former, "after", {"kind": "draw"})
    assert gone.value.reason == "seat_left"
    _, former_view = tables.view(table_id, former)
    assert "hand" not in former_view


def test_the_table_is_full_at_five_seated_and_waiting_r6_9(tables: Tables) -> None:
    """R2.2, R6.9: at most 5 players; newcomers queued count as seated."""
    table_id, _ = tables.create_table("mau_mau", 4, {})
    _, token = tables.join(table_id, "ann", 0)
    for seat in (1, 2, 3):
        tables.add_bot(table_id, "easy", seat)
    ann = tables.authenticate(table_id, token)
    tables.start_match(table_id, OWNER, "s")
    assert tables.settle(30)
    _, view = tables.view(table_id, ann)
    assert view["phase"] == "playing" and view["to_act"] == 0  # R3.5: seat 0 plays first
    assert tables.join(table_id, "eve")[0] == -1
    with pytest.raises(SeatTaken) as full:
        tables.add_bot(table_id, "hard")
    assert full.value.reason == "table_full"


def test_a_leave_leaves_two_players_and_the_match_ends_with_the_last_one_r6_10_3(tables: Tables) -> None:
    """R6.10.3, R6.7: with two players a leave mid-hand abandons the hand and the other one wins."""
    table_id, _ = tables.create_table("mau_mau", 2, {})
    _, token = tables.join(table_id, "ann", 0)
    tables.add_bot(table_id, "medium", 1)
    ann = tables.authenticate(table_id, token)
    tables.start_match(table_id, OWNER, "s")
    result = tables.act(table_id, ann, "bye", {"kind": "leave"})
    names = [e.name for e in result.events]
    assert names[0] == "PlayerLeft"
    ended = next(e.payload for e in result.events if e.name == "HandEnded")
    assert ended["reason"] == "abandoned"
    assert result.events[-1].name == "MatchEnded" and result.events[-1].payload["winner"] == 1
    with pytest.raises(CommandRejected) as over:
        tables.join(table_id, "late")
    assert over.value.reason == "match_over"


def _two_decks_but(*named: str) -> list[str]:
    """The codes of the 104 cards (S2.2) in canonical order with one copy of each ``named`` left out."""
    rest = list(codes(deck_104()))
    for code in named:
        rest.remove(code)
    return rest


def test_a_queued_join_lapses_when_the_hand_ends_the_match_r6_9_3(tables: Tables) -> None:
    """R6.9.3 (the product's decision, confirmed by the rules owners): at a table for explicit deals
    (S5.3) ann (seat 0, first to play, R3.5) holds seven plain hearts, the up-card is KH, and bob starts
    at -99 with the limit at -100.  Eve joins during the hand: queued (seat -1, ``JoinQueued``).  Ann
    plays her hearts while bob draws, calls "Mau" before her next-to-last card (R5.6.1) and goes out:
    bob's 13 cards take him below -100, he is eliminated (R6.6) and ann, the last player left, wins
    the match (R6.7).  Eve's join lapses: no ``PlayerJoined``, and her token cannot act
    (``join_queued``: the match ended before she could be seated)."""
    hearts = ["2H", "3H", "4H", "5H", "6H", "TH", "QH"]
    bobs = ["2C", "3C", "4C", "5C", "6C", "TC", "QC"]
    deal = {"hands": [hearts, bobs], "starter": "KH", "stock": _two_decks_but(*hearts, *bobs, "KH")}
    table_id, _ = tables.create_table("mau_mau", 2, {}, initial_totals=[0, -99], manual_deal=True)
    _, ann_token = tables.join(table_id, "ann", 0)
    _, bob_token = tables.join(table_id, "bob", 1)
    ann, bob = tables.authenticate(table_id, ann_token), tables.authenticate(table_id, bob_token)
    tables.start_match(table_id, OWNER, "s", deal)
    seat, eve_token = tables.join(table_id, "eve")
    assert seat == -1 and _names(tables, table_id)[-1] == "JoinQueued"
    for n, card in enumerate(hearts):
        if card == "TH":
            tables.act(table_id, ann, "mau", {"kind": "mau"})
        result = tables.act(table_id, ann, f"p{n}", {"kind": "play", "card": card})
        if card != "QH":
            tables.act(table_id, bob, f"d{n}", {"kind": "draw"})
    assert [e.name for e in result.events] == [
        "CardPlayed",
        "HandEnded",
        "SeedRevealed",
        "PlayerEliminated",
        "MatchEnded",
    ]
    assert result.events[-1].payload["winner"] == 0
    assert tables.settle(30)
    names = _names(tables, table_id)
    assert names[-1] == "MatchEnded" and "PlayerJoined" not in names and names.count("JoinQueued") == 1
    eve = tables.authenticate(table_id, eve_token)
    with pytest.raises(PermissionDenied) as lapsed:
        tables.act(table_id, eve, "e", {"kind": "leave"})
    assert lapsed.value.reason == "join_queued" and "match ended before" in lapsed.value.message
    with pytest.raises(CommandRejected) as over:
        tables.join(table_id, "zoe")
    assert over.value.reason == "match_over"


def test_a_leave_before_the_match_starts_is_refused_r6_10_4(tables: Tables) -> None:
    """R6.10.4 (the product's decision, confirmed by the rules owners): before the start there is
    nothing to leave: ``leave`` is refused with ``match_not_started`` and nothing is stored."""
    table_id, _ = tables.create_table("mau_mau", 2, {})
    _, token = tables.join(table_id, "ann", 0)
    tables.join(table_id, "bob", 1)
    before = _names(tables, table_id)
    with pytest.raises(CommandRejected) as refused:
        tables.act(table_id, tables.authenticate(table_id, token), "bye", {"kind": "leave"})
    assert refused.value.reason == "match_not_started"
    assert _names(tables, table_id) == before


def test_a_recorded_match_with_joins_and_leaves_verifies_and_replays_and_tampering_shows(tables: Tables) -> None:
    """Acceptance: a Mau Mau match with joins and leaves exports, replays and verifies offline;
    a changed PlayerJoined total (R6.9.1) or a removed PlayerLeft breaks the record."""
    for _attempt in range(8):  # each table deals from its own random seeds
        table_id, _ = tables.create_table("mau_mau", 3, {"elimination_limit": -60})
        _, token = tables.join(table_id, "ann", 0)
        tables.add_bot(table_id, "hard", 1)
        tables.add_bot(table_id, "medium", 2)
        ann = tables.authenticate(table_id, token)
        tables.start_match(table_id, OWNER, "s")
        assert tables.add_bot(table_id, "easy", name="late bot") == -1  # queued: ann is to act (R3.5)
        tables.act(table_id, ann, "bye", {"kind": "leave"})  # R6.10.2: two players go on
        assert tables.settle(120)
        state = tables._load(table_id).state
        assert state.over
        names = _names(tables, table_id)
        if "PlayerJoined" in names:
            break
        # R6.7: an elimination in the first hand left one player, so the match ended with that hand
        # and the queued join lapsed (R6.9.3); deal again
        assert "PlayerEliminated" in names and names[-1] == "MatchEnded", names
    assert names.index("JoinQueued") < names.index("PlayerLeft") < names.index("PlayerJoined")
    assert "PlayerEliminated" in names and names[-1] == "MatchEnded"

    jsonl, finished = tables.record(table_id)
    assert finished == names.count("SeedRevealed")
    report = audit_text(jsonl)
    assert report.ok, report.first
    lines = parse_record(jsonl)
    replay = Replay(lines)
    assert replay.spec.is_terminal(replay.state(replay.length))

    # Tamper: the newcomer's starting total, re-hashed so only the rules can tell (R6.9.1).
    tampered = [dict(line) for line in lines]
    at = next(i for i, line in enumerate(tampered) if line.get("name") == "PlayerJoined")
    payload = dict(tampered[at]["payload"])
    payload["total"] = payload["total"] + 50
    tampered[at]["payload"] = payload
    prev = tampered[at]["prev_hash"]
    for line in tampered[at:]:
        line["prev_hash"] = prev
        line["hash"] = event_hash(prev, line["seq"], line["name"], line["payload"])
        prev = line["hash"]
    broken = audit_text("".join(json.dumps(line) + "\n" for line in tampered))
    assert not broken.ok

    # Tamper without re-hashing: the chain breaks.
    cut = [line for line in lines if line.get("name") != "PlayerLeft"]
    assert not audit_text("".join(json.dumps(line) + "\n" for line in cut)).ok


def test_a_spectator_never_sees_the_order_of_cards_put_under_the_stock_r6_10_2(tables: Tables) -> None:
    """R6.10.2: the leaver's cards go under the stock in a hidden order, revealed with the seed."""
    table_id, _, ann = _ann_and_two_bots(tables)
    _, view = tables.view(table_id, ann)
    hand = set(view["hand"])
    result = tables.act(table_id, ann, "bye", {"kind": "leave"})
    left = result.events[0]
    assert left.payload["cards_to_stock"] == 7
    batch = tables.events_after(table_id, SPECTATOR, 0)
    seen = json.dumps([item.event.payload for item in batch.items if item.event.name == "PlayerLeft"])
    assert not any(code in seen for code in hand)


def test_a_replay_knows_a_newcomer_at_a_new_seat_number_r6_9_2(tables: Tables) -> None:
    """R6.9.2: a newcomer at the next new seat number is a seat of the replay, with his name."""
    # a fixed request id fixes the table id, so the seeded deal: one of about 300 random first hands
    # ends a match of two bots at once (an elimination, R6.6), leaving no match to join
    table_id, _ = tables.create_table("mau_mau", 2, {}, manual_deal=True, request_id="replay-newcomer-r6.9.2")
    tables.add_bot(table_id, "medium")
    tables.add_bot(table_id, "hard")
    tables.start_match(table_id, OWNER, "s")
    assert tables.settle(30)
    assert tables.add_bot(table_id, "easy", name="zoe") == 2
    tables.act(table_id, OWNER, "deal-2", {"kind": "next_hand"})
    assert tables.settle(30)
    jsonl, hands = tables.record(table_id)
    assert hands == 2
    replay = Replay(parse_record(jsonl))
    assert replay.seats == 3 and replay.names[2] == "zoe"
    joined = next(p for p in range(1, replay.length + 1) if replay.step(p).name == "PlayerJoined")
    assert replay.view(joined, 2)["seat"] == 2
    assert audit_text(jsonl).ok


def test_a_newcomer_in_a_freed_seat_never_repeats_the_former_occupant_s_command_ids(tables: Tables) -> None:
    """Command ids belong to a seat's occupant: after ann leaves (R6.10) and eve takes her seat
    (R6.9.2), eve's "1" is a new command, not ann's earlier "1" played back; ann's token still
    plays back her own."""
    # a fixed request id fixes the deal (a random one may end the match before eve can join)
    table_id, _ = tables.create_table("mau_mau", 3, {}, manual_deal=True, request_id="freed-seat-command-ids")
    _, ann_token = tables.join(table_id, "ann", 0)
    tables.add_bot(table_id, "medium", 1)
    tables.add_bot(table_id, "medium", 2)
    ann = tables.authenticate(table_id, ann_token)
    tables.start_match(table_id, OWNER, "s")
    first = tables.act(table_id, ann, "1", {"kind": "draw"})  # R4.2: draw one card, the turn ends
    assert first.events[0].name == "CardsDrawn" and first.events[0].payload["seat"] == 0
    tables.act(table_id, ann, "2", {"kind": "leave"})
    assert tables.settle(60)
    seat, eve_token = tables.join(table_id, "eve")
    assert seat == 0
    eve = tables.authenticate(table_id, eve_token)
    tables.act(table_id, OWNER, "deal-2", {"kind": "next_hand"})
    assert tables.settle(60)
    _, view = tables.view(table_id, eve)
    assert view["to_act"] == 0  # the bots have played up to eve's turn
    before = tables.view(table_id, eve)[0]
    mine = tables.act(table_id, eve, "1", {"kind": "mau"})
    assert mine.version == before + 1 and [e.name for e in mine.events] == ["MauCalled"]
    again = tables.act(table_id, tables.authenticate(table_id, ann_token), "1", {"kind": "draw"})
    assert again.version == first.version and again.events[0].payload["seat"] == 0
