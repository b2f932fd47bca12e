"""The server's log: text or JSON lines on standard error, each record of a call carrying the call's
context (docs/operations.md, Logs).

Every gRPC call runs with a :class:`CallInfo` in a context variable (set by
:meth:`trapoula.service.metrics.Metrics.track`): its method, table id, seat and command id, and
once it ends its result.  :class:`CallContextFilter` copies these onto every log record emitted
while the call runs, also from the store's worker threads (the servicer runs them in a copy of
the call's context), so a warning about an unreachable store names the table and command that
met it.  Records of background work (automatic play, following the store) have no call.

Text lines read ``2025-01-31 12:00:00,123 DEBUG trapoula.service.calls: Act ok (2.1 ms)
method=Act game=<key> table_id=... seat=0 command_id=... result=ok ms=2.1``; JSON lines are
objects with ``time`` (ISO 8601, UTC), ``level``, ``logger``, ``message`` and the context fields
present (:data:`CONTEXT_FIELDS`).

Never logged: seat tokens, owner tokens, bearer tokens, request ids, the server secret.  Besides
never writing them, the server cleans every record of the process, gRPC's own included
(:mod:`trapoula.service.redaction`, installed by :func:`configure` and the server): a call's
bearer token and request id are hidden from the records of that call (:func:`hide_in_call`).  A
caller's table id and command id are clipped to :data:`FIELD_LIMIT` characters, and a text line
quotes (``repr``) any value with blanks or unprintable characters, so a crafted id cannot forge a
line.
"""

from __future__ import annotations

import contextvars
import logging
import sys
from dataclasses import dataclass, field
from typing import Any, TextIO

import grpc
from google.rpc import error_details_pb2, status_pb2  # type: ignore[import-untyped]
from pythonjsonlogger.json import JsonFormatter

from trapoula.service import redaction
from trapoula.service.errors import Conflict, CorruptLog, clip, context_of
from trapoula.service.status import store_down

CONTEXT_FIELDS = ("method", "game", "table_id", "seat", "command_id", "result", "reason", "ms")
"""The fields a record may carry besides its message, in the order a text line shows them."""
FIELD_LIMIT = 128
"""Most characters of a caller's table id or command id in a log record."""
LEVELS = {"debug": logging.DEBUG, "info": logging.INFO, "warning": logging.WARNING, "error": logging.ERROR}
"""``--log-level`` names to :mod:`logging` levels."""
TEXT_FORMAT = "%(asctime)s %(levelname)s %(name)s: %(message)s"
"""The text line, before its context fields."""


@dataclass(slots=True)
class CallInfo:
    """What is known of the gRPC call in progress (mutable: filled in as the call goes)."""

    method: str
    """The RPC's name (``Act``)."""
    table_id: str | None = None
    """The table, from the request (clipped) or, for ``CreateTable``, the reply."""
    seat: int | None = None
    """The seat the call concerns: the caller's (from its token), or the seat taken."""
    command_id: str | None = None
    """The request's command id (clipped), when it has one."""
    game: str | None = None
    """The table's game, once known (a game key, or ``unknown``)."""
    result: str = "ok"
    """``ok``, or the gRPC status code's name (``FAILED_PRECONDITION``)."""
    reason: str = ""
    """The ``ErrorInfo.reason`` of a failure (``not_your_turn``); empty when ``ok``."""
    store_error: str | None = None
    """The kind of store error that failed the call, if any (``unreachable``, ``corrupt_log``,
    ``conflict``: docs/operations.md)."""
    hidden: list[str] = field(default_factory=list, repr=False)
    """Values no record of the call may show (its bearer token, its request id)."""

    @staticmethod
    def of(method: str, request: Any) -> CallInfo:
        """The context of a call of ``method`` with ``request`` (any message: the fields
        ``table_id`` and ``command_id`` are read when it has them)."""
        info = CallInfo(method)
        table_id = getattr(request, "table_id", None)
        if isinstance(table_id, str) and table_id:
            info.table_id = clip(table_id, FIELD_LIMIT)
        command_id = getattr(request, "command_id", None)
        if isinstance(command_id, str) and command_id:
            info.command_id = clip(command_id, FIELD_LIMIT)
        request_id = getattr(request, "request_id", None)
        if isinstance(request_id, str) and request_id:
            info.hidden.append(request_id)
        return info

    def answered(self, response: Any) -> None:
        """Take what the reply adds: the new table's id (``CreateTable``), the seat taken
        (``JoinTable``, ``AddBot``)."""
        table_id = getattr(response, "table_id", None)
        if self.table_id is None and isinstance(table_id, str) and table_id:
            self.table_id = clip(table_id, FIELD_LIMIT)
        seat = getattr(response, "seat", None)
        if self.seat is None and isinstance(seat, int) and not isinstance(seat, bool) and seat >= 0:
            self.seat = seat

    def failed(self, exc: BaseException, rich: grpc.Status) -> None:
        """Record the failure ``exc``, answered with ``rich`` (its code, its ``ErrorInfo.reason``, and
        the kind of store error it is, if it is one)."""
        self.result = rich.code.name
        self.reason = reason_of(rich)
        if store_down(exc):
            self.store_error = "unreachable"
        elif isinstance(exc, CorruptLog):
            self.store_error = "corrupt_log"
        elif isinstance(exc, Conflict):
            self.store_error = "conflict"
        if self.seat is None:
            self.seat = context_of(exc).seat

    def fields(self) -> dict[str, Any]:
        """The context fields known now (method, table id, seat, command id, game)."""
        known = {
            "method": self.method,
            "game": self.game,
            "table_id": self.table_id,
            "seat": self.seat,
            "command_id": self.command_id,
        }
        return {k: v for k, v in known.items() if v is not None}


_CALL: contextvars.ContextVar[CallInfo | None] = contextvars.ContextVar("trapoula_call", default=None)


def current_call() -> CallInfo | None:
    """The call in progress in this context (None outside a call)."""
    return _CALL.get()


def enter_call(info: CallInfo) -> contextvars.Token[CallInfo | None]:
    """Make ``info`` the call in progress; pass the token to :func:`leave_call`."""
    return _CALL.set(info)


def leave_call(token: contextvars.Token[CallInfo | None]) -> None:
    """End the call entered with ``token`` (a token of another context, as when a stream's
    generator is closed elsewhere, is ignored)."""
    try:
        _CALL.reset(token)
    except ValueError:
        _CALL.set(None)


def note_seat(seat: int | None) -> None:
    """The caller of the call in progress was authenticated as ``seat`` (None: not a seat)."""
    info = _CALL.get()
    if info is not None and seat is not None:
        info.seat = seat


def hide_in_call(value: str | None) -> None:
    """No record of the call in progress may show ``value`` (a bearer token); ignored outside a
    call, or when None or empty."""
    info = _CALL.get()
    if info is not None and value:
        info.hidden.append(value)


def hidden_in_call() -> list[str]:
    """The values hidden from the records of the call in progress (empty outside a call)."""
    info = _CALL.get()
    return info.hidden if info is not None else []


def note_failure(exc: BaseException, rich: grpc.Status) -> None:
    """The call in progress fails with ``exc``, answered ``rich`` (:meth:`CallInfo.failed`)."""
    info = _CALL.get()
    if info is not None:
        info.failed(exc, rich)


def reason_of(rich: grpc.Status) -> str:
    """The ``ErrorInfo.reason`` carried by a status's ``grpc-status-details-bin`` (empty if none)."""
    for key, value in rich.trailing_metadata or ():
        if key == "grpc-status-details-bin" and isinstance(value, bytes):
            try:
                details = status_pb2.Status.FromString(value).details
            except Exception:
                return ""
            for detail in details:
                info = error_details_pb2.ErrorInfo()
                if detail.Unpack(info):
                    return str(info.reason)
    return ""


# --------------------------------------------------------------------------- formatting


class CallContextFilter(logging.Filter):
    """Adds the context fields of the call in progress to each record (never drops a record)."""

    def filter(self, record: logging.LogRecord) -> bool:
        """Copy :meth:`CallInfo.fields` onto ``record`` (fields it already has are kept)."""
        info = _CALL.get()
        if info is not None:
            for key, value in info.fields().items():
                if not hasattr(record, key):
                    setattr(record, key, value)
        return True


def _shown(value: Any) -> str:
    text = value if isinstance(value, str) else str(value)
    return text if text and text.isprintable() and " " not in text and "=" not in text else repr(text)


class TextFormatter(logging.Formatter):
    """:data:`TEXT_FORMAT` followed by ``key=value`` for each context field the record carries."""

    def __init__(self) -> None:
        super().__init__(TEXT_FORMAT)

    def formatMessage(self, record: logging.LogRecord) -> str:
        """The line with its context fields (before any traceback)."""
        line = super().formatMessage(record)
        extra = [f"{key}={_shown(getattr(record, key))}" for key in CONTEXT_FIELDS if hasattr(record, key)]
        return f"{line} {' '.join(extra)}" if extra else line


def json_formatter() -> logging.Formatter:
    """One JSON object a line: ``time`` (UTC, ISO 8601), ``level``, ``logger``, ``message``, the context
    fields present, and ``exc_info`` (the traceback) when there is one."""
    return JsonFormatter(
        "%(levelname)s %(name)s %(message)s",
        rename_fields={"levelname": "level", "name": "logger"},
        timestamp="time",
        json_ensure_ascii=True,  # U+2028 and other line separators never split a line for a reader
    )


_HANDLER_MARK = "trapoula_handler"


class _StandardError(logging.StreamHandler):  # type: ignore[type-arg]
    """A handler writing to whatever ``sys.stderr`` is when each record is emitted, so that a
    program (or a test) that replaces standard error never leaves it writing to a closed stream."""

    @property
    def stream(self) -> TextIO:
        """The current standard error."""
        return sys.stderr

    @stream.setter
    def stream(self, value: TextIO) -> None:
        """Ignored: the stream is always the current standard error."""


def configure(log_format: str = "text", level: str = "info", stream: TextIO | None = None) -> logging.Handler:
    """Send the log to ``stream`` (standard error) as ``text`` or ``json`` lines, at ``level``.

    ``level`` applies to trapoula's own loggers; the libraries (gRPC, SQLAlchemy, Alembic) log
    their warnings and errors only, whatever the level, so that ``info`` is trapoula's own account
    and ``debug`` one line per call, not the libraries' chatter.  No record shows a token or the
    secret (:func:`trapoula.service.redaction.install`).  Calling it again replaces the
    handler it installed before.  Returns the handler.

    Raises:
        ValueError: an unknown format or level.
    """
    if log_format not in ("text", "json"):
        raise ValueError(f"log format {log_format!r} is not text or json")
    if level not in LEVELS:
        raise ValueError(f"log level {level!r} is not one of {', '.join(LEVELS)}")
    handler: logging.Handler = logging.StreamHandler(stream) if stream is not None else _StandardError()
    handler.setFormatter(json_formatter() if log_format == "json" else TextFormatter())
    handler.addFilter(CallContextFilter())
    handler.addFilter(redaction.install(hidden_in_call))
    setattr(handler, _HANDLER_MARK, True)
    root = logging.getLogger()
    for old in [h for h in root.handlers if getattr(h, _HANDLER_MARK, False)]:
        root.removeHandler(old)
    root.addHandler(handler)
    root.setLevel(max(LEVELS[level], logging.WARNING))
    logging.getLogger("trapoula").setLevel(LEVELS[level])
    return handler
