"""Creating tables and taking seats: the checks and the facts they store.

``TableCreated`` holds the game, seats and options (checked here against the game, so that no
later hand can fail on them) and the hash of the owner's token; ``SeatTaken`` a person's name and
token hash or a bot's level.  In a game whose players may join during the match (``GameSpec.seat_changes``
R6.9) a newcomer is seated between hands, or queued (``JoinQueued``) during one.
"""

from __future__ import annotations

import json
import uuid
from collections.abc import Mapping, Sequence
from typing import Any

from eventsourcing.utils import get_topic

from trapoula.domain import bots
from trapoula.domain.chain import GENESIS, event_hash
from trapoula.domain.clock import CLOCK_OPTION, parse_time_control
from trapoula.domain.errors import CommandRejected, InvalidInput
from trapoula.domain.game import MatchConfig, SeatInfo
from trapoula.domain.registry import find_game
from trapoula.service.autoplay import Dealer, seat_newcomer
from trapoula.service.commands import Decide
from trapoula.service.drafts import Draft
from trapoula.service.entries import JOIN_QUEUED, SEAT_TAKEN, TABLE_CREATED
from trapoula.service.errors import AlreadyStarted, ErrorContext, PermissionDenied, SeatTaken, clip
from trapoula.service.inputs import check_int, check_key
from trapoula.service.principals import Principal, invited, principal_of, token_hash
from trapoula.service.recording import Table
from trapoula.service.tablestate import SeatRecord, TableState, created_payload


def new_table(
    game: str,
    seats: int,
    options: Mapping[str, Any] | None,
    first_dealer: int | None,
    initial_totals: Sequence[int] | None,
    manual_deal: bool,
    owner_token: str,
    table_id: uuid.UUID | None = None,
    private: bool = False,
) -> tuple[Table.Created, dict[int, str]]:
    """The ``TableCreated`` event of a new table (``table_id``, else a fresh id; version 1) and the
    computer seats its options fix (``GameSpec.preset_bots``: seat -> level).  A ``private`` table
    is not listed and is joined with its invitation code (:func:`~trapoula.service.principals.invitation_code`).

    The whole configuration is checked now: later hands must never fail on it.

    Raises:
        InvalidInput: unknown game (``unknown_game``), a seat count outside the game's range
            (``bad_seats``), a bad option or time control (``bad_option``, docs/clock.md C1), a
            first dealer or totals that do not fit (``bad_config``).
    """
    spec = find_game(check_key(game, "game", "unknown_game"))
    seats = check_int(seats, "seats", "bad_seats")
    if not spec.min_players <= seats <= spec.max_players:
        low, high = spec.min_players, spec.max_players
        allowed = f"{low}" if low == high else f"{low} to {high}"
        raise InvalidInput(f"{game} takes {allowed} seats, not {seats}", reason="bad_seats")
    if options is None:
        options = {}
    if not isinstance(options, Mapping):
        raise InvalidInput(f"options {clip(options)!r} is not a mapping", reason="bad_option")
    for key in options:
        check_key(key, "option", "bad_option")
    options = dict(options)  # the time control is the platform's option, not the game's (docs/clock.md C1)
    clock = parse_time_control(game, options.pop(CLOCK_OPTION, None), bots.levels(game), spec.seat_changes)
    if first_dealer is not None:
        check_int(first_dealer, "first_dealer", "bad_config")
    totals = tuple(check_int(t, "initial total", "bad_config") for t in initial_totals or ()) or None
    spec.initial_state(
        MatchConfig(game, tuple(SeatInfo(i, f"seat {i}") for i in range(seats)), dict(options), first_dealer, totals)
    )
    preset = dict(spec.preset_bots(spec.parse_options(options)))
    outside = sorted(s for s in preset if not 0 <= s < seats)
    if outside:
        raise InvalidInput(f"computer seat(s) {outside} are not seats 0..{seats - 1} of the table", "bad_option")
    payload = created_payload(game, seats, options, first_dealer, totals, bool(manual_deal), bool(private), clock)
    try:
        json.dumps(payload, allow_nan=False)
    except (TypeError, ValueError):
        raise InvalidInput(f"options {clip(options)!r} are not plain JSON data", reason="bad_option") from None
    created = Table.Created(  # type: ignore[call-arg]
        originator_topic=get_topic(Table),
        originator_id=table_id or uuid.uuid4(),
        originator_version=1,
        timestamp=Table.Created.create_timestamp(),
        name=TABLE_CREATED,
        payload=payload,
        prev_hash=GENESIS,
        hash=event_hash(GENESIS, 1, TABLE_CREATED, payload),
        command_id=None,
        actor="owner",
        owner_token_hash=token_hash(owner_token),
    )
    return created, preset


def open_table(dealer: Dealer, preset: Mapping[int, str]) -> Decide:
    """The decision opening a new table: the computer players an option fixes (seat -> level), in
    those of their seats still free (all of them, but on a retried creation), then, at a table that
    deals from seeds, the commitment to the first hand's server seed and the bots' own seeds
    (:mod:`trapoula.domain.seeding`: the seats may give theirs from now on).  Stores nothing when
    all of it is there (a retried creation)."""

    def decide(table: Table) -> list[Draft]:
        state = table.state
        seats = state.seats
        drafts = [
            Draft(SEAT_TAKEN, {"seat": s, "name": f"{lv} bot {s}", "bot": lv, "token_hash": None}, "table")
            for s, lv in sorted(preset.items())
            if seats[s] is None
        ]
        bot_seats = sorted({*state.bot_seats(), *((d.payload["seat"], d.payload["bot"]) for d in drafts)})
        if not state.started:
            drafts.extend(dealer.seed_drafts(state, None, state.seeds, 0, bot_seats)[1])
        return drafts

    return decide


def take_seat(
    seat: int | None,
    name: str | None,
    bot: str | None,
    token: str | None,
    chosen: list[int],
    player_id: str | None = None,
) -> Decide:
    """The decision seating a person (``name``, ``token``; ``player_id`` when verified,
    docs/identity.md) or a bot (``bot``, a level; ``name`` optional) in ``seat`` or the first free
    one; the seat taken is put in ``chosen`` (-1: queued).  A person whose ``token`` already holds a
    seat at the table (or waits for one) is not seated again: the decision stores nothing and
    ``chosen`` is that seat (a retried join).

    Raises (from the decision):
        PermissionDenied: a retried join whose seat belongs to another verified player
            (``identity_mismatch``).
        InvalidInput: a seat out of range (``bad_seat``).
        SeatTaken: the seat is taken or none is free (``table_full``).
        AlreadyStarted, CommandRejected: as :func:`newcomer`.
    """

    def decide(table: Table) -> list[Draft]:
        state = table.state
        table_id = state.table_id
        if token is not None:
            earlier = principal_of(state, token)  # a retried join (its request id made the same token)
            if earlier is not None and earlier.kind in ("seat", "waiting"):
                held = _record_of(state, token)
                if held is not None and held.player_id != player_id:
                    raise PermissionDenied(
                        f"table {table_id}: this request id took a seat for another player", reason="identity_mismatch"
                    )
                chosen[:] = [earlier.seat if earlier.seat is not None else -1]
                return []
        if seat is not None:
            check_int(seat, "seat", "bad_seat")
        if state.started:
            who = SeatRecord(name or f"{bot} bot", bot, token_hash(token) if token is not None else None, 0, player_id)
            return newcomer(state, who, seat, chosen)
        if seat is not None:
            if not 0 <= seat < len(state.seats):
                raise InvalidInput(
                    f"seat {seat} is not a seat of table {table_id} (0..{len(state.seats) - 1})", reason="bad_seat"
                )
            if state.seats[seat] is not None:
                raise SeatTaken(f"seat {seat} of table {table_id} is taken")
            target = seat
        else:
            if not state.free_seats:
                raise SeatTaken(f"table {table_id} has no free seat", reason="table_full")
            target = state.free_seats[0]
        chosen[:] = [target]
        payload = {
            "seat": target,
            "name": name if name is not None else f"{bot} bot {target}",
            "bot": bot,
            "token_hash": token_hash(token) if token is not None else None,
        }
        if player_id is not None:
            payload["player_id"] = player_id
        return [Draft(SEAT_TAKEN, payload, "table" if bot is not None else f"seat:{target}")]

    return decide


def newcomer(state: TableState, who: SeatRecord, seat: int | None, chosen: list[int]) -> list[Draft]:
    """A player joining a started match (``GameSpec.seat_changes``): seated at once between hands,
    queued (``JoinQueued``, seat -1) during a hand.

    Raises:
        AlreadyStarted: the game takes no newcomers once the match has started.
        SeatTaken: every seat is taken or promised to a queued newcomer (``table_full``).
        InvalidInput: a wanted seat other than the one the rules give (``bad_seat``, R6.9.2).
        CommandRejected: the rules refuse the join (``match_over`` ...).
    """
    spec = state.spec
    tid = state.table_id
    if not spec.seat_changes:
        raise AlreadyStarted(f"table {tid}: the match has started; no seat can be taken")
    if spec.is_terminal(state.game_state):
        raise CommandRejected("match_over", "R6.9", f"table {tid}: the match is over; nobody can join")
    if seat is not None and 0 <= seat < len(state.seats) and state.seats[seat] is not None:
        raise SeatTaken(f"seat {seat} of table {tid} is taken")
    seated = sum(s is not None for s in state.seats)
    if seated + len(state.waiting) >= spec.max_players:
        raise SeatTaken(
            f"table {tid} has no free seat: {seated} seated, {len(state.waiting)} waiting, {spec.max_players} at most",
            reason="table_full",
        )
    if spec.hand_in_progress(state.game_state) or state.waiting:
        if seat is not None:
            raise InvalidInput(
                f"seat {seat}: a newcomer takes the lowest vacant seat when the hand ends (R6.9.2)", "bad_seat"
            )
        chosen[:] = [-1]
        payload = {"name": who.name, "bot": who.bot, "token_hash": who.token_hash}
        if who.player_id is not None:
            payload["player_id"] = who.player_id
        return [Draft(JOIN_QUEUED, payload, "table")]
    _, drafts = seat_newcomer(spec, state.game_state, who, None, seat)
    chosen[:] = [int(drafts[-1].payload["seat"])]
    return drafts


def _record_of(state: TableState, token: str) -> SeatRecord | None:
    """The seat record (seated or queued) whose token is ``token``, if any."""
    h = token_hash(token)
    for record in (*state.seats, *(who for _, who in state.waiting)):
        if record is not None and record.token_hash == h:
            return record
    return None


def by_invitation(code: str | None, decide: Decide) -> Decide:
    """``decide`` at a public table, or at a private one given its invitation code (``code``,
    :func:`~trapoula.service.principals.invitation_code`).

    Raises (from the decision):
        PermissionDenied: a private table and no code or a wrong one (``bad_invitation``).
    """

    def checked(table: Table) -> list[Draft]:
        if not invited(table.state, code):
            raise PermissionDenied(
                f"table {table.state.table_id} is private: joining it needs its invitation code",
                reason="bad_invitation",
                context=ErrorContext(table.state.table_id),
            )
        return decide(table)

    return checked


def owner_only(table_id: str, principal: Principal, what: str) -> None:
    """Refuse anybody but the table's owner (the owner token) doing ``what`` (``adds bots to``).

    Raises:
        PermissionDenied: a seat, a spectator or a former seat (``owner_only``).
    """
    if principal.kind != "owner":
        raise PermissionDenied(
            f"only the owner of table {table_id} {what} it (send the owner token)",
            reason="owner_only",
            context=ErrorContext(table_id),
        )
