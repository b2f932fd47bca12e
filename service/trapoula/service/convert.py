"""Pure proto <-> plain-data functions (STYLE habit 7): nothing here touches the store.

``google.protobuf.Struct`` carries every number as a float; :func:`plain_numbers` turns the
integral ones back into ints so that ``{"target_points": 50}`` reaches the game as ``50``.

A request that cannot be converted is the caller's fault: every function that reads a request
raises :class:`~trapoula.domain.errors.InvalidInput` (``INVALID_ARGUMENT``), never a bare
``ValueError`` or ``TypeError`` (which would be answered ``INTERNAL``).
"""

from __future__ import annotations

import functools
import json
from collections.abc import Callable, Iterable, Mapping
from typing import Any, ParamSpec, TypeVar

from google.protobuf import json_format, struct_pb2
from google.protobuf.message import Message

from trapoula.api.v1 import table_pb2 as pb
from trapoula.domain.errors import InvalidInput
from trapoula.service.application import ActResult, GameInfo, SeenEvent, TableSummary, WatchItem, WatchRun
from trapoula.service.errors import PermissionDenied, clip
from trapoula.service.jsontext import dumps
from trapoula.service.readpages import rfc3339
from trapoula.service.readresults import LobbyTable, MatchSummary, Standing

P = ParamSpec("P")
R = TypeVar("R")

MAX_CARD_CODES = 10_000
"""Most card codes one command or explicit deal may carry, counted before any is copied (a real one
carries at most a few hundred: two decks' 104 cards with the orders of their reshuffles)."""


def reads_request(reason: str) -> Callable[[Callable[P, R]], Callable[P, R]]:
    """Decorate a request reader: a ``ValueError``/``TypeError`` it raises becomes ``InvalidInput(reason)``.

    An :class:`~trapoula.domain.errors.InvalidInput` (itself a ``ValueError``) passes unchanged.
    """

    def decorate(fn: Callable[P, R]) -> Callable[P, R]:
        @functools.wraps(fn)
        def wrapper(*args: P.args, **kwargs: P.kwargs) -> R:
            try:
                return fn(*args, **kwargs)
            except InvalidInput:
                raise
            except (ValueError, TypeError, RecursionError) as exc:
                raise InvalidInput(f"the request cannot be read: {clip(exc)}", reason=reason) from None

        return wrapper

    return decorate


def plain_numbers(value: Any) -> Any:
    """``value`` with every integral float turned into an int, recursively (lists and dicts)."""
    if isinstance(value, float) and value.is_integer():
        return int(value)
    if isinstance(value, list | tuple):
        return [plain_numbers(v) for v in value]
    if isinstance(value, dict):
        return {k: plain_numbers(v) for k, v in value.items()}
    return value


@reads_request("bad_option")
def struct_to_dict(struct: struct_pb2.Struct) -> dict[str, Any]:
    """A ``Struct`` as a plain dict with integral numbers as ints.

    Raises:
        InvalidInput: a value that sets none of ``Value``'s kinds (a field name the sender's
            JSON mapping did not know, such as ``number_value`` written where proto JSON reads
            ``numberValue``: it arrives empty), naming the option; a number that is NaN or
            infinite, or a struct otherwise not JSON data (``bad_option``).
    """
    for key, value in struct.fields.items():
        path = _empty_value(value)
        if path is not None:
            raise InvalidInput(
                f"option {clip(key)!s}{path} has no value: its google.protobuf.Value sets none of null_value, "
                "number_value, string_value, bool_value, struct_value, list_value (in proto JSON the option is "
                'written as plain JSON: {"target_points": 50})',
                reason="bad_option",
            )
    try:
        raw = json_format.MessageToDict(struct)
    except ValueError:
        raise InvalidInput(
            "options must be plain JSON data: NaN and Infinity are not numbers here", reason="bad_option"
        ) from None
    result: dict[str, Any] = plain_numbers(raw)
    return result


def _empty_value(value: struct_pb2.Value, depth: int = 0) -> str | None:
    """Where ``value`` (or a value inside it) sets no kind: ``""`` for itself, ``"[2]"`` or
    ``".name"`` for an item or a field inside it; None when every value sets one.  Nesting
    deeper than 32 levels is not looked into (the JSON conversion refuses it)."""
    kind = value.WhichOneof("kind")
    if kind is None:
        return ""
    if depth >= 32:
        return None
    if kind == "list_value":
        for i, item in enumerate(value.list_value.values):
            inner = _empty_value(item, depth + 1)
            if inner is not None:
                return f"[{i}]{inner}"
    elif kind == "struct_value":
        for name, item in value.struct_value.fields.items():
            inner = _empty_value(item, depth + 1)
            if inner is not None:
                return f".{clip(name)}{inner}"
    return None


def cards(card_list: pb.CardList) -> list[str]:
    """The card codes of a ``CardList``."""
    return list(card_list.cards)


def _check_count(count: int, what: str, reason: str) -> None:
    """Refuse more than :data:`MAX_CARD_CODES` items (``what``) before they are copied out of the message.

    Raises:
        InvalidInput: too many (``reason``).
    """
    if count > MAX_CARD_CODES:
        raise InvalidInput(f"{count} {what}: at most {MAX_CARD_CODES} are read", reason=reason)


@reads_request("bad_deal")
def deal_to_dict(deal: pb.ExplicitDeal) -> dict[str, Any]:
    """An explicit deal (S5.3, each game's own shape) as the game's ``explicit_deal`` takes it:
    the fields that are set, by name (``hands``, ``starter``, ``stock``, ``reshuffles``, ``deck``,
    ``widow``).  A deal with a starter always has a ``stock`` (perhaps empty); one without a starter has
    no ``starter`` key (a deal of ``{"hands", "stock"}`` takes none).

    Raises:
        InvalidInput: more than :data:`MAX_CARD_CODES` card codes, or card lists, in all (``bad_deal``).
    """
    _check_count(len(deal.hands) + len(deal.reshuffles), "card lists in the explicit deal", "bad_deal")
    total = len(deal.stock) + len(deal.deck) + len(deal.widow)
    total += sum(len(h.cards) for h in deal.hands) + sum(len(r.cards) for r in deal.reshuffles)
    _check_count(total, "card codes in the explicit deal", "bad_deal")
    out: dict[str, Any] = {}
    if deal.hands:
        out["hands"] = [cards(h) for h in deal.hands]
    if deal.starter:
        out["starter"] = deal.starter
    if deal.starter or deal.stock:
        out["stock"] = list(deal.stock)
    if deal.reshuffles:
        out["reshuffles"] = [cards(r) for r in deal.reshuffles]
    if deal.deck:
        out["deck"] = list(deal.deck)
    if deal.widow:
        out["widow"] = list(deal.widow)
    return out


MAX_JSON_COMMAND = 64 * 1024
"""The longest ``Command.json`` read (bytes of UTF-8 text)."""

NEXT_HAND = "next_hand"
"""The table's deal command (S11): its ``deal`` is an ``ExplicitDeal`` message."""
JSON_KIND = "json"
"""The ``Command`` field that carries any game's command as JSON text."""


def _json_command(text: str) -> dict[str, Any]:
    """A command sent as JSON text: one JSON object with a text ``kind`` (each game's section 8).

    Raises:
        InvalidInput: longer than :data:`MAX_JSON_COMMAND`, not JSON, or not an object with a
            ``kind`` (``bad_command``).
    """
    size = len(text.encode("utf-8", "surrogatepass"))
    if size > MAX_JSON_COMMAND:
        raise InvalidInput(f"a JSON command of {size} bytes: at most {MAX_JSON_COMMAND} are read", reason="bad_command")
    try:
        value = json.loads(text)
    except ValueError as exc:
        raise InvalidInput(
            f"the JSON command does not parse: {exc.args[0] if exc.args else exc}", "bad_command"
        ) from None
    if not isinstance(value, dict) or not isinstance(value.get("kind"), str):
        raise InvalidInput(f"the JSON command {clip(text)!r} is not an object with a text 'kind'", "bad_command")
    return value


def _omit_empty(field: Any) -> bool:
    """True for a field marked ``omit_empty`` in table.proto."""
    return bool(field.GetOptions().Extensions[pb.omit_empty])


@functools.cache
def _fields(descriptor: Any) -> tuple[tuple[str, bool, bool, bool], ...]:
    """``(name, repeated, a list of messages, omit_empty)`` of each field of a typed command's
    message type, read from its descriptor once."""
    return tuple((f.name, f.is_repeated, f.message_type is not None, _omit_empty(f)) for f in descriptor.fields)


def _typed_command(kind: str, message: Message) -> dict[str, Any]:
    """A typed command message as the plain command ``{"kind": kind, field: value ...}``: every field
    by name, except a field marked ``omit_empty`` (table.proto) when it is empty; a list of
    ``CardList`` messages as a list of card-code lists.

    Raises:
        InvalidInput: more than :data:`MAX_CARD_CODES` card codes or lists in all (``bad_command``).
    """
    out: dict[str, Any] = {"kind": kind}
    codes = 0
    for name, repeated, lists, omit in _fields(message.DESCRIPTOR):
        value: Any = getattr(message, name)
        if repeated:
            if lists:
                _check_count(len(value), f"lists in {kind}", "bad_command")
                value = [cards(v) for v in value]
                codes += sum(len(v) for v in value)
            else:
                value = list(value)
                codes += len(value)
        if omit and not value:
            continue
        out[name] = value
    _check_count(codes, f"card codes in {kind}", "bad_command")
    return out


@reads_request("bad_command")
def command_to_dict(command: pb.Command) -> dict[str, Any]:
    """A ``Command`` as the plain command ``Tables.act`` takes (its ``seat``, if any, is checked
    against the token later): the ``json`` kind as the object it carries; the table's
    ``next_hand`` with its explicit deal, if any; any other typed kind by its fields
    (:func:`_typed_command`; each game's section 8 says what they mean).

    Raises:
        InvalidInput: no command kind is set, a JSON command that is no object with a ``kind``, or
            more than :data:`MAX_CARD_CODES` card codes (``bad_command``).
    """
    kind = command.WhichOneof("kind")
    if kind is None:
        kinds = ", ".join(f.name for f in pb.Command.DESCRIPTOR.oneofs_by_name["kind"].fields)
        raise InvalidInput(f"the command sets none of {kinds}", reason="bad_command")
    if kind == JSON_KIND:
        return _json_command(command.json)
    if kind == NEXT_HAND:
        deal = deal_to_dict(command.next_hand.deal) if command.next_hand.HasField("deal") else None
        return {"kind": NEXT_HAND, "deal": deal}
    return _typed_command(kind, getattr(command, kind))


@reads_request("bad_deal")
def start_deal(request: pb.StartMatchRequest) -> dict[str, Any] | None:
    """The explicit first deal of a ``StartMatchRequest``, or None for a seeded deal."""
    return deal_to_dict(request.deal) if request.HasField("deal") else None


def event_to_proto(event: SeenEvent) -> pb.Event:
    """One redacted event on the wire."""
    return pb.Event(version=event.version, name=event.name, payload_json=event.payload_json)


def view_to_proto(version: int, view: Mapping[str, Any]) -> pb.View:
    """One view on the wire."""
    return pb.View(version=version, view_json=dumps(view))


def act_response(result: ActResult) -> pb.ActResponse:
    """The reply to ``StartMatch`` and ``Act``."""
    return pb.ActResponse(
        version=result.version,
        events=[event_to_proto(e) for e in result.events],
        view=pb.View(version=result.version, view_json=result.view_json),
    )


def watch_response(item: WatchItem | WatchRun) -> pb.WatchTableResponse:
    """One message of ``WatchTable``: an event with the view after it, or (a batched watch) a run
    of events in ``events`` with the view after the last."""
    if isinstance(item, WatchRun):
        return pb.WatchTableResponse(
            events=[event_to_proto(e) for e in item.events],
            view=pb.View(version=item.version, view_json=item.last.view_json),
        )
    view = pb.View(version=item.version, view_json=item.view_json)
    return pb.WatchTableResponse(event=event_to_proto(item.event), view=view)


def summary_to_proto(summary: TableSummary) -> pb.TableSummary:
    """One lobby line on the wire."""
    return pb.TableSummary(
        table_id=summary.table_id,
        game=summary.game,
        seats=summary.seats,
        free_seats=list(summary.free_seats),
        status=summary.status,
        version=summary.version,
        manual_deal=summary.manual_deal,
    )


def game_to_proto(game: GameInfo) -> pb.GameInfo:
    """One game on the wire."""
    return pb.GameInfo(
        key=game.key,
        title=game.title,
        summary=game.summary,
        min_players=game.min_players,
        max_players=game.max_players,
        options_json=dumps(game.options),
        bot_levels=list(game.bot_levels),
        seat_changes=game.seat_changes,
    )


def bearer_token(metadata: Iterable[tuple[str, str | bytes]] | None) -> str | None:
    """The token of an ``authorization: Bearer <token>`` metadata entry (None when absent).

    Raises:
        PermissionDenied: an ``authorization`` entry that is not ``Bearer <token>`` (``bad_token``).
    """
    for key, value in metadata or ():
        if key.lower() != "authorization":
            continue
        text = value.decode("utf-8", "replace") if isinstance(value, bytes) else value
        scheme, _, token = text.strip().partition(" ")
        if scheme.lower() != "bearer" or not token.strip():
            raise PermissionDenied("authorization metadata must read 'Bearer <token>'", reason="bad_token")
        return token.strip()
    return None


# --------------------------------------------------------------------------- read models


def lobby_to_proto(table: LobbyTable) -> pb.LobbyTable:
    """A lobby line as its message (``ListLobby``)."""
    return pb.LobbyTable(
        table_id=table.table_id,
        game=table.game,
        seats=table.seats,
        free_seats=table.free_seats,
        open_places=table.open_places,
        status=table.status,
        options_json=json.dumps(table.options, ensure_ascii=False, sort_keys=True),
        manual_deal=table.manual_deal,
        players=[pb.SeatedPlayer(seat=p.seat, name=p.name, bot=p.bot) for p in table.players],
        waiting=table.waiting,
        created_at=rfc3339(table.created_at),
    )


def match_to_proto(match: MatchSummary) -> pb.MatchSummary:
    """A finished match as its message (``ListMatches``)."""
    return pb.MatchSummary(
        table_id=match.table_id,
        game=match.game,
        created_at=rfc3339(match.created_at),
        started_at=rfc3339(match.started_at),
        finished_at=rfc3339(match.finished_at),
        players=[
            pb.MatchPlayer(
                seat=p.seat,
                name=p.name,
                bot=p.bot,
                total=p.total,
                won=p.won,
                left=p.left,
                team=p.team,
                player_id=p.player_id or "",
                verified=p.verified,
            )
            for p in match.players
        ],
        winner_seats=match.winner_seats,
        winner_team=match.winner_team,
        team_totals=match.team_totals,
        result_json=json.dumps(match.result, ensure_ascii=False, sort_keys=True),
        hands=match.hands,
        record_available=match.record_available,
        record_hands=match.record_hands,
        record_complete=match.record_complete,
        version=match.version,
    )


def standing_to_proto(row: Standing) -> pb.Standing:
    """A standings row as its message (``GetStandings``)."""
    return pb.Standing(
        game=row.game,
        player=row.name,
        bot=row.bot,
        played=row.played,
        won=row.won,
        last_finished_at=rfc3339(row.last_finished_at),
        player_id=row.player_id or "",
        verified=row.verified,
    )
