"""No secret in any log record: :class:`RedactingFilter` removes tokens and the server secret from
every record of the process, gRPC's own loggers included (docs/operations.md, Logs).

What it removes, from a record's message (its arguments formatted in), its exception text
(traceback) and its stack text, replacing each by :data:`REDACTED`:

- the value after ``Bearer`` (an ``authorization`` metadata value: ``Bearer <redacted>``), and
  the value of anything written ``authorization: ...``, ``authorization=...`` or
  ``('authorization', '...')``;
- any seat or owner token: 43 URL-safe base64 characters standing alone (with at least one
  capital or digit, so a long snake_case name is kept);
- the literal values it is told to hide (:meth:`RedactingFilter.hide`: the server's secret, in
  hex), and those of the call in progress (:func:`~trapoula.service.logs.hide_in_call`: its bearer
  token, its request id).

:func:`install` puts it in the process's log record factory, so that each record is cleaned as
it is made, before any handler (the server's, a test's ``caplog``, another library's) sees it;
gRPC's Cython layer, which logs a bad metadata value with its bytes (``Invalid encoding on
b'Bearer ...'``), included.  The fields a handler adds later (the call's context) are cleaned by
the same filter set on the server's handler (:func:`trapoula.service.logs.configure`).
"""

from __future__ import annotations

import logging
import re
import threading
from collections.abc import Callable, Iterable
from typing import Any

REDACTED = "<redacted>"
"""What a removed value is replaced by."""

_BEARER = re.compile(r"(?i)\b(bearer)(?:\s+|%20)[^\s'\"\\,;)\]}]+")
_AUTHORIZATION = re.compile(
    r"(?i)(\bauthorization['\"]?\s*(?:[:=]|,)\s*(?:b?['\"])?)(?!\s*(?:bearer\b|<redacted>))"
    r"[^\s'\"\\,;)\]}][^'\"\\\n,;)\]}]*"
)
_TOKEN = re.compile(r"(?<![A-Za-z0-9_-])(?=[A-Za-z0-9_-]*[A-Z0-9])[A-Za-z0-9_-]{43}(?![A-Za-z0-9_-])")
_DONE = "_trapoula_redacted"
_MIN_LITERAL = 8
"""Shorter values are not hidden literally (they would blank out ordinary words)."""


class RedactingFilter(logging.Filter):
    """A filter that cleans each record in place (see the module docstring) and never drops one.

    ``call_values`` returns the literal values of the call in progress to hide as well (the
    server passes :func:`trapoula.service.logs.hidden_in_call`).
    """

    def __init__(self, call_values: Callable[[], Iterable[str]] | None = None) -> None:
        super().__init__()
        self._lock = threading.Lock()
        self._literals: frozenset[str] = frozenset()
        self._call_values = call_values

    def hide(self, *values: str) -> None:
        """Hide these literal values from now on (values shorter than 8 characters are ignored)."""
        with self._lock:
            self._literals = self._literals | {v for v in values if len(v) >= _MIN_LITERAL}

    def redact(self, text: str) -> str:
        """``text`` with every secret replaced by :data:`REDACTED`.

        >>> RedactingFilter().redact("authorization: Bearer abc.def")
        'authorization: Bearer <redacted>'
        >>> RedactingFilter().redact("seat token " + "Ab1" * 14 + "x, table t-1")
        'seat token <redacted>, table t-1'
        """
        literals = set(self._literals)
        if self._call_values is not None:
            literals.update(v for v in self._call_values() if len(v) >= _MIN_LITERAL)
        for literal in sorted(literals, key=len, reverse=True):
            if literal in text:
                text = text.replace(literal, REDACTED)
        text = _BEARER.sub(rf"\1 {REDACTED}", text)
        text = _AUTHORIZATION.sub(rf"\1{REDACTED}", text)
        return _TOKEN.sub(REDACTED, text)

    def filter(self, record: logging.LogRecord) -> bool:
        """Clean ``record``'s message, exception and stack text and its string context fields; True.

        A message that changes loses its arguments (``msg`` becomes the cleaned text); an
        exception whose text or arguments hold a secret is kept as cleaned text only
        (``exc_text``; ``exc_info`` None, so no formatter or handler sees the original).
        """
        if getattr(record, _DONE, False):
            self._extras(record)
            return True
        try:
            message = record.getMessage()
        except Exception:  # a message that does not format: the handler reports it; clean its parts
            record.msg = self.redact(str(record.msg))
            record.args = _clean_args(self, record.args)
        else:
            clean = self.redact(message)
            if clean != message:
                record.msg, record.args = clean, ()
        if record.exc_info and record.exc_info[0] is not None:
            text = record.exc_text or logging.Formatter().formatException(record.exc_info)
            clean = self.redact(text)
            held = _held(record.exc_info[1])
            if clean != text or self.redact(held) != held:
                record.exc_info = None  # the exception itself (its args) holds a secret: keep only the text
            record.exc_text = clean
        elif record.exc_text:
            record.exc_text = self.redact(record.exc_text)
        if record.stack_info:
            record.stack_info = self.redact(record.stack_info)
        self._extras(record)
        setattr(record, _DONE, True)
        return True

    def _extras(self, record: logging.LogRecord) -> None:
        """Clean the string fields a handler's filter added after the record was made."""
        for key in ("table_id", "command_id"):
            value = record.__dict__.get(key)
            if isinstance(value, str):
                record.__dict__[key] = self.redact(value)


def _held(exc: BaseException | None) -> str:
    """The arguments of ``exc`` and of the exceptions it was raised from or during (their reprs):
    a ``UnicodeDecodeError`` holds the bytes it could not decode, which its message does not show."""
    held: list[str] = []
    seen: set[int] = set()
    while exc is not None and id(exc) not in seen and len(seen) < 16:
        seen.add(id(exc))
        held.append(repr(exc.args))
        exc = exc.__cause__ or exc.__context__
    return "\n".join(held)


def _clean_args(redactor: RedactingFilter, args: Any) -> Any:
    if isinstance(args, tuple):
        return tuple(redactor.redact(a) if isinstance(a, str) else a for a in args)
    return args


_FILTER: RedactingFilter | None = None
_FACTORY_MARK = "_trapoula_redacting"


def install(call_values: Callable[[], Iterable[str]] | None = None, *hidden: str) -> RedactingFilter:
    """Clean every log record of this process from now on (idempotent): the process-wide filter,
    wrapped around the log record factory, told to hide ``hidden`` too; returns it.

    ``call_values`` (first installation only) gives the values of the call in progress to hide.
    """
    global _FILTER
    if _FILTER is None:
        _FILTER = RedactingFilter(call_values)
    _FILTER.hide(*hidden)
    factory = logging.getLogRecordFactory()
    if not getattr(factory, _FACTORY_MARK, False):
        redactor = _FILTER

        def make(*args: Any, **kwargs: Any) -> logging.LogRecord:
            record = factory(*args, **kwargs)
            redactor.filter(record)
            return record

        setattr(make, _FACTORY_MARK, True)
        logging.setLogRecordFactory(make)
    return _FILTER
