"""Turn clocks: a table's time control, the seats' clocks folded from the log, and the move made
for a seat whose time ran out (docs/clock.md, rules C1-C6).

The clock is the platform's, not a game's: every game offers it as the ``clock`` option
(:data:`CLOCK_DEFAULTS`), kept apart from the game's own options (``TableCreated.clock``).  The
domain keeps no clock of its own: every time here is an input, seconds since the epoch, taken
from the stored events' times by the service.

>>> control = parse_time_control("agonia", {"move_seconds": 30, "bank_seconds": 60})
>>> control
TimeControl(move_seconds=30, bank_seconds=60, policy='heuristic')
>>> clocks = SeatClocks.start(control, 2).after((0,), 1000.0, None)
>>> clocks.deadline(0)
1090.0
>>> clocks = clocks.after((1,), 1040.0, 0)  # seat 0 moved after 40 s: 10 s of its bank spent (C3)
>>> clocks.banks, clocks.deadline(1)
((50.0, 60.0), 1130.0)
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from typing import Any

from trapoula.domain.errors import InvalidInput
from trapoula.domain.options import is_int, shown, whole

__all__ = [
    "CLOCK_DEFAULTS",
    "CLOCK_OPTION",
    "MAX_BANK_SECONDS",
    "MAX_MISSED",
    "MAX_MOVE_SECONDS",
    "SAFE_KINDS",
    "SeatClocks",
    "TimeControl",
    "instant",
    "parse_time_control",
    "policies",
    "timeout_command",
]

CLOCK_OPTION = "clock"
"""The key of the time control among a table's options (every game's)."""
MAX_MOVE_SECONDS = 86_400
"""The longest time per move (a day), C1."""
MAX_BANK_SECONDS = 604_800
"""The largest bank of a match (a week), C1."""
MAX_MISSED = 3
"""Timeouts in a row that make a person *away*: the ``heuristic`` computer player moves for him
then, whatever the policy but ``leave`` (C4a)."""
SAFE_KINDS = ("pass", "draw")
"""The moves the ``pass`` policy prefers, in this order (C4)."""
CLOCK_DEFAULTS: dict[str, Any] = {"move_seconds": 0, "bank_seconds": 0, "policy": "heuristic"}
"""The ``clock`` option's fields at their defaults: no clock (``move_seconds`` 0), no bank, and a
timed-out seat moved by the ``heuristic`` computer player (C1, C4)."""


def policies(game: str, levels: Sequence[str], seat_changes: bool) -> tuple[str, ...]:
    """The timeout policies a table of ``game`` may choose (C4): each computer-player level of the
    game (``levels``), ``pass`` (the safest pass or draw), and ``leave`` where players may leave
    during the match (``seat_changes``).

    >>> policies("agonia", ("random", "heuristic"), False)
    ('random', 'heuristic', 'pass')
    """
    return (*levels, "pass", *(("leave",) if seat_changes else ()))


@dataclass(frozen=True, slots=True)
class TimeControl:
    """A table's time control (C1): the seconds each move may take, the bank of extra seconds each
    seat has for the whole match, and what is done for a seat whose time ran out."""

    move_seconds: int
    """Seconds per move, 1 to :data:`MAX_MOVE_SECONDS`."""
    bank_seconds: int = 0
    """Extra seconds per seat for the whole match, spent when a move takes longer than
    ``move_seconds`` (C3); 0 to :data:`MAX_BANK_SECONDS`."""
    policy: str = "heuristic"
    """What is done for a seat whose time ran out (C4): a computer-player level, ``pass`` or ``leave``."""

    def payload(self) -> dict[str, Any]:
        """The plain data of ``TableCreated.clock``.

        >>> TimeControl(20).payload()
        {'move_seconds': 20, 'bank_seconds': 0, 'policy': 'heuristic'}
        """
        return {"move_seconds": self.move_seconds, "bank_seconds": self.bank_seconds, "policy": self.policy}


def parse_time_control(
    game: str, raw: Any, levels: Sequence[str] = ("random", "heuristic"), seat_changes: bool = False
) -> TimeControl | None:
    """The ``clock`` option of a table of ``game`` (C1), or None for no clock (absent, null, or
    ``move_seconds`` 0).  ``raw`` is a mapping of ``move_seconds``, ``bank_seconds`` and
    ``policy``, each optional (:data:`CLOCK_DEFAULTS`); ``levels`` and ``seat_changes`` say which
    policies the game allows (:func:`policies`).

    >>> parse_time_control("agonia", None) is None, parse_time_control("agonia", {"move_seconds": 0}) is None
    (True, True)
    >>> parse_time_control("mau_mau", {"move_seconds": 15.0, "policy": "leave"}, seat_changes=True)
    TimeControl(move_seconds=15, bank_seconds=0, policy='leave')

    Raises:
        InvalidInput: not a mapping, an unknown field, a number out of range, or a policy the game
            does not allow (``bad_option``).
    """
    if raw is None:
        return None
    if not isinstance(raw, Mapping):
        raise InvalidInput(f"{game} option clock {shown(raw)} is not a mapping (C1)", reason="bad_option")
    unknown = sorted(str(k) for k in raw if k not in CLOCK_DEFAULTS)
    if unknown:
        raise InvalidInput(
            f"{game} option clock has no field {unknown[0]!r}; expected {', '.join(CLOCK_DEFAULTS)} (C1)",
            reason="bad_option",
        )
    move = _seconds(game, "move_seconds", raw.get("move_seconds", 0), MAX_MOVE_SECONDS)
    bank = _seconds(game, "bank_seconds", raw.get("bank_seconds", 0), MAX_BANK_SECONDS)
    policy = raw.get("policy", CLOCK_DEFAULTS["policy"])
    allowed = policies(game, levels, seat_changes)
    if policy not in allowed:
        raise InvalidInput(
            f"{game} option clock.policy {shown(policy)}: expected one of {', '.join(allowed)} (C4)",
            reason="bad_option",
        )
    if move == 0:
        if bank:
            raise InvalidInput(f"{game} option clock.bank_seconds needs move_seconds above 0 (C1)", "bad_option")
        return None
    return TimeControl(move, bank, str(policy))


def _seconds(game: str, key: str, value: Any, high: int) -> int:
    value = whole(value)
    if not is_int(value) or not 0 <= value <= high:
        raise InvalidInput(
            f"{game} option clock.{key} {shown(value)}: expected a whole number of seconds from 0 to {high} (C1)",
            reason="bad_option",
        )
    return value


@dataclass(frozen=True, slots=True)
class SeatClocks:
    """Each seat's clock at one point of a table's log (C2, C3), folded by :meth:`after`."""

    control: TimeControl
    due: tuple[float | None, ...]
    """Per seat: since when (seconds since the epoch) the match waits for its move, or None."""
    banks: tuple[float, ...]
    """Per seat: the seconds of its bank left (C3)."""
    missed: tuple[int, ...] = ()
    """Per seat: its timeouts in a row since its own last move (C4a)."""

    @classmethod
    def start(cls, control: TimeControl, seats: int) -> SeatClocks:
        """The clocks of a table of ``seats`` seats before any move is awaited: full banks."""
        return cls(control, (None,) * seats, (float(control.bank_seconds),) * seats, (0,) * seats)

    def after(
        self,
        acting: Sequence[int],
        at: float,
        moved: int | None,
        *,
        own: bool = True,
        timed_out: int | None = None,
    ) -> SeatClocks:
        """The clocks after an event stored at time ``at`` that left the match waiting for the seats
        ``acting`` (persons only: a computer player has no clock), ``moved`` being the seat whose
        move the event is, if any (C2, C3): its own move (``own``), or the one made for it after its
        time ran out.  ``timed_out``: the seat of a ``TimedOut`` event (C4).

        A seat that moved, or that the match no longer waits for, has its time since it became due
        counted: what passes ``move_seconds`` comes off its bank (never below 0).  A seat waited
        for from this event on, or again after its own move, is due from ``at``.  A seat's own move
        clears its count of timeouts in a row (:attr:`missed`); each ``TimedOut`` adds one.
        """
        top = max(
            max(acting, default=-1), moved if moved is not None else -1, timed_out if timed_out is not None else -1
        )
        seats = max(len(self.due), top + 1)
        due = list(self.due) + [None] * (seats - len(self.due))
        banks = list(self.banks) + [float(self.control.bank_seconds)] * (seats - len(self.banks))
        missed = list(self.missed) + [0] * (seats - len(self.missed))
        waited = set(acting)
        for seat in range(seats):
            since = due[seat]
            if since is not None and (seat == moved or seat not in waited):
                over = max(0.0, at - since - self.control.move_seconds)
                banks[seat] = max(0.0, banks[seat] - over)
                due[seat] = since = None
            if since is None and seat in waited:
                due[seat] = at
        if moved is not None and own:
            missed[moved] = 0
        if timed_out is not None:
            missed[timed_out] += 1
        if tuple(due) == self.due and tuple(banks) == self.banks and tuple(missed) == self.missed:
            return self
        return replace(self, due=tuple(due), banks=tuple(banks), missed=tuple(missed))

    def deadline(self, seat: int) -> float | None:
        """When ``seat``'s time runs out (seconds since the epoch): the time it became due plus
        ``move_seconds`` plus its bank left (C2, C3); None when its move is not awaited."""
        since = self.due[seat] if 0 <= seat < len(self.due) else None
        if since is None:
            return None
        return since + self.control.move_seconds + self.banks[seat]

    def policy_for(self, seat: int) -> str:
        """The policy that moves ``seat`` when its time runs out (C4, C4a): the table's, but the
        ``heuristic`` computer player's for a seat away (:data:`MAX_MISSED` timeouts in a row)
        when the table's is ``pass``, so that a match everyone left still comes to its end.

        >>> clocks = SeatClocks.start(TimeControl(5, 0, "pass"), 2)
        >>> away = replace(clocks, missed=(3, 2))
        >>> clocks.policy_for(0), away.policy_for(0), away.policy_for(1)
        ('pass', 'heuristic', 'pass')
        """
        policy = self.control.policy
        away = 0 <= seat < len(self.missed) and self.missed[seat] >= MAX_MISSED
        return "heuristic" if away and policy == "pass" else policy

    def deadlines(self) -> tuple[tuple[int, float], ...]:
        """``(seat, deadline)`` of every seat whose move is awaited, earliest first (ties in seat order)."""
        found = ((seat, self.deadline(seat)) for seat in range(len(self.due)))
        return tuple(sorted(((s, d) for s, d in found if d is not None), key=lambda item: (item[1], item[0])))


def instant(seconds: float) -> str:
    """A time (seconds since the epoch) as the clock's events and views write it: RFC 3339 in
    UTC, to the millisecond.

    >>> instant(1_800_000_000.25)
    '2027-01-15T08:00:00.250Z'
    """
    return datetime.fromtimestamp(seconds, UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")


def timeout_command(
    policy: str,
    legal: Sequence[Mapping[str, Any]],
    bot: Callable[[str, random.Random], Mapping[str, Any]],
    rng: random.Random,
) -> dict[str, Any]:
    """The move made for a seat whose time ran out (C4), from its ``legal`` command payloads.

    ``leave``: the seat's ``leave`` command (where the game has one; else as ``pass``).  ``pass``:
    its first legal ``pass``, else its first ``draw`` (:data:`SAFE_KINDS`); where it has neither,
    the ``heuristic`` computer player's move.  A computer-player level: that player's move,
    ``bot(level, rng)`` (it sees only the seat's view).

    >>> legal = [{"kind": "play", "card": "7H"}, {"kind": "draw"}]
    >>> timeout_command("pass", legal, lambda level, rng: legal[0], random.Random(1))
    {'kind': 'draw'}
    >>> timeout_command("pass", legal[:1], lambda level, rng: {"kind": level}, random.Random(1))
    {'kind': 'heuristic'}

    Raises:
        InvalidInput: no legal command (``no_legal_command``), or what ``bot`` raises.
    """
    if not legal:
        raise InvalidInput("the timed-out seat has no legal command", reason="no_legal_command")
    wanted = ("leave", *SAFE_KINDS) if policy == "leave" else SAFE_KINDS if policy == "pass" else ()
    for kind in wanted:
        found = next((c for c in legal if c.get("kind") == kind), None)
        if found is not None:
            return dict(found)
    level = "heuristic" if policy in ("pass", "leave") else policy
    return dict(bot(level, rng))
