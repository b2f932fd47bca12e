"""The property harness's knowledge of Crazy Eights (docs/rules/crazy_eights.md) beyond its ``GameSpec``."""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from trapoula.domain.cards import codes, deck_52
from trapoula.domain.events import Payload
from trapoula.domain.games.crazy_eights.rules import hand_size
from trapoula.domain.games.crazy_eights.state import CrazyEightsState

from .adapters import Zones, adapter, shedding_revealed, shedding_universe


def _zones(state: CrazyEightsState) -> Zones:
    """Hands, stock and discard pile; an 8 buried at the deal (R3.3) is listed with the public cards
    while it stays in the stock: it was turned face up, so every viewer saw it (section 9:
    ``StarterBuried.card`` is public).  Only where it lies in the stock is hidden."""
    hands = tuple(codes(h) for h in state.hands)
    stock = codes(state.stock)
    if not state.buried:
        return hands, stock, codes(state.discard)
    buried = set(codes(state.buried)) & set(stock)
    return hands, tuple(c for c in stock if c not in buried), (*sorted(buried), *codes(state.discard))


def _universe(state: CrazyEightsState, seat: int) -> tuple[Payload, ...]:
    """Every card code (in the hand or not), without a suit and with each suit; draw; pass:
    262 commands per seat."""
    return shedding_universe(seat, ("draw", "pass"))


def _explicit_deal(state: CrazyEightsState, rng: random.Random) -> tuple[Mapping[str, Any], list[list[str]]]:
    cards = list(codes(deck_52()))
    rng.shuffle(cards)
    size = hand_size(state.n)  # R3.2
    hands = [cards[size * i : size * i + size] for i in range(state.n)]
    rest = cards[size * state.n :]
    return {"hands": hands, "starter": rest[0], "stock": rest[1:]}, hands


CRAZY_EIGHTS = adapter(
    globals(),
    key="crazy_eights",
    option_grid={
        "scoring": ("single", "points"),
        "target_per_player": (10, 50),
        "twos_draw_two": (False, True),
        "queen_spades_draw_five": (False, True),
        "jacks_skip": (False, True),
        "aces_reverse": (False, True),
        "draw_until_playable": (False, True),
    },
    single_hand={"scoring": "single"},
    # a long match is a points game to 10 a player: a few hands each (R6.4-R6.7) in the time budget
    long_match={"scoring": "points", "target_per_player": 10},
    initial_totals=lambda totals, options: tuple(t // 10 for t in totals),  # 0-9: below every target (20 and up, R6.6)
    revealed=shedding_revealed,
    # every event type of SPEC.event_types occurs (StockReshuffled is not one of them: R4.5)
    expected_reasons=frozenset(
        {
            "CardsDrawn/draw",  # R4.2
            "CardsDrawn/penalty",  # R5.2.2, R5.3.2
            "TurnSkipped/jack",  # R5.4
            "HandEnded/out",  # R6.1
            "HandEnded/blocked",  # R6.2
            "MatchEnded/single_hand",  # R6.3
            "MatchEnded/target",  # R6.6
        }
    ),
)
"""Crazy Eights (docs/rules/crazy_eights.md): every option of section 7, one 52-card deck, 2-7 players."""
