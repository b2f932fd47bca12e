"""Records made offline for the client tests: a match played through the domain and written in
the record format (docs/record.md) exactly as the service exports it, without a server."""

from __future__ import annotations

import hashlib
import json
import random
from dataclasses import dataclass
from typing import Any

from match_table import seeded_commands, table_entries

from trapoula.domain.bots import choose
from trapoula.domain.chain import chain_record
from trapoula.domain.events import to_payload
from trapoula.domain.game import MatchConfig, SeatInfo
from trapoula.domain.registry import find_game

NAMES = ("ann", "bob", "cat")


def record_text(players: int = 3, target: int = 0, seed: int = 7) -> str:
    """The JSON Lines record of a match between heuristic bots (seeded deals, seeded choices), played
    by the ``agonia`` of the registry (each event with its class's schema version, docs/record.md)."""
    spec = find_game("agonia")
    seats = tuple(SeatInfo(i, NAMES[i], "heuristic") for i in range(players))
    config = MatchConfig("agonia", seats, {"target_points": target})
    rng = random.Random(seed)

    def move(state: Any) -> Any:
        seat = next(s for s in range(players) if spec.legal_commands(state, s))
        return spec.parse_command(choose("agonia", spec.seat_view(state, seat), "heuristic", rng))

    def seed_of_hand(hand: int) -> str:
        return hashlib.sha256(f"clients-{seed}-{hand}".encode()).hexdigest()

    entries: list[tuple[str, dict[str, Any]] | tuple[str, dict[str, Any], int]] = []
    entries += table_entries("agonia", NAMES[:players], {"target_points": target}, bots=["heuristic"] * players)
    for events, _, _ in seeded_commands(spec, spec.initial_state(config), seed_of_hand, move):
        entries += [(event.event_name(), to_payload(event), type(event).version) for event in events]
    lines = chain_record(f"t-clients-{seed}", "agonia", entries)
    return "".join(json.dumps(line, separators=(",", ":")) + "\n" for line in lines)


@dataclass(frozen=True)
class Tampered:
    """A record with one byte of one card code changed."""

    text: str
    seq: int
    """The seq of the changed ``CardPlayed``."""
    seat: int
    card: str
    """The card written in place of the one played."""
    position: int
    """The replay position of the changed event (game events before it, plus one)."""
