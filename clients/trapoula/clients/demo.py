"""``trapoula demo``: four bots play a whole match over gRPC, then the record is verified.

Each bot is a client of its own: its own channel, its own seat token, its own watch stream.  It
sees only its seat's view and acts with :func:`trapoula.domain.bots.choose` when the view offers
it a legal command.  A spectator client prints each hand's result (:func:`_worth_printing`); when
the match is over the record is fetched, written to a file and audited offline (:mod:`trapoula.clients.audit`).

Without ``address`` the demo starts a server in this process (on ``127.0.0.1:0``, with the
default SQLite store in the current folder, and the other settings from the ``TRAPOULA_*``
environment as ``python -m trapoula.service`` reads them) and stops it afterwards.  The service
package is imported only then, so the client stays thin.

Every stream the demo opens is cancelled when it ends, however it ends.  A supervisor stops the
whole demo (every bot, every stream) as soon as one bot fails, when no event arrives for
:data:`IDLE_TIMEOUT` seconds, or after :data:`MATCH_TIMEOUT` seconds; :func:`run_demo` then
raises a :class:`~trapoula.clients.errors.TrapoulaError` saying which.
"""

from __future__ import annotations

import asyncio
import contextlib
import importlib
import random
import threading
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TextIO

from trapoula.clients.audit import AuditReport, audit_text
from trapoula.clients.errors import CommandRejected, Conflict, InvalidArgument, TrapoulaError
from trapoula.clients.table import TableClient, Watch, my_move
from trapoula.clients.text import describe_event
from trapoula.domain.bots import choose
from trapoula.domain.bots import levels as bot_levels
from trapoula.domain.errors import InvalidInput
from trapoula.domain.game import GameSpec
from trapoula.domain.lifecycle import Role
from trapoula.domain.registry import DEFAULT_GAME, find_game

__all__ = ["DemoResult", "ServerNotStarted", "local_server", "run_demo"]

DEFAULT_DATABASE_URL = "sqlite:///trapoula.sqlite3"
"""The demo's store when it starts its own server: a SQLite file in the current folder."""
BOT_NAMES = ("Anna", "Babis", "Chrysa", "Dimos")
MATCH_TIMEOUT = 900.0
"""Seconds the demo waits for the match to end (a bound, not a rule)."""
IDLE_TIMEOUT = 120.0
"""Seconds without any event on the table before the demo gives up (a stalled match)."""
SEAT_TIMEOUT = 60.0
"""Seconds the bots may take to sit down."""
JOIN_TIMEOUT = 30.0
"""Seconds, in all, to wait for the bots' threads to end once they are told to stop."""
POLL = 0.25
"""How often (seconds) the supervisor looks at the bots."""


def _worth_printing(spec: GameSpec[Any, Any], name: str) -> bool:
    """True for an event the spectator prints: each hand's result (role ``hand_scored``: a hand
    scored or annulled), the match's end (role ``match_ended``), and an event of no role between
    hands (``Event.between_hands``: a game of a rubber won); not a seat change, which has a role."""
    role = spec.role_of(name)
    if role in (Role.HAND_SCORED, Role.MATCH_ENDED):
        return True
    event = spec.event_types.get(name)
    return role is None and event is not None and event.between_hands


def _match_ended(spec: GameSpec[Any, Any], name: str) -> bool:
    """True for the game's event that ends the match (role ``match_ended``)."""
    return spec.role_of(name) is Role.MATCH_ENDED


class ServerNotStarted(RuntimeError):
    """The in-process server did not start (bad settings, an unusable store, a busy address)."""


@dataclass(frozen=True, slots=True)
class DemoResult:
    """What the demo did."""

    table_id: str
    record_path: Path
    report: AuditReport


@contextlib.contextmanager
def local_server(database_url: str = DEFAULT_DATABASE_URL, address: str = "127.0.0.1:0") -> Iterator[str]:
    """Run a trapoula server in a background thread; yields its ``host:port``; stops it on exit.

    The settings other than ``address`` and ``database_url`` come from the environment, as
    ``python -m trapoula.service`` reads them (``TRAPOULA_SECRET``, ``TRAPOULA_DATABASE_SCHEMA``).

    Raises:
        ServerNotStarted: the server did not start (the message says why).
    """
    try:
        server_module = importlib.import_module("trapoula.service.server")  # the server, only when asked
        settings_module = importlib.import_module("trapoula.service.settings")
    except ImportError as exc:
        raise ServerNotStarted(f"the trapoula server is not installed here ({exc}); install trapoula[server]") from None
    try:
        base = settings_module.Settings.from_env()
    except ValueError as exc:
        raise ServerNotStarted(f"bad server settings: {exc}") from None
    # a one-shot in-process server serves no metrics (its port would clash with a real server's)
    settings = base.model_copy(update={"address": address, "database_url": database_url, "metrics_address": None})
    ready = threading.Event()
    bound: list[str] = []
    failure: list[BaseException] = []
    loop_box: list[asyncio.AbstractEventLoop] = []
    stop_box: list[asyncio.Event] = []

    async def main() -> None:
        stop = asyncio.Event()
        stop_box.append(stop)
        loop_box.append(asyncio.get_running_loop())

        def on_ready(where: str) -> None:
            bound.append(where)
            ready.set()

        await server_module.serve(settings, ready=on_ready, stop=stop)

    def target() -> None:
        try:
            asyncio.run(main())
        except BaseException as exc:  # reported to the caller below
            failure.append(exc)
        finally:
            ready.set()

    def stop_server() -> None:
        if loop_box and stop_box:
            with contextlib.suppress(RuntimeError):  # the loop has already ended
                loop_box[0].call_soon_threadsafe(stop_box[0].set)
        thread.join(timeout=30)

    thread = threading.Thread(target=target, name="trapoula-demo-server", daemon=True)
    thread.start()
    ready.wait(timeout=60)
    if not bound:
        stop_server()
        reason = f": {' '.join(str(failure[0]).split())}" if failure else " within 60 s"
        raise ServerNotStarted(f"the in-process trapoula server did not start{reason}")
    try:
        yield bound[0]
    finally:
        stop_server()


class _Bot:
    """One client-side bot: watch the table, act when its view offers a legal command."""

    def __init__(
        self, target: str, table_id: str, seat: int, name: str, game: str, level: str, rng: random.Random
    ) -> None:
        self.target, self.table_id, self.seat, self.name = target, table_id, seat, name
        self.game, self.level, self.rng = game, level, rng
        self.spec: GameSpec[Any, Any] = find_game(game)
        self.seated = threading.Event()
        self.started = threading.Event()
        self.done = threading.Event()
        self.error: BaseException | None = None
        self._watch: Watch | None = None
        self._lock = threading.Lock()
        self._last = 0

    def stop(self) -> None:
        """Make the bot leave: it stops acting and its stream is cancelled (from any thread)."""
        self.done.set()
        self.started.set()  # a bot still waiting for the start leaves at once
        with self._lock:
            watch = self._watch
        if watch is not None:
            watch.cancel()

    def _act(self, client: TableClient, view: dict[str, Any], version: int) -> None:
        """Act while the view (at table ``version``) offers a command.

        A refusal means the view was stale: a fresh one is fetched and the bot goes on from it.
        A refusal on a view that was current is a fault, raised as such (never a silent stall).
        """
        while my_move(view) and not self.done.is_set():
            command = choose(self.game, view, self.level, self.rng)
            try:
                result = client.act(self.table_id, command)
            except (CommandRejected, Conflict) as exc:
                fresh = client.view(self.table_id)
                if fresh.version <= version:
                    raise TrapoulaError(
                        f"{self.name} (seat {self.seat}) was refused {command} on the current view: {exc}"
                    ) from None
                self._last = max(self._last, fresh.version)
                view, version = fresh.view, fresh.version
                continue
            self._last = max(self._last, result.version)
            if any(_match_ended(self.spec, e.name) for e in result.events):
                self.done.set()
            view, version = result.view, result.version

    def run(self) -> None:
        """The bot's thread: sit down, wait for the start, then follow the table and act."""
        try:
            with TableClient(self.target) as client:
                client.join(self.table_id, self.name, seat=self.seat)  # adopts the seat token
                self.seated.set()
                self.started.wait()
                if self.done.is_set():
                    return
                now = client.view(self.table_id)
                self._last = now.version
                self._act(client, now.view, now.version)
                with client.watch(self.table_id, now.version) as watch:
                    with self._lock:
                        self._watch = watch
                    if self.done.is_set():
                        return
                    for update in watch:
                        if _match_ended(self.spec, update.name) or self.done.is_set():
                            break
                        if update.version > self._last and my_move(update.view):
                            self._act(client, update.view, update.version)
        except BaseException as exc:  # reported by run_demo
            self.error = exc
        finally:
            self.seated.set()
            self.done.set()


def _bot_failure(bot: _Bot) -> TrapoulaError:
    """The error a failed bot stops the demo with."""
    error = bot.error
    if isinstance(error, TrapoulaError):
        return error
    return TrapoulaError(f"bot {bot.name} (seat {bot.seat}) failed: {type(error).__name__}: {error}")


def _play(
    target: str,
    game: str,
    options: dict[str, Any],
    levels: Sequence[str],
    seed: int | None,
    say: Callable[[str], None],
) -> str:
    """Create the table, seat and run the bots, follow the match as a spectator; the table id.

    Raises:
        TrapoulaError: the server refused a step, a bot failed, or the match stalled or timed out.
    """
    spec = find_game(game)
    with TableClient(target) as owner:
        owner.wait_ready()
        table = owner.create_table(game, len(levels), options)
    say(f"table {table.table_id} ({game}, {len(levels)} seats, options {options or 'default'})")
    names = [BOT_NAMES[i % len(BOT_NAMES)] for i in range(len(levels))]
    bots = [
        _Bot(target, table.table_id, i, names[i], game, level, random.Random(None if seed is None else seed * 100 + i))
        for i, level in enumerate(levels)
    ]
    threads = [threading.Thread(target=b.run, name=f"trapoula-bot-{i}", daemon=True) for i, b in enumerate(bots)]
    for t in threads:
        t.start()
    seen_end = threading.Event()
    finished = threading.Event()
    last_event = [time.monotonic()]
    verdict: list[str] = []

    def stop_all() -> None:
        for b in bots:
            b.stop()

    def supervise(watch: Watch) -> None:
        """Stop everything when a bot fails, the match stalls or takes too long, or the bots are done."""
        began = time.monotonic()
        while not finished.wait(POLL):
            now = time.monotonic()
            if any(b.error is not None for b in bots):
                break
            if all(b.done.is_set() for b in bots):
                seen_end.wait(timeout=30)  # the spectator's stream is a little behind the bots
                break
            if now - last_event[0] > IDLE_TIMEOUT:
                verdict.append(f"the match stalled: no event for {IDLE_TIMEOUT:.0f} s")
                break
            if now - began > MATCH_TIMEOUT:
                verdict.append(f"the match did not end within {MATCH_TIMEOUT:.0f} s")
                break
        stop_all()
        watch.cancel()

    try:
        deadline = time.monotonic() + SEAT_TIMEOUT
        for b in bots:
            b.seated.wait(timeout=max(0.0, deadline - time.monotonic()))
        failed = next((b for b in bots if b.error is not None), None)
        if failed is not None:
            raise _bot_failure(failed)
        if not all(b.seated.is_set() for b in bots):
            raise TrapoulaError(f"the bots did not sit down within {SEAT_TIMEOUT:.0f} s")
        with TableClient(target, table.owner_token) as spectator, spectator.watch(table.table_id) as watch:
            spectator.start_match(table.table_id)
            for b in bots:
                b.started.set()
            supervisor = threading.Thread(target=supervise, args=(watch,), name="trapoula-demo-supervisor", daemon=True)
            supervisor.start()
            try:
                for update in watch:
                    last_event[0] = time.monotonic()
                    if spec.role_of(update.name) is Role.HAND_STARTED:  # its fact's hand_no
                        say(f"hand {update.payload.get('hand_no')}:")
                    elif _worth_printing(spec, update.name):
                        line = describe_event(game, update.name, update.payload, names)
                        if line:
                            say(f"  {line}")
                        if _match_ended(spec, update.name):
                            seen_end.set()
                            break
            finally:
                finished.set()
                supervisor.join(timeout=JOIN_TIMEOUT)
    finally:
        stop_all()
        deadline = time.monotonic() + JOIN_TIMEOUT
        for t in threads:
            t.join(timeout=max(0.0, deadline - time.monotonic()))
    failed = next((b for b in bots if b.error is not None), None)
    if failed is not None:
        raise _bot_failure(failed)
    if verdict:
        raise TrapoulaError(verdict[0])
    if not seen_end.is_set():
        ended = next((name for name in spec.event_types if _match_ended(spec, name)), "the match's end")
        raise TrapoulaError(f"the match did not end: the table's stream stopped before {ended}")
    return table.table_id


def _check_writable(path: Path) -> None:
    """Fail before playing when the record could not be written to ``path``.

    Raises:
        FileNotFoundError: its folder does not exist.  IsADirectoryError: it is a folder.
    """
    folder = path.parent if str(path.parent) else Path(".")
    if not folder.is_dir():
        raise FileNotFoundError(2, "no such folder for the record", str(folder))
    if path.is_dir():
        raise IsADirectoryError(21, "the record path is a folder", str(path))


def run_demo(
    address: str | None = None,
    *,
    game: str = DEFAULT_GAME,
    options: Mapping[str, Any] | None = None,
    record_path: str | Path | None = None,
    levels: Sequence[str] = ("heuristic", "heuristic", "heuristic", "heuristic"),
    database_url: str = DEFAULT_DATABASE_URL,
    seed: int | None = None,
    out: TextIO | None = None,
) -> DemoResult:
    """Play a whole match between client-side bots over gRPC and verify its record.

    Args:
        address: ``host:port`` of a running server; None starts one in this process with
            ``database_url``.
        game: the game key.
        options: the table's options (each game's rules, section 7); None: the defaults.
        record_path: where to write the record (default ``trapoula-<table_id>.jsonl`` in the
            current folder).
        levels: one bot level per seat.
        seed: makes the bots' choices reproducible (the deals stay the server's).
        out: where to print (default: standard output).

    Returns:
        The table id, the record's path and the audit report.

    Raises:
        InvalidArgument: no seat, or an unknown bot level.
        FileNotFoundError: the folder of ``record_path`` does not exist (checked before playing).
        IsADirectoryError: ``record_path`` is a folder.
        TrapoulaError: the server refused a step or could not be reached, a bot failed, or the
            match stalled or timed out.
        ServerNotStarted: the local server did not start.
    """

    def say(line: str) -> None:
        print(line, file=out, flush=True)

    if not levels:
        raise InvalidArgument("the demo needs at least one bot")
    try:
        known = bot_levels(game)
    except InvalidInput as exc:
        raise InvalidArgument(exc.message) from None
    unknown = sorted({level for level in levels if level not in known})
    if unknown:
        raise InvalidArgument(f"unknown bot level(s) {unknown} for {game}; known: {', '.join(known)}")
    if record_path is not None:
        _check_writable(Path(record_path))
    options = dict(options or {})
    with contextlib.ExitStack() as stack:
        where = address if address is not None else stack.enter_context(local_server(database_url))
        if address is None:
            say(f"trapoula server started on {where} (store {database_url})")
        table_id = _play(where, game, options, levels, seed, say)
        with TableClient(where) as client:
            jsonl = client.record(table_id)
    report = audit_text(jsonl)
    path = Path(record_path) if record_path is not None else Path(f"trapoula-{table_id}.jsonl")
    path.write_text(jsonl, encoding="utf-8")
    say("final standings:")
    totals = report.totals or ()
    spec = find_game(game)
    higher = spec.higher_totals_win
    ranked = {s: t for s, t in enumerate(totals) if t is not None}  # a seat that left has none
    order = sorted(ranked, key=lambda s: (s != report.winner, -ranked[s] if higher else ranked[s], s))
    for place, seat in enumerate(order, start=1):
        if spec.teams:  # totals and winner count per team (GameSpec.teams)
            name = report.standing_name(seat)
        else:
            name = report.names[seat] if seat < len(report.names) else f"seat {seat}"
        mark = "  (winner)" if report.winner == seat else ""
        say(f"  {place}. {name} {ranked[seat]}{mark}")
    say(f"record written to {path}")
    if report.signer is not None:
        say(f"record signed by the server's key (ed25519 {report.signer}; trapoula verify --key checks it)")
    if report.ok:
        say(f"record verified: {report.hands} hand(s), {report.events} events, hash chain intact")
    else:
        say(f"record NOT verified: {report.first}")
    return DemoResult(table_id, path, report)
