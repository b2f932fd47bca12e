"""Vida's options (docs/rules/vida.md section 7), the table's bid cap ``max_bid`` among them.

Every key of section 7 with its default; ``max_bid`` (default 1000; section 7 and D7, a product
decision the rules owners confirmed) bounds the bids a table lists as legal and accepts: no contract
above 970 can be made in any hand (capot 250, belote 20, declarations at most 350), so the default
cap changes no outcome.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Annotated, Any, Literal

from trapoula.domain.errors import InvalidInput
from trapoula.domain.options import is_int, options_mapping, plain_options, shown, whole
from trapoula.domain.wire import Wire

DeclarationTiming = Literal["after_auction", "before_first_card"]
"""R5.7 (the table compares after the auction) or R5.8 (Cypriot Pilotta: ``declare`` in the first trick)."""
AllPass = Literal["next_dealer", "same_dealer"]
"""R4.8, D5: who deals after a hand that all four passed."""
BeforeAfter = Literal["after_dealer", "before_dealer"]
"""R4.2, R4.9, D1: seat dealer+1 or seat dealer+3."""
Direction = Literal["counterclockwise", "clockwise"]
"""R2.4, D2: where seat k+1 sits (presentation only)."""
FirstDealer = Literal["random", 0, 1, 2, 3]
"""R3.1, D36: the first dealer, drawn by the table or fixed."""

MIN_BID = 80
"""The lowest bid (R4.3)."""
BID_STEP = 10
"""Bids are multiples of 10 (R4.3)."""
MAX_BID_LIMIT = 10_000
"""The highest value ``max_bid`` may take (a longer list of legal bids only slows every view)."""
MAX_TARGET_SCORE = 1_000_000
"""The highest ``target_score`` (R6.9 names 3550; far above it only makes a match endless)."""
MAX_WINS_NEEDED = 99
"""The highest ``wins_needed`` (R6.10 names 2)."""
TARGET_OPTION = "target_score"
"""The option that sets how long a match lasts (R6.9; ``GameSpec.target_option``)."""
HIGHER_TOTALS_WIN = True
"""The highest total leads the standings (R6.9; ``GameSpec.higher_totals_win``)."""

_CHOICES: dict[str, tuple[str, ...]] = {
    "declaration_timing": ("after_auction", "before_first_card"),
    "all_pass": ("next_dealer", "same_dealer"),
    "first_bidder": ("after_dealer", "before_dealer"),
    "first_leader": ("after_dealer", "before_dealer"),
    "direction": ("counterclockwise", "clockwise"),
}
_BOOLS = ("open_vida", "bidders_must_outscore")
_RULES: dict[str, str] = {
    "open_vida": "R3.4",
    "declaration_timing": "R5.7",
    "bidders_must_outscore": "R6.3",
    "all_pass": "R4.8",
    "first_bidder": "R4.2",
    "first_leader": "R4.9",
    "direction": "R2.4",
    "target_score": "R6.9",
    "wins_needed": "R6.10",
    "first_dealer": "R3.1",
    "max_bid": "R4.3",
}


@dataclass(frozen=True, slots=True)
class VidaOptions:
    """The table options of Vida (section 7); the defaults are the seed's main game."""

    open_vida: bool = False
    """R3.4, R5.1: 7 cards each, four face up, the contract holder takes them and gives three."""
    declaration_timing: DeclarationTiming = "after_auction"
    """R5.7 (automatic comparison after the auction) or R5.8 (``declare`` during the first trick)."""
    bidders_must_outscore: bool = True
    """R6.3 (b): the bidders must also collect strictly more than the defenders (D22)."""
    all_pass: AllPass = "next_dealer"
    """R4.8, R3.5, D5: who deals after a hand all four passed."""
    first_bidder: BeforeAfter = "after_dealer"
    """R4.2, D1: the first to speak is dealer+1 (``after_dealer``) or dealer+3."""
    first_leader: BeforeAfter = "after_dealer"
    """R4.9, D1: the first lead is dealer+1 (``after_dealer``) or dealer+3."""
    direction: Direction = "counterclockwise"
    """R2.4, D2: presentation only (seat k+1 on seat k's right when counter-clockwise)."""
    target_score: Annotated[int, Wire(minimum=1, maximum=MAX_TARGET_SCORE)] = 3550
    """R6.9, D34: a team whose total exceeds this (strictly) wins the game."""
    wins_needed: Annotated[int, Wire(minimum=1, maximum=MAX_WINS_NEEDED)] = 2
    """R6.10, D37: games a team must win to win the match."""
    first_dealer: FirstDealer = "random"
    """R3.1, D36: ``random`` (the table draws it) or a seat 0-3."""
    max_bid: Annotated[int, Wire(minimum=MIN_BID, maximum=MAX_BID_LIMIT, multipleOf=BID_STEP)] = 1000
    """Section 7, D7: the highest bid the table lists and accepts (a multiple of 10, at least 80); see the
    module docstring."""

    def to_dict(self) -> dict[str, Any]:
        """All options as plain data (a fresh dict each call, :func:`~trapoula.domain.options.plain_options`)."""
        return plain_options(self)


def _bad(key: str, value: Any, expected: str) -> InvalidInput:
    return InvalidInput(f"vida option {key}={shown(value)}: expected {expected} ({_RULES[key]})", reason="bad_option")


def parse_options(raw: Mapping[str, Any]) -> VidaOptions:
    """Validate option keys and values (section 7) and fill in the defaults.

    ``raw`` maps option keys to plain values, e.g. ``{"open_vida": True, "target_score": 1000}``.
    ``first_dealer`` is ``"random"`` or a seat 0-3; ``max_bid`` a multiple of 10 from 80 to
    10000; ``target_score`` an integer 1..1000000; ``wins_needed`` 1..99.

    >>> parse_options({"open_vida": True}).open_vida, parse_options({}).target_score
    (True, 3550)

    Raises:
        InvalidInput: an unknown key, or a value of the wrong type or outside its choices
            (``bad_option``); the message names the key, the value and the rule.
    """
    raw = options_mapping("vida", raw)
    fields = {f.name for f in dataclasses.fields(VidaOptions)}
    values: dict[str, Any] = {}
    for key, value in raw.items():
        if key not in fields:
            raise InvalidInput(
                f"unknown vida option {str(key)[:32]!r}; known: {', '.join(sorted(fields))} (vida section 7)",
                reason="bad_option",
            )
        if key in _BOOLS:
            if not isinstance(value, bool):
                raise _bad(key, value, "true or false")
        elif key in _CHOICES:
            if value not in _CHOICES[key] or not isinstance(value, str):
                raise _bad(key, value, "one of " + ", ".join(_CHOICES[key]))
        elif key == "first_dealer":
            value = whole(value)
            if value != "random" and not (is_int(value) and 0 <= value <= 3):
                raise _bad(key, value, "random or a seat 0-3")
        elif key == "target_score":
            value = whole(value)
            if not is_int(value) or not 1 <= value <= MAX_TARGET_SCORE:
                raise _bad(key, value, f"an integer from 1 to {MAX_TARGET_SCORE}")
        elif key == "wins_needed":
            value = whole(value)
            if not is_int(value) or not 1 <= value <= MAX_WINS_NEEDED:
                raise _bad(key, value, f"an integer from 1 to {MAX_WINS_NEEDED}")
        else:  # max_bid
            value = whole(value)
            if not is_int(value) or not MIN_BID <= value <= MAX_BID_LIMIT or value % BID_STEP:
                raise _bad(key, value, f"a multiple of {BID_STEP} from {MIN_BID} to {MAX_BID_LIMIT}")
        values[key] = value
    return VidaOptions(**values)


def option_defaults() -> dict[str, Any]:
    """Every option with its default, as plain data (section 7)."""
    return VidaOptions().to_dict()
