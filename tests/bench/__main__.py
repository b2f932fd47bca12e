"""``python -m bench [--quick] [--json PATH]``: measure every figure of docs/benchmarks.md in one
run and print them side by side (``make bench``).

The run goes through its steps in order, a progress bar on standard error showing where it is:
the pure domain (and open_spiel), replay of a record, the gRPC rows (SQLite, then PostgreSQL,
each table count beside the echo and the store append measured just before it), fan-out, memory.
Then the report goes to standard output; ``--json PATH`` writes every figure there too.

A part that cannot run on this machine (no PostgreSQL, no open_spiel) prints why in place of its
figures and the run goes on.  Exit status: 0 when every other figure was measured, 1 when a step
failed (its figures say why), 2 for bad usage.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import platform
import sys
import tempfile
import time
import traceback
from collections.abc import Iterator, Sequence
from dataclasses import asdict, dataclass
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.progress import BarColumn, Progress, TaskID, TextColumn, TimeElapsedColumn
from rich.table import Table

from trapoula.domain.registry import GAMES

from . import calls, domain, store
from .figures import (
    ACT_FIELDS,
    ECHO_FIELDS,
    FANOUT_KEYS,
    MEMORY_KEYS,
    OPENSPIEL_KEYS,
    RATIO_FIELDS,
    REPLAY_KEYS,
    SKIPPED,
    STORES,
    Results,
    Value,
    Window,
    domain_keys,
    expected_keys,
    may_skip,
    ratio,
)
from .servers import ServerProcess, postgres_schema, postgres_url, serve_echo


@dataclass(frozen=True, slots=True)
class Plan:
    """How long and how big each measurement is."""

    domain_seconds: float
    """Random play per game in the pure domain (s), and open_spiel's playouts."""
    record_target: int
    """``target_points`` of the replayed agonia match (longer matches, longer records)."""
    replay_seconds: float
    """Each replay measure is repeated for this long (s)."""
    levels: tuple[int, ...]
    """Tables at once in the gRPC rows."""
    warmup: float
    """Unmeasured seconds at the start of each gRPC run."""
    window: float
    """Measured seconds of each ``Act`` run."""
    baseline_window: float
    """Measured seconds of each echo and store-append run."""
    watchers: int
    """Spectator streams in the fan-out."""
    rounds: int
    """Events fanned out (one ``Act`` each)."""
    memory_tables: int
    """Tables opened in each memory pass."""


FULL = Plan(3.0, 1000, 1.5, (1, 10, 100), 2.0, 8.0, 4.0, 1000, 5, 100)
"""``make bench``: about 4 minutes on 2 cores."""
QUICK = Plan(0.1, 100, 0.05, (1, 3), 0.1, 0.3, 0.2, 20, 1, 3)
"""``--quick``: a smoke run of every step, its figures too short to read anything from."""


class Bench:
    """One run: its plan, scratch space for its stores and logs, the progress bar it advances, the
    figures so far."""

    def __init__(self, plan: Plan, scratch: Path, progress: Progress) -> None:
        self.plan = plan
        self.results = Results()
        self.scratch = scratch
        self.progress = progress
        self.steps = len(GAMES) + 2 + len(plan.levels) * (1 + 2 * len(STORES)) + 2
        self.task: TaskID = progress.add_task("starting", total=self.steps)
        self.failed = False
        self.timings: dict[str, float] = {}
        """Seconds each step took, by its description."""

    # ------------------------------------------------------------------ steps

    def step_domain(self, game: str) -> None:
        """Random bot hands per second of ``game`` in the pure domain."""
        played = domain.play_random(game, self.plan.domain_seconds)
        self.results.put(f"domain.{game}.hands_per_s", played.hands_per_s)
        self.results.put(f"domain.{game}.commands_per_s", played.commands_per_s)

    def step_openspiel(self) -> None:
        """open_spiel's crazy_eights random playouts, beside trapoula's crazy_eights."""
        installed, reason = domain.openspiel_version()
        if installed is None:
            self.results.skip(OPENSPIEL_KEYS, reason)
            self.results.notes.append(reason)
            return
        self.results.machine["open_spiel"] = installed
        played = domain.play_openspiel(self.plan.domain_seconds)
        r = self.results
        r.put("openspiel.crazy_eights.playouts_per_s", played.hands_per_s)
        r.put("openspiel.crazy_eights.actions_per_s", played.commands_per_s)
        self._ratio("openspiel.ratio.hands_vs_playouts", "domain.crazy_eights.hands_per_s", played.hands_per_s)
        self._ratio("openspiel.ratio.commands_vs_actions", "domain.crazy_eights.commands_per_s", played.commands_per_s)

    def _ratio(self, key: str, numerator: str, denominator: float | None) -> None:
        value = ratio(self.results.number(numerator), denominator)
        if value is None:
            self.results.skip([key], f"{numerator} was not measured")
        else:
            self.results.put(key, value)

    def step_replay(self) -> None:
        """Replay, audit and cold load of a stored record."""
        url = f"sqlite:///{self.scratch / 'replay.sqlite3'}"
        figures = store.replay_figures(url, self.plan.record_target, self.plan.replay_seconds)
        r = self.results
        r.put("replay.events", figures.events)
        r.put("replay.fold_events_per_s", figures.fold_per_s)
        r.put("replay.audit_events_per_s", figures.audit_per_s)
        r.put("replay.cold_load_events_per_s", figures.cold_load_per_s)

    def echo(self, address: str, n: int) -> None:
        """The bare echo at ``n`` callers."""
        window = asyncio.run(calls.echo_run(address, n, self.plan.warmup, self.plan.baseline_window))
        self._window(f"grpc.echo.{n}", window, "echo")

    def act(self, kind: str, server: ServerProcess, n: int) -> None:
        """``Act`` at ``n`` tables at once on ``server``, and the server's CPU in the window."""
        window, cpu = asyncio.run(
            calls.act_run(server.address, n, self.plan.warmup, self.plan.window, server.cpu_seconds)
        )
        prefix = f"grpc.{kind}.{n}.act"
        self._window(prefix, window, f"Act on {kind} at {n} tables")
        self.results.put(f"{prefix}.errors", window.errors)
        if cpu is None:
            self.results.skip([f"{prefix}.server_cores", f"{prefix}.server_cpu_ms"], "no /proc to read it from")
        else:
            self.results.put(f"{prefix}.server_cores", cpu / window.seconds)
            if window.calls:
                self.results.put(f"{prefix}.server_cpu_ms", cpu * 1000.0 / window.calls)

    def append(self, kind: str, url: str, schema: str | None, n: int) -> None:
        """The bare store append at ``n`` callers, then the row's ratios."""
        window = store.append_run(url, schema, n, self.plan.warmup, self.plan.baseline_window)
        self._window(f"grpc.{kind}.{n}.append", window, f"store append on {kind} at {n} callers")
        self._row_ratios(kind, n)

    def _window(self, prefix: str, window: Window, what: str) -> None:
        r = self.results
        if window.calls == 0:
            reason = f"no call completed ({window.first_error or 'no error'})"
            r.skip([f"{prefix}.per_s", f"{prefix}.p50_ms", f"{prefix}.p99_ms"], reason)
            r.notes.append(f"{what}: {reason}")
            self.failed = True
        else:
            r.put(f"{prefix}.per_s", window.per_s)
            r.put(f"{prefix}.p50_ms", window.p50_ms)
            r.put(f"{prefix}.p99_ms", window.p99_ms)
        if window.errors:
            r.notes.append(f"{what}: {window.errors} failed call(s), the first: {window.first_error}")

    def _row_ratios(self, kind: str, n: int) -> None:
        row, echo = f"grpc.{kind}.{n}", f"grpc.echo.{n}"
        get = self.results.number
        pairs = {
            "ratio.p50_vs_echo": (get(f"{row}.act.p50_ms"), get(f"{echo}.p50_ms")),
            "ratio.p99_vs_echo": (get(f"{row}.act.p99_ms"), get(f"{echo}.p99_ms")),
            "ratio.p50_vs_append": (get(f"{row}.act.p50_ms"), get(f"{row}.append.p50_ms")),
            "ratio.p99_vs_append": (get(f"{row}.act.p99_ms"), get(f"{row}.append.p99_ms")),
            "ratio.echo_rate_vs_act": (get(f"{echo}.per_s"), get(f"{row}.act.per_s")),
            "ratio.append_rate_vs_act": (get(f"{row}.append.per_s"), get(f"{row}.act.per_s")),
        }
        for field, (a, b) in pairs.items():
            value = ratio(a, b)
            if value is None:
                self.results.skip([f"{row}.{field}"], "a figure of the row is missing")
            else:
                self.results.put(f"{row}.{field}", value)

    def step_fanout(self, address: str) -> None:
        """One event to many spectator streams of one table of the server at ``address``."""
        result = asyncio.run(calls.fanout_run(address, self.plan.watchers, self.plan.rounds))
        r = self.results
        r.put("fanout.watchers", result.watchers)
        r.put("fanout.p50_ms", result.delays.p50_ms)
        r.put("fanout.p99_ms", result.delays.p99_ms)
        r.put("fanout.max_ms", result.delays.max_ms)
        r.put("fanout.act_ms", result.act_ms)

    def step_memory(self) -> None:
        """Memory per open table."""
        url = f"sqlite:///{self.scratch / 'memory.sqlite3'}"
        figures = store.memory_in_child(url, self.plan.memory_tables)
        r = self.results
        r.put("memory.tables", figures.tables)
        r.put("memory.traced_bytes_per_table", figures.traced_bytes)
        r.put("memory.rss_bytes_per_table", figures.rss_bytes)

    # ------------------------------------------------------------------ the run

    def fail(self, keys: Sequence[str], exc: BaseException) -> None:
        """A step failed: its figures say why, and the run's exit status will be 1."""
        lines = str(exc).strip().splitlines()
        reason = f"failed: {type(exc).__name__}: {lines[0][:200] if lines else ''}"
        for key in keys:
            if key not in self.results.values:
                self.results.values[key] = reason
        self.results.notes.append(reason + "\n" + "".join(traceback.format_exception(exc)[-3:]).rstrip())
        self.failed = True

    def run(self) -> Results:
        """Every step in order, advancing the progress bar."""
        for game in sorted(GAMES):
            with self.step(f"pure domain: {game}", domain_keys([game])[:2]):
                self.step_domain(game)
        with self.step("open_spiel crazy_eights", OPENSPIEL_KEYS):
            self.step_openspiel()
        with self.step("replay of a stored record", REPLAY_KEYS):
            self.step_replay()
        self.grpc_rows()
        with self.step("memory per open table", MEMORY_KEYS):
            self.step_memory()
        self.progress.update(self.task, description="done")
        return self.results

    @contextlib.contextmanager
    def step(self, description: str, keys: Sequence[str]) -> Iterator[None]:
        """One step: shown in the progress bar, timed; an error fails ``keys`` and the run goes on."""
        self.progress.update(self.task, description=description)
        if not self.progress.console.is_terminal:  # no live bar: one line a step
            done = int(self.progress.tasks[0].completed)
            self.progress.console.print(f"bench [{done + 1}/{self.steps}] {description}", highlight=False)
        started = time.perf_counter()
        try:
            yield
        except Exception as exc:
            self.fail(keys, exc)
        self.timings[description] = round(time.perf_counter() - started, 2)
        self.progress.advance(self.task)

    def skip_steps(self, count: int) -> None:
        """Advance the progress bar over ``count`` steps that cannot run."""
        self.progress.advance(self.task, count)

    def grpc_rows(self) -> None:
        """The gRPC rows and the fan-out.  The servers start together (the echo, one on a SQLite file,
        one on a fresh PostgreSQL schema); then the SQLite rows, each table count after the echo at
        that concurrency and before the store append, then the fan-out on the SQLite server, then
        the PostgreSQL rows."""
        levels = self.plan.levels
        echo_keys = [f"grpc.echo.{n}.{f}" for n in levels for f in ("per_s", "p50_ms", "p99_ms")]
        url = postgres_url()
        sqlite_url = f"sqlite:///{self.scratch / 'grpc.sqlite3'}"
        with postgres_schema(url) as (schema, info), contextlib.ExitStack() as stack:
            launched = {
                "echo": ServerProcess.echo(self.scratch / "echo-server.log").launch(),
                "sqlite": ServerProcess.trapoula(sqlite_url, self.scratch / "sqlite-server.log").launch(),
            }
            if schema is not None:
                launched["postgresql"] = ServerProcess.trapoula(url, self.scratch / "pg-server.log", schema).launch()
            for server in launched.values():
                stack.callback(server.stop)
            ready: dict[str, ServerProcess] = {}
            for name, server in launched.items():
                try:
                    ready[name] = server.wait()
                except RuntimeError as exc:
                    self.fail(echo_keys if name == "echo" else self.row_keys(name), exc)
            echo = ready["echo"].address if "echo" in ready else None
            self.store_rows("sqlite", sqlite_url, None, ready.get("sqlite"), echo)
            with self.step(f"fan-out to {self.plan.watchers} watchers", FANOUT_KEYS):
                if "sqlite" not in ready:
                    raise RuntimeError("the SQLite server did not start")
                self.step_fanout(ready["sqlite"].address)
            if schema is None:
                self.results.skip(self.row_keys("postgresql"), info)
                self.results.notes.append(f"postgresql rows: {info}")
                self.skip_steps(2 * len(levels))
            else:
                self.results.machine["postgresql"] = info
                self.store_rows("postgresql", url, schema, ready.get("postgresql"), None)

    def row_keys(self, kind: str) -> list[str]:
        """Every key of one store's rows."""
        return [f"grpc.{kind}.{n}.{f}" for n in self.plan.levels for f in (*ACT_FIELDS, *RATIO_FIELDS)]

    def store_rows(
        self, kind: str, url: str, schema: str | None, server: ServerProcess | None, echo: str | None
    ) -> None:
        """The rows of one store, its server (None: it did not start); the echo's too at ``echo``
        (None: measured elsewhere, or its server did not start)."""
        for n in self.plan.levels:
            row = [f"grpc.{kind}.{n}.{f}" for f in (*ACT_FIELDS, *RATIO_FIELDS)]
            if kind == STORES[0]:
                with self.step(f"bare gRPC echo, {n} at once", [f"grpc.echo.{n}.{f}" for f in ECHO_FIELDS]):
                    if echo is None:
                        raise RuntimeError("the echo server did not start")
                    self.echo(echo, n)
            with self.step(f"Act on {kind}, {n} table(s) at once", row):
                if server is None:
                    raise RuntimeError(f"the {kind} server did not start")
                self.act(kind, server, n)
            with self.step(f"bare store append on {kind}, {n} at once", row):
                self.append(kind, url, schema, n)


# --------------------------------------------------------------------------- report


def _machine() -> dict[str, str]:
    def of(package: str) -> str:
        try:
            return version(package)
        except PackageNotFoundError:
            return "-"

    try:
        load = f"{os.getloadavg()[0]:.2f}"
    except OSError:
        load = "?"
    return {
        "cores": str(os.cpu_count() or "?"),
        "load_before": load,
        "python": platform.python_version(),
        "system": f"{platform.system()} {platform.machine()}",
        "grpcio": of("grpcio"),
        "protobuf": of("protobuf"),
        "eventsourcing": of("eventsourcing"),
        "eventsourcing-sqlalchemy": of("eventsourcing-sqlalchemy"),
        "sqlalchemy": of("sqlalchemy"),
        "psycopg": of("psycopg"),
    }


def _rate(value: Value | None) -> str:
    if isinstance(value, str) or value is None:
        return "-"
    return f"{value:,.0f}" if value >= 100 else f"{value:,.1f}"


def _ms(value: Value | None) -> str:
    return "-" if isinstance(value, str) or value is None else f"{value:,.2f}"


def _times(value: Value | None) -> str:
    return "-" if isinstance(value, str) or value is None else f"{value:,.1f}x"


def _bytes(value: Value | None) -> str:
    return "-" if isinstance(value, str) or value is None else f"{value / 1024:,.1f} KiB"


def report(results: Results, plan: Plan, out: Console) -> None:
    """Print every figure and ratio: one table per part, then the notes."""
    v = results.values.get
    m = results.machine
    out.print(
        f"trapoula bench: {m.get('cores')} cores, {m.get('system')}, load average {m.get('load_before')} at the "
        f"start; Python {m.get('python')}",
        highlight=False,
    )
    out.print(
        f"grpcio {m.get('grpcio')}, protobuf {m.get('protobuf')}, eventsourcing {m.get('eventsourcing')}, "
        f"SQLAlchemy {m.get('sqlalchemy')}, psycopg {m.get('psycopg')}, PostgreSQL {m.get('postgresql', '-')}, "
        f"open_spiel {m.get('open_spiel', '-')}",
        highlight=False,
    )

    params = ", ".join(f"{k}={val}" for k, val in domain.OPENSPIEL_PARAMS.items())
    t = Table(
        title=f"Pure domain: random bots, {domain.SEATS} seats, default options ({plan.domain_seconds:g} s each)",
        caption=f"open_spiel crazy_eights: {params}; uniformly random actions, chance sampled",
    )
    t.add_column("game")
    t.add_column("hands/s", justify="right")
    t.add_column("commands/s", justify="right")
    for game in sorted(GAMES):
        t.add_row(game, _rate(v(f"domain.{game}.hands_per_s")), _rate(v(f"domain.{game}.commands_per_s")))
    t.add_row(
        "open_spiel crazy_eights: playouts/s, actions/s",
        _rate(v("openspiel.crazy_eights.playouts_per_s")),
        _rate(v("openspiel.crazy_eights.actions_per_s")),
    )
    t.add_row(
        "trapoula crazy_eights / open_spiel",
        _ratio_text(v("openspiel.ratio.hands_vs_playouts")),
        _ratio_text(v("openspiel.ratio.commands_vs_actions")),
    )
    out.print(t)

    t = Table(
        title=f"Replay of a stored record: agonia to {plan.record_target} points, 4 bots, "
        f"{_count(v('replay.events'))} events"
    )
    t.add_column("how")
    t.add_column("events/s", justify="right")
    t.add_row("fold (Replay.from_text: parse and evolve)", _rate(v("replay.fold_events_per_s")))
    t.add_row("audit (audit_text: chain, commitments, every command re-decided)", _rate(v("replay.audit_events_per_s")))
    t.add_row("cold load from the store (new Tables, no snapshot)", _rate(v("replay.cold_load_events_per_s")))
    out.print(t)

    t = Table(
        title="gRPC: Act at N tables at once, beside a bare echo and a bare store append at N at once",
        caption=f"closed loop; {calls.GAME}, {calls.SEATS} client bots a table following WatchTable; latencies in ms; "
        f"windows of {plan.window:g} s (Act) and {plan.baseline_window:g} s (baselines) after {plan.warmup:g} s",
    )
    for name in ("store", "N", "Act/s", "Act p50", "Act p99", "errors", "echo/s", "echo p50", "echo p99"):
        t.add_column(name, justify="left" if name == "store" else "right")
    for name in ("append/s", "append p50", "append p99"):
        t.add_column(name, justify="right")
    for kind in STORES:
        for n in plan.levels:
            row, echo = f"grpc.{kind}.{n}", f"grpc.echo.{n}"
            errors = v(f"{row}.act.errors")
            t.add_row(
                kind,
                str(n),
                _rate(v(f"{row}.act.per_s")),
                _ms(v(f"{row}.act.p50_ms")),
                _ms(v(f"{row}.act.p99_ms")),
                str(errors) if isinstance(errors, int) else "-",
                _rate(v(f"{echo}.per_s")),
                _ms(v(f"{echo}.p50_ms")),
                _ms(v(f"{echo}.p99_ms")),
                _rate(v(f"{row}.append.per_s")),
                _ms(v(f"{row}.append.p50_ms")),
                _ms(v(f"{row}.append.p99_ms")),
            )
    out.print(t)

    t = Table(
        title="gRPC ratios: Act latency over the baselines' latency, the baselines' rate over Act's; "
        "the server's CPU in the Act window",
        caption="server cores: the server process's CPU seconds per second of the window (1.0: one core busy)",
    )
    headers = ("store", "N", "p50 / echo", "p99 / echo", "p50 / append", "p99 / append", "echo/s / Act/s")
    for name in (*headers, "append/s / Act/s", "server cores", "server CPU ms/Act"):
        t.add_column(name, justify="left" if name == "store" else "right")
    for kind in STORES:
        for n in plan.levels:
            row = f"grpc.{kind}.{n}"
            cores = v(f"{row}.act.server_cores")
            t.add_row(
                kind,
                str(n),
                *(_times(v(f"{row}.{f}")) for f in RATIO_FIELDS),
                "-" if isinstance(cores, str) or cores is None else f"{cores:.2f}",
                _ms(v(f"{row}.act.server_cpu_ms")),
            )
    out.print(t)

    t = Table(title=f"Fan-out: one Act, its event to every spectator stream of one table ({plan.rounds} rounds)")
    t.add_column("figure")
    t.add_column("value", justify="right")
    t.add_row("watchers (WatchTable streams)", _count(v("fanout.watchers")))
    t.add_row("delivery p50 ms", _ms(v("fanout.p50_ms")))
    t.add_row("delivery p99 ms", _ms(v("fanout.p99_ms")))
    t.add_row("delivery max ms (until the last watcher had it)", _ms(v("fanout.max_ms")))
    t.add_row("the Act's own latency ms (median)", _ms(v("fanout.act_ms")))
    out.print(t)

    t = Table(title="Memory per open table (agonia, 4 seats, match started)")
    t.add_column("figure")
    t.add_column("value", justify="right")
    t.add_row("tables opened (each pass)", _count(v("memory.tables")))
    t.add_row("Python heap per table (tracemalloc)", _bytes(v("memory.traced_bytes_per_table")))
    t.add_row("resident memory per table (RSS)", _bytes(v("memory.rss_bytes_per_table")))
    out.print(t)

    for line in results.notes:
        out.print(f"note: {line}", highlight=False)


def _ratio_text(value: Value | None) -> str:
    return "-" if isinstance(value, str) or value is None else f"{value:.3f}"


def _count(value: Value | None) -> str:
    return "-" if isinstance(value, str) or value is None else f"{value:,.0f}"


def check(results: Results, plan: Plan) -> list[str]:
    """The keys of :func:`~bench.figures.expected_keys` that are missing, or not measured where
    they must be."""
    wrong = []
    for key in expected_keys(sorted(GAMES), plan.levels):
        value = results.values.get(key)
        if value is None or (isinstance(value, str) and not (may_skip(key) and value.startswith(SKIPPED))):
            wrong.append(key)
    return wrong


# --------------------------------------------------------------------------- main


def main(argv: Sequence[str] | None = None) -> int:
    """Parse the flags, run, print the report; the exit status (see the module docstring)."""
    parser = argparse.ArgumentParser(prog="python -m bench", description="Measure trapoula (docs/benchmarks.md).")
    parser.add_argument("--quick", action="store_true", help="a smoke run of a few seconds (figures not to be read)")
    parser.add_argument("--json", metavar="PATH", type=Path, help="also write every figure to PATH as JSON")
    parser.add_argument("--echo-server", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--memory-probe", nargs=2, metavar=("TABLES", "URL"), help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.echo_server:
        serve_echo()
        return 0
    if args.memory_probe:
        count, url = args.memory_probe
        print(json.dumps(asdict(store.memory_figures(url, int(count)))))
        return 0
    plan = QUICK if args.quick else FULL
    err = Console(stderr=True)
    out = Console()
    if not out.is_terminal:  # a file or a pipe: wide enough for every table on its lines
        out = Console(width=150)
    began = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="trapoula-bench-") as scratch:
        columns = (TextColumn("{task.description:<44}"), BarColumn(), TextColumn("{task.completed}/{task.total}"))
        with Progress(*columns, TimeElapsedColumn(), console=err) as progress:
            bench = Bench(plan, Path(scratch), progress)
            bench.results.machine.update(_machine())
            results = bench.run()
    results.machine["seconds"] = f"{time.monotonic() - began:.0f}"
    report(results, plan, out)
    out.print(f"ran {results.machine['seconds']} s", highlight=False)
    wrong = check(results, plan)
    if args.json is not None:
        document: dict[str, Any] = {
            "plan": asdict(plan),
            "machine": results.machine,
            "figures": results.values,
            "notes": results.notes,
            "step_seconds": bench.timings,
        }
        args.json.write_text(json.dumps(document, indent=2) + "\n", encoding="utf-8")
    if wrong:
        print(f"bench: {len(wrong)} figure(s) not measured: {', '.join(wrong[:10])}", file=sys.stderr)
    return 1 if bench.failed or wrong else 0


if __name__ == "__main__":
    sys.exit(main())
