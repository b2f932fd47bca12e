"""A thin synchronous client for ``trapoula.api.v1.TableService`` (DESIGN, clients).

:class:`TableClient` owns a channel to each of its servers (one, or several replicas); use it as
a context manager.  Every call sends the client's seat (or owner) token as ``authorization:
Bearer <token>`` metadata when it has one, and turns a failed call into a typed
:mod:`trapoula.clients.errors` exception.

It reconnects by itself: a call the server could not answer is retried with backoff on the next
server, within a budget (``retry_for``), when retrying is safe (reads; ``Act`` and
``StartMatch``, whose command id is chosen once); a :class:`Watch` that breaks resumes from the
last version it yielded, so each event arrives once, in order.  A call refused by the server's
limits per client for a short while (``rate_limited``) is sent again after the delay the server
asks for; otherwise the refusal is raised with that delay (``ResourceExhausted.retry_delay``).
See :class:`TableClient`.

>>> with TableClient("127.0.0.1:50051,127.0.0.1:50052") as client:  # doctest: +SKIP
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

import collections
import json
import logging
import random
import secrets
import threading
import time
import uuid
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from types import TracebackType
from typing import Any, NamedTuple, TypeVar

import grpc
from google.protobuf import struct_pb2

from trapoula.api.v1 import table_pb2, table_pb2_grpc
from trapoula.clients.errors import InvalidArgument, TrapoulaError, Unavailable, from_rpc_error
from trapoula.clients.history import LobbyTable, MatchSummary, Page, Standing, lobby_page, matches_page, standings_page
from trapoula.domain.listings import GameInfo, TableSummary

__all__ = [
    "DEFAULT_RATE_WAIT",
    "DEFAULT_RETRY_FOR",
    "MAX_MESSAGE_BYTES",
    "ActResult",
    "CreatedTable",
    "GameInfo",
    "Joined",
    "Reconnected",
    "TableClient",
    "TableSummary",
    "Update",
    "Watch",
    "command_message",
    "my_move",
    "never_sent",
]

log = logging.getLogger(__name__)

DEFAULT_TIMEOUT = 10.0
"""Seconds a unary call may take."""
MAX_MESSAGE_BYTES = 64 * 1024 * 1024
"""The largest message the client sends or receives (64 MiB, as the server): a long match's
record is one message (gRPC's default limit is 4 MB)."""
DEFAULT_RETRY_FOR = 30.0
"""Seconds a client keeps retrying after a failure, by default (``TableClient(retry_for=...)``):
long enough for a replica to be replaced or a server restarted."""
DEFAULT_RATE_WAIT = 2.0
"""The longest retry delay of a ``rate_limited`` refusal that the client waits out by itself, by
default (``TableClient(rate_wait=...)``)."""
RATE_WAIT_JITTER = 0.1
"""A wait for a rate limit is the server's delay times a random factor in 1 to 1 + this, so the
clients it refused together do not come back together."""
BACKOFF_INITIAL = 0.1
"""Seconds before the first retry."""
BACKOFF_MULTIPLIER = 1.6
"""Growth of the wait after each failed attempt (gRPC's connection backoff uses 1.6 too)."""
BACKOFF_MAX = 2.0
"""The longest wait between two attempts, seconds (also the channels' reconnect backoff cap)."""
BACKOFF_JITTER = 0.2
"""Each wait is scaled by a random factor in 1 ± this, so clients do not retry in step."""
STABLE_SECONDS = 5.0
"""A re-opened watch that broke after this many seconds (without delivering anything) counts as a
new outage with a fresh budget, not as one more failed attempt."""
RETRY_CODES = frozenset({grpc.StatusCode.UNAVAILABLE, grpc.StatusCode.DEADLINE_EXCEEDED, grpc.StatusCode.CANCELLED})
"""The failures after which a safe unary call is retried (``CANCELLED``: a stopping server's gRPC
cancels a call that arrives after it stopped serving, without running it)."""
RESUME_CODES = frozenset(
    {
        grpc.StatusCode.UNAVAILABLE,
        grpc.StatusCode.CANCELLED,
        grpc.StatusCode.DEADLINE_EXCEEDED,
        grpc.StatusCode.INTERNAL,
        grpc.StatusCode.UNKNOWN,
        grpc.StatusCode.ABORTED,
        grpc.StatusCode.RESOURCE_EXHAUSTED,
    }
)
"""The failures after which a :class:`Watch` re-opens its stream: the server's or the network's,
not the caller's.  Any other (``INVALID_ARGUMENT``, ``NOT_FOUND``, ``PERMISSION_DENIED``,
``FAILED_PRECONDITION``, ``OUT_OF_RANGE``, ``UNAUTHENTICATED`` ...) would come again: it is raised."""
UNSAFE_METHODS = frozenset({"AddBot"})
"""Calls that carry no command or request id: retried only when they never reached a server
(:func:`never_sent`)."""
NEVER_SENT_MESSAGES = ("failed to connect to all addresses", "errors resolving", "DNS resolution failed")
"""How gRPC's own ``UNAVAILABLE`` messages begin when the channel had no connection for a call."""
CHANNEL_OPTIONS: tuple[tuple[str, int], ...] = (
    ("grpc.max_receive_message_length", MAX_MESSAGE_BYTES),
    ("grpc.max_send_message_length", MAX_MESSAGE_BYTES),
    ("grpc.initial_reconnect_backoff_ms", int(BACKOFF_INITIAL * 1000)),
    ("grpc.max_reconnect_backoff_ms", int(BACKOFF_MAX * 1000)),
    ("grpc.keepalive_time_ms", 20_000),
    ("grpc.keepalive_timeout_ms", 10_000),
    ("grpc.http2.ping_timeout_ms", 10_000),
)
"""The options of a channel the client opens: a ping every 20 s while a call is open, the
connection given up when a ping goes unanswered for 10 s (a frozen or unplugged server: an open
watch then breaks and resumes elsewhere instead of waiting forever; gRPC waits for any ping's
answer ``ping_timeout_ms``, 60 s unless set, whatever ``keepalive_timeout_ms`` says, so both are
set); messages up to :data:`MAX_MESSAGE_BYTES`, and the
channel's own reconnect backoff from :data:`BACKOFF_INITIAL` to :data:`BACKOFF_MAX` (gRPC's
defaults, 1 s to 120 s, would leave a restarted server unused for up to two minutes)."""

_INT32_MAX = 2**31 - 1
_UINT64_MAX = 2**64 - 1

R = TypeVar("R")


@dataclass(frozen=True, slots=True)
class CreatedTable:
    """A new table: its id and the owner's secret token (the only token that adds bots, starts the
    match and deals hands); for a private table its invitation code (``""`` for a public one)."""

    table_id: str
    owner_token: str
    invitation_code: str = ""


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
    """The wire form of a command dict (an entry of a view's ``legal`` list, its ``seat`` optional).

    A kind that is one of ``Command``'s typed fields becomes that message, field by field (a card
    list may be a list of codes or one string of codes, ``"8S 9D"``; a list of card lists for a
    ``CardList`` field; ``None`` for an absent field); the table's ``next_hand`` carries its
    explicit deal as an ``ExplicitDeal``; any other kind (a game without typed commands) travels
    as JSON text in ``Command.json``.

    Raises:
        InvalidArgument: not a mapping, no text ``kind``, a field the typed message does not have,
            or a field of the wrong type (``announce`` and ``belote`` must be true or false; a whole
            number within its wire field's range; a ``next_hand`` deal, when given, a mapping).
    """
    if not isinstance(command, Mapping):
        raise InvalidArgument(f"command {command!r} is not a mapping such as {{'kind': 'draw'}}")
    kind = command.get("kind")
    if not isinstance(kind, str) or not kind:
        raise InvalidArgument(
            f"command {command!r} has no text 'kind': send one of the view's legal entries, such as {{'kind': 'draw'}}",
            reason="bad_command",
        )
    if kind == "next_hand":
        deal = command.get("deal")
        next_hand = table_pb2.NextHand() if deal is None else table_pb2.NextHand(deal=_explicit_deal(deal))
        return table_pb2.Command(next_hand=next_hand)
    field = _TYPED_KINDS.get(kind)
    if field is None:
        fields = {k: v for k, v in command.items() if k != "seat"}
        try:
            return table_pb2.Command(json=json.dumps(fields, separators=(",", ":")))
        except (TypeError, ValueError) as exc:
            raise InvalidArgument(f"{kind}: the command is not plain data ({exc})") from None
    message = table_pb2.Command()
    sub = getattr(message, kind)
    sub.SetInParent()
    known = {f.name: f for f in field.message_type.fields} if field.message_type is not None else {}
    unknown = sorted(str(k) for k in command if k not in known and k not in ("kind", "seat"))
    if unknown:
        raise InvalidArgument(f"{kind}: no field(s) {unknown}; it takes {', '.join(known) or 'none'}")
    for name, spec in known.items():
        value = command.get(name)
        if value is not None:
            _set_field(sub, spec, value, f"{kind}: {name}")
        elif not _omit_empty(spec):  # a field the command must give
            if spec.is_repeated:
                _cards(value, f"{kind}: {name}")  # raises: None is no list of card codes
            raise InvalidArgument(f"{kind}: {name} is missing")
    return message


_TYPED_KINDS = {f.name: f for f in table_pb2.Command.DESCRIPTOR.oneofs_by_name["kind"].fields if f.message_type}
"""The typed command kinds of ``Command``: field name -> its descriptor."""


def _omit_empty(field: Any) -> bool:
    """True for a field marked ``omit_empty`` in table.proto (a command may leave it out)."""
    return bool(field.GetOptions().Extensions[table_pb2.omit_empty])


def _set_field(message: Any, field: Any, value: Any, what: str) -> None:
    """Set ``field`` of ``message`` from a plain value, checking its type first.

    Raises:
        InvalidArgument: a value of the wrong type or out of the field's range.
    """
    name = field.name
    if field.is_repeated:
        if field.message_type is not None:  # a list of CardList
            if isinstance(value, str | bytes) or not isinstance(value, Sequence):
                raise InvalidArgument(f"{what} {value!r} must be a list of card lists")
            getattr(message, name).extend(table_pb2.CardList(cards=_cards(g, what)) for g in value)
        else:
            getattr(message, name).extend(_cards(value, what))
        return
    if field.type == field.TYPE_BOOL:
        if not isinstance(value, bool):
            raise InvalidArgument(f"{what} {value!r} is not true or false")
    elif field.type == field.TYPE_STRING:
        if not isinstance(value, str):
            raise InvalidArgument(f"{what} {value!r} must be text (a code)")
    else:
        value = _whole(value, what, -_INT32_MAX - 1)
    setattr(message, name, value)


def _json(text: str) -> dict[str, Any]:
    if not text:
        return {}
    value = json.loads(text)
    return value if isinstance(value, dict) else {"value": value}


def _updates(message: table_pb2.WatchTableResponse) -> list[Update]:
    """The updates of one ``WatchTable`` message: its event, or (a batched watch) one an event of
    ``events``, the message's view on the last and ``{}`` on the others."""
    view = message.view if message.HasField("view") else None
    if not message.events:
        return [_update(message.event, view)]
    last = len(message.events) - 1
    return [_update(event, view if i == last else None) for i, event in enumerate(message.events)]


def _update(event: table_pb2.Event, view: table_pb2.View | None) -> Update:
    return Update(
        version=int(event.version),
        name=event.name,
        payload=_json(event.payload_json),
        view=_json(view.view_json) if view is not None else {},
    )


@dataclass(frozen=True, slots=True)
class Reconnected:
    """A call or a watch that went through again after its server(s) failed to answer.

    Given to the client's ``on_reconnect`` callback and logged at INFO by the
    ``trapoula.clients.table`` logger; ``str()`` reads ``reconnected to 127.0.0.1:50052 after
    1.3s, resuming from version 17``.
    """

    target: str
    """The server that answered."""
    seconds: float
    """Seconds from the first failure to the answer."""
    attempts: int
    """Failed attempts before the answer."""
    failed: tuple[str, ...]
    """The servers that failed, in the order they were first tried."""
    call: str
    """The gRPC method (``WatchTable``, ``Act`` ...)."""
    from_version: int | None = None
    """A watch's resume position (the last version it yielded); None for a unary call."""

    def __str__(self) -> str:
        resume = f", resuming from version {self.from_version}" if self.from_version is not None else ""
        plural = "s" if self.attempts != 1 else ""
        return (
            f"reconnected to {self.target} after {self.seconds:.1f}s{resume} "
            f"({self.call}; {self.attempts} failed attempt{plural} at {', '.join(self.failed)})"
        )


class _Outage:
    """The failed attempts of one call (or one watch) since its last success: the retry budget,
    the backoff (:data:`BACKOFF_INITIAL` ...) and the servers tried."""

    def __init__(self, client: TableClient, call: str) -> None:
        self.client = client
        self.call = call
        self.started = time.monotonic()
        self.attempts = 0
        self.failed: list[str] = []
        self.last: TrapoulaError | None = None

    def fail(self, target: str, failure: TrapoulaError, *, retry: bool = True) -> None:
        """Count a failed attempt at ``target``; ``retry`` False: the call may not be retried.

        Raises:
            Unavailable: the budget (``retry_for`` seconds from the first failure) is spent, or
                ``retry`` is False; the message names the servers tried, the attempts and the
                last error.
        """
        self.attempts += 1
        if target not in self.failed:
            self.failed.append(target)
        self.last = failure
        budget = self.client.retry_for
        elapsed = time.monotonic() - self.started
        if not retry:
            spent = self.exhausted(elapsed)
            spent.message += f" ({self.call} is not retried: it may have reached the server)"
            raise spent
        if elapsed >= budget:
            raise self.exhausted(elapsed)
        if self.attempts == 1:
            log.warning(
                "%s at %s failed (%s); retrying for up to %gs on %s",
                self.call,
                target,
                failure,
                budget,
                ", ".join(self.client.targets),
            )
        else:
            log.debug("%s at %s failed again (attempt %d): %s", self.call, target, self.attempts, failure)

    def exhausted(self, elapsed: float) -> Unavailable:
        """The error that ends the retries (also the plain one-server error when ``retry_for`` is 0)."""
        last = self.last if self.last is not None else Unavailable("call failed")
        where = (
            f"the trapoula server at {self.failed[0]}"
            if len(self.failed) == 1
            else f"the trapoula servers at {', '.join(self.failed)}"
        )
        tries = f" after {self.attempts} attempts in {elapsed:.1f}s" if self.attempts > 1 else ""
        return Unavailable(
            f"no answer from {where}{tries}: {last.message}",
            code=last.code,
            reason=last.reason,
            metadata=last.metadata,
            retry_delay=last.retry_delay,
        )

    def delay(self, at_least: float | None = None) -> float:
        """Seconds to wait before the next attempt: exponential, jittered, capped, and never past
        the end of the budget (so a last attempt is made when the budget ends); at least
        ``at_least`` (the server's retry delay, when it gave one) within the budget."""
        base = min(BACKOFF_MAX, BACKOFF_INITIAL * BACKOFF_MULTIPLIER ** (self.attempts - 1))
        jittered = max(base * random.uniform(1 - BACKOFF_JITTER, 1 + BACKOFF_JITTER), at_least or 0.0)
        remaining = self.client.retry_for - (time.monotonic() - self.started)
        return max(0.0, min(jittered, remaining))

    def done(self, target: str, from_version: int | None = None) -> None:
        """The attempt at ``target`` went through: log it at INFO and tell ``on_reconnect``."""
        event = Reconnected(
            target=target,
            seconds=time.monotonic() - self.started,
            attempts=self.attempts,
            failed=tuple(self.failed),
            call=self.call,
            from_version=from_version,
        )
        log.info("%s", event)
        if self.client.on_reconnect is not None:
            self.client.on_reconnect(event)


def _code(error: grpc.RpcError) -> grpc.StatusCode | None:
    code_fn = getattr(error, "code", None)
    code = code_fn() if callable(code_fn) else None
    return code if isinstance(code, grpc.StatusCode) else None


def never_sent(error: grpc.RpcError) -> bool:
    """True when the failed call certainly never reached a server.

    gRPC sends a call only over a connected transport; when the channel has none (every address
    refused the connection, or the name did not resolve), the call fails at once with
    ``UNAVAILABLE`` and a message from the channel itself: ``failed to connect to all addresses``
    (the ``pick_first`` policy), ``errors resolving`` / ``DNS resolution failed`` (the resolver).
    A call that reached a server and then lost it fails otherwise (``Socket closed``,
    ``Connection reset``, a server's own ``UNAVAILABLE``, ``DEADLINE_EXCEEDED``).  (A call
    refused unprocessed by a stopping server, HTTP/2 ``GOAWAY`` or ``REFUSED_STREAM``, gRPC
    retries itself, transparently.)
    """
    if _code(error) != grpc.StatusCode.UNAVAILABLE:
        return False
    details_fn = getattr(error, "details", None)
    details = str(details_fn() or "") if callable(details_fn) else ""
    return details.startswith(NEVER_SENT_MESSAGES)


def _targets(target: str | Sequence[str]) -> tuple[str, ...]:
    """The servers of ``target``: one ``host:port``, several separated by commas, or a sequence.

    Raises:
        InvalidArgument: no address, an empty one, or something that is not text.
    """
    if isinstance(target, str):
        parts = target.split(",")
    elif isinstance(target, Sequence) and not isinstance(target, bytes) and target:
        if not all(isinstance(t, str) for t in target):
            raise InvalidArgument(f"target {target!r} is not a host:port address (or a list of them)")
        parts = list(target)
    else:
        raise InvalidArgument(f"target {target!r} is not a host:port address (or a list of them)")
    out: list[str] = []
    for part in (p.strip() for p in parts):
        if not part:
            raise InvalidArgument(f"target {target!r} is not a host:port address (or a list of them)")
        if part not in out:
            out.append(part)
    return tuple(out)


class Watch:
    """A live stream of :class:`Update` for one caller; cancel it (or leave its ``with``) to stop.

    Iterating yields updates until the server ends the stream (the match is over) or
    :meth:`cancel` is called (from any thread); then iteration just stops.  When the stream
    breaks with a failure that is not the caller's (:data:`RESUME_CODES`: ``UNAVAILABLE`` as the
    server stops, is killed, loses its store or the network; ``INTERNAL`` ...), a watch made by
    :meth:`TableClient.watch` re-opens ``WatchTable`` from the last version it yielded, on the
    client's next server, with the client's backoff and within its ``retry_for`` budget; each
    event is yielded once, in order (anything at or below the last version is skipped).  The
    reconnection is logged and reported to ``on_reconnect`` when the re-opened stream delivers
    its first update (or ends).  A break within :data:`STABLE_SECONDS` of a re-opening that
    delivered nothing continues the same outage (same budget); a later break starts a new one,
    unless it is the server's ``store_unavailable`` (a server whose database is gone, which may
    take seconds to say so): that continues the outage too, so the budget still ends it.

    Args:
        call: the open ``WatchTable`` call.
        client: the client to re-open through (None: a break is raised, nothing is re-opened).
        table_id, from_version, target, token, batch: what the call was opened with: the table,
            the version it streams after, the server, the token (``""``: none), whether batched
            (:meth:`TableClient.watch`); a re-opened call keeps the table, the token and ``batch``.

    Raises (while iterating):
        Unavailable: the budget is spent (its message names the servers tried and the last
            failure; ``code`` and ``reason`` are the last failure's).
        TrapoulaError: a failure that is the caller's (``PERMISSION_DENIED``, ``NOT_FOUND``,
            ``OUT_OF_RANGE`` ...), typed (:mod:`trapoula.clients.errors`), at once.
    """

    def __init__(
        self,
        call: Any,
        *,
        client: TableClient | None = None,
        table_id: str = "",
        from_version: int = 0,
        target: str = "",
        token: str = "",
        batch: bool = False,
    ) -> None:
        self._call = call
        self._batch = batch
        self._pending: collections.deque[Update] = collections.deque()
        self._cancelled = threading.Event()
        self._lock = threading.Lock()
        self._client = client
        self._table_id = table_id
        self._version = from_version
        self._target = target
        self._token = token

    def __enter__(self) -> Watch:
        return self

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.cancel()

    def cancel(self) -> None:
        """Cancel the call; the server's handler stops (DESIGN: clients cancel explicitly).  A
        watch waiting to reconnect stops waiting."""
        with self._lock:
            self._cancelled.set()
            call = self._call
        call.cancel()

    @property
    def cancelled(self) -> bool:
        """True once :meth:`cancel` was called."""
        return self._cancelled.is_set()

    @property
    def version(self) -> int:
        """The version of the last update yielded (the ``from_version`` it started from before any)."""
        return self._version

    @property
    def target(self) -> str:
        """The server the stream is (or was last) open on."""
        return self._target

    def _received(self, call: Iterable[table_pb2.WatchTableResponse]) -> Iterator[Update]:
        """The updates of ``call``'s messages (:func:`_updates`), those of a batched message not
        yet yielded kept on the watch: a caller that stops iterating in the middle of a message
        and iterates again gets the rest of it first."""
        pending = self._pending
        while pending:
            yield pending.popleft()
        for message in call:
            pending.extend(_updates(message))
            while pending:
                yield pending.popleft()

    def __iter__(self) -> Iterator[Update]:
        outage: _Outage | None = None
        opened = time.monotonic()
        delivered = False
        while True:
            call = self._call
            try:
                for update in self._received(call):
                    if update.version <= self._version:
                        continue  # already yielded before the stream was re-opened
                    if outage is not None:
                        outage.done(self._target, self._version)
                        outage = None
                    delivered = True
                    self._version = update.version
                    if self._client is not None:
                        self._client.seen(self._table_id, update.view, self._token)
                    yield update
                if outage is not None:
                    outage.done(self._target, self._version)
                return
            except grpc.RpcError as error:
                code = _code(error)
                if self._cancelled.is_set():
                    return
                failure = from_rpc_error(error)
                client = self._client
                if client is None and code == grpc.StatusCode.CANCELLED:
                    return
                if client is None or code not in RESUME_CODES:
                    raise failure from None
                lasted = time.monotonic() - opened >= STABLE_SECONDS and failure.reason != "store_unavailable"
                if outage is None or delivered or lasted:
                    outage = _Outage(client, "WatchTable")
                delivered = False
                try:
                    outage.fail(self._target, failure)
                except Unavailable as spent:
                    raise spent from None
                client._advance(self._target)
                if self._cancelled.wait(outage.delay(failure.retry_delay)):
                    return
                with self._lock:
                    if self._cancelled.is_set():
                        return
                    self._call, self._target = client._open_watch(
                        self._table_id, self._version, self._token, self._batch
                    )
                opened = time.monotonic()


class TableClient:
    """A client of one trapoula server, or of several replicas; owns its channels (use ``with``).

    The channels it opens send and receive messages up to :data:`MAX_MESSAGE_BYTES`.  Every
    method checks its arguments' types and wire ranges before calling and raises
    :class:`~trapoula.clients.errors.InvalidArgument` (``code`` None) for a bad one.

    Reconnecting by itself: calls go to the current server (the first, at the start).  A call
    that fails with ``UNAVAILABLE``, ``DEADLINE_EXCEEDED`` or ``CANCELLED`` (:data:`RETRY_CODES`;
    ``CANCELLED``: a stopping server's gRPC cancels a call that arrives after it stopped serving,
    as during a replica's SIGTERM) is tried again, the same request, on the next server
    (round robin), after a backoff (:data:`BACKOFF_INITIAL` seconds, times
    :data:`BACKOFF_MULTIPLIER` after each failure, capped at :data:`BACKOFF_MAX`, jittered by
    ±:data:`BACKOFF_JITTER`), until ``retry_for`` seconds have passed since the first failure;
    then it raises :class:`~trapoula.clients.errors.Unavailable` naming the servers tried.  The
    client stays on the server that answered.  Which calls are retried:

    - ``GetView``, ``ListTables``, ``ListGames``, ``GetRecord``, ``ListLobby``, ``ListMatches``,
      ``GetStandings``: they change nothing.
    - ``Act``, ``StartMatch``: their command id is chosen once, before the first attempt, and
      the server answers a repeated id from the same caller with the first result and saves
      nothing, so a retry never plays a move twice.
    - ``CreateTable``, ``JoinTable``: their request id is chosen once, before the first attempt,
      and the server answers a repeated request id with the same table or seat and token and
      stores nothing more (on any replica sharing the server secret).
    - ``WatchTable``: see :class:`Watch` (resumes from the last version it yielded).
    - ``AddBot`` carries no such id: retrying one that reached a server could seat a second bot.
      It is retried only when the call certainly never reached a server (:func:`never_sent`:
      gRPC could not connect to it); otherwise the ``Unavailable`` is raised at once.

    Limits per client (the server's ``RESOURCE_EXHAUSTED``, :class:`~trapoula.clients.errors.ResourceExhausted`,
    whose ``retry_delay`` is the wait the server asks for): a call refused ``rate_limited`` with a
    delay of at most ``rate_wait`` seconds is sent again, the same request to the same server,
    after that delay (times a random 1 to 1 + :data:`RATE_WAIT_JITTER`), any call alike since the
    server refused it before running anything, as long as the waits of one call stay within
    ``retry_for``; a longer delay, ``too_many_tables`` and ``too_many_watches`` are raised at once
    with their ``retry_delay``, for the caller to decide.  A :class:`Watch` refused
    (``too_many_watches``) re-opens as after a break, waiting at least the delay.

    Other failures (``PERMISSION_DENIED``, ``FAILED_PRECONDITION`` ...) are raised at once.
    What gRPC does by itself is kept: transparent retries of a call refused unprocessed, and
    the channel's own reconnection, its backoff capped at :data:`BACKOFF_MAX` (channel options
    ``grpc.initial_reconnect_backoff_ms`` / ``grpc.max_reconnect_backoff_ms``; gRPC's default
    cap is 120 s, which would leave a restarted server unused for minutes).  gRPC's
    ``retryPolicy`` (service config) is not used: it retries on one channel only, counts attempts
    rather than time, and never retries a stream that delivered messages; nor is one channel
    with several addresses (``ipv4:a,b``, ``pick_first``): it takes IP literals only and hides
    which server failed.

    Args:
        target: ``host:port`` of the server; or several, as a sequence or separated by commas
            (``"h1:50051,h2:50051"``), tried in that order.
        token: the seat or owner token sent with every call (None: none; a spectator).
        timeout: seconds each unary call (each attempt) may take.
        channel: an existing channel to use instead of opening one (it is then not closed; the
            client then has that one server, ``target`` names it).
        retry_for: seconds to keep retrying after a failure (:data:`DEFAULT_RETRY_FOR`); 0 turns
            retrying off (the first failure is raised).  A call may take up to ``retry_for`` +
            ``timeout`` seconds.
        on_reconnect: called with a :class:`Reconnected` after a call or a watch went through
            again (in the calling or iterating thread); also logged at INFO.
        identity_token: the player's identity token (a JWT from the app that embeds trapoula,
            docs/identity.md), sent with :meth:`create_table` and :meth:`join`; a server configured
            with an identity key requires it (None: an anonymous server).
        seeds: give the seat's own random seed for every hand's deal by itself (docs/shuffle.md
            2a): right after :meth:`join`, and, when the last view this client received for the
            seat (from :meth:`act`, :meth:`start_match`, :meth:`view` or a watch) showed a hand
            awaiting its seed, just before its next :meth:`act` (so a call's result is never
            followed by a save of the client's own).  False: only :meth:`give_seed` gives one.
        rate_wait: the longest ``rate_limited`` retry delay the client waits out by itself
            (:data:`DEFAULT_RATE_WAIT`); 0: none, every such refusal is raised.

    Raises:
        InvalidArgument: an empty ``target``, a ``timeout`` that is not a positive number, or a
            ``retry_for`` or ``rate_wait`` that is not a number >= 0.
    """

    def __init__(
        self,
        target: str | Sequence[str],
        token: str | None = None,
        timeout: float = DEFAULT_TIMEOUT,
        channel: grpc.Channel | None = None,
        *,
        retry_for: float = DEFAULT_RETRY_FOR,
        on_reconnect: Callable[[Reconnected], None] | None = None,
        seeds: bool = True,
        identity_token: str | None = None,
        rate_wait: float = DEFAULT_RATE_WAIT,
    ) -> None:
        targets = _targets(target)
        if token is not None:
            _text(token, "token")
        if isinstance(timeout, bool) or not isinstance(timeout, int | float) or not timeout > 0:
            raise InvalidArgument(f"timeout {timeout!r} is not a positive number of seconds")
        if isinstance(retry_for, bool) or not isinstance(retry_for, int | float) or not retry_for >= 0:
            raise InvalidArgument(f"retry_for {retry_for!r} is not a number of seconds >= 0")
        if isinstance(rate_wait, bool) or not isinstance(rate_wait, int | float) or not rate_wait >= 0:
            raise InvalidArgument(f"rate_wait {rate_wait!r} is not a number of seconds >= 0")
        if channel is not None and len(targets) != 1:
            raise InvalidArgument(f"target {target!r}: a given channel goes with one address")
        self.targets = targets
        """The servers, in the order they are tried."""
        self.token = token
        """The token sent with each call; :meth:`join` sets it when it is None."""
        self.timeout = float(timeout)
        self.retry_for = float(retry_for)
        """Seconds to keep retrying after a failure (0: never)."""
        self.rate_wait = float(rate_wait)
        """The longest ``rate_limited`` retry delay waited out by itself (0: none)."""
        self.on_reconnect = on_reconnect
        self._owns_channel = channel is None
        self._channels: tuple[grpc.Channel, ...] = (
            (channel,)
            if channel is not None
            else tuple(grpc.insecure_channel(t, options=CHANNEL_OPTIONS) for t in targets)
        )
        self._stubs = tuple(table_pb2_grpc.TableServiceStub(c) for c in self._channels)
        self._current = 0
        self._lock = threading.Lock()
        self.seeds = bool(seeds)
        """Whether the client gives its seats' seeds by itself (:meth:`seen`)."""
        self._seeded: set[tuple[str, str, int]] = set()
        """``(table id, token, hand)`` of every seed given (or tried) by itself."""
        self._owed: dict[tuple[str, str], int] = {}
        """``(table id, token) -> hand`` of the seeds the last views showed awaited (:meth:`seen`)."""
        self.identity_token = identity_token
        """The identity token sent with :meth:`create_table` and :meth:`join` (None: none)."""
        self.owner_tokens: dict[str, str] = {}
        """``table id -> owner token`` of the tables this client created: :meth:`add_bot` and
        :meth:`start_match` send it (only the owner adds bots and starts the match)."""

    @property
    def target(self) -> str:
        """The current server (the one the next call goes to)."""
        return self.targets[self._current]

    @property
    def _stub(self) -> table_pb2_grpc.TableServiceStub:
        return self._stubs[self._current]

    def __enter__(self) -> TableClient:
        return self

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.close()

    def close(self) -> None:
        """Close the channels (when the client opened them)."""
        if self._owns_channel:
            for channel in self._channels:
                channel.close()

    def wait_ready(self, timeout: float = 10.0) -> None:
        """Block until a server's channel is connected (the current server's first, else any);
        the client then uses that server.

        Raises:
            Unavailable: no server answered within ``timeout`` seconds.
        """
        if isinstance(timeout, bool) or not isinstance(timeout, int | float) or not timeout > 0:
            raise InvalidArgument(f"timeout {timeout!r} is not a positive number of seconds")
        ready = threading.Event()
        futures = [grpc.channel_ready_future(c) for c in self._channels]
        for future in futures:
            future.add_done_callback(lambda _: ready.set())
        try:
            ready.wait(timeout)
            order = [self._current, *(i for i in range(len(futures)) if i != self._current)]
            for index in order:
                if futures[index].done() and not futures[index].cancelled():
                    self._current = index
                    return
        finally:
            for future in futures:
                future.cancel()
        where = self.targets[0] if len(self.targets) == 1 else f"any of {', '.join(self.targets)}"
        raise Unavailable(f"no trapoula server at {where} after {timeout}s")

    # ------------------------------------------------------------------ plumbing

    def _metadata(self, token: str | None = None) -> tuple[tuple[str, str], ...]:
        token = token if token is not None else self.token
        return (("authorization", f"Bearer {token}"),) if token else ()

    def _advance(self, failed: str) -> None:
        """Move to the server after ``failed`` (unless another thread has moved already)."""
        with self._lock:
            if self.targets[self._current] == failed:
                self._current = (self._current + 1) % len(self.targets)

    def _call(
        self,
        method: Callable[[table_pb2_grpc.TableServiceStub], Callable[..., R]],
        request: Any,
        token: str | None = None,
    ) -> R:
        """Call ``method`` (picked from a stub) with ``request``; retry as the class says.

        ``request``'s type names the method (``ActRequest``: ``Act``), which says whether a
        failure that may have reached the server is retried (:data:`UNSAFE_METHODS`).  A failure
        of :data:`RETRY_CODES` is retried, the same request (so the same command id) each time;
        a short ``rate_limited`` refusal is waited out (:meth:`_rate_wait`).

        Raises:
            ResourceExhausted: a limit per client the client does not wait out (its ``retry_delay``).
            Unavailable: the retry budget is spent, or an unsafe call may have reached a server.
            TrapoulaError: any other failure, typed (:mod:`trapoula.clients.errors`), at once.
        """
        name = type(request).__name__.removesuffix("Request")
        outage: _Outage | None = None
        waited = 0.0
        while True:
            index = self._current
            target = self.targets[index]
            try:
                response = method(self._stubs[index])(request, timeout=self.timeout, metadata=self._metadata(token))
            except grpc.RpcError as error:
                failure = from_rpc_error(error)
                wait = self._rate_wait(failure, waited)
                if wait is not None:
                    log.debug("%s at %s rate limited; sent again in %.3f s", name, target, wait)
                    time.sleep(wait)
                    waited += wait
                    continue
                if _code(error) not in RETRY_CODES:
                    raise failure from None
                retryable = name not in UNSAFE_METHODS or never_sent(error)
                outage = outage if outage is not None else _Outage(self, name)
                try:
                    outage.fail(target, failure, retry=retryable)
                except Unavailable as spent:
                    raise spent from None
                self._advance(target)
                time.sleep(outage.delay())
                continue
            if outage is not None:
                outage.done(target)
            return response

    def _rate_wait(self, failure: TrapoulaError, waited: float) -> float | None:
        """Seconds to wait before sending again a call refused by ``failure``, when it is a
        ``rate_limited`` refusal whose delay is at most :attr:`rate_wait` and the call's waits
        (``waited`` so far) stay within ``retry_for``; else None (the refusal is raised)."""
        delay = failure.retry_delay
        if failure.reason != "rate_limited" or failure.code != grpc.StatusCode.RESOURCE_EXHAUSTED or delay is None:
            return None
        wait = delay * random.uniform(1.0, 1.0 + RATE_WAIT_JITTER)
        if delay > self.rate_wait or waited + wait > self.retry_for:
            return None
        return wait

    def _open_watch(self, table_id: str, from_version: int, token: str, batch: bool = False) -> tuple[Any, str]:
        """A ``WatchTable`` call on the current server with ``token`` (``""``: none), and that server."""
        index = self._current
        request = table_pb2.WatchTableRequest(table_id=table_id, from_version=from_version, batch=batch)
        return self._stubs[index].WatchTable(request, metadata=self._metadata(token)), self.targets[index]

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
        request_id: str | None = None,
        private: bool = False,
    ) -> CreatedTable:
        """Create a table.  Retried with one ``request_id`` (a new random one when None: 32 hex
        digits), so a retry answers the table the first attempt made and makes no other.  The
        client keeps the owner token (:attr:`owner_tokens`) for :meth:`add_bot` and
        :meth:`start_match`.  A ``private`` table is not listed and is joined with its
        invitation code (:attr:`CreatedTable.invitation_code`).

        ``manual_deal`` makes a table for explicit deals (tests, the audit of a hand dealt at a
        physical table): it deals a hand only on ``next_hand``, and only such a table accepts an
        explicit deal (rules S5.3; vida R3.2, giminaiciai R3.8, romis R3.7).

        Raises:
            InvalidArgument: unknown game, option or seat count; a request id that is not 16 to
                128 printable ASCII characters.
            PermissionDenied: the server requires an identity token and :attr:`identity_token` is
                missing or does not verify (``UNAUTHENTICATED``).
            Unavailable: no server answered within the retry budget.
        """
        if isinstance(initial_totals, str | bytes) or not isinstance(initial_totals, Sequence):
            raise InvalidArgument(f"initial_totals {initial_totals!r} is not a list of whole numbers")
        request = table_pb2.CreateTableRequest(
            game=_text(game, "game"),
            seats=_whole(seats, "seats"),
            options=_options(options),
            initial_totals=[_whole(t, "initial total", -_INT32_MAX - 1) for t in initial_totals],
            manual_deal=bool(manual_deal),
            request_id=uuid.uuid4().hex if request_id is None else _text(request_id, "request_id"),
            identity_token=self.identity_token or "",
            private=bool(private),
        )
        if first_dealer is not None:
            request.first_dealer = _whole(first_dealer, "first_dealer")
        response = self._call(lambda stub: stub.CreateTable, request)
        self.owner_tokens[response.table_id] = response.owner_token
        return CreatedTable(response.table_id, response.owner_token, response.invitation_code)

    def join(
        self,
        table_id: str,
        name: str,
        seat: int | None = None,
        request_id: str | None = None,
        invitation_code: str = "",
    ) -> Joined:
        """Take a seat (``seat``, or the first free one); the client adopts its token if it has none.

        Retried with one ``request_id`` (a new random one when None), so a retry answers the seat
        and token the first attempt took and takes no other.  At a server that verifies identities
        the seat is :attr:`identity_token`'s player's and ``name`` may be ``""`` (the token names
        the player); a private table needs its ``invitation_code``.

        Raises:
            NotFound: unknown table.
            AlreadyExists: the seat is taken or the match has started.
            InvalidArgument: a bad name, or a request id that is not 16 to 128 printable ASCII characters.
            PermissionDenied: a private table without its code or with a wrong one
                (``bad_invitation``); a name that is not the identity token's, or no valid identity
                token where the server requires one.
            Unavailable: no server answered within the retry budget.
        """
        request = table_pb2.JoinTableRequest(
            table_id=_text(table_id, "table_id"),
            name=_text(name, "name"),
            request_id=uuid.uuid4().hex if request_id is None else _text(request_id, "request_id"),
            identity_token=self.identity_token or "",
            invitation_code=_text(invitation_code, "invitation_code"),
        )
        if seat is not None:
            request.seat = _whole(seat, "seat")
        response = self._call(lambda stub: stub.JoinTable, request)
        if self.token is None:
            self.token = response.seat_token
        if self.seeds and response.seat >= 0 and not response.queued:
            self._seed_once(table_id, response.seat_token, 0)
        return Joined(int(response.seat), response.seat_token, bool(response.queued))

    def give_seed(self, table_id: str, seed: str | None = None, hand: int = 0, token: str | None = None) -> int:
        """Give the seat's own ``seed`` (64 lower-case hex digits; None: 32 random bytes from the
        operating system) for the deal of ``hand`` (0: the hand awaiting seeds); returns the hand.
        The deck of that hand is shuffled from the server's committed seed mixed with every seat's
        (docs/shuffle.md 2a).  Retried like ``Act``: the same seed again changes nothing.

        Raises:
            PermissionDenied: not a seat's token (``seat_only``).
            InvalidArgument: a bad seed (``bad_seed``).
            CommandRejected: ``no_seeds`` (a table for explicit deals), ``seed_too_late`` (the hand
                is dealt, or none awaits a seed), ``seed_given`` (another seed given already).
            NotFound: unknown table.  Unavailable: no server answered within ``retry_for``.
        """
        request = table_pb2.GiveSeedRequest(
            table_id=_text(table_id, "table_id"),
            seed=secrets.token_hex(32) if seed is None else _text(seed, "seed"),
            hand=_whole(hand, "hand"),
        )
        return int(self._call(lambda stub: stub.GiveSeed, request, token).hand)

    def seen(self, table_id: str, view: Mapping[str, Any] | None, token: str | None = None) -> None:
        """Note what ``view`` (one this client received, as the seat of ``token``, default its own)
        says of the players' seeds (``table.seed``): a hand awaiting them for which this seat gave
        none is owed, and given just before the seat's next :meth:`act`.  Does nothing when
        :attr:`seeds` is False or the view is not a seat's."""
        if not self.seeds or not view:
            return
        table = view.get("table")
        if not isinstance(table, Mapping) or table.get("viewer") != "seat":
            return
        key = (table_id, token if token is not None else self.token or "")
        part = table.get("seed")
        hand = part.get("hand") if isinstance(part, Mapping) else None
        if isinstance(part, Mapping) and isinstance(hand, int) and table.get("seat") not in (part.get("given") or ()):
            self._owed[key] = hand
        else:
            self._owed.pop(key, None)

    def _pay(self, table_id: str, token: str | None) -> None:
        """Give the seed a view showed owed by the seat of ``token`` (:meth:`seen`), once."""
        key = (table_id, token or "")
        hand = self._owed.pop(key, None)
        if hand is not None:
            self._seed_once(table_id, key[1], hand)

    def _seed_once(self, table_id: str, token: str, hand: int) -> None:
        key = (table_id, token, hand)
        if not token or key in self._seeded:
            return
        self._seeded.add(key)
        try:
            self.give_seed(table_id, hand=hand, token=token)
        except TrapoulaError as exc:  # the hand was dealt meanwhile: it counts this seat as empty
            log.info("table %s: seed for hand %s not given: %s", table_id, hand or "next", exc)

    def add_bot(
        self, table_id: str, level: str = "heuristic", seat: int | None = None, name: str = "", token: str | None = None
    ) -> int:
        """Seat a bot the server plays (a level of :attr:`GameInfo.bot_levels`); returns its seat (-1
        while queued for the next hand, ``mau_mau`` R6.9).  Only the owner adds bots: the call sends
        ``token``, else the owner token of a table this client created (:attr:`owner_tokens`), else
        the client's own token.

        Retried only when it never reached a server (:func:`never_sent`): a retry could seat a
        second bot.

        Raises:
            NotFound, AlreadyExists, InvalidArgument (unknown level).
            PermissionDenied: not the owner's token (``owner_only``).
            Unavailable: no server answered, or the call may have reached one.
        """
        request = table_pb2.AddBotRequest(
            table_id=_text(table_id, "table_id"), level=_text(level, "level"), name=_text(name, "name")
        )
        if seat is not None:
            request.seat = _whole(seat, "seat")
        owner = token if token is not None else self.owner_tokens.get(table_id)
        return int(self._call(lambda stub: stub.AddBot, request, owner).seat)

    def start_match(
        self,
        table_id: str,
        command_id: str | None = None,
        deal: Mapping[str, Any] | None = None,
        token: str | None = None,
    ) -> ActResult:
        """Start the match (every seat taken): deals the first hand from a seed, or from ``deal``
        (``{"hands": [[...]], "starter": "7H", "stock": [...]}``, S5.3).  Only the owner starts it:
        the call sends ``token``, else the owner token of a table this client created
        (:attr:`owner_tokens`), else the client's own token.  ``command_id`` (a new
        UUID when None) is chosen once: every retry (after ``UNAVAILABLE``, ``DEADLINE_EXCEEDED``
        or ``CANCELLED``, within ``retry_for``) sends the same one, so the match starts once.

        Raises:
            PermissionDenied: not the owner token of the table (``owner_only``).
            AlreadyExists: the match has started.  CommandRejected: seats are free; a ``deal`` at a
                table not created with ``manual_deal`` (``explicit_deal_not_allowed``).
            InvalidArgument: a ``deal`` that is not an explicit deal's mapping.
            Unavailable: no server answered within ``retry_for``.
        """
        request = table_pb2.StartMatchRequest(
            table_id=_text(table_id, "table_id"), command_id=_text(command_id or str(uuid.uuid4()), "command_id")
        )
        if deal is not None:
            request.deal.CopyFrom(_explicit_deal(deal))
        owner = token if token is not None else self.owner_tokens.get(table_id)
        result = self._act_result(self._call(lambda stub: stub.StartMatch, request, owner))
        self.seen(table_id, result.view)
        return result

    def act(
        self,
        table_id: str,
        command: Mapping[str, Any],
        command_id: str | None = None,
        view_version: int | None = None,
    ) -> ActResult:
        """Issue ``command`` for the caller's seat; a repeated ``command_id`` returns the first result.

        ``command_id`` (a new UUID when None) is chosen once, before the first attempt: every retry
        (after ``UNAVAILABLE``, ``DEADLINE_EXCEEDED`` or ``CANCELLED``, within ``retry_for``) sends
        the same one, so the move is played once.  ``view_version`` is the version of the view
        the command was chosen from (:attr:`Update.version`): the server then tells a command
        refused because the table moved on (:class:`StaleView`) from one the rules refuse anyway.

        Raises:
            CommandRejected: the rules refuse it (``reason``, ``rule``).
            StaleView: the rules refuse it and the table has moved past ``view_version``: refresh
                the view and choose again.
            PermissionDenied: no valid seat token.  Conflict: a concurrent command won; retry.
            InvalidArgument: a malformed command or ``view_version``.
            NotFound: unknown table.  TrapoulaError (``OUT_OF_RANGE``, ``version_ahead``):
                ``view_version`` beyond the table's version.
            Unavailable: no server answered within ``retry_for``.
        """
        if not isinstance(command, Mapping):
            raise InvalidArgument(f"command {command!r} is not a mapping such as {{'kind': 'draw'}}")
        request = table_pb2.ActRequest(
            table_id=_text(table_id, "table_id"),
            command_id=_text(command_id or str(uuid.uuid4()), "command_id"),
            command=command_message(command),
        )
        if view_version is not None:
            request.view_version = _whole(view_version, "view_version", 0, _UINT64_MAX)
        self._pay(request.table_id, self.token)
        result = self._act_result(self._call(lambda stub: stub.Act, request))
        self.seen(table_id, result.view)
        return result

    def view(self, table_id: str) -> Update:
        """The caller's current view (a spectator's without a token), as an :class:`Update` with no event.

        Raises:
            NotFound: unknown table.
        """
        response = self._call(lambda stub: stub.GetView, table_pb2.GetViewRequest(table_id=_text(table_id, "table_id")))
        update = Update(int(response.view.version), "", {}, _json(response.view.view_json))
        self.seen(table_id, update.view)
        return update

    def watch(self, table_id: str, from_version: int = 0, *, batch: bool = False) -> Watch:
        """Stream the caller's events after ``from_version``, then live; use as a context manager
        (leaving it cancels the call).

        ``batch``: the server sends the events ready together in one message, with the view
        after the last of them only (``WatchTableRequest.batch``): every event is still yielded,
        once and in order, but an update followed by another of the same message has an empty
        ``view`` (``{}``, as in :attr:`ActResult.events`).  Fewer messages and renderings, for a
        caller that acts on the current view (a bot, a table on screen).

        The stream has no deadline (it is live); cancel it, or leave its ``with``, to stop.  When
        it breaks with a failure that is not the caller's (:data:`RESUME_CODES`), it resumes from
        the last version it yielded on the next server, within ``retry_for`` (:class:`Watch`).

        Raises:
            InvalidArgument: ``from_version`` is not a whole number >= 0.
        """
        table_id = _text(table_id, "table_id")
        from_version = _whole(from_version, "from_version", 0, _UINT64_MAX)
        token = self.token or ""  # a re-opened stream keeps this viewer, whatever the client's token becomes
        call, target = self._open_watch(table_id, from_version, token, bool(batch))
        return Watch(
            call,
            client=self,
            table_id=table_id,
            from_version=from_version,
            target=target,
            token=token,
            batch=bool(batch),
        )

    def record(self, table_id: str) -> str:
        """The record of the table's finished hands, JSON Lines (docs/record.md), one message of
        up to :data:`MAX_MESSAGE_BYTES`.

        Raises:
            NotFound: unknown table.
        """
        request = table_pb2.GetRecordRequest(table_id=_text(table_id, "table_id"))
        return self._call(lambda stub: stub.GetRecord, request).jsonl

    def list_tables(self, game: str = "", page_size: int = 0) -> list[TableSummary]:
        """Tables, newest first (of one game when ``game`` is given); follows every page."""
        _text(game, "game")
        _whole(page_size, "page_size")
        out: list[TableSummary] = []
        token = ""
        while True:
            response = self._call(
                lambda stub: stub.ListTables,
                table_pb2.ListTablesRequest(game=game, page_size=page_size, page_token=token),
            )
            out.extend(
                TableSummary(
                    t.table_id, t.game, t.seats, tuple(t.free_seats), t.status, int(t.version), bool(t.manual_deal)
                )
                for t in response.tables
            )
            token = response.next_page_token
            if not token:
                return out

    def lobby(self, game: str = "", page_size: int = 0, page_token: str = "") -> Page[LobbyTable]:
        """One page of the lobby: tables players may join now, newest first (of one game when
        ``game`` is given).  ``page_size`` 0 means the server's default (50); pass the page's
        ``next_page_token`` as ``page_token`` for the next.

        Raises:
            InvalidArgument: a bad argument, or a page token the server did not give.
            Unavailable: no server answered, or the server keeps no read models (``read_models_off``).
        """
        request = table_pb2.ListLobbyRequest(
            game=_text(game, "game"),
            page_size=_whole(page_size, "page_size"),
            page_token=_text(page_token, "page_token"),
        )
        return lobby_page(self._call(lambda stub: stub.ListLobby, request))

    def matches(
        self,
        player: str = "",
        game: str = "",
        finished_after: str = "",
        finished_before: str = "",
        page_size: int = 0,
        page_token: str = "",
        player_id: str = "",
    ) -> Page[MatchSummary]:
        """One page of the match history: finished matches, newest first.

        Filters: ``player`` a display name (exact), ``player_id`` a verified player's id
        (docs/identity.md), ``game`` a game key, ``finished_after``
        (inclusive) and ``finished_before`` (exclusive) as RFC 3339 with an offset
        (``2025-05-01T12:00:00Z``) or unix seconds (``"1746100800"``).

        Raises:
            InvalidArgument: a bad argument (``bad_time``, ``bad_page_token`` ...).
            Unavailable: as :meth:`lobby`.
        """
        request = table_pb2.ListMatchesRequest(
            player=_text(player, "player"),
            game=_text(game, "game"),
            finished_after=_text(finished_after, "finished_after"),
            finished_before=_text(finished_before, "finished_before"),
            page_size=_whole(page_size, "page_size"),
            page_token=_text(page_token, "page_token"),
            player_id=_text(player_id, "player_id"),
        )
        return matches_page(self._call(lambda stub: stub.ListMatches, request))

    def standings(self, game: str = "", player: str = "", page_size: int = 0, page_token: str = "") -> Page[Standing]:
        """One page of the standings: players' matches played and won per game, most wins first.

        Raises:
            InvalidArgument: a bad argument, or a page token the server did not give.
            Unavailable: as :meth:`lobby`.
        """
        request = table_pb2.GetStandingsRequest(
            game=_text(game, "game"),
            player=_text(player, "player"),
            page_size=_whole(page_size, "page_size"),
            page_token=_text(page_token, "page_token"),
        )
        return standings_page(self._call(lambda stub: stub.GetStandings, request))

    def list_games(self) -> list[GameInfo]:
        """The games the server plays, with their option defaults."""
        response = self._call(lambda stub: stub.ListGames, table_pb2.ListGamesRequest())
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
