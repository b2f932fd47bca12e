"""The machinery every RPC of ``TableService`` shares (:class:`CallRunner`: the store's threads, the
guard that turns errors into statuses and counts calls in flight for a drain, authentication)
and the RPCs that only read (:class:`ReadCalls`: the record, the listings, the read models, the
games' schemas, the signing key); :class:`~trapoula.service.servicer.TableServicer` adds the
commands and the watch streams.  Like the servicer, they only translate: convert the request,
call ``Tables`` or the read models, convert the result.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from concurrent.futures import Executor
from typing import Any, NoReturn, TypeVar

import grpc

from trapoula.api.v1 import table_pb2 as pb
from trapoula.domain import signing
from trapoula.domain.registry import find_game
from trapoula.service import convert, logs, status
from trapoula.service.application import Principal, Tables
from trapoula.service.errors import Unavailable
from trapoula.service.fanout import Fanout
from trapoula.service.handoff import run_in
from trapoula.service.inputs import check_key
from trapoula.service.readmodels import ReadModels
from trapoula.service.replays import replay_record
from trapoula.service.served import served_schema_text

T = TypeVar("T")
Context = grpc.aio.ServicerContext[Any, Any]


async def abort_call(context: Context, exc: BaseException) -> NoReturn:
    """End the call with the rich status of ``exc`` (``abort_with_status``, spelt out for typing)."""
    rich = status.to_status(exc)
    logs.note_failure(exc, rich)
    await context.abort(rich.code, rich.details, rich.trailing_metadata)
    raise AssertionError("abort returned")  # pragma: no cover


def call_token(context: Context) -> str | None:
    """The caller's token (``authorization: Bearer <token>``), hidden from this call's log records; None: none."""
    token = convert.bearer_token(context.invocation_metadata())
    logs.hide_in_call(token)
    return token


class CallRunner:
    """What every RPC uses: ``tables`` (the service), the fan-out (closed while the server stops)
    and the store's threads (``executor``)."""

    def __init__(self, tables: Tables, fanout: Fanout, executor: Executor) -> None:
        self.tables = tables
        self.fanout = fanout
        self.executor = executor
        self._in_flight = 0
        self._idle: asyncio.Event | None = None

    async def drain(self, timeout: float) -> bool:
        """Wait until no unary call is in flight (at most ``timeout`` seconds); False on timeout.

        Call it once the fan-out is closed: from then on new calls are answered ``UNAVAILABLE``
        (``server_stopping``) at once, so the count only falls.  A stopping server drains before
        it stops gRPC, so that a call is either answered or refused, never cut off in the middle.
        """
        if self._in_flight == 0:
            return True
        self._idle = self._idle or asyncio.Event()
        try:
            await asyncio.wait_for(self._idle.wait(), timeout)
            return True
        except TimeoutError:
            return False

    async def _run(self, fn: Callable[..., T], *args: Any) -> T:
        """``fn(*args)`` on the store's threads, in a copy of the call's context (its log fields);
        the result comes back through the loop's :class:`~trapoula.service.handoff.Waker`."""
        return await run_in(self.executor, fn, *args)

    async def _guard(self, context: Context, work: Callable[[], Awaitable[T]]) -> T:
        if self.fanout.closed:
            await abort_call(context, Unavailable("the server is stopping; call again (another server, or later)"))
        self._in_flight += 1
        try:
            return await work()
        except asyncio.CancelledError:
            raise
        except Exception as exc:
            await abort_call(context, exc)
        finally:
            self._in_flight -= 1
            if self._in_flight == 0 and self._idle is not None:
                self._idle.set()

    def _authed(self, table_id: str, token: str | None, fn: Callable[..., T], *args: Any) -> Callable[[], T]:
        def call() -> T:
            principal: Principal = self.tables.authenticate(table_id, token)
            logs.note_seat(principal.seat)
            return fn(table_id, principal, *args)

        return call


class ReadCalls(CallRunner):
    """The RPCs that only read: ``GetGameSchema``, ``GetSigningKey``, ``GetRecord``, ``ReplayRecord``,
    ``ListTables``, ``ListGames`` and the read models' ``ListLobby``, ``ListMatches`` and
    ``GetStandings`` (see the proto for each)."""

    async def GetGameSchema(self, request: pb.GetGameSchemaRequest, context: Context) -> pb.GetGameSchemaResponse:
        """A game's JSON Schema as the service sends and takes its messages; see the proto."""

        async def work() -> pb.GetGameSchemaResponse:
            spec = find_game(check_key(request.game, "game", "unknown_game"))
            return pb.GetGameSchemaResponse(schema_json=await self._run(served_schema_text, spec))

        return await self._guard(context, work)

    async def ReplayRecord(self, request: pb.ReplayRecordRequest, context: Context) -> pb.ReplayRecordResponse:
        """A record replayed and audited, as one viewer saw it; see the proto
        (:mod:`trapoula.service.replays`)."""

        async def work() -> pb.ReplayRecordResponse:
            return await self._run(replay_record, request)

        return await self._guard(context, work)

    async def GetSigningKey(self, request: pb.GetSigningKeyRequest, context: Context) -> pb.GetSigningKeyResponse:
        """The public key that signs this server's records; see the proto."""

        async def work() -> pb.GetSigningKeyResponse:
            public = signing.public_key_hex(self.tables.signing_key)
            return pb.GetSigningKeyResponse(scheme=signing.SCHEME, public_key=public, key_id=signing.key_id(public))

        return await self._guard(context, work)

    async def GetRecord(self, request: pb.GetRecordRequest, context: Context) -> pb.GetRecordResponse:
        """The record of the finished hands; see the proto.

        The server sends messages of up to 64 MiB (``grpc.max_send_message_length``); a client
        fetching a long record must accept as much (``grpc.max_receive_message_length``).
        """

        async def work() -> pb.GetRecordResponse:
            jsonl, hands = await self._run(self.tables.record, request.table_id)
            return pb.GetRecordResponse(jsonl=jsonl, hands=hands)

        return await self._guard(context, work)

    async def ListTables(self, request: pb.ListTablesRequest, context: Context) -> pb.ListTablesResponse:
        """The lobby; see the proto."""

        async def work() -> pb.ListTablesResponse:
            summaries, token = await self._run(
                self.tables.list_tables, request.game, request.page_size, request.page_token
            )
            return pb.ListTablesResponse(tables=[convert.summary_to_proto(s) for s in summaries], next_page_token=token)

        return await self._guard(context, work)

    async def ListGames(self, request: pb.ListGamesRequest, context: Context) -> pb.ListGamesResponse:
        """The games; see the proto."""

        async def work() -> pb.ListGamesResponse:
            return pb.ListGamesResponse(games=[convert.game_to_proto(g) for g in self.tables.list_games()])

        return await self._guard(context, work)

    # ------------------------------------------------------------------ read models (docs/read-models.md)

    read_models: ReadModels | None = None
    """The read models behind ``ListLobby``, ``ListMatches`` and ``GetStandings`` (``create_server``
    sets them); None: those calls are answered ``UNAVAILABLE`` (``read_models_off``)."""

    def _models(self) -> ReadModels:
        if self.read_models is None:
            raise Unavailable("this server keeps no read models; ask another replica", reason="read_models_off")
        return self.read_models

    async def ListLobby(self, request: pb.ListLobbyRequest, context: Context) -> pb.ListLobbyResponse:
        """Tables players may join; see the proto."""

        async def work() -> pb.ListLobbyResponse:
            tables, token = await self._run(self._models().lobby, request.game, request.page_size, request.page_token)
            return pb.ListLobbyResponse(tables=[convert.lobby_to_proto(t) for t in tables], next_page_token=token)

        return await self._guard(context, work)

    async def ListMatches(self, request: pb.ListMatchesRequest, context: Context) -> pb.ListMatchesResponse:
        """Finished matches; see the proto."""

        async def work() -> pb.ListMatchesResponse:
            matches, token = await self._run(
                self._models().matches,
                request.player,
                request.game,
                request.finished_after,
                request.finished_before,
                request.page_size,
                request.page_token,
                request.player_id,
            )
            return pb.ListMatchesResponse(matches=[convert.match_to_proto(m) for m in matches], next_page_token=token)

        return await self._guard(context, work)

    async def GetStandings(self, request: pb.GetStandingsRequest, context: Context) -> pb.GetStandingsResponse:
        """Players' results per game; see the proto."""

        async def work() -> pb.GetStandingsResponse:
            rows, token = await self._run(
                self._models().standings, request.game, request.player, request.page_size, request.page_token
            )
            return pb.GetStandingsResponse(
                standings=[convert.standing_to_proto(r) for r in rows], next_page_token=token
            )

        return await self._guard(context, work)
