"""Random hands per CPU second in the pure domain, beside a bare program and open_spiel.

trapoula: a match of each game is played to its end through the ``GameSpec`` interface alone, as
the server's automatic play drives it: the seat the match waits for (``GameSpec.acting`` through
:func:`trapoula.domain.game.acting_seats`), a uniformly random choice among that seat's legal
commands (``GameSpec.legal_commands``: a random player needs no view), ``decide`` turns it into
events and ``evolve`` applies them; a deal due is dealt from a seed (``Deal.from_seed``).  A hand is
counted at the event that ends it and reveals its deal (role ``hand_revealed``,
:mod:`trapoula.domain.lifecycle`); a match that ends is followed by a new one.  No store, no view,
no JSON, no network.  Times are CPU times of this process (``time.process_time``), read once a hand.

The bare baseline (:mod:`bench.bare_crazy_eights`): the same Crazy Eights rules played by the same
random players in a plain function of lists and integers, as a minimal hand-written program would.
trapoula's microseconds per command over the bare program's microseconds per move is what
trapoula's immutable states, recorded events and checked commands cost; the two are measured in
alternating turns (:func:`play_alternately`), so that the load of a shared machine weighs on both.

open_spiel (``pyspiel``, when installed): ``crazy_eights`` with the same number of players,
reshuffling the discard pile into the stock as trapoula does (S8.5) and no turn limit, so that a
playout is a whole hand played to its end; uniformly random legal actions, chance outcomes (the
deal, the draws) sampled with their probabilities; CPU time too.
"""

from __future__ import annotations

import hashlib
import importlib
import random
import time
from dataclasses import dataclass
from typing import Any

from trapoula.domain.deal import Deal
from trapoula.domain.game import MatchConfig, SeatInfo, acting_seats
from trapoula.domain.lifecycle import Role
from trapoula.domain.registry import GAMES

from . import bare_crazy_eights

SEATS = 4
"""Players per match in the domain runs (every game takes 4; ``vida`` takes only 4)."""
LEVEL = "random"
"""The bot level every seat is configured with (the loop's uniform choice is that level's)."""
OPENSPIEL_PARAMS: dict[str, Any] = {"players": SEATS, "reshuffle": True, "max_turns": 1_000_000}
"""open_spiel's crazy_eights parameters: as many players, reshuffles as in trapoula, no turn cap."""


@dataclass(frozen=True, slots=True)
class Played:
    """What random play did in ``seconds`` of CPU time."""

    hands: int
    """Hands played to their end."""
    commands: int
    """Commands (trapoula: bot commands, deals not counted) or player actions (open_spiel: chance
    outcomes not counted)."""
    seconds: float
    """CPU time played (s)."""

    @property
    def hands_per_s(self) -> float:
        """Hands (open_spiel: playouts) per second."""
        return self.hands / self.seconds

    @property
    def commands_per_s(self) -> float:
        """Commands (open_spiel: player actions) per second."""
        return self.commands / self.seconds


def play_random(game: str, seconds: float, seed: int = 1) -> Played:
    """Play random matches of ``game`` (4 seats, default options) for about ``seconds`` of CPU time.

    Raises:
        trapoula.domain.errors.InvalidInput: unknown game.
        Exception: whatever the rules raise (a bug: the bench stops on it).
    """
    spec = GAMES[game]
    rng = random.Random(seed)
    seats = tuple(SeatInfo(i, f"p{i}", LEVEL) for i in range(SEATS))
    everyone = range(SEATS)
    is_terminal, needs_deal, legal_commands = spec.is_terminal, spec.needs_deal, spec.legal_commands
    decide, evolve, choice = spec.decide, spec.evolve, rng.choice
    hands = commands = matches = 0
    began = time.process_time()
    deadline = began + seconds
    while time.process_time() < deadline:
        state = spec.initial_state(MatchConfig(game, seats))
        dealt = 0
        while not is_terminal(state):
            if needs_deal(state):
                if dealt and time.process_time() >= deadline:
                    break
                dealt += 1
                hand_seed = hashlib.sha256(f"bench/{game}/{seed}/{matches}/{dealt}".encode()).hexdigest()
                command = spec.deal_command(state, Deal.from_seed(spec.deck(state), hand_seed))
            else:
                command = choice(legal_commands(state, acting_seats(spec, state, everyone)[0]))
                commands += 1
            for event in decide(state, command):
                state = evolve(state, event)
                hands += event.role is Role.HAND_REVEALED
        matches += 1
    return Played(hands, commands, time.process_time() - began)


def play_bare(seconds: float, seed: int = 1) -> Played:
    """Hands of :mod:`bench.bare_crazy_eights` between :data:`SEATS` random players for about
    ``seconds`` of CPU time (its moves counted as commands)."""
    rng = random.Random(seed)
    hands = moves = 0
    began = time.process_time()
    deadline = began + seconds
    while time.process_time() < deadline:
        made, _ = bare_crazy_eights.play_hand(rng, SEATS)
        hands += 1
        moves += made
    return Played(hands, moves, time.process_time() - began)


def play_alternately(game: str, seconds: float, turns: int = 8) -> tuple[Played, Played]:
    """Random matches of ``game`` (:func:`play_random`) and hands of the bare program
    (:func:`play_bare`), about ``seconds`` of CPU time each, in ``turns`` alternating turns of
    ``seconds / turns`` (each turn of ``game`` from a seed of its own): ``(game's, the bare
    program's)``, each summed over its turns.  On a machine shared with other work, a burst of load
    slows what runs while it lasts; played in turns, the two sides of their ratio meet the same
    bursts, where one after the other either could meet one alone.

    Raises:
        Exception: what :func:`play_random` raises.
    """
    share = seconds / turns
    mine = bare = Played(0, 0, 0.0)
    for turn in range(turns):
        a = play_random(game, share, seed=turn + 1)
        b = play_bare(share, seed=turn + 1)
        mine = Played(mine.hands + a.hands, mine.commands + a.commands, mine.seconds + a.seconds)
        bare = Played(bare.hands + b.hands, bare.commands + b.commands, bare.seconds + b.seconds)
    return mine, bare


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
    """Random playouts of open_spiel's ``crazy_eights`` (:data:`OPENSPIEL_PARAMS`) for about ``seconds``
    of CPU time.

    Raises:
        ImportError: open_spiel is not installed.
    """
    pyspiel = importlib.import_module("pyspiel")
    game = pyspiel.load_game("crazy_eights", OPENSPIEL_PARAMS)
    rng = random.Random(seed)
    playouts = actions = 0
    began = time.process_time()
    deadline = began + seconds
    while time.process_time() < deadline:
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
    return Played(playouts, actions, time.process_time() - began)
