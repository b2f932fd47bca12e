"""The clients are generic: they name no game and none of a game's events (DESIGN, Layers; STYLE
section 5: a game's text belongs in its package, the generic layers call it through the spec).

Every module of ``clients/trapoula/clients/`` but ``table.py`` (whose wire form of commands is
reworked apart) is scanned for the game keys and for the games' event names, as whole words; a game
that gives no words (``GameSpec.text`` left as ``PLAIN_TEXT``) still plays in the terminal, plainly.
"""

from __future__ import annotations

import dataclasses
import io
import random
import re
from pathlib import Path

import pytest

from trapoula.clients import demo, play
from trapoula.clients.cli import TARGET_HELP
from trapoula.clients.text import describe_event, game_text, render_view
from trapoula.domain.lifecycle import MATCH_STARTED
from trapoula.domain.registry import GAMES
from trapoula.domain.text import PLAIN_TEXT

CLIENTS = Path(play.__file__).parent
"""The folder of the client modules."""
EXEMPT = frozenset({"table.py"})
"""Modules not scanned: ``table.py`` converts each command kind to its wire message."""


def _forbidden() -> re.Pattern[str]:
    """The game keys (any case) and every registered game's event names but the platform's
    ``MatchStarted``, each as a whole word."""
    keys = sorted(GAMES)
    events = sorted({name for spec in GAMES.values() for name in spec.event_types} - {MATCH_STARTED})
    return re.compile(r"\b(?:(?i:" + "|".join(keys) + r")|" + "|".join(events) + r")\b")


def test_the_scan_sees_what_it_looks_for() -> None:
    """The pattern catches a game key in any case and an event name, and not a word that merely
    contains one, nor the platform's own first event."""
    pattern = _forbidden()
    assert [m.group() for m in pattern.finditer('if view["game"] == "Vida" or name == "GameWon":')] == [
        "Vida",
        "GameWon",
    ]
    assert pattern.search("a giminaiciais, MatchEndedX, MatchStarted, mau mau") is None
    assert pattern.search("# mau_mau R6.9") is not None


def test_no_client_module_names_a_game_or_a_game_event() -> None:
    """Each client module but ``table.py``, code and docstrings alike: every line naming a game key
    or a game's event is listed as ``file:line: text``."""
    pattern = _forbidden()
    modules = sorted(p for p in CLIENTS.glob("*.py") if p.name not in EXEMPT)
    assert len(modules) >= 10  # the scan reads the real folder
    found = [
        f"{path.name}:{number}: {line.strip()}"
        for path in modules
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1)
        if pattern.search(line)
    ]
    assert found == []


def test_the_target_help_lists_every_game_with_a_target_option() -> None:
    """``--target`` names each game's ``GameSpec.target_option`` (rules, section 7 of each game)."""
    built_in = (
        "agonia target_points, crazy_eights target_per_player, giminaiciai target_score, "
        "mau_mau elimination_limit, romis target_score"
    )
    assert TARGET_HELP.startswith(f"the game's target: {built_in}, ")
    assert TARGET_HELP.endswith("vida target_score")
    listed = TARGET_HELP.removeprefix("the game's target: ").split(", ")
    assert listed == [f"{key} {spec.target_option}" for key, spec in sorted(GAMES.items()) if spec.target_option]


def test_the_demo_prints_each_hand_result_and_the_end_by_role() -> None:
    """The spectator of a demo prints the events of roles ``hand_scored`` and ``match_ended`` and an
    event of no role between hands; not a seat change (roles ``seat_joined``, ``seat_vacated``)."""
    printed = {key: sorted(n for n in spec.event_types if demo._worth_printing(spec, n)) for key, spec in GAMES.items()}
    assert printed == {
        "agonia": ["HandEnded", "MatchEnded"],
        "crazy_eights": ["HandEnded", "MatchEnded"],
        "giminaiciai": ["HandEnded", "MatchEnded"],
        "mau_mau": ["HandEnded", "MatchEnded"],
        "romis": ["HandEnded", "MatchEnded"],
        "vida": ["GameWon", "HandAnnulled", "HandScored", "MatchEnded"],
        "top_card": ["HandEnded", "MatchEnded"],  # the game plugged in for the tests (tests/plugins)
    }


def test_table_events_have_no_line_and_an_unknown_game_reads_plainly() -> None:
    """A table's own events (``SeatTaken`` ...) are no game's; a game this client does not know (a
    newer server's) is read with the plain words."""
    assert describe_event("romis", "SeatTaken", {"seat": 1, "name": "bob"}, ["ann", "bob"]) is None
    assert game_text("no_such_game") is PLAIN_TEXT
    assert describe_event("no_such_game", "Scored", {"seat": 1}, ["ann"]) == "Scored {'seat': 1}"
    view = {"game": "no_such_game", "names": ["ann", "bob"], "to_act": 0, "totals": [3, None]}
    assert render_view(view) == "To act: ann\nTotals: ann 3"


def test_a_game_without_words_plays_plainly_in_the_terminal(monkeypatch: pytest.MonkeyPatch) -> None:
    """A game whose spec gives no text (``PLAIN_TEXT``): the person still sees the plain view, a
    numbered menu of its commands read from their data (``draw``, ``play 7♥``), events as their
    names and payloads, and plays a single hand of Crazy Eights (R6.3) to its end by numbers."""
    plain = dataclasses.replace(GAMES["crazy_eights"], text=PLAIN_TEXT)
    monkeypatch.setitem(GAMES, "crazy_eights", plain)
    session = play.LocalSession("crazy_eights", 2, "random", seed="cd" * 32, rng=random.Random(3))
    out = io.StringIO()
    assert play.play_loop(session, io.StringIO("1\n" * 400), out) == 0
    text = out.getvalue()
    assert text.startswith("Local match (no server): no record is kept")  # where it is played, and its record
    assert text.split("\n", 1)[1].startswith("Match of crazy_eights: you, random bot 1\n")  # the game, its players
    assert re.search(r"^HandStarted \{'hand_no': 1, ", text, re.MULTILINE)
    menu = re.findall(r"^  \d+\) (.*)$", text, re.MULTILINE)
    assert "draw" in menu and all(re.fullmatch(r"draw|pass|play [2-9TJQKA][♣♦♥♠]( suit [CDHS])?", m) for m in menu)
    assert "Your hand (you): " in text and "Stock " in text
    assert re.search(r"^MatchEnded \{", text, re.MULTILINE)
    assert text.rstrip().endswith("Thanks for playing.")
