"""Romis su iškritimu: new combinations (R8) and their companions."""

from __future__ import annotations

import hashlib

from romis_helpers import Table, cards, of

from trapoula.domain.cards import deck_52
from trapoula.domain.games.romis.commands import Cannot, UseAuxiliary
from trapoula.domain.games.romis.events import RoundResolved, SubmissionSealed
from trapoula.domain.games.romis.sealing import submission_commitment

# Seat 0 reveals 2C 3C, then 4C 5C; in round 3 he holds 9D 9S JH KD QH, none related to 2C-5C.
HANDS = ["2C 3C 9D 9S JH", "2H 3H 4H 5H 6H"]
AUX = ["4S 7D", "TS 8D"]
FIRST = ["4C 5C KD", "7H 8H 9H"]
SECOND = ["QH", "TH"]


def round_2() -> Table:
    t = Table(2)
    t.deal_streams(HANDS, AUX, FIRST, SECOND)
    t.reveal(0, "2C 3C")
    t.reveal(1, "2H 3H")
    return t


def round_3() -> Table:
    t = round_2()
    t.reveal(0, "4C 5C")
    t.reveal(1, "4H 5H")
    return t


def test_r8_1_no_new_combination_before_round_3() -> None:
    """R8.1: a new combination only from round 3 on: companions in round 2 are
    ``new_combination_not_allowed`` (R8.1)."""
    t = round_2()
    t.rejects("new_combination_not_allowed", "R8.1", t.reveal_command(0, "4C 5C", "KD"))


def test_r8_1_r8_2_every_new_combination_is_listed() -> None:
    """R8.1, R8.2, R4.7: in round 3 seat 0 has no card related to 2C 3C 4C 5C but holds 9D-9S and JH-QH:
    each card of a related pair may be revealed with the other as its companion (KD is related to none)."""
    t = round_3()
    assert t.legal(0) == [
        {"kind": "reveal", "seat": 0, "cards": ["9D"], "companions": ["9S"]},
        {"kind": "reveal", "seat": 0, "cards": ["JH"], "companions": ["QH"]},
        {"kind": "reveal", "seat": 0, "cards": ["QH"], "companions": ["JH"]},
        {"kind": "reveal", "seat": 0, "cards": ["9S"], "companions": ["9D"]},
    ]


def test_r8_2_refused_new_combinations() -> None:
    """R8.2, R13.1: a lone card unrelated to the revealed ones is ``not_related`` (R4.6); a companion not
    related to the new card ``not_related`` (R8.2); one not in the hand ``card_not_available`` (R8.2);
    the card itself as companion ``duplicate_cards``."""
    t = round_3()
    t.rejects("not_related", "R4.6", t.reveal_command(0, "9D"))
    t.rejects("not_related", "R8.2", t.reveal_command(0, "9D", "JH"))
    t.rejects("not_related", "R8.2", t.reveal_command(0, "9D", "9S KD"))
    t.rejects("card_not_available", "R8.2", t.reveal_command(0, "9D", "9H"))
    t.rejects("duplicate_cards", "R13.1", t.reveal_command(0, "9D", "9D"))


def test_r8_4_a_possible_new_combination_is_a_legal_reveal() -> None:
    """R8.4, R4.7: while a new combination is possible the seat may not turn up an auxiliary card
    (``reveal_possible``, R6.1) nor submit ``cannot`` (R4.7)."""
    t = round_3()
    t.rejects("reveal_possible", "R6.1", UseAuxiliary(0))
    t.rejects("reveal_possible", "R4.7", Cannot(0))


def test_r8_2_r8_3_the_new_card_is_revealed_its_companions_lie_face_down() -> None:
    """R8.2, R8.3, R5.3: JH is revealed, QH lies face down as its companion: RoundResolved shows the
    new combination and 1 companion, not the companion's card; the owner's view shows it, the other's
    only the count; from the next round revealing the companion is a normal reveal, and a new
    combination is then ``new_combination_not_allowed`` (R8.4)."""
    t = round_3()
    sealed = t.reveal(0, "JH", "QH")
    assert of(sealed, SubmissionSealed)[0].payload == {"kind": "reveal", "cards": ("JH",), "companions": ("QH",)}
    resolved = of(t.reveal(1, "6H"), RoundResolved)[0]
    assert resolved.cards == (("JH",), ("6H",))
    assert resolved.new_combination == (True, False) and resolved.companions == (1, 0)
    assert "QH" not in str(resolved)
    assert t.revealed(0) == "2C 3C 4C 5C JH" and t.hand(0) == "9D KD 9S"
    assert t.view(0)["companions"] == ["QH"]
    assert t.view(1)["companions"] == [] and t.view(1)["companion_counts"] == [1, 0]
    assert t.legal(0) == [{"kind": "reveal", "seat": 0, "cards": ["QH"]}]
    t.rejects("new_combination_not_allowed", "R8.4", t.reveal_command(0, "9D", "9S"))
    t.reveal(0, "QH")
    t.reveal(1, "7H")
    assert t.revealed(0) == "2C 3C 4C 5C JH QH" and t.view(1)["companion_counts"] == [0, 0]
    assert t.legal(0) == [
        {"kind": "reveal", "seat": 0, "cards": ["9D"], "companions": ["9S"]},
        {"kind": "reveal", "seat": 0, "cards": ["9S"], "companions": ["9D"]},
    ]


def test_r8_3_r5_3_the_opened_round_does_not_give_the_companions_away() -> None:
    """R8.3, R5.3, section 9: the resolved round publishes the nonce and the companions digest, with
    which anyone checks the sealed commitment at once; but the digest is salted with a salt derived
    from the hand's secret (kept until the hand ends), so trying the companions the seat could have
    laid -- each card of the deck, any pair -- finds nothing: with the unsalted formula none of them
    gives the published commitment or digest."""
    t = round_3()
    sealed = of(t.reveal(0, "JH", "QH"), SubmissionSealed)[0]
    resolved = of(t.reveal(1, "6H"), RoundResolved)[0]
    digest, nonce_hex = resolved.companion_digests[0], resolved.nonces[0]
    assert digest is not None and nonce_hex == sealed.nonce
    opened = {"kind": "reveal", "cards": ["JH"], "companions": digest}
    assert submission_commitment(0, 3, 1, opened, nonce_hex) == sealed.commitment
    assert sealed.companions_salt is not None
    assert digest == hashlib.sha256(f"QH:{sealed.companions_salt}".encode()).hexdigest()
    deck = [c.code for c in deck_52()]
    guesses = [[c] for c in deck] + [sorted([a, b]) for a in deck for b in deck if a < b]
    for guess in guesses:
        plain = {"kind": "reveal", "cards": ["JH"], "companions": guess}
        assert submission_commitment(0, 3, 1, plain, nonce_hex) != sealed.commitment
        assert hashlib.sha256(f"{','.join(guess)}:".encode()).hexdigest() != digest


def test_r8_2_several_companions_in_any_order_are_sealed_in_canonical_order() -> None:
    """R8.2, R5.6: every non-empty set of the hand cards related to the new card may be its
    companions (9D with 9S, 9H, TD: 7 choices); the command may list them in any order, the sealed
    payload lists them in canonical card order."""
    t = Table(2)
    t.deal_streams(["2C 3C 9D 9S 9H", "2H 3H 4H 5H 6H"], AUX, ["4C 5C TD", "7H 8H 9C"], ["KS", "TH"])
    t.reveal(0, "2C 3C")
    t.reveal(1, "2H 3H")
    t.reveal(0, "4C 5C")
    t.reveal(1, "4H 5H")
    with_9d = [c["companions"] for c in t.legal(0) if c["cards"] == ["9D"]]
    assert with_9d == [["TD"], ["9H"], ["9S"], ["TD", "9H"], ["TD", "9S"], ["9H", "9S"], ["TD", "9H", "9S"]]
    sealed = of(t.reveal(0, "9D", "9S TD 9H"), SubmissionSealed)[0]
    assert sealed.payload["companions"] == cards("TD 9H 9S")
