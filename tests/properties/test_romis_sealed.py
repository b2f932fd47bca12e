"""The sealed-round check of the property harness can fail (docs/rules/romis.md R5.2, R5.4, R6.4).

``adapter_romis.sealed_choices_do_not_leak`` runs at the harness's sampled states; each broken copy
of the game below lets a sealed choice or an auxiliary card show to another viewer, and the harness
must report it within a few random matches.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any

import pytest

from trapoula.domain.events import Viewer
from trapoula.domain.games.romis import SPEC, events
from trapoula.domain.games.romis.state import RomisState
from trapoula.domain.registry import GAMES

from .harness import play_and_check, random_case

CASES = 40
"""Random matches tried before a mutant counts as missed (each is caught within the first few)."""


def _hand_sizes_with_auxiliary_cards(state: RomisState, viewer: Viewer) -> dict[str, Any]:
    """R5.4 broken: the hand sizes count an auxiliary card turned up in the open round."""
    view = dict(SPEC.seat_view(state, viewer))
    if state.hands and view["phase"] == "play":
        view["hand_sizes"] = [len(h) for h in state.hands]
    return view


def _pending_kinds(state: RomisState, viewer: Viewer) -> dict[str, Any]:
    """R5.2 broken: the view says which seats sealed ``cannot``."""
    view = dict(SPEC.seat_view(state, viewer))
    if state.submissions:
        view["gave_up"] = [s for s, sub in enumerate(state.submissions) if sub is not None and sub.kind == "cannot"]
    return view


MUTANT_VIEWS: dict[str, Callable[[RomisState, Viewer], dict[str, Any]]] = {
    "hand-sizes-count-auxiliary-cards": _hand_sizes_with_auxiliary_cards,
    "view-names-who-cannot": _pending_kinds,
}


def _caught(fragment: str) -> None:
    for index in range(CASES):
        case = dataclasses.replace(random_case("romis", index), sample_rate=1.0)
        try:
            play_and_check(case)
        except AssertionError as failure:
            assert fragment in str(failure), str(failure)
            return
    raise AssertionError(f"no failure in {CASES} matches")


@pytest.mark.parametrize("mutant", sorted(MUTANT_VIEWS))
def test_a_view_that_tells_a_sealed_choice_is_caught(mutant: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """R5.4: a view of another seat that changes with a seat's private turn is reported."""
    monkeypatch.setitem(GAMES, "romis", dataclasses.replace(SPEC, seat_view=MUTANT_VIEWS[mutant]))
    _caught("beyond who has submitted (R5.4)")


def test_an_auxiliary_card_sent_to_the_others_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """Section 9: ``AuxiliaryUsed`` not withheld would reach the others, even redacted (R5.4)."""
    monkeypatch.setattr(events.AuxiliaryUsed, "withheld", False)
    _caught("reaches")
