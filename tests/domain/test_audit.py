"""The offline audit of a record (docs/record.md; S5.1, S5.3 and the rules replay).

Records are built here, in-process: a match is played through the domain's ``GameSpec`` and its
events are chained with ``chain.event_hash`` exactly as the service writes them, with the
table events (``TableCreated``, ``SeatTaken``) in front.
"""

from __future__ import annotations

import copy
import dataclasses
import hashlib
import itertools
import json
import random
from collections.abc import Sequence
from functools import partial
from typing import Any

import pytest
from match_table import seeded_commands, table_entries

from trapoula.domain.audit import AuditReport, audit_record
from trapoula.domain.cards import codes, deck_52
from trapoula.domain.chain import chain_record
from trapoula.domain.deal import Deal, deck_hash
from trapoula.domain.events import Event, to_payload
from trapoula.domain.game import MatchConfig, SeatInfo
from trapoula.domain.registry import GAMES, find_game

SPEC = find_game("agonia")
NAMES = ("ann", "bob", "cat", "dan")


# --------------------------------------------------------------------------- building records


def _config(players: int, target: int) -> MatchConfig:
    return MatchConfig("agonia", tuple(SeatInfo(i, NAMES[i]) for i in range(players)), {"target_points": target})


def _seed_of_hand(prefix: str, hand: int) -> str:
    return hashlib.sha256(f"{prefix}-{hand}".encode()).hexdigest()


def play_random_match(players: int, target: int, seed: int) -> list[Event]:
    """A whole match: seeded deals, every seat choosing uniformly among its legal commands."""
    rng = random.Random(seed)

    def move(state: Any) -> Any:
        seat = next(s for s in range(players) if SPEC.legal_commands(state, s))
        return rng.choice(SPEC.legal_commands(state, seat))

    seeds = partial(_seed_of_hand, f"audit-{seed}")
    events: list[Event] = []
    for done, _, _ in seeded_commands(SPEC, SPEC.initial_state(_config(players, target)), seeds, move):
        events.extend(done)
    return events


def chain(entries: Sequence[tuple[str, dict[str, Any]]], table_id: str = "t-audit") -> list[dict[str, Any]]:
    """The record of ``(name, payload)`` entries: header, then hash-chained lines (JSON round trip)."""
    lines = chain_record(table_id, "agonia", entries)
    return json.loads(json.dumps(lines))  # type: ignore[no-any-return]


def make_record(events: Sequence[Event], players: int) -> list[dict[str, Any]]:
    """Table events, then the game events, chained.  A record with an explicit hand is that of a table
    created for explicit deals (``manual_deal``: S5.3 as the rules owners answered)."""
    manual = any(e.event_name() == "HandStarted" and getattr(e, "explicit_deal", False) for e in events)
    started = next((e for e in events if e.event_name() == "MatchStarted"), None)
    options = to_payload(started)["options"] if started is not None else {}  # the table made the match
    table = table_entries("agonia", NAMES[:players], options, manual_deal=manual)
    return chain(table + [(e.event_name(), to_payload(e)) for e in events])


def rechain(lines: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Recompute every hash after an edit (a forger's best effort)."""
    return chain([(line["name"], line["payload"]) for line in lines[1:]], lines[0]["table_id"])


def line_of(lines: list[dict[str, Any]], name: str, nth: int = 0) -> dict[str, Any]:
    return [line for line in lines if line.get("name") == name][nth]


# --------------------------------------------------------------------------- an explicit hand

SEAT0 = ["2H", "3H", "4H", "5H", "6H", "TH", "KH"]
SEAT1 = ["2C", "3C", "4C", "5C", "6C", "TC", "KC"]
DRAWN = ["7C", "8C", "9C", "JC", "QC", "AC"]


def explicit_deal() -> Deal:
    """The deal of :func:`explicit_hand_events`: the hands, the up-card JH, then the stock."""
    rest = [c for c in codes(deck_52()) if c not in {*SEAT0, *SEAT1, "JH", *DRAWN}]
    return SPEC.explicit_deal(
        SPEC.initial_state(_config(2, 0)), {"hands": [SEAT0, SEAT1], "starter": "JH", "stock": DRAWN + rest}
    )


def explicit_hand_events() -> list[Event]:
    """Two players, target 0 (one hand), dealt explicitly (S5.3) with the up-card JH.

    Seat 0 plays its hearts 2H 3H 4H 5H 6H TH, one a turn; each time seat 1 draws one card
    (7C 8C 9C JC QC AC, the stock's top) and passes (R4.2-R4.4); then seat 0 goes out with KH.
    """
    state = SPEC.initial_state(_config(2, 0))
    deal = explicit_deal()
    events: list[Event] = []

    def run(command: Any) -> None:
        nonlocal state
        for event in SPEC.decide(state, command):
            state = SPEC.evolve(state, event)
            events.append(event)

    run(SPEC.deal_command(state, deal))
    for card in SEAT0[:-1]:
        run(SPEC.parse_command({"kind": "play", "seat": 0, "card": card}))
        run(SPEC.parse_command({"kind": "draw", "seat": 1}))
        run(SPEC.parse_command({"kind": "pass", "seat": 1}))
    run(SPEC.parse_command({"kind": "play", "seat": 0, "card": "KH"}))
    assert SPEC.is_terminal(state)
    return events


@pytest.fixture(scope="module")
def explicit_record() -> list[dict[str, Any]]:
    return make_record(explicit_hand_events(), players=2)


@pytest.fixture(scope="module")
def seeded_record() -> list[dict[str, Any]]:
    return make_record(play_random_match(players=3, target=30, seed=5), players=3)


def problem_rules(report: AuditReport, seq: int) -> set[str]:
    return {p.rule for p in report.problems if p.seq == seq}


# --------------------------------------------------------------------------- clean records


def test_explicit_deal_hand_verifies_with_the_scores_worked_out_by_hand_s5_3(
    explicit_record: list[dict[str, Any]],
) -> None:
    """Seat 1 keeps 2C 3C 4C 5C 6C TC KC (2+3+4+5+6+10+10 = 40) and drew 7C 8C 9C JC QC AC
    (7+8+9+10+10+11 = 55): 95 points (R2.4, R6.3); seat 0 went out with 0 (R6.1)."""
    report = audit_record(explicit_record)
    assert report.ok, report.summary()
    assert report.problems == ()
    assert (report.hands, report.hands_verified) == (1, 1)
    assert report.events == 1 + 2 + len(explicit_hand_events())
    assert [(r.reason, r.winner, r.hand_points, r.totals) for r in report.results] == [("out", 0, (0, 95), (0, 95))]
    assert (report.totals, report.winner, report.match_over) == ((0, 95), 0, True)
    assert report.names == ("ann", "bob")
    started = line_of(explicit_record, "HandStarted")["payload"]
    assert started["explicit_deal"] is True and started["seed"] is None
    assert started["commitment"] == deck_hash(explicit_deal().order)
    assert "record verified" in report.summary()


def test_an_explicit_hand_at_a_table_not_created_for_explicit_deals_fails_s5_3(
    explicit_record: list[dict[str, Any]],
) -> None:
    """S5.3, as the rules owners answered: only a table created for explicit deals may deal one.  The
    verified explicit record, its ``TableCreated.manual_deal`` turned false and the chain recomputed
    (a forger's best effort), fails at its ``HandStarted``, citing S5.3; nothing else is wrong."""
    lines = copy.deepcopy(explicit_record)
    created = line_of(lines, "TableCreated")
    assert created["payload"]["manual_deal"] is True
    created["payload"]["manual_deal"] = False
    report = audit_record(rechain(lines))
    assert not report.ok
    started = line_of(lines, "HandStarted")
    assert [(p.seq, p.name, p.rule) for p in report.problems] == [(started["seq"], "HandStarted", "S5.3")]
    assert "not created for explicit deals" in report.problems[0].message


def test_seeded_matches_verify_including_a_reshuffle_before_a_draw_s8_2() -> None:
    """Random matches with seeded deals verify, hand by hand; the seeds chosen include draws
    whose stock is reshuffled before the card is taken (StockReshuffled ahead of CardsDrawn)."""
    reshuffle_first = 0
    for seed in range(4):
        events = play_random_match(players=2 + seed % 3, target=30, seed=seed)
        names = [e.event_name() for e in events]
        reshuffle_first += sum(1 for a, b in itertools.pairwise(names) if (a, b) == ("StockReshuffled", "CardsDrawn"))
        report = audit_record(make_record(events, players=2 + seed % 3))
        assert report.ok, report.summary()
        assert report.hands == report.hands_verified == names.count("SeedRevealed") >= 1
        ended = [to_payload(e) for e in events if e.event_name() == "MatchEnded"]
        assert report.totals == tuple(ended[-1]["totals"])
        assert report.winner == ended[-1]["winner"]
    assert reshuffle_first >= 1


# --------------------------------------------------------------------------- tampering


def test_one_byte_in_a_card_played_breaks_the_chain_and_names_the_event(
    explicit_record: list[dict[str, Any]],
) -> None:
    """2H -> 2C in seat 0's first CardPlayed: the event's hash no longer matches (REC5), and the
    rules refuse the play, 2C being in seat 1's hand (card_not_in_hand, S11)."""
    lines = copy.deepcopy(explicit_record)
    played = line_of(lines, "CardPlayed")
    assert played["payload"]["card"] == "2H"
    played["payload"]["card"] = "2C"
    report = audit_record(lines)
    assert not report.ok
    assert report.first is not None
    assert (report.first.seq, report.first.name) == (played["seq"], "CardPlayed")
    assert problem_rules(report, played["seq"]) >= {"REC5", "S11"}
    chain_problems = [p for p in report.problems if p.kind == "chain"]
    assert [(p.seq, p.name, p.rule) for p in chain_problems] == [(played["seq"], "CardPlayed", "REC5")]


def test_a_recomputed_chain_still_fails_the_rules_replay_with_the_rule_number(
    explicit_record: list[dict[str, Any]],
) -> None:
    """The same edit with every hash recomputed: the chain is whole, the rules still refuse the
    play of a card seat 0 does not hold (S11)."""
    lines = copy.deepcopy(explicit_record)
    played = line_of(lines, "CardPlayed")
    played["payload"]["card"] = "2C"
    report = audit_record(rechain(lines))
    assert not [p for p in report.problems if p.kind == "chain"]
    assert report.first is not None
    assert (report.first.seq, report.first.name, report.first.rule) == (played["seq"], "CardPlayed", "S11")
    assert "card_not_in_hand" in report.first.message
    assert report.hands_verified == 0


def test_a_changed_dealt_card_with_a_recomputed_chain_differs_from_the_deal_s5_2(
    explicit_record: list[dict[str, Any]],
) -> None:
    """Seat 0's dealt 2H written as 2C: the deal the rules make from the deck order differs in
    field ``cards`` (S5.2)."""
    lines = copy.deepcopy(explicit_record)
    dealt = next(line for line in lines if line.get("name") == "CardsDealt" and line["payload"]["seat"] == 0)
    dealt["payload"]["cards"] = ["2C", *dealt["payload"]["cards"][1:]]
    report = audit_record(rechain(lines))
    assert report.first is not None
    assert (report.first.seq, report.first.name, report.first.rule) == (dealt["seq"], "CardsDealt", "S5.2")
    assert "'cards'" in report.first.message


def test_a_changed_revealed_seed_is_a_commitment_failure_s5_1(seeded_record: list[dict[str, Any]]) -> None:
    """The first hand's revealed seed, one hex digit changed: SHA-256 of it is not the
    commitment published in HandStarted (S5.1); the chain breaks there too (REC5)."""
    lines = copy.deepcopy(seeded_record)
    revealed = line_of(lines, "SeedRevealed")
    seed = revealed["payload"]["seed"]
    revealed["payload"]["seed"] = ("1" if seed[0] != "1" else "2") + seed[1:]
    report = audit_record(lines)
    assert report.first is not None
    assert (report.first.seq, report.first.name, report.first.rule, report.first.kind) == (
        revealed["seq"],
        "SeedRevealed",
        "S5.1",
        "commitment",
    )
    assert problem_rules(report, revealed["seq"]) == {"S5.1", "REC5"}
    rechained = audit_record(rechain(lines))
    assert rechained.first is not None
    assert (rechained.first.seq, rechained.first.rule) == (revealed["seq"], "S5.1")


def test_a_deck_order_that_is_not_the_seeds_is_a_commitment_failure_s5_1(
    seeded_record: list[dict[str, Any]],
) -> None:
    """Two cards of the hidden deck order swapped (chain recomputed): the seed no longer gives
    that order (S5.1)."""
    lines = copy.deepcopy(seeded_record)
    started = line_of(lines, "HandStarted")
    deck = started["payload"]["deck"]
    deck[-1], deck[-2] = deck[-2], deck[-1]
    report = audit_record(rechain(lines))
    assert report.first is not None
    assert (report.first.seq, report.first.name, report.first.rule) == (started["seq"], "HandStarted", "S5.1")
    assert "deck order" in report.first.message


def test_an_explicit_deck_that_does_not_match_its_commitment_fails_s5_3(
    explicit_record: list[dict[str, Any]],
) -> None:
    lines = copy.deepcopy(explicit_record)
    started = line_of(lines, "HandStarted")
    started["payload"]["commitment"] = "0" * 64
    report = audit_record(rechain(lines))
    assert report.first is not None
    assert (report.first.seq, report.first.name, report.first.rule) == (started["seq"], "HandStarted", "S5.3")


def test_every_discrepancy_is_reported_not_only_the_first(explicit_record: list[dict[str, Any]]) -> None:
    """Two separate edits, two chain breaks, each at its own event (REC5)."""
    lines = copy.deepcopy(explicit_record)
    first, last = line_of(lines, "Passed", 0), line_of(lines, "HandEnded")
    first["payload"]["seat"] = 0
    last["payload"]["hand_points"] = [0, 94]
    report = audit_record(lines)
    breaks = [(p.seq, p.name) for p in report.problems if p.rule == "REC5"]
    assert breaks == [(first["seq"], "Passed"), (last["seq"], "HandEnded")]
    assert (last["seq"], "S10.5") in {(p.seq, p.rule) for p in report.problems}


def test_an_inserted_event_is_not_caused_by_any_command_s11(explicit_record: list[dict[str, Any]]) -> None:
    """A TurnSkipped slipped in before seat 0's second play (chain recomputed)."""
    lines = copy.deepcopy(explicit_record)
    index = lines.index(line_of(lines, "CardPlayed", 1))
    lines.insert(index, {"seq": 0, "name": "TurnSkipped", "payload": {"seat": 1, "reason": "nine"}})
    report = audit_record(rechain(lines))
    assert report.first is not None
    assert (report.first.name, report.first.rule) == ("TurnSkipped", "S11")
    assert report.first.message == "event not caused by any command"


def test_unknown_event_and_bad_header_are_reported_rec1_rec6(explicit_record: list[dict[str, Any]]) -> None:
    lines = copy.deepcopy(explicit_record)
    lines.append({"seq": 0, "name": "CardsStolen", "payload": {"seat": 1}})
    report = audit_record(_with_header(rechain(lines), events=3))
    rules = [(p.seq, p.name, p.rule) for p in report.problems]
    assert rules[0] == (0, "header", "REC1")
    assert (len(lines) - 1, "CardsStolen", "REC6") in rules


def _with_header(lines: list[dict[str, Any]], **fields: Any) -> list[dict[str, Any]]:
    lines[0].update(fields)
    return lines


def test_table_events_are_checked_a_seat_taken_twice_rec7(explicit_record: list[dict[str, Any]]) -> None:
    """A second SeatTaken for seat 1 (chain recomputed): chain-checked table events still have
    to make sense, though the rules replay skips them."""
    lines = copy.deepcopy(explicit_record)
    seat1 = next(line for line in lines if line.get("name") == "SeatTaken" and line["payload"]["seat"] == 1)
    lines.insert(lines.index(seat1) + 1, copy.deepcopy(seat1))
    report = audit_record(_with_header(rechain(lines), events=len(lines) - 1))
    assert [(p.seq, p.name, p.rule) for p in report.problems] == [(seat1["seq"] + 1, "SeatTaken", "REC7")]
    assert "already taken" in report.problems[0].message


def test_an_empty_record_is_not_verified() -> None:
    report = audit_record([])
    assert not report.ok
    assert report.first is not None and report.first.rule == "REC1"


# --------------------------------------------------------------------------- findings in rules terms

_INTERNAL = ("Error", "tuple", "Traceback", "index(")


def _no_internal_text(report: AuditReport) -> None:
    for problem in report.problems:
        assert not any(word in problem.message for word in _INTERNAL), problem


def test_a_card_not_in_hand_is_one_rules_finding_then_the_chain_break_s11(
    explicit_record: list[dict[str, Any]],
) -> None:
    """2H -> 2C in seat 0's first play, hashes untouched: exactly two findings at that seq, the
    refusal in the rules' words (S11) and the broken hash (REC5); the event that cannot be
    applied is not reported a second time with the text of an internal exception."""
    lines = copy.deepcopy(explicit_record)
    played = line_of(lines, "CardPlayed")
    played["payload"]["card"] = "2C"
    report = audit_record(lines)
    at = [(p.rule, p.kind) for p in report.problems if p.seq == played["seq"]]
    assert at == [("S11", "rules"), ("REC5", "chain")]
    assert report.first is not None
    assert report.first.message.startswith(
        "the rules refuse play card 2C by seat 0: card '2C' is not in the hand of seat 0 ("
    )
    assert report.first.message.endswith("(card_not_in_hand)")
    _no_internal_text(report)


def test_a_suit_letter_that_is_no_suit_names_the_events_fields_s11(explicit_record: list[dict[str, Any]]) -> None:
    """A declared suit ``X`` (chain recomputed): the event names no valid command (S11); the
    finding quotes the event's fields, not the exception the suit parser raised."""
    lines = copy.deepcopy(explicit_record)
    played = line_of(lines, "CardPlayed")
    played["payload"]["declared_suit"] = "X"
    report = audit_record(rechain(lines))
    assert report.first is not None
    assert (report.first.seq, report.first.rule) == (played["seq"], "S11")
    assert report.first.message == (
        "the recorded CardPlayed does not name a valid command (seat 0, card 2H, declared_suit X, "
        "active_suit H, announce false, pending_draw 0)"
    )
    _no_internal_text(report)


def test_a_payload_with_a_missing_field_names_the_field_rec6(explicit_record: list[dict[str, Any]]) -> None:
    lines = copy.deepcopy(explicit_record)
    played = line_of(lines, "CardPlayed")
    del played["payload"]["seat"]
    report = audit_record(rechain(lines))
    assert report.first is not None
    assert (report.first.seq, report.first.rule) == (played["seq"], "REC6")
    assert report.first.message == "the CardPlayed payload lacks field(s) ['seat']"


def test_an_event_that_cannot_follow_a_refused_one_is_reported_in_rules_terms_s3_7(
    explicit_record: list[dict[str, Any]], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Seat 1's first pass written as seat 0's (refused, S3.7) and the TurnStarted after it
    naming seat 7, which (here) the game cannot apply: that TurnStarted is reported under its
    own rule (S3.7) in the record's terms, and the exception's text appears nowhere."""
    real = SPEC.evolve

    def evolve(state: Any, event: Event) -> Any:
        if event.event_name() == "TurnStarted" and to_payload(event)["seat"] == 7:
            raise ValueError("tuple.index(x): x not in tuple")
        return real(state, event)

    monkeypatch.setitem(GAMES, "agonia", dataclasses.replace(SPEC, evolve=evolve))
    lines = copy.deepcopy(explicit_record)
    passed = line_of(lines, "Passed")
    turn = lines[lines.index(passed) + 1]
    assert turn["name"] == "TurnStarted"
    passed["payload"]["seat"] = 0
    turn["payload"]["seat"] = 7
    report = audit_record(rechain(lines))
    found = [(p.seq, p.rule, p.message) for p in report.problems]
    assert found[0][:2] == (passed["seq"], "S3.7")
    assert found[1] == (
        turn["seq"],
        "S3.7",
        "the recorded TurnStarted does not fit hand 1 as replayed so far (seat 7); "
        "the rest of the hand is not replayed",
    )
    assert len(found) == 2
    _no_internal_text(report)


def test_a_fault_inside_the_rules_is_a_finding_without_its_text(
    explicit_record: list[dict[str, Any]], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The rules raising something other than a refusal on seat 0's play of 3H: reported (S11)
    as a command the rules cannot decide, never with the exception's own words."""
    real = SPEC.decide

    def decide(state: Any, command: Any) -> Any:
        if SPEC.command_payload(command).get("card") == "3H":
            raise RuntimeError("secret internals")
        return real(state, command)

    monkeypatch.setitem(GAMES, "agonia", dataclasses.replace(SPEC, decide=decide))
    report = audit_record(explicit_record)
    played = line_of(explicit_record, "CardPlayed", 1)
    assert played["payload"]["card"] == "3H"
    assert report.first is not None
    assert (report.first.seq, report.first.rule, report.first.message) == (
        played["seq"],
        "S11",
        "the rules cannot decide play card 3H by seat 0 in this position",
    )
    assert not any("secret" in p.message for p in report.problems)


def test_the_table_configures_the_match_it_starts_rec7(explicit_record: list[dict[str, Any]]) -> None:
    # TableCreated and the SeatTaken lines must describe the match MatchStarted starts: an edit of
    # any of them, chain recomputed, no longer verifies (docs/record.md 3.3).
    assert audit_record(explicit_record).ok
    edits = {
        "its options": lambda p: p["options"].update(target_points=1000),
        "first_dealer 0": lambda p: p.update(first_dealer=0),
        "initial_totals [5, 5]": lambda p: p.update(initial_totals=[5, 5]),
        "its options are not the game's": lambda p: p["options"].update(target_points=-3),
    }
    for expected, change in edits.items():
        lines = json.loads(json.dumps(explicit_record))
        change(line_of(lines, "TableCreated")["payload"])
        problems = [p for p in audit_record(rechain(lines)).problems if p.name == "TableCreated"]
        assert [p.rule for p in problems] == ["REC7"] and expected in problems[0].message, expected
    lines = json.loads(json.dumps(explicit_record))
    line_of(lines, "SeatTaken", 1)["payload"]["bot"] = "heuristic"
    problems = audit_record(rechain(lines)).problems
    assert [(p.name, p.rule, p.message) for p in problems] == [
        ("SeatTaken", "REC7", "seat 1 was taken by a 'heuristic' bot, not as MatchStarted says")
    ]


def test_an_explicit_hand_is_reported_as_dealt_by_the_owner_s5_3(explicit_record: list[dict[str, Any]]) -> None:
    report = audit_record(explicit_record)
    assert report.ok and [(r.hand_no, r.explicit, r.seed) for r in report.results] == [(1, True, None)]
    commitment = line_of(explicit_record, "HandStarted")["payload"]["commitment"]
    assert f"hand 1: dealt by the table's owner, not shuffled; commitment {commitment}; " in report.summary()
