"""The ``trapoula`` command.

::

    trapoula serve   [--address HOST:PORT] [--database-url URL]   run the server
    trapoula demo    [--game agonia] [--target N] [--record PATH] [--address HOST:PORT]
    trapoula play    [--game agonia] [--seats 4] [--bots heuristic] [--target N] [--address HOST:PORT]
    trapoula replay  RECORD [--at N] [--seat S|spectator|all]
    trapoula verify  RECORD
    trapoula tables  [--game agonia] [--address HOST:PORT]
    trapoula games   [--address HOST:PORT | --local]

``serve`` and ``demo`` (without ``--address``) load the server package on demand, so the rest
of the client never imports it.  ``TRAPOULA_ADDRESS`` and ``TRAPOULA_DATABASE_URL`` give the
defaults of ``--address`` and ``--database-url``.
"""

from __future__ import annotations

import argparse
import contextlib
import importlib
import os
import sys
from collections.abc import Sequence
from typing import Any, TextIO

from trapoula.clients.audit import audit_file
from trapoula.clients.errors import TrapoulaError
from trapoula.clients.replay import OMNISCIENT, Replay
from trapoula.clients.table import TableClient
from trapoula.clients.text import describe_event, render_view
from trapoula.domain.bots import LEVELS
from trapoula.domain.errors import InvalidInput
from trapoula.domain.registry import GAMES

__all__ = ["build_parser", "main"]

DEFAULT_ADDRESS = "127.0.0.1:50051"
"""Where the client looks for a server when neither ``--address`` nor ``TRAPOULA_ADDRESS`` says."""
DEFAULT_DATABASE_URL = "sqlite:///trapoula.sqlite3"
"""The default store: a SQLite file in the current folder."""


def _env_address() -> str:
    return os.environ.get("TRAPOULA_ADDRESS") or DEFAULT_ADDRESS


def _env_database() -> str:
    return os.environ.get("TRAPOULA_DATABASE_URL") or DEFAULT_DATABASE_URL


# --------------------------------------------------------------------------- serve


def _cmd_serve(args: argparse.Namespace, out: TextIO) -> int:
    service_main = importlib.import_module("trapoula.service.__main__")  # only the server needs it
    argv = ["--address", args.address or _env_address(), "--database-url", args.database_url or _env_database()]
    return int(service_main.main(argv))


# --------------------------------------------------------------------------- demo


def _cmd_demo(args: argparse.Namespace, out: TextIO) -> int:
    from trapoula.clients.demo import run_demo

    result = run_demo(
        args.address,
        game=args.game,
        target=args.target,
        record_path=args.record,
        levels=[args.bots] * args.seats,
        database_url=args.database_url or _env_database(),
        out=out,
    )
    return 0 if result.report.ok else 1


# --------------------------------------------------------------------------- play


def _cmd_play(args: argparse.Namespace, out: TextIO, inp: TextIO) -> int:
    from trapoula.clients.play import LocalSession, RemoteSession, play_loop

    options: dict[str, Any] = {} if args.target is None else {"target_points": args.target}
    if args.address:
        with TableClient(args.address) as client:
            client.wait_ready()
            session = RemoteSession(client, args.game, args.seats, args.bots, options, name=args.name)
            return play_loop(session, inp, out)
    local = LocalSession(args.game, args.seats, args.bots, options, seed=args.seed, name=args.name)
    return play_loop(local, inp, out)


# --------------------------------------------------------------------------- replay


def _viewer(text: str | None) -> int | str | None:
    if text is None or text == OMNISCIENT:
        return OMNISCIENT
    if text == "spectator":
        return None
    try:
        return int(text)
    except ValueError:
        raise InvalidInput(f"--seat {text!r}: expected a seat number, 'spectator' or 'all'", "bad_seat") from None


def _step_line(replay: Replay, position: int, viewer: int | str | None) -> str:
    if position == 0:
        return f"[0/{replay.length}] start of the match"
    step = replay.step(position)
    payload = replay.event_payload(position, viewer)
    me = viewer if isinstance(viewer, int) else None
    text = describe_event(step.name, payload, replay.names, me, verbose=True) or step.name
    return f"[{position}/{replay.length}] seq {step.seq}: {text}"


def _show(replay: Replay, position: int, viewer: int | str | None, out: TextIO) -> None:
    print(_step_line(replay, position, viewer), file=out)
    print(render_view(replay.view(position, viewer)), file=out)


def _interactive(replay: Replay, position: int, viewer: int | str | None, inp: TextIO, out: TextIO) -> int:
    _show(replay, position, viewer, out)
    while True:
        print("[n]ext, [p]revious, [g] N, [q]uit: ", end="", file=out, flush=True)
        line = inp.readline()
        if not line:
            return 0
        words = line.split()
        cmd = words[0].lower() if words else "n"
        if cmd == "q":
            return 0
        if cmd == "n":
            position = min(position + 1, replay.length)
        elif cmd == "p":
            position = max(position - 1, 0)
        elif cmd == "g" and len(words) == 2 and words[1].isdigit():
            position = min(int(words[1]), replay.length)
        else:
            print("n, p, g N or q", file=out)
            continue
        _show(replay, position, viewer, out)


def _cmd_replay(args: argparse.Namespace, out: TextIO, inp: TextIO) -> int:
    replay = Replay.from_file(args.record)
    viewer = _viewer(args.seat)
    if isinstance(viewer, int) and not 0 <= viewer < replay.seats:
        raise InvalidInput(f"--seat {viewer}: the table has seats 0..{replay.seats - 1}", "bad_seat")
    start = 0 if args.at is None else args.at
    if not 0 <= start <= replay.length:
        raise InvalidInput(f"--at {start}: the record has positions 0..{replay.length}", "bad_position")
    if inp.isatty():
        return _interactive(replay, start, viewer, inp, out)
    if args.at is not None:
        _show(replay, start, viewer, out)
        return 0
    for position in range(replay.length + 1):
        print(_step_line(replay, position, viewer), file=out)
    print(render_view(replay.view(replay.length, viewer)), file=out)
    return 0


# --------------------------------------------------------------------------- verify


def _cmd_verify(args: argparse.Namespace, out: TextIO) -> int:
    try:
        report = audit_file(args.record)
    except OSError as exc:
        print(f"trapoula verify: cannot read {args.record}: {exc}", file=sys.stderr)
        return 2
    print(report.summary(), file=out)
    first = report.first
    if first is None:
        return 0
    where = "the header" if first.seq == 0 else f"seq {first.seq} ({first.name})"
    print(f"record NOT verified: first discrepancy at {where}, rule {first.rule}: {first.message}", file=out)
    return 1


# --------------------------------------------------------------------------- lobby


def _cmd_tables(args: argparse.Namespace, out: TextIO) -> int:
    with TableClient(args.address or _env_address()) as client:
        tables = client.list_tables(args.game or "")
    if not tables:
        print("no tables", file=out)
    for t in tables:
        free = ",".join(str(s) for s in t.free_seats) or "-"
        print(f"{t.table_id}  {t.game:<12} {t.status:<8} seats {t.seats} free {free:<8} v{t.version}", file=out)
    return 0


def _cmd_games(args: argparse.Namespace, out: TextIO) -> int:
    if args.local:
        rows = [(g.key, g.title, g.min_players, g.max_players, g.summary) for g in GAMES.values()]
    else:
        with TableClient(args.address or _env_address()) as client:
            rows = [(g.key, g.title, g.min_players, g.max_players, g.summary) for g in client.list_games()]
    for key, title, low, high, summary in rows:
        print(f"{key:<12} {title} ({low}-{high} players): {summary}", file=out)
    return 0


# --------------------------------------------------------------------------- parser


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of the ``trapoula`` command."""
    parser = argparse.ArgumentParser(prog="trapoula", description="Card games with verifiable records.")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    games = sorted(GAMES)

    p = sub.add_parser("serve", help="run the gRPC server")
    p.add_argument("--address", help=f"host:port to listen on (env TRAPOULA_ADDRESS, default {DEFAULT_ADDRESS})")
    p.add_argument("--database-url", help=f"SQLAlchemy URL (env TRAPOULA_DATABASE_URL, default {DEFAULT_DATABASE_URL})")

    p = sub.add_parser("demo", help="four bots play a match over gRPC; the record is verified")
    p.add_argument("--game", default="agonia", choices=games)
    p.add_argument("--target", type=int, default=None, help="target points (default: the game's)")
    p.add_argument("--record", help="where to write the record (default trapoula-<table_id>.jsonl)")
    p.add_argument("--address", help="use this server instead of starting one in this process")
    p.add_argument("--database-url", help="store of the in-process server (env TRAPOULA_DATABASE_URL)")
    p.add_argument("--seats", type=int, default=4, help="number of bots (default 4)")
    p.add_argument("--bots", default="heuristic", choices=LEVELS, help="the bots' level")

    p = sub.add_parser("play", help="play against bots in the terminal")
    p.add_argument("--game", default="agonia", choices=games)
    p.add_argument("--seats", type=int, default=4)
    p.add_argument("--bots", default="heuristic", choices=LEVELS)
    p.add_argument("--target", type=int, default=None, help="target points (0: a single hand)")
    p.add_argument("--name", default="you", help="your display name")
    p.add_argument("--seed", help="64 hex digits: replayable deals (local games only)")
    p.add_argument("--address", help="play at this server (its bots) instead of locally")

    p = sub.add_parser("replay", help="step through a record")
    p.add_argument("record")
    p.add_argument("--at", type=int, default=None, help="position to show (0..number of game events)")
    p.add_argument("--seat", default=None, help="a seat number, 'spectator', or 'all' (default)")

    p = sub.add_parser("verify", help="audit a record offline: hash chain, commitments, rules")
    p.add_argument("record")

    p = sub.add_parser("tables", help="list a server's tables")
    p.add_argument("--game", default="")
    p.add_argument("--address")

    p = sub.add_parser("games", help="list the games")
    p.add_argument("--address")
    p.add_argument("--local", action="store_true", help="this client's games, without a server")
    return parser


def main(argv: Sequence[str] | None = None, *, out: TextIO | None = None, inp: TextIO | None = None) -> int:
    """Run the ``trapoula`` command; returns the exit status (0 ok, 1 failed, 2 usage).

    ``out`` and ``inp`` default to standard output and input (tests pass their own).
    """
    args = build_parser().parse_args(argv)
    out = out or sys.stdout
    inp = inp or sys.stdin
    try:
        match args.command:
            case "serve":
                return _cmd_serve(args, out)
            case "demo":
                return _cmd_demo(args, out)
            case "play":
                return _cmd_play(args, out, inp)
            case "replay":
                return _cmd_replay(args, out, inp)
            case "verify":
                return _cmd_verify(args, out)
            case "tables":
                return _cmd_tables(args, out)
            case "games":
                return _cmd_games(args, out)
    except TrapoulaError as exc:
        print(f"trapoula {args.command}: {exc}", file=sys.stderr)
        return 1
    except InvalidInput as exc:
        print(f"trapoula {args.command}: {exc.message}", file=sys.stderr)
        return 2
    except BrokenPipeError:  # the reader went away (``trapoula replay R | head``)
        with contextlib.suppress(OSError):
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 1
    except OSError as exc:
        print(f"trapoula {args.command}: {exc}", file=sys.stderr)
        return 2
    return 2


if __name__ == "__main__":
    sys.exit(main())
