"""Romis su iškritimu: auxiliary cards (R6), elimination and rounds where nobody can reveal (R7), new
combinations (R8)."""

from __future__ import annotations

from romis_helpers import Table, cards, of

from trapoula.domain.events import redact, visible
from trapoula.domain.games.romis.commands import Cannot, UseAuxiliary
from trapoula.domain.games.romis.events import (
    AuxiliaryUsed,
    CardsDealt,
    HandEnded,
    HandWon,
    NobodyCouldReveal,
    PlayerEliminated,
    RoundOpened,
    RoundResolved,
)

# Seat 0 finds a pair only with its second auxiliary card (slot 2: 2D next to 2C); seat 1 has none.
NO_PAIR_0 = "2C 5D 8H JS KC"
NO_PAIR_1 = "3C 6D 9S QH AD"


def test_r6_1_r6_2_auxiliary_cards_come_slot_1_first_into_the_hand() -> None:
    """R6.1, R6.2: with no legal reveal the seat turns up slot 1 (4S: still no pair), then slot 2 (2D:
    a pair with 2C); then it must reveal, and a third use is ``no_auxiliary`` (R6.2, listed first in
    R13.2)."""
    t = Table(2)
    t.deal([NO_PAIR_0, NO_PAIR_1], ["4S 2D", "TC 4H"])
    assert t.legal(0) == [{"kind": "use_auxiliary", "seat": 0}]
    assert t.aux(0) == (AuxiliaryUsed(seat=0, slot=1, card="4S"),)
    assert t.legal(0) == [{"kind": "use_auxiliary", "seat": 0}]
    assert t.aux(0) == (AuxiliaryUsed(seat=0, slot=2, card="2D"),)
    assert t.hand(0) == "2C KC 2D 5D 8H 4S JS"
    assert t.legal(0) == [{"kind": "reveal", "seat": 0, "cards": ["2C", "2D"]}]
    t.rejects("no_auxiliary", "R6.2", UseAuxiliary(0))


def test_r6_2_after_an_auxiliary_card_that_helps_he_reveals() -> None:
    """R6.2: "after each one he reveals if he now can": slot 1 (2D) makes a pair with 2C, so slot 2 may
    not be turned up (``reveal_possible``, R6.1) nor ``cannot`` be said (R4.7)."""
    t = Table(2)
    t.deal([NO_PAIR_0, NO_PAIR_1], ["2D 4S", "TC 4H"])
    t.aux(0)
    t.rejects("reveal_possible", "R6.1", UseAuxiliary(0))
    t.rejects("reveal_possible", "R4.7", Cannot(0))
    assert t.state.aux_used[0] == 1


def test_r6_3_cannot_only_after_both_auxiliary_cards() -> None:
    """R6.3: ``cannot`` is ``auxiliary_left`` while an auxiliary card is left; with none left and no
    reveal it is the only legal command, and ``use_auxiliary`` is ``no_auxiliary`` (R6.2)."""
    t = Table(2)
    t.deal([NO_PAIR_0, NO_PAIR_1], ["4S 2D", "TC 4H"])
    t.rejects("auxiliary_left", "R6.3", Cannot(1))
    t.aux(1)
    t.rejects("auxiliary_left", "R6.3", Cannot(1))
    t.aux(1)
    assert t.legal(1) == [{"kind": "cannot", "seat": 1}]
    t.rejects("no_auxiliary", "R6.2", UseAuxiliary(1))


def test_r6_4_an_auxiliary_card_reaches_only_its_owner() -> None:
    """R6.4, R5.4, section 9: ``AuxiliaryUsed`` is withheld from every other seat and from spectators
    (not even redacted); its slot and card are private; the round's resolution makes the slots public."""
    used = AuxiliaryUsed(seat=1, slot=1, card="TC")
    assert visible(used, 1)
    assert not visible(used, 0) and not visible(used, None)
    assert redact(used, 1) == {"seat": 1, "slot": 1, "card": "TC"}
    assert redact(used, 0)["card"] is None and redact(used, 0)["slot"] is None
    t = Table(2)
    t.deal([NO_PAIR_0, NO_PAIR_1], ["4S 2D", "TC 4H"])
    t.aux(0)
    t.aux(0)
    t.reveal(0, "2C 2D")
    t.aux(1)
    t.aux(1)
    events = t.cannot(1)
    assert of(events, RoundResolved)[0].auxiliary_slots == ((1, 2), (1, 2))


def test_r10_8_b_a_round_1_drop_out_scores_0_and_the_winner_lays_down() -> None:
    """R10.8 (b), R7.1, R7.2, R10.2-R10.4: 2 players; seat 1 cannot reveal a pair in round 1 even with
    both auxiliary cards: 0 points.  Seat 0 revealed 6H 7H and holds 5H 7D 2C: he lays 7D and 5H; 4
    revealed cards, both auxiliary cards unused: 4 x 4 + 2 = 18."""
    t = Table(2)
    t.deal(["6H 7H 5H 7D 2C", "2D 4S 9C JH KD"], ["3S 8D", "6S QC"])
    t.reveal(0, "6H 7H")
    events = t.give_up(1)
    assert t.names(events) == [
        "AuxiliaryUsed",
        "AuxiliaryUsed",
        "SubmissionSealed",
        "RoundResolved",
        "PlayerEliminated",
        "HandWon",
        "HandEnded",
        "ShuffleRevealed",
    ]
    assert of(events, PlayerEliminated) == [
        PlayerEliminated(seat=1, round=1, points=0, hand=cards("2D 4S 9C JH KD 6S QC"))
    ]
    assert of(events, HandWon) == [
        HandWon(seat=0, laid_down=cards("7D 5H"), revealed_count=4, multiplier=4, bonus=2, points=18)
    ]
    ended = of(events, HandEnded)[0]
    assert (ended.reason, ended.winner, ended.hand_points, ended.totals, ended.bonus_factor) == (
        "winner",
        0,
        (18, 0),
        (18, 0),
        1,
    )
    assert ended.hands == (cards("2C"), ()) and ended.auxiliary == (cards("3S 8D"), cards("6S QC"))


def test_r7_3_an_eliminated_seats_cards_form_the_eliminated_pile() -> None:
    """R7.3: the seat's revealed cards, then his hand, are set aside face down as the eliminated pile
    (R7.6); his hand is hidden from everybody until the hand ends (section 9)."""
    t = Table(3)
    t.deal(["6H 7H 5H 7D KC", "QS QD 3C 8H 4D", "2C 4S 9D JH KD"], ["2S 9H", "TS 6C", "8S TC"])
    t.reveal(0, "6H 7H")
    t.reveal(1, "QS QD")
    events = t.give_up(2)
    gone = of(events, PlayerEliminated)[0]
    assert gone == PlayerEliminated(seat=2, round=1, points=0, hand=cards("2C 4S 9D JH KD 8S TC"))
    assert [c.code for c in t.state.pile] == list(cards("2C 4S 9D JH KD 8S TC"))
    for viewer in (0, 1, 2, None):
        assert redact(gone, viewer)["hand"] is None
    assert t.view(0)["eliminated"] == [2] and t.view(0)["eliminated_pile_count"] == 7


def test_r7_4_nobody_can_reveal_everybody_gets_an_extra_card_and_the_round_is_replayed() -> None:
    """R7.4: both seats submit ``cannot`` in round 1: nobody is eliminated; each receives one extra card
    in the seat order after the dealer (seat 0: 5S, seat 1: 2S) and round 1 is replayed (attempt 2, 2
    cards).  In the replay seat 0 has a pair (5S with 5D), seat 1 none: seat 1 is eliminated (R7.1)."""
    t = Table(2)
    t.deal([NO_PAIR_0, NO_PAIR_1], ["9C 7C", "TC 4H"], "5S 2S")
    t.give_up(0)
    events = t.give_up(1)
    assert t.names(events)[-6:] == [
        "SubmissionSealed",
        "RoundResolved",
        "NobodyCouldReveal",
        "CardsDealt",
        "CardsDealt",
        "RoundOpened",
    ]
    assert of(events, NobodyCouldReveal) == [NobodyCouldReveal(round=1, attempt=1)]
    assert [(e.seat, e.stage, e.cards) for e in of(events, CardsDealt)] == [
        (0, "extra", ("5S",)),
        (1, "extra", ("2S",)),
    ]
    assert events[-1] == RoundOpened(round=1, attempt=2, required=2, live=(0, 1))
    assert of(events, PlayerEliminated) == []
    assert t.legal(0) == [{"kind": "reveal", "seat": 0, "cards": ["5D", "5S"]}]
    assert t.legal(1) == [{"kind": "cannot", "seat": 1}]
    t.reveal(0, "5D 5S")
    done = t.cannot(1)
    assert of(done, PlayerEliminated)[0].seat == 1
    assert of(done, RoundResolved)[0].attempt == 2
