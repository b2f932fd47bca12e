"""Romis su iškritimu: running out of cards (R9) -- the eliminated pile as stock, the short deal, the one
redeal and the stalemate -- and the commitments of those shuffles (R3.2, section 9).

The hands here are built so that every card a seat receives from round 3 on can be revealed at once
(a whole suit, then cards of the ranks already revealed), so that all live seats get stuck together
and keep receiving extra cards until the stock runs out (R7.4)."""

from __future__ import annotations

import hashlib
import hmac

from romis_helpers import Table, cards, clubs_and_hearts, conserved, of, restocked

from trapoula.domain.cards import parse_cards
from trapoula.domain.deal import deck_hash, shuffle
from trapoula.domain.games.romis.events import (
    CardsDealt,
    EliminatedPileRestocked,
    HandCardsRedealt,
    HandEnded,
    HandStarted,
    HandWon,
    NobodyCouldReveal,
    PlayerEliminated,
    RoundOpened,
    ShuffleCommitted,
    ShuffleRevealed,
)


def secret_of(t: Table) -> str:
    """The hand's secret (events.py, sealing): an explicit deal's deck hash."""
    return deck_hash(parse_cards(of(t.log, HandStarted)[-1].deck))


def salt(secret: str, label: str) -> str:
    """hmac_sha256(key = the secret's 32 bytes, msg = label), hex (sealing)."""
    return hmac.new(bytes.fromhex(secret), label.encode(), hashlib.sha256).hexdigest()


def commit(order: tuple[str, ...], salt_text: str) -> str:
    """Section 9: SHA-256 hex of the codes joined by "," + ":" + salt."""
    return hashlib.sha256((",".join(order) + ":" + salt_text).encode()).hexdigest()


def three_suits(extras: tuple[str, str, str]) -> Table:
    """3 players, all staying in: seats 0, 1, 2 reveal clubs, hearts, spades (2-6 in hand, J Q auxiliary,
    7 8 9 and T dealt), then receive ``extras`` one card a round when all are stuck (R7.4)."""
    return clubs_and_hearts(("2S 3S 4S 5S 6S", "JS QS", "7S 8S 9S", "TS"), extras)


def test_r9_1_the_eliminated_pile_becomes_the_stock() -> None:
    """R9.1, R7.3, R3.2: seat 2 drops out in round 1 (his 7 cards, 2S 4D 6S 8D TS QD AS, are the
    eliminated pile); seats 0 and 1 later get stuck together again and again.  When seat 0 has taken the
    stock's last card (AD), the pile is shuffled with the label ``eliminated_pile/1`` and committed (salt
    = HMAC of the label under the hand's secret), and seat 1 gets its top card.  The seven cards fit both
    players, so the hand ends with all 52 revealed (R10.5): 26 each."""
    t = restocked()
    t.auto(until=lambda x: bool(of(x.log, PlayerEliminated)))
    assert [c.code for c in t.state.pile] == list(cards("2S 4D 6S 8D TS QD AS"))
    before = len(t.log)
    t.auto(until=lambda x: bool(of(x.log, EliminatedPileRestocked)))
    assert conserved(t.state)
    events = t.log[before:]
    last = events[events.index(of(events, NobodyCouldReveal)[-1]) :]
    secret = secret_of(t)
    order = tuple(c.code for c in shuffle(parse_cards("2S 4D 6S 8D TS QD AS"), secret, "eliminated_pile/1"))
    assert last == [
        NobodyCouldReveal(round=21, attempt=1),
        ShuffleCommitted(
            hand_no=1, purpose="eliminated_pile", commitment=commit(order, salt(secret, "eliminated_pile/1"))
        ),
        EliminatedPileRestocked(count=7, order=order),
        CardsDealt(seat=0, count=1, stage="extra", cards=("AD",)),
        CardsDealt(seat=1, count=1, stage="extra", cards=order[:1]),
        RoundOpened(round=21, attempt=2, required=1, live=(0, 1)),
    ]
    done = t.auto()
    ended = of(done, HandEnded)[0]
    assert (ended.reason, ended.hand_points, ended.bonus_factor) == ("all_revealed", (26, 26, 0), 2)
    (revealed,) = of(done, ShuffleRevealed)
    assert revealed.later == (("eliminated_pile", order, salt(secret, "eliminated_pile/1")),)
    assert (revealed.purpose, revealed.salt) == ("deal", "")


def test_r9_2_a_short_extra_deal_serves_only_the_first_seats() -> None:
    """R9.2, R7.1, R7.2, R10.1: 3 players; after the obligatory cards 19 are left, 6 extra rounds use 18,
    and the 7th gives the last card (6D) to seat 0 only.  In the replay seat 0 reveals it, seats 1 and 2
    cannot and drop out in round 16 with 17 points each (k + 1); seat 0 wins with 18 revealed cards,
    both auxiliary cards used: 1 x 18 + 3 = 21."""
    t = three_suits(("KC AC 2D 3D 4D 5D 6D", "KH AH 7D 8D 9D TD", "KS AS JD QD KD AD"))
    t.auto(until=lambda x: x.state.round == 16 and x.state.attempt == 2)
    short = t.log[t.log.index(of(t.log, NobodyCouldReveal)[-1]) :]
    assert short == [
        NobodyCouldReveal(round=16, attempt=1),
        CardsDealt(seat=0, count=1, stage="extra", cards=("6D",)),
        RoundOpened(round=16, attempt=2, required=1, live=(0, 1, 2)),
    ]
    done = t.auto()
    assert [(e.seat, e.round, e.points) for e in of(done, PlayerEliminated)] == [(1, 16, 17), (2, 16, 17)]
    assert of(done, HandWon) == [HandWon(seat=0, laid_down=(), revealed_count=18, multiplier=1, bonus=3, points=21)]
    assert of(done, HandEnded)[0].hand_points == (21, 17, 17)


def test_r9_3_r9_4_one_redeal_then_a_stalemate_that_keeps_the_bonus_factor() -> None:
    """R9.3, R9.4, R10.6, R10.7: as in R9.2 but the last card, AD, fits nothing of seat 0 (no ace, no KD
    revealed): nobody can reveal and no card is left, so the live hands (AD alone) are shuffled with the
    label ``redeal`` and dealt again -- AD back to seat 0 -- and the round replayed; nobody can reveal
    again, and as the hand was redealt once it ends in a stalemate: each scores his 17 revealed cards, no
    bonus, and the carried bonus factor 2 stays 2."""
    t = three_suits(("KC 2D 3D 4D 5D 6D AD", "KH AH 7D 8D 9D TD", "KS AS JD QD KD AC"))
    t.auto(until=lambda x: bool(of(x.log, HandCardsRedealt)))
    secret = secret_of(t)
    redeal = t.log[t.log.index(of(t.log, NobodyCouldReveal)[-1]) :]
    assert redeal == [
        NobodyCouldReveal(round=16, attempt=2),
        ShuffleCommitted(hand_no=1, purpose="redeal", commitment=commit(("AD",), salt(secret, "redeal"))),
        HandCardsRedealt(counts=(1, 0, 0), order=("AD",)),
        CardsDealt(seat=0, count=1, stage="redeal", cards=("AD",)),
        RoundOpened(round=16, attempt=3, required=1, live=(0, 1, 2)),
    ]
    done = t.auto()
    assert t.names(done)[-5:] == [
        "SubmissionSealed",
        "RoundResolved",
        "NobodyCouldReveal",
        "HandEnded",
        "ShuffleRevealed",
    ]
    ended = of(done, HandEnded)[0]
    assert (ended.reason, ended.winner, ended.hand_points, ended.bonus_factor) == ("stalemate", None, (17, 17, 17), 1)
    assert ended.hands == (("AD",), (), ())
    (revealed,) = of(done, ShuffleRevealed)
    assert (revealed.purpose, [purpose for purpose, _, _ in revealed.later]) == ("deal", ["redeal"])
    assert revealed.later[0][1:] == (("AD",), salt(secret, "redeal"))


def test_r9_4_a_stalemate_leaves_a_carried_bonus_factor_unchanged() -> None:
    """R10.6: "unchanged by a stalemate": the R9.4 hand started with the factor 2 (R12.3) ends with 2."""
    t = Table(3, options={"carried_bonus_factor": 2})
    t.deal_streams(
        ["2C 3C 4C 5C 6C", "2H 3H 4H 5H 6H", "2S 3S 4S 5S 6S"],
        ["JC QC", "JH QH", "JS QS"],
        ["7C 8C 9C", "7H 8H 9H", "7S 8S 9S"],
        ["TC", "TH", "TS"],
        ("KC 2D 3D 4D 5D 6D AD", "KH AH 7D 8D 9D TD", "KS AS JD QD KD AC"),
    )
    ended = of(t.auto(), HandEnded)[0]
    assert (ended.reason, ended.bonus_factor) == ("stalemate", 2)
    assert t.view(None)["bonus_factor"] == 2


TWO_SEATS = (
    ["AC AD AH AS KC"],
    ["4D 4H", "QD QH"],
    ["3D 3H 3S", "KD KH KS"],
    ["4C", "QC"],
    ["4S 5D 5H 5S 6D 6C 6H 6S 7C 7D 7H 7S 8D 8H JC", "QS JD JH JS TD TC TH TS 9C 9D 9H 9S 8C 8S 5C"],
)
"""2 players: seat 0 reveals 2s to 8s (JC comes last and fits none), seat 1 aces down to 8s (5C comes
last and fits none); with the 52 cards dealt, each is stuck with one card the other could reveal."""


def two_seats(hand_0: str) -> Table:
    t = Table(2)
    hands, aux, first, second, extras = TWO_SEATS
    t.deal_streams([hand_0, *hands], aux, first, second, extras)
    t.auto(until=lambda x: bool(of(x.log, HandCardsRedealt)))
    return t


def test_r9_3_the_redeal_may_give_the_cards_to_the_other_player() -> None:
    """R9.3, R9.6: both stuck with JC (seat 0) and 5C (seat 1), no card left: the two are gathered in
    the seat order after the dealer (JC, 5C), shuffled (``redeal``) and dealt one at a time; with this deal (seat 0's
    hand dealt in the order 2C 2D 2H 3C 2S) the shuffle puts 5C first: seat 0 gets 5C (next to 5D), seat
    1 gets JC (same rank as JD), both reveal and all 52 cards are revealed (R10.5)."""
    t = two_seats("2C 2D 2H 3C 2S")
    secret = secret_of(t)
    order = tuple(c.code for c in shuffle(parse_cards("JC 5C"), secret, "redeal"))
    assert order == ("5C", "JC")
    assert of(t.log, HandCardsRedealt) == [HandCardsRedealt(counts=(1, 1), order=order)]
    assert [(e.seat, e.cards) for e in of(t.log, CardsDealt) if e.stage == "redeal"] == [(0, ("5C",)), (1, ("JC",))]
    assert conserved(t.state)
    ended = of(t.auto(), HandEnded)[0]
    assert (ended.reason, ended.hand_points) == ("all_revealed", (26, 26))


def test_r9_3_at_most_one_redeal_per_hand() -> None:
    """R9.3, R9.4: with seat 0's hand dealt as 2C 2D 2H 2S 3C the redeal shuffle leaves JC first: each
    gets his own card back, nobody can reveal, and there is no second redeal: a stalemate, 25 each."""
    t = two_seats("2C 2D 2H 2S 3C")
    assert [(e.seat, e.cards) for e in of(t.log, CardsDealt) if e.stage == "redeal"] == [(0, ("JC",)), (1, ("5C",))]
    done = t.auto()
    assert of(done, HandCardsRedealt) == []
    ended = of(done, HandEnded)[0]
    assert (ended.reason, ended.hand_points) == ("stalemate", (25, 25))


def test_r9_5_an_obligatory_deal_is_refilled_from_the_eliminated_pile() -> None:
    """R9.5, R7.4, R9.1: 4 players whose cards are pairwise unrelated (rank i in suit i + k) all
    fail round 1 five times and receive five extra cards each; in the sixth attempt seats 0 (QH KH) and
    1 (QS QC) reveal, seats 2 and 3 drop out.  The first deal (R4.3) needs 6 cards, the stock holds 4
    (KS, AC, KC, AD): the eliminated pile (24 cards) is shuffled into the stock for the last two."""
    ranks = "23456789TJQKA"

    def group(k: int) -> list[str]:
        return [r + "CDHS"[(i + k) % 4] for i, r in enumerate(ranks)]

    seat_0 = [*group(0)[:11], "KH"]
    seat_1 = [*group(1)[:11], "QC"]
    seat_2 = [c for c in group(2) if c != "QC"]
    seat_3 = [c for c in group(3) if c != "KH"]
    seats = [seat_0, seat_1, seat_2, seat_3]
    t = Table(4)
    extras = [[seats[s][7 + k] for s in range(4)] for k in range(5)]
    t.deal_streams(
        [" ".join(s[:5]) for s in seats], [" ".join(s[5:7]) for s in seats], *extras, ["KS KC", "AC AD", "", ""]
    )
    t.auto(until=lambda x: x.state.attempt == 6)
    assert [len(h) for h in t.state.hands] == [12, 12, 12, 12] and not t.state.stock[4:]
    t.reveal(0, "QH KH")
    t.reveal(1, "QS QC")
    t.cannot(2)
    events = t.cannot(3)
    assert [(e.seat, e.points) for e in of(events, PlayerEliminated)] == [(2, 0), (3, 0)]
    order = of(events, EliminatedPileRestocked)[0].order
    assert sorted(order) == sorted(seat_2 + seat_3)
    assert order == tuple(
        c.code for c in shuffle(parse_cards(" ".join(seat_2 + seat_3)), secret_of(t), "eliminated_pile/1")
    )
    assert t.names(events)[-5:] == [
        "ShuffleCommitted",
        "EliminatedPileRestocked",
        "CardsDealt",
        "CardsDealt",
        "RoundOpened",
    ]
    assert [(e.seat, e.stage, e.cards) for e in of(events, CardsDealt)] == [
        (0, "first_deal", ("KS", "KC", order[0])),
        (1, "first_deal", ("AC", "AD", order[1])),
    ]
    assert conserved(t.state) and len(t.state.stock) == 22
