"""``trapoula play`` in this process (no server), driven with piped input; the text rendering."""

from __future__ import annotations

import io

from trapoula.clients.cli import main
from trapoula.domain.games.agonia.text import describe_command, describe_event
from trapoula.domain.words import pretty, pretty_cards

SEED = "ab" * 32


def test_play_shows_a_hand_with_suit_symbols_and_accepts_choices() -> None:
    """A single hand (target 0) against one bot; "1" always picks the first legal move."""
    out = io.StringIO()
    code = main(["play", "--seats", "2", "--target", "0", "--seed", SEED], out=out, inp=io.StringIO("1\n" * 300))
    text = out.getvalue()
    assert code == 0
    assert "Your hand (you): " in text
    assert any(symbol in text for symbol in "♣♦♥♠")
    assert "  1) " in text and "Your move [1-" in text
    assert "You " in text  # the person's own moves are reported
    assert "Match over" in text
    assert "Thanks for playing." in text


def test_play_reprompts_on_bad_input_and_quits_on_q() -> None:
    out = io.StringIO()
    code = main(["play", "--seats", "3", "--seed", SEED], out=out, inp=io.StringIO("banana\n99\nq\n"))
    text = out.getvalue()
    assert code == 0
    assert text.count("Please type a number from 1 to") == 2
    assert text.rstrip().endswith("You leave the table.")


def test_play_stops_when_the_input_ends() -> None:
    out = io.StringIO()
    assert main(["play", "--seats", "2", "--seed", SEED], out=out, inp=io.StringIO("")) == 0
    assert "(input ended)" in out.getvalue()


def test_the_same_seed_deals_the_same_game() -> None:
    runs = []
    for _ in range(2):
        out = io.StringIO()
        main(["play", "--seats", "2", "--target", "0", "--seed", SEED], out=out, inp=io.StringIO("1\n" * 5 + "q\n"))
        runs.append(out.getvalue().split("Your move")[0])
    assert runs[0] == runs[1]


def test_cards_commands_and_events_in_words() -> None:
    assert (pretty("TS"), pretty("7H"), pretty_cards(["AC", "2D"]), pretty_cards([])) == ("10♠", "7♥", "A♣ 2♦", "-")
    assert describe_command({"kind": "play", "seat": 0, "card": "AS", "suit": "H"}) == "play A♠, declare ♥"
    assert describe_command({"kind": "draw", "seat": 0}, pending_draw=4) == "take the 4 cards"
    names = ["ann", "bob"]
    played = {"seat": 1, "card": "7H", "declared_suit": None, "active_suit": "H", "announce": False, "pending_draw": 2}
    assert describe_event("CardPlayed", played, names, me=0) == "bob plays 7♥ - 2 to take"
    drawn = {"seat": 0, "cards": ["5C", "KD"], "count": 2, "reason": "penalty"}
    assert describe_event("CardsDrawn", drawn, names, me=0) == "You draw 2 cards (penalty): 5♣ K♦"
    assert describe_event("TurnStarted", {"seat": 1}, names) is None
    assert describe_event("TurnStarted", {"seat": 1}, names, verbose=True) == "bob is to play"
