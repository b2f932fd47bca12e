"""Typed client errors rebuilt from gRPC failures (STYLE habit 8).

The server answers a refused call with a status code and a ``google.rpc.Status`` whose
``ErrorInfo`` (domain ``trapoula``) carries a stable ``reason`` code and metadata such as the rule
number.  :func:`from_rpc_error` turns a :class:`grpc.RpcError` into one of the classes below, so
client code never inspects gRPC errors:

| status code | class |
|---|---|
| ``INVALID_ARGUMENT`` | :class:`InvalidArgument` |
| ``NOT_FOUND`` | :class:`NotFound` |
| ``PERMISSION_DENIED``, ``UNAUTHENTICATED`` | :class:`PermissionDenied` |
| ``FAILED_PRECONDITION`` | :class:`CommandRejected` (``reason``, ``rule``) |
| ``ABORTED`` | :class:`Conflict`; :class:`StaleView` for reason ``stale_view`` |
| ``ALREADY_EXISTS`` | :class:`AlreadyExists` |
| ``UNAVAILABLE``, ``DEADLINE_EXCEEDED``, ``CANCELLED`` | :class:`Unavailable` |
| ``RESOURCE_EXHAUSTED`` | :class:`ResourceExhausted` (a limit per client: ``retry_delay``) |
| anything else | :class:`TrapoulaError` |

A status that carries a ``google.rpc.RetryInfo`` (the server's limits per client do) gives its
delay in seconds as :attr:`TrapoulaError.retry_delay`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import grpc
from google.rpc import error_details_pb2  # type: ignore[import-untyped]  # stubs ship without py.typed
from grpc_status import rpc_status

__all__ = [
    "AlreadyExists",
    "CommandRejected",
    "Conflict",
    "InvalidArgument",
    "NotFound",
    "PermissionDenied",
    "ResourceExhausted",
    "StaleView",
    "TrapoulaError",
    "Unavailable",
    "from_rpc_error",
]


class TrapoulaError(Exception):
    """A call the server refused or could not answer.

    Attributes:
        code: the gRPC status code (None when the failure did not come from a call, e.g. an
            argument the client refused before calling).
        message: the human-readable message, one line, without the ``[reason, rule]`` tag.
        reason: ``ErrorInfo.reason`` (a stable lower_snake code), or ``""`` when absent.
        metadata: ``ErrorInfo.metadata`` (``rule``, ``seat``, ``version`` ...).
        retry_delay: seconds the server asks the client to wait before calling again (its
            ``google.rpc.RetryInfo``), or None when it gave none.
    """

    def __init__(
        self,
        message: str,
        *,
        code: grpc.StatusCode | None = None,
        reason: str = "",
        metadata: Mapping[str, str] | None = None,
        retry_delay: float | None = None,
    ) -> None:
        super().__init__(message)
        self.message = message
        self.code = code
        self.reason = reason
        self.metadata: dict[str, str] = dict(metadata or {})
        self.retry_delay = retry_delay

    @property
    def rule(self) -> str | None:
        """The rule number the server cited (``ErrorInfo.metadata["rule"]``), if any."""
        return self.metadata.get("rule") or None

    @property
    def tag(self) -> str:
        """``[reason, rule]`` (or ``[reason]``), ``""`` when the error carries neither."""
        tags = [t for t in (self.reason, self.rule) if t]
        return f"[{', '.join(tags)}]" if tags else ""

    def __str__(self) -> str:
        """The message followed once by :attr:`tag` (``card '4C' is not in ... [card_not_in_hand, S11]``)."""
        tag = self.tag
        if not tag or self.message.endswith(tag):
            return self.message
        return f"{self.message} {tag}"


class InvalidArgument(TrapoulaError):
    """Malformed request: a bad card code, an unknown option or game (``INVALID_ARGUMENT``).

    The client raises it too, before any call (``code`` None), for an argument of the wrong
    type or out of the range of its wire field (``seats="2"``, ``seat=2**40``, ``from_version=-1``).
    """


class NotFound(TrapoulaError):
    """Unknown table or seat (``NOT_FOUND``)."""


class PermissionDenied(TrapoulaError):
    """Missing or wrong token for this table or seat (``PERMISSION_DENIED``)."""


class CommandRejected(TrapoulaError):
    """A move the rules refuse (``FAILED_PRECONDITION``): ``reason`` and ``rule`` say why."""


class Conflict(TrapoulaError):
    """A concurrent command won the race; retry against the new state (``ABORTED``)."""


class StaleView(Conflict):
    """The rules refuse a command chosen from a view the table has since moved past (``ABORTED``,
    reason ``stale_view``): refresh the view and choose again.  ``metadata`` holds the rules'
    refusal on the table as it is now (``refused``, ``rule``) and the caller's ``version``."""


class AlreadyExists(TrapoulaError):
    """The seat is taken or the match has started (``ALREADY_EXISTS``)."""


class ResourceExhausted(TrapoulaError):
    """A limit per client (``RESOURCE_EXHAUSTED``): ``reason`` ``rate_limited`` (too many calls too
    fast), ``too_many_tables`` (as many open tables as allowed) or ``too_many_watches`` (as many
    streams open as allowed); :attr:`retry_delay` is the wait the server asks for.  Nothing ran:
    the same call may be sent again after the delay.  (Also a message larger than a side accepts.)"""


class Unavailable(TrapoulaError):
    """The server cannot be reached or did not answer (``UNAVAILABLE``, ``DEADLINE_EXCEEDED``; ``CANCELLED``:
    a stopping server's gRPC cancels a call that arrives after it stopped serving, without running it)."""


_BY_CODE: dict[grpc.StatusCode, type[TrapoulaError]] = {
    grpc.StatusCode.INVALID_ARGUMENT: InvalidArgument,
    grpc.StatusCode.NOT_FOUND: NotFound,
    grpc.StatusCode.PERMISSION_DENIED: PermissionDenied,
    grpc.StatusCode.UNAUTHENTICATED: PermissionDenied,
    grpc.StatusCode.FAILED_PRECONDITION: CommandRejected,
    grpc.StatusCode.ABORTED: Conflict,
    grpc.StatusCode.ALREADY_EXISTS: AlreadyExists,
    grpc.StatusCode.UNAVAILABLE: Unavailable,
    grpc.StatusCode.DEADLINE_EXCEEDED: Unavailable,
    grpc.StatusCode.CANCELLED: Unavailable,
    grpc.StatusCode.RESOURCE_EXHAUSTED: ResourceExhausted,
}


def _error_info(error: Any) -> tuple[str, dict[str, str], float | None]:
    """``(reason, metadata, retry delay)`` of the call's rich status: its first ``ErrorInfo`` and
    its first ``RetryInfo`` (in seconds), if any."""
    try:
        status = rpc_status.from_call(error)
    except (ValueError, AttributeError, TypeError):
        return "", {}, None
    if status is None:
        return "", {}, None
    reason, metadata, delay = "", {}, None
    found = False
    for detail in status.details:
        if not found and detail.Is(error_details_pb2.ErrorInfo.DESCRIPTOR):
            info = error_details_pb2.ErrorInfo()
            detail.Unpack(info)
            reason, metadata, found = info.reason, dict(info.metadata), True
        elif delay is None and detail.Is(error_details_pb2.RetryInfo.DESCRIPTOR):
            retry = error_details_pb2.RetryInfo()
            detail.Unpack(retry)
            delay = max(0.0, retry.retry_delay.ToNanoseconds() / 1e9)
    return reason, metadata, delay


def from_rpc_error(error: grpc.RpcError) -> TrapoulaError:
    """The typed error for a failed call (see the module table).

    ``error`` is what a stub call raised; for a synchronous call it is also a :class:`grpc.Call`
    carrying the code, the details and the trailing metadata with the rich status.  The server
    ends a refusal's message with ``[reason, rule]`` (for generic gRPC clients); that tag is
    taken off :attr:`TrapoulaError.message`, and ``str(error)`` shows it once.  The message is
    made one line (whitespace runs become one space).
    """
    code_fn = getattr(error, "code", None)
    details_fn = getattr(error, "details", None)
    code = code_fn() if callable(code_fn) else None
    details = details_fn() if callable(details_fn) else None
    message = " ".join((str(details) if details else str(error) or "call failed").split())  # one line
    reason, metadata, delay = _error_info(error)
    cls = _BY_CODE.get(code, TrapoulaError) if isinstance(code, grpc.StatusCode) else TrapoulaError
    if cls is Conflict and reason == "stale_view":
        cls = StaleView
    result = cls(
        message,
        code=code if isinstance(code, grpc.StatusCode) else None,
        reason=reason,
        metadata=metadata,
        retry_delay=delay,
    )
    if result.tag and message.endswith(result.tag):  # a refusal's message ends with its tag already
        result.message = message[: -len(result.tag)].rstrip()
    return result
