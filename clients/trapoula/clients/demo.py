"""``trapoula demo``: four bots play a whole match over gRPC, then the record is verified.

Each bot is a client of its own: its own channel, its own seat token, its own watch stream.  It
sees only its seat's view and acts with :func:`trapoula.domain.bots.choose` when the view offers
it a legal command.  A spectator client prints each hand's result; when the match is over the
record is fetched, written to a file and audited offline (:mod:`trapoula.clients.audit`).

Without ``address`` the demo starts a server in this process (on ``127.0.0.1:0``, with the
default SQLite store in the current folder) and stops it afterwards.  The service package is
imported only then, so the client stays thin.
"""

from __future__ import annotations

import asyncio
import contextlib
import importlib
import random
import threading
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TextIO

from trapoula.clients.audit import AuditReport, audit_text
from trapoula.clients.errors import CommandRejected, Conflict, TrapoulaError
from trapoula.clients.table import TableClient, Watch
from trapoula.clients.text import describe_event
from trapoula.domain.bots import choose

__all__ = ["DemoResult", "local_server", "run_demo"]

DEFAULT_DATABASE_URL = "sqlite:///trapoula.sqlite3"
"""The demo's store when it starts its own server: a SQLite file in the current folder."""
BOT_NAMES = ("Anna", "Babis", "Chrysa", "Dimos")
MATCH_TIMEOUT = 900.0
"""Seconds the demo waits for the match to end (a bound, not a rule)."""


@dataclass(frozen=True, slots=True)
class DemoResult:
    """What the demo did."""

    table_id: str
    record_path: Path
    report: AuditReport


@contextlib.contextmanager
def local_server(database_url: str = DEFAULT_DATABASE_URL, address: str = "127.0.0.1:0") -> Iterator[str]:
    """Run a trapoula server in a background thread; yields its ``host:port``; stops it on exit.

    Raises:
        RuntimeError: the server did not start (the message says why).
    """
    server_module = importlib.import_module("trapoula.service.server")  # the server, only when asked
    settings_module = importlib.import_module("trapoula.service.settings")
    settings = settings_module.Settings(address=address, database_url=database_url)
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

    thread = threading.Thread(target=target, name="trapoula-demo-server", daemon=True)
    thread.start()
    ready.wait(timeout=60)
    if not bound:
        reason = f": {failure[0]}" if failure else ""
        raise RuntimeError(f"the in-process trapoula server did not start{reason}")
    try:
        yield bound[0]
    finally:
        if loop_box and stop_box:
            loop_box[0].call_soon_threadsafe(stop_box[0].set)
        thread.join(timeout=30)


class _Bot:
    """One client-side bot: watch the table, act when its view offers a legal command."""

    def __init__(
        self, target: str, table_id: str, seat: int, name: str, game: str, level: str, rng: random.Random
    ) -> None:
        self.target, self.table_id, self.seat, self.name = target, table_id, seat, name
        self.game, self.level, self.rng = game, level, rng
        self.seated = threading.Event()
        self.started = threading.Event()
        self.done = threading.Event()
        self.error: BaseException | None = None
        self._watch: Watch | None = None
        self._last = 0

    def stop(self) -> None:
        self.done.set()
        if self._watch is not None:
            self._watch.cancel()

    def _act(self, client: TableClient, view: dict[str, Any]) -> None:
        """Act while the view offers a command; a stale view is refused, and the stream goes on."""
        while view.get("legal") and not self.done.is_set():
            command = choose(self.game, view, self.level, self.rng)
            try:
                result = client.act(self.table_id, command)
            except (CommandRejected, Conflict):
                return  # the table moved on since this view: newer events are on the stream
            self._last = max(self._last, result.version)
            if any(e.name == "MatchEnded" for e in result.events):
                self.done.set()
            view = result.view

    def run(self) -> None:
        try:
            with TableClient(self.target) as client:
                client.join(self.table_id, self.name, seat=self.seat)  # adopts the seat token
                self.seated.set()
                self.started.wait()
                if self.done.is_set():
                    return
                now = client.view(self.table_id)
                self._last = now.version
                self._act(client, now.view)
                with client.watch(self.table_id, now.version) as watch:
                    self._watch = watch
                    if self.done.is_set():
                        return
                    for update in watch:
                        if update.name == "MatchEnded" or self.done.is_set():
                            break
                        if update.version > self._last and update.view.get("legal"):
                            self._act(client, update.view)
        except BaseException as exc:  # reported by run_demo
            self.error = exc
        finally:
            self.seated.set()
            self.done.set()


def _play(
    target: str,
    game: str,
    options: dict[str, Any],
    levels: Sequence[str],
    seed: int | None,
    say: Callable[[str], None],
) -> str:
    """Create the table, seat and run the bots, follow the match as a spectator; the table id."""
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

    def stop_all() -> None:
        for b in bots:
            b.stop()

    timer = threading.Timer(MATCH_TIMEOUT, stop_all)
    timer.daemon = True
    timer.start()
    seen_end = threading.Event()
    try:
        for b in bots:
            b.seated.wait(timeout=60)
        with TableClient(target, table.owner_token) as spectator, spectator.watch(table.table_id) as watch:
            if all(b.error is None for b in bots):
                spectator.start_match(table.table_id)
            for b in bots:
                b.started.set()

            def cancel_when_bots_stop() -> None:
                for b in bots:
                    b.done.wait()
                if all(b.error is None for b in bots):
                    seen_end.wait(timeout=30)  # the spectator's stream is a little behind
                watch.cancel()

            threading.Thread(target=cancel_when_bots_stop, daemon=True).start()
            for update in watch:
                if update.name == "HandStarted":
                    say(f"hand {update.payload.get('hand_no')}:")
                elif update.name in ("HandEnded", "MatchEnded"):
                    line = describe_event(update.name, update.payload, names)
                    if line:
                        say(f"  {line}")
                    if update.name == "MatchEnded":
                        seen_end.set()
                        break
    finally:
        timer.cancel()
        stop_all()
        for t in threads:
            t.join(timeout=30)
    errors = [b.error for b in bots if b.error is not None]
    if errors:
        raise errors[0]
    if not seen_end.is_set():
        raise TrapoulaError("the match did not end")
    return table.table_id


def run_demo(
    address: str | None = None,
    *,
    game: str = "agonia",
    target: int | None = None,
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
        target: the match's ``target_points`` (None: the game's default).
        record_path: where to write the record (default ``trapoula-<table_id>.jsonl`` in the
            current folder).
        levels: one bot level per seat.
        seed: makes the bots' choices reproducible (the deals stay the server's).
        out: where to print (default: standard output).

    Returns:
        The table id, the record's path and the audit report.

    Raises:
        TrapoulaError: the server refused a step.  RuntimeError: the local server did not start.
    """

    def say(line: str) -> None:
        print(line, file=out, flush=True)

    options: dict[str, Any] = {} if target is None else {"target_points": target}
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
    order = sorted(range(len(totals)), key=lambda s: (totals[s], s))
    for place, seat in enumerate(order, start=1):
        name = report.names[seat] if seat < len(report.names) else f"seat {seat}"
        mark = "  (winner)" if report.winner == seat else ""
        say(f"  {place}. {name} {totals[seat]}{mark}")
    say(f"record written to {path}")
    if report.ok:
        say(f"record verified: {report.hands} hand(s), {report.events} events, hash chain intact")
    else:
        say(f"record NOT verified: {report.first}")
    return DemoResult(table_id, path, report)
