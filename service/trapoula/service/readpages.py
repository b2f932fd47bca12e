"""The input of the read-model queries (:class:`~trapoula.service.readmodels.ReadModels`): page
sizes, page tokens, filters and times.

Every list is paged by a key, never an offset: a lobby or history page token is the notification id
of the last row given (:func:`seq_token`), a standings token the last row's ``(won, played, game,
name, player, bot)`` as base64 JSON (:func:`standings_token`).  Bad input raises
:class:`~trapoula.domain.errors.InvalidInput` with a reason (``bad_page_size``, ``bad_page_token``,
``unknown_game``, ``bad_player``, ``bad_time``).  Times are read as RFC 3339 or unix seconds
(:func:`parse_time`) and given as RFC 3339 in UTC (:func:`rfc3339`).
"""

from __future__ import annotations

import base64
import binascii
import json
import re
from datetime import UTC, datetime, timedelta
from decimal import Decimal, InvalidOperation
from typing import Any

from trapoula.domain.errors import InvalidInput
from trapoula.domain.registry import GAMES
from trapoula.service.errors import clip
from trapoula.service.readresults import Standing

DEFAULT_PAGE_SIZE = 50
"""Rows in a page when the request says 0."""
MAX_PAGE_SIZE = 500
"""Most rows in one page (a larger ``page_size`` is cut to this)."""
MAX_FILTER = 64
"""Longest player name or game key accepted in a filter (names have at most 64 characters)."""
MAX_PAGE_TOKEN = 2600
"""Longest page token accepted (a standings token of three 64-character texts and a player key of a
128-character verified id, all of 4-byte UTF-8 characters, has about 2,150)."""
MAX_POSITION = 2**63 - 1
"""Largest notification id a lobby or history page token may name (a 64-bit signed integer)."""
MAX_TIME_TEXT = 40
"""Longest time filter accepted (RFC 3339 with nanoseconds and an offset has 35 characters)."""
EPOCH = datetime(1970, 1, 1, tzinfo=UTC)

_UNIX_SECONDS = re.compile(r"-?[0-9]{1,12}(\.[0-9]{1,9})?")
_CONTROL = re.compile(r"[\x00-\x1f\x7f]")
"""Control characters: no name or game key holds one (and PostgreSQL text cannot hold NUL)."""


def page_size_of(page_size: Any) -> int:
    """The number of rows of a page: 0 gives :data:`DEFAULT_PAGE_SIZE`, more than
    :data:`MAX_PAGE_SIZE` gives that.

    Raises:
        InvalidInput: not an integer >= 0 (``bad_page_size``).
    """
    if isinstance(page_size, bool) or not isinstance(page_size, int) or page_size < 0:
        raise InvalidInput(f"page_size {clip(page_size)!r}: expected an integer >= 0", reason="bad_page_size")
    return min(page_size or DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE)


def filter_text(value: Any, what: str, reason: str) -> str:
    """A name or game filter: text of at most :data:`MAX_FILTER` characters, no control character.

    Raises:
        InvalidInput: anything else (``reason``).
    """
    if not isinstance(value, str) or len(value) > MAX_FILTER or _CONTROL.search(value):
        raise InvalidInput(
            f"{what} {clip(value)!r}: expected text of at most {MAX_FILTER} characters without control characters",
            reason=reason,
        )
    if what == "game" and value and value not in GAMES:
        raise InvalidInput(f"game {clip(value)!r} is not one this server plays: {', '.join(GAMES)}", reason=reason)
    if what == "player" and value and not value.strip():
        raise InvalidInput(f"player {clip(value)!r}: a name cannot be only spaces", reason=reason)
    return value.strip() if what == "player" else value


def seq_token(token: Any) -> int | None:
    """The notification id a lobby or history page token names (None for ``""``).

    Raises:
        InvalidInput: not a token this server gave (``bad_page_token``).
    """
    if token == "":
        return None
    if not (
        isinstance(token, str)
        and 0 < len(token) <= 20
        and token.isascii()
        and token.isdigit()
        and int(token) <= MAX_POSITION
    ):
        raise InvalidInput(f"page_token {clip(token)!r} is not one this server gave", reason="bad_page_token")
    return int(token)


def standings_token(token: Any) -> tuple[int, int, str, str, str, str] | None:
    """The last row of the previous standings page, ``(won, played, game, name, player, bot)``.

    Raises:
        InvalidInput: not a token this server gave (``bad_page_token``).
    """
    if token == "":
        return None
    bad = InvalidInput(f"page_token {clip(token)!r} is not one this server gave", reason="bad_page_token")
    if not isinstance(token, str) or len(token) > MAX_PAGE_TOKEN or not token.isascii():
        raise bad
    try:
        raw = json.loads(base64.urlsafe_b64decode(token.encode("ascii") + b"=" * (-len(token) % 4)))
    except (ValueError, binascii.Error, UnicodeDecodeError, RecursionError):
        raise bad from None
    if not (isinstance(raw, list) and len(raw) == 6):
        raise bad
    won, played, game, name, key, bot = raw
    if not all(isinstance(v, int) and not isinstance(v, bool) and 0 <= v < 2**31 for v in (won, played)):
        raise bad
    texts = ((game, MAX_FILTER), (name, MAX_FILTER), (key, 200), (bot, MAX_FILTER))
    if not all(isinstance(v, str) and len(v) <= most and not _CONTROL.search(v) for v, most in texts):
        raise bad
    return won, played, game, name, key, bot


def encode_standings_token(row: Standing) -> str:
    """The page token after ``row``, the last of a standings page (:func:`standings_token` reads it)."""
    fields = [row.won, row.played, row.game, row.name, row.player, row.bot]
    raw = json.dumps(fields, ensure_ascii=False, separators=(",", ":"))
    return base64.urlsafe_b64encode(raw.encode("utf-8")).decode("ascii").rstrip("=")


def parse_time(text: Any, what: str) -> datetime | None:
    """A time filter: ``""`` (no bound), unix seconds (``1746100800``, ``1746100800.25``) or an
    RFC 3339 date-time with an offset (``2025-05-01T12:00:00Z``, ``...+03:00``); returned in UTC.

    >>> parse_time("1746100800", "finished_after").isoformat()
    '2025-05-01T12:00:00+00:00'
    >>> parse_time("2025-05-01T15:00:00+03:00", "finished_after").isoformat()
    '2025-05-01T12:00:00+00:00'

    Raises:
        InvalidInput: anything else, a time without an offset, or one outside years 1-9999
            (``bad_time``).
    """
    if text == "":
        return None
    if not isinstance(text, str) or len(text) > MAX_TIME_TEXT:
        raise InvalidInput(f"{what} {clip(text)!r}: expected RFC 3339 or unix seconds", reason="bad_time")
    value = text.strip()
    try:
        if _UNIX_SECONDS.fullmatch(value):
            micros = int(Decimal(value) * 1_000_000)
            return EPOCH + timedelta(microseconds=micros)
        when = datetime.fromisoformat(value)
    except (ValueError, OverflowError, InvalidOperation):
        raise InvalidInput(
            f"{what} {clip(text)!r}: expected an RFC 3339 date-time with an offset "
            "(2025-05-01T12:00:00Z) or unix seconds",
            reason="bad_time",
        ) from None
    if when.tzinfo is None or when.utcoffset() is None:
        raise InvalidInput(f"{what} {clip(text)!r} has no UTC offset: add Z or +HH:MM (RFC 3339)", reason="bad_time")
    try:
        return when.astimezone(UTC)
    except OverflowError:
        raise InvalidInput(f"{what} {clip(text)!r} is out of range", reason="bad_time") from None


def rfc3339(when: datetime | None) -> str:
    """``when`` as RFC 3339 in UTC with microseconds (``2025-05-01T12:00:00.000000Z``); ``""`` for None.

    >>> rfc3339(datetime(2025, 5, 1, 12, tzinfo=UTC))
    '2025-05-01T12:00:00.000000Z'
    """
    if when is None:
        return ""
    return when.astimezone(UTC).replace(tzinfo=None).isoformat(timespec="microseconds") + "Z"
