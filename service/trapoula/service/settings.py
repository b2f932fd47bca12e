"""Service settings from command-line flags, then ``TRAPOULA_*`` environment variables, then a settings file, then defaults.

| flag | environment | default | meaning |
|---|---|---|---|
| `--address` | `TRAPOULA_ADDRESS` | `127.0.0.1:50051` | where the gRPC server listens (`host:port`; port 0 picks a free port) |
| `--database-url` | `TRAPOULA_DATABASE_URL` | `sqlite:///trapoula.sqlite3` | the event store, a SQLAlchemy URL; PostgreSQL: `postgresql+psycopg://user@host:5432/db` |
| `--database-schema` | `TRAPOULA_DATABASE_SCHEMA` | none (the default schema) | PostgreSQL schema holding the event tables (it must exist: `CREATE SCHEMA ...`) |
| `--watch-poll-seconds` | `TRAPOULA_WATCH_POLL_SECONDS` | `5` | how often an idle watch stream re-reads the store (a change wakes it at once; on PostgreSQL, while the store follower listens, only every fourth time); 0.05 to 3600 |
| `--call-deadline-seconds` | `TRAPOULA_CALL_DEADLINE_SECONDS` | `30` | the server's deadline of a call: a unary call whole, a watch stream until its request has come ([docs/operations.md](docs/operations.md)); 0.05 to 3600 |
| `--snapshot-every` | `TRAPOULA_SNAPSHOT_EVERY` | `512` | events between two snapshots of a table, so loading a long match does not replay it all ([docs/storage.md](docs/storage.md)); 0 for none |
| `--cache-size` | `TRAPOULA_CACHE_SIZE` | `1000` | tables kept in memory (more: fewer store reads, more memory); 1 to 1000000 |
| `--recent-states` | `TRAPOULA_RECENT_STATES` | `32` | latest folded states each table in memory keeps, so a woken watcher renders new events without folding again (more: fewer folds, more memory); 1 to 4096 |
| `--auto-workers` | `TRAPOULA_AUTO_WORKERS` | `2` | threads playing the bots' moves and automatic deals in the background; 1 to 64 |
| `--projection` | `TRAPOULA_PROJECTION` | `on` | `on` or `off`: whether this server keeps the read models up to date (at least one server must) |
| `--metrics-address` | `TRAPOULA_METRICS_ADDRESS` | `127.0.0.1:9464` | where Prometheus metrics are served over HTTP (`host:port`, port 0 picks a free port), or `off` ([docs/operations.md](docs/operations.md)) |
| `--connect-address` | `TRAPOULA_CONNECT_ADDRESS` | `off` | where the same service is also served over the Connect protocol, HTTP/1.1, for browsers (`host:port`, port 0 picks a free port), or `off` ([docs/browser.md](docs/browser.md)) |
| `--cors-origins` | `TRAPOULA_CORS_ORIGINS` | none | origins whose pages may call the Connect endpoint: comma-separated `scheme://host[:port]`, or `*` for any; none: same-origin calls only |
| `--web` | `TRAPOULA_WEB` | `on` | `on` or `off`: whether the Connect endpoint also serves the web page (lobby, tables) at `/`, printed at start as `trapoula web on http://HOST:PORT/` ([docs/browser.md](docs/browser.md)) |
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
| `--identity-key-file` | `TRAPOULA_IDENTITY_KEY_FILE` | none (anonymous) | a file holding the key that verifies the identity tokens of the app that embeds trapoula: a shared secret, a PEM public key or a JWK Set ([docs/identity.md](docs/identity.md)); none: anonymous, names unverified |
| `--identity-audience` | `TRAPOULA_IDENTITY_AUDIENCE` | none | the `aud` claim every identity token must carry |
| `--identity-issuer` | `TRAPOULA_IDENTITY_ISSUER` | none | the `iss` claim every identity token must carry |
| `--secret-file` | `TRAPOULA_SECRET_FILE` | none | a file holding the hex server secret (the safe way to pass it) |
| | `TRAPOULA_SECRET` | random per process | the hex server secret itself, an even number of hex digits, at least 32 (no flag: a flag would show in the process list) |
| `--settings-file` | `TRAPOULA_SETTINGS_FILE` | none | a TOML file of settings, one `name = value` each (`cache_size = 5000`, `projection = "off"`), under the flags and variables; not the secret ([docs/operations.md](docs/operations.md)) |

A flag wins over its variable, a variable over the settings file (``--settings-file``, TOML,
by field name; it may not hold the secret), the file over the default; an empty variable counts
as unset.  A bad value is refused with one line naming the flag or the variable, before anything
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

Each setting is declared once, as a field of :class:`Settings` (a pydantic-settings model): its
type, default, parser and limits (:mod:`trapoula.service.settingvalues`), flag, variable and help
text (:class:`~trapoula.service.settingfields.Option`).  From that one declaration come the
parsing of flags and variables, ``trapoula serve --help``
(:func:`~trapoula.service.settingtable.build_parser`) and the table above
(:func:`~trapoula.service.settingtable.settings_table`; the README shows the same table, and a
test keeps the three equal).  To add a setting, add a field::

    grace_seconds: Annotated[float, Option("SECONDS", "what it does; 1 to 60", parse_grace)] = 5.0

(flag ``--grace-seconds``, variable ``TRAPOULA_GRACE_SECONDS``, key ``grace_seconds`` of a
settings file), then paste ``settings_table()`` (``python -m trapoula.service.settingtable``) over
the table above and the README's.
"""  # noqa: E501

from __future__ import annotations

import argparse
import os
import re
import secrets
import textwrap
from collections.abc import Mapping, Sequence
from typing import Annotated, ClassVar

from pydantic import Field
from pydantic_settings import SettingsConfigDict

from trapoula.service.identity import IdentityVerifier, load_verifier
from trapoula.service.settingfields import FlagSettings, Option, rows
from trapoula.service.settingfields import build_parser as _build_parser
from trapoula.service.settingvalues import (
    DEFAULT_ADDRESS,
    DEFAULT_AUTO_WORKERS,
    DEFAULT_CACHE_SIZE,
    DEFAULT_CALL_DEADLINE_SECONDS,
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
    check_address,
    parse_auto_workers,
    parse_cache_size,
    parse_call_deadline,
    parse_claim,
    parse_connect_address,
    parse_cors_origins,
    parse_database_url,
    parse_identity_key_file,
    parse_limit,
    parse_log_format,
    parse_log_level,
    parse_metrics_address,
    parse_per_second,
    parse_poll_seconds,
    parse_recent_states,
    parse_schema,
    parse_secret,
    parse_settings_path,
    parse_snapshot_every,
    parse_switch,
    read_secret_file,
)

ENV_PREFIX = "TRAPOULA_"
"""Every variable's prefix."""
PROG = "trapoula serve"
"""The program name shown by ``--help`` and in usage errors (``python -m trapoula.service`` takes the
same flags)."""

_RANDOM_SECRETS: set[bytes] = set()
"""The secrets this process made up because none was given (:func:`is_random_secret`)."""


def _random_secret() -> bytes:
    secret = secrets.token_bytes(32)
    _RANDOM_SECRETS.add(secret)
    return secret


def identity_of(settings: Settings) -> IdentityVerifier | None:
    """The verifier of the app's identity tokens the settings name (``identity_key_file`` with its
    ``identity_audience`` and ``identity_issuer``; docs/identity.md), or None: an anonymous server.

    Raises:
        ValueError: the key file cannot be read or holds no usable key (it was checked when the
            settings were read, but may have changed since).
    """
    if settings.identity_key_file is None:
        return None
    return load_verifier(settings.identity_key_file, settings.identity_audience, settings.identity_issuer)


def is_random_secret(secret: bytes) -> bool:
    """True when ``secret`` is one this process made up because no secret was given (``--secret-file``,
    ``TRAPOULA_SECRET_FILE`` or ``TRAPOULA_SECRET``): the server then warns that its records'
    signing key, derived from the secret, changes at every start."""
    return secret in _RANDOM_SECRETS


class Settings(FlagSettings):
    """Everything the service needs to run (see the module docstring for each setting): a frozen
    pydantic model.

    ``Settings(field=value, ...)`` takes only what it is given (defaults for the rest; text is
    parsed as its flag's would be, a bad value raising ``pydantic.ValidationError``, a
    ``ValueError``); :meth:`from_env` and :meth:`from_args` read variables and flags.  A copy
    with changes: ``settings.model_copy(update={...})``.
    """

    model_config: ClassVar[SettingsConfigDict] = SettingsConfigDict(frozen=True, extra="forbid", env_prefix=ENV_PREFIX)
    settings_file_field: ClassVar[str | None] = "settings_file"
    not_in_settings_file: ClassVar[frozenset[str]] = frozenset({"secret"})

    address: Annotated[
        str, Option("HOST:PORT", "where the gRPC server listens (`host:port`; port 0 picks a free port)", check_address)
    ] = DEFAULT_ADDRESS
    """``host:port`` to listen on; port 0 picks a free port."""
    database_url: Annotated[
        str,
        Option(
            "URL",
            "the event store, a SQLAlchemy URL; PostgreSQL: `postgresql+psycopg://user@host:5432/db`",
            parse_database_url,
        ),
    ] = DEFAULT_DATABASE_URL
    """A SQLAlchemy URL: ``sqlite:///file.sqlite3`` or ``postgresql+psycopg://user@host:5432/db``."""
    database_schema: Annotated[
        str | None,
        Option(
            "SCHEMA",
            "PostgreSQL schema holding the event tables (it must exist: `CREATE SCHEMA ...`)",
            parse_schema,
            shown_default="none (the default schema)",
        ),
    ] = None
    """A PostgreSQL schema for the event tables (None: the default schema)."""
    watch_poll_seconds: Annotated[
        float,
        Option(
            "SECONDS",
            "how often an idle watch stream re-reads the store (a change wakes it at once; on PostgreSQL, while "
            "the store follower listens, only every fourth time); 0.05 to 3600",
            parse_poll_seconds,
        ),
    ] = DEFAULT_WATCH_POLL_SECONDS
    """Seconds between two reads of the store by an idle watch stream (wake-ups come sooner)."""
    call_deadline_seconds: Annotated[
        float,
        Option(
            "SECONDS",
            "the server's deadline of a call: a unary call whole, a watch stream until its request has come "
            "([docs/operations.md](docs/operations.md)); 0.05 to 3600",
            parse_call_deadline,
        ),
    ] = DEFAULT_CALL_DEADLINE_SECONDS
    """Seconds a unary call may take, request included, and a stream's request may take to arrive."""
    snapshot_every: Annotated[
        int,
        Option(
            "EVENTS",
            "events between two snapshots of a table, so loading a long match does not replay it all "
            "([docs/storage.md](docs/storage.md)); 0 for none",
            parse_snapshot_every,
        ),
    ] = DEFAULT_SNAPSHOT_EVERY
    """Events between two snapshots of a table (0: none; every cold load replays the whole log)."""
    cache_size: Annotated[
        int,
        Option(
            "TABLES", "tables kept in memory (more: fewer store reads, more memory); 1 to 1000000", parse_cache_size
        ),
    ] = DEFAULT_CACHE_SIZE
    """Tables kept in memory (each brought up to date from the store when read)."""
    recent_states: Annotated[
        int,
        Option(
            "STATES",
            "latest folded states each table in memory keeps, so a woken watcher renders new events without "
            "folding again (more: fewer folds, more memory); 1 to 4096",
            parse_recent_states,
        ),
    ] = DEFAULT_RECENT_STATES
    """Latest folded states each table in memory keeps (``recording.Table.recent_states``)."""
    auto_workers: Annotated[
        int,
        Option(
            "THREADS",
            "threads playing the bots' moves and automatic deals in the background; 1 to 64",
            parse_auto_workers,
        ),
    ] = DEFAULT_AUTO_WORKERS
    """Background threads playing automatic moves (bots, automatic deals) for all tables."""
    projection: Annotated[
        bool,
        Option(
            "on|off",
            "`on` or `off`: whether this server keeps the read models up to date (at least one server must)",
            parse_switch,
        ),
    ] = True
    """Whether this server keeps the read models up to date."""
    metrics_address: Annotated[
        str | None,
        Option(
            "HOST:PORT|off",
            "where Prometheus metrics are served over HTTP (`host:port`, port 0 picks a free port), or `off` "
            "([docs/operations.md](docs/operations.md))",
            parse_metrics_address,
        ),
    ] = DEFAULT_METRICS_ADDRESS
    """``host:port`` of the Prometheus metrics endpoint (port 0: a free port); None: no endpoint."""
    connect_address: Annotated[
        str | None,
        Option(
            "HOST:PORT|off",
            "where the same service is also served over the Connect protocol, HTTP/1.1, for browsers "
            "(`host:port`, port 0 picks a free port), or `off` ([docs/browser.md](docs/browser.md))",
            parse_connect_address,
            shown_default="`off`",
        ),
    ] = DEFAULT_CONNECT_ADDRESS
    """``host:port`` of the Connect endpoint (port 0: a free port); None: gRPC only."""
    cors_origins: Annotated[
        tuple[str, ...],
        Option(
            "ORIGINS",
            "origins whose pages may call the Connect endpoint: comma-separated `scheme://host[:port]`, "
            "or `*` for any; none: same-origin calls only",
            parse_cors_origins,
        ),
    ] = ()
    """Origins whose pages may call the Connect endpoint (``("*",)``: any); empty: same origin only."""
    web: Annotated[
        bool,
        Option(
            "on|off",
            "`on` or `off`: whether the Connect endpoint also serves the web page (lobby, tables) at `/`, "
            "printed at start as `trapoula web on http://HOST:PORT/` ([docs/browser.md](docs/browser.md))",
            parse_switch,
        ),
    ] = True
    """Whether the Connect endpoint (when on) serves the web page at ``/`` (:mod:`trapoula.service.webpage`)."""
    log_format: Annotated[
        str,
        Option(
            "text|json",
            "`text` or `json` (one JSON object a line), on standard error ([docs/operations.md](docs/operations.md))",
            parse_log_format,
        ),
    ] = "text"
    """``text`` or ``json`` (:data:`~trapoula.service.settingvalues.LOG_FORMATS`)."""
    log_level: Annotated[
        str, Option("LEVEL", "`debug` (one line per call), `info`, `warning` or `error`", parse_log_level)
    ] = "info"
    """``debug``, ``info``, ``warning`` or ``error`` (:data:`~trapoula.service.settingvalues.LOG_LEVELS`)."""
    limit_create_per_second: Annotated[
        float,
        Option(
            "CALLS",
            "`CreateTable` calls a second per client, sustained, once its burst is spent; 0 for no limit "
            "([docs/operations.md](docs/operations.md#limits))",
            parse_per_second,
        ),
    ] = DEFAULT_LIMIT_CREATE_PER_SECOND
    """``CreateTable`` calls a second per client once its burst is spent (0: no limit;
    :class:`~trapoula.service.limits.LimitSettings` reads the limits)."""
    limit_create_burst: Annotated[
        int, Option("CALLS", "`CreateTable` calls a client may make at once; 0 for no limit", parse_limit)
    ] = DEFAULT_LIMIT_CREATE_BURST
    """``CreateTable`` calls a client may make at once (0: no limit)."""
    limit_join_per_second: Annotated[
        float,
        Option(
            "CALLS",
            "`JoinTable` calls a second per client, sustained, once its burst is spent; 0 for no limit "
            "([docs/operations.md](docs/operations.md#limits))",
            parse_per_second,
        ),
    ] = DEFAULT_LIMIT_JOIN_PER_SECOND
    """``JoinTable`` calls a second per client once its burst is spent (0: no limit)."""
    limit_join_burst: Annotated[
        int, Option("CALLS", "`JoinTable` calls a client may make at once; 0 for no limit", parse_limit)
    ] = DEFAULT_LIMIT_JOIN_BURST
    """``JoinTable`` calls a client may make at once (0: no limit)."""
    limit_act_per_second: Annotated[
        float,
        Option(
            "CALLS",
            "`Act` calls a second per client, sustained, once its burst is spent; 0 for no limit "
            "([docs/operations.md](docs/operations.md#limits))",
            parse_per_second,
        ),
    ] = DEFAULT_LIMIT_ACT_PER_SECOND
    """``Act`` calls a second per client once its burst is spent (0: no limit)."""
    limit_act_burst: Annotated[
        int, Option("CALLS", "`Act` calls a client may make at once; 0 for no limit", parse_limit)
    ] = DEFAULT_LIMIT_ACT_BURST
    """``Act`` calls a client may make at once (0: no limit)."""
    max_open_tables: Annotated[
        int,
        Option(
            "TABLES",
            "tables a client may own whose match has not ended (nor stood still for 10 minutes), counted by each "
            "replica; 0 for no limit",
            parse_limit,
        ),
    ] = DEFAULT_MAX_OPEN_TABLES
    """Tables a client may own, not over, on this replica (0: no limit)."""
    max_watches: Annotated[
        int,
        Option("STREAMS", "`WatchTable` streams a client may hold open on a replica; 0 for no limit", parse_limit),
    ] = DEFAULT_MAX_WATCHES
    """``WatchTable`` streams a client may hold open on this replica (0: no limit)."""
    identity_key_file: Annotated[
        str | None,
        Option(
            "PATH",
            "a file holding the key that verifies the identity tokens of the app that embeds trapoula: a shared "
            "secret, a PEM public key or a JWK Set ([docs/identity.md](docs/identity.md)); none: anonymous, names "
            "unverified",
            parse_identity_key_file,
            shown_default="none (anonymous)",
        ),
    ] = None
    """The key file of the app's identity tokens (None: anonymous; see :func:`identity_of`)."""
    identity_audience: Annotated[
        str | None,
        Option("AUD", "the `aud` claim every identity token must carry", parse_claim, shown_default="none"),
    ] = None
    """The ``aud`` an identity token must name (None: a token naming one is refused)."""
    identity_issuer: Annotated[
        str | None,
        Option("ISS", "the `iss` claim every identity token must carry", parse_claim, shown_default="none"),
    ] = None
    """The ``iss`` an identity token must carry (None: not checked)."""
    secret: Annotated[
        bytes,
        Field(default_factory=_random_secret, repr=False),
        Option(
            "PATH",
            "a file holding the hex server secret (the safe way to pass it)",
            read_secret_file,
            flag="--secret-file",
            env="TRAPOULA_SECRET_FILE",
            shown_default="none",
        ),
        Option(
            "",
            "the hex server secret itself, an even number of hex digits, at least 32"
            " (no flag: a flag would show in the process list)",
            parse_secret,
            flag="",
            shown_default="random per process",
        ),
    ]
    """The server secret seeds derive from (never stored, never logged)."""
    settings_file: Annotated[
        str | None,
        Option(
            "PATH",
            'a TOML file of settings, one `name = value` each (`cache_size = 5000`, `projection = "off"`), '
            "under the flags and variables; not the secret ([docs/operations.md](docs/operations.md))",
            parse_settings_path,
        ),
    ] = None
    """The TOML file the other settings were also read from (None: none)."""

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None) -> Settings:
        """Read the ``TRAPOULA_*`` variables of ``env`` (default: ``os.environ``); defaults for the rest.

        Raises:
            ValueError: a bad value; the message names the variable and quotes the value (never
                the secret's).
        """
        return cls.resolve({}, os.environ if env is None else env)

    @classmethod
    def from_args(cls, argv: Sequence[str] | None = None, env: Mapping[str, str] | None = None) -> Settings:
        """Flags over environment over defaults (see the module docstring).

        A variable is read only when its flag is not given, so a flag also overrides a bad variable.

        Raises:
            SystemExit: ``--help`` (status 0), or a bad flag (status 2, after one line on standard
                error naming the flag).
            ValueError: a bad environment variable; the message names it.
        """
        return cls.parse_flags(build_parser(), argv, os.environ if env is None else env)


def _epilog() -> str:
    """The epilog of ``--help``: the variables, the secret, the exit statuses."""
    return "\n\n".join(
        textwrap.fill(paragraph, 78)
        for paragraph in (
            "Every flag may be set instead by its environment variable: "
            + ", ".join(s.env for s in rows(Settings) if s.flag)
            + ".  A flag wins over its variable, a variable over the settings file (--settings-file, TOML: "
            "cache_size = 5000), the file over the default; an empty variable counts as unset.",
            "TRAPOULA_SECRET holds the hex server secret itself (no flag, so that it never shows in the process "
            "list); --secret-file or TRAPOULA_SECRET_FILE names a file holding it.  Without either, each process "
            "draws a random secret, which is safe (docs/operations.md).",
            "Exit status: 0 stopped by SIGINT or SIGTERM; 1 the store cannot be opened or the gRPC or Connect "
            "address cannot be bound; 2 a bad flag or variable.",
        )
    )


def build_parser() -> argparse.ArgumentParser:
    """The parser of ``trapoula serve`` (and ``python -m trapoula.service``): every flag of
    :class:`Settings`, each help naming its variable and default; a flag not given is absent
    from the parsed namespace, so ``vars(args)`` holds the given ones (field -> value)."""
    return _build_parser(
        Settings,
        PROG,
        textwrap.fill(
            "Serve trapoula over gRPC (also: python -m trapoula.service).  Settings come from the flags, then "
            "the TRAPOULA_* environment variables, then the defaults.",
            78,
        ),
        _epilog(),
    )


def display_url(url: str) -> str:
    """A database URL fit for a log line: the password, if any, replaced by ``***``.

    >>> display_url("postgresql+psycopg://ann:s3cret@db:5432/trapoula")
    'postgresql+psycopg://ann:***@db:5432/trapoula'
    >>> display_url("sqlite:///trapoula.sqlite3")
    'sqlite:///trapoula.sqlite3'
    """
    return re.sub(r"^([^:/?#]+://[^:/?#@]*):[^/?#]*@", r"\1:***@", url)
