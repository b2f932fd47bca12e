"""The saturation runs' figures, from turns run one after the other: one replica, two replicas, one
replica, two replicas, …

A shared machine's speed drifts by tens of per cent from one minute to the next; two runs taken
once each, a minute apart, can compare a fast minute with a slow one (a run of this bench once
gave 1.49x from a one-replica run in a slow minute, its replica at 2.46 ms of CPU a move against
2.07 ms a move in the two-replica run after it).  Alternating the turns, as
:func:`bench.domain.play_alternately` does for the pure domain, spreads the machine's phases
over both kinds, and each kind's figures are taken over all its turns together: moves a second
as all its moves over all its seconds of play, CPU a move as all the CPU time over all the moves
of the sampled windows.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

PARTS = ("replicas", "load", "postgres")
"""Whose CPU time a turn reads: the replicas' together, the load generator's (the bench process),
PostgreSQL's processes on this machine."""


@dataclass(frozen=True, slots=True)
class Turn:
    """One closed-loop run against one replica or two (the kind is the caller's to keep).

    >>> Turn(1000, 2.0, 0, {"replicas": 1.8, "load": 1.0, "postgres": None}, 900.0).per_s
    500.0
    """

    moves: int
    """Successful ``Act`` calls made in the play (its set-up left out)."""
    seconds: float
    """Seconds of play."""
    errors: int
    """Errors of the run."""
    used: Mapping[str, float | None]
    """CPU seconds each of :data:`PARTS` used over the sampled window of the play (None: not read)."""
    window_moves: float
    """Moves made in that window (the run's rate × the window's seconds); 0: no window."""

    @property
    def per_s(self) -> float:
        """Moves a second of this turn alone (0 for a turn with no play)."""
        return self.moves / self.seconds if self.seconds > 0 else 0.0


def moves_per_s(turns: Sequence[Turn]) -> float | None:
    """All the moves of ``turns`` over all their seconds of play; None: no play.

    >>> moves_per_s([Turn(900, 2.0, 0, {}, 0.0), Turn(300, 1.0, 0, {}, 0.0)])
    400.0
    """
    seconds = sum(t.seconds for t in turns)
    return sum(t.moves for t in turns) / seconds if seconds > 0 else None


def cpu_ms_per_move(turns: Sequence[Turn], part: str) -> float | None:
    """Milliseconds of ``part``'s CPU a move over every turn's sampled window; None when a turn's
    figure for it is missing or no window held a move.

    >>> cpu_ms_per_move([Turn(0, 1.0, 0, {"load": 0.5}, 500.0), Turn(0, 1.0, 0, {"load": 1.5}, 1500.0)], "load")
    1.0
    """
    used = [t.used.get(part) for t in turns]
    moves = sum(t.window_moves for t in turns)
    if not turns or None in used or moves <= 0:
        return None
    return sum(u for u in used if u is not None) * 1000.0 / moves


def ceilings(one_per_s: float, two_cpu_ms: Sequence[float], cores: int) -> tuple[float, float]:
    """The most two replicas can make, over one replica's ``one_per_s``, when ``cores`` cores run
    them at the two-replica turns' CPU a move ``two_cpu_ms`` (replicas, load generator,
    PostgreSQL, ms): with the load generator, and with a load generator costing nothing.

    >>> ceilings(1000.0, [1.0, 0.5, 0.1], 2)
    (1.25, 1.8181818181818181)
    """
    replicas_ms, load_ms, postgres_ms = two_cpu_ms
    with_load = cores * 1000.0 / (replicas_ms + load_ms + postgres_ms) / one_per_s
    free_load = cores * 1000.0 / (replicas_ms + postgres_ms) / one_per_s
    return with_load, free_load
