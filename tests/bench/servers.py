"""The processes the gRPC figures are measured against, and the PostgreSQL schema they use.

* :class:`ServerProcess` ``("trapoula")``: ``python -m trapoula.service`` on port 0, what an operator
  runs, with its default settings but the store, a free port for its metrics (so that several run
  side by side) and an ``Act`` rate limit per client of :data:`BENCH_ACT_LIMIT` (the checks run,
  none refuses).
* :class:`ServerProcess` ``("bare")``: ``python -m bench --bare-server``: a bare ``grpc.aio`` server
  (:mod:`bench.bare`): a unary call and stream messages with no work behind them, the floor any
  gRPC call in Python stands on.
* :func:`postgres_schema`: a fresh schema ``trapoula_bench_<random>`` in the database of
  ``TRAPOULA_BENCH_DATABASE_URL``, else ``TEST_DATABASE_URL``, else :data:`DEFAULT_POSTGRES_URL`;
  dropped at the end.  When none connects it says why instead.

Each process runs apart from the load generator, as a server would: the figures are not bent by
the load generator's own work on the same interpreter lock.
"""

from __future__ import annotations

import contextlib
import os
import queue
import secrets
import signal
import subprocess
import sys
import threading
import time
import urllib.request
from collections.abc import Iterator, Sequence
from pathlib import Path

import sqlalchemy
from prometheus_client.parser import text_string_to_metric_families

from trapoula.service.__main__ import METRICS_PREFIX, READY_PREFIX
from trapoula.service.settings import display_url

from .bare import READY

DEFAULT_POSTGRES_URL = "postgresql+psycopg://postgres@127.0.0.1:5432/test"
"""The PostgreSQL database tried when no URL is set."""
STARTUP_SECONDS = 60.0
"""How long a server process may take to say it serves."""
TRAPOULA_READY = READY_PREFIX
"""The line ``python -m trapoula.service`` prints once serving, followed by ``host:port``."""
METRICS_READY = METRICS_PREFIX
"""The line it prints once its metrics are served, followed by their URL."""
METRICS_TIMEOUT = 5.0
"""Seconds a read of a server's metrics may take."""
BENCH_ACT_LIMIT = 1_000_000
"""The ``Act`` calls a second, and at once, a client may make on a bench's trapoula server: far above
any bench load (a closed loop on one replica makes 1,000-1,300 a second on a 2-core machine)."""


class ServerProcess:
    """A server in a child process: started, its address read from its first line, stopped.

    Args:
        argv: the command line.
        ready: the line prefix it prints once serving, before ``host:port``.
        log_path: where its standard error goes.
        env: its environment.
    """

    def __init__(self, argv: Sequence[str], ready: str, log_path: Path, env: dict[str, str] | None = None) -> None:
        self.argv = list(argv)
        self.ready = ready
        self.log_path = log_path
        self.env = env
        self.address = ""
        """``host:port`` it listens on, once :meth:`start` returned."""
        self.metrics_url = ""
        """Where its metrics are served (:data:`METRICS_READY`), once it said so; else empty."""
        self.process: subprocess.Popen[str] | None = None
        self._lines: queue.SimpleQueue[str | None] = queue.SimpleQueue()

    @classmethod
    def trapoula(
        cls, database_url: str, log_path: Path, schema: str | None = None, act_limit: int = BENCH_ACT_LIMIT
    ) -> ServerProcess:
        """``python -m trapoula.service`` on ``127.0.0.1:0`` with the store ``database_url``, as a
        serving replica: ``--projection off`` (the read models are kept by a replica of their own,
        docs/replicas.md; the bench reads none of them); ``Act`` calls a client may make a second,
        and at once: ``act_limit``."""
        argv = [
            sys.executable,
            "-m",
            "trapoula.service",
            "--address",
            "127.0.0.1:0",
            "--database-url",
            database_url,
            "--projection",
            "off",
        ]
        if schema:
            argv += ["--database-schema", schema]
        env = {k: v for k, v in os.environ.items() if not k.startswith("TRAPOULA_") and k != "PYTHONPATH"}
        env["TRAPOULA_SECRET"] = secrets.token_hex(32)
        env["TRAPOULA_METRICS_ADDRESS"] = "127.0.0.1:0"  # servers side by side: no fixed port to share
        # The limits per client stay on (their checks are part of an Act's cost), at an Act rate no
        # bench load reaches: a closed loop on a fast machine runs past the default 1,000 a second,
        # and a refused call would be measured as a cheap Act (or, through the client, a slow one).
        env["TRAPOULA_LIMIT_ACT_PER_SECOND"] = str(act_limit)
        env["TRAPOULA_LIMIT_ACT_BURST"] = str(act_limit)
        return cls(argv, TRAPOULA_READY, log_path, env)

    @classmethod
    def bare(cls, log_path: Path) -> ServerProcess:
        """The bare server (``python -m bench --bare-server``) on ``127.0.0.1:0``."""
        return cls([sys.executable, "-m", "bench", "--bare-server"], READY, log_path, bench_env())

    def launch(self) -> ServerProcess:
        """Start the process, without waiting for it to serve (see :meth:`wait`)."""
        log = self.log_path.open("a", encoding="utf-8")
        self.process = subprocess.Popen(self.argv, stdout=subprocess.PIPE, stderr=log, text=True, env=self.env)
        log.close()
        stdout = self.process.stdout
        assert stdout is not None

        def read() -> None:
            for line in stdout:
                if line.startswith(METRICS_READY):
                    self.metrics_url = line[len(METRICS_READY) :].strip()
                self._lines.put(line)
            self._lines.put(None)

        threading.Thread(target=read, name="bench-server-stdout", daemon=True).start()
        return self

    def wait(self) -> ServerProcess:
        """Wait until the launched process serves; its address is then :attr:`address`.

        Raises:
            RuntimeError: it exited or did not say it serves within :data:`STARTUP_SECONDS`; the
                message holds the end of its log.  The process is stopped.
        """
        deadline = time.monotonic() + STARTUP_SECONDS
        while not self.address and time.monotonic() < deadline:
            try:
                line = self._lines.get(timeout=0.2)
            except queue.Empty:
                continue
            if line is None:
                break
            if line.startswith(self.ready):
                self.address = line[len(self.ready) :].strip()
        if not self.address:
            self.stop()
            raise RuntimeError(f"{' '.join(self.argv[1:4])} did not start; its log ends:\n{self.log_tail()}")
        return self

    def start(self) -> ServerProcess:
        """:meth:`launch`, then :meth:`wait`.

        Raises:
            RuntimeError: as :meth:`wait`.
        """
        return self.launch().wait()

    def stop(self, timeout: float = 20.0) -> None:
        """SIGTERM, then SIGKILL if it has not ended within ``timeout`` seconds."""
        process = self.process
        if process is None or process.poll() is not None:
            return
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(timeout=10)

    def cpu_seconds(self) -> float | None:
        """The process's CPU time so far (user and system, s), from ``/proc``: the sum of its
        threads' run time in nanoseconds (``task/*/schedstat``), else its clock ticks (``stat``,
        1/100 s: too coarse for a short window); None where it cannot be read (not Linux, not
        running)."""
        if self.process is None:
            return None
        try:
            total = 0
            for task in os.listdir(f"/proc/{self.process.pid}/task"):
                with open(f"/proc/{self.process.pid}/task/{task}/schedstat", encoding="ascii") as sched:
                    total += int(sched.read().split()[0])
            if total:
                return total / 1e9
        except (OSError, IndexError, ValueError):
            pass
        return stat_cpu_seconds(self.process.pid)

    def histogram(self, name: str, **labels: str) -> list[tuple[float, float]] | None:
        """The cumulative buckets ``(le, count)`` of the server's histogram ``name`` (its samples
        with ``labels``; ``le`` in the histogram's unit, seconds for trapoula's), read from its
        metrics now, ``le`` ascending; None where it serves none, or they cannot be read."""
        if not self.metrics_url:
            return None
        try:
            with urllib.request.urlopen(self.metrics_url, timeout=METRICS_TIMEOUT) as reply:
                text = reply.read().decode("utf-8")
        except (OSError, ValueError):
            return None
        buckets = [
            (float(sample.labels["le"]), float(sample.value))
            for family in text_string_to_metric_families(text)
            if family.name == name
            for sample in family.samples
            if sample.name == f"{name}_bucket" and all(sample.labels.get(k) == v for k, v in labels.items())
        ]
        return sorted(buckets) or None

    def log_tail(self, lines: int = 20) -> str:
        """The last ``lines`` lines of its log."""
        try:
            return "\n".join(self.log_path.read_text(encoding="utf-8", errors="replace").splitlines()[-lines:])
        except OSError:
            return "(no log)"

    def __enter__(self) -> ServerProcess:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()


def bench_env() -> dict[str, str]:
    """This process's environment, with the folder holding this package on ``PYTHONPATH`` (for
    ``python -m bench`` in a child process)."""
    env = dict(os.environ)
    here = str(Path(__file__).resolve().parent.parent)
    env["PYTHONPATH"] = os.pathsep.join(p for p in (here, env.get("PYTHONPATH", "")) if p)
    return env


def postgres_url() -> str:
    """``TRAPOULA_BENCH_DATABASE_URL``, else ``TEST_DATABASE_URL``, else :data:`DEFAULT_POSTGRES_URL`."""
    return os.environ.get("TRAPOULA_BENCH_DATABASE_URL") or os.environ.get("TEST_DATABASE_URL") or DEFAULT_POSTGRES_URL


def _one_line(exc: BaseException) -> str:
    lines = str(exc).strip().splitlines()
    return f"{type(exc).__name__}: {lines[0][:200]}" if lines else type(exc).__name__


@contextlib.contextmanager
def postgres_schema(url: str) -> Iterator[tuple[str | None, str]]:
    """A fresh schema in the database of ``url``: yields ``(schema, server version)``, or
    ``(None, why it cannot be had)``; the schema is dropped at the end."""
    schema = f"trapoula_bench_{secrets.token_hex(6)}"
    try:
        engine = sqlalchemy.create_engine(url, connect_args={"connect_timeout": 5})
    except Exception as exc:  # a bad URL, no driver
        yield None, f"PostgreSQL at {display_url(url)} cannot be used: {_one_line(exc)}"
        return
    try:
        with engine.begin() as conn:
            conn.execute(sqlalchemy.text(f'CREATE SCHEMA "{schema}"'))
            version = str(conn.execute(sqlalchemy.text("SHOW server_version")).scalar()).split()[0]
    except Exception as exc:  # unreachable, refused, no rights
        engine.dispose()
        yield None, f"PostgreSQL at {display_url(url)} cannot be used: {_one_line(exc)}"
        return
    try:
        yield schema, version
    finally:
        with contextlib.suppress(Exception), engine.begin() as conn:
            conn.execute(sqlalchemy.text(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE'))
        engine.dispose()


_POSTGRES_SEEN: dict[tuple[int, str], float] = {}
"""CPU time (s) of every PostgreSQL process read so far, at its last reading, by ``(pid, its start
time)`` (a pid used again is another process)."""


def postgres_cpu_seconds() -> float | None:
    """The CPU time so far (user and system, s) of the PostgreSQL processes of this machine (those
    whose ``/proc/<pid>/comm`` is ``postgres``: the server and its backends), never less than at
    an earlier call: a process that ended meanwhile (another test's connection closed) counts at
    its last reading instead of taking its time out of the sum; None where there is no ``/proc``
    or no such process (the database runs elsewhere)."""
    try:
        pids = [p for p in os.listdir("/proc") if p.isdigit()]
    except OSError:
        return None
    found = False
    for pid in pids:
        try:
            with open(f"/proc/{pid}/comm", encoding="ascii", errors="replace") as comm:
                if comm.read().strip() != "postgres":
                    continue
            with open(f"/proc/{pid}/stat", encoding="ascii", errors="replace") as stat:
                fields = stat.read().rsplit(")", 1)[1].split()
            seconds = (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")  # utime, stime
            started = fields[19]  # starttime, in clock ticks after boot
        except (OSError, IndexError, ValueError):
            continue  # ended meanwhile, or not readable
        _POSTGRES_SEEN[(int(pid), started)] = seconds
        found = True
    return sum(_POSTGRES_SEEN.values()) if found else None


def stat_cpu_seconds(pid: int) -> float | None:
    """The CPU time so far (user and system, s) of process ``pid``, from ``/proc/<pid>/stat`` (in
    clock ticks, 1/100 s on Linux); None where it cannot be read (no ``/proc``, the process ended)."""
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii", errors="replace") as stat:
            fields = stat.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")  # utime, stime
    except (OSError, IndexError, ValueError):
        return None
