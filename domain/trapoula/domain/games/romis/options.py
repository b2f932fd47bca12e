"""Romis su iškritimu's options (docs/rules/romis.md section 7).

The spec names three: ``target_score`` (R12.1), ``initial_totals`` (R12.2) and
``carried_bonus_factor`` (R12.3).  The platform carries the initial totals in
:attr:`trapoula.domain.game.MatchConfig.initial_totals` (recorded in ``MatchStarted.initial_totals``),
as for every other game, so they are not an option key here.  One option is trapoula's own,
``resubmit`` (R12.4, formerly decision T1): False keeps R5.2 (a sealed submission is
binding); True lets a seat replace its submission until the round resolves.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Annotated, Any

from trapoula.domain.errors import InvalidInput
from trapoula.domain.options import is_int, options_mapping, plain_options, shown, whole
from trapoula.domain.wire import Wire

__all__ = [
    "DEFAULT_TARGET_SCORE",
    "MAX_BONUS_FACTOR",
    "MAX_TARGET_SCORE",
    "RomisOptions",
    "option_defaults",
    "parse_options",
]

DEFAULT_TARGET_SCORE = 100
"""R12.1: the seed's 100 points."""
MAX_TARGET_SCORE = 1_000_000
"""The highest ``target_score`` accepted (far above it a match only becomes endless)."""
TARGET_OPTION = "target_score"
"""The option that sets how long a match lasts (R11.1; ``GameSpec.target_option``)."""
HIGHER_TOTALS_WIN = True
"""The highest total leads the standings (R11.1; ``GameSpec.higher_totals_win``)."""
MAX_BONUS_FACTOR = 1_000
"""The highest ``carried_bonus_factor`` accepted (R12.3); a real match never comes near it."""

_KEYS = ("target_score", "carried_bonus_factor", "resubmit")


@dataclass(frozen=True, slots=True)
class RomisOptions:
    """The table options of Romis su iškritimu (section 7); the defaults are the seed's game."""

    target_score: Annotated[int, Wire(minimum=1, maximum=MAX_TARGET_SCORE)] = DEFAULT_TARGET_SCORE
    """R11.1, R12.1: the match ends after a hand in which a total reaches this (ties play on, R11.2)."""
    carried_bonus_factor: Annotated[int, Wire(minimum=1, maximum=MAX_BONUS_FACTOR)] = 1
    """R10.6, R12.3: the bonus factor of the match's first hand (match context for an audit)."""
    resubmit: bool = False
    """R12.4: True lets a seat that has submitted submit again until the round resolves (the
    last submission counts); False is R5.2 (a submission cannot be changed)."""

    def to_dict(self) -> dict[str, Any]:
        """All options as plain data (a fresh dict each call, :func:`~trapoula.domain.options.plain_options`)."""
        return plain_options(self)


def _bad(message: str) -> InvalidInput:
    return InvalidInput(f"romis option {message} (section 7)", reason="bad_option")


def _integer(key: str, value: Any, high: int, rule: str) -> int:
    value = whole(value)
    if not is_int(value) or not 1 <= value <= high:
        raise _bad(f"{key}={shown(value)}: expected an integer from 1 to {high} ({rule})")
    return value


def parse_options(raw: Mapping[str, Any]) -> RomisOptions:
    """Validate option keys and values (section 7) and fill in the defaults.

    ``raw`` maps option keys to plain values, e.g. ``{"target_score": 50, "resubmit": True}``:
    ``target_score`` an integer from 1 to 1,000,000 (R12.1), ``carried_bonus_factor`` an integer
    from 1 to 1,000 (R12.3) -- an integral float such as ``100.0`` from JSON is accepted for both --
    and ``resubmit`` a boolean (R12.4).

    >>> parse_options({}).target_score, parse_options({"carried_bonus_factor": 2.0}).carried_bonus_factor
    (100, 2)

    Raises:
        InvalidInput: not a mapping, an unknown key, or a value of the wrong type or out of range
            (``bad_option``); the message names the key, the value and the rule.
    """
    raw = options_mapping("romis", raw)
    values: dict[str, Any] = {}
    for key, value in raw.items():
        if key == "target_score":
            values[key] = _integer(key, value, MAX_TARGET_SCORE, "R12.1")
        elif key == "carried_bonus_factor":
            values[key] = _integer(key, value, MAX_BONUS_FACTOR, "R12.3")
        elif key == "resubmit":
            if not isinstance(value, bool):
                raise _bad(f"resubmit={shown(value)}: expected true or false (R12.4)")
            values[key] = value
        else:
            raise _bad(
                f"{str(key)[:32]!r} is unknown; known: {', '.join(_KEYS)} (initial totals are the match's "
                "initial_totals, R12.2)"
            )
    return RomisOptions(**values)


def option_defaults() -> dict[str, Any]:
    """Every option with its default, as plain data (section 7)."""
    return RomisOptions().to_dict()
