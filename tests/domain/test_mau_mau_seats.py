"""Mau Mau: players join between hands and leave at any time (R6.9, R6.10, R2.5)."""

from __future__ import annotations

import pytest
from mau_mau_helpers import SEED, Table, finish_hand, names, played, turn

from trapoula.domain.cards import codes, sorted_cards
from trapoula.domain.deal import shuffle
from trapoula.domain.errors import InvalidInput
from trapoula.domain.events import redact
from trapoula.domain.games.mau_mau import SPEC, join_command
from trapoula.domain.games.mau_mau.commands import Join
from trapoula.domain.games.shedding.events import (
    HandEnded,
    MatchEnded,
    MatchStarted,
    PlayerJoined,
    PlayerLeft,
    SeedRevealed,
)

LONG = {"elimination_limit": -10_000}
H = ["5H 6H 7H 8H 9H TH QH", "5C 6C 7C 8C 9C TC QC", "5S 6S 7S 8S 9S TS QS"]


def between_hands(players: int = 3, totals: tuple[int, ...] | None = None) -> Table:
    """A match of ``players`` after its first hand (played out by medium computer players)."""
    t = Table(players, options=LONG, initial_totals=totals)
    t.seeded()
    finish_hand(t)
    assert t.state.phase.value == "hand_over"
    return t


# --------------------------------------------------------------------------- join


def test_r6_9_2_a_newcomer_takes_the_next_new_seat_number_and_r6_9_1_the_lowest_total() -> None:
    t = between_hands(3, totals=(-10, -40, -25))
    totals = t.state.totals
    assert t.join("eve", "hard") == (PlayerJoined(seat=3, name="eve", computer="hard", total=min(totals)),)
    view = t.view(3)
    assert (view["names"][3], view["computers"][3], view["totals"][3], view["hand"]) == ("eve", "hard", min(totals), [])
    assert view["legal"] == [{"kind": "leave", "seat": 3}]
    assert view["hand_sizes"][3] == 0  # he takes no part in the hand that has ended (R2.5)


def test_r6_9_2_a_newcomer_takes_the_lowest_vacant_seat_number() -> None:
    t = between_hands(4)
    t.leave(2)
    t.leave(1)
    lowest = min(t.state.totals[0], t.state.totals[3])
    assert t.join("eve")[0] == PlayerJoined(seat=1, name="eve", computer=None, total=lowest)
    assert t.view(None)["seated"] == [0, 1, 3]
    assert t.join("fay", "easy")[0].seat == 2  # type: ignore[attr-defined]


def test_r6_9_the_newcomer_plays_from_the_next_hand() -> None:
    t = between_hands(2)
    t.join("eve")
    events = t.seeded("ab" * 32)
    assert next(e for e in events if e.event_name() == "HandStarted").seats_in_hand == (0, 1, 2)  # type: ignore[attr-defined]
    assert len(t.state.hands[2]) == 7


def test_r6_9_join_is_refused_during_a_hand_at_five_seated_and_after_the_match() -> None:
    t = Table(3, options=LONG)
    t.seeded()
    t.rejects("hand_in_progress", "R6.9", t.command("join", name="eve"))
    finish_hand(t)
    t.join("dan")
    t.join("eve")
    t.rejects("table_full", "R6.9", t.command("join", name="fay", computer="easy"))
    done = between_hands(2)
    done.leave(1)
    assert done.state.phase.value == "match_over"
    done.rejects("match_over", "R6.9", done.command("join", name="eve"))


def test_r6_9_before_the_first_hand_a_join_seats_one_more_player_after_match_started() -> None:
    t = Table(2)
    events = t.join("cat")
    assert names(events) == ["MatchStarted", "PlayerJoined"]
    assert isinstance(events[0], MatchStarted) and events[0].names == ("ann", "bob")
    assert events[1] == PlayerJoined(seat=2, name="cat", computer=None, total=0)
    dealt = t.seeded()
    assert "MatchStarted" not in names(dealt)
    assert (t.state.dealer, t.to_act) == (1, 2)  # R3.1: the configured last seat deals


def test_r7_2_a_join_names_a_person_or_a_computer_of_a_known_skill() -> None:
    assert SPEC.parse_command({"kind": "join", "name": "Eve", "computer": "hard"}) == Join("Eve", "hard")
    assert SPEC.parse_command({"kind": "join", "name": "Eve", "computer": None}) == join_command("Eve", None)
    assert SPEC.command_seat(join_command("Eve")) is None
    assert SPEC.command_payload(join_command("Eve")) == {"kind": "join", "name": "Eve", "computer": None}
    for raw, reason in (
        ({"kind": "join", "name": "Eve", "computer": "genius"}, "bad_skill"),
        ({"kind": "join", "name": "", "computer": None}, "bad_name"),
        ({"kind": "join", "name": 7}, "bad_name"),
        ({"kind": "join", "name": "Eve", "seat": 1}, "bad_command"),
    ):
        with pytest.raises(InvalidInput) as bad:
            SPEC.parse_command(raw)
        assert bad.value.reason == reason


# --------------------------------------------------------------------------- leave


def test_r6_10_1_a_player_leaving_between_hands_is_removed_from_the_standings() -> None:
    t = between_hands(3)
    assert t.leave(1) == (PlayerLeft(seat=1, during_hand=False, cards_to_stock=0, order=()),)
    view = t.view(0)
    assert (view["names"], view["totals"][1], view["left"], view["seated"]) == (["ann", None, "cat"], None, [1], [0, 2])
    t.rejects("not_seated", "R6.10", t.command("leave", 1))
    assert t.legal(1) == []
    events = t.seeded("cd" * 32)
    assert next(e for e in events if e.event_name() == "HandStarted").seats_in_hand == (0, 2)  # type: ignore[attr-defined]


def test_r6_10_leave_is_open_to_every_seated_player_at_any_time_also_out_of_turn() -> None:
    t = Table(3)
    assert [t.legal(s) for s in range(3)] == [[{"kind": "leave", "seat": s}] for s in range(3)]
    t.seeded()
    assert [t.kinds(s)[-1] for s in range(3)] == ["leave"] * 3
    assert SPEC.acting is not None and SPEC.acting(t.state) == (0,)
    assert t.legal(5) == [] and t.legal(-1) == []


def test_r6_10_2_a_leaver_s_cards_go_under_the_stock_in_an_order_drawn_from_the_seed() -> None:
    t = Table(3)
    t.seeded()
    hand = t.state.hands[1]
    stock = t.stock
    order = codes(shuffle(sorted_cards(hand), SEED, "reshuffle/1"))  # like the first reshuffle (S8.5)
    events = t.leave(1)
    assert events == (PlayerLeft(seat=1, during_hand=True, cards_to_stock=7, order=order),)
    assert t.stock == stock + list(order)
    assert redact(events[0], 0)["order"] is None and redact(events[0], None)["order"] is None  # S13.3
    assert t.view(None)["hand_sizes"][1] == 0 and t.view(None)["seats_in_hand"] == [0, 2]
    assert t.to_act == 0
    t.draw(0)
    assert t.to_act == 2  # seat 1 is passed over (S3.2)
    finish_hand(t)
    revealed = next(e for e in t.log if isinstance(e, SeedRevealed))
    assert revealed.reshuffle_orders[0] == order


def test_r6_10_2_a_leaver_to_act_passes_the_turn_and_the_draw_he_owed_lapses() -> None:
    t = Table(3)
    t.deal(H, "4H")
    assert t.play(0, "7H") == (played(0, "7H", "H", pending=2), turn(1))
    events = t.leave(1)
    assert names(events) == ["PlayerLeft", "TurnStarted"]
    assert events[1] == turn(2)
    assert (t.pending, t.to_act) == (0, 2)
    assert t.play(2, "7S") == (played(2, "7S", "S", pending=2), turn(0))  # a 7 on the 7, as a match


def test_r6_10_2_an_explicit_deal_gives_the_order_of_a_leaver_s_cards() -> None:
    t = Table(3)
    t.deal(H, "4H", reshuffles=["QC TC 9C 8C 7C 6C 5C"])
    assert t.leave(1)[0] == PlayerLeft(
        seat=1, during_hand=True, cards_to_stock=7, order=("QC", "TC", "9C", "8C", "7C", "6C", "5C")
    )
    t2 = Table(3)
    t2.deal(H, "4H", reshuffles=["QC TC 9C"])
    t2.rejects("bad_deal", "S8.5", t2.command("leave", 1))


def test_r6_10_3_with_one_player_left_the_hand_is_abandoned_and_he_wins_the_match() -> None:
    t = Table(2, initial_totals=(-20, -30))
    t.seeded()
    events = t.leave(1)
    assert names(events) == ["PlayerLeft", "HandEnded", "SeedRevealed", "MatchEnded"]
    ended = events[1]
    assert isinstance(ended, HandEnded)
    assert (ended.reason, ended.winner, ended.hand_points, ended.totals) == ("abandoned", None, (0, None), (-20, None))
    assert ended.hands[1] == ()
    assert events[3] == MatchEnded(winner=0, totals=(-20, None), reason="last_player")
    view = t.view(1)
    assert (view["match_winner"], view["totals"], view["names"], view["legal"]) == (0, [-20, None], ["ann", None], [])


def test_r6_10_before_the_first_hand_a_leave_records_match_started_first() -> None:
    t = Table(2)
    events = t.leave(0)
    assert names(events) == ["MatchStarted", "PlayerLeft", "MatchEnded"]
    assert events[2] == MatchEnded(winner=1, totals=(None, 0), reason="last_player")


def test_r2_5_a_viewer_seat_beyond_the_table_sees_what_a_spectator_sees() -> None:
    t = Table(2)
    t.seeded()
    far = t.view(7)
    spectator = t.view(None)
    assert "hand" not in far and far["legal"] == [] and far["seat"] == 7
    assert {k: v for k, v in far.items() if k != "seat"} == {k: v for k, v in spectator.items() if k != "seat"}
