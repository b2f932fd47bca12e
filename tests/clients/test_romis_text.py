"""Romis's commands and events in words, as each viewer sees them (docs/rules/romis.md sections 8 and 9).

The payloads are written by hand from the table of section 9 (in the form the game's events module
gives it: ``RoundOpened.live``, ``RoundResolved``'s per-seat lists, ``HandEnded.bonus_factor`` for
the next hand), redacted as a viewer receives them: a seat's own sealed payload and cards, ``None``
in their place for the other seats.
"""

from __future__ import annotations

import pytest

from trapoula.clients.text import render_view
from trapoula.domain.games.giminaiciai.text import describe_event as giminaiciai_event
from trapoula.domain.games.romis.text import describe_command, describe_event
from trapoula.domain.games.shedding.text import describe_event as shedding_event

NAMES = ["ann", "bob", "cy"]


def test_r13_commands_in_words() -> None:
    """R13.1 (a plain reveal and a new combination, R8.2), R13.2 and R13.3 as menu lines."""
    assert describe_command({"kind": "reveal", "cards": ["5H", "7D"]}) == "reveal 5♥ 7♦"
    new = {"kind": "reveal", "cards": ["9S"], "companions": ["8S", "9D"]}
    assert describe_command(new) == "reveal 9♠ with 8♠ 9♦ face down (new combination)"
    assert describe_command({"kind": "use_auxiliary"}) == "turn up your next auxiliary card"
    assert describe_command({"kind": "cannot"}) == "cannot reveal"


def test_r12_the_match_is_to_its_target_with_a_carried_bonus_factor() -> None:
    """R12.1 target_score, R12.3 carried_bonus_factor (named only when it is not 1)."""
    started = {"game": "romis", "names": NAMES, "options": {"target_score": 100, "carried_bonus_factor": 1}}
    assert describe_event("MatchStarted", started, NAMES) == "Match of romis: ann, bob, cy, to 100 points"
    carried = {**started, "options": {"target_score": 60, "carried_bonus_factor": 3}}
    assert describe_event("MatchStarted", carried, NAMES) == (
        "Match of romis: ann, bob, cy, to 60 points, bonus factor 3 carried over"
    )
    gimi = {"game": "giminaiciai", "names": NAMES, "options": {"target_score": 200}}  # its R10.1 reads alike
    assert giminaiciai_event("MatchStarted", gimi, NAMES) == "Match of giminaiciai: ann, bob, cy, to 200 points"


def test_r3_the_deal_commitment_and_hand() -> None:
    """R3.2: the commitment is shown, cut to 16 digits; R3.1, R10.6: dealer and bonus factor; R3.3:
    a seat's own five cards in canonical order, another seat's hand not at all; R3.4: the auxiliary
    cards face down, named to their owner (unseen by him too)."""
    committed = {"hand_no": 1, "purpose": "deal", "commitment": "0123456789abcdef" * 4}
    assert describe_event("ShuffleCommitted", committed, NAMES, me=0) == (
        "The deck is shuffled for the deal; commitment 0123456789abcdef…"
    )
    started = {"hand_no": 1, "dealer": 2, "bonus_factor": 1, "explicit_deal": False, "commitment": "0" * 64}
    assert describe_event("HandStarted", started, NAMES, me=0) == "--- hand 1: cy deals (bonus factor 1)"
    assert describe_event("HandStarted", started, NAMES, me=2) == "--- hand 1: you deal (bonus factor 1)"
    own = {"seat": 0, "count": 5, "stage": "hand", "cards": ["AS", "7H", "2C", "KH", "5D"]}
    assert describe_event("CardsDealt", own, NAMES, me=0) == "You are dealt 2♣ 5♦ 7♥ K♥ A♠"
    other = {"seat": 1, "count": 5, "stage": "hand", "cards": None}
    assert describe_event("CardsDealt", other, NAMES, me=0) is None
    assert describe_event("CardsDealt", other, NAMES, me=0, verbose=True) == "bob is dealt 5 cards"
    aux_own = {"seat": 0, "count": 2, "cards": None}
    assert describe_event("AuxiliaryDealt", aux_own, NAMES, me=0) == "You are dealt 2 auxiliary cards face down"
    assert describe_event("AuxiliaryDealt", {**aux_own, "seat": 1}, NAMES, me=0) is None


def test_r4_3_r4_5_obligatory_deals_name_their_stage() -> None:
    """R4.3: three cards after round 1; R4.5: one after round 2; shown to the seat that gets them."""
    first = {"seat": 0, "count": 3, "stage": "first_deal", "cards": ["4H", "2H", "3H"]}
    assert describe_event("CardsDealt", first, NAMES, me=0) == "You are dealt 2♥ 3♥ 4♥ (first obligatory deal)"
    second = {"seat": 1, "count": 1, "stage": "second_deal", "cards": ["QC"]}
    assert describe_event("CardsDealt", second, NAMES, me=1) == "You are dealt Q♣ (second obligatory deal)"
    assert describe_event("CardsDealt", {**second, "cards": None}, NAMES, me=0) is None


def test_r4_rounds_open_with_their_requirement_and_live_seats() -> None:
    """R4.2 and R7.4: round 2 replayed after nobody could reveal; R4.6: one card from round 3, the
    eliminated seat no longer in play."""
    replay = {"round": 2, "attempt": 2, "required": 2, "live": [0, 1, 2]}
    assert describe_event("RoundOpened", replay, NAMES, me=1) == (
        "Round 2 (attempt 2): reveal 2 cards; in play: ann, you, cy"
    )
    later = {"round": 3, "attempt": 1, "required": 1, "live": [0, 2]}
    assert describe_event("RoundOpened", later, NAMES, me=1) == "Round 3: reveal 1 card; in play: ann, cy"


def test_r5_2_a_sealed_submission_shows_its_content_only_to_its_sender() -> None:
    """R5.2: the others read only that the seat has submitted; the sender reads what he sealed
    (a reveal, a new combination with its companions, or cannot)."""
    sealed = {"seat": 2, "round": 1, "attempt": 1, "commitment": "ab" * 32, "payload": None, "nonce": None}
    assert describe_event("SubmissionSealed", sealed, NAMES, me=0) == "cy has submitted (sealed)"
    assert describe_event("SubmissionSealed", sealed, ["ann", "bob", ""], me=0) == "seat 2 has submitted (sealed)"
    mine = {**sealed, "payload": {"kind": "reveal", "seat": 2, "cards": ["5H", "7D"]}, "nonce": "n1"}
    assert describe_event("SubmissionSealed", mine, NAMES, me=2) == "You have submitted (sealed): reveal 5♥ 7♦"
    combination = {**mine, "payload": '{"kind":"reveal","cards":["9S"],"companions":["8S","9D"]}'}
    assert describe_event("SubmissionSealed", combination, NAMES, me=2) == (
        "You have submitted (sealed): reveal 9♠ with 8♠ 9♦ face down (new combination)"
    )
    cannot = {**mine, "payload": {"kind": "cannot", "seat": 2}}
    assert describe_event("SubmissionSealed", cannot, NAMES, me=2) == "You have submitted (sealed): cannot reveal"


def test_r6_an_auxiliary_card_turned_up_names_its_slot_and_card() -> None:
    """R6.1, R6.2: slot 1 first; its owner reads the slot and the card; R6.4: should another viewer
    ever be shown it, slot and card are blanked and it reads as an auxiliary card turned up."""
    used = {"seat": 1, "slot": 1, "card": "7H"}
    assert describe_event("AuxiliaryUsed", used, NAMES, me=1) == "You turned up auxiliary card 1: 7♥"
    assert describe_event("AuxiliaryUsed", {**used, "slot": 2, "card": "9C"}, NAMES, me=1) == (
        "You turned up auxiliary card 2: 9♣"
    )
    assert describe_event("AuxiliaryUsed", {**used, "slot": None, "card": None}, NAMES, me=0) == (
        "bob turned up an auxiliary card"
    )


def test_r5_3_a_resolved_round_lists_each_live_seats_reveal_or_cannot() -> None:
    """R5.3: every live seat's submission opened at once, in seat order; R6.4: the auxiliary slots
    used this round; R8.2, R8.3: a new combination's companions counted, not named; a seat not live
    (None) is left out (R7.3)."""
    resolved = {
        "round": 3,
        "attempt": 1,
        "kinds": ["reveal", "cannot", "reveal", None],
        "cards": [["6H"], [], ["9S"], []],
        "new_combination": [False, False, True, False],
        "companions": [0, 0, 2, 0],
        "auxiliary_slots": [[], [1, 2], [], []],
        "nonces": ["a", "b", "c", None],
    }
    four = [*NAMES, "dee"]
    assert describe_event("RoundResolved", resolved, four, me=2) == (
        "Round 3 resolved: ann reveals 6♥; bob cannot reveal (after turning up auxiliary cards 1 and 2); "
        "you reveal 9♠ and start a new combination with 2 companions face down"
    )
    assert describe_event("RoundResolved", resolved, four, me=0) == (
        "Round 3 resolved: you reveal 6♥; bob cannot reveal (after turning up auxiliary cards 1 and 2); "
        "cy reveals 9♠ and starts a new combination with 2 companions face down"
    )


def test_r5_3_a_replayed_round_one_after_an_auxiliary_card() -> None:
    """R7.4: attempt 2 of round 1; R6.2: a seat that turned up auxiliary card 1 and then revealed
    its pair (R4.2) says so; the other revealed a pair with no auxiliary card."""
    resolved = {
        "round": 1,
        "attempt": 2,
        "kinds": ["reveal", "reveal"],
        "cards": [["4H", "5H"], ["QC", "QS"]],
        "new_combination": [False, False],
        "companions": [0, 0],
        "auxiliary_slots": [[], [1]],
        "nonces": ["a", "b"],
    }
    assert describe_event("RoundResolved", resolved, NAMES, me=0) == (
        "Round 1 (attempt 2) resolved: you reveal 4♥ 5♥; bob reveals Q♣ Q♠ (after turning up auxiliary card 1)"
    )


def test_r7_elimination_and_a_round_nobody_could_reveal() -> None:
    """R7.2: eliminated in round 2 with 2 points; R7.4: nobody could reveal, one extra card each,
    named to its receiver only."""
    out = {"seat": 1, "round": 2, "points": 2, "hand": None}
    assert describe_event("PlayerEliminated", out, NAMES, me=0) == "bob is eliminated in round 2 with 2 points"
    first = {"seat": 0, "round": 1, "points": 0, "hand": ["2C", "9D"]}
    assert describe_event("PlayerEliminated", first, NAMES, me=0) == (
        "You are eliminated in round 1 with 0 points; held 2♣ 9♦"
    )
    assert describe_event("NobodyCouldReveal", {"round": 2, "attempt": 1}, NAMES) == (
        "Nobody could reveal in round 2: everyone gets an extra card and the round is played again"
    )
    extra = {"seat": 2, "count": 1, "stage": "extra", "cards": ["JD"]}
    assert describe_event("CardsDealt", extra, NAMES, me=2) == "You are dealt an extra card: J♦"
    assert describe_event("CardsDealt", {**extra, "cards": None}, NAMES, me=0) == "cy is dealt an extra card"


def test_r9_running_out_of_cards() -> None:
    """R9.1: the eliminated pile shuffled and cut into the stock; R9.3: the live hands gathered and
    dealt again, as many cards each as before."""
    pile = {"hand_no": 1, "purpose": "eliminated_pile", "commitment": "f" * 64}
    assert describe_event("ShuffleCommitted", pile, NAMES) == (
        "The eliminated pile is shuffled and cut to make the stock; commitment ffffffffffffffff…"
    )
    assert describe_event("EliminatedPileRestocked", {"count": 9}, NAMES) == (
        "The eliminated pile (9 cards) becomes the stock"
    )
    redeal = {"hand_no": 1, "purpose": "redeal", "commitment": "e" * 64}
    assert describe_event("ShuffleCommitted", redeal, NAMES) == (
        "The cards in hand are shuffled to be dealt again; commitment eeeeeeeeeeeeeeee…"
    )
    redealt = {"counts": [2, 0, 3], "order": None}  # seat 1 is not live
    assert describe_event("HandCardsRedealt", redealt, NAMES, me=0) == (
        "No card left to deal: the cards in hand are gathered and dealt again (you 2, cy 3)"
    )
    again = {"seat": 1, "count": 2, "stage": "redeal", "cards": None}
    assert describe_event("CardsDealt", again, NAMES, me=0) == "bob is dealt 2 cards (dealt again)"


def test_r10_8_b_the_winner_lays_down_and_scores() -> None:
    """R10.8 (b): 2 players; seat 0 lays 5H and 7D: 4 revealed cards, both auxiliaries unused,
    4 x 4 + 2 = 18."""
    won = {"seat": 0, "laid_down": ["5H", "7D"], "revealed_count": 4, "multiplier": 4, "bonus": 2, "points": 18}
    two = ["ann", "bob"]
    assert describe_event("HandWon", won, two, me=1) == (
        "ann wins the hand, lays down 5♥ 7♦: 4 revealed cards x 4 + bonus 2 = 18 points"
    )
    assert describe_event("HandWon", {**won, "laid_down": []}, two, me=0) == (
        "You win the hand: 4 revealed cards x 4 + bonus 2 = 18 points"
    )
    ended = {"hand_no": 1, "reason": "winner", "winner": 0, "hand_points": [18, 0], "totals": [18, 0],
             "bonus_factor": 1, "hands": [["2C"], []], "eliminated_hands": [[], ["3D"]],
             "auxiliary": [["8C", "JD"], ["KS", "AD"]], "companions": [[], []]}  # fmt: skip
    assert describe_event("HandEnded", ended, two, me=1) == (
        "Hand over (won by ann). Points: ann 18, bob 0. Totals: ann 18, bob 0"
    )


@pytest.mark.parametrize(
    ("reason", "factor", "tail"),
    [("all_revealed", 2, "all 52 cards revealed"), ("stalemate", 1, "stalemate")],
)
def test_r10_5_r10_7_a_hand_without_a_winner(reason: str, factor: int, tail: str) -> None:
    """R10.5: every card revealed raises the next bonus factor to 2 (R10.6), named; R9.4, R10.7: a
    stalemate leaves it at 1, not named."""
    ended = {"reason": reason, "winner": None, "hand_points": [17, 18, 17], "totals": [40, 25, 17],
             "bonus_factor": factor}  # fmt: skip
    bonus = f". Next bonus factor {factor}" if factor != 1 else ""
    assert describe_event("HandEnded", ended, NAMES) == (
        f"Hand over ({tail}). Points: ann 17, bob 18, cy 17. Totals: ann 40, bob 25, cy 17{bonus}"
    )


def test_r3_2_the_shuffle_revealed_is_shown_only_when_verbose() -> None:
    """R3.2, R9.1, R9.3, R10.9: every shuffle's order and salt are published after the hand, in one
    event; a line only in verbose mode."""
    revealed = {"hand_no": 1, "purpose": "deal", "order": ["2C"], "salt": "5a", "later": []}
    assert describe_event("ShuffleRevealed", revealed, NAMES) is None
    assert describe_event("ShuffleRevealed", revealed, NAMES, verbose=True) == "Shuffles revealed: deal, salt 5a"
    revealed = {**revealed, "salt": "", "later": [["eliminated_pile", ["2C"], "6b"], ["redeal", ["3C"], "7c"]]}
    assert describe_event("ShuffleRevealed", revealed, NAMES, verbose=True) == (
        "Shuffles revealed: deal, salt none (explicit deal); eliminated pile, salt 6b; redeal, salt 7c"
    )


def test_other_games_events_of_the_same_names_read_as_before() -> None:
    """Section 9 shares names with other games; each game's own text reads its events, so theirs keep
    their own lines (mau_mau's elimination by total, a shedding hand's commitment)."""
    assert shedding_event("PlayerEliminated", {"seat": 1, "total": 120}, NAMES) == ("bob is eliminated with 120 points")
    shedding = {"hand_no": 2, "dealer": 0, "explicit_deal": True}
    assert shedding_event("HandStarted", shedding, NAMES, me=1) == "--- hand 2: ann deals (explicit deal)"


def _view(**more: object) -> dict[str, object]:
    """Seat 2's view in round 4 of hand 3 (the keys of the game's views module): bob (seat 1) was
    eliminated in round 2; cy has started a new combination (R8.2) and sealed her reveal (R5.2).
    Hand 2 ended with all 52 cards revealed (17 + 18 + 17, R10.5), so hand 3's bonus factor is 2."""
    view: dict[str, object] = {
        "game": "romis",
        "seat": 2,
        "phase": "play",
        "names": NAMES,
        "hand_no": 3,
        "dealer": 0,
        "bonus_factor": 2,
        "target_score": 100,
        "round": 4,
        "attempt": 1,
        "required": 1,
        "live": [0, 2],
        "eliminated": [1],
        "submitted": [2],
        "waiting": [0],
        "hand_sizes": [5, 0, 3],
        "auxiliary_counts": [1, 0, 2],
        "companion_counts": [0, 0, 1],
        "revealed": [["6H", "7H", "5H", "7D", "8H"], ["QC", "QS"], ["KC", "KD", "KS", "QD", "9S"]],
        "stock_count": 14,
        "eliminated_pile_count": 7,
        "last_round": {
            "round": 3,
            "attempt": 1,
            "kinds": ["reveal", None, "reveal"],
            "cards": [["8H"], [], ["9S"]],
            "new_combination": [False, False, True],
            "companions": [0, 0, 1],
            "auxiliary_slots": [[1], [], []],
            "nonces": ["a", None, "c"],
        },
        "hand": ["2C", "4D", "TS"],
        "companions": ["9D"],
        "auxiliary_left": 2,
        "pending": {"kind": "reveal", "cards": ["TS"], "companions": []},
        "totals": [30, 25, 41],
        "hand_over": False,
        "last_hand": {"hand_no": 2, "reason": "all_revealed", "winner": None, "hand_points": [17, 18, 17],
                      "totals": [30, 25, 41], "bonus_factor": 2},
        "legal": [],
    }  # fmt: skip
    view.update(more)
    return view


def test_section_9_a_seats_view_mid_hand() -> None:
    """Section 9 view, R5.4: the public facts of the last resolved round per seat (bob eliminated,
    R7.3); R5.2: who has sealed and who is awaited; the viewer's own companions (R8.3), auxiliary cards
    left (R6) and sealed reveal; then the hand sizes, her hand and the totals."""
    assert render_view(_view()).splitlines() == [
        "Hand 3, dealer ann; bonus factor 2; match to 100 points",
        "Round 4: reveal 1 card",
        "  ann: revealed 6♥ 7♥ 5♥ 7♦ 8♥; 1 auxiliary card",
        "  bob: eliminated",
        "  you: revealed K♣ K♦ K♠ Q♦ 9♠; 2 auxiliary cards; 1 companion face down",
        "Submitted (sealed): you; waiting for: ann",
        "Eliminated pile: 7 cards",
        "Your companions (face down): 9♦",
        "Your auxiliary cards left (unseen): 2",
        "You have submitted (sealed): reveal 10♠",
        "Round 3 resolved: ann reveals 8♥ (after turning up auxiliary card 1); "
        "you reveal 9♠ and start a new combination with 1 companion face down",
        "Stock 14 cards; hands: ann 5, bob 0, cy 3",
        "Your hand (cy): 2♣ 4♦ 10♠",
        "Totals: ann 30, bob 25, cy 41",
    ]


def test_r10_5_a_view_between_hands_names_the_last_hands_end() -> None:
    """R10.5, R10.6: between hands the view shows how the last hand ended and the next bonus factor;
    no round, no seat's cards (R10.9)."""
    between = _view(phase="hand_over", hand_over=True, round=None, dealer=2, hand_sizes=[0, 0, 0], hand=[],
                    stock_count=0, pending=None)  # fmt: skip
    assert render_view(between).splitlines() == [
        "Hand 3, dealer you; bonus factor 2; match to 100 points",
        "Hand over (all 52 cards revealed). Points: ann 17, bob 18, cy 17. Totals: ann 30, bob 25, cy 41. "
        "Next bonus factor 2",
        "Totals: ann 30, bob 25, cy 41",
    ]
