"""Random bot hands per second in the pure domain, and open_spiel's crazy_eights beside them.

trapoula: a match of each game is played to its end through the ``GameSpec`` interface alone, as
the server's automatic play does: the seat the match waits for gets its view
(``GameSpec.seat_view``), the ``random`` bot level picks one of its legal commands
(:func:`trapoula.domain.bots.choose`), ``decide`` turns it into events and ``evolve`` applies
them; a deal due is dealt from a seed (``Deal.from_seed``).  A hand is counted at the event that
ends it and reveals its deal (role ``hand_revealed``, :mod:`trapoula.domain.lifecycle`); a match that ends is
followed by a new one.  No store, no JSON, no network.

open_spiel (``pyspiel``, when installed): ``crazy_eights`` with the same number of players,
reshuffling the discard pile into the stock as trapoula does (S8.5) and no turn limit, so that a
playout is a whole hand played to its end; uniformly random legal actions, chance outcomes (the
deal, the draws) sampled with their probabilities.
"""

from __future__ import annotations

import hashlib
import importlib
import random
import time
from dataclasses import dataclass
from typing import Any

from trapoula.domain.bots import choose
from trapoula.domain.deal import Deal
from trapoula.domain.game import MatchConfig, SeatInfo, acting_seats
from trapoula.domain.lifecycle import Role
from trapoula.domain.registry import GAMES

SEATS = 4
"""Players per match in the domain runs (every game takes 4; ``vida`` takes only 4)."""
LEVEL = "random"
"""The bot level of every seat."""
OPENSPIEL_PARAMS: dict[str, Any] = {"players": SEATS, "reshuffle": True, "max_turns": 1_000_000}
"""open_spiel's crazy_eights parameters: as many players, reshuffles as in trapoula, no turn cap."""


@dataclass(frozen=True, slots=True)
class Played:
    """What random play did in ``seconds``."""

    hands: int
    """Hands played to their end."""
    commands: int
    """Commands (trapoula: bot commands, deals not counted) or player actions (open_spiel: chance
    outcomes not counted)."""
    seconds: float
    """Time played (s)."""

    @property
    def hands_per_s(self) -> float:
        """Hands (open_spiel: playouts) per second."""
        return self.hands / self.seconds

    @property
    def commands_per_s(self) -> float:
        """Commands (open_spiel: player actions) per second."""
        return self.commands / self.seconds


def play_random(game: str, seconds: float, seed: int = 1) -> Played:
    """Play random-bot matches of ``game`` (4 seats, default options) for about ``seconds``.

    Raises:
        trapoula.domain.errors.InvalidInput: unknown game.
        Exception: whatever the rules raise (a bug: the bench stops on it).
    """
    spec = GAMES[game]
    rng = random.Random(seed)
    seats = tuple(SeatInfo(i, f"p{i}", LEVEL) for i in range(SEATS))
    hands = commands = matches = 0
    began = time.perf_counter()
    deadline = began + seconds
    while time.perf_counter() < deadline:
        state = spec.initial_state(MatchConfig(game, seats))
        dealt = 0
        while not spec.is_terminal(state) and time.perf_counter() < deadline:
            if spec.needs_deal(state):
                dealt += 1
                hand_seed = hashlib.sha256(f"bench/{game}/{seed}/{matches}/{dealt}".encode()).hexdigest()
                command = spec.deal_command(state, Deal.from_seed(spec.deck(state), hand_seed))
            else:
                seat = acting_seats(spec, state, range(SEATS))[0]
                command = spec.parse_command(choose(game, spec.seat_view(state, seat), LEVEL, rng))
                commands += 1
            for event in spec.decide(state, command):
                state = spec.evolve(state, event)
                hands += event.role is Role.HAND_REVEALED
        matches += 1
    return Played(hands, commands, time.perf_counter() - began)


def openspiel_version() -> tuple[str | None, str]:
    """``(version, "")`` of the installed open_spiel, or ``(None, why it cannot be imported)``."""
    try:
        importlib.import_module("pyspiel")
    except ImportError as exc:
        return None, f"open_spiel cannot be imported ({exc}): pip install open_spiel found no wheel, or no network"
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("open_spiel"), ""
    except PackageNotFoundError:
        return "unknown", ""


def play_openspiel(seconds: float, seed: int = 1) -> Played:
    """Random playouts of open_spiel's ``crazy_eights`` (:data:`OPENSPIEL_PARAMS`) for about ``seconds``.

    Raises:
        ImportError: open_spiel is not installed.
    """
    pyspiel = importlib.import_module("pyspiel")
    game = pyspiel.load_game("crazy_eights", OPENSPIEL_PARAMS)
    rng = random.Random(seed)
    playouts = actions = 0
    began = time.perf_counter()
    deadline = began + seconds
    while time.perf_counter() < deadline:
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                action = rng.choices([a for a, _ in outcomes], weights=[p for _, p in outcomes])[0]
            else:
                action = rng.choice(state.legal_actions())
                actions += 1
            state.apply_action(action)
        playouts += 1
    return Played(playouts, actions, time.perf_counter() - began)
