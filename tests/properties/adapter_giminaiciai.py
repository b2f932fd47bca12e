"""The property harness's knowledge of Giminaičiai (rules/giminaiciai.md) beyond its ``GameSpec``.

It joins ``adapters.ADAPTERS`` when the game joins ``trapoula.domain.registry.GAMES``: with it, a
scratch run of the 1,000 random matches kept every invariant, but took about 390 s of CPU, too much
for the test budget until the lay-down listing or the per-event view checks get cheaper.
"""

from __future__ import annotations

import random
from collections.abc import Hashable, Mapping, Sequence
from typing import Any

from trapoula.domain.cards import codes, deck_52
from trapoula.domain.events import Payload
from trapoula.domain.games.giminaiciai import SPEC
from trapoula.domain.games.giminaiciai.bot import heuristic
from trapoula.domain.games.giminaiciai.state import GiminaiciaiState, Phase

from .adapters import Adapter, Zones

_CODES = codes(deck_52())
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
    out = list(_fixed(seat))
    if not 0 <= seat < len(state.hands) or state.phase is not Phase.PLAY:
        return out
    hand = list(codes(state.hands[seat]))
    out.extend(SPEC.command_payload(c) for c in SPEC.legal_commands(state, seat) if _kind(c) == "lay_down")
    if hand:
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


def _nudge(state: GiminaiciaiState, seat: int, payloads: Sequence[Payload], rng: random.Random) -> Payload | None:
    """Lay down most of the time when the rules allow it, and play the heuristic's move half the
    time otherwise, so that hands end (R8.1) within the harness's limits; else a random move."""
    downs = [p for p in payloads if p.get("kind") == "lay_down"]
    if downs and rng.random() < 0.8:
        return rng.choice(downs)
    if rng.random() < 0.5:
        return dict(heuristic(SPEC.seat_view(state, seat), payloads, rng))
    return None


def _explicit_deal(state: GiminaiciaiState, rng: random.Random) -> tuple[Mapping[str, Any], list[list[str]]]:
    """A random explicit deal (R3.8): the hands, the starter and the stock."""
    cards = list(_CODES)
    rng.shuffle(cards)
    n = state.n
    hands = [cards[7 * i : 7 * i + 7] for i in range(n)]
    rest = cards[7 * n :]
    return {"hands": hands, "starter": rest[0], "stock": rest[1:]}, hands


GIMINAICIAI = Adapter(
    key="giminaiciai",
    option_grid={"target_score": (1, 20, 200)},
    # any point ends the match after the hand (R9.1); a hand with no points goes on to the next
    single_hand={"target_score": 1},
    long_match={"target_score": 20},
    initial_totals=lambda totals, options: tuple(min(t // 10, options["target_score"] - 1) for t in totals),
    zones=_zones,
    revealed=_revealed,
    known=_known,
    command_universe=_universe,
    legality_key=_legality_key,
    is_play=_is_play,
    variants=lambda payload: (),
    explicit_deal=_explicit_deal,
    nudge=_nudge,
)
"""Giminaičiai (rules/giminaiciai.md): its one option, one 52-card deck, 2-6 players."""
