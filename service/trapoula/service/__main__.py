"""``python -m trapoula.service [flags]`` (the same as ``trapoula serve [flags]``): serve over gRPC.

Settings come from flags, then ``TRAPOULA_*`` environment variables, then defaults (see
:mod:`trapoula.service.settings`; ``--help`` lists them all).  Once serving, standard output gets
``trapoula serving on HOST:PORT`` and, when the metrics endpoint is up, ``trapoula metrics on
http://HOST:PORT/metrics`` and, when the Connect endpoint is on, ``trapoula connect on
http://HOST:PORT`` and, when it also serves the web page (``--web``), ``trapoula web on
http://HOST:PORT/``; the log goes to standard error (``--log-format``, ``--log-level``).  When both
go to the same terminal the log's own start-up lines already say these things (at ``--log-level``
``info`` or ``debug``), so the standard output lines are left out: a person reads each line once.
Stops gracefully on SIGINT or SIGTERM.

Exit status: 0 stopped; 1 the store cannot be opened or the gRPC or Connect address cannot be bound (one
line on standard error); 2 a bad flag or environment variable (one line).
"""

from __future__ import annotations

import logging
import os
import sys
from collections.abc import Callable, Sequence

from trapoula.service import logs
from trapoula.service.server import run, serve
from trapoula.service.settings import Settings

__all__ = ["main", "run", "serve"]

READY_PREFIX = "trapoula serving on "
"""The first line on standard output once serving, followed by the bound gRPC ``host:port``."""
METRICS_PREFIX = "trapoula metrics on "
"""The line on standard output once the metrics are served, followed by their URL."""
CONNECT_PREFIX = "trapoula connect on "
"""The line on standard output once the Connect endpoint serves (``--connect-address``), followed by
its base URL (``http://HOST:PORT``)."""
WEB_PREFIX = "trapoula web on "
"""The line on standard output once the web page is served (``--web``), followed by the address to open."""


def _same_terminal() -> bool:
    """True when standard output and standard error are one terminal (a person runs the server)."""
    try:
        out, err = sys.stdout.fileno(), sys.stderr.fileno()
        return os.isatty(out) and os.isatty(err) and os.path.samestat(os.fstat(out), os.fstat(err))
    except (AttributeError, OSError, ValueError):  # a stream without a file (a test's StringIO)
        return False


def _say(prefix: str, suffix: str = "") -> Callable[[str], None]:
    """A start-up line on standard output: ``prefix``, the bound address, ``suffix``."""
    return lambda address: print(f"{prefix}{address}{suffix}", flush=True)


def main(argv: Sequence[str] | None = None) -> int:
    """Parse the flags and serve until interrupted; returns the exit status (see the module docstring).

    Raises:
        SystemExit: ``--help`` (status 0) or a bad flag (status 2), from argparse.
    """
    try:
        settings = Settings.from_args(argv)
    except ValueError as exc:
        print(f"trapoula: {exc}", file=sys.stderr)
        return 2
    logs.configure(settings.log_format, settings.log_level)
    quiet = _same_terminal() and logs.LEVELS[settings.log_level] <= logging.INFO  # the log says it already
    try:
        run(
            settings,
            ready=None if quiet else _say(READY_PREFIX),
            metrics_ready=None if quiet else _say(f"{METRICS_PREFIX}http://", "/metrics"),
            connect_ready=None if quiet else _say(f"{CONNECT_PREFIX}http://"),
            web_ready=None if quiet else _say(f"{WEB_PREFIX}http://", "/"),
        )
    except RuntimeError as exc:
        print(f"trapoula: {exc}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        pass
    return 0


if __name__ == "__main__":
    sys.exit(main())
