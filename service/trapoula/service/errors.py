"""The service's own errors (the domain's are :class:`~trapoula.domain.errors.InvalidInput` and
:class:`~trapoula.domain.errors.CommandRejected`).  ``status.py`` maps each to a gRPC code:

| error | status code |
|---|---|
| :class:`TableNotFound` | ``NOT_FOUND`` |
| :class:`PermissionDenied` | ``PERMISSION_DENIED`` |
| :class:`Unauthenticated` | ``UNAUTHENTICATED`` |
| :class:`SeatTaken`, :class:`AlreadyStarted` | ``ALREADY_EXISTS`` |
| :class:`Conflict` | ``ABORTED`` |
| :class:`VersionAhead` | ``OUT_OF_RANGE`` |
| :class:`Unavailable`, :class:`StoreUnavailable` | ``UNAVAILABLE`` |
| :class:`Limited` | ``RESOURCE_EXHAUSTED`` (with a ``RetryInfo``) |

Any error may carry an :class:`ErrorContext` (table, seat, version) for the ``ErrorInfo``
metadata; :func:`annotate` attaches one to a domain error too.

An error message quotes the offending input through :func:`clip`, so that a long input never
makes a status exceed gRPC's metadata limit (the client would get ``RESOURCE_EXHAUSTED`` and
lose the real status).
"""

from __future__ import annotations

from dataclasses import dataclass

from trapoula.domain.errors import CommandRejected


@dataclass(frozen=True, slots=True)
class ErrorContext:
    """Where an error happened, for ``ErrorInfo.metadata``."""

    table_id: str | None = None
    seat: int | None = None
    """The caller's seat, when it has one."""
    version: int | None = None
    """The table's version when the command was refused."""


_CONTEXT_ATTR = "trapoula_context"

ECHO_LIMIT = 64
"""Most characters of a caller's input that an error message or ``ErrorInfo`` metadata quotes."""


def clip(value: object, limit: int = ECHO_LIMIT) -> str:
    """``value`` as text (``str``), cut to ``limit`` characters with an ellipsis when longer.

    >>> clip("x" * 100, 8)
    'xxxxxxx…'
    >>> clip(42)
    '42'
    """
    text = value if isinstance(value, str) else str(value)
    return text if len(text) <= limit else text[: max(limit - 1, 0)] + "\u2026"


def annotate(exc: BaseException, context: ErrorContext) -> BaseException:
    """Attach ``context`` to ``exc`` (kept if one is already attached) and return ``exc``."""
    if getattr(exc, _CONTEXT_ATTR, None) is None:
        setattr(exc, _CONTEXT_ATTR, context)
    return exc


def context_of(exc: BaseException) -> ErrorContext:
    """The context attached to ``exc`` (an empty one if none)."""
    found = getattr(exc, _CONTEXT_ATTR, None)
    return found if isinstance(found, ErrorContext) else ErrorContext()


class ServiceError(Exception):
    """Base of the service's errors: a message and a stable lower_snake ``reason`` code."""

    default_reason = "service_error"

    def __init__(self, message: str, reason: str | None = None, context: ErrorContext | None = None) -> None:
        super().__init__(message)
        self.message = message
        """Human-readable, naming the input."""
        self.reason = reason or self.default_reason
        """Stable code for ``ErrorInfo.reason``."""
        if context is not None:
            annotate(self, context)


class TableNotFound(ServiceError):
    """No table has this id (``NOT_FOUND``)."""

    default_reason = "table_not_found"


class PermissionDenied(ServiceError):
    """A wrong token, or a principal that may not issue this command (``PERMISSION_DENIED``)."""

    default_reason = "permission_denied"


class Unauthenticated(ServiceError):
    """No identity token where the server requires one, or one that does not verify
    (``UNAUTHENTICATED``; reasons ``identity_required``, ``bad_identity``)."""

    default_reason = "bad_identity"


class SeatTaken(ServiceError):
    """The seat asked for is taken, or no seat is free (``ALREADY_EXISTS``)."""

    default_reason = "seat_taken"


class AlreadyStarted(ServiceError):
    """The match has started: no more seats, no second start (``ALREADY_EXISTS``)."""

    default_reason = "already_started"


class Conflict(ServiceError):
    """Concurrent commands kept winning the race; retry against the new state (``ABORTED``)."""

    default_reason = "conflict"


class StaleView(ServiceError):
    """The rules refuse a command chosen from a view the table has moved past (``ABORTED``,
    reason ``stale_view``): refresh the view and choose again.  A move refused on the view it was
    chosen from is a :class:`~trapoula.domain.errors.CommandRejected` instead."""

    default_reason = "stale_view"

    def __init__(self, message: str, refusal: CommandRejected, context: ErrorContext | None = None) -> None:
        super().__init__(message, context=context)
        self.refusal = refusal
        """The rules' refusal on the table as it is now (its ``reason`` and ``rule`` go into the
        status's metadata as ``refused`` and ``rule``)."""


class VersionAhead(ServiceError):
    """A version beyond the table's head was asked for (``OUT_OF_RANGE``)."""

    default_reason = "version_ahead"


class Unavailable(ServiceError):
    """The server is stopping; call again (another replica, or after the restart) (``UNAVAILABLE``)."""

    default_reason = "server_stopping"


class StoreUnavailable(Unavailable):
    """The event store cannot be reached or timed out (``UNAVAILABLE``, reason ``store_unavailable``).

    Nothing half-written stays behind (every save is one transaction), but a save whose commit
    was cut off may or may not have landed: retry the command with the same command id, which
    the server answers with the first result if it did."""

    default_reason = "store_unavailable"


class Limited(ServiceError):
    """A client over one of its limits (:mod:`trapoula.service.limits`): ``RESOURCE_EXHAUSTED``,
    reason ``rate_limited``, ``too_many_tables`` or ``too_many_watches``, with a
    ``google.rpc.RetryInfo`` of :attr:`retry_after`.  Nothing ran: the call may be sent again."""

    default_reason = "rate_limited"

    def __init__(self, message: str, reason: str, retry_after: float, limit: str) -> None:
        super().__init__(message, reason)
        self.retry_after = retry_after
        """Seconds the client should wait before it calls again."""
        self.limit = limit
        """Which limit: ``CreateTable``, ``JoinTable``, ``Act`` (rates), ``open_tables``, ``watches``."""


class CorruptLog(ServiceError):
    """A stored event breaks the hash chain or cannot be decoded (``INTERNAL``)."""

    default_reason = "corrupt_log"
