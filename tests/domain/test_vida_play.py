"""Vida's trick play (R4.9-R4.14, D26-D28), belote (R5.9, D16-D18), the open vida exchange
(R5.1, D30, D31), a whole hand scored (R6.1-R6.7) and malformed commands (section 8)."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from vida_helpers import ALL_CODES, DUTY, FAIL, FAIL_TRICKS, MONO, MONO_TRICKS, Table

from trapoula.domain.errors import CommandRejected, InvalidInput
from trapoula.domain.events import redact
from trapoula.domain.games.vida import SPEC
from trapoula.domain.games.vida.events import (
    AuctionClosed,
    BeloteAnnounced,
    CardGiven,
    CardPlayed,
    DeclarationsResolved,
    HandScored,
    Passed,
    TrickTaken,
    WidowTaken,
)


def duty(suit: str = "H", options: dict[str, Any] | None = None) -> Table:
    """DUTY dealt by seat 3; seat 0 bids 80 in ``suit``, the others pass; seat 0 leads (R4.9)."""
    table = Table(options=options)
    table.deal(DUTY)
    table.calls(f"80{suit}", "pass", "pass", "pass")
    return table


def plays(table: Table, seat: int) -> list[str]:
    """The legal ``play`` commands of a seat as ``card`` or ``card+b`` (with belote)."""
    return [c["card"] + ("+b" if c.get("belote") else "") for c in table.legal(seat) if c["kind"] == "play"]


def test_r4_9_the_seat_after_the_dealer_leads_whoever_holds_the_contract() -> None:
    table = Table()
    table.deal(DUTY)
    table.calls("pass", "80H", "pass", "pass", "pass")
    assert table.state.contract is not None and table.state.contract.holder == 1
    assert table.to_act == 0
    assert table.view(None)["leader"] == 0


def test_r4_9_d1_first_leader_before_dealer() -> None:
    table = duty(options={"first_leader": "before_dealer"})
    assert table.to_act == 2
    assert table.view(2)["trick_no"] == 1


def test_r4_10_to_r4_14_the_duties_of_play_trick_by_trick() -> None:
    table = duty()
    assert plays(table, 0) == ["7D", "8D", "9D", "TH", "AH", "QS", "KS", "AS"]  # the leader plays any card
    assert table.play(0, "AS") == (CardPlayed(0, "AS", 1),)
    # seat 1 holds spades: he must follow (R4.10), with any spade (D28)
    table.rejects("must_follow_suit", "R4.10", table.command("play", 1, card="7H"))
    assert plays(table, 1) == ["7S", "8S", "9S", "TS", "JS"]
    table.play(1, "7S")
    # seat 2 has no spade: he must trump although his partner is winning (R4.11, D26)
    table.rejects("must_trump", "R4.11", table.command("play", 2, card="AC"))
    assert plays(table, 2) == ["9H", "QH", "QH+b", "KH", "KH+b"]
    table.play(2, "QH")
    # seat 3 has no spade: he must trump, and over the queen (R4.12)
    table.rejects("must_overtrump", "R4.12", table.command("play", 3, card="8H"))
    table.rejects("must_trump", "R4.11", table.command("play", 3, card="TC"))
    assert plays(table, 3) == ["JH"]
    events = table.play(3, "JH")
    assert events == (CardPlayed(3, "JH", 1), TrickTaken(1, 3, ("AS", "7S", "QH", "JH"), 11 + 0 + 3 + 20))
    assert table.to_act == 3  # R4.14: the winner leads
    # trick 2, trumps led: follow with a higher trump (R4.10, R4.12)
    table.play(3, "8H")
    table.rejects("must_follow_suit", "R4.10", table.command("play", 0, card="7D"))
    assert plays(table, 0) == ["TH", "AH"]
    table.play(0, "TH")
    # seat 1 cannot beat the ten: he must still play a trump (R4.12, D27)
    table.rejects("must_follow_suit", "R4.10", table.command("play", 1, card="JS"))
    assert plays(table, 1) == ["7H"]
    table.play(1, "7H")
    # seat 2 must over-trump his partner's ten: the nine, not the king (R4.12, D27)
    table.rejects("must_overtrump", "R4.12", table.command("play", 2, card="KH"))
    table.rejects("must_overtrump", "R4.12", table.command("play", 2, card="KH", belote=True))
    assert plays(table, 2) == ["9H"]
    assert table.play(2, "9H")[-1] == TrickTaken(2, 2, ("8H", "TH", "7H", "9H"), 0 + 10 + 0 + 14)
    # trick 3: a free discard without the suit led or a trump (R4.13)
    table.play(2, "AC")
    assert plays(table, 3) == ["8C", "9C", "TC", "JC", "QC"]
    table.play(3, "8C")
    table.rejects("must_trump", "R4.11", table.command("play", 0, card="7D"))
    table.play(0, "AH")
    assert plays(table, 1) == ["TD", "JD", "8S", "9S", "TS", "JS"]
    assert table.play(1, "9S")[-1] == TrickTaken(3, 0, ("AC", "8C", "AH", "9S"), 11 + 0 + 11 + 0)
    view = table.view(None)
    assert view["tricks_won"] == [2, 1]
    assert view["tricks"][0] == {
        "trick_no": 1,
        "leader": 0,
        "winner": 3,
        "cards": ["AS", "7S", "QH", "JH"],
        "points": 34,
    }
    assert (view["trick_no"], view["leader"], view["to_act"], view["trick"]) == (4, 0, 0, [])


def test_r2_2_a_card_of_rank_2_to_6_is_refused_and_a_card_must_be_in_the_hand() -> None:
    table = duty()
    table.rejects("invalid_card", "R2.2", table.command("play", 0, card="2H"))
    table.rejects("invalid_card", "R2.2", table.command("play", 0, card="6S"))
    table.rejects("card_not_in_hand", "R4.10", table.command("play", 0, card="JH"))
    table.rejects("not_your_turn", "R4.1", table.command("play", 1, card="7S"))
    table.rejects("wrong_phase", "R4.1", table.command("bid", 0, points=90, suit="H"))
    table.rejects("wrong_phase", "R4.1", table.command("give", 0, cards=["AS", "KS", "QS"]))


def test_r5_9_belote_is_announced_with_the_first_of_king_and_queen_of_trumps() -> None:
    table = duty()
    table.play(0, "AS")
    table.play(1, "7S")
    assert table.play(2, "QH", belote=True) == (CardPlayed(2, "QH", 1), BeloteAnnounced(2, "QH"))
    assert table.view(0)["belote"] == {"seat": 2, "card": "QH"}
    table.play(3, "JH")
    table.play(3, "8H")
    table.play(0, "TH")
    table.play(1, "7H")
    table.play(2, "9H")
    table.rejects("belote_not_allowed", "R5.9", table.command("play", 2, card="KH", belote=True))  # the second card
    assert "KH+b" not in plays(table, 2) and "KH" in plays(table, 2)


def test_r5_9_d18_belote_not_announced_with_the_first_card_is_lost() -> None:
    table = duty()
    table.play(0, "AS")
    table.play(1, "7S")
    table.play(2, "KH")  # the first of the two, without belote
    assert table.state.belote is None
    table.play(3, "JH")
    table.play(3, "8H")
    table.play(0, "TH")
    table.play(1, "7H")
    table.play(2, "9H")
    table.rejects("belote_not_allowed", "R5.9", table.command("play", 2, card="QH", belote=True))


def test_r5_9_belote_is_refused_on_any_other_card() -> None:
    table = duty()
    table.rejects("belote_not_allowed", "R5.9", table.command("play", 0, card="KS", belote=True))  # not trumps
    table.rejects("belote_not_allowed", "R5.9", table.command("play", 0, card="AH", belote=True))  # not K or Q
    table = duty("D")  # diamonds: seat 2 holds the king, seat 3 the queen
    table.play(0, "AS")
    table.play(1, "7S")
    table.rejects("belote_not_allowed", "R5.9", table.command("play", 2, card="KD", belote=True))
    assert plays(table, 2) == ["KD", "AD"]
    table = duty("S")  # spades: seat 0 holds king and queen
    assert "QS+b" in plays(table, 0) and "KS+b" in plays(table, 0)
    assert table.play(0, "QS", belote=True)[-1] == BeloteAnnounced(0, "QS")


def test_r6_a_capot_hand_is_scored() -> None:
    """MONO, 80 clubs by seat 0: team 0 wins the comparison with two eight-card sequences (200),
    announces belote (20) and takes all eight tricks: 250 (R6.2).  Contract points 470 >= 80 and
    > 0: made; team 0 books 80 + 250 + 200 + 20 = 550 (R6.5)."""
    table = Table()
    table.deal(MONO)
    closing = table.calls("80C", "pass", "pass", "pass")
    assert closing[-1] == DeclarationsResolved(
        winner_team=0,
        standoff=False,
        shown=(
            {"seat": 0, "kind": "seq8", "cards": ("AC", "KC", "QC", "JC", "TC", "9C", "8C", "7C"), "points": 100},
            {"seat": 2, "kind": "seq8", "cards": ("AH", "KH", "QH", "JH", "TH", "9H", "8H", "7H"), "points": 100},
        ),
        tied=None,
        declaration_points=(200, 0),
    )
    events = table.tricks(MONO_TRICKS, belote="KC")
    taken = [e for e in events if isinstance(e, TrickTaken)]
    assert [t.points for t in taken] == [20, 14, 11, 40, 10, 12, 12, 43]
    assert table.names(events[-3:]) == ["TrickTaken", "HandScored", "ShuffleRevealed"]
    assert events[-2] == HandScored(
        contract={"holder": 0, "team": 0, "points": 80, "suit": "C", "level": 0, "multiplier": 1},
        tricks_won=(8, 0),
        trick_points_raw=(162, 0),
        capot_team=0,
        trick_points=(250, 0),
        declaration_points=(200, 0),
        belote_points=(20, 0),
        contract_points=(470, 0),
        contract_made=True,
        hand_points=(550, 0),
        totals=(550, 0),
    )
    view = table.view(1)
    assert (view["phase"], view["hand_over"], view["next_dealer"], view["to_act"]) == ("hand_over", True, 0, None)
    assert (view["hand_points"], view["totals"], view["contract_made"], view["capot_team"]) == (
        [550, 0],
        [550, 0],
        True,
        0,
    )
    assert view["trick_points_raw"] == [162, 0] and view["belote_points"] == [20, 0]
    table.rejects("hand_over", "R4.1", table.command("play", 0, card="7C"))


def test_r6_6_d17_d20_failing_bidders_keep_their_belote_and_the_defenders_book_a_reverse_capot() -> None:
    """FAIL, 80 hearts by seat 1 (team 1), belote announced by seat 1; team 0 wins the comparison
    (80) and every trick.  Contract points 330 / 20: failed.  Team 1 books its belote 20 (D17); team
    0 books 80 + 250 (reverse capot, D20) + 80 = 410 (R6.6)."""
    table = Table()
    table.deal(FAIL)
    table.calls("pass", "80H", "pass", "pass", "pass")
    assert table.state.resolution is not None
    assert table.state.resolution.declaration_points == (80, 0)
    events = table.tricks(FAIL_TRICKS, belote="QH")
    assert [e.points for e in events if isinstance(e, TrickTaken)] == [23, 17, 18, 20, 21, 21, 14, 28]
    scored = next(e for e in events if isinstance(e, HandScored))
    assert (scored.belote_points, scored.contract_points, scored.contract_made) == ((0, 20), (330, 20), False)
    assert (scored.capot_team, scored.trick_points, scored.hand_points) == (0, (250, 0), (410, 20))


def test_r6_7_d24_with_vida_the_belote_goes_to_the_winner_of_the_hand() -> None:
    """FAIL with a vida by seat 2: the defenders win and book 2 x 80 + 250 + 80 + 20 = 510 (R6.7)."""
    table = Table()
    table.deal(FAIL)
    closing = table.calls("pass", "80H", "vida", "pass", "pass", "pass")
    assert AuctionClosed(holder=1, team=1, points=80, suit="H", level=1, multiplier=2) in closing
    events = table.tricks(FAIL_TRICKS, belote="QH")
    scored = next(e for e in events if isinstance(e, HandScored))
    assert (scored.belote_points, scored.contract_made, scored.hand_points) == ((0, 20), False, (510, 0))
    assert scored.contract["multiplier"] == 2


OPEN_DECK = "7C 8C 9C TC JC QC KC AC 7D 8D 9D TD JD QD KD AD 7H 8H 9H TH JH QH KH AH 7S 8S 9S TS JS QS KS AS"
"""Dealt 3-2-2 by seat 3 (R3.4): seat 0 7C 8C 9C JD QD JH QH, seat 1 TC JC QC KD AD KH AH, seat 2
KC AC 7D 7H 8H 7S 8S, seat 3 8D 9D TD 9H TH 9S TS; widow JS QS KS AS."""


def open_table(**options: Any) -> Table:
    table = Table(options={"open_vida": True, **options})
    table.deal_deck(OPEN_DECK)
    return table


def test_r5_1_the_holder_takes_the_widow_and_must_give_three_cards() -> None:
    table = open_table()
    events = table.calls("80S", "pass", "pass", "pass")
    assert events[-3:] == (
        Passed(3),
        AuctionClosed(holder=0, team=0, points=80, suit="S", level=0, multiplier=1),
        WidowTaken(0, ("JS", "QS", "KS", "AS")),
    )
    view = table.view(1)
    assert (view["phase"], view["to_act"], view["hand_sizes"]) == ("exchange", 0, [11, 7, 7, 7])
    assert view["widow"] == [] and view["widow_taken"] == {"seat": 0, "cards": ["JS", "QS", "KS", "AS"]}
    assert len(table.legal(0)) == 11 * 10 * 9
    table.rejects("wrong_phase", "R4.1", table.command("play", 0, card="7C"))  # no play before the give
    table.rejects("not_your_turn", "R4.1", table.command("give", 1, cards=["TC", "JC", "QC"]))
    table.rejects("invalid_card", "R2.2", table.command("give", 0, cards=["6S", "7C", "8C"]))
    table.rejects("card_not_in_hand", "R5.1", table.command("give", 0, cards=["TC", "7C", "8C"]))
    table.rejects("invalid_give", "R5.1", table.command("give", 0, cards=["7C", "8C"]))
    table.rejects("invalid_give", "R5.1", table.command("give", 0, cards=["7C", "7C", "8C"]))
    table.rejects("invalid_give", "R5.1", table.command("give", 0, cards=["7C", "8C", "9C", "JD"]))


def test_r5_1_d31_the_gifts_go_round_and_declarations_come_from_the_final_hands() -> None:
    """Seat 3 receives the nine of clubs and so holds four nines (150); with seat 1's Q-J-T of clubs
    and seat 3's T-9-8 of diamonds team 1 beats seat 0's A-K-Q-J of spades: 20 + 150 + 20 = 190."""
    table = open_table()
    table.calls("80S", "pass", "pass", "pass")
    events = table.give(0, "7C 8C 9C")
    assert events == (
        CardGiven(0, 1, "7C"),
        CardGiven(0, 2, "8C"),
        CardGiven(0, 3, "9C"),
        DeclarationsResolved(
            winner_team=1,
            standoff=False,
            shown=(
                {"seat": 1, "kind": "seq3", "cards": ("QC", "JC", "TC"), "points": 20},
                {"seat": 3, "kind": "carre_9", "cards": ("9C", "9D", "9H", "9S"), "points": 150},
                {"seat": 3, "kind": "seq3", "cards": ("TD", "9D", "8D"), "points": 20},
            ),
            tied=None,
            declaration_points=(0, 190),
        ),
    )
    assert table.hand(0) == "JD QD JH QH JS QS KS AS"
    assert [table.view(s)["received"] for s in range(4)] == [None, "7C", "8C", "9C"]
    assert table.view(0)["given"] == [
        {"to_seat": 1, "card": "7C"},
        {"to_seat": 2, "card": "8C"},
        {"to_seat": 3, "card": "9C"},
    ]
    assert table.view(1)["given"] == []
    assert "8C" not in json.dumps(table.view(1)) and "8C" not in json.dumps(table.view(None))
    assert table.view(None)["gifts"] == [
        {"from_seat": 0, "to_seat": 1},
        {"from_seat": 0, "to_seat": 2},
        {"from_seat": 0, "to_seat": 3},
    ]
    given = events[1]
    assert [redact(given, v)["card"] for v in (0, 1, 2, 3, None)] == ["8C", None, "8C", None, None]
    assert (table.view(0)["phase"], table.to_act) == ("play", 0)


def test_r5_1_d30_widow_cards_may_be_given_away() -> None:
    table = open_table()
    table.calls("80S", "pass", "pass", "pass")
    events = table.give(0, "AS 7C JS")
    assert [e.card for e in events if isinstance(e, CardGiven)] == ["AS", "7C", "JS"]
    assert [e.to_seat for e in events if isinstance(e, CardGiven)] == [1, 2, 3]


def test_r5_1_give_is_refused_without_open_vida() -> None:
    table = duty()
    table.rejects("wrong_phase", "R4.1", table.command("give", 0, cards=["AS", "KS", "QS"]))


@pytest.mark.parametrize(
    "raw",
    [
        {"kind": "shout", "seat": 0},
        {"seat": 0},
        "play",
        {"kind": "bid", "seat": 0, "points": 90},
        {"kind": "bid", "seat": 0, "suit": "H"},
        {"kind": "bid", "seat": 0, "points": "90", "suit": "H"},
        {"kind": "bid", "seat": 0, "points": 90.0, "suit": "H"},
        {"kind": "bid", "seat": 0, "points": True, "suit": "H"},
        {"kind": "bid", "seat": 0, "points": 90, "suit": 3},
        {"kind": "bid", "seat": "0", "points": 90, "suit": "H"},
        {"kind": "pass"},
        {"kind": "pass", "seat": 0, "points": 90},
        {"kind": "vida", "seat": None},
        {"kind": "give", "seat": 0},
        {"kind": "give", "seat": 0, "cards": "7C 8C 9C"},
        {"kind": "give", "seat": 0, "cards": ["7C", "8C", 9]},
        {"kind": "give", "seat": 0, "cards": ["7C", "8C", "1C"]},
        {"kind": "declare", "seat": 0, "kinds": ["seq3"]},
        {"kind": "play", "seat": 0},
        {"kind": "play", "seat": 0, "card": "XX"},
        {"kind": "play", "seat": 0, "card": "10H"},
        {"kind": "play", "seat": 0, "card": 7},
        {"kind": "play", "seat": 0, "card": "KH", "belote": "yes"},
        {"kind": "play", "seat": 0, "card": "KH", "suit": "H"},
    ],
)
def test_section_8_malformed_commands_are_invalid_input(raw: Any) -> None:
    with pytest.raises(InvalidInput):
        SPEC.parse_command(raw)


def test_section_8_payloads_round_trip() -> None:
    for raw in (
        {"kind": "bid", "seat": 0, "points": 90, "suit": "H"},
        {"kind": "pass", "seat": 1},
        {"kind": "vida", "seat": 1},
        {"kind": "give", "seat": 0, "cards": ["7C", "8D", "9S"]},
        {"kind": "declare", "seat": 2},
        {"kind": "play", "seat": 3, "card": "KH", "belote": True},
        {"kind": "play", "seat": 3, "card": "KH"},
    ):
        assert SPEC.command_payload(SPEC.parse_command(raw)) == raw
    assert SPEC.parse_command({"kind": "play", "seat": 3, "card": "KH", "belote": False}) == SPEC.parse_command(
        {"kind": "play", "seat": 3, "card": "KH"}
    )


def _universe(table: Table, seat: int) -> list[Any]:
    """Commands to try at a state: every call, bids on and off the grid, every card with and without
    belote, and gives of the hand's cards and of others."""
    out: list[Any] = [table.command("pass", seat), table.command("vida", seat), table.command("declare", seat)]
    for points in (75, 80, 90, 100, 130, 250, 1000, 1010):
        out.extend(table.command("bid", seat, points=points, suit=suit) for suit in ("C", "D", "H", "S", "X"))
    for card in (*ALL_CODES, "6H"):
        out.append(table.command("play", seat, card=card))
        out.append(table.command("play", seat, card=card, belote=True))
    hand = table.state.hands[seat % 4]
    rng = random.Random(len(table.log))
    for _ in range(40):
        pool = [c.code for c in hand] + list(ALL_CODES)
        out.append(table.command("give", seat, cards=rng.sample(pool, rng.choice((2, 3, 3, 4)))))
    return out


def test_section_8_legal_commands_are_exactly_what_decide_accepts() -> None:
    """At sampled states of random matches (every timing, open vida or not), for every seat and a
    seat out of range: a command is accepted if and only if ``legal_commands`` offers it."""
    for case in range(8):
        rng = random.Random(100 + case)
        table = Table(
            options={
                "open_vida": case % 2 == 1,
                "declaration_timing": "before_first_card" if case % 4 < 2 else "after_auction",
                "target_score": 400,
                "wins_needed": 1,
            }
        )
        while not SPEC.is_terminal(table.state):
            if SPEC.needs_deal(table.state):
                table.seeded(f"{rng.getrandbits(256):064x}")
                continue
            if rng.random() < 0.2:
                for seat in (0, 1, 2, 3, 5):
                    offered = SPEC.legal_commands(table.state, seat)
                    for command in _universe(table, seat):
                        try:
                            SPEC.decide(table.state, command)
                            accepted = True
                        except CommandRejected:
                            accepted = False
                        assert accepted == (command in offered), (case, command)
            actor, acting = table.to_act, SPEC.acting
            assert actor is not None and acting is not None and acting(table.state) == (actor,)  # R4.1
            legal = table.legal(actor)
            table.apply(SPEC.parse_command(rng.choice([c for c in legal if c["kind"] != "bid"] * 8 + legal[:20])))
