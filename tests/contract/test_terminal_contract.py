"""The terminal with every registered game (tests/contract/contract_games.py), Top Card included: a
person who always answers with the first listed move plays a local match against the bots, with
short options and replayable deals, to its end -- through play.py's ``LocalSession`` and through
``trapoula play``."""

from __future__ import annotations

import io
import json
import random

import pytest
from contract_games import KEYS, seats, short_options

from trapoula.clients.cli import main
from trapoula.clients.play import LocalSession, play_loop
from trapoula.domain.registry import GAMES
from trapoula.domain.text import PLAIN_TEXT

pytestmark = pytest.mark.timeout(300)

SEED = "cd" * 32
"""The local deals."""
ANSWERS = "1\n" * 3000
"""The person's answers: the first listed move, every time."""


def _played_to_the_end(text: str) -> None:
    assert "Your move [1" in text
    assert "Thanks for playing." in text and "You leave the table." not in text, text[-3000:]


@pytest.mark.parametrize("key", KEYS)
def test_a_local_session_plays_to_the_end_of_the_match(key: str) -> None:
    """``LocalSession`` and the play loop: the match is over when the loop returns 0."""
    session = LocalSession(key, seats(GAMES[key]), "heuristic", short_options(key), seed=SEED, rng=random.Random(1))
    out = io.StringIO()
    assert play_loop(session, io.StringIO(ANSWERS), out) == 0
    assert session.over
    _played_to_the_end(out.getvalue())


@pytest.mark.parametrize("key", KEYS)
def test_play_runs_a_whole_match_in_the_terminal(key: str) -> None:
    """``trapoula play`` (locally, ``--seed``): the person always picks the first listed move; the
    match is played to its end, and a game with words of its own says so."""
    options = [f"--option={name}={json.dumps(value)}" for name, value in short_options(key).items()]
    argv = ["play", "--game", key, "--seats", str(seats(GAMES[key])), "--seed", SEED, *options]
    out = io.StringIO()
    code = main(argv, out=out, inp=io.StringIO(ANSWERS))
    text = out.getvalue()
    assert code == 0, text[-3000:]
    _played_to_the_end(text)
    if GAMES[key].text is not PLAIN_TEXT:
        assert "Match over" in text
