"""Random legal playouts of every registered game, invariants checked after every event
(STYLE habit 11c; DESIGN "Visibility", "Fairness and audit"; shedding-common S4.1, S12, S13.3).

By default 600 seeded matches per game (``random_case(key, 0..599)``) run in chunks, plus a
Hypothesis search over the same space that shrinks a failing configuration.  ``TRAPOULA_SOAK=N``
multiplies both counts for long runs.  A failure message starts with the case, e.g.
``case agonia#417: Case(...)``; ``play_and_check(random_case("agonia", 417))`` replays it.
"""

from __future__ import annotations

import dataclasses
import os
import re
from typing import Any, ClassVar

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from trapoula.domain.events import Event, Viewer, to_payload
from trapoula.domain.game import GameSpec
from trapoula.domain.registry import GAMES

from . import harness
from .adapters import ADAPTERS
from .harness import Case, Stats, card_tokens, play_and_check, random_case, run_cases, shown_cards

SOAK = max(1, int(os.environ.get("TRAPOULA_SOAK", "1")))
"""Multiplier of the number of random matches (``TRAPOULA_SOAK=20`` for a long run)."""
GAMES_PER_KEY = 600 * SOAK
"""Seeded random matches per game."""
CHUNK = 50
"""Matches per test item."""
HYPOTHESIS_EXAMPLES = 30 * SOAK
"""Matches drawn by Hypothesis per game."""

BUILT_IN = sorted(key for key, spec in GAMES.items() if spec.initial_state.__module__.startswith("trapoula.domain."))
"""The games of trapoula's own package; a game plugged in from outside brings its own tests (and
meets the lifecycle contract's suite, tests/domain/test_lifecycle.py)."""
KEYS = BUILT_IN
CHUNKS = [(key, start) for key in KEYS for start in range(0, GAMES_PER_KEY, CHUNK)]


_TOTALS: dict[str, Stats] = {key: Stats() for key in KEYS}
"""What the chunks of this run did, per game (for the coverage test)."""
_DONE: dict[str, set[int]] = {key: set() for key in KEYS}


def test_every_registered_game_has_an_adapter_covering_all_its_options() -> None:
    """A new built-in game needs an adapter whose grid lists every option (its section 7)."""
    assert set(ADAPTERS) == set(BUILT_IN)
    for key, adapter in ADAPTERS.items():
        spec = GAMES[key]
        assert set(adapter.option_grid) == set(spec.option_defaults()), key
        for option, values in adapter.option_grid.items():
            for value in values:
                spec.parse_options({option: value})  # every value in the grid is a valid option
            assert spec.option_defaults()[option] in values, f"{key}: the default of {option} is not in the grid"
        assert adapter.never_emitted <= set(spec.event_types), key


def test_cases_are_derived_deterministically_from_game_and_index() -> None:
    """The same index gives the same case, so a failure reproduces from its label."""
    for key in KEYS:
        assert random_case(key, 417) == random_case(key, 417)
        assert random_case(key, 417) != random_case(key, 418)
        assert random_case(key, 417).label == f"{key}#417"


@pytest.mark.slow
class _GamePlayouts:
    """The seeded random matches of one game (``key``): a class per game, so that ``pytest -n 2
    --dist loadscope`` (``make test``) runs a game's chunks and its coverage test in one process;
    the coverage test adds up what that process's chunks did."""

    key: ClassVar[str] = ""

    @pytest.mark.parametrize("start", range(0, GAMES_PER_KEY, CHUNK), ids=lambda s: f"{s:05d}")
    def test_random_legal_playouts_keep_every_invariant(self, start: int) -> None:
        """S4.1 conservation, fold == state, legal_commands == what decide accepts, no view or
        redacted event shows a hidden card or the seed (S12, S13.3), every match ends, and an audit
        can rebuild every command from its events (DESIGN, Fairness and audit)."""
        key = self.key
        stats = run_cases(random_case(key, i) for i in range(start, start + CHUNK))
        assert stats.games == CHUNK
        assert not stats.audit_gaps, (
            f"{len(stats.audit_gaps)} command(s) whose events command_for cannot map back; first: {stats.audit_gaps[0]}"
        )
        _TOTALS[key].add(stats)
        _DONE[key].add(start)

    def test_the_playouts_reach_every_event_type_and_reason(self) -> None:
        """The random players exercise the whole game: every event type the game emits, every
        reason its adapter lists (for agonia: blocked hands, penalties, skips, both match ends),
        explicit deals and refused commands (needs every chunk of this run; skipped otherwise)."""
        key = self.key
        if _DONE[key] != {start for k, start in CHUNKS if k == key}:
            pytest.skip("needs every playout chunk of this game in this process")
        stats = _TOTALS[key]
        adapter = ADAPTERS[key]
        expected = set(GAMES[key].event_types) - adapter.never_emitted
        assert expected <= set(stats.event_names), f"never emitted: {sorted(expected - set(stats.event_names))}"
        assert not set(stats.event_names) & adapter.never_emitted
        assert adapter.expected_reasons <= set(stats.reasons), (
            f"never reached: {sorted(adapter.expected_reasons - set(stats.reasons))}"
        )
        assert stats.games == GAMES_PER_KEY
        assert stats.explicit_hands > 0
        assert stats.universe_checks >= stats.games
        assert stats.refusals > 0
        # commands accepted with no event (mau_mau R5.6.3-R5.6.4: a repeated call) are played too
        assert (stats.silent > 0) == (adapter.silent is not None)


for _key in KEYS:
    _name = f"TestPlayouts_{_key}"
    globals()[_name] = type(_name, (_GamePlayouts,), {"key": _key, "__doc__": f"Random matches of {_key}."})


# --------------------------------------------------------------------------- hypothesis


@st.composite
def cases(draw: st.DrawFn, key: str) -> Case:
    """A random match of game ``key``: what ``random_case`` varies, drawn by Hypothesis so that a
    failure shrinks towards fewer players, default-like options and no initial totals."""
    spec = GAMES[key]
    adapter = ADAPTERS[key]
    n = draw(st.integers(spec.min_players, spec.max_players))
    options = draw(st.fixed_dictionaries({k: st.sampled_from(v) for k, v in adapter.option_grid.items()}))
    if draw(st.integers(0, 9)) != 9:  # nine in ten: a single hand
        options.update(adapter.single_hand)
    first_dealer = draw(st.none() | st.integers(0, n - 1))
    totals = draw(st.none() | st.tuples(*[st.integers(0, 90)] * n))
    return Case(
        key=key,
        label="hypothesis",
        n=n,
        options=options,
        first_dealer=first_dealer,
        initial_totals=totals,
        policy_seed=draw(st.integers(0, 2**64 - 1)),
        p_play=draw(st.sampled_from((0.9, 0.7, 0.03))),
        p_variant=draw(st.sampled_from((0.15, 0.0, 0.5))),
        p_explicit=draw(st.sampled_from((0.1, 0.0, 1.0))),
    )


@pytest.mark.slow
@pytest.mark.parametrize("key", KEYS)
def test_hypothesis_playouts_keep_every_invariant(key: str) -> None:
    """The same invariants over configurations drawn by Hypothesis (derandomised: reproducible)."""

    @settings(
        max_examples=HYPOTHESIS_EXAMPLES,
        derandomize=True,
        database=None,
        deadline=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    )
    @given(cases(key))
    def check(case: Case) -> None:
        stats = play_and_check(case)
        assert not stats.audit_gaps, stats.audit_gaps[0]

    check()


# --------------------------------------------------------------------------- the harness itself


def test_the_leak_check_finds_card_codes_standing_alone_only() -> None:
    """Card codes are found in lists and in space-separated strings, not inside longer words."""
    text = '{"hand": ["7H", "TS"], "name": "XTS", "note": "AC 2D", "hex": "9c2d", "k": "QSX"}'
    assert card_tokens(text) == {"7H", "TS", "AC", "2D"}
    assert shown_cards(text, {"7H", "TS", "AC", "2D"}) == set()
    assert shown_cards(text, {"7H", "TS"}) == {"AC", "2D"}


def _small_case(key: str, index: int = 0) -> Case:
    n = max(2, GAMES[key].min_players)
    case = random_case(key, index)
    first = case.first_dealer if case.first_dealer is None or case.first_dealer < n else None
    totals = None if case.initial_totals is None else case.initial_totals[:n]
    return dataclasses.replace(
        case, label="mutant", n=n, first_dealer=first, initial_totals=totals, p_play=0.9, sample_rate=1.0
    )


def _leaky_view(spec: GameSpec[Any, Any]) -> dict[str, Any]:
    def seat_view(state: Any, viewer: Viewer) -> dict[str, Any]:
        view = dict(spec.seat_view(state, None if viewer is None else (viewer + 1) % 2))
        view["seat"] = viewer
        return view

    return {"seat_view": seat_view}


def _evolve_drawing_twice(spec: GameSpec[Any, Any]) -> dict[str, Any]:
    twice = next(n for n in ("CardsDrawn", "CardDrawn", "TrickTaken", "CardsDealt") if n in spec.event_types)

    def evolve(state: Any, event: Event) -> Any:
        state = spec.evolve(state, event)
        return spec.evolve(state, event) if event.event_name() == twice else state

    return {"evolve": evolve}


def _legal_but_the_last(spec: GameSpec[Any, Any]) -> dict[str, Any]:
    def legal_commands(state: Any, seat: int) -> tuple[Any, ...]:
        legal = spec.legal_commands(state, seat)
        return legal[:-1] or legal

    return {"legal_commands": legal_commands}


MUTANT_CASES = 10
"""Small matches a broken game is played in before its defect counts as unnoticed."""

MUTANTS = {
    "view-shows-the-other-hand": ("shows", _leaky_view),
    "evolve-draws-twice": ("not conserved", _evolve_drawing_twice),
    "legal-commands-miss-one": ("accepted but not in legal_commands", _legal_but_the_last),
}
"""A broken copy of a game's spec, and the message the harness must fail with."""


@pytest.mark.parametrize("mutant", sorted(MUTANTS))
@pytest.mark.parametrize("key", KEYS)
def test_the_harness_catches_a_broken_game(key: str, mutant: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Each invariant can fail: a view showing another hand, an evolve that duplicates drawn
    cards and a legal_commands that leaves out an accepted command are all reported."""
    fragment, breaking = MUTANTS[mutant]
    monkeypatch.setitem(GAMES, key, dataclasses.replace(GAMES[key], **breaking(GAMES[key])))
    # a match may be too short to meet the defect (a romis hand can end in its first round, with one
    # choice per seat): the next small cases are tried, and the first failure must be the defect's
    for index in range(MUTANT_CASES):
        try:
            play_and_check(_small_case(key, index))
        except AssertionError as failure:
            assert re.search(fragment, str(failure)), str(failure)
            return
    pytest.fail(f"{mutant} went unnoticed in {MUTANT_CASES} small matches of {key}")


@pytest.mark.parametrize("key", KEYS)
def test_the_harness_catches_a_redaction_that_shows_hidden_fields(key: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """A redact that returns the full payload is reported (the seed of HandStarted, S12)."""
    monkeypatch.setattr(harness, "redact", lambda event, viewer: to_payload(event))
    with pytest.raises(AssertionError, match="shown to"):
        play_and_check(_small_case(key))
