"""The table of the service settings (:data:`SETTINGS`) and what is made from it: the Markdown table
of the docs (:func:`settings_table`) and the parser of the flags of ``trapoula serve``, with its
``--help`` (:func:`build_parser`).

Each row names a :class:`~trapoula.service.settings.Settings` field, its flag and variable, its
default as the docs show it, what it does, and the parser of its text
(:mod:`trapoula.service.settingvalues`).  The docstring of :mod:`trapoula.service.settings` and
the README show the same table, and a test keeps the three equal.
"""

from __future__ import annotations

import argparse
import re
import textwrap
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, NoReturn, TypeVar

from trapoula.service.settingvalues import (
    DEFAULT_ADDRESS,
    DEFAULT_AUTO_WORKERS,
    DEFAULT_CACHE_SIZE,
    DEFAULT_DATABASE_URL,
    DEFAULT_LIMIT_ACT_BURST,
    DEFAULT_LIMIT_ACT_PER_SECOND,
    DEFAULT_LIMIT_CREATE_BURST,
    DEFAULT_LIMIT_CREATE_PER_SECOND,
    DEFAULT_LIMIT_JOIN_BURST,
    DEFAULT_LIMIT_JOIN_PER_SECOND,
    DEFAULT_MAX_OPEN_TABLES,
    DEFAULT_MAX_WATCHES,
    DEFAULT_METRICS_ADDRESS,
    DEFAULT_RECENT_STATES,
    DEFAULT_SNAPSHOT_EVERY,
    DEFAULT_WATCH_POLL_SECONDS,
    check_address,
    parse_auto_workers,
    parse_cache_size,
    parse_connect_address,
    parse_cors_origins,
    parse_database_url,
    parse_limit,
    parse_log_format,
    parse_log_level,
    parse_metrics_address,
    parse_per_second,
    parse_poll_seconds,
    parse_recent_states,
    parse_schema,
    parse_secret,
    parse_snapshot_every,
    parse_switch,
    read_secret_file,
)

T = TypeVar("T")

PROG = "trapoula serve"
"""The program name shown by ``--help`` and in usage errors (``python -m trapoula.service`` takes the
same flags)."""


@dataclass(frozen=True, slots=True)
class Setting:
    """One row of the settings table: a :class:`~trapoula.service.settings.Settings` field, its flag and variable."""

    field: str
    """The :class:`~trapoula.service.settings.Settings` field it sets (``secret`` for both secret rows)."""
    flag: str
    """``--flag``; empty for ``TRAPOULA_SECRET``, which has none."""
    env: str
    """The environment variable."""
    metavar: str
    """The flag's value in ``--help``."""
    default: str
    """The default, as the table shows it."""
    meaning: str
    """What it does (Markdown: backticks and links)."""
    parse: Callable[[str], Any]
    """Text to value; raises ``ValueError`` naming the value."""


def _rate(name: str, method: str, per_second: float, burst: int) -> tuple[Setting, Setting]:
    """The two rows of one rate limit per client (:mod:`trapoula.service.limits`)."""
    flag, env = f"--limit-{name}", f"TRAPOULA_LIMIT_{name.upper()}"
    return (
        Setting(
            f"limit_{name}_per_second", f"{flag}-per-second", f"{env}_PER_SECOND", "CALLS", f"`{per_second:g}`",
            f"`{method}` calls a second per client, sustained, once its burst is spent; 0 for no limit "
            "([docs/operations.md](docs/operations.md#limits))",
            parse_per_second,
        ),
        Setting(
            f"limit_{name}_burst", f"{flag}-burst", f"{env}_BURST", "CALLS", f"`{burst}`",
            f"`{method}` calls a client may make at once; 0 for no limit", parse_limit,
        ),
    )  # fmt: skip


LIMITS: tuple[Setting, ...] = (
    *_rate("create", "CreateTable", DEFAULT_LIMIT_CREATE_PER_SECOND, DEFAULT_LIMIT_CREATE_BURST),
    *_rate("join", "JoinTable", DEFAULT_LIMIT_JOIN_PER_SECOND, DEFAULT_LIMIT_JOIN_BURST),
    *_rate("act", "Act", DEFAULT_LIMIT_ACT_PER_SECOND, DEFAULT_LIMIT_ACT_BURST),
    Setting(
        "max_open_tables", "--max-open-tables", "TRAPOULA_MAX_OPEN_TABLES", "TABLES", f"`{DEFAULT_MAX_OPEN_TABLES}`",
        "tables a client may own whose match has not ended (nor stood still for 10 minutes), counted by each "
        "replica; 0 for no limit",
        parse_limit,
    ),
    Setting(
        "max_watches", "--max-watches", "TRAPOULA_MAX_WATCHES", "STREAMS", f"`{DEFAULT_MAX_WATCHES}`",
        "`WatchTable` streams a client may hold open on a replica; 0 for no limit", parse_limit,
    ),
)  # fmt: skip
"""The limits per client (a client: its verified identity, else its IP address)."""


SETTINGS: tuple[Setting, ...] = (
    Setting(
        "address", "--address", "TRAPOULA_ADDRESS", "HOST:PORT", f"`{DEFAULT_ADDRESS}`",
        "where the gRPC server listens (`host:port`; port 0 picks a free port)", check_address,
    ),
    Setting(
        "database_url", "--database-url", "TRAPOULA_DATABASE_URL", "URL", f"`{DEFAULT_DATABASE_URL}`",
        "the event store, a SQLAlchemy URL; PostgreSQL: `postgresql+psycopg://user@host:5432/db`",
        parse_database_url,
    ),
    Setting(
        "database_schema", "--database-schema", "TRAPOULA_DATABASE_SCHEMA", "SCHEMA", "none (the default schema)",
        "PostgreSQL schema holding the event tables (it must exist: `CREATE SCHEMA ...`)", parse_schema,
    ),
    Setting(
        "watch_poll_seconds", "--watch-poll-seconds", "TRAPOULA_WATCH_POLL_SECONDS", "SECONDS",
        f"`{DEFAULT_WATCH_POLL_SECONDS:g}`",
        "how often an idle watch stream re-reads the store (a change wakes it at once); 0.05 to 3600",
        parse_poll_seconds,
    ),
    Setting(
        "snapshot_every", "--snapshot-every", "TRAPOULA_SNAPSHOT_EVERY", "EVENTS", f"`{DEFAULT_SNAPSHOT_EVERY}`",
        "events between two snapshots of a table, so loading a long match does not replay it all "
        "([docs/storage.md](docs/storage.md)); 0 for none",
        parse_snapshot_every,
    ),
    Setting(
        "cache_size", "--cache-size", "TRAPOULA_CACHE_SIZE", "TABLES", f"`{DEFAULT_CACHE_SIZE}`",
        "tables kept in memory (more: fewer store reads, more memory); 1 to 1000000", parse_cache_size,
    ),
    Setting(
        "recent_states", "--recent-states", "TRAPOULA_RECENT_STATES", "STATES", f"`{DEFAULT_RECENT_STATES}`",
        "latest folded states each table in memory keeps, so a woken watcher renders new events without "
        "folding again (more: fewer folds, more memory); 1 to 4096",
        parse_recent_states,
    ),
    Setting(
        "auto_workers", "--auto-workers", "TRAPOULA_AUTO_WORKERS", "THREADS", f"`{DEFAULT_AUTO_WORKERS}`",
        "threads playing the bots' moves and automatic deals in the background; 1 to 64", parse_auto_workers,
    ),
    Setting(
        "projection", "--projection", "TRAPOULA_PROJECTION", "on|off", "`on`",
        "`on` or `off`: whether this server keeps the read models up to date (at least one server must)",
        parse_switch,
    ),
    Setting(
        "metrics_address", "--metrics-address", "TRAPOULA_METRICS_ADDRESS", "HOST:PORT|off",
        f"`{DEFAULT_METRICS_ADDRESS}`",
        "where Prometheus metrics are served over HTTP (`host:port`, port 0 picks a free port), or `off` "
        "([docs/operations.md](docs/operations.md))",
        parse_metrics_address,
    ),
    Setting(
        "connect_address", "--connect-address", "TRAPOULA_CONNECT_ADDRESS", "HOST:PORT|off", "`off`",
        "where the same service is also served over the Connect protocol, HTTP/1.1, for browsers (`host:port`, "
        "port 0 picks a free port), or `off` ([docs/browser.md](docs/browser.md))",
        parse_connect_address,
    ),
    Setting(
        "cors_origins", "--cors-origins", "TRAPOULA_CORS_ORIGINS", "ORIGINS", "none",
        "origins whose pages may call the Connect endpoint: comma-separated `scheme://host[:port]`, or `*` "
        "for any; none: same-origin calls only",
        parse_cors_origins,
    ),
    Setting(
        "log_format", "--log-format", "TRAPOULA_LOG_FORMAT", "text|json", "`text`",
        "`text` or `json` (one JSON object a line), on standard error ([docs/operations.md](docs/operations.md))",
        parse_log_format,
    ),
    Setting(
        "log_level", "--log-level", "TRAPOULA_LOG_LEVEL", "LEVEL", "`info`",
        "`debug` (one line per call), `info`, `warning` or `error`", parse_log_level,
    ),
    *LIMITS,
    Setting(
        "secret", "--secret-file", "TRAPOULA_SECRET_FILE", "PATH", "none",
        "a file holding the hex server secret (the safe way to pass it)", read_secret_file,
    ),
    Setting(
        "secret", "", "TRAPOULA_SECRET", "", "random per process",
        "the hex server secret itself, an even number of hex digits, at least 32"
        " (no flag: a flag would show in the process list)",
        parse_secret,
    ),
)  # fmt: skip
"""Every setting, in the order of the table and of ``--help``."""


def settings_table() -> str:
    """The Markdown table of :data:`SETTINGS` (the module docstring and the README show it)."""
    lines = ["| flag | environment | default | meaning |", "|---|---|---|---|"]
    for s in SETTINGS:
        flag = f"| `{s.flag}` |" if s.flag else "| |"
        lines.append(f"{flag} `{s.env}` | {s.default} | {s.meaning} |")
    return "\n".join(lines) + "\n"


def _plain(text: str) -> str:
    """``text`` without Markdown: no backticks, ``[name](target)`` as ``name``."""
    return re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", text).replace("`", "")


EPILOG = "\n\n".join(
    textwrap.fill(paragraph, 78)
    for paragraph in (
        "Every flag may be set instead by its environment variable: "
        + ", ".join(s.env for s in SETTINGS if s.flag)
        + ".  A flag wins over its variable, a variable over the default; an empty variable counts as unset.",
        "TRAPOULA_SECRET holds the hex server secret itself (no flag, so that it never shows in the process "
        "list); --secret-file or TRAPOULA_SECRET_FILE names a file holding it.  Without either, each process "
        "draws a random secret, which is safe (docs/operations.md).",
        "Exit status: 0 stopped by SIGINT or SIGTERM; 1 the store cannot be opened or the gRPC or Connect "
        "address cannot be bound; 2 a bad flag or variable.",
    )
)
"""The epilog of ``--help``."""


class _Parser(argparse.ArgumentParser):
    """argparse whose usage errors are one line: ``trapoula serve: argument --x: why (see --help)``."""

    def error(self, message: str) -> NoReturn:
        """Print one line and exit with status 2."""
        self.exit(2, f"{self.prog}: {message} (see {self.prog} --help)\n")


def _argument(parse: Callable[[str], T]) -> Callable[[str], T]:
    """``parse`` as an argparse type: its ``ValueError`` becomes the flag's usage error."""

    def convert(text: str) -> T:
        try:
            return parse(text)
        except ValueError as exc:
            raise argparse.ArgumentTypeError(str(exc)) from None

    return convert


def build_parser() -> argparse.ArgumentParser:
    """The parser of ``trapoula serve`` (and ``python -m trapoula.service``): every flag of
    :data:`SETTINGS`, each help naming its variable and default; a flag not given is absent
    from the parsed namespace (``argparse.SUPPRESS``), so ``vars(args)`` holds the given ones."""
    parser = _Parser(
        prog=PROG,
        description=textwrap.fill(
            "Serve trapoula over gRPC (also: python -m trapoula.service).  Settings come from the flags, then "
            "the TRAPOULA_* environment variables, then the defaults.",
            78,
        ),
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    for s in SETTINGS:
        if s.flag:
            parser.add_argument(
                s.flag,
                dest=s.field,
                metavar=s.metavar,
                default=argparse.SUPPRESS,
                type=_argument(s.parse),
                help=f"{_plain(s.meaning)} (env {s.env}; default {_plain(s.default)})",
            )
    return parser
