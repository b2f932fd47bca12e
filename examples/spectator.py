"""A spectator: it watches a table on a trapoula server and prints each event as it happens, in
the game's words, until the match is over.

Run it beside a match (from the repository's root, after ``make install``)::

    .venv/bin/python examples/spectator.py --address 127.0.0.1:50051 --table <table id>

A table's id is printed by ``examples/bot.py`` and listed by ``trapoula tables``.  A spectator
holds no seat token, so it sees what any onlooker sees: the cards played, not the hands.  It
prints the events from the table's start (``--from-version`` N: those after version N), one line
each, then the new ones live; it ends when the match does.  Exit status 0 when the match ended,
1 when the server refused the watch (an unknown table) or could not be reached.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Mapping, Sequence
from typing import Any

from trapoula.clients import TableClient, TrapoulaError
from trapoula.clients.text import describe_event

DEFAULT_ADDRESS = "127.0.0.1:50051"
"""The server when neither ``--address`` nor ``TRAPOULA_ADDRESS`` names one."""


def parse(argv: Sequence[str] | None = None) -> argparse.Namespace:
    """The command line (see the module docstring)."""
    parser = argparse.ArgumentParser(description="Print a trapoula table's events as they happen.")
    parser.add_argument("--address", default=os.environ.get("TRAPOULA_ADDRESS", DEFAULT_ADDRESS), help="host:port")
    parser.add_argument("--table", required=True, help="the table's id")
    parser.add_argument("--from-version", type=int, default=0, help="print only the events after this version")
    return parser.parse_args(argv)


def seat_names(view: Mapping[str, Any]) -> list[str | None]:
    """The players' names by seat, from the table part of a view (None for a free seat)."""
    seats = view.get("table", {}).get("seats", [])
    return [seat.get("name") for seat in seats]


def table_line(name: str, payload: Mapping[str, Any]) -> str:
    """One line for a table event (``describe_event`` has none): the table created, a seat
    taken, a seed committed to, given or revealed; the event's name for any other."""
    if name == "TableCreated":
        return f"table for {payload.get('game')} created with {payload.get('seats')} seats"
    if name == "SeatTaken":
        bot = " (a bot)" if payload.get("bot") else ""
        return f"{payload.get('name')}{bot} sits at seat {payload.get('seat')}"
    if name == "SeedGiven":
        return f"seat {payload.get('seat')} gives its seed for hand {payload.get('hand')}"
    if name == "SeedCommitted":
        return f"the server commits to its seed for hand {payload.get('hand')}"
    if name == "ServerSeedRevealed":
        return f"the server reveals its seed for hand {payload.get('hand')}"
    return name


def watch(address: str, table_id: str, from_version: int = 0) -> int:
    """Print the table's events after ``from_version`` until the match is over; returns how many.

    Raises:
        TrapoulaError: the server refused the watch (``NotFound``: no such table), or no server
            answered.
    """
    printed = 0
    with TableClient(address) as client:
        print(f"watching table {table_id} at {address}", flush=True)
        with client.watch(table_id, from_version) as updates:
            for update in updates:  # ends when the match is over
                game = update.view.get("game")
                line = describe_event(game, update.name, update.payload, seat_names(update.view), verbose=True)
                print(f"{update.version:5} {line or table_line(update.name, update.payload)}", flush=True)
                printed += 1
    print("match over", flush=True)
    return printed


def main(argv: Sequence[str] | None = None) -> int:
    """Run the spectator; the exit status (see the module docstring)."""
    args = parse(argv)
    try:
        watch(args.address, args.table, args.from_version)
    except TrapoulaError as exc:
        print(f"spectator: {exc}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
