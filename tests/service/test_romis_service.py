"""Romis su iškritimu over gRPC (docs/rules/romis.md), on SQLite and PostgreSQL (the ``server`` fixture's stores).

A match of three people (ann, bob, cy) to :data:`TARGET` points on a table with ``manual_deal``, its
two hands dealt explicitly by the owner (R3.7) and played command by command through ``Act``, with
every refusal of section 8 (R13.1-R13.4):

* hand 1 (:data:`HAND_1`, dealer 2): the worked example R10.8 (a).  Cy cannot reveal in round 2 even
  with both auxiliary cards and drops out with 2 points; bob does the same in round 3 (4 points); ann,
  with 5 revealed cards, lays down 2 more and never used an auxiliary card: 4 x 7 + 3 = 31.
* hand 2 (:data:`HAND_2`, dealer 0): cy starts a new combination in round 3 and reveals its companion
  in round 4 (R8); ann turns up one auxiliary card in round 4; bob drops out in round 4 (5 points), cy
  in round 5 (6 points); ann lays down one more card and scores 2 x 8 + 3 = 19: 50, the target.

A refused command records nothing (section 8): the table's version is checked after each one.  The
watchers' streams hold no card they may not see and no other seat's ``AuxiliaryUsed`` (section 9,
R5.4).  Other tables: a hand dealt in the middle of a match (first dealer, initial totals and the
carried bonus factor, R12.2, R12.3); the ``resubmit`` option (R12.4, formerly decision T1);
a match of server bots from seeded deals whose record verifies, and tampered copies that fail naming
the rule.

The thin client of ``trapoula.clients`` is not used to talk to the server here, only the generated
stubs; ``trapoula verify`` (the command line) checks the records.
"""

from __future__ import annotations

import itertools
import json
import re
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from game_tables import (
    ALL_CODES,
    CARD,
    ManualTable,
    Step,
    TableCase,
    bot_match,
    checks_tables,
    events_of,
    listed_game,
    tamper,
)
from grpc_helpers import Auth, Stub, stored, verify, view_of, watch_all

from trapoula.api.v1 import table_pb2 as pb
from trapoula.service.application import Tables

pytestmark = pytest.mark.timeout(180)

NAMES = ("ann", "bob", "cy")
"""Seats 0-2."""
TARGET = 50
"""The match's ``target_score`` (R12.1): nobody reaches it after hand 1 (31), ann exactly after hand 2."""


@dataclass(frozen=True)
class Cards:
    """What one seat is dealt in a hand (codes, space-separated): the 5 cards of R3.3, the two
    auxiliary cards (slot 1 first, R3.4), the 3 cards of the first deal (R4.3; empty when the seat
    drops out in round 1) and the card of the second deal (R4.5; empty when it drops out before)."""

    hand: str
    aux: str
    first: str = ""
    second: str = ""


def seat_order(dealer: int, n: int) -> list[int]:
    """The seat order after the dealer (R2.4)."""
    return [(dealer + 1 + k) % n for k in range(n)]


def explicit(dealer: int, seats: Sequence[Cards]) -> pb.ExplicitDeal:
    """The explicit deal (R3.7) giving each seat its :class:`Cards`: the stock starts with every
    seat's slot 1, then every slot 2, in the seat order after the dealer; then the first deal, one card
    at a time in 3 passes over the seats that receive it, then the second deal; the other cards follow
    in canonical order."""
    order = seat_order(dealer, len(seats))
    top = [seats[s].aux.split()[0] for s in order] + [seats[s].aux.split()[1] for s in order]
    first = [s for s in order if seats[s].first]
    top += [seats[s].first.split()[p] for p in range(3) for s in first]
    top += [seats[s].second for s in order if seats[s].second]
    hands = [c.hand.split() for c in seats]
    used = [*top, *(c for h in hands for c in h)]
    assert len(used) == len(set(used)), "a card is given twice"
    stock = [*top, *(c for c in ALL_CODES if c not in set(used))]
    return pb.ExplicitDeal(hands=[pb.CardList(cards=h) for h in hands], stock=stock)


def reveal(*cards: str, companions: Sequence[str] = ()) -> dict[str, Any]:
    """A ``reveal`` payload (R13.1)."""
    payload: dict[str, Any] = {"kind": "reveal", "cards": list(cards)}
    if companions:
        payload["companions"] = list(companions)
    return payload


AUX: dict[str, Any] = {"kind": "use_auxiliary"}
"""R13.2."""
CANNOT: dict[str, Any] = {"kind": "cannot"}
"""R13.3."""

# --------------------------------------------------------------------------- hand 1: R10.8 (a)

HAND_1 = (
    Cards("6H 7H 2C QS 7D", "AC AD", "5H 8H 4H", "9H"),
    Cards("KC KD 2D 4S 9C", "6C TD", "KS KH JH", "3H"),
    Cards("8C 8D 2S 4D 6S", "3C JS", "TC QD AS"),
)
"""Ann reveals 6H 7H, then R4.4's example 5H 7D, then 8H, and holds 4H 9H 2C QS at the end.  Bob
reveals the four kings; his other cards 2D 4S 9C JH 3H and auxiliary cards 6C TD are related neither
to a king nor to each other.  Cy reveals 8C 8D; his other cards and auxiliary cards are related neither
to an eight nor to each other (R2.5)."""

PLAY_1: tuple[Step, ...] = (
    # round 1: 2 cards related to each other (R4.2)
    (0, reveal("6H"), ("wrong_count", "R4.2")),
    (0, reveal("6H", "AS"), ("card_not_available", "R4.1")),  # still in the stock
    (0, reveal("6H", "6H"), ("duplicate_cards", "R13.1")),
    (0, reveal("6H", "2C"), ("not_related", "R4.2")),
    (0, reveal("6H", "7H", companions=["7D"]), ("new_combination_not_allowed", "R8.1")),
    (0, AUX, ("reveal_possible", "R6.1")),
    (0, CANNOT, ("reveal_possible", "R4.7")),
    (0, reveal("7H", "6H"), None),  # in any order (R5.6)
    (0, reveal("6H", "7H"), ("already_submitted", "R5.2")),
    (0, AUX, ("already_submitted", "R5.2")),
    (0, CANNOT, ("already_submitted", "R5.2")),
    (1, reveal("KD", "KC"), None),
    (2, reveal("8C", "8D"), None),  # the last: the round resolves (R5.3), the first deal (R4.3)
    # round 2: 2 more, each related to the other or to a revealed card (R4.4)
    (2, CANNOT, ("auxiliary_left", "R6.3")),
    (2, reveal("2S", "4D"), ("not_related", "R4.4")),
    (2, AUX, None),  # 3C
    (2, AUX, None),  # JS
    (2, AUX, ("no_auxiliary", "R6.2")),
    (2, CANNOT, None),
    (0, reveal("5H", "7D"), None),
    (1, reveal("KS", "KH", "JH"), ("wrong_count", "R4.4")),
    (1, reveal("KS", "KH"), None),  # cy drops out with 2 points (R7.1, R7.2); the second deal (R4.5)
    # round 3: 1 card related to a revealed one (R4.6)
    (2, reveal("2S"), ("eliminated", "R7.3")),
    (2, AUX, ("eliminated", "R7.3")),
    (2, CANNOT, ("eliminated", "R7.3")),
    (0, reveal("8H", "4H"), ("wrong_count", "R4.6")),
    (1, reveal("JH"), ("not_related", "R4.6")),
    (1, reveal("KS"), ("card_not_available", "R4.1")),  # revealed already
    (1, reveal("2D", companions=["QC"]), ("card_not_available", "R8.2")),
    (1, reveal("2D", companions=["3H"]), ("not_related", "R8.2")),
    (1, CANNOT, ("auxiliary_left", "R6.3")),
    (1, AUX, None),  # 6C
    (1, AUX, None),  # TD
    (1, CANNOT, None),
    (0, reveal("4H", companions=["9H"]), ("new_combination_not_allowed", "R8.4")),
    (0, reveal("8H"), None),  # bob drops out with 4 points; ann wins (R10.1)
    # the hand is over
    (0, reveal("4H"), ("hand_over", "R4.1")),
    (1, AUX, ("hand_over", "R4.1")),
    (2, CANNOT, ("hand_over", "R4.1")),
)
"""Hand 1, R10.8 (a): cy 2 points (round 2), bob 4 (round 3); ann lays down 4H (next to 5H) and 9H
(next to 8H), in canonical order (R10.10): 7 revealed cards, both auxiliary cards unused (x4),
bonus 3 players x 1: 31."""

# --------------------------------------------------------------------------- hand 2: a new combination

HAND_2 = (
    Cards("4S 5S 2H QD 9D", "9S 3D", "6S 7S 8S", "TS"),
    Cards("JH QH 2C 5D 7C", "4C 8H", "KH AH TH", "3H"),
    Cards("6C 6H JC KS 2S", "AC 8D", "6D 5C JD", "9C"),
)
"""Dealer 0: the seat order is bob, cy, ann.  Ann reveals the spades 4-8; then her hand TS 2H QD 9D
holds no card related to them and no two related cards, so she turns up 9S (slot 1), reveals it, then
TS, and lays down 9D.  Bob reveals the hearts J, Q, K, A, T and holds nothing else that fits.  Cy
reveals 6C 6H, 6D 5C; in round 3 nothing fits but JC JD are related: a new combination."""

PLAY_2: tuple[Step, ...] = (
    (1, reveal("JH", "QH"), None),
    (2, reveal("6C", "6H"), None),
    (0, reveal("4S", "5S"), None),
    (1, reveal("KH", "AH"), None),
    (2, reveal("5C", "6D"), None),
    (0, reveal("6S", "7S"), None),
    # round 3
    (1, reveal("TH"), None),
    (2, AUX, ("reveal_possible", "R6.1")),  # a new combination is a legal reveal (R8.4)
    (2, CANNOT, ("reveal_possible", "R4.7")),
    (2, reveal("JC"), ("not_related", "R4.6")),
    (2, reveal("JC", companions=["KS"]), ("not_related", "R8.2")),
    (2, reveal("JC", companions=["JD"]), None),  # R8.2: JD face down
    (0, reveal("8S"), None),
    # round 4
    (2, reveal("KS", companions=["2S"]), ("new_combination_not_allowed", "R8.4")),  # JD fits JC
    (2, reveal("JD"), None),  # the companion (R8.3)
    (0, reveal("TS"), ("not_related", "R4.6")),
    (0, AUX, None),  # 9S
    (0, AUX, ("reveal_possible", "R6.1")),
    (0, reveal("9S"), None),
    (1, AUX, None),
    (1, AUX, None),
    (1, CANNOT, None),  # bob drops out with 5 points (R7.2)
    # round 5
    (1, reveal("3H"), ("eliminated", "R7.3")),
    (2, AUX, None),
    (2, AUX, None),
    (2, CANNOT, None),
    (0, reveal("TS"), None),  # cy drops out with 6 points; ann wins
)
"""Hand 2: ann lays down 9D (related to 9S): 8 revealed cards, one auxiliary card unused (x2), bonus
3: 19.  Totals 31 + 19 = 50, 4 + 5 = 9, 2 + 6 = 8: ann alone reaches the target 50 (R11.1)."""

# --------------------------------------------------------------------------- helpers


def wire(payload: Mapping[str, Any]) -> pb.Command:
    """A romis command payload as a ``Command`` message (the proto's Reveal, UseAuxiliary, Cannot)."""
    kind = payload["kind"]
    if kind == "reveal":
        return pb.Command(reveal=pb.Reveal(cards=payload["cards"], companions=payload.get("companions", ())))
    if kind == "use_auxiliary":
        return pb.Command(use_auxiliary=pb.UseAuxiliary())
    if kind == "cannot":
        return pb.Command(cannot=pb.Cannot())
    raise AssertionError(kind)


def romis_table(
    stub: Stub,
    auth: Auth,
    options: Mapping[str, Any],
    seats: int = 3,
    first_dealer: int | None = None,
    initial_totals: Sequence[int] = (),
) -> ManualTable:
    """A romis table over gRPC with people at every seat (ann, bob, cy, ...) and ``manual_deal``:
    the owner deals every hand (R13.4); a refusal is checked in every seat's version and the owner's
    (an ``AuxiliaryUsed`` reaches its own seat only, R5.4)."""
    names = NAMES[:seats] if seats <= 3 else (*NAMES, "dee")
    return ManualTable(
        stub, auth, "romis", names, wire, options, first_dealer=first_dealer, initial_totals=initial_totals
    )


def play_match(stub: Stub, auth: Auth) -> ManualTable:
    """The two hands of the module docstring, to the end of the match."""
    table = romis_table(stub, auth, {"target_score": TARGET})
    table.start(explicit(2, HAND_1))
    table.run(PLAY_1)
    table.next_hand(explicit(0, HAND_2))
    table.run(PLAY_2)
    return table


def named(seen: Sequence[tuple[str, Any]], name: str) -> list[Any]:
    """The payloads of the events called ``name`` among ``seen``."""
    return [p for n, p in seen if n == name]


# --------------------------------------------------------------------------- tests


def test_list_games_offers_romis_with_its_options_and_bot_levels(stub: Stub) -> None:
    """Game key ``romis``, 2 to 4 players (R2.3), the options of section 7 with their defaults
    (``target_score`` 100, R12.1; ``carried_bonus_factor`` 1, R12.3) and trapoula's ``resubmit``
    (R12.4), the computer players, and no seat changes."""
    assert listed_game(stub, "romis") == (
        ("Romis su iškritimu", 2, 4, False),
        ["random", "heuristic"],
        {"target_score": 100, "carried_bonus_factor": 1, "resubmit": False},
    )


def test_a_romis_table_checks_its_seats_options_and_totals(stub: Stub) -> None:
    """R2.3: 2 to 4 players; R12.1, R12.3: integers from 1; R12.4: ``resubmit`` a boolean;
    section 7: no other option (the initial totals of R12.2 are the table's ``initial_totals``, one
    per seat); R3.1: the first dealer is a seat."""
    refused: list[TableCase] = [
        (1, {}, (), None, "bad_seats"),
        (5, {}, (), None, "bad_seats"),
        (3, {"target_score": 0}, (), None, "bad_option"),
        (3, {"carried_bonus_factor": 0}, (), None, "bad_option"),
        (3, {"resubmit": "yes"}, (), None, "bad_option"),
        (3, {"initial_totals": [1, 2, 3]}, (), None, "bad_option"),
        (3, {}, (10, 20), None, "bad_config"),
        (3, {}, (), 3, "bad_config"),
    ]
    checks_tables(stub, "romis", refused, accepted=(2, 4))


def test_two_hands_through_act_with_every_refusal_of_section_8(
    stub: Stub, auth: Auth, tables: Tables, tmp_path: Path
) -> None:
    """Hand 1 from an explicit deal (R3.7): every refusal of R13.1-R13.3, each naming its reason and
    rule and recording nothing; the sealed rounds (R5), the elimination of cy in round 2 and of bob in
    round 3 (R7.1, R7.2) and ann's 31 points of R10.8 (a).  The owner's ``next_hand`` is
    ``hand_in_progress`` during a hand and ``match_over`` after the match (R13.4).  Hand 2: a new
    combination (R8), one auxiliary card used by the winner (x2, R10.4), the match ending at the target
    (R11.1).  The record verifies."""
    table = romis_table(stub, auth, {"target_score": TARGET})
    started = events_of(table.start(explicit(2, HAND_1)))
    assert [n for n, _ in started] == [
        "MatchStarted",
        "HandStarted",
        "ShuffleCommitted",
        *["CardsDealt"] * 3,
        *["AuxiliaryDealt"] * 3,
        "RoundOpened",
    ]
    hand = started[1][1]
    assert (hand["hand_no"], hand["dealer"], hand["bonus_factor"], hand["explicit_deal"]) == (1, 2, 1, True)
    assert (hand["deck"], hand["seed"]) == (None, None)  # hidden until the hand ends (R3.2)
    assert started[2][1] == {"hand_no": 1, "purpose": "deal", "commitment": hand["commitment"]}
    assert [p["seat"] for _, p in started[3:6]] == [0, 1, 2]  # R3.3: the seat order after dealer 2
    assert [p["cards"] for _, p in started[6:9]] == [None] * 3  # R3.4: nobody sees an auxiliary card
    assert started[-1][1] == {"round": 1, "attempt": 1, "required": 2, "live": [0, 1, 2]}  # R4.2
    for seat in range(3):
        _, view = view_of(stub, table.table_id, table.seats[seat])
        assert view["hand"] == sorted(HAND_1[seat].hand.split(), key=ALL_CODES.index)
        assert (view["auxiliary_left"], view["stock_count"], view["hand_sizes"]) == (2, 31, [5, 5, 5])  # R3.5
        assert view["legal"][0]["kind"] == "reveal"
    _, spectator = view_of(stub, table.table_id)
    assert spectator["hand"] == [] and spectator["legal"] == []

    table.refused_deal(explicit(0, HAND_2), ("hand_in_progress", "R10.9"))
    seen = table.run(PLAY_1[:13])  # round 1
    sealed = named(seen, "SubmissionSealed")
    assert [(p["seat"], p["payload"]) for p in sealed] == [
        (0, {"kind": "reveal", "cards": ["6H", "7H"], "companions": []}),  # canonical (R5.6)
        (1, {"kind": "reveal", "cards": ["KC", "KD"], "companions": []}),
        (2, {"kind": "reveal", "cards": ["8C", "8D"], "companions": []}),
    ]
    (resolved,) = named(seen, "RoundResolved")
    assert resolved["cards"] == [["6H", "7H"], ["KC", "KD"], ["8C", "8D"]]
    assert [(p["seat"], p["count"], p["stage"]) for p in named(seen, "CardsDealt")] == [
        (0, 3, "first_deal"),
        (1, 3, "first_deal"),
        (2, 3, "first_deal"),
    ]
    assert named(seen, "CardsDealt")[2]["cards"] == ["TC", "QD", "AS"]  # cy's own view of his cards
    assert named(seen, "CardsDealt")[0]["cards"] is None

    seen = table.run(PLAY_1[13:22])  # round 2
    assert named(seen, "PlayerEliminated") == [{"seat": 2, "round": 2, "points": 2, "hand": None}]  # R7.2
    assert named(seen, "RoundResolved")[0]["auxiliary_slots"] == [[], [], [1, 2]]  # R6.4: public now
    _, view = view_of(stub, table.table_id, table.seats[0])
    assert (view["round"], view["live"], view["eliminated"]) == (3, [0, 1], [2])
    assert view["auxiliary_counts"] == [2, 2, 0] and view["hand_sizes"] == [5, 5, 0]  # R4.5: one more card

    seen = table.run(PLAY_1[22:])  # round 3 and after
    assert named(seen, "PlayerEliminated") == [{"seat": 1, "round": 3, "points": 4, "hand": None}]
    assert named(seen, "RoundResolved")[0]["auxiliary_slots"] == [[], [1, 2], []]
    assert named(seen, "HandWon") == [
        {"seat": 0, "laid_down": ["4H", "9H"], "revealed_count": 7, "multiplier": 4, "bonus": 3, "points": 31}
    ]
    (ended,) = named(seen, "HandEnded")
    assert (ended["reason"], ended["winner"], ended["hand_points"], ended["totals"], ended["bonus_factor"]) == (
        "winner",
        0,
        [31, 4, 2],
        [31, 4, 2],
        1,
    )
    assert ended["auxiliary"] == [["AC", "AD"], ["6C", "TD"], ["3C", "JS"]]  # R10.9: every hidden card
    assert ended["eliminated_hands"][1] == ["2D", "4S", "9C", "JH", "3H", "6C", "TD"]
    assert ended["hands"][0] == ["2C", "QS"]
    assert "MatchEnded" not in [n for n, _ in seen]  # 31 < 50
    _, view = view_of(stub, table.table_id, table.seats[1])
    assert (view["phase"], view["hand_over"], view["next_dealer"]) == ("hand_over", True, 0)  # R3.8

    started = events_of(table.next_hand(explicit(0, HAND_2)))
    assert started[0][1]["dealer"] == 0 and [p["seat"] for p in named(started, "CardsDealt")] == [1, 2, 0]
    seen = table.run(PLAY_2)
    fresh = next(p for p in named(seen, "RoundResolved") if p["round"] == 3)
    assert (fresh["cards"][2], fresh["new_combination"], fresh["companions"]) == (
        ["JC"],
        [False, False, True],
        [0, 0, 1],
    )  # R8.2, R8.3: the companion's count only
    cy_sealed = [p for p in named(seen, "SubmissionSealed") if p["seat"] == 2 and p["round"] == 3]
    assert cy_sealed[0]["payload"] == {"kind": "reveal", "cards": ["JC"], "companions": ["JD"]}  # his own (R8.3)
    assert [(p["seat"], p["round"], p["points"]) for p in named(seen, "PlayerEliminated")] == [(1, 4, 5), (2, 5, 6)]
    assert named(seen, "HandWon") == [
        {"seat": 0, "laid_down": ["9D"], "revealed_count": 8, "multiplier": 2, "bonus": 3, "points": 19}
    ]
    (ended,) = named(seen, "HandEnded")
    assert (ended["hand_points"], ended["totals"]) == ([19, 5, 6], [50, 9, 8])
    assert ended["companions"] == [[], [], []]  # JD was revealed in round 4
    assert seen[-1] == ("MatchEnded", {"winner": 0, "totals": [50, 9, 8]})

    table.refused_deal(explicit(1, HAND_1), ("match_over", "R11.1"))
    version, view = view_of(stub, table.table_id, table.seats[0])
    assert (view["match_over"], view["winner"], view["totals"], view["table"]["status"]) == (
        True,
        0,
        [50, 9, 8],
        "over",
    )
    log = stored(tables, table.table_id)
    assert version == len(log) - 8  # nothing recorded for a refusal; bob's and cy's AuxiliaryUsed not counted
    names = Counter(n for _, n, _ in log)
    assert names == {
        "TableCreated": 1,
        "SeatTaken": 3,
        "MatchStarted": 1,
        "HandStarted": 2,
        "ShuffleCommitted": 2,
        "CardsDealt": 3 + 3 + 2 + 3 + 3 + 3,
        "AuxiliaryDealt": 6,
        "RoundOpened": 3 + 5,
        "AuxiliaryUsed": 4 + 5,
        "SubmissionSealed": 3 + 3 + 2 + 3 + 3 + 3 + 3 + 2,
        "RoundResolved": 3 + 5,
        "PlayerEliminated": 4,
        "HandWon": 2,
        "HandEnded": 2,
        "ShuffleRevealed": 2,
        "MatchEnded": 1,
    }
    revealed = [p for _, n, p in log if n == "ShuffleRevealed"]
    assert [(p["hand_no"], p["salt"], p["later"]) for p in revealed] == [(1, "", []), (2, "", [])]  # explicit
    assert revealed[0]["order"][15:21] == ["AC", "6C", "3C", "AD", "TD", "JS"]  # R3.6: the auxiliary cards

    record = stub.GetRecord(pb.GetRecordRequest(table_id=table.table_id))
    assert record.hands == 2
    code, out = verify(record.jsonl, tmp_path / "match.jsonl")
    assert code == 0 and "record verified" in out, out
    assert "match winner: ann" in out, out


def test_a_hand_dealt_in_the_middle_of_a_match_carries_its_totals_and_bonus_factor(
    stub: Stub, auth: Auth, tmp_path: Path
) -> None:
    """R12.2, R12.3, R3.1, R3.7: a table taken up from the middle of a match -- first dealer seat 1,
    totals 70, 96, 99, bonus factor 3 carried over two hands that ended with every card revealed
    (R10.5, R10.6) -- dealt hand 1's cards explicitly.  The seat order after dealer 1 is cy, ann, bob;
    the play is that of R10.8 (a) with the bonus 3 players x 3 = 9: ann 4 x 7 + 9 = 37.  Totals 107,
    100, 101: all three reach the default target 100 and ann alone is highest (R11.1).  The factor
    returns to 1 after a won hand (R10.6).  The record verifies."""
    table = romis_table(stub, auth, {"carried_bonus_factor": 3}, first_dealer=1, initial_totals=(70, 96, 99))
    started = events_of(table.start(explicit(1, HAND_1)))
    match = started[0][1]
    assert (match["initial_totals"], match["options"]["carried_bonus_factor"]) == ([70, 96, 99], 3)
    hand = started[1][1]
    assert (hand["dealer"], hand["bonus_factor"]) == (1, 3)
    assert [p["seat"] for p in named(started, "CardsDealt")] == [2, 0, 1]  # R2.4
    for seat in range(3):
        _, view = view_of(stub, table.table_id, table.seats[seat])
        assert view["hand"] == sorted(HAND_1[seat].hand.split(), key=ALL_CODES.index)
        assert (view["totals"], view["bonus_factor"]) == ([70, 96, 99], 3)
    seen = table.run([step for step in PLAY_1 if step[2] is None])
    assert named(seen, "HandWon") == [
        {"seat": 0, "laid_down": ["4H", "9H"], "revealed_count": 7, "multiplier": 4, "bonus": 9, "points": 37}
    ]
    (ended,) = named(seen, "HandEnded")
    assert (ended["hand_points"], ended["totals"], ended["bonus_factor"]) == ([37, 4, 2], [107, 100, 101], 1)
    assert seen[-1] == ("MatchEnded", {"winner": 0, "totals": [107, 100, 101]})
    code, out = verify(stub.GetRecord(pb.GetRecordRequest(table_id=table.table_id)).jsonl, tmp_path / "mid.jsonl")
    assert code == 0 and "record verified" in out and "match winner: ann" in out, out


R10_8_B = (Cards("6H 7H 5H 7D 2C", "3S 3D"), Cards("2D 4S 9C JH KD", "QC AS"))
"""R10.8 (b), dealer 1: ann holds 6H 7H 5H 7D 2C; bob's cards and auxiliary cards hold no related pair."""


def test_resubmit_replaces_a_sealed_submission_and_the_round_opens_the_last(
    stub: Stub, auth: Auth, tables: Tables, tmp_path: Path
) -> None:
    """R12.4 (``resubmit``) over the wire: ann seals 7D 7H, then replaces it with 6H 7H (two
    ``SubmissionSealed``, two commitments; bob sees neither payload, R5.2); ``use_auxiliary`` after a
    submission stays refused (R6.1).  Bob turns up both auxiliary cards and cannot: the round opens ann's
    last submission (R5.3), bob drops out with 0 points (R7.2) and ann, as in R10.8 (b), lays down 7D
    and 5H: 4 x 4 + 2 = 18.  The record, seals and all, verifies."""
    table = romis_table(stub, auth, {"resubmit": True, "target_score": 18}, seats=2)
    table.start(explicit(1, R10_8_B))
    bob_at = view_of(stub, table.table_id, table.seats[1])[0]
    first = events_of(table.act(0, reveal("7D", "7H")))
    second = events_of(table.act(0, reveal("7H", "6H")))
    table.run([(0, AUX, ("already_submitted", "R5.2")), (0, CANNOT, ("reveal_possible", "R4.7"))])
    assert [n for n, _ in first + second] == ["SubmissionSealed", "SubmissionSealed"]
    payloads = [p["payload"]["cards"] for _, p in first + second]
    assert payloads == [["7D", "7H"], ["6H", "7H"]]
    _, view = view_of(stub, table.table_id, table.seats[0])
    assert view["pending"] == {"kind": "reveal", "cards": ["6H", "7H"], "companions": []}
    assert view["waiting"] == [1] and view["submitted"] == [0]
    _, bob = view_of(stub, table.table_id, table.seats[1])
    assert bob["commitments"][0] == second[0][1]["commitment"] != first[0][1]["commitment"]
    told = table.stub.WatchTable(
        pb.WatchTableRequest(table_id=table.table_id, from_version=bob_at), metadata=table.seats[1], timeout=10
    )
    seals = [json.loads(m.event.payload_json) for m in itertools.islice(told, 2)]
    assert [(s["seat"], s["payload"], s["nonce"]) for s in seals] == [(0, None, None)] * 2
    told.cancel()  # type: ignore[no-untyped-call]
    seen = table.run([(1, AUX, None), (1, AUX, None), (1, CANNOT, None)])
    (resolved,) = named(seen, "RoundResolved")
    assert resolved["cards"] == [["6H", "7H"], []] and resolved["kinds"] == ["reveal", "cannot"]
    assert named(seen, "PlayerEliminated") == [{"seat": 1, "round": 1, "points": 0, "hand": None}]
    assert named(seen, "HandWon") == [
        {"seat": 0, "laid_down": ["7D", "5H"], "revealed_count": 4, "multiplier": 4, "bonus": 2, "points": 18}
    ]
    assert seen[-1] == ("MatchEnded", {"winner": 0, "totals": [18, 0]})
    log = stored(tables, table.table_id)
    assert [p["nonce"] for _, n, p in log if n == "SubmissionSealed" and p["seat"] == 0][1] == resolved["nonces"][0]
    code, out = verify(stub.GetRecord(pb.GetRecordRequest(table_id=table.table_id)).jsonl, tmp_path / "re.jsonl")
    assert code == 0 and "record verified" in out, out


def _known_cards(stream: Sequence[pb.WatchTableResponse], viewer: int | None) -> list[set[str] | None]:
    """For each message of ``viewer``'s stream, the cards the viewer may know then (section 9), learnt
    only from the events it may see: in a hand, its own dealt cards, its own auxiliary cards turned up
    and every card made public (revealed when a round resolves, laid down by the winner); from
    ``HandEnded`` to the next ``HandStarted``, every card (None)."""
    out: list[set[str] | None] = []
    known: set[str] | None = set()
    for message in stream:
        name, payload = message.event.name, json.loads(message.event.payload_json)
        if name == "HandStarted":
            known = set()
        elif name in ("HandEnded", "ShuffleRevealed", "MatchEnded"):
            known = None
        elif known is not None:
            if name in ("CardsDealt", "AuxiliaryUsed") and payload["seat"] == viewer:
                known.update(payload["cards"] if name == "CardsDealt" else [payload["card"]])
            elif name == "RoundResolved":
                known.update(c for cards in payload["cards"] for c in cards)
            elif name == "HandWon":
                known.update(payload["laid_down"])
        out.append(None if known is None else set(known))
    return out


def test_watching_shows_no_card_a_viewer_may_not_see_and_no_other_seats_auxiliary_card(
    stub: Stub, auth: Auth, tables: Tables
) -> None:
    """Section 9, R5.4, R6.4: each seat's stream -- every event and the view after it -- names only its
    own cards and the public ones, a spectator's only the public ones; another seat's dealt cards,
    sealed payload and nonce come as null; an ``AuxiliaryUsed`` reaches only its own seat and is not
    counted in the others' positions, which run 1, 2, 3 ... without a gap."""
    table = play_match(stub, auth)
    log = stored(tables, table.table_id)
    used = Counter(p["seat"] for _, n, p in log if n == "AuxiliaryUsed")
    assert used == {0: 1, 1: 2 + 2, 2: 2 + 2}
    for viewer in (0, 1, 2, None):
        metadata = () if viewer is None else table.seats[viewer]
        stream = watch_all(stub, table.table_id, metadata)
        others = sum(k for seat, k in used.items() if seat != viewer)
        assert [m.event.version for m in stream] == list(range(1, len(log) - others + 1)), viewer
        for message, known in zip(stream, _known_cards(stream, viewer), strict=True):
            name, payload = message.event.name, json.loads(message.event.payload_json)
            view = json.loads(message.view.view_json)
            assert view["seat"] == viewer
            if name == "AuxiliaryUsed":
                assert payload["seat"] == viewer, (viewer, payload)
            if name == "CardsDealt" and payload["seat"] != viewer:
                assert payload["cards"] is None
            if name == "SubmissionSealed" and payload["seat"] != viewer:
                assert (payload["payload"], payload["nonce"]) == (None, None)
            if name == "PlayerEliminated":
                assert payload["hand"] is None
            if known is None:
                continue
            shown = set(CARD.findall(message.event.payload_json)) | set(CARD.findall(message.view.view_json))
            assert shown <= known, (viewer, message.event.version, name, sorted(shown - known))


def test_a_match_of_server_bots_from_seeded_deals_verifies_and_tampered_copies_fail(
    stub: Stub, tables: Tables, tmp_path: Path
) -> None:
    """Seeded deals (R3.2): each hand's deal is revealed with its salt, the seed, and matches the
    commitment; the bots (both levels) play to the end of the match (R11.1); the record verifies
    offline.  Tampered copies fail naming the rule: a changed reveal in a sealed submission no longer
    hashes to its seal (R5.2); a changed deal no longer matches its commitment (R3.2); a changed
    winner's points break the hash chain (REC5)."""
    match = bot_match(stub, tables, "romis", {"target_score": 30}, ("heuristic", "random", "heuristic"))
    view, log, record = match.view, match.log, match.record
    assert view["match_over"] and view["winner"] is not None
    assert view["totals"][view["winner"]] >= 30 and view["totals"].count(max(view["totals"])) == 1  # R11.1
    revealed = [p for _, n, p in log if n == "ShuffleRevealed"]
    started = [p for _, n, p in log if n == "HandStarted"]
    assert len(revealed) == len(started) >= 1
    for deal, hand in zip(revealed, started, strict=True):
        assert re.fullmatch(r"[0-9a-f]{64}", deal["salt"]) and deal["salt"] == hand["seed"], deal
    assert [p["dealer"] for p in started] == [(2 + h) % 3 for h in range(len(started))]  # R3.1, R3.8
    code, out = verify(record, tmp_path / "bots.jsonl")
    assert code == 0 and "record verified" in out, out

    sealed = [json.loads(line)["payload"] for line in record.splitlines() if '"name":"SubmissionSealed"' in line]
    nth = next(i for i, p in enumerate(sealed) if p["payload"]["kind"] == "reveal")

    def other_cards(payload: dict[str, Any]) -> None:
        cards = payload["payload"]["cards"]
        cards[0] = next(c for c in ALL_CODES if c not in cards)

    code, out = verify(tamper(record, "SubmissionSealed", other_cards, rehash=True, nth=nth), tmp_path / "seal.jsonl")
    assert code == 1 and "REC5" not in out, out
    assert re.search(r"first discrepancy at seq \d+ \(SubmissionSealed\), rule R5\.2: seat \d's sealed payload", out), (
        out
    )

    def swapped(payload: dict[str, Any], key: str) -> None:
        payload[key][-2:] = payload[key][-1], payload[key][-2]  # the last two cards of the stock

    changed = tamper(record, "HandStarted", lambda p: swapped(p, "deck"), rehash=True)
    changed = tamper(changed, "ShuffleRevealed", lambda p: swapped(p, "order"), rehash=True)
    code, out = verify(changed, tmp_path / "deal.jsonl")
    assert code == 1 and "REC5" not in out, out
    assert "HandStarted: hand 1: the recorded deck order is not the one the seed gives (rule R3.2)" in out, out

    def more_points(payload: dict[str, Any]) -> None:
        payload["points"] += 5

    code, out = verify(tamper(record, "HandWon", more_points, rehash=False), tmp_path / "chain.jsonl")
    assert code == 1 and "rule REC5" in out and "HandWon" in out, out


def test_malformed_romis_requests_are_invalid_arguments_and_record_nothing(stub: Stub, auth: Auth) -> None:
    """A request that cannot be a romis command or deal is ``INVALID_ARGUMENT`` with its reason: a card
    code that does not parse (``bad_card``, R2.2); a deal that is not the 52-card deck, has hands of the
    wrong size, a starter, or too short a stock (``bad_deal``, R3.7, the message naming the rule); an
    explicit deal from a seat is ``PERMISSION_DENIED`` (R13.4: a table command).  Nothing is recorded."""
    table = romis_table(stub, auth, {})
    good = explicit(2, HAND_1)
    hands = [list(h.cards) for h in good.hands]
    stock = list(good.stock)
    bad = (
        pb.ExplicitDeal(hands=good.hands, stock=stock[:-1]),
        pb.ExplicitDeal(hands=good.hands, stock=[*stock[:-1], "6H"]),  # 6H twice, the last card missing
        pb.ExplicitDeal(hands=good.hands[:2], stock=stock),
        pb.ExplicitDeal(hands=[pb.CardList(cards=hands[0][:4]), *good.hands[1:]], stock=[hands[0][4], *stock]),
        pb.ExplicitDeal(hands=good.hands, stock=stock[1:], starter=stock[0]),
        pb.ExplicitDeal(deck=[*(c for h in hands for c in h), *stock]),
    )
    table.bad_deals(bad, good, rule="R3.7")
    table.start(good)
    table.malformed(
        [
            (reveal("ZZ", "6H"), "bad_card"),
            (reveal("10H", "6H"), "bad_card"),
            (reveal("6H", "7H", companions=["1H"]), "bad_card"),
        ]
    )
