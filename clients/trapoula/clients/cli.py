"""The ``trapoula`` command.

::

    trapoula serve   [the flags of python -m trapoula.service]         run the server
    trapoula demo    [--game G] [--seats 4] [--bots LEVEL] [--target N] [--option K=V ...] [--record PATH]
                     [--address HOST:PORT]
    trapoula play    [--game G] [--seats 4] [--bots LEVEL] [--target N] [--option K=V ...] [--seed HEX64]
                     [--address HOST:PORT] [--record FILE]
    trapoula replay  RECORD [--at N] [--seat S|spectator|all]
    trapoula verify  RECORD [--key HEX ...] [--json]
    trapoula cut     RECORD --hands K --out FILE                       the record up to hand K's signed head
    trapoula record  TABLE_ID [--out FILE] [--address HOST:PORT]        fetch a table's record from a server
    trapoula tables  [--game G] [--address HOST:PORT]
    trapoula games   [--address HOST:PORT | --local]
    trapoula history [--player NAME] [--game G] [--after TIME] [--before TIME] [--limit 20] [--address HOST:PORT]
    trapoula standings [--game G] [--player NAME] [--limit 50] [--address HOST:PORT]
    trapoula load    [--address HOST:PORT] [--tables 200] [--duration 60] [--game G] [--seats 4] [--bots LEVEL]
                     [--target N] [--option K=V ...] [--every 5] [--watchers 1] [--channels 8] [--timeout 30]
                     [--seed N] [--matches N] [--rate MOVES_PER_S] [--set-up-first] [--every-view]

``serve`` hands every argument to ``python -m trapoula.service`` (its settings module parses
them, so the two accept the same flags and environment); ``serve`` and ``demo`` (without
``--address``) load the server package on demand, so the rest of the client never imports it.
``TRAPOULA_ADDRESS`` and ``TRAPOULA_DATABASE_URL`` give the defaults of ``--address`` and
``--database-url``.

An expected failure is one line on standard error, ``trapoula COMMAND: what went wrong``, never
a traceback, and the exit status says which kind it was (:data:`EXIT_CODES`).
"""

from __future__ import annotations

import argparse
import contextlib
import importlib
import json
import os
import string
import sys
from collections.abc import Callable, Mapping, Sequence
from datetime import datetime
from pathlib import Path
from typing import Any, TextIO, TypeVar

from trapoula.clients.audit import parse_record
from trapoula.clients.colour import painted
from trapoula.clients.demo import ServerNotStarted
from trapoula.clients.errors import TrapoulaError
from trapoula.clients.history import Page
from trapoula.clients.load import LoadPlan, non_negative_arg, rate_arg, run_load, seconds_arg, whole_number_arg
from trapoula.clients.replay import OMNISCIENT, Replay
from trapoula.clients.table import TableClient
from trapoula.clients.text import game_text, render_view
from trapoula.domain.audit import FORMAT, audit_record
from trapoula.domain.bots import levels as bot_levels
from trapoula.domain.clock import CLOCK_DEFAULTS, CLOCK_OPTION
from trapoula.domain.errors import InvalidInput
from trapoula.domain.registry import DEFAULT_GAME, GAMES, find_game
from trapoula.domain.signing import cut_record

__all__ = ["EXIT_CODES", "EXIT_FAILED", "EXIT_INTERRUPTED", "EXIT_OK", "EXIT_USAGE", "build_parser", "main", "seed_arg"]

DEFAULT_ADDRESS = "127.0.0.1:50051"
"""Where the client looks for a server when neither ``--address`` nor ``TRAPOULA_ADDRESS`` says."""
ADDRESS_HELP = (
    f"the server, host:port or several separated by commas (env TRAPOULA_ADDRESS, default {DEFAULT_ADDRESS}); "
    "an unreachable server is retried for up to 30 s"
)
"""Help of the ``--address`` of the commands that ask a server."""
DEFAULT_DATABASE_URL = "sqlite:///trapoula.sqlite3"
"""The default store: a SQLite file in the current folder."""

EXIT_OK = 0
"""Done; ``verify``: the record is verified."""
EXIT_FAILED = 1
"""``verify``: the record has discrepancies; ``replay``: it cannot be replayed to its end; any
command: the server refused a call or could not be reached, or the match did not finish."""
EXIT_USAGE = 2
"""Bad flags or arguments, or unusable input: a file that cannot be read, is not UTF-8 text, or is
not a trapoula record."""
EXIT_INTERRUPTED = 130
"""Interrupted (Ctrl-C)."""
EXIT_CODES = f"""exit status: {EXIT_OK} done (verify: record verified); {EXIT_FAILED} failed (verify: \
discrepancies found; replay: the record cannot be replayed to its end; the server refused or \
could not be reached); {EXIT_USAGE} bad usage or unusable input (a file that cannot be read or \
is not a trapoula record); serve: the server's own status."""
"""The exit statuses, as ``trapoula --help`` prints them."""


class _Unusable(Exception):
    """Input the command cannot use (exit :data:`EXIT_USAGE`); the message says why."""


def _env_address() -> str:
    return os.environ.get("TRAPOULA_ADDRESS") or DEFAULT_ADDRESS


def _env_database() -> str:
    return os.environ.get("TRAPOULA_DATABASE_URL") or DEFAULT_DATABASE_URL


def _say_error(command: str, message: str) -> None:
    """One line on standard error: ``trapoula COMMAND: message``."""
    print(f"trapoula {command}: {' '.join(message.split())}", file=sys.stderr, flush=True)


def _os_message(exc: OSError) -> str:
    """``No such file or directory: 'x.jsonl'`` rather than ``[Errno 2] ...``."""
    if exc.strerror and exc.filename is not None:
        return f"{exc.strerror}: {os.fsdecode(exc.filename)!r}"
    return exc.strerror or str(exc)


def _read_text(path: str) -> str:
    """The UTF-8 text of the file at ``path``.

    Raises:
        _Unusable: it cannot be read, or is not UTF-8 text.
    """
    try:
        return Path(path).read_text(encoding="utf-8")
    except UnicodeDecodeError as exc:
        raise _Unusable(
            f"cannot read {path}: not UTF-8 text (byte 0x{exc.object[exc.start]:02x} at offset {exc.start}); "
            "a record is UTF-8 JSON Lines"
        ) from None
    except OSError as exc:
        raise _Unusable(f"cannot read {path}: {exc.strerror or exc}") from None


def _record_lines(path: str) -> list[dict[str, Any]]:
    """The parsed lines of the record file at ``path``.

    Raises:
        _Unusable: unreadable, or not a trapoula record (no record header on its first line).
    """
    lines = parse_record(_read_text(path))
    if not lines or lines[0].get("format") != FORMAT:
        raise _Unusable(f"{path} is not a trapoula record: its first line is not a {FORMAT!r} header")
    return lines


# --------------------------------------------------------------------------- serve


def _cmd_serve(argv: Sequence[str]) -> int:
    """Hand ``argv`` to ``python -m trapoula.service``; its exit status is the command's."""
    try:
        service_main = importlib.import_module("trapoula.service.__main__")  # only the server needs it
    except ImportError as exc:
        _say_error("serve", f"the trapoula server is not installed here ({exc}); install trapoula[server]")
        return EXIT_FAILED
    return int(service_main.main(list(argv)))


# --------------------------------------------------------------------------- options

TARGET_HELP = "the game's target: " + ", ".join(
    f"{spec.key} {spec.target_option}" for spec in GAMES.values() if spec.target_option is not None
)
"""The help of ``--target``: the option each game's ``GameSpec.target_option`` names."""


def option_arg(text: str) -> tuple[str, Any]:
    """A ``--option KEY=VALUE`` argument: VALUE is read as JSON (``50``, ``true``, ``{"1": "hard"}``),
    else kept as text (``points``).

    Raises:
        argparse.ArgumentTypeError: no ``=`` or an empty key.
    """
    key, sep, value = text.partition("=")
    if not sep or not key.strip():
        raise argparse.ArgumentTypeError(f"{text!r} is not KEY=VALUE")
    try:
        parsed: Any = json.loads(value)
    except ValueError:
        parsed = value
    return key.strip(), parsed


def _options(args: argparse.Namespace, defaults: Mapping[str, Any]) -> dict[str, Any]:
    """The table options of ``--option`` and ``--target`` over ``defaults``.

    Raises:
        _Unusable: ``--target`` for a game without a target option.
    """
    options = dict(defaults)
    options.update(dict(args.option or ()))
    if args.target is not None:
        key = find_game(args.game).target_option
        if key is None:
            raise _Unusable(f"{args.game} has no target option; use --option KEY=VALUE")
        options[key] = args.target
    return options


def _level(args: argparse.Namespace) -> str:
    """The ``--bots`` level, checked against the game's levels.

    Raises:
        _Unusable: not a level of the game.
    """
    known = bot_levels(args.game)
    if args.bots not in known:
        raise _Unusable(f"--bots {args.bots!r} is not a level of {args.game}; choose one of {', '.join(known)}")
    return str(args.bots)


# --------------------------------------------------------------------------- demo


def _cmd_demo(args: argparse.Namespace, out: TextIO) -> int:
    from trapoula.clients.demo import run_demo

    result = run_demo(
        args.address,
        game=args.game,
        options=_options(args, find_game(args.game).text.demo_options),
        record_path=args.record,
        levels=[_level(args)] * args.seats,
        database_url=args.database_url or _env_database(),
        out=out,
    )
    return EXIT_OK if result.report.ok else EXIT_FAILED


# --------------------------------------------------------------------------- play

SEED_DIGITS = 64
"""A ``--seed`` is 64 hex digits (32 bytes), as every hand's seed."""


def seed_arg(text: str) -> str:
    """The ``--seed`` argument: 64 hex digits, returned in lower case.

    Raises:
        argparse.ArgumentTypeError: anything else (argparse prints it and exits with status 2).
    """
    seed = text.strip().lower()
    if len(seed) != SEED_DIGITS or not set(seed) <= set(string.hexdigits.lower()):
        bad = sorted(set(seed) - set(string.hexdigits.lower()))
        why = f"{len(seed)} characters" if len(seed) != SEED_DIGITS else f"not hex: {''.join(bad)!r}"
        raise argparse.ArgumentTypeError(f"{text!r} is not a seed: expected {SEED_DIGITS} hex digits ({why})")
    return seed


def _count_arg(text: str) -> int:
    """A whole number >= 1 (``--seats``, ``--tables``, ``--channels``)."""
    return whole_number_arg(text, 1)


def _cmd_play(args: argparse.Namespace, out: TextIO, inp: TextIO) -> int:
    from trapoula.clients.play import LocalSession, RemoteSession, play_loop

    options = _options(args, {})
    _level(args)
    record = args.record
    if record is not None and not Path(record).resolve().parent.is_dir():
        raise _Unusable(f"--record {record}: no such folder for the record")
    if args.address:
        if args.seed is not None:
            raise _Unusable("--seed replays local games only; a server deals from its own seeds (drop --address)")
        with TableClient(args.address) as client:
            client.wait_ready()
            remote = RemoteSession(client, args.game, args.seats, args.bots, options, name=args.name, record=record)
            return play_loop(remote, inp, painted(out))
    local = LocalSession(args.game, args.seats, args.bots, options, seed=args.seed, name=args.name, record=record)
    return play_loop(local, inp, painted(out))


# --------------------------------------------------------------------------- replay


def _viewer(text: str | None) -> int | str | None:
    if text is None or text == OMNISCIENT:
        return OMNISCIENT
    if text == "spectator":
        return None
    try:
        return int(text)
    except ValueError:
        raise _Unusable(f"--seat {text!r}: expected a seat number, 'spectator' or 'all'") from None


POSITIONS_LINE = (
    "Positions: [N/M] is the match after its N-th game event, of M (0: before the first); seq S is that "
    "event's number in the record, table events included, as trapoula verify names it."
)
"""What ``replay`` says first: what its positions and seq numbers are."""


def _step_lines(replay: Replay, viewer: int | str | None) -> list[str]:
    """The line of every position, 0..length, as ``viewer`` saw each event, read in order by the
    game's narrator (``GameText.narrate``: a trick names who played each card)."""
    describe = game_text(replay.spec.key).narrate()
    me = viewer if isinstance(viewer, int) else None
    lines = [f"[0/{replay.length}] start of the match"]
    for position in range(1, replay.length + 1):
        step = replay.step(position)
        if not replay.reaches(position, viewer):  # an event withheld from this seat (Event.withheld)
            lines.append(
                f"[{position}/{replay.length}] seq {step.seq}: (not shown to this seat: another seat's private move)"
            )
            continue
        payload = replay.event_payload(position, viewer)
        text = describe(step.name, payload, replay.names, me, verbose=True) or step.name
        lines.append(f"[{position}/{replay.length}] seq {step.seq}: {text}")
    return lines


def _show(replay: Replay, position: int, viewer: int | str | None, lines: Sequence[str], out: TextIO) -> None:
    """One position: its event, the move that led to it when the event is not that move itself
    (a turn passing on, a skip, a deal: :meth:`Replay.last_move`), then the view."""
    print(lines[position], file=out)
    move = replay.last_move(position)
    if move is not None and move != position and replay.reaches(move, viewer):
        print(f"  after the move {lines[move]}", file=out)
    print(render_view(replay.view(position, viewer)), file=out)


def _interactive(
    replay: Replay,
    position: int,
    viewer: int | str | None,
    inp: TextIO,
    out: TextIO,
    lines: Sequence[str] | None = None,
) -> None:
    """Step through ``replay`` from ``position`` as ``inp`` asks (``n``, ``p``, ``g N``, ``q``); ``lines``
    the positions' lines (:func:`_step_lines`, made here when not given)."""
    lines = _step_lines(replay, viewer) if lines is None else lines
    _show(replay, position, viewer, lines, out)
    while True:
        print("[n]ext, [p]revious, [g] N, [q]uit: ", end="", file=out, flush=True)
        line = inp.readline()
        if not line:
            return
        words = line.split()
        cmd = words[0].lower() if words else "n"
        if cmd == "q":
            return
        if cmd == "n":
            position = min(position + 1, replay.length)
            while position < replay.length and not replay.reaches(position, viewer):
                position += 1
        elif cmd == "p":
            position = max(position - 1, 0)
            while position > 0 and not replay.reaches(position, viewer):
                position -= 1
        elif cmd == "g" and len(words) == 2 and words[1].isascii() and words[1].isdigit():  # not int("²")
            position = min(int(words[1]), replay.length) if len(words[1]) <= 9 else replay.length
        else:
            print("n, p, g N or q", file=out)
            continue
        _show(replay, position, viewer, lines, out)


def _cmd_replay(args: argparse.Namespace, out: TextIO, inp: TextIO) -> int:
    """Exit 0 when the whole record was replayed, 1 when it stops at an event it cannot apply
    (the positions before it are shown and the reason is printed), 2 for unusable input."""
    lines = _record_lines(args.record)
    try:
        replay = Replay(lines, partial=True)
    except InvalidInput as exc:
        raise _Unusable(f"{args.record}: {exc.message}") from None
    problems = audit_record(lines).problems
    if problems and replay.stopped is None:  # a replay shows what a record says, a verified one what happened
        first = problems[0]
        _say_error(
            "replay",
            f"warning: this record does not verify ({len(problems)} discrepancies, the first at seq {first.seq} "
            f"({first.name}), rule {first.rule}); run `trapoula verify` for the list",
        )
    viewer = _viewer(args.seat)
    if isinstance(viewer, int) and not 0 <= viewer < replay.seats:
        raise _Unusable(f"--seat {viewer}: the table has seats 0..{replay.seats - 1}")
    stopped = replay.stopped
    if stopped is not None:  # said first, so that a person stepping through knows
        _say_error("replay", f"{stopped}; positions 0..{replay.length} can be shown")
    start = 0 if args.at is None else args.at
    if not 0 <= start <= replay.length:
        raise _Unusable(f"--at {start}: the record has positions 0..{replay.length}")
    steps = _step_lines(replay, viewer)
    out = painted(out)
    print(POSITIONS_LINE, file=out)
    if inp.isatty():
        _interactive(replay, start, viewer, inp, out, steps)
    elif args.at is not None:
        _show(replay, start, viewer, steps, out)
    else:
        for position in range(replay.length + 1):
            if replay.reaches(position, viewer):  # a seat's listing holds what it received (Event.withheld)
                print(steps[position], file=out)
        print(render_view(replay.view(replay.length, viewer)), file=out)
    return EXIT_OK if stopped is None else EXIT_FAILED


# --------------------------------------------------------------------------- verify


def public_key_arg(text: str) -> str:
    """A server's public key for ``verify --key``: 64 hex digits (Ed25519), read in lower case.

    Raises:
        argparse.ArgumentTypeError: anything else.
    """
    key = text.strip().lower()
    if len(key) != 64 or any(c not in "0123456789abcdef" for c in key):
        raise argparse.ArgumentTypeError(f"{text[:80]!r} is not a public key of 64 hex digits")
    return key


def _cmd_verify(args: argparse.Namespace, out: TextIO) -> int:
    """Exit 0 verified, 1 discrepancies found, 2 unreadable or not a record."""
    report = audit_record(_record_lines(args.record), trusted=args.key)
    if args.json:
        print(json.dumps(report.to_json(), ensure_ascii=False, indent=2), file=out)
        return EXIT_OK if report.ok else EXIT_FAILED
    print(report.summary(), file=out)
    first = report.first
    if first is None:
        return EXIT_OK
    where = "the header" if first.seq == 0 else f"seq {first.seq} ({first.name})"
    print(f"record NOT verified: first discrepancy at {where}, rule {first.rule}: {first.message}", file=out)
    return EXIT_FAILED


def _cmd_cut(args: argparse.Namespace, out: TextIO) -> int:
    """Write the record cut at a signed head (docs/record.md 2.5). Exit 0 written; 1 the record has
    no signed head there; 2 unreadable or not a record."""
    lines = _record_lines(args.record)
    try:
        cut = cut_record(lines, args.hands)
    except InvalidInput as exc:
        _say_error("cut", f"{args.record}: {exc.message}")
        return EXIT_FAILED
    text = "".join(json.dumps(line, ensure_ascii=False, separators=(",", ":")) + "\n" for line in cut)
    Path(args.out).write_text(text, encoding="utf-8")
    events = cut[0]["events"]
    print(f"wrote {args.out}: hands 1-{args.hands} ({events} events), signed at the end of hand {args.hands}", file=out)
    return EXIT_OK


def _cmd_record(args: argparse.Namespace, out: TextIO) -> int:
    """Fetch a table's record from a server (``GetRecord``), write it and check it (exit 0 written and
    verified; 1 the server refused, or the record does not verify; 2 the file cannot be written)."""
    path = Path(args.out) if args.out else Path(f"trapoula-{args.table_id}.jsonl")
    if not path.resolve().parent.is_dir():
        raise _Unusable(f"--out {path}: no such folder for the record")
    with TableClient(args.address or _env_address()) as client:
        jsonl = client.record(args.table_id)
    report = audit_record(_parsed(jsonl))
    path.write_text(jsonl, encoding="utf-8")
    whole = (
        "the whole match"
        if report.complete or report.match_over
        else "the match is not over: its hands finished so far (fetch it again once it has ended)"
    )
    print(f"wrote {path}: {report.game}, {report.hands} finished hand(s), {report.events} events; {whole}", file=out)
    if report.signer is not None:
        print(f"signed by the server's key (ed25519 {report.signer}; trapoula verify --key checks it)", file=out)
    if report.ok:
        print("record verified", file=out)
        return EXIT_OK
    print(f"record NOT verified: {report.first}", file=out)
    return EXIT_FAILED


def _parsed(jsonl: str) -> list[dict[str, Any]]:
    """The lines of a record as a server sent it."""
    lines = parse_record(jsonl)
    if not lines or lines[0].get("format") != FORMAT:
        raise TrapoulaError("the server's answer is not a trapoula record")
    return lines


# --------------------------------------------------------------------------- lobby


def _cmd_tables(args: argparse.Namespace, out: TextIO) -> int:
    with TableClient(args.address or _env_address()) as client:
        tables = client.list_tables(args.game or "")
    if not tables:
        print("no tables", file=out)
        return EXIT_OK
    # FREE: the seats still free, by number; VERSION: the table's event count; NOTE: a table for explicit deals
    print(f"{'TABLE':<36}  {'GAME':<12}  {'STATUS':<8}  {'SEATS':>5}  {'FREE':<8}  {'VERSION':>7}  NOTE", file=out)
    for t in tables:
        free = ",".join(str(s) for s in t.free_seats) or "-"
        manual = "manual deal" if t.manual_deal else ""
        row = f"{t.table_id:<36}  {t.game:<12}  {t.status:<8}  {t.seats:>5}  {free:<8}  {t.version:>7}  {manual}"
        print(row.rstrip(), file=out)
    return EXIT_OK


def _cmd_games(args: argparse.Namespace, out: TextIO) -> int:
    if args.local:
        rows = [
            (
                g.key,
                g.title,
                g.min_players,
                g.max_players,
                g.summary,
                {**g.option_defaults(), CLOCK_OPTION: dict(CLOCK_DEFAULTS)},
                bot_levels(g.key),
            )
            for g in GAMES.values()
        ]
    else:
        with TableClient(args.address or _env_address()) as client:
            rows = [
                (g.key, g.title, g.min_players, g.max_players, g.summary, g.options, g.bot_levels)
                for g in client.list_games()
            ]
    for key, title, low, high, summary, options, levels in rows:
        players = f"{low}" if low == high else f"{low}-{high}"
        print(f"{key:<12} {title} ({players} players): {summary}", file=out)
        options = dict(options)
        clock = options.pop(CLOCK_OPTION, None)  # the platform's time control, every game's (docs/clock.md)
        if options:
            shown = ", ".join(f"{k}={json.dumps(v)}" for k, v in options.items())
            print(f"{'':<12}   options: {shown}", file=out)
        if levels:
            print(f"{'':<12}   bot levels: {', '.join(levels)}", file=out)
        if isinstance(clock, dict):
            shown = ", ".join(f"{k}={json.dumps(v)}" for k, v in clock.items())
            print(f"{'':<12}   clock: {shown}", file=out)
    return EXIT_OK


# --------------------------------------------------------------------------- history and standings


T = TypeVar("T")


def _collect(fetch: Callable[[int, str], Page[T]], limit: int) -> list[T]:
    """Up to ``limit`` items (0: all) of a paged list, following its page tokens."""
    items: list[T] = []
    token = ""
    while True:
        size = min(limit - len(items), 500) if limit else 500
        page = fetch(size, token)
        items.extend(page.items)
        token = page.next_page_token
        if not token or (limit and len(items) >= limit):
            return items[:limit] if limit else items


def _when(moment: datetime | None) -> str:
    return moment.strftime("%Y-%m-%d %H:%M:%S") if moment is not None else "-"


def _cmd_history(args: argparse.Namespace, out: TextIO) -> int:
    with TableClient(args.address or _env_address()) as client:
        matches = _collect(
            lambda size, token: client.matches(
                args.player, args.game, args.after, args.before, page_size=size, page_token=token
            ),
            args.limit,
        )
    if not matches:
        print("no finished matches", file=out)
        return EXIT_OK
    print(
        f"{'FINISHED (UTC)':<19}  {'GAME':<12}  {'TABLE':<36}  {'HANDS':>5}  RECORD  {'WINNERS':<24}  PLAYERS", file=out
    )
    for m in matches:
        winners = ", ".join(p.name for p in m.winners) or "-"

        # each player: name (total), "won" for a winner, [out]: left the match or was eliminated before its end
        def shown(p: Any, by_team: bool = bool(m.team_totals)) -> str:
            unverified = " (unverified)" if not p.bot and not p.verified else ""  # docs/identity.md
            total = f" ({p.total})" if p.total is not None else ""
            won = " won" if p.won and not by_team else ""  # a team's result is its games won
            return f"{p.name}{unverified}{total}{won}" + (" [out]" if p.left else "")

        seated = sorted(m.players, key=lambda p: p.seat)
        if m.team_totals:  # a game scored by team (GameSpec.teams): each team's partners and games won
            players = "; ".join(
                f"team {team}: "
                + ", ".join(shown(p) for p in seated if p.team == team)
                + f" ({won} game{'' if won == 1 else 's'} won)"
                for team, won in enumerate(m.team_totals)
            )
        else:
            players = ", ".join(shown(p) for p in seated)
        record = "yes" if m.record_available else "no"
        print(
            f"{_when(m.finished_at):<19}  {m.game:<12}  {m.table_id:<36}  {m.hands:>5}  {record:<6}  {winners:<24}  "
            f"{players}",
            file=out,
        )
    return EXIT_OK


def _cmd_standings(args: argparse.Namespace, out: TextIO) -> int:
    with TableClient(args.address or _env_address()) as client:
        rows = _collect(
            lambda size, token: client.standings(args.game, args.player, page_size=size, page_token=token),
            args.limit,
        )
    if not rows:
        print("no standings yet", file=out)
        return EXIT_OK
    header = f"{'GAME':<12}  {'PLAYER':<24}  {'BOT':<10}  {'PLAYED':>6}  {'WON':>6}  {'LAST FINISHED (UTC)':<19}"
    print(f"{header}  PLAYER ID", file=out)
    for r in rows:
        ident = r.player_id if r.verified else "-" if r.bot else "unverified"  # docs/identity.md
        print(
            f"{r.game:<12}  {r.player:<24}  {r.bot or '-':<10}  {r.played:>6}  {r.won:>6}  "
            f"{_when(r.last_finished_at):<19}  {ident}",
            file=out,
        )
    return EXIT_OK


# --------------------------------------------------------------------------- load


def _cmd_load(args: argparse.Namespace, out: TextIO) -> int:
    """Exit 0 when the run met no error, 1 when it met some (the summary lists them) or the server
    cannot be reached, 2 for bad usage, 130 when interrupted (after the summary)."""
    spec = find_game(args.game)
    if not spec.min_players <= args.seats <= spec.max_players:
        raise _Unusable(f"--seats {args.seats}: {args.game} seats {spec.min_players} to {spec.max_players} players")
    options = _options(args, {})
    spec.parse_options(options)  # bad options: exit 2 before any table is created
    plan = LoadPlan(
        address=args.address or _env_address(),
        tables=args.tables,
        duration=args.duration,
        game=args.game,
        seats=args.seats,
        level=_level(args),
        options=options,
        every=args.every,
        watchers=args.watchers,
        channels=args.channels,
        timeout=args.timeout,
        seed=args.seed,
        matches=args.matches,
        rate=args.rate or 0.0,
        set_up_first=args.set_up_first,
        batch=not args.every_view,
    )
    result = run_load(plan, out)
    if result.interrupted:
        _say_error("load", "interrupted")
        return EXIT_INTERRUPTED
    if not result.ok:
        _say_error("load", f"{result.final.error_count} error(s) during the run; the summary lists them by kind")
        return EXIT_FAILED
    return EXIT_OK


# --------------------------------------------------------------------------- parser


def _match_arguments(p: argparse.ArgumentParser, games: list[str]) -> None:
    """The arguments that say which match a command plays (``demo``, ``play``, ``load``): ``--game``,
    ``--bots`` (the computer players' level), ``--target`` and ``--option KEY=VALUE`` (repeated)."""
    p.add_argument("--game", default=DEFAULT_GAME, choices=games)
    p.add_argument("--bots", default="heuristic", help="the bots' level (trapoula games lists them)")
    p.add_argument("--target", type=int, default=None, help=TARGET_HELP)
    p.add_argument("--option", action="append", type=option_arg, metavar="KEY=VALUE", help="a table option (repeat)")


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of the ``trapoula`` command (``serve`` takes the server's own flags)."""
    parser = argparse.ArgumentParser(
        prog="trapoula", description="Card games with verifiable records.", epilog=EXIT_CODES
    )
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    games = sorted(GAMES)

    sub.add_parser(
        "serve",
        help="run the gRPC server: the flags and environment of python -m trapoula.service (trapoula serve --help)",
        add_help=False,
    )

    p = sub.add_parser("demo", help="four bots play a match over gRPC; the record is verified", epilog=EXIT_CODES)
    _match_arguments(p, games)
    p.add_argument("--record", help="where to write the record (default trapoula-<table_id>.jsonl)")
    p.add_argument("--address", help="use this server instead of starting one in this process")
    p.add_argument("--database-url", help="store of the in-process server (env TRAPOULA_DATABASE_URL)")
    p.add_argument("--seats", type=_count_arg, default=4, help="number of bots (default 4)")

    p = sub.add_parser("play", help="play against bots in the terminal", epilog=EXIT_CODES)
    _match_arguments(p, games)
    p.add_argument("--seats", type=_count_arg, default=4, help="number of players: you and the bots (default 4)")
    p.add_argument("--name", default="you", help="your display name")
    p.add_argument("--seed", type=seed_arg, help="64 hex digits: replayable deals (local games only)")
    p.add_argument("--address", help="play at this server (its bots) instead of locally")
    p.add_argument(
        "--record",
        metavar="FILE",
        help="write the match's record to FILE when it ends or you leave (a local match's is unsigned)",
    )

    p = sub.add_parser("replay", help="step through a record", epilog=EXIT_CODES)
    p.add_argument("record")
    p.add_argument("--at", type=int, default=None, help="position to show (0..number of game events)")
    p.add_argument("--seat", default=None, help="a seat number, 'spectator', or 'all' (default)")

    p = sub.add_parser(
        "cut",
        help="cut a record at the end of a hand, keeping its signature (a signed prefix that verifies)",
        epilog=f"exit status: {EXIT_OK} written; {EXIT_FAILED} the record has no signed head at that hand's end; "
        f"{EXIT_USAGE} the file cannot be read or is not a trapoula record.",
    )
    p.add_argument("record")
    p.add_argument("--hands", type=int, required=True, help="keep hands 1 to this one")
    p.add_argument("--out", required=True, help="the file to write")

    p = sub.add_parser(
        "verify",
        help="audit a record offline: signature, hash chain, commitments, rules",
        epilog=f"exit status: {EXIT_OK} record verified; {EXIT_FAILED} discrepancies found (the first is named); "
        f"{EXIT_USAGE} the file cannot be read or is not a trapoula record.",
    )
    p.add_argument("record")
    p.add_argument(
        "--key",
        action="append",
        type=public_key_arg,
        metavar="HEX",
        help="a trusted server key (64 hex digits; repeat for several): the record must carry its signature",
    )
    p.add_argument(
        "--json", action="store_true", help="print the report as JSON for programs (the exit status is the same)"
    )

    p = sub.add_parser(
        "record",
        help="fetch a table's record from a server (a finished match's, whole), write it and verify it",
        epilog=f"exit status: {EXIT_OK} written and verified; {EXIT_FAILED} the server refused (an unknown table) "
        f"or the record does not verify; {EXIT_USAGE} the file cannot be written.",
    )
    p.add_argument("table_id", help="the table (trapoula tables, trapoula history and trapoula play show it)")
    p.add_argument("--out", metavar="FILE", help="where to write it (default trapoula-<table id>.jsonl)")
    p.add_argument("--address", help=ADDRESS_HELP)

    p = sub.add_parser("tables", help="list a server's tables", epilog=EXIT_CODES)
    p.add_argument("--game", default="")
    p.add_argument("--address", help=ADDRESS_HELP)

    p = sub.add_parser("games", help="list the games", epilog=EXIT_CODES)
    p.add_argument("--address", help=ADDRESS_HELP)
    p.add_argument("--local", action="store_true", help="this client's games, without a server")

    p = sub.add_parser("history", help="list a server's finished matches, newest first", epilog=EXIT_CODES)
    p.add_argument("--player", default="", help="only matches of this display name")
    p.add_argument("--game", default="", help="only this game")
    p.add_argument(
        "--after", default="", help="only matches finished at or after: RFC 3339 (2025-05-01T12:00:00Z) or unix seconds"
    )
    p.add_argument("--before", default="", help="only matches finished before this time (same forms)")
    p.add_argument("--limit", type=non_negative_arg, default=20, help="most matches shown (default 20; 0: all)")
    p.add_argument("--address", help=ADDRESS_HELP)

    p = sub.add_parser("standings", help="list players' matches played and won per game", epilog=EXIT_CODES)
    p.add_argument("--game", default="", help="only this game")
    p.add_argument("--player", default="", help="only this display name")
    p.add_argument("--limit", type=non_negative_arg, default=50, help="most rows shown (default 50; 0: all)")
    p.add_argument("--address", help=ADDRESS_HELP)

    p = sub.add_parser(
        "load",
        help="play many bot tables at once against a server; prints throughput, latency and errors",
        epilog=f"exit status: {EXIT_OK} no error; {EXIT_FAILED} errors during the run (listed in the summary) or no "
        f"server; {EXIT_USAGE} bad usage; {EXIT_INTERRUPTED} interrupted (Ctrl-C; the summary is printed).",
    )
    p.add_argument("--address", help="the server (env TRAPOULA_ADDRESS, default 127.0.0.1:50051)")
    p.add_argument("--tables", type=_count_arg, default=200, help="tables kept playing at once (default 200)")
    p.add_argument("--duration", type=seconds_arg, default=60.0, help="seconds to play (default 60)")
    _match_arguments(p, games)
    p.add_argument("--seats", type=_count_arg, default=4, help="client-side bots per table (default 4)")
    p.add_argument("--every", type=seconds_arg, default=5.0, help="seconds between printed lines (default 5)")
    p.add_argument(
        "--watchers", type=non_negative_arg, default=1, help="spectator streams per table (default 1; 0 for none)"
    )
    p.add_argument("--channels", type=_count_arg, default=8, help="connections to the server (default 8)")
    p.add_argument(
        "--timeout",
        type=seconds_arg,
        default=30.0,
        help="seconds a call may take, and a table may go without an event, before it is an error (default 30)",
    )
    p.add_argument("--seed", type=int, default=None, help="makes the bots' choices reproducible")
    p.add_argument(
        "--matches",
        type=non_negative_arg,
        default=0,
        help="end the run once this many matches have ended (default 0: play for the whole duration)",
    )
    p.add_argument(
        "--rate",
        type=rate_arg,
        default=None,
        metavar="MOVES_PER_S",
        help="paced (open loop): this many moves a second in all, spread over the tables at random times, each "
        "sent when due; Act latency counted from the due time (default: closed loop, each move at once)",
    )
    p.add_argument(
        "--set-up-first",
        action="store_true",
        help="set every table up (seats, streams, match started and its start received) before the clock starts "
        "(always so with --rate)",
    )
    p.add_argument(
        "--every-view",
        action="store_true",
        help="streams of one event a message, each with the view after it (default: batched, the events of a save "
        "in one message with the view after the last, as a client acting on the current view watches)",
    )
    return parser


def _run(args: argparse.Namespace, out: TextIO, inp: TextIO) -> int:
    match args.command:
        case "demo":
            return _cmd_demo(args, out)
        case "play":
            return _cmd_play(args, out, inp)
        case "replay":
            return _cmd_replay(args, out, inp)
        case "verify":
            return _cmd_verify(args, out)
        case "cut":
            return _cmd_cut(args, out)
        case "record":
            return _cmd_record(args, out)
        case "tables":
            return _cmd_tables(args, out)
        case "games":
            return _cmd_games(args, out)
        case "history":
            return _cmd_history(args, out)
        case "standings":
            return _cmd_standings(args, out)
        case "load":
            return _cmd_load(args, out)
    raise _Unusable(f"unknown command {args.command!r}")  # pragma: no cover - argparse refuses it first


def main(argv: Sequence[str] | None = None, *, out: TextIO | None = None, inp: TextIO | None = None) -> int:
    """Run the ``trapoula`` command; returns the exit status (:data:`EXIT_CODES`).

    An expected failure (a file that cannot be used, a refusal or an unreachable server, a bad
    argument) is printed as one line on standard error.  Bad flags make argparse exit with
    status 2 (``SystemExit``).  ``serve`` returns the server's own status.  ``out`` and ``inp``
    default to standard output and input (tests pass their own).
    """
    arguments = list(sys.argv[1:] if argv is None else argv)
    if arguments[:1] == ["serve"]:  # every flag belongs to the server's own parser
        return _cmd_serve(arguments[1:])
    args = build_parser().parse_args(arguments)
    out = out or sys.stdout
    inp = inp or sys.stdin
    command = str(args.command)
    try:
        return _run(args, out, inp)
    except KeyboardInterrupt:
        _say_error(command, "interrupted")
        return EXIT_INTERRUPTED
    except (TrapoulaError, ServerNotStarted) as exc:
        _say_error(command, str(exc))
        return EXIT_FAILED
    except _Unusable as exc:
        _say_error(command, str(exc))
        return EXIT_USAGE
    except InvalidInput as exc:
        _say_error(command, exc.message)
        return EXIT_USAGE
    except BrokenPipeError:  # the reader went away (``trapoula replay R | head``)
        with contextlib.suppress(OSError):
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return EXIT_FAILED
    except OSError as exc:
        _say_error(command, _os_message(exc))
        return EXIT_USAGE


if __name__ == "__main__":
    sys.exit(main())
