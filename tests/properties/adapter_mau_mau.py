"""The property harness's knowledge of Mau Mau (docs/rules/mau_mau.md): options, zones, commands, deals
and seat changes (joins between hands, leaves at any time)."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from trapoula.domain.cards import codes, deck_104
from trapoula.domain.events import Payload
from trapoula.domain.games.mau_mau.state import MauMauState, Phase

from .adapters import adapter, shedding_revealed, shedding_universe, shedding_zones

_SUITS = ("C", "D", "H", "S")
JOIN_NAMES = ("wes", "xiu", "yan", "zoe")
"""Names of players who join (never mistaken for card codes)."""


def _universe(state: MauMauState, seat: int) -> Sequence[Payload]:
    """Every card code with and without each suit; draw; pass; mau; leave: 264 commands per seat."""
    return shedding_universe(seat, ("draw", "pass", "mau", "leave"))


def _explicit_deal(state: MauMauState, rng: random.Random) -> tuple[Mapping[str, Any], list[list[str]]]:
    """A random explicit deal (S5.3): seven cards to each seated seat, none to a vacant one."""
    cards = list(codes(deck_104()))
    rng.shuffle(cards)
    seated = state.seated
    hands: list[list[str]] = []
    for seat in range(state.n):
        if seat in seated:
            hands.append(cards[:7])
            del cards[:7]
        else:
            hands.append([])
    return {"hands": hands, "starter": cards[0], "stock": cards[1:]}, hands


def _joins(state: MauMauState) -> list[Payload]:
    name = JOIN_NAMES[state.n % len(JOIN_NAMES)]
    return [{"kind": "join", "name": name, "computer": skill} for skill in (None, "easy", "medium", "hard")]


def _table_commands(state: MauMauState) -> tuple[Sequence[Payload], Sequence[Payload]]:
    """``join`` as a person or a computer of each skill: accepted between hands (before the first
    one too) while fewer than five are seated and the match is not over, refused otherwise (R6.9)."""
    joins = _joins(state)
    open_ = state.phase in (Phase.NEW, Phase.HAND_OVER) and len(state.seated) < 5
    return (joins, []) if open_ else ([], joins)


def _nudge(state: MauMauState, seat: int, legal: Sequence[Payload], rng: random.Random) -> Payload | None:
    """Call "Mau" nine times in ten when a play would leave one card (R5.6.1); the tenth time the
    call is missed and punished (R5.6.2).  Without it random hands of 104 cards rarely end."""
    if len(state.hands[seat]) != 2 or state.mau_called or not any(p["kind"] == "play" for p in legal):
        return None
    return {"kind": "mau", "seat": seat} if rng.random() < 0.9 else None


MAU_MAU = adapter(
    globals(),
    key="mau_mau",
    option_grid={
        "elimination_limit": (-1, -40, -100),
        "computer_seats": ({}, {"1": "hard"}, {"0": "easy", "1": "medium"}),
    },
    # R6.6: with a limit of -1 everyone but the winner of the first hand is out (a blocked hand
    # can leave nobody)
    single_hand={"elimination_limit": -1},
    long_match={"elimination_limit": -40},
    zones=shedding_zones,
    revealed=shedding_revealed,
    expected_reasons=frozenset(
        {
            "CardsDrawn/draw",  # R4.2
            "CardsDrawn/penalty",  # R5.1.2
            "CardsDrawn/mau_penalty",  # R5.6.2
            "CardsDrawn/last_seven",  # R6.2
            "TurnSkipped/eight",  # R5.2
            "HandEnded/out",  # R6.1
            "HandEnded/blocked",  # S10.4, R6.8
            "HandEnded/abandoned",  # R6.10.3
            "MatchEnded/last_player",  # R6.7
        }
    ),
    seats=lambda state: state.n,
    # the call (R5.6) now and then, at any moment of one's turn; a leave (R6.10) seldom inside a
    # hand, more often between hands, so that most matches still end by elimination
    rare={"mau": (0.05, 0.0), "leave": (0.002, 0.06)},
    # R5.6.3-R5.6.4: a call repeated in the turn is accepted and stores nothing
    silent=lambda state, payload: payload["kind"] == "mau" and state.mau_called,
    p_table=0.1,
    # R6.5: totals are 0 or less; R6.6: above the elimination limit, or the player is already out
    initial_totals=lambda totals, options: tuple(
        max(-t, int(options.get("elimination_limit", -100)) + 1) for t in totals
    ),
    # a draw ends the turn (R4.3) and the deck has 104 cards: a player who draws one time in five
    # when he could play already makes hands long enough for reshuffles
    p_plays=(0.9, 0.8, 0.03),
)
"""Mau Mau (docs/rules/mau_mau.md): every option of section 7, 104 cards, joins and leaves."""
