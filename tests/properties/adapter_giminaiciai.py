"""The property harness's knowledge of Giminaičiai (docs/rules/giminaiciai.md) beyond its ``GameSpec``.

Its 600 random matches a run are among the costliest (about 45 s on one core): a hand lasts until
every player has laid down his whole hand (R8.1), the pile has been turned over twice with no lay-down
(R8.4) or, rarely, both piles are empty (R8.2); and every turn lists the player's legal
lay-downs (R5, in his view), some 40% of the time.  The random player is therefore steered by
:func:`_nudge`, a cheap stand-in for the ``heuristic`` level, and matches taken up in the middle
start just below the target (:func:`_initial_totals`).
"""

from __future__ import annotations

import functools
import random
from collections.abc import Hashable, Mapping, Sequence
from typing import Any

from trapoula.domain.cards import Card, codes, deck_52, parse_card
from trapoula.domain.events import Payload
from trapoula.domain.games.giminaiciai import SPEC
from trapoula.domain.games.giminaiciai.state import GiminaiciaiState, Phase
from trapoula.domain.games.relatives import RankOrder, related

from .adapters import Zones, adapter

_CODES = codes(deck_52())
P_LAY_DOWN = 0.9
"""The chance that the random player lays down when the rules offer a lay-down (see :func:`_nudge`)."""
P_KEEP_RELATED = 0.9
"""The chance that, not laying down, the random player keeps related cards (see :func:`_nudge`)."""
_DRAWS: dict[int, tuple[Payload, ...]] = {}


def _zones(state: GiminaiciaiState) -> Zones:
    """Hands, the stock, and as the public zone the discard pile with every group laid down (R5.5)."""
    laid = [c for groups in state.laid for group in groups for c in codes(group)]
    return tuple(codes(h) for h in state.hands), codes(state.stock), (*codes(state.pile), *laid)


def _revealed(state: GiminaiciaiState) -> frozenset[str]:
    """Every card once a hand is over: ``HandEnded`` shows the hands left, ``ShuffleRevealed`` the deck."""
    if state.phase in (Phase.HAND_OVER, Phase.MATCH_OVER):
        return frozenset(_CODES)
    return frozenset()


def _known(state: GiminaiciaiState, viewer: Any) -> frozenset[str]:
    """The card taken from the discard pile this turn: it lay face up and ``CardDrawn.card`` names
    it to everyone (R4.2, section 9)."""
    return frozenset({state.taken.code}) if state.taken is not None and state.drawn else frozenset()


def _fixed(seat: int) -> tuple[Payload, ...]:
    cached = _DRAWS.get(seat)
    if cached is None:
        out: list[Payload] = [
            {"kind": "draw", "seat": seat, "source": "stock"},
            {"kind": "draw", "seat": seat, "source": "discard"},
        ]
        out.extend({"kind": "discard", "seat": seat, "card": c} for c in _CODES)
        cached = _DRAWS[seat] = tuple(out)
    return cached


def _universe(state: GiminaiciaiState, seat: int) -> Sequence[Payload]:
    """Both draws; a discard of every card; and lay-downs of the seat's hand: every legal one
    (R5), the whole hand as one group, the hand less each card (discarded) as one group, and each
    of those with one extra card from the pile (R5.3); the lay-downs are listed in canonical form
    and accepted in any order of groups and cards."""
    fixed = _fixed(seat)
    if not 0 <= seat < len(state.hands) or state.phase is not Phase.PLAY or not state.hands[seat]:
        return fixed  # the same tuple each time: the harness parses it once
    out = list(fixed)
    hand = list(codes(state.hands[seat]))
    out.extend(SPEC.command_payload(c) for c in SPEC.legal_commands(state, seat) if _kind(c) == "lay_down")
    out.append({"kind": "lay_down", "seat": seat, "groups": [hand]})
    out.append({"kind": "lay_down", "seat": seat, "groups": [hand], "extra": 1})
    for i, card in enumerate(hand):
        rest = hand[:i] + hand[i + 1 :]
        out.append({"kind": "lay_down", "seat": seat, "groups": [rest], "discard": card})
        half = len(rest) // 2
        out.append({"kind": "lay_down", "seat": seat, "groups": [rest[:half], rest[half:]], "discard": card})
    return out


def _kind(command: Any) -> str:
    return str(SPEC.command_payload(command).get("kind"))


def _legality_key(payload: Payload) -> Hashable:
    """A lay-down's groups as sets: ``decide`` accepts any order of groups and of cards (R5.1)."""
    items = []
    for key, value in payload.items():
        if key == "groups" and isinstance(value, list):
            value = tuple(sorted(tuple(sorted(str(c) for c in g)) for g in value))
        elif isinstance(value, list):
            value = tuple(value)
        items.append((key, value))
    if payload.get("kind") == "lay_down":
        items = [(k, v) for k, v in items if not (k == "extra" and v == 0)]
    return tuple(sorted(items))


def _is_play(payload: Payload) -> bool:
    return payload.get("kind") in ("discard", "lay_down")


def _links(card: Card, hand: Sequence[Card]) -> int:
    """How many other cards of ``hand`` are related to ``card`` (R6.1)."""
    code = card.code
    return sum(1 for other in hand if other.code != code and _related(code, other.code))


@functools.cache
def _related(a: str, b: str) -> bool:
    """``related`` for two card codes (R6.1), remembered: the random player asks it at every turn."""
    return related(parse_card(a), parse_card(b), RankOrder.CYCLE)


def _nudge(state: GiminaiciaiState, seat: int, payloads: Sequence[Payload], rng: random.Random) -> Payload | None:
    """Steer the random player so that hands end (R8.1) within the harness's limits.

    When the rules offer a lay-down, take one at random :data:`P_LAY_DOWN` of the time (R5.1).
    Otherwise, :data:`P_KEEP_RELATED` of the time, play a cheap "keep related cards" move: draw the
    top of the discard pile when it is related to two or more cards of the hand, else from the
    stock (R4.2, R6.1); discard a card with the fewest related cards in the hand (R4.4), ties
    broken by ``rng``.  The rest of the time return None: the harness picks a random legal move.

    It reads the seat's own hand and the public pile only, as the computer players do; it stands in
    for the ``heuristic`` level, whose lay-down test and meld search per card cost as much as the
    checks of a whole turn (the levels have their own tests in tests/domain).
    """
    downs = [p for p in payloads if p.get("kind") == "lay_down"]
    if downs and rng.random() < P_LAY_DOWN:
        return rng.choice(downs)
    if rng.random() >= P_KEEP_RELATED:
        return None
    hand = state.hands[seat]
    draws = {str(p.get("source")): p for p in payloads if p.get("kind") == "draw"}
    if draws:
        if "discard" in draws and state.pile and _links(state.pile[-1], hand) >= 2:
            return draws["discard"]
        return draws.get("stock")
    discards = [(p, _links(parse_card(str(p["card"])), hand)) for p in payloads if p.get("kind") == "discard"]
    if not discards:
        return None
    fewest = min(links for _, links in discards)
    return rng.choice([p for p, links in discards if links == fewest])


def _initial_totals(totals: tuple[int, ...], options: Mapping[str, Any]) -> tuple[int, ...]:
    """Random totals 0..90 taken to just below the target (R10.2): ``target - 1 - t // 3``, at least 0,
    so that a match taken up in the middle ends within a hand or a few (R9.1, R9.2); the matches to
    200 from zero are long enough for the rest."""
    return tuple(max(0, options["target_score"] - 1 - t // 3) for t in totals)


def _explicit_deal(state: GiminaiciaiState, rng: random.Random) -> tuple[Mapping[str, Any], list[list[str]]]:
    """A random explicit deal (R3.8): the hands, the starter and the stock."""
    cards = list(_CODES)
    rng.shuffle(cards)
    n = state.n
    hands = [cards[7 * i : 7 * i + 7] for i in range(n)]
    rest = cards[7 * n :]
    return {"hands": hands, "starter": rest[0], "stock": rest[1:]}, hands


GIMINAICIAI = adapter(
    globals(),
    key="giminaiciai",
    option_grid={"target_score": (1, 20, 200)},
    # any point ends the match after the hand (R9.1); a hand with no points goes on to the next
    single_hand={"target_score": 1},
    long_match={"target_score": 20},
    # R4.7/R8.2 (both piles empty) takes lay-downs that empty the pile at the right moment: random
    # matches do not reach it (tests/domain/test_giminaiciai_scoring.py plays one)
    expected_reasons=frozenset(
        {
            "HandEnded/all_finished",  # R8.1
            "HandEnded/stalled",  # R8.4 (formerly decision T1)
            "PointsScored/finishing_bonus",  # R7.1
            "PointsScored/extra_card_bonus",  # R7.2
            "PointsScored/card_taken",  # R7.3
        }
    ),
)
"""Giminaičiai (docs/rules/giminaiciai.md): its one option, one 52-card deck, 2-6 players."""
