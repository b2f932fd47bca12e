"""Romis su iškritimu: what each seat and a spectator see between and during hands (section 9), the audit's
command reconstruction (``command_for``), and ``legal_commands`` agreeing with ``decide`` (section 8)."""

from __future__ import annotations

import hashlib
import itertools
import json
import random

import pytest
from romis_helpers import Table, cards, of

from trapoula.domain.cards import parse_cards
from trapoula.domain.errors import CommandRejected
from trapoula.domain.games.romis import SPEC
from trapoula.domain.games.romis.bot import random_policy
from trapoula.domain.games.romis.commands import Cannot, Reveal, UseAuxiliary
from trapoula.domain.games.romis.events import (
    HandStarted,
    HandWon,
    NobodyCouldReveal,
    RoundOpened,
    RoundResolved,
    ShuffleCommitted,
)

R108B = (["6H 7H 5H 7D 2C", "2D 4S 9C JH KD"], ["3S 8D", "6S QC"])
"""R10.8 (b): seat 0 wins in round 1 with 6H 7H, laying 7D and 5H; seat 1 has no pair even with 6S QC."""


def test_section_9_before_the_first_hand() -> None:
    """Section 9: before any deal the view shows the table, the next dealer (seat n-1, R3.1), the options
    and no cards, no round and no legal command."""
    view = Table(3).view(0)
    assert (view["phase"], view["hand_no"], view["dealer"], view["next_dealer"]) == ("new", 0, None, 2)
    assert (view["round"], view["live"], view["hand"], view["legal"]) == (None, [], [], [])
    assert view["totals"] == [0, 0, 0] and view["bonus_factor"] == 1 and view["last_hand"] is None
    assert view["options"] == {"target_score": 100, "carried_bonus_factor": 1, "resubmit": False}


def test_section_9_a_spectator_sees_counts_and_revealed_cards_only() -> None:
    """Section 9, R5.4: during round 2 a spectator sees hand sizes (6 each: 5 - 2 + 3), auxiliary and
    companion counts, the revealed cards, the stock count and the last resolved
    round; no hand, no legal command, no seed or deck."""
    t = Table(2)
    t.deal_streams(["6H 7H 5H 7D KC", "QS QD 3C 8H 4D"], ["2S 9D", "TS 6C"], ["KS 2D 9S", "QC 3D 8C"])
    t.reveal(0, "6H 7H")
    t.reveal(1, "QS QD")
    view = t.view(None)
    assert (view["round"], view["attempt"], view["required"], view["live"]) == (2, 1, 2, [0, 1])
    assert view["hand_sizes"] == [6, 6] and view["auxiliary_counts"] == [2, 2] and view["companion_counts"] == [0, 0]
    assert view["revealed"] == [["6H", "7H"], ["QD", "QS"]]
    assert view["stock_count"] == 52 - 10 - 4 - 6
    assert view["last_round"]["cards"] == [["6H", "7H"], ["QD", "QS"]]
    assert view["hand"] == [] and view["legal"] == [] and view["pending"] is None
    text = json.dumps(view)
    assert not any(f'"{code}"' in text for code in cards("KC 2D 7D 5H 9S KS 3C 8H 4D QC 3D 8C 2S 9D TS 6C"))


def test_section_9_after_the_hand_its_hidden_cards_are_shown() -> None:
    """R10.9, section 9: once the hand has ended, the view shows the result, the next bonus factor, and
    the hand's hidden cards (hands, an eliminated player's hand, auxiliary cards, companions) until the
    next hand starts; the next dealer is seat 0 (R3.8)."""
    t = Table(2)
    t.deal(*R108B)
    t.reveal(0, "6H 7H")
    t.give_up(1)
    view = t.view(1)
    assert (view["phase"], view["hand_over"], view["next_dealer"], view["legal"]) == ("hand_over", True, 0, [])
    assert view["last_hand"] == {
        "hand_no": 1,
        "reason": "winner",
        "winner": 0,
        "hand_points": [18, 0],
        "totals": [18, 0],
        "bonus_factor": 1,
        "hands": [["2C"], []],
        "eliminated_hands": [[], ["2D", "4S", "9C", "JH", "KD", "6S", "QC"]],
        "auxiliary": [["3S", "8D"], ["6S", "QC"]],
        "companions": [[], []],
    }
    t.deal(*R108B)
    assert "hands" not in t.view(1)["last_hand"]


def test_r10_2_the_winner_lays_down_his_companions_too() -> None:
    """R10.2, R8.3: seat 0 starts a new combination in round 3 (JH, companion QH) while seat 1 drops
    out: the winner lays down QH (related to JH) but not KD (next to QH in rank, not in suit): 6 revealed
    cards, 4 x 6 + 2 = 26."""
    t = Table(2)
    t.deal_streams(["2C 3C 9D 9S JH", "2H 3H 9C JD KS"], ["4S 7D", "8D 6C"], ["4C 5C KD", "4H 5H 7S"], ["QH", "AD"])
    for cards_0, cards_1 in (("2C 3C", "2H 3H"), ("4C 5C", "4H 5H")):
        t.reveal(0, cards_0)
        t.reveal(1, cards_1)
    t.reveal(0, "JH", "QH")
    events = t.give_up(1)
    assert of(events, HandWon) == [
        HandWon(seat=0, laid_down=("QH",), revealed_count=6, multiplier=4, bonus=2, points=26)
    ]
    assert t.state.last is not None and t.state.last.companions == ((), ())
    assert t.state.last.hands == (cards("9D 9S KD"), ())  # in the order received


def test_r5_3_the_order_of_the_submissions_does_not_matter() -> None:
    """R5.3: the round resolves when the last live seat submits, whichever it is; the opened reveals are
    the same."""
    results = []
    for order in ((0, 1), (1, 0)):
        t = Table(2)
        t.deal(["6H 7H 5H 7D KC", "QS QD 3C 8H 4D"], ["2S 9D", "TS 6C"])
        picks = {0: "6H 7H", 1: "QD QS"}
        first = t.reveal(order[0], picks[order[0]])
        assert t.names(first) == ["SubmissionSealed"] and SPEC.acting(t.state) == (order[1],)
        resolved = of(t.reveal(order[1], picks[order[1]]), RoundResolved)[0]
        results.append((resolved.kinds, resolved.cards, resolved.nonces))
    assert results[0] == results[1]


def test_r3_6_four_players_with_dealer_1() -> None:
    """R3.6, R3.7: 4 players, dealer 1: the seat order after the dealer is 2, 3, 0, 1; the explicit
    deal's stock gives slot 1 to seats 2, 3, 0, 1, then slot 2; the stock holds 24 cards (R3.5)."""
    t = Table(4, first_dealer=1)
    t.deal(
        ["2C 3C 4C 5C 6C", "2D 3D 4D 5D 6D", "2H 3H 4H 5H 6H", "2S 3S 4S 5S 6S"], ["7C 8C", "7D 8D", "7H 8H", "7S 8S"]
    )
    started = of(t.log, HandStarted)[0]
    assert started.deck[:8] == cards("2H 2S 2C 2D 3H 3S 3C 3D")
    assert started.deck[20:28] == cards("7H 7S 7C 7D 8H 8S 8C 8D")
    assert [a for a in t.state.aux] == [parse_cards(x) for x in ("7C 8C", "7D 8D", "7H 8H", "7S 8S")]
    assert len(t.state.stock) == 24


def test_command_for_names_only_the_events_that_open_a_command() -> None:
    """Section 8, audit: ``command_for`` gives a command for MatchStarted (when followed by HandStarted),
    AuxiliaryUsed and SubmissionSealed; None for every event a command causes after its first."""
    t = Table(2)
    t.deal(*R108B)
    t.reveal(0, "6H 7H")
    t.give_up(1)
    state = SPEC.initial_state(t.config)
    opened = []
    for i, event in enumerate(t.log):
        command = SPEC.command_for(state, t.log, i)
        if command is not None:
            opened.append((event.event_name(), type(command).__name__))
        state = SPEC.evolve(state, event)
    assert opened == [
        ("MatchStarted", "NextHand"),
        ("SubmissionSealed", "Reveal"),
        ("AuxiliaryUsed", "UseAuxiliary"),
        ("AuxiliaryUsed", "UseAuxiliary"),
        ("SubmissionSealed", "Cannot"),
    ]
    assert SPEC.command_for(state, [NobodyCouldReveal(round=1, attempt=1)], 0) is None
    assert SPEC.command_for(state, [ShuffleCommitted(hand_no=1, purpose="deal", commitment="0" * 64)], 0) is None
    assert SPEC.command_for(state, [RoundOpened(round=1, attempt=1, required=2, live=(0, 1))], 0) is None


@pytest.mark.parametrize("n", [2, 3, 4])
def test_section_8_legal_commands_agree_with_decide(n: int) -> None:
    """Section 8: in 6 random hands, at every step, each command ``legal_commands`` lists is accepted by
    ``decide``, and every other reveal of one or two of the seat's cards, ``use_auxiliary`` and
    ``cannot`` is refused."""
    for h in range(6):
        t = Table(n, options={"target_score": 10_000})
        t.seeded(hashlib.sha256(f"agree-{n}-{h}".encode()).hexdigest())
        rng = random.Random(h)
        while SPEC.hand_in_progress(t.state):
            seat = rng.choice(SPEC.acting(t.state))
            listed = SPEC.legal_commands(t.state, seat)
            for command in listed:
                SPEC.decide(t.state, command)
            held = (*t.state.hands[seat], *t.state.companions[seat])
            candidates = [Reveal(seat, tuple(combo)) for k in (1, 2) for combo in itertools.combinations(held, k)] + [
                UseAuxiliary(seat),
                Cannot(seat),
            ]
            for command in candidates:
                if command in listed or (
                    isinstance(command, Reveal) and Reveal(seat, tuple(sorted(command.cards))) in listed
                ):
                    continue
                with pytest.raises(CommandRejected):
                    SPEC.decide(t.state, command)
            view = t.view(seat)
            t.apply(SPEC.parse_command(random_policy(view, view["legal"], rng)))


def test_section_9_the_event_names_and_the_rules_they_cite() -> None:
    """Section 9: exactly the 17 events of the table, each mapped to the rule a wrong one breaks (audit)."""
    names = {
        "MatchStarted",
        "ShuffleCommitted",
        "HandStarted",
        "CardsDealt",
        "AuxiliaryDealt",
        "RoundOpened",
        "AuxiliaryUsed",
        "SubmissionSealed",
        "RoundResolved",
        "PlayerEliminated",
        "NobodyCouldReveal",
        "EliminatedPileRestocked",
        "HandCardsRedealt",
        "HandWon",
        "HandEnded",
        "ShuffleRevealed",
        "MatchEnded",
    }
    assert set(SPEC.event_types) == names == set(SPEC.event_rules)
    assert SPEC.event_rules["SubmissionSealed"] == "R5.2" and SPEC.event_rules["HandWon"] == "R10.1"


def test_the_game_definition() -> None:
    """R1, R2.3, R11.1, R12.1, R3.2: key ``romis``, 2 to 4 players, the highest total wins, the target is
    ``target_score``; the audit reads the deal's salt from ``ShuffleRevealed.salt`` and recomputes the
    commitment SHA-256(order joined by "," + ":" + salt)."""
    assert (SPEC.key, SPEC.min_players, SPEC.max_players) == ("romis", 2, 4)
    assert SPEC.higher_totals_win and SPEC.target_option == "target_score" and not SPEC.seat_changes
    assert SPEC.reveal_seed_field == "salt"
    order = parse_cards("2C 3C")
    assert SPEC.commitment("ab" * 32, order) == hashlib.sha256(("2C,3C:" + "ab" * 32).encode()).hexdigest()
    assert SPEC.commitment(None, order) == hashlib.sha256(b"2C,3C:").hexdigest()


def test_r10_9_the_phases_of_a_match() -> None:
    """R10.9, R11: a deal is due before the first hand and after each; no command is waited for between
    hands; the match is over after MatchEnded."""
    t = Table(2, options={"target_score": 18})
    assert SPEC.needs_deal(t.state) and not SPEC.hand_in_progress(t.state) and SPEC.acting(t.state) == ()
    t.deal(*R108B)
    assert not SPEC.needs_deal(t.state) and SPEC.hand_in_progress(t.state) and SPEC.acting(t.state) == (0, 1)
    t.reveal(0, "6H 7H")
    t.give_up(1)
    assert SPEC.is_terminal(t.state) and not SPEC.needs_deal(t.state) and SPEC.acting(t.state) == ()


def test_r7_3_an_eliminated_seat_watches_the_rest_of_the_hand() -> None:
    """R7.3: a seat out of the hand has no hand and no legal command but sees the public table; the
    RoundResolved of later rounds lists nothing for it (kind None, no nonce)."""
    t = Table(3)
    t.deal(["6H 7H 5H 7D KC", "QS QD 3C 8H 4D", "2C 4S 9D JH KD"], ["2S 9H", "TS 6C", "8S TC"])
    t.reveal(0, "6H 7H")
    t.reveal(1, "QS QD")
    t.give_up(2)
    view = t.view(2)
    assert (view["hand"], view["legal"], view["auxiliary_left"]) == ([], [], None)
    assert view["revealed"] == [["6H", "7H"], ["QD", "QS"], []] and view["hand_sizes"][2] == 0
    t.auto(until=lambda x: x.state.round == 3)
    resolved = of(t.log, RoundResolved)[-1]
    assert resolved.round == 2 and resolved.kinds[2] is None and resolved.nonces[2] is None
