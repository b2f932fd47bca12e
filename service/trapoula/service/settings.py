"""Service settings from command-line flags, then ``TRAPOULA_*`` environment variables, then defaults.

| flag | environment | default | meaning |
|---|---|---|---|
| `--address` | `TRAPOULA_ADDRESS` | `127.0.0.1:50051` | where the gRPC server listens (`host:port`; port 0 picks a free port) |
| `--database-url` | `TRAPOULA_DATABASE_URL` | `sqlite:///trapoula.sqlite3` | the event store, a SQLAlchemy URL; PostgreSQL: `postgresql+psycopg://user@host:5432/db` |
| `--database-schema` | `TRAPOULA_DATABASE_SCHEMA` | none (the default schema) | PostgreSQL schema holding the event tables (it must exist: `CREATE SCHEMA ...`) |
| `--watch-poll-seconds` | `TRAPOULA_WATCH_POLL_SECONDS` | `5` | how often an idle watch stream re-reads the store (a change wakes it at once); 0.05 to 3600 |
| `--snapshot-every` | `TRAPOULA_SNAPSHOT_EVERY` | `512` | events between two snapshots of a table, so loading a long match does not replay it all ([docs/storage.md](docs/storage.md)); 0 for none |
| `--cache-size` | `TRAPOULA_CACHE_SIZE` | `1000` | tables kept in memory (more: fewer store reads, more memory); 1 to 1000000 |
| `--auto-workers` | `TRAPOULA_AUTO_WORKERS` | `2` | threads playing the bots' moves and automatic deals in the background; 1 to 64 |
| `--projection` | `TRAPOULA_PROJECTION` | `on` | `on` or `off`: whether this server keeps the read models up to date (at least one server must) |
| `--metrics-address` | `TRAPOULA_METRICS_ADDRESS` | `127.0.0.1:9464` | where Prometheus metrics are served over HTTP (`host:port`, port 0 picks a free port), or `off` ([docs/operations.md](docs/operations.md)) |
| `--log-format` | `TRAPOULA_LOG_FORMAT` | `text` | `text` or `json` (one JSON object a line), on standard error ([docs/operations.md](docs/operations.md)) |
| `--log-level` | `TRAPOULA_LOG_LEVEL` | `info` | `debug` (one line per call), `info`, `warning` or `error` |
| `--secret-file` | `TRAPOULA_SECRET_FILE` | none | a file holding the hex server secret (the safe way to pass it) |
| | `TRAPOULA_SECRET` | random per process | the hex server secret itself, an even number of hex digits, at least 32 (no flag: a flag would show in the process list) |

A flag wins over its variable, and a variable over the default; an empty variable counts as
unset.  A bad value is refused with one line naming the flag or the variable, before anything
starts.  ``TRAPOULA_SECRET`` and ``TRAPOULA_SECRET_FILE`` may not both be set (``--secret-file``
wins over both).

A watcher is woken as soon as its table changes (by this server, or through PostgreSQL's
LISTEN/NOTIFY by another replica); it also re-reads the store every ``watch poll seconds`` in
case a wake-up was lost (a dropped database connection).

The secret (hex) is the key every hand's seed derives from; it never enters the event log and is
never logged.  A random per-process secret is safe: each hand's seed is stored (hidden) in its
``HandStarted`` event, so a restarted server needs no old secret to continue or to reveal a hand.

:data:`SETTINGS` holds the table above; :func:`settings_table` renders it (the README shows the
same table, and a test keeps the three equal).
"""  # noqa: E501

from __future__ import annotations

import argparse
import os
import re
import secrets
import textwrap
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, NoReturn, TypeVar

T = TypeVar("T")

DEFAULT_ADDRESS = "127.0.0.1:50051"
"""Where the gRPC server listens by default."""
DEFAULT_DATABASE_URL = "sqlite:///trapoula.sqlite3"
"""The default event store: a SQLite file in the current folder."""
DEFAULT_WATCH_POLL_SECONDS = 5.0
"""How often an idle watch stream re-reads the store by default (seconds)."""
MAX_WATCH_POLL_SECONDS = 3600.0
"""The longest poll interval accepted (seconds)."""
DEFAULT_SNAPSHOT_EVERY = 512
"""A table's snapshot is taken each time its version passes a multiple of this (docs/storage.md)."""
MAX_SNAPSHOT_EVERY = 1_000_000
"""The largest snapshot interval accepted."""
DEFAULT_CACHE_SIZE = 1000
"""Tables kept in memory by default (``Tables(cache_size=...)``)."""
MAX_CACHE_SIZE = 1_000_000
"""The largest table cache accepted."""
DEFAULT_AUTO_WORKERS = 2
"""Background threads for automatic play by default (``Tables(auto_workers=...)``)."""
MAX_AUTO_WORKERS = 64
"""The most background threads for automatic play accepted."""
DEFAULT_METRICS_ADDRESS = "127.0.0.1:9464"
"""Where Prometheus metrics are served by default (9464: the port commonly used for an
application's own Prometheus exporter)."""
LOG_FORMATS = ("text", "json")
"""The values of ``--log-format``."""
LOG_LEVELS = ("debug", "info", "warning", "error")
"""The values of ``--log-level``."""
MAX_SECRET_FILE_BYTES = 4096
"""The largest secret file read (a secret is a few dozen hex digits)."""
PROG = "trapoula serve"
"""The program name shown by ``--help`` and in usage errors (``python -m trapoula.service`` takes the
same flags)."""


def _random_secret() -> bytes:
    return secrets.token_bytes(32)


@dataclass(frozen=True, slots=True)
class Settings:
    """Everything the service needs to run (see the module docstring for each setting)."""

    address: str = DEFAULT_ADDRESS
    """``host:port`` to listen on; port 0 picks a free port."""
    database_url: str = DEFAULT_DATABASE_URL
    """A SQLAlchemy URL: ``sqlite:///file.sqlite3`` or ``postgresql+psycopg://user@host:5432/db``."""
    database_schema: str | None = None
    """A PostgreSQL schema for the event tables (None: the default schema)."""
    secret: bytes = field(default_factory=_random_secret, repr=False)
    """The server secret seeds derive from (never stored, never logged)."""
    watch_poll_seconds: float = DEFAULT_WATCH_POLL_SECONDS
    """Seconds between two reads of the store by an idle watch stream (wake-ups come sooner)."""
    snapshot_every: int = DEFAULT_SNAPSHOT_EVERY
    """Events between two snapshots of a table (0: none; every cold load replays the whole log)."""
    cache_size: int = DEFAULT_CACHE_SIZE
    """Tables kept in memory (each brought up to date from the store when read)."""
    auto_workers: int = DEFAULT_AUTO_WORKERS
    """Background threads playing automatic moves (bots, automatic deals) for all tables."""
    projection: bool = True
    """Whether this server keeps the read models up to date."""
    metrics_address: str | None = DEFAULT_METRICS_ADDRESS
    """``host:port`` of the Prometheus metrics endpoint (port 0: a free port); None: no endpoint."""
    log_format: str = "text"
    """``text`` or ``json`` (:data:`LOG_FORMATS`)."""
    log_level: str = "info"
    """``debug``, ``info``, ``warning`` or ``error`` (:data:`LOG_LEVELS`)."""

    @staticmethod
    def from_env(env: Mapping[str, str] | None = None) -> Settings:
        """Read the ``TRAPOULA_*`` variables of ``env`` (default: ``os.environ``); defaults for the rest.

        Raises:
            ValueError: a bad value; the message names the variable and quotes the value (never
                the secret's).
        """
        return _resolve({}, os.environ if env is None else env)

    @staticmethod
    def from_args(argv: Sequence[str] | None = None, env: Mapping[str, str] | None = None) -> Settings:
        """Flags over environment over defaults (see the module docstring).

        A variable is read only when its flag is not given, so a flag also overrides a bad variable.

        Raises:
            SystemExit: ``--help`` (status 0), or a bad flag (status 2, after one line on standard
                error naming the flag).
            ValueError: a bad environment variable; the message names it.
        """
        args = build_parser().parse_args(argv)
        return _resolve(vars(args), os.environ if env is None else env)


# --------------------------------------------------------------------------- parsers


def check_address(address: str) -> str:
    """Return ``address`` if it is ``host:port`` with a port from 0 to 65535 (``[::1]:50051`` for IPv6).

    >>> check_address("127.0.0.1:0")
    '127.0.0.1:0'

    Raises:
        ValueError: no host, no port, a port out of range, or a blank or control character in the
            host; the message names the address.

    >>> check_address("a b:0")
    Traceback (most recent call last):
    ...
    ValueError: address 'a b:0' is not host:port with a port from 0 to 65535
    """
    host, sep, port = address.rpartition(":")
    if (
        not sep
        or not host
        or not port.isascii()
        or not port.isdigit()
        or int(port) > 65535
        or any(ch.isspace() or not ch.isprintable() for ch in host)
    ):
        raise ValueError(f"address {address[:64]!r} is not host:port with a port from 0 to 65535")
    return address


def parse_metrics_address(text: str) -> str | None:
    """``off`` (any case): None, no metrics endpoint; else a ``host:port`` (:func:`check_address`).

    >>> parse_metrics_address("OFF") is None
    True
    >>> parse_metrics_address("0.0.0.0:9464")
    '0.0.0.0:9464'

    Raises:
        ValueError: neither ``off`` nor ``host:port``; the message names the value.
    """
    if text.strip().lower() == "off":
        return None
    try:
        return check_address(text.strip())
    except ValueError:
        raise ValueError(f"metrics address {text[:64]!r} is not host:port (port 0 to 65535) or off") from None


def parse_database_url(text: str) -> str:
    """A database URL: any non-blank text (the store checks it when it opens).

    Raises:
        ValueError: blank.
    """
    if not text.strip():
        raise ValueError("the database URL is empty")
    return text.strip()


def parse_schema(text: str) -> str | None:
    """A PostgreSQL schema name; blank: None (the default schema).

    >>> parse_schema(" games ")
    'games'
    """
    return text.strip() or None


def parse_poll_seconds(text: str) -> float:
    """Seconds between two reads of the store by an idle watch: a number from 0.05 to 3600.

    >>> parse_poll_seconds("2.5")
    2.5

    Raises:
        ValueError: not a number, or out of range; the message names the value.
    """
    try:
        seconds = float(text)
    except ValueError:
        seconds = -1.0
    if not 0.05 <= seconds <= MAX_WATCH_POLL_SECONDS:
        raise ValueError(f"watch poll seconds {text[:32]!r} is not a number from 0.05 to {MAX_WATCH_POLL_SECONDS:g}")
    return seconds


def _whole(text: str, what: str, low: int, high: int) -> int:
    digits = text.strip()
    value = int(digits) if digits.isascii() and digits.isdigit() and len(digits) <= 9 else -1
    if not low <= value <= high:
        raise ValueError(f"{what} {text[:32]!r} is not a whole number from {low} to {high:,}")
    return value


def parse_snapshot_every(text: str) -> int:
    """Events between two snapshots of a table: a whole number from 0 (none) to 1,000,000.

    >>> parse_snapshot_every("256")
    256

    Raises:
        ValueError: not a whole number, or out of range; the message names the value.
    """
    return _whole(text, "snapshot interval", 0, MAX_SNAPSHOT_EVERY)


def parse_cache_size(text: str) -> int:
    """Tables kept in memory: a whole number from 1 to 1,000,000.

    >>> parse_cache_size("5000")
    5000

    Raises:
        ValueError: not a whole number, or out of range; the message names the value.
    """
    return _whole(text, "cache size", 1, MAX_CACHE_SIZE)


def parse_auto_workers(text: str) -> int:
    """Background threads for automatic play: a whole number from 1 to 64.

    >>> parse_auto_workers("4")
    4

    Raises:
        ValueError: not a whole number, or out of range; the message names the value.
    """
    return _whole(text, "automatic-play workers", 1, MAX_AUTO_WORKERS)


_SWITCH = {"on": True, "true": True, "yes": True, "1": True, "off": False, "false": False, "no": False, "0": False}


def parse_switch(text: str) -> bool:
    """``on``/``off`` (also ``true``/``false``, ``yes``/``no``, ``1``/``0``; any case) as a bool.

    >>> parse_switch("Off")
    False

    Raises:
        ValueError: anything else; the message names the value.
    """
    value = _SWITCH.get(text.strip().lower())
    if value is None:
        raise ValueError(f"{text[:32]!r} is neither on nor off")
    return value


def _choice(what: str, choices: tuple[str, ...]) -> Callable[[str], str]:
    def parse(text: str) -> str:
        value = text.strip().lower()
        if value not in choices:
            raise ValueError(f"{what} {text[:32]!r} is not one of {', '.join(choices)}")
        return value

    return parse


parse_log_format = _choice("log format", LOG_FORMATS)
"""``text`` or ``json`` (any case).  Raises ``ValueError`` naming the value otherwise."""
parse_log_level = _choice("log level", LOG_LEVELS)
"""``debug``, ``info``, ``warning`` or ``error`` (any case).  Raises ``ValueError`` naming the value otherwise."""


def parse_secret(text: str) -> bytes:
    """The bytes of a hex secret (surrounding blanks ignored).

    The messages never quote the secret.

    Raises:
        ValueError: not hex, an odd number of hex digits, or fewer than 16 bytes.
    """
    digits = text.strip()
    try:
        raw = bytes.fromhex(digits)
    except ValueError:
        if len(digits) % 2 and all(ch in "0123456789abcdefABCDEF" for ch in digits):
            raise ValueError(f"the secret has {len(digits)} hex digits: it needs an even number (two a byte)") from None
        raise ValueError("the secret must be hex digits") from None
    if len(raw) < 16:
        raise ValueError("the secret must hold at least 16 bytes (32 hex digits)")
    return raw


def read_secret_file(path: str) -> bytes:
    """The hex secret held by the file at ``path`` (blanks and a final newline ignored).

    Raises:
        ValueError: the file cannot be read, is larger than 4 KiB, or does not hold a good secret
            (:func:`parse_secret`); the message names the file, never its content.
    """
    try:
        with Path(path).open("rb") as file:
            data = file.read(MAX_SECRET_FILE_BYTES + 1)
    except OSError as exc:
        raise ValueError(f"secret file {path[:200]!r}: {exc.strerror or exc}") from None
    if len(data) > MAX_SECRET_FILE_BYTES:
        raise ValueError(f"secret file {path[:200]!r} is larger than {MAX_SECRET_FILE_BYTES} bytes")
    try:
        text = data.decode("ascii")
    except UnicodeDecodeError:
        raise ValueError(f"secret file {path[:200]!r}: the secret must be hex digits") from None
    try:
        return parse_secret(text)
    except ValueError as exc:
        raise ValueError(f"secret file {path[:200]!r}: {exc}") from None


def display_url(url: str) -> str:
    """A database URL fit for a log line: the password, if any, replaced by ``***``.

    >>> display_url("postgresql+psycopg://ann:s3cret@db:5432/trapoula")
    'postgresql+psycopg://ann:***@db:5432/trapoula'
    >>> display_url("sqlite:///trapoula.sqlite3")
    'sqlite:///trapoula.sqlite3'
    """
    return re.sub(r"^([^:/?#]+://[^:/?#@]*):[^/?#]*@", r"\1:***@", url)


# --------------------------------------------------------------------------- the table


@dataclass(frozen=True, slots=True)
class Setting:
    """One row of the settings table: a :class:`Settings` field, its flag and variable."""

    field: str
    """The :class:`Settings` field it sets (``secret`` for both secret rows)."""
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
        "log_format", "--log-format", "TRAPOULA_LOG_FORMAT", "text|json", "`text`",
        "`text` or `json` (one JSON object a line), on standard error ([docs/operations.md](docs/operations.md))",
        parse_log_format,
    ),
    Setting(
        "log_level", "--log-level", "TRAPOULA_LOG_LEVEL", "LEVEL", "`info`",
        "`debug` (one line per call), `info`, `warning` or `error`", parse_log_level,
    ),
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
        "Exit status: 0 stopped by SIGINT or SIGTERM; 1 the store cannot be opened or the gRPC address cannot "
        "be bound; 2 a bad flag or variable.",
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


def _from_env(setting: Setting, env: Mapping[str, str]) -> tuple[bool, Any]:
    """``(found, value)`` of ``setting``'s variable; blank counts as unset.

    Raises:
        ValueError: a bad value; the message starts with the variable's name.
    """
    text = env.get(setting.env, "")
    if not text.strip():
        return False, None
    try:
        return True, setting.parse(text)
    except ValueError as exc:
        raise ValueError(f"{setting.env}: {exc}") from None


def _resolve(given: Mapping[str, Any], env: Mapping[str, str]) -> Settings:
    """Settings from the flags ``given`` (field -> parsed value), then ``env``, then defaults.

    Raises:
        ValueError: a bad variable (named), or both secret variables set.
    """
    values: dict[str, Any] = {}
    for s in SETTINGS:
        if s.field in values or s.field == "secret":
            continue
        if s.field in given:
            values[s.field] = given[s.field]
        else:
            found, value = _from_env(s, env)
            if found:
                values[s.field] = value
    values["secret"] = _secret(given.get("secret"), env)
    return Settings(**values)


def _secret(from_flag: bytes | None, env: Mapping[str, str]) -> bytes:
    """``--secret-file``, else ``TRAPOULA_SECRET_FILE`` or ``TRAPOULA_SECRET`` (not both), else random.

    Raises:
        ValueError: both variables set; a bad secret or secret file (named, never quoted).
    """
    if from_flag is not None:
        return from_flag
    by_file, by_value = (s for s in SETTINGS if s.field == "secret")
    has_file, has_value = bool(env.get(by_file.env, "").strip()), bool(env.get(by_value.env, "").strip())
    if has_file and has_value:
        raise ValueError(f"set {by_value.env} or {by_file.env}, not both")
    for setting in (by_file, by_value):
        found, value = _from_env(setting, env)
        if found:
            assert isinstance(value, bytes)
            return value
    return _random_secret()
