"""A thin synchronous client for ``trapoula.api.v1.TableService`` (DESIGN, clients).

:class:`TableClient` owns one channel; use it as a context manager.  Every call sends the
client's seat (or owner) token as ``authorization: Bearer <token>`` metadata when it has one, and
turns a failed call into a typed :mod:`trapoula.clients.errors` exception.

>>> with TableClient("127.0.0.1:50051") as client:          # doctest: +SKIP
...     table = client.create_table("agonia", seats=2, options={"target_points": 0})
...     me = client.join(table.table_id, "ann")
...     client.add_bot(table.table_id, "heuristic")
...     client.start_match(table.table_id)
...     with client.watch(table.table_id) as updates:
...         for update in updates: ...

Commands are plain dicts, the payloads of a view's ``legal`` list (``{"kind": "play", "card":
"7H"}``); a ``seat`` key is ignored (the server takes the seat from the token).
"""

from __future__ import annotations

import json
import threading
import uuid
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from types import TracebackType
from typing import Any, NamedTuple, TypeVar

import grpc
from google.protobuf import struct_pb2

from trapoula.api.v1 import table_pb2, table_pb2_grpc
from trapoula.clients.errors import InvalidArgument, Unavailable, from_rpc_error

__all__ = [
    "MAX_MESSAGE_BYTES",
    "ActResult",
    "CreatedTable",
    "GameInfo",
    "Joined",
    "TableClient",
    "TableSummary",
    "Update",
    "Watch",
    "command_message",
]

DEFAULT_TIMEOUT = 10.0
"""Seconds a unary call may take."""
MAX_MESSAGE_BYTES = 64 * 1024 * 1024
"""The largest message the client sends or receives (64 MiB, as the server): a long match's
record is one message (gRPC's default limit is 4 MB)."""
CHANNEL_OPTIONS: tuple[tuple[str, int], ...] = (
    ("grpc.max_receive_message_length", MAX_MESSAGE_BYTES),
    ("grpc.max_send_message_length", MAX_MESSAGE_BYTES),
)
"""The options of a channel the client opens."""

_INT32_MAX = 2**31 - 1
_UINT64_MAX = 2**64 - 1

R = TypeVar("R")


@dataclass(frozen=True, slots=True)
class CreatedTable:
    """A new table: its id and the owner's secret token (may start the match, deal hands)."""

    table_id: str
    owner_token: str


@dataclass(frozen=True, slots=True)
class Joined:
    """A seat taken: its number and its secret token.

    ``seat`` is -1 and ``queued`` true when a newcomer waits for the hand in progress to end
    (``mau_mau`` R6.9); the token works at once (a spectator's view until then).
    """

    seat: int
    token: str
    queued: bool = False


class Update(NamedTuple):
    """One event as the caller may see it, with the caller's view after it.

    A named tuple: ``for version, name, payload, view in watch: ...`` works too.
    """

    version: int
    """The event's position in the table's log (1, 2, ...)."""
    name: str
    """The event name (``CardPlayed`` ...); ``""`` for a view without an event."""
    payload: dict[str, Any]
    """The redacted payload."""
    view: dict[str, Any]
    """The caller's view after the event (see the game's views module)."""


@dataclass(frozen=True, slots=True)
class ActResult:
    """What a command did: the table's new version, the events it caused and the new view."""

    version: int
    events: tuple[Update, ...]
    """Each event with ``view`` left empty (the new view is :attr:`view`)."""
    view: dict[str, Any]


@dataclass(frozen=True, slots=True)
class TableSummary:
    """One table of the lobby."""

    table_id: str
    game: str
    seats: int
    free_seats: tuple[int, ...]
    status: str
    """``open``, ``ready``, ``playing`` or ``over``."""
    version: int


@dataclass(frozen=True, slots=True)
class GameInfo:
    """A game the server plays."""

    key: str
    title: str
    summary: str
    min_players: int
    max_players: int
    options: dict[str, Any] = field(default_factory=dict)
    """Option key -> default."""
    bot_levels: tuple[str, ...] = ()
    """Computer-player levels for :meth:`TableClient.add_bot`."""
    seat_changes: bool = False
    """True when players may join and leave during the match (``mau_mau`` R6.9-R6.10)."""


def _whole(value: Any, what: str, low: int = 0, high: int = _INT32_MAX) -> int:
    """``value`` when it is an int (not a bool) in ``low..high`` (its wire field's range).

    Raises:
        InvalidArgument: another type, or out of range.
    """
    if isinstance(value, bool) or not isinstance(value, int):
        raise InvalidArgument(f"{what} {value!r} is not a whole number ({low}..{high})")
    if not low <= value <= high:
        raise InvalidArgument(f"{what} {value!r} is out of range ({low}..{high})")
    return value


def _text(value: Any, what: str) -> str:
    """``value`` when it is a str.

    Raises:
        InvalidArgument: another type.
    """
    if not isinstance(value, str):
        raise InvalidArgument(f"{what} {value!r} is not text")
    return value


def _options(options: Mapping[str, Any] | None) -> struct_pb2.Struct:
    """The options as a ``google.protobuf.Struct``.

    Raises:
        InvalidArgument: not a mapping of text keys to JSON values.
    """
    struct = struct_pb2.Struct()
    if options is None:
        return struct
    if not isinstance(options, Mapping):
        raise InvalidArgument(f"options {options!r} is not a mapping of option keys to values")
    for key, value in options.items():
        _text(key, "option key")
        try:
            struct.update({key: value})
        except (TypeError, ValueError):
            raise InvalidArgument(
                f"option {key!r}: {value!r} is not a JSON value (number, text, true/false, null, list, object)"
            ) from None
    return struct


def _cards(raw: Any, what: str) -> list[str]:
    if isinstance(raw, str):
        return raw.split()
    if isinstance(raw, list | tuple) and all(isinstance(c, str) for c in raw):
        return list(raw)
    raise InvalidArgument(f"{what} {raw!r} is not a list of card codes")


DEAL_FIELDS = frozenset({"hands", "starter", "stock", "reshuffles", "deck", "widow"})
"""The fields of an explicit deal (the ``ExplicitDeal`` message)."""


def _card_lists(raw: Any, what: str) -> list[table_pb2.CardList]:
    """A list of card lists (``hands``, ``reshuffles``); each list may be one string of codes.

    Raises:
        InvalidArgument: not a list or tuple (a string is not a list of hands), or a bad card list.
    """
    if raw is None:
        return []
    if not isinstance(raw, list | tuple):
        raise InvalidArgument(f"explicit deal: {what} {raw!r} is not a list of card lists")
    return [table_pb2.CardList(cards=_cards(cards, f"explicit deal: {what} {i}")) for i, cards in enumerate(raw)]


def _explicit_deal(deal: Any) -> table_pb2.ExplicitDeal:
    """The wire form of an explicit deal: the shedding games' ``hands``, ``starter``, ``stock`` and
    ``reshuffles`` (S5.3), or ``vida``'s ``deck`` or ``hands`` and ``widow`` (R3.2).

    Raises:
        InvalidArgument: not a mapping, a key that is none of :data:`DEAL_FIELDS` (a misspelt key
            would otherwise be dropped), a ``starter`` that is not a code, or a field that is not a
            list of card codes (or of card lists).
    """
    if not isinstance(deal, Mapping):
        raise InvalidArgument(f"explicit deal {deal!r} is not a mapping such as {{'deck': [...]}}")
    unknown = sorted(str(k) for k in deal if k not in DEAL_FIELDS)
    if unknown:
        raise InvalidArgument(f"explicit deal: unknown field(s) {unknown}; expected {', '.join(sorted(DEAL_FIELDS))}")
    starter = deal.get("starter")
    if not isinstance(starter, str | None):
        raise InvalidArgument(f"explicit deal: starter {starter!r} is not a card code")
    return table_pb2.ExplicitDeal(
        hands=_card_lists(deal.get("hands"), "hands"),
        starter=starter or "",
        stock=_cards(deal.get("stock") or [], "explicit deal: stock"),
        reshuffles=_card_lists(deal.get("reshuffles"), "reshuffles"),
        deck=_cards(deal.get("deck") or [], "explicit deal: deck"),
        widow=_cards(deal.get("widow") or [], "explicit deal: widow"),
    )


def _flag(command: Mapping[str, Any], key: str) -> bool:
    """A command's true/false field (absent or None: false).

    Raises:
        InvalidArgument: any other value (``"false"`` would otherwise read as true).
    """
    value = command.get(key)
    if value is None:
        return False
    if not isinstance(value, bool):
        raise InvalidArgument(f"{command.get('kind')}: {key} {value!r} is not true or false")
    return value


def my_move(view: Mapping[str, Any]) -> bool:
    """True when the match waits for the viewer's move: its seat is in ``view["acting"]`` (where
    the view has it) and it has a legal command.  A seat may have commands open out of turn
    (``mau_mau``'s ``leave``, R6.10) without the match waiting for it."""
    legal = bool(view.get("legal"))
    acting = view.get("acting")
    if isinstance(acting, list):
        return legal and view.get("seat") in acting
    return legal


def command_message(command: Mapping[str, Any]) -> table_pb2.Command:
    """The wire form of a command dict (``kind`` ``play``/``draw``/``pass``/``choose_suit``/``mau``/``leave``/
    ``next_hand``; ``vida``'s ``bid``/``vida``/``give``/``declare``, and ``play`` with ``belote``;
    ``giminaiciai``'s ``draw`` with its ``source``, ``discard`` and ``lay_down``; ``romis``'s sealed
    ``reveal`` with its ``cards`` and optional ``companions``, ``use_auxiliary`` and ``cannot``,
    rules/romis.md R13.1-R13.3).  Card lists may be lists of codes or one string of codes
    (``"9S"``, ``"8S 9D"``).

    Raises:
        InvalidArgument: not a mapping, unknown ``kind``, or a field of the wrong type (``announce``
            and ``belote`` must be true or false; a ``next_hand`` deal, when given, a mapping; a
            ``reveal``'s ``cards``, and ``companions`` when given, card codes).
    """
    if not isinstance(command, Mapping):
        raise InvalidArgument(f"command {command!r} is not a mapping such as {{'kind': 'draw'}}")
    kind = command.get("kind")
    if kind == "play":
        card, suit = command.get("card"), command.get("suit")
        if not isinstance(card, str) or not isinstance(suit, str | None):
            raise InvalidArgument(f"play: card {card!r} / suit {suit!r} must be codes")
        return table_pb2.Command(
            play=table_pb2.PlayCard(
                card=card, suit=suit or "", announce=_flag(command, "announce"), belote=_flag(command, "belote")
            )
        )
    if kind == "bid":
        points, suit = command.get("points"), command.get("suit")
        if not isinstance(suit, str):
            raise InvalidArgument(f"bid: suit {suit!r} must be C, D, H or S")
        return table_pb2.Command(bid=table_pb2.Bid(points=_whole(points, "bid: points", -_INT32_MAX - 1), suit=suit))
    if kind == "vida":
        return table_pb2.Command(vida=table_pb2.CallVida())
    if kind == "give":
        return table_pb2.Command(give=table_pb2.GiveCards(cards=_cards(command.get("cards"), "give: cards")))
    if kind == "declare":
        return table_pb2.Command(declare=table_pb2.Declare())
    if kind == "draw":
        source = command.get("source")
        if not isinstance(source, str | None):
            raise InvalidArgument(f"draw: source {source!r} must be 'stock' or 'discard'")
        return table_pb2.Command(draw=table_pb2.DrawCard(source=source or ""))
    if kind == "discard":
        card = command.get("card")
        if not isinstance(card, str):
            raise InvalidArgument(f"discard: card {card!r} must be a card code")
        return table_pb2.Command(discard=table_pb2.DiscardCard(card=card))
    if kind == "lay_down":
        groups = command.get("groups")
        if isinstance(groups, str | bytes) or not isinstance(groups, Sequence):
            raise InvalidArgument(f"lay_down: groups {groups!r} must be a list of card lists")
        discard = command.get("discard")
        if not isinstance(discard, str | None):
            raise InvalidArgument(f"lay_down: discard {discard!r} must be a card code")
        lay = table_pb2.LayDown(
            groups=[table_pb2.CardList(cards=_cards(g, "lay_down: group")) for g in groups],
            discard=discard or "",
            extra=_whole(command.get("extra", 0), "lay_down: extra", 0),
        )
        return table_pb2.Command(lay_down=lay)
    if kind == "reveal":
        companions = command.get("companions")
        reveal = table_pb2.Reveal(
            cards=_cards(command.get("cards"), "reveal: cards"),
            companions=[] if companions is None else _cards(companions, "reveal: companions"),
        )
        return table_pb2.Command(reveal=reveal)
    if kind == "use_auxiliary":
        return table_pb2.Command(use_auxiliary=table_pb2.UseAuxiliary())
    if kind == "cannot":
        return table_pb2.Command(cannot=table_pb2.Cannot())
    if kind == "pass":
        message = table_pb2.Command()
        getattr(message, "pass").SetInParent()  # `pass` is a Python keyword
        return message
    if kind == "choose_suit":
        suit = command.get("suit")
        if not isinstance(suit, str):
            raise InvalidArgument(f"choose_suit: suit {suit!r} must be C, D, H or S")
        return table_pb2.Command(choose_suit=table_pb2.ChooseSuit(suit=suit))
    if kind == "mau":
        return table_pb2.Command(mau=table_pb2.CallMau())
    if kind == "leave":
        return table_pb2.Command(leave=table_pb2.LeaveSeat())
    if kind == "next_hand":
        deal = command.get("deal")
        next_hand = table_pb2.NextHand() if deal is None else table_pb2.NextHand(deal=_explicit_deal(deal))
        return table_pb2.Command(next_hand=next_hand)
    raise InvalidArgument(
        f"unknown command kind {kind!r}; expected play, draw, pass, choose_suit, mau, leave, next_hand, "
        "bid, vida, give, declare, discard, lay_down, reveal, use_auxiliary or cannot"
    )


def _json(text: str) -> dict[str, Any]:
    if not text:
        return {}
    value = json.loads(text)
    return value if isinstance(value, dict) else {"value": value}


def _update(event: table_pb2.Event, view: table_pb2.View | None) -> Update:
    return Update(
        version=int(event.version),
        name=event.name,
        payload=_json(event.payload_json),
        view=_json(view.view_json) if view is not None else {},
    )


class Watch:
    """A live stream of :class:`Update` for one caller; cancel it (or leave its ``with``) to stop.

    Iterating yields updates until the server ends the stream or :meth:`cancel` is called (from
    any thread); then iteration just stops.  Other failures raise typed errors.
    """

    def __init__(self, call: Any) -> None:
        self._call = call
        self._cancelled = threading.Event()

    def __enter__(self) -> Watch:
        return self

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.cancel()

    def cancel(self) -> None:
        """Cancel the call; the server's handler stops (DESIGN: clients cancel explicitly)."""
        self._cancelled.set()
        self._call.cancel()

    @property
    def cancelled(self) -> bool:
        """True once :meth:`cancel` was called."""
        return self._cancelled.is_set()

    def __iter__(self) -> Iterator[Update]:
        try:
            for message in self._call:
                yield _update(message.event, message.view if message.HasField("view") else None)
        except grpc.RpcError as error:
            if self._cancelled.is_set() or getattr(error, "code", lambda: None)() == grpc.StatusCode.CANCELLED:
                return
            raise from_rpc_error(error) from None


class TableClient:
    """A client of one trapoula server; owns its channel (use ``with``).

    The channel it opens sends and receives messages up to :data:`MAX_MESSAGE_BYTES`.  Every
    method checks its arguments' types and wire ranges before calling and raises
    :class:`~trapoula.clients.errors.InvalidArgument` (``code`` None) for a bad one.

    Args:
        target: ``host:port`` of the server.
        token: the seat or owner token sent with every call (None: none; a spectator).
        timeout: seconds each unary call may take.
        channel: an existing channel to use instead of opening one (it is then not closed).

    Raises:
        InvalidArgument: an empty ``target``, or a ``timeout`` that is not a positive number.
    """

    def __init__(
        self,
        target: str,
        token: str | None = None,
        timeout: float = DEFAULT_TIMEOUT,
        channel: grpc.Channel | None = None,
    ) -> None:
        if not isinstance(target, str) or not target.strip():
            raise InvalidArgument(f"target {target!r} is not a host:port address")
        if token is not None:
            _text(token, "token")
        if isinstance(timeout, bool) or not isinstance(timeout, int | float) or not timeout > 0:
            raise InvalidArgument(f"timeout {timeout!r} is not a positive number of seconds")
        self.target = target
        self.token = token
        """The token sent with each call; :meth:`join` sets it when it is None."""
        self.timeout = float(timeout)
        self._owns_channel = channel is None
        self._channel = channel if channel is not None else grpc.insecure_channel(target, options=CHANNEL_OPTIONS)
        self._stub = table_pb2_grpc.TableServiceStub(self._channel)

    def __enter__(self) -> TableClient:
        return self

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.close()

    def close(self) -> None:
        """Close the channel (when the client opened it)."""
        if self._owns_channel:
            self._channel.close()

    def wait_ready(self, timeout: float = 10.0) -> None:
        """Block until the channel is connected.

        Raises:
            Unavailable: the server did not answer within ``timeout`` seconds.
        """
        if isinstance(timeout, bool) or not isinstance(timeout, int | float) or not timeout > 0:
            raise InvalidArgument(f"timeout {timeout!r} is not a positive number of seconds")
        try:
            grpc.channel_ready_future(self._channel).result(timeout=timeout)
        except grpc.FutureTimeoutError:
            raise Unavailable(f"no trapoula server at {self.target} after {timeout}s") from None

    # ------------------------------------------------------------------ plumbing

    def _metadata(self, token: str | None = None) -> tuple[tuple[str, str], ...]:
        token = token if token is not None else self.token
        return (("authorization", f"Bearer {token}"),) if token else ()

    def _call(self, method: Callable[..., R], request: Any, token: str | None = None) -> R:
        try:
            return method(request, timeout=self.timeout, metadata=self._metadata(token))
        except grpc.RpcError as error:
            failure = from_rpc_error(error)
            if isinstance(failure, Unavailable):  # say which server did not answer
                failure.message = f"no answer from the trapoula server at {self.target}: {failure.message}"
            raise failure from None

    @staticmethod
    def _act_result(response: table_pb2.ActResponse) -> ActResult:
        return ActResult(
            version=int(response.version),
            events=tuple(_update(e, None) for e in response.events),
            view=_json(response.view.view_json),
        )

    # ------------------------------------------------------------------ calls

    def create_table(
        self,
        game: str = "agonia",
        seats: int = 4,
        options: Mapping[str, Any] | None = None,
        *,
        first_dealer: int | None = None,
        initial_totals: Sequence[int] = (),
        manual_deal: bool = False,
    ) -> CreatedTable:
        """Create a table.

        Raises:
            InvalidArgument: unknown game, option or seat count.
        """
        if isinstance(initial_totals, str | bytes) or not isinstance(initial_totals, Sequence):
            raise InvalidArgument(f"initial_totals {initial_totals!r} is not a list of whole numbers")
        request = table_pb2.CreateTableRequest(
            game=_text(game, "game"),
            seats=_whole(seats, "seats"),
            options=_options(options),
            initial_totals=[_whole(t, "initial total", -_INT32_MAX - 1) for t in initial_totals],
            manual_deal=bool(manual_deal),
        )
        if first_dealer is not None:
            request.first_dealer = _whole(first_dealer, "first_dealer")
        response = self._call(self._stub.CreateTable, request)
        return CreatedTable(response.table_id, response.owner_token)

    def join(self, table_id: str, name: str, seat: int | None = None) -> Joined:
        """Take a seat (``seat``, or the first free one); the client adopts its token if it has none.

        Raises:
            NotFound: unknown table.
            AlreadyExists: the seat is taken or the match has started.
        """
        request = table_pb2.JoinTableRequest(table_id=_text(table_id, "table_id"), name=_text(name, "name"))
        if seat is not None:
            request.seat = _whole(seat, "seat")
        response = self._call(self._stub.JoinTable, request)
        if self.token is None:
            self.token = response.seat_token
        return Joined(int(response.seat), response.seat_token, bool(response.queued))

    def add_bot(self, table_id: str, level: str = "heuristic", seat: int | None = None, name: str = "") -> int:
        """Seat a bot the server plays (a level of :attr:`GameInfo.bot_levels`); returns its seat (-1
        while queued for the next hand, ``mau_mau`` R6.9).

        Raises:
            NotFound, AlreadyExists, InvalidArgument (unknown level).
        """
        request = table_pb2.AddBotRequest(
            table_id=_text(table_id, "table_id"), level=_text(level, "level"), name=_text(name, "name")
        )
        if seat is not None:
            request.seat = _whole(seat, "seat")
        return int(self._call(self._stub.AddBot, request).seat)

    def start_match(
        self, table_id: str, command_id: str | None = None, deal: Mapping[str, Any] | None = None
    ) -> ActResult:
        """Start the match (every seat taken): deals the first hand from a seed, or from ``deal``
        (``{"hands": [[...]], "starter": "7H", "stock": [...]}``, S5.3).

        Raises:
            PermissionDenied: neither the owner token nor a seat token of the table.
            AlreadyExists: the match has started.  CommandRejected: seats are free.
            InvalidArgument: a ``deal`` that is not an explicit deal's mapping.
        """
        request = table_pb2.StartMatchRequest(
            table_id=_text(table_id, "table_id"), command_id=_text(command_id or str(uuid.uuid4()), "command_id")
        )
        if deal is not None:
            request.deal.CopyFrom(_explicit_deal(deal))
        return self._act_result(self._call(self._stub.StartMatch, request))

    def act(self, table_id: str, command: Mapping[str, Any], command_id: str | None = None) -> ActResult:
        """Issue ``command`` for the caller's seat; a repeated ``command_id`` returns the first result.

        Raises:
            CommandRejected: the rules refuse it (``reason``, ``rule``).
            PermissionDenied: no valid seat token.  Conflict: a concurrent command won; retry.
            InvalidArgument: a malformed command.
        """
        if not isinstance(command, Mapping):
            raise InvalidArgument(f"command {command!r} is not a mapping such as {{'kind': 'draw'}}")
        request = table_pb2.ActRequest(
            table_id=_text(table_id, "table_id"),
            command_id=_text(command_id or str(uuid.uuid4()), "command_id"),
            command=command_message(command),
        )
        return self._act_result(self._call(self._stub.Act, request))

    def view(self, table_id: str) -> Update:
        """The caller's current view (a spectator's without a token), as an :class:`Update` with no event.

        Raises:
            NotFound: unknown table.
        """
        response = self._call(self._stub.GetView, table_pb2.GetViewRequest(table_id=_text(table_id, "table_id")))
        return Update(int(response.view.version), "", {}, _json(response.view.view_json))

    def watch(self, table_id: str, from_version: int = 0) -> Watch:
        """Stream the caller's events after ``from_version``, then live; use as a context manager
        (leaving it cancels the call).

        The stream has no deadline (it is live); cancel it, or leave its ``with``, to stop.

        Raises:
            InvalidArgument: ``from_version`` is not a whole number >= 0.
        """
        request = table_pb2.WatchTableRequest(
            table_id=_text(table_id, "table_id"), from_version=_whole(from_version, "from_version", 0, _UINT64_MAX)
        )
        call = self._stub.WatchTable(request, metadata=self._metadata())
        return Watch(call)

    def record(self, table_id: str) -> str:
        """The record of the table's finished hands, JSON Lines (docs/record.md), one message of
        up to :data:`MAX_MESSAGE_BYTES`.

        Raises:
            NotFound: unknown table.
        """
        request = table_pb2.GetRecordRequest(table_id=_text(table_id, "table_id"))
        return self._call(self._stub.GetRecord, request).jsonl

    def list_tables(self, game: str = "", page_size: int = 0) -> list[TableSummary]:
        """Tables, newest first (of one game when ``game`` is given); follows every page."""
        _text(game, "game")
        _whole(page_size, "page_size")
        out: list[TableSummary] = []
        token = ""
        while True:
            response = self._call(
                self._stub.ListTables, table_pb2.ListTablesRequest(game=game, page_size=page_size, page_token=token)
            )
            out.extend(
                TableSummary(t.table_id, t.game, t.seats, tuple(t.free_seats), t.status, int(t.version))
                for t in response.tables
            )
            token = response.next_page_token
            if not token:
                return out

    def list_games(self) -> list[GameInfo]:
        """The games the server plays, with their option defaults."""
        response = self._call(self._stub.ListGames, table_pb2.ListGamesRequest())
        return [
            GameInfo(
                g.key,
                g.title,
                g.summary,
                g.min_players,
                g.max_players,
                _json(g.options_json),
                tuple(g.bot_levels),
                g.seat_changes,
            )
            for g in response.games
        ]
