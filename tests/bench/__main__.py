"""``python -m bench [--quick | --full] [--json PATH]``: measure every figure of docs/benchmarks.md in
one run and print them side by side, each bounded one beside its bound (``make bench``).

The run goes through its steps in order, a progress bar on standard error showing where it is:
the pure domain (and open_spiel), replay of a record, the gRPC rows (SQLite, then PostgreSQL: at
each table count ``Act``, then the bare baselines at its sizes: a unary call, stream messages, an
append of its events), fan-out (and its bare baseline), a paced load and the saturation of one
and two replicas (PostgreSQL), memory.  Then the report goes to standard output, ending with the
bounds, each marked met or NOT MET; ``--json PATH`` writes every figure there too.

A part that cannot run on this machine (no PostgreSQL, no open_spiel) prints why in place of its
figures and the run goes on.  Exit status: 0 when every other figure was measured (whether or not
the bounds are met), 1 when a step failed (its figures say why), 2 for bad usage.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import dataclasses
import json
import os
import platform
import sys
import tempfile
import threading
import time
import traceback
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import asdict, dataclass
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.progress import BarColumn, Progress, TaskID, TextColumn, TimeElapsedColumn
from rich.table import Table

from trapoula.clients.load import LoadResult
from trapoula.domain.registry import GAMES

from . import bare, calls, domain, loads, saturation, store
from .figures import (
    ACT_FIELDS,
    BARE_KEYS,
    BASELINE_FIELDS,
    FANOUT_KEYS,
    MEMORY_KEYS,
    OPENSPIEL_KEYS,
    PACED_KEYS,
    RATIO_FIELDS,
    REPLAY_KEYS,
    SATURATION_KEYS,
    SKIPPED,
    STORES,
    Bound,
    Results,
    Value,
    Window,
    bounds,
    domain_keys,
    expected_keys,
    histogram_quantile,
    may_skip,
    ratio,
)
from .servers import ServerProcess, postgres_cpu_seconds, postgres_schema, postgres_url

PARTS = frozenset({"domain", "replay", "grpc", "paced", "saturation", "memory"})
"""The parts of a run (``--only``); the gRPC part holds the Act rows, their baselines and the fan-out."""
NOT_ASKED = "not asked for (--only)"
"""Why a figure of a part left out was not measured."""


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
    """Unmeasured seconds at the start of each ``Act`` run."""
    window: float
    """Measured seconds of each ``Act`` run."""
    baseline_warmup: float
    """Unmeasured seconds at the start of each bare baseline."""
    baseline_window: float
    """Measured seconds of each bare baseline."""
    watchers: int
    """Spectator streams in the fan-out."""
    rounds: int
    """Events fanned out (one ``Act`` each)."""
    paced_tables: int
    """Tables of the paced load."""
    paced_rate: float
    """Moves a second in all of the paced load."""
    paced_seconds: float
    """Seconds the paced load plays (after its tables are set up)."""
    saturation_tables: int
    """Closed-loop tables of each saturation run."""
    saturation_seconds: float
    """Seconds each saturation run plays (after its tables are set up)."""
    saturation_turns: int
    """Turns of each kind (one replica, then two), alternating (:mod:`bench.saturation`)."""
    memory_tables: int
    """Tables opened in each memory pass."""


FULL = Plan(2.0, 1000, 1.5, (1, 100), 2.0, 8.0, 1.0, 3.0, 1000, 5, 400, 400.0, 15.0, 40, 10.0, 2, 100)
"""``make bench``: about 4 minutes on 2 cores (``--full``: 5)."""
QUICK = Plan(0.1, 100, 0.05, (1, 3), 0.5, 1.0, 0.1, 0.2, 20, 1, 4, 8.0, 1.0, 2, 1.0, 2, 3)
"""``--quick``: a smoke run of every step, its figures too short to read anything from.  Each ``Act``
run still gets a second after half a second: a slow or busy machine's first moves of a fresh
server (its games' modules loaded on first use) must not leave the window empty."""
FULL_PACED_SECONDS = 60.0
"""``--full``: the paced load plays this long (issue 15's run), the rest as :data:`FULL`."""


class Bench:
    """One run: its plan, scratch space for its stores and logs, the progress bar it advances, the
    figures so far."""

    def __init__(self, plan: Plan, scratch: Path, progress: Progress) -> None:
        self.plan = plan
        self.results = Results()
        self.scratch = scratch
        self.progress = progress
        self.steps = len(GAMES) + 3 + 4 * len(plan.levels) * len(STORES) + 2 + 1 + 2 * plan.saturation_turns + 1
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

    def step_bare(self) -> None:
        """The bare Crazy Eights program's random hands, beside trapoula's crazy_eights played in
        alternating turns with it (:func:`bench.domain.play_alternately`): their ratio is taken
        over the same stretch of the run, whatever load the machine's other work puts on it."""
        trapoula, played = domain.play_alternately("crazy_eights", self.plan.domain_seconds)
        r = self.results
        r.put("bare.crazy_eights.hands_per_s", played.hands_per_s)
        r.put("bare.crazy_eights.moves_per_s", played.commands_per_s)
        self._put_or_skip(
            "domain.ratio.crazy_eights_vs_bare",
            ratio(played.commands_per_s, trapoula.commands_per_s),
            "crazy_eights played no command in its turns",
        )
        r.notes.append(
            f"trapoula µs per command / bare µs per move: crazy_eights played {trapoula.commands_per_s:,.0f} "
            f"commands per CPU second in turns with the bare program ({trapoula.seconds:.1f} CPU s each)"
        )

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

    def _put_or_skip(self, key: str, value: float | None, why: str) -> None:
        if value is None:
            self.results.skip([key], why)
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

    def act(self, kind: str, server: ServerProcess, n: int) -> calls.ActRun:
        """``Act`` at ``n`` tables at once on ``server``, the server's CPU in the window, and the
        sizes the baselines copy."""
        run = asyncio.run(calls.act_run(server.address, n, self.plan.warmup, self.plan.window, server.cpu_seconds))
        prefix = f"grpc.{kind}.{n}.act"
        window = run.window
        self._window(prefix, window, f"Act on {kind} at {n} tables")
        r = self.results
        r.put(f"{prefix}.errors", window.errors)
        no_cpu = "no /proc to read the server's CPU time from"
        if run.cpu_seconds is None:
            r.skip([f"{prefix}.server_cores"], no_cpu)
        else:
            r.put(f"{prefix}.server_cores", run.cpu_seconds / window.seconds)
        self._put_or_skip(f"{prefix}.server_cpu_ms", run.cpu_ms, no_cpu if run.cpu_seconds is None else "no Act")
        r.put(f"{prefix}.request_bytes", run.request_bytes)
        r.put(f"{prefix}.reply_bytes", run.reply_bytes)
        r.put(f"{prefix}.stream_messages", run.stream_messages)
        r.put(f"{prefix}.stream_message_bytes", run.stream_message_bytes)
        return run

    def unary(self, kind: str, n: int, server: ServerProcess, run: calls.ActRun) -> None:
        """The bare unary call at ``n`` callers, with the request and reply sizes of ``run``'s ``Act``."""
        p = self.plan
        measured = asyncio.run(
            bare.unary_run(
                server.address,
                n,
                p.baseline_warmup,
                p.baseline_window,
                round(run.request_bytes),
                round(run.reply_bytes),
                run.token_chars,
                server.cpu_seconds,
            )
        )
        prefix = f"grpc.{kind}.{n}.echo"
        self._window(prefix, measured.window, f"bare unary call at {n} callers")
        self._put_or_skip(f"{prefix}.server_cpu_ms", measured.cpu_ms, "no /proc, or no call")

    def streams(self, kind: str, n: int, server: ServerProcess, run: calls.ActRun) -> None:
        """Bare stream messages: ``n`` groups (tables) of :data:`calls.SEATS` streams, each woken
        from another thread and sending as many messages, as big, as ``run``'s streams had per ``Act``."""
        p = self.plan
        burst = max(1, round(run.stream_messages / calls.SEATS))
        measured = asyncio.run(
            bare.stream_run(
                server.address,
                n,
                calls.SEATS,
                round(run.stream_message_bytes),
                burst,
                p.baseline_warmup,
                p.baseline_window,
                server.cpu_seconds,
            )
        )
        prefix = f"grpc.{kind}.{n}.stream"
        self.results.put(f"{prefix}.per_s", measured.window.per_s)
        self._put_or_skip(f"{prefix}.server_cpu_ms", measured.cpu_ms, "no /proc, or no message")

    def append(self, kind: str, url: str, schema: str | None, n: int, run: calls.ActRun) -> None:
        """The bare append of the events ``run``'s commands stored, at ``n`` callers."""
        p = self.plan
        figures = store.append_in_child(url, schema, run.table_ids, n, p.baseline_warmup, p.baseline_window)
        row = f"grpc.{kind}.{n}"
        self._window(f"{row}.append", figures.window, f"bare append on {kind} at {n} callers")
        self._put_or_skip(f"{row}.append.cpu_ms", figures.cpu_ms, "no append completed")
        self.results.put(f"{row}.act.events", figures.events)
        self.results.put(f"{row}.act.event_bytes", figures.event_bytes)

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

    def row_ratios(self, kind: str, n: int) -> None:
        """The bare CPU of one command, and ``Act``'s figures over the baselines'."""
        row = f"grpc.{kind}.{n}"
        get = self.results.number
        parts = (
            get(f"{row}.echo.server_cpu_ms"),
            get(f"{row}.append.cpu_ms"),
            get(f"{row}.stream.server_cpu_ms"),
            get(f"{row}.act.stream_messages"),
        )
        echo_ms, append_ms, message_ms, messages = parts
        base = None
        if echo_ms is not None and append_ms is not None and message_ms is not None and messages is not None:
            base = echo_ms + append_ms + messages * message_ms
        self._put_or_skip(f"{row}.baseline.cpu_ms", base, "a part of the baseline is missing")
        pairs = {
            "ratio.cpu_vs_bare": (get(f"{row}.act.server_cpu_ms"), base),
            "ratio.p50_vs_echo": (get(f"{row}.act.p50_ms"), get(f"{row}.echo.p50_ms")),
            "ratio.p50_vs_append": (get(f"{row}.act.p50_ms"), get(f"{row}.append.p50_ms")),
        }
        for field, (a, b) in pairs.items():
            self._put_or_skip(f"{row}.{field}", ratio(a, b), "a figure of the row is missing")

    def step_fanout(self, server: ServerProcess) -> calls.Fanout:
        """One event to many spectator streams of one table of ``server``, and the server's CPU."""
        result = asyncio.run(
            calls.fanout_run(server.address, self.plan.watchers, self.plan.rounds, cpu=server.cpu_seconds)
        )
        r = self.results
        r.put("fanout.watchers", result.watchers)
        r.put("fanout.p50_ms", result.delays.p50_ms)
        r.put("fanout.p99_ms", result.delays.p99_ms)
        r.put("fanout.max_ms", result.delays.max_ms)
        r.put("fanout.act_ms", result.act_ms)
        r.put("fanout.message_bytes", result.message_bytes)
        r.put("fanout.messages_per_watcher", result.messages_per_watcher)
        self._put_or_skip("fanout.server_cpu_ms_per_watcher", result.cpu_ms_per_watcher, "no /proc")
        return result

    def step_bare_fanout(self, server: ServerProcess, fanout: calls.Fanout) -> None:
        """As many bare streams as the fan-out's watchers, in one group, each woken from another
        thread and sending as many messages, as big, as each watcher had per round."""
        p = self.plan
        burst = max(1, round(fanout.messages_per_watcher))
        measured = asyncio.run(
            bare.stream_run(
                server.address,
                1,
                fanout.watchers,
                round(fanout.message_bytes),
                burst,
                p.baseline_warmup,
                p.baseline_window,
                server.cpu_seconds,
            )
        )
        r = self.results
        r.put("fanout.bare.per_s", measured.window.per_s)
        self._put_or_skip("fanout.bare.server_cpu_ms", measured.cpu_ms, "no /proc")
        get = r.number
        message_ms = get("fanout.bare.server_cpu_ms")
        per_watcher = None if message_ms is None else message_ms * fanout.messages_per_watcher
        self._put_or_skip(
            "fanout.ratio.cpu_vs_bare", ratio(get("fanout.server_cpu_ms_per_watcher"), per_watcher), "no /proc"
        )

    def step_paced(self, url: str) -> None:
        """``trapoula load --rate`` against one fresh replica on a fresh PostgreSQL schema."""
        p = self.plan
        with postgres_schema(url) as (schema, info):
            if schema is None:
                self.results.skip(PACED_KEYS, info)
                self.results.notes.append(f"paced load: {info}")
                return
            with ServerProcess.trapoula(url, self.scratch / "paced-server.log", schema) as server:
                result = loads.paced(
                    server.address, p.paced_tables, p.paced_rate, p.paced_seconds, self.scratch / "paced-load.log"
                )
                acts = server.histogram("trapoula_rpc_seconds", method="Act")  # the play's: no Act before it
        r = self.results
        r.put("paced.tables", p.paced_tables)
        r.put("paced.rate", p.paced_rate)
        r.put("paced.seconds", result.final.elapsed)
        r.put("paced.setup_s", result.setup_seconds or 0.0)
        r.put("paced.per_s", result.achieved_rate)
        r.put("paced.errors", result.final.error_count)
        r.put("paced.behind", result.behind)
        self._load_notes("paced load", result)
        spread = result.latency
        if spread is None:
            raise RuntimeError("the paced load completed no Act")
        r.put("paced.p50_ms", spread.p50)
        r.put("paced.p90_ms", spread.p90)
        r.put("paced.p99_ms", spread.p99)
        r.put("paced.max_ms", spread.max)
        lag = result.send_lag
        self._put_or_skip("paced.send_lag_p99_ms", lag.p99 if lag else None, "no bot was ready before a move was due")
        server_p99 = histogram_quantile(acts, 0.99) if acts else None
        self._put_or_skip(
            "paced.server_p99_ms",
            server_p99 * 1000.0 if server_p99 is not None else None,
            "no metrics from the replica",
        )

    def _load_notes(self, what: str, result: LoadResult) -> None:
        for kind, message in sorted(result.examples.items()):
            self.results.notes.append(f"{what}: {result.final.errors.get(kind, 0)} {kind}, the first: {message}")

    def saturation_turn(self, url: str, replicas: int, turn: int) -> saturation.Turn | None:
        """One closed-loop turn at saturation against ``replicas`` fresh replicas on one fresh
        schema; None when PostgreSQL is not there (the figures are skipped, saying why)."""
        p = self.plan
        name = "one" if replicas == 1 else "two"
        with postgres_schema(url) as (schema, info), contextlib.ExitStack() as stack:
            if schema is None:
                self.results.skip(SATURATION_KEYS, info)
                self.results.notes.append(f"saturation: {info}")
                return None
            servers = []
            for i in range(replicas):  # one after the other: the first creates the store's tables
                log_path = self.scratch / f"saturation-{name}-{turn}-{i}.log"
                server = ServerProcess.trapoula(url, log_path, schema).launch()
                stack.callback(server.stop)
                servers.append(server.wait())
            with _CpuSamples(servers) as samples:
                result = loads.saturated(
                    [s.address for s in servers],
                    p.saturation_tables,
                    p.saturation_seconds,
                    self.scratch / f"saturation-{name}-{turn}.log",
                )
        self._load_notes(f"saturation, {name} replica(s), turn {turn}", result)
        window = samples.play(result.final.elapsed)
        used: dict[str, float | None] = dict.fromkeys(saturation.PARTS)
        window_moves = 0.0
        if window is not None:
            seconds, before, after = window
            used = {part: _grew(before[part], after[part]) for part in saturation.PARTS}
            window_moves = result.achieved_rate * seconds
        return saturation.Turn(
            result.final.commands, result.final.elapsed, result.final.error_count, used, window_moves
        )

    def put_saturation(self, turns: Mapping[int, Sequence[saturation.Turn]]) -> None:
        """The saturation figures from every turn of each kind (one replica, two replicas) that
        ran all its turns; a kind with a failed turn keeps its figures failed."""
        r = self.results
        r.put("saturation.tables", self.plan.saturation_tables)
        for replicas, name in ((1, "one"), (2, "two")):
            kind = turns[replicas]
            if len(kind) < self.plan.saturation_turns:
                continue
            per_s = saturation.moves_per_s(kind)
            self._put_or_skip(f"saturation.{name}.per_s", per_s, "no turn played")
            r.put(f"saturation.{name}.errors", sum(t.errors for t in kind))
            for part, why in zip(saturation.PARTS, _CPU_MISSING, strict=True):
                per_move = saturation.cpu_ms_per_move(kind, part)
                self._put_or_skip(f"saturation.{name}.{part}_cpu_ms", per_move, f"{why}, or a play too short")
        if len(turns[1]) == len(turns[2]) > 1:  # each pair of turns, to judge the machine's drift
            pairs = ", ".join(
                f"{one.per_s:,.0f} / {two.per_s:,.0f}" for one, two in zip(turns[1], turns[2], strict=True)
            )
            r.notes.append(f"saturation, moves/s of one / two replicas, turn by turn: {pairs}")
        if len(turns[2]) < self.plan.saturation_turns:
            return
        self._ratio("saturation.ratio.two_vs_one", "saturation.two.per_s", r.number("saturation.one.per_s"))
        value = r.values.get("saturation.ratio.two_vs_one")
        if isinstance(value, str):  # the one-replica turns failed: the ratio is missing, say so
            r.values["saturation.ratio.two_vs_one"] = "failed: the one-replica run was not measured"
        parts = [r.number(f"saturation.two.{part}_cpu_ms") for part in saturation.PARTS]
        one = r.number("saturation.one.per_s")
        ceiling_keys = ["saturation.ratio.ceiling", "saturation.ratio.ceiling_free_load"]
        if None in parts or not one or not sum(x for x in parts if x is not None):
            r.skip(ceiling_keys, "a CPU figure of the runs, or the one-replica rate, is missing")
        else:
            with_load, free_load = saturation.ceilings(one, [x or 0.0 for x in parts], os.cpu_count() or 1)
            r.put("saturation.ratio.ceiling", with_load)
            r.put("saturation.ratio.ceiling_free_load", free_load)

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

    def run(self, only: frozenset[str] = PARTS) -> Results:
        """Every step in order (of the parts in ``only``: :data:`PARTS`), advancing the progress bar."""
        if "domain" in only:
            for game in sorted(GAMES):
                with self.step(f"pure domain: {game}", domain_keys([game])[:2]):
                    self.step_domain(game)
            with self.step("bare crazy_eights program", BARE_KEYS):
                self.step_bare()
            with self.step("open_spiel crazy_eights", OPENSPIEL_KEYS):
                self.step_openspiel()
        else:
            self.not_asked(
                [k for game in sorted(GAMES) for k in domain_keys([game])[:2]] + list(BARE_KEYS) + list(OPENSPIEL_KEYS)
            )
            self.skip_steps(len(GAMES) + 2)
        if "replay" in only:
            with self.step("replay of a stored record", REPLAY_KEYS):
                self.step_replay()
        else:
            self.not_asked(REPLAY_KEYS)
            self.skip_steps(1)
        if "grpc" in only:
            self.grpc_rows()
        else:
            self.not_asked([k for kind in STORES for k in self.row_keys(kind)] + list(FANOUT_KEYS))
            self.skip_steps(4 * len(self.plan.levels) * len(STORES) + 2)
        url = postgres_url()
        if "paced" in only:
            with self.step(
                f"paced load: {self.plan.paced_tables} tables, {self.plan.paced_rate:g} moves/s, "
                f"{self.plan.paced_seconds:g} s",
                PACED_KEYS,
            ):
                self.step_paced(url)
        else:
            self.not_asked(PACED_KEYS)
            self.skip_steps(1)
        if "saturation" in only:
            self.saturation_turns(url)
        else:
            self.not_asked(SATURATION_KEYS)
            self.skip_steps(2 * self.plan.saturation_turns)
        if "memory" in only:
            with self.step("memory per open table", MEMORY_KEYS):
                self.step_memory()
        else:
            self.not_asked(MEMORY_KEYS)
            self.skip_steps(1)
        self.progress.update(self.task, description="done")
        return self.results

    def saturation_turns(self, url: str) -> None:
        """The saturation turns, one replica and two by turns (:mod:`bench.saturation`), then their
        figures; without PostgreSQL, every figure skipped after the first turn says why."""
        count = self.plan.saturation_turns
        turns: dict[int, list[saturation.Turn]] = {1: [], 2: []}
        for turn in range(1, count + 1):
            for replicas in (1, 2):
                name = ".one." if replicas == 1 else ".two."
                keys = [k for k in SATURATION_KEYS if name in k or (replicas == 2 and ".ratio." in k)]
                with self.step(f"saturation: {replicas} replica(s), turn {turn} of {count}", keys):
                    done = self.saturation_turn(url, replicas, turn)
                    if done is None:  # no PostgreSQL: every figure skipped, saying why
                        self.skip_steps(2 * count - 2 * (turn - 1) - replicas)
                        return
                    turns[replicas].append(done)
        self.put_saturation(turns)

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

    def not_asked(self, keys: Iterable[str]) -> None:
        """Mark ``keys`` as not measured: their part was left out (``--only``)."""
        self.results.skip(keys, NOT_ASKED)

    def skip_steps(self, count: int) -> None:
        """Advance the progress bar over ``count`` steps that cannot run."""
        self.progress.advance(self.task, count)

    def grpc_rows(self) -> None:
        """The gRPC rows and the fan-out.  The servers start together (the bare one, one on a SQLite
        file, one on a fresh PostgreSQL schema); then the SQLite rows, then the fan-out on the
        SQLite server and its bare baseline, then the PostgreSQL rows; then they stop."""
        url = postgres_url()
        sqlite_url = f"sqlite:///{self.scratch / 'grpc.sqlite3'}"
        with postgres_schema(url) as (schema, info), contextlib.ExitStack() as stack:
            launched = {
                "bare": ServerProcess.bare(self.scratch / "bare-server.log").launch(),
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
                    self.fail([] if name == "bare" else self.row_keys(name), exc)
            self.store_rows("sqlite", sqlite_url, None, ready.get("sqlite"), ready.get("bare"))
            fanout = None
            fanout_keys = [k for k in FANOUT_KEYS if ".bare." not in k and ".ratio." not in k]
            with self.step(f"fan-out to {self.plan.watchers} watchers", fanout_keys):
                if "sqlite" not in ready:
                    raise RuntimeError("the SQLite server did not start")
                fanout = self.step_fanout(ready["sqlite"])
            with self.step(
                f"bare fan-out to {self.plan.watchers} streams", [k for k in FANOUT_KEYS if k not in fanout_keys]
            ):
                if fanout is None:
                    raise RuntimeError("the fan-out was not measured")
                if "bare" not in ready:
                    raise RuntimeError("the bare server did not start")
                self.step_bare_fanout(ready["bare"], fanout)
            if schema is None:
                self.results.skip(self.row_keys("postgresql"), info)
                self.results.notes.append(f"postgresql rows: {info}")
                self.skip_steps(4 * len(self.plan.levels))
            else:
                self.results.machine["postgresql"] = info
                self.store_rows("postgresql", url, schema, ready.get("postgresql"), ready.get("bare"))

    def row_keys(self, kind: str, levels: Sequence[int] | None = None) -> list[str]:
        """Every key of one store's rows (at ``levels``, else every level of the plan)."""
        fields = (*ACT_FIELDS, *BASELINE_FIELDS, *RATIO_FIELDS)
        return [f"grpc.{kind}.{n}.{f}" for n in (levels or self.plan.levels) for f in fields]

    def store_rows(
        self, kind: str, url: str, schema: str | None, server: ServerProcess | None, bare_server: ServerProcess | None
    ) -> None:
        """The rows of one store, its server (None: it did not start), beside the bare server's."""
        for n in self.plan.levels:
            row = f"grpc.{kind}.{n}"
            run: calls.ActRun | None = None
            with self.step(f"Act on {kind}, {n} table(s) at once", [f"{row}.{f}" for f in ACT_FIELDS]):
                if server is None:
                    raise RuntimeError(f"the {kind} server did not start")
                run = self.act(kind, server, n)
            for what, fields, measure in (
                (f"bare unary call, {n} at once, {kind}'s Act sizes", ("echo.",), self.unary),
                (f"bare stream messages, {n} table(s), {kind}'s Act sizes", ("stream.",), self.streams),
            ):
                with self.step(what, [f"{row}.{f}" for f in BASELINE_FIELDS if f.startswith(fields)]):
                    if run is None:
                        raise RuntimeError("Act was not measured: no sizes to copy")
                    if bare_server is None:
                        raise RuntimeError("the bare server did not start")
                    measure(kind, n, bare_server, run)
            append_keys = [f"{row}.{f}" for f in BASELINE_FIELDS if f.startswith("append.")]
            with self.step(f"bare append of Act's events on {kind}, {n} at once", append_keys):
                if run is None:
                    raise RuntimeError("Act was not measured: no events to copy")
                self.append(kind, url, schema, n, run)
            for key in (f"{row}.act.events", f"{row}.act.event_bytes"):
                if key not in self.results.values:
                    self.results.values[key] = "failed: the bare append did not run"
            self.row_ratios(kind, n)


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


def _number(value: Value | None) -> float | None:
    return float(value) if isinstance(value, int | float) else None


_CPU_MISSING = (
    "no /proc to read the replicas' CPU time from",
    "no CPU time of this process",
    "PostgreSQL's processes are not on this machine (or no /proc)",
)
"""Why each CPU figure of a saturation run (replicas, load generator, PostgreSQL) may be missing."""


def _machine_cpu(servers: Sequence[ServerProcess]) -> dict[str, float | None]:
    """CPU time so far (s) of the replicas (together; None when one cannot be read), of this
    process (the load generator runs in it) and of PostgreSQL's processes on this machine."""
    replicas = [s.cpu_seconds() for s in servers]
    return {
        "replicas": None if None in replicas else sum(c for c in replicas if c is not None),
        "load": time.process_time(),
        "postgres": postgres_cpu_seconds(),
    }


def _grew(before: float | None, after: float | None) -> float | None:
    return None if before is None or after is None else after - before


class _CpuSamples:
    """:func:`_machine_cpu` every :attr:`EVERY` seconds from a thread of its own, while the block
    runs (a load run, whose set-up comes before its play)."""

    EVERY = 0.2

    def __init__(self, servers: Sequence[ServerProcess]) -> None:
        self.servers = servers
        self.samples: list[tuple[float, dict[str, float | None]]] = []
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="bench-cpu", daemon=True)

    def __enter__(self) -> _CpuSamples:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join()

    def _run(self) -> None:
        while True:
            self.samples.append((time.monotonic(), _machine_cpu(self.servers)))
            if self._stop.wait(self.EVERY):
                self.samples.append((time.monotonic(), _machine_cpu(self.servers)))
                return

    def play(self, elapsed: float) -> tuple[float, dict[str, float | None], dict[str, float | None]] | None:
        """The samples around the play, the last ``elapsed`` seconds before the block ended (the
        set-up left out): ``(seconds between them, the first, the last)``; None when the play had
        fewer than two samples."""
        if not self.samples:
            return None
        start = self.samples[-1][0] - elapsed
        inside = [sample for sample in self.samples if sample[0] >= start]
        if len(inside) < 2:
            return None
        (t0, first), (t1, last) = inside[0], inside[-1]
        return t1 - t0, first, last


def _shown(form: Callable[[float], str]) -> Callable[[Value | None], str]:
    """A figure's text: ``form`` of its number, ``-`` for a figure that is not a number."""

    def show(value: Value | None) -> str:
        v = _number(value)
        return "-" if v is None else form(v)

    return show


_rate = _shown(lambda v: f"{v:,.0f}" if v >= 100 else f"{v:,.1f}")
_ms = _shown(lambda v: f"{v:,.2f}")
_cpu = _shown(lambda v: f"{v:,.3f}")
_times = _shown(lambda v: f"{v:,.2f}x")
_bytes = _shown(lambda v: f"{v / 1024:,.1f} KiB")
_count = _shown(lambda v: f"{v:,.0f}")
_one = _shown(lambda v: f"{v:,.1f}")
_ratio_text = _shown(lambda v: f"{v:.3f}")


def _bound_value(bound: Bound, value: float) -> str:
    match bound.unit:
        case "ms":
            return f"{value:,.1f} ms"
        case "KiB":
            return f"{value / 1024:,.1f} KiB"
        case "count":
            return f"{value:,.0f}"
        case "/s":
            return f"{value:,.0f}/s"
    return f"{value:,.2f}x"


def _bound_limit(bound: Bound) -> str:
    if bound.unit == "count" and bound.limit == 0 and bound.at_most:
        return "= 0"
    sign = "≤" if bound.at_most else "≥"
    limit = {
        "ms": f"{bound.limit:g} ms",
        "KiB": f"{bound.limit / 1024:g} KiB",
        "count": f"{bound.limit:g}",
        "/s": f"{bound.limit:,.0f}/s",
    }
    return f"{sign} {limit.get(bound.unit, f'{bound.limit:g}')}"


def verdicts(results: Results, plan: Plan) -> list[tuple[Bound, float | None, bool | None]]:
    """Every bound with its figure and whether it is met (None: the figure was not measured)."""
    out = []
    for bound in bounds(plan.levels):
        value = results.number(bound.key)
        out.append((bound, value, None if value is None else bound.met(value)))
    return out


def _styled(met: bool | None) -> str:
    return {None: "[yellow]not measured[/]", True: "[green]met[/]", False: "[bold red]NOT MET[/]"}[met]


def _grid(
    v: Callable[[str], Any],
    plan: Plan,
    title: str,
    caption: str,
    columns: Sequence[tuple[str, Callable[[Any], str], str]],
) -> Table:
    """A table of the gRPC rows: one row per store and level (``grpc.<store>.<N>``), after the
    ``store`` and ``N`` columns one per ``(head, formatter, key under the row)``."""
    t = Table(title=title, caption=caption)
    t.add_column("store", justify="left")
    t.add_column("N", justify="right")
    for head, _, _ in columns:
        t.add_column(head, justify="right")
    for kind in STORES:
        for n in plan.levels:
            t.add_row(kind, str(n), *(show(v(f"grpc.{kind}.{n}.{key}")) for _, show, key in columns))
    return t


def _figures(
    results: Results,
    plan: Plan,
    title: str,
    rows: Sequence[tuple[str, str, str | None]],
    caption: str | None = None,
    heads: tuple[str, str] = ("figure", "value"),
) -> Table:
    """A table of figures beside their bounds: each row ``(label, value text, bound key or None)``."""
    t = Table(title=title, caption=caption)
    t.add_column(heads[0])
    t.add_column(heads[1], justify="right")
    t.add_column("bound")
    for label, value, key in rows:
        t.add_row(label, value, _bound_cell(results, plan, key) if key is not None else "")
    return t


def _bound_cell(results: Results, plan: Plan, key: str) -> str:
    """The bound beside a figure in a table: ``≤ 2: NOT MET``."""
    for bound, value, met in verdicts(results, plan):
        if bound.key == key:
            return f"{_bound_limit(bound)}: {_styled(met)}" if value is not None else _styled(None)
    return ""


def report(results: Results, plan: Plan, out: Console) -> None:
    """Print every figure and ratio: one table per part, the bounds, then the notes."""
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
        title=f"Pure domain: random players, {domain.SEATS} seats, default options ({plan.domain_seconds:g} CPU s)",
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
        "bare crazy_eights program: hands/s, moves/s",
        _rate(v("bare.crazy_eights.hands_per_s")),
        _rate(v("bare.crazy_eights.moves_per_s")),
    )
    t.add_row(
        "trapoula crazy_eights / open_spiel",
        _ratio_text(v("openspiel.ratio.hands_vs_playouts")),
        _ratio_text(v("openspiel.ratio.commands_vs_actions")),
    )
    out.print(t)

    domain_key, openspiel_key = "domain.ratio.crazy_eights_vs_bare", "openspiel.ratio.hands_vs_playouts"
    rows = [
        ("trapoula µs per command / bare µs per move", _times(v(domain_key)), domain_key),
        ("trapoula hands per CPU second / open_spiel playouts per CPU second", _times(v(openspiel_key)), openspiel_key),
    ]
    title = "Pure domain against its references: crazy_eights, 4 random players, CPU time"
    caption = "bare: tests/bench/bare_crazy_eights.py, the same rules in a plain function of lists and integers"
    out.print(_figures(results, plan, title, rows, caption))

    fold_key, audit_key = "replay.fold_events_per_s", "replay.audit_events_per_s"
    rows = [
        ("fold (Replay.from_text: parse and evolve)", _rate(v(fold_key)), fold_key),
        ("audit (audit_text: chain, commitments, every command re-decided)", _rate(v(audit_key)), audit_key),
        ("cold load from the store (new Tables, no snapshot)", _rate(v("replay.cold_load_events_per_s")), None),
    ]
    title = (
        f"Replay of a stored record: agonia to {plan.record_target} points, 4 bots, {_count(v('replay.events'))} events"
    )
    out.print(_figures(results, plan, title, rows, heads=("how", "events/s")))

    act_columns = [
        ("Act/s", _rate, "act.per_s"),
        ("p50", _ms, "act.p50_ms"),
        ("p99", _ms, "act.p99_ms"),
        ("errors", _count, "act.errors"),
        ("server cores", _ms, "act.server_cores"),
        ("CPU ms/Act", _cpu, "act.server_cpu_ms"),
        ("request B", _count, "act.request_bytes"),
        ("reply B", _count, "act.reply_bytes"),
        ("msgs", _ms, "act.stream_messages"),
        ("msg B", _count, "act.stream_message_bytes"),
        ("events", _ms, "act.events"),
        ("events B", _count, "act.event_bytes"),
    ]
    title = "gRPC: Act at N tables at once (closed loop), the server's CPU, and the sizes the baselines copy"
    caption = (
        f"{calls.GAME}, {calls.SEATS} client bots a table following WatchTable; latencies in ms; a window of "
        f"{plan.window:g} s after {plan.warmup:g} s; server cores: the server process's CPU seconds per second "
        "(1.0: one core busy); msgs: the messages the table's streams received per Act"
    )
    out.print(_grid(v, plan, title, caption, act_columns))

    bare_columns = [
        ("call/s", _rate, "echo.per_s"),
        ("call p50", _ms, "echo.p50_ms"),
        ("call p99", _ms, "echo.p99_ms"),
        ("call CPU ms", _cpu, "echo.server_cpu_ms"),
        ("msgs/s", _rate, "stream.per_s"),
        ("msg CPU ms", _cpu, "stream.server_cpu_ms"),
        ("append/s", _rate, "append.per_s"),
        ("append p50", _ms, "append.p50_ms"),
        ("append p99", _ms, "append.p99_ms"),
        ("append CPU ms", _cpu, "append.cpu_ms"),
    ]
    title = (
        "Bare baselines at the same N with Act's sizes: a grpc.aio unary call, stream messages woken from "
        "another thread, a recorder append of Act's events"
    )
    caption = (
        f"windows of {plan.baseline_window:g} s after {plan.baseline_warmup:g} s; CPU ms: the bare server's "
        "(the appending process's) CPU per call, message or append"
    )
    out.print(_grid(v, plan, title, caption, bare_columns))

    t = Table(
        title="Act's server CPU over the bare baseline: one unary call + one append of its events + its stream "
        "messages (bound ≤ 2)",
        caption="CPU ms per Act; msgs CPU: the messages one Act caused times a bare message's CPU; "
        "p50 / call and p50 / append: Act's median latency over the bare call's and the bare append's",
    )
    for name in ("store", "N", "Act CPU", "call CPU", "msgs CPU", "append CPU", "bare CPU", "Act / bare", "bound"):
        t.add_column(name, justify="left" if name in ("store", "bound") else "right")
    t.add_column("p50 / call", justify="right")
    t.add_column("p50 / append", justify="right")
    for kind in STORES:
        for n in plan.levels:
            row = f"grpc.{kind}.{n}"
            messages, message_ms = _number(v(f"{row}.act.stream_messages")), _number(v(f"{row}.stream.server_cpu_ms"))
            t.add_row(
                kind,
                str(n),
                _cpu(v(f"{row}.act.server_cpu_ms")),
                _cpu(v(f"{row}.echo.server_cpu_ms")),
                _cpu(None if messages is None or message_ms is None else messages * message_ms),
                _cpu(v(f"{row}.append.cpu_ms")),
                _cpu(v(f"{row}.baseline.cpu_ms")),
                _times(v(f"{row}.ratio.cpu_vs_bare")),
                _bound_cell(results, plan, f"{row}.ratio.cpu_vs_bare"),
                _times(v(f"{row}.ratio.p50_vs_echo")),
                _times(v(f"{row}.ratio.p50_vs_append")),
            )
    out.print(t)

    t = Table(title=f"Fan-out: one Act, its events to every spectator stream of one table ({plan.rounds} round(s))")
    t.add_column("figure")
    t.add_column("value", justify="right")
    t.add_column("bound")
    t.add_row("watchers (WatchTable streams)", _count(v("fanout.watchers")), "")
    t.add_row("delivery p50 ms", _ms(v("fanout.p50_ms")), "")
    t.add_row("delivery p99 ms", _ms(v("fanout.p99_ms")), _bound_cell(results, plan, "fanout.p99_ms"))
    t.add_row("delivery max ms (until the last watcher had it)", _ms(v("fanout.max_ms")), "")
    t.add_row("the Act's own latency ms (median)", _ms(v("fanout.act_ms")), "")
    t.add_row(
        "messages per watcher per round, their mean bytes",
        f"{_ms(v('fanout.messages_per_watcher'))}, {_count(v('fanout.message_bytes'))}",
        "",
    )
    t.add_row("server CPU ms per watcher per round", _cpu(v("fanout.server_cpu_ms_per_watcher")), "")
    t.add_row("bare stream: messages/s", _rate(v("fanout.bare.per_s")), "")
    t.add_row("bare stream: server CPU ms per message", _cpu(v("fanout.bare.server_cpu_ms")), "")
    t.add_row(
        "server CPU per watcher / bare messages' CPU",
        _times(v("fanout.ratio.cpu_vs_bare")),
        _bound_cell(results, plan, "fanout.ratio.cpu_vs_bare"),
    )
    out.print(t)

    t = Table(
        title=f"Paced load (trapoula load --rate): {_count(v('paced.tables'))} {loads.GAME} tables of {loads.SEATS} "
        f"bots + {loads.WATCHERS} spectator, {_count(v('paced.rate'))} moves/s in all, one replica on PostgreSQL",
        caption="open loop: each move sent when due (Poisson per table), latency from its due time; the tables are "
        "set up before the clock starts",
    )
    t.add_column("figure")
    t.add_column("value", justify="right")
    t.add_column("bound")
    t.add_row("seconds played (after the set-up)", _one(v("paced.seconds")), "")
    t.add_row("set-up seconds (before the clock)", _one(v("paced.setup_s")), "")
    t.add_row("moves/s achieved", _one(v("paced.per_s")), "")
    t.add_row("moves due but not made at the end", _count(v("paced.behind")), "")
    t.add_row("Act p50 / p90 ms", f"{_ms(v('paced.p50_ms'))} / {_ms(v('paced.p90_ms'))}", "")
    t.add_row("Act p99 ms", _ms(v("paced.p99_ms")), _bound_cell(results, plan, "paced.p99_ms"))
    t.add_row("Act max ms", _ms(v("paced.max_ms")), "")
    t.add_row(
        "  within it: the load generator's send lag p99 ms (moves ready before due)",
        _ms(v("paced.send_lag_p99_ms")),
        "",
    )
    t.add_row(
        "  within it: the replica's own Act p99 ms (its histogram: at most this bucket)",
        _ms(v("paced.server_p99_ms")),
        "",
    )
    t.add_row("errors", _count(v("paced.errors")), _bound_cell(results, plan, "paced.errors"))
    out.print(t)

    t = Table(
        title=f"Saturation: closed-loop trapoula load, {_count(v('saturation.tables'))} {loads.GAME} tables of "
        f"{loads.SEATS} bots + {loads.WATCHERS} spectator, {plan.saturation_turns} turn(s) of "
        f"{plan.saturation_seconds:g} s each, PostgreSQL",
        caption="the same load against one replica, then spread over two replicas on one schema (--address A,B), "
        "in alternating turns, each kind's figures over all its turns; "
        "CPU over each run's play (its set-up left out): the replicas', the load generator's (this process) and "
        "PostgreSQL's on this machine; at most: the cores' CPU time over the two-replica run's CPU a move, as "
        "moves/s, over the one-replica run's (with a free load generator: the replicas' and PostgreSQL's CPU alone)",
    )
    t.add_column("figure")
    t.add_column("value", justify="right")
    t.add_column("bound")
    t.add_row(
        "one replica: moves/s (errors)", f"{_one(v('saturation.one.per_s'))} ({_count(v('saturation.one.errors'))})", ""
    )
    t.add_row(
        "two replicas: moves/s (errors)",
        f"{_one(v('saturation.two.per_s'))} ({_count(v('saturation.two.errors'))})",
        "",
    )
    t.add_row(
        "two / one",
        _times(v("saturation.ratio.two_vs_one")),
        _bound_cell(results, plan, "saturation.ratio.two_vs_one"),
    )
    for name, what in (("one", "one replica"), ("two", "two replicas")):
        cpu = " / ".join(_ms(v(f"saturation.{name}.{part}_cpu_ms")) for part in ("replicas", "load", "postgres"))
        t.add_row(f"{what}: CPU ms a move, replicas / load / PostgreSQL", cpu, "")
    t.add_row("two / one at most on this machine (its cores)", _times(v("saturation.ratio.ceiling")), "")
    t.add_row(
        "two / one at most here with a load generator costing nothing",
        _times(v("saturation.ratio.ceiling_free_load")),
        "",
    )
    out.print(t)

    rows = [
        ("tables opened (each pass)", _count(v("memory.tables")), None),
        ("Python heap per table (tracemalloc)", _bytes(v("memory.traced_bytes_per_table")), None),
        ("resident memory per table (RSS)", _bytes(v("memory.rss_bytes_per_table")), "memory.rss_bytes_per_table"),
    ]
    out.print(_figures(results, plan, "Memory per open table (agonia, 4 seats, match started)", rows))

    t = Table(title="Bounds (issue 15): each figure beside its bound")
    t.add_column("figure")
    t.add_column("measured", justify="right")
    t.add_column("bound", justify="right")
    t.add_column("")
    judged = verdicts(results, plan)
    for bound, value, met in judged:
        t.add_row(bound.what, "-" if value is None else _bound_value(bound, value), _bound_limit(bound), _styled(met))
    out.print(t)
    met_count = sum(1 for _, _, met in judged if met)
    unmeasured = sum(1 for _, _, met in judged if met is None)
    out.print(
        f"bounds: {met_count} of {len(judged)} met" + (f", {unmeasured} not measured" if unmeasured else ""),
        highlight=False,
    )

    for line in results.notes:
        out.print(f"note: {line}", highlight=False)


def check(results: Results, plan: Plan) -> list[str]:
    """The keys of :func:`~bench.figures.expected_keys` that are missing, or not measured where
    they must be."""
    wrong = []
    for key in expected_keys(sorted(GAMES), plan.levels):
        value = results.values.get(key)
        if value == SKIPPED + NOT_ASKED:
            continue  # its part was left out (--only)
        if value is None or (isinstance(value, str) and not (may_skip(key) and value.startswith(SKIPPED))):
            wrong.append(key)
    return wrong


# --------------------------------------------------------------------------- main


def _parts(text: str) -> frozenset[str]:
    """The parts of ``--only``.

    Raises:
        argparse.ArgumentTypeError: a part that is not one of :data:`PARTS`.
    """
    parts = frozenset(p.strip() for p in text.split(",") if p.strip())
    unknown = sorted(parts - PARTS)
    if unknown or not parts:
        raise argparse.ArgumentTypeError(f"{text!r}: expected some of {', '.join(sorted(PARTS))}")
    return parts


def main(argv: Sequence[str] | None = None) -> int:
    """Parse the flags, run, print the report; the exit status (see the module docstring)."""
    parser = argparse.ArgumentParser(prog="python -m bench", description="Measure trapoula (docs/benchmarks.md).")
    size = parser.add_mutually_exclusive_group()
    size.add_argument("--quick", action="store_true", help="a smoke run of every step (figures not to be read)")
    size.add_argument(
        "--full",
        action="store_true",
        help=f"the paced load plays {FULL_PACED_SECONDS:g} s instead of {FULL.paced_seconds:g}",
    )
    parser.add_argument("--json", metavar="PATH", type=Path, help="also write every figure to PATH as JSON")
    parser.add_argument(
        "--only",
        metavar="PARTS",
        type=_parts,
        default=PARTS,
        help=f"measure only these parts, comma-separated: {', '.join(sorted(PARTS))} (default: all)",
    )
    parser.add_argument("--bare-server", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--append-probe", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--memory-probe", nargs=2, metavar=("TABLES", "URL"), help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.bare_server:
        bare.serve_bare()
        return 0
    if args.append_probe:
        print(json.dumps(store.append_figures(json.loads(sys.stdin.read()))))
        return 0
    if args.memory_probe:
        count, url = args.memory_probe
        print(json.dumps(asdict(store.memory_figures(url, int(count)))))
        return 0
    plan = QUICK if args.quick else FULL
    if args.full:
        plan = dataclasses.replace(FULL, paced_seconds=FULL_PACED_SECONDS)
    err = Console(stderr=True)
    out = Console()
    if not out.is_terminal:  # a file or a pipe: wide enough for every table on its lines
        out = Console(width=170)
    began = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="trapoula-bench-") as scratch:
        columns = (TextColumn("{task.description:<52}"), BarColumn(), TextColumn("{task.completed}/{task.total}"))
        with Progress(*columns, TimeElapsedColumn(), console=err) as progress:
            bench = Bench(plan, Path(scratch), progress)
            bench.results.machine.update(_machine())
            results = bench.run(args.only)
    results.machine["seconds"] = f"{time.monotonic() - began:.0f}"
    report(results, plan, out)
    out.print(f"ran {results.machine['seconds']} s", highlight=False)
    wrong = check(results, plan)
    if args.json is not None:
        document: dict[str, Any] = {
            "plan": asdict(plan),
            "machine": results.machine,
            "figures": results.values,
            "bounds": {
                b.key: {"value": value, "bound": _bound_limit(b), "met": met}
                for b, value, met in verdicts(results, plan)
            },
            "notes": results.notes,
            "step_seconds": bench.timings,
        }
        args.json.write_text(json.dumps(document, indent=2) + "\n", encoding="utf-8")
    if wrong:
        print(f"bench: {len(wrong)} figure(s) not measured: {', '.join(wrong[:10])}", file=sys.stderr)
    return 1 if bench.failed or wrong else 0


if __name__ == "__main__":
    sys.exit(main())
