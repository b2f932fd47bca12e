"""A server-side deadline for every gRPC call (docs/operations.md, Deadlines).

gRPC ends a call at the deadline its caller sets (``grpc-timeout``), but a caller may set none,
and grpc.aio waits for a unary call's request for ever: a client that sends a call's headers and
then nothing, or a length prefix and half the message, holds the call (its task, its buffers, its
HTTP/2 stream) as long as its connection lives.  Keepalive does not help (the connection is alive)
nor do ``grpc.max_connection_idle_ms`` (a connection with a call open is not idle) and
``grpc.max_connection_age_ms`` (it would end every long watch stream too).

:class:`CallDeadline`, a grpc.aio server interceptor, gives each call the server's own deadline:

- a unary call (request and reply single) must be received and answered within ``seconds`` (the
  whole call), else it is answered ``DEADLINE_EXCEEDED`` and its task, buffers and stream are
  freed (gRPC sends the status and resets the stream the client left open);
- a server-streaming call (``WatchTable``, health ``Watch``) must deliver its request within
  ``seconds``, same answer otherwise; once it has, the stream is exempt and lives as long as the
  caller follows it.

It does so by serving each such method as its request-streaming twin: the handler receives the
request itself, under :func:`asyncio.timeout`, then calls the method's own behaviour.  Handlers
that stream requests already (reflection) or are not ``async`` are left as they are.  A shorter
deadline set by the caller still applies (gRPC ends the call first).
"""

from __future__ import annotations

import asyncio
import inspect
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any, NoReturn

import grpc

from trapoula.service.settingvalues import DEFAULT_CALL_DEADLINE_SECONDS

__all__ = ["DEFAULT_CALL_DEADLINE_SECONDS", "CallDeadline"]


Behaviour = Callable[[Any, grpc.aio.ServicerContext[Any, Any]], Any]


async def _expired(context: grpc.aio.ServicerContext[Any, Any], seconds: float, what: str) -> NoReturn:
    await context.abort(
        grpc.StatusCode.DEADLINE_EXCEEDED, f"the server's deadline for {what} ({seconds:g} s) has passed"
    )
    raise AssertionError("abort returned")  # pragma: no cover


async def _request(context: grpc.aio.ServicerContext[Any, Any]) -> Any:
    """The call's one request, read from ``context`` (``ServicerContext.read``: one receive, without
    the request iterator's async generator); a second one, as gRPC's own unary handling, is never
    read.

    Raises (through ``context.abort``):
        grpc.aio.AbortError: the caller ended its side without a request (``INTERNAL``).
    """
    request = await context.read()
    if request is grpc.aio.EOF:  # type: ignore[attr-defined]  # the stubs lack it; grpc.aio exports it
        await context.abort(grpc.StatusCode.INTERNAL, "the call ended without its request")
        raise AssertionError("abort returned")  # pragma: no cover
    return request


class CallDeadline(grpc.aio.ServerInterceptor):  # type: ignore[type-arg]
    """The server's deadline of ``seconds`` (> 0) for every call (see the module docstring)."""

    def __init__(self, seconds: float = DEFAULT_CALL_DEADLINE_SECONDS) -> None:
        if not seconds > 0:
            raise ValueError(f"a call deadline must be positive, not {seconds!r}")
        self.seconds = seconds
        self._twins: dict[int, tuple[Any, Any]] = {}
        """``id(handler) -> (handler, its twin)``: each method's twin is made once (the generic
        handlers give the same handler object for every call of a method)."""

    async def intercept_service(
        self,
        continuation: Callable[[grpc.HandlerCallDetails], Awaitable[grpc.RpcMethodHandler[Any, Any]]],
        handler_call_details: grpc.HandlerCallDetails,
    ) -> grpc.RpcMethodHandler[Any, Any]:
        """The method's handler, served as its request-streaming twin under the deadline (unchanged
        when it streams requests already, is not ``async``, or is unknown: None)."""
        handler = await continuation(handler_call_details)
        known = self._twins.get(id(handler))
        if known is not None and known[0] is handler:
            return known[1]  # type: ignore[no-any-return]
        twin = self._twin(handler)
        if handler is not None and len(self._twins) < 1024:
            self._twins[id(handler)] = (handler, twin)  # the handler is kept, so its id is never reused
        return twin  # type: ignore[no-any-return]

    def _twin(self, handler: grpc.RpcMethodHandler[Any, Any] | None) -> Any:
        """The request-streaming twin of ``handler`` (itself when it has none, or None)."""
        if handler is None or handler.request_streaming:
            return handler
        if handler.response_streaming:
            stream = handler.unary_stream
            if inspect.isasyncgenfunction(stream):
                return grpc.stream_stream_rpc_method_handler(
                    self._generator(stream),
                    request_deserializer=handler.request_deserializer,
                    response_serializer=handler.response_serializer,
                )
            if inspect.iscoroutinefunction(stream):  # writes its replies with context.write
                return grpc.stream_stream_rpc_method_handler(
                    self._writer(stream),
                    request_deserializer=handler.request_deserializer,
                    response_serializer=handler.response_serializer,
                )
            return handler
        unary = handler.unary_unary
        if not inspect.iscoroutinefunction(unary):
            return handler
        return grpc.stream_unary_rpc_method_handler(
            self._unary(unary),
            request_deserializer=handler.request_deserializer,
            response_serializer=handler.response_serializer,
        )

    def _unary(self, behaviour: Behaviour) -> Callable[..., Awaitable[Any]]:
        """A unary behaviour whose request and reply must come within the deadline."""
        seconds = self.seconds

        async def handle(requests: AsyncIterator[Any], context: grpc.aio.ServicerContext[Any, Any]) -> Any:
            limit = asyncio.timeout(seconds)
            try:
                async with limit:
                    return await behaviour(await _request(context), context)
            except TimeoutError:
                if not limit.expired():
                    raise
            await _expired(context, seconds, "this call")

        return handle

    async def _first(self, context: grpc.aio.ServicerContext[Any, Any]) -> Any:
        """The request of a stream, within the deadline."""
        limit = asyncio.timeout(self.seconds)
        try:
            async with limit:
                return await _request(context)
        except TimeoutError:
            if not limit.expired():
                raise
        await _expired(context, self.seconds, "the request of this stream")

    def _generator(self, behaviour: Callable[..., AsyncIterator[Any]]) -> Callable[..., AsyncIterator[Any]]:
        """A streaming behaviour (an async generator) whose request must come within the deadline."""

        async def handle(
            requests: AsyncIterator[Any], context: grpc.aio.ServicerContext[Any, Any]
        ) -> AsyncIterator[Any]:
            request = await self._first(context)
            async for item in behaviour(request, context):
                yield item

        return handle

    def _writer(self, behaviour: Behaviour) -> Callable[..., Awaitable[None]]:
        """A streaming behaviour (a coroutine writing its replies) whose request must come within the deadline."""

        async def handle(requests: AsyncIterator[Any], context: grpc.aio.ServicerContext[Any, Any]) -> None:
            request = await self._first(context)
            await behaviour(request, context)

        return handle
