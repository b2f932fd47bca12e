"""Crazy Eights: views, visibility of events and the audit's commands (S12, S13, section 9; S11)."""

from __future__ import annotations

import json

from crazy_eights_helpers import ALL_OPTIONS, Table

from trapoula.domain.cards import Suit, parse_card
from trapoula.domain.events import from_payload, redact, to_payload
from trapoula.domain.games.crazy_eights import SPEC
from trapoula.domain.games.crazy_eights.commands import Draw, NextHand, Pass, Play
from trapoula.domain.games.crazy_eights.events import HandEnded, MatchEnded
from trapoula.domain.games.shedding.events import CardsDealt, CardsDrawn
from trapoula.domain.registry import find_game

VIEW_KEYS = {
    "game", "phase", "hand_no", "dealer", "first_player", "to_act", "seat", "hand", "hand_sizes", "top_card",
    "active_suit", "discard", "stock_count", "pending_draw", "drawn_this_turn", "direction", "totals", "target",
    "commitment", "explicit_deal", "match_winner", "tied", "options", "names", "legal",
}  # fmt: skip
"""Every key of a seat's view during a hand (the spectator's lacks ``hand``)."""


def table_v() -> Table:
    """Three players, all options, up-card 8C buried (R3.3), then 9D turned; seat 0 to act."""
    t = Table(3, options=ALL_OPTIONS)
    t.deal(["2C 3C 4C 5C 6C", "2D 3D 4D 5D 6D", "2H 3H 4H 5H 6H"], "8C", "9D")
    return t


def test_s13_1_a_seat_sees_its_hand_the_sizes_and_public_piles_and_its_legal_commands() -> None:
    t = table_v()
    view = t.view(1)
    assert set(view) == VIEW_KEYS
    assert (view["game"], view["phase"], view["seat"], view["hand"]) == (
        "crazy_eights",
        "playing",
        1,
        ["2D", "3D", "4D", "5D", "6D"],
    )
    assert (view["hand_sizes"], view["top_card"], view["active_suit"], view["discard"]) == (
        [5, 5, 5],
        "9D",
        "D",
        ["9D"],
    )
    assert (view["stock_count"], view["pending_draw"], view["direction"], view["to_act"]) == (36, 0, 1, 0)
    assert (view["dealer"], view["first_player"], view["target"], view["tied"]) == (2, 0, None, [])
    assert view["names"] == ["ann", "bob", "cat"]
    assert view["options"] == {**SPEC.option_defaults(), **ALL_OPTIONS}
    assert view["legal"] == []
    assert t.view(0)["legal"] == [{"kind": "draw", "seat": 0}]


def test_s13_2_s13_3_the_spectator_sees_no_hand_and_nobody_sees_another_hand_or_the_stock() -> None:
    t = table_v()
    spectator = t.view(None)
    assert set(spectator) == VIEW_KEYS - {"hand"}
    for viewer in (0, 1, 2, None):
        text = json.dumps(t.view(viewer))
        hidden = {c.code for c in t.state.stock} | {
            c.code for s, h in enumerate(t.state.hands) if s != viewer for c in h
        }
        assert not any(f'"{code}"' in text for code in hidden), viewer
        assert "8C" not in text  # buried in the stock (R3.3)


def test_s12_dealt_and_drawn_cards_are_shown_to_their_seat_only() -> None:
    t = table_v()
    dealt = next(e for e in t.log if isinstance(e, CardsDealt) and e.seat == 2)
    assert redact(dealt, 2)["cards"] == ["2H", "3H", "4H", "5H", "6H"]
    assert redact(dealt, 0)["cards"] is None
    assert redact(dealt, None)["count"] == 5
    (drawn,) = t.draw(0)
    assert isinstance(drawn, CardsDrawn)
    assert redact(drawn, 0)["cards"] == ["7C"]
    assert redact(drawn, 1) == {"seat": 0, "cards": None, "count": 1, "reason": "draw"}


def test_section_9_hand_ended_and_match_ended_carry_their_crazy_eights_fields_and_survive_json() -> None:
    spec = find_game("crazy_eights")
    assert spec.event_types["HandEnded"] is HandEnded
    assert spec.event_types["MatchEnded"] is MatchEnded
    assert "StockReshuffled" not in spec.event_types  # R4.5
    assert "StarterBuried" in spec.event_types
    ended = HandEnded(
        reason="blocked", winner=None, hands=(("2C",), ()), hand_points=(0, 0), totals=(0, 0), hand_values=(2, 0)
    )
    assert to_payload(ended)["hand_values"] == [2, 0]
    assert from_payload(HandEnded, json.loads(json.dumps(to_payload(ended)))) == ended
    over = MatchEnded(winner=None, totals=(0, 0), reason="single_hand", tied=(0, 1))
    assert from_payload(MatchEnded, json.loads(json.dumps(to_payload(over)))) == over


def test_s11_an_audit_rebuilds_every_command_from_its_events() -> None:
    """``command_for`` names the command behind the first event of each decision, and the rules
    decide it again into the same events (the deal with its burial, an 8 naming a suit, a penalty)."""
    t = Table(2, options={"twos_draw_two": True})
    before = t.state
    events = t.deal(["8D 2C 3C 4C 5C 6C 7C", "2S 3D 4D 5D 6D 7D 9D"], "8H", "KC")
    command = SPEC.command_for(before, events, 0)
    assert isinstance(command, NextHand)
    assert SPEC.decide(before, command) == events
    assert SPEC.command_for(before, events, len(events) - 3) is None  # StarterBuried opens no command
    for action, expected in (
        (lambda: t.play(0, "8D", "S"), Play(0, parse_card("8D"), Suit.SPADES)),
        (lambda: t.play(1, "2S"), None),
        (lambda: t.draw(0), Draw(0)),
        (lambda: t.draw(1), Draw(1)),
        (lambda: t.pass_(1), Pass(1)),
    ):
        state = t.state
        done = action()
        rebuilt = SPEC.command_for(state, done, 0)
        if expected is not None:
            assert rebuilt == expected
        assert rebuilt is not None and SPEC.decide(state, rebuilt) == done
