"""The property harness's knowledge of Vida (docs/rules/vida.md) beyond its ``GameSpec``."""

from __future__ import annotations

import itertools
import random
from collections.abc import Mapping, Sequence
from functools import cache
from typing import Any

from trapoula.domain.cards import codes, deck_32, parse_cards
from trapoula.domain.events import Payload, Viewer
from trapoula.domain.games.vida.cards import LAST_TRICK_BONUS, trick_points
from trapoula.domain.games.vida.events import HandScored, TrickTaken
from trapoula.domain.games.vida.rules import deal_hands, upcoming_dealer
from trapoula.domain.games.vida.state import Phase, VidaState

from .adapters import Zones, adapter

_SUITS = ("C", "D", "H", "S")
_CODES = codes(deck_32())


def _zones(state: VidaState) -> Zones:
    """Hands; the face-up widow (open vida, R3.4) and, while the deal is under way (before the first
    call, fewer than 32 cards dealt or exposed), the cards still to deal, as the "stock"; every card played to a trick,
    finished or in progress, as the public "discard" zone (R4.14)."""
    hands = tuple(codes(h) for h in state.hands)
    played = [c for t in state.tricks for c in codes(t.cards)]
    played.extend(c.code for _, c in state.trick)
    stock = list(codes(state.widow))
    if state.deck and not state.auction and not played and sum(map(len, hands)) + len(stock) < 32:
        held = {c for h in hands for c in h} | set(stock)
        stock.extend(c for c in codes(state.deck) if c not in held)
    return hands, tuple(stock), tuple(played)


def _revealed(state: VidaState) -> frozenset[str]:
    """The whole deck once a hand is over: ``ShuffleRevealed`` publishes it (R3.2)."""
    if state.phase in (Phase.HAND_OVER, Phase.MATCH_OVER):
        return frozenset(_CODES)
    return frozenset()


def _known(state: VidaState, viewer: Viewer) -> frozenset[str]:
    """Cards a viewer may see while the hand lasts beyond the played ones: the face-up widow
    (R3.4, also once taken: ``WidowTaken`` is public, R5.1), the winning team's shown declarations
    (R5.7, D15), and a card the viewer gave or received (R5.1, D30)."""
    known = set(codes(state.widow)) | set(codes(state.widow_taken))
    if state.resolution is not None:
        for shown in state.resolution.shown:
            known.update(shown.get("cards") or ())
    if viewer is not None:
        known.update(card.code for giver, taker, card in state.gifts if viewer in (giver, taker))
    return frozenset(known)


@cache
def _fixed_universe(seat: int) -> tuple[Payload, ...]:
    out: list[Payload] = []
    for points in (0, 70, 75, *range(80, 1001, 10), 85, 255, 1010):
        out.extend({"kind": "bid", "seat": seat, "points": points, "suit": s} for s in _SUITS)
    out.append({"kind": "pass", "seat": seat})
    out.append({"kind": "vida", "seat": seat})
    out.append({"kind": "declare", "seat": seat})
    for code in _CODES:
        out.append({"kind": "play", "seat": seat, "card": code})
        out.append({"kind": "play", "seat": seat, "card": code, "belote": True})
    return tuple(out)


_GIVE_CACHE: dict[tuple[int, tuple[str, ...]], tuple[Payload, ...]] = {}


def _universe(state: VidaState, seat: int) -> tuple[Payload, ...]:
    """Every bid from 80 to 1000 in tens and bids off the rules (R4.3: not a multiple of 10, below
    80, above the cap), in each suit; pass; vida; declare; every card played with and without
    belote (R5.9); and, for a seat holding 11 cards (the open-vida holder, R5.1), every ordered
    give of three of them plus gives of a card not held, of a card twice and of two cards."""
    fixed = _fixed_universe(seat)
    if not 0 <= seat < len(state.hands) or len(state.hands[seat]) != 11:
        return fixed
    hand = codes(state.hands[seat])
    key = (seat, hand)
    cached = _GIVE_CACHE.get(key)
    if cached is None:
        gives: list[Payload] = [
            {"kind": "give", "seat": seat, "cards": list(combo)} for combo in itertools.permutations(hand, 3)
        ]
        outside = next(c for c in _CODES if c not in hand)
        gives.append({"kind": "give", "seat": seat, "cards": [hand[0], hand[1], outside]})
        gives.append({"kind": "give", "seat": seat, "cards": [hand[0], hand[0], hand[1]]})
        gives.append({"kind": "give", "seat": seat, "cards": [hand[0], hand[1]]})
        if len(_GIVE_CACHE) > 64:
            _GIVE_CACHE.clear()
        cached = _GIVE_CACHE[key] = (*fixed, *gives)
    return cached


def _nudge(state: VidaState, seat: int, payloads: Sequence[Payload], rng: random.Random) -> Payload | None:
    """In the auction, call like a player, not like a uniform draw over some 370 bids: pass about
    half the time (so that all four pass now and then, R4.8), vida when entitled one time in five
    (so that every level is reached, R4.5), else one of the four lowest bids (R4.3)."""
    kinds = {p.get("kind") for p in payloads}
    if "pass" not in kinds:
        return None
    vida = [p for p in payloads if p.get("kind") == "vida"]
    bids = sorted((p for p in payloads if p.get("kind") == "bid"), key=lambda p: int(p["points"]))
    roll = rng.random()
    if vida and roll < 0.2:
        return vida[0]
    if bids and roll < 0.6:
        low = bids[: 4 * 4]
        return rng.choice(low)
    return next(p for p in payloads if p.get("kind") == "pass")


def _explicit_deal(state: VidaState, rng: random.Random) -> tuple[Mapping[str, Any], list[list[str]]]:
    """A random explicit deal (R3.2): half the time the whole deck, else the hands (and widow)."""
    cards = list(_CODES)
    rng.shuffle(cards)
    open_vida = state.options.open_vida
    if rng.random() < 0.5:
        hands, _ = deal_hands(parse_cards(cards), upcoming_dealer(state), open_vida)
        return {"deck": cards}, [list(codes(h)) for h in hands]
    size = 7 if open_vida else 8
    hands_list = [cards[size * i : size * i + size] for i in range(4)]
    raw: dict[str, Any] = {"hands": hands_list}
    if open_vida:
        raw["widow"] = cards[28:32]
    return raw, hands_list


def _invariants(event: Any, state: VidaState) -> None:
    """R2.7 and R6.1-R6.4 on every scored hand: the raw trick points total 162 (card points 152 and
    10 for the last trick), the tricks 8; the booked trick points total 160 after rounding, or
    250 and 0 after a capot (R6.2); each trick's points are its cards' (plus 10 on the eighth)."""
    if isinstance(event, TrickTaken):
        assert state.contract is not None, "a trick taken without a contract"
        expected = trick_points(parse_cards(event.cards), state.contract.suit)
        assert event.points == expected + (LAST_TRICK_BONUS if event.trick_no == 8 else 0), (
            f"trick {event.trick_no} {event.cards} is worth {event.points}, not {expected} (R2.5-R2.7)"
        )
    if isinstance(event, HandScored):
        assert sum(event.trick_points_raw) == 162, f"raw trick points {event.trick_points_raw} (R2.7)"
        assert sum(event.tricks_won) == 8, f"tricks {event.tricks_won}"
        if event.capot_team is None:
            assert sum(event.trick_points) == 160, f"rounded trick points {event.trick_points} (R6.4)"
            assert all(p % 10 == 0 for p in event.trick_points), event.trick_points
        else:
            assert sorted(event.trick_points) == [0, 250], f"capot trick points {event.trick_points} (R6.2)"


VIDA = adapter(
    globals(),
    key="vida",
    option_grid={
        "open_vida": (False, True),
        "declaration_timing": ("after_auction", "before_first_card"),
        "bidders_must_outscore": (True, False),
        "all_pass": ("next_dealer", "same_dealer"),
        "first_bidder": ("after_dealer", "before_dealer"),
        "first_leader": ("after_dealer", "before_dealer"),
        "direction": ("counterclockwise", "clockwise"),
        "target_score": (1, 600, 3550),
        "wins_needed": (1, 2),
        "first_dealer": ("random", 0, 1, 2, 3),
        "max_bid": (250, 1000),
    },
    # one scored hand wins the game (R6.9: any booked total is above 1) and the match (R6.10)
    single_hand={"target_score": 1, "wins_needed": 1},
    long_match={"target_score": 600, "wins_needed": 2},
    initial_totals=lambda totals, options: (totals[0] * 5 % (options["target_score"] + 1), totals[1] % 2),
    expected_reasons=frozenset({"HandAnnulled/all_passed"}),  # R4.8
)
"""Vida (docs/rules/vida.md): every option of section 7 and the table's ``max_bid``; four players."""
