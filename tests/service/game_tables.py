"""What the gRPC tests of the games share beyond :mod:`grpc_helpers`: a table of people dealt by
hand (``manual_deal``) and played command by command with every refusal checked, a match of server
bots from seeded deals, and records tampered with as a forger would."""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import grpc
import pytest
from grpc_helpers import Auth, Meta, Stub, error_info, stored, view_of

from trapoula.api.v1 import table_pb2 as pb
from trapoula.domain.cards import codes, deck_52
from trapoula.domain.chain import chain_record
from trapoula.service.application import Tables

ALL_CODES: tuple[str, ...] = codes(deck_52())
"""The 52 codes in canonical order (2C 3C ... AS)."""
CARD = re.compile(r"(?<![0-9A-Za-z])[2-9TJQKA][CDHS](?![0-9A-Za-z])")
"""A card code standing alone in a JSON text."""

# --------------------------------------------------------------------------- a table of people, dealt by hand

Step = tuple[int, dict[str, Any], tuple[str, str] | None]
"""``(seat, command payload, (reason, rule) of the expected refusal or None)``."""
Refusal = tuple[str, str]
"""``(reason, rule)`` of a refusal."""


def events_of(reply: pb.ActResponse) -> list[tuple[str, Any]]:
    """``(name, payload)`` of the events of a reply."""
    return [(e.name, json.loads(e.payload_json)) for e in reply.events]


def rejected(call: Callable[[], Any], code: grpc.StatusCode = grpc.StatusCode.FAILED_PRECONDITION) -> Any:
    """Assert that ``call`` fails with ``code``; the failure's ``ErrorInfo``."""
    with pytest.raises(grpc.RpcError) as failed:
        call()
    assert failed.value.code() == code, (failed.value.code(), failed.value.details())
    return error_info(failed.value)


class ManualTable:
    """A table of ``game`` over gRPC with people at every seat (``names``) and ``manual_deal``: the
    owner deals every hand (S5.3), the people act command by command through the game's ``wire``
    form of a payload; each command gets a fresh command id."""

    def __init__(
        self,
        stub: Stub,
        auth: Auth,
        game: str,
        names: Sequence[str],
        wire: Callable[[Mapping[str, Any]], pb.Command],
        options: Mapping[str, Any],
        *,
        first_dealer: int | None = None,
        initial_totals: Sequence[int] = (),
    ) -> None:
        request = pb.CreateTableRequest(
            game=game, seats=len(names), options=dict(options), manual_deal=True, initial_totals=initial_totals
        )
        if first_dealer is not None:
            request.first_dealer = first_dealer
        created = stub.CreateTable(request)
        self.stub, self.table_id, self.wire = stub, created.table_id, wire
        self.owner = auth(created.owner_token)
        self.seats: list[Meta] = []
        for seat, name in enumerate(names):
            joined = stub.JoinTable(pb.JoinTableRequest(table_id=self.table_id, name=name, seat=seat))
            assert joined.seat == seat
            self.seats.append(auth(joined.seat_token))
        self.commands = 0

    def start(self, deal: pb.ExplicitDeal) -> pb.ActResponse:
        """Start the match from an explicit deal (the owner's, S5.3)."""
        return self.stub.StartMatch(
            pb.StartMatchRequest(table_id=self.table_id, command_id="start", deal=deal), metadata=self.owner
        )

    def _id(self) -> str:
        self.commands += 1
        return f"c{self.commands}"

    def next_hand(self, deal: pb.ExplicitDeal) -> pb.ActResponse:
        """The owner deals the next hand from an explicit deal."""
        command = pb.Command(next_hand=pb.NextHand(deal=deal))
        return self.stub.Act(
            pb.ActRequest(table_id=self.table_id, command_id=self._id(), command=command), metadata=self.owner
        )

    def act(self, seat: int, payload: Mapping[str, Any]) -> pb.ActResponse:
        """``Act`` for ``seat``."""
        request = pb.ActRequest(table_id=self.table_id, command_id=self._id(), command=self.wire(payload))
        return self.stub.Act(request, metadata=self.seats[seat])

    def versions(self) -> list[int]:
        """Every seat's version now, then the owner's and a spectator's: each counts the events it
        receives (a game may send an event to one seat only), so together they see any event recorded."""
        return [view_of(self.stub, self.table_id, who)[0] for who in (*self.seats, self.owner, ())]

    def version(self) -> int:
        """A spectator's version now."""
        return view_of(self.stub, self.table_id)[0]

    def refused(self, call: Callable[[], Any], refusal: Refusal, what: Any = None) -> None:
        """``call`` is refused (``FAILED_PRECONDITION``) with ``refusal``, its message ending with it,
        and records nothing (section 8 of every game)."""
        before = self.versions()
        with pytest.raises(grpc.RpcError) as failed:
            call()
        info = error_info(failed.value)
        assert failed.value.code() == grpc.StatusCode.FAILED_PRECONDITION, (what, info.reason)
        assert (info.reason, info.metadata["rule"]) == refusal, what
        assert f"[{refusal[0]}, {refusal[1]}]" in (failed.value.details() or ""), what
        assert self.versions() == before, what

    def refused_deal(self, deal: pb.ExplicitDeal, refusal: Refusal) -> None:
        """The owner's ``next_hand`` is refused with ``refusal`` and records nothing."""
        self.refused(lambda: self.next_hand(deal), refusal, deal)

    def run(self, steps: Sequence[Step]) -> list[tuple[str, Any]]:
        """Play ``steps``: each accepted command's events are returned (name, payload as its seat saw
        them); each refusal is checked by :meth:`refused`."""
        seen: list[tuple[str, Any]] = []
        for seat, payload, refusal in steps:
            if refusal is None:
                seen.extend(events_of(self.act(seat, payload)))
            else:
                self.refused(lambda: self.act(seat, payload), refusal, (seat, payload))  # noqa: B023
        return seen

    def malformed(self, cases: Sequence[tuple[dict[str, Any], str]], seat: int = 0) -> None:
        """Each payload of ``cases`` from ``seat`` is ``INVALID_ARGUMENT`` with its reason, and none
        records anything."""
        before = self.versions()
        for payload, reason in cases:
            info = rejected(lambda: self.act(seat, payload), grpc.StatusCode.INVALID_ARGUMENT)  # noqa: B023
            assert info.reason == reason, payload
        assert self.versions() == before

    def bad_deals(self, deals: Sequence[pb.ExplicitDeal], good: pb.ExplicitDeal, rule: str = "") -> None:
        """Each of ``deals`` is ``INVALID_ARGUMENT`` (``bad_deal``, its message naming ``rule`` when
        given); ``good`` from a seat is ``PERMISSION_DENIED`` (an explicit deal is the owner's)."""
        for deal in deals:
            with pytest.raises(grpc.RpcError) as refused:
                self.start(deal)
            assert refused.value.code() == grpc.StatusCode.INVALID_ARGUMENT, deal
            assert error_info(refused.value).reason == "bad_deal", deal
            assert rule in (refused.value.details() or ""), refused.value.details()
        request = pb.StartMatchRequest(table_id=self.table_id, command_id="s", deal=good)
        rejected(lambda: self.stub.StartMatch(request, metadata=self.seats[0]), grpc.StatusCode.PERMISSION_DENIED)


# --------------------------------------------------------------------------- records


def tamper(record: str, name: str, change: Callable[[dict[str, Any]], None], rehash: bool, nth: int = 0) -> str:
    """``record`` with ``change`` applied to the payload of the ``nth`` event called ``name``; with
    ``rehash`` the hash chain is recomputed (a forger who knows the format, docs/record.md)."""
    lines = [json.loads(line) for line in record.splitlines()]
    target = [line for line in lines[1:] if line["name"] == name][nth]
    change(target["payload"])
    if rehash:
        lines = chain_record(lines[0]["table_id"], lines[0]["game"], [(x["name"], x["payload"]) for x in lines[1:]])
    return "".join(json.dumps(line, separators=(",", ":")) + "\n" for line in lines)


def zero_salt(payload: dict[str, Any]) -> None:
    """A revealed seed's salt made all zeros (the commitment no longer matches, R3.2)."""
    payload["salt"] = "00" * 32


def refused_table(stub: Stub, request: pb.CreateTableRequest, reason: str) -> None:
    """``CreateTable`` of ``request`` is ``INVALID_ARGUMENT`` with ``reason``."""
    info = rejected(lambda: stub.CreateTable(request), grpc.StatusCode.INVALID_ARGUMENT)
    assert info.reason == reason, request


TableCase = tuple[int, dict[str, Any], tuple[int, ...], int | None, str]
"""``(seats, options, initial totals, first dealer or None, reason)`` of a refused ``CreateTable``."""


def checks_tables(stub: Stub, game: str, refused: Sequence[TableCase], accepted: Sequence[int] = ()) -> None:
    """``CreateTable`` of ``game``: each of ``refused`` is ``INVALID_ARGUMENT`` with its reason, and a
    table of each number of seats in ``accepted`` is created."""
    for seats, options, totals, dealer, reason in refused:
        request = pb.CreateTableRequest(game=game, seats=seats, options=options, initial_totals=totals)
        if dealer is not None:
            request.first_dealer = dealer
        refused_table(stub, request, reason)
    for seats in accepted:
        assert stub.CreateTable(pb.CreateTableRequest(game=game, seats=seats)).table_id


def listed_game(stub: Stub, key: str) -> tuple[tuple[str, int, int, bool], list[str], dict[str, Any]]:
    """What ``ListGames`` says of game ``key``: ``((title, min_players, max_players, seat_changes),
    bot levels, the game's own option defaults)``; the platform's time control, listed among every
    game's options, is checked here and left out (docs/clock.md C1)."""
    game = {g.key: g for g in stub.ListGames(pb.ListGamesRequest()).games}[key]
    options = json.loads(game.options_json)
    assert options.pop("clock") == {"move_seconds": 0, "bank_seconds": 0, "policy": "heuristic"}
    return (
        (game.title, game.min_players, game.max_players, game.seat_changes),
        list(game.bot_levels),
        options,
    )


def other_salt(payload: dict[str, Any]) -> None:
    """A revealed seed's salt with its first digit changed (the commitment no longer matches, R3.2)."""
    payload["salt"] = ("0" if payload["salt"][0] != "0" else "1") + payload["salt"][1:]


@dataclass
class BotMatch:
    """A match of server bots from seeded deals, played to its end: the spectator's final view, the
    stored events and the record."""

    table_id: str
    view: dict[str, Any]
    log: list[tuple[int, str, dict[str, Any]]]
    record: str


def bot_match(stub: Stub, tables: Tables, game: str, options: Mapping[str, Any], levels: Sequence[str]) -> BotMatch:
    """A table of ``game`` with a bot of each of ``levels``, started by its owner and played to its
    end by the bots (the view says the match is over); its record fetched."""
    created = stub.CreateTable(pb.CreateTableRequest(game=game, seats=len(levels), options=dict(options)))
    owner = (("authorization", f"Bearer {created.owner_token}"),)
    for level in levels:
        stub.AddBot(pb.AddBotRequest(table_id=created.table_id, level=level), metadata=owner)
    stub.StartMatch(pb.StartMatchRequest(table_id=created.table_id, command_id="s"), metadata=owner)
    assert tables.settle(150)
    _, view = view_of(stub, created.table_id)
    assert view["match_over"], view
    record = stub.GetRecord(pb.GetRecordRequest(table_id=created.table_id)).jsonl
    return BotMatch(created.table_id, view, stored(tables, created.table_id), record)
