"""Service settings from the environment and command-line flags.

| flag | environment | default |
|---|---|---|
| ``--address`` | ``TRAPOULA_ADDRESS`` | ``127.0.0.1:50051`` |
| ``--database-url`` | ``TRAPOULA_DATABASE_URL`` | ``sqlite:///trapoula.sqlite3`` (in the current folder) |
| ``--database-schema`` | ``TRAPOULA_DATABASE_SCHEMA`` | none (the database's default schema) |
| ``--watch-poll-seconds`` | ``TRAPOULA_WATCH_POLL_SECONDS`` | ``5`` |
| ``--snapshot-every`` | ``TRAPOULA_SNAPSHOT_EVERY`` | ``512`` (0: no snapshots) |
| | ``TRAPOULA_SECRET`` | 32 random bytes per process |

A watcher is woken as soon as its table changes (by this server, or through PostgreSQL's
LISTEN/NOTIFY by another replica); it also re-reads the store every ``watch poll seconds`` in
case a wake-up was lost (a dropped database connection).

The secret (hex) is the key every hand's seed derives from; it never enters the event log.  A
random per-process secret is safe: each hand's seed is stored (hidden) in its ``HandStarted``
event, so a restarted server needs no old secret to continue or to reveal a hand.
"""

from __future__ import annotations

import argparse
import os
import re
import secrets
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TypeVar

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


def _random_secret() -> bytes:
    return secrets.token_bytes(32)


@dataclass(frozen=True, slots=True)
class Settings:
    """Everything the service needs to run."""

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

    @staticmethod
    def from_env(env: Mapping[str, str] | None = None) -> Settings:
        """Read the ``TRAPOULA_*`` variables of ``env`` (default: ``os.environ``).

        Raises:
            ValueError: ``TRAPOULA_SECRET`` is not hex, or shorter than 16 bytes; a bad
                ``TRAPOULA_ADDRESS`` or ``TRAPOULA_WATCH_POLL_SECONDS``.
        """
        env = os.environ if env is None else env
        poll = env.get("TRAPOULA_WATCH_POLL_SECONDS", "").strip()
        every = env.get("TRAPOULA_SNAPSHOT_EVERY", "").strip()
        raw_secret = env.get("TRAPOULA_SECRET", "").strip()
        return Settings(
            address=check_address(env.get("TRAPOULA_ADDRESS") or DEFAULT_ADDRESS),
            database_url=env.get("TRAPOULA_DATABASE_URL") or DEFAULT_DATABASE_URL,
            database_schema=env.get("TRAPOULA_DATABASE_SCHEMA") or None,
            secret=parse_secret(raw_secret) if raw_secret else _random_secret(),
            watch_poll_seconds=parse_poll_seconds(poll) if poll else DEFAULT_WATCH_POLL_SECONDS,
            snapshot_every=parse_snapshot_every(every) if every else DEFAULT_SNAPSHOT_EVERY,
        )

    @staticmethod
    def from_args(argv: Sequence[str] | None = None, env: Mapping[str, str] | None = None) -> Settings:
        """Flags over environment over defaults (see the module docstring).

        Raises:
            SystemExit: bad flags (argparse).
            ValueError: a bad ``TRAPOULA_SECRET``.
        """
        base = Settings.from_env(env)
        parser = argparse.ArgumentParser(prog="python -m trapoula.service", description="Serve trapoula over gRPC.")
        parser.add_argument(
            "--address", default=base.address, type=_argument(check_address), help=f"host:port (default {base.address})"
        )
        parser.add_argument("--database-url", default=base.database_url, help="SQLAlchemy URL of the event store")
        parser.add_argument("--database-schema", default=base.database_schema, help="PostgreSQL schema")
        parser.add_argument(
            "--watch-poll-seconds",
            default=base.watch_poll_seconds,
            type=_argument(parse_poll_seconds),
            help=f"how often an idle watch re-reads the store (default {base.watch_poll_seconds:g})",
        )
        parser.add_argument(
            "--snapshot-every",
            default=base.snapshot_every,
            type=_argument(parse_snapshot_every),
            help=f"events between two snapshots of a table, 0 for none (default {base.snapshot_every})",
        )
        args = parser.parse_args(argv)
        return Settings(
            address=args.address,
            database_url=args.database_url,
            database_schema=args.database_schema,
            secret=base.secret,
            watch_poll_seconds=args.watch_poll_seconds,
            snapshot_every=args.snapshot_every,
        )


def _argument(parse: Callable[[str], T]) -> Callable[[str], T]:
    """``parse`` as an argparse type: its ``ValueError`` becomes the flag's usage error."""

    def convert(text: str) -> T:
        try:
            return parse(text)
        except ValueError as exc:
            raise argparse.ArgumentTypeError(str(exc)) from None

    return convert


def check_address(address: str) -> str:
    """Return ``address`` if it is ``host:port`` with a port from 0 to 65535 (``[::1]:50051`` for IPv6).

    >>> check_address("127.0.0.1:0")
    '127.0.0.1:0'

    Raises:
        ValueError: no host, no port, or a port out of range; the message names the address.
    """
    host, sep, port = address.rpartition(":")
    if not sep or not host or not port.isascii() or not port.isdigit() or int(port) > 65535:
        raise ValueError(f"address {address[:64]!r} is not host:port with a port from 0 to 65535")
    return address


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


def parse_snapshot_every(text: str) -> int:
    """Events between two snapshots of a table: a whole number from 0 (none) to 1,000,000.

    >>> parse_snapshot_every("256")
    256

    Raises:
        ValueError: not a whole number, or out of range; the message names the value.
    """
    value = int(text) if text.isascii() and text.isdigit() and len(text) <= 7 else -1
    if not 0 <= value <= MAX_SNAPSHOT_EVERY:
        raise ValueError(f"snapshot interval {text[:32]!r} is not a whole number from 0 to {MAX_SNAPSHOT_EVERY:,}")
    return value


def display_url(url: str) -> str:
    """A database URL fit for a log line: the password, if any, replaced by ``***``.

    >>> display_url("postgresql+psycopg://ann:s3cret@db:5432/trapoula")
    'postgresql+psycopg://ann:***@db:5432/trapoula'
    >>> display_url("sqlite:///trapoula.sqlite3")
    'sqlite:///trapoula.sqlite3'
    """
    return re.sub(r"^([^:/?#]+://[^:/?#@]*):[^/?#]*@", r"\1:***@", url)


def parse_secret(text: str) -> bytes:
    """The bytes of a hex secret.

    Raises:
        ValueError: not hex, or fewer than 16 bytes.
    """
    try:
        raw = bytes.fromhex(text)
    except ValueError:
        raise ValueError("TRAPOULA_SECRET must be hex digits") from None
    if len(raw) < 16:
        raise ValueError("TRAPOULA_SECRET must hold at least 16 bytes (32 hex digits)")
    return raw
