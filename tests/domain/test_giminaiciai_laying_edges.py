"""Edges of the lay-down listing (docs/rules/giminaiciai.md R5, R6.3)."""

from __future__ import annotations

from trapoula.domain.cards import parse_cards
from trapoula.domain.games.giminaiciai.laying import lay_downs


def test_r6_3_an_emptied_hand_lists_no_lay_down() -> None:
    """R6.3: no group has fewer than 3 cards, so a hand of 0-2 cards lists nothing, whatever the pile
    (a seat's hand is empty for a moment after it laid down, R5.5)."""
    pile = parse_cards(["4H", "5H", "6H"])
    assert lay_downs((), None, pile) == ()
    assert lay_downs(parse_cards(["4H", "5H"]), None, pile) == ()
