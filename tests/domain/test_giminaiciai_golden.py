"""What each of Giminaičiai's golden playthroughs (tests/golden/giminaiciai/) was chosen to show is
still there: the files themselves are checked by ``pytest tests/golden``; these checks notice a rules
change that loses what a file shows even after ``--update-golden`` (the points are worked out in the
scenarios' comments of tests/golden/test_playthroughs.py)."""

from __future__ import annotations

from pathlib import Path


def _text(name: str) -> str:
    return (Path(__file__).resolve().parent.parent / "golden" / "giminaiciai" / f"{name}.txt").read_text("utf-8")


def _events(text: str, name: str) -> list[str]:
    """The full payloads of the events called ``name``, in order."""
    head = f"event {name}: "
    return [line[len(head) :] for line in text.splitlines() if line.startswith(head)]


def test_two_players_end_on_exactly_the_target_r9_1() -> None:
    """R3.1 (seat n-1 deals, seat 0 first), R7.1-R7.3 (10 + 1 for 8 cards, 1 per card bob draws after
    she finished), R9.1: 186 + 14 = 200 is at least the target 200."""
    text = _text("two-players-to-200")
    assert '"dealer":1,' in text and '"first_to_act":0' in text
    assert _events(text, "HandLaidDown") == [
        '{"cards_laid":8,"discard":null,"extra_cards":[],"groups":[["5C","3D","4D","5D","5S"],["8D","8H","8S"]],"seat":0}',
        '{"cards_laid":7,"discard":"TC","extra_cards":[],"groups":[["6C","5H","6H","6S"],["QC","KC","AC"]],"seat":1}',
    ]
    scored = _events(text, "PointsScored")
    assert scored[:2] == [
        '{"points":10,"reason":"finishing_bonus","seat":0}',
        '{"points":1,"reason":"extra_card_bonus","seat":0}',
    ]
    assert scored[2:] == ['{"points":1,"reason":"card_taken","seat":0}'] * 3
    assert _events(text, "HandEnded") == [
        '{"hand_no":1,"hand_points":[14,0],"reason":"all_finished","remaining":[[],[]],"totals":[200,190],"winner":0}'
    ]
    assert _events(text, "MatchEnded") == ['{"totals":[200,190],"winner":0}']


def test_three_players_a_lay_down_takes_eleven_extra_pile_cards_r5_3_r7_2() -> None:
    """R5.3: bob's groups from his hand (KD QD AD; 6C-9C with 9H) take 11 pile cards from the top, each
    fitting when taken, the diamonds run turning the corner (R2.5); the starter 4C stays.  R7.2: 19
    cards score 2^12 - 1; R7.3: cy, finished, scores 1 per extra card.  R8.1: all three finish."""
    text = _text("three-players-extra-cards")
    laid = _events(text, "HandLaidDown")
    assert laid[1] == (
        '{"cards_laid":19,"discard":null,"extra_cards":["7D","JD","TD","2D","TH","JH","8H","TC","2C","QH","KS"],'
        '"groups":[["2C","2D","TD","JD","QD","KD","AD","TH","JH","QH","KS"],'
        '["6C","7C","8C","9C","TC","7D","8H","9H"]],"seat":1}'
    )
    after = text.split("event HandLaidDown: " + laid[1], 1)[1]
    scored = _events(after.split("event PlayerFinished", 1)[0], "PointsScored")
    assert scored == [
        '{"points":11,"reason":"card_taken","seat":2}',
        '{"points":4095,"reason":"extra_card_bonus","seat":1}',
    ]
    assert '"discard_pile":["4C"]' in after  # R5.4: the extra cards left the pile from the top
    assert _events(text, "HandEnded") == [
        '{"hand_no":1,"hand_points":[1,4096,26],"reason":"all_finished","remaining":[[],[],[]],'
        '"totals":[1,4096,26],"winner":2}'
    ]
    assert _events(text, "MatchEnded") == ['{"totals":[1,4096,26],"winner":1}']  # R9.1: the highest total


def test_five_players_the_pile_is_turned_over_oldest_card_on_top_r4_6() -> None:
    """R3.5: 16 cards in the stock; R4.6: drawing from the empty stock turns the 14 pile cards over
    without shuffling, the starter 4D (the oldest) becomes the top and is drawn, then 7C and 7D; R4.1:
    dee, alone, plays on and lays his own last discard AS as an extra card (R5.3); R7.3: the turn-over
    scores nothing, the draw after it scores for each of the three finished players."""
    text = _text("five-players-pile-turned-over")
    assert '"stock_count":16' in text.split("## step 2:", 1)[0]
    before = '"discard_pile":["4D","7C","7D","5S","JH","KC","AH","4S","KH","AD","KD","KS","4H","TH"]'
    assert before in text
    assert _events(text, "DiscardPileTurnedOver") == ['{"count":14,"seat":3,"stock_size":14}']
    turned = text.split("event DiscardPileTurnedOver: ", 1)[1]
    assert turned.split("\n")[1] == 'event CardDrawn: {"card":null,"seat":3,"source":"stock","stock_card":"4D"}'
    drawn = _events(turned, "CardDrawn")
    assert [d.split('"stock_card":')[1] for d in drawn[:4]] == ['"4D"}', '"7C"}', '"7D"}', '"5S"}']
    assert turned.split("event CardDiscarded: ", 1)[0].count('"reason":"card_taken"') == 3
    assert _events(text, "HandLaidDown")[-1] == (
        '{"cards_laid":9,"discard":null,"extra_cards":["AS"],"groups":[["2D","2H","2S","AS"],'
        '["6D","7D","5S","6S","7S"]],"seat":3}'
    )
    assert '"card":"AS","seat":3}' in _events(text, "CardDiscarded")[-1]
    assert _events(text, "HandEnded") == [
        '{"hand_no":1,"hand_points":[8,10,6,3,25],"reason":"all_finished","remaining":[[],[],[],[],[]],'
        '"totals":[8,10,6,3,25],"winner":4}'
    ]
