"""Crazy Eights' golden playthroughs show the rules they were chosen for (tests/golden/crazy_eights/).

``pytest tests/golden`` checks that each file is what the rules give now; this checks that the
chosen seeds and players still reach what each file is meant to show, so a rules change that loses
it is noticed even after ``--update-golden``.
"""

from __future__ import annotations

from pathlib import Path

GOLDEN = Path(__file__).resolve().parent.parent / "golden" / "crazy_eights"


def _text(name: str) -> str:
    return (GOLDEN / f"{name}.txt").read_text(encoding="utf-8")


def test_the_standard_game_buries_two_eights_r3_3_and_ends_with_one_hand_r6_3() -> None:
    text = _text("standard-2p")
    assert 'event StarterBuried: {"card":"8C","position":18}' in text
    assert 'event StarterBuried: {"card":"8D","position":18}' in text
    assert '  seen by seat 0, seat 1, spectator: {"card":"8C","position":null}' in text
    assert text.count("event HandStarted:") == 1
    assert '"reason":"single_hand"' in text


def test_the_points_game_passes_the_deal_left_r6_7_and_ends_at_the_target_r6_6() -> None:
    text = _text("points-3p")
    assert text.count("event HandStarted:") == 2
    assert '"dealer":2,' in text and '"dealer":0,' in text
    assert 'event MatchEnded: {"reason":"target","tied":[],"totals":[126,110,154],"winner":2}' in text


def test_every_option_shows_in_the_all_options_game_section_7() -> None:
    text = _text("all-options-4p")
    assert '"reason":"penalty"' in text  # R5.2, R5.3
    assert '## step 4: {"kind":"draw","seat":0}' in text  # R5.6.1: draws again in the same turn
    assert '## step 5: {"kind":"draw","seat":0}' in text
    assert '"pending_draw":5' in text  # R5.3
    assert 'event TurnSkipped: {"reason":"jack"' in text  # R5.4
    assert 'event DirectionReversed: {"direction":-1}' in text  # R5.5
    assert '"hand_points":[0,0,23,0],"hand_values":[10,10,4,15]' in text  # R6.5: (10-4)+(10-4)+(15-4)
    assert '"reason":"blocked"' in text
    assert 'event MatchEnded: {"reason":"target","tied":[],"totals":[40,50,83,59],"winner":2}' in text
