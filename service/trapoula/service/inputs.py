"""Checks of what callers send, before any table is read: ids, names, keys, card codes, the
shape of a command (DESIGN, Layers: service).

Each check raises :class:`~trapoula.domain.errors.InvalidInput` (or
:class:`~trapoula.service.errors.PermissionDenied` for a command naming another seat) with a
``reason`` and a clipped echo of the value; the game checks the rest of a command's meaning.
"""

from __future__ import annotations

import unicodedata
import uuid
from collections.abc import Mapping
from typing import Any

from trapoula.domain.errors import InvalidInput
from trapoula.service.errors import ErrorContext, PermissionDenied, clip
from trapoula.service.principals import Principal

MAX_NAME = 64
"""Longest display name (after stripping spaces)."""
MAX_COMMAND_ID = 128
"""Longest command id (proto: 1-128 characters)."""
MAX_KEY = 32
"""Longest game key or bot level."""
MAX_CARD = 8
"""Longest card code or suit text accepted (real ones have 1 or 2 characters)."""
MAX_POINTS = 2**31 - 1
"""Largest magnitude of a command's ``points`` (a bid): the wire's int32."""
MAX_PAGE_TOKEN = 20
"""Longest page token (a decimal number)."""
DEFAULT_PAGE_SIZE = 50
MAX_PAGE_SIZE = 500
_BAD_NAME_CATEGORIES = frozenset({"Cc", "Cs", "Co", "Cn", "Zl", "Zp"})
_NAME_JOINERS = frozenset({"\u200c", "\u200d"})
_VISIBLE = frozenset("LNPS")
"""Unicode major categories of which a name needs one character: letters, numbers, punctuation, symbols."""
_BLANK_LETTERS = frozenset({"\u115f", "\u1160", "\u3164", "\uffa0", "\u2800"})
"""Characters of those categories that show nothing (Hangul fillers, the blank Braille pattern)."""


def check_command_id(command_id: str) -> None:
    """A command id is text of 1 to :data:`MAX_COMMAND_ID` characters.

    Raises:
        InvalidInput: otherwise (``bad_command_id``).
    """
    if not isinstance(command_id, str) or not 1 <= len(command_id) <= MAX_COMMAND_ID:
        raise InvalidInput(
            f"command_id {clip(command_id)!r}: expected 1 to {MAX_COMMAND_ID} characters", reason="bad_command_id"
        )


def _name_char_ok(ch: str) -> bool:
    category = unicodedata.category(ch)
    if category == "Cf":  # format characters: only the joiners that emoji and some scripts need
        return ch in _NAME_JOINERS
    return category not in _BAD_NAME_CATEGORIES


def check_name(name: str) -> str:
    """A display name, stripped: 1 to :data:`MAX_NAME` characters, one of them visible, no
    control, private-use or unassigned character (joiners excepted).

    Raises:
        InvalidInput: otherwise (``bad_name``).
    """
    if not isinstance(name, str):
        raise InvalidInput(f"name {clip(name)!r} is not text", reason="bad_name")
    name = name.strip()
    if (
        not 1 <= len(name) <= MAX_NAME
        or not all(map(_name_char_ok, name))
        or not any(unicodedata.category(ch)[0] in _VISIBLE and ch not in _BLANK_LETTERS for ch in name)
    ):
        raise InvalidInput(
            f"name {clip(name)!r}: expected 1 to {MAX_NAME} characters with at least one visible letter, digit or "
            "symbol, and no control characters",
            reason="bad_name",
        )
    return name


def check_key(value: Any, what: str, reason: str) -> str:
    """A game key, option name or bot level: text of at most :data:`MAX_KEY` characters.

    Raises:
        InvalidInput: otherwise, with ``reason``.
    """
    return _short_text(value, MAX_KEY, what, reason)


def check_code(value: Any, what: str, reason: str) -> None:
    """A card code or suit: text of at most :data:`MAX_CARD` characters (the game parses it).

    Raises:
        InvalidInput: otherwise, with ``reason``.
    """
    _short_text(value, MAX_CARD, what, reason, "a code of ")


def _short_text(value: Any, most: int, what: str, reason: str, kind: str = "") -> str:
    """``value``, text of at most ``most`` characters.

    Raises:
        InvalidInput: otherwise, with ``reason``: ``<what> <value>: expected <kind>at most <most>
            characters``.
    """
    if not isinstance(value, str) or len(value) > most:
        raise InvalidInput(f"{what} {clip(value)!r}: expected {kind}at most {most} characters", reason=reason)
    return value


def check_deal_codes(deal: Mapping[str, Any]) -> None:
    """Every card code of an explicit deal (S5.3; every card list of the game's deal shape) is short
    text; the game checks the rest.

    Raises:
        InvalidInput: a list that is not one (``bad_deal``), a bad code (``bad_card``).
    """
    lists: list[Any] = [deal.get("stock") or [], deal.get("deck") or [], deal.get("widow") or []]
    for key in ("hands", "reshuffles"):
        groups = deal.get(key) or []
        if not isinstance(groups, list | tuple):
            raise InvalidInput(f"explicit deal: {key!r} must be a list of card lists (S5.3)", reason="bad_deal")
        lists.extend(groups)
    for cards in lists:
        if not isinstance(cards, list | tuple):
            raise InvalidInput(f"explicit deal: {clip(cards)!r} is not a list of cards (S5.3)", reason="bad_deal")
        for code in cards:
            check_code(code, "card", "bad_card")
    if deal.get("starter") is not None:
        check_code(deal["starter"], "starter", "bad_card")


def check_int(value: Any, what: str, reason: str) -> int:
    """An integer (not a bool).

    Raises:
        InvalidInput: otherwise, with ``reason``.
    """
    if isinstance(value, bool) or not isinstance(value, int):
        raise InvalidInput(f"{what} {clip(value)!r} is not an integer", reason=reason)
    return value


TABLE_IDS_KEPT = 4096
"""Table ids :func:`parse_table_id` remembers (all forgotten at once when full)."""
_TABLE_IDS: dict[str, uuid.UUID] = {}
"""Canonical table ids already parsed, to their UUID (a table's calls parse its id several times)."""


def parse_table_id(table_id: str) -> uuid.UUID:
    """The UUID of a table id, which must be in canonical form (lower-case, hyphenated, 36 characters).

    Other spellings of the same UUID (upper case, braces, ``urn:uuid:``, no hyphens) are
    refused so that one table has exactly one id (and one lock).

    Raises:
        InvalidInput: not a canonical UUID (``bad_table_id``).
    """
    if isinstance(table_id, str) and len(table_id) == 36:
        known = _TABLE_IDS.get(table_id)
        if known is not None:
            return known
        try:
            tid = uuid.UUID(table_id)
        except ValueError:
            pass
        else:
            if str(tid) == table_id:
                if len(_TABLE_IDS) >= TABLE_IDS_KEPT:
                    _TABLE_IDS.clear()
                _TABLE_IDS[table_id] = tid
                return tid
    raise InvalidInput(
        f"table_id {clip(table_id)!r} is not a table id (a lower-case hyphenated UUID)", reason="bad_table_id"
    )


MIN_REQUEST_ID = 16
"""Shortest request id (``CreateTable``, ``JoinTable``): it yields a token, so it must be hard to guess."""


def check_request_id(request_id: Any) -> str | None:
    """A request id: empty or None (none), else text of :data:`MIN_REQUEST_ID` to
    :data:`MAX_COMMAND_ID` printable ASCII characters.

    Raises:
        InvalidInput: otherwise (``bad_request_id``).
    """
    if request_id is None or request_id == "":
        return None
    if (
        not isinstance(request_id, str)
        or not MIN_REQUEST_ID <= len(request_id) <= MAX_COMMAND_ID
        or not (request_id.isascii() and request_id.isprintable())
    ):
        raise InvalidInput(
            f"request_id {clip(request_id)!r}: expected {MIN_REQUEST_ID} to {MAX_COMMAND_ID} printable ASCII "
            "characters (a random id, as secret as the token it yields)",
            reason="bad_request_id",
        )
    return request_id


def check_version(after: Any) -> int:
    """A watch's ``from_version``: an integer >= 0.

    Raises:
        InvalidInput: otherwise (``bad_version``).
    """
    if isinstance(after, bool) or not isinstance(after, int) or after < 0:
        raise InvalidInput(f"from_version {clip(after)!r}: expected an integer >= 0", reason="bad_version")
    return after


def check_deal(table_id: str, principal: Principal, deal: Mapping[str, Any] | None) -> None:
    """An explicit deal (S5.3) comes from the owner only and is a mapping of short card codes.

    Raises:
        PermissionDenied: a seat gives one (``explicit_deal_owner_only``).
        InvalidInput: not a mapping (``bad_deal``), a bad card code (``bad_card``).
    """
    if deal is None:
        return
    if principal.kind != "owner":
        raise PermissionDenied(
            f"only the owner of table {table_id} may give an explicit deal (S5.3); seats deal from a seed",
            reason="explicit_deal_owner_only",
            context=ErrorContext(table_id, principal.seat),
        )
    if not isinstance(deal, Mapping):
        raise InvalidInput(f"explicit deal {clip(deal)!r} is not a mapping (S5.3)", reason="bad_deal")
    check_deal_codes(deal)


def check_command(table_id: str, principal: Principal, command: Mapping[str, Any]) -> dict[str, Any]:
    """The command of ``Tables.act`` checked for shape and permission, without its ``seat`` field
    (which, when present, must name the caller's own seat).

    Raises:
        InvalidInput: not a mapping, no kind or a ``join`` (``bad_command``), a long card or suit
            code (``bad_card``, ``bad_suit``), ``points`` outside the wire's 32 bits, a
            bad explicit deal.
        PermissionDenied: a spectator, the owner issuing a seat command, a command naming
            another seat, a seat giving an explicit deal.
    """
    if not isinstance(command, Mapping):
        raise InvalidInput(f"command {clip(command)!r} is not a mapping", reason="bad_command")
    raw = dict(command)
    kind = raw.get("kind")
    if not isinstance(kind, str) or len(kind) > MAX_KEY:
        raise InvalidInput(f"command kind {clip(kind)!r} is not a command of the game", reason="bad_command")
    if kind == "join":
        raise InvalidInput("join is not a seat's command: use JoinTable or AddBot (R6.9)", reason="bad_command")
    if "seat" in raw:
        if principal.kind not in ("seat", "former") or raw["seat"] != principal.seat:
            raise PermissionDenied(
                f"the command names seat {clip(raw['seat'])!r}: a token acts only for its own seat",
                context=ErrorContext(table_id, principal.seat),
            )
        del raw["seat"]
    if principal.kind == "spectator":
        raise PermissionDenied(
            f"{kind!r} at table {table_id} needs a token: take a seat (JoinTable) and send the seat's token",
            context=ErrorContext(table_id),
        )
    if kind != "next_hand" and principal.kind == "owner":
        raise PermissionDenied(f"the owner has no seat: {kind!r} needs a seat token", context=ErrorContext(table_id))
    if kind == "next_hand":
        extra = set(raw) - {"kind", "deal"}
        if extra:
            raise InvalidInput(f"next_hand takes only 'deal', not {clip(sorted(map(str, extra)))}", "bad_command")
        check_deal(table_id, principal, raw.get("deal"))
    for field, reason in (("card", "bad_card"), ("suit", "bad_suit")):
        if raw.get(field) is not None:
            check_code(raw[field], field, reason)
    given = raw.get("cards")
    if isinstance(given, list | tuple):  # a list of cards: short codes; the game checks the rest
        for code in given:
            check_code(code, "card", "bad_card")
    points = raw.get("points")
    if isinstance(points, int) and not -MAX_POINTS - 1 <= points <= MAX_POINTS:  # a number: the wire's 32 bits
        raise InvalidInput(  # not echoed: str() of a huge int raises ValueError
            f"points of {points.bit_length()} bits: expected a 32-bit integer", reason="bad_command"
        )
    return raw
