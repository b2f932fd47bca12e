"""What each seat and a spectator may see of a Vida match (section 9 "Observable state", R5.1, R5.7,
D30; DESIGN Visibility)."""

from __future__ import annotations

import json
import random
import re
from typing import Any

from vida_helpers import MONO, MONO_TRICKS, Table, mono_hand

from trapoula.domain.events import redact
from trapoula.domain.games.vida import SPEC

CARD = re.compile(r"(?<![0-9A-Za-z])[2-9TJQKA][CDHS](?![0-9A-Za-z])")
"""A card code standing alone in a JSON text."""

KEYS = {
    "game",
    "seat",
    "phase",
    "to_act",
    "dealer",
    "first_dealer",
    "hand_no",
    "game_no",
    "names",
    "commitment",
    "explicit_deal",
    "hand",
    "hand_sizes",
    "widow",
    "widow_taken",
    "auction",
    "bid",
    "level",
    "contract",
    "trump",
    "trick_no",
    "leader",
    "trick",
    "tricks",
    "tricks_won",
    "declarations",
    "combinations",
    "belote",
    "gifts",
    "received",
    "given",
    "trick_points_raw",
    "trick_points",
    "declaration_points",
    "belote_points",
    "contract_points",
    "capot_team",
    "contract_made",
    "hand_points",
    "annulled",
    "totals",
    "games_won",
    "hand_over",
    "next_dealer",
    "match_over",
    "winner",
    "options",
    "legal",
}


def test_section_9_the_view_before_the_first_deal() -> None:
    table = Table(first_dealer=None)
    view = table.view(0)
    assert set(view) == KEYS
    assert (view["game"], view["phase"], view["to_act"], view["dealer"], view["hand"]) == (
        "vida",
        "new",
        None,
        None,
        [],
    )
    assert (view["totals"], view["games_won"], view["hand_points"], view["contract_made"]) == (
        [0, 0],
        [0, 0],
        [0, 0],
        None,
    )
    assert view["options"] == SPEC.option_defaults()
    assert view["legal"] == []
    json.dumps(view)


def test_section_9_a_seat_sees_its_own_hand_and_the_counts_of_the_others() -> None:
    table = Table()
    table.deal(MONO)
    view = table.view(1)
    assert set(view) == KEYS
    assert view["hand"] == MONO[1].split()
    assert view["hand_sizes"] == [8, 8, 8, 8]
    assert (view["phase"], view["to_act"], view["dealer"], view["hand_no"], view["game_no"]) == ("auction", 0, 3, 1, 1)
    assert view["legal"] == []
    assert table.view(0)["legal"] == table.legal(0) and table.view(0)["legal"][0] == {"kind": "pass", "seat": 0}
    shown = set(CARD.findall(json.dumps(view)))
    assert shown == set(MONO[1].split())
    spectator = table.view(None)
    assert (spectator["seat"], spectator["hand"], spectator["legal"]) == (None, [], [])
    assert not CARD.findall(json.dumps(spectator))
    assert table.view(7)["hand"] == []


def test_section_9_the_commitment_is_public_the_deck_and_seed_are_not() -> None:
    seed = "9e" * 32
    table = Table()
    events = table.seeded(seed)
    view = table.view(2)
    assert view["commitment"] == events[1].commitment  # type: ignore[attr-defined]
    text = json.dumps(view)
    assert seed not in text
    assert set(CARD.findall(text)) == set(view["hand"])
    started = redact(events[1], 2)
    assert (started["seed"], started["deck"]) == (None, None)
    dealt = [redact(e, 2) for e in events[2:]]
    assert [d["cards"] is None for d in dealt] == [d["seat"] != 2 for d in dealt]
    assert [d["count"] for d in dealt] == [8, 8, 8, 8]


def _allowed(table: Table, viewer: int | None) -> set[str]:
    """Every card the events so far showed ``viewer`` (their redaction for him)."""
    seen: set[str] = set()
    for event in table.log:
        seen |= set(CARD.findall(json.dumps(redact(event, viewer))))
    return seen


def _random_command(table: Table, rng: random.Random) -> Any:
    seat = table.to_act
    assert seat is not None
    legal = table.legal(seat)
    passes = [c for c in legal if c["kind"] == "pass"]
    bids = [c for c in legal if c["kind"] == "bid"][:8]
    pool = passes * 6 + bids + [c for c in legal if c["kind"] not in ("pass", "bid")]
    return SPEC.parse_command(rng.choice(pool))


def test_views_never_show_a_card_the_viewer_has_not_been_shown() -> None:
    """Random legal play under every timing and open vida: each view shows only cards of the
    viewer's events (his own cards, the widow, cards played, combinations shown, his gifts)."""
    for case in range(12):
        rng = random.Random(case)
        options = {
            "open_vida": case % 2 == 0,
            "declaration_timing": "before_first_card" if case % 3 == 0 else "after_auction",
            "target_score": 300,
            "wins_needed": 1,
        }
        table = Table(options=options)
        while not SPEC.is_terminal(table.state):
            if SPEC.needs_deal(table.state):
                table.seeded(f"{rng.getrandbits(256):064x}")
            else:
                table.apply(_random_command(table, rng))
            for viewer in (0, 1, 2, 3, None):
                text = json.dumps(table.view(viewer))
                assert set(CARD.findall(text)) <= _allowed(table, viewer), (case, viewer)
                assert table.state.seed is None or table.state.seed not in text
        assert table.view(None)["match_over"] is True


def test_views_show_the_last_hands_score_until_the_next_hand_ends() -> None:
    table = Table()
    mono_hand(table)
    table.deal(MONO)
    view = table.view(3)
    assert (view["hand_points"], view["totals"], view["contract_made"]) == ([550, 0], [550, 0], True)
    assert (view["contract"], view["tricks_won"], view["tricks"], view["annulled"]) == (None, [0, 0], [], False)


def test_section_9_phase_is_new_before_the_first_deal_and_match_over_after_the_hand_that_ends_it() -> None:
    """Section 9 "Observable state", as the rules owners amended it: ``phase`` is ``new`` before the
    first deal, ``auction`` once a hand is dealt, ``hand_over`` after a hand that leaves the match going
    and ``match_over`` after the hand that ends it.  From 2451 to 0 with one game to win (R6.10): the
    first MONO capot books 550 for team 0 (3001, not above 3550: R6.9, the match goes on, seat 0 deals
    next, R3.5); the second makes 3551 > 3550, team 0 wins the one game and the match.  Every seat and a
    spectator see the same phase."""
    table = Table(options={"wins_needed": 1}, initial_totals=(2451, 0))
    viewers = (0, 1, 2, 3, None)
    assert {table.view(v)["phase"] for v in viewers} == {"new"}
    table.deal(MONO)
    assert {table.view(v)["phase"] for v in viewers} == {"auction"}
    table.calls("80C", "pass", "pass", "pass")
    table.tricks(MONO_TRICKS, belote="KC")
    view = table.view(None)
    assert (view["phase"], view["hand_over"], view["match_over"], view["totals"], view["next_dealer"]) == (
        "hand_over",
        True,
        False,
        [3001, 0],
        0,
    )
    mono_hand(table)
    for viewer in viewers:
        view = table.view(viewer)
        assert (view["phase"], view["hand_over"], view["match_over"], view["winner"], view["games_won"]) == (
            "match_over",
            True,
            True,
            0,
            [1, 0],
        )
        assert (view["next_dealer"], view["to_act"], view["legal"]) == (None, None, [])
