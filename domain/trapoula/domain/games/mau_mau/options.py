"""Mau Mau's options (docs/rules/mau_mau.md section 7): the elimination limit and the computer seats."""

from __future__ import annotations

import functools
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Annotated, Any, Literal, cast

from trapoula.domain.errors import InvalidInput
from trapoula.domain.options import is_int, option_items, shown, whole
from trapoula.domain.wire import Wire

Skill = Literal["easy", "medium", "hard"]
"""A computer player's skill level (R7.2)."""

SKILLS: tuple[Skill, ...] = ("easy", "medium", "hard")
"""Every skill level, easiest first (R7.2.4)."""
SKILL_ALIASES = ("random", "heuristic")
"""The level names every game offers, accepted for ``easy`` and ``medium`` (R7.2.5, :data:`ALIASES`)."""

MAX_SEATS = 5
"""Seats are numbered 0..4 (R2.2)."""
MIN_LIMIT = -10_000
"""The lowest ``elimination_limit`` accepted: R7.1 allows any negative number, and a limit far
below the points of a hand (at most 840 in all, R2.4) only makes a match endless."""
TARGET_OPTION = "elimination_limit"
"""The option that sets how long a match lasts (R7.1; ``GameSpec.target_option``)."""
HIGHER_TOTALS_WIN = True
"""The highest total leads the standings: totals are minus the points left (R6.5; ``GameSpec.higher_totals_win``)."""


@dataclass(frozen=True, slots=True)
class MauMauOptions:
    """The table options of Mau Mau (R7.1, R7.2)."""

    elimination_limit: Annotated[int, Wire(minimum=MIN_LIMIT, maximum=-1)] = -100
    """R7.1: a player whose total is at or below it is eliminated (R6.6)."""
    computer_seats: Annotated[
        tuple[tuple[int, Skill], ...],
        Wire(
            replace=True,
            type="object",
            propertyNames={"pattern": f"^[0-{MAX_SEATS - 1}]$"},
            additionalProperties={"enum": [*SKILLS, *SKILL_ALIASES]},
        ),
    ] = ()
    """R7.2: ``(seat, skill)`` for each computer seat set at creation, by seat; the rest are people."""

    def to_dict(self) -> dict[str, Any]:
        """All options as plain data (a fresh dict each call): ``computer_seats`` maps the seat
        number, written as a string (JSON object keys), to the skill."""
        out = dict(_as_dict(self))
        out["computer_seats"] = dict(out["computer_seats"])
        return out

    def skills(self) -> dict[int, Skill]:
        """Seat -> skill of the computer seats set at creation (R7.2)."""
        return dict(self.computer_seats)


@functools.lru_cache(maxsize=256)
def _as_dict(options: MauMauOptions) -> dict[str, Any]:
    return {
        "elimination_limit": options.elimination_limit,
        "computer_seats": {str(seat): skill for seat, skill in options.computer_seats},
    }


ALIASES: Mapping[str, Skill] = {"random": "easy", "heuristic": "medium"}
"""The levels every game offers (:data:`trapoula.domain.bots.LEVELS`) as Mau Mau skills (R7.2.5):
``easy`` chooses at random, ``medium`` is the heuristic player (R7.2.4)."""


def parse_skill(value: Any, what: str) -> Skill:
    """``value`` as a skill level (R7.2); ``random`` and ``heuristic`` name ``easy`` and ``medium`` (R7.2.5).

    Raises:
        InvalidInput: not one of ``easy``, ``medium``, ``hard``, ``random``, ``heuristic``
            (``bad_skill``).
    """
    if isinstance(value, str) and value in ALIASES:
        return ALIASES[value]
    if value not in SKILLS:
        raise InvalidInput(
            f"{what}: skill {shown(value)} is not one of {', '.join(SKILLS)} (mau_mau R7.2)", reason="bad_skill"
        )
    return cast(Skill, value)


def _seat_key(key: Any) -> int:
    if isinstance(key, str) and key.isascii() and key.isdigit():
        key = int(key)
    if isinstance(key, bool) or not isinstance(key, int) or not 0 <= key < MAX_SEATS:
        raise InvalidInput(
            f"mau_mau option computer_seats: seat {str(key)[:16]!r} is not a seat 0..{MAX_SEATS - 1} (R2.2, R7.2)",
            reason="bad_option",
        )
    return key


def parse_options(raw: Mapping[str, Any]) -> MauMauOptions:
    """Validate option keys and values (section 7) and fill in the defaults.

    ``computer_seats`` is a mapping seat -> skill; the seat may be written as a string (``{"1":
    "hard"}``, as JSON writes it).

    Raises:
        InvalidInput: an unknown key, a value of the wrong type or out of range (``bad_option``),
            an unknown skill (``bad_option``); the message names the key and the value.
    """
    values: dict[str, Any] = {}
    for key, value in option_items("mau_mau", raw, MauMauOptions):
        if key == "elimination_limit":
            value = whole(value)
            if not is_int(value) or not MIN_LIMIT <= value <= -1:
                raise InvalidInput(
                    f"mau_mau option elimination_limit={shown(value)}: expected a negative integer from "
                    f"{MIN_LIMIT} to -1 (R7.1)",
                    reason="bad_option",
                )
            values[key] = value
        else:
            if not isinstance(value, Mapping):
                raise InvalidInput(
                    f"mau_mau option computer_seats={shown(value)}: expected a mapping seat -> skill (R7.2)",
                    reason="bad_option",
                )
            seats: dict[int, Skill] = {}
            for seat_key, skill in value.items():
                seat = _seat_key(seat_key)
                if seat in seats:
                    raise InvalidInput(f"mau_mau option computer_seats: seat {seat} given twice (R7.2)", "bad_option")
                try:
                    seats[seat] = parse_skill(skill, f"mau_mau option computer_seats[{seat}]")
                except InvalidInput as bad:
                    raise InvalidInput(bad.message, reason="bad_option") from None
            values[key] = tuple(sorted(seats.items()))
    return MauMauOptions(**values)
