"""A Giminaičiai view in words (docs/rules/giminaiciai.md section 9): the hand and the target, who laid
down what, the discard pile top first, the stock, the card taken this turn, the hand's points and
the totals; between hands the last hand's ending.  The views are written by hand in the shape of
``seat_view`` (its docstring lists the keys)."""

from __future__ import annotations

from typing import Any

from giminaiciai_helpers import last_hand

from trapoula.clients.text import render_view
from trapoula.domain.games.giminaiciai.text import PILE_SHOWN, describe_event
from trapoula.domain.games.shedding.text import describe_event as shedding_event

NAMES = ["ann", "bob", "cy"]


def _view(**changes: Any) -> dict[str, Any]:
    """Hand 2 of three players, dealer cy (seat 2), ann (seat 0) to act and viewing.

    Hand-worked from the deal (R3.3-R3.5: 52 - 21 - 1 = 30 in the stock): the starter was 9C; ann
    drew from the stock and discarded 2D; bob drew from the stock and laid down 4H 5H 6H 7H | KC KD KS
    discarding JH (10 points, R7.1); cy drew from the stock (bob +1, R7.3) and discarded 7S; ann took
    7S from the pile (bob +1).  Stock 30 - 3 = 27; pile 9C 2D JH (bottom first); bob 12 points.
    """
    view: dict[str, Any] = {
        "game": "giminaiciai",
        "seat": 0,
        "phase": "play",
        "names": list(NAMES),
        "players": 3,
        "hand_no": 2,
        "dealer": 2,
        "first_dealer": 2,
        "to_act": 0,
        "drawn": True,
        "taken": "7S",
        "hand": ["5C", "8C", "3D", "9D", "QH", "4S", "7S", "AS"],
        "hand_sizes": [8, 0, 7],
        "stock_count": 27,
        "discard_pile": ["9C", "2D", "JH"],
        "discard_top": "JH",
        "laid": [[], [["4H", "5H", "6H", "7H"], ["KC", "KD", "KS"]], []],
        "finished": [1],
        "hand_points": [0, 12, 0],
        "totals": [30, 25, 41],
        "target_score": 200,
        "last_hand": None,
        "hand_over": False,
        "next_dealer": None,
        "match_over": False,
        "winner": None,
        "options": {"target_score": 200},
        "legal": [],
    }
    view.update(changes)
    return view


def test_section_9_a_turn_after_taking_from_the_pile() -> None:
    """R3.1, R9.1: the hand, its dealer and the target; R5.5: bob's groups as laid; R3.4, R4.2: the
    pile top first with its size; R3.5: the stock; R4.5: the card taken this turn may not be
    discarded; R7.1, R7.3: bob's 10 + 1 + 1 this hand; the totals before this hand."""
    assert render_view(_view()).splitlines() == [
        "Hand 2, dealer cy; match to 200 points",
        "bob laid down 1st: 4♥ 5♥ 6♥ 7♥ | K♣ K♦ K♠",
        "Discard pile: 3 cards, top first J♥ 2♦ 9♣",
        "Stock 27 cards; hands: ann 8, bob 0, cy 7",
        "To act: ann",
        "Your hand (ann): 5♣ 8♣ 3♦ 9♦ Q♥ 4♠ 7♠ A♠",
        "You took 7♠ from the discard pile this turn: you may not discard it",
        "Points this hand: ann 0, bob 12, cy 0",
        "Totals before this hand: ann 30, bob 25, cy 41",
    ]


def test_r4_2_the_top_of_the_pile_is_shown_before_the_draw() -> None:
    """R4.2: before ann draws, in a hand where nobody has laid down yet, the pile's top card (cy's
    discard 7S) is named first; nothing is taken yet, and with no point scored (R7) no line of points."""
    before = _view(
        drawn=False,
        taken=None,
        hand=["5C", "8C", "3D", "9D", "QH", "4S", "AS"],
        hand_sizes=[7, 7, 7],
        discard_pile=["9C", "2D", "JH", "7S"],
        laid=[[], [], []],
        finished=[],
        hand_points=[0, 0, 0],
    )
    lines = render_view(before).splitlines()
    assert lines[:2] == ["Hand 2, dealer cy; match to 200 points", "Discard pile: 4 cards, top first 7♠ J♥ 2♦ 9♣"]
    assert not any(line.startswith(("You took", "Points this hand", "bob laid down")) for line in lines)
    assert lines[-1] == "Totals before this hand: ann 30, bob 25, cy 41"


def test_r5_3_a_long_pile_names_its_top_cards_and_counts_the_rest() -> None:
    """R5.3 (extra cards come from the top): of a pile of 13, the top 10 are named, top first, and
    the other 3 counted; an empty pile (R4.7) says so."""
    pile = ["2C", "3C", "4C", "5C", "6C", "7C", "8C", "9C", "TC", "JC", "QC", "KC", "AC"]  # bottom first
    assert PILE_SHOWN == 10
    lines = render_view(_view(discard_pile=pile)).splitlines()
    assert lines[2] == "Discard pile: 13 cards, top first A♣ K♣ Q♣ J♣ 10♣ 9♣ 8♣ 7♣ 6♣ 5♣ … and 3 more"
    assert render_view(_view(discard_pile=[])).splitlines()[2] == "Discard pile: empty"


def test_r5_5_finishers_in_order_and_a_spectator_sees_who_took_a_card() -> None:
    """R5.5: seats that laid down in the order they finished (cy 1st, bob 2nd); a spectator sees no
    hand, and the card the seat to act took is named with its seat (R4.2: pile draws are public)."""
    spectator = _view(
        seat=None,
        hand=[],
        laid=[[], [["4H", "5H", "6H", "7H"], ["KC", "KD", "KS"]], [["2S", "3S", "4S", "5S", "6S", "7D", "7C"]]],
        finished=[2, 1],
    )
    lines = render_view(spectator).splitlines()
    assert lines[1:3] == ["cy laid down 1st: 2♠ 3♠ 4♠ 5♠ 6♠ 7♦ 7♣", "bob laid down 2nd: 4♥ 5♥ 6♥ 7♥ | K♣ K♦ K♠"]
    assert "ann took 7♠ from the discard pile this turn" in lines
    assert not any(line.startswith("Your hand") for line in lines)


def test_r8_2_r9_the_match_over_names_the_last_hand_and_the_winner() -> None:
    """R8.2: the hand ended with both piles empty and cy still holding 2 cards.  Hand-worked points:
    bob laid down 8 cards first, 10 + 1 (R7.1, R7.2); ann's draw of the turn she laid down 7 cards
    gave bob 1, then cy's 5 draws gave ann and bob 5 each (R7.3): ann 5, bob 17, cy 0; R8.3: the
    totals after the hand (30 + 5, 190 + 17, 41 + 0); R9.1: bob alone on top at 200 or more wins.
    Between hands nobody holds cards, so no stock, hand sizes or hand are shown."""
    over = _view(
        phase="match_over",
        to_act=None,
        drawn=False,
        taken=None,
        hand=[],
        hand_sizes=[0, 0, 0],
        stock_count=0,
        discard_pile=[],
        laid=[[["5C", "5D", "5S"], ["8H", "9H", "TH", "JH"]], [["AD", "2D", "3D", "AS", "AH", "AC", "KD", "QD"]], []],
        finished=[1, 0],
        totals=[35, 207, 41],
        hand_over=True,
        match_over=True,
        winner=1,
        last_hand=last_hand(2, "piles_exhausted", 1, [5, 17, 0], [35, 207, 41], [[], [], ["6C", "QS"]]),
    )
    assert render_view(over).splitlines() == [
        "Hand 2, dealer cy; match to 200 points",
        "bob laid down 1st: A♦ 2♦ 3♦ A♠ A♥ A♣ K♦ Q♦",
        "You laid down 2nd: 5♣ 5♦ 5♠ | 8♥ 9♥ 10♥ J♥",
        "Hand 2 over (stock and discard pile empty); points: ann 5, bob 17, cy 0",
        "cy was left holding 6♣ Q♠",
        "Totals: ann 35, bob 207, cy 41",
        "Winner: bob",
    ]


def test_r8_1_between_hands_in_a_replay_shows_no_empty_hands() -> None:
    """R8.1, R8.3: everybody laid down 7 cards, ann first (10, R7.1); bob's draw gave ann 1, cy's
    gave ann and bob 1 each (R7.3): 12, 1, 0 added to 30, 25, 41.  The omniscient replay view names
    the finishers in order, the ending and the totals, and lists no empty hand per seat."""
    between = _view(
        seat="all",
        phase="hand_over",
        to_act=None,
        taken=None,
        hand=[],
        hands=[[], [], []],
        hand_sizes=[0, 0, 0],
        finished=[0, 1, 2],
        laid=[
            [["2C", "3C", "4C"], ["9H", "9S", "9D", "8D"]],
            [["JC", "JD", "JH", "QH", "KH", "AH", "2H"]],
            [["5S", "6S", "7S"], ["TC", "TD", "TS", "JS"]],
        ],
        hand_over=True,
        totals=[42, 26, 41],
        last_hand=last_hand(2, "all_finished", 0, [12, 1, 0], [42, 26, 41], [[], [], []]),
    )
    assert render_view(between).splitlines() == [
        "Hand 2, dealer cy; match to 200 points",
        "ann laid down 1st: 2♣ 3♣ 4♣ | 9♥ 9♠ 9♦ 8♦",
        "bob laid down 2nd: J♣ J♦ J♥ Q♥ K♥ A♥ 2♥",
        "cy laid down 3rd: 5♠ 6♠ 7♠ | 10♣ 10♦ 10♠ J♠",
        "Hand 2 over (everybody laid down); points: ann 12, bob 1, cy 0",
        "Totals: ann 42, bob 26, cy 41",
    ]


def test_r3_4_the_starter_starts_the_discard_pile() -> None:
    """R3.4: Giminaičiai's starter (a card and nothing else) starts the discard pile; a shedding game's
    up-card (with its active suit, agonia R3.4) reads as before."""
    assert describe_event("StarterTurned", {"card": "QS"}, NAMES) == "Up-card Q♠ starts the discard pile"
    shedding = {"card": "7H", "active_suit": "H", "pending_draw": 2, "chooser": None}
    assert shedding_event("StarterTurned", shedding, NAMES) == "Up-card 7♥: 2 cards to take"


# --------------------------------------------------------------------------- romis: one's own auxiliary cards


def test_romis_r6_4_the_viewer_counts_his_own_auxiliary_cards_at_once() -> None:
    """romis R5.4, R6.4: the others see ann's 2 auxiliary cards until the round resolves, but ann,
    who turned one up, sees 1 on her own line; bob's line keeps the count of the last resolved round."""
    view = {
        "game": "romis",
        "seat": 0,
        "phase": "play",
        "names": ["ann", "bob"],
        "hand_no": 1,
        "dealer": 1,
        "bonus_factor": 1,
        "target_score": 100,
        "round": 1,
        "attempt": 1,
        "required": 2,
        "revealed": [[], []],
        "auxiliary_counts": [2, 2],
        "auxiliary_left": 1,
        "submitted": [],
        "waiting": [0, 1],
        "hand": ["2C", "4C", "9C", "QD", "KH", "5S"],
    }
    lines = render_view(view).splitlines()
    assert lines[2:4] == ["  you: revealed -; 1 auxiliary card", "  bob: revealed -; 2 auxiliary cards"]
    assert "Your auxiliary cards left (unseen): 1" in lines
