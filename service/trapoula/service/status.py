"""Errors -> gRPC status with a ``google.rpc.Status`` carrying an ``ErrorInfo`` (STYLE habit 8).

| error | code | ``ErrorInfo.reason`` |
|---|---|---|
| ``InvalidInput`` | ``INVALID_ARGUMENT`` | its reason (``bad_card`` ...) |
| ``CommandRejected`` | ``FAILED_PRECONDITION`` | the rules' reason (``not_your_turn`` ...) |
| ``TableNotFound`` | ``NOT_FOUND`` | ``table_not_found`` |
| ``PermissionDenied`` | ``PERMISSION_DENIED`` | ``bad_token``, ``owner_only``, ``identity_mismatch``, ... |
| ``Unauthenticated`` | ``UNAUTHENTICATED`` | ``identity_required``, ``bad_identity`` |
| ``SeatTaken``, ``AlreadyStarted`` | ``ALREADY_EXISTS`` | ``seat_taken``, ``table_full``, ``already_started`` |
| ``Conflict`` | ``ABORTED`` | ``conflict`` |
| ``StaleView`` | ``ABORTED`` | ``stale_view`` (the rules' refusal in ``rule``, ``refused``) |
| ``VersionAhead`` | ``OUT_OF_RANGE`` | ``version_ahead`` |
| ``Unavailable`` | ``UNAVAILABLE`` | ``server_stopping`` |
| ``Limited`` | ``RESOURCE_EXHAUSTED`` | ``rate_limited``, ``too_many_tables``, ``too_many_watches`` |
| the event store unreachable or timed out (:func:`store_down`) | ``UNAVAILABLE`` | ``store_unavailable`` |
| anything else | ``INTERNAL`` | ``internal`` (logged with a reference quoted in the message) |

``ErrorInfo.domain`` is ``"trapoula"``; ``metadata`` holds ``rule`` (for a refusal), ``seat``,
``version`` and ``table_id`` when known (``limit`` for a limit).  A refusal's message ends with
``[reason, rule]``.  A limit's status carries a ``google.rpc.RetryInfo`` after the ``ErrorInfo``:
its ``retry_delay`` is the time to wait, rounded up to the millisecond (:func:`retry_delay`).

Sizes are bounded whatever the input: every metadata value is clipped to
:data:`~trapoula.service.errors.ECHO_LIMIT` characters and a message to :data:`MESSAGE_LIMIT`
(messages already quote input through :func:`~trapoula.service.errors.clip`; this is the net
for a domain message that quotes more), so a status always fits gRPC's 8 KiB metadata limit.
"""

from __future__ import annotations

import logging
import math
import secrets

import grpc
import sqlalchemy.exc
from eventsourcing import persistence
from google.protobuf import any_pb2, duration_pb2
from google.rpc import error_details_pb2, status_pb2  # type: ignore[import-untyped]
from grpc_status import rpc_status

from trapoula.domain.errors import CommandRejected, InvalidInput
from trapoula.service.errors import (
    AlreadyStarted,
    Conflict,
    Limited,
    PermissionDenied,
    SeatTaken,
    ServiceError,
    StaleView,
    StoreUnavailable,
    TableNotFound,
    Unauthenticated,
    Unavailable,
    VersionAhead,
    clip,
    context_of,
)

DOMAIN = "trapoula"
"""``ErrorInfo.domain`` of every trapoula error."""

MESSAGE_LIMIT = 300
"""Most characters of a status message (the text before a refusal's ``[reason, rule]``)."""

log = logging.getLogger(__name__)

_CODES: tuple[tuple[type[BaseException], grpc.StatusCode], ...] = (
    (InvalidInput, grpc.StatusCode.INVALID_ARGUMENT),
    (CommandRejected, grpc.StatusCode.FAILED_PRECONDITION),
    (TableNotFound, grpc.StatusCode.NOT_FOUND),
    (PermissionDenied, grpc.StatusCode.PERMISSION_DENIED),
    (Unauthenticated, grpc.StatusCode.UNAUTHENTICATED),
    (SeatTaken, grpc.StatusCode.ALREADY_EXISTS),
    (AlreadyStarted, grpc.StatusCode.ALREADY_EXISTS),
    (Conflict, grpc.StatusCode.ABORTED),
    (StaleView, grpc.StatusCode.ABORTED),
    (VersionAhead, grpc.StatusCode.OUT_OF_RANGE),
    (Unavailable, grpc.StatusCode.UNAVAILABLE),
    (Limited, grpc.StatusCode.RESOURCE_EXHAUSTED),
)


def _driver_errors() -> tuple[type[BaseException], ...]:
    """psycopg's own ``OperationalError`` and ``InterfaceError`` (none without the postgres extra)."""
    try:
        import psycopg
    except ImportError:
        return ()
    return (psycopg.OperationalError, psycopg.InterfaceError)


_STORE_DOWN: tuple[type[BaseException], ...] = (
    persistence.OperationalError,
    persistence.InterfaceError,
    sqlalchemy.exc.OperationalError,
    sqlalchemy.exc.InterfaceError,
    *_driver_errors(),
)
"""What the store raises when its database cannot be reached or drops the connection (refused,
reset, timed out, shut down; PostgreSQL's ``lock_timeout`` and ``statement_timeout``; SQLite's
"database is locked"), as psycopg, SQLAlchemy and the eventsourcing recorders raise it."""

STORE_DOWN_SQLSTATES = frozenset({"25P03", "25P04"})
"""PostgreSQL error codes that psycopg raises as ``InternalError`` although the session was ended
by a timeout: ``idle_in_transaction_session_timeout`` (25P03) and ``transaction_timeout``
(25P04, PostgreSQL 17).  (``lock_timeout`` 55P03, ``statement_timeout`` 57014, shutdowns 57P0x
and connection failures 08xxx are ``OperationalError``s already.)"""

_WRAPPERS = (persistence.PersistenceError, sqlalchemy.exc.SQLAlchemyError)
"""Errors that wrap the driver's error (``raise ... from``): eventsourcing's and SQLAlchemy's."""


def _chain(exc: BaseException) -> list[BaseException]:
    """``exc`` and the errors it wraps, followed through ``__cause__`` while the wrapper is the
    store's (eventsourcing wraps SQLAlchemy's error, which wraps the driver's)."""
    links = [exc]
    while isinstance(links[-1], _WRAPPERS) and links[-1].__cause__ is not None and len(links) < 8:
        links.append(links[-1].__cause__)
    return links


def store_down(exc: BaseException) -> bool:
    """True when ``exc`` says the event store is unreachable for now (a retry may succeed): a
    connection-level error or a timeout of the database (:data:`STORE_DOWN_SQLSTATES` too), or a
    connection SQLAlchemy invalidated, whether raised by psycopg or wrapped by SQLAlchemy and by
    eventsourcing.  Errors of the service (refusals, conflicts) never count, whatever caused them.

    >>> store_down(persistence.OperationalError("connection refused"))
    True
    >>> store_down(persistence.IntegrityError("duplicate key"))
    False
    """
    return any(
        isinstance(link, _STORE_DOWN)
        or (isinstance(link, sqlalchemy.exc.DBAPIError) and bool(link.connection_invalidated))
        or getattr(link, "sqlstate", None) in STORE_DOWN_SQLSTATES
        for link in _chain(exc)
    )


def code_for(exc: BaseException) -> grpc.StatusCode:
    """The status code of an error (``INTERNAL`` for anything unexpected)."""
    if store_down(exc):
        return grpc.StatusCode.UNAVAILABLE
    for cls, code in _CODES:
        if isinstance(exc, cls):
            return code
    return grpc.StatusCode.INTERNAL


def describe(exc: BaseException) -> tuple[grpc.StatusCode, str, str, dict[str, str]]:
    """``(code, message, reason, metadata)`` of an error; an unexpected one is logged here (an
    unreachable store as a warning, without the database's own message in the reply)."""
    if store_down(exc):
        log.warning("event store unreachable: %s", str(exc).strip().splitlines()[0][:300] if str(exc).strip() else exc)
        exc = StoreUnavailable(
            "the event store cannot be reached or timed out; nothing half-written is kept: retry the call (the same "
            "command id is answered with its first result if the command did land)",
            context=context_of(exc),
        )
    code = code_for(exc)
    meta: dict[str, str] = {}
    ctx = context_of(exc)
    if ctx.table_id is not None:
        meta["table_id"] = clip(ctx.table_id)
    if ctx.seat is not None:
        meta["seat"] = str(ctx.seat)
    if ctx.version is not None:
        meta["version"] = str(ctx.version)
    if isinstance(exc, CommandRejected):
        meta["rule"] = clip(exc.rule)
        message = f"{clip(exc.message, MESSAGE_LIMIT)} [{clip(exc.reason)}, {clip(exc.rule)}]"
        return code, message, clip(exc.reason), meta
    if isinstance(exc, InvalidInput):
        return code, clip(exc.message, MESSAGE_LIMIT), clip(exc.reason), meta
    if isinstance(exc, Limited):
        meta["limit"] = exc.limit
    if isinstance(exc, StaleView):
        meta["refused"] = clip(exc.refusal.reason)
        meta["rule"] = clip(exc.refusal.rule)
    if isinstance(exc, ServiceError) and code is not grpc.StatusCode.INTERNAL:
        return code, clip(exc.message, MESSAGE_LIMIT), clip(exc.reason), meta
    ref = secrets.token_hex(4)
    log.error("internal error (ref %s): %r", ref, exc, exc_info=exc)
    return grpc.StatusCode.INTERNAL, f"internal error (ref {ref}); the server logged it", "internal", meta


def retry_delay(seconds: float) -> duration_pb2.Duration:
    """``seconds`` as a ``google.protobuf.Duration``, rounded up to the millisecond (a client that
    waits that long finds its limit passed).

    >>> retry_delay(0.0501).ToMilliseconds(), retry_delay(2.5).ToMilliseconds()
    (51, 2500)
    """
    millis = max(0, math.ceil(round(seconds * 1000, 6)))
    return duration_pb2.Duration(seconds=millis // 1000, nanos=(millis % 1000) * 1_000_000)


def to_rpc_status(exc: BaseException) -> status_pb2.Status:
    """The ``google.rpc.Status`` of an error, with its ``ErrorInfo`` (and a ``RetryInfo`` for a
    :class:`~trapoula.service.errors.Limited`)."""
    code, message, reason, meta = describe(exc)
    info = error_details_pb2.ErrorInfo(reason=reason, domain=DOMAIN, metadata=meta)
    detail = any_pb2.Any()
    detail.Pack(info)
    details = [detail]
    if isinstance(exc, Limited):
        retry = any_pb2.Any()
        retry.Pack(error_details_pb2.RetryInfo(retry_delay=retry_delay(exc.retry_after)))
        details.append(retry)
    return status_pb2.Status(code=code.value[0], message=message, details=details)


def to_status(exc: BaseException) -> grpc.Status:
    """The ``grpc.Status`` to abort a call with (``context.abort_with_status``)."""
    return rpc_status.to_status(to_rpc_status(exc))
