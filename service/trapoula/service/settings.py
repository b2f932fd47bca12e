"""Service settings from command-line flags, then ``TRAPOULA_*`` environment variables, then defaults.

| flag | environment | default | meaning |
|---|---|---|---|
| `--address` | `TRAPOULA_ADDRESS` | `127.0.0.1:50051` | where the gRPC server listens (`host:port`; port 0 picks a free port) |
| `--database-url` | `TRAPOULA_DATABASE_URL` | `sqlite:///trapoula.sqlite3` | the event store, a SQLAlchemy URL; PostgreSQL: `postgresql+psycopg://user@host:5432/db` |
| `--database-schema` | `TRAPOULA_DATABASE_SCHEMA` | none (the default schema) | PostgreSQL schema holding the event tables (it must exist: `CREATE SCHEMA ...`) |
| `--watch-poll-seconds` | `TRAPOULA_WATCH_POLL_SECONDS` | `5` | how often an idle watch stream re-reads the store (a change wakes it at once); 0.05 to 3600 |
| `--snapshot-every` | `TRAPOULA_SNAPSHOT_EVERY` | `512` | events between two snapshots of a table, so loading a long match does not replay it all ([docs/storage.md](docs/storage.md)); 0 for none |
| `--cache-size` | `TRAPOULA_CACHE_SIZE` | `1000` | tables kept in memory (more: fewer store reads, more memory); 1 to 1000000 |
| `--recent-states` | `TRAPOULA_RECENT_STATES` | `32` | latest folded states each table in memory keeps, so a woken watcher renders new events without folding again (more: fewer folds, more memory); 1 to 4096 |
| `--auto-workers` | `TRAPOULA_AUTO_WORKERS` | `2` | threads playing the bots' moves and automatic deals in the background; 1 to 64 |
| `--projection` | `TRAPOULA_PROJECTION` | `on` | `on` or `off`: whether this server keeps the read models up to date (at least one server must) |
| `--metrics-address` | `TRAPOULA_METRICS_ADDRESS` | `127.0.0.1:9464` | where Prometheus metrics are served over HTTP (`host:port`, port 0 picks a free port), or `off` ([docs/operations.md](docs/operations.md)) |
| `--connect-address` | `TRAPOULA_CONNECT_ADDRESS` | `off` | where the same service is also served over the Connect protocol, HTTP/1.1, for browsers (`host:port`, port 0 picks a free port), or `off` ([docs/browser.md](docs/browser.md)) |
| `--cors-origins` | `TRAPOULA_CORS_ORIGINS` | none | origins whose pages may call the Connect endpoint: comma-separated `scheme://host[:port]`, or `*` for any; none: same-origin calls only |
| `--log-format` | `TRAPOULA_LOG_FORMAT` | `text` | `text` or `json` (one JSON object a line), on standard error ([docs/operations.md](docs/operations.md)) |
| `--log-level` | `TRAPOULA_LOG_LEVEL` | `info` | `debug` (one line per call), `info`, `warning` or `error` |
| `--limit-create-per-second` | `TRAPOULA_LIMIT_CREATE_PER_SECOND` | `20` | `CreateTable` calls a second per client, sustained, once its burst is spent; 0 for no limit ([docs/operations.md](docs/operations.md#limits)) |
| `--limit-create-burst` | `TRAPOULA_LIMIT_CREATE_BURST` | `500` | `CreateTable` calls a client may make at once; 0 for no limit |
| `--limit-join-per-second` | `TRAPOULA_LIMIT_JOIN_PER_SECOND` | `100` | `JoinTable` calls a second per client, sustained, once its burst is spent; 0 for no limit ([docs/operations.md](docs/operations.md#limits)) |
| `--limit-join-burst` | `TRAPOULA_LIMIT_JOIN_BURST` | `2000` | `JoinTable` calls a client may make at once; 0 for no limit |
| `--limit-act-per-second` | `TRAPOULA_LIMIT_ACT_PER_SECOND` | `1000` | `Act` calls a second per client, sustained, once its burst is spent; 0 for no limit ([docs/operations.md](docs/operations.md#limits)) |
| `--limit-act-burst` | `TRAPOULA_LIMIT_ACT_BURST` | `2000` | `Act` calls a client may make at once; 0 for no limit |
| `--max-open-tables` | `TRAPOULA_MAX_OPEN_TABLES` | `1000` | tables a client may own whose match has not ended (nor stood still for 10 minutes), counted by each replica; 0 for no limit |
| `--max-watches` | `TRAPOULA_MAX_WATCHES` | `5000` | `WatchTable` streams a client may hold open on a replica; 0 for no limit |
| `--secret-file` | `TRAPOULA_SECRET_FILE` | none | a file holding the hex server secret (the safe way to pass it) |
| | `TRAPOULA_SECRET` | random per process | the hex server secret itself, an even number of hex digits, at least 32 (no flag: a flag would show in the process list) |

A flag wins over its variable, and a variable over the default; an empty variable counts as
unset.  A bad value is refused with one line naming the flag or the variable, before anything
starts.  ``TRAPOULA_SECRET`` and ``TRAPOULA_SECRET_FILE`` may not both be set (``--secret-file``
wins over both).

The limits per client (``--limit-*``, ``--max-*``; :mod:`trapoula.service.limits`) count per
client (its verified identity, else its IP address) and per replica; a refused call is
``RESOURCE_EXHAUSTED`` with a ``RetryInfo`` and stores nothing.  The defaults let one client set
up 400 tables at once, as ``trapoula load`` does.

A watcher is woken as soon as its table changes (by this server, or through PostgreSQL's
LISTEN/NOTIFY by another replica); it also re-reads the store every ``watch poll seconds`` in
case a wake-up was lost (a dropped database connection).

The secret (hex) is the key every hand's seed derives from; it never enters the event log and is
never logged.  A random per-process secret is safe: each hand's seed is stored (hidden) in its
event that starts the hand (role ``hand_started``), so a restarted server needs no old secret to continue or to reveal a hand.

:data:`~trapoula.service.settingtable.SETTINGS` holds the table above and
:func:`~trapoula.service.settingtable.settings_table` renders it (the README shows the same table,
and a test keeps the three equal); :mod:`trapoula.service.settingvalues` holds the defaults,
limits and parsers.  This module resolves the settings (:class:`Settings`) from flags,
environment and defaults.
"""  # noqa: E501

from __future__ import annotations

import os
import re
import secrets
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from trapoula.service.settingtable import SETTINGS, Setting, build_parser
from trapoula.service.settingvalues import (
    DEFAULT_ADDRESS,
    DEFAULT_AUTO_WORKERS,
    DEFAULT_CACHE_SIZE,
    DEFAULT_CONNECT_ADDRESS,
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
)

_RANDOM_SECRETS: set[bytes] = set()
"""The secrets this process made up because none was given (:func:`is_random_secret`)."""


def _random_secret() -> bytes:
    secret = secrets.token_bytes(32)
    _RANDOM_SECRETS.add(secret)
    return secret


def is_random_secret(secret: bytes) -> bool:
    """True when ``secret`` is one this process made up because no secret was given (``--secret-file``,
    ``TRAPOULA_SECRET_FILE`` or ``TRAPOULA_SECRET``): the server then warns that its records'
    signing key, derived from the secret, changes at every start."""
    return secret in _RANDOM_SECRETS


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
    recent_states: int = DEFAULT_RECENT_STATES
    """Latest folded states each table in memory keeps (``recording.Table.recent_states``)."""
    auto_workers: int = DEFAULT_AUTO_WORKERS
    """Background threads playing automatic moves (bots, automatic deals) for all tables."""
    projection: bool = True
    """Whether this server keeps the read models up to date."""
    metrics_address: str | None = DEFAULT_METRICS_ADDRESS
    """``host:port`` of the Prometheus metrics endpoint (port 0: a free port); None: no endpoint."""
    connect_address: str | None = DEFAULT_CONNECT_ADDRESS
    """``host:port`` of the Connect endpoint (port 0: a free port); None: gRPC only."""
    cors_origins: tuple[str, ...] = ()
    """Origins whose pages may call the Connect endpoint (``("*",)``: any); empty: same origin only."""
    log_format: str = "text"
    """``text`` or ``json`` (:data:`~trapoula.service.settingvalues.LOG_FORMATS`)."""
    log_level: str = "info"
    """``debug``, ``info``, ``warning`` or ``error`` (:data:`~trapoula.service.settingvalues.LOG_LEVELS`)."""
    # limits per client (trapoula.service.limits.LimitSettings.of reads them); 0: no limit
    limit_create_per_second: float = DEFAULT_LIMIT_CREATE_PER_SECOND
    limit_create_burst: int = DEFAULT_LIMIT_CREATE_BURST
    limit_join_per_second: float = DEFAULT_LIMIT_JOIN_PER_SECOND
    limit_join_burst: int = DEFAULT_LIMIT_JOIN_BURST
    limit_act_per_second: float = DEFAULT_LIMIT_ACT_PER_SECOND
    limit_act_burst: int = DEFAULT_LIMIT_ACT_BURST
    max_open_tables: int = DEFAULT_MAX_OPEN_TABLES
    max_watches: int = DEFAULT_MAX_WATCHES

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


def display_url(url: str) -> str:
    """A database URL fit for a log line: the password, if any, replaced by ``***``.

    >>> display_url("postgresql+psycopg://ann:s3cret@db:5432/trapoula")
    'postgresql+psycopg://ann:***@db:5432/trapoula'
    >>> display_url("sqlite:///trapoula.sqlite3")
    'sqlite:///trapoula.sqlite3'
    """
    return re.sub(r"^([^:/?#]+://[^:/?#@]*):[^/?#]*@", r"\1:***@", url)


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
    values["secret"] = _secret(given.get("secret"), env) or _random_secret()
    return Settings(**values)


def _secret(from_flag: bytes | None, env: Mapping[str, str]) -> bytes | None:
    """``--secret-file``, else ``TRAPOULA_SECRET_FILE`` or ``TRAPOULA_SECRET`` (not both), else None.

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
    return None
