"""Crazy Eights' options (docs/rules/crazy_eights.md section 7); the defaults are the standard game (R7.3)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Annotated, Any, Literal

from trapoula.domain.errors import InvalidInput
from trapoula.domain.options import int_option, option_items, plain_options, shown
from trapoula.domain.wire import Wire

Scoring = Literal["single", "points"]
"""R7.1: one hand (R6.3), or the points game (R6.4-R6.7)."""

SCORINGS: tuple[str, ...] = ("single", "points")
"""The values of ``scoring``."""
MAX_TARGET_PER_PLAYER = 1_000
"""R6.6 names 50 a player; a target far above it only makes a match endless (and its record huge)."""
TARGET_OPTION = "target_per_player"
"""The option that sets how long a match lasts (R6.6; ``GameSpec.target_option``)."""
HIGHER_TOTALS_WIN = True
"""The highest total leads the standings (R6.4-R6.6; ``GameSpec.higher_totals_win``)."""


@dataclass(frozen=True, slots=True)
class CrazyEightsOptions:
    """The table options of Crazy Eights (section 7, R7.1-R7.3); all combine freely."""

    scoring: Scoring = "single"
    """R7.1: ``single`` (one hand, R6.3) or ``points`` (hand after hand to a target, R6.4-R6.7)."""
    target_per_player: Annotated[int, Wire(minimum=1, maximum=MAX_TARGET_PER_PLAYER)] = 50
    """R7.2, R6.6: the points-game target is this times the number of players."""
    twos_draw_two: bool = False
    """R5.2: a 2 makes the next player draw two; twos stack."""
    queen_spades_draw_five: bool = False
    """R5.3: the queen of spades makes the next player draw five."""
    jacks_skip: bool = False
    """R5.4: a jack skips the next player."""
    aces_reverse: bool = False
    """R5.5: an ace reverses the direction of play."""
    draw_until_playable: bool = False
    """R5.6: draw one card at a time until a card can be played, then play it."""

    def to_dict(self) -> dict[str, Any]:
        """All options as plain data (a fresh dict each call, :func:`~trapoula.domain.options.plain_options`)."""
        return plain_options(self)

    def target(self, players: int) -> int:
        """The points-game target for ``players`` players (R6.6): 50 a player by default.

        >>> CrazyEightsOptions(scoring="points").target(3)
        150
        """
        return self.target_per_player * players


def parse_options(raw: Mapping[str, Any]) -> CrazyEightsOptions:
    """Validate option keys and values (section 7) and fill in the defaults.

    ``raw`` maps option keys to plain values: ``{"scoring": "points", "jacks_skip": True}``.

    Raises:
        InvalidInput: an unknown key, or a value of the wrong type or outside its choices
            (``bad_option``); the message names the key and the value.
    """
    values: dict[str, Any] = {}
    for key, value in option_items("crazy_eights", raw, CrazyEightsOptions):
        if key == "scoring":
            if value not in SCORINGS:
                raise InvalidInput(
                    f"crazy_eights option scoring={shown(value)}: expected single or points (R7.1)",
                    reason="bad_option",
                )
        elif key == "target_per_player":
            value = int_option("crazy_eights", key, value, 1, MAX_TARGET_PER_PLAYER, "R7.2")
        elif not isinstance(value, bool):
            raise InvalidInput(
                f"crazy_eights option {key}={shown(value)}: expected true or false (R7.3)", reason="bad_option"
            )
        values[key] = value
    return CrazyEightsOptions(**values)
