"""Typing romis's sealed commands in the terminal (docs/rules/romis.md R13.1-R13.3).

``reveal 5H 7D``, ``reveal 9S with 8S 9D`` (a new combination, R8.2), ``aux`` / ``use_auxiliary``
and ``cannot``; the play loop sends what was typed and shows the rules' refusal (R5.5).
"""

from __future__ import annotations

import io
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

import pytest

from trapoula.clients.play import LocalSession, _read_choice, play_loop
from trapoula.domain.errors import CommandRejected
from trapoula.domain.events import Event
from trapoula.domain.games.romis.text import TEXT
from trapoula.domain.games.romis.text import TYPED_HELP as ROMIS_HELP
from trapoula.domain.games.romis.text import choose_typed as _romis_choice
from trapoula.domain.games.romis.text import parse_typed as _typed_romis
from trapoula.domain.registry import find_game
from trapoula.domain.text import GameText, Turn


def _turn(legal: Sequence[Mapping[str, Any]], text: GameText = TEXT) -> Turn:
    """The menu of a seat's move with ``legal`` in the words of ``text`` (romis's by default)."""
    return text.turn_for({}, legal, ())


def _typed(legal: Sequence[Mapping[str, Any]], text: GameText = TEXT) -> Any:
    """The reading of a typed line against ``legal`` in the words of ``text`` (romis's by default)."""
    return lambda line: text.parse_move(line, legal)


@pytest.mark.parametrize(
    ("text", "command"),
    [
        ("reveal 5H 7D", {"kind": "reveal", "cards": ["5H", "7D"]}),
        ("Reveal 5h, 10d", {"kind": "reveal", "cards": ["5H", "TD"]}),
        ("reveal K♥", {"kind": "reveal", "cards": ["KH"]}),
        ("reveal 9S with 8S 9D", {"kind": "reveal", "cards": ["9S"], "companions": ["8S", "9D"]}),
        ("reveal 9s WITH 8s", {"kind": "reveal", "cards": ["9S"], "companions": ["8S"]}),
        ("aux", {"kind": "use_auxiliary"}),
        ("AUXILIARY", {"kind": "use_auxiliary"}),
        ("use_auxiliary", {"kind": "use_auxiliary"}),
        ("cannot", {"kind": "cannot"}),
    ],
)
def test_r13_typed_commands_read_as_the_rules_commands(text: str, command: dict[str, Any]) -> None:
    """R13.1: the cards as typed (case, ``10``, suit symbols), ``with`` before the companions (R8.2);
    R13.2: ``aux``; R13.3: ``cannot``."""
    assert _typed_romis(text) == command


@pytest.mark.parametrize(
    "text",
    ["", "reveal", "reveal with 8S", "reveal 9S with", "reveal 5H 7X", "reveal 9S with 8S 1D", "aux 1", "cannot 5H",
     "5H 7D", "revealed 5H", "pass"],
)  # fmt: skip
def test_r13_anything_else_is_no_romis_command(text: str) -> None:
    """R13.1-R13.3: no card, a card that does not read, ``with`` with nothing before or after it,
    words after ``aux`` or ``cannot``, or another word: not read as a command."""
    assert _typed_romis(text) is None


LEGAL = [
    {"kind": "reveal", "cards": ["7D", "5H"]},
    {"kind": "reveal", "cards": ["9S"], "companions": ["9D", "8S"]},
]


def test_r4_4_r8_2_a_typed_reveal_matches_a_legal_one_in_any_order() -> None:
    """R4.4: the two cards in either order, R8.2: the companions in either order, are the legal
    command the view lists, which is sent as listed."""
    assert _romis_choice("reveal 5H 7D", LEGAL) is LEGAL[0]
    assert _romis_choice("reveal 9S with 8S 9D", LEGAL) is LEGAL[1]


def test_r5_5_a_typed_command_not_listed_is_sent_as_typed() -> None:
    """R5.5: a reveal the view does not list (companions left out, another card) is still sent, for
    the rules to answer with their reason; no text naming a command gives None."""
    assert _romis_choice("reveal 9S", LEGAL) == {"kind": "reveal", "cards": ["9S"]}
    assert _romis_choice("reveal 9S with 8S", LEGAL) == {"kind": "reveal", "cards": ["9S"], "companions": ["8S"]}
    assert _romis_choice("cannot", LEGAL) == {"kind": "cannot"}
    assert _romis_choice("draw", LEGAL) is None


def test_r13_the_prompt_takes_numbers_and_typed_commands_and_says_what_to_type() -> None:
    """R13.1-R13.3 at the prompt: a wrong line is answered with what may be typed; then a typed
    new combination is read; a menu number still picks from the menu."""
    out = io.StringIO()
    inp = io.StringIO("reveal\nreveal 8s 9s with 9d\n")
    assert _read_choice(inp, out, _turn(LEGAL), _typed(LEGAL)) == {
        "kind": "reveal",
        "cards": ["8S", "9S"],
        "companions": ["9D"],
    }
    text = out.getvalue()
    assert "Your move [1-2, or reveal and your cards, aux or cannot, q to quit]: " in text
    assert (
        "Please type a number from 1 to 2, reveal and the cards (e.g. reveal 5H 7D, or reveal 9S with 8S 9D), "
        "aux or cannot, or q." in text
    )
    assert _read_choice(io.StringIO("2\n"), io.StringIO(), _turn(LEGAL), _typed(LEGAL)) is LEGAL[1]


def test_r13_typed_commands_are_not_read_in_other_games() -> None:
    """In another game's words (agonia's) ``cannot`` is no command: asked again (with agonia's own
    typed moves, S11), then quit."""
    out = io.StringIO()
    other, legal = find_game("agonia").text, [{"kind": "pass"}]
    assert _read_choice(io.StringIO("cannot\nq\n"), out, _turn(legal, other), _typed(legal, other)) is None
    assert "Please type a number from 1 to 1, pass, or q." in out.getvalue()


class Table:
    """A romis table as the play loop sees it: the person at seat 0 in round 2 (R4.4) holding
    6H 7H revealed; 5H and 7D are legal, 5H with 9C is not (9C is related to nothing, R2.5)."""

    names: Sequence[str] = ("you", "bob")
    me = 0

    def __init__(self) -> None:
        self.sent: list[dict[str, Any]] = []
        self.over = False
        self.legal: list[dict[str, Any]] = [{"kind": "reveal", "cards": ["5H", "7D"]}]

    def start(self) -> list[tuple[str, dict[str, Any]]]:
        return [("RoundOpened", {"round": 2, "attempt": 1, "required": 2, "live": [0, 1]})]

    def act(self, command: Mapping[str, Any]) -> list[tuple[str, dict[str, Any]]]:
        self.sent.append(dict(command))
        if sorted(command.get("cards") or ()) != ["5H", "7D"]:
            raise CommandRejected("not_related", "R4.4", "9C is related neither to 5H nor to a revealed card")
        self.over = True
        payload = {"seat": 0, "round": 2, "attempt": 1, "commitment": "c", "payload": dict(command), "nonce": "n"}
        return [("SubmissionSealed", payload)]

    def view(self) -> dict[str, Any]:
        return {
            "game": "romis",
            "seat": 0,
            "phase": "play",
            "names": list(self.names),
            "hand_no": 1,
            "dealer": 1,
            "bonus_factor": 1,
            "target_score": 100,
            "round": 2,
            "attempt": 1,
            "required": 2,
            "revealed": [["6H", "7H"], ["QC", "QS"]],
            "auxiliary_counts": [2, 2],
            "submitted": [0] if self.over else [],
            "waiting": [1] if self.over else [0, 1],
            "hand": ["5H", "7D", "9C"],
            "legal": [] if self.over else self.legal,
        }

    def wait(self) -> list[tuple[str, dict[str, Any]]]:
        return []


def test_r5_5_the_play_loop_sends_typed_reveals_and_shows_a_refusal() -> None:
    """R13.1 in the loop: the menu lists the legal reveal and the help for typing; an illegal typed
    reveal is sent and refused (R5.5: only to its sender, nothing changes); the legal one typed in the
    other order is sent as the view lists it and sealed (R5.2)."""
    table = Table()
    out = io.StringIO()
    assert play_loop(table, io.StringIO("reveal 5H 9C\nreveal 7d 5h\n"), out) == 0
    assert table.sent == [{"kind": "reveal", "cards": ["5H", "9C"]}, {"kind": "reveal", "cards": ["5H", "7D"]}]
    text = out.getvalue()
    assert "Round 2: reveal 2 cards; in play: you, bob\n" in text
    assert (
        "Round 2: reveal 2 cards\n"
        "  you: revealed 6♥ 7♥; 2 auxiliary cards\n"
        "  bob: revealed Q♣ Q♠; 2 auxiliary cards\n"
        "Submitted (sealed): nobody yet; waiting for: you, bob\n"
        "Your hand (you): 5♥ 7♦ 9♣\n"
        "  1) reveal 5♥ 7♦\n" + ROMIS_HELP + "\n"
    ) in text
    assert "Refused: 9C is related neither to 5H nor to a revealed card [not_related, R4.4]" in text
    assert "You have submitted (sealed): reveal 5♥ 7♦" in text


@dataclass(frozen=True, slots=True)
class TurnedUp(Event):
    """Shaped as romis's ``AuxiliaryUsed``: withheld from every seat but its own (R5.4, R6.4)."""

    private: ClassVar[frozenset[str]] = frozenset({"slot", "card"})
    withheld: ClassVar[bool] = True
    seat: int
    slot: int
    card: str


@dataclass(frozen=True, slots=True)
class Sealed(Event):
    """Shaped as romis's ``SubmissionSealed``: public, its payload private (R5.2)."""

    private: ClassVar[frozenset[str]] = frozenset({"payload"})
    seat: int
    payload: dict[str, Any]


class Rules:
    """Rules that answer any command with two seats' auxiliary cards and sealed submissions."""

    def decide(self, state: Any, command: Any) -> list[Event]:
        return [
            TurnedUp(1, 1, "7H"),
            Sealed(1, {"kind": "cannot"}),
            TurnedUp(0, 1, "9C"),
            Sealed(0, {"kind": "reveal", "cards": ["9C", "9D"]}),
        ]

    def evolve(self, state: Any, event: Event) -> Any:
        return state


def test_r5_4_a_local_game_withholds_another_seats_auxiliary_card() -> None:
    """R5.4, R6.4: in a game played in this process the person (seat 0) never receives another
    seat's auxiliary card turned up, not even its type, while his own is shown with its card; the
    others' sealed submissions reach him with their payloads blanked (R5.2)."""
    session = LocalSession("agonia", 2)
    session.spec = Rules()  # type: ignore[assignment]
    seen: list[tuple[str, dict[str, Any]]] = []
    session._apply(None, seen)
    assert seen == [
        ("Sealed", {"seat": 1, "payload": None}),
        ("TurnedUp", {"seat": 0, "slot": 1, "card": "9C"}),
        ("Sealed", {"seat": 0, "payload": {"kind": "reveal", "cards": ["9C", "9D"]}}),
    ]
