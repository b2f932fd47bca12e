"""Vida over gRPC (docs/rules/vida.md), on SQLite and PostgreSQL (the ``server`` fixture's stores).

Two hands are dealt explicitly and played command by command through ``Act``, with every refusal
of section 8 that fits them:

* :data:`DECK_A` (a whole deck, R3.2/R3.3): the auction goes to the fourth vida (R4.5, R4.7 b),
  the table compares the declarations after the auction (R5.7), belote is announced (R5.9), and
  the duties of play are refused where broken (R4.10-R4.12).  The hand, worked by hand in
  :data:`PLAY_A`, fails the contract at x8 (R6.3, R6.7) and ends the match (R6.9, R6.10).
* :data:`HANDS_B` and :data:`WIDOW_B` (explicit hands and widow, R3.4) under ``open_vida`` and the
  Pilotta timing: the holder takes the widow and gives three cards (R5.1), declarations are made
  with ``declare`` during the first trick (R5.8), and the hand of :data:`PLAY_B` is made.

A refused command records nothing (section 8): the table's version is checked after each one.
The watchers' streams are checked for cards they may not see (section 9, D30), and the records
verify offline, while tampered copies fail naming the rule (R3.2 for the commitment).

The thin client of ``trapoula.clients`` is not used to talk to the server here, only the
generated stubs; ``trapoula verify`` (the command line) checks the records.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections import Counter
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import grpc
import pytest
from game_tables import (
    CARD,
    ManualTable,
    TableCase,
    bot_match,
    checks_tables,
    listed_game,
    other_salt,
    rejected,
    tamper,
    zero_salt,
)
from grpc_helpers import Auth, Meta, Stub, stored, verify, view_of, watch_all
from vida_helpers import SCORE_A

from trapoula.api.v1 import table_pb2 as pb
from trapoula.domain.games.vida import SPEC as VIDA
from trapoula.service.application import Tables

pytestmark = pytest.mark.timeout(180)

NAMES = ("ann", "bob", "cy", "dee")
"""Seats 0-3; team 0 = ann and cy, team 1 = bob and dee (R2.3)."""


# --------------------------------------------------------------------------- hand A: a whole deck

HANDS_A = (
    "AH TH AS KS QS 7D 8D 9D",
    "7H 7S 8S 9S TS JS TD JD",
    "QH 9H KH AC KC 7C AD KD",
    "JH 8H TC JC 9C 8C QC QD",
)
"""The hands dealt from :data:`DECK_A` by dealer 3, in deck-position order (R3.3)."""

DECK_A_TEXT = "AH TH AS 7H 7S 8S QH 9H KH JH 8H TC KS QS 9S TS AC KC JC 9C 7D 8D 9D JS TD JD 7C AD KD 8C QC QD"
DECK_A = DECK_A_TEXT.split()
"""Dealer 3 deals 3-2-3 from the top to seats 0, 1, 2, 3 (R3.3): seat 0 gets deck[0..2] + [12..13] +
[20..22] = AH TH AS + KS QS + 7D 8D 9D, seat 1 deck[3..5] + [14..15] + [23..25], and so on."""

AUCTION_A: tuple[tuple[int, dict[str, Any], tuple[str, str] | None], ...] = (
    (1, {"kind": "pass"}, ("not_your_turn", "R4.1")),  # seat 0 speaks first (R4.2)
    (0, {"kind": "vida"}, ("no_bid", "R4.5")),
    (0, {"kind": "bid", "points": 85, "suit": "H"}, ("invalid_points", "R4.3")),
    (0, {"kind": "bid", "points": 90, "suit": "X"}, ("invalid_suit", "R4.3")),
    (0, {"kind": "play", "card": "AH"}, ("wrong_phase", "R4.1")),
    (0, {"kind": "bid", "points": 80, "suit": "H"}, None),
    (1, {"kind": "bid", "points": 80, "suit": "S"}, ("bid_too_low", "R4.3")),
    (1, {"kind": "pass"}, None),
    (2, {"kind": "vida"}, ("not_entitled", "R4.5")),  # level 1 belongs to the defenders (D3)
    (2, {"kind": "pass"}, None),
    (3, {"kind": "vida"}, None),  # vida x2
    (0, {"kind": "bid", "points": 90, "suit": "H"}, ("bidding_closed", "R4.6")),
    (0, {"kind": "vida"}, None),  # contra vida x4, by the bidders
    (1, {"kind": "vida"}, None),  # third vida x6, by the defenders
    (2, {"kind": "declare"}, ("wrong_phase", "R4.1")),  # declarations need the Pilotta timing (R5.8)
    (2, {"kind": "vida"}, None),  # fourth vida x8 closes the auction at once (R4.7 b)
    (3, {"kind": "vida"}, ("wrong_phase", "R4.1")),
)
"""The auction of hand A: each command, and the refusal expected (reason, rule) or None."""

PLAY_A: tuple[tuple[int, dict[str, Any], tuple[str, str] | None], ...] = (
    (0, {"kind": "play", "card": "KH"}, ("card_not_in_hand", "R4.10")),
    (0, {"kind": "play", "card": "6H"}, ("invalid_card", "R2.2")),  # no 2-6 in Vida
    (0, {"kind": "play", "card": "AH"}, None),  # trick 1: trumps led
    (1, {"kind": "play", "card": "7S"}, ("must_follow_suit", "R4.10")),
    (1, {"kind": "play", "card": "7H"}, None),  # his only trump, lower: allowed (R4.12)
    (2, {"kind": "play", "card": "KH", "belote": True}, ("must_overtrump", "R4.12")),  # 9H beats AH
    (2, {"kind": "play", "card": "9H"}, None),
    (3, {"kind": "play", "card": "8H"}, ("must_overtrump", "R4.12")),  # JH beats 9H
    (3, {"kind": "play", "card": "JH"}, None),  # AH 7H 9H JH: dee, 11+0+14+20 = 45
    (3, {"kind": "play", "card": "QD"}, None),  # trick 2
    (0, {"kind": "play", "card": "AS"}, ("must_follow_suit", "R4.10")),
    (0, {"kind": "play", "card": "7D"}, None),
    (1, {"kind": "play", "card": "TD"}, None),
    (2, {"kind": "play", "card": "AD"}, None),  # QD 7D TD AD: cy, 3+0+10+11 = 24
    (2, {"kind": "play", "card": "AC", "belote": True}, ("belote_not_allowed", "R5.9")),
    (2, {"kind": "play", "card": "KH", "belote": True}, None),  # trick 3: the first of K and Q of trumps
    (3, {"kind": "play", "card": "8H"}, None),
    (0, {"kind": "play", "card": "TH"}, None),
    (1, {"kind": "play", "card": "7S"}, None),  # KH 8H TH 7S: ann, 4+0+10+0 = 14
    (0, {"kind": "play", "card": "AS"}, None),  # trick 4
    (1, {"kind": "play", "card": "8S"}, None),
    (2, {"kind": "play", "card": "AC"}, ("must_trump", "R4.11")),
    (2, {"kind": "play", "card": "QH", "belote": True}, ("belote_not_allowed", "R5.9")),  # the second card
    (2, {"kind": "play", "card": "QH"}, None),
    (3, {"kind": "play", "card": "8C"}, None),  # AS 8S QH 8C: cy, 11+0+3+0 = 14
    (2, {"kind": "play", "card": "AC"}, None),  # trick 5
    (3, {"kind": "play", "card": "9C"}, None),
    (0, {"kind": "play", "card": "8D"}, None),
    (1, {"kind": "play", "card": "9S"}, None),  # AC 9C 8D 9S: cy, 11
    (2, {"kind": "play", "card": "KD"}, None),  # trick 6
    (3, {"kind": "play", "card": "JC"}, None),
    (0, {"kind": "play", "card": "9D"}, None),
    (1, {"kind": "play", "card": "JD"}, None),  # KD JC 9D JD: cy, 4+2+0+2 = 8
    (2, {"kind": "play", "card": "KC"}, None),  # trick 7
    (3, {"kind": "play", "card": "TC"}, None),
    (0, {"kind": "play", "card": "KS"}, None),
    (1, {"kind": "play", "card": "JS"}, None),  # KC TC KS JS: dee, 4+10+4+2 = 20
    (3, {"kind": "play", "card": "QC"}, None),  # trick 8
    (0, {"kind": "play", "card": "QS"}, None),
    (1, {"kind": "play", "card": "TS"}, None),
    (2, {"kind": "play", "card": "7C"}, None),  # QC QS TS 7C: dee, 3+3+10+0 + 10 = 26
    (0, {"kind": "pass"}, ("match_over", "R6.10")),
)
"""The play of hand A, hearts trumps, ann leading (R4.9): team 0 takes tricks 2-6 (24 + 14 + 14 +
11 + 8 = 71), team 1 tricks 1, 7, 8 (45 + 20 + 26 = 91)."""


# --------------------------------------------------------------------------- hand B: open vida, Pilotta

HANDS_B = ("JS 9S AS TS 7H 8H 9H", "7D 9D JD KD 7S 8S TH", "AH KH QH JH AC TC KC", "9C JC QC 8D TD QD AD")
"""Seven cards each (R3.4)."""
WIDOW_B = ("KS", "QS", "7C", "8C")
"""Face up (R3.4); ann takes it with the contract and gives 7C to bob, 8C to cy, 7H to dee (R5.1)."""
OPTIONS_B = {
    "open_vida": True,
    "declaration_timing": "before_first_card",
    "target_score": 100,
    "wins_needed": 1,
    "first_dealer": 3,
}
"""Open vida (R3.4, R5.1), the Pilotta timing (R5.8), one game to 100 (R6.9, R6.10), dealer seat 3 (R3.1)."""

EXCHANGE_B: tuple[tuple[int, dict[str, Any], tuple[str, str] | None], ...] = (
    (0, {"kind": "bid", "points": 90, "suit": "S"}, None),
    (1, {"kind": "pass"}, None),
    (2, {"kind": "pass"}, None),
    (3, {"kind": "give", "cards": ["AD", "QD", "TD"]}, ("wrong_phase", "R4.1")),
    (3, {"kind": "pass"}, None),  # three passes after a bid close the auction (R4.7 a)
    (1, {"kind": "give", "cards": ["7C", "8C", "7H"]}, ("not_your_turn", "R4.1")),
    (0, {"kind": "play", "card": "JS"}, ("wrong_phase", "R4.1")),  # nothing before the give (R5.1)
    (0, {"kind": "give", "cards": ["7C", "8C", "6H"]}, ("invalid_card", "R2.2")),
    (0, {"kind": "give", "cards": ["7C", "8C", "AD"]}, ("card_not_in_hand", "R5.1")),
    (0, {"kind": "give", "cards": ["7C", "8C"]}, ("invalid_give", "R5.1")),
    (0, {"kind": "give", "cards": ["7C", "7C", "7H"]}, ("invalid_give", "R5.1")),
    (0, {"kind": "give", "cards": ["7C", "8C", "7H"]}, None),
)
"""The auction and the exchange of hand B."""

PLAY_B: tuple[tuple[int, dict[str, Any], tuple[str, str] | None], ...] = (
    (0, {"kind": "declare"}, None),  # A-K-Q-J-T-9 of spades: seq6
    (0, {"kind": "declare"}, ("already_declared", "R5.8")),
    (0, {"kind": "play", "card": "JS"}, None),  # trick 1
    (1, {"kind": "declare"}, ("nothing_to_declare", "R5.8")),
    (1, {"kind": "play", "card": "TH"}, ("must_follow_suit", "R4.10")),
    (1, {"kind": "play", "card": "7S"}, None),
    (2, {"kind": "declare"}, None),  # A-K-Q-J of hearts: seq4
    (2, {"kind": "play", "card": "8C"}, None),
    (3, {"kind": "play", "card": "9C"}, None),  # JS 7S 8C 9C: ann, 20; then the comparison (R5.8)
    (0, {"kind": "declare"}, ("too_late", "R5.8")),
    (0, {"kind": "play", "card": "KS", "belote": True}, None),  # trick 2; QS is still in hand
    (1, {"kind": "play", "card": "8S"}, None),
    (2, {"kind": "play", "card": "TC"}, None),
    (3, {"kind": "play", "card": "JC"}, None),  # ann, 4+0+10+2 = 16
    (0, {"kind": "play", "card": "8H"}, None),  # trick 3
    (1, {"kind": "play", "card": "TH"}, None),
    (2, {"kind": "play", "card": "JH"}, None),
    (3, {"kind": "play", "card": "7H"}, None),  # bob, 0+10+2+0 = 12
    (1, {"kind": "play", "card": "7C"}, None),  # trick 4
    (2, {"kind": "play", "card": "KC"}, None),
    (3, {"kind": "play", "card": "QC"}, None),
    (0, {"kind": "play", "card": "9S"}, None),  # ann trumps: 0+4+3+14 = 21
    (0, {"kind": "play", "card": "9H"}, None),  # trick 5
    (1, {"kind": "play", "card": "7D"}, None),
    (2, {"kind": "play", "card": "QH"}, None),
    (3, {"kind": "play", "card": "8D"}, None),  # cy, 3
    (2, {"kind": "play", "card": "AC"}, None),  # trick 6
    (3, {"kind": "play", "card": "TD"}, None),
    (0, {"kind": "play", "card": "TS"}, None),
    (1, {"kind": "play", "card": "9D"}, None),  # ann, 11+10+10+0 = 31
    (0, {"kind": "play", "card": "QS"}, None),  # trick 7
    (1, {"kind": "play", "card": "JD"}, None),
    (2, {"kind": "play", "card": "KH"}, None),
    (3, {"kind": "play", "card": "QD"}, None),  # ann, 3+2+4+3 = 12
    (0, {"kind": "play", "card": "AS"}, None),  # trick 8
    (1, {"kind": "play", "card": "KD"}, None),
    (2, {"kind": "play", "card": "AH"}, None),
    (3, {"kind": "play", "card": "AD"}, None),  # ann, 11+4+11+11 + 10 = 47
)
"""The play of hand B, spades trumps, ann leading (R4.9)."""

SCORE_B = {
    "contract": {"holder": 0, "team": 0, "points": 90, "suit": "S", "level": 0, "multiplier": 1},
    "tricks_won": [7, 1],
    "trick_points_raw": [150, 12],
    "capot_team": None,
    "trick_points": [150, 10],
    "declaration_points": [150, 0],
    "belote_points": [20, 0],
    "contract_points": [320, 12],
    "contract_made": True,
    "hand_points": [410, 10],
    "totals": [410, 10],
}
"""Hand B scored by hand: team 0 takes 20 + 16 + 21 + 3 + 31 + 12 + 47 = 150, team 1 12.  Declared
(R5.8): ann's sixth (100) and cy's quarte (50), team 1 none: 150 to team 0.  Belote 20 (ann held K
and Q of spades after taking the widow, R5.9).  Made (R6.3): 320 >= 90 and > 12; booked (R6.5)
90 + 150 + 150 + 20 = 410 and 10 (12 rounds down, R6.4)."""

# --------------------------------------------------------------------------- helpers


def wire(payload: Mapping[str, Any]) -> pb.Command:
    """A vida command payload as a ``Command`` message (the proto's Bid, CallVida, GiveCards,
    Declare, PassTurn and PlayCard with ``belote``)."""
    kind = payload["kind"]
    if kind == "bid":
        return pb.Command(bid=pb.Bid(points=payload["points"], suit=payload["suit"]))
    if kind == "pass":
        message = pb.Command()
        getattr(message, "pass").SetInParent()  # "pass" is a Python keyword
        return message
    if kind == "vida":
        return pb.Command(vida=pb.CallVida())
    if kind == "give":
        return pb.Command(give=pb.GiveCards(cards=payload["cards"]))
    if kind == "declare":
        return pb.Command(declare=pb.Declare())
    if kind == "play":
        return pb.Command(play=pb.PlayCard(card=payload["card"], belote=payload.get("belote", False)))
    raise AssertionError(kind)


def vida_table(stub: Stub, auth: Auth, options: Mapping[str, Any], first_dealer: int | None = None) -> ManualTable:
    """A vida table over gRPC with four people seated: ann, bob, cy, dee at seats 0-3, created for
    explicit deals (``manual_deal``: R3.2 as the rules owners answered, an ordinary table takes none)."""
    return ManualTable(stub, auth, "vida", NAMES, wire, options, first_dealer=first_dealer)


def sorted_codes(codes: Sequence[str]) -> list[str]:
    """Card codes in the canonical order the views use (suits C D H S, ranks 7 to A)."""
    ranks, suits = "789TJQKA", "CDHS"
    return sorted(codes, key=lambda c: (suits.index(c[1]), ranks.index(c[0])))


def deck_a() -> pb.ExplicitDeal:
    """:data:`DECK_A` as an explicit deal (R3.2)."""
    return pb.ExplicitDeal(deck=DECK_A)


def hands_b() -> pb.ExplicitDeal:
    """:data:`HANDS_B` and :data:`WIDOW_B` as an explicit deal (R3.2, R3.4)."""
    return pb.ExplicitDeal(hands=[pb.CardList(cards=h.split()) for h in HANDS_B], widow=list(WIDOW_B))


def play_hand_a(stub: Stub, auth: Auth) -> ManualTable:
    """Hand A, played to the end of the match (target 1000, one game)."""
    table = vida_table(stub, auth, {"target_score": 1000, "wins_needed": 1}, first_dealer=3)
    table.start(deck_a())
    table.run(AUCTION_A)
    table.run(PLAY_A)
    return table


def play_hand_b(stub: Stub, auth: Auth) -> ManualTable:
    """Hand B, played to the end of the match (target 100, one game)."""
    table = vida_table(stub, auth, OPTIONS_B)
    table.start(hands_b())
    table.run(EXCHANGE_B)
    table.run(PLAY_B)
    return table


# --------------------------------------------------------------------------- tests


def test_list_games_offers_vida_with_its_options_and_bot_levels(stub: Stub) -> None:
    """R1.1 game key ``vida``, four players (R2.3), the options of section 7 with their defaults
    (and the table's ``max_bid``), and the computer players of section 12."""
    assert listed_game(stub, "vida") == (
        ("Vida", 4, 4, False),
        ["random", "heuristic"],
        VIDA.option_defaults(),  # section 7 (tests/domain/test_vida_deal.py)
    )


def test_a_vida_table_has_four_seats_and_checks_its_options(stub: Stub) -> None:
    """R2.3: exactly four players; section 7: an unknown option or a bad value is refused."""
    refused: list[TableCase] = [
        (3, {}, (), None, "bad_seats"),
        (5, {}, (), None, "bad_seats"),
        (4, {"open_vida": "yes"}, (), None, "bad_option"),
        (4, {"declaration_timing": "never"}, (), None, "bad_option"),
        (4, {"target": 100}, (), None, "bad_option"),
    ]
    checks_tables(stub, "vida", refused)


def test_the_auction_to_the_fourth_vida_and_the_play_of_a_whole_hand(
    stub: Stub, auth: Auth, tables: Tables, tmp_path: Path
) -> None:
    """Hand A from an explicit deck (R3.2, R3.3): every call of the auction up to the fourth vida
    (R4.3-R4.7), the declarations compared after it (R5.7), belote (R5.9) and the duties of play
    (R4.10-R4.12) through ``Act``; each refusal names its section 8 reason and records nothing; the
    score (R6.3, R6.7) ends the game and the match (R6.9, R6.10); the record verifies."""
    table = vida_table(stub, auth, {"target_score": 1000, "wins_needed": 1}, first_dealer=3)
    started = table.start(deck_a())
    names = [e.name for e in started.events]
    assert names == ["MatchStarted", "HandStarted", *["CardsDealt"] * 4]
    hand = json.loads(started.events[1].payload_json)
    assert (hand["dealer"], hand["explicit_deal"], hand["deck"], hand["seed"]) == (3, True, None, None)  # hidden
    for seat in range(4):  # R3.3: each seat sees its own eight cards, in deck-position order
        _, view = view_of(stub, table.table_id, table.seats[seat])
        assert sorted(view["hand"]) == sorted(HANDS_A[seat].split())
        assert view["to_act"] == 0 and view["phase"] == "auction"

    seen = table.run(AUCTION_A)
    assert seen[-3:] == [
        ("VidaCalled", {"seat": 2, "level": 4, "multiplier": 8}),
        ("AuctionClosed", {"holder": 0, "team": 0, "points": 80, "suit": "H", "level": 4, "multiplier": 8}),
        (
            "DeclarationsResolved",
            {
                "winner_team": 1,
                "standoff": False,
                "shown": [
                    {"seat": 1, "kind": "seq5", "cards": ["JS", "TS", "9S", "8S", "7S"], "points": 100},
                    {"seat": 3, "kind": "seq5", "cards": ["QC", "JC", "TC", "9C", "8C"], "points": 100},
                ],
                "tied": None,
                "declaration_points": [0, 200],
            },
        ),
    ]
    calls = [(n, p.get("seat"), p.get("level")) for n, p in seen if n in ("BidMade", "Passed", "VidaCalled")]
    assert calls == [
        ("BidMade", 0, None),
        ("Passed", 1, None),
        ("Passed", 2, None),
        ("VidaCalled", 3, 1),
        ("VidaCalled", 0, 2),
        ("VidaCalled", 1, 3),
        ("VidaCalled", 2, 4),
    ]

    seen = table.run(PLAY_A)
    assert ("BeloteAnnounced", {"seat": 2, "card": "KH"}) in seen
    tricks = [(p["trick_no"], p["winner"], p["points"]) for n, p in seen if n == "TrickTaken"]
    assert tricks == [(1, 3, 45), (2, 2, 24), (3, 0, 14), (4, 2, 14), (5, 2, 11), (6, 2, 8), (7, 3, 20), (8, 3, 26)]
    assert [n for n, _ in seen[-4:]] == ["HandScored", "ShuffleRevealed", "GameWon", "MatchEnded"]
    assert seen[-4][1] == SCORE_A
    assert seen[-3][1] == {"hand_no": 1, "deck": DECK_A, "salt": ""}  # R3.2: revealed when the hand ends
    assert seen[-2][1] == {"game_no": 1, "team": 1, "totals": [0, 1020], "games_won": [0, 1]}
    assert seen[-1][1] == {"winner_team": 1, "games_won": [0, 1]}

    version, view = view_of(stub, table.table_id, table.seats[1])
    assert (view["match_over"], view["winner"], view["totals"], view["table"]["status"]) == (True, 1, [0, 1020], "over")
    log = stored(tables, table.table_id)
    assert version == len(log) == 65  # the table's 5 events and the 60 of the match below, nothing for a refusal
    assert Counter(n for _, n, _ in log) == {
        "TableCreated": 1,
        "SeatTaken": 4,
        "MatchStarted": 1,
        "HandStarted": 1,
        "CardsDealt": 4,
        "BidMade": 1,
        "Passed": 2,
        "VidaCalled": 4,
        "AuctionClosed": 1,
        "DeclarationsResolved": 1,
        "CardPlayed": 32,
        "BeloteAnnounced": 1,
        "TrickTaken": 8,
        "HandScored": 1,
        "ShuffleRevealed": 1,
        "GameWon": 1,
        "MatchEnded": 1,
    }

    # R3.2: the commitment of an explicit deal is SHA-256 of "" + ":" + the deck joined by commas
    commitment = next(p["commitment"] for _, n, p in log if n == "HandStarted")
    assert commitment == hashlib.sha256((":" + ",".join(DECK_A)).encode("ascii")).hexdigest()

    record = stub.GetRecord(pb.GetRecordRequest(table_id=table.table_id))
    assert record.hands == 1
    code, out = verify(record.jsonl, tmp_path / "a.jsonl")
    assert code == 0 and "record verified" in out, out
    assert "match winner: team 1 (bob and dee)" in out


def test_open_vida_exchange_and_declarations_in_the_first_trick(
    stub: Stub, auth: Auth, tables: Tables, tmp_path: Path
) -> None:
    """Hand B from explicit hands and widow (R3.4) with ``open_vida`` and the Pilotta timing: the
    widow is public, the holder takes it and gives three cards (R5.1, D30), ``declare`` works only
    before one's first card (R5.8), the comparison follows the first trick (D33), belote is the
    holder's after the exchange (R5.9), and the hand is scored as worked out in :data:`SCORE_B`."""
    table = vida_table(stub, auth, OPTIONS_B)
    started = table.start(hands_b())
    assert [e.name for e in started.events][-5:] == [*["CardsDealt"] * 4, "WidowExposed"]
    assert json.loads(started.events[-1].payload_json) == {"cards": list(WIDOW_B)}
    dealt = [json.loads(e.payload_json) for e in started.events if e.name == "CardsDealt"]
    assert [(d["seat"], d["count"]) for d in dealt] == [(0, 7), (1, 7), (2, 7), (3, 7)]
    _, view = view_of(stub, table.table_id, table.seats[0])
    assert view["hand"] == sorted_codes(HANDS_B[0].split()) and view["widow"] == list(WIDOW_B)

    seen = table.run(EXCHANGE_B)
    assert ("WidowTaken", {"seat": 0, "cards": list(WIDOW_B)}) in seen
    gifts = [(p["from_seat"], p["to_seat"], p["card"]) for n, p in seen if n == "CardGiven"]
    assert gifts == [(0, 1, "7C"), (0, 2, "8C"), (0, 3, "7H")]  # the giver sees his three cards
    for seat, card in ((1, "7C"), (2, "8C"), (3, "7H")):
        _, view = view_of(stub, table.table_id, table.seats[seat])
        assert view["received"] == card and len(view["hand"]) == 8 and card in view["hand"]
    _, view = view_of(stub, table.table_id, table.seats[0])
    assert view["hand"] == sorted_codes(["JS", "9S", "AS", "TS", "8H", "9H", "KS", "QS"])
    assert (view["phase"], view["to_act"]) == ("play", 0)  # R4.9: dealer+1 leads

    seen = table.run(PLAY_B)
    announced = [p for n, p in seen if n == "DeclarationAnnounced"]
    assert announced == [{"seat": 0, "kinds": ["seq6"]}, {"seat": 2, "kinds": ["seq4"]}]
    first_trick = ("TrickTaken", {"trick_no": 1, "winner": 0, "cards": ["JS", "7S", "8C", "9C"], "points": 20})
    after = seen.index(first_trick) + 1  # D33: compared after the fourth card of the first trick
    name, resolved = seen[after]
    assert name == "DeclarationsResolved"
    assert resolved == {
        "winner_team": 0,
        "standoff": False,
        "shown": [
            {"seat": 0, "kind": "seq6", "cards": ["AS", "KS", "QS", "JS", "TS", "9S"], "points": 100},
            {"seat": 2, "kind": "seq4", "cards": ["AH", "KH", "QH", "JH"], "points": 50},
        ],
        "tied": None,
        "declaration_points": [150, 0],
    }
    assert ("BeloteAnnounced", {"seat": 0, "card": "KS"}) in seen
    scored = next(p for n, p in seen if n == "HandScored")
    assert scored == SCORE_B
    assert seen[-1] == ("MatchEnded", {"winner_team": 0, "games_won": [1, 0]})

    record = stub.GetRecord(pb.GetRecordRequest(table_id=table.table_id))
    code, out = verify(record.jsonl, tmp_path / "b.jsonl")
    assert code == 0 and "record verified" in out, out
    deck = next(p["deck"] for _, n, p in stored(tables, table.table_id) if n == "ShuffleRevealed")
    assert deck[28:] == list(WIDOW_B)  # R3.4: the widow is deck[28..31]


def _visible_cards(log: Sequence[tuple[int, str, dict[str, Any]]], seat: int, upto: int) -> set[str]:
    """The cards ``seat`` may know at version ``upto``: its own dealt, given and received cards, and
    every card made public (the widow, played cards, shown declarations) (section 9, R5.1, R5.7)."""
    known: set[str] = set()
    for version, name, payload in log:
        if version > upto:
            break
        if name == "CardsDealt" and payload["seat"] == seat:
            known.update(payload["cards"])
        elif name == "CardGiven" and seat in (payload["from_seat"], payload["to_seat"]):
            known.add(payload["card"])
        elif name in ("WidowExposed", "WidowTaken", "TrickTaken"):
            known.update(payload["cards"])
        elif name in ("CardPlayed", "BeloteAnnounced"):
            known.add(payload["card"])
        elif name == "DeclarationsResolved":
            for shown in payload["shown"]:
                known.update(shown["cards"])
    return known


@pytest.mark.parametrize("hand", ["A", "B"])
def test_watching_a_seat_shows_no_card_of_the_other_hands(stub: Stub, auth: Auth, tables: Tables, hand: str) -> None:
    """Section 9 and DESIGN Visibility: until the deck is revealed (``ShuffleRevealed``, R3.2) a
    seat's stream -- every event and every view after it -- names only cards that seat may know:
    its own, those given to it or by it (D30), and those made public.  The hidden deck and other
    seats' dealt cards come as null."""
    table = play_hand_a(stub, auth) if hand == "A" else play_hand_b(stub, auth)
    log = stored(tables, table.table_id)
    revealed = next(v for v, n, _ in log if n == "ShuffleRevealed")
    for seat in range(4):
        stream = watch_all(stub, table.table_id, table.seats[seat])
        assert [m.event.version for m in stream] == list(range(1, len(log) + 1))  # then it ends: match over
        for message in stream:
            version = message.event.version
            if version >= revealed:
                break
            payload = json.loads(message.event.payload_json)
            if message.event.name == "HandStarted":
                assert (payload["deck"], payload["seed"]) == (None, None)
            if message.event.name == "CardsDealt" and payload["seat"] != seat:
                assert payload["cards"] is None and payload["count"] == (7 if hand == "B" else 8)
            named = set(CARD.findall(message.event.payload_json)) | set(CARD.findall(message.view.view_json))
            assert named <= _visible_cards(log, seat, version), (seat, version, message.event.name)
            view = json.loads(message.view.view_json)
            assert "hands" not in view and view["seat"] == seat


def test_a_card_given_in_open_vida_reaches_only_the_giver_and_the_receiver(
    stub: Stub, auth: Auth, tables: Tables
) -> None:
    """R5.1, D30: each ``CardGiven`` names its card to the giver (ann) and its receiver only; the
    others see that a card changed hands; a spectator sees no card."""
    table = play_hand_b(stub, auth)
    expected = {1: "7C", 2: "8C", 3: "7H"}
    viewers: list[tuple[int | None, Meta]] = [*enumerate(table.seats), (None, ())]
    for seat, metadata in viewers:
        given = [
            json.loads(m.event.payload_json)
            for m in watch_all(stub, table.table_id, metadata)
            if m.event.name == "CardGiven"
        ]
        assert [(g["from_seat"], g["to_seat"]) for g in given] == [(0, 1), (0, 2), (0, 3)]
        for g in given:
            mine = seat in (0, g["to_seat"])
            assert g["card"] == (expected[g["to_seat"]] if mine else None), (seat, g)
    full = [p for _, n, p in stored(tables, table.table_id) if n == "CardGiven"]
    assert [p["card"] for p in full] == ["7C", "8C", "7H"]


def _bump_points(payload: dict[str, Any]) -> None:
    payload["points"] += 10


def test_the_record_of_hand_a_verifies_and_tampered_copies_fail_naming_the_rule(
    stub: Stub, auth: Auth, tmp_path: Path
) -> None:
    """docs/record.md, R3.2: a BidMade whose points were changed breaks the hash chain (REC5); with the
    chain recomputed, the rules no longer give the recorded contract (the auction closes on 90, not
    80, R4.7: the replay names the field); a changed salt no longer matches the commitment (R3.2)."""
    table = play_hand_a(stub, auth)
    record = stub.GetRecord(pb.GetRecordRequest(table_id=table.table_id)).jsonl
    code, out = verify(record, tmp_path / "clean.jsonl")
    assert code == 0, out

    code, out = verify(tamper(record, "BidMade", _bump_points, rehash=False), tmp_path / "t1.jsonl")
    assert code == 1 and "rule REC5" in out and "BidMade" in out, out

    code, out = verify(tamper(record, "BidMade", _bump_points, rehash=True), tmp_path / "t2.jsonl")
    assert code == 1 and "REC5" not in out, out
    assert "seq 19 AuctionClosed" in out and "field 'points' is 80, the rules give 90" in out, out
    assert "(rule R4.7)" in out, out  # the audit cites Vida's rule for the contract, not a shedding rule
    assert "team 0 (" in out or "team 1 (" in out, out  # totals and winner per team (R2.3)

    code, out = verify(tamper(record, "ShuffleRevealed", zero_salt, rehash=True), tmp_path / "t3.jsonl")
    assert code == 1 and "rule R3.2" in out, out


def test_a_match_of_four_server_bots_from_seeded_deals_verifies_and_a_changed_salt_fails_r3_2(
    stub: Stub, tables: Tables, tmp_path: Path
) -> None:
    """Seeded deals (R3.2): every hand's salt is its seed, revealed in ``ShuffleRevealed``; the bots
    (both levels) play to the end of the match; a changed salt is caught by the commitment (R3.2)."""
    levels = ("heuristic", "random", "heuristic", "random")
    match = bot_match(stub, tables, "vida", {"target_score": 300, "wins_needed": 1}, levels)
    view, log = match.view, match.log
    assert view["match_over"] and max(view["totals"]) > 300 and view["games_won"][view["winner"]] == 1
    for _, name, payload in log:
        if name == "ShuffleRevealed":
            assert re.fullmatch(r"[0-9a-f]{64}", payload["salt"]), payload
            started = next(p for _, n, p in log if n == "HandStarted" and p["hand_no"] == payload["hand_no"])
            text = payload["salt"] + ":" + ",".join(payload["deck"])
            assert started["commitment"] == hashlib.sha256(text.encode("ascii")).hexdigest()
    code, out = verify(match.record, tmp_path / "bots.jsonl")
    assert code == 0, out

    code, out = verify(tamper(match.record, "ShuffleRevealed", other_salt, rehash=True), tmp_path / "salt.jsonl")
    assert code == 1 and "rule R3.2" in out and "commitment" in out, out


def test_malformed_vida_requests_are_invalid_arguments_and_record_nothing(stub: Stub, auth: Auth) -> None:
    """A request that cannot be a Vida command or deal is ``INVALID_ARGUMENT`` with its reason: a
    card code that does not parse (``bad_card``), an over-long suit (``bad_suit``), a deal that is
    not the 32-card deck, or lacks the widow under ``open_vida`` (``bad_deal``, R3.2, R3.4); an
    explicit deal from a seat is ``PERMISSION_DENIED`` (S5.3).  Nothing is recorded."""
    table = vida_table(stub, auth, {}, first_dealer=3)
    bad = (
        pb.ExplicitDeal(deck=DECK_A[:31]),
        pb.ExplicitDeal(deck=[*DECK_A[:31], "6H"]),
        pb.ExplicitDeal(deck=[*DECK_A[:31], "AH"]),
        pb.ExplicitDeal(hands=[pb.CardList(cards=h.split()) for h in HANDS_B], widow=list(WIDOW_B)),
    )
    table.bad_deals(bad, deck_a())
    table.start(deck_a())
    before = table.versions()
    table.malformed(
        [
            ({"kind": "play", "card": "ZZ"}, "bad_card"),
            ({"kind": "play", "card": "10H"}, "bad_card"),
            ({"kind": "give", "cards": ["7C", "XX", "8C"]}, "bad_card"),
            ({"kind": "bid", "points": 90, "suit": "hearts!!!"}, "bad_suit"),
        ]
    )
    request = pb.ActRequest(table_id=table.table_id, command_id="x", command=pb.Command())
    info = rejected(lambda: table.stub.Act(request, metadata=table.seats[0]), grpc.StatusCode.INVALID_ARGUMENT)
    assert info.reason == "bad_command"
    assert table.versions() == before

    open_table = vida_table(stub, auth, {"open_vida": True}, first_dealer=3)
    no_widow = pb.ExplicitDeal(hands=[pb.CardList(cards=h.split()) for h in HANDS_B])
    info = rejected(lambda: open_table.start(no_widow), grpc.StatusCode.INVALID_ARGUMENT)
    assert info.reason == "bad_deal"  # R3.4: the widow is required
