"""Real server processes and a cuttable TCP proxy, for the replica and fault tests.

:class:`ServerProcess` runs ``python -m trapoula.service`` as a child process (what an operator
runs), reads the bound address from its ``trapoula serving on HOST:PORT`` line, and can be
stopped with SIGTERM or killed with SIGKILL.  Its log goes to a file the test can show.

:class:`TcpProxy` forwards a local port to the database; :meth:`TcpProxy.cut` closes every
connection and refuses new ones (the database "unreachable"), :meth:`TcpProxy.restore` lets
connections through again on the same port.
"""

from __future__ import annotations

import contextlib
import os
import queue
import select
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator, Sequence
from pathlib import Path

import sqlalchemy

STARTUP_SECONDS = 30.0
"""How long a server process may take to report that it serves."""
READY_PREFIX = "trapoula serving on "


class ServerProcess:
    """One ``python -m trapoula.service`` child process.

    Args:
        database_url: the store (``--database-url``).
        log_path: where the process's log (stderr) goes.
        schema: ``--database-schema`` (PostgreSQL), or None.
        address: ``--address``; port 0 picks a free port (see :attr:`address` once started).
        secret_hex: ``TRAPOULA_SECRET``.
        extra: more flags.
    """

    def __init__(
        self,
        database_url: str,
        log_path: Path,
        *,
        schema: str | None = None,
        address: str = "127.0.0.1:0",
        secret_hex: str = "5e" * 32,
        extra: Sequence[str] = (),
    ) -> None:
        self.database_url = database_url
        self.log_path = log_path
        self.schema = schema
        self.wanted = address
        self.secret_hex = secret_hex
        self.extra = tuple(extra)
        self.address = ""
        """``host:port`` the server listens on, once :meth:`start` returned."""
        self.process: subprocess.Popen[str] | None = None

    def start(self) -> ServerProcess:
        """Start the process and wait until it serves.

        Raises:
            RuntimeError: it exited or did not report within :data:`STARTUP_SECONDS`; the
                message holds the end of its log.
        """
        argv = [sys.executable, "-m", "trapoula.service", "--address", self.wanted, "--database-url", self.database_url]
        if self.schema:
            argv += ["--database-schema", self.schema]
        argv += list(self.extra)
        env = {k: v for k, v in os.environ.items() if not k.startswith("TRAPOULA_")}
        env["TRAPOULA_SECRET"] = self.secret_hex
        log = self.log_path.open("a", encoding="utf-8")
        self.process = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=log, text=True, env=env)
        log.close()
        lines: queue.SimpleQueue[str | None] = queue.SimpleQueue()
        stdout = self.process.stdout
        assert stdout is not None

        def read() -> None:
            for line in stdout:
                lines.put(line)
            lines.put(None)

        threading.Thread(target=read, name="server-stdout", daemon=True).start()
        deadline = time.monotonic() + STARTUP_SECONDS
        while time.monotonic() < deadline:
            try:
                line = lines.get(timeout=0.2)
            except queue.Empty:
                continue
            if line is None:
                break
            if line.startswith(READY_PREFIX):
                self.address = line[len(READY_PREFIX) :].strip()
                return self
        self.kill()
        raise RuntimeError(f"the server did not start; its log ends:\n{self.log_tail()}")

    @property
    def pid(self) -> int:
        """The process id."""
        assert self.process is not None
        return self.process.pid

    def kill(self) -> None:
        """SIGKILL: the process dies at once, mid-call, without any cleanup."""
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGKILL)
            self.process.wait(timeout=10)

    def terminate(self, timeout: float = 20.0) -> int:
        """SIGTERM and wait for the exit; returns the exit status.

        Raises:
            subprocess.TimeoutExpired: it did not exit within ``timeout`` seconds.
        """
        assert self.process is not None
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
        return self.process.wait(timeout=timeout)

    def log_tail(self, lines: int = 40) -> str:
        """The last lines of the process's log."""
        try:
            text = self.log_path.read_text(encoding="utf-8", errors="replace")
        except OSError:
            return "(no log)"
        return "\n".join(text.splitlines()[-lines:])


class TcpProxy:
    """Forward ``127.0.0.1:<port>`` to ``target`` until :meth:`cut`; :meth:`restore` reopens it.

    Each accepted connection is relayed by one thread; :meth:`cut` closes the listening socket and
    every relayed connection (both sides see a reset), so a database behind the proxy is
    unreachable until :meth:`restore`.
    """

    def __init__(self, target_host: str, target_port: int) -> None:
        self.target = (target_host, target_port)
        self.port = 0
        self._listener: socket.socket | None = None
        self._lock = threading.Lock()
        self._open: set[socket.socket] = set()
        self._stop = threading.Event()
        self.connections = 0
        """Connections accepted so far."""

    def start(self) -> TcpProxy:
        """Listen (on a free port the first time, on the same port after a cut)."""
        listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        listener.bind(("127.0.0.1", self.port))
        listener.listen(128)
        self.port = listener.getsockname()[1]
        self._listener = listener
        self._stop.clear()
        threading.Thread(target=self._accept, args=(listener,), name="proxy-accept", daemon=True).start()
        return self

    def _accept(self, listener: socket.socket) -> None:
        while not self._stop.is_set():
            try:
                client, _ = listener.accept()
            except OSError:
                return
            try:
                upstream = socket.create_connection(self.target, timeout=5)
            except OSError:
                client.close()
                continue
            upstream.settimeout(None)
            with self._lock:
                if self._stop.is_set():
                    client.close()
                    upstream.close()
                    return
                self._open.update((client, upstream))
                self.connections += 1
            threading.Thread(target=self._relay, args=(client, upstream), name="proxy-relay", daemon=True).start()

    def _relay(self, a: socket.socket, b: socket.socket) -> None:
        peers = {a: b, b: a}
        try:
            while True:
                ready, _, _ = select.select([a, b], [], [], 0.5)
                for sock in ready:
                    data = sock.recv(65536)
                    if not data:
                        return
                    peers[sock].sendall(data)
        except (OSError, ValueError):
            return
        finally:
            for sock in (a, b):
                with contextlib.suppress(OSError):
                    sock.close()
                with self._lock:
                    self._open.discard(sock)

    def cut(self) -> None:
        """Close the listener and every relayed connection: the target is unreachable."""
        self._stop.set()
        if self._listener is not None:
            with contextlib.suppress(OSError):
                self._listener.shutdown(socket.SHUT_RDWR)  # wakes the thread blocked in accept()
            with contextlib.suppress(OSError):
                self._listener.close()
            self._listener = None
        with self._lock:
            doomed = list(self._open)
            self._open.clear()
        for sock in doomed:
            with contextlib.suppress(OSError):
                sock.shutdown(socket.SHUT_RDWR)
            with contextlib.suppress(OSError):
                sock.close()

    def restore(self) -> None:
        """Accept connections again on the same port."""
        self.start()


def proxied_url(url: str, port: int) -> str:
    """``url`` (a PostgreSQL SQLAlchemy URL) pointed at ``127.0.0.1:port``."""
    return sqlalchemy.engine.make_url(url).set(host="127.0.0.1", port=port).render_as_string(hide_password=False)


def target_of(url: str) -> tuple[str, int]:
    """``(host, port)`` of a PostgreSQL URL (port 5432 when unset)."""
    parsed = sqlalchemy.engine.make_url(url)
    return parsed.host or "127.0.0.1", parsed.port or 5432


@contextlib.contextmanager
def servers(log_dir: Path) -> Iterator[list[ServerProcess]]:
    """A list to put started :class:`ServerProcess` in; every one still running is killed at the end."""
    started: list[ServerProcess] = []
    try:
        yield started
    finally:
        for server in started:
            server.kill()


@contextlib.contextmanager
def fresh_schema(url: str) -> Iterator[str]:
    """A new PostgreSQL schema ``trapoula_test_<random>`` in the database of ``url``, dropped at the end."""
    schema = f"trapoula_test_{os.urandom(6).hex()}"
    engine = sqlalchemy.create_engine(url)
    try:
        with engine.begin() as conn:
            conn.execute(sqlalchemy.text(f'CREATE SCHEMA "{schema}"'))
        yield schema
    finally:
        with engine.begin() as conn:
            conn.execute(sqlalchemy.text(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE'))
        engine.dispose()


def free_port() -> int:
    """A TCP port of 127.0.0.1 that nothing listens on now."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])
