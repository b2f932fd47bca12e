"""Giminaičiai's commands and events in words (docs/rules/giminaiciai.md sections 8 and 9)."""

from __future__ import annotations

from giminaiciai_helpers import last_hand

from trapoula.domain.games.giminaiciai.text import describe_command, describe_event

NAMES = ["ann", "bob", "cy"]


def test_r11_commands_in_words() -> None:
    """R11.1-R11.3: the two draws, a discard and a lay-down with extra pile cards and a discard."""
    assert describe_command({"kind": "draw", "source": "stock"}) == "draw from the stock"
    assert describe_command({"kind": "draw", "source": "discard"}) == "take the top card of the discard pile"
    assert describe_command({"kind": "discard", "card": "TS"}) == "discard 10♠"
    lay = {"kind": "lay_down", "groups": [["4H", "5H", "6H"], ["KC", "KD", "KS", "QS"]], "extra": 1, "discard": "2C"}
    assert describe_command(lay) == "lay down 4♥ 5♥ 6♥ | K♣ K♦ K♠ Q♠ with 1 from the pile, discard 2♣"


def test_section_9_events_in_words() -> None:
    """Section 9: a stock card is named only to its drawer; a pile card to everyone (R4.2)."""
    drawn = {"seat": 1, "source": "stock", "card": None, "stock_card": None}
    assert describe_event("CardDrawn", drawn, NAMES, me=0) == "bob draws from the stock"
    assert describe_event("CardDrawn", {**drawn, "stock_card": "7H"}, NAMES, me=1) == "You draw from the stock (7♥)"
    taken = {"seat": 2, "source": "discard", "card": "QS", "stock_card": None}
    assert describe_event("CardDrawn", taken, NAMES, me=0) == "cy takes Q♠ from the discard pile"
    laid = {"seat": 0, "groups": [["4H", "5H", "6H", "5D"]], "extra_cards": ["5C"], "discard": "9S", "cards_laid": 5}
    assert describe_event("HandLaidDown", laid, NAMES, me=1) == (
        "ann lays down 4♥ 5♥ 6♥ 5♦ (5 cards, 1 from the pile, discarding 9♠)"
    )
    assert describe_event("PointsScored", {"seat": 0, "points": 10, "reason": "finishing_bonus"}, NAMES) == (
        "ann scores 10 (finishing bonus)"
    )
    ended = last_hand(1, "all_finished", 0, [14, 3, 3], [14, 3, 3], [[], [], []])
    assert describe_event("HandEnded", ended, NAMES) == (
        "Hand over (all finished). Points: ann 14, bob 3, cy 3. Totals: ann 14, bob 3, cy 3"
    )
