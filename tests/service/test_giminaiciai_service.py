"""Giminaičiai over gRPC (docs/rules/giminaiciai.md), on SQLite and PostgreSQL (the ``server`` fixture's stores).

A match of three people (ann, bob, cy) to :data:`TARGET` points on a table with ``manual_deal``, its
three hands dealt explicitly by the owner and played command by command through ``Act``, with every
refusal of section 8:

* hand 1 (:data:`HANDS_1`, dealer 2): ann takes the starter and lays down 8 cards; bob draws from the
  stock, discards, and later lays down 9 cards with one extra card from the pile; cy, left alone,
  lays down two groups with an extra pile card and a discard (R4-R7).  Hand points 17, 5, 1.
* between the hands a seat command is refused (``hand_over``, R8.1); the deal passes on (R3.7); the
  owner's ``next_hand`` is refused during a hand and after the match (R11.4).
* hand 2 (:data:`DECK_2`, a whole deck, dealer 0): ann and bob tie on 18 at the target, so the match
  goes on (R9.2).
* hand 3 (dealer 1): ann alone leads with 20 and wins (R9.1).

A refused command records nothing (section 8): the table's version is checked after each one.  The
watchers' streams are checked for cards they may not see (section 9), the record verifies offline,
and tampered copies fail naming the rule.  A match of server bots from seeded deals verifies too.

The thin client of ``trapoula.clients`` is not used to talk to the server here, only the generated
stubs; ``trapoula verify`` (the command line) checks the records.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections import Counter
from collections.abc import Mapping, Sequence
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
    listed_game,
    other_salt,
    tamper,
    zero_salt,
)
from grpc_helpers import Auth, Stub, stored, verify, view_of, watch_all

from trapoula.api.v1 import table_pb2 as pb
from trapoula.service.application import Tables

pytestmark = pytest.mark.timeout(180)

NAMES = ("ann", "bob", "cy")
"""Seats 0-2."""
TARGET = 18
"""The match's ``target_score`` (R10.1): reached after hand 1 by nobody, after hand 2 by two players at
once (R9.2), after hand 3 by ann alone (R9.1)."""


def stock_after(hands: Sequence[str], starter: str, top: str) -> list[str]:
    """The stock of an explicit deal (R3.8): ``top`` (codes, top first), then every unused card in
    canonical order."""
    used = {c for h in hands for c in h.split()} | {starter, *top.split()}
    assert len(used) == 7 * len(hands) + 1 + len(top.split()), "a card is given twice"
    return [*top.split(), *(c for c in ALL_CODES if c not in used)]


# --------------------------------------------------------------------------- hand 1: hands, starter, stock

HANDS_1 = ("4H 5H 6H 7H 5D 7S 7D", "KH KC KD QH JH TH 2C", "9C 9D 9S 8S TS 3C 3D")
"""Seat 0 holds the group of docs/rules/giminaiciai.md R6.7 (ill. 72); seat 1 the king set with the hearts
run; seat 2 the nines with 8S and TS, and two threes."""
STARTER_1 = "8H"
STOCK_1 = stock_after(HANDS_1, STARTER_1, "AH KS 9H 3H")
"""Drawn in this order: AH by bob, KS by cy, 9H by bob, 3H by cy."""

PLAY_1: tuple[Step, ...] = (
    (1, {"kind": "draw", "source": "stock"}, ("not_your_turn", "R4.8")),  # seat 0 plays first (R3.1, R4.1)
    (0, {"kind": "discard", "card": "4H"}, ("must_draw_first", "R4.8")),
    (0, {"kind": "lay_down", "groups": [HANDS_1[0].split()]}, ("must_draw_first", "R4.8")),
    (0, {"kind": "draw", "source": "discard"}, None),  # takes the starter 8H (R4.2)
    (0, {"kind": "draw", "source": "stock"}, ("already_drawn", "R4.8")),
    (0, {"kind": "discard", "card": "8H"}, ("cannot_discard_taken_card", "R4.5")),
    (0, {"kind": "discard", "card": "AS"}, ("card_not_in_hand", "R4.4")),
    (
        0,
        {"kind": "lay_down", "groups": [HANDS_1[0].split()], "discard": "8H"},
        ("cannot_discard_taken_card", "R4.5"),
    ),
    (
        0,
        {"kind": "lay_down", "groups": [["4H", "5H", "6H"], ["7H", "8H", "5D"], ["7S", "7D"]]},
        ("bad_group_count", "R5.1"),
    ),
    (0, {"kind": "lay_down", "groups": [["4H", "5H", "6H", "7H", "8H", "5D", "7S"]]}, ("cards_mismatch", "R5.1")),
    (
        0,
        {"kind": "lay_down", "groups": [["4H", "5H", "6H", "7H", "8H"], ["5D", "7S", "7D"]]},
        ("illegal_group", "R6.5"),
    ),
    (
        0,
        {"kind": "lay_down", "groups": [["4H", "5H", "6H", "7H", "8H", "5D", "7S", "7D"]], "extra": 1},
        ("not_enough_discards", "R5.3"),
    ),
    # main 4H-8H, 5D on 5H, 7S and 7D on 7H (R6.4), listed in any order (R6.3, decision 13)
    (0, {"kind": "lay_down", "groups": [["7D", "7S", "4H", "5H", "6H", "7H", "8H", "5D"]]}, None),
    (1, {"kind": "draw", "source": "discard"}, ("empty_pile", "R4.2")),  # ann took the only pile card
    (1, {"kind": "draw", "source": "stock"}, None),  # AH; ann 1 (R7.3)
    (1, {"kind": "discard", "card": "2C"}, None),
    (2, {"kind": "draw", "source": "stock"}, None),  # KS; ann 1
    (2, {"kind": "discard", "card": "KS"}, None),  # a stock card may go at once (R4.5)
    (0, {"kind": "draw", "source": "stock"}, ("not_your_turn", "R4.8")),  # finished: skipped (R4.1, R5.5)
    (1, {"kind": "draw", "source": "stock"}, None),  # 9H; ann 1
    (
        1,
        {"kind": "lay_down", "groups": [["9H", "TH", "JH", "QH", "KH", "AH", "KC", "KD", "KS"]]},
        ("card_not_in_hand", "R5.6"),  # KS is on the pile: it needs extra 1
    ),
    (
        1,
        {"kind": "lay_down", "groups": [["9H", "TH", "JH", "QH", "KH", "AH", "KC", "KD", "KS", "2C"]], "extra": 2},
        ("extra_card_does_not_fit", "R5.3"),  # 2C, under KS, fits no main card
    ),
    (
        1,
        {"kind": "lay_down", "groups": [["9H", "TH", "JH", "QH", "KH", "AH", "KC", "KD", "KS", "2C"]], "extra": 3},
        ("not_enough_discards", "R5.3"),
    ),
    # 9 cards: main hearts 9-A, KC KD on KH, then the pile's KS on KH (R5.3)
    (1, {"kind": "lay_down", "groups": [["9H", "TH", "JH", "QH", "KH", "AH", "KC", "KD", "KS"]], "extra": 1}, None),
    (2, {"kind": "draw", "source": "stock"}, None),  # 3H, cy alone (R4.1); ann 1, bob 1
    (
        2,
        {
            "kind": "lay_down",
            "groups": [["9C", "9D", "9S", "8S"], ["3C", "3D", "3H", "2C"]],
            "discard": "2C",
            "extra": 1,
        },
        ("card_not_in_hand", "R5.2"),  # an extra card is no hand card: it cannot be the discard
    ),
    (
        2,
        {
            "kind": "lay_down",
            "groups": [["9C", "9D", "9S", "8S"], ["3C", "3D", "3H", "2C"]],
            "discard": "TS",
            "extra": 1,
        },
        None,
    ),
)
"""Hand 1.  Scored by hand (R7): ann 10 (first, R7.1) + 1 (8 cards, R7.2) + 1 for each card taken by
the others after she finished: bob's AH, cy's KS, bob's 9H and his extra KS, cy's 3H and her extra 2C
(R7.3) = 17; bob 3 (9 cards) + 1 each for cy's 3H and 2C = 5; cy 1 (8 cards: 7 from the hand and 2C)."""

# --------------------------------------------------------------------------- hand 2: a whole deck

HANDS_2 = ("2H 3H 4H 5H 6H 7H 8H", "2D 3D 4D 5D 6D 7D 8D", "2S 3S 4S 5S 6S 7S KC")
STARTER_2 = "AC"


def deck_2() -> list[str]:
    """Hand 2 as the deck order of R3.6 for dealer 0: card i < 21 goes to seat (1 + i) mod 3, so the
    hands are dealt bob, cy, ann, one card at a time; then the starter AC; then the stock 9D 8S 9H ..."""
    dealt = [HANDS_2[(1 + i) % 3].split()[i // 3] for i in range(21)]
    return [*dealt, STARTER_2, *stock_after(HANDS_2, STARTER_2, "9D 8S 9H")]


DECK_2 = deck_2()

PLAY_2: tuple[Step, ...] = (
    (0, {"kind": "draw", "source": "stock"}, ("not_your_turn", "R4.8")),  # dealer 0: bob plays first (R3.7)
    (1, {"kind": "draw", "source": "stock"}, None),  # 9D
    (1, {"kind": "lay_down", "groups": [["2D", "3D", "4D", "5D", "6D", "7D", "8D", "9D"]]}, None),
    (2, {"kind": "draw", "source": "stock"}, None),  # 8S; bob 1
    (2, {"kind": "lay_down", "groups": [["2S", "3S", "4S", "5S", "6S", "7S", "8S"]], "discard": "KC"}, None),
    (0, {"kind": "draw", "source": "stock"}, None),  # 9H; bob 1, cy 1
    (0, {"kind": "lay_down", "groups": [["2H", "3H", "4H", "5H", "6H", "7H", "8H", "9H"]]}, None),
)
"""Hand 2: bob 10 + 1 + 1 + 1 = 13, cy 0 + 1 = 1 (7 cards and a discard), ann 1 (8 cards).  Totals
17 + 1 = 18, 5 + 13 = 18, 1 + 1 = 2: two players share the lead at the target, the match goes on (R9.2)."""

# --------------------------------------------------------------------------- hand 3

HANDS_3 = ("2H 3H 4H 5H 6H 7H 8H", "2D 3D 4D 5D 6D 7D KC", "2C 3C 4C 5C 6C 7C 8C")
STARTER_3 = "AS"
STOCK_3 = stock_after(HANDS_3, STARTER_3, "9C 9H 8D")

PLAY_3: tuple[Step, ...] = (
    (2, {"kind": "draw", "source": "stock"}, None),  # dealer 1: cy first; 9C
    (2, {"kind": "lay_down", "groups": [["2C", "3C", "4C", "5C", "6C", "7C", "8C", "9C"]]}, None),
    (0, {"kind": "draw", "source": "stock"}, None),  # 9H; cy 1
    (0, {"kind": "lay_down", "groups": [["2H", "3H", "4H", "5H", "6H", "7H", "8H", "9H"]]}, None),
    (1, {"kind": "draw", "source": "stock"}, None),  # 8D; cy 1, ann 1
    (1, {"kind": "lay_down", "groups": [["2D", "3D", "4D", "5D", "6D", "7D", "8D"]], "discard": "KC"}, None),
    (0, {"kind": "draw", "source": "stock"}, ("hand_over", "R8.1")),  # the match is over
)
"""Hand 3: cy 10 + 1 + 1 + 1 = 13, ann 1 + 1 = 2, bob 0.  Totals 20, 18, 15: ann alone leads at the
target and wins (R9.1)."""

# --------------------------------------------------------------------------- helpers


def wire(payload: Mapping[str, Any]) -> pb.Command:
    """A giminaiciai command payload as a ``Command`` message (the proto's DrawCard.source,
    DiscardCard and LayDown)."""
    kind = payload["kind"]
    if kind == "draw":
        return pb.Command(draw=pb.DrawCard(source=payload["source"]))
    if kind == "discard":
        return pb.Command(discard=pb.DiscardCard(card=payload["card"]))
    if kind == "lay_down":
        return pb.Command(
            lay_down=pb.LayDown(
                groups=[pb.CardList(cards=g) for g in payload["groups"]],
                discard=payload.get("discard") or "",
                extra=payload.get("extra", 0),
            )
        )
    raise AssertionError(kind)


def by_hands(hands: Sequence[str], starter: str, stock: Sequence[str]) -> pb.ExplicitDeal:
    """An explicit deal by hands, starter and stock (R3.8)."""
    return pb.ExplicitDeal(hands=[pb.CardList(cards=h.split()) for h in hands], starter=starter, stock=list(stock))


def giminaiciai_table(stub: Stub, auth: Auth, options: Mapping[str, Any]) -> ManualTable:
    """A giminaiciai table over gRPC with ann, bob and cy at seats 0-2 and ``manual_deal``: the owner
    deals every hand (R11.4)."""
    return ManualTable(stub, auth, "giminaiciai", NAMES, wire, options)


def play_match(stub: Stub, auth: Auth) -> ManualTable:
    """The three hands of the module docstring, to the end of the match."""
    table = giminaiciai_table(stub, auth, {"target_score": TARGET})
    table.start(by_hands(HANDS_1, STARTER_1, STOCK_1))
    table.run(PLAY_1)
    table.next_hand(pb.ExplicitDeal(deck=DECK_2))
    table.run(PLAY_2)
    table.next_hand(by_hands(HANDS_3, STARTER_3, STOCK_3))
    table.run(PLAY_3)
    return table


def points(seen: Sequence[tuple[str, Any]]) -> list[tuple[int, int, str]]:
    """The ``PointsScored`` events among ``seen``: ``(seat, points, reason)``."""
    return [(p["seat"], p["points"], p["reason"]) for n, p in seen if n == "PointsScored"]


# --------------------------------------------------------------------------- tests


def test_list_games_offers_giminaiciai_with_its_option_and_bot_levels(stub: Stub) -> None:
    """Game key ``giminaiciai``, 2 to 6 players (R2.3), the one table option of section 7 with its
    default 200 (R10.1), the computer players, and no seat changes."""
    assert listed_game(stub, "giminaiciai") == (
        ("Giminaičiai", 2, 6, False),
        ["random", "heuristic"],
        {"target_score": 200},
    )


def test_a_giminaiciai_table_checks_its_seats_options_and_totals(stub: Stub) -> None:
    """R2.3: 2 to 6 players; R10.1: ``target_score`` an integer from 1; section 7: no other option
    (the initial totals of R10.2 are the table's ``initial_totals``, one per seat)."""
    refused: list[TableCase] = [
        (1, {}, (), None, "bad_seats"),
        (7, {}, (), None, "bad_seats"),
        (3, {"target_score": 0}, (), None, "bad_option"),
        (3, {"target_score": "high"}, (), None, "bad_option"),
        (3, {"target": 100}, (), None, "bad_option"),
        (3, {}, (10, 20), None, "bad_config"),
    ]
    checks_tables(stub, "giminaiciai", refused, accepted=(2, 6))


def test_three_hands_through_act_with_every_refusal_of_section_8(
    stub: Stub, auth: Auth, tables: Tables, tmp_path: Path
) -> None:
    """Hand 1 from explicit hands (R3.8): every refusal of R11.1-R11.3 that fits it, each naming its
    reason and rule and recording nothing; the draws from both piles (R4.2), lay-downs of 8 and 9 cards,
    with extra pile cards (R5.3) and a discard (R5.2), and the points of R7 worked out in
    :data:`PLAY_1`.  Between hands a seat command is ``hand_over`` (R8.1); the owner's ``next_hand`` is
    ``hand_in_progress`` during a hand and ``match_over`` after the match (R11.4); hand 2 from a whole
    deck (R3.6) ties the lead at the target (R9.2); hand 3 ends the match (R9.1).  The record verifies."""
    table = giminaiciai_table(stub, auth, {"target_score": TARGET})
    started = table.start(by_hands(HANDS_1, STARTER_1, STOCK_1))
    assert [e.name for e in started.events] == ["MatchStarted", "HandStarted", *["CardsDealt"] * 3, "StarterTurned"]
    hand = json.loads(started.events[1].payload_json)
    assert (hand["hand_no"], hand["dealer"], hand["first_to_act"]) == (1, 2, 0)  # R3.1: seat n-1 deals
    assert (hand["explicit_deal"], hand["deck"], hand["seed"]) == (True, None, None)  # hidden until the end
    assert json.loads(started.events[-1].payload_json) == {"card": "8H"}  # R3.4
    for seat in range(3):  # R3.3: each seat sees its own seven cards and the public table
        _, view = view_of(stub, table.table_id, table.seats[seat])
        assert sorted(view["hand"]) == sorted(HANDS_1[seat].split())
        assert (view["to_act"], view["discard_pile"], view["stock_count"]) == (0, ["8H"], 30)  # R3.5: 52 - 21 - 1

    table.refused_deal(by_hands(HANDS_3, STARTER_3, STOCK_3), ("hand_in_progress", "R8.3"))  # R11.4
    seen = table.run(PLAY_1[:13])  # ann's turn
    assert seen[0] == ("CardDrawn", {"seat": 0, "source": "discard", "card": "8H", "stock_card": None})
    laid = seen[1]
    assert laid == (
        "HandLaidDown",
        {
            "seat": 0,
            "groups": [["7D", "7S", "4H", "5H", "6H", "7H", "8H", "5D"]],  # as sent (decision 13)
            "extra_cards": [],
            "discard": None,
            "cards_laid": 8,
        },
    )
    assert points(seen) == [(0, 10, "finishing_bonus"), (0, 1, "extra_card_bonus")]  # R7.1, R7.2
    assert seen[-1] == ("PlayerFinished", {"seat": 0, "place": 1})

    seen = table.run(PLAY_1[13:])
    drawn = [(p["seat"], p["source"], p["stock_card"]) for n, p in seen if n == "CardDrawn"]
    assert drawn == [(1, "stock", "AH"), (2, "stock", "KS"), (1, "stock", "9H"), (2, "stock", "3H")]
    layings = [p for n, p in seen if n == "HandLaidDown"]
    assert [(p["seat"], p["extra_cards"], p["discard"], p["cards_laid"]) for p in layings] == [
        (1, ["KS"], None, 9),
        (2, ["2C"], "TS", 8),
    ]
    assert points(seen) == [
        (0, 1, "card_taken"),  # bob's AH
        (0, 1, "card_taken"),  # cy's KS
        (0, 1, "card_taken"),  # bob's 9H
        (0, 1, "card_taken"),  # bob's extra KS
        (1, 3, "extra_card_bonus"),  # 9 cards
        (0, 1, "card_taken"),  # cy's 3H
        (1, 1, "card_taken"),
        (0, 1, "card_taken"),  # cy's extra 2C
        (1, 1, "card_taken"),
        (2, 1, "extra_card_bonus"),  # 8 cards
    ]
    ended = next(p for n, p in seen if n == "HandEnded")
    assert ended == {
        "hand_no": 1,
        "reason": "all_finished",  # R8.1
        "winner": 0,
        "hand_points": [17, 5, 1],
        "totals": [17, 5, 1],
        "remaining": [[], [], []],
    }
    assert [n for n, _ in seen[-2:]] == ["HandEnded", "ShuffleRevealed"]  # no MatchEnded: 17 < 18
    _, view = view_of(stub, table.table_id, table.seats[1])
    assert (view["phase"], view["hand_over"], view["next_dealer"], view["discard_pile"]) == ("hand_over", True, 0, [])
    assert view["laid"][2] == [["9C", "9D", "9S", "8S"], ["3C", "3D", "3H", "2C"]]  # R5.5: public

    table.run([(1, {"kind": "draw", "source": "stock"}, ("hand_over", "R8.1"))])  # manual_deal: no hand yet
    started = table.next_hand(pb.ExplicitDeal(deck=DECK_2))
    hand = json.loads(started.events[0].payload_json)
    assert (hand["hand_no"], hand["dealer"], hand["first_to_act"]) == (2, 0, 1)  # R3.7
    for seat in range(3):  # R3.6: the deck dealt one card at a time from the seat after the dealer
        _, view = view_of(stub, table.table_id, table.seats[seat])
        assert sorted(view["hand"]) == sorted(HANDS_2[seat].split())
    seen = table.run(PLAY_2)
    assert points(seen) == [
        (1, 10, "finishing_bonus"),
        (1, 1, "extra_card_bonus"),
        (1, 1, "card_taken"),
        (1, 1, "card_taken"),
        (2, 1, "card_taken"),
        (0, 1, "extra_card_bonus"),
    ]
    ended = next(p for n, p in seen if n == "HandEnded")
    assert (ended["hand_points"], ended["totals"]) == ([1, 13, 1], [18, 18, 2])
    assert "MatchEnded" not in [n for n, _ in seen]  # R9.2: ann and bob share the lead

    table.next_hand(by_hands(HANDS_3, STARTER_3, STOCK_3))
    seen = table.run(PLAY_3)
    ended = next(p for n, p in seen if n == "HandEnded")
    assert (ended["hand_points"], ended["totals"]) == ([2, 0, 13], [20, 18, 15])
    assert seen[-1] == ("MatchEnded", {"winner": 0, "totals": [20, 18, 15]})

    table.refused_deal(by_hands(HANDS_3, STARTER_3, STOCK_3), ("match_over", "R9.1"))  # R11.4
    version, view = view_of(stub, table.table_id, table.seats[2])
    assert (view["match_over"], view["winner"], view["totals"], view["table"]["status"]) == (
        True,
        0,
        [20, 18, 15],
        "over",
    )
    log = stored(tables, table.table_id)
    assert version == len(log)  # nothing recorded for a refusal
    names = Counter(n for _, n, _ in log)
    assert names == {
        "TableCreated": 1,
        "SeatTaken": 3,
        "MatchStarted": 1,
        "HandStarted": 3,
        "CardsDealt": 9,
        "StarterTurned": 3,
        "CardDrawn": 11,
        "CardDiscarded": 2,
        "HandLaidDown": 9,
        "PointsScored": 24,
        "PlayerFinished": 9,
        "HandEnded": 3,
        "ShuffleRevealed": 3,
        "MatchEnded": 1,
    }
    # R3.2, section 9: the commitment of an explicit deal is SHA-256 of the deck order of R3.6, ":" and no salt
    commitments = [p["commitment"] for _, n, p in log if n == "HandStarted"]
    assert commitments[1] == hashlib.sha256((",".join(DECK_2) + ":").encode("ascii")).hexdigest()
    revealed = [p for _, n, p in log if n == "ShuffleRevealed"]
    assert revealed[1] == {"hand_no": 2, "deck": DECK_2, "salt": ""}
    assert revealed[0]["deck"][21:] == [STARTER_1, *STOCK_1]  # R3.6: the starter, then the stock

    record = stub.GetRecord(pb.GetRecordRequest(table_id=table.table_id))
    assert record.hands == 3
    code, out = verify(record.jsonl, tmp_path / "match.jsonl")
    assert code == 0 and "record verified" in out, out
    assert "match winner: ann" in out, out


def _visible_cards(log: Sequence[tuple[int, str, dict[str, Any]]], seat: int | None) -> dict[int, set[str] | None]:
    """For each version, the cards ``seat`` (None: a spectator) may know then (section 9): in a hand,
    its own dealt and stock-drawn cards and every card made public (the starter, a card taken from the
    pile, discards, laid groups and extra cards); from ``HandEnded`` to the next ``HandStarted``, every
    card (None): the hands left and the deck are revealed (R3.2, R8.2)."""
    out: dict[int, set[str] | None] = {}
    known: set[str] | None = set()
    for version, name, payload in log:
        if name == "HandStarted":
            known = set()
        elif name in ("HandEnded", "ShuffleRevealed", "MatchEnded"):
            known = None
        elif known is not None:
            if name == "CardsDealt" and payload["seat"] == seat:
                known.update(payload["cards"])
            elif name == "CardDrawn":
                if payload["card"]:
                    known.add(payload["card"])
                if payload["seat"] == seat and payload["stock_card"]:
                    known.add(payload["stock_card"])
            elif name in ("StarterTurned", "CardDiscarded"):
                known.add(payload["card"])
            elif name == "HandLaidDown":
                known.update(c for g in payload["groups"] for c in g)
                known.update(payload["extra_cards"])
                if payload["discard"]:
                    known.add(payload["discard"])
        out[version] = None if known is None else set(known)
    return out


@pytest.mark.parametrize("viewer", [0, 1, 2, None], ids=["ann", "bob", "cy", "spectator"])
def test_watching_a_seat_shows_no_card_of_the_other_hands_or_the_stock(
    stub: Stub, auth: Auth, tables: Tables, viewer: int | None
) -> None:
    """Section 9 and DESIGN Visibility: during a hand a seat's stream -- every event and the view after
    it -- names only its own cards, the stock cards it drew, and the public ones; a spectator only the
    public ones.  The deck, the seed and the others' dealt and stock-drawn cards come as null."""
    table = play_match(stub, auth)
    log = stored(tables, table.table_id)
    visible = _visible_cards(log, viewer)
    metadata = () if viewer is None else table.seats[viewer]
    stream = watch_all(stub, table.table_id, metadata)
    assert [m.event.version for m in stream] == list(range(1, len(log) + 1))  # then it ends: match over
    hidden_draws = 0
    for message in stream:
        version, name = message.event.version, message.event.name
        payload = json.loads(message.event.payload_json)
        if name == "HandStarted":
            assert (payload["deck"], payload["seed"]) == (None, None)
        if name == "CardsDealt" and payload["seat"] != viewer:
            assert payload["cards"] is None and payload["count"] == 7
        if name == "CardDrawn" and payload["source"] == "stock" and payload["seat"] != viewer:
            assert payload["stock_card"] is None
            hidden_draws += 1
        known = visible[version]
        view = json.loads(message.view.view_json)
        assert view["seat"] == viewer and "hands" not in view
        if known is None:
            continue
        named = set(CARD.findall(message.event.payload_json)) | set(CARD.findall(message.view.view_json))
        assert named <= known, (viewer, version, name, sorted(named - known))
    # ten stock draws in the match: ann draws 9H twice, bob AH, 9H, 9D, 8D, cy KS, 3H, 8S, 9C
    assert hidden_draws == {0: 8, 1: 6, 2: 6, None: 10}[viewer]


def test_the_record_verifies_and_tampered_copies_fail_naming_the_rule(stub: Stub, auth: Auth, tmp_path: Path) -> None:
    """docs/record.md: a changed ``PointsScored`` breaks the hash chain (REC5); with the chain recomputed,
    the replay finds that the rules give other points (R7); a lay-down of an extra card that was never
    on the pile is refused by the rules (R5.6); a changed salt no longer matches the commitment (R3.2)."""
    table = play_match(stub, auth)
    record = stub.GetRecord(pb.GetRecordRequest(table_id=table.table_id)).jsonl
    code, out = verify(record, tmp_path / "clean.jsonl")
    assert code == 0, out

    def more_points(payload: dict[str, Any]) -> None:
        payload["points"] += 5

    code, out = verify(tamper(record, "PointsScored", more_points, rehash=False), tmp_path / "t1.jsonl")
    assert code == 1 and "rule REC5" in out and "PointsScored" in out, out

    code, out = verify(tamper(record, "PointsScored", more_points, rehash=True), tmp_path / "t2.jsonl")
    assert code == 1 and "REC5" not in out, out
    assert "PointsScored" in out and "field 'points' is 15, the rules give 10" in out and "(rule R7)" in out, out

    def other_extra(payload: dict[str, Any]) -> None:
        payload["extra_cards"] = ["QS"]
        payload["groups"] = [["9H", "TH", "JH", "QH", "KH", "AH", "KC", "KD", "QS"]]

    code, out = verify(tamper(record, "HandLaidDown", other_extra, rehash=True, nth=1), tmp_path / "t3.jsonl")
    assert code == 1 and "REC5" not in out and "seq 24 HandLaidDown" in out, out
    assert "'QS' is neither in his hand nor among the top 1 card(s)" in out and "(rule R5.6)" in out, out

    code, out = verify(tamper(record, "ShuffleRevealed", zero_salt, rehash=True), tmp_path / "t4.jsonl")
    assert code == 1 and "rule R3.2" in out, out


def test_a_match_of_server_bots_from_seeded_deals_verifies_and_a_changed_salt_fails_r3_2(
    stub: Stub, tables: Tables, tmp_path: Path
) -> None:
    """Seeded deals (R3.2): every hand's salt is its seed, revealed in ``ShuffleRevealed`` and matching
    the commitment; the bots (both levels) play to the end of the match (R9.1); the record verifies
    offline, and a changed salt is caught by the commitment (R3.2)."""
    match = bot_match(stub, tables, "giminaiciai", {"target_score": 30}, ("heuristic", "random", "heuristic"))
    view, log = match.view, match.log
    assert view["match_over"] and view["winner"] is not None
    assert view["totals"][view["winner"]] >= 30 and view["totals"].count(max(view["totals"])) == 1  # R9.1
    hands = 0
    for _, name, payload in log:
        if name == "ShuffleRevealed":
            hands += 1
            assert re.fullmatch(r"[0-9a-f]{64}", payload["salt"]), payload
            started = next(p for _, n, p in log if n == "HandStarted" and p["hand_no"] == payload["hand_no"])
            text = ",".join(payload["deck"]) + ":" + payload["salt"]
            assert started["commitment"] == hashlib.sha256(text.encode("ascii")).hexdigest()
    dealers = [p["dealer"] for _, n, p in log if n == "HandStarted"]
    assert dealers == [(2 + h) % 3 for h in range(hands)]  # R3.1, R3.7
    code, out = verify(match.record, tmp_path / "bots.jsonl")
    assert code == 0, out

    code, out = verify(tamper(match.record, "ShuffleRevealed", other_salt, rehash=True), tmp_path / "salt.jsonl")
    assert code == 1 and "rule R3.2" in out and "commitment" in out, out


def test_malformed_giminaiciai_requests_are_invalid_arguments_and_record_nothing(stub: Stub, auth: Auth) -> None:
    """A request that cannot be a giminaiciai command or deal is ``INVALID_ARGUMENT`` with its reason: a
    card code that does not parse (``bad_card``), a source other than stock or discard, a negative
    ``extra`` (``bad_command``, R4.2, R5.3), a deal that is not the 52-card deck or has hands of the
    wrong size (``bad_deal``, R3.8); an explicit deal from a seat is ``PERMISSION_DENIED`` (S5.3).
    Nothing is recorded."""
    table = giminaiciai_table(stub, auth, {})
    deck = [*HANDS_1[0].split(), *HANDS_1[1].split(), *HANDS_1[2].split(), STARTER_1, *STOCK_1]
    bad = (
        pb.ExplicitDeal(deck=deck[:51]),
        pb.ExplicitDeal(deck=[*deck[:51], "4H"]),  # 4H twice, AS missing
        by_hands(HANDS_1[:2], STARTER_1, STOCK_1),
        by_hands((HANDS_1[0], HANDS_1[1], "9C 9D 9S 8S TS 3C"), STARTER_1, [*STOCK_1, "3D"]),
    )
    table.bad_deals(bad, pb.ExplicitDeal(deck=deck))
    table.start(pb.ExplicitDeal(deck=deck))
    table.malformed(
        [
            ({"kind": "discard", "card": "ZZ"}, "bad_card"),
            ({"kind": "discard", "card": "10H"}, "bad_card"),
            ({"kind": "draw", "source": "pile"}, "bad_command"),
            ({"kind": "lay_down", "groups": [["4H", "5H", "XX"]]}, "bad_card"),
            ({"kind": "lay_down", "groups": [["4H", "5H", "6H"]], "extra": -1}, "bad_command"),
            ({"kind": "lay_down", "groups": [["4H", "5H", "6H"]], "discard": "1H"}, "bad_card"),
        ]
    )
