"""The values of the service settings (:mod:`trapoula.service.settings`): each one's default, its
limits, and the parser that reads it from the text of a flag or an environment variable.

A parser returns the value or raises ``ValueError`` with a one-line message that names the value
(never quoting a secret); the settings table (:mod:`trapoula.service.settingtable`) names the
parser of each setting.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

DEFAULT_ADDRESS = "127.0.0.1:50051"
"""Where the gRPC server listens by default."""
DEFAULT_DATABASE_URL = "sqlite:///trapoula.sqlite3"
"""The default event store: a SQLite file in the current folder."""
DEFAULT_WATCH_POLL_SECONDS = 5.0
"""How often an idle watch stream re-reads the store by default (seconds)."""
MAX_WATCH_POLL_SECONDS = 3600.0
"""The longest poll interval accepted (seconds)."""
DEFAULT_CALL_DEADLINE_SECONDS = 30.0
"""The server's deadline of a unary call, and for a stream's request to arrive, by default (seconds;
:mod:`trapoula.service.deadlines`)."""
MAX_CALL_DEADLINE_SECONDS = 3600.0
"""The longest server deadline accepted (seconds)."""
DEFAULT_SNAPSHOT_EVERY = 512
"""A table's snapshot is taken each time its version passes a multiple of this (docs/storage.md)."""
MAX_SNAPSHOT_EVERY = 1_000_000
"""The largest snapshot interval accepted."""
DEFAULT_CACHE_SIZE = 1000
"""Tables kept in memory by default (``Tables(cache_size=...)``)."""
MAX_CACHE_SIZE = 1_000_000
DEFAULT_RECENT_STATES = 32
"""Latest folded states each table in memory keeps by default (``recording.RECENT_STATES``)."""
MAX_RECENT_STATES = 4096
"""The largest table cache accepted."""
DEFAULT_AUTO_WORKERS = 2
"""Background threads for automatic play by default (``Tables(auto_workers=...)``)."""
MAX_AUTO_WORKERS = 64
"""The most background threads for automatic play accepted."""
DEFAULT_METRICS_ADDRESS = "127.0.0.1:9464"
"""Where Prometheus metrics are served by default (9464: the port commonly used for an
application's own Prometheus exporter)."""
DEFAULT_CONNECT_ADDRESS = None
"""The Connect endpoint (browsers, docs/browser.md) is off unless an address is given."""
LOG_FORMATS = ("text", "json")
"""The values of ``--log-format``."""
LOG_LEVELS = ("debug", "info", "warning", "error")
"""The values of ``--log-level``."""
MAX_SECRET_FILE_BYTES = 4096
"""The largest secret file read (a secret is a few dozen hex digits)."""

# Limits per client (trapoula.service.limits, docs/operations.md): a burst as large as what
# ``trapoula load`` sets up at once from one address (400 tables: 400 CreateTable, 1,600 JoinTable,
# 2,000 streams; then up to ~500 Act/s), with a sustained rate far above a person's.
DEFAULT_LIMIT_CREATE_PER_SECOND = 20.0
"""``CreateTable`` calls a second per client, sustained."""
DEFAULT_LIMIT_CREATE_BURST = 500
"""``CreateTable`` calls a client may make at once."""
DEFAULT_LIMIT_JOIN_PER_SECOND = 100.0
"""``JoinTable`` calls a second per client, sustained."""
DEFAULT_LIMIT_JOIN_BURST = 2000
"""``JoinTable`` calls a client may make at once."""
DEFAULT_LIMIT_ACT_PER_SECOND = 1000.0
"""``Act`` calls a second per client, sustained."""
DEFAULT_LIMIT_ACT_BURST = 2000
"""``Act`` calls a client may make at once."""
DEFAULT_MAX_OPEN_TABLES = 1000
"""Tables not over a client may own on one replica."""
DEFAULT_MAX_WATCHES = 5000
"""``WatchTable`` streams a client may hold open on one replica."""
MAX_LIMIT = 100_000_000
"""The largest limit accepted (a rate a second, a burst, a count)."""


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


def _address_or_off(text: str, what: str) -> str | None:
    """``off`` (any case): None; else a ``host:port`` (:func:`check_address`).

    Raises:
        ValueError: neither ``off`` nor ``host:port``; the message names ``what`` and the value.
    """
    if text.strip().lower() == "off":
        return None
    try:
        return check_address(text.strip())
    except ValueError:
        raise ValueError(f"{what} address {text[:64]!r} is not host:port (port 0 to 65535) or off") from None


def parse_metrics_address(text: str) -> str | None:
    """``off`` (any case): None, no metrics endpoint; else a ``host:port`` (:func:`check_address`).

    >>> parse_metrics_address("OFF") is None
    True
    >>> parse_metrics_address("0.0.0.0:9464")
    '0.0.0.0:9464'

    Raises:
        ValueError: neither ``off`` nor ``host:port``; the message names the value.
    """
    return _address_or_off(text, "metrics")


def parse_connect_address(text: str) -> str | None:
    """``off`` (any case): None, no Connect endpoint; else a ``host:port`` (:func:`check_address`).

    >>> parse_connect_address("Off") is None
    True
    >>> parse_connect_address("127.0.0.1:8080")
    '127.0.0.1:8080'

    Raises:
        ValueError: neither ``off`` nor ``host:port``; the message names the value.
    """
    return _address_or_off(text, "connect")


def parse_cors_origins(text: str) -> tuple[str, ...]:
    """Origins a browser may call the Connect endpoint from: ``*`` (any), or a comma-separated list
    of ``scheme://host[:port]`` origins; blank or ``none``: no cross-origin call.

    >>> parse_cors_origins("http://localhost:5173, https://cards.example")
    ('http://localhost:5173', 'https://cards.example')
    >>> parse_cors_origins("*")
    ('*',)

    Raises:
        ValueError: an entry that is not ``*`` nor an origin (no path, no trailing slash); the
            message names it.
    """
    if text.strip().lower() in ("", "none"):
        return ()
    origins: list[str] = []
    for part in text.split(","):
        origin = part.strip()
        if origin == "*" or re.fullmatch(r"https?://[A-Za-z0-9.\-\[\]:]+", origin):
            origins.append(origin)
        else:
            raise ValueError(f"CORS origin {origin[:64]!r} is not * nor scheme://host[:port]")
    if "*" in origins and len(origins) > 1:
        raise ValueError("CORS origins: * stands alone")
    return tuple(origins)


def parse_database_url(text: str) -> str:
    """A database URL: any non-blank text (the store checks it when it opens).

    Raises:
        ValueError: blank.
    """
    if not text.strip():
        raise ValueError("the database URL is empty")
    return text.strip()


def parse_settings_path(text: str) -> str:
    """The path of a settings file: any non-blank text (the file is read when the settings are
    resolved: :class:`~trapoula.service.settingfields.SettingsFileSource`).

    Raises:
        ValueError: blank.
    """
    if not text.strip():
        raise ValueError("the settings file path is empty")
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
    refusal = f"watch poll seconds {{!r}} is not a number from 0.05 to {MAX_WATCH_POLL_SECONDS:g}"
    return _number(text, 0.05, MAX_WATCH_POLL_SECONDS, refusal)


def parse_call_deadline(text: str) -> float:
    """The server's deadline of a call, in seconds: a number from 0.05 to 3600.

    >>> parse_call_deadline("30")
    30.0

    Raises:
        ValueError: not a number, or out of range; the message names the value.
    """
    refusal = "call deadline {!r} is not a number of seconds from 0.05 to 3600"
    return _number(text, 0.05, MAX_CALL_DEADLINE_SECONDS, refusal)


def _number(text: str, low: float, high: float, refusal: str) -> float:
    """``text`` as a number from ``low`` to ``high``.

    Raises:
        ValueError: not a number (NaN neither) or out of range: ``refusal`` with the text quoted
            in its ``{!r}``.
    """
    try:
        value = float(text)
    except ValueError:
        value = float("nan")
    if not low <= value <= high:
        raise ValueError(refusal.format(text[:32]))
    return value


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


def parse_recent_states(text: str) -> int:
    """Latest folded states kept per table in memory: a whole number from 1 to 4096.

    >>> parse_recent_states("32")
    32

    Raises:
        ValueError: not a whole number, or out of range; the message names the value.
    """
    return _whole(text, "recent states", 1, MAX_RECENT_STATES)


def parse_auto_workers(text: str) -> int:
    """Background threads for automatic play: a whole number from 1 to 64.

    >>> parse_auto_workers("4")
    4

    Raises:
        ValueError: not a whole number, or out of range; the message names the value.
    """
    return _whole(text, "automatic-play workers", 1, MAX_AUTO_WORKERS)


def parse_per_second(text: str) -> float:
    """Calls a second a client may make: a number from 0 (no limit) to 100,000,000.

    >>> parse_per_second("2.5")
    2.5

    Raises:
        ValueError: not a number, or out of range; the message names the value.
    """
    refusal = f"rate {{!r}} is not a number of calls a second from 0 (no limit) to {MAX_LIMIT:,}"
    return _number(text, 0, MAX_LIMIT, refusal)


def parse_limit(text: str) -> int:
    """A burst or a count a client may reach: a whole number from 0 (no limit) to 100,000,000.

    >>> parse_limit("500")
    500

    Raises:
        ValueError: not a whole number, or out of range; the message names the value.
    """
    return _whole(text, "limit", 0, MAX_LIMIT)


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


def read_bounded(path: str, most: int, where: str) -> bytes:
    """The bytes of the file at ``path``, at most ``most`` of them (a settings or secret file).

    Raises:
        ValueError: the file cannot be read, or is larger; the message starts with ``where``
            (``secret file '/run/s'``) and never quotes the file's content.
    """
    try:
        with Path(path).open("rb") as file:
            data = file.read(most + 1)
    except OSError as exc:
        raise ValueError(f"{where}: {exc.strerror or exc}") from None
    if len(data) > most:
        raise ValueError(f"{where} is larger than {most} bytes")
    return data


def read_secret_file(path: str) -> bytes:
    """The hex secret held by the file at ``path`` (blanks and a final newline ignored).

    Raises:
        ValueError: the file cannot be read, is larger than 4 KiB, or does not hold a good secret
            (:func:`parse_secret`); the message names the file, never its content.
    """
    data = read_bounded(path, MAX_SECRET_FILE_BYTES, f"secret file {path[:200]!r}")
    try:
        text = data.decode("ascii")
    except UnicodeDecodeError:
        raise ValueError(f"secret file {path[:200]!r}: the secret must be hex digits") from None
    try:
        return parse_secret(text)
    except ValueError as exc:
        raise ValueError(f"secret file {path[:200]!r}: {exc}") from None


def parse_identity_key_file(text: str) -> str | None:
    """A file holding the key that verifies the identity tokens of the app that embeds trapoula (a
    shared secret, a PEM public key or a JWK Set, docs/identity.md); blank: None (anonymous).  The
    file is read now, so that a bad key is refused before the server starts.

    Raises:
        ValueError: the file cannot be read or holds no usable key; the message names the file.
    """
    path = text.strip()
    if not path:
        return None
    from trapoula.service.identity import load_verifier  # the check of the key itself

    load_verifier(path)
    return path


def parse_claim(text: str) -> str | None:
    """An ``aud`` or ``iss`` claim an identity token must carry; blank: None (not checked).

    >>> parse_claim(" trapoula "), parse_claim("")
    ('trapoula', None)

    Raises:
        ValueError: longer than 256 characters, or not printable.
    """
    value = text.strip()
    if len(value) > 256 or not value.isprintable():
        raise ValueError(f"{value[:40]!r} is not up to 256 printable characters")
    return value or None
