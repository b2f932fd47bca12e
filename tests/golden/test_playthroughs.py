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
    Scenario(
        game="crazy_eights",
        name="standard-2p",
        n=2,
        # the standard game (R7.3); this seed turns up 8C, then 8D: both buried (R3.3), 3D turned
        first_seed="13a21538159cb8f174cc2ebbdbf152867ced5538311295279b3c7dcd2b57436e",
    ),
    Scenario(
        game="crazy_eights",
        name="points-3p",
        n=3,
        options={"scoring": "points"},
        # target 150 (R6.6); totals most of the way there: two hands, the deal passing left (R6.7)
        initial_totals=(100, 110, 120),
    ),
    Scenario(
        game="crazy_eights",
        name="all-options-4p",
        n=4,
        options={
            "scoring": "points",
            "target_per_player": 20,
            "twos_draw_two": True,
            "queen_spades_draw_five": True,
            "jacks_skip": True,
            "aces_reverse": True,
            "draw_until_playable": True,
        },
        # target 80 (R6.6); a player goes out of the first hand; the second is blocked and its
        # lowest hand scores the differences (R6.5), reaching the target
        first_dealer=1,
        initial_totals=(40, 50, 60, 30),
    ),
    Scenario(
        game="mau_mau",
        name="two-players",
        n=2,
        # limit -1: the loser of the hand is eliminated and the match ends (R6.6, R6.7); this seed
        # deals sevens that stack and a last seven (R5.1, R6.2), eights and nines (R5.2, R5.3)
        options={"elimination_limit": -1},
        first_seed="6bccd77046877edeecb4b1b3d1a25f24a094ba131c657a394ff7647b9c369e5a",
        level="medium",
    ),
    Scenario(
        game="mau_mau",
        name="five-players-elimination",
        n=5,
        # totals near the default limit -100: players are eliminated (R6.6) until one is left (R6.7),
        # the deal passing over the vacant seats (R3.2)
        initial_totals=(-88, -95, -90, -99, -92),
        level="medium",
    ),
    Scenario(
        game="mau_mau",
        name="join-and-leave",
        n=3,
        # seat 1 leaves during hand 1 (R6.10.2: his cards go under the stock); "eve", an easy computer
        # player, takes his seat before hand 2 with the lowest total (R6.9.1, R6.9.2)
        options={"elimination_limit": -60, "computer_seats": {"2": "hard"}},
        initial_totals=(-20, -35, -10),
        level="hard",
        joins=((2, "eve", "easy"),),
        leaves=((30, 1),),
    ),
)
"""Every golden playthrough: default options with four players; two players with announcements
and the skip-turn penalty; three players with the dealer choosing the suit on an ace up-card,
aces and eights allowed as last cards and sevens forbidden as last cards.  Crazy Eights: the
standard game with two players and two eights buried at the deal; a points game of three; every
option on with four players.  Mau Mau: a two-player hand; five players down to one by elimination;
a leave during a hand and a join before the next."""


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


def test_the_mau_mau_playthroughs_show_the_seat_changes_and_eliminations_they_were_chosen_for() -> None:
    """Mau Mau (rules/mau_mau.md): the leave and the join, the eliminations and the last seven."""
    texts = {s.name: render(s) for s in SCENARIOS if s.game == "mau_mau"}
    seats = texts["join-and-leave"]
    assert 'event PlayerLeft: {"cards_to_stock":3,"during_hand":true,"order":["5S","3D","9S"],"seat":1}' in seats
    assert '"order":null' in seats  # R6.10.2: the order is hidden from every viewer
    assert 'event PlayerJoined: {"computer":"easy","name":"eve","seat":1,"total":-42}' in seats
    assert '"covers":"7S"' in seats  # R3.4: a seven turned up is covered
    five = texts["five-players-elimination"]
    assert five.count("event PlayerEliminated:") == 4 and "event MatchEnded:" in five
    assert '"reason":"last_seven"' in texts["two-players"]
