"""Golden playthroughs: regenerate each match and diff it with its file (STYLE habit 11d).

``pytest tests/golden --update-golden`` rewrites the files; the diff is then reviewed like code.
"""

from __future__ import annotations

import difflib
from pathlib import Path

import pytest

from .playthrough import Scenario, render

HERE = Path(__file__).parent

SCENARIOS = (
    Scenario(
        game="agonia",
        name="default-4p",
        n=4,
        # default options (target 100, R7.1); totals near the target so the match ends soon (R6.7)
        initial_totals=(80, 85, 90, 95),
    ),
    Scenario(
        game="agonia",
        name="announce-skip-turn-2p",
        n=2,
        options={"target_points": 0, "announce_cards": True, "announce_penalty": "skip_turn"},
        p_variant=0.5,  # miss about half the announcements (R7.5.2)
    ),
    Scenario(
        game="agonia",
        name="dealer-chooses-last-cards-3p",
        n=3,
        options={
            "target_points": 0,
            "starter_ace_suit": "dealer",
            "ace_last_card": True,
            "eight_last_card": True,
            "seven_last_card": "forbidden",
        },
        # this seed turns up the ace of clubs, so the dealer chooses the suit (R7.2.2)
        first_seed="287046f39861f03f7e2192a443da4668cf4005c446bab33ffa1e269b640911a8",
    ),
)
"""Every golden playthrough: default options with four players; two players with announcements
and the skip-turn penalty; three players with the dealer choosing the suit on an ace up-card,
aces and eights allowed as last cards and sevens forbidden as last cards."""


def _path(scenario: Scenario) -> Path:
    return HERE / scenario.game / f"{scenario.name}.txt"


@pytest.mark.parametrize("scenario", SCENARIOS, ids=[f"{s.game}/{s.name}" for s in SCENARIOS])
def test_playthrough_matches_its_golden_file(scenario: Scenario, update_golden: bool) -> None:
    """Every command, event, view and legal command list is as recorded in the golden file."""
    text = render(scenario)
    path = _path(scenario)
    if update_golden:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
        return
    assert path.exists(), f"{path.name} is missing: run `pytest tests/golden --update-golden`"
    expected = path.read_text(encoding="utf-8")
    if text != expected:
        diff = difflib.unified_diff(
            expected.splitlines(), text.splitlines(), f"{path.name} (golden)", f"{path.name} (now)", lineterm=""
        )
        shown = "\n".join(line[:300] for line in list(diff)[:80])
        pytest.fail(
            f"{path.name} differs from the playthrough; if the change is intended, run "
            f"`pytest tests/golden --update-golden` and review the diff:\n{shown}"
        )


def test_the_playthrough_is_deterministic() -> None:
    """Rendering twice gives the same text (fixed seeds, a seeded player, sorted JSON)."""
    assert render(SCENARIOS[1]) == render(SCENARIOS[1])


def test_every_golden_file_belongs_to_a_scenario() -> None:
    """No stale golden file is left behind when a scenario is renamed or removed."""
    files = {p.relative_to(HERE).as_posix() for p in HERE.glob("*/*.txt")}
    assert files == {_path(s).relative_to(HERE).as_posix() for s in SCENARIOS}


def test_the_golden_playthroughs_show_the_rules_they_were_chosen_for() -> None:
    """The chosen seeds and players do reach what each file is meant to show (so a rules change
    that loses it is noticed even after ``--update-golden``)."""
    texts = {s.name: render(s) for s in SCENARIOS}
    assert "event MatchEnded:" in texts["default-4p"] and '"reason":"target"' in texts["default-4p"]
    assert "event AnnouncementMissed:" in texts["announce-skip-turn-2p"]
    assert '"reason":"announce_penalty"' in texts["announce-skip-turn-2p"]
    assert "event SuitChosen:" in texts["dealer-chooses-last-cards-3p"]
    assert 'event StarterTurned: {"active_suit":"C","card":"AC","chooser":2' in texts["dealer-chooses-last-cards-3p"]
