"""What the computer players' tests share: the payloads of a view's ``legal`` list written short, a
hand (or match) played from a seeded deal by bots of given levels, each choosing from its own seat's
view as the service asks it, and the strength measure of one level against another."""

from __future__ import annotations

import hashlib
import random
from collections.abc import Callable, Sequence
from typing import Any

from trapoula.domain.bots import choose
from trapoula.domain.deal import Deal
from trapoula.domain.game import MatchConfig, SeatInfo, acting_seats
from trapoula.domain.registry import find_game

Payload = dict[str, Any]

DRAW: Payload = {"kind": "draw", "seat": 0}
PASS: Payload = {"kind": "pass", "seat": 0}


def play(card: str, suit: str | None = None, announce: bool = False, seat: int = 0) -> Payload:
    """A ``play`` payload of ``seat`` as ``legal`` lists it (``suit`` and ``announce`` only when set)."""
    out: Payload = {"kind": "play", "seat": seat, "card": card}
    if suit is not None:
        out["suit"] = suit
    if announce:
        out["announce"] = True
    return out


def wild(card: str) -> list[Payload]:
    """A card that names a suit as ``legal`` lists it: without a suit, then naming each suit."""
    return [play(card), *(play(card, s) for s in "CDHS")]


def seat_view(game: str, hand: list[str], legal: list[Payload], **fields: Any) -> Payload:
    """Seat 0's view of ``game`` as a bot reads it: its ``hand``, its ``legal`` commands and ``fields``."""
    return {"game": game, "seat": 0, "hand": hand, "legal": legal, **fields}


def heuristic_choice(view: Payload) -> Payload:
    """What the heuristic bot of the view's game chooses (its random ties drawn from ``Random(0)``)."""
    return choose(view["game"], view, "heuristic", random.Random(0))


def seed_of(text: str) -> str:
    """A 64-hex-digit seed made from ``text``."""
    return hashlib.sha256(text.encode()).hexdigest()


def bot_play(
    game: str,
    levels: Sequence[str],
    options: dict[str, Any],
    seed: str,
    rng: random.Random,
    *,
    first_dealer: int | None = None,
    check: Callable[[Payload, Payload], None] | None = None,
) -> Any:
    """Deal from ``seed`` a match of ``len(levels)`` seats of ``game`` and play it to its end, the
    seat the match waits for choosing as the game's bot of its level (``GameSpec.bot_levels``) would
    from its own view; ``check(view, payload)`` sees every choice.  The final state."""
    spec = find_game(game)
    seats = tuple(SeatInfo(i, f"p{i}") for i in range(len(levels)))
    state = spec.initial_state(MatchConfig(game, seats, options, first_dealer=first_dealer))
    everyone = tuple(range(len(levels)))
    policies = spec.bot_levels
    command: Any = spec.deal_command(state, Deal.from_seed(spec.deck(state), seed))
    while True:
        for event in spec.decide(state, command):
            state = spec.evolve(state, event)
        if spec.is_terminal(state):
            return state
        seat = acting_seats(spec, state, everyone)[0]
        view = spec.seat_view(state, seat)
        payload = dict(policies[levels[seat]](view, view["legal"], rng))
        if check is not None:
            check(view, payload)
        command = spec.parse_command(payload)


def in_legal(view: Payload, payload: Payload) -> None:
    """A bot's choice is one of its view's legal commands."""
    assert payload in view["legal"], (payload, view["legal"])


def wins(
    single_hand: Callable[[int, tuple[str, str], random.Random], int | None],
    pair: tuple[str, str],
    games: int,
    seed: int,
) -> int:
    """How many of ``games`` two-player hands ``pair[0]`` wins against ``pair[1]``, sitting in seat 0
    and seat 1 in turn (``single_hand(game_no, levels by seat, rng)`` gives the winner or None)."""
    rng = random.Random(seed)
    won = 0
    for game_no in range(games):
        seat = game_no % 2
        levels = pair if seat == 0 else (pair[1], pair[0])
        if single_hand(game_no, levels, rng) == seat:
            won += 1
    return won
