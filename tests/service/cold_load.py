"""Measure the cold load of a table with a long history, with and without snapshots (docs/storage.md).

Plays one ``crazy_eights`` points match between four server bots (by default 1,000 points a player:
about 10,000 to 14,000 events), then opens fresh ``Tables`` on the same store and times their
first load of the table: with snapshots off (the whole log replayed) and on (the latest snapshot
plus the events after it), each ``--runs`` times, and the first read of the early history after a
snapshot load (``record()``, which needs every event).

    python tests/service/cold_load.py                      # a SQLite file in a temporary folder
    python tests/service/cold_load.py --url postgresql+psycopg://postgres@127.0.0.1:5432/test

On PostgreSQL the tables live in a schema made for the run and dropped after it.
"""

from __future__ import annotations

import argparse
import secrets
import statistics
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import sqlalchemy

from trapoula.service.application import OWNER, Tables
from trapoula.service.snapshots import SNAPSHOT_EVERY, ColdLoad

SECRET = bytes.fromhex("5e" * 32)


def _timed(action: Callable[[], Any]) -> tuple[float, float]:
    """``(wall seconds, CPU seconds of this process)`` of ``action()``."""
    wall, cpu = time.perf_counter(), time.process_time()
    action()
    return time.perf_counter() - wall, time.process_time() - cpu


def measure(url: str, schema: str | None, target: int, runs: int) -> None:
    """Play the match, then print the cold-load figures."""

    def open_tables(**options: Any) -> Tables:
        return Tables(url, SECRET, schema=schema, **options)

    tables = open_tables()
    table_id, _ = tables.create_table("crazy_eights", 4, {"scoring": "points", "target_per_player": target})
    for seat in range(4):
        tables.add_bot(table_id, "heuristic" if seat % 2 else "random")
    wall, _cpu = _timed(lambda: (tables.start_match(table_id, OWNER, "go"), tables.settle()))
    events = tables._load(table_id).state.version
    tables.close()
    print(f"match: {events} events played in {wall:.1f} s (snapshot every {SNAPSHOT_EVERY} versions)")

    for label, every in (("snapshots off (full replay)", 0), ("snapshots on", SNAPSHOT_EVERY)):
        walls, cpus, reports, firsts = [], [], [], []
        for _ in range(runs):
            fresh = open_tables(snapshot_every=every)
            seen: list[ColdLoad] = []
            fresh.add_load_listener(seen.append)
            wall, cpu = _timed(lambda: fresh._load(table_id))  # noqa: B023 - called at once
            walls.append(wall)
            cpus.append(cpu)
            reports.extend(seen)
            firsts.append(_timed(lambda: fresh.record(table_id)))  # noqa: B023 - called at once
            fresh.close()
        last = reports[-1]
        print(
            f"{label}: cold load {statistics.median(walls):.3f} s wall, {statistics.median(cpus):.3f} s CPU "
            f"(median of {runs}); snapshot v{last.snapshot_version}, {last.events_read} events read; "
            f"then record() {statistics.median(w for w, _ in firsts):.3f} s wall, "
            f"{statistics.median(c for _, c in firsts):.3f} s CPU"
        )


def main() -> None:
    """Parse the arguments and run :func:`measure`."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--url", help="a SQLAlchemy URL (default: a SQLite file in a temporary folder)")
    parser.add_argument("--target", type=int, default=1000, help="crazy_eights target_per_player (1-1000)")
    parser.add_argument("--runs", type=int, default=3, help="cold loads of each kind (median shown)")
    args = parser.parse_args()
    if not args.url:
        with tempfile.TemporaryDirectory() as folder:
            measure(f"sqlite:///{Path(folder) / 'cold_load.sqlite3'}", None, args.target, args.runs)
        return
    schema = f"trapoula_cold_load_{secrets.token_hex(4)}" if args.url.startswith("postgresql") else None
    engine = sqlalchemy.create_engine(args.url)
    if schema:
        with engine.begin() as conn:
            conn.execute(sqlalchemy.text(f'CREATE SCHEMA "{schema}"'))
    try:
        measure(args.url, schema, args.target, args.runs)
    finally:
        if schema:
            with engine.begin() as conn:
                conn.execute(sqlalchemy.text(f'DROP SCHEMA "{schema}" CASCADE'))
        engine.dispose()


if __name__ == "__main__":
    main()
