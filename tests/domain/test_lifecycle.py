"""The lifecycle contract (trapoula.domain.lifecycle) and the match driver (trapoula.domain.match),
over every registered game: the platform reads a game only through these."""

from __future__ import annotations

import random
from typing import Any

import pytest

from trapoula.domain.errors import CommandRejected
from trapoula.domain.events import Event
from trapoula.domain.game import GameSpec, MatchConfig, SeatInfo
from trapoula.domain.lifecycle import (
    MATCH_STARTED,
    HandReveal,
    HandScore,
    HandStart,
    MatchResult,
    Role,
    SeatJoined,
    SeatVacated,
    ranking,
)
from trapoula.domain.match import TABLE, Match
from trapoula.domain.registry import GAMES

GAME_KEYS = sorted(GAMES)


def seed_of(hand: int) -> str:
    """A fixed seed per hand number (64 hex digits)."""
    return f"{hand:064x}"


def play(key: str, rng_seed: int = 3) -> tuple[Match[Any, Any], list[Event]]:
    """A match of ``key`` between four random bots, played to its end through the driver."""
    spec = GAMES[key]
    short = {"giminaiciai": {"target_score": 50}}.get(key, {})  # a shorter match (R9.1), the same flow
    config = MatchConfig(key, tuple(SeatInfo(i, f"p{i}", "random") for i in range(4)), short)
    match: Match[Any, Any] = Match.start(spec, config)
    rng = random.Random(rng_seed)
    bots = {i: "random" for i in range(4)}
    log: list[Event] = []
    for _ in range(200_000):
        move = match.next_move(bots, seed_of, lambda: rng)
        if move is None:
            break
        match, events = match.apply(move.command)
        log.extend(events)
    return match, log


@pytest.mark.parametrize("key", GAME_KEYS)
def test_every_game_names_one_event_for_each_role_it_must_have(key: str) -> None:
    """Every game has one event class of each of the roles match_started, hand_started,
    hand_revealed and match_ended; seat_joined and seat_vacated only where players change seats
    during a match (GameSpec.seat_changes); at least one hand_scored."""
    spec = GAMES[key]
    roles: dict[Role, list[str]] = {}
    for name in spec.event_types:
        role = spec.role_of(name)
        if role is not None:
            roles.setdefault(role, []).append(name)
    for role in (Role.MATCH_STARTED, Role.HAND_STARTED, Role.HAND_REVEALED, Role.MATCH_ENDED):
        assert len(roles.get(role, [])) == 1, (role, roles)
    assert roles[Role.MATCH_STARTED] == [MATCH_STARTED]
    assert roles.get(Role.HAND_SCORED)
    if spec.seat_changes:
        assert roles.get(Role.SEAT_JOINED) and roles.get(Role.SEAT_VACATED)
        assert spec.join_command is not None
    assert spec.role_of("NoSuchEvent") is None


@pytest.mark.parametrize("key", GAME_KEYS)
def test_a_played_match_reads_as_hands_started_scored_revealed_then_one_result(key: str) -> None:
    """The facts of a whole match, in order: each hand starts (numbered 1, 2, ... with a commitment
    and a hidden seed equal to the seed the driver dealt it from), is scored, and is revealed with
    that seed (the shedding games' S5.1; R3.2 of the others); then one match result, last, whose
    winners lead its ranking of every seat."""
    spec = GAMES[key]
    match, log = play(key)
    assert match.over
    facts = [(event, spec.fact(event)) for event in log]
    starts = [f for _, f in facts if isinstance(f, HandStart)]
    reveals = [f for _, f in facts if isinstance(f, HandReveal)]
    assert [s.hand_no for s in starts] == list(range(1, len(starts) + 1))
    assert match.hands == len(starts) == len(reveals)
    for start, reveal in zip(starts, reveals, strict=True):
        assert start.seed == seed_of(start.hand_no) == reveal.secret
        assert not start.explicit_deal and len(start.commitment) == 64
        assert start.deck is not None and len(start.deck) == len(spec.deck(match.state))
    order = [type(f) for _, f in facts if f is not None and not isinstance(f, (SeatJoined, SeatVacated))]
    assert order[-1] is MatchResult and order.count(MatchResult) == 1
    hand_flow = [t for t in order if t in (HandStart, HandReveal)]
    assert hand_flow == [HandStart, HandReveal] * len(starts)
    assert any(t is HandScore for t in order)
    result = next(f for _, f in reversed(facts) if isinstance(f, MatchResult))
    assert sorted(result.ranking) == [0, 1, 2, 3]
    assert result.ranking[: len(result.winners)] == result.winners
    assert log[0].event_name() == MATCH_STARTED


def test_agonia_ranks_the_lowest_total_first_and_mau_mau_the_highest() -> None:
    """agonia R7.1: the lowest total wins, so it ranks first; mau_mau R6.6 (negative points, the
    total nearest zero wins) and crazy_eights's points game rank the highest first
    (GameSpec.higher_totals_win)."""
    agonia, mau = GAMES["agonia"], GAMES["mau_mau"]
    low = agonia.fact(agonia.event_types["MatchEnded"](winner=2, totals=(120, 45, 12, 60), reason="target"))
    assert isinstance(low, MatchResult)
    assert (low.winners, low.ranking) == ((2,), (2, 1, 3, 0))
    high = mau.fact(mau.event_types["MatchEnded"](winner=1, totals=(-120, -5, None, -40), reason="last_player"))
    assert isinstance(high, MatchResult)
    assert (high.winners, high.ranking) == ((1,), (1, 3, 0, 2))


def test_vida_ranks_the_winning_team_first_with_its_games_won() -> None:
    """vida R6.10: the team that won the games needed wins; its seats (R2.3: team 1 is seats 1 and 3)
    rank first, and the result carries the games won per team."""
    vida = GAMES["vida"]
    fact = vida.fact(vida.event_types["MatchEnded"](winner_team=1, games_won=(1, 2)))
    assert fact == MatchResult(totals=(), winners=(1, 3), ranking=(1, 3, 0, 2), winner_team=1, team_scores=(1, 2))


def test_ranking_puts_winners_first_then_totals_then_seats_without_one() -> None:
    """The platform's ranking: winners, then by total (ties in seat order), then seats with none."""
    assert ranking((5, 5, None, 1), higher_wins=False) == (3, 0, 1, 2)
    assert ranking((5, 5, None, 1), higher_wins=True) == (0, 1, 3, 2)
    assert ranking((0, 9, 9), higher_wins=True, winners=(2,)) == (2, 1, 0)


def test_mau_mau_seat_changes_read_as_seat_joined_and_vacated() -> None:
    """mau_mau R6.9-R6.10, R6.6: a newcomer's PlayerJoined is a seat taken; PlayerLeft and
    PlayerEliminated vacate a seat."""
    spec = GAMES["mau_mau"]
    types = spec.event_types
    joined = types["PlayerJoined"](seat=4, name="eve", computer=None, total=-30)
    left = types["PlayerLeft"](seat=1, during_hand=False, cards_to_stock=0, order=())
    out = types["PlayerEliminated"](seat=2, total=-101)
    assert spec.fact(joined) == SeatJoined(4, "eve", None)
    assert spec.fact(left) == SeatVacated(1, "left")
    assert spec.fact(out) == SeatVacated(2, "eliminated")
    assert all(type(e).between_hands for e in (joined, left, out))


def test_next_move_deals_from_the_hand_seed_then_moves_the_first_waiting_bot() -> None:
    """The driver's automatic play: a deal due is the table's, from the seed of the next hand
    number; then the first waiting seat moves if it is a computer player; a person waiting first
    stops automatic play; with deals entered by hand (seed None) no deal is automatic."""
    spec: GameSpec[Any, Any] = GAMES["crazy_eights"]
    config = MatchConfig("crazy_eights", tuple(SeatInfo(i, f"p{i}") for i in range(2)))
    match: Match[Any, Any] = Match.start(spec, config)
    rng = random.Random(1)
    assert match.next_move({1: "random"}, None, lambda: rng) is None
    deal = match.next_move({1: "random"}, seed_of, lambda: rng)
    assert deal is not None and deal.actor == TABLE
    match, events = match.apply(deal.command)
    start = next(f for f in map(spec.fact, events) if isinstance(f, HandStart))
    assert isinstance(start, HandStart) and start.seed == seed_of(1) and match.hands == 1
    first = match.acting(range(2))[0]
    bots = {1 - first: "random"}
    assert match.next_move(bots, seed_of, lambda: rng, seats=range(2)) is None  # the person is first
    bots = {first: "random"}
    move = match.next_move(bots, seed_of, lambda: rng)
    assert move is not None and move.actor == f"bot:{first}"
    assert move.command in match.legal(first)


def test_a_refused_command_leaves_the_match_as_it_was() -> None:
    """S11: a refused command raises and changes nothing (the match is immutable)."""
    spec: GameSpec[Any, Any] = GAMES["agonia"]
    match: Match[Any, Any] = Match.start(spec, MatchConfig("agonia", tuple(SeatInfo(i, f"p{i}") for i in range(2))))
    match, _ = match.apply(match.seeded_deal(seed_of(1)))
    waiting = match.acting(range(2))[0]
    other = 1 - waiting
    before = match.state
    with pytest.raises(CommandRejected):
        match.apply(spec.parse_command({"kind": "draw", "seat": other}))
    assert match.state is before
