"""Giminaičiai through the command line (docs/rules/giminaiciai.md): a demo of three bots over gRPC whose
record verifies, ``trapoula replay`` and ``verify`` of its record, ``trapoula games``, and ``trapoula
play`` (locally and at a server) with a person who draws, discards and lays down by menu number.

The words of the commands and events are tested in test_giminaiciai_text.py; here they are seen as the
terminal prints them in whole sessions."""

from __future__ import annotations

import io
import random
import re
from pathlib import Path

import pytest
from cli_helpers import CARD, Person, demo_record, game_block, position_of, replayed, screens, verified

from trapoula.clients.audit import audit_text
from trapoula.clients.cli import main
from trapoula.clients.play import LocalSession, play_loop
from trapoula.clients.table import command_message

pytestmark = pytest.mark.timeout(300)

SEED = "03" * 32
"""Local deals of ``play``: with the computer players' choices seeded by ``random.Random(2)``, the
person of :class:`Taker` takes from the pile three times and lays down in both hands of the match."""
SHORT = ["--game", "giminaiciai", "--seats", "3", "--target", "30"]
"""Three players to 30 points (R2.3, R10.1): a match of a few hands."""


@pytest.fixture(scope="module")
def demo(address: str, tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str]:
    """``trapoula demo --game giminaiciai --seats 3 --target 30``: (record path, output)."""
    return demo_record(address, tmp_path_factory.mktemp("demo"), SHORT)


TAKES = 3
"""How many times the :class:`Taker` takes a card from the discard pile in a session."""


class Taker(Person):
    """A person at the terminal who lays down whenever the menu offers it (the first such entry, R5);
    before his draw he takes the card last discarded when it has the rank of a card he holds (R4.2,
    R6.1), at most :data:`TAKES` times in a session, else draws from the stock; after the draw he
    discards the first card offered (R4.4)."""

    def __init__(self, out: io.StringIO, limit: int = 5000) -> None:
        super().__init__(out, limit)
        self.laid = 0
        self.taken = 0

    def answer(self, text: str, screen: str) -> str:
        down = re.search(r"^  (\d+)\) lay down ", screen, re.MULTILINE)
        if down is not None:
            self.laid += 1
            return down.group(1)
        if "  2) take the top card of the discard pile" in screen and self.taken < TAKES:
            discarded = re.findall(rf"discards? ({CARD})$", text, re.MULTILINE)
            hand = re.search(r"^Your hand \(you\): (.*)$", screen, re.MULTILINE)
            if discarded and hand and discarded[-1][:-1] in {c[:-1] for c in hand.group(1).split()}:
                self.taken += 1
                return "2"
        return "1"


# --------------------------------------------------------------------------- demo, verify, replay, games


def test_a_giminaiciai_demo_runs_over_grpc_and_its_record_verifies_r9_1(demo: tuple[Path, str]) -> None:
    """R8, R9.1: each hand's points and totals are printed; the standings put the winner first, alone
    on the highest total, at least the target 30; the record verifies offline."""
    path, output = demo
    hands = re.findall(r"Hand over \((all finished|stalled|piles exhausted)\)\. Points: (.*)\. Totals: (.*)", output)
    assert hands, output
    standings = output.split("final standings:\n", 1)[1].splitlines()[:3]
    rows = [re.fullmatch(r"  (\d)\. (\w+) (\d+)(  \(winner\))?", line) for line in standings]
    assert all(rows), standings
    names = [row.group(2) for row in rows if row]
    totals = [int(row.group(3)) for row in rows if row]
    assert sorted(names) == ["Anna", "Babis", "Chrysa"] and rows[0] is not None and rows[0].group(4)
    assert totals[0] >= 30 and totals[0] > totals[1] >= totals[2]  # R9.1, R9.2: one player alone on top
    last_totals = dict(part.rsplit(" ", 1) for part in hands[-1][2].split(", "))
    assert {name: int(v) for name, v in last_totals.items()} == dict(zip(names, totals, strict=True))
    assert re.search(r"Match over: (Anna|Babis|Chrysa) wins", output)
    assert "record verified" in output
    report = audit_text(path.read_text(encoding="utf-8"))
    assert report.ok and report.game == "giminaiciai" and report.match_over, report.summary()
    assert report.hands == len(hands)
    assert report.winner is not None and report.totals is not None and report.totals[report.winner] == totals[0]


def test_verify_prints_the_totals_and_a_changed_score_fails(
    demo: tuple[Path, str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``trapoula verify``: exit 0 with the totals and the winner; a record whose first PointsScored
    has other points fails the hash chain (REC5) with exit 1."""
    path, _ = demo
    text = verified(path, (tmp_path / "changed.jsonl", "PointsScored", 1))
    assert re.search(r"totals: Anna \(seat 0\) \d+, Babis \(seat 1\) \d+, Chrysa \(seat 2\) \d+", text), text
    assert re.search(r"match winner: (Anna \(seat 0\)|Babis \(seat 1\)|Chrysa \(seat 2\))", text), text


def test_replay_of_a_giminaiciai_record_describes_every_event(demo: tuple[Path, str]) -> None:
    """``trapoula replay`` (piped): every position in words -- the deal, the starter, the draws from
    both piles, the discards, the lay-downs, the points and the end of each hand (section 9), with the
    seats named; ``--at N --seat 1`` shows Babis's hand and no other."""
    path, _ = demo
    text = replayed(path)
    assert "Match of giminaiciai: Anna, Babis, Chrysa, to 30 points" in text
    assert re.search(r"--- hand 1: Chrysa deals \(commitment [0-9a-f]{16}…\)", text)  # R3.1: seat n-1 deals
    assert re.search(rf"Up-card {CARD}", text)  # R3.4
    assert re.search(rf"(Anna|Babis|Chrysa) draws from the stock \({CARD}\)", text)  # the omniscient replay
    assert re.search(rf"(Anna|Babis|Chrysa) discards {CARD}", text)
    assert re.search(rf"(Anna|Babis|Chrysa) lays down {CARD}.* \(\d+ cards", text)
    assert re.search(r"(Anna|Babis|Chrysa) scores 10 \(finishing bonus\)", text)  # R7.1
    assert "{" not in text.split("start of the match", 1)[1]  # every event has words, none falls back to its dict
    shown = replayed(path, "--at", str(position_of(text, " discards ")), "--seat", "1")
    assert re.search(rf"Your hand \(Babis\): ({CARD} ?)+", shown), shown
    assert "Anna: " not in shown and "Chrysa: " not in shown  # one seat's view: no other hand


@pytest.mark.parametrize("where", ["local", "server"])
def test_games_lists_giminaiciai_with_its_option_and_bot_levels(address: str, where: str) -> None:
    """R2.3 (2-6 players), section 7 (``target_score`` 200, R10.1) and the computer players:
    ``trapoula games`` (``--local`` or a server's ListGames)."""
    block = game_block(address, where, "giminaiciai")
    assert block[0].startswith("giminaiciai  Giminaičiai (2-6 players): ")
    assert block[1].strip() == "options: target_score=200"
    assert block[2].strip() == "bot levels: random, heuristic"


# --------------------------------------------------------------------------- play


def test_play_giminaiciai_by_menu_numbers_takes_from_the_pile_and_lays_down() -> None:
    """A person (seat 0, against two heuristic players with seeded choices) draws from both piles
    (R4.2), discards (R4.4) and lays down (R5) by menu number: a card taken from the pile is not offered
    as a discard (R4.5); his lay-down of 7 cards and a discard scores nothing when he is not the first
    (R7.1, R7.2); the deal passes to him in hand 2 (R3.7); the match ends at the target (R9.1)."""
    out = io.StringIO()
    person = Taker(out)
    session = LocalSession("giminaiciai", 3, "heuristic", {"target_score": 30}, seed=SEED, rng=random.Random(2))
    assert play_loop(session, person, out) == 0
    text = out.getvalue()
    shown = screens(text)
    first = shown[0]
    assert "  1) draw from the stock\n  2) take the top card of the discard pile\n" in first
    assert re.search(rf"^Your hand \(you\): ({CARD} ){{6}}{CARD}$", first, re.MULTILINE), first
    assert "You take 6♣ from the discard pile" in text
    after_take = next(s for s in shown if "Your hand (you): 6♣ J♣ A♣ 10♥ K♥ 6♠ 8♠ J♠" in s)
    assert "  1) discard J♣\n" in after_take and "discard 6♣" not in after_take  # R4.5
    assert "  9) lay down 10♦ 10♥ 10♠ J♠ | 6♠ 7♠ 8♠, discard K♥" in text
    assert ": You lay down 10♦ 10♥ 10♠ J♠ | 6♠ 7♠ 8♠ (7 cards, discarding K♥)\n" in text
    assert person.laid == 2 and person.taken == TAKES
    ended = re.findall(r"^Hand over \(all finished\)\. Points: you (\d+), .*\. Totals: you (\d+), ", text, re.MULTILINE)
    assert ended == [("0", "0"), ("0", "0")]  # never first to lay down, never more than 7 cards
    assert "--- hand 2: you deal" in text  # hand 1 was dealt by seat 2
    final = re.search(r"^Match over: (heuristic bot \d) wins$", text, re.MULTILINE)
    assert final is not None
    totals = re.findall(r"^Totals: you 0, heuristic bot 1 (\d+), heuristic bot 2 (\d+)$", text, re.MULTILINE)[-1]
    assert max(int(t) for t in totals) >= 30 and totals[0] != totals[1]
    assert "Thanks for playing." in text and "None" not in text


def test_trapoula_play_giminaiciai_to_the_end_of_the_match() -> None:
    """``trapoula play --game giminaiciai`` (locally, deals from ``--seed``): the person's menu offers
    both draws, then a discard of each card he holds (R4.2, R4.4); the match is played to its end."""
    out = io.StringIO()
    code = main(["play", *SHORT, "--seed", SEED], out=out, inp=Taker(out))
    text = out.getvalue()
    assert code == 0, text[-3000:]
    assert "Match of giminaiciai: you, heuristic bot 1, heuristic bot 2, to 30 points" in text
    assert re.search(rf"Your move \[1-2, q to quit\]: You (draw from the stock \({CARD}\)|take {CARD} from)", text)
    assert re.search(rf"Your move \[1-[89], q to quit\]: You (discard {CARD}|lay down)", text)
    assert re.search(r"^Hand over \((all finished|stalled|piles exhausted)\)\. Points: you \d+", text, re.MULTILINE)
    assert re.search(r"^Match over: (You win|heuristic bot \d wins)$", text, re.MULTILINE)
    assert "Thanks for playing." in text


def test_play_giminaiciai_at_a_server(address: str) -> None:
    """``trapoula play --address``: the same session with the server's bots (RemoteSession)."""
    out = io.StringIO()
    code = main(["play", *SHORT, "--address", address], out=out, inp=Taker(out))
    text = out.getvalue()
    assert code == 0, text[-3000:]
    assert "Your hand (you): " in text and "Your move [" in text and "  1) draw from the stock" in text
    assert re.search(r"Match over: (You win|heuristic bot \d wins)", text) and "Thanks for playing." in text


def test_giminaiciai_commands_go_on_the_wire_as_their_messages() -> None:
    """The client's wire form of R11.1-R11.3 (proto DrawCard.source, DiscardCard, LayDown)."""
    draw = command_message({"kind": "draw", "source": "discard"})
    assert draw.WhichOneof("kind") == "draw" and draw.draw.source == "discard"
    discard = command_message({"kind": "discard", "card": "TS"})
    assert discard.WhichOneof("kind") == "discard" and discard.discard.card == "TS"
    lay = command_message(
        {"kind": "lay_down", "groups": [["4H", "5H", "6H"], ["KC", "KD", "KS"]], "discard": "2C", "extra": 1}
    )
    assert lay.WhichOneof("kind") == "lay_down"
    assert [list(g.cards) for g in lay.lay_down.groups] == [["4H", "5H", "6H"], ["KC", "KD", "KS"]]
    assert (lay.lay_down.discard, lay.lay_down.extra) == ("2C", 1)
