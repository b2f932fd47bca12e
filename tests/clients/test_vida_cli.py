"""Vida through the command line (docs/rules/vida.md): a demo of four bots over gRPC whose record
verifies, ``trapoula play`` with bids typed like ``90H`` and three cards typed for the open-vida
give (locally and at a server), ``trapoula replay`` and ``verify`` of a Vida record, ``trapoula
games``, and the words the terminal uses for Vida's commands and events."""

from __future__ import annotations

import io
import re
from pathlib import Path
from typing import Any

import pytest
from cli_helpers import Person, demo_record, game_block, position_of, replayed, screens, verified
from vida_helpers import SCORE_A

from trapoula.clients.audit import audit_text
from trapoula.clients.cli import main
from trapoula.clients.table import command_message
from trapoula.clients.text import render_view
from trapoula.domain.games.vida.text import describe_command, describe_event, describe_vida_call

pytestmark = pytest.mark.timeout(300)

SEED = "01" * 32
"""Local deals of ``play``: in the first hand the person (seat 0, the dealer) speaks after an 80
diamonds of his partner, and his 90 hearts wins the auction."""
OPEN_SEED = "02" * 32
"""Local deals of ``play`` with ``open_vida``: the person's 150 spades takes the widow."""
SHORT = ["--target", "300", "--option", "wins_needed=1"]
"""One game to 300 (R6.9, R6.10): a match of a few hands."""


@pytest.fixture(scope="module")
def demo(address: str, tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str]:
    """``trapoula demo --game vida`` to 300 points, one game: (record path, output)."""
    return demo_record(address, tmp_path_factory.mktemp("demo"), ["--game", "vida", *SHORT])


class Bidder(Person):
    """A person at the terminal who reads the prompt before answering (``readline`` only).

    At the first auction prompt of the match it types ``bid``; when asked for the open-vida give
    it first types three copies of one card (refused), then the three cards the help line
    suggests, the first in lower case, the second with ``10`` or a suit symbol; otherwise it
    picks the first menu entry.
    """

    def __init__(self, out: io.StringIO, bid: str, limit: int = 3000) -> None:
        super().__init__(out, limit)
        self.bid = bid
        self.refused_give = False

    def answer(self, text: str, screen: str) -> str:
        if "three cards to give" in screen.splitlines()[-1]:
            suggested = re.findall(r"e\.g\. (\S\S) (\S\S) (\S\S)\n", screen)[-1]
            if not self.refused_give:
                self.refused_give = True
                return f"{suggested[0]} {suggested[0]} {suggested[0]}"
            first, second, third = suggested
            second = ("10" if second[0] == "T" else second[0]) + {"C": "♣", "D": "♦", "H": "♥", "S": "♠"}[second[1]]
            return f"{first.lower()}, {second} {third}"
        if "or bid: type points" in screen and "You bid" not in text:
            return self.bid
        return "1"


# --------------------------------------------------------------------------- demo, verify, replay, games


def test_a_vida_demo_runs_over_grpc_names_the_teams_and_verifies_r6_9(demo: tuple[Path, str]) -> None:
    """R2.3, R6.9, R6.10: the standings name the two teams by their players, the winner first with
    a total above the target; each hand's score is printed; the record verifies offline."""
    path, output = demo
    standings = output.split("final standings:\n", 1)[1].splitlines()[:2]
    first = re.fullmatch(r"  1\. team (\d) \((\w+) and (\w+)\) (\d+)  \(winner\)", standings[0])
    second = re.fullmatch(r"  2\. team (\d) \((\w+) and (\w+)\) (\d+)", standings[1])
    assert first is not None and second is not None, standings
    teams = {first.group(1): first.group(2, 3), second.group(1): second.group(2, 3)}
    assert teams == {"0": ("Anna", "Chrysa"), "1": ("Babis", "Dimos")}
    assert int(first.group(4)) > 300 and int(first.group(4)) > int(second.group(4))
    assert re.search(r"Contract \d+ [♣♦♥♠].* of team \d \(\w+ and \w+\) (made|failed): trick points", output)
    assert re.search(r"Match over: team \d \(\w+ and \w+\) wins, games won team 0 \d, team 1 \d", output)
    assert "record verified" in output
    report = audit_text(path.read_text(encoding="utf-8"))
    assert report.ok and report.game == "vida" and report.match_over, report.summary()
    assert report.winner == int(first.group(1)) and report.totals is not None
    assert report.totals[report.winner] == int(first.group(4))


def test_verify_names_the_teams_and_a_changed_bid_fails(
    demo: tuple[Path, str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``trapoula verify``: exit 0 with the totals and the winner given per team (R2.3); a record
    whose first BidMade has other points fails the hash chain (REC5) with exit 1."""
    path, _ = demo
    text = verified(path, (tmp_path / "changed.jsonl", "BidMade", 10))
    assert re.search(r"totals: team 0 \(Anna and Chrysa\) \d+, team 1 \(Babis and Dimos\) \d+", text), text
    assert re.search(r"match winner: team \d \((Anna and Chrysa|Babis and Dimos)\)", text), text


def test_replay_of_a_vida_record_names_the_seats_and_describes_the_events(demo: tuple[Path, str]) -> None:
    """``trapoula replay`` (piped): every position in words -- the deal, the calls, the contract,
    the tricks, the score (sections 9) -- with the seats named; ``--at N --seat 1`` shows Babis's
    hand and no other."""
    path, _ = demo
    text = replayed(path)
    assert "Match of vida: Anna, Babis, Chrysa, Dimos, games won above 300 points, 1 game to win" in text
    assert re.search(r"--- hand 1 of game 1: (Anna|Babis|Chrysa|Dimos) deals \(commitment [0-9a-f]{16}…\)", text)
    assert re.search(r"(Anna|Babis|Chrysa|Dimos) (bids \d+ [♣♦♥♠]|passes)", text)
    player = r"(Anna|Babis|Chrysa|Dimos) (?:10|[2-9JQKA])[♣♦♥♠]"  # a trick names who played each card (R4.14)
    assert re.search(
        rf"Trick 1: {player}, {player}, {player}, {player}; won by (Anna|Babis|Chrysa|Dimos) \(\d+ points\)", text
    )
    assert re.search(r"Deck revealed; salt [0-9a-f]{64}", text)
    assert "{" not in text.split("start of the match", 1)[1]  # every event has words, none falls back to its dict
    shown = replayed(path, "--at", str(position_of(text, " plays ")), "--seat", "1")
    assert "Your hand (Babis): " in shown and "Teams: team 0 (Anna and Chrysa) v team 1 (you and Dimos)" in shown
    assert re.search(r"Contract \d+ [♣♦♥♠].*; trumps [♣♦♥♠]", shown)
    assert "Anna: " not in shown  # one seat's view: no other hand


@pytest.mark.parametrize("where", ["local", "server"])
def test_games_lists_vida_with_its_options_and_bot_levels(address: str, where: str) -> None:
    """R1.1, section 7, section 12: ``trapoula games`` (``--local`` or a server's ListGames)."""
    block = game_block(address, where, "vida")
    assert block[0].startswith("vida         Vida (4 players): ")
    assert 'open_vida=false, declaration_timing="after_auction"' in block[1]
    assert "target_score=3550, wins_needed=2" in block[1] and "max_bid=1000" in block[1]
    assert block[2].strip() == "bot levels: random, heuristic"


# --------------------------------------------------------------------------- play


def test_play_vida_with_a_typed_bid_to_the_end_of_the_match() -> None:
    """A person bids by typing ``90H`` (R4.3) and passes and plays by menu number; the prompts show
    the teams, the auction, then the contract and trumps, the trick, the hand and the team totals;
    the match is played to its end (R6.10)."""
    out = io.StringIO()
    typed = "85H\n" + "90H\n" + "1\n" * 2000  # 85 is no bid (R4.3): asked again
    code = main(["play", "--game", "vida", "--seed", SEED, *SHORT], out=out, inp=io.StringIO(typed))
    text = out.getvalue()
    assert code == 0, text
    assert "Please type a number from 1 to 1, a bid from 90 to 1000 in tens with a suit (C D H S, e.g. 90H)" in text
    assert "You bid 90 ♥" in text
    assert "Contract: 90 ♥ for team 0 (you and heuristic bot 2), held by you; trumps ♥" in text
    shown = screens(text)
    auction = shown[0]
    assert "Teams: team 0 (you and heuristic bot 2) v team 1 (heuristic bot 1 and heuristic bot 3)" in auction
    assert "\nAuction: heuristic bot 1 pass, heuristic bot 2 80 ♦, heuristic bot 3 pass\n" in auction
    assert "\nHighest bid: 80 ♦ by heuristic bot 2\n" in auction
    assert re.search(r"^Your hand \(you\): ([0-9JQKA]+[♣♦♥♠] ){7}[0-9JQKA]+[♣♦♥♠]$", auction, re.MULTILINE)
    assert "or bid: type points and suit (C D H S), e.g. 90H (from 90, in tens)" in auction
    assert (
        "Totals: team 0 (you and heuristic bot 2) 0, team 1 (heuristic bot 1 and heuristic bot 3) 0 "
        "(a game is won above 300); games won: team 0 0, team 1 0"
    ) in auction
    assert "Stock" not in text and "None" not in text
    playing = next(s for s in shown if "Trick 1: heuristic bot" in s)
    assert "Contract 90 ♥ for team 0 (you and heuristic bot 2), held by you; trumps ♥" in playing
    assert re.search(r"^Trick 1: heuristic bot 1 \S+, heuristic bot 2 \S+, heuristic bot 3 \S+$", playing, re.M)
    assert re.search(r"^  1\) play \S+$", playing, re.MULTILINE)
    assert re.search(r"Contract 90 ♥ of team 0 \(you and heuristic bot 2\) (made|failed): trick points", text)
    assert "Match over: team" in text and "Thanks for playing." in text


def test_play_open_vida_the_person_gives_three_typed_cards_and_declares() -> None:
    """``open_vida`` (R3.4, R5.1) and the Pilotta timing (R5.8): the widow is shown face up; the
    person's 150 spades takes it; three copies of one card are refused (D30: three distinct cards);
    the three cards typed (the first in lower case, the second with its suit symbol) go to the next
    seat, the partner and the seat before;
    ``declare`` is offered before the first card."""
    out = io.StringIO()
    options = ["--option", "open_vida=true", "--option", "declaration_timing=before_first_card"]
    code = main(["play", "--game", "vida", "--seed", OPEN_SEED, *SHORT, *options], out=out, inp=Bidder(out, "150S"))
    text = out.getvalue()
    assert code == 0, text
    assert re.search(r"^Widow \(face up\): \S+ \S+ \S+ \S+$", text, re.MULTILINE)
    assert "Contract: 150 ♠ for team 0 (you and heuristic bot 2), held by you; trumps ♠" in text
    exchange = next(s for s in screens(text) if "three cards to give" in s)
    assert re.search(r"^You took the widow \S+ \S+ \S+ \S+$", exchange, re.MULTILINE)
    assert re.search(r"^Your hand \(you\): (\S+ ){10}\S+$", exchange, re.MULTILINE)  # 7 + the widow
    assert (
        "give three cards: type them in order, the first to heuristic bot 1, the second to heuristic bot 2 "
        "(your partner), the third to heuristic bot 3" in exchange
    )
    assert "Please type three different cards of your hand (e.g. 7C 8D TS), or q." in text
    gifts = re.findall(r"You give (\S+) to (heuristic bot \d)$", text, re.MULTILINE)
    assert [to for _, to in gifts] == ["heuristic bot 1", "heuristic bot 2", "heuristic bot 3"]
    assert re.search(r"^You gave \S+ to heuristic bot 1, \S+ to heuristic bot 2, \S+ to heuristic bot 3$", text, re.M)
    assert "  1) declare your combinations" in text and "You declare " in text and "You declare seq" not in text
    assert "Match over: team" in text


def test_play_vida_at_a_server(address: str) -> None:
    """``trapoula play --address``: the same session with the server's bots (RemoteSession)."""
    out = io.StringIO()
    typed = "90H\n" + "1\n" * 2000
    code = main(["play", "--game", "vida", "--address", address, *SHORT], out=out, inp=io.StringIO(typed))
    text = out.getvalue()
    assert code == 0, text
    assert "Teams: team 0 (you and heuristic bot 2) v team 1 (heuristic bot 1 and heuristic bot 3)" in text
    assert "Your hand (you): " in text and "Your move [" in text
    assert re.search(r"Contract: \d+ [♣♦♥♠](, vida x[248])? for team \d", text)  # doubled or not (R4.5)
    assert "Match over: team" in text and "Thanks for playing." in text


# --------------------------------------------------------------------------- words and the wire


def test_vida_commands_and_events_in_words() -> None:
    """Section 8 commands and section 9 events as the terminal says them."""
    names = ["ann", "bob", "cy", "dee"]
    assert describe_command({"kind": "bid", "points": 90, "suit": "H"}) == "bid 90 ♥"
    assert describe_command({"kind": "play", "card": "KH", "belote": True}) == "play K♥ and announce belote"
    assert describe_command({"kind": "give", "cards": ["7C", "TD", "AS"]}) == "give 7♣ 10♦ A♠"
    assert [describe_vida_call(level) for level in range(4)] == [
        "call vida (x2)",
        "call contra vida (x4)",
        "call third vida (x6)",
        "call fourth vida (x8)",
    ]
    contract = {"holder": 0, "team": 0, "points": 80, "suit": "H", "level": 4, "multiplier": 8}
    assert (
        describe_event("AuctionClosed", contract, names, me=2)
        == "Contract: 80 ♥, fourth vida x8 for team 0 (ann and you), held by ann; trumps ♥"
    )
    assert describe_event("VidaCalled", {"seat": 1, "level": 3, "multiplier": 6}, names) == "bob calls third vida (x6)"
    assert describe_event("CardGiven", {"from_seat": 0, "to_seat": 3, "card": None}, names, me=1) == (
        "ann gives a card to dee"
    )
    assert describe_event("CardGiven", {"from_seat": 0, "to_seat": 1, "card": "7C"}, names, me=1) == (
        "ann gives 7♣ to you"
    )
    scored = SCORE_A  # hand A of the vida service tests, with the same contract
    assert describe_event("HandScored", scored, names) == (
        "Contract 80 ♥, fourth vida x8 of team 0 (ann and cy) failed: trick points team 0 71, team 1 91; "
        "declarations team 0 0, team 1 200; belote team 0 20, team 1 0. Hand: team 0 0, team 1 1020. "
        "Totals: team 0 (ann and cy) 0, team 1 (bob and dee) 1020"
    )
    assert describe_event("HandAnnulled", {"reason": "all_passed", "next_dealer": 0}, names, me=0) == (
        "All passed: the hand is annulled; you deal next"
    )
    view = {
        "game": "vida",
        "seat": 1,
        "phase": "auction",
        "names": names,
        "hand_no": 2,
        "game_no": 1,
        "dealer": 0,
        "auction": [{"seat": 1, "call": "bid", "points": 90, "suit": "S"}, {"seat": 2, "call": "vida", "level": 1}],
        "bid": {"seat": 1, "points": 90, "suit": "S"},
        "level": 1,
        "hand": ["7C", "TS"],
        "hand_sizes": [8, 8, 8, 8],
        "to_act": 3,
        "totals": [120, 40],
        "games_won": [0, 1],
        "options": {"target_score": 3550},
    }
    assert render_view(view).splitlines() == [
        "Hand 2 of game 1, dealer ann. Teams: team 0 (ann and cy) v team 1 (you and dee)",
        "Your partner: dee. Order of play: you, cy, dee, ann, ...",
        "Auction: you 90 ♠, cy vida",
        "Highest bid: 90 ♠ by you, vida",
        "Cards in hand: ann 8, bob 8, cy 8, dee 8",
        "To act: dee",
        "Your hand (bob): 7♣ 10♠",
        "Totals: team 0 (ann and cy) 120, team 1 (you and dee) 40 (a game is won above 3550); games won: team 0 0, "
        "team 1 1",
    ]


def test_vida_commands_go_on_the_wire_as_their_messages() -> None:
    """The client's wire form of the section 8 commands (proto Bid, CallVida, GiveCards, Declare,
    PlayCard.belote)."""
    bid = command_message({"kind": "bid", "points": 90, "suit": "H"})
    assert bid.WhichOneof("kind") == "bid" and (bid.bid.points, bid.bid.suit) == (90, "H")
    assert command_message({"kind": "vida"}).WhichOneof("kind") == "vida"
    assert command_message({"kind": "declare"}).WhichOneof("kind") == "declare"
    give = command_message({"kind": "give", "cards": ["7C", "8D", "9S"]})
    assert list(give.give.cards) == ["7C", "8D", "9S"]
    play = command_message({"kind": "play", "card": "KH", "belote": True})
    assert (play.play.card, play.play.belote) == ("KH", True)


def test_r5_2_combinations_are_named_in_words_and_shown_only_in_the_first_trick() -> None:
    """R5.2 and section 11: ``seq4`` reads "quarte", ``carre_J`` "four jacks"; the own combinations
    line is shown during the first trick only (R5.7, R5.8) and says what the comparison made of them."""
    from trapoula.domain.games.vida.text import combination_name

    assert [combination_name(k) for k in ("seq3", "seq4", "seq5", "seq8", "carre_J", "carre_9")] == [
        "tierce",
        "quarte",
        "quint",
        "eighth",
        "four jacks",
        "four nines",
    ]
    view: dict[str, Any] = {
        "game": "vida",
        "seat": 1,
        "phase": "play",
        "names": ["ann", "bob", "cy", "dee"],
        "hand": ["JD", "TD", "9D"],
        "trick_no": 1,
        "combinations": [{"kind": "seq3", "cards": ["JD", "TD", "9D"], "points": 20}],
        "declarations": {"announced": [], "resolution": {"winner_team": 0, "standoff": False, "shown": []}},
    }
    assert "Your combinations: tierce J♦ 10♦ 9♦ (20) - beaten by the other team's" in render_view(view)
    view["trick_no"] = 2
    assert "Your combinations" not in render_view(view)
