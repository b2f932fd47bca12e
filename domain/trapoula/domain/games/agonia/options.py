"""Agonia's options (docs/rules/agonia.md section 7); defaults are the seed's main rules (R1.2)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Annotated, Any, Literal

from trapoula.domain.errors import InvalidInput
from trapoula.domain.options import int_option, option_items, plain_options, shown
from trapoula.domain.wire import Wire

StarterAceSuit = Literal["ace", "first_player", "dealer", "previous_winner"]
AnnouncePenalty = Literal["draw_one", "skip_turn", "ten_points"]
SevenLastCard = Literal["penalty_then_out", "forbidden"]

MAX_TARGET_POINTS = 1_000
"""R7.1: the highest ``target_points`` (the seed names 50 or 100 as usual limits; the cap keeps every
match and its record bounded)."""
TARGET_OPTION = "target_points"
"""The option that sets how long a match lasts (R7.1; ``GameSpec.target_option``); the lowest total
leads (R6.6)."""

_CHOICES: dict[str, tuple[str, ...]] = {
    "starter_ace_suit": ("ace", "first_player", "dealer", "previous_winner"),
    "announce_penalty": ("draw_one", "skip_turn", "ten_points"),
    "seven_last_card": ("penalty_then_out", "forbidden"),
}


@dataclass(frozen=True, slots=True)
class AgoniaOptions:
    """The table options of Agonia (R7.1-R7.6)."""

    target_points: Annotated[int, Wire(minimum=0, maximum=MAX_TARGET_POINTS)] = 100
    """R7.1: 0 plays a single hand; otherwise, up to 1,000, a total must exceed it to end the match."""
    starter_ace_suit: StarterAceSuit = "ace"
    """R7.2 (variant α): who chooses the suit when the up-card is an ace."""
    ace_last_card: bool = False
    """R7.3 (variant β): an ace of the active suit may be the last card, also on an ace."""
    eight_last_card: bool = False
    """R7.4 (variant γ): an 8 may be played as the last card; its player plays again."""
    announce_cards: bool = False
    """R7.5 (variant δ): a play leaving two or one card must carry ``announce``."""
    announce_penalty: AnnouncePenalty = "draw_one"
    """R7.5.2: the penalty for a missed announcement."""
    seven_last_card: SevenLastCard = "penalty_then_out"
    """R7.6: a 7 as the last card (decision 9)."""

    def to_dict(self) -> dict[str, Any]:
        """All options as plain data (a fresh dict each call, :func:`~trapoula.domain.options.plain_options`)."""
        return plain_options(self)


def parse_options(raw: Mapping[str, Any]) -> AgoniaOptions:
    """Validate option keys and values (section 7) and fill in the defaults.

    Raises:
        InvalidInput: an unknown key, a ``target_points`` that is not an integer from 0 to 1,000
            (R7.1), a choice outside its list (R7.2, R7.5.2, R7.6) or a variant that is not true or
            false (R7.3-R7.5) (``bad_option``); the message names the key and the value.
    """
    values: dict[str, Any] = {}
    for key, value in option_items("agonia", raw, AgoniaOptions):
        if key == "target_points":
            value = int_option("agonia", key, value, 0, MAX_TARGET_POINTS, "R7.1")
        elif key in _CHOICES:
            if value not in _CHOICES[key]:
                raise InvalidInput(
                    f"agonia option {key}={shown(value)}: expected one of {', '.join(_CHOICES[key])}",
                    reason="bad_option",
                )
        elif not isinstance(value, bool):
            raise InvalidInput(f"agonia option {key}={shown(value)}: expected true or false", reason="bad_option")
        values[key] = value
    return AgoniaOptions(**values)
