"""Typing Giminaičiai's commands in the terminal (docs/rules/giminaiciai.md R11.1-R11.3) and the menu of
``trapoula play``: ``draw`` / ``stock``, ``take`` / ``pile``, ``discard 7H`` and ``lay 4H 5H 6H 7H | KC
KD KS extra 1 discard 2C``; a typed command the view lists is sent as listed, any other as typed so
that the rules give their reason; a long list of lay-downs is cut and the rest listed on ``more``.
The last tests check what the menu says when a romis player has no reveal (romis R6)."""

from __future__ import annotations

import io
import random
from collections.abc import Mapping, Sequence
from typing import Any

import pytest
from giminaiciai_helpers import lay_down

from trapoula.clients.play import LocalSession, _print_menu, _read_choice, play_loop
from trapoula.domain.cards import codes, deck_52
from trapoula.domain.games.giminaiciai.text import DRAW_HELP as GIMINAICIAI_DRAW_HELP
from trapoula.domain.games.giminaiciai.text import LAY_DOWNS_SHOWN, TEXT
from trapoula.domain.games.giminaiciai.text import TURN_HELP as GIMINAICIAI_TURN_HELP
from trapoula.domain.games.giminaiciai.text import choose_typed as _giminaiciai_choice
from trapoula.domain.games.giminaiciai.text import menu_line as _menu_line
from trapoula.domain.games.giminaiciai.text import order_lay_downs as _order_lay_downs
from trapoula.domain.games.giminaiciai.text import parse_typed as _typed_giminaiciai
from trapoula.domain.games.romis.text import no_reveal as _romis_no_reveal
from trapoula.domain.registry import find_game
from trapoula.domain.text import GameText, Turn


def _turn(legal: Sequence[Mapping[str, Any]], view: Mapping[str, Any] | None = None, text: GameText = TEXT) -> Turn:
    """The menu of a seat's move with ``legal`` in ``view``, in the words of ``text`` (giminaiciai's by
    default)."""
    return text.turn_for(view or {"game": "giminaiciai", "discard_pile": []}, legal, ())


def _typed(legal: Sequence[Mapping[str, Any]], text: GameText = TEXT) -> Any:
    """The reading of a typed line against ``legal`` in the words of ``text`` (giminaiciai's by default)."""
    return lambda line: text.parse_move(line, legal)


# --------------------------------------------------------------------------- reading what is typed


@pytest.mark.parametrize(
    ("text", "command"),
    [
        ("draw", {"kind": "draw", "source": "stock"}),
        ("Stock", {"kind": "draw", "source": "stock"}),
        ("take", {"kind": "draw", "source": "discard"}),
        ("PILE", {"kind": "draw", "source": "discard"}),
        ("discard 7h", {"kind": "discard", "card": "7H"}),
        ("discard 10♠", {"kind": "discard", "card": "TS"}),
        (
            "lay 4H 5H 6H 7H | KC KD KS extra 1 discard 2C",
            {"kind": "lay_down", "groups": [["4H", "5H", "6H", "7H"], ["KC", "KD", "KS"]], "extra": 1, "discard": "2C"},
        ),
        ("lay down 4h,5h,6h|kc kd ks", {"kind": "lay_down", "groups": [["4H", "5H", "6H"], ["KC", "KD", "KS"]]}),
        ("LAY 4♥ 5♥ 6♥ Discard 2♣", {"kind": "lay_down", "groups": [["4H", "5H", "6H"]], "discard": "2C"}),
        ("lay 4H 5H 6H extra 2", {"kind": "lay_down", "groups": [["4H", "5H", "6H"]], "extra": 2}),
    ],
)
def test_r11_typed_commands_read_as_the_rules_commands(text: str, command: dict[str, Any]) -> None:
    """R11.1: the two draws (R4.2); R11.2: a discard (R4.4); R11.3: a lay-down in one or two groups
    split by ``|`` (R5.1), with ``extra N`` pile cards (R5.3) and ``discard C`` (R5.2); cards in any
    case, ``10`` for the ten, suit symbols; ``extra`` is left out when not typed."""
    assert _typed_giminaiciai(text) == command


@pytest.mark.parametrize(
    "text",
    ["", "lay", "lay down", "lay 4H 5H 6H |", "lay | 4H 5H 6H", "lay 4H 5H 6X", "lay 4H 5H 6H extra",
     "lay 4H 5H 6H extra x", "lay 4H 5H 6H extra 1 extra 2", "lay 4H 5H 6H discard",
     "lay 4H 5H 6H discard 2C discard 3C", "discard", "discard 7H 8H", "discard 1H", "draw twice", "pass", "7H"],
)  # fmt: skip
def test_r11_anything_else_is_no_giminaiciai_command(text: str) -> None:
    """R11.1-R11.3: an empty group, a word that is no card (R2.2), ``extra`` without a number,
    ``discard`` without a card, either of them twice, or another word: not read as a command."""
    assert _typed_giminaiciai(text) is None


AFTER_TAKING: list[dict[str, Any]] = [
    *({"kind": "discard", "seat": 0, "card": c} for c in ("2C", "KC", "KD", "4H", "5H", "6H", "KS")),
    lay_down(0, "KC KD QS KS", "4H 5H 6H", discard="2C"),
]
"""The legal commands of a seat holding 2C KC KD 4H 5H 6H KS that took QS, the only card of the
pile: a discard of each card but QS (R4.5); one lay-down: 2C is related to no other card (R6.1), so
it must be the discard (R5.2), and the rest splits only into the kings with QS on KS (R6.4) and the
hearts 4-5-6 (R6.2)."""

FROM_THE_STOCK: list[dict[str, Any]] = [
    *({"kind": "discard", "seat": 0, "card": c} for c in ("2C", "KC", "KD", "4H", "5H", "6H", "QS", "KS")),
    lay_down(0, "KC KD QS KS", "4H 5H 6H", discard="2C"),
    lay_down(0, "KC KD QS KS", "4H 5H 6H 7H", discard="2C", extra=1),
]
"""The same hand with QS drawn from the stock, the pile 9C 7H (7H on top): the same lay-down, and
the one taking 7H onto the hearts (4-5-6-7, R5.3); 9C, next, fits neither group."""


def test_r6_3_a_typed_lay_down_matches_in_any_order_and_is_sent_as_listed() -> None:
    """R6.3, decision 13: groups and the cards of a group in any order are the lay-down the view
    lists, which is sent as listed; R5.3: without ``extra`` the cards listed say which pile cards are
    taken (7H: extra 1); with ``extra`` it must agree."""
    assert _giminaiciai_choice("lay ks kd kc qs | 6h 5h 4h discard 2c", AFTER_TAKING) is AFTER_TAKING[-1]
    assert _giminaiciai_choice("lay 7h 6h 5h 4h | ks qs kd kc discard 2c", FROM_THE_STOCK) is FROM_THE_STOCK[-1]
    assert _giminaiciai_choice("lay 4H 5H 6H 7H | KC KD KS QS extra 1 discard 2C", FROM_THE_STOCK) is FROM_THE_STOCK[-1]
    assert _giminaiciai_choice("lay 4H 5H 6H | KC KD KS QS discard 2C", FROM_THE_STOCK) is FROM_THE_STOCK[-2]
    assert _giminaiciai_choice("discard 2c", AFTER_TAKING) is AFTER_TAKING[0]


@pytest.mark.parametrize(
    ("text", "command"),
    [
        (  # R5.3: extra 0 does not take 7H
            "lay 4H 5H 6H 7H | KC KD KS QS extra 0 discard 2C",
            {
                "kind": "lay_down",
                "groups": [["4H", "5H", "6H", "7H"], ["KC", "KD", "KS", "QS"]],
                "extra": 0,
                "discard": "2C",
            },
        ),
        (  # R5.2, R5.6: 2C neither laid nor discarded
            "lay 4H 5H 6H | KC KD KS QS",
            {"kind": "lay_down", "groups": [["4H", "5H", "6H"], ["KC", "KD", "KS", "QS"]]},
        ),
        (  # R5.6: a card listed twice
            "lay 4H 4H 5H 6H | KC KD KS QS discard 2C",
            {"kind": "lay_down", "groups": [["4H", "4H", "5H", "6H"], ["KC", "KD", "KS", "QS"]], "discard": "2C"},
        ),
        (  # R6.3: KC is related to none of the hearts
            "lay 4H 5H 6H KC | KD KS QS discard 2C",
            {"kind": "lay_down", "groups": [["4H", "5H", "6H", "KC"], ["KD", "KS", "QS"]], "discard": "2C"},
        ),
        ("discard 7h", {"kind": "discard", "card": "7H"}),  # R11.2: not held
        ("take", {"kind": "draw", "source": "discard"}),  # R4.8: drawn already
    ],
)
def test_r5_6_a_typed_command_not_listed_is_sent_as_typed(text: str, command: dict[str, Any]) -> None:
    """R5.6, section 8: a command the view does not list is still sent, as typed, for the rules to
    refuse with their reason."""
    assert _giminaiciai_choice(text, FROM_THE_STOCK) == command


def test_r11_the_prompt_keeps_its_numbers_and_says_what_may_be_typed() -> None:
    """R11.1-R11.3 at the prompt: the prompt offers the numbers; a wrong line is answered with what
    may be typed; then a typed lay-down is read; a number still picks from the menu."""
    out = io.StringIO()
    inp = io.StringIO("lay\nlay 4h 5h 6h | kc kd ks qs discard 2c\n")
    assert _read_choice(inp, out, _turn(AFTER_TAKING), _typed(AFTER_TAKING)) is AFTER_TAKING[-1]
    text = out.getvalue()
    assert "Your move [1-8, q to quit]: " in text
    assert (
        "Please type a number from 1 to 8, draw, take, discard and a card (e.g. discard 7H) or lay and the groups "
        "(e.g. lay 4H 5H 6H | KC KD KS extra 1 discard 2C), or q." in text
    )
    assert _read_choice(io.StringIO("2\n"), io.StringIO(), _turn(AFTER_TAKING), _typed(AFTER_TAKING)) is AFTER_TAKING[1]


def test_r11_typed_commands_are_not_read_in_other_games() -> None:
    """In another game's words (agonia's) ``take`` is no command: asked again (with agonia's own
    typed moves, S11), then quit."""
    out = io.StringIO()
    other, legal = find_game("agonia").text, [{"kind": "pass"}]
    assert _read_choice(io.StringIO("take\nq\n"), out, _turn(legal, {}, other), _typed(legal, other)) is None
    assert "Please type a number from 1 to 1, pass, or q." in out.getvalue()


# --------------------------------------------------------------------------- the menu


def test_r7_2_a_lay_down_names_its_pile_cards_and_its_bonus() -> None:
    """R5.3: the cards an extra takes, from the top of the pile (TC, then JD); R7.2: 10 cards laid
    score 2^3 - 1 = 7, 9 cards 3, 7 cards nothing (no note)."""
    view = {"game": "giminaiciai", "discard_pile": ["9C", "JD", "TC"]}
    ten = lay_down(0, "TC 2D JD 2H 2S TS JS QS KS AS", extra=2)
    assert (
        _menu_line(ten, view)
        == "lay down 10♣ 2♦ J♦ 2♥ 2♠ 10♠ J♠ Q♠ K♠ A♠ taking 10♣ J♦ from the pile (10 cards: bonus 7)"
    )
    nine = lay_down(0, "TC TS JS QS KS AS", "2H 2S 2C", discard="2D", extra=1)
    assert _menu_line(nine, view) == (
        "lay down 10♣ 10♠ J♠ Q♠ K♠ A♠ | 2♥ 2♠ 2♣ taking 10♣ from the pile, discard 2♦ (9 cards: bonus 3)"
    )
    seven = lay_down(0, "2H 2S 2C", "JS QS KS AS", discard="TS")
    assert _menu_line(seven, view) == "lay down 2♥ 2♠ 2♣ | J♠ Q♠ K♠ A♠, discard 10♠"


MANY = [
    {"kind": "discard", "seat": 0, "card": "2H"},
    {"kind": "discard", "seat": 0, "card": "2S"},
    lay_down(0, "2C 2H 2S TS JS QS KS AS"),
    lay_down(0, "2C TC 2H 2S TS JS QS KS AS", extra=1),
    lay_down(0, "2C 2H 2S", "TS JS QS KS AS"),
    lay_down(0, "2C 2H 2S", "TC TS JS QS KS AS", extra=1),
    lay_down(0, "2C 2H 2S AS", "TS JS QS KS"),
    lay_down(0, "2C 2H 2S AS", "TC TS JS QS KS", extra=1),
    lay_down(0, "2C 2H 2S KS AS", "TS JS QS"),
    lay_down(0, "2C 2H 2S KS AS", "TC TS JS QS", extra=1),
    lay_down(0, "2H 2S TS JS QS KS AS", discard="2C"),
    lay_down(0, "2C 2S TS JS QS KS AS", discard="2H"),
    lay_down(0, "2C 2H 2S JS QS KS AS", discard="TS"),
    lay_down(0, "2C 2H 2S", "JS QS KS AS", discard="TS"),
    lay_down(0, "2C 2H 2S", "TS JS QS KS", discard="AS"),
    lay_down(0, "2C 2H 2S AS", "TS JS QS", discard="KS"),
]
"""Part of the menu of a seat holding 2C 2H 2S TS JS QS KS AS after drawing from the stock, 10C on
top of the pile, in the domain's order (discards, then lay-downs: no discard first, each followed by
its extra continuation, then by discard): the spades T-J-Q-K-A run on from 2S (R2.5, R6.4), 10C
joins as a set relative of TS (R5.3).  2 discards and 14 lay-downs: four of 8 cards, each with one
of 9, then six of 7 with a discard (R5.2)."""


def test_r7_2_lay_downs_laying_most_cards_come_first() -> None:
    """R7.2: the lay-downs laying the most cards score the most and come first (the four of 9, the
    four of 8, then the six of 7, each kind as listed); the discards keep their place before them."""
    ordered = _order_lay_downs(MANY)
    assert ordered[:2] == MANY[:2]
    assert [sum(len(g) for g in c["groups"]) for c in ordered[2:]] == [9] * 4 + [8] * 4 + [7] * 6
    assert ordered[2:10] == [MANY[3], MANY[5], MANY[7], MANY[9], MANY[2], MANY[4], MANY[6], MANY[8]]
    assert ordered[10:] == MANY[10:]


def test_r5_3_a_long_menu_lists_twelve_lay_downs_and_more_lists_the_rest() -> None:
    """R5.3 (a pile whose cards fit either group multiplies the lay-downs): 2 discards and the first
    12 of 14 lay-downs are printed, numbered 1-14, the first laying 9 cards with 10C (R7.2: bonus
    2^2 - 1 = 3); one line says 15-16 are 2 more, listed on ``more``; a hidden number is a choice."""
    assert LAY_DOWNS_SHOWN == 12
    out = io.StringIO()
    view = {"game": "giminaiciai", "discard_pile": ["TC"]}
    ordered = _order_lay_downs(MANY)
    unlisted = _print_menu(_turn(ordered, view), out)
    lines = out.getvalue().splitlines()
    assert len(lines) == 15
    assert lines[0] == "  1) discard 2♥"
    assert lines[2] == "  3) lay down 2♣ 10♣ 2♥ 2♠ 10♠ J♠ Q♠ K♠ A♠ taking 10♣ from the pile (9 cards: bonus 3)"
    assert lines[13] == "  14) lay down 2♣ 2♥ 2♠ | J♠ Q♠ K♠ A♠, discard 10♠"
    assert lines[14] == "  15-16) 2 more lay-downs: type more to list them, or type one"
    assert unlisted == [
        "  15) lay down 2♣ 2♥ 2♠ | 10♠ J♠ Q♠ K♠, discard A♠",
        "  16) lay down 2♣ 2♥ 2♠ A♠ | 10♠ J♠ Q♠, discard K♠",
    ]
    prompt = io.StringIO()
    assert _read_choice(io.StringIO("more\n16\n"), prompt, _turn(ordered, view), _typed(ordered), unlisted) is MANY[15]
    assert "  16) lay down 2♣ 2♥ 2♠ A♠ | 10♠ J♠ Q♠, discard K♠\n" in prompt.getvalue()


def test_r5_3_one_lay_down_past_twelve_is_named_alone() -> None:
    """R5.3: with 13 of the lay-downs above (the last, discarding KS, left out), the 13th (the 7-card
    lay-down discarding AS) is entry 15, the only one left for ``more``."""
    out = io.StringIO()
    unlisted = _print_menu(_turn(_order_lay_downs(MANY[:-1]), {"game": "giminaiciai", "discard_pile": ["TC"]}), out)
    assert out.getvalue().splitlines()[-1] == "  15) 1 more lay-down: type more to list it, or type one"
    assert unlisted == ["  15) lay down 2♣ 2♥ 2♠ | 10♠ J♠ Q♠ K♠, discard A♠"]


def test_a_short_menu_is_printed_whole() -> None:
    """Up to 12 lay-downs every entry is printed and nothing is left for ``more``."""
    out = io.StringIO()
    assert _print_menu(_turn(AFTER_TAKING, {"game": "giminaiciai", "discard_pile": []}), out) == []
    assert out.getvalue().splitlines()[-1] == "  8) lay down K♣ K♦ Q♠ K♠ | 4♥ 5♥ 6♥, discard 2♣"


def test_r4_2_r4_3_the_help_line_follows_the_turn() -> None:
    """R4.2: before the draw the help names the two draws; R4.3: after it, the discard and the
    lay-down with its ``|``, ``extra`` and ``discard``."""
    draws = [{"kind": "draw", "seat": 0, "source": "stock"}, {"kind": "draw", "seat": 0, "source": "discard"}]
    assert _turn(draws, {"game": "giminaiciai", "drawn": False}).after == (GIMINAICIAI_DRAW_HELP,)
    assert _turn(AFTER_TAKING, {"game": "giminaiciai", "drawn": True}).after == (GIMINAICIAI_TURN_HELP,)
    assert "lay 4H 5H 6H 7H | KC KD KS extra 1 discard 2C" in GIMINAICIAI_TURN_HELP
    assert _turn([{"kind": "pass"}], {"game": "agonia"}, find_game("agonia").text).after == ()


# --------------------------------------------------------------------------- a turn with the rules


HANDS = [["4H", "5H", "6H", "KC", "KD", "KS", "2C"], ["2D", "7D", "9S", "TC", "JH", "8C", "AD"]]
"""An explicit deal (R3.8) of two players: seat 0 (the person) holds the hearts 4-5-6, three kings and
2C; QS is the starter (R3.4)."""


class DealtSession(LocalSession):
    """A local match whose first hand is the explicit deal :data:`HANDS` (dealer seat 1, so the person
    plays first, R3.1), recording the commands the person sends."""

    def __init__(self) -> None:
        super().__init__("giminaiciai", 2, "heuristic", {"target_score": 200}, seed="0" * 64, rng=random.Random(0))
        self.sent: list[dict[str, Any]] = []

    def start(self) -> list[tuple[str, dict[str, Any]]]:
        used = {c for hand in HANDS for c in hand} | {"QS"}
        stock = [c for c in codes(deck_52()) if c not in used]
        deal = self.spec.explicit_deal(self.state, {"hands": HANDS, "starter": "QS", "stock": stock})
        seen: list[tuple[str, dict[str, Any]]] = []
        self._apply(self.spec.deal_command(self.state, deal), seen)
        return self._advance(seen)

    def act(self, command: Mapping[str, Any]) -> list[tuple[str, dict[str, Any]]]:
        self.sent.append(dict(command))
        return super().act(command)


def test_r4_5_r7_1_a_typed_turn_against_the_rules() -> None:
    """The person sees the pile's top Q♠ before the draws are offered (R4.2); a discard before the draw
    is refused (R4.8); ``take`` takes Q♠; discarding it is refused (R4.5); the lay-down typed in
    another order is sent as listed (R6.3) and scores the finishing bonus 10, with no extra-card bonus
    for 7 cards (R7.1, R7.2); the other player's next draw scores the person 1 (R7.3)."""
    session = DealtSession()
    out = io.StringIO()
    typed = "discard 2c\ntake\ndiscard qs\nlay ks kd kc qs | 6h 5h 4h discard 2c\n"
    assert play_loop(session, io.StringIO(typed), out) == 0
    lay = lay_down(0, "KC KD QS KS", "4H 5H 6H", discard="2C")
    assert session.sent == [
        {"kind": "discard", "card": "2C"},
        {"kind": "draw", "seat": 0, "source": "discard"},
        {"kind": "discard", "card": "QS"},
        lay,
    ]
    text = out.getvalue()
    first = text.split("Your move", 1)[0]
    assert "Up-card Q♠ starts the discard pile\n" in first
    assert first.index("Discard pile: 1 card, top first Q♠") < first.index("  2) take the top card of the discard pile")
    assert GIMINAICIAI_DRAW_HELP + "\n" in first
    assert "Refused: discard '2C' by seat 0: he must draw first" in text and "[must_draw_first, R4.8]" in text
    assert "You take Q♠ from the discard pile\n" in text
    assert "You took Q♠ from the discard pile this turn: you may not discard it\n" in text
    assert "  8) lay down K♣ K♦ Q♠ K♠ | 4♥ 5♥ 6♥, discard 2♣\n" + GIMINAICIAI_TURN_HELP + "\n" in text
    assert "[cannot_discard_taken_card, R4.5]" in text
    after = text.split("You lay down K♣ K♦ Q♠ K♠ | 4♥ 5♥ 6♥ (7 cards, discarding 2♣)\n", 1)[1]
    assert after.startswith("You score 10 (finishing bonus)\n")
    assert "You score 1 (card taken)" in after.split("heuristic bot 1 discards", 1)[0]
    assert not any(line.startswith("You score") and "extra card" in line for line in after.splitlines())


# --------------------------------------------------------------------------- romis: no reveal


def test_romis_r6_with_no_reveal_the_menu_says_what_to_type() -> None:
    """romis R4.7, R6.1: with no legal reveal and an auxiliary card left, turn it up (aux); R6.3: with
    none left, ``cannot`` (R7.1 drop out, R7.4 replay); with a reveal offered, nothing is added."""
    assert _romis_no_reveal([{"kind": "use_auxiliary"}]) == (
        "No reveal is possible with your cards: turn up your next auxiliary card (aux), then reveal if you can."
    )
    assert _romis_no_reveal([{"kind": "cannot"}]) == (
        "No reveal is possible and no auxiliary card is left: submit cannot. You drop out of the hand if another "
        "player reveals; if nobody can, everyone gets an extra card and the round is replayed."
    )
    assert _romis_no_reveal([{"kind": "reveal", "cards": ["5H", "7D"]}]) is None
    assert _romis_no_reveal([{"kind": "discard", "card": "7H"}]) is None
