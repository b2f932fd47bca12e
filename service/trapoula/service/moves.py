"""The decisions of the match's commands: its start and a seat's (or the table's ``next_hand``).

Each returns a :data:`~trapoula.service.commands.Decide` for :meth:`Commands.execute`: the game's
events for the command, then the automatic play due after it (the bots' moves and automatic
deals, up to the batch bound), as drafts.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from trapoula.domain.errors import CommandRejected, InvalidInput
from trapoula.domain.lifecycle import Role
from trapoula.domain.seeding import SEED_GIVEN
from trapoula.service.autoplay import Dealer, seat_newcomer
from trapoula.service.commands import Decide
from trapoula.service.drafts import Draft, game_drafts
from trapoula.service.errors import AlreadyStarted
from trapoula.service.principals import Principal
from trapoula.service.recording import Table, state_at
from trapoula.service.tablestate import TableState


def check_explicit_deal(state: TableState, deal: Mapping[str, Any] | None) -> None:
    """An explicit deal only at a table created for explicit deals (``manual_deal``: for tests, and
    for auditing a hand dealt at a physical table), never at an ordinary one, for the first hand and
    for every ``next_hand`` (S5.3 and each game's explicit-deal rule, ``GameSpec.explicit_deal_rule``: the rules
    owners' answer).  A seeded deal (``deal`` None) is always allowed.

    Raises:
        CommandRejected: ``explicit_deal_not_allowed`` citing the game's explicit-deal rule
            (``GameSpec.explicit_deal_rule``); the table is left as it was.
    """
    if deal is not None and not state.manual_deal:
        raise CommandRejected(
            "explicit_deal_not_allowed",
            state.spec.explicit_deal_rule,
            f"table {state.table_id} deals every hand from a seed: only a table created for explicit deals "
            "(manual_deal) accepts one",
        )


def legal_at(principal: Principal, raw: Mapping[str, Any]) -> Callable[[Table, int], bool]:
    """Whether the checked command ``raw`` of ``principal`` was legal when ``table`` stood at
    ``version``: the game's ``decide`` accepts it on the state folded to that version (a seat's
    move), or a deal was due then (``next_hand``).  For telling a command chosen from a view the
    table has moved past (``stale_view``) from one the rules refuse whatever the view."""

    def legal(table: Table, version: int) -> bool:
        then = state_at(table, version) if version >= 1 else None
        if then is None or not then.started:
            return False
        spec, game_state = then.spec, then.game_state
        if raw["kind"] == "next_hand":
            return spec.needs_deal(game_state) and not spec.is_terminal(game_state)
        try:
            spec.decide(game_state, spec.parse_command({**raw, "seat": principal.seat}))
        except (CommandRejected, InvalidInput):
            return False
        return True

    return legal


def start_match(dealer: Dealer, principal: Principal, deal: Mapping[str, Any] | None) -> Decide:
    """The decision dealing the first hand (from ``deal``, S5.3, or the seed) and the automatic play after it.

    Raises (from the decision):
        AlreadyStarted: the match has started.
        CommandRejected: an explicit deal at a table not created for one (``explicit_deal_not_allowed``,
            :func:`check_explicit_deal`), a seat is free (``seats_free``, S3.1), or the game refuses the
            deal.
        InvalidInput: ``deal`` is not a deal of the game.
    """

    def decide(table: Table) -> list[Draft]:
        state = table.state
        check_explicit_deal(state, deal)
        if state.started:
            raise AlreadyStarted(f"table {state.table_id}: the match has already started")
        if state.free_seats:
            raise CommandRejected(
                "seats_free", "S3.1", f"table {state.table_id}: seat(s) {list(state.free_seats)} are free"
            )
        spec = state.spec
        game_state = spec.initial_state(state.config())
        # the first hand's server seed committed (at creation, or now) and the bots' own seeds given
        book, seeded = dealer.seed_drafts(state, None, state.seeds, 0, state.bot_seats())
        command = dealer.deal(state, game_state, 1, deal, book)
        game_state, drafts = game_drafts(spec, game_state, command, principal.actor)
        _, ahead = dealer.seed_drafts(state, game_state, book, 1, state.bot_seats())  # hand 2's seed, ahead
        # after MatchStarted (the command's first event, which names it) and before the deal's events
        at = next((i + 1 for i, d in enumerate(drafts) if spec.role_of(d.name) is Role.MATCH_STARTED), 0)
        drafts[at:at] = seeded + ahead
        dealer.autoplay(state, game_state, drafts)
        return drafts

    return decide


def seat_command(dealer: Dealer, principal: Principal, raw: Mapping[str, Any]) -> Decide:
    """The decision of a checked command (``inputs.check_command``): a seat's move, or
    ``next_hand`` (the queued newcomers seated first, R6.9, then the deal), and the automatic play
    after it.

    Raises (from the decision):
        CommandRejected: the rules refuse it, the match has not started (``match_not_started``, S11),
            or ``next_hand`` gives an explicit deal at a table not created for one
            (``explicit_deal_not_allowed``, :func:`check_explicit_deal`).
        InvalidInput: a command the game cannot parse.
    """

    def decide(table: Table) -> list[Draft]:
        state = table.state
        check_explicit_deal(state, raw.get("deal"))
        spec = state.spec
        command_obj = None if raw["kind"] == "next_hand" else spec.parse_command({**raw, "seat": principal.seat})
        if not state.started:
            raise CommandRejected("match_not_started", "S11", f"table {state.table_id}: the match has not started")
        game_state = state.game_state
        seated: list[Draft] = []
        if command_obj is None:
            if spec.needs_deal(game_state) and not spec.is_terminal(game_state):
                for queued, who in state.waiting:  # R6.9: the queued newcomers sit down first
                    game_state, joined = seat_newcomer(spec, game_state, who, queued)
                    seated.extend(joined)
            command_obj = dealer.deal(state, game_state, state.hands_started + 1, raw.get("deal"))
        game_state, drafts = game_drafts(spec, game_state, command_obj, principal.actor)
        drafts = seated + drafts
        dealer.autoplay(state, game_state, drafts)
        return drafts

    return decide


def give_seed(principal: Principal, seed: str, hand: int, given: list[int]) -> Decide:
    """The decision recording a seat's own seed (64 lower-case hex digits, checked) for the deal of
    ``hand`` (0: the committed hand still to be dealt), as ``SeedGiven`` (:mod:`trapoula.domain.seeding`,
    docs/shuffle.md 2a); the hand it is for is put in ``given``.  The same seed given again for the
    same hand stores nothing (a retried call).

    Raises (from the decision):
        CommandRejected: a table created for explicit deals (``no_seeds``), no hand awaits a seed
            or ``hand`` is not the one that does (``seed_too_late``: it is dealt already, or the
            match is over), or the seat gave another seed for it (``seed_given``); each S5.1.
    """

    def decide(table: Table) -> list[Draft]:
        state = table.state
        tid = state.table_id
        if state.manual_deal:
            raise CommandRejected("no_seeds", "S5.1", f"table {tid} deals explicitly: it takes no players' seeds")
        pending = None if state.over else state.seeds.pending(state.hands_started)
        if pending is None or hand not in (0, pending):
            awaited = "no hand awaits a seed" if pending is None else f"hand {pending} awaits seeds"
            raise CommandRejected("seed_too_late", "S5.1", f"table {tid}: {awaited}, not hand {hand or 'next'}")
        assert principal.seat is not None
        given[:] = [pending]
        earlier = state.seeds.seed_of(principal.seat)
        if earlier == seed:
            return []
        if earlier is not None:
            raise CommandRejected(
                "seed_given", "S5.1", f"seat {principal.seat} gave its seed for hand {pending} already"
            )
        return [Draft(SEED_GIVEN, {"hand": pending, "seat": principal.seat, "seed": seed}, principal.actor)]

    return decide
