"""The shedding engine's seat facilities (shedding-common S3.2, S5.2, S5.3, S8.5; mau_mau R2.5, R3.2,
R6.9, R6.10), checked on the engine's own functions and on Agonia, which must not change."""

from __future__ import annotations

import dataclasses
import json

from mau_mau_helpers import Table

from trapoula.domain.deal import Deal
from trapoula.domain.events import from_payload, redact, to_payload
from trapoula.domain.game import MatchConfig, SeatInfo
from trapoula.domain.games.agonia import SPEC as AGONIA
from trapoula.domain.games.mau_mau.rules import RULES
from trapoula.domain.games.shedding import engine
from trapoula.domain.games.shedding.events import HandEnded, MatchEnded, PlayerJoined, PlayerLeft


def test_s3_2_the_next_seat_passes_over_vacant_seats_in_either_direction() -> None:
    st = dataclasses.replace(Table(5).state, vacant=frozenset({1, 2}))
    assert [st.next_seat(s) for s in range(5)] == [3, 3, 3, 4, 0]
    back = dataclasses.replace(st, direction=-1)
    assert [back.next_seat(s) for s in range(5)] == [4, 0, 0, 0, 3]


def test_r3_2_the_next_dealer_is_the_first_seated_seat_clockwise_after_the_last_one() -> None:
    st = Table(5).state
    assert engine.next_dealer(st) == 4  # R3.1: the last seat deals first
    played = dataclasses.replace(st, phase=engine.Phase.HAND_OVER, dealer=4, left=frozenset({0}))
    assert (engine.next_dealer(played), engine.first_player(played, 1)) == (1, 2)
    gone = dataclasses.replace(played, dealer=1, eliminated=frozenset({1, 2}))
    assert (engine.next_dealer(gone), engine.first_player(gone, 3)) == (3, 4)
    assert engine.deal_order(gone, 4) == (4, 3)


def test_r6_9_2_a_newcomer_takes_the_lowest_vacant_seat_else_the_next_number_up_to_the_maximum() -> None:
    st = Table(3).state
    assert engine.join_seat(st, 5) == 3
    assert engine.join_seat(dataclasses.replace(st, left=frozenset({2}), eliminated=frozenset({1})), 5) == 1
    assert engine.join_seat(st, 3) is None


def test_r6_9_a_join_grows_every_per_seat_list_and_clears_the_seat_s_marks() -> None:
    st = dataclasses.replace(Table(2).state, hands=((), ()), eliminated=frozenset({1}))
    grown = engine.evolve_common(st, PlayerJoined(seat=2, name="eve", computer="easy", total=-40), RULES)
    assert grown is not None
    assert (grown.n, grown.names, grown.bots) == (3, ("ann", "bob", "eve"), (None, None, "easy"))
    assert grown.totals == (0, 0, -40)
    assert (grown.hands, grown.vacant, grown.seated) == (((), (), ()), frozenset({2}), frozenset({0, 2}))
    again = engine.evolve_common(grown, PlayerJoined(seat=1, name="fay", computer=None, total=-40), RULES)
    assert again is not None and (again.seated, again.names[1], again.totals[1]) == (frozenset({0, 1, 2}), "fay", -40)


def test_r2_5_totals_of_a_seat_that_left_are_null_in_events_and_survive_json() -> None:
    ended = HandEnded(reason="abandoned", winner=None, hands=((), ()), hand_points=(0, None), totals=(-5, None))
    assert from_payload(HandEnded, json.loads(json.dumps(to_payload(ended)))) == ended
    over = MatchEnded(winner=0, totals=(-5, None), reason="last_player")
    assert from_payload(MatchEnded, json.loads(json.dumps(to_payload(over)))) == over


def test_r6_10_2_the_order_of_a_leaver_s_cards_is_hidden_from_every_viewer() -> None:
    left = PlayerLeft(seat=1, during_hand=True, cards_to_stock=2, order=("7H", "2C"))
    for viewer in (None, 0, 1, 2):
        assert redact(left, viewer) == {"seat": 1, "during_hand": True, "cards_to_stock": 2, "order": None}


def test_agonia_keeps_its_events_and_deals_every_seat_as_before() -> None:
    """Agonia has no seat changes: its events carry no new field and every seat is dealt in."""
    assert [f.name for f in dataclasses.fields(HandEnded)] == ["reason", "winner", "hands", "hand_points", "totals"]
    state = AGONIA.initial_state(MatchConfig("agonia", tuple(SeatInfo(i, f"p{i}") for i in range(3))))
    events = AGONIA.decide(state, AGONIA.deal_command(state, Deal.from_seed(AGONIA.deck(state), "00" * 32)))
    started = next(e for e in events if e.event_name() == "HandStarted")
    assert started.seats_in_hand == (0, 1, 2)  # type: ignore[attr-defined]
    assert AGONIA.seat_changes is False
    assert not {"PlayerJoined", "PlayerLeft", "PlayerEliminated"} & {e.event_name() for e in events}
