"""The service's contract with every registered game (``contract_games.KEYS``), over gRPC with the
generated stubs and the generic command form of ``trapoula.clients.table.command_message``:

* a match: a table is created, people take every seat but the last, a bot the last, the owner
  starts it, and the people play to the end of the match from their views' legal moves;
* its lifecycle (lifecycle.py): the match starts once, every hand started is scored and revealed,
  the match ends once, last, with a ranking of every seat; the replayed record ends in a terminal
  state; the result reaches the match history and the standings;
* its record: fetched with ``GetRecord``, ``trapoula verify`` passes, ``trapoula replay`` reads it;
* bad input: an out-of-turn move, a move the rules refuse, a malformed command, a wrong token and
  an unknown table each get their status and reason and record nothing; a command id used again
  returns the first reply and records nothing.

A game's own hand-worked checks stay in its own test files."""

from __future__ import annotations

import io
import json
import random
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import grpc
import jsonschema
import pytest
from contract_games import KEYS, Served, seats, short_options
from grpc_helpers import Meta, error_info, stored, verify, view_of

from trapoula.api.v1 import table_pb2 as pb
from trapoula.clients.cli import main
from trapoula.clients.replay import Replay
from trapoula.clients.table import TableClient, command_message
from trapoula.domain.audit import TABLE_EVENTS
from trapoula.domain.cards import codes, deck_52
from trapoula.domain.lifecycle import MATCH_STARTED, HandReveal, HandScore, HandStart, MatchResult, Role
from trapoula.domain.registry import GAMES

pytestmark = pytest.mark.timeout(300)

MOVES = 5000
"""The most moves the people of one match make (a short match needs far fewer)."""


def staying(legal: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The moves of ``legal`` that keep the player in the match: the contract's players do not leave
    (a game with seat changes offers ``leave`` at every turn, mau_mau R6.10)."""
    return [p for p in legal if p["kind"] != "leave"] or legal


def bearer(token: str) -> Meta:
    """Call metadata carrying ``token``."""
    return (("authorization", f"Bearer {token}"),)


@dataclass
class Table:
    """A table with people at seats ``0..len(seats)-1``; ``names`` every seat's display name."""

    served: Served
    key: str
    table_id: str
    owner: Meta
    seats: list[Meta]
    names: list[str]

    def act(self, seat: int, payload: dict[str, Any], command_id: str) -> pb.ActResponse:
        """``Act`` for ``seat`` with ``payload`` in its generic wire form."""
        request = pb.ActRequest(table_id=self.table_id, command_id=command_id, command=command_message(payload))
        return self.served.stub.Act(request, metadata=self.seats[seat])

    def view(self, seat: int | None) -> dict[str, Any]:
        """The view of ``seat`` (None: a spectator)."""
        return view_of(self.served.stub, self.table_id, () if seat is None else self.seats[seat])[1]

    def recorded(self) -> int:
        """How many events the table has recorded (every seat's private ones included)."""
        return len(stored(self.served.tables, self.table_id))

    def refused(self, call: Callable[[], Any], code: grpc.StatusCode) -> Any:
        """Assert that ``call`` fails with ``code`` and records nothing; the ``ErrorInfo``."""
        before = self.recorded()
        with pytest.raises(grpc.RpcError) as failed:
            call()
        assert failed.value.code() == code, (failed.value.code(), failed.value.details())
        assert self.recorded() == before
        return error_info(failed.value)


def open_table(served: Served, key: str, *, bots: int) -> Table:
    """A started table of ``key`` with short options: people at the first seats, ``bots`` bots after."""
    n = seats(GAMES[key])
    stub = served.stub
    created = stub.CreateTable(pb.CreateTableRequest(game=key, seats=n, options=short_options(key)))
    metas: list[Meta] = []
    for seat in range(n - bots):
        joined = stub.JoinTable(pb.JoinTableRequest(table_id=created.table_id, name=f"p{seat}", seat=seat))
        assert joined.seat == seat
        metas.append(bearer(joined.seat_token))
    owner = bearer(created.owner_token)
    for seat in range(n - bots, n):
        stub.AddBot(pb.AddBotRequest(table_id=created.table_id, level="heuristic", seat=seat), metadata=owner)
    stub.StartMatch(pb.StartMatchRequest(table_id=created.table_id, command_id="start"), metadata=owner)
    taken = {p["seat"]: p["name"] for _, name, p in stored(served.tables, created.table_id) if name == "SeatTaken"}
    names = [taken[seat] for seat in range(n)]
    assert names[: n - bots] == [f"p{seat}" for seat in range(n - bots)]
    return Table(served, key, created.table_id, owner, metas, names)


def over(view: dict[str, Any]) -> bool:
    """The match of ``view`` is over."""
    return bool(view["table"]["status"] == "over")


def play_to_the_end(table: Table, rng: random.Random) -> int:
    """The people play moves picked from their views' legal moves, the server's bots theirs, until the
    match is over; the number of moves the people made."""
    moves = 0
    while moves < MOVES:
        moved = False
        for seat in range(len(table.seats)):
            view = table.view(seat)
            if view["legal"]:
                table.act(seat, rng.choice(staying(view["legal"])), f"m{moves}")
                moves, moved = moves + 1, True
        if not moved:
            assert table.served.tables.settle(60)
            if over(table.view(None)):
                return moves
            if not any(table.view(seat)["legal"] for seat in range(len(table.seats))):
                time.sleep(0.05)  # the bots' next command is on its way
    raise AssertionError(f"{table.key}: no end after {moves} moves")


@dataclass
class Finished:
    """A match played to its end: its table, the people's moves, its record and the record's facts."""

    table: Table
    moves: int
    record: str
    facts: list[tuple[Role, Any]]
    """``(role, fact)`` of every event of the record with a platform role, in order."""
    replay: Replay


@pytest.fixture(scope="module", params=KEYS)
def finished(request: pytest.FixtureRequest, served: Served) -> Finished:
    """One match of each game, played once for the module's tests."""
    key: str = request.param
    table = open_table(served, key, bots=1)
    moves = play_to_the_end(table, random.Random(7))
    record = served.stub.GetRecord(pb.GetRecordRequest(table_id=table.table_id)).jsonl
    replay = Replay.from_text(record)
    spec = GAMES[key]
    facts = []
    for position in range(1, replay.length + 1):
        event = replay.step(position).event
        role = spec.role_of(event.event_name())
        if role is not None:
            facts.append((role, spec.fact(event)))
    return Finished(table, moves, record, facts, replay)


def test_people_and_a_bot_play_a_match_to_its_end_from_the_views_legal_moves(finished: Finished) -> None:
    """Every seat's view and the spectator's say the match is over, with nothing left to do; the
    people made moves."""
    table = finished.table
    assert finished.moves > 0
    for seat in [*range(len(table.seats)), None]:
        view = table.view(seat)
        assert over(view), (seat, view["table"])
        assert view["legal"] == [], seat


def test_the_lifecycle_facts_start_score_reveal_and_end_the_match(finished: Finished) -> None:
    """lifecycle.py: ``match_started`` first and once; each hand's ``hand_started`` (with its
    commitment, the deal seeded) is followed by its ``hand_scored`` and ``hand_revealed`` (the secret
    shown); ``match_ended`` once and last, ranking every seat with the winners (if any) first; the replay of
    the record ends in a terminal state."""
    names = [json.loads(line)["name"] for line in finished.record.splitlines()[1:]]
    assert names.count(MATCH_STARTED) == 1
    game_events = [name for name in names[names.index(MATCH_STARTED) :] if name not in TABLE_EVENTS]
    assert len(game_events) == finished.replay.length  # the replay starts with it; table events are not positions
    roles = [role for role, _ in finished.facts]
    n = len(finished.table.names)
    assert roles[0] == Role.MATCH_STARTED and roles.count(Role.MATCH_STARTED) == 1
    assert roles[-1] == Role.MATCH_ENDED and roles.count(Role.MATCH_ENDED) == 1
    hands = [fact for role, fact in finished.facts if role == Role.HAND_STARTED]
    assert len(hands) >= 1 and [h.hand_no for h in hands] == list(range(1, len(hands) + 1))
    assert all(isinstance(h, HandStart) and not h.explicit_deal and len(h.commitment) == 64 for h in hands)
    scored = [fact for role, fact in finished.facts if role == Role.HAND_SCORED]
    revealed = [fact for role, fact in finished.facts if role == Role.HAND_REVEALED]
    assert len(scored) == len(revealed) == len(hands)
    assert all(isinstance(s, HandScore) for s in scored)
    assert all(isinstance(r, HandReveal) and r.secret for r in revealed)
    result = finished.facts[-1][1]
    assert isinstance(result, MatchResult)
    spec = GAMES[finished.table.key]
    assert sorted(result.ranking) == list(range(n))
    if spec.teams:  # a team game's result is the teams' (R2.3 of vida)
        assert len(result.team_scores) == len(spec.teams) and result.winner_team is not None
        assert set(result.winners) == set(spec.teams[result.winner_team])
    else:
        assert len(result.totals) == n
    assert set(result.ranking[: len(result.winners)]) == set(result.winners)  # none on a tie, where a game has one
    assert spec.is_terminal(finished.replay.state(finished.replay.length))


def test_the_result_reaches_the_history_and_the_standings(finished: Finished) -> None:
    """The projection reads the ``match_ended`` fact: the match is in the history with its winners,
    and each player's standing in the game, the bot's too, counts it played once, and won by the
    winners only."""
    table = finished.table
    result = finished.facts[-1][1]
    with TableClient(table.served.address) as client:
        deadline = time.monotonic() + 30
        while True:
            found = [m for m in client.matches(game=table.key).items if m.table_id == table.table_id]
            if found or time.monotonic() > deadline:
                break
            time.sleep(0.05)
        assert len(found) == 1, table.table_id
        assert set(found[0].winner_seats) == set(result.winners)
        for seat, name in enumerate(table.names):
            standing = [s for s in client.standings(game=table.key, player=name).items if s.player == name]
            assert len(standing) == 1, (name, standing)
            # the module's one finished match of the game: each name, a person's or the bot's, played it once
            assert (standing[0].played, standing[0].won) == (1, int(seat in result.winners)), name


def test_the_record_verifies_and_replays(finished: Finished, tmp_path: Path) -> None:
    """``GetRecord`` holds every recorded event: ``trapoula verify`` passes (the hash chain, the
    commitments, every command re-decided); ``trapoula replay`` steps through every position to the
    end of the match."""
    code, out = verify(finished.record, tmp_path / "record.jsonl")
    assert code == 0 and "record verified" in out, out
    header = json.loads(finished.record.splitlines()[0])
    assert (header["table_id"], header["game"]) == (finished.table.table_id, finished.table.key)
    assert len(finished.record.splitlines()) - 1 == finished.table.recorded()  # every event, private ones too
    shown = io.StringIO()
    assert main(["replay", str(tmp_path / "record.jsonl")], out=shown, inp=io.StringIO()) == 0
    text = shown.getvalue()
    assert f"[{finished.replay.length}/{finished.replay.length}]" in text, text[-2000:]


# --------------------------------------------------------------------------- bad input


def _acting(table: Table) -> tuple[int, list[dict[str, Any]]]:
    """A seat with legal moves that keep it in the match, and those moves (a seat that may only
    leave, mau_mau R6.10, is not one: its leaving could end a two-player match)."""
    for seat in range(len(table.seats)):
        legal = [p for p in table.view(seat)["legal"] if p["kind"] != "leave"]
        if legal:
            return seat, legal
    raise AssertionError("nobody may move")


def _out_of_turn(table: Table, rng: random.Random) -> tuple[int, dict[str, Any]]:
    """A seat, and a move another seat may make now but it may not (the fewest fields first); the
    match is played on while every seat may make the same moves (in romis every live seat reveals
    in the same round, R4.1, and a deal can leave them the same choice)."""

    def own(payload: dict[str, Any]) -> dict[str, Any]:
        return {k: v for k, v in payload.items() if k != "seat"}

    for moves in range(50):
        legal = [[own(p) for p in table.view(seat)["legal"]] for seat in range(len(table.seats))]
        for seat, mine in enumerate(legal):
            for other, theirs in enumerate(legal):
                move = next((p for p in sorted(theirs, key=len) if p not in mine), None)
                if other != seat and move is not None:
                    return seat, move
        seat, choices = _acting(table)
        table.act(seat, rng.choice(choices), f"alike{moves}")
    raise AssertionError("every seat may make the same moves")


def _with_card_not_held(table: Table, rng: random.Random) -> tuple[int, dict[str, Any]]:
    """Play on until a seat may move a card; that move with a card the seat does not hold."""
    for moves in range(200):
        for seat in range(len(table.seats)):
            view = table.view(seat)
            payload = next((p for p in view["legal"] if "card" in p or "cards" in p), None)
            if payload is not None:
                other = next(c for c in codes(deck_52()) if c not in view["hand"])
                if "card" in payload:
                    return seat, {**payload, "card": other}
                return seat, {**payload, "cards": [other, *payload["cards"][1:]]}
        seat, legal = _acting(table)
        table.act(seat, rng.choice(legal), f"on{moves}")
    raise AssertionError("no move of a card")


@pytest.mark.parametrize("key", KEYS)
def test_bad_input_gets_its_error_and_records_nothing(served: Served, key: str) -> None:
    """An out-of-turn move and a move of a card not held are refused by the rules
    (``FAILED_PRECONDITION`` with the rule); a command of no known kind is ``INVALID_ARGUMENT``; a
    wrong token ``PERMISSION_DENIED`` (``bad_token``); an unknown table ``NOT_FOUND``; none records
    anything.  A command id used again returns the first reply and records nothing."""
    table = open_table(served, key, bots=0)
    rng = random.Random(3)
    seat, legal = _acting(table)
    first = table.act(seat, legal[0], "once")
    before = table.recorded()
    repeated = table.act(seat, {"kind": "no_such_command"}, "once")
    assert [(e.name, e.payload_json) for e in repeated.events] == [(e.name, e.payload_json) for e in first.events]
    assert table.recorded() == before

    waiting, move = _out_of_turn(table, rng)
    info = table.refused(lambda: table.act(waiting, move, "early"), grpc.StatusCode.FAILED_PRECONDITION)
    assert info.reason and info.metadata["rule"], info

    seat, move = _with_card_not_held(table, rng)
    info = table.refused(lambda: table.act(seat, move, "not-held"), grpc.StatusCode.FAILED_PRECONDITION)
    assert info.reason and info.metadata["rule"], (move, info)

    info = table.refused(lambda: table.act(seat, {"kind": "no_such_command"}, "bad"), grpc.StatusCode.INVALID_ARGUMENT)
    assert info.reason == "bad_command"

    stub = served.stub
    request = pb.ActRequest(table_id=table.table_id, command_id="x", command=command_message(legal[0]))
    info = table.refused(lambda: stub.Act(request, metadata=bearer("not-a-token")), grpc.StatusCode.PERMISSION_DENIED)
    assert info.reason == "bad_token"

    unknown = table.table_id[:-1] + ("0" if table.table_id[-1] != "0" else "1")
    request = pb.ActRequest(table_id=unknown, command_id="y", command=command_message(legal[0]))
    info = table.refused(lambda: stub.Act(request, metadata=table.seats[seat]), grpc.StatusCode.NOT_FOUND)
    assert info.reason == "table_not_found"
    with pytest.raises(grpc.RpcError) as failed:
        stub.GetView(pb.GetViewRequest(table_id=unknown))
    assert failed.value.code() == grpc.StatusCode.NOT_FOUND


def test_the_suite_runs_over_every_registered_game_top_card_included() -> None:
    """The games come from the registry, so a plug-in game is in the suite as soon as it is installed."""
    assert set(KEYS) == set(GAMES) and "top_card" in KEYS
    assert {"agonia", "crazy_eights", "giminaiciai", "mau_mau", "romis", "vida"} <= set(KEYS)


def test_every_message_sent_holds_to_the_served_schema(finished: Finished) -> None:
    """GetGameSchema (issue: a contract every language can type): every event and view a seat and a
    spectator were streamed, from the table's creation to the match's end, and every entry of every
    ``legal`` list, validate against the schema the server serves for the game."""
    table = finished.table
    stub = table.served.stub
    doc = json.loads(stub.GetGameSchema(pb.GetGameSchemaRequest(game=table.key)).schema_json)
    defs = doc["$defs"]

    def validator(definition: str) -> jsonschema.Draft202012Validator:
        return jsonschema.Draft202012Validator({"$ref": f"#/$defs/{definition}", "$defs": defs})

    events = {name: validator(f"event.{name}") for name in doc["properties"]["events"]["properties"]}
    events.update({name: validator(f"table_event.{name}") for name in doc["properties"]["table_events"]["properties"]})
    command = validator("command")
    views = {"seat": validator("seat_view"), "spectator": validator("spectator_view")}
    for metadata in (table.seats[0], ()):
        messages = list(stub.WatchTable(pb.WatchTableRequest(table_id=table.table_id), metadata=metadata, timeout=60))
        assert messages and json.loads(messages[-1].view.view_json)["table"]["status"] == "over"
        for message in messages:
            name, payload = message.event.name, json.loads(message.event.payload_json)
            assert name in events, name
            events[name].validate(payload)
            view = json.loads(message.view.view_json)  # a seat that left sees as a spectator (mau_mau R6.10)
            views["seat" if view["table"]["viewer"] == "seat" else "spectator"].validate(view)
            for entry in view.get("legal", ()):
                command.validate(entry)
