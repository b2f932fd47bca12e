"""A bot of your own: it creates a table on a trapoula server, takes a seat, fills the others with the
server's bots, starts the match, plays a random legal move whenever the match waits for it, and
when the match is over saves the match record to a file.

Run a server, then the bot (from the repository's root, after ``make install``)::

    .venv/bin/trapoula serve --address 127.0.0.1:50051 &
    .venv/bin/python examples/bot.py --address 127.0.0.1:50051
    .venv/bin/trapoula verify trapoula-<table id>.jsonl

It prints the table's id first (watch the match with ``examples/spectator.py --table <id>``), then
the match's result and where the record went.  ``--game``, ``--seats``, ``--bots`` and
``--option KEY=VALUE`` (VALUE in JSON) choose the match; the default is one hand of Agonia
against one of the server's heuristic bots.  Exit status 0 when the match ended and its record
was saved, 1 when the server refused a call or could not be reached, or the record could not
be written.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import random
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from trapoula.clients import StaleView, TableClient, my_move
from trapoula.clients.errors import TrapoulaError

DEFAULT_ADDRESS = "127.0.0.1:50051"
"""The server when neither ``--address`` nor ``TRAPOULA_ADDRESS`` names one."""


def option(text: str) -> tuple[str, Any]:
    """``KEY=VALUE`` as a table option, VALUE read as JSON (a bare word is text)."""
    key, sep, value = text.partition("=")
    if not sep or not key:
        raise argparse.ArgumentTypeError(f"{text!r} is not KEY=VALUE")
    try:
        return key, json.loads(value)
    except json.JSONDecodeError:
        return key, value


def parse(argv: Sequence[str] | None = None) -> argparse.Namespace:
    """The command line (see the module docstring)."""
    parser = argparse.ArgumentParser(description="Play one match at a trapoula server with a random bot.")
    parser.add_argument("--address", default=os.environ.get("TRAPOULA_ADDRESS", DEFAULT_ADDRESS), help="host:port")
    parser.add_argument("--game", default="agonia", help="the game's key (default agonia)")
    parser.add_argument("--seats", type=int, default=2, help="seats at the table, this bot's included (default 2)")
    parser.add_argument("--bots", default="heuristic", help="the level of the server's bots (default heuristic)")
    parser.add_argument("--name", default="randy", help="this bot's display name")
    parser.add_argument(
        "--option",
        action="append",
        type=option,
        metavar="KEY=VALUE",
        help="a table option, repeatable (default for agonia: target_points=0, a single hand)",
    )
    parser.add_argument("--record", type=Path, help="where to save the record (default trapoula-<table id>.jsonl)")
    parser.add_argument("--seed", type=int, help="makes this bot's choices repeatable")
    return parser.parse_args(argv)


def play(
    address: str,
    game: str = "agonia",
    seats: int = 2,
    bots: str = "heuristic",
    name: str = "randy",
    options: Mapping[str, Any] | None = None,
    record_path: Path | None = None,
    seed: int | None = None,
) -> Path:
    """Play one match at the server at ``address`` (the arguments are the command line's); returns
    the file the record was saved to.

    Raises:
        TrapoulaError: the server refused a call, or no server answered.
        OSError: the record could not be written.
    """
    rng = random.Random(seed)
    with TableClient(address) as client:
        table = client.create_table(game, seats=seats, options=options)
        print(f"table {table.table_id} at {address}", flush=True)
        client.join(table.table_id, name)  # the client adopts the seat's token
        for _ in range(seats - 1):
            client.add_bot(table.table_id, bots)
        client.start_match(table.table_id)
        last = None
        with client.watch(table.table_id) as updates:
            for update in updates:  # ends when the match is over
                last = update
                if not my_move(update.view):
                    continue
                command = rng.choice(update.view["legal"])
                with contextlib.suppress(StaleView):  # the table moved on: a newer update follows
                    client.act(table.table_id, command, view_version=update.version)
        record = client.record(table.table_id)
    path = record_path or Path(f"trapoula-{table.table_id}.jsonl")
    path.write_text(record, encoding="utf-8")
    if last is not None:
        print(f"match over: {last.name} {json.dumps(last.payload, sort_keys=True)}")
    print(f"record saved to {path}; check it with: trapoula verify {path}")
    return path


def main(argv: Sequence[str] | None = None) -> int:
    """Run the bot; the exit status (see the module docstring)."""
    args = parse(argv)
    options = dict(args.option or ([("target_points", 0)] if args.game == "agonia" else []))
    try:
        play(args.address, args.game, args.seats, args.bots, args.name, options, args.record, args.seed)
    except (TrapoulaError, OSError) as exc:
        print(f"bot: {exc}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
