"""Romis su iškritimu through the command line (docs/rules/romis.md): a demo of three bots over gRPC whose
record verifies, ``trapoula verify`` (clean and tampered) and ``replay`` of its record, ``trapoula
games``, and ``trapoula play`` (locally and at a server) with a person who types his sealed commands.

The words of the commands and events are tested in test_romis_text.py, the reading of typed commands
in test_romis_play_input.py; here they are seen as the terminal prints them in whole sessions."""

from __future__ import annotations

import io
import json
import random
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from cli_helpers import CARD, Person, demo_record, game_block, position_of, replayed, verified

from trapoula.clients.audit import audit_text
from trapoula.clients.cli import main
from trapoula.clients.play import LocalSession, play_loop
from trapoula.clients.table import command_message
from trapoula.domain.audit import TABLE_EVENTS
from trapoula.domain.chain import chain_record

pytestmark = pytest.mark.timeout(300)

SEED = "03" * 32
"""Local deals of ``play``: hand 1 deals the person 5♣ J♦ K♦ 5♠ 8♠ (a pair of fives, R4.2)."""
SHORT = ["--game", "romis", "--seats", "3", "--target", "30"]
"""Three players to 30 points (R2.3, R12.1): a match of a few hands."""
SUITS = {"♣": "C", "♦": "D", "♥": "H", "♠": "S"}


@pytest.fixture(scope="module")
def demo(address: str, tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str]:
    """``trapoula demo --game romis --seats 3 --target 30``: (record path, output)."""
    return demo_record(address, tmp_path_factory.mktemp("demo"), SHORT)


def code_of(shown: str) -> str:
    """The code of a card as the terminal shows it: ``10♠`` -> ``TS`` (R2.2)."""
    rank = shown[:-1]
    return ("T" if rank == "10" else rank) + SUITS[shown[-1]]


class Typist(Person):
    """A person at the terminal who types his commands instead of menu numbers (``readline`` only):
    the first reveal the menu offers, its cards in the other order and as codes (``reveal 5S 5C``, a
    new combination as ``reveal JC with JD``); ``aux`` when the menu offers to turn up an auxiliary
    card, ``cannot`` when it offers that.  His very first answer is ``cannot`` while a reveal is
    offered, which the rules refuse (R4.7)."""

    def __init__(self, out: io.StringIO, limit: int = 3000) -> None:
        super().__init__(out, limit)
        self.typed: list[str] = []

    def answer(self, text: str, screen: str) -> str:
        line = "cannot"
        if self.typed:
            entry = re.search(r"^  1\) (.*)$", screen, re.MULTILINE)
            assert entry is not None, screen
            line = self._typed(entry.group(1))
        self.typed.append(line)
        return line

    @staticmethod
    def _typed(entry: str) -> str:
        if entry == "turn up your next auxiliary card":
            return "aux"
        if entry.startswith("cannot"):
            return "cannot"
        fresh = re.fullmatch(rf"reveal ({CARD}) with ((?:{CARD} ?)+) face down \(new combination\)", entry)
        if fresh is not None:
            return f"reveal {code_of(fresh.group(1))} with " + " ".join(code_of(c) for c in fresh.group(2).split())
        cards = re.fullmatch(rf"reveal ((?:{CARD} ?)+)", entry)
        assert cards is not None, entry
        return "reveal " + " ".join(code_of(c) for c in reversed(cards.group(1).split()))


def _hands(output: str) -> list[tuple[str, dict[str, int], dict[str, int]]]:
    """Each ``Hand over (why). Points: .... Totals: ...`` line: (why, points, totals) by name."""

    def by_name(text: str) -> dict[str, int]:
        return {name: int(v) for name, v in (part.rsplit(" ", 1) for part in text.split(", "))}

    found = re.findall(r"Hand over \(([^)]*)\)\. Points: (.*)\. Totals: ([^.\n]*)", output)
    return [(why, by_name(points), by_name(totals)) for why, points, totals in found]


# --------------------------------------------------------------------------- demo, verify, replay, games


def test_a_romis_demo_runs_over_grpc_and_its_record_verifies_r11_1(demo: tuple[Path, str]) -> None:
    """R10.9: each hand's points are added to the totals; R11.1: the standings put the winner first,
    alone on the highest total, at least the target 30; the record verifies offline (sealed
    submissions included, R5.2)."""
    path, output = demo
    hands = _hands(output)
    assert hands, output
    running = {"Anna": 0, "Babis": 0, "Chrysa": 0}
    for why, points, totals in hands:
        assert re.fullmatch(r"won by (Anna|Babis|Chrysa)|all 52 cards revealed|stalemate", why), why
        running = {name: running[name] + points[name] for name in running}
        assert totals == running  # R10.9
    standings = output.split("final standings:\n", 1)[1].splitlines()[:3]
    rows = [re.fullmatch(r"  (\d)\. (\w+) (\d+)(  \(winner\))?", line) for line in standings]
    assert all(rows), standings
    final = {row.group(2): int(row.group(3)) for row in rows if row}
    assert final == running and rows[0] is not None and rows[0].group(4)
    ranked = [int(row.group(3)) for row in rows if row]
    assert ranked[0] >= 30 and ranked[0] > ranked[1] >= ranked[2]  # R11.1, R11.2
    assert f"Match over: {rows[0].group(2)} wins" in output and "record verified" in output
    report = audit_text(path.read_text(encoding="utf-8"))
    assert report.ok and report.game == "romis" and report.match_over, report.summary()
    assert report.hands == len(hands) and report.winner is not None and report.totals is not None
    assert report.totals[report.winner] == ranked[0]


def _rewrite(path: Path, target: Path, name: str, change: Callable[[dict[str, Any]], None], rehash: bool) -> Path:
    """The record at ``path`` with ``change`` applied to the payload of its first event ``name`` that
    ``change`` accepts (returns without raising); ``rehash`` recomputes the hash chain."""
    lines = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]
    for line in lines[1:]:
        if line["name"] == name:
            try:
                change(line["payload"])
            except LookupError:
                continue
            break
    if rehash:
        lines = chain_record(lines[0]["table_id"], lines[0]["game"], [(x["name"], x["payload"]) for x in lines[1:]])
    target.write_text("".join(json.dumps(x, separators=(",", ":")) + "\n" for x in lines), encoding="utf-8")
    return target


def test_verify_prints_the_totals_and_tampered_records_fail_naming_the_rule(
    demo: tuple[Path, str], tmp_path: Path
) -> None:
    """``trapoula verify``: exit 0 with the totals and the winner.  A winner's points changed in place
    break the hash chain (REC5); a sealed reveal changed with the chain recomputed no longer hashes to
    its seal (R5.2); both exit 1."""
    path, _ = demo
    text = verified(path)
    assert re.search(r"totals: Anna \(seat 0\) \d+, Babis \(seat 1\) \d+, Chrysa \(seat 2\) \d+", text), text
    assert re.search(r"match winner: (Anna \(seat 0\)|Babis \(seat 1\)|Chrysa \(seat 2\))", text), text

    def more_points(payload: dict[str, Any]) -> None:
        payload["points"] += 1

    out = io.StringIO()
    assert main(["verify", str(_rewrite(path, tmp_path / "chain.jsonl", "HandWon", more_points, False))], out=out) == 1
    assert "HandWon" in out.getvalue() and "rule REC5" in out.getvalue(), out.getvalue()

    def other_card(payload: dict[str, Any]) -> None:
        cards = payload["payload"]["cards"]  # KeyError for a cannot: the next one is taken
        cards[0] = "2C" if cards[0] != "2C" else "3C"

    out = io.StringIO()
    assert (
        main(["verify", str(_rewrite(path, tmp_path / "seal.jsonl", "SubmissionSealed", other_card, True))], out=out)
        == 1
    )
    shown = out.getvalue()
    assert "REC5" not in shown and re.search(r"first discrepancy at seq \d+ \(SubmissionSealed\), rule R5\.2", shown), (
        shown
    )


def test_replay_of_a_romis_record_describes_every_event(demo: tuple[Path, str]) -> None:
    """``trapoula replay`` (piped): every position in words, one line per recorded event -- the deal
    with the auxiliary cards face down (R3.3, R3.4), the rounds (R4), every sealed submission with what
    it sealed (R5.2) and every auxiliary card turned up (R6.1), every resolution (R5.3), elimination
    (R7.1) and hand won (R10.1) -- with the seats named; ``--at N --seat 1`` shows Babis's five cards
    at the start of round 1 and no other hand."""
    path, _ = demo
    record = [json.loads(line)["name"] for line in path.read_text(encoding="utf-8").splitlines()[1:]]
    text = replayed(path)
    assert "Match of romis: Anna, Babis, Chrysa, to 30 points" in text
    assert "--- hand 1: Chrysa deals (bonus factor 1)" in text  # R3.1: seat n-1 deals
    assert re.search(r"\] seq \d+: The deck is shuffled for the deal; commitment [0-9a-f]{16}…\n", text)  # R3.2
    assert re.search(rf"\] seq \d+: Anna is dealt ({CARD} ?){{5}}\n", text)  # the omniscient replay
    hands = record.count("HandStarted")
    assert (
        len(re.findall(rf": (Anna|Babis|Chrysa) is dealt 2 auxiliary cards face down: {CARD} {CARD}\n", text))
        == 3 * hands
    )
    assert text.count(" has submitted (sealed): ") == record.count("SubmissionSealed")
    assert len(re.findall(rf" has submitted \(sealed\): (reveal {CARD}|cannot reveal)", text)) == record.count(
        "SubmissionSealed"
    )
    assert len(re.findall(rf" turned up auxiliary card [12]: {CARD}\n", text)) == record.count("AuxiliaryUsed")
    assert len(re.findall(r"\] seq \d+: Round \d+( \(attempt \d+\))? resolved: ", text)) == record.count(
        "RoundResolved"
    )
    eliminated = re.findall(r": (?:Anna|Babis|Chrysa) is eliminated in round (\d+) with (\d+) points?", text)
    assert len(eliminated) == record.count("PlayerEliminated")
    assert all(int(points) == (0 if r == "1" else 2 if r == "2" else int(r) + 1) for r, points in eliminated)  # R7.2
    won = re.findall(
        r"wins the hand(?:, lays down .*)?: (\d+) revealed cards x ([124]) \+ bonus (\d+) = (\d+) points", text
    )
    assert len(won) == record.count("HandWon")
    assert all(int(c) * int(m) + int(b) == int(p) for c, m, b, p in won)  # R10.3
    assert re.search(r"Shuffles revealed: deal, salt [0-9a-f]{64}", text)
    assert "{" not in text.split("start of the match", 1)[1]  # every event has words, none falls back to its dict
    shown = replayed(path, "--at", str(position_of(text, "Round 1: reveal 2 cards")), "--seat", "1")
    assert re.search(rf"^Your hand \(Babis\): ({CARD} ?){{5}}$", shown, re.MULTILINE), shown
    assert "Your hand (Anna)" not in shown and "Your hand (Chrysa)" not in shown  # one seat's view
    assert "  you: revealed -; 2 auxiliary cards" in shown and "Your auxiliary cards left (unseen): 2" in shown


def test_a_seats_replay_leaves_out_the_others_auxiliary_cards_r5_4(demo: tuple[Path, str]) -> None:
    """R5.4, R6.4, section 9: replayed as one seat saw it, the listing holds that seat's own auxiliary
    cards turned up and none of the others' (it never received them); asked for such a position, it
    says only that nothing reached the seat there."""
    path, _ = demo
    lines = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()[1:]]
    used = [line["payload"]["seat"] for line in lines if line["name"] == "AuxiliaryUsed"]
    assert used, "the demo match used no auxiliary card"
    seat = used[0]
    out = io.StringIO()
    assert main(["replay", str(path), "--seat", str(seat)], out=out, inp=io.StringIO()) == 0
    text = out.getvalue()
    assert len(re.findall(r"^\[\d+/\d+\] seq \d+: You turned up auxiliary card [12]", text, re.MULTILINE)) == (
        used.count(seat)
    )
    assert len(re.findall(r" turned up auxiliary card [12]", text)) == used.count(seat)
    other = next(s for s in range(3) if s != seat)
    out = io.StringIO()
    assert main(["replay", str(path), "--seat", str(other)], out=out, inp=io.StringIO()) == 0
    assert len(re.findall(r" turned up auxiliary card [12]", out.getvalue())) == used.count(other)
    game = [line for line in lines if line["name"] not in TABLE_EVENTS]  # the seats' and the seeds' too
    position = 1 + next(i for i, line in enumerate(game) if line["name"] == "AuxiliaryUsed")
    out = io.StringIO()
    assert main(["replay", str(path), "--at", str(position), "--seat", str(other)], out=out, inp=io.StringIO()) == 0
    first_line = out.getvalue().splitlines()[1]  # after the line that explains positions and seq numbers
    assert first_line.endswith("(not shown to this seat: another seat's private move)"), first_line


@pytest.mark.parametrize("where", ["local", "server"])
def test_games_lists_romis_with_its_options_and_bot_levels(address: str, where: str) -> None:
    """R2.3 (2-4 players), section 7 (``target_score`` 100, R12.1; ``carried_bonus_factor`` 1, R12.3),
    ``resubmit`` off (R12.4) and the computer players: ``trapoula games`` (``--local`` or a
    server's ListGames)."""
    block = game_block(address, where, "romis")
    assert block[0].startswith("romis        Romis su iškritimu (2-4 players): ")
    assert block[1].strip() == "options: target_score=100, carried_bonus_factor=1, resubmit=false"
    assert block[2].strip() == "bot levels: random, heuristic"


# --------------------------------------------------------------------------- play


def test_play_romis_by_typed_commands_to_the_end_of_the_match() -> None:
    """A person (seat 0, against a heuristic player with seeded choices, target 10) types every
    command: ``cannot`` while he holds a pair is refused (R4.7) and asked again; his reveals typed in
    the other order are the legal ones (R4.2, R4.4, R13.1); ``aux`` turns up his auxiliary cards one at
    a time, slot 1 first (R6.1, R6.2), seen by him alone; a new combination is typed with ``with``
    (R8.2).  Each hand ends with its points added to the totals (R10.9) and the match at the target
    (R11.1)."""
    out = io.StringIO()
    person = Typist(out)
    session = LocalSession("romis", 2, "heuristic", {"target_score": 10}, seed=SEED, rng=random.Random(2))
    assert play_loop(session, person.stdin(), out) == 0
    text = out.getvalue()
    first = text.split("Your move [", 1)[0]
    assert "You are dealt 5♣ J♦ K♦ 5♠ 8♠\nYou are dealt 2 auxiliary cards face down\n" in first  # R3.3, R3.4
    assert "  1) reveal 5♣ 5♠\n" in first and "  you: revealed -; 2 auxiliary cards" in first
    assert person.typed == [
        "cannot",  # refused: he holds 5♣ 5♠ (R4.7)
        "reveal 5S 5C",  # round 1 (R4.2)
        "reveal 9S 8S",  # round 2 (R4.4)
        "reveal 6C",  # round 3 (R4.6)
        "aux",  # round 4: nothing fits; slot 1 is 6♥ (R6.1)
        "reveal 6H",
        "aux",  # round 5: slot 2 is J♣ (R6.2)
        "reveal JC with JD",  # no card fits, J♣ J♦ are related: a new combination (R8.1, R8.2)
        "reveal JD",  # round 6: the companion (R8.3)
        "cannot",  # round 7: nothing fits, no auxiliary card left (R6.3)
    ]
    assert (
        "Refused: cannot by seat 0: he has a legal reveal (romis, hand 1, round 1, attempt 1) [reveal_possible, R4.7]"
        in text
    )
    assert "You have submitted (sealed): reveal 5♣ 5♠" in text  # sent as the view lists it (R5.6)
    assert "You turned up auxiliary card 1: 6♥" in text and "You turned up auxiliary card 2: J♣" in text
    assert "You have submitted (sealed): reveal J♣ with J♦ face down (new combination)" in text
    assert "No reveal is possible and no auxiliary card is left: submit cannot." in text
    # R7.2: 8 revealed cards in round 7 (k + 1); R10.3, R10.4, R10.6: 9 x 1 + 2 players x 1
    assert "You are eliminated in round 7 with 8 points\n" in text
    assert "heuristic bot 1 wins the hand: 9 revealed cards x 1 + bonus 2 = 11 points\n" in text
    played = text.split("\nMatch over: ", 1)[0]  # the last view repeats the last hand's line
    assert _hands(played) == [
        ("won by heuristic bot 1", {"you": 8, "heuristic bot 1": 11}, {"you": 8, "heuristic bot 1": 11})
    ]
    assert re.search(r"^Match over: heuristic bot 1 wins$", text, re.MULTILINE)  # R11.1: 11 >= 10
    assert "Thanks for playing." in text and "None" not in text


def test_trapoula_play_romis_reads_typed_commands_from_standard_input() -> None:
    """``trapoula play --game romis`` (locally, deals from ``--seed``) with the person's lines on
    standard input: the prompt offers typing (R13.1-R13.3), the match is played to its end."""
    out = io.StringIO()
    code = main(["play", *SHORT, "--seed", SEED], out=out, inp=Typist(out).stdin())
    text = out.getvalue()
    assert code == 0, text[-3000:]
    assert "Match of romis: you, heuristic bot 1, heuristic bot 2, to 30 points" in text
    assert "Your move [1, or reveal and your cards, aux or cannot, q to quit]: " in text
    assert re.search(
        r"^Hand over \((won by [^)]+|all 52 cards revealed|stalemate)\)\. Points: you \d+", text, re.MULTILINE
    )
    assert re.search(r"^Match over: (You win|heuristic bot \d wins)$", text, re.MULTILINE)
    assert "Thanks for playing." in text


def test_play_romis_at_a_server(address: str) -> None:
    """``trapoula play --address``: the same session with the server's bots (RemoteSession), the bots
    and the person submitting in the same rounds (R5.1).  The server deals at random, and a deal
    may leave the person no reveal in round 1 (R4.7: he then submits ``cannot``): such a match is
    played to its end and another one started, at most three in all."""
    for _match in range(3):
        out = io.StringIO()
        code = main(["play", *SHORT, "--address", address], out=out, inp=Typist(out).stdin())
        text = out.getvalue()
        assert code == 0, text[-3000:]
        if re.search(r"Round 1 resolved: you reveal", text):
            break
    assert "Your hand (you): " in text and "You have submitted (sealed): reveal" in text, text[-3000:]
    assert re.search(r"Round 1 resolved: you reveal", text)
    assert re.search(r"Match over: (You win|heuristic bot \d wins)", text) and "Thanks for playing." in text


def test_romis_commands_go_on_the_wire_as_their_messages() -> None:
    """The client's wire form of R13.1-R13.3 (proto Reveal, UseAuxiliary, Cannot)."""
    fresh = command_message({"kind": "reveal", "cards": ["9S"], "companions": ["8S", "9D"]})
    assert fresh.WhichOneof("kind") == "reveal"
    assert (list(fresh.reveal.cards), list(fresh.reveal.companions)) == (["9S"], ["8S", "9D"])
    assert command_message({"kind": "use_auxiliary"}).WhichOneof("kind") == "use_auxiliary"
    assert command_message({"kind": "cannot"}).WhichOneof("kind") == "cannot"
