"""Vida's games and match (docs/rules/vida.md R6.9, R6.10, D34, D35, D37) and the record replay (section 9)."""

from __future__ import annotations

from vida_helpers import MONO, Table, fail_hand, mono_hand

from trapoula.domain.events import Event
from trapoula.domain.games.vida import SPEC
from trapoula.domain.games.vida.events import GameWon, HandScored, HandStarted, MatchEnded


def scored(events: tuple[Event, ...]) -> HandScored:
    return next(e for e in events if isinstance(e, HandScored))


def test_r6_9_d34_exactly_3550_does_not_win_the_game() -> None:
    table = Table(initial_totals=(3000, 0))
    events = mono_hand(table)
    assert scored(events).totals == (3550, 0)
    assert table.names(events[-2:]) == ["HandScored", "ShuffleRevealed"]
    view = table.view(0)
    assert (view["totals"], view["games_won"], view["match_over"]) == ([3550, 0], [0, 0], False)
    assert SPEC.needs_deal(table.state) and not SPEC.is_terminal(table.state)


def test_r6_9_passing_3550_wins_the_game_and_the_next_game_starts_at_0_0() -> None:
    table = Table(initial_totals=(3001, 0))
    events = mono_hand(table)
    assert events[-1] == GameWon(game_no=1, team=0, totals=(3551, 0), games_won=(1, 0))
    view = table.view(None)
    assert (view["totals"], view["games_won"], view["game_no"], view["next_dealer"]) == ([3551, 0], [1, 0], 1, 0)
    started = table.deal(MONO)[0]
    assert started == HandStarted(
        hand_no=2,
        game_no=2,
        dealer=0,
        explicit_deal=True,
        commitment=started.commitment,  # type: ignore[attr-defined]
        seed=None,
        deck=started.deck,  # type: ignore[attr-defined]
    )
    view = table.view(None)
    assert (view["totals"], view["games_won"], view["game_no"], view["dealer"]) == ([0, 0], [1, 0], 2, 0)


def test_r6_9_d34_when_both_pass_the_target_the_higher_total_wins() -> None:
    table = Table(initial_totals=(3200, 3540))
    events = fail_hand(table)
    assert scored(events).totals == (3610, 3560)
    assert events[-1] == GameWon(game_no=1, team=0, totals=(3610, 3560), games_won=(1, 0))


def test_r6_9_d17_failing_bidders_can_win_the_game_with_their_belote() -> None:
    table = Table(initial_totals=(0, 3540))
    events = fail_hand(table)
    assert events[-1] == GameWon(game_no=1, team=1, totals=(410, 3560), games_won=(0, 1))


def test_r6_9_d34_equal_totals_over_the_target_play_on() -> None:
    table = Table(initial_totals=(3150, 3540))
    events = fail_hand(table)
    assert scored(events).totals == (3560, 3560)
    assert table.names(events[-2:]) == ["HandScored", "ShuffleRevealed"]
    events = mono_hand(table)  # dealt by seat 0 (D35), still game 1
    assert [e.game_no for e in table.log if isinstance(e, HandStarted)] == [1, 1]
    assert scored(events).totals == (4110, 3560)
    assert events[-1] == GameWon(game_no=1, team=0, totals=(4110, 3560), games_won=(1, 0))


def test_r6_10_the_match_ends_when_a_team_has_won_wins_needed_games() -> None:
    table = Table(options={"wins_needed": 1}, initial_totals=(3001, 0))
    events = mono_hand(table)
    assert events[-2:] == (
        GameWon(game_no=1, team=0, totals=(3551, 0), games_won=(1, 0)),
        MatchEnded(winner_team=0, games_won=(1, 0)),
    )
    assert SPEC.is_terminal(table.state) and not SPEC.needs_deal(table.state)
    view = table.view(2)
    assert (view["phase"], view["match_over"], view["winner"], view["legal"]) == ("match_over", True, 0, [])
    table.rejects("match_over", "R6.10", table.command("pass", 1))
    table.rejects("match_over", "R6.10", table.command("play", 0, card="7C"))
    table.rejects("match_over", "R6.10", SPEC.deal_command(table.state, table.explicit(MONO)))


def test_r6_10_d35_d37_two_games_totals_reset_and_the_deal_rotates_across_games() -> None:
    table = Table(options={"target_score": 500})
    first = mono_hand(table)
    assert first[-1] == GameWon(game_no=1, team=0, totals=(550, 0), games_won=(1, 0))
    second = mono_hand(table)
    assert scored(second).totals == (550, 0)  # from 0-0 again
    assert second[-2:] == (
        GameWon(game_no=2, team=0, totals=(550, 0), games_won=(2, 0)),
        MatchEnded(winner_team=0, games_won=(2, 0)),
    )
    assert [(e.hand_no, e.game_no, e.dealer) for e in table.log if isinstance(e, HandStarted)] == [(1, 1, 3), (2, 2, 0)]


def test_section_9_the_record_replays_command_by_command() -> None:
    """What an audit does: at each event the command that caused it, decided again, gives exactly
    the recorded events; folding them gives the same state."""
    options = {"target_score": 500, "wins_needed": 1, "declaration_timing": "before_first_card"}
    table = Table(options=options, first_dealer=None)
    table.seeded("43" * 32)  # draws the first dealer 2 (R3.1), so seat 3 speaks first
    assert table.state.dealer == 2
    table.calls("pass", "pass", "pass", "pass")
    assert scored(mono_hand(table)).hand_points == (350, 0)  # nobody declared (R5.8): 80 + 250 + 20
    assert table.names(mono_hand(table)[-2:]) == ["GameWon", "MatchEnded"]
    log = table.log
    state = SPEC.initial_state(table.config)
    i = 0
    while i < len(log):
        command = SPEC.command_for(state, log, i)
        assert command is not None, log[i]
        expected = SPEC.decide(state, command)
        assert tuple(log[i : i + len(expected)]) == expected
        for event in expected:
            state = SPEC.evolve(state, event)
        i += len(expected)
    assert state == table.state
    assert SPEC.is_terminal(state)


def test_section_9_a_give_replays_as_one_command() -> None:
    deck = "7C 8C 9C TC JC QC KC AC 7D 8D 9D TD JD QD KD AD 7H 8H 9H TH JH QH KH AH 7S 8S 9S TS JS QS KS AS"
    table = Table(options={"open_vida": True})
    table.deal_deck(deck)
    table.calls("80S", "pass", "pass", "pass")
    before = table.state
    events = table.give(0, "7C AS 9C")
    assert SPEC.command_for(before, events, 0) == table.command("give", 0, cards=["7C", "AS", "9C"])
    after_first = SPEC.evolve(before, events[0])
    assert SPEC.command_for(after_first, events, 1) is None
    assert SPEC.command_for(before, events, 3) is None  # DeclarationsResolved: no command of its own
