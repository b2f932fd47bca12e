"""Romis su iškritimu's golden playthroughs show the rules they were chosen for (tests/golden/romis/).

``pytest tests/golden`` checks that each file is what the rules give now; this checks that the
chosen seeds and players still reach what each file is meant to show, so a rules change that loses
it is noticed even after ``--update-golden``.  The points are worked out by hand in the scenarios'
comments (tests/golden/test_playthroughs.py).
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

GOLDEN = Path(__file__).resolve().parent.parent / "golden" / "romis"


def _text(name: str) -> str:
    return (GOLDEN / f"{name}.txt").read_text(encoding="utf-8")


def _events(text: str, name: str) -> list[dict[str, Any]]:
    """The full payloads of the events called ``name``, in order."""
    head = f"event {name}: "
    return [json.loads(line[len(head) :]) for line in text.splitlines() if line.startswith(head)]


def _resolved(text: str) -> list[tuple[int, int, list[list[str]]]]:
    """``(round, attempt, cards revealed per seat)`` of every ``RoundResolved``."""
    return [(p["round"], p["attempt"], p["cards"]) for p in _events(text, "RoundResolved")]


def test_two_players_in_the_middle_of_a_match_r10_4_r10_2_r12_3() -> None:
    """R12.2, R12.3: the match starts from totals 80 and 85 with the bonus factor 2.  R6.1, R6.2: bob
    turns up slot 1 only, ann both.  R7.2: ann drops out in round 4 with her 5 revealed cards.  R10.2:
    bob lays down JD, JH, QH, KH, each related to a card revealed or laid before it; R10.3, R10.4, R10.6:
    2 x 10 + 2 x 2 = 24; R11.1: 109 >= 100 ends the match; R10.6: the factor returns to 1."""
    text = _text("two-players-to-100")
    (started,) = _events(text, "MatchStarted")
    assert (started["initial_totals"], started["options"]["carried_bonus_factor"]) == ([80, 85], 2)
    assert [(p["dealer"], p["bonus_factor"]) for p in _events(text, "HandStarted")] == [(1, 2)]
    assert [(p["seat"], p["slot"], p["card"]) for p in _events(text, "AuxiliaryUsed")] == [
        (1, 1, "TD"),
        (0, 1, "TS"),
        (0, 2, "5H"),
    ]
    assert _resolved(text) == [
        (1, 1, [["4C", "4H"], ["TC", "TD"]]),
        (2, 1, [["6D", "7D"], ["5S", "6S"]]),
        (3, 1, [["5H"], ["4S"]]),
        (4, 1, [[], ["6H"]]),
    ]
    assert _events(text, "PlayerEliminated") == [
        {"hand": ["3S", "JC", "QS", "AS", "KD", "TS"], "points": 5, "round": 4, "seat": 0}
    ]
    assert _events(text, "HandWon") == [
        {
            "bonus": 4,
            "laid_down": ["JD", "JH", "QH", "KH"],
            "multiplier": 2,
            "points": 24,
            "revealed_count": 10,
            "seat": 1,
        }
    ]
    (ended,) = _events(text, "HandEnded")
    assert (ended["hand_points"], ended["totals"], ended["bonus_factor"]) == ([5, 24], [85, 109], 1)
    assert ended["auxiliary"] == [["TS", "5H"], ["TD", "KS"]]  # KS never turned up: x2
    assert _events(text, "MatchEnded") == [{"totals": [85, 109], "winner": 1}]


def test_three_players_each_start_a_new_combination_r8() -> None:
    """R8.1, R8.2: four new combinations, two of them with an auxiliary card just turned up (cy's JC,
    ann's 8H with two companions); R8.3: each companion is revealed in the next round, seen by the
    others only as a count until then; R7.1: bob and cy drop out together in round 6 with 7 cards each;
    R10.2: ann lays down her companion 8D: 2 x 9 + 3 = 21."""
    text = _text("three-players-new-combination")
    fresh = [(p["round"], p["new_combination"], p["companions"]) for p in _events(text, "RoundResolved")]
    assert [f for f in fresh if any(f[1])] == [
        (3, [True, False, False], [1, 0, 0]),
        (4, [False, True, True], [0, 1, 1]),
        (5, [True, False, False], [2, 0, 0]),
    ]
    sealed = {
        (p["seat"], p["round"]): (p["payload"]["cards"], p["payload"]["companions"])
        for p in _events(text, "SubmissionSealed")
        if p["payload"]["kind"] == "reveal"
    }
    assert sealed[(0, 3)] == (["5S"], ["5H"]) and sealed[(0, 4)] == (["5H"], [])
    assert sealed[(1, 4)] == (["4S"], ["4C"]) and sealed[(1, 5)] == (["4C"], [])
    assert sealed[(2, 4)] == (["QC"], ["JC"]) and sealed[(2, 5)] == (["JC"], [])
    assert sealed[(0, 5)] == (["8H"], ["8D", "9H"]) and sealed[(0, 6)] == (["9H"], [])
    assert '  seen by seat 1, seat 2, spectator: {"attempt":1,"commitment":' in text  # R5.2: no payload
    assert text.count('"nonce":null,"payload":null,"round":5,"seat":0}') == 1
    used = [(p["seat"], p["slot"], p["card"]) for p in _events(text, "AuxiliaryUsed")]
    assert used == [(1, 1, "2S"), (1, 2, "TC"), (2, 1, "JC"), (0, 1, "8H"), (2, 2, "3D")]
    assert [(p["seat"], p["round"], p["points"]) for p in _events(text, "PlayerEliminated")] == [(1, 6, 7), (2, 6, 7)]
    assert _events(text, "HandWon") == [
        {"bonus": 3, "laid_down": ["8D"], "multiplier": 2, "points": 21, "revealed_count": 9, "seat": 0}
    ]
    (ended,) = _events(text, "HandEnded")
    assert (ended["hand_points"], ended["hands"][0], ended["companions"]) == ([21, 7, 7], ["2H"], [[], [], []])


def test_four_players_extra_cards_and_the_eliminated_pile_as_stock_r7_4_r9_1() -> None:
    """R7.4: seven rounds in which both live players cannot end with one extra card each, in the seat
    order after the dealer (ann, then dee), and the same round replayed; R7.5: only live players, both
    without auxiliary cards, receive them; R9.1: the empty stock is replaced by the 22 cards of the two
    eliminated players (R7.3), shuffled under a commitment published before and revealed after the hand
    (R3.2); R7.2: 4, 8 and 16 points; dee wins with 17 cards, x1, bonus 4: 21."""
    text = _text("four-players-extra-cards")
    assert [(p["round"], p["attempt"]) for p in _events(text, "NobodyCouldReveal")] == [
        (9, 1),
        (10, 1),
        (12, 1),
        (13, 1),
        (14, 1),
        (15, 1),
        (15, 2),
    ]
    extra = [(p["seat"], p["cards"]) for p in _events(text, "CardsDealt") if p["stage"] == "extra"]
    assert [seat for seat, _ in extra] == [0, 3] * 7
    stock_then_pile = ["TH", "KD", "2D", "JD", "4C", "7S", "4S", "JS", "3D", "AS", "5H", "QH", "AD", "TS"]
    assert [c for _, cards in extra for c in cards] == stock_then_pile
    (restocked,) = _events(text, "EliminatedPileRestocked")
    assert restocked["count"] == 22 and restocked["order"][:6] == ["3D", "AS", "5H", "QH", "AD", "TS"]
    assert '  seen by seat 0, seat 1, seat 2, seat 3, spectator: {"count":22,"order":null}' in text
    eliminated = _events(text, "PlayerEliminated")
    assert [(p["seat"], p["round"], p["points"]) for p in eliminated] == [(1, 3, 4), (2, 7, 8), (0, 15, 16)]
    revealed_before = {1: ["6C", "6D", "AC", "AD"], 2: ["3D", "3H", "5S", "6S", "5H", "AH", "AS", "4D"]}
    pile = [c for p in eliminated[:2] for c in (*revealed_before[p["seat"]], *p["hand"])]
    assert sorted(restocked["order"]) == sorted(pile)  # R7.3: every card of bob and cy
    commitments = [p for p in _events(text, "ShuffleCommitted") if p["purpose"] == "eliminated_pile"]
    (shuffled,) = _events(text, "ShuffleRevealed")
    ((purpose, order, salt),) = shuffled["later"]
    assert (purpose, order) == ("eliminated_pile", restocked["order"])
    digest = hashlib.sha256((",".join(order) + ":" + salt).encode("ascii")).hexdigest()
    assert [p["commitment"] for p in commitments] == [digest]  # R3.2, R9.1
    assert _events(text, "HandWon") == [
        {"bonus": 4, "laid_down": [], "multiplier": 1, "points": 21, "revealed_count": 17, "seat": 3}
    ]
    (ended,) = _events(text, "HandEnded")
    assert (ended["hand_points"], ended["hands"][3]) == ([16, 4, 8, 21], ["QH"])
