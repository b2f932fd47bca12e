"""Giminaičiai's options (docs/rules/giminaiciai.md section 7).

The spec names two: ``target_score`` (R10.1), a table option kept here, and ``initial_totals``
(R10.2), the totals before the first hand of a match started in the middle of another.  The platform
carries the latter in :attr:`trapoula.domain.game.MatchConfig.initial_totals` (recorded in
``MatchStarted.initial_totals``), as for every other game, so it is not an option key here.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Annotated, Any

from trapoula.domain.errors import InvalidInput
from trapoula.domain.options import int_option, options_mapping, plain_options
from trapoula.domain.wire import Wire

__all__ = ["DEFAULT_TARGET_SCORE", "MAX_TARGET_SCORE", "GiminaiciaiOptions", "option_defaults", "parse_options"]

DEFAULT_TARGET_SCORE = 200
"""R10.1: the seed's 200 points."""
MAX_TARGET_SCORE = 1_000_000
"""The highest ``target_score`` accepted (far above it a match only becomes endless)."""
TARGET_OPTION = "target_score"
"""The option that sets how long a match lasts (R9.1; ``GameSpec.target_option``)."""
HIGHER_TOTALS_WIN = True
"""The highest total leads the standings (R9.1; ``GameSpec.higher_totals_win``)."""


@dataclass(frozen=True, slots=True)
class GiminaiciaiOptions:
    """The table options of Giminaičiai (section 7); the defaults are the seed's game."""

    target_score: Annotated[int, Wire(minimum=1, maximum=MAX_TARGET_SCORE)] = DEFAULT_TARGET_SCORE
    """R9.1, R10.1: a match ends after a hand in which a total reaches this (ties play on, R9.2)."""

    def to_dict(self) -> dict[str, Any]:
        """All options as plain data (a fresh dict each call, :func:`~trapoula.domain.options.plain_options`)."""
        return plain_options(self)


def parse_options(raw: Mapping[str, Any]) -> GiminaiciaiOptions:
    """Validate option keys and values (section 7) and fill in the defaults.

    ``raw`` maps option keys to plain values, e.g. ``{"target_score": 100}``; ``target_score`` is an
    integer from 1 to 1000000 (an integral float such as ``100.0`` from JSON is accepted).

    >>> parse_options({}).target_score, parse_options({"target_score": 50.0}).target_score
    (200, 50)

    Raises:
        InvalidInput: not a mapping, a key other than ``target_score``, or a ``target_score`` that is
            not an integer from 1 to 1,000,000 (``bad_option``, R10.1); the message names the key, the
            value and the rule.
    """
    raw = options_mapping("giminaiciai", raw)
    values: dict[str, Any] = {}
    for key, value in raw.items():
        if key != "target_score":
            raise InvalidInput(
                f"unknown giminaiciai option {str(key)[:32]!r}; known: target_score (section 7; initial totals "
                "are the match's initial_totals, R10.2)",
                reason="bad_option",
            )
        values[key] = int_option("giminaiciai", key, value, 1, MAX_TARGET_SCORE, "R10.1")
    return GiminaiciaiOptions(**values)


def option_defaults() -> dict[str, Any]:
    """Every option with its default, as plain data (section 7)."""
    return GiminaiciaiOptions().to_dict()
