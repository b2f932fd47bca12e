"""Mau Mau: options and table setup (section 7: R7.1, R7.2; R2.2, R3.1, R6.5)."""

from __future__ import annotations

from typing import Any

import pytest
from mau_mau_helpers import Table

from trapoula.domain.errors import InvalidInput
from trapoula.domain.game import MatchConfig, SeatInfo
from trapoula.domain.games.mau_mau import SPEC, MauMauOptions
from trapoula.domain.games.shedding.events import MatchStarted


def test_section_7_defaults_are_a_limit_of_minus_100_and_no_computer_seats() -> None:
    assert SPEC.option_defaults() == {"elimination_limit": -100, "computer_seats": {}}
    assert SPEC.parse_options({}) == MauMauOptions()
    assert (SPEC.min_players, SPEC.max_players, SPEC.seat_changes) == (2, 5, True)


def test_r7_2_computer_seats_map_a_seat_to_a_skill_and_set_the_preset_bots() -> None:
    options = SPEC.parse_options({"computer_seats": {"1": "hard", 3: "easy"}})
    assert options.computer_seats == ((1, "hard"), (3, "easy"))
    assert options.to_dict() == {"elimination_limit": -100, "computer_seats": {"1": "hard", "3": "easy"}}
    assert SPEC.parse_options(options.to_dict()) == options  # MatchStarted.options rebuild the options
    assert SPEC.preset_bots(options) == {1: "hard", 3: "easy"}


def test_r7_2_the_computer_seats_appear_in_match_started_and_in_the_views() -> None:
    t = Table(3, options={"computer_seats": {"2": "medium"}})
    events = t.seeded()
    started = events[0]
    assert isinstance(started, MatchStarted)
    assert (started.names, started.bots) == (("ann", "bob", "cat"), (None, None, "medium"))
    assert t.view(0)["computers"] == [None, None, "medium"]


@pytest.mark.parametrize(
    "raw",
    [
        {"elimination_limit": 0},
        {"elimination_limit": 5},
        {"elimination_limit": -10_001},
        {"elimination_limit": True},
        {"elimination_limit": "-100"},
        {"computer_seats": {"1": "genius"}},
        {"computer_seats": {"7": "easy"}},
        {"computer_seats": {"x": "easy"}},
        {"computer_seats": ["1", "easy"]},
        {"computer_seats": {"1": "easy", 1: "hard"}},
        {"target_points": 100},
    ],
)
def test_r7_1_r7_2_bad_options_are_refused_as_malformed_input(raw: dict[str, Any]) -> None:
    with pytest.raises(InvalidInput) as bad:
        SPEC.parse_options(raw)
    assert bad.value.reason == "bad_option"


def test_r7_1_a_whole_float_limit_is_accepted() -> None:
    assert SPEC.parse_options({"elimination_limit": -250.0}).elimination_limit == -250


def _config(players: int, **kw: Any) -> MatchConfig:
    return MatchConfig("mau_mau", tuple(SeatInfo(i, f"p{i}") for i in range(players)), **kw)


@pytest.mark.parametrize(
    ("config", "reason"),
    [
        (_config(1), "bad_seats"),
        (_config(6), "bad_seats"),
        (_config(2, options={"computer_seats": {"2": "easy"}}), "bad_option"),
        (_config(3, first_dealer=3), "bad_config"),
        (_config(3, initial_totals=(0, 0)), "bad_config"),
        (_config(2, initial_totals=(0, 5)), "bad_config"),
    ],
)
def test_r2_2_r3_1_r6_5_a_table_that_the_rules_cannot_seat_is_refused(config: MatchConfig, reason: str) -> None:
    with pytest.raises(InvalidInput) as bad:
        SPEC.initial_state(config)
    assert bad.value.reason == reason


def test_r6_5_a_match_may_start_from_negative_totals() -> None:
    t = Table(2, initial_totals=(-30, -99))
    assert t.view(None)["totals"] == [-30, -99]
