"""Mau Mau: the "Mau" call before the next-to-last card (R5.6)."""

from __future__ import annotations

from mau_mau_helpers import Table, called, drew, missed, names, played, turn

# Two players, up-card 2H; seat 0 plays a chain of aces (R5.5.1) and keeps the turn.
ACES = "AH AD AS AC AH 5C 6C"
OTHER = "2C 3C 4C 5D 6D 7D 8D"
STOCK = "KS QS JH TD"


def table(hand: str = ACES) -> Table:
    t = Table(2)
    t.deal([hand, OTHER], "2H", STOCK)
    return t


def down_to_two() -> Table:
    """Seat 0 has played AH AD AS AH AC and holds 5C 6C, still to act after the ace (R5.5.1)."""
    t = table()
    for card in ("AH", "AD", "AS", "AH", "AC"):
        t.play(0, card)
    assert (t.hand(0), t.to_act, t.active_suit) == ("5C 6C", 0, "C")
    return t


def test_r5_6_2_a_next_to_last_card_played_without_the_call_stands_and_two_cards_follow() -> None:
    t = down_to_two()
    assert t.play(0, "5C") == (played(0, "5C", "C"), missed(0), drew(0, "KS QS", "mau_penalty"), turn(1))
    assert t.hand(0) == "6C QS KS"


def test_r5_6_1_with_the_call_made_first_the_same_play_is_not_punished() -> None:
    t = down_to_two()
    assert t.mau(0) == (called(0),)
    assert t.view(1)["mau_called"] is True
    assert t.play(0, "5C") == (played(0, "5C", "C"), turn(1))
    assert t.hand(0) == "6C"


def test_r5_6_2_after_an_ace_the_penalty_follows_the_play_and_he_must_still_play_or_draw() -> None:
    t = table("AH AD AS AC AH AD 5D")
    for card in ("AH", "AD", "AS", "AC", "AH"):
        t.play(0, card)
    assert t.play(0, "AD") == (played(0, "AD", "D"), missed(0), drew(0, "KS QS", "mau_penalty"))
    assert (t.to_act, t.view(0)["ace_pending"]) == (0, True)  # R5.5.1
    t.rejects("must_play_or_draw", "R5.5.1", t.command("pass", 0))
    assert t.hand(0) == "5D QS KS"


def test_r5_6_4_a_call_covers_the_extra_card_after_an_ace_and_r5_6_6_the_last_card_needs_none() -> None:
    t = table("AH AD AS AC AH AD 5D")
    for card in ("AH", "AD", "AS", "AC"):
        t.play(0, card)
    assert t.mau(0) == (called(0),)  # with three cards: early, never punished (R5.6.3)
    t.play(0, "AH")
    assert t.play(0, "AD") == (played(0, "AD", "D"),)  # leaves one card: the call holds
    events = t.play(0, "5D")
    assert names(events)[:2] == ["CardPlayed", "HandEnded"]
    assert "MauMissed" not in names(t.log)


def test_r5_6_4_a_call_lapses_when_the_turn_ends() -> None:
    t = Table(2)
    t.deal(["5H 6H KC KD QC QD TC", "5C 6C 7C 8C 9C TD JD"], "2H", "4H 3S 3D")
    t.mau(0)
    assert t.draw(0) == (drew(0, "4H"), turn(1))  # the turn ends with the call unused
    assert t.view(0)["mau_called"] is False
    t.draw(1)
    assert t.state.mau_called is False


def test_r5_6_3_calling_early_and_more_than_once_is_never_punished() -> None:
    """R5.6.3: a call with seven cards, and again, is never punished.  Changed by the rules owners'
    answer (R5.6.3-R5.6.4): the repeat is accepted but stores no event (it used to be a second
    ``MauCalled``)."""
    t = table()
    assert t.mau(0) == (called(0),)
    assert t.mau(0) == ()
    assert t.play(0, "AH") == (played(0, "AH", "H"),)
    assert "mau" in t.kinds(0)


def test_r5_6_3_r5_6_4_a_repeated_call_changes_nothing_and_only_the_first_of_a_turn_is_an_event() -> None:
    """R5.6.3-R5.6.4, as the rules owners answered: a call may be repeated any number of times in a
    turn, but a repeat changes nothing: it is accepted like the first (``mau`` stays among the legal
    commands) and stores no event; only the first call of a turn is a ``MauCalled``.  Seat 0 calls,
    calls again (nothing), plays the ace AH (his turn goes on, R5.5.1) and calls again (nothing: the
    call holds for the whole turn, R5.6.4), then draws KS, which ends his turn (R5.5.2); seat 1
    draws; in seat 0's next turn the first call is a ``MauCalled`` again, and its repeat nothing."""
    t = table()
    assert t.mau(0) == (called(0),)
    after_first = t.state
    for _ in range(3):
        assert t.mau(0) == ()
        assert t.state is after_first
        assert "mau" in t.kinds(0)
    assert t.view(0)["mau_called"] is True
    t.play(0, "AH")  # the turn goes on after an ace (R5.5.1)
    assert t.mau(0) == ()
    assert names(t.log).count("MauCalled") == 1
    assert t.draw(0) == (drew(0, "KS"), turn(1))  # the draw ends the turn (R5.5.2); the call lapses (R5.6.4)
    t.draw(1)
    assert (t.to_act, t.view(0)["mau_called"]) == (0, False)
    assert t.mau(0) == (called(0),)
    assert t.mau(0) == ()
    assert names(t.log).count("MauCalled") == 2


def test_r5_6_5_a_call_out_of_turn_is_refused() -> None:
    t = table()
    t.rejects("not_your_turn", "R5.6.5", t.command("mau", 1))
    assert t.kinds(1) == ["leave"]


def test_r5_6_1_a_call_in_an_earlier_turn_does_not_cover_a_later_one() -> None:
    t = Table(2)
    t.deal(["5H 6H KH KD QC QD TC", "5C 6C 7C 8C 9C TD JD"], "2H", "4H 3S 3D 2S 2C")
    t.mau(0)
    t.play(0, "5H")  # six cards left: nothing due, and the call lapses with the turn
    t.draw(1)
    for card in ("6H", "KH"):
        t.play(0, card)
        t.draw(1)
    t.play(0, "KD")
    t.draw(1)
    t.play(0, "QD")
    t.draw(1)
    assert t.hand(0) == "TC QC"
    t.rejects_play("no_match", "R4.1", 0, "TC")
    assert t.play(0, "QC") == (played(0, "QC", "C"), missed(0), drew(0, "2C 3C", "mau_penalty"), turn(1))
