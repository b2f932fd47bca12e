"""When declarations are compared: after the auction (R5.7, D9) or, with the Cypriot Pilotta timing,
among the combinations declared during the first trick (R5.8, D32, D33); stand-offs (R5.6, D14)."""

from __future__ import annotations

import json

from vida_helpers import DUTY, FAIL, MONO, MONO_TRICKS, Table

from trapoula.domain.games.vida.events import (
    AuctionClosed,
    CardPlayed,
    DeclarationAnnounced,
    DeclarationsResolved,
    HandScored,
    Passed,
    TrickTaken,
)

PILOTTA = {"declaration_timing": "before_first_card"}

STANDOFF = (
    "AC KC QC 7D 8D TD 9H 7S",
    "AD KD QD 7C 8C TC 8H 8S",
    "JC 9C JD 9D JH TS QS AH",
    "QH KH TH 7H 9S JS KS AS",
)
"""Seat 0 holds A-K-Q of clubs, seat 1 A-K-Q of diamonds; nobody holds any other combination."""


def test_r5_7_the_table_compares_right_after_the_auction_and_shows_the_winners_only() -> None:
    """DUTY, 80 hearts: team 1's best (Q-J-T-9-8 of clubs, seat 3) beats team 0's tierces; team 1
    scores both its quints, 100 + 100 (R5.5); team 0's combinations stay hidden."""
    table = Table()
    table.deal(DUTY)
    events = table.calls("80H", "pass", "pass", "pass")
    assert events[-2:] == (
        AuctionClosed(holder=0, team=0, points=80, suit="H", level=0, multiplier=1),
        DeclarationsResolved(
            winner_team=1,
            standoff=False,
            shown=(
                {"seat": 1, "kind": "seq5", "cards": ("JS", "TS", "9S", "8S", "7S"), "points": 100},
                {"seat": 3, "kind": "seq5", "cards": ("QC", "JC", "TC", "9C", "8C"), "points": 100},
            ),
            tied=None,
            declaration_points=(0, 200),
        ),
    )
    table.rejects("wrong_phase", "R4.1", table.command("declare", 0))
    seen = json.dumps(table.view(1))
    for card in ("KS", "QS", "9D", "8D"):
        assert f'"{card}"' not in seen
    resolution = table.view(None)["declarations"]["resolution"]
    assert resolution["winner_team"] == 1 and resolution["declaration_points"] == [0, 200]


def test_r5_5_the_winning_team_scores_every_combination_of_both_players() -> None:
    table = Table()
    table.deal(FAIL)
    events = table.calls("pass", "80H", "pass", "pass", "pass")
    resolved = events[-1]
    assert isinstance(resolved, DeclarationsResolved)
    assert [(s["seat"], s["cards"]) for s in resolved.shown] == [
        (0, ("AC", "KC", "QC")),
        (0, ("JH", "TH", "9H")),
        (2, ("AD", "KD", "QD")),
        (2, ("AS", "KS", "QS")),
    ]
    assert resolved.declaration_points == (80, 0)


def test_r5_6_d14_equal_best_combinations_outside_trumps_stand_off() -> None:
    table = Table()
    table.deal(STANDOFF)
    events = table.calls("80H", "pass", "pass", "pass")
    assert events[-1] == DeclarationsResolved(
        winner_team=None, standoff=True, shown=(), tied={"kind": "seq3", "top": "A"}, declaration_points=(0, 0)
    )


def test_r5_4_the_sequence_in_trumps_breaks_the_tie() -> None:
    table = Table()
    table.deal(STANDOFF)
    events = table.calls("80C", "pass", "pass", "pass")
    assert events[-1] == DeclarationsResolved(
        winner_team=0,
        standoff=False,
        shown=({"seat": 0, "kind": "seq3", "cards": ("AC", "KC", "QC"), "points": 20},),
        tied=None,
        declaration_points=(20, 0),
    )


def pilotta() -> Table:
    table = Table(options=PILOTTA)
    table.deal(DUTY)
    closing = table.calls("80H", "pass", "pass", "pass")
    assert closing[-2:] == (Passed(3), AuctionClosed(holder=0, team=0, points=80, suit="H", level=0, multiplier=1))
    return table


def test_r5_8_declare_before_ones_first_card_and_only_once() -> None:
    table = pilotta()
    assert table.legal(0)[0] == {"kind": "declare", "seat": 0}
    assert table.declare(0) == (DeclarationAnnounced(0, ("seq3", "seq3")),)
    assert table.to_act == 0
    table.rejects("already_declared", "R5.8", table.command("declare", 0))
    assert all(c["kind"] == "play" for c in table.legal(0))
    view = table.view(1)
    assert view["declarations"] == {"announced": [{"seat": 0, "kinds": ["seq3", "seq3"]}], "resolution": None}
    assert '"KS"' not in json.dumps(view)  # the kinds are public, the cards are not
    table.rejects("not_your_turn", "R4.1", table.command("declare", 1))
    table.play(0, "AS")
    assert {"kind": "declare", "seat": 1} in table.legal(1)
    table.play(1, "7S")  # seat 1 plays without declaring his quint
    table.rejects("nothing_to_declare", "R5.8", table.command("declare", 2))
    assert all(c["kind"] == "play" for c in table.legal(2))
    table.play(2, "QH")
    assert table.declare(3) == (DeclarationAnnounced(3, ("seq5",)),)
    events = table.play(3, "JH")
    assert events == (
        CardPlayed(3, "JH", 1),
        TrickTaken(1, 3, ("AS", "7S", "QH", "JH"), 34),
        DeclarationsResolved(
            winner_team=1,
            standoff=False,
            shown=({"seat": 3, "kind": "seq5", "cards": ("QC", "JC", "TC", "9C", "8C"), "points": 100},),
            tied=None,
            declaration_points=(0, 100),
        ),
    )
    table.rejects("too_late", "R5.8", table.command("declare", 3))
    table.play(3, "8H")
    table.rejects("too_late", "R5.8", table.command("declare", 0))
    table.rejects("not_your_turn", "R4.1", table.command("declare", 2))


def test_r5_8_an_undeclared_combination_does_not_count() -> None:
    """Team 1 holds two quints but declares neither: team 0's declared tierces win, 20 + 20."""
    table = pilotta()
    table.declare(0)
    table.trick("AS 7S QH")
    events = table.play(3, "JH")
    assert events[-1] == DeclarationsResolved(
        winner_team=0,
        standoff=False,
        shown=(
            {"seat": 0, "kind": "seq3", "cards": ("AS", "KS", "QS"), "points": 20},
            {"seat": 0, "kind": "seq3", "cards": ("9D", "8D", "7D"), "points": 20},
        ),
        tied=None,
        declaration_points=(40, 0),
    )


def test_r5_8_nobody_declaring_still_publishes_an_empty_comparison() -> None:
    table = pilotta()
    events = table.trick("AS 7S QH JH")
    assert events[-1] == DeclarationsResolved(
        winner_team=None, standoff=False, shown=(), tied=None, declaration_points=(0, 0)
    )


def test_r5_8_declared_points_are_booked_with_the_hand() -> None:
    """MONO under the Pilotta timing: seats 0 and 1 declare their eight-card sequences, seat 2 does
    not; seat 0's is in trumps and wins, so team 0 scores 100 only: 80 + 250 + 100 + 20 = 450."""
    table = Table(options=PILOTTA)
    table.deal(MONO)
    table.calls("80C", "pass", "pass", "pass")
    table.declare(0)
    table.play(0, "JC")
    table.declare(1)
    table.play(1, "7D")
    table.play(2, "7H")
    assert table.play(3, "7S")[-1] == DeclarationsResolved(
        winner_team=0,
        standoff=False,
        shown=({"seat": 0, "kind": "seq8", "cards": ("AC", "KC", "QC", "JC", "TC", "9C", "8C", "7C"), "points": 100},),
        tied=None,
        declaration_points=(100, 0),
    )
    events = table.tricks(MONO_TRICKS[1:], belote="KC")
    scored = next(e for e in events if isinstance(e, HandScored))
    assert (scored.declaration_points, scored.hand_points) == ((100, 0), (450, 0))
