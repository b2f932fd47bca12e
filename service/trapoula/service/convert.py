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

import orjson
from google.protobuf import json_format, struct_pb2

from trapoula.api.v1 import table_pb2 as pb
from trapoula.domain.errors import InvalidInput
from trapoula.service.application import ActResult, GameInfo, SeenEvent, TableSummary, WatchItem
from trapoula.service.errors import PermissionDenied, clip
from trapoula.service.readpages import rfc3339
from trapoula.service.readresults import LobbyTable, MatchSummary, Standing

P = ParamSpec("P")
R = TypeVar("R")

MAX_CARD_CODES = 10_000
"""Most card codes one command or explicit deal may carry, counted before any is copied (a real one
carries at most a few hundred: ``mau_mau``'s 104 cards with the orders of its reshuffles)."""


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


def dumps(value: Any) -> str:
    """Compact JSON (UTF-8 text, not ASCII-escaped), as ``json.dumps(value, ensure_ascii=False,
    separators=(",", ":"))`` writes it, encoded by orjson (a view is encoded once per viewer and
    event: the server's most repeated work after gRPC itself); keys that are not text are written
    as text, as ``json`` does.  Values orjson refuses (an int beyond 64 bits) go to ``json``."""
    try:
        return orjson.dumps(value, option=orjson.OPT_NON_STR_KEYS).decode("utf-8")
    except (TypeError, orjson.JSONEncodeError):
        return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


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
        InvalidInput: a number is NaN or infinite, or the struct is otherwise not JSON data
            (``bad_option``).
    """
    try:
        raw = json_format.MessageToDict(struct)
    except ValueError:
        raise InvalidInput(
            "options must be plain JSON data: NaN and Infinity are not numbers here", reason="bad_option"
        ) from None
    result: dict[str, Any] = plain_numbers(raw)
    return result


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
    """An explicit deal (S5.3; ``vida`` R3.2; ``romis`` R3.7) as the game's ``explicit_deal`` takes it:
    the fields that are set, by name (``hands``, ``starter``, ``stock``, ``reshuffles``, ``deck``,
    ``widow``).  A deal with a starter always has a ``stock`` (perhaps empty); one without a starter has
    no ``starter`` key (``romis``'s ``{"hands", "stock"}`` takes none).

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


@reads_request("bad_command")
def command_to_dict(command: pb.Command) -> dict[str, Any]:
    """A ``Command`` as the plain command ``Tables.act`` takes (no seat).

    ``romis``'s sealed commands (rules/romis.md R13.1-R13.3): ``{"kind": "reveal", "cards": [...]}``,
    with ``"companions": [...]`` only when the request names some (a new combination, R8.2);
    ``{"kind": "use_auxiliary"}``; ``{"kind": "cannot"}``.

    Raises:
        InvalidInput: no command kind is set, or a ``give``, ``lay_down`` or ``reveal`` of more
            than :data:`MAX_CARD_CODES` cards (``bad_command``).
    """
    kind = command.WhichOneof("kind")
    if kind == "play":
        out: dict[str, Any] = {"kind": "play", "card": command.play.card}
        if command.play.suit:
            out["suit"] = command.play.suit
        if command.play.announce:
            out["announce"] = True
        if command.play.belote:
            out["belote"] = True
        return out
    if kind == "bid":
        return {"kind": "bid", "points": command.bid.points, "suit": command.bid.suit}
    if kind == "vida":
        return {"kind": "vida"}
    if kind == "give":
        _check_count(len(command.give.cards), "card codes in give", "bad_command")
        return {"kind": "give", "cards": list(command.give.cards)}
    if kind == "declare":
        return {"kind": "declare"}
    if kind == "draw":
        return {"kind": "draw", "source": command.draw.source} if command.draw.source else {"kind": "draw"}
    if kind == "discard":
        return {"kind": "discard", "card": command.discard.card}
    if kind == "lay_down":
        groups = command.lay_down.groups
        _check_count(len(groups), "groups in the lay-down", "bad_command")
        _check_count(sum(len(g.cards) for g in groups), "card codes in the lay-down", "bad_command")
        lay: dict[str, Any] = {"kind": "lay_down", "groups": [cards(g) for g in groups]}
        if command.lay_down.discard:
            lay["discard"] = command.lay_down.discard
        if command.lay_down.extra:
            lay["extra"] = command.lay_down.extra
        return lay
    if kind == "reveal":
        _check_count(len(command.reveal.cards) + len(command.reveal.companions), "card codes in reveal", "bad_command")
        reveal: dict[str, Any] = {"kind": "reveal", "cards": list(command.reveal.cards)}
        if command.reveal.companions:
            reveal["companions"] = list(command.reveal.companions)
        return reveal
    if kind == "use_auxiliary":
        return {"kind": "use_auxiliary"}
    if kind == "cannot":
        return {"kind": "cannot"}
    if kind == "pass":
        return {"kind": "pass"}
    if kind == "choose_suit":
        return {"kind": "choose_suit", "suit": command.choose_suit.suit}
    if kind == "mau":
        return {"kind": "mau"}
    if kind == "leave":
        return {"kind": "leave"}
    if kind == "next_hand":
        deal = deal_to_dict(command.next_hand.deal) if command.next_hand.HasField("deal") else None
        return {"kind": "next_hand", "deal": deal}
    raise InvalidInput(
        "the command sets none of play, draw, pass, choose_suit, next_hand, mau, leave, bid, vida, give, declare, "
        "discard, lay_down, reveal, use_auxiliary, cannot",
        reason="bad_command",
    )


@reads_request("bad_deal")
def start_deal(request: pb.StartMatchRequest) -> dict[str, Any] | None:
    """The explicit first deal of a ``StartMatchRequest``, or None for a seeded deal."""
    return deal_to_dict(request.deal) if request.HasField("deal") else None


def event_to_proto(event: SeenEvent) -> pb.Event:
    """One redacted event on the wire."""
    return pb.Event(version=event.version, name=event.name, payload_json=dumps(event.payload))


def view_to_proto(version: int, view: Mapping[str, Any]) -> pb.View:
    """One view on the wire."""
    return pb.View(version=version, view_json=dumps(view))


def act_response(result: ActResult) -> pb.ActResponse:
    """The reply to ``StartMatch`` and ``Act``."""
    return pb.ActResponse(
        version=result.version,
        events=[event_to_proto(e) for e in result.events],
        view=view_to_proto(result.version, result.view),
    )


def watch_response(item: WatchItem) -> pb.WatchTableResponse:
    """One message of ``WatchTable``."""
    return pb.WatchTableResponse(event=event_to_proto(item.event), view=view_to_proto(item.event.version, item.view))


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
            pb.MatchPlayer(seat=p.seat, name=p.name, bot=p.bot, total=p.total, won=p.won, left=p.left, team=p.team)
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
    )
