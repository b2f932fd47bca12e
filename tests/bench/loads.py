"""``trapoula load`` runs measured by the bench: paced (open loop) against one replica, and closed
loop at saturation against one replica, then two on the same database.

Both run the load generator in the bench process (:func:`trapoula.clients.load.run_load`), its
lines going to a log file in the scratch folder; both set every table up before the clock starts,
so that the figures are the play's alone.  The tables are :data:`GAME` tables of :data:`SEATS`
heuristic client-side bots with :data:`WATCHERS` spectator stream each: the load's defaults, a
table of people.
"""

from __future__ import annotations

from pathlib import Path

from trapoula.clients.load import LoadPlan, LoadResult, run_load

GAME = "agonia"
"""The game of the load's tables."""
SEATS = 4
"""Client-side bots per table."""
WATCHERS = 1
"""Spectator streams per table."""
SEED = 1
"""The bots' choices and the paced schedule, the same from run to run (the deals stay the server's)."""


def _run(plan: LoadPlan, log_path: Path) -> LoadResult:
    with log_path.open("a", encoding="utf-8") as log:
        return run_load(plan, log)


def paced(address: str, tables: int, rate: float, seconds: float, log_path: Path) -> LoadResult:
    """``tables`` tables making ``rate`` moves a second in all for ``seconds`` (``trapoula load
    --rate``) against the server at ``address``."""
    plan = LoadPlan(
        address, tables, seconds, GAME, SEATS, watchers=WATCHERS, rate=rate, seed=SEED, every=5.0, set_up_first=True
    )
    return _run(plan, log_path)


def saturated(addresses: list[str], tables: int, seconds: float, log_path: Path) -> LoadResult:
    """``tables`` closed-loop tables for ``seconds`` against the replicas at ``addresses`` (the
    tables spread over them in turn, ``trapoula load --address A,B``)."""
    plan = LoadPlan(
        ",".join(addresses), tables, seconds, GAME, SEATS, watchers=WATCHERS, seed=SEED, every=5.0, set_up_first=True
    )
    return _run(plan, log_path)
