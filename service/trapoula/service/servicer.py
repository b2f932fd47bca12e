"""``TableService`` over grpc.aio: convert the request, call ``Tables``, convert the result.

Every store call, and every conversion of a request (whose cost grows with its size), runs in a
thread pool (the store is blocking; the event loop serves the streams).  Every error becomes a
status with a ``google.rpc.Status`` (see ``status.py``); an unexpected one is logged and answered
``INTERNAL``, and the server goes on serving.  The seat token is read from ``authorization:
Bearer <token>`` metadata.

Command ids (``StartMatch``, ``Act``) belong to their caller (a seat, or the owner): a repeated
id from the same caller returns the first result, whatever the repeated command; the same id
from another caller is another command.  A refused command uses up nothing: its id may later
carry a command that succeeds.  See :meth:`trapoula.service.application.Tables.act`.

``CreateTable``, ``JoinTable``, ``Act`` and ``WatchTable`` first check the caller's limits
(:mod:`trapoula.service.limits`): a call over one is refused ``RESOURCE_EXHAUSTED`` before any
command runs.
"""

from __future__ import annotations

import asyncio
import functools
import time
from collections import OrderedDict
from collections.abc import AsyncIterator, Awaitable, Callable
from concurrent.futures import Executor
from dataclasses import dataclass
from typing import Any, TypeVar

import grpc

from trapoula.api.v1 import table_pb2 as pb
from trapoula.api.v1 import table_pb2_grpc
from trapoula.domain.errors import InvalidInput
from trapoula.service import convert, logs
from trapoula.service.application import Principal, Tables, WatchBatch, WatchItem, WatchRun
from trapoula.service.errors import Unavailable, clip
from trapoula.service.fanout import Fanout
from trapoula.service.limits import ACT, JOIN, Limits
from trapoula.service.loopacts import LoopActs
from trapoula.service.metrics import Metrics
from trapoula.service.recording import forget_oldest
from trapoula.service.servicecalls import Context, ReadCalls, abort_call, call_token

T = TypeVar("T")


POLL_SECONDS = 5.0
"""A watcher re-reads the store at least this often, even without a wake-up."""
POLL_SHARED = 0.5
"""A watcher's poll takes the table in memory instead of asking the store when the process read
the table from the store less than this share of the poll interval ago (another watcher of the
table polling at the same moment, as the watchers woken by one save do)."""
WATCH_EVENTS = 1000
"""Most events one read of a watch gives (one message each); the stream then reads again."""
BATCH_EVENTS = 200
"""Most events in one message of a batched watch (``WatchTableRequest.batch``)."""
MEMORY_POLLS = 3
"""Most polls in a row a watch takes in memory while the store follower listens; the next asks
the store all the same, so a listening connection that went silent without breaking (a stuck
backend or proxy) delays a wake-up by at most this many poll intervals and one more."""
ENCODED_KEPT = 4096
"""Stream messages kept serialised for the other streams that send the same one."""
LOOP_REQUEST_BYTES = 1024
"""The largest ``ActRequest`` (serialised bytes) converted and run on the event loop
(:mod:`~trapoula.service.loopacts`); a larger one (a long JSON command, thousands of card codes)
is converted on the store's threads, so that no request holds the loop for long.  A move is
under 100 bytes."""


class TableServicer(ReadCalls, table_pb2_grpc.TableServiceServicer):
    """The ``trapoula.api.v1.TableService`` implementation (thin: STYLE habit 7)."""

    def __init__(
        self,
        tables: Tables,
        fanout: Fanout,
        executor: Executor,
        poll_seconds: float = POLL_SECONDS,
        metrics: Metrics | None = None,
        limits: Limits | None = None,
    ) -> None:
        super().__init__(tables, fanout, executor)
        self.poll_seconds = poll_seconds
        self.metrics = metrics or Metrics()
        """Counts, times and logs every call (:func:`add_to_server` wraps each RPC in it)."""
        self.limits = limits or Limits()
        """The limits per client, checked first by ``CreateTable``, ``JoinTable``, ``Act`` and ``WatchTable``."""
        self.limits.attach(tables)
        self._encoded: OrderedDict[int, tuple[WatchItem | WatchRun, bytes]] = OrderedDict()
        self.loop_acts: LoopActs | None = None
        """Runs ``Act`` on the event loop where it can (PostgreSQL: :mod:`~trapoula.service.loopacts`);
        None: every ``Act`` runs on the store's threads."""

    async def CreateTable(self, request: pb.CreateTableRequest, context: Context) -> pb.CreateTableResponse:
        """Create a table; see the proto."""

        async def work() -> pb.CreateTableResponse:
            player_id = self._verified_id(request.identity_token)
            retry_of = self.tables.request_table_id(request.request_id, player_id) if request.request_id else None
            with self.limits.new_table(context, player_id, retry_of) as slot:
                options = await self._run(convert.struct_to_dict, request.options)
                first_dealer = request.first_dealer if request.HasField("first_dealer") else None
                table_id, owner_token = await self._run(
                    self.tables.create_table,
                    request.game,
                    request.seats,
                    options,
                    first_dealer,
                    list(request.initial_totals),
                    request.manual_deal,
                    request.request_id,
                    request.identity_token,
                    request.private,
                )
                slot.created(table_id)
            code = await self._run(self.tables.invitation_code, table_id, owner_token)
            return pb.CreateTableResponse(table_id=table_id, owner_token=owner_token, invitation_code=code)

        return await self._guard(context, work)

    def _verified_id(self, identity_token: str) -> str | None:
        """The verified player of an identity token, for the limits per client (None: no identity key,
        no token, or one that does not verify: the call then counts against its peer, and ``Tables``
        refuses it)."""
        identity = self.tables.identity
        if identity is None or not identity_token:
            return None
        try:
            return identity.verify(identity_token).player_id
        except Exception:  # refused by Tables, with its reason
            return None

    async def JoinTable(self, request: pb.JoinTableRequest, context: Context) -> pb.JoinTableResponse:
        """Take a seat; see the proto."""

        async def work() -> pb.JoinTableResponse:
            self.limits.check(JOIN, context, self._verified_id(request.identity_token))
            seat_wanted = request.seat if request.HasField("seat") else None
            seat, token = await self._run(
                self.tables.join,
                request.table_id,
                request.name,
                seat_wanted,
                request.request_id,
                request.identity_token,
                request.invitation_code,
            )
            return pb.JoinTableResponse(seat=seat, seat_token=token, queued=seat < 0)

        return await self._guard(context, work)

    async def AddBot(self, request: pb.AddBotRequest, context: Context) -> pb.AddBotResponse:
        """Seat a server bot; see the proto."""

        async def work() -> pb.AddBotResponse:
            call = self._authed(request.table_id, call_token(context), self._add_bot, request)
            seat = await self._run(call)
            return pb.AddBotResponse(seat=seat, queued=seat < 0)

        return await self._guard(context, work)

    def _add_bot(self, table_id: str, principal: Principal, request: pb.AddBotRequest) -> int:
        seat_wanted = request.seat if request.HasField("seat") else None
        return self.tables.add_bot(table_id, request.level, seat_wanted, request.name or None, principal)

    async def StartMatch(self, request: pb.StartMatchRequest, context: Context) -> pb.ActResponse:
        """Start the match; see the proto."""

        async def work() -> pb.ActResponse:
            deal = await self._run(convert.start_deal, request)
            call = self._authed(
                request.table_id, call_token(context), self.tables.start_match, request.command_id, deal
            )
            return convert.act_response(await self._run(call))

        return await self._guard(context, work)

    async def Act(self, request: pb.ActRequest, context: Context) -> pb.ActResponse:
        """Issue a command for the caller's seat; see the proto."""

        def act(token: str | None, command: dict[str, Any] | None) -> pb.ActResponse:
            # one thread hop: convert (cost grows with size; unless done on the loop already), act
            if command is None:
                command = convert.command_to_dict(request.command)
            principal = self.tables.authenticate(request.table_id, token)
            logs.note_seat(principal.seat)
            view_version = request.view_version if request.HasField("view_version") else None
            result = self.tables.act(request.table_id, principal, request.command_id, command, view_version)
            return convert.act_response(result)

        async def work() -> pb.ActResponse:
            self.limits.check(ACT, context)
            token = call_token(context)
            command = None
            if self.loop_acts is not None and request.ByteSize() <= LOOP_REQUEST_BYTES:
                view_version = request.view_version if request.HasField("view_version") else None
                command = convert.command_to_dict(request.command)
                result = await self.loop_acts.act(request.table_id, token, request.command_id, command, view_version)
                if result is not None:
                    return convert.act_response(result)
            return await self._run(act, token, command)

        return await self._guard(context, work)

    async def GiveSeed(self, request: pb.GiveSeedRequest, context: Context) -> pb.GiveSeedResponse:
        """Give the caller's seat's own seed for the hand awaiting seeds; see the proto."""

        def give(token: str | None) -> pb.GiveSeedResponse:
            principal = self.tables.authenticate(request.table_id, token)
            hand, version = self.tables.give_seed(request.table_id, principal, request.seed, request.hand)
            return pb.GiveSeedResponse(hand=hand, version=version)

        async def work() -> pb.GiveSeedResponse:
            return await self._run(give, call_token(context))

        return await self._guard(context, work)

    async def GetView(self, request: pb.GetViewRequest, context: Context) -> pb.GetViewResponse:
        """The caller's view; see the proto."""

        async def work() -> pb.GetViewResponse:
            version, view = await self._run(self._authed(request.table_id, call_token(context), self.tables.view))
            return pb.GetViewResponse(view=convert.view_to_proto(version, view))

        return await self._guard(context, work)

    def WatchTable(  # type: ignore[override]  # it yields messages already serialised
        self, request: pb.WatchTableRequest, context: Context
    ) -> AsyncIterator[bytes]:
        """Stream the caller's events and views after ``from_version``, then live (see :meth:`watch_items`),
        each message serialised once for every stream that sends it (:meth:`encoded`): one event a
        message, or with ``batch`` the events ready together and the view after the last.  (The
        stream of :meth:`watch_items` itself, serialising as it goes: no generator in between.)"""
        return self._watch(request, context, self.encoded)

    def watch_items(self, request: pb.WatchTableRequest, context: Context) -> AsyncIterator[WatchItem | WatchRun]:
        """The items of a ``WatchTable`` stream, one a message: the caller's events and views after
        ``from_version``, then live (the Connect stream sends them; the gRPC stream, serialised).
        An item is one :class:`WatchItem` an event; with ``request.batch``, one :class:`WatchRun`
        of the events ready together (at most :data:`BATCH_EVENTS`), with the view after the last only.

        A stream woken by a save renders the new events from the table in memory; one that waited
        :attr:`poll_seconds` in vain re-reads the table from the store (in case a wake-up was
        lost), unless the process read it less than :data:`POLL_SHARED` of that ago, or the store
        follower has listened without a break since the wait began (PostgreSQL: no save can have
        been missed; ``StoreFollower.follows_since``), when it takes the table in memory, at most
        :data:`MEMORY_POLLS` times in a row.

        The stream ends by itself once the match is over and its last event was sent.  A
        ``from_version`` beyond the table's version is ``OUT_OF_RANGE`` (``version_ahead``).  When
        the server stops, open streams end at once with ``UNAVAILABLE`` (``server_stopping``):
        watch again, from the last version seen, once the server (or another replica) is back.
        """
        return self._watch(request, context, _as_is)

    async def _watch(
        self, request: pb.WatchTableRequest, context: Context, message: Callable[[WatchItem | WatchRun], T]
    ) -> AsyncIterator[T]:
        """:meth:`watch_items`, each item yielded as ``message`` makes it (:meth:`encoded`, or as it is)."""
        table_id = request.table_id
        counted: str | None = None
        try:
            counted = self.limits.open_watch(context)  # refused over the client's limit of streams
            principal = await self._run(self.tables.authenticate, table_id, call_token(context))
            after = int(request.from_version)
            every_view = not request.batch
            limit = WATCH_EVENTS if every_view else BATCH_EVENTS
            batch: WatchBatch | None = None
            memory_polls = 0
            while True:
                if self.fanout.closed:
                    raise Unavailable(f"the server is stopping; watch again from version {after}")
                if batch is None:  # first, after a timed-out wait, or more than the table in memory can give
                    first = functools.partial(self.tables.events_after, limit=limit, every_view=every_view)
                    batch = await self._run(first, table_id, principal, after)
                for item in batch.items:
                    yield message(item)
                    after = item.version
                if after < batch.position:
                    batch = None
                    continue
                if batch.over:
                    return
                head, batch = batch.head, None  # not kept while waiting: the collector would walk it
                # woken by an announced save: the table in memory has it, and renders it without a thread
                waited_from = time.monotonic()
                woken = await self.fanout.wait(table_id, head, timeout=self.poll_seconds)
                if not woken and memory_polls < MEMORY_POLLS and self.tables.follower.follows_since(waited_from):
                    memory_polls += 1
                    woken = True  # no save can have been missed: the table in memory is current
                if woken:
                    batch = self.tables.watch_in_memory(table_id, principal, after, limit, every_view=every_view)
                    if batch is None:
                        read = functools.partial(
                            self.tables.events_after, limit=limit, fresh=False, every_view=every_view
                        )
                        batch = await self._run(read, table_id, principal, after)
                else:  # a poll for a lost wake-up: the table's watchers, waiting alike, share one store read
                    memory_polls = 0
                    poll = functools.partial(
                        self.tables.events_after,
                        limit=limit,
                        max_age=self.poll_seconds * POLL_SHARED,
                        every_view=every_view,
                    )
                    batch = await self._run(poll, table_id, principal, after)
        except asyncio.CancelledError:
            raise
        except Exception as exc:
            await abort_call(context, exc)
        finally:
            self.limits.close_watch(counted)

    def encoded(self, item: WatchItem | WatchRun) -> bytes:
        """The ``WatchTableResponse`` of ``item``, serialised once for every stream that sends this
        same rendering (the watchers who see a table alike share ``item``, :mod:`~trapoula.service.views`)."""
        if isinstance(item, WatchRun) and not item.shareable:  # a catch-up: one stream's
            return convert.watch_response(item).SerializeToString()
        key = id(item)
        cached = self._encoded.get(key)
        if cached is not None and cached[0] is item:
            return cached[1]
        data = convert.watch_response(item).SerializeToString()
        self._encoded[key] = (item, data)
        if len(self._encoded) > ENCODED_KEPT:
            forget_oldest(self._encoded, ENCODED_KEPT)
        return data


def _as_is(item: WatchItem | WatchRun) -> WatchItem | WatchRun:
    """``item`` itself (:meth:`TableServicer.watch_items` yields the items as they are)."""
    return item


# --------------------------------------------------------------------------- registration


@dataclass(frozen=True, slots=True)
class Malformed:
    """A request whose bytes are not a message of its type (what the handler gets instead)."""

    method: str
    why: str


def _lenient(message: Any, method: str) -> Callable[[bytes], Any]:
    """A deserializer that never raises: bytes that do not parse become :class:`Malformed`."""

    def parse(data: bytes) -> Any:
        try:
            return message.FromString(data)
        except Exception as exc:  # DecodeError, RecursionError (nesting), invalid UTF-8 ...
            return Malformed(method, clip(f"{type(exc).__name__}: {exc}"))

    return parse


def _unreadable(request: Malformed) -> InvalidInput:
    return InvalidInput(f"{request.method}: the request is not readable ({request.why})", reason="bad_request")


def checked_unary(
    behaviour: Callable[[Any, Context], Awaitable[Any]], method: str, metrics: Metrics
) -> Callable[[Any, Context], Awaitable[Any]]:
    """``behaviour`` (a unary RPC of :class:`TableServicer`) counted, timed and logged by ``metrics``
    as ``method``; a :class:`Malformed` request is answered ``INVALID_ARGUMENT`` (``bad_request``).
    The gRPC server (:func:`add_to_server`) and the Connect endpoint (:mod:`trapoula.service.connect`)
    both call it."""

    async def handle(request: Any, context: Context) -> Any:
        async with metrics.track(method, request) as call:
            if isinstance(request, Malformed):
                await abort_call(context, _unreadable(request))
            response = await behaviour(request, context)
            call.answered(response)
            return response

    return handle


def checked_stream(
    behaviour: Callable[[Any, Context], AsyncIterator[Any]], method: str, metrics: Metrics
) -> Callable[[Any, Context], AsyncIterator[Any]]:
    """The server-streaming form of :func:`checked_unary` (counted in ``trapoula_watchers`` while open)."""

    async def handle(request: Any, context: Context) -> AsyncIterator[Any]:
        async with metrics.track(method, request, stream=True):
            if isinstance(request, Malformed):
                await abort_call(context, _unreadable(request))
            async for item in behaviour(request, context):
                yield item

    return handle


def _serializer(message: Any) -> Callable[[Any], bytes]:
    """A response serializer that also takes messages already serialised (bytes, sent as they are)."""
    serialize = message.SerializeToString

    def encode(response: Any) -> bytes:
        return response if isinstance(response, bytes) else serialize(response)

    return encode


def add_to_server(servicer: TableServicer, server: grpc.aio.Server) -> None:
    """Register ``servicer`` for every RPC of ``trapoula.api.v1.TableService`` (as the generated
    ``add_TableServiceServicer_to_server`` does), except that a request whose bytes do not parse
    is answered ``INVALID_ARGUMENT`` (reason ``bad_request``) instead of grpcio's ``UNKNOWN``.  Every
    call is counted, timed and logged by ``servicer.metrics`` (:meth:`Metrics.track`)."""
    service = pb.DESCRIPTOR.services_by_name["TableService"]
    handlers: dict[str, grpc.RpcMethodHandler[Any, Any]] = {}
    for method in service.methods:
        request_cls = getattr(pb, method.input_type.name)
        response_cls = getattr(pb, method.output_type.name)
        behaviour = getattr(servicer, method.name)
        parse = _lenient(request_cls, method.name)
        if method.server_streaming:
            handlers[method.name] = grpc.unary_stream_rpc_method_handler(
                checked_stream(behaviour, method.name, servicer.metrics),
                request_deserializer=parse,
                response_serializer=_serializer(response_cls),
            )
        else:
            handlers[method.name] = grpc.unary_unary_rpc_method_handler(
                checked_unary(behaviour, method.name, servicer.metrics),
                request_deserializer=parse,
                response_serializer=response_cls.SerializeToString,
            )
    server.add_generic_rpc_handlers((grpc.method_handlers_generic_handler(service.full_name, handlers),))
