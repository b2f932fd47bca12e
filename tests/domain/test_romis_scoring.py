"""Romis su iškritimu: the end of a hand and its scoring (R10), the match (R11), and the audit's replay of
recorded events as commands (``command_for``) in the middle of a match (R12.2, R12.3)."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from typing import Any

import pytest
from romis_helpers import Table, cards, of

from trapoula.domain.audit import audit_record
from trapoula.domain.chain import chain_record
from trapoula.domain.events import Event, to_payload
from trapoula.domain.games.romis import SPEC
from trapoula.domain.games.romis.events import (
    HandEnded,
    HandStarted,
    HandWon,
    MatchEnded,
    PlayerEliminated,
)
from trapoula.domain.registry import GAMES

SUITS = "CDHS"


def deal_suits(t: Table) -> None:
    """4 players, seat s holding the whole suit ``SUITS[s]``: 2-6 in hand, J Q as auxiliary cards, 7 8 9
    at the first deal, T at the second, then K and A as extra cards.  Everybody reveals one card of his
    suit a round and they all get stuck together, so that the hand ends with all 52 cards revealed."""

    def each(ranks: str) -> list[str]:
        return [" ".join(r + s for r in ranks.split()) for s in SUITS]

    t.deal_streams(each("2 3 4 5 6"), each("J Q"), each("7 8 9"), each("T"), each("K"), each("A"))


def loners(k: int, avoid: set[str], count: int = 7) -> str:
    """``count`` cards no two of which are related (R2.5): rank i in suit (i + k) mod 4, skipping ``avoid``."""
    ranks = "23456789TJQKA"
    picked = [r + SUITS[(i + k) % 4] for i, r in enumerate(ranks)]
    return " ".join([c for c in picked if c not in avoid][:count])


def deal_round_1_winner(t: Table) -> None:
    """4 players: seat 0 holds 6H 7H 5H 7D 2C, seats 1-3 seven cards each (hand and auxiliary cards) no
    two of which are related: they all drop out in round 1 and seat 0 wins with 6H 7H, laying 7D and 5H."""
    mine = "6H 7H 5H 7D 2C"
    taken = set(mine.split())
    others = []
    for k in (1, 2, 3):
        group = loners(k, taken).split()
        taken |= set(group)
        others.append(group)
    t.deal([mine, *(" ".join(g[:5]) for g in others)], [None, *(" ".join(g[5:]) for g in others)])
    t.reveal(0, "6H 7H")
    for seat in (1, 2, 3):
        t.give_up(seat)


def test_r10_8_a_three_players_31_points() -> None:
    """R10.8 (a): 3 players; seat 2 drops out in round 2 (2 points), seat 1 in round 3 (4 points); seat 0
    has 5 revealed cards (2C-6C), lays down 7C and then 7S (a chain, R10.2), never used an auxiliary
    card: 4 x 7 + 3 = 31."""
    t = Table(3)
    t.deal_streams(
        ["2C 3C 4C 5C 7S", "QH QS 2H 5D 9S", "8H 8C 3D 5H JH"],
        ["JD 3H", "6H TD", "KC 9D"],
        ["6C 7C KD", "QD QC 4S", "AS 6D TS"],
        ["9H", "8D", ""],
    )
    t.reveal(0, "2C 3C")
    t.reveal(1, "QH QS")
    t.reveal(2, "8H 8C")
    t.reveal(0, "4C 5C")
    t.reveal(1, "QD QC")
    round_2 = t.give_up(2)
    assert of(round_2, PlayerEliminated) == [
        PlayerEliminated(seat=2, round=2, points=2, hand=cards("3D 5H JH AS 6D TS KC 9D"))
    ]
    t.reveal(0, "6C")
    events = t.give_up(1)
    assert of(events, PlayerEliminated)[0].points == 4
    assert of(events, HandWon) == [
        HandWon(seat=0, laid_down=cards("7C 7S"), revealed_count=7, multiplier=4, bonus=3, points=31)
    ]
    ended = of(events, HandEnded)[0]
    assert ended.hand_points == (31, 4, 2) and ended.totals == (31, 4, 2)
    assert ended.hands == (cards("KD 9H"), (), ())
    assert ended.eliminated_hands == ((), cards("2H 5D 9S 4S 8D 6H TD"), cards("3D 5H JH AS 6D TS KC 9D"))
    assert t.revealed(0) == "2C 3C 4C 5C 6C 7C 7S"


@pytest.mark.parametrize(("aux", "multiplier", "points"), [("2D 9H", 2, 6), ("4S 2D", 1, 4)])
def test_r10_4_the_multiplier_counts_unused_auxiliary_cards(aux: str, multiplier: int, points: int) -> None:
    """R10.3, R10.4: seat 0 finds its pair 2C 2D with its first auxiliary card (one unused: multiplier
    2, 2 x 2 + 2 = 6) or with its second (none unused: 1, 1 x 2 + 2 = 4); seat 1 drops out; nothing is
    laid down.  (Both unused, 4: R10.8.)"""
    t = Table(2)
    t.deal(["2C 5D 8H JS KC", "3C 6D 9S QH AD"], [aux, "TC 4H"])
    while t.legal(0)[0]["kind"] != "reveal":
        t.aux(0)
    t.reveal(0, "2C 2D")
    events = t.give_up(1)
    assert of(events, HandWon) == [
        HandWon(seat=0, laid_down=(), revealed_count=2, multiplier=multiplier, bonus=2, points=points)
    ]


def test_r10_5_all_52_revealed_ends_the_hand_and_raises_the_bonus_factor() -> None:
    """R10.5, R10.6: with 4 players each revealing his whole suit the hand ends when the last extra
    cards are revealed: every card is face up, each scores his 13 revealed cards (no multiplier, no
    bonus) and the next hand's bonus factor is 2."""
    t = Table(4)
    deal_suits(t)
    events = t.auto()
    ended = of(events, HandEnded)[0]
    assert (ended.reason, ended.winner, ended.hand_points, ended.bonus_factor) == (
        "all_revealed",
        None,
        (13, 13, 13, 13),
        2,
    )
    assert of(events, HandWon) == [] and of(events, PlayerEliminated) == []
    assert [t.revealed(s).split()[-1] for s in range(4)] == ["AC", "AD", "AH", "AS"]
    assert t.revealed(0) == "2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC AC"
    assert t.view(None)["bonus_factor"] == 2


def test_r10_8_c_after_an_all_revealed_hand_the_winner_bonus_of_4_players_is_8() -> None:
    """R10.8 (c), R10.6: the previous hand ended with all 52 revealed, 4 players: the next winner's bonus
    is 4 x 2 = 8 (seat 0: 4 revealed cards, multiplier 4: 16 + 8 = 24); then the factor is 1 again."""
    t = Table(4)
    deal_suits(t)
    t.auto()
    deal_round_1_winner(t)
    assert of(t.log, HandStarted)[-1].bonus_factor == 2
    won = of(t.log, HandWon)[-1]
    assert (won.seat, won.revealed_count, won.multiplier, won.bonus, won.points) == (0, 4, 4, 8, 24)
    assert of(t.log, HandEnded)[-1].bonus_factor == 1


def test_r10_6_the_bonus_factor_goes_1_2_3_and_back_to_1() -> None:
    """R10.6: two hands in a row ending by R10.5 make the factor 2, then 3; the next hand won (R10.1)
    pays 4 x 3 = 12 and the factor returns to 1, so the hand after pays 4."""
    t = Table(4, options={"target_score": 1000})
    factors = []
    for _ in range(2):
        deal_suits(t)
        t.auto()
        factors.append(of(t.log, HandEnded)[-1].bonus_factor)
    deal_round_1_winner(t)
    factors.append(of(t.log, HandEnded)[-1].bonus_factor)
    deal_round_1_winner(t)
    assert factors == [2, 3, 1]
    assert [w.bonus for w in of(t.log, HandWon)] == [12, 4]
    assert [e.bonus_factor for e in of(t.log, HandStarted)] == [1, 2, 3, 1]
    assert t.state.totals == (13 + 13 + 28 + 20, 26, 26, 26)


def test_r11_2_a_tie_at_the_top_plays_on() -> None:
    """R11.1, R11.2: with totals 108 and 90 (R12.2) and the target 100, seat 1 wins a hand with 18
    (R10.8 (b) mirrored): 108-108, no winner alone, the match goes on; the next hand, won by seat 0 with
    18, ends the match at 126-108."""
    t = Table(2, initial_totals=(108, 90))
    t.deal(["2D 4S 9C JH KD", "6H 7H 5H 7D 2C"], ["6S QC", "3S 8D"])
    t.reveal(1, "6H 7H")
    t.give_up(0)
    assert t.state.totals == (108, 108) and not SPEC.is_terminal(t.state) and SPEC.needs_deal(t.state)
    assert of(t.log, MatchEnded) == []
    t.deal(["6H 7H 5H 7D 2C", "2D 4S 9C JH KD"], ["3S 8D", "6S QC"])
    t.reveal(0, "6H 7H")
    events = t.give_up(1)
    assert events[-1] == MatchEnded(winner=0, totals=(126, 108))
    assert SPEC.is_terminal(t.state) and t.view(1)["winner"] == 0 and t.view(1)["match_over"]


def test_r11_1_the_match_ends_at_the_target() -> None:
    """R11.1: a total of at least target_score alone at the top ends the match after the hand (here 18
    reaches 18)."""
    t = Table(2, options={"target_score": 18})
    t.deal(["6H 7H 5H 7D 2C", "2D 4S 9C JH KD"], ["3S 8D", "6S QC"])
    t.reveal(0, "6H 7H")
    events = t.give_up(1)
    assert t.names(events)[-3:] == ["HandEnded", "ShuffleRevealed", "MatchEnded"]
    assert events[-1] == MatchEnded(winner=0, totals=(18, 0))


# --------------------------------------------------------------------------- the audit


def replay_commands(log: Sequence[Event], table: Table) -> int:
    """What the audit does: rebuild each command from the recorded events (``command_for``), decide it
    again from a fresh state and check the events are exactly the recorded ones; the number of commands."""
    state = SPEC.initial_state(table.config)
    i = commands = 0
    while i < len(log):
        command = SPEC.command_for(state, log, i)
        assert command is not None, (i, log[i])
        events = SPEC.decide(state, command)
        assert list(events) == list(log[i : i + len(events)]), i
        for event in events:
            state = SPEC.evolve(state, event)
        i += len(events)
        commands += 1
    return commands


def record(table: Table) -> list[dict[str, Any]]:
    """The table's record: TableCreated, SeatTaken per seat, the game events; hash-chained."""
    entries: list[tuple[str, dict[str, Any]]] = [
        (
            "TableCreated",
            {
                "game": "romis",
                "seats": table.n,
                "options": dict(table.config.options),
                "first_dealer": None,
                "initial_totals": list(table.config.initial_totals or ()),
                "manual_deal": True,
            },
        )
    ]
    for seat in range(table.n):
        token = hashlib.sha256(f"token-{seat}".encode()).hexdigest()
        entries.append(
            ("SeatTaken", {"seat": seat, "name": table.config.seats[seat].name, "bot": None, "token_hash": token})
        )
    entries += [(e.event_name(), to_payload(e)) for e in table.log]
    return json.loads(json.dumps(chain_record("t-romis", "romis", entries)))  # type: ignore[no-any-return]


def mid_match() -> Table:
    """A match audited from its middle (R12.2, R12.3): totals 40 and 55, bonus factor 3 carried; hand 1 is
    R10.8 (b), won with 4 x 4 + 2 x 3 = 22, hand 2 a seeded deal played out."""
    t = Table(2, options={"carried_bonus_factor": 3}, initial_totals=(40, 55))
    t.deal(["6H 7H 5H 7D 2C", "2D 4S 9C JH KD"], ["3S 8D", "6S QC"])
    t.reveal(0, "6H 7H")
    t.give_up(1)
    t.seeded("5e" * 32)
    t.auto()
    return t


def test_r12_2_r12_3_command_for_rebuilds_every_command_of_a_mid_match_record() -> None:
    """Section 8, audit: MatchStarted/HandStarted give next_hand, AuxiliaryUsed use_auxiliary,
    SubmissionSealed (its private payload) reveal or cannot; deciding them again gives exactly the
    recorded events; the carried factor 3 makes the first winner's bonus 2 x 3 = 6 (R10.6, R12.3)."""
    t = mid_match()
    assert of(t.log, HandWon)[0].points == 4 * 4 + 6
    assert of(t.log, HandEnded)[0].totals == (62, 55)
    assert replay_commands(t.log, t) >= 6


def test_the_audit_verifies_a_mid_match_record(monkeypatch: pytest.MonkeyPatch) -> None:
    """R3.2, R12.2, R12.3 and the audit (docs/record.md): with romis registered, the record of two hands
    started from totals 40-55 and factor 3 is verified -- both commitments (explicit: empty salt;
    seeded: the seed), every command replayed, every opened submission matching its seal -- and a
    forged sealed payload is found by the seal check and by the replay."""
    monkeypatch.setitem(GAMES, "romis", SPEC)
    t = mid_match()
    lines = record(t)
    report = audit_record(lines)
    assert report.ok, report.summary()
    assert len(report.results) == 2 and report.hands_verified == 2
    assert [r.totals for r in report.results][:1] == [(62, 55)]
    assert report.totals == of(t.log, HandEnded)[-1].totals
    forged = [dict(line) for line in lines]
    index = next(i for i, line in enumerate(forged) if line.get("name") == "SubmissionSealed")
    forged[index]["payload"] = dict(
        forged[index]["payload"], payload={"kind": "reveal", "cards": ["5H", "6H"], "companions": []}
    )
    rechained = json.loads(
        json.dumps(chain_record("t-romis", "romis", [(line["name"], line["payload"]) for line in forged[1:]]))
    )
    bad = audit_record(rechained)
    assert not bad.ok
    found = {(p.name, p.rule, p.kind) for p in bad.problems}
    assert ("SubmissionSealed", "R5.2", "seal") in found, bad.summary()  # the payload no longer hashes to its seal
    assert ("SubmissionSealed", "R5.2", "rules") in found  # the rules seal 5H 6H otherwise
    assert ("RoundResolved", "R5.3", "seal") in found  # the round opened 6H 7H


def test_r7_2_a_drop_out_in_round_4_scores_5() -> None:
    """R7.2: "k + 1 in round k >= 3": seat 1 reveals 2H 3H, 4H 5H and 6H, then in round 4 cannot (7S, 9C,
    JD, KS, 8D, AC fit nothing): 5 points.  Seat 0 reveals 2C to 7C and lays down 8C: 4 x 7 + 2 = 30."""
    t = Table(2)
    t.deal_streams(["2C 3C 4C 5C TD", "2H 3H 9C JD KS"], ["2S 9H", "8D AC"], ["6C 7C QD", "4H 5H 7S"], ["8C", "6H"])
    for cards_0, cards_1 in (("2C 3C", "2H 3H"), ("4C 5C", "4H 5H"), ("6C", "6H")):
        t.reveal(0, cards_0)
        t.reveal(1, cards_1)
    t.reveal(0, "7C")
    events = t.give_up(1)
    assert of(events, PlayerEliminated) == [
        PlayerEliminated(seat=1, round=4, points=5, hand=cards("9C JD KS 7S 8D AC"))
    ]
    assert of(events, HandWon)[0].points == 30 and of(events, HandWon)[0].laid_down == ("8C",)
